"""The move search (engine/movement.py): generated routes, and apply(Move) given no route.

BG-MOVE-01/05: a move's route is a walk of at most the figure's move value along connected squares. The walker
searches each (square, hold, reloc) state once, breadth first, so the route it gives an outcome is a shortest
one; apply(Move) searches only for the outcome it is given. Checked in main-phase positions of seeded random
games.
"""

from __future__ import annotations

from dataclasses import replace

from dungeon_twister.engine import Move, Options, apply, legal_actions, new_game
from dungeon_twister.engine.rng import Rng


def main_phase_positions(seed: int, count: int, every: int = 7):
    """`count` main-phase states of a random game from `seed`, one in `every`."""
    state, rng, out, seen = new_game(Options(), seed), Rng(seed + 1), [], 0
    while state.outcome is None and len(out) < count:
        legal = legal_actions(state)
        if state.phase == "main":
            seen += 1
            if seen % every == 0:
                out.append(state)
        state, _ = apply(state, rng.choice(legal))
    return out


def test_BG_MOVE_01_generated_routes_are_shortest_and_apply_finds_one_as_short_without_a_route():
    """Each generated Move carries a shortest route to its outcome: applying the same Move with no route
    (as typed text does) moves along a route of the same length, ending on the same square."""
    checked = 0
    for seed in (3, 11):
        for state in main_phase_positions(seed, 6):
            moves = [a for a in legal_actions(state) if isinstance(a, Move)]
            for action in moves[::5]:
                _, events = apply(state, replace(action, route=None))
                moved = next(e for e in events if e.kind == "moved")
                route = moved.data["route"]
                assert len(route) - 1 == len(action.route)  # the start square is listed first
                checked += 1
    assert checked > 20


def test_BG_MOVE_01_routes_never_exceed_the_move_value_and_follow_connected_squares():
    """BG-MOVE-01/05: every generated route has 1..move steps, each to a connected neighbour."""
    from dungeon_twister.engine.board import board_of

    for state in main_phase_positions(5, 6):
        board = board_of(state)
        for action in legal_actions(state):
            if not isinstance(action, Move):
                continue
            mover = state.tokens[action.token]
            steps = state.catalogue.characters[mover.code].move
            assert 1 <= len(action.route) <= steps
            assert action.route[-1] == action.dest
            here = mover.square
            for there in action.route:
                assert board.connected(here, there)
                here = there
