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


def test_memoised_figure_actions_do_not_depend_on_history():
    """legal_actions memoises each figure's actions on exactly what they depend on (engine/moves.py `_key`): in
    positions reached by a game, the list (order and routes included) is the one computed with an empty memo, and
    apply of a listed move (found in the memo) gives what the search without it gives."""
    from dungeon_twister.engine import format_action, format_position, moves

    def listed(state):
        return [(format_action(a), getattr(a, "route", None)) for a in legal_actions(state)]

    checked = 0
    for seed in (2, 7):
        for state in main_phase_positions(seed, 8, every=5):
            remembered = listed(state)
            first = next((a for a in reversed(legal_actions(state)) if isinstance(a, Move)), legal_actions(state)[0])
            after, _ = apply(state, first)
            moves._cache.clear()
            assert listed(state) == remembered
            moves._cache.clear()
            assert format_position(apply(state, first)[0]) == format_position(after)
            checked += 1
    assert checked == 16


def test_the_memos_are_bounded():
    """The figure memo and the token interning keep at most CACHE_SIZE and INTERNED entries."""
    from dungeon_twister.engine import context, moves

    main_phase_positions(4, 40, every=1)
    assert 0 < len(moves._cache) <= moves.CACHE_SIZE
    assert 0 < len(context._interned) <= context.INTERNED
