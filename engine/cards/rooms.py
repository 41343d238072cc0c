"""The rooms in play: revealing one and placing its cards (CG-REVEAL), turning one (CG-ROT), the jump cards
(CG-JUMP), portcullises and bars (CG-PORT, the Troll and the Giant Bars)."""

from __future__ import annotations

from ..core.errors import IllegalAction
from ..core.events import event
from .actions import BendBars, Jump, PassPlacement, Place, Portcullis, Reveal, Rotate
from .catalogue import load
from .common import _abilities, _enemy_unwounded, _main_checks, _need_phase, _spend, passable
from .maze import GLOBAL, is_icon, is_start, rotate_zone, slot_of, slot_zones, start_slot, turn_dir, zone_name
from .state import CardState, Placement, Room, opponent, replaced


def _reveal(state: CardState, a: Reveal):
    f = _main_checks(state, a, a.figure)
    if not 0 <= a.slot < len(state.rooms):
        raise IllegalAction("CG-REVEAL-01", "no such room")
    if state.rooms[a.slot].revealed:
        raise IllegalAction("CG-REVEAL-01", "that room is already face up")
    mz = state.maze
    if f.where == "start":
        if start_slot(f.seat, f.at, state.length) != a.slot:
            raise IllegalAction("CG-REVEAL-02", "from the start zone only the room in front is in reach")
    else:
        ok = False
        for side in GLOBAL:
            other = mz.step(f.at, side)
            if other is not None and slot_of(other) == a.slot:
                feats = mz._printed(f.at, side)
                if not set(feats) & {"wall", "slit", "pit", "portcullis"}:
                    ok = True
        if not ok:
            raise IllegalAction("CG-REVEAL-03", "{figure} has no direct access to that room", figure=f.id)
    new = _spend(state, a.seat)
    rooms = list(new.rooms)
    rooms[a.slot] = Room(rooms[a.slot].card, rooms[a.slot].turns, True)
    new = new.but(rooms=tuple(rooms))
    for g in new.figures:  # DT-266: an icon pointed at the room now names the zone it lies in
        if g.where == "start" and is_icon(g.facing) and start_slot(g.seat, g.at, new.length) == a.slot:
            new = new.with_figure(replaced(g, facing=new.maze.faced_zone(g.seat, g.at, g.facing)))
    new = copies_in_order(new, a.slot)
    cards = sorted([i.id for i in new.items if i.where == "seeded" and i.at == a.slot]
                   + [g.id for g in new.figures if g.where == "seeded" and g.at == a.slot])
    # CG-REVEAL-06: the active player places all but his own objects; the opponent then places those
    own = [c for c in cards if new.has_item(c) and new.item(c).seat == a.seat]
    first = [c for c in cards if c not in own]
    queue = tuple(first + own)
    placers = tuple([a.seat] * len(first) + [opponent(a.seat)] * len(own))
    events = [event("reveal", figure=f.id, slot=a.slot, card=new.rooms[a.slot].card, turns=new.rooms[a.slot].turns,
                    cards=list(cards))]
    if queue:
        new = new.but(phase="place", placement=Placement(a.slot, queue, placers))
    return new, events


def copy_number(card_id: str) -> int:
    """Which copy of its kind an object card is: `bKY` 1, `bKY2` 2 (engine/cards/select.py)."""
    return int(card_id[3:] or 1)


def copies_in_order(state: CardState, slot: int) -> CardState:
    """DT-279 (CG-SEL-FULL-01, CG-REVEAL-05): a full frontal team is secret, and which copy of an object a card is
    would tell how many the team holds (a `bKY2` shown says that a `bKY` exists). So the objects seeded by the
    room `slot`, about to be revealed, are the lowest-numbered copies of their kind that nobody else has seen yet:
    where a lower copy still lies hidden (seeded by another room, in hand), the two cards, identical, change
    places. Their player sees their names follow; in a game whose teams are public, the copies keep their places."""
    if state.options.teams != "full":
        return state
    for item in [i for i in state.items if i.where == "seeded" and i.at == slot]:
        item = state.item(item.id)
        lower = [j for j in state.items if j.seat == item.seat and j.code == item.code and j.where in ("seeded", "hand")
                 and not (j.where == "seeded" and j.at == slot) and copy_number(j.id) < copy_number(item.id)]
        if lower:
            other = min(lower, key=lambda j: copy_number(j.id))
            state = state.with_cards({}, {item.id: replaced(item, where=other.where, at=other.at),
                                          other.id: replaced(other, where=item.where, at=item.at)})
    return state


def _place(state: CardState, a: Place):
    _need_phase(state, a, "place", "CG-REVEAL-06")
    p = state.placement
    mine = [c for c, s in zip(p.queue, p.placers) if s == a.seat and s == p.placers[0]]
    if a.card not in mine:
        raise IllegalAction("CG-REVEAL-06", "{card} is not yours to place now", card=a.card)
    if a.zone not in slot_zones(p.slot):
        raise IllegalAction("CG-REVEAL-06", "place it in a zone of the revealed room")
    if state.at(a.zone) or state.floor(a.zone):
        raise IllegalAction("CG-REVEAL-06", "at most one card per zone")
    if state.has_item(a.card):
        new = state.with_item(replaced(state.item(a.card), where="floor", at=a.zone))
    else:
        new = state.with_figure(replaced(state.fig(a.card), where="maze", at=a.zone))
    i = p.queue.index(a.card)
    queue, placers = p.queue[:i] + p.queue[i + 1:], p.placers[:i] + p.placers[i + 1:]
    if queue:
        new = new.but(placement=Placement(p.slot, queue, placers))
    else:
        new = new.but(placement=None, phase="main")
    return new, [event("place", seat=a.seat, card=a.card, zone=zone_name(a.zone))]


def _pass_placement(state: CardState, a: PassPlacement):
    """CG-OPT-02: the opponent leaves the revealer's objects to the revealer, who places them."""
    _need_phase(state, a, "place", "CG-OPT-02")
    p = state.placement
    if p.placers[0] == state.active:
        raise IllegalAction("CG-OPT-02", "only the revealer's opponent, placing his objects, leaves them to him")
    placers = tuple(state.active for _ in p.placers)
    return state.but(placement=Placement(p.slot, p.queue, placers)), [event("placement_passed", seat=a.seat)]


def _rotate(state: CardState, a: Rotate):
    f = _main_checks(state, a, a.figure)
    mz = state.maze
    if f.where != "maze" or mz.icon(f.at) != "R":
        raise IllegalAction("CG-ROT-01", "{figure} is not in a rotation zone", figure=f.id)
    own = slot_of(f.at)
    cat = load()
    if not 0 <= a.slot < len(state.rooms):
        raise IllegalAction("CG-ROT-02", "no such room")
    # one answer for a face-down room, twin or not: which face-down card is the twin is hidden
    if a.slot != own and (not state.rooms[a.slot].revealed
                          or state.rooms[a.slot].card != cat.twin(state.rooms[own].card)):
        raise IllegalAction("CG-ROT-02", "only its own room or that room's twin, face up (RUL-105)")
    card = cat.rooms[state.rooms[a.slot].card]
    if "tinkering" not in _abilities(state, f) and a.clockwise != (card.arrow == "cw"):
        raise IllegalAction("CG-ROT-01", "that room turns {arrow} only", arrow=card.arrow)
    new = _spend(state, a.seat)
    return _turn_room(new, a.slot, a.clockwise), [event("rotate", figure=f.id, slot=a.slot,
                                                        dir="cw" if a.clockwise else "ccw")]


def _turn_room(st: CardState, slot: int, cw: bool) -> CardState:
    """CG-ROT-03: characters and objects keep their zone of the card and turn with it; a start-zone character in
    front of the room keeps facing its zone too (DT-260: its card points that zone's icon at the room)."""
    rooms = list(st.rooms)
    r = rooms[slot]
    rooms[slot] = Room(r.card, (r.turns + (1 if cw else 3)) % 4, r.revealed)
    new = st.but(rooms=tuple(rooms))
    for f in st.figures:
        if f.where == "maze" and slot_of(f.at) == slot:
            pin = turn_dir(f.pin, 1 if cw else 3) if f.pin else None
            new = new.with_figure(replaced(f, at=rotate_zone(f.at, cw), pin=pin))
        elif f.where == "start" and f.facing is not None and not is_icon(f.facing) \
                and start_slot(f.seat, f.at, st.length) == slot:
            new = new.with_figure(replaced(f, facing=rotate_zone(f.facing, cw)))
    for i in st.items:
        if i.where == "floor" and not is_start(i.at) and slot_of(i.at) == slot:  # (one on a start zone stays)
            new = new.with_item(replaced(i, at=rotate_zone(i.at, cw)))
    return new


def _jump(state: CardState, a: Jump):
    f = _main_checks(state, a, a.figure)
    if f.where != "maze":
        raise IllegalAction("CG-JUMP-02", "a jump goes from a zone across a pit (DT-207)")
    p = state.player(a.seat)
    if a.card is None and p.jumps < 1:
        raise IllegalAction("CG-JUMP-01", "no jump card left (CG-JUMP-04: give up a combat card, `+N`)")
    if a.card is not None and (p.jumps > 0 or a.card == 0 or a.card not in p.cards):
        raise IllegalAction("CG-JUMP-04", "a combat card (not the +0, one in hand) stands in only when no jump card "
                            "is left")
    mz = state.maze
    side = next((s for s in GLOBAL if mz.step(f.at, s) == a.zone), None)
    if side is None or not mz.is_zone(a.zone):
        raise IllegalAction("CG-JUMP-02", "the landing zone is on the other side of a pit of its zone")
    feats = mz.features(f.at, side)
    if "pit" not in feats or not passable(tuple(x for x in feats if x != "pit"), _abilities(state, f)):
        raise IllegalAction("CG-JUMP-02", "there is no pit to jump over there (or something else blocks)")
    if f.pin is not None and side != f.pin:
        raise IllegalAction("CG-MOVE-04", "it entered a zone holding an enemy: it leaves only the way it came")
    if _enemy_unwounded(state, a.zone, a.seat):
        raise IllegalAction("CG-JUMP-03", "the landing zone holds an unwounded enemy")
    new = _spend(state, a.seat)
    p = new.player(a.seat)
    if a.card is None:
        new = new.with_player(a.seat, replaced(p, jumps=p.jumps - 1))
    else:  # CG-JUMP-04: discarded, shown to the opponent
        hand = list(p.cards)
        hand.remove(a.card)
        new = new.with_player(a.seat, replaced(p, cards=tuple(hand)))
    new = new.with_figure(replaced(new.fig(f.id), at=a.zone, pin=None))
    shown = {} if a.card is None else {"discarded": a.card}
    return new, [event("jump", figure=f.id, zone=zone_name(a.zone), jumps_left=new.player(a.seat).jumps, **shown)]


def _broken(state: CardState, key: tuple) -> bool:
    """Whether the portcullis `key` (maze.portcullis_keys) is broken: bent or burst (CG-CHAR-WARRIOR-01,
    CG-CHAR-COLOSSUS-01), or in a room whose walls the Golem broke (CG-CHAR-GOLEM-02)."""
    return key in state.broken or any(card == key[0] for card, _ in state.walls_broken)


def _portcullis(state: CardState, a: Portcullis):
    f = _main_checks(state, a, a.figure)
    if not _abilities(state, f) & {"key", "lockpick"}:
        raise IllegalAction("CG-OBJ-KEY-01", "{figure} carries no Key", figure=f.id)
    if f.where != "maze" or f.at != a.zone or a.side not in GLOBAL:
        raise IllegalAction("CG-OBJ-KEY-01", "only a portcullis on a border of its own zone")
    keys = state.maze.portcullis_keys(a.zone, a.side)
    if not keys:
        raise IllegalAction("CG-OBJ-KEY-01", "there is no portcullis there")
    if any(k in state.broken for k in keys):
        raise IllegalAction("CG-CHAR-WARRIOR-01", "a broken portcullis is never repaired")
    if any(_broken(state, k) for k in keys):  # (the room's walls lie broken: its portcullis with them)
        raise IllegalAction("CG-CHAR-GOLEM-02", "a broken portcullis is never repaired")
    is_open = all(k in state.opened for k in keys)
    if is_open == a.open:
        if is_open:
            raise IllegalAction("CG-OBJ-KEY-01", "that portcullis is already open")
        raise IllegalAction("CG-OBJ-KEY-01", "that portcullis is already closed")
    new = _spend(state, a.seat)
    opened = state.opened | set(keys) if a.open else state.opened - set(keys)
    new = new.but(opened=frozenset(opened))
    return new, [event("portcullis", figure=f.id, zone=zone_name(a.zone), side=a.side, open=a.open)]


BEND_RULES = {"CO": "CG-CHAR-COLOSSUS-01"}
"""The rule of a character's Bend bars where it is not the Warrior's: the Colossus has his own (the same words)."""


def _bend(state: CardState, a: BendBars):
    f = _main_checks(state, a, a.figure)
    if "bend_bars" not in _abilities(state, f):
        raise IllegalAction("CG-CHAR-WARRIOR-01", "{figure} cannot bend bars", figure=f.id)
    rule = BEND_RULES.get(f.code, "CG-CHAR-WARRIOR-01")  # (a Colossus was told the Warrior's rule: audit pd33)
    if f.where != "maze" or f.at != a.zone or a.side not in GLOBAL:
        raise IllegalAction(rule, "only a portcullis on a border of its own zone")
    keys = state.maze.portcullis_keys(a.zone, a.side)
    if not keys or all(k in state.broken for k in keys):
        raise IllegalAction(rule, "no portcullis left to break there")
    if all(_broken(state, k) for k in keys):  # (the Golem broke the room's walls, its portcullis with them)
        raise IllegalAction("CG-CHAR-GOLEM-02", "no portcullis left to break there")
    new = _spend(state, a.seat)
    new = new.but(broken=state.broken | frozenset(keys), opened=state.opened - frozenset(keys))
    return new, [event("bend_bars", figure=f.id, zone=zone_name(a.zone), side=a.side)]
