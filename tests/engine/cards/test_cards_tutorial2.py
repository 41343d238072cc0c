"""Tutorial 2 (CG-TUT2-01..05) and the rules it brings: start-zone combat (CG-SZ-01..03), Warrior and Colossus
(bend bars, giant), Backstabber (stab, lock-picking); random games with combat (generated == accepted)."""

from __future__ import annotations

import random

import pytest

from dungeon_twister.engine.cards import (Attack, BendBars, CardOptions, CombatCard, apply, format_action,
                                          format_position, legal_actions, new_game, parse_action, parse_position)
from dungeon_twister.engine.core.rng import Rng

from .builders import accepted_iff_generated, act, build, fight, kind_first, refused, z


# --- setup -----------------------------------------------------------------------------------------------------

def test_CG_TUT2_01_02_03_setup():
    """CG-TUT2-01: 3 VP; CG-TUT2-02: 3 random pairs (twins together), 3 rooms long x 2 wide; CG-TUT2-03: Snake-man,
    Warrior, Colossus, Backstabber, Rope, Key, 3 jump cards and the 9 combat cards each."""
    s = new_game(CardOptions(tutorial=2), 4)
    cards = [r.card for r in s.rooms]
    assert len(cards) == 6 and s.length == 3 and s.target_vp == 3 and s.combat_on
    pairs = sorted(c.rstrip("12") for c in cards)
    assert pairs[0::2] == pairs[1::2] and len(set(pairs)) == 3
    assert sorted(f.code for f in s.figures if f.seat == "Y") == ["BK", "CO", "SN", "WA"]
    assert s.player("B").cards == (0, 1, 2, 2, 3, 3, 4, 5, 6) and s.player("B").jumps == 3
    assert len({tuple(r.card for r in new_game(CardOptions(2), seed).rooms) for seed in range(8)}) > 1


def test_CG_TUT2_04_two_on_the_start_zone_the_rest_seeded_1_2_1():
    """CG-TUT2-04 / RUL-111: 2 characters hidden on the start zone (not 3), the other 2 characters and 2 objects
    of each player seeded alternately: 1 card in each end room, 2 in each middle room."""
    s = new_game(CardOptions(tutorial=2), 1)
    refused(s, "hide bSN:1 bWA:1 bCO:2", "CG-TUT1-04")
    assert len(legal_actions(s, "B")) == 6 * 4
    s = act(act(s, "hide bSN:1 bCO:2"), "hide ySN:1 yCO:1", "Y")
    assert s.phase == "seed"
    seat = s.seeder
    other = "Y" if seat == "B" else "B"
    c, o = seat.lower(), other.lower()
    s = act(s, f"seed {c}WA A", seat)
    refused(s, f"seed {o}RP A", "CG-TUT2-04", other)  # an end room holds 1 card
    s = act(s, f"seed {o}WA C", other)
    s = act(s, f"seed {c}RP C", seat)
    refused(s, f"seed {o}KY C", "CG-TUT2-04", other)  # a middle room holds 2
    while s.phase == "seed":
        s = apply(s, legal_actions(s)[0])[0]
    counts = [sum(1 for x in s.items + s.figures if x.where == "seeded" and x.at == slot) for slot in range(6)]
    assert counts == [1, 1, 2, 2, 1, 1]


def test_CG_TUT2_05_revealed_characters_are_placed_and_play():
    """CG-TUT2-05 / CG-REVEAL-06/07: a revealed room holding a yellow character: Blue places it, unwounded."""
    s = build({"bSN": "B2>c1", "yWA": "seeded:B", "yCO": "a4"}, revealed=(True, False, True, True), combat=True)
    s2 = act(s, "reveal bSN B")
    assert s2.placement.queue == ("yWA",) and s2.to_act == ("B",)
    s3 = act(s2, "place yWA d2")
    assert s3.fig("yWA").where == "maze" and s3.fig("yWA").at == z("d2") and not s3.fig("yWA").wounded


# --- start-zone combat -----------------------------------------------------------------------------------------

def test_CG_SZ_01_attack_a_start_zone_character_from_the_zone_it_faces():
    """CG-SZ-01: the blue Snake-man at B1 facing b1 is attacked from b1 by the yellow Warrior: 3 + 2 against
    2 + 0, the Snake-man is wounded on his start zone; the blue Mechanork at B1 facing a1 cannot be attacked from
    b1 (and does not join the fight)."""
    s = build({"bSN": "B1>b1", "bMK": "B1>a1", "yWA": "b1", "yCO": "d4"}, combat=True, active="Y", ap=(0, 3))
    s2, d = fight(s, "attack yWA bSN", 0, 2, "Y")
    assert d["totals"] == {"B": 2, "Y": 5} and s2.fig("bSN").wounded and s2.fig("bSN").where == "start"
    refused(s, "attack yWA bMK", "CG-SZ-01", "Y")


def test_CG_SZ_01_not_across_a_wall():
    """CG-SZ-01: green1 prints a wall south of d1: a character at B2 facing d1 cannot be attacked from d1."""
    s = build({"bSN": "B2>d1", "yWA": "d1", "yCO": "d4"}, combat=True, active="Y", ap=(0, 3))
    refused(s, "attack yWA bSN", "CG-SZ-01", "Y")


def test_CG_SZ_02_03_attack_from_the_start_zone_with_everyone_facing_that_zone():
    """CG-SZ-02: the blue Snake-man at B1 facing b1 attacks the yellow Warrior in b1; CG-SZ-03: the blue
    Mechanork also at B1 facing b1 joins; the one facing a1 does not: 2 + 2 + 1 = 5 against 3 + 1 = 4."""
    s = build({"bSN": "B1>b1", "bMK": "B1>b1", "bMK2": "B1>a1", "yWA": "b1", "yCO": "d4"}, combat=True)
    s2, d = fight(s, "attack bSN yWA", 1, 1)
    assert d["totals"] == {"B": 5, "Y": 4} and d["wounded"] == ["yWA"]
    refused(s, "attack bMK2 yWA", "CG-SZ-02")


# --- characters ------------------------------------------------------------------------------------------------

def test_CG_CHAR_WARRIOR_01_bend_bars_breaks_a_portcullis_for_good():
    """CG-CHAR-WARRIOR-01 / COLOSSUS-01: 1 AP, the a2|b2 portcullis is broken: anybody passes, a Key cannot close
    it; a Snake-man cannot bend bars."""
    s = build({"bWA": "a2", "bSN": "a2", "yCO": "d4"}, items={"bKY": "@bSN"}, combat=True)
    refused(s, "bend bSN a2 e", "CG-CHAR-WARRIOR-01")
    refused(s, "bend bWA a2 n", "CG-CHAR-WARRIOR-01")
    s2 = act(s, "bend bWA a2 e")
    assert s2.maze.features(z("a2"), "E") == ("broken",) and s2.player("B").ap == 2
    assert act(s2, "move bWA b2").fig("bWA").at == z("b2")
    refused(s2, "close bSN a2 e", "CG-CHAR-WARRIOR-01")
    refused(s2, "bend bWA a2 e", "CG-CHAR-WARRIOR-01")
    assert parse_position(format_position(s2)) == s2


def test_CG_CHAR_BACKSTABBER_02_lock_picking():
    """CG-CHAR-BACKSTABBER-02: she opens the a2|b2 portcullis without a Key (1 AP)."""
    s2 = act(build({"bBK": "a2", "yCO": "d4"}, combat=True), "open bBK a2 e")
    assert s2.maze.features(z("a2"), "E") == ("open",) and s2.player("B").ap == 2


def test_CG_CHAR_BACKSTABBER_01_stab_needs_a_friend_in_the_fight():
    """CG-CHAR-BACKSTABBER-01 (CG-EX-07): Snake-man 2 + Backstabber 2 + 2 + card 3 = 9 against Colossus 5 +
    card 5 = 10; alone she fights at 2."""
    s = build({"bSN": "a1", "bBK": "a1", "yCO": "a1", "yMK": ("a1", {"wounded": True}), "ySN": "d4"}, combat=True)
    s2, d = fight(s, "attack bSN yCO", 3, 5)
    assert d["totals"] == {"B": 9, "Y": 10} and d["wounded"] == ["bBK", "bSN"] and d["eliminated"] == []
    s3, d = fight(build({"bBK": "a1", "yCO": "a1", "ySN": "d4"}, combat=True), "attack bBK yCO", 3, 0)
    assert d["totals"] == {"B": 5, "Y": 5} and d["winner"] is None


def test_CG_CHAR_COLOSSUS_02_small_characters_pass_between_his_legs():
    """CG-CHAR-COLOSSUS-02 / CG-MOVE-05: a Goblin (printed 1) crosses the enemy Colossus' zone b1; the Snake-man
    (printed 2) must stop (CG-MOVE-04)."""
    s = build({"bGB": "a1", "bSN": "a1", "yCO": "b1", "ySN": "d4"}, combat=True)
    assert act(s, "move bGB b1 c1").fig("bGB").at == z("c1")
    refused(s, "move bSN b1 c1", "CG-MOVE-04")


# --- random games ----------------------------------------------------------------------------------------------

def _game(seed: int, cap: int):
    s = new_game(CardOptions(tutorial=2), seed)
    rng = Rng(seed + 100)
    states = [s]
    while s.outcome is None and len(states) <= cap:
        s = apply(s, kind_first(rng, legal_actions(s)))[0]
        states.append(s)
    return states


@pytest.mark.parametrize("seed", [2, 26])  # end within 600 actions (measured: 271 and 473; seed 19 took 384 until
# the facings at the setup became icons, DT-266, then 600+; seed 7 took 334 until a start-zone character faced its
# zone as the room in front turned, DT-260, then 600+; seed 4's game, 380 actions, took 652 once exchanges were as
# many as wished, DT-206)
def test_CG_TUT2_random_games_end_and_generated_equals_accepted(seed):
    """Random bots play tutorial 2 to 3 VP (CG-TUT2-01); along the way every generated action applies and
    round-trips, attack / combat-card / bend candidates not generated are refused."""
    states = _game(seed, 600)
    end = states[-1]
    assert end.outcome is not None and end.player(end.outcome.winner).vp >= 3
    r = random.Random(seed)
    for i, s in enumerate(states):
        if i % 4:
            continue
        gen = set(legal_actions(s))
        for a in gen:
            assert parse_action(format_action(a), a.seat) == a
            apply(s, a)
        assert parse_position(format_position(s)) == s
        figs = [f.id for f in s.figures]
        for seat in s.to_act:
            cands = [Attack(seat, r.choice(figs), r.choice(figs)) for _ in range(10)]
            cands += [CombatCard(seat, v) for v in range(7)]
            cands += [BendBars(seat, r.choice(figs), (r.randrange(4), r.randrange(6)), r.choice("NESW"))
                      for _ in range(10)]
            accepted_iff_generated(s, cands, gen)


def test_CG_TUT2_views_do_not_depend_on_the_hidden_draw():
    """CG-REVEAL-05: at the start of tutorial 2 nothing of the draw (pairs, order, orientations, seeder, first
    player) shows to a seat or a spectator."""
    import json

    from dungeon_twister.engine.cards import view
    views = {json.dumps([view(new_game(CardOptions(2), seed), v) for v in (None, "B", "Y")], sort_keys=True)
             for seed in range(20)}
    assert len(views) == 1 and "turns" not in views.pop()
