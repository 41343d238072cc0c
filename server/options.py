"""Table options: from the protocol's TableOptions to the engine's Options, and as plain data for views."""

from __future__ import annotations

from dungeon_twister.engine import Handicap, Options
from dungeon_twister.protocol import TableOptions


def engine_options(options: TableOptions) -> Options:
    """The engine options of a table; ValueError if the handicap map is malformed."""
    return Options(options.target_vp, options.beginner, handicap(options.handicap))


def handicap(raw: dict | None) -> Handicap | None:
    """{seat: "B"|"Y", characters: int, removed_cards: [int]} (characters defaults to 8, cards to none)."""
    if raw is None:
        return None
    seat, characters, cards = raw.get("seat"), raw.get("characters", 8), raw.get("removed_cards", [])
    if seat not in ("B", "Y"):
        raise ValueError('handicap.seat must be "B" or "Y"')
    if type(characters) is not int:
        raise ValueError("handicap.characters must be an int")
    if not isinstance(cards, list) or any(type(card) is not int for card in cards):
        raise ValueError("handicap.removed_cards must be a list of ints")
    return Handicap(seat, characters, tuple(cards))


def options_view(table_id: str, options: TableOptions) -> dict:
    """The "table" entry of a view: the table's id and options."""
    return {"id": table_id, "target_vp": options.target_vp, "beginner": options.beginner,
            "handicap": options.handicap, "timers": options.timers, "private": options.private}
