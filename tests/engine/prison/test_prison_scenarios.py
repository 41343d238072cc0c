"""Prison's introductory scenarios 1, 4 and 5 and Prison's setup rules (PR-SCEN-1-01..06, PR-SCEN-4-01..06,
PR-SCEN-5-01..04, PR-SETUP-01..04, PR-CORE-19, PR-OPT-02). Scenarios 2 and 3 are refused as not playable yet.
The scenarios' data: engine/prison/data/prison.json ("setup")."""

from __future__ import annotations

from collections import Counter

import pytest

from dungeon_twister.engine import (ChooseTeam, IllegalAction, Options, apply, format_position, legal_actions,
                                    new_game, parse_action, parse_position, view)
from dungeon_twister.engine.boardgame.catalogue import load
from dungeon_twister.engine.boardgame.setup import capacity, marked_squares
from dungeon_twister.engine.core.rng import Rng
from dungeon_twister.engine.tools.selfplay import play_game

from ..builders import act, assert_refused, legal_set, where

PRISON = load("prison")
S1 = Options(set_name="prison", scenario="prison-1")
S4 = Options(target_vp=4, set_name="prison", scenario="prison-4")
S5 = Options(set_name="prison", scenario="prison-5")


def until_phase(state, phase: str, seed: int = 1):
    rng = Rng(seed)
    while state.phase != phase:
        state, _ = apply(state, rng.choice(legal_actions(state)))
    return state


def scenario_position(scenario: str, tokens: str, header: str = "vp=5", rooms: str = "", turn: str = "") -> object:
    """A position of a scenario: the tokens given, every token the scenario does not use written >unused."""
    data = PRISON.scenarios[scenario]
    used = {seat.lower() + code for seat in "BY" for code in (*data["characters"][seat], *data["objects"][seat])}
    unused = [f"{c}{code}>unused" for c in "by" for code in (*PRISON.characters, *PRISON.objects)
              if c + code not in used]
    cards = data["cards"]
    hand = "".join(map(str, cards["action"]))
    combat = "".join(map(str, cards["combat"])) or "-"
    return parse_position(
        f"DT1 prison {header} scenario={scenario} ; rooms {rooms} ; ports - ; tokens {tokens} {' '.join(unused)} ; "
        f"cards B:{hand}/-/{combat}/{cards['jumps']} Y:{hand}/-/{combat}/{cards['jumps']} ; "
        + (turn or "turn 5 B main ap=5 high=5 four=1 first=B placer=- combats=0"))


S1_ROOMS = "A1=39G/0 B1=39D/0 A2=40G/0 B2=40D/0"
S4_ROOMS = "A1=37G/0 B1=37D/0 A2=38G/0 B2=38D/0 A3=40G/0 B3=40D/0"


# --- scenario 1 -----------------------------------------------------------------------------------------------
def test_PR_SCEN_1_01_02_rooms_39_and_40_in_a_2x2_maze_and_the_scenarios_components():
    state = new_game(S1, 7)
    assert state.rows == 2 and sorted({PRISON.rooms[p.tile].number for p in state.rooms}) == [39, 39, 40, 40][::2]
    assert len(state.rooms) == 4
    playing = sorted(t.id for t in state.tokens.values() if t.where != "unused")
    assert playing == ["bKY", "bMK", "bNG", "bRP", "yKY", "yMK", "yNG", "yRP"]
    for seat in "BY":
        p = state.players[seat]
        assert (p.actions, p.combat, p.jumps) == ((2, 3, 4, 5), (), 1)


def test_PR_SCEN_1_03_PR_SETUP_04_two_characters_on_any_two_marked_squares():
    state = new_game(S1, 7)
    teams = [a for a in legal_actions(state, "B") if isinstance(a, ChooseTeam)]
    assert len(teams) == 6 * 2  # 2 of the 4 marked squares, and which character goes on which
    marked = marked_squares(state, "B")
    assert {sq for a in teams for sq, _ in a.team} == set(marked)
    assert_refused(state, "team b0=MK d0=NG g0=MK", "PR-SETUP-04", seat="B")
    assert_refused(state, "team a0=MK d0=NG", "PR-SETUP-04", seat="B")  # a0 is not a marked square
    after = act(state, "team b0=MK i0=NG", seat="B")
    assert after.phase == "team" and after.to_act == ("Y",)


def test_PR_SCEN_1_04_PR_SETUP_01_02_03_objects_only_one_per_room_random_first_seeder():
    state = until_phase(new_game(S1, 7), "hide")
    assert all(capacity(state, p.slot) == 1 for p in state.rooms)
    seat = state.placer
    token = sorted(t.id for t in state.tokens.values() if t.colour == seat and t.where == "screen")[0]
    after = act(state, f"hide {token} A1", seat=seat)
    other = after.placer
    other_token = sorted(t.id for t in after.tokens.values() if t.colour == other and t.where == "screen")[0]
    assert_refused(after, f"hide {other_token} A1", "PR-SETUP-01", seat=other)
    assert {new_game(S1, seed).placer for seed in range(12)} == {"B", "Y"}  # PR-SETUP-03: a draw
    assert {new_game(S1, seed).first_player for seed in range(12)} == {"B", "Y"}  # PR-SCEN-1-04: a new draw
    ended = until_phase(new_game(S1, 7), "card")
    assert Counter(t.room for t in ended.tokens.values() if t.where == "room") == Counter(
        {p.slot: 1 for p in ended.rooms}), "4 objects in 4 rooms, one each"


def test_PR_SETUP_02_a_room_marked_for_objects_takes_no_character():
    """In scenario 1 every character starts on the start zone, so the marking can only be shown on a position:
    a character behind its screen is refused from an objects-only room."""
    state = scenario_position("prison-1", "bNG@b0? yMK@b11? yNG@d11?", rooms=S1_ROOMS.replace("=", "=*", 4),
                              turn="turn 0 - hide ap=0 high=1 four=0 first=B placer=B combats=0")
    assert_refused(state, "hide bMK A1", "PR-SETUP-02", seat="B")


def test_PR_SCEN_1_05_no_combat():
    state = scenario_position("prison-1", "bMK@c4 yNG@c5", rooms=S1_ROOMS)
    assert not legal_set(state, verb="attack")
    assert_refused(state, "attack bMK yNG", "PR-SCEN-1-05")


def test_PR_SCEN_1_06_both_figures_out_wins_at_once():
    """Blue's Naga is out; his Mechanork steps onto Yellow's start zone (rank 11 in a 2 x 2 maze): Blue wins that
    moment, in the middle of his turn, whatever the VP."""
    state = scenario_position("prison-1", "bNG>exited bMK@c10 yNG@h5 yMK>exited", rooms=S1_ROOMS)
    after = act(state, "move bMK c11")
    assert after.phase == "over" and after.outcome.winner == "B"
    assert after.outcome.reason == "both figures out (PR-SCEN-1-06)" and dict(after.outcome.vp) == {"B": 2, "Y": 1}
    assert parse_position(format_position(after)) == after
    one_left = act(scenario_position("prison-1", "bNG@a1 bMK@c10 yNG@h5 yMK@h6", rooms=S1_ROOMS), "move bMK c11")
    assert one_left.outcome is None


# --- scenario 4 -----------------------------------------------------------------------------------------------
def test_PR_SCEN_4_01_02_03_rooms_37_38_40_as_2x3_six_characters_four_start():
    state = new_game(S4, 3)
    assert state.rows == 3 and sorted({PRISON.rooms[p.tile].number for p in state.rooms}) == [37, 38, 40]
    mine = sorted(t.code for t in state.tokens.values() if t.colour == "B" and t.where != "unused")
    assert mine == sorted(["TP", "WZ", "CO", "CL", "MK", "AS", "BW", "SH", "RP", "FS"])
    assert all(len(a.team) == 4 for a in legal_actions(state, "B"))
    assert len(legal_actions(state, "B")) == 6 * 5 * 4 * 3  # 4 of the 6 characters on the 4 marked squares


def test_PR_SCEN_4_04_every_room_ends_with_exactly_2_tokens():
    state = until_phase(new_game(S4, 3), "card")
    assert Counter(t.room for t in state.tokens.values() if t.where == "room") == Counter(
        {p.slot: 2 for p in state.rooms})


def test_PR_SCEN_4_05_06_the_first_to_4_vp_wins_at_once():
    """Blue has 3 VP (3 Yellow characters eliminated) and takes his Wizard out: 4 VP, the game ends at once."""
    tokens = "yTP>eliminated yWZ>eliminated yCO>eliminated bWZ@c14 yMK@h5 bCO@a1"
    state = scenario_position("prison-4", tokens, header="vp=4", rooms=S4_ROOMS)
    after = act(state, "move bWZ c16")
    assert (after.phase, after.outcome.winner, after.outcome.reason) == ("over", "B", "4 VP reached (PR-SCEN-4-06)")
    assert after.vp("B") == 4


# --- scenario 5 and the options ---------------------------------------------------------------------------------
def test_PR_SCEN_5_01_02_03_04_the_full_game():
    state = new_game(S5, 2)
    assert state.rows == 4 and len({p.tile for p in state.rooms}) == 8
    assert [capacity(state, (0, r)) for r in range(4)] == [2, 3, 3, 2]
    assert sum(1 for t in state.tokens.values() if t.where == "unused") == 0
    result = play_game(2, S5)
    assert result.reason == "target reached" and max(result.vp.values()) >= 5


def test_PR_CORE_19_prison_scores_only_exits_and_eliminations():
    assert not any(kind.exit_vp != 1 for kind in PRISON.characters.values())
    assert not any(kind.exit_vp for kind in PRISON.objects.values())


def test_PR_OPT_02_prison_plays_to_5_6_or_7_vp():
    for target in (5, 6, 7):
        assert new_game(Options(target_vp=target, set_name="prison"), 1).options.target_vp == target
    with pytest.raises(ValueError, match="PR-OPT-02"):
        new_game(Options(target_vp=8, set_name="prison"), 1)
    with pytest.raises(ValueError, match="4 VP"):
        new_game(Options(set_name="prison", scenario="prison-4"), 1)


@pytest.mark.parametrize("scenario", ["prison-2", "prison-3"])
def test_PR_SCEN_2_and_3_are_refused_until_their_special_rules_are_built(scenario):
    with pytest.raises(ValueError, match="not playable in this version yet"):
        new_game(Options(set_name="prison", scenario=scenario), 1)


@pytest.mark.parametrize("options, seed", [(S1, 1), (S1, 2), (S4, 1), (S4, 2)])
def test_PR_SCEN_random_games_end_the_same_way_from_the_same_seed(options, seed):
    first, second = play_game(seed, options), play_game(seed, options)
    assert first.reason.startswith(("both figures out", "4 VP reached"))
    assert (first.winner, first.vp, first.actions) == (second.winner, second.vp, second.actions)


def test_PR_SCEN_the_view_names_the_scenario():
    assert view(new_game(S1, 1), "B")["scenario"] == "prison-1"
    assert "scenario" not in view(new_game(Options(), 1), "B")
    assert parse_action("team b0=MK d0=NG", "B") in legal_actions(new_game(S1, 1), "B")
    assert where(new_game(S1, 1), "bTP") == "unused"
