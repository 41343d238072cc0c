"""Actions: frozen values, one class per kind. Every action names the seat that takes it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .geometry import Square
from .packing import Packed, pack


@dataclass(frozen=True, slots=True)
class Action:
    seat: str

    @property
    def verb(self) -> str:
        return VERBS[type(self)]


@dataclass(frozen=True, slots=True)
class ChooseTeam(Action):
    """BG-SETUP-04: the secret starting team, one character code per marked start square."""

    team: tuple[tuple[Square, str], ...]
    removed: tuple[str, ...] = ()  # handicap (BG-OPT-08): characters left out of the game


@dataclass(frozen=True, slots=True)
class Pick(Action):
    """PD-TEAM-MUTUAL: a pick of the mutual team building: a room pair's number, or a character or object code."""

    value: str


@dataclass(frozen=True, slots=True)
class Build(Action):
    """PD-TEAM-FREE-01/02: a free team building's secret choice: room pairs (numbers), characters and objects
    (codes; a common object once per copy chosen, PD-TEAM-COMMON-01), each sorted."""

    pairs: tuple[int, ...]
    characters: tuple[str, ...]
    objects: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Hide(Action):
    """BG-SETUP-05: place one of your tokens face down on a room."""

    token: str
    slot: tuple[int, int]


@dataclass(frozen=True, slots=True)
class PlayCard(Action):
    value: int


@dataclass(frozen=True, slots=True)
class EndTurn(Action):
    pass


@dataclass(frozen=True, slots=True)
class Move(Action):
    """BG-MOVE: a path plus item operations, identified by its outcome.

    `take`: a token the mover ends up carrying that it did not carry before; `leave`: other tokens and the
    squares they end on (drops and hand-overs). What the mover carried travels with it unless left. `route`
    is an optional witness path (start excluded); it does not change which action this is.
    """

    token: str
    dest: Square
    take: str | None = None
    leave: tuple[tuple[str, Square], ...] = ()
    route: tuple[Square, ...] | None = field(default=None, compare=False)


_new = object.__new__
_seat, _token, _dest, _take, _leave, _route = (getattr(Move, name).__set__  # the slots' member descriptors
                                               for name in ("seat", "token", "dest", "take", "leave", "route"))


def new_move(seat: str, token: str, dest: Square, take: str | None, leave: tuple, route: tuple | None) -> Move:
    """`Move(seat, token, dest, take, leave, route)`, made faster for the move search's many outcomes: the same
    frozen value (equal, same hash), its slots set by their descriptors rather than through the frozen
    `__setattr__` (which refuses) or `object.__setattr__` (which looks each descriptor up)."""
    move = _new(Move)
    _seat(move, seat)
    _token(move, token)
    _dest(move, dest)
    _take(move, take)
    _leave(move, leave)
    _route(move, route)
    return move


class FigureMoves(Sequence):
    """One figure's moves, one per outcome of its move search in the search's order, then its other moving actions
    (`extras`: wall-walks, jumps): a Move is made when one is asked for (`core/listing.py`), all of them (kept)
    once the sequence is iterated.

    `outcomes_listed`: the (dest, take, leave) of each Move, in the search's order, and `routes` the shortest route
    the search found to each, at the same places (`movement.Walker.listed`): a Move asked for by its place is made
    from those two, and one asked for by its outcome (`route`: `apply`'s look-up of a listed move, once an action)
    found by a scan of the outcomes in C (`list.index`), which costs less than hashing every outcome of every
    search into a dict (most are never looked up). Both None once `pack` has packed them (`packing.Packed`, a
    tenth of the memory), which changes nothing this sequence gives.
    """

    __slots__ = ("seat", "token", "outcomes_listed", "routes", "extras", "_made", "_packed")

    def __init__(self, seat: str, token: str, outcomes: list, routes: list, extras: tuple = ()) -> None:
        self.seat, self.token, self.extras = seat, token, extras
        self.outcomes_listed, self.routes = outcomes, routes
        self._made: tuple | None = None
        self._packed: Packed | None = None

    def __len__(self) -> int:
        listed = self.outcomes_listed
        return len(listed if listed is not None else self._packed) + len(self.extras)

    def __getitem__(self, index):
        if self._made is not None or isinstance(index, slice):
            return self.made()[index]
        listed = self.outcomes_listed
        n = len(listed if listed is not None else self._packed)
        if index < 0:
            index += n + len(self.extras)
            if index < 0:
                raise IndexError("FigureMoves index out of range")
        if index < n:
            if listed is None:
                (dest, take, leave), route = self._packed.item(index)
            else:
                dest, take, leave = listed[index]
                route = self.routes[index]
            return new_move(self.seat, self.token, dest, take, leave, route)
        return self.extras[index - n]

    def made(self) -> tuple:
        """Every action, made once (then kept: a figure's entry serves the positions that leave it unchanged)."""
        if self._made is None:
            seat, token = self.seat, self.token
            self._made = tuple([new_move(seat, token, dest, take, leave, route)
                                for (dest, take, leave), route in self.outcomes()]) + self.extras
        return self._made

    def outcomes(self):
        """((dest, take, leave), route) of each Move, in order."""
        if self.outcomes_listed is not None:
            return zip(self.outcomes_listed, self.routes)
        return self._packed.items()

    def keys(self):
        """(dest, take, leave) of each Move, in order."""
        return self.outcomes_listed if self.outcomes_listed is not None else self._packed.all_keys()

    def route(self, outcome: tuple) -> tuple | None:
        """The route listed for the outcome (dest, take, leave), or None if it is not one of these Moves."""
        if self.outcomes_listed is not None:
            try:
                return self.routes[self.outcomes_listed.index(outcome)]
            except ValueError:
                return None
        return self._packed.route(outcome)

    def pack(self) -> None:
        """Keep the outcomes packed (`packing.pack`) and no Move made, for a game that waits; a Move is made again
        when it is asked for."""
        if self.outcomes_listed is not None:
            packed = pack(dict(zip(self.outcomes_listed, self.routes)))
            if packed is not None:
                self._packed, self.outcomes_listed, self.routes = packed, None, None
        self._made = None

    def __iter__(self):
        return iter(self.made())

    def __contains__(self, action) -> bool:
        if type(action) is Move:  # equal Moves: same seat, token and outcome (the route is no part of a Move)
            return action.seat == self.seat and action.token == self.token and self.route(
                (action.dest, action.take, action.leave)) is not None
        return action in self.extras

    def __repr__(self) -> str:
        return f"FigureMoves({list(self)!r})"


@dataclass(frozen=True, slots=True)
class WallWalk(Action):
    """BG-CHAR-WALLWALKER-01..04: through one wall; may leave what she carries on her start square."""

    token: str
    dest: Square
    leave: tuple[tuple[str, Square], ...] = ()


@dataclass(frozen=True, slots=True)
class Jump(Action):
    """BG-JUMP-01..07: a jump card over a pit onto a square adjacent to it."""

    token: str
    pit: Square
    dest: Square


@dataclass(frozen=True, slots=True)
class Attack(Action):
    token: str
    target: str


@dataclass(frozen=True, slots=True)
class CombatCard(Action):
    value: int


@dataclass(frozen=True, slots=True)
class Reveal(Action):
    token: str
    slot: tuple[int, int]


@dataclass(frozen=True, slots=True)
class Place(Action):
    """BG-REVEAL-06/07: place a token of the revealed room face up."""

    token: str
    square: Square


@dataclass(frozen=True, slots=True)
class PassPlacement(Action):
    """BG-OPT-03: the opponent leaves his remaining objects to the revealing player."""


@dataclass(frozen=True, slots=True)
class Rotate(Action):
    token: str
    slot: tuple[int, int]
    clockwise: bool


@dataclass(frozen=True, slots=True)
class Heal(Action):
    token: str
    target: str


@dataclass(frozen=True, slots=True)
class Regenerate(Action):
    token: str


@dataclass(frozen=True, slots=True)
class Portcullis(Action):
    """Break (Warrior), open or close (Thief) the portcullis on one edge of the figure's square."""

    token: str
    direction: str
    how: str  # "break", "open", "close"


@dataclass(frozen=True, slots=True)
class Fireball(Action):
    token: str
    direction: str


@dataclass(frozen=True, slots=True)
class Drink(Action):
    token: str


VERBS = {
    ChooseTeam: "team", Hide: "hide", PlayCard: "card", EndTurn: "end", Move: "move", WallWalk: "wallwalk",
    Jump: "jump", Attack: "attack", CombatCard: "combat", Reveal: "reveal", Place: "place",
    PassPlacement: "pass", Rotate: "rotate", Heal: "heal", Regenerate: "regenerate", Portcullis: "portcullis",
    Fireball: "fireball", Drink: "drink", Pick: "pick", Build: "build",
}
