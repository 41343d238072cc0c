"""The card game's general rules that no power or tutorial test covers: components (CG-COMP), the maze (CG-ZONE),
the golden rules (CG-GOLD), action points (CG-AP), facings (CG-START), moves (CG-MOVE), objects (CG-ITEM), combat
kinds (CG-COMBAT), wounded cards (CG-WOUND) and the scenario card (CG-SCEN). Positions on the maze of builders.py."""

from __future__ import annotations

import pytest

from dungeon_twister.engine.cards import (CardOptions, CombatCard, Face, Rotate, apply, legal_actions, new_game,
                                          parse_action, view)
from dungeon_twister.engine.cards.maze import slot_of, slot_zones
from dungeon_twister.engine.core.rng import Rng

from .builders import act, build, fight, refused, z


def test_CG_COMP_05_combat_cards_all_in_hand_chosen_freely_never_drawn():
    """Both players hold all 9 combat cards and 3 jump cards from the start; in a combat every value in hand may be
    laid, the +6 first of all; a laid card leaves the hand, the +0 comes back (CG-COMBAT-05)."""
    s = new_game(CardOptions(tutorial=2), 3)
    assert all(s.player(seat).cards == (0, 1, 2, 2, 3, 3, 4, 5, 6) and s.player(seat).jumps == 3 for seat in "BY")
    fighting = act(build({"bSN": "a1", "yMK": "a1", "ySN": "d4"}, combat=True), "attack bSN yMK")
    assert legal_actions(fighting, "B") == [CombatCard("B", v) for v in (0, 1, 2, 3, 4, 5, 6)]
    after, d = fight(build({"bSN": "a1", "yMK": "a1", "ySN": "d4"}, combat=True), "attack bSN yMK", 6, 0)
    assert after.player("B").cards == (0, 1, 2, 2, 3, 3, 4, 5)
    assert after.player("Y").cards == (0, 1, 2, 2, 3, 3, 4, 5, 6)


def test_CG_ZONE_02_a_rectangle_of_rooms_two_zones_a_side():
    """Tutorial 3's maze: 2 rooms wide, 4 long; its 32 zones form a 4 x 8 grid, each room a 2 x 2 block of it."""
    s = new_game(CardOptions(tutorial=3), 0)
    assert len(s.rooms) == 8 and s.length == 4
    zones = [zone for slot in range(8) for zone in slot_zones(slot)]
    assert sorted(zones) == [(x, y) for x in range(4) for y in range(8)]
    for slot in range(8):
        xs, ys = {x for x, _ in slot_zones(slot)}, {y for _, y in slot_zones(slot)}
        assert len(xs) == len(ys) == 2 and max(xs) - min(xs) == max(ys) - min(ys) == 1
        assert all(slot_of(zone) == slot for zone in slot_zones(slot))


def test_CG_ZONE_05_a_card_lies_by_its_room_and_zone_icon_and_turns_with_the_room():
    """A room's four zones carry the four icons; the Snake-man on blue1's triangle (a2) is still on its triangle
    after the Mechanork turns room A, in another grid zone."""
    s = build({"bMK": "a1", "bSN": "a2", "yWA": "d4"})
    mz = s.maze
    assert sorted(mz.icon(zone) for zone in slot_zones(0)) == ["C", "R", "S", "T"]
    assert mz.icon(z("a2")) == "T" and mz.zone_of_icon(0, "T") == z("a2")
    turn = next(a for a in legal_actions(s, "B") if isinstance(a, Rotate) and a.slot == 0)
    turned = apply(s, turn)[0]
    sn = turned.fig("bSN")
    assert sn.at != z("a2") and slot_of(sn.at) == 0 and turned.maze.icon(sn.at) == "T"


def test_CG_ZONE_07_a_double_wall_is_one_wall():
    """With blue2 (room C) turned a quarter, b4|c4 carries a wall printed by both cards: one wall, which the
    Wall-Walker passes in one action like any other."""
    s = build({"bWW": "b4", "yMK": "a1"}, rooms=(("blue1", 0), ("green1", 0), ("blue2", 1), ("green2", 0)))
    mz = s.maze
    assert "wall" in mz._printed(z("b4"), "E") and "wall" in mz._printed(z("c4"), "W")
    assert mz.features(z("b4"), "E") == ("wall",)
    assert act(s, "wallwalk bWW c4").fig("bWW").at == z("c4")


def test_CG_GOLD_01_an_action_is_resolved_before_another_starts():
    """While a combat waits for its cards, or a revealed room's cards for their places, no other action starts."""
    fighting = act(build({"bSN": "a1", "yMK": "a1", "bMK": "b1", "ySN": "d4"}, combat=True), "attack bSN yMK")
    refused(fighting, "move bMK b2", "CG-GOLD-01")
    refused(fighting, "end", "CG-GOLD-01")
    s = build({"bMK": "B2>c1", "yWA": "a4"}, revealed=(True, False, True, True),
              items={"yKY": "seeded:B", "yRP": "seeded:B"})
    placing = act(s, "reveal bMK B")
    assert placing.phase == "place"
    refused(placing, "move bMK c1", "CG-GOLD-01", seat=placing.to_act[0])


def test_CG_AP_01_each_action_costs_1_ap():
    """Reveal, move, rotate, jump, an activated ability (bend bars), an activated object (the Key), a melee and a
    shot each take 1 AP of the wheel's 3."""
    def spent(s, text):
        return s.player("B").ap - act(s, text).player("B").ap

    assert spent(build({"bMK": "B2>c1", "yWA": "a4"}, revealed=(True, False, True, True)), "reveal bMK B") == 1
    assert spent(build({"bSN": "a1", "yWA": "d4"}), "move bSN a2") == 1
    s = build({"bMK": "a1", "yWA": "d4"})
    turn = next(a for a in legal_actions(s, "B") if isinstance(a, Rotate))
    assert s.player("B").ap - apply(s, turn)[0].player("B").ap == 1
    assert spent(build({"bSN": "b1", "yWA": "d4"}), "jump bSN b2") == 1
    assert spent(build({"bWA": "a2", "yMK": "d4"}, combat=True), "bend bWA a2 e") == 1
    assert spent(build({"bMK": "a2", "yWA": "d4"}, items={"bKY": "@bMK"}), "open bMK a2 e") == 1
    assert spent(build({"bSN": "a1", "yMK": "a1", "ySN": "d4"}, combat=True), "attack bSN yMK") == 1
    assert spent(build({"bCB": "d4", "yWA": "d1", "yMK": "a1"}, combat=True), "shoot bCB yWA") == 1


def test_CG_START_02_each_player_chooses_the_facing_of_each_start_character():
    """After the hiding and the seeding of tutorial 1 comes the secret choice of facings: one per start character,
    any of the 4 zones of the room in front (16 choices for 2 characters); one left out is refused."""
    s = new_game(CardOptions(tutorial=1), 2)
    rng = Rng(2)
    while s.phase != "face":
        s = apply(s, rng.choice(legal_actions(s)))[0]
    mine = sorted(f.id for f in s.figures if f.seat == "B" and f.where == "start")
    offered = legal_actions(s, "B")
    assert len(mine) == 2 and len(offered) == 16 and all(isinstance(a, Face) for a in offered)
    assert {fid for a in offered for fid, _ in a.facings} == set(mine)
    first = s.fig(mine[0])
    refused(s, f"face {first.id}:{'a1' if first.at == 0 else 'c1'}", "CG-START-02")  # the other one left out


def test_CG_MOVE_07_the_card_ends_by_its_destination_and_three_a_side_at_most():
    """The Snake-man ends in a2; into a1 holding three blue characters he may not end, through it he may pass."""
    s = build({"bSN": "b1", "bMK": "a1", "bWA": "a1", "bCL": "a1", "yWA": "d4"})
    assert act(s, "move bSN a1 a2").fig("bSN").at == z("a2")
    refused(s, "move bSN a1", "CG-GOLD-02")
    two = build({"bSN": "b1", "bMK": "a1", "bWA": "a1", "yWA": "d4"})
    assert act(two, "move bSN a1").fig("bSN").at == z("a1")


def test_CG_MOVE_08_start_zone_steps_cost_movement_points():
    """On B1 facing a1, turning to b1, stepping along to B2 facing c1 and entering c1 take the Snake-man's 3
    points; a 4th step is refused, and the Mechanork (2) cannot do the 3."""
    s = build({"bSN": "B1>a1", "bMK": "B1>a1", "yWA": "d4"})
    assert act(s, "move bSN ^b1 B2^c1 c1").fig("bSN").at == z("c1")
    refused(s, "move bSN ^b1 B2^c1 c1 b1", "CG-MOVE-01")  # c1|b1 is open: the points are spent
    refused(s, "move bMK ^b1 B2^c1 c1", "CG-MOVE-01")
    assert act(s, "move bMK B2^c1 c1").fig("bMK").at == z("c1")


def test_CG_ITEM_05_permanent_activated_single_use_and_spellcasters_only():
    """The Rope works by itself (a move across the pit b1|b2 costs the move's 1 AP); the Key is activated for 1 AP
    and kept (unlimited use: open, then close); the Fireball Scroll is single use (discarded) and marked M: the
    Wizard reads it, the Mechanork carrying it may not."""
    rope = act(build({"bMK": "b1", "yWA": "d4"}, items={"bRP": "@bMK"}), "move bMK b2")
    assert rope.fig("bMK").at == z("b2") and rope.player("B").ap == 2 and rope.fig("bMK").carries == ("bRP",)
    key = build({"bMK": "a2", "yWA": "d4"}, items={"bKY": "@bMK"})
    twice = act(act(key, "open bMK a2 e"), "close bMK a2 e")
    assert twice.player("B").ap == 1 and twice.fig("bMK").carries == ("bKY",)
    scroll = build({"bWZ": "a1", "yMK": "a2", "ySN": "d4"}, items={"bFB": "@bWZ"})
    assert act(scroll, "fireball bWZ yMK").item("bFB").where == "gone"
    refused(build({"bMK": "a1", "yMK": "a2", "ySN": "d4"}, items={"bFB": "@bMK"}), "fireball bMK yMK",
            "CG-CHAR-WIZARD-02")


def test_CG_COMBAT_07_single_combat_is_two_characters_group_combat_three_or_more():
    """Attacker and one enemy: a single combat, where the Telepath names a card and the Berserker announces his
    cards; a second enemy there makes a group combat, where neither power works."""
    single = act(build({"bTP": "a1", "yMK": "a1", "yWA": "d4"}, combat=True), "attack bTP yMK")
    assert [len(ids) for _, ids in single.combat.sides] == [1, 1] and single.combat.naming == "B"
    group = act(build({"bTP": "a1", "yMK": "a1", "ySN": "a1", "yWA": "d4"}, combat=True), "attack bTP yMK")
    assert [len(ids) for _, ids in group.combat.sides] == [1, 2] and group.combat.naming is None
    berserk = act(build({"bBE": "a1", "yMK": "a1", "yWA": "d4"}, combat=True), "attack bBE yMK")
    assert berserk.combat.announcing == "B"
    crowd = act(build({"bBE": "a1", "yMK": "a1", "ySN": "a1", "yWA": "d4"}, combat=True), "attack bBE yMK")
    assert crowd.combat.announcing is None


def test_CG_WOUND_02_a_wounded_card_is_seen_by_everyone_with_what_it_carries():
    """The wounded blue Mechanork in a1 shows as wounded, with the Key under it, to Yellow and to spectators."""
    s = build({"bMK": ("a1", {"wounded": True}), "yWA": "d4"}, items={"bKY": "@bMK"})
    for viewer in ("Y", None):
        mk = next(f for f in view(s, viewer)["figures"] if f["id"] == "bMK")
        assert mk["wounded"] is True and mk["carries"] == "bKY" and mk["at"] == "a1"


def test_CG_SCEN_01_the_scenario_card_gives_target_rooms_teams_and_cards_per_room():
    """The standard card (RUL-112): 5 VP, 4 room pairs laid 4 long, 6 characters and 4 objects a player, 2 of the
    characters on the start zone and 2 cards beside each room."""
    s = new_game(CardOptions(tutorial=None, scenario="standard", teams="mutual"), 5)
    assert s.target_vp == 5 and s.length == 4 and len(s.rooms) == 8 and s.phase == "select"
    assert len({r.card.rstrip("12") for r in s.rooms}) == 4  # four pairs of twins
    rng = Rng(5)
    while s.phase not in ("main", "over"):
        s = apply(s, rng.choice(legal_actions(s)))[0]
    for seat in "BY":
        assert sum(f.seat == seat for f in s.figures) == 6 and sum(i.seat == seat for i in s.items) == 4
        assert sum(f.seat == seat and f.where == "start" for f in s.figures) == 2
    per_room = [sum(c.where == "seeded" and c.at == slot for c in (*s.figures, *s.items)) for slot in range(8)]
    assert per_room == [2] * 8


def test_CG_SCEN_02_CG_TUT3_02_a_full_room_is_refused_citing_the_setup_that_fills_it():
    """A room already holding the cards its setup gives it refuses one more, citing the rule of that setup:
    tutorial 1 CG-TUT1-04 (1 a room), tutorial 3 CG-TUT3-02 (2), the standard scenario card CG-SCEN-02 (2, "set up
    as in the tutorials")."""
    from dataclasses import replace as with_fields

    from dungeon_twister.engine.cards.select import pickable

    for options, rule in ((CardOptions(1), "CG-TUT1-04"), (CardOptions(3), "CG-TUT3-02"),
                          (CardOptions(None, "standard", "mutual"), "CG-SCEN-02")):
        s = new_game(options, 3)
        rng = Rng(3)
        while s.phase != "seed":
            seat = s.to_act[0]
            if s.phase == "select":
                s = apply(s, parse_action(f"pick {pickable(s, seat)[0]}", seat))[0]
            else:
                s = apply(s, rng.choice(legal_actions(s, seat)))[0]
        seeder = s.seeder
        hand = [c for c in (*s.items, *s.figures) if c.seat == seeder and c.where == "hand"]
        per_room = s.options.setup["cards_per_row"][0]
        for card in hand[:per_room]:  # room A filled with the seeder's own cards
            s = (s.with_item(with_fields(card, where="seeded", at=0)) if s.has_item(card.id)
                 else s.with_figure(with_fields(card, where="seeded", at=0)))
        refusal = refused(s, f"seed {hand[per_room].id} A", rule, seat=seeder)
        assert refusal.message == f"that room already holds all the cards its setup gives it ({per_room})"


@pytest.mark.parametrize("text, rule, template", [
    ("open bMK c1 e", "CG-OBJ-KEY-01", "only a portcullis on a border of its own zone"),
    ("bend bMK a1 e", "CG-CHAR-WARRIOR-01", "{figure} cannot bend bars"),
    ("bend bWA a1 e", "CG-CHAR-WARRIOR-01", "only a portcullis on a border of its own zone"),
    ("move yMK d3", "CG-AP-02", "{figure} is not yours"),
    ("move bMK -bRP", "CG-ITEM-01", "{figure} does not carry {item}"),
    ("move bMK ^b1", "CG-START-04", "facing is chosen only on the start zone"),
])
def test_CG_refusals_met_only_by_sweeps_cite_their_rule(text, rule, template):
    """Found by the audit ta29 (a trace of the refusals whose rule a test reads): these were met only by the sweeps
    that apply every candidate and read no rule. The Mechanork on a1 holds the Key; the Warrior on b1 is not in a1."""
    state = build({"bMK": "a1", "bWA": "b1", "bSN": "a1", "yMK": "d4", "ySN": "c1"},
                  items={"bKY": "@bMK", "bRP": "@bSN"})
    assert refused(state, text, rule).template == template


def test_CG_RANGED_02_a_shot_at_a_friend_is_refused_as_at_no_enemy():
    """CG-RANGED-02 names an enemy character as the target: the Crossbowman's own Mechanork is not one."""
    state = build({"bCB": "d1", "bMK": "d3", "yMK": "a4"}, combat=True)
    assert refused(state, "shoot bCB bMK", "CG-RANGED-02").template == "{target} is not an enemy character"
