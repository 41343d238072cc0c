"""The narrow views the server's parts have of one another, as typing Protocols.

The server owns the lobby and the connections; the lobby owns the tables; a table owns its play and seating. The
owned parts call back into their owners through these Protocols instead of importing the owner's module, so the
import graph stays a tree (tests/test_architecture.py checks it) and each part can be read, and tested, with only
what it really uses of the others.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import trio

    from dungeon_twister.protocol import Message, ProtocolError, TableOptions

    from .config import ServerConfig
    from .storage import Storage


class Client(Protocol):
    """A connection as a table or the lobby sees it (session.Session)."""

    id: str
    name: str | None
    bot_name: str | None
    """The bot name reserved for this in-memory connection (None for a person's)."""
    conn: Any
    """Its sans-IO protocol connection (the lobby reads its `state`)."""
    address: str | None
    """The IP address it connected from (None: in memory)."""
    table: Any
    """The table its requests and its end go to (session.Session.table), if any."""
    moving_to: Any
    """The table another table's task is moving it to (a rematch, a kept seat: Table.take_player) until it has
    taken it (Seating.arrive); None otherwise."""

    @property
    def is_spectator(self) -> bool: ...

    @property
    def closing(self) -> bool:
        """The connection is ending (its end, `Gone`, may be queued at its table already)."""

    def send(self, message: Message) -> None:
        """Queue a message; never blocks."""

    def send_framed(self, message: Message, data: bytes | None) -> None:
        """Queue a message whose frame was made once for several connections (None: make it here)."""

    def send_error(self, error: ProtocolError) -> None: ...

    def flush(self) -> None:
        """Write what is queued now (a table's step, once what it wrote has committed)."""

    def drop(self, reason: str) -> None:
        """Close this connection at once (another one took its seat, or the server could not save)."""


class Host(Protocol):
    """The server as the lobby, the connections and recovery see it (server.Server)."""

    config: ServerConfig
    closing: bool
    sessions: set
    network_sessions: int
    lobby: Directory
    storage: Storage
    seed_source: Callable[[], int]
    seeded: bool
    holding: bool
    held: list

    def start(self, async_fn, *args) -> None:
        """Run a task in the server's nursery."""

    def connect_memory(self, *, lockstep: bool = False, bot_name: str | None = None) -> trio.abc.Stream: ...

    def session_gone(self, session: Client) -> None: ...

    def log_chat(self, session: Client | None, table: str | None, seat: str | None, text: str) -> None:
        """A chat line passed on (session None: the admin's announcement), into the chat log if it is on."""

    def refused_quietly(self, code: str, address: str | None, limit: int, /, **first) -> None:
        """Log a refused connection, a flood of them as one line a minute."""

    def flush_held(self) -> None: ...

    def revive_table(self, stopped: TableDoor) -> TableDoor | None:
        """A table its store's failure stopped, restored once the store answers again, or None; TableGone when no
        resume will bring it back."""


class TableGone(Exception):
    """A stopped table that no resume will bring back (not open in the store, or its journal not restorable,
    recovery.revive_table): its tokens and held names are let go, so that its players are told so (`bad_token`)
    and go to the lobby, instead of being answered game_stopped at every resume for good (review rv25, F3)."""


class Directory(Protocol):
    """The lobby as a table and its seating see it (lobby.Lobby)."""

    server: Host
    store: Storage
    tokens: Any
    names: dict[str, object]

    def issue_token(self, table: TableRoom, seat: str | None, name: str) -> str: ...

    def revoke_token(self, token) -> None: ...

    def hold_name(self, name: str, session: Client, holder: tuple) -> None: ...

    def release_name(self, name: str | None, owner: object) -> None: ...

    def bot_name(self, kind: str) -> str: ...

    def spawn_bot(self, table: TableRoom, seat: str, kind: str, name: str, think: float = 0.0,
                  resume=None) -> None: ...

    def table_closed(self, table: TableRoom, *, stored: bool = True) -> None: ...

    def table_infos(self, offset: int = 0, limit: int | None = None): ...

    def create_table(self, options: TableOptions, creator: str | None, address: str | None = None,
                     join_code: str | None = None) -> TableRoom: ...


class TableDoor(Protocol):
    """A table as a connection sees it: where to send its requests (table.Table)."""

    id: str
    join_code: str | None

    async def submit(self, item) -> bool: ...

    def offer(self, item) -> bool:
        """Queue an item without waiting (False: no room, or closed)."""

    def take_player(self, session: Client, seat: str, event: dict | None = None) -> bool:
        """Seat a player moved here (a rematch, a kept seat), queued without waiting (False: the inbox did not
        take it)."""


class TableRoom(TableDoor, Protocol):
    """A table as its own parts (play.Play, seating.Seating) and the lobby see it (table.Table)."""

    lobby: Directory
    options: TableOptions
    creator: str | None
    grace: int
    play: Any
    seating: Any

    def names(self) -> dict: ...

    def point(self): ...

    def publish(self, payloads: list, timers: list = ()) -> None: ...

    def after_step(self, job) -> None:
        """Run `job` once the step's frames are written (now, outside a step)."""

    def if_not_saved(self, job) -> None:
        """Run `job` if the store cannot save the step: it undoes in memory what the step made."""

    def discard(self) -> None:
        """The step that made this table was not saved: it goes, untold, its task doing nothing."""

    def send_to(self, seat: str, message: Message) -> None: ...

    def send_all(self, message: Message, but: Client | None = None) -> None: ...

    def catch_up(self, session: Client, seat: str | None, last_event: int | None) -> None: ...

    def note_if_empty(self, at_once: bool = False) -> None: ...
