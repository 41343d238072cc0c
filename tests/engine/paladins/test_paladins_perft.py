"""Perft counts for hand-checked Paladins & Dragons positions (issue 9): the Red Dragon (who never moves) with and
without the Ring, the Ghost through walls, the Golem beside a wall. Synthetic rooms of tests/engine/paladins/builders.py
(all revealed): A1 = O1 (ranks 1-5; crevasse b3, obstacle d3, fountain d5, gear a5), B1 = O2 (the same five files
east: g3, i3, i5, f5), A2 = P1 (ranks 6-10; pits c8 d8, gear a10), A3 = W1 (ranks 11-15; walls b13|c13 and c13|c14,
portcullises c13|d13 and c12|c13), B3 = W2."""

from __future__ import annotations

from dungeon_twister.engine import format_action, legal_actions

from .builders import pd_position


def texts(state) -> list[str]:
    return sorted(format_action(a) for a in legal_actions(state))


def test_perft_PD_CHAR_DRAGON_03_the_dragon_alone_end_and_four_breaths():
    """On c4 with nobody beside him: no move (Mv 0), no jump (PD-CHAR-DRAGON-03), no rotation (not a gear), no
    attack: end and a breath in each direction, 5."""
    assert texts(pd_position("bRD@c4 yGB@h4")) == ["breathe bRD e", "breathe bRD n", "breathe bRD s",
                                                   "breathe bRD w", "end"]


def test_perft_PD_OBJ_RING_01_the_dragon_with_the_ring():
    """With the Ring, add one teleport per empty floor square of the two revealed rooms beside A1: A2 has 25 squares
    less the pits c8 d8 and the gear a10 (22); B1 has 25 less the crevasse g3, the obstacle i3, the fountain i5,
    the gear f5 and the Goblin's h4 (20). 5 + 42 = 47; the Ring cannot be left without moving."""
    state = pd_position("bRD@c4 bRG@c4 yGB@h4")
    assert len(legal_actions(state)) == 5 + 22 + 20


def test_perft_PD_CHAR_GHOST_01_the_ghost_counts_squares_not_walls():
    """From b13 (Mv 3) through walls and portcullises the Ghost reaches every square within 3 steps of b13 counted
    on the grid alone (no pit, terrain or token there): files a-e, ranks 10-16: 1 + 3 + 5 + 7 + 5 + 3 + 1 squares
    by rank less b13 itself, and the squares beyond the west edge do not exist. Plus end."""
    reach = [(x, y) for x in range(10) for y in range(20) if 0 < abs(x - 1) + abs(y - 12) <= 3]
    state = pd_position("bGH@b13 yGB@h4")
    assert len(reach) == 20
    assert len(legal_actions(state)) == len(reach) + 1


def test_perft_PD_CHAR_GOLEM_01_the_golem_beside_a_wall():
    """The Golem on b13 (Mv 2): a13 b12 b14 in one step, a12 a14 b11 b15 c12 c14 in two (c13 lies behind the wall
    b13|c13 and behind the wall c13|c14 and the portcullis c12|c13): 9 moves; the wall east of him: 1 smash; end."""
    state = pd_position("bGO@b13 yGB@h4")
    assert texts(state) == ["end", *sorted(f"move bGO {sq}" for sq in
                                           ("a13", "b12", "b14", "a12", "a14", "b11", "b15", "c12", "c14")),
                            "smash bGO e"]
