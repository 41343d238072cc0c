"""Handshake messages: hello, welcome, refused."""

from __future__ import annotations

from dataclasses import dataclass

from .fields import Record, optional, required
from .kinds import CODE, EVENT_NUMBER, NAME, TABLE_ID, TEMPLATE, TEMPLATE_VALUES, TEXT, TOKEN
from .registry import Message, message
from .roles import CLIENT_ROLES, Role
from .states import AFTER_HANDSHAKE, State
from .wire_types import Bin, Int, ListOf, OneOf, Str

VERSION = Int(1, 65535)
FEATURES = ListOf(Str(32), 16)
"""Optional features a client understands (hello) and the server will use on this connection (welcome)."""


@dataclass(frozen=True, slots=True)
class Software:
    """A program and its version, e.g. Software("dt-client", release()) (protocol/versions.py)."""

    name: str = required(Str(64))
    version: str = required(Str(32))


@dataclass(frozen=True, slots=True)
class ResumeInfo:
    """What a reconnecting client held: the token of its `joined`, the table and the last event it saw."""

    token: str = required(TOKEN)
    table: str = required(TABLE_ID)
    last_event: int = required(EVENT_NUMBER)


@message("hello", sent_by=CLIENT_ROLES, sent_to={Role.SERVER}, states={State.AWAIT_HELLO})
@dataclass(frozen=True, slots=True)
class Hello(Message):
    """The client's first message: the versions it speaks, its software, its role, the user's name, and
    optionally the seat or watch it resumes."""

    versions: tuple[int, ...] = required(ListOf(VERSION, 16))
    client: Software = required(Record(Software))
    role: str = required(OneOf(("player", "spectator")))
    name: str = required(NAME)
    resume: ResumeInfo | None = optional(Record(ResumeInfo))
    features: tuple[str, ...] | None = optional(FEATURES)
    key: bytes | None = optional(Bin(32))
    """The user's Ed25519 public key (section 18): the name is bound to it on first sight."""


@message("welcome", sent_by={Role.SERVER}, sent_to=CLIENT_ROLES, states={State.AWAIT_WELCOME})
@dataclass(frozen=True, slots=True)
class Welcome(Message):
    """The version chosen among the client's, the server's software, and an opaque session id."""

    version: int = required(VERSION)
    server: Software = required(Record(Software))
    session: str = required(TOKEN)
    features: tuple[str, ...] | None = optional(FEATURES)
    challenge: bytes | None = optional(Bin(32))
    """When hello named a key: what the client signs in `prove` (section 18)."""


@message("prove", sent_by=CLIENT_ROLES, sent_to={Role.SERVER}, states=AFTER_HANDSHAKE)
@dataclass(frozen=True, slots=True)
class Prove(Message):
    """The client's Ed25519 signature of the welcome's challenge (section 18); sent first after welcome."""

    signature: bytes = required(Bin(64))


@message("refused", sent_by={Role.SERVER}, sent_to=CLIENT_ROLES, states={State.AWAIT_WELCOME})
@dataclass(frozen=True, slots=True)
class Refused(Message):
    """The server will not serve this client (see the error codes); it closes the connection. `template` and
    `values`, when given, are `reason` as an English str.format template and its values, as action_refused's."""

    code: str = required(CODE)
    reason: str = required(TEXT)
    template: str | None = optional(TEMPLATE)
    values: dict[str, str | int] | None = optional(TEMPLATE_VALUES)
