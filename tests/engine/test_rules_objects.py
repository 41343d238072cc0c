"""Rule tests: the base-set objects (BG-OBJ-*), special abilities in general (BG-ABIL) and line of sight (BG-LOS),
which the base set uses only for the Fireball Wand.

Synthetic board: pits c8, d8; c13 closed in by walls (west b13, north c14) and portcullises (east d13 = W1
portcullis 0, south c12 = W1 portcullis 1); an outer wall between a10 and a11; rotation mechanism a5.
"""

from __future__ import annotations

from dungeon_twister.engine import format_position

from tests.engine.builders import (apply_texts, assert_refused, combat_round, legal_set, next_turn, position,
                                   where)


def resolved(events):
    return next(e for e in events if e.kind == "combat_resolved").data


def fired(events):
    return next(e for e in events if e.kind == "fireball").data["victims"]


# --- Armor -------------------------------------------------------------------------------------------------
def test_BG_OBJ_ARMOR_01_plus_1_only_when_defending():
    s = position("bWA@c4 bAR@c4 yGB@c5")
    after, events = combat_round(s, "attack bWA yGB", 0, 0)
    assert resolved(events)["attack"] == 3  # no bonus in attack
    y = position("bWA@c4 bAR@c4 yGB@c5", active="Y")
    after, events = combat_round(y, "attack yGB bWA", 0, 0)
    assert resolved(events)["defence"] == 3 + 1


def test_BG_OBJ_ARMOR_02_a_wounded_character_lying_with_armor_gets_it():
    y = position("bWA@c4! bAR@c4 yGB@c5", active="Y")
    after, events = combat_round(y, "attack yGB bWA", 1, 0)  # Blue +1, Yellow +0
    assert (resolved(events)["attack"], resolved(events)["defence"]) == (1, 0 + 1 + 1)
    assert where(after, "yGB") == "c5!"  # 1 vs 2: the wounded Warrior wins


def test_BG_OBJ_ARMOR_03_each_defender_with_armor_adds_1():
    y = position("bWA@c4 bAR@c4 bGB@d5 yAR@d5 yTR@c5 yCL@d6", active="Y")
    after, events = combat_round(y, "attack yTR bWA", 0, 0)
    data = next(e for e in events if e.kind == "combat_declared").data
    assert data["defenders"] == ["bGB", "bWA"]
    assert resolved(events)["defence"] == 3 + 1 + 1 + 1  # Warrior + Goblin, each with an Armor (yAR is yellow)


# --- Fireball Wand -----------------------------------------------------------------------------------------
def test_BG_OBJ_FIREBALL_01_wizard_only_1_ap_then_discarded():
    s = position("bWZ@e2 bFW@e2 yGB@e6")
    assert legal_set(s, verb="fireball") == {"fireball bWZ n", "fireball bWZ e", "fireball bWZ s",
                                             "fireball bWZ w"}
    after, _ = apply_texts(s, "fireball bWZ n")
    assert where(after, "bFW") == "discarded" and after.ap == 4
    assert legal_set(after, verb="fireball") == set()
    assert assert_refused(after, "fireball bWZ n", "BG-OBJ-FIREBALL-01").message == "bWZ carries no Fireball Wand"
    assert assert_refused(position("bCL@e2 bFW@e2 yGB@e6"), "fireball bCL n", "BG-OBJ-FIREBALL-01").message == (
        "only the Wizard can use the Fireball Wand, not bCL")



def test_BG_OBJ_FIREBALL_02_DT_257_no_fireball_beyond_the_board_edge():
    """DT-257: the caster chooses the direction of a line of sight, and beyond the board's outer edge there is no
    square, so no line: the Wizard on a2 with the Wand was offered `fireball bWZ w`, which threw the Wand away. Now
    n, e and s are listed; w is refused citing BG-OBJ-FIREBALL-02 and the Wand stays with him, his AP untouched.
    From his start-zone square e0 south is refused the same way; east along the start zone stays a line."""
    side = position("bWZ@a2 bFW@a2 yGB@c2")
    assert legal_set(side, verb="fireball") == {"fireball bWZ n", "fireball bWZ e", "fireball bWZ s"}
    refusal = assert_refused(side, "fireball bWZ w", "BG-OBJ-FIREBALL-02")
    assert refusal.message == "the board ends w of a2: no line of sight there"
    assert where(side, "bFW") == "a2" and side.ap == 5
    assert where(apply_texts(side, "fireball bWZ e")[0], "yGB") == "eliminated"
    start = position("bWZ@e0 bFW@e0 yGB@e6")
    assert legal_set(start, verb="fireball") == {"fireball bWZ n", "fireball bWZ e", "fireball bWZ w"}
    assert_refused(start, "fireball bWZ s", "BG-OBJ-FIREBALL-02")

def test_BG_OBJ_FIREBALL_02_first_character_in_line_any_distance_friend_or_foe():
    s = position("bWZ@e2 bFW@e2 yGB@e19 yTR@d5")
    after, events = apply_texts(s, "fireball bWZ n")
    assert fired(events) == ["yGB"] and where(after, "yGB") == "eliminated"
    assert where(after, "yTR") == "d5"
    s = position("bWZ@e2 bFW@e2 bGB@e10! yGB@e19")
    after, events = apply_texts(s, "fireball bWZ n")
    assert fired(events) == ["bGB"] and where(after, "yGB") == "e19"


def test_BG_OBJ_FIREBALL_03_walls_and_closed_portcullises_stop_it_and_it_is_spent_anyway():
    s = position("bWZ@e13 bFW@e13 yGB@c13")  # closed portcullis d13|c13
    after, events = apply_texts(s, "fireball bWZ w")
    assert fired(events) == [] and where(after, "yGB") == "c13" and where(after, "bFW") == "discarded"
    for state in ("oc", "bc"):  # open or broken: it passes
        after, events = apply_texts(position("bWZ@e13 bFW@e13 yGB@c13", ports=f"W1={state}"), "fireball bWZ w")
        assert fired(events) == ["yGB"]
    after, events = apply_texts(position("bWZ@a13 bFW@a13 yGB@c13"), "fireball bWZ e")  # wall b13|c13
    assert fired(events) == []
    # over pits, objects and a rotation mechanism
    after, events = apply_texts(position("bWZ@a8 bFW@a8 bSW@b8 yGB@g8"), "fireball bWZ e")
    assert fired(events) == ["yGB"]
    after, events = apply_texts(position("bWZ@a2 bFW@a2 ySW@a4 yGB@a9"), "fireball bWZ n")
    assert fired(events) == ["yGB"]


def test_BG_OBJ_FIREBALL_04_objects_are_not_harmed():
    s = position("bWZ@e2 bFW@e2 yGB@e6 yTS@e6 ySW@e4")
    after, _ = apply_texts(s, "fireball bWZ n")
    assert (where(after, "yGB"), where(after, "yTS"), where(after, "ySW")) == ("eliminated", "e6", "e4")


def test_BG_OBJ_FIREBALL_05_a_figure_and_the_wounded_it_carries_both_die():
    s = position("bWZ@e2 bFW@e2 yWA@e6 yGB@e6!")
    after, events = apply_texts(s, "fireball bWZ n")
    assert sorted(fired(events)) == ["yGB", "yWA"]
    assert (where(after, "yWA"), where(after, "yGB"), after.vp("B")) == ("eliminated", "eliminated", 2)


def test_BG_OBJ_FIREBALL_06_not_a_combat_it_hits_a_character_wounded_this_turn():
    s = position("bWZ@e2 bFW@e2 yGB@e6!5", turn=5)
    after, events = apply_texts(s, "fireball bWZ n")
    assert where(after, "yGB") == "eliminated"
    assert after.phase == "main" and after.combat is None
    assert after.players == s.players  # no combat card played
    assert not any(e.kind.startswith("combat") for e in events)


def test_BG_OBJ_FIREBALL_07_each_victims_opponent_scores():
    s = position("bWZ@e2 bFW@e2 bGB@e6 yGB@e4", active="B")
    after, _ = apply_texts(s, "fireball bWZ w")  # nobody to the west: spent for nothing
    assert (after.vp("B"), after.vp("Y")) == (0, 0)
    s = position("bWZ@e2 bFW@e2 bGB@e6")
    after, events = apply_texts(s, "fireball bWZ n")  # his own Goblin: Yellow scores
    assert (after.vp("B"), after.vp("Y")) == (0, 1)
    assert [e.data["scorer"] for e in events if e.kind == "eliminated"] == ["Y"]


# --- Rope --------------------------------------------------------------------------------------------------
def test_BG_OBJ_ROPE_01_its_carrier_crosses_and_stops_on_pits():
    s = position("bGB@c7 bRP@c7")
    moves = {t.split()[2] for t in legal_set(s, verb="move", token="bGB")}
    assert {"c8", "d8", "c9"} <= moves
    after, _ = apply_texts(s, "move bGB c8-c9-c10")
    assert (where(after, "bGB"), where(after, "bRP")) == ("c10", "c10")


def test_BG_OBJ_ROPE_02_left_on_a_pit_it_bridges_it_and_may_be_taken_by_one_leaving():
    s = position("bGB@c7 bRP@c7")
    s, _ = apply_texts(s, "move bGB c9 bRP@c8")
    assert where(s, "bRP") == "c8"
    s = position("bRP@c8 yWA@c7", active="Y")  # any character, Yellow too
    assert {"move yWA c8", "move yWA c9", "move yWA c9 +bRP"} <= legal_set(s, token="yWA")
    after, _ = apply_texts(s, "move yWA c10 +bRP")  # taken as he leaves the pit
    assert where(after, "bRP") == "c10"


# --- Sword -------------------------------------------------------------------------------------------------
def test_BG_OBJ_SWORD_01_plus_1_only_when_attacking_each_attacker_with_one():
    s = position("bWA@c4 bSW@c4 bGB@d5 ySW@d5 yTR@c5")
    after, events = combat_round(s, "attack bWA yTR", 0, 0)
    assert resolved(events)["attack"] == 3 + 1 + 1 + 1  # Warrior and Goblin, each with a Sword
    y = position("bWA@c4 bSW@c4 yTR@c5", active="Y")
    after, events = combat_round(y, "attack yTR bWA", 0, 0)
    assert resolved(events)["defence"] == 3  # no bonus in defence


# --- Speed Potion ------------------------------------------------------------------------------------------
def test_BG_OBJ_POTION_01_drinking_costs_1_ap_and_discards_it_at_once():
    s = position("bGB@c4 bSP@c4")
    assert legal_set(s, verb="drink") == {"drink bGB"}
    after, events = apply_texts(s, "drink bGB")
    assert where(after, "bSP") == "discarded" and after.ap == 4
    assert [e.kind for e in events] == ["potion_drunk"]
    assert_refused(after, "drink bGB", "BG-OBJ-POTION-01")
    assert_refused(position("bGB@c4 bSW@c4"), "drink bGB", "BG-OBJ-POTION-01")


def test_BG_OBJ_POTION_02_four_extra_ap_for_the_drinker_only_this_turn():
    s = position("bGB@c4 bSP@c4 bWA@h4", ap=1)
    s, _ = apply_texts(s, "drink bGB")
    assert (s.ap, dict(s.pools)) == (0, {"bGB": 4})
    assert legal_set(s, token="bWA") == set()
    assert_refused(s, "move bWA h5", "BG-TURN-03")
    s, _ = apply_texts(s, "move bGB c5", "move bGB c6", "move bGB c7", "move bGB b7")
    assert (dict(s.pools), where(s, "bGB")) == ({"bGB": 0}, "b7")
    assert legal_set(s) == {"end"}
    unused = position("bGB@c4 bSP@c4", ap=1)
    unused, _ = apply_texts(unused, "drink bGB")
    unused = next_turn(next_turn(unused))
    assert dict(unused.pools) == {}  # lost at the end of the turn


def test_BG_OBJ_POTION_03_potion_ap_and_card_ap_are_counted_apart():
    s = position("bGB@c4 bSP@c4 bWA@h4", ap=3)
    s, _ = apply_texts(s, "drink bGB")
    assert (s.ap, s.pools["bGB"]) == (2, 4)
    s, _ = apply_texts(s, "move bGB c5", "move bWA h5", "move bGB c6")
    assert (s.ap, s.pools["bGB"]) == (1, 2)
    assert "pools=bGB:2" in format_position(s)


# --- Treasure ----------------------------------------------------------------------------------------------
def test_BG_OBJ_TREASURE_01_no_effect_in_play_one_vp_when_carried_out():
    s = position("bWA@c4 yTS@c4 yGB@c5")
    after, events = combat_round(s, "attack bWA yGB", 0, 0)
    assert resolved(events)["attack"] == 3
    s = position("bGB@c20 yTS@c20")
    after, _ = apply_texts(s, "move bGB c21")
    assert where(after, "yTS") == "scored" and after.vp("B") == 2 + 1 and after.vp("Y") == 0


# --- BG-ABIL -----------------------------------------------------------------------------------------------
def test_BG_ABIL_01_permanent_abilities_cost_nothing_activated_ones_1_ap():
    s = position("bTH@c7 bCL@h4 bGB@h5!")
    after, _ = apply_texts(s, "move bTH c8-c9")  # Acrobatics: only the move's AP
    assert after.ap == 4
    after, _ = apply_texts(after, "heal bCL bGB")  # Heal: 1 AP
    assert after.ap == 3
    verbs = {t.split()[0] for t in legal_set(position("bTH@c12"), token="bTH")}
    assert verbs == {"move", "open"}  # Acrobatics is no action; Lock-picking is


def test_BG_ABIL_02_a_wounded_character_loses_its_abilities():
    s = position("bWZ@c4! bFW@c4 bTH@h4! bWW@b13!")
    assert legal_set(s) == {"end"}
    assert_refused(s, "wallwalk bWW c13", "BG-AP-02")
    # Armor is the stated exception (BG-WOUND-03); Levitation and Acrobatics are gone: a wounded Thief on a pit
    # without a Rope falls (BG-PIT-07)
    s = position("bWA@c7 yTH@c8 yGB@b8!", active="B")
    after, _ = combat_round(s, "attack bWA yTH", 3, 0)
    assert where(after, "yTH") == "eliminated"


def test_BG_ABIL_03_permanent_objects_stay_activated_ones_are_discarded():
    s = position("bWA@c4 bSW@c4 yGB@c5 bGB@h4 bSP@h4 bWZ@e2 bFW@e2")
    s, _ = combat_round(s, "attack bWA yGB", 0, 0)
    assert where(s, "bSW") == "c4"
    s, _ = apply_texts(s, "drink bGB", "fireball bWZ e")
    assert (where(s, "bSP"), where(s, "bFW")) == ("discarded", "discarded")


def test_BG_ABIL_04_only_a_figure_uses_an_activated_object():
    s = position("bWZ@c4! bFW@c4 bGB@h4! bSP@h4")
    assert legal_set(s) == {"end"}
    assert_refused(s, "fireball bWZ n", "BG-ABIL-04")
    assert_refused(s, "drink bGB", "BG-ABIL-04")


def test_BG_ABIL_05_adjacent_means_adjacent_and_connected():
    s = position("bCL@b13 bGB@c13! bTH@c12")
    assert legal_set(s, verb="heal") == set()
    assert_refused(s, "heal bCL bGB", "BG-CHAR-CLERIC-04")
    after, _ = apply_texts(s, "open bTH n")
    assert legal_set(after, verb="heal") == set()  # still the wall between b13 and c13


# --- BG-LOS ------------------------------------------------------------------------------------------------
def test_BG_LOS_01_a_straight_orthogonal_line():
    s = position("bWZ@e2 bFW@e2 yGB@d5 yTR@f3 yCL@e9")
    after, events = apply_texts(s, "fireball bWZ n")
    assert fired(events) == ["yCL"]  # d5 and f3 are not on the line
    after, events = apply_texts(s, "fireball bWZ e")
    assert fired(events) == []


def test_BG_LOS_02_walls_closed_portcullises_hidden_rooms_and_characters_stop_it():
    s = position("bWZ@e2 bFW@e2 yGB@e6 yTR@e9")
    after, events = apply_texts(s, "fireball bWZ n")
    assert fired(events) == ["yGB"] and where(after, "yTR") == "e9"  # nothing beyond the first character
    s = position("bWZ@e2 bFW@e2 yGB@e6! yTR@e9")
    assert fired(apply_texts(s, "fireball bWZ n")[1]) == ["yGB"]  # a wounded one stops it too
    hidden = position("bWZ@e2 bFW@e2 yTR@e12",
                      rooms="A1=O1/0 B1=O2/0 A2=*P1/0 B2=P2/0 A3=W1/0 B3=W2/0 A4=Q1/0 B4=Q2/0")
    after, events = apply_texts(hidden, "fireball bWZ n")
    assert fired(events) == [] and where(after, "yTR") == "e12"
    after, events = apply_texts(position("bWZ@c10 bFW@c10 yTR@c14"), "fireball bWZ n")  # closed c12|c13
    assert fired(events) == []


def test_BG_LOS_03_objects_mechanisms_pits_open_portcullises_do_not_stop_it():
    s = position("bWZ@a8 bFW@a8 ySW@b8 yGB@e8")
    assert fired(apply_texts(s, "fireball bWZ e")[1]) == ["yGB"]  # over b8 (object), c8 and d8 (pits)
    s = position("bWZ@a3 bFW@a3 yGB@a8")
    assert fired(apply_texts(s, "fireball bWZ n")[1]) == ["yGB"]  # over the mechanism a5
    s = position("bWZ@c11 bFW@c11 yGB@c13", ports="W1=cb")
    assert fired(apply_texts(s, "fireball bWZ n")[1]) == ["yGB"]  # through the broken portcullis


def test_BG_LOS_04_across_room_borders_and_onto_start_zones_but_not_through_border_walls():
    s = position("bWZ@e18 bFW@e18 yGB@e21")
    assert fired(apply_texts(s, "fireball bWZ n")[1]) == ["yGB"]
    s = position("bWZ@e3 bFW@e3 bGB@e0")  # only Blue's characters stand there (BG-EXIT-02)
    assert fired(apply_texts(s, "fireball bWZ s")[1]) == ["bGB"]  # own start zone too
    s = position("bWZ@a7 bFW@a7 yGB@a12")
    assert fired(apply_texts(s, "fireball bWZ n")[1]) == []  # the wall between a10 and a11
    s = position("bWZ@b7 bFW@b7 yGB@b12")
    assert fired(apply_texts(s, "fireball bWZ n")[1]) == ["yGB"]
