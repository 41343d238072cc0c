"""What the server sends a seat, built with the server's own view function so the client tests follow the
contract the real server keeps (server/viewing.py)."""

from dungeon_twister.engine import parse_position
from dungeon_twister.server.viewing import ViewPoint, table_view


def seat_view(position: str, seat: str, *, seats: dict | None = None, table: dict | None = None) -> dict:
    """The view of `seat` in a position: the engine's view plus legal, secret, seats, table and started."""
    point = ViewPoint(parse_position(position), seats or {"B": "ann", "Y": "bob"}, table or {"id": "t-1"}, True)
    return table_view(point, seat)
