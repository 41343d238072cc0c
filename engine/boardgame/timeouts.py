"""What the rules do when a player's time runs out (BG-OPT-02..04), and which choices are secret."""

from __future__ import annotations

from ..core.clock import Clock
from .actions import Action, CombatCard, EndTurn, PassPlacement, Place, PlayCard
from .board import board_of
from . import rulebook
from .combat import forced_card
from .rooms import free_squares, placeable_tokens
from .state import GameState
from .turn import card_allowed


def secret_purpose(state: GameState, seat: str) -> str | None:
    """The purpose of a pending simultaneous secret choice of `seat` (for commit-reveal), or None."""
    if seat not in state.to_act:
        return None
    if state.phase in ("team", "build"):
        return state.phase  # the starting team (BG-SETUP-04); a free team building (PD-TEAM-FREE-01)
    if state.phase == "combat":
        if state.combat.naming or state.combat_first() is not None:
            return None  # a named value, or cards laid one after the other face up (PD-CHAR-WMASTER-01)
        return f"combat-{state.combat.number}"
    return None


def clock(state: GameState) -> Clock:
    """What a timed table's deadlines follow (BG-OPT-02..04): the turn runs in the card, main and placing phases
    while the active player acts; the opponent placing the revealer's objects has his own deadline."""
    if state.outcome is not None or state.active is None:
        return Clock(None, False)
    p = state.placement
    running = state.phase in ("card", "main") or (state.phase == "place" and p.placer == state.active)
    if state.phase == "place" and p.placer != p.revealer:
        return Clock((state.turn, state.active), running, p.placer, (state.turn, p.slot, p.placer))
    if state.phase != "combat":
        return Clock((state.turn, state.active), running)
    c, purpose = state.combat, f"combat-{state.combat.number}"
    if c.naming:  # PR-CHAR-TELEPATH-01: the Telepath's player names a value, alone
        return Clock((state.turn, state.active), running, combat=purpose, step=(c.telepath, (c.number, "naming")))
    if state.combat_first() is not None:  # PD-CHAR-WMASTER-01: the cards are laid one after the other, face up
        seat = state.to_act[0]
        return Clock((state.turn, state.active), running, combat=purpose, step=(seat, (c.number, "card", seat)))
    return Clock((state.turn, state.active), running, combat=purpose)


def timeout_action(state: GameState, seat: str) -> Action | None:
    """The action the rules take for `seat` when its time runs out; None where the rules name no fallback.

    Turn (BG-OPT-02): the turn ends (if no action card was played yet, the lowest playable card is played
    first, since phase 1 is mandatory: docs/rulings.md DT-012). Combat (BG-OPT-04): the +0. Placing the
    revealer's objects (BG-OPT-03): the opponent passes them to the revealer, who (on his own timeout) places
    each on the first free square. Team choice, free team building and hidden placement: none (the server decides).
    """
    if seat not in state.to_act:
        return None
    for fallback in rulebook.timeouts(state.catalogue.rules):
        action = fallback(state, seat)
        if action is not None:
            return action
    if state.phase == "card":
        return PlayCard(seat, min(v for v in state.players[seat].actions if card_allowed(state, v) is None))
    if state.phase == "main":
        return EndTurn(seat)
    if state.phase == "combat":
        if state.combat.naming:
            return None  # the Telepath's naming: a set's own fallback (engine/prison/telepath.py, DT-108)
        forced = forced_card(state, seat)
        return CombatCard(seat, 0 if forced is None else forced)
    if state.phase == "place":
        p = state.placement
        if p.placer != p.revealer:
            return PassPlacement(seat)
        return Place(seat, placeable_tokens(state)[0], free_squares(state, board_of(state), p.slot)[0])
    return None
