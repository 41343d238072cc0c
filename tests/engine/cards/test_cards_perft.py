"""Perft for the card game: the number of legal actions of fixed positions (and of every position one action
further, perft 2), as tests/engine/test_perft.py does for the board game.

The first positions are counted by hand (each test says how); tests/engine/cards/data/perft.json holds regression
figures from seeded random games: a change to them is a change of the rules' outcome, or of what DT-217 calls one
outcome, and must be explained.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from dungeon_twister.engine.cards import CardOptions, Levitate, Move, Rotate, apply, legal_actions, new_game
from dungeon_twister.engine.cards.notation import parse_action, parse_position
from dungeon_twister.engine.cards.typed import legal_texts
from dungeon_twister.engine.cards.walk import _paths
from dungeon_twister.engine.core.rng import Rng

from .builders import build

CORPUS = json.loads((Path(__file__).parent / "data" / "perft.json").read_text())


def test_CG_MOVE_CG_ROT_a_lone_mechanork_in_a_rotation_zone_has_17_actions():
    """bMK (Mv 2) in a1, blue1's rotation zone, 3 AP, every room face up, nothing to pick up. By hand (borders in
    builders.py): `end`; moves to a2, b1 and onto B1 (facing a1); two steps: a2 a1 back to a1 (one outcome for
    every way back), b1 c1, b1 B1 (B1 facing b1), B1 ^a2 and B1 ^b2 (B1 ^b1 is b1 B1's outcome), and along the
    start zone to B2 facing each of room B's 4 zones: 3 + 9 = 12 moves (b1's north is a pit, a2's east a
    portcullis, a1's west a wall); tinkering turns room A or its twin C either way: 4; no pit beside him, nothing
    face down. 1 + 12 + 4 = 17."""
    s = build({"bMK": "a1", "yWA": "d4"})
    legal = legal_actions(s, "B")
    assert len(legal) == 17
    assert sum(isinstance(a, Move) for a in legal) == 12 and sum(isinstance(a, Rotate) for a in legal) == 4


def test_CG_CHAR_TELEKIN_01_02_03_a_key_two_zones_from_the_telekinetic_has_9_flights():
    """bTK in a2, the Key on a1's floor. As a flyer in 3 steps the Key ends in a2 or b1 (1 step), a1 again, b2
    over the pit, c1 (2 steps), c2 over green1's pit (3 steps); on Blue's start zone it may stop (CG-CHAR-TELEKIN-03,
    DT-221): B1 (1 step, facing a1; turning it is a step more, the same end) and B2 (2 steps, along it); a2's north
    is a wall, b2's east a slit, c1's east a portcullis: 8 drops, and in a2 the Telekinetic herself with empty hands
    may take it: 9."""
    s = build({"bTK": "a2", "yWA": "d4"}, items={"bKY": "a1"})
    assert sum(isinstance(a, Levitate) for a in legal_actions(s, "B")) == 9


def test_CG_TUT1_04_tutorial_3_hiding_is_60_choices_a_seat():
    """CG-TUT3-03 and CG-TUT1-04: 2 of 6 characters, each on B1 or B2: C(6, 2) x 2 x 2 = 60, for each seat."""
    s = new_game(CardOptions(3), 0)
    assert len(legal_actions(s, "B")) == len(legal_actions(s, "Y")) == 15 * 4


@pytest.mark.parametrize("entry", CORPUS, ids=[e["name"] for e in CORPUS])
def test_legal_action_counts_of_the_corpus(entry):
    state = parse_position(entry["position"])
    legal = legal_actions(state)
    assert len(legal) == entry["legal"], entry["note"]
    assert sum(len(legal_actions(apply(state, a)[0])) for a in legal) == entry["perft2"], entry["note"]


EXCHANGES = json.loads((Path(__file__).parent / "data" / "exchanges.json").read_text())


def assert_lists_the_recorded_moves(entry: dict, every: int) -> None:
    """The position's legal texts, in order, are the recorded ones (their count `legal` and the SHA-1 `sha1` of
    their lines), and each `every`-th move listed is one `apply` accepts, typed as its text."""
    state = parse_position(entry["position"])
    texts = legal_texts(state)
    assert len(texts) == entry["legal"], entry["note"]
    assert hashlib.sha1("\n".join(texts).encode()).hexdigest() == entry["sha1"], entry["note"]
    seat = state.to_act[0]
    for text in texts[1::every]:
        apply(state, parse_action(text, seat))


@pytest.mark.parametrize("entry", EXCHANGES, ids=[e["name"] for e in EXCHANGES])
def test_DT_206_DT_217_the_heaviest_exchange_positions_list_the_same_moves(entry):
    """DT-206 (exchanges as many as wished at every place visited) times the paths: the heaviest positions found
    in seeded random standard games (docs/scaling.md). Their legal texts, in order, are those the move search made
    before it kept each place's exchanges once per search (`_paths.exchanges`) and made each exchange's state in
    one copy (`_Cards`): a digest of the list recorded then (the search's outcomes and their shortest paths,
    DT-217). And each move listed is one `apply` accepts, typed as its text (a sample: one in 97)."""
    assert_lists_the_recorded_moves(entry, every=97)


EXCHANGE_KINDS = json.loads((Path(__file__).parent / "data" / "exchange_kinds.json").read_text())


@pytest.mark.parametrize("entry", EXCHANGE_KINDS, ids=[e["name"] for e in EXCHANGE_KINDS])
def test_DT_206_DT_220_DT_222_CG_CARRY_01_each_kind_of_exchange_lists_the_same_moves(entry):
    """The move search answers an exchange from the cards it reads (the mover's, the card it names, that card's
    holder), asked of the rules once per such cards (`_paths`, 2026-11-30): the positions of seeded random games
    whose moves take or lay a wounded friend (CG-CARRY-01, CG-WOUND-04), take an object unseen (+@HOLDER, DT-222,
    secret objects), give to a friend (CG-ITEM-03), a Paladin carrying two naming what he gives (>FRIEND/OBJECT,
    DT-220), exchanges as many as wished (DT-206). Their legal texts, in order, are those the search made before
    that session (a digest recorded with main e55494a: `legal`, `sha1`); each move listed (one in 53) is one
    `apply` accepts, typed as its text."""
    assert_lists_the_recorded_moves(entry, every=53)


def assert_plain_exchanges_are_the_rules(state) -> int:
    """Each figure of the seat to act has the same moves, in the same order, whether the search makes the
    common exchanges of objects on its card numbers (`_paths.plain`) or asks the rules of every one
    (`by_rules`); the number of moves compared."""
    seat = state.to_act[0]
    compared = 0
    if state.player(seat).ap < 1:
        return compared  # (no move: CG-TURN-07)
    for f in state.figures:
        if f.seat == seat and f.where in ("maze", "start") and not f.wounded:
            made = _paths(state, f)
            assert made == _paths(state, f, by_rules=True), f.id
            compared += len(made)
    return compared


RECORDED = EXCHANGE_KINDS + EXCHANGES[:2]


@pytest.mark.parametrize("entry", RECORDED, ids=[e["name"] for e in RECORDED])
def test_DT_206_CG_ITEM_03_exchanges_made_on_card_numbers_are_the_rules_in_the_recorded_positions(entry):
    """DT-206, CG-ITEM-03, CG-WOUND-03, DT-220, CG-CARRY-01: the move search makes a load laid, an object taken
    (lying there, or from a friend or a wounded character there) and a load given on its card numbers, without
    the rules (`_paths.plain`, 2026-11-30); every other exchange, and whatever the rules refuse, it asks of the
    rules. The positions whose moves take and lay wounded friends, take unseen, give, a Paladin with two loads,
    and the heaviest: the same moves as asking the rules of each."""
    assert assert_plain_exchanges_are_the_rules(parse_position(entry["position"])) > 0


@pytest.mark.parametrize("options", [CardOptions(2), CardOptions(3), CardOptions(3, secret_objects=True),
                                     CardOptions(None, "standard", "mutual")], ids=["t2", "t3", "t3-secret", "std"])
def test_DT_206_CG_ITEM_03_exchanges_made_on_card_numbers_are_the_rules_in_random_games(options):
    """The same in seeded random games (every fourth position of 600 actions, in the main phase), where swaps with a
    hand full, a one-handed mover's wounded friend laid or swapped on a start position (facing a zone) and
    exchanges refused to a full hand come up."""
    state, rng, compared = new_game(options, 3), Rng(4), 0
    for played in range(600):
        if state.outcome is not None:
            break
        if state.phase == "main" and played % 4 == 0:
            compared += assert_plain_exchanges_are_the_rules(state)
        state = apply(state, rng.choice(legal_actions(state)))[0]
    assert compared > 0


def test_CG_CARRY_01_CG_WOUND_03_a_wounded_friend_is_swapped_only_to_an_unwounded_friend_on_card_numbers_too():
    """CG-CARRY-01, CG-WOUND-03: a one-handed Warrior carrying his wounded Snake-man takes an object from a holder
    in his zone only by swapping: the Cleric (an unwounded friend) takes the Snake-man in exchange; a wounded
    friend or a wounded enemy does not (the search leaves that swap to the rules, which refuse it)."""
    friend = build({"bWA": "a1", "bSN": "@bWA", "bCL": "a1", "yWA": "d4"}, items={"bRP": "@bCL"})
    assert assert_plain_exchanges_are_the_rules(friend) > 0
    assert ("+bRP",) in _paths(friend, friend.fig("bWA"))
    wounded = build({"bWA": "a1", "bSN": "@bWA", "bMK": ("a1", {"wounded": True}), "yMK": ("a1", {"wounded": True}),
                     "yWA": "d4"}, items={"bKY": "@bMK", "yKY": "@yMK"})
    assert assert_plain_exchanges_are_the_rules(wounded) > 0
    paths = _paths(wounded, wounded.fig("bWA"))
    assert ("-bSN",) in paths and ("-bSN", "+bKY") in paths and ("-bSN", "+yKY") in paths
    assert not any(path[0] in ("+bKY", "+yKY") for path in paths)


def test_CG_CHAR_PALADIN_01_a_paladin_with_two_loads_leaves_one_before_he_takes_on_card_numbers_too():
    """CG-CHAR-PALADIN-01: carrying two things, the Paladin swaps nothing: he leaves one first (the search leaves
    a take with both hands full to the rules, which refuse it)."""
    state = build({"bPA": "a1", "bCL": "a1", "yWA": "d4"}, items={"bKY": "@bPA", "bRP": "@bPA", "yKY": "a1",
                                                                    "ySW": "@bCL"})
    assert assert_plain_exchanges_are_the_rules(state) > 0
    paths = _paths(state, state.fig("bPA"))
    assert ("-bKY", "+yKY") in paths and ("-bRP", "+ySW") in paths
    assert not any(path[0] in ("+yKY", "+ySW") for path in paths)
