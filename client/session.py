"""The client's side of the protocol: one Session drives the connection of the moment and the UI state.

A Session is plain synchronous code around the sans-IO connection. The network task (network.py) feeds it the
bytes it reads (`receive`) and lends it two callables for each connection, `write(frame)` and `close()`;
commands call its request methods. Both run on one thread (trio in guest mode on asyncio's loop, see guest.py),
so no locking is needed.

A connection's role is fixed by its hello, so spectating as a player (or joining as a spectator) opens a new
connection: the Session leaves a `Plan` for the network task and closes the current one. A connection lost at a
table is resumed the same way, with the resume token of `joined` (protocol section 9): attempts are repeated with
a growing delay for as long as the server holds the seat (the `grace_seconds` of `joined`), and on while the server
cannot be reached at all (UNREACHABLE_SECONDS: a restarted server holds the seat from its start). The seat's token and
the secret choices committed to are kept in a SeatFile (held.py) as well, so that a client that crashed takes its
seat back when started again.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass, replace
from itertools import count
from pathlib import Path

from dungeon_twister.engine.boardgame.geometry import square_name, square_of_name
from dungeon_twister.protocol import (
    Action,
    Chat,
    ChatMessage,
    ClientConnection,
    Commit,
    CreateTable,
    DrawAnswer,
    DrawOffer,
    Join,
    Joined,
    Leave,
    ListTables,
    Prove,
    Message,
    Rematch,
    DeclineRematch,
    Ping,
    PlayerCommitments,
    PlayerConnection,
    ProtocolError,
    ResumeInfo,
    Role,
    SeatBot,
    Snapshot,
    Takeback,
    TakebackAnswer,
    Software,
    Spectate,
    SpectatorConnection,
    State,
    TableEvent,
    TableOptions,
    Welcome,
)
from dungeon_twister.protocol.views import (ANNOUNCEMENTS, COMPACT_LEGAL, DECLINE_REMATCH, DELTA_VIEWS, REMATCH,
                                           SEED_CONTRIBUTIONS, TABLE_UPDATES)

from dungeon_twister.protocol.deal import DEAL_PURPOSE
from dungeon_twister.protocol.identity import sign_proof
from dungeon_twister.protocol.kinds import ACTION_TEXT
from dungeon_twister.protocol.versions import release
from dungeon_twister.protocol.msg_lobby import RESTART_GRACE_SECONDS

from . import inbox, secret_choice
from .describe import DIRECTION_NAMES
from .games import screens
from .held import HeldSeat, KeptSecret, Progress, SeatFile, retold
from .i18n import _, ngettext
from .identity import KEY_FILE, first_time_named, public_bytes
from .names import retell, seat_name, table_named, unlisted_number
from .state import ClientState, Reconnecting, SecretChoice, TableSetup, purpose_name

__all__ = ["Plan", "Session", "TableSetup", "backoff"]

BARE_VERB_SHOWN = 6
"""The legal actions a verb typed alone lists on the message bar (Tab lists them all)."""

SOFTWARE = Software("dt-client", release())
DEFAULT_GRACE = 60
"""Seconds a server holds a seat when its joined does not say (the server's default)."""
SWITCH_SECONDS = 5.0
"""How long a role switch is retried (the server may still hold our old connection's name for a moment)."""
LOBBY_REQUESTS = (CreateTable, Join, Spectate, Chat, ListTables)
"""What a user may type in the lobby before the connection is made: kept and sent once it is."""
STEP_ENDS = ("view", "view_delta")
"""The table events that end a step: its view, whole or as a delta (docs/protocol.md section 13, table events)."""
WAITING_LIMIT = 16
FIRST_DELAY = 0.5
MAX_DELAY = 5.0
STOPPED_DELAYS = (5.0, 10.0, 20.0, 30.0)
"""Seconds before each resume of a table whose game the server could not save (`game_stopped`): the last one
again and again, while the server keeps the seat and says the game is still stopped."""
STOPPED_ROW_SECONDS = 120.0
"""A `game_stopped` this long after the last one begins a new row: said again, the first delay again. (Not a
resume that joins: the table revived for it may stop again at once, at the first step it cannot save, and a
play-test's log said the server's sentence every 5 s.)"""
QUICK_END = 5.0
"""A connection that a fatal error ends this soon after it opened, or that ends as soon having had nothing from
the server but its welcome, is a failed attempt (`detach`): the next waits."""
QUICK_ENDS = 12
"""Such connections in a row before the client gives up (about a minute of them)."""
UNREACHABLE_SECONDS = 3600.0
"""How long the attempts go on, past their plan's time (a lost seat's grace, RESTART_GRACE_SECONDS at least), while
the server cannot be reached at all: a server that is down holds no seat yet, and once started again it holds each
one RESTART_GRACE_SECONDS from its start, however late that is. (Play-test pt28: the host started a killed server
again 71 s after the crash; every client had given up at 60 s, and the players away from their keyboards lost
their game, "abandoned by both", 60 s after the restart.) A server that answers again and no longer holds the seat
says so, as to `reconnect`; one that never comes back costs a refused connection every MAX_DELAY seconds."""
RETRY_CODES = ("name_taken", "server_full")
"""Refusals worth trying again: after a role switch, our old connection may hold the name for a moment; a
server may be full for a while. (A resume refused name_taken is not tried again: see `refused`.)"""


def backoff(attempt: int) -> float:
    """Seconds before repeated attempt number `attempt` (1, 2, ...): 0.5, 1, 2, 4, then 5 each time."""
    return min(MAX_DELAY, FIRST_DELAY * 2 ** min(attempt - 1, 16))


@dataclass(frozen=True)
class Plan:
    """The next connection to open: its role, an optional resume, and requests to send once welcomed.

    `until`: a failed attempt is repeated, after a growing `delay`, until this time of the session's clock
    (for a resume: while the server holds the seat; for a role switch: a few seconds); None: one attempt.
    """

    role: Role
    resume: ResumeInfo | None = None
    then: tuple[Message, ...] = ()
    until: float | None = None
    attempt: int = 0
    delay: float = 0.0
    """Seconds the network task waits before this attempt."""
    left_at: float | None = None
    """For a resume: when this process lost the seat's connection (the session's clock); None when not known (a
    seat kept by an earlier run, a `reconnect` after giving up)."""
    overtime: bool = False
    """Attempts past the plan's own time, while the server cannot be reached (UNREACHABLE_SECONDS): how long a
    seat is held is not known then (a restarted server holds it from its start), so no countdown says it."""

    def again(self, now: float) -> Plan | None:
        """The next attempt, if there is time for one."""
        if self.until is None or now >= self.until:
            return None
        attempt = self.attempt + 1
        return replace(self, attempt=attempt, delay=min(backoff(attempt), self.until - now))


class Session:
    """The connection of the moment, the plan for the next one, and the requests the commands make."""

    def __init__(self, state: ClientState, role: Role = Role.PLAYER, then: tuple[Message, ...] = (), *,
                 notify: Callable[[], None] = lambda: None, clock: Callable[[], float] = time.monotonic,
                 seat_file: SeatFile | None = None) -> None:
        """`then`: requests to send once welcomed on the first connection (e.g. spectate a table).
        `seat_file`: where the token of our seat is kept; a seat found there is resumed first."""
        self.state = state
        self.notify = notify
        self.clock = clock
        self.wake: Callable[[], None] = lambda: None
        """Set by the network task: cut its wait short (a new plan, reconnect now, quit)."""
        self.connection: ClientConnection | None = None
        self.plan: Plan | None = Plan(role, then=then)
        """The connection the network task opens next; None: none for now."""
        self.token: str | None = None
        """The resume token of our seat (or watch)."""
        self.grace = DEFAULT_GRACE
        self.tables_offset = 0
        """The offset of the table-list page asked for last (0: a fresh list)."""
        self.held: HeldSeat | None = None
        """Our seat and its pending secret rounds, as in the seat file."""
        self.seat_file = seat_file
        self.setup: TableSetup | None = None
        self.creating: TableOptions | None = None
        """The options of the last `create_table` we sent (`made`)."""
        self.made: tuple[str, TableOptions] | None = None
        """The last table we created and its options: `rematch` against its bot after we resigned (commands.py),
        when the server no longer has us at the table to make it (we left it)."""
        self.early_commits: set[str] = set()
        """Purposes the opponent committed to before we did."""
        self.spectate_listed: str | None = None
        """A table named by its number on the command line (`--spectate 2`): watched once the table list says which
        table that is (`tables_listed`)."""
        self._later: list[str] | None = None
        """The log lines held while bytes are handled (`log_after`), else None."""
        self.stopped = False
        """Set by quit: no connection is opened or resumed any more."""
        self.identity = None
        """The user's Ed25519 private key (client/identity.py), or None: the hello then names no key."""
        self.identity_dir: Path | None = None
        """The directory of the key's file, where `proof_taken` notes the servers it was proven to."""
        self.proving = False
        """Our key's proof was sent on this connection and the server has not answered since (`proof_taken`)."""
        self._taken: Plan | None = None
        """The plan the network task is waiting for or connecting with."""
        self._current: Plan | None = None
        self._write: Callable[[bytes], None] | None = None
        self._close: Callable[[], None] | None = None
        self._channel = b""
        """The channel the connection's key proof is bound to (`attach`)."""
        self._attached_at = 0.0
        self._quick_ends = 0
        """Connections in a row that ended within QUICK_END of opening, failed (`detach`)."""
        self._unreachable_since: float | None = None
        """When the attempts to open a connection began to fail, in a row (None: the last one opened)."""
        self.fatal = False
        """The server sent this connection a fatal error (client/inbox.py)."""
        self._answered = False
        """The server sent this connection something besides its welcome (`receive`)."""
        self.wants_tls = False
        """A server refused our key proof over plain TCP: the network task forgets that the address answered in
        plain (client/tls.py) before the next connection."""
        self._given_up = False
        """The server refused us for good: do not resume."""
        self._stops = 0
        self._stopped_at = 0.0
        """`game_stopped` answers in a row (STOPPED_ROW_SECONDS apart at most), and when the last came."""
        self._resent_commits = 0
        self._recommitted: set[str] = set()
        """Purposes whose commitment went again on this connection because the server's view lacked it."""
        self._restored: Progress | None = None
        """Where an earlier process stopped at our table (`_take_back`), until the resumed seat is joined."""
        self.joining: str | None = None
        """The table we asked to join last (a refusal that it is full tells how to watch it)."""
        self.joining_code: str | None = None
        """The join code typed with it: a private table is watched with it too (play-test pt28)."""
        self.resigning: str | None = None
        """The table whose running game we left (a resignation), until the server's `left` answers."""
        self.bot_asked: tuple[str, str, str] | None = None
        """(table, seat, kind) of the last `seat_bot` sent (`older_bot`)."""
        self._progress_failed = False
        self._waiting: list[Message] = []
        """Lobby requests typed before the first welcome, sent after it (at most WAITING_LIMIT)."""
        self.unasked: str | None = None
        """The table of a `table_created` no `create` of ours asked for, on this connection: the server moves us
        there (a rematch's, a seat kept for us: `lobby_listed`)."""
        self.unmade: str | None = None
        """The kept seat's table the server took us to instead of making the one we asked for (`lobby_listed`),
        until its `joined` says so (`tell_unmade`)."""
        self._unlisted: list[CreateTable] | None = None
        """From a player's welcome to the lobby's first answer (`lobby_listed`): the `create` sent after that answer.
        The server takes a player to a seat it keeps for his name as it welcomes him (an unasked `table_created`,
        then `joined`: docs/protocol.md section 6), before it answers the list asked for at the welcome; a
        `create` sent with that list (`dt-client play`'s, one typed while connecting) had its `table_created` taken
        for the move's, and the player was told "table ... created" of the kept seat's table, then had two
        (review rm32). None: nothing waits."""
        self._pings = count(1)
        self._action_ids = (f"{secrets.token_hex(3)}-{n}" for n in count(1))
        state.role = role.value
        if seat_file is not None and role is Role.PLAYER and not then:
            held = seat_file.load()
            if held is not None:
                self._take_back(held)

    def _take_back(self, held: HeldSeat) -> None:
        """A seat kept from an earlier run: resume it first (the whole grace period, as after a lost connection)."""
        state = self.state
        state.enter_table(held.table, held.seat)
        self.held, self.token = held, held.token
        self.grace = held.grace_seconds if held.grace_seconds is not None else DEFAULT_GRACE
        for purpose, kept in held.secrets.items():
            if purpose == DEAL_PURPOSE:  # our contribution to the deal (contribution.py), not a choice shown
                state.deal_mine = kept.choice
                continue
            state.secrets[purpose] = SecretChoice(purpose, kept.choice)
        # From where the earlier process stopped: the events since then come as events (the log tells them), if the
        # server still has them; else, or with no progress kept, a snapshot (0: the table's events again).
        progress = self.seat_file.load_progress(held.table) if self.seat_file is not None else None
        if progress is not None:
            self._restored = progress
            # the lines that tell events in this client's words and language now (another `--lang`, a newer client)
            words = screens(progress.view or progress.base)
            state.log.extend(retold(progress.log, lambda event: retell(event) or words.describe(event)))
            state.chat.extend(progress.chat)  # (at most the newest CHAT_LINES: a bounded deque)
            for move in progress.moves:
                state.add_move(move)
            state.came_in = progress.came_in
        resume = ResumeInfo(held.token, held.table, progress.last_event if progress is not None else 0)
        self.plan = Plan(Role.PLAYER, resume=resume, until=self.clock() + self.retry_seconds)
        state.say(_("taking your seat at table {table} back...").format(table=held.table))

    # --- lifecycle, driven by the network task ----------------------------------------------------------
    def take_plan(self) -> Plan | None:
        plan, self.plan = self.plan, None
        if self.stopped:
            return None
        self._taken = plan
        return plan

    def attach(self, plan: Plan, write: Callable[[bytes], None], close: Callable[[], None],
               channel: bytes = b"") -> None:
        """A connection for `plan` is open: say hello on it. `channel`: the SHA-256 of the server's TLS certificate
        (identity.channel_of), b"" over plain TCP."""
        self._taken = None
        self._unlisted = None  # (a `create` the last connection held went with it, as one sent on it would have)
        self.unasked = None
        self._current, self._write, self._close = plan, write, close
        self._channel = channel
        self._attached_at = self.clock()
        self._unreachable_since = None
        self.fatal = self._answered = False
        self._recommitted = set()
        # Views come as deltas after a snapshot (feature delta_views); the connection hands whole views to the
        # inbox all the same. A resumed connection carries on from the view the last one held.
        held = self.connection.view if self.connection is not None and plan.resume is not None else None
        kind = PlayerConnection if plan.role is Role.PLAYER else SpectatorConnection
        self.connection = kind(features=(DELTA_VIEWS, TABLE_UPDATES, SEED_CONTRIBUTIONS, COMPACT_LEGAL, REMATCH,
                                         ANNOUNCEMENTS, DECLINE_REMATCH))
        self.connection.view = held
        if held is None and plan.resume is not None and self._restored is not None:
            self.connection.view = self._restored.base  # the next deltas apply to the view the last process held
        self.state.role = plan.role.value
        key = public_bytes(self.identity) if self.identity is not None else None
        self._write(self.connection.send_hello(self.state.name, SOFTWARE, plan.resume, key))
        self.notify()

    def receive(self, data: bytes) -> None:
        """Bytes from the server: handle every event they complete (`log_after`'s lines after them); then keep how
        far our table's events got, the log and the chat (`_keep_progress`), when any changed."""
        assert self.connection is not None
        self.connection.receive_data(data)
        self._later = later = []
        log = self.state.log
        log_before = (len(log), log[-1] if log else None)  # (a line from opponent_commit, say: not a table event)
        table_events = chatted = False
        try:
            while (event := self.connection.next_event()) is not None:
                if later and not isinstance(event, TableEvent):
                    self.state.log.extend(later)  # the events that followed are over: a new step, or something else
                    later.clear()
                self._answered = self._answered or not isinstance(event, Welcome)
                table_events = table_events or isinstance(event, (TableEvent, Snapshot))
                chatted = chatted or isinstance(event, ChatMessage)
                inbox.handle(self, event)
                if later and isinstance(event, TableEvent) and event.event.get("kind") in STEP_ENDS:
                    self.state.log.extend(later)  # the step is over: its view ends it (docs/protocol.md section 13)
                    later.clear()
        finally:
            self._later = None
            self.state.log.extend(later)
        if table_events or chatted or (len(log), log[-1] if log else None) != log_before:
            self._keep_progress()
        self.notify()

    def kept_elsewhere(self) -> list[tuple[str, str]]:
        """(name, table) of the seats this client holds on this server under other names, while it takes back none
        under its own (held.py): the welcome says which `--name` takes each back."""
        if self.seat_file is None or self.held is not None:
            return []
        return self.seat_file.kept_elsewhere()

    def _keep_progress(self) -> None:
        """The progress file of our seat (held.py): the last event, the view the next deltas apply to, the log, the
        table's chat."""
        state, connection, held = self.state, self.connection, self.held
        if self.seat_file is None or held is None or connection is None or state.table != held.table:
            return
        base = connection.view
        if base is None and state.view is None:
            return
        progress = Progress(held.table, connection.last_event, base, state.view if base is None else None,
                            list(state.log), state.came_in, list(state.chat), list(state.moves))
        try:
            self.seat_file.save_progress(progress)
        except OSError as error:
            if not self._progress_failed:  # said once: the game goes on, only a restart would lose the log
                self._progress_failed = True
                state.say(_("cannot keep the game's log on disk ({error}): a restart would start it afresh")
                          .format(error=error))

    def restored_snapshot(self) -> tuple[Snapshot, bool] | None:
        """Once the seat an earlier process held is joined again: the view it stopped at, as a snapshot of that
        event, and whether its log started at a snapshot; None when there is none to carry on from."""
        restored, self._restored = self._restored, None
        if restored is None or self.connection is None or self.state.table != restored.table:
            return None
        if restored.base is not None:
            if self.connection.view is not restored.base:
                return None  # the connection was not made from it (a resume that started over)
            view = self.connection.carry_on_from(restored.base)
        else:
            view = restored.view
        return Snapshot(restored.table, restored.last_event, view), restored.came_in

    def log_after(self, line: str) -> None:
        """A log line that follows the table events the same bytes bring next, up to the step's view: the check of
        an opponent's reveal comes before the events of the step it completes (docs/protocol.md, commit-reveal
        step 4), and reads after them, before those of the next step (a play-test read the team's check after the
        bot's first turn, which came in the same bytes). A step split over two reads leaves it before the events,
        as it was."""
        if self._later is None:
            self.state.log.append(line)
        else:
            self._later.append(line)

    @property
    def closed(self) -> bool:
        return self.connection is None or self.connection.state is State.CLOSED

    def probe(self) -> bool:
        """The server has been silent for a while: ping it (False when this connection cannot ping yet)."""
        return self.send(Ping(next(self._pings)), quiet=True)

    def detach(self, reason: str) -> None:
        """The connection is gone; plan a resume if we lost our seat by accident."""
        self._write = self._close = None
        self.state.connected = False
        held, self._unlisted = self._unlisted, None  # (a `create` held for the lobby's first answer, never sent)
        if held and self.unasked is not None and self.state.table == self.unasked:
            self.setup = None  # the server took us to a kept seat first: the resume takes it back (`lobby_listed`)
            self.tell_unmade(self.unasked)
        elif held and (self.plan is None or self.plan.role is Role.PLAYER):  # (not for a `spectate` typed since)
            # not sent, so not made: it goes on the next connection (it was dropped: `dt-client play` sat in the
            # lobby, told nothing, review rv33)
            self._waiting = (held + self._waiting)[:WAITING_LIMIT]
        # no countdown while no server counts: a resumed seat is sent the deadlines that run (server/play.py), and a
        # restarted server runs none until both players are back, then every one afresh (DT-090); the panels of a
        # play-test counted a turn's clock down to 0:15 while the server was down, and on after its restart
        self.state.timers.clear()
        self.state.away.clear()  # (the opponent's grace too: a resume is told of it again, review rv28b)
        resumable = (not self.stopped and not self._given_up and self.plan is None and self.state.at_table
                     and self.token is not None)
        now = self.clock()
        # one that ended at once (a fatal error right after welcome) is a failed attempt, tried again after a
        # growing delay (review rv25: a refusal after each welcome made 300 connections a second); so is one the
        # server closed at once having answered nothing but its welcome (play-test ad29: a new name's binding that
        # a full disk could not store closes the connection, "storage failed", without a word, and the client
        # connected again 64 times a second)
        quick = (self.fatal or not self._answered) and now - self._attached_at < QUICK_END
        self._quick_ends = self._quick_ends + 1 if quick else 0
        delay = backoff(self._quick_ends) if self._quick_ends else 0.0
        if resumable:
            current = self._current
            if current is not None and current.resume is not None and current.until is not None:
                self._plan_again(current, reason)  # a resume attempt that failed before joined
            else:
                last_event = self.connection.last_event if self.connection is not None else 0
                resume = ResumeInfo(self.token, self.state.table, last_event)
                self._set_plan(Plan(Role(self.state.role), resume=resume, until=now + delay + self.retry_seconds,
                                    left_at=now, attempt=self._quick_ends, delay=delay), reason)
        elif (self.plan is None and not self.stopped and not self._given_up
              and (not self.state.at_table or self.state.game_over)):
            # In the lobby: connect again as at a table, for as long (a play-test restarted the server: the
            # players at tables came back, those in the lobby stayed "not connected" until they typed reconnect);
            # at a finished game's screen too, which stays (after_welcome: another play-test's players and
            # spectator at finished tables stayed "disconnected")
            if self._quick_ends > QUICK_ENDS:
                self._give_up(Plan(Role(self.state.role), attempt=self._quick_ends - 1), reason)
            else:
                self._set_plan(Plan(Role(self.state.role), until=now + delay + self.retry_seconds,
                                    attempt=self._quick_ends, delay=delay), reason)
        elif self.plan is None and not self.stopped and not self._given_up:
            # TRANSLATORS: `reconnect` is a command, typed as it is: keep it in English (in every message).
            self.state.say(_("disconnected: {reason} · `reconnect` connects again").format(reason=reason))
        self._given_up = False
        self.notify()

    def connect_failed(self, plan: Plan, error: str, again: bool = True) -> None:
        """Opening a connection failed: try again while the plan allows, else give up; not `again`: the server
        answered but cannot be trusted (a certificate not the pinned one), `error` says why: give up at once."""
        self._taken = None
        if again:
            now = self.clock()
            if self._unreachable_since is None:
                self._unreachable_since = now
            if (plan.until is not None and now >= plan.until and not plan.then
                    and now - self._unreachable_since < UNREACHABLE_SECONDS):
                # the server may be down, to be started again later than the seat's grace: it then holds the seat
                # from its start (a role switch's plan, with its request, is not kept up: SWITCH_SECONDS)
                plan = replace(plan, until=now + MAX_DELAY, overtime=True)
            self._plan_again(plan, _("cannot reach the server: {error}").format(error=error))
        else:  # (`reconnect` would meet the same certificate: the warning says what to do first, and says it whole)
            self.state.reconnecting = None
            self.state.say(error)
            # TRANSLATORS: in the log after a certificate warning; `reconnect` is the command, typed as it is
            self.state.log.append(_("{warning} · once that is done, `reconnect` connects again").format(warning=error))
        self.notify()

    def _plan_again(self, plan: Plan, reason: str) -> None:
        following = plan.again(self.clock())
        if following is not None:
            self._set_plan(following, reason)
            return
        self._give_up(plan, reason)

    def _give_up(self, plan: Plan, reason: str) -> None:
        self.state.reconnecting = None
        if plan.resume is not None and not self.state.spectating:
            # (German read "nach 1 Versuchen": the count is a plural form's)
            self.state.say(ngettext("{reason}; gave up after {n} attempt: the server holds a seat {seconds} s after a "
                                    "disconnection · `reconnect` tries again",
                                    "{reason}; gave up after {n} attempts: the server holds a seat {seconds} s after "
                                    "a disconnection · `reconnect` tries again", plan.attempt + 1).format(
                reason=reason, n=plan.attempt + 1, seconds=self.grace))
        else:
            self.state.say(_("{reason} · `reconnect` tries again").format(reason=reason))

    def _set_plan(self, plan: Plan, reason: str) -> None:
        self.plan = plan
        until = None  # (a spectator has no seat to hold)
        if plan.resume is not None and not self.state.spectating and not plan.overtime:
            # the seat is held for its grace after a drop; the attempts go on past it while the server cannot be
            # reached (retry_seconds: a restarted server holds it longer), then the countdown says no more of it
            until = plan.until if plan.left_at is None else plan.left_at + self.grace
            until = until if until > self.clock() else None
        self.state.reconnecting = Reconnecting(reason, plan.attempt, self.clock() + plan.delay, until)

    def retry_current(self, reason: str | None = None) -> bool:
        """Plan the current connection again (after a refusal worth retrying), `reason` shown with the countdown
        (by default: the server still knows our old connection); False when not worth it."""
        following = self._current.again(self.clock()) if self._current else None
        if following is not None:
            self._set_plan(following, reason or _("the server still knows our old connection"))
        return following is not None

    def reconnect(self) -> None:
        """The `reconnect` command: try now (cutting a wait short), or again after giving up."""
        if self.stopped:
            return
        if self._write is not None:
            self.state.say(_("connected: nothing to do"))
        elif self._taken is not None:
            self.state.say(_("reconnecting now..."))
            self.wake()  # the network task stops waiting and connects
        elif self.plan is None:
            self._unreachable_since = None  # (after giving up: as long again)
            if self.state.at_table and self.token is not None:
                last_event = self.connection.last_event if self.connection is not None else 0
                resume = ResumeInfo(self.token, self.state.table, last_event)
                self._set_plan(Plan(Role(self.state.role), resume=resume,
                                    until=self.clock() + self.retry_seconds),
                               "reconnect")
            else:
                self.plan = Plan(Role(self.state.role))
                self.state.say(_("connecting again..."))
            self.wake()  # the network task waits for a plan
        self.notify()

    def quit(self) -> None:
        """Stop: no more connections; close the current one (a held seat stays in the seat file)."""
        self.stopped = True
        self.plan = None
        if self._close:
            self._close()
        self.wake()

    # --- the seat we hold, and its secrets --------------------------------------------------------------
    def joined(self, message: Joined) -> bool:
        """We have a seat or a watch; True when it is the one we had (a resume)."""
        state = self.state
        resumed = state.table == message.table and state.seat == message.seat and self.token is not None
        self.token = message.token
        if message.grace_seconds is not None:
            self.grace = message.grace_seconds
        state.reconnecting = None
        if self._current is not None:
            self._current = replace(self._current, until=None, attempt=0)
        if message.seat is None:
            return resumed
        held = self.held
        if held is None or (held.table, held.seat) != (message.table, message.seat):
            held = HeldSeat(message.table, message.seat, message.token)
        grace = message.grace_seconds if message.grace_seconds is not None else held.grace_seconds
        self.held = replace(held, token=message.token, grace_seconds=grace)
        self._save()
        if resumed:
            self._after_resume()
        return resumed

    @property
    def retry_seconds(self) -> int:
        """How long a lost seat is tried again: the seat's grace, and RESTART_GRACE_SECONDS at least, which a server
        that restarted holds it whatever its grace (this client cannot tell a restart from a drop: a play-test's
        clients gave up at once with a grace of 0, while the restarted server held their seats 60 s)."""
        return max(self.grace, RESTART_GRACE_SECONDS)

    def away(self) -> float | None:
        """Seconds since this process lost the connection that the current resume takes the seat back for, or None
        when it is no such resume or that is not known."""
        current = self._current
        if current is None or current.resume is None or current.left_at is None:
            return None
        return self.clock() - current.left_at

    def seat_lost(self, why: str) -> None:
        self.token = None
        self.held = None
        self._restored = None
        self.state.reconnecting = None
        if self.seat_file is not None:
            try:
                self.seat_file.clear()
            except OSError as error:
                self.state.say(_("cannot delete the kept seat token ({error})").format(error=error))

    def keep_secret(self, purpose: str, choice: str, nonce: bytes) -> None:
        if self.held is not None:
            since = self.connection.last_event if self.connection is not None else 0
            self.held.secrets[purpose] = KeptSecret(choice, nonce, since)
            self._save()

    def keep_opponent_commitment(self, purpose: str, commitment: bytes) -> None:
        kept = self.held.secrets.get(purpose) if self.held is not None else None
        if kept is not None and kept.opponent_commitment != commitment:
            kept.opponent_commitment = commitment
            self._save()

    def view_changed(self, n: int, view: dict | None) -> None:
        if self.held is None or not self.held.secrets:
            return
        pending = {(view or {}).get("secret")}
        deal = ((view or {}).get("table") or {}).get("deal")
        if isinstance(deal, dict) and deal.get(self.held.seat) in ("commit", "committed"):
            pending.add(DEAL_PURPOSE)  # our contribution to the deal, until it is revealed (section 16)
        # A round whose opponent's commitment we hold stays until his reveal comes (`opponent_revealed`): a team's
        # is sent only once the teams are revealed (BG-SETUP-06), after the hidden placement, and a client that
        # comes back in between must still hold the commitment to check it against. (Our contribution to the
        # deal goes once it is revealed, as it did.)
        over = [purpose for purpose, kept in self.held.secrets.items() if n > kept.since_event
                and purpose not in pending and (kept.opponent_commitment is None or purpose == DEAL_PURPOSE)]
        for purpose in over:
            del self.held.secrets[purpose]
        if over:
            self._save()

    def opponent_revealed(self, purpose: str) -> None:
        if self.held is not None and self.held.secrets.pop(purpose, None) is not None:
            self._save()

    def resent_commit_refused(self) -> bool:
        if self._resent_commits:
            self._resent_commits -= 1
            return True
        return False

    def _save(self) -> None:
        if self.seat_file is None or self.held is None:
            return
        try:
            self.seat_file.save(self.held)
        except OSError as error:
            self.state.say(_("cannot keep the seat token on disk ({error}): a crash would lose the seat")
                           .format(error=error))

    def _after_resume(self) -> None:
        """Back at our table: our commitments again (sent again: the first one may not have arrived), and the
        actions left unanswered."""
        self._resent_commits = 0
        if isinstance(self.connection, PlayerConnection) and self.held is not None:
            commitments = self.connection.commitments
            assert commitments is not None  # set by joined
            for purpose, kept in self.held.secrets.items():
                self._restore(commitments, purpose, kept)
        for action_id, text in self.state.pending_actions.items():
            self.send(Action(self.state.table, action_id, text))

    def commit_again(self, purpose: str) -> bool:
        """The server's view has no commitment of ours in the round of `purpose`, though we made one: its store
        went back to before it (a backup restored, or `data_sync = "normal"` and a power loss). Without it the
        round waits for ever (a play-test: both clients said "already chosen", the server had nothing). The same
        choice and nonce make the same commitment, sent again once a connection; a duplicate is refused harmlessly
        (commit_twice), as after a resume."""
        connection = self.connection
        commitments = connection.commitments if isinstance(connection, PlayerConnection) else None
        ours = commitments.our_commitment(purpose) if commitments is not None else None
        if ours is None or purpose in self._recommitted:
            return False
        self._recommitted.add(purpose)
        if self.send(Commit(commitments.game_id, purpose, ours), quiet=True):
            self._resent_commits += 1
            return True
        return False

    def _restore(self, commitments: PlayerCommitments, purpose: str, kept: KeptSecret) -> None:
        try:
            commitment = commitments.commit(purpose, kept.choice, kept.nonce)
            if kept.opponent_commitment is not None:
                commitments.opponent_committed(purpose, kept.opponent_commitment)
        except ProtocolError as error:
            self.state.say(_("cannot restore the secret choice for {purpose}: {error}")
                           .format(purpose=purpose_name(purpose), error=error.message))
            return
        if kept.opponent_commitment is None and self.send(Commit(commitments.game_id, purpose, commitment),
                                                          quiet=True):
            self._resent_commits += 1

    # --- sending ---------------------------------------------------------------------------------------
    def send(self, message: Message, *, quiet: bool = False) -> bool:
        """Send a message now; False (with a notice unless `quiet`) when not connected or not allowed now. A lobby
        request typed while the first connection is being made waits for it (`_waiting`): it is not lost."""
        if self._connecting() and isinstance(message, LOBBY_REQUESTS) and not quiet:
            if len(self._waiting) < WAITING_LIMIT:
                self._waiting.append(message)
                # TRANSLATORS: {request} is the name of a protocol message (create_table, join, chat...).
                self.state.say(_("connecting: {request} will be sent once connected")
                               .format(request=message.spec.name))
            return False
        if isinstance(message, CreateTable) and self._unlisted is not None and self._write is not None:
            self._unlisted.append(message)  # (sent at the lobby's first answer: `lobby_listed`)
            return True
        if self.connection is None or self._write is None:
            if not quiet:
                self.state.say(_("not connected · `reconnect` connects again"))
                what = getattr(message, "text", None)
                self.state.not_sent(what if isinstance(what, str) else None)
            return False
        try:
            data = self.connection.send(message)
        except ProtocolError as error:
            if not quiet:
                self.state.say(_("cannot do that now: {error}").format(error=error.message))
            return False
        if isinstance(message, CreateTable):  # (what `table_created` answers: `made`)
            self.creating = message.options
        self._write(data)
        return True

    def _connecting(self) -> bool:
        """The lobby's connection is being made (not yet welcomed), and no seat is being taken back."""
        if self.stopped or self._given_up or self.state.connected or self.state.at_table:
            return False
        plan = self._current if self._write is not None else (self._taken or self.plan)
        return plan is not None and plan.resume is None

    def write(self, data: bytes) -> None:
        """Write an already encoded frame (a commit, a reveal, an error report)."""
        if self._write is not None:
            self._write(data)

    def switch_role(self, role: Role, then: Message) -> None:
        """Reconnect with another role, then send `then` (the connection's role is fixed by its hello)."""
        self.plan = Plan(role, then=(then,), until=self.clock() + SWITCH_SECONDS)
        if role is Role.PLAYER:
            self.state.say(_("reconnecting as a player..."))
        else:
            self.state.say(_("reconnecting as a spectator..."))
        if self._close:
            self._close()
        else:
            self.wake()
            self.notify()

    def after_welcome(self) -> None:
        """Send what the current plan asked for once welcomed."""
        plan = self._current
        if plan is None or plan.resume is not None:
            return
        self.state.reconnecting = None
        self._current = replace(plan, until=None, attempt=0)
        if self.state.at_table:
            # A connection that resumes nothing is in the lobby: a finished game's screen kept from the last one
            # (a play-test's server restarted under it) refused `create` ("leave it first") while the server
            # refused `leave` ("not allowed in state lobby"). The finished game's screen stays, to be read, and
            # `leave` leaves it here (Session.leave); another table's is left. A seat the key takes back comes
            # with its `joined`.
            if self.state.game_over:
                self.state.table_gone = True
            else:
                self.state.leave_table()
        self.list_tables()
        if plan.role is Role.PLAYER:  # (a `create` waits for the list's answer: `_unlisted`)
            self._unlisted = []
        for message in plan.then:
            self.send(message)
        waiting, self._waiting = self._waiting, []
        for message in waiting:  # typed while connecting
            self.send(message)

    @property
    def awaiting_list(self) -> bool:
        """A player's connection is welcomed and the lobby's first answer is not in yet (`_unlisted`)."""
        return self._unlisted is not None

    def lobby_listed(self) -> None:
        """The lobby's first answer since the welcome (a page of the table list) is in: the server's move to a seat
        it keeps for us would have come before it (`_unlisted`). If it came, a `create` that waited is not sent:
        the player is at (or on his way to) that table, told so; else it goes now."""
        unlisted, self._unlisted = self._unlisted, None
        if not unlisted:
            return
        connection = self.connection
        moved = self.unasked or (connection.table if connection is not None and connection.state in (
            State.AT_TABLE, State.SPECTATING) else None)
        if moved is None:
            for message in unlisted:
                self.send(message)
            return
        self.setup = None  # (nothing to join, no bot to seat: the kept seat's table has its own)
        if self.state.table == moved:
            self.tell_unmade(moved)
        else:  # (its `joined`, which starts the table's log, says it: `tell_unmade`)
            self.unmade = moved

    def tell_unmade(self, table: str) -> None:
        """In the log of `table`, the kept seat's: the table we asked for was not made (`lobby_listed`)."""
        self.unmade = None
        # TRANSLATORS: {table} the table's id; `leave` and `create` are commands, typed as they are
        self.state.log.append(_("no new table was made: the server took you to table {table}, where a seat was "
                                "kept for you (`leave` there, then `create`, makes one)").format(table=table))

    def prove(self, challenge: bytes, session_id: str) -> None:
        """Section 18: sign the welcome's challenge, first thing after it, bound to this connection's channel (v2:
        the server's certificate, so that the server cannot pass the proof on to another: red team rt25)."""
        self.proving = self.identity is not None
        if self.identity is not None:
            self.send(Prove(sign_proof(self.identity, challenge, session_id, self.state.name, self._channel)))

    def proof_taken(self) -> None:
        """The server answered after our proof (its first answer, `tables` or a seat's `joined`: a refused proof
        closes the connection first): the first time on this server and name (a network server's: `dt-client
        play`'s own keeps no name worth saying), it bound the name to our key for good (protocol section 18), which
        the player is told once, in the help box (the bar when a box is open already) and the log (play-test pt27
        F12; review rv28: said on the welcome, it came before the proof was taken, and the bar cut it on 80 columns
        behind the TLS note)."""
        state = self.state
        if not self.proving:
            return
        self.proving = False
        if (self.identity_dir is None or state.local or not state.server
                or not first_time_named(self.identity_dir, state.server, state.name)):
            return
        # TRANSLATORS: said once per server, after "connected to ..."; {file} is a file's name, {directory} a folder
        note = _("this server keeps the name {name} for your key alone ({file} in {directory}): back that file "
                 "up, and copy it to play as {name} from another computer").format(
            name=state.name, file=KEY_FILE, directory=self.identity_dir)
        state.log.append(note)
        if state.help_text is None:
            # TRANSLATORS: under a note shown once in the help box; Esc is the key
            state.help_text = f"{note}\n\n" + _("(Esc closes this box.)")
        else:
            state.say(f"{state.notice} · {note}" if state.notice else note)

    def game_stopped(self, said: str) -> None:
        """The server could not save our table's game (protocol section 9: `game_stopped`, said as it cuts us off and to
        a resume): the seat (a spectator's watch) is kept, our token stays valid, and a resume brings the table back
        once the server can save again (or restarts). So resume now and then (STOPPED_DELAYS), as long as it takes, the
        countdown in the message bar, the server's sentence in the log once. (The client showed "reconnecting, attempt
        8" on an open connection until the seat's grace ran out, then gave the seat up: review rv24; then it waited for
        `reconnect`, which on the open lobby connection the resume left said "connected: nothing to do".) `said`: the
        server's sentence, in the reader's language."""
        if self.stopped:
            return
        state = self.state
        if self.token is None:  # a finished game's table (its seat let go at its end: `seat_lost`): nothing to resume,
            # the connection lost is connected again to the lobby, as any at a finished game's screen (rm32b: the
            # resume planned with no token crashed dt-client when a rematch's step could not be saved)
            state.log.append(said)
            state.rematch_offered = state.rematch_asked = None  # (the table that had them is stopped: rm32b saw
            # "rematch asked: waiting for bob" stay on the screen)
            return state.say(said)
        now = self.clock()
        if now - self._stopped_at > STOPPED_ROW_SECONDS:
            self._stops = 0
        self._stopped_at = now
        watching = state.role == Role.SPECTATOR.value  # (no seat kept: rm33 saw a spectator told of one)
        if self._stops == 0 and watching:
            # TRANSLATORS: in a spectator's log, after the server's own sentence
            state.log.append(_("{message} · this client watches again as soon as the server can save the game "
                               "again").format(message=said))
        elif self._stops == 0:
            # TRANSLATORS: in the log, after the server's own sentence
            state.log.append(_("{message} · your seat is kept: this client takes it back as soon as the server can "
                               "save the game again").format(message=said))
        delay = STOPPED_DELAYS[min(self._stops, len(STOPPED_DELAYS) - 1)]
        self._stops += 1
        last_event = self.connection.last_event if self.connection is not None else 0
        current = self._current
        if current is not None and current.resume is not None and current.resume.table == state.table:
            last_event = max(last_event, current.resume.last_event)  # (a resume's answer: this connection saw none)
        resume = ResumeInfo(self.token, state.table, last_event)
        # (`until`: a server that cannot be reached meanwhile, a restart, is tried as after any lost connection)
        self.plan = Plan(Role(state.role), resume=resume, delay=delay, attempt=self._stops,
                         until=now + delay + self.retry_seconds)
        state.reconnecting = Reconnecting(said, self._stops - 1, now + delay, None, stopped=True, watching=watching)
        if self._close is not None:  # (the answer to a resume leaves us in the lobby; a cut closes anyway)
            self._close()

    def proof_refused(self, said: str, tls_only: bool) -> None:
        """The server refused our key proof (`bad_proof`, fatal). Over plain TCP to a server that takes proofs over
        TLS only (section 18: it turned TLS on since we found it plain), the next connection tries TLS; any other
        refusal is given up, said with the server's words: trying again would be refused again (review rv25: a
        client reconnected at once after each, 300 times a second)."""
        if tls_only:
            self.wants_tls = True
            return
        self._given_up = True
        self.state.reconnecting = None
        # TRANSLATORS: after the server's sentence refusing our identity key's proof; `reconnect` is the command
        self.state.log.append(_("{message} · not connecting again by itself: `reconnect` tries again").format(
            message=said))
        self.state.say(self.state.log[-1])

    def taken_over(self) -> None:
        """Another connection has our seat or name (protocol section 9: it resumed with our token; the server
        says `resumed_elsewhere` as it closes ours, or refuses our resume `name_taken`): stop, and do not take it
        back, which would only close that one in turn (two copies of dt-client took one seat from each other
        every few seconds)."""
        self._given_up = True
        self.state.reconnecting = None
        self.token, self.held = None, None  # the seat file now belongs to the connection that has the seat
        self.state.leave_table()
        self.state.say(_("another connection has taken your seat under the name {name} "
                         "(dt-client started again?): this one stops").format(name=self.state.name))

    def kicked(self) -> None:
        """The server's admin closed our connection (the fatal error `kicked`): no attempt to connect again by
        itself, which his kick would refuse anyway; `reconnect` tries when the player wants. The seat's token is
        kept: back within the server's grace, the seat is his again."""
        self._given_up = True
        self.state.reconnecting = None

    def refused(self, code: str, said: str | None = None, in_use: bool = True) -> bool:
        """A hello refused `code` (`said`: the refusal as the user reads it; `in_use`: a name_taken that says the
        name is in use, not that it belongs to another key): True if handled here (tried again, or the seat taken
        over), else the caller says the refusal."""
        current = self._current
        # (a name_taken for the key, "the name 'bob' belongs to another key on this server", is no other copy of
        # this client: play-test pt26 read "another connection has taken your seat (dt-client started again?)"
        # after an upgrade had bound his name to the other spelling's key)
        if code == "name_taken" and current is not None and current.resume is not None:
            if in_use:
                # A valid token takes the name over (protocol section 9), so ours is no longer valid: another
                # connection resumed the seat under our name (the user started the client again elsewhere).
                self.taken_over()
                return True
            # the seat's name is another key's: no attempt can take it back (the caller says why)
            self._given_up = True
            self.state.reconnecting = None
            self.token, self.held = None, None
            self.state.leave_table()
            return False
        # (server_full said as the server says it: "the server still knows our old connection" was a play-test's
        # reading of a full server, pt26)
        if code in RETRY_CODES and self.retry_current(said if code == "server_full" else None):
            return True
        self._given_up = True
        self.state.reconnecting = None
        return False

    # --- requests from commands ------------------------------------------------------------------------
    def list_tables(self, offset: int = 0) -> None:
        """Ask for the table list from `offset` on (0: a fresh list; the inbox asks for the pages that follow)."""
        self.tables_offset = offset
        self.send(ListTables(offset=offset))

    def create_table(self, options: TableOptions, setup: TableSetup = TableSetup()) -> None:
        """Create a table, then join it (and seat a bot, if `setup` says so)."""
        self.setup = setup
        if self.state.role == Role.SPECTATOR:
            self.switch_role(Role.PLAYER, CreateTable(options))
        else:
            self.send(CreateTable(options))

    def join(self, table: str, seat: str | None = None, join_code: str | None = None) -> None:
        message = Join(table, seat, join_code)
        self.joining, self.joining_code = table, join_code
        if self.state.role == Role.SPECTATOR:
            self.switch_role(Role.PLAYER, message)
        else:
            self.send(message)

    def tables_listed(self) -> None:
        """The table list is in (every page asked for): a watch asked for by a table's number goes now."""
        word, self.spectate_listed = self.spectate_listed, None
        if word is not None:
            listed = [info.table for info in self.state.tables]
            problem = unlisted_number(word, listed)  # (`--spectate 1` for the list's first table, a play-test)
            if problem is not None:
                self.state.say(problem)
                return
            self.send(Spectate(table_named(word, listed)))

    def spectate(self, table: str, join_code: str | None = None) -> None:
        request = Spectate(table, join_code=join_code)
        if self.state.role == Role.PLAYER:
            self.switch_role(Role.SPECTATOR, request)
        else:
            self.send(request)

    def leave(self) -> None:
        state = self.state
        if state.table_gone:  # (the server has us in its lobby already: it would refuse a `leave`)
            state.leave_table()
            self.list_tables()
            self.notify()
            return
        if self._write is None and state.reconnecting is not None and state.reconnecting.stopped:
            # the game stopped (the server cannot save it) and we wait to take the seat back: no connection to
            # say `leave` on, so the seat is given up here, as after a grace run out (review rv25: `leave` said
            # "not connected", and a table the server could never bring back held the player for good)
            table = state.table
            self.seat_lost("left")
            state.leave_table()
            self.plan = Plan(Role(state.role))  # (supersedes the resume the network task waits to make)
            self.wake()
            # TRANSLATORS: after `leave` while the game of that table is stopped (the server could not save it)
            state.say(_("left table {table}: your seat there is given up, and the game goes on without you once "
                        "the server can save it again").format(table=table))
            self.notify()
            return
        # (`left` then says the game was resigned; a table the server closes sends `left` too, and was not)
        self.resigning = state.table if state.game_running and state.seat is not None else None
        self.send(Leave())

    def chat(self, text: str) -> None:
        self.send(Chat(text))

    def seat_bot(self, seat: str, kind: str, table: str | None = None) -> None:
        self.bot_asked = (table or self.state.table, seat, kind)
        self.send(SeatBot(*self.bot_asked))

    def older_bot(self, refusal: str) -> bool:
        """A server older than this client refused the bot asked for by its kind (the planner, this client's
        default since 2026-11-30, is `bad_field` "seat_bot.kind: expected ..." to a server of before): the greedy
        one, which every server knows, is asked for instead, and said. Whether it was that refusal."""
        asked, self.bot_asked = self.bot_asked, None
        if asked is None or asked[2] != "planner" or not refusal.startswith("seat_bot.kind:"):
            return False
        table, seat, _kind = asked
        # TRANSLATORS: `bot` is the command; "planner" and "greedy" are the bots' names as typed (bot Y greedy)
        said = _("this server is older than this client and has no planner bot: a greedy bot takes the {seat} "
                 "seat instead").format(seat=seat_name(seat))
        self.state.say(said)
        self.state.log.append(said)  # (the game's own notices replace the bar's at once: review rv27)
        self.seat_bot(seat, "greedy", table)
        return True

    def takeback(self) -> None:
        """Ask the opponent to take back our last action (DT-224)."""
        self.send(Takeback(self.state.table))

    def takeback_answer(self, accept: bool) -> None:
        self.state.takeback_asked = None
        self.state.question = ""
        self.send(TakebackAnswer(self.state.table, accept))

    def offer_draw(self) -> None:
        """Offer the opponent a draw, or accept the one he offers (DT-228)."""
        self.state.draw_offered = None
        self.state.question = ""
        self.send(DrawOffer(self.state.table))

    def rematch(self) -> None:
        """Ask for a rematch of the finished game, or accept the opponent's (docs/protocol.md section 6)."""
        self.state.rematch_offered = None
        self.state.rematch_asked = self.state.table
        self.send(Rematch(self.state.table))

    def decline_rematch(self) -> bool:
        """Decline the opponent's rematch offer (docs/protocol.md section 6, `decline_rematch`); False, nothing sent,
        if the server does not take the message (its welcome did not name the feature)."""
        if self.connection is None or DECLINE_REMATCH not in self.connection.features:
            return False
        self.state.rematch_offered = None
        self.state.question = ""
        self.send(DeclineRematch(self.state.table))
        return True

    def draw_answer(self, accept: bool) -> None:
        self.state.draw_offered = None
        self.state.question = ""
        self.send(DrawAnswer(self.state.table, accept))

    def act(self, text: str, verbs: Collection[str] = ()) -> None:
        """Play an action; while a simultaneous secret choice is pending, commit to it instead. `verbs`: the game's
        action verbs (a verb typed alone lists the actions it begins, or says it begins none)."""
        state = self.state
        if state.spectating:
            # TRANSLATORS: help, look, chat, leave and quit are commands: keep them in English.
            state.say(_("spectators cannot act: help, look, chat, leave and quit only"))
        elif len(text) > ACTION_TEXT.max_len:  # the protocol's limit (what the action text's check would say)
            state.say(_("an action is at most {limit} characters; this one has {count}").format(
                limit=ACTION_TEXT.max_len, count=len(text)))
        elif state.secret_purpose:
            secret_choice.choose(self, text)
        elif (named := _verb_alone(text, state.view, verbs)) == []:
            # TRANSLATORS: a verb typed alone (e.g. `attack`) that begins none of the legal actions now
            state.say(_("{verb}: none of your legal actions now begins with it (Tab lists them)").format(
                verb=text.strip()))
        elif named is not None:
            shown = ", ".join(named[:BARE_VERB_SHOWN]) + (", …" if len(named) > BARE_VERB_SHOWN else "")
            # TRANSLATORS: a verb typed alone (e.g. `reveal`), which would play its only action at once: the legal
            # actions it begins are listed instead; {actions} are typed as they are
            state.say(ngettext("{verb}: {count} action, {actions}: type it whole to play it (Tab completes)",
                               "{verb}: {count} actions, {actions}: type one whole (Tab completes)",
                               len(named)).format(verb=text.strip(), count=len(named), actions=shown))
        elif (deadly := _ends_on_rockfall(text, state.view) or _pushes_onto_rockfall(text, state.view, state.seat)
              ) is not None and state.confirm != text:
            state.confirm = text  # (Commands.run keeps it for the same line typed again)
            token, square = deadly
            # TRANSLATORS: a legal action that kills the player's own character: {token} the character (yGO), {square}
            # a Rockfall square (b19); "type it again" means the same action, typed as it is
            state.say(_("{token} would end on the Rockfall {square}, where every character is eliminated "
                        "(PD-TERR-ROCKFALL-02): type it again to do it").format(token=token, square=square))
        elif (amiss := _aimed_amiss(text, state.view, state.seat)) is not None and state.confirm != text:
            state.confirm = text  # (as for Rockfall: the same line typed again does it)
            state.say(amiss)
        else:
            state.confirm = None
            action_id = next(self._action_ids)
            if self.send(Action(state.table, action_id, text)):
                state.pending_actions[action_id] = text
                state.refusal = None
                state.notice = ""  # the bar answered an earlier line: it would read as this action's answer


def _listed_three(text, view: dict, verbs: tuple[str, ...]) -> list[str] | None:
    """The words of the action of three words the view lists (its legal list) that `text` is, in any case or
    spacing, its figure perhaps without its colour's letter (`breathe RD n`, which the server takes for the one
    listed: play-test pl31 F8), if its verb is one of `verbs`; None otherwise, or if that reading fits more than
    one."""
    legal, words = view.get("legal"), text.split() if isinstance(text, str) else []
    if not isinstance(legal, list) or len(words) != 3 or words[0].lower() not in verbs:
        return None
    verb, figure, last = (word.lower() for word in words)
    fits = [action.split() for action in legal if isinstance(action, str)
            and len(listed := action.lower().split()) == 3 and listed[::2] == [verb, last]
            and figure in (listed[1], listed[1][1:])]
    return fits[0] if len(fits) == 1 else None


def _carries(view: dict, figure: str, code: str) -> bool:
    """Whether the view shows an object of `code` (FS) on the square of the figure `figure` (bWZ): the object it
    carries."""
    tokens = [token for token in view.get("tokens") or () if isinstance(token, dict)]
    squares = {token.get("square") for token in tokens if token.get("id") == figure}
    return any(token.get("character") is False and token.get("code") == code and token.get("square") in squares
               for token in tokens if isinstance(token.get("square"), str))


def _aimed_amiss(text: str, view: dict | None, seat: str | None) -> str | None:
    """What is amiss with the legal fireball or breath `text` (one the view lists), read from the view's line of
    sight (engine/boardgame/viewsight.py, the engine's rules): it would hit nobody (a fireball's wand or staff is
    spent all the same, BG-OBJ-FIREBALL-01; a breath's AP), a Fire Shield would stop it (PD-OBJ-FIRESHIELD-01), or
    the first character it meets is the player's own (BG-OBJ-FIREBALL-02: it eliminates the first character, of
    either colour). Said, and the action asked again, as a move onto Rockfall is (play-test pt28b: a fireball spent
    on nothing had no warning). None when nothing is amiss, or the view does not tell (a card game's)."""
    view = view or {}
    listed = _listed_three(text, view, ("fireball", "breathe")) if view.get("game") in (None, "board") else None
    if listed is None:
        return None
    verb, figure, direction = listed
    from dungeon_twister.engine.boardgame.viewsight import first_hit

    hit = first_hit(view, figure, direction)
    if hit is None:
        return None
    fireball, side = verb == "fireball", _(DIRECTION_NAMES.get(direction, direction))
    if hit.square is None:
        if fireball and _carries(view, figure, "FS"):
            # TRANSLATORS: as the Fireball Wand's sentence, for Prison's Fireball Staff (a play-test of a Prison game
            # read "the wand is spent" of his Staff)
            warning = _("{figure}'s fireball {side} would hit nobody, and the staff is spent all the same "
                        "(PR-OBJ-STAFF-01): type it again to do it")
        else:
            # TRANSLATORS: a legal action that would waste the player's one-shot Fireball Wand; {figure} the
            # Wizard (bWZ), {side} a direction (east); "type it again" means the same action, typed as it is
            warning = (_("{figure}'s fireball {side} would hit nobody, and the wand is spent all the same "
                         "(BG-OBJ-FIREBALL-01): type it again to do it") if fireball else
                       _("{figure}'s breath {side} would hit nobody (PD-CHAR-DRAGON-01): type it again to do it"))
        return warning.format(figure=figure, side=side)
    if hit.shielded:
        # TRANSLATORS: {square} where the first characters on the line stand, spared by a Fire Shield there
        return _("{figure}'s fire {side} would be stopped on {square} by a Fire Shield, harming nobody "
                 "(PD-OBJ-FIRESHIELD-01): type it again to do it").format(figure=figure, side=side, square=hit.square)
    own = [token for token in hit.victims if seat is not None and token[:1].upper() == seat]
    if own:
        # TRANSLATORS: {tokens} the player's own characters the fire would eliminate first (bTR; two: a Troll with
        # a wounded friend, "bTR, bTH")
        return ngettext("{figure}'s fire {side} would eliminate your own {tokens} on {square} first "
                        "(BG-OBJ-FIREBALL-02): type it again to do it",
                        "{figure}'s fire {side} would eliminate your own {tokens} on {square} first "
                        "(BG-OBJ-FIREBALL-02): type it again to do it", len(own)).format(
            figure=figure, side=side, tokens=", ".join(own), square=hit.square)
    return None


PLACING_VERBS = ("move", "jump", "wallwalk", "teleport")
"""The verbs whose action's last square is where their figure ends (`move bTH c4-c5`, `jump bWA c8 c7`)."""


def _ends_on_rockfall(text: str, view: dict | None) -> tuple[str, str] | None:
    """(figure, square) when the legal action `text` ends its figure on a Rockfall square, where every character is
    eliminated once the action is done, shield or not (PD-TERR-ROCKFALL-02, RUL-090): legal, and a VP for the
    opponent, so it is asked again (play-test pt28b: Tab offered `jump yGO c19 b19`, and the Golem died at once).
    Only a text the view lists (what Tab completes), read from the view's terrain; None otherwise."""
    view = view or {}
    legal, terrain = view.get("legal"), view.get("terrain")
    rockfall = terrain.get("rockfall") if isinstance(terrain, dict) else None
    if not isinstance(rockfall, list) or not rockfall or not isinstance(legal, list):
        return None
    typed = _placing(text)
    if typed is None or typed[2] not in rockfall:
        return None
    # the action the server would take it for, in any case or spacing, by a route or an abbreviation (`bgb c3`,
    # `move bGB c4-c3`): one the view lists with the same verb, figure and last square (review rv28b)
    return next(((figure, square) for verb, figure, square in filter(None, map(_placing, legal))
                 if (verb, figure.lower(), square) == (typed[0], typed[1].lower(), typed[2])), None)


def _pushes_onto_rockfall(text: str, view: dict | None, seat: str | None) -> tuple[str, str] | None:
    """(person, square) when the legal action `text` is a Banshee's push of one of `seat`'s own characters onto a
    Rockfall square (PR-CHAR-BANSHEE-01 pushes a person of either colour one square straight away from her, in a
    mix with Paladins & Dragons' terrain; PD-TERR-ROCKFALL-02 then eliminates it): asked again as a move there is
    (review rv28b). An enemy pushed there is what the player wants: not asked. None otherwise."""
    view = view or {}
    terrain = view.get("terrain")
    rockfall = terrain.get("rockfall") if isinstance(terrain, dict) else None
    listed = _listed_three(text, view, ("push",))
    if not isinstance(rockfall, list) or not rockfall or seat is None or listed is None:
        return None
    _, banshee, person = listed
    if not person.upper().startswith(seat):
        return None
    where = {token.get("id"): square_of_name(str(token.get("square"))) for token in view.get("tokens") or ()
             if isinstance(token, dict)}
    start, here = where.get(banshee), where.get(person)
    if start is None or here is None or start == here or (start[0] != here[0] and start[1] != here[1]):
        return None
    away = ((here[0] > start[0]) - (here[0] < start[0]), (here[1] > start[1]) - (here[1] < start[1]))
    there = square_name((here[0] + away[0], here[1] + away[1]))
    return (person, there) if there in rockfall else None


def _placing(text) -> tuple[str, str, str] | None:
    """(verb, figure, last square) of an action that puts its figure on a square (PLACING_VERBS), typed in full or
    as an abbreviation of a move (`bTH c4`); None for another text."""
    words = text.split() if isinstance(text, str) else []
    if words and words[0].lower() not in PLACING_VERBS and len(words) == 2:
        words = ["move", *words]  # (a figure and a square: the server takes it for a move)
    if len(words) < 3 or words[0].lower() not in PLACING_VERBS:
        return None
    verb = words[0].lower()
    return verb, words[1], (words[-1] if verb == "jump" else words[2]).split("-")[-1].lower()


WHOLE_VERBS = ("end", "pass")
"""The verbs that are whole actions by themselves: typed where they are not legal, they are sent, and the refusal
gives the rule (a Card Game's `end` while a revealed room's cards were to be placed read "end: none of your
legal actions now begins with it", play-test pl33, where the engine says to place them first, CG-GOLD-01)."""


def _verb_alone(text: str, view: dict | None, verbs: Collection[str] = ()) -> list[str] | None:
    """The legal actions a verb typed alone begins (`reveal`, `attack`), when it is not itself an action (`end`):
    listed rather than played. The server takes an abbreviation that names one legal action as that action, and
    a bare verb is one, so `reveal` revealed a room, which no takeback undoes (play-test 20). [] for one of the
    game's `verbs` that begins none (the Card Game's parser answered "attack takes 2 word(s)"); None: send it (a
    word that is no verb may be an abbreviation, `g6`)."""
    word = text.strip()
    legal = (view or {}).get("legal")
    if not word or " " in word or not isinstance(legal, list) or not legal or word in legal or word in WHOLE_VERBS:
        return None
    named = [action for action in legal if isinstance(action, str) and action.split(" ", 1)[0] == word]
    return named if named or word in verbs else None
