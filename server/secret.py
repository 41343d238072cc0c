"""The commit-reveal rounds of one game (docs/protocol.md §10), one CommitRevealRound per purpose, plus what
the server itself does in them: stand in for a seat whose time ran out.
"""

from __future__ import annotations

from dataclasses import dataclass

from dungeon_twister.engine import SEATS, opponent
from dungeon_twister.protocol import CommitRevealRound, ProtocolError, commitment, make_nonce, templated


@dataclass(frozen=True)
class Opened:
    """A seat's choice for a purpose: revealed by the player, or forced by the server when his time ran out."""

    choice: str
    nonce: bytes | None
    """The nonce that opens the seat's commitment (None: a forced choice of a seat that had committed)."""
    forced: bool = False


class SecretRounds:
    def __init__(self, game_id: str) -> None:
        self.game_id = game_id
        self._rounds: dict[str, CommitRevealRound] = {}
        self._opened: dict[str, dict[str, Opened]] = {}
        self._told: dict[str, set[str]] = {}
        """Seats that were sent their opponent's commitment, by purpose."""

    def commit(self, seat: str, purpose: str, commitment_: bytes) -> bool:
        """Record a commitment (ProtocolError commit_twice, bad_purpose); whether both seats have committed now."""
        mine = self._opened.get(purpose, {}).get(seat)
        if mine is not None and mine.forced:
            raise templated("bad_purpose", "time ran out for {purpose}: the server chose for you",
                            purpose=repr(purpose))
        round_ = self._round(purpose)
        round_.commit(seat, commitment_)
        return round_.both_committed

    def reveal(self, seat: str, purpose: str, choice: str, nonce: bytes, pending: bool = False) -> None:
        """Check a reveal against the seat's commitment (ProtocolError bad_purpose, reveal_early, reveal_twice,
        reveal_mismatch) and keep the choice. `pending`: the purpose is the seat's pending secret choice, so a
        reveal before any commitment to it is early (docs/protocol.md §10 step 2), not of an unknown purpose."""
        round_ = self._rounds.get(purpose)
        if round_ is None and pending:
            raise ProtocolError("reveal_early", f"not every seat has committed for {purpose!r} yet")
        if round_ is None:
            raise templated("bad_purpose", "no commit-reveal round {purpose} is open", purpose=repr(purpose))
        round_.reveal(seat, choice, nonce)
        self._opened.setdefault(purpose, {})[seat] = Opened(choice, nonce)

    def force(self, seat: str, purpose: str, choice: str, nonce: bytes | None = None) -> bytes | None:
        """The seat's time ran out: `choice` stands. A seat that had not committed gets a commitment made and
        opened by the server, so that its opponent can still check the reveal he receives; its nonce is returned
        (`nonce`: the one to use, when a restarted server restores the round)."""
        round_ = self._round(purpose)
        if round_.commitment_of(seat) is None:
            nonce = nonce or make_nonce()
            round_.commit(seat, commitment(self.game_id, seat, purpose, choice, nonce))
            self._told.setdefault(purpose, set()).add(seat)  # it sent nothing, it is told nothing
            if round_.both_committed:
                round_.reveal(seat, choice, nonce)
            self._opened.setdefault(purpose, {})[seat] = Opened(choice, nonce, forced=True)
            return nonce
        self._opened.setdefault(purpose, {})[seat] = Opened(choice, None, forced=True)
        return None

    def commitments_to_send(self, purpose: str) -> list[tuple[str, str, bytes]]:
        """(to, from, commitment) for each seat not yet sent its opponent's commitment, once both are in."""
        round_ = self._rounds.get(purpose)
        if round_ is None or not round_.both_committed:
            return []
        told = self._told.setdefault(purpose, set())
        out = [(seat, opponent(seat), round_.commitment_of(opponent(seat))) for seat in SEATS if seat not in told]
        told.update(SEATS)
        return out

    def reveals_to_send(self, purpose: str) -> list[tuple[str, str, Opened]]:
        """(to, from, choice) for each seat that committed itself and whose opponent's choice can be opened."""
        opened = self._opened.get(purpose, {})
        return [(seat, opponent(seat), opened[opponent(seat)]) for seat in SEATS
                if seat in opened and not (opened[seat].forced and opened[seat].nonce is not None)
                and opponent(seat) in opened and opened[opponent(seat)].nonce is not None]

    def awaiting_reveal(self, seat: str) -> list[tuple[str, bytes]]:
        """(purpose, opponent's commitment) of every round where both committed and the seat still has to reveal."""
        out = []
        for purpose, round_ in self._rounds.items():
            if round_.both_committed and seat not in self._opened.get(purpose, {}):
                out.append((purpose, round_.commitment_of(opponent(seat))))
        return out

    def both_committed(self) -> list[str]:
        """The purposes of the open rounds where both seats have committed."""
        return [purpose for purpose, round_ in self._rounds.items() if round_.both_committed]

    def committed(self, purpose: str) -> set[str]:
        round_ = self._rounds.get(purpose)
        return {seat for seat in SEATS if round_ is not None and round_.commitment_of(seat) is not None}

    def opened(self, purpose: str) -> dict[str, Opened]:
        return dict(self._opened.get(purpose, {}))

    def ready(self, purpose: str) -> bool:
        """Both seats' choices are known (revealed or forced)."""
        return len(self._opened.get(purpose, {})) == len(SEATS)

    def close(self, purpose: str) -> None:
        """The round of `purpose` is over. The dicts left empty are made anew: a dict keeps the table it grew to,
        and three of them kept ~0.5 KB of a game in play after its team choice (issue 7, row 5)."""
        for name in ("_rounds", "_opened", "_told"):
            kept = getattr(self, name)
            kept.pop(purpose, None)
            if not kept:
                setattr(self, name, {})

    def _round(self, purpose: str) -> CommitRevealRound:
        if purpose not in self._rounds:
            self._rounds[purpose] = CommitRevealRound(self.game_id, purpose)
        return self._rounds[purpose]
