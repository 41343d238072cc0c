"""The dt-server command: `dt-server [--host 0.0.0.0] [--port 7777] [--config FILE]`.

On startup it prints one line to stdout, `dt-server listening on HOST:PORT`; logs go to stderr as JSON lines.
SIGINT or SIGTERM shut it down gracefully (every client gets server_closing).
"""

from __future__ import annotations

import argparse
import signal
import sys
import tomllib
from pathlib import Path

import trio

from .config import ServerConfig, load_config, with_overrides
from .logs import log, setup_logging
from .server import Server


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="dt-server", description="Dungeon Twister Online lobby and game server.")
    parser.add_argument("--host", help="address to listen on (default 0.0.0.0)")
    parser.add_argument("--port", type=int, help="TCP port (default 7777; 0: any free port)")
    parser.add_argument("--config", type=Path, help="a TOML settings file (see deploy/dt-server.example.toml)")
    parser.add_argument("--log-level", default="INFO", choices=["DEBUG", "INFO", "WARNING", "ERROR"])
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    try:
        config = load_config(args.config) if args.config else ServerConfig()
        config = with_overrides(config, host=args.host, port=args.port)
    except (OSError, ValueError, tomllib.TOMLDecodeError) as error:
        print(f"dt-server: {error}", file=sys.stderr)
        sys.exit(2)
    setup_logging(args.log_level)
    try:
        trio.run(serve, config)
    except OSError as error:
        print(f"dt-server: {error}", file=sys.stderr)
        sys.exit(1)


async def serve(config: ServerConfig) -> None:
    """Serve until SIGINT or SIGTERM, then shut down gracefully."""
    with trio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
        server = Server(config)
        async with trio.open_nursery() as nursery:
            await nursery.start(server.run)
            host, port = server.address
            print(f"dt-server listening on {f'[{host}]' if ':' in host else host}:{port}", flush=True)
            async for signum in signals:
                log("signal", signal=signal.Signals(signum).name)
                await server.shutdown()
                break
