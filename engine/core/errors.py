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
    """An action the rules forbid; `rule` is the rule ID that forbids it (e.g. BG-MOVE-09)."""

    def __init__(self, rule: str, message: str):
        self.rule = rule
        self.message = message
        super().__init__(f"{rule}: {message}")


class AmbiguousAction(EngineError):
    """Input that matches several legal actions; `candidates` lists them in notation."""

    def __init__(self, message: str, candidates: tuple[str, ...] = ()):
        self.candidates = candidates
        super().__init__(message + (": " + ", ".join(candidates) if candidates else ""))
