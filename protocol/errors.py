"""Protocol errors and the registry of error codes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Fault = Literal["local", "remote"]
"""Whose fault an error is, seen from the side that detects it: "remote" is the peer that sent the offending
frame or request, "local" is the detecting side itself."""


@dataclass(frozen=True, slots=True)
class ErrorCode:
    """One error code: its meaning, whose fault it usually is, whether it ends the connection, and since when."""

    code: str
    meaning: str
    fault: Fault
    fatal: bool
    since: int


ERROR_CODES: dict[str, ErrorCode] = {}


def _register(code: str, meaning: str, *, fault: Fault = "remote", fatal: bool = False, since: int = 1) -> None:
    ERROR_CODES[code] = ErrorCode(code, meaning, fault, fatal, since)


# Framing: the byte stream is broken, the connection closes.
_register("frame_too_large", "the frame's declared length exceeds the receiver's limit", fatal=True)
_register("empty_frame", "a frame of length zero", fatal=True)
_register("bad_msgpack", "the body is not exactly one well-formed msgpack object within the limits", fatal=True)
_register("not_a_map", "the body is not a msgpack map", fatal=True)
# Messages: the frame is dropped, the connection stays open.
_register("unknown_type", "the type key names no message of the negotiated version")
_register("missing_field", "a required field is absent")
_register("bad_field", "a field has the wrong type, is out of range, too long or inconsistent")
_register("wrong_role", "the sender's role may not send this message to the receiver's role")
_register("wrong_state", "the message is not allowed in the connection's current state")
_register("wrong_table", "the table field names another table than the one the connection is at")
_register("event_gap", "a table_event skipped a sequence number; the client should send resume")
# Handshake.
_register("version_unsupported", "client and server have no protocol version in common", fatal=True)
_register("bad_version", "welcome chose a version that the client did not offer", fatal=True)
_register("name_taken", "the display name is already used on this server", fatal=True)
_register("server_full", "the server accepts no more connections", fault="local", fatal=True)
_register("bad_name", "the display name is not allowed (control or bidi characters, a bot's reserved name, or Latin, "
          "Greek and Cyrillic letters mixed; or the server's admin reserved or banned it; or the client's address "
          "bound too many new names to keys lately, the reason saying when to try again)", fatal=True)
_register("bad_token", "the resume token is unknown or expired; the connection stays in the lobby")
_register("game_stopped", "the server could not save the table's game (its disk full, say): the table stopped, "
          "and comes back at a resume once the store answers again, or at the server's restart; the resume token stays "
          "valid", fault="local")
_register("bad_proof", "prove's signature does not prove the key of hello (or came before anything to prove)",
          fatal=True)
_register("not_proven", "a request before prove, on a connection whose hello named a key", fatal=True)
_register("resumed_elsewhere", "another connection resumed this one's seat or name with its token (section 9): this "
          "one is closed, and should not take it back", fault="local", fatal=True)
# Lobby.
_register("no_such_table", "the table does not exist (or is private and the join code is missing)")
_register("seat_taken", "the requested seat, or every seat, is taken")
_register("bad_join_code", "the join code of a private table is wrong")
_register("not_allowed", "the server's policy refuses the request (e.g. seat_bot at a table one did not create)")
_register("bot_failed", "the bot asked for with seat_bot could not take its seat; the seat is free again",
          fault="local")
_register("rate_limited", "too many requests of this kind (e.g. chat); this one was dropped, the connection goes on")
# Game actions (the codes of action_refused).
_register("bad_notation", "the action text is not valid action notation")
_register("ambiguous_action", "the action text matches more than one legal action")
_register("illegal_action", "the action breaks a rule (action_refused.rule names it)")
_register("action_id_reused", "an action_id was reused with a different text")
# Commit-reveal.
_register("bad_purpose", "no secret choice with this purpose is pending for this seat")
_register("commit_twice", "a second commitment for the same purpose")
_register("reveal_early", "a reveal before both commitments of the purpose are in")
_register("reveal_twice", "a second reveal for the same purpose")
_register("reveal_mismatch", "the revealed choice and nonce do not match the commitment")
# Session.
_register("timeout", "the peer was silent or too slow (handshake, ping)", fatal=True)
_register("internal", "the reporting side hit a bug", fault="local")
# Moderation (additive, version 1).
_register("kicked", "the server's admin closed this connection (dt-server admin kick, or a ban read anew): the "
          "reason says when the name may connect again; a client should not connect again by itself",
          fault="local", fatal=True)


class ProtocolError(Exception):
    """A protocol error with a registered code.

    `send()` raises it with fault "local"; `next_event()` returns it (never raises it) with
    fault "remote" when the peer sent something wrong. `fatal` comes from the registry: a fatal error
    received closes the connection. `template` and `values`, when given, are `message` as an English
    str.format template and its values (error.template/values: the reader may translate it; `templated`).
    """

    def __init__(self, code: str, message: str, *, fault: Fault | None = None, template: str | None = None,
                 values: dict[str, str | int] | None = None) -> None:
        if code not in ERROR_CODES:
            raise ValueError(f"unregistered error code {code!r}")
        spec = ERROR_CODES[code]
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.fault: Fault = fault or spec.fault
        self.fatal = spec.fatal
        self.template, self.values = template, values

    def __repr__(self) -> str:
        return f"ProtocolError({self.code!r}, {self.message!r}, fault={self.fault!r})"


TAKEBACK_HEAD = "nothing of yours can be taken back: "
"""The head of a refused takeback's template (error not_allowed), before the reason's own template: a reader
translates the head (as the msgid "nothing of yours can be taken back: {message}") and the reason separately."""


def templated(code: str, template: str, /, *, fault: Fault | None = None, **values: str | int) -> ProtocolError:
    """A ProtocolError whose message is an English str.format `template` formatted with `values` (notation, names
    or numbers, the same in every language), both sent with it (error.template/values) so that a client may show
    it in its reader's language. The templates are marked for the client's catalogue (Babel keyword
    `templated:2`, docs/translating.md)."""
    return ProtocolError(code, template.format(**values), fault=fault, template=template, values=values)
