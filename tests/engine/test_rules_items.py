"""Rule tests: objects and carrying during moves (BG-ITEM, BG-EX-03) and carried wounded characters (BG-CARRY).

Carrying model (RUL-119): whatever lies on a figure's square is carried by it. A move is written by its outcome:
`+token` = the mover ends carrying a token that was elsewhere; `token@square` = a token it leaves (or hands over)
somewhere. Stopping on a lone object or own wounded needs no `+`: it does not move, but is carried from then on.
"""

from __future__ import annotations

from dungeon_twister.engine import view

from tests.engine.builders import (apply_texts, assert_refused, combat_round, legal_set, next_turn, position,
                                   where)


def moves_to(state, token: str, dest: str) -> set[str]:
    return {t for t in legal_set(state, verb="move", token=token) if t.split()[2] == dest}


# --- BG-ITEM -----------------------------------------------------------------------------------------------
def test_BG_ITEM_01_a_figure_carries_one_thing():
    s = position("bWA@c3 bSW@c3 bAR@c4")
    # c5 is reached only through c4: keep the Sword, or leave it (on c3, or on c4 swapping it for the Armor)
    assert moves_to(s, "bWA", "c5") == {"move bWA c5", "move bWA c5 bSW@c3", "move bWA c5 +bAR bSW@c3",
                                         "move bWA c5 +bAR bSW@c4"}
    assert_refused(s, "move bWA c5 +bAR", "BG-ITEM-01")  # Sword and Armor
    # an object and a wounded character are two things as well
    s = position("bWA@c3 bSW@c3 bGB@c4!")
    assert_refused(s, "move bWA c5 +bGB", "BG-ITEM-01")
    after, _ = apply_texts(s, "move bWA c5 +bGB bSW@c4")
    assert (where(after, "bGB"), where(after, "bSW")) == ("c5!", "c4")


def test_BG_ITEM_02_carried_tokens_move_with_the_carrier_and_anyone_may_look():
    s = position("bWA@c3 ySW@c3")
    after, _ = apply_texts(s, "move bWA c6")
    assert where(after, "ySW") == "c6"
    for viewer in ("Y", "B", None):
        shown = {t["id"]: t["square"] for t in view(after, viewer)["tokens"]}
        assert shown["ySW"] == shown["bWA"] == "c6"


def test_BG_ITEM_03_pick_up_while_crossing_or_stopping_at_no_extra_cost():
    s = position("bWA@c3 yAR@c4 bGB@d5!")
    after, _ = apply_texts(s, "move bWA c5 +yAR")  # crossed c4 and took it
    assert (where(after, "yAR"), after.ap) == ("c5", 4)
    after, _ = apply_texts(s, "move bWA d5")  # stopped on his own wounded Goblin: carried
    assert (where(after, "bGB"), after.ap) == ("d5!", 4)
    after, _ = apply_texts(after, "move bWA d3")
    assert where(after, "bGB") == "d3!"
    # Seen by hand: "+yAR" for what lies on the destination was refused as a drop no path allows (BG-ITEM-04).
    # Ending there carries it unnamed (RUL-119): the refusal says so, citing the pick-up rule.
    refused = assert_refused(s, "move bWA c4 +yAR", "BG-ITEM-03")
    assert refused.message == "yAR lies on c4: bWA carries it by ending its move there, without +yAR"
    assert "move bWA c4" in legal_set(s, token="bWA")
    # only when that is the move's one fault: a Sword in hand makes ending on c4 two things (BG-ITEM-01)
    assert_refused(position("bWA@c3 bSW@c3 yAR@c4"), "move bWA c4 +yAR", "BG-ITEM-01")


def test_BG_ITEM_04_drop_on_a_square_of_the_move_that_may_hold_it():
    s = position("bWA@c3 bSW@c3 yAR@c5")
    after, _ = apply_texts(s, "move bWA c6 bSW@c4")
    assert (where(after, "bSW"), where(after, "bWA"), after.ap) == ("c4", "c6", 4)
    after, _ = apply_texts(s, "move bWA c4 bSW@c3")  # on the starting square
    assert where(after, "bSW") == "c3"
    assert_refused(s, "move bWA c4 bSW@e3", "BG-ITEM-04")  # e3 is not on any route of that move
    assert_refused(s, "move bWA c6 bSW@c5", "BG-ITEM-04")  # c5 would hold two objects
    assert "move bWA c6 bSW@c5" not in legal_set(s)


def test_BG_ITEM_05_hand_over_while_crossing_a_friend():
    # give a wounded character to a friend, take a friend's object, or swap
    s = position("bWA@c3 bGB@c3! bCL@c4 bSW@c4")
    assert "move bWA c5 +bSW bGB@c4" in legal_set(s, token="bWA")
    assert "move bWA c5 +bSW" not in legal_set(s, token="bWA")  # he would carry two things
    after, _ = apply_texts(s, "move bWA c5 +bSW bGB@c4")
    assert (where(after, "bSW"), where(after, "bGB"), where(after, "bCL")) == ("c5", "c4!", "c4")
    s = position("bWA@c3 bCL@c4 bSW@c4")
    after, _ = apply_texts(s, "move bWA c5 +bSW")  # taken from the Cleric as the Warrior passes
    assert (where(after, "bSW"), after.ap) == ("c5", 4)
    s = position("bWA@c3 bGB@c3! bCL@c4")
    after, _ = apply_texts(s, "move bWA c5 bGB@c4")  # the Cleric now carries the Goblin
    assert where(after, "bGB") == "c4!"
    assert_refused(position("bWA@c3 bSW@c3 bCL@c4 bAR@c4"), "move bWA c5 bSW@c4", "BG-ITEM-01")


def test_BG_EX_03_hand_over_during_a_move():
    """BG-EX-03 (BG-ITEM-05, BG-MOVE-08): the yellow Thief gives the Rope to the Wizard and takes his Potion."""
    s = position("yTH@e12 yRP@e12 yWZ@e16 ySP@e16", active="Y")
    assert "move yTH e17 +ySP yRP@e16" in legal_set(s)
    after, events = apply_texts(s, "move yTH e13-e14-e15-e16-e17 +ySP yRP@e16")
    assert (where(after, "yTH"), where(after, "ySP")) == ("e17", "e17")
    assert (where(after, "yWZ"), where(after, "yRP")) == ("e16", "e16")
    assert after.ap == s.ap - 1
    assert_refused(s, "move yTH e16", "BG-MOVE-08")  # she may not stop on the Wizard's square
    assert_refused(s, "move yTH e17 yRP@e16", "BG-ITEM-01")  # he would carry the Rope and the Potion
    assert "move yTH e17 yRP@e16" not in legal_set(s)


def test_BG_ITEM_06_object_lying_with_a_wounded_character_may_be_taken_or_swapped():
    s = position("bWA@c3 yTR@c4! yAR@c4")
    after, _ = apply_texts(s, "move bWA c5 +yAR")
    assert (where(after, "yAR"), where(after, "yTR")) == ("c5", "c4!")
    s = position("bWA@c3 bSW@c3 yTR@c4! yAR@c4")
    after, _ = apply_texts(s, "move bWA c5 +yAR bSW@c4")  # swapped: the Sword now lies with the yellow Troll
    assert (where(after, "yAR"), where(after, "bSW")) == ("c5", "c4")
    s = position("bWA@c3 bGB@c4! bAR@c4")  # same with an own wounded character
    assert "move bWA c5 +bAR" in legal_set(s)


def test_BG_ITEM_07_objects_of_either_colour_may_be_carried_and_used():
    s = position("bWA@c3 ySW@c4 yGB@c6")
    s, _ = apply_texts(s, "move bWA c5 +ySW")
    after, events = combat_round(s, "attack bWA yGB", 0, 0)
    resolved = next(e for e in events if e.kind == "combat_resolved")
    assert (resolved.data["attack"], resolved.data["defence"]) == (3 + 1, 1)  # the yellow Sword helps Blue
    s = position("bWZ@c3 yFW@c3 yGB@c6")
    after, _ = apply_texts(s, "fireball bWZ n")
    assert where(after, "yGB") == "eliminated" and where(after, "yFW") == "discarded"


def test_BG_ITEM_08_a_wounded_characters_object_stays_with_it_and_still_counts():
    s = position("bWA@c4 bAR@c4 yTR@c5")
    s, _ = combat_round(s, "attack bWA yTR", 0, 2)  # 3 vs 4+2
    assert (where(s, "bWA"), where(s, "bAR")) == ("c4!", "c4")
    s = next_turn(s, 3)  # Yellow's turn: the Troll attacks the wounded Warrior, who still has the Armor
    after, events = combat_round(s, "attack yTR bWA", 3, 1)
    resolved = next(e for e in events if e.kind == "combat_resolved")
    assert (resolved.data["attack"], resolved.data["defence"]) == (4 + 1, 0 + 1 + 3)


def test_BG_ITEM_09_object_stays_when_its_wounded_character_is_eliminated():
    s = position("bWA@c4 yTR@c5! yAR@c5")
    after, _ = combat_round(s, "attack bWA yTR", 3, 0)
    assert where(after, "yTR") == "eliminated" and where(after, "yAR") == "c5" and after.vp("B") == 1


def test_BG_ITEM_10_a_healed_character_carries_again_what_lies_with_it():
    s = position("bCL@c4 bGB@c5! bSW@c5")
    s, _ = apply_texts(s, "heal bCL bGB")
    assert where(s, "bGB") == "c5" and where(s, "bSW") == "c5"
    s = next_turn(next_turn(s))
    after, _ = apply_texts(s, "move bGB e5")
    assert (where(after, "bGB"), where(after, "bSW")) == ("e5", "e5")


# --- BG-CARRY ----------------------------------------------------------------------------------------------
def test_BG_CARRY_01_only_own_colour_figures_carry_a_wounded_character():
    s = position("bWA@c3 yTR@c4! bGB@d3!")
    assert not any("yTR" in t for t in legal_set(s, verb="move", token="bWA"))
    assert_refused(s, "move bWA c5 +yTR", "BG-CARRY-01")
    assert "move bWA c5 +bGB" not in legal_set(s)  # d3 is not on the way to c5 within 2 steps
    assert "move bWA d4 +bGB" in legal_set(s)
    assert_refused(position("bWA@c3 bGB@c4"), "move bWA c5 +bGB", "BG-CARRY-01")  # a figure is never carried


def test_BG_CARRY_02_pick_up_drop_and_hand_over_rules_apply_to_wounded():
    s = position("bWA@c3 bGB@c4!")
    after, _ = apply_texts(s, "move bWA c6 +bGB")
    assert where(after, "bGB") == "c6!"
    after, _ = apply_texts(after, "move bWA b7 bGB@c7")
    assert (where(after, "bGB"), where(after, "bWA")) == ("c7!", "b7")
    assert_refused(position("bWA@c3 bGB@c3! bTR@c5!"), "move bWA c6 bGB@c5", "BG-ITEM-04")  # two wounded


def test_BG_CARRY_03_carrier_losing_a_combat_loses_the_carried_character():
    s = position("bWA@c4 bGB@c4! yTR@c5")
    after, events = combat_round(s, "attack bWA yTR", 0, 6)
    assert where(after, "bWA") == "c4!" and where(after, "bGB") == "eliminated"
    assert after.vp("Y") == 1 and after.vp("B") == 0


def test_BG_CARRY_04_a_carried_wounded_character_cannot_be_attacked():
    s = position("bWA@c4 bGB@c4! yWA@c5", active="Y")
    assert legal_set(s, verb="attack") == {"attack yWA bWA"}
    assert_refused(s, "attack yWA bGB", "BG-CARRY-04")


def test_BG_CARRY_05_a_carried_wounded_character_carried_out_is_saved():
    s = position("bWA@c19 bGB@c19!")
    after, events = apply_texts(s, "move bWA c21")
    assert (where(after, "bWA"), where(after, "bGB")) == ("exited", "saved")
    assert (after.vp("B"), after.vp("Y")) == (1, 0)


def test_BG_ITEM_05_DT_290_an_object_is_handed_to_a_friendly_thief_standing_on_a_pit():
    """Review bg28: the Warrior crossing his Thief on the pit c8 could take her Sword but not give her his, the give
    read as leaving the Sword in the pit (BG-PIT-05), though a Thief on a pit carries any object (DT-025). A give
    is a hand-over (BG-ITEM-05), a Rope's too (no BG-PIT-06 test: nothing is left on the pit); a wounded friend is
    still not handed to her there (BG-PIT-05), nor is anything left in the pit once she has gone."""
    s = position("bWA@c7 bSW@c7 bTH@c8")
    assert "move bWA c9 bSW@c8" in legal_set(s, token="bWA")
    after, _ = apply_texts(s, "move bWA c9 bSW@c8")
    assert (where(after, "bWA"), where(after, "bSW"), where(after, "bTH")) == ("c9", "c8", "c8")
    # she carries it off the pit in her next move
    after, _ = apply_texts(after, "move bTH d9")
    assert where(after, "bSW") == "d9"
    # a swap: her Treasure for his Sword
    swapped, _ = apply_texts(position("bWA@c7 bSW@c7 bTH@c8 bTS@c8"), "move bWA c9 +bTS bSW@c8")
    assert (where(swapped, "bSW"), where(swapped, "bTS")) == ("c8", "c9")
    # a Rope handed over needs no two valid squares beside the pit (base tile 2G at A2: its pit a6 has only a5)
    rooms = "A1=1G/0 B1=1D/0 A2=2G/0 B2=2D/0 A3=3G/0 B3=3D/0 A4=4G/0 B4=4D/0"
    roped = position("bWA@a4 bRP@a4 bTH@a6", rooms=rooms, set_name="base_set")
    after, _ = apply_texts(roped, "move bWA a5-a6-a5 bRP@a6")
    assert (where(after, "bRP"), where(after, "bTH")) == ("a6", "a6")
    # the edges: not a wounded friend (BG-PIT-05), not to an enemy Thief, not into the pit she is leaving
    assert_refused(position("bWA@c7 bGB@c7! bTH@c8"), "move bWA c9 bGB@c8", "BG-PIT-05")
    enemy = position("bWZ@c7 bSW@c7 yTH@c8")
    assert not any("bSW@c8" in text for text in legal_set(enemy, token="bWZ"))
    assert_refused(position("bTH@c8 bSW@c8"), "move bTH c9 bSW@c8", "BG-PIT-05")


def test_BG_ITEM_05_DT_292_a_flyer_hands_nothing_to_an_enemy_figure_it_passes_over():
    """Review bg28: the Wizard flying over the yellow Troll (BG-CHAR-WIZARD-01) could leave his Sword on the Troll's
    square, which the Troll then carried (RUL-119): a give to an enemy. Hand-overs are between figures of one
    colour (BG-ITEM-05), and he could not take the Troll's object either (BG-ITEM-03 under an enemy figure)."""
    s = position("bWZ@c3 bSW@c3 yTR@c4")
    assert not any("@c4" in text for text in legal_set(s, token="bWZ"))
    refusal = assert_refused(s, "move bWZ c4-c5 bSW@c4", "BG-ITEM-05")
    assert refusal.message == "c4 holds an enemy figure: nothing is handed to it"
    # the edges: he still flies over the Troll with the Sword, leaves it beyond him, and gives it to a friend
    after, _ = apply_texts(s, "move bWZ c4-c5")
    assert (where(after, "bWZ"), where(after, "bSW"), where(after, "yTR")) == ("c5", "c5", "c4")
    after, _ = apply_texts(s, "move bWZ c4-c5-c6 bSW@c5")
    assert (where(after, "bWZ"), where(after, "bSW")) == ("c6", "c5")
    friend = position("bWZ@c3 bSW@c3 bTR@c4")
    after, _ = apply_texts(friend, "move bWZ c4-c5 bSW@c4")
    assert where(after, "bSW") == "c4"
    # an enemy wounded character is no figure: an object may still be left lying with it (BG-ITEM-04)
    wounded = position("bWZ@c3 bSW@c3 yTR@c4!")
    after, _ = apply_texts(wounded, "move bWZ c4-c5 bSW@c4")
    assert (where(after, "bSW"), where(after, "yTR")) == ("c4", "c4!")
