"""Starting and stopping: the dt-server command, graceful shutdown, a slow spectator dropped (never the game)."""

import json
import os
import re
import socket
import signal
import subprocess
import sys
import tomllib
from dataclasses import fields
from pathlib import Path

import pytest
import trio
import trio.testing
from dungeon_twister.protocol import (
    Joined,
    ServerClosing,
    Snapshot,
    Software,
    Spectate,
    SpectatorConnection,
    TableOptions,
    Welcome,
)
from dungeon_twister.server.config import ServerConfig, config_from_mapping, load_config
from test_server_support import HANG_GUARD, REAL_TIME_HANG_GUARD, Client, running_server, seated_pair


async def test_shutdown_sends_server_closing_to_every_client(autojump_clock):
    with trio.fail_after(HANG_GUARD):
        async with running_server() as server:
            table, blue, yellow = await seated_pair(server, TableOptions(beginner=True))
            idle = await Client.connect(server, "idle")
            watcher = await Client.connect(server, "watcher", "spectator", memory=True)
            await watcher.send(Spectate(table))
            await watcher.expect(Snapshot)
            await server.shutdown("maintenance")
            for client in (blue, yellow, idle, watcher):
                closing = await client.expect(ServerClosing)
                assert closing.reason == "maintenance"
                assert await client.recv() is None  # and the connection is closed
            with pytest.raises(OSError):
                await trio.open_tcp_stream("127.0.0.1", server.port)  # no longer accepting


async def test_a_spectator_too_slow_to_read_is_dropped_and_the_game_goes_on(autojump_clock):
    with trio.fail_after(HANG_GUARD):
        async with running_server(seeds=(12, 1, 2), outbox_frames=8) as server:
            table = server.lobby.create_table(TableOptions(beginner=True), None)
            stream = server.connect_memory(lockstep=True)  # the server's writes wait for this client's reads
            conn = SpectatorConnection()
            await stream.send_all(conn.send_hello("sleepy", Software("dt-test", "0")))
            events = []
            while not any(isinstance(e, Snapshot) for e in events):
                conn.receive_data(await stream.receive_some(65536))
                while (event := conn.next_event()) is not None:
                    events.append(event)
                    if isinstance(event, Welcome):
                        await stream.send_all(conn.send(Spectate(table.id)))
            assert any(isinstance(e, Joined) for e in events)
            watcher = await Client.connect(server, "watcher", "spectator")  # a spectator that keeps up
            await watcher.send(Spectate(table.id))
            for seat in ("B", "Y"):
                server.lobby.spawn_bot(table, seat, "random", f"bot-{seat}")
            while "sleepy" in server.lobby.names:  # stops reading: dropped once 8 frames are queued
                await watcher.recv()
            dropped_at = watcher.conn.last_event
            while watcher.conn.last_event < dropped_at + 100:
                assert await watcher.recv() is not None
            assert table.spectators.keys() == {s for s in server.sessions if s.name == "watcher"}


EXAMPLE = Path(__file__).parents[2] / "deploy" / "dt-server.example.toml"


def test_config_files_are_checked():
    example = load_config(EXAMPLE)
    assert example.port == 7777 and example.records_dir == Path("/var/lib/dt-server/records")
    # the switches take TOML booleans (every one was refused as "the wrong type"), and only they do
    assert (example.tls, example.discovery) == (False, True)
    assert config_from_mapping({"tls": True, "discovery": False}) == ServerConfig(tls=True, discovery=False)
    # the example shows every key: set, or commented out where any value changes what the server does (`database`:
    # PostgreSQL instead of the data directory's file; `unbound_proofs`: left out, it follows `tls`), each
    # commented one a valid setting once uncommented
    text = EXAMPLE.read_text()
    commented = tomllib.loads("\n".join(line[2:] for line in text.splitlines() if re.match(r"# [a-z_]+ = ", line)))
    assert set(commented) == {"database", "unbound_proofs"}
    assert config_from_mapping(commented).database.startswith("postgresql:")
    assert {f.name for f in fields(ServerConfig)} <= set(tomllib.loads(text)) | set(commented), "the example: every key"
    assert config_from_mapping({"port": 0, "name": "club", "records_dir": "games"}).records_dir.name == "games"
    for bad in ({"port": "7777"}, {"colour": "blue"}, {"grace_seconds": -1}, {"ping_interval": True}, {"port": True},
                {"tls": 1}, {"tls": "yes"}, {"grace_seconds": 7 * 24 * 3600 + 1}, {"bot_pace": -0.1},
                {"bot_pace": 10.5}, {"bot_pace": "0.3"}):
        with pytest.raises(ValueError):
            config_from_mapping(bad)
    # said as TOML writes it, with what is expected (a play-test read "the wrong type: True")
    with pytest.raises(ValueError, match=r"^setting 'grace_seconds' has the wrong type: true \(expected an integer\)$"):
        config_from_mapping({"grace_seconds": True})
    assert ServerConfig().port == 7777 and ServerConfig().grace_seconds == 60
    # a bot's pace (review lk31): a number of seconds, 0 to 10, an integer too; 0.3 by default and in the example
    assert (ServerConfig().bot_pace, example.bot_pace) == (0.3, 0.3)
    assert config_from_mapping({"bot_pace": 0}).bot_pace == 0 and config_from_mapping({"bot_pace": 10}).bot_pace == 10
    # max_queued_bytes: one connection's outbox (4 frame limits, and as much being written) must fit in the budget
    with pytest.raises(ValueError, match=r"^max_queued_bytes must be 0 \(64 times max_frame_size\) or at least 8 "):
        config_from_mapping({"max_queued_bytes": 8 * 1048576 - 1})
    assert config_from_mapping({"max_queued_bytes": 8 * 1048576}).max_queued_bytes == 8 * 1048576
    with pytest.raises(ValueError, match=r"^max_tables_per_hour must be 0 \(no limit\) or more$"):
        config_from_mapping({"max_tables_per_hour": -1})
    # moderation (play-test ad29): lists of strings, kept as tuples; an address or network that is neither refused
    moderated = config_from_mapping({"reserved_names": ["admin"], "banned_names": [],
                                     "banned_addresses": ["203.0.113.7", "198.51.100.0/24", "2001:db8::/32"]})
    assert moderated.reserved_names == ("admin",) and moderated.banned_addresses[1] == "198.51.100.0/24"
    with pytest.raises(ValueError, match=r"^setting 'banned_names' has the wrong type: a list with an item that is "
                                         r"not a string \(expected a list of strings\)$"):
        config_from_mapping({"banned_names": ["rude", 3]})
    with pytest.raises(ValueError, match=r"^setting 'reserved_names' has the wrong type: 'admin' \(expected a list "):
        config_from_mapping({"reserved_names": "admin"})
    # a name no player could take is a typo, refused with its key (the admin thought " admin" was reserved): empty,
    # longer than a hello's 32 characters, or refused at every hello (protocol/names.py); 32 characters pass
    for key, name, why in (("reserved_names", "", "it is empty"),
                           ("banned_names", "x" * 33, "it is longer than 32 characters"),
                           ("reserved_names", " admin", "a name may not start or end with spaces"),
                           ("banned_names", "rude\u202e", "a name may not contain control, format or bidi characters"),
                           ("reserved_names", "greedy-bot-1", "names ending in -bot-<number> are reserved for the "
                                                              "server's bots"),
                           ("banned_names", "b\u043eb", "a name may not mix Latin, Greek and Cyrillic letters")):
        with pytest.raises(ValueError) as refused:
            config_from_mapping({key: ["admin", name]})
        assert str(refused.value).startswith(f"{key}: {name!r} is not a name a player could take: {why}")
    assert config_from_mapping({"reserved_names": ["x" * 32, "Zoë"]}).reserved_names == ("x" * 32, "Zoë")
    with pytest.raises(ValueError, match=r"^banned_addresses: '203\.0\.113\.300' is not an IP address or network"):
        config_from_mapping({"banned_addresses": ["203.0.113.300"]})
    with pytest.raises(ValueError, match=r"^max_new_names_per_hour must be 0 \(no limit\) or more$"):
        config_from_mapping({"max_new_names_per_hour": -1})
    # a bound said with its own setting's name (play-test ad29: one sentence named three settings); the edge passes
    with pytest.raises(ValueError, match=r"^max_connections must be 1 or more \(it is -5\)$"):
        config_from_mapping({"max_connections": -5})
    with pytest.raises(ValueError, match=r"^outbox_frames must be 8 or more \(it is 7\)$"):
        config_from_mapping({"outbox_frames": 7})
    assert config_from_mapping({"outbox_frames": 8, "max_frame_size": 1024}).outbox_frames == 8
    # the longest grace a `joined` can tell (found by an audit: a week and a second was accepted, and no player
    # was then told he had joined: the message could not be sent)
    assert config_from_mapping({"grace_seconds": 7 * 24 * 3600}).grace_seconds == 7 * 24 * 3600


SILENCE_SECONDS = 120.0
"""Real seconds: the only real-clock limit of these tests, a pure hang guard for a real subprocess (MockClock cannot
speed up another process). The tests are bounded by events (a line, a Welcome, a ServerClosing, the exit); the
guard fires only after this long with nothing at all arriving from the process."""


@pytest.fixture
def silence_guard_clock():
    """Mock time stands still while anything happens; it jumps (to the fail_after below) only once the loop has
    waited SILENCE_SECONDS real seconds for the subprocess without a byte or an exit."""
    return trio.testing.MockClock(autojump_threshold=SILENCE_SECONDS)


def test_a_server_on_every_address_says_what_the_players_of_its_network_type():
    """Play-test pt24 F16: `dt-server --host 0.0.0.0` printed "listening on 0.0.0.0:7810", no address a LAN
    party's host could give the players. The next line gives this machine's address on its network (the route's
    source address: no packet is sent), and `dt-client discover` when the server answers it."""
    import ipaddress

    from dungeon_twister.server.app import wildcard_hint
    from dungeon_twister.server.discovery import lan_address

    address = lan_address()
    assert address is None or not ipaddress.ip_address(address).is_loopback
    assert wildcard_hint("192.0.2.2", 7810, True) == ("players on this network: `dt-client connect 192.0.2.2:7810`, "
                                                      "or find it with `dt-client discover --port 7810`")
    assert wildcard_hint(None, 7810, False) == "players on this network: `dt-client connect THIS-MACHINE:7810`"
    assert wildcard_hint(None, 7810, True, "Address already in use") == (  # (adm33b: its UDP port held)
        "players on this network: `dt-client connect THIS-MACHINE:7810` (LAN discovery is off: UDP port 7810: "
        "Address already in use)")


@pytest.mark.parametrize("stop, status", [("SIGTERM", 0), ("SIGHUP", 1)])
async def test_the_command_prints_its_address_and_stops_on_sigterm(tmp_path, silence_guard_clock, stop, status):
    """It stops gracefully on SIGTERM, and on SIGHUP too (play-test ad29: a closed terminal or `kill -HUP` killed
    it on the spot, no log line, its clients not told), then with exit status 1, so that systemd's
    Restart=on-failure starts it again as it did after the kill."""
    config = tmp_path / "dt-server.toml"
    config.write_text('name = "club-server"\nport = 7777\ngrace_seconds = 30\n')
    command = [sys.executable, "-m", "dungeon_twister.server", "--host", "127.0.0.1", "--port", "0",
               "--config", str(config), "--data", str(tmp_path / "data")]
    with trio.fail_after(1):  # mock seconds: reached only through silence_guard_clock's jump
        async with trio.open_nursery() as nursery:
            process = await nursery.start(lambda task_status: trio.run_process(
                command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False, task_status=task_status))
            line = b""
            while not line.endswith(b"\n"):
                line += await process.stdout.receive_some(1)
            host, port = line.decode().removeprefix("dt-server listening on ").strip().rsplit(":", 1)
            assert line.startswith(b"dt-server listening on ") and host == "127.0.0.1" and int(port) > 0
            stream = await trio.open_tcp_stream(host, int(port))
            conn = SpectatorConnection()
            await stream.send_all(conn.send_hello("ann", Software("dt-test", "0")))
            got = []
            while not any(isinstance(e, Welcome) for e in got):
                conn.receive_data(await stream.receive_some(65536))
                got += iter(conn.next_event, None)
            assert got[0].server.name == "club-server"
            process.send_signal(getattr(signal, stop))
            while not any(isinstance(e, ServerClosing) for e in got):
                data = await stream.receive_some(65536)
                assert data
                conn.receive_data(data)
                got += iter(conn.next_event, None)
            assert await process.wait() == status
            stderr = await process.stderr.receive_some(1 << 20)
    logs = [json.loads(line) for line in stderr.decode().splitlines()]
    assert {"listening", "connected", "signal", "stopped"} <= {entry["event"] for entry in logs}
    assert [entry["signal"] for entry in logs if entry["event"] == "signal"] == [stop]
    # the last line, after the lines of the connections and tables the stop ended (play-test pt26 F10: `stopped`
    # came first, then `disconnected` ... "server closing")
    assert logs[-1]["event"] == "stopped" and any(entry["event"] == "disconnected" for entry in logs)
    assert all({"ts", "level", "event"} <= set(entry) for entry in logs)


def test_a_bad_config_file_is_reported(tmp_path):
    config = tmp_path / "bad.toml"
    config.write_text("port = 'seven'\n")
    result = subprocess.run([sys.executable, "-m", "dungeon_twister.server", "--config", str(config)],
                            capture_output=True, text=True, timeout=SILENCE_SECONDS)  # hang guard
    assert result.returncode == 2 and "port" in result.stderr and result.stdout == ""


def test_a_config_files_error_names_the_file(tmp_path, capsys):
    """pt21 A7: a TOML syntax error was reported as `dt-server: Invalid initial character for a key part (at line 2,
    column 3)`, without the file's name; a wrong setting now names it too."""
    from dungeon_twister.server.app import main

    config = tmp_path / "bad.toml"
    for text, said in (("port = 7777\n  = 3\n", "not valid TOML: "), ("max_conections = 5\n",
                                                                       "unknown setting(s): max_conections\n")):
        config.write_text(text)
        with pytest.raises(SystemExit) as exit_info:
            main(["--config", str(config)])
        assert exit_info.value.code == 2
        err = capsys.readouterr().err
        assert err.startswith(f"dt-server: {config}: {said}")  # (tomllib's own words differ between versions)
        assert err.endswith("\n") and (said.endswith("\n") or err.endswith(" (at line 2, column 3)\n"))


def test_a_settings_file_that_cannot_be_read_is_named_with_why(tmp_path, capsys):
    """adm33: `dt-server --config nope.toml` said `dt-server: [Errno 2] No such file or directory: 'nope.toml'`
    (and `records`, `stats` and `prune` the same): the file named as for any bad settings file, with the system's
    reason and no errno, exit status 2. A directory given for the file likewise."""
    from dungeon_twister.server.app import main

    for path, why in ((tmp_path / "nope.toml", "No such file or directory"), (tmp_path, "Is a directory")):
        for argv in (["--config", str(path)], ["records", "--config", str(path)]):
            with pytest.raises(SystemExit) as exit_info:
                main(argv)
            assert exit_info.value.code == 2
            assert capsys.readouterr().err == f"dt-server: {path}: the settings file cannot be read: {why}\n"


def test_a_reserved_or_banned_name_no_player_could_take_stops_the_start(tmp_path, capsys):
    """srv30: reserved_names and banned_names were taken as they were, a typo (" admin", "") reserving nothing
    while the admin thought it did. A bad entry is a bad settings file: the file and the key named, exit status 2
    (the settings are read first: `settings`, which does not start the server whatever it reads)."""
    from dungeon_twister.server.app import parse_args, settings

    config = tmp_path / "moderated.toml"
    config.write_text('reserved_names = ["admin"]\nbanned_names = ["rude", ""]\n')
    with pytest.raises(SystemExit) as exit_info:
        settings(parse_args(["--config", str(config)]))
    assert exit_info.value.code == 2
    assert capsys.readouterr().err == (f"dt-server: {config}: banned_names: '' is not a name a player could take: "
                                       "it is empty\n")
    config.write_text('reserved_names = ["admin"]\nbanned_names = ["rude"]\n')
    assert settings(parse_args(["--config", str(config)])).banned_names == ("rude",)


async def test_host_colon_colon_listens_on_ipv4_too(autojump_clock):
    """A play-test's `--host ::` listened on IPv6 only, while LAN discovery (IPv4) handed players an IPv4 address
    that refused them: "::" is every address, IPv4 included."""
    from test_server_support import Client, running_server

    async with running_server(host="::") as server:
        ann = await Client.connect(server, "ann")  # over 127.0.0.1
        assert ann.conn.state.value == "lobby"
        # the address it says it listens on (the `listening` line, the printed one) is "::", every address, where
        # IPv6 is there (play-test ad29: "0.0.0.0", the first listener's, read as "IPv6 off"); else 0.0.0.0
        try:
            with socket.socket(socket.AF_INET6) as probe:
                probe.bind(("::1", 0))
            expected = "::"
        except OSError:
            expected = "0.0.0.0"
        assert server.address == (expected, server.port)


def test_a_records_dir_that_cannot_be_used_stops_the_start(tmp_path, capsys):
    """Play-test pt26: `records_dir` naming a file, or a directory that cannot be made, started the server without
    a word, and each finished game's record was lost to a `record_not_written` warning. It is now made (0700, as a
    record's writing makes it) and checked at the start, exit status 2 (bad settings: the unit does not restart)."""
    from dungeon_twister.server.app import check_records_dir, main

    a_file = tmp_path / "records.txt"
    a_file.write_text("")
    config = tmp_path / "dt-server.toml"
    for directory, said in ((a_file, "is not a directory"), (a_file / "records", "Not a directory")):
        config.write_text(f"records_dir = '{directory}'\ndata_dir = '{tmp_path / 'data'}'\n")
        with pytest.raises(SystemExit) as exit_info:
            main(["--config", str(config), "--port", "0"])
        assert exit_info.value.code == 2
        err = capsys.readouterr().err
        assert err.startswith(f"dt-server: records_dir '{directory}' cannot be used: ") and said in err
    assert not (tmp_path / "data").exists()  # (stopped before the store was opened)
    records = tmp_path / "new" / "records"
    check_records_dir(records)
    assert records.is_dir() and records.stat().st_mode & 0o777 == 0o700
    check_records_dir(None)


def test_a_data_directory_dt_server_makes_is_private_whoever_makes_it_first(tmp_path):
    """adm33: with the example config (records_dir inside data_dir) and a data directory not made yet, the start
    made it 0755: the records_dir's check, first, made the missing parents with the default mode, and only the
    records directory 0700 (the TLS certificate's writing, first with a PostgreSQL store, likewise). Every
    directory dt-server makes on the way is 0700 now, under the usual umask 022."""
    from dungeon_twister.server.app import check_records_dir
    from dungeon_twister.server.tls import ensure_certificate

    kept = tmp_path / "kept"
    kept.mkdir(mode=0o755)
    before = os.umask(0o022)
    try:
        check_records_dir(tmp_path / "data" / "records")
        check_records_dir(kept / "records")
        ensure_certificate(tmp_path / "tls-only")
    finally:
        os.umask(before)
    for made in (tmp_path / "data", tmp_path / "data" / "records", kept / "records", tmp_path / "tls-only"):
        assert made.stat().st_mode & 0o777 == 0o700, made
    assert kept.stat().st_mode & 0o777 == 0o755  # (a directory that was there keeps its mode: the admin's)


def test_dt_server_help_and_version_import_nothing_heavy():
    """ops31: `dt-server --help` imported the whole server (the package's __init__ and app.py's imports: trio, the
    engine, the protocol, cryptography), 0.6 s; now parsing the command line imports none of it (checked by the
    modules loaded, not by a clock), and `--version` still prints the release. ops32: `--version` took 0.5 s more
    (the protocol package's whole import for its versions module, then importlib.metadata); now it loads that
    module alone."""
    loaded = {}
    for option in ("--help", "--version"):
        code = ("import sys\nfrom dungeon_twister.server import app\n"
                f"try:\n    app.main(['{option}'])\nexcept SystemExit:\n    pass\n"
                "heavy = ('trio', 'msgpack', 'cryptography', 'sqlite3', 'importlib.metadata', "
                "'dungeon_twister.engine', 'dungeon_twister.protocol', 'dungeon_twister.server.')\n"
                "print(sorted(m for m in sys.modules if m.split('.')[0] in heavy or m.startswith(heavy)))\n")
        result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
        loaded[option] = result.stdout.strip().splitlines()[-1]
        if option == "--help":
            assert "--config CONFIG" in result.stdout
    assert loaded == {"--help": "['dungeon_twister.server.app']", "--version": str(
        ["dungeon_twister.protocol", "dungeon_twister.protocol.versions", "dungeon_twister.server.app"])}
    from dungeon_twister.protocol.versions import release

    version = subprocess.run([sys.executable, "-m", "dungeon_twister.server", "--version"], capture_output=True,
                             text=True, check=True)
    assert version.stdout == f"dt-server {release()}\n"


def test_a_host_that_is_no_address_is_a_settings_error_before_anything_is_made(tmp_path):
    """adm33: `host = "0.0.0.0.1"` exited 1 ("cannot listen ...: Name or service not known"), a state that passes,
    which the unit's Restart=on-failure retried for ever, and the TLS certificate was made first. A host that is no
    address is a bad setting: exit 2 (RestartPreventExitStatus), one line, nothing made in the data directory. Its
    edge: an IP address this machine does not have (EADDRNOTAVAIL, its network not up yet at boot) stays exit 1."""
    data = tmp_path / "data"
    for host in ("0.0.0.0.1", "300.1.2.3", "1::2::3"):
        result = subprocess.run([sys.executable, "-m", "dungeon_twister.server", "--host", host, "--port", "0",
                                 "--data", str(data), "--tls"], capture_output=True, text=True,
                                timeout=REAL_TIME_HANG_GUARD)
        assert (result.returncode, result.stdout) == (2, ""), (host, result)
        assert result.stderr == (f"dt-server: host {host!r} is not an IP address: give one of this machine's "
                                 "addresses (0.0.0.0 or :: for every one)\n")
        assert not data.exists(), "no certificate, no store made"
    result = subprocess.run([sys.executable, "-m", "dungeon_twister.server", "--host", "198.51.100.7", "--port", "0",
                             "--data", str(data)], capture_output=True, text=True, timeout=REAL_TIME_HANG_GUARD)
    assert result.returncode == 1 and result.stderr.startswith(
        "dt-server: cannot listen on 198.51.100.7:0: Cannot assign requested address"), result


def test_a_host_name_that_does_not_resolve_is_a_settings_error_and_one_not_resolved_yet_is_not(monkeypatch, capsys):
    """A name the resolver says has no address (NXDOMAIN: EAI_NONAME) is a bad setting, exit 2; one it cannot
    resolve for now (EAI_AGAIN: no DNS yet at boot) goes on to the listen, whose failure is exit 1 (retried)."""
    from dungeon_twister.server.app import check_host

    def resolver(errno):
        def getaddrinfo(*args, **kwargs):
            raise socket.gaierror(errno, {socket.EAI_NONAME: "Name or service not known"}.get(
                errno, "Temporary failure in name resolution"))
        return getaddrinfo

    monkeypatch.setattr(socket, "getaddrinfo", resolver(socket.EAI_NONAME))
    with pytest.raises(SystemExit) as exited:
        check_host("dt.example.invalid", 7777)
    assert exited.value.code == 2
    assert capsys.readouterr().err == ("dt-server: host 'dt.example.invalid' is not a name this machine resolves "
                                       "(Name or service not known): give one of this machine's addresses (0.0.0.0 "
                                       "or :: for every one)\n")
    monkeypatch.setattr(socket, "getaddrinfo", resolver(socket.EAI_AGAIN))
    check_host("dt.example.org", 7777)  # (no exit)
    monkeypatch.undo()
    for host in ("0.0.0.0", "::", "127.0.0.1", "127.1", "::1", "localhost"):
        check_host(host, 7777)
