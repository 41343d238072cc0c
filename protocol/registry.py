"""The message registry: each message type's wire name, roles, allowed states and first version."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import ClassVar, TypeVar

from .roles import Role
from .states import State


@dataclass(frozen=True)
class MessageSpec:
    name: str
    """The wire name: the value of the "type" key."""
    cls: type[Message]
    sent_by: frozenset[Role]
    sent_to: frozenset[Role]
    states: frozenset[State]
    """The states in which the message may be sent (and so received)."""
    since: int
    """The protocol version the message appeared in."""


class Message:
    """Base class of every message; subclasses are frozen dataclasses registered with @message."""

    __slots__ = ()
    spec: ClassVar[MessageSpec]


MESSAGES: dict[str, MessageSpec] = {}
"""Every message type by wire name, in registration order."""

M = TypeVar("M", bound=type[Message])


def message(
    name: str, *, sent_by: Iterable[Role], sent_to: Iterable[Role], states: Iterable[State], since: int = 1
) -> Callable[[M], M]:
    """Register a message class under its wire name."""

    def register(cls: M) -> M:
        if name in MESSAGES:
            raise ValueError(f"message {name!r} registered twice")
        cls.spec = MessageSpec(name, cls, frozenset(sent_by), frozenset(sent_to), frozenset(states), since)
        MESSAGES[name] = cls.spec
        return cls

    return register
