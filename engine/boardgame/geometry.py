"""Squares, directions, names and room rotation arithmetic (BG-GEO-12 coordinates)."""

from __future__ import annotations

from ..core.canon import Canon

Square = tuple[int, int]  # (x, y): x 0..9 across, y 0..H-1 along; start zones at y = -1 (Blue) and y = H (Yellow)

ROOM = 5
WIDTH_ROOMS = 2
DIRECTIONS: dict[str, tuple[int, int]] = {"n": (0, 1), "e": (1, 0), "s": (0, -1), "w": (-1, 0)}
SIDE_ORDER = "NESW"  # clockwise


def step(square: Square, direction: str) -> Square:
    dx, dy = DIRECTIONS[direction]
    return square[0] + dx, square[1] + dy


def interned(value: tuple) -> tuple:
    """The one tuple the boards of this process use for a square, an edge (`edge`) or a square's links, and the
    views' layouts for a wall or portcullis (`views._layout`): a fully revealed board would otherwise make ~1,400
    tuples of its own, three quarters of its memory (every layout is a board: a game in play holds one, and the
    last 16 made are kept), and the same room in the same place and orientation gives the same ones. At most
    32,768 are kept (a board has about 230 squares, 175 edges)."""
    return _INTERNED(value)


_INTERNED = Canon(32768)


def edge(a: Square, b: Square) -> tuple[Square, Square]:
    """The shared edge of two adjacent squares, in a canonical order."""
    return (a, b) if a <= b else (b, a)


def square_name(square: Square) -> str:
    """'a1' is x=0, y=0; Blue's start zone is rank 0, Yellow's is rank H+1."""
    name = _SQUARE_NAMES.get(square) if type(square) is tuple else None
    if name is None:
        name = f"{chr(ord('a') + square[0])}{square[1] + 1}"
        if type(square) is tuple and len(_SQUARE_NAMES) < 4096:
            _SQUARE_NAMES[square] = name  # every board's squares and then some, named once (legal texts, events)
    return name


_SQUARE_NAMES: dict[Square, str] = {}


def square_of_name(text: str) -> Square | None:
    """The inverse of `square_name` ('c4' -> (2, 3)), or None if `text` names no square."""
    if 2 <= len(text) <= 3 and "a" <= text[0] <= "j" and text[1:].isdigit() and text[1:].isascii():
        return ord(text[0]) - ord("a"), int(text[1:]) - 1
    return None


def slot_name(slot: tuple[int, int]) -> str:
    """Room slot (column, row) -> 'A1'..'B4'; row 1 touches Blue's start zone."""
    name = _SLOT_NAMES.get(slot) if type(slot) is tuple else None
    if name is None:
        name = f"{'AB'[slot[0]]}{slot[1] + 1}"
        if type(slot) is tuple and len(_SLOT_NAMES) < 256:
            _SLOT_NAMES[slot] = name
    return name


_SLOT_NAMES: dict[tuple[int, int], str] = {}


def local_to_offset(local: tuple[int, int], orientation: int) -> tuple[int, int]:
    """Tile (row, col) -> offset (dx, dy) inside the room after `orientation` clockwise quarter turns.

    Unrotated, the printed top row faces Yellow (high y) and column 1 is at low x.
    """
    row, col = local
    x, y = col, ROOM - 1 - row
    for _ in range(orientation % 4):
        x, y = y, ROOM - 1 - x
    return x, y


def offset_to_local(offset: tuple[int, int], orientation: int) -> tuple[int, int]:
    x, y = offset
    for _ in range(orientation % 4):
        x, y = ROOM - 1 - y, x
    return ROOM - 1 - y, x


def rotate_side(side: str, orientation: int) -> str:
    return SIDE_ORDER[(SIDE_ORDER.index(side) + orientation) % 4]


def rotate_offset(offset: tuple[int, int], quarter_turns_clockwise: int) -> tuple[int, int]:
    x, y = offset
    for _ in range(quarter_turns_clockwise % 4):
        x, y = y, ROOM - 1 - x
    return x, y
