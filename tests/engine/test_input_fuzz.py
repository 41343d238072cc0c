"""Fuzz what the server feeds the engine: a player's text, in states of real (seeded, random) games.

Only the three kinds of bad input may come out (NotationError, IllegalAction, AmbiguousAction), or the server's
Refusal wrapping them; any other exception is an internal error and fails. Seeded and bounded (a few seconds).
"""

from __future__ import annotations

from functools import lru_cache

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from dungeon_twister.engine import (AmbiguousAction, IllegalAction, NotationError, Options, apply, format_action,
                                    legal_actions, new_game, parse_action, resolve_input)
from dungeon_twister.engine.boardgame.notation import _PARSERS, MAX_ACTION_TEXT
from dungeon_twister.engine.core.rng import Rng
from dungeon_twister.engine.boardgame.state import Handicap
from dungeon_twister.server.game import Game, Refusal

BAD_INPUT = (NotationError, IllegalAction, AmbiguousAction)
FUZZ = settings(max_examples=120, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@lru_cache(maxsize=1)
def real_states() -> tuple:
    """(options, state, legal texts) from three seeded random games, in every phase they reach."""
    out = []
    for seed, options in ((11, Options()), (12, Options(beginner=True)), (13, Options(handicap=Handicap("Y", 5)))):
        state = new_game(options, seed)
        rng = Rng(seed)
        for step in range(240):
            if step % 13 == 0 or state.phase == "combat" or state.phase == "place" and step % 3 == 0:
                out.append((options, state, tuple(format_action(a) for a in legal_actions(state))))
            if state.outcome is not None:
                break
            state, _ = apply(state, rng.choice(legal_actions(state)))
    return tuple(out)


NOTATION_CHARS = "abcdefghijABYbyCLGBWAZMKTRHSPFW0123456789+-=@,>#.!?~:/ \t"
VOCAB = sorted(_PARSERS) + ["bWA", "yTR", "WA", "TR", "bRP@f5", "+yRP", "c4", "a0", "j21", "A1", "B4", "B9", "A0",
                            "cw", "ccw", "n", "e", "s", "w", "+0", "+6", "+9", "out=MK,WW", "b0=TH", "c4-c5-d5",
                            "passed", "-", "=", "@", "+", "k5", "a99", "c100"]


@st.composite
def player_text(draw, legal: tuple) -> str:
    base = draw(st.sampled_from(legal)) if legal else "end"
    kind = draw(st.sampled_from(["unicode", "edited", "shuffled", "vocab", "huge", "long"]))
    if kind == "unicode":
        return draw(st.text(max_size=40))
    if kind == "edited":
        chars = list(base)
        for _ in range(draw(st.integers(1, 4))):
            i = draw(st.integers(0, len(chars)))
            op = draw(st.sampled_from(["insert", "delete", "replace"]))
            new = draw(st.one_of(st.sampled_from(NOTATION_CHARS), st.characters()))
            if op == "insert":
                chars.insert(i, new)
            elif chars:
                if op == "delete":
                    del chars[min(i, len(chars) - 1)]
                else:
                    chars[min(i, len(chars) - 1)] = new
        return "".join(chars)
    if kind == "shuffled":
        return " ".join(draw(st.permutations(base.split())))
    if kind == "vocab":
        return " ".join(draw(st.lists(st.sampled_from(VOCAB), min_size=1, max_size=7)))
    if kind == "huge":
        number = str(draw(st.one_of(st.integers(10, 10**40), st.integers(-10**40, -1))))
        digits = [i for i, c in enumerate(base) if c.isdigit()]
        if not digits:
            return f"{base} {number}"
        i = draw(st.sampled_from(digits))
        return base[:i] + number + base[i + 1:]
    return (base + " ") * draw(st.integers(MAX_ACTION_TEXT // max(len(base), 1), 4000))


@st.composite
def situation(draw):
    options, state, legal = draw(st.sampled_from(real_states()))
    seat = draw(st.sampled_from(["B", "Y"]))
    return options, state, seat, draw(player_text(legal))


@FUZZ
@given(case=situation())
def test_resolve_input_then_apply_raises_only_bad_input_errors(case):
    _, state, seat, text = case
    try:
        apply(state, resolve_input(state, seat, text))
    except BAD_INPUT:
        pass


@FUZZ
@given(case=situation())
def test_parse_action_then_apply_raises_only_bad_input_errors(case):
    _, state, seat, text = case
    try:
        apply(state, parse_action(text, seat))
    except BAD_INPUT:
        pass


@FUZZ
@given(case=situation())
def test_the_servers_resolve_and_apply_raise_only_refusals(case):
    options, state, seat, text = case
    game = Game(options, 0)
    game.state = state
    try:
        game.apply(game.resolve(seat, text))
    except Refusal as refusal:
        assert refusal.code in ("bad_notation", "illegal_action", "ambiguous_action")
        assert (refusal.rule is not None) == (refusal.code == "illegal_action")  # illegal: with the rule ID


def test_every_legal_text_of_the_fuzzed_states_resolves_to_itself():
    """The fuzz starts from real texts: they are accepted exactly (so the mutations are near misses)."""
    for _, state, legal in real_states()[::4]:
        for text in legal[:20]:
            seat = state.to_act[0]
            assert format_action(resolve_input(state, seat, text)) == text


# --- the input limit ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("read", [lambda text: parse_action(text, "B"),
                                  lambda text: resolve_input(new_game(Options(), 1), "B", text)],
                         ids=["parse_action", "resolve_input"])
def test_action_text_longer_than_the_limit_is_refused_before_parsing(read):
    edge = "end" + " " * (MAX_ACTION_TEXT - 3)
    assert len(edge) == MAX_ACTION_TEXT
    assert format_action(parse_action(edge, "B")) == "end"  # the edge: exactly the limit is read
    with pytest.raises(NotationError) as info:
        read(edge + " ")
    assert f"at most {MAX_ACTION_TEXT} characters" in str(info.value)
    assert len(str(info.value)) < 200  # the message does not echo the text back


def test_the_server_refuses_a_too_long_action_as_bad_notation():
    game = Game(Options(), 1)
    with pytest.raises(Refusal) as info:
        game.resolve("B", "x" * (MAX_ACTION_TEXT + 1))
    assert info.value.code == "bad_notation" and str(MAX_ACTION_TEXT) in info.value.message


# --- regressions -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["move bWA c\u0664", "card \u0663", "combat +\U0001d7d1", "move bWA \uff43\uff14"])
def test_only_ascii_digits_and_letters_are_notation(text):
    """`\\d` matched any Unicode digit, so 'c٤' parsed as c4: one canonical text per action (docs/notation.md)."""
    with pytest.raises(NotationError):
        parse_action(text, "B")
