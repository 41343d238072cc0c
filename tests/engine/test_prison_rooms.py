"""Prison rooms 37-40: original designs of this project (docs/prison-rooms.md, engine/prison/data/prison.json).

The drawings in the document are the data; the data is well formed; every room is passable on its own; and in every
arrangement the scenarios use, every marked start square reaches the opponent's start zone (PR-COMP-01, PR-SLIT-01..03,
PR-CORE-02/12, PR-SETUP-01/02, PR-SCEN-1..5, RUL-042). The graph is tests/engine/roomgraph.py (independent of the engine,
whose board agrees with it); its figures are printed by `python tests/engine/roomgraph.py --distances --mixed`.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .roomgraph import (
    DATA, RowConfigs, brute_force, build_graph, count_through, crossings, draw, load_rooms, name, offset, pair,
    parse_document,
    parse_drawing, rotate_side, room_report, side_centres_connected, slit_lines, square, start_squares_reach_exit,
    tiles_of,
)

DOC = Path(__file__).resolve().parents[2] / "docs" / "prison-rooms.md"
PRISON = load_rooms("prison.json")
BASE = load_rooms("base_set.json")
RAW = json.loads((DATA / "prison.json").read_text())
EDGE_KINDS = ("internal_walls", "portcullises", "arrow_slits")

# 1G exactly as ../shared/rooms/base-set.md draws it: the style the Prison drawings follow.
BASE_1G = """\
1G: pair 1, arrow counter-clockwise, gear at r5c4
      c1  c2  c3  c4  c5
    +   +   +   +   +   +
 r1   . | . | O | . | .
    +   +---+   +---+   +
 r2   . | .   .   . | .
    +   +   +   +   +   +
 r3   . H .   .   . H .
    +   +   +   +   +   +
 r4   . | .   .   . | .
    +   +---+   +   +   +
 r5   . | .   O   @ | .
    +   +   +   +   +   +"""


def test_PR_COMP_01_eight_rooms_in_four_pairs_37_to_40_marked_as_original_designs():
    """PR-COMP-01: 8 rooms, pairs 37-40; G rooms turn counter-clockwise, D rooms clockwise (as the base set);
    RUL-042: the layouts are this project's own designs and the data says so."""
    assert list(PRISON) == ["37G", "37D", "38G", "38D", "39G", "39D", "40G", "40D"]
    for tile, room in PRISON.items():
        assert room["number"] == int(tile[:2])
        assert room["arrow"] == ("counter-clockwise" if tile.endswith("G") else "clockwise")
    assert "original design" in RAW["source"].lower() and "not the published" in RAW["source"].lower()


def test_RUL_042_the_drawings_in_docs_prison_rooms_md_are_the_data():
    """The document's drawings parse to exactly the JSON rooms (doc and data cannot drift)."""
    drawn = parse_document(DOC.read_text())
    assert drawn == PRISON
    for tile, room in PRISON.items():  # and the data draws back to the same picture
        assert parse_drawing(draw(tile, room)) == (tile, room)


def test_the_drawing_format_is_the_base_sets():
    """The parser and the drawer read and write ../shared/rooms/base-set.md's own pictures: 1G verbatim, and every
    base-set room round-trips to its data with no arrow slits."""
    assert [line.rstrip() for line in draw("1G", BASE["1G"])] == BASE_1G.splitlines()
    for tile, room in BASE.items():
        parsed_tile, parsed = parse_drawing(draw(tile, room))
        assert parsed_tile == tile and parsed["arrow_slits"] == []
        for key in ("pits", "internal_walls", "outer_walls", "portcullises"):
            assert parsed[key] == sorted(room[key])
        assert parsed["rotation"] == room["rotation"]


def test_a_drawing_with_a_portcullis_or_slit_on_the_frame_or_two_gears_is_refused():
    lines = draw("37G", PRISON["37G"])
    top = lines[2]
    for bad in (top[:5] + "===" + top[8:], top[:5] + "~~~" + top[8:]):
        with pytest.raises(ValueError, match="outer edge"):
            parse_drawing(lines[:2] + [bad] + lines[3:])
    row = lines[3]
    with pytest.raises(ValueError, match="outer edge"):
        parse_drawing(lines[:3] + [row[:4] + ":" + row[5:]] + lines[4:])
    gear = PRISON["37G"]["rotation"]
    other = "r1c1" if gear != "r1c1" else "r1c2"
    r, c = square(other)
    line = lines[3 + 2 * r]
    with pytest.raises(ValueError, match="two gears"):
        parse_drawing(lines[:3 + 2 * r] + [line[:6 + 4 * c] + "@" + line[7 + 4 * c:]] + lines[4 + 2 * r:])


@pytest.mark.parametrize("tile", list(PRISON))
def test_PR_SLIT_01_edge_lists_are_well_formed(tile):
    """Squares r1..r5 c1..c5; every edge joins two side-by-side squares of the room, written in reading order, once;
    no edge is both a wall and a slit (or any two kinds); outer walls lie on the side they name; one gear, on no pit."""
    room = PRISON[tile]
    names = {name(r, c) for r in range(5) for c in range(5)}
    assert room["rotation"] in names and room["rotation"] not in room["pits"]
    assert set(room["pits"]) <= names and len(set(room["pits"])) == len(room["pits"])
    seen: dict = {}
    for kind in EDGE_KINDS:
        for text in room[kind]:
            a, b = pair(text)
            assert text.split("-")[0] in names and text.split("-")[1] in names, text
            assert abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1, f"{text} joins squares that are not side by side"
            assert a < b, f"{text} is not written in reading order"
            assert text not in seen, f"{text} is listed as {seen.get(text)} and {kind}"
            seen[text] = kind
    border = {"N": lambda r, c: r == 0, "S": lambda r, c: r == 4, "W": lambda r, c: c == 0, "E": lambda r, c: c == 4}
    assert len(set(room["outer_walls"])) == len(room["outer_walls"])
    for text in room["outer_walls"]:
        sq, side = text.split(":")
        assert sq in names and border[side](*square(sq)), f"{text} is not on the room's frame"


def test_no_portcullis_or_arrow_slit_on_a_room_outer_edge():
    """As in the base set (../shared/rooms/base-set.md: "No portcullis lies on a room's outer edge"), portcullises and
    arrow slits lie between two squares of the same room; the frame holds only walls. Nor does one open onto a pit."""
    for rooms in (BASE, PRISON):
        for room in rooms.values():
            for kind in ("portcullises", "arrow_slits"):
                for text in room.get(kind, []):
                    a, b = text.split("-")
                    assert a != b and a[0] == "r" and b[0] == "r"  # both squares inside the room (checked above)
    for tile, room in PRISON.items():
        for text in room["portcullises"] + room["arrow_slits"]:
            assert not set(text.split("-")) & set(room["pits"]), f"{tile} {text} opens onto a pit"


def test_density_is_comparable_to_the_base_set():
    """As many pits as the base set (14), as many portcullises (13, within the 14 hex markers of PR-COMP-03 so all
    can be marked open at once), 2 or 3 arrow slits per room, one gear per room; every room has all three features."""
    total = {key: sum(len(r[key]) for r in PRISON.values()) for key in ("pits", "portcullises", "arrow_slits")}
    assert total["pits"] == sum(len(r["pits"]) for r in BASE.values()) == 14
    assert total["portcullises"] == sum(len(r["portcullises"]) for r in BASE.values()) == 13 <= 14
    for room in PRISON.values():
        assert 2 <= len(room["arrow_slits"]) <= 3 and room["pits"] and room["portcullises"]
        assert isinstance(room["rotation"], str)  # one gear: a single square
    blocked = sum(len(r[k]) for r in PRISON.values() for k in EDGE_KINDS)
    base_blocked = sum(len(r[k]) for r in BASE.values() for k in ("internal_walls", "portcullises"))
    # within a quarter of the base set's blocked inner edges (fewer: every room is one piece, see below)
    assert 0.75 * base_blocked <= blocked <= base_blocked


@pytest.mark.parametrize("tile", list(PRISON))
def test_PR_CORE_12_every_room_is_passable_on_its_own(tile):
    """Walls, arrow slits, closed portcullises and pits all blocking: every opening of the room reaches every other
    inside it, no square is sealed, the gear is reachable, and the middles of the four sides are open and joined
    (which makes every arrangement of Prison rooms traversable, see below). The same with everything open."""
    room = PRISON[tile]
    strict = room_report(room)
    assert strict["opening_components"] == 1 and strict["sealed"] == [] and strict["gear_reached"]
    relaxed = room_report(room, portcullis_open=True, pits_pass=True)
    assert relaxed["opening_components"] == 1 and relaxed["sealed"] == []
    assert side_centres_connected(room)


@pytest.mark.parametrize("tile", list(PRISON))
def test_PR_SLIT_03_every_arrow_slit_looks_into_a_corridor(tile):
    """A figure beside each slit sees through it along a line of at least 3 squares of the room, or of 2 that
    continues out of the room (into the next room or a start zone)."""
    lines = slit_lines(PRISON[tile])
    assert len(lines) == 2 * len(PRISON[tile]["arrow_slits"])
    for slit in PRISON[tile]["arrow_slits"]:
        views = [x for x in lines if x["slit"] == slit]
        assert any(x["squares"] >= 3 or (x["squares"] >= 2 and x["leaves_room"]) for x in views), views


def test_the_key_the_rope_and_the_naga_each_shorten_a_crossing():
    """Portcullises, pits and slits are shortcuts, not decoration: in every room one of them shortens a side-to-side
    crossing; in every pair opening portcullises (Key, Assassin, Colossus) and crossing slits (Naga) each do; and in
    pairs 39 and 40 (scenario 1: Key, Rope, Naga) so does crossing pits (Rope, jump card)."""
    modes = {"key": {"portcullis_open": True}, "rope": {"pits_pass": True}, "naga": {"slits_pass": True}}

    def shortens(tile, mode):
        return any(a < b for a, b in zip(crossings(PRISON[tile], **mode), crossings(PRISON[tile])))

    for tile in PRISON:
        assert None not in crossings(PRISON[tile])
        assert any(shortens(tile, mode) for mode in modes.values()), tile
    for number in (37, 38, 39, 40):
        used = {tool for tool, mode in modes.items() for tile in tiles_of((number,)) if shortens(tile, mode)}
        assert used >= ({"key", "rope", "naga"} if number in (39, 40) else {"key", "naga"}), (number, used)


def test_the_graph_uses_the_engines_orientation_convention():
    """roomgraph repeats engine/boardgame/geometry.py's orientation arithmetic (a tile's printed top faces Yellow)."""
    from dungeon_twister.engine.boardgame.geometry import local_to_offset
    from dungeon_twister.engine.boardgame.geometry import rotate_side as engine_rotate_side

    for k in range(4):
        for r in range(5):
            for c in range(5):
                assert offset((r, c), k) == local_to_offset((r, c), k)
        for side in "NESW":
            assert rotate_side(side, k) == engine_rotate_side(side, k)


@pytest.mark.parametrize("scenario,pairs", [("prison-1", (39, 40)), ("prison-2", (37, 38)), ("prison-3", (38, 40))])
def test_PR_SCEN_every_start_square_reaches_an_exit_in_every_2x2_arrangement(scenario, pairs):
    """PR-SCEN-1-01, PR-SCEN-2-01, PR-SCEN-3-01: the two pairs as a 2 x 2 square, every placement of the 4 rooms and
    every orientation of each (6144): every marked start square of each player reaches the opponent's start zone
    with walls, arrow slits, closed portcullises and pits all blocking (built one arrangement at a time)."""
    assert RAW["setup"][scenario]["pairs"] == list(pairs)
    ok, total = brute_force(tiles_of(pairs), 2, PRISON)
    assert (ok, total) == (6144, 4 * 3 * 2 * 4 ** 4)


def test_the_row_transfer_count_agrees_with_building_every_arrangement():
    """The exact count used for the larger mazes equals the one-by-one count, on mazes where some arrangements are
    blocked (base pairs 1+2 with everything blocking; base pair 1 with Prison pair 39, pits passable)."""
    rooms = {**BASE, **PRISON}
    for tiles, mode in ((tiles_of((1, 2)), {}), (tiles_of((1, 39)), {"pits_pass": True})):
        fast = count_through(tiles, 2, RowConfigs(rooms, **mode))
        assert fast == brute_force(tiles, 2, rooms, **mode)
    assert count_through(tiles_of((1, 2)), 2, RowConfigs(BASE))[0] < 6144  # the base set does get blocked


@pytest.mark.parametrize("scenario", ["prison-4", "prison-5"])
def test_PR_SCEN_every_arrangement_of_the_2x3_and_2x4_mazes_is_traversable(scenario):
    """PR-SCEN-4-01 (2 x 3, RUL-063) and PR-SCEN-5-01 (2 x 4): every placement and orientation (2,949,120 and
    2,642,411,520 arrangements, counted exactly row by row) connects the two start zones, everything blocking."""
    setup = RAW["setup"][scenario]
    rows = setup["length_rooms"]
    ok, total = count_through(tiles_of(setup["pairs"]), rows, RowConfigs(PRISON))
    assert ok == total == {3: 720 * 4 ** 6, 4: 40320 * 4 ** 8}[rows]


def test_mixed_games_a_prison_pair_is_a_better_partner_than_any_base_pair():
    """Mixed games (base rooms with Prison rooms): a base pair in a 2 x 2 maze with any Prison pair is traversable,
    everything blocking, in at least as many arrangements as with the best other base pair (the Prison rooms join
    their four sides; the base set's own rooms often do not)."""
    rooms = {**BASE, **PRISON}
    configs = RowConfigs(rooms)
    for b in (1, 2, 3, 4):
        best_base = max(count_through(tiles_of((b, o)), 2, configs)[0] for o in (1, 2, 3, 4) if o != b)
        for p in (37, 38, 39, 40):
            assert count_through(tiles_of((b, p)), 2, configs)[0] >= best_base, (b, p)


def test_setup_markings_and_capacities_of_the_scenarios():
    """PR-SETUP-01/02 and PR-SCEN: scenarios 1-3 seed 1 object per room (white digit 1: objects only), scenario 4 two
    tokens of any kind per room (yellow 2), scenario 5 the base capacities (Schema 12 is not in the text, RUL-028).
    Each capacity holds exactly the tokens the scenario leaves to seed; 4 marked start squares (RUL-023)."""
    setup = RAW["setup"]
    assert RAW["board"]["start_squares"] == [2, 4, 7, 9]
    leftover = {  # tokens per player minus those placed on the start zone
        "prison-1": 2,  # Key, Rope (characters all start on the zone)
        "prison-2": 2,  # Telescopic Lance, Rope
        "prison-3": 2,  # Key, Telescopic Lance
        "prison-4": 6 + 4 - 4,  # 6 characters and 4 objects, 4 characters on the zone
        "prison-5": 8 + 6 - 4,
    }
    for scenario, entry in setup.items():
        rooms = 2 * entry["length_rooms"]
        assert len(entry["pairs"]) * 2 == rooms
        cap = entry["capacity"]
        if "every_room" in cap:
            total = cap["every_room"] * rooms
        else:  # the 4 rooms touching a start zone, and the middle ones
            total = 4 * cap["end_room"] + (rooms - 4) * cap["middle_room"]
        assert total == 2 * leftover[scenario], scenario
        assert entry["digit"] == ("white" if scenario in ("prison-1", "prison-2", "prison-3") else "yellow")


def test_start_squares_reach_exit_sees_a_blocked_maze():
    """The brute-force check is not vacuous: with every room turned so that walls face the start zones, it fails."""
    walled = {"X": {"number": 99, "arrow": "clockwise", "rotation": "r3c3", "pits": [], "internal_walls": [],
                    "outer_walls": [f"r1c{c}:N" for c in range(1, 6)], "portcullises": [], "arrow_slits": []}}
    layout = {(0, 0): ("X", 0), (1, 0): ("X", 0), (0, 1): ("X", 0), (1, 1): ("X", 0)}
    assert not start_squares_reach_exit(layout, walled, 2)
    layout_open = {slot: ("X", 1) for slot in layout}  # walls turned to the east side
    assert start_squares_reach_exit(layout_open, walled, 2)


@pytest.mark.parametrize("pairs", [(37, 38), (39, 40)])
def test_PR_SLIT_02_the_engines_board_agrees_with_the_room_graph(pairs):
    """The engine's board (engine/boardgame/board.py) now knows arrow slits: over every tile of the pairs in each
    orientation, its connected neighbours (walls, slits and closed portcullises cut a link: PR-CORE-02, PR-SLIT-02)
    are exactly the room graph's, on every square that is not a pit (the graph leaves pits out)."""
    from dungeon_twister.engine.boardgame.board import Board
    from dungeon_twister.engine.boardgame.catalogue import load
    from dungeon_twister.engine.boardgame.state import RoomPlace

    catalogue = load("prison")
    tiles = tiles_of(pairs)
    compared = 0
    for k in range(4):
        layout = {(i % 2, i // 2): (tile, (k + i) % 4) for i, tile in enumerate(tiles)}
        places = tuple(RoomPlace(slot, tile, o, True) for slot, (tile, o) in sorted(layout.items(),
                                                                                  key=lambda kv: kv[0][::-1]))
        board = Board(catalogue, 2, places, ())
        nodes, nbrs = build_graph(layout, PRISON, 2)
        assert board.slits, "the slits of the tiles reach the board"
        for sq in sorted(nodes):
            engine = {o for o in board.connected_neighbours(sq) if o not in board.pits}
            assert engine == set(nbrs[sq]), (k, sq)
            compared += 1
    assert compared == 4 * (10 * 10 + 2 * 10 - sum(len(PRISON[t]["pits"]) for t in tiles))  # 2 x 2 rooms, 2 zones
