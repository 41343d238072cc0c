"""`apply(state, action) -> (state, events)`: validate, apply to a copy, check the golden rules."""

from __future__ import annotations

from . import rulebook, turn
from .context import Ctx
from ..core.errors import IllegalAction
from ..core.events import Event
from .state import SEATS, GameState

_WAITING_RULE = {"draft": "PD-TEAM-MUTUAL-01", "build": "PD-TEAM-FREE-01",
                 "team": "BG-SETUP-04", "hide": "BG-SETUP-05", "card": "BG-TURN-01", "main": "BG-TURN-01",
                 "combat": "BG-COMBAT-02", "place": "BG-REVEAL-06"}


def waiting_refusal(state: GameState, seat: str) -> IllegalAction | None:
    """Why `seat` may do nothing now, if it is not to act: the rule of the phase that waits for the other, and
    what it waits for where "not your turn" would puzzle the seat whose turn it is (a play-test: refused "it is not
    your turn to act" in his own turn, while his opponent placed his objects from a room he had revealed)."""
    if seat in state.to_act:
        return None
    if state.phase == "place":
        return IllegalAction("BG-REVEAL-06", "wait: the other player places tokens of the revealed room")
    if state.phase == "combat":
        return IllegalAction("BG-COMBAT-02", "wait for the other player in this combat")
    return IllegalAction(_WAITING_RULE[state.phase], "it is not your turn to act")


def _shown(action) -> str:
    """`action`'s verb (`teleport`), as the notation writes it, else the action as Python shows it."""
    try:
        return action.verb
    except (AttributeError, KeyError):  # (an action no set's notation knows)
        return repr(action)


def apply(state: GameState, action) -> tuple[GameState, tuple[Event, ...]]:
    """Apply a legal action; raise IllegalAction (naming the rule) and leave `state` untouched otherwise."""
    if state.outcome is not None:
        raise IllegalAction("BG-END-02", "the game is over")
    handler = rulebook.handlers(state.options.catalogue.rules).get(type(action))
    if handler is None:  # (a record's `teleport` in a game without Paladins & Dragons: rp33 read its Python repr)
        raise IllegalAction("BG-AP-01", "{action}: no action of this game's sets", action=_shown(action))
    if action.seat not in SEATS:
        raise IllegalAction("BG-COMP-01", "unknown seat {seat}", seat=repr(action.seat))
    refusal = waiting_refusal(state, action.seat)
    if refusal is not None:
        raise refusal
    ctx = Ctx(state)
    handler(ctx, action)
    ctx.check_golden_rules()
    for hook in rulebook.after_action(state.options.catalogue.rules):
        if ctx.s.outcome is None:
            hook(ctx)
    s = ctx.s
    if s.phase in ("card", "main") and turn.nobody_can_score(s, rulebook.rises(s.catalogue.rules), ctx.board):
        turn.finish(ctx, "nobody can score any more")
    return ctx.sealed(), tuple(ctx.events)
