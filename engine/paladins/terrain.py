"""Paladins & Dragons terrain (PD-TERR): what the rooms' new squares do beyond movement and sight.

Movement reads the terrain in the shared walker (boardgame/movement.py: crevasses and 3D obstacles are crossed by
some and stopped on by none, Rockfall ends an unprotected walker's move) and sight in `Board.sight_line` (fog and
3D obstacles stop a line). This module adds:

- Rockfall kills (PD-TERR-ROCKFALL-01/02, RUL-090): every character on a Rockfall square once an action is done
  (whoever ends a move there, shield or not, and what it carries) is eliminated; a move refused because an
  unshielded walker's move ends on Rockfall says so (`rockfall_stop`, the module's `move_stop`).
- The Fountain of Youth (PD-TERR-FOUNTAIN-02..04, RUL-087): a wounded character of the active player, on a square
  connected to the fountain and alone there (no figure over it), drinks for 1 AP and is healed; it may act the same
  turn. Notation: `fountain bTR`.
- The Pentacle (PD-TERR-PENTACLE-02/03, RUL-088): 1 VP per Pentacle room to the only colour with a character on its
  squares, if one of them is unwounded; a live bonus (`GameState.vp`), re-evaluated from the position.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..boardgame.actions import Action
from ..boardgame.board import board_of
from ..boardgame.context import Ctx
from ..boardgame.geometry import square_name
from ..boardgame.movement import Walker, takes
from ..boardgame.notation import register_action
from ..boardgame.rulebook import RuleModule
from ..boardgame.state import SEATS, GameState, Token
from ..core.errors import IllegalAction, PositionError


@dataclass(frozen=True, slots=True)
class Fountain(Action):
    """PD-TERR-FOUNTAIN-02: the wounded character `token` drinks from a Fountain of Youth beside it."""

    token: str


def rockfall(ctx: Ctx) -> None:
    """After every action: characters on Rockfall die (figure first, then what it carried)."""
    squares = ctx.board.terrain_of("rockfall")
    if not squares:
        return
    victims = sorted((t for t in ctx.s.tokens.values()
                      if t.where == "board" and t.is_character and t.square in squares),
                     key=lambda t: (t.wounded, t.id))
    for victim in victims:
        ctx.eliminate(victim, "rockfall")


def _unshielded(walker: Walker, take: str | None) -> bool:
    """Whether the walker crosses Rockfall without a shield of its own all along: it neither carries one from its
    start nor picks one up (a shield it leaves on the way is not looked at: no refusal is explained by it)."""
    return not any(walker._is_shield(t) for t in (*walker.originals, *takes(take)))


def rockfall_stop(walker: Walker, square, take: str | None) -> IllegalAction | None:
    """The rule module's `move_stop`: an unshielded walker's move ends on the Rockfall square it enters
    (PD-TERR-ROCKFALL-01, DT-112); a Rope does not cross it (PD-TERR-ROCKFALL-05). The search itself stops there
    (`Walker.trapped`); this only words a refused move."""
    if square not in walker.rockfall or not walker.trapped(square, None, ()) or not _unshielded(walker, take):
        return None
    if any(walker.is_rope(t) for t in walker.originals):
        return IllegalAction("PD-TERR-ROCKFALL-05", "a Rope does not cross the Rockfall {square}: without a shield, "
                             "{mover}'s move ends there", square=square_name(square), mover=walker.mover.id)
    return IllegalAction("PD-TERR-ROCKFALL-01", "{mover} carries no shield: the move ends on the Rockfall {square}",
                         square=square_name(square), mover=walker.mover.id)


def fountain_problem(state: GameState, board, character: Token) -> IllegalAction | None:
    """Why this wounded character may not drink now (a rule and a reason), or None."""
    if not (character.where == "board" and character.is_character and character.wounded):
        return IllegalAction("PD-TERR-FOUNTAIN-02", "{character} is not a wounded character in play",
                             character=character.id)
    fountains = board.terrain_of("fountains")
    if not any(sq in fountains for sq in board.connected_neighbours(character.square)):
        return IllegalAction("PD-TERR-FOUNTAIN-02", "{character} is not beside a Fountain of Youth",
                             character=character.id)
    if any(t.is_figure and t.square == character.square for t in state.tokens.values() if t.where == "board"):
        return IllegalAction("PD-TERR-FOUNTAIN-03", "a figure stands on {character}: healed, it would break the "
                             "golden rules", character=character.id)
    return None


def drink(ctx: Ctx, action: Fountain) -> None:
    s = ctx.s
    ctx.pending()
    if s.phase != "main" or action.seat != s.active:
        raise IllegalAction("BG-TURN-01", "you can drink only during your turn")
    character = ctx.token(action.token)
    if character.colour != action.seat:
        raise IllegalAction("PD-TERR-FOUNTAIN-02", "{character} is not yours", character=character.id)
    problem = fountain_problem(s, ctx.board, character)
    if problem:
        raise problem
    if s.ap <= 0:
        raise IllegalAction("BG-TURN-03", "no action point left")
    s.ap -= 1
    s.acted = s.acted | {character.id}
    ctx.put(character.moved(wounded=False))  # not exhausted: it may act this turn (PD-TERR-FOUNTAIN-04)
    ctx.emit("fountain", token=character.id)


def rises(state: GameState, board, character: Token) -> bool:
    """BG-END-04: a wounded character beside a Fountain of Youth, with no figure over it, may still drink and stand up
    (PD-TERR-FOUNTAIN-02..04), so a game whose last figures are gone goes on while one lies there (DT-256)."""
    return bool(board.terrain_of("fountains")) and fountain_problem(state, board, character) is None


def wounded_actions(state: GameState, board, seat: str, character: Token) -> list:
    if state.ap > 0 and board.terrain_of("fountains") and fountain_problem(state, board, character) is None:
        return [Fountain(seat, character.id)]
    return []


def pentacle_bonus(state: GameState, seat: str, board=None) -> int:
    """RUL-088: one VP per Pentacle room whose squares hold characters of `seat`'s colour only, one unwounded.
    (`board`: the state's, if the caller has it: an action's working copy.)"""
    if state.phase == "team" or not any(state.catalogue.rooms[p.tile].terrain.get("pentacle")
                                        for p in state.rooms if p.revealed):
        return 0
    board = board or board_of(state)
    squares = board.terrain_of("pentacle")
    holders: dict = {}  # room slot -> {colour: whether one of its characters there is unwounded}
    for t in state.tokens.values():
        if t.where == "board" and t.is_character and t.square in squares:
            colours = holders.setdefault(board.slot_of(t.square), {})
            colours[t.colour] = colours.get(t.colour, False) or not t.wounded
    return sum(1 for colours in holders.values() if colours == {seat: True})


def after_action(ctx: Ctx) -> None:
    """After every action: Rockfall's victims, then the Pentacle's VP told when they change (PD-TERR-PENTACLE-03:
    a state, re-evaluated after every action; a play-test saw Yellow's VP go from 0 to 1 with no line to say why,
    and a game can be won by it)."""
    rockfall(ctx)
    for seat in SEATS:
        before, after = pentacle_bonus(ctx.before, seat), pentacle_bonus(ctx.s, seat, ctx.board)
        if before != after:
            ctx.emit("pentacle", seat=seat, vp=after, change=after - before)


def rockfall_position(state: GameState) -> None:
    """No character stands on Rockfall in a position of a game under way: one that ends an action there is
    eliminated once it is done (PD-TERR-ROCKFALL-01, DT-112), and nothing places one there (the squares take no
    token at a reveal). Objects may lie there (PD-TERR-ROCKFALL-07)."""
    if state.outcome is not None:  # (an action that ends the game runs no after-action hook)
        return
    squares = board_of(state).terrain_of("rockfall")
    if not squares:
        return
    for t in sorted(state.tokens.values(), key=lambda t: t.id):
        if t.where == "board" and t.is_character and t.square in squares:
            raise PositionError("PD-TERR-ROCKFALL-01", f"square {square_name(t.square)}",
                                f"{t.id} is on Rockfall: a character ending an action there is eliminated")


register_action(Fountain, {"fountain": lambda w, seat: Fountain(seat, w.token(seat))},
                lambda a: f"fountain {a.token}")

MODULE = RuleModule("terrain", {Fountain: drink}, wounded_actions=wounded_actions, reach_only=True, rises=rises,
                    after_action=after_action, vp_bonus=pentacle_bonus, move_stop=rockfall_stop,
                    position_check=rockfall_position)

__all__ = ["Fountain", "MODULE", "pentacle_bonus"]
