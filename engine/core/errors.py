"""The engine's errors: unparseable, illegal and ambiguous input are distinct."""


def N_(template: str) -> str:
    """Marks a refusal template kept in a table for extraction (Babel's default keyword `N_`); returns it as is."""
    return template


class EngineError(Exception):
    """Base class of every error the engine raises on bad input."""


class NotationError(EngineError, ValueError):
    """Text that cannot be parsed; `column` is the 0-based offset where parsing failed.

    Like IllegalAction, the error is an English `str.format` template with named fields and its values (notation,
    numbers or the typed text itself, quoted: the same in every language): `message` is `template.format(**values)`.
    Given the text that failed, the error adds where, with a template of its own (AT, the fields `message`,
    `column` (1-based) and `text` (quoted)). `full_template` and `full_values` are the whole error as one template
    (the template followed by " at column {column}: {text}" when there is a text), whose format is `str(error)`: what
    the server sends in `action_refused` (docs/protocol.md). The templates are marked for extraction where they are
    written (Babel keywords `NotationError:1` and `fail:1`, `N_` for one kept in a table).
    """

    AT = N_("{message} at column {column}: {text}")
    AT_TAIL = " at column {column}: {text}"

    def __init__(self, template: str, text: str = "", column: int = 0, **values: str | int):
        assert "column" not in values and "text" not in values, "the fields column and text are the error's own"
        self.text = text
        self.column = column
        self.template = template
        self.values = {name: value if isinstance(value, (str, int)) else str(value) for name, value in values.items()}
        self.message = template.format(**self.values)
        if text:
            self.full_template = template + self.AT_TAIL
            self.full_values = {**self.values, "column": column + 1, "text": repr(text)}
            full = self.AT.format(message=self.message, column=column + 1, text=repr(text))
        else:
            self.full_template, self.full_values, full = template, dict(self.values), self.message
        super().__init__(full)


class PositionError(EngineError, ValueError):
    """A position that parses but that the rules never allow (docs/notation.md, "What a position may state").

    `rule` is the rule ID it breaks, `field` where it says so: "tokens", "square c5", "cards B", "turn high=".
    Distinct from NotationError (text that cannot be parsed at all).
    """

    def __init__(self, rule: str, field: str, message: str):
        self.rule = rule
        self.field = field
        self.message = message
        super().__init__(f"{field}: {message} ({rule})")


class IllegalAction(EngineError):
    """An action the rules forbid; `rule` is the rule ID that forbids it (e.g. BG-MOVE-09).

    `template` is the refusal as an English `str.format` template with named fields ("a wall or closed portcullis
    lies between {here} and {there}"), `values` its values: plain str or int, already in the game's notation
    (squares, token codes, seats) or numbers, the same in every language. `message` is the template formatted with
    them. A client translates the template and formats it with the values (docs/protocol.md, `action_refused`);
    the templates are marked for extraction where they are written (Babel keyword `IllegalAction:2`, and `N_` for
    one kept in a table), so the engine needs no gettext.
    """

    def __init__(self, rule: str, template: str, **values: str | int):
        self.rule = rule
        self.template = template
        self.values = {name: value if isinstance(value, (str, int)) else str(value) for name, value in values.items()}
        self.message = template.format(**self.values)
        super().__init__(f"{rule}: {self.message}")


class AmbiguousAction(EngineError):
    """Input that matches several legal actions; `candidates` lists them in notation.

    As IllegalAction: `template` and `values` (notation and numbers; `candidates` is given the candidates joined
    by ", "), `message` = `template.format(**values)` = `str(error)`."""

    def __init__(self, template: str, candidates: tuple[str, ...] = (), **values: str | int):
        self.candidates = candidates
        self.template = template
        self.values = {name: value if isinstance(value, (str, int)) else str(value) for name, value in values.items()}
        if "{candidates}" in template:
            self.values["candidates"] = ", ".join(candidates)
        self.message = template.format(**self.values)
        super().__init__(self.message)
