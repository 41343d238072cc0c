"""The Red Dragon (PD-CHAR-DRAGON-01..05): Fire Breath for 1 AP, as often as he likes, at the first character on his
line of sight in a chosen direction, with the Fireball's effect (eliminated outright, a Fire Shield stops it:
`abilities.burn`). He never moves by himself (his data: move 0) nor jumps (the ability "no_jump", boardgame/moves.py),
and his elimination scores 2 VP (his data: "elimination_vp", PD-CHAR-DRAGON-04). Everything else he does as any
figure (RUL-076).

Notation: `breathe bRD n` (the dragon, then n, e, s or w).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..boardgame.abilities import burn, edge_refusal, line_directions
from ..boardgame.actions import Action
from ..boardgame.context import Ctx
from ..boardgame.geometry import DIRECTIONS
from ..boardgame.notation import any_of, register_action
from ..boardgame.rulebook import RuleModule
from ..boardgame.state import GameState, Token
from ..core.errors import IllegalAction


@dataclass(frozen=True, slots=True)
class Breath(Action):
    """PD-CHAR-DRAGON-01: the dragon `token` breathes fire in `direction`."""

    token: str
    direction: str


def breathe(ctx: Ctx, action: Breath) -> None:
    dragon = ctx.token(action.token)
    if not ctx.has_ability(dragon, "fire_breath"):
        raise IllegalAction("PD-CHAR-DRAGON-01", "{dragon} does not breathe fire", dragon=dragon.id)
    if action.direction not in DIRECTIONS:
        raise IllegalAction("PD-CHAR-DRAGON-01", "choose a direction: n, e, s or w")
    ctx.actor(action.seat, action.token, rule="PD-CHAR-DRAGON-01", wounded_rule="BG-ABIL-02")
    edge_refusal(ctx.board, dragon, action.direction, "PD-CHAR-DRAGON-01")  # DT-257
    burn(ctx, dragon, action.direction, "breath")


def figure_actions(state: GameState, board, seat: str, figure: Token) -> list:
    if "fire_breath" not in state.catalogue.characters[figure.code].abilities:
        return []
    return [Breath(seat, figure.id, direction) for direction in line_directions(board, figure.square)]


register_action(Breath, {"breathe": lambda w, seat: Breath(seat, w.token(seat), w.direction())},
                lambda a: f"breathe {a.token} {a.direction}", any_of("fire_breath"))

MODULE = RuleModule("dragon", {Breath: breathe}, figure_actions, reach_only=True)

__all__ = ["Breath", "MODULE"]
