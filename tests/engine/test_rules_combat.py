"""Rule tests: single combat (BG-COMBAT), group combat (BG-GROUP, BG-EX-04) and wounded characters (BG-WOUND).

Full hands: +0 +1 +2 +2 +3 +3 +4 +5 +6. `combat_round(state, attack, blue, yellow)` declares the attack and lays
both cards (Blue's first unless yellow_first).
"""

from __future__ import annotations

from dungeon_twister.engine import event_view, view

from tests.engine.builders import (apply_texts, assert_refused, combat_round, legal_set, next_turn, position,
                                   where)

FULL = (0, 1, 2, 2, 3, 3, 4, 5, 6)


def resolved(events):
    return next(e for e in events if e.kind == "combat_resolved").data


def declared(events):
    return next(e for e in events if e.kind == "combat_declared").data


def hand_without(*values):
    hand = list(FULL)
    for v in values:
        hand.remove(v)
    return tuple(hand)


# --- BG-COMBAT ---------------------------------------------------------------------------------------------
def test_BG_COMBAT_01_attack_an_adjacent_connected_enemy_for_1_ap():
    s = position("bWA@c4 yTR@c5 yGB@h4 bCL@d4")
    assert legal_set(s, verb="attack") == {"attack bWA yTR"}
    after, _ = apply_texts(s, "attack bWA yTR")
    assert after.ap == 4 and after.phase == "combat"
    assert_refused(s, "attack bWA yGB", "BG-COMBAT-01")  # not adjacent
    assert_refused(s, "attack bWA bCL", "BG-COMBAT-01")  # not an enemy
    # across the wall b13|c13 or the closed portcullis c12|c13: no attack; once it is open, yes
    walled = position("bWA@b13 bTR@c12 yGB@c13")
    assert legal_set(walled, verb="attack") == set()
    assert_refused(walled, "attack bWA yGB", "BG-COMBAT-01")
    assert_refused(walled, "attack bTR yGB", "BG-COMBAT-01")
    assert legal_set(position("bWA@b13 bTR@c12 yGB@c13", ports="W1=co"), verb="attack") == {"attack bTR yGB"}


def test_BG_COMBAT_02_cards_are_chosen_secretly_then_revealed_together():
    s, _ = apply_texts(position("bWA@c4 yTR@c5"), "attack bWA yTR")
    assert s.to_act == ("B", "Y")
    assert legal_set(s, "B") == {f"combat +{v}" for v in set(FULL)}
    s, events = apply_texts(s, "combat +3", seat="B")
    assert s.to_act == ("Y",)
    chosen = events[0]
    assert event_view(chosen, "B")["value"] == 3
    assert "value" not in event_view(chosen, "Y") and "value" not in event_view(chosen, None)
    assert view(s, "Y")["combat"]["my_card"] is None and "cards" not in view(s, "Y")["combat"]
    laid = assert_refused(s, "combat +4", "BG-COMBAT-02", seat="B")  # his card is laid
    assert laid.message == "wait for the other player in this combat"
    s, events = apply_texts(s, "combat +1", seat="Y")
    assert resolved(events)["cards"] == {"B": 3, "Y": 1}
    assert s.phase == "main" and s.combat is None


def test_BG_COMBAT_03_total_is_values_plus_modifiers_plus_card_in_either_order():
    s = position("bWA@c4 bSW@c4 yTR@c5 yAR@c5")
    for yellow_first in (False, True):
        after, events = combat_round(s, "attack bWA yTR", 2, 1, yellow_first=yellow_first)
        assert (resolved(events)["attack"], resolved(events)["defence"]) == (3 + 1 + 2, 4 + 1 + 1)
        assert (where(after, "bWA"), where(after, "yTR")) == ("c4", "c5")  # 6 vs 6


def test_BG_COMBAT_03_the_totals_before_the_cards_are_in_every_view_and_the_attacker_in_the_result():
    """Warrior 3 + Sword 1 against Troll 4 + Armor 1: 4 and 5 before the cards, shown to both players and the
    spectators while they choose (public: values and objects are on the board); the result names the attacking
    seat, so that it can be worded attacker first."""
    s = position("bWA@c4 bSW@c4 yTR@c5 yAR@c5")
    declared, _ = apply_texts(s, "attack bWA yTR")
    for seat in ("B", "Y", None):
        assert view(declared, seat)["combat"]["totals"] == {"attack": 4, "defence": 5}
        # what makes them (docs/protocol.md section 20): each figure's value, then what its objects add
        assert view(declared, seat)["combat"]["parts"] == {"attack": [["bWA", "value", 3], ["bSW", "object", 1]],
                                                          "defence": [["yTR", "value", 4], ["yAR", "object", 1]]}
    _, events = combat_round(s, "attack bWA yTR", 2, 1)
    assert (resolved(events)["attack"], resolved(events)["defence"], resolved(events)["attacker_seat"]) == (6, 6, "B")


def test_BG_COMBAT_04_higher_total_wins_losers_are_wounded_wounded_losers_eliminated():
    s = position("bWA@c4 yTR@c5")
    after, events = combat_round(s, "attack bWA yTR", 4, 1)  # 7 vs 5
    assert resolved(events)["winner"] == "B"
    assert (where(after, "yTR"), where(after, "bWA")) == ("c5!", "c4")
    assert after.tokens["yTR"].wounded_turn == s.turn
    after, events = combat_round(s, "attack bWA yTR", 0, 1)  # 3 vs 5: the attacker loses
    assert (where(after, "yTR"), where(after, "bWA")) == ("c5", "c4!")
    s = position("bWA@c4 yGB@d4!")
    after, events = combat_round(s, "attack bWA yGB", 0, 2)  # 3 vs 2: the wounded Goblin is eliminated
    assert where(after, "yGB") == "eliminated" and after.vp("B") == 1


def test_BG_COMBAT_05_a_tie_changes_nothing_but_spends_the_cards():
    s = position("bWA@c4 yTR@c5")
    after, events = combat_round(s, "attack bWA yTR", 3, 2)  # 6 vs 6
    assert resolved(events)["winner"] is None
    assert (where(after, "bWA"), where(after, "yTR")) == ("c4", "c5")
    assert after.players["B"].combat == hand_without(3) and after.players["Y"].combat == hand_without(2)
    assert "attack bWA yTR" in legal_set(after)  # he may pay 1 AP to attack again
    again, _ = apply_texts(after, "attack bWA yTR")
    assert again.ap == s.ap - 2


def test_BG_COMBAT_06_played_cards_are_discarded_except_the_plus_0():
    s = position("bWA@c4 yTR@c5", cards="B:2345/-/0356/3 Y:2345/-/0356/3")
    after, _ = combat_round(s, "attack bWA yTR", 0, 6)
    assert after.players["B"].combat == (0, 3, 5, 6) and after.players["Y"].combat == (0, 3, 5)
    regen = position("bWA@c4 yTR@c5", cards="B:2345/-/035/3 Y:2345/-/035/3")
    after, _ = apply_texts(regen, "attack bWA yTR")
    assert_refused(after, "combat +6", "BG-COMBAT-06", seat="B")  # not (or no longer) in his hand


def test_BG_COMBAT_07_a_character_wounded_this_turn_cannot_be_attacked_again():
    s = position("bWA@c4 bTR@d5 yGB@c5")
    s, _ = combat_round(s, "attack bWA yGB", 3, 0)
    assert where(s, "yGB") == "c5!"
    assert legal_set(s, verb="attack") == set()
    assert_refused(s, "attack bTR yGB", "BG-COMBAT-07")  # by any character
    assert_refused(position("bWA@c4 yGB@c5!5", turn=5), "attack bWA yGB", "BG-COMBAT-07")
    s = next_turn(next_turn(s))  # Blue's next turn: allowed again
    assert "attack bWA yGB" in legal_set(s)


def test_BG_COMBAT_08_a_wounded_character_never_attacks_nor_joins():
    s = position("bWA@c4! yTR@c5 bGB@d5")
    assert "attack bWA yTR" not in legal_set(s)
    assert_refused(s, "attack bWA yTR", "BG-COMBAT-08")
    s = position("bWA@c4! yTR@c5 bGB@d5 bCL@c6!")
    after, events = apply_texts(s, "attack bGB yTR")
    assert (declared(events)["attackers"], declared(events)["defenders"]) == (["bGB"], ["yTR"])


def test_BG_COMBAT_09_start_zones_and_exited_characters():
    # from the maze onto an enemy on his own start zone
    s = position("bWA@c20 yGB@c21")
    after, _ = combat_round(s, "attack bWA yGB", 1, 0)
    assert where(after, "yGB") == "c21!"
    # a character on its own start zone attacks and is attacked normally
    s = position("bWA@c0 yGB@c1")
    assert "attack bWA yGB" in legal_set(s)
    y = position("bWA@c0 yGB@c1", active="Y")
    after, _ = combat_round(y, "attack yGB bWA", 1, 0)
    assert where(after, "yGB") == "c1!"
    # an exited character can do nothing
    gone = position("bWA>exited yGB@c1")
    assert legal_set(gone) == {"end"}
    assert_refused(gone, "attack bWA yGB", "BG-COMBAT-09")


def test_BG_COMBAT_10_the_plus_0_never_leaves_the_hand():
    s = position("bWA@c4 yTR@c5", cards="B:2345/-/0/3 Y:2345/-/0/3")
    s, _ = apply_texts(s, "attack bWA yTR")
    assert legal_set(s, "B") == {"combat +0"} and legal_set(s, "Y") == {"combat +0"}
    after, _ = combat_round(position("bWA@c4 yTR@c5", cards="B:2345/-/0/3 Y:2345/-/0/3"), "attack bWA yTR", 0, 0)
    assert after.players["B"].combat == (0,) and after.players["Y"].combat == (0,)


def test_BG_COMBAT_11_single_combat_is_attacker_and_one_enemy_group_combat_is_three_or_more():
    after, events = apply_texts(position("bWA@c4 yTR@c5"), "attack bWA yTR")
    assert (after.combat.attackers, after.combat.defenders) == (("bWA",), ("yTR",))
    after, events = apply_texts(position("bWA@c4 yTR@c5 bGB@d5"), "attack bWA yTR")
    assert (after.combat.attackers, after.combat.defenders) == (("bGB", "bWA"), ("yTR",))


# --- BG-GROUP ----------------------------------------------------------------------------------------------
EX04 = "bWA@d4 yWW@d5 bMK@e5 bCL@c4 yWZ@e6 yTR@d3!"


def test_BG_EX_04_group_combat():
    """BG-EX-04 (BG-GROUP-01..06, BG-COMBAT-04/06): Warrior + Mechanork (5) against Wall-Walker + Wizard (2)."""
    s = position(EX04)
    after, events = apply_texts(s, "attack bWA yWW")
    assert after.ap == s.ap - 1  # drawing in the others costs nothing (BG-GROUP-01)
    assert declared(events)["attackers"] == ["bMK", "bWA"]  # the Cleric touches no yellow character
    assert declared(events)["defenders"] == ["yWW", "yWZ"]  # the wounded Troll is not the target: out
    after, events = combat_round(s, "attack bWA yWW", 0, 4)
    r = resolved(events)
    assert (r["attack"], r["defence"], r["winner"]) == (5, 6, "Y")
    assert (where(after, "bWA"), where(after, "bMK"), where(after, "bCL")) == ("d4!", "e5!", "c4")
    assert (where(after, "yWW"), where(after, "yWZ"), where(after, "yTR")) == ("d5", "e6", "d3!")
    assert after.players["B"].combat == FULL  # the +0 comes back
    assert after.players["Y"].combat == hand_without(4)
    assert (after.vp("B"), after.vp("Y")) == (0, 0)


def test_BG_EX_04_variant_attacking_the_wounded_character():
    s = position(EX04)
    after, events = apply_texts(s, "attack bWA yTR")
    assert declared(events)["attackers"] == ["bMK", "bWA"]
    assert declared(events)["defenders"] == ["yTR", "yWW", "yWZ"]  # wounded target + Wall-Walker + Wizard
    after, events = combat_round(s, "attack bWA yTR", 3, 0)  # 5+3 vs 0+1+1
    assert (resolved(events)["attack"], resolved(events)["defence"]) == (8, 2)
    assert (where(after, "yTR"), where(after, "yWW"), where(after, "yWZ")) == ("eliminated", "d5!", "e6!")
    assert after.vp("B") == 1


def test_BG_GROUP_01_participation_is_fixed_when_the_attack_is_declared():
    s, _ = apply_texts(position(EX04), "attack bWA yWW")
    assert (s.combat.attackers, s.combat.defenders) == (("bMK", "bWA"), ("yWW", "yWZ"))
    assert s.ap == 4


def test_BG_GROUP_02_alternating_closure_over_connected_adjacency():
    # a chain: Warrior -> yellow Goblin (target) ; blue Troll touches the target ; yellow Cleric touches the Troll;
    # blue Thief touches the yellow Cleric; yellow Wizard touches only the blue Thief
    s = position("bWA@c3 yGB@c4 bTR@c5 yCL@c6 bTH@d6 yWZ@e6 yWA@a4")
    after, events = apply_texts(s, "attack bWA yGB")
    assert declared(events)["attackers"] == ["bTH", "bTR", "bWA"]
    assert declared(events)["defenders"] == ["yCL", "yGB", "yWZ"]  # yWA touches no blue participant
    # a wall or a closed portcullis cuts the contact
    s = position("bTR@c12 yGB@c13 bCL@b13 bWA@d13", ports="W1=co")
    after, events = apply_texts(s, "attack bTR yGB")
    assert (declared(events)["attackers"], declared(events)["defenders"]) == (["bTR"], ["yGB"])


def test_BG_GROUP_03_wounded_characters_join_only_as_the_target():
    s = position("bWA@c4 yTR@c5 bGB@d5! yCL@b4! yWZ@c6")
    after, events = apply_texts(s, "attack bWA yTR")
    assert declared(events)["attackers"] == ["bWA"]
    assert declared(events)["defenders"] == ["yTR"]


def test_BG_GROUP_04_each_side_adds_its_values_and_plays_one_card():
    s = position("bWA@c4 bSW@c4 yTR@c5 bGB@d5 yCL@d6 yAR@d6")
    after, events = combat_round(s, "attack bWA yTR", 2, 3)
    r = resolved(events)
    assert (r["attack"], r["defence"]) == (3 + 1 + 1 + 2, 4 + 2 + 1 + 3)
    assert r["cards"] == {"B": 2, "Y": 3}


def test_BG_GROUP_05_every_loser_is_wounded_a_wounded_target_that_wins_wounds_all_attackers():
    s = position("bWA@c4 yTR@c5 bGB@d5 yCL@d6")
    after, _ = combat_round(s, "attack bWA yTR", 5, 0)  # 4+5 vs 6
    assert (where(after, "yTR"), where(after, "yCL"), where(after, "bWA"), where(after, "bGB")) == \
        ("c5!", "d6!", "c4", "d5")
    s = position("bWA@c4 yTR@c5! bGB@d5")
    after, _ = combat_round(s, "attack bWA yTR", 0, 6)  # 4 vs 6: the wounded target wins
    assert (where(after, "bWA"), where(after, "bGB"), where(after, "yTR")) == ("c4!", "d5!", "c5!")
    after, _ = combat_round(s, "attack bWA yTR", 0, 1)  # 4 vs 1: the wounded target is eliminated
    assert where(after, "yTR") == "eliminated" and after.vp("B") == 1


def test_BG_GROUP_06_contact_with_a_friend_alone_draws_nobody_in():
    s = position("bWA@c4 yTR@c5 bCL@c3 bGB@b3 yWZ@c6 yCL@c7")
    after, events = apply_texts(s, "attack bWA yTR")
    assert declared(events)["attackers"] == ["bWA"]  # Cleric and Goblin touch only friends
    assert declared(events)["defenders"] == ["yTR"]  # the Wizard touches only the Troll


# --- BG-WOUND ----------------------------------------------------------------------------------------------
def test_BG_WOUND_01_wounded_token_is_face_down_but_public():
    s = position("bWA@c4 yTR@c5")
    after, events = combat_round(s, "attack bWA yTR", 6, 0)
    assert after.tokens["yTR"].wounded
    assert any(e.kind == "wounded" and e.data["token"] == "yTR" for e in events)
    for viewer in ("B", "Y", None):
        shown = next(t for t in view(after, viewer)["tokens"] if t["square"] == "c5")
        assert (shown["id"], shown["code"], shown["wounded"]) == ("yTR", "TR", True)


def test_BG_WOUND_02_a_wounded_character_acts_not_and_has_no_abilities():
    s = position("bWA@c12! bTH@d13! bCL@h4! yGB@h3!")  # Warrior and Thief beside closed portcullises
    assert legal_set(s) == {"end"}
    assert_refused(s, "move bTH e13", "BG-AP-02")
    assert_refused(s, "break bWA n", "BG-AP-02")
    assert_refused(s, "open bTH w", "BG-AP-02")
    assert_refused(s, "heal bCL yGB", "BG-AP-02")


def test_BG_WOUND_03_wounded_value_is_0_it_plays_a_card_armor_counts():
    s = position("bWA@c4 yTR@c5! bGB@e4 yCL@e5! yAR@e5")
    after, events = combat_round(s, "attack bWA yTR", 0, 2)
    assert (resolved(events)["attack"], resolved(events)["defence"]) == (3, 0 + 2)
    after, events = combat_round(s, "attack bGB yCL", 0, 0)
    assert (resolved(events)["attack"], resolved(events)["defence"]) == (1, 0 + 1)  # tie: nothing happens
    assert where(after, "yCL") == "e5!"


def test_BG_WOUND_04_a_wounded_loser_is_eliminated_for_1_vp():
    s = position("bWA@c4 yTR@c5!")
    after, events = combat_round(s, "attack bWA yTR", 1, 0)
    assert where(after, "yTR") == "eliminated" and (after.vp("B"), after.vp("Y")) == (1, 0)
    assert any(e.kind == "eliminated" and e.data["scorer"] == "B" for e in events)
    assert {"id": "yTR", "where": "eliminated", "scored_by": None} in view(after, "Y")["off_board"]


def test_BG_WOUND_05_a_wounded_character_fights_only_as_target_and_may_win():
    s = position("bGB@c4 yTR@c5!")
    after, events = combat_round(s, "attack bGB yTR", 0, 6)  # 1 vs 6
    assert where(after, "bGB") == "c4!" and where(after, "yTR") == "c5!"


def test_BG_WOUND_06_own_figures_may_stop_on_a_wounded_enemies_only_cross():
    s = position("bWA@c3 bGB@c4! yGB@d3!")
    assert "move bWA c4" in legal_set(s)  # and carries it from then on
    assert "move bWA e3" in legal_set(s) and not any(t.split()[2] == "d3" for t in legal_set(s, verb="move"))
    assert_refused(s, "move bWA d3", "BG-MOVE-07")


def test_BG_WOUND_07_wounded_until_healed_regenerated_eliminated_or_carried_out():
    s = position("bGB@c4! bWA@h4")
    s = next_turn(next_turn(s))
    assert where(s, "bGB") == "c4!"
    s = position("bGB@c20! bWA@c19 bCL@d4! bTH@d5")
    after, _ = apply_texts(s, "move bWA c21 +bGB")
    assert where(after, "bGB") == "saved"


def test_BG_COMBAT_07_BG_GROUP_02_DT_293_a_defender_wounded_this_turn_is_not_drawn_into_a_group():
    """Review bg28: the yellow Goblin, wounded this turn and healed by the blue Cleric (BG-CHAR-CLERIC-05), could not
    be attacked (BG-COMBAT-07, DT-030) but was drawn into the defenders of Blue's next attack on the Warrior beside
    it, and wounded again if Blue won: attacked "by any kind of combat". It now takes no part, and draws nobody in
    (the Cleric touched only it)."""
    s = position("bWA@c4 bCL@b5 yGB@c5!5 yWA@d4", turn=5)
    s, _ = apply_texts(s, "heal bCL yGB")
    assert_refused(s, "attack bWA yGB", "BG-COMBAT-07")
    after, events = combat_round(s, "attack bWA yWA", 6, 0)
    assert (declared(events)["attackers"], declared(events)["defenders"]) == (["bWA"], ["yWA"])
    assert resolved(events)["defence"] == 3  # the Warrior alone
    assert (where(after, "yWA"), where(after, "yGB")) == ("d4!", "c5")
    # the edges: a turn later he is drawn in again; a blue figure wounded this turn and healed still joins the
    # attackers (RUL-014: being drawn in is no action; BG-COMBAT-07 protects the attacked side)
    later = position("bWA@c4 bCL@b5 yGB@c5~5 yWA@d4", turn=7)
    after, events = apply_texts(later, "attack bWA yWA")
    assert (declared(events)["attackers"], declared(events)["defenders"]) == (["bCL", "bWA"], ["yGB", "yWA"])
    own = position("bWA@c4 bGB@c6~5 yTR@c5", turn=5)
    after, events = apply_texts(own, "attack bWA yTR")
    assert declared(events)["attackers"] == ["bGB", "bWA"]
