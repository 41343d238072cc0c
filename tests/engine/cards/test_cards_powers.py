"""Character powers and object effects beyond the tutorials (CG-CHAR, CG-OBJ): the Armor, the Sword, the Treasure,
the Goblin, the Elf Scout, the Thief, the Dark Angel, the General, the Samurai, the Troll and the Assassin.
Positions on the maze of builders.py (b1|b2 a pit, c1|d1 a closed portcullis, b4 open to Yellow's start zone)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from dungeon_twister.engine.cards import Attack, Regenerate, apply, format_action, legal_actions, parse_action, view
from dungeon_twister.engine.core.errors import IllegalAction, NotationError

from .builders import act, build, fight, refused, z


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


def test_CG_COMBAT_03_the_view_shows_both_sides_values_before_the_cards_not_with_secret_objects():
    """While the cards are awaited every viewer's view gives each side's total without its card: the Snake-man
    with the Sword attacks at 2 + 1 = 3, the Mechanork with the Armor defends at 2 + 1 = 3 (CG-OBJ-SWORD-01,
    CG-OBJ-ARMOR-01); the combat then adds the cards (3 + 2 against 3 + 0). With secret objects (CG-OPT-03) the
    key is absent for everyone: the Sword or the Armor under a character would show through the total."""
    s = build({"bSN": "a1", "yMK": "a1", "ySN": "d4"}, items={"bSW": "@bSN", "yAR": "@yMK"}, combat=True)
    fighting = act(s, "attack bSN yMK")
    for viewer in ("B", "Y", None):
        assert view(fighting, viewer)["combat"]["totals"] == {"B": 3, "Y": 3}
    _, d = fight(s, "attack bSN yMK", 2, 0)
    assert d["totals"] == {"B": 5, "Y": 3} and d["winner"] == "B"
    hidden = act(s.but(options=replace(s.options, secret_objects=True)), "attack bSN yMK")
    assert all("totals" not in view(hidden, viewer)["combat"] for viewer in ("B", "Y", None))


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
    """She opens c1|d1 for 1 AP and walks through; she closes it again for 1 AP (audit pd33: closing was not
    checked); « comme si elle transportait une Clef »: where no portcullis borders her zone she is refused as a Key
    would be (CG-OBJ-KEY-01), and so is the Snake-man without one."""
    s = build({"bTH": "c1", "yMK": "a4"})
    opened = act(s, "open bTH c1 e")
    assert opened.player("B").ap == 2 and opened.maze.features(z("c1"), "E") == ("open",)
    assert act(opened, "move bTH d1").fig("bTH").at == z("d1")
    closed = act(opened, "close bTH c1 e")
    assert closed.player("B").ap == 1 and closed.maze.features(z("c1"), "E") == ("portcullis",)
    refused(closed, "close bTH c1 e", "CG-OBJ-KEY-01")
    refused(build({"bTH": "a1", "yMK": "a4"}), "open bTH a1 e", "CG-OBJ-KEY-01")
    refused(build({"bSN": "c1", "yMK": "a4"}), "open bSN c1 e", "CG-OBJ-KEY-01")


def test_CG_CHAR_DARKANGEL_01_flies_over_enemies_and_pits():
    """Through b1, where an unwounded enemy stands, on to c1; over the pit b1|b2."""
    s = build({"bDA": "a1", "yWA": "b1", "ySN": "d4"})
    assert act(s, "move bDA b1 c1").fig("bDA").at == z("c1")
    assert act(s, "move bDA b1 b2").fig("bDA").at == z("b2")


def test_CG_CHAR_GENERAL_01_02_plus_1_to_friends_in_his_room():
    """CG-CHAR-GENERAL-01, CG-CHAR-GENERAL-02. The blue General in b1 (room A): the blue Snake-man attacking in a1 (room A) fights with 2 + 1; the General
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
    # the view says where the 3 comes from, to both players and the spectators (review rv29: the totals hid the
    # General's +1); the parts add up to the totals
    from dungeon_twister.engine.cards import view
    declared = act(build({"bSN": "a1", "yMK": "a1", "ySN": "c4", "bCB": "d4", "yWA": "d1", "bGE": "b1"},
                         combat=True), "attack bSN yMK")
    for viewer in ("B", "Y", None):
        combat = view(declared, viewer)["combat"]
        assert combat["parts"] == {"B": [["bSN", "value", 2], ["bSN", "general", 1]], "Y": [["yMK", "value", 2]]}
        assert combat["totals"] == {"B": 3, "Y": 2}


def test_CG_CHAR_GENERAL_01_02_a_wounded_friend_defends_with_his_plus_1():
    """CG-CHAR-GENERAL-01: « Les blessés bénéficient également de ce bonus »: the wounded yellow Mechanork attacked in
    a1 (room A) defends with 0 + 1 while the yellow General stands unwounded in b1 (room A); 0 without him, with
    him wounded, or with him on a start zone (CG-CHAR-GENERAL-02)."""
    def yellow(general):
        figures = {"bSN": "a1", "yMK": ("a1", {"wounded": True}), "ySN": "d4"}
        if general is not None:
            figures["yGE"] = general
        return fight(build(figures, combat=True), "attack bSN yMK", 0, 0)[1]["totals"]["Y"]

    assert yellow("b1") == 1
    assert yellow(None) == yellow(("b1", {"wounded": True})) == yellow("Y2>c4") == 0


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


def test_CG_CHAR_SAMURAI_01_his_free_melee_may_be_a_group_combat_and_a_shot_is_never_free():
    """« Cette capacité spéciale fonctionne également en combat groupé, mais pas en combat à distance »: with the
    wheel at 0 the Samurai still attacks the yellow Mechanork in a1, and the blue Snake-man there fights beside him
    (3 + 2 against 2); carrying a Bow, his shot costs 1 AP and leaves his free melee unused, and at 0 AP he does
    not shoot (CG-TURN-07, not listed). (Edges of CG-CHAR-SAMURAI-01 no test checked: review cg29.)"""
    group = build({"bSA": "a1", "bSN": "a1", "yMK": "a1", "yGB": "d4"}, combat=True, ap=(0, 0))
    assert Attack("B", "bSA", "yMK") in legal_actions(group, "B")
    after, d = fight(group, "attack bSA yMK", 0, 0)
    assert d["totals"] == {"B": 5, "Y": 2} and d["wounded"] == ["yMK"] and after.player("B").ap == 0
    assert after.used_now == ("seasoned_fighter:bSA",)
    bow = build({"bSA": "d2", "yMK": "d1", "yGB": "c4"}, items={"bBW": "@bSA"}, combat=True, ap=(1, 0))
    shot = act(bow, "shoot bSA yMK")
    assert shot.player("B").ap == 0 and shot.used_now == () and dict(shot.combat.ranged) == {"bSA": 1}
    broke = build({"bSA": "d2", "yMK": "d1", "yGB": "c4"}, items={"bBW": "@bSA"}, combat=True, ap=(0, 0))
    refused(broke, "shoot bSA yMK", "CG-TURN-07")
    assert [a for a in legal_actions(broke, "B") if format_action(a).startswith("shoot")] == []
    # a Telescopic Lance's attack is a melee (« engager un combat au corps-à-corps », CG-OBJ-LANCE-01): free too
    lance = build({"bSA": "a1", "yMK": "a2", "yGB": "d4"}, items={"bLN": "@bSA"}, combat=True, ap=(0, 0))
    lanced = act(lance, "attack bSA yMK")
    assert lanced.combat.lancer == "bSA" and lanced.used_now == ("seasoned_fighter:bSA",)


def test_CG_CHAR_PALADIN_02_the_undead_hunter_shooting_or_joining_a_shot():
    """« Cette capacité s'applique également en combat groupé ou en combat à distance, du moment que le Paladin est
    impliqué dans le combat »: the Paladin shooting with a Bow from a2 eliminates the wounded yellow Ghost in a1 (1
    + 1 against 0): 1 VP and 1 for the undead; joining the Crossbowman's shot from b1 (he sees a1), the same. (The
    existing test had him fight in the target's zone only: review cg29.)"""
    alone = build({"bPA": "a2", "yGH": ("a1", {"wounded": True}), "yMK": "d4"}, items={"bBW": "@bPA"}, combat=True)
    after, d = fight(alone, "shoot bPA yGH", 1, 0)
    assert d["totals"] == {"B": 2, "Y": 0} and d["eliminated"] == ["yGH"] and d["hunter_vp"] == 1
    assert after.player("B").vp == 2
    joined = build({"bCB": "a2", "bPA": "b1", "yGH": ("a1", {"wounded": True}), "yMK": "d4"}, items={"bBW": "@bPA"},
                   combat=True)
    declared = act(joined, "shoot bCB yGH")
    assert dict(declared.combat.ranged) == {"bCB": 3, "bPA": 1}
    after, d = fight(joined, "shoot bCB yGH", 0, 0)
    assert d["eliminated"] == ["yGH"] and d["hunter_vp"] == 1 and after.player("B").vp == 2


def test_CG_CHAR_TROLL_01_02_regeneration():
    """CG-CHAR-TROLL-01: the wounded Troll gets up for 1 AP; CG-CHAR-TROLL-02: not in the turn he was wounded, and
    he does nothing else in the turn he regenerates (the refusal cites his rule, not the Cleric's: review cg23);
    healed by a Cleric, he waits by CG-CHAR-CLERIC-01; carried, he does not regenerate (DT-215)."""
    s = build({"bTR": ("a1", {"wounded": True}), "ySN": "d4"}, combat=True)
    s2 = act(s, "regenerate bTR")
    assert not s2.fig("bTR").wounded and s2.player("B").ap == 2
    assert s2.used_now == ("regeneration:bTR",)
    refused(s2, "move bTR b1", "CG-CHAR-TROLL-02")
    healed = act(build({"bTR": ("a1", {"wounded": True}), "bCL": "a1", "ySN": "d4"}, combat=True), "heal bCL bTR")
    refused(healed, "move bTR b1", "CG-CHAR-CLERIC-01")
    refused(s.but(wounded_now=("bTR",)), "regenerate bTR", "CG-CHAR-TROLL-02")
    assert Regenerate("B", "bTR") in legal_actions(s)
    refused(build({"bMK": ("a1", {"wounded": True}), "ySN": "d4"}, combat=True), "regenerate bMK",
            "CG-CHAR-TROLL-01")
    refused(build({"bTR": "@bSN", "bSN": "a1", "ySN": "d4"}, combat=True), "regenerate bTR", "CG-CHAR-TROLL-01")
    standing = build({"bTR": "a1", "ySN": "d4"}, combat=True)  # the edge: only a wounded Troll gets up
    assert refused(standing, "regenerate bTR", "CG-CHAR-TROLL-01").template == "{figure} is not wounded"


def test_CG_CHAR_TROLL_01_DT_215_a_wounded_troll_regenerates_on_his_start_zone():
    """CG-CHAR-TROLL-01 names no place: the blue Troll, wounded on his start position B1 by the yellow Warrior he
    faced (CG-SZ-01), gets up there in Blue's next turn. Nobody may pick him up on a start zone (DT-211), so the
    refusal kept him down for the rest of the game; only a carried Troll does not regenerate (DT-215)."""
    s = build({"bTR": "B1>a1", "yWA": "a1", "bMK": "d4"}, combat=True, active="Y", ap=(0, 3))
    s2, d = fight(s, "attack yWA bTR", 0, 6, seat="Y")
    assert d["wounded"] == ["bTR"] and s2.fig("bTR").where == "start"
    s3 = act(act(act(s2, "end", "Y"), "end", "B"), "end", "Y")
    assert Regenerate("B", "bTR") in legal_actions(s3, "B")
    s4, events = apply(s3, Regenerate("B", "bTR"))
    assert not s4.fig("bTR").wounded and dict(events[0].data) == {"figure": "bTR", "zone": "B1"}


def test_CG_CHAR_ASSASSIN_01_DT_215_no_lethal_blow_from_a_telescopic_lance():
    """The lethal blow kills the losers "in her zone": the blue Assassin in a1 attacking the yellow Mechanork in b1
    with a Telescopic Lance (3 + 2 against 0 + 2) fights from the next zone, so he is wounded, as a Mechanork
    lancer would leave him, not eliminated."""
    s = build({"bAS": "a1", "yMK": "b1", "yCO": "d4"}, items={"bLN": "@bAS"}, combat=True)
    s2, d = fight(s, "attack bAS yMK", 3, 0)
    assert (d["winner"], d["wounded"], d["eliminated"]) == ("B", ["yMK"], [])
    assert s2.fig("yMK").where == "maze" and s2.player("B").vp == 0


def test_CG_CHAR_ASSASSIN_01_lethal_blow():
    """The blue Assassin and Snake-man beat the yellow Mechanork and Snake-man (2 + 2 + 3 against 2 + 2 + 0): both
    are eliminated instead of wounded, 1 VP each; losing, the Assassin is only wounded."""
    s = build({"bAS": "a1", "bSN": "a1", "yMK": "a1", "ySN": "a1", "yWA": "d4"}, combat=True)
    s2, d = fight(s, "attack bAS yMK", 3, 0)
    assert d["totals"] == {"B": 7, "Y": 4} and d["eliminated"] == ["yMK", "ySN"] and d["wounded"] == []
    assert s2.player("B").vp == 2
    _, d = fight(s, "attack bAS yMK", 0, 6)
    assert d["wounded"] == ["bAS", "bSN"] and d["eliminated"] == []


def test_CG_CHAR_ASSASSIN_01_defending_too_and_not_while_wounded():
    """« Quand l'Assassin remporte un combat »: attacked by the yellow Snake-man, the blue Assassin's side wins
    (2 + 3 against 2 + 0) and the Snake-man is eliminated, not wounded (1 VP to Blue). Her edge: wounded, she has
    lost the blow (CG-WOUND-01): attacked as the wounded target she wins 0 + 6 against 2 + 0 and the Snake-man is
    only wounded (audit pd33: her defence was not checked)."""
    s = build({"bAS": "a1", "ySN": "a1", "bMK": "d4"}, combat=True, active="Y", ap=(0, 3))
    after, d = fight(s, "attack ySN bAS", 3, 0, seat="Y")
    assert (d["totals"], d["winner"], d["eliminated"], d["wounded"]) == ({"B": 5, "Y": 2}, "B", ["ySN"], [])
    assert after.player("B").vp == 1
    hurt = build({"bAS": ("a1", {"wounded": True}), "ySN": "a1", "bMK": "d4"}, combat=True, active="Y", ap=(0, 3))
    after, d = fight(hurt, "attack ySN bAS", 6, 0, seat="Y")
    assert (d["totals"], d["winner"], d["eliminated"], d["wounded"]) == ({"B": 6, "Y": 2}, "B", [], ["ySN"])
    assert after.player("B").vp == 0


def test_CG_CHAR_TELEPATH_03_no_naming_in_a_shot():
    """« La capacité du Télépathe ne fonctionne ni en combat groupé, ni dans les combats à distance »: a shot with
    one fighter a side is no single melee. The blue Telepath shooting with a Bow, and the Crossbowman shooting the
    lone yellow Telepath: nobody names, both lay secretly (audit pd33: the group and the two Telepaths were checked,
    not the shot)."""
    from dungeon_twister.engine.cards import secret_purpose
    shooting = act(build({"bTP": "d4", "yMK": "d1", "yCO": "a4"}, items={"bBW": "@bTP"}, combat=True),
                   "shoot bTP yMK")
    target = act(build({"bCB": "d4", "yTP": "d1", "yCO": "a4"}, combat=True), "shoot bCB yTP")
    for shot in (shooting, target):
        assert shot.combat.naming is None and shot.to_act == ("B", "Y") and secret_purpose(shot, "Y") == "combat-1"
    refused(shooting, "mind +3", "CG-CHAR-TELEPATH-01")


# --- scrolls, pockets and lances -------------------------------------------------------------------------------

def test_CG_OBJ_FIREBALL_02_CG_WOUND_04_a_carried_wounded_characters_object_stays_in_the_zone():
    """The scroll kills the yellow Mechanork in b1 and the wounded Snake-man he carries (2 VP); the Key the Snake-man
    held stays in b1 (CG-WOUND-04). It was put "on the floor" at the Mechanork's id, and the next view and legal
    list raised TypeError: the game could not go on."""
    from dungeon_twister.engine.cards import view

    s = build({"bWZ": "a1", "bMK": "a2", "yMK": "b1", "ySN": "@yMK", "yCO": "d4"},
              items={"bFB": "@bWZ", "yKY": "@ySN"}, combat=True).but(target_vp=5)
    s2 = act(s, "fireball bWZ yMK")
    assert s2.player("B").vp == 2 and (s2.item("yKY").where, s2.item("yKY").at) == ("floor", z("b1"))
    assert {"id": "yKY", "seat": "Y", "code": "KY", "where": "floor", "at": "b1"} in view(s2, "B")["items"]
    assert legal_actions(s2, "B")


def test_CG_OBJ_FIREBALL_01_CG_CHAR_WIZARD_02_CG_VP_02_a_spellcaster_reads_the_scroll_at_a_character_he_sees():
    """The blue Wizard with the Fireball Scroll in a1 eliminates the yellow Mechanork in c1 (row 1, b1 empty): 1 AP,
    1 VP to Blue, the scroll is gone; not the Mechanork in d1 behind the closed portcullis; not himself (DT-216);
    a friend he kills scores for Yellow (CG-VP-02); the Snake-man carrying it cannot read it."""
    s = build({"bWZ": "a1", "bSN": "a1", "yMK": "c1", "ySN": "d1"}, items={"bFB": "@bWZ"}, combat=True)
    s2, events = apply(s, parse_action("fireball bWZ yMK", "B"))
    assert s2.fig("yMK").where == "eliminated" and s2.player("B").vp == 1 and s2.player("B").ap == 2
    assert s2.item("bFB").where == "gone" and s2.fig("bWZ").carries == ()
    assert events[0].data == {"figure": "bWZ", "target": "yMK", "zone": "c1", "eliminated": ["yMK"]}
    refused(s, "fireball bWZ ySN", "CG-OBJ-FIREBALL-01")
    refused(s, "fireball bWZ bWZ", "CG-OBJ-FIREBALL-01")
    assert act(s, "fireball bWZ bSN").player("Y").vp == 1
    refused(build({"bSN": "a1", "yMK": "c1"}, items={"bFB": "@bSN"}, combat=True), "fireball bSN yMK",
            "CG-CHAR-WIZARD-02")


def test_CG_OBJ_FIREBALL_02_CG_CHAR_TROLL_03_no_combat_no_shield_no_regeneration():
    """The yellow Troll carrying his wounded Mechanork and shielded by nothing that counts: both die (2 VP); the
    Large Shield of the yellow Snake-man does not save him; its object stays in the zone."""
    s = build({"bWZ": "a1", "yTR": "c1", "yMK": "@yTR", "ySN": "a2"}, items={"bFB": "@bWZ"}, combat=True)
    s2 = act(s, "fireball bWZ yTR")
    assert s2.fig("yTR").where == s2.fig("yMK").where == "eliminated" and s2.player("B").vp == 2
    shielded = build({"bWZ": "a1", "ySN": "a2", "yMK": "d4"}, items={"bFB": "@bWZ", "ySH": "@ySN"}, combat=True)
    s3 = act(shielded, "fireball bWZ ySN")
    assert s3.fig("ySN").where == "eliminated" and s3.item("ySH").where == "floor" and s3.item("ySH").at == z("a2")


def test_CG_CHAR_PICKPOCKET_01_02_takes_an_enemys_object_in_his_zone_with_empty_hands():
    s = build({"bPP": "a1", "yMK": "a1", "ySN": "b1", "yWA": ("a1", {"wounded": True})},
              items={"yKY": "@yMK", "yRP": "@ySN"}, combat=True)
    s2 = act(s, "steal bPP yKY")
    assert s2.fig("bPP").carries == ("yKY",) and s2.fig("yMK").carries == () and s2.item("yKY").at == "bPP"
    refused(s, "steal bPP yRP", "CG-CHAR-PICKPOCKET-01")  # in another zone
    refused(s2, "steal bPP yKY", "CG-CHAR-PICKPOCKET-02")  # his hands are full now
    carrying = build({"bPP": "a1", "yMK": "a1", "yWA": "@yMK"}, combat=True)
    refused(carrying, "steal bPP yWA", "CG-CHAR-PICKPOCKET-02")  # a carried wounded character is no object
    refused(build({"bSN": "a1", "yMK": "a1"}, items={"yKY": "@yMK"}, combat=True), "steal bSN yKY",
            "CG-CHAR-PICKPOCKET-01")


def test_CG_OBJ_LANCE_01_02_03_CG_EX_11_the_telescopic_lance():
    """CG-OBJ-LANCE-01, CG-OBJ-LANCE-02 (unhurt, broken if he loses), CG-OBJ-LANCE-03. CG-EX-11 on our maze: the
    blue Colossus with a lance in b1 attacks the yellow Snake-man in b2 across the pit:
    5 + 0 against 2 + 0, the Snake-man is wounded; losing (5 + 0 against 2 + 6 = 8), the Colossus is unhurt and the
    lance breaks. Not the yellow Mechanork in d1 behind the closed portcullis c1|d1 (from c1), not diagonally, not
    with an enemy beside him; a Cleric with a lance in b2 reaches c2 through the slit he borders; the Snake-man
    without one reaches nothing."""
    s = build({"bCO": "b1", "ySN": "b2", "yMK": "d1", "yWZ": "a2"}, items={"bLN": "@bCO"}, combat=True)
    s2, d = fight(s, "attack bCO ySN", 0, 0)
    assert d["totals"] == {"B": 5, "Y": 2} and d["wounded"] == ["ySN"]
    s3, d = fight(s, "attack bCO ySN", 0, 6)
    assert d["winner"] == "Y" and d["wounded"] == [] and not s3.fig("bCO").wounded
    assert s3.item("bLN").where == "gone" and s3.fig("bCO").carries == ()
    refused(s, "attack bCO yWZ", "CG-OBJ-LANCE-01")  # a2 is diagonal to b1
    refused(build({"bCO": "c1", "yMK": "d1"}, items={"bLN": "@bCO"}, combat=True), "attack bCO yMK",
            "CG-OBJ-LANCE-01")
    refused(build({"bCO": "b1", "yWA": "b1", "ySN": "b2"}, items={"bLN": "@bCO"}, combat=True), "attack bCO ySN",
            "CG-OBJ-LANCE-03")
    cleric = build({"bCL": "b2", "ySN": "c2"}, items={"bLN": "@bCL"}, combat=True)
    assert act(cleric, "attack bCL ySN").combat.lancer == "bCL"
    refused(build({"bSN": "b2", "ySN": "c2"}, combat=True), "attack bSN ySN", "CG-COMBAT-01")


# --- walls ------------------------------------------------------------------------------------------------------

def test_CG_CHAR_WALLWALKER_01_02_03_through_one_wall_with_exchanges_before_and_after():
    """CG-CHAR-WALLWALKER-01: for 1 AP the Wall-Walker in a2 passes the wall a2|a3 (an action of its own);
    CG-CHAR-WALLWALKER-02: she drops the Key in a2 first, or carries it through and takes the Rope lying in a3
    after (swapping); CG-CHAR-WALLWALKER-03: not the closed portcullis a2|b2, not into a face-down room; where there
    is no wall it is a move."""
    s = build({"bWW": "a2", "yMK": "d4"}, items={"bKY": "@bWW", "yRP": "a3"})
    s2 = act(s, "wallwalk bWW -bKY a3")
    assert s2.fig("bWW").at == z("a3") and s2.item("bKY").at == z("a2") and s2.player("B").ap == 2
    s3 = act(s, "wallwalk bWW a3 +yRP")
    assert s3.fig("bWW").carries == ("yRP",) and s3.item("bKY").where == "floor" and s3.item("bKY").at == z("a3")
    refused(s, "wallwalk bWW b2", "CG-CHAR-WALLWALKER-03")
    refused(s, "wallwalk bWW a1", "CG-CHAR-WALLWALKER-01")
    hidden = build({"bWW": "a2", "yMK": "d4"}, revealed=(True, True, False, True))
    refused(hidden, "wallwalk bWW a3", "CG-CHAR-WALLWALKER-03")
    refused(build({"bSN": "a2", "yMK": "d4"}), "wallwalk bSN a3", "CG-CHAR-WALLWALKER-01")
    from dungeon_twister.engine.cards import WallWalk
    assert WallWalk("B", "bWW", ("a3",)) in legal_actions(s) and WallWalk("B", "bWW", ("-bKY", "a3")) in \
        legal_actions(s)
    # exchanges as many as wished on each side (DT-206), each outcome listed once (DT-217): the Key kept or left in
    # a2, then in a3 the Rope taken (a swap when she still carries the Key), the Key laid down, or nothing: 5 walks
    walks = [a.path for a in legal_actions(s) if isinstance(a, WallWalk)]
    assert walks == [("a3",), ("a3", "+yRP"), ("a3", "-bKY"), ("-bKY", "a3"), ("-bKY", "a3", "+yRP")]
    assert act(s, "wallwalk bWW a3 -bKY +yRP") == s3  # two exchanges in a3: the swap's outcome
    refused(s, "wallwalk bWW -bKY +bKY a3", "CG-ITEM-01")  # an exchange undone (DT-206)


def test_CG_CHAR_WALLWALKER_01_DT_207_DT_230_a_pit_beside_the_wall_needs_a_rope():
    """« traverser un mur » passes the wall, nothing else: the border b4|c4 carries blue2's pit and green2's wall
    (DT-202), so the Wall-Walker in b4 walks through into c4 only with a Rope, as a jumper passes every other
    feature of the pit's border (DT-207). Without one it is refused, naming the border; carrying the Rope, or
    taking the one lying in b4 first (CG-CHAR-WALLWALKER-02), she passes (1 AP). Listed iff accepted."""
    from dungeon_twister.engine.cards import WallWalk
    bare = build({"bWW": "b4", "yMK": "d1"})
    with pytest.raises(IllegalAction) as e:
        act(bare, "wallwalk bWW c4")
    assert e.value.rule == "CG-CHAR-WALLWALKER-01" and e.value.values == {"zone": "b4", "target": "c4"}
    assert {a.path for a in legal_actions(bare, "B") if isinstance(a, WallWalk)} == {("b3",)}  # b4|b3: a wall
    roped = build({"bWW": "b4", "yMK": "d1"}, items={"bRP": "@bWW"})
    through = act(roped, "wallwalk bWW c4")
    assert through.fig("bWW").at == z("c4") and through.fig("bWW").carries == ("bRP",) and through.player("B").ap == 2
    assert WallWalk("B", "bWW", ("c4",)) in legal_actions(roped, "B")
    lying = build({"bWW": "b4", "yMK": "d1"}, items={"bRP": "b4"})
    refused(lying, "wallwalk bWW c4", "CG-CHAR-WALLWALKER-01")
    assert act(lying, "wallwalk bWW +bRP c4").fig("bWW").at == z("c4")
    walks = {a.path for a in legal_actions(lying, "B") if isinstance(a, WallWalk)}
    assert ("+bRP", "c4") in walks and ("c4",) not in walks


def test_CG_CHAR_GHOST_01_02_through_anything_carrying_nothing():
    """CG-CHAR-GHOST-01: the Ghost walks from a2 through the wall into a3, through the closed portcullis into b2,
    over the pit into b1, past the yellow Warrior there on to c1 (3 zones: his move is 2, so two moves); CG-CHAR-
    GHOST-02: he takes nothing, and a friend cannot give him anything."""
    s = build({"bGH": "a2", "bSN": "a2", "yWA": "b1", "ySN": "d4"}, items={"bKY": "@bSN", "yRP": "a2"})
    assert act(s, "move bGH a3").fig("bGH").at == z("a3")
    assert act(s, "move bGH b2 b1").fig("bGH").at == z("b1")
    assert act(build({"bGH": "b2", "yWA": "b1", "ySN": "d4"}), "move bGH b1 c1").fig("bGH").at == z("c1")
    refused(s, "move bGH +yRP", "CG-CHAR-GHOST-02")
    refused(s, "move bSN >bGH", "CG-CHAR-GHOST-02")


def test_CG_CHAR_GOLEM_01_02_RUL_114_once_a_game_every_wall_of_his_room():
    """The Golem in a2 (room A, card blue1) breaks its walls for 1 AP: the Snake-man then walks a2-a3 across the
    wall blue1 printed, and a2-b2 through its portcullis (broken too); b2-b3 stays closed (that wall is blue2's,
    RUL-114); a1 now sees a3 through the broken wall (CG-CHAR-GOLEM-02). Once a game."""
    s = build({"bGO": "a2", "bSN": "a1", "yMK": "d4"})
    s2 = act(s, "smash bGO")
    assert s2.walls_broken == (("blue1", "bGO"),) and s2.player("B").ap == 2
    assert act(s2, "move bSN a2 a3").fig("bSN").at == z("a3")
    assert act(s2, "move bSN a2 b2").fig("bSN").at == z("b2")
    refused(act(s2, "move bSN a2 b2"), "move bSN b3", "CG-MOVE-06")
    from dungeon_twister.engine.cards import line_of_sight
    assert not line_of_sight(build({}), z("a1"), z("a3")) and line_of_sight(act(s, "smash bGO").but(
        figures=tuple(f for f in s2.figures if f.id != "bGO")), z("a1"), z("a3"))
    moved = act(act(s2, "move bGO b2"), "end")
    refused(act(moved, "end", "Y"), "smash bGO", "CG-CHAR-GOLEM-01")
    assert parse_position_round_trips(s2)


def parse_position_round_trips(state) -> bool:
    from dungeon_twister.engine.cards import format_position, parse_position
    return parse_position(format_position(state)) == state


def test_CG_CHAR_GOLEM_01_the_broken_walls_card_is_public():
    s = act(build({"bGO": "a2", "yMK": "d4"}), "smash bGO")
    from dungeon_twister.engine.cards import view
    assert view(s, "Y")["walls_broken"] == view(s, None)["walls_broken"] == ["blue1"]


def test_CG_JUMP_04_a_combat_card_given_up_for_a_jump():
    """With no jump card left, Blue gives up his +3 (shown: the event names it) to jump the pit b1|b2, still 1 AP;
    not the +0, not a card he does not hold, not while a jump card is left."""
    from dungeon_twister.engine.cards import Jump
    s = build({"bMK": "b1", "yMK": "d4"}, combat=True, jumps=(0, 3))
    s2, events = apply(s, parse_action("jump bMK b2 +3", "B"))
    assert s2.fig("bMK").at == z("b2") and s2.player("B").cards == (0, 1, 2, 2, 3, 4, 5, 6)
    assert s2.player("B").ap == 2 and events[0].data["discarded"] == 3
    refused(s, "jump bMK b2", "CG-JUMP-01")
    with pytest.raises(NotationError):
        parse_action("jump bMK b2 +0", "B")
    refused(build({"bMK": "b1", "yMK": "d4"}, combat=True, jumps=(0, 3), cards=((0, 1), (0,))), "jump bMK b2 +3",
            "CG-JUMP-04")
    refused(build({"bMK": "b1", "yMK": "d4"}, combat=True), "jump bMK b2 +3", "CG-JUMP-04")
    assert Jump("B", "bMK", z("b2"), 3) in legal_actions(s) and Jump("B", "bMK", z("b2"), 0) not in legal_actions(s)


# --- rules of the base card game that the slices above rely on ------------------------------------------------

def test_CG_EXIT_02_04_own_start_zone_back_and_forth_and_an_exit_past_a_wounded_enemy():
    """CG-EXIT-02: the blue Snake-man steps from a1 onto his start position B1, and back into a1 (a move each);
    CG-EXIT-04: a wounded yellow Mechanork on Y1 facing b4 does not block the exit b4 -> Y1 (an unwounded one
    does, CG-BLOCK-01)."""
    s = build({"bSN": "a1", "yMK": "d4"})
    home = act(s, "move bSN B1")
    assert home.fig("bSN").where == "start" and act(act(act(home, "end"), "end", "Y"), "move bSN a1").fig(
        "bSN").at == z("a1")
    wounded = build({"bSN": "b4", "yMK": ("Y1>b4", {"wounded": True}), "ySN": "d1"})
    assert act(wounded, "move bSN Y1").fig("bSN").where == "exited"
    refused(build({"bSN": "b4", "yMK": "Y1>b4", "ySN": "d1"}), "move bSN Y1", "CG-BLOCK-01")


def test_CG_REVEAL_04_07_the_revealer_stays_put_and_revealed_characters_are_unwounded_and_their_owners():
    """CG-REVEAL-04: the blue Mechanork in b1 reveals room B across the open border b1|c1 and stays in b1;
    CG-REVEAL-07: the yellow Snake-man hidden in B comes out unwounded, and Yellow's."""
    s = build({"bMK": "b1", "yMK": "d4"}, rooms=(("blue1", 0), ("green1", 0), ("blue2", 0), ("green2", 0)),
              revealed=(True, False, True, True))
    s = s.but(figures=tuple(sorted((*s.figures, *build({"ySN": "seeded:B"}).figures), key=lambda f: f.id)))
    s2 = act(s, "reveal bMK B")
    assert s2.fig("bMK").at == z("b1") and s2.phase == "place"
    s3 = act(s2, "place ySN c1")
    assert s3.fig("ySN").where == "maze" and not s3.fig("ySN").wounded and s3.fig("ySN").seat == "Y"


def test_CG_WOUND_05_CG_GOLD_03_04_zones_with_wounded_enemies_one_thing_carried_objects_unlimited():
    """CG-WOUND-05: the blue Snake-man walks a1 -> b1 -> c1 past a wounded yellow Warrior in b1 (an unwounded one
    stops him, CG-MOVE-04); CG-GOLD-03: taking the Rope lying in b1 he leaves his Key there (one thing carried);
    CG-GOLD-04: b1 then holds two objects and more may come."""
    s = build({"bSN": "a1", "yWA": ("b1", {"wounded": True}), "ySN": "d4"}, items={"bKY": "@bSN", "yRP": "b1",
                                                                                     "yAR": "b1"})
    assert act(s, "move bSN b1 c1").fig("bSN").at == z("c1")
    swapped = act(s, "move bSN b1 +yRP")
    assert swapped.fig("bSN").carries == ("yRP",) and swapped.item("bKY").at == z("b1")
    assert sorted(i.id for i in swapped.floor(z("b1"))) == ["bKY", "yAR"]
    refused(build({"bSN": "a1", "yWA": "b1", "ySN": "d4"}), "move bSN b1 c1", "CG-MOVE-04")


def test_CG_ITEM_02_what_a_character_carries_is_public():
    """CG-ITEM-02: Yellow and a spectator see that the blue Snake-man carries the Key."""
    from dungeon_twister.engine.cards import view
    s = build({"bSN": "a1", "yMK": "d4"}, items={"bKY": "@bSN"})
    for viewer in ("Y", None):
        seen = next(f for f in view(s, viewer)["figures"] if f.get("id") == "bSN")
        assert seen["carries"] == "bKY"


def test_CG_CHAR_WMASTER_01_02_03_the_weapon_masters_side_sees_the_other_card_first():
    """CG-CHAR-WMASTER-01: the blue Weapon Master attacks the yellow Mechanork: Yellow lays first, face up (no
    commit-reveal: the event and the views show it), then Blue; Blue laying first is refused. CG-CHAR-WMASTER-02: so
    in a group combat, but not in a shot (the Crossbowman's combat with her in the target's zone is laid secretly).
    CG-CHAR-WMASTER-03: with a Weapon Master on each side, both lay secretly."""
    from dungeon_twister.engine.cards import secret_purpose, view
    from dungeon_twister.engine.core.events import event_view
    s = build({"bWM": "a1", "bSN": "a1", "yMK": "a1", "yWA": "d4"}, combat=True)
    s1 = act(s, "attack bWM yMK")
    assert s1.to_act == ("Y",) and secret_purpose(s1, "Y") is None and secret_purpose(s1, "B") is None
    refused(s1, "card 6", "CG-CHAR-WMASTER-01")
    s2, events = apply(s1, parse_action("card 4", "Y"))
    assert event_view(events[0], "B") == {"kind": "combat_card", "seat": "Y", "value": 4}
    assert view(s2, "B")["combat"]["first"] == {"seat": "Y", "card": 4} and s2.to_act == ("B",)
    assert parse_position_round_trips(s2) and parse_position_round_trips(s1)
    s3, events = apply(s2, parse_action("card 1", "B"))
    d = next(e.data for e in events if e.kind == "combat")
    assert d["totals"] == {"B": 3 + 2 + 1, "Y": 2 + 4} and d["winner"] is None
    shot = act(build({"bCB": "d4", "bWM": "d1", "yMK": "d1"}, combat=True), "shoot bCB yMK")
    assert shot.combat.first is None and secret_purpose(shot, "B") == "combat-1"
    both = act(build({"bWM": "a1", "yWM": "a1", "ySN": "d4"}, combat=True), "attack bWM yWM")
    assert both.combat.first is None and both.to_act == ("B", "Y")


def test_CG_CHAR_WMASTER_01_02_DT_303_her_edges_wounded_on_a_start_zone_with_a_lance_and_in_a_shot():
    """CG-CHAR-WMASTER-01 « Quand la Maîtresse d'armes est engagée dans un combat », its edges (audit pd33):
    wounded, she has lost her techniques (CG-WOUND-01): the blue Snake-man attacks the wounded yellow Weapon Master,
    both lay secretly, 2 + 3 against 0 + 2. On her start zone facing a1 she fights there (CG-SZ-02/03), attacking or
    drawn in as a defender: the other side lays first. With a Telescopic Lance she fights a melee into the next zone
    (CG-OBJ-LANCE-01): Yellow lays first, +2 face up, and Blue answers +0: 3 against 2 + 2, Yellow wins, the lance
    breaks and the Master is unhurt (CG-OBJ-LANCE-02); a lance into her zone has Blue lay first.
    CG-CHAR-WMASTER-02 « pas dans les combats à distance »: a shot's combat keeps both cards secret even when she
    fights in melee in the target's zone, on either side (DT-303), and when she shoots with a Bow."""
    from dungeon_twister.engine.cards import secret_purpose

    def lays_first(state):
        return state.combat.first, state.to_act, secret_purpose(state, "B"), secret_purpose(state, "Y")

    hurt = act(build({"bSN": "a1", "yWM": ("a1", {"wounded": True}), "yMK": "d4"}, combat=True), "attack bSN yWM")
    assert lays_first(hurt) == (None, ("B", "Y"), "combat-1", "combat-1")
    s = act(act(hurt, "card 3"), "card 2", "Y")
    assert s.fig("yWM").where == "eliminated" and s.player("B").vp == 1
    start = act(build({"bWM": "B1>a1", "yMK": "a1", "yCO": "d4"}, combat=True), "attack bWM yMK")
    assert start.combat.sides == (("B", ("bWM",)), ("Y", ("yMK",))) and lays_first(start) == ("Y", ("Y",), None,
                                                                                               None)
    drawn = act(build({"bWM": "B1>a1", "bSN": "a1", "yMK": "a1", "bCO": "d4"}, combat=True, active="Y", ap=(0, 3)),
                "attack yMK bSN", "Y")
    assert drawn.combat.sides[1] == ("B", ("bSN", "bWM")) and lays_first(drawn) == ("Y", ("Y",), None, None)
    lance = act(build({"bWM": "a1", "yMK": "a2", "yCO": "d4"}, items={"bLN": "@bWM"}, combat=True), "attack bWM yMK")
    assert lance.combat.lancer == "bWM" and lays_first(lance) == ("Y", ("Y",), None, None)
    refused(lance, "card 0", "CG-CHAR-WMASTER-01")
    after, events = apply(act(lance, "card 2", "Y"), parse_action("card 0", "B"))
    d = next(e.data for e in events if e.kind == "combat")
    assert (d["totals"], d["winner"], d["wounded"]) == ({"B": 3, "Y": 4}, "Y", [])
    assert not after.fig("bWM").wounded and after.fig("bWM").carries == () and after.item("bLN").where == "gone"
    into = act(build({"bSN": "a1", "yMK": "a2", "yWM": "a2", "yCO": "d4"}, items={"bLN": "@bSN"}, combat=True),
               "attack bSN yMK")
    assert lays_first(into) == ("B", ("B",), None, None)
    for melee, target in (({"bWM": "d1", "yMK": "d1"}, "yMK"), ({"bSN": "d1", "yWM": "d1"}, "yWM")):
        shot = act(build({"bCB": "d4", **melee, "yCO": "a4"}, combat=True), f"shoot bCB {target}")
        assert len(shot.combat.sides[0][1]) == 2 and lays_first(shot) == (None, ("B", "Y"), "combat-1", "combat-1")
    bow = act(build({"bWM": "d4", "yMK": "d1", "yCO": "a4"}, items={"bBW": "@bWM"}, combat=True), "shoot bWM yMK")
    assert bow.combat.ranged == (("bWM", 1),) and lays_first(bow) == (None, ("B", "Y"), "combat-1", "combat-1")


def test_CG_CHAR_TELEPATH_01_02_03_CG_CHAR_ORDER_01_mind_control():
    """CG-CHAR-TELEPATH-01: the blue Telepath attacks the yellow Mechanork (a single melee): Blue names a value
    first, in public; Yellow holds the +3 named and must play it. CG-CHAR-TELEPATH-02: named +6 that Yellow no
    longer holds, his hand is shown to Blue alone, and he plays any card. CG-CHAR-TELEPATH-03: no naming in a group
    combat or with a Telepath on each side. CG-CHAR-ORDER-01: with a yellow Weapon Master, the naming comes first,
    then Blue's card face up, then Yellow's."""
    from dungeon_twister.engine.cards import CombatCard, secret_purpose, view
    from dungeon_twister.engine.core.events import event_view
    s = build({"bTP": "a1", "yMK": "a1", "yWA": "d4"}, combat=True)
    s1 = act(s, "attack bTP yMK")
    assert s1.to_act == ("B",) and secret_purpose(s1, "B") is None and len(legal_actions(s1)) == 7
    s2 = act(s1, "mind +3")
    assert s2.to_act == ("B", "Y") and secret_purpose(s2, "Y") == "combat-1"
    refused(s2, "card 5", "CG-CHAR-TELEPATH-01", seat="Y")
    assert legal_actions(s2, "Y") == [CombatCard("Y", 3)]
    short = build({"bTP": "a1", "yMK": "a1", "yWA": "d4"}, combat=True, cards=((0, 1, 2), (0, 1, 5)))
    s3, events = apply(act(short, "attack bTP yMK"), parse_action("mind +6", "B"))
    assert event_view(events[0], "B")["hand"] == [0, 1, 5]
    assert event_view(events[0], "Y") == event_view(events[0], None) == {"kind": "mind_named", "seat": "B",
                                                                       "value": 6, "held": False}
    assert len(legal_actions(s3, "Y")) == 3 and view(s3, None)["combat"]["mind"] == {"naming": None, "named": 6,
                                                                                    "by": "B"}
    # the view shows the hand too, to Blue alone, while the combat lasts (review cg29: the event alone said it,
    # and a reconnected client lost it); a value held shows nothing (above: named +3)
    assert view(s3, "B")["combat"]["mind"]["hand"] == [0, 1, 5] and "hand" not in view(s3, "Y")["combat"]["mind"]
    assert "hand" not in view(s2, "B")["combat"]["mind"]
    group = act(build({"bTP": "a1", "bSN": "a1", "yMK": "a1", "yWA": "d4"}, combat=True), "attack bTP yMK")
    assert group.combat.naming is None and group.to_act == ("B", "Y")
    two = act(build({"bTP": "a1", "yTP": "a1", "yWA": "d4"}, combat=True), "attack bTP yTP")
    assert two.combat.naming is None
    ordered = act(build({"bTP": "a1", "yWM": "a1", "yWA": "d4"}, combat=True), "attack bTP yWM")
    assert ordered.to_act == ("B",) and ordered.combat.naming == "B"
    after = act(ordered, "mind none")
    assert after.to_act == ("B",) and after.combat.first == "B" and parse_position_round_trips(after)
    assert act(after, "card 2").to_act == ("Y",)


def test_CG_CHAR_ORDER_01_no_combat_card_before_the_naming_or_the_announcement_nor_a_second_one():
    """Play-test cgplay16: `card 3` typed while the Telepath's naming was pending was applied as a plain action (the
    card laid before the naming, without commit-reveal), and the commit-reveal round then waited for ever for
    Blue's commitment; a second `card 2` then reached _resolve without Yellow's card (KeyError). CG-CHAR-ORDER-01:
    the announcement and the naming come first; CG-COMBAT-02: one card a side."""
    naming = act(build({"bTP": "a1", "yMK": "a1", "yWA": "d4"}, combat=True), "attack bTP yMK")
    refused(naming, "card 3", "CG-CHAR-ORDER-01")
    named = act(naming, "mind +3")
    laid = act(named, "card 3")
    refused(laid, "card 2", "CG-COMBAT-02")
    announcing = act(build({"bBE": "a1", "yMK": "a1", "yCO": "d4"}, combat=True), "attack bBE yMK")
    assert announcing.combat.announcing == "B"
    refused(announcing, "card 3", "CG-CHAR-ORDER-01")


def test_CG_CHAR_TELEPATH_01_CG_CHAR_BERSERK_01_apply_refuses_a_value_no_card_has_and_a_count_not_1_or_2():
    """The notation reads only `mind +1` to `mind +6` and `frenzy 1` / `frenzy 2`, but `apply` validates every
    action itself (docs/card-game.md): CG-CHAR-TELEPATH-01 names a value « autre que +0 » of a card there is
    (the highest is +6, CG-COMP-03), and a +7 that nobody holds showed the opponent's whole hand
    (CG-CHAR-TELEPATH-02); CG-CHAR-BERSERK-01 announces 1 or 2 cards, and `frenzy 3` was taken as one."""
    from dungeon_twister.engine.cards.actions import Frenzy, MindControl
    naming = act(build({"bTP": "a1", "yMK": "a1", "yWA": "d4"}, combat=True), "attack bTP yMK")
    for value in (0, 7, -1):
        with pytest.raises(IllegalAction) as e:
            apply(naming, MindControl("B", value))
        assert (e.value.rule, e.value.message) == ("CG-CHAR-TELEPATH-01", "name a combat value from +1 to +6 (or none)")
    assert apply(naming, MindControl("B", 6))[0].combat.named == 6
    announcing = act(build({"bBE": "a1", "yMK": "a1", "yWA": "d4"}, combat=True), "attack bBE yMK")
    for count in (0, 3):
        with pytest.raises(IllegalAction) as e:
            apply(announcing, Frenzy("B", count))
        assert e.value.rule == "CG-CHAR-BERSERK-01"
    assert apply(announcing, Frenzy("B", 2))[0].combat.two == "B"


def test_CG_CHAR_COLOSSUS_01_bend_bars_breaks_the_portcullis_beside_him_for_good():
    """For 1 AP the Colossus in c1 breaks the closed portcullis c1|d1: the Snake-man then walks through; it is
    never closed again (a Key does nothing to it). His refusals cite his own rule, which says what the Warrior's
    says (audit pd33: he was told CG-CHAR-WARRIOR-01): no portcullis on the east of a1, none left on c1|d1 once
    broken, none on a zone he is not in; the Warrior's cite the Warrior's."""
    s = build({"bCO": "c1", "bSN": "c1", "yMK": "a4"}, items={"bKY": "@bSN"})
    s2 = act(s, "bend bCO c1 e")
    assert s2.player("B").ap == 2 and act(s2, "move bSN d1").fig("bSN").at == z("d1")
    refused(s2, "close bSN c1 e", "CG-CHAR-WARRIOR-01")  # the rule that says a broken one stays broken
    refused(s2, "bend bCO c1 e", "CG-CHAR-COLOSSUS-01")
    refused(s, "bend bCO a2 e", "CG-CHAR-COLOSSUS-01")
    refused(build({"bCO": "a1", "yMK": "a4"}), "bend bCO a1 e", "CG-CHAR-COLOSSUS-01")
    refused(build({"bWA": "a1", "yMK": "a4"}), "bend bWA a1 e", "CG-CHAR-WARRIOR-01")


def test_CG_CHAR_BERSERK_01_CG_CHAR_TELEPATH_01_the_named_card_is_one_of_her_two():
    """The yellow Telepath names a card the blue Berserker holds; she announced two, so one of them must be it
    (CG-CHAR-TELEPATH-01: "he must play that card"). Only her first card was compared: against +5, `card 3+5` was
    refused and `card 5+3` accepted; against +6 nothing was legal, and a timed table's fallback had nothing to play.
    A pair is one action, lowest first, whichever order it is typed in; written the other way round it is refused."""
    from dungeon_twister.engine.cards import CombatCard
    from dungeon_twister.engine.cards.timeouts import timeout_action

    frenzy = act(act(build({"bBE": "a1", "yTP": "a1", "yCO": "d4"}, combat=True), "attack bBE yTP"), "frenzy 2")
    for named in (5, 6):
        s = act(frenzy, f"mind +{named}", "Y")
        assert {(a.value, a.second) for a in legal_actions(s, "B")} == {
            (v, named) if v < named else (named, v) for v in (0, 1, 2, 3, 4, 5, 6) if v != named}
        assert parse_action(f"card {named}+3", "B") == parse_action(f"card 3+{named}", "B") == CombatCard("B", 3, named)
        s2 = act(s, f"card 3+{named}")
        assert s2.combat.second == named
        refused(s, "card 2+4", "CG-CHAR-TELEPATH-01")
        assert timeout_action(s, "B") == CombatCard("B", 0, named)
    with pytest.raises(Exception) as wrong_order:
        apply(act(frenzy, "mind +5", "Y"), CombatCard("B", 5, 3))
    assert wrong_order.value.rule == "CG-CHAR-BERSERK-01"


def test_CG_CHAR_BERSERK_01_02_frenzy_two_cards_announced_first():
    """CG-CHAR-BERSERK-01: the blue Berserker attacks the yellow Mechanork alone: Blue first announces, in public,
    how many cards (CG-CHAR-ORDER-01); announcing 2 she lays +3 and +5 (one commit: `card 3+5`): 3 + 3 + 5 = 11
    against 2 + 6 = 8; both cards leave her hand. Announcing 1, a second card is refused. CG-CHAR-BERSERK-02: no
    frenzy in a group combat, in defence, or when she shoots; against a Weapon Master both her cards are shown, in
    the event and in the views the other side chooses from."""
    from dungeon_twister.engine.cards import secret_purpose
    from dungeon_twister.engine.core.events import event_view
    s = build({"bBE": "a1", "yMK": "a1", "yWA": "d4"}, combat=True)
    s1 = act(s, "attack bBE yMK")
    assert s1.to_act == ("B",) and secret_purpose(s1, "B") is None
    s2 = act(s1, "frenzy 2")
    assert s2.to_act == ("B", "Y") and secret_purpose(s2, "B") == "combat-1"
    refused(s2, "card 3", "CG-CHAR-BERSERK-01")
    s3 = act(s2, "card 3+5")
    s4, events = apply(s3, parse_action("card 6", "Y"))
    d = next(e.data for e in events if e.kind == "combat")
    assert d["totals"] == {"B": 11, "Y": 8} and d["wounded"] == ["yMK"]
    assert s4.player("B").cards == (0, 1, 2, 2, 3, 4, 6) and parse_position_round_trips(s3)
    one = act(s1, "frenzy 1")
    refused(one, "card 3+5", "CG-CHAR-BERSERK-01")
    group = act(build({"bBE": "a1", "bSN": "a1", "yMK": "a1", "yWA": "d4"}, combat=True), "attack bBE yMK")
    assert group.combat.announcing is None
    defending = act(build({"bBE": "a1", "yMK": "a1", "yWA": "d4"}, combat=True, active="Y", ap=(0, 3)),
                    "attack yMK bBE", "Y")
    assert defending.combat.announcing is None
    master = act(act(build({"bBE": "a1", "yWM": "a1", "yWA": "d4"}, combat=True), "attack bBE yWM"), "frenzy 2")
    laid, events = apply(master, parse_action("card 2+4", "B"))
    assert event_view(events[0], "Y") == {"kind": "combat_card", "seat": "B", "value": 2, "second": 4}
    # the Weapon Master's side chooses against +2 and +4, as the spectators see them (a play-test saw only +2)
    assert laid.to_act == ("Y",) and view(laid, "Y")["combat"]["first"] == view(laid, None)["combat"]["first"] == {
        "seat": "B", "card": 2, "second": 4}
    assert (view(laid, "B")["combat"]["my_card"], view(laid, "B")["combat"]["my_second"]) == (2, 4)
    assert "my_second" not in view(laid, "Y")["combat"] and "my_second" not in view(laid, None)["combat"]
    secret = act(s1, "frenzy 2")  # no Weapon Master: her two cards are hers alone until both sides have laid
    secret = act(secret, "card 3+5")
    assert "first" not in view(secret, "Y")["combat"] and view(secret, "B")["combat"]["my_second"] == 5
    assert "my_second" not in view(secret, "Y")["combat"] and "my_second" not in view(secret, None)["combat"]


def test_CG_OBJ_INVERSION_01_RUL_117_two_rooms_change_places_with_all_they_hold():
    """The blue Wizard in a1 (room A, blue1) reads the Inversion Scroll at room B (green1, east of A): the cards
    change slots and keep their orientation; he is now in c1 (the same corner of blue1), the Key lying in d2 of
    green1 is now in b2; the scroll is gone, 1 AP. Room C (north of A) face down may be swapped too, its hidden card
    going along (RUL-117); not room D (diagonal); a Snake-man carrying the scroll cannot read it."""
    s = build({"bWZ": "a1", "yMK": "d4"}, items={"bIS": "@bWZ", "yKY": "d2"})
    s2 = act(s, "invert bWZ B")
    assert [r.card for r in s2.rooms[:2]] == ["green1", "blue1"] and s2.rooms[1].turns == s.rooms[0].turns
    assert s2.fig("bWZ").at == z("c1") and s2.item("yKY").at == z("b2") and s2.item("bIS").where == "gone"
    assert s2.player("B").ap == 2 and parse_position_round_trips(s2)
    hidden = build({"bWZ": "a1", "yMK": "d4", "ySN": "seeded:C"}, items={"bIS": "@bWZ"},
                   revealed=(True, True, False, True))
    s3 = act(hidden, "invert bWZ C")
    assert s3.rooms[0].card == "blue2" and not s3.rooms[0].revealed and s3.fig("ySN").at == 0
    assert s3.fig("bWZ").at == z("a3")
    refused(s, "invert bWZ D", "CG-OBJ-INVERSION-01")
    refused(build({"bSN": "a1", "yMK": "d4"}, items={"bIS": "@bSN"}), "invert bSN B", "CG-CHAR-WIZARD-02")



def test_CG_OBJ_INVERSION_01_DT_260_a_start_zone_character_faces_the_same_icon_of_the_room_now_in_front():
    """CG-OBJ-INVERSION-01: the rooms change places and the cards on the start zone stay: each still points the
    icon it pointed at the room in front, which is another card now (DT-260). The yellow Mechanork on Y1 faced the
    circle of blue2 (b4) and faces the circle of green2, come from D, in b3; the yellow Warrior on Y2 faced the
    triangle of green2 (c4) and faces blue2's, in c3. With a face-down room (DT-266) the card points the same icon:
    green2 face down in D, the Warrior on Y2 points its triangle (T) at it, and faces blue2's triangle (c3) once
    blue2 lies in front of him; the Mechanork's circle of blue2 (b4) becomes the circle icon pointed at green2,
    face down, in front of Y1: where that circle lies shows when green2 is revealed (there: b3, its turns 0)."""
    s = build({"yMK": "Y1>b4", "yWA": "Y2>c4", "bWZ": "a3"}, {"bIS": "@bWZ"}, ap=(3, 0))
    assert s.maze.icon(z("b4")) == "C" and s.maze.icon(z("c4")) == "T"
    swapped = act(s, "invert bWZ D")
    assert swapped.fig("yMK").facing == z("b3") and swapped.maze.icon(z("b3")) == "C"
    assert swapped.fig("yWA").facing == z("c3") and swapped.maze.icon(z("c3")) == "T"
    hidden = build({"yMK": "Y1>b4", "yWA": "Y2>T", "bWZ": "a3"}, {"bIS": "@bWZ"}, ap=(3, 0),
                   revealed=(True, True, True, False))
    kept = act(hidden, "invert bWZ D")
    assert kept.fig("yMK").facing == "C" and kept.fig("yWA").facing == z("c3") and kept.maze.icon(z("c3")) == "T"
    assert not kept.rooms[2].revealed and kept.rooms[2].card == "green2"
    shown = act(act(kept, "end"), "reveal yMK C", "Y")
    assert shown.fig("yMK").facing == z("b3") and shown.maze.icon(z("b3")) == "C"

def test_CG_MOVE_04_DT_207_the_wall_walker_is_held_by_an_enemy_as_a_mover_is():
    """CG-MOVE-04 holds a character who entered a zone with an unwounded enemy to the border it came by, that turn.
    Held to the south of a2, the Wall-Walker went out through the northern wall (refused now, as a jump is); and
    walking through a wall into a3, where the yellow Mechanork stands, did not hold her at all: she is held to that
    wall now, so she does not cross to b3 the same turn."""
    held = build({"bWW": ("a2", {"pin": "S"}), "yMK": "a2", "ySN": "d4"})
    refused(held, "wallwalk bWW a3", "CG-MOVE-04")
    s = build({"bWW": "a2", "yMK": "a3", "ySN": "d4"}, items={"bRP": "@bWW"})
    inside = act(s, "wallwalk bWW a3")
    assert inside.fig("bWW").pin == "S"
    refused(inside, "move bWW b3", "CG-MOVE-04")


def test_CG_CHAR_GOLEM_02_a_portcullis_of_his_broken_room_is_broken_for_keys_and_bars():
    """Once the Golem broke blue1's walls its portcullis a2|b2 counts as broken (CG-CHAR-GOLEM-02), never repaired:
    a Key no longer opens or closes it, and nobody bends it again (each was offered and cost 1 AP for nothing)."""
    smashed = act(build({"bGO": "a2", "bMK": "a2", "bWA": "a2", "ySN": "d4"}, items={"bKY": "@bMK"}, ap=(6, 0)),
                  "smash bGO")
    texts = {format_action(a) for a in legal_actions(smashed, "B")}
    assert not {"open bMK a2 e", "close bMK a2 e", "bend bWA a2 e"} & texts
    refused(smashed, "open bMK a2 e", "CG-CHAR-GOLEM-02")  # (the Golem's rule, not the Warrior's: a helper's audit)
    refused(smashed, "bend bWA a2 e", "CG-CHAR-GOLEM-02")
    bent = act(build({"bMK": "a2", "bWA": "a2", "ySN": "d4"}, items={"bKY": "@bMK"}, ap=(6, 0)), "bend bWA a2 e")
    refused(bent, "open bMK a2 e", "CG-CHAR-WARRIOR-01")  # bent by the Warrior: his rule
    refused(bent, "bend bWA a2 e", "CG-CHAR-WARRIOR-01")


def test_CG_CHAR_WALLWALKER_01_DT_247_no_walk_through_a_start_zone_wall():
    """DT-247: « réapparaissant dans la zone située de l'autre côté du mur »: her walk is an action of its own, no
    move, from a zone of a room to the zone of a room beyond the wall, as a jump lands in a zone (DT-207). So the
    Wall-Walker in d1 does not pass the wall d1|B2 onto her own start position, the one in a4 does not pass the wall
    a4|Y1 out of the maze by the yellow start zone, and on B2 facing d1 she does not pass it into d1. Each is refused
    under CG-CHAR-WALLWALKER-01 in words that say so (it read « CG-MOVE-02 not a zone: 'B2' »), none is listed,
    and no AP is spent. The Ghost's move, which crosses any obstacle, still exits through a4|Y1 (CG-CHAR-GHOST-01)."""
    from dungeon_twister.engine.cards import WallWalk
    home = build({"bWW": "d1", "yMK": "d4"})
    e = refused(home, "wallwalk bWW B2", "CG-CHAR-WALLWALKER-01")
    assert e.template == "{figure} passes a wall into a zone of a room, never onto a start zone"
    out = build({"bWW": "a4", "yMK": "d1"})
    refused(out, "wallwalk bWW Y1", "CG-CHAR-WALLWALKER-01")
    on_start = build({"bWW": "B2>d1", "yMK": "d4"})
    e = refused(on_start, "wallwalk bWW d1", "CG-CHAR-WALLWALKER-01")
    assert e.template == "{figure} passes a wall from a zone of a room, not from a start zone"
    for s in (home, out, on_start):
        assert not [a for a in legal_actions(s, "B") if isinstance(a, WallWalk)]
    ghost = act(build({"bGH": "a4", "yMK": "d1"}), "move bGH Y1")
    assert ghost.fig("bGH").where == "exited" and ghost.player("B").vp == 1


def test_CG_OBJ_LANCE_03_DT_248_a_wounded_enemy_beside_the_lancer_does_not_stop_the_lance():
    """DT-248: « Un personnage dans la même zone qu'un personnage ennemi ne peut pas utiliser la Lance télescopique
    pour attaquer un autre personnage dans une autre zone » is read as the same words of the shot are (RUL-110,
    CG-RANGED-05): an unwounded enemy. The blue Colossus in b1 with a lance, beside the wounded yellow Warrior, attacks
    the yellow Snake-man in b2 across the pit (listed, 5 + 0 against 2 + 0, the Snake-man wounded, the Colossus
    unhurt); once the Warrior stands (unwounded), the same attack is refused under CG-OBJ-LANCE-03."""
    s = build({"bCO": "b1", "yWA": ("b1", {"wounded": True}), "ySN": "b2", "yMK": "d4"}, items={"bLN": "@bCO"},
              combat=True)
    assert parse_action("attack bCO ySN", "B") in legal_actions(s, "B")
    s2, d = fight(s, "attack bCO ySN", 0, 0)
    assert d["totals"] == {"B": 5, "Y": 2} and d["wounded"] == ["ySN"] and not s2.fig("bCO").wounded
    assert s2.player("B").ap == 2 and s2.fig("yWA").wounded and s2.fig("yWA").where == "maze"
    standing = build({"bCO": "b1", "yWA": "b1", "ySN": "b2", "yMK": "d4"}, items={"bLN": "@bCO"}, combat=True)
    refused(standing, "attack bCO ySN", "CG-OBJ-LANCE-03")
    assert parse_action("attack bCO ySN", "B") not in legal_actions(standing, "B")


def test_CG_CHAR_ASSASSIN_01_CG_SZ_01_03_DT_248_her_lethal_blow_reaches_a_start_zone_fighter():
    """DT-248: a melee with a start-zone character is fought as in one zone (« comme s'ils étaient tous dans la même
    zone », CG-SZ-03), so the Assassin's lethal blow (« dans la même zone que l'Assassin ») takes the losers across
    that border, in a single combat as in a group: the blue Assassin in b4 beats the yellow Mechanork on Y1 facing
    b4 (2 + 1 against 2 + 0): he is eliminated, not wounded, 1 VP; with the yellow Warrior beside him on Y1 facing
    b4, both are (2 VP). The yellow Assassin on Y1 attacking from her start zone kills the blue Snake-man in b4."""
    s = build({"bAS": "b4", "yMK": "Y1>b4", "yCO": "d1"}, combat=True)
    s2, d = fight(s, "attack bAS yMK", 1, 0)
    assert (d["totals"], d["eliminated"], d["wounded"]) == ({"B": 2 + 1, "Y": 2}, ["yMK"], [])
    assert s2.player("B").vp == 1 and s2.fig("yMK").where == "eliminated"
    group = build({"bAS": "b4", "yMK": "Y1>b4", "yWA": "Y1>b4", "yCO": "d1"}, combat=True)
    s3, d = fight(group, "attack bAS yMK", 6, 0)
    assert d["totals"] == {"B": 2 + 6, "Y": 2 + 3} and d["eliminated"] == ["yMK", "yWA"]
    assert s3.player("B").vp == 2
    yellow = build({"yAS": "Y1>b4", "bSN": "b4", "bCO": "d1"}, combat=True, active="Y", ap=(0, 3))
    s4, d = fight(yellow, "attack yAS bSN", 0, 1, seat="Y")
    assert d["eliminated"] == ["bSN"] and s4.player("Y").vp == 1
