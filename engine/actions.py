"""Actions: frozen values, one class per kind. Every action names the seat that takes it."""

from __future__ import annotations

from dataclasses import dataclass, field

from .geometry import Square


@dataclass(frozen=True)
class Action:
    seat: str

    @property
    def verb(self) -> str:
        return VERBS[type(self)]


@dataclass(frozen=True)
class ChooseTeam(Action):
    """BG-SETUP-04: the secret starting team, one character code per marked start square."""

    team: tuple[tuple[Square, str], ...]
    removed: tuple[str, ...] = ()  # handicap (BG-OPT-08): characters left out of the game


@dataclass(frozen=True)
class Hide(Action):
    """BG-SETUP-05: place one of your tokens face down on a room."""

    token: str
    slot: tuple[int, int]


@dataclass(frozen=True)
class PlayCard(Action):
    value: int


@dataclass(frozen=True)
class EndTurn(Action):
    pass


@dataclass(frozen=True)
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


def new_move(seat: str, token: str, dest: Square, take: str | None, leave: tuple, route: tuple | None) -> Move:
    """`Move(seat, token, dest, take, leave, route)`, made faster for the move search's many outcomes: the same
    frozen value (equal, same hash), its fields set at once rather than one frozen `__setattr__` bypass each."""
    move = _new(Move)
    _set(move, "__dict__", {"seat": seat, "token": token, "dest": dest, "take": take, "leave": leave, "route": route})
    return move


_new, _set = object.__new__, object.__setattr__


@dataclass(frozen=True)
class WallWalk(Action):
    """BG-CHAR-WALLWALKER-01..04: through one wall; may leave what she carries on her start square."""

    token: str
    dest: Square
    leave: tuple[tuple[str, Square], ...] = ()


@dataclass(frozen=True)
class Jump(Action):
    """BG-JUMP-01..07: a jump card over a pit onto a square adjacent to it."""

    token: str
    pit: Square
    dest: Square


@dataclass(frozen=True)
class Attack(Action):
    token: str
    target: str


@dataclass(frozen=True)
class CombatCard(Action):
    value: int


@dataclass(frozen=True)
class Reveal(Action):
    token: str
    slot: tuple[int, int]


@dataclass(frozen=True)
class Place(Action):
    """BG-REVEAL-06/07: place a token of the revealed room face up."""

    token: str
    square: Square


@dataclass(frozen=True)
class PassPlacement(Action):
    """BG-OPT-03: the opponent leaves his remaining objects to the revealing player."""


@dataclass(frozen=True)
class Rotate(Action):
    token: str
    slot: tuple[int, int]
    clockwise: bool


@dataclass(frozen=True)
class Heal(Action):
    token: str
    target: str


@dataclass(frozen=True)
class Regenerate(Action):
    token: str


@dataclass(frozen=True)
class Portcullis(Action):
    """Break (Warrior), open or close (Thief) the portcullis on one edge of the figure's square."""

    token: str
    direction: str
    how: str  # "break", "open", "close"


@dataclass(frozen=True)
class Fireball(Action):
    token: str
    direction: str


@dataclass(frozen=True)
class Drink(Action):
    token: str


VERBS = {
    ChooseTeam: "team", Hide: "hide", PlayCard: "card", EndTurn: "end", Move: "move", WallWalk: "wallwalk",
    Jump: "jump", Attack: "attack", CombatCard: "combat", Reveal: "reveal", Place: "place",
    PassPlacement: "pass", Rotate: "rotate", Heal: "heal", Regenerate: "regenerate", Portcullis: "portcullis",
    Fireball: "fireball", Drink: "drink",
}
