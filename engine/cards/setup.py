"""The card game's setup: its options, a new game, and the choices before play (CG-SCEN, CG-HCAP, CG-SEL;
hiding and seeding the objects, removing characters, facing the start zone: CG-START-02, CG-TUT1)."""

from __future__ import annotations

from ..core.errors import IllegalAction
from ..core.events import event, secret_event
from ..core.rng import Rng
from .actions import CombatCard, Face, Hide, Remove, Seed
from .catalogue import ICONS, load
from .common import MAX_PER_ZONE, _need_phase, _tutorial
from .maze import facing_name, is_icon
from .state import CardOptions, CardState, Figure, Item, Player, Room, SEATS, Selection, opponent, replaced


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


def _hide(state: CardState, a: Hide):
    # (the setup's own rule: a scenario's hide out of its time cited the first tutorial's, play-test pt25b F5)
    _need_phase(state, a, "hide", _tutorial(state)["setup_rule"])
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
    setup = _tutorial(state)
    _need_phase(state, a, "seed", setup["seeding_rule"])
    card = state.item(a.item) if state.has_item(a.item) else state.fig(a.item) if state.has_fig(a.item) else None
    if card is None or card.seat != a.seat or card.where != "hand":
        raise IllegalAction(setup["seeding_rule"], "{item} is not a card in your hand", item=a.item)
    if not 0 <= a.slot < len(state.rooms):
        raise IllegalAction(setup["seeding_rule"], "no such room")
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
