"""Game messages: actions, numbered table events, snapshots, resume, presence, timers and the result."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from .fields import optional, required
from .kinds import ACTION_ID, ACTION_TEXT, CODE, EVENT_NUMBER, SEAT, TABLE_ID, TEMPLATE, TEMPLATE_VALUES, TEXT
from .registry import Message, message
from .roles import CLIENT_ROLES, Role
from .states import AT_A_TABLE, State
from .wire_types import AnyMap, Bool, Int, Str

SERVER = {Role.SERVER}
PLAYER = {Role.PLAYER}
SEQUENCE = Int(1)


@message("action", sent_by=PLAYER, sent_to=SERVER, states={State.AT_TABLE})
@dataclass(frozen=True, slots=True)
class Action(Message):
    """An action in canonical notation; `action_id` is the client's idempotency key for it."""

    table: str = required(TABLE_ID)
    action_id: str = required(ACTION_ID)
    text: str = required(ACTION_TEXT)


@message("takeback", sent_by=PLAYER, sent_to=SERVER, states={State.AT_TABLE})
@dataclass(frozen=True, slots=True)
class Takeback(Message):
    """Ask to take back one's last action (section 6: the opponent answers with takeback_answer)."""

    table: str = required(TABLE_ID)


@message("takeback_answer", sent_by=PLAYER, sent_to=SERVER, states={State.AT_TABLE})
@dataclass(frozen=True, slots=True)
class TakebackAnswer(Message):
    """The opponent's answer to a takeback request: `accept` takes the action back."""

    table: str = required(TABLE_ID)
    accept: bool = required(Bool())


@message("draw_offer", sent_by=PLAYER, sent_to=SERVER, states={State.AT_TABLE})
@dataclass(frozen=True, slots=True)
class DrawOffer(Message):
    """Offer the opponent a draw (section 6: he answers with draw_answer; an offer to a player who offered one
    already accepts his)."""

    table: str = required(TABLE_ID)


@message("draw_answer", sent_by=PLAYER, sent_to=SERVER, states={State.AT_TABLE})
@dataclass(frozen=True, slots=True)
class DrawAnswer(Message):
    """The opponent's answer to a draw offer: `accept` ends the game in a draw (result reason "agreed")."""

    table: str = required(TABLE_ID)
    accept: bool = required(Bool())


@message("rematch", sent_by=PLAYER, sent_to=SERVER, states={State.AT_TABLE})
@dataclass(frozen=True, slots=True)
class Rematch(Message):
    """Ask for (or accept) a rematch once the game is over (section 6: the same options at a new table, the colours
    swapped; the server moves both players there with `left`, `table_created` and `joined`)."""

    table: str = required(TABLE_ID)


@message("decline_rematch", sent_by=PLAYER, sent_to=SERVER, states={State.AT_TABLE})
@dataclass(frozen=True, slots=True)
class DeclineRematch(Message):
    """Decline the opponent's standing rematch offer (section 6, `decline_rematch`): it lapses at once, and the
    table is told (`rematch_lapsed` with `reason` "declined")."""

    table: str = required(TABLE_ID)


def rematch_options(options):
    """A rematch's table options (section 6, `rematch`): the finished table's, but a `handicap` follows its player
    to the other colour (its `seat` is the stronger player's, BG-OPT-08, CG-HCAP), rather than fall on his opponent.
    The server makes its rematches with them, and so does a client that makes one itself (after resigning)."""
    if options.handicap is None:
        return options
    return replace(options, handicap={**options.handicap, "seat": "Y" if options.handicap["seat"] == "B" else "B"})


@message("action_ok", sent_by=SERVER, sent_to=PLAYER, states={State.AT_TABLE})
@dataclass(frozen=True, slots=True)
class ActionOk(Message):
    action_id: str = required(ACTION_ID)


@message("action_refused", sent_by=SERVER, sent_to=PLAYER, states={State.AT_TABLE})
@dataclass(frozen=True, slots=True)
class ActionRefused(Message):
    """`rule` is the id of the broken rule, when the engine names one. `template` and `values`, when given, are
    `message` as an English str.format template with named fields and their values (a client may translate the
    template and format it with the values; one that does not shows `message`)."""

    action_id: str = required(ACTION_ID)
    code: str = required(CODE)
    message: str = required(TEXT)
    rule: str | None = optional(Str(64))
    template: str | None = optional(TEMPLATE)
    values: dict[str, str | int] | None = optional(TEMPLATE_VALUES)


@message("table_event", sent_by=SERVER, sent_to=CLIENT_ROLES, states=AT_A_TABLE)
@dataclass(frozen=True, slots=True)
class TableEvent(Message):
    """The n-th event of the table (numbered from 1), as this client may see it."""

    table: str = required(TABLE_ID)
    n: int = required(SEQUENCE)
    event: dict[str, Any] = required(AnyMap())


@message("snapshot", sent_by=SERVER, sent_to=CLIENT_ROLES, states=AT_A_TABLE)
@dataclass(frozen=True, slots=True)
class Snapshot(Message):
    """The whole view of the table after its n-th event; replaces every event up to n."""

    table: str = required(TABLE_ID)
    n: int = required(EVENT_NUMBER)
    view: dict[str, Any] = required(AnyMap())


@message("resume", sent_by=CLIENT_ROLES, sent_to=SERVER, states=AT_A_TABLE)
@dataclass(frozen=True, slots=True)
class Resume(Message):
    """Ask again for the events after `last_event` (the server may answer with a snapshot instead); with
    `snapshot` true, for a snapshot."""

    table: str = required(TABLE_ID)
    last_event: int = required(EVENT_NUMBER)
    snapshot: bool | None = optional(Bool())


@message("opponent_left", sent_by=SERVER, sent_to=CLIENT_ROLES, states=AT_A_TABLE)
@dataclass(frozen=True, slots=True)
class OpponentLeft(Message):
    """A seat's player disconnected; the seat is kept for `grace_seconds`."""

    table: str = required(TABLE_ID)
    seat: str = required(SEAT)
    grace_seconds: int = required(Int(0))


@message("opponent_back", sent_by=SERVER, sent_to=CLIENT_ROLES, states=AT_A_TABLE)
@dataclass(frozen=True, slots=True)
class OpponentBack(Message):
    table: str = required(TABLE_ID)
    seat: str = required(SEAT)


@message("timer", sent_by=SERVER, sent_to=CLIENT_ROLES, states=AT_A_TABLE)
@dataclass(frozen=True, slots=True)
class Timer(Message):
    """`seat` must act within `deadline_ms` milliseconds, counted from when the server sent this."""

    table: str = required(TABLE_ID)
    seat: str = required(SEAT)
    deadline_ms: int = required(Int(0))


@message("game_over", sent_by=SERVER, sent_to=CLIENT_ROLES, states=AT_A_TABLE)
@dataclass(frozen=True, slots=True)
class GameOver(Message):
    """The result: {"winner": "B"|"Y"|nil, "vp": {"B": int, "Y": int}, "reason": str}."""

    table: str = required(TABLE_ID)
    result: dict[str, Any] = required(AnyMap())
