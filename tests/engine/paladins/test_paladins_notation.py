"""Paladins & Dragons notation (docs/notation.md): its verbs and the position field `marks` round-trip, and the
documented example is a real position."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from dungeon_twister.engine import NotationError, format_action, format_position, parse_action, parse_position

DOC = (Path(__file__).resolve().parents[3] / "docs" / "notation.md").read_text()

TEXTS = ["breathe bRD n", "smash bGO e", "illusion bIL pit c7", "illusion bIL rubble d9", "dispel bIL pit",
         "steal bPP yTS", "teleport bRD c7", "charm bIL yWA", "fountain bTR"]


@pytest.mark.parametrize("text", TEXTS)
def test_each_paladins_verb_round_trips(text):
    assert format_action(parse_action(text, "B")) == text


def test_a_bad_illusion_kind_says_what_is_expected():
    with pytest.raises(NotationError, match="expected pit or rubble"):
        parse_action("illusion bIL hole c7", "B")


def test_the_documented_paladins_position_round_trips_and_its_marks_are_the_board():
    """The example of docs/notation.md: the marks field parses, writes back identically, and the board follows it
    (the broken segment is gone from the walls, the illusion pit is a pit)."""
    from dungeon_twister.engine.boardgame.board import board_of

    text = next(line for line in DOC.splitlines() if line.startswith("DT1 paladins"))
    state = parse_position(text)
    assert format_position(state) == text
    board = board_of(state)
    assert ("43G", 9) in board.broken and (0, 5) in board.pits
    assert ((0, 9), (0, 10)) not in board.walls


def test_a_bad_marker_is_refused_where_it_is():
    text = next(line for line in DOC.splitlines() if line.startswith("DT1 paladins"))
    for bad in ("wall:99X:1=bGO", "illusion:B:hole=c7", "junk"):
        with pytest.raises(NotationError, match="bad marker"):
            parse_position(re.sub(r"marks \S+", f"marks {bad}", text))


def test_PD_TEAM_FREE_the_documented_build_and_free_draft_position_round_trip():
    """docs/notation.md: the `build` example parses to its canonical text whatever the order of fields and values;
    the documented mid-build position is real (Blue has built, Yellow is to build) and writes back identically."""
    text = "build pairs=3,41 characters=ES,GH,MK,PA,RD,TH,WA,WZ objects=FH,KY,RP,SP,SW,TS"
    assert f"`{text}`" in DOC
    assert format_action(parse_action(text, "B")) == text
    shuffled = "build objects=TS,KY,FH,SP,SW,RP pairs=41,3 characters=WZ,ES,GH,MK,PA,RD,TH,WA"
    assert format_action(parse_action(shuffled, "B")) == text
    twice = "build objects=TS,KY,FH,KY,SW,RP pairs=41,3 characters=WZ,ES,GH,MK,PA,RD,TH,WA"  # (a common object, twice)
    assert format_action(parse_action(twice, "B")) == (
        "build pairs=3,41 characters=ES,GH,MK,PA,RD,TH,WA,WZ objects=FH,KY,KY,RP,SW,TS")
    line = next(line for line in DOC.splitlines() if line.startswith("DT1 prison_paladins vp=5 teams=free"))
    state = parse_position(line)
    assert format_position(state) == line
    assert state.phase == "build" and state.to_act == ("Y",) and state.draft.built("B")[0] == (37, 41)
