"""Dungeon Twister Prison (PR- rules): its data (rooms 37-40, characters, objects, scenarios) and its rule modules.

Importing this package registers its data package with the catalogue loader and its rule set ("prison") with the
rulebook: the board-game family's modules plus what Prison adds. Where Prison's rules differ from the base set's
([DIFF] in ../shared/rules/prison.md), the set's data flags say which holds (`catalogue.SetCatalogue.flags`).
"""

from ..boardgame import catalogue, rulebook
from . import lance, ranged, scenarios, shockwave, telepath

catalogue.register_data("dungeon_twister.engine.prison.data")

PRISON_MODULES: tuple[rulebook.RuleModule, ...] = (  # the modules of the mechanisms Prison adds
    shockwave.MODULE,
    ranged.MODULE,
    lance.MODULE,
    scenarios.MODULE,
    telepath.MODULE,
)

rulebook.register("prison", rulebook.BASE_SET + PRISON_MODULES)
