"""Ranged combat with the Bow, the Large Shield and the Assassin's Backstab (PR-RANGED-01..14, PR-OBJ-BOW-01/02,
PR-OBJ-SHIELD-01, PR-CHAR-ASSASSIN-01/02, PR-EX-02, PR-EX-06), and the Fireball Staff (PR-OBJ-STAFF-01/02).

Positions on the synthetic rooms (tests/engine/prison/builders.py); rooms A1 and B1 (ranks 1-5) are empty floor,
room A3 has the arrow slit d14|e14. Combat totals are checked from the `combat_resolved` event.
"""

from __future__ import annotations

from dungeon_twister.engine import event_view, view

from ..builders import act, apply_texts, assert_refused, legal_set, where
from .builders import mixed_position, prison_position


def combat_refused(cases) -> None:
    """Each (position text, rule, message): the position reader refuses the text's combat field with that rule and
    message (DT-269)."""
    from dungeon_twister.engine import parse_position
    from dungeon_twister.engine.core.errors import PositionError

    for text, rule, message in cases:
        try:
            parse_position(text)
        except PositionError as error:
            assert (error.rule, error.field, error.message) == (rule, "combat", message), error
        else:
            raise AssertionError(f"accepted: {text}")


def shots(state) -> set[str]:
    return legal_set(state, verb="shoot")


def fight(state, action: str, blue: int, yellow: int):
    """Declare `action` (Blue to act), both cards; (state, the resolved event as a spectator sees it)."""
    state, events = apply_texts(state, action)
    state, more = apply_texts(state, f"combat +{blue}", seat="B")
    state, last = apply_texts(state, f"combat +{yellow}", seat="Y")
    resolved = next(event_view(e, None) for e in more + last if e.kind == "combat_resolved")
    return state, resolved


def test_PR_RANGED_01_02_05_PR_OBJ_BOW_01_02_a_shot_costs_1_ap_and_the_bow_fights_with_1():
    """PR-OBJ-BOW-02: the Colossus (combat 5) with the Bow shoots the Naga 3 squares north: his value is the Bow's 1 (not 5),
    the combat is fought with cards (PR-RANGED-03): 1 + 4 against 2 + 2, the Naga is wounded."""
    state = prison_position("bCO@c1 bBW@c1 yNG@c4 yTP@h5")
    assert shots(state) == {"shoot bCO yNG"}
    declared = act(state, "shoot bCO yNG")
    assert declared.ap == 4 and declared.phase == "combat" and declared.combat.shooters == ("bCO",)
    after, resolved = fight(state, "shoot bCO yNG", 4, 2)
    assert (resolved["attack"], resolved["defence"], resolved["winner"]) == (5, 4, "B")
    assert where(after, "yNG") == "c4!" and after.players["B"].combat.count(4) == 0


def test_PR_RANGED_02_the_first_person_on_the_line_only_and_an_enemy():
    state = prison_position("bCL@c1 bBW@c1 yNG@c3 yMK@c4 yTP@h5")
    assert shots(state) == {"shoot bCL yNG"}
    assert_refused(state, "shoot bCL yMK", "PR-RANGED-02")
    friend = prison_position("bCL@c1 bBW@c1 bNG@c3 yMK@c4 yTP@h5")  # his own Naga stands first in the line
    assert shots(friend) == set()
    assert_refused(friend, "shoot bCL yMK", "PR-RANGED-02")
    assert assert_refused(friend, "shoot bCL bNG", "PR-RANGED-02").template == "{target} is not an enemy"  # first
    assert_refused(prison_position("bCL@c1 yMK@c4 yTP@h5"), "shoot bCL yMK", "PR-RANGED-01")  # no Bow


def test_PR_RANGED_06_no_shot_beside_the_target_or_any_enemy_figure():
    beside_target = prison_position("bCL@c3 bBW@c3 yMK@c4 yTP@h5")
    assert shots(beside_target) == set()
    assert_refused(beside_target, "shoot bCL yMK", "PR-RANGED-06")
    beside_enemy = prison_position("bCL@c1 bBW@c1 yTP@b1 yMK@c4")
    assert "shoot bCL yMK" not in shots(beside_enemy)
    assert_refused(beside_enemy, "shoot bCL yMK", "PR-RANGED-06")
    beside_wounded = prison_position("bCL@c1 bBW@c1 yTP@b1! yMK@c4 yNG@h5")  # a wounded enemy is no figure
    assert shots(beside_wounded) == {"shoot bCL yMK"}


def test_PR_RANGED_04_12_the_shooter_is_never_wounded_the_melee_attackers_are():
    """PR-RANGED-04, PR-RANGED-12: Blue's Naga stands beside the target and joins in melee: Blue loses 1 + 2 + 0
    against 5 + 6: the Naga is wounded, the shooting Cleric is not."""
    state = prison_position("bCL@c1 bBW@c1 bNG@d4 yCO@c4 yTP@h5")
    after, resolved = fight(state, "shoot bCL yCO", 0, 6)
    assert (resolved["attack"], resolved["defence"], resolved["winner"]) == (3, 11, "Y")
    assert (where(after, "bCL"), where(after, "bNG"), where(after, "yCO")) == ("c1", "d4!", "c4")
    alone, resolved = fight(prison_position("bCL@c1 bBW@c1 yCO@c4 yTP@h5"), "shoot bCL yCO", 0, 0)
    assert resolved["winner"] == "Y" and where(alone, "bCL") == "c1"


def test_PR_RANGED_07_a_person_wounded_this_turn_is_no_target_a_wounded_one_that_loses_dies():
    fresh = prison_position("bCL@c1 bBW@c1 yNG@c4!5 yTP@h5")  # wounded in turn 5, this turn
    assert shots(fresh) == set()
    assert_refused(fresh, "shoot bCL yNG", "PR-RANGED-07")
    after, resolved = fight(prison_position("bCL@c1 bBW@c1 yNG@c4!4 yTP@h5"), "shoot bCL yNG", 1, 0)
    assert (resolved["attack"], resolved["defence"]) == (2, 0) and where(after, "yNG") == "eliminated"
    assert after.vp("B") == 1


def test_PR_RANGED_08_the_group_grows_from_the_target_and_costs_the_one_ap():
    """The target yMK on c4; Blue's Troll-less side: bNG beside it joins (melee), then Yellow's yTP beside bNG
    joins in defence. The shooter touches nobody. 1 AP in all."""
    state = prison_position("bCL@c1 bBW@c1 yMK@c4 bNG@d4 yTP@e4")
    declared = act(state, "shoot bCL yMK")
    assert (declared.combat.attackers, declared.combat.defenders) == (("bNG",), ("yMK", "yTP"))
    assert declared.ap == 4
    after, resolved = fight(state, "shoot bCL yMK", 3, 0)
    assert (resolved["attack"], resolved["defence"], resolved["winner"]) == (1 + 2 + 3, 2 + 0 + 0, "B")
    assert (where(after, "yMK"), where(after, "yTP")) == ("c4!", "e4!")


def test_PR_RANGED_09_other_shooters_of_the_side_may_join_for_1_each():
    """The Naga carries Yellow's Bow (any figure may carry any object) and sees the same target: it may join the
    Cleric's shot at no extra AP, adding 1; a figure that could not shoot that target may not."""
    state = prison_position("bCL@c1 bBW@c1 bNG@e4 yBW@e4 yMK@c4 yTP@h5")
    assert shots(state) == {"shoot bCL yMK", "shoot bCL yMK +bNG", "shoot bNG yMK", "shoot bNG yMK +bCL"}
    declared = act(state, "shoot bCL yMK +bNG")
    assert declared.ap == 4 and declared.combat.shooters == ("bCL", "bNG")
    _, resolved = fight(state, "shoot bCL yMK +bNG", 0, 0)
    assert (resolved["attack"], resolved["defence"]) == (2, 2)
    blocked = prison_position("bCL@c1 bBW@c1 bNG@h4 yBW@h4 yMK@c4 yTP@h5")  # beside the Telepath on h5
    assert_refused(blocked, "shoot bCL yMK +bNG", "PR-RANGED-09")


def test_PR_RANGED_10_13_a_bow_carrier_defends_only_in_melee_and_then_with_its_own_value():
    """Yellow's Wizard carries a Bow two squares from the fight: he does not defend (PR-RANGED-10). Yellow's Colossus
    with Yellow's Bow, beside the Naga Blue attacks in melee, fights with his own 5 (PR-RANGED-13)."""
    far = prison_position("bNG@c3 yMK@c4 yWZ@e4 yBW@e4 bTP@h1")
    assert act(far, "attack bNG yMK").combat.defenders == ("yMK",)
    near = prison_position("bNG@c3 yMK@c4 yCO@b3 yBW@b3 bTP@h1")
    _, resolved = fight(near, "attack bNG yMK", 0, 0)
    assert act(near, "attack bNG yMK").combat.defenders == ("yCO", "yMK")
    assert (resolved["attack"], resolved["defence"]) == (2, 2 + 5)


def test_PR_RANGED_14_PR_OBJ_SHIELD_01_the_large_shield_is_no_target_but_may_fight_in_melee():
    state = prison_position("bCL@c1 bBW@c1 yMK@c4 ySH@c4 yTP@h5")
    assert shots(state) == set()
    assert_refused(state, "shoot bCL yMK", "PR-OBJ-SHIELD-01")
    drawn = act(prison_position("bCL@c1 bBW@c1 yNG@c4 bAS@d4 yMK@e4 ySH@e4"), "shoot bCL yNG")
    assert drawn.combat.defenders == ("yMK", "yNG")


def test_PR_OBJ_SHIELD_01_DT_237_a_shield_lying_with_a_wounded_character_does_not_protect_it():
    """Found by a rules review (DE « Eine Figur, die einen Großen Schild trägt »: a figure, not a wounded person):
    the yellow Mechanork, wounded on c4 (turn 4, not this turn) with the Large Shield under him, may be shot; the
    engine refused it (PR-OBJ-SHIELD-01) by RUL-033's general reading, which the Armor's own clause does not
    extend to the Shield."""
    state = prison_position("bCL@c1 bBW@c1 yMK@c4!4 ySH@c4 yTP@h5")
    assert shots(state) == {"shoot bCL yMK"}
    after = act(state, "shoot bCL yMK")
    assert after.combat is not None and after.combat.defenders == ("yMK",)


def test_PR_RANGED_09_BG_CHAR_CLERIC_02_a_figure_healed_this_turn_does_not_join_a_shot():
    """Found by a rules review (DE: the healed figure « kann während des Zuges ... keine Aktionen ausführen »; it
    still fights in a combat it is drawn into, RUL-014): joining a shot is the figure's own choice, an action. The
    blue Naga on e4 with a Bow joins the Cleric's shot at the yellow Mechanork; healed this turn, he is not
    offered, and naming him is refused with BG-CHAR-CLERIC-02."""
    tokens = "bCL@c1 bBW@c1 bNG@e4 yBW@e4 yMK@c4 yTP@h5"
    assert "shoot bCL yMK +bNG" in shots(prison_position(tokens))
    healed = prison_position(tokens, extra="exhausted=bNG")
    assert shots(healed) == {"shoot bCL yMK"}
    assert_refused(healed, "shoot bCL yMK +bNG", "BG-CHAR-CLERIC-02")


def test_PR_SLIT_04_a_shot_through_an_arrow_slit_only_beside_it():
    """On d14, beside the slit d14|e14, the Cleric shoots east through it; from c14 he does not see through."""
    assert shots(prison_position("bCL@d14 bBW@d14 yNG@g14 yTP@h5")) == {"shoot bCL yNG"}
    assert shots(prison_position("bCL@c14 bBW@c14 yNG@g14 yTP@h5")) == set()


def test_PR_CHAR_ASSASSIN_01_backstab_plus_2_with_an_ally_in_the_group_attacking_or_defending():
    alone = prison_position("bAS@c3 yMK@c4 yTP@h5")
    _, resolved = fight(alone, "attack bAS yMK", 0, 0)
    assert (resolved["attack"], resolved["defence"]) == (2, 2)
    with_ally = prison_position("bAS@c3 bNG@d4 yMK@c4 yTP@h5")
    _, resolved = fight(with_ally, "attack bNG yMK", 0, 0)
    assert (resolved["attack"], resolved["defence"]) == (2 + 2 + 2, 2)
    defending = prison_position("bNG@c3 yMK@c4 yAS@b3 yTP@h5")  # Yellow's Assassin beside the attacker
    _, resolved = fight(defending, "attack bNG yMK", 0, 0)
    assert (resolved["attack"], resolved["defence"]) == (2, 2 + 2 + 2)


def test_PR_CHAR_ASSASSIN_02_PR_RANGED_11_with_shooters_backstab_only_in_melee():
    """An allied shooter counts as an ally (she is beside the target: +2); not in melee, she would not be in the
    combat at all, and a shooter's value is never raised (PR-RANGED-05)."""
    state = prison_position("bCL@c1 bBW@c1 bAS@d4 yMK@c4 yTP@h5")
    _, resolved = fight(state, "shoot bCL yMK", 0, 0)
    assert (resolved["attack"], resolved["defence"]) == (1 + 2 + 2, 2)
    shooter = prison_position("bAS@c1 bBW@c1 yMK@c4 yTP@h5")  # the Assassin herself shoots: no Backstab
    _, resolved = fight(shooter, "shoot bAS yMK", 0, 0)
    assert resolved["attack"] == 1


def test_PR_EX_02_ranged_group_combat():
    """PR-EX-02: the blue Cleric shoots the yellow Mechanork; the blue Assassin beside it is drawn in with +2:
    Blue 1 + 2 + 2 = 5 against Yellow 2. Yellow's Wizard with a Bow sees the scene and cannot defend from afar."""
    state = prison_position("bCL@c1 bBW@c1 bAS@b4 yMK@c4 yWZ@c6 yBW@c6 yTP@h5")
    declared = act(state, "shoot bCL yMK")
    assert (declared.combat.attackers, declared.combat.defenders) == (("bAS",), ("yMK",))
    _, resolved = fight(state, "shoot bCL yMK", 0, 0)
    assert (resolved["attack"], resolved["defence"]) == (5, 2)
    # the view's parts say where the 5 comes from: the Assassin's 2 and her Backstab's 2, the Cleric's Bow's 1
    assert view(declared, None)["combat"]["parts"] == {
        "attack": [["bAS", "value", 2], ["bAS", "backstab", 2], ["bCL", "shot", 1]],
        "defence": [["yMK", "value", 2]]}


def test_PR_EX_06_group_combat_against_the_colossus():
    """PR-EX-06: the blue Naga attacks the Colossus; the blue Assassin beside him joins with +2: 2 + 4 = 6; the
    blue Cleric touches no yellow figure; the yellow Mechanork is wounded: out. Blue +3, Yellow +5: 9 against 10;
    the Naga and the Assassin are wounded."""
    state = prison_position("bNG@c3 bAS@d4 bCL@a1 yCO@c4 yMK@c5!4 yTP@h5")
    declared = act(state, "attack bNG yCO")
    assert (declared.combat.attackers, declared.combat.defenders) == (("bAS", "bNG"), ("yCO",))
    after, resolved = fight(state, "attack bNG yCO", 3, 5)
    assert (resolved["attack"], resolved["defence"], resolved["winner"]) == (9, 10, "Y")
    assert (where(after, "bNG"), where(after, "bAS"), where(after, "bCL")) == ("c3!", "d4!", "a1")


def test_PR_OBJ_STAFF_01_02_the_fireball_staff_kills_the_first_person_even_through_a_slit_beside_him():
    """PR-OBJ-STAFF-01: only the Wizard uses it (1 AP), through the slit d14|e14 standing beside it; it is
    discarded; PR-OBJ-STAFF-02: it is a magic object."""
    from dungeon_twister.engine.boardgame.catalogue import load

    state = prison_position("bWZ@d14 bFS@d14 yNG@g14 yTP@h5")
    assert "fireball bWZ e" in legal_set(state, verb="fireball")
    after = act(state, "fireball bWZ e")
    assert (where(after, "yNG"), where(after, "bFS"), after.ap, after.vp("B")) == ("eliminated", "discarded", 4, 1)
    assert legal_set(prison_position("bNG@d14 bFS@d14 yMK@g14 yTP@h5"), verb="fireball") == set()
    assert load("prison").objects["FS"].magic
    # a refusal names Prison's Staff and its rule, not the base set's Wand and BG-OBJ-FIREBALL-01 (play-tests were
    # told "carries no Fireball Wand", then pl33 "carries no Fireball Staff (help BG-OBJ-FIREBALL-01)")
    assert assert_refused(after, "fireball bWZ e", "PR-OBJ-STAFF-01").message == "bWZ carries no Fireball Staff"
    assert assert_refused(prison_position("bNG@d14 bFS@d14 yMK@g14 yTP@h5"), "fireball bNG e",
                          "PR-OBJ-STAFF-01").message == "only the Wizard can use the Fireball Staff, not bNG"
    # a game with both objects cites the base set's rule, which the Staff's points to ("same as")
    assert assert_refused(mixed_position("bWZ@d14 yNG@g14 yTP@h5"), "fireball bWZ e",
                          "BG-OBJ-FIREBALL-01").message == "bWZ carries no Fireball Wand or Staff"


def test_BG_CARRY_04_PR_RANGED_02_a_carried_wounded_character_is_no_target_of_a_shot():
    """Found by a rules review (2026-11-29, helper pr19): the yellow Mechanork on c4 carries the wounded yellow
    Cleric; the shot's target is the Mechanork (DT-105). Naming the Cleric was refused as "not the first person on
    a line of sight", though he lies on the first square the line meets: he cannot be chosen because he is carried
    (BG-CARRY-04), as a melee attack on him is refused; a joiner named with him changes nothing."""
    state = prison_position("bWZ@c1 bBW@c1 bNG@e4 yBW@e4 yMK@c4 yCL@c4!4 yTP@h5")
    assert legal_set(state, verb="shoot", token="bWZ") == {"shoot bWZ yMK", "shoot bWZ yMK +bNG"}
    refused = assert_refused(state, "shoot bWZ yCL", "BG-CARRY-04")
    assert refused.message == "yCL is carried and cannot be attacked"
    assert_refused(state, "shoot bWZ yCL +bNG", "BG-CARRY-04")
    assert_refused(prison_position("bWZ@c1 bBW@c1 bNG@c2 yMK@c4 yCL@c4!4 yTP@h5"), "shoot bWZ yCL", "BG-CARRY-04")


def test_PR_OBJ_STAFF_01_RUL_012_the_staff_kills_a_carrier_with_his_wounded_and_a_friend_for_the_opponent():
    """PR-OBJ-STAFF-01: the first person north of the Wizard is the yellow Mechanork carrying the wounded yellow
    Cleric: both die, 2 VP for Blue, the Staff discarded, 1 AP spent. A blue Mechanork first in the line dies
    instead, and Yellow scores (RUL-012, BG-OBJ-FIREBALL-07): friend or foe."""
    after = act(prison_position("bWZ@c1 bFS@c1 yMK@c4 yCL@c4!4 yTP@h5"), "fireball bWZ n")
    assert (where(after, "yMK"), where(after, "yCL"), where(after, "bFS")) == ("eliminated", "eliminated", "discarded")
    assert (after.vp("B"), after.vp("Y"), after.ap) == (2, 0, 4)
    friend = act(prison_position("bWZ@c1 bFS@c1 bMK@c3 yMK@c4 yTP@h5"), "fireball bWZ n")
    assert (where(friend, "bMK"), where(friend, "yMK"), friend.vp("B"), friend.vp("Y")) == ("eliminated", "c4", 0, 1)


def test_PR_RANGED_07_BG_PIT_07_a_thief_shot_on_a_pit_dies_unless_a_rope_holds_him():
    """A mixed game (DT-109): the yellow Thief stands on the pit c8 by her Acrobatics; shot and beaten, she is
    wounded, loses the ability and falls (BG-PIT-07: 1 VP for Blue); with a Rope she hangs on, wounded (BG-PIT-08).
    The shooter fights with his Bow's 1 (PR-RANGED-05): 1 + 6 against 2 + 0."""

    fell, resolved = fight(mixed_position("bCL@c5 bBW@c5 yTH@c8 yTP@h1"), "shoot bCL yTH", 6, 0)
    assert (resolved["attack"], resolved["defence"], resolved["winner"]) == (7, 2, "B")
    assert (where(fell, "yTH"), fell.vp("B")) == ("eliminated", 1)
    held, _ = fight(mixed_position("bCL@c5 bBW@c5 yTH@c8 yRP@c8 yTP@h1"), "shoot bCL yTH", 6, 0)
    assert (where(held, "yTH"), where(held, "yRP"), held.vp("B")) == ("c8!", "c8", 0)


def test_PR_RANGED_01_PR_OBJ_LANCE_01_a_position_s_shooter_carries_a_bow_and_its_lancer_the_lance():
    """A written position's combat names its shooter (shot=) or lancer (lance=); one without the weapon was
    accepted (a helper's review of Prison), and its resolution counted 0 for a shot it could not have made. The
    reader refuses it citing the rule that gives the weapon its combat: the same combat with the Bow or the Lance
    reads back, with a Naga who carries nothing it does not."""
    from dungeon_twister.engine import format_position, parse_position
    from dungeon_twister.engine.core.errors import PositionError

    shot = format_position(act(prison_position("bCL@c1 bBW@c1 bNG@d1 yNG@c4 yTP@h5"), "shoot bCL yNG"))
    assert shot.endswith("combat 1 bCL>yNG att=- def=yNG shot=bCL")
    assert format_position(parse_position(shot)) == shot
    lance = format_position(act(prison_position("bMK@c1 bLN@c1 bNG@d1 yCO@c3 yBS@h5"), "lance bMK yCO"))
    assert lance.endswith("combat 1 bMK>yCO att=- def=yCO lance=bMK")
    assert format_position(parse_position(lance)) == lance
    for text, rule in ((shot.replace("bCL>yNG att=- def=yNG shot=bCL", "bNG>yNG att=- def=yNG shot=bNG"),
                        "PR-RANGED-01"),
                       (lance.replace("bMK>yCO att=- def=yCO lance=bMK", "bNG>yCO att=- def=yCO lance=bNG"),
                        "PR-OBJ-LANCE-01")):
        try:
            parse_position(text)
        except PositionError as error:
            assert (error.rule, error.field) == (rule, "combat"), error
        else:
            raise AssertionError(f"accepted: {text}")


def test_PR_OBJ_STAFF_01_BG_OBJ_FIREBALL_02_DT_268_a_fireball_into_an_empty_line_is_cast_and_spent():
    """DT-268: « Der Feuerball eliminiert augenblicklich die erste Person ..., die sich in Sichtlinie des Magiers
    befindet (letzterer bestimmt die Richtung ...) »: the Wizard chooses a direction, and nothing makes a person on
    the line a condition of casting. The Wizard on e2 casts north, where nobody stands up to the outer wall: all 4
    directions are listed, the cast costs 1 AP, hits nobody (the event names no victim) and the Staff is
    discarded; no VP changes hands."""
    s = prison_position("bWZ@e2 bFS@e2 yMK@a1 yBS@h5")
    assert legal_set(s, verb="fireball") == {"fireball bWZ n", "fireball bWZ e", "fireball bWZ s", "fireball bWZ w"}
    after, events = apply_texts(s, "fireball bWZ n")
    assert next(event_view(e, None) for e in events if e.kind == "fireball")["victims"] == []
    assert where(after, "bFS") == "discarded" and after.ap == s.ap - 1
    assert (after.vp("B"), after.vp("Y")) == (0, 0) and legal_set(after, verb="fireball") == set()


def test_PR_OBJ_LANCE_01_03_04_BG_COMBAT_07_DT_269_a_positions_lance_combat_is_one_its_lancer_could_declare():
    """DT-269: nothing moves between a declaration and its cards, so a written position's pending lance combat
    (`lance=`) is one the lancer could have declared; the reader read any (a helper's review of Prison). From the
    Mechanork's lance at the Colossus 2 squares away (which reads back): the Colossus 3 squares away (PR-OBJ-LANCE-01),
    beside him (PR-OBJ-LANCE-03), an enemy figure beside the lancer (PR-OBJ-LANCE-03) and the target wounded this
    turn (BG-COMBAT-07) are refused, each with the engine's own refusal; across the slit d14|e14 the square right
    across reads back (PR-OBJ-LANCE-04), one square back from the slit does not (PR-OBJ-LANCE-04 too: the slit is
    why, not the distance)."""
    from dungeon_twister.engine import format_position, parse_position

    lance = format_position(act(prison_position("bMK@c1 bLN@c1 bNG@d1 yCO@c3 yBS@h5"), "lance bMK yCO"))
    assert format_position(parse_position(lance)) == lance
    slit = format_position(act(prison_position("bCL@d14 bLN@d14 yMK@e14 yBS@h5"), "lance bCL yMK"))
    assert format_position(parse_position(slit)) == slit
    combat_refused((
            (lance.replace("yCO@c3", "yCO@c4"), "PR-OBJ-LANCE-01", "bMK: yCO is not 2 free squares away in a "
                                                                   "straight line"),
            (lance.replace("yCO@c3", "yCO@c2"), "PR-OBJ-LANCE-03", "bMK: yCO is beside bMK: the lance is no use "
                                                                   "against it"),
            (lance.replace("yBS@h5", "yBS@b1"), "PR-OBJ-LANCE-03", "bMK: bMK is beside an enemy figure"),
            (lance.replace("yCO@c3", "yCO@c3!5"), "BG-COMBAT-07", "bMK: yCO was wounded this turn"),
            (slit.replace("bCL@d14 bLN@d14", "bCL@c14 bLN@c14"), "PR-OBJ-LANCE-04",
             "bCL: an arrow slit lies between bCL and yMK: the lance reaches through it only from the square beside "
             "it to the square right across")))


def test_PR_RANGED_02_06_07_BG_CHAR_CLERIC_02_DT_269_a_positions_shot_is_one_its_shooter_could_declare():
    """DT-269, for `shot=`: from the Cleric's shot at the Naga on c4 (which reads back), the Naga off every line of
    sight (PR-RANGED-02), an enemy figure beside the shooter (PR-RANGED-06), the target wounded this turn
    (PR-RANGED-07) and a friend standing between them (PR-RANGED-02) are refused, and so is a shot by the blue
    Naga healed this turn (BG-CHAR-CLERIC-02), each with the engine's refusal of that shot, naming the shooter."""
    from dungeon_twister.engine import format_position, parse_position

    shot = format_position(act(prison_position("bCL@c1 bBW@c1 bNG@d1 yNG@c4 yTP@h5"), "shoot bCL yNG"))
    assert format_position(parse_position(shot)) == shot
    naga = format_position(act(prison_position("bNG@c1 bBW@c1 bCL@d1 yNG@c4 yTP@h5"), "shoot bNG yNG"))
    assert format_position(parse_position(naga)) == naga and "acted=bNG ;" in naga
    combat_refused((
            (shot.replace("yNG@c4", "yNG@d4"), "PR-RANGED-02",
             "bCL: yNG is not the first person on a line of sight of bCL"),
            (shot.replace("yTP@h5", "yTP@b1"), "PR-RANGED-06", "bCL: bCL is beside an enemy: no shot"),
            (shot.replace("yNG@c4", "yNG@c4!5"), "PR-RANGED-07", "bCL: yNG was wounded this turn"),
            (shot.replace("bNG@d1", "bNG@c2"), "PR-RANGED-02",
             "bCL: yNG is not the first person on a line of sight of bCL"),
            (naga.replace("acted=bNG ;", "acted=bNG exhausted=bNG ;"), "BG-CHAR-CLERIC-02",
             "bNG: bNG was healed this turn")))


def test_PR_RANGED_08_PR_OBJ_LANCE_05_PR_SCEN_1_05_DT_269_a_positions_group_grows_from_the_target():
    """Found by a rules review (2026-11-30, helper pr27): a shot's or a lance's melee attackers are the figures the
    group's growth from the target reaches, the shooters and the lancer touching nobody (RUL-053, RUL-061); the reader
    took a far Naga among them (counted in the total), or the Assassin beside the target left out. A scenario without
    combat holds no combat field (PR-SCEN-1-05)."""
    from dungeon_twister.engine import format_position, parse_position

    shot = format_position(act(prison_position("bCL@c1 bBW@c1 bAS@b4 yMK@c4 yTP@h5"), "shoot bCL yMK"))
    assert "att=bAS def=yMK shot=bCL" in shot and format_position(parse_position(shot)) == shot
    lance = format_position(act(prison_position("bCO@c1 bLN@c1 bNG@d3 yMK@c3 yBS@h5"), "lance bCO yMK"))
    assert "att=bNG def=yMK lance=bCO" in lance
    combat_refused((
        (shot.replace("att=bAS", "att=-"), "BG-GROUP-02", "the group growing from yMK is att=bAS def=yMK"),
        (shot.replace("bAS@b4", "bAS@h1"), "BG-GROUP-02", "the group growing from yMK is att=- def=yMK"),
        (lance.replace("att=bNG", "att=-"), "BG-GROUP-02", "the group growing from yMK is att=bNG def=yMK")))
    from .test_prison_scenarios import S1_ROOMS, scenario_position
    import pytest
    from dungeon_twister.engine.core.errors import PositionError
    with pytest.raises(PositionError) as info:
        scenario_position("prison-1", "bMK@c4 yNG@c5", rooms=S1_ROOMS, turn=(
            "turn 5 B combat ap=4 high=5 four=1 first=B placer=- combats=1 ; combat 1 bMK>yNG att=bMK def=yNG"))
    assert (info.value.rule, info.value.field) == ("PR-SCEN-1-05", "combat")


def test_PR_RANGED_08_PR_OBJ_LANCE_05_RUL_085_DT_117_a_charmed_shooters_group_is_grown_for_its_own_colour():
    """Found by a rules review (2026-11-30, helper pr27), a mixed game of Prison and Paladins & Dragons: Blue's
    Illusionist charms the yellow Mechanork, who carries a Bow, and he shoots Blue's Goblin. The charmed figure keeps
    its colour for the group (RUL-085) and its owner plays its card (DT-117), as in his melee; but the shot's group
    was grown for the active player's colour: Blue's own Naga beside his Goblin became an attacker of it, and the
    yellow Warrior beside the Goblin stayed out. Now the Warrior joins (Yellow's side: 1 + 3 against 1), the Naga does
    not; the same for a lance. Yellow figures are not Blue's to join the shot (PR-RANGED-09, DT-105)."""
    from dungeon_twister.engine import format_position, parse_position

    from ..paladins.builders import all_position

    charmed = act(all_position("bIL@a7 bCH@a7 yMK@c7 yBW@c7 bGB@c10 yWA@b10 bNG@d10 yTR@h4"), "charm bIL yMK")
    shot = act(charmed, "shoot yMK bGB")
    assert (shot.combat.attackers, shot.combat.defenders, shot.combat.shooters) == (("yWA",), ("bGB",), ("yMK",))
    assert format_position(parse_position(format_position(shot))) == format_position(shot)
    after, resolved = fight_cards(shot, yellow=0, blue=0)
    assert (resolved["attack"], resolved["defence"], resolved["winner"]) == (1 + 3, 1, "Y")
    assert (where(after, "bGB"), where(after, "bNG"), where(after, "yWA")) == ("c10!", "d10", "b10")
    lanced = act(act(all_position("bIL@a12 bCH@a12 yMK@c12 yLN@c12 bGB@c10 yWA@b10 bNG@d10 yTR@h4"),
                     "charm bIL yMK"),
                 "lance yMK bGB")
    assert (lanced.combat.attackers, lanced.combat.defenders, lanced.combat.lancer) == (("yWA",), ("bGB",), "yMK")


def fight_cards(state, yellow: int, blue: int):
    """Both cards of a pending combat, Yellow's first: (the state after, the resolved event as a spectator sees it)."""
    state, events = apply_texts(state, f"combat +{yellow}", seat="Y")
    state, more = apply_texts(state, f"combat +{blue}", seat="B")
    return state, next(event_view(e, None) for e in events + more if e.kind == "combat_resolved")
