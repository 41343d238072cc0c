"""The games the engine's property tests range over, by name: every set, scenario and mix the engine plays."""

from __future__ import annotations

from dungeon_twister.engine import Options

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
}
OTHER_SETS = tuple(name for name in VARIANTS if name not in ("standard", "beginner"))
