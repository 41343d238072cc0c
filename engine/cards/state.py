"""The card game's state: frozen (copy-on-write) records; `apply` builds a new state, never mutates one."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from operator import attrgetter

from .catalogue import load
from .maze import Maze, maze

SEATS = ("B", "Y")


def opponent(seat: str) -> str:
    return "Y" if seat == "B" else "B"


_FIELD_NAMES: dict[type, tuple] = {}


def replaced(record, **changes):
    """`dataclasses.replace(record, **changes)` for the card game's frozen records, faster (the move search's
    exchanges make records often): the constructor called with every field positionally, the fields read at once
    (`attrgetter`, a fifth off the field-by-field reading it had). TypeError for a name that is not a field, as `replace` raises, and for a CardState, which
    `CardState.but` copies (with a cache of its own)."""
    cls = type(record)
    known = _FIELD_NAMES.get(cls)
    if known is None:
        if cls is CardState:
            raise TypeError("a CardState is copied by CardState.but")
        names = tuple(f.name for f in fields(cls))
        read = attrgetter(*names) if len(names) > 1 else (lambda r, name=names[0]: (getattr(r, name),))
        known = _FIELD_NAMES[cls] = (read, {name: i for i, name in enumerate(names)})
    read, index = known
    values = list(read(record))
    for name, value in changes.items():
        i = index.get(name)
        if i is None:
            raise TypeError(f"{cls.__name__} has no field {sorted(set(changes) - set(index))[0]!r}")
        values[i] = value
    return cls(*values)


@dataclass(frozen=True, slots=True)
class CardOptions:
    """A tutorial (`tutorial` 1: movement, CG-TUT1; 2: melee, CG-TUT2; 3: ranged, CG-TUT3), or a full game of a
    scenario card (`scenario` "standard", CG-SCEN-04, with `tutorial` None) whose teams are selected by `teams`:
    "mutual" (equal forces), "full" (full frontal: secret forces) or "draft" (CG-SEL)."""

    tutorial: int | None = 1
    scenario: str | None = None
    teams: str | None = None
    handicap: tuple | None = None
    """CG-HCAP: (the stronger seat, how many characters he removes, the combat card values he leaves out)."""
    secret_objects: bool = False
    """CG-OPT-03: what a character carries shows to its own player only (docs/rulings.md DT-222)."""

    @property
    def setup(self) -> dict:
        """The tutorial's or the scenario card's setup (engine/cards/data/cards.json)."""
        cat = load()
        if self.scenario is not None:
            return cat.scenarios[self.scenario]
        return cat.tutorials[str(self.tutorial)]

    @property
    def target_vp(self) -> int:
        """The VP that win this game (CG-TUT1..3, CG-SCEN-03: the tutorial's or the scenario's target)."""
        return self.setup["target_vp"]


@dataclass(frozen=True, slots=True)
class Selection:
    """A scenario's team selection under way (CG-SEL), before the setup of the tutorials (CG-SCEN-02).

    `first` shows or takes first in the characters stage, the other in the objects stage; `count` picks were
    made in the current `stage`; `teams` and `kits` are (Blue's, Yellow's) character and object codes so far;
    `out` (draft) the codes each may no longer take, the opponent having taken his matching card."""

    mode: str
    stage: str
    first: str
    count: int = 0
    teams: tuple = ((), ())
    kits: tuple = ((), ())
    out: tuple = ((), ())

    @property
    def picker(self) -> str | None:
        """Who picks now (mutual and draft); None in a full frontal selection (both at once, in secret)."""
        if self.mode == "full":
            return None
        starter = self.first if self.stage == "characters" else opponent(self.first)
        return starter if self.count % 2 == 0 else opponent(starter)


@dataclass(frozen=True, slots=True)
class Room:
    card: str
    turns: int  # quarter turns clockwise from the card's own frame; hidden while face down (CG-REVEAL-05)
    revealed: bool = False


@dataclass(frozen=True, slots=True)
class Figure:
    """A character card. where: "hand" (not placed yet), "start" (at = column, facing = zone), "maze" (at = zone),
    "seeded" (at = slot, face down beside a room), "exited"."""

    id: str
    seat: str
    code: str
    where: str
    at: object = None
    facing: tuple | None = None
    wounded: bool = False
    carries: tuple = ()  # ids of the objects and wounded friends it carries: one at most, two for the Paladin
    # (CG-GOLD-03, CG-CHAR-PALADIN-01), sorted
    pin: str | None = None  # CG-MOVE-04: the global side it entered its zone by, this turn

    @property
    def loc(self):
        return (self.seat, self.at) if self.where == "start" else self.at


@dataclass(frozen=True, slots=True)
class Item:
    """An object card. where: "hand", "seeded" (at = slot), "floor" (at = zone, or start position
    (seat, column): DT-206), "carried" (at = figure id), "gone"."""

    id: str
    seat: str
    code: str
    where: str
    at: object = None


@dataclass(frozen=True, slots=True)
class Player:
    ap: int = 0  # the action wheel (CG-TURN-02)
    jumps: int = 3
    vp: int = 0
    cards: tuple = ()  # combat cards in hand (CG-COMP-05), none in tutorial 1


@dataclass(frozen=True, slots=True)
class Placement:
    """Cards of a just-revealed room still to place (CG-REVEAL-06): `queue` in placing order; `placers[i]` places
    `queue[i]`."""

    slot: int
    queue: tuple
    placers: tuple


@dataclass(frozen=True, slots=True)
class Combat:
    """A combat waiting for its cards (CG-COMBAT-02): `sides` = ((seat, figure ids), ...) attacker first;
    `played` = ((seat, value), ...), secret until both are in; `ranged` = ((figure id, ranged value), ...) of the
    shooters of a ranged combat (CG-RANGED-04), who fight with that value and are never wounded (CG-RANGED-03)."""

    number: int
    zone: tuple
    target: str
    sides: tuple
    played: tuple = ()
    ranged: tuple = ()
    lancer: str | None = None  # a Telescopic Lance's carrier attacking from the next zone (CG-OBJ-LANCE-01/02)
    first: str | None = None  # the side that lays its card first, face up: the other has a Weapon Master (CG-CHAR-WMASTER)
    naming: str | None = None  # the Telepath's seat while it is to name a card (CG-CHAR-TELEPATH-01)
    named: int | None = None  # the value it named (0: nothing named)
    namer: str | None = None  # the seat whose Telepath named it
    announcing: str | None = None  # the Berserker's seat while it announces 1 or 2 cards (CG-CHAR-BERSERK-01)
    two: str | None = None  # the seat that announced 2 cards
    second: int | None = None  # its second card, once laid


@dataclass(frozen=True, slots=True)
class Outcome:
    winner: str | None
    vp: tuple
    reason: str


@dataclass(frozen=True)
class CardState:
    options: CardOptions
    length: int  # rows of rooms
    target_vp: int
    rooms: tuple  # Room per slot, slot = row * 2 + column, row 0 at Blue's end
    figures: tuple  # Figure, sorted by id
    items: tuple  # Item, sorted by id
    opened: frozenset  # opened portcullises (card, cx, cy, side)
    players: tuple  # Player for B, Y
    phase: str  # "select" (a scenario's team selection), "handicap" (CG-HCAP-03), "hide", "seed", "face", "main", "place", "over"
    turn: int = 0
    active: str | None = None
    first: str = "B"  # drawn at setup, public once the teams are revealed (CG-TUT1-05)
    seeder: str = "B"  # who seeds next (CG-TUT1-04)
    secret: tuple = ()  # (seat, choice) of a pending simultaneous choice
    placement: Placement | None = None
    outcome: Outcome | None = None
    combat_on: bool = False  # melee combat exists in this game (not in tutorial 1, CG-TUT1-06)
    combat: Combat | None = None
    combats: int = 0  # combats started so far (names the commit-reveal purpose)
    wounded_now: tuple = ()  # characters wounded during the current turn (CG-COMBAT-06)
    broken: frozenset = frozenset()  # broken portcullises (card, cx, cy, side), CG-CHAR-WARRIOR-01
    walls_broken: tuple = ()  # (room card, Golem) of each broken-walls card laid (CG-CHAR-GOLEM-01)
    used_now: tuple = ()  # "power:figure" of once-a-turn powers used this turn: "crossbow:bCB" (CG-CHAR-CROSSBOW-01,
    # RUL-113), "seasoned_fighter:bSA" (CG-CHAR-SAMURAI-01), "regeneration:bTR" (CG-CHAR-TROLL-02)
    healed_now: tuple = ()  # characters healed this turn: they do nothing else in it (CG-CHAR-CLERIC-01)
    selection: Selection | None = None  # a scenario's team selection (CG-SEL), while phase is "select"
    _cache: dict = field(default_factory=dict, compare=False, repr=False, hash=False)

    # --- lookups -------------------------------------------------------------------------------------------
    def _places(self, kind: str) -> dict[str, int]:
        """Card id -> its index in `figures` or `items` (`kind`), made once per state and handed on by
        `with_figure` and `with_item`, which keep the order (the move search's exchanges make states often)."""
        idx = self._cache.get(kind)
        if idx is None:
            idx = self._cache[kind] = {c.id: i for i, c in enumerate(getattr(self, kind))}
        return idx

    def fig(self, fid: str) -> Figure:
        return self.figures[self._places("figures")[fid]]

    def item(self, iid: str) -> Item:
        return self.items[self._places("items")[iid]]

    def has_fig(self, fid: str) -> bool:
        return fid in self._places("figures")

    def has_item(self, iid: str) -> bool:
        return iid in self._places("items")

    def player(self, seat: str) -> Player:
        return self.players[SEATS.index(seat)]

    @property
    def maze(self) -> Maze:
        got = self._cache.get("maze")
        if got is None:
            got = maze(self.rooms, self.length, self.opened, self.broken, frozenset(c for c, _ in self.walls_broken))
            self._cache["maze"] = got
        return got

    @property
    def to_act(self) -> tuple:
        if self.phase == "select":
            picker = self.selection.picker
            if picker is not None:
                return (picker,)
            done = {s for s, _ in self.secret}
            return tuple(s for s in SEATS if s not in done)
        if self.phase == "handicap":
            return (self.options.handicap[0],)
        if self.phase in ("hide", "face"):
            done = {s for s, _ in self.secret}
            return tuple(s for s in SEATS if s not in done)
        if self.phase == "seed":
            return (self.seeder,)
        if self.phase == "main":
            return (self.active,)
        if self.phase == "place":
            return (self.placement.placers[0],)
        if self.phase == "combat":
            if self.combat.announcing is not None:
                return (self.combat.announcing,)  # CG-CHAR-ORDER-01: the Berserker's announcement comes first
            if self.combat.naming is not None:
                return (self.combat.naming,)  # CG-CHAR-ORDER-01: the naming comes before the cards
            done = {s for s, _ in self.combat.played}
            if self.combat.first is not None and self.combat.first not in done:
                return (self.combat.first,)  # CG-CHAR-WMASTER-01: the Weapon Master's side sees it first
            return tuple(s for s in SEATS if s not in done)
        return ()

    def at(self, loc) -> list:
        """Figures at a location (zone or start position), carried ones excluded (they are items here)."""
        key = ("at", loc)
        got = self._cache.get(key)
        if got is None:
            got = [f for f in self.figures if f.where in ("maze", "start") and f.loc == loc]
            self._cache[key] = got
        return got

    def floor(self, zone) -> list:
        return [i for i in self.items if i.where == "floor" and i.at == zone]

    def vp(self, seat: str) -> int:
        return self.player(seat).vp

    # --- copy on write -------------------------------------------------------------------------------------
    def but(self, **changes) -> "CardState":
        """A copy with `changes` (field=value) and an empty cache. What `dataclasses.replace` gives, without
        running `__init__` again field by field (a tenth of its time: the move search copies states often)."""
        if not _FIELDS.issuperset(changes):
            raise TypeError(f"CardState has no field {sorted(set(changes) - _FIELDS)[0]!r}")
        new = object.__new__(self.__class__)
        values = new.__dict__
        values.update(self.__dict__)
        values.update(changes)
        values["_cache"] = {}
        return new

    def with_figure(self, f: Figure) -> "CardState":
        return self._with("figures", f)

    def with_item(self, i: Item) -> "CardState":
        return self._with("items", i)

    def _with(self, kind: str, card) -> "CardState":
        """A copy with `card` in place of the card of its id in `figures` or `items` (`kind`): the same order, so
        the copy keeps the index of the cards' places."""
        places = self._places(kind)
        index = places.get(card.id)
        if index is None:  # no such card: nothing replaced
            return self.but()
        cards = list(getattr(self, kind))
        cards[index] = card
        new = self.but(**{kind: tuple(cards)})
        new._cache[kind] = places
        return new

    def with_cards(self, figures: dict, items: dict) -> "CardState":
        """A copy with the figures and items of `figures` and `items` ({id: card}) in place of those of their ids:
        `with_figure` and `with_item` of each, made as one copy (a move's exchange replaces up to four cards)."""
        changes = {}
        for kind, cards in (("figures", figures), ("items", items)):
            if cards:
                places = self._places(kind)
                listed = list(getattr(self, kind))
                for cid, card in cards.items():
                    if cid in places:
                        listed[places[cid]] = card
                changes[kind] = tuple(listed)
        new = self.but(**changes)
        for kind in ("figures", "items"):
            new._cache[kind] = self._places(kind)
        return new

    def with_player(self, seat: str, p: Player) -> "CardState":
        ps = list(self.players)
        ps[SEATS.index(seat)] = p
        return self.but(players=tuple(ps))


_FIELDS = frozenset(f.name for f in fields(CardState)) - {"_cache"}
