"""What each seat and a spectator may see of a game, as plain data (str, int, bool, None, list, dict).

Face-down tokens show only their colour (BG-SETUP-07, RUL-029); a hand is hidden from the opponent (counts
only, BG-COMP-08); a pending secret choice reveals only whether it was made; face-down rooms show nothing.

Order is a channel too (docs/rulings.md DT-042): every list that holds something hidden from the viewer is ordered
by public facts only, never by a hidden identity. `tokens` is ordered by square (rank, then file), then by what
the viewer sees of the token; `hidden` by room slot (rank, then file), then placement order (`Token.order`, the
order of the public `hidden` events). Sorted by id, a face-down token's place in the list would tell which token
it is once the ids are known (the teams revealed, the tokens of the other rooms placed).
"""

from __future__ import annotations

from weakref import WeakKeyDictionary, ref

from ..core.events import GOD  # a viewer that sees everything: local tools only
from .board import board_of
from .combat import side_parts
from .context import Ctx
from .draft import build_parts, pool as draft_pool
from .geometry import interned, slot_name, square_name
from .state import SEATS, GameState
from .timeouts import secret_purpose

_PORT_STATE = {"c": "closed", "o": "open", "b": "broken"}


def view(state: GameState, seat: str | None, shared: bool = False) -> dict:
    """The game as `seat` ("B", "Y") or a spectator (None) may see it. With `shared`, the board's layout (pits,
    walls, portcullises, arrow slits, illusions, broken walls, and each terrain's squares) comes as the tuples the process keeps
    for that layout (`_layout`), the same objects in every view of it: for a caller that packs the view at once
    and changes nothing in it (the server: a tuple packs as the list it stands for, and a value that is the same
    object as in the view before need not be packed again)."""
    god = seat == GOD
    board = board_of(state)
    public = _public(state)
    out = {
        "set": state.options.set_name, "target_vp": state.options.target_vp, "beginner": state.options.beginner,
        "rows": state.rows, "viewer": seat, "phase": state.phase, "turn": state.turn, "active": state.active,
        "to_act": list(state.to_act), "ap": state.ap, "pools": dict(public.pools),
        "first_cycle_limit": None if state.four_played else state.high_card + 1,
        "exhausted": list(public.exhausted),
        "rooms": [_room(p, god) for p in state.rooms] if god else [dict(room) for room in public.rooms],
        **_layout(board, shared),
        "tokens": [], "hidden": [], "off_board": [],
        "players": {},
        "combat": None, "placement": None, "teams_chosen": None, "outcome": None,
        "secret": secret_purpose(state, seat) if seat in SEATS else None,
    }
    if state.draft is not None and state.draft.mode == "free":  # PD-TEAM-FREE: who has chosen; one's own choice
        d = state.draft
        out["build"] = {"mode": "free", "first": d.first, "built": {s: d.built(s) is not None for s in SEATS},
                        "parts": [part.form() for part in build_parts(state)]}
        for s in SEATS:
            mine = d.built(s)
            if mine is not None and (god or s == seat):
                out["build"].setdefault("mine", {})[s] = dict(zip(("pairs", "characters", "objects"),
                                                                   map(list, mine)))
    elif state.draft is not None:  # PD-TEAM-MUTUAL: every pick is public
        stage, _ = state.draft_stage()
        picks = {kind: [value for k, value in state.draft.picks if k == kind] for kind in ("rooms", "characters",
                                                                                         "objects")}
        out["draft"] = {"mode": state.draft.mode, "first": state.draft.first, "stage": stage,
                        "picker": state.draft_picker(), "picks": picks,
                        "pool": {kind: draft_pool(state, kind) for kind in picks}}
    charmed: dict[str, list[str]] = {}
    for name, figure in state.marks.items():
        if name.startswith("control:"):
            charmed.setdefault(name.split(":")[1], []).append(figure)
    if charmed:  # PD-OBJ-CHARM: seat -> the enemy figure it controls this turn (public); all of them, in the order
        out["charmed"] = {seat: figures[-1] for seat, figures in charmed.items()}  # charmed, if there are two
        if any(len(figures) > 1 for figures in charmed.values()):
            out["charmed_figures"] = charmed
    if state.options.scenario:  # PR-SCEN: only a scenario's view has the key
        out["scenario"] = state.options.scenario
    tokens = out["tokens"]
    for group in public.board:  # board tokens by (rank, file, colour), in the state's token order within each
        if len(group) > 1:  # then by id, for the viewer who sees it (`_token_key`)
            group = sorted(group, key=lambda e: _token_key(e[0], god or not e[0].face_down or e[0].colour == seat))
        for t, square in group:
            if god or not t.face_down or t.colour == seat:
                tokens.append({"id": t.id, "colour": t.colour, "code": t.code, "character": t.is_character,
                               "square": square, "wounded": t.wounded, "face_down": t.face_down})
            else:
                tokens.append({"id": None, "colour": t.colour, "code": None, "character": None,
                               "square": square, "wounded": t.wounded, "face_down": t.face_down})
    if god:
        out["hidden"] = [{"colour": t.colour, "slot": slot_name(t.room), "id": t.id} for t in public.hidden]
        out["off_board"] = sorted(({"id": t.id, "where": t.where, "scored_by": t.scored_by}
                                   for t in state.tokens.values() if t.where not in ("board", "room")),
                                  key=lambda entry: entry["id"])
    else:
        out["hidden"] = [{"colour": t.colour, "slot": slot_name(t.room)} for t in public.hidden]
        out["off_board"] = [dict(entry) for entry in public.off_board]  # every id here is public
    for s in SEATS:
        p = state.players[s]
        own = god or s == seat
        out["players"][s] = {
            "vp": public.vp[s],
            "action_cards": list(p.actions) if own else len(p.actions),
            "played_top": p.played[-1] if p.played else None,
            "combat_cards": list(p.combat) if own else len(p.combat),
            "jumps": p.jumps,
            "screen": list(public.screen[s]) if own else len(public.screen[s]),
        }
    if state.phase == "team":
        out["teams_chosen"] = {s: s in state.teams for s in SEATS}
        if seat in state.teams or god:
            out["my_team"] = {s: {square_name(sq): code for sq, code in state.teams[s][0]}
                              for s in state.teams if god or s == seat}
    if state.combat:
        c = state.combat
        out["combat"] = {"number": c.number, "attacker": c.attacker, "target": c.target,
                         "attackers": list(c.attackers), "defenders": list(c.defenders),
                         "chosen": {s: c.card_of(s) is not None for s in SEATS},
                         "my_card": c.card_of(seat) if seat in SEATS else None,
                         "totals": dict(public.totals),
                         "parts": {side: [list(part) for part in of_side] for side, of_side in public.parts.items()}}
        if c.shooters:  # PR-RANGED: only a combat with shooters has the key
            out["combat"]["shooters"] = list(c.shooters)
        if c.lancer:  # PR-OBJ-LANCE: nor has any other a lancer
            out["combat"]["lancer"] = c.lancer
        if c.telepath:  # PR-CHAR-TELEPATH: the naming is public; the hand shown, to the Telepath's player only
            out["combat"]["mind"] = {"seat": c.telepath, "naming": c.naming, "named": c.named}
            other = "Y" if c.telepath == "B" else "B"
            if (god or seat == c.telepath) and c.named is not None and c.named not in state.players[other].combat:
                out["combat"]["mind"]["hand"] = list(state.players[other].combat)
        first = state.combat_first()
        if first is not None:  # PD-CHAR-WMASTER-01: who lays first, and that card once laid (public)
            out["combat"]["first"] = {"seat": first, "card": c.card_of(first)}
        if god:
            out["combat"]["cards"] = dict(c.cards)
    if state.placement:
        p = state.placement
        out["placement"] = {"slot": slot_name(p.slot), "revealer": p.revealer, "placer": p.placer,
                            "tokens": list(p.tokens), "passed": p.passed}
    if state.outcome:
        o = state.outcome
        out["outcome"] = {"winner": o.winner, "vp": dict(o.vp), "reason": o.reason}
    return out


class _Public:
    """What every viewer's view of one state shares, worked out once for the state (`_public`): the pools and
    exhausted figures sorted, the rooms as a viewer who is not GOD sees them, the board tokens grouped by square
    and colour with their square names, the face-down room tokens in their order, the public off-board entries,
    each seat's VP and screen, the combat totals. `view` copies what it hands out: callers may change a view."""

    __slots__ = ("state", "pools", "exhausted", "rooms", "board", "hidden", "off_board", "vp", "screen", "totals",
                 "parts")

    def __init__(self, state: GameState):
        self.state = ref(state)
        self.pools = tuple(sorted(state.pools.items()))
        self.exhausted = tuple(sorted(state.exhausted))
        self.rooms = tuple(_room(p, False) for p in state.rooms)
        on_board, hidden, off_board = [], [], []
        screens: dict[str, list[str]] = {s: [] for s in SEATS}
        for t in state.tokens.values():
            where = t.where
            if where == "board":
                on_board.append(t)
            elif where == "room":
                hidden.append(t)
            elif where == "screen":
                if t.colour in screens:
                    screens[t.colour].append(t.id)
            elif where != "unused":
                off_board.append({"id": t.id, "where": where, "scored_by": t.scored_by})
        # in `_token_key`'s order as a viewer who sees none of the ids has it (square and colour), stable, in
        # groups of equal keys; `view` sorts a group of more than one by the key as its viewer has it, which gives
        # the order of one sort by that key
        on_board.sort(key=lambda t: _token_key(t, False))
        groups: list[list] = []
        last = None
        for t in on_board:
            key = _token_key(t, False)
            if key != last:
                groups.append([])
                last = key
            groups[-1].append((t, square_name(t.square)))
        self.board = groups
        self.hidden = sorted(hidden, key=lambda t: _token_key(t, False))
        self.off_board = sorted(off_board, key=lambda entry: entry["id"])
        self.vp = {s: state.vp(s) for s in SEATS}
        self.screen = {s: tuple(sorted(ids)) for s, ids in screens.items()}
        self.totals, self.parts = combat_totals(state) if state.combat else (None, None)


_last_public: list = [None]
"""The `_Public` of the last state viewed: a server shows each new state to both seats and the spectators in
turn. One entry, held by a weak reference to its state: nothing outlives the state but this one small object."""


def _public(state: GameState) -> _Public:
    found = _last_public[0]
    if found is not None and found.state() is state and getattr(state, "_sealed", False):
        return found
    found = _last_public[0] = _Public(state)
    return found


_LAYOUTS: WeakKeyDictionary = WeakKeyDictionary()
"""Board -> its pits, gears, walls and portcullises as view data: drawn once per layout (boards are shared by every
state with that layout, and kept only while something uses them). Each view gets fresh lists: callers may change
the view they are given. A wall or portcullis (its squares' names, and its count or state) is the process's one
tuple for it (`geometry.interned`): the same room in the same place and orientation gives the same ones, and they
were most of a layout, 6.6 KB a board, 1.9 KB shared so (40 boards of standard games at 150 actions)."""


def _layout(board, shared: bool = False) -> dict:
    """The layout's keys of a view: fresh lists, or with `shared` the kept tuples themselves (`view`)."""
    parts = _LAYOUTS.get(board)
    if parts is None:
        parts = _LAYOUTS[board] = (
            tuple(sorted(square_name(sq) for sq in board.pits)),
            tuple((slot_name(slot), square_name(sq)) for slot, sq in sorted(board.gears.items())),
            tuple(sorted(interned((square_name(a), square_name(b), n)) for (a, b), n in board.walls.items()
                         if board.exists(a) and board.exists(b))),
            tuple(sorted(interned((square_name(a), square_name(b), _PORT_STATE[st]))
                         for (a, b), (_, _, st) in board.portcullises.items())),
            tuple(sorted((square_name(a), square_name(b)) for a, b in board.slits)),
            tuple((kind, tuple(sorted(square_name(sq) for sq in squares))) for kind, squares in sorted(board.terrain.items())),
            tuple(sorted((square_name(sq), colour, kind) for sq, (colour, kind) in board.illusions.items())),
            _broken_walls(board),
        )
    pits, gears, walls, portcullises, slits, terrain, illusions, broken = parts
    if not shared:  # lists of their own, which the caller may change
        pits, walls, portcullises = list(pits), list(map(list, walls)), list(map(list, portcullises))
        slits, illusions, broken = list(map(list, slits)), list(map(list, illusions)), list(map(list, broken))
        terrain = [(kind, list(squares)) for kind, squares in terrain]
    out = {"pits": pits, "gears": dict(gears), "walls": walls, "portcullises": portcullises}
    if slits:  # PR-SLIT-01: only a board with arrow slits (a Prison room revealed) has the key
        out["slits"] = slits
    if terrain:  # PD-TERR: only a board with terrain (a Paladins & Dragons room revealed): kind -> squares
        out["terrain"] = dict(terrain)
    if illusions:  # PD-CHAR-ILLUS: [square, colour, "pit" or "rubble"]; an illusion pit is also in "pits"
        out["illusions"] = illusions
    if broken:  # PD-CHAR-GOLEM-01: [square, square, segments broken], only while a wall segment is broken
        out["broken_walls"] = broken
    return out


def _broken_walls(board) -> tuple:
    """The edges with a wall segment a Golem broke (PD-CHAR-GOLEM-01: a broken-wall marker, public), as (square,
    square, how many of its segments are broken: 1, or 2 for both of a double wall), sorted; () when none is. A
    broken segment leaves `walls` (a double wall broken once stays there as a wall), so this is what tells a
    broken wall from no wall at all."""
    if not board.broken:
        return ()
    out = []
    for (a, b), segments in board.segments.items():
        count = sum(1 for segment in segments if segment in board.broken)
        if count and board.exists(a) and board.exists(b):
            out.append((square_name(a), square_name(b), count))
    return tuple(sorted(out))


def _token_key(t, visible: bool) -> tuple:
    """Where a token goes in the view's lists, from what the viewer may know of it: a board token by its square
    (rank, file), colour and, only if the viewer sees it, its id; a face-down room token by its room (rank, file),
    placement order and colour. Two tokens with equal keys are shown identically, so their relative order tells
    nothing. Tokens elsewhere are listed only where their ids are public (`off_board`, sorted by id)."""
    if t.where == "board":
        return (0, t.square[1], t.square[0], t.colour, t.id if visible else "")
    if t.where == "room":
        return (1, t.room[1], t.room[0], t.order, t.colour)
    return (2, t.id)


def _room(place, god: bool) -> dict:
    if place.revealed or god:
        return {"slot": slot_name(place.slot), "revealed": place.revealed, "tile": place.tile,
                "orientation": place.orientation}
    return {"slot": slot_name(place.slot), "revealed": False, "tile": None, "orientation": None}


def combat_totals(state: GameState) -> tuple[dict, dict]:
    """The sides' totals before the cards (BG-COMBAT-03: values, objects, abilities; all public), what each
    player's card will be added to, and what makes them (`combat.side_parts`, as lists [who, what, value]): a
    play-test's players read a combined attack's total and could not tell where its backstab or Sword was."""
    ctx = Ctx(state)
    parts = {side: side_parts(ctx, state.combat, side == "attack") for side in ("attack", "defence")}
    return ({side: sum(part[2] for part in of_side) for side, of_side in parts.items()},
            {side: [list(part) for part in of_side] for side, of_side in parts.items()})
