"""Mixed games of the base set and Prison (DT-109; issue 8's mixed games). The set `mixed`: both sets' rooms,
characters and objects; 4 pairs and one common team of 8 characters and 6 objects drawn from the seed."""

from __future__ import annotations

from dungeon_twister.engine import Options, format_position, new_game, parse_position
from dungeon_twister.engine.boardgame.catalogue import load
from dungeon_twister.engine.core.errors import PositionError
from dungeon_twister.engine.tools.selfplay import play_game

from ..builders import legal_set
from .builders import mixed_position

MIXED = Options(set_name="mixed")


def test_DT_109_the_mixed_set_is_the_union_of_both_sets():
    cat, base, prison = load("mixed"), load("base_set"), load("prison")
    assert set(cat.characters) == set(base.characters) | set(prison.characters) and len(cat.characters) == 13
    assert set(cat.objects) == set(base.objects) | set(prison.objects) and len(cat.objects) == 11
    assert set(cat.rooms) == set(base.rooms) | set(prison.rooms)
    assert cat.characters["NG"].abilities == prison.characters["NG"].abilities  # each keeps its own set's rules
    assert cat.characters["TR"].abilities == base.characters["TR"].abilities
    assert cat.rules == "prison" and cat.flag("reveal_from_start_zone") == "both"


def test_DT_109_a_mixed_game_draws_4_pairs_and_one_team_for_both_sides_from_the_seed():
    teams = set()
    for seed in range(6):
        state = new_game(MIXED, seed)
        numbers = sorted({load("mixed").rooms[p.tile].number for p in state.rooms})
        assert len(state.rooms) == 8 and len(numbers) == 4
        mine = {seat: sorted(t.code for t in state.tokens.values() if t.colour == seat and t.where != "unused")
                for seat in "BY"}
        assert mine["B"] == mine["Y"] and len(mine["B"]) == 14
        teams.add(tuple(mine["B"]))
        assert new_game(MIXED, seed) == state  # the same seed, the same draw
    assert len(teams) == 6


def test_DT_109_positions_of_mixed_games_round_trip_and_refuse_uneven_teams():
    state = new_game(MIXED, 3)
    text = format_position(state)
    assert parse_position(text) == state
    unused = next(t.id for t in state.tokens.values() if t.where == "unused" and t.colour == "B")
    import pytest
    with pytest.raises(PositionError, match="DT-109"):
        parse_position(text.replace(f"{unused}>unused ", ""))  # Blue would play one more token than Yellow


def test_DT_109_random_mixed_games_end():
    result = play_game(4, MIXED)
    assert result.reason == "target reached" and max(result.vp.values()) >= 5


def test_DT_109_BG_REVEAL_03_in_a_mixed_game_both_rooms_from_the_start_zone():
    """The base set's flag holds in a mixed game: a Prison character on c0 reveals A1 or B1 (not PR-CORE-05)."""
    state = mixed_position("bNG@c0 yTR@h20", rooms="A1=*O1/0 B1=*O2/0 A2=P1/0 B2=P2/0 A3=W1/0 B3=W2/0 A4=Q1/0 "
                                                   "B4=Q2/0")
    assert legal_set(state, verb="reveal") == {"reveal bNG A1", "reveal bNG B1"}
