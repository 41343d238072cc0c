"""What the event handlers (inbox.py, secret_choice.py) may ask of the session: a narrow protocol, so that they
need not import session.py (which imports them) and can be read and tested on their own."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from dungeon_twister.protocol import ClientConnection, Joined, Message, Snapshot, TableOptions

from .state import ClientState, TableSetup


class SessionPort(Protocol):
    state: ClientState
    connection: ClientConnection | None
    early_commits: set[str]
    """Purposes the opponent committed to before we did."""
    joining: str | None
    """The table we asked to join last."""
    resigning: str | None
    """The table whose running game we left (a resignation), until the server's `left` answers."""
    setup: TableSetup | None
    """What to do once the table we asked for exists."""
    creating: TableOptions | None
    """The options of the last `create_table` we sent."""
    made: tuple[str, TableOptions] | None
    """The last table we created and its options (a rematch against its bot after we resigned)."""
    clock: Callable[[], float]
    grace: int
    """Seconds the server holds our seat after a lost connection (its `joined` said, or the default)."""
    proving: bool
    """Our key's proof was sent on this connection and the server has not answered since."""

    def send(self, message: Message) -> bool:
        """Send a message now; False (with a notice) when not connected or not allowed in this state."""

    def write(self, data: bytes) -> None:
        """Write an already encoded frame (a commit, a reveal, an error report)."""

    def commit_again(self, purpose: str) -> bool:
        """Send our commitment of `purpose` again (the server's view does not have it): once a connection; False
        when there is none to send."""

    tables_offset: int
    """The offset of the table-list page asked for last (0: a fresh list)."""

    def list_tables(self, offset: int = 0) -> None: ...

    def tables_listed(self) -> None:
        """Every page of the table list asked for is in: what waited for it (`--spectate 2`) goes now."""

    def join(self, table: str, seat: str | None = None, join_code: str | None = None) -> None: ...

    unasked: str | None
    """The table of a `table_created` no `create` of ours asked for, on this connection (the server moves us)."""
    unmade: str | None
    """The kept seat's table the server took us to instead of making the one we asked for, until its `joined`."""

    def tell_unmade(self, table: str) -> None:
        """Say, in `table`'s log, that the table we asked for was not made: the server took us to this kept seat."""

    @property
    def awaiting_list(self) -> bool:
        """A player's connection is welcomed and the lobby's first answer is not in yet (a `create` waits)."""

    def lobby_listed(self) -> None:
        """The lobby's first answer since the welcome: a `create` held until then goes, unless the server took us to
        a seat it keeps for us."""

    def after_welcome(self) -> None:
        """Send what the current connection was opened for."""

    def prove(self, challenge: bytes, session_id: str) -> None:
        """Sign the welcome's challenge with the user's key (docs/protocol.md section 18)."""

    def proof_taken(self) -> None:
        """The server answered after our key's proof: the first time on a server, the player is told it keeps
        the name for the key."""

    def refused(self, code: str) -> bool:
        """The server refused the connection; True when the session has dealt with it (trying again, or saying
        why it stops), False when the refusal is to be shown as it is."""

    def joined(self, message: Joined) -> bool:
        """We have a seat or a watch (kept, with its token); True when it is the one we had (a resume)."""

    def away(self) -> float | None:
        """Seconds since this process lost the connection whose seat the current resume takes back; None when it
        is no such resume or that is not known (a seat kept by an earlier run)."""

    def seat_lost(self, why: str) -> None:
        """The seat is no longer ours (left, game over, token refused): forget its token."""

    def restored_snapshot(self) -> tuple[Snapshot, bool] | None:
        """Right after a resumed `joined`: the view an earlier process stopped at, as a snapshot of its event, and
        whether its log started at a snapshot; None when there is none to carry on from."""

    def view_changed(self, n: int, view: dict | None) -> None:
        """A new view at table event `n`: secret rounds it no longer shows are over."""

    def keep_secret(self, purpose: str, choice: str, nonce: bytes) -> None:
        """Keep (durably) a secret choice before its commitment is sent."""

    def keep_opponent_commitment(self, purpose: str, commitment: bytes) -> None:
        """Keep (durably) the opponent's commitment before we reveal."""

    def log_after(self, line: str) -> None:
        """Add a line to the log after what else the bytes being handled bring (their events)."""

    def opponent_revealed(self, purpose: str) -> None:
        """The opponent's reveal for `purpose` came (checked, whether it matched or not): the round is over."""

    def resent_commit_refused(self) -> bool:
        """A commit_twice or bad_purpose answers a commitment sent again after a resume: True (and nothing to
        show) if so."""
