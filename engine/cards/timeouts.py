"""The card game's fallbacks when a player's time runs out (CG-OPT-01, CG-OPT-02), and for a secret choice the
server must stand in for (a reveal that never came, docs/rulings.md DT-050)."""

from __future__ import annotations

from ..core.clock import Clock
from .actions import CombatCard, EndTurn, PassPlacement
from .rules import legal_actions
from .state import CardState


def clock(state: CardState) -> Clock:
    """What a timed card table's deadlines follow: the turn's 2 minutes (CG-OPT-01) run while the active player
    acts (his main phase, or placing a revealed room's cards); the opponent placing the revealer's objects has 5
    seconds (CG-OPT-02), as has a player whose opponent has laid his combat card."""
    if state.outcome is not None or state.active is None or state.phase not in ("main", "place", "combat"):
        return Clock(None, False)
    turn = (state.turn, state.active)
    if state.phase == "place":
        placer = state.placement.placers[0]
        if placer != state.active:
            return Clock(turn, False, placer, (state.turn, state.placement.slot, placer))
        return Clock(turn, True)
    if state.phase == "main":
        return Clock(turn, True)
    c, purpose = state.combat, f"combat-{state.combat.number}"
    if c.announcing is not None or c.naming is not None or c.first is not None:
        # CG-CHAR-BERSERK-01, CG-CHAR-TELEPATH-01, CG-CHAR-WMASTER-01: one seat acts alone, in the open
        seat = state.to_act[0]
        kind = "frenzy" if c.announcing is not None else "naming" if c.naming is not None else "card"
        return Clock(turn, False, combat=purpose, step=(seat, (c.number, kind, seat)))
    return Clock(turn, False, combat=purpose)


def timeout_action(state: CardState, seat: str):
    """The action the rules take for `seat` when its time runs out; None where they name none (the start
    characters' hiding and facing: the server takes the first legal choice).

    Turn (CG-OPT-01): the turn stops (the AP beyond 3 are lost, CG-TURN-05, as at any end of turn). Combat
    (CG-OPT-02): the +0 is deemed played; a hand without it lays its lowest card; the Berserker's announcement
    and the Telepath's naming, the first offered (one card; nothing named). Placing the revealed room's cards
    (CG-OPT-02): the opponent leaves the revealer's objects to him (`pass`); the revealer, the first free zone."""
    if seat not in state.to_act or state.phase in ("hide", "face"):
        return None
    if state.phase == "main":
        return EndTurn(seat)
    offered = legal_actions(state, seat)
    if state.phase == "combat":
        zero = CombatCard(seat, 0)
        if zero in offered:
            return zero
    if PassPlacement(seat) in offered:
        return PassPlacement(seat)
    return offered[0] if offered else None
