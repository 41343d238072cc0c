"""The greedy bot in Prison (engine/tools/bots.py): it sees only its seat's view and its legal actions as text, and
plays Prison's actions and scenarios for what they are worth. Positions on the synthetic rooms of builders.py (room
A2 has the pits c8 and d8)."""

from __future__ import annotations

import pytest

from dungeon_twister.engine import Options, legal_texts, view
from dungeon_twister.engine.core.rng import Rng
from dungeon_twister.engine.tools.bots import GreedyBot
from dungeon_twister.engine.tools.selfplay import play_game

from .builders import prison_position


def choice(state, seat: str = "B", seed: int = 1) -> str:
    return GreedyBot().choose(view(state, seat), legal_texts(state, seat), Rng(seed))


@pytest.mark.parametrize("seed", range(5))
def test_PR_CHAR_BANSHEE_03_the_bot_pushes_an_enemy_into_a_pit(seed):
    """yNG stands on c7, the pit c8 behind him as seen from bBS on c4: the push kills him, nothing else gains as
    much (no exit within reach)."""
    state = prison_position("bBS@c4 yNG@c7 yMK@h14")
    assert "push bBS yNG" in legal_texts(state, "B")
    assert choice(state, seed=seed) == "push bBS yNG"


def test_PR_CHAR_BANSHEE_03_edge_the_bot_does_not_push_a_friend_into_a_pit():
    bot, state = GreedyBot(), prison_position("bBS@c4 bNG@c7 yMK@h14")
    bot._cache = {}
    assert "push bBS bNG" in legal_texts(state, "B")
    assert bot.score(view(state, "B"), "B", "push bBS bNG") == -20.0


@pytest.mark.parametrize("seed", range(5))
def test_PR_RANGED_10_the_bot_shoots_when_it_risks_nothing(seed):
    """bAS with the Bow (ranged 1) and yTP (combat 0) four squares away on the file: the shot wins unless Yellow
    plays a card 2 higher than Blue's, and a shooter is never wounded (PR-RANGED-10)."""
    state = prison_position("bAS@c2 bBW@c2 yTP@c6 yMK@h14")
    assert "shoot bAS yTP" in legal_texts(state, "B")
    assert choice(state, seed=seed) == "shoot bAS yTP"


def test_PR_CHAR_TELEPATH_01_the_bot_names_the_lowest_card():
    """Naming +1 forces the opponent's weakest card, or shows his whole hand."""
    bot, state = GreedyBot(), prison_position("bTP@c4 yMK@c5")
    v = view(state, "B")
    choices = ["mind none", *(f"mind +{n}" for n in range(1, 7))]
    assert bot.choose(v, choices, Rng(1)) == "mind +1"
    assert [bot.score(v, "B", c) for c in choices] == [0.0, 9.0, 8.0, 7.0, 6.0, 5.0, 4.0]


@pytest.mark.parametrize("seat, leaving, hunted", [
    ("Y", frozenset({"CO"}), frozenset()),  # PR-SCEN-2-07: only the Colossus's leaving wins
    ("B", frozenset(), frozenset({"yCO"})),  # PR-SCEN-2-06: Blue cannot leave, it hunts the Colossus
])
def test_PR_SCEN_2_07_the_bot_plans_by_the_scenario(seat, leaving, hunted):
    tokens = [{"id": "yCO", "code": "CO", "colour": "Y", "character": True, "square": "c5", "wounded": False},
              {"id": "yMK", "code": "MK", "colour": "Y", "character": True, "square": "d5", "wounded": False},
              {"id": "bCL", "code": "CL", "colour": "B", "character": True, "square": "c2", "wounded": False}]
    bot = GreedyBot()
    bot._cache = {}
    assert bot._plan({"set": "prison", "scenario": "prison-2", "tokens": tokens}, seat) == (leaving, hunted)


def test_PR_SCEN_3_05_the_bot_hunts_every_enemy_and_leaves_none():
    tokens = [{"id": "yWZ", "code": "WZ", "colour": "Y", "character": True, "square": "c5", "wounded": False},
              {"id": "bBS", "code": "BS", "colour": "B", "character": True, "square": "c2", "wounded": False}]
    bot = GreedyBot()
    bot._cache = {}
    assert bot._plan({"set": "prison", "scenario": "prison-3", "tokens": tokens}, "B") == (
        frozenset(), frozenset({"yWZ"}))


# Greedy against greedy, seeds 1 and 2: each introductory scenario ends by its own victory condition, not by the
# action limit (before the bot knew the scenarios, PR-SCEN-3 never ended: nobody can leave and it walked to the
# exits: with the bot of commit ff45068, none of seeds 1 to 8 ended within 1,500 actions). The limit is a count of
# actions, far above these games' lengths (38 to 760 actions).
@pytest.mark.parametrize("scenario, reasons", [
    ("prison-1", {"both figures out (PR-SCEN-1-06)"}),
    ("prison-2", {"the Colossus reached Blue's start zone (PR-SCEN-2-07)",
                  "the Colossus is eliminated (PR-SCEN-2-07)"}),
    ("prison-3", {"2 enemy characters eliminated (PR-SCEN-3-05)"}),
    ("prison-4", {"4 VP reached (PR-SCEN-4-06)"}),
    ("prison-5", {"target reached"}),  # PR-SCEN-5: the full game's end (BG-END-01)
])
@pytest.mark.parametrize("seed", [1, 2])
def test_PR_SCEN_greedy_bots_play_each_scenario_to_its_victory(scenario, reasons, seed):
    options = Options(set_name="prison", scenario=scenario, target_vp=4 if scenario == "prison-4" else 5)
    result = play_game(seed, options, ("greedy", "greedy"), max_actions=2000)
    assert result.reason in reasons and result.winner in ("B", "Y")
