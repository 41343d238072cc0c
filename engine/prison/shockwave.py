"""The Banshee's Shockwave (PR-CHAR-BANSHEE-01..09): for 2 AP she pushes the first person on one of her lines of
sight one square straight away from her. Not a combat: no cards, and a person wounded this turn may be pushed.

Notation: `push bBS yWZ` (the Banshee, then the person pushed; the direction follows from where they stand).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..boardgame import golden
from ..boardgame.actions import Action
from ..boardgame.context import Ctx
from ..boardgame.geometry import square_name, step
from ..boardgame.notation import Words, any_of, register_action
from ..boardgame.rulebook import RuleModule
from ..boardgame.state import GameState, Token
from ..core.errors import IllegalAction
from .sight import first_persons

ABILITY = "shockwave"
COST = 2  # PR-CHAR-BANSHEE-01


@dataclass(frozen=True, slots=True)
class Push(Action):
    """PR-CHAR-BANSHEE-01: the Banshee `token` pushes the person `target`."""

    token: str
    target: str


def targets(state: GameState, board, banshee: Token) -> list[tuple[str, Token]]:
    """(direction, person) for each of her lines of sight that meets a person (sight.first_persons): of a figure
    carrying a wounded character, the figure is the person pushed (it takes what it carries along,
    PR-CHAR-BANSHEE-04)."""
    return first_persons(state, board, banshee)


def problem(state: GameState, board, banshee: Token, direction: str, person: Token) -> IllegalAction | None:
    """Why the push is not allowed (rule, message), or None (PR-CHAR-BANSHEE-02/03/05)."""
    here = person.square
    there = step(here, direction)
    name = square_name(there)
    if board.is_start_zone(here):
        return IllegalAction("PR-CHAR-BANSHEE-02", "{person} stands on a start zone and cannot be pushed",
                             person=person.id)
    if not board.is_open_ground(there):
        return IllegalAction("PR-CHAR-BANSHEE-02", "{person} cannot be pushed off the board or into a face-down room",
                             person=person.id)
    if board.is_start_zone(there):
        return IllegalAction("PR-CHAR-BANSHEE-05", "{person} cannot be pushed onto the start zone ({square})",
                             person=person.id, square=name)
    if not board.connected(here, there):
        return IllegalAction("PR-CHAR-BANSHEE-02", "a wall, closed portcullis or arrow slit stops the push to "
                             "{square}", square=name)
    # a square nobody may enter is no valid landing (DT-242): only a pit is one to fall in (PR-CHAR-BANSHEE-06)
    if there in board.terrain_of("crevasses"):
        return IllegalAction("PD-TERR-CREVASSE-01", "nobody may enter the crevasse {square}: no push there",
                             square=name)
    if there in board.terrain_of("obstacles") or there in board.terrain_of("fountains"):
        return IllegalAction("PD-GLOS-03", "nobody may be on {square} (a 3D obstacle): no push there", square=name)
    if there in board.rubble:
        return IllegalAction("PD-CHAR-ILLUS-04", "{square} holds an illusion rubble: no push there", square=name)
    illusion = board.illusions.get(there)
    if illusion is not None and illusion[0] == person.colour and "illusions" in state.catalogue.characters[
            person.code].abilities:
        return IllegalAction("PD-CHAR-ILLUS-05", "{person} may not stop on his own illusion ({square}): no push "
                             "there", person=person.id, square=name)
    arriving = _carried_along(state, person)
    staying = [t for t in state.tokens.values() if t.where == "board" and t.square == there]
    for t in staying:
        if t.is_figure and (not person.wounded or t.colour != person.colour):
            return IllegalAction("PR-CHAR-BANSHEE-02", "a figure stands on {square}", square=name)
        if t.is_character and t.wounded and t.colour != person.colour:
            return IllegalAction("PR-CHAR-BANSHEE-02", "an enemy wounded character of {person} lies on {square}",
                                 person=person.id, square=name)
    if golden.square_problem(there, staying + arriving, (), state.catalogue):  # pits are PR-CHAR-BANSHEE-06's
        return IllegalAction("PR-CHAR-BANSHEE-03", "{person} may not land on {square} (golden rules, BG-GOLD-02/03)",
                             person=person.id, square=name)
    return None


def _carried_along(state: GameState, person: Token) -> list[Token]:
    """The person and what it carries (PR-CHAR-BANSHEE-04): a figure's object or wounded character, or the object
    lying with a wounded person; the Ghost carries nothing, and what lies under him stays (PD-CHAR-GHOST-03)."""
    if "no_carry" in state.catalogue.characters[person.code].abilities:
        return [person]
    return [t for t in state.tokens.values() if t.where == "board" and t.square == person.square
            and (t.id == person.id or not t.is_figure)]


def push(ctx: Ctx, action: Push) -> None:
    s = ctx.s
    banshee = ctx.token(action.token)
    kind = s.catalogue.characters.get(banshee.code)
    if kind is None or ABILITY not in kind.abilities:
        raise IllegalAction("PR-CHAR-BANSHEE-01", "{banshee} has no Shockwave", banshee=banshee.id)
    ctx.actor(action.seat, action.token)
    if _points(s, banshee) < COST - 1:  # one is paid; a second must be there
        raise IllegalAction("PR-CHAR-BANSHEE-01", "the Shockwave costs 2 AP")
    ctx.spend(banshee.id)
    person = ctx.token(action.target)
    line = {t.id: d for d, t in targets(s, ctx.board, banshee)}
    if person.id not in line:
        if person.where == "board" and person.square in ctx.board.terrain_of("fog"):  # a mix's fog (RUL-089)
            raise IllegalAction("PD-TERR-FOG-01", "{target} stands in fog and cannot be targeted", target=person.id)
        raise IllegalAction("PR-CHAR-BANSHEE-01", "{person} is not the first person on a line of sight of {banshee}",
                            person=person.id, banshee=banshee.id)
    direction = line[person.id]
    refused = problem(s, ctx.board, banshee, direction, person)
    if refused:
        raise refused
    origin, there = person.square, step(person.square, direction)
    along = _carried_along(s, person)
    rope = any(not t.is_character and s.catalogue.objects[t.code].rope for t in along if t.id != person.id)
    falls = there in ctx.board.pits and not rope and not (ctx.rope_on(there) and not ctx.has_ability(
        person, "no_carry")) and not (not person.wounded and ctx.has_ability(person, "acrobatics"))
    # (a Rope lying there saves whoever takes it, DT-101: not the Ghost, who carries nothing, PD-CHAR-GHOST-03)
    ctx.emit("pushed", by=banshee.id, token=person.id, square=square_name(origin), to=square_name(there))
    if falls:  # PR-CHAR-BANSHEE-06: what it carried stays on the square it was pushed from (DT-101)
        ctx.eliminate(person, "pit")
        return
    for t in along:
        ctx.put(t.moved(square=there))


def _points(state: GameState, banshee: Token) -> int:
    """The AP the Banshee may spend: her own pool (a potion's, or a charm's), and the turn's AP if she is the
    active player's own (a charmed figure spends only its charmed actions, PD-OBJ-CHARM-03)."""
    return state.pools.get(banshee.id, 0) + (state.ap if banshee.colour == state.active else 0)


def figure_actions(state: GameState, board, seat: str, figure: Token) -> list:
    kind = state.catalogue.characters[figure.code]
    if ABILITY not in kind.abilities or _points(state, figure) < COST:
        return []
    return [Push(seat, figure.id, person.id) for direction, person in targets(state, board, figure)
            if problem(state, board, figure, direction, person) is None]


def _parse(w: Words, seat: str) -> Push:
    return Push(seat, w.token(seat), w.token())


register_action(Push, {"push": _parse}, lambda a: f"push {a.token} {a.target}", any_of(ABILITY))

MODULE = RuleModule("shockwave", {Push: push}, figure_actions, reach_only=False)
