"""dt-client replay FILE: a game record stepped through forwards and backwards (client/replay.py)."""

from __future__ import annotations

import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from dungeon_twister.client.app import main
from dungeon_twister.client.replay import Replay, run_replay
from dungeon_twister.engine import IllegalAction

RECORD = """game seed=7
B: team b0=TH d0=WA g0=TR i0=GB
Y: team b21=TH d21=WA g21=TR i21=GB
"""


def test_steps_go_forwards_and_backwards_within_the_record():
    replay = Replay.of(RECORD)
    assert (len(replay.steps), replay.index) == (2, 0)
    assert replay.panel()[0] == "Action 0 of 2 (the start)"
    replay.go(1)
    assert replay.panel()[:3] == ["Action 1 of 2", "", "B: team b0=TH d0=WA g0=TR i0=GB"]
    assert replay.panel()[3] == "  Blue has chosen a team", \
        "an unfinished game is seen as its spectators saw it: a team shows once both are chosen"
    replay.go(10)
    assert replay.index == 2
    replay.go(-5)
    assert replay.index == 0
    replay.go_to(99)
    assert replay.index == 2


def test_a_hidden_team_stays_hidden_in_an_unfinished_game_and_shows_in_a_finished_one():
    """Until the end, the replay shows what a spectator saw; once the game is over, everything (here: the
    server's result line of a resigned game)."""
    unfinished = Replay.of(RECORD)
    unfinished.go(1)
    assert unfinished.viewer is None
    over = Replay.of(RECORD + "# result winner=Y vp=B0,Y0 reason=resigned\n")
    over.go_to(2)
    assert over.viewer == "*" and "Game over: Yellow wins 0-0 (the other player resigned)" in over.panel()
    over.go_to(1)
    assert over.panel()[3] == "  Blue chooses the team TH on b0, WA on d0, TR on g0, GB on i0"
    assert not any(line.startswith("Game over") for line in over.panel()), \
        "the server's result is shown after the last action only"


def test_the_servers_result_line_is_worded_as_a_rules_outcome_in_the_readers_language(tmp_path, capsys):
    """A game that ended outside the rules (server/play.py writes `# result winner=Y vp=B0,Y0 reason=resigned`):
    `dt-client verify` and the replay word it as they word a rules outcome, the reason translated; a result line
    this client cannot read is shown as it is."""
    path = tmp_path / "resigned.txt"
    path.write_text(RECORD + "# result winner=Y vp=B0,Y0 reason=resigned\n")
    assert main(["verify", str(path)]) == 0
    assert "Game over: Yellow wins 0-0 (the other player resigned)" in capsys.readouterr().out
    odd = Replay.of(RECORD + "# result something else\n")
    odd.go_to(2)
    assert "Game over (something else)" in odd.panel()
    assert main(["--lang", "fr", "verify", str(path)]) == 0
    assert "Partie terminée\xa0: Jaune gagne 0-0 (l'autre joueur a abandonné)" in capsys.readouterr().out


def test_verify_says_when_the_record_ends_before_the_game_does(tmp_path, capsys):
    """A play-test cut a finished game's record after 30 lines: `verify` said "19 actions ..., every one legal" and
    nothing more, so a cut record read as a whole one. It says now that the game is not over where the record
    ends (exit 0 still: a game in progress is a record too); one action is "1 action", not "1 actions"."""
    path = tmp_path / "cut.txt"
    path.write_text(RECORD)
    assert main(["verify", str(path)]) == 0
    out = capsys.readouterr().out
    assert f"{path}: 2 actions of the board game, every one legal" in out
    assert "the game is not over where the record ends: a game still being played, or a record cut short" in out
    path.write_text("\n".join(RECORD.splitlines()[:2]) + "\n")
    assert main(["verify", str(path)]) == 0
    assert f"{path}: 1 action of the board game, legal" in capsys.readouterr().out


def test_verify_prints_what_a_record_says_as_the_screens_show_text(tmp_path, capsys):
    """A record comes from a file or a server's answer: `dt-client verify` printed its `# result` line raw, and an
    escape sequence in it acted on the terminal (found by reading after a review of `discover`'s output). What it
    prints of the record is now escaped as the screens escape names and chat (printable.py)."""
    path = tmp_path / "hostile.txt"
    path.write_text(RECORD + "# result \x1b[2J\x1b[31mgotcha\n")
    assert main(["verify", str(path)]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "outcome: \\x1b[2J\\x1b[31mgotcha" in out


def test_a_record_the_rules_refuse_names_its_line_and_rule(tmp_path, capsys):
    with pytest.raises(IllegalAction) as info:
        Replay.of(RECORD + "Y: hide yRP A1\n")
    assert info.value.rule == "BG-SETUP-05" and "line 4" in str(info.value)
    path = tmp_path / "bad.txt"
    path.write_text(RECORD + "Y: hide yRP A1\n")
    assert main(["verify", str(path)]) == 1
    assert "not a game record the rules allow" in capsys.readouterr().err
    assert main(["replay", str(tmp_path / "missing.txt")]) == 1
    assert "cannot read" in capsys.readouterr().err


def test_a_record_the_rules_refuse_from_a_line_on_is_replayed_up_to_there_and_verify_still_refuses_it(
        tmp_path, capsys, monkeypatch):
    """A record of a game played before a rule was corrected (pd27: a lance over a 3D obstacle, DT-287; the Ghost
    on a Rope's pit, DT-288) could no longer be watched at all: `replay` said it was no game the rules allow. It is
    replayed up to the first action this version's rules refuse, which the last step's panel and stderr name (line
    and rule); `verify` still refuses it (it checks the whole record); a record refused from its first action is
    no game to show."""
    from dungeon_twister.client import replay as replay_module
    from dungeon_twister.engine import EngineError

    text = RECORD + "Y: hide yRP A1\nB: hide bRP A1\n# result winner=Y vp=B0,Y0 reason=resigned\n"
    replay = Replay.of(text, partial=True)
    assert len(replay.steps) == 2 and replay.stopped.rule == "BG-SETUP-05" and replay.result is None
    replay.go_to(2)
    assert replay.panel()[-3].startswith("The record goes on, but this version's rules refuse its next action: "
                                         "BG-SETUP-05: line 4 (Y: hide yRP A1): ")
    replay.go_to(1)
    assert not any(line.startswith("The record goes on") for line in replay.panel()), "said at the last step"
    with pytest.raises(IllegalAction):
        Replay.of(text)
    with pytest.raises(EngineError):
        Replay.of("game seed=7\nB: team b0=TH d0=TH g0=TR i0=GB\n", partial=True)
    path = tmp_path / "old.txt"
    path.write_text(text)
    shown = []
    monkeypatch.setattr(replay_module, "run_replay", lambda replay, **kw: shown.append(len(replay.steps)))
    assert main(["replay", str(path)]) == 0 and shown == [2]
    assert "refuse its next action: BG-SETUP-05: line 4" in capsys.readouterr().err
    assert main(["verify", str(path)]) == 1
    assert "not a game record the rules allow" in capsys.readouterr().err


def test_a_table_named_without_a_server_is_told_how_to_ask_a_server(tmp_path, monkeypatch, capsys):
    """Play-test pt27 F10: `dt-client replay 1` (the table's number, as `replay 1` at the prompt takes it) without
    --server was answered "cannot read 1: no such file"; a missing file named like a table (7, t7, t7-0d67fc3c)
    now says how to fetch a server's game too, and a missing file named otherwise is said as before."""
    monkeypatch.chdir(tmp_path)
    for table in ("1", "t7", "t7-0d67fc3c"):
        assert main(["replay", table]) == 1
        assert capsys.readouterr().err.strip() == (f"dt-client: cannot read {table}: no such file (a server's game: "
                                                   f"dt-client replay {table} --server HOST:PORT)")
    assert main(["verify", "game.txt"]) == 1
    assert capsys.readouterr().err.strip() == "dt-client: cannot read game.txt: no such file", "(the edge)"


def test_replay_and_verify_say_why_in_words_when_the_table_or_server_or_file_is_not_there(monkeypatch, tmp_path,
                                                                                          capsys):
    """A play-test's `verify` of a 65-letter table id with --server ended in the encoder's traceback, a server out
    of reach was "cannot read t7-...: all attempts to connect to 127.0.0.1:7999 failed" (trio's English), a missing
    file "No such file or directory" inside a German line. Each is said in the reader's language now."""
    import socket

    monkeypatch.setenv("DT_CLIENT_STATE_DIR", str(tmp_path))  # (where the pins would be kept)
    with socket.socket() as probe:  # a port nobody listens on (bound, then closed: port 0 picks a free one)
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    assert main(["verify", "x" * 65, "--server", f"127.0.0.1:{port}"]) == 1
    assert capsys.readouterr().err.strip().endswith("there is no table '" + "x" * 64 + "…'")
    # the id is not echoed whole either (a play-test's 5,000 nines filled the terminal): "no record of 99…: ..."
    assert main(["replay", "9" * 5000, "--server", f"127.0.0.1:{port}"]) == 1
    assert capsys.readouterr().err.strip() == ("dt-client: no record of " + "9" * 64 + "…: there is no table '"
                                               + "9" * 64 + "…'")
    assert main(["--lang", "de", "replay", "t7-0d67fc3c", "--server", f"127.0.0.1:{port}"]) == 1
    err = capsys.readouterr().err
    assert "Verbindung abgelehnt" in err and "attempts" not in err and "kann nicht gelesen" not in err
    assert main(["replay", str(tmp_path / "missing.txt")]) == 1
    assert capsys.readouterr().err.strip().endswith("missing.txt: no such file")
    assert main(["replay", str(tmp_path)]) == 1
    assert capsys.readouterr().err.strip().endswith(": it is a folder, not a file")
    with pytest.raises(SystemExit) as info:
        main(["connect", "127.0.0.1:1", "--spectate", "x" * 65])
    assert info.value.code == 2 and "a table's id has at most 64 characters" in capsys.readouterr().err


def test_a_bad_record_is_explained_in_the_language_in_use_its_line_and_its_error_both(tmp_path, capsys):
    """A record's bad line is refused with the line's number and the line's own error, and `dt-client --lang`
    translates both: the head (engine/core/records.py LINE_HEAD, ACTION_HEAD) and the parser's or the rules'
    template after it, which the record error keeps (not a string made of the English message)."""
    refused = tmp_path / "refused.txt"
    refused.write_text(RECORD + "Y: hide yRP A1\n")
    assert main(["--lang", "fr", "verify", str(refused)]) == 1
    err = capsys.readouterr().err
    assert "BG-SETUP-05\xa0: ligne 4 (Y: hide yRP A1)\xa0: " in err and "line 4" not in err  # French colons
    unparsed = tmp_path / "unparsed.txt"
    unparsed.write_text(RECORD + "B: flop\n")
    assert main(["--lang", "de", "verify", str(unparsed)]) == 1
    err = capsys.readouterr().err
    assert "Zeile 4: unbekanntes Verb 'flop'" in err and "in Spalte 1: 'flop'" in err
    assert main(["verify", str(unparsed)]) == 1
    err = capsys.readouterr().err
    assert "line 4: unknown verb 'flop'" in err and "at column 1: 'flop'" in err


def test_the_keys_step_through_the_record_on_screen():
    replay = Replay.of(RECORD)
    with create_pipe_input() as pipe:
        pipe.send_text("\x1b[C")  # right arrow: the first action
        pipe.send_text("  ")  # space twice: to the last (and no further)
        pipe.send_text("\x1b[D")  # left arrow: one back
        pipe.send_text("q")
        run_replay(replay, input=pipe, output=DummyOutput())
    assert replay.index == 1


def _replay_screen(keys: str, columns: int, rows: int = 40) -> str:
    """What the replay screen wrote on a terminal `columns` wide (40 rows) while `keys` were typed, escape sequences
    removed: every frame drawn, one after the other."""
    import io
    import re

    from prompt_toolkit.data_structures import Size
    from prompt_toolkit.output.vt100 import Vt100_Output

    buffer = io.StringIO()
    with create_pipe_input() as pipe:
        pipe.send_text(keys + "q")
        run_replay(Replay.of(RECORD), input=pipe, output=Vt100_Output(buffer, lambda: Size(rows=rows, columns=columns)))
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", buffer.getvalue())


def test_the_replay_panel_is_wrapped_to_its_own_columns_and_f2_shows_it_on_a_narrow_terminal():
    """The replay wrapped its panel to 60 columns whatever the terminal: beside the 66-column board of a 100-column
    terminal the panel has 32, and prompt_toolkit broke its lines again, within words ("ouvr" / "e son"); on 80
    columns the board left it 13. It now wraps to the columns it has, and a narrow terminal shows the board or, with
    F2, the panel, as a game does."""
    from dungeon_twister.client.replay import panel_width

    assert (panel_width(100), panel_width(120), panel_width(80)) == (32, 52, 79)
    wide = _replay_screen("", 120)
    assert "Action 0 of 2 (the start)" in wide and "F2" not in wide
    narrow = _replay_screen("", 80)
    assert "F2 board/panel" in narrow and "Action 0 of 2" not in narrow, "the board alone"
    assert "Action 0 of 2 (the start)" in _replay_screen("\x1bOQ", 80), "F2: the panel"


def test_on_a_terminal_shorter_than_the_board_the_arrow_keys_scroll_the_replays_board():
    """Play-test pt29 F17: on 80 x 24 the replay showed the board's ranks 21 to 12 and no key showed the rest,
    Blue's half of the board (PgUp/PgDn step through the actions there). Down and Up scroll it; the title says so."""
    down, up = "\x1b[B", "\x1b[A"
    still = _replay_screen("", 80, rows=24)
    assert "Yellow start zone (rank 21)" in still and "Blue start zone (rank 0)" not in still
    assert "↑/↓ board" in still
    scrolled = _replay_screen(down * 20, 80, rows=24)
    assert "Blue start zone (rank 0)" in scrolled
    assert _replay_screen(up * 5, 80, rows=24).count("Blue start zone") == 0, "no further up than the top"
    assert "↑/↓" not in _replay_screen("", 120, rows=60), "a board that fits does not scroll"


def _card_record() -> tuple[str, object]:
    """A tutorial-2 card game the greedy bots play to the end, as a record (the start line, then one line an
    action), and its last state."""
    from dungeon_twister.engine.cards import CardOptions, apply, new_game, parse_action, view
    from dungeon_twister.engine.cards.records import game_header
    from dungeon_twister.engine.cards.typed import legal_texts
    from dungeon_twister.engine.core.rng import Rng
    from dungeon_twister.engine.tools.card_bots import GreedyBot

    options, rng, bot = CardOptions(2), Rng(1), GreedyBot()
    state = new_game(options, 1)
    lines = [game_header(1, options)]
    while state.outcome is None and len(lines) < 3000:
        seat = state.to_act[0]
        text = bot.choose(view(state, seat), legal_texts(state, seat), rng)
        state = apply(state, parse_action(text, seat))[0]
        lines.append(f"{seat}: {text}")
    return "\n".join(lines) + "\n", state


def test_a_card_game_record_replays_on_the_card_drawing_with_everything_shown_at_the_end():
    """`game cards ...` records are the card game's: the replay steps through them with the card game's words
    and drawing; the game being over, the start characters Blue hid show as soon as they lie face down."""
    text, last = _card_record()
    replay = Replay.of(text)
    assert replay.family.name == "cards" and replay.viewer == "*"
    replay.go(1)
    assert replay.panel()[2].startswith("B: hide ") and replay.panel()[3].startswith("  You hid ")
    replay.go(1)  # both have hidden theirs: they lie face down on the start zones
    hidden = [f for f in replay.view()["figures"] if f.get("seat") == "B" and f["where"] == "start"]
    assert len(hidden) == 2  # a spectator would see a count; the replay of a finished game sees who
    replay.go_to(len(replay.steps))
    vp, winner = dict(last.outcome.vp), last.outcome.winner
    loser = "Y" if winner == "B" else "B"
    # the winner's VP first, as the game's panel says it, and said once: a play-test read "1-0" in the game, "0-1"
    # in the replay, and the end twice (the game_over event's line and the panel's)
    assert vp[winner] > vp[loser]
    panel = replay.panel()
    assert f"Game over: {'Blue' if winner == 'B' else 'Yellow'} wins {vp[winner]}-{vp[loser]} (target reached)" in panel
    assert sum("game over" in line.lower() for line in panel) == 1
    with create_pipe_input() as pipe:
        pipe.send_text("\x1b[H")  # Home: the start
        pipe.send_text("\x1b[C\x1b[Cq")
        run_replay(replay, input=pipe, output=DummyOutput())
    assert replay.index == 2


def test_verify_from_a_server_says_what_its_connection_did_to_the_pins(monkeypatch, tmp_path, capsys):
    """Play-test 21: `dt-client verify TABLE --server` pinned the server's certificate on first use without a
    word (`connect` says it), so a user who ran `verify` first had pinned whatever answered, unseen. What the TLS
    connector tells goes to stderr."""
    from dungeon_twister.client import replay as replay_module
    from dungeon_twister.client import tls

    told = []

    def connector(known, notice):
        told.append(notice)

        async def connect(host, port):
            notice(f"TLS: pinned {host}:{port} as SHA256:ab12 on first use (compare with what dt-server printed)")
        return connect

    async def fetch(connect, host, port, table, code=None):
        await connect(host, port)
        return RECORD

    monkeypatch.setenv("DT_CLIENT_STATE_DIR", str(tmp_path))
    monkeypatch.setattr(tls, "tls_connector", connector)
    monkeypatch.setattr(replay_module, "fetch_record", fetch)
    assert main(["verify", "t1-ab", "--server", "dt.example.org:7777"]) == 0
    err = capsys.readouterr().err
    assert told and "dt-client: TLS: pinned dt.example.org:7777 as SHA256:ab12 on first use" in err


def test_a_finished_games_replay_names_the_rooms_that_stayed_face_down():
    """Play-test 21: the end of a finished game's replay says everything is shown, and showed the hidden tokens,
    but the rooms never revealed stayed "A4 face down" though the record knows them. A view that shows everything
    (the engine's GOD view, as the replay of a finished game is) names each face-down room's card under its label;
    a spectator's view of an unfinished game does not."""
    from dungeon_twister.client.board import board_text

    over = Replay.of(RECORD + "# result winner=Y vp=B0,Y0 reason=resigned\n")
    over.go_to(2)
    view = over.view()
    down = [room for room in view["rooms"] if not room["revealed"]]
    assert len(down) == 8 and all(room["tile"] is not None for room in down)
    text = board_text(view)
    for room in down:
        assert f"{room['slot']} face down" in text and f"room {room['tile']}" in text
    unfinished = Replay.of(RECORD)
    unfinished.go_to(2)
    assert "room " not in board_text(unfinished.view()).replace("face down", "")


def test_a_finished_card_games_replay_names_its_face_down_rooms_too():
    """Play-test 21b: the board game's finished replay named the rooms that stayed face down, the Card Game's did
    not (its view hid a face-down room's card from everyone). The view of everything names each room's card, and
    the drawing writes it in the face-down room; a seat's or a spectator's view still does not (CG-REVEAL-05)."""
    from dungeon_twister.client.cards_board import render_cards_board
    from dungeon_twister.engine.cards import view

    text, _last = _card_record()
    replay = Replay.of(text)
    replay.go_to(1)  # the game being over, every step is seen as everything (its start: all rooms face down)
    assert replay.viewer == "*"
    down = [room for room in replay.view()["rooms"] if not room["revealed"]]
    assert len(down) == len(replay.view()["rooms"]) >= 4
    drawn = "".join(t for line in render_cards_board(replay.view(), {}) for _s, t in line)
    from dungeon_twister.client.names import room_card_name

    for room in down:  # (by its colour in words, "green 2" for green2: a play-test read the ids in every language)
        name = room_card_name(room["card"])
        assert name != room["card"] and (f"│ {name} " in drawn or f"▒ {name} " in drawn)
    for viewer in ("B", "Y", None):
        assert all("card" not in room for room in view(replay.states[1], viewer)["rooms"])


TIMED_OUT = """game seed=573724080006607 vp=5
B: team b0=WA d0=TR g0=GB i0=TH
Y: team b21=WA d21=TR g21=GB i21=TH
Y: hide yAR A1
B: hide bAR A1
Y: hide yCL A2
B: hide bCL A2
Y: hide yFW A2
B: hide bFW B1
Y: hide yMK B1
B: hide bMK B2
Y: hide yRP B2
B: hide bRP B2
Y: hide ySP A3
B: hide bSP A3
Y: hide ySW A3
B: hide bSW B3
Y: hide yTS B3
B: hide bTS B3
Y: hide yWW A4
B: hide bWW A4
Y: hide yWZ B4
B: hide bWZ B4
Y: card 2
Y: reveal yWA A4
Y: place yWW b16
Y: place bWW c16
Y: reveal yTR B4
Y: place yWZ f16
Y: place bWZ g16
Y: end
B: card 2
B: reveal bWA A1
B: place yAR a1
Y: pass
# timeout Y pass
B: place bAR b1
B: reveal bTH B1
B: place yMK f1
Y: place bFW g1
B: end
Y: card 3
Y: move yWA b20
Y: move yWA a18
Y: move yWA b17
Y: end
B: card 4
B: move bWA a2
B: move bWA a4
B: attack bWZ yWZ
# timeout Y combat-1 combat +0
B: combat +3
Y: combat +0
"""
"""Play-test pt24's first game on a timed table up to its first combat (the server's record, its commit-reveal and
deal lines left out): Yellow let his 5 seconds to place the revealed objects pass (`# timeout Y pass`, after the
line played for him) and his 5 seconds for the combat card (`# timeout Y combat-1 combat +0`, before the line of
the round, applied once both cards are known)."""


def test_BG_OPT_04_an_action_the_clock_played_is_marked_in_the_replay():
    """BG-OPT-04: the replay showed `Y: combat +0` and `Y: pass`, which the server played for Yellow when his time
    ran out, as if he had chosen them (play-test pt24 F12). They are marked; the edges: Blue's card of the same
    combat, chosen, and the lines around the pass are not."""
    replay = Replay.of(TIMED_OUT)
    marked = [index for index, step in enumerate(replay.steps, 1) if step.timed_out]
    assert [replay.steps[index - 1].line for index in marked] == ["Y: pass", "Y: combat +0"]
    replay.go_to(marked[1])
    assert replay.panel()[2] == "Y: combat +0 (time ran out)"
    replay.go(-1)
    assert replay.panel()[2] == "B: combat +3"
    replay.go_to(marked[0])
    assert replay.panel()[2] == "Y: pass (time ran out)"
    replay.go(1)
    assert replay.panel()[2] == "B: place bAR b1"
    untimed = Replay.of("\n".join(line for line in TIMED_OUT.splitlines() if not line.startswith("#")))
    assert not any(step.timed_out for step in untimed.steps)


def test_DT_091_a_bots_choice_made_again_after_a_restart_is_marked_in_the_replay():
    """DT-091: a restored bot cannot open the choice its predecessor committed to, so the server makes it again and
    its record says so (`# restart SEAT PURPOSE CHOICE`, server/play.py `force`, before the round's line, as a
    timeout's). The replay showed it as the bot's own choice; it is marked. The edges: the `# timeout Y pass` of
    the same record is still the clock's, and Blue's card of that combat is unmarked."""
    text = TIMED_OUT.replace("# timeout Y combat-1 combat +0", "# restart Y combat-1 combat +0")
    replay = Replay.of(text)
    remade = [index for index, step in enumerate(replay.steps, 1) if step.remade]
    assert [replay.steps[index - 1].line for index in remade] == ["Y: combat +0"]
    assert not replay.steps[remade[0] - 1].timed_out
    replay.go_to(remade[0])
    assert replay.panel()[2] == "Y: combat +0 (made again after the server's restart)"
    replay.go(-1)
    assert replay.panel()[2] == "B: combat +3"
    assert [step.line for step in replay.steps if step.timed_out] == ["Y: pass"]


def _committed_record(blue: str = "team b0=TH d0=WA g0=TR i0=GB", yellow: str = "team b21=TH d21=WA g21=TR i21=GB",
                      blue_revealed: str | None = None) -> str:
    """A server's record of two teams chosen in secret (docs/protocol.md section 10): each seat's commitment, its
    reveal, then the lines the server applied (`blue`, `yellow`); `blue_revealed`: what Blue revealed, if not `blue`."""
    from dungeon_twister.protocol.commit import commitment

    table, nonce = "t1-0d67fc3c", bytes(range(32))
    revealed = {"B": blue if blue_revealed is None else blue_revealed, "Y": yellow}
    lines = ["game seed=7", f"# table {table}"]
    lines += [f"# commit {seat} team {commitment(table, seat, 'team', revealed[seat], nonce).hex()}" for seat in "BY"]
    lines += [f"# reveal {seat} team {nonce.hex()} {revealed[seat]}" for seat in "YB"]
    return "\n".join([*lines, f"B: {blue}", f"Y: {yellow}"]) + "\n"


def test_verify_finds_a_secret_choice_applied_other_than_the_one_its_player_revealed(tmp_path, capsys):
    """`dt-client verify` promises every secret choice as committed: it checked that each reveal opens its
    commitment, not that the record applies the choice revealed, so a record whose line `B: team ...` was edited
    (its reveal left as it was) passed (audit rp33). The edges: a choice revealed in another order than the line's
    canonical text is the same choice; a choice the clock laid (`# timeout`) needs no reveal; a record with no
    `# table` line (hand-made) carries no commitments to check."""
    assert Replay.of(_committed_record()).rounds == (2, [])
    reordered = _committed_record(blue_revealed="team i0=GB g0=TR d0=WA b0=TH")
    assert Replay.of(reordered).rounds == (2, []), "the same team, written in another order"
    edited = _committed_record(blue="team b0=WA d0=TH g0=TR i0=GB", blue_revealed="team b0=TH d0=WA g0=TR i0=GB")
    assert Replay.of(edited).rounds == (2, ["line 7 (B: team b0=WA d0=TH g0=TR i0=GB) is not the choice Blue "
                                            "revealed for team"])
    path = tmp_path / "edited.txt"
    path.write_text(edited)
    assert main(["verify", str(path)]) == 1
    assert "NOT VERIFIED: line 7 (B: team b0=WA d0=TH g0=TR i0=GB) is not the choice Blue revealed for team" in \
        capsys.readouterr().out
    unrevealed = "".join(line for line in _committed_record().splitlines(keepends=True)
                         if not line.startswith(("# commit B", "# reveal B")))
    assert Replay.of(unrevealed).rounds == (1, ["line 5 (B: team b0=TH d0=WA g0=TR i0=GB) is a secret choice for "
                                                "team that no reveal accounts for"])
    timed_out = unrevealed.replace("B: team", "# timeout B team team b0=TH d0=WA g0=TR i0=GB\nB: team")
    assert Replay.of(timed_out).rounds == (1, []), "laid by the clock, said by its comment"
    hand_made = "".join(line for line in edited.splitlines(keepends=True) if not line.startswith("# table"))
    assert Replay.of(hand_made).rounds == (0, [])


def test_a_file_that_is_no_record_at_all_is_said_so_without_a_traceback(tmp_path, monkeypatch, capsys):
    """A binary file was a UnicodeDecodeError's traceback; a 300 MB file was read whole (a larger one would fill
    the memory); a 50 MB line was echoed whole in the error (audit rp33). Each is one line saying why."""
    from dungeon_twister.client import replay as replay_module

    binary = tmp_path / "game.bin"
    binary.write_bytes("game seed=1\nB: team é".encode() + b"\xff\x00\n")
    assert main(["verify", str(binary)]) == 1
    assert capsys.readouterr().err == (f"dt-client: {binary} is not a game record: it is not text (UTF-8): byte "
                                       "0xff at line 2, column 10\n")
    monkeypatch.setattr(replay_module, "RECORD_FILE_LIMIT", len(RECORD))
    small = tmp_path / "game.txt"
    small.write_text(RECORD)
    assert main(["verify", str(small)]) == 0, "a record of the limit's size is read"
    capsys.readouterr()
    small.write_text(RECORD + "\n")
    assert main(["replay", str(small)]) == 1
    assert "is not a game record: it is larger than any game record (0 MB at most)" in capsys.readouterr().err
    monkeypatch.undo()
    small.write_text("game seed=1 " + "x" * 50_000 + "\n")
    assert main(["verify", str(small)]) == 1
    err = capsys.readouterr().err
    assert "line 1: unknown game option 'xxx" in err and len(err) < 600 and err.endswith("…\n")


def test_replay_without_a_terminal_says_so_without_a_traceback(tmp_path, monkeypatch, capsys):
    """`dt-client replay FILE < /dev/null`: prompt_toolkit's EOFError was a traceback (audit rp33)."""
    from dungeon_twister.client import replay as replay_module

    def no_terminal(replay, **kw):
        raise EOFError

    path = tmp_path / "game.txt"
    path.write_text(RECORD)
    monkeypatch.setattr(replay_module, "run_replay", no_terminal)
    assert main(["replay", str(path)]) == 1
    assert "the replay's screen needs a terminal to read its keys from" in capsys.readouterr().err


def test_the_replay_panel_says_each_seats_vp_and_cards_and_their_hands_once_the_game_is_over():
    """The replay's panel said the VP at the end only, and no hand at all, though a finished game's replay promises
    everything that was hidden (README, Replays; audit rp33): each seat's VP and cards are said at each step, as
    the game's panel says them, the hands themselves once the game is over (the board game's and the card game's:
    the engine's view of everything now lists the card game's hands). The edge: an unfinished game's replay says
    how many cards each holds, as a spectator saw, not which."""
    unfinished = Replay.of(RECORD)
    unfinished.go_to(2)
    panel = unfinished.panel()
    assert "Blue  0 VP · action: 4 in hand · combat: 9 cards · jumps: 3 · 10 tokens behind the screen" in panel
    assert "Yellow  0 VP · action: 4 in hand · combat: 9 cards · jumps: 3 · 10 tokens behind the screen" in panel
    over = Replay.of(RECORD + "# result winner=Y vp=B0,Y0 reason=resigned\n")
    over.go_to(2)
    hand = "action: 2 3 4 5 · combat: +0 +1 +2 +2 +3 +3 +4 +5 +6"
    assert f"Blue  0 VP · {hand} · jumps: 3 · 10 tokens behind the screen" in over.panel(), \
        "the hand itself, the game being over"

    text, last = _card_record()
    replay = Replay.of(text)
    held = next(index for index, state in enumerate(replay.states) if state.player("Y").cards)
    replay.go_to(held)
    hand = " ".join(f"+{value}" for value in replay.states[held].player("Y").cards)
    assert any(line.startswith("Yellow ") and line.endswith(f" · combat cards: {hand}") for line in replay.panel())
    cut = Replay.of("".join(text.splitlines(keepends=True)[:held + 1]))  # the same game, not over there
    cut.go_to(held)
    count = len(replay.states[held].player("Y").cards)
    assert cut.viewer is None
    assert any(line.startswith("Yellow ") and line.endswith(f" · combat cards: {count} in hand")
               for line in cut.panel())


def test_on_a_60_column_terminal_the_replays_title_keeps_its_keys_whole():
    """60 x 20 cut the title's last hint to "↑/↓ boar" (audit rp33): where the whole title does not fit, it leaves
    the game's name out and keeps the keys. The edge: 80 columns keep the name."""
    narrow = _replay_screen("", 60, rows=20)
    assert " replay · F2 board/panel · ↑/↓ board" in narrow and "Dungeon Twister Online" not in narrow
    assert "Dungeon Twister Online · replay · F2 board/panel · ↑/↓ board" in _replay_screen("", 80, rows=24)


def test_verify_of_a_record_whose_commitment_is_no_hexadecimal_says_not_verified_without_a_traceback(tmp_path,
                                                                                                      capsys):
    """Review rv33: a record's `# commit B team zz` (damaged, or made to break the checker) was a ValueError's
    traceback out of `dt-client verify` and `replay` (bytes.fromhex), where rp33 made every other hostile record a
    line. The commitment no reveal can open: Blue's reveal is not verified, and verify exits 1. Its edge: a valid
    commitment is still checked (Yellow's reveal opens it)."""
    broken = "\n".join("# commit B team zz" if line.startswith("# commit B") else line
                       for line in _committed_record().splitlines()) + "\n"
    assert Replay.of(broken).rounds == (1, ["B team"])
    path = tmp_path / "broken.txt"
    path.write_text(broken)
    assert main(["verify", str(path)]) == 1
    captured = capsys.readouterr()
    assert "NOT VERIFIED: B team" in captured.out and "Traceback" not in captured.err
    # a dealt game's record (`# deal-commitment`, docs/protocol.md section 16): its `# commit B deal` and its
    # `# reveal B deal` nonce read alike, the deal NOT VERIFIED
    mixed = ("game seed=7\n# table t1-0d67fc3c\n# deal-commitment aa\n# deal-nonce bb\n# deal-server-seed 5\n{extra}"
             "B: team b0=TH d0=WA g0=TR i0=GB\nY: team b21=TH d21=WA g21=TR i21=GB\n")
    for extra in ("# commit B deal zz\n", "# commit B deal aa\n# reveal B deal zz 5\n"):
        assert Replay.of(mixed.format(extra=extra)).deal is False, extra
