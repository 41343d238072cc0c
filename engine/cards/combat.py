"""Combat: melee and group combat within a zone and across the start zone (CG-COMBAT, CG-GROUP, CG-SZ, CG-WOUND),
line of sight and ranged combat (CG-LOS, CG-RANGED), the combat cards and the resolution."""

from __future__ import annotations

from ..core.errors import IllegalAction
from ..core.events import event, secret_event
from .actions import Attack, CombatCard, Frenzy, MindControl, Shoot
from .catalogue import load
from .common import (_abilities, _carried_with, _char, _check_win, _enemy_unwounded, _main_checks, _need_phase,
                     _objects, _powers_count, _spend, _unseen_enemy, _use)
from .maze import GLOBAL, loc_name, slot_of, zone_name
from .setup import _must_play, _not_in_hand
from .state import CardState, Combat, Figure, SEATS, opponent, replaced

_MELEE_STOPS = frozenset({"wall", "slit", "pit", "portcullis"})  # CG-SZ-01
_SHOT_STOPS = frozenset({"wall", "slit", "portcullis"})  # DT-229: an arrow crosses a pit (CG-LOS-03)


def _faced_clear(state: CardState, f: Figure, stops: frozenset = _MELEE_STOPS):
    """The room zone a start-zone character faces, if none of `stops` lies on the border between them: for a melee
    a wall, slit, pit or closed portcullis (CG-SZ-01/02); for a shot the same but a pit (DT-229). Else None."""
    if f.where != "start" or f.facing is None:
        return None
    mz = state.maze
    z = f.facing
    if z not in mz.start_zones(f.seat, f.at) or not mz.is_zone(z):
        return None
    if set(mz.features(z, mz.start_side(f.seat))) & stops:
        return None
    return z


def _area(state: CardState, zone) -> list:
    """The characters fighting in `zone`: those in it and the start-zone characters facing it across a clear
    border (CG-SZ-03, RUL-108)."""
    return list(state.at(zone)) + [g for g in state.figures if g.where == "start" and _faced_clear(state, g) == zone]


def _facing_enemy(state: CardState, f: Figure) -> Figure | None:
    """DT-294 (CG-RANGED-05, CG-OBJ-LANCE-03): an unwounded enemy standing on its own start zone and facing `f`'s
    zone across a border melee crosses (CG-SZ-01): it fights there « comme s'ils étaient tous dans la même zone »
    (CG-SZ-03), so it is beside `f` as an enemy in that zone is. None if there is none (or `f` is not in a room)."""
    if f.where != "maze":
        return None
    return next((g for g in state.figures if g.where == "start" and g.seat != f.seat and not g.wounded
                 and _faced_clear(state, g) == f.at), None)


def _attack(state: CardState, a: Attack):
    f = _main_checks(state, a, a.figure)
    if not state.combat_on:
        raise IllegalAction("CG-TUT1-06", "no combat in this game")
    if _unseen_enemy(state, a.seat, a.target):
        raise IllegalAction("CG-COMBAT-01", "{target} is not in play", target=a.target)
    if not state.has_fig(a.target) or state.fig(a.target).seat == a.seat:
        raise IllegalAction("CG-COMBAT-01", "{target} is not an enemy character", target=a.target)
    t = state.fig(a.target)
    if t.where == "carried":  # DT-275: it lies under its carrier like an object, and dies with its defeat
        raise IllegalAction("CG-CARRY-01", "{target} is carried and cannot be attacked", target=a.target)
    if t.where not in ("maze", "start"):
        raise IllegalAction("CG-COMBAT-01", "{target} is not in play", target=a.target)
    if f.where == "start" and t.where == "start":
        raise IllegalAction("CG-SZ-01", "the attacker or its target must be in a room")
    lancer = None
    if f.where == "maze" and t.where == "maze":
        if t.at != f.at and "lance" in _abilities(state, f):  # CG-OBJ-LANCE-01/03: into the next zone
            _lance_reach(state, f, t)
            lancer = f.id
        elif t.at != f.at:
            raise IllegalAction("CG-COMBAT-01", "a melee attack targets an enemy in the attacker's zone")
        zone = t.at
    elif f.where == "maze":  # CG-SZ-01: a start-zone target facing the attacker's zone
        if _faced_clear(state, t) != f.at:
            raise IllegalAction("CG-SZ-01", "{target} does not face {at} across a clear border", target=a.target,
                                at=zone_name(f.at))
        zone = f.at
    else:  # CG-SZ-02: from one's own start zone, into the faced zone
        zone = _faced_clear(state, f)
        if zone is None or t.at != zone:
            raise IllegalAction("CG-SZ-02", "{figure} does not face {target}'s zone across a clear border",
                                figure=f.id, target=a.target)
    if a.target in state.wounded_now:
        raise IllegalAction("CG-COMBAT-06", "{target} was wounded this turn", target=a.target)
    if _free_attack(state, f):  # CG-CHAR-SAMURAI-01: once a turn, a melee for 0 AP
        new = _use(state, "seasoned_fighter", f.id)
    else:
        new = _spend(state, a.seat)
    here = _area(new, zone)
    # CG-GROUP-01: every unwounded character there takes part; CG-GROUP-03: a wounded target too
    att = tuple(sorted({g.id for g in here if g.seat == a.seat and not g.wounded} | ({lancer} if lancer else set())))
    dfd = tuple(sorted(g.id for g in here if g.seat != a.seat and (not g.wounded or g.id == a.target)))
    number = state.combats + 1
    sides = ((a.seat, att), (opponent(a.seat), dfd))
    berserk = all(len(ids) == 1 for _, ids in sides) and "frenzy" in _abilities(new, new.fig(f.id))
    combat = Combat(number, zone, a.target, sides, lancer=lancer, first=_laid_first(new, sides),
                    naming=_telepath(new, sides), announcing=a.seat if berserk else None)
    return new.but(phase="combat", combat=combat, combats=number), [
        event("attack", figure=f.id, target=a.target, zone=zone_name(zone), attackers=list(att),
              defenders=list(dfd), number=number, **({"lance": True} if lancer else {}))]


def _telepath(state: CardState, sides: tuple) -> str | None:
    """CG-CHAR-TELEPATH-01/03: in a single melee (one fighter a side) with an unwounded Telepath on one side only,
    that side names a card first; None otherwise (two cancel, a group or a shot has none)."""
    if any(len(ids) != 1 for _, ids in sides):
        return None
    seats = {seat for seat, ids in sides if "mind_control" in _abilities(state, state.fig(ids[0]))}
    return seats.pop() if len(seats) == 1 else None


def _frenzy(state: CardState, a: Frenzy):
    """CG-CHAR-BERSERK-01/02: the attacking Berserker's player announces 1 or 2 cards, in public, before anything
    else of the combat (CG-CHAR-ORDER-01)."""
    _need_phase(state, a, "combat", "CG-CHAR-BERSERK-01")
    c = state.combat
    if c.announcing != a.seat:
        raise IllegalAction("CG-CHAR-BERSERK-01", "no Berserker of yours is attacking alone now")
    if a.count not in (1, 2):  # (the notation reads only `frenzy 1` and `frenzy 2`; apply checks it too)
        raise IllegalAction("CG-CHAR-BERSERK-01", "frenzy 1 or frenzy 2")  # (the notation's words)
    if a.count == 2 and len(state.player(a.seat).cards) < 2:
        raise IllegalAction("CG-CHAR-BERSERK-01", "two cards need two cards in hand")
    new = state.but(combat=replaced(c, announcing=None, two=a.seat if a.count == 2 else None))
    return new, [event("frenzy", seat=a.seat, cards=a.count)]


def _mind(state: CardState, a: MindControl):
    _need_phase(state, a, "combat", "CG-CHAR-TELEPATH-01")
    c = state.combat
    if c.naming != a.seat:
        raise IllegalAction("CG-CHAR-TELEPATH-01", "no Telepath of yours is naming a card now")
    if a.value is not None and a.value not in range(1, 7):  # « autre que +0 »; +6 is the highest card (CG-COMP-03)
        # (the notation reads only `mind +1` to `mind +6`: apply checks it too, or a value no card has would show
        # the opponent's whole hand, CG-CHAR-TELEPATH-02, and the +0 would be named)
        raise IllegalAction("CG-CHAR-TELEPATH-01", "name a combat value from +1 to +6 (or none)")  # (Prison's)
    other = opponent(a.seat)
    named = a.value or 0
    new = state.but(combat=replaced(c, naming=None, named=named, namer=a.seat))
    if a.value is None:
        return new, [event("mind_named", seat=a.seat, value=None)]
    held = a.value in state.player(other).cards
    public = {"seat": a.seat, "value": a.value, "held": held}
    # CG-CHAR-TELEPATH-02: not held, the opponent shows his remaining cards to the Telepath's player alone
    private = {**public, **({} if held else {"hand": list(state.player(other).cards)})}
    return new, [secret_event("mind_named", a.seat, private, public)]


def _laid_first(state: CardState, sides: tuple) -> str | None:
    """CG-CHAR-WMASTER-01..03: when one side only has a Weapon Master fighting, the other lays its card first, face
    up (two cancel out; never in a ranged combat, which does not call this: not even for one fighting in melee in
    the target's zone, DT-303, where the board game's DT-302 differs)."""
    masters = {seat for seat, ids in sides for fid in ids if "combat_techniques" in _abilities(state, state.fig(fid))}
    return opponent(masters.pop()) if len(masters) == 1 else None


def _lance_reach(state: CardState, f: Figure, t: Figure) -> None:
    """CG-OBJ-LANCE-01/03: the target's zone shares a border with the carrier's, not a closed portcullis, and the
    carrier sees it (across a pit, or a slit it borders; never diagonally); no unwounded enemy beside him."""
    mz = state.maze
    if not any(mz.step(f.at, side) == t.at for side in GLOBAL):
        raise IllegalAction("CG-OBJ-LANCE-01", "{target} is not in a zone next to {figure}'s", target=t.id, figure=f.id)
    if _enemy_unwounded(state, f.at, f.seat):
        raise IllegalAction("CG-OBJ-LANCE-03", "{figure} has an enemy beside him: the lance reaches no further",
                            figure=f.id)
    beside = _facing_enemy(state, f)
    if beside is not None:  # DT-294
        raise IllegalAction("CG-OBJ-LANCE-03", "{enemy} faces {figure}'s zone from its start zone: they are in melee",
                            enemy=beside.id, figure=f.id)
    if not line_of_sight(state, f.at, t.at):
        raise IllegalAction("CG-OBJ-LANCE-01", "{figure} does not see {at}", figure=f.id, at=zone_name(t.at))


def line_of_sight(state: CardState, viewer, target) -> bool:
    """CG-LOS-01..05 (RUL-109), zone to zone: the same row or column, never diagonal; no wall or closed
    portcullis on the way, and no character in a zone between; an arrow slit only on the viewer's own zone's
    border (sight through it is one-way); pits, objects, open or broken portcullises let sight through. Only the
    zones of revealed rooms are seen or seen through. A zone sees itself."""
    mz = state.maze
    if not (mz.is_zone(viewer) and mz.is_zone(target)):
        return False
    if viewer == target:
        return True
    if viewer[0] != target[0] and viewer[1] != target[1]:
        return False  # CG-LOS-01
    if viewer[0] == target[0]:
        side = "N" if target[1] > viewer[1] else "S"
    else:
        side = "E" if target[0] > viewer[0] else "W"
    zone = viewer
    while zone != target:
        feats = set(mz.features(zone, side))
        if feats & {"wall", "portcullis"}:
            return False  # CG-LOS-02
        if "slit" in feats and zone != viewer:
            return False  # CG-LOS-04: only a slit bordering the viewer's zone is seen through
        zone = mz.step(zone, side)
        if zone is None or not mz.is_zone(zone):
            return False
        if zone != target and state.at(zone):
            return False  # CG-LOS-02: a character in between
    return True


def _free_attack(state: CardState, f: Figure) -> bool:
    """CG-CHAR-SAMURAI-01: the Samurai's melee of the turn costs no AP (not a shot)."""
    return "seasoned_fighter" in _abilities(state, f) and f"seasoned_fighter:{f.id}" not in state.used_now


def _objects_stay(st: CardState, f: Figure, zone) -> CardState:
    """The objects `f` carries stay in `zone` as it is eliminated (CG-WOUND-04); the wounded friends it carries are
    the caller's."""
    for load_id in f.carries:
        if st.has_item(load_id):
            st = st.with_item(replaced(st.item(load_id), where="floor", at=zone))
    return st


def _eliminate(st: CardState, fid: str, eliminated: list, zone=None) -> CardState:
    """`fid` is eliminated outside a combat: its object stays in its zone, a wounded friend it carries dies with it
    and that friend's object stays there too (`zone`: the carrier's); 1 VP each to the opponent of the victim's
    owner (CG-VP-02)."""
    f = st.fig(fid)
    zone = f.loc if zone is None else zone
    st = _objects_stay(st, f, zone)  # CG-CHAR-PALADIN-03: both objects stay in his zone, both wounded die
    for load_id in f.carries:
        if st.has_fig(load_id):
            st = _eliminate(st, load_id, eliminated, zone)
    f = st.fig(fid)
    st = st.with_figure(replaced(f, where="eliminated", at=None, carries=(), pin=None))
    p = st.player(opponent(f.seat))
    eliminated.append(fid)
    return st.with_player(opponent(f.seat), replaced(p, vp=p.vp + 1))


def _ranged_value(state: CardState, f: Figure) -> int | None:
    """What `f` may shoot with now (CG-RANGED-04): the Crossbowman his 3 once a turn (CG-CHAR-CROSSBOW-01), a
    carrier of a Bow 1 as often as it likes (CG-OBJ-BOW-01); None if it cannot shoot."""
    abilities = _abilities(state, f)
    if "crossbow" in abilities and f"crossbow:{f.id}" not in state.used_now:
        return _char(f).ranged
    if "bow" in abilities:
        bows = [load().objects[i.code] for i in _objects(state, f) if "bow" in load().objects[i.code].abilities]
        return bows[0].ranged
    return None


def _can_shoot_from(state: CardState, f: Figure) -> bool:
    """CG-RANGED-05 (RUL-110): in a room (lines of sight run between zones, DT-213), not beside an unwounded
    enemy: in its zone, or facing that zone from its start zone (DT-294)."""
    return f.where == "maze" and not _enemy_unwounded(state, f.at, f.seat) and _facing_enemy(state, f) is None


def _shoot(state: CardState, a: Shoot):
    f = _main_checks(state, a, a.figure)
    if not state.combat_on:
        raise IllegalAction("CG-TUT1-06", "no combat in this game")
    value = _ranged_value(state, f)
    if value is None:
        rule = "CG-CHAR-CROSSBOW-01" if "crossbow" in _abilities(state, f) else "CG-RANGED-01"
        if rule == "CG-CHAR-CROSSBOW-01":
            raise IllegalAction(rule, "{figure} has no shot left this turn", figure=f.id)
        raise IllegalAction(rule, "{figure} has neither a crossbow nor a Bow", figure=f.id)
    if f.where != "maze":
        raise IllegalAction("CG-LOS-01", "a shooter stands in a room: lines of sight run between its zones")
    if _enemy_unwounded(state, f.at, f.seat):
        raise IllegalAction("CG-RANGED-05", "{figure} shares its zone with an unwounded enemy", figure=f.id)
    if _unseen_enemy(state, a.seat, a.target):
        raise IllegalAction("CG-RANGED-02", "{target} is not in play", target=a.target)
    if not state.has_fig(a.target) or state.fig(a.target).seat == a.seat:
        raise IllegalAction("CG-RANGED-02", "{target} is not an enemy character", target=a.target)
    t = state.fig(a.target)
    if t.where == "maze":
        zone = t.at
    elif t.where == "start":  # CG-RANGED-09: it must face a zone the shooter sees, across a border an arrow
        zone = _faced_clear(state, t, _SHOT_STOPS)  # crosses: a pit does not stop it (CG-LOS-03, DT-229)
        if zone is None:
            raise IllegalAction("CG-RANGED-09", "{target} faces no zone across a clear border", target=a.target)
    elif t.where == "carried":  # DT-275
        raise IllegalAction("CG-CARRY-01", "{target} is carried and cannot be attacked", target=a.target)
    else:
        raise IllegalAction("CG-RANGED-02", "{target} is not in play", target=a.target)
    if zone == f.at:
        raise IllegalAction("CG-RANGED-05", "the target is in the shooter's own zone")
    beside = _facing_enemy(state, f)
    if beside is not None:  # DT-294: in melee with it, as with an enemy in its zone
        raise IllegalAction("CG-RANGED-05", "{enemy} faces {figure}'s zone from its start zone: they are in melee",
                            enemy=beside.id, figure=f.id)
    if not line_of_sight(state, f.at, zone):
        raise IllegalAction("CG-RANGED-09" if t.where == "start" else "CG-RANGED-02",
                            "{figure} has no line of sight to {zone}", figure=f.id, zone=loc_name(zone))
    if a.target in state.wounded_now:
        raise IllegalAction("CG-RANGED-10", "{target} was wounded this turn (CG-COMBAT-06)", target=a.target)
    if "shield" in _abilities(state, t):
        if not state.options.secret_objects:
            raise IllegalAction("CG-OBJ-SHIELD-01", "{target} carries a Large Shield: no ranged combat against it",
                                target=a.target)
        # DT-222: the shooter could not know: the shot is declared, the Shield shown, and nothing else happens
        new = _use(_spend(state, a.seat), "crossbow", *([f.id] if "crossbow" in _abilities(state, f) else []))
        return new, [event("shield_shown", figure=f.id, target=a.target, zone=zone_name(zone))]
    new = _spend(state, a.seat)
    # across a pit nobody in the faced zone fights beside the target or against it (CG-SZ-01): it stands alone
    here = _area(new, zone) if t.where == "maze" or _faced_clear(new, t) == zone else [t]
    melee = tuple(sorted(g.id for g in here if g.seat == a.seat and not g.wounded))
    # CG-RANGED-06: the attacking side's other shooters that see the target and may shoot join (RUL-113: they must);
    # one healed (or regenerated) this turn may not shoot: it does nothing else (CG-CHAR-CLERIC-01, DT-245)
    ranged = {f.id: value}
    for g in new.figures:
        if g.seat == a.seat and g.id != f.id and not g.wounded and g.id not in melee and _can_shoot_from(new, g) \
                and g.id not in new.healed_now \
                and g.at != zone and line_of_sight(new, g.at, zone):  # CG-RANGED-05: not from the target's zone
            v = _ranged_value(new, g)
            if v is not None:
                ranged[g.id] = v
    crossbows = [fid for fid in ranged if "crossbow" in _abilities(new, new.fig(fid))
                 and ranged[fid] == _char(new.fig(fid)).ranged]
    new = _use(new, "crossbow", *crossbows)  # RUL-113: taking part uses the shot
    att = tuple(sorted(set(melee) | set(ranged)))
    # the target, and its friends there only if an attacker fights there in melee
    dfd = tuple(sorted(g.id for g in here if g.seat != a.seat and (g.id == a.target or (melee and not g.wounded))))
    number = state.combats + 1
    combat = Combat(number, zone, a.target, ((a.seat, att), (opponent(a.seat), dfd)), (),
                    tuple(sorted(ranged.items())))
    return new.but(phase="combat", combat=combat, combats=number), [
        event("shoot", figure=f.id, target=a.target, zone=zone_name(zone), attackers=list(att),
              defenders=list(dfd), shooters=sorted(ranged), number=number)]


def _combat_card(state: CardState, a: CombatCard):
    c = state.combat
    if state.phase == "combat" and c.first not in (None, a.seat) and c.first not in dict(c.played):
        raise IllegalAction("CG-CHAR-WMASTER-01", "the side without the Weapon Master lays its card first, face up")
    _need_phase(state, a, "combat", "CG-COMBAT-02")
    if c.naming is not None or c.announcing is not None:  # CG-CHAR-ORDER-01: the announcement, the naming, then cards
        raise IllegalAction("CG-CHAR-ORDER-01", "first the Berserker's announcement and the Telepath's naming, "
                            "then the cards")
    if a.seat in dict(c.played):
        raise IllegalAction("CG-COMBAT-02", "your card is laid already")
    if a.value not in state.player(a.seat).cards:
        raise _not_in_hand(a.value)
    if c.named and c.named in state.player(a.seat).cards and a.seat != c.namer and c.named not in (a.value, a.second):
        raise _must_play(c.named)  # (a Berserker's two cards: one of them)
    if (a.second is not None) != (c.two == a.seat):
        raise IllegalAction("CG-CHAR-BERSERK-01", "two cards (card 3+5) for the Berserker who announced two, one "
                            "card otherwise")
    if a.second is not None and a.second < a.value:
        raise IllegalAction("CG-CHAR-BERSERK-01", "two cards, the lower first: card {low}+{high}",
                            low=a.second, high=a.value)  # one action per pair (the notation sorts them)
    if a.second is not None and sorted(state.player(a.seat).cards).count(a.second) < 1 + (a.second == a.value):
        raise IllegalAction("CG-COMBAT-02", "no second +{second} card in hand", second=a.second)
    c = state.combat
    played = c.played + ((a.seat, a.value),)
    laid = {"seat": a.seat, "value": a.value, **({"second": a.second} if a.second is not None else {})}
    if c.first == a.seat:  # CG-CHAR-WMASTER-01 (and CG-CHAR-BERSERK-02: both shown): laid face up
        events = [event("combat_card", **laid)]
    else:
        events = [secret_event("combat_card", a.seat, laid, {"seat": a.seat})]
    c = replaced(c, played=played, second=a.second if a.second is not None else c.second)
    if len(played) < 2:
        return state.but(combat=c), events
    return _resolve(state, c, events)


def _general_near(state: CardState, f: Figure) -> bool:
    """CG-CHAR-GENERAL-01/02: an unwounded friendly General other than `f`, in a room, in the room `f` is in."""
    if f.where != "maze":
        return False
    return any(g.seat == f.seat and g.id != f.id and g.where == "maze" and not g.wounded
               and "charismatic" in _abilities(state, g) and slot_of(g.at) == slot_of(f.at) for g in state.figures)


def _value(state: CardState, fid: str) -> int:
    f = state.fig(fid)
    return 0 if f.wounded else _char(f).combat  # CG-WOUND-01: a wounded character has value 0


def side_values(state: CardState, c: Combat) -> dict[str, int]:
    """Each side's total in the combat `c` before its combat cards (CG-COMBAT-03): the sum of its `side_parts`.
    The view shows them while the cards are awaited (unless objects are secret: a carried Sword or Armour would
    tell what the opponent may not see, CG-OPT-03); `_resolve` adds the cards."""
    return {seat: sum(part[2] for part in parts) for seat, parts in side_parts(state, c).items()}


def side_parts(state: CardState, c: Combat) -> dict[str, list[tuple[str, str, int]]]:
    """What makes each side's total before the cards, (figure, what, value) each: its own combat value (`value`: 0
    wounded, CG-WOUND-01), or a shooter's ranged value (`shot`, CG-RANGED-04/07, which nothing changes); Backstab
    (`backstab`, CG-CHAR-BACKSTABBER-01: +2 with a friend fighting beside her); its Swords attacking in melee
    (`sword`, CG-OBJ-SWORD-01, two add up); its Armour defending (`armor`, CG-OBJ-ARMOR-01, a wounded carrier's
    too); a General beside it (`general`, CG-CHAR-GENERAL-01/02). A part of 0 is left out but a figure's value."""
    ranged = dict(c.ranged)
    attacker = c.sides[0][0]

    def parts(fid: str, ids: tuple, seat: str) -> list[tuple[str, str, int]]:
        if fid in ranged:
            return [(fid, "shot", ranged[fid])]
        f = state.fig(fid)
        powers = _abilities(state, f)
        out = [(fid, "value", _value(state, fid))]
        if len(ids) >= 2 and "stab" in powers:
            out.append((fid, "backstab", 2))
        if seat == attacker and not ranged and "sword" in powers:
            out.append((fid, "sword", _powers_count(state, f, "sword")))
        if seat != attacker:
            out.append((fid, "armor", _powers_count(state, f, "armor")))
        if not ranged and _general_near(state, f):
            out.append((fid, "general", 1))
        return [part for part in out if part[2] or part[1] == "value"]

    return {seat: [part for fid in ids for part in parts(fid, ids, seat)] for seat, ids in c.sides}


def _resolve(state: CardState, c: Combat, events: list):
    """CG-COMBAT-02..05, CG-GROUP-02/03."""
    cards = dict(c.played)
    new = state
    laid = list(c.played) + ([(c.two, c.second)] if c.second is not None else [])  # CG-CHAR-BERSERK-01: two
    for seat, v in laid:  # CG-COMBAT-05: discarded face down; the +0 comes back
        if v != 0:
            p = new.player(seat)
            hand = list(p.cards)
            hand.remove(v)
            new = new.with_player(seat, replaced(p, cards=tuple(hand)))
    if c.second is not None:
        cards[c.two] += c.second
    ranged = dict(c.ranged)
    values = side_values(state, c)
    totals = {seat: values[seat] + cards[seat] for seat, _ in c.sides}
    (s1, ids1), (s2, ids2) = c.sides
    result = {"number": c.number, "cards": {s: cards[s] for s in SEATS}, "totals": {s: totals[s] for s in SEATS}}
    new = new.but(phase="main", combat=None)
    if totals[s1] == totals[s2]:  # CG-COMBAT-04
        events.append(event("combat", **result, winner=None, wounded=[], eliminated=[]))
        return new, events
    winner, losers = (s1, ids2) if totals[s1] > totals[s2] else (s2, ids1)
    # CG-RANGED-03: a shooter is never wounded; CG-OBJ-LANCE-02: nor is the lance's carrier, but the lance breaks
    losers = tuple(fid for fid in losers if fid not in ranged and fid != c.lancer)
    if c.lancer is not None and winner != s1:
        lancer = new.fig(c.lancer)
        lance = next(i.id for i in _objects(new, lancer) if "lance" in load().objects[i.code].abilities)
        new = new.with_item(replaced(new.item(lance), where="gone", at=None))
        new = new.with_figure(_carried_with(lancer, drop=lance))
    # CG-CHAR-ASSASSIN-01: an unwounded Assassin fighting in the zone on the winning side kills the losers there
    # (not as a shooter, nor with a Telescopic Lance from the next zone)
    lethal = any("lethal_blow" in _abilities(state, state.fig(fid)) and fid not in ranged and fid != c.lancer
                 for seat, ids in c.sides if seat == winner for fid in ids)  # DT-215: fighting in the zone
    wounded, eliminated = [], []

    def dies(st: CardState, fid: str) -> CardState:
        """`fid` is eliminated in this combat: 1 VP to the winner (CG-COMBAT-03, CG-VP-02)."""
        st = st.with_figure(replaced(st.fig(fid), where="eliminated", at=None, carries=(), pin=None))
        eliminated.append(fid)
        p = st.player(winner)
        return st.with_player(winner, replaced(p, vp=p.vp + 1))

    for fid in losers:
        f = new.fig(fid)
        zone = f.loc  # CG-WOUND-04: its objects stay where it was, its start position too (DT-210)
        for load_id in f.carries:
            if new.has_fig(load_id):  # CG-CARRY-02: a wounded friend it carried dies (CG-CHAR-PALADIN-03: both),
                new = dies(_objects_stay(new, new.fig(load_id), zone), load_id)  # its object stays (CG-WOUND-04)
            elif f.wounded or lethal:  # CG-WOUND-04: its objects stay
                new = new.with_item(replaced(new.item(load_id), where="floor", at=zone))
        f = replaced(f, carries=tuple(i.id for i in _objects(new, f)))
        if f.wounded or lethal:  # CG-COMBAT-03: a wounded loser is eliminated
            new = dies(new.with_figure(f), fid)
        else:
            new = new.with_figure(replaced(f, wounded=True, pin=None))
            wounded.append(fid)
    # CG-CHAR-PALADIN-02: 1 VP more for each undead eliminated, when an unwounded Paladin fought on the winning side
    hunters = [fid for seat, ids in c.sides if seat == winner for fid in ids
               if "undead_hunter" in _abilities(state, state.fig(fid))]
    bonus = sum("undead" in _char(new.fig(fid)).abilities for fid in eliminated) if hunters else 0
    if bonus:
        p = new.player(winner)
        new = new.with_player(winner, replaced(p, vp=p.vp + bonus))
    new = new.but(wounded_now=tuple(sorted(set(new.wounded_now) | set(wounded))))
    events.append(event("combat", **result, winner=winner, wounded=wounded, eliminated=eliminated,
                        **({"hunter_vp": bonus} if bonus else {})))
    return _check_win(new, events), events
