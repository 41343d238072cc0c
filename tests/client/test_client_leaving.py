"""Leaving: resigning a running game takes a confirmation; SIGTERM and SIGHUP end the client the normal way
(the terminal restored, the seat kept for the next run); `dt-client connect` resumes a kept seat; `reconnect`."""

from __future__ import annotations

import asyncio
import io
import os
import signal
from dataclasses import replace

import pytest
import trio
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from prompt_toolkit.output.vt100 import Vt100_Output

from dungeon_twister.protocol import GameOver, Leave
from dungeon_twister.client import app
from dungeon_twister.client.held import STATE_DIR_VARIABLE, HeldSeat, SeatFile
from dungeon_twister.client.session import Session
from dungeon_twister.client.state import ClientState
from dungeon_twister.client.ui import ClientUI

from test_client_prompt import ENTER, TABLE, WiredSession, run, until
from tests.engine.builders import position_text

MAIN_PHASE = position_text("bWA@c4 yTR@c6")
RESTORED = "\x1b[?25h\x1b[?1049l\x1b[?2004l"


def test_leaving_a_running_game_asks_first_and_resigns_on_the_second_leave():
    wired = WiredSession()
    wired.seat(MAIN_PHASE)
    with create_pipe_input() as pipe:
        ui = ClientUI(wired.session, input=pipe, output=DummyOutput())
        state = wired.session.state

        async def script() -> None:
            pipe.send_text("leave" + ENTER)
            await until(lambda: state.confirm == "leave")
            assert "resigns it" in state.notice and wired.sent() == [], "nothing sent yet"
            pipe.send_text("look c4" + ENTER + "leave" + ENTER)
            await until(lambda: state.notice.startswith("leaving") and state.confirm == "leave")
            assert wired.sent() == [], "another command in between cancels the confirmation"
            pipe.send_text("leave" + ENTER)
            await until(lambda: wired.frames)

        run(ui, script)
    assert wired.sent() == [Leave()]
    # a play-test: the resigner went to the lobby with "left table t1-...", no word of the result
    from dungeon_twister.protocol import Left, TableEvent

    # the server's end of the game comes first (the game_over event and the last view, with table.result), then
    # `left` (seen by hand: the view's result made the resignation a game that had ended)
    result = {"winner": "Y", "vp": {"B": 0, "Y": 0}, "reason": "resigned"}
    wired.deliver(TableEvent(TABLE, 1, {"kind": "game_over", **result}))
    wired.deliver(TableEvent(TABLE, 2, {"kind": "view", "view": {**state.view, "table": {"id": TABLE,
                                                                                         "result": result}}}))
    wired.deliver(Left(TABLE))
    # (no "`ratings` shows the ratings": a play-test resigned a card game, which is never rated)
    assert state.notice == "you resigned at table t-1, Yellow wins · `leave` goes back to the lobby"


@pytest.mark.parametrize("command", ["leave", "resign"])
def test_no_or_yes_to_a_leave_or_resign_asked_again_is_answered_as_such(command):
    """Play-test pt29 F25: `leave` in a running game asks "type `leave` again to resign, anything else to play
    on"; the natural `no` was told "yes / no: nobody asks you anything now", just after the question. `no` now
    says the player stays. `yes` was then told "to do so, type `resign` again" (play-test pl31 item 11): it now
    does what the second `leave` / `resign` does, and only just after the question."""
    async def asked_again(pipe, state, wired) -> None:
        pipe.send_text(command + ENTER)
        await until(lambda: state.confirm == command)
        pipe.send_text("no" + ENTER)
        await until(lambda: state.confirm is None and state.notice == "you stay in the game")
        pipe.send_text(command + ENTER + "look c4" + ENTER + "yes" + ENTER)
        await until(lambda: state.notice == "yes / no: nobody asks you anything now")
        assert wired.sent() == [] and state.confirm is None, "a line in between ends the question"
        pipe.send_text(command + ENTER + "yes" + ENTER)
        await until(lambda: wired.frames)

    assert in_a_game(asked_again).sent() == [Leave()]

    async def unasked(pipe, state, wired) -> None:
        pipe.send_text("no" + ENTER)
        await until(lambda: state.notice == "yes / no: nobody asks you anything now")

    in_a_game(unasked)


def in_a_game(script) -> WiredSession:
    """A client seated in the main phase, its UI run while `script(pipe, state, wired)` types into it; the wired
    session afterwards."""
    wired = WiredSession()
    wired.seat(MAIN_PHASE)
    with create_pipe_input() as pipe:
        ui = ClientUI(wired.session, input=pipe, output=DummyOutput())
        run(ui, lambda: script(pipe, wired.session.state, wired))
    return wired


@pytest.mark.parametrize("command", ["leave", "resign"])
def test_a_resigner_is_told_his_new_rating_and_resign_is_a_command(command):
    """Play-test 21: the player who resigned read "left table ...: you resigned, Blue wins" and learnt his new
    rating only by typing `ratings` (the `ratings` event came, with the table's log that the lobby drops); and
    `resign`, which players of other servers type, was no command. `resign` resigns as `leave` does, asked once
    more; the resigner's line says the ratings the server sent before `left`."""
    from dungeon_twister.protocol import Left, TableEvent

    wired = WiredSession()
    wired.seat(MAIN_PHASE)
    ui = ClientUI(wired.session, output=DummyOutput())
    state = wired.session.state
    ui.commands.run(command)
    assert wired.sent() == [] and state.confirm == command and "your opponent wins" in state.notice
    ui.commands.run(command)
    assert wired.sent() == [Leave()]
    result = {"winner": "Y", "vp": {"B": 0, "Y": 0}, "reason": "resigned"}
    wired.deliver(TableEvent(TABLE, 1, {"kind": "game_over", **result}))
    changes = {"B": {"name": "ann", "before": 1500, "after": 1338, "rd": 290},
               "Y": {"name": "bot", "before": 1500, "after": 1662, "rd": 290}}
    wired.deliver(TableEvent(TABLE, 2, {"kind": "view", "view": {**state.view, "table": {"id": TABLE,
                                                                                         "result": result}}}))
    wired.deliver(TableEvent(TABLE, 3, {"kind": "ratings", "changes": changes}))
    wired.deliver(Left(TABLE))
    assert state.notice == ("you resigned at table t-1, Yellow wins · `leave` goes back to the lobby · ratings: "
                            "Blue ann 1500 → 1338 (±290) · Yellow bot 1500 → 1662 (±290)")


@pytest.mark.parametrize("where", ["server", "private", "dt-client play", "before the first turn"])
def test_the_resigner_stays_on_the_finished_games_screen_as_the_player_who_stays_does(where):
    """Play-test pt24 F15: the player who stays reads "to step through this game again: dt-client replay ..." in
    the game's panel at its end; the one who resigned was taken to the lobby and never saw it, nor (pt25 F15) the
    end of a free build's game, whose reveals and deal check come with it, their lines going with the table. He
    stays on the finished game's screen (its panel has the replay line, with the join code of a private table),
    and `leave` takes him to the lobby without asking the server, which has him there already. The edges:
    `dt-client play`, whose server goes with the game, has no replay line; a game left before its first turn
    (aborted, nothing to see) goes to the lobby at once."""
    from dungeon_twister.protocol import ListTables, Left, TableEvent

    from prompt_toolkit.completion import CompleteEvent
    from prompt_toolkit.document import Document

    from dungeon_twister.client.completion import PromptCompleter
    from dungeon_twister.client.panel import game_panel

    wired = WiredSession()
    wired.seat(MAIN_PHASE)
    state = wired.session.state
    state.server = "127.0.0.1:7870"
    state.local = where == "dt-client play"
    if where == "private":
        state.join_code = "k3y"
    ui = ClientUI(wired.session, output=DummyOutput())
    ui.commands.run("resign")
    ui.commands.run("resign")
    assert wired.sent() == [Leave()]
    result = ({"winner": None, "vp": {"B": 0, "Y": 0}, "reason": "aborted"} if where == "before the first turn"
              else {"winner": "Y", "vp": {"B": 0, "Y": 0}, "reason": "resigned"})
    wired.deliver(TableEvent(TABLE, 1, {"kind": "game_over", **result}))
    wired.deliver(TableEvent(TABLE, 2, {"kind": "view", "view": {**state.view, "table": {"id": TABLE,
                                                                                         "result": result}}}))
    wired.deliver(Left(TABLE))
    if where == "before the first turn":
        assert not state.at_table and state.notice.startswith("left table t-1: the game ends without a winner")
        return
    assert state.at_table and state.game_over and state.notice == (
        "you resigned at table t-1, Yellow wins · `leave` goes back to the lobby")
    # Tab offers no `rematch`: it would be refused, "you left that table" (play-test pl33; against a person here)
    offered = {c.text for c in PromptCompleter(state).get_completions(Document(""), CompleteEvent(completion_requested=True))}
    assert "leave" in offered and "rematch" not in offered
    panel = "".join(text for _, text, *rest in game_panel(state, 0.0))
    again = "to step through this game again: dt-client replay t-1 --server 127.0.0.1:7870"
    if where == "server":
        assert again + "\n" in panel
    elif where == "private":
        assert again + " --code k3y" in panel
    else:
        assert "dt-client replay" not in panel
    ui.commands.run("leave")
    assert not state.at_table and wired.sent() == [ListTables()], "no `leave` sent: the server has us in its lobby"


def test_a_game_left_before_its_first_turn_is_said_to_be_aborted_not_lost():
    """Before the first turn (the setup), leaving aborts the game (the server's reason `aborted`: no winner, not
    rated): the confirmation and the line after `left` say so, not "your opponent wins"."""
    from dungeon_twister.protocol import Left, TableEvent

    wired = WiredSession()
    wired.seat(MAIN_PHASE)
    state = wired.session.state
    state.view = {**state.view, "turn": 0, "phase": "team"}
    ui = ClientUI(wired.session, output=DummyOutput())
    ui.commands.run("resign")
    assert state.notice.startswith("resigning now, before the first turn, aborts the game: no winner, not rated")
    ui.commands.run("resign")
    assert wired.sent() == [Leave()]
    result = {"winner": None, "vp": {"B": 0, "Y": 0}, "reason": "aborted"}
    wired.deliver(TableEvent(TABLE, 1, {"kind": "game_over", **result}))  # then the view with the result, as ended
    wired.deliver(TableEvent(TABLE, 2, {"kind": "view", "view": {**state.view, "table": {"id": TABLE,
                                                                                         "result": result}}}))
    wired.deliver(Left(TABLE))
    assert state.notice == ("left table t-1: the game ends without a winner (a player left before the first turn: "
                            "not rated)")
    with pytest.raises(Exception, match="resign: in a game you play"):
        ui.commands.resign("")  # in the lobby now


def test_leaving_a_finished_game_or_one_not_started_needs_no_confirmation():
    wired = WiredSession()
    wired.seat(MAIN_PHASE)
    wired.deliver(GameOver(TABLE, {"winner": "Y", "vp": {"B": 0, "Y": 5}, "reason": "vp"}))
    ui = ClientUI(wired.session, output=DummyOutput())
    ui.commands.run("leave")
    assert wired.sent() == [Leave()]

    waiting = WiredSession()
    waiting.seat(MAIN_PHASE)
    waiting.session.state.view["started"] = False
    ClientUI(waiting.session, output=DummyOutput()).commands.run("leave")
    assert waiting.sent() == [Leave()]


def test_reconnect_while_connected_does_nothing():
    wired = WiredSession()
    ui = ClientUI(wired.session, output=DummyOutput())
    ui.commands.run("reconnect")
    assert wired.session.state.notice == "connected: nothing to do" and wired.sent() == []


@pytest.mark.parametrize("signum", app.QUIT_SIGNALS)
def test_a_termination_signal_restores_the_terminal_and_keeps_the_seat(monkeypatch, tmp_path, signum):
    seat_file = SeatFile("127.0.0.1:1", "ann", tmp_path)
    seat_file.save(HeldSeat(TABLE, "B", "token-B", 60))
    previous = signal.signal(signum, lambda *args: pytest.fail("the client did not handle the signal"))

    async def quiet_network(session, host, port) -> None:
        await trio.sleep_forever()

    monkeypatch.setattr("dungeon_twister.client.network.run_network", quiet_network)
    terminal = io.StringIO()
    try:
        with create_pipe_input() as pipe:
            session = Session(ClientState("ann"), seat_file=seat_file)
            ui = ClientUI(session, input=pipe, output=Vt100_Output(terminal, lambda: Size(rows=40, columns=120)))

            async def main() -> None:
                running = asyncio.ensure_future(app._run(ui, session, "127.0.0.1", 1))
                await until(lambda: ui.app.render_counter > 0)
                os.kill(os.getpid(), signum)
                await asyncio.wait_for(running, 5)

            asyncio.run(main())
        assert signal.getsignal(signum) == signal.SIG_DFL, "the handler is removed afterwards"
    finally:
        signal.signal(signum, previous)
    assert terminal.getvalue().endswith(RESTORED), "cursor shown, alternate screen left, bracketed paste off"
    assert session.stopped and seat_file.load().token == "token-B", "the seat stays kept for the next run"


def test_connect_resumes_the_seat_kept_for_this_server_and_name(monkeypatch, tmp_path):
    monkeypatch.setenv(STATE_DIR_VARIABLE, str(tmp_path))
    SeatFile("127.0.0.1:7777", "alice").save(HeldSeat(TABLE, "Y", "token-Y", 30))
    SeatFile("127.0.0.1:7777", "bob").save(HeldSeat("t-other", "B", "token-bob", 30))
    started = []
    monkeypatch.setattr(app, "run_client", lambda session, host, port, *connect: started.append(session) or 0)

    assert app.main(["connect", "127.0.0.1:7777", "--name", "alice"]) == 0
    [session] = started
    assert (session.state.table, session.state.seat, session.grace) == (TABLE, "Y", 30)
    assert (session.plan.resume.token, session.plan.resume.table) == ("token-Y", TABLE)

    assert app.main(["connect", "127.0.0.1:7778", "--name", "alice"]) == 0
    assert started[1].state.table is None and started[1].plan.resume is None, "another server: the lobby"


def test_DT_224_undo_asks_and_yes_or_no_answers_the_opponents_request():
    """`undo` sends takeback; the opponent's request (takeback_asked) is told with "type yes or no", and `yes` or
    `no` answers it once; with nothing asked, `yes` is a usage error and sends nothing. Ours waits for the answer
    once the server has put it to the opponent; a refused one leaves nothing waiting."""
    from dungeon_twister.protocol import Error, TableEvent, Takeback, TakebackAnswer

    wired = WiredSession()
    wired.seat(MAIN_PHASE)
    ui = ClientUI(wired.session, output=DummyOutput())
    state = wired.session.state
    ui.commands.run("undo")
    assert wired.sent() == [Takeback(TABLE)] and state.question == "", "nothing to wait for until it is asked"
    wired.deliver(Error("not_allowed", "nothing of yours can be taken back: no action yet", "client", False))
    assert state.question == "" and "no action yet" in state.notice, "refused: no 'waiting for the answer' left"
    ui.commands.run("undo")
    wired.sent()
    wired.deliver(TableEvent(TABLE, 1, {"kind": "takeback_asked", "seat": "B", "action": "move bWA c5"}))
    assert state.notice == state.question == "takeback asked: waiting for the answer"
    ui.commands.run("yes")
    assert wired.sent() == [] and "nobody asks you" in state.notice
    wired.deliver(TableEvent(TABLE, 2, {"kind": "takeback_asked", "seat": "Y", "action": "move yTR c7"}))
    assert state.takeback_asked == "Y" and state.notice == "Yellow asks to take back 'move yTR c7': type yes or no"
    assert "Yellow asks to take back 'move yTR c7'" in state.log[-1]
    ui.commands.run("no")
    assert wired.sent() == [TakebackAnswer(TABLE, False)] and state.takeback_asked is None
    wired.deliver(TableEvent(TABLE, 3, {"kind": "takeback_asked", "seat": "Y", "action": "move yTR c7"}))
    ui.commands.run("yes")
    assert wired.sent() == [TakebackAnswer(TABLE, True)]
    wired.deliver(TableEvent(TABLE, 4, {"kind": "taken_back", "seat": "Y", "action": "move yTR c7"}))
    assert state.log[-1] == "Yellow's 'move yTR c7' is taken back"
    assert state.notice == state.log[-1], "the answer's outcome, not the request's 'type yes or no' any more"
    ui.commands.run("undo")
    wired.deliver(TableEvent(TABLE, 5, {"kind": "takeback_declined", "seat": "B", "by": "Y"}))
    assert state.notice == state.log[-1] == "Yellow declines to take back Blue's action", "not 'waiting for the answer'"


def test_DT_224_a_taken_back_action_leaves_the_move_list_after_a_snapshot_too():
    """Play-test: a client restarted in the middle of a turn (it came back with a snapshot), then made a move that
    was taken back at its request and made it again: its list showed the move twice. The snapshot is the view the
    next action starts from, as a view event is."""
    from dungeon_twister.protocol import Snapshot, TableEvent

    wired = WiredSession()
    wired.seat(MAIN_PHASE)
    state = wired.session.state
    view = dict(state.view)
    wired.deliver(Snapshot(TABLE, 4, view))  # back after a crash: no view event since
    moved = {"kind": "moved", "take": None, "leave": [], "token": "bWA", "route": ["c4", "c5"]}
    wired.deliver(TableEvent(TABLE, 5, moved))
    wired.deliver(TableEvent(TABLE, 6, {"kind": "view", "view": view}))
    wired.deliver(TableEvent(TABLE, 7, {"kind": "takeback_asked", "seat": "B", "action": "move bWA c5"}))
    wired.deliver(TableEvent(TABLE, 8, {"kind": "view", "view": view}))
    wired.deliver(TableEvent(TABLE, 9, {"kind": "taken_back", "seat": "B", "action": "move bWA c5"}))
    wired.deliver(TableEvent(TABLE, 10, {"kind": "view", "view": view}))
    assert list(state.moves) == []
    wired.deliver(TableEvent(TABLE, 11, moved))
    assert list(state.moves) == ["bWA c4-c5"]


def test_DT_224_a_taken_back_action_leaves_the_move_list_and_its_shaded_route():
    """The panel's move list showed a taken-back move as played (seen by hand): the entries of the action after
    the last view but one go, and its side's shaded route; an action before it stays."""
    from dungeon_twister.protocol import TableEvent

    wired = WiredSession()
    wired.seat(MAIN_PHASE)
    state = wired.session.state
    view = dict(state.view)
    moved = {"kind": "moved", "take": None, "leave": []}
    wired.deliver(TableEvent(TABLE, 1, {**moved, "token": "bWA", "route": ["c4", "c5"]}))
    wired.deliver(TableEvent(TABLE, 2, {"kind": "view", "view": view}))
    wired.deliver(TableEvent(TABLE, 3, {**moved, "token": "bWA", "route": ["c5", "d5"]}))
    wired.deliver(TableEvent(TABLE, 4, {"kind": "view", "view": view}))
    assert list(state.moves) == ["bWA c4-c5", "bWA c5-d5"] and state.trails["B"] == ["c5", "d5"]
    wired.deliver(TableEvent(TABLE, 5, {"kind": "takeback_asked", "seat": "B", "action": "move bWA d5"}))
    wired.deliver(TableEvent(TABLE, 6, {"kind": "view", "view": view}))  # (its table.asked: published with it)
    wired.deliver(TableEvent(TABLE, 7, {"kind": "taken_back", "seat": "B", "action": "move bWA d5"}))
    wired.deliver(TableEvent(TABLE, 8, {"kind": "view", "view": view}))
    assert list(state.moves) == ["bWA c4-c5"] and "B" not in state.trails
    # what the message bar says of it goes once the game goes on (a spectator, who types nothing, kept "Blue's
    # 'move bSN b2 c2' is taken back" for turns: a play-test); a notice of the player's own stays
    assert state.notice == "Blue's 'move bWA d5' is taken back"
    wired.deliver(TableEvent(TABLE, 9, {"kind": "chat", "text": "oops"}))
    assert state.notice == "Blue's 'move bWA d5' is taken back", "a chat is no move"
    wired.deliver(TableEvent(TABLE, 10, {**moved, "token": "bWA", "route": ["c5", "c6"]}))
    assert state.notice == ""
    state.say("a notice of our own")
    wired.deliver(TableEvent(TABLE, 11, {**moved, "token": "bWA", "route": ["c6", "c7"]}))
    assert state.notice == "a notice of our own"


@pytest.mark.parametrize(("typed", "accept"), [("ja", True), ("Nein", False), ("oui", True), ("non", False),
                                               ("sí", True), ("si", True), ("sì", True)])
def test_DT_224_yes_and_no_are_answered_in_the_players_language_too(typed, accept):
    """A German play-tester asked to take a move back typed `nein`: "'nein' is no command". The answers in the
    client's other languages answer as `yes` and `no` do; with nothing asked they say so, as `yes` does."""
    from dungeon_twister.protocol import TableEvent, TakebackAnswer

    wired = WiredSession()
    wired.seat(MAIN_PHASE)
    ui = ClientUI(wired.session, output=DummyOutput())
    ui.commands.run(typed)
    assert wired.sent() == [] and "nobody asks you" in wired.session.state.notice
    wired.deliver(TableEvent(TABLE, 1, {"kind": "takeback_asked", "seat": "Y", "action": "move yTR c7"}))
    ui.commands.run(typed)
    assert wired.sent() == [TakebackAnswer(TABLE, accept)] and wired.session.state.takeback_asked is None


def test_an_idle_warning_is_said_to_its_player_in_the_bar_and_leaves_the_game_as_it_was():
    """srv30: the server's `idle_warning {seat, seconds}` (docs/protocol.md section 13) before a game is lost for
    idling: its player reads it in the message bar and the log, in minutes, as his own ("you"); the opponent in
    the log, naming the seat. It changes nothing of the game: a draw offer pending stays pending."""
    from dungeon_twister.protocol import TableEvent

    wired = WiredSession()
    wired.seat(MAIN_PHASE)
    state = wired.session.state
    ours, theirs = state.seat, "Y" if state.seat == "B" else "B"
    wired.deliver(TableEvent(TABLE, 1, {"kind": "draw_offered", "seat": theirs}))
    wired.deliver(TableEvent(TABLE, 2, {"kind": "idle_warning", "seat": ours, "seconds": 300}))
    warned = ("you have played nothing for a long while: play within 5 min, or you lose the game (this server's "
              "limit at a table without timers)")
    assert state.log[-1] == warned and state.notice == warned
    assert state.draw_offered == theirs, "the game waits on as it was: the offer stands"
    wired.deliver(TableEvent(TABLE, 3, {"kind": "idle_warning", "seat": theirs, "seconds": 60}))
    name = "Yellow" if theirs == "Y" else "Blue"
    assert state.log[-1] == (f"{name} has played nothing for a long while: {name} loses the game without a move "
                             "within 1 min (this server's limit at a table without timers)")
    assert state.notice == warned, "the opponent's warning goes to the log only"


def test_a_seat_kept_at_a_new_table_after_an_aborted_game_is_said_there():
    """srv30: the opponent left before the first turn; the server ends the game aborted, then moves us: `left` for
    that table, `joined` at a new one that waits (its snapshot), and `seat_kept {seat, from}`. The client follows
    (at the new table, in the same seat) and says why in the message bar and the log."""
    from dungeon_twister.protocol import Joined, Left, Snapshot, TableEvent

    from test_client_prompt import seat_view

    wired = WiredSession()
    wired.seat(MAIN_PHASE, "Y")
    state = wired.session.state
    wired.deliver(TableEvent(TABLE, 1, {"kind": "game_over", "winner": None, "vp": {"B": 0, "Y": 0},
                                        "reason": "aborted"}))
    wired.deliver(GameOver(TABLE, {"winner": None, "vp": {"B": 0, "Y": 0}, "reason": "aborted"}))
    wired.deliver(Left(TABLE))
    wired.deliver(Joined("t-2", "token-2", "Y"))
    wired.deliver(Snapshot("t-2", 0, seat_view(MAIN_PHASE, "Y", seats={"B": None, "Y": "ann"},
                                               table={"id": "t-2"}) | {"started": False}))
    wired.deliver(TableEvent("t-2", 1, {"kind": "seat_kept", "seat": "Y", "from": TABLE}))
    said = (f"Yellow keeps a seat: the other player left table {TABLE} before the first turn, whose game ends "
            "aborted (not rated); this new table waits for an opponent")
    assert (state.table, state.seat, state.at_table) == ("t-2", "Y", True)
    assert state.notice == said and state.log[-1] == said
    assert wired.session.token == "token-2"


def test_a_seat_kept_at_a_new_table_shows_the_aborted_games_last_lines_there():
    """The client's log goes with its table, and a player moved to a kept seat lost the aborted game's last lines
    (who left, the game's end: play-test pt31). They show at the new table, under a line naming the table left,
    above the line that says why he is there; the edge: the last LEFT_LINES of them, and only for the table
    `seat_kept` names."""
    from dungeon_twister.client.state import LEFT_LINES
    from dungeon_twister.protocol import Joined, Left, Snapshot, TableEvent

    from test_client_prompt import seat_view

    def moved(origin: str) -> list:
        wired = WiredSession()
        wired.seat(MAIN_PHASE, "Y")
        state = wired.session.state
        state.log.extend(f"old line {n}" for n in range(12))
        wired.deliver(TableEvent(TABLE, 1, {"kind": "player_left", "seat": "B"}))
        wired.deliver(TableEvent(TABLE, 2, {"kind": "game_over", "winner": None, "vp": {"B": 0, "Y": 0},
                                            "reason": "aborted"}))
        wired.deliver(Left(TABLE))
        wired.deliver(Joined("t-2", "token-2", "Y"))
        wired.deliver(Snapshot("t-2", 0, seat_view(MAIN_PHASE, "Y", seats={"B": None, "Y": "ann"},
                                                   table={"id": "t-2"}) | {"started": False}))
        wired.deliver(TableEvent("t-2", 1, {"kind": "seat_kept", "seat": "Y", "from": origin}))
        return [str(line) for line in state.log]

    log = moved(TABLE)
    assert log[-1].startswith("Yellow keeps a seat: the other player left table")
    kept = log[-2 - LEFT_LINES:-1]
    assert kept[0] == f"the last lines at table {TABLE}:"
    assert kept[1:LEFT_LINES - 1] == [f"old line {n}" for n in range(6, 12)]
    assert kept[-2] == "Blue leaves the table" and kept[-1].startswith("game over")
    assert not any(line.startswith("old line") for line in moved("t-9")), "another table's seat_kept"


def test_DT_228_draw_offers_and_yes_or_no_answers_the_opponents_offer():
    """`draw` sends draw_offer and waits; the opponent's offer (draw_offered) is told with "type yes or no", and
    `yes` or `no` answers it; a refused offer leaves nothing waiting; `draw` while he offers accepts (sent as draw_offer, which the server reads so). With a
    takeback asked too, `yes` answers what came last. A declined offer says so in place of "waiting"; an action
    drops a pending offer; the game's end by agreement reads as a draw."""
    from dungeon_twister.protocol import DrawAnswer, DrawOffer, Error, TableEvent, TakebackAnswer

    wired = WiredSession()
    wired.seat(MAIN_PHASE)
    ui = ClientUI(wired.session, output=DummyOutput())
    state = wired.session.state
    ui.commands.run("draw")
    assert wired.sent() == [DrawOffer(TABLE)]
    wired.deliver(TableEvent(TABLE, 1, {"kind": "draw_offered", "seat": "B"}))
    assert state.draw_offered is None and state.log[-1] == "Blue offers a draw", "our own offer asks us nothing"
    assert state.notice == state.question == "draw offered: waiting for the answer"
    wired.deliver(TableEvent(TABLE, 2, {"kind": "draw_declined", "seat": "B", "by": "Y"}))
    assert state.notice == state.log[-1] == "Yellow declines Blue's draw offer" and state.question == ""
    ui.commands.run("no")
    assert wired.sent() == [] and state.notice == "yes / no: nobody asks you anything now"
    ui.commands.run("draw")
    assert wired.sent() == [DrawOffer(TABLE)]
    wired.deliver(Error("not_allowed", "your draw offer was declined: offer again after the next action", "client",
                        False))
    assert state.question == "" and "offer again after the next action" in state.notice

    wired.deliver(TableEvent(TABLE, 3, {"kind": "draw_offered", "seat": "Y"}))
    assert state.draw_offered == "Y" and state.notice == "Yellow offers a draw: type yes or no"
    wired.deliver(TableEvent(TABLE, 4, {"kind": "timeout", "seat": "B", "purpose": "combat-1",
                                        "actions": ["combat +0"]}))
    assert state.draw_offered == "Y", "a card laid for a late seat changes nothing yet: the server keeps the offer"
    wired.deliver(TableEvent(TABLE, 5, {"kind": "moved", "token": "yTR", "route": ["c6", "c7"], "take": None,
                                        "leave": []}))
    assert state.draw_offered is None and state.question == "", "the game moved on: the offer lapsed"
    # a server that says so (request_lapsed, before the change's events): the same line, once
    wired.deliver(TableEvent(TABLE, 6, {"kind": "draw_offered", "seat": "Y"}))
    wired.deliver(TableEvent(TABLE, 7, {"kind": "request_lapsed", "seat": "Y", "request": "draw"}))
    assert state.draw_offered is None and state.log[-1] == "Yellow's draw offer lapsed unanswered: the game went on"
    lapses = [str(line) for line in state.log].count("Yellow's draw offer lapsed unanswered: the game went on")
    wired.deliver(TableEvent(TABLE, 8, {"kind": "moved", "token": "yTR", "route": ["c7", "c8"], "take": None,
                                         "leave": []}))
    assert [str(line) for line in state.log].count("Yellow's draw offer lapsed unanswered: the game went on") == \
        lapses == 2, "the lapse of event 5, then this one, not again with the change"

    wired.deliver(TableEvent(TABLE, 9, {"kind": "draw_offered", "seat": "Y"}))
    wired.deliver(TableEvent(TABLE, 10, {"kind": "takeback_asked", "seat": "Y", "action": "move yTR c7"}))
    assert state.draw_offered == "Y" and state.takeback_asked == "Y", "a takeback asked leaves the offer pending"
    ui.commands.run("no")
    assert wired.sent() == [TakebackAnswer(TABLE, False)], "the takeback, asked last"
    ui.commands.run("yes")
    assert wired.sent() == [DrawAnswer(TABLE, True)] and state.draw_offered is None

    wired.deliver(TableEvent(TABLE, 11, {"kind": "draw_offered", "seat": "Y"}))
    ui.commands.run("draw")
    assert wired.sent() == [DrawOffer(TABLE)] and state.question == "", "crossed offers: ours accepts, no waiting"
    wired.deliver(TableEvent(TABLE, 12, {"kind": "game_over", "winner": None, "vp": {"B": 1, "Y": 1},
                                        "reason": "agreed"}))
    assert state.log[-1] == "game over: draw 1-1 (agreed by both players)"  # describe.py's game_over line


def test_DT_228_draw_before_the_game_starts_says_why_not():
    """Seated at a table whose opponent has not sat down, `draw` answered with its usage line ("draw: offer a
    draw, in a game you play"), which a play-tester read as saying nothing of his case."""
    wired = WiredSession()
    wired.seat(MAIN_PHASE)
    ui = ClientUI(wired.session, output=DummyOutput())
    state = wired.session.state
    state.view = {**state.view, "started": False}
    ui.commands.run("draw")
    assert wired.sent() == [] and state.notice == "draw: the game has not started: nobody to offer a draw to yet"


def test_DT_228_a_snapshot_with_a_pending_draw_offer_asks_as_its_event_did():
    """A client that comes back with a snapshot learns of the draw offered meanwhile from the view's
    `table.asked` (docs/protocol.md): `yes` then answers it. A snapshot without it clears what was asked (a server
    that restarted has forgotten it)."""
    from dungeon_twister.protocol import DrawAnswer, Snapshot, TableEvent

    wired = WiredSession()
    wired.seat(MAIN_PHASE)
    state = wired.session.state
    view = {**state.view, "table": {**state.view["table"], "asked": [{"kind": "draw_offered", "seat": "Y"}]}}
    wired.deliver(Snapshot(TABLE, 5, view))
    assert state.draw_offered == "Y" and state.question == "Yellow offers a draw: type yes or no"
    ui = ClientUI(wired.session, output=DummyOutput())
    ui.commands.run("yes")
    assert wired.sent() == [DrawAnswer(TABLE, True)]
    wired.deliver(TableEvent(TABLE, 6, {"kind": "draw_offered", "seat": "Y"}))
    wired.deliver(Snapshot(TABLE, 7, state.view | {"table": {"id": TABLE}}))  # e.g. the server restarted
    assert state.draw_offered is None and state.question == "", "nothing pending any more: nothing to answer"


def test_a_verb_typed_alone_lists_its_actions_instead_of_playing_the_only_one():
    """Play-test 20: `reveal` alone, typed to see the choices, revealed the only room it could (the server takes an
    abbreviation that names one legal action as that action), and no takeback undoes a reveal. A verb alone is
    not sent: the bar lists the actions it begins, or says it begins none. A verb that is itself an action
    (`end`), a word that is no verb (an abbreviation) and any longer text are sent as before."""
    from dungeon_twister.protocol import Action

    wired = WiredSession()
    wired.seat(MAIN_PHASE)
    state = wired.session.state
    ui = ClientUI(wired.session, output=DummyOutput())
    state.view = {**state.view, "legal": ["reveal bAS B1", "attack bWA yTR", "attack bWA yWA", "end"]}
    ui.commands.run("reveal")
    assert wired.sent() == []
    assert state.notice == "reveal: 1 action, reveal bAS B1: type it whole to play it (Tab completes)"
    ui.commands.run("attack")
    assert wired.sent() == []
    assert state.notice == "attack: 2 actions, attack bWA yTR, attack bWA yWA: type one whole (Tab completes)"
    state.view = {**state.view, "legal": [f"move bWA {square}" for square in ("a1", "b1", "c1", "d1", "e1", "f1",
                                                                              "g1")] + ["end"]}
    ui.commands.run("move")
    assert state.notice.startswith("move: 7 actions, move bWA a1, ") and state.notice.count("move bWA") == 6
    assert "f1, …: type one" in state.notice and wired.sent() == []
    ui.commands.run("jump")  # a verb that begins none of them (the Card Game's parser said "takes 2 word(s)")
    assert wired.sent() == [] and state.notice == "jump: none of your legal actions now begins with it (Tab lists them)"
    for sent in ("end", "a1", "move bWA a1"):  # (`a1`, no verb, is an abbreviation of the move)
        ui.commands.run(sent)
        assert [m.text for m in wired.sent() if isinstance(m, Action)] == [sent]
    for typed, sent in (("End", "end"), ("MOVE bWA a1", "move bWA a1")):  # a verb in capitals (play-test 20b)
        ui.commands.run(typed)
        assert [m.text for m in wired.sent() if isinstance(m, Action)] == [sent]
    # a verb that is a whole action is sent where it is not legal, for the rule that refuses it (play-test pl33: a
    # Card Game's `end` while a revealed room's cards were to be placed read "none of your legal actions now
    # begins with it")
    state.view = {**state.view, "legal": ["place yKY a6", "place yKY b6"]}
    for whole in ("end", "pass"):
        ui.commands.run(whole)
        assert [m.text for m in wired.sent() if isinstance(m, Action)] == [whole]
    ui.commands.run("place")
    assert wired.sent() == [] and state.notice.startswith("place: 2 actions")


def test_a_line_typed_full_width_is_read_by_the_client_as_the_server_reads_it():
    """Review rv28: the server reads what a player types through NFKC (`ａｔｔａｃｋ` is `attack`), and it played the
    one attack a full-width `ａｔｔａｃｋ` named, while the client's guard against a verb typed alone compared the
    text as typed. The client now reads the line as the server will before its guards and its own commands; what
    `chat` says stays as typed; a secret choice typed full-width is taken too (`＋３`)."""
    from dungeon_twister.client.secret_choice import resolve_choice
    from dungeon_twister.protocol import Action, Chat

    wired = WiredSession()
    wired.seat(MAIN_PHASE)
    state = wired.session.state
    ui = ClientUI(wired.session, output=DummyOutput())
    state.view = {**state.view, "legal": ["reveal bAS B1", "attack bWA yTR", "end"]}
    for alone in ("ａｔｔａｃｋ", "ＲＥＶＥＡＬ"):
        ui.commands.run(alone)
        assert wired.sent() == [], alone
    assert state.notice == "reveal: 1 action, reveal bAS B1: type it whole to play it (Tab completes)"
    ui.commands.run("ａｔｔａｃｋ　ｂＷＡ　ｙＴＲ")
    assert [m.text for m in wired.sent() if isinstance(m, Action)] == ["attack bWA yTR"]
    ui.commands.run("ｈｅｌｐ　ｍｏｖｅ")  # the client's own command, not an action ("unknown verb 'help'")
    assert wired.sent() == [] and state.help_text.startswith("move: ")
    ui.commands.run("ｃｈａｔ ｇｇ　ｗｐ")
    assert wired.sent() == [Chat("ｇｇ　ｗｐ")]
    assert resolve_choice("＋３", ["combat +0", "combat +1", "combat +3"], "B") == "combat +3"
    assert resolve_choice("ｃｏｍｂａｔ　＋１", ["combat +0", "combat +1", "combat +3"], "B") == "combat +1"


def test_PD_TERR_ROCKFALL_02_an_action_that_ends_a_figure_on_rockfall_is_asked_again():
    """Play-test pt28b: Tab offered `jump yGO c19 b19`, a Rockfall square, and the Golem died at once (legal: every
    character on Rockfall once an action is done is eliminated, PD-TERR-ROCKFALL-02; a VP to the opponent). Such
    an action is said and asked again; typed again it is sent; anything else in between asks anew. An action that
    does not end on Rockfall (crossing it with a shield) is sent at once."""
    from dungeon_twister.protocol import Action

    wired = WiredSession()
    wired.seat(MAIN_PHASE)
    state = wired.session.state
    ui = ClientUI(wired.session, output=DummyOutput())
    deadly = ["jump bWA c19 b19", "move bWA c4-b4-b5", "teleport bWA b19"]
    state.view = {**state.view, "legal": [*deadly, "move bWA b4-b5-b6", "end"],
                  "terrain": {"rockfall": ["b19", "b5"]}}
    for text, square in zip(deadly, ("b19", "b5", "b19")):
        ui.commands.run(text)
        assert wired.sent() == [], text
        assert state.notice == (f"bWA would end on the Rockfall {square}, where every character is eliminated "
                                "(PD-TERR-ROCKFALL-02): type it again to do it")
        ui.commands.run(text)
        assert [m.text for m in wired.sent() if isinstance(m, Action)] == [text]
    ui.commands.run("jump bWA c19 b19")
    ui.commands.run("look b19")  # something else in between: the next one asks again
    ui.commands.run("jump bWA c19 b19")
    assert wired.sent() == []
    ui.commands.run("move bWA b4-b5-b6")  # (it crosses b5, it does not end there)
    assert [m.text for m in wired.sent() if isinstance(m, Action)] == ["move bWA b4-b5-b6"]
    # review rv28b: the verb in capitals is asked once and then played; an abbreviation, another case or another
    # route to the same square is asked too (the server would take it for the listed action)
    for typed in ("JUMP bWA c19 b19", "bwa b5", "move BWA  b5", "move bWA c4-c5-b5"):
        ui.commands.run(typed)
        assert wired.sent() == [] and state.notice.startswith("bWA would end on the Rockfall "), typed
        ui.commands.run(typed)
        assert len([m for m in wired.sent() if isinstance(m, Action)]) == 1, typed


def test_PR_CHAR_BANSHEE_01_a_push_of_ones_own_character_onto_rockfall_is_asked_again():
    """Review rv28b: in a Prison + Paladins & Dragons mix the Banshee pushes the first person on a line of sight,
    of either colour, one square straight away from her (PR-CHAR-BANSHEE-01); pushed onto Rockfall, one's own
    character is eliminated (PD-TERR-ROCKFALL-02): asked again, as a move there is. The edges: an enemy pushed
    there is sent at once (what the player wants), and so is a friend pushed onto a square that is not Rockfall;
    the push is read in any case and spacing."""
    from dungeon_twister.protocol import Action

    wired = WiredSession()
    wired.seat(MAIN_PHASE)
    state = wired.session.state
    ui = ClientUI(wired.session, output=DummyOutput())
    # the Banshee on c10; the Golem north of her on c12 (pushed to c13), the Troll east on e10 (to f10), the
    # enemy Wizard south on c8 (to c7)
    tokens = [{"id": "bBS", "square": "c10"}, {"id": "bGO", "square": "c12"}, {"id": "bTR", "square": "e10"},
              {"id": "yWZ", "square": "c8"}]
    state.view = {**state.view, "tokens": tokens, "terrain": {"rockfall": ["c13", "c7"]},
                  "legal": ["push bBS bGO", "push bBS bTR", "push bBS yWZ", "end"]}
    ui.commands.run("push bBS bGO")
    assert wired.sent() == []
    assert state.notice == ("bGO would end on the Rockfall c13, where every character is eliminated "
                            "(PD-TERR-ROCKFALL-02): type it again to do it")
    ui.commands.run("push bBS bGO")
    assert [m.text for m in wired.sent() if isinstance(m, Action)] == ["push bBS bGO"]
    ui.commands.run("PUSH  bbs  bgo")
    assert wired.sent() == [] and state.notice.startswith("bGO would end on the Rockfall c13")
    for text in ("push bBS yWZ", "push bBS bTR"):  # an enemy onto Rockfall; a friend onto f10
        ui.commands.run(text)
        assert [m.text for m in wired.sent() if isinstance(m, Action)] == [text], text


def test_a_snapshot_with_fewer_steps_than_the_view_before_says_the_game_went_back():
    """docs/protocol.md sections 13 and 20: a server put back from an older copy of its store sends a snapshot
    with fewer `steps` than the last view had. Which of the log's lines no longer stand is not known: they give
    way to one line saying so, and the panel says the log starts at a snapshot; the move list starts again too
    (play-test 20b found it kept the moves the restore undid). A plain restart (the same steps)
    or a view without steps (an older server) leaves the log alone."""
    from dungeon_twister.protocol import Snapshot

    wired = WiredSession()
    wired.seat(MAIN_PHASE)
    state = wired.session.state
    state.view = {**state.view, "steps": 40}
    lines = ["Blue moves the Thief from b0 to b3", "Yellow moves the Warrior from e21 to e18"]
    state.log.extend(lines)
    state.add_move("bTH b0-b3")
    state.trails = {"B": ["b0", "b1", "b2", "b3"]}
    wired.deliver(Snapshot(TABLE, 1000, {**state.view, "steps": 40}))  # a restart: nothing lost
    wired.deliver(Snapshot(TABLE, 1001, {k: v for k, v in state.view.items() if k != "steps"}))
    assert list(state.log)[-2:] == lines and list(state.moves) == ["bTH b0-b3"]
    wired.deliver(Snapshot(TABLE, 1002, {**state.view, "steps": 40}))
    wired.deliver(Snapshot(TABLE, 2000, {**state.view, "steps": 31}))
    assert list(state.log) == ["the server's game went back to an earlier point (its store was restored from a "
                               "copy): what this log showed after that point no longer stands"]
    assert state.came_in and state.view["steps"] == 31
    assert list(state.moves) == [] and state.trails == {}, "the move list and the last move's shading go too"


def test_a_snapshot_of_a_game_that_ended_meanwhile_shows_how_it_ended():
    """A client back after the opponent resigned gets a snapshot, not the events nor the game_over message: the
    view's `table.result` ends the game on this screen too (the panel's result, `leave` with no question, no
    clock), and the game_over message that a connected client gets after that view says nothing twice."""
    from dungeon_twister.protocol import Snapshot, TableEvent

    wired = WiredSession()
    wired.seat(MAIN_PHASE)
    state = wired.session.state
    assert state.game_running
    result = {"winner": "B", "vp": {"B": 2, "Y": 1}, "reason": "resigned"}
    wired.deliver(Snapshot(TABLE, 9, {**state.view, "legal": [], "table": {**state.view["table"], "result": result}}))
    assert state.result == result and not state.game_running and state.notice.startswith("game over: Blue wins · ")
    ui = ClientUI(wired.session, output=DummyOutput())
    ui.commands.run("leave")
    assert wired.sent() == [Leave()], "a finished game is left without asking"

    wired = WiredSession()
    wired.seat(MAIN_PHASE)
    state = wired.session.state
    wired.deliver(TableEvent(TABLE, 1, {"kind": "view", "view": {**state.view, "legal": [],
                                                                 "table": {**state.view["table"], "result": result}}}))
    assert state.result == result and state.notice.startswith("game over: Blue wins · ")
    state.say("")
    wired.deliver(GameOver(TABLE, result))
    assert state.result == result and state.notice == "", "said once, at the view"


def test_DT_224_DT_228_a_request_the_game_went_on_from_is_said_to_have_lapsed():
    """Play-test of a timed table: Yellow asked to take back a move and Blue never answered; Yellow's clock ran
    on (as lichess's does during a takeback proposal) until the turn's timeout, and the request vanished with no
    word, then `yes` said "nobody asks you anything now". The log now says that a request, ours or the
    opponent's, lapsed unanswered when the game went on from it (not when it was answered or taken back)."""
    from dungeon_twister.protocol import TableEvent

    wired = WiredSession()
    wired.seat(MAIN_PHASE)
    state = wired.session.state
    wired.deliver(TableEvent(TABLE, 1, {"kind": "takeback_asked", "seat": "B", "action": "move bWA c5"}))
    wired.deliver(TableEvent(TABLE, 2, {"kind": "draw_offered", "seat": "B"}))
    wired.deliver(TableEvent(TABLE, 3, {"kind": "timeout", "seat": "B", "actions": ["end"]}))  # an aside
    assert "lapsed" not in state.log[-1]
    wired.deliver(TableEvent(TABLE, 4, {"kind": "turn_ended", "seat": "B", "turn": 5}))
    assert list(state.log)[-2:] == ["your takeback request lapsed unanswered: the game went on",
                                    "your draw offer lapsed unanswered: the game went on"]
    assert state.question == "" and not state.we_asked

    wired.deliver(TableEvent(TABLE, 5, {"kind": "takeback_asked", "seat": "Y", "action": "move yTR c7"}))
    wired.deliver(TableEvent(TABLE, 6, {"kind": "turn_ended", "seat": "Y", "turn": 6}))
    assert state.log[-1] == "Yellow's takeback request lapsed unanswered: the game went on"
    wired.deliver(TableEvent(TABLE, 7, {"kind": "takeback_asked", "seat": "Y", "action": "move yTR c8"}))
    wired.deliver(TableEvent(TABLE, 8, {"kind": "taken_back", "seat": "Y", "action": "move yTR c8"}))
    assert "lapsed" not in " ".join(list(state.log)[-2:]), "answered by the takeback itself"


def test_a_secret_choice_that_begins_clears_the_bar_s_message_of_before():
    """Play-test pt23: Hans's bar still said his chat line had been cut to 500 characters when Giulia attacked him
    and the combat card was his to choose; the panel asked for it, the bar (where the eye goes) did not. A view that
    makes a secret choice ours clears that message; one of the same round (the opponent's commitment) keeps it."""
    from dungeon_twister.protocol import TableEvent

    wired = WiredSession()
    wired.seat(MAIN_PHASE)
    state = wired.session.state
    state.say("your message was cut to its first 500 characters")
    wired.deliver(TableEvent(TABLE, 1, {"kind": "view", "view": {**state.view, "secret": "combat-1", "legal": []}}))
    assert state.notice == "" and state.secret_purpose == "combat-1"
    state.say("a message of this round")
    wired.deliver(TableEvent(TABLE, 2, {"kind": "view", "view": {**state.view, "active": "B"}}))
    assert state.notice == "a message of this round"


def test_a_log_line_that_came_with_no_table_event_is_kept_for_a_restart_too(tmp_path):
    """The progress file (held.py) was written after table events only: a line that came otherwise (the
    opponent's commitment: "Yellow has made his secret choice") was lost by a crash right after it, and the log a
    restarted client put back differed from the one it had (seen once in test_client_takeover, under load)."""
    from dungeon_twister.protocol import OpponentCommit

    wired = WiredSession()
    seat_file = SeatFile("h:1", "ann", tmp_path)
    wired.session.seat_file = seat_file
    wired.seat(MAIN_PHASE)
    wired.deliver(OpponentCommit(TABLE, "combat-1", "Y", bytes(32)))
    assert list(wired.session.state.log)[-1] == "Yellow has made his secret choice (the card for combat 1); make yours"
    assert seat_file.load_progress(TABLE).log == list(wired.session.state.log)


def test_a_client_restarted_in_another_language_tells_the_game_so_far_in_it(tmp_path):
    """Play-test 20 restarted its client mid-game with `--lang de`: the log it put back was all English, only the
    new events German. The progress file keeps each line that tells a table event with its event, and each line
    the client words itself (play-test 21b: the opponent's commitment, a reveal checked, a deal's contributions)
    with its template and values (names.said), and a new process words them again in its language; a line kept
    without either (a file written before) stays as it was shown."""
    from dungeon_twister.client import i18n
    from dungeon_twister.client.held import Told
    from dungeon_twister.protocol import OpponentCommit, TableEvent

    wired = WiredSession()
    seat_file = SeatFile("h:1", "ann", tmp_path)
    wired.session.seat_file = seat_file
    wired.seat(MAIN_PHASE)
    wired.deliver(TableEvent(TABLE, 1, {"kind": "turn_ended", "seat": "B", "turn": 5}))
    wired.deliver(TableEvent(TABLE, 2, {"kind": "draw_offered", "seat": "Y"}))
    wired.deliver(OpponentCommit(TABLE, "combat-1", "Y", bytes(32)))
    english = list(wired.session.state.log)[-2:]
    assert english == ["Yellow offers a draw", "Yellow has made his secret choice (the card for combat 1); make yours"]
    kept = seat_file.load_progress(TABLE).log
    assert isinstance(kept[-2], Told) and kept[-2].event == {"kind": "draw_offered", "seat": "Y"}
    moves = list(wired.session.state.moves)
    assert moves and moves[-1].startswith("B "), "the turn's end is in the strip of moves"
    assert isinstance(kept[-1], Told) and kept[-1].event["kind"] == "said"
    progress = seat_file.load_progress(TABLE)
    progress.log.append("a line of a file written before")
    seat_file.save_progress(progress)
    try:
        i18n.use("de")
        german = i18n._("{seat} offers a draw").format(seat=i18n._("Yellow"))
        committed = i18n._("{seat} has made his secret choice ({purpose}); make yours").format(
            seat=i18n._("Yellow"), purpose=i18n._("the card for combat {number}").format(number=1))
        assert german != "Yellow offers a draw" and committed != english[-1], "the catalogue has the lines"
        restarted = Session(ClientState("ann"), seat_file=seat_file)
        assert list(restarted.state.log)[-3:] == [german, committed, "a line of a file written before"]
        # and the panel's strip of moves goes on from where it was (play-test 21: it started empty)
        assert list(restarted.state.moves) == moves and restarted.state.moves_made == len(moves)
    finally:
        i18n.use("en")


@pytest.mark.parametrize("game", ["prison-2", "cards tutorial 1"])
def test_PR_SCEN_CG_TUT_a_client_restarted_in_another_language_retells_the_introduction_in_it(tmp_path, game):
    """Play-test 21b: a scenario's (PR-SCEN) or a tutorial's (CG-TUT1) introduction, its title, goal and new rules
    shown in the log as the game starts, came back in the old language when the client was restarted with another
    `--lang`, where the events' lines and the client's own were retold: those lines were made from the view and
    kept as text. Each is kept with what it is made from (names.INTRO) and worded again by the new process."""
    from dungeon_twister.client import i18n
    from dungeon_twister.client.held import Told
    from dungeon_twister.client.names import scenario_intro
    from dungeon_twister.engine import Options, new_game
    from dungeon_twister.engine.families import FAMILIES
    from dungeon_twister.protocol import Joined, Snapshot, TableEvent
    from dungeon_twister.server.viewing import ViewPoint, table_view

    if game == "prison-2":
        state = new_game(Options(set_name="prison", scenario="prison-2"), 1)
    else:
        from dungeon_twister.engine.cards import CardOptions

        state = FAMILIES["cards"].new_game(CardOptions(1), 1)
    seen = table_view(ViewPoint(state, {"B": "ann", "Y": "bot"}, {"id": TABLE}, True), "B")
    wired = WiredSession()
    seat_file = SeatFile("h:1", "ann", tmp_path)
    wired.session.seat_file = seat_file
    wired.session.join(TABLE, "B")
    wired.sent()
    wired.deliver(Joined(TABLE, "token", "B"))
    wired.deliver(Snapshot(TABLE, 0, seen))
    wired.deliver(TableEvent(TABLE, 1, {"kind": "game_started"}))
    english = scenario_intro(seen)
    assert len(english) == 3 and english[1].startswith("goal: ")
    assert list(wired.session.state.log)[-3:] == english
    kept = seat_file.load_progress(TABLE).log[-3:]
    assert all(isinstance(line, Told) and line.event["kind"] == "intro" for line in kept)
    try:
        i18n.use("de")
        german = scenario_intro(seen)
        assert all(line != before for line, before in zip(german, english)), "the catalogue has the lines"
        restarted = Session(ClientState("ann"), seat_file=seat_file)
        assert list(restarted.state.log)[-3:] == german
    finally:
        i18n.use("en")


def test_a_choice_refused_here_stays_in_the_bar_when_the_opponent_commits_a_moment_later():
    """Play-test pt22b: a secret choice typed wrong was refused, and a moment later the opponent's commitment's
    notice ("Blue has made his secret choice (hide); make yours") took the refusal's place in the message bar,
    which answers the last line typed: the player never read why nothing happened. The refusal stays; the notice
    goes to the log."""
    from dungeon_twister.client.commands import Commands
    from dungeon_twister.protocol import TableEvent

    wired = WiredSession()
    wired.seat(MAIN_PHASE)
    state = wired.session.state
    choosing = {**state.view, "secret": "hide", "to_act": ["B", "Y"], "legal": ["hide x"], "table": {"id": TABLE}}
    wired.deliver(TableEvent(TABLE, 1, {"kind": "view", "view": choosing}))
    Commands(wired.session, lambda: None).run("hide bTR:1")
    refused = state.refusal
    assert refused is not None and refused.code == "not_a_choice" and wired.sent() == []
    lines = len(state.log)
    wired.deliver(TableEvent(TABLE, 2, {"kind": "view", "view": {**choosing, "table": {"id": TABLE,
                                                                                  "committed": ["Y"]}}}))
    assert state.refusal is refused
    assert list(state.log)[lines:] == ["Yellow has made his secret choice (the start characters' places); make yours"]


def test_a_view_naming_the_opponent_as_committed_tells_the_player_still_to_choose():
    """Play-test (the Card Game's hide): the player still to choose was never told that his opponent had chosen,
    since `opponent_commit` comes only once both have. The server's view now names the seats that have committed
    (`table.committed`, docs/protocol.md section 20): a notice and a log line once, when the opponent first
    appears there, and the panel's "Yellow has chosen", as a spectator's panel says it too."""
    from dungeon_twister.client.games import screens
    from dungeon_twister.client.panel import game_panel
    from dungeon_twister.protocol import TableEvent

    wired = WiredSession()
    wired.seat(MAIN_PHASE)
    state = wired.session.state
    choosing = {**state.view, "secret": "hide", "to_act": ["B", "Y"], "legal": ["hide x"], "table": {"id": TABLE}}
    wired.deliver(TableEvent(TABLE, 1, {"kind": "view", "view": choosing}))
    lines = len(state.log)
    chosen = {**choosing, "table": {"id": TABLE, "committed": ["Y"]}}
    wired.deliver(TableEvent(TABLE, 2, {"kind": "view", "view": chosen}))
    assert list(state.log)[lines:] == ["Yellow has made his secret choice (the start characters' places); make yours"]
    assert state.notice == "Yellow has made his secret choice (the start characters' places); make yours"
    panel = "".join(text for _, text in game_panel(state, 0.0, screens(chosen).panel))
    assert "Blue is choosing · Yellow has chosen" in panel
    wired.deliver(TableEvent(TABLE, 3, {"kind": "view", "view": chosen}))  # the same again: said once
    assert len(state.log) == lines + 1
    # our own round, revealed, whose opponent's reveal comes later (CG-TUT1-05: when the teams are shown): once
    # the game goes on, the message bar no longer says it waits for that reveal (a play-test saw it stay)
    from dungeon_twister.client.state import SecretChoice

    round_ = state.secrets["hide"] = SecretChoice("hide", "hide x")
    round_.revealed = True
    state.say(round_.describe())
    assert state.notice == ("the start characters' places: you chose 'hide x'; waiting for the opponent's choice to be "
                            "shown")
    seeding = {**choosing, "secret": None, "to_act": ["B"], "phase": "seed"}
    wired.deliver(TableEvent(TABLE, 4, {"kind": "view", "view": seeding}))
    assert state.notice == ("the start characters' places: you chose 'hide x'; the opponent's choice is shown when "
                            "the game shows it, checked to be the one he made before he saw yours")


def test_DT_224_a_one_word_action_refused_while_asked_gets_the_question_again():
    """Play-test in Italian: asked to take back a move, the player typed `si` and got "unknown verb 'si' (verbs:
    attack, break, ...)", nothing about the yes or no he was asked for. `si` is an answer now (the test above);
    any other one-word action refused as notation while a question is pending (`okay`) gives the question
    again."""
    from dungeon_twister.protocol import Action, ActionRefused, TableEvent

    wired = WiredSession()
    wired.seat(MAIN_PHASE)
    ui = ClientUI(wired.session, output=DummyOutput())
    state = wired.session.state
    wired.deliver(TableEvent(TABLE, 1, {"kind": "takeback_asked", "seat": "Y", "action": "move yTR c7"}))
    ui.commands.run("okay")
    (sent,) = wired.sent()
    assert isinstance(sent, Action) and sent.text == "okay"
    wired.deliver(ActionRefused(sent.action_id, "bad_notation", "unknown verb 'okay'"))
    assert state.notice == "'okay' is not a command: Yellow asks to take back 'move yTR c7': type yes or no"
    ui.commands.run("mvoe bWA c5")  # a typo of an action is refused as it was
    (sent,) = wired.sent()
    wired.deliver(ActionRefused(sent.action_id, "bad_notation", "unknown verb 'mvoe'"))
    assert state.refusal.text == "mvoe bWA c5" and "is not a command" not in state.notice


def test_a_tables_chat_stays_at_the_table_and_a_watcher_is_named_as_one():
    """Play-test: back in the lobby, the chat pane still showed the table's chat under "chat TEXT talks to everyone
    in the lobby", and the next table's showed the last one's; and the players could not tell a spectator's line
    from a player's. A table's chat goes when the table does; a line from someone not seated says he watches."""
    from dungeon_twister.protocol import ChatMessage, Left

    wired = WiredSession()
    wired.seat(MAIN_PHASE)
    state = wired.session.state
    seated = state.view["seats"]["B"]
    wired.deliver(ChatMessage(seated, "good luck", TABLE))
    wired.deliver(ChatMessage("carla", "spectator here", TABLE))
    assert list(state.chat) == [f"{seated}: good luck", "carla (watching): spectator here"]
    wired.deliver(Left(TABLE))
    assert list(state.chat) == []
    wired.deliver(ChatMessage("carla", "hello lobby"))
    assert list(state.chat) == ["carla: hello lobby"]


def test_log_shows_the_whole_log_in_the_help_box_from_its_end():
    """Play-test pt29 F8: at 80x24 the panel leaves the log 3 rows, and the bot's whole turn (its reveal, where it
    placed the player's figures, a combat's result) scrolled past with no way to read it back. `log` shows all of
    it in the help box, opened at its end; the edges: an empty log says so, `log x` is a usage error."""
    from dungeon_twister.client.state import EndFirst

    wired = WiredSession()
    state = wired.session.state
    ui = ClientUI(wired.session, output=DummyOutput())
    ui.commands.run("log")
    assert state.notice.endswith("nothing happened here yet") and state.help_text is None
    wired.seat(MAIN_PHASE)
    state.log.clear()
    state.log.extend(f"line {n}" for n in range(40))
    ui.commands.run("log")
    assert isinstance(state.help_text, EndFirst)
    assert state.help_text.splitlines() == ["The log so far (40 lines; PgUp/PgDn scroll it, Esc closes it)", "",
                                            *(f"line {n}" for n in range(40))]
    ui.commands.run("log x")
    assert state.notice == "log"  # (the usage: the command takes nothing)


def test_ignore_hides_a_players_chat_in_every_spelling_until_unignore():
    """Play-test ad29 F2: on a public server a player had no way to stop reading a rude one. `ignore NAME` hides his
    chat for this run of the client, in any spelling of his name (names are one player as the server folds them);
    the others' chat still shows; `ignore` alone lists who is ignored; `unignore NAME` shows him again; the edges:
    `unignore` of a name not ignored says so, and two names at once are a usage error."""
    from dungeon_twister.protocol import ChatMessage

    wired = WiredSession()
    state = wired.session.state
    ui = ClientUI(wired.session, output=DummyOutput())
    ui.commands.run("ignore")
    assert state.notice == "you ignore nobody: `ignore NAME` hides NAME's chat for this run of dt-client"
    ui.commands.run("ignore Rude")
    assert state.notice == ("Rude's chat is hidden from now on, for this run of dt-client (`unignore Rude` shows it "
                            "again)")
    wired.deliver(ChatMessage("rude", "insult"))
    wired.deliver(ChatMessage("ＲＵＤＥ", "insult"))
    wired.deliver(ChatMessage("carla", "hello"))
    assert list(state.chat) == ["carla: hello"]
    ui.commands.run("ignore")
    assert state.notice == "chat hidden from: Rude (`unignore NAME` shows it again)"
    ui.commands.run("unignore bob")
    assert state.notice.endswith("bob is not ignored")
    ui.commands.run("ignore a b")
    assert "ignore [NAME]" in state.notice
    ui.commands.run("unignore RUDE")
    assert state.notice == "RUDE's chat is shown again"
    wired.deliver(ChatMessage("rude", "sorry"))
    assert list(state.chat) == ["carla: hello", "rude: sorry"]


def test_a_join_refused_because_the_table_is_full_says_how_to_watch_it():
    """Play-test: `join 2` on a full table said "server: every seat is taken" and nothing more."""
    from dungeon_twister.protocol import Error, Join

    wired = WiredSession()
    wired.session.join("t2-9eafeb2f")
    assert wired.sent() == [Join("t2-9eafeb2f")]
    wired.deliver(Error("seat_taken", "every seat is taken", "client", False, template="every seat is taken"))
    assert wired.session.state.notice == "server: every seat is taken · `spectate t2-9eafeb2f` watches the game"
    # a private table's (play-test pt28: the hint left out the code, which `spectate` needs)
    wired.session.join("t3-0badc0de", None, "b363bead")
    wired.deliver(Error("seat_taken", "every seat is taken", "client", False, template="every seat is taken"))
    assert wired.session.state.notice == ("server: every seat is taken · `spectate t3-0badc0de b363bead` watches "
                                          "the game")


def test_bot_is_offered_only_before_the_game_and_its_refusal_never_says_to_watch_ones_own_table():
    """Play-test pt25b F6: in a running game Tab offered `bot`, and `bot Y` at the full table was answered "seat Y
    is taken · `spectate t2-...` watches the game", said to a player seated there (the hint of a `join` refused).
    `bot` is offered before the game starts, and no refusal tells a player at a table to watch it."""
    from prompt_toolkit.completion import CompleteEvent
    from prompt_toolkit.document import Document

    from dungeon_twister.client.completion import PromptCompleter
    from dungeon_twister.protocol import Error

    wired = WiredSession()
    wired.seat(MAIN_PHASE)
    state = wired.session.state
    completer = PromptCompleter(state)
    offered = {c.text for c in completer.get_completions(Document(""), CompleteEvent(completion_requested=True))}
    assert "bot" not in offered and "resign" in offered
    # play-test pl33: `rematch` was offered in the middle of a game; it is once the game is over, and a takeback,
    # a draw and a resignation only while it runs
    assert {"undo", "draw"} <= offered and "rematch" not in offered
    running = state.view
    state.view = {**running, "outcome": {"winner": "B"}}
    assert state.game_over
    offered = {c.text for c in completer.get_completions(Document(""), CompleteEvent(completion_requested=True))}
    assert "rematch" in offered and not offered & {"undo", "draw", "resign"} and "leave" in offered
    state.view = {**running, "started": False}
    offered = {c.text for c in completer.get_completions(Document(""), CompleteEvent(completion_requested=True))}
    assert "bot" in offered
    wired.deliver(Error("seat_taken", "seat Y is taken", "client", False, template="seat {seat} is taken",
                        values={"seat": "Y"}))
    assert state.notice == "server: seat Y is taken"


def test_a_join_refused_because_the_game_is_over_says_how_to_step_through_it():
    """Play-test pt24 F11: `join 1` on a finished table said "all seats are taken · `spectate t1-...` watches the
    game": true, beside the point, and a finished board is little to watch. The server says the game is over, and
    the client gives the shell command of its replay (on a local `dt-client play` server, no such line: that
    server goes with the game)."""
    from dungeon_twister.protocol import Error, Join, TableInfo, TableOptions

    wired = WiredSession()
    state = wired.session.state
    state.server = "192.0.2.7:7777"
    state.tables = [TableInfo("t1-cf454ca4", TableOptions(), "over", 0, "ann", "bob"),
                    TableInfo("t2-9eafeb2f", TableOptions(), "playing", 0, "cy", "dan")]
    wired.session.join("t1-cf454ca4")
    assert wired.sent() == [Join("t1-cf454ca4")]
    over = Error("seat_taken", "the game at this table is over", "client", False,
                 template="the game at this table is over")
    wired.deliver(over)
    assert state.notice == ("server: the game at this table is over · in a shell, `dt-client replay t1-cf454ca4 "
                            "--server 192.0.2.7:7777` steps through it")
    wired.session.join("t2-9eafeb2f")
    wired.deliver(Error("seat_taken", "every seat is taken", "client", False, template="every seat is taken"))
    assert state.notice == "server: every seat is taken · `spectate t2-9eafeb2f` watches the game"
    state.local = True
    wired.session.join("t1-cf454ca4")
    wired.deliver(over)
    assert state.notice == "server: the game at this table is over · `spectate t1-cf454ca4` watches the game"


def test_BG_OPT_02_a_clock_stops_when_its_seat_no_longer_acts_or_commits():
    """Play-test of a timed table: in Yellow's combat, Blue's panel showed "time left: Blue 1:19", the countdown of
    Blue's last turn, which had ended: the server announces a deadline that starts, resumes or moves (`timer`), not
    one that pauses or ends (docs/protocol.md section 13). A seat's countdown goes when a view no longer has it to
    act, and when it commits to its secret choice (its clock stops; a new deadline comes as a new `timer`)."""
    from dungeon_twister.protocol import OpponentCommit, TableEvent, Timer

    wired = WiredSession()
    wired.seat(MAIN_PHASE)
    state = wired.session.state
    wired.deliver(Timer(TABLE, "B", 120_000))
    assert set(state.timers) == {"B"}
    yellows_turn = {**state.view, "to_act": ["Y"], "active": "Y"}
    wired.deliver(TableEvent(TABLE, 1, {"kind": "view", "view": yellows_turn}))
    wired.deliver(Timer(TABLE, "Y", 120_000))
    assert set(state.timers) == {"Y"}, "Blue's turn is over: its clock with it"
    combat = {**yellows_turn, "to_act": ["B", "Y"], "phase": "combat"}
    wired.deliver(TableEvent(TABLE, 2, {"kind": "view", "view": combat}))
    assert set(state.timers) == {"Y"}, "Blue to act, but no deadline of his runs until Yellow lays his card"
    wired.deliver(OpponentCommit(TABLE, "combat-1", "Y", bytes(32)))
    wired.deliver(Timer(TABLE, "B", 5_000))
    assert set(state.timers) == {"B"}, "Yellow's clock paused with his card; Blue's 5 seconds run"


def run_counting_quits(wired: WiredSession, script) -> list:
    """Run the UI of `wired` with `script(ui, pipe, quits)`; `quits` gets an entry each time the client would quit."""
    quits: list = []
    with create_pipe_input() as pipe:
        ui = ClientUI(wired.session, input=pipe, output=DummyOutput())
        ui.commands._commands["quit"] = lambda _args: quits.append(True)
        run(ui, lambda: script(ui, pipe, quits))
    return quits


def test_ctrl_c_in_a_running_game_clears_the_line_and_asks_before_quitting():
    """Play-test pt25b F8: Ctrl-C, which a shell's user presses to clear a line, closed the client at once in the
    middle of a game (its seat then held empty for its grace), while `leave` and `resign` ask first. In a game we
    play, the first Ctrl-C clears the line and says a second one quits; a command typed in between asks again.
    The edge: in the lobby Ctrl-C quits at once, as before."""
    wired = WiredSession()
    wired.seat(MAIN_PHASE)
    state = wired.session.state

    async def at_the_table(ui, pipe, quits) -> None:
        pipe.send_text("move bWA")
        await until(lambda: ui.prompt.text == "move bWA")
        pipe.send_text("\x03")
        await until(lambda: state.confirm == "quit-key")
        assert ui.prompt.text == "" and quits == [] and state.notice.startswith("press it again to quit")
        pipe.send_text("look c4" + ENTER + "\x03")
        await until(lambda: state.notice.startswith("press it again"))
        assert quits == [], "a command in between: asked again"
        pipe.send_text("\x03")
        await until(lambda: quits)

    assert run_counting_quits(wired, at_the_table) == [True]

    async def in_the_lobby(ui, pipe, quits) -> None:
        pipe.send_text("\x03")
        await until(lambda: quits)

    assert run_counting_quits(WiredSession(), in_the_lobby) == [True]


def test_quitting_a_running_game_says_in_the_shell_how_long_the_seat_is_held_and_how_to_take_it_back():
    """Play-test pt28 W3: a player typed `quit` in a game; the client ended with nothing said in the shell, and the
    game was lost 60 s later. The line printed as it ends says how long the seat is held and the command that takes
    it back (the name quoted for a shell); the edges: nothing once the game is over, nothing for a spectator, nothing
    before the game began."""
    from dungeon_twister.client.app import held_seat_line

    wired = WiredSession()
    wired.seat(MAIN_PHASE)
    session = wired.session
    assert held_seat_line(session, "192.168.1.20:7777", "Zoë the dragon") == (
        f"your seat at table {TABLE} is held 60 s: `dt-client connect 192.168.1.20:7777 --name 'Zoë the dragon'` "
        "takes it back (after that, the game is lost)")
    session.state.view = {**session.state.view, "started": False}
    assert held_seat_line(session, "192.168.1.20:7777", "ann") is None
    session.state.view = {**session.state.view, "started": True}
    wired.deliver(GameOver(TABLE, {"winner": "B", "vp": {"B": 5, "Y": 2}, "reason": "vp"}))
    assert held_seat_line(session, "192.168.1.20:7777", "ann") is None
    watcher = WiredSession()
    watcher.seat(MAIN_PHASE)
    watcher.session.state.seat = None  # (at a table without a seat: watching it)
    assert watcher.session.state.spectating
    assert held_seat_line(watcher.session, "192.168.1.20:7777", "ann") is None
    # review rv28b: the table's id is the server's (any 64 characters): escaped as the screens show it; a language
    # asked for goes into the line; a seat held 0 s has nothing to say
    hostile = WiredSession()
    hostile.seat(MAIN_PHASE)
    hostile.session.held = replace(hostile.session.held, table="t1-\x1b]0;owned\x07")
    line = held_seat_line(hostile.session, "192.168.1.20:7777", "ann", "fr")
    assert "\x1b" not in line and "\x07" not in line and "t1-" in line
    assert "`dt-client --lang fr connect 192.168.1.20:7777 --name ann`" in line
    hostile.session.grace = 0
    assert held_seat_line(hostile.session, "192.168.1.20:7777", "ann") is None


def test_BG_OBJ_FIREBALL_01_02_a_fireball_at_nobody_or_at_ones_own_is_asked_again():
    """Play-test pt28b: a fireball spent on nothing had no warning, and the Fireball Wand is discarded after one
    use (BG-OBJ-FIREBALL-01); the first character on the line is eliminated whatever its colour (-02). Read from
    the view's line of sight (engine/boardgame/viewsight.py): a fireball that would hit nobody, or one's own
    character first, is said and asked again, as a move onto Rockfall is; one at an enemy is sent at once. What
    each direction meets is the engine's own (apply), not written here; the position has one of each case."""
    from dungeon_twister.engine import apply, format_action, legal_actions, parse_action, view
    from dungeon_twister.protocol import Action

    from tests.engine.builders import position

    state_ = position("bWZ@e2 bFW@e2 yGB@e4 bTR@c2")
    met = {}
    for direction in "nesw":
        _, events = apply(state_, parse_action(f"fireball bWZ {direction}", "B"))
        met[direction] = next(e for e in events if e.kind == "fireball").data["victims"]
    assert sorted(map(tuple, met.values())) == [(), (), ("bTR",), ("yGB",)], met  # (each case is here)

    wired = WiredSession()
    wired.seat(MAIN_PHASE)
    state = wired.session.state
    ui = ClientUI(wired.session, output=DummyOutput())
    state.view = {**state.view, **view(state_, "B"), "legal": [format_action(a) for a in legal_actions(state_)]}
    for direction, victims in met.items():
        text = f"fireball bWZ {direction}"
        if direction == "e":
            text = text.upper()  # (read in any case, as the server reads it)
        if direction == "s":
            text = "fireball WZ s"  # (the figure without its colour's letter, as the server reads it: pl31 F8)
        ui.commands.run(text)
        if victims == ["yGB"]:
            assert [m.text for m in wired.sent() if isinstance(m, Action)] == [text]
            continue
        assert wired.sent() == [], text
        side = {"n": "north", "e": "east", "s": "south", "w": "west"}[direction]
        assert state.notice == (f"bWZ's fireball {side} would hit nobody, and the wand is spent all the same "
                                "(BG-OBJ-FIREBALL-01): type it again to do it" if not victims else
                                f"bWZ's fire {side} would eliminate your own bTR on c2 first (BG-OBJ-FIREBALL-02): "
                                "type it again to do it")
        ui.commands.run(text)  # typed again: sent (its verb as the client writes verbs)
        assert [m.text.lower() for m in wired.sent() if isinstance(m, Action)] == [text.lower()]
    # Prison's Fireball Staff (PR-OBJ-STAFF-01): its own name and rule (play-test pl33 read "the wand is spent" of
    # his Staff); the view's token renamed, since the engine's line of sight is the same
    state.view = {**state.view, "tokens": [{**token, "id": "bFS", "code": "FS"} if token.get("code") == "FW" else token
                                           for token in state.view["tokens"]]}
    ui.commands.run("fireball bWZ n" if not met["n"] else "fireball bWZ w" if not met["w"] else "fireball bWZ e")
    assert wired.sent() == [] and "would hit nobody, and the staff is spent all the same (PR-OBJ-STAFF-01)" in \
        state.notice


def test_DT_228_a_draw_offered_to_a_bot_is_asked_once_more():
    """Play-test pl31 F2: a bot answers a draw offer at once (it accepts unless it leads on VP), and a newcomer who
    tried `draw` found the game over. Against a bot, `draw` says so and is sent when typed again; anything else in
    between asks anew. The edges: against a person it is sent at once (he answers), and so is a `draw` that
    accepts the bot's own offer."""
    from dungeon_twister.protocol import DrawOffer, TableEvent

    wired = WiredSession()
    wired.seat(MAIN_PHASE)
    state = wired.session.state
    ui = ClientUI(wired.session, output=DummyOutput())
    human = state.view["seats"]
    state.view = {**state.view, "seats": {**human, "Y": "planner-bot-1"}}
    ui.commands.run("draw")
    assert wired.sent() == [] and state.notice.startswith("a bot answers at once: it accepts unless it leads on VP")
    ui.commands.run("look c4")
    ui.commands.run("draw")
    assert wired.sent() == [], "something else in between: asked anew"
    ui.commands.run("draw")
    assert wired.sent() == [DrawOffer(TABLE)]
    wired.deliver(TableEvent(TABLE, 1, {"kind": "draw_offered", "seat": "Y"}))
    ui.commands.run("draw")  # (accepting the bot's offer: nothing to ask)
    assert wired.sent() == [DrawOffer(TABLE)]
    state.draw_offered = None
    state.view = {**state.view, "seats": human}
    ui.commands.run("draw")
    assert wired.sent() == [DrawOffer(TABLE)], "a person answers himself: sent at once"


def test_DT_228_yes_to_a_draw_asked_once_more_offers_it_and_no_plays_on():
    """Play-test pl31 item 11, as for `resign`: the question "Type `draw` again to offer it" answered `yes` was told
    "nobody asks you anything now". `yes` offers the draw, `no` plays on; a `yes` after another line in between
    answers nothing."""
    from dungeon_twister.protocol import DrawOffer

    wired = WiredSession()
    wired.seat(MAIN_PHASE)
    state = wired.session.state
    ui = ClientUI(wired.session, output=DummyOutput())
    state.view = {**state.view, "seats": {**state.view["seats"], "Y": "planner-bot-1"}}
    for line in ("draw", "no"):
        ui.commands.run(line)
    assert wired.sent() == [] and state.notice == "you stay in the game" and state.confirm is None
    for line in ("draw", "look c4", "yes"):
        ui.commands.run(line)
    assert wired.sent() == [] and state.notice == "yes / no: nobody asks you anything now"
    for line in ("draw", "yes"):
        ui.commands.run(line)
    assert wired.sent() == [DrawOffer(TABLE)]


def test_a_chat_line_is_a_translatable_text(monkeypatch):
    """Translation play-through i18n32: a chat line was glued in code ("{sender}: {text}"), so French could not
    put its no-break space before the colon. It is a text of the catalogue now ("{name}: {text}"): a translation
    changes it, for a player's line and a watcher's; English shows it as before (the previous test)."""
    import dungeon_twister.client.inbox as inbox
    from dungeon_twister.protocol import ChatMessage

    wired = WiredSession()
    wired.seat(MAIN_PHASE)
    state = wired.session.state
    seated = state.view["seats"]["B"]
    french = {"{name}: {text}": "{name}\u00a0: {text}", "{name} (watching)": "{name} (spectateur)"}
    monkeypatch.setattr(inbox, "_", lambda text: french.get(text, text))
    wired.deliver(ChatMessage(seated, "bonne chance", TABLE))
    wired.deliver(ChatMessage("carla", "je regarde", TABLE))
    assert list(state.chat) == [f"{seated}\u00a0: bonne chance", "carla (spectateur)\u00a0: je regarde"]


@pytest.mark.parametrize("command", ["resign", "leave"])
@pytest.mark.parametrize("asked", ["draw_offered", "takeback_asked"])
def test_a_yes_to_the_opponents_question_asked_after_our_resign_answers_his_question(command, asked):
    """Review rv32 of pl31 item 11: `yes` just after `resign` (or `leave`) asked "type `resign` again" resigns. The
    opponent's draw offer or takeback that comes after that question is the question just asked: `yes` answers
    his (it had resigned a game its player meant to draw), and our question lapses. His offer that was pending
    before our `resign` leaves ours the last asked: `yes` then resigns."""
    from dungeon_twister.protocol import DrawAnswer, TableEvent, TakebackAnswer

    wired = WiredSession()
    wired.seat(MAIN_PHASE)
    ui = ClientUI(wired.session, output=DummyOutput())
    state = wired.session.state
    ui.commands.run(command)
    assert wired.sent() == [] and state.confirm == command
    wired.deliver(TableEvent(TABLE, 1, {"kind": asked, "seat": "Y", "action": "move yTR c7"}))
    ui.commands.run("yes")
    answer = DrawAnswer(TABLE, True) if asked == "draw_offered" else TakebackAnswer(TABLE, True)
    assert wired.sent() == [answer], "his question, asked last, is the one answered: nothing resigned"
    ui.commands.run(command)
    assert wired.sent() == [] and state.confirm == command, "asked again, as at first"

    wired.deliver(TableEvent(TABLE, 2, {"kind": asked, "seat": "Y", "action": "move yTR c7"}))
    for line in (command, "yes"):  # his question first, then ours: ours is the one answered
        ui.commands.run(line)
    assert wired.sent() == [Leave()]
