"""Zones and the maze (CG-ZONE): the zone grid derived from room slots, card orientations and portcullis states.

Global frame: zone (x, y), x = column 0..3 (a..d), y = row 0..2L-1 (1..2L in notation), row 0 at Blue's end.
Global sides: N towards Yellow (y+1), S towards Blue (y-1), E (x+1), W (x-1). A room slot (sx, sy) holds zones
x in {2sx, 2sx+1}, y in {2sy, 2sy+1}. A card turned `t` quarter turns clockwise shows its frame position
(cx, cy) (cy=0 top) at the zone computed by `zone_of`. Start positions are (seat, column) with column 0 or 1: the
player stands in front of the room of that column at his end (CG-START-01).
Only revealed rooms have zones: nothing enters, sees into or touches the layout of a face-down room.
"""

from __future__ import annotations

from functools import lru_cache

from .catalogue import DIRS, ICONS, load

WIDTH = 2  # rooms across; every tutorial and scenario lays 2 rooms across, so a start zone touches 2 rooms
GLOBAL = {"N": (0, 1), "E": (1, 0), "S": (0, -1), "W": (-1, 0)}
OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}


def turn_dir(d: str, quarter_turns: int) -> str:
    return DIRS[(DIRS.index(d) + quarter_turns) % 4]


def _rot(cx: int, cy: int, t: int) -> tuple[int, int]:
    for _ in range(t % 4):
        cx, cy = 1 - cy, cx
    return cx, cy


def _unrot(rx: int, ry: int, t: int) -> tuple[int, int]:
    for _ in range(t % 4):
        rx, ry = ry, 1 - rx
    return rx, ry


def slot_xy(slot: int) -> tuple[int, int]:
    return slot % WIDTH, slot // WIDTH


def slot_of(zone: tuple[int, int]) -> int:
    return (zone[1] // 2) * WIDTH + zone[0] // 2


def zone_of(slot: int, cx: int, cy: int, turns: int) -> tuple[int, int]:
    sx, sy = slot_xy(slot)
    rx, ry = _rot(cx, cy, turns)
    return 2 * sx + rx, 2 * sy + (1 - ry)


def card_pos(zone: tuple[int, int], turns: int) -> tuple[int, int]:
    return _unrot(zone[0] % 2, 1 - zone[1] % 2, turns)


@lru_cache(maxsize=64)
def slot_zones(slot: int) -> tuple[tuple[int, int], ...]:
    sx, sy = slot_xy(slot)
    return tuple((2 * sx + i, 2 * sy + j) for j in (0, 1) for i in (0, 1))


def is_start(loc) -> bool:
    return isinstance(loc[0], str)


def start_slot(seat: str, col: int, length: int) -> int:
    return (0 if seat == "B" else length - 1) * WIDTH + col


def start_row(seat: str, length: int) -> int:
    """The zone row that touches `seat`'s start zone."""
    return 0 if seat == "B" else 2 * length - 1


def rotate_zone(zone: tuple[int, int], clockwise: bool) -> tuple[int, int]:
    """Where a thing in `zone` lies after its room turns a quarter turn."""
    slot = slot_of(zone)
    cx, cy = card_pos(zone, 0)
    return zone_of(slot, cx, cy, 1 if clockwise else 3)


class Maze:
    """The geometry of one arrangement: rooms (card, turns, revealed) per slot, rows of rooms, opened portcullises
    (card, cx, cy, side in the card's frame)."""

    def __init__(self, rooms: tuple, length: int, opened: frozenset, broken: frozenset = frozenset(),
                 walls_broken: frozenset = frozenset()):
        self.rooms = rooms
        self.length = length
        self.opened = opened
        self.broken = broken
        self.walls_broken = walls_broken
        """Room cards whose walls a Golem broke: their walls, slits and portcullis print "broken" (CG-CHAR-GOLEM-01/02,
        RUL-114); a neighbour's print on a shared border stays."""
        self.height = 2 * length
        self.cat = load()
        self._features: dict = {}  # (zone, side) -> `features`

    def in_grid(self, zone) -> bool:
        return 0 <= zone[0] < 2 * WIDTH and 0 <= zone[1] < self.height

    def revealed(self, slot: int) -> bool:
        return self.rooms[slot].revealed

    def is_zone(self, zone) -> bool:
        """A zone of a revealed room."""
        return self.in_grid(zone) and self.rooms[slot_of(zone)].revealed

    def icon(self, zone) -> str:
        room = self.rooms[slot_of(zone)]
        return self.cat.rooms[room.card].icons[card_pos(zone, room.turns)]

    def zone_of_icon(self, slot: int, icon: str) -> tuple[int, int]:
        room = self.rooms[slot]
        cx, cy = self.cat.rooms[room.card].position(icon)
        return zone_of(slot, cx, cy, room.turns)

    def _printed(self, zone, side: str) -> list:
        """Features the room of `zone` prints on its global `side` ("open" for an opened portcullis)."""
        room = self.rooms[slot_of(zone)]
        cx, cy = card_pos(zone, room.turns)
        cside = turn_dir(side, -room.turns)
        f = self.cat.rooms[room.card].borders.get((cx, cy, cside))
        if f is None:
            return []
        if room.card in self.walls_broken and f in ("wall", "slit", "portcullis"):
            return ["broken"]
        if f == "portcullis" and self._portcullis_key(room.card, cx, cy, cside) in self.broken:
            return ["broken"]  # CG-CHAR-COLOSSUS-01, CG-CHAR-WARRIOR-01: never repaired
        if f == "portcullis" and self._portcullis_key(room.card, cx, cy, cside) in self.opened:
            return ["open"]
        return [f]

    def _portcullis_key(self, card: str, cx: int, cy: int, side: str) -> tuple:
        """An inside portcullis is one border stored twice; its key is the smaller of its two sides."""
        dx, dy = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}[side]
        ox, oy = cx + dx, cy + dy
        a = (card, cx, cy, side)
        if 0 <= ox < 2 and 0 <= oy < 2:
            return min(a, (card, ox, oy, OPPOSITE[side]))
        return a

    def portcullis_keys(self, zone, side: str) -> list:
        """The keys of the portcullises printed on that border (by either room)."""
        out = []
        for z, s in ((zone, side), (self.step(zone, side), OPPOSITE[side])):
            if z is None or not self.is_zone(z):
                continue
            room = self.rooms[slot_of(z)]
            cx, cy = card_pos(z, room.turns)
            cs = turn_dir(s, -room.turns)
            if self.cat.rooms[room.card].borders.get((cx, cy, cs)) == "portcullis":
                out.append(self._portcullis_key(room.card, cx, cy, cs))
        return sorted(set(out))

    def step(self, zone, side: str):
        """The zone beyond `side` of `zone` in the grid (even in a face-down room), or None off the maze."""
        dx, dy = GLOBAL[side]
        z = (zone[0] + dx, zone[1] + dy)
        return z if self.in_grid(z) else None

    def features(self, zone, side: str) -> tuple:
        """Every feature on that border, both rooms' prints (CG-ZONE-03, CG-ZONE-07); a face-down neighbour's
        prints are unknown and not counted (its zones are not reachable anyway). Memoised per maze (an
        arrangement never changes: a turned room or an opened portcullis is another maze)."""
        key = (zone, side)
        found = self._features.get(key)
        if found is None:
            out = self._printed(zone, side)
            other = self.step(zone, side)
            if other is not None and self.is_zone(other):
                out += self._printed(other, OPPOSITE[side])
            found = self._features[key] = tuple(sorted(set(out)))
        return found

    def beyond(self, zone, side: str):
        """The location across `side` of `zone`: a zone (revealed or not), a start position (seat, col), or None."""
        z = self.step(zone, side)
        if z is not None:
            return z
        if side == "S" and zone[1] == 0:
            return ("B", zone[0] // 2)
        if side == "N" and zone[1] == self.height - 1:
            return ("Y", zone[0] // 2)
        return None

    def start_zones(self, seat: str, col: int) -> tuple:
        """The zones of the room in front of start position (seat, col) that touch the start zone."""
        y = start_row(seat, self.length)
        return ((2 * col, y), (2 * col + 1, y))

    def start_side(self, seat: str) -> str:
        """The side of a start-row zone that faces `seat`'s start zone."""
        return "S" if seat == "B" else "N"

    def room_zones_in_front(self, seat: str, col: int) -> tuple:
        return slot_zones(start_slot(seat, col, self.length))

    def facings_in_front(self, seat: str, col: int) -> tuple:
        """What a character on start position (seat, col) may face (CG-START-01/02/04/05, DT-266): a zone of the
        room in front while it is face up; while it is face down, an icon its card carries (T S C R, in that
        order): the player points that icon at the room and learns where its zone lies only at the reveal. (A
        view's maze does not know a face-down card: every card carries the four, catalogue.py.)"""
        slot = start_slot(seat, col, self.length)
        room = self.rooms[slot]
        if room.revealed:
            return slot_zones(slot)
        card = self.cat.rooms.get(room.card)
        carried = set(card.icons.values()) if card is not None else set(ICONS)
        return tuple(i for i in ICONS if i in carried)

    def faced_zone(self, seat: str, col: int, facing):
        """The zone a character on start position (seat, col) facing `facing` faces: `facing` itself, or the zone
        of that icon in the room in front (DT-266: the engine keeps a face-down room's orientation, so this is
        known; the players learn it at the reveal)."""
        if not is_icon(facing):
            return facing
        return self.zone_of_icon(start_slot(seat, col, self.length), facing)


@lru_cache(maxsize=4096)
def maze(rooms: tuple, length: int, opened: frozenset, broken: frozenset = frozenset(),
         walls_broken: frozenset = frozenset()) -> Maze:
    return Maze(rooms, length, opened, broken, walls_broken)


def zone_name(zone) -> str:
    return f"{'abcd'[zone[0]]}{zone[1] + 1}"


def is_icon(facing) -> bool:
    """Whether a start character's `facing` is an icon ("T", "S", "C", "R": pointed at a face-down room, DT-266)
    rather than a zone."""
    return isinstance(facing, str)


def facing_name(facing) -> str:
    """A facing as written: a zone's name (`a2`) or an icon's letter (`T`, DT-266)."""
    return facing if is_icon(facing) else zone_name(facing)


def start_name(loc) -> str:
    return f"{loc[0]}{loc[1] + 1}"


def loc_name(loc) -> str:
    return start_name(loc) if is_start(loc) else zone_name(loc)


def slot_name(slot: int) -> str:
    return "ABCDEFGH"[slot]
