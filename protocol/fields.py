"""Message and record fields: declaring them on frozen dataclasses, and converting instances to and from maps.

A message or record is a frozen dataclass whose fields are declared with `required(kind)` or
`optional(kind)`, `kind` being a wire type. On the wire it is a map; an optional field may be absent or nil
(both give its default; a None value is omitted when encoding); keys the class does not declare are ignored,
except in a closed Record (bad_field).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from .wire_types import FieldError, WireType, bad_value, key_text


@dataclass(frozen=True)
class Record:
    """A nested map described by a frozen dataclass declared like a message."""

    cls: type
    closed: bool = False
    """Refuse keys the class does not declare (bad_field), e.g. the options of a new table, which the server
    would otherwise keep and echo to everyone."""

    def decode(self, raw: Any, path: str) -> Any:
        if type(raw) is not dict:
            raise bad_value(path, self, raw)
        if self.closed:
            known = {field.key for field in wire_fields(self.cls)}
            unknown = next((key for key in raw if key not in known), None)
            if unknown is not None:
                raise FieldError("bad_field", f"{path}.{key_text(unknown)}", "unknown key")
        return decode_fields(self.cls, raw, path)

    def encode(self, value: Any, path: str) -> dict:
        if type(value) is not self.cls:
            raise bad_value(path, self, value)
        return encode_fields(value, path)

    def describe(self) -> str:
        return f"{self.cls.__name__} (no other keys)" if self.closed else self.cls.__name__


@dataclass(frozen=True)
class WireField:
    """How one dataclass attribute travels: its map key, type and whether it may be absent."""

    name: str
    key: str
    kind: WireType
    required: bool
    quiet_default: Any = None
    """What the encoder leaves out as if absent (an additive field at its default; None: nothing but None)."""


_WIRE = "dungeon_twister.wire"


def required(kind: WireType, *, key: str | None = None) -> Any:
    """Declare a field that must be present and not nil; `key` renames it on the wire."""
    return dataclasses.field(metadata={_WIRE: (kind, key, True)})


def optional(kind: WireType, *, default: Any = None, key: str | None = None, additive: bool = False) -> Any:
    """Declare a field that may be absent or nil on the wire, both meaning `default`. An `additive` field, added
    after its message's first version, is left out while it has its `default`: a peer of before reads the map as
    it always did, even a closed record (`Record(closed=True)`), which refuses keys it does not know."""
    quiet = default if additive else None
    return dataclasses.field(default=default, metadata={_WIRE: (kind, key, False, quiet)})


_wire_fields: dict[type, tuple[WireField, ...]] = {}


def wire_fields(cls: type) -> tuple[WireField, ...]:
    """The wire fields of a message or record class, in declaration order (the order of keys on the wire)."""
    if cls not in _wire_fields:
        _wire_fields[cls] = tuple(_wire_field(field) for field in dataclasses.fields(cls))
    return _wire_fields[cls]


def _wire_field(field: dataclasses.Field) -> WireField:
    kind, key, is_required, *quiet = field.metadata[_WIRE]
    return WireField(field.name, key or field.name, kind, is_required, *quiet)


def decode_fields(cls: type, raw: dict, path: str) -> Any:
    """Build an instance of `cls` from a msgpack map; raise FieldError; ignore unknown keys."""
    values = {}
    for field in wire_fields(cls):
        where = f"{path}.{field.key}"
        if field.key not in raw:
            if field.required:
                raise FieldError("missing_field", where, "missing")
            continue
        value = raw[field.key]
        if value is None and not field.required:
            continue
        values[field.name] = field.kind.decode(value, where)
    return cls(**values)


def encode_fields(obj: Any, path: str) -> dict:
    """The msgpack map of a message or record instance; raise FieldError if a value is invalid."""
    raw = {}
    for field in wire_fields(type(obj)):
        value = getattr(obj, field.name)
        where = f"{path}.{field.key}"
        if value is None:
            if field.required:
                raise FieldError("missing_field", where, "missing")
            continue
        if field.quiet_default is not None and value == field.quiet_default:
            continue
        raw[field.key] = field.kind.encode(value, where)
    return raw
