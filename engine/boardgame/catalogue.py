"""Catalogues of rooms, characters, objects and cards, loaded from data files (not code branches)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from importlib import resources
from sys import intern


@dataclass(frozen=True)
class CharacterKind:
    code: str
    name: str
    move: int
    combat: int
    abilities: frozenset[str]
    exit_vp: int = 1
    rules: dict = field(default_factory=dict)  # ability -> the rule ID this character's refusals cite for it
    elimination_vp: int = 1  # what its elimination scores (BG-VP-01; the Red Dragon's Prestige: 2, PD-CHAR-DRAGON-04)

    @cached_property
    def gait(self) -> tuple[int, bool, bool, bool, bool, bool, bool]:
        """How it walks, read by every move search of it (`movement.Walker`): its move value, then whether it has
        acrobatics, levitate, contortionist, agility, incorporeal and no_carry."""
        a = self.abilities
        return (self.move, "acrobatics" in a, "levitate" in a, "contortionist" in a, "agility" in a,
                "incorporeal" in a, "no_carry" in a)


@dataclass(frozen=True)
class ObjectKind:
    code: str
    name: str
    attack_bonus: int = 0
    defend_bonus: int = 0
    rope: bool = False
    use: str | None = None  # "fireball", "drink"
    magic: bool = False
    extra_ap: int = 0
    control_actions: int = 0  # the actions of an enemy figure a magic user charms with it (PD-OBJ-CHARM-02: 3)
    exit_vp: int = 0
    abilities: frozenset[str] = frozenset()  # what carrying it lets a figure do: "key", "bow", "lance", "shield"
    ranged: int = 0  # a ranged weapon's combat value (the Bow: 1, PR-OBJ-BOW-02)
    common: bool = False  # a common object (the Rope, the Key): a mix holds one copy per set that has it
    rules: dict = field(default_factory=dict)  # ability -> the rule ID a refusal of its use cites (the Key's)


@dataclass(frozen=True)
class RoomTile:
    """A room in its own coordinates: (row, col) 0-based, row 0 the top of the printed tile."""

    id: str
    number: int
    clockwise: bool
    gear: tuple[int, int]
    pits: frozenset[tuple[int, int]]
    walls: tuple[tuple[tuple[int, int], tuple[int, int]], ...]
    outer_walls: tuple[tuple[tuple[int, int], str], ...]
    portcullises: tuple[tuple[tuple[int, int], tuple[int, int]], ...]
    arrow_slits: tuple[tuple[tuple[int, int], tuple[int, int]], ...] = ()  # PR-SLIT-01: edges, turning with the room
    # square terrain beyond pits (Paladins & Dragons, docs/paladins-rooms.md): kind -> its squares, for the kinds
    # of TERRAIN_KINDS the room has
    terrain: dict[str, frozenset[tuple[int, int]]] = field(default_factory=dict)


# The square terrain a room's data may list (docs/paladins-rooms.md): fog (PD-TERR-FOG), Rockfall
# (PD-TERR-ROCKFALL), crevasses (PD-TERR-CREVASSE), 3D obstacles (PD-GLOS-03), fountains (PD-TERR-FOUNTAIN, also
# 3D obstacles) and the Pentacle's squares (PD-TERR-PENTACLE).
TERRAIN_KINDS = ("fog", "rockfall", "crevasses", "obstacles", "fountains", "pentacle")


@dataclass(frozen=True)
class SetCatalogue:
    name: str
    rooms: dict[str, RoomTile]
    characters: dict[str, CharacterKind]
    objects: dict[str, ObjectKind]
    action_cards: tuple[int, ...]
    combat_cards: tuple[int, ...]
    jump_cards: int
    board: dict
    beginner: dict
    rules: str = "base"  # the rule set (engine/boardgame/rulebook.py)
    # Where sets differ ([DIFF] in the rules reference), the set's data says which rule holds (docs/rulings.md,
    # ruleset flags): e.g. "reveal_from_start_zone": "both" (BG-REVEAL-03) or "nearest" (PR-CORE-05).
    flags: dict = field(default_factory=dict)
    scenarios: dict = field(default_factory=dict)  # name -> the scenario's data (PR-SCEN)
    # a mixed set (DT-109): how many characters, objects and room pairs a game draws from the union
    mix: dict | None = None
    # a mixed set's common objects held in several copies per colour (PD-TEAM-COMMON-01): code -> copies (2 or more)
    copies: dict = field(default_factory=dict)

    def token_ids(self, seat: str, code: str) -> list[str]:
        """The ids of a colour's tokens of a code: `bRP`, and `bRP2`, `bRP3`... for further copies. Interned: every
        game of the process holds the same str objects (~1 KB a game in play otherwise)."""
        first = intern(seat.lower() + code)
        return [first] + [intern(f"{first}{n}") for n in range(2, self.copies.get(code, 1) + 1)]

    @cached_property
    def strong(self) -> frozenset[str]:
        """The codes of the characters who carry two things (ability "strength": the Paladin, PD-CHAR-PALADIN-01)."""
        return frozenset(code for code, kind in self.characters.items() if "strength" in kind.abilities)

    @cached_property
    def giants(self) -> frozenset[str]:
        """The codes of the characters a figure of combat 0 or 1 passes between the legs of (ability "giant": the
        Colossus, PR-CHAR-COLOSSUS-03); none in most sets, so a walker need not look for them."""
        return frozenset(code for code, kind in self.characters.items() if "giant" in kind.abilities)

    def flag(self, name: str, default=None):
        return self.flags.get(name, default)

    def kind_of(self, code: str) -> CharacterKind | ObjectKind:
        return self.characters.get(code) or self.objects[code]

    def twin(self, tile_id: str) -> str:
        number = self.rooms[tile_id].number
        return next(t for t, room in self.rooms.items() if room.number == number and t != tile_id)


def _square(text: str) -> tuple[int, int]:
    return int(text[1]) - 1, int(text[3]) - 1


def _pair(text: str):
    a, b = text.split("-")
    return _square(a), _square(b)


def _room(tile_id: str, raw: dict) -> RoomTile:
    return RoomTile(
        id=tile_id,
        number=raw["number"],
        clockwise=raw["arrow"] == "clockwise",
        gear=_square(raw["rotation"]),
        pits=frozenset(_square(s) for s in raw["pits"]),
        walls=tuple(_pair(p) for p in raw["internal_walls"]),
        outer_walls=tuple((_square(s.split(":")[0]), s.split(":")[1]) for s in raw["outer_walls"]),
        portcullises=tuple(_pair(p) for p in raw["portcullises"]),
        arrow_slits=tuple(_pair(p) for p in raw.get("arrow_slits", ())),
        terrain={kind: frozenset(_square(s) for s in raw[kind]) for kind in TERRAIN_KINDS if raw.get(kind)},
    )


_REGISTERED: dict[str, dict] = {}
_DATA_PACKAGES: list[str] = ["dungeon_twister.engine.boardgame.data"]  # where <set>.json files are looked for


def known_codes() -> frozenset[str]:
    """Every character and object code of every set whose data is known (notation accepts any; `apply` checks
    that the game's set has it)."""
    return _known_codes(tuple(_DATA_PACKAGES), tuple(_REGISTERED))


@lru_cache(maxsize=8)
def _known_codes(packages: tuple, registered: tuple) -> frozenset[str]:
    codes: set[str] = set()
    for raw in _REGISTERED.values():
        codes.update(raw["characters"], raw["objects"])
    for package in packages:
        for entry in resources.files(package).iterdir():
            if entry.name.endswith(".json"):
                raw = json.loads(entry.read_text())
                codes.update(raw.get("characters", {}), raw.get("objects", {}))
    return frozenset(codes)


def register_data(package: str) -> None:
    """A set package names the package holding its data files (engine/prison/__init__.py)."""
    if package not in _DATA_PACKAGES:
        _DATA_PACKAGES.append(package)
        load.cache_clear()


def register(set_name: str, raw: dict) -> None:
    """Make a catalogue available by name without a data file (rule tests use synthetic rooms this way)."""
    _REGISTERED[set_name] = raw
    load.cache_clear()


@lru_cache(maxsize=None)
def load(set_name: str = "base_set") -> SetCatalogue:
    """The catalogue of a set: a registered one, or <set_name>.json in a set's data package."""
    raw = _REGISTERED.get(set_name)
    if raw is None:
        for package in _DATA_PACKAGES:
            path = resources.files(package).joinpath(f"{set_name}.json")
            if path.is_file():
                raw = json.loads(path.read_text())
                break
        else:
            raise KeyError(f"unknown set {set_name!r}")
    if "include" in raw:
        raw = _merged(raw)
    characters = {
        code: CharacterKind(code, c["name"], c["move"], c["combat"], frozenset(c["abilities"]), c.get("exit_vp", 1),
                            dict(c.get("rules", {})), c.get("elimination_vp", 1))
        for code, c in raw["characters"].items()
    }
    objects = {code: ObjectKind(code=code, **{**o, "abilities": frozenset(o.get("abilities", ())),
                                              "rules": dict(o.get("rules", {}))})
               for code, o in raw["objects"].items()}
    return SetCatalogue(
        name=raw["set"],
        rooms={tid: _room(tid, r) for tid, r in raw["rooms"].items()},
        characters=characters,
        objects=objects,
        action_cards=tuple(raw["action_cards"]),
        combat_cards=tuple(raw["combat_cards"]),
        jump_cards=raw["jump_cards"],
        board=raw["board"],
        beginner=raw["beginner"],
        rules=raw.get("rules", "base"),
        flags=dict(raw.get("flags", {})),
        scenarios=dict(raw.get("setup", {})),
        mix=raw.get("mix"),
        copies=dict(raw.get("copies", {})),
    )


def _raw(set_name: str) -> dict:
    for package in _DATA_PACKAGES:
        path = resources.files(package).joinpath(f"{set_name}.json")
        if path.is_file():
            return json.loads(path.read_text())
    raise KeyError(f"unknown set {set_name!r}")


PAIR_FEATURES = ("pits", "portcullises", "arrow_slits", *TERRAIN_KINDS)
"""What `room_pairs` says a room pair has, in this order: its tiles' pits, portcullises, arrow slits (PR-SLIT-01)
and square terrain (TERRAIN_KINDS)."""


@lru_cache(maxsize=16)
def room_pairs(set_name: str) -> dict[int, tuple[str, tuple[tuple[str, int], ...]]]:
    """The room pairs of a set, by number: the set they come from (the set itself; in a mix, the included set whose
    data has them: "base_set", "prison", "paladins") and what their two tiles have, (feature, how many) in
    PAIR_FEATURES' order, the features they have only: pits, portcullises and arrow slits, square terrain by its
    squares.
    What a player choosing pairs in a team building reads beside their bare numbers (PD-TEAM-FREE-02,
    PD-TEAM-MUTUAL-01; play-test pt22 F6)."""
    raw = _REGISTERED.get(set_name) or _raw(set_name)
    origins = {}
    for name in raw.get("include", (set_name,)):
        for tile in (_raw(name) if name != set_name else raw)["rooms"].values():
            origins.setdefault(tile["number"], name)
    out = {}
    tiles = load(set_name).rooms.values()
    for number, origin in sorted(origins.items()):
        pair = [tile for tile in tiles if tile.number == number]
        has = {"pits": sum(len(t.pits) for t in pair), "portcullises": sum(len(t.portcullises) for t in pair),
               "arrow_slits": sum(len(t.arrow_slits) for t in pair)}
        has.update({kind: sum(len(t.terrain.get(kind, ())) for t in pair) for kind in TERRAIN_KINDS})
        out[number] = (origin, tuple((feature, has[feature]) for feature in PAIR_FEATURES if has[feature]))
    return out


def _merged(raw: dict) -> dict:
    """A mixed set's data: the union of its sets' rooms, characters and objects (a code both sets have names the
    same kind in both: checked), the first set's cards and board, the mixed file's own flags and rules."""
    sets = [_raw(name) for name in raw["include"]]
    merged = {**sets[0], "rooms": {}, "characters": {}, "objects": {}, "setup": {}}
    held = {}  # a common object's copies: one per set that has it (PD-TEAM-COMMON-01)
    for part in sets:
        for code, value in part["objects"].items():
            if value.get("common"):
                held[code] = held.get(code, 0) + 1
    merged["copies"] = {code: n for code, n in sorted(held.items()) if n > 1}
    for part in sets:
        for key in ("rooms", "characters", "objects"):
            for code, value in part[key].items():
                known = merged[key].get(code)
                if known is not None and key != "rooms" and {k: v for k, v in known.items() if k != "rules"} != {
                        k: v for k, v in value.items() if k != "rules"}:
                    raise ValueError(f"{code} differs between the sets of {raw['set']}")
                if known is None:
                    merged[key][code] = value
    merged.update({key: raw[key] for key in ("set", "source", "rules", "flags", "mix") if key in raw})
    merged["beginner"] = None
    return merged
