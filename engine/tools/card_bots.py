"""Card-game bots (the CG rule family): like the board game's (bots.py), they see only their seat's view and its
legal action texts, and `choose(view, legal, rng) -> str` is pure.

RandomBot draws a kind of action (the verb) uniformly, then an action of that kind: a uniform draw over all actions
would almost never end a turn or fight, since the moves outnumber everything else.

GreedyBot (the `greedy` a table or `dt-client play --game cards` seats) scores every legal action from the view, in
VP: see its docstring. SimpleBot, the greedy bot of before 2026-11-30, is kept as the baseline bench/card_bots.py
measures it against; no table seats it. It takes an exit when one is offered (CG-EXIT-01: a VP), else an attack or a
shot, else a placement when a revealed room's cards are to be placed (never `pass`), else (three times in four) the
move that brings a figure nearest to the way out: the fewest steps to the opponent's start zone over the zones its
abilities let it cross, a face-down room counted as open (`routes`); with no move that gets nearer, a reveal when
one is offered (a face-down room may hold the way), then a rotation after which its figures stand nearer the way
out; otherwise it plays like RandomBot, but never turns a room so that its figures stand farther from the way out,
and does not end a turn while it holds more AP than the turn's end keeps (CG-TURN-05).
"""

from __future__ import annotations

import heapq
from functools import lru_cache
import re
from collections import deque

from ..cards.catalogue import load
from ..cards.maze import GLOBAL, OPPOSITE, rotate_zone, slot_of, slot_xy, slot_zones, start_slot, zone_name
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


def _handled(words: list[str]) -> int:
    """How many objects (or wounded friends) a move's text takes, drops or hands over: its `+`, `-`, `>` words."""
    return sum(1 for w in words[2:] if w[0] in "+->" and not w[1:].isdigit())


def _destination(f: dict, words: list[str]) -> tuple[str, str | None]:
    """Where a move's (or a jump's) figure ends, (place, facing), as GreedyBot._move follows it."""
    place, facing = f["at"], f.get("facing")
    for w in words[2:]:
        if w[0] in "+->":
            continue
        if w[0] == "^":
            facing = w[1:]
        elif "^" in w:
            place, facing = w.split("^")
        elif _START.match(w) or _ZONE.match(w):
            place, facing = w, None
    return place, facing


def _board(view: dict) -> tuple:
    """What a view shows of the board (figures, objects, rooms, AP), to know it again."""
    figures = tuple(sorted((f["id"], f.get("where"), f.get("at"), f.get("facing"), f.get("wounded"), f.get("carries"),
                            f.get("also_carries")) for f in view.get("figures", ()) if "id" in f))
    items = tuple(sorted((i["id"], i.get("where"), i.get("at"), i.get("by")) for i in view.get("items", ())
                         if "id" in i))
    rooms = tuple((r.get("room"), r.get("card"), r.get("turns"), r.get("revealed")) for r in view.get("rooms", ()))
    return figures, items, rooms, tuple(sorted((s, p.get("ap"), p.get("vp")) for s, p in view["players"].items()))


def _position(view: dict) -> tuple:
    """Where the figures stand (place, facing, wounded, loads) and the objects lie, and the rooms' turns, from a
    view: the position a move leads to (`_moved`), to know it again (GreedyBot `_visited`); AP and VP left out."""
    figs = frozenset((f["id"], f["at"], f.get("facing") or f.get("facing_icon"), bool(f.get("wounded")), tuple(sorted(
        c for c in (f.get("carries"), f.get("also_carries")) if c))) for f in view.get("figures", ())
        if f.get("where") in ("maze", "start") and f.get("at") is not None)
    floor = frozenset((i["id"], i.get("at")) for i in view.get("items", ()) if i.get("where") == "floor")
    rooms = tuple((r.get("room"), r.get("card"), r.get("turns"), r.get("revealed")) for r in view.get("rooms", ()))
    return figs, floor, rooms


def _take(loads: dict, f: dict, item: str, holder_of) -> tuple[str | None, str | None]:
    """The figure `f` takes `item` along its move (CG-ITEM-01/03), in `loads` (what each figure the move deals with
    carries, `f`'s own included): from the figure that holds it (found in `loads`, else `holder_of(item)`, which
    adds that figure's load), or from the floor. A full hand (a Paladin's holds two) gives up its last object: to
    the holder, a swap, or to the floor. Returns (the holder or None, the object put on the floor or None); shared
    by `_moved` (where the move leads) and GreedyBot._move (what it gains)."""
    carrying = loads[f["id"]]
    who = next((h for h, load in loads.items() if item in load), None)
    if who is None:
        who = holder_of(item)
    old = None
    if carrying and not (f["code"] == "PA" and len(carrying) < 2):
        old = carrying.pop()
    if who is not None and who != f["id"]:
        loads[who].remove(item)
        if old is not None:
            loads[who].append(old)  # a swap (CG-ITEM-03); else what it carried lies here
            old = None
    carrying.append(item)
    return who, old


def _give(word: str, loads: dict, carrying: list, figs: dict, carried) -> None:
    """The move's word `>TO[/ITEM]`: the mover hands ITEM (by default what it took last) to the figure TO
    (CG-ITEM-03), in `loads` (TO's load added from `carried(figs[TO])` when first dealt with); `carrying` is the
    mover's own load. What `_moved` and GreedyBot._move both follow."""
    to, _, what = word[1:].partition("/")
    given = what or (carrying[-1] if carrying else None)
    if given in carrying:
        carrying.remove(given)
        if to not in loads and to in figs:
            loads[to] = list(carried(figs[to]))
        loads.setdefault(to, []).append(given)


def _moved(position: tuple, figs: dict, holder: dict, f: dict, words: list[str]) -> tuple | None:
    """The `_position` after the move `words` of the figure `f` (`figs`: the view's figures by id, `holder`: who
    carries each object), its loads followed as GreedyBot._move follows them (CG-ITEM-01/03); None for an exit."""
    def carried(g):
        return [c for c in (g.get("carries"), g.get("also_carries")) if c]

    loads = {f["id"]: carried(f)}
    carrying = loads[f["id"]]
    place, facing = f["at"], f.get("facing") or f.get("facing_icon")  # (DT-266: an icon, at a face-down room)
    lifted, laid = set(), {}
    for w in words[2:]:
        if w[0] in "+-" and w[1:].isdigit():
            continue  # a jump card
        if w[0] == "+":
            item = w[1:]
            if item.startswith("@"):
                item = next(iter(carried(figs.get(item[1:], {}))), item)

            def holder_of(item):
                if item not in laid and item in holder and holder[item]["id"] not in loads:
                    loads[holder[item]["id"]] = carried(holder[item])
                    return holder[item]["id"]
                return None

            who, old = _take(loads, f, item, holder_of)
            if who is None:
                lifted.add(item)
                laid.pop(item, None)
            if old is not None:
                laid[old] = place, facing
        elif w[0] == "-":
            if w[1:] in carrying:
                carrying.remove(w[1:])
                laid[w[1:]] = place, facing
        elif w[0] == ">":
            _give(w, loads, carrying, figs, carried)
        elif w[0] == "^":
            facing = w[1:]
        elif "^" in w:
            place, facing = w.split("^")
        elif _START.match(w) or _ZONE.match(w):
            if _START.match(w) and w[0] != f["seat"]:
                return None
            place, facing = w, (place if _START.match(w) and _ZONE.match(place) else None)  # facing whence it came
    figures, floor, rooms = position
    gone = {g for g in figures if g[0] in loads or g[0] in lifted}
    now = set()
    for who, held in loads.items():
        g = figs.get(who)
        if g is None or g.get("where") not in ("maze", "start") or g.get("at") is None:
            continue
        at, faced = (place, facing) if who == f["id"] else (g["at"], g.get("facing") or g.get("facing_icon"))
        now.add((who, at, faced, bool(g.get("wounded")), tuple(sorted(held))))
    for item, (at, faced) in laid.items():
        if item in figs:  # a wounded friend put down (its own loads unseen while carried), on a start position
            now.add((item, at, faced if _START.match(at) else None, True, ()))  # as its carrier faced
    figures = (figures - gone) | now
    floor = frozenset(x for x in floor if x[0] not in lifted and x[0] not in laid) | frozenset(
        (item, at) for item, (at, _) in laid.items() if item not in figs)
    return figures, floor, rooms


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


def _inverted(view: dict, here: int, there: int) -> dict:
    """The view as an Inversion Scroll read in room `here` would leave it (CG-OBJ-INVERSION-01): the two rooms'
    cards change places, keeping their orientations, and the characters and objects in them go along, each to
    its own zone of its card (start-zone facings are left as they were)."""
    (hx, hy), (ox, oy) = slot_xy(here), slot_xy(there)
    shift = {here: (2 * (ox - hx), 2 * (oy - hy)), there: (2 * (hx - ox), 2 * (hy - oy))}

    def moved(at):
        if not at or not _ZONE.match(at):
            return at
        zone = zone_from(at)
        if slot_of(zone) not in shift:
            return at
        dx, dy = shift[slot_of(zone)]
        return zone_name((zone[0] + dx, zone[1] + dy))

    rooms = list(view["rooms"])
    rooms[here], rooms[there] = (dict(view["rooms"][there], room=view["rooms"][here]["room"]),
                                 dict(view["rooms"][here], room=view["rooms"][there]["room"]))
    figures = [dict(f, at=moved(f.get("at"))) if f.get("where") == "maze" else f for f in view.get("figures", ())]
    items = [dict(i, at=moved(i.get("at"))) if i.get("where") == "floor" else i for i in view.get("items", ())]
    return {**view, "rooms": rooms, "figures": figures, "items": items}


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


class SimpleBot:
    """The greedy bot of before 2026-11-30 (its preferences in this module's docstring): kept as the baseline the
    bench measures GreedyBot against (bench/card_bots.py); no table seats it."""

    name = "simple"

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


# --- GreedyBot: one pass over the legal list, each action scored from the view (no engine call) -----------------

DECK = tuple(load().combat_cards)
"""CG-COMP-03: the combat cards a hand starts with; what the opponent lays is reckoned as one of them at random
(the view shows only how many he holds, CG-COMBAT-05)."""

VP = 100.0
"""The unit of every score: a victory point. A wound is worth WOUND of it (the wounded character acts no more until
healed, and the next win on it eliminates it: CG-COMBAT-03), an AP of walking on the way out RUN."""
WOUND = 50.0
RUN = 30.0
TEMPO = 10.0
"""A fight is there now and may not be later (the enemy moves): a step can wait, so a fight worth as much goes
first."""
CARD_COST = 4.0
"""What a combat card laid costs per point of its value: it leaves the game (CG-COMBAT-05), the +0 returns."""
FAR = 8.0
"""The AP a figure with no way out is reckoned to stand from it, at least (`_Seen.far`: more than any way)."""
UNKNOWN = 0.5
"""The AP a face-down room's border costs on a route: it is hoped open, and has to be revealed first."""
IMPATIENT = 3
LOOP = 4
REVISIT = 8
REVISITED = -2.0
"""A move that leads back to a position (the figures' places, facings and loads, the objects', the rooms') the
bot saw at a decision of its own in its last REVISIT turns gains nothing: it scores REVISITED (a step's AP), and a
stuck side's tries leave it out (GreedyBot._unvisited)."""
ACCESS = 15.0
RISKED = 0.5
"""After IMPATIENT turns in a row that gained nothing (a standoff, or a way hoped through a wall), the bot reckons
walls towards face-down rooms as walls, a danger and a block at RISKED of themselves (RISKED squared after twice as
many turns, ...), and a figure that could reveal a face-down room ACCESS the better for each of its own cards
there (`_Seen.access`), until a turn gains again. A turn that gained but started from a board one of its last LOOP
turns started from went round in a circle: it counts as gaining nothing (tutorial 2 seed 2, self-play: a Colossus
walked to whichever exit the other side's Colossus did not block, and that one turned to block it, for 400
actions, both sides gaining every turn)."""
LAST_EXIT_IDLE = 8 * IMPATIENT
"""After this many of its turns in a row that gained nothing (`_idle`), the side's last unwounded figure takes an
exit that does not win (GreedyBot._deadlocked) rather than wait on: standard mutual 65 ran to the cap, its Warrior
walled in by b1 and c1 with a wounded friend on his back, 3 VP to the other's 4 and a target of 5, while the old bot
shot +0 against +0 at him for ever. Waiting can win nothing there, and the exit's point counts if the game ends
with nothing left to change (DT-239: the more VP wins). Twelve turns were too few: in standard draft 17 the last
figure, idle twelve turns, left and lost a game it won by waiting a few turns more (enemies came to its fights)."""
ITEM_WORD = 0.5
"""What taking, dropping or handing over an object in a move costs: nothing by the rules (CG-ITEM-01/03), but a
move that only shuffles objects gains nothing, and among moves worth the same the plainest is the one a player
makes (pt27 F17: the bot drew among them, so its figures picked up and dropped objects to no end)."""
TAKEN_BACK = 20.0
"""What taking an object its figures put down or handed over this turn or the two before costs a side with no way
out (the bot's memory): its scores shift from one view to the next (a Rope on the floor is a goal, in hand it is
not), and it passed the same objects round turn after turn, each time for a gain (F17)."""
TURNED_BACK = 10.0
"""What coming back to a start position and facing its figure left this turn or the one before costs (the bot's
memory): a block's worth shifts a little with each enemy step, and a Golem on its start zone turned from a7 to a8
and back every turn for it, so its turns counted as gaining and it never grew impatient (standard mutual game 7).
A block that stops an exit (`_Seen.menace`) is worth far more."""
UNSEEN = 0.5
"""The share of an enemy's exit (`_Seen.menace`) counted when his way out crosses a face-down room: his side has to
reveal it first (an AP more, CG-REVEAL-01), and what it holds is unknown, as likely closed as open; the bot of
before took such a room as open, and blocked or hunted a runner it could not know was one."""
HUNT = 0.5
"""The share of a likely won fight's worth a figure standing in the enemy's zone counts (`_Seen.hunt`)."""
STRAY = 5.0
STRAY_CAP = 10
"""A figure with no way out is worth STRAY less a step from the nearest place where one may open (`_Seen.astray`),
counted up to STRAY_CAP steps."""
BLOCK_NEAR = 6.0
BLOCK_CAP = 3.0
"""A block (CG-BLOCK-01) counts against the enemies fewer than BLOCK_NEAR AP (two turns) from their way out: the
most AP it adds to one of them, up to BLOCK_CAP (a turn's). A farther one can be blocked when it comes; summed over
five runners, a block was worth more than any step, and two figures held their start zone for 1,000 actions while
the other side, held back, shot at them (tutorial 3 game 21)."""


@lru_cache(maxsize=4096)
def _duel(margin: int, gain: float, loss: float, mine: tuple, theirs: tuple = tuple(sorted(set(DECK))),
          rounds: int = 300) -> tuple[float, tuple]:
    """The card duel of a combat as a zero-sum game: the side `margin` ahead lays one of `mine`, the other one of
    `theirs` (both secret, CG-COMBAT-02); a win gains `gain`, a loss costs `loss`, each card laid costs CARD_COST
    a point (the other's card is as much gained). Solved by fictitious play: (the value to the bot, its mixed
    strategy as probabilities over `mine`, the rare ones left out). A bot that laid its best reply to a fixed guess
    would lay the same card in the same fight every time: its opponent would read it (bots.GreedyBot.TEAM_SLACK)."""
    pay = [[(gain if margin + a - b > 0 else -loss if margin + a - b < 0 else 0.0) - CARD_COST * (a - b)
            for b in theirs] for a in mine]
    rows = [sum(r) for r in pay]  # against their uniform start
    cols = [0.0] * len(theirs)
    mine_count = [0] * len(mine)
    their_count = [1] * len(theirs)
    for _ in range(rounds):
        i = max(range(len(mine)), key=rows.__getitem__)
        mine_count[i] += 1
        for j, v in enumerate(pay[i]):
            cols[j] += v
        j = min(range(len(theirs)), key=cols.__getitem__)
        their_count[j] += 1
        for k in range(len(mine)):
            rows[k] += pay[k][j]
    total = sum(their_count)
    q = [c / total for c in their_count]
    p = [c / rounds for c in mine_count]
    p = [x if x >= 0.04 else 0.0 for x in p]
    norm = sum(p)
    p = [x / norm for x in p]
    value = sum(p[i] * q[j] * pay[i][j] for i in range(len(mine)) for j in range(len(theirs)))
    return value, tuple(p)


_BLIND = {m: (sum(m + a - b > 0 for a in DECK for b in DECK) / len(DECK) ** 2,
              sum(m + a - b < 0 for a in DECK for b in DECK) / len(DECK) ** 2) for m in range(-15, 16)}
"""(P win, P lose) of a side `margin` ahead when both cards are drawn at random: a fight the bot may meet later."""


def _their_cards(seen) -> tuple:
    """What the opponent may lay: any card of the deck, but the +0 alone when he holds one card (CG-COMBAT-05: the
    +0 returns to its owner, the others are discarded face down, so his last card is the +0)."""
    if seen.players[seen.opp].get("cards", len(DECK)) <= 1:
        return (0,)
    return tuple(sorted(set(DECK)))


def _blind(margin: int) -> tuple[float, float]:
    return _BLIND[max(-15, min(15, margin))]


CARRY_VALUE = {"TS": 40.0, "SW": 6.0, "AR": 6.0, "BW": 10.0, "SH": 4.0, "LN": 8.0, "FB": 3.0, "IS": 1.0, "RP": 2.0,
               "KY": 2.0}
"""What carrying an object is worth (in VP/100) beyond the ways it opens (a Rope's pits, a Key's portcullises are
counted on the routes): the Treasure is a VP more when carried out (CG-OBJ-TREASURE-01), a spellcaster's Fireball
an elimination (CG-OBJ-FIREBALL-01)."""
PICK_PREFERENCE = ("SW", "TS", "BW", "AR", "FB", "LN", "RP", "KY", "SH", "IS")


class _Seen:
    """What one decision reads from the view, computed once: the figures, the maze, each figure's AP to the way out
    (`steps`), the enemies' reach (`threat`)."""

    def __init__(self, view: dict, seat: str, impatient: bool | float = False):
        self.view, self.seat = view, seat
        self.impatient = bool(impatient)
        """After IMPATIENT turns that gained nothing (GreedyBot's memory): a revealed side's wall towards a face-down
        room is a wall (else hoped open, as every border of such a room), and a danger or a block counts `risk`
        of itself: RISKED, its square after twice as many turns, and so on."""
        self.risk = 1.0 if impatient is False else RISKED if impatient is True else float(impatient)
        self.opp = "Y" if seat == "B" else "B"
        self.cat = load()
        self.maze = maze_of_view(view)
        self.figs = {f["id"]: f for f in view.get("figures", ()) if "code" in f}
        self.items = {i["id"]: i for i in view.get("items", ()) if "code" in i}
        self.players = view["players"]
        self.holder = {c: f for f in self.figs.values() for c in (f.get("carries"), f.get("also_carries")) if c}
        self._routes: dict = {}
        self._threat: dict | None = None
        self._blocked: dict = {}
        self.memo: dict = {}
        """Worths already reckoned this decision (a figure's at a place with a load, a block): the legal list names
        the same end in many ways (DT-217: once per outcome, exchanges included)."""
        self._mazes: dict = {}
        """Each maze a key of `_routes` or `memo` names by its id, held as long as they are: a maze made for one
        action (a room turned) and let go would leave its id to the next one made, whose worths would then be read
        from the first's. Which ids the allocator reuses depends on all the process did before: the same view
        and Rng chose differently from one process to the next (a clean clone's CI, -n auto)."""
        self.target = view.get("target_vp") or 99
        self.menaced: float | None = None
        """The enemies' `menaces` at the start of the bot's turn (GreedyBot's memory), for `stopped`."""

    def _held(self, maze) -> int:
        """`id(maze)` for a cache key, the maze kept alive with the cache so that its id names it alone."""
        self._mazes[id(maze)] = maze
        return id(maze)

    # -- figures ----------------------------------------------------------------------------------------------
    def carried(self, f: dict) -> list[str]:
        return [c for c in (f.get("carries"), f.get("also_carries")) if c]

    def code_of(self, item_id: str | None) -> str | None:
        if not item_id:
            return None
        if item_id in self.items:
            return self.items[item_id]["code"]
        if item_id in self.figs:
            return "wounded"
        return item_id[1:3] if item_id[1:3] in self.cat.objects else None

    def abilities(self, f: dict, carrying=None) -> frozenset:
        out = set(self.cat.characters[f["code"]].abilities)
        for item in (self.carried(f) if carrying is None else carrying):
            code = self.code_of(item)
            if code in self.cat.objects:
                out |= self.cat.objects[code].abilities
        return frozenset(out)

    def active(self, f: dict) -> bool:
        return f.get("where") in ("maze", "start") and f.get("at") is not None

    def mine(self):
        return [f for f in self.figs.values() if f.get("seat") == self.seat and self.active(f)]

    def theirs(self):
        return [f for f in self.figs.values() if f.get("seat") == self.opp and self.active(f)]

    def attack_value(self, f: dict, items=None) -> int:
        if f.get("wounded"):
            return 0
        codes = [self.code_of(i) for i in (self.carried(f) if items is None else items)]
        return self.cat.characters[f["code"]].combat + codes.count("SW")

    def defence_value(self, f: dict, items=None) -> int:
        codes = [self.code_of(i) for i in (self.carried(f) if items is None else items)]
        base = 0 if f.get("wounded") else self.cat.characters[f["code"]].combat
        return base + codes.count("AR")

    # -- routes -----------------------------------------------------------------------------------------------
    def blocked_exits(self, seat: str, without: str | None = None) -> frozenset:
        """CG-BLOCK-01: the zones an unwounded enemy of `seat` on his own start zone faces: no exit from them
        (`without`: as if that figure blocked nothing)."""
        key = (seat, without)
        if key not in self._blocked:
            self._blocked[key] = self._blocking_zones(seat, without)
        return self._blocked[key]

    def _blocking_zones(self, seat: str, without: str | None) -> frozenset:
        return frozenset(zone_from(f["facing"]) for f in self.figs.values()
                         if f.get("seat") != seat and f.get("where") == "start" and not f.get("wounded")
                         and f.get("facing") and _ZONE.match(f["facing"]) and f["id"] != without)

    def routes(self, seat: str, abilities: frozenset, move: int, maze=None, blocked=None, known=False) -> dict:
        """AP from each zone to the way out through the opponent's start zone, for a figure of `seat` with
        `abilities` and `move`: a step costs 1/move; a portcullis its Key, lock-picking or bars-bending opens, a pit
        a jump card crosses (CG-JUMP), a wall the Wall-Walker passes, cost an AP more; a face-down room is hoped
        open (UNKNOWN more), or with `known` closed (the ways sure to be there); exits the enemy blocks are closed
        (CG-BLOCK-01)."""
        maze = maze or self.maze
        blocked = self.blocked_exits(seat) if blocked is None else blocked
        key = (seat, abilities, move, self._held(maze), blocked, known)
        found = self._routes.get(key)
        if found is not None:
            return found
        jumps = self.players[seat].get("jumps", 0) > 0
        step = 1.0 / move

        strict = self.impatient

        def cost(zone, side) -> float | None:
            other = maze.step(zone, side)
            here, there = maze.is_zone(zone), other is None or maze.is_zone(other)
            if not (here and there) and known:
                return None
            if not (here and there) and not strict:
                return step + UNKNOWN
            unknown = 0.0 if here and there else UNKNOWN
            if here:  # strict: a face-down neighbour's print is unknown, the revealed side's is not
                feats = maze.features(zone, side)
            elif other is not None and there:
                feats = maze.features(other, OPPOSITE[side])
            else:
                return step + UNKNOWN
            if passable(feats, abilities):
                return step + unknown
            rest = set(feats)
            if "portcullis" in rest and abilities & {"key", "lockpick", "bend_bars"}:
                rest.discard("portcullis")
            if "pit" in rest and jumps and other is not None:
                rest.discard("pit")
            if "wall" in rest and "walk_through_walls" in abilities and other is not None:
                rest.discard("wall")
            if len(rest) == len(set(feats)) or not passable(tuple(rest), abilities):
                return None
            return step + 1.0 + unknown

        out_side = "N" if seat == "B" else "S"
        edge = maze.height - 1 if seat == "B" else 0
        dist: dict = {}
        heap: list = []
        for x in range(4):
            zone = (x, edge)
            if zone in blocked:
                continue
            c = cost(zone, out_side) if maze.is_zone(zone) else None if known else step + UNKNOWN
            if c is not None:
                heapq.heappush(heap, (c, zone))
        while heap:
            d, zone = heapq.heappop(heap)
            if zone in dist:
                continue
            dist[zone] = d
            for side in GLOBAL:
                other = maze.step(zone, side)
                if other is None or other in dist:
                    continue
                c = cost(other, OPPOSITE[side])
                if c is not None:
                    heapq.heappush(heap, (d + c, other))
        self._routes[key] = dist
        return dist

    def ap_out(self, f: dict, place: str, facing: str | None = None, carrying=None, maze=None,
               blocked=None, known=False) -> float:
        """AP from a place (`c3`, or an own start position `B1` facing `facing`) to the way out; with none, `far`
        (more than any way there is). `known`: by revealed rooms only (`routes`)."""
        found = self.way(f, place, facing, carrying, maze, blocked, known)
        far = self.far(f)
        return far if found is None else min(found, far - 0.5)

    def far(self, f: dict) -> float:
        """The AP a figure with no way out is reckoned to stand from it: FAR, or more if its moves are short: 4 AP
        more than a walk along two columns of the maze (2 x its rows zones, at its move a zone): a Golem's (move 1)
        way in a standard maze is often 12 AP, and below FAR = 8 the bot valued no way better than a long one: its
        Golem kept to its start zone for 1,000 actions (standard mutual game 7). The same for every maze a rotation
        makes, so a room turned does not move a figure with no way nearer. A longer way counts a half AP less."""
        kind = self.cat.characters[f["code"]]
        return max(FAR, 2.0 * self.maze.height / kind.move + 4.0)

    def way(self, f: dict, place: str, facing: str | None = None, carrying=None, maze=None,
            blocked=None, known=False) -> float | None:
        """AP from a place to the way out, None if it has none."""
        kind = self.cat.characters[f["code"]]
        dist = self.routes(f["seat"], self.abilities(f, carrying), kind.move, maze, blocked, known)
        step = 1.0 / kind.move
        if _ZONE.match(place):
            return dist.get(zone_from(place))
        if not _START.match(place) or place[0] != f["seat"]:
            return None
        maze = maze or self.maze
        _, col = start_from(place)
        faced = zone_from(facing) if facing and _ZONE.match(facing) else None
        best = None
        for c, extra in ((col, 0.0), (1 - col, step)):
            for z in maze.start_zones(f["seat"], c):
                if z not in dist:
                    continue
                if maze.is_zone(z) and not passable(maze.features(z, maze.start_side(f["seat"])),
                                                    self.abilities(f, carrying)):
                    continue
                turn = 0.0 if (c == col and faced == z) or c != col else step  # along the zone: faced as chosen
                here = dist[z] + step + turn + extra
                best = here if best is None else min(best, here)
        return best

    # -- the enemies' reach -------------------------------------------------------------------------------------
    def threat(self) -> dict:
        """zone -> the strongest attack an enemy can bring there next turn (two moves and an attack: CG-TURN-04's 3
        AP), over what its abilities cross."""
        if self._threat is not None:
            return self._threat
        out: dict = {}
        for e in self.theirs():
            if e.get("wounded"):
                continue
            kind = self.cat.characters[e["code"]]
            strength = self.attack_value(e)
            if kind.ranged:
                strength = max(strength, kind.ranged)
            abil = self.abilities(e)
            if e["where"] == "maze":
                start = [zone_from(e["at"])]
            else:
                start = [zone_from(e["facing"])] if e.get("facing") and _ZONE.match(e["facing"]) else []
            reach = {z: 0 for z in start}
            todo = deque(start)
            limit = 2 * kind.move
            while todo:
                zone = todo.popleft()
                if reach[zone] >= limit:
                    continue
                for side in GLOBAL:
                    other = self.maze.step(zone, side)
                    if other is None or other in reach or not self.maze.is_zone(other):
                        continue
                    if passable(self.maze.features(zone, side), abil):
                        reach[other] = reach[zone] + 1
                        todo.append(other)
            for z in reach:
                out[z] = max(out.get(z, 0), strength)
        self._threat = out
        return out

    def danger(self, f: dict, place: str, facing: str | None, carrying) -> float:
        """What standing there risks: the odds of the strongest enemy attack that can come there beating its
        defence, times the wound (and what it carries, if a Treasure)."""
        if _ZONE.match(place):
            zone = zone_from(place)
        elif facing and _ZONE.match(facing):
            zone = zone_from(facing)
        else:
            return 0.0
        strength = self.threat().get(zone)
        if strength is None:
            return 0.0
        _, lose = _blind(self.defence_value(f, carrying) - strength)
        codes = [self.code_of(i) for i in carrying]
        return lose * (WOUND + (20.0 if "TS" in codes else 0.0)) * self.risk

    def exit_worth(self, e: dict) -> float:
        """What an enemy scores by leaving the maze (CG-EXIT-01, CG-EXIT-03: a Treasure carried out a VP more), and
        the game if that is enough (CG-END-01)."""
        vp = self.cat.characters[e["code"]].exit_vp + [self.code_of(i) for i in self.carried(e)].count("TS")
        won = self.players[self.opp]["vp"] + vp >= self.target
        return VP * vp + (10 * VP if won else 0.0)

    def menace(self, e: dict, maze=None, blocked=None) -> float:
        """pt28b F7: what the enemy `e` scores next turn if it can leave by then: its way out no longer than the AP
        its side will have (its wheel, at most 3 kept, and 3 more: CG-TURN-04/05). The bot let a Paladin with the
        Treasure, a step from its start zone, walk out and win: a block, a wound, a room turned that stops him is
        worth what he would score."""
        if e.get("wounded") or not self.active(e) or e.get("seat") != self.opp:
            return 0.0
        coming = min(KEPT_AP, self.players[self.opp].get("ap", 0)) + 3
        hoped = self.ap_out(e, e["at"], e.get("facing"), None, maze, blocked)
        if hoped > coming:
            return 0.0
        if self.ap_out(e, e["at"], e.get("facing"), None, maze, blocked, known=True) <= coming:
            share = 1.0
        else:  # his way crosses a face-down room: he reveals it first (an AP, CG-REVEAL-01), and it may be closed
            share = UNSEEN if hoped + 1.0 <= coming else 0.0
        return share * self.exit_worth(e) * self.risk  # an idle bot's standoff, blocks held against blocks, wears off

    def menaces(self, maze=None) -> float:
        """The summed `menace` of the enemies (a maze remade: rooms turned, a portcullis opened)."""
        key = ("menaces", self._held(maze))
        if key not in self.memo:
            self.memo[key] = sum(self.menace(e, maze) for e in self.theirs())
        return self.memo[key]

    def stopped(self, after: float) -> float:
        """What a remade maze (`menaces` after it) is worth against the enemies' exits: all it adds is lost, but
        what it takes away counts only down to `menaced`, the menaces at its turn's start (by the bot's memory;
        else now). The enemy turns a room back: two greedy bots turned rooms A and C to and fro for 400 actions,
        each turn stopping the other's exit (tutorial 2, seed 2); a room turned in two quarters may pass by a
        greater menace and come back."""
        before = self.menaces()
        if after >= before:
            return before - after
        return max(0.0, before - max(after, before if self.menaced is None else self.menaced))

    def value(self, f: dict, place: str, facing: str | None, carrying, maze=None) -> float:
        """A figure's worth where it stands: nearer the way out is better (RUN an AP), what it carries, less the
        danger it stands in."""
        key = (f["id"], place, facing, tuple(carrying), self._held(maze))
        found = self.memo.get(key)
        if found is None:
            found = self.memo[key] = self._value(f, place, facing, carrying, maze)
        return found

    def _value(self, f: dict, place: str, facing: str | None, carrying, maze=None) -> float:
        found = self.way(f, place, facing, carrying, maze)
        out = -RUN * self.ap_out(f, place, facing, carrying, maze)
        if maze is None:
            if found is None:
                out -= self.astray(f, place, facing, carrying)
            out += self.hunt(f, place, facing, carrying)
            if self.impatient and not f.get("wounded"):
                out += self.access(f, place)
        spell = "spellcaster" in self.cat.characters[f["code"]].abilities
        for item in carrying:
            code = self.code_of(item)
            if code == "wounded":
                out += 10.0
            elif code == "FB" and spell:
                out += 30.0
            elif code == "BW" and self.cat.characters[f["code"]].ranged:
                out += 2.0
            elif code:
                out += CARRY_VALUE.get(code, 0.0)
        return out - self.danger(f, place, facing, carrying)

    def access(self, f: dict, place: str) -> float:
        """ACCESS for each card of the figure's colour (a third for the other's) lying face down in a room it could
        reveal from there (CG-REVEAL-02/03): in front of it on its start zone, or beyond a border of its zone that
        no wall, slit, portcullis or pit closes on the revealed side."""
        slots = set()
        if _START.match(place) and place[0] == f["seat"]:
            slots.add(start_slot(f["seat"], int(place[1]) - 1, self.view["length"]))
        elif _ZONE.match(place):
            zone = zone_from(place)
            for side in GLOBAL:
                other = self.maze.step(zone, side)
                if other is not None and not self.maze.is_zone(other) and not set(
                        self.maze.features(zone, side)) & {"wall", "slit", "portcullis", "pit"}:
                    slots.add(slot_of(other))
        worth = 0.0
        for slot in sorted(slots):
            room = self.view["rooms"][slot]
            if not room.get("revealed"):
                cards = room.get("face_down_cards") or []
                worth += sum(ACCESS if c == f["seat"] else ACCESS / 3 for c in cards)
        return worth

    def astray(self, f: dict, place: str, facing: str | None, carrying) -> float:
        """A figure with no way out: STRAY a step from the nearest place where something may open one (a room
        to reveal, a rotation zone, a Key or a Rope it lacks lying free or carried by a friend in the maze), by
        what it crosses, if it opens a way from there. A friend's counts as one on the floor, and one that opens no
        way (the Rope its holder, with no way, has just dropped) is none: else a Rope picked up stopped being a
        goal, one dropped became one again, and a side with no way out passed them round for the gains (F17)."""
        abil = self.abilities(f, carrying)
        key = ("astray", abil)
        dist = self.memo.get(key)
        if dist is None:
            dist = self.memo[key] = self._astray_map(abil)
        if _ZONE.match(place):
            steps = dist.get(zone_from(place))
        elif facing and _ZONE.match(facing):
            steps = dist.get(zone_from(facing))
            steps = None if steps is None else steps + 1
        else:
            steps = 2  # facing a face-down room: a reveal away
        return STRAY * min(STRAY_CAP, STRAY_CAP if steps is None else steps)

    def _astray_map(self, abil: frozenset) -> dict:
        maze = self.maze
        goals = set()
        for x in range(4):
            for y in range(maze.height):
                zone = (x, y)
                if not maze.is_zone(zone):
                    continue
                if maze.icon(zone) == "R":
                    goals.add(zone)
                for side in GLOBAL:
                    other = maze.step(zone, side)
                    if other is not None and not maze.is_zone(other) and not set(maze.features(zone, side)) & {
                            "wall", "slit", "portcullis", "pit"}:
                        goals.add(zone)
        for item in self.items.values():
            kind = self.cat.objects.get(item["code"])
            if kind is None or not kind.abilities & {"rope", "key"} or kind.abilities <= abil:
                continue
            where = None
            if item.get("where") == "floor" and _ZONE.match(item.get("at") or ""):
                where = zone_from(item["at"])
            elif item["id"] in self.holder:  # a friend hands it over where he stands (CG-ITEM-03)
                friend = self.holder[item["id"]]
                if friend.get("seat") == self.seat and friend.get("where") == "maze" and _ZONE.match(
                        friend.get("at") or ""):
                    where = zone_from(friend["at"])
            if where is not None and where in self.routes(self.seat, abil | kind.abilities, 1):
                goals.add(where)  # (one that opens no way from where it is opens none: the Rope just dropped)
        dist = {z: 0 for z in goals}
        todo = deque(goals)
        while todo:
            zone = todo.popleft()
            for side in GLOBAL:
                other = maze.step(zone, side)
                if other is not None and other not in dist and maze.is_zone(other) and passable(
                        maze.features(zone, side), abil):
                    dist[other] = dist[zone] + 1
                    todo.append(other)
        return dist

    def hunt(self, f: dict, place: str, facing: str | None, carrying) -> float:
        """What the nearest fight it would likely win is worth to a figure, HUNT of it at 0 AP, less with each AP
        it takes to get there: a wounded enemy is a VP to take (CG-COMBAT-03)."""
        if f.get("wounded"):
            return 0.0
        kind = self.cat.characters[f["code"]]
        abil = self.abilities(f, carrying)
        strength = self.attack_value(f, carrying)
        key = ("hunt", abil, kind.move, strength)
        found = self.memo.get(key)
        if found is None:
            found = self.memo[key] = self._hunt_map(abil, kind.move, strength)
        if _ZONE.match(place):
            return found.get(zone_from(place), 0.0)
        if facing and _ZONE.match(facing):
            return found.get(zone_from(facing), 0.0) * 0.8
        return 0.0

    def _hunt_map(self, abil: frozenset, move: int, strength: int) -> dict:
        out: dict = {}
        reach = move * (self.players[self.seat].get("ap", 0) - 2)
        """An enemy about to leave (`menace`) is worth his exit where a figure that has just moved there can still
        reach him and attack this turn (a move and an attack, an AP each); farther, he is gone before it comes."""
        for e in self.theirs():
            zone = e["at"] if e["where"] == "maze" else e.get("facing")  # (CG-SZ-01: from the zone it faces)
            if not zone or not _ZONE.match(zone):
                continue
            win, lose = _blind(strength - self.defence_value(e))
            worth = win * (VP if e.get("wounded") else WOUND) - lose * WOUND
            stop = win * self.menace(e)
            if worth <= 0 and not stop:
                continue
            start = zone_from(zone)
            dist = {start: 0}
            todo = deque([start])
            while todo:
                z = todo.popleft()
                here = HUNT * (worth + (stop if dist[z] <= reach else 0.0)) / (1.0 + dist[z] / move)
                if here > out.get(z, 0.0):
                    out[z] = here
                if dist[z] >= 4 * move:
                    continue
                for side in GLOBAL:
                    other = self.maze.step(z, side)
                    if other is not None and other not in dist and self.maze.is_zone(other) and passable(
                            self.maze.features(z, side), abil):
                        dist[other] = dist[z] + 1
                        todo.append(other)
        return out

    def exploring(self, seat: str) -> float:
        """The summed `astray` of the seat's figures with no way out (a rotation may bring them to a goal)."""
        total = 0.0
        for f in self.figs.values():
            if f.get("seat") != seat or not self.active(f) or f.get("wounded"):
                continue
            if self.way(f, f["at"], f.get("facing")) is None:
                total -= self.astray(f, f["at"], f.get("facing"), self.carried(f))
        return total

    def stuck(self) -> bool:
        """Whether none of the seat's unwounded figures has a way out."""
        if "stuck" not in self.memo:
            self.memo["stuck"] = all(self.way(f, f["at"], f.get("facing")) is None
                                     for f in self.mine() if not f.get("wounded"))
        return self.memo["stuck"]

    def standing(self, seat: str, maze=None, figs=None) -> float:
        """The summed AP to the way out of the seat's unwounded figures (each at most its `far`)."""
        figs = figs if figs is not None else self.figs.values()
        total = 0.0
        for f in figs:
            if f.get("seat") != seat or not self.active(f) or f.get("wounded"):
                continue
            total += self.ap_out(f, f["at"], f.get("facing"), None, maze)
        return total


class GreedyBot:
    """The card game's bot: it scores every legal action from its view (in VP, `VP` a point) and takes the best.

    It leaves by an exit whenever one is offered (CG-EXIT-01), the Goblin and a Treasure's carrier first, but its
    side's last unwounded figure only if that wins (CG-END-01: its side could never score again); it weighs
    a fight by the values in play and the duel of the two secret cards (`_duel`: what it wounds or eliminates
    against what it risks and the cards spent) and starts only those worth it; a move is worth what
    it brings its figure nearer the way out, in AP, over what its abilities, a Key, a Rope or a jump card cross
    (`_Seen.routes`), plus what it picks up, less the danger of where it ends (`_Seen.threat`); a rotation, an
    opened or bent portcullis, a smash are worth what they bring its figures nearer and the enemy's farther. Each
    action must gain something (a state's worth only grows), so it never undoes a move in a turn; it ends its turn
    when nothing gains, unless AP beyond the 3 the wheel keeps would be lost (CG-TURN-05). When it reveals a room it
    places its own characters near the way out, the enemy's far from theirs, objects nearer its figures than
    theirs (CG-REVEAL-06).

    Its secret choices stay mixed (see bots.GreedyBot.TEAM_SLACK): the start characters and their facings, the
    objects seeded, uniformly; a combat card drawn from the duel's mixed strategy (`_duel`); picks and a full
    frontal team among the near-best (PICK_SLACK).

    Its cost is one pass over the legal list, each text parsed once; what a figure is worth at a place with a load
    is reckoned once a decision (`_Seen.memo`), a room's turn once per room and way, a duel once per process
    (lru_cache), so a list of thousands of moves costs tens of milliseconds, never a call to the engine.
    """

    name = "greedy"
    PICK_SLACK = 3.0

    def __init__(self):
        self._memories: dict = {}
        """seat -> its memory (`_fresh_memory`): one instance playing both seats (tests' simulate()) plays each as
        two instances would (a server keeps one per seat)."""
        self.__dict__.update(self._fresh_memory())

    @staticmethod
    def _fresh_memory() -> dict:
        return {
            "_turn": None,  # (turn, seat) of the memory below, from the views it saw and the actions it chose
            "_left": {},  # figure -> where it stood before each of its moves this turn
            "_rotated": set(),  # (room, way) turned this turn
            "_gained": False,  # whether an action gained this turn
            "_idle": 0,  # its own turns in a row in which no action gained (IMPATIENT)
            "_given": {},  # item -> the turn one of its moves put it down or handed it over
            "_boards": [],  # the board at the start of its last LOOP turns (`_board`)
            "_faced": {},  # (figure, start position, facing) -> the turn one of its moves turned it away from it
            "_menaced": None,  # the enemies' menaces at its view of the turn's start (_Seen.stopped)
            "_visited": {},  # `_position` -> the turn it last saw it, at a decision of its own turn (REVISIT)
            "_loads": None,  # after one of its moves: who held each object it handled (None: the floor), to see
            # at its next view what it let go: dropped, handed over, or carried on and put down (not a pick-up)
        }

    def choose(self, view: dict, legal: list[str], rng: Rng) -> str:
        memory = self._memories.setdefault(view.get("viewer") or "B", self._fresh_memory())
        self.__dict__.update(memory)
        try:
            return self._choose(view, legal, rng)
        finally:
            memory.update({key: getattr(self, key) for key in memory})

    def _choose(self, view: dict, legal: list[str], rng: Rng) -> str:
        seat = view.get("viewer") or "B"
        if board_bots.building(view):
            return self._build(view, rng)
        purpose = view.get("secret") or ""
        if purpose in ("hide", "face") or view.get("phase") == "seed":
            return rng.choice(legal)  # hidden from the opponent: any is as good, none predictable
        if view.get("phase") == "select" and all(_verb(t) == "pick" for t in legal):
            return self._mixed(legal, [self._pick_score(t.split()[1]) for t in legal], self.PICK_SLACK, rng)
        if view.get("phase") == "main" and view.get("active") == seat:
            self._remember(view, seat)
        seen = _Seen(view, seat, RISKED ** (self._idle // IMPATIENT) if self._idle >= IMPATIENT else False)
        here = None
        if view.get("phase") == "main" and view.get("active") == seat:
            self._remember_loads(seen)
            if self._menaced is None:
                self._menaced = seen.menaces()
            seen.menaced = self._menaced
            here = _position(view)
        if purpose.startswith("combat") or view.get("combat") and all(
                _verb(t) in ("card", "frenzy", "mind") for t in legal):
            return self._combat_choice(seen, legal, rng)
        best, chosen, scores = None, [], {}
        for text in legal:
            score = scores[text] = self.score(seen, text)
            if best is None or score > best + 1e-9:
                best, chosen = score, [text]
            elif abs(score - best) <= 1e-9:
                chosen.append(text)
        if here is not None and best > 0 and self._visited:
            best, chosen = self._unvisited(seen, here, scores, best, chosen)
        if here is not None:
            self._visited[here] = view.get("turn") or 0
        if best <= 0 and view.get("phase") == "main" and seen.stuck() and rng.below(2):
            tries = [t for t in legal if _verb(t) in ("move", "rotate", "jump") and scores[t] > -20
                     and not _handled(t.split()) and not self._undoes(seen, t)
                     and not (here is not None and self._revisits(seen, here, t))]
            if tries:  # no way out for any of its figures, nothing gains: it tries something, as a player would
                chosen = tries
        if best > 0 and view.get("phase") == "main":
            self._gained = True
        return self._chose(seen, rng.choice(chosen))

    # -- its own turn so far (the bot's memory: what it chose, never the hidden state) ------------------------------
    def _remember(self, view: dict, seat: str) -> None:
        """A new turn of its own starts a new memory, and counts the turns in a row that gained nothing."""
        turn = (view.get("turn"), seat)
        if turn != self._turn:
            board = _board(view)
            looped = board in self._boards  # the board its turn started from two or three turns ago: a round
            self._boards = (self._boards + [board])[-LOOP:]
            if self._turn is not None:
                self._idle = 0 if self._gained and not looped else self._idle + 1
            self._turn, self._left, self._rotated, self._loads, self._gained = turn, {}, set(), None, False
            self._menaced = None
            now = view.get("turn") or 0
            self._given = {item: when for item, when in self._given.items() if when >= now - 2}
            self._faced = {spot: when for spot, when in self._faced.items() if when >= now - 2}
            self._visited = {spot: when for spot, when in self._visited.items() if when >= now - 2 * REVISIT}

    def _remember_loads(self, seen: _Seen) -> None:
        """After its own move, what its figures let go (`_given`)."""
        if self._loads is not None:  # what the move handled and did not leave with the figure that held it
            holder = {item: f["id"] for f in seen.figs.values() for item in seen.carried(f)}
            for item, before in self._loads.items():
                if holder.get(item) != before or before is None and item not in holder:
                    self._given[item] = seen.view.get("turn") or 0
            self._loads = None

    def _chose(self, seen: _Seen, text: str) -> str:
        """Notes where a figure it moves stood, what its figures carried, which way it turns a room (`_undoes`,
        `_given`)."""
        if seen.view.get("phase") != "main":
            return text
        words = text.split()
        f = seen.figs.get(words[1]) if len(words) > 1 else None
        if _verb(text) in ("move", "jump", "wallwalk") and f is not None and seen.active(f):
            self._left.setdefault(f["id"], set()).add((f["at"], f.get("facing")))
            if f.get("where") == "start" and _destination(f, words) != (f["at"], f.get("facing")):
                self._faced[(f["id"], f["at"], f.get("facing"))] = seen.view.get("turn") or 0
            handled = {w[1:].split("/")[-1] if w[0] == ">" and "/" in w else w[1:] for w in words[2:]
                       if w[0] in "+-" or w[0] == ">" and "/" in w}
            handled |= set(seen.carried(f))
            self._loads = {item: seen.holder[item]["id"] if item in seen.holder else None
                           for item in handled if not item.startswith("@")}
        elif _verb(text) == "rotate" and len(words) == 4:
            self._rotated.add((words[2], words[3]))
        return text

    def _revisits(self, seen: _Seen, here: tuple, text: str) -> bool:
        """Whether a move leads back to a position (`_position`) the bot saw at a decision of its own in its last
        REVISIT turns."""
        words = text.split()
        if _verb(text) not in ("move", "jump", "wallwalk") or len(words) < 2:
            return False
        f = seen.figs.get(words[1])
        if f is None or not seen.active(f):
            return False
        after = _moved(here, seen.figs, seen.holder, f, words)
        return after is not None and after in self._visited

    def _unvisited(self, seen: _Seen, here: tuple, scores: dict, best: float, chosen: list) -> tuple:
        """The best actions once a move back to a position seen lately (`_revisits`) counts as a gain of nothing
        (REVISITED): a side with no way out passed objects round, picked up, dropped and handed over, each time for
        a gain as its values shifted with the loads, and never grew impatient (standard mutual game 38, capped)."""
        ranked = sorted({s for s in scores.values() if s > 0}, reverse=True)
        for score in ranked:
            group = chosen if score == best else [t for t, s in scores.items() if s == score]
            fresh = [t for t in group if not self._revisits(seen, here, t)]
            for t in group:
                if t not in fresh:
                    scores[t] = REVISITED
            if fresh:
                return score, fresh
        best = max(scores.values())
        return best, [t for t, s in scores.items() if abs(s - best) <= 1e-9]

    def _undoes(self, seen: _Seen, text: str) -> bool:
        """Whether a try brings a figure back where it stood earlier this turn (or leaves it where it stands), or
        turns a room back the way it was turned this turn (pt27 F16: the Elf walked out and back)."""
        words = text.split()
        same_turn = self._turn == (seen.view.get("turn"), seen.seat)
        if _verb(text) == "rotate" and len(words) == 4:
            back = "ccw" if words[3] == "cw" else "cw"
            return same_turn and (words[2], back) in self._rotated
        f = seen.figs.get(words[1]) if len(words) > 1 else None
        if f is None or not seen.active(f):
            return False
        end = _destination(f, words)
        return end == (f["at"], f.get("facing")) or same_turn and end in self._left.get(f["id"], ())

    @staticmethod
    def _mixed(legal: list[str], scores: list[float], slack: float, rng: Rng) -> str:
        good = max(scores) - slack
        return rng.choice([t for t, s in zip(legal, scores) if s >= good])

    # -- the team ---------------------------------------------------------------------------------------------
    def _pick_score(self, code: str) -> float:
        cat = load()
        if code in cat.characters:
            kind = cat.characters[code]
            return 2.0 * kind.move + kind.combat + 2.0 * (kind.exit_vp - 1) + (2.0 if kind.ranged else 0.0)
        if code in PICK_PREFERENCE:
            return float(len(PICK_PREFERENCE) - PICK_PREFERENCE.index(code))
        return 0.0

    def _build(self, view: dict, rng: Rng) -> str:
        """CG-SEL-FULL-01: characters and objects drawn among the best liked, PICK_SLACK more than needed."""
        chosen = []
        for part in view["build"]["parts"]:
            ranked = sorted(part["values"], key=lambda v: (-self._pick_score(v), rng.below(1 << 20)))
            pool = ranked[:part["count"] + int(self.PICK_SLACK)]
            rng.shuffle(pool)
            best = set(pool[:part["count"]])
            chosen.append([v for v in part["values"] if v in best])
        return board_bots.build_text(view["build"]["parts"], chosen)

    # -- combat -----------------------------------------------------------------------------------------------
    def _stakes(self, seen: _Seen, combat: dict) -> tuple[float, float, bool]:
        """(what winning gains, what losing costs, whether the bot attacks) of the pending combat."""
        seat = seen.seat
        target = combat.get("target", "")
        attacking = target[:1].upper() != seat
        sides = combat.get("sides", {})
        shooters = set(combat.get("shooters", {}) or {})
        mine = sides.get(seat, [])
        theirs = sides.get(seen.opp, [])
        lethal_mine = any(seen.figs.get(i, {}).get("code") == "AS" for i in mine)
        lethal_theirs = any(seen.figs.get(i, {}).get("code") == "AS" for i in theirs)

        def worth(ids, lethal):
            total = 0.0
            for i in ids:
                if i in shooters:
                    continue
                f = seen.figs.get(i, {})
                total += VP if (f.get("wounded") or lethal) else WOUND
            return total

        gain = worth(theirs, lethal_mine)
        loss = worth(mine, lethal_theirs)
        return gain, loss, attacking

    def _combat_choice(self, seen: _Seen, legal: list[str], rng: Rng) -> str:
        combat = seen.view.get("combat") or {}
        gain, loss, attacking = self._stakes(seen, combat)
        totals = combat.get("totals", {})
        margin = totals.get(seen.seat, 0) - totals.get(seen.opp, 0)
        first = combat.get("first")
        theirs = DECK
        if first and first.get("seat") != seen.seat and first.get("card") is not None:
            theirs = (first["card"],)  # CG-CHAR-WMASTER-01: their card is shown
        named = (combat.get("mind") or {}).get("named")
        if named is not None and (combat.get("mind") or {}).get("by") == seen.seat:
            theirs = (named,)  # they must lay it if they hold it (CG-CHAR-TELEPATH-01): most likely they do
        cards = [t for t in legal if _verb(t) == "card"]
        if cards and len(cards) == len(legal):
            values = tuple(sum(int(w) for w in t.split()[1].split("+")) for t in cards)
            _, mix = _duel(margin, gain, loss, values, tuple(sorted(set(theirs))))
            pick = rng.below(1 << 20) / (1 << 20)
            for text, p in zip(cards, mix):
                pick -= p
                if pick < 0:
                    return text
            return next(t for t, p in zip(reversed(cards), reversed(mix)) if p > 0)
        hand = tuple(sorted(set(seen.view.get("my_cards") or [0])))
        scores = []
        for text in legal:
            verb, *words = text.split()
            if verb == "frenzy":  # CG-CHAR-BERSERK-01: two cards when they are worth it (public)
                n = int(words[0])
                options = hand if n == 1 else tuple(sorted({a + b for i, a in enumerate(hand) for b in hand[i:]}))
                scores.append(_duel(margin, gain, loss, options)[0])
            elif verb == "mind":  # CG-CHAR-TELEPATH-01: a low card named is a low card forced
                scores.append(-4.0 if words[0] == "none" else -float(words[0]))
            else:
                scores.append(-1000.0)
        return self._mixed(legal, scores, 1.5, rng)

    def _fight(self, seen: _Seen, text: str) -> float:
        """An attack or a shot: the duel's worth (`_duel`) over who fights, as the bot reckons them (CG-GROUP, CG-SZ,
        CG-RANGED: its shooters' ranged values; the Sword, the Armor, the General, the Backstabber), plus TEMPO,
        less the AP (none for the Samurai's first, CG-CHAR-SAMURAI-01)."""
        verb, attacker_id, target_id = text.split()[:3]
        a, t = seen.figs.get(attacker_id), seen.figs.get(target_id)
        if a is None or t is None:
            return 0.0
        where = t.get("at")
        here = [f for f in seen.figs.values() if seen.active(f) and f.get("at") == where]
        if _ZONE.match(where or ""):  # CG-SZ-03: the start characters facing that zone fight in it
            here += [f for f in seen.figs.values() if f.get("where") == "start" and f.get("facing") == where]
        elif t.get("where") == "start" and t.get("facing"):
            here += [f for f in seen.figs.values() if seen.active(f) and f.get("at") == t["facing"]]
        mine = [f for f in here if f["seat"] == seen.seat and not f.get("wounded")]
        theirs = [f for f in here if f["seat"] == seen.opp and (not f.get("wounded") or f["id"] == target_id)]
        ranged = verb == "shoot" or a.get("at") != where and a not in mine
        melee_mine = [f for f in mine if f["id"] != a["id"]] if ranged else mine
        if ranged:
            kind = seen.cat.characters[a["code"]]
            mine_total = kind.ranged if kind.ranged else 1
            if verb == "attack":  # a lance: the carrier's melee value
                mine_total = seen.attack_value(a)
            mine_total += sum(seen.attack_value(f) for f in melee_mine)
            if not melee_mine:
                theirs = [t]
        else:
            mine_total = sum(seen.attack_value(f) for f in mine)
        general = any(f["code"] == "GE" for f in mine) and _ZONE.match(where or "")
        if general and not ranged:
            mine_total += len(mine) - 1
        if len(mine) > 1 and not ranged:
            mine_total += 2 * sum(f["code"] == "BK" for f in mine)
        their_total = sum(seen.defence_value(f) for f in theirs)
        if len(theirs) > 1:
            their_total += 2 * sum(f["code"] == "BK" and not f.get("wounded") for f in theirs)
        lethal = any(f["code"] == "AS" for f in mine)
        gain = 0.0
        for f in theirs:
            killed = f.get("wounded") or lethal
            gain += (VP if killed else WOUND) + seen.menace(f)  # a wounded enemy acts no more: no exit (F7)
            if killed and "undead" in seen.cat.characters[f["code"]].abilities and any(
                    g["code"] == "PA" for g in mine):
                gain += VP  # CG-CHAR-PALADIN-02
        vp = seen.players[seen.seat]["vp"]
        if vp + sum(1 for f in theirs if f.get("wounded") or lethal) >= seen.target:
            gain += 10 * VP  # the win (CG-END-01)
        loss = WOUND * len(melee_mine) + (20.0 if verb == "attack" and ranged else 0.0)  # a lance breaks
        hand = tuple(sorted(set(seen.view.get("my_cards") or [0])))
        best = _duel(mine_total - their_total, gain, loss, hand, _their_cards(seen))[0]
        if best > 0:  # a fight worth nothing is no better for being there now (a shot that cannot win, F: capped)
            best += TEMPO
        free = a["code"] == "SA" and f"seasoned_fighter:{a['id']}" not in seen.view.get("used_this_turn", ())
        return best - (0.0 if free else 3.0)

    # -- moves ------------------------------------------------------------------------------------------------
    def _move(self, seen: _Seen, text: str, verb: str) -> float:
        words = text.split()
        f = seen.figs.get(words[1])
        if f is None or not seen.active(f):
            return -1.0
        loads = {f["id"]: list(seen.carried(f))}
        """What each figure the move deals with carries, as the move goes (CG-ITEM-01/03): a friend's load changed
        counts as much as the mover's, so no round of exchanges gains by itself."""
        carrying = loads[f["id"]]
        place, facing = f["at"], f.get("facing")
        for w in words[2:]:
            if w[0] == "+":
                item = w[1:]
                if item.startswith("@"):  # (secret objects: what that figure carries, unnamed)
                    item = next(iter(seen.carried(seen.figs.get(item[1:], {}))), item)

                def holder_of(item):
                    if item in seen.holder:
                        loads[seen.holder[item]["id"]] = list(seen.carried(seen.holder[item]))
                        return seen.holder[item]["id"]
                    return None

                _take(loads, f, item, holder_of)
            elif w[0] == "-":
                if w[1:] in carrying:
                    carrying.remove(w[1:])
            elif w[0] == ">":
                _give(w, loads, carrying, seen.figs, seen.carried)
            elif w[0] == "^":
                facing = w[1:]
            elif "^" in w:
                place, facing = w.split("^")
            elif _START.match(w) or _ZONE.match(w):
                place, facing = w, None
                if _START.match(w) and w[0] == seen.opp:  # CG-EXIT-01: out, and scoring
                    kind = seen.cat.characters[f["code"]]
                    codes = [seen.code_of(i) for i in carrying]
                    vp = kind.exit_vp + codes.count("TS")
                    won = seen.players[seen.seat]["vp"] + vp >= seen.target
                    if not won and not any(g["id"] != f["id"] and not g.get("wounded") for g in seen.mine()) and (
                            not self._deadlocked(seen, f)):
                        return -VP  # its side's last unwounded figure out and no win: its side can never score
                        # again, and the game ends only at a target (CG-END-01; capped: mutual 12, full 35, 37)
                    return 1000.0 + VP * vp + (10 * VP if won else 0.0) - ITEM_WORD * _handled(words)
        before = seen.value(f, f["at"], f.get("facing"), seen.carried(f))
        after = seen.value(f, place, facing, carrying)
        cost = 2.0 + ITEM_WORD * _handled(words)
        if self._faced and _START.match(place) and (f["id"], place, facing) in self._faced and (
                place, facing) != (f["at"], f.get("facing")):
            cost += TURNED_BACK  # a block's facing turned to and fro, turn after turn (standard mutual game 7)
        if self._given and any(w[0] == "+" and w[1:] in self._given for w in words[2:]) and seen.stuck():
            cost += TAKEN_BACK  # pt27 F17: its figures let it go lately; taking it again is juggling
        if verb == "jump":
            cost += 5.0 + (CARD_COST * int(words[3][1:]) if len(words) > 3 and words[3][0] == "+" else 0.0)
        friends = 0.0
        for other, held in loads.items():
            g = seen.figs.get(other)
            if other == f["id"] or g is None or g.get("seat") != seen.seat or not seen.active(g):
                continue
            friends += seen.value(g, g["at"], g.get("facing"), held) - seen.value(
                g, g["at"], g.get("facing"), seen.carried(g))
        gain = after - before + friends
        gain += self._blocking(seen, f, place, facing) - self._blocking(seen, f, f["at"], f.get("facing"))
        return gain - cost

    def _deadlocked(self, seen: _Seen, f: dict) -> bool:
        """Whether its side's last unwounded figure waits for nothing: LAST_EXIT_IDLE of its turns in a row gained
        nothing, and its leaving lets no enemy out sooner (the block it holds, CG-BLOCK-01, stops no exit: the
        enemies' `menace` the same without it). Its exit then banks its VP and ends the standoff."""
        if self._idle < LAST_EXIT_IDLE:
            return False
        freed = seen.blocked_exits(seen.opp, without=f["id"])
        return sum(seen.menace(e, blocked=freed) for e in seen.theirs()) <= seen.menaces() + 1e-9

    def _blocking(self, seen: _Seen, f: dict, place: str, facing: str | None) -> float:
        """CG-BLOCK-01: what standing on its start zone facing the zone an enemy would leave by is worth: the AP it
        adds to the enemies' ways out, over the exits the other friends block. Counted where the figure ends and
        where it stood alike, so a move off a block pays for the block it gives up (it walked out and back onto it
        turn after turn, each way scored a gain: F16)."""
        if not (_START.match(place or "") and place[0] == seen.seat and facing and _ZONE.match(facing)):
            return 0.0
        if f.get("wounded"):
            return 0.0
        key = ("block", f["id"], place, facing)
        if key not in seen.memo:
            seen.memo[key] = self._blocking_now(seen, f, zone_from(facing))
        return seen.memo[key]

    def _blocking_now(self, seen: _Seen, f: dict, zone: tuple) -> float:
        others = seen.blocked_exits(seen.opp, without=f["id"])
        if zone in others:
            return 0.0
        held, stopped = 0.0, 0.0
        for e in seen.theirs():
            if e.get("wounded"):
                continue
            before = min(seen.ap_out(e, e["at"], e.get("facing"), blocked=others), FAR)
            if before < BLOCK_NEAR:
                after = min(seen.ap_out(e, e["at"], e.get("facing"), blocked=others | {zone}), FAR)
                held = max(held, min(after - before, BLOCK_CAP))
                stopped += seen.menace(e, blocked=others) - seen.menace(e, blocked=others | {zone})
        return 0.5 * RUN * held * seen.risk + stopped

    # -- the maze -----------------------------------------------------------------------------------------------
    def _remade(self, seen: _Seen, maze) -> float:
        """What a changed maze is worth: the seat's figures nearer the way out, the enemy's farther."""
        return RUN * (seen.standing(seen.seat) - seen.standing(seen.seat, maze)) + 0.5 * RUN * (
            seen.standing(seen.opp, maze) - seen.standing(seen.opp)) + seen.stopped(seen.menaces(maze))

    def _rotation(self, seen: _Seen, text: str) -> float:
        """The best of one, two or three quarter turns that way (1 AP each, CG-ROT-01): a way out may need a half
        turn. Each further turn is scored again from where the first left, so the plan holds or improves. The
        same room turned the same way by another figure is the same maze: reckoned once."""
        key = ("rotate", *text.split()[2:])
        if key not in seen.memo:
            seen.memo[key] = self._rotation_now(seen, text)
        return seen.memo[key]

    def _rotation_now(self, seen: _Seen, text: str) -> float:
        best, view = None, seen.view
        for k in (1, 2, 3):
            view = _turned(view, text)
            after = _Seen(view, seen.seat, seen.risk if seen.impatient else False)
            mine = RUN * (seen.standing(seen.seat) - after.standing(seen.seat))
            theirs = 0.5 * RUN * (after.standing(seen.opp) - seen.standing(seen.opp))
            score = mine + theirs - 3.0 * k + after.exploring(seen.seat) - seen.exploring(seen.seat) + seen.stopped(
                after.menaces())
            best = score if best is None else max(best, score)
        return best

    def _portcullis(self, seen: _Seen, text: str) -> float:
        verb, _, where, side = text.split()
        zone, side = zone_from(where), side.upper()
        keys = frozenset(tuple(k) for k in seen.maze.portcullis_keys(zone, side))
        m = seen.maze
        if verb == "open":
            maze = type(m)(m.rooms, m.length, m.opened | keys, m.broken, m.walls_broken)
        elif verb == "close":
            maze = type(m)(m.rooms, m.length, m.opened - keys, m.broken, m.walls_broken)
        else:
            maze = type(m)(m.rooms, m.length, m.opened, m.broken | keys, m.walls_broken)
        return self._remade(seen, maze) - 3.0

    def _smash(self, seen: _Seen, text: str) -> float:
        f = seen.figs.get(text.split()[1])
        if f is None or f.get("where") != "maze":
            return -5.0
        m = seen.maze
        card = m.rooms[slot_of(zone_from(f["at"]))].card
        maze = type(m)(m.rooms, m.length, m.opened, m.broken, m.walls_broken | {card})
        return self._remade(seen, maze) - 3.0

    def _inversion(self, seen: _Seen, text: str) -> float:
        """CG-OBJ-INVERSION-01: the two rooms swapped, scored as a rotation is (`_rotation_now`), less the scroll
        spent and an AP."""
        words = text.split()
        f = seen.figs.get(words[1])
        if f is None or f.get("where") != "maze" or not f.get("at"):
            return -1.0
        there = "ABCDEFGH".find(words[2])
        here = slot_of(zone_from(f["at"]))
        if there < 0 or there >= len(seen.view["rooms"]):
            return -1.0
        after = _Seen(_inverted(seen.view, here, there), seen.seat, seen.risk if seen.impatient else False)
        mine = RUN * (seen.standing(seen.seat) - after.standing(seen.seat))
        theirs = 0.5 * RUN * (after.standing(seen.opp) - seen.standing(seen.opp))
        return mine + theirs + after.exploring(seen.seat) - seen.exploring(seen.seat) - 3.0 - CARRY_VALUE["IS"] + (
            seen.stopped(after.menaces()))

    def _levitation(self, seen: _Seen, text: str) -> float:
        """CG-CHAR-TELEKIN-01/02: an object moved from afar for 1 AP is worth what it adds to the friend it is given
        to (`_Seen.value`: a Key or a Rope opening his way, a Sword, the Treasure), less what the Telekinetic loses
        if she carried it; given to an enemy, what it adds to him is lost; dropped, only what she lost."""
        words = text.split()
        tk, item = seen.figs.get(words[1]), words[2]
        receiver = seen.figs.get(words[-1][1:]) if words[-1].startswith(">") else None
        if tk is None:
            return -1.0
        score = -3.0  # an AP
        held = seen.carried(tk)
        if item in held:
            rest = [i for i in held if i != item]
            score += seen.value(tk, tk["at"], tk.get("facing"), rest) - seen.value(tk, tk["at"], tk.get("facing"),
                                                                                    held)
        if receiver is not None and seen.active(receiver):
            own = seen.carried(receiver)
            gain = seen.value(receiver, receiver["at"], receiver.get("facing"), own + [item]) - seen.value(
                receiver, receiver["at"], receiver.get("facing"), own)
            score += gain if receiver.get("seat") == seen.seat else -gain - 10.0
        return score

    # -- placing a revealed room's cards ------------------------------------------------------------------------
    def _place(self, seen: _Seen, text: str) -> float:
        _, what, where = text.split()
        if what[1:3] in seen.cat.characters:  # (a card being placed shows only its id in the view)
            f = {"id": what, "seat": what[0].upper(), "code": what[1:3], "where": "maze", "at": where}
            ap = seen.ap_out(f, where, None, [])
            return -ap if f["seat"] == seen.seat else ap  # own near the way out, the enemy's far from theirs
        zone = zone_from(where)

        def near(seat):
            spots = [zone_from(g["at"]) for g in seen.figs.values() if g.get("seat") == seat and seen.active(g)
                     and g.get("where") == "maze" and not g.get("wounded")]
            return min((abs(s[0] - zone[0]) + abs(s[1] - zone[1]) for s in spots), default=8)
        return near(seen.opp) - near(seen.seat)

    # -- the whole ----------------------------------------------------------------------------------------------
    def score(self, seen: _Seen, text: str) -> float:
        verb = _verb(text)
        words = text.split()
        if verb in ("move", "wallwalk", "jump"):
            return self._move(seen, text, verb)
        if verb in ("attack", "shoot"):
            return self._fight(seen, text)
        if verb == "end":
            ap = seen.players[seen.seat]["ap"]
            return -min(1.5, 0.5 * max(0, ap - KEPT_AP))  # CG-TURN-05: AP beyond 3 are lost; better than nothing
        if verb == "reveal":
            return 20.0
        if verb == "place":
            return 50.0 + self._place(seen, text)
        if verb == "pass":
            return -50.0  # the revealer would place his own objects
        if verb == "rotate":
            return self._rotation(seen, text)
        if verb in ("open", "close", "bend"):
            return self._portcullis(seen, text)
        if verb == "smash":
            return self._smash(seen, text)
        if verb in ("heal", "regenerate"):
            return 35.0
        if verb == "fireball":
            target = seen.figs.get(words[2], {})
            return VP - 3.0 if target.get("seat") == seen.opp else -5 * VP
        if verb == "steal":
            item = words[2][1:] if words[2].startswith("@") else words[2]
            return 10.0 + CARRY_VALUE.get(seen.code_of(item) or "", 3.0)
        if verb == "levitate":
            return self._levitation(seen, text)
        if verb == "invert":
            return self._inversion(seen, text)
        return -1.0


BOTS = {"random": RandomBot, "greedy": GreedyBot, "planner": GreedyBot}
"""A bot kind a table may ask for in either game (protocol seat_bot): the Card Game has no planner of its own, so
a "planner" seat plays its greedy bot, the strongest it has."""
