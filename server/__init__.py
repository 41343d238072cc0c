"""The Dungeon Twister Online lobby and game server (trio): tables, seats, spectators, bots, timers.

Run it with `dt-server` (see app.py) or embed it with `Server(ServerConfig(...)).run`.
"""

from .config import ServerConfig, load_config
from .server import Server

__all__ = ["Server", "ServerConfig", "load_config"]
