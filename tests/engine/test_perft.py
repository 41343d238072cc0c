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


def test_BG_SETUP_04_the_team_choices_kept_are_those_the_rules_make_for_each_game(monkeypatch):
    """The team choices are kept by what they follow from (legal.team_choices: a server lists them for every view
    at the team choice, and each commitment publishes one): a game whose inputs differ (Blue's handicap: one
    character left out, BG-OPT-08) gets its own 1680 + removals, never another game's; games alike share one
    entry; the texts are format_action's of the actions, in their order; and the entries kept are bounded."""
    from dungeon_twister.engine import Handicap, Options, format_action, new_game
    from dungeon_twister.engine.boardgame import legal, setup
    from dungeon_twister.engine.families import BOARD

    plain, other = new_game(Options(), 1), new_game(Options(), 2)
    handicapped = new_game(Options(handicap=Handicap("B", 7)), 1)
    choices = legal.team_choices(plain, "B")
    assert legal.team_choices(other, "B") is choices  # shared by games alike
    assert len(choices) == 8 * 7 * 6 * 5
    assert [(a.team, a.removed) for a in choices] == list(setup.team_options(plain, "B"))
    texts = [format_action(a) for a in choices]
    assert BOARD.legal_texts(plain, "B") == texts and BOARD.legal_texts(other, "B") == texts  # (kept, the 2nd)
    assert list(BOARD.legal_table(other, "B")) == texts and list(BOARD.legal_table(other, "B").values()) == list(
        choices)
    left_out = legal.team_choices(handicapped, "B")
    assert len(left_out) == 8 * 7 * 6 * 5 * 4 and all(len(a.removed) == 1 for a in left_out)  # 1 of the 4 left
    assert legal.team_choices(handicapped, "Y")[0].seat == "Y"
    monkeypatch.setattr(legal, "_TEAM_CHOICES", {})
    monkeypatch.setattr(legal, "TEAM_CHOICES_KEPT", 2)
    for characters in (4, 5, 6, 7):  # four kinds of game: the oldest entries go
        legal.team_choices(new_game(Options(handicap=Handicap("B", characters)), 1), "B")
    assert len(legal._TEAM_CHOICES) == 2
