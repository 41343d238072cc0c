"""The characters' and objects' powers that are actions of their own: scrolls (fireball, inversion), the
Thief's steal, the Telekinetic's levitation, the Troll's regeneration, the Cleric's heal, the Wall-Breaker."""

from __future__ import annotations

from ..core.errors import IllegalAction, N_
from ..core.events import event
from .actions import BreakWalls, Fireball, Heal, Invert, Levitate, Regenerate, Steal
from .catalogue import load
from .combat import _eliminate, line_of_sight
from .common import (_abilities, _capacity, _carried_with, _char, _check_gold, _check_win, _enemy_character_code,
                     _hold, _lay, _main_checks, _need_phase, _objects, _secret_from, _shown, _spend, _unseen_enemy,
                     _use, parse_facing, parse_start, parse_zone, passable)
from .maze import GLOBAL, facing_name, is_icon, is_start, loc_name, slot_name, slot_of, slot_xy, start_slot, zone_name
from .setup import facing_refusal
from .state import CardState, Figure, replaced


def _break_walls(state: CardState, a: BreakWalls):
    f = _main_checks(state, a, a.figure)
    if "break_walls" not in _abilities(state, f):
        raise IllegalAction("CG-CHAR-GOLEM-01", "{figure} does not break walls", figure=f.id)
    if any(golem == f.id for _, golem in state.walls_broken):
        raise IllegalAction("CG-CHAR-GOLEM-01", "{figure} has broken walls once this game", figure=f.id)
    if f.where != "maze":
        raise IllegalAction("CG-CHAR-GOLEM-01", "he breaks the walls of the room he is in")
    card = state.rooms[slot_of(f.at)].card
    if any(c == card for c, _ in state.walls_broken):
        raise IllegalAction("CG-CHAR-GOLEM-01", "that room's walls are broken already")
    new = _spend(state, a.seat)
    new = new.but(walls_broken=tuple(sorted(new.walls_broken + ((card, f.id),))))
    return new, [event("walls_broken", figure=f.id, room=slot_name(slot_of(f.at)), card=card)]


def _scroll(state: CardState, f: Figure, power: str, rule: str, missing: str) -> str:
    """The scroll with `power` that `f` carries and may read (CG-CHAR-WIZARD-02: a spellcaster), else refused
    (`missing`: the refusal's template when he carries none)."""
    scroll = next((i.id for i in _objects(state, f) if power in load().objects[i.code].abilities), None)
    if scroll is None:
        raise IllegalAction(rule, missing, figure=f.id)
    if "spellcaster" not in _abilities(state, f):
        raise IllegalAction("CG-CHAR-WIZARD-02", "{figure} is no spellcaster: it carries the scroll but cannot "
                            "read it", figure=f.id)
    return scroll


def _read(state: CardState, f: Figure, scroll: str) -> CardState:
    """1 AP, and the single-use scroll is discarded (CG-ITEM-05)."""
    new = _spend(state, f.seat)
    new = new.with_item(replaced(new.item(scroll), where="gone", at=None))
    return new.with_figure(_carried_with(new.fig(f.id), drop=scroll))


def _fireball(state: CardState, a: Fireball):
    f = _main_checks(state, a, a.figure)
    scroll = _scroll(state, f, "fireball", "CG-OBJ-FIREBALL-01", N_("{figure} carries no Fireball Scroll"))
    if not state.has_fig(a.target) or state.fig(a.target).where != "maze" or a.target == f.id:
        raise IllegalAction("CG-OBJ-FIREBALL-01", "{target} is not another character in a zone (DT-216)",
                            target=a.target)
    t = state.fig(a.target)
    if f.where != "maze" or not line_of_sight(state, f.at, t.at):
        raise IllegalAction("CG-OBJ-FIREBALL-01", "{figure} does not see {at}", figure=f.id, at=zone_name(t.at))
    new = _read(state, f, scroll)
    eliminated: list = []
    new = _eliminate(new, t.id, eliminated)  # CG-OBJ-FIREBALL-02, CG-CHAR-TROLL-03: no combat, no regeneration
    events = [event("fireball", figure=f.id, target=t.id, zone=zone_name(t.at), eliminated=eliminated)]
    return _check_win(new, events), events


def _invert(state: CardState, a: Invert):
    """CG-OBJ-INVERSION-01 (RUL-117): the two rooms change places, keeping their orientation; what lies in them,
    the cards hidden by them and their markers (kept by card) go along, each in its own zone of the card."""
    f = _main_checks(state, a, a.figure)
    scroll = _scroll(state, f, "inversion", "CG-OBJ-INVERSION-01", N_("{figure} carries no Inversion Scroll"))
    if f.where != "maze":
        raise IllegalAction("CG-OBJ-INVERSION-01", "he reads it in a room, which is the room that moves")
    here = slot_of(f.at)
    (hx, hy), (ox, oy) = slot_xy(here), slot_xy(a.slot) if 0 <= a.slot < len(state.rooms) else (-9, -9)
    if abs(hx - ox) + abs(hy - oy) != 1:
        raise IllegalAction("CG-OBJ-INVERSION-01", "the other room lies beside his, not diagonally (CG-GOLD-05)")
    shift = {here: (2 * (ox - hx), 2 * (oy - hy)), a.slot: (2 * (hx - ox), 2 * (hy - oy))}
    swap = {here: a.slot, a.slot: here}

    def moved(zone):
        dx, dy = shift[slot_of(zone)]
        return zone[0] + dx, zone[1] + dy

    new = _read(state, f, scroll)
    rooms = list(new.rooms)
    rooms[here], rooms[a.slot] = rooms[a.slot], rooms[here]
    out = new.but(rooms=tuple(rooms))
    for g in new.figures:
        if g.where == "maze" and slot_of(g.at) in shift:
            out = out.with_figure(replaced(out.fig(g.id), at=moved(g.at)))
        elif g.where == "seeded" and g.at in swap:
            out = out.with_figure(replaced(out.fig(g.id), at=swap[g.at]))
    for i in new.items:
        if i.where == "floor" and not is_start(i.at) and slot_of(i.at) in shift:
            out = out.with_item(replaced(out.item(i.id), at=moved(i.at)))
        elif i.where == "seeded" and i.at in swap:
            out = out.with_item(replaced(out.item(i.id), at=swap[i.at]))
    # DT-260: a start-zone character faces a zone by its icon; the card now in front of it shows that icon in
    # its own place, or, face down, is pointed that icon (DT-266)
    for g in new.figures:
        front = start_slot(g.seat, g.at, new.length) if g.where == "start" else None
        if front in shift and g.facing is not None:
            icon = g.facing if is_icon(g.facing) else new.maze.icon(g.facing)
            faced = out.maze.zone_of_icon(front, icon) if out.rooms[front].revealed else icon
            out = out.with_figure(replaced(out.fig(g.id), facing=faced))
    return out, [event("inverted", figure=f.id, rooms=[slot_name(here), slot_name(a.slot)])]


def _steal(state: CardState, a: Steal):
    f = _main_checks(state, a, a.figure)
    if "pickpocket" not in _abilities(state, f):
        raise IllegalAction("CG-CHAR-PICKPOCKET-01", "{figure} does not pick pockets", figure=f.id)
    if f.carries:
        raise IllegalAction("CG-CHAR-PICKPOCKET-02", "{figure} carries something: it must drop it first, in a move",
                            figure=f.id)
    item = a.item
    if item.startswith("@"):  # DT-222: the object that character carries, unnamed (his first, for a Paladin)
        objects = _objects(state, state.fig(item[1:])) if state.has_fig(item[1:]) else []
        if not objects:
            raise IllegalAction("CG-CHAR-PICKPOCKET-01", "{holder} carries no object", holder=item[1:])
        item = objects[0].id
    elif _secret_from(state, item, a.seat):
        raise IllegalAction("CG-OPT-03", "the objects are secret: steal one by naming its holder, @HOLDER")
    if not state.has_item(item) and not _unseen_enemy(state, a.seat, item, "objects"):
        raise IllegalAction("CG-CHAR-PICKPOCKET-02", "{item} is not an object (a wounded character is not)", item=item)
    i = state.item(item) if state.has_item(item) else None  # (None: one of his objects not in the game)
    holder = state.fig(i.at) if i is not None and i.where == "carried" and state.has_fig(i.at) else None
    if holder is None or holder.seat == a.seat or holder.where != "maze" or f.where != "maze" or holder.at != f.at:
        raise IllegalAction("CG-CHAR-PICKPOCKET-01", "{item} is not carried by an enemy in {figure}'s zone",
                            item=a.item, figure=f.id)
    new = _spend(state, a.seat)
    new = new.with_figure(_carried_with(holder, drop=i.id))
    new = _hold(new, i.id, f.id)
    new = new.with_figure(_carried_with(new.fig(f.id), add=i.id))
    seen = {"figure": f.id, "victim": holder.id, "zone": zone_name(f.at)}
    return new, [_shown("stolen", a.seat, {**seen, "item": i.id},
                        seen if state.options.secret_objects else {**seen, "item": i.id})]


LEVITATION = 3  # CG-CHAR-TELEKIN-01: steps of an object she moves


def _float(state: CardState, seat: str, origin, path: tuple, item: str = "") -> tuple:
    """Where (and, on a start position, facing what) an object moved by psychokinesis from the zone `origin` along
    `path` ends (CG-CHAR-TELEKIN-01/03): 1 to 3 steps across any border a flyer crosses (pits, zones holding
    characters; not walls, slits or closed portcullises), never into a face-down room; onto `seat`'s start zone
    and along it as a character goes there (CG-START-03..06, each facing change a step), never onto the
    opponent's (DT-221)."""
    if not 1 <= len(path) <= LEVITATION:
        raise IllegalAction("CG-CHAR-TELEKIN-01", "the object moves 1 to {most} zones", most=LEVITATION)
    mz, flyer = state.maze, {"flying"}
    loc, facing = origin, None
    for tok in path:
        if is_start(loc):
            own, col = loc
            if tok.startswith("^"):  # CG-START-04 (DT-266: an icon, while the room in front is face down)
                z = parse_facing(tok[1:], "CG-START-04")
                front = mz.facings_in_front(own, col)
                if z not in front:
                    raise facing_refusal("CG-START-04", z, front, item) or IllegalAction(
                        "CG-START-04", "turn it to face another zone of the room in front")
                if z == facing:
                    raise IllegalAction("CG-START-04", "turn it to face another zone of the room in front")
                facing = z
            elif "^" in tok:  # CG-START-05
                pos, z = tok.split("^")
                s2, c2 = parse_start(pos)
                if s2 != own or c2 == col:
                    raise IllegalAction("CG-START-05", "along the start zone to the other room, facing one of its "
                                        "zones")
                z2 = parse_facing(z, "CG-START-05")
                there = mz.facings_in_front(own, c2)
                if z2 not in there:
                    raise facing_refusal("CG-START-05", z2, there, item) or IllegalAction(
                        "CG-START-05", "along the start zone to the other room, facing one of its zones")
                loc, facing = (own, c2), z2
            else:  # CG-START-03
                z = parse_zone(tok)
                if z != facing or z not in mz.start_zones(own, col) or not mz.is_zone(z) \
                        or not passable(mz.features(z, mz.start_side(own)), flyer):
                    raise IllegalAction("CG-START-03", "from the start zone only into the zone it faces")
                loc, facing = z, None
            continue
        if "^" in tok:
            raise IllegalAction("CG-START-04", "facing is chosen only on the start zone")
        target = parse_start(tok) if tok[0] in "BY" else parse_zone(tok)
        side = next((sd for sd in GLOBAL if mz.beyond(loc, sd) == target), None)
        if side is None:
            raise IllegalAction("CG-CHAR-TELEKIN-01", "{target} is not next to {loc}", target=loc_name(target),
                                loc=zone_name(loc))
        if not passable(mz.features(loc, side), flyer):
            raise IllegalAction("CG-CHAR-TELEKIN-01", "the border {loc}-{target} stops a flyer", loc=zone_name(loc),
                                target=loc_name(target))
        if is_start(target):
            if target[0] != seat:
                raise IllegalAction("CG-CHAR-TELEKIN-03", "an object does not leave by the opponent's start zone "
                                    "(DT-221)")
            loc, facing = target, loc
        elif not mz.is_zone(target):
            raise IllegalAction("CG-CHAR-TELEKIN-01", "not into a face-down room")
        else:
            loc = target
    return loc, facing


def _levitated(state: CardState, f: Figure) -> list:
    """The objects the Telekinetic `f` may move (CG-CHAR-TELEKIN-01): those lying in her room, and her own."""
    if f.where != "maze":
        return []
    return [i for i in state.items if (i.where == "floor" and not is_start(i.at) and slot_of(i.at) == slot_of(f.at))
            or (i.where == "carried" and i.at == f.id)]


def _levitate(state: CardState, a: Levitate):
    f = _main_checks(state, a, a.figure)
    if "psychokinesis" not in _abilities(state, f):
        raise IllegalAction("CG-CHAR-TELEKIN-01", "{figure} does not move objects from afar", figure=f.id)
    if state.has_fig(a.item) or _enemy_character_code(a.seat, a.item):
        raise IllegalAction("CG-CHAR-TELEKIN-03", "a wounded character is not an object: she cannot move it")
    if f.where != "maze" or a.item not in {i.id for i in _levitated(state, f)}:
        raise IllegalAction("CG-CHAR-TELEKIN-01", "{item} neither lies in her room nor is carried by her", item=a.item)
    i = state.item(a.item)
    end, _ = _float(state, a.seat, i.at if i.where == "floor" else f.at, a.path, i.id)
    new = _spend(state, a.seat)
    if i.where == "carried":
        new = new.with_figure(_carried_with(new.fig(f.id), drop=i.id))
    if a.to is None:  # CG-CHAR-TELEKIN-03: on her own start zone too, where it lies with no facing (DT-221)
        new = _lay(new, i.id, end)
    else:
        g = next((g for g in new.at(end) if g.id == a.to), None)
        if g is None:
            raise IllegalAction("CG-CHAR-TELEKIN-02", "{to} is not at {end}", to=a.to, end=loc_name(end))
        if g.wounded or g.carries or _capacity(g) == 0:  # DT-221: an unwounded character with empty hands
            raise IllegalAction("CG-CHAR-TELEKIN-02", "{to} cannot take it: it must be unwounded and carry nothing",
                                to=a.to)
        new = _hold(new, i.id, g.id).with_figure(_carried_with(g, add=i.id))
    data = {"figure": f.id, "item": i.id, "path": list(a.path), "to": a.to, "at": loc_name(end)}
    if state.options.secret_objects and i.where == "carried" and a.to is not None:
        # DT-278 (CG-OPT-03, DT-222): the object she carried goes into other hands unseen, as a pass in a move
        # does (`>friend`); the others learn that an object went, not which (it had named it to everybody)
        public = {k: v for k, v in data.items() if k != "item"}
        return new, [_shown("levitate", a.seat, data, public)]
    return new, [event("levitate", **data)]


def _levitations(state: CardState, f: Figure) -> list:
    """Every psychokinesis of `f`: per object, the shortest path to each place it can end (DT-217), dropped there
    (in a zone or on her start zone, CG-CHAR-TELEKIN-03) or given to each character there who may take it."""
    out = []
    mz = state.maze
    for i in _levitated(state, f):
        origin = i.at if i.where == "floor" else f.at
        ends: dict = {}
        level = [((), origin, None)]
        for _ in range(LEVITATION):
            deeper = []
            for path, loc, facing in level:
                if is_start(loc):
                    own, col = loc
                    toks = ["^" + facing_name(z) for z in mz.facings_in_front(own, col) if z != facing]
                    toks += [f"{own}{2 - col}^{facing_name(z)}" for z in mz.facings_in_front(own, 1 - col)]
                    toks += [zone_name(facing)] if facing is not None and not is_icon(facing) else []
                else:
                    toks = [loc_name(t) for t in (mz.beyond(loc, sd) for sd in GLOBAL) if t is not None]
                for tok in toks:
                    p = path + (tok,)
                    try:
                        end, faces = _float(state, f.seat, origin, p, i.id)
                    except IllegalAction:
                        continue
                    ends.setdefault(end, p)
                    deeper.append((p, end, faces))
            level = deeper
        for end, p in ends.items():
            out.append(Levitate(f.seat, f.id, i.id, p))
            out.extend(Levitate(f.seat, f.id, i.id, p, g.id) for g in state.at(end)
                       if not g.wounded and not g.carries and _capacity(g) > 0)
    return out


def _regenerate(state: CardState, a: Regenerate):
    _need_phase(state, a, "main", "CG-TURN-01")
    if not state.has_fig(a.figure) or state.fig(a.figure).seat != a.seat:
        raise IllegalAction("CG-AP-02", "{figure} is not yours", figure=a.figure)
    f = state.fig(a.figure)
    if "regeneration" not in _char(f).abilities:
        raise IllegalAction("CG-CHAR-TROLL-01", "{figure} does not regenerate", figure=f.id)
    if not f.wounded:
        raise IllegalAction("CG-CHAR-TROLL-01", "{figure} is not wounded", figure=f.id)
    if f.where not in ("maze", "start"):
        raise IllegalAction("CG-CHAR-TROLL-01", "{figure} regenerates lying in a zone, not carried (DT-215)",
                            figure=f.id)
    if f.id in state.wounded_now:
        raise IllegalAction("CG-CHAR-TROLL-02", "{figure} was wounded this turn", figure=f.id)
    new = _spend(state, a.seat)
    new = new.with_figure(replaced(f, wounded=False))
    new = new.but(healed_now=tuple(sorted(set(new.healed_now) | {f.id})))  # CG-CHAR-TROLL-02: nothing else
    new = _use(new, "regeneration", f.id)  # (which says why he does nothing else, not a Cleric's heal)
    _check_gold(new)
    return new, [event("regenerate", figure=f.id, zone=loc_name(f.loc))]


def _heal(state: CardState, a: Heal):
    f = _main_checks(state, a, a.figure)
    if "heal" not in _abilities(state, f):
        raise IllegalAction("CG-CHAR-CLERIC-01", "{figure} cannot heal", figure=f.id)
    if a.target == f.id:
        raise IllegalAction("CG-CHAR-CLERIC-02", "the Cleric cannot heal himself")
    if not state.has_fig(a.target) or not state.fig(a.target).wounded:
        raise IllegalAction("CG-CHAR-CLERIC-01", "{target} is not a wounded character", target=a.target)
    t = state.fig(a.target)
    if t.where == "carried" and t.at == f.id:
        raise IllegalAction("CG-CHAR-CLERIC-02", "drop the wounded character in your zone first (during a move)")
    holder = state.fig(t.at) if t.where == "carried" and state.has_fig(t.at) else None
    if holder is not None and (holder.where, holder.loc) == (f.where, f.loc):
        # DT-274: it is in his zone, under the one who carries it, and is healed only once laid down there
        raise IllegalAction("CG-CHAR-CLERIC-02", "{target} is carried by {holder}: the Cleric heals a wounded "
                            "character lying in his zone", target=t.id, holder=t.at)
    # his own zone: a zone of the maze, or the start position he stands on, where a wounded friend may lie (DT-211;
    # a start position counts as one zone, CG-START-07): DT-246
    if t.where not in ("maze", "start") or (t.where, t.loc) != (f.where, f.loc):
        raise IllegalAction("CG-CHAR-CLERIC-03", "{target} is not in {figure}'s own zone", target=a.target,
                            figure=f.id)
    new = _spend(state, a.seat)
    new = new.with_figure(replaced(t, wounded=False))
    new = new.but(healed_now=tuple(sorted(set(new.healed_now) | {t.id})))
    _check_gold(new)  # CG-GOLD-02: three of a side at most in a zone, the healed one counted
    return new, [event("heal", figure=f.id, target=t.id, zone=loc_name(t.loc))]
