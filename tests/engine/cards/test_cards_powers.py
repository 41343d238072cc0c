"""Character powers and object effects beyond the tutorials (CG-CHAR, CG-OBJ): the Armor, the Sword, the Treasure,
the Goblin, the Elf Scout, the Thief, the Dark Angel, the General, the Samurai, the Troll and the Assassin.
Positions on the maze of builders.py (b1|b2 a pit, c1|d1 a closed portcullis, b4 open to Yellow's start zone)."""

from __future__ import annotations

import pytest

from dungeon_twister.engine.cards import Attack, Regenerate, apply, legal_actions, parse_action
from dungeon_twister.engine.core.errors import IllegalAction

from .builders import build, z


def act(state, text, seat="B"):
    return apply(state, parse_action(text, seat))[0]


def refused(state, text, rule, seat="B"):
    with pytest.raises(IllegalAction) as e:
        apply(state, parse_action(text, seat))
    assert e.value.rule == rule, e.value


def fight(state, start, blue, yellow, seat="B"):
    s = act(state, start, seat)
    s = act(s, f"card {blue}", "B")
    s2, events = apply(s, parse_action(f"card {yellow}", "Y"))
    return s2, next(e.data for e in events if e.kind == "combat")


# --- objects ---------------------------------------------------------------------------------------------------

def test_CG_OBJ_ARMOR_01_plus_1_in_defence_only_a_wounded_carrier_too():
    """The yellow Mechanork with the Armor defends with 2 + 1; attacking with it he has his 2 only; wounded, he
    still defends with 0 + 1."""
    s = build({"bSN": "a1", "yMK": "a1", "ySN": "d4"}, items={"yAR": "@yMK"}, combat=True)
    _, d = fight(s, "attack bSN yMK", 0, 0)
    assert d["totals"] == {"B": 2, "Y": 3}
    y = build({"bSN": "a1", "yMK": "a1", "bMK": "d4"}, items={"yAR": "@yMK"}, combat=True, active="Y", ap=(0, 3))
    _, d = fight(y, "attack yMK bSN", 0, 0, seat="Y")
    assert d["totals"] == {"Y": 2, "B": 2}
    hurt = build({"bSN": "a1", "yMK": ("a1", {"wounded": True}), "ySN": "d4"}, items={"yAR": "@yMK"}, combat=True)
    _, d = fight(hurt, "attack bSN yMK", 0, 0)
    assert d["totals"] == {"B": 2, "Y": 1}


def test_CG_OBJ_SWORD_01_plus_1_attacking_in_melee_only():
    """The blue Snake-man with the Sword attacks with 2 + 1; attacked, he defends with 2; in a shot, the Sword of a
    blue character fighting in the target's zone adds nothing (3 + 2 against 2)."""
    s = build({"bSN": "a1", "yMK": "a1", "ySN": "d4"}, items={"bSW": "@bSN"}, combat=True)
    _, d = fight(s, "attack bSN yMK", 0, 0)
    assert d["totals"] == {"B": 3, "Y": 2}
    y = build({"bSN": "a1", "yMK": "a1", "bMK": "d4"}, items={"bSW": "@bSN"}, combat=True, active="Y", ap=(0, 3))
    _, d = fight(y, "attack yMK bSN", 0, 0, seat="Y")
    assert d["totals"] == {"Y": 2, "B": 2}
    shot = build({"bCB": "d4", "bSN": "d1", "yMK": "d1"}, items={"bSW": "@bSN"}, combat=True)
    _, d = fight(shot, "shoot bCB yMK", 0, 0)
    assert d["totals"] == {"B": 5, "Y": 2}


def test_CG_OBJ_TREASURE_01_CG_CHAR_GOBLIN_01_the_goblin_out_with_the_treasure_scores_3():
    """CG-CHAR-GOBLIN-01: the Goblin leaving through Yellow's start zone scores 2; CG-OBJ-TREASURE-01: carrying
    the Treasure, 3 (the Treasure is then gone, CG-EXIT-03); the Snake-man with it scores 2."""
    s = build({"bGB": "b4", "yMK": "a1"}, items={"bTS": "@bGB"})
    out = act(s, "move bGB Y1")
    assert out.player("B").vp == 3 and out.fig("bGB").where == "exited" and out.item("bTS").where == "gone"
    assert act(build({"bGB": "b4", "yMK": "a1"}), "move bGB Y1").player("B").vp == 2
    assert act(build({"bSN": "b4", "yMK": "a1"}, items={"bTS": "@bSN"}), "move bSN Y1").player("B").vp == 2


# --- characters ------------------------------------------------------------------------------------------------

def test_CG_CHAR_ELF_01_CG_CHAR_THIEF_01_acrobats_cross_a_pit():
    """The Elf Scout and the Thief cross the pit b1|b2; the Snake-man does not (CG-MOVE-06)."""
    for who in ("bEL", "bTH"):
        assert act(build({who: "b1", "yMK": "d4"}), f"move {who} b2").fig(who).at == z("b2")
    refused(build({"bSN": "b1", "yMK": "d4"}), "move bSN b2", "CG-MOVE-06")


def test_CG_CHAR_THIEF_02_lock_picking_opens_and_closes_a_portcullis():
    s = build({"bTH": "c1", "yMK": "a4"})
    opened = act(s, "open bTH c1 e")
    assert act(opened, "move bTH d1").fig("bTH").at == z("d1")
    refused(build({"bSN": "c1", "yMK": "a4"}), "open bSN c1 e", "CG-OBJ-KEY-01")


def test_CG_CHAR_DARKANGEL_01_flies_over_enemies_and_pits():
    """Through b1, where an unwounded enemy stands, on to c1; over the pit b1|b2."""
    s = build({"bDA": "a1", "yWA": "b1", "ySN": "d4"})
    assert act(s, "move bDA b1 c1").fig("bDA").at == z("c1")
    assert act(s, "move bDA b1 b2").fig("bDA").at == z("b2")


def test_CG_CHAR_GENERAL_01_02_plus_1_to_friends_in_his_room():
    """The blue General in b1 (room A): the blue Snake-man attacking in a1 (room A) fights with 2 + 1; the General
    himself gets nothing; the bonus goes when he is wounded, on his start zone, in another room, or in a shot."""
    def totals(general, target="yMK", shooter=False):
        figures = {"bSN": "a1", "yMK": "a1", "ySN": "c4", "bCB": "d4", "yWA": "d1"}
        if general is not None:
            figures["bGE"] = general
        s = build(figures, combat=True)
        return fight(s, "shoot bCB yWA" if shooter else f"attack bSN {target}", 0, 0)[1]["totals"]["B"]

    assert totals("b1") == 3 and totals(None) == 2
    assert totals(("b1", {"wounded": True})) == 2 and totals("B1>b1") == 2 and totals("c1") == 2
    assert totals("B1>a1") == 4  # facing a1 he fights there himself (CG-SZ-03), with his own 2 and no bonus
    assert totals("c3", shooter=True) == 3  # the Crossbowman's 3 in room D, the General there too: no bonus
    # in a shot, a blue Snake-man fighting in d1 (room B, with the General in c1) has his 2, not 3: 3 + 2
    shot = build({"bCB": "d4", "bSN": "d1", "bGE": "c1", "yWA": "d1", "yMK": "a1"}, combat=True)
    assert fight(shot, "shoot bCB yWA", 0, 0)[1]["totals"]["B"] == 5
    alone = build({"bGE": "a1", "yMK": "a1", "ySN": "d4"}, combat=True)
    assert fight(alone, "attack bGE yMK", 0, 0)[1]["totals"]["B"] == 2


def test_CG_CHAR_SAMURAI_01_one_melee_a_turn_for_0_ap():
    """The Samurai's first attack of the turn costs nothing, the second 1 AP; with the wheel at 0 he may still
    start his free one; a shot is never free."""
    s = build({"bSA": "a1", "yMK": "a1", "yWA": "d4"}, combat=True, ap=(1, 0))
    s2, d = fight(s, "attack bSA yMK", 0, 1)  # 3 against 3: a tie, he may attack again (CG-COMBAT-04)
    assert d["winner"] is None and s2.player("B").ap == 1 and s2.used_now == ("seasoned_fighter:bSA",)
    s3, _ = fight(s2, "attack bSA yMK", 0, 2)
    assert s3.player("B").ap == 0
    broke = build({"bSA": "a1", "yMK": "a1", "yWA": "d4"}, combat=True, ap=(0, 0))
    assert Attack("B", "bSA", "yMK") in legal_actions(broke)
    assert act(broke, "attack bSA yMK").phase == "combat"


def test_CG_CHAR_TROLL_01_02_regeneration():
    """CG-CHAR-TROLL-01: the wounded Troll gets up for 1 AP; CG-CHAR-TROLL-02: not in the turn he was wounded, and
    he does nothing else in the turn he regenerates; carried, he does not regenerate (DT-215)."""
    s = build({"bTR": ("a1", {"wounded": True}), "ySN": "d4"}, combat=True)
    s2 = act(s, "regenerate bTR")
    assert not s2.fig("bTR").wounded and s2.player("B").ap == 2
    refused(s2, "move bTR b1", "CG-CHAR-CLERIC-01")
    refused(s.but(wounded_now=("bTR",)), "regenerate bTR", "CG-CHAR-TROLL-02")
    assert Regenerate("B", "bTR") in legal_actions(s)
    refused(build({"bMK": ("a1", {"wounded": True}), "ySN": "d4"}, combat=True), "regenerate bMK",
            "CG-CHAR-TROLL-01")
    refused(build({"bTR": "@bSN", "bSN": "a1", "ySN": "d4"}, combat=True), "regenerate bTR", "CG-CHAR-TROLL-01")


def test_CG_CHAR_ASSASSIN_01_lethal_blow():
    """The blue Assassin and Snake-man beat the yellow Mechanork and Snake-man (2 + 2 + 3 against 2 + 2 + 0): both
    are eliminated instead of wounded, 1 VP each; losing, the Assassin is only wounded."""
    s = build({"bAS": "a1", "bSN": "a1", "yMK": "a1", "ySN": "a1", "yWA": "d4"}, combat=True)
    s2, d = fight(s, "attack bAS yMK", 3, 0)
    assert d["totals"] == {"B": 7, "Y": 4} and d["eliminated"] == ["yMK", "ySN"] and d["wounded"] == []
    assert s2.player("B").vp == 2
    _, d = fight(s, "attack bAS yMK", 0, 6)
    assert d["wounded"] == ["bAS", "bSN"] and d["eliminated"] == []
