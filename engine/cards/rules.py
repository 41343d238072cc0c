"""The card game's `apply` and `legal_actions`: every action to the module of its rules (setup.py, rooms.py,
walk.py, combat.py, powers.py; what they share is in common.py), the end of a turn (CG-TURN, DT-239's dead game),
and the legal list, which asks `apply` of every candidate action but a move (walk.py's `_paths` lists those)."""

from __future__ import annotations

import itertools

from ..core.choice import Chained, is_lazy
from ..core.errors import IllegalAction
from ..core.events import Event, event
from .actions import (Attack, BendBars, BreakWalls, Build, CombatCard, EndTurn, Face, Fireball, Frenzy, Heal, Hide,
                      Invert, Jump, Levitate, MindControl, Move, PassPlacement, Pick, Place, Portcullis, Regenerate,
                      Remove, Reveal, Rotate, Seed, Shoot, Steal, WallWalk)
from .catalogue import load
from .combat import _attack, _combat_card, _faced_clear, _free_attack, _frenzy, _mind, _ranged_value, _shoot
from .common import MAX_AP, _abilities, _char, _check_gold, _need_phase, _objects, _tutorial
from .maze import GLOBAL, slot_of, slot_zones
from .powers import _break_walls, _fireball, _heal, _invert, _levitate, _levitations, _regenerate, _steal
from .rooms import _bend, _jump, _pass_placement, _place, _portcullis, _reveal, _rotate
from .setup import _face, _hide, _remove, _seed
from .state import CardState, Outcome, SEATS, opponent, replaced
from .walk import _move, _paths, _wall_paths, _wallwalk
from . import select


def apply(state: CardState, action) -> tuple[CardState, tuple[Event, ...]]:
    """Validate `action` completely and return the new state and its events; `state` is never changed."""
    handler = _HANDLERS.get(type(action))
    if handler is None or action.seat not in SEATS:
        raise IllegalAction("CG-TURN-01", "not an action of this game: {action}", action=repr(action))
    new, events = handler(state, action)
    _check_gold(new)
    return new, tuple(events)


def _end(state: CardState, a: EndTurn):
    _need_phase(state, a, "main", "CG-TURN-01")
    p = state.player(a.seat)
    new = state.with_player(a.seat, replaced(p, ap=min(p.ap, MAX_AP)))  # CG-TURN-05
    for f in new.figures:  # RUL-104: the MOVE-04 restriction lasts for the turn
        if f.seat == a.seat and f.pin is not None:
            new = new.with_figure(replaced(f, pin=None))
    nxt = opponent(a.seat)
    q = new.player(nxt)
    new = new.with_player(nxt, replaced(q, ap=q.ap + 3))  # CG-TURN-04
    new = new.but(active=nxt, turn=state.turn + 1, wounded_now=(), used_now=(), healed_now=())
    events = [event("turn", seat=nxt, turn=new.turn, ap=q.ap + 3, kept=min(p.ap, MAX_AP))]
    if _stuck(state, a.seat) and _stuck(new, nxt):  # DT-239: nothing can change any more
        vp = {x: new.player(x).vp for x in SEATS}
        winner = None if vp["B"] == vp["Y"] else max(vp, key=vp.get)  # as the board game's BG-END-03/04
        events.append(event("game_over", winner=winner, vp=vp, reason=DEAD))
        new = new.but(outcome=Outcome(winner, tuple(vp.items()), DEAD), phase="over")
    return new, events


DEAD = "nothing can change any more"
"""The reason of a game that ends because neither seat can ever do anything but end its turn (DT-239)."""


def _stuck(state: CardState, seat: str) -> bool:
    """DT-239: in `state` (the main phase, `seat` active), `seat` may only end its turn, and would still have
    nothing else at any later start of its turn while nothing else happens. Whatever ending turns changes must
    change no legal action: an action point left (the wheel's count matters only from 0 to 1, CG-TURN-07;
    every turn gives at least 2), no figure held by a CG-MOVE-04 pin, nobody wounded (CG-COMBAT-06), healed
    (CG-CHAR-CLERIC-01) or once-a-turn power used (CG-CHAR-CROSSBOW-01, CG-CHAR-SAMURAI-01) this turn. Nothing
    else the turn's end changes (the turn's number, whose turn, the other's wheel) is read by a legal action."""
    if state.player(seat).ap < 1 or state.wounded_now or state.healed_now or state.used_now \
            or any(f.pin is not None for f in state.figures):
        return False
    return all(isinstance(x, EndTurn) for x in _main_actions(state, seat, probe=True))


_HANDLERS = {Hide: _hide, Seed: _seed, Face: _face, EndTurn: _end, Reveal: _reveal, Place: _place, Move: _move,
             Rotate: _rotate, Jump: _jump, Portcullis: _portcullis, Attack: _attack, CombatCard: _combat_card,
             BendBars: _bend, Shoot: _shoot, Heal: _heal, Regenerate: _regenerate, Fireball: _fireball,
             Steal: _steal, WallWalk: _wallwalk, BreakWalls: _break_walls, MindControl: _mind, Frenzy: _frenzy,
             Invert: _invert, Levitate: _levitate, PassPlacement: _pass_placement, Pick: select.pick,
             Build: select.build, Remove: _remove}


def legal_actions(state: CardState, seat: str | None = None) -> list:
    """Every action `apply` accepts now, for the seats to act (or `seat` only)."""
    seats = state.to_act if seat is None else tuple(s for s in state.to_act if s == seat)
    lists = [_legal(state, s) for s in seats]
    if any(is_lazy(offered) for offered in lists):  # a full frontal team: too many to list (core/choice.py)
        return lists[0] if len(lists) == 1 else Chained(lists)
    return [a for offered in lists for a in offered]


def _accepts(state: CardState, action) -> bool:
    try:
        apply(state, action)
    except IllegalAction:
        return False
    return True


def _legal(state: CardState, seat: str) -> list:
    if state.phase == "select":
        if state.selection.mode == "full":
            return select.build_choice(state, seat)  # lazy: C(25, 6) teams times the objects (core/choice.py)
        return [Pick(seat, code) for code in select.pickable(state, seat)]
    if state.phase == "handicap":  # CG-HCAP-03
        mine = sorted(f.id for f in state.figures if f.seat == seat and f.where == "hand")
        return [Remove(seat, team) for team in itertools.combinations(mine, state.options.handicap[1])]
    if state.phase == "hide":
        mine = sorted(f.id for f in state.figures if f.seat == seat and f.where == "hand")
        n = _tutorial(state)["start_characters"]
        return [Hide(seat, tuple(zip(team, cols))) for team in itertools.combinations(mine, n)
                for cols in itertools.product((0, 1), repeat=n)]
    if state.phase == "seed":
        return [Seed(seat, c.id, s) for c in state.items + state.figures if c.seat == seat and c.where == "hand"
                for s in range(len(state.rooms)) if _accepts(state, Seed(seat, c.id, s))]
    if state.phase == "face":
        figs = sorted((f for f in state.figures if f.seat == seat and f.where == "start"), key=lambda f: f.id)
        options = [state.maze.facings_in_front(seat, f.at) for f in figs]
        return [Face(seat, tuple(zip((f.id for f in figs), zs))) for zs in itertools.product(*options)]
    if state.phase == "place":
        p = state.placement
        passing = [PassPlacement(seat)] if p.placers[0] == seat != state.active else []  # CG-OPT-02
        return [Place(seat, c, z) for c, s in zip(p.queue, p.placers) if s == seat
                for z in slot_zones(p.slot) if _accepts(state, Place(seat, c, z))] + passing
    if state.phase == "combat":
        if state.combat.announcing == seat:  # CG-CHAR-BERSERK-01: one card or two
            return [a for a in (Frenzy(seat, 1), Frenzy(seat, 2)) if _accepts(state, a)]
        if state.combat.two == seat:  # two cards: every pair the hand holds
            hand = sorted(state.player(seat).cards)
            pairs = sorted({(hand[i], hand[j]) for i in range(len(hand)) for j in range(i + 1, len(hand))})
            return [CombatCard(seat, v, w) for v, w in pairs if _accepts(state, CombatCard(seat, v, w))]
        if state.combat.naming == seat:  # CG-CHAR-TELEPATH-01: name a value, or nothing
            return [MindControl(seat, None), *(MindControl(seat, v) for v in range(1, 7))]
        return [CombatCard(seat, v) for v in sorted(set(state.player(seat).cards))
                if _accepts(state, CombatCard(seat, v))]
    if state.phase != "main":
        return []
    return list(_main_actions(state, seat))


def _main_actions(state: CardState, seat: str, probe: bool = False):
    """The main phase's legal actions of `seat` (the active seat), made one by one: `end` first, so that a caller
    that wants to know only whether there is another (DT-239: `_stuck`) stops at the first; with `probe`, a
    figure's moves are only those its search found first (`_paths`), for such a caller."""
    yield EndTurn(seat)
    if state.player(seat).ap < 1:  # only the Samurai's free melee (CG-CHAR-SAMURAI-01)
        yield from (Attack(seat, f.id, g.id) for f in state.figures if f.seat == seat
                    and f.where in ("maze", "start") and state.combat_on and _free_attack(state, f)
                    for g in state.figures if g.seat != seat and g.where in ("maze", "start")
                    and _accepts(state, Attack(seat, f.id, g.id)))
        return
    for f in state.figures:  # CG-CHAR-TROLL-01: the wounded Troll regenerates
        if f.seat == seat and f.wounded and "regeneration" in _char(f).abilities \
                and _accepts(state, Regenerate(seat, f.id)):
            yield Regenerate(seat, f.id)
    mz = state.maze
    for f in state.figures:
        if f.seat != seat or f.where not in ("maze", "start") or f.wounded or f.id in state.healed_now:
            # CG-CHAR-CLERIC-01, CG-CHAR-TROLL-02: healed (or regenerated) this turn, it does nothing else
            continue
        for s in range(len(state.rooms)):
            if not state.rooms[s].revealed and _accepts(state, Reveal(seat, f.id, s)):
                yield Reveal(seat, f.id, s)
        yield from (Move(seat, f.id, p) for p in _paths(state, f, probe))
        if state.combat_on:
            # a melee between two rooms' zones needs the same zone or a Lance (CG-COMBAT-01, CG-OBJ-LANCE-01), one
            # between two start zones is none (CG-SZ-01), and one between a start zone and a room's zone is fought
            # in the zone the start-zone character faces across a clear border (CG-SZ-01/02, `_faced_clear`):
            # `_attack` refuses the others at once, they are not tried
            apart = f.at if f.where == "maze" and "lance" not in _abilities(state, f) else None
            faced = _faced_clear(state, f) if f.where == "start" else None
            yield from (Attack(seat, f.id, g.id) for g in state.figures
                        if g.seat != seat and g.where in ("maze", "start")
                        and (g.at == faced if f.where == "start" and g.where == "maze"
                             else f.where == "maze" and _faced_clear(state, g) == f.at if g.where == "start"
                             else apart is None or g.at == apart)
                        and _accepts(state, Attack(seat, f.id, g.id)))
            if _ranged_value(state, f) is not None:
                yield from (Shoot(seat, f.id, g.id) for g in state.figures
                            if g.seat != seat and g.where in ("maze", "start")
                            and _accepts(state, Shoot(seat, f.id, g.id)))
        if "walk_through_walls" in _abilities(state, f) and f.where == "maze":
            yield from (WallWalk(seat, f.id, p) for p in _wall_paths(state, f))
        if "break_walls" in _abilities(state, f) and _accepts(state, BreakWalls(seat, f.id)):
            yield BreakWalls(seat, f.id)
        if _objects(state, f) and "spellcaster" in _abilities(state, f):
            yield from (Fireball(seat, f.id, g.id) for g in state.figures
                        if g.where == "maze" and _accepts(state, Fireball(seat, f.id, g.id)))
            yield from (Invert(seat, f.id, s) for s in range(len(state.rooms))
                        if _accepts(state, Invert(seat, f.id, s)))
        if "pickpocket" in _abilities(state, f) and not f.carries:
            if state.options.secret_objects:  # DT-222: by the holder, whose objects he does not see
                yield from (Steal(seat, f.id, "@" + g.id) for g in state.figures
                            if g.seat != seat and _accepts(state, Steal(seat, f.id, "@" + g.id)))
            else:
                yield from (Steal(seat, f.id, i.id) for i in state.items
                            if i.where == "carried" and _accepts(state, Steal(seat, f.id, i.id)))
        if "psychokinesis" in _abilities(state, f):
            yield from _levitations(state, f)
        if "heal" in _abilities(state, f):
            yield from (Heal(seat, f.id, g.id) for g in state.figures
                        if g.wounded and g.where in ("maze", "start") and _accepts(state, Heal(seat, f.id, g.id)))
        if f.where == "maze":
            # Each kind is tried (`_accepts`) only where its apply's first check passes, the same test: from a
            # rotation zone (CG-ROT-01), over a pit (CG-JUMP-02), with the bending Warrior (CG-CHAR-WARRIOR-01) or
            # a Key (CG-OBJ-KEY-01); everything else refuses at once.
            abilities = _abilities(state, f)
            if mz.icon(f.at) == "R":
                # its own room or that room's twin face up (CG-ROT-02, RUL-105), turned the way its card's arrow
                # shows unless the mover tinkers (CG-ROT-01): `_rotate` refuses the others at once
                own = slot_of(f.at)
                twin = load().twin(state.rooms[own].card)
                for s, room in enumerate(state.rooms):
                    if s != own and not (room.revealed and room.card == twin):
                        continue
                    arrow = load().rooms[room.card].arrow
                    for cw in (True, False):
                        if ("tinkering" in abilities or cw == (arrow == "cw")) \
                                and _accepts(state, Rotate(seat, f.id, s, cw)):
                            yield Rotate(seat, f.id, s, cw)
            for side in GLOBAL:
                z = mz.step(f.at, side)
                if z is not None and "pit" in mz.features(f.at, side):
                    if _accepts(state, Jump(seat, f.id, z)):
                        yield Jump(seat, f.id, z)
                    elif state.player(seat).jumps == 0:  # CG-JUMP-04
                        yield from (Jump(seat, f.id, z, v) for v in sorted(set(state.player(seat).cards))
                                    if _accepts(state, Jump(seat, f.id, z, v)))
                # bars bent or a portcullis opened or closed only where one is printed, opened only if closed and
                # closed only if open (`_bend` and `_portcullis` refuse the others at once)
                keys = mz.portcullis_keys(f.at, side) if abilities & {"bend_bars", "key", "lockpick"} else ()
                if not keys:
                    continue
                if "bend_bars" in abilities and _accepts(state, BendBars(seat, f.id, f.at, side)):
                    yield BendBars(seat, f.id, f.at, side)
                if abilities & {"key", "lockpick"}:
                    is_open = all(k in state.opened for k in keys)
                    for op in (True, False):
                        if op != is_open and _accepts(state, Portcullis(seat, f.id, f.at, side, op)):
                            yield Portcullis(seat, f.id, f.at, side, op)
