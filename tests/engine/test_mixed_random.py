"""The mixed-game random-play checker (tests/engine/mixed_random.py) on a few seeds: every mix and way of building
its teams (PD-TEAM-02, PD-TEAM-MUTUAL, PD-TEAM-FREE, DT-109, DT-119, DT-120) plays to its end with every action
generated, accepted and round-tripped, and no view or event naming a token its viewer may not know. The script
runs it on many seeds (its docstring); the run of the mix30 review is in its report."""

from __future__ import annotations

from collections import Counter

import pytest

from dungeon_twister.engine import view
from dungeon_twister.engine.core.rng import Rng

from . import mixed_random
from .mixed_random import MIXED, crowded_position, leaks, play


@pytest.mark.parametrize("variant", sorted(MIXED))
def test_PD_TEAM_02_a_mixed_game_plays_to_its_end_with_every_invariant(variant):
    stats = Counter()
    problems = play(variant, 7, cap=3000, apply_every=15, accepted_every=0, position_every=40,
                    bots=("greedy", "random") if "free" in variant else ("random", "greedy"), stats=stats)
    assert problems == []
    assert stats["games"] == 1


def test_the_leak_check_sees_a_hidden_token_named_in_a_view(monkeypatch):
    """Control: a view that names the tokens face down in rooms is caught (DT-005, PD-TEAM-FREE-01)."""
    def leaky(state, viewer, shared=False):
        out = view(state, viewer)
        out["debug"] = sorted(t.id for t in state.tokens.values() if t.where == "room")
        return out
    monkeypatch.setattr(mixed_random, "view", leaky)
    problems = play("all-sets-free", 3, cap=60, apply_every=0, accepted_every=0, position_every=0,
                    bots=("greedy", "greedy"), stats=Counter())
    assert any("view names" in p for p in problems)


def test_crowded_positions_are_drawn_and_read():
    rng = Rng(5)
    drawn = [crowded_position(rng) for _ in range(40)]
    states = [s for s in drawn if s is not None]
    assert len(states) >= 5
    assert all(leaks(s, s, ()) == [] for s in states)
