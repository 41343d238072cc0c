"""Every legal action of the seats that must act: what this lists applies, what it omits is refused."""

from __future__ import annotations

from . import abilities, combat, moves, rooms, setup, turn
from .actions import (Attack, ChooseTeam, CombatCard, Drink, EndTurn, Fireball, Heal, Hide, Jump, Move,
                      PassPlacement, Place, PlayCard, Portcullis, Regenerate, Reveal, Rotate, WallWalk)
from .board import board_of
from .geometry import DIRECTIONS
from .movement import Walker
from .state import GameState


def legal_actions(state: GameState, seat: str | None = None) -> list:
    seats = [s for s in state.to_act if seat is None or s == seat]
    out: list = []
    for s in seats:
        out.extend(_for_seat(state, s))
    return out


def _for_seat(state: GameState, seat: str) -> list:
    phase = state.phase
    if phase == "team":
        return [ChooseTeam(seat, team, removed) for team, removed in setup.team_options(state, seat)]
    if phase == "hide":
        slots = [p.slot for p in state.rooms if setup.hidden_count(state, p.slot) < setup.capacity(state, p.slot)]
        mine = sorted(t.id for t in state.tokens.values() if t.colour == seat and t.where == "screen")
        return [Hide(seat, tid, slot) for tid in mine for slot in slots]
    if phase == "card":
        return [PlayCard(seat, v) for v in sorted(set(state.players[seat].actions)) if turn.card_allowed(state, v) is None]
    if phase == "combat":
        return [CombatCard(seat, v) for v in sorted(set(state.players[seat].combat))]
    if phase == "place":
        board = board_of(state)
        squares = rooms.free_squares(state, board, state.placement.slot)
        out = [Place(seat, tid, sq) for tid in rooms.placeable_tokens(state) for sq in squares]
        p = state.placement
        if p.placer != p.revealer:
            out.append(PassPlacement(seat))
        return out
    if phase == "main":
        return _main(state, seat)
    return []


def _main(state: GameState, seat: str) -> list:
    board = board_of(state)
    out: list = [EndTurn(seat)]
    for figure in sorted((t for t in state.tokens.values() if t.colour == seat and t.where == "board"
                          and t.is_character), key=lambda t: t.id):
        if figure.wounded:
            if (state.ap > 0 and "regenerate" in state.catalogue.characters[figure.code].abilities
                    and abilities.can_regenerate(state, figure) is None):
                out.append(Regenerate(seat, figure.id))
            continue
        if figure.id in state.exhausted or (state.ap <= 0 and state.pools.get(figure.id, 0) <= 0):
            continue
        out.extend(_figure_actions(state, board, seat, figure))
    return out


def _figure_actions(state: GameState, board, seat: str, figure) -> list:
    cat = state.catalogue
    kind = cat.characters[figure.code]
    out: list = []
    for (dest, take, leave), route in Walker(state, board, figure).outcomes().items():
        out.append(Move(seat, figure.id, dest, take, leave, route))
    if "wallwalk" in kind.abilities:
        out += [WallWalk(seat, figure.id, dest, leave) for dest, leave in moves.wallwalk_options(state, board, figure)]
    if state.players[seat].jumps > 0:
        out += [Jump(seat, figure.id, pit, dest) for pit, dest in moves.jump_options(state, board, figure)]
    out += [Attack(seat, figure.id, t.id) for t in sorted(combat.attack_targets(state, board, figure), key=lambda t: t.id)]
    for place in state.rooms:
        if not place.revealed and rooms.has_access(state, board, figure, place.slot):
            out.append(Reveal(seat, figure.id, place.slot))
    out += [Rotate(seat, figure.id, slot, cw) for slot, cw in rooms.rotation_targets(state, board, figure)]
    if "heal" in kind.abilities:
        out += [Heal(seat, figure.id, t.id) for t in sorted(abilities.heal_targets(state, board, figure), key=lambda t: t.id)]
    out += [Portcullis(seat, figure.id, d, how) for d, how in abilities.portcullis_options(state, board, figure)]
    item = abilities.carried_object(state, figure)
    if item is not None:
        use = cat.objects[item.code].use
        if use == "fireball" and "spellcaster" in kind.abilities:
            out += [Fireball(seat, figure.id, d) for d in DIRECTIONS]
        elif use == "drink":
            out.append(Drink(seat, figure.id))
    return out
