"""Indistinguishability of twin games (docs/rulings.md DT-042; BG-SETUP-05/07, BG-COMP-08, BG-REVEAL-01).

A seat X has secrets: which of its face-down tokens lies where (in a room, on a start square, behind its screen),
the order of its hand, the tiles and orientations of the face-down rooms (nobody's, but drawn from the seed). Two
"twin" states that differ only in such a secret must look the same to X's opponent and to a spectator: the msgpack
bytes of everything the server would send them (view, events, legal actions, secret purpose, timeout fallback)
must be identical, step after step, while both games go on with the same public actions (X's actions mapped
through the same relabelling, so that they are the same action as seen from outside), until the rules themselves
make the difference public. A byte comparison sees every channel at once: content, list order, dict key order,
number of entries, string lengths, integer sizes, events present in one game and not in the other.

Where the difference becomes public is defined per transformation (see `_relabel_public`, `_rooms_public`) and
the step that makes it public is not compared. The control test at the end shows that the comparison does catch
an ordering leak: the views' old id order, put back by a monkeypatch, makes twins distinguishable.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import msgpack
from hypothesis import HealthCheck, assume, given, settings, strategies as st

from dungeon_twister.engine import (SEATS, ChooseTeam, CombatCard, GameState, Handicap, Options, apply, event_view,
                                    format_action, legal_actions, new_game, opponent, secret_purpose,
                                    timeout_action, view)
from dungeon_twister.engine.boardgame import views as views_module
from dungeon_twister.engine.boardgame.actions import Attack, Heal, Hide, Move, Place
from dungeon_twister.engine.core.choice import is_lazy
from dungeon_twister.engine.core.errors import EngineError
from dungeon_twister.engine.core.rng import Rng

from .variants import VARIANTS

PROFILE = settings(max_examples=10, deadline=None, derandomize=True, database=None,
                   suppress_health_check=[HealthCheck.too_slow])
HORIZON = 90
"""Steps played on both twins after the moment of the transformation (fewer if the difference becomes public)."""

PROBE_EVERY = 4
"""Refusals (see `probes`) are compared every this many steps."""

TOTALS: dict[str, list[int]] = {}
"""Per test: [examples, compared steps, examples in which the difference became public]: figures for the report."""


def pack(value) -> bytes:
    return msgpack.packb(value, use_bin_type=True)


def _legal_texts(state: GameState, seat: str) -> list[str]:
    """What the server sends a seat as its legal actions (server/viewing.legal_texts)."""
    if state.outcome is not None or seat not in state.to_act:
        return []
    legal = legal_actions(state, seat)
    if is_lazy(legal):
        return []  # a free team building: the view's build.parts describe it
    return [format_action(action) for action in legal]


def channels(state: GameState, events, viewer: str | None) -> dict[str, bytes]:
    """Everything the engine gives the server to send `viewer` (a seat; None: a spectator) after one step, packed
    as msgpack: the view, the step's events (None where the viewer sees nothing of one: an event that is absent
    for a viewer still counts), and for a seat its legal actions, pending secret purpose and timeout fallback."""
    out = {"view": pack(view(state, viewer)), "events": pack([event_view(e, viewer) for e in events])}
    if viewer is not None:
        fallback = timeout_action(state, viewer)
        out["legal"] = pack(_legal_texts(state, viewer))
        out["secret"] = pack(secret_purpose(state, viewer))
        out["timeout"] = pack(format_action(fallback) if fallback else None)
    return out


def differences(a: GameState, a_events, b: GameState, b_events, observer: str) -> list[str]:
    """The channels ("B view", "spectator events", ...) whose bytes differ between the twins, for `observer` and
    for a spectator. [] means the twins are indistinguishable to both."""
    out = []
    for viewer in (observer, None):
        mine, theirs = channels(a, a_events, viewer), channels(b, b_events, viewer)
        out += [f"{viewer or 'spectator'} {name}" for name in mine if mine[name] != theirs[name]]
    return out


def probes(state: GameState, observer: str) -> bytes:
    """What the engine answers `observer` when it names each of the other colour's tokens in an action: "ok" or
    the refusal's rule and message (sent back as action_refused). A refusal must not tell where a hidden token
    is, or which token lies where: the same for both twins. The actions: an attack on it, a heal of it, placing
    it, hiding it, and a move that picks it up (by the observer's first character, in play or not)."""
    mine = min(t.id for t in state.tokens.values() if t.colour == observer and t.is_character)
    out = []
    for t in sorted(t.id for t in state.tokens.values() if t.colour != observer):
        for action in (Attack(observer, mine, t), Heal(observer, mine, t), Place(observer, t, (0, 0)),
                       Hide(observer, t, (0, 0)), Move(observer, mine, (0, 0), take=t)):
            try:
                apply(state, action)
                out.append("ok")
            except EngineError as error:
                out.append(f"{getattr(error, 'rule', '')}: {error}")
    return pack(out)


# --- twins ---------------------------------------------------------------------------------------------------
def _map_value(value, sigma: dict[str, str]):
    if isinstance(value, str):
        return sigma.get(value, value)
    if isinstance(value, tuple):
        return tuple(_map_value(v, sigma) for v in value)
    return value


def map_action(action, x: str, sigma: dict[str, str]):
    """X's action in the twin game: every token id relabelled by `sigma` (a team choice's codes too)."""
    if action.seat != x or not sigma:
        return action
    if isinstance(action, ChooseTeam):
        code = lambda c: sigma.get(x.lower() + c, x.lower() + c)[1:]  # noqa: E731
        return ChooseTeam(x, tuple((sq, code(c)) for sq, c in action.team), tuple(code(c) for c in action.removed))
    changes = {f.name: _map_value(getattr(action, f.name), sigma) for f in dataclasses.fields(action)
               if f.name != "seat"}
    return dataclasses.replace(action, **changes)


_PLACE = ("where", "square", "room", "face_down", "wounded", "wounded_turn", "order", "scored_by")


def relabel(state: GameState, x: str, sigma: dict[str, str]) -> GameState:
    """The twin state in which token sigma[a] is wherever token a is (same place, same stack order), and X's
    pending team choice names sigma's codes: everything else, the dict order of the tokens included, unchanged."""
    twin = state.thaw()
    for a, b in sigma.items():
        source = state.tokens[a]
        twin.tokens[b] = dataclasses.replace(state.tokens[b], **{name: getattr(source, name) for name in _PLACE})
    if x in state.teams:
        team, removed = state.teams[x]
        code = lambda c: sigma.get(x.lower() + c, x.lower() + c)[1:]  # noqa: E731
        twin.teams[x] = (tuple(sorted((sq, code(c)) for sq, c in team)), tuple(sorted(code(c) for c in removed)))
    return twin.seal()


def hidden_from(state: GameState, token, observer: str) -> bool:
    """Whether `observer` does not know which token this is: behind its owner's screen, face down in a room or
    face down on its owner's start zone (BG-SETUP-05/07), or a character its owner left out of a handicap game
    (BG-OPT-08). The tokens a beginner game leaves out are fixed by the rules (BG-OPT-07): public."""
    handicap = state.options.handicap
    left_out = token.where == "unused" and handicap is not None and handicap.seat == token.colour
    return token.colour != observer and (
        token.where in ("screen", "room") or (token.where == "board" and token.face_down) or left_out)


def _relabel_public(x: str, sigma: dict[str, str]):
    """The moment a relabelling becomes public: a relabelled token is no longer hidden from X's opponent in
    either game (its room revealed, BG-REVEAL-01/05; the teams revealed, BG-SETUP-10)."""
    tokens = set(sigma)

    def public(a: GameState, b: GameState) -> bool:
        return any(not hidden_from(s, s.tokens[t], opponent(x)) for s in (a, b) for t in tokens)
    return public


def _rooms_public(a: GameState, b: GameState) -> bool:
    """The moment a room difference becomes public: a room that differs between the twins is revealed."""
    return any(p.revealed and (p.tile, p.orientation) != (q.tile, q.orientation) for p, q in zip(a.rooms, b.rooms))


@dataclass
class TwinRun:
    compared: int = 0
    public: bool = False
    problems: list[str] = field(default_factory=list)


def run_twins(a: GameState, b: GameState, x: str, sigma: dict[str, str], rng: Rng, public,
              steps: int = HORIZON) -> TwinRun:
    """Play random legal actions of game `a` on both twins (X's mapped through `sigma`) and compare what X's
    opponent and a spectator are sent after each step, until `public(a, b)` or `steps` steps or the end."""
    observer = opponent(x)
    result = TwinRun(problems=differences(a, (), b, (), observer))
    for _ in range(steps):
        if result.problems or a.outcome is not None:
            break
        action = rng.choice(legal_actions(a))
        twin_action = map_action(action, x, sigma)
        a_next, a_events = apply(a, action)
        try:
            b_next, b_events = apply(b, twin_action)
        except Exception as error:  # the same public action must be legal in both games
            result.problems.append(f"{format_action(twin_action)} refused in the twin: {error}")
            break
        if public(a_next, b_next):
            result.public = True
            break
        result.problems += differences(a_next, a_events, b_next, b_events, observer)
        if result.compared % PROBE_EVERY == 0 and probes(a_next, observer) != probes(b_next, observer):
            result.problems.append(f"{observer} refusals")
        result.compared += 1
        a, b = a_next, b_next
    return result


def walk(options: Options, seed: int, steps: int, rng: Rng, until=lambda state: True, limit: int = 400):
    """A random legal game: at least `steps` actions, then on until `until(state)` (at most `limit` in all)."""
    state = new_game(options, seed)
    for n in range(limit):
        if state.outcome is not None or (n >= steps and until(state)):
            break
        state, _ = apply(state, rng.choice(legal_actions(state)))
    return state


def _record(name: str, outcome: TwinRun) -> None:
    totals = TOTALS.setdefault(name, [0, 0, 0])
    totals[0] += 1
    totals[1] += outcome.compared
    totals[2] += outcome.public


GAME = dict(seed=st.integers(0, 2**32), variant=st.sampled_from(sorted(VARIANTS)), x=st.sampled_from(SEATS),
            pick=st.integers(0, 2**32))


# --- the transformations, one test per channel of secrets ----------------------------------------------------
@PROFILE
@given(moment=st.integers(3, 70), **GAME)
def test_room_tokens_which_token_lies_in_which_room_stays_hidden(seed, variant, x, pick, moment):
    """Swap two of X's tokens that are face down in rooms (or one in a room and one still behind X's screen)."""
    rng = Rng(pick)

    def ready(state):
        return any(t.colour == x and t.where == "room" for t in state.tokens.values())
    a = walk(VARIANTS[variant], seed, moment, Rng(seed), ready)
    in_rooms = sorted(t.id for t in a.tokens.values() if t.colour == x and t.where == "room")
    behind = sorted(t.id for t in a.tokens.values() if t.colour == x and t.where == "screen")
    if not in_rooms or len(in_rooms) + len(behind) < 2:
        return  # the game ended before X hid two tokens (counted below as an example with nothing compared)
    first = rng.choice(in_rooms)
    second = rng.choice([t for t in in_rooms + behind if t != first])
    assert_swap_unseen(a, x, first, second, rng, "room tokens")


@PROFILE
@given(moment=st.integers(0, 16), **GAME)
def test_start_zone_team_arrangement_stays_hidden(seed, variant, x, pick, moment):
    """Swap two of X's characters where at least one is (or will be, X's team choice still pending) face down on
    X's start zone: the other on another start square, in a room or behind the screen. Public at BG-SETUP-10."""
    rng = Rng(pick)
    a = walk(VARIANTS[variant], seed, moment, Rng(seed), lambda s: s.phase in ("team", "hide"), 60)
    if a.phase not in ("team", "hide"):
        return
    mine = [t for t in a.tokens.values() if t.colour == x and t.is_character and hidden_from(a, t, opponent(x))]
    on_start = sorted(t.id for t in mine if t.where == "board")
    if a.phase == "team" and x not in a.teams:
        on_start = sorted(t.id for t in mine)  # the twin X chooses a relabelled team
    elif a.phase == "team":
        chosen = {x.lower() + code for _, code in a.teams[x][0]}
        on_start = sorted(t.id for t in mine if t.id in chosen)
    first = rng.choice(on_start)
    second = rng.choice(sorted(t.id for t in mine if t.id != first))
    assert_swap_unseen(a, x, first, second, rng, "start zone")


def assert_swap_unseen(a, x: str, first: str, second: str, rng: Rng, label: str) -> None:
    """Swap the identities of X's tokens `first` and `second` and play the twins on: they must look the same to
    X's opponent and a spectator until the rules reveal one of the two."""
    sigma = {first: second, second: first}
    outcome = run_twins(a, relabel(a, x, sigma), x, sigma, rng, _relabel_public(x, sigma))
    _record(label, outcome)
    assert outcome.problems == []


@settings(PROFILE, max_examples=8)
@given(moment=st.integers(0, 16), characters=st.integers(4, 7), seed=GAME["seed"], x=GAME["x"], pick=GAME["pick"])
def test_handicap_characters_left_out_stay_hidden(seed, x, pick, moment, characters):
    """X plays a handicap game with fewer characters (BG-OPT-08): swap a character X leaves out (or, its choice
    still pending, will leave out) with another of X's hidden characters. Never public in the engine; the server
    holds the team reveal that names them until the game ends (DT-043, tests/server/test_server_twins.py)."""
    rng = Rng(pick)
    options = Options(handicap=Handicap(x, characters=characters))
    a = walk(options, seed, moment, Rng(seed), lambda s: s.phase in ("team", "hide"), 60)
    mine = [t for t in a.tokens.values() if t.colour == x and t.is_character and hidden_from(a, t, opponent(x))]
    if x in a.teams:
        out = {x.lower() + code for code in a.teams[x][1]}
    else:
        out = {t.id for t in mine if t.where == "unused"} or {t.id for t in mine}
    first = rng.choice(sorted(out))
    second = rng.choice(sorted(t.id for t in mine if t.id != first))
    assert_swap_unseen(a, x, first, second, rng, "handicap")


@settings(PROFILE, max_examples=8)
@given(moment=st.integers(20, 120), **GAME)
def test_hand_order_stays_hidden(seed, variant, x, pick, moment):
    """Permute X's action cards and combat cards in hand (BG-COMP-08): never public."""
    rng = Rng(pick)
    a = walk(VARIANTS[variant], seed, moment, Rng(seed))
    player = a.players[x]
    actions, combat = list(player.actions), list(player.combat)
    rng.shuffle(actions)
    rng.shuffle(combat)
    b = a.thaw()
    b.players[x] = dataclasses.replace(player, actions=tuple(reversed(actions)), combat=tuple(reversed(combat)))
    outcome = run_twins(a, b.seal(), x, {}, rng, lambda _a, _b: False, steps=30)
    _record("hand order", outcome)
    assert outcome.problems == []


@PROFILE
@given(moment=st.integers(0, 90), **GAME)
def test_unrevealed_rooms_tiles_and_orientations_stay_hidden(seed, variant, x, pick, moment):
    """Give the face-down rooms other tiles (a permutation of the face-down tiles) and other orientations."""
    rng = Rng(pick)
    a = walk(VARIANTS[variant], seed, moment, Rng(seed))
    down = [i for i, p in enumerate(a.rooms) if not p.revealed]
    tiles = [a.rooms[i].tile for i in down]
    rng.shuffle(tiles)
    rooms = list(a.rooms)
    for i, tile in zip(down, tiles):
        rooms[i] = dataclasses.replace(rooms[i], tile=tile, orientation=rng.below(4))
    b = a.thaw()
    b.rooms = tuple(rooms)
    outcome = run_twins(a, b.seal(), x, {}, rng, _rooms_public)
    _record("unrevealed rooms", outcome)
    assert outcome.problems == []


@PROFILE
@given(**GAME)
def test_seed_stays_hidden_until_the_rooms_are_revealed(seed, variant, x, pick):
    """Two seeds that draw the same first placer and first player (BG-SETUP-02/11): the games differ in their
    rooms (which tiles, where, which orientation; in the beginner game, which 3 pairs), hidden until revealed."""
    rng = Rng(pick)
    options = VARIANTS[variant]
    # a mixed game also draws its (public) common team from the seed: two seeds differ in public facts (DT-109)
    assume(options.catalogue.mix is None)
    a = new_game(options, seed)
    other = next(s for s in range(seed + 1, seed + 200)
                 if (lambda b: (b.placer, b.first_player) == (a.placer, a.first_player))(new_game(options, s)))
    b = new_game(options, other)
    assert b.tokens == a.tokens and b.players == a.players and b.rooms != a.rooms
    outcome = run_twins(a, b, x, {}, rng, _rooms_public, steps=HORIZON + 30)
    _record("seed", outcome)
    assert outcome.problems == []


COMBATS = ("bWA@c4 yTR@c5", "bTR@e9 bCL@e8 yWA@e10 yGB@f10 ySW@f10", "bWZ@h4 bAR@h4 yMK@h5 yFW@h5")
"""Positions (synthetic rooms, tests/engine/builders.py) and the attack each starts with."""
ATTACKS = ("attack bWA yTR", "attack bTR yWA", "attack bWZ yMK")


@settings(PROFILE, max_examples=12)
@given(which=st.integers(0, len(COMBATS) - 1), x=st.sampled_from(SEATS),
       cards=st.permutations((0, 1, 2, 3, 4, 5, 6)))
def test_pending_combat_card_stays_hidden(which, x, cards):
    """X has laid its combat card, its opponent not yet (BG-COMBAT-02): the twin laid another card. The cards are
    public once the combat is resolved, by the opponent's card: a step that is therefore not compared."""
    from tests.engine.builders import apply_texts, position
    a, _ = apply_texts(position(COMBATS[which]), ATTACKS[which])
    assert a.phase == "combat" and x in a.to_act
    first, second = cards[:2]
    a_next, a_events = apply(a, CombatCard(x, first))
    b_next, b_events = apply(a, CombatCard(x, second))
    problems = differences(a_next, a_events, b_next, b_events, opponent(x))
    _record("combat card", TwinRun(compared=1, problems=problems))
    assert problems == []


FREE_VARIANTS = ("all-sets-free", "prison-paladins-free")


@settings(PROFILE, max_examples=8)
@given(seed=GAME["seed"], variant=st.sampled_from(FREE_VARIANTS), x=GAME["x"], pick=GAME["pick"])
def test_a_free_build_stays_hidden_through_the_team_choice_and_the_hidden_placement(seed, variant, x, pick):
    """PD-TEAM-FREE-01/02: X builds one team in one game and another in the twin (other pairs, characters,
    objects); the opponent builds the same in both, sharing no pair with either (a shared pair is told to both,
    RUL-072). Then both twins choose their starting teams and hide their tokens with the same public actions (X's
    by rank among its own: the k-th character, the k-th token behind the screen). Until the teams are revealed
    (BG-SETUP-10), X's opponent and a spectator are sent the same bytes."""
    from dungeon_twister.engine.boardgame.actions import Build

    rng = Rng(pick)
    start = new_game(VARIANTS[variant], seed)
    other = opponent(x)
    mine, twin = rng.choice(legal_actions(start, x)), rng.choice(legal_actions(start, x))
    assume(mine != twin)
    theirs = next(b for b in (rng.choice(legal_actions(start, other)) for _ in range(200))
                  if not set(b.pairs) & (set(mine.pairs) | set(twin.pairs)))
    a, a_events = apply(start, mine)
    b, b_events = apply(start, twin)
    problems = differences(a, a_events, b, b_events, other)
    a, a_events = apply(a, theirs)
    b, b_events = apply(b, theirs)
    problems += differences(a, a_events, b, b_events, other)
    compared = 2
    while a.phase in ("team", "hide") and not problems:
        seat = a.to_act[0]
        action = rng.choice(legal_actions(a, seat))
        twin_action = action
        if seat == x and a.phase == "team":  # the same squares, the k-th character of each twin's own
            ranks = {code: i for i, code in enumerate(sorted(c for c in mine.characters))}
            codes = sorted(twin.characters)
            twin_action = dataclasses.replace(action, team=tuple(sorted((sq, codes[ranks[code]])
                                                                        for sq, code in action.team)))
        elif seat == x:  # the k-th token behind the screen, into the same room
            rank = sorted(t.id for t in a.tokens.values() if t.colour == x and t.where == "screen").index(action.token)
            behind = sorted(t.id for t in b.tokens.values() if t.colour == x and t.where == "screen")
            twin_action = dataclasses.replace(action, token=behind[rank])
        a_next, a_events = apply(a, action)
        b_next, b_events = apply(b, twin_action)
        if a_next.phase not in ("team", "hide"):
            break  # BG-SETUP-10: the teams are revealed, and with them X's build in part
        problems += differences(a_next, a_events, b_next, b_events, other)
        compared += 1
        a, b = a_next, b_next
    _record("free build", TwinRun(compared=compared, problems=problems))
    assert problems == []
    assert compared == 2 + 2 + 19  # the builds, the teams, the hidden tokens (10 a side: 14 less 4 on the start)
    assert isinstance(mine, Build)


# --- the control: the comparison catches an ordering leak ---------------------------------------------------
def _id_order(t, visible):
    """The views' order before DT-042: by token id."""
    return (0 if t.where == "board" else 1 if t.where == "room" else 2, t.id)


def _hide_phase_with_two_rooms(x: str):
    """A game in its hidden placement where X has hidden two tokens in different rooms, and its team is down."""
    rng = Rng(7)
    state = new_game(Options(), 7)
    while True:
        mine = [t for t in state.tokens.values() if t.colour == x and t.where == "room"]
        if len({t.room for t in mine}) >= 2 and state.phase == "hide":
            return state
        state, _ = apply(state, rng.choice(legal_actions(state)))


def test_control_the_twin_comparison_catches_the_id_order_leak(monkeypatch):
    """With the views' lists sorted by id again (the leak of issue 6), twins become distinguishable, both through
    `hidden` (tokens swapped between rooms) and through `tokens` (a swapped team arrangement); with the real
    order they are not."""
    x = "Y"
    state = _hide_phase_with_two_rooms(x)
    in_rooms = sorted((t for t in state.tokens.values() if t.colour == x and t.where == "room"), key=lambda t: t.id)
    low, high = in_rooms[0], next(t for t in in_rooms if t.room != in_rooms[0].room)
    rooms_sigma = {low.id: high.id, high.id: low.id}
    start = sorted(t.id for t in state.tokens.values() if t.colour == x and t.where == "board")
    start_sigma = {start[0]: start[-1], start[-1]: start[0]}
    twins = {name: (state, relabel(state, x, sigma), sigma)
             for name, sigma in (("rooms", rooms_sigma), ("start", start_sigma))}

    for name, (a, b, _) in twins.items():
        assert differences(a, (), b, (), "B") == [], name
    monkeypatch.setattr(views_module, "_token_key", _id_order)
    for name, (a, b, _) in twins.items():
        assert differences(a, (), b, (), "B") == ["B view", "spectator view"], name
    # and run_twins, the driver of the tests above, reports it at once
    a, b, sigma = twins["rooms"]
    outcome = run_twins(a, b, x, sigma, Rng(1), _relabel_public(x, sigma))
    assert outcome.problems == ["B view", "spectator view"] and outcome.compared == 0


# --- what the Card Game's red team found here too (session 24) ---------------------------------------------------
def _two_keys(state, rng):
    """A free build Blue may make with two Keys (`bKY`, `bKY2`), drawn among his builds, or None."""
    builds = legal_actions(state, "B")
    return next((b for b in (builds[rng.below(len(builds))] for _ in range(3000))
                 if list(b.objects).count("KY") == 2), None)


def _free_game_before_a_reveal():
    """An all-sets free game (PD-TEAM-FREE-01/02) in its main phase, Blue's build holding two Keys, and a reveal
    the player to act may make now of a room where a Blue object lies face down, another lying elsewhere."""
    from dungeon_twister.engine.boardgame.actions import Reveal
    for seed in range(40):
        rng = Rng(seed)
        state = new_game(VARIANTS["all-sets-free"], seed)
        blue = _two_keys(state, rng)
        if blue is None:
            continue
        yellow = legal_actions(state, "Y")
        state, _ = apply(state, blue)
        state, _ = apply(state, yellow[rng.below(len(yellow))])
        for _ in range(300):
            if state.outcome is not None:
                break
            rooms = {t.room for t in state.tokens.values()
                     if t.colour == "B" and t.where == "room" and not t.is_character}
            for action in (legal_actions(state) if state.phase == "main" and len(rooms) > 1 else ()):
                if isinstance(action, Reveal) and action.slot in rooms:
                    return state, action
            state, _ = apply(state, rng.choice(legal_actions(state)))
    raise LookupError("no free game with a Blue object by a room to reveal")


def test_PD_TEAM_FREE_DT_279_a_revealed_copy_does_not_tell_that_the_build_holds_another():
    """Found by the Card Game's red team (session 24): a free build's second Key is `bKY2`, so a room revealing
    `bKY2` while `bKY` lay face down elsewhere told Yellow and the spectators that Blue's secret build holds two
    Keys. Twins: Blue's two Keys, `bKY2` in the room about to be revealed and `bKY` in another (one game), or one
    Key there and another object where the other Key lies (the twin: the second Key unused). The reveal shows the
    same to Yellow and the spectators (DT-279: the lowest copy still unseen), and the Key left is `bKY2`."""
    a, reveal = _free_game_before_a_reveal()
    here = next(t for t in a.tokens.values() if t.colour == "B" and t.where == "room" and t.room == reveal.slot
                and not t.is_character)
    there = next(t for t in a.tokens.values() if t.colour == "B" and t.where == "room" and t.room != reveal.slot
                 and not t.is_character and t.id not in ("bKY", "bKY2"))
    spare = next(t for t in a.tokens.values() if t.colour == "B" and t.where == "unused" and not t.is_character
                 and t.code != "KY")

    def placed(state, moves):
        twin = state.thaw()
        for target, source in moves.items():
            twin.tokens[target] = dataclasses.replace(state.tokens[target], **{
                name: getattr(source, name) for name in ("where", "square", "room", "order")})
        return twin.seal()
    key, key2 = a.tokens["bKY"], a.tokens["bKY2"]
    a = placed(a, {"bKY2": here, here.id: key2, "bKY": there, there.id: key})
    b = placed(a, {"bKY": a.tokens["bKY2"], "bKY2": spare, spare.id: a.tokens["bKY"]})
    assert differences(a, (), b, (), "Y") == []
    a_next, a_events = apply(a, reveal)
    b_next, b_events = apply(b, reveal)
    assert differences(a_next, a_events, b_next, b_events, "Y") == []
    (shown,) = [e for e in a_events if e.kind == "room_revealed"]
    assert "bKY" in shown.data["tokens"] and "bKY2" not in shown.data["tokens"]
    assert a_next.tokens["bKY2"].where == "room" and a_next.tokens["bKY2"].room == there.room


def test_DT_279_a_free_game_recorded_before_it_replays_with_the_copies_read_as_it_meant(monkeypatch):
    """DT-279: a record of a free game written before it, where `bKY2` was revealed while `bKY` lay face down,
    names the two Keys the other way round from that reveal on; replayed, each line the rules refuse is read with
    the other copy's name (records.legacy_action), so the whole record replays, to the same VP."""
    from dungeon_twister.engine.boardgame import records, rooms
    options = VARIANTS["all-sets-free"]
    text = None
    with monkeypatch.context() as patch:
        patch.setattr(rooms, "lowest_copies_first", lambda ctx, slot: None)  # the engine before DT-279
        for seed in range(40):
            rng, state = Rng(seed), new_game(options, seed)
            blue = _two_keys(state, rng)
            if blue is None:
                continue
            yellow = legal_actions(state, "Y")
            actions = [blue, yellow[rng.below(len(yellow))]]
            for action in actions:
                state, _ = apply(state, action)
            after = None
            while state.outcome is None and len(actions) < 400 and (after is None or len(actions) < after + 20):
                action = rng.choice(legal_actions(state))
                state, events = apply(state, action)
                actions.append(action)
                shown = [t for e in events if e.kind == "room_revealed" for t in e.data["tokens"]]
                if after is None and "bKY2" in shown and state.tokens["bKY"].where in ("room", "screen"):
                    after = len(actions)
            if after is not None:
                old = state
                text = "\n".join([records.game_header(seed, options)] + [records.format_line(a) for a in actions])
                break
    assert text is not None, "no free game revealing bKY2 before bKY"
    start, lines = records.parse_record(text)
    replayed = list(records.replayed(start, lines))
    assert len(replayed) == len(lines)
    assert any(format_action(line.action) != line.text.split(": ", 1)[1] for line, _, _ in replayed)
    final = replayed[-1][1]
    assert [final.vp(s) for s in SEATS] == [old.vp(s) for s in SEATS] and final.phase == old.phase
