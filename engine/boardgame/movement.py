"""Moves (BG-MOVE, BG-ITEM, BG-CARRY, BG-PIT, BG-EXIT): every outcome a figure can reach in one move action.

A move is a path plus item operations along it. Two moves with the same outcome (where the mover ends, what it
carries, where every other token it touched ends) are the same action; the walker finds one shortest route for
each.

The search is a breadth-first search over walk states `(square, hold, reloc)`:

- `square`: where the mover stands;
- `hold`: the id of the token it carries (None for nothing);
- `reloc`: the tokens it has put down away from where they started, as a sorted tuple of `(token id, square)`
  pairs (usually empty). A token put back on its own starting square is not listed: the board is the same.

Each state is expanded once, at the depth it is first reached, so the first route found to an outcome is a
shortest one and the work is bounded by the number of distinct states, not of paths.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import count
from weakref import ref

from .board import Board
from .catalogue import SetCatalogue
from .geometry import Square
from .golden import square_ok
from .setup import can_exit
from .state import GameState, Token

_NONE: frozenset = frozenset()
SHIELDS = frozenset({"shield", "fire_shield"})  # object abilities that make a shield (PD-TERR-ROCKFALL-03)
OutcomeKey = tuple[Square, str | None, tuple[tuple[str, Square], ...]]  # (dest, take, leave)
Reloc = tuple[tuple[str, Square], ...]  # sorted (token id, square) pairs: tokens put down away from their start
_PLAIN: dict[Square, tuple] = {}
"""square -> the outcome (square, None, ()): ending there, taking and leaving nothing. One tuple per square for
the process, as `geometry.interned` keeps one per square: a game's memo holds ~80 such outcomes of its figures at
any time (60% of them), 64 bytes each when every search made its own."""


def _plain(square: Square) -> tuple:
    """`_PLAIN`'s outcome for `square`, made the first time (a board has about 230 squares)."""
    found = _PLAIN.get(square)
    if found is None:
        found = (square, None, ())
        if len(_PLAIN) < 4096:
            _PLAIN[square] = found
    return found


class Occupancy:
    """What stands where in one state, shared by the walkers of all its figures (built once per state).

    `at`: square -> the tokens on it (in the state's token order); `figures`: colour -> squares of that colour's
    able (unwounded) characters, which no move relocates; `loose`: colour -> squares holding something a move of
    that colour may pick up (an object or a wounded character of that colour);
    `fresh`: squares of the tokens wounded this turn; `checked`: a memo of the end-of-move square check, keyed on
    (square, ids of the tokens that would be on it); `keys`: (seat, figure id) -> (figure, board, `moves._key`) of
    a sealed state (`sealed`), whose keys never change; `walks`: (board, colour) -> what the searches of that
    colour's figures on a board without terrain share (`Walker._shared`).

    Made from the occupancy of an earlier state of its game when it can (`_derive`): then `changed` holds the
    squares whose tokens differ from that state's and `prior` that occupancy's `keys`, which `moves._key` takes
    again for a figure whose key reads none of those squares. `serial`: this occupancy's number (unique in the
    process), which a state's `_delta` names; `turn`: its state's turn; `rank`: token id -> place in the state's
    token order, once asked for (`_derive`).
    """

    __slots__ = ("at", "figures", "loose", "fresh", "checked", "keys", "sealed", "walks", "serial", "turn", "rank",
                 "prior", "changed", "characters")

    def __init__(self, state: GameState, sealed: bool = False, before: Occupancy | None = None):
        self.sealed = sealed
        self.serial = next(_SERIALS)
        self.keys: dict = {}
        self.walks: dict = {}
        self.checked: dict[tuple[Square, tuple[str, ...]], bool] = {}
        self.prior: dict | None = None
        self.changed: set[Square] | frozenset = _NONE
        self.turn = turn = state.turn
        if before is not None:
            delta = state._delta
            if delta is not None and delta[0] == before.serial and turn >= before.turn:
                self._derive(state, before, delta)
                return
        self.rank: dict[str, int] | None = None
        self.at: dict[Square, tuple[Token, ...]] = {}
        self.figures: dict[str, set[Square]] = {"B": set(), "Y": set()}
        self.loose: dict[str, set[Square]] = {"B": set(), "Y": set()}
        self.fresh: set[Square] = set()
        at, figures, loose, objects = self.at, self.figures, self.loose, []
        characters: dict[str, list[str]] = {}
        for token in state.tokens.values():
            if token.is_character:
                characters.setdefault(token.colour, []).append(token.id)
            if token.where == "board":
                square = token.square
                here = at.get(square)
                at[square] = (token,) if here is None else here + (token,)
                if not token.is_character:
                    objects.append(square)
                elif not token.wounded:
                    figures[token.colour].add(square)
                elif token.colour in loose:
                    loose[token.colour].add(square)
                if token.wounded_turn == turn:
                    self.fresh.add(square)
        if objects:
            loose["B"].update(objects)
            loose["Y"].update(objects)
        self.characters = {colour: tuple(sorted(ids)) for colour, ids in characters.items()}

    def _derive(self, state: GameState, before: Occupancy, delta: tuple) -> None:
        """This occupancy from `before`'s, `delta` (`state._delta`) naming the squares whose tokens changed since
        its state and the ids of those tokens (`Ctx.put`, through which every change of a token goes): only those
        squares are made again, by the rules of `__init__`'s pass over every token (28 in a standard game, ~58 K
        instructions); every other square keeps its tuple of tokens, the same objects (what `moves._key` reads).
        Tokens wounded this turn (`fresh`) lie on changed squares but in the turn of `before`: a token not changed
        since was wounded in that turn or earlier, so in a later turn none but the changed ones count."""
        tokens = state.tokens
        self.rank = before.rank
        self.characters = before.characters  # (a put changes no token's id, colour or kind)
        self.prior = before.keys if before.sealed else None
        squares = self.changed = set(delta[1])
        ids = set(delta[2])
        turn = self.turn
        at = self.at = before.at.copy()
        figures = self.figures = {"B": before.figures["B"].copy(), "Y": before.figures["Y"].copy()}
        loose = self.loose = {"B": before.loose["B"].copy(), "Y": before.loose["Y"].copy()}
        fresh = self.fresh = before.fresh.copy() if before.fresh and turn == before.turn else set()
        moved = [tokens[tid] for tid in ids]
        for square in squares:
            figures["B"].discard(square)
            figures["Y"].discard(square)
            loose["B"].discard(square)
            loose["Y"].discard(square)
            fresh.discard(square)
            # the tokens on `square` now: those that lay there and did not change, and the changed ones there now
            # (loops rather than two comprehensions: a comprehension is a call, for the 0-2 tokens of a square)
            here = []
            for t in at.get(square, ()):
                if t.id not in ids:
                    here.append(t)
            for t in moved:
                if t.where == "board" and t.square == square:
                    here.append(t)
            if not here:
                at.pop(square, None)
                continue
            if len(here) > 1:  # in the state's token order
                rank = self.rank
                if rank is None:
                    rank = self.rank = {tid: i for i, tid in enumerate(tokens)}
                here.sort(key=lambda t: rank[t.id])
            here = at[square] = tuple(here)
            for token in here:  # as `__init__`'s pass
                if not token.is_character:
                    loose["B"].add(square)
                    loose["Y"].add(square)
                elif not token.wounded:
                    figures[token.colour].add(square)
                elif token.colour in loose:
                    loose[token.colour].add(square)
                if token.wounded_turn == turn:
                    fresh.add(square)


_SERIALS = count()


def occupancy(state: GameState) -> Occupancy:
    """The occupancy of `state`; reused while the same sealed (immutable) state is asked about again (the game's
    memo keeps the last one: `state.Memo`), else made from that last one when the state's `_delta` is against it
    (`Occupancy._derive`)."""
    if not getattr(state, "_sealed", False):
        return Occupancy(state)
    memo = state._memo  # (the slot: `GameState.memo`, a property, only where the game has none yet)
    if memo is None:
        memo = state.memo
    else:
        last = memo.state
        if last is not None and last() is state:
            return memo.occ
    occ = memo.occ = Occupancy(state, sealed=True, before=memo.occ)
    memo.state = ref(state)
    return occ


def listed(state: GameState) -> None:
    """Every figure of the seat to act in sealed `state` was listed (`legal._main_parts`): no search of it is left
    (apply finds a listed move in the memo, `moves._peek`), so the end-square checks its occupancy memoised for the
    searches (`Occupancy.checked`) are let go. The last state of a game in play keeps its occupancy while its
    players think: up to ~9 KB of checks (62 of them) at 175 actions. Should a search come after all, it checks
    again."""
    memo = state.memo
    last = memo.state  # only a sealed state's occupancy is kept (`occupancy`)
    if last is not None and last() is state and memo.occ.checked:
        memo.occ.checked = {}


def tokens_on(state: GameState, square: Square) -> tuple[Token, ...]:
    """The tokens on `square`, in the state's token order: from the occupancy of a sealed state (built once for
    it), else by a look at every token."""
    if getattr(state, "_sealed", False):
        return occupancy(state).at.get(square, ())
    return tuple(t for t in state.tokens.values() if t.where == "board" and t.square == square)


def passes_of(kind) -> str:
    """What a character's steps pass besides open edges (`Board.links_of`): walls and all for the incorporeal
    (PD-CHAR-GHOST-01), arrow slits for a contortionist (PR-CHAR-NAGA-01), else nothing."""
    if "incorporeal" in kind.abilities:
        return "walls"
    return "slits" if "contortionist" in kind.abilities else ""


@dataclass
class Walker:
    """Enumerates the outcomes of one figure's move. Pure: reads the state, changes nothing.

    Slotted: a walker is made for every search (1.5 a position) and sets ~45 attributes, more than an instance
    dict shares its keys for (30), so each walker grew a dict of its own, resized three times as it was filled;
    slots are set and read at fixed places."""

    __slots__ = ("state", "board", "mover", "cat", "steps", "acrobat", "flyer", "contortionist", "agile",
                 "incorporeal", "no_carry", "winged", "crevasses", "barriers", "rockfall", "rubble", "no_stop",
                 "no_drop", "pits", "drop_checked", "passes", "links", "start", "colour", "exit_owner", "occ", "base",
                 "enemies", "giants", "original", "originals", "tokens", "exit_y", "can_exit", "exits", "hazards",
                 "careful", "blocked", "_origin", "_start_left_ok", "_configs", "_dest_ok", "_alone", "_drop_rest",
                 "_decided", "_refused")

    state: GameState
    board: Board
    mover: Token

    def __post_init__(self):
        cat: SetCatalogue = self.state.options.catalogue
        self.cat = cat
        kind = cat.characters[self.mover.code]
        # contortionist: through arrow slits (PR-CHAR-NAGA-01); agile: crosses pits, stopping is the golden rules'
        # (PD-CHAR-ELF-01); incorporeal: PD-CHAR-GHOST-01; no_carry: never picks up, carries or uses anything
        # (PD-CHAR-GHOST-03)
        (self.steps, self.acrobat, self.flyer, self.contortionist, self.agile, self.incorporeal,
         self.no_carry) = kind.gait
        # Paladins & Dragons terrain (empty elsewhere): squares nobody stops on and only some cross (crevasses,
        # 3D obstacles, fountains), and Rockfall, where an unprotected walker's move ends (PD-TERR-ROCKFALL-01)
        self.winged = self.flyer or self.incorporeal  # PD-TERR-ROCKFALL-04: passes over Rockfall unharmed
        terrain, illusions = self.board.terrain, self.board.illusions
        if terrain or illusions:
            self._terrain(terrain, illusions, kind)
        else:  # a board of the base set or Prison: none of it
            self.crevasses = self.barriers = self.rockfall = self.rubble = self.no_stop = self.no_drop = _NONE
            self.pits = self.drop_checked = self.board.pits
        # (locals rather than attribute look-ups: a walker is made for every search, 1.5 a position)
        board, mover, state = self.board, self.mover, self.state
        # `passes_of(kind)` and `board.links_of(passes)`, from the gait's flags without the two calls
        if self.incorporeal:
            self.passes, self.links = "walls", board.wall_links
        elif self.contortionist:
            self.passes, self.links = "slits", board.slit_links
        else:
            self.passes, self.links = "", board.links
        self.start = start = mover.square
        self.colour = colour = mover.colour
        self.exit_owner = exit_owner = "Y" if colour == "B" else "B"
        self.occ = occ = occupancy(state)
        self.base = base = dict(occ.at)  # the board without the mover
        here = base.get(start, ())
        if len(here) == 1 and here[0].id == mover.id:  # (it stands there alone: mostly)
            here = ()
        else:
            here = tuple([t for t in here if t.id != mover.id])
        if here:
            base[start] = here
        else:
            base.pop(start, None)
        self.enemies = enemies = occ.figures[exit_owner]  # squares a move may not stop on or (mostly) cross
        # PR-CHAR-COLOSSUS-03: a figure of printed combat 0 or 1 passes between a Giant's legs (never stops there)
        giants = cat.giants if kind.combat <= 1 else _NONE
        self.giants: frozenset[Square] = frozenset(
            sq for sq in enemies if any(t.is_character and not t.wounded and t.code in giants
                                        for t in occ.at[sq])) if giants else _NONE
        if enemies and (self.winged or self.giants):
            # DT-292: nothing is left under an enemy figure the mover passes (a flyer, a small figure between a
            # Giant's legs): `may_leave` is asked there too
            self.drop_checked = self.drop_checked.union(enemies)
        lying = [t for t in here if not (t.is_character and not t.wounded)] if here else here
        self.original = lying[0].id if lying and not self.no_carry else None  # what lies under a no-carrier stays
        self.originals: tuple[str, ...] = (self.original,) if self.original else ()  # all it carries there
        self.tokens = state.tokens
        self.exit_y = -1 if exit_owner == "B" else board.height
        if terrain or illusions:  # (the pits and the terrain may be the mover's own: an Illusionist's)
            self.can_exit, self.exits, self.hazards, self.careful = self._shared()
        else:  # the same for every figure of its colour in this state: made once (`Occupancy.walks`)
            shared = occ.walks.get((board, colour))
            if shared is None:
                shared = occ.walks[board, colour] = self._shared()
            self.can_exit, self.exits, self.hazards, self.careful = shared
        # enemy figures' squares `may_enter` always refuses: all of them, unless the mover passes some (a winged or
        # incorporeal one, one small enough for a Giant's legs) or the terrain comes first (rubble, barriers)
        self.blocked = enemies if not (self.winged or self.giants or terrain or illusions) else _NONE
        self._origin: dict[str, Square] | None = None  # `origin`
        self._start_left_ok: bool | None = None  # the start square without the mover and what it carries
        self._configs: dict[tuple[str | None, Reloc], tuple] = {}  # (hold, reloc) -> `_config`
        self._dest_ok: dict[str | None, dict[Square, bool]] = {}  # hold -> dest -> `_dest_check`
        # hold -> `_dest_check` of an empty floor square; one token alone off a pit breaks no rule (`_breach`)
        self._alone: dict[str | None, bool] = {None: True}
        self._drop_rest: dict[str, tuple] = {}  # token id -> `_rest_without`
        self._decided: dict[tuple[str | None, Reloc], set[Square]] = {}  # (take, leave) -> dests (`_search`)

    def _shared(self) -> tuple[bool, frozenset[Square], set[Square], set[Square]]:
        """Whether the mover's colour leaves the maze by the opponent's start zone (`can_exit`: a scenario may keep
        it in, PR-SCEN-2-06/3-04) and those squares (`exits`); the squares `may_enter` must look at (`hazards`: any
        other neighbour may be entered); every square the walks must look at more closely (`careful`: those, what
        lies on the board, the exits, Rockfall). `careful` holds the mover's own start square when nothing else lies
        there: harmless, as a walk never steps onto its start but as onto an empty square (`_plain_search` has seen
        it; `_walk` finds it among every configuration's special squares, and it is no hazard, exit or Rockfall
        square but if it is one in any case), so the figures of a colour share the set."""
        exit_owner, occ = self.exit_owner, self.occ
        can = can_exit(self.state, self.colour)
        exits = self.board.zone_squares[exit_owner] if can else frozenset()
        hazards = occ.figures[exit_owner].union(self.pits, self.barriers, self.rubble)
        return can, exits, hazards, hazards.union(occ.at, exits, self.rockfall)

    def _terrain(self, terrain: dict, illusions: dict, kind) -> None:
        """Paladins & Dragons terrain: squares nobody stops on and only some cross (crevasses, 3D obstacles,
        fountains), and Rockfall, where an unprotected walker's move ends (PD-TERR-ROCKFALL-01); the Illusionists'
        markers: rubble blocks all but the Ghost (PD-CHAR-ILLUS-04), an illusion pit is a pit (Board.pits), and its
        maker crosses both of his own as empty squares and stops on neither (PD-CHAR-ILLUS-05)."""
        self.crevasses = terrain.get("crevasses", _NONE)
        self.barriers = self.crevasses.union(terrain.get("obstacles", ()), terrain.get("fountains", ()))
        self.rockfall = terrain.get("rockfall", _NONE)
        own = frozenset(sq for sq, (colour, _) in illusions.items()
                        if colour == self.mover.colour and "illusions" in kind.abilities) if illusions else _NONE
        self.rubble = self.board.rubble - own if illusions else _NONE
        self.pits = self.board.pits - own if own else self.board.pits
        self.no_stop = self.barriers.union(self.rubble, own)
        self.no_drop = self.no_stop.union(illusions) if illusions else self.no_stop  # DT-116: no illusion square
        self.drop_checked = self.pits.union(self.no_drop, self.rockfall)  # where `may_leave` must be asked

    @property
    def origin(self) -> dict[str, Square]:
        """Where each other token on the board starts (made the first time it is asked for)."""
        origin = self._origin
        if origin is None:
            origin = self._origin = {t.id: t.square for ts in self.base.values() for t in ts}
        return origin

    # --- the square contents as the move changes them ----------------------------------------------
    def contents(self, square: Square, hold: str | None, reloc: Reloc) -> list[Token]:
        """Tokens on `square` now, without the mover and what it holds."""
        if not reloc:
            return [t for t in self.base.get(square, ()) if t.id != hold]
        moved = dict(reloc)
        out = [t for t in self.base.get(square, ()) if t.id != hold and t.id not in moved]
        out += [self.tokens[tid] for tid, sq in reloc if sq == square and tid != hold]
        return out

    def is_rope(self, token_id: str | None) -> bool:
        return token_id is not None and not self.tokens[token_id].is_character and self.cat.objects[
            self.tokens[token_id].code].rope

    def may_enter(self, here: Square, there: Square, hold, reloc: Reloc) -> bool:
        """BG-MOVE-06..10, BG-PIT-01..04/10, BG-CHAR-WIZARD-01 for a step to a connected neighbour (BG-MOVE-05).

        Stopping is checked at the end of the move.
        """
        if there in self.rubble:
            return self.incorporeal  # PD-CHAR-ILLUS-04
        if there in self.barriers:  # PD-GLOS-03, PD-TERR-CREVASSE-01/04, PD-ROPE-01..03: crossed, never stopped on
            if self.winged:
                return True
            return there in self.crevasses and self.is_rope(hold) and here not in self.pits and here not in \
                self.crevasses
        exit_square = there[1] == self.exit_y and self.can_exit
        if there in self.enemies and (exit_square or not (self.winged or there in self.giants)):
            return False
        if exit_square or there not in self.pits or self.winged:
            return True
        if here in self.crevasses:
            # PD-ROPE-03: a Rope-carrier crossing a crevasse never steps onto a pit, bridged or not, nor do the
            # Thief and the Elf Scout: the crevasse is crossed by the Rope, not by their own ability (DT-240)
            return False
        if self.acrobat or self.agile:
            return True
        if there in self.base or reloc:  # (mostly nothing lies on the pit: then neither test below can hold)
            contents = self.contents(there, hold, reloc)
            if any(self.is_rope(t.id) for t in contents):
                holder = next((t for t in contents if t.is_character and not t.wounded), None)
                if holder is None or holder.colour == self.colour:
                    return True  # BG-PIT-02: a Rope lies there; BG-PIT-04: a friend carries it (not an enemy
                    # Colossus the mover passes under, PR-CHAR-COLOSSUS-03, BG-EX-06)
            friend = next((t for t in contents if t.is_character and not t.wounded), None)
            if friend is not None and "acrobatics" in self.cat.characters[friend.code].abilities:
                return True  # BG-PIT-04 / BG-CHAR-THIEF-02: a friendly Thief bridges the pit
        if hold is not None and self.is_rope(hold):
            return here not in self.pits and here not in self.crevasses  # BG-PIT-10, PD-ROPE-03: one at a time
        return False

    def pickable(self, square: Square, hold, reloc: Reloc) -> list[str]:
        """BG-ITEM-03/05/06, BG-CARRY-01, BG-PIT-09: what the mover may take on `square`."""
        if square in self.enemies or self.no_carry:
            return []
        contents = self.contents(square, hold, reloc)
        return self._takeable(square, contents) if contents else []

    def _takeable(self, square: Square, contents: list[Token]) -> list[str]:
        """Of the tokens on `square`, what the mover may take (`pickable`)."""
        # BG-PIT-09: not the Rope from under an own wounded character on a pit; BG-PIT-04: nor from under a figure
        # standing on the pit (a Thief's as a Rope-carrier's)
        held_up = square in self.pits and any(t.is_character and (not t.wounded or t.colour == self.colour)
                                              for t in contents)
        out = []
        for t in contents:
            if t.is_character:
                if t.wounded and t.colour == self.colour:
                    out.append(t.id)
            elif not (held_up and self.is_rope(t.id)):
                out.append(t.id)
        return out

    def to_acrobat(self, square: Square, hold: str) -> bool:
        """Whether an object put down on the pit `square` goes into the hands of a Thief of the mover's colour
        standing there (BG-ITEM-05, DT-025, DT-290): hers to carry on the pit, not left in it (BG-PIT-05/06). A
        wounded friend is not handed to her there (BG-PIT-05)."""
        return not self.tokens[hold].is_character and any(
            t.is_character and not t.wounded and t.colour == self.colour
            and "acrobatics" in self.cat.characters[t.code].abilities for t in self.base.get(square, ()))

    def may_leave(self, square: Square, hold: str) -> bool:
        """BG-ITEM-04, BG-PIT-05/06: where the mover may put down what it holds."""
        if square in self.no_drop:
            return False  # nothing lies on a crevasse, an obstacle or any illusion (PD-TERR-CREVASSE-04, DT-116)
        if square in self.enemies:
            return False  # BG-ITEM-05, DT-292: a hand-over is between figures of one colour
        if square in self.rockfall and self.tokens[hold].is_character:
            return False  # RUL-090: no wounded character is dropped on Rockfall (PD-TERR-ROCKFALL-08)
        if square not in self.pits:
            return True
        if self.to_acrobat(square, hold):
            return True
        if not self.is_rope(hold):
            return False
        valid = [n for n in self.board.connected_neighbours(square)
                 if n not in self.pits and (self.board.start_zone_owner(n) != self.exit_owner or not self.can_exit)]
        return len(valid) >= 2

    # --- enumeration -------------------------------------------------------------------------------
    def outcomes(self, route: tuple[Square, ...] | None = None,
                 want: OutcomeKey | None = None) -> dict[OutcomeKey, tuple[Square, ...]]:
        """Every outcome of a move and a shortest route to it (only routes along `route` if one is given).

        With `want`, only that outcome is looked for: the result holds it, or nothing. No move ends on a crevasse
        or a 3D obstacle (PD-TERR-CREVASSE-01, PD-GLOS-03): the searches cross them, the outcomes leave them out.
        """
        if route is None and want is None:
            return dict(zip(*self.listed()))
        found = self._outcomes(route, want)
        if self.no_stop:
            found = {key: path for key, path in found.items() if key[0] not in self.no_stop}
        return found

    def listed(self) -> tuple[list[OutcomeKey], list[tuple[Square, ...]]]:
        """`outcomes()` as two lists, the outcomes and their routes, in the same order: what a figure's memo entry
        keeps (`actions.FigureMoves`). The searches list each outcome once (the walk states and outcomes decided
        are kept in sets), so the dict `outcomes` makes of them, its keys hashed once more each (~0.4 K
        instructions an outcome, 45 a search), is made only where an outcome is looked up by its value."""
        keys, routes = self._listed()
        no_stop = self.no_stop
        if no_stop:
            kept = [index for index, key in enumerate(keys) if key[0] not in no_stop]
            keys, routes = [keys[index] for index in kept], [routes[index] for index in kept]
        return keys, routes

    def _listed(self) -> tuple[list[OutcomeKey], list[tuple[Square, ...]]]:
        """The search for every outcome: nothing to carry, nothing to pick up where a step may still follow (within
        steps - 1 of the start), `_plain_search`; exactly one thing to carry within reach, `_item_search`; else
        `_search`."""
        if self.original is None and (self.no_carry or self.occ.loose[self.colour].isdisjoint(
                self.board.reach(self.start, self.steps - 1, self.passes))):
            return self._plain_search()
        one = self._one_item()
        if one is not None:
            return self._item_search(*one)
        return self._search()

    def _is_shield(self, token_id: str) -> bool:
        """Any shield object counts against Rockfall (PD-TERR-ROCKFALL-03): the Fire Shield, Prison's Large Shield."""
        token = self.tokens[token_id]
        return not token.is_character and not SHIELDS.isdisjoint(self.cat.objects[token.code].abilities)

    def _shield_on(self, square: Square, hold, reloc: Reloc) -> bool:
        return any(self._is_shield(t.id) for t in self.contents(square, hold, reloc))

    def trapped(self, there: Square, hold, reloc: Reloc) -> bool:
        """Whether entering the Rockfall square `there` ends the move there (PD-TERR-ROCKFALL-01/03/04/06): not
        for wings or the Ghost, nor with a shield in hand or lying there. Ending on it kills in any case
        (RUL-090): the Rockfall rule module's `after_action`."""
        if self.winged or (hold is not None and self._is_shield(hold)):
            return False
        return not self._shield_on(there, hold, reloc)

    def _outcomes(self, route: tuple[Square, ...] | None = None,
                  want: OutcomeKey | None = None) -> dict[OutcomeKey, tuple[Square, ...]]:
        if route is None and want is None:
            return dict(zip(*self._listed()))
        found: dict[OutcomeKey, tuple[Square, ...]] = {}
        refused: set[OutcomeKey] = set()
        self._refused = refused
        if route is not None and len(route) > self.steps:
            return found
        limit = self.steps if route is None else len(route)
        links, zone_owner, exit_owner, base = self.links, self.board.zone_owner, self.exit_owner, self.base
        hazards = self.hazards
        may_enter, record, configs, config = self.may_enter, self._record, self._configs, self._config
        only = want[0] if want is not None else None
        frontier = [(self.start, self.original, (), ())]
        seen = {(self.start, self.original, ())}
        for depth in range(limit):
            # With a route, a square may come back at another depth: the state must be expanded again there.
            if route is not None:
                seen = set()
                step = route[depth]
            last = depth + 1 == limit
            records = route is None or last
            following: list = []
            for pos, hold, reloc, path in frontier:
                if hold is None and not reloc and pos not in base:
                    operations = ((None, ()),)  # empty-handed on an empty square: it can only walk on
                else:
                    operations = self._operations(pos, hold, reloc)
                for hold2, reloc2 in operations:
                    # what the outcome of stopping on a square outside `special` is, and whether the other squares
                    # the move touched are fine (`_config`)
                    special, take, leave, rest_ok, dest_ok = (configs.get((hold2, reloc2)) or config(hold2, reloc2))[:5]
                    for there in links[pos]:
                        if route is not None and there != step:
                            continue
                        if there in hazards and not may_enter(pos, there, hold2, reloc2):
                            continue
                        exited = zone_owner.get(there) == exit_owner and self.can_exit
                        if not exited and not self._visit(seen, following, there, hold2, reloc2, path, last):
                            continue
                        if records and (only is None or there == only):
                            if there in special:
                                record(found, there, hold2, reloc2, path + (there,), exited)
                            else:
                                key = (there, take, leave)
                                if key in found or key in refused:
                                    continue  # breadth first: the route known already is no longer than this one
                                if rest_ok and (exited or dest_ok.get(there) or self._dest_check(there, hold2)):
                                    found[key] = path + (there,)
                                else:
                                    refused.add(key)
                            if want is not None and want in found:
                                return found
            frontier = following
        return found

    def _visit(self, seen: set, following: list, there: Square, hold, reloc: Reloc, path, last: bool) -> bool:
        """For the general searches (`_outcomes`): the walk state (there, hold, reloc) is new (False if it was seen);
        it is marked seen and, unless this is the last step or Rockfall ends the move there, queued for the next."""
        state = (there, hold, reloc)
        if state in seen:
            return False
        seen.add(state)
        if not last and not (there in self.rockfall and self.trapped(there, hold, reloc)):
            following.append((there, hold, reloc, path + (there,)))
        return True

    def _search(self) -> tuple[list[OutcomeKey], list[tuple[Square, ...]]]:
        """`outcomes()` with no route and no wanted outcome: the same search, the same results in the same order,
        without the tests those need. A walk state is (square, configuration), the configuration (`_config`) standing
        for (hold, reloc); the states seen are kept per configuration, as sets of squares, and the outcomes decided
        (found or refused) per (take, leave), as sets of end squares (`_decided`)."""
        configs, config = self._configs, self._config
        pickable, may_leave, put, without = self.pickable, self.may_leave, self._put, self._without
        drop_checked, loose = self.drop_checked, self.occ.loose[self.colour]

        def operations_of(pos: Square, here: tuple):
            """What the mover may do on `pos` before stepping on: nothing, leave, take, swap (`_operations`)."""
            hold, reloc = here[7], here[8]
            items = pickable(pos, hold, reloc) if pos in loose or pos in here[9] else ()
            if hold is None:
                if not items:
                    return (here,)
                operations = [here]
                for item in items:
                    reloc2 = without(reloc, item)
                    operations.append(configs.get((item, reloc2)) or config(item, reloc2))
                return operations
            if pos in drop_checked and not may_leave(pos, hold):
                return (here,)
            reloc2 = put(reloc, hold, pos)
            operations = [here, configs.get((None, reloc2)) or config(None, reloc2)]
            for item in items:
                reloc2 = put(without(reloc, item), hold, pos)
                operations.append(configs.get((item, reloc2)) or config(item, reloc2))
            return operations

        # The mover may pick up only where something of `Occupancy.loose` lies (an object, a wounded character of its
        # colour) or where it put something down: on the other squares where tokens lie (figures, enemy wounded)
        # `pickable` finds nothing, so it is not asked there, nor `operations_of` there empty-handed.
        return self._walk(operations_of, loose)

    def _one_item(self) -> tuple[str, Square] | None:
        """(item, its square) if the mover could carry exactly one thing within reach (`_item_search`), else None:
        what it stands on alone with it, or, empty-handed, the one token lying alone on the only square within
        steps - 1 of the start that holds something a move of its colour may pick up (`Occupancy.loose`)."""
        loose = self.occ.loose[self.colour]
        start, base = self.start, self.base
        if self.original is not None:
            if len(base[start]) != 1:
                return None
            item, home = self.original, start
            for square in self.board.reach(start, self.steps - 1, self.passes):
                if square in loose and square != start:
                    return None
        else:
            home = None
            for square in self.board.reach(start, self.steps - 1, self.passes):
                if square in loose:
                    if home is not None:
                        return None
                    home = square
            lying = base.get(home)
            if lying is None or len(lying) != 1:
                return None
            item = lying[0].id
        return item, home

    def _item_search(self, item: str, home: Square) -> tuple[list[OutcomeKey], list[tuple[Square, ...]]]:
        """`_search` for a figure with exactly one thing it could carry within reach (`_one_item`): `item`, alone
        on its square `home` (the mover's start if it stands on it: `original`), with nothing else it could pick
        up where a step may still follow (within steps - 1 of the start). The same search, the same results in
        the same order (the configurations, steps and outcome records are `_search`'s own), with the mover's
        choices on a square (`_operations`) known without `pickable`: holding the item, carry it on or put it
        down where it may be left (back on `home` that is the configuration with the item untouched); holding
        nothing, pick it up where it lies (`home`, or where it was put down unless an enemy figure stands there:
        no other token that could be picked up lies within reach, and `pickable` refuses the item only under a
        wounded character of the mover's colour, which would lie there too)."""
        enemies, configs, config, may_leave = self.enemies, self._configs, self._config, self.may_leave
        drop_checked = self.drop_checked

        def operations_of(pos: Square, here: tuple):
            hold, reloc = here[7], here[8]
            if hold is not None:
                if pos in drop_checked and not may_leave(pos, item):
                    return (here,)
                reloc2 = () if pos == home else ((item, pos),)
                return (here, configs.get((None, reloc2)) or config(None, reloc2))
            if pos == (reloc[0][1] if reloc else home) and pos not in enemies:
                return (here, configs.get((item, ())) or config(item, ()))
            return (here,)

        return self._walk(operations_of, (home,))

    def _walk(self, operations_of, lying) -> tuple[list[OutcomeKey], list[tuple[Square, ...]]]:
        """The breadth-first walk of `_search` and `_item_search`: walk states (square, configuration), each
        expanded once; `operations_of(square, configuration)` gives the configurations the mover may pass on
        from that square with (what it may pick up or put down there). Empty-handed, it can do nothing but walk
        on from a square where nothing lay at the start (`lying`: the squares where something it may pick up may
        lie) and nothing was put down: `operations_of` is not asked there (most walk states). The outcomes and their
        routes, in order, as two lists (`listed`): each is decided once (`decided`), so none comes twice."""
        keys: list[OutcomeKey] = []
        routes: list[tuple[Square, ...]] = []
        add_key, add_route = keys.append, routes.append
        self._refused = set()
        steps = self.steps
        links, exits, base, pits = self.links, self.exits, self.base, self.pits
        hazards, careful, blocked = self.hazards, self.careful, self.blocked  # (pits among the hazards)
        may_enter, record, configs, config, dest_check = (
            self.may_enter, self._record_decided, self._configs, self._config, self._dest_check)
        start, original, rockfall, trapped = self.start, self.original, self.rockfall, self.trapped
        for known in configs.values():
            known[5].clear()  # a walker searched before (`explain_refused_move`)
        for decided in self._decided.values():
            decided.clear()
        first = configs.get((original, ())) or config(original, ())
        first[5].add(start)
        frontier = [(start, first, ())]
        for depth in range(steps):
            last = depth + 1 == steps
            following: list = []
            for pos, here, path in frontier:
                if here[7] is None and pos not in lying and pos not in here[9]:
                    operations = (here,)
                else:
                    operations = operations_of(pos, here)
                for now in operations:
                    special, take, leave, rest_ok, dest_ok, seen, decided, hold2, reloc2, placed, alone_ok, _ = now
                    plain_ok = rest_ok and alone_ok  # an outcome on an empty square is valid
                    if now is not here:
                        # Reaching `pos` again later in the configuration `now` (a step away and back) is a walk
                        # state that adds nothing: ending there is the outcome of ending there in `here` (what the
                        # mover holds or put down there ends there either way), decided at this depth already, and
                        # what the mover may do there is among what it may do from `here` now (put back what it
                        # took, take back what it put down, or what `here` could swap), whose steps on are taken
                        # from this depth, with more steps left. So it is marked seen: not walked again.
                        seen.add(pos)
                    for there in links[pos]:
                        if there in seen:
                            continue  # (never an exit square, and `may_enter` changes nothing: asked first)
                        if there not in careful:  # an empty square of no kind that needs a look: the short way
                            seen.add(there)
                            route = path + (there,)
                            if not last:
                                following.append((there, now, route))
                            # (of the special squares, only those it put something down on may be out of `careful`:
                            # tokens lie on its start and where what it moved lay, `Occupancy.at`)
                            if placed and there in placed:
                                record(keys, routes, there, now, route, False)
                            elif there not in decided:
                                decided.add(there)
                                if plain_ok:
                                    add_key((there, take, leave))
                                    add_route(route)
                            continue
                        if there in hazards and (there in blocked or not may_enter(pos, there, hold2, reloc2)):
                            continue
                        if there in exits:  # out of the maze: not a walk state, but an outcome each time
                            if there in special:
                                record(keys, routes, there, now, path + (there,), True)
                            elif there not in decided:
                                decided.add(there)
                                if rest_ok:
                                    add_key((there, take, leave))
                                    add_route(path + (there,))
                            continue
                        seen.add(there)
                        route = path + (there,)
                        if not last and not (there in rockfall and trapped(there, hold2, reloc2)):
                            following.append((there, now, route))
                        if there in special:
                            record(keys, routes, there, now, route, False)
                            continue
                        if there in decided:
                            continue  # breadth first: the route known already is no longer than this one
                        decided.add(there)
                        if rest_ok:
                            if there in base or there in pits:  # the end of a move needs a look at what lies there
                                ok = dest_ok.get(there)
                                if ok is None:
                                    ok = dest_check(there, hold2)
                            else:
                                ok = alone_ok
                            if ok:
                                add_key((there, take, leave))
                                add_route(route)
            frontier = following
        return keys, routes

    def _record_decided(self, keys: list, routes: list, dest, config: tuple, path, exited: bool) -> None:
        """`_record` for `_search`, for an end square among the configuration's special squares: an outcome decided
        once, found or refused, is marked in `_decided`; its validity (`ends_validly`) comes from the squares of
        the configuration but `dest` (`_config`) and a look at `dest` with the mover there."""
        hold, reloc = config[7], config[8]
        # Where the tokens the move touched end and the outcome's take and leave; when one token is put or carried
        # somewhere (the common case), without the general case's dicts (`_outcome`): `moved` ends on `end`.
        if hold is None and len(reloc) == 1:
            ((moved, end),) = reloc
        elif not reloc:
            if hold is None or hold == self.original:
                return  # its one special square is the start: back there with nothing changed, it is not a move
            moved, end = hold, dest
        else:
            moved = None
        if moved is None:
            final, take, leave = self._outcome(dest, hold, reloc)
        else:
            original = self.original
            take = None
            if original == moved:
                leave = ((moved, end),) if end != dest else ()  # what it carried from the start ends elsewhere
            else:
                left = []
                if end != self.tokens[moved].square:
                    if end == dest:
                        take = moved
                    else:
                        left.append((moved, end))
                if original is not None and self.start != dest:
                    left.append((original, self.start))  # what it carried from the start stays there
                leave = tuple(sorted(left)) if len(left) > 1 else tuple(left)
        if dest == self.start and take is None and not leave:
            return  # nothing would change: not a move (RUL-032 as amended in docs/rulings.md)
        decided = self._decided.get((take, leave))
        if decided is None:
            decided = self._decided[(take, leave)] = set()
        if dest in decided:
            return
        decided.add(dest)
        bad = config[11]
        if bad and (len(bad) > 1 or dest not in bad):
            return  # another square the move changed breaks a rule
        if not exited:
            here = self.base.get(dest)
            if moved is not None:
                ids = [t.id for t in here if t.id != moved] if here else []
                if end == dest:
                    ids.append(moved)
            else:
                ids = [t.id for t in here if t.id not in final] if here else []
                for tid, sq in final.items():
                    if sq == dest:
                        ids.append(tid)
            # the mover alone off a pit breaks no rule (`_square_ok`'s own shortcut, without the call: the ends on a
            # configuration's special squares are mostly its start or where it took what it holds from)
            if (ids or dest in self.pits) and not self._square_ok(dest, (*ids, self.mover.id)):
                return
        keys.append((dest, take, leave))
        routes.append(path)

    def _plain_search(self) -> tuple[list[OutcomeKey], list[tuple[Square, ...]]]:
        """`_search` for a figure that carries nothing and has nothing it could pick up within reach: a search
        over squares alone (the outcome of ending on a square is that square). Two lists, as `_walk`'s."""
        keys: list[OutcomeKey] = []
        routes: list[tuple[Square, ...]] = []
        add_key, add_route = keys.append, routes.append
        exited: set[Square] = set()  # the exit squares listed (not walk states: they may be reached again)
        self._refused = set()
        start = self.start
        links, exits, base, pits, hazards = self.links, self.exits, self.base, self.pits, self.hazards
        if start in base:  # something lies under it (a no-carrier's): its square must be fine without the mover
            rest_ok, dest_ok = (self._configs.get((None, ())) or self._config(None, ()))[3:5]
            if not rest_ok:
                return keys, routes  # the start square is not fine without the mover: every outcome is refused
        else:  # it stood there alone: its square is fine without it (`_config`'s special squares)
            dest_ok = self._dest_ok.get(None)
            if dest_ok is None:
                dest_ok = self._dest_ok[None] = {}
        may_enter, dest_check, plain = self.may_enter, self._dest_check, _PLAIN
        rockfall = self.rockfall if not self.winged else _NONE
        base_shields = {sq for sq in rockfall if self._shield_on(sq, None, ())}
        careful, blocked = self.careful, self.blocked
        frontier = [(start, ())]
        seen = {start}
        for depth in range(self.steps):
            last = depth + 1 == self.steps
            following: list = []
            for pos, path in frontier:
                for there in links[pos]:
                    if there in seen:
                        continue  # (never an exit square, and `may_enter` changes nothing: asked first)
                    if there not in careful:  # an empty square of no kind that needs a look: the short way
                        seen.add(there)
                        route = path + (there,)
                        if not last:
                            following.append((there, route))
                        add_key(plain.get(there) or _plain(there))
                        add_route(route)
                        continue
                    if there in hazards and (there in blocked or not may_enter(pos, there, None, ())):
                        continue
                    if there in exits:
                        if there != start and there not in exited:
                            exited.add(there)
                            add_key(plain.get(there) or _plain(there))
                            add_route(path + (there,))
                        continue
                    seen.add(there)
                    route = path + (there,)
                    if not last and not (there in rockfall and there not in base_shields):
                        following.append((there, route))
                    if there in base or there in pits:
                        ok = dest_ok.get(there)
                        if ok is None:
                            ok = dest_check(there, None)
                        if not ok:
                            continue
                    add_key(plain.get(there) or _plain(there))
                    add_route(route)
            frontier = following
        return keys, routes

    def _config(self, hold, reloc: Reloc) -> tuple:
        """What `_record` finds for the walk state (dest, hold, reloc), for every dest outside the returned squares.

        `special`: the squares the move changed apart from where it ends (its start, where it left tokens, where
        the tokens it moved came from). Ending on any other square, it takes `take` (what it holds, unless it
        started with it) and leaves `leave` (its drops, and what it carried from the start and put back there),
        and the move is valid if `rest_ok` (every special square is fine as the move leaves it) and the end
        square is fine with the mover and what it holds added (`_dest_check`, memoised in the dict returned, one
        per `hold`). Then the squares `_search` has reached in this configuration, the end squares of the outcomes
        (dest, take, leave) it has decided, `hold`, `reloc`, the squares of `reloc`, whether ending on an empty
        floor square is fine with what the mover holds, and the special squares that are not fine (`rest_ok` is
        that there are none). Kept in `_configs`, with the memos the configurations share: end-square checks per
        held token, outcomes decided per (take, leave), an empty end square per held token.

        A search makes tens of these (one per place it may leave something), so this is written for speed: the
        common shapes (`reloc` empty or of one token) without the general case's comprehensions, a square with
        nothing lying on it and nothing left there skipped, one token alone off a pit taken as fine without a
        call (`_square_ok`'s own shortcut).
        """
        tokens, start, original, base, pits = self.tokens, self.start, self.original, self.base, self.pits
        if hold is None and len(reloc) == 1:
            ((one, put),) = reloc
            if put not in base and put not in pits and put != start:
                # The commonest shape by far (one token put down on an empty floor square, the mover empty-handed:
                # one per square it may leave something on): the squares the token left (its own and the start)
                # are checked once per token (`_drop_rest`), the one it lies on alone off a pit needs no check.
                rest = self._drop_rest.get(one)
                if rest is None:
                    rest = self._drop_rest[one] = self._rest_without(one)
                origin, bad = rest
                leave = reloc if original is None or original == one else tuple(sorted(reloc + ((original, start),)))
                decided = self._decided.setdefault((None, leave), set())  # (mostly a new one)
                dest_ok = self._dest_ok.get(None)
                if dest_ok is None:
                    dest_ok = self._dest_ok[None] = {}
                config = self._configs[(None, reloc)] = ({start, put, origin}, None, leave, not bad, dest_ok, set(),
                                                         decided, None, reloc, {put}, True, bad)
                return config
        if not reloc:
            placed = _NONE
            if hold is None:
                special, moved, from_reloc = {start}, (), False
            else:
                special, moved, from_reloc = {start, tokens[hold].square}, (hold,), False
        elif len(reloc) == 1:
            ((one, put),) = reloc
            placed = {put}
            special = {start, put, tokens[one].square}
            from_reloc = one == original
            if hold is None:
                moved = (one,)
            else:
                moved = (one, hold)
                special.add(tokens[hold].square)
        else:
            placed = {square for _, square in reloc}
            moved = tuple([tid for tid, _ in reloc])
            from_reloc = original in moved
            special = placed.union([tokens[tid].square for tid in moved])
            special.add(start)
            if hold is not None:
                moved += (hold,)
                special.add(tokens[hold].square)
        bad = _NONE  # the special squares that break a rule as the move leaves them (the mover ending elsewhere)
        for square in special:
            here = base.get(square)
            if square not in placed:
                if here is None or (len(here) < 2 and square not in pits):
                    continue  # nothing left there, and at most one token lay there off a pit: nothing to check
                ids = tuple([t.id for t in here if t.id not in moved])
            elif here is None:
                if len(reloc) == 1 and square not in pits:
                    continue  # only the one token it left there, off a pit
                ids = tuple([tid for tid, sq in reloc if sq == square])
            else:
                ids = tuple([t.id for t in here if t.id not in moved] + [tid for tid, sq in reloc if sq == square])
            if (len(ids) >= 2 or square in pits) and not self._square_ok(square, ids):
                if not bad:
                    bad = set()
                bad.add(square)
        take = hold if hold is not None and hold != original else None
        # `reloc` is sorted already; what it carried from the start and put back there is left there too
        if original is None or original == hold or from_reloc:
            leave = reloc
        else:
            leave = tuple(sorted(reloc + ((original, start),))) if reloc else ((original, start),)
        dest_ok = self._dest_ok.get(hold)
        if dest_ok is None:
            dest_ok = self._dest_ok[hold] = {}
        decided = self._decided.setdefault((take, leave), set())  # (mostly a new one)
        alone_ok = self._alone.get(hold)
        if alone_ok is None:
            brought = [self.mover] if hold is None else [tokens[hold], self.mover]
            alone_ok = self._alone[hold] = square_ok(start, brought, _NONE, self.cat)
        config = self._configs[(hold, reloc)] = (special, take, leave, not bad, dest_ok, set(), decided, hold, reloc,
                                                 placed, alone_ok, bad)
        return config

    def _rest_without(self, one: str) -> tuple[Square, set | frozenset]:
        """For `_config`'s shape of one token `one` put down on an empty floor square: where `one` started, and
        which of that square and the start (the other special squares) break a rule without it, as `_config`'s
        loop finds them."""
        base, pits = self.base, self.pits
        origin = self.tokens[one].square
        bad = _NONE
        for square in {self.start, origin}:
            here = base.get(square)
            if here is None or (len(here) < 2 and square not in pits):
                continue
            ids = tuple([t.id for t in here if t.id != one])
            if (len(ids) >= 2 or square in pits) and not self._square_ok(square, ids):
                if not bad:
                    bad = set()
                bad.add(square)
        return origin, bad

    def _dest_check(self, dest: Square, hold) -> bool:
        """The end square outside a config's special squares: what lay there, what the mover holds, the mover.
        Never fine where another figure stands (BG-MOVE-08/09, and so on a pit): no golden-rule check is made."""
        if dest in self.occ.figures[self.colour] or dest in self.enemies:
            self._dest_ok[hold][dest] = False
            return False
        if dest not in self.base and dest not in self.pits:  # an empty floor square: only what the mover brings
            ok = self._alone.get(hold)
            if ok is None:
                brought = [self.mover] if hold is None else [self.tokens[hold], self.mover]
                ok = self._alone[hold] = square_ok(dest, brought, self.pits, self.cat)
            self._dest_ok[hold][dest] = ok
            return ok
        # (not through `_square_ok`'s memo of the state, `Occupancy.checked`: the mover is among the tokens, so only
        # a search of the same figure in the same state would find the check there, and `_dest_ok` keeps it for
        # this one's)
        tokens = list(self.base.get(dest, ()))
        if hold is not None:
            tokens.append(self.tokens[hold])
        tokens.append(self.mover)
        ok = self._dest_ok[hold][dest] = self._tokens_ok(dest, tokens)
        return ok

    def _operations(self, pos: Square, hold, reloc: Reloc):
        """(hold, reloc) after what the mover may do on `pos` before stepping on: nothing, leave, take, swap."""
        yield hold, reloc
        items = self.pickable(pos, hold, reloc) if (pos in self.base or reloc) else ()
        if hold is None:
            for item in items:
                yield item, self._without(reloc, item)
            return
        if not self.may_leave(pos, hold):
            return
        yield None, self._put(reloc, hold, pos)
        for item in items:
            yield item, self._put(self._without(reloc, item), hold, pos)

    @staticmethod
    def _without(reloc: Reloc, item: str) -> Reloc:
        return tuple(p for p in reloc if p[0] != item) if reloc else reloc

    def _put(self, reloc: Reloc, token_id: str, square: Square) -> Reloc:
        if self.tokens[token_id].square == square:
            return reloc  # back where it started: the board is as if it never moved
        return tuple(sorted(reloc + ((token_id, square),))) if reloc else ((token_id, square),)

    def _outcome(self, dest: Square, hold, reloc: Reloc) -> tuple[dict[str, Square], str | None, Reloc]:
        """Where the tokens the move touched end (`final`: `reloc`, and what it holds on `dest`), and the outcome's
        take (what ends on `dest` with the mover) and leave (what else ends away from its start, sorted)."""
        original, tokens = self.original, self.tokens
        final = dict(reloc)
        if hold is not None:
            final[hold] = dest
        take, left = None, []
        for tid, sq in final.items():  # each token away from its start: taken if it ends on `dest`, else left
            if tid != original and sq != tokens[tid].square:
                if sq != dest:
                    left.append((tid, sq))
                elif take is None:
                    take = tid
        if original is not None:  # what it carried from the start is left wherever it ends but on `dest`
            end = final.get(original, self.start)
            if end != dest:
                left.append((original, end))
        left.sort()
        return final, take, tuple(left)

    def _record(self, found, dest, hold, reloc: Reloc, path, exited: bool) -> None:
        if not reloc and hold == self.original:  # the common case: nothing picked up or left
            if dest == self.start:
                return
            key = (dest, None, ())
            if key in found or key in self._refused:
                return
            if not self._plain_end_ok(dest, exited):
                self._refused.add(key)
                return
            found[key] = path
            return
        else:
            final, take, leave = self._outcome(dest, hold, reloc)
            if dest == self.start and take is None and not leave:
                return  # nothing would change: not a move (RUL-032 as amended in docs/rulings.md)
            key = (dest, take, leave)
            if key in found or key in self._refused:
                return  # breadth first: the route known already is no longer than this one
        if not self.ends_validly(dest, hold, final, exited):
            self._refused.add(key)
            return
        found[key] = path

    def ends_validly(self, dest, hold, final: dict[str, Square], exited: bool) -> bool:
        """The golden rules hold on every square the move touched (BG-MOVE-12, BG-GOLD-02/03).

        `final`: where the tokens the move touched end (what it holds ends on `dest`).
        """
        tokens, base = self.tokens, self.base
        squares = {self.start, dest}
        for tid, square in final.items():
            squares.add(square)
            squares.add(tokens[tid].square)
        for square in squares:
            ids = [t.id for t in base.get(square, ()) if t.id not in final]
            ids += [tid for tid, sq in final.items() if sq == square]
            if square == dest:
                if exited:
                    continue
                ids.append(self.mover.id)
            if not self._square_ok(square, tuple(ids)):
                return False
        return True

    def _plain_end_ok(self, dest: Square, exited: bool) -> bool:
        """`ends_validly` for a move that takes and leaves nothing: only the start and end squares change."""
        if self._start_left_ok is None:
            left = tuple(t.id for t in self.base.get(self.start, ()) if t.id != self.original)
            self._start_left_ok = self._square_ok(self.start, left)
        if not self._start_left_ok or exited:
            return self._start_left_ok
        ids = tuple(t.id for t in self.base.get(dest, ()))
        if self.original is not None:
            ids += (self.original,)
        return self._square_ok(dest, ids + (self.mover.id,))

    def _square_ok(self, square: Square, ids: tuple[str, ...]) -> bool:
        """The golden rules hold on `square` holding the tokens `ids` at the end of the move (memoised per state)."""
        if len(ids) < 2 and square not in self.pits:
            return True  # one token alone off a pit breaks no rule
        key = (square, ids)
        ok = self.occ.checked.get(key)
        if ok is None:
            ok = self.occ.checked[key] = self._tokens_ok(square, [self.tokens[tid] for tid in ids])
        return ok

    def _tokens_ok(self, square: Square, tokens: list[Token]) -> bool:
        """`_square_ok` for the tokens themselves, not memoised."""
        if square in self.pits and not any(self.is_rope(t.id) for t in tokens):
            fallen = [t for t in tokens if t.is_character and t.wounded]
            if any(t.is_figure and t.colour == w.colour for t in tokens for w in fallen):
                return False  # BG-PIT-05: a friend carried onto a pit would be dropped there (a Thief stops on a
                # pit, what she carries does not)
            tokens = [t for t in tokens if t not in fallen]  # it falls (BG-PIT-09)
        return square_ok(square, tokens, self.pits, self.cat)


STRONG = 2  # PD-CHAR-PALADIN-01: what a character with the ability "strength" carries at most


class PairWalker(Walker):
    """The walker of a character who carries up to two things (the Paladin's Strength, PD-CHAR-PALADIN-01..03): the
    same rules, over walk states (square, what it holds: a sorted tuple of up to two ids, reloc), with one general
    breadth-first search instead of `Walker`'s fast paths. An outcome's take names every token it brings to its
    destination that it did not carry from its start, joined by "+" (`takes`); `originals` what it carried there."""

    __slots__ = ()

    def __post_init__(self):
        super().__post_init__()
        here = [t for t in self.base.get(self.start, ()) if not (t.is_character and not t.wounded)]
        self.originals: tuple[str, ...] = tuple(sorted(t.id for t in here)) if not self.no_carry else ()
        self.original = self.originals[0] if self.originals else None

    def _listed(self) -> tuple[list[OutcomeKey], list[tuple[Square, ...]]]:
        found = self._outcomes()  # one general search (no fast paths of `Walker`)
        return list(found), list(found.values())

    def _rope_in(self, hold: tuple) -> str | None:
        return next((tid for tid in hold if self.is_rope(tid)), hold[0] if hold else None)

    def _contents(self, square: Square, hold: tuple, reloc: Reloc) -> list[Token]:
        moved = dict(reloc)
        out = [t for t in self.base.get(square, ()) if t.id not in hold and t.id not in moved]
        return out + [self.tokens[tid] for tid, sq in reloc if sq == square and tid not in hold]

    def _pickable(self, square: Square, hold: tuple, reloc: Reloc) -> list[str]:
        if square in self.enemies or self.no_carry:
            return []
        return self._takeable(square, self._contents(square, hold, reloc))

    def _ops(self, pos: Square, hold: tuple, reloc: Reloc):
        """(hold, reloc) after what the mover may do on `pos`: keep, put down some of what it holds, pick up, swap."""
        items = self._pickable(pos, hold, reloc) if (pos in self.base or reloc) else []
        seen = set()
        for keep_mask in range(1 << len(hold)):
            kept = tuple(h for i, h in enumerate(hold) if keep_mask >> i & 1)
            dropped = [h for h in hold if h not in kept]
            if any(not self.may_leave(pos, h) for h in dropped):
                continue
            base_reloc = reloc
            for h in dropped:
                base_reloc = self._put(base_reloc, h, pos)
            room = STRONG - len(kept)
            choices = [()] + [(i,) for i in items] + ([(a, b) for n, a in enumerate(items) for b in items[n + 1:]]
                                                      if room >= 2 else [])
            for picked in choices:
                if len(picked) > room:
                    continue
                new_hold = tuple(sorted(kept + picked))
                new_reloc = base_reloc
                for p in picked:
                    new_reloc = self._without(new_reloc, p)
                if (new_hold, new_reloc) not in seen:
                    seen.add((new_hold, new_reloc))
                    yield new_hold, new_reloc

    def trapped(self, there: Square, hold, reloc: Reloc) -> bool:
        if isinstance(hold, tuple):
            if self.winged or any(self._is_shield(h) for h in hold):
                return False
            return not any(self._is_shield(t.id) for t in self._contents(there, hold, reloc))
        return super().trapped(there, hold, reloc)

    def _outcomes(self, route: tuple[Square, ...] | None = None,
                  want: OutcomeKey | None = None) -> dict[OutcomeKey, tuple[Square, ...]]:
        found: dict[OutcomeKey, tuple[Square, ...]] = {}
        self._refused = set()
        if route is not None and len(route) > self.steps:
            return found
        limit = self.steps if route is None else len(route)
        links, zone_owner = self.links, self.board.zone_owner
        frontier = [(self.start, self.originals, (), ())]
        seen = {(self.start, self.originals, ())}
        for depth in range(limit):
            if route is not None:
                seen = set()
            last = depth + 1 == limit
            following: list = []
            for pos, hold, reloc, path in frontier:
                for hold2, reloc2 in self._ops(pos, hold, reloc):
                    for there in links[pos]:
                        if route is not None and there != route[depth]:
                            continue
                        if not self.may_enter(pos, there, self._rope_in(hold2), reloc2):
                            continue
                        exited = zone_owner.get(there) == self.exit_owner and self.can_exit
                        if not exited and not self._visit(seen, following, there, hold2, reloc2, path, last):
                            continue
                        if route is None or last:
                            self._record_pair(found, there, hold2, reloc2, path + (there,), exited)
                            if want is not None and want in found:
                                return found
            frontier = following
        return found

    def _record_pair(self, found, dest: Square, hold: tuple, reloc: Reloc, path, exited: bool) -> None:
        start, tokens = self.start, self.tokens
        final = dict(reloc)
        for h in hold:
            final[h] = dest
        changed = {tid: sq for tid, sq in final.items() if sq != tokens[tid].square}
        for o in self.originals:
            if final.get(o, start) != dest:
                changed[o] = final.get(o, start)
        take = "+".join(sorted(tid for tid, sq in changed.items() if sq == dest and tid not in self.originals)) or None
        leave = tuple(sorted((tid, sq) for tid, sq in changed.items() if sq != dest))
        if dest == start and take is None and not leave:
            return
        key = (dest, take, leave)
        if key in found or key in self._refused:
            return
        if not self.ends_validly(dest, None, final, exited):
            self._refused.add(key)
            return
        found[key] = path


def takes(take: str | None) -> tuple[str, ...]:
    """The tokens a move's `take` names: one id, or two joined by "+" (a strong carrier's, `PairWalker`)."""
    return tuple(take.split("+")) if take else ()


def walker_for(state: GameState, board: Board, figure: Token) -> Walker:
    """The walker of the figure's moves: `PairWalker` for a character who carries two things (ability
    "strength"), else `Walker`."""
    kind = state.options.catalogue.characters[figure.code]
    return PairWalker(state, board, figure) if "strength" in kind.abilities else Walker(state, board, figure)
