"""The admin's control socket of a running dt-server (server/admin.py, deploy/README.md "Moderation"): who, tables,
kick, end, say and reload, each logged; a malformed or hostile request closes its own control connection only;
every input bounded."""

from __future__ import annotations

import json
import logging
import os
import shutil
import socket
import stat
import tempfile
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
import trio

from dungeon_twister.protocol import (Announcement, ChatMessage, CreateTable, Error, GameOver, Join, Joined, Left,
                                      ListTables, OpponentLeft, PlayerConnection, Refused, ResumeInfo, TableCreated,
                                      TableOptions, Tables)
from dungeon_twister.protocol.versions import release
from dungeon_twister.protocol.views import ANNOUNCEMENTS
from dungeon_twister.server import Server
from dungeon_twister.server import admin as admin_module
from dungeon_twister.server.admin import (ADMIN_SOCKET, DEFAULT_KICK_MINUTES, IDLE_SECONDS, MAX_CONNECTIONS,
                                          MAX_KICK_MINUTES, MAX_LINE)

from test_server_support import (HANG_GUARD, REAL_TIME_HANG_GUARD, SOFTWARE, Client, running_server, seated_pair,
                                 to_the_first_turn, watching)


@pytest.fixture
def directory():
    """A short private directory (a Unix socket's path has at most 107 bytes: pytest's tmp_path may be longer)."""
    path = Path(tempfile.mkdtemp(prefix="dta-", dir="/tmp"))
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


@asynccontextmanager
async def admin_server(directory: Path, config_path: Path | None = None, **settings):
    """A server on a free local port with its control socket in `directory`."""
    async with running_server(admin_socket=directory / ADMIN_SOCKET, config_path=config_path, **settings) as server:
        yield server


class Control:
    """A control connection: one JSON line out, one JSON line back."""

    def __init__(self, stream) -> None:
        self.stream, self.buffer = stream, b""

    @classmethod
    async def open(cls, server: Server) -> Control:
        # (connected here: trio.open_unix_socket connects in a thread, which the mock clock's autojump does not wait
        # for; a Unix socket's connect is at once)
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.connect(str(server.admin_socket))
        sock.setblocking(False)
        await trio.lowlevel.checkpoint()
        return cls(trio.SocketStream(trio.socket.from_stdlib_socket(sock)))

    async def ask(self, request) -> dict:
        data = request if isinstance(request, bytes) else json.dumps(request).encode() + b"\n"
        await self.stream.send_all(data)
        return await self.answer()

    async def answer(self) -> dict:
        while b"\n" not in self.buffer:
            data = await self.stream.receive_some(65536)
            assert data, "closed before an answer"
            self.buffer += data
        line, _, self.buffer = self.buffer.partition(b"\n")
        return json.loads(line)

    async def closed(self) -> bool:
        """Whether the server ends the connection (nothing more but its end)."""
        try:
            return await self.stream.receive_some(65536) == b""
        except trio.BrokenResourceError:
            return True


async def ask(server: Server, request) -> dict:
    control = await Control.open(server)
    try:
        return await control.ask(request)
    finally:
        await control.stream.aclose()


def admin_lines(caplog) -> list[dict]:
    return [dict(record.fields, event=record.msg) for record in caplog.records
            if record.msg in ("admin", "admin_refused")]


async def test_the_socket_is_the_servers_users_alone_and_goes_with_the_server(directory, autojump_clock):
    """The file permission is the authentication: the socket is made 0600 (whatever the umask), a stale one (a
    killed server's) is replaced, and the file goes when the server stops."""
    path = directory / ADMIN_SOCKET
    stale = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    stale.bind(str(path))
    stale.close()  # (a socket file nobody listens on: what kill -9 leaves)
    mask = os.umask(0)
    try:
        with trio.fail_after(HANG_GUARD):
            async with admin_server(directory) as server:
                assert stat.S_IMODE(path.stat().st_mode) == 0o600 and stat.S_ISSOCK(path.stat().st_mode)
                assert (await ask(server, {"command": "who"}))["ok"]
    finally:
        os.umask(mask)
    assert not path.exists()


async def test_a_socket_another_server_answers_on_is_left_alone(directory, autojump_clock, caplog):
    """Two servers on one data directory (one of them on PostgreSQL): the second runs without a control socket, a
    warning says why, and the first keeps its own."""
    with trio.fail_after(HANG_GUARD):
        async with admin_server(directory) as first:
            async with admin_server(directory) as second:
                assert second.port
                assert any(record.msg == "admin_unavailable" for record in caplog.records)
                assert (await ask(first, {"command": "who"}))["ok"]


async def test_who_and_tables_list_the_connected_names_their_addresses_seats_and_the_tables(directory,
                                                                                             autojump_clock):
    with trio.fail_after(HANG_GUARD):
        async with admin_server(directory) as server:
            table, blue, yellow = await seated_pair(server, TableOptions(timers=True))
            watcher = await watching(server, table, "cy")
            lobby = await Client.connect(server, "dee")
            who = await ask(server, {"command": "who"})
            assert who["ok"] and who["unnamed"] == 0 and who["bots"] == 0 and who["held"] == []
            assert who["version"] == release()  # (ops31: the release running, after an upgrade)
            assert [(one["name"], one["address"], one["role"], one["table"], one["seat"]) for one in
                    who["connected"]] == [("ann", "127.0.0.1", "player", table, "B"),
                                          ("bob", "127.0.0.1", "player", table, "Y"),
                                          ("cy", "127.0.0.1", "spectator", table, None),
                                          ("dee", "127.0.0.1", "player", None, None)]
            tables = await ask(server, {"command": "tables"})
            [listed] = tables["tables"]
            assert listed["table"] == table and listed["status"] == "playing" and listed["spectators"] == 1
            assert listed["seats"] == {"B": {"name": "ann", "state": "connected"},
                                       "Y": {"name": "bob", "state": "connected"}}
            assert listed["options"] == {"target_vp": 5, "timers": True} and listed["creator"] == "ann"
            await yellow.close()
            await blue.expect(OpponentLeft)
            who = await ask(server, {"command": "who"})
            assert [(one["name"], one["table"], one["seat"], one["seconds"]) for one in who["held"]] == [
                ("bob", table, "Y", server.config.grace_seconds)]
            listed = (await ask(server, {"command": "tables"}))["tables"][0]
            assert listed["seats"]["Y"] == {"name": "bob", "state": f"away ({server.config.grace_seconds} s left)"}
            del watcher, lobby


async def test_kick_closes_the_names_connections_and_refuses_it_for_its_minutes(directory, autojump_clock, caplog):
    """`kick NAME --minutes N`: every connection of the name (in any spelling) gets the fatal error `kicked`, which
    says when it may come back, and is closed; a hello of the name is refused `kicked` until then. Its seat
    follows the ordinary rules: held grace_seconds, then the game is abandoned (the other player wins)."""
    caplog.set_level(logging.INFO, logger="dungeon_twister.server")
    with trio.fail_after(HANG_GUARD):
        async with admin_server(directory, grace_seconds=60) as server:
            table, blue, yellow = await seated_pair(server, TableOptions())
            await to_the_first_turn(table, blue, yellow)  # (left before it, a game is aborted)
            answer = await ask(server, {"command": "kick", "name": "BOB", "minutes": 5})
            assert answer == {"ok": True, "name": "BOB", "closed": 1, "minutes": 5,
                              "seats": [{"table": table, "seat": "Y"}], "grace_seconds": 60}
            error = await yellow.expect(Error)
            assert (error.code, error.fatal) == ("kicked", True)
            assert error.message == "the server's admin closed your connection: your name may connect again in 5 min"
            assert error.template and error.values == {"minutes": 5}
            assert await yellow.recv() is None
            assert (await blue.expect(OpponentLeft)).seat == "Y"
            again = await Client.connect(server, "bob", resume=ResumeInfo(yellow.token, table, 0), welcome=False)
            refused = await again.expect(Refused)
            assert (refused.code, refused.reason) == (
                "kicked", "the server's admin closed the connection of 'bob': it may connect again in 5 min")
            who = await ask(server, {"command": "who"})
            assert who["kicked"] == [{"name": "bob", "minutes": 5}]
            over = await blue.expect(GameOver)  # the grace ran out before the kick did: abandoned, as any drop
            assert (over.result["winner"], over.result["reason"]) == ("B", "abandoned")
            await trio.sleep(5 * 60 - server.config.grace_seconds)
            back = await Client.connect(server, "bob")  # the kick is over
            await back.send(ListTables())
            await back.expect(Tables)
    [line] = [line for line in admin_lines(caplog) if line.get("command") == "kick"]
    assert line["name"] == "BOB" and line["minutes"] == 5 and line["ok"] is True


async def test_a_kick_the_store_cannot_save_still_closes_and_refuses_the_name(directory, autojump_clock, monkeypatch,
                                                                              caplog):
    """Review rv31: with the store out of reach (a PostgreSQL server down), `kick` answered "internal error" and
    did nothing, the name still connected and free to come back. It now holds in the running server and says that
    a restart will not keep it; the edge: a kick the store saves says nothing of it."""
    from dungeon_twister.server.admin import _shown as said
    from dungeon_twister.server.storage import StorageError

    caplog.set_level(logging.INFO, logger="dungeon_twister.server")
    with trio.fail_after(HANG_GUARD):
        async with admin_server(directory) as server:
            bob = await Client.connect(server, "bob")
            saved = await ask(server, {"command": "kick", "name": "ann", "minutes": 5})
            assert "not_stored" not in saved and "not kept" not in said("kick", saved)

            def down(name, until):
                raise StorageError("connection refused")

            monkeypatch.setattr(server.lobby.store, "set_kick", down)
            answer = await ask(server, {"command": "kick", "name": "bob", "minutes": 5})
            assert answer["ok"] and answer["closed"] == 1 and answer["not_stored"] == "connection refused"
            assert said("kick", answer).endswith(
                "\nnot kept through a restart: the store could not save it (connection refused)")
            assert (await bob.expect(Error)).code == "kicked"
            again = await Client.connect(server, "bob", welcome=False)
            assert (await again.expect(Refused)).code == "kicked"
    assert [r.fields["name"] for r in caplog.records if r.getMessage() == "kick_not_stored"] == ["bob"]


async def test_a_kick_of_no_minutes_lets_the_player_resume_his_seat_at_once(directory, autojump_clock):
    """`--minutes 0`: the connections close, the name may connect again at once, and within the grace its seat is
    its own again (the game goes on)."""
    with trio.fail_after(HANG_GUARD):
        async with admin_server(directory) as server:
            table, blue, yellow = await seated_pair(server, TableOptions())
            assert (await ask(server, {"command": "kick", "name": "bob", "minutes": 0}))["closed"] == 1
            error = await yellow.expect(Error)
            assert error.message == "the server's admin closed your connection"
            again = await Client.connect(server, "bob", resume=ResumeInfo(yellow.token, table, 0))
            assert (await again.expect(Joined)).seat == "Y"
            assert not blue.events_of("game_over")
            assert (await ask(server, {"command": "kick", "name": "nobody-here"}))["closed"] == 0
            assert (await ask(server, {"command": "who"}))["kicked"] == [
                {"name": "nobody-here", "minutes": DEFAULT_KICK_MINUTES}]
            refused = await ask(server, {"command": "kick", "name": "planner-bot-3"})
            assert not refused["ok"] and "bot" in refused["error"]


async def test_end_ends_a_game_in_play_unrated_for_good(directory, autojump_clock):
    """`end TABLE` (its id or its number): the game in play ends without a winner, reason "ended by the server's
    admin", not rated; the players stay to read it. Durable: the store has it over, and a restart does not bring
    it back."""
    data = directory / "data"
    with trio.fail_after(HANG_GUARD):
        async with admin_server(directory, data_dir=data) as server:
            table, blue, yellow = await seated_pair(server, TableOptions())
            number = table[1:].partition("-")[0]
            assert await ask(server, {"command": "end", "table": number}) == {"ok": True, "table": table,
                                                                               "outcome": "ended"}
            for client in (blue, yellow):
                over = await client.expect(GameOver)
                assert over.result["winner"] is None and over.result["reason"] == "ended by the server's admin"
            assert server.storage.rating("ann") is None and server.storage.rating("bob") is None
            assert server.storage.table(table).status == "over"
            missing = await ask(server, {"command": "end", "table": "t999"})
            assert missing == {"ok": False, "error": "no open table 't999'"}
            await blue.close()
            await yellow.close()
        async with admin_server(directory, data_dir=data) as again:
            assert table not in again.lobby.tables
            assert again.storage.table(table).result["reason"] == "ended by the server's admin"


async def test_end_closes_a_table_before_its_game_sending_everyone_back_to_the_lobby(directory, autojump_clock):
    """A table whose game has not begun closes: its player and its spectator are sent `left`, then told why
    (`no_such_table`, with its template); the table is gone, and its creator may make another."""
    with trio.fail_after(HANG_GUARD):
        async with admin_server(directory) as server:
            ann = await Client.connect(server, "ann")
            await ann.send(CreateTable(TableOptions()))
            table = (await ann.expect(TableCreated)).table
            await ann.send(Join(table, "B"))
            token = (await ann.expect(Joined)).token
            watcher = await watching(server, table, "cy")
            assert (await ask(server, {"command": "end", "table": table}))["outcome"] == "closed"
            for client in (ann, watcher):
                await client.expect(Left)
                error = await client.expect(Error)  # (after `left`: a client says "left table ..." at `left`)
                assert (error.code, error.fatal) == ("no_such_table", False)
                assert error.message == f"the server's admin closed table {table}"
            assert table not in server.lobby.tables
            assert token not in server.lobby.tokens
            await ann.send(CreateTable(TableOptions()))  # back in the lobby, connected
            await ann.expect(TableCreated)
            assert (await ask(server, {"command": "tables"}))["tables"][0]["table"] != table


async def test_say_reaches_every_connected_client(directory, autojump_clock):
    """`say TEXT`: an `announcement` to each client that asked for the feature, in the lobby or at a table; a
    client without it gets a lobby chat line from the server's name. Control characters are cleaned as chat's."""
    with trio.fail_after(HANG_GUARD):
        async with admin_server(directory) as server:
            table, blue, yellow = await seated_pair(server, TableOptions(), features=(ANNOUNCEMENTS,))
            lobby = await Client.connect(server, "dee", conn=PlayerConnection(features=(ANNOUNCEMENTS,)))
            older = await Client.connect(server, "eve")
            answer = await ask(server, {"command": "say", "text": "restart\nin 5 min"})
            assert answer == {"ok": True, "sent": 4, "text": "restart in 5 min"}
            for client in (blue, yellow, lobby):
                assert (await client.expect(Announcement)).text == "restart in 5 min"
            chat = await older.expect(ChatMessage)
            assert (chat.sender, chat.text, chat.table) == ("dt-server", "restart in 5 min", None)


async def test_reload_takes_the_moderation_settings_of_the_file_anew(directory, autojump_clock):
    """`reload`: banned_addresses, banned_names and reserved_names of the settings file, without a restart; a
    connected name or address now banned is closed (`kicked`), and refused at its next hello; other settings
    changed in the file are listed for the next restart. A file that does not read changes nothing."""
    settings = directory / "dt-server.toml"
    settings.write_text('ping_interval = 0\nbot_pace = 0\nbanned_names = ["rude"]\n')
    with trio.fail_after(HANG_GUARD):
        async with admin_server(directory, config_path=settings, banned_names=("rude",)) as server:
            bob = await Client.connect(server, "bob")
            ann = await Client.connect(server, "ann")
            settings.write_text('ping_interval = 0\nbot_pace = 0\nbanned_names = ["rude", "BOB"]\n'
                                'reserved_names = ["admin"]\ngrace_seconds = 90\n')
            answer = await ask(server, {"command": "reload"})
            assert answer["ok"] and answer["changed"] == ["banned_names", "reserved_names"]
            assert answer["closed"] == ["bob"] and answer["restart_needed"] == ["grace_seconds"], answer
            assert answer["banned_names"] == ["rude", "BOB"] and answer["reserved_names"] == ["admin"]
            assert (await bob.expect(Error)).code == "kicked"
            refused = await Client.connect(server, "bob", welcome=False)
            assert (await refused.expect(Refused)).code == "bad_name"
            refused = await Client.connect(server, "Admin", welcome=False)
            assert (await refused.expect(Refused)).reason == "the name 'Admin' is reserved on this server"
            settings.write_text('ping_interval = 0\nbot_pace = 0\nbanned_addresses = ["127.0.0.0/8"]\n')
            answer = await ask(server, {"command": "reload"})
            assert answer["closed"] == ["ann"] and answer["banned_names"] == []
            assert (await ann.expect(Error)).code == "kicked"
            late = await Client.connect(server, "cy", welcome=False)
            assert (await late.expect(Refused)).code == "kicked"  # no welcome: refused, saying why
            settings.write_text("banned_addresses = [\n")
            broken = await ask(server, {"command": "reload"})
            assert not broken["ok"] and broken["error"].startswith("nothing changed: ")
            assert server.config.banned_addresses == ("127.0.0.0/8",)
    async with admin_server(directory) as server:  # started without --config
        answer = await ask(server, {"command": "reload"})
        assert not answer["ok"] and "without --config" in answer["error"]


@pytest.mark.parametrize("request_line", [
    b"who\n",                                                       # not JSON
    b"\xff\xfe{}\n",                                                # not UTF-8
    b'["who"]\n',                                                   # not a map
    b'{"command": "shutdown"}\n',                                   # no such command
    b'{"command": "who", "table": "t1"}\n',                         # a field it does not take
    b'{"command": "kick"}\n',                                       # no name
    b'{"command": "kick", "name": ""}\n',
    b'{"command": "kick", "name": "' + b"x" * 33 + b'"}\n',
    b'{"command": "kick", "name": "bob", "minutes": -1}\n',
    b'{"command": "kick", "name": "bob", "minutes": true}\n',
    b'{"command": "kick", "name": "bob", "minutes": 1.5}\n',
    b'{"command": "kick", "name": "bob", "minutes": %d}\n' % (MAX_KICK_MINUTES + 1),
    b'{"command": "end", "table": 7}\n',
    b'{"command": "say", "text": "\\u0000\\u202e  "}\n',            # nothing printable
    b'{"command": "say", "text": "' + b"x" * 501 + b'"}\n',
    b"x" * MAX_LINE,                                                # a line that never ends
])
async def test_a_malformed_request_closes_its_control_connection_only(directory, autojump_clock, caplog,
                                                                      request_line):
    """Answered `ok: false` with why, logged (`admin_refused`, a warning), then that connection is closed; the
    server, its players and another control connection go on."""
    with trio.fail_after(HANG_GUARD):
        async with admin_server(directory) as server:
            player = await Client.connect(server, "ann")
            other = await Control.open(server)
            hostile = await Control.open(server)
            answer = await hostile.ask(request_line)
            assert answer["ok"] is False and answer["error"]
            assert await hostile.closed()
            assert (await other.ask({"command": "who"}))["connected"][0]["name"] == "ann"
            await player.send(ListTables())
            await player.expect(Tables)
    assert any(line["event"] == "admin_refused" for line in admin_lines(caplog))


async def test_a_silent_or_greedy_control_client_is_bounded(directory, autojump_clock):
    """A control connection that sends nothing for IDLE_SECONDS is closed; beyond MAX_CONNECTIONS at once, a new one
    is closed as soon as it is accepted; a request that cannot be done (no such table) leaves the connection
    open for the next."""
    with trio.fail_after(HANG_GUARD):
        async with admin_server(directory) as server:
            silent = await Control.open(server)
            started = trio.current_time()
            assert not (await silent.answer())["ok"]
            assert await silent.closed() and trio.current_time() - started == pytest.approx(IDLE_SECONDS)
            many = [await Control.open(server) for _ in range(MAX_CONNECTIONS)]
            await many[-1].ask({"command": "who"})  # (all accepted by now)
            extra = await Control.open(server)
            assert await extra.closed()
            assert not (await many[0].ask({"command": "end", "table": "t5"}))["ok"]
            assert (await many[0].ask({"command": "who"}))["ok"]


async def test_the_command_line_talks_to_the_socket(directory, capsys):
    """`dt-server admin --socket PATH COMMAND`: the answer for a person (or --json), exit status 1 when refused or
    when no server answers. (The real clock: the command is a blocking client, run in a thread.)"""
    from dungeon_twister.server.app import main

    with trio.fail_after(REAL_TIME_HANG_GUARD):
        async with admin_server(directory) as server:
            ann = await Client.connect(server, "ann")
            path = str(server.admin_socket)
            await trio.to_thread.run_sync(main, ["admin", "--socket", path, "who"])
            out = capsys.readouterr().out
            assert out.startswith("ann\t127.0.0.1\tplayer\tlobby"), out
            assert out.endswith("bot(s); running dt-server " + release() + ")\n"), out
            await trio.to_thread.run_sync(main, ["admin", "--socket", path, "--json", "say", "hello", "all"])
            assert json.loads(capsys.readouterr().out) == {"ok": True, "sent": 1, "text": "hello all"}
            with pytest.raises(SystemExit) as exited:
                await trio.to_thread.run_sync(main, ["admin", "--socket", path, "end", "t42"])
            assert exited.value.code == 1 and "no open table 't42'" in capsys.readouterr().err
            await ann.close()
    with pytest.raises(SystemExit) as exited:
        main(["admin", "--data", str(directory), "who"])
    assert exited.value.code == 1 and "no dt-server answers" in capsys.readouterr().err
    assert admin_module.ADMIN_SOCKET in str(server.admin_socket)


def test_the_command_finds_the_data_directory_in_a_settings_file_being_fixed(directory, capsys):
    """`dt-server admin --config FILE` reads the file's data_dir alone, unchecked: a file with an invalid setting (the
    one `reload` is to refuse) still names the socket (found by hand: it exited 2 on the file's error, before
    `reload` could say it)."""
    from dungeon_twister.server.app import main

    settings = directory / "dt-server.toml"
    settings.write_text(f'data_dir = "{directory}"\nbanned_addresses = ["not-an-ip"]\n')
    with pytest.raises(SystemExit) as exited:
        main(["admin", "--config", str(settings), "reload"])
    assert exited.value.code == 1
    assert f"no dt-server answers at {directory / ADMIN_SOCKET}" in capsys.readouterr().err
    settings.write_text("data_dir = \n")
    with pytest.raises(SystemExit) as exited:
        main(["admin", "--config", str(settings), "who"])
    assert exited.value.code == 2 and "cannot read data_dir" in capsys.readouterr().err


async def test_an_end_that_fails_costs_the_table_nothing(directory, autojump_clock, monkeypatch):
    """A bug in handling `end` is a refused command and a `request_failed` line; the table goes on (its handling's
    error path answered the request's session, which an admin's request has none of: the table itself failed)."""
    from dungeon_twister.server.table import Table

    def broken(self):
        raise RuntimeError("a bug")

    with trio.fail_after(HANG_GUARD):
        async with admin_server(directory) as server:
            table, blue, yellow = await seated_pair(server, TableOptions())
            monkeypatch.setattr(Table, "_admin_end", broken)
            answer = await ask(server, {"command": "end", "table": table})
            assert not answer["ok"] and "did not take the request" in answer["error"]
            monkeypatch.undo()
            assert table in server.lobby.tables
            assert (await ask(server, {"command": "end", "table": table}))["outcome"] == "ended"
            assert (await blue.expect(GameOver)).result["reason"] == "ended by the server's admin"


@pytest.mark.parametrize("line", [b'{"command": "kick", "name": "ab\\ud800"}\n', b"[" * 4000 + b"\n"],
                         ids=["lone-surrogate", "nested-too-deep"])
async def test_one_hostile_request_closes_its_control_connection_not_the_server(directory, autojump_clock, line):
    """Review rv30: a kick of a name with a lone surrogate (its answer failed to encode) or a line of 4,000 "["
    (RecursionError in json.loads) raised out of the control connection's handler into the server's nursery: the
    whole server stopped, every game with it. Now the request is refused and the server, its players and its
    control socket go on."""
    with trio.fail_after(HANG_GUARD):
        async with admin_server(directory) as server:
            ann = await Client.connect(server, "ann")
            control = await Control.open(server)
            answer = await control.ask(line)
            assert answer["ok"] is False and answer["error"] in (
                "a request is one line of JSON (UTF-8)", "kick: a name may not contain control, format or bidi "
                "characters")
            assert await control.closed()
            await trio.sleep(1)
            who = await ask(server, {"command": "who"})
            assert who["ok"] and [entry["name"] for entry in who["connected"]] == ["ann"]
            await ann.send(ListTables())  # (ann's connection goes on)
            assert isinstance(await ann.expect(Tables), Tables)


async def test_a_bug_in_a_command_costs_its_control_connection_only(directory, autojump_clock, monkeypatch):
    """Whatever a command raises (here `tables`, broken on purpose) is logged and answered "internal error"; the
    server and the next control connection go on (review rv30: no safety net as Table.run and Session.run have)."""
    from dungeon_twister.server import admin

    def broken(self):
        raise KeyError("a bug")

    monkeypatch.setattr(admin.Admin, "tables", broken)
    with trio.fail_after(HANG_GUARD):
        async with admin_server(directory) as server:
            control = await Control.open(server)
            assert await control.ask({"command": "tables"}) == {"ok": False,
                                                               "error": "internal error (see the server's log)"}
            assert await control.closed()
            assert (await ask(server, {"command": "who"}))["ok"]


async def test_the_servers_own_name_is_reserved_so_nobody_speaks_as_the_admin(directory, autojump_clock):
    """Review rv30: `say` reaches a client without the feature `announcements` as a chat line from the server's
    name, "dt-server" by default, which a player could take and then chat as the admin. It is reserved now, in any
    spelling, as reserved_names are."""
    with trio.fail_after(HANG_GUARD):
        async with admin_server(directory) as server:
            for name in ("dt-server", "DT-Server"):
                conn = PlayerConnection()
                stream = await trio.open_tcp_stream("127.0.0.1", server.port)
                await stream.send_all(conn.send_hello(name, SOFTWARE))
                conn.receive_data(await stream.receive_some(65536))
                refused = conn.next_event()
                assert isinstance(refused, Refused) and refused.code == "bad_name"
                assert refused.reason == f"the name {name!r} is reserved on this server"
                await stream.aclose()
            assert (await Client.connect(server, "dt-servers")).name == "dt-servers"  # (another name)


async def test_an_end_the_table_is_too_busy_to_take_in_time_says_so_and_still_ends_it(directory, autojump_clock,
                                                                                      monkeypatch):
    """Review rv30 (A3): `end` waited END_SECONDS for the table's task, then answered "did not take the request",
    though the request stayed queued and the game ended later; and its wait for room in the table's inbox had no
    bound. Now the whole wait is bounded and its answer says what happens: the table ends it when it comes to it."""
    from dungeon_twister.server import admin
    from dungeon_twister.server.inbox import Inbox

    with trio.fail_after(HANG_GUARD):
        async with admin_server(directory) as server:
            table, blue, yellow = await seated_pair(server, TableOptions())
            gate, receive = trio.Event(), Inbox.receive
            inbox = server.lobby.tables[table]._inbox

            async def gated(box):  # the table's task takes nothing until the gate opens
                if box is inbox:
                    await gate.wait()
                return await receive(box)

            monkeypatch.setattr(Inbox, "receive", gated)
            await blue.send(ListTables())  # (a step of the table's task ends: its next receive is the gated one)
            await trio.testing.wait_all_tasks_blocked()
            answer = await ask(server, {"command": "end", "table": table})
            assert answer == {"ok": False, "error": f"table {table} is busy: it ends when it comes to the request "
                                                    "(see `tables`)"}
            assert trio.current_time() >= admin.END_SECONDS
            gate.set()
            assert (await blue.expect(GameOver)).result["reason"] == "ended by the server's admin"


async def test_a_table_the_store_stopped_is_listed_by_tables_and_who_until_it_comes_back(directory, autojump_clock,
                                                                                          monkeypatch):
    """adm33 filled the data directory's disk under a move: between `storage_failed` and `table_revived` the table is
    only in the store, and `tables` said "no open table" while `who` showed neither its players nor their seats.
    Both list it now, marked stopped by the store, its seats kept, and say what the admin can do; `end` of it says
    so rather than "no open table". Its edge: once the store answers and a resume brings the table back, it is
    listed once, in play again, and nothing is stopped any more."""
    from test_server_durable import teams_the_store_cannot_commit

    with trio.fail_after(HANG_GUARD):
        async with admin_server(directory, seeds=(21,), data_dir=directory / "data") as server:
            table, blue, yellow = await seated_pair(server, TableOptions(beginner=True))
            await teams_the_store_cannot_commit(blue, yellow, monkeypatch)
            while await blue.recv() is not None:
                pass
            assert table not in server.lobby.tables
            [listed] = (await ask(server, {"command": "tables"}))["tables"]
            assert (listed["table"], listed["status"], listed["stopped"], listed["turn"]) == (table, "playing", True,
                                                                                               None)
            assert listed["seats"] == {"B": {"name": "ann", "state": "kept"}, "Y": {"name": "bob", "state": "kept"}}
            shown = admin_module._shown("tables", {"ok": True, "tables": [listed]})
            assert shown.startswith(f"{table}\tstopped by the store (playing)\tB: ann (kept), Y: bob (kept)"), shown
            assert "free some space" in shown and "first resume" in shown
            who = await ask(server, {"command": "who"})
            assert who["stopped"] == [{"name": "ann", "table": table, "seat": "B"},
                                      {"name": "bob", "table": table, "seat": "Y"}] and who["held"] == []
            shown = admin_module._shown("who", who)
            assert f"ann\tstopped\t{table} B: seat kept, the table stopped by the store" in shown, shown
            ended = await ask(server, {"command": "end", "table": table})
            assert not ended["ok"] and ended["error"].startswith(f"table {table} is stopped by the store"), ended
            monkeypatch.undo()  # the disk has room again: a resume brings the table back
            back = await Client.connect(server, "ann", resume=ResumeInfo(blue.token, table, blue.conn.last_event))
            assert (await back.expect(Joined)).table == table
            [listed] = (await ask(server, {"command": "tables"}))["tables"]
            assert (listed["table"], listed["stopped"]) == (table, False) and listed["turn"] is not None
            assert listed["seats"]["B"] == {"name": "ann", "state": "connected"}
            assert (await ask(server, {"command": "who"}))["stopped"] == [] and server.lobby.stopped == {}


@pytest.mark.parametrize("argv, said", [
    (["kick", "rude", "--minutes", "99999"], f"kick's minutes must be a whole number from 0 to {MAX_KICK_MINUTES}"),
    (["kick", "rude", "--minutes", "-1"], "kick's minutes must be a whole number from 0 to"),
    (["kick", "x" * 33], "kick needs a name of 1 to 32 characters"),
    (["say", " "], "say needs a text of 1 to 500 characters"),
    (["say", "x" * 501], "say needs a text of 1 to 500 characters"),
    (["end", "t" * 65], "end needs a table"),
], ids=["kick-week", "kick-negative", "kick-long-name", "say-blank", "say-long", "end-long"])
def test_an_out_of_range_value_is_bad_usage_exit_2_before_the_server_is_asked(directory, capsys, argv, said):
    """adm33: `say ""` and `kick --minutes 99999` exited 1, the server refusing them (`admin_refused`), while the
    doc's exit statuses give 2 for bad usage (as argparse's own errors). The command checks a request as the server
    does before it sends it: exit 2, the bound named, nothing asked (no server needed). Its edge: a request in range
    goes to the server, and no server there is exit 1 as before."""
    from dungeon_twister.server.app import main

    path = str(directory / ADMIN_SOCKET)  # (nothing listens there)
    with pytest.raises(SystemExit) as exited:
        main(["admin", "--socket", path, *argv])
    err = capsys.readouterr().err
    assert exited.value.code == 2 and err.startswith(f"dt-server admin: {said}"), err
    with pytest.raises(SystemExit) as exited:
        main(["admin", "--socket", path, "kick", "rude", "--minutes", str(MAX_KICK_MINUTES)])
    assert exited.value.code == 1 and "no dt-server answers" in capsys.readouterr().err
