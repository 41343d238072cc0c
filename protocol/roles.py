"""The three roles of a connection's ends."""

from enum import StrEnum


class Role(StrEnum):
    SERVER = "server"
    PLAYER = "player"
    SPECTATOR = "spectator"


CLIENT_ROLES = frozenset({Role.PLAYER, Role.SPECTATOR})
ALL_ROLES = frozenset(Role)
