"""Indistinguishability of twin card games (docs/rulings.md DT-042, DT-222; the card game's hidden information).

What a card-game seat X keeps from its opponent and from the spectators, and the rule that makes it secret:
- which of its cards lie face down beside which room, characters and objects (CG-TUT1-04, CG-TUT2-04,
  CG-SCEN-02), until the room is revealed (CG-REVEAL-05);
- which characters lie face down on its start zone, and which are still in hand (CG-TUT1-04, CG-TUT2-04), until
  the teams are revealed (CG-TUT1-05), and its pending secret choices of them (`hide`, `face`);
- the characters a handicapped player leaves out (CG-HCAP-03): never;
- what its characters carry when the objects are secret (CG-OPT-03, DT-222), until it is used, dropped, taken,
  carried out or fights in the open;
- the order of its combat cards in hand (CG-COMP-05: chosen freely; the order is nobody's business): never;
- a combat card laid face down and not yet revealed (CG-COMBAT-02), and which of them a Berserker laid;
- a full frontal team (CG-SEL-FULL-01) until its cards show;
- and nobody's: the face-down room cards and their orientations (CG-TUT1-02, CG-TUT2-02, CG-REVEAL-05), and the
  seed, which drew them and the first player (CG-TUT1-05: « a new draw picks the first player », unseen until the
  teams are revealed).

Two "twin" states that differ only in one such secret of X must send X's opponent and a spectator the same bytes:
everything the server sends them after each step (the view, the step's events as each sees them, and for the
opponent its legal actions, its pending secret purpose and its timeout fallback; besides, for everyone, the
timers' clock and whether the step may be taken back, which the opponent learns when asked), and the refusals
the engine gives the opponent when it names X's hidden cards in an action. Both games go on with the same public
actions (X's own mapped through the relabelling, so that they are the same action as seen from outside; an action
of X's that the twin refuses is X's own knowledge, and another is drawn), until the rules make the difference
public; that step is not compared. The control tests at the end plant a content leak and an order leak and show
the comparison catches both.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import msgpack
from hypothesis import HealthCheck, given, settings, strategies as st

from dungeon_twister.engine.cards import (CardOptions, CombatCard, apply, format_action, legal_actions, new_game,
                                          parse_action, secret_purpose, view)
from dungeon_twister.engine.cards import views as views_module
from dungeon_twister.engine.cards.actions import (Attack, Fireball, Heal, Invert, Jump, Move, Place, Reveal, Rotate,
                                                  Seed, Shoot, Steal)
from dungeon_twister.engine.cards.catalogue import load
from dungeon_twister.engine.cards.maze import slot_zones, zone_name
from dungeon_twister.engine.cards.state import SEATS, Figure, Room, opponent, replaced
from dungeon_twister.engine.cards.timeouts import clock, timeout_action
from dungeon_twister.engine.core.choice import is_lazy
from dungeon_twister.engine.core.errors import EngineError
from dungeon_twister.engine.core.events import event_view
from dungeon_twister.engine.core.rng import Rng
from dungeon_twister.engine.families import CARDS

from .builders import kind_first

PROFILE = settings(max_examples=5, deadline=None, derandomize=True, database=None,
                   suppress_health_check=[HealthCheck.too_slow])
HORIZON = 30
"""Steps played on both twins after the transformation (fewer if the difference becomes public)."""
PROBE_EVERY = 4
"""Refusals (see `probes`) are compared at every this many steps after which the observer is to act."""

VARIANTS = {
    "tutorial-2": CardOptions(2),
    "tutorial-3": CardOptions(3),
    "tutorial-3-secret": CardOptions(3, secret_objects=True),
    "mutual-secret": CardOptions(None, "standard", "mutual", secret_objects=True),
    "draft": CardOptions(None, "standard", "draft"),
    "full-secret": CardOptions(None, "standard", "full", secret_objects=True),
    "handicap-secret": CardOptions(None, "standard", "mutual", handicap=("B", 3, (6,)), secret_objects=True),
}
SECRET = sorted(name for name, options in VARIANTS.items() if options.secret_objects)

TOTALS: dict[str, list[int]] = {}
"""Per test: [examples, compared steps, examples in which the difference became public]: figures for a report."""


def pack(value) -> bytes:
    return msgpack.packb(value, use_bin_type=True)


def _legal_texts(state, seat: str) -> list[str]:
    """What the server sends a seat as its legal actions (server/viewing.legal_texts)."""
    if state.outcome is not None or seat not in state.to_act:
        return []
    legal = legal_actions(state, seat)
    if is_lazy(legal):
        return []  # a full frontal team: the view's build.parts describe it
    return [format_action(action) for action in legal]


def channels(state, events, viewer: str | None) -> dict[str, bytes]:
    """Everything the engine gives the server to send `viewer` (a seat; None: a spectator) after one step, packed:
    the view, the step's events (None where the viewer sees nothing of one: an event absent for a viewer still
    counts), the timers' clock (the server's timer messages follow it), whether the step may be taken back (DT-224:
    the opponent is asked, or not), and for a seat its legal actions, secret purpose and timeout fallback."""
    refusal = CARDS.takeback_refusal(state, events) if events else None
    out = {"view": pack(view(state, viewer)), "events": pack([event_view(e, viewer) for e in events]),
           "clock": pack(repr(clock(state))), "takeback": pack(refusal and refusal[0])}
    if viewer is not None:
        fallback = timeout_action(state, viewer)
        out["legal"] = pack(_legal_texts(state, viewer))
        out["secret"] = pack(secret_purpose(state, viewer))
        out["timeout"] = pack(format_action(fallback) if fallback else None)
    return out


def differences(a, a_events, b, b_events, observer: str) -> list[str]:
    """The channels ("Y view", "spectator events", ...) whose bytes differ between the twins, for `observer` and
    a spectator. [] means the twins are indistinguishable to both."""
    out = []
    for viewer in (observer, None):
        mine, theirs = channels(a, a_events, viewer), channels(b, b_events, viewer)
        out += [f"{viewer or 'spectator'} {name}" for name in mine if mine[name] != theirs[name]]
    return out


def every_id(seat: str) -> list[str]:
    """Every id a card of `seat` may have, in any game (`bWA`, `bKY`, a second copy `bKY2`: engine/cards/select.py)."""
    cat, colour = load(), seat.lower()
    return sorted([colour + code for code in cat.characters]
                  + [colour + code + suffix for code, copies in cat.object_deck
                     for suffix in ("", "2")[:copies]])


def probes(state, observer: str) -> bytes:
    """What the engine answers `observer` when it names what it may not see in an action: "ok" or the refusal's
    rule and message (sent back as action_refused). A refusal must not tell where a hidden card is, what a
    character carries, whether a team holds a card, or what a face-down room is: the same for both twins.

    Named cards: every id a card of the other colour may have, in the game or not, in an attack, a shot, a heal,
    a fireball, a steal, a move that takes it, its placement and its seeding (by the observer's first character).
    Named places: for each of the observer's characters in play (three at most), each room in a reveal, a
    rotation either way and an inversion, and each zone of the maze as a move's one step and a jump's landing."""
    figures = [f.id for f in state.figures if f.seat == observer]
    mine = min(figures, default=f"{observer.lower()}MK")
    out = []

    def answer(action) -> None:
        try:
            apply(state, action)
            out.append("ok")
        except EngineError as error:
            out.append(str(error))
    for card in every_id(opponent(observer)):
        for action in (Attack(observer, mine, card), Shoot(observer, mine, card), Heal(observer, mine, card),
                       Fireball(observer, mine, card), Steal(observer, mine, card),
                       Move(observer, mine, ("+" + card,)), Place(observer, card, (0, 0)), Seed(observer, card, 0)):
            answer(action)
    zones = [zone for slot in range(len(state.rooms)) for zone in slot_zones(slot)]
    for fid in [f.id for f in state.figures if f.seat == observer and f.where in ("maze", "start")][:3]:
        for slot in range(len(state.rooms)):
            for action in (Reveal(observer, fid, slot), Rotate(observer, fid, slot, True),
                           Rotate(observer, fid, slot, False), Invert(observer, fid, slot)):
                answer(action)
        for zone in zones:
            answer(Move(observer, fid, (zone_name(zone),)))
            answer(Jump(observer, fid, zone))
    return pack(out)


# --- twins ---------------------------------------------------------------------------------------------------
_ID = re.compile(r"\b[by][A-Z]{2}\d?\b")


def map_action(action, x: str, sigma: dict[str, str]):
    """X's action in the twin game: every card id in its text relabelled by `sigma` (the notation round-trips)."""
    if action.seat != x or not sigma:
        return action
    text = _ID.sub(lambda m: sigma.get(m.group(0), m.group(0)), format_action(action))
    return parse_action(text, x)


def relabel(state, x: str, sigma: dict[str, str]):
    """The twin state in which card sigma[a] is wherever card a is (and a figure's facing, wounds, loads and pin
    with it), the loads naming sigma's ids, and X's pending secret choice naming them too; everything else, the
    order of the cards included, unchanged. `sigma` is a permutation of some of X's card ids."""
    def card(cid):
        return state.fig(cid) if state.has_fig(cid) else state.item(cid)
    figures, items = {}, {}
    for a, b in sigma.items():
        source, target = card(a), card(b)
        changes = {"where": source.where, "at": source.at}
        if isinstance(source, Figure) and isinstance(target, Figure):
            changes.update(facing=source.facing, wounded=source.wounded, carries=source.carries, pin=source.pin)
        moved = replaced(target, **changes)
        (figures if isinstance(target, Figure) else items)[b] = moved
    twin = state.with_cards(figures, items)
    for item in twin.items:  # a carried card's `at` names its carrier
        if item.where == "carried" and item.at in sigma:
            twin = twin.with_item(replaced(item, at=sigma[item.at]))
    loads = {f.id: replaced(f, carries=tuple(sorted(sigma.get(c, c) for c in f.carries)))
             for f in twin.figures if any(c in sigma for c in f.carries)}
    twin = twin.with_cards(loads, {})
    secret = tuple((seat, tuple(sorted((sigma.get(cid, cid), rest) for cid, rest in choice)))
                   if seat == x and isinstance(choice, tuple) and choice and isinstance(choice[0], tuple)
                   and isinstance(choice[0][0], str) and choice[0][0][:1] in "by" else (seat, choice)
                   for seat, choice in state.secret)
    return twin.but(secret=secret)


def hidden_from(state, cid: str, observer: str) -> bool:
    """Whether `observer` does not know where X's card `cid` is: in hand, face down beside a room, left out of a
    handicap game, face down on the start zone before the teams are revealed, or (secret objects) carried by a
    character of its owner."""
    card = state.fig(cid) if state.has_fig(cid) else state.item(cid)
    if card.where == "seeded" and state.rooms[card.at].revealed:
        return False  # its room is revealed, and its cards with it (CG-REVEAL-05), waiting to be placed
    if state.has_fig(cid):
        f = state.fig(cid)
        return f.seat != observer and (f.where in ("hand", "seeded", "removed")
                                       or (f.where == "start" and state.phase in ("hide", "seed", "face")))
    i = state.item(cid)
    if i.seat == observer:
        return False
    if i.where in ("hand", "seeded"):
        return True
    return (i.where == "carried" and state.options.secret_objects and state.has_fig(i.at)
            and state.fig(i.at).seat != observer)


def _dropped(ev, card: str) -> bool:
    """Whether the public form of a move (or wall-walk) event shows `card` dropped on the floor on its way, or
    taken from the floor, where the move laid it (a swap: taking an object with full hands lays the load there)."""
    path = (event_view(ev, None) or {}).get("path", ())
    return f"-{card}" in path or f"+{card}" in path


FIGHTS = {"attack", "shoot", "combat", "shield_shown"}
"""The events of a fight, whose values and outcome show what its fighters carry (DT-222: in the open)."""


def _relabel_public(x: str, sigma: dict[str, str]):
    """The moment a relabelling becomes public: a relabelled card is no longer hidden from X's opponent in either
    game (its room revealed, CG-REVEAL-05; the teams revealed, CG-TUT1-05; an object dropped, taken, carried out
    or used up), an object is dropped on the way of a move, or a character carrying a relabelled object fights in
    the open (DT-222)."""
    observer = opponent(x)

    def public(a, b, a_next, b_next, action, a_events, b_events) -> bool:
        if any(not hidden_from(s, c, observer) for s in (a_next, b_next) for c in sigma):
            return True
        if any(_dropped(e, c) for e in a_events + b_events for c in sigma):
            return True  # laid in the open on the way, and maybe taken back (DT-222: seen on the floor)
        if not {e.kind for e in a_events + b_events} & FIGHTS:
            return False
        carriers = {s.item(c).at for s in (a, b) for c in sigma if s.has_item(c) and s.item(c).where == "carried"}
        fighters = {getattr(action, "target", None)}
        for s in (a, b, a_next, b_next):
            if s.combat is not None:
                fighters |= {fid for _, ids in s.combat.sides for fid in ids} | {fid for fid, _ in s.combat.ranged}
        return bool(carriers & fighters)
    return public


def _rooms_public(a, b, a_next, b_next, action, a_events, b_events) -> bool:
    """A room that differs between the twins is revealed (CG-REVEAL-05), or the first player, drawn at the setup,
    differs and the teams are revealed (CG-TUT1-05)."""
    if any(p.revealed and p != q for p, q in zip(a_next.rooms, b_next.rooms)):
        return True
    return a_next.first != b_next.first and a_next.phase not in ("select", "handicap", "hide", "seed", "face")


@dataclass
class TwinRun:
    compared: int = 0
    acting: int = 0
    """Compared steps after which the observer is to act (its refusals are probed at every PROBE_EVERY-th)."""
    public: bool = False
    problems: list[str] = field(default_factory=list)


def choose(rng: Rng, state, seat: str | None = None):
    """A random legal action (of `seat`, else of any seat to act): a uniformly drawn kind, then an action of it
    (tests/engine/cards/builders.kind_first); a full frontal team, any of them."""
    offered = legal_actions(state, seat)
    if is_lazy(offered):
        return offered[rng.below(len(offered))]
    return kind_first(rng, offered)


def _step(a, b, x: str, sigma: dict[str, str], rng: Rng, public, tries: int = 24):
    """One action of game `a` played on both twins (X's mapped through `sigma`): (action, a's next state and
    events, b's, whether it makes the difference public); a problem's text, or None when none is found. An action
    of X's that the twin refuses is X's own knowledge: another is drawn. So is, while others are found, an action
    that makes the difference public: the twins are compared for longer."""
    revealing = None
    for _attempt in range(tries):
        action = choose(rng, a)
        twin_action = map_action(action, x, sigma)
        try:
            b_next, b_events = apply(b, twin_action)
        except EngineError as error:
            if action.seat != x:  # the opponent's actions are the same public actions in both games
                return f"{format_action(twin_action)} refused in the twin: {error}"
            continue
        a_next, a_events = apply(a, action)
        shown = public(a, b, a_next, b_next, action, a_events, b_events)
        if not shown:
            return action, a_next, a_events, b_next, b_events, False
        revealing = revealing or (action, a_next, a_events, b_next, b_events, True)
    return revealing


def run_twins(a, b, x: str, sigma: dict[str, str], rng: Rng, public, steps: int = HORIZON) -> TwinRun:
    """Play random legal actions of game `a` on both twins (X's mapped through `sigma`) and compare what X's
    opponent and a spectator are sent after each step, until `public(...)` or `steps` steps or the end."""
    observer = opponent(x)
    result = TwinRun(problems=differences(a, (), b, (), observer))
    if probes(a, observer) != probes(b, observer):
        result.problems.append(f"{observer} refusals")
    for _ in range(steps):
        if result.problems or a.outcome is not None:
            break
        step = _step(a, b, x, sigma, rng, public)
        if isinstance(step, str):
            result.problems.append(step)
            break
        if step is None:
            break
        action, a_next, a_events, b_next, b_events, shown = step
        if shown:
            result.public = True
            break
        result.problems += differences(a_next, a_events, b_next, b_events, observer)
        result.compared += 1
        if observer in a_next.to_act:  # (while the other acts, every action is refused as out of turn)
            result.acting += 1
            if result.acting % PROBE_EVERY == 1 and probes(a_next, observer) != probes(b_next, observer):
                result.problems.append(f"{observer} refusals")
        a, b = a_next, b_next
    return result


def walk(options: CardOptions, seed: int, steps: int, rng: Rng, until=lambda state: True, limit: int = 300):
    """A random legal game: at least `steps` actions, then on until `until(state)` (at most `limit` in all)."""
    state = new_game(options, seed)
    for n in range(limit):
        if state.outcome is not None or (n >= steps and until(state)):
            break
        state, _ = apply(state, choose(rng, state))
    return state


def _record(name: str, outcome: TwinRun) -> None:
    totals = TOTALS.setdefault(name, [0, 0, 0])
    totals[0] += 1
    totals[1] += outcome.compared
    totals[2] += outcome.public


def assert_swap_unseen(a, x: str, first: str, second: str, rng: Rng, label: str) -> TwinRun:
    """Swap the places of X's cards `first` and `second` and play the twins on: they must look the same to X's
    opponent and a spectator until the rules make one of the two public."""
    sigma = {first: second, second: first}
    outcome = run_twins(a, relabel(a, x, sigma), x, sigma, rng, _relabel_public(x, sigma))
    _record(label, outcome)
    assert outcome.problems == [], (label, sigma, outcome)
    return outcome


GAME = dict(seed=st.integers(0, 2**32), x=st.sampled_from(SEATS), pick=st.integers(0, 2**32))


def _hidden(state, x: str, kind=None, where=()) -> list[str]:
    cards = state.figures if kind == "figure" else state.items if kind == "item" else state.figures + state.items
    return sorted(c.id for c in cards if c.seat == x and hidden_from(state, c.id, opponent(x))
                  and (not where or c.where in where))


# --- the transformations, one test per secret ----------------------------------------------------------------
@PROFILE
@given(moment=st.integers(0, 30), variant=st.sampled_from(["tutorial-2", "tutorial-3", "draft", "full-secret"]),
       **GAME)
def test_CG_TUT1_04_which_card_lies_face_down_beside_which_room_stays_hidden(seed, variant, x, pick, moment):
    """CG-TUT1-04, CG-TUT2-04, CG-SCEN-02: X's cards seeded face down beside the rooms (characters and objects),
    nobody may look at them; swap one with another of X's seeded cards or with one still in hand. Public when
    either's room is revealed (CG-REVEAL-05)."""
    rng = Rng(pick)
    a = walk(VARIANTS[variant], seed, moment, Rng(seed), lambda s: len(_hidden(s, x, where=("seeded",))) >= 2, 200)
    seeded = _hidden(a, x, where=("seeded",))
    if not seeded:
        return
    first = rng.choice(seeded)
    others = [c for c in _hidden(a, x, where=("seeded", "hand")) if c != first
              and not (a.phase == "hide" and a.has_fig(c) != a.has_fig(first))]
    if not others:
        return
    assert_swap_unseen(a, x, first, rng.choice(others), rng, "seeded cards")


@PROFILE
@given(moment=st.integers(0, 12), variant=st.sampled_from(["tutorial-2", "tutorial-3", "mutual-secret", "draft"]),
       **GAME)
def test_CG_TUT1_05_which_characters_lie_face_down_on_the_start_zone_stays_hidden(seed, variant, x, pick, moment):
    """CG-TUT1-04/05, CG-TUT2-04: the characters X placed face down on its start zone (or chose to, its `hide`
    choice pending), and its secret facings: swap one with another of X's hidden characters (in hand, seeded).
    Public when the teams are revealed with their facings (CG-TUT1-05)."""
    rng = Rng(pick)

    def ready(s):
        return s.phase in ("hide", "seed", "face") and (s.phase != "hide" or x in dict(s.secret))
    a = walk(VARIANTS[variant], seed, moment, Rng(seed), ready, 200)
    if not ready(a):
        return
    if a.phase == "hide":
        start = sorted(fid for fid, _ in dict(a.secret)[x])
    else:
        start = _hidden(a, x, "figure", ("start",))
    first = rng.choice(start)
    others = [c for c in _hidden(a, x, "figure") if c != first and c not in start]
    if a.phase == "face" and x in dict(a.secret):
        others = []  # (a pending facing names the start characters; a swap among them is the next test's case)
    if not others:
        return
    assert_swap_unseen(a, x, first, rng.choice(others), rng, "start characters")


@PROFILE
@given(moment=st.integers(10, 60), variant=st.sampled_from(SECRET), **GAME)
def test_CG_OPT_03_what_a_character_carries_stays_hidden_with_secret_objects(seed, variant, x, pick, moment):
    """CG-OPT-03, DT-222: with secret objects, an object X's character carries shows only to X: swap it with
    another of X's hidden objects (carried by another of X's characters, in hand or seeded). Public when either is
    dropped, taken, used up, carried out, or a character carrying one fights in the open."""
    rng = Rng(pick)

    def ready(s):
        return bool(_hidden(s, x, "item", ("carried",))) and len(_hidden(s, x, "item")) >= 2
    a = walk(VARIANTS[variant], seed, moment, Rng(seed), ready, 250)
    if not ready(a):
        return
    first = rng.choice(_hidden(a, x, "item", ("carried",)))
    second = rng.choice([c for c in _hidden(a, x, "item") if c != first])
    assert_swap_unseen(a, x, first, second, rng, "secret objects")


@settings(PROFILE, max_examples=4)
@given(moment=st.integers(0, 40), **GAME)
def test_CG_HCAP_03_the_characters_left_out_stay_hidden(seed, x, pick, moment):
    """CG-HCAP-03: the handicapped player leaves out characters in secret (the others learn how many): swap one
    of them with another of X's hidden characters. Never public."""
    rng = Rng(pick)
    options = CardOptions(None, "standard", "draft", handicap=(x, 3, (6,)), secret_objects=True)
    a = walk(options, seed, moment, Rng(seed), lambda s: s.phase not in ("select", "handicap"), 200)
    out = _hidden(a, x, "figure", ("removed",))
    if not out:
        return
    first = rng.choice(out)
    others = [c for c in _hidden(a, x, "figure") if c not in out
              and not (a.phase == "hide" and x in dict(a.secret))]
    if not others:
        return
    assert_swap_unseen(a, x, first, rng.choice(others), rng, "handicap")


@settings(PROFILE, max_examples=4)
@given(moment=st.integers(10, 60), variant=st.sampled_from(["tutorial-2", "draft", "handicap-secret"]), **GAME)
def test_CG_COMP_05_the_order_of_the_combat_cards_in_hand_stays_hidden(seed, variant, x, pick, moment):
    """CG-COMP-05: X holds its combat cards and chooses freely; in what order it holds them is never public."""
    rng = Rng(pick)
    a = walk(VARIANTS[variant], seed, moment, Rng(seed))
    player = a.player(x)
    cards = list(player.cards)
    rng.shuffle(cards)
    b = a.with_player(x, replaced(player, cards=tuple(reversed(sorted(cards)))))
    outcome = run_twins(a, b, x, {}, rng, lambda *_: False, steps=25)
    _record("hand order", outcome)
    assert outcome.problems == []


@PROFILE
@given(moment=st.integers(0, 60), variant=st.sampled_from(sorted(VARIANTS)), **GAME)
def test_CG_REVEAL_05_face_down_rooms_and_their_orientations_stay_hidden(seed, variant, x, pick, moment):
    """CG-TUT1-02, CG-TUT2-02, CG-REVEAL-05: give the face-down rooms other cards (a permutation of the face-down
    cards) and other orientations. Public when a room that differs is revealed."""
    rng = Rng(pick)
    a = walk(VARIANTS[variant], seed, moment, Rng(seed))
    down = [i for i, r in enumerate(a.rooms) if not r.revealed]
    cards = [a.rooms[i].card for i in down]
    rng.shuffle(cards)
    rooms = list(a.rooms)
    for i, card in zip(down, cards):
        rooms[i] = Room(card, rng.below(4), False)
    outcome = run_twins(a, a.but(rooms=tuple(rooms)), x, {}, rng, _rooms_public)
    _record("face-down rooms", outcome)
    assert outcome.problems == []


@PROFILE
@given(variant=st.sampled_from(sorted(VARIANTS)), **GAME)
def test_CG_TUT1_05_the_seed_stays_hidden_until_what_it_drew_is_revealed(seed, variant, x, pick):
    """Two seeds that draw the same public facts at the start (who seeds first, CG-TUT1-04; who selects first,
    CG-SEL-MUTUAL-01, CG-SEL-DRAFT-01): the games differ in their rooms (which pairs, where, which orientation,
    CG-TUT2-02, CG-SCEN-02) and in the first player (CG-TUT1-05), hidden until revealed."""
    rng = Rng(pick)
    options = VARIANTS[variant]
    a = new_game(options, seed)

    def twin(b):
        return (b.seeder, b.selection) == (a.seeder, a.selection) and b.rooms != a.rooms
    b = next(s for s in (new_game(options, n) for n in range(seed + 1, seed + 200)) if twin(s))
    assert b.figures == a.figures and b.items == a.items and b.players == a.players
    outcome = run_twins(a, b, x, {}, rng, _rooms_public, steps=HORIZON + 20)
    _record("seed", outcome)
    assert outcome.problems == []


def _combat_for(x: str, variant: str, seed: int, rng: Rng):
    """A random game of `variant` walked to a combat in which X lays a card face down (secret purpose combat-N) and
    has two cards or more to choose from (a Telepath may have named the one it must play); the next seeds if that
    game ends, or walks long, before."""
    for game in range(seed, seed + 3):
        state = new_game(VARIANTS[variant], game)
        for _ in range(150):
            if state.outcome is not None:
                break
            if state.phase == "combat" and secret_purpose(state, x) is not None and len(
                    [act for act in legal_actions(state, x) if isinstance(act, CombatCard)]) >= 2:
                return state
            offered = legal_actions(state)
            attacks = [act for act in offered if isinstance(act, (Attack, Shoot))]
            state, _ = apply(state, rng.choice(attacks) if attacks else kind_first(rng, offered))
    return None


@settings(PROFILE, max_examples=6)
@given(variant=st.sampled_from(["tutorial-2", "tutorial-3-secret", "mutual-secret", "draft"]), **GAME)
def test_CG_COMBAT_02_a_combat_card_laid_face_down_stays_hidden_until_both_are_laid(seed, variant, x, pick):
    """CG-COMBAT-02: X lays one card face down in one game and another card in the twin (a Berserker's two cards,
    CG-CHAR-BERSERK-01, as much); public when the other card is laid and both are revealed. Compared: the step
    of X's card, whether the opponent has laid his yet or not (then the combat resolves, which is public)."""
    rng = Rng(pick)
    state = _combat_for(x, variant, seed % 64, rng)
    if state is None:
        return
    cards = [act for act in legal_actions(state, x) if isinstance(act, CombatCard)]
    if len(cards) < 2:
        return
    first = cards[rng.below(len(cards))]
    second = rng.choice([card for card in cards if card != first])
    a, a_events = apply(state, first)
    b, b_events = apply(state, second)
    observer = opponent(x)
    if observer in a.to_act:  # the opponent has yet to lay his: nothing of X's card may show
        problems = differences(a, a_events, b, b_events, observer)
        problems += [f"{observer} refusals"] if probes(a, observer) != probes(b, observer) else []
        compared = 1
    else:
        problems, compared = [], 0
    _record("combat card", TwinRun(compared=compared, problems=problems))
    assert problems == []


@settings(PROFILE, max_examples=4)
@given(seed=GAME["seed"], x=GAME["x"], pick=GAME["pick"])
def test_CG_SEL_FULL_01_a_full_frontal_team_stays_hidden_until_its_cards_show(seed, x, pick):
    """CG-SEL-FULL-01: X chooses one team in secret in one game and another in the twin (other characters, other
    objects, the same numbers); the opponent chooses the same in both. Then both twins play the same public
    actions, X's mapped card for card (the k-th character of each team, the k-th object: `sigma`): the opponent
    and a spectator are sent the same bytes until one of X's cards is no longer hidden (its start character
    revealed, CG-TUT1-05; its room revealed, CG-REVEAL-05)."""
    rng = Rng(pick)
    start = new_game(VARIANTS["full-secret"], seed)
    choices = legal_actions(start, x)
    mine = choices[rng.below(len(choices))]
    twin = choices[rng.below(len(choices))]
    if (mine.characters, mine.objects) == (twin.characters, twin.objects):
        return
    theirs = legal_actions(start, opponent(x))[rng.below(len(choices))]
    a, a_events = apply(start, mine)
    b, b_events = apply(start, twin)
    problems = differences(a, a_events, b, b_events, opponent(x))
    a, a_events = apply(a, theirs)
    b, b_events = apply(b, theirs)
    problems += differences(a, a_events, b, b_events, opponent(x))
    assert problems == []
    # the k-th character (object) of X's team in `a` is the k-th of its team in `b`
    sigma = {}
    for kind in ("figures", "items"):
        own_a = sorted(c.id for c in getattr(a, kind) if c.seat == x)
        own_b = sorted(c.id for c in getattr(b, kind) if c.seat == x)
        sigma.update(zip(own_a, own_b))
    public_ids = set(sigma)

    def public(pa, pb, a_next, b_next, action, a_events, b_events) -> bool:
        return (any(not hidden_from(a_next, c, opponent(x)) for c in public_ids)
                or any(not hidden_from(b_next, c, opponent(x)) for c in sigma.values()))
    outcome = run_twins(a, b, x, sigma, rng, public, steps=HORIZON)
    _record("full frontal", outcome)
    assert outcome.problems == [] and outcome.compared + outcome.public > 0


# --- the controls: the comparison catches a content leak and an order leak ---------------------------------
def _seeded_game(x: str):
    """A tutorial 2 game after its seeding: X has a character face down by a room that also holds an object of
    the other colour, and an object by another room."""
    rng = Rng(3)
    for seed in range(50):
        state = walk(CardOptions(2), seed, 0, rng, lambda s: s.phase == "face", 100)
        seeded = [c for c in state.figures + state.items if c.where == "seeded"]
        figure = next((f.id for f in seeded if f.seat == x and state.has_fig(f.id) and any(
            i.seat != x and state.has_item(i.id) and i.at == f.at for i in seeded)), None)
        item = next((i.id for i in seeded if i.seat == x and state.has_item(i.id)
                     and figure and i.at != state.fig(figure).at), None)
        if state.phase == "face" and figure and item:
            return state, figure, item
    raise LookupError("no tutorial 2 game with both kinds seeded")


def _carrying_game(x: str):
    """A tutorial 3 game with secret objects in which X's characters carry two different objects."""
    rng = Rng(5)
    for seed in range(50):
        state = walk(CardOptions(3, secret_objects=True), seed, 20, rng,
                     lambda s: len(_hidden(s, x, "item", ("carried",))) >= 1 and len(_hidden(s, x, "item")) >= 2,
                     400)
        carried = _hidden(state, x, "item", ("carried",))
        if carried:
            other = next(c for c in _hidden(state, x, "item") if c != carried[0])
            return state, carried[0], other
    raise LookupError("no tutorial 3 game with a carried object")


def test_control_the_twin_comparison_catches_a_planted_order_leak(monkeypatch):
    """With the views' `sorted` undone (the colours of a room's face-down backs listed in card order, characters
    first, as the cards lie in the state), twins that swap a seeded character and a seeded object of Yellow's are
    told apart by Blue and a spectator; with the real order they are not."""
    x = "Y"
    state, figure, item = _seeded_game(x)
    sigma = {figure: item, item: figure}
    twin = relabel(state, x, sigma)
    assert twin != state and twin.fig(figure).at == state.item(item).at
    assert differences(state, (), twin, (), "B") == []
    monkeypatch.setattr(views_module, "sorted", lambda values, **k: list(values), raising=False)
    assert differences(state, (), twin, (), "B") == ["B view", "spectator view"]
    outcome = run_twins(state, twin, x, sigma, Rng(1), _relabel_public(x, sigma))
    assert outcome.problems == ["B view", "spectator view"] and outcome.compared == 0


def test_control_the_twin_comparison_catches_a_planted_content_leak(monkeypatch):
    """With secret objects shown to everybody (views._hides planted to answer False), twins that swap an object
    Blue's character carries are told apart by Yellow and a spectator; with the real view they are not."""
    x = "B"
    state, carried, other = _carrying_game(x)
    sigma = {carried: other, other: carried}
    twin = relabel(state, x, sigma)
    assert differences(state, (), twin, (), "Y") == []
    assert probes(state, "Y") == probes(twin, "Y")
    monkeypatch.setattr(views_module, "_hides", lambda state, holder, viewer: False)
    assert differences(state, (), twin, (), "Y") == ["Y view", "spectator view"]


def test_relabel_moves_the_cards_and_nothing_else():
    """The twin of the tests above: the swapped cards trade places, loads and pending choices follow, the rest
    of the state is the same."""
    state, carried, other = _carrying_game("B")
    twin = relabel(state, "B", {carried: other, other: carried})
    assert twin.item(other).where == "carried" and twin.item(other).at == state.item(carried).at
    assert other in twin.fig(state.item(carried).at).carries
    assert twin.players == state.players and twin.rooms == state.rooms and twin.phase == state.phase
    assert [f.id for f in twin.figures] == [f.id for f in state.figures]  # the same order of the cards


# --- what the twins found ------------------------------------------------------------------------------------
def _telekinetic_with(load: str):
    """Tutorial-1 maze, secret objects: Yellow's Telekinetic in b2 carries `load`; his Mechanork stands in b1,
    across the pit (tests/engine/cards/builders.py), and Blue's Mechanork in a4."""
    from .builders import build
    state = build({"yTK": "b2", "yMK": "b1", "bMK": "a4"}, {load: "@yTK"}, active="Y", ap=(0, 3))
    return state.but(options=CardOptions(1, secret_objects=True))


def test_CG_OPT_03_DT_278_a_telekinetic_hands_over_the_object_she_carries_unseen():
    """Found by the twins (a hand-over from the Telekinetic to a friend named the object to everybody): with
    secret objects (CG-OPT-03, DT-222), the object she carries, moved from afar into a character's hands
    (CG-CHAR-TELEKIN-01/02), is never seen on its way (DT-278): the opponent and the spectators are told that an
    object went, not which, and two games that differ only in that object look the same to them. Dropped on the
    floor, it lies in the open and is named."""
    games = {}
    for carried in ("yKY", "yRP"):
        state = _telekinetic_with(carried)
        action = parse_action(f"levitate yTK {carried} b1 >yMK", "Y")
        games[carried] = (state, *apply(state, action))
    (a0, a, a_events), (_, b, b_events) = games["yKY"], games["yRP"]
    assert a.item("yKY").at == "yMK" and b.item("yRP").at == "yMK"
    assert differences(a, a_events, b, b_events, "B") == []
    (event,) = a_events
    assert event.owner == "Y" and event_view(event, "Y")["item"] == "yKY"
    assert "item" not in event_view(event, "B") and "item" not in event_view(event, None)
    assert event_view(event, None) == {"kind": "levitate", "figure": "yTK", "path": ["b1"], "to": "yMK", "at": "b1"}
    assert CARDS.takeback_refusal(a, a_events) is not None  # DT-224: told to each player differently
    dropped, events = apply(a0, parse_action("levitate yTK yKY b1", "Y"))
    assert dropped.item("yKY").where == "floor" and event_view(events[0], None)["item"] == "yKY"


def _full_frontal_before_a_reveal(objects: str):
    """A full frontal game (CG-SEL-FULL-01) walked to its main phase, Blue's objects `objects`, and a room the
    player to act may reveal now that holds none of Blue's objects, with another room holding one."""
    for seed in range(40):
        rng = Rng(seed)
        state = new_game(CardOptions(None, "standard", "full"), seed)
        state, _ = apply(state, parse_action(f"build characters=BK,CO,DA,SN,TP,WA objects={objects}", "B"))
        state, _ = apply(state, parse_action("build characters=BK,CO,DA,SN,TP,WA objects=AR,IS,KY,LN", "Y"))
        while state.phase != "main":
            state, _ = apply(state, choose(rng, state))
        reveals = [act for act in legal_actions(state) if isinstance(act, Reveal)]
        blue = {i.at for i in state.items if i.seat == "B" and i.where == "seeded"}
        for reveal in reveals:
            if reveal.slot in blue:
                return state, reveal
    raise LookupError("no full frontal game with a Blue object by a room to reveal")


def test_CG_SEL_FULL_01_DT_279_a_revealed_copy_does_not_tell_that_the_team_holds_another():
    """Found by the red team (session 24): in a full frontal game the second copy of an object is `bKY2`, so a
    room revealing `bKY2` while `bKY` still lay face down told the opponent and the spectators that Blue's secret
    team holds two Keys. Twins: Blue holds two Keys, `bKY2` by the room about to be revealed and `bKY` by another
    (one game), or one Key by that room and a Rope by the other (the twin); the reveal shows the same card to
    Yellow and the spectators, `bKY` (DT-279: the revealed copy is the lowest one still unseen), and the Key left
    face down is `bKY2`. In a game with public teams the copies keep their places."""
    a, reveal = _full_frontal_before_a_reveal("AR,KY,KY,SW")
    slot, blue = reveal.slot, [i for i in a.items if i.seat == "B" and i.where == "seeded"]
    here = next(i for i in blue if i.at == slot)
    there = next(i for i in blue if i.at != slot and i.id not in ("bKY", "bKY2"))
    key, key2 = a.item("bKY"), a.item("bKY2")
    places = {here.id: (key2.where, key2.at), there.id: (key.where, key.at), "bKY2": ("seeded", slot),
              "bKY": ("seeded", there.at)}
    a = a.with_cards({}, {cid: replaced(a.item(cid), where=w, at=at) for cid, (w, at) in places.items()})
    # the twin: one Key (by the room revealed) and a Rope where the other Key lies
    items = [replaced(i, id="bRP", code="RP") if i.id == "bKY" else i for i in a.items]
    items = [replaced(i, id="bKY") if i.id == "bKY2" else i for i in items]
    b = a.but(items=tuple(sorted(items, key=lambda i: i.id)))
    assert differences(a, (), b, (), "Y") == []
    a_next, a_events = apply(a, reveal)
    b_next, b_events = apply(b, reveal)
    assert differences(a_next, a_events, b_next, b_events, "Y") == []
    (shown,) = [e for e in a_events if e.kind == "reveal"]
    assert "bKY" in shown.data["cards"] and "bKY2" not in shown.data["cards"]
    assert a_next.item("bKY2").where == "seeded" and a_next.item("bKY2").at == there.at
    mutual = a.but(options=CardOptions(None, "standard", "mutual"))
    kept, _ = apply(mutual, reveal)
    assert "bKY2" in kept.placement.queue and "bKY" not in kept.placement.queue
