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
