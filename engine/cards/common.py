"""What the card game's rules share: a character's abilities and loads, the cards an action lays down or picks up,
borders, the checks every action of the main phase makes (CG-AP, CG-TURN, CG-GOLD), and the notation's readers
of places for path tokens."""

from __future__ import annotations

from functools import lru_cache

from ..core.errors import IllegalAction
from ..core.events import Event, event, secret_event
from .catalogue import load
from .maze import is_start, loc_name
from .notation import facing_from, start_from, zone_from
from .state import CardState, Figure, Outcome, SEATS, opponent, replaced

MAX_PER_ZONE = 3  # CG-GOLD-02
MAX_AP = 3  # CG-TURN-05: carried over


def _tutorial(state: CardState) -> dict:
    """The setup of the game: its tutorial's, or its scenario card's (CG-SCEN-01)."""
    return state.options.setup


def _char(f: Figure):
    return load().characters[f.code]


def _abilities(state: CardState, f: Figure) -> set:
    """The character's abilities plus its carried object's (CG-ITEM-05 permanent effects); none while wounded
    (CG-WOUND-01)."""
    if f.wounded:
        return set()
    out = set(_char(f).abilities)
    for i in _objects(state, f):
        out |= load().objects[i.code].abilities
    return out


def _secret_from(state: CardState, item: str, seat: str) -> bool:
    """CG-OPT-03 (DT-222): with secret objects, `seat` may not name `item`: it is carried by a character of the
    other player, or is an object of the other player's that `seat` cannot see lying anywhere (seeded, not yet
    placed, or not in the game at all after a full frontal selection). One answer for all of them, so that the
    answer tells nothing of where it is."""
    if not state.options.secret_objects:
        return False
    if not state.has_item(item):
        return _unseen_enemy(state, seat, item, "objects")  # (a character is no object: it has its own answer)
    i = state.item(item)
    if i.where == "carried":
        return state.has_fig(i.at) and state.fig(i.at).seat != seat
    return i.seat != seat and i.where in ("hand", "seeded")


def _shown(kind: str, seat: str, data: dict, public: dict, blind: bool = False) -> Event:
    """An event whose object names the others may not learn (CG-OPT-03): the full `data` to `seat`, `public` to
    the others; a plain event when they are the same, unless the action took an object unseen (`blind`, `+@yMK`):
    its event reads the same for everyone, but it showed its player what was hidden, so it is owned, and the
    action is no plain one to take back (DT-224: the taker would have looked under the card, then undone it)."""
    return event(kind, **data) if public == data and not blind else secret_event(kind, seat, data, public)


def _capacity(f: Figure) -> int:
    """How many things `f` may carry (CG-GOLD-03): one; two for the Paladin, wounded or not (CG-CHAR-PALADIN-01);
    nothing for the Ghost (CG-CHAR-GHOST-02)."""
    abilities = _char(f).abilities
    return 0 if "no_carrying" in abilities else 2 if "mighty" in abilities else 1


def _objects(state: CardState, f: Figure) -> list:
    """The objects `f` carries (its carried wounded characters left out)."""
    return [state.item(c) for c in f.carries if state.has_item(c)]


def _carried_with(f: Figure, *, add: str | None = None, drop: str | None = None) -> Figure:
    """`f` carrying `add` more and `drop` no more (the loads kept sorted)."""
    loads = [c for c in f.carries if c != drop]
    if add is not None:
        loads.append(add)
    loads.sort()
    return replaced(f, carries=tuple(loads))


def _powers_count(state: CardState, f: Figure, power: str) -> int:
    """How many of the objects `f` carries have `power`: two identical objects add their effects
    (CG-CHAR-PALADIN-01)."""
    return sum(power in load().objects[i.code].abilities for i in _objects(state, f))


def _laid(card, is_item: bool, loc, facing=None):
    """The object or carried wounded character `card` put down in a zone or on a start position (DT-206: the rules
    put objects there, CG-CHAR-TELEKIN-03, CG-WOUND-04); a wounded character laid on a start position faces
    `facing`, the zone its carrier faces."""
    if is_item:
        return replaced(card, where="floor", at=loc)
    if is_start(loc):
        return replaced(card, where="start", at=loc[1], facing=facing, pin=None)
    return replaced(card, where="maze", at=loc, facing=None, pin=None)


def _held(card, is_item: bool, holder: str):
    """The object or wounded character (CG-CARRY-01) `card` now carried by `holder`."""
    if is_item:
        return replaced(card, where="carried", at=holder)
    return replaced(card, where="carried", at=holder, facing=None, pin=None)


def _lay(st: CardState, tid: str, loc, facing=None) -> CardState:
    """`_laid` in the state `st`."""
    if st.has_item(tid):
        return st.with_item(_laid(st.item(tid), True, loc))
    return st.with_figure(_laid(st.fig(tid), False, loc, facing))


def _hold(st: CardState, tid: str, holder: str) -> CardState:
    """`_held` in the state `st`."""
    if st.has_item(tid):
        return st.with_item(_held(st.item(tid), True, holder))
    return st.with_figure(_held(st.fig(tid), False, holder))


class _Cards:
    """The cards an exchange changes (`_Walk._op`), replaced in its state at once (`CardState.with_cards`): what
    `_lay`, `_hold`, `_carried_with` and `with_figure` / `with_item` would make one after the other."""

    __slots__ = ("st", "figures", "items")

    def __init__(self, st: CardState) -> None:
        self.st, self.figures, self.items = st, {}, {}

    def _card(self, cid: str):
        """(whether it is an object, the card as changed so far)."""
        if self.st.has_item(cid):
            return True, self.items.get(cid) or self.st.item(cid)
        return False, self.figures.get(cid) or self.st.fig(cid)

    def _put(self, is_item: bool, card) -> None:
        (self.items if is_item else self.figures)[card.id] = card

    def lay(self, tid: str, loc, facing=None) -> None:
        """`_lay`: down in a zone or on a start position, a wounded character laid there facing `facing`."""
        is_item, card = self._card(tid)
        self._put(is_item, _laid(card, is_item, loc, facing))

    def hold(self, tid: str, holder: str) -> None:
        """`_hold`: carried by `holder`."""
        is_item, card = self._card(tid)
        self._put(is_item, _held(card, is_item, holder))

    def load(self, fid: str, *, add: str | None = None, drop: str | None = None) -> None:
        """`_carried_with`: figure `fid` carrying `add` more and `drop` no more."""
        self.figures[fid] = _carried_with(self.figures.get(fid) or self.st.fig(fid), add=add, drop=drop)

    def state(self) -> CardState:
        return self.st.with_cards(self.figures, self.items)


def passable(features: tuple, abilities: set) -> bool:
    """CG-ZONE-04, CG-MOVE-06, CG-SLIT-01, CG-OBJ-ROPE-01 ("open" and "broken" portcullises let everyone by);
    the Ghost crosses anything (CG-CHAR-GHOST-01)."""
    if "incorporeal" in abilities:
        return True
    for feat in features:
        if feat == "wall" or feat == "portcullis":
            return False
        if feat == "slit" and "contortionist" not in abilities:
            return False
        if feat == "pit" and not abilities & {"rope", "acrobatics", "flying"}:
            return False
    return True


def _closed_border(rule: str, features: tuple, abilities: set, zone: str, target: str) -> IllegalAction:
    """The refusal of a border `passable` closes, saying what closes it (a play-test read "the border b2-b1 is
    closed to it" at a pit it could have crossed with a Rope)."""
    blocking = next((f for f in ("wall", "portcullis", "slit", "pit") if f in features
                     and not passable((f,), abilities)), None)
    if blocking == "pit" and (zone[:1] in ("B", "Y") or target[:1] in ("B", "Y")):  # a start position's border:
        # no jump goes from or onto a start zone (DT-207)
        return IllegalAction(rule, "the border {zone}-{target} is a pit: crossing it takes a Rope", zone=zone,
                             target=target)
    if blocking == "pit":
        return IllegalAction(rule, "the border {zone}-{target} is a pit: crossing it takes a Rope, or a jump",
                             zone=zone, target=target)
    if blocking == "slit":
        return IllegalAction(rule, "the border {zone}-{target} is an arrow slit", zone=zone, target=target)
    if blocking == "portcullis":
        return IllegalAction(rule, "the border {zone}-{target} is a closed portcullis", zone=zone, target=target)
    if blocking == "wall":
        return IllegalAction(rule, "the border {zone}-{target} is a wall", zone=zone, target=target)
    return IllegalAction(rule, "the border {zone}-{target} is closed to it", zone=zone, target=target)


def _enemy_unwounded(state: CardState, loc, seat: str, mover: Figure | None = None) -> bool:
    """An unwounded enemy at loc; for CG-MOVE-04 a mover of printed combat value 1 or less ignores an enemy
    Colossus (CG-CHAR-COLOSSUS-02, CG-MOVE-05)."""
    small = mover is not None and _char(mover).combat <= 1
    return any(g.seat != seat and not g.wounded and not (small and "giant" in _char(g).abilities)
               for g in state.at(loc))


def _check_gold(state: CardState) -> None:
    """CG-GOLD-02 (and CG-START-07: each start position counts as a zone)."""
    counts: dict = {}
    for f in state.figures:
        holder = state.fig(f.at) if f.where == "carried" else f  # RUL-102: carried wounded count
        if holder.where in ("maze", "start"):
            key = (holder.loc, f.seat)
            counts[key] = counts.get(key, 0) + 1
            if counts[key] > MAX_PER_ZONE:
                raise IllegalAction("CG-GOLD-02", "more than {most} characters of one player at {loc}",
                                    most=MAX_PER_ZONE, loc=loc_name(holder.loc))  # a carried one: its carrier's


def _unseen_enemy(state: CardState, seat: str, card: str, kind: str = "characters") -> bool:
    """Whether `card` names a card of the other player of `kind` ("characters" or "objects", by its code) that is
    not in the game (after a full frontal selection, only the cards chosen are, CG-SEL-FULL-01): it is refused as
    one of his cards of that kind out of play would be, so that the answer does not tell which cards he chose."""
    return (card[:1].upper() == opponent(seat) and card[1:] in getattr(load(), kind)
            and not state.has_fig(card) and not state.has_item(card))


def _enemy_character_code(seat: str, card: str) -> bool:
    """Whether `card` is named like a character of the other player, in the game or not (CG-SEL-FULL-01)."""
    return card[:1].upper() == opponent(seat) and card[1:] in load().characters


def _acting_figure(state: CardState, seat: str, fid: str) -> Figure:
    if fid[:1].upper() == opponent(seat):  # (whether it is in the game or not)
        raise IllegalAction("CG-AP-02", "{figure} is not yours", figure=fid)
    if not state.has_fig(fid):
        raise IllegalAction("CG-AP-02", "no character {figure}", figure=fid)
    f = state.fig(fid)
    if f.seat != seat:
        raise IllegalAction("CG-AP-02", "{figure} is not yours", figure=fid)
    if f.where not in ("maze", "start"):
        raise IllegalAction("CG-AP-02", "{figure} is not in play", figure=fid)
    if f.wounded:
        raise IllegalAction("CG-AP-02", "{figure} is wounded and takes no action", figure=fid)
    if fid in state.healed_now:  # by a Cleric, or by himself: a Troll who regenerated (CG-CHAR-TROLL-02)
        rule = "CG-CHAR-TROLL-02" if f"regeneration:{fid}" in state.used_now else "CG-CHAR-CLERIC-01"
        raise IllegalAction(rule, "{figure} was healed this turn and does nothing else in it", figure=fid)
    return f


def _spend(state: CardState, seat: str) -> CardState:
    p = state.player(seat)
    if p.ap < 1:
        raise IllegalAction("CG-TURN-07", "no action point left")
    return state.with_player(seat, replaced(p, ap=p.ap - 1))


def _need_phase(state: CardState, action, phase: str, rule: str) -> None:
    if state.outcome is not None:
        raise IllegalAction("CG-END-01", "the game is over")
    if state.phase != phase:
        if phase == "main" and state.phase in ("combat", "place"):  # CG-GOLD-01: the action under way first
            if state.phase == "combat":
                raise IllegalAction("CG-GOLD-01", "an action is resolved before another starts: the combat first")
            raise IllegalAction("CG-GOLD-01", "an action is resolved before another starts: placing the revealed "
                                "room's cards first")
        if phase == "place":  # (a play-test placed a card his opponent had just placed: "not the time for that now")
            raise IllegalAction(rule, "no card of a revealed room is waiting to be placed")
        raise IllegalAction(rule, "not the time for that now")  # (the phase's name was the code's: "phase main")
    if action.seat not in state.to_act:
        raise IllegalAction(rule, "it is not your turn to act")  # the board game's words ("B is not to act" read badly)


def waiting_refusal(state: CardState, seat: str) -> IllegalAction | None:
    """Why `seat` may do nothing now, if the game waits for the other seat (CG-TURN-01: the active player acts;
    the other in a combat or a placing when it is his to do); None once the game is over."""
    if state.outcome is not None or seat in state.to_act:
        return None
    return IllegalAction("CG-TURN-01", "it is not your turn to act")


def _main_checks(state: CardState, a, fid: str | None):
    _need_phase(state, a, "main", "CG-TURN-01")
    if fid is None:
        return None
    return _acting_figure(state, a.seat, fid)


def _check_win(st: CardState, events: list) -> CardState:
    """CG-END-01: the first to reach the target wins at once."""
    for s in SEATS:
        if st.player(s).vp >= st.target_vp:
            vp = tuple((x, st.player(x).vp) for x in SEATS)
            # the board game's and the server's shape (docs/protocol.md, game_over.result): {"B": vp, "Y": vp}
            events.append(event("game_over", winner=s, vp=dict(vp), reason="vp"))
            return st.but(outcome=Outcome(s, vp, "vp"), phase="over")
    return st


def _use(state: CardState, power: str, *figures: str) -> CardState:
    """Mark a once-a-turn power as used by these figures (`CardState.used_now`)."""
    return state.but(used_now=tuple(sorted(set(state.used_now) | {f"{power}:{fid}" for fid in figures})))


@lru_cache(maxsize=256)
def parse_zone(text: str):
    try:
        return zone_from(text)
    except ValueError:
        raise IllegalAction("CG-MOVE-02", "not a zone: {text}", text=repr(text)) from None


@lru_cache(maxsize=256)
def parse_facing(text: str, rule: str):
    """A facing in a path token (`^a2`, `B2^T`): a zone or an icon's letter (DT-266)."""
    try:
        return facing_from(text)
    except ValueError:
        raise IllegalAction(rule, "not a zone or an icon (T, S, C, R): {text}", text=repr(text)) from None


def _is_start_text(text: str) -> bool:
    """Whether `text` names a start position (`B1`)."""
    try:
        parse_start(text)
    except IllegalAction:
        return False
    return True


@lru_cache(maxsize=64)
def parse_start(text: str):
    try:
        return start_from(text)
    except ValueError:
        raise IllegalAction("CG-MOVE-02", "not a start position: {text}", text=repr(text)) from None
