"""The card game's components as data (CG-COMP): room cards, characters, objects, cards; loaded from data/cards.json."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from types import MappingProxyType

ICONS = ("T", "S", "C", "R")  # triangle, square, circle, rotation zone (CG-ZONE-01)
FEATURES = ("wall", "slit", "pit", "portcullis")  # CG-ZONE-03
DIRS = ("N", "E", "S", "W")
STEP = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}  # in the card's frame: y grows downwards


@dataclass(frozen=True, slots=True)
class RoomCard:
    """A room card in its own frame (unrotated, top edge north). `icons[(x, y)]` is the icon at that position
    (y=0 top row); `borders[(x, y, side)]` the features printed on that side of that position's zone. An inside
    border is stored under both of its zones; `inner[(x, y, side)]` says whether it is an inside border."""

    id: str
    pair: str
    arrow: str  # "cw" or "ccw": the rotation arrow (CG-ROT-01)
    icons: MappingProxyType
    borders: MappingProxyType

    def position(self, icon: str) -> tuple[int, int]:
        return next(p for p, i in self.icons.items() if i == icon)


@dataclass(frozen=True, slots=True)
class Character:
    code: str
    name: str
    move: int
    combat: int
    abilities: frozenset
    ranged: int = 0
    exit_vp: int = 1


@dataclass(frozen=True, slots=True)
class ObjectKind:
    code: str
    name: str
    abilities: frozenset
    use: str
    magic: bool = False
    ranged: int = 0


@dataclass(frozen=True, slots=True)
class Catalogue:
    rooms: MappingProxyType
    characters: MappingProxyType
    objects: MappingProxyType
    object_deck: tuple
    combat_cards: tuple
    jump_cards: int
    tutorials: MappingProxyType
    scenarios: MappingProxyType
    """CG-SCEN-04, RUL-112: the scenario cards' setups (only "standard" is known)."""
    team_modes: tuple
    """CG-SEL: mutual (equal forces), full (full frontal: secret forces), draft."""

    def copies(self, code: str) -> int:
        """How many cards of an object kind each player's deck holds (CG-COMP-02, RUL-100)."""
        return dict(self.object_deck).get(code, 0)

    def twin(self, card_id: str) -> str:
        pair = self.rooms[card_id].pair
        return next(r for r in self.rooms if r != card_id and self.rooms[r].pair == pair)

    def pair_cards(self, pair: str) -> tuple[str, ...]:
        return tuple(r for r in self.rooms if self.rooms[r].pair == pair)


def _room(d: dict) -> RoomCard:
    icons = {}
    for y, row in enumerate(d["grid"]):
        for x, icon in enumerate(row):
            icons[(x, y)] = icon
    if sorted(icons.values()) != sorted(ICONS) or len(icons) != 4:
        raise ValueError(f"room {d['id']}: the grid must hold each icon once")
    borders: dict = {}
    for icon, side, feature in d["borders"]:
        if feature not in FEATURES or side not in DIRS:
            raise ValueError(f"room {d['id']}: bad border {icon} {side} {feature}")
        x, y = next(p for p, i in icons.items() if i == icon)
        dx, dy = STEP[side]
        keys = [(x, y, side)]
        if 0 <= x + dx < 2 and 0 <= y + dy < 2:
            keys.append((x + dx, y + dy, DIRS[(DIRS.index(side) + 2) % 4]))
        for k in keys:
            if k in borders:
                raise ValueError(f"room {d['id']}: border {icon} {side} given twice")
            borders[k] = feature
    return RoomCard(d["id"], d["pair"], d["arrow"], MappingProxyType(icons), MappingProxyType(borders))


@lru_cache(maxsize=1)
def load() -> Catalogue:
    raw = json.loads(resources.files(__package__).joinpath("data/cards.json").read_text(encoding="utf-8"))
    rooms = {r["id"]: _room(r) for r in raw["rooms"]}
    chars = {c["code"]: Character(c["code"], c["name"], c["move"], c["combat"], frozenset(c["abilities"]),
                                  c.get("ranged", 0), c.get("exit_vp", 1)) for c in raw["characters"]}
    objs = {o["code"]: ObjectKind(o["code"], o["name"], frozenset(o["abilities"]), o["use"], o.get("magic", False),
                                  o.get("ranged", 0)) for o in raw["objects"]}
    return Catalogue(MappingProxyType(rooms), MappingProxyType(chars), MappingProxyType(objs),
                     tuple((k, n) for k, n in raw["object_deck"]), tuple(raw["combat_cards"]), raw["jump_cards"],
                     MappingProxyType(raw["tutorials"]), MappingProxyType(raw.get("scenarios", {})),
                     tuple(raw.get("team_modes", ())))
