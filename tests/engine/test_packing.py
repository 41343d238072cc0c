"""A game that waits keeps its memo packed (engine/boardgame/packing.py, `moves.pack_memo`) and the server's legal
table as one string (`LegalTable.pack`): nothing any call gives changes, only the memory it takes (issue 7, row 5)."""

from __future__ import annotations

import pytest

from dungeon_twister.engine import Move, Options, apply, format_action, legal_actions, new_game
from dungeon_twister.engine.boardgame.actions import FigureMoves
from dungeon_twister.engine.boardgame.board import board_of
from dungeon_twister.engine.boardgame.moves import _peek, pack_memo
from dungeon_twister.engine.boardgame.notation import legal_table
from dungeon_twister.engine.boardgame.packing import SQUARES, pack
from dungeon_twister.engine.core.listing import LegalTable, Listing
from dungeon_twister.engine.core.rng import Rng


def _positions(options: Options, seed: int, count: int):
    """Main-phase states of a random game, and the action played from each (one in 3 listed and checked)."""
    state, rng, seen = new_game(options, seed), Rng(seed + 1), 0
    while state.outcome is None and count:
        legal = legal_actions(state)
        action = rng.choice(legal)
        if state.phase == "main":
            seen += 1
            if seen % 3 == 0:
                count -= 1
                yield state, action
        state, _ = apply(state, action)


def _listed(state, seat: str) -> tuple[list, list, list, dict]:
    """(texts, actions, their routes, the memo's route of each Move) as the state lists them now."""
    table = legal_table(state, seat)
    texts = list(table)
    actions = [table[text] for text in texts]
    board = board_of(state)
    peeked = {}
    for action in actions:
        if type(action) is Move:
            entry = _peek(state, board, seat, state.tokens[action.token])
            peeked[action] = entry.route((action.dest, action.take, action.leave))
    return texts, actions, [getattr(a, "route", None) for a in actions], peeked


@pytest.mark.parametrize("options", [Options(), Options(set_name="prison"), Options(set_name="paladins")],
                         ids=["base", "prison", "paladins"])
def test_a_packed_memo_lists_and_applies_exactly_as_before(options):
    """In main-phase positions of random games: once the memo is packed, the legal texts, the actions at each
    place (routes too), membership, the route a move's apply finds in the memo (`_peek`), and the state and events
    of the action played are those of the memo before packing; the entries are packed indeed, outcomes that take
    or leave something among them, and the board, once its reach memos have grown, keeps those of the figures'
    squares only."""
    packed = taking = positions = prunes = 0
    for state, action in _positions(options, 7, 30):
        positions += 1
        seat = state.to_act[0]
        texts, actions, routes, peeked = _listed(state, seat)
        before = apply(state, action)
        board = board_of(state)
        grown = board.reach_count()
        pack_memo(state)
        assert state.memo.occ is None  # made again when asked for
        if grown > 48:  # the board's reach memos are pruned to what the figures standing now use
            prunes += 1
            standing = [t for t in state.tokens.values() if t.where == "board" and t.is_character]
            for code, memo in board.regions.items():  # the squares of figures of that kind, no other
                assert set(memo) <= {t.square for t in standing if t.code == code}
            assert all(len(memo) <= len(standing) for memo in board._reach.values())
        entries = [entry for _, entry in state.memo.entries.values()]
        for entry in entries:
            moves = entry.actions
            if moves._packed is not None:
                assert moves.routes is None and moves._made is None
                packed += 1
                taking += any(key >= 256 for key in moves._packed.keys)  # a record of a key that takes or leaves
            if entry.texts:
                assert type(entry.texts) is str
        assert _listed(state, seat) == (texts, actions, routes, peeked)
        assert all(route is not None for route in peeked.values())
        legal = legal_actions(state, seat)
        assert isinstance(legal, Listing) and list(legal) == actions and len(legal) == len(actions)
        assert [format_action(a) for a in legal] == texts
        assert all(a in legal for a in actions)
        after = apply(state, action)
        assert after[0] == before[0] and after[1] == before[1]
    assert positions == 30 and packed >= 30 and taking >= 1 and prunes >= 1


def test_a_figures_packed_moves_are_its_moves():
    """One FigureMoves with outcomes that take and leave: packed, it has the same length, items, routes and
    membership; a Move of another seat, or not among them, is not in it."""
    parts = [part for state, _ in _positions(Options(), 12, 40) for part in legal_actions(state).parts
             if type(part) is FigureMoves and any(take or leave for _, take, leave in part.outcomes_listed)]
    assert parts
    part = parts[-1]
    made = list(part)
    outcomes = dict(part.outcomes())
    part.pack()
    assert part.routes is None and part._made is None and len(part) == len(made)
    assert [part[i] for i in range(len(made))] == made
    assert [part[i].route for i in range(len(outcomes))] == list(outcomes.values())
    assert list(part.keys()) == list(outcomes) and dict(part.outcomes()) == outcomes
    assert all(part.route(key) == route for key, route in outcomes.items())
    assert all(action in part for action in made)
    move = made[0]
    assert Move("Y" if move.seat == "B" else "B", move.token, move.dest, move.take, move.leave) not in part
    assert Move(move.seat, move.token, (9, 30), move.take, move.leave) not in part  # no byte names that square
    assert Move(move.seat, move.token, move.dest, "zz", move.leave) not in part  # a token none of them names


def test_a_route_is_found_only_where_a_record_starts():
    """The records of keys that take or leave are found by their bytes: bytes that match across two records (the
    tail of one, the head of the next) are no key of them."""
    a1, b1, c1 = (0, 0), (1, 0), (2, 0)
    outcomes = {(b1, None, (("o1", a1),)): (a1, b1),  # record bytes: b1, 0, 1, 0 ("o1"), a1
                (c1, "o1", ()): (b1, c1),  # c1, 1 ("o1"), 0
                (a1, None, ()): (a1,)}
    packed = pack(outcomes)
    assert packed is not None and packed.taken[1:4] == bytes((0, 1, 0))
    ghost = (SQUARES[0], "o1", ())  # its bytes 0, 1, 0 lie inside the first record
    assert packed.route(ghost) is None
    assert [packed.route(key) for key in outcomes] == list(outcomes.values())
    assert [packed.item(i) for i in range(3)] == list(outcomes.items()) == list(packed.items())
    assert packed.route((a1, None, (("o1", c1),))) is None and packed.route("nonsense") is None
    assert pack({((12, 3), None, ()): ((12, 3),)}) is None  # a square outside the codes: left as it was
    assert pack({}) is not None and len(pack({})) == 0


def test_outcomes_past_the_packed_forms_limits_are_left_as_they_are():
    """`pack` gives None, and the entry keeps its outcomes as they were, for more than 256 tokens left, for routes of
    more than 65,535 squares in all, and for records of keys that take or leave past what a 2-byte key holds; up to
    those limits, what it packs reads back the same, takes and leaves together too."""
    a1, b1 = (0, 0), (1, 0)
    named = {(b1, None, ((f"t{i}", a1),)): (b1,) for i in range(257)}  # a 257th token left: past a byte's ids
    assert pack(named) is None
    del named[(b1, None, (("t256", a1),))]
    assert pack(named) is not None and [pack(named).route(key) for key in named] == list(named.values())
    assert pack({(a1, None, ()): (b1,) * 65_536}) is None and pack({(a1, None, ()): (b1,) * 65_535}) is not None
    many = {(SQUARES[n % 250], "t7" if n % 2 else None, tuple((f"t{i}", SQUARES[n // 250]) for i in range(100))):
            (a1, SQUARES[n % 250]) for n in range(400)}  # each record 3 + 200 bytes: 322 keys fit, not the 323rd
    assert pack(many) is None
    fitting = dict(list(many.items())[:322])
    packed = pack(fitting)
    assert packed is not None and list(packed.items()) == list(fitting.items())
    assert pack(dict(list(many.items())[:323])) is None


def test_a_packed_legal_table_finds_its_texts_and_nothing_else():
    state = next(state for state, _ in _positions(Options(), 13, 20) if len(legal_actions(state)) > 2)
    seat = state.to_act[0]
    table = legal_table(state, seat)
    assert isinstance(table, LegalTable)
    texts = list(table)
    actions = [table[text] for text in texts]
    table.pack()
    assert table.texts is None and list(table) == texts and len(table) == len(texts)
    assert [table[text] for text in texts] == actions and all(text in table for text in texts)
    for stranger in (f"{texts[0]}\n{texts[1]}", texts[1][:-1], f"{texts[1]} ", "", "\n", None, 7, ("end",)):
        assert stranger not in table and table.get(stranger) is None
        with pytest.raises(KeyError):
            table[stranger]
    empty = LegalTable([], [])
    empty.pack()
    assert list(empty) == [] and len(empty) == 0 and "" not in empty
