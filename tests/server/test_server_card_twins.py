"""End to end over a real server, for the Card Game: twin card games are indistinguishable to the opponent and to a
spectator, byte for byte, until the rules reveal their difference (docs/rulings.md DT-042; CG-TUT1-04, CG-TUT2-04,
CG-REVEAL-05, CG-OPT-03). The method is tests/server/test_server_twins.py's (two servers, three scripted clients,
timers on under a frozen clock, every frame kept and the documented random fields normalised): Blue and the
spectators must receive the same frames, in number, size, order and bytes, before the step that makes the
difference public, and different frames in that step.
"""

from __future__ import annotations

import re

import msgpack
import pytest

from dungeon_twister.engine.cards import CardOptions, Seed, apply, format_action, new_game, parse_action
from dungeon_twister.engine.cards.actions import Build
from dungeon_twister.engine.cards.catalogue import load
from dungeon_twister.engine.core.rng import Rng
from dungeon_twister.engine.families import CARDS
from dungeon_twister.protocol import TableOptions
from dungeon_twister.server.viewing import legal_texts
from test_server_twins import Step, TwinsDiffer, compare_twins

SEED = 3
ENGINE = CardOptions(3, secret_objects=True)
TABLE = TableOptions(game="cards", tutorial=3, secret_objects=True, timers=True)
LIMIT = 120
_ID = re.compile(r"\b[by][A-Z]{2}\d?\b")
"""A card's id in an action's text (`yKY`, a second copy `yKY2`)."""


def card_script(seed: int, options: CardOptions, limit: int = LIMIT) -> list[Step]:
    """The card game two greedy card bots play from `seed`, as steps (a secret choice: both seats' at once)."""
    state, bot, rngs = new_game(options, seed), CARDS.bots["greedy"](), {"B": Rng(1), "Y": Rng(2)}
    steps = []
    while state.outcome is None and len(steps) < limit:
        seat = state.to_act[0]
        purpose = CARDS.secret_purpose(state, seat)
        seats = sorted(state.to_act) if purpose else [seat]
        choices = {s: bot.choose(CARDS.view(state, s), legal_texts(state, s), rngs[s]) for s in seats}
        for s in seats:
            state, _ = apply(state, parse_action(choices[s], s))
        steps.append(Step(choices, purpose))
    return steps


def states(seed: int, options: CardOptions, steps: list[Step]) -> list:
    """The engine state before each step and after the last (every action must be legal: the twin is a game)."""
    out = [new_game(options, seed)]
    for step in steps:
        state = out[-1]
        for seat in sorted(step.choices):
            state, _ = apply(state, parse_action(step.choices[seat], seat))
        out.append(state)
    return out


def seeded_twins() -> tuple[list[Step], list[Step], int]:
    """The greedy script, and its twin in which Yellow seeds two of its cards each beside the other's room (a
    character and an object where it can: CG-TUT1-04, the backs show only their colour). Cut: the step that
    reveals one of those rooms (CG-REVEAL-05)."""
    script = card_script(SEED, ENGINE)
    seeds = [(n, parse_action(step.choices["Y"], "Y")) for n, step in enumerate(script)
             if step.purpose is None and step.choices.get("Y", "").startswith("seed ")]
    (n1, s1) = seeds[0]
    start = new_game(ENGINE, SEED)
    (n2, s2) = next(((n, s) for n, s in seeds if s.slot != s1.slot
                     and start.has_fig(s.item) != start.has_fig(s1.item)),
                    next((n, s) for n, s in seeds if s.slot != s1.slot))
    twin = list(script)
    twin[n1] = Step({"Y": format_action(Seed("Y", s2.item, s1.slot))})
    twin[n2] = Step({"Y": format_action(Seed("Y", s1.item, s2.slot))})
    played = states(SEED, ENGINE, script)
    cut = next(n for n in range(len(script))
               if any(played[n + 1].rooms[slot].revealed for slot in (s1.slot, s2.slot)))
    twin_states = states(SEED, ENGINE, twin[:cut + 1])  # the same public actions are legal in the twin
    assert twin_states[cut].phase == played[cut].phase == "main"
    return script[:cut + 1], twin[:cut + 1], cut


async def test_CG_TUT1_04_cards_seeded_by_other_rooms_send_the_same_bytes_until_a_room_is_revealed(mock_clock):
    """Tutorial 3 with secret objects (CG-OPT-03) and timers (CG-OPT-01/02): Yellow seeds two cards the other way
    round; the hidden start characters and facings, the seeding, the teams' reveal and the turns up to the reveal
    of one of those rooms send Blue, a spectator and a spectator with view deltas the same bytes, timer messages
    and commit-reveal rounds included; the reveal itself differs."""
    script, twin, cut = seeded_twins()
    compared = await compare_twins((SEED, SEED), (script, twin), cut, TABLE)
    assert compared["B"] > cut and compared["spectator"] > cut
    assert {"opponent_commit", "opponent_reveal", "timer", "table_event"} <= compared["B types"]
    assert {"timer", "table_event"} <= compared["spectator types"]


async def test_control_the_card_comparison_catches_a_planted_order_leak(mock_clock, monkeypatch):
    """With the card views' `sorted` undone (the backs of a room listed in card order, characters first), the same
    twins are told apart before the cut, in a view of the seeding."""
    from dungeon_twister.engine.cards import views

    monkeypatch.setattr(views, "sorted", lambda values, **k: list(values), raising=False)
    script, twin, cut = seeded_twins()
    with pytest.raises(TwinsDiffer) as failure:
        await compare_twins((SEED, SEED), (script, twin), cut, TABLE)
    event = msgpack.unpackb(failure.value.first)["event"]
    assert event["kind"] == "view" and event["view"]["phase"] in ("seed", "face", "main")


FULL = CardOptions(None, "standard", "full", secret_objects=True)
FULL_TABLE = TableOptions(game="cards", scenario="standard", teams="full", secret_objects=True, timers=True)
FULL_SEED = 5


def full_frontal_twins() -> tuple[list[Step], list[Step], int]:
    """The greedy script of a full frontal game (CG-SEL-FULL-01), and its twin in which Yellow builds another
    team (characters and objects none of the first's) and plays the same public actions with it: X's k-th
    character or object of each team stands for the other's (its hidden start characters, its seeded cards).
    Cut: the step at which the start characters are revealed (CG-TUT1-05)."""
    script = card_script(FULL_SEED, FULL, 40)
    first = script[0]
    assert first.purpose == "build"
    yellow = parse_action(first.choices["Y"], "Y")
    catalogue = load()
    characters = tuple(c for c in sorted(catalogue.characters) if c not in yellow.characters)[-len(yellow.characters):]
    kinds = [code for code, _ in catalogue.object_deck if code not in yellow.objects]
    objects = tuple(sorted(kinds[:len(yellow.objects)]))
    twin_build = Build("Y", characters, objects)
    twin = [Step({**first.choices, "Y": format_action(twin_build)}, "build")]
    a, b = states(FULL_SEED, FULL, script[:1])[-1], states(FULL_SEED, FULL, twin)[-1]
    sigma = {}
    for kind in ("figures", "items"):
        sigma.update(zip(sorted(c.id for c in getattr(a, kind) if c.seat == "Y"),
                         sorted(c.id for c in getattr(b, kind) if c.seat == "Y")))
    cut = next(n for n, (before, after) in enumerate(zip(states(FULL_SEED, FULL, script),
                                                           states(FULL_SEED, FULL, script)[1:]))
               if before.phase == "face" and after.phase != "face")
    for step in script[1:cut + 1]:
        choices = dict(step.choices)
        if "Y" in choices:
            choices["Y"] = _ID.sub(lambda m: sigma.get(m.group(0), m.group(0)), choices["Y"])
        twin.append(Step(choices, step.purpose))
    assert states(FULL_SEED, FULL, twin)[-1].phase == "main"  # the same public actions are legal in the twin
    return script[:cut + 1], twin, cut


async def test_CG_SEL_FULL_01_another_secret_team_sends_the_same_bytes_until_the_start_characters_show(mock_clock):
    """Yellow builds another team in secret (CG-SEL-FULL-01, commit-reveal purpose "build") and plays the same
    public actions with it (its hidden start characters, CG-TUT1-04; its cards seeded face down, CG-SCEN-02):
    Blue and the spectators receive the same bytes until the start characters are revealed (CG-TUT1-05). The
    build's reveal is held to the end of the game (DT-218), the hidden placement's until the teams show."""
    script, twin, cut = full_frontal_twins()
    assert script[0].choices["Y"] != twin[0].choices["Y"] and cut > 10
    compared = await compare_twins((FULL_SEED, FULL_SEED), (script, twin), cut, FULL_TABLE)
    assert compared["B"] > cut and compared["spectator"] > cut
    assert {"opponent_commit", "table_event"} <= compared["B types"]
    assert "opponent_reveal" not in compared["B types"]
