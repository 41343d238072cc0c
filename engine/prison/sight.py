"""Who a figure sees (PR-LOS-01..04): the first person on each of its four lines of sight. Shared by the Bow
(ranged.py), the Banshee's push (shockwave.py) and the lance (lance.py)."""

from __future__ import annotations

from ..boardgame.geometry import DIRECTIONS, Square
from ..boardgame.state import GameState, Token


def persons_at(state: GameState) -> dict[Square, list[Token]]:
    """The persons (characters in play, face up) on each square."""
    at: dict[Square, list[Token]] = {}
    for t in state.tokens.values():
        if t.where == "board" and t.is_character and not t.face_down:
            at.setdefault(t.square, []).append(t)
    return at


def person(here: list[Token]) -> Token:
    """The person a line meets on a square: the figure standing there (carrying a wounded character or not)."""
    return next((t for t in here if not t.wounded), here[0])


def carried(state: GameState, target: Token) -> bool:
    """Whether `target` is a wounded character lying under a figure, which no attack may choose (BG-CARRY-04: a
    melee, a shot or a lance; the line meets the figure, `person`)."""
    return target.where == "board" and target.is_character and target.wounded and any(
        t.is_figure and t.square == target.square for t in state.tokens.values())


def first_persons(state: GameState, board, figure: Token) -> list[tuple[str, Token]]:
    """(direction, the first person on that line) for each line of sight of the figure that meets one
    (PR-LOS-01..04: straight, over objects and pits, stopped by persons, walls and closed portcullises; through an
    arrow slit only beside it, `Board.sight_line`)."""
    at = persons_at(state)
    out = []
    for direction in DIRECTIONS:
        for square in board.sight_line(figure.square, direction):
            here = at.get(square)
            if here:
                out.append((direction, person(here)))
                break
    return out
