"""Dungeon Twister: Paladins & Dragons (PD- rules): its data (rooms 41-44, characters, objects) and its rule modules.

Importing this package registers its data package with the catalogue loader and its rule set ("paladins") with the
rulebook: the board-game family's modules plus what Paladins & Dragons adds (docs/architecture.md, "Adding a set").
The rooms are this project's own designs (docs/paladins-rooms.md).
"""

from ..boardgame import catalogue, rulebook
from . import charm, dragon, golem, illusionist, pickpocket, ring, terrain

catalogue.register_data("dungeon_twister.engine.paladins.data")

PALADINS_MODULES: tuple[rulebook.RuleModule, ...] = (
    terrain.MODULE,
    dragon.MODULE,
    pickpocket.MODULE,
    ring.MODULE,
    golem.MODULE,
    illusionist.MODULE,
    charm.MODULE,
)  # the modules of the mechanisms Paladins & Dragons adds

rulebook.register("paladins", rulebook.BASE_SET + PALADINS_MODULES)
