"""The Illusionist (PD-CHAR-ILLUS-01..09): for 1 AP he places an illusion marker of his colour, a pit or a rubble,
on an empty square of a room on his line of sight (no token, no pit, no terrain, no rotation mechanism, no other
illusion: DT-116); each Illusionist has at most one of each on the board, so placing one already there moves it
(PD-CHAR-ILLUS-06); for 1 AP he may also take one back to place later. Markers are `GameState.marks`
("illusion:<colour>:pit" -> its square, turning with its room); the board makes an illusion pit a pit and illusion
rubble a square nobody but the Ghost crosses and no line of sight passes, and the walker lets the maker cross his own
(never stop there). When he is eliminated his illusions vanish; when he leaves the maze they stay (PD-CHAR-ILLUS-08).

Notation: `illusion bIL pit c7`, `illusion bIL rubble d9`, `dispel bIL pit`.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..boardgame.actions import Action
from ..boardgame.context import Ctx
from ..boardgame.geometry import DIRECTIONS, Square, square_name
from ..boardgame.notation import any_of, register_action
from ..boardgame.rulebook import RuleModule
from ..boardgame.state import GameState, Token
from ..core.errors import N_, IllegalAction

KINDS = ("pit", "rubble")


@dataclass(frozen=True, slots=True)
class Illusion(Action):
    """PD-CHAR-ILLUS-01/06: the Illusionist `token` places (or moves) his illusion `kind` onto `square`."""

    token: str
    kind: str
    square: Square


@dataclass(frozen=True, slots=True)
class Dispel(Action):
    """PD-CHAR-ILLUS-06: the Illusionist `token` takes his illusion `kind` back, to place it later."""

    token: str
    kind: str


def _mark(colour: str, kind: str) -> str:
    return f"illusion:{colour}:{kind}"


def spots(state: GameState, board, figure: Token) -> list[Square]:
    """The empty room squares on the Illusionist's lines of sight, up to the first character on each."""
    taken: dict[Square, bool] = {}
    for t in state.tokens.values():
        if t.where == "board":
            taken[t.square] = taken.get(t.square, False) or t.is_character
    out = []
    for direction in DIRECTIONS:
        for square in board.sight_line(figure.square, direction):
            if taken.get(square):
                break  # a character stops the line
            slot = board.slot_of(square)
            if (square not in taken and slot is not None and square not in board.pits and square not in board.special
                    and square not in board.illusions and board.gears.get(slot) != square):
                out.append(square)
    return sorted(out)


def place(ctx: Ctx, action: Illusion) -> None:
    figure = ctx.token(action.token)
    if not ctx.has_ability(figure, "illusions"):
        raise IllegalAction("PD-CHAR-ILLUS-01", "{figure} makes no illusions", figure=figure.id)
    if action.kind not in KINDS:
        raise IllegalAction("PD-CHAR-ILLUS-01", "an illusion is a pit or a rubble")
    ctx.actor(action.seat, action.token, rule="PD-CHAR-ILLUS-01", wounded_rule="BG-ABIL-02")
    if action.square not in spots(ctx.s, ctx.board, figure):
        raise IllegalAction("PD-CHAR-ILLUS-01",
                            "{square} is not an empty room square on {figure}'s line of sight",
                            square=square_name(action.square), figure=figure.id)
    name = _mark(figure.colour, action.kind)
    moved = name in ctx.s.marks
    ctx.s.marks[name] = square_name(action.square)
    ctx.layout_changed()
    ctx.emit("illusion", by=figure.id, illusion=action.kind, square=square_name(action.square), moved=moved)


def dispel(ctx: Ctx, action: Dispel) -> None:
    figure = ctx.token(action.token)
    if not ctx.has_ability(figure, "illusions"):
        raise IllegalAction("PD-CHAR-ILLUS-06", "{figure} makes no illusions", figure=figure.id)
    ctx.actor(action.seat, action.token, rule="PD-CHAR-ILLUS-06", wounded_rule="BG-ABIL-02")
    name = _mark(figure.colour, action.kind)
    if name not in ctx.s.marks:
        raise IllegalAction("PD-CHAR-ILLUS-06", "{figure} has no illusion {kind} on the board", figure=figure.id,
                            kind=action.kind)
    square = ctx.s.marks.pop(name)
    ctx.layout_changed()
    ctx.emit("illusion_removed", by=figure.id, illusion=action.kind, square=square)


def vanish(ctx: Ctx) -> None:
    """PD-CHAR-ILLUS-08: an eliminated Illusionist's illusions leave the board (after any action)."""
    s = ctx.s
    if not any(name.startswith("illusion:") for name in s.marks):
        return
    for t in s.tokens.values():
        if t.where == "eliminated" and t.is_character and "illusions" in s.catalogue.characters[t.code].abilities:
            for kind in KINDS:
                square = s.marks.pop(_mark(t.colour, kind), None)
                if square is not None:
                    ctx.layout_changed()
                    ctx.emit("illusion_removed", by=t.id, illusion=kind, square=square)


def figure_actions(state: GameState, board, seat: str, figure: Token) -> list:
    if "illusions" not in state.catalogue.characters[figure.code].abilities:
        return []
    squares = spots(state, board, figure)
    out: list = [Illusion(seat, figure.id, kind, square) for kind in KINDS for square in squares]
    return out + [Dispel(seat, figure.id, kind) for kind in KINDS if _mark(figure.colour, kind) in state.marks]


def _kind(w) -> str:
    index = w.i
    word = w.next(N_("missing pit or rubble"))
    if word not in KINDS:
        raise w.fail("expected pit or rubble, got {word}", index, word=repr(word))
    return word


register_action(Illusion, {"illusion": lambda w, seat: Illusion(seat, w.token(seat), _kind(w), w.square())},
                lambda a: f"illusion {a.token} {a.kind} {square_name(a.square)}",
                any_of("illusions"))
register_action(Dispel, {"dispel": lambda w, seat: Dispel(seat, w.token(seat), _kind(w))},
                lambda a: f"dispel {a.token} {a.kind}", any_of("illusions"))

MODULE = RuleModule("illusionist", {Illusion: place, Dispel: dispel}, figure_actions, reach_only=False,
                    after_action=vanish)

__all__ = ["Dispel", "Illusion", "MODULE"]
