"""Connection states and the transitions that messages cause; both ends of a connection track the same state."""

from __future__ import annotations

from enum import StrEnum

from .roles import Role


class State(StrEnum):
    AWAIT_HELLO = "await_hello"
    """Connected: the client must send hello."""
    AWAIT_WELCOME = "await_welcome"
    """Hello sent: the server must answer welcome or refused."""
    LOBBY = "lobby"
    AT_TABLE = "at_table"
    """A player holds a seat at a table (the game may wait for its opponent, run, or be over)."""
    SPECTATING = "spectating"
    CLOSED = "closed"


OPEN = frozenset(State) - {State.CLOSED}
AFTER_HANDSHAKE = frozenset({State.LOBBY, State.AT_TABLE, State.SPECTATING})
AT_A_TABLE = frozenset({State.AT_TABLE, State.SPECTATING})

_NEXT_STATE = {
    "hello": State.AWAIT_WELCOME,
    "welcome": State.LOBBY,
    "refused": State.CLOSED,
    "left": State.LOBBY,
    "server_closing": State.CLOSED,
}


def state_after(state: State, message_name: str, client_role: Role | None) -> State:
    """The state once a message allowed in `state` has been sent or received (fatal errors aside)."""
    if message_name == "joined":
        return State.SPECTATING if client_role is Role.SPECTATOR else State.AT_TABLE
    return _NEXT_STATE.get(message_name, state)
