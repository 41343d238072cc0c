"""The Banshee's Shockwave (PR-CHAR-BANSHEE-01..09, PR-EX-03): `push bBS <person>` for 2 AP, one square straight
away from her. Positions on the synthetic rooms (tests/engine/prison/builders.py): room A2 has the pits c8 and d8,
room A3 the wall b13|c13 and the arrow slit d14|e14; turn 5 is the current turn.
"""

from __future__ import annotations

import pytest

from dungeon_twister.engine import event_view

from ..builders import act, apply_texts, assert_refused, legal_set, where
from .builders import prison_position


def pushes(state) -> set[str]:
    return legal_set(state, verb="push")


def test_PR_CHAR_BANSHEE_01_push_the_first_person_on_a_line_one_square_away_for_2_ap():
    state = prison_position("bBS@c4 yNG@c6 yMK@a1")
    assert pushes(state) == {"push bBS yNG"}
    after, events = apply_texts(state, "push bBS yNG")
    assert (where(after, "yNG"), where(after, "bBS"), after.ap) == ("c7", "c4", 3)
    assert [event_view(e, None) for e in events if e.kind == "pushed"] == [
        {"kind": "pushed", "by": "bBS", "token": "yNG", "square": "c6", "to": "c7"}]


def test_PR_CHAR_BANSHEE_01_edge_two_ap_needed_and_only_the_first_person():
    assert pushes(prison_position("bBS@c4 yNG@c6 yMK@h4", ap=1)) == set()
    assert_refused(prison_position("bBS@c4 yNG@c6 yMK@h4", ap=1), "push bBS yNG", "PR-CHAR-BANSHEE-01")
    behind = prison_position("bBS@c4 yNG@c6 yMK@c9")  # the Naga hides the Mechanork (PR-LOS-02)
    assert "push bBS yMK" not in pushes(behind)
    assert_refused(behind, "push bBS yMK", "PR-CHAR-BANSHEE-01")
    assert_refused(prison_position("bMK@c4 yNG@c6 yTP@h4"), "push bMK yNG", "PR-CHAR-BANSHEE-01")  # no Shockwave


@pytest.mark.parametrize("tokens, target, rule, why", [
    ("bBS@a13 yNG@b13 yMK@h4", "yNG", "PR-CHAR-BANSHEE-02", "the wall b13|c13 behind him"),
    ("bBS@c14 yNG@d14 yMK@h4", "yNG", "PR-CHAR-BANSHEE-02", "the arrow slit d14|e14 behind him"),
    ("bBS@h4 yNG@j4 yMK@a1", "yNG", "PR-CHAR-BANSHEE-02", "off the board (j is the last file)"),
    ("bBS@c4 yNG@c6 yMK@c7", "yNG", "PR-CHAR-BANSHEE-02", "a figure behind him"),
    ("bBS@c4 yNG@c6 bMK@c7!", "yNG", "PR-CHAR-BANSHEE-02", "a wounded enemy of his behind him"),
    ("bBS@c19 yNG@c21 yMK@h4", "yNG", "PR-CHAR-BANSHEE-02", "he stands on a start zone"),
    ("bBS@c3 yNG@c1 yMK@h4", "yNG", "PR-CHAR-BANSHEE-05", "pushed onto the start zone c0"),
    ("bBS@c4 yNG@c6 yKY@c6 yRP@c7 yMK@h4", "yNG", "PR-CHAR-BANSHEE-03", "two objects would share c7"),
])
def test_PR_CHAR_BANSHEE_02_03_05_pushes_that_are_not_allowed(tokens, target, rule, why):
    state = prison_position(tokens)
    assert f"push bBS {target}" not in pushes(state), why
    assert_refused(state, f"push bBS {target}", rule)


def test_PR_CHAR_BANSHEE_03_where_a_pushed_person_may_land():
    """A figure onto an object (it then carries it); a wounded character onto a figure of its own colour."""
    onto_object = act(prison_position("bBS@c4 yNG@c6 yKY@c7 yMK@h4"), "push bBS yNG")
    assert (where(onto_object, "yNG"), where(onto_object, "yKY")) == ("c7", "c7")
    wounded = prison_position("bBS@c4 yNG@c6! yMK@c7 yTP@h4")
    assert "push bBS yNG" in pushes(wounded)
    assert where(act(wounded, "push bBS yNG"), "yNG") == "c7!"


def test_PR_CHAR_BANSHEE_04_the_pushed_person_takes_what_it_carries():
    carrier = act(prison_position("bBS@c4 yNG@c6 yKY@c6 yMK@h4"), "push bBS yNG")
    assert (where(carrier, "yNG"), where(carrier, "yKY")) == ("c7", "c7")
    lying = act(prison_position("bBS@c4 yNG@c6! yKY@c6 yMK@h4"), "push bBS yNG")  # the object lying with him
    assert (where(lying, "yNG"), where(lying, "yKY")) == ("c7!", "c7")


def test_PR_CHAR_BANSHEE_06_pushed_onto_a_pit_dies_the_object_stays_and_the_opponent_scores():
    state = prison_position("bBS@c5 yNG@c7 yKY@c7 yMK@h4")
    after, events = apply_texts(state, "push bBS yNG")
    assert (where(after, "yNG"), where(after, "yKY")) == ("eliminated", "c7")
    assert (after.vp("B"), after.vp("Y")) == (1, 0)
    assert any(e.kind == "eliminated" and e.data["cause"] == "pit" for e in events)


def test_PR_CHAR_BANSHEE_06_edge_a_rope_saves_flying_does_not():
    roped = act(prison_position("bBS@c5 yNG@c7 yRP@c7 yMK@h4"), "push bBS yNG")
    assert (where(roped, "yNG"), where(roped, "yRP"), roped.vp("B")) == ("c8", "c8", 0)
    wizard = act(prison_position("bBS@c5 yWZ@c7 yMK@h4"), "push bBS yWZ")
    assert (where(wizard, "yWZ"), wizard.vp("B")) == ("eliminated", 1)


def test_PR_CHAR_BANSHEE_07_the_same_person_pushed_twice_for_4_ap():
    after = act(prison_position("bBS@e4 yNG@e6 yMK@h4"), "push bBS yNG", "push bBS yNG")
    assert (where(after, "yNG"), after.ap) == ("e8", 1)
    assert_refused(after, "push bBS yNG", "PR-CHAR-BANSHEE-01")  # 1 AP left


def test_PR_CHAR_BANSHEE_08_not_a_combat_a_person_wounded_this_turn_may_be_pushed():
    state = prison_position("bBS@c4 yNG@c6!5 yMK@h4")  # wounded in turn 5, the current turn
    assert "attack" not in " ".join(legal_set(state))
    after, events = apply_texts(state, "push bBS yNG")
    assert where(after, "yNG") == "c7!" and after.phase == "main" and after.combat is None
    assert not any(e.kind.startswith("combat") for e in events)


def test_PR_CHAR_BANSHEE_09_the_banshee_is_undead():
    from dungeon_twister.engine.boardgame.catalogue import load

    assert {"undead", "shockwave"} <= load("prison").characters["BS"].abilities
    assert not any("undead" in kind.abilities for code, kind in load("prison").characters.items() if code != "BS")


def test_PR_EX_03_the_banshee_beside_a_slit_pushes_the_wizard_into_a_pit():
    """PR-EX-03, laid out on the synthetic rooms (the example's picture is not in our sources): for 2 AP the yellow
    Banshee pushes the blue Wizard into a pit (d7 into d8): he is eliminated, Yellow +1 VP; she may not push the
    blue Naga, the square behind him not being valid (the Mechanork stands there); beside an arrow slit she sees,
    and pushes, through it."""
    state = prison_position("yBS@d4 bWZ@d7 bMK@h4 yTP@a1", active="Y")
    after = act(state, "push yBS bWZ")
    assert (where(after, "bWZ"), after.vp("Y"), after.ap) == ("eliminated", 1, 3)
    blocked = prison_position("yBS@g4 bNG@g6 bMK@g7 yTP@a1", active="Y")
    assert pushes(blocked) == set()
    through_slit = prison_position("yBS@d14 bWZ@f14 bMK@h4 yTP@a1", active="Y")
    assert pushes(through_slit) == {"push yBS bWZ"}
