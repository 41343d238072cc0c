"""The client's side of the protocol: one Session drives the connection of the moment and the UI state.

A Session is plain synchronous code around the sans-IO connection. The network task (network.py) feeds it the
bytes it reads (`receive`) and lends it two callables for each connection, `write(frame)` and `close()`;
commands call its request methods. Both run on one thread (trio in guest mode on asyncio's loop, see guest.py),
so no locking is needed.

A connection's role is fixed by its hello, so spectating as a player (or joining as a spectator) opens a new
connection: the Session leaves a `Plan` for the network task and closes the current one. A connection lost at a
table is resumed the same way, with the resume token of `joined` (protocol section 9).
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from itertools import count

from dungeon_twister.protocol import (
    Action,
    Chat,
    ClientConnection,
    CreateTable,
    Join,
    Leave,
    ListTables,
    Message,
    PlayerCommitments,
    PlayerConnection,
    ProtocolError,
    ResumeInfo,
    Role,
    SeatBot,
    Software,
    Spectate,
    SpectatorConnection,
    State,
    TableOptions,
)

from . import inbox, secret_choice
from .state import ClientState

SOFTWARE = Software("dt-client", "0.1.0")
MAX_ATTEMPTS = 4
"""Connection attempts for a resume or a role switch (the old name may still be taken for a moment)."""


@dataclass(frozen=True)
class Plan:
    """The next connection to open: its role, an optional resume, and requests to send once welcomed.

    `retry`: a failed attempt is repeated (up to MAX_ATTEMPTS) — for a resume or a role switch, whose server
    may still hold our old connection for a moment; `attempt` counts the attempts made.
    """

    role: Role
    resume: ResumeInfo | None = None
    then: tuple[Message, ...] = ()
    retry: bool = False
    attempt: int = 0

    def again(self) -> Plan | None:
        """The next attempt, if there is one."""
        if not self.retry or self.attempt + 1 >= MAX_ATTEMPTS:
            return None
        return replace(self, attempt=self.attempt + 1)


@dataclass(frozen=True)
class TableSetup:
    """What to do once our new table exists: join it (in `seat`, None: any) and seat a bot in the other seat."""

    seat: str | None = None
    bot: str | None = None


class Session:
    """The connection of the moment, the plan for the next one, and the requests the commands make."""

    def __init__(self, state: ClientState, role: Role = Role.PLAYER, then: tuple[Message, ...] = (), *,
                 notify: Callable[[], None] = lambda: None, clock: Callable[[], float] = time.monotonic) -> None:
        """`then`: requests to send once welcomed on the first connection (e.g. spectate a table)."""
        self.state = state
        self.notify = notify
        self.clock = clock
        self.connection: ClientConnection | None = None
        self.plan: Plan | None = Plan(role, then=then)
        """The connection the network task opens next; None: stop."""
        self.token: str | None = None
        """The resume token of our seat (or watch)."""
        self.setup: TableSetup | None = None
        self.early_commits: set[str] = set()
        """Purposes the opponent committed to before we did."""
        self.stopped = False
        """Set by quit: no connection is opened or resumed any more."""
        self._current: Plan | None = None
        self._write: Callable[[bytes], None] | None = None
        self._close: Callable[[], None] | None = None
        self._kept_commitments: PlayerCommitments | None = None
        self._action_ids = (f"{secrets.token_hex(3)}-{n}" for n in count(1))
        state.role = role.value

    # --- lifecycle, driven by the network task ----------------------------------------------------------
    def take_plan(self) -> Plan | None:
        plan, self.plan = self.plan, None
        return None if self.stopped else plan

    def attach(self, plan: Plan, write: Callable[[bytes], None], close: Callable[[], None]) -> None:
        """A connection for `plan` is open: say hello on it."""
        self._current, self._write, self._close = plan, write, close
        self.connection = PlayerConnection() if plan.role is Role.PLAYER else SpectatorConnection()
        self.state.role = plan.role.value
        self._write(self.connection.send_hello(self.state.name, SOFTWARE, plan.resume))
        self.notify()

    def receive(self, data: bytes) -> None:
        """Bytes from the server: handle every event they complete."""
        assert self.connection is not None
        self.connection.receive_data(data)
        while (event := self.connection.next_event()) is not None:
            inbox.handle(self, event)
        self.notify()

    @property
    def closed(self) -> bool:
        return self.connection is None or self.connection.state is State.CLOSED

    def detach(self, reason: str) -> None:
        """The connection is gone; plan a resume if we lost our seat by accident."""
        lost = not self.stopped and self.connection is not None and self.connection.state is not State.CLOSED
        if isinstance(self.connection, PlayerConnection):
            self._kept_commitments = self.connection.commitments
        self._write = self._close = None
        self.state.connected = False
        if self.plan is None and lost and self.state.at_table and self.token:
            resume = ResumeInfo(self.token, self.state.table, self.connection.last_event)
            attempt = self._current.attempt + 1 if self._current and self._current.resume else 0
            if attempt < MAX_ATTEMPTS:
                self.plan = Plan(Role(self.state.role), resume=resume, retry=True, attempt=attempt)
            self.state.say(f"connection lost ({reason}); " + ("resuming..." if self.plan else "giving up"))
        elif self.plan is None:
            self.state.say(f"disconnected: {reason}")
        self.notify()

    def connect_failed(self, plan: Plan, error: str) -> None:
        """Opening a connection failed: try again if the plan says so, else give up."""
        self.plan = plan.again()
        self.state.say(f"cannot reach the server ({error})" + ("; trying again..." if self.plan else ""))
        self.notify()

    def retry_current(self) -> bool:
        """Plan the current connection again (after name_taken during a switch); False when not worth it."""
        self.plan = self._current.again() if self._current else None
        return self.plan is not None

    def quit(self) -> None:
        """Stop: no more connections; close the current one."""
        self.stopped = True
        self.plan = None
        if self._close:
            self._close()

    # --- sending ---------------------------------------------------------------------------------------
    def send(self, message: Message) -> bool:
        """Send a message now; False (with a notice) when not connected or not allowed in this state."""
        if self.connection is None or self._write is None:
            self.state.say("not connected")
            return False
        try:
            data = self.connection.send(message)
        except ProtocolError as error:
            self.state.say(f"cannot do that now: {error.message}")
            return False
        self._write(data)
        return True

    def write(self, data: bytes) -> None:
        """Write an already encoded frame (a commit, a reveal, an error report)."""
        if self._write is not None:
            self._write(data)

    def switch_role(self, role: Role, then: Message) -> None:
        """Reconnect with another role, then send `then` (the connection's role is fixed by its hello)."""
        self.plan = Plan(role, then=(then,), retry=True)
        self.state.say(f"reconnecting as a {role.value}...")
        if self._close:
            self._close()
        else:
            self.notify()

    def after_welcome(self) -> None:
        """Send what the current plan asked for once welcomed."""
        plan = self._current
        if plan is None or plan.resume is not None:
            return
        self.send(ListTables())
        for message in plan.then:
            self.send(message)

    def after_resume(self) -> None:
        """Back at our table: restore our commitments and send again the actions left unanswered."""
        if self._current is not None:
            self._current = replace(self._current, attempt=0)
        if isinstance(self.connection, PlayerConnection) and self._kept_commitments is not None:
            self.connection.commitments = self._kept_commitments
        for action_id, text in self.state.pending_actions.items():
            self.send(Action(self.state.table, action_id, text))

    # --- requests from commands ------------------------------------------------------------------------
    def list_tables(self) -> None:
        self.send(ListTables())

    def create_table(self, options: TableOptions, setup: TableSetup = TableSetup()) -> None:
        """Create a table, then join it (and seat a bot, if `setup` says so)."""
        self.setup = setup
        if self.state.role == Role.SPECTATOR:
            self.switch_role(Role.PLAYER, CreateTable(options))
        else:
            self.send(CreateTable(options))

    def join(self, table: str, seat: str | None = None, join_code: str | None = None) -> None:
        message = Join(table, seat, join_code)
        if self.state.role == Role.SPECTATOR:
            self.switch_role(Role.PLAYER, message)
        else:
            self.send(message)

    def spectate(self, table: str, join_code: str | None = None) -> None:
        request = Spectate(table, join_code=join_code)
        if self.state.role == Role.PLAYER:
            self.switch_role(Role.SPECTATOR, request)
        else:
            self.send(request)

    def leave(self) -> None:
        self.send(Leave())

    def chat(self, text: str) -> None:
        self.send(Chat(text))

    def seat_bot(self, seat: str, kind: str) -> None:
        self.send(SeatBot(self.state.table, seat, kind))

    def act(self, text: str) -> None:
        """Play an action; while a simultaneous secret choice is pending, commit to it instead."""
        state = self.state
        if state.spectating:
            state.say("spectators cannot act: help, chat and leave only")
        elif state.secret_purpose:
            secret_choice.choose(self, text)
        else:
            action_id = next(self._action_ids)
            if self.send(Action(state.table, action_id, text)):
                state.pending_actions[action_id] = text
                state.refusal = None
