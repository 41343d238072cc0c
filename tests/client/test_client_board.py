"""The board drawn from engine views: terrain, edges, tokens, face-down rooms and tokens, start zones.

Hand-written positions use the synthetic rooms of tests/engine/builders.py (all revealed, orientation 0):
pits c8 d8 (room A2, P1); rotation mechanisms a5 f5 a10 f10 ...; room A3 (W1) walls c13 in on the west and north,
with portcullises on its east (c13|d13) and south (c12|c13) edges; B3 (W2) repeats it five files east.
"""

from __future__ import annotations

from dungeon_twister.engine import Options, apply, new_game, parse_action, view
from dungeon_twister.client.board import board_text, render_board

from tests.engine.builders import position


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
