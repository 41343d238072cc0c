"""The board drawn from engine views: terrain, edges, tokens, face-down rooms and tokens, start zones.

Hand-written positions use the synthetic rooms of tests/engine/builders.py (all revealed, orientation 0):
pits c8 d8 (room A2, P1); rotation mechanisms a5 f5 a10 f10 ...; room A3 (W1) walls c13 in on the west and north,
with portcullises on its east (c13|d13) and south (c12|c13) edges; B3 (W2) repeats it five files east.
"""

from __future__ import annotations

import pytest

from dungeon_twister.client import board as board_module
from dungeon_twister.client.board import board_text, render_board
from dungeon_twister.engine import Options, apply, new_game, parse_action, view
from dungeon_twister.engine.boardgame import catalogue as engine_catalogue

from tests.engine.builders import DEFAULT_ROOMS, _synthetic, act, position, register_synthetic


def lines(state, seat: str = "B") -> list[str]:
    return board_text(view(state, seat)).splitlines()


def rank(board: list[str], number: int) -> str:
    return next(line for line in board if line.startswith(f"{number:>2} "))


def edge_below(board: list[str], number: int) -> str:
    return board[board.index(rank(board, number)) + 1]


def cell(line: str, file: str) -> str:
    """The 5 characters of a square on a rank line."""
    start = 4 + 6 * "abcdefghij".index(file)
    return line[start:start + 5]


def east_edge(line: str, file: str) -> str:
    return line[9 + 6 * "abcdefghij".index(file)]


def test_pits_rotation_mechanisms_and_marked_start_squares():
    board = lines(position("-"))
    assert cell(rank(board, 8), "c") == " ( ) " and cell(rank(board, 8), "d") == " ( ) "
    assert cell(rank(board, 5), "a") == " @1↺ ", "O1 turns counter-clockwise"
    assert cell(rank(board, 5), "f") == " @1↻ ", "its twin O2 clockwise"
    assert cell(rank(board, 20), "a") == " @4↺ "
    assert [cell(rank(board, 0), f) for f in "abcd"] == ["     ", "  ◦  ", "     ", "  ◦  "]


def test_a_figure_on_a_rotation_mechanism_still_shows_it():
    """BG-ROT-01: who stands on a gear may turn the room: the gear's arrow stays beside the token (the pair number
    gives way); carrying something, the cell shows the token and its load as anywhere else."""
    board = lines(position("bWA@a5 yTR@f5 yTH@a10 yRP@a10"))
    assert cell(rank(board, 5), "a") == "@bWA↺" and cell(rank(board, 5), "f") == "@yTR↻"
    assert cell(rank(board, 10), "a") == "yTHRP"


def test_PR_SLIT_01_arrow_slits_are_drawn_as_dotted_lines():
    """The Prison test rooms (tests/engine/prison/builders.py) add the slits d14|e14 and d11|d12 to room A3: drawn
    ┊ across a rank and ┈ between ranks; a base-set view has no slits and draws none."""
    from tests.engine.prison.builders import prison_position

    state = prison_position("bNG@h4 yMK@h18")
    board = lines(state)
    assert east_edge(rank(board, 14), "d") == "┊"
    assert cell(edge_below(board, 12), "d") == "┈┈┈┈┈"
    assert east_edge(rank(board, 13), "d") == " " and cell(edge_below(board, 13), "d") == "     "
    assert "┊" not in "".join(lines(position("-"))) and "┈" not in "".join(lines(position("-")))
    assert view(state, "B")["slits"] == [["a16", "b16"], ["d11", "d12"], ["d14", "e14"], ["f16", "g16"],
                                         ["i11", "i12"], ["i14", "j14"]]
    assert "slits" not in view(position("-"), "B")


def test_walls_and_portcullises_open_closed_and_broken():
    board = lines(position("-", ports="W1=ob"))
    line = rank(board, 13)
    assert east_edge(line, "b") == "│", "wall west of c13"
    assert east_edge(line, "c") == "╎", "open portcullis c13|d13"
    assert cell(edge_below(board, 13), "c") == "╱╱╱╱╱", "broken portcullis c12|c13"
    assert cell(edge_below(board, 14), "c") == "─────", "wall north of c13"
    assert east_edge(line, "h") == "║", "W2's portcullises are closed"
    assert cell(edge_below(board, 13), "h") == "═════"
    assert edge_below(board, 11).startswith("   ├─────╴"), "W1's outer wall south of a11"


def test_characters_by_colour_wounded_and_what_they_carry():
    board = lines(position("bWA@c4 bRP@c4 yTR@c6! yGB@d6 ySW@e6 bTH@c8 yCL@e2! yAR@e2 bMK@f4 bTR@f4!"))
    assert cell(rank(board, 4), "c") == "bWARP", "the Warrior carries the Rope"
    assert cell(rank(board, 4), "f") == "bMKtr", "the Mechanork carries the wounded Troll"
    assert cell(rank(board, 6), "c") == " ytr ", "a wounded Troll"
    assert cell(rank(board, 6), "d") == " yGB "
    assert cell(rank(board, 6), "e") == " ySW ", "an object alone"
    assert cell(rank(board, 8), "c") == "(bTH)", "the Thief stands on a pit"
    assert cell(rank(board, 2), "e") == "yclAR", "the Armor lies with the wounded Cleric"


def test_token_styles_tell_colours_wounded_and_objects_apart():
    fragments = [f for line in render_board(view(position("bWA@c4 yTR@c6! ySW@e6"), "B")) for f in line]
    styles = {text: style for style, text in fragments}
    assert styles["bWA"] == "class:token.b"
    assert styles["ytr"] == "class:token.y.wounded"
    assert styles["ySW"] == "class:object.y"


def test_face_down_rooms_hidden_tokens_and_start_zones():
    state = new_game(Options(beginner=True), 7)
    state, _ = apply(state, parse_action("team b0=TH d0=WA g0=TR i0=GB", "B"))
    state, _ = apply(state, parse_action("team b16=TH d16=WA g16=TR i16=GB", "Y"))
    state, _ = apply(state, parse_action("hide bCL A1", "B"))
    board = lines(state, "B")
    assert board[0].strip() == "Yellow start zone (rank 16)" and board[-1].strip() == "Blue start zone (rank 0)"
    assert cell(rank(board, 0), "b") == " bTH?", "our own face-down team is known to us"
    assert cell(rank(board, 16), "b") == " y?? ", "the opponent's team is not"
    assert "A3 face down" in rank(board, 14) and "B3 face down" in rank(board, 14)
    assert "░ b ░" in rank(board, 3), "the hidden Cleric shows only its colour in room A1"
    assert "Cleric" not in "\n".join(board) and "bCL" not in "\n".join(board)


def test_a_view_that_sees_everything_names_the_hidden_tokens_of_a_face_down_room():
    """Play-test of a finished game's replay ("everything is shown, hidden tokens included"): a room nobody
    revealed was drawn with its tokens' colours only (y y b). A view that names them (the replay's, GOD) draws
    their ids in the room; a seat's view still only the colours."""
    from dungeon_twister.engine.core.events import GOD

    state = new_game(Options(beginner=True), 7)
    state, _ = apply(state, parse_action("team b0=TH d0=WA g0=TR i0=GB", "B"))
    state, _ = apply(state, parse_action("team b16=TH d16=WA g16=TR i16=GB", "Y"))
    for text, seat in (("hide bCL A1", "B"), ("hide yCL A1", "Y")):
        state, _ = apply(state, parse_action(text, seat))
    assert "░ bCL yCL ░" in rank(lines(state, GOD), 3)
    assert "░ b y ░" in rank(lines(state, "B"), 3) and "yCL" not in "\n".join(lines(state, "B"))


# --- the layout cache: a render from the cache is the render of the view itself ---------------------------------
# Each test starts with an empty cache (fixture) and compares a render that goes through the cache with a fresh one,
# drawn after clear_cache() from the same view.



# --- the layout cache ------------------------------------------------------------------------------------------
# A render through the cache must be the render of the view itself: each test compares it with a fresh render of
# the same view (drawn with the cache emptied) and checks which layout was drawn or reused.

@pytest.fixture(autouse=True)
def empty_cache():
    board_module.clear_cache()
    yield
    board_module.clear_cache()


def fresh(v: dict):
    """The render of a view drawn from nothing: with the cache emptied first (and put back after)."""
    kept = list(board_module._cache)
    board_module.clear_cache()
    try:
        return render_board(v)
    finally:
        board_module._cache[:] = kept


def drawn_layout():
    """The layout the last render used (the cache keeps the most recently used first)."""
    return board_module._cache[0]


def test_a_move_reuses_the_layout_and_renders_what_a_fresh_render_does():
    state = position("bWA@c4 bRP@c5 yTR@c6! bTH@c7")
    before = view(state, "B")
    render_board(before)
    layout = drawn_layout()
    moved = view(act(state, "move bWA d4"), "B")
    cached = render_board(moved)
    assert drawn_layout() is layout and board_module.cached_layouts() == 1, "the layout did not change"
    assert cached != render_board(before), "the token moved on the board"
    assert cached == fresh(moved)
    assert cell(rank(board_text(moved).splitlines(), 4), "d") == " bWA "
    assert cell(rank(board_text(moved).splitlines(), 4), "c") == "     "


def port_east_of_c13(board: list[str]) -> str:
    return east_edge(rank(board, 13), "c")


def port_south_of_c13(board: list[str]) -> str:
    return cell(edge_below(board, 13), "c")


def a2_face_down(board: list[str]) -> bool:
    return "A2 face down" in rank(board, 9)


@pytest.mark.parametrize("text, tokens, options, probe, before, after", [
    # A3 (W1) turns a quarter counter-clockwise: its broken south portcullis comes to its east side
    ("rotate bWA A3 ccw", "bWA@a15 yTR@b13", {"ports": "W1=ob"}, port_east_of_c13, "╎", "╱"),
    ("break bWA n", "bWA@c12", {}, port_south_of_c13, "═════", "╱╱╱╱╱"),
    ("open bTH n", "bTH@c12", {}, port_south_of_c13, "═════", "╌╌╌╌╌"),
    ("reveal bWA A2", "bWA@b5 bGB#A2.1 yTR#A2.2", {"rooms": DEFAULT_ROOMS.replace("A2=P1/0", "A2=*P1/3")},
     a2_face_down, True, False),
])
def test_a_layout_change_draws_a_new_layout(text, tokens, options, probe, before, after):
    state = position(tokens, **options)
    first_view = view(state, "B")
    first = render_board(first_view)
    layout = drawn_layout()
    changed_view = view(act(state, text), "B")
    changed = render_board(changed_view)
    assert drawn_layout() is not layout and board_module.cached_layouts() == 2
    assert changed == fresh(changed_view)
    assert probe(board_text(first_view).splitlines()) == before
    assert probe(board_text(changed_view).splitlines()) == after
    assert render_board(first_view) == first and drawn_layout() is layout, "the earlier layout is still cached"


def test_hidden_tokens_are_drawn_from_each_view_over_one_layout():
    """Hiding tokens in a face-down room changes no layout: the colours drawn in the room follow each view."""
    state = new_game(Options(beginner=True), 7)
    state, _ = apply(state, parse_action("team b0=TH d0=WA g0=TR i0=GB", "B"))
    state, _ = apply(state, parse_action("team b16=TH d16=WA g16=TR i16=GB", "Y"))
    hid = []
    for text, seat in (("hide bCL A1", "B"), ("hide yCL A1", "Y")):
        render_board(view(state, seat))
        state, _ = apply(state, parse_action(text, seat))
        hid.append(view(state, seat))
    render_board(hid[0])
    layout = drawn_layout()
    assert render_board(hid[1]) == fresh(hid[1])
    render_board(hid[0])
    assert drawn_layout() is layout and render_board(hid[0]) == fresh(hid[0])
    assert "░ b y ░" in rank(board_text(hid[1]).splitlines(), 3), "both hidden tokens of A1, by colour"


def test_each_viewer_sees_its_own_tokens_through_a_shared_layout():
    """Blue, Yellow and a spectator see one layout (it is public) but their own tokens: Blue's face-down team,
    drawn for Blue, never shows in Yellow's or the spectator's render."""
    state = new_game(Options(beginner=True), 7)
    state, _ = apply(state, parse_action("team b0=TH d0=WA g0=TR i0=GB", "B"))
    state, _ = apply(state, parse_action("team b16=TH d16=WA g16=TR i16=GB", "Y"))
    views = {seat: view(state, seat) for seat in ("B", "Y", None)}
    renders = {seat: render_board(v) for seat, v in views.items()}
    assert board_module.cached_layouts() == 1
    for seat, v in views.items():
        assert renders[seat] == fresh(v)
    assert cell(rank(board_text(views["B"]).splitlines(), 0), "b") == " bTH?"
    for seat in ("Y", None):
        render_board(views["B"])
        assert cell(rank(board_text(views[seat]).splitlines(), 0), "b") == " b?? "


def test_a_view_changed_in_place_is_drawn_as_it_is_now():
    """The cache keeps its own copy of the layout fields: a view whose portcullis list is changed in place after
    a render (as a client applying a change to the view it holds could) is drawn with the change."""
    v = view(position("bTH@c12"), "B")
    render_board(v)
    index = next(i for i, (a, b, _) in enumerate(v["portcullises"]) if {a, b} == {"c12", "c13"})
    v["portcullises"][index][2] = "open"
    assert render_board(v) == fresh(v)
    assert cell(edge_below(board_text(v).splitlines(), 13), "c") == "╌╌╌╌╌"


def test_the_cache_holds_a_few_layouts_the_most_recent():
    state = position("bWA@a5", ap=5)
    views = [view(state, "B")]
    for text in ["rotate bWA B1 cw"] * 3 + ["rotate bWA A1 ccw"] * 2:  # from A1's gear: its twin, then A1
        state = act(state, text)
        views.append(view(state, "B"))
    assert len({str(v["rooms"]) for v in views}) == 6 > board_module.CACHE_SIZE, "six layouts"
    for v in views:
        render_board(v)
    assert board_module.cached_layouts() == board_module.CACHE_SIZE
    for v in views:
        assert render_board(v) == fresh(v)
    assert board_module.cached_layouts() == board_module.CACHE_SIZE


def test_a_set_registered_again_under_its_name_is_drawn_from_its_new_catalogue():
    """The layout is keyed on the catalogue object too: rooms re-registered under the same set name redraw."""
    v = view(position("-"), "B")
    assert cell(rank(board_text(v).splitlines(), 5), "a") == " @1↺ "
    try:
        changed = _synthetic()
        changed["rooms"]["O1"]["number"] = 9
        engine_catalogue.register("synthetic", changed)
        assert cell(rank(board_text(v).splitlines(), 5), "a") == " @9↺ "
    finally:
        register_synthetic()
    assert cell(rank(board_text(v).splitlines(), 5), "a") == " @1↺ "


def test_each_sides_last_move_is_shaded_in_its_colour():
    """The route of the last move of each side (from its `moved` event) is shaded on the board, tokens and empty
    squares alike; the text is the same as without it."""
    state = position("bWA@d5 yTR@c9")
    v = view(state, "B")
    plain = render_board(v)
    shaded = render_board(v, {"B": ["c4", "c5", "d5"], "Y": ["c10", "c9"]})
    assert ["".join(t for _, t in line) for line in shaded] == ["".join(t for _, t in line) for line in plain]

    def styles(lines, rank_number, file):
        line = next(line for line in lines if "".join(t for _, t in line).startswith(f"{rank_number:>2} "))
        column, styles_ = 0, []
        start = 4 + 6 * "abcdefghij".index(file)
        for style, text in line:
            if column < start + 5 and column + len(text) > start:
                styles_.append(style)
            column += len(text)
        return styles_

    assert all("class:board.trail-b" in style for style in styles(shaded, 5, "d"))  # bWA at the end of its route
    assert all("class:board.trail-b" in style for style in styles(shaded, 4, "c"))  # an empty square it crossed
    assert all("class:board.trail-y" in style for style in styles(shaded, 9, "c"))
    assert not any("trail" in style for style in styles(shaded, 6, "c"))


def test_the_client_keeps_each_sides_last_route_from_the_events():
    from dungeon_twister.client.inbox import handle
    from dungeon_twister.protocol import TableEvent

    from test_client_prompt import TABLE, WiredSession
    from tests.engine.builders import position_text

    wired = WiredSession()
    wired.seat(position_text("bWA@c4 yTR@c9"))
    handle(wired.session, TableEvent(TABLE, 1, {"kind": "moved", "token": "yTR", "route": ["c9", "c10"],
                                                "take": None, "leave": []}))
    handle(wired.session, TableEvent(TABLE, 2, {"kind": "jumped", "token": "bWA", "route": ["c4", "c5", "c6"]}))
    assert wired.session.state.trails == {"Y": ["c9", "c10"], "B": ["c4", "c5", "c6"]}


def test_PD_TERR_paladins_terrain_and_illusions_are_drawn():
    """The Paladins & Dragons test rooms (tests/engine/paladins/builders.py): a crevasse b3, an obstacle d3, the
    fountain d5, Rockfall b18, fog b17 b16, the Pentacle d18-e19; Blue's illusion rubble on b7 shows its colour."""
    from tests.engine.paladins.builders import pd_position

    state = act(pd_position("bIL@a7 yGB@h4"), "illusion bIL rubble b7")
    board = lines(state)
    assert cell(rank(board, 3), "b") == " vvv " and cell(rank(board, 3), "d") == " [X] "
    assert cell(rank(board, 5), "d") == " (Y) " and cell(rank(board, 18), "b") == " ^^^ "
    assert cell(rank(board, 17), "b") == " ~~~ " and cell(rank(board, 19), "e") == " <*> "
    assert cell(rank(board, 7), "b") == " [b] "
    assert "^^^" not in "".join(lines(position("-")))


@pytest.mark.parametrize("set_name", [None, "prison", "paladins", "all_sets"])
def test_every_revealed_room_keeps_the_board_lines_aligned(set_name):
    """Seen by hand in an all_sets game: the rotation mechanism of a room of pair 39 drew " @39↻ ", six characters
    in a five-character cell, and pushed the rest of its line (the room's edge, the panel's separator) one column
    to the right. Every room of every set, revealed, keeps every line of the board the same width; a two-digit
    pair is drawn " @39↻"."""
    from dungeon_twister.engine.boardgame.state import room_place

    state = new_game(Options(set_name=set_name) if set_name else Options(), 2).thaw()
    state.rooms = tuple(room_place(p.slot, p.tile, p.orientation, True) for p in state.rooms)
    state.seal()
    board = [line for line in board_text(view(state, "B")).splitlines() if line[3:4] in ("│", "├", "┌", "└")]
    right = len(board[0]) - 1  # the frame's east side, where each line of the board ends (a room's number after)
    assert len(board) == 2 * 22 + 1 and all(line[right] in "│┤┐┘" for line in board), [
        line for line in board if line[right] not in "│┤┐┘"]
    numbers = {state.catalogue.rooms[p.tile].number for p in state.rooms}
    for number in numbers:
        assert any(f"@{number}↻" in line or f"@{number}↺" in line for line in board), number


def test_a_copys_four_character_id_keeps_its_square_five_characters_wide():
    """DT-279: a second copy of an object is `bKY2`. Drawn " bKY2 " alone, or "bPA" + "KY2" under a figure, it took
    six or seven columns and moved the rest of its rank (the frame, the room numbers) left or right (play-test
    pt25 F5: "bPACH  bKY2"). Every square stays five characters: the marks give way ("bKY2 ", "(bKY2", "bKY2↺"),
    a carried copy's code is cut ("bWARP"); the edges: three-character ids keep their marks."""
    state = position("bWA@c4 bRP@c4 ySW@e6 bTH@c8 bAR@d8 bGB@a5 yCL@e2! yAR@e2 bMK@d6")
    seen = view(state, "B")
    copies = {"bRP": "bRP2", "ySW": "ySW2", "bAR": "bAR2", "bGB": "bGB2", "yAR": "yAR2"}
    seen["tokens"] = [{**token, "id": copies.get(token["id"], token["id"])} for token in seen["tokens"]]
    board = board_text(seen).splitlines()
    framed = [line for line in board if line[3:4] in ("│", "├", "┌", "└")]
    right = len(framed[0]) - 1
    assert all(line[right] in "│┤┐┘" for line in framed), [line for line in framed if line[right] not in "│┤┐┘"]
    assert cell(rank(board, 4), "c") == "bWARP", "the Warrior carries the second Rope: its code cut to fit"
    assert cell(rank(board, 6), "e") == "ySW2 ", "a copy alone"
    assert cell(rank(board, 8), "d") == "(bAR2", "a copy in a pit"
    assert cell(rank(board, 5), "a") == "bGB2↺", "a copy on a rotation mechanism (O1's turns counter-clockwise)"
    assert cell(rank(board, 2), "e") == "yclAR", "the second Armor under the wounded Cleric"
    assert cell(rank(board, 8), "c") == "(bTH)" and cell(rank(board, 6), "d") == " bMK ", "three characters: marks kept"


def test_PD_CHAR_PALADIN_01_a_paladins_two_objects_are_both_shown():
    """PD-CHAR-PALADIN-01: the Paladin carries two objects. The board drew one of them ("bPAKY"), as if he carried
    one, and `look` listed them as if they lay there (play-test pt25 F12). The square shows the first object's
    initial and a "+", and `look` says he carries both; the edge: one object is drawn and said as before."""
    from dungeon_twister.client.describe import describe_square
    from tests.engine.paladins.builders import pd_position

    two = view(pd_position("bPA@c4 bKY@c4 bRG@c4 yGB@h4"), "B")
    assert cell(rank(board_text(two).splitlines(), 4), "c") == "bPAK+"
    assert describe_square(two, "c4") == "c4: Blue Paladin, carrying Blue Key and Blue Ring of Teleportation"
    one = view(pd_position("bPA@c4 bKY@c4 yGB@h4"), "B")
    assert cell(rank(board_text(one).splitlines(), 4), "c") == "bPAKY"
    assert describe_square(one, "c4") == "c4: Blue Paladin, carrying Blue Key"
