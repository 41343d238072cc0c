"""Every game the engine plays, by name: each set, scenario, mix and team building, as `Options`. The property
tests range over them (tests/engine/variants.py) and `bench/legal_equivalence.py --variants` fingerprints them."""

from __future__ import annotations

from ..boardgame.state import Options

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
