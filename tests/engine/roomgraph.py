"""A small self-contained graph over room data (engine/boardgame/data/*.json, engine/prison/data/*.json), for checking room designs.

It knows arrow slits and does not use the engine's Board (a second, independent reading of the data; the engine's
board is checked equal to it by test_prison_rooms.py): it only repeats the
engine's orientation convention (engine/boardgame/geometry.py, checked equal by test_prison_rooms.py): a tile's printed
top row faces Yellow (high y), column 1 is at low x, orientation k = k clockwise quarter turns.

Coordinates: x 0..9 across the maze, y 0..5*rows-1 along it; Blue's start zone is the row y = -1, Yellow's is
y = 5*rows. A start zone has no walls and is ordinary ground for its owner, so all its squares are connected.

Modes: `portcullis_open` treats every portcullis as open (a Key, the Assassin or the Colossus can open it in the
game); `pits_pass` treats pits as passable (a Rope, a jump card or the Wizard can cross them); `slits_pass` lets
movement cross arrow slits (only the Naga may, PR-CHAR-NAGA-01). By default walls, arrow slits, closed portcullises
and pits all block movement (PR-CORE-12).
"""

from __future__ import annotations

import json
import re
from collections import deque
from itertools import permutations
from math import factorial
from pathlib import Path

ROOM = 5
SIDES = "NESW"
DELTA = {"N": (0, 1), "E": (1, 0), "S": (0, -1), "W": (-1, 0)}
ENGINE = Path(__file__).resolve().parents[2] / "engine"
DATA = ENGINE / "prison" / "data"
BASE_DATA = ENGINE / "boardgame" / "data"
PD_DATA = ENGINE / "paladins" / "data"
START_SQUARES = (1, 3, 6, 8)  # marked squares 2, 4, 7, 9 of the 10 (BG board data, RUL-023)


def load_rooms(name: str) -> dict:
    folder = next((f for f in (DATA, PD_DATA) if (f / name).is_file()), BASE_DATA)
    return json.loads((folder / name).read_text())["rooms"]


def square(text: str) -> tuple[int, int]:
    """'r2c3' -> (1, 2): (row, col) 0-based."""
    return int(text[1]) - 1, int(text[3]) - 1


def pair(text: str):
    a, b = text.split("-")
    return square(a), square(b)


def offset(local: tuple[int, int], k: int) -> tuple[int, int]:
    """Tile (row, col) -> (dx, dy) in the room after k clockwise quarter turns (as engine/boardgame/geometry.py)."""
    row, col = local
    x, y = col, ROOM - 1 - row
    for _ in range(k % 4):
        x, y = y, ROOM - 1 - x
    return x, y


def rotate_side(side: str, k: int) -> str:
    return SIDES[(SIDES.index(side) + k) % 4]


def edge(a, b):
    return (a, b) if a <= b else (b, a)


class Placed:
    """One room laid at (ox, oy) (its lower-left square) in orientation k, in global coordinates."""

    def __init__(self, room: dict, k: int, ox: int, oy: int, portcullis_open=False, pits_pass=False,
                 slits_pass=False):
        def g(local):
            dx, dy = offset(local, k)
            return ox + dx, oy + dy

        self.squares = {(ox + dx, oy + dy) for dx in range(ROOM) for dy in range(ROOM)}
        self.pits = {g(square(s)) for s in room["pits"]}
        self.pits |= {g(square(s)) for key in BLOCKING for s in room.get(key, ())}  # P&D: never walked through
        self.gear = g(square(room["rotation"]))
        self.blocked: set = set()
        self.outward_blocked: set = set()  # edges from a square of this room to outside it, walled by this room
        kinds = (["internal_walls"] + ([] if slits_pass else ["arrow_slits"])
                 + ([] if portcullis_open else ["portcullises"]))
        for kind in kinds:
            for text in room.get(kind, []):
                a, b = pair(text)
                self.blocked.add(edge(g(a), g(b)))
        for text in room["outer_walls"]:
            local, side = text.split(":")
            sq = g(square(local))
            dx, dy = DELTA[rotate_side(side, k)]
            self.outward_blocked.add(edge(sq, (sq[0] + dx, sq[1] + dy)))
        if pits_pass:
            self.pits -= {g(square(s)) for s in room["pits"]}


_PLACED: dict = {}


def _placed(rooms: dict, tile: str, k: int, c: int, r: int, mode: dict) -> Placed:
    key = (id(rooms), tile, k, c, r, tuple(sorted(mode.items())))
    if key not in _PLACED:
        _PLACED[key] = (rooms, Placed(rooms[tile], k, c * ROOM, r * ROOM, **mode))  # rooms kept alive: id stays valid
    return _PLACED[key][1]


def build_graph(layout: dict, rooms: dict, rows: int, **mode):
    """layout: {(col, row): (tile, k)} -> (nodes, neighbours) over room squares and both start zones."""
    placed = [_placed(rooms, t, k, c, r, mode) for (c, r), (t, k) in layout.items()]
    height = rows * ROOM
    blocked = set().union(*(p.blocked for p in placed), *(p.outward_blocked for p in placed))
    pits = set().union(*(p.pits for p in placed))
    nodes = {(x, y) for x in range(2 * ROOM) for y in range(-1, height + 1)} - pits
    nbrs = {sq: [o for dx, dy in DELTA.values() if (o := (sq[0] + dx, sq[1] + dy)) in nodes
                 and edge(sq, o) not in blocked] for sq in nodes}
    return nodes, nbrs


def reach(nbrs, start) -> set:
    seen = {start}
    todo = deque([start])
    while todo:
        sq = todo.popleft()
        for other in nbrs[sq]:
            if other not in seen:
                seen.add(other)
                todo.append(other)
    return seen


def exit_distances(layout, rooms, rows, **mode) -> tuple:
    """Per player (Blue, Yellow): fewest squares moved from one of his marked start squares to the opponent's start
    zone (his own start zone may be walked along), or None if there is no way."""
    _, nbrs = build_graph(layout, rooms, rows, **mode)
    height = rows * ROOM
    out = []
    for y, goal in ((-1, height), (height, -1)):
        dist = {(x, y): 0 for x in START_SQUARES}
        todo = deque(dist)
        found = None
        while todo:
            sq = todo.popleft()
            if sq[1] == goal:
                found = dist[sq]
                break
            for other in nbrs[sq]:
                if other not in dist:
                    dist[other] = dist[sq] + 1
                    todo.append(other)
        out.append(found)
    return tuple(out)


def start_squares_reach_exit(layout, rooms, rows, **mode) -> bool:
    """Every marked start square of each player reaches the opponent's start zone (brute force)."""
    _, nbrs = build_graph(layout, rooms, rows, **mode)
    height = rows * ROOM
    for y, goal in ((-1, height), (height, -1)):
        # one search from the first marked square: the others reach the same squares if they lie in what it reaches
        reached = reach(nbrs, (START_SQUARES[0], y))
        if not all((x, y) in reached for x in START_SQUARES) or not any(sq[1] == goal for sq in reached):
            return False
    return True


# --- one room on its own ---------------------------------------------------------------------------------
def room_report(room: dict, **mode) -> dict:
    """Openings (squares with an unwalled outer side, not pits) and the room's own connectivity.

    `openings_connected`: all openings lie in one component of the room alone; `sealed`: squares (not pits)
    reachable from no opening inside the room.
    """
    p = Placed(room, 0, 0, 0, **mode)
    nodes = p.squares - p.pits
    nbrs = {sq: [o for dx, dy in DELTA.values() if (o := (sq[0] + dx, sq[1] + dy)) in nodes
                 and edge(sq, o) not in p.blocked] for sq in nodes}
    openings = set()
    for sq in nodes:
        for dx, dy in DELTA.values():
            o = (sq[0] + dx, sq[1] + dy)
            if o not in p.squares and edge(sq, o) not in p.outward_blocked:
                openings.add(sq)
    reached = set()
    components = 0
    for sq in sorted(openings):
        if sq not in reached:
            components += 1
            reached |= reach(nbrs, sq)
    return {"openings": len(openings), "opening_components": components,
            "sealed": sorted(nodes - reached), "gear_reached": p.gear in reached}


# --- every arrangement, counted exactly by a transfer over room rows ------------------------------------------
class RowConfigs:
    """Two rooms side by side (one row of the maze): connectivity of its 10 bottom and 10 top squares."""

    def __init__(self, rooms: dict, **mode):
        self.rooms = rooms
        self.mode = mode
        self._cache: dict = {}

    def get(self, left: str, kl: int, right: str, kr: int):
        key = (left, kl, right, kr)
        if key not in self._cache:
            self._cache[key] = self._build(*key)
        return self._cache[key]

    def _build(self, left, kl, right, kr):
        a = Placed(self.rooms[left], kl, 0, 0, **self.mode)
        b = Placed(self.rooms[right], kr, ROOM, 0, **self.mode)
        blocked = a.blocked | b.blocked | a.outward_blocked | b.outward_blocked
        nodes = (a.squares | b.squares) - a.pits - b.pits
        nbrs = {sq: [o for dx, dy in DELTA.values() if (o := (sq[0] + dx, sq[1] + dy)) in nodes
                     and edge(sq, o) not in blocked] for sq in nodes}
        comp: dict = {}
        for sq in sorted(nodes):
            if sq not in comp:
                for o in reach(nbrs, sq):
                    comp[o] = sq
        ids = {}
        label = []
        for node in range(20):
            x, y = node % 10, (0 if node < 10 else ROOM - 1)
            sq = (x, y)
            label.append(ids.setdefault(comp[sq], len(ids)) if sq in nodes else -1)
        down = [(x, 0) in nodes and edge((x, 0), (x, -1)) not in blocked for x in range(10)]
        up = [(x, ROOM - 1) in nodes and edge((x, ROOM - 1), (x, ROOM)) not in blocked for x in range(10)]
        return tuple(label), tuple(down), tuple(up)


def _find(parent, i):
    while parent[i] != i:
        parent[i] = parent[parent[i]]
        i = parent[i]
    return i


def transfer(frontier: tuple, config) -> tuple:
    """Frontier: per column x of the top row so far, -1 (no way up) or a class label, 0 = joined to Blue's zone.

    Returns the frontier above one more row of rooms (classes merged through it)."""
    label, down, up = config
    parent = list(range(20 + 11))
    first: dict = {}
    for node, c in enumerate(label):
        if c >= 0:
            if c in first:
                parent[_find(parent, node)] = _find(parent, first[c])
            else:
                first[c] = node
    for x in range(10):
        f = frontier[x]
        if f >= 0 and down[x]:
            parent[_find(parent, x)] = _find(parent, 20 + f)
    blue = _find(parent, 20) if 0 in frontier else None
    out = []
    names: dict = {}
    for x in range(10):
        node = 10 + x
        if label[node] >= 0 and up[x]:
            r = _find(parent, node)
            out.append(0 if r == blue else names.setdefault(r, len(names) + 1))
        else:
            out.append(-1)
    return tuple(out)


def count_through(tiles: list[str], rows: int, configs: RowConfigs) -> tuple[int, int]:
    """(arrangements whose two start zones are connected, all arrangements) over every placement of `tiles`
    (2 * rows distinct rooms) in the slots and every orientation of each."""
    assert len(tiles) == 2 * rows
    memo: dict = {}
    states = {(0, tuple([0] * 10)): 1}
    index = {t: i for i, t in enumerate(tiles)}
    for _ in range(rows):
        nxt: dict = {}
        for (used, frontier), n in states.items():
            free = [t for t in tiles if not used >> index[t] & 1]
            for left in free:
                for right in free:
                    if left == right:
                        continue
                    mask = used | 1 << index[left] | 1 << index[right]
                    for kl in range(4):
                        for kr in range(4):
                            key = (frontier, left, kl, right, kr)
                            new = memo.get(key)
                            if new is None:
                                new = memo[key] = transfer(frontier, configs.get(left, kl, right, kr))
                            if 0 in new:
                                state = (mask, new)
                                nxt[state] = nxt.get(state, 0) + n
        states = nxt
    total = factorial(2 * rows) * 4 ** (2 * rows)
    return sum(states.values()), total


def brute_force(tiles: list[str], rows: int, rooms: dict, **mode) -> tuple[int, int]:
    """The same count by building every arrangement (small mazes only)."""
    ok = total = 0
    slots = [(c, r) for r in range(rows) for c in range(2)]
    for order in permutations(tiles):
        for code in range(4 ** len(tiles)):
            ks = [(code >> (2 * i)) & 3 for i in range(len(tiles))]
            layout = {slot: (t, k) for slot, t, k in zip(slots, order, ks)}
            total += 1
            ok += start_squares_reach_exit(layout, rooms, rows, **mode)
    return ok, total


# --- the ASCII drawings of docs/prison-rooms.md (the style of ../shared/rooms/base-set.md) --------------------
V_EDGE = {" ": None, "|": "internal_walls", "H": "portcullises", ":": "arrow_slits"}
H_EDGE = {"   ": None, "---": "internal_walls", "===": "portcullises", "~~~": "arrow_slits"}
CELL = {".", "O", "@"}
# Paladins & Dragons terrain (docs/paladins-rooms.md): a letter per square, a list of squares per key in the data
TERRAIN = {"F": "fog", "R": "rockfall", "V": "crevasses", "X": "obstacles", "Y": "fountains", "P": "pentacle"}
BLOCKING = ("rockfall", "crevasses", "obstacles", "fountains")  # no walker crosses or stops on them (pits: below)


def name(r: int, c: int) -> str:
    return f"r{r + 1}c{c + 1}"


def parse_drawing(lines: list[str]) -> tuple[str, dict]:
    """A header line, the column line and 11 grid lines -> (tile id, room data in the JSON format)."""
    head = re.fullmatch(r"(\d+[GD]): pair (\d+), arrow (clockwise|counter-clockwise), gear at (r\dc\d)",
                        lines[0].strip())
    if not head:
        raise ValueError(f"bad header {lines[0]!r}")
    if lines[1].rstrip() != "      c1  c2  c3  c4  c5":
        raise ValueError(f"bad column line {lines[1]!r}")
    grid = [line.ljust(25) for line in lines[2:13]]
    if len(grid) != 11 or any(len(line.rstrip()) > 25 for line in grid):
        raise ValueError("a room is 11 grid lines of at most 25 characters")
    room = {"number": int(head[2]), "arrow": head[3], "rotation": None, "pits": [], "internal_walls": [],
            "outer_walls": [], "portcullises": [], "arrow_slits": []}
    for i in range(6):  # horizontal edge lines: above row i
        line = grid[2 * i]
        if line[4::4][:6] != "++++++" or line[:4] != "    ":
            raise ValueError(f"bad edge line {line!r}")
        for c in range(5):
            kind = H_EDGE.get(line[5 + 4 * c: 8 + 4 * c])
            if line[5 + 4 * c: 8 + 4 * c] not in H_EDGE:
                raise ValueError(f"bad edge {line[5 + 4 * c: 8 + 4 * c]!r} in {line!r}")
            if kind is None:
                continue
            if i == 0 or i == 5:
                if kind != "internal_walls":
                    raise ValueError("only walls lie on a room's outer edge")
                room["outer_walls"].append(f"{name(0 if i == 0 else 4, c)}:{'N' if i == 0 else 'S'}")
            else:
                room[kind].append(f"{name(i - 1, c)}-{name(i, c)}")
    for r in range(5):
        line = grid[2 * r + 1]
        if line[:4] != f" r{r + 1} ":
            raise ValueError(f"bad row line {line!r}")
        for c in range(6):
            ch = line[4 + 4 * c]
            if ch not in V_EDGE:
                raise ValueError(f"bad edge {ch!r} in {line!r}")
            kind = V_EDGE[ch]
            if kind is None:
                continue
            if c == 0 or c == 5:
                if kind != "internal_walls":
                    raise ValueError("only walls lie on a room's outer edge")
                room["outer_walls"].append(f"{name(r, 0 if c == 0 else 4)}:{'W' if c == 0 else 'E'}")
            else:
                room[kind].append(f"{name(r, c - 1)}-{name(r, c)}")
        for c in range(5):
            cell = line[5 + 4 * c: 8 + 4 * c]
            if cell[0] != " " or cell[2] != " " or (cell[1] not in CELL and cell[1] not in TERRAIN):
                raise ValueError(f"bad square {cell!r} in {line!r}")
            if cell[1] == "O":
                room["pits"].append(name(r, c))
            elif cell[1] in TERRAIN:
                room.setdefault(TERRAIN[cell[1]], []).append(name(r, c))
            elif cell[1] == "@":
                if room["rotation"] is not None:
                    raise ValueError("two gears in one room")
                room["rotation"] = name(r, c)
    if room["rotation"] != head[4]:
        raise ValueError(f"{head[1]}: the header's gear {head[4]} is not the drawn one {room['rotation']}")
    for key in ("pits", "internal_walls", "outer_walls", "portcullises", "arrow_slits", *TERRAIN.values()):
        if key in room:
            room[key].sort()
    return head[1], room


def parse_document(text: str) -> dict:
    """Every room drawing in a markdown text (a header line 'NNX: pair ...' starts one)."""
    lines = text.splitlines()
    rooms = {}
    for i, line in enumerate(lines):
        if re.match(r"\d+[GD]: pair ", line):
            tile, room = parse_drawing(lines[i:i + 13])
            if tile in rooms:
                raise ValueError(f"{tile} drawn twice")
            rooms[tile] = room
    return rooms


def draw(tile: str, room: dict) -> list[str]:
    """The inverse of parse_drawing (for writing the document)."""
    def has(kind, a, b):
        return f"{a}-{b}" in room.get(kind, [])

    lines = [f"{tile}: pair {room['number']}, arrow {room['arrow']}, gear at {room['rotation']}",
             "      c1  c2  c3  c4  c5"]
    for i in range(6):
        seg = []
        for c in range(5):
            if i in (0, 5):
                seg.append("---" if f"{name(0 if i == 0 else 4, c)}:{'N' if i == 0 else 'S'}" in room["outer_walls"]
                           else "   ")
            else:
                a, b = name(i - 1, c), name(i, c)
                seg.append("---" if has("internal_walls", a, b) else "===" if has("portcullises", a, b)
                           else "~~~" if has("arrow_slits", a, b) else "   ")
        lines.append("    +" + "+".join(seg) + "+")
        if i == 5:
            break
        r = i
        row = f" r{r + 1} "
        for c in range(6):
            if c in (0, 5):
                ch = "|" if f"{name(r, 0 if c == 0 else 4)}:{'W' if c == 0 else 'E'}" in room["outer_walls"] else " "
            else:
                a, b = name(r, c - 1), name(r, c)
                ch = ("|" if has("internal_walls", a, b) else "H" if has("portcullises", a, b)
                      else ":" if has("arrow_slits", a, b) else " ")
            row += ch
            if c < 5:
                sq = name(r, c)
                letter = next((k for k, key in TERRAIN.items() if sq in room.get(key, ())), ".")
                row += " " + ("O" if sq in room["pits"] else "@" if sq == room["rotation"] else letter) + " "
        lines.append(row)
    return lines


# --- lines of sight through arrow slits ------------------------------------------------------------------
def slit_lines(room: dict) -> list[dict]:
    """For each arrow slit and each of its two squares: how many squares of the room a figure standing there sees
    through the slit (PR-SLIT-03, PR-LOS-02/03: walls and closed portcullises stop the line, pits do not), and
    whether the line leaves the room through an unwalled outer edge (into the next room or a start zone)."""
    p = Placed(room, 0, 0, 0)
    out = []
    for text in room.get("arrow_slits", []):
        a, b = pair(text)
        for s, t in ((a, b), (b, a)):
            gs, gt = offset(s, 0), offset(t, 0)
            d = (gt[0] - gs[0], gt[1] - gs[1])
            seen, cur = 1, gt
            while True:
                nxt = (cur[0] + d[0], cur[1] + d[1])
                if nxt not in p.squares:
                    leaves = edge(cur, nxt) not in p.outward_blocked
                    break
                if edge(cur, nxt) in p.blocked:
                    leaves = False
                    break
                seen, cur = seen + 1, nxt
            side = {(0, 1): "N", (1, 0): "E", (0, -1): "S", (-1, 0): "W"}[d]
            out.append({"slit": text, "from": name(*s), "looking": side, "squares": seen, "leaves_room": leaves})
    return out


def side_centres_connected(room: dict) -> bool:
    """The middle square of each side (r1c3, r3c5, r5c3, r3c1) is open to the outside and the four are connected
    inside the room without crossing a pit, a wall, an arrow slit or a closed portcullis."""
    p = Placed(room, 0, 0, 0)
    nodes = p.squares - p.pits
    nbrs = {sq: [o for dx, dy in DELTA.values() if (o := (sq[0] + dx, sq[1] + dy)) in nodes
                 and edge(sq, o) not in p.blocked] for sq in nodes}
    centres = [((2, 4), (2, 5)), ((4, 2), (5, 2)), ((2, 0), (2, -1)), ((0, 2), (-1, 2))]
    if any(sq not in nodes or edge(sq, out) in p.outward_blocked for sq, out in centres):
        return False
    reached = reach(nbrs, centres[0][0])
    return all(sq in reached for sq, _ in centres)


def crossings(room: dict, **mode) -> tuple:
    """Fewest steps inside the room alone from the middle of one side to the middle of the opposite side:
    (top to bottom, left to right) in the printed picture; None where there is no way."""
    p = Placed(room, 0, 0, 0, **mode)
    nodes = p.squares - p.pits
    nbrs = {sq: [o for dx, dy in DELTA.values() if (o := (sq[0] + dx, sq[1] + dy)) in nodes
                 and edge(sq, o) not in p.blocked] for sq in nodes}
    out = []
    for a, b in (((2, 4), (2, 0)), ((0, 2), (4, 2))):
        dist = {a: 0} if a in nodes else {}
        todo = deque(dist)
        while todo:
            sq = todo.popleft()
            for o in nbrs[sq]:
                if o not in dist:
                    dist[o] = dist[sq] + 1
                    todo.append(o)
        out.append(dist.get(b))
    return tuple(out)


MODES = {"strict": {}, "portcullises open": {"portcullis_open": True}, "pits passable": {"pits_pass": True},
         "both": {"portcullis_open": True, "pits_pass": True}}
SCENARIOS = {"prison-1": ((39, 40), 2), "prison-2": ((37, 38), 2), "prison-3": ((38, 40), 2),
             "prison-4": ((37, 38, 40), 3), "prison-5": ((37, 38, 39, 40), 4)}


def tiles_of(pairs) -> list[str]:
    return [f"{n}{side}" for n in pairs for side in "GD"]


def main(argv: list[str]) -> None:
    """Print the figures of docs/prison-rooms.md: `python tests/engine/roomgraph.py [--distances] [--mixed]`."""
    import itertools
    from statistics import mean

    prison, base = load_rooms("prison.json"), load_rooms("base_set.json")
    both = {**prison, **base}
    print("room  openings  components(strict/all open)  sealed  centres  pits portc slits walls outer")
    for tile, room in prison.items():
        s, r = room_report(room), room_report(room, portcullis_open=True, pits_pass=True)
        print(f"{tile:5} {s['openings']:8}  {s['opening_components']}/{r['opening_components']:26}  "
              f"{len(s['sealed']):6}  {str(side_centres_connected(room)):7}  {len(room['pits']):4} "
              f"{len(room['portcullises']):5} {len(room['arrow_slits']):5} {len(room['internal_walls']):5} "
              f"{len(room['outer_walls']):5}")
    for tile, room in prison.items():
        print(tile, "; ".join(f"{x['from']} looking {x['looking']}: {x['squares']}"
                              f"{' and out' if x['leaves_room'] else ''}" for x in slit_lines(room)))
    for label, rooms in (("prison", prison), ("base", base)):
        for mode, kw in MODES.items():
            cfg = RowConfigs(rooms, **kw)
            if label == "prison":
                for scen, (pairs, rows) in SCENARIOS.items():
                    ok, total = count_through(tiles_of(pairs), rows, cfg)
                    print(f"{scen} {mode}: {ok}/{total} = {ok / total:.2%}")
            else:
                res = [count_through(tiles_of(sel), 2, cfg) for sel in itertools.combinations((1, 2, 3, 4), 2)]
                ok, total = sum(r[0] for r in res), sum(r[1] for r in res)
                print(f"base 2x2 (6 pair choices) {mode}: {ok}/{total} = {ok / total:.2%}")
                ok, total = count_through(tiles_of((1, 2, 3, 4)), 4, cfg)
                print(f"base 2x4 {mode}: {ok}/{total} = {ok / total:.2%}")
    if "--distances" in argv:
        dist_modes = {"strict": {}, "portcullises open (Key)": {"portcullis_open": True},
                      "pits passable (Rope)": {"pits_pass": True}, "slits passable (Naga)": {"slits_pass": True}}
        for scen in ("prison-1", "prison-2", "prison-3"):
            pairs, rows = SCENARIOS[scen]
            slots = [(c, r) for r in range(rows) for c in range(2)]
            for mode, kw in dist_modes.items():
                ds = []
                for order in itertools.permutations(tiles_of(pairs)):
                    for code in range(4 ** 4):
                        layout = {slot: (t, (code >> 2 * i) & 3) for i, (slot, t) in enumerate(zip(slots, order))}
                        ds.extend(exit_distances(layout, prison, rows, **kw))
                print(f"{scen} exit distance {mode}: mean {mean(ds):.2f} min {min(ds)} max {max(ds)}")
    if "--mixed" in argv:
        pairs = (1, 2, 3, 4, 37, 38, 39, 40)
        for mode, kw in MODES.items():
            cfg = RowConfigs(both, **kw)
            for size, rows in ((2, 2), (4, 4)):
                res = {sel: count_through(tiles_of(sel), rows, cfg) for sel in itertools.combinations(pairs, size)
                       if any(n > 4 for n in sel) and any(n <= 4 for n in sel)}
                ok, total = sum(r[0] for r in res.values()), sum(r[1] for r in res.values())
                worst = min(res, key=lambda sel: res[sel][0])
                print(f"mixed 2x{rows} ({len(res)} pair choices) {mode}: {ok}/{total} = {ok / total:.2%}; "
                      f"worst {worst}: {res[worst][0] / res[worst][1]:.2%}")


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
