"""A player's connection, with commit-reveal built in."""

from __future__ import annotations

from .client_connection import ClientConnection
from .commit_round import PlayerCommitments
from .errors import ProtocolError
from .events import Event, RevealMismatch
from .msg_lobby import Joined, Left
from .msg_secret import Commit, OpponentCommit, OpponentReveal, Reveal
from .registry import Message
from .roles import Role


class PlayerConnection(ClientConnection):
    """Use `commit(purpose, choice)` and `reveal(purpose)` for secret choices: the connection draws and keeps
    the nonce, refuses to reveal before the opponent's commitment has arrived, and verifies the opponent's
    reveal: a reveal that does not open the forwarded commitment comes out as a RevealMismatch event instead.
    """

    role = Role.PLAYER
    commitments: PlayerCommitments | None = None
    """This game's commitments, while at a table; the game id is the table id."""

    def commit(self, purpose: str, choice: str, nonce: bytes | None = None) -> bytes:
        """The commit frame for a secret `choice` (canonical action text); `nonce` as in PlayerCommitments.commit."""
        commitments = self._table_commitments()
        return self.send(Commit(commitments.game_id, purpose, commitments.commit(purpose, choice, nonce)))

    def reveal(self, purpose: str) -> bytes:
        """The reveal frame of the choice committed for `purpose`."""
        commitments = self._table_commitments()
        choice, nonce = commitments.reveal(purpose)
        return self.send(Reveal(commitments.game_id, purpose, choice, nonce))

    def _table_commitments(self) -> PlayerCommitments:
        if self.commitments is None:
            raise ProtocolError("wrong_state", "secret choices are made at a table", fault="local")
        return self.commitments

    def _check_send(self, message: Message) -> None:
        super()._check_send(message)
        if isinstance(message, Reveal):
            self._table_commitments().check_may_reveal(message.purpose)

    def _receive(self, message: Message) -> Event | None:
        if isinstance(message, (OpponentCommit, OpponentReveal)) and message.seat != self._table_commitments().opponent:
            raise ProtocolError("bad_field", f"{message.spec.name} for seat {message.seat}, not the opponent's")
        if isinstance(message, OpponentCommit):
            self._table_commitments().opponent_committed(message.purpose, message.commitment)
        event = super()._receive(message)
        if isinstance(message, OpponentReveal) and not self._table_commitments().opponent_reveal_matches(
            message.purpose, message.choice, message.nonce
        ):
            return RevealMismatch(message.table, message.purpose, message.seat, message.choice)
        return event

    def _advance(self, message: Message) -> None:
        super()._advance(message)
        if isinstance(message, Joined) and message.seat is not None:
            self.commitments = PlayerCommitments(message.table, message.seat)
        elif isinstance(message, Left):
            self.commitments = None
