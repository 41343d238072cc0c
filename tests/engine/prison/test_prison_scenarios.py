"""Prison's five introductory scenarios and Prison's setup rules (PR-SCEN-1..5, PR-SETUP-01..04, PR-CORE-19,
PR-OPT-02).
The scenarios' data: engine/prison/data/prison.json ("setup")."""

from __future__ import annotations

from collections import Counter

import pytest

from dungeon_twister.engine import (ChooseTeam, Options, apply, format_position, legal_actions, new_game,
                                    parse_action, parse_position, view)
from dungeon_twister.engine.boardgame.catalogue import load
from dungeon_twister.engine.boardgame.setup import capacity, marked_squares
from dungeon_twister.engine.core.rng import Rng
from dungeon_twister.engine.tools.selfplay import play_game

from ..builders import act, assert_refused, combat_round, legal_set, where

PRISON = load("prison")
S1 = Options(set_name="prison", scenario="prison-1")
S4 = Options(target_vp=4, set_name="prison", scenario="prison-4")
S5 = Options(set_name="prison", scenario="prison-5")
S2 = Options(set_name="prison", scenario="prison-2")
S3 = Options(set_name="prison", scenario="prison-3")


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
S2_ROOMS = "A1=37G/0 B1=37D/0 A2=38G/0 B2=38D/0"
S3_ROOMS = "A1=38G/0 B1=38D/0 A2=40G/0 B2=40D/0"
S5_ROOMS = "A1=37G/0 B1=37D/0 A2=38G/0 B2=38D/0 A3=39G/0 B3=39D/0 A4=40G/0 B4=40D/0"


# --- scenario 1 -----------------------------------------------------------------------------------------------
def test_PR_SCEN_1_01_02_rooms_39_and_40_in_a_2x2_maze_and_the_scenarios_components():
    """PR-SCEN-1-01, PR-SCEN-1-02: pairs 39 and 40 as 2 x 2; Mechanork, Naga, Key, Rope; 4 action cards, 1 jump
    card, no combat card."""
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
    assert assert_refused(after, f"hide {other_token} A1", "PR-SETUP-01", seat=other).message == \
        "room A1 is full: no more hidden tokens there (1 at most)"  # (worded for 1 as for 2 or 3: no "token(s)")
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
    """PR-SCEN-4-01 (RUL-063: 2 x 3), PR-SCEN-4-02 (the 6 characters and 4 objects), PR-SCEN-4-03 (4 of them on
    the marked squares, chosen in secret)."""
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
    """PR-SCEN-5-01 (all 4 pairs as 2 x 4, every character and object), PR-SCEN-5-02 (capacities 2 and 3,
    RUL-028), PR-SCEN-5-03 (5 VP), PR-SCEN-5-04 (the turn that reaches them is finished: BG-END)."""
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


def test_PR_SCEN_2_01_to_05_the_colossus_group_and_the_cleric_group():
    """PR-SCEN-2-01..05: pairs 37 and 38; PR-SCEN-2-02: Yellow leads the Colossus group (Colossus, Mechanork),
    Blue the Cleric, Naga and Assassin, each with a lance and a Rope and the full card set; PR-SCEN-2-03: all
    characters start on the marked squares (3 and 2); PR-SCEN-2-04: Blue, the Cleric player, plays first."""
    state = new_game(S2, 5)
    assert sorted({PRISON.rooms[p.tile].number for p in state.rooms}) == [37, 38] and state.rows == 2
    mine = {seat: sorted(t.code for t in state.tokens.values() if t.colour == seat and t.where != "unused")
            for seat in "BY"}
    assert mine == {"B": ["AS", "CL", "LN", "NG", "RP"], "Y": ["CO", "LN", "MK", "RP"]}
    assert state.first_player == "B"  # PR-SCEN-2-04: the Cleric player takes the first turn
    assert {len(a.team) for a in legal_actions(state, "B")} == {3} and {len(a.team) for a in legal_actions(
        state, "Y")} == {2}
    assert all(p.jumps == 3 and len(p.combat) == 9 for p in state.players.values())  # PR-SCEN-2-05


@pytest.mark.parametrize("scenario, named", [
    ("prison-1", ["Naga", "Rope", "Key"]),
    ("prison-2", ["Assassin", "Cleric", "Colossus", "Telescopic Lance"]),
    ("prison-3", ["Banshee", "Wizard"]),
    ("prison-4", ["Bow", "Fireball Staff", "Large Shield", "Telepath"]),
])
def test_PR_SCEN_each_scenarios_new_rules_name_the_figures_and_objects_it_brings_in(scenario, named):
    """The scenarios teach the set a few pieces at a time: the intro a player reads at the start (`rules_text`)
    names every character and object that enters the set in that scenario (Prison's own: scenario 1's Mechanork is
    the base set's). A review (pr27) found scenario 2's silent on the Telescopic Lance (PR-OBJ-LANCE-01) and the
    Colossus's Giant (PR-CHAR-COLOSSUS-03), scenario 4's on the Telepath (PR-CHAR-TELEPATH-01)."""
    scenarios = ["prison-1", "prison-2", "prison-3", "prison-4"]
    before = {code for earlier in scenarios[:scenarios.index(scenario)] for seat in "BY"
              for key in ("characters", "objects") for code in PRISON.scenarios[earlier][key][seat]}
    data = PRISON.scenarios[scenario]
    brought = {code for seat in "BY" for key in ("characters", "objects") for code in data[key][seat]} - before
    kinds = {**PRISON.characters, **PRISON.objects}
    assert sorted(kinds[code].name for code in brought if code != "MK") == sorted(named)
    assert [name for name in named if name not in data["rules_text"]] == []
    if scenario == "prison-2":
        assert "combat 0 or 1 pass between his legs" in data["rules_text"]  # PR-CHAR-COLOSSUS-03
        assert "2 squares away in a straight line" in data["rules_text"]  # PR-OBJ-LANCE-01


def test_PR_SCEN_2_06_the_cleric_group_stays_on_the_colossus_players_start_zone():
    """Blue's Naga steps onto Yellow's start zone (rank 11): he stays there (no exit, no VP) and may move on; the
    Colossus's Mechanork leaving through Blue's start zone exits as usual."""
    state = scenario_position("prison-2", "bNG@c10 bCL@a1 bAS@c1 yCO@h5 yMK@i1", rooms=S2_ROOMS)
    after = act(state, "move bNG c11")
    assert where(after, "bNG") == "c11" and after.vp("B") == 0 and after.outcome is None
    assert "move bNG d11" in legal_set(after, verb="move")
    assert parse_position(format_position(after)) == after
    yellow = scenario_position("prison-2", "bNG@c9 bCL@a3 bAS@b3 yCO@h5 yMK@i1", rooms=S2_ROOMS, turn=(
        "turn 5 Y main ap=5 high=5 four=1 first=B placer=- combats=0"))
    assert where(act(yellow, "move yMK i0"), "yMK") == "exited"


def test_PR_SCEN_2_07_the_colossus_out_unwounded_wins_his_elimination_loses():
    """The Colossus steps from h1 onto Blue's start zone: Yellow wins at once. Wounded (in turn 4), he is attacked
    from h2 and loses: eliminated, Blue wins at once (RUL-062)."""
    state = scenario_position("prison-2", "bNG@c9 bCL@a3 bAS@d3 yCO@h1 yMK@i5", rooms=S2_ROOMS, turn=(
        "turn 5 Y main ap=5 high=5 four=1 first=B placer=- combats=0"))
    out = act(state, "move yCO h0")
    assert (out.outcome.winner, out.outcome.reason) == ("Y", "the Colossus reached Blue's start zone (PR-SCEN-2-07)")
    wounded = scenario_position("prison-2", "bNG@h2 bCL@a3 bAS@d3 yCO@h1!4 yMK@i5", rooms=S2_ROOMS)
    after, _ = combat_round(wounded, "attack bNG yCO", 6, 0)
    assert where(after, "yCO") == "eliminated"
    assert (after.outcome.winner, after.outcome.reason) == ("B", "the Colossus is eliminated (PR-SCEN-2-07)")


def test_PR_SCEN_2_07_RUL_062_the_colossus_carried_out_wounded_is_a_draw_at_once():
    """"Any other situation is a draw" (RUL-062): the yellow Mechanork carries the wounded Colossus out through
    Blue's start zone, so he is saved and can neither exit unwounded nor be eliminated: the game ends at once, a
    draw. It went on: 3,000 random actions later it was still running, resigning the only way out."""
    state = scenario_position("prison-2", "bNG@c5 bCL@a3 bAS@d3 yMK@h1 yCO@h1!3", rooms=S2_ROOMS, turn=(
        "turn 5 Y main ap=5 high=5 four=1 first=B placer=- combats=0"))
    out = act(state, "move yMK h0")
    assert where(out, "yCO") == "saved"
    assert (out.outcome.winner, out.outcome.reason) == (None, "the Colossus was carried out wounded: a draw "
                                                              "(PR-SCEN-2-07)")


def test_PR_SCEN_3_04_05_nobody_exits_two_eliminations_win():
    """Both start zones are open ground for everybody; the second enemy eliminated (a wounded Mechanork on c4 who
    loses a combat) ends the game at once."""
    state = new_game(S3, 2)
    assert sorted({PRISON.rooms[p.tile].number for p in state.rooms}) == [38, 40]
    mine = sorted(t.code for t in state.tokens.values() if t.colour == "B" and t.where != "unused")
    assert mine == ["BS", "KY", "LN", "MK", "NG", "WZ"]  # PR-SCEN-3-02
    assert {len(a.team) for a in legal_actions(state, "B")} == {4} and state.to_act == ("B", "Y")  # PR-SCEN-3-03
    walk = scenario_position("prison-3", "bNG@c10 bWZ@a1 bMK@b1 bBS@d1 yMK@h5 yNG@i5 yWZ@j5 yBS@g5",
                             rooms=S3_ROOMS)
    assert where(act(walk, "move bNG c11"), "bNG") == "c11"
    two = scenario_position("prison-3", "bNG@c3 bWZ@a1 bMK@b1 bBS@e1 yMK@c4!4 yNG>eliminated yWZ@j5 yBS@g5",
                            rooms=S3_ROOMS)
    after, _ = combat_round(two, "attack bNG yMK", 6, 0)
    assert (after.outcome.winner, after.outcome.reason) == ("B", "2 enemy characters eliminated (PR-SCEN-3-05)")


@pytest.mark.parametrize("options, seed", [(S1, 1), (S1, 2), (S4, 1), (S4, 2), (S2, 2), (S3, 1)])
def test_PR_SCEN_random_games_end_the_same_way_from_the_same_seed(options, seed):
    first, second = play_game(seed, options), play_game(seed, options)
    assert first.reason.startswith(("both figures out", "4 VP reached", "the Colossus", "2 enemy"))
    assert (first.winner, first.vp, first.actions) == (second.winner, second.vp, second.actions)


def test_PR_SCEN_the_view_names_the_scenario():
    assert view(new_game(S1, 1), "B")["scenario"] == "prison-1"
    assert "scenario" not in view(new_game(Options(), 1), "B")
    assert parse_action("team b0=MK d0=NG", "B") in legal_actions(new_game(S1, 1), "B")
    assert where(new_game(S1, 1), "bTP") == "unused"


def test_PR_SCEN_4_05_a_wounded_character_carried_out_is_saved_and_scores_nothing():
    """« Falls eine Figur, die einen Verwundeten trägt, das Labyrinth über die gegnerische Startzone verlässt, ist
    dieser zwar gerettet (aus dem Spiel), aber er zählt keinen SP »: Blue has 2 VP and his Mechanork carries the
    wounded Cleric out at d16: 3 VP (the Mechanork's), the Cleric is saved, and the game goes on; had the Cleric
    counted, Blue would have had 4 VP and won at once (PR-SCEN-4-06)."""
    state = scenario_position("prison-4", "yTP>eliminated yWZ>eliminated bMK@d15 bCL@d15!3 bCO@a3 yMK@h5",
                              header="vp=4", rooms=S4_ROOMS)
    after = act(state, "move bMK d16")
    assert (where(after, "bMK"), where(after, "bCL")) == ("exited", "saved")
    assert (after.vp("B"), after.outcome, after.phase, after.ap) == (3, None, "main", 4)


def test_PR_SCEN_5_04_the_turn_that_reaches_5_vp_is_played_to_its_end_equal_vp_a_draw():
    """PR-SCEN-5-04 (BG-END-02/03, RUL-064): unlike scenarios 1-4, reaching the target does not end the game at once.
    Blue (4 VP) takes his Naga out: 5 VP, and he keeps playing his turn; his Wizard's fireball then kills his own
    Mechanork, which gives Yellow her fifth VP (RUL-012); at the end of the turn the VP are equal: a draw. Without
    the fireball, Blue wins."""
    gone = ("yAS>eliminated yCO>eliminated yBS>eliminated yTP>eliminated "
            "bAS>eliminated bCO>eliminated bBS>eliminated bTP>eliminated")
    state = scenario_position("prison-5", gone + " bNG@c20 bWZ@e5 bFS@e5 bMK@d5 bCL@a3 yMK@h5 yNG@h6 yWZ@i3 yCL@j8",
                              rooms=S5_ROOMS)
    out = act(state, "move bNG c21")
    assert (where(out, "bNG"), out.vp("B"), out.outcome, out.phase, out.ap) == ("exited", 5, None, "main", 4)
    burnt = act(out, "fireball bWZ w")
    assert (where(burnt, "bMK"), burnt.vp("Y"), burnt.outcome) == ("eliminated", 5, None)
    drawn = act(burnt, "end")
    assert (drawn.phase, drawn.outcome.winner, dict(drawn.outcome.vp)) == ("over", None, {"B": 5, "Y": 5})
    won = act(out, "end")
    assert (won.outcome.winner, won.outcome.reason) == ("B", "target reached")


def test_PR_SCEN_3_04_PR_CORE_05_both_start_zones_are_open_ground_and_give_access_to_the_room_in_front():
    """« Alle Figuren können sich auf beiden Startzonen frei bewegen (auch auf der gegnerischen) »: Blue's Naga walks
    along Yellow's start zone (c11 to f11), Yellow's Naga along Blue's (g0 to h0), nobody exits or scores. « Jede
    Figur auf der Startzone hat einen direkten Zugang zu der ihr nächstgelegenen Halle »: on Yellow's zone the blue
    Naga reveals only the face-down room in front of him (B2 from g11, nothing from c11 in front of the revealed
    A2)."""
    rooms = S3_ROOMS.replace("B2=", "B2=*")
    state = scenario_position("prison-3", "bNG@c11 bWZ@a3 bMK@c3 bBS@e3 yMK@a9 yNG@g1 yWZ@c9 yBS@e9", rooms=rooms)
    walked = act(state, "move bNG d11-e11-f11")
    assert (where(walked, "bNG"), walked.vp("B"), walked.outcome) == ("f11", 0, None)
    assert legal_set(state, verb="reveal") == set()
    assert legal_set(act(state, "move bNG g11"), verb="reveal") == {"reveal bNG B2"}
    yellow = scenario_position("prison-3", "bNG@c11 bWZ@a3 bMK@c3 bBS@e3 yMK@a9 yNG@g1 yWZ@c9 yBS@e9", rooms=rooms,
                               turn="turn 5 Y main ap=5 high=5 four=1 first=B placer=- combats=0")
    crossed = act(yellow, "move yNG g0-h0")
    assert (where(crossed, "yNG"), crossed.vp("Y"), crossed.outcome) == ("h0", 0, None)


def test_PR_SCEN_1_06_2_07_3_05_4_06_DT_269_a_positions_end_is_the_one_its_scenario_gives():
    """Found by a rules review (2026-11-30, helper pr27): in a scenario that ends at once (RUL-064) the reader took
    whatever result the `over` field named: Blue "both figures out" with both on the board, Yellow "2 enemy characters
    eliminated" with nobody eliminated, a draw "carried out wounded" with the Colossus on the board; and a position
    whose scenario's end had come could still be under way. The scenario's own condition, checked after every action,
    now decides: its result exactly, or no end of its kind. An end of the family's (BG-END-04: nobody can score) keeps
    the VP's result, a draw in scenario 2 (PR-SCEN-2-07)."""
    def over(scenario: str, tokens: str, rooms: str, field: str, header: str = "vp=5", rule: str | None = None):
        turn = (f"turn 5 B over ap=0 high=5 four=1 first=B placer=- combats=0 ; over {field}" if field
                else "turn 5 B main ap=3 high=5 four=1 first=B placer=- combats=0")
        if rule is None:
            return scenario_position(scenario, tokens, header=header, rooms=rooms, turn=turn)
        with pytest.raises(PositionError) as info:
            scenario_position(scenario, tokens, header=header, rooms=rooms, turn=turn)
        assert (info.value.rule, info.value.field) == (rule, "over"), info.value
        return info.value

    from dungeon_twister.engine.core.errors import PositionError
    out = "bNG>exited bMK>exited yNG@h5 yMK@h6"
    assert over("prison-1", out, S1_ROOMS, "B both figures out (PR-SCEN-1-06)").outcome.winner == "B"
    error = over("prison-1", "bNG@a3 bMK@c9 yNG@h5 yMK@h6", S1_ROOMS, "B both figures out (PR-SCEN-1-06)",
                 rule="PR-SCEN-1-06")
    assert error.message == "both figures out (PR-SCEN-1-06): not so in this position"
    over("prison-1", out, S1_ROOMS, "Y both figures out (PR-SCEN-1-06)", rule="PR-SCEN-1-06")  # the wrong winner
    ended = over("prison-1", out, S1_ROOMS, "", rule="PR-SCEN-1-06")  # the game would have ended
    assert ended.message == "the game ended: B wins, both figures out (PR-SCEN-1-06)"
    four = "bNG@a3 bMK@c9 bWZ@d3 bBS@e3 yNG@h5 yMK@h6 yWZ@i3 yBS@j3"
    over("prison-3", four, S3_ROOMS, "Y 2 enemy characters eliminated (PR-SCEN-3-05)", rule="PR-SCEN-3-05")
    over("prison-3", four.replace("bNG@a3 bMK@c9", "bNG>eliminated bMK>eliminated"), S3_ROOMS,
         "Y 2 enemy characters eliminated (PR-SCEN-3-05)")
    over("prison-2", "bNG@a3 bCL@c9 bAS@d3 yCO@h5 yMK@h6", S2_ROOMS,
         "draw the Colossus was carried out wounded: a draw (PR-SCEN-2-07)", rule="PR-SCEN-2-07")
    over("prison-2", "bNG@a3 bCL@c9 bAS@d3 yCO>saved yMK>exited", S2_ROOMS,
         "draw the Colossus was carried out wounded: a draw (PR-SCEN-2-07)")
    over("prison-4", "bWZ@a3 yMK@h6", S4_ROOMS, "B 4 VP reached (PR-SCEN-4-06)", header="vp=4", rule="PR-SCEN-4-06")
    stuck = "bNG@a3! bCL@c9!3 bAS>eliminated yCO@h5!2 yMK>eliminated"  # nobody standing: BG-END-04, a draw
    over("prison-2", stuck, S2_ROOMS, "draw nobody can score any more")
    assert over("prison-2", stuck, S2_ROOMS, "Y nobody can score any more", rule="PR-SCEN-2-07").message == \
        "nobody can score any more: any other end of this scenario is a draw"


def test_PR_SCEN_1_06_the_rule_a_scenarios_end_cites_is_read_from_its_reason():
    """Review rv27: two copies of a regex read the rule out of a scenario's reason, and a reason worded without it
    raised AttributeError inside the position reader. One helper; a reason naming no rule cites BG-END-02."""
    from dungeon_twister.engine import Options
    from dungeon_twister.engine.boardgame.setup import scenario_of, victory_rule

    assert victory_rule(scenario_of(Options(set_name="prison", scenario="prison-1"))["victory"]) == "PR-SCEN-1-06"
    assert victory_rule(scenario_of(Options(set_name="prison", scenario="prison-2"))["victory"]) == "PR-SCEN-2-07"
    assert victory_rule({"reason": "the Colossus is free"}) == "BG-END-02"
