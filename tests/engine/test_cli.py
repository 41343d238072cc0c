"""dt-engine: its commands and exit codes (0 ok, 1 illegal or bad input naming line and rule, 2 usage)."""

import json

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
