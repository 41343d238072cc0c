"""dt-engine: its commands and exit codes (0 ok, 1 illegal or bad input naming line and rule, 2 usage)."""

import json

import pytest

from dungeon_twister.engine import NotationError
from dungeon_twister.engine.tools.cli import main

RECORD = """game seed=7
B: team b0=TH d0=WA g0=TR i0=GB
Y: team b21=TH d21=WA g21=TR i21=GB
"""


def test_play_prints_final_position_and_json(tmp_path, capsys):
    path = tmp_path / "game.txt"
    path.write_text(RECORD)
    assert main(["play", str(path), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["position"].startswith("DT1 base_set vp=5")
    assert result["outcome"] is None and result["to_act"] == ["B"]
    assert [e["kind"] for e in result["events"]] == ["team_chosen", "team_chosen", "hidden_placement_started"]


def test_play_illegal_action_exits_1_naming_line_and_rule(tmp_path, capsys):
    path = tmp_path / "game.txt"
    path.write_text(RECORD + "Y: hide yRP A1\n")
    assert main(["play", str(path)]) == 1
    err = capsys.readouterr().err
    assert "BG-SETUP-05" in err and "line 4" in err


def test_play_bad_notation_exits_1_with_column(tmp_path, capsys):
    path = tmp_path / "game.txt"
    path.write_text(RECORD + "B: hide bXX A1\n")
    assert main(["play", str(path)]) == 1
    assert "line 4" in capsys.readouterr().err


def test_usage_error_exits_2(capsys):
    assert main(["frobnicate"]) == 2


def test_show_and_legal(capsys):
    assert main(["selfplay", "--games", "1", "--seed", "3", "--max-actions", "30"]) == 0
    out = capsys.readouterr().out
    assert "game seed=3" in out and "games 1" in out
    position = "DT1 base_set vp=5 ; rooms A1=*1G/2 B1=*3D/1 A2=*3G/1 B2=*2D/3 A3=*4D/0 B3=*1D/2 A4=*2G/0 B4=*4G/2 ; ports - ; tokens bGB@i0? bTH@b0? bTR@g0? bWA@d0? yGB@i21? yTH@b21? yTR@g21? yWA@d21? ; cards B:2345/-/012233456/3 Y:2345/-/012233456/3 ; turn 0 - hide ap=0 high=1 four=0 first=Y placer=B combats=0"
    assert main(["legal", position]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 10 * 8 and lines[0].startswith("B: hide b")
    assert main(["show", position, "--seat", "Y"]) == 0
    drawing = capsys.readouterr().out
    assert "Yellow start zone" in drawing and "yTH" in drawing and "bTH" not in drawing


def test_PD_TEAM_FREE_01_legal_shows_a_free_build_as_its_parts_with_the_number_of_ways(capsys):
    """Prison with Paladins & Dragons: 2 of 8 pairs (28), 8 of 16 characters (12,870), 6 of 11 objects with the
    Key twice (C(10,6) + C(10,5) + C(10,4) = 210 + 252 + 210 = 672): 28 x 12,870 x 672 = 242,161,920 a seat."""
    from dungeon_twister.engine import Options, format_position, new_game

    position = format_position(new_game(Options(set_name="prison_paladins", teams="free"), 3))
    assert main(["legal", position]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2 and lines[1].startswith("Y: build, 242,161,920 ways: pairs=2 of 37,38,39,40,41,42,")
    assert "objects=6 of BW,CH,DS,FH,FS,KYx2,LN," in lines[0]


def test_a_missing_file_is_said_to_be_missing(tmp_path, capsys):
    """A single word is a file name (inline records and positions always have spaces): not found, exit 2."""
    assert main(["play", str(tmp_path / "missing.txt")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("dt-engine: no such file: ") and "missing.txt" in err
    assert main(["show", "nothere"]) == 2


def test_output_cut_short_by_its_reader_stops_quietly():
    """`dt-engine selfplay ... | head -1`: the reader leaves after one line; no traceback, no error message, the
    exit status of a process killed by SIGPIPE (141), as Unix tools do."""
    import subprocess
    import sys

    import os

    # unbuffered, so that each game's line is written as it ends; 400 short games take seconds, the reader leaves
    # after the first line: the second write finds no reader
    process = subprocess.Popen([sys.executable, "-m", "dungeon_twister.engine.tools.cli", "selfplay", "--games",
                                "400", "--max-actions", "50"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               env={**os.environ, "PYTHONUNBUFFERED": "1"})
    first = process.stdout.readline()
    process.stdout.close()  # the reader leaves
    err = process.stderr.read()
    assert process.wait() == 141
    assert first.startswith(b"game seed=0: ") and err == b""


def test_selfplay_plays_a_prison_scenario_and_refuses_what_prison_refuses(capsys):
    """PR-SCEN-1-06 from the command line; PR-OPT-02: a Prison game is played to 5, 6 or 7 VP (usage, exit 2)."""
    assert main(["selfplay", "--scenario", "prison-1", "--blue", "greedy", "--yellow", "greedy", "--seed", "1"]) == 0
    assert "(both figures out (PR-SCEN-1-06))" in capsys.readouterr().out
    assert main(["selfplay", "--set", "prison", "--vp", "8"]) == 2
    assert "PR-OPT-02" in capsys.readouterr().err


def test_selfplay_shows_its_progress_on_a_terminal_and_nothing_in_a_pipe(capsys, monkeypatch):
    """A long game prints where it is every 1,000 actions on stderr when stderr is a terminal (the results go to
    stdout as before); piped, stderr stays empty."""
    assert main(["selfplay", "--seed", "0", "--max-actions", "2500"]) == 0
    quiet = capsys.readouterr()
    assert quiet.err == "" and quiet.out.startswith("game seed=0: ")

    monkeypatch.setattr("sys.stderr.isatty", lambda: True, raising=False)
    assert main(["selfplay", "--seed", "0", "--max-actions", "2500"]) == 0
    shown = capsys.readouterr()
    assert "\rgame seed=0 (1/1): 1000 actions..." in shown.err and "2000 actions..." in shown.err
    assert shown.err.endswith("\r\x1b[K") and shown.out.splitlines()[0] == quiet.out.splitlines()[0]


def test_play_of_a_game_ended_outside_the_rules_gives_the_records_result(tmp_path, capsys):
    """A play-test replayed a resigned game's record and read only "outcome: game not over": a resignation is no
    rules outcome, and the server writes it as a `# result` comment, which the outcome line now gives."""
    path = tmp_path / "game.txt"
    path.write_text(RECORD + "# result winner=Y vp=B0,Y0 reason=resigned\n")
    assert main(["play", str(path)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == (
        "outcome: game not over by the rules; the record's result, outside them: winner=Y vp=B0,Y0 reason=resigned")
    path.write_text(RECORD)
    assert main(["play", str(path)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "outcome: game not over"


@pytest.mark.parametrize("start", ["game seed={seed} vp=5", "game cards seed={seed} tutorial=1"])
def test_a_records_seed_of_too_many_digits_is_refused_by_its_line(start):
    """A record's start line with a 5,000-digit seed was refused with Python's own "Exceeds the limit (4300 digits)
    for integer string conversion" (review rv33): the seed has at most SEED_DIGITS digits (a server's have 20 at
    most), said with its line, in both rule families; 100 digits still start a game."""
    from dungeon_twister.engine.boardgame.records import parse_record as board_record
    from dungeon_twister.engine.cards.records import parse_record as card_record
    from dungeon_twister.engine.core.records import SEED_DIGITS

    parse = card_record if "cards" in start else board_record
    assert SEED_DIGITS == 100
    parse(start.format(seed="9" * 100))
    with pytest.raises(NotationError) as refused:
        parse(start.format(seed="9" * 5000))
    assert str(refused.value).startswith("line 1: a seed has at most 100 digits, not 5000")
