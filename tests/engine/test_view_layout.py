"""A view's static board facts come from its board's layout, made once per board; the walls and portcullises of
two boards that hold the same room in the same place are the same objects (geometry.interned), not copies."""

from __future__ import annotations

from dungeon_twister.engine import Options, apply, legal_actions, new_game, view
from dungeon_twister.engine.boardgame import views
from dungeon_twister.engine.boardgame.board import board_of
from dungeon_twister.engine.core.rng import Rng


def _played(seed: int, actions: int):
    state, rng = new_game(Options(), seed), Rng(seed + 1)
    for _ in range(actions):
        if state.outcome is not None:
            break
        state, _ = apply(state, rng.choice(legal_actions(state)))
    return state


def test_two_boards_share_the_walls_they_have_in_common_and_show_them_alike():
    states = [_played(seed, 120) for seed in range(6)]
    shown = [view(state, "B") for state in states]
    layouts = [views._LAYOUTS[board_of(state)] for state in states]  # (pits, gears, walls, portcullises, ...)
    pairs = [(a, b) for a in range(6) for b in range(a + 1, 6) if set(layouts[a][2]) & set(layouts[b][2])]
    assert pairs
    for a, b in pairs:
        theirs = {wall: wall for wall in layouts[b][2]}
        assert all(theirs[wall] is wall for wall in layouts[a][2] if wall in theirs)  # one object for both
    for state, whole in zip(states, shown):
        assert [tuple(wall) for wall in whole["walls"]] == sorted(layouts[states.index(state)][2])
        board = board_of(state)
        assert len(whole["walls"]) == sum(1 for a, b in board.walls if board.exists(a) and board.exists(b))
        assert len(whole["portcullises"]) == len(board.portcullises)
