"""Tutorial 3 (CG-TUT3-01..04) and the rules it brings: line of sight (CG-LOS-01..05), ranged combat
(CG-RANGED-01..10), the Crossbowman, the Wizard, the Cleric, the Bow and the Large Shield.

Positions on the maze of builders.py (all four rooms face up, unturned). The borders the sight tests use:
a1|b1 and b1|c1 open, c1|d1 a closed portcullis, a2|a3 a wall, b2|b1 a pit, b2|c2 an arrow slit (printed by blue1
on b2's side) with a pit, d4|d3 an arrow slit, d3|d2 and d2|d1 open, a4|a3 a slit, a4|b4 open, b4 north open."""

from __future__ import annotations

import random

import pytest

from dungeon_twister.engine.cards import (CardOptions, Heal, Shoot, apply, format_action, format_position,
                                          legal_actions, line_of_sight, new_game, parse_action, parse_position,
                                          view)
from dungeon_twister.engine.core.rng import Rng

from .builders import accepted_iff_generated, act, build, kind_first, refused, z


def shot(state, shoot, blue, yellow, seat="B"):
    """The shot, both cards, and the combat event's data."""
    s, events = apply(state, parse_action(shoot, seat))
    declared = next(e.data for e in events if e.kind == "shoot")
    s = act(s, f"card {blue}", "B")
    s2, events = apply(s, parse_action(f"card {yellow}", "Y"))
    return s2, declared, next(e.data for e in events if e.kind == "combat")


def sees(state, a: str, b: str) -> bool:
    return line_of_sight(state, z(a), z(b))


# --- line of sight ---------------------------------------------------------------------------------------------

def test_CG_LOS_01_05_zone_to_zone_in_a_row_or_a_column_never_diagonal():
    """CG-LOS-01, CG-LOS-05 (RUL-109): a1 sees c1 along row 1; a1 does not see b2 (diagonal), though nothing is
    between them; a zone sees itself."""
    s = build({})
    assert sees(s, "a1", "c1") and sees(s, "c1", "a1")
    assert not sees(s, "a1", "b2") and sees(s, "a1", "a1")


def test_CG_LOS_02_walls_closed_portcullises_and_characters_in_between_block():
    """CG-LOS-02: the closed portcullis c1|d1 and the wall a2|a3 block; a character in b1, wounded or not, blocks
    a1-c1; the characters at the two ends do not."""
    s = build({})
    assert not sees(s, "c1", "d1") and not sees(s, "a2", "a3")
    for spec in ("b1", ("b1", {"wounded": True})):
        assert not sees(build({"yMK": spec}), "a1", "c1")
    assert sees(build({"bCB": "a1", "yMK": "c1"}), "a1", "c1")


def test_CG_LOS_03_pits_objects_and_open_portcullises_let_sight_through():
    """CG-LOS-03: b1 sees b2 across the pit between them; an object in b1 does not block a1-c1; the portcullis
    c1|d1 opened (a Key) lets c1 see d1."""
    assert sees(build({}), "b1", "b2")
    assert sees(build({}, items={"yKY": "b1"}), "a1", "c1")
    opened = act(build({"bMK": "c1", "yMK": "a4"}, items={"bKY": "@bMK"}), "open bMK c1 e")
    assert sees(opened, "c1", "d1")


def test_CG_LOS_04_CG_EX_08_an_arrow_slit_is_seen_through_from_a_zone_it_borders_only():
    """CG-LOS-04, CG-EX-08 on our maze: d4 borders the slit d4|d3 and sees d3, d2 and d1 beyond it; d1 does not border it and does not
    see d4 (sight is one-way); b2 and c2 both border the slit b2|c2 and see each other."""
    s = build({})
    assert sees(s, "d4", "d3") and sees(s, "d4", "d1")
    assert not sees(s, "d1", "d4") and not sees(s, "d2", "d4")
    assert sees(s, "b2", "c2") and sees(s, "c2", "b2")


# --- ranged combat ---------------------------------------------------------------------------------------------

def test_CG_RANGED_01_02_03_07_the_crossbowman_shoots_3_and_is_never_wounded():
    """CG-RANGED-01/02: the blue Crossbowman in d4 shoots the yellow Mechanork in d1 through the slit, for 1 AP.
    CG-RANGED-07: 3 + 1 against 2 + 0: the Mechanork is wounded. CG-RANGED-03: against 2 + 6 = 8 the shooter loses,
    and nothing happens to him."""
    s = build({"bCB": "d4", "yMK": "d1"}, combat=True)
    s2, declared, d = shot(s, "shoot bCB yMK", 1, 0)
    assert declared["shooters"] == ["bCB"] and declared["defenders"] == ["yMK"]
    assert d["totals"] == {"B": 4, "Y": 2} and d["wounded"] == ["yMK"] and s2.player("B").ap == 2
    s3, _, d = shot(s, "shoot bCB yMK", 0, 6)
    assert d["totals"] == {"B": 3, "Y": 8} and d["winner"] == "Y" and d["wounded"] == []
    assert not s3.fig("bCB").wounded


def test_CG_RANGED_02_no_line_of_sight_no_shot():
    """CG-RANGED-02: from d1 the Crossbowman does not see d4 (the slit borders d4 only)."""
    refused(build({"bCB": "d1", "yMK": "d4"}, combat=True), "shoot bCB yMK", "CG-RANGED-02")


def test_CG_RANGED_05_not_beside_an_unwounded_enemy_nor_at_its_own_zone():
    """CG-RANGED-05 (RUL-110): an unwounded enemy in the shooter's zone forbids the shot; a wounded one does not;
    a target in the shooter's own zone is a melee, not a shot."""
    refused(build({"bCB": "d4", "yWA": "d4", "yMK": "d1"}, combat=True), "shoot bCB yMK", "CG-RANGED-05")
    ok = build({"bCB": "d4", "yWA": ("d4", {"wounded": True}), "yMK": "d1"}, combat=True)
    assert act(ok, "shoot bCB yMK").phase == "combat"
    refused(ok, "shoot bCB yWA", "CG-RANGED-05")


def test_CG_RANGED_06_CG_EX_09_who_joins_a_shot():
    """CG-RANGED-06, CG-EX-09 on our maze: the blue Crossbowman in b1 shoots the yellow Mechanork in b2 (across
    the pit); the blue Backstabber in b2 is drawn in, with her +2 (an ally is involved); the blue Cleric carrying
    a Bow in c2 sees b2 through the slit and joins as a shooter; the yellow Warrior in a1 is out. Blue = 3 + (2 +
    2) + 1 = 8, Yellow = 2. With an attacker in the zone, the yellow Wizard in b2 defends too (2 + 1)."""
    base = {"bCB": "b1", "bBK": "b2", "bCL": "c2", "yMK": "b2", "yWA": "a1"}
    s = build(base, items={"bBW": "@bCL"}, combat=True)
    s2, declared, d = shot(s, "shoot bCB yMK", 0, 0)
    assert declared["attackers"] == ["bBK", "bCB", "bCL"] and declared["shooters"] == ["bCB", "bCL"]
    assert d["totals"] == {"B": 8, "Y": 2} and d["wounded"] == ["yMK"]
    s = build({**base, "yWZ": "b2"}, items={"bBW": "@bCL"}, combat=True)
    _, declared, d = shot(s, "shoot bCB yMK", 0, 6)
    assert declared["defenders"] == ["yMK", "yWZ"] and d["totals"] == {"B": 8, "Y": 9}
    assert d["wounded"] == ["bBK"]  # the melee participant, never the shooters (CG-RANGED-03)


def test_CG_RANGED_06_CG_EX_09_the_targets_friends_defend_only_beside_an_attacker():
    """CG-EX-09, second half: the yellow Wizard carrying a Bow in c2 shoots the blue Backstabber in b2 through the
    slit; the yellow Mechanork there fights in melee. Yellow = 1 + 2 = 3 against the Backstabber's 2 (no ally of
    hers is involved: the blue Crossbowman in b1 may not defend from a distance). Without a yellow character in
    b2, the blue Snake-man beside her stays out as well."""
    s = build({"yWZ": "c2", "yMK": "b2", "bBK": "b2", "bCB": "b1", "bMK": "a4"}, items={"yBW": "@yWZ"},
              combat=True, active="Y", ap=(0, 3))
    _, declared, d = shot(s, "shoot yWZ bBK", 0, 0, seat="Y")
    assert declared["defenders"] == ["bBK"] and d["totals"] == {"Y": 3, "B": 2}
    s = build({"yWZ": "c2", "bBK": "b2", "bSN": "b2", "bMK": "a4"}, items={"yBW": "@yWZ"}, combat=True,
              active="Y", ap=(0, 3))
    _, declared, d = shot(s, "shoot yWZ bBK", 0, 0, seat="Y")
    assert declared["defenders"] == ["bBK"] and d["totals"] == {"Y": 1, "B": 2}


def test_CG_RANGED_04_08_CG_OBJ_BOW_01_a_bow_shoots_with_1_whatever_its_carrier_and_in_melee_it_is_no_bow():
    """CG-OBJ-BOW-01, CG-RANGED-04: the Warrior (3) with a Bow shoots with 1, as often as AP allow (twice here);
    CG-RANGED-08: in a melee he fights with his own 3."""
    s = build({"bWA": "a1", "yMK": "c1", "ySN": "b2"}, items={"bBW": "@bWA"}, combat=True)
    s2, _, d = shot(s, "shoot bWA yMK", 0, 0)
    assert d["totals"] == {"B": 1, "Y": 2}
    s3, _, d = shot(s2, "shoot bWA yMK", 2, 0)
    assert d["totals"] == {"B": 3, "Y": 2} and s3.player("B").ap == 1
    melee = build({"bWA": "a1", "yMK": "a1"}, items={"bBW": "@bWA"}, combat=True)
    s4 = act(act(act(melee, "attack bWA yMK"), "card 0"), "card 0", "Y")
    assert s4.fig("yMK").wounded  # 3 against 2


def test_CG_CHAR_CROSSBOW_01_RUL_113_one_shot_a_turn_and_joining_uses_it():
    """CG-CHAR-CROSSBOW-01: a second shot the same turn is refused; next turn he shoots again. RUL-113: when the
    blue Wizard's Bow shoots first, the Crossbowman who sees the target must join, and that is his shot."""
    s = build({"bCB": "d4", "yMK": "d1", "ySN": "a4"}, combat=True)
    s2, _, _ = shot(s, "shoot bCB yMK", 0, 0)
    assert s2.used_now == ("crossbow:bCB",)
    refused(s2, "shoot bCB yMK", "CG-CHAR-CROSSBOW-01")
    s3 = act(act(s2, "end"), "end", "Y")
    assert s3.used_now == () and act(s3, "shoot bCB yMK").phase == "combat"
    # the Wizard in a1 sees c1 along row 1; the Crossbowman in c3 sees it through the slit c3|c2 and the pit c2|c1
    both = build({"bCB": "c3", "bWZ": "a1", "yMK": "c1"}, items={"bBW": "@bWZ"}, combat=True)
    s4, declared, d = shot(both, "shoot bWZ yMK", 0, 0)
    assert declared["shooters"] == ["bCB", "bWZ"] and d["totals"] == {"B": 4, "Y": 2}
    assert s4.used_now == ("crossbow:bCB",)
    refused(s4, "shoot bCB yMK", "CG-CHAR-CROSSBOW-01")  # his shot went into the Wizard's


def test_CG_RANGED_09_a_start_zone_target_must_face_a_zone_the_shooter_sees():
    """CG-RANGED-09: the yellow Mechanork on its start zone facing b4 (open to the north) is shot from a4, which
    sees b4; facing a4 (a wall to the north) it faces no zone across a clear border."""
    s = build({"bCB": "a4", "yMK": "Y1>b4"}, combat=True)
    _, declared, d = shot(s, "shoot bCB yMK", 1, 0)
    assert declared["zone"] == "b4" and d["wounded"] == ["yMK"]
    refused(build({"bCB": "b4", "yMK": "Y1>a4"}, combat=True), "shoot bCB yMK", "CG-RANGED-09")


def test_CG_RANGED_09_CG_LOS_03_DT_229_a_pit_on_the_start_border_does_not_stop_the_shot():
    """« Le personnage ciblé doit faire face à une zone sur laquelle l'assaillant a une ligne de vue » has no pit
    clause (melee's CG-SZ-01 has one), and « Une ligne de vue peut traverser une zone contenant ... une fosse »: the
    yellow Mechanork on Y2 facing d4 across the pit north of d4 is shot by the blue Mechanork with a Bow from d3
    (through the d3|d4 slit beside him), 1 AP, listed; he defends alone (1 + 2 against 2 + 0) and is wounded where
    he stands. The blue Crossbowman in d4 itself, across the pit, neither shoots him (CG-RANGED-05: the target
    counts as in d4) nor joins the Bow's shot. A wall on the start border still stops it."""
    s = build({"bMK": "d3", "bCB": "d4", "yMK": "Y2>d4", "ySN": "a1"}, items={"bBW": "@bMK"}, combat=True)
    assert parse_action("shoot bMK yMK", "B") in legal_actions(s, "B")
    s2, declared, d = shot(s, "shoot bMK yMK", 2, 0)
    assert declared["zone"] == "d4" and declared["attackers"] == ["bMK"] and declared["defenders"] == ["yMK"]
    assert d["totals"] == {"B": 3, "Y": 2} and d["wounded"] == ["yMK"] and s2.player("B").ap == 2
    assert (s2.fig("yMK").where, s2.fig("yMK").at, s2.fig("yMK").wounded) == ("start", 1, True)
    refused(s, "shoot bCB yMK", "CG-RANGED-05")
    refused(s, "attack bCB yMK", "CG-SZ-01")  # melee still stops at the pit
    refused(build({"bCB": "b4", "yMK": "Y1>a4"}, combat=True), "shoot bCB yMK", "CG-RANGED-09")


def test_CG_RANGED_05_CG_OBJ_LANCE_03_DT_294_an_enemy_facing_him_from_its_start_zone_is_beside_him():
    """DT-294: « s'il se trouve dans la même zone que sa cible ou que tout autre personnage ennemi » is one
    sentence: DT-229 counts a start-zone target as in the zone it faces, and a start-zone character fights « comme
    s'ils étaient tous dans la même zone » with that zone's (CG-SZ-03). The blue Crossbowman in b4, faced across
    the open b4|Y1 border by the unwounded yellow Warrior on Y1, is in melee with him (either may attack the
    other): he does not shoot the yellow Mechanork in a4 (CG-RANGED-05, not listed), the blue Wizard's Bow in b4
    does not join a shot from a3 at a4, and the Colossus' Telescopic Lance in b4 reaches no other zone
    (CG-OBJ-LANCE-03). The edges: the Warrior wounded, or facing a4, or (d4) facing across a pit where melee
    stops (CG-SZ-01), holds nobody; a melee with him stays open."""
    s = build({"bCB": "b4", "yWA": "Y1>b4", "yMK": "a4", "ySN": "d1"}, combat=True)
    refused(s, "shoot bCB yMK", "CG-RANGED-05")
    assert parse_action("shoot bCB yMK", "B") not in legal_actions(s, "B")
    assert act(s, "attack bCB yWA").phase == "combat"  # CG-SZ-01: they fight across the start border
    for free in ({"bCB": "b4", "yWA": ("Y1>b4", {"wounded": True}), "yMK": "a4", "ySN": "d1"},
                 {"bCB": "b4", "yWA": "Y1>a4", "yMK": "a4", "ySN": "d1"},
                 {"bCB": "d4", "yWA": "Y2>d4", "yMK": "c4", "ySN": "d1"}):  # (d4's north border is a pit)
        after = act(build(free, combat=True), "shoot bCB yMK")
        assert after.phase == "combat" and after.combat.sides == (("B", ("bCB",)), ("Y", ("yMK",)))
    # a second shooter beside him does not join a friend's shot
    joined = build({"bCB": "a3", "bWZ": "b4", "yMK": "a4", "ySN": "d1"}, items={"bBW": "@bWZ"}, combat=True)
    assert dict(act(joined, "shoot bCB yMK").combat.ranged) == {"bCB": 3, "bWZ": 1}
    held = build({"bCB": "a3", "bWZ": "b4", "yWA": "Y1>b4", "yMK": "a4", "ySN": "d1"}, items={"bBW": "@bWZ"},
                 combat=True)
    assert dict(act(held, "shoot bCB yMK").combat.ranged) == {"bCB": 3}
    lance = build({"bCO": "b4", "yWA": "Y1>b4", "yMK": "a4", "ySN": "d1"}, items={"bLN": "@bCO"}, combat=True)
    refused(lance, "attack bCO yMK", "CG-OBJ-LANCE-03")
    assert parse_action("attack bCO yMK", "B") not in legal_actions(lance, "B")
    assert act(lance, "attack bCO yWA").combat.lancer is None  # the melee across the start border
    loose = build({"bCO": "b4", "yWA": "Y1>a4", "yMK": "a4", "ySN": "d1"}, items={"bLN": "@bCO"}, combat=True)
    assert act(loose, "attack bCO yMK").combat.lancer == "bCO"


def test_CG_RANGED_10_CG_OBJ_SHIELD_01_no_shot_at_the_wounded_of_this_turn_nor_at_a_large_shield():
    """CG-RANGED-10 (CG-COMBAT-06): a character wounded this turn is not shot at again; CG-OBJ-SHIELD-01: the
    carrier of a Large Shield is never the target of a ranged combat (it fights in melee as usual)."""
    s = build({"bCB": "d4", "bWZ": "c1", "yMK": "d1"}, items={"bBW": "@bWZ"}, combat=True)
    s2, _, d = shot(s, "shoot bCB yMK", 3, 0)
    assert d["wounded"] == ["yMK"]
    refused(build({"bCB": "d4", "yMK": ("d1", {"wounded": True})}, combat=True).but(wounded_now=("yMK",)),
            "shoot bCB yMK", "CG-RANGED-10")
    shielded = build({"bCB": "d4", "yMK": "d1", "bSN": "d1"}, items={"ySH": "@yMK"}, combat=True)
    refused(shielded, "shoot bCB yMK", "CG-OBJ-SHIELD-01")
    assert act(shielded, "attack bSN yMK").phase == "combat"


def test_DT_213_a_shooter_on_its_start_zone_has_no_line_of_sight():
    """DT-213: lines of sight run between zones of the maze (CG-LOS-01), so a Crossbowman on his start zone does
    not shoot, even at the zone he faces."""
    refused(build({"bCB": "B1>a1", "yMK": "a1"}, combat=True), "shoot bCB yMK", "CG-LOS-01")


# --- the Cleric and the Wizard ---------------------------------------------------------------------------------

def test_CG_CHAR_CLERIC_01_heal_in_his_zone_and_the_healed_one_waits_a_turn():
    """CG-CHAR-CLERIC-01: for 1 AP the Cleric turns the wounded Mechanork of his zone face up; it does nothing
    else this turn, and acts the next; he may heal an enemy too (DT-214)."""
    s = build({"bCL": "a1", "bMK": ("a1", {"wounded": True}), "yMK": ("a1", {"wounded": True}), "ySN": "d4"},
              combat=True)
    s2, events = apply(s, parse_action("heal bCL bMK", "B"))
    assert not s2.fig("bMK").wounded and s2.player("B").ap == 2 and s2.healed_now == ("bMK",)
    assert [e.data for e in events] == [{"figure": "bCL", "target": "bMK", "zone": "a1"}]
    refused(s2, "move bMK b1", "CG-CHAR-CLERIC-01")
    # and none of his actions is listed (found by the bots: a move of his was listed, and refused when taken)
    listed = legal_actions(s2, "B")
    assert not any(getattr(a, "figure", None) == "bMK" for a in listed) and all(apply(s2, a) for a in listed)
    assert view(s2, None)["healed_this_turn"] == ["bMK"]
    s3 = act(act(s2, "end"), "end", "Y")
    assert act(s3, "move bMK b1").fig("bMK").at == z("b1")
    assert not act(s, "heal bCL yMK").fig("yMK").wounded


def test_CG_CHAR_CLERIC_02_03_not_himself_not_what_he_carries_not_another_zone():
    """CG-CHAR-CLERIC-02: not himself, not the wounded friend he carries (he drops it first, during a move);
    CG-CHAR-CLERIC-03: only in his own zone."""
    refused(build({"bCL": ("a1", {"wounded": True}), "bMK": "a1"}, combat=True), "heal bMK bCL", "CG-CHAR-CLERIC-01")
    carried = build({"bCL": "a1", "bMK": "@bCL", "ySN": "d4"}, combat=True)
    refused(carried, "heal bCL bMK", "CG-CHAR-CLERIC-02")
    dropped = act(carried, "move bCL -bMK b1")
    refused(dropped, "heal bCL bMK", "CG-CHAR-CLERIC-03")  # it lies in a1, he stands in b1
    refused(build({"bCL": "a1", "ySN": "d4"}, combat=True), "heal bCL bCL", "CG-CHAR-CLERIC-02")


def test_CG_CHAR_CLERIC_02_DT_274_not_a_wounded_character_another_carries_in_his_zone():
    """DT-274: the wounded blue Mechanork is in the Cleric's zone a1, but under the Snake-man who carries it: the
    heal is refused naming CG-CHAR-CLERIC-02 and what is wrong (it read « not in bCL's own zone », CLERIC-03); the
    same for a yellow wounded carried by a yellow Snake-man there (DT-214: he heals enemies too). Laid down in a1, it
    is healed."""
    s = build({"bCL": "a1", "bSN": "a1", "bMK": "@bSN", "ySN": "d4"}, combat=True)
    e = refused(s, "heal bCL bMK", "CG-CHAR-CLERIC-02")
    assert str(e) == "CG-CHAR-CLERIC-02: bMK is carried by bSN: the Cleric heals a wounded character lying in his zone"
    enemy = build({"bCL": "a1", "ySN": "a1", "yMK": "@ySN", "yGB": "d4"}, combat=True)
    refused(enemy, "heal bCL yMK", "CG-CHAR-CLERIC-02")
    laid = act(s, "move bSN -bMK")
    assert not act(laid, "heal bCL bMK").fig("bMK").wounded
    assert not any(isinstance(a, Heal) for a in legal_actions(s))


def test_CG_CHAR_WIZARD_01_levitation_over_enemies_and_pits():
    """CG-CHAR-WIZARD-01: the Wizard crosses b1 though an unwounded enemy stands there (the Mechanork, who is no
    flyer, must stop: CG-MOVE-04) and crosses the pit b1|b2."""
    s = build({"bWZ": "a1", "bMK": "a1", "yWA": "b1", "ySN": "d4"})
    assert act(s, "move bWZ b1 c1").fig("bWZ").at == z("c1")
    refused(s, "move bMK b1 c1", "CG-MOVE-04")
    assert act(s, "move bWZ b1 b2").fig("bWZ").at == z("b2")


# --- the tutorial ----------------------------------------------------------------------------------------------

def test_CG_TUT3_01_02_03_04_setup():
    """CG-TUT3-01, CG-TUT3-02, CG-TUT3-03 (RUL-111), CG-TUT3-04 (combat is on): 4 pairs laid 4 long by 2 wide, face down; each player holds the Crossbowman,
    Wizard, Snake-man, Mechanork, Warrior and Cleric, a Rope, a Key, a Bow and a Large Shield, the combat cards;
    the game is played to 4 VP; 2 characters start on the start zone, the 8 other cards go 2 to a room."""
    s = new_game(CardOptions(tutorial=3), 4)
    assert s.length == 4 and len(s.rooms) == 8 and not any(r.revealed for r in s.rooms) and s.target_vp == 4
    assert len({r.card for r in s.rooms}) == 8 and s.combat_on
    assert sorted(f.code for f in s.figures if f.seat == "B") == ["CB", "CL", "MK", "SN", "WA", "WZ"]
    assert sorted(i.code for i in s.items if i.seat == "Y") == ["BW", "KY", "RP", "SH"]
    assert s.player("B").cards == (0, 1, 2, 2, 3, 3, 4, 5, 6)
    rng = Rng(4)
    while s.phase in ("hide", "seed", "face"):
        s = apply(s, rng.choice(legal_actions(s)))[0]
    assert sum(f.where == "start" for f in s.figures) == 4
    per_room = [sum(1 for c in (*s.figures, *s.items) if c.where == "seeded" and c.at == slot) for slot in range(8)]
    assert per_room == [2] * 8


@pytest.mark.parametrize("seed", [3, 11])
def test_CG_TUT3_random_games_shoot_and_generated_equals_accepted(seed):
    """Random bots play tutorial 3 for 500 actions; every 10th position, every generated action applies and
    round-trips, the position round-trips, shot and heal candidates not generated are refused; shots happen."""
    s = new_game(CardOptions(tutorial=3), seed)
    rng, r = Rng(seed + 100), random.Random(seed)
    shots = 0
    for step in range(500):
        if s.outcome is not None:
            break
        gen = legal_actions(s)
        if step % 10 == 0:
            for a in gen:
                assert parse_action(format_action(a), a.seat) == a
                apply(s, a)
            assert parse_position(format_position(s)) == s
            figs = [f.id for f in s.figures]
            for seat in s.to_act:
                accepted_iff_generated(s, [Shoot(seat, r.choice(figs), r.choice(figs)) for _ in range(12)]
                                       + [Heal(seat, r.choice(figs), r.choice(figs)) for _ in range(6)], gen)
        a = kind_first(rng, gen, first=(Shoot,))  # a shot when one is offered, to see them
        shots += isinstance(a, Shoot)
        s = apply(s, a)[0]
    assert shots >= 1


def test_CG_SLIT_02_a_slit_is_shot_through_from_the_zone_it_borders_not_towards_it():
    """CG-SLIT-02: from d4 (bordering the slit d4|d3) the Crossbowman shoots the Mechanork in d2; from d2 he may not
    shoot the Mechanork in d4 (the slit does not border d2)."""
    assert act(build({"bCB": "d4", "yMK": "d2"}, combat=True), "shoot bCB yMK").phase == "combat"
    refused(build({"bCB": "d2", "yMK": "d4"}, combat=True), "shoot bCB yMK", "CG-RANGED-02")


def test_CG_CHAR_CLERIC_01_CG_RANGED_06_DT_245_a_healed_shooter_does_not_join_a_shot_a_healed_friend_fights():
    """DT-245. « Le personnage soigné ne peut rien faire d'autre ce tour-ci » (CG-CHAR-CLERIC-01): the extra
    shooters of CG-RANGED-06 are those able to shoot (RUL-113), and shooting is doing something, so the Crossbowman
    the Cleric healed in c3 does not join the Wizard's Bow shot at the yellow Mechanork in c1 (Blue = 1, not 1 + 3;
    his shot of the turn stays unused). Next turn he joins. In the target's own zone participation is not an action
    (CG-GROUP-01, RUL-014): the Warrior healed in a1 fights beside the Snake-man who attacks the yellow Mechanork
    there (with the Cleric: 2 + 3 + 2 and card +0 against 2 and +6), and is wounded with them when Blue loses."""
    s = build({"bCB": ("c3", {"wounded": True}), "bCL": "c3", "bWZ": "a1", "yMK": "c1"}, items={"bBW": "@bWZ"},
              combat=True)
    healed = act(s, "heal bCL bCB")
    assert healed.healed_now == ("bCB",)
    s2, declared, d = shot(healed, "shoot bWZ yMK", 0, 0)
    assert declared["shooters"] == ["bWZ"] and declared["attackers"] == ["bWZ"] and d["totals"] == {"B": 1, "Y": 2}
    assert s2.used_now == () and s2.player("B").ap == 1
    nxt = build({"bCB": "c3", "bCL": "c3", "bWZ": "a1", "yMK": "c1"}, items={"bBW": "@bWZ"}, combat=True)
    _, declared, d = shot(nxt, "shoot bWZ yMK", 0, 0)
    assert declared["shooters"] == ["bCB", "bWZ"] and d["totals"] == {"B": 4, "Y": 2}  # healed a turn before
    melee = build({"bWA": ("a1", {"wounded": True}), "bCL": "b1", "bSN": "a1", "yMK": "a1", "yCO": "d4"},
                  combat=True)
    melee = act(act(melee, "move bCL a1"), "heal bCL bWA")
    assert melee.healed_now == ("bWA",)
    s3, events = apply(act(act(melee, "attack bSN yMK"), "card 0"), parse_action("card 6", "Y"))
    d = next(e.data for e in events if e.kind == "combat")
    assert d["totals"] == {"B": 2 + 3 + 2, "Y": 2 + 6}  # the Snake-man, the healed Warrior, the Cleric
    assert sorted(d["wounded"]) == ["bCL", "bSN", "bWA"]


def test_CG_CHAR_CLERIC_01_03_DT_246_the_cleric_heals_a_friend_lying_on_his_own_start_position():
    """DT-246. « Le Clerc peut soigner un blessé se trouvant dans la même zone que lui »: a start position counts as
    one zone (CG-START-07) and a wounded friend may lie there (DT-211), so the Cleric on B1 heals the Mechanork
    lying on B1 (1 AP, listed): it stands up where it lies, facing the zone it faced (b1), and does nothing else this
    turn. The Mechanork lying on B2 is on another start position, and one lying on B1 is not in the zone a1 where a
    Cleric stands (refused, CG-CHAR-CLERIC-03)."""
    s = build({"bCL": "B1>a1", "bMK": ("B1>b1", {"wounded": True}), "bSN": ("B2>c1", {"wounded": True}),
               "ySN": "d4"}, combat=True)
    assert parse_action("heal bCL bMK", "B") in legal_actions(s, "B")
    assert parse_action("heal bCL bSN", "B") not in legal_actions(s, "B")
    s2, events = apply(s, parse_action("heal bCL bMK", "B"))
    mk = s2.fig("bMK")
    assert (mk.where, mk.at, mk.facing, mk.wounded) == ("start", 0, z("b1"), False)
    assert s2.player("B").ap == 2 and s2.healed_now == ("bMK",)
    assert [e.data for e in events] == [{"figure": "bCL", "target": "bMK", "zone": "B1"}]
    refused(s2, "move bMK b1", "CG-CHAR-CLERIC-01")
    refused(s, "heal bCL bSN", "CG-CHAR-CLERIC-03")
    refused(build({"bCL": "a1", "bMK": ("B1>a1", {"wounded": True}), "ySN": "d4"}, combat=True), "heal bCL bMK",
            "CG-CHAR-CLERIC-03")
