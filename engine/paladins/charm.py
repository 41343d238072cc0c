"""The Charm Scroll (PD-OBJ-CHARM-01..08, RUL-085): a magic user (ability "magic_user" or "spellcaster") carrying it
takes control, for 1 AP, of one unwounded enemy figure in the same room (no line of sight needed, never one in fog);
the scroll is discarded. Until the end of the turn its player may make that figure take up to 3 actions from a pool
of its own (`GameState.pools`, the charmed figure's id), alternating with his other actions; the figure keeps its
colour (its exits and its death score as usual, PD-OBJ-CHARM-06) and the charming player spends his own jump cards
(PD-OBJ-CHARM-05). `GameState.marks` holds "control:<seat>:<figure>" -> the charmed figure while it lasts (one
entry per figure: a second scroll read in the same turn charms a second figure, and the first keeps its actions);
`Ctx.actor` and `legal_actions` let the seat act with it, from its pool only.

The charmed figure may attack characters not of its colour, i.e. its controller's own, its owner playing its card
(PD-OBJ-CHARM-04/05, DT-117: a combat's attacking seat is its attacker's colour, `combat.attacking_seat`).

Notation: `charm bIL yWA` (the magic user, then the enemy figure).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..boardgame.abilities import carried_use
from ..boardgame.actions import Action
from ..boardgame.context import Ctx
from ..boardgame.notation import register_action
from ..boardgame.rulebook import RuleModule
from ..boardgame.state import GameState, Token
from ..core.errors import IllegalAction


@dataclass(frozen=True, slots=True)
class Charm(Action):
    """PD-OBJ-CHARM-01: the magic user `token` charms the enemy figure `target` with a Charm Scroll."""

    token: str
    target: str


def _magic_user(state: GameState, figure: Token) -> bool:
    abilities = state.catalogue.characters[figure.code].abilities
    return "magic_user" in abilities or "spellcaster" in abilities  # PD-GLOS-01: the Wizard and the Illusionist


def _scroll(state: GameState, figure: Token) -> Token | None:
    return carried_use(state, figure, "charm")


def targets(state: GameState, board, figure: Token) -> list[Token]:
    slot = board.slot_of(figure.square)
    if slot is None:
        return []
    fog = board.terrain_of("fog")
    return sorted((t for t in state.tokens.values() if t.where == "board" and t.is_figure
                   and t.colour != figure.colour and board.slot_of(t.square) == slot and t.square not in fog),
                  key=lambda t: t.id)


def charm(ctx: Ctx, action: Charm) -> None:
    s = ctx.s
    figure = ctx.token(action.token)
    if not figure.is_character or figure.where != "board" or _scroll(s, figure) is None:
        raise IllegalAction("PD-OBJ-CHARM-01", "{token} carries no Charm Scroll", token=action.token)
    if not _magic_user(s, figure):
        raise IllegalAction("PD-OBJ-CHARM-01", "only a magic user reads a Charm Scroll, not {figure}",
                            figure=figure.id)
    if figure.colour != action.seat:
        raise IllegalAction("PD-OBJ-CHARM-01", "{figure} is not yours", figure=figure.id)
    scroll = _scroll(s, figure)
    ctx.actor(action.seat, action.token, rule="PD-OBJ-CHARM-01", wounded_rule="BG-ABIL-04")
    target = ctx.token(action.target)
    if target.where == "board" and target.is_character and target.wounded:
        raise IllegalAction("PD-OBJ-CHARM-08", "{target} is wounded: a wounded character cannot be charmed",
                            target=target.id)
    if target.id not in {t.id for t in targets(s, ctx.board, figure)}:
        if target.where == "board" and target.square in ctx.board.terrain_of("fog"):
            raise IllegalAction("PD-TERR-FOG-01", "{target} stands in fog and cannot be targeted", target=target.id)
        raise IllegalAction("PD-OBJ-CHARM-01", "{target} is not an enemy figure in {figure}'s room", target=target.id,
                            figure=figure.id)
    ctx.put(scroll.moved(where="discarded", square=None))
    s.marks[f"control:{action.seat}:{target.id}"] = target.id
    actions = s.catalogue.objects[scroll.code].control_actions  # PD-OBJ-CHARM-02: 3 (the data)
    s.pools[target.id] = actions
    ctx.emit("charmed", by=figure.id, target=target.id, actions=actions)


def release(ctx: Ctx) -> None:
    """After any action: the control ends with the charming player's turn, or when the figure is no longer an
    unwounded figure on the board."""
    s = ctx.s
    for name in [n for n in s.marks if n.startswith("control:")]:
        seat, target = name.split(":")[1], s.tokens[s.marks[name]]
        if s.active != seat or s.phase == "card" or not target.is_figure:
            del s.marks[name]
            s.pools.pop(target.id, None)
            ctx.emit("charm_ended", target=target.id)


def figure_actions(state: GameState, board, seat: str, figure: Token) -> list:
    if figure.colour != seat or _scroll(state, figure) is None or not _magic_user(state, figure):
        return []
    return [Charm(seat, figure.id, t.id) for t in targets(state, board, figure)]


register_action(Charm, {"charm": lambda w, seat: Charm(seat, w.token(seat), w.token())},
                lambda a: f"charm {a.token} {a.target}",
                (frozenset({"magic_user", "use:charm"}), frozenset({"spellcaster", "use:charm"})))  # PD-GLOS-01

MODULE = RuleModule("charm", {Charm: charm}, figure_actions, reach_only=False, after_action=release)

__all__ = ["Charm", "MODULE"]
