"""The Pickpocket (PD-CHAR-PICKPOCKET-01..04, RUL-081): for 1 AP he takes one object from an enemy character (a
figure, or a wounded character the object lies with) on an orthogonally adjacent connected square and puts it under
himself; never while he carries something, and never a wounded character. If the object was the Rope holding a
character over a pit, that character falls (BG-PIT-07/09).

Notation: `steal bPP yTS` (the Pickpocket, then the object).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..boardgame.actions import Action
from ..boardgame.context import Ctx
from ..boardgame.geometry import square_name
from ..boardgame.notation import any_of, register_action
from ..boardgame.rulebook import RuleModule
from ..boardgame.state import GameState, Token
from ..core.errors import IllegalAction


@dataclass(frozen=True, slots=True)
class Steal(Action):
    """PD-CHAR-PICKPOCKET-01: the Pickpocket `token` takes the object `item` from an adjacent enemy character."""

    token: str
    item: str


def _carries(state: GameState, figure: Token) -> bool:
    return any(t.where == "board" and t.square == figure.square and t.id != figure.id for t in state.tokens.values())


def targets(state: GameState, board, thief: Token) -> list[Token]:
    """The objects lying with an enemy character on a square connected to the thief's: one that can carry, for
    what lies under the Ghost is nobody's (PD-CHAR-GHOST-03: he carries nothing)."""
    at: dict = {}
    for t in state.tokens.values():
        if t.where == "board":
            at.setdefault(t.square, []).append(t)
    characters = state.catalogue.characters
    out = []
    for square in board.connected_neighbours(thief.square):
        here = at.get(square, ())
        if any(t.is_character and t.colour != thief.colour and "no_carry" not in characters[t.code].abilities
               for t in here):
            out += [t for t in here if not t.is_character]
    return sorted(out, key=lambda t: t.id)


def problem(state: GameState, board, thief: Token, item: Token) -> IllegalAction | None:
    if _carries(state, thief):
        return IllegalAction("PD-CHAR-PICKPOCKET-02", "{thief} carries something already", thief=thief.id)
    if item.is_character:
        return IllegalAction("PD-CHAR-PICKPOCKET-03", "{item} is a character, not an object", item=item.id)
    if item.id not in {t.id for t in targets(state, board, thief)}:
        return IllegalAction("PD-CHAR-PICKPOCKET-01", "{item} is not with an enemy character on a connected adjacent "
                             "square", item=item.id)
    return None


def steal(ctx: Ctx, action: Steal) -> None:
    thief = ctx.token(action.token)
    if not ctx.has_ability(thief, "steal"):
        raise IllegalAction("PD-CHAR-PICKPOCKET-01", "{thief} cannot steal", thief=thief.id)
    item = ctx.token(action.item)
    refused = problem(ctx.s, ctx.board, thief, item) if thief.where == "board" and not thief.wounded else None
    ctx.actor(action.seat, action.token, rule="PD-CHAR-PICKPOCKET-01", wounded_rule="BG-ABIL-02")
    if refused:
        raise refused
    # the figure who carries it, else the wounded character it lies with (not a wounded one the figure carries)
    victim = min((t for t in ctx.at(item.square) if t.is_character), key=lambda t: (t.wounded, t.id))
    ctx.put(item.moved(square=thief.square))
    ctx.emit("stolen", token=item.id, by=thief.id, victim=victim.id, square=square_name(thief.square))
    ctx.settle_pits()


def figure_actions(state: GameState, board, seat: str, figure: Token) -> list:
    if "steal" not in state.catalogue.characters[figure.code].abilities or _carries(state, figure):
        return []
    return [Steal(seat, figure.id, item.id) for item in targets(state, board, figure)]


register_action(Steal, {"steal": lambda w, seat: Steal(seat, w.token(seat), w.token())},
                lambda a: f"steal {a.token} {a.item}", any_of("steal"))

MODULE = RuleModule("pickpocket", {Steal: steal}, figure_actions, reach_only=True)

__all__ = ["MODULE", "Steal"]
