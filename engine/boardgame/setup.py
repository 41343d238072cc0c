"""Setting up a game (BG-SETUP, BG-OPT-07/08): rooms, secret teams, alternate hidden placement."""

from __future__ import annotations

import re
from itertools import permutations

from .actions import ChooseTeam, Hide
from .context import Ctx
from ..core.errors import IllegalAction
from ..core.events import secret_event
from .geometry import Square, slot_name, square_name
from ..core.rng import Rng
from .state import SEATS, Draft, GameState, Options, Player, Token, opponent, room_place


def scenario_of(options: Options) -> dict | None:
    """The scenario's data (prison.json "setup"), or None for a game without a scenario."""
    if options.scenario is None:
        return None
    return options.catalogue.scenarios[options.scenario]


_RULE_IN_REASON = re.compile(r"\(([A-Z]+(?:-[A-Z0-9]+)+)\)")


def victory_rule(victory: dict) -> str:
    """The rule ID a scenario's victory names in its reason ("both figures out (PR-SCEN-1-06)"), the end's rule for
    a refusal; BG-END-02 if it names none (a scenario's data worded otherwise: review rv27)."""
    found = _RULE_IN_REASON.search(victory.get("reason", ""))
    return found.group(1) if found else "BG-END-02"


def can_exit(state: GameState, colour: str) -> bool:
    """Whether the colour's figures leave the maze on entering the opponent's start zone (BG-EXIT-01); a scenario
    may keep them in (PR-SCEN-2-06, PR-SCEN-3-04: that zone is then ordinary ground for them)."""
    scenario = scenario_of(state.options)
    return scenario is None or colour not in scenario.get("no_exit", ())


TEAM_MODES = ("random", "mutual", "free")  # PD-TEAM-02: how a mixed game's teams are built (DT-109: random)


def validate_options(options: Options) -> None:
    cat = options.catalogue
    if options.teams not in TEAM_MODES:
        raise ValueError(f"PD-TEAM-02: teams are built {' or '.join(TEAM_MODES)}, not {options.teams!r}")
    if options.teams != "random" and (cat.mix is None or options.scenario or options.beginner):
        raise ValueError("PD-TEAM-02: teams are built by choice only in a mixed game without scenario or beginner "
                         "game")
    if options.scenario is not None:
        scenario = cat.scenarios.get(options.scenario)
        if scenario is None or "characters" not in scenario:
            raise ValueError(f"{cat.name} has no scenario {options.scenario!r}")
        target = scenario["victory"].get("target", 5)
        if options.target_vp != target:
            raise ValueError(f"{options.scenario} is played to {target} VP, not {options.target_vp}")
        if options.beginner or options.handicap:
            raise ValueError(f"{options.scenario} has no beginner game and no handicap")
        return
    if options.target_vp not in cat.flag("target_vp", range(5, 9)):
        targets = ", ".join(map(str, cat.flag("target_vp", range(5, 9))))
        rule = "PR-OPT-02" if cat.flag("target_vp") else "BG-OPT-06"
        raise ValueError(f"{rule}: the VP target is one of {targets}")
    if options.beginner and not cat.beginner:
        raise ValueError(f"BG-OPT-07: the beginner game is the base set's, not {cat.name}'s")
    h = options.handicap
    if h is not None:
        deck = list(options.catalogue.combat_cards)
        if h.seat not in SEATS or not 4 <= h.characters <= 8:
            raise ValueError("BG-OPT-08: a handicapped player plays 4 to 8 characters")
        for card in h.removed_cards:
            if card == 0 or card not in deck:
                raise ValueError(f"BG-OPT-08: cannot remove the +{card} combat card")
            deck.remove(card)
        highest = sorted(options.catalogue.combat_cards)[len(deck):]
        if sorted(h.removed_cards) != highest:
            raise ValueError("BG-OPT-08: the handicapped player removes his highest combat cards ("
                             + " ".join(f"+{card}" for card in highest) + ")")
        if options.target_vp != 5:
            raise ValueError("BG-OPT-08: a handicap game is played to 5 VP")
        if options.beginner and h.characters > 6:
            raise ValueError("BG-OPT-07: the beginner game has 6 characters per player")


def new_game(options: Options = Options(), seed: int = 0) -> GameState:
    """BG-SETUP-01..02, 05, 11: every random draw of the game is made here, from `seed`. A scenario (PR-SCEN) names
    its rooms, maze, components and cards in its data instead."""
    validate_options(options)
    cat = options.catalogue
    scenario = scenario_of(options)
    rng = Rng(seed)
    tiles = sorted(cat.rooms)
    rows = cat.board["length_rooms"]
    unused: set[str] = set()
    if scenario is not None:  # PR-SCEN-n-01: its room pairs, laid 2 wide
        tiles = [t for t in tiles if cat.rooms[t].number in scenario["pairs"]]
        rows = scenario["length_rooms"]
    elif cat.mix is not None and options.teams != "random":  # PD-TEAM-MUTUAL/FREE: the players choose; no room yet
        tiles = []
        unused = set(cat.characters) | set(cat.objects)
    elif cat.mix is not None:  # DT-109: a mixed game draws its room pairs and its (common) team from the union
        numbers = sorted({room.number for room in cat.rooms.values()})
        rng.shuffle(numbers)
        tiles = [t for t in tiles if cat.rooms[t].number in numbers[:cat.mix["pairs"]]]
        characters, objects = sorted(cat.characters), sorted(cat.objects)
        rng.shuffle(characters)
        rng.shuffle(objects)
        unused = set(characters[cat.mix["characters"]:]) | set(objects[cat.mix["objects"]:])
    elif options.beginner:  # BG-OPT-07 (RUL-040): 3 of the 4 pairs, 2 x 3 rooms
        numbers = sorted({room.number for room in cat.rooms.values()})
        rng.shuffle(numbers)
        tiles = [t for t in tiles if cat.rooms[t].number in numbers[:3]]
        rows = cat.beginner["length_rooms"]
        unused = set(cat.beginner["remove"])
    rng.shuffle(tiles)
    rooms = tuple(room_place((i % 2, i // 2), tile, rng.below(4), False) for i, tile in enumerate(tiles))
    draft = None
    if not tiles:  # the draft's layout: where the picked rooms (in tile order) will lie, drawn now (Draft.deal)
        count = 2 * cat.mix["pairs"]
        order = list(range(count))
        rng.shuffle(order)
        deal = tuple(order) + tuple(rng.below(4) for _ in range(count))
        if options.teams == "free":  # RUL-072: the order in which unchosen pairs replace a pair both chose
            numbers = sorted({room.number for room in cat.rooms.values()})
            rng.shuffle(numbers)
            deal += tuple(numbers)
        draft = Draft(options.teams, SEATS[rng.below(2)], (), deal)
    first_placer = SEATS[rng.below(2)]
    first_player = SEATS[rng.below(2)]
    if scenario is not None and scenario.get("first_player"):
        first_player = scenario["first_player"]  # PR-SCEN-2-04: the Cleric player begins
    tokens = {}
    for seat in SEATS:
        if scenario is not None:
            codes = [*scenario["characters"][seat], *scenario["objects"][seat]]
        else:
            codes = [code for code in [*cat.characters, *cat.objects] if code not in unused]
        for code in [*cat.characters, *cat.objects]:
            for n, tid in enumerate(cat.token_ids(seat, code)):  # a second copy of a common object waits unused
                tokens[tid] = Token(tid, seat, code, code in cat.characters,
                                    "screen" if code in codes and n == 0 else "unused")
    players = {}
    cards = scenario["cards"] if scenario is not None else {
        "action": cat.action_cards, "combat": cat.combat_cards, "jumps": cat.jump_cards}
    for seat in SEATS:
        deck = list(cards["combat"])
        if options.handicap and options.handicap.seat == seat:
            for card in options.handicap.removed_cards:
                deck.remove(card)
        players[seat] = Player(tuple(cards["action"]), (), tuple(sorted(deck)), cards["jumps"])
    return GameState(
        options=options, rows=rows, rooms=rooms, portcullis={}, tokens=tokens, players=players,
        phase="team" if draft is None else "draft" if draft.mode == "mutual" else "build",
        turn=0, active=None, ap=0, pools={}, acted=frozenset(), exhausted=frozenset(), high_card=1,
        four_played=False, first_player=first_player, placer=first_placer, teams={}, combat=None,
        placement=None, combats=0, outcome=None, marks={}, draft=draft,
    ).seal()


def marked_squares(state: GameState, seat: str) -> list[Square]:
    """BG-GEO-04 (RUL-023): squares 2, 4, 7, 9 of the seat's start zone."""
    y = state.start_row(seat)
    return [(n - 1, y) for n in state.catalogue.board["start_squares"]]


def capacity(state: GameState, slot: tuple[int, int]) -> int:
    """BG-SETUP-06 (RUL-028), BG-OPT-07; a scenario's room markings (PR-SETUP-01)."""
    cat = state.catalogue
    scenario = scenario_of(state.options)
    if scenario is not None and "every_room" in scenario["capacity"]:
        return scenario["capacity"]["every_room"]
    if state.options.beginner:
        return cat.beginner["capacity_per_room"]
    if slot[1] in (0, state.rows - 1):
        return cat.board["capacity_end_room"]
    return cat.board["capacity_middle_room"]


def playing_characters(state: GameState, seat: str) -> list[str]:
    return [t.code for t in state.tokens.values() if t.colour == seat and t.is_character and t.where != "unused"]


def team_size(state: GameState, seat: str) -> int:
    """How many characters start face down on the start zone: 4 (BG-SETUP-04), or the scenario's number, at most
    the characters the seat has (PR-SCEN-1-03: 2 of 4 marked squares; PR-SCEN-2-03: all of them)."""
    scenario = scenario_of(state.options)
    size = scenario["start"] if scenario is not None else len(marked_squares(state, seat))
    return min(size, len(playing_characters(state, seat)))


def removals_needed(state: GameState, seat: str) -> int:
    h = state.options.handicap
    if h is None or h.seat != seat:
        return 0
    return len(playing_characters(state, seat)) - min(h.characters, len(playing_characters(state, seat)))


def team_refusal(action: ChooseTeam, size: int, marked: list[Square], available: list[str], removals: int,
                 scenario: bool) -> IllegalAction | None:
    """Why `action` is not a starting team of `size` characters on the `marked` squares, chosen among the seat's
    `available` characters, with `removals` others left out (BG-SETUP-04, a Prison scenario's PR-SETUP-04,
    BG-OPT-08), or None if it is one. Pure, so that a client that knows only the choice's form (the view's
    compact team choice: its squares, characters and how many are left out) explains a refusal as the rules do."""
    rule = "PR-SETUP-04" if scenario else "BG-SETUP-04"
    squares = sorted(sq for sq, _ in action.team)
    if len(squares) != size or len(set(squares)) != size or any(sq not in marked for sq in squares):
        if size < len(marked):
            return IllegalAction(rule, "put {size} characters on {size} different marked squares of your start zone",
                                 size=size)
        return IllegalAction(rule, "put one character on each of the 4 marked squares of your start zone")
    codes = [code for _, code in action.team]
    if len(set(codes)) != size or any(code not in available for code in codes):
        return IllegalAction(rule, "choose {size} different characters of your own", size=size)
    removed = list(action.removed)
    if len(removed) != removals or len(set(removed)) != len(removed) or any(
            code not in available or code in codes for code in removed):
        return IllegalAction("BG-OPT-08", "leave out exactly {count} other character(s)", count=removals)
    return None


def choose_team(ctx: Ctx, action: ChooseTeam) -> None:
    s = ctx.s
    seat = action.seat
    if s.phase != "team":
        raise IllegalAction("BG-SETUP-04", "the starting teams are already chosen")
    if seat in s.teams:
        raise IllegalAction("BG-SETUP-04", "you have already chosen your team")
    problem = team_refusal(action, team_size(s, seat), marked_squares(s, seat), playing_characters(s, seat),
                           removals_needed(s, seat), scenario_of(s.options) is not None)
    if problem is not None:
        raise problem
    removed = list(action.removed)
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
    if s.phase != "hide":  # (play-test pl31 hid a token after the last one and read "not your turn")
        raise IllegalAction("BG-SETUP-05", "tokens are hidden only in the setup, once the starting teams are chosen")
    if seat != s.placer:
        raise IllegalAction("BG-SETUP-05", "it is not your turn to place a hidden token")
    token = s.tokens.get(action.token)
    if token is None or token.colour != seat or token.where != "screen":
        raise IllegalAction("BG-SETUP-05", "{token} is not one of your tokens still behind your screen",
                            token=action.token)
    if not (0 <= action.slot[0] < 2 and 0 <= action.slot[1] < s.rows):
        raise IllegalAction("BG-GEO-02", "there is no such room")
    scenario = scenario_of(s.options)
    if hidden_count(s, action.slot) >= (most := capacity(s, action.slot)):
        # (how many: play-test pl31 read "room A1 is full" after two tokens, where the middle rooms took three; no
        # "token(s)": a scenario's rooms take 1)
        raise IllegalAction("BG-SETUP-06" if scenario is None else "PR-SETUP-01",
                            "room {slot} is full: no more hidden tokens there ({count} at most)",
                            slot=slot_name(action.slot), count=most)
    if scenario is not None and scenario.get("objects_only") and token.is_character:
        raise IllegalAction("PR-SETUP-02", "room {slot} takes objects only", slot=slot_name(action.slot))
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


def team_inputs(state: GameState, seat: str) -> tuple:
    """What the seat's team choices follow from, and only that: (marked squares, available characters sorted,
    removals needed, team size). Equal inputs, equal `team_options` (legal.team_choices keeps them by these)."""
    return (tuple(marked_squares(state, seat)), tuple(sorted(playing_characters(state, seat))),
            removals_needed(state, seat), team_size(state, seat))


def team_options(state: GameState, seat: str):
    """Every (team, removed) pair the seat may choose."""
    from itertools import combinations
    squares, available, need, size = team_inputs(state, seat)
    for places in combinations(squares, size):
        for four in permutations(available, size):
            rest = [c for c in available if c not in four]
            for removed in combinations(rest, need):
                yield tuple(zip(places, four)), removed
