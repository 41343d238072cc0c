"""DT-239: a Card Game position that can never change again ends the game, the VP deciding as the board game's
BG-END-03/04 do (more VP wins, equal VP is a draw). Dead: at an `end`, the seat ending could do nothing but end
(with an action point left, nothing pinned, wounded, healed or used this turn) and neither can the seat whose turn
begins. One step away from it (a jump card left, an object to pick up, a Troll to regenerate, a friend to heal)
the game goes on. The default maze of builders.py walls a Mechanork in at a3, b2 and c2 and a Snake-man at b2
once his player has no jump card left (CG-JUMP-01); tutorial 1 has no combat card to jump with (CG-JUMP-04)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from dungeon_twister.engine.cards import (CardOptions, EndTurn, Jump, apply, format_action, format_position,
                                          legal_actions, new_game, parse_position, view)
from dungeon_twister.engine.cards import walk
from dungeon_twister.engine.cards.rules import DEAD
from .builders import act, build, refused

WALLED = {"bMK": "a3", "yMK": "c2", "ySN": "b2"}
"""Three characters walled in (no move, rotation zone, portcullis to open, unrevealed room) once no jump is left."""
WOUNDED = {"wounded": True}


def ended(state, seat="B"):
    """The state after `seat` ends its turn, and the `game_over` event's data (None if the game goes on)."""
    after, events = apply(state, EndTurn(seat))
    over = [e.data for e in events if e.kind == "game_over"]
    assert [e.kind for e in events][:1] == ["turn"]
    return after, (over[0] if over else None)


def test_DT_239_CG_TUT1_both_sides_walled_in_end_the_game_the_VP_deciding():
    """Blue has exited his Snake-man (1 VP, CG-EXIT-01); his Mechanork and both yellow characters are walled in and
    no jump card is left: Blue's `end` ends the game, Blue winning 1-0, the reason `nothing can change any more`.
    Nothing is legal after it; an action is refused as after any end (CG-END-01); the views and the position
    notation carry the outcome."""
    state = build({**WALLED, "bSN": "x"}, jumps=(0, 0), vp=(1, 0))
    assert [format_action(a) for a in legal_actions(state)] == ["end"]
    after, over = ended(state)
    assert over == {"winner": "B", "vp": {"B": 1, "Y": 0}, "reason": DEAD} and DEAD == "nothing can change any more"
    assert after.outcome.winner == "B" and after.outcome.vp == (("B", 1), ("Y", 0)) and after.phase == "over"
    assert after.turn == state.turn + 1 and legal_actions(after) == [] and after.to_act == ()
    refused(after, "end", "CG-END-01", "Y")
    assert view(after, "Y")["outcome"] == {"winner": "B", "vp": {"B": 1, "Y": 0}, "reason": DEAD}
    assert parse_position(format_position(after)).outcome == after.outcome


@pytest.mark.parametrize("vp", [(0, 0), (1, 1)])
def test_DT_239_equal_VP_at_a_dead_position_is_a_draw(vp):
    """BG-END-03's shape: equal VP is a draw (winner None), whichever seat's `end` finds it."""
    figures = {**WALLED, "bSN": "b2"} if vp == (0, 0) else {"bMK": "a3", "bSN": "x", "yMK": "c2", "ySN": "x"}
    after, over = ended(build(figures, jumps=(0, 0), vp=vp, active="Y", ap=(0, 3)), "Y")
    assert over == {"winner": None, "vp": {"B": vp[0], "Y": vp[1]}, "reason": DEAD}
    assert after.outcome.winner is None and after.phase == "over"


def test_DT_239_one_jump_card_left_is_not_dead():
    """One step away: the same position, but Yellow holds one jump card. Blue's end does not end the game:
    Yellow may jump a pit (CG-JUMP-01, CG-JUMP-02), out of the walled zone."""
    state = build({**WALLED, "bSN": "x"}, jumps=(0, 1), vp=(1, 0))
    after, over = ended(state)
    assert over is None and after.outcome is None and after.phase == "main"
    assert {"jump yMK c1", "jump ySN b1"} <= {format_action(a) for a in legal_actions(after)}
    jumped = act(after, "jump yMK c1", "Y")
    assert jumped.player("Y").jumps == 0 and len(legal_actions(jumped)) > 1  # out: c1 has ways on


def test_DT_239_an_object_to_pick_up_or_a_key_to_use_is_not_dead():
    """The yellow Key lies by the walled-in Snake-man: he may pick it up (CG-ITEM-04) and open the portcullis
    a2|b2 with it (CG-OBJ-KEY-01), so Blue's end does not end the game."""
    state = build({**WALLED, "bSN": "x"}, {"yKY": "b2"}, jumps=(0, 0), vp=(1, 0))
    after, over = ended(state)
    assert over is None and "move ySN +yKY" in [format_action(a) for a in legal_actions(after)]


def test_DT_239_a_seat_ending_with_an_empty_wheel_is_judged_at_its_next_turn():
    """Blue ends with no action point: what he might do with one is not known from this position (CG-TURN-07), so
    his end ends nothing; Yellow's end, with Blue's 3 new AP and nothing to do, ends the game."""
    state = build({**WALLED, "bSN": "x"}, jumps=(0, 0), vp=(1, 0), ap=(0, 0))
    after, over = ended(state)
    assert over is None and after.active == "Y" and after.player("Y").ap == 3
    last, over = ended(after, "Y")
    assert over == {"winner": "B", "vp": {"B": 1, "Y": 0}, "reason": DEAD} and last.turn == state.turn + 2


def test_DT_239_BG_END_04_nobody_unwounded_left_is_dead():
    """The board game's BG-END-04 case in the Card Game: no character of either side can act (wounded, CG-WOUND-01,
    or gone); it is dead as soon as a turn ends. Yellow leads 1-0 (the blue Colossus eliminated, CG-VP-02)."""
    state = build({"bWA": ("a1", WOUNDED), "bCO": "x", "yWA": ("d4", WOUNDED)}, combat=True, vp=(0, 1))
    after, over = ended(state)
    assert over == {"winner": "Y", "vp": {"B": 0, "Y": 1}, "reason": DEAD}


@pytest.mark.parametrize("figures, extra, rule", [
    ({"bTR": ("a1", WOUNDED)}, {}, "CG-CHAR-TROLL-01"),  # a wounded Troll regenerates
    ({"bCL": "a3", "bWA": ("a3", WOUNDED)}, {"cards": ((0,), (0,)), "jumps": (0, 0)}, "CG-CHAR-CLERIC-01"),
    ({"bCL": "a3"}, {"jumps": (0, 0)}, "CG-JUMP-04"),  # no jump card, but a combat card to jump with
])
def test_DT_239_a_regeneration_a_heal_or_a_combat_card_jump_left_is_not_dead(figures, extra, rule):
    """Blue can still change something (`rule`), though Yellow can only end: Blue's end ends nothing, and
    neither does Yellow's, Blue's turn beginning with that action still legal."""
    state = build({**figures, "yWA": ("d4", WOUNDED)}, combat=True, **extra)
    after, over = ended(state)
    assert over is None and [type(a) for a in legal_actions(after)] == [EndTurn]
    again, over = ended(after, "Y")
    assert over is None and len(legal_actions(again)) > 1
    walled = build({"bCL": "a3", "yWA": ("d4", WOUNDED)}, combat=True, cards=((0,), (0,)), jumps=(0, 0))
    assert ended(walled)[1]["reason"] == DEAD  # the Cleric alone, with only the +0 and no jump card: dead


def test_DT_239_a_tutorial_1_game_of_legal_actions_reaches_the_dead_end():
    """Not only a built position: a tutorial 1 game played from its start by a random player that likes to jump
    (seed 61, 174 actions) exits one Snake-man a side and walls both Mechanorks in with every jump card spent
    (before DT-239 such a game went on for ever): the engine ends it there, a draw 1-1. (Seed 51 played such a game
    in 433 actions until the setup's facings became icons, DT-266; seed 61 is the first of 0 to 61 that ends so
    now.)"""
    rng, state, steps = random.Random(61), new_game(CardOptions(1), 61), 0
    while state.outcome is None and steps < 600:
        acts = list(legal_actions(state))
        jumps = [a for a in acts if isinstance(a, Jump)]
        state, _ = apply(state, rng.choice(jumps) if jumps and rng.random() < 0.7 else rng.choice(acts))
        steps += 1
    assert state.outcome is not None and state.outcome.reason == DEAD, (steps, state.outcome)
    assert [p.jumps for p in state.players] == [0, 0] and steps == 174
    assert (state.outcome.winner, state.outcome.vp) == (None, (("B", 1), ("Y", 1)))
    assert {f.id: f.where for f in state.figures} == {"bMK": "maze", "bSN": "exited", "yMK": "maze", "ySN": "exited"}


def test_DT_239_an_end_with_a_move_left_stops_the_move_search_at_the_first_move(monkeypatch):
    """DT-239's test at an `end` with an action point left asks whether the seat could do anything else: the first
    move found answers it, so the move search stops there (`_paths(..., probe=True)`). The
    heaviest position of docs/scaling.md (5,773 legal actions, its Elemental's moves 3,208; Blue ends with 2 AP
    left): ending the turn lists the exchange tokens of one place, where listing the Elemental's moves lists those
    of 152 sets of cards met at a place (each list of exchange tokens counted: `_tokens_at`, kept by the cards there
    and the mover's), and the game goes on."""
    entry = json.loads((Path(__file__).parent / "data" / "exchanges.json").read_text())[0]
    state = parse_position(entry["position"])
    asked = []
    tokens_at = walk._tokens_at
    monkeypatch.setattr(walk, "_tokens_at", lambda *args: asked.append(args) or tokens_at(*args))
    assert state.player("B").ap == 2 and state.to_act == ("B",)
    after, over = ended(state)
    assert over is None and after.active == "Y"
    assert len(asked) == 1
    asked.clear()
    assert len(list(walk._paths(state, state.fig("bEL")))) == 3208 and len(asked) == 152
