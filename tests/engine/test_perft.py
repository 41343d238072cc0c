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


def test_BG_SETUP_04_the_team_choices_kept_are_bounded_in_choices_and_the_least_recently_used_go(monkeypatch):
    """Session 31: teams drawn from a mix of sets (PD-TEAM-02) give every game inputs of its own, and the 32 entries
    kept held 24 MB (0.75 MB each, its texts included). Now the entries hold TEAM_CHOICES_MOST choices together at
    most (the newest whatever its size), the least recently used going first, and notation keeps the texts of the
    entries kept only. Edge: an entry used again is kept over one made after it and not used since."""
    from dungeon_twister.engine import Handicap, Options, new_game
    from dungeon_twister.engine.boardgame import legal, notation
    from dungeon_twister.engine.families import BOARD

    monkeypatch.setattr(legal, "_TEAM_CHOICES", {})
    monkeypatch.setattr(notation, "_TEAM_TEXTS", {})
    monkeypatch.setattr(legal, "TEAM_CHOICES_MOST", 2 * 1680)
    games = {n: new_game(Options(handicap=Handicap("B", n)), 1) for n in (6, 7)}
    games[8] = new_game(Options(), 1)
    first = legal.team_choices(games[8], "B")
    assert len(first) == 1680 and len(BOARD.legal_texts(games[8], "B")) == 1680
    legal.team_choices(games[8], "Y")  # (Yellow's: an entry of its own)
    assert len(legal._TEAM_CHOICES) == 2 and len(notation._TEAM_TEXTS) == 1
    legal.team_choices(games[8], "B")  # used again: now the most recent
    big = legal.team_choices(games[7], "B")  # 6720 choices: kept alone, beyond the bound
    assert len(big) == 6720 and list(legal._TEAM_CHOICES.values()) == [big]
    BOARD.legal_texts(games[7], "B")
    assert [kept[0] for kept in notation._TEAM_TEXTS.values()] == [big]  # the others' texts let go with them
    monkeypatch.setattr(legal, "TEAM_CHOICES_MOST", 3 * 1680)
    monkeypatch.setattr(legal, "_TEAM_CHOICES", {})
    base, prison, paladins = (new_game(Options(set_name=name), 1) for name in ("base_set", "prison", "paladins"))
    a, b = legal.team_choices(base, "B"), legal.team_choices(prison, "B")
    assert legal.team_choices(base, "B") is a  # the base set's used again, after Prison's
    legal.team_choices(paladins, "B")  # 3 x 1680: the bound reached, none go
    assert len(legal._TEAM_CHOICES) == 3
    legal.team_choices(base, "Y")  # one more: the least recently used (Prison's) goes, not the base set's
    kept = list(legal._TEAM_CHOICES.values())
    assert len(kept) == 3 and not any(c is b for c in kept) and any(c is a for c in kept)
