"""The victory conditions of Prison's introductory scenarios (PR-SCEN-1-06, 2-07, 3-05, 4-06), as data in
prison.json ("setup" -> "victory") read by one rule module: after every action, a scenario whose victory is
immediate ends the game the moment it is met (RUL-013, RUL-064); scenario 5 is the full game's end (BG-END).
"""

from __future__ import annotations

from ..boardgame.context import Ctx
from ..boardgame.rulebook import RuleModule
from ..boardgame.setup import scenario_of, victory_rule
from ..boardgame.state import SEATS, GameState
from ..boardgame.turn import finish
from ..core.errors import PositionError


def all_out(ctx: Ctx) -> str | None:
    """PR-SCEN-1-06: the first player whose figures have all left through the opponent's start zone."""
    for seat in SEATS:
        mine = [t for t in ctx.s.tokens.values() if t.colour == seat and t.is_character and t.where != "unused"]
        if mine and all(t.where == "exited" for t in mine):
            return seat
    return None


def vp(ctx: Ctx, target: int) -> str | None:
    """PR-SCEN-4-06 (RUL-064): the first to reach the target, at once. Both at once (a fireball, say): the one
    with more, and on equal VP nobody yet (the game goes on)."""
    scores = {seat: ctx.s.vp(seat) for seat in SEATS}
    reached = [seat for seat in SEATS if scores[seat] >= target]
    if len(reached) == 1:
        return reached[0]
    if len(reached) == 2 and scores["B"] != scores["Y"]:
        return max(scores, key=scores.get)
    return None


def colossus(ctx: Ctx, victory: dict) -> tuple[str, str] | None:
    """PR-SCEN-2-07 (RUL-062): the Colossus's side wins when he leaves through the opponent's start zone unwounded,
    the other side when he is eliminated; a wounded Colossus carried out is saved, not exited, and can do neither
    any more: a draw (winner None), at once."""
    seat = victory["seat"]
    token = ctx.s.tokens[seat.lower() + victory["code"]]
    if token.where == "exited":
        return seat, victory["reason"]
    if token.where == "eliminated":
        return ("B" if seat == "Y" else "Y"), victory["reason_eliminated"]
    if token.where == "saved":
        return None, victory["reason_saved"]
    return None


def eliminations(ctx: Ctx, count: int) -> str | None:
    """PR-SCEN-3-05: the first to eliminate `count` enemy characters (RUL-012: whatever the cause)."""
    for seat in SEATS:
        if sum(1 for t in ctx.s.tokens.values() if t.is_character and t.colour != seat
               and t.where == "eliminated") >= count:
            return seat
    return None


def ended(ctx: Ctx, victory: dict) -> tuple[str | None, str] | None:
    """(winner, reason) if the scenario's immediate victory condition is met in this position, else None (a None
    winner: `draw_otherwise`, PR-SCEN-2-07)."""
    kind = victory["kind"]
    if kind == "colossus":
        return colossus(ctx, victory)
    winner = (all_out(ctx) if kind == "all_out" else eliminations(ctx, victory["count"]) if kind == "eliminations"
              else vp(ctx, victory["target"]))
    return None if winner is None else (winner, victory["reason"])


def reasons(victory: dict) -> set[str]:
    """The reasons the scenario's own end gives (its victory, and scenario 2's elimination and draw)."""
    return {victory[key] for key in ("reason", "reason_eliminated", "reason_saved") if key in victory}


def after_action(ctx: Ctx) -> None:
    scenario = scenario_of(ctx.s.options)
    if scenario is None or not scenario["victory"].get("immediate"):
        return
    found = ended(ctx, scenario["victory"])
    if found is not None:
        finish(ctx, found[1], found[0])


def position_check(state: GameState) -> None:
    """A written position of a scenario that ends at once (RUL-064) is over exactly when, and as, its condition says
    (DT-269: `after_action` checks it after every action): the `over` field names that result, and no end of the
    scenario's kind is written where the condition does not hold. (Another end, BG-END-04's, is the family's.)"""
    scenario = scenario_of(state.options)
    if scenario is None or not scenario["victory"].get("immediate"):
        return
    victory, o = scenario["victory"], state.outcome
    found = ended(Ctx(state), victory)
    rule = victory_rule(victory)
    if found is None:
        if o is not None and o.reason in reasons(victory):
            raise PositionError(rule, "over", f"{o.reason}: not so in this position")
        return
    winner, reason = found
    result = f"{winner} wins" if winner else "a draw"
    if o is None:
        raise PositionError(rule, "over", f"the game ended: {result}, {reason}")
    if (o.winner, o.reason) != found:
        raise PositionError(rule, "over", f"the game ended as {result}, {reason}")


MODULE = RuleModule("scenarios", {}, after_action=after_action, position_check=position_check)
