"""The Golem's Break walls (PD-CHAR-GOLEM-01..06, RUL-079): for 1 AP he breaks one wall segment on an edge of his
square, placing a broken-wall marker on it (`GameState.marks`: "wall:<tile>:<index>" -> the Golem). A marker belongs
to one room and turns with it; a broken segment is open for movement and sight (the board leaves it out,
`Board.broken`). A double wall (both rooms print a wall on the edge) takes two breaks, his own room's segment first.
An arrow slit counts as a wall segment. At most 3 segments per Golem in the whole game. He breaks toward any square
of the board, a face-down room's too (the segment printed on his own room, the only one anyone sees: then nothing
known stops a reveal there, BG-REVEAL-02), never toward the outside of the board, where no square lies behind the
wall (DT-115, DT-244).

Notation: `smash bGO n` (the Golem, then the direction of the wall).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..boardgame.actions import Action
from ..boardgame.context import Ctx
from ..boardgame.geometry import DIRECTIONS, edge, square_name, step
from ..boardgame.notation import any_of, register_action
from ..boardgame.rulebook import RuleModule
from ..boardgame.state import GameState, Token
from ..core.errors import IllegalAction

MAX_BREAKS = 3  # PD-CHAR-GOLEM-03


@dataclass(frozen=True, slots=True)
class Smash(Action):
    """PD-CHAR-GOLEM-01: the Golem `token` breaks the wall segment on the `direction` side of his square."""

    token: str
    direction: str


def breaks_used(state: GameState, golem: Token) -> int:
    return sum(1 for name, who in state.marks.items() if name.startswith("wall:") and who == golem.id)


def segment(board, square, direction: str) -> tuple[str, int] | None:
    """The unbroken wall segment to break on that side of `square` (the square's own room's first), or None."""
    other = step(square, direction)
    if square not in board.open_ground or not board.exists(other):  # a square lies behind it, face down or not
        return None
    left = [s for s in board.segments.get(edge(square, other), ()) if s not in board.broken]
    if not left:
        return None
    slot = board.slot_of(square)
    own = board.room_of_slot[slot].tile if slot is not None else None
    return next((s for s in left if s[0] == own), left[0])


def smash(ctx: Ctx, action: Smash) -> None:
    golem = ctx.token(action.token)
    if not ctx.has_ability(golem, "break_walls"):
        raise IllegalAction("PD-CHAR-GOLEM-01", "{golem} cannot break walls", golem=golem.id)
    if action.direction not in DIRECTIONS:
        raise IllegalAction("PD-CHAR-GOLEM-01", "choose a direction: n, e, s or w")
    ctx.actor(action.seat, action.token, rule="PD-CHAR-GOLEM-01", wounded_rule="BG-ABIL-02")
    if breaks_used(ctx.s, golem) >= MAX_BREAKS:
        raise IllegalAction("PD-CHAR-GOLEM-03", "{golem} has broken {most} wall segments already",
                            golem=golem.id, most=MAX_BREAKS)
    found = segment(ctx.board, golem.square, action.direction)
    if found is None:
        raise IllegalAction("PD-CHAR-GOLEM-01",
                            "no wall to break {direction} of {square} toward the board", direction=action.direction,
                            square=square_name(golem.square))
    tile, index = found
    ctx.s.marks[f"wall:{tile}:{index}"] = golem.id
    ctx.layout_changed()
    ctx.emit("wall_broken", by=golem.id, square=square_name(golem.square), direction=action.direction, tile=tile,
             left=MAX_BREAKS - breaks_used(ctx.s, golem))


def figure_actions(state: GameState, board, seat: str, figure: Token) -> list:
    if "break_walls" not in state.catalogue.characters[figure.code].abilities:
        return []
    if breaks_used(state, figure) >= MAX_BREAKS:
        return []
    return [Smash(seat, figure.id, d) for d in DIRECTIONS if segment(board, figure.square, d) is not None]


register_action(Smash, {"smash": lambda w, seat: Smash(seat, w.token(seat), w.direction())},
                lambda a: f"smash {a.token} {a.direction}", any_of("break_walls"))

MODULE = RuleModule("golem", {Smash: smash}, figure_actions, reach_only=False)

__all__ = ["MAX_BREAKS", "MODULE", "Smash"]
