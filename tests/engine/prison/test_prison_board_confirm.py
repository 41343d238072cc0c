"""Prison confirmations of base rules (PR-CORE-01/04/07/11..16, PR-CHAR-MECHANORK-01, PR-CHAR-WIZARD-01,
PR-OBJ-ROPE-01) and the worked example PR-EX-04, each shown in a Prison game with the real Prison rooms (layout
and squares in test_prison_board.py; A2 = 38G: pit b9 with a9, c9 and b8 beside it and a wall b9|b10; gear c8).
"""

from __future__ import annotations

import dungeon_twister.engine.prison  # noqa: F401  (registers the Prison set)
from dungeon_twister.engine import format_action, legal_actions
from dungeon_twister.engine.boardgame.board import board_of

from ..builders import apply_texts, assert_refused
from .test_prison_board_real import names, prison, sq


def test_PR_CORE_01_at_most_two_tokens_one_of_each_kind():
    """PR-CORE-01 (BG-MOVE-12, BG-GOLD-03): the Naga carrying the Key may not stop on e3 where the Rope lies (a
    figure and two objects: 3 tokens)."""
    assert_refused(prison("bNG@d3 bKY@d3 yRP@e3"), "move bNG e3", "BG-MOVE-12")
    s, _ = apply_texts(prison("bNG@d3 yRP@e3"), "move bNG e3")  # empty-handed, it stops there and carries it
    assert s.tokens["bNG"].square == s.tokens["yRP"].square == sq("e3")


def test_PR_CORE_04_an_action_is_resolved_before_the_next():
    """PR-CORE-04 (BG-GOLD-01): once the Colossus attacks, no move until the combat cards are in."""
    s, _ = apply_texts(prison("bCO@g3 yMK@h3"), "attack bCO yMK")
    assert s.phase == "combat"
    assert_refused(s, "move bCO f3", "BG-GOLD-01")


def test_PR_CORE_07_the_revealer_places_all_but_his_own_objects():
    """PR-CORE-07 (BG-REVEAL-05..07): the blue Naga on c5 reveals A2 (38G, face down) holding a yellow Mechanork
    and a blue Key: Blue places the Mechanork (a figure), not on the pit b9; then Yellow places the blue Key."""
    rooms = "A1=37G/0 B1=37D/0 A2=*38G/0 B2=38D/0 A3=39G/0 B3=39D/0 A4=40G/0 B4=40D/0"
    s, _ = apply_texts(prison("bNG@c5 yMK#A2.1 bKY#A2.2", rooms=rooms), "reveal bNG A2")
    assert s.phase == "place" and s.placement.placer == "B" and s.ap == 4
    assert_refused(s, "place bKY a9", "BG-REVEAL-06")
    assert_refused(s, "place yMK b9", "BG-REVEAL-07")
    s, _ = apply_texts(s, "place yMK a9")
    assert s.tokens["yMK"].square == sq("a9") and not s.tokens["yMK"].wounded
    assert s.placement.placer == "Y"
    s, _ = apply_texts(s, "place bKY e10", seat="Y")
    assert s.phase == "main" and s.tokens["bKY"].square == sq("e10")


def test_PR_CORE_11_PR_LOS_03_a_pit_does_not_block_sight():
    """PR-CORE-11, PR-LOS-03: from e9 (beside the slit d9|e9) the line west runs over the pit b9 to a9."""
    assert names(board_of(prison("bBS@e9")).sight_line(sq("e9"), "w")) == ["d9", "c9", "b9", "a9"]


def test_PR_CORE_12_cross_own_figures_not_stop_and_no_enemy_figure():
    """PR-CORE-12 (BG-MOVE-08/09): the Mechanork crosses the blue Cleric on g3 to h3 (2 squares, 1 AP), may not
    stop on g3, and may not pass a yellow figure there (the corridor is the only way: h3 out of reach)."""
    s, _ = apply_texts(prison("bMK@f3 bCL@g3"), "move bMK g3-h3")
    assert s.tokens["bMK"].square == sq("h3") and s.ap == 4
    assert_refused(prison("bMK@f3 bCL@g3"), "move bMK g3", "BG-MOVE-08")
    assert_refused(prison("bMK@f3 yCL@g3"), "move bMK g3-h3", "BG-MOVE-09")


def test_PR_CORE_13_PR_CORE_14_cross_an_enemy_wounded_take_its_object_never_stop_on_it():
    """PR-CORE-13/14 (BG-MOVE-07, BG-ITEM-06): the Mechanork crosses the wounded yellow Cleric on g3, taking the Key
    lying with him, to h3; he may not stop on g3."""
    s, _ = apply_texts(prison("bMK@f3 yCL@g3! yKY@g3"), "move bMK h3 +yKY")
    assert s.tokens["bMK"].square == s.tokens["yKY"].square == sq("h3")
    assert s.tokens["yCL"].square == sq("g3")
    assert_refused(prison("bMK@f3 yCL@g3!"), "move bMK g3", "BG-MOVE-07")


def test_PR_CORE_16_jump_lands_on_any_valid_square_beside_the_pit():
    """PR-CORE-16 (BG-JUMP-03, RUL-007): from c9 over the pit b9 the Mechanork lands on a9 or b8 (1 AP); b10 lies
    beyond a wall (BG-JUMP-06)."""
    jumps = {format_action(a) for a in legal_actions(prison("bMK@c9")) if a.verb == "jump"}
    assert jumps == {"jump bMK b9 a9", "jump bMK b9 b8"}
    s, _ = apply_texts(prison("bMK@c9"), "jump bMK b9 a9")
    assert s.tokens["bMK"].square == sq("a9") and s.ap == 4
    assert_refused(prison("bMK@c9"), "jump bMK b9 b10", "BG-JUMP-06")


def test_PR_EX_04_PR_OBJ_ROPE_01_hand_over_and_rope():
    """PR-EX-04 (BG-ITEM-05, PR-OBJ-ROPE-01): the blue Naga carrying the Key crosses the blue Mechanork carrying the
    Rope on c9, gives him the Key, takes the Rope and ends on the pit b9, where the Rope lets him stay: 1 AP. Without
    the exchange he may not stop on the pit (BG-MOVE-12)."""
    start = prison("bNG@c8 bKY@c8 bMK@c9 bRP@c9")
    s, _ = apply_texts(start, "move bNG b9 +bRP bKY@c9")
    assert s.tokens["bNG"].square == s.tokens["bRP"].square == sq("b9") and s.ap == 4
    assert s.tokens["bKY"].square == s.tokens["bMK"].square == sq("c9")
    assert_refused(start, "move bNG b9", "BG-MOVE-12")


def test_PR_CHAR_WIZARD_01_flies_over_pits_and_enemies_but_ends_on_a_valid_square():
    """PR-CHAR-WIZARD-01: the Wizard on c9 flies over the pit b9 to a9 (2 squares, 1 AP); he may not stop on the
    pit (BG-MOVE-10); over a yellow Mechanork in the corridor (g3) he reaches h3."""
    s, _ = apply_texts(prison("bWZ@c9"), "move bWZ b9-a9")
    assert s.tokens["bWZ"].square == sq("a9") and s.ap == 4
    assert_refused(prison("bWZ@c9"), "move bWZ b9", "BG-MOVE-10")
    s, _ = apply_texts(prison("bWZ@f3 yMK@g3"), "move bWZ g3-h3")
    assert s.tokens["bWZ"].square == sq("h3")


def test_PR_CHAR_MECHANORK_01_turns_either_way_others_follow_the_arrow():
    """PR-CHAR-MECHANORK-01: on 37G's gear c3 the Mechanork turns A1 or its twin B1 (37D) either way, 1 AP a
    quarter; the Assassin on the same gear only in each room's arrow direction (37G counter-clockwise, 37D
    clockwise)."""
    rotations = {format_action(a) for a in legal_actions(prison("bMK@c3")) if a.verb == "rotate"}
    assert rotations == {"rotate bMK A1 cw", "rotate bMK A1 ccw", "rotate bMK B1 cw", "rotate bMK B1 ccw"}
    s, _ = apply_texts(prison("bMK@c3"), "rotate bMK A1 cw")
    assert s.room_at((0, 0)).orientation == 1 and s.ap == 4
    others = {format_action(a) for a in legal_actions(prison("bAS@c3")) if a.verb == "rotate"}
    assert others == {"rotate bAS A1 ccw", "rotate bAS B1 cw"}


def test_PR_CORE_09_PR_CORE_10_empty_floor_and_valid_squares():
    """PR-CORE-09 (BG-REVEAL-07): a revealed token may go on an empty rotation mechanism (38G's gear c8) but not on a
    square holding a token. PR-CORE-10 (BG-JUMP-04): a valid square is one a figure may end on: the Mechanork jumping
    the pit b9 may not land on b8 when a blue figure stands there: only a9 is left."""
    rooms = "A1=37G/0 B1=37D/0 A2=*38G/0 B2=38D/0 A3=39G/0 B3=39D/0 A4=40G/0 B4=40D/0"
    s, _ = apply_texts(prison("bNG@c5 yMK#A2.1 yKY#A2.2", rooms=rooms), "reveal bNG A2")
    s, _ = apply_texts(s, "place yMK c8")
    assert s.tokens["yMK"].square == sq("c8")
    assert_refused(s, "place yKY c8", "BG-REVEAL-07")
    jumps = {format_action(a) for a in legal_actions(prison("bMK@c9 bCL@b8")) if a.verb == "jump"
             and a.token == "bMK"}
    assert jumps == {"jump bMK b9 a9"}


def test_PR_CORE_15_two_objects_never_share_a_square():
    """PR-CORE-15 (BG-GOLD-03): the Naga carrying the Key may not drop it where the Rope lies (e3) on the way: the
    drop is refused as a drop that may not be made there (BG-ITEM-04), the message naming the two objects."""
    error = assert_refused(prison("bNG@d3 bKY@d3 yRP@e3"), "move bNG f3 bKY@e3", "BG-ITEM-04")
    assert "two tokens of one kind" in str(error)
