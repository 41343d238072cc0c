"""Wire types of fields: each checks a value and converts it between its msgpack and Python forms."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

INT_MAX = 2**63 - 1


class FieldError(Exception):
    """A field is missing (code "missing_field") or invalid ("bad_field"); `path` names it, e.g. "options.target_vp"."""

    def __init__(self, code: str, path: str, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.code = code
        self.path = path
        self.reason = reason


class WireType(Protocol):
    """What every wire type provides; decode and encode raise FieldError."""

    def decode(self, raw: Any, path: str) -> Any: ...
    def encode(self, value: Any, path: str) -> Any: ...
    def describe(self) -> str: ...


def bad_value(path: str, kind: WireType, value: Any) -> FieldError:
    return FieldError("bad_field", path, f"expected {kind.describe()}, got {_short(value)}")


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def key_text(key: Any) -> str:
    """A map key as a path element, shortened."""
    text = key if type(key) is str else repr(key)
    return text if len(text) <= 40 else text[:37] + "..."


# Scalar types: the wire value is the Python value, so decoding and encoding are the same check.


@dataclass(frozen=True)
class Str:
    """A msgpack str of min_len..max_len characters (code points)."""

    max_len: int
    min_len: int = 1

    def check(self, value: Any, path: str) -> str:
        if type(value) is not str:
            raise bad_value(path, self, value)
        if not self.min_len <= len(value) <= self.max_len:
            raise FieldError("bad_field", path, f"expected {self.describe()}, got {len(value)} characters")
        return value

    decode = encode = check

    def describe(self) -> str:
        return f"str[{self.min_len}..{self.max_len}]"


@dataclass(frozen=True)
class OneOf:
    """A msgpack str that must be one of `choices`."""

    choices: tuple[str, ...]

    def check(self, value: Any, path: str) -> str:
        if type(value) is not str or value not in self.choices:
            raise bad_value(path, self, value)
        return value

    decode = encode = check

    def describe(self) -> str:
        return "|".join(f'"{choice}"' for choice in self.choices)


@dataclass(frozen=True)
class Int:
    """A msgpack int in lo..hi (bool is not an int here)."""

    lo: int = 0
    hi: int = INT_MAX

    def check(self, value: Any, path: str) -> int:
        if type(value) is not int or not self.lo <= value <= self.hi:
            raise bad_value(path, self, value)
        return value

    decode = encode = check

    def describe(self) -> str:
        return f"int[{self.lo}..{'' if self.hi == INT_MAX else self.hi}]"


@dataclass(frozen=True)
class Bool:
    """A msgpack bool."""

    def check(self, value: Any, path: str) -> bool:
        if type(value) is not bool:
            raise bad_value(path, self, value)
        return value

    decode = encode = check

    def describe(self) -> str:
        return "bool"


@dataclass(frozen=True)
class Bin:
    """A msgpack bin of exactly `size` bytes."""

    size: int

    def check(self, value: Any, path: str) -> bytes:
        if type(value) is not bytes or len(value) != self.size:
            raise bad_value(path, self, value)
        return value

    decode = encode = check

    def describe(self) -> str:
        return f"bin({self.size})"


class Packed:
    """A map already packed as msgpack (the bytes of one map), sent as it is in place of a map field: a table
    renders an event once and every connection that receives it sends the same bytes."""

    __slots__ = ("data",)

    def __init__(self, data: bytes) -> None:
        self.data = data

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Packed) and other.data == self.data

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Packed({len(self.data)} bytes)"


@dataclass(frozen=True)
class AnyMap:
    """A free-form msgpack map (engine views, events, results); its content is not checked here. When sending,
    a Packed map stands for one (it must be the message's last field)."""

    def check(self, value: Any, path: str) -> dict:
        if type(value) is not dict:
            raise bad_value(path, self, value)
        return value

    decode = check

    def encode(self, value: Any, path: str) -> Any:
        return value if type(value) is Packed else self.check(value, path)

    def describe(self) -> str:
        return "map"


@dataclass(frozen=True)
class ListOf:
    """A msgpack array of at most max_len items of one type; a tuple in Python."""

    item: WireType
    max_len: int

    def decode(self, raw: Any, path: str) -> tuple:
        self._check(raw, path)
        return tuple(self.item.decode(value, f"{path}[{i}]") for i, value in enumerate(raw))

    def encode(self, value: Any, path: str) -> list:
        self._check(value, path)
        return [self.item.encode(item, f"{path}[{i}]") for i, item in enumerate(value)]

    def _check(self, value: Any, path: str) -> None:
        if type(value) not in (list, tuple) or len(value) > self.max_len:
            raise bad_value(path, self, value)

    def describe(self) -> str:
        return f"[{self.item.describe()}] (≤{self.max_len})"


@dataclass(frozen=True)
class TemplateValues:
    """The values of a refusal's template (action_refused.values): a map of at most `max_items` entries, each key a
    str[1..key_len] and each value an int in -2^31..2^31-1 or a str[0..value_len]."""

    max_items: int = 16
    key_len: int = 32
    value_len: int = 200

    def check(self, value: Any, path: str) -> dict:
        if type(value) is not dict or len(value) > self.max_items:
            raise bad_value(path, self, value)
        for key, item in value.items():
            if type(key) is not str or not 1 <= len(key) <= self.key_len:
                raise FieldError("bad_field", f"{path}.{key_text(key)}", f"expected a key str[1..{self.key_len}]")
            if type(item) is int:
                if not -2**31 <= item < 2**31:
                    raise bad_value(f"{path}.{key}", self, item)
            elif type(item) is not str or len(item) > self.value_len:
                raise FieldError("bad_field", f"{path}.{key}",
                                 f"expected int[-2^31..2^31-1] or str[0..{self.value_len}], got {_short(item)}")
        return value

    decode = encode = check

    def describe(self) -> str:
        return (f"{{str[1..{self.key_len}]: int[-2^31..2^31-1]|str[0..{self.value_len}]}} "
                f"(≤{self.max_items})")


@dataclass(frozen=True)
class HandicapMap:
    """The handicap option (BG-OPT-08/09, CG-HCAP) as a closed map: `seat` "B"|"Y" (required), `characters`
    int[2..8] (the stronger player's characters: 4 to 8 in the board game, 2 to 4 of a card-game scenario's 6),
    `removed_cards` up to 6 distinct ints 1..6 (his combat cards left out).
    Any other key is refused: the server echoes the options to everyone, so nothing free-form may ride along."""

    KEYS = ("seat", "characters", "removed_cards")

    def check(self, value: Any, path: str) -> dict:
        if type(value) is not dict:
            raise bad_value(path, self, value)
        for key in value:
            if key not in self.KEYS:
                raise FieldError("bad_field", f"{path}.{key_text(key)}", "unknown key")
        if "seat" not in value:
            raise FieldError("missing_field", f"{path}.seat", "missing")
        if type(value["seat"]) is not str or value["seat"] not in ("B", "Y"):
            raise bad_value(f"{path}.seat", OneOf(("B", "Y")), value["seat"])
        characters = value.get("characters", 8)
        if type(characters) is not int or not 2 <= characters <= 8:
            raise bad_value(f"{path}.characters", Int(2, 8), characters)
        cards = value.get("removed_cards", [])
        card = Int(1, 6)
        if type(cards) not in (list, tuple) or len(cards) > 6 or len(set(cards)) != len(cards) or not all(
                type(c) is int and 1 <= c <= 6 for c in cards):
            raise bad_value(f"{path}.removed_cards", ListOf(card, 6), cards)
        return value

    decode = encode = check

    def describe(self) -> str:
        return "{seat: \"B\"|\"Y\", characters?: int[2..8], removed_cards?: [int[1..6]] (≤6, distinct)}"
