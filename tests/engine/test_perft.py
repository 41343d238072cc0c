"""Perft-style corpus: fixed positions and their exact number of legal actions (tests/engine/data/perft.json).

The team-choice and lone-warrior counts are checked by hand (see each entry's note); the random-game counts are
regression figures: a change to them is a change of the rules' outcome and must be explained.
"""

import json
from pathlib import Path

import pytest

from dungeon_twister.engine import legal_actions, parse_position

CORPUS = json.loads((Path(__file__).parent / "data" / "perft.json").read_text())


@pytest.mark.parametrize("entry", CORPUS, ids=[e["name"] for e in CORPUS])
def test_legal_action_count(entry):
    assert len(legal_actions(parse_position(entry["position"]))) == entry["legal"], entry["note"]


def test_BG_SETUP_04_team_choice_count_is_all_ordered_teams_of_four():
    """BG-SETUP-04: 4 of 8 characters on 4 marked squares: 8*7*6*5 = 1680 choices per seat."""
    entry = next(e for e in CORPUS if e["name"] == "new-game-team-choice")
    state = parse_position(entry["position"])
    assert len(legal_actions(state, "B")) == 8 * 7 * 6 * 5
