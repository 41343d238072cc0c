"""The game state: an immutable value once sealed; `apply` works on a thawed copy (copy-on-write)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from operator import attrgetter
from types import MappingProxyType

from .catalogue import SetCatalogue, load
from ..core.canon import Canon
from .geometry import Square

SEATS = ("B", "Y")
SEAT_NAMES = {"B": "Blue", "Y": "Yellow"}


def opponent(seat: str) -> str:
    return "Y" if seat == "B" else "B"


@dataclass(frozen=True)
class Handicap:
    """BG-OPT-08/09: the stronger player plays `characters` characters and removes some combat cards."""

    seat: str
    characters: int = 8
    removed_cards: tuple[int, ...] = ()


@dataclass(frozen=True)
class Options:
    target_vp: int = 5
    beginner: bool = False
    handicap: Handicap | None = None
    set_name: str = "base_set"
    scenario: str | None = None  # one of the set's scenarios (catalogue.scenarios, e.g. "prison-1"), or None
    # how a mixed game's teams and rooms are built (PD-TEAM-02): "random" (drawn from the seed, DT-109), "mutual"
    # (PD-TEAM-MUTUAL: the players pick in turn, both get every pick) or "free" (PD-TEAM-FREE: each chooses his own
    # team and two pairs in secret)
    teams: str = "random"

    @cached_property
    def catalogue(self) -> SetCatalogue:
        """The set's catalogue (`load` keeps one per set), kept on the options after the first look: the rules ask
        for it all the time. Not a field: equality, hashing and `asdict` ignore it."""
        return load(self.set_name)


@dataclass(frozen=True, slots=True)
class Token:
    """A character or object token.

    `where`: screen (not placed yet), board, room (face down), placing (off a revealed room, to be placed),
    exited, saved (a wounded character carried out), eliminated, discarded, scored (a Treasure), unused.
    """

    id: str
    colour: str
    code: str
    is_character: bool
    where: str = "screen"
    square: Square | None = None
    room: tuple[int, int] | None = None  # face-down in this room slot
    face_down: bool = False  # a start-zone team token before the teams are revealed
    wounded: bool = False
    wounded_turn: int = -1
    order: int = 0  # placement order of face-down tokens (the stack on a room)
    scored_by: str | None = None

    @property
    def on_board(self) -> bool:
        return self.where == "board"

    @property
    def is_figure(self) -> bool:
        return self.is_character and self.where == "board" and not self.wounded and not self.face_down

    def moved(self, **changes) -> "Token":
        """This token with `changes` (`dataclasses.replace`, without its introspection: tokens move often). Each
        field is set once by its slot's own setter (`_TOKEN_SETTERS`). (What runs is `_unrolled_moved`'s, the same
        written out field by field; this one states what it does.)"""
        values = list(_get_token_fields(self))
        for name, value in changes.items():
            index = _TOKEN_INDEX.get(name)
            if index is None:
                raise TypeError(f"Token has no field {name!r}")
            values[index] = value
        token = _new(Token)
        for set_field, value in zip(_TOKEN_SETTERS, values):
            set_field(token, value)
        return token


_new, _set = object.__new__, object.__setattr__
_TOKEN_FIELDS = tuple(Token.__dataclass_fields__)
_TOKEN_INDEX = {name: i for i, name in enumerate(_TOKEN_FIELDS)}
_TOKEN_SETTERS = tuple(Token.__dict__[name].__set__ for name in _TOKEN_FIELDS)  # slots: member descriptors
_get_token_fields = attrgetter(*_TOKEN_FIELDS)


def _unrolled_moved():
    """`Token.moved` written out field by field from `_TOKEN_FIELDS` (as dataclasses writes an `__init__`): a
    keyword-only parameter a field, each field set by its slot's setter in one statement, no list of values, no
    loop and no look-up of the names changed (~2 K instructions a call less; `apply` moves a token or two an
    action). A name that is no field is refused as before."""
    names = _TOKEN_FIELDS
    lines = [f"def moved(self, *, {', '.join(f'{name}=_KEEP' for name in names)}, **unknown):",
             "    if unknown:",
             "        raise TypeError(f'Token has no field {next(iter(unknown))!r}')",
             "    token = _new(Token)"]
    lines += [f"    _set_{i}(token, self.{name} if {name} is _KEEP else {name})" for i, name in enumerate(names)]
    lines.append("    return token")
    namespace = {"_KEEP": object(), "_new": _new, "Token": Token}
    namespace.update({f"_set_{i}": setter for i, setter in enumerate(_TOKEN_SETTERS)})
    exec("\n".join(lines), namespace)  # (the source is made of the field names above: nothing from outside)
    moved = namespace["moved"]
    moved.__doc__ = Token.moved.__doc__
    moved.__qualname__ = "Token.moved"
    return moved


Token.moved = _unrolled_moved()


@dataclass(frozen=True, slots=True)
class RoomPlace:
    slot: tuple[int, int]
    tile: str
    orientation: int
    revealed: bool


def room_place(slot: tuple[int, int], tile: str, orientation: int, revealed: bool) -> RoomPlace:
    """`RoomPlace(slot, tile, orientation, revealed)`, the one object of the process for that value (at most 8,192
    kept): every game holds eight, its boards and states share them, and they were ~0.8 KB a game in play."""
    return _PLACES((slot, tile, orientation, revealed), _place)


def _place(key: tuple) -> RoomPlace:
    slot, tile, orientation, revealed = key
    return RoomPlace((slot[0], slot[1]), tile, orientation, revealed)


_PLACES = Canon(8192)


@dataclass(frozen=True, slots=True)
class Player:
    actions: tuple[int, ...]  # action cards in hand
    played: tuple[int, ...]  # played action cards, last on top
    combat: tuple[int, ...]  # combat cards in hand (sorted)
    jumps: int


@dataclass(frozen=True, slots=True)
class Combat:
    """A declared combat waiting for both secret combat cards (BG-COMBAT-02)."""

    number: int  # counts combats in the game: the commit-reveal purpose is f"combat-{number}"
    attacker: str
    target: str
    attackers: tuple[str, ...]
    defenders: tuple[str, ...]
    cards: tuple[tuple[str, int], ...] = ()  # (seat, value) chosen so far: secret until both are in
    # PR-RANGED: attacking figures fighting from a distance with a ranged weapon (the declared attacker first when
    # it shoots): they add their weapon's value and are never wounded by the result (PR-RANGED-04/05/12)
    shooters: tuple[str, ...] = ()
    # PR-OBJ-LANCE-05: the declared attacker fighting from 2 squares with a Telescopic Lance: its own combat value,
    # adjacent to nobody, never wounded; its weapon breaks if its side loses (PR-OBJ-LANCE-02)
    lancer: str | None = None
    # PR-CHAR-TELEPATH-01..04: the seat whose Telepath fights this single melee alone (None: nobody's); while
    # `naming`, that seat names a combat value (public) before the cards; `named`: the value named (None: none)
    telepath: str | None = None
    naming: bool = False
    named: int | None = None

    def card_of(self, seat: str) -> int | None:
        return dict(self.cards).get(seat)


@dataclass(frozen=True, slots=True)
class Placement:
    """Tokens of a revealed room waiting to be placed face up (BG-REVEAL-06)."""

    slot: tuple[int, int]
    revealer: str
    placer: str
    tokens: tuple[str, ...]  # still to place, in the order they came off the room
    passed: bool = False  # BG-OPT-03: the opponent's time ran out; the revealer places the rest


@dataclass(frozen=True, slots=True)
class Draft:
    """Team building in a mixed game (engine/boardgame/draft.py), with the layout the chosen rooms will get, drawn
    from the seed at setup (`deal`: 8 slot indices then 8 orientations, hidden like every face-down room's place).

    By mutual choice (mode "mutual", phase "draft", PD-TEAM-MUTUAL-01..04): the public picks made so far, each
    (stage, value) with stage "rooms" (a pair number), "characters" or "objects" (a code).
    By free choice (mode "free", phase "build", PD-TEAM-FREE-01..03): each seat's secret `Build` so far, as
    (seat, pairs, characters, objects); `deal` then goes on with every pair number of the sets in a drawn order,
    from which a pair both chose is replaced for the seat that is not `first` (RUL-072)."""

    mode: str  # "mutual" or "free"
    first: str  # who picks first (PD-TEAM-MUTUAL-01; the other starts the objects, RUL-073); whose pairs stand
    # when both chose one (RUL-072)
    picks: tuple[tuple[str, str], ...] = ()
    deal: tuple[int, ...] = ()
    builds: tuple[tuple[str, tuple[int, ...], tuple[str, ...], tuple[str, ...]], ...] = ()

    def built(self, seat: str) -> tuple[tuple[int, ...], tuple[str, ...], tuple[str, ...]] | None:
        """The seat's free choice (pairs, characters, objects), or None before it is made."""
        return next((tuple(b[1:]) for b in self.builds if b[0] == seat), None)


@dataclass(frozen=True, slots=True)
class Outcome:
    winner: str | None  # None: a draw
    vp: tuple[tuple[str, int], ...]
    reason: str


_FIELDS = (
    "options", "rows", "rooms", "portcullis", "tokens", "players", "phase", "turn", "active", "ap",
    "pools", "acted", "exhausted", "high_card", "four_played", "first_player", "placer", "teams",
    "combat", "placement", "combats", "outcome", "marks", "draft",
)


_DICTS = ("portcullis", "tokens", "players", "pools", "teams", "marks")  # the fields `thaw` copies and `seal` wraps
_get_dicts = attrgetter(*_DICTS)
_COPYABLE = (dict, MappingProxyType)  # `.copy()` gives a plain dict with the same order
_proxy = MappingProxyType


class Memo:
    """What the engine memoises for one game (its states share it: `thaw` hands it on), so a server holding many
    games keeps each game's memo with the game, bounded by the game, rather than in one process-wide cache.

    `entries`: (seat, figure id) -> (key, entry), the figure's last computed actions (`moves._entry`), used only
    when the key (everything they depend on) is equal, so a result never depends on what came before;
    `state`/`occ`: a weak reference to the last sealed state whose occupancy was built, and that occupancy
    (`movement.occupancy`). Weak, so that the memo and the states form no reference cycle. `board`: the board of
    the last entry looked up; the entries of other boards are dropped when it changes (`moves._entry`). `seat`:
    the seat of the last search; when the other seat's comes, entries of changed figures are dropped. `older`:
    (seat, figure id) -> the (key, entry) pairs `entries` held for that figure before its last one, the most recent
    last (`moves.OLDER_KEPT` at most), found again when a key comes back (a token that moved within the figure's
    reach and back): dropped as `entries`' are, and whenever the memo is packed (`moves.pack_memo`), so a game that
    waits holds none of them.
    """

    __slots__ = ("entries", "older", "state", "occ", "board", "seat")

    def __init__(self):
        self.entries: dict = {}
        self.older: dict = {}
        self.state = None
        self.occ = None
        self.board = None
        self.seat = None


class GameState:
    """Every fact of a game, hidden ones included. Never mutated once sealed (see `thaw`).

    phase: draft (a mixed game's team building by mutual choice), build (by free choice: each seat's secret
    build), team (secret team choice), hide (alternate hidden placement), card (play an action card),
    main (spend AP), combat (waiting for combat cards), place (placing a revealed room's tokens), over.
    """

    # `_board`: `board.board_of`'s memo of a sealed state's board; `_memo`: the game's `Memo` (see `memo`);
    # `_checked_pits`: set by `apply` on the state it returns (`Ctx.sealed`): the pits its golden rules were checked
    # with, every square then breaking none but for two objects left stacked (`Ctx.check_golden_rules`); else None
    # `_delta`: set by `apply` (`Ctx.sealed`): (serial of an occupancy of an earlier state of the game, the squares
    # whose tokens changed since that state, the ids of the tokens changed), from which this state's occupancy is
    # made (`movement.Occupancy._derive`); else None
    __slots__ = _FIELDS + ("_sealed", "_board", "_memo", "_checked_pits", "_delta", "__weakref__")

    options: Options
    rows: int
    rooms: tuple[RoomPlace, ...]
    portcullis: dict[str, str]  # tile -> one letter per portcullis of the tile: c(losed), o(pen), b(roken)
    tokens: dict[str, Token]
    players: dict[str, Player]
    phase: str
    turn: int
    active: str | None
    ap: int
    pools: dict[str, int]  # Speed Potion AP per character (BG-AP-05)
    acted: frozenset[str]  # characters that spent AP this turn
    exhausted: frozenset[str]  # healed or regenerated this turn: may not act (RUL-014)
    high_card: int
    four_played: bool
    first_player: str
    placer: str | None
    teams: dict[str, tuple[tuple[tuple[Square, str], ...], tuple[str, ...]]]  # secret (team, left out) choices
    combat: Combat | None
    placement: Placement | None
    combats: int
    outcome: Outcome | None
    # markers on the board that are not tokens (Paladins & Dragons), name -> value: "wall:<tile>:<index>" -> the
    # Golem who broke that wall segment of the tile (PD-CHAR-GOLEM-01, its index among the tile's internal walls,
    # then outer walls, then arrow slits); "illusion:<B|Y>:<pit|rubble>" -> the square name of that colour's
    # illusion (PD-CHAR-ILLUS-01). Empty in the other sets.
    marks: dict[str, str]
    draft: Draft | None  # mutual team building under way (phase "draft"), else None

    def __init__(self, **values):
        object.__setattr__(self, "_sealed", False)
        object.__setattr__(self, "_board", None)
        object.__setattr__(self, "_memo", None)
        object.__setattr__(self, "_checked_pits", None)
        object.__setattr__(self, "_delta", None)
        values.setdefault("marks", {})
        values.setdefault("draft", None)
        for name in _FIELDS:
            object.__setattr__(self, name, values[name])

    def __setattr__(self, name, value):
        if self._sealed:
            raise AttributeError("a sealed GameState is immutable; thaw() it first")
        object.__setattr__(self, name, value)

    def thaw(self) -> "GameState":
        """A mutable copy (its dicts copied) for the rules to work on."""
        copy = working_copy(self)
        copy.__class__ = GameState
        return copy

    def seal(self, owned: bool = False) -> "GameState":
        """Make this state immutable. `owned`: its dicts are its own (a `thaw()` copy, or new), so they are
        wrapped read-only as they are rather than copied first (`apply`)."""
        for set_field, value in zip(_DICT_SETTERS, _get_dicts(self)):
            set_field(self, MappingProxyType(value if owned and type(value) is dict else dict(value)))
        object.__setattr__(self, "_sealed", True)
        return self

    def _key(self):
        return tuple(
            tuple(sorted(v.items())) if isinstance(v, (dict, MappingProxyType)) else v
            for v in (getattr(self, n) for n in _FIELDS)
        )

    def __eq__(self, other):
        return isinstance(other, GameState) and self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    @property
    def memo(self) -> Memo:
        """The memo of this state's game (created with the game's first state that needs one; not part of the
        value: equality, hashing and every result ignore it)."""
        memo = self._memo
        if memo is None:
            memo = Memo()
            _set(self, "_memo", memo)
        return memo

    # --- queries ---------------------------------------------------------------------------------
    @property
    def catalogue(self) -> SetCatalogue:
        return self.options.catalogue

    @property
    def height(self) -> int:
        return 5 * self.rows

    @property
    def to_act(self) -> tuple[str, ...]:
        """The seats that may act now (two during a simultaneous secret choice)."""
        if self.phase == "team":
            return tuple(s for s in SEATS if s not in self.teams)
        if self.phase == "draft":
            return (self.draft_picker(),)
        if self.phase == "build":
            return tuple(s for s in SEATS if self.draft.built(s) is None)
        if self.phase == "combat":
            if self.combat.naming:
                return (self.combat.telepath,)  # PR-CHAR-TELEPATH-01: the naming comes before the cards
            waiting = tuple(s for s in SEATS if self.combat.card_of(s) is None)
            first = self.combat_first()
            return (first,) if first in waiting else waiting
        if self.phase == "hide":
            return (self.placer,)
        if self.phase == "place":
            return (self.placement.placer,)
        if self.phase in ("card", "main"):
            return (self.active,)
        return ()

    def draft_stage(self) -> tuple[str, int]:
        """(stage, how many picks it has had) of a draft: "rooms" (the set's mix: 4 pairs), then "characters"
        (8), then "objects" (6); ("done", 0) when every pick is made."""
        mix, done = self.catalogue.mix, len(self.draft.picks)
        for stage, count in (("rooms", mix["pairs"]), ("characters", mix["characters"]), ("objects", mix["objects"])):
            if done < count:
                return stage, done
            done -= count
        return "done", 0

    def draft_picker(self) -> str:
        """Who picks next (PD-TEAM-MUTUAL-01..03): the first player, then each in turn; the other one starts the
        objects (RUL-073)."""
        stage, done = self.draft_stage()
        starter = opponent(self.draft.first) if stage == "objects" else self.draft.first
        return starter if done % 2 == 0 else opponent(starter)

    def combat_first(self) -> str | None:
        """The seat that lays its combat card first, face up, because only the other side has a Weapon Master
        (ability "combat_techniques") among the fighters, who sees it before choosing (PD-CHAR-WMASTER-01..03,
        RUL-082: Weapon Masters on both sides cancel; a wounded one has lost his techniques). In a combat with
        shooters only a Weapon Master in melee counts, one beside an opposing figure of the combat (PR-RANGED-11,
        DT-302): never a shot's lone target, never a shooter. None: both choose secretly."""
        c = self.combat
        if c is None:
            return None
        abilities = self.catalogue.characters
        masters = [tid for tid in (*c.attackers, *c.defenders, *((c.lancer,) if c.lancer else ()))
                   if not self.tokens[tid].wounded  # a wounded character has no ability (BG-WOUND-02)
                   and "combat_techniques" in abilities[self.tokens[tid].code].abilities]
        if masters and c.shooters:  # DT-302: in a group combat with shooters, only one in melee (PR-RANGED-11)
            from .board import board_of  # (board -> state: imported here)

            board = board_of(self)
            masters = [tid for tid in masters if any(
                board.connected(self.tokens[tid].square, self.tokens[other].square)
                for other in (c.defenders if tid in c.attackers else c.attackers))]
        seats = {self.tokens[tid].colour for tid in masters}
        return opponent(seats.pop()) if len(seats) == 1 else None

    def room_at(self, slot: tuple[int, int]) -> RoomPlace:
        return self.rooms[slot[1] * 2 + slot[0]]

    def start_row(self, seat: str) -> int:
        return -1 if seat == "B" else self.height

    def occupancy(self) -> dict[Square, list[Token]]:
        board: dict[Square, list[Token]] = {}
        for token in self.tokens.values():
            if token.where == "board":
                board.setdefault(token.square, []).append(token)
        return board

    def tokens_at(self, square: Square) -> list[Token]:
        return [t for t in self.tokens.values() if t.where == "board" and t.square == square]

    def character(self, token_id: str):
        return self.catalogue.characters.get(self.tokens[token_id].code)

    def vp(self, seat: str) -> int:
        """Victory points, derived from the tokens (BG-VP-01..05)."""
        total = 0
        cat = self.catalogue
        for t in self.tokens.values():
            where = t.where
            if where == "board":  # most tokens, every turn's end (`turn.end_turn`)
                continue
            if where == "exited":
                if t.colour == seat and t.is_character:
                    total += cat.characters[t.code].exit_vp
            elif where == "eliminated":
                if t.is_character and t.colour != seat:
                    total += cat.characters[t.code].elimination_vp
            elif where == "scored" and t.scored_by == seat:
                total += cat.objects[t.code].exit_vp
        for bonus in VP_BONUSES.get(cat.rules, ()):
            total += bonus(self, seat)
        return total


class _Thawing(GameState):
    """A working copy (`working_copy`): GameState's slots, with object's own `__setattr__`, so each field is one
    plain attribute store rather than a call of GameState's (Python) `__setattr__`, which checks `_sealed`, or of a
    slot's setter. Filling a copy in field by field through those took ~20 us of the ~70 us of an `apply`."""

    __slots__ = ()
    __setattr__ = object.__setattr__


def _unrolled_copiers():
    """`working_copy` and `seal_working`, written out field by field from `_FIELDS` and `_DICTS` (as dataclasses
    writes an `__init__`): one plain store a field, no loop, no call per field, and no list of fields to keep in
    step with `_FIELDS` by hand."""
    lines = ["def working_copy(self):",
             "    copy = _new(_Thawing)",
             "    copy._sealed = False",
             "    copy._board = None",
             "    copy._memo = self.memo",  # the game's memo travels on to the states derived from this one
             "    copy._checked_pits = None",
             "    copy._delta = None"]
    for name in _FIELDS:
        if name in _DICTS:  # a sealed state's read-only view copies its dict at C speed (`dict(view)`: key by key)
            lines += [f"    value = self.{name}",
                      f"    copy.{name} = value.copy() if type(value) in _COPYABLE else dict(value)"]
        else:
            lines.append(f"    copy.{name} = self.{name}")
    lines += ["    return copy", "", "def seal_working(copy):"]
    for name in _DICTS:
        lines += [f"    value = copy.{name}",
                  f"    copy.{name} = _proxy(value if type(value) is dict else dict(value))"]
    lines += ["    copy._sealed = True", "    copy.__class__ = GameState", "    return copy"]
    namespace = {"_new": _new, "_Thawing": _Thawing, "_COPYABLE": _COPYABLE, "_proxy": _proxy,
                 "GameState": GameState}
    exec("\n".join(lines), namespace)  # (the source is made of the field names above: nothing from outside)
    return namespace["working_copy"], namespace["seal_working"]


working_copy, seal_working = _unrolled_copiers()
working_copy.__doc__ = """`thaw`'s copy as a `_Thawing`, for `apply`'s working copy (`Ctx`), which the rules change
in place and `seal_working` makes a sealed GameState: never handed out otherwise. Every field of `_FIELDS`, the
dicts copied (tests/engine/test_state_copy.py)."""
seal_working.__doc__ = """`seal(owned=True)` of a `working_copy` (its dicts, its own, wrapped read-only as they are),
made a GameState."""


# The slots' own setters of the fields, in `_FIELDS` order: `seal` sets each dict with one call, not through
# `object.__setattr__`'s look-up of the name (what GameState.__setattr__ forbids on a sealed state, they bypass too)
_SETTERS = tuple(GameState.__dict__[name].__set__ for name in _FIELDS)
_DICT_INDICES = tuple(_FIELDS.index(name) for name in _DICTS)
_DICT_SETTERS = tuple(_SETTERS[i] for i in _DICT_INDICES)

# VP a position gives while it lasts, beyond the tokens' (`GameState.vp`), per rule set (`SetCatalogue.rules`):
# functions (state, seat) -> int that read the position's data alone (the Pentacle's, PD-TERR-PENTACLE-02,
# RUL-088): the `vp_bonus` of the rule set's modules, which `rulebook.register` puts here
VP_BONUSES: dict[str, tuple] = {}

__all__ = [
    "VP_BONUSES", "Draft", "SEATS", "SEAT_NAMES", "opponent", "Handicap", "Options", "Token", "RoomPlace", "Player", "Combat",
    "Placement", "Outcome", "GameState", "Memo",
]
