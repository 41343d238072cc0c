"""Rule tests: the base-set characters (BG-CHAR-*).

Synthetic board: c13 closed in by walls (west b13, north c14) and portcullises (east d13 = W1 portcullis 0,
south c12 = W1 portcullis 1); pits c8, d8; rotation mechanisms a5 (A1 = O1, counter-clockwise) and f5 (B1 = O2, its
clockwise twin).
"""

from __future__ import annotations

from dungeon_twister.engine import parse_position
from tests.engine.builders import (apply_texts, assert_refused, combat_round, legal_set, next_turn, position,
                                   position_text, where)


def dests(state, token: str) -> set[str]:
    return {text.split()[2] for text in legal_set(state, verb="move", token=token)}


def declared(events):
    return next(e for e in events if e.kind == "combat_declared").data


# --- Cleric ------------------------------------------------------------------------------------------------
def test_BG_CHAR_CLERIC_01_heal_an_adjacent_wounded_character_for_1_ap():
    s = position("bCL@c4 bGB@c5! bTR@e4!")
    assert legal_set(s, verb="heal") == {"heal bCL bGB"}  # the Troll is not adjacent
    after, events = apply_texts(s, "heal bCL bGB")
    assert where(after, "bGB") == "c5" and after.ap == 4
    assert [e.kind for e in events] == ["healed"]
    assert_refused(s, "heal bCL bTR", "BG-CHAR-CLERIC-04")
    assert_refused(position("bWA@c4 bGB@c5!"), "heal bWA bGB", "BG-CHAR-CLERIC-01")  # only the Cleric heals


def test_BG_CHAR_CLERIC_02_a_healed_character_does_nothing_more_this_turn_but_still_fights():
    s = position("bCL@c4 bGB@c5! bWA@d6 yTR@d5")
    s, _ = apply_texts(s, "heal bCL bGB")
    assert legal_set(s, token="bGB") == set()
    assert_refused(s, "move bGB b5", "BG-CHAR-CLERIC-02")
    assert_refused(s, "attack bGB yTR", "BG-CHAR-CLERIC-02")
    after, events = apply_texts(s, "attack bWA yTR")  # the Goblin touches the Troll: drawn in
    assert declared(events)["attackers"] == ["bGB", "bWA"]
    s = next_turn(next_turn(s))
    assert "move bGB b5" in legal_set(s)


def test_BG_CHAR_CLERIC_03_not_himself_nor_a_wounded_character_he_carries():
    s = position("bCL@c4 bGB@c4!")
    assert legal_set(s, verb="heal") == set()
    assert_refused(s, "heal bCL bGB", "BG-CHAR-CLERIC-03")
    assert_refused(s, "heal bCL bCL", "BG-CHAR-CLERIC-03")
    s, _ = apply_texts(s, "move bCL c4 bGB@c5")  # first put it down beside him (a move: c5 and back)
    assert where(s, "bGB") == "c5!"
    after, _ = apply_texts(s, "heal bCL bGB")
    assert where(after, "bGB") == "c5" and after.ap == 3


def test_BG_CHAR_CLERIC_04_not_across_a_closed_portcullis_or_a_wall():
    s = position("bCL@c12 bGB@c13!")
    assert legal_set(s, verb="heal") == set()
    assert_refused(s, "heal bCL bGB", "BG-CHAR-CLERIC-04")
    assert_refused(position("bCL@b13 bGB@c13!"), "heal bCL bGB", "BG-CHAR-CLERIC-04")
    opened = position("bCL@c12 bGB@c13!", ports="W1=co")
    assert legal_set(opened, verb="heal") == {"heal bCL bGB"}


def test_BG_CHAR_CLERIC_05_the_cleric_may_heal_an_enemy():
    s = position("bCL@c4 yTR@c5!")
    assert "heal bCL yTR" in legal_set(s)
    after, _ = apply_texts(s, "heal bCL yTR")
    assert where(after, "yTR") == "c5"


def test_BG_CHAR_CLERIC_06_not_if_the_healed_would_share_a_square_with_a_figure():
    s = position("bCL@c4 yWA@c5 yGB@c5!")
    assert legal_set(s, verb="heal") == set()
    assert_refused(s, "heal bCL yGB", "BG-CHAR-CLERIC-06")
    s = position("bCL@c4 bWA@c5 bGB@c5!")
    assert_refused(s, "heal bCL bGB", "BG-CHAR-CLERIC-06")


# --- Goblin ------------------------------------------------------------------------------------------------
def test_BG_CHAR_GOBLIN_01_two_vp_on_exit_one_when_eliminated():
    s = position("bGB@c20 yGB@h4! bWA@h3")
    after, _ = apply_texts(s, "move bGB c21")
    assert after.vp("B") == 2
    after, _ = combat_round(after, "attack bWA yGB", 1, 0)
    assert where(after, "yGB") == "eliminated" and after.vp("B") == 3


# --- Warrior -----------------------------------------------------------------------------------------------
def test_BG_CHAR_WARRIOR_01_break_a_closed_portcullis_from_either_side():
    s = position("bWA@c12")
    assert legal_set(s, verb="break") == {"break bWA n"}
    after, events = apply_texts(s, "break bWA n")
    assert after.portcullis["W1"] == "cb" and after.ap == 4
    assert [e.kind for e in events] == ["portcullis"]
    inside = position("bWA@c13")
    assert legal_set(inside, verb="break") == {"break bWA e", "break bWA s"}
    after, _ = apply_texts(inside, "break bWA e")
    assert after.portcullis["W1"] == "bc"
    assert_refused(s, "break bWA e", "BG-CHAR-WARRIOR-01")  # no portcullis there
    assert_refused(position("bTR@c12"), "break bTR n", "BG-CHAR-WARRIOR-01")  # only the Warrior
    opened = position("bWA@c12", ports="W1=co")
    assert legal_set(opened, verb="break") == set()
    assert_refused(opened, "break bWA n", "BG-CHAR-WARRIOR-01")


def test_BG_CHAR_WARRIOR_02_a_broken_portcullis_is_open_to_all_and_never_closed():
    s = position("yGB@c12 yTH@d13", ports="W1=cb", active="Y")
    assert "c13" in dests(s, "yGB")
    assert legal_set(s, verb="close") == set()
    s = position("yTH@c12", ports="W1=cb", active="Y")
    assert_refused(s, "close yTH n", "BG-CHAR-WARRIOR-02")
    assert_refused(position("bWA@c12", ports="W1=cb"), "break bWA n", "BG-CHAR-WARRIOR-02")


# --- Wizard ------------------------------------------------------------------------------------------------
def test_BG_CHAR_WIZARD_01_levitation_over_pits_and_enemies_ending_on_a_valid_square():
    s = position("bWZ@b8 yWA@b9 yGB@a8!")
    d = dests(s, "bWZ")
    assert {"e8", "b10", "a9"} <= d  # over the pits c8 and d8, over the yellow Warrior, over the wounded Goblin
    assert d & {"c8", "d8", "b9", "a8"} == set()
    assert_refused(s, "move bWZ c8", "BG-MOVE-10")
    assert_refused(s, "move bWZ b9", "BG-MOVE-09")
    after, _ = apply_texts(s, "move bWZ c8-d8-e8")
    assert where(after, "bWZ") == "e8"
    assert "e8" not in dests(position("bWA@b8"), "bWA")


def test_BG_CHAR_WIZARD_02_levitation_only_while_moving():
    # he never ends a move or a jump on a pit...
    s = position("bWZ@c7")
    assert dests(s, "bWZ") & {"c8", "d8"} == set()
    assert not any(text.split()[3] in ("c8", "d8") for text in legal_set(s, verb="jump"))
    # ...and standing on a pit he is no flyer: hand-built (no base-set effect puts him there), he falls
    s = parse_position(position_text("bWZ@c8 bGB@h3"), check=False)  # impossible: skip the BG-MOVE-12 check
    after, events = apply_texts(s, "move bGB h4")
    assert where(after, "bWZ") == "eliminated" and after.vp("Y") == 1


def test_BG_CHAR_WIZARD_03_only_the_spellcaster_uses_the_wand():
    s = position("bWA@g4 bFW@g4 yGB@g7 bWZ@h4 yTR@h6")
    assert not any(t.startswith("fireball bWA") for t in legal_set(s))
    assert_refused(s, "fireball bWA n", "BG-OBJ-FIREBALL-01")
    s, _ = apply_texts(s, "move bWA i4 bFW@h4")  # hands the wand over to the Wizard on h4
    assert where(s, "bFW") == "h4"
    assert legal_set(s, verb="fireball") == {f"fireball bWZ {d}" for d in "nesw"}


# --- Mechanork ---------------------------------------------------------------------------------------------
def test_BG_CHAR_MECHANORK_01_operator_turns_either_way_ignoring_arrows():
    s = position("bMK@a5")
    assert legal_set(s, verb="rotate") == {"rotate bMK A1 cw", "rotate bMK A1 ccw", "rotate bMK B1 cw",
                                           "rotate bMK B1 ccw"}
    after, _ = apply_texts(s, "rotate bMK A1 cw")  # O1's arrow is counter-clockwise
    assert after.room_at((0, 0)).orientation == 1 and after.ap == 4
    after, _ = apply_texts(after, "rotate bMK B1 ccw")  # O2's arrow is clockwise
    assert after.room_at((1, 0)).orientation == 3 and after.ap == 3
    # other figures follow the arrows; a face-down twin cannot be turned
    assert legal_set(position("bWA@a5"), verb="rotate") == {"rotate bWA A1 ccw", "rotate bWA B1 cw"}
    hidden = position("bMK@a5", rooms="A1=O1/0 B1=*O2/0 A2=P1/0 B2=P2/0 A3=W1/0 B3=W2/0 A4=Q1/0 B4=Q2/0")
    assert legal_set(hidden, verb="rotate") == {"rotate bMK A1 cw", "rotate bMK A1 ccw"}
    assert legal_set(position("bMK@a4"), verb="rotate") == set()


# --- Wall-Walker -------------------------------------------------------------------------------------------
def test_BG_CHAR_WALLWALKER_01_through_a_wall_for_1_ap_not_a_move():
    s = position("bWW@b13")
    assert legal_set(s, verb="wallwalk") == {"wallwalk bWW c13"}
    after, events = apply_texts(s, "wallwalk bWW c13")
    assert where(after, "bWW") == "c13" and after.ap == 4
    assert [e.kind for e in events] == ["wallwalked"]
    assert_refused(s, "wallwalk bWW b14", "BG-CHAR-WALLWALKER-01")  # no wall there
    assert_refused(position("bWA@b13"), "wallwalk bWA c13", "BG-CHAR-WALLWALKER-01")
    # moving afterwards is a separate action
    after, _ = apply_texts(after, "wallwalk bWW b13")
    assert where(after, "bWW") == "b13" and after.ap == 3


def test_BG_CHAR_WALLWALKER_02_not_through_a_closed_portcullis():
    s = position("bWW@d13")
    assert legal_set(s, verb="wallwalk") == set()
    # the refusal says why (review bg28: it said "there is no wall between d13 and c13", true but no reason)
    assert assert_refused(s, "wallwalk bWW c13", "BG-CHAR-WALLWALKER-02").message == (
        "a closed portcullis, not a wall, lies between d13 and c13: she does not pass it")
    # the edge: an open one is no wall either, and she simply walks through it
    opened = position("bWW@d13", ports="W1=oc")
    assert assert_refused(opened, "wallwalk bWW c13", "BG-CHAR-WALLWALKER-02").message == (
        "there is no wall between d13 and c13")
    assert "move bWW c13" in legal_set(opened, token="bWW")


def test_BG_CHAR_WALLWALKER_03_a_double_wall_is_one_wall():
    from dungeon_twister.engine import view

    # base-set tiles: 2D at A1 prints a wall on a5's north side, 1D at A2 on a6's south side
    s = position("bWW@a5", rooms="A1=2D/0 B1=1G/0 A2=1D/0 B2=2G/0 A3=3G/0 B3=3D/0 A4=4G/0 B4=4D/0",
                 set_name="base_set")
    assert ["a5", "a6", 2] in view(s, None)["walls"]
    assert "wallwalk bWW a6" in legal_set(s, verb="wallwalk")
    after, _ = apply_texts(s, "wallwalk bWW a6")
    assert where(after, "bWW") == "a6" and after.ap == 4


def test_BG_CHAR_WALLWALKER_04_BG_PIT_06_she_leaves_a_rope_on_a_pit_as_in_a_move():
    """She drops "as in a move": on base tile 1G at A4 the pit c20 has only c19 beside it for Blue, so a Rope is not
    left on it (BG-PIT-06) by a move, nor by a wall-walk to b20 (that was allowed)."""
    rooms = "A1=2G/0 B1=2D/0 A2=3G/0 B2=3D/0 A3=4G/0 B3=4D/0 A4=1G/0 B4=1D/0"
    s = position("bWW@c20 bRP@c20", rooms=rooms, set_name="base_set")
    assert_refused(s, "move bWW c19 bRP@c20", "BG-PIT-06")
    assert "wallwalk bWW b20 bRP@c20" not in legal_set(s, verb="wallwalk")
    assert_refused(s, "wallwalk bWW b20 bRP@c20", "BG-PIT-06")


def test_BG_CHAR_WALLWALKER_04_valid_landing_carrying_picking_up_and_dropping():
    s = position("bWW@b13 bSW@b13")
    after, _ = apply_texts(s, "wallwalk bWW c13")  # the Sword goes through with her
    assert where(after, "bSW") == "c13"
    after, _ = apply_texts(s, "wallwalk bWW c13 bSW@b13")  # or stays behind
    assert (where(after, "bSW"), where(after, "bWW")) == ("b13", "c13")
    s = position("bWW@b13 bAR@b13 ySW@c13")  # a Sword lies beyond: she must leave the Armor to land there
    assert legal_set(s, verb="wallwalk") == {"wallwalk bWW c13 bAR@b13"}
    assert_refused(s, "wallwalk bWW c13", "BG-CHAR-WALLWALKER-04")
    after, _ = apply_texts(s, "wallwalk bWW c13 bAR@b13")
    assert where(after, "ySW") == "c13"  # picked up (carried from now on)
    for beyond in ("bGB@c13", "yGB@c13", "yGB@c13!"):
        s = position("bWW@b13 " + beyond)
        assert legal_set(s, verb="wallwalk") == set()
        assert_refused(s, "wallwalk bWW c13", "BG-CHAR-WALLWALKER-04")
    # landing on the opponent's start zone is an exit (base tile 1D at A1: a wall between a1 and a0)
    y = position("yWW@a1 yTS@a1", rooms="A1=1D/0 B1=1G/0 A2=2G/0 B2=2D/0 A3=3G/0 B3=3D/0 A4=4G/0 B4=4D/0",
                 set_name="base_set", active="Y")
    after, _ = apply_texts(y, "wallwalk yWW a0")
    assert (where(after, "yWW"), where(after, "yTS"), after.vp("Y")) == ("exited", "scored", 2)


def test_BG_CHAR_WALLWALKER_05_no_reveal_through_a_wall():
    rooms = "A1=O1/0 B1=O2/0 A2=*P1/0 B2=P2/0 A3=W1/0 B3=W2/0 A4=Q1/0 B4=Q2/0"
    s = position("bWW@a11", rooms=rooms)  # W1 prints a wall on a11's south side, facing the hidden A2
    assert legal_set(s, verb="reveal") == set()
    assert_refused(s, "reveal bWW A2", "BG-REVEAL-04")
    assert legal_set(position("bWW@b11", rooms=rooms), verb="reveal") == {"reveal bWW A2"}


# --- Troll -------------------------------------------------------------------------------------------------
def test_BG_CHAR_TROLL_01_regenerates_while_wounded_for_1_ap():
    s = position("bTR@c5!")
    assert legal_set(s) == {"end", "regenerate bTR"}
    after, events = apply_texts(s, "regenerate bTR")
    assert where(after, "bTR") == "c5" and after.ap == 4
    assert [e.kind for e in events] == ["regenerated"]
    assert_refused(after, "regenerate bTR", "BG-CHAR-TROLL-01")  # not wounded any more
    assert_refused(position("bWA@c5!"), "regenerate bWA", "BG-CHAR-TROLL-01")


def test_BG_CHAR_TROLL_02_not_in_the_turn_he_was_wounded():
    s = position("bTR@c5!5", turn=5)
    assert legal_set(s) == {"end"}
    assert_refused(s, "regenerate bTR", "BG-CHAR-TROLL-02")
    s = next_turn(next_turn(s))
    assert "regenerate bTR" in legal_set(s)


def test_BG_CHAR_TROLL_01_BG_GOLD_01_no_regeneration_while_a_combat_is_pending():
    """As the Fountain's drink (audit pd18 F3): a pending combat is the reason (BG-GOLD-01), not the turn."""
    fighting, _ = apply_texts(position("bTR@c5! bWA@f5 yGB@f6"), "attack bWA yGB")
    assert fighting.phase == "combat"
    assert assert_refused(fighting, "regenerate bTR", "BG-GOLD-01").message == "a combat is waiting for combat cards"
    assert_refused(position("bTR@c5! yGB@h4"), "regenerate bTR", "BG-TURN-01", seat="Y")


def test_BG_CHAR_TROLL_03_no_other_action_in_the_turn_he_regenerates():
    s = position("bTR@c5! yGB@c7 bWA@b7")
    s, _ = apply_texts(s, "regenerate bTR")
    assert legal_set(s, token="bTR") == set()
    assert_refused(s, "move bTR c6", "BG-CHAR-TROLL-03")
    # a combat is not his action: he is drawn in if he touches an enemy participant (RUL-014)
    s = position("bTR@c6! yGB@c7 bWA@d7")
    s, _ = apply_texts(s, "regenerate bTR")
    after, events = apply_texts(s, "attack bWA yGB")
    assert declared(events)["attackers"] == ["bTR", "bWA"]


def test_BG_CHAR_TROLL_04_a_fireball_kills_the_troll_outright():
    s = position("bWZ@c4 bFW@c4 yTR@c7")
    after, _ = apply_texts(s, "fireball bWZ n")
    assert where(after, "yTR") == "eliminated" and after.vp("B") == 1
    # the edge (review bg28): a wounded Troll, who could regenerate next turn, is eliminated too, not wounded
    # again, and has no regeneration left in his own turn
    s = position("bWZ@c4 bFW@c4 yTR@c7!3 yGB@h4", turn=5)
    assert "regenerate yTR" in legal_set(next_turn(s), verb="regenerate")
    after, _ = apply_texts(s, "fireball bWZ n")
    assert where(after, "yTR") == "eliminated" and after.vp("B") == 1
    assert legal_set(next_turn(after), verb="regenerate") == set()


def test_BG_CHAR_TROLL_05_not_under_a_figure():
    s = position("bWA@c5 bTR@c5!")
    assert "regenerate bTR" not in legal_set(s)
    assert_refused(s, "regenerate bTR", "BG-CHAR-TROLL-05")


# --- Thief -------------------------------------------------------------------------------------------------
def test_BG_CHAR_THIEF_01_acrobatics_crosses_and_stops_on_pits():
    s = position("bTH@b8")
    assert {"c8", "d8", "e8"} <= dests(s, "bTH")
    after, _ = apply_texts(s, "move bTH c8-d8")
    assert where(after, "bTH") == "d8" and after.ap == 4
    # what she carries lies under her on the pit: carried, not left there (BG-PIT-05 forbids only leaving it)
    s = position("bTH@b8 bTS@b8")
    after, _ = apply_texts(s, "move bTH c8")
    assert (where(after, "bTH"), where(after, "bTS")) == ("c8", "c8")
    assert_refused(s, "move bTH d8 bTS@c8", "BG-PIT-05")
    # wounded there without a Rope she falls; the Treasure stays on the pit (BG-ITEM-09)
    y = position("bTH@c8 bTS@c8 yWA@c9", active="Y")
    after, _ = combat_round(y, "attack yWA bTH", 0, 3)
    assert (where(after, "bTH"), where(after, "bTS"), after.vp("Y")) == ("eliminated", "c8", 1)


def test_BG_CHAR_THIEF_02_an_unwounded_thief_on_a_pit_bridges_it_for_friends():
    s = position("bTH@c8 bWA@c7")
    assert "c9" in dests(s, "bWA") and "c8" not in dests(s, "bWA")
    after, _ = apply_texts(s, "move bWA c8-c9")
    assert where(after, "bWA") == "c9"
    assert "c9" not in dests(position("bWA@c7"), "bWA")


def test_BG_CHAR_THIEF_03_a_thief_wounded_on_a_pit_without_rope_dies():
    s = position("bWA@c7 yTH@d8 bGB@e8", active="B")
    after, events = combat_round(s, "attack bGB yTH", 6, 0)
    assert where(after, "yTH") == "eliminated" and after.vp("B") == 1
    assert [e.data["cause"] for e in events if e.kind == "eliminated"] == ["pit"]


def test_BG_CHAR_THIEF_04_lock_picking_opens_and_closes_but_not_a_broken_one():
    s = position("bTH@c12")
    assert legal_set(s, verb="open") == {"open bTH n"} and legal_set(s, verb="close") == set()
    s, _ = apply_texts(s, "open bTH n")
    assert s.portcullis["W1"] == "co" and s.ap == 4
    assert legal_set(s, verb="close") == {"close bTH n"} and legal_set(s, verb="open") == set()
    s, _ = apply_texts(s, "close bTH n")
    assert s.portcullis["W1"] == "cc" and s.ap == 3
    inside = position("bTH@c13")
    assert legal_set(inside, verb="open") == {"open bTH e", "open bTH s"}
    assert_refused(position("bTH@c12", ports="W1=cb"), "close bTH n", "BG-CHAR-WARRIOR-02")
    assert_refused(position("bTH@c12"), "close bTH n", "BG-CHAR-THIEF-04")  # it is closed already
    assert_refused(position("bCL@c12"), "open bCL n", "BG-CHAR-THIEF-04")  # only the Thief
