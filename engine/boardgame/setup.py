"""Setting up a game (BG-SETUP, BG-OPT-07/08): rooms, secret teams, alternate hidden placement."""

from __future__ import annotations

from itertools import permutations

from .actions import ChooseTeam, Hide
from .context import Ctx
from ..core.errors import IllegalAction
from ..core.events import secret_event
from .geometry import Square, slot_name, square_name
from ..core.rng import Rng
from .state import SEATS, GameState, Options, Player, RoomPlace, Token, opponent


def validate_options(options: Options) -> None:
    if not 5 <= options.target_vp <= 8:
        raise ValueError("BG-OPT-06: the VP target is 5, 6, 7 or 8")
    h = options.handicap
    if h is not None:
        deck = list(options.catalogue.combat_cards)
        if h.seat not in SEATS or not 4 <= h.characters <= 8:
            raise ValueError("BG-OPT-08: a handicapped player plays 4 to 8 characters")
        for card in h.removed_cards:
            if card == 0 or card not in deck:
                raise ValueError(f"BG-OPT-08: cannot remove the +{card} combat card")
            deck.remove(card)
        if options.beginner and h.characters > 6:
            raise ValueError("BG-OPT-07: the beginner game has 6 characters per player")


def new_game(options: Options = Options(), seed: int = 0) -> GameState:
    """BG-SETUP-01..02, 05, 11: every random draw of the game is made here, from `seed`."""
    validate_options(options)
    cat = options.catalogue
    rng = Rng(seed)
    tiles = sorted(cat.rooms)
    rows = cat.board["length_rooms"]
    unused: set[str] = set()
    if options.beginner:  # BG-OPT-07 (RUL-040): 3 of the 4 pairs, 2 x 3 rooms
        numbers = sorted({room.number for room in cat.rooms.values()})
        rng.shuffle(numbers)
        tiles = [t for t in tiles if cat.rooms[t].number in numbers[:3]]
        rows = cat.beginner["length_rooms"]
        unused = set(cat.beginner["remove"])
    rng.shuffle(tiles)
    rooms = tuple(RoomPlace((i % 2, i // 2), tile, rng.below(4), False) for i, tile in enumerate(tiles))
    first_placer = SEATS[rng.below(2)]
    first_player = SEATS[rng.below(2)]
    tokens = {}
    for seat in SEATS:
        for code in [*cat.characters, *cat.objects]:
            tid = seat.lower() + code
            tokens[tid] = Token(tid, seat, code, code in cat.characters, "unused" if code in unused else "screen")
    players = {}
    for seat in SEATS:
        deck = list(cat.combat_cards)
        if options.handicap and options.handicap.seat == seat:
            for card in options.handicap.removed_cards:
                deck.remove(card)
        players[seat] = Player(tuple(cat.action_cards), (), tuple(sorted(deck)), cat.jump_cards)
    return GameState(
        options=options, rows=rows, rooms=rooms, portcullis={}, tokens=tokens, players=players, phase="team",
        turn=0, active=None, ap=0, pools={}, acted=frozenset(), exhausted=frozenset(), high_card=1,
        four_played=False, first_player=first_player, placer=first_placer, teams={}, combat=None,
        placement=None, combats=0, outcome=None,
    ).seal()


def marked_squares(state: GameState, seat: str) -> list[Square]:
    """BG-GEO-04 (RUL-023): squares 2, 4, 7, 9 of the seat's start zone."""
    y = state.start_row(seat)
    return [(n - 1, y) for n in state.catalogue.board["start_squares"]]


def capacity(state: GameState, slot: tuple[int, int]) -> int:
    """BG-SETUP-06 (RUL-028), BG-OPT-07."""
    cat = state.catalogue
    if state.options.beginner:
        return cat.beginner["capacity_per_room"]
    if slot[1] in (0, state.rows - 1):
        return cat.board["capacity_end_room"]
    return cat.board["capacity_middle_room"]


def playing_characters(state: GameState, seat: str) -> list[str]:
    return [t.code for t in state.tokens.values() if t.colour == seat and t.is_character and t.where != "unused"]


def removals_needed(state: GameState, seat: str) -> int:
    h = state.options.handicap
    if h is None or h.seat != seat:
        return 0
    return len(playing_characters(state, seat)) - min(h.characters, len(playing_characters(state, seat)))


def choose_team(ctx: Ctx, action: ChooseTeam) -> None:
    s = ctx.s
    seat = action.seat
    if s.phase != "team":
        raise IllegalAction("BG-SETUP-04", "the starting teams are already chosen")
    if seat in s.teams:
        raise IllegalAction("BG-SETUP-04", "you have already chosen your team")
    squares = sorted(sq for sq, _ in action.team)
    if squares != sorted(marked_squares(s, seat)):
        raise IllegalAction("BG-SETUP-04", "put one character on each of the 4 marked squares of your start zone")
    codes = [code for _, code in action.team]
    available = playing_characters(s, seat)
    if len(set(codes)) != 4 or any(code not in available for code in codes):
        raise IllegalAction("BG-SETUP-04", "choose 4 different characters of your own")
    removed = list(action.removed)
    if len(removed) != removals_needed(s, seat) or len(set(removed)) != len(removed) or any(
            code not in available or code in codes for code in removed):
        raise IllegalAction("BG-OPT-08", f"leave out exactly {removals_needed(s, seat)} other character(s)")
    s.teams[seat] = (tuple(sorted(action.team)), tuple(sorted(removed)))
    ctx.events.append(secret_event(
        "team_chosen", seat,
        {"seat": seat, "team": {square_name(sq): code for sq, code in sorted(action.team)}, "removed": sorted(removed)},
        {"seat": seat}))
    if len(s.teams) == 2:
        for side in SEATS:
            team, out = s.teams[side]
            for square, code in team:
                ctx.put(s.tokens[side.lower() + code].moved(where="board", square=square, face_down=True))
            for code in out:
                ctx.put(s.tokens[side.lower() + code].moved(where="unused"))
        s.teams = {}
        s.phase = "hide"
        ctx.emit("hidden_placement_started", first=s.placer)


def hidden_count(state: GameState, slot) -> int:
    return sum(1 for t in state.tokens.values() if t.where == "room" and t.room == slot)


def hide(ctx: Ctx, action: Hide) -> None:
    s = ctx.s
    seat = action.seat
    if s.phase != "hide" or seat != s.placer:
        raise IllegalAction("BG-SETUP-05", "it is not your turn to place a hidden token")
    token = s.tokens.get(action.token)
    if token is None or token.colour != seat or token.where != "screen":
        raise IllegalAction("BG-SETUP-05", f"{action.token} is not one of your tokens still behind your screen")
    if not (0 <= action.slot[0] < 2 and 0 <= action.slot[1] < s.rows):
        raise IllegalAction("BG-GEO-02", "there is no such room")
    if hidden_count(s, action.slot) >= capacity(s, action.slot):
        raise IllegalAction("BG-SETUP-06", f"room {slot_name(action.slot)} is full")
    order = sum(1 for t in s.tokens.values() if t.where == "room") + 1
    ctx.put(token.moved(where="room", room=action.slot, order=order))
    ctx.events.append(secret_event("hidden", seat, {"seat": seat, "token": token.id, "slot": slot_name(action.slot)},
                                   {"seat": seat, "slot": slot_name(action.slot)}))
    left = {side: any(t.colour == side and t.where == "screen" for t in s.tokens.values()) for side in SEATS}
    if left[opponent(seat)]:
        s.placer = opponent(seat)
    elif not left[seat]:
        _start_play(ctx)


def _start_play(ctx: Ctx) -> None:
    """BG-SETUP-10/11: the teams are revealed together and the first player (drawn at setup) begins."""
    s = ctx.s
    teams = {seat: {} for seat in SEATS}
    for t in list(s.tokens.values()):
        if t.face_down:
            ctx.put(t.moved(face_down=False))
            teams[t.colour][square_name(t.square)] = t.id
    s.placer = None
    ctx.emit("teams_revealed", teams=teams)
    s.turn = 1
    s.active = s.first_player
    s.phase = "card"
    ctx.emit("turn_started", turn=1, seat=s.active)


def team_options(state: GameState, seat: str):
    """Every (team, removed) pair the seat may choose."""
    from itertools import combinations
    squares = marked_squares(state, seat)
    available = sorted(playing_characters(state, seat))
    need = removals_needed(state, seat)
    for four in permutations(available, 4):
        rest = [c for c in available if c not in four]
        for removed in combinations(rest, need):
            yield tuple(zip(squares, four)), removed
