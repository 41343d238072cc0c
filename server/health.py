"""`dt-server health [--host H] [--port P] [--config FILE] [--timeout S]`: whether a server answers a spectator's hello with its
welcome in time. Exit status 0 if it does, 1 if not, with the reason on stderr: for a container's HEALTHCHECK
(deploy/Containerfile) or any monitor. A plain TCP connect would pass a server whose lobby no longer answers."""

from __future__ import annotations

import argparse
import secrets
import sys

import trio

from dungeon_twister.protocol import Error, ProtocolError, Refused, Software, SpectatorConnection, Welcome
from dungeon_twister.protocol.versions import release

SOFTWARE = Software("dt-server-health", release())


async def check(host: str, port: int) -> str | None:
    """None if the server at host:port welcomes a spectator; else what went wrong."""
    try:
        stream = await trio.open_tcp_stream(host, port)
    except OSError as error:
        return f"cannot connect to {host}:{port}: {error}"
    conn = SpectatorConnection()
    async with stream:
        await stream.send_all(conn.send_hello(f"health-{secrets.token_hex(4)}", SOFTWARE))
        while True:
            data = await stream.receive_some(65536)
            if not data:
                return "the server closed the connection before its welcome"
            conn.receive_data(data)
            while (event := conn.next_event()) is not None:
                if isinstance(event, Welcome):
                    return None
                if isinstance(event, (Error, ProtocolError)):
                    return f"the server answered with an error: {event.message}"
                if isinstance(event, Refused):
                    return f"the server refused the hello: {event.reason}"


WILDCARDS = {"0.0.0.0": "127.0.0.1", "::": "::1", "": "127.0.0.1"}
"""The address to check a server on that listens on every address of the machine (its `host` setting)."""


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="dt-server health", description="Is the server up and answering?")
    parser.add_argument("--host", help="the server's address (default 127.0.0.1, or the config file's host)")
    parser.add_argument("--port", type=int, help="its TCP port (default 7777, or the config file's port)")
    parser.add_argument("--config", help="the server's TOML settings file, for its host and port (play-test pt26: "
                        "an admin whose port was in the file had to repeat it)")
    parser.add_argument("--timeout", type=float, default=5.0, help="seconds to wait for the welcome (default 5)")
    args = parser.parse_args(argv)
    if not args.timeout > 0:
        parser.error("--timeout takes a number of seconds above 0")
    host, port = "127.0.0.1", 7777
    if args.config:
        from .config import load_config

        try:
            config = load_config(args.config)
        except (OSError, ValueError) as error:
            parser.error(str(error))
        host, port = WILDCARDS.get(config.host, config.host), config.port
    args.host = args.host or host
    args.port = port if args.port is None else args.port

    async def run() -> str | None:
        with trio.move_on_after(args.timeout):
            return await check(args.host, args.port)
        return f"no welcome within {args.timeout:g} s"

    problem = trio.run(run)
    if problem is not None:
        print(f"dt-server health: {problem}", file=sys.stderr)
        sys.exit(1)
    print(f"dt-server health: {args.host}:{args.port} answers")
