"""The Telepath's Mind control (PR-CHAR-TELEPATH-01..04): in a single melee, before the cards, his player may name
a combat value other than +0; the opponent must play it if he holds it, else shows him his whole combat hand and
plays what he likes. The naming is a public step (not a secret choice); the cards that follow are committed and
revealed as in every combat (DT-108).

Notation: `mind +3` (name +3) or `mind none` (name nothing).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..boardgame.actions import Action
from ..boardgame.context import Ctx
from ..boardgame.notation import Words, any_of, register_action
from ..boardgame.rulebook import RuleModule
from ..boardgame.state import GameState, opponent
from ..core.errors import N_, IllegalAction
from ..core.events import secret_event

VALUES = (1, 2, 3, 4, 5, 6)  # "a combat value other than +0" (PR-CHAR-TELEPATH-01)


@dataclass(frozen=True, slots=True)
class MindControl(Action):
    """PR-CHAR-TELEPATH-01: the value named (None: the player names nothing, as he may)."""

    value: int | None


def name(ctx: Ctx, action: MindControl) -> None:
    s = ctx.s
    c = s.combat
    if s.phase != "combat" or not c.naming:
        raise IllegalAction("PR-CHAR-TELEPATH-01", "no Telepath is naming a card now")
    if action.seat != c.telepath:
        raise IllegalAction("PR-CHAR-TELEPATH-01", "only the Telepath's player names a card")
    if action.value is not None and action.value not in VALUES:
        raise IllegalAction("PR-CHAR-TELEPATH-01", "name a combat value from +1 to +6 (or none)")
    s.combat = replace(c, naming=False, named=action.value)
    other = opponent(action.seat)
    if action.value is None:
        ctx.emit("mind_named", seat=action.seat, value=None)
        return
    hand = s.players[other].combat
    held = action.value in hand
    public = {"seat": action.seat, "value": action.value, "held": held}
    if held:
        ctx.emit("mind_named", **public)
    else:  # PR-CHAR-TELEPATH-02: the whole hand, shown to the Telepath's player only
        ctx.events.append(secret_event("mind_named", action.seat, {**public, "hand": list(hand)}, public))


def seat_actions(state: GameState, seat: str) -> list:
    c = state.combat
    if state.phase != "combat" or not c.naming or seat != c.telepath:
        return []
    return [MindControl(seat, None), *(MindControl(seat, v) for v in VALUES)]


def timeout(state: GameState, seat: str):
    """DT-108: a Telepath's player whose time runs out names nothing."""
    c = state.combat
    if state.phase == "combat" and c.naming and seat == c.telepath:
        return MindControl(seat, None)
    return None


def _parse(w: Words, seat: str) -> MindControl:
    word = w.next(N_("missing +1..+6 or none"))
    if word == "none":
        return MindControl(seat, None)
    if not (len(word) == 2 and word[0] == "+" and word[1] in "123456"):
        raise w.fail("expected +1..+6 or none, got {word}", w.i - 1, word=repr(word))
    return MindControl(seat, int(word[1]))


register_action(MindControl, {"mind": _parse},
                lambda a: "mind none" if a.value is None else f"mind +{a.value}", any_of("mind_control"))

MODULE = RuleModule("telepath", {MindControl: name}, seat_actions=seat_actions, timeout=timeout)
