"""Paladins & Dragons test positions: the synthetic rooms of tests/engine/builders.py with terrain added, the base
set's and Paladins & Dragons' characters and objects together, under the Paladins & Dragons rule set (rule tests may
use synthetic rooms, RUL-042).

Terrain, in tile coordinates and, at the default layout (orientation 0, a tile's row 1 is the top rank of its room),
on the board:
  O1/O2 (A1 ranks 1-5, B1): a crevasse r3c2 (b3, g3), a 3D obstacle r3c4 (d3, i3), a fountain r1c4 (d5, i5), and
  an outer wall on r1c1's north side which P1/P2 (A2 ranks 6-10, B2) repeat on their r5c1's south side: a double wall
  a5|a6 (and f5|f6), for the Golem (PD-CHAR-GOLEM-05).
  Q1/Q2 (A4 ranks 16-20, B4): Rockfall r3c2 (b18, g18), the Pentacle r2c4 r2c5 r3c4 r3c5 (d19 e19 d18 e18, and
  i19 j19 i18 j18), fog r4c2 and r5c2 (b17 b16, g17 g16).
"""

from __future__ import annotations

import copy
import json
from importlib import resources

from dungeon_twister.engine import parse_position
from dungeon_twister.engine.boardgame import catalogue

from ..builders import _synthetic, position_text

O_TERRAIN = {"crevasses": ["r3c2"], "obstacles": ["r3c4"], "fountains": ["r1c4"], "outer_walls": ["r1c1:N"]}
Q_TERRAIN = {"rockfall": ["r3c2"], "pentacle": ["r2c4", "r2c5", "r3c4", "r3c5"], "fog": ["r4c2", "r5c2"]}


def _synthetic_paladins() -> dict:
    paladins = json.loads(resources.files("dungeon_twister.engine.paladins.data").joinpath("paladins.json")
                          .read_text())
    raw = copy.deepcopy(_synthetic())
    raw["set"] = "synthetic_paladins"
    raw["rules"] = paladins["rules"]
    raw["flags"] = copy.deepcopy(paladins["flags"])
    raw["characters"] = {**raw["characters"], **copy.deepcopy(paladins["characters"])}
    raw["objects"] = {**raw["objects"], **copy.deepcopy(paladins["objects"])}
    for tile in ("O1", "O2"):
        raw["rooms"][tile].update(copy.deepcopy(O_TERRAIN))
    for tile in ("Q1", "Q2"):
        raw["rooms"][tile].update(copy.deepcopy(Q_TERRAIN))
    for tile in ("P1", "P2"):
        raw["rooms"][tile]["outer_walls"] = ["r5c1:S"]
    return raw


catalogue.register("synthetic_paladins", _synthetic_paladins())


def pd_position(tokens: str = "-", **kwargs):
    """A Paladins & Dragons GameState on the synthetic rooms with terrain: `pd_position("bWZ@a3 yGB@h4")`."""
    kwargs.setdefault("set_name", "synthetic_paladins")
    return parse_position(position_text(tokens, **kwargs))


def _synthetic_all() -> dict:
    """All three sets' characters and objects on the same rooms with terrain, under the rule set of the mixes
    (Prison's and Paladins & Dragons' modules together): for the rules that meet only in a mixed game."""
    raw = _synthetic_paladins()
    prison = json.loads(resources.files("dungeon_twister.engine.prison.data").joinpath("prison.json").read_text())
    raw["set"] = "synthetic_all"
    raw["rules"] = "prison_paladins"
    raw["characters"] = {**copy.deepcopy(prison["characters"]), **raw["characters"]}
    raw["objects"] = {**copy.deepcopy(prison["objects"]), **raw["objects"]}
    return raw


catalogue.register("synthetic_all", _synthetic_all())


def all_position(tokens: str = "-", **kwargs):
    """A mixed position of all three sets on the synthetic rooms with terrain."""
    kwargs.setdefault("set_name", "synthetic_all")
    return parse_position(position_text(tokens, **kwargs))


def _synthetic_all_slits() -> dict:
    """The mix of all three sets on the synthetic rooms with terrain, Prison's two arrow slits added to the W rooms
    (tests/engine/prison/builders.py: on the board of room A3, d14|e14 and d12|d11): where Paladins & Dragons'
    characters meet arrow slits."""
    from ..prison.builders import SLITS

    raw = _synthetic_all()
    raw["set"] = "synthetic_all_slits"
    for tile in ("W1", "W2"):
        raw["rooms"][tile]["arrow_slits"] = list(SLITS)
    return raw


catalogue.register("synthetic_all_slits", _synthetic_all_slits())


def slit_position(tokens: str = "-", **kwargs):
    """A mixed position of all three sets with arrow slits in the W rooms (d14|e14, d12|d11)."""
    kwargs.setdefault("set_name", "synthetic_all_slits")
    return parse_position(position_text(tokens, **kwargs))
