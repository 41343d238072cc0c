"""What the deadlines of a timed table follow, in any rule family (BG-OPT-02..04, CG-OPT-01/02): the server asks
the family for a `Clock` of the state and keeps its own time (server/deadlines.py)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Clock:
    turn: tuple | None
    """(turn number, active seat) while a turn is under way, else None (setup, team choice, the end)."""
    running: bool
    """Whether the turn's clock runs: the active seat is the one to act (not while the other seat places the
    revealer's objects or a step of a combat is another's). During a combat's cards (`combat` without `step`) the
    engine says False: the server, which knows the commitments, runs it until the active seat has laid its card
    (docs/rulings.md DT-235)."""
    placer: str | None = None
    """The revealer's opponent placing the revealer's objects, under a deadline of his own (BG-OPT-03,
    CG-OPT-02); `place_key` tells one such placing from the next."""
    place_key: tuple | None = None
    combat: str | None = None
    """The secret purpose of the combat card both seats lay at once ("combat-N"), if one is pending: a seat gets a
    deadline once the other has committed (BG-OPT-04, CG-OPT-02)."""
    step: tuple | None = None
    """(seat, key) of a step of a combat that one seat takes alone, in the open: the Telepath's naming, the
    Berserker's announcement, a card laid face up before the Weapon Master's side. It has the combat card's
    deadline (docs/rulings.md DT-223); `key` tells one such step from the next."""
