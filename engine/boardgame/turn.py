"""Turns, action cards and the end of the game (BG-TURN, BG-ACT, BG-END)."""

from __future__ import annotations

from .actions import EndTurn, PlayCard
from .board import board_of
from .context import Ctx
from ..core.errors import IllegalAction
from .state import SEATS, GameState, Outcome, Player, opponent


def card_allowed(state: GameState, value: int) -> str | None:
    """The rule that forbids playing this action card now, or None (BG-TURN-02, BG-ACT-01..03)."""
    if value not in state.players[state.active].actions:
        return "BG-TURN-02"
    if not state.four_played and value > state.high_card + 1:
        return "BG-ACT-01" if state.high_card == 1 else "BG-ACT-02"
    return None


def play_card(ctx: Ctx, action: PlayCard) -> None:
    s = ctx.s
    if action.seat != s.active:  # (he acts in the other's turn: a combat card, what he found: play-test pl31 F4)
        raise IllegalAction("BG-TURN-02", "it is not your turn: you play an action card at the start of your own")
    if s.phase != "card":
        raise IllegalAction("BG-TURN-02", "you play an action card only at the start of your turn")
    rule = card_allowed(s, action.value)
    if rule == "BG-TURN-02":
        raise IllegalAction(rule, "you have no {value} action card in hand", value=action.value)
    if rule:
        limit = s.high_card + 1
        raise IllegalAction(rule, "during the first cycle you may play at most a {limit}", limit=limit)
    player = s.players[action.seat]
    hand = list(player.actions)
    hand.remove(action.value)
    s.players[action.seat] = Player(tuple(hand), player.played + (action.value,), player.combat, player.jumps)
    s.high_card = max(s.high_card, action.value)
    s.four_played = s.four_played or action.value == 4
    s.ap = action.value
    s.phase = "main"
    ctx.emit("card_played", seat=action.seat, value=action.value)


def end_turn(ctx: Ctx, action: EndTurn) -> None:
    s = ctx.s
    if s.phase in ("combat", "place"):
        raise IllegalAction("BG-GOLD-01", "finish the pending combat or placement first")
    if s.phase != "main" or action.seat != s.active:
        raise IllegalAction("BG-TURN-01", "you can end your turn only after playing an action card")
    player = s.players[action.seat]
    if not player.actions:  # BG-TURN-05: the cycle is complete
        s.players[action.seat] = Player(tuple(sorted(player.played)), (), player.combat, player.jumps)
        ctx.emit("cards_recovered", seat=action.seat)
    ctx.emit("turn_ended", turn=s.turn, seat=action.seat)
    if any(s.vp(seat) >= s.options.target_vp for seat in SEATS):
        finish(ctx, "target reached")
        return
    s.turn += 1
    s.active = opponent(s.active)
    s.ap = 0
    s.pools = {}
    s.acted = frozenset()
    s.exhausted = frozenset()
    s.phase = "card"
    ctx.emit("turn_started", turn=s.turn, seat=s.active)


def nobody_can_score(state: GameState, rises: tuple = (), board=None) -> bool:
    """BG-END-04 (RUL-013): no figure of either colour, and no wounded character that could stand up by its own
    player's action (`rises`: the rule modules' tests, e.g. a Troll's regeneration, a Fountain of Youth beside it).
    (`board`: the state's, if the caller has it.)"""
    wounded = []
    for t in state.tokens.values():
        if t.where != "board" or not t.is_character:
            continue
        if not t.wounded:
            return False
        wounded.append(t)
    if wounded and rises:
        board = board if board is not None else board_of(state)
        return not any(rise(state, board, t) for t in wounded for rise in rises)
    return True


def finish(ctx: Ctx, reason: str, winner: str | None = None) -> None:
    """BG-END-02/03: the player with more VP wins; equal VP is a draw. A scenario's victory condition names its
    `winner` (PR-SCEN)."""
    s = ctx.s
    vp = {seat: s.vp(seat) for seat in SEATS}
    scenario = s.options.catalogue.scenarios.get(s.options.scenario) if s.options.scenario else None
    if winner is None and not (scenario and scenario["victory"].get("draw_otherwise")):  # PR-SCEN-2-07: a draw
        winner = None if vp["B"] == vp["Y"] else max(vp, key=vp.get)
    s.outcome = Outcome(winner, tuple(sorted(vp.items())), reason)
    s.phase = "over"
    s.combat = None
    s.placement = None
    ctx.emit("game_over", winner=winner, vp=vp, reason=reason)
