"""Card-game bots (the CG rule family): like the board game's (bots.py), they see only their seat's view and its
legal action texts, and `choose(view, legal, rng) -> str` is pure.

RandomBot draws a kind of action (the verb) uniformly, then an action of that kind: a uniform draw over all actions
would almost never end a turn or fight, since the moves outnumber everything else. GreedyBot takes an exit when one
is offered (CG-EXIT-01: a VP), else an attack or a shot, else a placement when a revealed room's cards are to be
placed (never `pass`), else (three times in four) the move that brings its figure most rows towards the opponent's
start zone, and otherwise plays like RandomBot.
"""

from __future__ import annotations

import re

from ..core.rng import Rng
from . import bots as board_bots

_START = re.compile(r"^[BY][12]$")
_ZONE = re.compile(r"^\^?[a-d]([0-9]+)$")


def _verb(text: str) -> str:
    return text.split(" ", 1)[0]


def _exits(seat: str, legal: list[str]) -> list[str]:
    """Moves that leave the maze through the opponent's start zone (their last word names it)."""
    return [t for t in legal if _verb(t) == "move" and _START.match(t.rsplit(" ", 1)[-1]) and t[-2] != seat]


def _row(view: dict, where: str) -> int | None:
    """The row of a zone (`c5`: 5) or a start position (Blue's: 0; Yellow's: one past the last row)."""
    m = _ZONE.match(where)
    if m is not None:
        return int(m.group(1))
    if _START.match(where):
        return 0 if where[0] == "B" else 2 * view.get("length", 4) + 1
    return None


def _gain(view: dict, seat: str, text: str) -> int | None:
    """How many rows a move brings its figure towards the opponent's end (None: not a move on the maze)."""
    words = text.split()
    here = next((f.get("at") for f in view.get("figures", ()) if f.get("id") == words[1]), None)
    start, end = _row(view, here or ""), _row(view, words[-1])
    if start is None or end is None:
        return None
    return end - start if seat == "B" else start - end


class RandomBot:
    name = "random"

    def choose(self, view: dict, legal: list[str], rng: Rng) -> str:
        if board_bots.building(view):  # a full frontal team (CG-SEL-FULL-01): uniform over its parts
            return board_bots.RandomBot().choose(view, legal, rng)
        verbs = sorted({_verb(t) for t in legal})
        verb = rng.choice(verbs)
        return rng.choice([t for t in legal if _verb(t) == verb])


class GreedyBot:
    name = "greedy"

    def choose(self, view: dict, legal: list[str], rng: Rng) -> str:
        seat = view.get("viewer") or "B"
        if board_bots.building(view):
            return RandomBot().choose(view, legal, rng)
        exits = _exits(seat, legal)
        if exits:
            return exits[0]
        fights = [t for t in legal if _verb(t) in ("attack", "shoot")]
        if fights:
            return rng.choice(fights)
        placing = [t for t in legal if _verb(t) == "place"]
        if placing:  # it places the revealer's objects itself rather than `pass` them back (CG-OPT-02)
            return rng.choice(placing)
        if view.get("phase") == "main" and rng.below(4):  # mostly forward; sometimes anything (reveal, rotate)
            moves = [(g, t) for t in legal if _verb(t) == "move" and (g := _gain(view, seat, t)) is not None]
            best = max((g for g, _ in moves), default=0)
            if best > 0:
                return rng.choice([t for g, t in moves if g == best])
        return RandomBot().choose(view, legal, rng)


BOTS = {"random": RandomBot, "greedy": GreedyBot}
