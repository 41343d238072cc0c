"""Rule tests: moving (BG-MOVE), exits (BG-EXIT), jumps (BG-JUMP), pits and ropes (BG-PIT), BG-EX-06.

Synthetic board (tests/engine/builders.py): pits at c8, d8, h8, i8; the square c13 is closed in by walls to the
west (b13) and north (c14) and by portcullises to the east (d13, W1 portcullis 0) and south (c12, W1 portcullis 1);
an outer wall lies between a10 and a11; rotation mechanisms at a5, f5, a10, f10, a15, f15, a20, f20.
"""

from __future__ import annotations

import pytest

from tests.engine.builders import apply_texts, assert_refused, legal_set, position, where


def dests(state, token: str) -> set[str]:
    """The destination squares of the token's legal moves."""
    return {text.split()[2] for text in legal_set(state, verb="move", token=token)}


# --- BG-MOVE -----------------------------------------------------------------------------------------------
def test_BG_MOVE_01_steps_up_to_movement_value_for_one_ap():
    s = position("bTR@c3")  # Troll: Movement 2
    assert dests(s, "bTR") == {"c1", "c2", "c4", "c5", "b2", "b3", "b4", "a3", "d2", "d3", "d4", "e3"}
    after, _ = apply_texts(s, "move bTR c5")
    assert where(after, "bTR") == "c5" and after.ap == s.ap - 1
    assert_refused(s, "move bTR c6", "BG-MOVE-01")  # three steps away


def test_BG_MOVE_02_fewer_steps_and_unused_steps_are_lost():
    s = position("bWA@c3")  # Warrior: Movement 3
    after, _ = apply_texts(s, "move bWA c4")
    assert where(after, "bWA") == "c4" and after.ap == 4
    # the 2 unused steps are gone: getting further costs a new move (and a new AP)
    after2, _ = apply_texts(after, "move bWA c6")
    assert where(after2, "bWA") == "c6" and after2.ap == 3
    # a move that would change nothing (zero steps, nothing picked up or dropped) is not an action
    assert "c3" not in dests(s, "bWA")
    assert_refused(s, "move bWA c3", "BG-MOVE-02")


def test_BG_MOVE_03_several_moves_in_one_turn_each_costing_one_ap():
    s = position("bWA@c3 bTR@h3", ap=3)
    s, _ = apply_texts(s, "move bWA c5", "move bTR h5", "move bWA c7")
    assert (where(s, "bWA"), where(s, "bTR"), s.ap) == ("c7", "h5", 0)
    assert_refused(s, "move bWA c8", "BG-TURN-03")  # no AP left


def test_BG_MOVE_04_a_route_may_go_back_over_visited_squares():
    s = position("bWA@c3")
    after, events = apply_texts(s, "move bWA c4-c5-c4")
    assert where(after, "bWA") == "c4" and after.ap == 4
    moved = next(e for e in events if e.kind == "moved")
    assert moved.data["route"] == ["c3", "c4", "c5", "c4"]


def test_BG_MOVE_01_a_route_written_from_the_figure_s_own_square_is_refused_saying_so():
    """BG-MOVE-01: a route names the squares stepped to, not the one the figure stands on (docs/notation.md). The
    panel's list of moves shows a move as "bWA c3-c5" (from c3 to c5); a route typed the same way, starting with
    the figure's square, is refused with what to leave out (play-test pt24 read "c3 is not a square next to c3")."""
    s = position("bWA@c3")
    refusal = assert_refused(s, "move bWA c3-c4-c5", "BG-MOVE-01")
    assert refusal.template.startswith("{square} is where {mover} stands")
    assert refusal.values == {"square": "c3", "mover": "bWA", "route": "c4-c5"}
    assert "not a square next to" not in refusal.message
    # the edge: a route that comes back to the start square later is still a route (BG-MOVE-04), and one that
    # merely starts next to it is read as before
    after, _ = apply_texts(s, "move bWA c4-c3-c4")
    assert where(after, "bWA") == "c4"
    assert assert_refused(s, "move bWA c5-c6", "BG-MOVE-01").template == "{square} is not a square next to {here}"


def test_BG_MOVE_05_open_and_broken_portcullises_are_crossed_walls_and_closed_ones_not():
    closed = position("bWA@c12")
    assert "c13" not in dests(closed, "bWA")
    assert_refused(closed, "move bWA c13", "BG-MOVE-05")  # closed portcullis between c12 and c13
    for state in ("co", "cb"):  # the c12|c13 portcullis open, then broken
        s = position("bWA@c12", ports=f"W1={state}")
        assert "c13" in dests(s, "bWA")
        after, _ = apply_texts(s, "move bWA c13")
        assert where(after, "bWA") == "c13"
    # the wall b13|c13 is never crossed: with the c12|c13 portcullis open, c13 is reached the long way round
    walled = position("bWA@b13")
    assert "c13" not in dests(walled, "bWA")
    assert_refused(walled, "move bWA c13", "BG-MOVE-05")
    s = position("bWA@b13", ports="W1=co")
    after, events = apply_texts(s, "move bWA c13")
    assert next(e for e in events if e.kind == "moved").data["route"] == ["b13", "b12", "c12", "c13"]
    assert_refused(s, "move bWA c13-c12", "BG-MOVE-05")


def test_BG_MOVE_06_objects_may_be_crossed_and_stopped_on():
    s = position("bWA@c3 ySW@c4")
    # stopping on it is written `move bWA c4`: the Sword does not move, but it is carried from then on
    assert {"move bWA c4", "move bWA c5", "move bWA c5 +ySW"} <= legal_set(s, token="bWA")
    after, _ = apply_texts(s, "move bWA c5")  # crossed without taking it
    assert (where(after, "bWA"), where(after, "ySW")) == ("c5", "c4")
    after, _ = apply_texts(s, "move bWA c4")  # stopped on it: carried (RUL-119)
    assert (where(after, "bWA"), where(after, "ySW")) == ("c4", "c4")
    after, _ = apply_texts(after, "move bWA c6")
    assert (where(after, "bWA"), where(after, "ySW")) == ("c6", "c6")


def test_BG_MOVE_07_wounded_may_be_crossed_own_may_be_stopped_on_enemy_not():
    s = position("bWA@c3 yTR@c4! bGB@d3!")
    assert "c5" in dests(s, "bWA")  # across the enemy wounded
    assert "c4" not in dests(s, "bWA")
    assert_refused(s, "move bWA c4", "BG-MOVE-07")
    after, _ = apply_texts(s, "move bWA d3")  # stopping on an own wounded character: it is carried
    assert where(after, "bWA") == "d3" and where(after, "bGB") == "d3!"
    after, _ = apply_texts(after, "move bWA d5")
    assert where(after, "bGB") == "d5!"


def test_BG_MOVE_08_own_figures_may_be_crossed_but_not_stopped_on():
    s = position("bTR@c3 bGB@c4")
    assert "c5" in dests(s, "bTR")
    assert "c4" not in dests(s, "bTR")
    assert_refused(s, "move bTR c4", "BG-MOVE-08")


def test_BG_MOVE_09_cannot_enter_enemy_figure():
    s = position("bTR@c3 yGB@c4")  # the Troll (Movement 2) would need c4 to reach c5
    assert dests(s, "bTR") & {"c4", "c5"} == set()
    assert_refused(s, "move bTR c4", "BG-MOVE-09")
    assert_refused(s, "move bTR c4-c5", "BG-MOVE-09")
    assert "c5" in dests(position("bTR@c3 yGB@c4!"), "bTR")  # a wounded enemy does not block (BG-MOVE-07)


def test_BG_MOVE_10_cannot_enter_a_pit():
    s = position("bWA@c7")
    assert dests(s, "bWA") & {"c8", "d8", "c9"} == set()  # round the pits c9 is 4 steps away
    assert_refused(s, "move bWA c8", "BG-MOVE-10")
    assert_refused(s, "move bWA c8-c9", "BG-MOVE-10")


def test_BG_MOVE_11_rotation_mechanisms_may_be_crossed_and_stopped_on():
    s = position("bWA@a3")
    assert {"a5", "a6"} <= dests(s, "bWA")
    after, events = apply_texts(s, "move bWA a4-a5-a6")
    assert where(after, "bWA") == "a6"
    after, _ = apply_texts(s, "move bWA a5")
    assert where(after, "bWA") == "a5"


def test_BG_MOVE_12_end_of_move_square_limits():
    # another figure, an enemy wounded, a pit: see BG-MOVE-07/08/10; here: two tokens of one kind, three tokens
    s = position("bWA@c3 bSW@c3 yAR@c5 bTR@e3! bRP@e3")
    assert "move bWA c5" not in legal_set(s)  # it would carry the Sword onto the Armor
    assert_refused(s, "move bWA c5", "BG-MOVE-12")
    after, _ = apply_texts(s, "move bWA c5 bSW@c4")  # leaving the Sword first makes it legal
    assert (where(after, "bWA"), where(after, "yAR"), where(after, "bSW")) == ("c5", "c5", "c4")
    assert "e3" not in dests(s, "bWA")  # Warrior + Sword + wounded Troll + Rope
    assert_refused(s, "move bWA e3", "BG-MOVE-12")
    assert_refused(s, "move bWA e3 +bTR bSW@d3", "BG-MOVE-12")  # still Warrior + wounded + Rope = 3 tokens


def test_BG_MOVE_13_and_BG_EXIT_06_own_start_zone_is_ordinary_ground():
    s = position("bWA@c1")
    assert {"c0", "b0", "d0", "a0", "e0"} <= dests(s, "bWA")
    after, _ = apply_texts(s, "move bWA c0-d0-e0")
    assert where(after, "bWA") == "e0" and after.vp("B") == 0
    after, _ = apply_texts(after, "move bWA f0")  # along the start zone, staying there
    assert where(after, "bWA") == "f0"


def test_BG_MOVE_14_and_BG_EXIT_02_entering_the_opponents_start_zone_ends_the_move_outside():
    # yellow figures on b20 and d20: the Troll (Movement 2) could reach b21 or d21 only along the start zone
    s = position("bTR@c20 yGB@b20 yCL@d20")
    assert {d for d in dests(s, "bTR") if d.endswith("21")} == {"c21"}
    assert_refused(s, "move bTR c21-d21", "BG-EXIT-02")
    after, events = apply_texts(s, "move bTR c21")
    assert where(after, "bTR") == "exited" and after.vp("B") == 1
    assert [e.kind for e in events][-1] == "exited"


# --- BG-EXIT -----------------------------------------------------------------------------------------------
def test_BG_EXIT_01_exit_scores_1_vp_goblin_2():
    s = position("bWA@c20 bGB@g20")
    after, _ = apply_texts(s, "move bWA c21")
    assert where(after, "bWA") == "exited" and after.vp("B") == 1 and after.vp("Y") == 0
    after, _ = apply_texts(after, "move bGB g21")
    assert where(after, "bGB") == "exited" and after.vp("B") == 3
    # Yellow exits through Blue's start zone (rank 0)
    y = position("yWA@c1", active="Y")
    after, _ = apply_texts(y, "move yWA c0")
    assert where(after, "yWA") == "exited" and after.vp("Y") == 1


def test_BG_EXIT_03_exit_over_enemy_wounded_not_enemy_figure():
    s = position("bWA@c20 yTR@c21! yGB@d21")
    assert {d for d in dests(s, "bWA") if d.endswith("21")} == {"a21", "b21", "c21", "e21"}
    after, _ = apply_texts(s, "move bWA c21")
    assert where(after, "bWA") == "exited" and where(after, "yTR") == "c21!"
    assert_refused(s, "move bWA d21", "BG-EXIT-03")


def test_BG_EXIT_04_objects_carried_out_are_discarded_treasure_scores():
    s = position("bWA@c20 bSW@c20 bGB@g20 yTS@g20")
    after, events = apply_texts(s, "move bWA c21")
    assert where(after, "bSW") == "discarded" and after.vp("B") == 1
    after, events = apply_texts(after, "move bGB g21")  # a yellow Treasure carried out scores for Blue
    assert where(after, "yTS") == "scored" and after.tokens["yTS"].scored_by == "B"
    assert after.vp("B") == 1 + 2 + 1 and after.vp("Y") == 0
    assert any(e.kind == "treasure_scored" for e in events)


def test_BG_EXIT_05_and_BG_CARRY_05_a_carried_wounded_character_is_saved():
    s = position("bWA@c20 bGB@c20!")
    after, events = apply_texts(s, "move bWA c21")
    assert where(after, "bGB") == "saved"
    assert after.vp("B") == 1 and after.vp("Y") == 0  # nobody scores for the saved Goblin
    assert any(e.kind == "saved" for e in events)


# --- BG-JUMP -----------------------------------------------------------------------------------------------
def test_BG_JUMP_01_three_jump_cards_used_ones_are_gone():
    s = position("bWA@c7")
    after, _ = apply_texts(s, "jump bWA c8 c9")
    assert after.players["B"].jumps == 2
    none_left = position("bWA@c7", cards="B:2345/-/012233456/0 Y:2345/-/012233456/3")
    assert legal_set(none_left, verb="jump") == set()
    assert_refused(none_left, "jump bWA c8 c9", "BG-JUMP-01")


def test_BG_JUMP_02_a_jump_costs_1_ap_and_is_its_own_action():
    s = position("bWA@c7")
    after, events = apply_texts(s, "jump bWA c8 c9")
    assert after.ap == 4 and where(after, "bWA") == "c9"
    assert [e.kind for e in events] == ["jumped"]
    after, _ = apply_texts(after, "move bWA c12")  # a separate move afterwards, 1 more AP
    assert after.ap == 3


def test_BG_JUMP_03_over_an_adjacent_pit_straight_or_L_shaped():
    s = position("bWA@c7")
    assert legal_set(s, verb="jump") == {"jump bWA c8 c9", "jump bWA c8 b8"}  # d8 is a pit, c7 the start
    after, _ = apply_texts(s, "jump bWA c8 b8")
    assert where(after, "bWA") == "b8"
    assert_refused(s, "jump bWA d8 d9", "BG-JUMP-03")  # d8 is not beside c7
    assert_refused(s, "jump bWA c8 c7", "BG-JUMP-03")  # not back onto the starting square
    assert legal_set(position("bWA@c5"), verb="jump") == set()  # no pit beside him


def test_BG_JUMP_04_landing_square_must_be_valid():
    s = position("bWA@c7 bCL@c9 yGB@b8!")
    assert legal_set(s, verb="jump") == set()  # own figure on c9, enemy wounded on b8
    assert_refused(s, "jump bWA c8 c9", "BG-JUMP-04")
    assert_refused(s, "jump bWA c8 b8", "BG-JUMP-04")
    s = position("bWA@c7 yGB@c9")
    assert legal_set(s, verb="jump") == {"jump bWA c8 b8"}
    assert_refused(s, "jump bWA c8 c9", "BG-JUMP-04")


def test_BG_JUMP_05_a_pit_holding_a_character_cannot_be_jumped_one_holding_only_a_rope_can():
    for tokens in ("yTH@c8", "bTH@c8", "bWA@c8! bRP@c8"):
        s = position("bCL@c7 " + tokens)
        assert legal_set(s, verb="jump", token="bCL") == set()
        assert_refused(s, "jump bCL c8 c9", "BG-JUMP-05")
    s = position("bCL@c7 yRP@c8")
    assert legal_set(s, verb="jump") == {"jump bCL c8 c9", "jump bCL c8 b8"}
    after, _ = apply_texts(s, "jump bCL c8 c9")
    assert where(after, "bCL") == "c9" and where(after, "yRP") == "c8"  # nothing is picked up on the pit


BASE_ROOMS = "A1=2D/0 B1=1G/0 A2=1D/0 B2=2G/0 A3=3G/0 B3=3D/0 A4=1G/0 B4=4D/0"


def test_BG_JUMP_06_a_jump_never_crosses_a_wall_or_closed_portcullis():
    # base-set tile 1G at B1: its pit h5 (r1c3) has walls on its west (g5) and east (i5) sides
    s = position("bWA@h4", rooms=BASE_ROOMS.replace("A4=1G/0", "A4=4G/0"), set_name="base_set")
    assert legal_set(s, verb="jump") == {"jump bWA h5 h6"}
    assert_refused(s, "jump bWA h5 g5", "BG-JUMP-06")
    assert legal_set(position("bWA@g5", rooms=BASE_ROOMS.replace("A4=1G/0", "A4=4G/0"), set_name="base_set"),
                     verb="jump") == set()


def test_BG_JUMP_07_landing_picks_up_and_may_exit():
    s = position("bWA@c7 bSW@c9")
    after, _ = apply_texts(s, "jump bWA c8 c9")
    assert where(after, "bSW") == "c9" and where(after, "bWA") == "c9"  # carried from now on (RUL-119)
    # 1G at A4: its pit c20 touches Yellow's start zone square c21
    rooms = "A1=2D/0 B1=4G/0 A2=1D/0 B2=2G/0 A3=3G/0 B3=3D/0 A4=1G/0 B4=4D/0"
    s = position("bWA@c19", rooms=rooms, set_name="base_set")
    assert "jump bWA c20 c21" in legal_set(s, verb="jump")
    after, _ = apply_texts(s, "jump bWA c20 c21")
    assert where(after, "bWA") == "exited" and after.vp("B") == 1
    # not onto an enemy wounded character on the start zone (RUL-038)
    s = position("bWA@c19 yGB@c21!", rooms=rooms, set_name="base_set")
    assert "jump bWA c20 c21" not in legal_set(s, verb="jump")
    assert_refused(s, "jump bWA c20 c21", "BG-JUMP-04")


# --- BG-PIT ------------------------------------------------------------------------------------------------
def test_BG_PIT_01_thief_or_rope_carrier_may_cross_and_stop_on_a_pit():
    thief = position("bTH@c7")
    assert {"c8", "d8", "c9"} <= dests(thief, "bTH")
    roped = position("bWA@c7 yRP@c7")
    assert {"c8", "c9"} <= dests(roped, "bWA")
    after, _ = apply_texts(roped, "move bWA c8")
    assert where(after, "bWA") == "c8" and where(after, "yRP") == "c8"
    bare = position("bWA@c7")
    assert dests(bare, "bWA") & {"c8", "d8"} == set()


def test_BG_PIT_02_a_rope_lying_alone_lets_any_figure_cross_or_stop():
    s = position("bWA@c7 yRP@c8")
    assert {"move bWA c8", "move bWA c9", "move bWA c9 +yRP"} <= legal_set(s, token="bWA")
    after, _ = apply_texts(s, "move bWA c8")  # stopping there: the Rope is under him, carried
    assert where(after, "bWA") == "c8" and where(after, "yRP") == "c8"
    # with an object in hand he may cross, but not stop (two objects on one square) unless he leaves it first
    s = position("bWA@c7 bSW@c7 yRP@c8")
    assert {"move bWA c9", "move bWA c8 bSW@c7"} <= legal_set(s, token="bWA")
    assert "move bWA c8" not in legal_set(s, token="bWA")
    assert_refused(s, "move bWA c8", "BG-MOVE-12")
    # a Rope lying with a wounded character: crossed by anyone, stopped on by no one
    s = position("bWA@c7 yGB@c8! yRP@c8")
    assert "c9" in dests(s, "bWA") and "c8" not in dests(s, "bWA")


def test_BG_PIT_03_leaving_a_rope_pit_the_rope_may_be_taken_at_no_cost():
    s = position("bWA@c7 bRP@c8")
    after, _ = apply_texts(s, "move bWA c9 +bRP")
    assert where(after, "bRP") == "c9" and after.ap == 4
    # a figure standing on the pit with the Rope leaves with it, or leaves it there
    s = position("bWA@c8 bRP@c8")
    after, _ = apply_texts(s, "move bWA c9")
    assert where(after, "bRP") == "c9"
    after, _ = apply_texts(s, "move bWA c9 bRP@c8")
    assert where(after, "bRP") == "c8" and where(after, "bWA") == "c9"


def test_BG_PIT_04_own_thief_or_rope_carrier_on_a_pit_is_a_bridge_for_friends_only():
    for bridge in ("bTH@c8", "bCL@c8 bRP@c8"):
        s = position("bWA@c7 " + bridge)  # without the bridge c9 is 4 steps away
        assert "c9" in dests(s, "bWA") and "c8" not in dests(s, "bWA")
        assert_refused(s, "move bWA c8", "BG-MOVE-08")
        y = position("yWA@c9 " + bridge, active="Y")
        assert "c7" not in dests(y, "yWA")
        assert_refused(y, "move yWA c8-c7", "BG-MOVE-09")
    s = position("bWA@c7 bCL@c8 bRP@c8")
    assert not any("+bRP" in text for text in legal_set(s, token="bWA"))
    assert_refused(s, "move bWA c9 +bRP", "BG-PIT-04")


def test_BG_PIT_04_nobody_takes_the_rope_from_under_a_thief_on_a_pit():
    """"They cannot take that Rope": the Rope lying under a Thief standing on the pit c8 is hers, as a Rope-carrier's
    is; the Warrior took it on his way to c9 (a Thief stands on a pit without it, so the golden rules let it go)."""
    s = position("bWA@c7 bTH@c8 bRP@c8")
    assert not any("bRP" in text for text in legal_set(s, token="bWA"))
    assert_refused(s, "move bWA c9 +bRP", "BG-PIT-04")


def test_BG_PIT_05_a_thief_carries_no_wounded_friend_onto_a_pit():
    """A Thief stops on a pit, what she carries does not: ending on c8 with the wounded Goblin would leave him in the
    pit, which BG-PIT-05 forbids as it forbids dropping him there. The move was legal and the Goblin fell, Yellow
    scoring; the jump onto a pit likewise. She still carries him across, to c9."""
    s = position("bTH@c7 bGB@c7!")
    assert not any(text.endswith((" c8", " d8")) for text in legal_set(s, token="bTH"))
    assert_refused(s, "move bTH c8", "BG-PIT-05")
    assert_refused(s, "jump bTH c8 d8", "BG-JUMP-04")
    across, _ = apply_texts(s, "move bTH c9")
    assert (where(across, "bTH"), where(across, "bGB"), across.vp("Y")) == ("c9", "c9!", 0)


def test_BG_PIT_05_only_a_rope_may_be_left_on_a_pit():
    s = position("bTH@c7 bSW@c7 bGB@b7! bCL@b7")
    assert not any("@c8" in text or "@d8" in text for text in legal_set(s, token="bTH"))
    assert_refused(s, "move bTH c9 bSW@c8", "BG-PIT-05")
    s = position("bTH@c7 bGB@c7!")
    assert_refused(s, "move bTH c9 bGB@c8", "BG-PIT-05")
    assert not any("@c8" in text for text in legal_set(s, token="bTH"))


BASE_PIT_ROOMS = "A1=1G/0 B1=1D/0 A2=2G/0 B2=2D/0 A3=3G/0 B3=3D/0 A4=4G/0 B4=4D/0"


def test_BG_PIT_07_DT_025_DT_241_the_treasure_of_a_thief_who_falls_stays_in_the_pit():
    """Found by an audit: the yellow Thief carrying the Treasure on the pit c8 is wounded in combat: she dies
    (BG-PIT-07) and the Treasure stays on c8 (DT-025, DT-241: BG-PIT-05 forbids a drop, not a fall), a position
    refused as BG-PIT-05 when read back. It now round-trips; a fireball's victim likewise (BG-OBJ-FIREBALL-04)."""
    from dungeon_twister.engine import format_position, parse_position
    from tests.engine.builders import combat_round

    fallen, _ = combat_round(position("bWA@b8 yTH@c8 yTS@c8 yGB@h4"), "attack bWA yTH", 6, 0)
    burnt, _ = apply_texts(position("bWZ@c6 bFW@c6 yTH@c8 yTS@c8 yGB@h4"), "fireball bWZ n")
    for after in (fallen, burnt):
        assert where(after, "yTH") == "eliminated" and where(after, "yTS") == "c8"
        text = format_position(after)
        assert format_position(parse_position(text)) == text


def test_BG_PIT_06_a_rope_is_left_on_a_pit_only_with_two_valid_squares_beside_it():
    s = position("bTH@c7 bRP@c7")  # c8: valid neighbours c7, b8, c9 (d8 is a pit)
    after, _ = apply_texts(s, "move bTH c9 bRP@c8")
    assert where(after, "bRP") == "c8"
    # base tile 2G at A2: its pit a6 (r5c1) has walls north and east and the maze edge west: only a5 is beside it
    s = position("bTH@a5 bRP@a5", rooms=BASE_PIT_ROOMS, set_name="base_set")
    assert "a6" in dests(s, "bTH")
    assert not any("bRP@a6" in text for text in legal_set(s, token="bTH"))
    assert_refused(s, "move bTH a5 bRP@a6", "BG-PIT-06")


def test_BG_PIT_07_thief_wounded_on_a_pit_without_rope_is_eliminated():
    from tests.engine.builders import combat_round

    s = position("bWA@c7 yTH@c8")
    after, events = combat_round(s, "attack bWA yTH", 3, 0)
    assert where(after, "yTH") == "eliminated" and after.vp("B") == 1
    # with a Rope she survives, wounded (BG-PIT-08)
    s = position("bWA@c7 yTH@c8 yRP@c8")
    after, _ = combat_round(s, "attack bWA yTH", 3, 0)
    assert where(after, "yTH") == "c8!" and after.vp("B") == 0


def test_BG_PIT_08_wounded_on_a_rope_pit_stays_until_carried_away():
    from tests.engine.builders import combat_round

    s = position("bWA@c8 bRP@c8 yTR@c7", active="Y")
    s, _ = combat_round(s, "attack yTR bWA", 0, 3)
    assert where(s, "bWA") == "c8!" and where(s, "bRP") == "c8"
    s = position("bWA@c8! bRP@c8 bCL@b8")
    after, _ = apply_texts(s, "move bCL b9 +bWA")
    assert (where(after, "bWA"), where(after, "bRP")) == ("b9!", "c8")
    assert where(after, "bCL") == "b9"


def test_BG_PIT_09_enemy_taking_the_rope_drops_the_wounded_own_player_may_not():
    s = position("bWA@c8! bRP@c8 yCL@c10", active="Y")
    assert "move yCL c6 +bRP" in legal_set(s, token="yCL")
    after, events = apply_texts(s, "move yCL c6 +bRP")
    assert where(after, "bWA") == "eliminated" and where(after, "bRP") == "c6"
    assert after.vp("Y") == 1 and after.vp("B") == 0
    own = position("bWA@c8! bRP@c8 bCL@c10")
    assert not any("+bRP" in text for text in legal_set(own, token="bCL"))
    assert_refused(own, "move bCL c6 +bRP", "BG-PIT-09")


def test_BG_PIT_10_a_rope_crosses_one_obstacle_at_a_time():
    s = position("bWA@b8 bRP@b8")  # pits c8 and d8 side by side
    assert "c8" in dests(s, "bWA")
    assert dests(s, "bWA") & {"d8", "e8"} == set()
    assert_refused(s, "move bWA c8-d8-e8", "BG-PIT-10")
    thief = position("bTH@b8")  # the Thief is not limited
    assert {"d8", "e8"} <= dests(thief, "bTH")


def test_BG_EX_06_pits_with_a_rope_or_a_friend():
    # a Rope lies alone on a pit: the Troll crosses it and takes the Rope as he leaves
    s = position("bTR@c7 bRP@c8")
    after, _ = apply_texts(s, "move bTR c9 +bRP")
    assert (where(after, "bTR"), where(after, "bRP")) == ("c9", "c9")
    # the blue Cleric carrying a Rope stands on a pit: the blue Warrior crosses, may not stop or take the Rope
    s = position("bCL@c8 bRP@c8 bWA@c7 yWA@b7")
    assert "move bWA c9" in legal_set(s, token="bWA")
    assert "c8" not in dests(s, "bWA") and not any("+bRP" in t for t in legal_set(s, token="bWA"))
    # ... and a yellow character could not cross it
    y = position("bCL@c8 bRP@c8 yWA@c7", active="Y")
    assert "c9" not in dests(y, "yWA")


def test_BG_MOVE_10_BG_OBJ_ROPE_01_a_written_route_is_judged_with_what_the_mover_holds_on_each_step():
    """Review bg28: a route was explained with what the mover held at its start on every step. A Warrior who took
    the Rope lying on c7 and crossed the pit c8 to a friend's square c9 was told "bWA cannot enter the pit c8",
    which he could (the end square is what is wrong: BG-MOVE-08); one who handed his Rope to a friend, or left it,
    before the pit was told "that route is not a legal path" citing BG-MOVE-05, walls and portcullises."""
    took = position("bWA@b7 bRP@c7 bCL@c9")
    assert assert_refused(took, "move bWA c7-c8-c9 +bRP", "BG-MOVE-08").message == "bWA may cross c9 but not stop there"
    wounded = position("bWA@b7 bRP@c7 yGB@c9!")
    assert_refused(wounded, "move bWA c7-c8-c9 +bRP", "BG-MOVE-07")
    # the edge: that route is a legal move when c9 is free
    after, _ = apply_texts(position("bWA@b7 bRP@c7"), "move bWA c7-c8-c9 +bRP")
    assert (where(after, "bWA"), where(after, "bRP")) == ("c9", "c9")
    for start, leave in (("bCL@b8", "bRP@b8"), ("bCL@b6", "bRP@b8"), ("bCL@b6", "bRP@b7")):
        s = position(f"bWA@b7 bRP@b7 {start}")
        refusal = assert_refused(s, f"move bWA b8-c8-c9 {leave}", "BG-MOVE-10")
        assert refusal.message == "bWA cannot enter the pit c8"
    # the Rope left on the pit itself still carries him across it (BG-PIT-06: c8 has c7, b8 and c9 beside it)
    after, _ = apply_texts(position("bWA@b7 bRP@b7"), "move bWA b8-c8-c9 bRP@c8")
    assert (where(after, "bWA"), where(after, "bRP")) == ("c9", "c8")


def test_BG_EXIT_01_DT_291_an_exit_takes_nothing_lying_on_the_opponent_s_start_zone():
    """Review bg28: a figure leaves the maze as soon as it enters the opponent's start zone (BG-EXIT-01), so what
    lies on that square (the Treasure its owner dropped on his own zone) stays there, as a move, a jump and a
    wall-walk ending there leave it. `move bWA c21 +yTS` was refused "yTS lies on c21: bWA carries it by ending its
    move there, without +yTS", untrue: `move bWA c21` leaves it (BG-ITEM-03 does not apply: it never stops)."""
    s = position("bWA@c20 yTS@c21 yGB@h4")
    after, _ = apply_texts(s, "move bWA c21")
    assert (where(after, "bWA"), where(after, "yTS"), after.vp("B")) == ("exited", "c21", 1)
    refusal = assert_refused(s, "move bWA c21 +yTS", "BG-EXIT-01")
    assert refusal.message == "bWA leaves the maze as soon as it enters c21: it takes nothing lying there"
    # not by a swap either, and not the object lying with an enemy wounded character there (BG-EXIT-03)
    assert_refused(position("bWA@c20 bSW@c20 yTS@c21 yGB@h4"), "move bWA c21 +yTS bSW@c21", "BG-EXIT-01")
    over_wounded = position("bWA@c20 yGB@c21! yTS@c21 yTR@h4")
    assert_refused(over_wounded, "move bWA c21 +yTS", "BG-EXIT-01")
    after, _ = apply_texts(over_wounded, "move bWA c21")
    assert (where(after, "bWA"), where(after, "yTS"), where(after, "yGB")) == ("exited", "c21", "c21!")
    # a jump landing there (1G at A4: its pit c20 touches c21) carries its own load out and leaves the Treasure
    rooms = "A1=2D/0 B1=4G/0 A2=1D/0 B2=2G/0 A3=3G/0 B3=3D/0 A4=1G/0 B4=4D/0"
    jumped, _ = apply_texts(position("bWA@c19 bSW@c19 yTS@c21 yGB@a11", rooms=rooms, set_name="base_set"),
                            "jump bWA c20 c21")
    assert (where(jumped, "bWA"), where(jumped, "bSW"), where(jumped, "yTS"), jumped.vp("B")) == (
        "exited", "discarded", "c21", 1)
    # the edge: on his own start zone the same Treasure is carried by ending the move there (RUL-119)
    own = position("yWA@c20 yTS@c21 bGB@h4", active="Y")
    after, _ = apply_texts(own, "move yWA c21")
    assert (where(after, "yWA"), where(after, "yTS")) == ("c21", "c21")
    assert_refused(own, "move yWA c21 +yTS", "BG-ITEM-03")


def test_BG_MOVE_09_10_BG_EXIT_02_a_square_within_reach_is_refused_for_what_blocks_every_way():
    """Review bg28: a square within a figure's move value of connected steps that no way reaches was refused
    "c9 is not within 3 connected steps of bWA" (BG-MOVE-01), untrue: it is 2 steps away, over the pit c8. Half of
    the refused moves to squares a move value reaches (random positions) were told so. The refusal now names
    what blocks every way: pits (BG-MOVE-10), enemy figures (BG-MOVE-09), both, or the opponent's start zone,
    which ends a move (BG-EXIT-02)."""
    pit = assert_refused(position("bWA@c7"), "move bWA c9", "BG-MOVE-10")  # around: b7-b8-b9-c9 is 4 steps
    assert pit.message == "every way of bWA to c9 within 3 steps enters a pit it may not enter"
    enemy = assert_refused(position("bWA@c3 yTR@c4"), "move bWA c5", "BG-MOVE-09")
    assert enemy.message == "every way of bWA to c5 within 3 steps crosses a square holding an enemy figure"
    both = assert_refused(position("bWA@c7 yTR@c9"), "move bWA c10", "BG-MOVE-09")
    assert both.message == ("every way of bWA to c10 within 3 steps crosses a pit it may not enter or a square "
                            "holding an enemy figure")
    # base tiles: from f20 the Mechanork reaches e21 only along Yellow's start zone, where a move ends (f21)
    zone = position("bMK@f20 yWZ@f19 yCL@b19! bCL@h1", set_name="base_set",
                    rooms="A1=1G/3 B1=1D/3 A2=4D/0 B2=2D/0 A3=2G/2 B3=4G/3 A4=3D/2 B4=3G/3")
    assert "move bMK f21" in legal_set(zone, token="bMK")
    assert_refused(zone, "move bMK e21", "BG-EXIT-02")
    # the edges: beyond the move value it is still BG-MOVE-01; the Wizard flies over both; a Rope opens the pit
    assert assert_refused(position("bTR@c3"), "move bTR c6", "BG-MOVE-01").message == (
        "c6 is not within 2 connected steps of bTR")
    assert where(apply_texts(position("bWZ@c7 yTR@c9"), "move bWZ c10")[0], "bWZ") == "c10"
    assert where(apply_texts(position("bWA@c7 bRP@c7"), "move bWA c9")[0], "bWA") == "c9"


def test_BG_JUMP_06_a_figure_walled_off_from_a_pit_is_told_so_not_that_it_is_not_beside_it():
    """Review bg28: base tile 2G at A2 walls its pit a6 off from b6 and a7. `jump bWA a6 a5` from b6 was refused
    "bWA is not beside the pit a6" (BG-JUMP-03), and `jump bWA` there "no pit lies beside bWA": it is beside it,
    across a wall (BG-JUMP-06: both steps of a jump are connected)."""
    from dungeon_twister.engine import IllegalAction, resolve_input

    rooms = "A1=1G/0 B1=1D/0 A2=2G/0 B2=2D/0 A3=3G/0 B3=3D/0 A4=4G/0 B4=4D/0"
    for square in ("b6", "a7"):
        s = position(f"bWA@{square}", rooms=rooms, set_name="base_set")
        refusal = assert_refused(s, "jump bWA a6 a5", "BG-JUMP-06")
        assert refusal.message == f"a wall or closed portcullis lies between {square} and the pit a6"
        for typed in ("jump bWA", "jump bWA a6"):
            with pytest.raises(IllegalAction) as info:
                resolve_input(s, "B", typed)
            assert info.value.rule == "BG-JUMP-06"
    # the edges: from a5 the first step is open, the landing a7 is walled off (the existing BG-JUMP-06 refusal);
    # two squares away it is not beside the pit at all
    assert assert_refused(position("bWA@a5", rooms=rooms, set_name="base_set"), "jump bWA a6 a7",
                          "BG-JUMP-06").message == "a wall or closed portcullis lies beside the pit on a7"
    assert_refused(position("bWA@b5", rooms=rooms, set_name="base_set"), "jump bWA a6 a5", "BG-JUMP-03")
