"""Moves (BG-MOVE, BG-ITEM, BG-CARRY, BG-PIT, BG-EXIT): every outcome a figure can reach in one move action.

A move is a path plus item operations along it. Two moves with the same outcome (where the mover ends, what it
carries, where every other token it touched ends) are the same action; the walker finds one route for each.
"""

from __future__ import annotations

from dataclasses import dataclass

from .board import Board
from .catalogue import SetCatalogue
from .geometry import Square
from .golden import square_problem
from .state import GameState, Token

OutcomeKey = tuple[Square, str | None, tuple[tuple[str, Square], ...]]  # (dest, take, leave)


@dataclass
class Walker:
    """Enumerates the outcomes of one figure's move. Pure: reads the state, changes nothing."""

    state: GameState
    board: Board
    mover: Token

    def __post_init__(self):
        cat: SetCatalogue = self.state.catalogue
        self.cat = cat
        kind = cat.characters[self.mover.code]
        self.steps = kind.move
        self.acrobat = "acrobatics" in kind.abilities
        self.flyer = "levitate" in kind.abilities
        self.start = self.mover.square
        self.colour = self.mover.colour
        self.exit_owner = "Y" if self.colour == "B" else "B"
        self.base: dict[Square, list[Token]] = {}
        for token in self.state.tokens.values():
            if token.where == "board" and token.id != self.mover.id:
                self.base.setdefault(token.square, []).append(token)
        self.origin = {t.id: t.square for ts in self.base.values() for t in ts}
        here = [t for t in self.base.get(self.start, []) if not (t.is_character and not t.wounded)]
        self.original = here[0].id if here else None
        self.tokens = self.state.tokens
        self.exit_y = -1 if self.exit_owner == "B" else self.board.height
        self.pits = self.board.pits

    # --- the square contents as the move changes them ----------------------------------------------
    def contents(self, square: Square, hold: str | None, reloc: dict[str, Square]) -> list[Token]:
        """Tokens on `square` now, without the mover and what it holds."""
        out = [t for t in self.base.get(square, []) if t.id != hold and t.id not in reloc]
        out += [self.tokens[tid] for tid, sq in reloc.items() if sq == square and tid != hold]
        return out

    def is_rope(self, token_id: str | None) -> bool:
        return token_id is not None and not self.tokens[token_id].is_character and self.cat.objects[
            self.tokens[token_id].code].rope

    def may_enter(self, here: Square, there: Square, hold, reloc) -> bool:
        """BG-MOVE-06..10, BG-PIT-01..04/10, BG-CHAR-WIZARD-01 for a step to a connected neighbour (BG-MOVE-05).

        Stopping is checked at the end of the move.
        """
        contents = self.contents(there, hold, reloc) if (there in self.base or reloc) else ()
        exit_square = there[1] == self.exit_y
        if any(t.is_character and not t.wounded and t.colour != self.colour for t in contents):
            if exit_square or not self.flyer:
                return False
        if exit_square or there not in self.pits or self.acrobat or self.flyer:
            return True
        if any(self.is_rope(t.id) for t in contents):
            return True  # BG-PIT-02: a Rope lies there
        friend = next((t for t in contents if t.is_character and not t.wounded), None)
        if friend is not None and "acrobatics" in self.cat.characters[friend.code].abilities:
            return True  # BG-PIT-04 / BG-CHAR-THIEF-02: a friendly Thief bridges the pit
        if self.is_rope(hold):
            return here not in self.pits  # BG-PIT-10: one obstacle at a time
        return False

    def pickable(self, square: Square, hold, reloc) -> list[str]:
        """BG-ITEM-03/05/06, BG-CARRY-01, BG-PIT-09: what the mover may take on `square`."""
        contents = self.contents(square, hold, reloc)
        if any(t.is_character and not t.wounded and t.colour != self.colour for t in contents):
            return []
        own_wounded_here = any(t.is_character and t.wounded and t.colour == self.colour for t in contents)
        out = []
        for t in contents:
            if t.is_character:
                if t.wounded and t.colour == self.colour:
                    out.append(t.id)
            elif not (square in self.board.pits and self.is_rope(t.id) and own_wounded_here):
                out.append(t.id)
        return out

    def may_leave(self, square: Square, hold: str) -> bool:
        """BG-ITEM-04, BG-PIT-05/06: where the mover may put down what it holds."""
        if square not in self.board.pits:
            return True
        if not self.is_rope(hold):
            return False
        valid = [n for n in self.board.connected_neighbours(square)
                 if n not in self.board.pits and self.board.start_zone_owner(n) != self.exit_owner]
        return len(valid) >= 2

    # --- enumeration -------------------------------------------------------------------------------
    def outcomes(self, route: tuple[Square, ...] | None = None) -> dict[OutcomeKey, tuple[Square, ...]]:
        found: dict[OutcomeKey, tuple[Square, ...]] = {}
        self._refused: set[OutcomeKey] = set()
        seen: set = set()
        limit = self.steps if route is None else min(self.steps, len(route))
        if route is not None and len(route) > self.steps:
            return found

        def visit(pos: Square, used: int, hold, reloc: dict, path: tuple):
            key = (pos, used, hold, tuple(sorted(reloc.items())))
            if key in seen:
                return
            seen.add(key)
            if path and (route is None or len(path) == len(route)):
                self._record(found, pos, hold, reloc, path, exited=False)
            if used >= limit:
                return
            for hold2, reloc2 in self._operations(pos, hold, reloc):
                for there in self.board.connected_neighbours(pos):
                    if route is not None and there != route[used]:
                        continue
                    if not self.may_enter(pos, there, hold2, reloc2):
                        continue
                    if self.board.start_zone_owner(there) == self.exit_owner:
                        if route is None or used + 1 == len(route):
                            self._record(found, there, hold2, reloc2, path + (there,), exited=True)
                        continue
                    visit(there, used + 1, hold2, reloc2, path + (there,))

        visit(self.start, 0, self.original, {}, ())
        return found

    def _operations(self, pos, hold, reloc):
        yield hold, reloc
        if hold is not None and self.may_leave(pos, hold):
            yield None, {**reloc, hold: pos}
        for item in self.pickable(pos, hold, reloc):
            if hold is None:
                yield item, {k: v for k, v in reloc.items() if k != item}
            elif self.may_leave(pos, hold):
                yield item, {**{k: v for k, v in reloc.items() if k != item}, hold: pos}

    def _record(self, found, dest, hold, reloc, path, exited: bool) -> None:
        if not reloc and hold == self.original:  # the common case: nothing picked up or left
            if dest == self.start or self._keep_shorter(found, (dest, None, ()), path):
                return
        final = dict(reloc)
        if hold is not None:
            final[hold] = dest
        changed = {tid: sq for tid, sq in final.items() if sq != self.origin[tid]}
        if self.original is not None and final.get(self.original, self.start) != dest:
            changed[self.original] = final.get(self.original, self.start)
        take = next((tid for tid, sq in changed.items() if sq == dest and tid != self.original), None)
        leave = tuple(sorted((tid, sq) for tid, sq in changed.items() if sq != dest))
        if dest == self.start and take is None and not leave:
            return  # nothing would change: not a move (RUL-032 as amended in docs/rulings.md)
        key = (dest, take, leave)
        if self._keep_shorter(found, key, path) or key in self._refused:
            return
        if not self.ends_validly(dest, hold, final, exited):
            self._refused.add(key)
            return
        found[key] = path

    @staticmethod
    def _keep_shorter(found, key, path) -> bool:
        """True if the outcome is already known; its route becomes the shorter of the two."""
        known = found.get(key)
        if known is None:
            return False
        if len(path) < len(known):
            found[key] = path
        return True

    def ends_validly(self, dest, hold, final: dict[str, Square], exited: bool) -> bool:
        """The golden rules hold on every square the move touched (BG-MOVE-12, BG-GOLD-02/03)."""
        squares = {self.start, dest, *final.values(), *(self.origin[t] for t in final)}
        for square in squares:
            tokens = [t for t in self.base.get(square, []) if t.id not in final]
            tokens += [self.tokens[t] for t, sq in final.items() if sq == square]
            if square == dest:
                if exited:
                    continue
                tokens.append(self.mover)
            if square in self.board.pits and not any(self.is_rope(t.id) for t in tokens):
                tokens = [t for t in tokens if not (t.is_character and t.wounded)]  # it falls (BG-PIT-09)
            if square_problem(square, tokens, self.board.pits, self.cat):
                return False
        return True
