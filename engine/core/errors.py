"""The engine's errors: unparseable, illegal and ambiguous input are distinct."""


class EngineError(Exception):
    """Base class of every error the engine raises on bad input."""


class NotationError(EngineError, ValueError):
    """Text that cannot be parsed; `column` is the 0-based offset where parsing failed."""

    def __init__(self, message: str, text: str = "", column: int = 0):
        self.text = text
        self.column = column
        where = f" at column {column + 1}" if text else ""
        super().__init__(f"{message}{where}" + (f": {text!r}" if text else ""))


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


def N_(template: str) -> str:
    """Marks a refusal template kept in a table for extraction (Babel's default keyword `N_`); returns it as is."""
    return template


class AmbiguousAction(EngineError):
    """Input that matches several legal actions; `candidates` lists them in notation."""

    def __init__(self, message: str, candidates: tuple[str, ...] = ()):
        self.candidates = candidates
        super().__init__(message + (": " + ", ".join(candidates) if candidates else ""))
