"""A main-phase legal set as a Listing (engine/core/listing.py): the list of its actions, in the same order, whose
moves are made only when asked for (FigureMoves), and the server's LegalTable over it."""

from __future__ import annotations

import pytest

from dungeon_twister.engine import Move, format_action, legal_actions, legal_texts
from dungeon_twister.engine.boardgame.actions import EndTurn, FigureMoves
from dungeon_twister.engine.boardgame.notation import legal_table
from dungeon_twister.engine.core.choice import is_lazy
from dungeon_twister.engine.core.listing import LegalTable, Listing

from .test_move_search import main_phase_positions


def test_a_listing_is_the_list_of_its_parts_one_after_the_other():
    listing = Listing([(1, 2), [], [3], (), (4, 5, 6)])
    whole = [1, 2, 3, 4, 5, 6]
    assert len(listing) == 6 and list(listing) == whole
    assert [listing[i] for i in range(6)] == whole and [listing[i] for i in range(-6, 0)] == whole
    assert listing[1:5] == [2, 3, 4, 5] and listing[::-2] == [6, 4, 2]
    for outside in (6, -7):
        with pytest.raises(IndexError):
            listing[outside]
    assert 5 in listing and 7 not in listing
    assert listing == whole and whole == listing and listing == tuple(whole) and listing == Listing([whole])
    assert listing != [1, 2, 3, 4, 5] and listing != [1, 2, 3, 4, 5, 7]
    assert listing + [7] == whole + [7] and [0] + listing == [0] + whole
    assert listing.index(4) == 3 and listing.count(2) == 1
    assert len(Listing([])) == 0 and list(Listing([[], ()])) == []
    with pytest.raises(TypeError):
        hash(listing)  # compared by its contents, as a list


def test_main_phase_moves_are_made_when_asked_for_and_equal_the_listed_ones():
    """In main-phase positions of a seeded standard game: the legal set is a Listing, not a lazy choice (its texts
    are listed); each figure's moves are a FigureMoves that has made no Move until it is iterated; an index makes
    the same Move as the listed one (same route too); membership answers as the list does, for every listed action
    and for a Move that is not one (another seat's, same token and outcome)."""
    positions = main_phase_positions(11, 25, every=5)
    figures = 0
    for state in positions:
        fresh = legal_actions(state)
        assert isinstance(fresh, Listing) and not is_lazy(fresh)
        assert fresh[0] == EndTurn(state.to_act[0])
        parts = [part for part in fresh.parts if type(part) is FigureMoves]
        whole = list(fresh)
        assert len(whole) == len(fresh) and len(set(whole)) == len(whole)
        assert [format_action(a) for a in whole] == legal_texts(state)
        offset = {id(part): sum(len(p) for p in fresh.parts[:k]) for k, part in enumerate(fresh.parts)}
        for part in parts:
            figures += 1
            for i in range(len(part)):
                made = part[i]
                listed = whole[offset[id(part)] + i]
                assert made == listed and getattr(made, "route", None) == getattr(listed, "route", None)
                assert made in part and made in fresh
                if type(made) is Move:
                    other_seat = Move("Y" if made.seat == "B" else "B", made.token, made.dest, made.take, made.leave)
                    assert other_seat not in part and other_seat not in whole
    assert figures >= 25


def test_the_moves_of_a_figure_are_made_once_it_is_iterated_not_before():
    parts = [part for state in main_phase_positions(12, 6, every=3) for part in legal_actions(state).parts
             if type(part) is FigureMoves and len(part.routes) > 1 and part._made is None]
    assert parts
    part = parts[-1]
    assert part._made is None
    part[0], part[-1]  # made one at a time, not kept
    assert part._made is None
    made = list(part)
    assert part._made is not None and list(part) == made and all(a is b for a, b in zip(part, made))
    assert [a for a in made if type(a) is Move] == [part[i] for i in range(len(part.routes))]


def test_legal_table_makes_an_action_when_its_text_is_looked_up():
    """The server's table (legal_table): its texts in order, each looked up to the action listed at its place."""
    for state in main_phase_positions(13, 10, every=4):
        seat = state.to_act[0]
        table = legal_table(state, seat)
        assert isinstance(table, LegalTable)
        legal = list(legal_actions(state, seat))
        assert list(table) == legal_texts(state, seat) and len(table) == len(legal)
        for text, action in zip(table, legal):
            assert text in table and table[text] == action and table.get(text) == action
        assert "move bXX z0" not in table and table.get("move bXX z0") is None
