"""Prison test positions: Prison's characters, objects, cards and rule set on the synthetic rooms of
tests/engine/builders.py, with arrow slits added to the W rooms (rule tests may use synthetic rooms, RUL-042).

The W rooms (A3 = W1, B3 = W2 at orientation 0, ranks 11-15) are the synthetic base W rooms (walls b13|c13 and
c13|c14, portcullises c13|d13 and c13|c12, outer wall under a11) plus two arrow slits, in tile coordinates
r2c4|r2c5 and r4c4|r5c4: on the board of room A3, the slits d14|e14 (a vertical line between files d and e)
and d12|d11 (a horizontal line between ranks 11 and 12).
The Q rooms (A4 = Q1, B4 = Q2, ranks 16-20) get a cell: r5c1 (a16, f16) walled north, south and west, its east side
an arrow slit (a16|b16, f16|g16): a figure there cannot move or be reached in melee, and sees east only.
"""

from __future__ import annotations

import copy
import json
from importlib import resources

from dungeon_twister.engine import parse_position
from dungeon_twister.engine.boardgame import catalogue

from ..builders import _synthetic, position_text

SLITS = ["r2c4-r2c5", "r4c4-r5c4"]


def _synthetic_prison() -> dict:
    prison = json.loads(resources.files("dungeon_twister.engine.prison.data").joinpath("prison.json").read_text())
    raw = copy.deepcopy(_synthetic())
    raw["set"] = "synthetic_prison"
    for key in ("characters", "objects", "action_cards", "combat_cards", "jump_cards", "rules", "flags"):
        raw[key] = copy.deepcopy(prison[key])
    for tile in ("W1", "W2"):
        raw["rooms"][tile]["arrow_slits"] = list(SLITS)
    for tile in ("Q1", "Q2"):
        raw["rooms"][tile].update(internal_walls=["r4c1-r5c1"], outer_walls=["r5c1:S", "r5c1:W"],
                                  arrow_slits=["r5c1-r5c2"])
    return raw


def _synthetic_mixed() -> dict:
    """Base and Prison characters and objects together on the same rooms (a Wall-Walker beside arrow slits)."""
    raw = _synthetic_prison()
    base = _synthetic()
    raw["set"] = "synthetic_mixed"
    mixed = json.loads(resources.files("dungeon_twister.engine.prison.data").joinpath("mixed.json").read_text())
    raw["flags"] = copy.deepcopy(mixed["flags"])  # the mixed set's flags: the base set's rule where they differ
    raw["characters"] = {**base["characters"], **raw["characters"]}
    raw["objects"] = {**base["objects"], **raw["objects"]}
    return raw


catalogue.register("synthetic_prison", _synthetic_prison())
catalogue.register("synthetic_mixed", _synthetic_mixed())


def prison_position(tokens: str = "-", **kwargs):
    """A Prison GameState on the synthetic rooms: `prison_position("bNG@d14 yMK@g4", ap=3)`."""
    kwargs.setdefault("set_name", "synthetic_prison")
    return parse_position(position_text(tokens, **kwargs))


def mixed_position(tokens: str = "-", **kwargs):
    """Base and Prison characters on the synthetic rooms with slits, under Prison's rule set."""
    kwargs.setdefault("set_name", "synthetic_mixed")
    return parse_position(position_text(tokens, **kwargs))


def base_position(tokens: str = "-", **kwargs):
    """The same rooms with the base set's rules (for a [DIFF] rule: the same situation under each set's rule)."""
    return parse_position(position_text(tokens, **kwargs))
