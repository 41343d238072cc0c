"""The Ring of Teleportation (PD-OBJ-RING-01/02, RUL-083): for 1 AP its carrier, standing in a room, teleports to an
empty floor square of a revealed room sharing a side with its own (never its own room, a start zone, a rotation
mechanism, a pit or any terrain square); the Ring is discarded. The Red Dragon moves no other way (PD-EX-02).

Notation: `teleport bRD c7` (the carrier, then the square).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..boardgame.abilities import carried_use
from ..boardgame.actions import Action
from ..boardgame.context import Ctx
from ..boardgame.geometry import Square, square_name
from ..boardgame.notation import any_of, register_action
from ..boardgame.rulebook import RuleModule
from ..boardgame.state import GameState, Token
from ..core.errors import N_, IllegalAction


@dataclass(frozen=True, slots=True)
class Teleport(Action):
    """PD-OBJ-RING-01: the carrier `token` of a Ring of Teleportation teleports to `dest`."""

    token: str
    dest: Square


def ring_of(state: GameState, figure: Token) -> Token | None:
    """The Ring the figure carries (none for the Ghost, PD-CHAR-GHOST-03; one of two for the Paladin)."""
    if figure.where != "board":
        return None
    return carried_use(state, figure, "teleport")


def destinations(state: GameState, board, figure: Token) -> list[Square]:
    slot = board.slot_of(figure.square)
    if slot is None:
        return []
    taken = {t.square for t in state.tokens.values() if t.where == "board"}
    out = []
    for dx, dy in ((0, 1), (1, 0), (0, -1), (-1, 0)):
        place = board.room_of_slot.get((slot[0] + dx, slot[1] + dy))
        if place is None or not place.revealed:
            continue
        gear = board.gears[place.slot]
        out += [sq for sq in board.room_squares(place.slot) if sq not in taken and sq != gear
                and sq not in board.pits and sq not in board.special
                and sq not in board.illusions]  # a square bearing an illusion is not empty (PD-CHAR-ILLUS-07)
    return sorted(out)


def teleport(ctx: Ctx, action: Teleport) -> None:
    figure = ctx.token(action.token)
    ring = ring_of(ctx.s, figure) if figure.where == "board" else None
    if ring is None:
        raise IllegalAction("PD-OBJ-RING-01", "{figure} carries no Ring of Teleportation", figure=figure.id)
    ctx.actor(action.seat, action.token, rule="PD-OBJ-RING-01", wounded_rule="BG-ABIL-04")
    if ctx.board.slot_of(figure.square) is None:
        raise IllegalAction("PD-OBJ-RING-02", "{figure} must stand in a room, not on a start zone", figure=figure.id)
    if action.dest not in destinations(ctx.s, ctx.board, figure):
        raise _refusal(ctx, figure, action.dest)
    ctx.put(ring.moved(where="discarded", square=None))
    ctx.emit("teleported", token=figure.id, route=[square_name(figure.square), square_name(action.dest)],
             ring=ring.id)
    for other in ctx.at(figure.square):  # what else it carries goes along (RUL-083)
        if other.id != figure.id:
            ctx.put(other.moved(square=action.dest))
    ctx.put(figure.moved(square=action.dest))


def _refusal(ctx: Ctx, figure: Token, dest: Square) -> IllegalAction:
    """Why `dest` is not a destination, with the rule that says so: a square of no room (a start zone), a rotation
    mechanism or a special square is PD-OBJ-RING-02's; a room that is its own, not beside it or face down, or a
    square not empty (a token, an illusion: PD-CHAR-ILLUS-07) is PD-OBJ-RING-01's. (Play-test pt25 F11: a hidden
    neighbour and its own room were refused citing RING-02.)"""
    board, place = ctx.board, square_name(dest)
    slot, own = board.slot_of(dest), board.slot_of(figure.square)
    if slot is None:
        return IllegalAction("PD-OBJ-RING-02", "{dest} is on a start zone, where a Ring takes no one", dest=place)
    room = board.room_of_slot.get(slot)
    if slot == own or abs(slot[0] - own[0]) + abs(slot[1] - own[1]) != 1 or room is None or not room.revealed:
        return IllegalAction("PD-OBJ-RING-01", "{dest} is not in a revealed room beside {figure}'s (never its own)",
                             dest=place, figure=figure.id)
    if dest == board.gears[slot] or dest in board.pits or dest in board.special:
        return IllegalAction("PD-OBJ-RING-02", "{dest} is a rotation mechanism or a special square", dest=place)
    return IllegalAction("PD-OBJ-RING-01", "{dest} is not empty", dest=place)


def figure_actions(state: GameState, board, seat: str, figure: Token) -> list:
    if ring_of(state, figure) is None:
        return []
    return [Teleport(seat, figure.id, dest) for dest in destinations(state, board, figure)]


register_action(Teleport, {"teleport": lambda w, seat: Teleport(
    seat, w.token(seat), w.square(N_("missing the square"), N_("expected the square, got {word}")))},
                lambda a: f"teleport {a.token} {square_name(a.dest)}", any_of("use:teleport"))

MODULE = RuleModule("ring", {Teleport: teleport}, figure_actions, reach_only=False)

__all__ = ["MODULE", "Teleport"]
