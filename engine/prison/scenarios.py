"""The victory conditions of Prison's introductory scenarios (PR-SCEN-1-06, 2-07, 3-05, 4-06), as data in
prison.json ("setup" -> "victory") read by one rule module: after every action, a scenario whose victory is
immediate ends the game the moment it is met (RUL-013, RUL-064); scenario 5 is the full game's end (BG-END).
"""

from __future__ import annotations

from ..boardgame.context import Ctx
from ..boardgame.rulebook import RuleModule
from ..boardgame.setup import scenario_of
from ..boardgame.state import SEATS
from ..boardgame.turn import finish


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


def after_action(ctx: Ctx) -> None:
    scenario = scenario_of(ctx.s.options)
    if scenario is None or not scenario["victory"].get("immediate"):
        return
    victory = scenario["victory"]
    kind = victory["kind"]
    if kind == "colossus":
        found = colossus(ctx, victory)
        if found is not None:
            finish(ctx, found[1], found[0])  # (a None winner: `draw_otherwise`, PR-SCEN-2-07)
        return
    winner = (all_out(ctx) if kind == "all_out" else eliminations(ctx, victory["count"]) if kind == "eliminations"
              else vp(ctx, victory["target"]))
    if winner is not None:
        finish(ctx, victory["reason"], winner)


MODULE = RuleModule("scenarios", {}, after_action=after_action)
