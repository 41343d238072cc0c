"""Lines of sight read from a seat's view, for what holds a view and not a state: the client, to warn before a
fireball spent on nobody (play-test pt28b), and the bots. The rules are `Board.sight_line`'s (BG-LOS-01..04: a line
stops at a wall, a closed portcullis, a face-down room or the board's edge; PR-SLIT-03, PR-LOS-04: an arrow slit
lets it through only from the square beside it; PD-TERR-FOG-02, PD-GLOS-03: it enters no fog, 3D obstacle,
fountain or rubble) and `abilities.burn`'s (the first square with a character stops it; a Fire Shield there spares
them, PD-OBJ-FIRESHIELD-01, but not a Ghost alone, who carries nothing, PD-CHAR-GHOST-03), read from the view's own
keys (docs/protocol.md, the board view). Everything it reads is public: what the view shows anyone at the table."""

from __future__ import annotations

from typing import NamedTuple

from .catalogue import load
from .geometry import DIRECTIONS, ROOM, edge, square_name, square_of_name

OPAQUE_TERRAIN = ("fog", "obstacles", "fountains")


class Hit(NamedTuple):
    """What a fireball or a breath meets: `square` the square that stops it with characters on it (None: it meets
    none), `victims` their token ids (a wounded one carried there included), `shielded` whether a Fire Shield there
    spares them."""

    square: str | None
    victims: tuple[str, ...]
    shielded: bool


def sight_line(view: dict, square: str, direction: str) -> list[str]:
    """The squares a line of sight from `square` towards `direction` ("n", "e", "s", "w") crosses, in order, as
    `Board.sight_line` gives them, from the view's rooms, walls, portcullises, arrow slits, terrain and illusions."""
    height = ROOM * int(view.get("rows") or 0)
    revealed = {room.get("slot") for room in view.get("rooms") or () if isinstance(room, dict) and room.get("revealed")}

    def open_ground(sq) -> bool:
        x, y = sq
        if not 0 <= x < 2 * ROOM or not -1 <= y <= height:
            return False
        return y in (-1, height) or f"{'AB'[x // ROOM]}{y // ROOM + 1}" in revealed

    def edges(pairs) -> set:
        out = set()
        for a, b, *_ in pairs:
            sa, sb = square_of_name(str(a)), square_of_name(str(b))
            if sa is not None and sb is not None:
                out.add(edge(sa, sb))
        return out

    walls = edges(view.get("walls") or ())
    closed = edges(p for p in view.get("portcullises") or () if len(p) > 2 and p[2] == "closed")
    slits = edges(view.get("slits") or ())
    terrain = view.get("terrain") or {}
    opaque = {sq for kind in OPAQUE_TERRAIN for sq in terrain.get(kind, ())}
    opaque |= {sq for sq, _, kind in view.get("illusions") or () if kind == "rubble"}
    dx, dy = DIRECTIONS[direction]
    start = current = square_of_name(square)
    if start is None or not open_ground(start):
        return []
    out = []
    while True:
        nxt = (current[0] + dx, current[1] + dy)
        if not open_ground(nxt):
            break  # the board's edge, or a face-down room
        crossed = edge(current, nxt)
        if crossed in walls or crossed in closed or (crossed in slits and current != start):
            break
        name = square_name(nxt)
        if name in opaque:
            break
        out.append(name)
        current = nxt
    return out


def first_hit(view: dict, source: str, direction: str) -> Hit | None:
    """What a fireball or a breath of the figure `source` (a token id on the board) towards `direction` meets, read
    from `view`; None if the view does not show `source` on a square."""
    tokens = [t for t in view.get("tokens") or () if isinstance(t, dict)]
    me = next((t for t in tokens if t.get("id") == source), None)
    if me is None or not isinstance(me.get("square"), str) or direction not in DIRECTIONS:
        return None
    catalogue = load(view.get("set")) if view.get("set") else None
    objects = catalogue.objects if catalogue is not None else {}
    kinds = catalogue.characters if catalogue is not None else {}
    for square in sight_line(view, me["square"], direction):
        here = [t for t in tokens if t.get("square") == square]
        characters = [t for t in here if t.get("character") is not False]
        if not characters:
            continue
        # as `abilities.burn`: a Fire Shield there spares them only if one of them may carry it (not the Ghost,
        # "no_carry", PD-CHAR-GHOST-03), and a Ghost standing over a wounded friend dies alone (he carries nothing)
        carriers = [t for t in characters if t.get("code") not in kinds or "no_carry" not in kinds[t["code"]].abilities]
        figures = [t for t in characters
                   if t.get("character") is True and not t.get("wounded") and not t.get("face_down")]
        shielded = bool(carriers) and any(t.get("character") is False and t.get("code") in objects
                                          and "fire_shield" in objects[t["code"]].abilities for t in here)
        if not shielded and figures and not any(t in figures for t in carriers):
            characters = figures
        return Hit(square, tuple(t.get("id") for t in characters), shielded)
    return Hit(None, (), False)
