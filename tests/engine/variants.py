"""The games the engine's property tests range over, by name: every set, scenario and mix the engine plays."""

from __future__ import annotations

from dungeon_twister.engine.core.choice import is_lazy
from dungeon_twister.engine.tools.variants import VARIANTS

__all__ = ["VARIANTS", "OTHER_SETS", "listable"]

OTHER_SETS = tuple(name for name in VARIANTS if name not in ("standard", "beginner"))


def listable(legal, spread: int = 64) -> list:
    """`legal` as a list to go through: itself, or for a choice made of parts (a free team building, 10^11
    actions) `spread` actions spread evenly over it, its first and last included."""
    if not is_lazy(legal):
        return list(legal)
    n = len(legal)
    return [legal[i * (n - 1) // (spread - 1)] for i in range(spread)]
