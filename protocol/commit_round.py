"""Bookkeeping of one commit-reveal round: the server's side (CommitRevealRound) and a player's (PlayerCommitments)."""

from __future__ import annotations

from .commit import NONCE_SIZE, commitment, make_nonce, verify
from .errors import ProtocolError
from .kinds import SEATS


def _check_seat(seat: str) -> None:
    if seat not in SEATS:
        raise ValueError(f"unknown seat {seat!r}")


def other_seat(seat: str) -> str:
    _check_seat(seat)
    return SEATS[1 - SEATS.index(seat)]


class CommitRevealRound:
    """Both seats' secret choice for one purpose of one game, as the server sees it.

    Its methods raise ProtocolError (fault "remote": the player is to blame) for commit_twice, reveal_early,
    reveal_twice and reveal_mismatch. Send each player the other's commitment once `both_committed`, and apply
    the choices once `complete`.
    """

    def __init__(self, game_id: str, purpose: str) -> None:
        self.game_id = game_id
        self.purpose = purpose
        self._commitments: dict[str, bytes] = {}
        self._choices: dict[str, str] = {}

    def commit(self, seat: str, commitment_: bytes) -> None:
        _check_seat(seat)
        if seat in self._commitments:
            raise ProtocolError("commit_twice", f"{seat} already committed for {self.purpose!r}")
        self._commitments[seat] = commitment_

    @property
    def both_committed(self) -> bool:
        return len(self._commitments) == len(SEATS)

    def commitment_of(self, seat: str) -> bytes | None:
        return self._commitments.get(seat)

    def reveal(self, seat: str, choice: str, nonce: bytes) -> None:
        _check_seat(seat)
        if not self.both_committed:
            raise ProtocolError("reveal_early", f"not every seat has committed for {self.purpose!r} yet")
        if seat in self._choices:
            raise ProtocolError("reveal_twice", f"{seat} already revealed for {self.purpose!r}")
        if not verify(self._commitments[seat], self.game_id, seat, self.purpose, choice, nonce):
            raise ProtocolError("reveal_mismatch", f"{seat}'s reveal for {self.purpose!r} does not match")
        self._choices[seat] = choice

    @property
    def complete(self) -> bool:
        return len(self._choices) == len(SEATS)

    @property
    def choices(self) -> dict[str, str]:
        """The verified choices revealed so far, by seat."""
        return dict(self._choices)


class PlayerCommitments:
    """A player's secrets and the opponent's commitments in one game, by purpose.

    `commit` draws the nonce and keeps choice and nonce; `reveal` hands them back, but only once the opponent's
    commitment has arrived, so that the server never learns a choice before the opponent is bound to his.
    Local mistakes raise ProtocolError with fault "local", a server's with fault "remote".
    """

    def __init__(self, game_id: str, seat: str) -> None:
        self.game_id = game_id
        self.seat = seat
        self.opponent = other_seat(seat)
        self._secrets: dict[str, tuple[str, bytes]] = {}
        self._opponent_commitments: dict[str, bytes] = {}
        self._abstaining: set[str] = set()

    def commit(self, purpose: str, choice: str, nonce: bytes | None = None) -> bytes:
        """Keep a new secret choice and return its commitment. `nonce`: a fresh one by default; a client that
        saved its choice and nonce passes them back after a crash, to open the commitment it made before."""
        if purpose in self._secrets:
            raise ProtocolError("commit_twice", f"already committed for {purpose!r}", fault="local")
        if nonce is None:
            nonce = make_nonce()
        elif len(nonce) != NONCE_SIZE:
            raise ProtocolError("bad_field", f"a nonce has {NONCE_SIZE} bytes", fault="local")
        self._secrets[purpose] = (choice, nonce)
        return commitment(self.game_id, self.seat, purpose, choice, nonce)

    def reveal(self, purpose: str) -> tuple[str, bytes]:
        """The kept (choice, nonce) of `purpose`, once the opponent's commitment is known."""
        if purpose not in self._secrets:
            raise ProtocolError("reveal_early", f"nothing committed for {purpose!r}", fault="local")
        self.check_may_reveal(purpose)
        return self._secrets[purpose]

    def opponent_abstains(self, purpose: str) -> None:
        """The opponent makes no choice for `purpose` (a deal contribution of a bot, or of a player whose time
        ran out, section 16): our reveal may go without his commitment. A client that is told so checks later
        that the opponent's part was indeed nothing."""
        self._abstaining.add(purpose)

    def forget(self, purpose: str) -> None:
        """Drop what is kept of `purpose` (a deal exchange the server cancelled: the opponent left before it ended)."""
        self._secrets.pop(purpose, None)
        self._opponent_commitments.pop(purpose, None)
        self._abstaining.discard(purpose)

    def kept(self, purpose: str) -> tuple[str, bytes] | None:
        """The (choice, nonce) committed to for `purpose`, whether or not it may be revealed yet."""
        return self._secrets.get(purpose)

    def our_commitment(self, purpose: str) -> bytes | None:
        """The commitment of what we committed to for `purpose` (the same bytes as the first time: to send it
        again to a server that lost it), or None."""
        kept = self._secrets.get(purpose)
        return None if kept is None else commitment(self.game_id, self.seat, purpose, *kept)

    def committed(self, purpose: str) -> bool:
        """Whether we have committed for `purpose`."""
        return purpose in self._secrets

    def check_may_reveal(self, purpose: str) -> None:
        if purpose in self._abstaining:
            return
        if purpose not in self._opponent_commitments:
            raise ProtocolError("reveal_early", f"the opponent has not committed for {purpose!r}", fault="local")

    def opponent_committed(self, purpose: str, commitment_: bytes) -> None:
        """Keep the opponent's commitment; a repeat of it (after a resume) is fine, a different one is not."""
        known = self._opponent_commitments.get(purpose)
        if known == commitment_:
            return
        if known is not None:
            raise ProtocolError("commit_twice", f"a second, different opponent commitment for {purpose!r}")
        self._opponent_commitments[purpose] = commitment_

    def opponent_reveal_matches(self, purpose: str, choice: str, nonce: bytes) -> bool:
        """Whether the opponent's reveal opens the commitment received before (False if none was)."""
        expected = self._opponent_commitments.get(purpose)
        return expected is not None and verify(expected, self.game_id, self.opponent, purpose, choice, nonce)
