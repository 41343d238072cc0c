"""A player's connection, with commit-reveal built in."""

from __future__ import annotations

from .client_connection import ClientConnection
from .commit import commitment as commitment_of
from .commit import make_nonce
from .commit_round import PlayerCommitments
from .deal import DEAL_PURPOSE, make_contribution
from .errors import ProtocolError
from .events import Event, RevealMismatch
from .msg_lobby import Joined, Left
from .msg_secret import Commit, OpponentCommit, OpponentReveal, Reveal
from .registry import Message
from .roles import Role
from .views import SEED_CONTRIBUTIONS


class PlayerConnection(ClientConnection):
    """Use `commit(purpose, choice)` and `reveal(purpose)` for secret choices: the connection draws and keeps
    the nonce, refuses to reveal before the opponent's commitment has arrived, and verifies the opponent's
    reveal: a reveal that does not open the forwarded commitment comes out as a RevealMismatch event instead.
    """

    role = Role.PLAYER
    commitments: PlayerCommitments | None = None
    """This game's commitments, while at a table; the game id is the table id."""
    deal_revealed = False
    """Our contribution to the deal has been revealed (feature seed_contributions)."""
    _deal_view: dict | None = None
    _deal_sent = False
    """Our deal commitment went out on this connection."""

    def commit(self, purpose: str, choice: str, nonce: bytes | None = None) -> bytes:
        """The commit frame for a secret `choice` (canonical action text); `nonce` as in PlayerCommitments.commit."""
        commitments = self._table_commitments()
        return self.send(Commit(commitments.game_id, purpose, commitments.commit(purpose, choice, nonce)))

    def reveal(self, purpose: str) -> bytes:
        """The reveal frame of the choice committed for `purpose`."""
        commitments = self._table_commitments()
        choice, nonce = commitments.reveal(purpose)
        return self.send(Reveal(commitments.game_id, purpose, choice, nonce))

    def deal_step(self, view: dict | None = None, contribution: str | None = None, keep=None) -> bytes | None:
        """Feature seed_contributions (docs/protocol.md section 16): the commit or reveal frame the deal exchange
        needs from this seat now, if any, from the view's `table.deal` (the last view given, when None: call it
        again when the opponent's commitment arrives). `contribution`: ours (default: fresh from `secrets`);
        `keep(choice, nonce)` is called before its commitment leaves, to keep it on disk.

        A view without `table.deal` before the start means the exchange was cancelled (a seat was freed): what was
        committed to is forgotten, and the next exchange gets a new contribution."""
        commitments = self.commitments
        if SEED_CONTRIBUTIONS not in self.features or commitments is None:
            return None
        if view is not None:
            self._deal_view = view
        view = self._deal_view or {}
        status = (view.get("table") or {}).get("deal")
        if not isinstance(status, dict):
            if not view.get("started") and commitments.committed(DEAL_PURPOSE):
                commitments.forget(DEAL_PURPOSE)
                self.deal_revealed = self._deal_sent = False
            return None
        mine, theirs = status.get(commitments.seat), status.get(commitments.opponent)
        if mine == "commit":
            if self._deal_sent:
                return None  # a view from before our commitment arrived
            self._deal_sent = True
            if commitments.committed(DEAL_PURPOSE):  # sent on an earlier connection: the same commitment again
                choice, nonce = commitments.kept(DEAL_PURPOSE)
                return self.send(Commit(commitments.game_id, DEAL_PURPOSE, commitment_of(
                    commitments.game_id, commitments.seat, DEAL_PURPOSE, choice, nonce)))
            choice = contribution or make_contribution()
            nonce = make_nonce()
            if keep is not None:
                keep(choice, nonce)
            return self.commit(DEAL_PURPOSE, choice, nonce)
        if mine == "committed" and not self.deal_revealed and commitments.committed(DEAL_PURPOSE):
            if theirs == "none":
                commitments.opponent_abstains(DEAL_PURPOSE)
            try:
                frame = self.reveal(DEAL_PURPOSE)
            except ProtocolError:
                return None  # the opponent's commitment has not arrived yet
            self.deal_revealed = True
            return frame
        return None

    def contribution(self) -> str | None:
        """Our contribution to the deal, once committed to."""
        kept = self.commitments.kept(DEAL_PURPOSE) if self.commitments is not None else None
        return kept[0] if kept else None

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
            self.commitments, self._deal_view, self.deal_revealed, self._deal_sent = None, None, False, False
