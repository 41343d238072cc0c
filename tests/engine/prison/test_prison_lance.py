"""The Telescopic Lance (PR-OBJ-LANCE-01..06, PR-EX-05). Synthetic rooms (tests/engine/prison/builders.py): rooms
A1 and B1 (ranks 1-5) are empty floor, room A2 has the pits c8 and d8, room A3 the wall b13|c13 and the arrow slit
d14|e14."""

from __future__ import annotations

import pytest

from dungeon_twister.engine import event_view

from ..builders import act, apply_texts, assert_refused, legal_set, where
from .builders import prison_position


def lances(state) -> set[str]:
    return legal_set(state, verb="lance")


def fight(state, action: str, blue: int, yellow: int):
    state, events = apply_texts(state, action)
    state, more = apply_texts(state, f"combat +{blue}", seat="B")
    state, last = apply_texts(state, f"combat +{yellow}", seat="Y")
    return state, next(event_view(e, None) for e in more + last if e.kind == "combat_resolved")


def test_PR_OBJ_LANCE_01_a_person_exactly_2_squares_away_in_a_line_for_1_ap():
    """The Colossus (5) with the lance reaches c3 and e1, not c2 (beside him: PR-OBJ-LANCE-03) nor c4 (3 away)."""
    state = prison_position("bCO@c1 bLN@c1 yNG@c3 yMK@e1 yTP@c5 yBS@h5")
    assert lances(state) == {"lance bCO yNG", "lance bCO yMK"}
    assert_refused(state, "lance bCO yTP", "PR-OBJ-LANCE-01")
    declared = act(state, "lance bCO yNG")
    assert declared.ap == 4 and declared.combat.lancer == "bCO" and declared.combat.attackers == ()
    after, resolved = fight(state, "lance bCO yNG", 0, 0)
    assert (resolved["attack"], resolved["defence"], resolved["winner"]) == (5, 2, "B")
    assert where(after, "yNG") == "c3!"


def test_PR_OBJ_LANCE_01_edge_nobody_between_an_obstacle_may_be_and_no_wall():
    assert lances(prison_position("bCO@c1 bLN@c1 yNG@c3 yMK@c2! yBS@h5")) == set()  # a wounded person between
    assert_refused(prison_position("bCO@c1 bLN@c1 yNG@c3 yMK@c2! yBS@h5"), "lance bCO yNG", "PR-OBJ-LANCE-01")
    over_pit = prison_position("bCO@c7 bLN@c7 yNG@c9 yBS@h5")  # the pit c8 lies between
    assert lances(over_pit) == {"lance bCO yNG"}
    walled = prison_position("bCO@a13 bLN@a13 yNG@c13 yBS@h5")  # b13|c13 is a wall
    assert lances(walled) == set()
    assert_refused(walled, "lance bCO yNG", "PR-OBJ-LANCE-01")


@pytest.mark.parametrize("tokens, text, rule, template", [
    ("bCO@c1 bLN@c1 yNG@c3 yTP@c5 yBS@h5", "lance bCO yTP", "PR-OBJ-LANCE-01",
     "{target} is not 2 free squares away in a straight line"),
    ("bCO@c1 bLN@c1 bNG@c3 yBS@h5", "lance bCO bNG", "PR-OBJ-LANCE-01", "{target} is not an enemy"),
    ("bCO@c1 yNG@c3 yBS@h5", "lance bCO yNG", "PR-OBJ-LANCE-01", "{figure} carries no Telescopic Lance"),
    ("bCO@c1 bLN@c1 yNG@c2 yBS@h5", "lance bCO yNG", "PR-OBJ-LANCE-03",
     "{target} is beside {figure}: the lance is no use against it"),
    ("bCO@c1 bLN@c1 yNG@c3!5 yBS@h5", "lance bCO yNG", "BG-COMBAT-07", "{target} was wounded this turn"),
])
def test_PR_OBJ_LANCE_01_03_BG_COMBAT_07_each_refusal_of_a_lance_says_its_own_rule(tokens, text, rule, template):
    """Found by the audit ta29 (a trace of the refusals whose rule a test reads): but for the first, these were met
    only by sweeps that read no rule. Three squares away; a friend; no lance carried; the target beside the carrier
    (PR-OBJ-LANCE-03); a target wounded this very turn (turn 5)."""
    assert assert_refused(prison_position(tokens), text, rule).template == template


def test_PR_OBJ_LANCE_02_never_affects_the_carrier_breaks_when_its_side_loses_tie_nothing():
    lost, resolved = fight(prison_position("bMK@c1 bLN@c1 yCO@c3 yBS@h5"), "lance bMK yCO", 0, 0)
    assert (resolved["attack"], resolved["defence"], resolved["winner"]) == (2, 5, "Y")
    assert (where(lost, "bMK"), where(lost, "bLN")) == ("c1", "discarded")  # the event: lance_broken
    tie, resolved = fight(prison_position("bMK@c1 bLN@c1 yNG@c3 yBS@h5"), "lance bMK yNG", 0, 0)
    assert resolved["winner"] is None and (where(tie, "bLN"), where(tie, "yNG")) == ("c1", "c3")


def test_PR_OBJ_LANCE_03_no_use_beside_an_enemy_figure_nor_in_defence():
    beside = prison_position("bCO@c1 bLN@c1 yNG@c3 yMK@b1 yBS@h5")
    assert lances(beside) == set()
    assert_refused(beside, "lance bCO yNG", "PR-OBJ-LANCE-03")
    defending = act(prison_position("bNG@c3 yMK@c4 yCO@c6 yLN@c6 bTP@h1"), "attack bNG yMK")
    assert defending.combat.defenders == ("yMK",)  # the lance carrier two squares off does not defend


def test_PR_OBJ_LANCE_04_PR_EX_05_through_an_arrow_slit_only_the_square_across():
    """PR-EX-05: beside the slit d14|e14 the Cleric's lance reaches e14 right across it, not f14; one square back
    (c14) it reaches nothing through the slit; without a lance there is no attack across a slit."""
    state = prison_position("bCL@d14 bLN@d14 yMK@e14 yNG@f14 yBS@h5")
    assert lances(state) == {"lance bCL yMK"}
    assert lances(prison_position("bCL@d14 bLN@d14 yNG@f14 yBS@h5")) == set()
    assert lances(prison_position("bCL@c14 bLN@c14 yMK@e14 yBS@h5")) == set()
    assert "attack bCL yMK" not in legal_set(prison_position("bCL@d14 yMK@e14 yBS@h5"))


def test_PR_OBJ_LANCE_05_a_lance_may_start_a_group_combat():
    """Blue's Naga beside the target joins; if Blue loses, the Naga is wounded and the lance breaks, the carrier
    is untouched."""
    state = prison_position("bCO@c1 bLN@c1 bNG@d3 yMK@c3 yBS@h5")
    assert act(state, "lance bCO yMK").combat.attackers == ("bNG",)
    after, resolved = fight(state, "lance bCO yMK", 0, 6)
    assert (resolved["attack"], resolved["defence"], resolved["winner"]) == (5 + 2, 2 + 6, "Y")
    assert (where(after, "bNG"), where(after, "bCO"), where(after, "bLN")) == ("d3!", "c1", "discarded")


def test_PR_OBJ_LANCE_06_reusable_while_unbroken():
    after, _ = fight(prison_position("bCO@c1 bLN@c1 yNG@c3 yMK@e1 yBS@h5"), "lance bCO yNG", 6, 0)
    assert "lance bCO yMK" in lances(after) and where(after, "bLN") == "c1"


def _fight(state, action: str, blue: int, yellow: int) -> tuple:
    """`action`, then the cards: (the state after, attack, defence, winner)."""
    state, _ = apply_texts(state, action)
    state, more = apply_texts(state, f"combat +{blue}", seat="B")
    state, last = apply_texts(state, f"combat +{yellow}", seat="Y")
    resolved = next(event_view(e, None) for e in more + last if e.kind == "combat_resolved")
    return state, resolved["attack"], resolved["defence"], resolved["winner"]


def test_PR_CHAR_TELEPATH_01_RUL_118_a_single_lance_combat_is_a_melee_for_the_telepath():
    """RUL-118: a single combat started with a Telescopic Lance is a single melee, so Mind control works in it,
    whichever side the Telepath is on: the Colossus lances the yellow Telepath and Yellow names a card first; the
    blue Telepath lancing the Naga names one himself. No naming was asked in a lance combat."""
    lanced = act(prison_position("bCO@c1 bLN@c1 yTP@c3 yBS@h5"), "lance bCO yTP")
    assert lanced.to_act == ("Y",) and legal_set(lanced, seat="Y") == {"mind none", *(f"mind +{v}" for v in range(1, 7))}
    lancing = act(prison_position("bTP@c1 bLN@c1 yNG@c3 yBS@h5"), "lance bTP yNG")
    assert lancing.to_act == ("B",) and "mind +3" in legal_set(lancing, seat="B")


def test_PR_CHAR_ASSASSIN_01_DT_106_the_lancer_is_her_ally_for_backstab():
    """The blue Colossus lances the yellow Mechanork from c1; the blue Assassin beside him on d3 joins the group: the
    lancer takes part, so she stabs: 5 + 2 + 2 = 9 against 2 (the lancer was not counted: 7)."""
    _, attack, defence, winner = _fight(prison_position("bCO@c1 bLN@c1 bAS@d3 yMK@c3 yBS@h5"), "lance bCO yMK", 0, 0)
    assert (attack, defence, winner) == (9, 2, "B")


def test_PR_CHAR_ASSASSIN_01_DT_107_a_lancer_assassin_stabs_with_an_ally_in_the_group():
    """Found by a rules review (DE: a lance fights « einen Nahkampf über eine Entfernung von 2 Feldern »): the
    blue Assassin lances the yellow Mechanork from c2, the blue Naga beside him on d4 joins the group: 2 + 2 + 2 =
    6 against 2 (she added nothing: 4). Lancing alone she adds nothing, as in any melee (2 against 2)."""
    _, attack, defence, winner = _fight(prison_position("bAS@c2 bLN@c2 bNG@d4 yMK@c4 yTP@h5"), "lance bAS yMK", 0, 0)
    assert (attack, defence, winner) == (6, 2, "B")
    _, attack, defence, winner = _fight(prison_position("bAS@c2 bLN@c2 yMK@c4 yTP@h5"), "lance bAS yMK", 0, 0)
    assert (attack, defence, winner) == (2, 2, None)


def test_PR_CHAR_ASSASSIN_01_a_wounded_character_is_no_ally_for_backstab():
    """"Another figure of her side": the blue Naga attacks the wounded yellow Mechanork, and the yellow Assassin beside
    the Naga defends with him; a wounded character is no figure, so she does not stab: 0 + 2 against 2 (it was 4)."""
    _, attack, defence, winner = _fight(prison_position("bNG@c3 yMK@c4!4 yAS@b3 yBS@h5"), "attack bNG yMK", 0, 0)
    assert (attack, defence, winner) == (2, 2, None)


def test_BG_CARRY_04_PR_OBJ_LANCE_01_a_carried_wounded_character_is_no_lance_target():
    """Found by a rules review (2026-11-29, helper pr19): the yellow Mechanork on c3, 2 squares from the lance,
    carries the wounded yellow Cleric. The lance reaches the Mechanork (the person a line meets); naming the
    carried Cleric was refused as "not 2 free squares away in a straight line", which is false (he lies 2 squares
    away): he cannot be attacked because he is carried (BG-CARRY-04), the refusal a melee attack on him gives."""
    state = prison_position("bCO@c1 bLN@c1 yMK@c3 yCL@c3!4 yBS@h5")
    assert lances(state) == {"lance bCO yMK"}
    refused = assert_refused(state, "lance bCO yCL", "BG-CARRY-04")
    assert refused.message == "yCL is carried and cannot be attacked"
    across = prison_position("bCO@d14 bLN@d14 yMK@e14 yCL@e14!4 yBS@h5")  # across the slit d14|e14 (LANCE-04)
    assert lances(across) == {"lance bCO yMK"}
    assert_refused(across, "lance bCO yCL", "BG-CARRY-04")
    alone = prison_position("bCO@c1 bLN@c1 yCL@c3!4 yBS@h5")  # lying alone, he is a target
    assert lances(alone) == {"lance bCO yCL"}


def test_PR_OBJ_LANCE_04_DT_267_across_an_arrow_slit_the_lance_reaches_a_wounded_person_too():
    """DT-267. « Durch eine Schießscharte ist ein solcher Kampf ebenfalls möglich, wobei sich in diesem Fall beide
    Figuren auf den beiden an die Schießscharte angrenzenden Feldern befinden müssen » says where the two stand;
    the lance's target is a person (« falls er bereits verwundet war, getötet »), across the slit as at 2 squares.
    The Cleric beside the slit d14|e14 lances the yellow Mechanork lying wounded on e14 (listed, 1 AP): 2 + 1 against
    0 + 0, the Mechanork is eliminated and Blue scores 1 VP; the Cleric and his lance are untouched. One square back
    (c14) he still reaches nothing through the slit."""
    state = prison_position("bCL@d14 bLN@d14 yMK@e14!2 yBS@h5")
    assert lances(state) == {"lance bCL yMK"}
    assert act(state, "lance bCL yMK").ap == 4
    after, resolved = fight(state, "lance bCL yMK", 1, 0)
    assert (resolved["attack"], resolved["defence"], resolved["winner"]) == (2 + 1, 0, "B")
    assert where(after, "yMK") == "eliminated" and after.vp("B") == 1
    assert (where(after, "bCL"), where(after, "bLN")) == ("d14", "d14")
    assert lances(prison_position("bCL@c14 bLN@c14 yMK@e14!2 yBS@h5")) == set()


def test_PR_OBJ_LANCE_04_two_squares_through_a_slit_is_refused_as_the_slit_not_as_out_of_reach():
    """Found by a rules review (2026-11-30, helper pr27): through an arrow slit the lance reaches only from the square
    beside it to the square right across (PR-OBJ-LANCE-04). A target 2 squares away in a straight line with the slit
    d14|e14 on either step was refused citing PR-OBJ-LANCE-01 with « yMK is not 2 free squares away in a straight
    line », which is untrue: it is; the slit is why. Both now cite PR-OBJ-LANCE-04 and say so; a wall on a step is
    still PR-OBJ-LANCE-01's."""
    behind = prison_position("bCL@c14 bLN@c14 yMK@e14 yBS@h5")  # the slit on the second step
    assert lances(behind) == set()
    refused = assert_refused(behind, "lance bCL yMK", "PR-OBJ-LANCE-04")
    assert refused.message == "an arrow slit lies between bCL and yMK: the lance reaches through it only from the " \
                              "square beside it to the square right across"
    beyond = prison_position("bCL@d14 bLN@d14 yMK@f14 yBS@h5")  # beside the slit, the target one square beyond
    assert lances(beyond) == set()
    assert_refused(beyond, "lance bCL yMK", "PR-OBJ-LANCE-04")
    assert_refused(prison_position("bCO@a13 bLN@a13 yNG@c13 yBS@h5"), "lance bCO yNG", "PR-OBJ-LANCE-01")  # a wall
