"""Lobby messages: tables, seats, bots and chat."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .fields import Record, optional, required
from .kinds import CHAT_TEXT, EVENT_NUMBER, NAME, SEAT, TABLE_ID, TOKEN
from .registry import Message, message
from .roles import CLIENT_ROLES, Role
from .states import AFTER_HANDSHAKE, AT_A_TABLE, State
from .wire_types import Bool, HandicapMap, Int, ListOf, OneOf, Str

JOIN_CODE = Str(32)
SETS = ("base_set", "prison", "mixed", "paladins", "base_paladins", "prison_paladins", "all_sets")
TEAM_MODES = ("random", "mutual", "free", "full", "draft")
"""How a table's teams are made: a mixed board game's (PD-TEAM-02: random, mutual, free), or a card-game
scenario's (CG-SEL: mutual, full frontal, draft)."""
"""The sets a table may be played with (the engine's catalogue names); absent means the base set."""
SCENARIOS = ("prison-1", "prison-2", "prison-3", "prison-4", "prison-5")
"""The scenarios a table may be played with (the set's scenarios that are playable)."""
CARD_SCENARIOS = ("standard",)
"""The card game's scenario cards (CG-SCEN-04, RUL-112), for a table of `game: "cards"`."""
GAMES = ("board", "cards")
"""The games a table may be played with: the board game (any set), or the Card Game (docs/card-game.md)."""
TUTORIALS = (1, 2, 3)
"""The card game's tutorials (CG-TUT1..3)."""
SERVER = {Role.SERVER}
PLAYER = {Role.PLAYER}


@dataclass(frozen=True, slots=True)
class TableOptions:
    """The options of a new table; `handicap` is the engine's handicap option as a closed map."""

    target_vp: int = optional(Int(5, 8), default=5)
    beginner: bool = optional(Bool(), default=False)
    handicap: dict[str, Any] | None = optional(HandicapMap())
    timers: bool = optional(Bool(), default=False)
    private: bool = optional(Bool(), default=False)
    set_name: str | None = optional(OneOf(SETS))
    scenario: str | None = optional(OneOf(SCENARIOS + CARD_SCENARIOS))
    teams: str | None = optional(OneOf(TEAM_MODES))  # additive: how the teams are made (PD-TEAM-02, CG-SEL)
    game: str | None = optional(OneOf(GAMES))  # additive: absent is the board game
    tutorial: int | None = optional(Int(1, len(TUTORIALS)))  # additive: the card game's tutorial (default 1)
    secret_objects: bool = optional(Bool(), default=False, additive=True)  # the card game's variant (CG-OPT-03)


@dataclass(frozen=True, slots=True)
class TableInfo:
    """One line of the table list; a seat's player is absent while the seat is free. `blue_kept` / `yellow_kept`
    (additive, 2026-12-01): the name a free seat is kept for (a rematch's table, a kept seat), which nobody else
    may take until it is released."""

    table: str = required(TABLE_ID)
    options: TableOptions = required(Record(TableOptions))
    status: str = required(OneOf(("waiting", "playing", "over")))
    spectators: int = required(Int(0))
    blue: str | None = optional(NAME)
    yellow: str | None = optional(NAME)
    blue_kept: str | None = optional(NAME)
    yellow_kept: str | None = optional(NAME)


@message("list_tables", sent_by=CLIENT_ROLES, sent_to=SERVER, states=AFTER_HANDSHAKE)
@dataclass(frozen=True, slots=True)
class ListTables(Message):
    """Ask for the table list; the server answers tables: the public tables from `offset` on, at most `limit`
    of them (the server may send fewer, to keep the frame small)."""

    offset: int = optional(Int(0), default=0)
    limit: int | None = optional(Int(1, 10_000))


@message("tables", sent_by=SERVER, sent_to=CLIENT_ROLES, states=AFTER_HANDSHAKE)
@dataclass(frozen=True, slots=True)
class Tables(Message):
    """One page of the table list; `total` counts every public table, `more` says that tables follow this page
    (ask again with offset + the number of tables received)."""

    tables: tuple[TableInfo, ...] = required(ListOf(Record(TableInfo), 10_000))
    total: int | None = optional(Int(0))
    more: bool = optional(Bool(), default=False)


@message("table_update", sent_by=SERVER, sent_to=CLIENT_ROLES, states={State.LOBBY})
@dataclass(frozen=True, slots=True)
class TableUpdate(Message):
    """Feature "table_updates": a public table as it is now, new or changed (seats, status, spectators); the
    client puts it in its list in place of the line with the same id, or adds it."""

    info: TableInfo = required(Record(TableInfo))


@message("table_closed", sent_by=SERVER, sent_to=CLIENT_ROLES, states={State.LOBBY})
@dataclass(frozen=True, slots=True)
class TableClosed(Message):
    """Feature "table_updates": the table is gone from the list (closed, or no longer public)."""

    table: str = required(TABLE_ID)


@dataclass(frozen=True, slots=True)
class RatingInfo:
    """One line of the leaderboard: a player's Glicko-2 rating and RD (rounded), and his rated games."""

    name: str = required(NAME)
    rating: int = required(Int(0, 10_000))
    rd: int = required(Int(0, 1_000))
    games: int = required(Int(0))


@message("list_ratings", sent_by=CLIENT_ROLES, sent_to=SERVER, states={State.LOBBY})
@dataclass(frozen=True, slots=True)
class ListRatings(Message):
    """Ask for the leaderboard: the `limit` best rated players (the server may send fewer)."""

    limit: int = optional(Int(1, 100), default=20)


@message("ratings", sent_by=SERVER, sent_to=CLIENT_ROLES, states={State.LOBBY})
@dataclass(frozen=True, slots=True)
class Ratings(Message):
    """The leaderboard, best first: games between two people are rated (Glicko-2), games with a bot are not."""

    players: tuple[RatingInfo, ...] = required(ListOf(Record(RatingInfo), 100))


@dataclass(frozen=True, slots=True)
class GameInfo:
    """One finished public game the server keeps (`list_games`): its table, when it ended (Unix time, UTC, whole
    seconds), its result (the reason as `game_over.result.reason` gives it), and who sat in each seat."""

    table: str = required(TABLE_ID)
    options: TableOptions = required(Record(TableOptions))
    finished: int = required(Int(0, 2**40))
    reason: str = required(Str(128))
    vp_blue: int = required(Int(0, 1_000))
    vp_yellow: int = required(Int(0, 1_000))
    winner: str | None = optional(SEAT)
    blue: str | None = optional(NAME)
    yellow: str | None = optional(NAME)


@message("list_games", sent_by=CLIENT_ROLES, sent_to=SERVER, states={State.LOBBY})
@dataclass(frozen=True, slots=True)
class ListGames(Message):
    """Ask for the finished public games the server keeps, the last finished first: from `offset` on (the last
    10,000 at most: each skipped is read), at most `limit` (added in version 1, 2026-11-30, session 27)."""

    offset: int = optional(Int(0, 10_000), default=0)
    limit: int = optional(Int(1, 50), default=20)


@message("games", sent_by=SERVER, sent_to=CLIENT_ROLES, states={State.LOBBY})
@dataclass(frozen=True, slots=True)
class Games(Message):
    """A page of the finished public games, the last finished first; `total` counts them all; `offset` is the
    question's (added 2026-11-30, session 28: a client that asked twice knows which page came; left out by a
    server of session 27)."""

    games: tuple[GameInfo, ...] = required(ListOf(Record(GameInfo), 50))
    total: int = required(Int(0, 10**9))
    offset: int | None = optional(Int(0, 10_000))


RECORD_TEXT = Str(900_000)
"""A game record's text (a long game is ~200 KB; the whole frame stays below the default 1 MiB limit)."""


@message("get_record", sent_by=CLIENT_ROLES, sent_to=SERVER, states={State.LOBBY})
@dataclass(frozen=True, slots=True)
class GetRecord(Message):
    """Ask for the record of a finished game: it reveals every hidden fact. A private table's needs its join code
    (its players check their own game: `dt-client verify`)."""

    table: str = required(TABLE_ID)
    join_code: str | None = optional(JOIN_CODE)


@message("record", sent_by=SERVER, sent_to=CLIENT_ROLES, states={State.LOBBY})
@dataclass(frozen=True, slots=True)
class GameRecord(Message):
    """A finished game's record, as `dt-server records DIR TABLE` prints it (docs/notation.md)."""

    table: str = required(TABLE_ID)
    text: str = required(RECORD_TEXT)


@message("create_table", sent_by=PLAYER, sent_to=SERVER, states={State.LOBBY})
@dataclass(frozen=True, slots=True)
class CreateTable(Message):
    options: TableOptions = required(Record(TableOptions, closed=True))


@message("table_created", sent_by=SERVER, sent_to=PLAYER, states={State.LOBBY})
@dataclass(frozen=True, slots=True)
class TableCreated(Message):
    """The table exists; its creator still has to join it. `join_code` is set for private tables."""

    table: str = required(TABLE_ID)
    join_code: str | None = optional(JOIN_CODE)


@message("join", sent_by=PLAYER, sent_to=SERVER, states={State.LOBBY})
@dataclass(frozen=True, slots=True)
class Join(Message):
    """Take a seat; no seat means any free one."""

    table: str = required(TABLE_ID)
    seat: str | None = optional(SEAT)
    join_code: str | None = optional(JOIN_CODE)


@message("spectate", sent_by={Role.SPECTATOR}, sent_to=SERVER, states={State.LOBBY})
@dataclass(frozen=True, slots=True)
class Spectate(Message):
    """Watch a table; with `last_event`, the server replays only the events after it. A private table needs its
    join code."""

    table: str = required(TABLE_ID)
    last_event: int | None = optional(EVENT_NUMBER)
    join_code: str | None = optional(JOIN_CODE)


@message("joined", sent_by=SERVER, sent_to=CLIENT_ROLES, states={State.LOBBY})
@dataclass(frozen=True, slots=True)
class Joined(Message):
    """The answer to join, spectate or a resume in hello: a seat (a player) or none (a spectator).

    `grace_seconds` (optional, since it was added): how long the server holds this seat after a disconnection,
    so that the client knows how long it may try to resume. Absent: the server does not say. A server that
    restarts holds it RESTART_GRACE_SECONDS at least. `restored` (added 2026-11-30): this resume is the first since
    the table was restored from the server's store (a restart, or a game stopped because the store could not save
    it): the game goes on from its last saved step and its clocks start afresh (DT-090)."""

    table: str = required(TABLE_ID)
    token: str = required(TOKEN)
    seat: str | None = optional(SEAT)
    grace_seconds: int | None = optional(Int(0, 7 * 24 * 3600))
    restored: bool = optional(Bool(), default=False)


RESTART_GRACE_SECONDS = 60
"""The least time a server that restarted holds each seat of its restored tables for its player, whatever its
`grace_seconds` (a restart is no player's fault): so a client whose connection was lost tries to resume that long
at least, since it cannot tell a restart from a drop (a play-test's server ran with grace_seconds = 0: its
clients gave up at once, saying the seat was held 0 s, while it held them 60 s)."""


@message("leave", sent_by=CLIENT_ROLES, sent_to=SERVER, states=AT_A_TABLE)
@dataclass(frozen=True, slots=True)
class Leave(Message):
    """Give up one's seat or stop watching; the server answers left."""


@message("left", sent_by=SERVER, sent_to=CLIENT_ROLES, states=AT_A_TABLE)
@dataclass(frozen=True, slots=True)
class Left(Message):
    """The client is back in the lobby: the answer to leave, or sent alone when the server closes the table."""

    table: str = required(TABLE_ID)


@message("seat_bot", sent_by=PLAYER, sent_to=SERVER, states={State.AT_TABLE})
@dataclass(frozen=True, slots=True)
class SeatBot(Message):
    table: str = required(TABLE_ID)
    seat: str = required(SEAT)
    kind: str = required(OneOf(("random", "greedy", "planner")))


@message("chat", sent_by=CLIENT_ROLES, sent_to=SERVER, states=AFTER_HANDSHAKE)
@dataclass(frozen=True, slots=True)
class Chat(Message):
    """Say something to one's table, or to the lobby when at no table."""

    text: str = required(CHAT_TEXT)


@message("chat_message", sent_by=SERVER, sent_to=CLIENT_ROLES, states=AFTER_HANDSHAKE)
@dataclass(frozen=True, slots=True)
class ChatMessage(Message):
    """A chat line; `table` is absent for lobby chat."""

    sender: str = required(NAME, key="from")
    text: str = required(CHAT_TEXT)
    table: str | None = optional(TABLE_ID)
