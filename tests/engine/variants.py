"""The games the engine's property tests range over, by name: every set, scenario and mix the engine plays."""

from __future__ import annotations

from dungeon_twister.engine import Options
from dungeon_twister.engine.core.choice import is_lazy

VARIANTS: dict[str, Options] = {
    "standard": Options(),
    "beginner": Options(beginner=True),
    "prison": Options(set_name="prison"),
    "prison-1": Options(set_name="prison", scenario="prison-1"),
    "prison-4": Options(target_vp=4, set_name="prison", scenario="prison-4"),
    "mixed": Options(set_name="mixed"),
    "paladins": Options(set_name="paladins"),
    "mixed-mutual": Options(set_name="mixed", teams="mutual"),
    "all-sets": Options(set_name="all_sets"),
    "all-sets-mutual": Options(set_name="all_sets", teams="mutual"),
    "all-sets-free": Options(set_name="all_sets", teams="free"),
    "prison-paladins-free": Options(set_name="prison_paladins", teams="free"),
}
OTHER_SETS = tuple(name for name in VARIANTS if name not in ("standard", "beginner"))


def listable(legal, spread: int = 64) -> list:
    """`legal` as a list to go through: itself, or for a choice made of parts (a free team building, 10^11
    actions) `spread` actions spread evenly over it, its first and last included."""
    if not is_lazy(legal):
        return list(legal)
    n = len(legal)
    return [legal[i * (n - 1) // (spread - 1)] for i in range(spread)]
