"""Events: what happened, as plain data, with what each viewer may see of it."""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Mapping


@dataclass(frozen=True)
class Event:
    """`data` is what its `owner` sees; every other viewer sees `public` (None: nothing at all).

    An event without an owner is public: everybody sees `data`.
    """

    kind: str
    data: Mapping[str, Any]
    owner: str | None = None
    public: Mapping[str, Any] | None = None

    def __post_init__(self):
        object.__setattr__(self, "data", MappingProxyType(dict(self.data)))
        if self.public is not None:
            object.__setattr__(self, "public", MappingProxyType(dict(self.public)))


def event(kind: str, **data) -> Event:
    """A public event: `Event(kind, data)` without the copy `__post_init__` makes of `data`, which is this call's
    own keyword dict (the rules emit one or two per action)."""
    ev = _new(Event)
    ev.__dict__.update(kind=kind, data=MappingProxyType(data), owner=None, public=None)
    return ev


def event_of(kind: str, data: dict) -> Event:
    """`event(kind, **data)` of a dict made for this event alone (a caller's own keyword dict, `Ctx.emit`'s), which
    it keeps rather than copies once more."""
    ev = _new(Event)
    ev.__dict__.update(kind=kind, data=MappingProxyType(data), owner=None, public=None)
    return ev


_new = object.__new__


def secret_event(kind: str, owner: str, data: dict, public: dict | None) -> Event:
    return Event(kind, data, owner, public)


GOD = "*"
"""A viewer that sees everything: only for local tools (dt-engine show, the replay of a finished game), never sent
over a network."""


def event_view(ev: Event, viewer: str | None) -> dict | None:
    """The event as `viewer` (a seat, None for a spectator, GOD for a local all-seeing tool) may see it."""
    if ev.owner is None or ev.owner == viewer or viewer == GOD:
        return {"kind": ev.kind, **ev.data}
    if ev.public is None:
        return None
    return {"kind": ev.kind, **ev.public}
