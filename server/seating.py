"""Who is at a table: its two seats (held through a disconnection, reserved for an arriving bot) and its
spectators; joining, watching, resuming, leaving and giving up a seat. Part of the table's task."""

from __future__ import annotations

import math
import time
from collections import deque
from dataclasses import dataclass
from typing import TYPE_CHECKING

import trio

from dungeon_twister.engine import SEATS, opponent
from dungeon_twister.protocol import (ChatMessage, Join, Joined, Left, OpponentBack, OpponentLeft, ProtocolError,
                                     SeatBot, State, templated)
from dungeon_twister.protocol.names import name_key
from dungeon_twister.protocol.views import SEED_CONTRIBUTIONS

from . import rematch
from .logs import log
from .play import ABANDONED_BY_BOTH, ABORTED

if TYPE_CHECKING:
    from .ports import Client as Session
    from .ports import TableRoom as Table


_NO_NAMES: frozenset[str] = frozenset()
RESERVED_SEAT_SECONDS = 300.0
"""How long a seat kept for a name (a rematch's, a kept seat's: `Seating.reserve`) waits for him: then it is
anyone's (or the table closes, if nobody sits at it). As long as an empty table waits for its creator
(table.EMPTY_TABLE_SECONDS); at least RESTART_GRACE_SECONDS after a restart."""
MISSED_CHAT = 20
"""The table chat lines a held seat is sent when its player resumes: the newest ones said while he was away."""


def code_matches(given: str | None, join_code: str | None) -> bool:
    """A join code as typed: its letters in either case (hex, shown lowercase; read aloud at a LAN party, a
    play-test typed it in capitals), surrounding spaces ignored."""
    return given is not None and join_code is not None and given.strip().lower() == join_code.lower()


def _private(table: str, join_code: str | None) -> ProtocolError:
    """The refusal of a private table to one who did not give its join code (no_such_table: a private table is
    not listed) or gave a wrong one (bad_join_code)."""
    if join_code is None:
        return templated("no_such_table", "table {table} is private: it takes its join code", table=table)
    return templated("bad_join_code", "that is not the join code of table {table}", table=table)


@dataclass
class Arrival:
    """A table's inbox item: a player another table's task moves here (`Table.take_player`: a rematch, rematch.py;
    a seat kept, `Seating.keep_seat`), seated in `seat` as a `join` of his would be; then `event`, if any, published
    (why he is here: `seat_kept`)."""

    session: Session
    seat: str
    event: dict | None = None
    done: trio.Event | None = None


@dataclass
class SeatState:
    name: str | None = None
    session: Session | None = None
    token: str | None = None
    bot: bool = False
    """Seated (or reserved) for a bot."""
    bot_pending: bool = False
    """Reserved for a bot that has not joined yet."""
    grace_until: float | None = None
    """When the seat of a disconnected player is given up (trio clock)."""
    contributes: bool = False
    """A player whose connection has the feature seed_contributions (docs/protocol.md section 16)."""
    gave_up: bool = False
    """The seat's grace ran out while the other seat's was running too: the game waits for the other player (back
    in time, he wins; his grace out as well, the game is abandoned by both, without a winner)."""
    missed_chat: deque[ChatMessage] | None = None
    """The table's chat said while the seat was held (its player away), sent when he resumes (`chat`); None until
    a line is kept (an empty deque is 760 bytes, two a game: row 5 of issue 7 counts them)."""


class Seating:
    reserved: dict[str, str] | None = None
    """A rematch's table (rematch.py): {seat: the name it is kept for}, until he sits; None (this class's, no room
    taken) at any other table."""
    bot_after: tuple[str, str] | None = None
    """A rematch against a bot: (seat, kind) of the bot seated once its player sits."""
    reserved_until: float | None = None
    """When (trio's clock) the seats `reserved` keeps are released (RESERVED_SEAT_SECONDS)."""
    reserved_why = "rematch"
    """Why the seats are kept: "rematch" (rematch.py) or "kept" (a seat kept, `keep_seat`): the refusal says it."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.lobby = table.lobby
        self.seats = {seat: SeatState() for seat in SEATS}
        self.spectators: dict[Session, str] = {}
        self._dismissed: set[str] | frozenset[str] = _NO_NAMES
        """Bots sent away before they arrived (a set of its own once there is one: an empty set is 216 bytes of
        every table)."""
        self.from_store: frozenset = frozenset()
        """The tokens (lobby.TokenRef) of a table restored from the store not resumed since (recovery.py). Each one's
        first resume gets a snapshot, whatever event it names: a store put back from an older copy numbers its
        events again from the copy's reservation, so a number a client saw may now name another event."""

    def seat_of(self, session: Session) -> str | None:
        return next((seat for seat, s in self.seats.items() if s.session is session), None)

    def names(self) -> dict:
        return {seat: state.name for seat, state in self.seats.items()}

    def chat(self, message: ChatMessage) -> None:
        """A table chat line: to everyone at the table, and kept for a held seat, whose player gets it on resuming
        (the newest MISSED_CHAT lines): he would have seen it had his connection not dropped, and nobody else gets
        it again. Kept in memory only: a server restart loses it, as it loses the seats' connections."""
        self.table.send_all(message)
        for state in self.seats.values():
            if state.session is None and state.grace_until is not None:
                if state.missed_chat is None:
                    state.missed_chat = deque(maxlen=MISSED_CHAT)
                state.missed_chat.append(message)

    def viewers(self) -> list[tuple[Session, str | None]]:
        out = [(s.session, seat) for seat, s in self.seats.items() if s.session is not None]
        return out + [(session, None) for session in self.spectators]

    def empty(self) -> bool:
        """Nobody watches, sits, is awaited back or is about to arrive (a bot)."""
        return not self.spectators and all(s.session is None and s.grace_until is None and not s.bot_pending
                                           for s in self.seats.values())

    def may_contribute(self) -> bool:
        """Whether the players seated so far could all contribute to the deal (a bot stands aside): while this
        holds before the start, views show a placeholder game, nothing of the server's seed."""
        if self.table.seed_nonce is None:
            return False
        humans = [s for s in self.seats.values() if s.name is not None and not s.bot]
        return bool(humans) and all(s.contributes for s in humans)

    def contributions(self) -> dict[str, str] | None:
        """Both seats taken: each seat's first status in the deal exchange ("commit": a player who contributes;
        "none": a bot), or None when the game is dealt from the server's seed alone (a player without the feature,
        or no player at all)."""
        if not self.may_contribute():
            return None
        return {seat: "none" if s.bot else "commit" for seat, s in self.seats.items()}

    def graces(self) -> list[float]:
        graces = [s.grace_until for s in self.seats.values() if s.grace_until is not None]
        return graces + [self.reserved_until] if self.reserved and self.reserved_until is not None else graces

    def expire_graces(self, now: float) -> None:
        for seat, state in self.seats.items():
            if state.grace_until is not None and state.grace_until <= now:
                self.give_up(seat)
        if self.reserved and self.reserved_until is not None and self.reserved_until <= now:
            self.release_reserved()

    def reserve(self, names: dict[str, str], bot: tuple[str, str] | None, until: float | None = None,
                why: str = "rematch") -> None:
        """A rematch's new table (rematch.py), or a kept seat's (`keep_seat`), before its task runs: each seat of
        `names` kept for that name until `until` (trio's clock; by default RESERVED_SEAT_SECONDS from now); `bot`,
        (seat, kind), seated once the player sits. Durable: a restart keeps the seats for the names (recovery.py)."""
        self.reserved, self.bot_after = dict(names), bot
        if why != self.reserved_why:
            self.reserved_why = why
        self.reserved_until = trio.current_time() + RESERVED_SEAT_SECONDS if until is None else until
        self.store_reserved()

    def store_reserved(self) -> None:
        """The seats kept for names, as the store keeps them (StoredTable.kept: the deadline by the wall clock)."""
        if not self.reserved:
            return self.lobby.store.set_kept(self.table.id, None)
        left = max(0.0, (self.reserved_until or 0.0) - trio.current_time())
        self.lobby.store.set_kept(self.table.id, {"reserved": self.reserved, "until": time.time() + left,
                                                  "bot": None if self.bot_after is None else list(self.bot_after),
                                                  "why": self.reserved_why})

    def release_reserved(self) -> None:
        """The seats kept for names waited RESERVED_SEAT_SECONDS: anyone may take them now; the table closes if
        nobody sits at it (a player moved here whose connection ended, or who went elsewhere)."""
        log("seats_released", table=self.table.id, seats=self.reserved)
        self.reserved, self.bot_after, self.reserved_until = None, None, None
        self.store_reserved()
        self.table.note_if_empty(at_once=True)

    def move_out(self, session: Session, seat: str) -> None:
        """A rematch takes the player of `seat` to another table (rematch.py): he leaves this finished one as with
        `leave` (told `left`), his offer gone with him."""
        self._unseat(seat)
        session.send(Left(self.table.id))
        self.table.note_if_empty()

    def _unseat(self, seat: str) -> None:
        """The player of `seat` leaves it (`leave`) or goes to another table (a rematch: `move_out`; a kept seat:
        `keep_seat`): the seat is no longer his connection's, nor his token's. Undone if the store cannot save the
        step (Table.if_not_saved): he is then this table's again as the store has it (his connection and his token:
        a resume of his is answered as the other viewers' are), and cut off with them, told nothing of the step
        (review rm32: a rematch's players were sent its `left` and `table_created`)."""
        state = self.seats[seat]
        session, token = state.session, state.token
        ref = self.lobby.tokens.get(token)
        state.session = None
        self.lobby.revoke_token(token)
        state.token = None

        def undo() -> None:
            self.seats[seat] = state  # (`_free` puts a new one there)
            state.session, state.token = session, token
            if ref is not None:
                self.lobby.tokens[token] = ref
            if session is not None:  # (not on his way to a table the step made, which goes too: Table.discard)
                session.table, session.moving_to = self.table, None

        self.table.if_not_saved(undo)

    def join(self, session: Session, message: Join) -> None:
        if self.table.options.private and not code_matches(message.join_code, self.table.join_code):
            return session.send_error(_private(message.table, message.join_code))
        if self.table.status == "over":  # (play-test pt24 F11: it said "every seat is taken", true but beside the
            # point; and a seat a player left after the end would have seated a newcomer at a finished game)
            return session.send_error(templated("seat_taken", "the game at this table is over"))
        seat = message.seat or next((s for s in SEATS if self._may_sit(s, session)), None)
        if seat is None or not self._may_sit(seat, session) or session.name in self._dismissed:
            kept = self._kept_for(seat) if seat is not None and self.seats[seat].name is None else None
            if kept is not None and self.reserved_why == "kept":  # (`keep_seat`: not a rematch's)
                return session.send_error(templated("seat_taken", "seat {seat} is kept for {name}", seat=seat,
                                                    name=kept))
            if kept is not None:
                return session.send_error(templated("seat_taken", "seat {seat} is kept for {name} (a rematch)",
                                                    seat=seat, name=kept))
            return session.send_error(templated("seat_taken", "that seat is taken") if message.seat
                                      else templated("seat_taken", "every seat is taken"))
        state = self.seats[seat]
        state.name, state.bot_pending = session.name, False
        state.contributes = SEED_CONTRIBUTIONS in session.conn.features
        self.lobby.store.set_seat(self.table.id, seat, session.name,
                                  session.name.split("-bot-")[0] if state.bot else None)
        self.table.publish([{"kind": "player_joined", "seat": seat, "name": session.name}, self.table.point()])
        state.session, state.token = session, self.lobby.issue_token(self.table, seat, session.name)
        session.send(Joined(self.table.id, state.token, seat, self.table.grace))
        self.table.catch_up(session, seat, None)
        log("seat_taken", table=self.table.id, seat=seat, name=session.name)
        if self._kept_for(seat) is not None:  # (kept for him: his now)
            del self.reserved[seat]
            bot, self.bot_after = self.bot_after, None
            self.store_reserved()
            if bot is not None and self.seats[bot[0]].name is None:  # (as `dt-client play` seats its bot: once the
                self._seat_bot(*bot)  # player sits)
        if not self.table.play.started and all(s.name and not s.bot_pending for s in self.seats.values()):
            self.table.play.seated()

    def _may_sit(self, seat: str, session: Session) -> bool:
        state = self.seats[seat]
        if state.name is None:
            kept = self._kept_for(seat)
            return kept is None or name_key(kept) == name_key(session.name or "")
        return state.bot_pending and state.name == session.bot_name

    def _kept_for(self, seat: str) -> str | None:
        """The name a rematch keeps `seat` for (None: anyone may sit; rematch.py)."""
        return self.reserved.get(seat) if self.reserved else None

    def spectate(self, session: Session, last_event: int | None, join_code: str | None) -> None:
        if self.table.options.private and not code_matches(join_code, self.table.join_code):
            return session.send_error(_private(self.table.id, join_code))
        self.spectators[session] = token = self.lobby.issue_token(self.table, None, session.name)
        session.send(Joined(self.table.id, token))
        self.table.catch_up(session, None, last_event)
        self._tell_away(session, "BY")

    def enter(self, session: Session, token: str, last_event: int) -> None:
        """hello.resume: the same seat (or watch) with the same token, the missed events, and the opponent told."""
        ref = self.lobby.tokens.get(token)
        seat = ref.seat if ref is not None else None
        if ref is None or ref.table is not self.table or (seat is not None and self.seats[seat].token != token):
            return session.send_error(templated("bad_token", "this resume token is unknown or expired"))
        if (seat is None) != session.is_spectator:
            # A token is valid only for its role: a seat's token on a spectator connection (or a watch's on a
            # player's) would re-bind the seat to a connection that can never be told `joined` nor act.
            return session.send_error(templated("bad_token", "this resume token is for a spectator") if seat is None
                                      else templated("bad_token", "this resume token is for a player"))
        # The token stays the same across resumes: were it replaced, a client whose `joined` is lost in the next
        # drop would hold only a revoked token, and lose its seat (DT-052).
        restored = ref in self.from_store
        if restored:
            self.from_store -= {ref}
            last_event = None  # a snapshot (docs/protocol.md section 13, Restarts)
        if seat is None:
            self.spectators[session] = token
            session.send(Joined(self.table.id, token, restored=restored))
            self.table.catch_up(session, None, last_event)
            return self._tell_away(session, "BY")
        state = self.seats[seat]
        old, state.session, state.grace_until = state.session, session, None
        if not isinstance(token, str):
            # The seat taken back by its key alone after a restart: the store kept only the digest of the token,
            # which the client lost, so it gets a new one (a play-test's `joined` carried the digest, could not be
            # sent, and the player, seated and connected, could not play: his game was lost by abandonment).
            self.lobby.revoke_token(token)
            token = self.lobby.issue_token(self.table, seat, state.name)
        state.token = token  # the client's own string (after a restart the seat knows only its digest)
        state.contributes = SEED_CONTRIBUTIONS in session.conn.features
        if old is not None and old is not session:
            old.superseded()
        session.send(Joined(self.table.id, state.token, seat, self.table.grace, restored))
        self.table.catch_up(session, seat, last_event)
        missed, state.missed_chat = state.missed_chat or (), None
        for message in missed:  # what was said at the table while he was away
            session.send(message)
        # the other player is away too (both dropped, or the server restarted): told as after a drop, with the time
        # his seat is still held (a play-test's player came back after a restart and read nothing of it until the
        # game ended by abandonment)
        self._tell_away(session, opponent(seat))
        self.table.send_all(OpponentBack(self.table.id, seat), but=session)
        log("seat_resumed", table=self.table.id, seat=seat, name=session.name)
        if self.seats[opponent(seat)].gave_up and self.table.play.running:  # back in time, the other one is not
            self.table.play.end(seat, "abandoned")

    def _tell_away(self, session: Session, seats: str) -> None:
        """Tell a viewer who comes (a player back, a spectator who watches or comes back) of each of `seats` whose
        player is away, with the time his seat is still held, as those present were told at his drop (play-test
        pt28 F5: a spectator who came after a restart saw both seats as if played until the game ended by
        abandonment)."""
        if not self.table.play.running:
            return
        for seat in seats:
            state = self.seats[seat]
            if state.session is None and state.grace_until is not None:
                held = max(1, math.ceil(state.grace_until - trio.current_time()))
                session.send(OpponentLeft(self.table.id, seat, held))

    def leave(self, session: Session, seat: str | None) -> None:
        if seat is None:
            self._unwatch(session)
            self.table.note_if_empty()
            return session.send(Left(self.table.id))
        if self.table.play.running:
            self.table.play.end(opponent(seat), "resigned")
        session.send(Left(self.table.id))
        self._unseat(seat)
        if not self.table.play.started:
            self._free(seat)
        elif self.table.play.result is not None:
            rematch.lapse(self.table, seat)
        self.keep_seat(opponent(seat))
        self.table.note_if_empty(at_once=not self.table.play.started)

    def _unwatch(self, session: Session) -> None:
        """A spectator's `leave`: he watches no more, and his token goes (it took him back to the watch after he had
        left it, and stayed in the store until the table closed). Undone if the store cannot save the step
        (Table.if_not_saved): he is then cut off with the other viewers, told nothing of his leave (he was sent
        `left` of a step that was not saved: review rm32b), and his token brings him back as theirs do."""
        token = self.spectators.pop(session)
        ref = self.lobby.tokens.get(token)
        self.lobby.revoke_token(token)

        def undo() -> None:
            self.spectators[session] = token
            if ref is not None:
                self.lobby.tokens[token] = ref

        self.table.if_not_saved(undo)

    def _free(self, seat: str) -> None:
        """Before the game: the seat is free again (a rematch's too: rematch.py); bots left alone at the table are
        sent away."""
        self.seats[seat] = SeatState()
        if self.reserved and self.reserved.pop(seat, None) is not None:
            self.store_reserved()
        self.table.play.cancel_deal()
        self.lobby.store.free_seat(self.table.id, seat)
        self.table.publish([{"kind": "player_left", "seat": seat}, self.table.point()])
        other = self.seats[opponent(seat)]
        if other.bot:
            if other.session is not None:
                other.session.send(Left(self.table.id))
            else:
                if not self._dismissed:
                    self._dismissed = set()
                self._dismissed.add(other.name)
            self.lobby.revoke_token(other.token)
            self._free(opponent(seat))

    def keep_seat(self, seat: str) -> None:
        """The other seat's player left (or abandoned) the game before its first turn, which ended it aborted: this
        seat's player, still connected and a person, keeps a seat, at a new table of the same options (and join
        code) that waits for an opponent, as he would expect; he is told `left` here, then `joined` there
        (`seat_kept`). Not at this table: its id is its game's commit-reveal id and the key of its record, and
        a purpose is never committed twice in one game (docs/protocol.md sections 10 and 13), so its aborted
        game stays as it was, unrated, its record kept. Nothing is done if he is away too (his seat held: he comes
        back to the aborted game, as before), if the seat is a bot's, or if the server refuses the new table (its
        limits, a shutdown: then as before)."""
        state = self.seats[seat]
        session = state.session
        if ((self.table.play.result or {}).get("reason") != ABORTED or session is None or state.bot
                or self.lobby.server.closing):
            return
        try:
            table = self.lobby.create_table(self.table.options, session.name, session.address, self.table.join_code)
        except ValueError as error:  # (TooManyTables, or the server shutting down)
            log("seat_not_kept", table=self.table.id, seat=seat, name=session.name, error=str(error))
            return
        self.table.if_not_saved(table.discard)  # (its row is this step's: it goes if the step does)
        self._unseat(seat)
        session.send(Left(self.table.id))
        table.seating.reserve({seat: session.name}, None, why="kept")  # (his until he sits, through a restart)
        if not table.take_player(session, seat, {"kind": "seat_kept", "seat": seat, "from": self.table.id}):
            log("seat_not_kept", table=self.table.id, seat=seat, name=session.name, error="inbox")
        log("seat_moved", table=self.table.id, seat=seat, name=session.name, to=table.id)

    def arrive(self, session: Session, seat: str, event: dict | None) -> None:
        """A player another table moved here (`Arrival`) takes `seat` as a `join` would (`joined`, a snapshot), then
        everyone here is told `event` if there is one; nobody is seated if meanwhile he went to another table or his
        connection ended (the seat stays kept for his name until its deadline: back, he is taken to it,
        Session._to_kept_seat; a table with no seat kept closes if nobody is at it)."""
        if session.moving_to is self.table:
            session.moving_to = None
        if session.conn.state is not State.LOBBY or session.table is not self.table or session.closing:
            return self.table.note_if_empty(at_once=not self.reserved)
        self.join(session, Join(self.table.id, seat, self.table.join_code))
        if event is not None and self.seat_of(session) == seat:
            self.table.publish([event])

    def seat_bot(self, session: Session, message: SeatBot) -> None:
        if session.name != self.table.creator:
            return session.send_error(templated("not_allowed", "only the table's creator may seat a bot"))
        state = self.seats[message.seat]
        if state.name is not None or self._kept_for(message.seat) is not None:
            return session.send_error(templated("seat_taken", "seat {seat} is taken", seat=message.seat))
        self._seat_bot(message.seat, message.kind)

    def _seat_bot(self, seat: str, kind: str) -> None:
        state = self.seats[seat]
        state.name, state.bot, state.bot_pending = self.lobby.bot_name(kind), True, True
        self.lobby.spawn_bot(self.table, seat, kind, state.name)

    def bot_ended(self, name: str, seat: str) -> None:
        """A bot's task ended: if it never took the seat reserved for it, the seat is free again and the table's
        creator is told (a seat never waits for a bot that will not come)."""
        state = self.seats[seat]
        if not (state.bot_pending and state.name == name):
            return
        log("bot_failed", table=self.table.id, seat=seat, name=name)
        self._free(seat)
        creator = next((s.session for s in self.seats.values() if s.session is not None
                        and s.session.name == self.table.creator), None)
        if creator is not None:
            creator.send_error(templated("bot_failed", "the bot {name} could not take seat {seat}; it is free again",
                                         fault="local", name=name, seat=seat))
        self.table.note_if_empty()

    def gone(self, session: Session) -> None:
        seat = self.seat_of(session)
        if seat is None:
            self.spectators.pop(session, None)
            self.lobby.release_name(session.name, session)
            return self.table.note_if_empty()
        state = self.seats[seat]
        state.session = None
        if self.table.play.result is not None:
            self.lobby.release_name(session.name, session)
            if not self.lobby.server.closing:  # (a stopping server keeps a standing offer for its next start)
                rematch.lapse(self.table, seat)
            return self.table.note_if_empty()
        if self.lobby.server.closing:
            # the server stops: the table is kept in the store for its next start, which holds the seat afresh; a
            # grace that ran out now would end the game (a play-test's server with grace_seconds = 0 ended and rated
            # every game at a clean stop)
            return
        state.grace_until = trio.current_time() + self.table.grace
        self.lobby.hold_name(session.name, session, (self.table.id, seat))
        self.table.send_all(OpponentLeft(self.table.id, seat, self.table.grace))
        log("seat_held", table=self.table.id, seat=seat, name=session.name, grace_seconds=self.table.grace)

    def dismiss(self, error: ProtocolError) -> None:
        """The table closes under its viewers (the server's admin closed it: Table.AdminEnd): each is sent `left`,
        back to the lobby, and told why (`error`); the names held for away players are free again, every token
        of the table revoked, a bot on its way sent away."""
        table_id = self.table.id
        self._undo_dismiss()
        # (`left` first, then why: a client says "left table ..." at `left`, which hid the reason sent before it)
        for session, token in list(self.spectators.items()):
            session.send(Left(table_id))
            session.send_error(error)
            self.lobby.revoke_token(token)
        self.spectators.clear()
        for seat, state in self.seats.items():
            if state.session is not None:
                state.session.send(Left(table_id))
                if not state.bot:
                    state.session.send_error(error)
            elif state.grace_until is not None:
                self.lobby.release_name(state.name, (table_id, seat))
            if state.bot_pending:
                if not self._dismissed:
                    self._dismissed = set()
                self._dismissed.add(state.name)
            self.lobby.revoke_token(state.token)
            self.seats[seat] = SeatState()

    def _undo_dismiss(self) -> None:
        """`dismiss` is undone if the store cannot save its step (Table.if_not_saved): everyone at the table is its
        viewer again as the store has him (his seat or watch, his token, a held seat's name), so that he is cut off
        with game_stopped and told nothing of a close that was not saved (review rm32b: its `left` and the admin's
        reason were sent, and a player's token, revoked, then answered bad_token)."""
        spectators, seats, dismissed = dict(self.spectators), dict(self.seats), set(self._dismissed)
        tokens = [*spectators.values(), *(state.token for state in seats.values())]
        refs = {token: self.lobby.tokens.get(token) for token in tokens if token in self.lobby.tokens}
        names = self.lobby.names
        held = {name_key(state.name): (self.table.id, seat) for seat, state in seats.items()
                if state.session is None and state.grace_until is not None and state.name is not None
                and names.get(name_key(state.name)) == (self.table.id, seat)}

        def undo() -> None:
            self.spectators.clear()
            self.spectators.update(spectators)
            self.seats.update(seats)
            self._dismissed = dismissed or _NO_NAMES
            for token, ref in refs.items():
                self.lobby.tokens[token] = ref
            for key, holder in held.items():
                names.setdefault(key, holder)

        self.table.if_not_saved(undo)

    def give_up(self, seat: str) -> None:
        """The grace of a disconnected player ran out: the game is abandoned (or, before it, the seat freed)."""
        state = self.seats[seat]
        state.grace_until = None
        state.missed_chat = None
        self.lobby.release_name(state.name, (self.table.id, seat))
        self.lobby.revoke_token(state.token)
        state.token = None
        if self.table.play.running:
            other = self.seats[opponent(seat)]
            # Both players away (a play-test killed both clients at once: the one whose grace ran out 16 ms later
            # won, rated): the first grace out does not hand the game to a player who is not there.
            if other.grace_until is not None:
                state.gave_up = True
                log("seat_given_up", table=self.table.id, seat=seat, name=state.name)
            elif other.gave_up:
                self.table.play.end(None, ABANDONED_BY_BOTH)
            else:
                self.table.play.end(opponent(seat), "abandoned")
                self.keep_seat(opponent(seat))
        elif not self.table.play.started:
            self._free(seat)
        elif self.table.play.result is not None:  # (a finished table restored for its rematch offer: recovery.py)
            rematch.lapse(self.table, seat)
        self.table.note_if_empty(at_once=not self.table.play.started)
