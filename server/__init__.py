"""The Dungeon Twister Online lobby and game server (trio): tables, seats, spectators, bots, timers.

Run it with `dt-server` (see app.py) or embed it with `Server(ServerConfig(...)).run`.
"""

__all__ = ["Server", "ServerConfig", "load_config"]


def __getattr__(name: str):
    """`Server`, `ServerConfig` and `load_config`, imported when first asked for (PEP 562): the `dt-server` command's
    `--help` and `--version` import this package, and need none of the server (ops31: 0.6 s of imports)."""
    if name == "Server":
        from .server import Server

        return Server
    if name in ("ServerConfig", "load_config"):
        from . import config

        return getattr(config, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
