"""Applying moves, wall-walks and jumps (BG-MOVE, BG-CHAR-WALLWALKER, BG-JUMP)."""

from __future__ import annotations

from itertools import chain
from operator import is_
from typing import Callable

from .actions import FigureMoves, Jump, Move, WallWalk
from .board import CLOSED, _beside
from .context import Ctx
from ..core.errors import N_, IllegalAction
from .geometry import Square, square_name
from .golden import square_problem
from .movement import STRONG, PairWalker, Walker, occupancy, passes_of, takes, walker_for
from .setup import can_exit
from .state import GameState, Token, opponent


def _finish_at(ctx: Ctx, mover: Token, dest: Square, moved: dict[str, Square]) -> None:
    """Put the tokens where the action leaves them; an opponent's start-zone square is an exit."""
    for tid, square in moved.items():
        ctx.put(ctx.s.tokens[tid].moved(square=square))
    ctx.put(mover.moved(square=dest))
    if ctx.board.start_zone_owner(dest) == opponent(mover.colour) and can_exit(ctx.s, mover.colour):
        carried = [ctx.s.tokens[tid] for tid, square in sorted(moved.items()) if square == dest]
        ctx.exit_maze(ctx.s.tokens[mover.id], *carried)
    ctx.settle_pits()


def move(ctx: Ctx, action: Move) -> None:
    mover = ctx.token(action.token)
    ctx.actor(action.seat, action.token)
    key = (action.dest, action.take, tuple(sorted(action.leave)))
    # The figure's outcomes, if `legal_actions` has just listed them for this position: a move among them is legal
    # along the shortest route listed (the route a search for this one outcome finds first) and along no other
    # route the walker need not check; anything else goes through the search, which also explains a refusal.
    known = _peek(ctx.before, ctx.board, action.seat, mover)
    route = known.route(key) if known is not None else None
    if route is None or (action.route is not None and action.route != route):
        walker = walker_for(ctx.s, ctx.board, mover)
        outcomes = walker.outcomes(action.route, want=key)
        if key not in outcomes:
            raise explain_refused_move(ctx.s, walker, action)
        route, originals = outcomes[key], walker.originals
    else:
        originals = known.originals
    moved = dict(action.leave)
    for taken in takes(action.take):
        moved[taken] = action.dest
    for original in originals:
        if original not in moved:
            moved[original] = action.dest
    ctx.emit("moved", token=mover.id, route=[square_name(sq) for sq in (mover.square, *route)],
             take=action.take, leave=[[t, square_name(sq)] for t, sq in sorted(action.leave)])
    _finish_at(ctx, mover, action.dest, moved)


def explain_refused_move(state: GameState, walker: Walker, action: Move) -> IllegalAction:
    """The most specific rule to cite for a move that is not among the reachable outcomes."""
    dest = action.dest
    board = walker.board
    name = square_name(dest)
    if not board.exists(dest):
        return IllegalAction("BG-GEO-09", "{square} is outside the maze and its start zones", square=name)
    if not board.is_open_ground(dest):
        return IllegalAction("BG-GEO-11", "{square} is not a square of a revealed room or a start zone", square=name)
    if walker.cat.characters[walker.mover.code].move == 0:  # (a play-test read "not within 0 connected steps")
        return IllegalAction("PD-CHAR-DRAGON-03", "{token} never moves by himself (a Ring of Teleportation can move "
                             "him)", token=action.token)
    if action.route is not None:
        problem, stopped = _route_problem(state, walker, action.route, action.take, action.leave)
        if stopped and action.leave:  # the walk ends on the way: what it leaves there may say more
            problem = _leave_problem(state, walker, action.leave) or problem
        if problem:
            return problem
    if dest == walker.start and action.take is None and not action.leave:
        return IllegalAction("BG-MOVE-02", "{token} would neither move nor take or leave anything: that is no move",
                             token=action.token)
    terrain = _no_stop(walker, dest, action.token)
    if terrain is not None:
        return terrain
    reachable = {key[0] for key in walker.outcomes()}
    if dest not in reachable:
        here = [t for t in state.tokens.values() if t.where == "board" and t.square == dest
                and t.id != walker.mover.id]
        enemy_figure = any(t.is_character and not t.wounded and t.colour != walker.colour for t in here)
        if enemy_figure and board.start_zone_owner(dest) == walker.exit_owner and walker.can_exit:
            return IllegalAction("BG-EXIT-03", "{square} holds an enemy figure: no exit there", square=name)
        if enemy_figure:
            return IllegalAction("BG-MOVE-09", "{square} holds an enemy figure", square=name)
        if any(t.is_character and not t.wounded for t in here):
            return IllegalAction("BG-MOVE-08", "{token} may cross {square} but not stop there", token=action.token,
                                 square=name)
        if any(t.is_character and t.wounded and t.colour != walker.colour for t in here):
            return IllegalAction("BG-MOVE-07", "{token} may not stop on an enemy wounded character",
                                 token=action.token)
        if len(here) >= 2:
            return IllegalAction("BG-MOVE-12", "{square} already holds 2 tokens", square=name)
        if board.exists(dest) and abs(dest[0] - walker.start[0]) + abs(dest[1] - walker.start[1]) == 1 \
                and dest not in walker.links.get(walker.start, ()):
            return _blocked(board, walker.start, dest)
        if dest in board.pits and walker.agile:  # (play-test pt25 F18: his refusal cited BG-MOVE-10, "cannot
            # reach", though he crosses pits)
            return IllegalAction("PD-CHAR-ELF-01", "{token} may cross the pit {square} but not stop on it",
                                 token=action.token, square=name)
        if dest in board.pits:
            return IllegalAction("BG-MOVE-10", "{token} cannot reach or stop on the pit {square}", token=action.token,
                                 square=name)
        stop = _stop_on_the_way(state, walker, dest, action.take)
        if stop is not None:
            return stop
        blocked = _every_way_blocked(walker, dest, action.token)
        if blocked is not None:
            return blocked
        return IllegalAction("BG-MOVE-01", "{square} is not within {steps} connected steps of {token}", square=name,
                             steps=walker.steps, token=action.token)
    problem = _items_problem(state, walker, action)
    if problem:
        return problem
    if action.route is not None:
        return IllegalAction("BG-MOVE-05", "that route is not a legal path for this move")
    return IllegalAction("BG-ITEM-04", "those pick-ups, drops or hand-overs are not possible along any path to "
                         "{square}", square=name)


def _every_way_blocked(walker: Walker, dest: Square, token: str) -> IllegalAction | None:
    """Why a square within the mover's steps of connected squares is out of its reach: every way there enters a pit
    it may not enter (BG-MOVE-10), a square holding an enemy figure (BG-MOVE-09), either of them, or the opponent's
    start zone, which ends a move (BG-EXIT-02); None if it is not within its steps even so (BG-MOVE-01 then says
    so truly). Each way is searched with what the mover carries from its start; a way it could open by picking up a
    Rope is one the search has found already. (Review bg28: such squares were refused as "not within 4 connected
    steps", half of all refused moves to a square a figure's move value reaches.)"""
    links, pits, enemies = walker.links, walker.board.pits, walker.enemies
    exits = walker.exits

    def reaches(pit_ok: bool, enemy_ok: bool, through_exits: bool) -> bool:
        frontier, seen = [walker.start], {walker.start}
        for _ in range(walker.steps):
            ahead = []
            for here in frontier:
                if here in exits and not through_exits and here != walker.start:
                    continue  # a move ends on entering the opponent's start zone
                for there in links.get(here, ()):
                    if there in seen:
                        continue
                    if not (walker.may_enter(here, there, walker.original, ())
                            or ((pit_ok or there not in pits) and (enemy_ok or there not in enemies)
                                and there not in walker.barriers and there not in walker.rubble)):
                        continue
                    if there == dest:
                        return True
                    seen.add(there)
                    ahead.append(there)
            frontier = ahead
        return False

    values = {"token": token, "square": square_name(dest), "steps": walker.steps}
    if reaches(True, False, False):
        return IllegalAction("BG-MOVE-10", "every way of {token} to {square} within {steps} steps enters a pit it "
                             "may not enter", **values)
    if reaches(False, True, False):
        return IllegalAction("BG-MOVE-09", "every way of {token} to {square} within {steps} steps crosses a "
                             "square holding an enemy figure", **values)
    if reaches(True, True, False):
        return IllegalAction("BG-MOVE-09", "every way of {token} to {square} within {steps} steps crosses a pit "
                             "it may not enter or a square holding an enemy figure", **values)
    if exits and reaches(True, True, True):
        return IllegalAction("BG-EXIT-02", "a figure leaves the maze as soon as it enters the opponent's start "
                             "zone")
    return None


def _barrier(walker: Walker, where: Square, crevasse: str, obstacle: str, /, **values) -> IllegalAction:
    """A crevasse (PD-TERR-CREVASSE-01) or a 3D obstacle or fountain (PD-GLOS-03) refused as a stop or a step: the
    refusal's template for each, and their values."""
    if where in walker.crevasses:
        return IllegalAction("PD-TERR-CREVASSE-01", crevasse, **values)
    return IllegalAction("PD-GLOS-03", obstacle, **values)


def _no_stop(walker: Walker, dest: Square, token: str) -> IllegalAction | None:
    """The terrain rule that keeps the walker from ending on `dest`, whatever it carries: a crevasse or a 3D
    obstacle (`_barrier`), an illusion rubble (PD-CHAR-ILLUS-04), an Illusionist's own illusion (PD-CHAR-ILLUS-05);
    None if there is none. A move's refusal and a wall-walk's landing (BG-CHAR-WALLWALKER-04) cite it."""
    if dest not in walker.no_stop:
        return None
    name = square_name(dest)
    if dest in walker.barriers:
        return _barrier(walker, dest, N_("{token} may not stop on {square} (a crevasse)"),
                        N_("{token} may not stop on {square} (a 3D obstacle)"), token=token, square=name)
    if dest in walker.rubble:
        return IllegalAction("PD-CHAR-ILLUS-04", "{square} holds an illusion rubble: nobody but the Ghost crosses it",
                             square=name)
    return IllegalAction("PD-CHAR-ILLUS-05", "{token} crosses his own illusion on {square} but may not stop there",
                         token=token, square=name)


MOVE_STOPS: dict[str, tuple[Callable, ...]] = {}
"""Rule set -> its modules' `move_stop` hooks (`rulebook.register`): why a walker goes no further than a square."""


def _stop(hooks: tuple[Callable, ...], walker: Walker, square: Square, take: str | None) -> IllegalAction | None:
    """The first rule module's reason why the walker's move ends on `square` once it has entered it, or None."""
    for hook in hooks:
        problem = hook(walker, square, take)
        if problem is not None:
            return problem
    return None


def _stop_on_the_way(state: GameState, walker: Walker, dest: Square, take: str | None) -> IllegalAction | None:
    """Why every way of the walker to `dest` within its steps ends short of it (a rule module's `move_stop`), if
    there is a way but for that: a refused move's explanation, not part of the search."""
    hooks = MOVE_STOPS.get(state.catalogue.rules, ())
    if not hooks:
        return None
    first: dict[Square, IllegalAction | None] = {walker.start: None}  # square -> the first stop on the way to it
    frontier = [walker.start]
    for _ in range(walker.steps):
        ahead = []
        for here in frontier:
            stop = first[here]
            if stop is None and here != walker.start:
                stop = _stop(hooks, walker, here, take)
            for there in walker.links.get(here, ()):
                if there not in first and walker.may_enter(here, there, walker.original, ()):
                    first[there] = stop
                    ahead.append(there)
        frontier = ahead
    return first.get(dest)


def _route_holds(walker: Walker, route: tuple[Square, ...], take: str | None, leave) -> list[str | None]:
    """What the mover holds on each step of a written route, as `may_enter` reads it (a Rope among what it holds, if
    any: BG-PIT-01, BG-PIT-10): what it carried at its start until its last visit of the square where the move
    leaves it, and what the move takes from the first visit of the square where that lies. (A refusal's reading:
    the step whose entry no such holding allows is the one to cite; the search decides what is legal.) The route
    of a move that dropped its Rope before a pit was refused as "not a legal path" citing BG-MOVE-05 (walls and
    portcullises), and one that took a Rope on its way as "cannot enter the pit", which it could."""
    path = (walker.start, *route)
    left = dict(leave)
    last = {square: index for index, square in enumerate(path)}
    held = set(walker.originals)
    pending = set(takes(take))
    holds: list[str | None] = []
    for index, here in enumerate(path[:-1]):
        held -= {tid for tid in held if left.get(tid) == here and last[here] == index}
        got = {tid for tid in pending if walker.origin.get(tid) == here}
        held |= got
        pending -= got
        ordered = sorted(held)
        holds.append(next((tid for tid in ordered if walker.is_rope(tid)), ordered[0] if ordered else None))
    return holds


def _route_problem(state: GameState, walker: Walker, route: tuple[Square, ...],
                   take: str | None = None, leave=()) -> tuple[IllegalAction | None, bool]:
    """The first step of a written route that no move may take (BG-MOVE-01/05/09/10, BG-EXIT-02, BG-PIT-10), or the
    square it may not go on from (a rule module's `move_stop`: then True, the walk is cut short there). What the
    mover holds on each step follows the move's `take` and `leave` (`_route_holds`)."""
    if len(route) > 1 and route[0] == walker.start:
        # (play-test pt24: the panel's moves read "yWA b21-b20", from b21 to b20; a player wrote his next one the
        # same way, `move yWA b17-b16`, and was told "b17 is not a square next to b17")
        return IllegalAction("BG-MOVE-01", "{square} is where {mover} stands: a route leaves it out and names only "
                             "the squares it steps to ({route})", square=square_name(route[0]),
                             mover=walker.mover.id, route="-".join(square_name(sq) for sq in route[1:])), False
    if len(route) > walker.steps:
        return IllegalAction("BG-MOVE-01", "{mover} moves at most {steps} squares", mover=walker.mover.id,
                             steps=walker.steps), False
    here = walker.start
    hooks = MOVE_STOPS.get(state.catalogue.rules, ())
    for there, hold in zip(route, _route_holds(walker, route, take, leave)):
        stop = _stop(hooks, walker, here, take) if hooks else None
        if stop is not None:
            return stop, True
        problem = _step_problem(walker, here, there, hold)
        if problem is not None:
            return problem, False
        here = there
    return None, False


def _step_problem(walker: Walker, here: Square, there: Square, hold: str | None) -> IllegalAction | None:
    """Why no move steps from `here` to `there` holding `hold` (`_route_problem`), or None."""
    board = walker.board
    name = square_name(there)
    if board.start_zone_owner(here) == walker.exit_owner and walker.can_exit:
        return IllegalAction("BG-EXIT-02", "a figure leaves the maze as soon as it enters the opponent's start "
                             "zone")
    if abs(here[0] - there[0]) + abs(here[1] - there[1]) != 1 or not board.is_open_ground(there):
        return IllegalAction("BG-MOVE-01", "{square} is not a square next to {here}", square=name,
                             here=square_name(here))
    if there not in walker.links.get(here, ()):
        return _blocked(board, here, there)
    if not walker.may_enter(here, there, hold, ()):
        if there in walker.crevasses and here in walker.pits and walker.is_rope(hold):
            return IllegalAction("PD-ROPE-03", "a Rope crosses one obstacle square at a time: not from the pit "
                                 "{here} onto the crevasse {square}", here=square_name(here), square=name)
        if there in walker.barriers:
            return _barrier(walker, there, N_("{mover} cannot cross {square} (a crevasse)"),
                            N_("{mover} cannot cross {square} (a 3D obstacle)"), mover=walker.mover.id, square=name)
        if there in walker.rubble:
            return IllegalAction("PD-CHAR-ILLUS-04", "{square} holds an illusion rubble: nobody but the Ghost "
                                 "crosses it", square=name)
        contents = walker.contents(there, hold, ())
        if any(t.is_character and not t.wounded and t.colour != walker.colour for t in contents):
            rule = "BG-EXIT-03" if board.start_zone_owner(there) == walker.exit_owner and walker.can_exit \
                else "BG-MOVE-09"
            return IllegalAction(rule, "{square} holds an enemy figure", square=name)
        if there in board.pits:
            if here in board.pits and walker.is_rope(hold):
                return IllegalAction("BG-PIT-10", "a Rope crosses one pit at a time")
            if here in walker.crevasses:
                return IllegalAction("PD-ROPE-03", "a Rope crosses one obstacle square at a time: not from the "
                                     "crevasse {here} onto the pit {square}", here=square_name(here), square=name)
            return IllegalAction("BG-MOVE-10", "{mover} cannot enter the pit {square}", mover=walker.mover.id,
                                 square=name)
    return None


# A golden rule's refusal (golden._RULES) inside a move's: "{mover} may not end its move there: ..." (BG-MOVE-12),
# "a figure would carry more than one thing: ..." (BG-ITEM-01), "that cannot be left there: ..." (BG-ITEM-04); one
# template each, so that a translation may word the whole sentence.
_THERE = {
    ("end", "{square} would hold {count} tokens"):
        N_("{mover} may not end its move there: {square} would hold {count} tokens"),
    ("end", "two figures would stand on {square}"):
        N_("{mover} may not end its move there: two figures would stand on {square}"),
    ("end", "{square} would hold two tokens of one kind"):
        N_("{mover} may not end its move there: {square} would hold two tokens of one kind"),
    ("end", "a figure may not stop on an enemy wounded character ({square})"):
        N_("{mover} may not end its move there: a figure may not stop on an enemy wounded character ({square})"),
    ("end", "{figure} cannot stop on the pit {square}"):
        N_("{mover} may not end its move there: {figure} cannot stop on the pit {square}"),
    ("carry", "{square} would hold {count} tokens"):
        N_("a figure would carry more than one thing: {square} would hold {count} tokens"),
    ("carry", "two figures would stand on {square}"):
        N_("a figure would carry more than one thing: two figures would stand on {square}"),
    ("carry", "{square} would hold two tokens of one kind"):
        N_("a figure would carry more than one thing: {square} would hold two tokens of one kind"),
    ("carry", "a figure may not stop on an enemy wounded character ({square})"):
        N_("a figure would carry more than one thing: a figure may not stop on an enemy wounded character "
           "({square})"),
    ("carry", "{figure} cannot stop on the pit {square}"):
        N_("a figure would carry more than one thing: {figure} cannot stop on the pit {square}"),
    ("left", "{square} would hold {count} tokens"):
        N_("that cannot be left there: {square} would hold {count} tokens"),
    ("left", "two figures would stand on {square}"):
        N_("that cannot be left there: two figures would stand on {square}"),
    ("left", "{square} would hold two tokens of one kind"):
        N_("that cannot be left there: {square} would hold two tokens of one kind"),
    ("left", "a figure may not stop on an enemy wounded character ({square})"):
        N_("that cannot be left there: a figure may not stop on an enemy wounded character ({square})"),
    ("left", "{figure} cannot stop on the pit {square}"):
        N_("that cannot be left there: {figure} cannot stop on the pit {square}"),
}


def _leave_problem(state: GameState, walker: Walker, leave) -> IllegalAction | None:
    """Why what a move (or a wall-walk, BG-CHAR-WALLWALKER-04) leaves cannot lie where it leaves it (PD-TERR,
    DT-116, BG-PIT-05/06), or None."""
    for tid, square in leave:
        if square in walker.enemies:
            return IllegalAction("BG-ITEM-05", "{square} holds an enemy figure: nothing is handed to it",
                                 square=square_name(square))
        if square in walker.barriers:
            return _barrier(walker, square, N_("nothing is left on {square} (a crevasse)"),
                            N_("nothing is left on {square} (a 3D obstacle)"), square=square_name(square))
        if square in walker.no_drop:
            return IllegalAction("PD-CHAR-ILLUS-07", "{square} bears an illusion: nothing is left there",
                                 square=square_name(square))
        if square in walker.rockfall and tid in state.tokens and state.tokens[tid].is_character:
            return IllegalAction("PD-TERR-ROCKFALL-08", "a wounded character is not dropped on the Rockfall {square}",
                                 square=square_name(square))
        if square in walker.board.pits and tid in state.tokens and not walker.to_acrobat(square, tid):
            if not walker.is_rope(tid):
                return IllegalAction("BG-PIT-05", "only a Rope may be left on the pit {square}",
                                     square=square_name(square))
            if not walker.may_leave(square, tid):
                return IllegalAction("BG-PIT-06", "a Rope is left on a pit only with 2 valid squares beside it")
    return None


def _items_problem(state: GameState, walker: Walker, action: Move) -> IllegalAction | None:
    """Why these pick-ups, drops and hand-overs cannot end the move (BG-ITEM, BG-CARRY, BG-PIT, BG-MOVE-12)."""
    board, cat = walker.board, walker.cat
    taken = takes(action.take)
    if len(taken) > 1 and not isinstance(walker, PairWalker):
        return IllegalAction("BG-ITEM-01", "{mover} carries one thing only", mover=walker.mover.id)
    lying = next((tid for tid in taken if walker.origin.get(tid) == action.dest), None)
    if lying is not None and action.dest in walker.exits:  # DT-291: out at once, taking nothing lying there
        return IllegalAction("BG-EXIT-01", "{mover} leaves the maze as soon as it enters {square}: it takes "
                             "nothing lying there", mover=walker.mover.id, square=square_name(action.dest))
    if lying is not None:  # RUL-119: what lies on the destination is carried by ending there, not taken
        rest = "+".join(tid for tid in taken if tid != lying) or None  # (a strong carrier names two: `takes`)
        unnamed = (action.dest, rest, tuple(sorted(action.leave)))
        if unnamed in walker.outcomes(action.route, want=unnamed):  # the same move written without it is legal
            return IllegalAction("BG-ITEM-03", "{token} lies on {square}: {mover} carries it by ending its move "
                                 "there, without +{token}", token=lying, square=square_name(action.dest),
                                 mover=walker.mover.id)
    take = state.tokens.get(taken[0]) if len(taken) == 1 else None
    if take is not None and take.is_character and (take.colour != walker.colour or not take.wounded):
        return IllegalAction("BG-CARRY-01", "{mover} may carry only a wounded character of its own colour",
                             mover=walker.mover.id)
    if take is not None and take.where == "board" and take.square in board.pits and walker.is_rope(take.id):
        others = [t for t in walker.base.get(take.square, []) if t.is_character]
        if any(t.wounded and t.colour == walker.colour for t in others):
            return IllegalAction("BG-PIT-09", "you may not take the Rope from under your own wounded character")
        if any(not t.wounded for t in others):
            return IllegalAction("BG-PIT-04", "the Rope under a figure on a pit cannot be taken")
    dropped = _leave_problem(state, walker, action.leave)
    if dropped is not None:
        return dropped
    if action.dest in board.pits:  # BG-PIT-05: what a Thief carries onto a pit would lie in it
        left = {tid for tid, _ in action.leave}
        carried = [tid for tid in (*taken, *walker.originals) if tid not in left and tid in state.tokens]
        rope = any(walker.is_rope(t.id) for t in walker.base.get(action.dest, ())) or any(
            walker.is_rope(tid) for tid in carried)
        wounded = next((tid for tid in carried if state.tokens[tid].is_character), None)
        if wounded is not None and not rope:
            return IllegalAction("BG-PIT-05", "{token} would be carried onto the pit {square}: no wounded character "
                                 "lies in a pit", token=wounded, square=square_name(action.dest))
    final = dict(action.leave)
    for taken_id in taken:
        final[taken_id] = action.dest
    for original in walker.originals:
        if original not in final:
            final[original] = action.dest
    if any(tid not in walker.origin for tid in final):
        return None
    squares = {walker.start, action.dest, *final.values(), *(walker.origin[t] for t in final)}
    for square in sorted(squares):
        tokens = [t for t in walker.base.get(square, []) if t.id not in final]
        tokens += [state.tokens[t] for t, sq in final.items() if sq == square]
        if square == action.dest:
            tokens.append(walker.mover)
        problem = square_problem(square, tokens, board.pits, cat)
        if problem is None:
            continue
        most = STRONG if isinstance(walker, PairWalker) else 1  # PD-CHAR-PALADIN-01: the Paladin carries two
        if square == action.dest and action.take and sum(t.id != walker.mover.id for t in tokens) > most:
            if most == 2:
                return IllegalAction("BG-ITEM-01", "{mover} would carry more than two things", mover=walker.mover.id)
            return IllegalAction("BG-ITEM-01", "{mover} would carry more than one thing", mover=walker.mover.id)
        if square == action.dest and problem.rule != "BG-MOVE-07":
            template = _THERE["end", problem.template]  # (outside the call: no extraction takes "end" for a text)
            return IllegalAction("BG-MOVE-12", template, mover=walker.mover.id, **problem.values)
        if any(t.is_character and not t.wounded for t in tokens):
            template = _THERE["carry", problem.template]
            return IllegalAction("BG-ITEM-01", template, **problem.values)
        template = _THERE["left", problem.template]
        return IllegalAction("BG-ITEM-04", template, **problem.values)
    return None


def wallwalk_options(state: GameState, board, figure: Token,
                     walker: Walker | None = None) -> list[tuple[Square, tuple]]:
    """BG-CHAR-WALLWALKER-01..04: (landing, leave) pairs through one wall of her square. `walker`: the figure's
    (`walker_for`), if the caller has it (it only reads the state)."""
    out = []
    if walker is not None:  # what lies under her, in the state's token order: her walker's board without her
        here = walker.base.get(figure.square)
        carried = here[0] if here else None
    else:
        carried = next((t for t in state.tokens.values() if t.where == "board" and t.square == figure.square
                        and t.id != figure.id), None)
    for other in _beside(figure.square, board.height):  # (`Board.neighbours`' squares, in its order)
        if not _through(board, figure.square, other) or not board.is_open_ground(other):
            continue
        for leave in ((), ((carried.id, figure.square),)) if carried else ((),):
            if walker is None:
                walker = walker_for(state, board, figure)
            if _landing_ok(state, board, figure, other, dict(leave), walker):
                out.append((other, leave))
    return out


def _through(board, a: Square, b: Square) -> bool:
    """What a wall-walk passes: a wall, or an arrow slit, which is a wall to her (PR-SLIT-05, RUL-052)."""
    return board.is_wall(a, b) or board.is_slit(a, b)


def _landing_ok(state: GameState, board, figure: Token, dest: Square, leave: dict, walker: Walker) -> bool:
    """A landing is a stop: on the opponent's start zone, only onto a square with no enemy character (RUL-038).
    `walker`: the figure's (`walker_for`)."""
    if dest in walker.no_stop:
        return False  # nobody stops on a crevasse or a 3D obstacle (PD-TERR-CREVASSE-01, PD-GLOS-03), rubble...
    if board.start_zone_owner(dest) == opponent(figure.colour) and can_exit(state, figure.colour):
        return not any(t.is_character for t in state.tokens.values() if t.where == "board" and t.square == dest)
    moved = dict(leave)
    if _leave_problem(state, walker, leave.items()) is not None:
        return False  # BG-CHAR-WALLWALKER-04: she drops as in a move (the same check, which `wallwalk` cites)
    for held in walker.originals:
        if held not in moved:
            moved[held] = dest
    return walker.ends_validly(dest, None, moved, exited=False)


def wallwalk(ctx: Ctx, action: WallWalk) -> None:
    figure = ctx.token(action.token)
    if not ctx.has_ability(figure, "wallwalk"):
        raise IllegalAction("BG-CHAR-WALLWALKER-01", "{figure} cannot pass through walls", figure=figure.id)
    ctx.actor(action.seat, action.token)
    options = wallwalk_options(ctx.s, ctx.board, figure)
    if (action.dest, tuple(sorted(action.leave))) not in options:
        if not _through(ctx.board, figure.square, action.dest):
            if ctx.board.portcullis_state(figure.square, action.dest) == CLOSED:  # (review bg28: it was told
                # "there is no wall", true, but not why she may not pass)
                raise IllegalAction("BG-CHAR-WALLWALKER-02", "a closed portcullis, not a wall, lies between {square} "
                                    "and {dest}: she does not pass it", square=square_name(figure.square),
                                    dest=square_name(action.dest))
            rule = "BG-CHAR-WALLWALKER-02" if ctx.board.portcullis_state(figure.square, action.dest) else \
                "BG-CHAR-WALLWALKER-01"
            raise IllegalAction(rule, "there is no wall between {square} and {dest}",
                                square=square_name(figure.square), dest=square_name(action.dest))
        walker = walker_for(ctx.s, ctx.board, figure)
        dropped = _leave_problem(ctx.s, walker, action.leave)
        if dropped is not None:
            raise dropped
        # her landing is a stop (BG-CHAR-WALLWALKER-04), but the rule that forbids this one is the terrain's: a
        # crevasse (PD-TERR-CREVASSE-01), a 3D obstacle or fountain (PD-GLOS-03), an illusion rubble (PD-CHAR-ILLUS-04)
        terrain = _no_stop(walker, action.dest, figure.id)
        if terrain is not None:
            raise terrain
        raise IllegalAction("BG-CHAR-WALLWALKER-04", "{dest} is not a valid landing square",
                            dest=square_name(action.dest))
    moved = dict(action.leave)
    walker = Walker(ctx.s, ctx.board, figure)
    if walker.original and walker.original not in moved:
        moved[walker.original] = action.dest
    ctx.emit("wallwalked", token=figure.id, route=[square_name(figure.square), square_name(action.dest)],
             leave=[[t, square_name(sq)] for t, sq in action.leave])
    _finish_at(ctx, figure, action.dest, moved)


def jumpable(board) -> set[Square] | frozenset[Square]:
    """What a jump card crosses: a pit (BG-JUMP-03), a crevasse (PD-TERR-CREVASSE-03, RUL-091) or Rockfall, which
    does not trigger (PD-TERR-ROCKFALL-05); never a 3D obstacle (RUL-074)."""
    if not board.terrain:
        return board.pits
    return board.pits.union(board.terrain_of("crevasses"), board.terrain_of("rockfall"))


def jump_options(state: GameState, board, figure: Token, walker: Walker | None = None) -> list[tuple[Square, Square]]:
    """BG-JUMP-03..07: (pit, landing) pairs for a jump card. `walker`: the figure's (`walker_for`), if the caller
    has it (it only reads the state)."""
    out = []
    if "no_jump" in state.options.catalogue.characters[figure.code].abilities:
        return out  # PD-CHAR-DRAGON-03
    pits = jumpable(board)
    for pit in board.connected_neighbours(figure.square):
        if pit not in pits:
            continue
        if any(t.is_character for t in state.tokens.values() if t.where == "board" and t.square == pit):
            continue  # BG-JUMP-05
        for dest in board.connected_neighbours(pit):
            if dest == figure.square:
                continue
            if walker is None:
                walker = walker_for(state, board, figure)
            if _landing_ok(state, board, figure, dest, {}, walker):
                out.append((pit, dest))
    return out


def jump_refusal(ctx: Ctx, seat: str, token_id: str, pit: Square | None = None) -> IllegalAction | None:
    """Why `seat` has no jump of `token_id` (over `pit`, when one is named), or None when it has one: what
    `jump bTH` or `jump bTH b2` typed where nothing legal completes them is refused for (notation.resolve_input;
    a play-test read "matches none of your legal actions" with no pit beside the Thief). The handler's checks in
    its order (BG-JUMP-01, the actor's, PD-CHAR-DRAGON-03), then the pits beside the figure: none (BG-JUMP-03),
    a character on each (BG-JUMP-05), or no valid landing square beside them (BG-JUMP-04)."""
    try:
        figure = ctx.token(token_id)
        if ctx.s.players[seat].jumps <= 0:
            raise IllegalAction("BG-JUMP-01", "you have no jump card left")
        ctx.actor(seat, token_id)
        if ctx.has_ability(figure, "no_jump"):
            raise IllegalAction("PD-CHAR-DRAGON-03", "{figure} cannot jump", figure=figure.id)
    except IllegalAction as refusal:
        return refusal
    pits = jumpable(ctx.board)
    beside = [sq for sq in ctx.board.connected_neighbours(figure.square) if sq in pits]
    if pit is not None and pit not in beside and pit in pits and _beside_walled(ctx.board, figure.square, pit):
        return _walled_pit(figure.square, pit)
    if not beside:
        walled = [sq for _, sq in ctx.board.neighbours(figure.square)
                  if sq in pits and _beside_walled(ctx.board, figure.square, sq)]
        if walled and pit is None:
            return _walled_pit(figure.square, walled[0])
        return IllegalAction("BG-JUMP-03", "no pit lies beside {figure}", figure=figure.id)
    if pit is not None and pit not in beside:
        return IllegalAction("BG-JUMP-03", "{figure} is not beside the pit {pit}", figure=figure.id,
                             pit=square_name(pit))
    options = jump_options(ctx.s, ctx.board, figure)
    for square in [pit] if pit is not None else beside:
        if any(t.is_character for t in ctx.at(square)):
            refusal = IllegalAction("BG-JUMP-05", "a character is on the pit {pit}", pit=square_name(square))
        elif not any(over == square for over, _ in options):
            refusal = IllegalAction("BG-JUMP-04", "no square beside the pit {pit} is a valid landing for {figure}",
                                    pit=square_name(square), figure=figure.id)
        else:
            return None
    return refusal


def _beside_walled(board, square: Square, pit: Square) -> bool:
    """Whether the pit lies beside `square` with a wall or closed portcullis between them (BG-JUMP-06)."""
    return (abs(square[0] - pit[0]) + abs(square[1] - pit[1]) == 1 and board.is_open_ground(pit)
            and not board.connected(square, pit))


def _walled_pit(square: Square, pit: Square) -> IllegalAction:
    """BG-JUMP-06 for the first step of a jump: the figure stands beside the pit, across a wall or a closed
    portcullis (review bg28: refused as "not beside the pit", BG-JUMP-03, which it is)."""
    return IllegalAction("BG-JUMP-06", "a wall or closed portcullis lies between {square} and the pit {pit}",
                         square=square_name(square), pit=square_name(pit))


def jump(ctx: Ctx, action: Jump) -> None:
    figure = ctx.token(action.token)
    if ctx.s.players[action.seat].jumps <= 0:
        raise IllegalAction("BG-JUMP-01", "you have no jump card left")
    ctx.actor(action.seat, action.token)
    if (action.pit, action.dest) not in jump_options(ctx.s, ctx.board, figure):
        if ctx.has_ability(figure, "no_jump"):
            raise IllegalAction("PD-CHAR-DRAGON-03", "{figure} cannot jump", figure=figure.id)
        if action.pit in jumpable(ctx.board) and _beside_walled(ctx.board, figure.square, action.pit):
            raise _walled_pit(figure.square, action.pit)
        if action.pit not in jumpable(ctx.board) or not ctx.board.connected(figure.square, action.pit):
            raise IllegalAction("BG-JUMP-03", "{figure} is not beside the pit {pit}", figure=figure.id,
                                pit=square_name(action.pit))
        if any(t.is_character for t in ctx.at(action.pit)):
            raise IllegalAction("BG-JUMP-05", "a character is on the pit {pit}", pit=square_name(action.pit))
        pit, dest = action.pit, action.dest
        if dest == figure.square or abs(pit[0] - dest[0]) + abs(pit[1] - dest[1]) != 1:
            raise IllegalAction("BG-JUMP-03", "{dest} is not a landing square beside the pit", dest=square_name(dest))
        if ctx.board.is_open_ground(dest) and not ctx.board.connected(pit, dest):
            raise IllegalAction("BG-JUMP-06", "a wall or closed portcullis lies beside the pit on {dest}",
                                dest=square_name(dest))
        raise IllegalAction("BG-JUMP-04", "{dest} is not a valid landing square", dest=square_name(action.dest))
    player = ctx.s.players[action.seat]
    ctx.s.players[action.seat] = type(player)(player.actions, player.played, player.combat, player.jumps - 1)
    walker = walker_for(ctx.s, ctx.board, figure)
    moved = {original: action.dest for original in walker.originals}
    ctx.emit("jumped", token=figure.id, route=[square_name(sq) for sq in (figure.square, action.pit, action.dest)])
    _finish_at(ctx, figure, action.dest, moved)


class _Entry:
    """What a figure may do by moving: the actions listed (its move outcomes first, in the search's order)."""

    __slots__ = ("actions", "originals", "everything", "texts")

    def __init__(self, actions: FigureMoves, originals: tuple[str, ...]):
        self.actions = actions  # its Moves (one per outcome, each with its shortest route), wall-walks and jumps
        self.originals = originals  # what the figure carries at the start
        self.everything: tuple | None = None  # the figure's actions of all rule modules, a sequence each (`legal`)
        self.texts: tuple | str | None = None  # their canonical texts (`legal.legal_texts`); packed, see `pack`

    def route(self, outcome: tuple) -> tuple | None:
        """The route listed for the outcome (dest, take, leave), or None if it is not one of the figure's."""
        return self.actions.route(outcome)

    def pack(self) -> None:
        """Keep the entry compact while its game waits (`pack_memo`): the outcomes packed, the texts one string,
        a line each (canonical texts hold no line break), the figure's moves' common start "move <token> " written
        as one character (\\x1f, in no canonical text): ~3 bytes a move instead of ~11."""
        self.actions.pack()
        texts = self.texts
        if type(texts) is tuple and texts:
            lines = "\n" + "\n".join(texts)
            if "\x1f" not in lines:
                self.texts = lines.replace(f"\nmove {self.actions.token} ", "\n\x1f")

    def listed_texts(self) -> tuple | None:
        """The texts as `legal._figure_texts` made them (None if not yet), packed or not."""
        texts = self.texts
        if texts is None or type(texts) is tuple:
            return texts
        return tuple(texts.replace("\n\x1f", f"\nmove {self.actions.token} ")[1:].split("\n"))


def _blocked(board, here: Square, there: Square) -> IllegalAction:
    """Why a step between two neighbouring squares is refused: an arrow slit (PR-SLIT-02, PR-CORE-12; only a
    contortionist passes it) or a wall or closed portcullis (BG-MOVE-05)."""
    if board.is_slit(here, there):
        return IllegalAction("PR-SLIT-02", "an arrow slit lies between {here} and {there}", here=square_name(here),
                             there=square_name(there))
    return IllegalAction("BG-MOVE-05", "a wall or closed portcullis lies between {here} and {there}",
                         here=square_name(here), there=square_name(there))


def _key(state: GameState, board, seat: str, figure: Token, occ=None) -> tuple:
    """Everything a figure's actions depend on, so equal keys give equal results whatever the game or its history.

    The board (one object per layout: rooms, their places, orientations and portcullises, so squares, walls,
    pits, gears, start zones), the figure itself (id, code and so move value and abilities, colour, square), the
    seat, whether the seat has a jump card, what stands on every square the search may look at (`Board.reach`:
    within the move value, at least 2 for a jump, of connected steps of its square, and next to it across a wall
    for a wall-walk), and the turn if a token there was wounded this turn (BG-COMBAT-07; otherwise the turn makes
    no difference). The moves read nothing else of the state; neither do the other base-set modules, which look
    at the figure's square and its connected neighbours (attacks, heals, what it carries), the board (reveals,
    rotations, portcullises) and the turn only that way (`rulebook.RuleModule.reach_only`).

    The key holds the tokens themselves (immutable; a state shares those an action did not change with the state
    before, and `Ctx.put` re-uses one object for equal values), so comparing two keys mostly compares identities;
    two distinct but equal tokens compare equal, and give the same actions. What stands on the region is the
    tokens of its squares, square by square in the region's order, in one flat tuple: each token names its square,
    so neither the empty squares nor a tuple per square need a place in the key (a game's memo keys took 5.7 KB
    with a slot for every square of their regions, 5.0 KB without the empty ones, at 150 actions; the squares'
    tuples of an occupancy since replaced were most of the rest).
    """
    if occ is None:
        occ = occupancy(state)
    known = occ.keys.get((seat, figure.id))
    if known is not None and known[0] is figure and known[1] is board:
        return known[2]  # this (immutable) state's key, computed already (by `legal_actions`, asked again by `move`)
    regions = board.regions.get(figure.code)  # (`_region`'s memo read here: the call only where it has none)
    region = regions.get(figure.square) if regions is not None else None
    if region is None:
        region = _region(board, figure)
    prior = occ.prior
    if prior is not None:
        # The occupancy was made from an earlier state's (`Occupancy._derive`). Where the figure is the same object
        # on the same board and none of the squares whose tokens changed since is in its region, its key there is
        # its key here: the region's tokens are the same tuples, and so is `fresh` there (in the same turn it
        # changes only on changed squares; in a later turn only tokens changed since count, so it is None both
        # times or not the same); the seat's jump card is looked at again. ~15 K instructions a key less, for
        # about half of the keys of random self-play.
        known = prior.get((seat, figure.id))
        if known is not None and known[0] is figure and known[1] is board:
            key = known[2]
            if (key[4] is None or key[4] == state.turn) and key[3] == (state.players[seat].jumps > 0) \
                    and occ.changed.isdisjoint(region):
                occ.keys[seat, figure.id] = known
                return key
    fresh = state.turn if occ.fresh and not occ.fresh.isdisjoint(region) else None
    key = (board, figure, seat, state.players[seat].jumps > 0, fresh,
           tuple(chain.from_iterable(filter(None, map(occ.at.get, region)))))
    if occ.sealed:
        occ.keys[seat, figure.id] = (figure, board, key)
    return key


def _region(board, figure: Token) -> tuple:
    """The squares `_key` looks at: within the figure's move value (at least 2) of connected steps, through arrow
    slits for a contortionist (PR-CHAR-NAGA-01), and, for a wall-walker (BG-CHAR-WALLWALKER), next to it across a
    wall. Memoised per board, square and character kind.

    The squares next to the figure across a wall that no step reaches are read by a wall-walk alone: the other
    actions memoised on the key read the figure's square, its connected neighbours (attacks, heals) and those of a
    pit beside it (jumps), and its moves the squares its connected steps reach. Another figure's key leaves them
    out, so that a token moving there (behind a wall) no longer costs it a search."""
    regions = board.regions.get(figure.code)
    if regions is None:
        regions = board.regions[figure.code] = {}
    found = regions.get(figure.square)
    if found is None:
        kind = board.catalogue.characters[figure.code]
        found = regions[figure.square] = board.reach(figure.square, max(kind.move, 2), passes_of(kind),
                                                     "wallwalk" in kind.abilities)
    return found


def _peek(state: GameState, board, seat: str, figure: Token) -> _Entry | None:
    found = state.memo.entries.get((seat, figure.id))
    if found is not None and found[0] == _key(state, board, seat, figure):
        return found[1]
    return None


OLDER_KEPT = 3
"""How many of a figure's earlier memo entries `_entry` keeps besides its last one (`Memo.older`). Along random
self-play ~11% of the keys that miss a figure's last entry were among its earlier ones, 5.7% its one before, 7.9%
among its three before (a token that moved within its reach and back, the figure moving back); each found again is a
search and the other modules' parts not made again."""


def _entry(state: GameState, board, seat: str, figure: Token, occ=None) -> _Entry:
    """The figure's entry in its game's memo (`state.Memo`: one per seat and figure, the last computed, shared by
    the game's states), if its key is this position's; else one of its earlier entries kept (`Memo.older`) whose
    key is; otherwise computed and put there in its place."""
    key = _key(state, board, seat, figure, occ)
    memo = state._memo  # (the slot; the `memo` property, a call, where the game has none yet)
    if memo is None:
        memo = state.memo
    entries = memo.entries
    if memo.board is not board:
        # A new layout (a room turned, a portcullis moved): no entry of another board can match (the board is in
        # every key) but when that layout comes back, and each one kept its board alive (30-90 KB with its reach
        # memos: five of them in a 3,000-action game). Entries of figures not looked up since would keep them.
        memo.board = board
        for stale in [name for name, (other, _) in entries.items() if other[0] is not board]:
            del entries[stale]
        if memo.older:
            memo.older = {name: kept for name, kept in (
                (name, [pair for pair in kept if pair[0][0] is board]) for name, kept in memo.older.items()) if kept}
    if memo.seat != seat:
        # The other seat's turn came: first let go of the entries of figures that have changed since theirs was
        # made. The figure that made a seat's last action of a turn keeps the entry of where it stood; so does a
        # figure that left the maze or was wounded, which can no longer act. A token the state holds unchanged is
        # the very object it was (`Ctx.put`), so `is` tells; an equal token back again later (rare) only costs
        # that figure a search. One game in play held ~20% of its entries' outcomes that way (20 standard games
        # at 175 actions); once a turn, the look costs nothing measurable.
        memo.seat = seat
        tokens = state.tokens
        for stale in [name for name, (other, _) in entries.items() if tokens.get(name[1]) is not other[1]]:
            del entries[stale]
        if memo.older:
            memo.older = {name: kept for name, kept in (
                (name, [pair for pair in kept if tokens.get(name[1]) is pair[0][1]])
                for name, kept in memo.older.items()) if kept}
    name = (seat, figure.id)
    found = entries.get(name)
    if found is not None:
        if found[0] == key:
            return found[1]
        kept = memo.older.get(name)
        if kept is not None:
            tokens = key[5]
            for index, pair in enumerate(kept):
                known = pair[0]
                # Compared by identity (an equal token is mostly the same object, `Ctx.put`): the same board, figure,
                # jump card, `fresh` and the very tokens in the region. Two distinct tokens compared by value (the
                # dataclass's `__eq__`, ~2 K instructions) for each entry kept cost about what the searches saved.
                if known[1] is figure and known[0] is board and known[3] == key[3] and known[4] == key[4] \
                        and len(known[5]) == len(tokens) and all(map(is_, known[5], tokens)):
                    kept[index] = found
                    entries[name] = pair
                    return pair[1]
            kept.append(found)
            if len(kept) > OLDER_KEPT:
                del kept[0]
        elif OLDER_KEPT:
            memo.older[name] = [found]
    walker = walker_for(state, board, figure)
    outcomes, routes = walker.listed()
    extras: list = []
    if "wallwalk" in board.catalogue.characters[figure.code].abilities:
        extras += [WallWalk(seat, figure.id, dest, leave)
                   for dest, leave in wallwalk_options(state, board, figure, walker)]
    if state.players[seat].jumps > 0:
        extras += [Jump(seat, figure.id, pit, dest) for pit, dest in jump_options(state, board, figure, walker)]
    actions = FigureMoves(seat, figure.id, outcomes, routes, tuple(extras))
    entry = _Entry(actions, walker.originals)
    entries[name] = (key, entry)
    return entry


entry = _entry
"""The figure's memo entry (see `_key`), its moves listed (`actions`). `occ`: the state's occupancy, if the
caller has it (`legal._main_parts` looks at every figure of the seat: one look-up of it instead of one each).
`_entry` itself, not a function calling it: a position looks up every figure of its seat."""


def figure_actions(state: GameState, board, seat: str, figure: Token) -> FigureMoves:
    """Moves, wall-walks and jumps the figure may make: a sequence whose Moves are made as they are asked for.

    Memoised in the game's memo (one entry per seat and figure) on exactly what they depend on (`_key`): a figure
    nothing changed near since it was last listed costs a lookup.
    """
    return _entry(state, board, seat, figure).actions


def pack_memo(state: GameState) -> None:
    """The game waits (a server's players think): its memo's entries are kept packed (`_Entry.pack`), 1-3 KB an
    entry less, its occupancy is let go, and its board keeps the reach memos of the squares its figures stand on
    only, at the radius and links their kind asks for (`Board.keep_reach`); the next position's lookups find
    them as before, and unpack only what they read."""
    memo = state.memo
    memo.older = {}  # (the earlier entries `_entry` keeps while a game plays on are no part of what waits)
    if memo.entries or memo.occ is not None:
        for _, entry in memo.entries.values():
            entry.pack()
        # The occupancy of the state that waits (its squares' tokens, the figures' and loose tokens' squares,
        # its memo keys: ~5 KB of a game in play) is made again if the action that comes asks for it: ~6 us.
        memo.occ = memo.state = None
        board = memo.board
        if board is not None and board.reach_count() > 48:
            # (not every step: up to three a figure are kept, so a dozen figures' board is pruned every ten actions
            # or so, each time ~30 us)
            characters = state.catalogue.characters
            looks: dict = {}  # code -> the reach memos its figures use: `_region`'s, `Walker._outcomes`'
            reach: dict = {}  # (radius, passes) -> squares
            regions: dict = {}  # character code -> squares
            for token in state.tokens.values():
                if token.where == "board" and token.is_character:
                    code = token.code
                    look = looks.get(code)
                    if look is None:
                        kind = characters[code]
                        passes = passes_of(kind)
                        look = looks[code] = ((max(kind.move, 2), passes), (kind.move - 1, passes))
                    regions.setdefault(code, set()).add(token.square)
                    for name in look:
                        reach.setdefault(name, set()).add(token.square)
            board.keep_reach(reach, regions)
