"""Properties of the whole engine over random legal games (hypothesis, seeded and bounded)."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings, strategies as st

from dungeon_twister.engine import (Options, apply, format_action, format_position, legal_actions, new_game,
                                    parse_action, parse_position, view)
from dungeon_twister.engine.errors import EngineError
from dungeon_twister.engine.rng import Rng
from dungeon_twister.engine.selfplay import play_game

PROFILE = settings(max_examples=12, deadline=None, derandomize=True,
                   suppress_health_check=[HealthCheck.too_slow], database=None)


def random_walk(seed: int, steps: int, options: Options = Options()):
    """The states of a random legal game from `seed`, at most `steps` actions long."""
    state = new_game(options, seed)
    rng = Rng(seed + 1)
    states, actions = [state], []
    for _ in range(steps):
        if state.outcome is not None:
            break
        action = rng.choice(legal_actions(state))
        state, _ = apply(state, action)
        states.append(state)
        actions.append(action)
    return states, actions


@PROFILE
@given(seed=st.integers(0, 2**32), beginner=st.booleans())
def test_random_games_never_crash_and_generated_actions_all_apply(seed, beginner):
    """Every action legal_actions generates applies without error, in every phase of random games."""
    states, _ = random_walk(seed, 160, Options(beginner=beginner))
    for state in states[::16]:
        for action in legal_actions(state):
            apply(state, action)


@settings(PROFILE, max_examples=4)
@given(seed=st.integers(0, 2**32))
def test_actions_not_generated_are_refused(seed):
    """Moves to every square, attacks on every token and every card: apply accepts exactly the generated ones."""
    from dungeon_twister.engine.actions import Attack, Move, PlayCard
    states, _ = random_walk(seed, 200)
    for state in states[60::45]:
        if state.phase not in ("main", "card"):
            continue
        seat = state.to_act[0]
        legal = set(legal_actions(state))
        candidates = [PlayCard(seat, v) for v in range(2, 6)]
        mine = [t for t in state.tokens.values() if t.colour == seat and t.is_character and t.where == "board"]
        for token in mine:
            candidates += [Move(seat, token.id, (x, y)) for x in range(10) for y in range(-1, state.height + 1)]
            candidates += [Attack(seat, token.id, t.id) for t in state.tokens.values() if t.colour != seat]
        for action in candidates:
            try:
                apply(state, action)
                accepted = True
            except EngineError:
                accepted = False
            assert accepted == (action in legal), format_action(action)


@PROFILE
@given(seed=st.integers(0, 2**32))
def test_determinism_same_seed_same_actions_same_game(seed):
    _, actions = random_walk(seed, 120)
    replay = new_game(Options(), seed)
    for action in actions:
        replay, _ = apply(replay, parse_action(format_action(action), action.seat))
    original, _ = random_walk(seed, 120)
    assert format_position(replay) == format_position(original[-1])
    assert replay == original[-1]


@PROFILE
@given(seed=st.integers(0, 2**32))
def test_notation_round_trips_for_actions_and_positions(seed):
    states, _ = random_walk(seed, 150)
    for state in states[::5]:
        text = format_position(state)
        assert format_position(parse_position(text)) == text
        assert parse_position(text) == state
        for action in legal_actions(state)[:200]:
            assert parse_action(format_action(action), action.seat) == action


def hidden_ids(state, viewer):
    """Token ids the viewer must not learn: face down in rooms, or the opponent's face-down team."""
    return {t.id for t in state.tokens.values()
            if t.where == "room" or (t.face_down and t.colour != viewer)}


@PROFILE
@given(seed=st.integers(0, 2**32))
def test_no_view_contains_hidden_identities_or_the_seed(seed):
    states, _ = random_walk(seed, 150)
    for state in states[::3]:
        for viewer in ("B", "Y", None):
            v = view(state, viewer)
            text = json.dumps(v)
            for tid in hidden_ids(state, viewer):
                assert f'"{tid}"' not in text, (tid, viewer)
            for room in v["rooms"]:
                if not room["revealed"]:
                    assert room["tile"] is None and room["orientation"] is None
            for seat, player in v["players"].items():
                if seat != viewer:
                    assert isinstance(player["combat_cards"], int) and isinstance(player["action_cards"], int)
            if state.combat and viewer in ("B", "Y"):
                assert "cards" not in v["combat"]
            assert str(seed) not in text or len(str(seed)) < 4
            if state.phase in ("team", "hide"):
                assert "first_player" not in text


def test_random_games_always_end():
    """Complete random games (beginner and standard) reach an outcome (BG-END-02)."""
    for seed, options in ((1, Options(beginner=True)), (2, Options())):
        result = play_game(seed, options)
        assert result.winner in ("B", "Y", None)
        assert result.reason in ("target reached", "nobody can score any more")
        assert max(result.vp.values()) >= 5 or result.reason != "target reached"
