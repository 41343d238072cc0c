"""Setup, `apply` and `legal_actions` of the card game: the three tutorials (CG-START, CG-REVEAL, CG-MOVE, CG-ITEM,
CG-ROT, CG-EXIT, CG-BLOCK, CG-JUMP, CG-TURN, CG-GOLD, CG-TUT1; melee and group combat, CG-TUT2; line of sight and
ranged combat, the Crossbowman, the Wizard, the Cleric, the Bow and the Large Shield, CG-TUT3)."""

from __future__ import annotations

import itertools
from functools import lru_cache

from ..core.choice import Chained, is_lazy
from ..core.errors import N_, IllegalAction
from ..core.events import Event, event, secret_event
from ..core.rng import Rng
from .actions import (Attack, BendBars, BreakWalls, Build, CombatCard, EndTurn, Face, Fireball, Frenzy, Heal, Hide,
                      Invert, Jump, Levitate, MindControl, Move, PassPlacement, Pick, Place, Portcullis, Regenerate,
                      Remove, Reveal, Rotate, Seed, Shoot, Steal, WallWalk)
from .catalogue import ICONS, load
from .maze import (GLOBAL, OPPOSITE, facing_name, is_icon, is_start, loc_name, rotate_zone, slot_of, slot_zones,
                   start_slot, slot_name, slot_xy, turn_dir, zone_name)
from .state import (SEATS, CardOptions, CardState, Combat, Figure, Item, Outcome, Placement, Player, Room,
                    Selection, opponent, replaced)
from . import select

MAX_PER_ZONE = 3  # CG-GOLD-02
MAX_AP = 3  # CG-TURN-05: carried over


# --- setup -----------------------------------------------------------------------------------------------------

def validate_options(options: CardOptions) -> None:
    """ValueError unless the options name one tutorial, or one scenario with a team selection mode (CG-SEL)."""
    cat = load()
    if options.scenario is not None:
        if options.tutorial is not None:
            raise ValueError("a tutorial or a scenario, not both")
        if options.scenario not in cat.scenarios:
            raise ValueError(f"no scenario {options.scenario!r} (known: {', '.join(sorted(cat.scenarios))})")
        if options.teams not in cat.team_modes:
            raise ValueError(f"a scenario's teams are selected by {', '.join(cat.team_modes)} (CG-SEL)")
        _validate_handicap(options)
    else:
        if options.handicap is not None:
            raise ValueError("CG-HCAP-01: a handicap goes with a scenario of 5 VP or more, not a tutorial")
        if str(options.tutorial) not in cat.tutorials:
            raise ValueError(f"no tutorial {options.tutorial!r} in this slice")
        if options.teams is not None:
            raise ValueError("a tutorial's teams are given (CG-TUT1-03): no team selection")


HANDICAPS = {(2, ()), (3, ()), (2, (5, 6)), (3, (5, 6)), (3, (6,)), (4, (6,)), (2, (6,))}
"""CG-HCAP-04: the handicap table's rows, as (characters removed, combat cards removed)."""


def _validate_handicap(options: CardOptions) -> None:
    if options.handicap is None:
        return
    seat, removed, cards = options.handicap
    if seat not in SEATS:
        raise ValueError("CG-HCAP-01: the handicapped seat is B or Y")
    if options.setup["target_vp"] < 5:
        raise ValueError("CG-HCAP-01: a handicap goes with a scenario of 5 VP or more")
    if (removed, tuple(sorted(cards))) not in HANDICAPS:
        rows = ", ".join(f"{r} and {'+' + ' +'.join(map(str, c)) if c else 'no card'}" for r, c in sorted(HANDICAPS))
        raise ValueError(f"CG-HCAP-04: remove 2 to 4 characters and the cards of a row of the table ({rows})")


def new_game(options: CardOptions, seed: int) -> CardState:
    """A new game; every random draw (room order and hidden orientations, who seeds first, who plays first, who
    selects first in a scenario) is taken here from `seed`."""
    validate_options(options)
    cat = load()
    setup = options.setup
    rng = Rng(seed)
    pairs = setup["pairs"]
    if isinstance(pairs, int):  # CG-TUT2-02, CG-SCEN-02: that many random pairs, a room's twin always with it
        every = sorted({r.pair for r in cat.rooms.values()})
        rng.shuffle(every)
        pairs = sorted(every[:pairs])
    cards = [c for pair in pairs for c in cat.pair_cards(pair)]
    rng.shuffle(cards)  # CG-TUT1-02, CG-TUT2-02: shuffled face down
    rooms = tuple(Room(c, rng.below(4)) for c in cards)
    figures, items = [], []
    for seat in SEATS:  # a tutorial's teams are given (CG-TUT1-03); a scenario's are selected first (CG-SEL)
        for code in setup.get("characters") if options.scenario is None else ():
            figures.append(Figure(f"{seat.lower()}{code}", seat, code, "hand"))
        for code in setup.get("objects") if options.scenario is None else ():
            items.append(Item(f"{seat.lower()}{code}", seat, code, "hand"))
    seeder = SEATS[rng.below(2)]
    first = SEATS[rng.below(2)]
    selection = None
    if options.scenario is not None:  # CG-SEL-MUTUAL-01, CG-SEL-DRAFT-01: a random first player
        selection = Selection(options.teams, "characters", SEATS[rng.below(2)])
    cards = tuple(cat.combat_cards) if setup["combat"] else ()  # CG-TUT1-03: no combat cards
    hands = {seat: list(cards) for seat in SEATS}
    if options.handicap is not None:  # CG-HCAP-04: the stronger player's highest cards left out
        for value in options.handicap[2]:
            hands[options.handicap[0]].remove(value)
    return CardState(options=options, length=setup["length"], target_vp=setup["target_vp"], rooms=rooms,
                     figures=tuple(sorted(figures, key=lambda f: f.id)),
                     items=tuple(sorted(items, key=lambda i: i.id)), opened=frozenset(),
                     players=tuple(Player(0, cat.jump_cards, 0, tuple(hands[seat])) for seat in SEATS),
                     phase="hide" if selection is None else "select", first=first, seeder=seeder,
                     combat_on=bool(setup["combat"]), selection=selection)


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
    loads = sorted(c for c in f.carries if c != drop)
    return replaced(f, carries=tuple(sorted(loads + [add])) if add is not None else tuple(loads))


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
        return IllegalAction(rule, "the border {zone}-{target} is a pit: it takes a Rope", zone=zone, target=target)
    if blocking == "pit":
        return IllegalAction(rule, "the border {zone}-{target} is a pit: it takes a Rope, or a jump", zone=zone,
                             target=target)
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
        raise IllegalAction(rule, "not the time for that now")  # (the phase's name was the code's: "phase main")
    if action.seat not in state.to_act:
        raise IllegalAction(rule, "it is not your turn to act")  # the board game's words ("B is not to act" read badly)


def waiting_refusal(state: CardState, seat: str) -> IllegalAction | None:
    """Why `seat` may do nothing now, if the game waits for the other seat (CG-TURN-01: the active player acts;
    the other in a combat or a placing when it is his to do); None once the game is over."""
    if state.outcome is not None or seat in state.to_act:
        return None
    return IllegalAction("CG-TURN-01", "it is not your turn to act")


# --- apply -----------------------------------------------------------------------------------------------------

def apply(state: CardState, action) -> tuple[CardState, tuple[Event, ...]]:
    """Validate `action` completely and return the new state and its events; `state` is never changed."""
    handler = _HANDLERS.get(type(action))
    if handler is None or action.seat not in SEATS:
        raise IllegalAction("CG-TURN-01", "not an action of this game: {action}", action=repr(action))
    new, events = handler(state, action)
    _check_gold(new)
    return new, tuple(events)


def _hide(state: CardState, a: Hide):
    _need_phase(state, a, "hide", "CG-TUT1-04")
    mine = {f.id for f in state.figures if f.seat == a.seat and f.where == "hand"}
    problem = hide_refusal(a.placements, mine, _tutorial(state)["start_characters"])
    if problem is not None:
        raise problem
    choice = tuple(sorted(a.placements))
    secret = state.secret + ((a.seat, choice),)
    events = [secret_event("hidden", a.seat, {"seat": a.seat, "placements": [list(p) for p in choice]},
                           {"seat": a.seat})]
    if len(secret) < 2:
        return state.but(secret=secret), events
    new = state
    for _, ch in secret:
        for fid, col in ch:
            new = new.with_figure(replaced(new.fig(fid), where="start", at=col))
    counts = {f"{f.seat}{f.at + 1}": sum(1 for g in new.figures if g.where == "start" and g.seat == f.seat
                                         and g.at == f.at) for f in new.figures if f.where == "start"}
    events.append(event("start_cards", counts=dict(sorted(counts.items())), seeder=new.seeder))
    return new.but(secret=(), phase="seed"), events


def hide_refusal(placements, mine, n: int) -> IllegalAction | None:
    """Why the start placement `placements` ((figure, column 0/1), ...) breaks the rules, for a seat whose
    characters in hand are `mine` and who places `n` of them, or None. `_hide` raises it; `choice_refusal` finds
    `mine` and `n` in the seat's choices, so a client says the same without the state."""
    ids = [fid for fid, _ in placements]
    # Which character is wrong, when one is: a player knows his own hand, and any token of the other colour gets
    # the same answer, so it tells nothing of the opponent's team.
    foreign = next((fid for fid in ids if fid not in mine), None)
    if foreign is not None:
        return IllegalAction("CG-TUT1-04", "{figure} is not one of your characters in hand", figure=foreign)
    twice = next((fid for fid in ids if ids.count(fid) > 1), None)
    if twice is not None:
        return IllegalAction("CG-TUT1-04", "{figure} is placed twice", figure=twice)
    if len(ids) != n:
        return IllegalAction("CG-TUT1-04", "place exactly {n} of your characters on your start zone", n=n)
    if any(col not in (0, 1) for _, col in placements):
        return IllegalAction("CG-START-01", "a start position is in front of room column 1 or 2")
    if max(sum(1 for _, c in placements if c == col) for col in (0, 1)) > MAX_PER_ZONE:
        return IllegalAction("CG-START-07", "at most 3 characters at one start position")
    return None


def face_refusal(facings, options) -> IllegalAction | None:
    """Why the facings `facings` ((figure, zone or icon), ...) break the rules, for a seat whose start characters
    may face `options` ({figure: what it may face, `Maze.facings_in_front`: the zones of the room in front of it,
    or the icons of its card while it is face down, DT-266}), or None (`_face`, `choice_refusal`)."""
    mine = sorted(options)
    ids = [fid for fid, _ in facings]
    if sorted(ids) != mine or len(set(ids)) != len(ids):
        return IllegalAction("CG-START-02", "choose the facing of each of {figures}", figures=", ".join(mine))
    for fid, zone in facings:
        if zone not in options[fid]:
            return (facing_refusal("CG-START-02", zone, tuple(options[fid]), fid)
                    or IllegalAction("CG-START-01", "{figure} faces a zone of the room in front of it", figure=fid))
    return None


def facing_refusal(rule: str, facing, options: tuple, figure: str) -> IllegalAction | None:
    """Why `figure` (a character, or an object moved along the start zone) may not face `facing`, none of
    `options` (what it may face there, `Maze.facings_in_front`), when it is of the other kind (DT-266: a zone while
    the room is face down, an icon while it is face up) or an icon the card does not carry; None for a zone of
    another room (the caller's refusal). `rule`: the choice's (CG-START-02 at the setup, CG-START-04 a turn,
    CG-START-05 a step along the start zone)."""
    icons = sorted((x for x in options if is_icon(x)), key=ICONS.index)  # (a client's choices: a set)
    if icons and not is_icon(facing):
        return IllegalAction(rule, "{figure}: the room in front is face down: point one of its card's icons at it "
                             "({icons}), not a zone (DT-266)", figure=figure, icons=", ".join(icons))
    if is_icon(facing) and not icons:
        return IllegalAction(rule, "{figure}: the room in front is face up: face one of its zones, not an icon "
                             "(DT-266)", figure=figure)
    if is_icon(facing):
        return IllegalAction(rule, "{figure}: {icon} is not an icon of that room card ({icons})", figure=figure,
                             icon=facing, icons=", ".join(icons))
    return None


def _not_in_hand(value: int) -> IllegalAction:
    return IllegalAction("CG-COMBAT-02", "no +{value} card in hand", value=value)


def _must_play(named: int) -> IllegalAction:
    return IllegalAction("CG-CHAR-TELEPATH-01", "the Telepath named +{named}: you hold it, you play it", named=named)


def choice_refusal(action, choices, named: int | None = None, hand=None) -> IllegalAction | None:
    """Why the secret choice `action`, none of `choices` (the seat's legal choices of the same moment), breaks
    the rules, as `apply` would say, from what the choices and the seat's view show: the start placement's
    characters and their number, each start character's facings, and a single combat card (a Berserker's two
    cards are left alone). None when they do not tell. The card's refusal needs the hand (`hand`: the view's
    my_cards): a card not in it, then one that is not the card a Telepath named (`named`, the view's
    combat.mind.named) while the hand holds it, in `_combat_card`'s order. Without the hand, two different values
    or more among the choices are the hand's, and a value not among them is not in it; one value tells nothing (a
    one-card hand, or the naming)."""
    if isinstance(action, CombatCard):
        cards = [c for c in choices if isinstance(c, CombatCard)]
        values = {c.value for c in cards}
        if action.second is None and cards and all(c.second is None for c in cards):
            if hand is not None:
                if action.value not in hand:
                    return _not_in_hand(action.value)
                if named and named in hand and action.value != named:
                    return _must_play(named)
            elif len(values) > 1 and action.value not in values:
                return _not_in_hand(action.value)
    if isinstance(action, Hide):
        hides = [c for c in choices if isinstance(c, Hide)]
        if hides:
            mine = {fid for c in hides for fid, _ in c.placements}
            return hide_refusal(action.placements, mine, len(hides[0].placements))
    if isinstance(action, Face):
        faces = [c for c in choices if isinstance(c, Face)]
        if faces:
            options: dict[str, set] = {}
            for c in faces:
                for fid, zone in c.facings:
                    options.setdefault(fid, set()).add(zone)
            return face_refusal(action.facings, options)
    return None


def _remove(state: CardState, a: Remove):
    """CG-HCAP-03: after the selection, the handicapped player leaves out his number of characters, in secret
    (the others learn how many); CG-HCAP-02: two always remain for the start zone."""
    _need_phase(state, a, "handicap", "CG-HCAP-03")
    n = state.options.handicap[1]
    mine = {f.id for f in state.figures if f.seat == a.seat and f.where == "hand"}
    if len(set(a.figures)) != len(a.figures) or not set(a.figures) <= mine or len(a.figures) != n:
        raise IllegalAction("CG-HCAP-03", "leave out exactly {n} of your characters", n=n)
    new = state
    for fid in a.figures:
        new = new.with_figure(replaced(new.fig(fid), where="removed"))
    return new.but(phase="hide"), [secret_event("removed", a.seat, {"seat": a.seat, "figures": sorted(a.figures)},
                                                {"seat": a.seat, "count": n})]



def _seed(state: CardState, a: Seed):
    _need_phase(state, a, "seed", "CG-TUT1-04")
    card = state.item(a.item) if state.has_item(a.item) else state.fig(a.item) if state.has_fig(a.item) else None
    if card is None or card.seat != a.seat or card.where != "hand":
        raise IllegalAction("CG-TUT1-04", "{item} is not a card in your hand", item=a.item)
    if not 0 <= a.slot < len(state.rooms):
        raise IllegalAction("CG-TUT1-04", "no such room")
    setup = _tutorial(state)
    per_room = setup["cards_per_row"][a.slot // 2]  # RUL-111 for tutorial 2
    if sum(1 for c in state.items + state.figures if c.where == "seeded" and c.at == a.slot) >= per_room:
        # the rule that says how many: the tutorial's (CG-TUT1-04, CG-TUT2-04, CG-TUT3-02) or the scenario card's
        raise IllegalAction(setup["seeding_rule"], "that room already holds all the cards its setup gives it "
                            "({per_room})", per_room=per_room)
    new = (state.with_item(replaced(card, where="seeded", at=a.slot)) if isinstance(card, Item)
           else state.with_figure(replaced(card, where="seeded", at=a.slot)))
    events = [secret_event("seeded", a.seat, {"seat": a.seat, "slot": a.slot, "item": a.item},
                           {"seat": a.seat, "slot": a.slot})]
    left = {s: any(c.seat == s and c.where == "hand" for c in new.items + new.figures) for s in SEATS}
    if not any(left.values()):
        return new.but(phase="face"), events
    nxt = opponent(a.seat) if left[opponent(a.seat)] else a.seat
    return new.but(seeder=nxt), events


def _face(state: CardState, a: Face):
    _need_phase(state, a, "face", "CG-START-02")
    options = {f.id: state.maze.facings_in_front(a.seat, f.at)
               for f in state.figures if f.seat == a.seat and f.where == "start"}
    problem = face_refusal(a.facings, options)
    if problem is not None:
        raise problem
    choice = tuple(sorted(a.facings))
    secret = state.secret + ((a.seat, choice),)
    events = [secret_event("faced", a.seat, {"seat": a.seat, "facings": [[f, facing_name(z)] for f, z in choice]},
                           {"seat": a.seat})]
    if len(secret) < 2:
        return state.but(secret=secret), events
    new = state
    for _, ch in secret:
        for fid, zone in ch:
            new = new.with_figure(replaced(new.fig(fid), facing=zone))
    first = state.first
    new = new.but(secret=(), phase="main", active=first, turn=1)
    p = new.player(first)
    new = new.with_player(first, replaced(p, ap=2))  # CG-TURN-03
    events.append(event("teams", figures=[[f.id, f"{f.seat}{f.at + 1}", facing_name(f.facing)]
                                          for f in new.figures if f.where == "start"], first=first, ap=2))
    return new, events


def _main_checks(state: CardState, a, fid: str | None):
    _need_phase(state, a, "main", "CG-TURN-01")
    if fid is None:
        return None
    return _acting_figure(state, a.seat, fid)


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


# --- move ------------------------------------------------------------------------------------------------------

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
                raise IllegalAction("CG-CHAR-PALADIN-01", "{figure} carries two things already: he leaves one first, "
                                    "here (-{held} +{item})", figure=me.id, held=me.carries[0], item=typed)
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
                raise IllegalAction("CG-WOUND-03", "{to} cannot take it: it must carry nothing, unwounded", to=friend)
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


def _check_win(st: CardState, events: list) -> CardState:
    """CG-END-01: the first to reach the target wins at once."""
    for s in SEATS:
        if st.player(s).vp >= st.target_vp:
            vp = tuple((x, st.player(x).vp) for x in SEATS)
            # the board game's and the server's shape (docs/protocol.md, game_over.result): {"B": vp, "Y": vp}
            events.append(event("game_over", winner=s, vp=dict(vp), reason="vp"))
            return st.but(outcome=Outcome(s, vp, "vp"), phase="over")
    return st


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


def _bend(state: CardState, a: BendBars):
    f = _main_checks(state, a, a.figure)
    if "bend_bars" not in _abilities(state, f):
        raise IllegalAction("CG-CHAR-WARRIOR-01", "{figure} cannot bend bars", figure=f.id)
    if f.where != "maze" or f.at != a.zone or a.side not in GLOBAL:
        raise IllegalAction("CG-CHAR-WARRIOR-01", "only a portcullis on a border of its own zone")
    keys = state.maze.portcullis_keys(a.zone, a.side)
    if not keys or all(k in state.broken for k in keys):
        raise IllegalAction("CG-CHAR-WARRIOR-01", "no portcullis left to break there")
    if all(_broken(state, k) for k in keys):  # (the Golem broke the room's walls, its portcullis with them)
        raise IllegalAction("CG-CHAR-GOLEM-02", "no portcullis left to break there")
    new = _spend(state, a.seat)
    new = new.but(broken=state.broken | frozenset(keys), opened=state.opened - frozenset(keys))
    return new, [event("bend_bars", figure=f.id, zone=zone_name(a.zone), side=a.side)]


# --- melee combat (CG-COMBAT, CG-GROUP within a zone, CG-WOUND) ----------------------------------------------

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
    up (two cancel out; never in a ranged combat, which does not call this)."""
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
    if not line_of_sight(state, f.at, t.at):
        raise IllegalAction("CG-OBJ-LANCE-01", "{figure} does not see {at}", figure=f.id, at=zone_name(t.at))


# --- line of sight and ranged combat (CG-LOS, CG-RANGED) -------------------------------------------------------

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
        raise IllegalAction("CG-CHAR-WIZARD-02", "{figure} is no spellcaster: he carries the scroll, he cannot read "
                            "it", figure=f.id)
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
        raise IllegalAction("CG-CHAR-PICKPOCKET-02", "{figure} carries something: he drops it first, in a move",
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
            raise IllegalAction("CG-CHAR-TELEKIN-02", "{to} cannot take it: it must carry nothing, unwounded", to=a.to)
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


def _use(state: CardState, power: str, *figures: str) -> CardState:
    """Mark a once-a-turn power as used by these figures (`CardState.used_now`)."""
    return state.but(used_now=tuple(sorted(set(state.used_now) | {f"{power}:{fid}" for fid in figures})))


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
    enemy."""
    return f.where == "maze" and not _enemy_unwounded(state, f.at, f.seat)


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
    """Each side's total in the combat `c` before its combat cards (CG-COMBAT-03): its figures' values with what
    changes them. The view shows them while the cards are awaited (unless objects are secret: a carried Sword or
    Armour would tell what the opponent may not see, CG-OPT-03); `_resolve` adds the cards."""
    ranged = dict(c.ranged)  # CG-RANGED-04/07: a shooter fights with its ranged value, which nothing changes
    attacker = c.sides[0][0]

    def value(fid: str, ids: tuple, seat: str) -> int:
        if fid in ranged:
            return ranged[fid]
        f = state.fig(fid)
        powers = _abilities(state, f)
        out = _value(state, fid)
        if len(ids) >= 2 and "stab" in powers:
            out += 2  # CG-CHAR-BACKSTABBER-01: +2 with a friend fighting beside her
        if seat == attacker and not ranged and "sword" in powers:
            out += _powers_count(state, f, "sword")  # CG-OBJ-SWORD-01: attacking, in melee (two add up)
        if seat != attacker:
            out += _powers_count(state, f, "armor")  # CG-OBJ-ARMOR-01: defending, a wounded carrier too
        if not ranged and _general_near(state, f):
            out += 1  # CG-CHAR-GENERAL-01/02
        return out

    return {seat: sum(value(fid, ids, seat) for fid in ids) for seat, ids in c.sides}


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


_HANDLERS = {Hide: _hide, Seed: _seed, Face: _face, EndTurn: _end, Reveal: _reveal, Place: _place, Move: _move,
             Rotate: _rotate, Jump: _jump, Portcullis: _portcullis, Attack: _attack, CombatCard: _combat_card,
             BendBars: _bend, Shoot: _shoot, Heal: _heal, Regenerate: _regenerate, Fireball: _fireball,
             Steal: _steal, WallWalk: _wallwalk, BreakWalls: _break_walls, MindControl: _mind, Frenzy: _frenzy,
             Invert: _invert, Levitate: _levitate, PassPlacement: _pass_placement, Pick: select.pick,
             Build: select.build, Remove: _remove}


# --- legal actions ---------------------------------------------------------------------------------------------

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
            # a melee between two rooms' zones needs the same zone or a Lance (CG-COMBAT-01, CG-OBJ-LANCE-01) and
            # one between two start zones is none (CG-SZ-01): `_attack` refuses those at once, they are not tried
            apart = f.at if f.where == "maze" and "lance" not in _abilities(state, f) else None
            yield from (Attack(seat, f.id, g.id) for g in state.figures
                        if g.seat != seat and g.where in ("maze", "start")
                        and not (g.where == f.where == "start" or apart is not None and g.where == "maze"
                                 and g.at != apart)
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
                for s in range(len(state.rooms)):
                    for cw in (True, False):
                        if _accepts(state, Rotate(seat, f.id, s, cw)):
                            yield Rotate(seat, f.id, s, cw)
            for side in GLOBAL:
                z = mz.step(f.at, side)
                if z is not None and "pit" in mz.features(f.at, side):
                    if _accepts(state, Jump(seat, f.id, z)):
                        yield Jump(seat, f.id, z)
                    elif state.player(seat).jumps == 0:  # CG-JUMP-04
                        yield from (Jump(seat, f.id, z, v) for v in sorted(set(state.player(seat).cards))
                                    if _accepts(state, Jump(seat, f.id, z, v)))
                if "bend_bars" in abilities and _accepts(state, BendBars(seat, f.id, f.at, side)):
                    yield BendBars(seat, f.id, f.at, side)
                if abilities & {"key", "lockpick"}:
                    for op in (True, False):
                        if _accepts(state, Portcullis(seat, f.id, f.at, side, op)):
                            yield Portcullis(seat, f.id, f.at, side, op)


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


def _paths(state: CardState, f: Figure, probe: bool = False) -> list:
    """One path per outcome of a move of `f` (docs/rulings.md DT-217): the shortest, the first a breadth-first
    search finds (with `probe`, those found by the time there is one: DT-239's test, `_stuck`, asks only whether
    there is one, and searching on cost it a whole search at every `end` with an action point left). The search
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
    lefts: dict = {}  # board number -> `_left_friend`
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
    exchanged: dict = {}  # (token, (location, facing, the mover's cards), the cards it reads) -> the same, or ()
    #                       if the rules refuse it
    mover_slot, loads_at, n_figures = slot_of[False, fid], ("carried", fid), len(figures)
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
            # (an exchange changed the walk's state), the zone that friend was left in too
            if not exited:
                at, mine = tally(number)
                count = at.get(loc, 0) + mine
            if exited or count < MAX_PER_ZONE:
                left = lefts.get(number)
                if left is None:
                    left = lefts[number] = left_friend(number)
                if not left or _gold_after(_walk_at(state_of(number), mover, loc, facing, restrict, exited)):
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

    def exchanges(number: int, loc, facing) -> list:
        """The exchanges the rules accept with the cards of `number` at `loc` (facing `facing`): (token, the cards
        it replaces as `board` takes them, whether it took an object unseen). `_Walk._op` depends on nothing else
        but the exchange just before it, whose undoing it refuses last, after every other check: that one is left
        to the caller (a token that makes the cards of the state before the last exchange).

        The rules are asked only for cards not met before. The tokens tried at a place depend only on the cards
        there, what they carry and what the mover carries (`_tokens_at`): they are listed and tried once
        per such cards (`local`), and the answer, the cards each exchange replaces, is laid on every board that
        has them there. What a token does depends only on the mover's cards and the cards it names (`reads`):
        it is tried once per such cards (`exchanged`), whatever else lies there."""
        lying = nearby(number)
        mine = (loc, facing, boards[number][mover_slot], tuple(lying.get(loads_at, ())))
        here = mine + (around(number, loc),)
        edits = local.get(here)
        if edits is None:
            edits = local[here] = []
            there = [records[n] for n in lying.get(loc, ())]
            for tok in _tokens_at(records[mine[2]], [c for c in there if isinstance(c, Figure)],
                                  [c for c in there if isinstance(c, Item)], secret, start.has_item, start.has_fig):
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


# --- notation helpers used above (defined in notation.py, imported late to avoid a cycle) ---------------------

@lru_cache(maxsize=256)
def parse_zone(text: str):
    from .notation import zone_from
    try:
        return zone_from(text)
    except ValueError:
        raise IllegalAction("CG-MOVE-02", "not a zone: {text}", text=repr(text)) from None


@lru_cache(maxsize=256)
def parse_facing(text: str, rule: str):
    """A facing in a path token (`^a2`, `B2^T`): a zone or an icon's letter (DT-266)."""
    from .notation import facing_from
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
    from .notation import start_from
    try:
        return start_from(text)
    except ValueError:
        raise IllegalAction("CG-MOVE-02", "not a start position: {text}", text=repr(text)) from None
