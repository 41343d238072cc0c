"""One table: its seats and spectators, event log and game, owned by a single task. Clients talk to it through
its bounded inbox; it answers through each client's own bounded outbox (Session.send never blocks)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import trio

from dungeon_twister.protocol import (Action, Chat, ChatMessage, Commit, DeclineRematch, DrawAnswer, DrawOffer,
                                      Join, Leave, Left, ListTables, Message, ProtocolError, Rematch, Resume, Reveal,
                                      SeatBot, Snapshot, Spectate, TableEvent, TableInfo, TableOptions, Takeback,
                                      TakebackAnswer, templated)
from dungeon_twister.protocol.codec import pack_map
from dungeon_twister.protocol.commit import seed_commitment
from dungeon_twister.protocol.connection import encode_frame
from dungeon_twister.protocol.framing import HEADER_SIZE
from dungeon_twister.protocol.views import COMPACT_LEGAL, DELTA_VIEWS, PackedView
from dungeon_twister.protocol.wire_types import Packed

from .eventlog import EventLog
from .inbox import Inbox
from .logs import LOGGER, log
from .options import engine_options, options_view
from . import rematch
from .play import ENDED_BY_ADMIN, Play
from .ports import TableGone
from .seating import Arrival, Seating
from .storage import StorageError
from .viewing import ViewPoint, compacted, render, table_view, without_legal

if TYPE_CHECKING:
    from .ports import Directory as Lobby
    from .ports import Client as Session

INBOX_SIZE = 64
EMPTY_TABLE_SECONDS = 300.0
"""A table nobody sits at or watches closes after this long (at once when its game is over)."""
LET_GO_DELAYS = (1.0, 2.0, 5.0, 10.0, 30.0) + (60.0,) * 60
"""The waits, in seconds, before each try to let a finished table stopped with a rematch offer go once the store
answers again (`_let_go_once_saved`): an hour in all, then its offer lapses at the next start."""
EVENT_BLOCK = 1000
"""Event numbers are reserved in the store this many at a time: a table restored after a crash numbers its
events after every number that may have been sent (its clients get a snapshot)."""


@dataclass
class Request:
    session: Session
    message: Message
    done: trio.Event | None = None


@dataclass
class Enter:
    """A player or spectator resuming with the token of a `joined` (hello.resume)."""

    session: Session
    token: str
    last_event: int
    done: trio.Event | None = None


@dataclass
class CreatorGone:
    """The connection of the table's creator ended (a table made and never sat at closes: a play-test made 5,000
    in 30 s with short connections, which an empty table's five minutes kept open, and nobody could create one)."""

    done: trio.Event | None = None


@dataclass
class Gone:
    """The client's connection ended."""

    session: Session
    done: trio.Event | None = None


@dataclass
class AdminEnd:
    """The server's admin ends the table (`dt-server admin end`, server/admin.py): a game in play ends without a
    winner and unrated (play.ENDED_BY_ADMIN), its players staying to read why; a table whose game has not begun,
    or is over, closes, everyone at it sent back to the lobby with the reason. `outcome` says which: "ended" or
    "closed"; "stopped" if the store could not save the step (nothing of it was told: Table._step)."""

    done: trio.Event | None = None
    session: None = None
    outcome: str | None = None


@dataclass
class BotEnded:
    """A bot's task ended (it left, or it never got its seat)."""

    name: str
    seat: str
    done: trio.Event | None = None
    session: None = None


class Table:
    rematch_offers: frozenset[str] = frozenset()
    """The seats whose player offered a rematch, the game over (rematch.py); a frozenset replaced at each change
    (none kept by the tables that never have an offer)."""
    rematch_declined: frozenset[str] = frozenset()
    """The seats whose rematch offer the other declined (rematch.decline): they may not offer again here."""
    restored = False
    """Rebuilt from the store (recovery.py), which logs `table_restored` for it: its task logs no `table_opened`,
    so that counting those counts tables made (play-test ad29: every restart counted each table again)."""

    def __init__(self, lobby: Lobby, table_id: str, options: TableOptions, seed: int, creator: str | None,
                 join_code: str | None, seed_nonce: str | None = None) -> None:
        self.lobby = lobby
        self.id = table_id
        self.seed, self.seed_nonce = seed, seed_nonce
        """The game's seed, secret until the game ends, and the nonce of the commitment to it sent before (hex;
        None for a table an older dt-server stored: no commitment)."""
        self.options = options
        self.creator = creator
        self.stopped = False
        """The store failed in a step: the table's task ended, the store still has it as it was before (it comes
        back at the next start); its resume tokens are answered game_stopped until then, not bad_token."""
        self.creator_address: str | None = None
        """The IP address its creator connected from (Lobby.create_table's limit per address); None: unknown."""
        self.join_code = join_code
        self.grace = lobby.server.config.grace_seconds
        self.log = EventLog()
        self._forms: set[tuple[str | None, str]] = set()
        """The (viewer class, form) pairs rendered at each step: those someone at this table received."""
        self._bases: dict[tuple[str | None, str], PackedView] = {}
        """Per viewer class and delta form (DELTA_FORMS): the last view sent in that form (the base of the next
        delta)."""
        self._room: int | None = None
        """The most bytes a view may take (`_view_room`), worked out at its first use."""
        self._kept: tuple[dict, PackedView] | None = None
        """The shared parts of the first delta view of the last step (the tuples the engine keeps for a layout,
        `table_view(shared=True)`) and its pieces, which the next step's first view takes its equal values'
        bytes from (`_render`): a few references, to objects the engine holds anyway."""
        self.reserved_events = 0
        self.play = Play(self, engine_options(options), seed, options.timers)
        self.seating = Seating(self)
        self._options_view = options_view(table_id, options)
        if seed_nonce is not None:  # docs/protocol.md section 16: the deal is committed to before the game
            self._options_view["seed_commitment"] = seed_commitment(table_id, seed, bytes.fromhex(seed_nonce)).hex()
        self._inbox = Inbox(INBOX_SIZE)
        self._after: list | None = None
        """While a step runs: what waits until its frames are written (`after_step`)."""
        self._undo: list | None = None
        """While a step runs: what undoes in memory what it made, if the store does not save it (`if_not_saved`)."""
        self.discarded = False
        """The step of another table that made this one was not saved (`discard`): its task does nothing."""
        self._empty_since = trio.current_time()
        self._info: tuple | None = None
        """(what the table's line shows, the line): `info`."""
        self.closed_by_admin = False
        """The server's admin closed the table (AdminEnd): its task ends after this step."""

    # --- the lobby's view ---------------------------------------------------------------------------------
    @property
    def status(self) -> str:
        return "over" if self.play.result else "playing" if self.play.started else "waiting"

    @property
    def spectators(self) -> dict:
        return self.seating.spectators

    def info(self) -> TableInfo:
        """The table's line in the list. The same object while nothing in it changed: the lobby asks every table
        each second (`Lobby.send_table_updates`), and a message checks its fields when it is made."""
        seats, reserved = self.seating.seats, self.seating.reserved or {}
        kept = [reserved.get(seat) if seats[seat].name is None else None for seat in ("B", "Y")]
        key = (self.status, len(self.spectators), seats["B"].name, seats["Y"].name, *kept)
        if self._info is None or self._info[0] != key:
            self._info = (key, TableInfo(self.id, self.options, key[0], key[1], blue=key[2], yellow=key[3],
                                         blue_kept=key[4], yellow_kept=key[5]))
        return self._info[1]

    def offer(self, item) -> bool:
        """Queue a request for the table's task without waiting (another table's task hands it a player:
        `take_player`); False if the inbox is full or closed."""
        try:
            self._inbox.send_nowait(item)
            return True
        except (trio.WouldBlock, trio.BrokenResourceError, trio.ClosedResourceError):
            return False

    async def submit(self, item) -> bool:
        """Queue a request for the table's task; False if the table is closed. No task switch when the inbox has
        room (the caller goes on to its next read, which lets the table's task run); else wait for room."""
        try:
            try:
                self._inbox.send_nowait(item)
            except trio.WouldBlock:
                await self._inbox.send(item)
            return True
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            return False

    # --- the task -----------------------------------------------------------------------------------------
    async def run(self) -> None:
        if self.discarded:  # (before its task ran: nothing of it is in the store, nobody was told of it)
            return
        if not self.restored:
            log("table_opened", table=self.id, options=self._options_view, creator=self.creator)
        stored = False
        try:
            async with self._inbox:
                while not self._finished():
                    deadline = self._next_deadline()
                    if deadline == math.inf:  # no cancel scope to enter and leave at every step
                        self._step(await self._inbox.receive())
                        continue
                    # While the table has a deadline, its waits share one scope (one entered and left costs ~49 K
                    # instructions, about a step's 1%), whose deadline follows the table's from step to step, until
                    # a deadline passes: trio cancels a scope for good, so the next wait has a new one. The steps
                    # run inside it, but `_step` never awaits: a deadline can only end a wait, never a step.
                    with trio.CancelScope() as waits:
                        while True:
                            if deadline != waits.deadline:
                                waits.deadline = deadline
                            if deadline <= trio.current_time():  # as a scope entered after its deadline: at once
                                waits.cancel()
                            self._step(await self._inbox.receive())
                            # An item that came as the deadline passed is handled (and `expire` runs after it,
                            # as it did when the wait had a scope of its own), and the next wait has a new scope.
                            if waits.cancel_called or self._finished():
                                break
                            deadline = self._next_deadline()
                            if deadline == math.inf:
                                break
                    if waits.cancelled_caught:  # the deadline passed while the table waited
                        self._step(None)
                self._refuse_queued()
                stored = True
        except StorageError:  # its clients were cut off; the table stays in the store as it was last committed
            if self.play.result is not None and self.rematch_offers:
                self.lobby.server.start(self._let_go_once_saved)
        except Exception:  # a bug at one table must not take the server down
            LOGGER.exception("table_failed", extra={"fields": {"table": self.id}})
            for session, _ in self.seating.viewers():  # (cut already if it failed in a step: `_step`)
                session.send_error(table_failed())
                session.send(Left(self.id))
        finally:
            self.lobby.table_closed(self, stored=stored)
            if stored:
                log("table_closed", table=self.id, status=self.status)
            else:  # the server stops (or the store failed): the table stays in the store, restored at the next start
                # (a play-test admin read "table_closed ... playing" at a shutdown as a game lost)
                log("table_kept", table=self.id, status=self.status)

    async def _let_go_once_saved(self) -> None:
        """A finished table stopped with a rematch offer standing in the store (the step that failed was an answer to
        it, or a player's leave, `if_not_saved` gave the offers back: rematch._set): its players were cut off,
        and their clients, which let a finished game's token go, never resume it, so no resume lets it go
        (Session._submit). Its offer's row stayed in the store until the next start, which brought it back for
        RESTART_GRACE_SECONDS, to lapse (review rm32b). It is let go as soon as the store answers again, as a resume
        would (recovery.revive_table: a finished table never comes back; its `kept` row goes)."""
        for delay in LET_GO_DELAYS:
            await trio.sleep(delay)
            try:
                if self.lobby.server.revive_table(self) is not None:  # (never for a finished table)
                    return
            except TableGone:  # let go: its row gone, its tokens too
                return
        log("table_not_let_go", level=30, table=self.id)  # (its offer lapses at the next start, as before)

    def _step(self, item) -> None:
        """One step of the table's task: `item` from the inbox (None: a deadline passed) handled, then what is due
        (the turn's time, graces, idle seats). Never awaits (the table's waits share a cancel scope: `run`)."""
        # Durable before sent: what this step writes commits before the task awaits again, and only then can the
        # messages it queued reach a socket (storage.py): the sessions it queued frames for are held
        # (server.holding) and written once the transaction has committed.
        server = self.lobby.server
        server.holding = True
        self._after, self._undo = [], []
        committed = False
        try:
            with self.lobby.store.transaction():
                acted = None
                if item is not None:
                    acted = self._handle(item)
                self.play.expire()
                self.seating.expire_graces(trio.current_time())
                self.play.idle(acted)
            committed = True
        except StorageError as error:  # before the task awaits: nothing this step queued is sent
            log("storage_failed", level=40, table=self.id, error=str(error))
            self.stopped = True
            if isinstance(item, AdminEnd):  # (the admin is told it was not done: Admin.end)
                item.outcome = "stopped"
            self._run_undo()  # (a player the step moved away is this table's viewer again: cut too)
            for session, _ in self.seating.viewers():  # told why (they were cut without a word)
                session.cut("the server could not save the game", game_stopped(self.id))
            raise
        except Exception:  # a bug outside a request's own handling (`_handle` answers those): the step's transaction
            # was rolled back, so nothing it queued may leave either (its frames went, a game's end among them that
            # the store did not keep; then `left`): its viewers are cut off, told the table failed (Table.run)
            self._run_undo()
            for session, _ in self.seating.viewers():
                session.cut("the table failed", table_failed())
            raise
        finally:
            if item is not None and item.done is not None:
                item.done.set()
            # Keep nothing of the request: a gone client's session (with whatever it had buffered) must not stay
            # referenced by the last table it talked to (the task's own frame holds no item: `run`).
            item, self._undo = None, None
            server.flush_held()  # after the commit (or the rollback: then the viewers were dropped)
            self._run_after(committed)

    def take_player(self, session: Session, seat: str, event: dict | None = None) -> bool:
        """A player another table's task moves here (a rematch, rematch.py; a seat kept, Seating.keep_seat): seated
        in `seat` as a `join` of his would be, by this table's task, then `event` published if any (`Arrival`).
        Queued, never awaited: a table's task never waits for another's (this table is new, its inbox empty). The
        connection's requests and its end come here now. False if the inbox did not take it."""
        session.table = self
        if not self.offer(Arrival(session, seat, event)):
            return False
        session.moving_to = self
        return True

    def after_step(self, job) -> None:
        """Run `job` once the current step has committed and its frames are written (what nobody waits for: a
        finished game's record file), or now outside a step (recovery)."""
        if self._after is None:
            job()
        else:
            self._after.append(job)

    def if_not_saved(self, job) -> None:
        """Run `job` if the store cannot save the current step (Table.run's StorageError), before its viewers are cut
        off: it undoes in memory something the step made that the store will not have (a table made for a move to
        it, `discard`; a player moved there, Seating.move_away), so that nothing of the step is left behind or
        told (review rm32: a rematch whose accepting step failed sent its `left` and `table_created`, and its new
        table seated them). Nothing outside a step, nor for what a step committed early (`publish`)."""
        if self._undo is not None:
            self._undo.append(job)

    def _run_undo(self) -> None:
        """The step's `if_not_saved` jobs, the last first."""
        jobs, self._undo = self._undo or [], None
        for job in reversed(jobs):
            try:
                job()
            except Exception:  # a bug there must not keep the table's viewers from being cut off
                LOGGER.exception("undo_failed", extra={"fields": {"table": self.id}})

    def discard(self) -> None:
        """The step of another table that made this one was not saved (`if_not_saved`): the store has nothing of it,
        so nothing of it stays: gone from the lobby, its inbox closed (a moved player's `Arrival` with it), its
        task, which has not run yet, ending at once."""
        log("table_discarded", table=self.id)
        self.discarded = True
        self.lobby.table_closed(self, stored=False)  # (the store is left alone: it has nothing of it)
        self._inbox.close()

    def _run_after(self, committed: bool) -> None:
        """The step's `after_step` jobs, if what it wrote was committed (else they are dropped with it)."""
        jobs, self._after = self._after or [], None
        for job in jobs if committed else ():
            try:
                job()
            except Exception:  # a bug there must not take the table down: its step is done and sent
                LOGGER.exception("after_step_failed", extra={"fields": {"table": self.id}})

    def _handle(self, item) -> str | None:
        """Handle one item of the inbox; the seat whose action, commitment or reveal it was, if any (Play.idle),
        and only if the table published something for it (not for a refusal, which its sender alone is told)."""
        try:
            if isinstance(item, Gone):
                self.seating.gone(item.session)
            elif isinstance(item, BotEnded):
                self.seating.bot_ended(item.name, item.seat)
            elif isinstance(item, Enter):
                self.seating.enter(item.session, item.token, item.last_event)
            elif isinstance(item, AdminEnd):
                item.outcome = self._admin_end()
            elif isinstance(item, Arrival):
                self.seating.arrive(item.session, item.seat, item.event)
            elif isinstance(item, CreatorGone):
                if not self.play.started:  # a table made and left empty: nobody is coming to sit at it (unless a
                    # seat is kept for a name: its player, back, is taken to it, Session._to_kept_seat; it waits
                    # for him until its deadline, Seating.reserve)
                    self.note_if_empty(at_once=not self.seating.reserved)
            else:
                n = self.log.n
                self._request(item.session, item.message)
                if isinstance(item.message, (Action, Commit, Reveal)) and self.log.n > n:
                    # (only what the table published: a refused action, or an accepted one sent again, is
                    # answered to its sender alone, and must not move the public idle_warning: DT-297)
                    return self.seating.seat_of(item.session)
        except StorageError:
            raise
        except Exception:  # a bug answers one request with an error; the table carries on
            LOGGER.exception("request_failed", extra={"fields": {"table": self.id, "item": type(item).__name__}})
            if item.session is not None:  # (an admin's AdminEnd, a bot's end: nobody to answer)
                item.session.send_error(templated("internal", "the server failed to handle this", fault="local"))

    def _admin_end(self) -> str:
        """AdminEnd: end the game in play (no winner, not rated: durable, as any game's end), else close the table
        under everyone at it."""
        if self.play.running:
            log("table_ended", table=self.id, by="admin")
            self.play.end(None, ENDED_BY_ADMIN)
            return "ended"
        log("table_ended", table=self.id, by="admin", status=self.status)
        self.seating.dismiss(templated("no_such_table", "the server's admin closed table {table}", table=self.id))
        # closed in the store by this step, before anyone is told (closed after the task's end, a store that failed
        # then kept the table open: it came back at the next start, its players told it was closed)
        self.lobby.store.close_table(self.id)
        self.closed_by_admin = True
        return "closed"

    def _next_deadline(self) -> float:
        empty = math.inf
        if self.seating.empty() and not self._kept_for_restart():  # (see _finished)
            empty = self._empty_since + (0 if self.play.result else EMPTY_TABLE_SECONDS)
        return min([self.play.next_deadline(), empty, *self.seating.graces()])

    def _finished(self) -> bool:
        if self.closed_by_admin:
            return True
        if not self.seating.empty():
            return False
        if self.play.result is not None:
            return not self._kept_for_restart()
        # A stopping server holds no seat (Seating.gone): its tables look empty once their players' connections
        # are gone, and one made more than EMPTY_TABLE_SECONDS ago closed for good if its task ran before the
        # server's end (a connection slow to close): a play-test's clean stop lost a game in play. They are kept
        # for the next start.
        return not self.lobby.server.closing and trio.current_time() >= self._empty_since + EMPTY_TABLE_SECONDS

    def _kept_for_restart(self) -> bool:
        """The server stops and keeps this table in the store for its next start: a game not over, or one over
        with a rematch offer standing (server/rematch.py)."""
        return self.lobby.server.closing and (self.play.result is None or bool(self.rematch_offers))

    def note_if_empty(self, at_once: bool = False) -> None:
        """Start the empty table's countdown (EMPTY_TABLE_SECONDS: time for a creator to sit down); `at_once`: a
        table whose last player left before the game began closes now (nobody is coming back to it)."""
        if self.seating.empty():
            self._empty_since = trio.current_time() - (EMPTY_TABLE_SECONDS if at_once else 0)

    def _refuse_queued(self) -> None:
        """Answer what is still queued once the table has closed."""
        while True:
            try:
                item = self._inbox.receive_nowait()
            except (trio.WouldBlock, trio.EndOfChannel, trio.ClosedResourceError):
                return
            if isinstance(item, Request) and isinstance(item.message, (Join, Spectate)):
                item.session.send_error(templated("no_such_table", "table {table} has closed", table=self.id))
            elif isinstance(item, Gone):
                self.lobby.release_name(item.session.name, item.session)
            if item.done is not None:
                item.done.set()

    # --- sending ------------------------------------------------------------------------------------------
    def send_to(self, seat: str, message: Message) -> None:
        session = self.seating.seats[seat].session
        if session is not None:
            session.send(message)

    def send_all(self, message: Message, but: Session | None = None) -> None:
        for session, _ in self.seating.viewers():
            if session is not but:
                session.send(message)

    def names(self) -> dict:
        return self.seating.names()

    def point(self) -> ViewPoint:
        play = self.play
        result = play.final()
        over = result is not None
        table = self._options_view
        if over:  # also for a game resigned, abandoned or drawn by agreement, which the engine's outcome does not say
            table = {**table, "result": result}
        if play.deal is not None:  # section 16: where the players' contributions stand
            table = {**table, "deal": dict(play.deal.status)}
        if over and self.seed_nonce is not None and play.dealt is not None:
            # the server's seed, its nonce and the contributions, never as `seed` (which older clients deal from)
            table = {**table, "server_seed": self.seed, "server_seed_nonce": self.seed_nonce,
                     "contributions": play.deal.parts()}
        elif over and self.seed_nonce is not None:  # the game is over: the seed and the nonce that open the commitment
            table = {**table, "seed": self.seed, "seed_nonce": self.seed_nonce}
        committed = play.committed_now()
        if committed:  # who has chosen in secret already (published with each commitment: Play.commit)
            table = {**table, "committed": committed}
        asked = play.pending_requests()
        if self.rematch_offers:  # (after the game: rematch.py)
            asked = asked + rematch.offers(self)
        if asked:  # published with a view (Play.takeback...): what a snapshot, whole or delta, tells who comes back
            table = {**table, "asked": asked}
        state = play.game.state
        if not play.started and (play.deal is not None or self.seating.may_contribute()):
            state = play.placeholder()
        return ViewPoint(state, self.seating.names(), table, play.started, play.result is not None,
                         play.game.record.count)

    def publish(self, payloads: list, timers: list = ()) -> None:
        """Number and log each payload, and send it to every viewer as he may see it; `timers` (the step's `timer`
        messages, worked out before) follow each class's view in the same write.

        Each viewer class (B, Y, spectators) and form ("full" views, "delta" for the clients with the feature
        delta_views, "compact" for those with compact_legal too: `_form`) is rendered and packed once per
        payload, and its table_event frame made once: every connection of that class gets the same bytes
        (Session.send_framed); a view is made once per class for every form. A form is rendered (and logged)
        once someone at this table received it, so that a client who comes back is replayed from the log.

        In a table's step of a game that goes on, what the step wrote so far (the action's journal line) is
        committed first, and each class's frames leave as soon as its view is made. The views that list legal
        actions (those of the seats to act) are made last (`_render`): how long a seat's legal list takes to make
        depends on what only that seat may know (the card game's secret objects, hidden forces), so neither the
        seat not to act nor a spectator waits for it (no timing channel), and the opponent sees the action
        sooner. When both seats are to act (a simultaneous secret choice), Yellow's frame follows Blue's list of
        choices: the same teams for both, hidden characters or facings of as many cards, or a hand of combat
        cards (microseconds). A step that ends the game stays one transaction (the result, the ratings)."""
        viewers = [(session, seat, _form(session)) for session, seat in self.seating.viewers()]
        self._forms.update((seat, form) for _, seat, form in viewers)
        forms = self._forms
        if self.log.n + len(payloads) > self.reserved_events:
            self.reserved_events = self.log.n + len(payloads) + EVENT_BLOCK
            self.lobby.store.reserve_events(self.id, self.reserved_events)
        early = (self.lobby.server.holding and self.play.result is None
                 and self.play.game.state.outcome is None and any(seat for _, seat, _ in viewers))
        if early:  # durable before sent: the seats' frames leave before the step ends
            self.lobby.store.commit_now()
            if self._undo:  # (saved: nothing of it to undo)
                self._undo = []
        for payload in payloads:
            n = self.log.n + 1
            if isinstance(payload, ViewPoint):
                rendered = {}
                for seat, made in self._render(payload, forms):
                    rendered.update(made)
                    self._send(n, made, [viewer for viewer in viewers if viewer[1] == seat], flush=early,
                               then=timers)
            else:
                events = {seat: Packed(pack_map(render(payload, seat))) for seat in {seat for seat, _ in forms}}
                rendered = {(seat, form): events[seat] for seat, form in forms}
                self._send(n, rendered, viewers)
            self.log.append(rendered)
        self.after_step(self.log.pack)  # once the step's frames are written

    def _send(self, n: int, rendered: dict, viewers: list, flush: bool = False, then: list = ()) -> None:
        """Event `n` to `viewers`, each as its class and form was rendered, followed by the messages `then`; with
        `flush`, their frames are written at once (what the step wrote before is committed: Table.publish)."""
        frames: dict = {}
        for session, seat, form in viewers:
            shared = frames.get((seat, form))
            if shared is None:  # one message and one frame per class and form, shared by its connections
                shared = frames[seat, form] = _framed(TableEvent(self.id, n, rendered[seat, form]))
            session.send_framed(*shared)
            for message in then:
                session.send(message)
            if flush:
                session.flush()

    def _render(self, point: ViewPoint, forms: set):
        """The view event of each class, in turn: the seats not to act (B before Y), the spectators, then the seats
        to act, whose views list their legal actions (`publish`: nobody's frame waits for those): (class,
        {(class, form): whole views packed, or deltas from the class's last view})."""
        acting = set(point.state.to_act) if point.started and not point.over else set()
        like = None  # the first class's compact view and its pieces: the next classes reuse its equal values' bytes
        for seat in sorted({seat for seat, _ in forms}, key=lambda seat: (seat in acting, seat is None, seat or "")):
            whole = table_view(point, seat, self.play.game.legal, shared=True)  # packed here, changed by nobody
            made = self._packed(whole, seat, forms, like)
            if made is None:  # too large for a frame: its legal list is left out (docs/protocol.md section 13)
                whole = without_legal(whole)
                log("legal_omitted", table=self.id, seat=seat, actions=whole["legal_omitted"])
                made = self._packed(whole, seat, forms, like)
            rendered, bases = made
            for form, (compact, packed) in bases.items():
                if like is None:
                    like = (compact, packed)
                    self._kept = ({key: value for key, value in compact.items() if type(value) is tuple}, packed)
                self._bases[seat, form] = packed
            yield seat, rendered

    def _packed(self, whole: dict, seat: str | None, forms: set, like) -> tuple | None:
        """The view `whole` of `seat` in each of the forms its class is sent: ({(seat, form): packed event}, {delta
        form: the view in that form and its pieces, the base of its next delta}); None if one would pass the frame
        limit (a view that lists its legal actions, whose list the caller then leaves out)."""
        rendered, bases = {}, {}
        room = self._view_room()
        if (seat, "full") in forms:
            event = Packed(pack_map({"kind": "view", "view": whole}))
            if len(event.data) > room and whole["legal"]:
                return None
            rendered[seat, "full"] = event
        for form in DELTA_FORMS:
            if (seat, form) not in forms:
                continue
            compact = compacted(whole, prefixed=form == "compact")
            # The first takes the bytes of what is the same object as in the last step's first view (the
            # layout the engine keeps while the board stays: most of a view's bytes, seldom changed)
            packed = PackedView.of(compact, like or self._kept)
            base = self._bases.get((seat, form))
            event = Packed(packed.event() if base is None else packed.delta(base))
            # the delta, and the whole view a delta client may ask for as a snapshot (its base)
            if whole["legal"] and max(len(event.data), packed.size()) > room:
                return None
            rendered[seat, form] = event
            bases[form] = (compact, packed)
        return rendered, bases

    def _view_room(self) -> int:
        """The most bytes a view (as a view event, or as a snapshot's view) may take for its frame to pass no frame
        limit: the server's (`max_frame_size`, also the protocol's default for clients), less what a table_event
        or a snapshot adds around it."""
        room = self._room
        if room is None:
            limit = self.lobby.server.config.max_frame_size
            around = max(len(encode_frame(message, 1 << 30)) - HEADER_SIZE - 1 for message in (
                TableEvent(self.id, 1 << 40, Packed(b"\x80")), Snapshot(self.id, 1 << 40, Packed(b"\x80"))))
            room = self._room = limit - around
        return room

    def catch_up(self, session: Session, seat: str | None, last_event: int | None) -> None:
        """The events after `last_event`, or a snapshot; then what a returning client must know.

        A delta client's snapshot is the view its class's next delta applies to (the view of the last view
        event, which is the table's current view: every change of a view is published)."""
        form = _form(session)
        self._forms.add((seat, form))
        missed = self.log.since(last_event, (seat, form)) if last_event is not None else None
        if missed is not None:
            for n, packed in missed:
                session.send(TableEvent(self.id, n, packed))
        elif form in DELTA_FORMS:
            base = self._bases.get((seat, form))
            if base is None:
                whole = table_view(self.point(), seat, self.play.game.legal)
                base = PackedView.of(compacted(whole, prefixed=form == "compact"))
                if base.size() > self._view_room() and whole["legal"]:  # as `_render` does
                    base = PackedView.of(compacted(without_legal(whole)))
                self._bases[seat, form] = base
            session.send(Snapshot(self.id, self.log.n, Packed(base.body())))
        else:
            view = table_view(self.point(), seat, self.play.game.legal)
            if view["legal"] and len(pack_map(view)) > self._view_room():  # as `_render` does
                view = without_legal(view)
            session.send(Snapshot(self.id, self.log.n, view))
        self.play.resumed(seat, session)

    # --- requests -----------------------------------------------------------------------------------------
    def _request(self, session: Session, message: Message) -> None:
        seating = self.seating
        if isinstance(message, Join):
            return seating.join(session, message)
        if isinstance(message, Spectate):
            return seating.spectate(session, message.last_event, message.join_code)
        if isinstance(message, ListTables):
            return session.send(self.lobby.table_infos(message.offset, message.limit))
        seat = seating.seat_of(session)
        if seat is None and session not in seating.spectators:
            return session.send_error(ProtocolError("wrong_state", f"you are not at table {self.id}"))
        if isinstance(message, Leave):
            seating.leave(session, seat)
        elif isinstance(message, Chat):
            self.lobby.server.log_chat(session, self.id, seat, message.text)
            seating.chat(ChatMessage(session.name, message.text, self.id))
        elif isinstance(message, Resume):
            self.catch_up(session, seat, None if message.snapshot else message.last_event)
        elif isinstance(message, SeatBot):
            seating.seat_bot(session, message)
        elif isinstance(message, Action):
            self.play.action(session, seat, message)
        elif isinstance(message, Commit):
            self.play.commit(session, seat, message)
        elif isinstance(message, Reveal):
            self.play.reveal(session, seat, message)
        elif isinstance(message, Takeback) and seat is not None:
            self.play.takeback(session, seat)
        elif isinstance(message, TakebackAnswer) and seat is not None:
            self.play.takeback_answer(session, seat, message.accept)
        elif isinstance(message, DrawOffer) and seat is not None:
            self.play.offer_draw(session, seat)
        elif isinstance(message, DrawAnswer) and seat is not None:
            self.play.draw_answer(session, seat, message.accept)
        elif isinstance(message, Rematch):
            rematch.ask(self, session, seat)
        elif isinstance(message, DeclineRematch):
            rematch.decline(self, session, seat)
        else:
            session.send_error(ProtocolError("wrong_state", f"{message.spec.name} is not handled at a table"))


def game_stopped(table_id: str) -> ProtocolError:
    """The error of a table whose step the store could not save: to its viewers as it stops, and to whoever comes
    back to it before the server's next start."""
    return templated("game_stopped", "the server could not save the game of table {table} (its disk may be full): "
                     "the game is stopped until the server can save it again (a reconnection then brings it back, "
                     "as a restart of the server does)", table=table_id)


def table_failed() -> ProtocolError:
    """The error of a table that failed (a bug of ours), to its viewers as it closes."""
    return templated("internal", "this table failed; sorry", fault="local")


def _framed(message: TableEvent) -> tuple[TableEvent, bytes | None]:
    """The message and its frame, made once for every connection of a viewer class (None: it cannot be made;
    each session's `send` then reports why, as it would have)."""
    try:
        return message, encode_frame(message)
    except ProtocolError:
        return message, None


DELTA_FORMS = ("delta", "compact")
"""The forms of views sent as deltas after a base (`_form`)."""


def _form(session: Session) -> str:
    """How a connection gets views: "compact" (it asked for the features delta_views and compact_legal: deltas,
    and a legal list front-coded), "delta" (delta_views alone) or "full"."""
    features = session.conn.features
    if DELTA_VIEWS not in features:
        return "full"
    return "compact" if COMPACT_LEGAL in features else "delta"
