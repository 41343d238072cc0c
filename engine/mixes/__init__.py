"""Mixed games of the board-game sets (PD-TEAM-02): base set + Paladins & Dragons, Prison + Paladins & Dragons, and
all three (the base set + Prison mix is Prison's own `mixed`). Each mix is data (data/<name>.json: the sets it
includes, the base set's flags where the sets differ, how many characters, objects and room pairs a game plays) and a
rule set made of every included set's modules. Teams are drawn from the seed (DT-109) or picked in turn
(PD-TEAM-MUTUAL, `Options.teams` "mutual", engine/boardgame/draft.py).
"""

from ..boardgame import catalogue, rulebook
from ..paladins import PALADINS_MODULES
from ..prison import PRISON_MODULES

catalogue.register_data("dungeon_twister.engine.mixes.data")

MIXES = ("mixed", "base_paladins", "prison_paladins", "all_sets")  # every mixed set, Prison's included

rulebook.register("prison_paladins", rulebook.BASE_SET + PRISON_MODULES + PALADINS_MODULES)
