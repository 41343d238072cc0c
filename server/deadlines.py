"""The deadlines of a timed table (BG-OPT-02..05, CG-OPT-01/02) on trio's clock: 2 minutes per turn (+1 per Speed
Potion), 5 seconds for a combat card once the opponent has committed (and for its reveal), 5 seconds for the
opponent to place the revealer's objects, 5 seconds for a step of a combat one seat takes alone (a naming, an
announcement, a card laid face up: docs/rulings.md DT-223). Team choice and hidden placement have no deadline. What
runs when is
the rule family's `Clock` of the state (engine/core/clock.py); the time is the server's.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace

from dungeon_twister.engine import SEATS
from dungeon_twister.engine.core.clock import Clock

TURN_SECONDS = 120.0
SECRET_SECONDS = 5.0
PLACE_SECONDS = 5.0
POTION_SECONDS = 60.0
CHARM_SECONDS = 60.0  # PD-OBJ-CHARM-07: each use of a Charm Scroll adds a minute to the turn
EXTRA_TURN_SECONDS = {"potion_drunk": POTION_SECONDS, "charmed": CHARM_SECONDS}
"""Engine events that add time to the running turn, and how much."""


def turn_extensions(kinds: list[str]) -> list[float]:
    """The extra seconds a step's events add to the turn, one entry per such event, in order."""
    return [EXTRA_TURN_SECONDS[kind] for kind in kinds if kind in EXTRA_TURN_SECONDS]


@dataclass
class Deadline:
    kind: str
    """"turn", "commit" (a combat card not committed), "reveal" (committed, not revealed), "place" or "step" (a
    lone step of a combat: a naming, an announcement, a card laid face up)."""
    seat: str
    at: float
    key: tuple


Notice = tuple[str, float]
"""(seat, seconds left): a deadline that started, resumed or moved."""


class Deadlines:
    """Which deadlines run, given the game state and its commit-reveal rounds; the turn clock pauses while the
    other seat must act (placing the revealer's objects, a combat once the turn's player has laid his card)."""

    def __init__(self) -> None:
        self.turn: Deadline | None = None
        self._left: float | None = None
        """Seconds left on the paused turn clock (None while it runs, or once it is dead)."""
        self._dead = False
        self._others: dict[tuple, Deadline] = {}

    def update(self, clock: Clock, committed: Callable[[str], set], opened: Callable[[str], dict],
               now: float) -> list[Notice]:
        """Start, pause, resume and drop deadlines to match the game's clock; the notices to send."""
        if clock.turn is None and clock.placer is None and clock.combat is None:
            self.clear()
            return []
        if clock.combat is not None and clock.step is None and clock.turn is not None:
            # DT-235: the turn's clock runs on until its player has laid his combat card (the combat card's 5
            # seconds are the other's, once one is laid: BG-OPT-04, CG-OPT-02); neither can hold the game
            clock = replace(clock, running=clock.turn[1] not in committed(clock.combat))
        notices = self._update_turn(clock, now)
        wanted = {}
        if clock.placer is not None:
            wanted[("place", *clock.place_key)] = ("place", clock.placer, PLACE_SECONDS)
        if clock.step is not None:  # DT-223: a lone step of a combat has the combat card's 5 seconds
            seat, key = clock.step
            wanted[("step", *key)] = ("step", seat, SECRET_SECONDS)
        if clock.combat is not None:
            purpose = clock.combat
            done, known = committed(purpose), opened(purpose)
            for seat in SEATS:
                if len(done) == 1 and seat not in done:
                    wanted[("commit", purpose, seat)] = ("commit", seat, SECRET_SECONDS)
                elif len(done) == 2 and seat not in known:
                    wanted[("reveal", purpose, seat)] = ("reveal", seat, SECRET_SECONDS)
        self._others = {key: d for key, d in self._others.items() if key in wanted}
        turn = self.turn
        for key, (kind, seat, seconds) in wanted.items():
            if key not in self._others:
                self._others[key] = Deadline(kind, seat, now + seconds, key)
                if turn is not None and turn.seat == seat and turn.at - now < seconds:
                    # (DT-235: the attacker's turn clock runs on beside his card's 5 seconds: with less than that
                    # left, his +0 comes when it runs out, and a countdown of 5 would promise time he has not)
                    seconds = max(0.0, turn.at - now)
                notices.append((seat, seconds))
        return notices

    def _update_turn(self, clock: Clock, now: float) -> list[Notice]:
        if clock.turn is None:
            self.turn, self._left, self._dead = None, None, False
            return []
        key = clock.turn
        if self.turn is None or self.turn.key != key:
            self.turn, self._left, self._dead = Deadline("turn", key[1], math.inf, key), TURN_SECONDS, False
        if self._dead:
            return []
        running = clock.running
        if running and self._left is not None:
            self.turn.at, self._left = now + self._left, None
            return [(key[1], self.turn.at - now)]
        if not running and self._left is None:
            self._left, self.turn.at = max(0.0, self.turn.at - now), math.inf
        return []

    def extend_turn(self, seconds: float, now: float) -> list[Notice]:
        """A Speed Potion: more time for the current turn."""
        if self.turn is None or self._dead:
            return []
        if self._left is not None:
            self._left += seconds
            return []
        self.turn.at += seconds
        return [(self.turn.seat, self.turn.at - now)]

    def spend_turn(self) -> None:
        """The turn deadline passed and is being dealt with: no time is left, should the clock run again."""
        if self.turn is not None:
            self.turn.at, self._left = math.inf, 0.0

    def clear_turn(self) -> None:
        """Stop the turn clock until the next turn."""
        if self.turn is not None:
            self.turn.at, self._left, self._dead = math.inf, None, True

    def drop(self, deadline: Deadline) -> None:
        self._others.pop(deadline.key, None)

    def clear(self) -> None:
        self.turn, self._left, self._dead = None, None, False
        self._others.clear()

    def wait(self, deadline: Deadline) -> None:
        """A reveal whose seat is away when its time is out: it waits for him, stopped (DT-251)."""
        deadline.at = math.inf

    def resume(self, seat: str, now: float) -> list[Deadline]:
        """The seat is back: each of its reveals that waited for it gets its 5 seconds afresh (DT-251); those."""
        back = [d for d in self._others.values() if d.seat == seat and d.kind == "reveal" and d.at == math.inf]
        for deadline in back:
            deadline.at = now + SECRET_SECONDS
        return back

    def running(self) -> list[Deadline]:
        out = [d for d in self._others.values() if d.at != math.inf]
        if self.turn is not None and self.turn.at != math.inf:
            out.append(self.turn)
        return out

    def next_at(self) -> float:
        return min((d.at for d in self.running()), default=math.inf)

    def due(self, now: float) -> Deadline | None:
        """The earliest deadline that has passed, if any."""
        passed = [d for d in self.running() if d.at <= now]
        return min(passed, key=lambda d: d.at) if passed else None
