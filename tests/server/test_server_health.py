"""`dt-server health` (server/health.py): a container's health check asks the lobby for its welcome."""

import socket

from dungeon_twister.server.health import check
from test_server_support import running_server


async def test_a_running_server_is_healthy_and_a_closed_port_is_not(autojump_clock):
    async with running_server() as server:
        assert await check("127.0.0.1", server.port) is None
        assert await check("127.0.0.1", server.port) is None  # each check under a name of its own
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    problem = await check("127.0.0.1", port)
    assert problem is not None and problem.startswith(f"cannot connect to 127.0.0.1:{port}")


def test_the_command_exits_1_with_the_reason(capsys):
    import pytest

    from dungeon_twister.server.app import main

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(SystemExit) as exit_info:
        main(["health", "--port", str(port), "--timeout", "2"])
    assert exit_info.value.code == 1 and "cannot connect" in capsys.readouterr().err


async def test_a_health_check_logs_at_debug_and_a_client_that_does_more_is_logged_as_any(autojump_clock, caplog):
    """pt21 A6: each `dt-server health` (a container's HEALTHCHECK, every 30 s) logged `connected` and
    `disconnected` at info: about 5,800 lines a day. Its hello (client `dt-server-health`) and its end are debug
    lines now. A client that calls itself so and then asks anything is logged `connected` at info when it does,
    so that the name hides no one."""
    import logging

    import trio

    from dungeon_twister.protocol import ListTables, SpectatorConnection, Tables, Welcome
    from dungeon_twister.server.health import SOFTWARE
    from test_server_support import Client

    caplog.set_level(logging.DEBUG, logger="dungeon_twister.server")
    async with running_server() as server:
        assert await check("127.0.0.1", server.port) is None
        await trio.sleep(1)
        checked = [(r.getMessage(), r.levelno) for r in caplog.records]
        assert ("connected", logging.DEBUG) in checked and ("disconnected", logging.DEBUG) in checked
        assert [r for r in caplog.records if r.levelno >= logging.INFO and r.fields.get("name", "")
                and r.fields["name"].startswith("health-")] == []
        caplog.clear()
        conn = SpectatorConnection()
        sneaky = Client(await trio.open_tcp_stream("127.0.0.1", server.port), conn, "health-0")
        await sneaky.send_raw(conn.send_hello("health-0", SOFTWARE))
        await sneaky.expect(Welcome)
        assert [(r.getMessage(), r.levelno) for r in caplog.records] == [("connected", logging.DEBUG)]
        await sneaky.send(ListTables())
        await sneaky.expect(Tables)
        await sneaky.stream.aclose()
        await trio.sleep(1)
    lines = [(r.getMessage(), r.levelno) for r in caplog.records if r.fields.get("name") == "health-0"]
    assert lines == [("connected", logging.DEBUG), ("connected", logging.INFO), ("disconnected", logging.INFO)]
    (gone,) = [r for r in caplog.records if r.getMessage() == "disconnected" and r.fields.get("name") == "health-0"]
    assert gone.fields["address"] == "127.0.0.1"


def test_the_command_reads_host_and_port_from_the_servers_config_file(tmp_path, capsys):
    """Play-test pt26 F12: an admin whose port is in the config file had to repeat it (`--port`); `--config`
    reads it, a wildcard host checked on this machine's loopback, and `--port` still overrides the file."""
    import pytest

    from dungeon_twister.server.app import main

    with socket.socket() as probe:  # a port nothing listens on: the command must have tried that one
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    (tmp_path / "dt.toml").write_text(f'host = "0.0.0.0"\nport = {port}\n')
    with pytest.raises(SystemExit) as exit_info:
        main(["health", "--config", str(tmp_path / "dt.toml"), "--timeout", "2"])
    assert exit_info.value.code == 1
    assert f"cannot connect to 127.0.0.1:{port}" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_info:
        main(["health", "--config", str(tmp_path / "dt.toml"), "--port", "1", "--timeout", "2"])
    assert "cannot connect to 127.0.0.1:1" in capsys.readouterr().err
    (tmp_path / "bad.toml").write_text('port = "x"\n')
    with pytest.raises(SystemExit) as exit_info:
        main(["health", "--config", str(tmp_path / "bad.toml")])
    assert exit_info.value.code == 2 and "setting 'port' has the wrong type" in capsys.readouterr().err

