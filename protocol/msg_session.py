"""Session messages, allowed whatever the table: ping, pong, server_closing, error, announcement."""

from __future__ import annotations

from dataclasses import dataclass

from .fields import optional, required
from .kinds import CHAT_TEXT, CODE, TEMPLATE, TEMPLATE_VALUES, TEXT
from .registry import Message, message
from .roles import ALL_ROLES, CLIENT_ROLES, Role
from .states import AFTER_HANDSHAKE, OPEN
from .wire_types import Bool, Int, OneOf

PING_ID = Int(0, 2**32 - 1)


@message("ping", sent_by=ALL_ROLES, sent_to=ALL_ROLES, states=AFTER_HANDSHAKE)
@dataclass(frozen=True, slots=True)
class Ping(Message):
    id: int = required(PING_ID)


@message("pong", sent_by=ALL_ROLES, sent_to=ALL_ROLES, states=AFTER_HANDSHAKE)
@dataclass(frozen=True, slots=True)
class Pong(Message):
    """The answer to ping, with its id."""

    id: int = required(PING_ID)


@message("server_closing", sent_by={Role.SERVER}, sent_to=CLIENT_ROLES, states=AFTER_HANDSHAKE)
@dataclass(frozen=True, slots=True)
class ServerClosing(Message):
    """The server is shutting down and closes the connection after this message."""

    reason: str = required(TEXT)


@message("error", sent_by=ALL_ROLES, sent_to=ALL_ROLES, states=OPEN)
@dataclass(frozen=True, slots=True)
class Error(Message):
    """A protocol error; `fault` says which side is to blame; after a fatal one the sender closes. `template` and
    `values`, when given, are `message` as an English str.format template and its values, as action_refused's."""

    code: str = required(CODE)
    message: str = required(TEXT)
    fault: str = required(OneOf(("client", "server")))
    fatal: bool = required(Bool())
    template: str | None = optional(TEMPLATE)
    values: dict[str, str | int] | None = optional(TEMPLATE_VALUES)


@message("announcement", sent_by={Role.SERVER}, sent_to=CLIENT_ROLES, states=AFTER_HANDSHAKE)
@dataclass(frozen=True, slots=True)
class Announcement(Message):
    """A message of the server's admin to every connected client (`dt-server admin say`), which a client shows
    as the server's, never as a player's chat. Sent only to a client that asked for the feature "announcements"
    (additive, version 1: views.ANNOUNCEMENTS); others get it as a `chat_message` from the server's name."""

    text: str = required(CHAT_TEXT)
