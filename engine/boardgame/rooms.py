"""Revealing, placing and rotating rooms (BG-REVEAL, BG-ROT, BG-OPT-03)."""

from __future__ import annotations

from .actions import PassPlacement, Place, Reveal, Rotate
from .board import Board
from .context import Ctx
from ..core.errors import N_, IllegalAction
from .geometry import ROOM, Square, rotate_offset, slot_name, square_name, square_of_name
from .state import GameState, Placement, Token, opponent, room_place


def start_rooms(state: GameState, seat: str) -> list[tuple[int, int]]:
    row = 0 if seat == "B" else state.rows - 1
    return [(0, row), (1, row)]


def has_access(state: GameState, board: Board, figure: Token, slot: tuple[int, int]) -> bool:
    """BG-REVEAL-02/03: direct access to a face-down room.

    Only the revealed side's walls are known, so only they can deny access (docs/rulings.md, DT-004).
    """
    return slot in _access_slots(state, board, figure)


def start_zone_rooms(state: GameState, figure: Token) -> list[tuple[int, int]]:
    """The rooms a figure on its own start zone has direct access to: both rooms touching the start zone
    (BG-REVEAL-03, the base set) or only the one in front of its square (PR-CORE-05), as the set's ruleset flag
    `reveal_from_start_zone` says (RUL-004)."""
    rooms = start_rooms(state, figure.colour)
    if state.catalogue.flag("reveal_from_start_zone", "both") == "nearest":
        return [slot for slot in rooms if slot[0] == figure.square[0] // ROOM]
    return rooms


def reveal(ctx: Ctx, action: Reveal) -> None:
    s = ctx.s
    if not (0 <= action.slot[0] < 2 and 0 <= action.slot[1] < s.rows):
        raise IllegalAction("BG-GEO-02", "there is no such room")
    place = s.room_at(action.slot)
    if place.revealed:
        raise IllegalAction("BG-REVEAL-10", "room {slot} is already revealed", slot=slot_name(action.slot))
    figure = ctx.token(action.token)
    ctx.actor(action.seat, action.token)
    if not has_access(s, ctx.board, figure, action.slot):
        if ctx.board.start_zone_owner(figure.square) == figure.colour and action.slot in start_rooms(s, figure.colour):
            raise IllegalAction("PR-CORE-05", "from {square} {figure} reaches only the room in front of it",
                                square=square_name(figure.square), figure=figure.id)
        # through a wall: a figure that walks through walls (the Wall-Walker, an incorporeal one: PD-CHAR-GHOST-07)
        # is told the rule that forbids it, not only that it has no access
        if (ctx.has_ability(figure, "wallwalk") or ctx.has_ability(figure, "incorporeal")) and any(
                ctx.board.slot_of(other) == action.slot for _, other in ctx.board.neighbours(figure.square)):
            raise IllegalAction("BG-REVEAL-04", "{figure} cannot reveal room {slot} through a wall", figure=figure.id,
                                slot=slot_name(action.slot))
        raise IllegalAction("BG-REVEAL-02", "{figure} has no direct access to room {slot}", figure=figure.id,
                            slot=slot_name(action.slot))
    index = s.rooms.index(place)
    s.rooms = s.rooms[:index] + (room_place(place.slot, place.tile, place.orientation, True),) + s.rooms[index + 1:]
    ctx.layout_changed()
    if s.options.teams == "free":
        lowest_copies_first(ctx, action.slot)
    hidden = sorted((t for t in s.tokens.values() if t.where == "room" and t.room == action.slot), key=lambda t: t.order)
    for t in hidden:
        ctx.put(t.moved(where="placing", room=None, order=0))
    ctx.emit("room_revealed", slot=slot_name(action.slot), tile=place.tile, orientation=place.orientation,
             by=figure.id, tokens=[t.id for t in hidden])
    queue = tuple(t.id for t in hidden)
    if queue:
        mine = any(placed_by(s.tokens[t], action.seat) == action.seat for t in queue)
        s.placement = Placement(action.slot, action.seat, action.seat if mine else opponent(action.seat), queue)
        s.phase = "place"


def copy_number(token_id: str) -> int:
    """Which copy of its code a token is: `bKY` 1, `bKY2` 2 (catalogue.token_ids)."""
    return int(token_id[3:] or 1)


def lowest_copies_first(ctx: Ctx, slot) -> None:
    """DT-279 (PD-TEAM-FREE-01/02, BG-REVEAL-01): a free build is secret, and which copy of an object a token is
    would tell how many the build holds (a `bKY2` shown says that a `bKY` is in the game). So the objects face down
    in the room `slot`, about to be revealed, are the lowest copies of their code nobody else has seen yet: where
    a lower copy still lies face down in another room or behind its owner's screen, the two identical tokens change
    places (each with the other's room and place in its stack)."""
    s = ctx.s
    for token_id in [t.id for t in s.tokens.values() if t.where == "room" and t.room == slot and not t.is_character]:
        token = s.tokens[token_id]
        lower = [o for o in s.tokens.values() if o.colour == token.colour and o.code == token.code
                 and not o.is_character and copy_number(o.id) < copy_number(token.id)
                 and (o.where == "screen" or (o.where == "room" and o.room != slot))]
        if lower:
            other = min(lower, key=lambda o: copy_number(o.id))
            ctx.put(other.moved(where=token.where, room=token.room, order=token.order, square=token.square))
            ctx.put(token.moved(where=other.where, room=other.room, order=other.order, square=other.square))


def placed_by(token: Token, revealer: str) -> str:
    """BG-REVEAL-06: the revealer places all but his own colour's objects, which his opponent places."""
    if not token.is_character and token.colour == revealer:
        return opponent(revealer)
    return revealer


def placeable_tokens(state: GameState) -> list[str]:
    p = state.placement
    if p.passed:
        return list(p.tokens)
    return [t for t in p.tokens if placed_by(state.tokens[t], p.revealer) == p.placer]


def free_squares(state: GameState, board: Board, slot) -> list[Square]:
    """BG-REVEAL-07: empty floor squares or an empty rotation mechanism of the room (no terrain square is floor:
    PD-TERR-PENTACLE-01, PD-TERR-FOG-04)."""
    taken = {t.square for t in state.tokens.values() if t.where == "board"}
    return [sq for sq in board.room_squares(slot)
            if sq not in board.pits and sq not in taken and sq not in board.special]


def place(ctx: Ctx, action: Place) -> None:
    s = ctx.s
    if s.phase != "place":
        raise IllegalAction("BG-REVEAL-06", "no revealed tokens are waiting to be placed")
    if action.seat != s.placement.placer:
        raise IllegalAction("BG-REVEAL-06", "the other player places these tokens")
    if action.token not in placeable_tokens(s):
        raise IllegalAction("BG-REVEAL-06", "{token} is not yours to place now", token=action.token)
    if action.square not in free_squares(s, ctx.board, s.placement.slot):
        for kind, rule, template in (
                ("pentacle", "PD-TERR-PENTACLE-01", N_("{square} is pentacle: no revealed token goes there")),
                ("fog", "PD-TERR-FOG-04", N_("{square} is fog: no revealed token goes there"))):
            if action.square in ctx.board.terrain_of(kind):
                raise IllegalAction(rule, template, square=square_name(action.square))
        raise IllegalAction("BG-REVEAL-07", "{square} is not an empty floor square of the room",
                            square=square_name(action.square))
    ctx.put(ctx.token(action.token).moved(where="board", square=action.square))
    ctx.emit("placed", token=action.token, square=square_name(action.square), by=action.seat)
    _advance(s)


def pass_placement(ctx: Ctx, action: PassPlacement) -> None:
    s = ctx.s
    p = s.placement
    if s.phase != "place" or action.seat != p.placer or p.placer == p.revealer:
        raise IllegalAction("BG-OPT-03", "only the revealer's opponent, while placing, can leave his objects")
    s.placement = Placement(p.slot, p.revealer, p.revealer, p.tokens, passed=True)
    ctx.emit("placement_passed", seat=action.seat)


def _advance(s: GameState) -> None:
    p = s.placement
    rest = tuple(t for t in p.tokens if s.tokens[t].where == "placing")
    if not rest:
        s.placement = None
        s.phase = "main"
        return
    placer = p.placer
    if not p.passed and placer == p.revealer and not any(placed_by(s.tokens[t], p.revealer) == p.revealer for t in rest):
        placer = opponent(p.revealer)
    s.placement = Placement(p.slot, p.revealer, placer, rest, p.passed)


def rotation_targets(state: GameState, board: Board, figure: Token) -> list[tuple[tuple[int, int], bool]]:
    """BG-ROT-01/03, BG-CHAR-MECHANORK-01: (slot, clockwise) pairs the figure may turn by a quarter."""
    slot = board.slot_of(figure.square)
    if slot is None or board.gears.get(slot) != figure.square:
        return []
    cat = state.catalogue
    here = state.room_at(slot)
    twin_tile = cat.twin(here.tile)
    slots = [slot] + [p.slot for p in state.rooms if p.tile == twin_tile and p.revealed]
    operator = "operator" in cat.characters[figure.code].abilities
    out = []
    for target in slots:
        arrow = cat.rooms[state.room_at(target).tile].clockwise
        out += [(target, True), (target, False)] if operator else [(target, arrow)]
    return out


def rotate(ctx: Ctx, action: Rotate) -> None:
    s = ctx.s
    figure = ctx.token(action.token)
    ctx.actor(action.seat, action.token)
    if (action.slot, action.clockwise) not in rotation_targets(s, ctx.board, figure):
        if ctx.board.slot_of(figure.square) is None or not ctx.board.is_gear(figure.square):
            raise IllegalAction("BG-ROT-01", "{figure} is not on a rotation mechanism", figure=figure.id)
        if any(slot == action.slot for slot, _ in rotation_targets(s, ctx.board, figure)):
            raise IllegalAction("BG-ROT-03" if ctx.board.slot_of(figure.square) != action.slot else "BG-ROT-01",
                                "a room turns only in the direction of its own arrow (BG-CHAR-MECHANORK-01)")
        if ctx.board.slot_of(figure.square) != action.slot:
            raise IllegalAction("BG-ROT-03", "only this room or its revealed twin can be rotated from here")
        raise IllegalAction("BG-ROT-01", "a room turns only in the direction of its arrow (BG-CHAR-MECHANORK-01)")
    place_ = s.room_at(action.slot)
    index = s.rooms.index(place_)
    turn = 1 if action.clockwise else 3
    s.rooms = (s.rooms[:index] + (room_place(place_.slot, place_.tile, (place_.orientation + turn) % 4, True),)
               + s.rooms[index + 1:])
    ox, oy = action.slot[0] * ROOM, action.slot[1] * ROOM
    for t in list(s.tokens.values()):
        if t.where == "board" and ctx.board.slot_of(t.square) == action.slot:
            dx, dy = rotate_offset((t.square[0] - ox, t.square[1] - oy), turn)
            ctx.put(t.moved(square=(ox + dx, oy + dy)))
            ctx.turned.add(t.id)  # a dead Paladin's two objects turn stacked (PD-CHAR-PALADIN-03)
    for name, value in list(s.marks.items()):  # a marker on a square (an illusion) turns with its room
        square = square_of_name(value)
        if square is not None and ctx.board.slot_of(square) == action.slot:
            dx, dy = rotate_offset((square[0] - ox, square[1] - oy), turn)
            s.marks[name] = square_name((ox + dx, oy + dy))
    ctx.layout_changed()
    ctx.emit("room_rotated", slot=slot_name(action.slot), clockwise=action.clockwise, by=figure.id)


def figure_actions(state: GameState, board: Board, seat: str, figure: Token) -> list:
    """Reveals and rotations the figure may make."""
    rooms = state.rooms
    if _HIDDEN[0] is rooms:
        hidden = _HIDDEN[1]
    else:
        hidden = [place.slot for place in rooms if not place.revealed]
        _HIDDEN[:] = rooms, hidden
    out: list = []
    if hidden and (board.zone_owner.get(figure.square) == figure.colour or _beside_hidden(figure.square, hidden)):
        access = _access_slots(state, board, figure)
        out = [Reveal(seat, figure.id, slot) for slot in hidden if slot in access]
    targets = rotation_targets(state, board, figure)
    if targets:
        out = out + [Rotate(seat, figure.id, slot, cw) for slot, cw in targets]
    return out


_HIDDEN: list = [None, []]
"""The last rooms tuple `figure_actions` was asked about (a state's `rooms`, shared by the states that follow it
until a room changes; held here, so never another tuple at its address) and its face-down slots."""


def _beside_hidden(square: Square, hidden: list[tuple[int, int]]) -> bool:
    """Whether a square next to `square` lies in one of the `hidden` room slots: off its start zone, a figure has
    direct access to no other room (`_access_slots`: those of its neighbours that no wall separates from it), so
    elsewhere, as on most squares (a room's inside), it reveals nothing and the walls need no look."""
    x, y = square
    return any(((x + dx) // ROOM, (y + dy) // ROOM) in hidden for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0)))


def _access_slots(state: GameState, board: Board, figure: Token) -> list[tuple[int, int]]:
    """The room slots of the rooms the figure has direct access to (`has_access`), face-down or not: from its own
    start zone, the rooms `start_zone_rooms` names; elsewhere, the rooms of the squares next to it that no wall
    separates from it, nor an arrow slit (PR-CORE-06, PR-CHAR-NAGA-02), a closed portcullis not (`Board.open_sides`)."""
    if board.zone_owner.get(figure.square) == figure.colour:
        return start_zone_rooms(state, figure)
    return board.open_sides(figure.square)
