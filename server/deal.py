"""The players' contributions to the deal (docs/protocol.md section 16, feature "seed_contributions"): one
exchange per table, before its game is dealt. Part of the table's task.

Each seat has a status, which every view's `table.deal` shows (public, and independent of every secret):
"commit" (its contribution is awaited), "committed", "revealed", "none" (it contributes nothing: a bot, or a
player whose time ran out). The exchange is in its commit stage while a seat is "commit", in its reveal stage
while one is "committed", and done when neither is left.
"""

from __future__ import annotations

from dungeon_twister.engine import SEATS, opponent
from dungeon_twister.protocol import ProtocolError, templated, verify
from dungeon_twister.protocol.deal import DEAL_PURPOSE, is_contribution

DEAL_SECONDS = 30.0
"""How long each stage of the exchange waits (the commitments, then the reveals), in the table's clock (trio's);
then a seat still awaited contributes nothing."""


class DealExchange:
    def __init__(self, table_id: str, status: dict[str, str]) -> None:
        self.table_id = table_id
        self.status = dict(status)
        self.commitments: dict[str, bytes] = {}
        self.contributions: dict[str, tuple[str, bytes]] = {}
        """seat -> (contribution, nonce), once revealed and checked."""
        self.deadline: float | None = None
        """When the current stage ends (None: not running, as after a restart until both players are back)."""
        self.timed_stage = "commit"
        """The stage the deadline is for."""
        self.told: set[str] = set()
        """Seats sent their opponent's commitment."""

    @property
    def stage(self) -> str:
        statuses = set(self.status.values())
        return "commit" if "commit" in statuses else "reveal" if "committed" in statuses else "done"

    def commit(self, seat: str, commitment: bytes) -> None:
        status = self.status[seat]
        if status == "commit":
            self.commitments[seat] = commitment
            self.status[seat] = "committed"
        elif status in ("committed", "revealed"):
            raise ProtocolError("commit_twice", f"{seat} already committed for {DEAL_PURPOSE!r}")
        else:
            raise templated("bad_purpose", "your seat contributes nothing to this deal (time ran out)")

    def reveal(self, seat: str, choice: str, nonce: bytes) -> None:
        status = self.status[seat]
        if status == "none":
            raise templated("bad_purpose", "your seat contributes nothing to this deal (time ran out)")
        if status == "revealed":
            raise ProtocolError("reveal_twice", f"{seat} already revealed for {DEAL_PURPOSE!r}")
        if self.stage == "commit":
            raise ProtocolError("reveal_early", f"not every seat has committed for {DEAL_PURPOSE!r} yet")
        if not verify(self.commitments[seat], self.table_id, seat, DEAL_PURPOSE, choice, nonce):
            raise ProtocolError("reveal_mismatch", f"{seat}'s reveal for {DEAL_PURPOSE!r} does not match")
        if not is_contribution(choice):
            raise ProtocolError("bad_field", "a contribution is 64 lowercase hex digits")
        self.contributions[seat] = (choice, nonce)
        self.status[seat] = "revealed"

    def abstain(self, seat: str) -> None:
        """The seat's time ran out: it contributes nothing."""
        self.status[seat] = "none"

    def late(self) -> list[str]:
        """The seats the current stage still waits for."""
        wanted = {"commit": "commit", "reveal": "committed"}.get(self.stage)
        return [seat for seat in SEATS if self.status[seat] == wanted]

    def commitments_to_send(self) -> list[tuple[str, str, bytes]]:
        """(to, from, commitment) for each seat that committed, once the commit stage is over, whose opponent
        committed too and that was not told yet."""
        if self.stage == "commit":
            return []
        out = [(seat, opponent(seat), self.commitments[opponent(seat)]) for seat in SEATS
               if seat in self.commitments and opponent(seat) in self.commitments and seat not in self.told]
        self.told.update(to for to, _, _ in out)
        return out

    def awaiting_reveal(self, seat: str) -> bytes | None:
        """The opponent's commitment, when `seat` must still reveal against it."""
        if self.stage == "reveal" and self.status[seat] == "committed":
            return self.commitments.get(opponent(seat))
        return None

    def parts(self) -> dict[str, str]:
        """Each seat's contribution ("" for none)."""
        return {seat: self.contributions[seat][0] if seat in self.contributions else "" for seat in SEATS}
