"""Card-game bots (the CG rule family): like the board game's (bots.py), they see only their seat's view and its
legal action texts, and `choose(view, legal, rng) -> str` is pure.

RandomBot draws a kind of action (the verb) uniformly, then an action of that kind: a uniform draw over all actions
would almost never end a turn or fight, since the moves outnumber everything else. GreedyBot takes an exit when one
is offered (CG-EXIT-01: a VP), else an attack or a shot, else a placement when a revealed room's cards are to be
placed (never `pass`), else (three times in four) the move that brings a figure nearest to the way out: the fewest
steps to the opponent's start zone over the zones its abilities let it cross, a face-down room counted as open
(`routes`); with no move that gets nearer, a reveal when one is offered (a face-down room may hold the way), then a
rotation after which its figures stand nearer the way out; otherwise it plays like RandomBot, but never turns a room
so that its figures stand farther from the way out, and does not end a turn while it holds more AP than the turn's
end keeps (CG-TURN-05).
"""

from __future__ import annotations

import re
from collections import deque

from ..cards.catalogue import load
from ..cards.maze import GLOBAL, OPPOSITE, rotate_zone, slot_of, slot_zones, start_slot, zone_name
from ..cards.notation import start_from, zone_from
from ..cards.common import passable
from ..cards.views import maze_of_view
from ..core.rng import Rng
from . import bots as board_bots

_START = re.compile(r"^[BY][12]$")
_ZONE = re.compile(r"^[a-d][0-9]+$")


def _verb(text: str) -> str:
    return text.split(" ", 1)[0]


def _exits(seat: str, legal: list[str]) -> list[str]:
    """Moves that leave the maze through the opponent's start zone (their last word names it)."""
    return [t for t in legal if _verb(t) == "move" and _START.match(t.rsplit(" ", 1)[-1]) and t[-2] != seat]


def _abilities(figure: dict) -> set:
    """What lets a figure cross borders: its character's abilities and its objects' (a Rope), as the view shows
    them (CG-OBJ-ROPE-01, CG-CHAR-ELF-01, ...)."""
    cat = load()
    out = set(cat.characters[figure["code"]].abilities)
    for load_id in (figure.get("carries"), figure.get("also_carries")):
        if load_id and load_id[1:3] in cat.objects:
            out |= cat.objects[load_id[1:3]].abilities
    return out


def routes(view: dict, seat: str, abilities: set, maze=None) -> dict:
    """Steps from each zone to the way out through the opponent's start zone, for a figure with `abilities`:
    borders as the revealed rooms print them, a face-down room's zones taken as open (it has to be revealed to
    know); zones with no way out are left out. `maze`: the view's, if already made (maze_of_view)."""
    maze = maze or maze_of_view(view)
    out_side = "N" if seat == "B" else "S"
    edge = maze.height - 1 if seat == "B" else 0

    def crossable(zone, side) -> bool:
        other = maze.step(zone, side)
        if not maze.is_zone(zone) or (other is not None and not maze.is_zone(other)):
            return True  # a face-down room: unknown, hoped open
        return passable(maze.features(zone, side), abilities)

    dist, todo = {}, deque()
    for x in range(4):
        zone = (x, edge)
        if crossable(zone, out_side):
            dist[zone] = 1
            todo.append(zone)
    while todo:
        zone = todo.popleft()
        for side in GLOBAL:
            other = maze.step(zone, side)
            if other is not None and other not in dist and crossable(other, OPPOSITE[side]):
                dist[other] = dist[zone] + 1
                todo.append(other)
    return dist


def _distance(maze, seat: str, dist: dict, where: str, facing: str | None = None) -> int | None:
    """Steps to the way out from a zone (`c3`) or an own start position (`B1`, facing a zone or not: an icon
    pointed at a face-down room, `T`, is no zone yet, DT-266)."""
    if not _START.match(where):
        return dist.get(zone_from(where))
    _, col = start_from(where)
    fronts = [z for z in slot_zones(start_slot(seat, col, maze.length)) if z in maze.start_zones(seat, col)]
    faced = zone_from(facing) if facing is not None and _ZONE.match(facing) else None
    steps = [dist[z] + (1 if faced == z else 2) for z in fronts if z in dist]
    return min(steps, default=None)


def _ends(text: str) -> tuple[str, str | None] | None:
    """Where a move's figure ends: its last place word, and the zone it then faces on a start position."""
    places = [w for w in text.split()[2:] if w[0] not in "+->"]
    if not places:
        return None
    last = places[-1]
    if last.startswith("^"):
        spot = next((w.split("^")[0] for w in reversed(places) if not w.startswith("^") and w[0] in "BY"), None)
        return (spot, last[1:]) if spot else None
    if "^" in last:
        spot, faced = last.split("^")
        return spot, faced
    return last, None


def _nearer(view: dict, seat: str, legal: list[str]) -> list[str]:
    """The moves that bring a figure nearest to the way out, nearer than it stands (or onto a route at all), by
    `routes`."""
    figures = {f["id"]: f for f in view.get("figures", ()) if f.get("seat") == seat and "code" in f}
    found, best = [], None
    maps: dict = {}
    maze = maze_of_view(view)
    for text in legal:
        if _verb(text) != "move":
            continue
        f = figures.get(text.split()[1])
        ends = _ends(text)
        if f is None or ends is None or f.get("at") is None:
            continue
        if f["id"] not in maps:
            maps[f["id"]] = routes(view, seat, _abilities(f), maze)
        dist = maps[f["id"]]
        here = _distance(maze, seat, dist, f["at"], f.get("facing"))
        there = _distance(maze, seat, dist, *ends) if ends[0][0] not in "BY" or ends[0][0] == seat else None
        if there is None or (here is not None and there >= here):
            continue
        if best is None or there < best:
            found, best = [text], there
        elif there == best:
            found.append(text)
    return found


def _standing(view: dict, seat: str) -> tuple:
    """How far the seat's figures stand from the way out (`routes`), nearest first: the lower, the better; a figure
    with no way out counts as far as any."""
    maze = maze_of_view(view)
    far = 1000  # more steps than any maze has zones
    out = []
    for f in view.get("figures", ()):
        if f.get("seat") != seat or "code" not in f or f.get("at") is None or f.get("where") not in ("maze", "start"):
            continue
        steps = _distance(maze, seat, routes(view, seat, _abilities(f), maze), f["at"], f.get("facing"))
        out.append(far if steps is None else steps)
    return tuple(sorted(out))


def _turned(view: dict, text: str) -> dict:
    """The view as the rotation `text` (`rotate bMK B cw`) would leave it: the room a quarter turn further, and the
    figures in it turned with it (CG-ROT-03), and those on a start zone in front of it facing the zone they faced
    (DT-260)."""
    _, _, room, way = text.split()
    cw = way == "cw"
    rooms = [dict(r, turns=(r.get("turns", 0) + (1 if cw else 3)) % 4) if r["room"] == room else r
             for r in view["rooms"]]
    slot = next(i for i, r in enumerate(view["rooms"]) if r["room"] == room)
    figures = [dict(f, at=zone_name(rotate_zone(zone_from(f["at"]), cw)))
               if f.get("where") == "maze" and f.get("at") and slot_of(zone_from(f["at"])) == slot else
               dict(f, facing=zone_name(rotate_zone(zone_from(f["facing"]), cw)))  # DT-260: it faces the same zone
               if f.get("where") == "start" and f.get("facing")
               and start_slot(f["at"][0], int(f["at"][1]) - 1, view["length"]) == slot else f
               for f in view.get("figures", ())]
    return {**view, "rooms": rooms, "figures": figures}


def _better_rotations(view: dict, seat: str, legal: list[str]) -> list[str]:
    """The rotations after which the seat's figures stand nearest the way out, nearer than now (`_standing`): a
    room turned to open the way a figure has none by, or a shorter one. Strictly nearer each time, so the bot
    never turns a room to and fro."""
    found, best = [], _standing(view, seat)
    for text in legal:
        if _verb(text) != "rotate":
            continue
        standing = _standing(_turned(view, text), seat)
        if standing < best:
            found, best = [text], standing
        elif found and standing == best:
            found.append(text)
    return found


KEPT_AP = 3
"""CG-TURN-05: the AP a turn's end keeps for the next at most: the greedy bot does not end a turn with more."""


class RandomBot:
    name = "random"

    def choose(self, view: dict, legal: list[str], rng: Rng) -> str:
        if board_bots.building(view):  # a full frontal team (CG-SEL-FULL-01): uniform over its parts
            return board_bots.RandomBot().choose(view, legal, rng)
        verbs = sorted({_verb(t) for t in legal})
        verb = rng.choice(verbs)
        return rng.choice([t for t in legal if _verb(t) == verb])


class GreedyBot:
    name = "greedy"

    def choose(self, view: dict, legal: list[str], rng: Rng) -> str:
        seat = view.get("viewer") or "B"
        if board_bots.building(view):
            return RandomBot().choose(view, legal, rng)
        exits = _exits(seat, legal)
        if exits:
            return exits[0]
        fights = [t for t in legal if _verb(t) in ("attack", "shoot")]
        if fights:
            return rng.choice(fights)
        placing = [t for t in legal if _verb(t) == "place"]
        if placing:  # it places the revealer's objects itself rather than `pass` them back (CG-OPT-02)
            return rng.choice(placing)
        if view.get("phase") == "main" and rng.below(4):  # mostly on the way out; sometimes anything
            nearer = _nearer(view, seat, legal)
            if nearer:
                return rng.choice(nearer)
            reveals = [t for t in legal if _verb(t) == "reveal"]
            if reveals:
                return rng.choice(reveals)
            turns = _better_rotations(view, seat, legal)
            if turns:
                return rng.choice(turns)
        if view.get("phase") == "main":
            if any(_verb(t) == "rotate" for t in legal):  # never a room turned against its own figures
                now = _standing(view, seat)
                legal = [t for t in legal if _verb(t) != "rotate" or _standing(_turned(view, t), seat) <= now]
            if view["players"][seat]["ap"] > KEPT_AP:
                others = [t for t in legal if _verb(t) != "end"]
                if others:  # the AP over KEPT_AP would be lost at the turn's end: spend them on something
                    return RandomBot().choose(view, others, rng)
        return RandomBot().choose(view, legal, rng)


BOTS = {"random": RandomBot, "greedy": GreedyBot, "planner": GreedyBot}
"""A bot kind a table may ask for in either game (protocol seat_bot): the Card Game has no planner of its own, so
a "planner" seat plays its greedy bot."""
