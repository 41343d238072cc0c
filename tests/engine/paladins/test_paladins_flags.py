"""The ruleset-flag table of ../shared/rules/rulings.md, Paladins & Dragons' column (the base set's rule, "BG / P&D"):
the same situation under Paladins & Dragons, its mixes, and Prison where Prison differs (docs/rulings.md DT-119)."""

from __future__ import annotations

import pytest

from dungeon_twister.engine import Options, new_game
from dungeon_twister.engine.boardgame.catalogue import load

from ..builders import act, legal_set, where
from .builders import pd_position

HIDDEN = "A1=*O1/0 B1=*O2/0 A2=*P1/0 B2=*P2/0 A3=*W1/0 B3=*W2/0 A4=*Q1/0 B4=*Q2/0"


def test_RUL_004_start_zone_reveal_scope_both_rooms_as_in_the_base_set():
    """A figure on its start zone reveals either room touching it (BG-REVEAL-03); Prison would allow only the room
    in front (PR-CORE-05). The mixes keep the base set's rule."""
    state = pd_position("bES@b0 yGB@b21", rooms=HIDDEN)
    assert legal_set(state, verb="reveal") == {"reveal bES A1", "reveal bES B1"}
    for name in ("paladins", "base_paladins", "prison_paladins", "all_sets"):
        assert load(name).flag("reveal_from_start_zone") == "both", name
    assert load("prison").flag("reveal_from_start_zone") == "nearest"


@pytest.mark.parametrize("name", ["paladins", "all_sets"])
def test_BG_OPT_06_vp_targets_5_to_8_where_prison_alone_stops_at_7(name):
    assert new_game(Options(target_vp=8, set_name=name), seed=1).options.target_vp == 8
    with pytest.raises(ValueError, match="PR-OPT-02"):
        new_game(Options(target_vp=8, set_name="prison"), seed=1)


def test_RUL_013_victory_timing_the_turn_is_finished():
    """Blue has 3 VP (three Yellow characters eliminated); the Elf Scout carries the Treasure out: 5 VP in the middle
    of Blue's turn, and the game ends only when the turn does (BG-END-01), not at once as in Prison's scenarios."""
    near = pd_position("bES@c20 bTS@c20 yGB@h4 yPA>eliminated yPP>eliminated yWM>eliminated", ap=3)
    assert near.vp("B") == 3
    out = act(near, "move bES c21")
    assert out.vp("B") == 5 and out.outcome is None and out.ap == 2
    over = act(out, "end")
    assert over.outcome.winner == "B" and over.outcome.reason == "target reached"


def test_treasure_and_goblin_score_in_a_mix_with_the_base_set():
    """The Treasure carried out scores (BG-VP-03) in Paladins & Dragons; the Goblin's exit is worth 2 VP in a mix
    with the base set (BG-VP-02), where Prison alone has neither (PR-CORE-19)."""
    assert load("paladins").objects["TS"].exit_vp == 1
    assert load("all_sets").characters["GB"].exit_vp == 2
    assert "GB" not in load("prison").characters and "TS" not in load("prison").objects


def test_BG_PIT_01_rope_on_a_pit_a_figure_may_stand_there():
    state = pd_position("bPP@b8 bRP@b8 yGB@h4")
    assert where(act(state, "move bPP c8"), "bPP") == "c8"
