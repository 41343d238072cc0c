"""`GameState.thaw` and `seal`: a thawed copy is a GameState holding every field of the state (the dicts copied),
mutable until sealed; a sealed state refuses every change."""

from __future__ import annotations

from types import MappingProxyType

import pytest

from dungeon_twister.engine import Options, apply, legal_actions, new_game
from dungeon_twister.engine.boardgame.state import _DICTS, _FIELDS, GameState
from dungeon_twister.engine.core.rng import Rng


def _played(n: int = 60) -> GameState:
    state, rng = new_game(Options(), 3), Rng(4)
    for _ in range(n):
        state, _ = apply(state, rng.choice(legal_actions(state)))
    return state


def test_thaw_copies_every_field():
    state = _played()
    copy = state.thaw()
    assert type(copy) is GameState and not copy._sealed and copy.memo is state.memo
    assert copy._board is None and copy._checked_pits is None
    for name in _FIELDS:
        value, copied = getattr(state, name), getattr(copy, name)
        if name in _DICTS:
            assert type(copied) is dict and copied == dict(value) and list(copied) == list(value)
            assert copied is not value
        else:
            assert copied is value, name
    assert copy == state


def test_thawed_copy_changes_alone_then_seals():
    state = _played()
    copy = state.thaw()
    copy.turn += 1
    copy.tokens.clear()
    assert state.turn == copy.turn - 1 and state.tokens
    copy.seal(owned=True)
    assert copy._sealed and all(type(getattr(copy, name)) is MappingProxyType for name in _DICTS)
    with pytest.raises(AttributeError):
        copy.turn = 0
    with pytest.raises(AttributeError):
        state.phase = "over"


def test_token_moved_is_dataclasses_replace_field_by_field():
    """`Token.moved` (written out field by field, `state._unrolled_moved`) gives what `dataclasses.replace` gives
    for any fields changed, every one of the token's fields included, and refuses a name that is no field."""
    import dataclasses
    import random

    from dungeon_twister.engine.boardgame.state import Token

    values = {"id": ["bWA", "yTR"], "colour": ["B", "Y"], "code": ["WA", "RP"], "is_character": [True, False],
              "where": ["board", "screen", "exited"], "square": [None, (1, 2)], "room": [None, (0, 1)],
              "face_down": [True, False], "wounded": [True, False], "wounded_turn": [-1, 3], "order": [0, 2],
              "scored_by": [None, "B"]}
    assert set(values) == {field.name for field in dataclasses.fields(Token)}
    pick = random.Random(7)
    for _ in range(2000):
        token = Token(**{name: pick.choice(options) for name, options in values.items()})
        changes = {name: pick.choice(options) for name, options in values.items() if pick.random() < 0.3}
        moved = token.moved(**changes)
        assert type(moved) is Token and dataclasses.astuple(moved) == dataclasses.astuple(
            dataclasses.replace(token, **changes))
    with pytest.raises(TypeError, match="Token has no field 'sqaure'"):
        token.moved(sqaure=(1, 1))
