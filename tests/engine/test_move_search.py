"""The move search (engine/boardgame/movement.py): generated routes, and apply(Move) given no route.

BG-MOVE-01/05: a move's route is a walk of at most the figure's move value along connected squares. The walker
searches each (square, hold, reloc) state once, breadth first, so the route it gives an outcome is a shortest
one; apply(Move) searches only for the outcome it is given. Checked in main-phase positions of seeded random
games.
"""

from __future__ import annotations

from dataclasses import replace

from dungeon_twister.engine import Move, Options, apply, format_action, legal_actions, new_game
from dungeon_twister.engine.core.rng import Rng


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


def standing_figures(seeds, count: int):
    """(state, board, figure) for each unwounded character on the board, in `count` main-phase positions (one in
    3) of the random game of each seed."""
    from dungeon_twister.engine.boardgame.board import board_of

    for seed in seeds:
        for state in main_phase_positions(seed, count, every=3):
            board = board_of(state)
            for figure in state.tokens.values():
                if figure.where == "board" and figure.is_character and not figure.wounded:
                    yield state, board, figure


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
    from dungeon_twister.engine.boardgame.board import board_of

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


def _without_memo(state):
    """An equal state with an empty memo of its own (`GameState.memo`)."""
    copy = state.thaw()
    object.__setattr__(copy, "_memo", None)
    return copy.seal()


def test_memoised_figure_actions_do_not_depend_on_history():
    """legal_actions memoises each figure's actions on exactly what they depend on (engine/boardgame/moves.py `_key`): in
    positions reached by a game, the list (order and routes included) is the one computed with an empty memo, and
    apply of a listed move (found in the memo) gives what the search without it gives."""
    from dungeon_twister.engine import format_action, format_position

    def listed(state):
        return [(format_action(a), getattr(a, "route", None)) for a in legal_actions(state)]

    checked = 0
    for seed in (2, 7):
        for state in main_phase_positions(seed, 8, every=5):
            remembered = listed(state)
            first = next((a for a in reversed(legal_actions(state)) if isinstance(a, Move)), legal_actions(state)[0])
            after, _ = apply(state, first)
            assert listed(_without_memo(state)) == remembered
            assert format_position(apply(_without_memo(state), first)[0]) == format_position(after)
            checked += 1
    assert checked == 16


class _Counting:
    """Counts the move searches (walkers made by engine/boardgame/moves.py through `walker_for`: a memo miss in
    legal_actions or apply)."""

    def __init__(self, monkeypatch):
        from dungeon_twister.engine.boardgame import moves

        self.count = 0
        walker = moves.walker_for

        def counted(*args):
            self.count += 1
            return walker(*args)

        monkeypatch.setattr(moves, "walker_for", counted)


def _play(games: dict, order: list, forget: bool = False) -> list:
    """Play one random action of each game named in `order`, in that order; the texts listed on the way.
    `forget`: each position is listed and applied with an empty memo."""
    listed = []
    for name in order:
        state, rng = games[name]
        if state.outcome is not None:
            continue
        if forget:
            state = _without_memo(state)
        legal = legal_actions(state)
        listed.append((name, [format_action(a) for a in legal]))
        state, _ = apply(state, rng.choice(legal))
        games[name] = (state, rng)
    return listed


def test_the_memo_travels_with_each_game_so_many_interleaved_games_keep_their_hits(monkeypatch):
    """A server holds many games and steps them in turn: each game's memo (`GameState.memo`, handed on by apply)
    serves its own positions, so 20 games played one action each in turn make exactly the move searches they make
    played one after the other (no cache shared by the games to overflow), and the memo spares about half the
    searches made when every position starts with an empty memo (those of the figures near the one that moved,
    and of the first 150 actions' setup, remain). The lists are those of an empty
    memo."""
    from dungeon_twister.engine.boardgame import context

    def fresh():
        return {seed: (new_game(Options(), seed), Rng(seed + 1)) for seed in range(20)}

    steps = 150
    counting = _Counting(monkeypatch)
    context._interned.clear()  # token interning (bounded, process-wide) only decides which objects are reused
    games = fresh()
    alone = [item for seed in range(20) for item in _play(games, [seed] * steps)]
    searches_alone = counting.count
    counting.count = 0
    context._interned.clear()
    games = fresh()
    interleaved = _play(games, [seed for _ in range(steps) for seed in range(20)])
    assert counting.count == searches_alone
    assert sorted(interleaved) == sorted(alone)
    searches = counting.count
    counting.count = 0
    assert _play(fresh(), [seed for _ in range(steps) for seed in range(20)], forget=True) == interleaved
    assert 0 < searches < 0.6 * counting.count
    for state, _ in games.values():
        assert legal_actions(_without_memo(state)) == legal_actions(state)


def test_the_memos_are_bounded():
    """A game's memo holds at most one entry per seat and figure, and its last occupancy; the token interning keeps
    at most INTERNED values."""
    from dungeon_twister.engine.boardgame import context

    state = main_phase_positions(4, 40, every=1)[-1]
    entries = state.memo.entries
    assert 0 < len(entries) <= sum(1 for t in state.tokens.values() if t.is_character)
    assert all(seat == state.tokens[tid].colour for seat, tid in entries)
    assert 0 < len(context._interned) <= context.INTERNED


def test_the_memo_lets_go_of_changed_figures_when_the_other_seat_searches():
    """A figure's memo entry serves only its token as it was (moves._key): once the turn passes, the entry of the
    figure that made the last move of the turn, or left the maze, or was wounded, can serve nothing but an equal
    token back again. The first search of the other seat drops them: right after it, every entry is of a figure
    as the state holds it. Without that drop, such entries are about a fifth of a game's outcomes at 175 actions
    (20 standard games); here, some are dropped along each game, and the lists are those of an empty memo."""
    checked = dropped = 0
    for seed in (3, 8):
        state, rng, last = new_game(Options(), seed), Rng(seed + 1), None
        for _ in range(300):
            if state.outcome is not None:
                break
            seat = state.to_act[0]
            before = dict(state.memo.entries)
            legal = legal_actions(state)
            if state.phase == "main" and last is not None and seat != last:
                entries = state.memo.entries
                assert all(key[1] is state.tokens[tid] for (_, tid), (key, _) in entries.items())
                stale = [name for name, (key, _) in before.items() if key[1] is not state.tokens[name[1]]]
                dropped += sum(name not in entries for name in stale)
                checked += 1
                assert legal == legal_actions(_without_memo(state))
            if state.phase == "main":
                last = seat
            state, _ = apply(state, rng.choice(legal))
    assert checked >= 20 and dropped >= 10


def test_a_listed_state_keeps_no_end_square_checks():
    """The end-square checks a state's occupancy memoises for its searches (`Occupancy.checked`) are let go once
    every figure of the seat to act is listed (movement.listed): a game in play keeps its last state while its
    players think. Searched afresh (an empty memo), positions fill it while their figures are listed and leave it
    empty; a move listed still applies as it did."""
    from dungeon_twister.engine.boardgame.legal import _main_parts
    from dungeon_twister.engine.boardgame.movement import occupancy

    filled = 0
    for state in main_phase_positions(6, 12, every=3):
        state = _without_memo(state)
        seat = state.to_act[0]
        most = 0
        for _ in _main_parts(state, seat):
            most = max(most, len(occupancy(state).checked))
        filled += most > 0
        assert occupancy(state).checked == {}
        legal = legal_actions(state, seat)
        move = next((a for a in legal if isinstance(a, Move)), None)
        if move is not None:
            assert apply(state, move)[0] == apply(_without_memo(state), move)[0]
    assert filled >= 3


def test_the_memo_keeps_no_board_of_an_earlier_layout():
    """Every memo entry's key holds its board (one object per layout): after a room turns, the entries of the old
    board can match only if that layout comes back, and kept it alive (30-90 KB with its reach memos), five boards
    in a 3,000-action game. Along a random game, once a position's moves are listed, the memo's entries are all of
    the current board, and a board no state uses any more is freed once it leaves the board cache."""
    import gc
    import weakref

    from dungeon_twister.engine.boardgame.board import _board, board_of

    state, rng = new_game(Options(), 5), Rng(6)
    boards, turned = [], 0
    for _ in range(3000):
        if state.outcome is not None:
            break
        legal = legal_actions(state)
        if state.phase == "main" and any(isinstance(action, Move) for action in legal):  # entries looked up
            entries = state.memo.entries
            assert {id(key[0]) for key, _ in entries.values()} <= {id(board_of(state))}, "an entry of another board"
            if not boards or boards[-1]() is not board_of(state):
                boards.append(weakref.ref(board_of(state)))
        before = board_of(state)
        state, _ = apply(state, rng.choice(legal))
        turned += board_of(state) is not before
    assert turned >= 10, "the game changed its layout: rooms were revealed and turned"
    del before, legal  # the last position's board and list: only `state` is kept
    _board.cache_clear()
    gc.collect()
    assert [ref() for ref in boards[:-1] if ref() is not None and ref() is not board_of(state)] == [], \
        "an earlier board outlived the cache"


def test_legal_texts_are_the_formatted_legal_actions():
    """legal_texts(state, seat) == [format_action(a) for a in legal_actions(state, seat)] in every phase, for each
    seat and for None (both), in positions of seeded games, whether the figures' texts are memoised or not."""
    from dungeon_twister.engine import legal_texts

    checked = 0
    phases = set()
    for seed, beginner in ((1, False), (6, True)):
        state, rng, n = new_game(Options(beginner=beginner), seed), Rng(seed + 1), 0
        while state.outcome is None and n < 1500:
            phases.add(state.phase)
            legal = legal_actions(state)
            assert legal_texts(state) == [format_action(a) for a in legal]
            if n % 10 == 0:
                for seat in ("B", "Y", None):
                    fresh = _without_memo(state)
                    assert legal_texts(fresh, seat) == [format_action(a) for a in legal_actions(fresh, seat)]
                    assert legal_texts(state, seat) == [format_action(a) for a in legal_actions(state, seat)]
            checked, n = checked + 1, n + 1
            state, _ = apply(state, rng.choice(legal))
    assert checked > 2000 and phases >= {"team", "hide", "card", "main"}


def test_legal_table_is_the_texts_and_actions_of_the_legal_actions_in_one_pass():
    """legal_table(state, seat) (what the server keeps of a step, engine/families.py) equals
    dict(zip(legal_texts, legal_actions)) in the same order, in every phase of seeded games of every set, scenario
    and mix (tests/engine/variants.py) and of the card game; {} for a seat not to act and for a free team
    building's lazy list."""
    from dungeon_twister.engine.cards import CardOptions
    from dungeon_twister.engine.core.choice import is_lazy
    from dungeon_twister.engine.families import BOARD, CARDS

    from .variants import VARIANTS, listable

    games = [(BOARD, options, 3) for options in VARIANTS.values()] + [(CARDS, CardOptions(2), 5),
                                                                     (CARDS, CardOptions(3), 6)]
    checked, lazy, phases = 0, 0, set()
    for family, options, seed in games:
        state, rng, n = family.new_game(options, seed), Rng(seed), 0
        while state.outcome is None and n < 90:
            phases.add(getattr(state, "phase", None))
            for seat in ("B", "Y"):
                actions = family.legal_actions(state, seat)
                table = family.legal_table(state, seat)
                if seat not in state.to_act or is_lazy(actions):
                    lazy += is_lazy(actions)
                    assert table == {}
                    continue
                assert list(table.items()) == list(zip(family.legal_texts(state, seat), actions))
                assert len(set(table)) == len(actions), "no two legal actions share a text"
                checked += 1
            legal = listable(family.legal_actions(state))
            state, _ = family.apply(state, rng.choice(legal))
            n += 1
    assert checked > 900 and lazy > 0 and phases >= {"team", "hide", "card", "main"}


def test_the_one_item_search_lists_what_the_general_search_lists_in_the_same_order():
    """`Walker._item_search` (a figure with exactly one thing it could carry within reach, `Walker._one_item`)
    is `_search` with the mover's choices on a square known without `pickable`: for every figure of every seat in
    main-phase positions of seeded games where it applies, the outcomes, their order and their routes are the
    general search's, and it applies both to figures standing on their item and to empty-handed ones."""
    from dungeon_twister.engine.boardgame.movement import Walker

    compared, kinds = 0, set()
    for state, board, figure in standing_figures((2, 7, 13), 40):
        walker = Walker(state, board, figure)
        one = walker._one_item()
        if one is None:
            continue
        fast = walker._item_search(*one)
        general = Walker(state, board, figure)._search()
        assert fast == general  # (the outcomes, their routes), in order
        assert list(Walker(state, board, figure).outcomes().items()) == list(zip(*general))
        kinds.add(walker.original is not None)
        compared += 1
    assert compared > 50 and kinds == {True, False}


def test_the_plain_search_lists_what_the_general_search_lists_in_the_same_order():
    """BG-MOVE-01: `Walker._plain_search` (a figure with nothing to carry and nothing it could pick up within reach)
    and its short way for empty squares give the general search's outcomes, order and routes, in main-phase
    positions of seeded games."""
    from dungeon_twister.engine.boardgame.movement import Walker

    compared = 0
    for state, board, figure in standing_figures((2, 7), 30):
        walker = Walker(state, board, figure)
        if walker.original is not None or not walker.occ.loose[walker.colour].isdisjoint(
                board.reach(walker.start, walker.steps - 1, walker.passes)):
            continue  # not a figure `outcomes` gives the plain search
        assert walker._plain_search() == Walker(state, board, figure)._search()
        compared += 1
    assert compared > 50


def test_figure_keys_kept_per_state_are_the_keys_computed_afresh():
    """The memo key a sealed state keeps per figure (`Occupancy.keys`, reused by apply's look-up of a Move) is the
    key computed afresh, from a thawed copy with no kept keys, for every figure of both seats."""
    from dungeon_twister.engine.boardgame import moves
    from dungeon_twister.engine.boardgame.board import board_of

    compared = 0
    for state in main_phase_positions(5, 20, every=4):
        board = board_of(state)
        copy = state.thaw()
        for figure in state.tokens.values():
            if figure.where != "board" or not figure.is_character:
                continue
            for seat in ("B", "Y"):
                first = moves._key(state, board, seat, figure)
                assert moves._key(state, board, seat, figure) is first  # kept
                assert moves._key(copy, board, seat, figure) == first
                compared += 1
    assert compared > 100


def test_BG_COMBAT_01_and_BG_CHAR_CLERIC_01_targets_from_the_occupancy_are_those_of_a_look_at_every_token():
    """Attack and heal targets found from the tokens on the connected neighbours (`movement.tokens_on`) are the
    ones a look at every token finds (BG-COMBAT-01/07/09, BG-CARRY-04; BG-CHAR-CLERIC-01/04/06), for every figure
    of both colours, in sealed states and in their thawed copies."""
    from dungeon_twister.engine.boardgame.abilities import heal_targets
    from dungeon_twister.engine.boardgame.board import board_of
    from dungeon_twister.engine.boardgame.combat import attack_targets

    def attack_reference(state, board, attacker):
        return [t for t in state.tokens.values() if t.where == "board" and t.is_character
                and t.colour != attacker.colour and not t.face_down and board.connected(attacker.square, t.square)
                and t.wounded_turn != state.turn and not (t.wounded and any(
                    o.is_figure for o in state.tokens.values() if o.where == "board" and o.square == t.square))]

    def heal_reference(state, board, cleric):
        return [t for t in state.tokens.values() if t.where == "board" and t.is_character and t.wounded
                and board.connected(cleric.square, t.square) and not any(
                    o.is_figure and o.square == t.square for o in state.tokens.values() if o.where == "board")]

    def ids(tokens):
        return sorted(t.id for t in tokens)

    attacks = heals = 0
    for seed in (4,):  # a game with wounded characters beside figures in many positions
        for state in main_phase_positions(seed, 200, every=5):
            board = board_of(state)
            for s in (state, state.thaw()):
                for figure in s.tokens.values():
                    if not figure.is_figure:
                        continue
                    assert ids(attack_targets(s, board, figure)) == ids(attack_reference(s, board, figure))
                    assert ids(heal_targets(s, board, figure)) == ids(heal_reference(s, board, figure))
                    attacks += bool(attack_reference(s, board, figure))
                    heals += bool(heal_reference(s, board, figure))
    assert attacks > 0 and heals > 0


def test_BG_GEO_11_boards_share_one_open_ground_per_height_and_set_of_revealed_rooms():
    """BG-GEO-11: tokens stand on the start zones and the squares of revealed rooms. Every board of a game has
    exactly those squares as its open ground, and boards with the same revealed slots (rooms turned or swapped
    since) share one set of them (`board._open_ground`), so a game in play does not hold a copy per layout."""
    from dungeon_twister.engine.boardgame.board import board_of
    from dungeon_twister.engine.boardgame.geometry import ROOM

    state, rng = new_game(Options(), 5), Rng(6)  # a game where a room turns after rooms were revealed
    shared: dict = {}
    layouts: dict = {}  # revealed slots -> the boards met with them (kept alive: no id is reused)
    for _ in range(300):
        if state.outcome is not None:
            break
        board = board_of(state)
        slots = frozenset(place.slot for place in state.rooms if place.revealed)
        zones = {(x, y) for x in range(2 * ROOM) for y in (-1, board.height)}
        rooms = {(sx * ROOM + dx, sy * ROOM + dy) for sx, sy in slots for dx in range(ROOM) for dy in range(ROOM)}
        assert board.open_ground == zones | rooms
        assert shared.setdefault((board.height, slots), board.open_ground) is board.open_ground
        layouts.setdefault(slots, {})[id(board)] = board
        state, _ = apply(state, rng.choice(list(legal_actions(state))))
    assert len(shared) >= 3, "rooms were revealed along the game"
    assert any(len(boards) > 1 for boards in layouts.values()), "a room turned while the same slots were revealed"


BOARD_FIELDS = ("pits", "gears", "walls", "portcullises", "slits", "terrain", "illusions", "rubble", "special",
                "opaque", "open_ground", "links", "slit_links", "zone_owner")


def test_BG_GEO_07_a_board_made_from_the_one_before_equals_one_made_afresh():
    """BG-GEO-07 and BG-GEO-11, for the boards of new layouts: a board takes the links of the squares no changed
    room touches from the board before it (`Board(near=...)`), and every field of it (pits, walls, portcullises,
    arrow slits, terrain, links, in the same order) is what a board made from the rooms alone has. Each room of
    the base set, Prison (arrow slits) and Paladins & Dragons (terrain, a broken wall, an illusion) turned to
    each orientation, revealed, its portcullises opened, turned with the next room or two; a face-down room turned
    shares the links whole, three rooms changed at once take none over."""
    from dungeon_twister.engine.boardgame.board import Board
    from dungeon_twister.engine.boardgame.catalogue import load
    from dungeon_twister.engine.boardgame.state import room_place

    def fields(board):
        return {name: list(value.items()) if isinstance(value, dict) else value
                for name in BOARD_FIELDS for value in [getattr(board, name)]}

    shared = partial = rebuilt = 0
    for set_name, marks in (("base_set", ()), ("prison", ()),
                            ("paladins", (("illusion:B:pit", "c3"), ("wall:41G:2", "bGO")))):
        catalogue, rows = load(set_name), new_game(Options(set_name=set_name), 1).rows
        places = new_game(Options(set_name=set_name), 1).rooms
        shown = tuple(room_place(p.slot, p.tile, p.orientation, True) for p in places)
        layouts = []  # (rooms before, portcullis before, rooms after, portcullis after)
        for i, place in enumerate(places):
            for turn in (1, 2, 3):
                turned = room_place(place.slot, place.tile, (place.orientation + turn) % 4, True)
                layouts.append((shown, (), shown[:i] + (turned,) + shown[i + 1:], ()))
            hidden = shown[:i] + (place,) + shown[i + 1:]
            layouts.append((hidden, (), shown, ()))  # the room revealed
            opened = "o" * len(catalogue.rooms[place.tile].portcullises)
            layouts.append((shown, (), shown, ((place.tile, opened),)))
            turned = room_place(place.slot, place.tile, (place.orientation + 1) % 4, False)
            layouts.append((hidden, (), shown[:i] + (turned,) + shown[i + 1:], ()))  # face down, turned
            for count in (2, 3):  # two rooms turned at once (links taken over around both), three (none taken)
                both = tuple(room_place(p.slot, p.tile, (p.orientation + 1) % 4, True) if i <= j < i + count else p
                             for j, p in enumerate(shown))
                layouts.append((shown, (), both, ()))
        for rooms, gates, new_rooms, new_gates in layouts:
            near = Board(catalogue, rows, rooms, gates, marks)
            board = Board(catalogue, rows, new_rooms, new_gates, marks, near)
            assert fields(board) == fields(Board(catalogue, rows, new_rooms, new_gates, marks)), set_name
            kept = board._unchanged_links(near)
            shared += board.links is near.links
            partial += kept is not None and kept is not near.links
            rebuilt += kept is None
        assert fields(Board(catalogue, rows, shown, (), marks, Board(catalogue, rows, shown, (), ()))) == fields(
            Board(catalogue, rows, shown, (), marks))  # other marks (a wall broken since): nothing taken over
    # per set: 8 face-down turns share the links; 6 turns of three rooms at once take none over; the 50 others
    # (3 turns, a reveal, an opening, two rooms turned, and three at the end of the list where only 1-2 exist)
    assert (shared, partial, rebuilt) == (3 * 8, 3 * 50, 3 * 6)


def test_a_board_is_shared_while_something_holds_it_and_kept_a_little_after():
    """board_of's boards (one object per layout): a layout's board is found again, the same object, while a state
    holds it, however many other boards were made since; one that nothing holds is found again among the last
    RECENT_BOARDS made, and freed once that many newer ones were made."""
    import gc
    import weakref

    from dungeon_twister.engine.boardgame import board as boards
    from dungeon_twister.engine.boardgame.board import board_of

    held = new_game(Options(), 31)
    first = board_of(held)
    rooms = held.rooms[::-1]  # the same rooms listed otherwise: a layout (a key) of its own that no state holds
    loose = weakref.ref(boards._board(held.options.set_name, held.rows, rooms, ()))
    gc.collect()
    assert loose() is not None and boards._board(held.options.set_name, held.rows, rooms, ()) is loose()
    state, rng, layouts = new_game(Options(), 32), Rng(33), set()
    while len(layouts) <= boards.RECENT_BOARDS and state.outcome is None:  # new layouts: rooms revealed, turned
        state, _ = apply(state, rng.choice(legal_actions(state)))
        layouts.add((state.rooms, tuple(sorted(state.portcullis.items()))))
        board_of(state)
    assert len(layouts) > boards.RECENT_BOARDS
    gc.collect()
    assert loose() is None, "a board nothing held outlived the recent ones"
    assert board_of(new_game(Options(), 31)) is first  # held by a state: the same board


def test_an_occupancy_made_from_the_one_before_equals_one_made_from_every_token():
    """A sealed state's occupancy made from the game's one before (`Occupancy._derive`, from the squares `apply`
    changed) holds what a pass over every token finds (what stands where, in the state's order; the figures'
    and loose squares of each colour; the squares of tokens wounded this turn), and the memo keys it takes again
    from the state before (`Occupancy.prior`) are the keys made afresh: along random games of every set, in the
    same turn and across turns (the action card between two turns has no occupancy of its own); so are the seat's
    characters listed from the ids the occupancies hand on (`legal._characters`)."""
    from dungeon_twister.engine.boardgame import legal as listing, moves
    from dungeon_twister.engine.boardgame.board import board_of
    from dungeon_twister.engine.boardgame.movement import Occupancy, occupancy

    derived = taken = 0
    for options in (Options(), Options(set_name="prison"), Options(set_name="paladins")):
        for game in range(2):
            state, rng = new_game(options, game), Rng(game + 11)
            for _ in range(700):
                if state.outcome is not None:
                    break
                legal = legal_actions(state)
                if state.phase == "main" and state._delta is not None:
                    occ = occupancy(state)
                    whole = Occupancy(state)
                    assert (occ.at, occ.figures, occ.loose, occ.fresh) == \
                           (whole.at, whole.figures, whole.loose, whole.fresh)
                    derived += occ.prior is not None
                    for seat in ("B", "Y"):  # the seat's characters listed from the occupancies' ids
                        assert listing._characters(state, seat, ()) == sorted(
                            (t for t in state.tokens.values()
                             if t.colour == seat and t.where == "board" and t.is_character), key=lambda t: t.id)
                    board = board_of(state)
                    for (seat, _), (figure, _, key) in occ.keys.items():
                        assert moves._key(state.thaw(), board, seat, figure) == key
                        taken += 1
                state, _ = apply(state, rng.choice(legal))
    assert derived > 500 and taken > 500


def test_a_figure_finds_an_earlier_memo_entry_again_when_its_key_comes_back(monkeypatch):
    """A figure's key often comes back (a token moves within its reach and back, the figure steps back): the memo
    keeps up to `moves.OLDER_KEPT` of its earlier entries (`Memo.older`) besides its last one, and a key equal to one
    of them takes that entry again instead of a search. Along random games (BG-MOVE-01: every list is still the one
    an empty memo gives, order and routes included) that spares searches a memo of one entry a figure makes; the
    earlier entries are of the current board and, from the other seat's first search on, of the figure as the state
    holds it (dropped as `entries`' are), at most OLDER_KEPT a figure, and a memo that is packed (`moves.pack_memo`, a game that waits) keeps none."""
    from dungeon_twister.engine.boardgame import moves

    def play(seed: int) -> tuple[list, int, int]:
        counting = _Counting(monkeypatch)
        state, rng, listed, checked, last = new_game(Options(), seed), Rng(seed + 1), [], 0, None
        for step in range(700):
            if state.outcome is None:
                legal = legal_actions(state)
                listed.append([(format_action(a), getattr(a, "route", None)) for a in legal])
                if state.phase == "main" and step % 25 == 0:
                    assert legal == legal_actions(_without_memo(state))
                seat = state.to_act[0]
                for (owner, tid), kept in state.memo.older.items():
                    assert 0 < len(kept) <= moves.OLDER_KEPT
                    assert all(key[0] is state.memo.board and key[2] == owner for key, _ in kept)
                    if state.phase == "main" and seat != last:  # the other seat's first search: changed ones dropped
                        assert all(key[1] is state.tokens[tid] for key, _ in kept)
                        checked += 1
                if state.phase == "main":
                    last = seat
                state, _ = apply(state, rng.choice(legal))
        return listed, counting.count, checked

    kept_lists, kept_searches, checked = zip(*(play(seed) for seed in (2, 9)))
    assert sum(checked) > 10
    monkeypatch.setattr(moves, "OLDER_KEPT", 0)
    one_lists, one_searches, _ = zip(*(play(seed) for seed in (2, 9)))
    assert kept_lists == one_lists
    assert sum(kept_searches) < 0.97 * sum(one_searches)


def test_a_packed_memo_keeps_no_earlier_entries():
    """A game that waits (moves.pack_memo) keeps only each figure's last entry, packed: the earlier ones
    (`Memo.older`) are let go, and the next position lists the same actions."""
    from dungeon_twister.engine.boardgame.moves import pack_memo

    state, rng = new_game(Options(), 4), Rng(5)
    seen = 0
    for _ in range(500):
        if state.outcome is not None:
            break
        legal = legal_actions(state)
        if state.memo.older:
            seen += 1
            texts = [format_action(a) for a in legal]
            pack_memo(state)
            assert state.memo.older == {}
            assert [format_action(a) for a in legal_actions(state)] == texts
        state, _ = apply(state, rng.choice(legal))
    assert seen > 10


def test_BG_CHAR_WALLWALKER_01_only_a_wall_walkers_key_reads_the_squares_across_its_walls():
    """A figure's memo key (`moves._key`) covers the squares its actions read (`moves._region`): those within its move
    value (at least 2, a jump's) of connected steps and, for a wall-walker alone (BG-CHAR-WALLWALKER-01: she lands
    next to her square through a wall), the squares next to hers across a wall that no step reaches. Another figure's
    key leaves those out, so a token moving behind its walls costs it no search. Checked on the boards of random
    positions, the regions in `Board.reach`'s order."""
    from dungeon_twister.engine.boardgame.board import _beside
    from dungeon_twister.engine.boardgame.movement import passes_of
    from dungeon_twister.engine.boardgame.moves import _region

    checked, walled = {True: 0, False: 0}, {True: 0, False: 0}
    for state, board, figure in standing_figures((3, 8, 13), 8):
        kind = state.catalogue.characters[figure.code]
        radius, passes = max(kind.move, 2), passes_of(kind)
        links = board.links_of(passes)
        seen, frontier = {figure.square}, [figure.square]
        for _ in range(radius):
            frontier = [there for here in frontier for there in links.get(here, ()) if
                        there not in seen and not seen.add(there)]
        across = [square for square in _beside(figure.square, board.height) if square not in seen]
        region = _region(board, figure)
        wallwalker = "wallwalk" in kind.abilities
        full = board.reach(figure.square, radius, passes)  # every square a move, wall-walk or jump may look at
        assert region == (full if wallwalker else tuple(square for square in full if square in seen))
        assert set(region) == (seen | set(across) if wallwalker else seen)
        checked[wallwalker] += 1
        walled[wallwalker] += bool(across)
    assert min(checked.values()) >= 10 and min(walled.values()) >= 3, (checked, walled)



def test_BG_MOVE_12_an_end_square_check_with_the_mover_is_kept_by_its_walker_not_by_the_state():
    """The check of a move's end square (`Walker._dest_check`: the golden rules with the mover and what it holds
    added, BG-MOVE-08/09/12, BG-GOLD-02/03, BG-PIT-01/05/09) gives what the state's memoised square check
    (`_square_ok`, `Occupancy.checked`) gives for the same tokens, on every occupied square and pit within reach of
    each figure of random positions, empty-handed and holding a token it could carry there (pits included), and
    leaves nothing in that memo: with the mover among its tokens only a search of that figure in that state could
    read it again there, so the walker keeps it (`_dest_ok`)."""
    from dungeon_twister.engine.boardgame.movement import Walker

    checked, pits, held, refused = 0, 0, 0, 0
    for state, board, figure in standing_figures((2, 7, 13), 12):
        walker = Walker(state, board, figure)
        memo = walker.occ.checked
        lying = [t.id for ts in walker.base.values() for t in ts if not t.is_character]
        for dest in board.reach(walker.start, walker.steps, walker.passes):
            if dest not in walker.base and dest not in walker.pits:
                continue  # (an empty floor square: `_alone`, no square check)
            for hold in [None, *(tid for tid in lying if walker.tokens[tid].square != dest)][:3]:
                walker._dest_ok.setdefault(hold, {})
                before = dict(memo)
                ok = walker._dest_check(dest, hold)
                assert memo == before
                if dest in walker.occ.figures[walker.colour] or dest in walker.enemies:
                    assert ok is False  # never where another figure stands
                    continue
                ids = [t.id for t in walker.base.get(dest, ())] + ([hold] if hold is not None else [])
                assert ok == Walker(state, board, figure)._square_ok(dest, (*ids, figure.id))
                checked += 1
                pits += dest in walker.pits
                held += hold is not None
                refused += not ok
    assert checked > 400 and pits > 100 and held > 200 and refused > 100, (checked, pits, held, refused)
