"""Board geometry derived from the rooms' places, orientations and portcullis states (cached per layout).

Only revealed rooms contribute squares and edge features: nothing of a face-down room is ever consulted,
so legality never leaks a hidden layout (BG-GEO-11, RUL-025).
"""

from __future__ import annotations

from collections import deque
from functools import cached_property, lru_cache
from types import MappingProxyType
from weakref import WeakValueDictionary

from .catalogue import SetCatalogue, load
from .geometry import (DIRECTIONS, ROOM, Square, edge, interned, local_to_offset, offset_to_local, rotate_side,
                       square_of_name)

WALL = "wall"
CLOSED, OPEN, BROKEN = "c", "o", "b"
_NONE: frozenset = frozenset()
_SIDE_DELTA = {"N": (0, 1), "E": (1, 0), "S": (0, -1), "W": (-1, 0)}
_STEPS = tuple(DIRECTIONS.values())  # `neighbours`' order


class Board:
    """Squares, pits, gears and edge features of one layout.

    `open_ground`: squares a token can be on; `links`: square -> its connected neighbours (no wall or closed
    portcullis between, BG-GEO-07), the move search's adjacency; `zone_owner`: start-zone square -> "B" or "Y".
    """

    def __init__(self, catalogue: SetCatalogue, rows: int, rooms: tuple, portcullis: tuple, marks: tuple = (),
                 near: Board | None = None):
        """`near`: a board of a layout close to this one (the state's before a room turned), whose links are
        taken over for the squares no changed room touches; what a board holds does not depend on it."""
        self.catalogue = catalogue
        self.rows = rows
        self.height = ROOM * rows
        self.room_of_slot = {place.slot: place for place in rooms}
        self.pits: set[Square] = set()
        self.gears: dict[tuple[int, int], Square] = {}
        # edge -> 1 (wall) or 2 (double wall) while the board is made (its links read it), then None: `walls`
        self._walls: dict[tuple[Square, Square], int] | None = {}
        self.portcullises: dict[tuple[Square, Square], tuple[str, int, str]] = {}  # edge -> (tile, index, state)
        self.slits: set[tuple[Square, Square]] = set()  # arrow slits (PR-SLIT-01): edges, from the rooms' data
        # square terrain of revealed rooms (catalogue.TERRAIN_KINDS: fog, Rockfall...), only the kinds present
        self.terrain: dict[str, set[Square]] = {}
        # the wall segments a Golem broke (PD-CHAR-GOLEM), as (tile, index) (`segments`)
        self.broken: frozenset[tuple[str, int]] = frozenset(
            (name.split(":")[1], int(name.split(":")[2])) for name, _ in marks if name.startswith("wall:"))
        # the Illusionists' markers (PD-CHAR-ILLUS): square -> (colour, "pit" or "rubble"); an illusion pit is a pit
        # (for all but its maker: `movement.Walker`), illusion rubble blocks moves (`rubble`) and sight
        self.illusions: dict[Square, tuple[str, str]] = {}
        for name, value in marks:
            if name.startswith("illusion:"):
                self.illusions[square_of_name(value)] = (name.split(":")[1], name.split(":")[2])
        self.rubble: frozenset[Square] = frozenset(sq for sq, (_, kind) in self.illusions.items() if kind == "rubble")
        self._marks = marks
        self._states = states = dict(portcullis)
        for place in rooms:
            if place.revealed:
                self._add_room(place, states.get(place.tile, ""))
        # every terrain square (none is floor: no revealed token is placed there, PD-TERR-PENTACLE-01,
        # PD-TERR-FOG-04) and those a line of sight does not enter (fog, PD-TERR-FOG-02; 3D obstacles and the
        # fountain, PD-GLOS-03, PD-TERR-FOUNTAIN-01)
        self.special: frozenset[Square] = frozenset().union(*self.terrain.values())
        self.opaque: frozenset[Square] = frozenset().union(
            *(self.terrain.get(kind, ()) for kind in ("fog", "obstacles", "fountains")), self.rubble)
        self.pits.update(sq for sq, (_, kind) in self.illusions.items() if kind == "pit")
        self.open_ground: frozenset[Square] = _open_ground(self.height, frozenset(
            place.slot for place in rooms if place.revealed))
        kept = self._unchanged_links(near)
        self.links: dict[Square, tuple[Square, ...]]
        if near is not None and kept is near.links:
            self.links = kept  # no revealed room changed (a face-down one turned): the same links, shared
        elif kept:
            links_from = self._links_from
            self.links = {sq: kept[sq] if sq in kept else links_from(sq) for sq in self.open_ground}
        else:
            self.links = {sq: self._links_from(sq) for sq in self.open_ground}
        # PR-CHAR-NAGA-01: a contortionist also passes arrow slits; the same links plus the slits' other sides
        self.slit_links: dict[Square, tuple[Square, ...]] = self.links
        if self.slits:
            across: dict[Square, list[Square]] = {}
            for a, b in self.slits:
                if a in self.open_ground and b in self.open_ground:
                    across.setdefault(a, []).append(b)
                    across.setdefault(b, []).append(a)
            self.slit_links = {sq: tuple(sorted(others + tuple(across.get(sq, ())))) if sq in across else others
                               for sq, others in self.links.items()}
        self._walls = None  # the links have them; `walls` and `is_wall` find them again (a game in play: ~3 KB)
        self.zone_owner, self.zone_squares = _zones(self.height)
        for name in ("slits", "broken", "rubble", "special", "opaque"):  # most boards have none of these
            if not getattr(self, name):
                setattr(self, name, _NONE)  # one object, not 216 bytes each for every board
        # Memos keyed by square within a dict per radius and kind of links (per character code), not by a tuple of
        # them: the squares are the process's shared tuples, whereas a key tuple each took a board ~9 KB at ~175
        # actions (92 reach memos, 57 regions).
        self._reach: dict[tuple[int, str], dict[Square, tuple[Square, ...]]] = {}
        self.regions: dict[str, dict[Square, tuple[Square, ...]]] = {}  # character code -> square -> `moves._region`

    @cached_property
    def segments(self) -> dict[tuple[Square, Square], list[tuple[str, int]]]:
        """The wall segments of each edge of the revealed rooms, as (tile, index): internal walls, then outer walls,
        then arrow slits, in each tile's order, broken or not (the Golem's, PD-CHAR-GOLEM). Made when first asked
        for: only a Golem's game asks."""
        out: dict[tuple[Square, Square], list[tuple[str, int]]] = {}
        for place in self.room_of_slot.values():
            if place.revealed:
                tile = self.catalogue.rooms[place.tile]
                for e, segment, _ in _segments(place, tile, _to_global(place)):
                    out.setdefault(e, []).append(segment)
        return out

    @cached_property
    def wall_links(self) -> dict[Square, tuple[Square, ...]]:
        """Every neighbour on open ground, walls, portcullises and slits or not: the Ghost's steps (PD-CHAR-GHOST-01,
        RUL-078)."""
        return {sq: tuple(other for _, other in self.neighbours(sq) if other in self.open_ground)
                for sq in self.open_ground}

    def links_of(self, passes: str) -> dict[Square, tuple[Square, ...]]:
        """The adjacency a walker uses: "" plain (`links`), "slits" for a contortionist (`slit_links`), "walls"
        for the incorporeal (`wall_links`)."""
        return self.links if not passes else self.slit_links if passes == "slits" else self.wall_links

    def reach(self, square: Square, radius: int, passes: str = "", across: bool = True) -> tuple[Square, ...]:
        """The squares within `radius` steps of `square` by the walker's adjacency (`links_of(passes)`, whatever
        stands on them), and the squares next to it across a wall: every square a move, wall-walk or jump from
        `square` may look at. Without `across`, the squares the steps reach alone, not memoised here (`moves._region`
        keeps them): what a figure that does not wall-walk may look at.

        In a fixed order, the walk's (`square`, then the squares one step away in the order of the links, and so
        on, then those across a wall not reached): the order of a figure's memo key (`moves._key`), which only
        keys made from the same region are compared with, so any fixed order does (sorted, a third of the time a
        region took to make). Memoised per board (at most one entry per square, radius and kind of links). The walk
        to `radius` passes through `radius - 1`, whose squares are memoised on the way if they are not yet: a
        figure's memo key asks for its move value (`moves._region`), its move search for one less
        (`movement.Walker._outcomes`), each time a figure stands somewhere new (a new layout's board knows none).
        """
        memo = None
        if across:
            memo = self._reach.get((radius, passes))
            if memo is None:
                memo = self._reach[radius, passes] = {}
            found = memo.get(square)
            if found is not None:
                return found
        links = self.links_of(passes)
        beside = _beside(square, self.height)
        seen = {square}
        order = [square]
        frontier = [square]
        for depth in range(radius):
            if depth + 1 == radius:
                inner = self._reach.get((depth, passes))
                if inner is None:
                    inner = self._reach[depth, passes] = {}
                if square not in inner:
                    inner[square] = tuple(order + [there for there in beside if there not in seen])
            frontier = [there for here in frontier for there in links.get(here, ()) if
                        there not in seen and not seen.add(there)]
            order += frontier
        if memo is None:
            return tuple(order)
        found = memo[square] = tuple(order + [there for there in beside if there not in seen])
        return found

    def reach_count(self) -> int:
        """How many reach memos the board keeps (`reach`'s and `moves._region`'s)."""
        return sum(map(len, self._reach.values())) + sum(map(len, self.regions.values()))

    def keep_reach(self, reach: dict, regions: dict) -> None:
        """Keep only the reach memos a game's next position may ask for again: `reach`, (radius, passes) -> the
        squares to keep of `reach`'s memo; `regions`, character code -> the squares to keep of `moves._region`'s
        (those its figures stand on). A game that waits keeps a dozen so, not the ~90 of every square its figures
        stood on (~14 KB of a board at 175 actions); each memo is made anew, small (a dict keeps the table it
        grew to). What a memo gives does not depend on whether it was kept."""
        for memos, keep in ((self._reach, reach), (self.regions, regions)):
            for name, memo in list(memos.items()):
                wanted = keep.get(name, ())
                if len(memo) <= len(wanted) and all(square in wanted for square in memo):
                    continue
                kept = {square: memo[square] for square in wanted if square in memo}
                if kept:
                    memos[name] = kept
                else:
                    del memos[name]

    def _add_room(self, place, states: str) -> None:
        """The pits, terrain, gear, walls, arrow slits and portcullises of a revealed room (`_room_part`)."""
        pits, terrain, gear, wall_edges, slits, portcullises = _room_part(self.catalogue, place, states, self.broken)
        self.pits.update(pits)
        for kind, squares in terrain:
            self.terrain.setdefault(kind, set()).update(squares)
        self.gears[place.slot] = gear
        walls = self._walls
        for e in wall_edges:
            walls[e] = walls.get(e, 0) + 1
        if slits:
            self.slits.update(slits)
        self.portcullises.update(portcullises)

    def _unchanged_links(self, near: Board | None) -> dict[Square, tuple[Square, ...]] | None:
        """`near`'s links of the squares whose links this board shares with it, or None (nothing to take over).

        A square's links depend on the walls, slits and portcullises of its four edges and on which of its
        neighbours are open ground, all of them from the rooms of its own slot and of the slots beside it (a wall
        on a room's border is that room's outer wall). So a square keeps its links when neither its own slot nor
        the slots next to it hold another room, orientation, revealed state or portcullis state than on `near`,
        and the same marks (the broken walls) apply."""
        if (near is None or near.catalogue is not self.catalogue or near.rows != self.rows
                or near._marks != self._marks):
            return None
        changed = set()
        states, near_states, near_rooms = self._states, near._states, near.room_of_slot
        for slot, place in self.room_of_slot.items():
            old = near_rooms.get(slot)
            if not place.revealed and (old is None or not old.revealed):
                continue  # face down on both: nothing of it is on either board (BG-GEO-11)
            if old != place or states.get(place.tile, "") != near_states.get(place.tile, ""):
                changed.add(slot)
        if not changed:
            return near.links if near.open_ground is self.open_ground else None
        if len(changed) > 2:
            return None
        touched = set()
        height = self.height
        for slot in changed:
            for square in _slot_squares(slot):
                touched.add(square)
                touched.update(_beside(square, height))
        links = near.links
        return {sq: found for sq, found in links.items() if sq not in touched}

    # --- squares ---------------------------------------------------------------------------------
    def terrain_of(self, kind: str) -> set[Square] | frozenset[Square]:
        """The squares of a terrain kind (catalogue.TERRAIN_KINDS) in the revealed rooms; empty if none."""
        return self.terrain.get(kind, _NONE)

    def slot_of(self, square: Square) -> tuple[int, int] | None:
        x, y = square
        if 0 <= x < 2 * ROOM and 0 <= y < self.height:
            return x // ROOM, y // ROOM
        return None

    def exists(self, square: Square) -> bool:
        x, y = square
        return 0 <= x < 2 * ROOM and -1 <= y <= self.height

    def is_start_zone(self, square: Square) -> bool:
        return 0 <= square[0] < 2 * ROOM and square[1] in (-1, self.height)

    def start_zone_owner(self, square: Square) -> str | None:
        return self.zone_owner.get(square)

    def is_open_ground(self, square: Square) -> bool:
        """A square a token can be on: a start-zone square or a square of a revealed room."""
        return square in self.open_ground

    def is_gear(self, square: Square) -> bool:
        slot = self.slot_of(square)
        return slot is not None and self.gears.get(slot) == square

    def local_of(self, square: Square) -> tuple[int, int]:
        slot = self.slot_of(square)
        place = self.room_of_slot[slot]
        return offset_to_local((square[0] - slot[0] * ROOM, square[1] - slot[1] * ROOM), place.orientation)

    def room_squares(self, slot: tuple[int, int]) -> list[Square]:
        return _slot_squares(slot)

    # --- edges -----------------------------------------------------------------------------------
    def neighbours(self, square: Square) -> list[tuple[str, Square]]:
        out = []
        for name, (dx, dy) in DIRECTIONS.items():
            other = (square[0] + dx, square[1] + dy)
            if self.exists(other):
                out.append((name, other))
        return out

    def portcullis_state(self, a: Square, b: Square) -> str | None:
        feature = self.portcullises.get(edge(a, b))
        return feature[2] if feature else None

    @property
    def walls(self) -> dict[tuple[Square, Square], int]:
        """Edge -> 1 (a wall) or 2 (a double wall: two rooms' outer walls) of the revealed rooms, made anew from the
        rooms' parts (`_room_part`) when asked for: only a layout's view data asks (`views._layout`, once a board).
        A board does not keep them (its links say where they are: `is_wall`): they were ~3 KB of a game in play's
        ~100 (issue 7, row 5)."""
        walls: dict[tuple[Square, Square], int] = {}
        for part in self._room_parts():
            for e in part[3]:
                walls[e] = walls.get(e, 0) + 1
        return walls

    def _room_parts(self, slots=None):
        """The `_room_part` of each revealed room (of those on `slots`, if given), in the rooms' order."""
        states, catalogue, broken = self._states, self.catalogue, self.broken
        for slot, place in self.room_of_slot.items():
            if place.revealed and (slots is None or slot in slots):
                yield _room_part(catalogue, place, states.get(place.tile, ""), broken)

    def is_wall(self, a: Square, b: Square) -> bool:
        """Whether a wall lies between the neighbouring squares `a` and `b`. Between two squares of open ground,
        the links tell: linked, no wall; not linked, a wall unless the edge is an arrow slit or has a portcullis
        (`_links_from`). Otherwise (a square of a face-down room or off the board beside it, or a slit or
        portcullis there) the revealed rooms' parts on either side tell, as the walls the board was made from."""
        links = self.links.get(a)
        if links is not None and b in self.open_ground:
            if b in links:
                return False
            e = edge(a, b)
            if e not in self.slits and e not in self.portcullises:
                return True
        e = edge(a, b)
        return any(e in part[3] for part in self._room_parts((self.slot_of(a), self.slot_of(b))))

    def is_slit(self, a: Square, b: Square) -> bool:
        return edge(a, b) in self.slits

    def open_sides(self, square: Square) -> list[tuple[int, int]]:
        """The room slots of the squares next to `square` (`neighbours`' order) that neither a wall nor an arrow
        slit separates from it (a portcullis, open or closed, does not): `slot_of`, `is_wall` and `is_slit` of
        each, in one look (a figure's reveals ask it each time its memo entry is made)."""
        x, y = square
        links, slits, portcullises, height = self.links.get(square, ()), self.slits, self.portcullises, self.height
        out = []
        for dx, dy in _STEPS:
            ox, oy = x + dx, y + dy
            if 0 <= ox < 2 * ROOM and 0 <= oy < height:
                other = (ox, oy)
                if other not in links:  # (linked: open ground on both sides, nothing between)
                    side = (square, other) if square <= other else (other, square)  # `edge`
                    if side in slits or (side not in portcullises and self.is_wall(square, other)):
                        continue
                out.append((ox // ROOM, oy // ROOM))
        return out

    def connected(self, a: Square, b: Square) -> bool:
        """Adjacent, both open ground, and no wall or closed portcullis between (BG-GEO-07)."""
        links = self.links.get(a)  # at most 4 squares: a look through the tuple costs what a set's look-up does
        return links is not None and b in links

    def _links_from(self, a: Square) -> tuple[Square, ...]:
        """The neighbours `a` is linked to (`_link`), in `neighbours`' order: `_link` inlined, as a new layout (a
        room turned, a portcullis opened) builds them for every square. Every open-ground square exists, so the
        test of `neighbours` is the open-ground one."""
        open_ground, walls, slits, portcullises = self.open_ground, self._walls, self.slits, self.portcullises
        x, y = a
        out = []
        for dx, dy in _STEPS:
            b = (x + dx, y + dy)
            if b not in open_ground:
                continue
            e = (a, b) if a <= b else (b, a)  # `edge`
            if e in walls or e in slits:
                continue
            feature = portcullises.get(e)
            if feature is None or feature[2] != CLOSED:
                out.append(interned(b))
        return interned(tuple(out))

    def connected_neighbours(self, square: Square) -> tuple[Square, ...]:
        return self.links.get(square, ())

    def sight_line(self, square: Square, direction: str):
        """Squares along a line of sight until a wall, closed portcullis or face-down room (BG-LOS-01..04).

        An arrow slit lets the line through only where the viewer stands beside it, i.e. across the first edge
        (PR-SLIT-03, PR-LOS-04): sight through a slit can be one-way. A line never enters fog (a viewer in fog
        sees out of it), a 3D obstacle or a fountain (PD-TERR-FOG-02, PD-GLOS-03).
        """
        opaque = self.opaque
        dx, dy = DIRECTIONS[direction]
        current = square
        while True:
            nxt = (current[0] + dx, current[1] + dy)
            if not self.exists(nxt):
                return
            if not self.connected(current, nxt) and not (
                    current == square and nxt in self.open_ground and edge(current, nxt) in self.slits):
                return
            if nxt in opaque:
                return
            yield nxt  # across room borders and onto start zones (BG-LOS-04, RUL-039)
            current = nxt


@lru_cache(maxsize=4096)
def _beside(square: Square, height: int) -> tuple[Square, ...]:
    """The squares next to `square` on a board of `height` rows of squares, open ground or not (`Board.neighbours`:
    what `Board.reach` adds across walls), made once for the process (a board has about 230 squares)."""
    x, y = square
    return tuple(interned((x + dx, y + dy)) for dx, dy in _STEPS if 0 <= x + dx < 2 * ROOM and -1 <= y + dy <= height)


def _to_global(place):
    """The board square of a square of the room `place` in the room's own coordinates (its orientation applied)."""
    k, (x0, y0) = place.orientation, (place.slot[0] * ROOM, place.slot[1] * ROOM)

    def to_global(local):
        dx, dy = local_to_offset(local, k)
        return interned((x0 + dx, y0 + dy))
    return to_global


def _segments(place, tile, to_global):
    """(edge, (tile, index), whether it is an arrow slit) of each wall segment of a room: its index in the tile
    counts the internal walls, then the outer walls, then the arrow slits (`Board.segments`, PD-CHAR-GOLEM)."""
    index = 0
    for a, b in tile.walls:
        yield interned(edge(to_global(a), to_global(b))), (place.tile, index), False
        index += 1
    for local, side in tile.outer_walls:
        sq = to_global(local)
        dx, dy = _SIDE_DELTA[rotate_side(side, place.orientation)]
        yield interned(edge(sq, interned((sq[0] + dx, sq[1] + dy)))), (place.tile, index), False
        index += 1
    for a, b in tile.arrow_slits:
        yield interned(edge(to_global(a), to_global(b))), (place.tile, index), True
        index += 1


def _slot_squares(slot: tuple[int, int]) -> list[Square]:
    """The squares of the room on `slot`, row by row."""
    return [interned((slot[0] * ROOM + dx, slot[1] * ROOM + dy)) for dy in range(ROOM) for dx in range(ROOM)]


@lru_cache(maxsize=1024)
def _open_ground(height: int, revealed: frozenset) -> frozenset[Square]:
    """The squares a token can be on: the start zones and the squares of the revealed rooms' slots (whatever the
    rooms and their orientations), one frozenset per process for each height and set of revealed slots, shared by
    every board with them (a revealed board's is ~8 KB)."""
    squares = set(_zones(height)[0])
    for slot in sorted(revealed):  # in a fixed order: the set's iteration order is then the same whoever made it
        squares.update(_slot_squares(slot))
    return frozenset(squares)


@lru_cache(maxsize=16)
def _zones(height: int) -> tuple[MappingProxyType, MappingProxyType]:
    """(start-zone square -> "B" or "Y"; owner -> its squares), read-only, of a board `height` squares high: the
    same for every board of that height."""
    owner = {interned((x, y)): "B" if y == -1 else "Y" for x in range(2 * ROOM) for y in (-1, height)}
    squares = {side: frozenset(sq for sq, o in owner.items() if o == side) for side in ("B", "Y")}
    return MappingProxyType(owner), MappingProxyType(squares)


RECENT_BOARDS = 16
"""Boards kept by `_board` after nothing else uses them: the last ones made (a layout that comes back soon, a
room turned back, is not made again)."""
_LIVE: WeakValueDictionary = WeakValueDictionary()
"""Layout -> its board, for as long as anything holds it (a state, a game's memo, `_RECENT`)."""
_RECENT: deque = deque(maxlen=RECENT_BOARDS)


def _board(set_name: str, rows: int, rooms: tuple, portcullis: tuple, marks: tuple = (),
           near: Board | None = None) -> Board:
    key = (set_name, rows, rooms, portcullis, marks)
    board = _LIVE.get(key)
    if board is None:
        board = _LIVE[key] = Board(load(set_name), rows, rooms, portcullis, marks, near)
        _RECENT.append(board)
    return board


_PARTS: dict = {}
"""(catalogue id, room place, portcullis states, the tile's broken segments) -> (catalogue, `_room_part`)."""
PARTS_KEPT = 256
"""Room parts `_room_part` keeps (the oldest go first; ~0.9 KB each): a game turns its eight rooms through four
orientations, with their portcullises open or closed."""


def _room_part(catalogue: SetCatalogue, place, states: str, broken: frozenset) -> tuple:
    """What a revealed room adds to a board: (pits, terrain as (kind, squares) pairs, gear, the edges of its
    walls, its arrow slits, its portcullises as (edge, (tile, index, state)) pairs), in board squares. The same
    for every layout with that room so placed: made once for the process (a new layout is mostly one room
    turned), the catalogue's `rooms` being data that does not change once loaded."""
    mine = frozenset(segment for segment in broken if segment[0] == place.tile) if broken else _NONE
    key = (id(catalogue), place, states, mine)
    found = _PARTS.get(key)
    if found is not None and found[0] is catalogue:
        return found[1]
    tile = catalogue.rooms[place.tile]
    to_global = _to_global(place)
    pits = tuple([to_global(pit) for pit in tile.pits])
    terrain = tuple((kind, tuple([to_global(sq) for sq in squares])) for kind, squares in tile.terrain.items())
    walls, slits = [], []
    for e, segment, slit in _segments(place, tile, to_global):
        if segment in mine:
            continue  # a broken slit is a broken wall (RUL-079)
        (slits if slit else walls).append(e)
    portcullises = []
    for index, (a, b) in enumerate(tile.portcullises):
        state = states[index] if index < len(states) else CLOSED
        portcullises.append((interned(edge(to_global(a), to_global(b))), (place.tile, index, state)))
    part = (pits, terrain, to_global(tile.gear), tuple(walls), tuple(slits), tuple(portcullises))
    if len(_PARTS) >= PARTS_KEPT:
        del _PARTS[next(iter(_PARTS))]
    _PARTS[key] = (catalogue, part)
    return part


def _forget_boards() -> None:
    """Let go of the boards `_board` keeps (what still uses one keeps it; tests)."""
    _LIVE.clear()
    _RECENT.clear()


_board.cache_clear = _forget_boards  # (as the functools cache it replaced)


def board_of(state, near: Board | None = None) -> Board:
    """The board of the state's layout, shared by all states and games with that layout.

    A layout's board is found again while anything holds it (a state of any game, a game's memo) and for the
    RECENT_BOARDS boards made last; a fully revealed board takes ~20-30 KB (its squares, edges and links are the
    process's shared tuples, `geometry.interned`; its reach memos grow with use). A server with 300 games in play
    kept ~7 KB a game of boards no game used any more when the 256 most recently used were kept whatever held them
    (row 5 of issue 7: 132.5 KB a game against 125.6 KB with 16). A sealed state also keeps its own board.
    """
    board = getattr(state, "_board", None)
    if board is not None:
        return board
    marks = tuple(sorted(state.marks.items())) if state.marks else ()
    board = _board(state.options.set_name, state.rows, state.rooms, tuple(sorted(state.portcullis.items())), marks,
                   near)
    if getattr(state, "_sealed", False):
        object.__setattr__(state, "_board", board)  # a sealed state never changes: its board neither
    return board
