"""What the client does with each event from the server: update the UI state, answer when the protocol says so."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from dungeon_twister.protocol import (
    ERROR_CODES,
    ActionOk,
    ActionRefused,
    ChatMessage,
    Error,
    Event,
    GameOver,
    Joined,
    Left,
    OpponentBack,
    OpponentCommit,
    OpponentLeft,
    OpponentReveal,
    Ping,
    Pong,
    ProtocolError,
    Refused,
    Resume,
    RevealMismatch,
    SeatBot,
    ServerClosing,
    Snapshot,
    TableCreated,
    TableEvent,
    Tables,
    Timer,
    Welcome,
)

from . import secret_choice
from .describe import describe_event
from .names import other_seat, seat_name
from .state import Refusal

if TYPE_CHECKING:
    from .session import Session


def handle(session: Session, event: Event) -> None:
    if isinstance(event, ProtocolError):
        _protocol_error(session, event)
    elif isinstance(event, RevealMismatch):
        secret_choice.on_mismatch(session, event)
    else:
        handler = _HANDLERS.get(type(event))
        if handler is not None:
            handler(session, event)


def _welcome(session: Session, message: Welcome) -> None:
    session.state.connected = True
    session.state.say(f"connected to {message.server.name} {message.server.version} as {session.state.name}")
    session.after_welcome()


def _refused(session: Session, message: Refused) -> None:
    if message.code == "name_taken" and session.retry_current():
        session.state.say("the server still knows our old connection; trying again...")
        return
    session.state.say(f"the server refused us: {message.reason or message.code} ({message.code})")


def _tables(session: Session, message: Tables) -> None:
    session.state.tables = list(message.tables)


def _table_created(session: Session, message: TableCreated) -> None:
    state = session.state
    state.join_code = message.join_code
    code = f" (private: join code {message.join_code})" if message.join_code else ""
    state.say(f"table {message.table} created{code}")
    if session.setup is not None:
        session.join(message.table, session.setup.seat, message.join_code)


def _joined(session: Session, message: Joined) -> None:
    state = session.state
    resumed = state.table == message.table and state.seat == message.seat and session.token is not None
    session.token = message.token
    if resumed:
        state.say(f"back at table {message.table}")
        session.after_resume()
        return
    state.enter_table(message.table, message.seat)
    session.early_commits.clear()
    role = f"as {seat_name(message.seat)}" if message.seat else "as a spectator"
    state.say(f"joined table {message.table} {role}")
    setup, session.setup = session.setup, None
    if setup is not None and setup.bot is not None and message.seat is not None:
        session.send(SeatBot(message.table, other_seat(message.seat), setup.bot))


def _left(session: Session, message: Left) -> None:
    session.state.leave_table()
    session.token = None
    session.state.say(f"left table {message.table}")
    session.list_tables()


def _chat(session: Session, message: ChatMessage) -> None:
    session.state.chat.append(f"{message.sender}: {message.text}")


def _snapshot(session: Session, message: Snapshot) -> None:
    session.state.view = message.view


def _table_event(session: Session, message: TableEvent) -> None:
    event = message.event
    if event.get("kind") == "view":
        session.state.view = event.get("view")
        return
    line = describe_event(event)
    if line:
        session.state.log.append(line)


def _action_ok(session: Session, message: ActionOk) -> None:
    session.state.pending_actions.pop(message.action_id, None)


def _action_refused(session: Session, message: ActionRefused) -> None:
    state = session.state
    text = state.pending_actions.pop(message.action_id, "?")
    state.refusal = Refusal(text, message.code, message.message, message.rule)


def _timer(session: Session, message: Timer) -> None:
    session.state.timers[message.seat] = session.clock() + message.deadline_ms / 1000


def _opponent_left(session: Session, message: OpponentLeft) -> None:
    session.state.away[message.seat] = message.grace_seconds
    session.state.log.append(f"{seat_name(message.seat)} disconnected; the seat is kept {message.grace_seconds} s")


def _opponent_back(session: Session, message: OpponentBack) -> None:
    session.state.away.pop(message.seat, None)
    session.state.log.append(f"{seat_name(message.seat)} is back")


def _game_over(session: Session, message: GameOver) -> None:
    session.state.result = message.result
    session.state.timers.clear()
    winner = message.result.get("winner")
    session.state.say("game over: " + (f"{seat_name(winner)} wins" if winner else "draw"))


def _error(session: Session, message: Error) -> None:
    state = session.state
    if message.code in ("seat_taken", "no_such_table", "bad_join_code", "not_allowed"):
        session.setup = None
    if message.code == "bad_token":
        state.leave_table()
        session.token = None
        session.list_tables()
    meaning = ERROR_CODES[message.code].meaning if message.code in ERROR_CODES else ""
    state.say(f"server: {message.message or meaning} ({message.code})")


def _ping(session: Session, message: Ping) -> None:
    session.send(Pong(message.id))


def _server_closing(session: Session, message: ServerClosing) -> None:
    session.state.say(f"the server is shutting down: {message.reason}")


def _protocol_error(session: Session, error: ProtocolError) -> None:
    """A frame from the server broke the protocol: resume after a gap, else report it back."""
    connection = session.connection
    if error.code == "event_gap" and connection is not None and connection.table is not None:
        session.send(Resume(connection.table, connection.last_event))
        return
    if connection is not None:
        session.write(connection.send_error(error))
    session.state.say(f"protocol error from the server: {error.message} ({error.code})")


_HANDLERS: dict[type, Callable[[Session, Any], None]] = {
    Welcome: _welcome,
    Refused: _refused,
    Tables: _tables,
    TableCreated: _table_created,
    Joined: _joined,
    Left: _left,
    ChatMessage: _chat,
    Snapshot: _snapshot,
    TableEvent: _table_event,
    ActionOk: _action_ok,
    ActionRefused: _action_refused,
    Timer: _timer,
    OpponentLeft: _opponent_left,
    OpponentBack: _opponent_back,
    GameOver: _game_over,
    Error: _error,
    Ping: _ping,
    ServerClosing: _server_closing,
    OpponentCommit: secret_choice.on_opponent_commit,
    OpponentReveal: secret_choice.on_opponent_reveal,
}
