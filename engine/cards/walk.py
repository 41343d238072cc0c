"""A character's move (CG-MOVE, CG-START, CG-EXIT, CG-BLOCK, CG-ITEM, CG-CARRY): `_Walk` checks a path step by
step; `_paths` lists every move a character may make, with what it takes and leaves on the way; the
Wall-Walker's move through walls (CG-CHAR-WALLWALK)."""

from __future__ import annotations

from functools import lru_cache

from ..core.errors import IllegalAction
from ..core.events import event
from .actions import Move, WallWalk
from .catalogue import load
from .common import (MAX_PER_ZONE, _Cards, _abilities, _capacity, _carried_with, _char, _check_gold, _check_win,
                     _closed_border, _enemy_character_code, _enemy_unwounded, _held, _is_start_text, _laid,
                     _main_checks, _objects, _secret_from, _shown, _spend, _unseen_enemy, parse_facing, parse_start,
                     parse_zone, passable)
from .maze import GLOBAL, OPPOSITE, facing_name, is_icon, is_start, loc_name, zone_name
from .setup import facing_refusal
from .state import CardState, Figure, Item, replaced


class _Walk:
    """A move being followed token by token (shared by `apply` and the move generator)."""

    __slots__ = ("state", "fid", "seat", "loc", "facing", "mp", "restrict", "exited", "move", "shown", "told",
                 "known", "blind", "undo")

    def __init__(self, state: CardState, f: Figure):
        self.state, self.fid, self.seat = state, f.id, f.seat
        self.loc, self.facing, self.mp, self.restrict = f.loc, f.facing, 0, f.pin
        self.exited, self.move = False, _char(f).move
        self.shown: tuple = ()  # the path as the others see it (CG-OPT-03: no object taken from a holder named)
        self.told: tuple = ()  # the path as its player sees it: a give names what it gave (`>bMK/bKY`)
        self.undo: CardState | None = None  # the state before the last exchange where it stands (DT-206)
        self.known: frozenset | None = None  # the mover's abilities (`abilities`), until an exchange changes them
        self.blind = False  # DT-222: it took an object unseen (`+@holder`), which ends the move

    def copy(self) -> "_Walk":
        """A copy of every slot, assigned one by one (a loop over __slots__ cost a tenth of the move search)."""
        w = _Walk.__new__(_Walk)
        w.state, w.fid, w.seat, w.loc, w.facing = self.state, self.fid, self.seat, self.loc, self.facing
        w.mp, w.restrict, w.exited, w.move = self.mp, self.restrict, self.exited, self.move
        w.shown, w.told, w.known, w.blind, w.undo = self.shown, self.told, self.known, self.blind, self.undo
        return w

    def abilities(self) -> frozenset:
        """The mover's abilities now (`_abilities`): only an exchange (`_op`) changes them."""
        known = self.known
        if known is None:
            known = self.known = frozenset(_abilities(self.state, self.state.fig(self.fid)))
        return known

    def holders_here(self) -> list:
        """Characters here whose object the mover may take: friends (CG-ITEM-03) and wounded characters of either
        colour (CG-WOUND-03)."""
        return [g for g in self.state.at(self.loc) if g.id != self.fid and (g.seat == self.seat or g.wounded)]

    def friends_here(self) -> list:
        return [g for g in self.state.at(self.loc) if g.seat == self.seat and g.id != self.fid]

    def token(self, tok: str) -> None:
        if self.exited:
            raise IllegalAction("CG-EXIT-01", "a character that exits leaves the maze: nothing follows")
        if self.blind:  # what it may do next would depend on what it took: its player learns that after the move
            raise IllegalAction("CG-OPT-03", "an object taken unseen (+@holder) ends the move (DT-222)")
        if tok[0] in "+->":
            shown, told = self._op(tok)
            self.shown += (shown,)
            self.told += (told,)
        else:
            self._step(tok)
            self.stepped(tok)

    def stepped(self, tok: str) -> None:
        """A step (or the wall) `tok` made: in the path, and the exchanges of the place left behind are over."""
        self.shown += (tok,)
        self.told += (tok,)
        self.undo = None

    # item exchanges (CG-ITEM-01, CG-ITEM-03)
    def _op(self, tok: str) -> tuple[str, str]:
        """Apply an exchange token; what the others and its player are told of it (DT-222: `+@yMK` for an object
        taken from a character, `>bMK` for a give, when the objects are secret; else a give names what it gave,
        `>bMK/bKY`). As many as the player likes at each location visited (DT-206: « comme bon vous semble »), but
        not one that undoes the one just before it: that changes nothing, and would fill the others' log."""
        shown, tok, cards = self.exchange(tok)
        st = cards.state()
        undo = self.undo
        if undo is not None and st.figures == undo.figures and st.items == undo.items:
            raise IllegalAction("CG-ITEM-01", "{token} undoes the exchange before it (DT-206)", token=tok)
        self.undo = self.state
        self.state = st
        self.known = None  # what it carries changed, its abilities may have too (CG-ITEM-05)
        return shown, tok

    def exchange(self, tok: str) -> tuple[str, str, _Cards]:
        """The checks of an exchange token (`_op`) and the cards it changes, not yet made into a state (the move
        search makes one only for cards it has not met): (what the others are told, what its player is told,
        the cards). Only an object taken unseen marks the walk (`blind`).

        The move search (`_paths`) relies on what this reads: besides the place, the facing, the mover's card and
        the cards it carries, only the card the token names (the holder of `+@HOLDER`, the friend of `>FRIEND`),
        what that card carries and, for a card carried, its holder and what he carries; the rest of the state
        only for what no exchange changes (which cards exist, the options)."""
        st, me = self.state, self.state.fig(self.fid)
        name = tok[1:]
        here = self.loc  # a zone or a start position: objects lie on both (DT-206, DT-211)
        cap = _capacity(me)
        if tok[0] in "+>" and cap == 0:
            raise IllegalAction("CG-CHAR-GHOST-02", "{figure} carries nothing", figure=me.id)
        shown, typed = tok, name
        if tok[0] == "+" and name.startswith("@"):  # DT-222: the object a character here carries, unnamed
            holder = name[1:]
            objects = _objects(st, st.fig(holder)) if st.has_fig(holder) else []
            if not objects or holder not in {g.id for g in self.holders_here()}:
                raise IllegalAction("CG-ITEM-01", "{holder} carries no object here for {figure} to take",
                                    holder=holder, figure=me.id)
            name = objects[0].id
            self.blind = True
        elif tok[0] == "+" and _secret_from(st, name, self.seat):
            raise IllegalAction("CG-OPT-03", "the objects are secret: take one by naming its holder, +@HOLDER")
        if tok[0] == "+":
            if name in me.carries:
                raise IllegalAction("CG-ITEM-01", "{figure} carries {item} already", figure=me.id, item=name)
            if st.has_item(name):
                where, at = st.item(name).where, st.item(name).at
            elif st.has_fig(name) or _enemy_character_code(self.seat, name):
                g = st.fig(name) if st.has_fig(name) else None  # (one not in the game: the same answer)
                if g is None or g.seat != self.seat or not g.wounded or g.id == me.id:
                    raise IllegalAction("CG-CARRY-01", "only a wounded friend is carried like an object")
                where, at = ("floor" if g.where in ("maze", "start") else g.where), g.loc  # lying there
            elif _unseen_enemy(st, self.seat, name, "objects"):
                raise IllegalAction("CG-ITEM-01", "{item} is not here to take", item=name)  # as if it lay elsewhere
            else:
                raise IllegalAction("CG-ITEM-01", "no object {item}", item=name)
            if len(me.carries) < cap:
                mine = None  # a free hand: nothing is given back
            elif cap == 1:
                mine = me.carries[0]  # swapped for what it carries (CG-ITEM-03)
            else:
                # named as typed: `+@yMK` stays `+@yMK` (DT-222: what yMK carries is unseen)
                raise IllegalAction("CG-CHAR-PALADIN-01", "{figure} carries two things already: it must leave one "
                                    "first, here (-{held} +{item})", figure=me.id, held=me.carries[0], item=typed)
            cards = _Cards(st)
            if where == "floor" and at == here:
                if mine is not None:
                    cards.lay(mine, here, self.facing)
            elif where == "carried" and at in {g.id for g in self.holders_here()}:
                giver = st.fig(at)
                shown = "+@" + giver.id if st.options.secret_objects else tok
                if mine is not None and giver.seat != self.seat and not st.has_item(mine):
                    raise IllegalAction("CG-CARRY-01", "an enemy does not take your wounded character")
                if mine is not None and giver.wounded and not st.has_item(mine):  # CG-WOUND-03: its object,
                    raise IllegalAction("CG-CARRY-01", "a wounded character carries no wounded friend")  # swapped
                if mine is not None:
                    cards.hold(mine, giver.id)
                cards.load(giver.id, add=mine, drop=name)
            else:
                raise IllegalAction("CG-ITEM-01", "{item} is not here to take", item=name)
            cards.hold(name, me.id)
            cards.load(me.id, add=name, drop=mine)
        elif tok[0] == "-":
            if name not in me.carries:
                raise IllegalAction("CG-ITEM-01", "{figure} does not carry {item}", figure=me.id, item=name)
            cards = _Cards(st)
            cards.lay(name, here, self.facing)
            cards.load(me.id, drop=name)
        else:  # ">bMK" gives the only load; ">bMK/bKY" names it (a Paladin carrying two, DT-220)
            friend, _, what = name.partition("/")
            friends = {g.id: g for g in self.friends_here()}
            if friend not in friends:
                raise IllegalAction("CG-ITEM-03", "{friend} is not a friend here", friend=friend)
            taker = friends[friend]
            if _capacity(taker) == 0:
                raise IllegalAction("CG-CHAR-GHOST-02", "{friend} carries nothing", friend=friend)
            if not what:
                if len(me.carries) > 1:
                    raise IllegalAction("CG-ITEM-03", "{figure} carries two things: name the one given "
                                        "(>{friend}/{held})", figure=me.id, friend=friend, held=me.carries[0])
                what = me.carries[0] if me.carries else None
            if what is not None and what not in me.carries:
                raise IllegalAction("CG-ITEM-03", "{figure} does not carry {item}", figure=me.id, item=what)
            if what is not None and taker.wounded:  # DT-273: its object is taken or swapped, nothing is given it
                raise IllegalAction("CG-WOUND-03", "{to} cannot take it: it must be unwounded and carry nothing",
                                    to=friend)
            if what is None or len(taker.carries) >= _capacity(taker):
                raise IllegalAction("CG-ITEM-03", "give needs an object and a friend with a free hand")
            cards = _Cards(st)
            cards.hold(what, friend)
            cards.load(friend, add=what)
            cards.load(me.id, drop=what)
            tok = f">{friend}/{what}"
            shown = ">" + friend if st.options.secret_objects else tok
        return shown, tok, cards

    def _spend_mp(self) -> None:
        self.mp += 1
        if self.mp > self.move:
            raise IllegalAction("CG-MOVE-01", "{figure}'s movement is {move}: no further in one action", figure=self.fid,
                                move=self.move)

    def _step(self, tok: str) -> None:
        st, mz = self.state, self.state.maze
        if is_start(self.loc):
            seat, col = self.loc
            if tok.startswith("^"):  # CG-START-04 (DT-266: an icon, while the room in front is face down)
                z = parse_facing(tok[1:], "CG-START-04")
                front = mz.facings_in_front(seat, col)
                if z not in front:
                    raise facing_refusal("CG-START-04", z, front, self.fid) or IllegalAction(
                        "CG-START-04", "turn to face another zone of the room in front")
                if z == self.facing:
                    raise IllegalAction("CG-START-04", "turn to face another zone of the room in front")
                self._spend_mp()
                self.facing = z
            elif "^" in tok:  # CG-START-05
                pos, z = tok.split("^")
                s2, c2 = parse_start(pos)
                if s2 != seat or c2 == col:
                    raise IllegalAction("CG-START-05", "step along your start zone to the other room")
                z2 = parse_facing(z, "CG-START-05")
                there = mz.facings_in_front(seat, c2)
                if z2 not in there:
                    raise facing_refusal("CG-START-05", z2, there, self.fid) or IllegalAction(
                        "CG-START-05", "face a zone of the room you now stand in front of")
                self._spend_mp()
                self.loc, self.facing = (seat, c2), z2
            else:  # CG-START-03
                if _is_start_text(tok):  # (a start position, not a zone: it said « not a zone: 'B2' », CG-MOVE-02)
                    s2, c2 = parse_start(tok)
                    if s2 == seat and c2 != col:  # a step along names the zone faced there
                        raise IllegalAction("CG-START-05", "along the start zone to the other room, facing one of its "
                                            "zones")
                    raise IllegalAction("CG-START-03", "enter only the zone you face")
                z = parse_zone(tok)
                if is_icon(self.facing):  # DT-266: the room in front is face down
                    raise IllegalAction("CG-START-03", "it faces an icon of a face-down room: reveal the room first")
                if z != self.facing:
                    if z in mz.facings_in_front(seat, col) and z in mz.start_zones(seat, col) and mz.is_zone(z):
                        # (a newcomer refused this tried three other moves and spent a point turning towards an
                        # arrow slit before he found the one that works: play-test pt29 F21)
                        if self.facing not in mz.start_zones(seat, col) or not mz.is_zone(self.facing):
                            # (facing a zone he cannot enter, play-test pl31 read "enter only the zone you face
                            # (a2)", typed `move bMK a2` and read that a2 does not touch the start zone)
                            raise IllegalAction("CG-START-03", "you face {facing}, which does not touch your start "
                                                "zone: turn and enter in one move, `move {figure} ^{zone} {zone}`",
                                                facing=facing_name(self.facing), figure=self.fid, zone=zone_name(z))
                        raise IllegalAction("CG-START-03", "enter only the zone you face ({facing}): turn and enter in "
                                            "one move, `move {figure} ^{zone} {zone}`", facing=facing_name(self.facing),
                                            figure=self.fid, zone=zone_name(z))
                    raise IllegalAction("CG-START-03", "enter only the zone you face")
                if z not in mz.start_zones(seat, col) or not mz.is_zone(z):
                    raise IllegalAction("CG-START-03", "that zone does not touch the start zone (or is face down)")
                if not passable(feats := mz.features(z, mz.start_side(seat)), self.abilities()):
                    raise _closed_border("CG-START-03", feats, self.abilities(), loc_name(self.loc), zone_name(z))
                self._spend_mp()
                self._enter(z, mz.start_side(seat))
            return
        zone = self.loc
        if tok.startswith("^") or "^" in tok:
            raise IllegalAction("CG-START-04", "facing is chosen only on the start zone")
        if tok[0] in "BY":
            target = parse_start(tok)
        else:
            target = parse_zone(tok)
        side = next((s for s in GLOBAL if mz.beyond(zone, s) == target), None)
        if side is None:
            raise IllegalAction("CG-MOVE-02", "{target} is not next to {zone}", target=loc_name(target),
                                zone=zone_name(zone))
        if self.restrict is not None and side != self.restrict:
            raise IllegalAction("CG-MOVE-04", "it entered a zone holding an enemy: it leaves only the way it came")
        if not passable(feats := mz.features(zone, side), self.abilities()):
            raise _closed_border("CG-MOVE-06", feats, self.abilities(), zone_name(zone), loc_name(target))
        if is_start(target):
            tseat, tcol = target
            if tseat == self.seat:  # CG-START-06
                self._spend_mp()
                self.loc, self.facing, self.restrict = target, zone, None
            else:  # CG-EXIT-01, CG-BLOCK-01
                if any(g.seat == tseat and not g.wounded and g.facing == zone for g in st.at(target)):
                    raise IllegalAction("CG-BLOCK-01", "an enemy on its start zone blocks the exit from {zone}",
                                        zone=zone_name(zone))
                self._spend_mp()
                self.loc, self.exited = target, True
            return
        if not mz.is_zone(target):
            raise IllegalAction("CG-MOVE-02", "a face-down room has to be revealed first")
        self._spend_mp()
        self._enter(target, OPPOSITE[side])

    def through_wall(self, target) -> None:
        """CG-CHAR-WALLWALKER-01/03: across the wall beside her into the zone beyond (not a closed portcullis, not
        into a face-down room). Her power passes the wall only: what else the border carries (DT-202: both rooms'
        prints) she must pass as she would in a move, a pit with a Rope, as a jumper does (DT-207, DT-230)."""
        mz = self.state.maze
        side = next((s for s in GLOBAL if mz.step(self.loc, s) == target), None) if not is_start(self.loc) else None
        if side is None:
            raise IllegalAction("CG-CHAR-WALLWALKER-01", "{target} is not beside her", target=loc_name(target))
        feats = mz.features(self.loc, side)
        if "portcullis" in feats:
            raise IllegalAction("CG-CHAR-WALLWALKER-03", "she does not pass a closed portcullis")
        if "wall" not in feats:
            raise IllegalAction("CG-CHAR-WALLWALKER-01", "there is no wall there: that is a move")
        beyond_wall = tuple(x for x in feats if x != "wall")
        if not passable(beyond_wall, self.abilities()):  # DT-230: a pit beside the wall
            raise _closed_border("CG-CHAR-WALLWALKER-01", beyond_wall, self.abilities(), zone_name(self.loc),
                                 loc_name(target))
        if self.restrict is not None and side != self.restrict:  # DT-207: as a jump does
            raise IllegalAction("CG-MOVE-04", "it entered a zone holding an enemy: it leaves only the way it came")
        if not mz.is_zone(target):
            raise IllegalAction("CG-CHAR-WALLWALKER-03", "she does not reveal a room through a wall")
        self._enter(target, OPPOSITE[side])  # CG-MOVE-04: an enemy there holds her to the wall she came through

    def _enter(self, zone, back_side: str) -> None:
        self.loc, self.facing = zone, None
        # CG-MOVE-04: an unwounded enemy here: leave only through the border it came by
        me = self.state.fig(self.fid)
        flying = bool(self.abilities() & {"flying", "incorporeal"})  # CG-CHAR-WIZARD-01, -GHOST-01: enemies too
        self.restrict = back_side if not flying and _enemy_unwounded(self.state, zone, self.seat, me) else None

    def finish(self) -> tuple[CardState, list]:
        st = self.state
        f = st.fig(self.fid)
        events = []
        if self.exited:
            cat = load()
            vp = cat.characters[f.code].exit_vp
            # what it carries, and what a wounded friend it carries holds (DT-225), is carried out with it
            loads = [*f.carries, *(i for g in f.carries if st.has_fig(g) for i in st.fig(g).carries)]
            for load_id in loads:
                if st.has_item(load_id):  # CG-EXIT-03: the object is discarded
                    if "treasure" in cat.objects[st.item(load_id).code].abilities:
                        vp += 1  # CG-OBJ-TREASURE-01
                    st = st.with_item(replaced(st.item(load_id), where="gone", at=None))
                else:  # CG-EXIT-03: a wounded character carried out is saved, no VP
                    st = st.with_figure(replaced(st.fig(load_id), where="saved", at=None, carries=()))
                    events.append(event("saved", figure=load_id))
            st = st.with_figure(replaced(f, where="exited", at=None, facing=None, carries=(), pin=None))
            p = st.player(self.seat)
            st = st.with_player(self.seat, replaced(p, vp=p.vp + vp))
            events.append(event("exit", figure=f.id, vp=vp))
            st = _check_win(st, events)
        elif is_start(self.loc):
            st = st.with_figure(replaced(f, where="start", at=self.loc[1], facing=self.facing, pin=None))
        else:
            st = st.with_figure(replaced(f, where="maze", at=self.loc, facing=None, pin=self.restrict))
        return st, events


def _move(state: CardState, a: Move):
    f = _main_checks(state, a, a.figure)
    if not a.path:
        raise IllegalAction("CG-ITEM-04", "a move changes zone or picks up / drops something")
    new = _spend(state, a.seat)
    walk = _Walk(new, new.fig(f.id))
    for tok in a.path:
        walk.token(tok)
    if walk.mp == 0 and walk.state.figures == new.figures and walk.state.items == new.items:
        # exchanges are as many as wished (DT-206): some undo the others, and then nothing was picked up or dropped
        raise IllegalAction("CG-ITEM-04", "these exchanges leave everything as it was: a move that takes no step "
                            "must take or leave something")
    new, events = walk.finish()
    return new, [_shown("move", a.seat, {"figure": f.id, "path": list(walk.told)},
                        {"figure": f.id, "path": list(walk.shown)}, walk.blind)] + events


def _wallwalk(state: CardState, a: WallWalk):
    f = _main_checks(state, a, a.figure)
    if "walk_through_walls" not in _abilities(state, f):
        raise IllegalAction("CG-CHAR-WALLWALKER-01", "{figure} does not walk through walls", figure=f.id)
    zones = [tok for tok in a.path if tok[0] not in "+->"]
    # DT-247: her walk is no move (so no start-zone step, CG-START-03/06) and goes from a zone of a room through
    # the wall into the zone of a room beyond (« la zone située de l'autre côté du mur »), as a jump does (DT-207)
    if f.where == "start":
        raise IllegalAction("CG-CHAR-WALLWALKER-01", "{figure} passes a wall from a zone of a room, not from a start "
                                                     "zone", figure=f.id)
    if len(zones) == 1 and _is_start_text(zones[0]):
        raise IllegalAction("CG-CHAR-WALLWALKER-01", "{figure} passes a wall into a zone of a room, never onto a "
                                                     "start zone", figure=f.id)
    if len(zones) != 1 or f.where != "maze":
        raise IllegalAction("CG-CHAR-WALLWALKER-01", "from a zone, through one wall into the zone beyond")
    new = _spend(state, a.seat)
    walk = _Walk(new, new.fig(f.id))
    for tok in a.path:  # CG-CHAR-WALLWALKER-02: exchanges before and after; what she carries goes through
        if tok[0] in "+->":
            walk.token(tok)
        else:
            walk.through_wall(parse_zone(tok))
            walk.stepped(tok)
    new, events = walk.finish()
    return new, [_shown("wallwalk", a.seat, {"figure": f.id, "path": list(walk.told)},
                        {"figure": f.id, "path": list(walk.shown)}, walk.blind)] + events


def _exchange_tokens(w: _Walk) -> list:
    """The exchange tokens a walk may try where it stands (`_tokens_at`)."""
    st = w.state
    return _tokens_at(st.fig(w.fid), st.at(w.loc), st.floor(w.loc), st.options.secret_objects, st.has_item,
                      st.has_fig)


def _tokens_at(me: Figure, here: list, floor: list, secret: bool, has_item, has_fig) -> list:
    """The exchange tokens `me` may try where it stands (DT-206, DT-211, DT-220, DT-222), in the order the search
    tries them: what lies here, a wounded friend lying here, what it carries, what a holder here carries (a friend,
    CG-ITEM-03, or a wounded character, CG-WOUND-03), a give. `here`: the figures there (`CardState.at`), `floor`:
    the objects lying there (`CardState.floor`), `secret`: the objects are secret (CG-OPT-03), `has_item` and
    `has_fig`: whether a card id names an object or a figure."""
    seat = me.seat
    toks = ["+" + i.id for i in floor]  # in a zone or on a start position (DT-206, DT-211)
    toks += ["+" + g.id for g in here if g.seat == seat and g.wounded and g.id != me.id]
    toks += ["-" + c for c in me.carries]
    for g in here:
        if g.id == me.id or not (g.seat == seat or g.wounded):
            continue  # (`_Walk.holders_here`)
        if secret and g.seat != seat:  # DT-222: unseen, taken by naming the holder
            toks += ["+@" + g.id] if any(has_item(c) for c in g.carries) else []
            toks += ["+" + c for c in g.carries if has_fig(c)]
        else:
            toks += ["+" + c for c in g.carries]
    for g in here:
        if g.seat != seat or g.id == me.id:
            continue  # (`_Walk.friends_here`)
        if not g.wounded and len(g.carries) < _capacity(g):
            # DT-220: the Paladin carrying two names what he gives
            toks += [">" + g.id] if len(me.carries) == 1 else [f">{g.id}/{c}" for c in me.carries]
    return toks


def _candidates(w: _Walk) -> list:
    if w.blind:
        return []  # DT-222: a move ends with an object taken unseen
    toks = _exchange_tokens(w)
    if w.mp >= w.move:
        return toks
    # Steps `_Walk._step` refuses at once are not offered: into a zone the start position does not face across an
    # open border (CG-START-03), out of a zone other than the way it came (CG-MOVE-04) or across a closed border
    # (CG-MOVE-06); its own checks, in its order, so that the search tries only what it may accept.
    mz = w.state.maze
    if is_start(w.loc):
        seat, col = w.loc
        toks += ["^" + facing_name(z) for z in mz.facings_in_front(seat, col) if z != w.facing]
        toks += [f"{seat}{2 - col}^{facing_name(z)}" for z in mz.facings_in_front(seat, 1 - col)]
        z = w.facing
        if z is not None and not is_icon(z) and z in mz.start_zones(seat, col) and mz.is_zone(z) \
                and passable(mz.features(z, mz.start_side(seat)), w.abilities()):
            toks.append(zone_name(z))
    else:
        for side in GLOBAL:
            t = mz.beyond(w.loc, side)
            if t is not None and (w.restrict is None or side == w.restrict) \
                    and passable(mz.features(w.loc, side), w.abilities()):
                toks.append(loc_name(t))
    return toks


def _wall_paths(state: CardState, f: Figure) -> list:
    """Every wall-walk of `f`, once per outcome: exchanges before, the wall, exchanges after
    (CG-CHAR-WALLWALKER-02; as many as wished in each zone, DT-206)."""
    out = []
    start = _spend(state, f.seat)
    outcomes = set()
    for w, before in _exchanges(_Walk(start, start.fig(f.id))):
        for side in GLOBAL:
            target = state.maze.step(f.at, side)
            if target is None:
                continue
            w2 = w.copy()
            try:
                w2.through_wall(target)
            except IllegalAction:
                continue
            for w3, after in _exchanges(w2):
                seen = (target, w3.state.figures, w3.state.items)
                if seen in outcomes:
                    continue
                outcomes.add(seen)
                if _side_count(w3.state, w3.loc, w3.seat, w3.fid) < MAX_PER_ZONE \
                        and (not _left_friend(w3, start) or _gold_after(w3)):
                    out.append((*before, zone_name(target), *after))
    return out


def _exchanges(w: _Walk) -> list:
    """Each state a walk reaches where it stands by exchanges alone (as many as wished, DT-206), once, with the
    fewest tokens that reach it: (walk, tokens), the walk as it stands first (no token)."""
    out = [(w, ())]
    seen = {(w.state.figures, w.state.items)}
    for cur, toks in out:  # breadth-first: `out` grows as it is read
        for tok in _candidates_ops(cur):
            nxt = cur.copy()
            try:
                nxt.token(tok)
            except IllegalAction:
                continue
            key = (nxt.state.figures, nxt.state.items)
            if key not in seen:
                seen.add(key)
                out.append((nxt, toks + (tok,)))
    return out


def _candidates_ops(w: _Walk) -> list:
    """The exchange tokens of a walk where it stands (the movement steps left out)."""
    return [t for t in _candidates(w) if t[0] in "+->"]


def _side_count(state: CardState, loc, seat: str, mover: str) -> int:
    """The characters of `seat` at `loc` besides the mover, each carried wounded friend counted (RUL-102), the
    mover's load as well."""
    here = [g for g in state.at(loc) if g.seat == seat and g.id != mover]
    holders = {g.id for g in state.at(loc)} | {mover}
    carried = [g for g in state.figures if g.where == "carried" and g.at in holders and g.seat == seat]
    return len(here) + len(carried)


def _left_friend(walk: _Walk, start: CardState) -> bool:
    """Whether the walk left or gave a wounded friend somewhere (a figure other than the mover and its own loads
    changed place), so that a zone other than its destination may have changed its count (CG-GOLD-02)."""
    now, before = walk.state.figures, start.figures
    if now is before:
        return False
    return any(a is not b and a.id != walk.fid and (a.where, a.at) != (b.where, b.at)
               and not (a.where == "carried" and a.at == walk.fid) for a, b in zip(now, before))


def _gold_after(walk: _Walk) -> bool:
    """CG-GOLD-02 on the whole board once `walk` ends where it stands (what `apply` checks after a move)."""
    try:
        _check_gold(walk.copy().finish()[0])
    except IllegalAction:
        return False
    return True


_NEVER = 1 << 30  # more movement points than any walk spends

_TURN, _HOME, _ENTER, _EXIT = range(4)
"""The kinds of step `_step_options` lists: a turn or a step along the start zone (CG-START-04/05: the place and
facing change, not the border it must leave by), a step back onto its own start position (CG-START-06), a step into
a zone (CG-START-03, CG-MOVE-02), a step out by the opponent's start zone (CG-EXIT-01)."""


@lru_cache(maxsize=4096)
def _step_options(mz, seat: str, abilities: frozenset, loc, facing, restrict) -> tuple:
    """The steps `_Walk._step` accepts from `loc` (facing `facing`, leaving only by `restrict`) for a mover of
    `seat` with `abilities`, as far as the maze decides, in the order `_candidates` offers them: (token, the
    location reached, its facing, the border back that an enemy there would hold it to, the kind of step).

    What the figures decide is left to the search, which knows them: whether an enemy holds the mover in the zone
    it enters (CG-MOVE-04) and whether one blocks its exit (CG-BLOCK-01). So the answer is the maze's alone, and
    is kept while the maze is in use (a maze is one arrangement, shared by every position that has it): the move
    search asks for it at each place it reaches instead of trying each step on a copy of its walk."""
    out = []
    if is_start(loc):
        own, col = loc
        # CG-START-04: turn to face another zone of the room in front
        # (DT-266: an icon of its card while that room is face down)
        out += [("^" + facing_name(z), loc, z, None, _TURN) for z in mz.facings_in_front(own, col) if z != facing]
        # CG-START-05: along the start zone, facing a zone (or an icon) of the other room
        out += [(f"{own}{2 - col}^{facing_name(z)}", (own, 1 - col), z, None, _TURN)
                for z in mz.facings_in_front(own, 1 - col)]
        # CG-START-03: into the zone it faces, across an open border
        if facing is not None and not is_icon(facing) and facing in mz.start_zones(own, col) and mz.is_zone(facing) \
                and passable(mz.features(facing, mz.start_side(own)), abilities):
            back = None if abilities & {"flying", "incorporeal"} else mz.start_side(own)
            out.append((zone_name(facing), facing, None, back, _ENTER))
        return tuple(out)
    for side in GLOBAL:  # CG-MOVE-04, CG-MOVE-06: the way it came only, across an open border
        target = mz.beyond(loc, side)
        if target is None or (restrict is not None and side != restrict) \
                or not passable(mz.features(loc, side), abilities):
            continue
        if is_start(target):  # CG-START-06 onto its own, CG-EXIT-01 by the opponent's
            out.append((loc_name(target), target, loc, None, _HOME if target[0] == seat else _EXIT))
        elif mz.is_zone(target):  # CG-MOVE-02: not into a face-down room
            # CG-CHAR-WIZARD-01, -GHOST-01: a flyer is held by no enemy
            back = None if abilities & {"flying", "incorporeal"} else OPPOSITE[side]
            out.append((zone_name(target), target, None, back, _ENTER))
    return tuple(out)


def _paths(state: CardState, f: Figure, probe: bool = False, by_rules: bool = False) -> list:
    """One path per outcome of a move of `f` (docs/rulings.md DT-217): the shortest, the first a breadth-first
    search finds (with `probe`, those found by the time there is one: DT-239's test, `_stuck`, asks only whether
    there is one, and searching on cost it a whole search at every `end` with an action point left; with
    `by_rules`, every exchange is asked of the rules, none made on the numbers: the tests compare). The search
    visits each walk state (where the figure stands, facing, the border it must leave by, what everybody carries
    and what lies where) again only with fewer movement points spent: a later visit with as many points spent or
    more can reach nothing new.

    It is the search of the walks `apply` follows token by token (`_candidates`, `_Walk.token`), made without a walk
    per step: a step changes only where the mover stands, so the steps from a place are the maze's
    (`_step_options`) and what the figures add to them does not change during the move (an exchange moves only
    objects and wounded characters, and only unwounded enemies hold a mover or block its exit), so it is asked of
    the state the move starts from. Only an exchange makes another state (`_Walk._op`, the rules themselves); equal
    states are kept once and named by a number (`board`), and what the search asks of a state (the mover's
    abilities, CG-GOLD-02 counts) is asked once per number. The walks, the tokens and their order are those of the
    token-by-token search, so the paths and their order are too."""
    start = _spend(state, f.seat)
    mz, fid, seat, move = start.maze, f.id, f.seat, _char(f).move
    out = []
    spent: dict = {}  # walk state -> the fewest movement points it was reached with and walked on from (_NEVER:
    #                   reached, asked whether it is an outcome, not walked on from)
    skills: dict = {}  # board number, and (the mover's card, its loads' cards) -> its abilities (`_Walk.abilities`)
    tallies: dict = {}  # board number -> `_side_count` at each location (`tally`)
    elsewhere: dict = {}  # board number -> CG-GOLD-02 holds away from the mover's destination (`reach`)
    held: dict = {}  # zone -> an unwounded enemy there holds the mover (CG-MOVE-04)
    mover = start.fig(fid)
    scratch = _Walk(start, mover)  # where each exchange is made (`_Walk._op`)

    # What is carried where. A card record (equal records alike) has a number in this search (`records`,
    # `numbered`); a board is the tuple of its cards' numbers, the figures' then the objects', in the state's order
    # (`boards`), and has a number of its own (`boards_seen`): equal numbers, equal cards. What the search asks of
    # a board is worked out from its numbers, and a board's state is made only for the rules (`state_of`).
    figures, items = start.figures, start.items
    records: list = [*figures, *items]  # card number -> its record; `start`'s cards are numbered by their slots
    slot_of = {(False, c.id): i for i, c in enumerate(figures)}
    slot_of.update({(True, c.id): len(figures) + i for i, c in enumerate(items)})
    numbered: dict = {}  # a record met during the search -> its card number

    def lies_at(card, is_item: bool):
        """Where `card` lies: a location, ("carried", holder) or None (out of the maze)."""
        if card.where == "carried":
            return "carried", card.at
        if is_item:
            return card.at if card.where == "floor" else None  # (`CardState.floor`)
        return card.loc if card.where in ("maze", "start") else None  # (`CardState.at`)

    lies: list = [lies_at(c, False) for c in figures] + [lies_at(c, True) for c in items]  # card number -> where
    carrier: list = [("carried", c.id) for c in figures] + [None] * len(items)  # card number -> ("carried", its
    #                                                        id) for a figure (what it carries lies there)
    friend_slots = [i for i, c in enumerate(figures) if c.seat == seat and c.id != fid]  # the mover's friends
    leaves: list = [False] * len(records)  # card number -> it is a figure other than the mover and its loads that
    #                                        left its place in `start` (`_left_friend`)

    def card_number(card) -> int:
        n = numbered.get(card)
        if n is None:
            is_item = isinstance(card, Item)
            slot = slot_of[is_item, card.id]
            was = records[slot]
            if card == was:  # (back as it was in `start`)
                n = numbered[card] = slot
                return n
            n = numbered[card] = len(records)
            records.append(card)
            lies.append(lies_at(card, is_item))
            carrier.append(None if is_item else ("carried", card.id))
            leaves.append(not is_item and card.id != fid and (card.where, card.at) != (was.where, was.at)
                          and not (card.where == "carried" and card.at == fid))
        return n

    first = tuple(range(len(records)))
    boards = [first]  # board number -> its cards' numbers
    boards_seen = {first: 0}
    kept: list = [start]  # board number -> its state, made when first asked for (`state_of`)
    near: list = [None]  # board number -> {where: the numbers of the cards that lie there}, made when asked for
    arounds: dict = {}  # (board number, location) -> `around`
    local: dict = {}  # (location, facing, the mover's cards, the cards there) -> the exchanges accepted there:
    #                   (token, the cards it replaces, whether it took an object unseen)
    tokens: dict = {}  # (the mover's cards, the cards at a place: `around`) -> the tokens tried there (`_tokens_at`)
    exchanged: dict = {}  # (token, (location, facing, the mover's cards), the cards it reads) -> the same, or ()
    #                       if the rules refuse it
    mover_slot, loads_at, n_figures = slot_of[False, fid], ("carried", fid), len(figures)
    remade: dict = {}  # the card number a plain exchange makes of a card (`plain`): (its number, where it is laid,
    #                    facing) -> laid (`laid_at`), (its number, holder) -> carried (`held_by`), (its number, what
    #                    it takes, what it leaves, None) -> loaded (`loaded_with`)
    secret = start.options.secret_objects

    def state_of(number: int) -> CardState:
        st = kept[number]
        if st is None:
            cards = boards[number]
            changed = ({}, {})
            for i, (n, was) in enumerate(zip(cards, first)):
                if n != was:
                    record = records[n]
                    changed[i >= n_figures][record.id] = record
            st = kept[number] = start.with_cards(*changed)
        return st

    def nearby(number: int) -> dict:
        """A location or ("carried", holder) -> the numbers of the cards that lie there or that holder carries, in
        the state's order (figures, then objects: `CardState.at`, `CardState.floor`)."""
        got = near[number]
        if got is None:
            got = near[number] = {}
            for n in boards[number]:
                where = lies[n]
                if where is not None:
                    there = got.get(where)
                    if there is None:
                        got[where] = [n]
                    else:
                        there.append(n)
        return got

    def around(number: int, loc) -> tuple:
        """The numbers of the cards at `loc` (`nearby`) and of what each figure there carries."""
        key = (number, loc)
        got = arounds.get(key)
        if got is None:
            lying = nearby(number)
            got = tuple(lying.get(loc, ()))
            if any(map(lying.__contains__, map(carrier.__getitem__, got))):  # a figure there carries something
                got += tuple(m for n in got if carrier[n] in lying for m in lying[carrier[n]])
            arounds[key] = got
        return got

    def board(number: int, edits: tuple) -> int:
        """The number of the board `edits` (slot, card number) make of `number`'s: equal for equal cards."""
        cards = list(boards[number])
        for i, n in edits:
            cards[i] = n
        cards = tuple(cards)
        got = boards_seen.get(cards)
        if got is None:
            got = boards_seen[cards] = len(boards)
            boards.append(cards)
            kept.append(None)
            near.append(None)
        return got

    def abilities(number: int) -> frozenset:
        """`_Walk.abilities`: the mover's and what it carries (`_abilities`)."""
        got = skills.get(number)
        if got is None:
            key = (boards[number][mover_slot], tuple(nearby(number).get(loads_at, ())))
            got = skills.get(key)
            if got is None:
                st = state_of(number)
                got = skills[key] = frozenset(_abilities(st, st.fig(fid)))
            skills[number] = got
        return got

    def tally(number: int) -> tuple:
        """`_side_count` on the board `number`: ({location: the friends there besides the mover and those carried
        by a character there}, the friends the mover carries), to be added (RUL-102). Made from the mover's
        friends alone (a figure's side never changes, so they are the same slots on every board), each counted
        where it lies or where its holder lies; at the location where the mover's own card lies, what the mover
        carries is counted once, as the mover's."""
        got = tallies.get(number)
        if got is None:
            cards, at, mine = boards[number], {}, 0
            for i in friend_slots:
                where = lies[cards[i]]
                if where is None:
                    continue
                if where[0] == "carried":
                    if where[1] == fid:
                        mine += 1
                        continue
                    where = lies[cards[slot_of[False, where[1]]]]  # the holder's place: counted there if it lies
                    if where is None or where[0] == "carried":  # (a holder carried himself counts nowhere)
                        continue
                at[where] = at.get(where, 0) + 1
            got = tallies[number] = (at, mine)
        return got

    def left_friend(number: int) -> bool:
        """`_left_friend`: whether a figure besides the mover and its loads is no longer where it was."""
        cards = boards[number]
        return any(map(leaves.__getitem__, cards[:n_figures]))

    def reach(path: tuple, tok: str, number: int, loc, facing, restrict, exited: bool, mp: int, undo, blind: bool):
        """The walk state a token reached: a path out if it is a new outcome, a walk of the next level if there is
        more to find beyond."""
        where = (loc, facing, restrict, exited, number)
        known = spent.get(where)
        if known is None:  # (whether it is an outcome depends on the walk state alone: asked at its first visit)
            known = spent[where] = _NEVER
            # CG-GOLD-02 at the end: the mover's destination, where the wounded friends carried there count too
            # (RUL-102), the mover's own load included; and, once it has left or given a wounded friend on its way
            # (an exchange changed the walk's state), the zone that friend was left in too. Where the mover ends
            # changes only its destination's count (it and what it carries count there and nowhere else), so the
            # rest of the board is checked once per board, as if it had left the maze with its loads (`_gold_after`
            # of an exit: what is left is counted)
            if not exited:
                at, mine = tally(number)
                count = at.get(loc, 0) + mine
            if exited or count < MAX_PER_ZONE:
                fine = elsewhere.get(number)
                if fine is None:
                    fine = elsewhere[number] = not left_friend(number) or _gold_after(
                        _walk_at(state_of(number), mover, loc, facing, restrict, True))
                if fine:
                    out.append(path + (tok,))
        # (exchanges are free and as many as wished, DT-206: an exchange undone, or made in another order, comes
        # back to a walk state seen at this level, and stops there)
        if exited or blind or known <= mp:
            return  # reached before with no more points spent: nothing new beyond
        spent[where] = mp
        deeper.append((number, loc, facing, restrict, mp, undo, path + (tok,)))

    def reads(number: int, tok: str) -> tuple:
        """The numbers of the cards an exchange token reads besides the mover's, its loads' and the place (see
        `_Walk.exchange`): the card it names (an object or a wounded friend to take, the holder of `+@HOLDER`,
        the friend of `>FRIEND`), what that card carries, and, for a card carried, its holder and what he carries.
        None for a token that names no card (the rules are asked)."""
        if tok[0] == "-":
            return ()  # one of the mover's loads
        name = tok[2:] if tok[1] == "@" else tok[1:].partition("/")[0]
        slot = slot_of.get((True, name), slot_of.get((False, name)))
        if slot is None:
            return None
        cards, lying = boards[number], nearby(number)
        n = cards[slot]
        where = lies[n]
        if where is None or where[0] != "carried":
            return n, tuple(lying.get(("carried", name), ()))
        holder = where[1]
        return n, tuple(lying.get(("carried", name), ())), cards[slot_of[False, holder]], tuple(lying.get(where, ()))

    def plain(number: int, loc, facing, tok: str):
        """`_Walk.exchange` of the common exchanges, made on the numbers (no state, no rules asked): a load laid
        where the mover stands (`-LOAD`), an object taken that lies there or that a holder there carries, or a
        wounded friend lying there (`+CARD`: with a hand free, or swapped for the only load of a mover with one
        hand, CG-ITEM-03, CG-WOUND-03, CG-CARRY-01), the load given to a friend there with a hand free (`>FRIEND`,
        `>FRIEND/LOAD`, DT-220). Their checks read only the cards `reads` names; the cards they replace are made
        as `_Cards` makes them (`_laid`, `_held`, `_carried_with`). None for any other token (a wounded friend
        taken from a holder, an object taken unseen or hidden, CG-OPT-03, a wounded friend swapped with a holder)
        and for one the rules refuse: the rules answer those."""
        cards = boards[number]
        me = records[cards[mover_slot]]
        kind, name = tok[0], tok[1:]
        cap = _capacity(me)
        if cap == 0:
            return None  # (CG-CHAR-GHOST-02: it carries nothing)
        if kind == "-":
            if name not in me.carries:
                return None
            return tok, (laid_at(cards, name, loc, facing), loaded_with(cards, mover_slot, None, name)), False
        if kind == ">":
            friend, _, given = name.partition("/")
            slot = slot_of.get((False, friend))
            if slot is None or not given and len(me.carries) != 1 or given and given not in me.carries:
                return None
            given = given or me.carries[0]
            taker = records[cards[slot]]
            if taker.seat != seat or taker.id == fid or lies[cards[slot]] != loc or taker.wounded \
                    or len(taker.carries) >= _capacity(taker):
                return None
            return tok, (held_by(cards, given, friend), loaded_with(cards, slot, given, None),
                         loaded_with(cards, mover_slot, None, given)), False
        if kind != "+":
            return None
        is_item = (True, name) in slot_of
        slot = slot_of.get((is_item, name))
        if slot is None:
            return None  # (+@HOLDER)
        swapped = None if len(me.carries) < cap else me.carries[0] if cap == 1 else False
        if swapped is False:
            return None  # (CG-CHAR-PALADIN-01: two loads already)
        where = lies[cards[slot]]
        if not is_item:  # CG-CARRY-01: a wounded friend lying here (one carried: the rules)
            taken = records[cards[slot]]
            if where != loc or taken.seat != seat or not taken.wounded or taken.id == fid:
                return None
        if where == loc:  # lying here
            edits = (laid_at(cards, swapped, loc, facing),) if swapped is not None else ()
        elif where is not None and where[0] == "carried" and not secret:  # carried by a holder here
            holder = slot_of[False, where[1]]
            giver = records[cards[holder]]
            if giver.id == fid or lies[cards[holder]] != loc or not (giver.seat == seat or giver.wounded) \
                    or swapped is not None and (False, swapped) in slot_of:
                return None
            edits = ((held_by(cards, swapped, giver.id),) if swapped is not None else ()) \
                + (loaded_with(cards, holder, swapped, name),)
        else:
            return None
        return tok, edits + (held_by(cards, name, fid), loaded_with(cards, mover_slot, name, swapped)), False

    def laid_at(cards: tuple, cid: str, loc, facing) -> tuple:
        """(slot, card number) of `cid` laid at `loc` (`_laid`)."""
        is_item = (True, cid) in slot_of
        slot = slot_of[is_item, cid]
        key = (cards[slot], loc, facing)
        got = remade.get(key)
        if got is None:
            got = remade[key] = card_number(_laid(records[key[0]], is_item, loc, facing))
        return slot, got

    def held_by(cards: tuple, cid: str, holder: str) -> tuple:
        """(slot, card number) of `cid` carried by `holder` (`_held`)."""
        is_item = (True, cid) in slot_of
        slot = slot_of[is_item, cid]
        key = (cards[slot], holder)
        got = remade.get(key)
        if got is None:
            got = remade[key] = card_number(_held(records[key[0]], is_item, holder))
        return slot, got

    def loaded_with(cards: tuple, slot: int, add, drop) -> tuple:
        """(slot, card number) of the figure in `slot` carrying `add` more and `drop` no more (`_carried_with`)."""
        key = (cards[slot], add, drop, None)
        got = remade.get(key)
        if got is None:
            got = remade[key] = card_number(_carried_with(records[key[0]], add=add, drop=drop))
        return slot, got

    def exchanges(number: int, loc, facing) -> list:
        """The exchanges the rules accept with the cards of `number` at `loc` (facing `facing`): (token, the cards
        it replaces as `board` takes them, whether it took an object unseen). `_Walk._op` depends on nothing else
        but the exchange just before it, whose undoing it refuses last, after every other check: that one is left
        to the caller (a token that makes the cards of the state before the last exchange).

        The rules are asked only for cards not met before. The tokens tried at a place depend only on the cards
        there, what they carry and what the mover carries (`_tokens_at`): they are listed once per such cards,
        wherever they are (`tokens`), and tried once per such cards and place (`local`), and the answer, the cards
        each exchange replaces, is laid on every board that has them there; a place where nothing lies, asked by a
        mover that carries nothing, has none. What a token does depends only on the mover's cards and the cards it names (`reads`):
        it is tried once per such cards (`exchanged`), whatever else lies there. The commonest exchanges are
        made on the numbers (`plain`), without the rules or a state."""
        lying = nearby(number)
        loads = lying.get(loads_at)
        if loads is None and loc not in lying:
            return ()  # nothing lies here and the mover carries nothing: no token (`_tokens_at`)
        mine = (loc, facing, boards[number][mover_slot], () if loads is None else tuple(loads))
        here = mine + (around(number, loc),)
        edits = local.get(here)
        if edits is None:
            edits = local[here] = []
            cards_here = here[2:]  # the tokens depend on the cards alone, not on the place (`tokens`)
            toks = tokens.get(cards_here)
            if toks is None:
                there = [records[n] for n in lying.get(loc, ())]
                toks = tokens[cards_here] = _tokens_at(
                    records[mine[2]], [c for c in there if isinstance(c, Figure)],
                    [c for c in there if isinstance(c, Item)], secret, start.has_item, start.has_fig)
            for tok in toks:
                done = None if by_rules else plain(number, loc, facing, tok)
                if done is not None:
                    edits.append(done)
                    continue
                read = reads(number, tok)
                done = exchanged.get((tok, mine, read)) if read is not None else None
                if done is None:
                    scratch.state, scratch.loc, scratch.facing, scratch.undo = state_of(number), loc, facing, None
                    scratch.blind = False
                    try:
                        made_now = scratch.exchange(tok)[2]
                    except IllegalAction:
                        done = ()
                    else:
                        done = (tok, tuple((slot_of[is_item, cid], card_number(card))
                                           for is_item, replaced_now in ((False, made_now.figures),
                                                                         (True, made_now.items))
                                           for cid, card in replaced_now.items()), scratch.blind)
                    if read is not None:
                        exchanged[tok, mine, read] = done
                if done:
                    edits.append(done)
        return edits

    level = [(0, mover.loc, mover.facing, mover.pin, 0, None, ())]
    while level:
        deeper: list = []
        for number, loc, facing, restrict, mp, undo, path in level:
            if probe and out:
                return out
            for tok, edit, blind in exchanges(number, loc, facing):
                now = board(number, edit)
                if now == undo:
                    continue  # it undoes the exchange before it (DT-206: `_Walk._op` refuses it)
                if mp == 0 and now == 0:
                    continue  # exchanges where it stands that undo each other: no move (CG-ITEM-04), no new state
                reach(path, tok, now, loc, facing, restrict, False, mp, number, blind)
            if mp >= move:
                continue
            for tok, there, facing2, back, kind in _step_options(mz, seat, abilities(number), loc, facing, restrict):
                if kind == _ENTER:
                    hold = held.get(there)
                    if hold is None:
                        hold = held[there] = _enemy_unwounded(start, there, seat, mover)
                    reach(path, tok, number, there, None, back if hold else None, False, mp + 1, None, False)
                elif kind == _TURN:
                    reach(path, tok, number, there, facing2, restrict, False, mp + 1, None, False)
                elif kind == _HOME:
                    reach(path, tok, number, there, facing2, None, False, mp + 1, None, False)
                elif not any(g.seat == there[0] and not g.wounded and g.facing == loc for g in start.at(there)):
                    reach(path, tok, number, there, facing, restrict, True, mp + 1, None, False)  # CG-BLOCK-01
        level = deeper
    return out


def _walk_at(st: CardState, mover: Figure, loc, facing, restrict, exited: bool) -> _Walk:
    """A walk of `mover` in `st` that stands at `loc` (what `finish` reads)."""
    w = _Walk(st, mover)
    w.loc, w.facing, w.restrict, w.exited = loc, facing, restrict, exited
    return w
