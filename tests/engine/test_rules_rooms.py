"""Rule tests: board geometry (BG-GEO), terrain (BG-TERR), revealing rooms (BG-REVEAL, BG-EX-02), rotating rooms
(BG-ROT), and the placement timer (BG-OPT-03).

Synthetic rooms (builders.py), default layout, all revealed at orientation 0:
  A1=O1 (gear a5, turns ccw)  B1=O2 (gear f5, cw)   -- rooms next to Blue's start zone (rank 0)
  A2=P1 (gear a10, pits c8 d8) B2=P2 (gear f10, pits h8 i8)
  A3=W1 (gear a15): walls b13|c13 and c13|c14, portcullises c13|d13 and c12|c13, outer wall a10|a11
  B3=W2 (gear f15): the same five files further east (g13|h13, h13|h14, h13|i13, h12|h13, f10|f11)
  A4=Q1 (gear a20)             B4=Q2 (gear f20)   -- rooms next to Yellow's start zone (rank 21)
"""

from __future__ import annotations

import copy

from dungeon_twister.engine import (Options, PassPlacement, Place, apply,
                                    legal_actions, new_game, parse_action, timeout_action, view)
from dungeon_twister.engine.boardgame.actions import Move
from dungeon_twister.engine.boardgame.board import board_of
from dungeon_twister.engine.boardgame.catalogue import load, register
from dungeon_twister.engine.boardgame.geometry import slot_name, square_name

from . import builders
from .builders import act, assert_refused, position

BASE_ROOMS = "A1=1G/0 B1=1D/0 A2=2G/0 B2=2D/0 A3=3G/0 B3=3D/0 A4=4G/0 B4=4D/0"


def rooms(**changes):
    """The default synthetic layout with some slots changed: rooms(A2="*P1/3")."""
    slots = dict(part.split("=") for part in builders.DEFAULT_ROOMS.split())
    slots.update(changes)
    return " ".join(f"{slot}={tile}" for slot, tile in slots.items())




def sq(name: str):
    return ord(name[0]) - ord("a"), int(name[1:]) - 1


def at(state, token_id):
    t = state.tokens[token_id]
    return square_name(t.square) if t.where == "board" else t.where


def step(token: str, square: str) -> Move:
    """A one-step move with its route written out (a route in notation needs 2 squares)."""
    return Move(token[0].upper(), token, sq(square), route=(sq(square),))


def legal_texts(state, verb=None, token=None):
    from dungeon_twister.engine import format_action

    out = set()
    for action in legal_actions(state):
        words = format_action(action).split()
        if (verb is None or words[0] == verb) and (token is None or words[1] == token):
            out.add(" ".join(words))
    return out


# --- §2 geometry -----------------------------------------------------------------------------------

def test_BG_GEO_01_a_room_is_5_by_5():
    """BG-GEO-01 (RUL-022): a room covers 5 x 5 squares; every tile's features lie in its 5 x 5 grid."""
    board = board_of(position())
    squares = board.room_squares((1, 2))
    assert len(set(squares)) == 25
    assert {x for x, _ in squares} == set(range(5, 10)) and {y for _, y in squares} == set(range(10, 15))
    for tile in load("base_set").rooms.values():
        cells = [tile.gear, *tile.pits, *[c for pair in tile.walls + tile.portcullises for c in pair],
                 *[c for c, _ in tile.outer_walls]]
        assert all(0 <= r < 5 and 0 <= c < 5 for r, c in cells)


def test_BG_GEO_02_standard_maze_is_2_by_4_rooms_10_by_20_squares():
    """BG-GEO-02: 8 rooms, 2 wide and 4 long: 10 x 20 maze squares."""
    state = new_game(Options(), 1)
    assert state.rows == 4 and len(state.rooms) == 8
    board = board_of(position())
    maze = [(x, y) for x in range(-2, 12) for y in range(-3, 23) if board.slot_of((x, y)) is not None]
    assert len(maze) == 200
    assert {x for x, _ in maze} == set(range(10)) and {y for _, y in maze} == set(range(20))


def test_BG_GEO_03_start_zone_is_a_row_of_10_along_a_short_edge():
    """BG-GEO-03: each start zone is 10 squares along a short edge, each touching exactly one maze square."""
    board = board_of(position())
    for y, inside, owner in ((-1, 0, "B"), (20, 19, "Y")):
        zone = [(x, y) for x in range(-1, 11) if board.is_start_zone((x, y))]
        assert zone == [(x, y) for x in range(10)]
        for square in zone:
            assert board.start_zone_owner(square) == owner
            touching = [n for _, n in board.neighbours(square) if board.slot_of(n) is not None]
            assert touching == [(square[0], inside)]
    state = act(position("bWA@b0"), "move bWA b1")
    assert at(state, "bWA") == "b1"


def test_BG_GEO_06_walls_and_portcullises_lie_on_edges():
    """BG-GEO-06: walls and portcullises are edge features between two squares; the squares on both sides are
    ordinary squares a figure may stand on. Pits and gears belong to squares."""
    v = view(position(), None)
    assert ["b13", "c13", 1] in v["walls"]
    assert ["c12", "c13", "closed"] in v["portcullises"]
    assert "c8" in v["pits"] and v["gears"]["A3"] == "a15"
    state = act(position("bTH@b12 bWA@c11"), "move bTH b13", "move bWA c12")
    assert at(state, "bTH") == "b13" and at(state, "bWA") == "c12"
    state = act(position("bTH@c13"), "open bTH e", "move bTH d13")  # c13 itself is a normal square
    assert at(state, "bTH") == "d13"


def test_BG_GEO_07_connection_needs_no_wall_and_no_closed_portcullis():
    """BG-GEO-07: steps, melee attacks, healing and reveal access need connected squares."""
    state = position("bTR@b13 bWA@d13 bCL@c12 yTR@c13! yGB@d11", turn=5)
    assert_refused(state, step("bTR", "c13"), "BG-MOVE-05")  # wall
    assert_refused(state, step("bWA", "c13"), "BG-MOVE-05")  # closed portcullis
    assert_refused(state, "attack bWA yTR", "BG-COMBAT-01")
    assert_refused(state, "heal bCL yTR", "BG-CHAR-CLERIC-04")
    opened = position("bWA@d13 bCL@c12 yTR@c13!3", ports="W1=oo", turn=5)
    assert "attack bWA yTR" in legal_texts(opened) and "heal bCL yTR" in legal_texts(opened)
    assert "move bWA c13" not in legal_texts(opened)  # still not onto an enemy wounded, but the edge is open
    hidden = position("bWA@a11 bTH@b11", rooms=rooms(A2="*P1/0"))
    assert legal_texts(hidden, "reveal") == {"reveal bTH A2"}  # a11 is walled off from A2


def test_BG_GEO_08_one_wall_on_either_side_blocks_and_double_walls():
    """BG-GEO-08 (RUL-024): a wall printed by only one of two touching rooms blocks the edge; a wall printed
    by both is a double wall."""
    state = position("bTR@a10 bGB@a12", ap=2)
    assert_refused(state, step("bTR", "a11"), "BG-MOVE-05")  # the wall belongs to A3 only
    assert_refused(state, "move bGB a11-a10", "BG-MOVE-05")
    assert "move bTR a11" not in legal_texts(state)
    base = position("bWA@a4", set_name="base_set", rooms="A1=2D/0 B1=1G/0 A2=1D/0 B2=2G/0 A3=3G/0 B3=3D/0 "
                                                         "A4=4G/0 B4=4D/0")
    assert ["a5", "a6", 2] in view(base, None)["walls"]  # 2D's north wall and 1D's south wall
    assert_refused(base, "move bWA a5-a6", "BG-MOVE-05")


def test_BG_GEO_09_nothing_leaves_across_the_long_sides():
    """BG-GEO-09: there are no squares beside the maze's long sides; only start zones lie outside the rooms."""
    state = position("bWA@a3 bTH@j12")
    board = board_of(state)
    assert not board.exists((-1, 2)) and not board.exists((10, 11))
    assert_refused(state, Move("B", "bWA", (-1, 2)), "BG-GEO-09")
    assert_refused(state, Move("B", "bTH", (10, 11)), "BG-GEO-09")
    dests = {a.dest for a in legal_actions(state) if isinstance(a, Move)}
    assert all(0 <= x <= 9 and -1 <= y <= 20 for x, y in dests)


def test_BG_GEO_10_one_rotation_mechanism_per_room_and_twins_turn_opposite_ways():
    """BG-GEO-10 (RUL-042): each room has one gear; twins share their number and have opposite arrows; the
    layouts are board data (the base-set data matches ../rooms/base-set.md)."""
    base = load("base_set")
    gears = {"1G": "r5c4", "1D": "r3c3", "2G": "r3c3", "2D": "r2c2", "3G": "r2c4", "3D": "r3c4", "4G": "r4c4",
             "4D": "r3c4"}
    for tile_id, room in base.rooms.items():
        assert f"r{room.gear[0] + 1}c{room.gear[1] + 1}" == gears[tile_id]
        assert room.clockwise == tile_id.endswith("D")
        twin = base.rooms[base.twin(tile_id)]
        assert twin.number == room.number and twin.clockwise != room.clockwise
    assert sum(len(r.pits) for r in base.rooms.values()) == 14
    assert sum(len(r.portcullises) for r in base.rooms.values()) == 13
    board = board_of(position(set_name="base_set", rooms=BASE_ROOMS))
    assert len(board.gears) == 8


def test_BG_GEO_11_a_face_down_room_has_no_usable_squares():
    """BG-GEO-11 (RUL-025): nothing enters a face-down room, line of sight stops at its border, and its
    layout is not shown."""
    state = position("bWA@c5 bWZ@b5 bFW@b5 yTR@b11", rooms=rooms(A2="*P1/0"))
    assert_refused(state, "move bWA c6", "BG-GEO-11")
    assert not any(a.dest[1] in range(5, 10) and a.dest[0] < 5 for a in legal_actions(state)
                   if isinstance(a, Move))
    v = view(state, "B")
    assert "c8" not in v["pits"] and "A2" not in v["gears"]
    after = act(state, "fireball bWZ n")
    assert at(after, "yTR") == "b11"  # the face-down room stopped the fireball


def test_BG_GEO_12_coordinates():
    """BG-GEO-12: x = files a..j, y = ranks 1..20; Blue's start zone is rank 0, Yellow's rank 21; room (c, r)
    covers x 5c..5c+4, y 5r..5r+4; room contents are stored locally and mapped through the orientation."""
    assert square_name((0, 0)) == "a1" and square_name((9, 19)) == "j20"
    assert square_name((1, -1)) == "b0" and square_name((8, 20)) == "i21"
    assert slot_name((0, 0)) == "A1" and slot_name((1, 3)) == "B4"
    board = board_of(position())
    for c in range(2):
        for r in range(4):
            assert {board.slot_of((x, y)) for x in range(5 * c, 5 * c + 5) for y in range(5 * r, 5 * r + 5)} == \
                {(c, r)}
    turned = view(position(rooms=rooms(A3="W1/1")), None)
    assert ["c13", "c14", 1] in turned["walls"] and ["c13", "d13", 1] in turned["walls"]
    assert ["b13", "c13", 1] not in turned["walls"]


# --- §3 terrain ------------------------------------------------------------------------------------

def revealed_for_placing(tokens="bWA@b5 bGB#A2.1 yTR#A2.2", **kwargs):
    state = position(tokens, rooms=rooms(A2="*P1/0"), **kwargs)
    return act(state, "reveal bWA A2")


def test_BG_TERR_01_02_07_revealed_tokens_go_on_floor_or_gear_never_on_a_pit():
    """BG-TERR-01 (floor), BG-TERR-02 (gear), BG-TERR-07 (pit): revealed tokens may be placed on the room's
    floor squares and its rotation mechanism, never on a pit."""
    state = revealed_for_placing()
    squares = {a.square for a in legal_actions(state) if isinstance(a, Place)}
    room = set(board_of(state).room_squares((0, 1)))
    assert squares == room - {sq("c8"), sq("d8")}
    assert sq("a10") in squares  # the gear
    assert_refused(state, "place bGB c8", "BG-REVEAL-07")
    state = act(state, "place bGB a10", "place yTR b6")
    assert at(state, "bGB") == "a10"


def test_BG_TERR_02_rotation_mechanism_can_be_crossed_stopped_on_and_seen_through():
    """BG-TERR-02: a gear may be crossed and stopped on and does not block line of sight."""
    state = position("bWA@a9 bTH@a4 bWZ@a3 bFW@a3 yGB@a7", ap=5)
    state = act(state, "move bWA a10")
    assert at(state, "bWA") == "a10"
    state = act(state, "move bTH a5-b5")  # across A1's gear a5
    assert at(state, "bTH") == "b5"
    state = act(state, "fireball bWZ n")  # over the gear a5
    assert at(state, "yGB") == "eliminated"


def test_BG_TERR_03_walls_block_moves_and_sight_and_cannot_be_destroyed():
    """BG-TERR-03: a wall cannot be crossed, blocks line of sight and survives a fireball."""
    state = position("bTR@b13 bWZ@a13 bFW@a13 yTR@c13", ports="W1=oo")
    assert_refused(state, step("bTR", "c13"), "BG-MOVE-05")
    assert "move bTR c13" not in legal_texts(state)
    state = act(state, "move bTR b12", "fireball bWZ e")
    assert at(state, "yTR") == "c13"
    assert ["b13", "c13", 1] in view(state, None)["walls"]


def test_BG_TERR_04_closed_portcullis_blocks_moves_sight_melee_and_healing():
    """BG-TERR-04 (RUL-001): portcullises start closed; closed, they block movement, sight, melee and healing."""
    state = act(position("bWA@a10", rooms=rooms(A3="*W1/0")), "reveal bWA A3")
    assert [p[2] for p in view(state, None)["portcullises"] if p[0].startswith(("c", "d"))] == ["closed", "closed"]
    state = position("bTH@d13 bWZ@e13 bFW@e13 bCL@c12 bWA@d12 yTR@c13")
    assert_refused(state, step("bTH", "c13"), "BG-MOVE-05")
    assert_refused(state, "attack bCL yTR", "BG-COMBAT-01")
    after = act(state, "fireball bWZ w")
    assert at(after, "yTR") == "c13"
    wounded = position("bCL@c12 bTR@c13!2", turn=5)
    assert_refused(wounded, "heal bCL bTR", "BG-CHAR-CLERIC-04")


def test_BG_TERR_05_open_or_broken_portcullis_lets_everything_through():
    """BG-TERR-05: an open or broken portcullis can be crossed by every character and does not block sight."""
    state = position("bTH@d13 bWA@c12 yWA@e12", ports="W1=ob")
    state = act(state, "move bTH c13-c12-c11", "move bWA c13")
    assert at(state, "bTH") == "c11" and at(state, "bWA") == "c13"
    yellow = position("yWA@d13", active="Y", ports="W1=ob")
    assert at(act(yellow, "move yWA c13-c12"), "yWA") == "c12"
    shots = position("bWZ@e13 bFW@e13 yTR@c13", ports="W1=ob")
    assert at(act(shots, "fireball bWZ w"), "yTR") == "eliminated"  # through the open portcullis
    shots = position("bWZ@c11 bFW@c11 yTR@c13", ports="W1=ob")
    assert at(act(shots, "fireball bWZ n"), "yTR") == "eliminated"  # through the broken one
    assert "attack bWA yTR" in legal_texts(position("bWA@d13 yTR@c13", ports="W1=oc"))


def test_BG_TERR_06_a_broken_portcullis_stays_broken():
    """BG-TERR-06: nobody can close (or re-open, or re-break) a broken portcullis (cited as BG-CHAR-WARRIOR-02:
    "can never be closed again, not even by the Thief")."""
    state = position("bTH@c12 bWA@d13", ports="W1=cb")
    assert_refused(state, "close bTH n", "BG-CHAR-WARRIOR-02")
    assert_refused(state, "open bTH n", "BG-CHAR-WARRIOR-02")
    state = act(state, "break bWA w", "end", "card 2", "end", "card 3")
    assert [p[2] for p in view(state, None)["portcullises"] if p[0].startswith("c")] == ["broken", "broken"]
    assert_refused(state, "close bTH n", "BG-CHAR-WARRIOR-02")


def test_BG_TERR_07_pits_stop_characters_but_not_sight():
    """BG-TERR-07: a non-exempt character cannot enter, cross or stop on a pit; a pit does not block sight."""
    state = position("bWA@b8 bWZ@b9 bFW@b9 yTR@e8 yGB@e9")
    assert_refused(state, "move bWA c8", "BG-MOVE-10")
    assert_refused(state, "move bWA c8-d8-e8", "BG-MOVE-10")
    assert not {sq("c8"), sq("d8")} & {a.dest for a in legal_actions(state) if isinstance(a, Move)}
    state = act(position("bWZ@b8 bFW@b8 yTR@e8"), "fireball bWZ e")
    assert at(state, "yTR") == "eliminated"


def test_BG_TERR_08_start_zone_squares_are_not_floor():
    """BG-TERR-08: revealed tokens cannot be placed on start-zone squares."""
    state = position("bWA@b0 yGB#A1.1", rooms=rooms(A1="*O1/0"))
    state = act(state, "reveal bWA A1")
    assert_refused(state, "place yGB a0", "BG-REVEAL-07")
    assert_refused(state, "place yGB c0", "BG-REVEAL-07")
    squares = {a.square for a in legal_actions(state) if isinstance(a, Place)}
    assert all(y >= 0 for _, y in squares)


def test_BG_TERR_09_markers_never_count_as_tokens():
    """BG-TERR-09: open and broken portcullis markers are not tokens: they never make a square non-empty or add
    to its token count."""
    state = position("bTH@d13 bRP@d13 bWA@c11 bSW@c11", ports="W1=bo")
    state = act(state, "move bTH c13")  # Thief + Rope between a broken and an open marker: 2 tokens, legal
    assert sorted(t.id for t in state.tokens_at(sq("c13"))) == ["bRP", "bTH"]
    state = act(state, "move bTH d13", "move bWA c12")
    assert sorted(t.id for t in state.tokens_at(sq("c12"))) == ["bSW", "bWA"]
    assert len(view(state, None)["tokens"]) == 4


def test_BG_TERR_10_empty_square_holds_no_character_and_no_object():
    """BG-TERR-10 (RUL-026): revealed tokens need an empty square: a square with a token already placed on it
    is not empty, even where figure + object would be allowed."""
    state = revealed_for_placing("bWA@b5 bGB#A2.1 yRP#A2.2")
    state = act(state, "place bGB b7")
    assert_refused(state, "place yRP b7", "BG-REVEAL-07")
    assert sq("b7") not in {a.square for a in legal_actions(state) if isinstance(a, Place)}


# --- §8 revealing rooms ----------------------------------------------------------------------------

def test_BG_REVEAL_01_costs_1_ap_and_needs_a_figure_with_access():
    """BG-REVEAL-01: revealing costs 1 AP and needs an unwounded own figure with direct access."""
    layout = rooms(A2="*P1/0")
    state = position("bWA@b5 bGB#A2.1", rooms=layout, ap=2)
    after = act(state, "reveal bWA A2")
    assert after.ap == 1 and after.room_at((0, 1)).revealed
    assert_refused(position("bWA@b5", rooms=layout, ap=0), "reveal bWA A2", "BG-TURN-03")
    assert_refused(position("bWA@b5!", rooms=layout), "reveal bWA A2", "BG-AP-02")
    assert_refused(position("bWA@b4", rooms=layout), "reveal bWA A2", "BG-REVEAL-02")
    assert_refused(position("bWA@b4 yWA@c5", rooms=layout), "reveal yWA A2", "BG-AP-02", seat="B")


def test_BG_REVEAL_02_direct_access_from_inside_the_maze():
    """BG-REVEAL-02: a figure on a border square of a revealed room, facing the face-down room with no wall on
    the edge, has access; standing on a gear gives none by itself, only position matters."""
    layout = rooms(A2="*P1/0", B3="*W2/0")
    state = position("bWA@b5 bTH@b4 bMK@a5 bCL@a11 bGB@c11 bWZ@a15 bTR@e12", rooms=layout)
    reveals = legal_texts(state, "reveal")
    assert reveals == {"reveal bWA A2", "reveal bMK A2", "reveal bGB A2", "reveal bTR B3"}
    assert_refused(state, "reveal bTH A2", "BG-REVEAL-02")  # one row too far
    assert_refused(state, "reveal bCL A2", "BG-REVEAL-02")  # a11|a10 is walled (printed by A3)
    assert_refused(state, "reveal bWZ A2", "BG-REVEAL-02")  # on A3's gear, far from A2
    assert_refused(state, "reveal bWA B3", "BG-REVEAL-02")


def test_BG_REVEAL_02_only_walls_of_the_revealed_side_are_known():
    """BG-REVEAL-02, BG-GEO-11 (engine ruling, rooms.has_access): a face-down room's own walls are unknown
    until it is revealed, so a wall printed only by the face-down room does not deny access."""
    state = position("bWA@a5 yGB@j18", rooms=rooms(A2="*W1/0", A3="P1/0"))
    assert "reveal bWA A2" in legal_texts(state)
    state = act(state, "reveal bWA A2")
    assert ["a5", "a6", 1] in view(state, None)["walls"]  # W1's outer wall r5c1:S, now face up


def test_BG_REVEAL_03_from_the_start_zone_both_touching_rooms():
    """BG-REVEAL-03 (RUL-004, base set): a figure on its own start zone may reveal both rooms touching it."""
    layout = "A1=*O1/0 B1=*O2/0 A2=*P1/0 B2=*P2/0 A3=*W1/0 B3=*W2/0 A4=*Q1/0 B4=*Q2/0"
    state = position("bWA@b0 bTH@i0 yWA@b21", rooms=layout)
    assert legal_texts(state, "reveal", "bWA") == {"reveal bWA A1", "reveal bWA B1"}
    assert legal_texts(state, "reveal", "bTH") == {"reveal bTH A1", "reveal bTH B1"}
    assert_refused(state, "reveal bWA A2", "BG-REVEAL-02")
    yellow = position("yWA@b21 bWA@b0", rooms=layout, active="Y")
    assert legal_texts(yellow, "reveal") == {"reveal yWA A4", "reveal yWA B4"}


def test_BG_REVEAL_04_no_reveal_through_a_wall_even_for_the_wall_walker():
    """BG-REVEAL-04 (BG-CHAR-WALLWALKER-05): the Wall-Walker cannot reveal across a wall."""
    state = position("bWW@a11 yGB@j18", rooms=rooms(A2="*P1/0"))
    assert_refused(state, "reveal bWW A2", "BG-REVEAL-04")
    assert not legal_texts(state, "reveal")
    assert "reveal bWW A2" in legal_texts(position("bWW@b11", rooms=rooms(A2="*P1/0")))


def test_BG_REVEAL_05_tokens_removed_room_shown_in_its_hidden_orientation():
    """BG-REVEAL-05 (RUL-027): the face-down tokens come off, the room turns face up in the orientation fixed at
    setup, then the tokens are placed."""
    state = position("bWA@b5 bGB#A2.1 yTR#A2.2 ySW#A2.3", rooms=rooms(A2="*P1/3"))
    state, events = apply(state, parse_action("reveal bWA A2", "B"))
    place = state.room_at((0, 1))
    assert place.revealed and place.tile == "P1" and place.orientation == 3
    assert [e.data for e in events if e.kind == "room_revealed"] == [
        {"slot": "A2", "tile": "P1", "orientation": 3, "by": "bWA", "tokens": ["bGB", "yTR", "ySW"]}]
    assert {at(state, t) for t in ("bGB", "yTR", "ySW")} == {"placing"}
    assert state.phase == "place" and view(state, "Y")["placement"]["tokens"] == ["bGB", "yTR", "ySW"]
    assert {"c8", "c9"} <= set(view(state, "Y")["pits"])  # P1's pits r3c3, r3c4 turned 3 quarters


def test_BG_REVEAL_05_orientation_drawn_at_setup_is_the_one_revealed():
    """BG-REVEAL-05, BG-SETUP-01: in a real game, the room shows the orientation drawn when the game began."""
    state = new_game(Options(), 11)
    drawn = {p.slot: (p.tile, p.orientation) for p in state.rooms}
    state = act(state, "team b0=WA d0=TH g0=CL i0=TR", seat="B")
    state = act(state, "team b21=WA d21=TH g21=CL i21=TR", seat="Y")
    while state.phase == "hide":
        state, _ = apply(state, legal_actions(state)[0])
    seat = state.active
    slot = "A1" if seat == "B" else "A4"
    state = act(state, "card 2", f"reveal {seat.lower()}WA {slot}")
    place = state.room_at((0, 0) if seat == "B" else (0, 3))
    assert place.revealed and (place.tile, place.orientation) == drawn[place.slot]


def test_BG_REVEAL_06_revealer_places_all_but_his_own_objects():
    """BG-REVEAL-06: the revealing player places every token except his own colour's objects, which his
    opponent then places."""
    state = position("bWA@b5 bSW#A2.1 yRP#A2.2 bGB#A2.3", rooms=rooms(A2="*P1/0"))  # a middle room holds 3
    state = act(state, "reveal bWA A2")
    assert state.to_act == ("B",)
    assert {a.token for a in legal_actions(state) if isinstance(a, Place)} == {"bGB", "yRP"}
    assert_refused(state, "place bSW b7", "BG-REVEAL-06")
    assert_refused(state, "place yRP b7", "BG-REVEAL-06", seat="Y")
    state = act(state, "place yRP c7", "place bGB d7")
    assert state.to_act == ("Y",) and state.placement.placer == "Y"
    assert {a.token for a in legal_actions(state) if isinstance(a, Place)} == {"bSW"}
    # in his own turn, Blue waits for it: told so, not "it is not your turn" (found by a play-test)
    waiting = assert_refused(state, "move bWA b6", "BG-REVEAL-06", seat="B")
    assert waiting.message == "wait: the other player places tokens of the revealed room"
    state = act(state, "place bSW e7", seat="Y")
    assert state.phase == "main" and state.active == "B" and state.placement is None
    # only the revealer's own objects: the opponent places at once
    state = act(position("bWA@b5 bSW#A2.1", rooms=rooms(A2="*P1/0")), "reveal bWA A2")
    assert state.to_act == ("Y",)


def test_BG_REVEAL_07_one_token_per_empty_floor_or_gear_square_of_the_room():
    """BG-REVEAL-07: each token goes on an empty floor square or the empty gear of that room; not on a pit,
    a start-zone square, another room, or an occupied square."""
    state = revealed_for_placing("bWA@b5 bGB#A2.1 yTR#A2.2 yRP#A2.3")
    assert_refused(state, "place bGB c8", "BG-REVEAL-07")  # pit
    assert_refused(state, "place bGB b5", "BG-REVEAL-07")  # another room (and occupied)
    assert_refused(state, "place bGB f7", "BG-REVEAL-07")  # another room
    state = act(state, "place bGB a10")  # the gear
    assert_refused(state, "place yTR a10", "BG-REVEAL-07")  # one token per square
    state = act(state, "place yTR e10", "place yRP e6")
    assert (at(state, "bGB"), at(state, "yTR"), at(state, "yRP")) == ("a10", "e10", "e6")


def test_BG_REVEAL_08_revealed_characters_are_figures_that_may_act_at_once():
    """BG-REVEAL-08 (RUL-031): placed characters are unwounded, belong to their colour, and the active
    player's may act later in the same turn."""
    state = revealed_for_placing(ap=3)
    state = act(state, "place bGB b7", "place yTR d9")
    assert not state.tokens["bGB"].wounded and not state.tokens["yTR"].wounded
    state = act(state, "move bGB b9")
    assert at(state, "bGB") == "b9" and state.ap == 1
    assert_refused(state, "move yTR d10", "BG-AP-02", seat="B")


def test_BG_REVEAL_09_the_revealing_figure_does_not_move():
    """BG-REVEAL-09: revealing moves nobody; it is not a move action."""
    state = position("bWA@b5", rooms=rooms(A2="*P1/0"))
    state, events = apply(state, parse_action("reveal bWA A2", "B"))
    assert at(state, "bWA") == "b5"
    assert [e.kind for e in events] == ["room_revealed"]


def test_BG_REVEAL_10_a_revealed_room_cannot_be_revealed_again():
    """BG-REVEAL-10: revealing an already revealed room is refused."""
    state = act(position("bWA@b5", rooms=rooms(A2="*P1/0")), "reveal bWA A2")
    assert_refused(state, "reveal bWA A2", "BG-REVEAL-10")
    assert_refused(position("bWA@b5"), "reveal bWA A2", "BG-REVEAL-10")


def _ex02_catalogue():
    raw = copy.deepcopy(builders._synthetic())
    raw["set"] = "synthetic-ex02"
    raw["rooms"]["W1"]["outer_walls"] = ["r5c1:S", "r5c5:S", "r5c5:E"]  # e11 walled off from A2 and B3
    register("synthetic-ex02", raw)


_ex02_catalogue()


def test_BG_EX_02_direct_access_worked_example():
    """BG-EX-02 (BG-REVEAL-02/04): rooms 1 (A2) and 2 (B3) are face down around revealed A3. The Warrior and the
    Cleric face room 1 with no wall: either may reveal it. The Wizard faces room 2: he may reveal it. The
    Wall-Walker is walled off from both. The Mechanork on A3's gear, on no face-down border, reveals nothing."""
    state = position("bWA@b11 bCL@c11 bWZ@e13 bWW@e11 bMK@a15 yGB@j18", set_name="synthetic-ex02",
                     rooms=rooms(A2="*P1/0", B3="*W2/0"))
    assert legal_texts(state, "reveal") == {"reveal bWA A2", "reveal bCL A2", "reveal bWZ B3"}
    for who in ("bWA", "bCL"):
        assert act(state, f"reveal {who} A2").room_at((0, 1)).revealed
    assert act(state, "reveal bWZ B3").room_at((1, 2)).revealed
    assert_refused(state, "reveal bWZ A2", "BG-REVEAL-02")
    assert_refused(state, "reveal bWW A2", "BG-REVEAL-04")
    assert_refused(state, "reveal bWW B3", "BG-REVEAL-04")
    assert_refused(state, "reveal bMK A2", "BG-REVEAL-02")
    assert_refused(state, "reveal bMK B3", "BG-REVEAL-02")


# --- §9 rotating rooms -----------------------------------------------------------------------------

def test_BG_ROT_01_a_figure_on_the_gear_turns_its_room_a_quarter_along_the_arrow():
    """BG-ROT-01: 1 AP, a quarter turn in the arrow's direction; only from the gear; never against the arrow."""
    state = position("bWA@a5 bTH@b5 bGB@a10!")
    after = act(state, "rotate bWA A1 ccw")
    assert after.room_at((0, 0)).orientation == 3 and after.ap == 4
    assert at(after, "bWA") == "a1" and board_of(after).gears[(0, 0)] == sq("a1")  # still on the gear
    assert_refused(state, "rotate bWA A1 cw", "BG-ROT-01")  # O1 turns counter-clockwise
    assert_refused(state, "rotate bTH A1 ccw", "BG-ROT-01")  # not on the gear
    assert_refused(state, "rotate bGB A2 ccw", "BG-AP-02")  # wounded on A2's gear


def test_BG_ROT_02_each_quarter_turn_is_a_separate_1_ap_action():
    """BG-ROT-02: a half turn costs 2 AP, three quarters 3 AP, each quarter its own action."""
    state = position("bWA@a5", ap=3)
    kinds = []
    for expected in (3, 2, 1):
        state, events = apply(state, parse_action("rotate bWA A1 ccw", "B"))
        kinds.append([e.kind for e in events])
        assert state.room_at((0, 0)).orientation == expected
    assert kinds == [["room_rotated"]] * 3 and state.ap == 0
    assert_refused(state, "rotate bWA A1 ccw", "BG-TURN-03")


def test_BG_ROT_03_the_twin_room_if_revealed_in_its_own_direction():
    """BG-ROT-03: from the gear the figure may instead turn the twin room (same number), wherever it is, if
    it is revealed; the twin follows its own arrow."""
    state = position("bWA@a5 yGB@j18")
    after = act(state, "rotate bWA B1 cw")  # O2 turns clockwise
    assert after.room_at((1, 0)).orientation == 1 and after.room_at((0, 0)).orientation == 0
    assert_refused(state, "rotate bWA B1 ccw", "BG-ROT-03")  # the twin follows its own arrow
    assert_refused(state, "rotate bWA A2 ccw", "BG-ROT-03")  # not the twin
    far = position("bWA@a20 yGB@j18")  # Q1 in A4, twin Q2 in B4
    assert legal_texts(far, "rotate") == {"rotate bWA A4 ccw", "rotate bWA B4 cw"}
    hidden = position("bWA@a5", rooms=rooms(B1="*O2/0"))
    assert_refused(hidden, "rotate bWA B1 cw", "BG-ROT-03")
    assert legal_texts(hidden, "rotate") == {"rotate bWA A1 ccw"}


def test_BG_ROT_04_one_ap_turns_one_room_only():
    """BG-ROT-04: the two rooms of a pair never turn together; turning both costs 2 AP."""
    state = position("bWA@a5", ap=2)
    state = act(state, "rotate bWA A1 ccw")
    assert (state.room_at((0, 0)).orientation, state.room_at((1, 0)).orientation) == (3, 0)
    state = act(state, "rotate bWA B1 cw")
    assert (state.room_at((0, 0)).orientation, state.room_at((1, 0)).orientation) == (3, 1)
    assert state.ap == 0


def test_BG_ROT_05_everything_in_the_room_turns_with_it():
    """BG-ROT-05: characters, wounded, objects and portcullis markers keep their room squares and turn with the
    room; the room stays in its place."""
    state = position("bWA@a15 yTR@b13 yGB@e15! bSW@e15 bRP@d11", ports="W1=ob")
    state = act(state, "rotate bWA A3 ccw")
    assert state.room_at((0, 2)).slot == (0, 2) and state.room_at((0, 2)).tile == "W1"
    assert {t: at(state, t) for t in ("bWA", "yTR", "yGB", "bSW", "bRP")} == {
        "bWA": "a11", "yTR": "c12", "yGB": "a15", "bSW": "a15", "bRP": "e14"}
    assert state.tokens["yGB"].wounded
    ports = sorted(view(state, None)["portcullises"])
    assert ports[:2] == [["c13", "c14", "open"], ["c13", "d13", "broken"]]
    walls = view(state, None)["walls"]
    assert ["b13", "c13", 1] in walls and ["c12", "c13", 1] in walls and ["e11", "f11", 1] in walls


def test_BG_ROT_06_a_rotation_is_never_taken_back():
    """BG-ROT-06: a turn cannot be undone; only further paid quarter turns bring the room back."""
    state = position("bWA@a5", ap=5)
    state = act(state, "rotate bWA A1 ccw")
    assert_refused(state, "rotate bWA A1 cw", "BG-ROT-01")
    state = act(state, "rotate bWA A1 ccw", "rotate bWA A1 ccw", "rotate bWA A1 ccw")
    assert state.room_at((0, 0)).orientation == 0 and at(state, "bWA") == "a5" and state.ap == 1


def test_BG_ROT_07_rotation_is_legal_whatever_the_room_holds_or_connects():
    """BG-ROT-07: enemies in the room, and connections made or cut, never forbid a rotation."""
    state = position("bWA@a15 yTR@b14 yGB@c15! bTH@a10 yWA@f11")
    board = board_of(state)
    assert not board.connected(sq("a10"), sq("a11")) and board.connected(sq("e11"), sq("f11"))
    assert "rotate bWA A3 ccw" in legal_texts(state)
    state = act(state, "rotate bWA A3 ccw")
    assert at(state, "bWA") == "a11" and at(state, "yTR") == "b12" and at(state, "yGB") == "a13"
    board = board_of(state)
    assert board.connected(sq("a10"), sq("a11"))  # a connection made...
    assert not board.connected(sq("e11"), sq("f11"))  # ...and one cut, next to an enemy figure


def test_BG_ROT_08_the_mechanork_ignores_arrows():
    """BG-ROT-08 (BG-CHAR-MECHANORK-01): the Mechanork may turn his room or its revealed twin either way."""
    state = position("bMK@a5 yGB@j18")
    assert legal_texts(state, "rotate") == {"rotate bMK A1 cw", "rotate bMK A1 ccw", "rotate bMK B1 cw",
                                            "rotate bMK B1 ccw"}
    assert act(state, "rotate bMK A1 cw").room_at((0, 0)).orientation == 1
    assert act(state, "rotate bMK B1 ccw").room_at((1, 0)).orientation == 3


# --- §20 placement timer -----------------------------------------------------------------------------

def test_BG_OPT_03_placement_timer_passes_the_objects_to_the_revealer():
    """BG-OPT-03: once the revealer has placed his tokens, the opponent who lets his time run out leaves the
    revealer's objects to the revealer, who places them."""
    state = position("bWA@b5 bSW#A2.1 yTR#A2.2 bAR#A2.3", rooms=rooms(A2="*P1/0"))
    state = act(state, "reveal bWA A2", "place yTR b7")
    assert state.placement.placer == "Y"
    assert_refused(state, "pass", "BG-REVEAL-06", seat="B")
    fallback = timeout_action(state, "Y")
    assert fallback == PassPlacement("Y")
    state, _ = apply(state, fallback)
    assert state.to_act == ("B",) and state.placement.passed
    assert {a.token for a in legal_actions(state) if isinstance(a, Place)} == {"bSW", "bAR"}
    assert_refused(state, "pass", "BG-OPT-03", seat="B")
    state = act(state, "place bAR e6")
    fallback = timeout_action(state, "B")
    assert isinstance(fallback, Place) and fallback.token == "bSW"
    state, _ = apply(state, fallback)
    assert state.phase == "main" and at(state, "bSW") not in ("placing", "b7", "e6")


def test_BG_REVEAL_02_03_reveals_listed_are_those_of_direct_access_along_random_games():
    """BG-REVEAL-02/03 (PR-CORE-05, PR-CORE-06): a figure's listed reveals (rooms.figure_actions) are the face-down
    rooms it has direct access to (`_access_slots`), whether or not a square beside it lies in a face-down room:
    the listing looks at the walls only where one does, or from the figure's own start zone. Along random games of
    the base set, Prison and Paladins & Dragons, for every unwounded character of the seat to act."""
    from dungeon_twister.engine.boardgame import rooms as rooms_module
    from dungeon_twister.engine.boardgame.actions import Reveal
    from dungeon_twister.engine.core.rng import Rng

    checked = revealing = 0
    for options, seed in ((Options(), 1), (Options(set_name="prison"), 2), (Options(set_name="paladins"), 3)):
        state, rng = new_game(options, seed), Rng(seed + 1)
        for _ in range(400):
            if state.outcome is not None:
                break
            if state.phase == "main":
                board, seat = board_of(state), state.to_act[0]
                hidden = [place.slot for place in state.rooms if not place.revealed]
                for token in state.tokens.values():
                    if token.where == "board" and token.is_character and not token.wounded and token.colour == seat:
                        listed = [a for a in rooms_module.figure_actions(state, board, seat, token)
                                  if isinstance(a, Reveal)]
                        access = rooms_module._access_slots(state, board, token) if hidden else []
                        assert listed == [Reveal(seat, token.id, slot) for slot in hidden if slot in access]
                        checked += 1
                        revealing += bool(listed)
            state, _ = apply(state, rng.choice(legal_actions(state)))
    assert checked > 300 and revealing > 10
