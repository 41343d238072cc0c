"""The Telescopic Lance (PR-OBJ-LANCE-01..06): its carrier starts a melee combat against a person exactly 2
squares away in a straight line (1 AP), fighting with its own combat value but touching nobody; the result never
affects it; its lance breaks if its side loses; through an arrow slit it reaches only the square across.

Notation: `lance bCO yNG` (the carrier, then the person it attacks).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..boardgame.actions import Action
from ..boardgame.abilities import carried_objects
from ..boardgame.combat import mind_controller, participants
from ..boardgame.context import Ctx
from ..boardgame.geometry import DIRECTIONS, square_name, step
from ..boardgame.notation import any_of, register_action
from ..boardgame.rulebook import RuleModule
from ..boardgame.state import Combat, GameState, Token
from ..boardgame.board import board_of
from ..core.errors import IllegalAction, PositionError
from .sight import carried, person, persons_at


@dataclass(frozen=True, slots=True)
class Lance(Action):
    """PR-OBJ-LANCE-01: the carrier `token` attacks the person `target` with its Telescopic Lance."""

    token: str
    target: str


def carries_lance(state: GameState, figure: Token) -> bool:
    """Whether the figure carries a Telescopic Lance (not one lying under the Ghost, PD-CHAR-GHOST-03)."""
    return figure.where == "board" and any(
        "lance" in state.catalogue.objects[t.code].abilities for t in carried_objects(state, figure))


def reach(state: GameState, board, figure: Token) -> list[Token]:
    """The persons the lance reaches (PR-OBJ-LANCE-01/04): 2 squares away in a line, both steps connected (no
    wall or closed portcullis) and nobody between; or, across an arrow slit beside the carrier, the square right
    across it. Of a figure carrying a wounded character, the figure."""
    at = persons_at(state)
    out = []
    for direction in DIRECTIONS:
        near = step(figure.square, direction)
        if board.is_slit(figure.square, near) and board.is_open_ground(near):
            spot = near  # PR-OBJ-LANCE-04: distance 1 across the slit
        elif board.connected(figure.square, near) and near not in at and _over(board, near) is None:
            spot = step(near, direction)
            if not board.connected(near, spot):
                continue
        else:
            continue
        here = at.get(spot)
        if here:
            out.append(person(here))
    return out


def _slit_between(board, here, there) -> bool:
    """Whether `there` lies 2 squares from `here` in a straight line with an arrow slit on one of the two steps:
    out of the lance's reach by PR-OBJ-LANCE-04 (through a slit only the square right across), not by distance."""
    if there is None or abs(here[0] - there[0]) + abs(here[1] - there[1]) != 2 or (
            here[0] != there[0] and here[1] != there[1]):
        return False
    near = ((here[0] + there[0]) // 2, (here[1] + there[1]) // 2)
    return board.is_slit(here, near) or board.is_slit(near, there)


def _over(board, square) -> str | None:
    """The rule that keeps the lance from reaching over `square`, or None. It reaches « über ein normales Feld oder
    über ein Hindernis (wie z.B. eine Grube) hinweg » (PR-OBJ-LANCE-01), and Prison's glossary calls a Hindernis a
    floor element crossed by a jump card or a Rope, which blocks no line of sight: a pit, a crevasse, Rockfall. In a
    mix with Paladins & Dragons a 3D obstacle or a fountain (PD-GLOS-03, PD-TERR-FOUNTAIN-01) and illusion rubble
    (PD-CHAR-ILLUS-04) are neither: they block sight and movement, and no jump crosses them (RUL-074). DT-287."""
    if not board.terrain and not board.rubble:
        return None
    if square in board.terrain_of("obstacles") or square in board.terrain_of("fountains"):
        return "PD-GLOS-03"
    if square in board.rubble:
        return "PD-CHAR-ILLUS-04"
    return None


def problem(state: GameState, board, figure: Token, target: Token) -> IllegalAction | None:
    if not carries_lance(state, figure):
        return IllegalAction("PR-OBJ-LANCE-01", "{figure} carries no Telescopic Lance", figure=figure.id)
    if target.where == "board" and target.square in board.terrain_of("fog"):
        # a mixed game, RUL-089
        return IllegalAction("PD-TERR-FOG-01", "{target} stands in fog and cannot be targeted", target=target.id)
    if target.colour != figure.colour and carried(state, target):  # he lies 2 squares away, under a figure
        return IllegalAction("BG-CARRY-04", "{target} is carried and cannot be attacked", target=target.id)
    if board.connected(figure.square, target.square):
        return IllegalAction("PR-OBJ-LANCE-03", "{target} is beside {figure}: the lance is no use against it",
                             target=target.id, figure=figure.id)
    if target.id not in {t.id for t in reach(state, board, figure)}:
        if _slit_between(board, figure.square, target.square):
            return IllegalAction("PR-OBJ-LANCE-04", "an arrow slit lies between {figure} and {target}: the lance "
                                 "reaches through it only from the square beside it to the square right across",
                                 figure=figure.id, target=target.id)
        between = _between(board, figure, target)
        rule = _over(board, between) if between is not None else None
        if rule == "PD-GLOS-03":
            return IllegalAction(rule, "the lance does not reach over {square}, a 3D obstacle",
                                 square=square_name(between))
        if rule is not None:
            return IllegalAction(rule, "the lance does not reach over {square}, which holds an illusion rubble",
                                 square=square_name(between))
        return IllegalAction("PR-OBJ-LANCE-01", "{target} is not 2 free squares away in a straight line",
                             target=target.id)
    if target.colour == figure.colour or not target.is_character:
        return IllegalAction("PR-OBJ-LANCE-01", "{target} is not an enemy", target=target.id)
    if any(t.is_figure and t.colour != figure.colour and board.connected(figure.square, t.square)
           for t in state.tokens.values()):
        return IllegalAction("PR-OBJ-LANCE-03", "{figure} is beside an enemy figure", figure=figure.id)
    if target.wounded_turn == state.turn:
        return IllegalAction("BG-COMBAT-07", "{target} was wounded this turn", target=target.id)
    return None


def _between(board, figure: Token, target: Token):
    """The square between the carrier and a person 2 squares away in a straight line, both steps connected, or None."""
    if target.where != "board" or figure.where != "board":
        return None
    for direction in DIRECTIONS:
        near = step(figure.square, direction)
        if step(near, direction) == target.square and board.connected(figure.square, near) \
                and board.connected(near, target.square):
            return near
    return None


def lance(ctx: Ctx, action: Lance) -> None:
    s = ctx.s
    figure = ctx.token(action.token)
    if figure.where == "board" and figure.is_character and not carries_lance(s, figure):
        raise IllegalAction("PR-OBJ-LANCE-01", "{figure} carries no Telescopic Lance", figure=figure.id)
    ctx.actor(action.seat, action.token, rule="PR-OBJ-LANCE-01", wounded_rule="PR-OBJ-LANCE-01")
    target = ctx.token(action.target)
    refused = problem(s, ctx.board, figure, target)
    if refused:
        raise refused
    # the group grows for the lancer's colour: a charmed lancer keeps his own (RUL-085, as in a melee, DT-117)
    attackers, defenders = participants(s, ctx.board, None, target, figure.colour)
    s.combats += 1
    telepath = mind_controller(s, [*attackers, figure.id], defenders)  # RUL-118: a single lance combat is a melee
    s.combat = Combat(s.combats, figure.id, target.id, tuple(attackers), tuple(defenders), lancer=figure.id,
                      telepath=telepath, naming=telepath is not None)
    s.phase = "combat"
    ctx.emit("combat_declared", number=s.combats, attacker=figure.id, target=target.id, attackers=attackers,
             defenders=defenders, lancer=figure.id)


def figure_actions(state: GameState, board, seat: str, figure: Token) -> list:
    if not carries_lance(state, figure):
        return []
    return [Lance(seat, figure.id, t.id) for t in sorted(reach(state, board, figure), key=lambda t: t.id)
            if problem(state, board, figure, t) is None]


register_action(Lance, {"lance": lambda w, seat: Lance(seat, w.token(seat), w.token())},
                lambda a: f"lance {a.token} {a.target}", any_of("lance"))


def position_check(state: GameState) -> None:
    """A written position's pending lance combat is one its lancer could have declared (PR-OBJ-LANCE-01..04): the
    target within the lance's reach, no enemy figure beside the lancer (nothing moves between a declaration and its
    cards). The reader has already checked that the lancer carries the lance and that the target is an enemy."""
    c = state.combat
    if c is None or not c.lancer:
        return
    refusal = problem(state, board_of(state), state.tokens[c.lancer], state.tokens[c.target])
    if refusal is not None:
        raise PositionError(refusal.rule, "combat", f"{c.lancer}: {refusal.message}")


MODULE = RuleModule("lance", {Lance: lance}, figure_actions, reach_only=False, position_check=position_check)

__all__ = ["Lance", "MODULE"]
