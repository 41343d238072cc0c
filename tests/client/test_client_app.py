"""dt-client's command line, the local server launcher, trio running as a guest of asyncio, and the whole client
(prompt_toolkit app + trio networking) against a TCP fake server."""

from __future__ import annotations

import argparse
import asyncio
import queue
import subprocess
import sys
import threading

import pytest
import trio
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from dungeon_twister.protocol import (
    Chat,
    ChatMessage,
    ListTables,
    ServerConnection,
    Software,
    TableInfo,
    TableOptions,
    Tables,
)
from dungeon_twister.client import app
from dungeon_twister.client.guest import TrioGuest
from dungeon_twister.client.local_server import LocalServer, ServerStartError, server_command
from dungeon_twister.client.session import Session
from dungeon_twister.client.state import ClientState
from dungeon_twister.client.ui import ClientUI


# --- command line -----------------------------------------------------------------------------------------
def test_help_lists_both_commands(capsys):
    with pytest.raises(SystemExit) as exit_:
        app.main(["--help"])
    assert exit_.value.code == 0
    assert "connect" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        app.main(["play", "--help"])
    assert "--bot {planner,greedy,random}" in capsys.readouterr().out


def test_version_is_the_release_for_client_and_server_and_pyproject_reads_it_from_there(capsys):
    """`dt-client --version` and `dt-server --version` print the one release constant (an admin checking an upgrade
    reads it without connecting); pyproject.toml takes its version from that constant (ops32)."""
    import tomllib
    from pathlib import Path

    from dungeon_twister.protocol.versions import RELEASE
    from dungeon_twister.server import app as server_app

    pyproject = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text())
    assert "version" not in pyproject["project"] and "version" in pyproject["project"]["dynamic"]
    assert pyproject["tool"]["setuptools"]["dynamic"]["version"] == {
        "attr": "dungeon_twister.protocol.versions.RELEASE"}
    with pytest.raises(SystemExit) as exit_:
        app.main(["--version"])
    assert exit_.value.code == 0
    assert capsys.readouterr().out == f"dt-client {RELEASE}\n"
    with pytest.raises(SystemExit) as exit_:
        server_app.main(["--version"])
    assert exit_.value.code == 0
    assert capsys.readouterr().out == f"dt-server {RELEASE}\n"


def test_the_release_has_one_source_and_the_installed_metadata_says_the_same():
    """ops31: the release was "0.1.0" written in pyproject.toml, protocol/versions.py, server/health.py and
    server/bot.py; ops32: it is written once, RELEASE in protocol/versions.py, which pyproject.toml reads (so the
    distribution's metadata pip writes says the same; an editable install made before a change of it fails here:
    install again). The handshake's software of the client, the server's welcome, its bots and its health check
    all say it."""
    import importlib.metadata
    from pathlib import Path

    from dungeon_twister.client import session as client_session
    from dungeon_twister.protocol import versions
    from dungeon_twister.server import bot, health, session as server_session

    assert versions.release() == versions.RELEASE == importlib.metadata.version("dungeon-twister-online")
    assert {client_session.SOFTWARE.version, server_session.VERSION, bot.SOFTWARE.version,
            health.SOFTWARE.version} == {versions.RELEASE}
    # no other copy of the version in the code or in pyproject.toml: a release changes versions.py's line alone
    root = Path(__file__).parents[2]
    quoted = f'"{versions.RELEASE}"'
    copies = [(source.relative_to(root).as_posix(), line) for folder in ("engine", "protocol", "server", "client")
              for source in (root / folder).rglob("*.py")
              for line in source.read_text(encoding="utf-8").splitlines() if quoted in line]
    assert copies == [("protocol/versions.py", f"RELEASE = {quoted}")]
    assert quoted not in (root / "pyproject.toml").read_text(encoding="utf-8")


def test_no_command_prints_the_usage(capsys):
    assert app.main([]) == 2
    assert "usage: dt-client" in capsys.readouterr().out


def test_addresses():
    assert app.parse_address("example.org:7000") == ("example.org", 7000)
    assert app.parse_address("localhost") == ("localhost", 7777)
    assert app.parse_address("[::1]:9") == ("::1", 9)
    with pytest.raises(Exception):
        app.parse_address("host:99999")
    assert app.parse_address("::1") == ("::1", 7777)
    for wrong in ("127.0.0.1:abc", "127.0.0.1:", ":7801"):  # a play-test's: taken as host names before
        with pytest.raises(argparse.ArgumentTypeError, match="expected HOST:PORT"):
            app.parse_address(wrong)


def test_a_damaged_key_or_pin_file_is_a_sentence_naming_it_not_a_traceback(tmp_path, monkeypatch, capsys):
    """A play-test's identity.key holding "notakey" ended the client in a traceback; a known_servers file with a
    byte that is no UTF-8 too."""
    from dungeon_twister.client.identity import KEY_FILE
    from dungeon_twister.client.tls import KnownServers

    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    (tmp_path / "dt-client").mkdir()
    (tmp_path / "dt-client" / KEY_FILE).write_text("notakey\n")
    assert app.main(["connect", "127.0.0.1:1", "--name", "ann"]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"dt-client: {tmp_path / 'dt-client' / KEY_FILE} is not a key dt-client can read")
    assert "Traceback" not in err
    pins = tmp_path / "known_servers"
    pins.write_bytes(b"host:1 SHA256:aa\n\xff\xfe garbage\nhost:2 SHA256:bb\n")
    assert (KnownServers(pins).get("host:1"), KnownServers(pins).get("host:2")) == ("SHA256:aa", "SHA256:bb")


def test_a_key_copied_with_a_mode_others_may_read_goes_back_to_0600(tmp_path):
    """identity.key is made 0600; one copied from another machine (README: taking the name along) comes with the
    copy's mode, 0644 under the usual umask (play-test pt24 F6): it is read, and put back to 0600."""
    import os

    from dungeon_twister.client.identity import KEY_FILE, load_or_create, public_bytes

    made = load_or_create(tmp_path / "here")
    assert oct(os.stat(tmp_path / "here" / KEY_FILE).st_mode & 0o777) == "0o600"
    (tmp_path / "there").mkdir()
    copy = tmp_path / "there" / KEY_FILE
    copy.write_bytes((tmp_path / "here" / KEY_FILE).read_bytes())
    for mode in (0o644, 0o640, 0o604):
        copy.chmod(mode)
        assert public_bytes(load_or_create(tmp_path / "there")) == public_bytes(made)
        assert oct(os.stat(copy).st_mode & 0o777) == "0o600"
    copy.chmod(0o400)  # (the edge: a mode already private to its owner is left as it is)
    load_or_create(tmp_path / "there")
    assert oct(os.stat(copy).st_mode & 0o777) == "0o400"


def test_PD_TEAM_02_play_names_the_sets_in_use_and_the_team_building(capsys):
    """--sets base,prison,pd: any of the three sets, each mix to its set name; --teams free or mutual only with a
    mix, --teams scenario only with a scenario (refused before any server starts)."""
    assert app.parse_sets("base,prison,pd") == "all_sets" and app.parse_sets("pd") == "paladins"
    assert app.parse_sets("prison, paladins") == "prison_paladins" and app.parse_sets("pd,base") == "base_paladins"
    for wrong in ("", "base,chess", "cards"):
        with pytest.raises(argparse.ArgumentTypeError):
            app.parse_sets(wrong)
    assert app.main(["play", "--sets", "pd", "--teams", "free"]) == 2
    assert "--teams free is for a mixed set" in capsys.readouterr().err
    assert app.main(["play", "--set", "prison", "--sets", "base,pd"]) == 2
    assert "give --set or --sets" in capsys.readouterr().err
    assert app.main(["play", "--teams", "scenario"]) == 2  # PD-TEAM-SCEN-01: the scenario names the teams
    assert "name it with --scenario" in capsys.readouterr().err
    assert app.main(["play", "--scenario", "prison-1", "--teams", "free"]) == 2
    assert "a scenario imposes its teams" in capsys.readouterr().err


POLLS = 3000
"""Hang guards counted in polls, not seconds: each poll waits 10 ms or more, so a slow machine makes the polls
slower, never fewer (asyncio, threads and processes run on the real clock: trio's MockClock cannot drive them)."""


async def until(condition) -> None:
    for _ in range(POLLS):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"not there after {POLLS} polls")


async def finished(awaitable):
    """The result of `awaitable`, waited for by polls."""
    task = asyncio.ensure_future(awaitable)
    try:
        await until(task.done)
    finally:
        task.cancel() if not task.done() else None
    return await task


# --- local server -----------------------------------------------------------------------------------------
def fake_server_command(first_line: str) -> list[str]:
    script = f"import sys, time; print('starting', file=sys.stderr); print({first_line!r}, flush=True); time.sleep(60)"
    return [sys.executable, "-c", script]


def test_local_server_reports_its_port_and_is_stopped():
    server = LocalServer(fake_server_command("dt-server listening on 127.0.0.1:4242"))
    with server as address:
        process = server.process
        assert address == ("127.0.0.1", 4242)
        assert process.poll() is None
        assert "starting" in server.log_tail(), "stderr goes to the log"
    assert process.poll() is not None, "stopped on exit"
    assert not server.log_path.exists(), "a server we stopped leaves no log behind"


def test_each_local_server_has_data_of_its_own_for_its_run(tmp_path, monkeypatch):
    """`dt-client play`'s server has a data directory of its own under the client's state directory: a dt-server
    the same user runs (default data directory, locked) neither blocks it nor gets its bot games restored. It is
    made for the run and goes with the server: one kept from run to run restored the game the last run left, whose
    seat held the player's name, so the next `play` right after a `quit` was refused (name_taken, seen by hand);
    and two at a time meet no lock."""
    monkeypatch.setenv("DT_CLIENT_STATE_DIR", str(tmp_path))
    assert server_command(tmp_path / "x")[-2:] == ["--data", str(tmp_path / "x")]
    first, second = LocalServer(), LocalServer()
    with first as (host, port), second as (_, other_port):
        assert host == "127.0.0.1" and port > 0 and other_port not in (0, port)
        assert first.data != second.data and first.data.parent == second.data.parent == tmp_path
        assert (first.data / "dt-server.sqlite3").exists() and (second.data / "dt-server.sqlite3").exists()
        used = [first.data, second.data]
    assert not any(path.exists() for path in used)
    assert [path.name for path in tmp_path.iterdir()] == ["games"], "only the finished games' records stay"


def test_the_local_server_keeps_its_finished_games_records_where_the_client_says(tmp_path, monkeypatch, capsys):
    """Play-test pt27 F8: a game against the bot could not be watched again once the client was left: `play`'s
    server and its directory go with the game and no record file stayed. The embedded server writes each finished
    game's record into the client's state directory, `games/` (its records_dir), and `play` says on the way out
    which file is this run's, for `dt-client replay FILE`; a run that finished no game says nothing of it."""
    from dungeon_twister.client.local_server import games_dir, play_config
    from dungeon_twister.server.config import load_config

    monkeypatch.setenv("DT_CLIENT_STATE_DIR", str(tmp_path / "state ü"))
    config = play_config(tmp_path)
    assert server_command(tmp_path, config)[-2:] == ["--config", str(config)]
    assert load_config(config).records_dir == games_dir() == tmp_path / "state ü" / "games"
    # a player who leaves his game against the bot for a while finds it as he left it (a public server's
    # idle_minutes, 30 by default, does not apply to `play`'s own server)
    assert load_config(config).idle_minutes == 0
    older = games_dir() / "20261130-150000-t1-00000000.txt"
    older.parent.mkdir(parents=True)
    older.write_text("game seed=1\n")

    class Server:
        def __init__(self, data, player):
            pass

        def __enter__(self):
            return "127.0.0.1", 1

        def __exit__(self, *exc_info):
            return None

    def finished(session, host, port):  # the server writes the record when the game ends
        (games_dir() / "20261130-160000-t1-0a1b2c3d.txt").write_text("game seed=2\n")
        return 0

    monkeypatch.setattr("dungeon_twister.client.local_server.LocalServer", Server)
    monkeypatch.setattr(app, "run_client", finished)
    assert app.main(["play", "--name", "kim"]) == 0
    path = games_dir() / "20261130-160000-t1-0a1b2c3d.txt"
    assert capsys.readouterr().out == (f"the record of your game against the bot: {path} (dt-client replay "
                                       f"{path} steps through it again)\n")
    monkeypatch.setattr(app, "run_client", lambda session, host, port: 0)
    assert app.main(["play", "--name", "kim"]) == 0
    assert capsys.readouterr().out == "", "(the edge: no game finished in this run, no record named)"


def _kept_game(data, name: str, game: str, seat: bool = True):
    """A local game's directory as a run of `play` leaves it: what it asked for and, while the game is unfinished,
    the player's held seat."""
    from dungeon_twister.client.held import HeldSeat
    from dungeon_twister.client.local_server import remember_play, seat_file

    data.mkdir()
    remember_play(data, name, game)
    if seat:
        seat_file(data, name).save(HeldSeat("t1-0a1b2c3d", "B", "token-of-" + data.name))
    return data


def test_an_unfinished_local_game_is_found_again_and_finished_ones_are_removed(tmp_path, monkeypatch):
    """Play-test: a `dt-client play` game was lost for good when the client was killed, its data directory left
    behind for ever. A run's directory keeps the server's store, the held seat and what `play` asked for: the
    next `play` of the same player with the same options finds the newest such game; a directory without a held
    seat (the game ended, or the run stopped before it began) is removed; one a running server holds (its lock)
    is left alone, as are other players' and other options' unfinished games."""
    import fcntl
    import os

    from dungeon_twister.client.local_server import SERVER_LOCK, unfinished_game
    from dungeon_twister.server.storage import LOCK_NAME

    assert SERVER_LOCK == LOCK_NAME
    monkeypatch.setenv("DT_CLIENT_STATE_DIR", str(tmp_path))
    game = "TableOptions(beginner=True) seat=B bot=greedy"
    older = _kept_game(tmp_path / "local-server-a", "kim", game)
    newer = _kept_game(tmp_path / "local-server-b", "kim", game)
    os.utime(older, (1, 1))
    ended = _kept_game(tmp_path / "local-server-c", "kim", game, seat=False)
    other_name = _kept_game(tmp_path / "local-server-d", "lea", game)
    other_game = _kept_game(tmp_path / "local-server-e", "kim", "TableOptions() seat=B bot=greedy")
    running = _kept_game(tmp_path / "local-server-f", "kim", game)
    os.utime(running, (2 ** 31, 2 ** 31))  # the newest, but its server runs
    with (running / SERVER_LOCK).open("a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        assert unfinished_game("kim", game) == newer
    assert not ended.exists()
    assert all(path.exists() for path in (older, newer, other_name, other_game, running))
    assert unfinished_game("kim", "TableOptions(vp=6) seat=B bot=greedy") is None
    assert unfinished_game("lea", game) == other_name


def test_a_local_server_keeps_its_directory_while_the_players_game_is_unfinished(tmp_path, monkeypatch):
    """The embedded server's directory goes with it, unless the player's seat file is in it (his game did not
    end: a `quit` in the middle of it), so that the next `play` continues that game."""
    from dungeon_twister.client.local_server import seat_file

    monkeypatch.setenv("DT_CLIENT_STATE_DIR", str(tmp_path))
    kept = _kept_game(tmp_path / "local-server-kept", "kim", "g")
    with LocalServer(data=kept, player="kim") as (_, port):
        assert port > 0 and seat_file(kept, "kim").load() is not None
    assert kept.exists()
    with LocalServer(data=kept, player="kim"):
        seat_file(kept, "kim").clear()  # the game ended (or the player left it): the client deletes the file
    assert not kept.exists()


def test_play_continues_the_unfinished_game_unless_new(tmp_path, monkeypatch, capsys):
    """`dt-client play` with the options of an unfinished game resumes its seat (no new table is created, no bot
    seated: the server restores them), and says so; `--new` gives that game up and starts another. A run that
    leaves its game unfinished (`quit`) says on the way out that it is kept (play-test pt23: nothing was said)."""
    from dungeon_twister.client.local_server import seat_file, unfinished_game

    monkeypatch.setenv("DT_CLIENT_STATE_DIR", str(tmp_path))
    runs = []

    class Server:
        def __init__(self, data, player):
            runs.append((data, player))

        def __enter__(self):
            return "127.0.0.1", 1

        def __exit__(self, *exc_info):
            return None

    sessions = []
    monkeypatch.setattr("dungeon_twister.client.local_server.LocalServer", Server)
    monkeypatch.setattr(app, "run_client", lambda session, host, port: sessions.append(session) or 0)
    assert app.main(["play", "--beginner", "--name", "kim"]) == 0
    first, (data, player) = sessions[-1], runs[-1]
    assert player == "kim" and first.plan.then and first.setup.bot == "planner" and first.plan.resume is None
    assert capsys.readouterr().out == "", "no game was set up (no seat kept): nothing to continue"
    game = "TableOptions(target_vp=5, beginner=True, handicap=None, timers=False, private=False, set_name=None, " \
           "scenario=None, teams=None, game=None, tutorial=None, secret_objects=False) seat=B bot=planner"
    from dungeon_twister.client.held import HeldSeat

    seat_file(data, "kim").save(HeldSeat("t1-0a1b2c3d", "B", "kept-token"))  # what the session saves on joining
    assert unfinished_game("kim", game) == data
    assert app.main(["play", "--beginner", "--name", "kim"]) == 0
    again = sessions[-1]
    assert runs[-1][0] == data and not again.plan.then and again.setup is None
    assert again.plan.resume.token == "kept-token" and again.plan.resume.table == "t1-0a1b2c3d"
    assert "continuing your unfinished game against the bot" in again.state.log[-1]
    # the command to type again, as typed: without the --name given, `dt-client play` began another game (pt29 F18)
    assert capsys.readouterr().out == ("your game against the bot is kept: dt-client play --beginner --name kim "
                                       "continues it (--new starts another)\n")
    assert app.main(["play", "--beginner", "--name", "kim", "--new"]) == 0
    assert sessions[-1].plan.then and runs[-1][0] != data and not data.exists()


def test_local_server_that_does_not_announce_itself_is_an_error():
    server = LocalServer([sys.executable, "-c", "import sys; print('boom', file=sys.stderr)"])
    with pytest.raises(ServerStartError, match="it exited") as error:
        server.start()
    assert "boom" in str(error.value)
    assert server.log_path.exists(), "a server that stopped by itself keeps its log (it says why)"
    server.log_path.unlink()


def test_local_server_that_closes_its_output_before_it_exits_keeps_its_log():
    """The window that made the test above flaky under load: the server's stdout has closed (it is exiting) but the
    process has not ended yet when the client gives up on it. Its log (which says why) must stay, and the server is
    stopped. The child holds that window open for as long as the client takes to stop it."""
    child = "import os, sys, time; print('boom', file=sys.stderr); os.close(1); time.sleep(60)"
    server = LocalServer([sys.executable, "-c", child])
    with pytest.raises(ServerStartError, match="it exited") as error:
        server.start()
    assert "boom" in str(error.value)
    assert server.process is None, "stopped"
    assert server.log_path.exists()
    server.log_path.unlink()


# --- trio as a guest of asyncio ---------------------------------------------------------------------------
def test_trio_runs_as_a_guest_and_stops_when_cancelled():
    events = []

    async def trio_side(started: asyncio.Event) -> None:
        events.append(trio.lowlevel.current_trio_token() is not None)
        started.set()  # same thread: asyncio objects may be used from trio code
        await trio.sleep_forever()

    async def main() -> object:
        started = asyncio.Event()
        guest = TrioGuest()
        guest.start(trio_side, started)
        await until(started.is_set)
        guest.cancel()
        return await finished(guest.wait())

    assert asyncio.run(main()) is None
    assert events == [True]


def test_an_error_in_the_guest_reaches_the_host():
    async def failing() -> None:
        await trio.sleep(0)
        raise ValueError("network bug")

    async def main() -> None:
        guest = TrioGuest()
        guest.start(failing)
        await guest.wait()

    with pytest.raises(ValueError, match="network bug"):
        asyncio.run(main())


def test_a_crash_of_the_networking_ends_the_ui_and_is_raised(monkeypatch):
    async def broken_network(*args: object) -> None:
        await trio.sleep(0)
        raise RuntimeError("network bug")

    monkeypatch.setattr("dungeon_twister.client.network.run_network", broken_network)
    with create_pipe_input() as pipe:
        ui = ClientUI(Session(ClientState("ann")), input=pipe, output=DummyOutput())
        with pytest.raises(RuntimeError, match="network bug"):
            asyncio.run(finished(app._run(ui, ui.session, "localhost", 1)))


def polled_get(answers: queue.Queue):
    """One poll of a queue filled by another thread: its item, or None after 10 ms."""
    try:
        return answers.get(timeout=0.01)
    except queue.Empty:
        return None


# --- the whole client -------------------------------------------------------------------------------------
class ThreadedFakeServer:
    """A TCP server in its own thread and trio run: welcomes one client, lists one table, echoes chat."""

    def __init__(self) -> None:
        self.port: queue.Queue[int] = queue.Queue()
        self.received: list = []
        self.thread = threading.Thread(target=trio.run, args=(self._main,), daemon=True)

    async def _main(self) -> None:
        listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
        self.port.put(listeners[0].socket.getsockname()[1])
        stream = await listeners[0].accept()
        connection = ServerConnection()
        async with stream:
            while data := await stream.receive_some():
                connection.receive_data(data)
                while (event := connection.next_event()) is not None:
                    self.received.append(event)
                    for answer in self._answers(connection, event):
                        await stream.send_all(answer)

    def _answers(self, connection: ServerConnection, event) -> list[bytes]:
        if connection.hello is not None and connection.version is None:
            return [connection.answer_hello(Software("fake", "1"), "s-1")]
        if isinstance(event, ListTables):
            table = TableInfo("t-7", TableOptions(beginner=True), "waiting", 0, blue="bob")
            return [connection.send(Tables((table,)))]
        if isinstance(event, Chat):
            return [connection.send(ChatMessage("ann", event.text))]
        return []


def test_the_client_talks_to_a_server_through_trio_while_prompt_toolkit_runs_on_asyncio():
    server = ThreadedFakeServer()
    server.thread.start()
    port = next((port for port in (polled_get(server.port) for _ in range(POLLS)) if port is not None), None)
    assert port is not None, f"the fake server did not start in {POLLS} polls"
    session = Session(ClientState("ann"))
    session.state.server = f"127.0.0.1:{port}"

    with create_pipe_input() as pipe:
        ui = ClientUI(session, input=pipe, output=DummyOutput())

        async def script() -> None:
            await until(lambda: session.state.tables)
            pipe.send_text("chat hi there\r")
            await until(lambda: session.state.chat)
            pipe.send_text("quit\r")

        async def main() -> None:
            user = asyncio.ensure_future(script())
            await finished(app._run(ui, session, "127.0.0.1", port))
            await user

        asyncio.run(main())
    assert [info.table for info in session.state.tables] == ["t-7"]
    assert list(session.state.chat) == ["ann: hi there"]
    assert Chat("hi there") in server.received
    for _ in range(POLLS):
        server.thread.join(0.01)
        if not server.thread.is_alive():
            break
    assert not server.thread.is_alive(), "the client closed its connection when quitting"


@pytest.mark.parametrize("name, why", [
    ("ev\x1b[31mil", "a name may not contain control, format or bidi characters"),
    ("rtl\u202eabc", "a name may not contain control, format or bidi characters"),
    ("ann ", "a name may not start or end with spaces"),
    ("\u0430nn", "a name may not mix Latin, Greek and Cyrillic letters (they look alike)"),
    ("greedy-bot-3", "names ending in -bot-<number> are reserved for the server's bots"),
])
def test_a_name_the_server_would_refuse_is_refused_on_the_command_line(name, why, capsys):
    """A play-test's `--name` with a bidi character, a space at its end or a Cyrillic a was refused only by the
    server, once connected, and the player told to quit and restart: the client checks the protocol's rule
    (protocol/names.py) on the command line, in the reader's language."""
    with pytest.raises(SystemExit) as info:
        app.main(["connect", "127.0.0.1:1", "--name", name])
    assert info.value.code == 2 and why in capsys.readouterr().err
    with pytest.raises(SystemExit):
        app.main(["--lang", "de", "play", "--name", "ann "])
    assert "ein Name darf nicht mit Leerzeichen beginnen oder enden" in capsys.readouterr().err


def test_each_commands_help_says_what_it_does_and_what_its_values_mean(capsys):
    """A play-test read `--help` of every command: `play` and `discover` had no description (their line of the
    command list was not shown), `--teams` left the Card Game's full and draft unexplained, `--name` did not say
    its default, and the replay's keys were only on its screen and in the README."""
    for command, said in (("play", "play against a bot on a local server"),
                          ("discover", "list the servers of the local network (LAN parties)")):
        with pytest.raises(SystemExit):
            app.main([command, "--help"])
        out = capsys.readouterr().out
        assert out.split("\n\n")[1].strip() == said, command  # (after the usage, before the options)
    with pytest.raises(SystemExit):
        app.main(["play", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "or draft (picked in turn, each pick taking the other's same card out, CG-SEL-DRAFT-01)" in out
    assert f"your display name (default: your login name, {app.default_name()})" in out
    with pytest.raises(SystemExit):
        app.main(["replay", "--help"])
    assert "keys: → or space, the next action" in " ".join(capsys.readouterr().out.split())


def test_the_command_line_imports_nothing_heavy_before_it_is_needed():
    """`dt-client --help` answers at once: parsing the command line imports no protocol, engine, trio or
    prompt_toolkit (checked by the modules loaded, not by a clock); `--version` (ops32: 0.5 s before, the protocol
    package's whole import for its versions module, then importlib.metadata) imports the versions module alone."""
    heavy = ("'trio', 'prompt_toolkit', 'msgpack', 'cryptography', 'importlib.metadata', 'dungeon_twister.engine', "
             "'dungeon_twister.protocol'")
    loaded = {}
    for option in ("--help", "--version"):
        code = ("import sys\nfrom dungeon_twister.client import app\n"
                f"try:\n    app.main(['{option}'])\nexcept SystemExit:\n    pass\n"
                f"heavy = ({heavy})\n"
                "print(sorted(m for m in sys.modules if m.split('.')[0] in heavy or m.startswith(heavy)))\n")
        result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
        loaded[option] = result.stdout.strip().splitlines()[-1]
    assert loaded == {"--help": "[]", "--version": "['dungeon_twister.protocol', 'dungeon_twister.protocol.versions']"}
    from dungeon_twister.protocol import DEFAULT_PORT
    from dungeon_twister.protocol.kinds import NAME, TABLE_ID
    assert app.DEFAULT_PORT == DEFAULT_PORT
    assert (app.NAME_LIMIT, app.TABLE_LIMIT) == (NAME.max_len, TABLE_ID.max_len)


def test_an_idle_client_redraws_nothing_until_something_counts_down():
    """prompt_toolkit's refresh_interval redrew the whole screen twice a second for ever (~6% of a core for an idle
    client at a 230x60 terminal); the UI's ticker redraws only while the timers or a reconnection count down, and
    a timer's only when the second it shows turns (once a second: a timed table's idle client took ~7% of a core
    at two redraws a second)."""
    from dungeon_twister.client.state import Reconnecting
    from dungeon_twister.client.ui import REFRESH_SECONDS, TICK_MARGIN

    now = [0.0]
    with create_pipe_input() as pipe:
        ui = ClientUI(Session(ClientState("ann")), input=pipe, output=DummyOutput(), clock=lambda: now[0])
    assert ui.app.refresh_interval in (None, 0)
    redraws, slept = [], []
    ui.app.invalidate = lambda: redraws.append(len(slept))

    def ticks(n: int):
        async def sleep(seconds: float) -> None:
            slept.append(seconds)
            if len(slept) > n:
                raise StopAsyncIteration  # ends the ticker's loop after n periods
        slept.clear()
        redraws.clear()
        with pytest.raises(StopAsyncIteration):
            asyncio.run(ui._tick(sleep))
        return list(redraws)

    assert ticks(4) == []  # idle: nothing on screen changes with time alone
    ui.state.timers = {"B": 100.0}
    assert ticks(4) == [1, 2, 3, 4] and slept == [1.0 + TICK_MARGIN] * 5  # a whole second: it turns in 1 s
    ui.state.timers = {"B": 100.25, "Y": 30.5}
    assert ui.next_redraw() == 0.25 + TICK_MARGIN  # Blue shows 1:41 until 100.25 - 100 = 0.25 s from now
    now[0] = 30.75
    assert abs(ui.next_redraw() - (0.5 + TICK_MARGIN)) < 1e-9, "Yellow's clock ran out: Blue's next second"
    now[0] = 200.0
    assert ui.next_redraw() == REFRESH_SECONDS, "every clock shows 0:00"
    ui.state.timers = {}
    ui.state.reconnecting = Reconnecting("connection reset", 2, 10.0, None)
    assert ticks(3) == [1, 2, 3]


def test_discover_prints_what_the_lan_answered_as_the_screens_show_names(capsys, monkeypatch):
    """Found by a review: `dt-client discover` printed each server's name (any machine of the LAN may answer) raw
    to the terminal, where an escape sequence in it would act, and padded it by its characters, so a wide-character
    name pushed the connect line right. Names are shown as every screen shows them (printable.py: a control
    character as an escape), in a column counted in cells."""
    from dungeon_twister.client import discovery

    async def found(port, wait):
        return [discovery.Found("evil\x1b[2Jname", "192.0.2.9:7777", "SHA256:ab\x07"),
                discovery.Found("张伟的服务器", "192.0.2.8:7777", None)]

    monkeypatch.setattr(discovery, "discover", found)
    assert app.discover_command(argparse.Namespace(port=7777, wait=1.0)) == 0
    first, second = capsys.readouterr().out.splitlines()
    assert "\x1b" not in first and "\x07" not in first and first.startswith("evil\\x1b[2Jname")
    assert first.endswith("dt-client connect 192.0.2.9:7777 · TLS SHA256:ab\\x07")
    from prompt_toolkit.utils import get_cwidth
    assert [get_cwidth(line[:line.index("dt-client")]) for line in (first, second)] == [25, 25], "one column"


def test_discover_with_no_answer_names_both_reasons(capsys, monkeypatch):
    """Play-test pt26 F12: `dt-client discover --port 7908` against a server whose discovery is off was told to try
    --port N, the port it had typed: a server with discovery off answers nothing, which is said too."""
    from dungeon_twister.client import discovery

    async def nothing(port, wait):
        return []

    monkeypatch.setattr(discovery, "discover", nothing)
    assert app.discover_command(argparse.Namespace(port=7908, wait=1.0)) == 1
    assert capsys.readouterr().out == (
        "no server answered on UDP port 7908 (a server started with --port N answers on N: try --port N; one "
        "started with discovery off answers nothing: ask for its address)\n")


@pytest.mark.parametrize("argv, why", [
    (["--port", "99999"], "expected a port from 1 to 65535, got '99999'"),
    (["--port", "0"], "expected a port from 1 to 65535, got '0'"),
    (["--wait", "-1"], "expected seconds, 0 or more, got '-1'"),
    (["--wait", "nan"], "expected seconds, 0 or more, got 'nan'"),
])
def test_discover_refuses_a_port_or_a_wait_it_cannot_use(capsys, argv, why):
    """Play-test pt27 F14: `dt-client discover --port 99999` ended in a traceback (OverflowError from sendto), and
    `--wait -1` in another (trio's ValueError): both are refused on the command line, as `connect` refuses a port
    out of range, before anything is sent."""
    with pytest.raises(SystemExit) as info:
        app.main(["discover", *argv])
    err = capsys.readouterr().err
    assert info.value.code == 2 and why in err and "Traceback" not in err


def test_without_a_terminal_the_client_says_so(capsys):
    """A play-test ran `dt-client connect` from a script: prompt_toolkit's EOFError traceback."""
    from dungeon_twister.client.session import Session
    from dungeon_twister.client.state import ClientState

    assert app.run_client(Session(ClientState("ann")), "127.0.0.1", 1) == 2  # (pytest's stdin is no terminal)
    assert capsys.readouterr().err == ("dt-client: the client reads keys from a terminal and draws on one: run it "
                                       "in a terminal\n")


def test_spectate_a_private_table_with_its_code(monkeypatch, tmp_path):
    """A private table is not listed, and `--spectate TABLE` had no way to give its join code (a play-test fell
    back to the lobby with "table ... is private: it takes its join code"): --code gives it."""
    from dungeon_twister.protocol import Spectate

    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    started = []
    monkeypatch.setattr(app, "run_client", lambda session, host, port, *connect: started.append(session) or 0)
    assert app.main(["connect", "127.0.0.1:7777", "--name", "cy", "--spectate", "t2-dc2cedcd",
                     "--code", "1f3473e9"]) == 0
    assert started[0].plan.then == (Spectate("t2-dc2cedcd", join_code="1f3473e9"),)


def test_output_cut_short_by_its_reader_stops_quietly(tmp_path):
    """Play-test pt23: `dt-client verify FILE | head -2` could end in a BrokenPipeError traceback. A reader that
    leaves (here before the first line) stops the client quietly, with the exit status of a process killed by
    SIGPIPE (141), as `dt-engine` and Unix tools do."""
    import os
    import subprocess

    record = tmp_path / "game.txt"
    record.write_text("game seed=1 vp=5\n")
    process = subprocess.Popen([sys.executable, "-m", "dungeon_twister.client", "verify", str(record)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, env={**os.environ, "LANGUAGE": "it"})
    process.stdout.close()  # the reader leaves before the client writes
    err = process.stderr.read()
    assert (process.wait(), err) == (141, b"")
