"""The Banshee's Shockwave (PR-CHAR-BANSHEE-01..09) and the worked examples PR-EX-01 and PR-EX-03, with the real
Prison rooms, every room revealed at orientation 0 (layout in test_prison_board.py):
  A1 = 37G: slit c3|d3, closed portcullis c4|c3.
  B1 = 37D: row 3 (f3..j3) an open corridor to the board's east edge; closed portcullis h4|h3; slit i3|i2 with
            i2, i1 below it and the start-zone square i0 beyond.
  A2 = 38G (ranks 6-10: r1 = rank 10): slit d9|e9 (r2c4:r2c5); pit b9 (r2c2) on the line west of e9; slit a7|b7
            (r4c1:r4c2) and pit d7 (r4c4) on the line east of a7.
"""

from __future__ import annotations

import dungeon_twister.engine.prison  # noqa: F401  (registers the Prison set)
from dungeon_twister.engine import IllegalAction, apply, format_action, legal_actions, parse_action
from dungeon_twister.engine.prison.shockwave import Push

from ..builders import apply_texts, assert_refused
from .test_prison_board_real import prison, sq


def yellow(tokens: str, **kwargs):
    return prison(tokens, active="Y", **kwargs)


def pushes(state) -> set[str]:
    return {format_action(a) for a in legal_actions(state) if isinstance(a, Push)}


def where(state, token: str):
    t = state.tokens[token]
    return t.square if t.where == "board" else t.where


# --- the worked examples -------------------------------------------------------------------------------------
EX = "yBS@e9 bWZ@c9 bNG@e7 bMK@e6 yNG@c4 bCL@c3"


def test_PR_EX_01_line_of_sight_and_slits():
    """PR-EX-01 (PR-LOS-01..04, PR-SLIT-03): the yellow Banshee on e9, beside the slit d9|e9, sees the blue Wizard
    on c9 beyond it (west) and the blue Naga on e7 (south); the Naga hides the blue Mechanork on e6 behind him. The
    blue Wizard, not beside the slit, sees nobody. The yellow Naga's line to the blue person behind the closed
    portcullis c4|c3 (here the Cleric on c3: the example's Mechanork stands on e6) is blocked."""
    from dungeon_twister.engine.prison.shockwave import targets

    def _targets(state, board, banshee):
        return {person.id: direction for direction, person in targets(state, board, banshee)}
    from dungeon_twister.engine.boardgame.board import board_of
    s = yellow(EX)
    board = board_of(s)
    assert _targets(s, board, s.tokens["yBS"]) == {"bWZ": "w", "bNG": "s"}
    assert _targets(s, board, s.tokens["bWZ"]) == {}
    assert _targets(s, board, s.tokens["yNG"]) == {}


def test_PR_EX_03_the_banshee_pushes_the_wizard_into_the_pit():
    """PR-EX-03 (PR-CHAR-BANSHEE-01..07): for 2 AP the yellow Banshee pushes the blue Wizard from c9 onto the pit
    b9: he is eliminated and Yellow scores 1 VP (levitation does not help). She may not push the blue Naga (the
    Mechanork stands behind him) nor the Mechanork (not on her line of sight)."""
    s = yellow(EX)
    assert pushes(s) == {"push yBS bWZ"}
    assert_refused(s, "push yBS bNG", "PR-CHAR-BANSHEE-02")
    assert_refused(s, "push yBS bMK", "PR-CHAR-BANSHEE-01")
    s2, events = apply_texts(s, "push yBS bWZ")
    assert where(s2, "bWZ") == "eliminated" and s2.ap == 3
    assert s2.vp("Y") == s.vp("Y") + 1 and s2.vp("B") == s.vp("B")
    assert [e.kind for e in events] == ["pushed", "eliminated"]
    assert s2.phase == "main"  # PR-CHAR-BANSHEE-08: no combat, no cards


def test_PR_EX_03_the_blue_banshee_pushes_twice_into_a_pit():
    """PR-EX-03, PR-CHAR-BANSHEE-07: the blue Banshee on a7, beside the slit a7|b7, pushes the yellow Mechanork from
    b7 to c7 (2 AP), then again onto the pit d7 (2 more AP): eliminated, Blue +1 VP, 1 AP left."""
    s = prison("bBS@a7 yMK@b7")
    s1, _ = apply_texts(s, "push bBS yMK")
    assert where(s1, "yMK") == sq("c7") and s1.ap == 3
    s2, _ = apply_texts(s1, "push bBS yMK")
    assert where(s2, "yMK") == "eliminated" and s2.ap == 1 and s2.vp("B") == s.vp("B") + 1
    assert pushes(s2) == set()  # 1 AP is not enough (PR-CHAR-BANSHEE-01)


# --- refusals -------------------------------------------------------------------------------------------------
def test_PR_CHAR_BANSHEE_01_only_the_banshee_only_the_first_person_and_2_AP():
    """PR-CHAR-BANSHEE-01: the Wizard has no Shockwave; the Banshee on f3 pushes the first person east (g3), not the
    one behind it (i3); with 1 AP left she cannot push at all (PR-CHAR-BANSHEE-01: it costs 2)."""
    s = yellow("yBS@f3 yWZ@j1 bMK@g3 bCL@i3")
    assert pushes(s) == {"push yBS bMK"}
    assert_refused(s, "push yWZ bMK", "PR-CHAR-BANSHEE-01")
    assert_refused(s, "push yBS bCL", "PR-CHAR-BANSHEE-01")
    low = yellow("yBS@f3 bMK@g3", ap=1)
    assert pushes(low) == set()
    assert_refused(low, "push yBS bMK", "PR-CHAR-BANSHEE-01")


def test_PR_CHAR_BANSHEE_02_no_push_off_the_board_onto_a_figure_or_an_enemy_wounded():
    """PR-CHAR-BANSHEE-02: from f3 east: a person on j3 would leave the board; one on h3 with a figure on i3, or
    (a figure) with a wounded enemy on i3, cannot be pushed."""
    assert_refused(yellow("yBS@f3 bMK@j3"), "push yBS bMK", "PR-CHAR-BANSHEE-02")
    assert_refused(yellow("yBS@f3 bMK@h3 bCL@i3"), "push yBS bMK", "PR-CHAR-BANSHEE-02")
    assert_refused(yellow("yBS@f3 bMK@h3 yCL@i3!"), "push yBS bMK", "PR-CHAR-BANSHEE-02")
    assert_refused(yellow("yBS@f3 bMK@h3 yCL@i3"), "push yBS bMK", "PR-CHAR-BANSHEE-02")  # her own figure too


def test_PR_CHAR_BANSHEE_02_PR_SLIT_02_a_wall_portcullis_or_slit_stops_the_push():
    """PR-CHAR-BANSHEE-02, PR-SLIT-02: the Banshee on h5 sees the Mechanork on h4 but the closed portcullis h4|h3
    stops the push; the Banshee on a3 sees the Mechanork on c3 but the slit c3|d3 stops it."""
    s = yellow("yBS@h5 bMK@h4")
    assert pushes(s) == set()
    assert_refused(s, "push yBS bMK", "PR-CHAR-BANSHEE-02")
    opened, _ = apply_texts(yellow("yBS@h5 bMK@h4", ports="37D=oc"), "push yBS bMK")
    assert where(opened, "bMK") == sq("h3")
    assert_refused(yellow("yBS@a3 bMK@c3"), "push yBS bMK", "PR-CHAR-BANSHEE-02")


def test_PR_CHAR_BANSHEE_02_05_not_from_and_not_onto_a_start_zone():
    """PR-CHAR-BANSHEE-02/05 (RUL-059): the Banshee on i3 sees south across the slit i3|i2 (beside it): a person on
    i1 may not be pushed onto the start zone i0; a person standing on i0 may not be pushed at all."""
    assert_refused(yellow("yBS@i3 bMK@i1"), "push yBS bMK", "PR-CHAR-BANSHEE-05")
    assert_refused(yellow("yBS@i3 bMK@i0"), "push yBS bMK", "PR-CHAR-BANSHEE-02")
    s, _ = apply_texts(yellow("yBS@i3 bMK@i2"), "push yBS bMK")
    assert where(s, "bMK") == sq("i1")


# --- what moves, what lands ---------------------------------------------------------------------------------------
def test_PR_CHAR_BANSHEE_03_a_figure_lands_on_an_object_or_its_own_wounded():
    """PR-CHAR-BANSHEE-03: the blue Mechanork pushed from h3 lands on the yellow Key on i3 (he now carries it), or on
    a blue wounded Cleric there; a blue wounded Cleric pushed onto i3 where a blue figure stands lands under it."""
    s, _ = apply_texts(yellow("yBS@f3 bMK@h3 yKY@i3"), "push yBS bMK")
    assert where(s, "bMK") == where(s, "yKY") == sq("i3")
    s, _ = apply_texts(yellow("yBS@f3 bMK@h3 bCL@i3!"), "push yBS bMK")
    assert where(s, "bMK") == where(s, "bCL") == sq("i3")
    s, _ = apply_texts(yellow("yBS@f3 bCL@h3! bMK@i3"), "push yBS bCL")
    assert where(s, "bMK") == where(s, "bCL") == sq("i3") and s.tokens["bCL"].wounded


def test_PR_CHAR_BANSHEE_03_the_golden_rules_must_hold_after_the_push():
    """PR-CHAR-BANSHEE-03: a figure carrying an object cannot land on another object (two objects, BG-GOLD-03);
    a wounded person cannot land where a figure stands with an object (three tokens)."""
    assert_refused(yellow("yBS@f3 bMK@h3 bKY@h3 yRP@i3"), "push yBS bMK", "PR-CHAR-BANSHEE-03")
    assert_refused(yellow("yBS@f3 bCL@h3! bMK@i3 bKY@i3"), "push yBS bCL", "PR-CHAR-BANSHEE-03")


def test_PR_CHAR_BANSHEE_04_the_pushed_person_takes_what_it_carries():
    """PR-CHAR-BANSHEE-04: the Mechanork carrying the Key, and a figure carrying its own wounded, go with them."""
    s, _ = apply_texts(yellow("yBS@f3 bMK@h3 bKY@h3"), "push yBS bMK")
    assert where(s, "bMK") == where(s, "bKY") == sq("i3")
    s, _ = apply_texts(yellow("yBS@f3 bMK@h3 bCL@h3!"), "push yBS bMK")
    assert where(s, "bMK") == where(s, "bCL") == sq("i3")
    s, _ = apply_texts(yellow("yBS@f3 bCL@h3! yKY@h3"), "push yBS bCL")  # a wounded takes the object lying with it
    assert where(s, "bCL") == where(s, "yKY") == sq("i3")


def test_PR_CHAR_BANSHEE_06_the_pit_kills_unless_a_rope_and_the_object_stays_behind():
    """PR-CHAR-BANSHEE-06 (RUL-012, BG-VP-04): the blue Wizard pushed onto the pit b9 dies although he flies; the Key
    he carried stays on c9; with a Rope he survives on the pit, Rope and all. A pushed yellow figure's death scores
    for Blue even when a yellow Banshee pushes it (her own side)."""
    s, _ = apply_texts(yellow("yBS@e9 bWZ@c9 bKY@c9"), "push yBS bWZ")
    assert where(s, "bWZ") == "eliminated" and where(s, "bKY") == sq("c9")
    s, _ = apply_texts(yellow("yBS@e9 bWZ@c9 bRP@c9"), "push yBS bWZ")
    assert where(s, "bWZ") == where(s, "bRP") == sq("b9")
    start = yellow("yBS@e9 yMK@c9")
    s, events = apply_texts(start, "push yBS yMK")
    assert where(s, "yMK") == "eliminated" and s.vp("B") == start.vp("B") + 1 and s.vp("Y") == start.vp("Y")
    assert [e.data["scorer"] for e in events if e.kind == "eliminated"] == ["B"]


def test_PR_CHAR_BANSHEE_08_not_a_combat_a_person_wounded_this_turn_may_be_pushed():
    """PR-CHAR-BANSHEE-08 (RUL-035): a blue Cleric wounded in this very turn (turn 5) is pushed; no combat starts."""
    s = yellow("yBS@f3 bCL@h3!5", turn=5)
    assert "push yBS bCL" in pushes(s)
    s2, events = apply_texts(s, "push yBS bCL")
    assert where(s2, "bCL") == sq("i3") and s2.phase == "main" and s2.combat is None
    assert "combat_started" not in [e.kind for e in events]


def test_PR_CHAR_BANSHEE_notation_round_trips():
    """The canonical text `push yBS bWZ` parses back to the same action (docs/notation.md)."""
    action = parse_action("push yBS bWZ", "Y")
    assert action == Push("Y", "yBS", "bWZ") and format_action(action) == "push yBS bWZ"
    assert parse_action("push BS bWZ", "Y") == action


POSITIONS = [EX, "yBS@f3 bMK@g3 bCL@h3", "yBS@f3 bMK@h3 bCL@i3!", "yBS@f3 bCL@h3! bMK@i3 bKY@i3",
             "yBS@i3 bMK@i1", "yBS@i3 bMK@i0", "yBS@e9 yMK@c9 bBS@e7", "yBS@h5 bMK@h4", "yBS@a3 bMK@c3 yNG@a4",
             "yBS@f3 bMK@h3 yKY@i3 bBS@f1"]


def test_PR_CHAR_BANSHEE_generated_pushes_are_exactly_the_accepted_ones():
    """Legal = accepted: in each position, every `push` of every Banshee at every character is generated iff
    `apply` accepts it."""
    for tokens in POSITIONS:
        for active in ("Y", "B"):
            s = prison(tokens, active=active)
            generated = pushes(s)
            people = [t for t in s.tokens.values() if t.is_character and t.where == "board"]
            for banshee in people:
                for target in people:
                    text = f"push {banshee.id} {target.id}"
                    try:
                        apply(s, parse_action(text, active))
                        accepted = True
                    except IllegalAction:
                        accepted = False
                    assert accepted == (text in generated), (tokens, active, text)


def test_PR_CHAR_BANSHEE_06_DT_101_a_rope_lying_on_the_pit_saves_the_pushed_person():
    """PR-CHAR-BANSHEE-06, DT-101: the Rope lying alone on the pit b9 saves the empty-handed Wizard pushed onto it
    (he then carries it); a Wizard with the Key would leave two objects there: refused (PR-CHAR-BANSHEE-03)."""
    s, _ = apply_texts(yellow("yBS@e9 bWZ@c9 yRP@b9"), "push yBS bWZ")
    assert where(s, "bWZ") == where(s, "yRP") == sq("b9")
    assert_refused(yellow("yBS@e9 bWZ@c9 bKY@c9 yRP@b9"), "push yBS bWZ", "PR-CHAR-BANSHEE-03")


def test_PR_CHAR_BANSHEE_06_DT_101_a_carried_wounded_stays_behind():
    """PR-CHAR-BANSHEE-06, DT-101: the blue Mechanork carrying his wounded Cleric is pushed from c9 into the pit
    b9: he dies (Yellow +1 VP), the Cleric stays wounded on c9."""
    start = yellow("yBS@e9 bMK@c9 bCL@c9!")
    s, _ = apply_texts(start, "push yBS bMK")
    assert where(s, "bMK") == "eliminated" and where(s, "bCL") == sq("c9") and s.tokens["bCL"].wounded
    assert s.vp("Y") == start.vp("Y") + 1
