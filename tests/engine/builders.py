"""Hand-written test positions: a synthetic room set with known features, and a position builder.

The synthetic rooms (docs/rulings.md: rule tests may build synthetic rooms, RUL-042) are, in tile coordinates
(rRcC, row 1 at the top of the printed tile, which faces Yellow at orientation 0; see engine/boardgame/geometry.py):
  O1/O2 (pair 1), Q1/Q2 (pair 4): empty rooms, gear at r1c1.
  P1/P2 (pair 2): pits at r3c3 and r3c4, gear at r1c1.
  W1/W2 (pair 3): gear at r1c1; walls r3c2|r3c3 and r2c3-r3c3; portcullises r3c3|r3c4 and r3c3-r4c3;
                  an outer wall on r5c1's south side.
Every G-like room (suffix 1) turns counter-clockwise, every suffix-2 room clockwise.
With the default layout (all revealed, orientation 0): A1=O1 B1=O2 A2=P1 B2=P2 A3=W1 B3=W2 A4=Q1 B4=Q2.
Board squares: files a..j, ranks 1..20; Blue's start zone is rank 0, Yellow's rank 21.
"""

from __future__ import annotations

import copy
import json
from importlib import resources

from dungeon_twister.engine import parse_position
from dungeon_twister.engine.boardgame import catalogue


def _synthetic() -> dict:
    raw = json.loads(resources.files("dungeon_twister.engine.boardgame.data").joinpath("base_set.json").read_text())
    raw = copy.deepcopy(raw)
    raw["set"] = "synthetic"

    def room(number, clockwise, pits=(), walls=(), outer=(), ports=()):
        return {"number": number, "arrow": "clockwise" if clockwise else "counter-clockwise", "rotation": "r1c1",
                "pits": list(pits), "internal_walls": list(walls), "outer_walls": list(outer),
                "portcullises": list(ports)}

    walled = dict(walls=["r3c2-r3c3", "r2c3-r3c3"], outer=["r5c1:S"], ports=["r3c3-r3c4", "r3c3-r4c3"])
    raw["rooms"] = {
        "O1": room(1, False), "O2": room(1, True),
        "P1": room(2, False, pits=["r3c3", "r3c4"]), "P2": room(2, True, pits=["r3c3", "r3c4"]),
        "W1": room(3, False, **walled), "W2": room(3, True, **walled),
        "Q1": room(4, False), "Q2": room(4, True),
    }
    return raw


def register_synthetic() -> None:
    """Make the synthetic room set available to parse_position (idempotent)."""
    catalogue.register("synthetic", _synthetic())


register_synthetic()

DEFAULT_ROOMS = "A1=O1/0 B1=O2/0 A2=P1/0 B2=P2/0 A3=W1/0 B3=W2/0 A4=Q1/0 B4=Q2/0"
FULL_HANDS = "B:2345/-/012233456/3 Y:2345/-/012233456/3"


def position_text(tokens: str = "-", *, rooms: str = DEFAULT_ROOMS, ports: str = "-", cards: str = FULL_HANDS,
                  turn: int = 5, active: str = "B", phase: str = "main", ap: int = 5, four: int = 1,
                  high: int = 5, extra: str = "", fields: str = "", set_name: str = "synthetic",
                  options: str = "vp=5") -> str:
    text = (f"DT1 {set_name} {options} ; rooms {rooms} ; ports {ports} ; tokens {tokens} ; cards {cards} ; "
            f"turn {turn} {active} {phase} ap={ap} high={high} four={four} first=B placer=- combats=0"
            + (f" {extra}" if extra else ""))
    return text + (f" ; {fields}" if fields else "")


def position(tokens: str = "-", **kwargs):
    """A GameState from a few tokens: `position("bWA@c4 yTR@c5!", ap=3)`."""
    return parse_position(position_text(tokens, **kwargs))


# --- helpers for the rule tests (test_rules_move/items/combat/characters/objects) -----------------------
def apply_texts(state, *texts: str, seat: str | None = None):
    """Apply actions written in notation, each by `seat` (default: the only seat to act). Returns (state, events)."""
    from dungeon_twister.engine import apply, parse_action

    events = []
    for text in texts:
        who = seat or state.to_act[0]
        state, evs = apply(state, parse_action(text, who))
        events.extend(evs)
    return state, events


def act(state, *texts: str, seat: str | None = None):
    """The state after applying actions written in notation (see apply_texts)."""
    return apply_texts(state, *texts, seat=seat)[0]


def assert_refused(state, action, rule: str, seat: str | None = None):
    """The action (notation or an Action) is refused citing `rule`, and the state is left as it was.

    Returns the IllegalAction.
    """
    import pytest

    from dungeon_twister.engine import IllegalAction, apply, format_position, parse_action

    before = format_position(state)
    if isinstance(action, str):
        action = parse_action(action, seat or state.to_act[0])
    with pytest.raises(IllegalAction) as info:
        apply(state, action)
    assert info.value.rule == rule, f"{action!r} refused citing {info.value.rule} ({info.value.message}), not {rule}"
    assert format_position(state) == before
    return info.value


def legal_set(state, seat: str | None = None, verb: str | None = None, token: str | None = None) -> set[str]:
    """The legal actions in notation, optionally only one verb and/or those of one token."""
    from dungeon_twister.engine import format_action, legal_actions

    out = set()
    for action in legal_actions(state, seat):
        words = format_action(action).split()
        if verb and words[0] != verb:
            continue
        if token and (len(words) < 2 or words[1] != token):
            continue
        out.add(" ".join(words))
    return out


def combat_round(state, attack: str, blue: int, yellow: int, yellow_first: bool = False):
    """Declare `attack` (by the active seat), then both combat cards. Returns (state, events)."""
    state, events = apply_texts(state, attack)
    order = [("Y", yellow), ("B", blue)] if yellow_first else [("B", blue), ("Y", yellow)]
    for seat, value in order:
        state, evs = apply_texts(state, f"combat +{value}", seat=seat)
        events.extend(evs)
    return state, events


def where(state, token_id: str) -> str:
    """'c4' (with '!' if wounded) for a token on the board, else its place (exited, eliminated, ...)."""
    from dungeon_twister.engine.boardgame.geometry import square_name

    t = state.tokens[token_id]
    if t.where == "board":
        return square_name(t.square) + ("!" if t.wounded else "")
    return t.where


def next_turn(state, card: int | None = None):
    """End the active player's turn; the next player plays `card` (default: his smallest playable card)."""
    state, _ = apply_texts(state, "end")
    values = sorted(int(text.split()[1]) for text in legal_set(state, verb="card"))
    state, _ = apply_texts(state, f"card {card if card is not None else values[0]}")
    return state


def refusal_from_choices(apply, choice_refusal, state, action, choices, **seen):
    """Check that `choice_refusal(action, choices, **seen)` (a family's, engine/families.py; `seen`: what the
    seat's view shows, named and hand) says what `apply(state, action)` says: the same rule, template and values,
    or nothing when apply accepts. Returns apply's (rule, template, values), or None. For either game (its `apply`
    and `choice_refusal` given)."""
    from dungeon_twister.engine import IllegalAction

    try:
        apply(state, action)
        expected = None
    except IllegalAction as error:
        expected = (error.rule, error.template, error.values)
    found = choice_refusal(action, choices, **seen)
    assert (found and (found.rule, found.template, found.values)) == expected, action
    return expected
