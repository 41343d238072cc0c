"""Canonical position notation (docs/notation.md): any game state, hidden facts included, as one line.

Fields are separated by " ; " and always appear in this order:
  DT1 <set> vp=<n> [beginner] [handicap=<seat>/<characters>/<cards>]
  rooms <slot>=[*]<tile>/<orientation> ...          (* = face down)
  ports <tile>=<c|o|b per portcullis> ... | ports -
  tokens <token><where> ...                          (tokens behind their screen are omitted)
  cards <seat>:<hand>/<played>/<combat>/<jumps> <seat>:...
  turn <n> <active|-> <phase> ap=<n> high=<n> four=<0|1> first=<seat> placer=<seat|-> combats=<n>
       [pools=<token>:<n>,...] [acted=<token>,...] [exhausted=<token>,...]
  [draft mutual first=<seat> deal=<slots>,<orientations> picks=<r37,cWA,oRP,...|->]      (phase draft)
  [draft free first=<seat> deal=<slots>,<orientations>,<pairs> builds=<B:37.41/CL.../FS...;Y:...|->]  (build)
  [teams <seat>=<square>:<code>,...[/out:<code>,...] ...]
  [combat <n> <attacker>><target> att=<ids|-> def=<ids> [shot=<ids>] [lance=<id>] [mind=<seat><?|-|1-6>]
   [cards=<seat>:<v>,...]]
  [placing <slot> <revealer><placer> <tokens>[ passed]]
  [over <winner|draw> <reason words>]
Token places: @c4 on a square (! wounded, !<turn> wounded that turn, ? face down), #A2.<order> face down in a room,
and >exited >eliminated >discarded >saved >unused >placing >scored.<seat>.
"""

from __future__ import annotations

import re

from . import rulebook
from .actions import Build
from .abilities import carried_objects
from .catalogue import load
from .combat import mind_controller, no_combat, participants, ranged_weapon
from .board import board_of
from ..core.errors import N_, NotationError, PositionError
from .geometry import ROOM, slot_name, square_name
from .golden import square_problem
from .rooms import placed_by
from .setup import can_exit, capacity, marked_squares, scenario_of, team_size, validate_options, victory_rule
from .state import (SEATS, Combat, Draft, GameState, Handicap, Options, Outcome, Placement, Player, RoomPlace,
                    Token)


def format_position(state: GameState) -> str:
    fields = [f"DT1 {state.options.set_name} {format_options(state.options)}"]
    fields.append("rooms " + (" ".join(
        f"{slot_name(p.slot)}={'' if p.revealed else '*'}{p.tile}/{p.orientation}" for p in state.rooms) or "-"))
    ports = [f"{tile}={states}" for tile, states in sorted(state.portcullis.items())]
    fields.append("ports " + (" ".join(ports) or "-"))
    if state.marks:
        fields.append("marks " + " ".join(f"{name}={value}" for name, value in sorted(state.marks.items())))
    fields.append("tokens " + (" ".join(_token(t) for t in sorted(state.tokens.values(), key=lambda t: t.id)
                                        if t.where != "screen") or "-"))
    fields.append("cards " + " ".join(
        f"{seat}:{_digits(p.actions)}/{_digits(p.played)}/{_digits(p.combat)}/{p.jumps}"
        for seat, p in sorted(state.players.items())))
    turn = (f"turn {state.turn} {state.active or '-'} {state.phase} ap={state.ap} high={state.high_card} "
            f"four={int(state.four_played)} first={state.first_player} placer={state.placer or '-'} "
            f"combats={state.combats}")
    if state.pools:
        turn += " pools=" + ",".join(f"{t}:{n}" for t, n in sorted(state.pools.items()))
    if state.acted:
        turn += " acted=" + ",".join(sorted(state.acted))
    if state.exhausted:
        turn += " exhausted=" + ",".join(sorted(state.exhausted))
    fields.append(turn)
    if state.draft and state.draft.mode == "free":  # PD-TEAM-FREE: each seat's secret build so far, and the deal
        d = state.draft
        builds = ";".join(f"{seat}:{'.'.join(map(str, pairs))}/{'.'.join(characters)}/{'.'.join(objects)}"
                          for seat, pairs, characters, objects in sorted(d.builds)) or "-"
        fields.append(f"draft free first={d.first} deal={','.join(map(str, d.deal))} builds={builds}")
    elif state.draft:  # PD-TEAM-MUTUAL: the picks so far (r: a pair, c: a character, o: an object) and the layout
        d = state.draft
        picks = ",".join(kind[0] + value for kind, value in d.picks) or "-"
        fields.append(f"draft {d.mode} first={d.first} deal={','.join(map(str, d.deal))} picks={picks}")
    if state.teams:
        fields.append("teams " + " ".join(
            f"{seat}=" + ",".join(f"{square_name(sq)}:{code}" for sq, code in team)
            + ("/out:" + ",".join(out) if out else "") for seat, (team, out) in sorted(state.teams.items())))
    if state.combat:
        c = state.combat
        text = (f"combat {c.number} {c.attacker}>{c.target} att={','.join(c.attackers) or '-'} "
                f"def={','.join(c.defenders)}")
        if c.shooters:
            text += " shot=" + ",".join(c.shooters)
        if c.lancer:
            text += f" lance={c.lancer}"
        if c.telepath:  # PR-CHAR-TELEPATH: B? naming, B- named nothing, B3 named +3
            text += f" mind={c.telepath}" + ("?" if c.naming else "-" if c.named is None else str(c.named))
        if c.cards:
            text += " cards=" + ",".join(f"{seat}:{v}" for seat, v in c.cards)
        fields.append(text)
    if state.placement:
        p = state.placement
        fields.append(f"placing {slot_name(p.slot)} {p.revealer}{p.placer} {','.join(p.tokens)}"
                      + (" passed" if p.passed else ""))
    if state.outcome:
        fields.append(f"over {state.outcome.winner or 'draw'} {state.outcome.reason}")
    return " ; ".join(fields)


def _digits(values) -> str:
    return "".join(map(str, values)) or "-"


def _token(t: Token) -> str:
    if t.where == "board":
        text = f"{t.id}@{square_name(t.square)}"
        if t.face_down:
            text += "?"
        if t.wounded:
            text += "!" + (str(t.wounded_turn) if t.wounded_turn >= 0 else "")
        elif t.wounded_turn >= 0:
            text += "~" + str(t.wounded_turn)  # healed, but wounded that turn (BG-COMBAT-07)
        return text
    if t.where == "room":
        return f"{t.id}#{slot_name(t.room)}.{t.order}"
    if t.where == "scored":
        return f"{t.id}>scored.{t.scored_by}"
    return f"{t.id}>{t.where}"


# --- parsing -----------------------------------------------------------------------------------------
MAX_POSITION_TEXT = 4096
"""Longest position text parse_position reads (a whole game state is under 1,500 characters)."""

_N = r"[0-9]{1,6}"
_TOKEN_RE = re.compile(rf"([by][A-Z]{{2}}[2-9]?)(?:@([a-j])([0-9]{{1,2}})(\?)?(?:(!)({_N})?|~({_N}))?"
                       rf"|#([AB])([0-9])\.({_N})|>(exited|eliminated|discarded|saved|unused|placing|scored\.[BY]))",
                       re.ASCII)
_SQUARE_RE = re.compile(r"([a-j])([0-9]{1,2})", re.ASCII)
_SLOT_RE = re.compile(r"([AB])([1-9])", re.ASCII)
_PHASES = ("draft", "build", "team", "hide", "card", "main", "combat", "place", "over")
_REQUIRED_TURN = ("ap", "high", "four", "first", "placer", "combats")


class _Fields:
    def __init__(self, text: str):
        self.text = text
        self.parts = []
        offset = 0
        for part in text.split(";"):
            stripped = part.strip()
            self.parts.append((stripped, offset + (len(part) - len(part.lstrip()))))
            offset += len(part) + 1
        self.i = 0

    def fail(self, template: str, column: int | None = None, **values: str | int) -> NotationError:
        """The NotationError `template` with its values, at `column` (the current field's by default)."""
        if column is None:
            column = self.parts[min(self.i, len(self.parts) - 1)][1]
        return NotationError(template, self.text, column, **values)

    def take(self, name: str, optional: bool = False) -> list[str] | None:
        if self.i < len(self.parts):
            words = self.parts[self.i][0].split()
            if words and words[0] == name:
                self.i += 1
                return words[1:]
        if optional:
            return None
        raise self.fail("expected the field {field}", field=repr(name))


def parse_position(text: str, check: bool = True) -> GameState:
    """Parse a position written by `format_position` (or by hand).

    Raises NotationError (saying where) for text that is not a position, and PositionError (naming the rule and
    the field) for a position the rules never allow (docs/notation.md lists every check). `check=False` skips
    the PositionError checks: only for a test that builds an impossible state on purpose, to exercise a
    defensive path of the engine.
    """
    if len(text) > MAX_POSITION_TEXT:
        raise NotationError("a position is at most {limit} characters long, not {length}", limit=MAX_POSITION_TEXT,
                            length=len(text))
    f = _Fields(text)
    if not f.parts[0][0].startswith("DT1 "):
        raise f.fail("a position starts with 'DT1 <set>'", 0)
    header = f.parts[0][0].split()
    f.i = 1
    options = _options(f, header)
    cat = options.catalogue
    room_words = f.take("rooms")
    rooms = [] if room_words == ["-"] else _rooms(f, room_words, options)
    rows = len(rooms) // 2 or options.catalogue.board["length_rooms"]  # no room laid yet: the draft (PD-TEAM)
    portcullis = {}
    for word in f.take("ports"):
        if word == "-":
            continue
        m = re.fullmatch(r"(\w+)=([cob]+)", word, re.ASCII)
        if not m or m.group(1) not in cat.rooms or len(m.group(2)) != len(cat.rooms[m.group(1)].portcullises):
            raise f.fail("bad portcullis states {word}", word=repr(word))
        if m.group(1) in portcullis:
            raise f.fail("portcullis states of {room} given twice", room=m.group(1))
        portcullis[m.group(1)] = m.group(2)
    marks = {}
    for word in f.take("marks", optional=True) or ():
        # a Golem's broken wall, an Illusionist's illusion, an enemy figure charmed this turn (PD-OBJ-CHARM-02)
        m = re.fullmatch(r"(wall:(\w+):([0-9]{1,2})|illusion:[BY]:(?:pit|rubble)|control:[BY]:(\w+))=(\w+)", word,
                         re.ASCII)
        if not m or (m.group(2) is not None and m.group(2) not in cat.rooms) or (
                m.group(4) is not None and m.group(4) != m.group(5)):
            raise f.fail("bad marker {word} (expected like wall:41G:3=bGO, illusion:B:pit=c4 or control:B:yMK=yMK)",
                         word=repr(word))
        if m.group(1) in marks:
            raise f.fail("marker {marker} given twice", marker=m.group(1))
        marks[m.group(1)] = m.group(5)
    tokens = {}
    for seat in SEATS:
        for code in [*cat.characters, *cat.objects]:
            for tid in cat.token_ids(seat, code):
                tokens[tid] = Token(tid, seat, code, code in cat.characters)
    seen = set()
    for word in f.take("tokens"):
        if word != "-":
            token = _parse_token(f, word, tokens, cat)
            if token.id in seen:
                raise PositionError("BG-COMP-04", "tokens", f"{token.id} is given twice (each token exists once)")
            seen.add(token.id)
            tokens[token.id] = token
    players = {}
    for word in f.take("cards"):
        m = re.fullmatch(r"([BY]):([2-5]+|-)/([2-5]+|-)/([0-6]+|-)/([0-9])", word)
        if not m:
            raise f.fail("bad cards {word} (expected like B:2345/-/012233456/3)", word=repr(word))
        if m.group(1) in players:
            raise f.fail("cards of {seat} given twice", seat=m.group(1))
        digits = [tuple(int(c) for c in g) if g != "-" else () for g in m.group(2, 3, 4)]
        players[m.group(1)] = Player(digits[0], digits[1], tuple(sorted(digits[2])), int(m.group(5)))
    if set(players) != set(SEATS):
        raise f.fail("cards must be given for B and Y")
    values = _turn(f, f.take("turn"), tokens)
    draft = _draft(f, f.take("draft", optional=True), cat)
    teams = _teams(f, f.take("teams", optional=True), cat)
    combat = _combat(f, f.take("combat", optional=True), tokens)
    placement = _placement(f, f.take("placing", optional=True), tokens)
    over = f.take("over", optional=True)
    outcome = None
    if over is not None:
        if not over or over[0] not in ("B", "Y", "draw"):
            raise f.fail("expected 'over <B|Y|draw> <reason>'")
        state_vp = GameState(options=options, rows=rows, rooms=tuple(rooms), portcullis={}, tokens=tokens,
                             players=players, teams={}, combat=None, placement=None, outcome=None, **values)
        outcome = Outcome(None if over[0] == "draw" else over[0],
                          tuple((s, state_vp.vp(s)) for s in SEATS), " ".join(over[1:]))
    if f.i < len(f.parts):
        raise f.fail("unexpected field {field}", field=repr((f.parts[f.i][0].split() or [''])[0]))
    state = GameState(options=options, rows=rows, rooms=tuple(rooms), portcullis=portcullis, tokens=tokens,
                      players=players, teams=teams, combat=combat, placement=placement, outcome=outcome, marks=marks,
                      draft=draft, **values)
    if check:
        validate_position(state)
    return state.seal()


# --- what a position may state ----------------------------------------------------------------------
def validate_position(state: GameState) -> None:
    """Refuse a state the rules never allow, with the rule ID and the field (docs/notation.md lists the checks).

    Checked: the rooms and portcullises, each token's place, every square (golden rules, pits, start zones), the
    cards, the turn (phase, first-cycle limit, AP), and the teams, combat, placing and over fields against the phase;
    then what the rule set's modules check (`RuleModule.position_check`: a lancer's reach, Rockfall); last, that a
    pending combat is one its declaration leaves (its group, a Telepath's naming: `_check_group`, `_check_naming`).
    Not checked: whether the history that led here is plausible (e.g. which cards were played in which turn).
    """
    _check_ports(state)
    _check_token_places(state)
    _check_squares(state)
    _check_cards(state)
    _check_turn(state)
    _check_teams(state)
    _check_combat(state)
    _check_placement(state)
    _check_outcome(state)
    for check in rulebook.position_checks(state.catalogue.rules):  # what a set's own rules never leave
        check(state)
    if state.combat is not None:  # after a shot's or a lance's own checks: their refusals say more (DT-269)
        _check_group(state, state.combat)
        _check_naming(state, state.combat)


def _check_ports(state: GameState) -> None:
    on_board = {p.tile: p for p in state.rooms}
    for tile in state.portcullis:
        if tile not in on_board:
            raise PositionError("BG-OPT-07", "ports", f"room {tile} is not on the board")
        if not on_board[tile].revealed:
            raise PositionError("BG-GEO-11", "ports", f"room {tile} is face down: its portcullises are untouched")


def _check_mix(state: GameState) -> None:
    """DT-109, DT-119: both colours play the same codes (each its own after a free choice, PD-TEAM-FREE-01),
    8 characters and 6 objects (a common object's copies
    counted, PD-TEAM-COMMON-01), all else >unused; a handicapped colour leaves out some of its characters
    (BG-OPT-08), and a copy is in play only after the ones before it."""
    cat, h = state.catalogue, state.options.handicap
    played = {}
    for seat in SEATS:
        played[seat] = {}
        for code in [*cat.characters, *cat.objects]:
            places = [state.tokens[tid].where != "unused" for tid in cat.token_ids(seat, code)]
            if places != sorted(places, reverse=True):
                raise PositionError("PD-TEAM-COMMON-01", "tokens", f"a second {code} of {seat} is in play before the "
                                                                   "first")
            if sum(places):
                played[seat][code] = sum(places)
    free = state.options.teams == "free"  # PD-TEAM-FREE-01: each side its own choice, of the same size
    message = (f"a {cat.name} game plays {cat.mix['characters']} characters and {cat.mix['objects']} objects a "
               f"side, {'each its own choice' if free else 'the same for both'} (the others >unused)")
    for seat in SEATS:
        other = played["Y" if seat == "B" else "B"]
        mine = played[seat]
        objects = sum(n for code, n in mine.items() if code in cat.objects)
        characters = sum(n for code, n in mine.items() if code in cat.characters)
        handicapped = h is not None and h.seat == seat
        if objects != cat.mix["objects"] or not free and {c: n for c, n in mine.items() if c in cat.objects} != {
                c: n for c, n in other.items() if c in cat.objects}:
            raise PositionError("DT-109", "tokens", message)
        same = free or {c for c in mine if c in cat.characters} == {c for c in other if c in cat.characters}
        fewer = handicapped and (free or {c for c in mine if c in cat.characters} <= {
            c for c in other if c in cat.characters})
        if characters != cat.mix["characters"] and not (fewer and characters == h.characters):
            raise PositionError("DT-109", "tokens", message)
        if not (same or fewer):
            raise PositionError("DT-109", "tokens", message)


def _check_draft(state: GameState) -> None:
    """PD-TEAM-MUTUAL: no room laid, the picks in stage order, valid and not repeated, both colours holding exactly
    the picked codes behind their screens (everything else >unused)."""
    d, cat = state.draft, state.catalogue
    mix = cat.mix
    rooms_picked = sum(kind == "rooms" for kind, _ in d.picks) if d else 0
    if d is None or bool(state.rooms) != (rooms_picked == mix["pairs"]):
        raise PositionError("PD-TEAM-MUTUAL-01", "draft", "a draft lays its rooms once every pair is picked")
    stages = [stage for stage, count in (("rooms", mix["pairs"]), ("characters", mix["characters"]),
                                         ("objects", mix["objects"])) for _ in range(count)]
    if len(d.picks) >= len(stages):
        raise PositionError("PD-TEAM-MUTUAL-04", "draft", "every pick is made: the draft is over")
    allowed = {"rooms": {str(room.number) for room in cat.rooms.values()}, "characters": set(cat.characters),
               "objects": set(cat.objects)}
    for i, (kind, value) in enumerate(d.picks):
        most = cat.copies.get(value, 1) if kind == "objects" else 1  # PD-TEAM-COMMON-01
        if kind != stages[i] or value not in allowed[kind] or d.picks[:i].count((kind, value)) >= most:
            raise PositionError("PD-TEAM-MUTUAL-01", "draft", f"pick {i + 1} ({kind} {value}) is not a {stages[i]} "
                                                              "pick left")
    picked = [value for kind, value in d.picks if kind != "rooms"]
    for seat in SEATS:
        for code in [*cat.characters, *cat.objects]:
            places = [state.tokens[tid].where for tid in cat.token_ids(seat, code)]
            expected = ["screen"] * picked.count(code) + ["unused"] * (len(places) - picked.count(code))
            if places != expected:
                raise PositionError("PD-TEAM-MUTUAL-02", "tokens", f"{seat.lower() + code}: during the draft the "
                                    "picked codes are behind both screens (first copies first), the others >unused")


def _check_build(state: GameState) -> None:
    """PD-TEAM-FREE: no room laid, every build one the seat could make, every token in the box until both built."""
    from .draft import build_choice  # position <- draft <- context: imported here

    d = state.draft
    if d is None or d.mode != "free" or state.rooms:
        raise PositionError("PD-TEAM-FREE-02", "draft", "a free team building lays its rooms once both have chosen")
    if len(d.builds) == len(SEATS):
        raise PositionError("PD-TEAM-FREE-01", "draft", "both have chosen: the free team building is over")
    for seat, pairs, characters, objects in d.builds:
        why = build_choice(state, seat).problem(Build(seat, pairs, characters, objects))
        if why is not None:
            raise PositionError("PD-TEAM-FREE-01", "draft", f"the build of {seat}: {why}")
    for t in state.tokens.values():
        if t.where != "unused":
            raise PositionError("PD-TEAM-FREE-01", "tokens", f"{t.id}: during a free team building every token is "
                                                             ">unused (behind the screens once both have chosen)")


def _check_token_places(state: GameState) -> None:
    cat, options, phase = state.catalogue, state.options, state.phase
    height = state.height
    board = board_of(state)
    removed = set(cat.beginner["remove"]) if options.beginner else set()
    scenario = scenario_of(options)
    if scenario is not None:  # PR-SCEN-n-02: the tokens of the scenario; every other one is unused
        in_play = {seat.lower() + code for seat in SEATS
                   for code in (*scenario["characters"][seat], *scenario["objects"][seat])}
        for t in state.tokens.values():
            if (t.where == "unused") == (t.id in in_play):
                raise PositionError("PR-SCEN", "tokens", f"{t.id}: {options.scenario} plays exactly its own tokens "
                                                         "(the others are >unused)")
        removed = {t.code for t in state.tokens.values() if t.id not in in_play}
    if phase == "draft":
        _check_draft(state)
        return
    if phase == "build":
        _check_build(state)
        return
    if cat.mix is not None:
        _check_mix(state)
    placing = set(state.placement.tokens) if state.placement else set()
    rooms: dict[tuple[int, int], list[Token]] = {}
    for t in sorted(state.tokens.values(), key=lambda t: t.id):
        if scenario is None and cat.mix is None and t.code in removed and t.where != "unused":
            raise PositionError("BG-OPT-07", "tokens", f"{t.id} is not in the beginner game (write {t.id}>unused)")
        if t.where == "unused" and t.code not in removed and scenario is None and cat.mix is None:
            h = options.handicap
            if not (h and h.seat == t.colour and t.is_character):
                rule = "BG-OPT-08" if t.is_character else "BG-OPT-07"
                raise PositionError(rule, "tokens", f"{t.id}>unused: only the beginner game's removed tokens and "
                                                    "a handicapped player's left-out characters are unused")
        if (t.where == "placing") != (t.id in placing):
            raise PositionError("BG-REVEAL-06", "tokens", f"{t.id}: exactly the tokens of the placing field are "
                                                          ">placing")
        if phase == "team" and t.where not in ("screen", "unused"):
            raise PositionError("BG-SETUP-04", "tokens", f"{t.id}: nothing is placed before both teams are chosen")
        if phase == "hide" and t.where not in ("screen", "unused", "room", "board"):
            raise PositionError("BG-SETUP-05", "tokens", f"{t.id}: during the hidden placement tokens are behind "
                                                         "the screens, on the rooms or in the starting teams")
        if t.where == "room":
            x, y = t.room
            name = f"{t.id}#{slot_name(t.room)}.{t.order}"
            if y >= state.rows:
                raise PositionError("BG-GEO-02", "tokens", f"{name}: there is no room {slot_name(t.room)}")
            if state.room_at(t.room).revealed:
                raise PositionError("BG-REVEAL-05", "tokens", f"{name}: room {slot_name(t.room)} is revealed; "
                                                              "its tokens came off it")
            if t.order < 1:
                raise PositionError("BG-SETUP-05", "tokens", f"{name}: tokens are placed one by one from 1")
            rooms.setdefault(t.room, []).append(t)
        if t.where != "board":
            continue
        sq = t.square
        name = f"{t.id}@{square_name(sq)}"
        if not (0 <= sq[0] < 2 * ROOM and -1 <= sq[1] <= height):
            raise PositionError("BG-GEO-09", "tokens", f"{name} is off the board (ranks 0 to {height + 1})")
        slot = board.slot_of(sq)
        if slot is not None and not state.room_at(slot).revealed:
            raise PositionError("BG-GEO-11", "tokens", f"{name} is on face-down room {slot_name(slot)}: hidden tokens "
                                                       f"lie on the room ({t.id}#{slot_name(slot)}.<n>)")
        owner = board.start_zone_owner(sq)
        if owner and t.is_character and t.colour != owner and can_exit(state, t.colour):
            raise PositionError("BG-EXIT-02", "tokens", f"{name}: a character never stands on the opponent's "
                                                        "start zone")
        if t.face_down:
            if phase != "hide":
                raise PositionError("BG-SETUP-10", "tokens", f"{name}?: the starting teams are face down only "
                                                             "during the hidden placement")
            if sq not in marked_squares(state, t.colour):
                raise PositionError("BG-SETUP-04", "tokens", f"{name}?: the starting team stands on its marked "
                                                             "start squares")
        elif phase == "hide":
            raise PositionError("BG-SETUP-10", "tokens", f"{name}: during the hidden placement only the face-down "
                                                         "starting teams are on the board")
        if t.wounded_turn > state.turn:
            raise PositionError("BG-COMBAT-07", "tokens", f"{name}: wounded in turn {t.wounded_turn}, after "
                                                          f"this turn {state.turn}")
    for slot, hidden in sorted(rooms.items()):
        if len(hidden) > capacity(state, slot):
            raise PositionError("BG-SETUP-06", "tokens", f"room {slot_name(slot)} holds {len(hidden)} face-down "
                                                         f"tokens, more than its {capacity(state, slot)}")
        orders = [t.order for t in hidden]
        if len(set(orders)) != len(orders):
            raise PositionError("BG-SETUP-05", "tokens", f"two tokens of room {slot_name(slot)} have the same "
                                                         "placement order")
    h = options.handicap
    if h is not None:
        out = sum(1 for t in state.tokens.values()
                  if t.colour == h.seat and t.is_character and t.where == "unused" and t.code not in removed)
        playing = sum(1 for code in cat.characters if code not in removed)
        need = 0 if phase == "team" else max(0, playing - h.characters)
        if out != need:
            raise PositionError("BG-OPT-08", "tokens", f"{h.seat} plays {h.characters} characters: {need} of "
                                                       f"them are >unused {'now' if need else 'before the teams'}, "
                                                       f"not {out}")


def _check_squares(state: GameState) -> None:
    """BG-GOLD-02/03, BG-MOVE-07/12, BG-PIT: what one square may hold when no action is under way."""
    cat = state.catalogue
    pits = board_of(state).pits
    for sq, tokens in sorted(state.occupancy().items()):
        field = f"square {square_name(sq)}"
        ids = ", ".join(sorted(t.id for t in tokens))
        figures = [t for t in tokens if t.is_character and not t.wounded]
        wounded = [t for t in tokens if t.is_character and t.wounded]
        objects = [t for t in tokens if not t.is_character]
        if len(tokens) > 1 and any(t.is_character and "strength" in cat.characters[t.code].abilities for t in tokens):
            problem = square_problem(sq, tokens, pits, cat)  # the Paladin carries two (PD-CHAR-PALADIN-01/02)
            if problem:
                raise PositionError(problem[0], field, problem[1])
            continue
        if len(objects) == 2 == len(tokens) and any("strength" in c.abilities for c in cat.characters.values()):
            continue  # two objects a Paladin left stacked when he was eliminated (PD-CHAR-PALADIN-03)
        if len(tokens) > 2:
            raise PositionError("BG-GOLD-02", field, f"{len(tokens)} tokens ({ids}): at most 2")
        if len(figures) > 1:
            raise PositionError("BG-MOVE-12", field, f"two figures ({ids})")
        if len(wounded) > 1 or len(objects) > 1:
            raise PositionError("BG-GOLD-03", field, f"two tokens of one kind ({ids})")
        if figures and wounded and wounded[0].colour != figures[0].colour:
            raise PositionError("BG-MOVE-07", field, f"a figure on an enemy wounded character ({ids})")
        if sq not in pits:
            continue
        rope = any(cat.objects[o.code].rope for o in objects)
        if figures and rope and "no_carry" in cat.characters[figures[0].code].abilities:
            raise PositionError("BG-MOVE-12", field, f"{figures[0].id} stands on a pit: he carries nothing, so not "
                                "the Rope lying there (BG-PIT-02)")
        if figures and not rope and "acrobatics" not in cat.characters[figures[0].code].abilities:
            raise PositionError("BG-MOVE-12", field, f"{figures[0].id} stands on a pit without a Rope")
        if wounded and not rope:
            raise PositionError("BG-PIT-08", field, f"{wounded[0].id} is wounded on a pit without a Rope: it fell")
        # an object alone on a pit is no drop (BG-PIT-05 forbids leaving one there): what a character carried stays
        # where it fell (DT-025, DT-241: a Thief wounded there, a Paladin whose Rope was stolen)


def _check_cards(state: GameState) -> None:
    cat = state.catalogue
    h = state.options.handicap
    scenario = scenario_of(state.options)
    cards = scenario["cards"] if scenario is not None else {  # PR-SCEN-1-02: a scenario's own cards
        "action": cat.action_cards, "combat": cat.combat_cards, "jumps": cat.jump_cards}
    for seat, p in sorted(state.players.items()):
        field = f"cards {seat}"
        if sorted(p.actions + p.played) != sorted(cards["action"]):
            raise PositionError("BG-COMP-06", field, "each action card " + ", ".join(map(str, cards["action"]))
                                + " is exactly once in hand or played")
        deck = list(cards["combat"])
        removed = list(h.removed_cards) if h and h.seat == seat else []
        for card in removed:
            deck.remove(card)
        for card in p.combat:
            if card not in deck:
                rule = "BG-OPT-08" if card in removed else "BG-COMP-07"
                raise PositionError(rule, field, f"one +{card} combat card too many")
            deck.remove(card)
        if 0 not in p.combat and cards["combat"]:
            raise PositionError("BG-COMBAT-10", field, "the +0 combat card never leaves the hand")
        if p.jumps > cards["jumps"]:
            raise PositionError("BG-JUMP-01", field, f"{p.jumps} jump cards: a player has {cards['jumps']}")


def _check_turn(state: GameState) -> None:
    cat = state.catalogue
    phase = state.phase
    if (phase in ("draft", "build")) != (state.draft is not None):
        raise PositionError("PD-TEAM-MUTUAL-01", "draft", "the draft field goes with the draft and build phases, "
                                                          "and only")
    if state.draft is not None and (phase == "build") != (state.draft.mode == "free"):
        raise PositionError("PD-TEAM-FREE-01", "draft", "a free draft goes with the build phase, a mutual one with "
                                                        "the draft phase")
    if phase in ("draft", "build", "team", "hide"):
        if state.turn != 0 or state.active is not None:
            raise PositionError("BG-SETUP-11", "turn", "turns start after the setup: write 'turn 0 -' in phases "
                                                       "team and hide")
        if state.placer is None:
            raise PositionError("BG-SETUP-05", "turn placer=", "the setup draws who places the first hidden token")
    else:
        if phase != "over" and (state.turn < 1 or state.active is None):
            raise PositionError("BG-TURN-01", "turn", f"phase {phase} is played in a turn (>= 1) of an active "
                                                      "player")
        if state.placer is not None:
            raise PositionError("BG-SETUP-09", "turn placer=", "the hidden placement is over (placer=-)")
    if state.ap > max(cat.action_cards):
        raise PositionError("BG-TURN-03", "turn ap=", f"{state.ap} AP: an action card gives at most "
                                                      f"{max(cat.action_cards)}")
    if phase in ("team", "hide", "card") and state.ap:
        raise PositionError("BG-TURN-02", "turn ap=", f"no action card played yet in phase {phase}: ap=0")
    played = [v for p in state.players.values() for v in p.played]
    if state.high_card not in (1, *cat.action_cards):
        raise PositionError("BG-ACT-02", "turn high=", "the highest action card played (1 before any)")
    if state.high_card < max(played, default=1):
        raise PositionError("BG-ACT-02", "turn high=", f"high={state.high_card} but a {max(played)} was played")
    if state.four_played and state.high_card < 4:
        raise PositionError("BG-ACT-03", "turn four=", f"four=1 but high={state.high_card}")
    if not state.four_played:
        if 4 in played:
            raise PositionError("BG-ACT-03", "turn four=", "a 4 was played: four=1")
        if state.high_card > 3:
            raise PositionError("BG-ACT-02", "turn high=", f"high={state.high_card} before any 4 was played")
        if state.high_card != max(played, default=1):
            raise PositionError("BG-ACT-02", "turn high=", f"high={state.high_card} but the highest card played "
                                                           f"is {max(played, default=1)}: before a 4, no cycle "
                                                           "is over and the played cards are all there")
    controlled = _check_control(state)
    extra = sum(o.extra_ap for o in cat.objects.values()) * len(SEATS)
    for tid, n in sorted(state.pools.items()):
        t = state.tokens[tid]
        if tid in controlled:  # PD-OBJ-CHARM-02: the charmed figure's own actions, at most the scroll's
            most = max(o.control_actions for o in cat.objects.values())
            if n > most:
                raise PositionError("PD-OBJ-CHARM-02", "turn pools=", f"{tid}:{n}: a charmed figure takes at most "
                                                                      f"{most} actions")
            continue
        if not t.is_character or t.colour != state.active:
            raise PositionError("BG-AP-05", "turn pools=", f"{tid}: potion AP belong to a character of the active "
                                                           "player, or to an enemy figure he charmed (a control "
                                                           "marker)")
        if n > extra:
            raise PositionError("BG-OBJ-POTION-02", "turn pools=", f"{tid}:{n}: a potion gives "
                                                                   f"{extra // len(SEATS)} AP")
    # PD-OBJ-CHARM-02: an enemy figure charmed this turn acted for him, and stays in acted= when the control ends
    # before the turn does (the figure exited, was wounded); the Charm Scroll read is discarded (PD-OBJ-CHARM-01)
    charmed = controlled or any(t.where == "discarded" and not t.is_character and cat.objects[t.code].use == "charm"
                                for t in state.tokens.values())
    for tid in sorted(state.acted):
        t = state.tokens[tid]
        if not t.is_character or (t.colour != state.active and not (charmed and state.active is not None)):
            raise PositionError("BG-AP-02", "turn acted=", f"{tid}: only the active player's characters act (and "
                                                           "an enemy figure he charmed, once a Charm Scroll is read)")
    for tid in sorted(state.exhausted):
        if not state.tokens[tid].is_character:
            raise PositionError("BG-CHAR-CLERIC-02", "turn exhausted=", f"{tid}: only characters are healed")


def _check_control(state: GameState) -> set[str]:
    """The control markers `control:<seat>:<token>=<token>` (PD-OBJ-CHARM-02): the active player controls the
    enemy figure he charmed this turn, an unwounded character on the board, while a read Charm Scroll lies
    discarded. Returns the controlled figures."""
    controlled = set()
    for name, tid in sorted(state.marks.items()):
        if not name.startswith("control:"):
            continue
        seat, t = name.split(":")[1], state.tokens.get(tid)
        if seat != state.active:
            raise PositionError("PD-OBJ-CHARM-02", "marks", f"{name}: the control lasts only for the turn of the "
                                                            "player who charmed")
        if t is None or not t.is_figure or t.colour == seat:
            raise PositionError("PD-OBJ-CHARM-01", "marks", f"{name}: the charmed figure is an unwounded enemy "
                                                            "character on the board")
        if not any(s.where == "discarded" and not s.is_character and state.catalogue.objects[s.code].use == "charm"
                   for s in state.tokens.values()):
            raise PositionError("PD-OBJ-CHARM-01", "marks", f"{name}: no Charm Scroll was read (discarded)")
        controlled.add(tid)
    return controlled


def _check_teams(state: GameState) -> None:
    if state.teams and state.phase != "team":
        raise PositionError("BG-SETUP-04", "teams", "secret teams are pending only in phase team")
    for seat, (team, out) in sorted(state.teams.items()):
        field = f"teams {seat}"
        squares = [sq for sq, _ in team]
        marked = marked_squares(state, seat)
        size = team_size(state, seat)
        if len(set(squares)) != size or len(squares) != size or any(sq not in marked for sq in squares):
            raise PositionError("BG-SETUP-04", field, f"one character on each of {size} marked start squares")
        codes = [code for _, code in team]
        available = [t.code for t in state.tokens.values()
                     if t.colour == seat and t.is_character and t.where != "unused"]
        if len(set(codes)) != len(codes) or any(c not in available for c in codes):
            raise PositionError("BG-SETUP-04", field, "4 different characters of the game")
        h = state.options.handicap
        need = max(0, len(available) - h.characters) if h and h.seat == seat else 0
        if len(set(out)) != len(out) or len(out) != need or any(c in codes or c not in available for c in out):
            raise PositionError("BG-OPT-08", field, f"leave out exactly {need} other character(s)")


def _check_combat(state: GameState) -> None:
    c = state.combat
    if (c is not None) != (state.phase == "combat"):
        raise PositionError("BG-COMBAT-02", "combat", "a combat field exactly in phase combat")
    if c is None:
        return
    tokens = state.tokens
    a, t = tokens[c.attacker], tokens[c.target]
    distant = c.shooters or ((c.lancer,) if c.lancer else ())
    # the attacking side is the attacker's colour: the active player's, or that of an enemy figure he charmed, which
    # attacks his own characters (PD-OBJ-CHARM-04/05, DT-117)
    side = a.colour
    charmed = any(name.startswith("control:") and who == c.attacker for name, who in state.marks.items())
    if not a.is_figure or (side != state.active and not charmed) or c.attacker not in (distant or c.attackers):
        raise PositionError("BG-COMBAT-01", "combat", f"{c.attacker}: the attacker is a figure of the active "
                                                      "player (or one he charmed), among att= (shot= for a shot)")
    for tid in c.shooters:
        if tid in c.attackers + c.defenders or not tokens[tid].is_figure or tokens[tid].colour != side:
            raise PositionError("PR-RANGED-09", "combat", f"{tid}: a shooter is a figure of the attacker's side, "
                                                          "not among att= or def=")
        if ranged_weapon(state, tokens[tid]) is None:  # (resolved, it would count 0 for its shot)
            raise PositionError("PR-RANGED-01", "combat", f"{tid}: a shooter carries a ranged weapon (a Bow)")
    if c.lancer and not any("lance" in state.catalogue.objects[o.code].abilities
                            for o in carried_objects(state, tokens[c.lancer])):
        raise PositionError("PR-OBJ-LANCE-01", "combat", f"{c.lancer}: the lancer carries the Telescopic Lance")
    if not (t.is_character and t.where == "board" and t.colour != side) or c.target not in c.defenders:
        raise PositionError("BG-COMBAT-01", "combat", f"{c.target}: the target is an enemy character in play, "
                                                      "among def=")
    for tid in c.attackers + c.defenders:
        attacking = tid in c.attackers
        token = tokens[tid]
        if attacking and (token.colour != side or not token.is_figure):
            raise PositionError("BG-GROUP-02", "combat", f"{tid}: attackers are figures of the attacker's side")
        if not attacking and (token.colour == side or not (token.is_figure or tid == c.target)):
            raise PositionError("BG-GROUP-03", "combat", f"{tid}: defenders are enemy figures (and the target)")
    if len(set(c.attackers + c.defenders)) != len(c.attackers + c.defenders):
        raise PositionError("BG-GROUP-02", "combat", "a participant is named twice")
    seats = [seat for seat, _ in c.cards]
    if len(seats) > 1:
        raise PositionError("BG-COMBAT-02", "combat", "both cards are in: the combat is resolved")
    for seat, value in c.cards:
        if value not in state.players[seat].combat:
            raise PositionError("BG-COMBAT-06", "combat", f"{seat} has no +{value} combat card in hand")


def _check_group(state: GameState, c: Combat) -> None:
    """The combat is one its declaration could leave (DT-269; nothing moves before the cards): a melee's attacker
    beside its target, the target not wounded this turn nor carried (BG-COMBAT-01/07, BG-CARRY-04, as
    `combat.declare`), no combat in a game without (PR-SCEN-1-05); and its participants exactly the group that grows
    from the target (BG-GROUP-02, PR-CORE-17; from a shot or a lance with the shooters and the lancer touching nobody,
    PR-RANGED-08, PR-OBJ-LANCE-05), which `combat.resolve` counts."""
    rule = no_combat(state)
    if rule:
        raise PositionError(rule, "combat", "there is no combat in this game")
    board, attacker, target = board_of(state), state.tokens[c.attacker], state.tokens[c.target]
    distant = c.shooters or c.lancer
    if not distant:
        if not board.connected(attacker.square, target.square):
            raise PositionError("BG-COMBAT-01", "combat", f"{c.target} is not on a square beside {c.attacker}")
        if target.wounded_turn == state.turn:
            raise PositionError("BG-COMBAT-07", "combat", f"{c.target} was wounded this turn")
        if target.wounded and any(o.is_figure and o.square == target.square for o in state.tokens.values()):
            raise PositionError("BG-CARRY-04", "combat", f"{c.target} is carried and cannot be attacked")
    attackers, defenders = participants(state, board, None if distant else attacker, target, attacker.colour)
    if (tuple(attackers), tuple(defenders)) != (tuple(sorted(c.attackers)), tuple(sorted(c.defenders))):
        raise PositionError("BG-GROUP-02", "combat", f"the group growing from {c.target} is "
                                                     f"att={','.join(attackers) or '-'} def={','.join(defenders)}")


def _check_naming(state: GameState, c: Combat) -> None:
    """A Telepath's naming (`mind=`) is the one the declaration left (DT-108, DT-269): in a single melee (one fighter a
    side, a lone lancer counting as one, RUL-118) with one unwounded Telepath, his player's; none in a shot, a group
    combat or with two Telepaths (PR-CHAR-TELEPATH-01/03/04); and a pending naming comes before any card. Nothing
    changes the participants before the cards, so what `combat.declare` would decide now is what it decided."""
    fighters = [*c.attackers, *((c.lancer,) if c.lancer else ())]
    expected = None if c.shooters else mind_controller(state, fighters, list(c.defenders))
    written = f"mind={c.telepath}" + ("?" if c.naming else "-" if c.named is None else str(c.named))
    if c.telepath == expected:
        if c.naming and c.cards:
            raise PositionError("PR-CHAR-TELEPATH-01", "combat",
                                f"{written}: the Telepath's player names a card before any card is laid")
        return
    if c.telepath is None:
        raise PositionError("PR-CHAR-TELEPATH-01", "combat", f"a single melee with {expected}'s Telepath: his player "
                                                             f"names a card or none first (mind={expected}?, "
                                                             f"{expected}-, {expected}1..{expected}6)")
    telepaths = [tid for tid in (*fighters, *c.defenders) if not state.tokens[tid].wounded
                 and "mind_control" in state.catalogue.characters[state.tokens[tid].code].abilities]
    if c.shooters:
        raise PositionError("PR-CHAR-TELEPATH-03", "combat", f"{written}: no Telepath names a card in a shot")
    if len(fighters) != 1 or len(c.defenders) != 1:
        raise PositionError("PR-CHAR-TELEPATH-03", "combat", f"{written}: no Telepath names a card in a group combat")
    if len(telepaths) == 2:
        raise PositionError("PR-CHAR-TELEPATH-04", "combat",
                            f"{written}: two Telepaths cancel each other, nobody names a card")
    raise PositionError("PR-CHAR-TELEPATH-01", "combat",
                        f"{written}: no unwounded Telepath of {c.telepath} fights this single melee")


def _check_placement(state: GameState) -> None:
    p = state.placement
    if (p is not None) != (state.phase == "place"):
        raise PositionError("BG-REVEAL-06", "placing", "a placing field exactly in phase place")
    if p is None:
        return
    if p.slot[1] >= state.rows or not state.room_at(p.slot).revealed:
        raise PositionError("BG-REVEAL-05", "placing", f"room {slot_name(p.slot)} is not a revealed room")
    if p.revealer != state.active:
        raise PositionError("BG-REVEAL-06", "placing", "the revealer is the active player")
    if len(set(p.tokens)) != len(p.tokens):
        raise PositionError("BG-REVEAL-06", "placing", "a token is named twice")
    if p.passed and p.placer != p.revealer:
        raise PositionError("BG-OPT-03", "placing", "after a pass the revealer places the rest")
    # BG-REVEAL-06, PR-CORE-07 (`rooms._advance`): the revealer places all but his own colour's objects, then the
    # opponent those; a pass (BG-OPT-03) comes only once the opponent's turn to place has come
    other = "Y" if p.revealer == "B" else "B"
    his = [tid for tid in p.tokens if placed_by(state.tokens[tid], p.revealer) == p.revealer]
    if p.passed and his:
        raise PositionError("BG-OPT-03", "placing", f"{p.revealer} places {his[0]} before {other} may pass")
    if not p.passed and p.placer == other and his:
        raise PositionError("BG-REVEAL-06", "placing", f"{p.revealer} places {his[0]} before {other} places "
                                                       f"{p.revealer}'s objects")
    if not p.passed and p.placer == p.revealer and not his:
        raise PositionError("BG-REVEAL-06", "placing", f"only {p.revealer}'s own objects wait: {other} places them")


def _check_outcome(state: GameState) -> None:
    o = state.outcome
    if (o is not None) != (state.phase == "over"):
        raise PositionError("BG-END-02", "over", "an over field exactly in phase over")
    if o is None:
        return
    vp = {seat: state.vp(seat) for seat in SEATS}
    winner = None if vp["B"] == vp["Y"] else max(vp, key=vp.get)
    scenario = scenario_of(state.options)
    if scenario is not None and scenario["victory"].get("immediate"):
        victory = scenario["victory"]
        if o.reason in {victory[key] for key in ("reason", "reason_eliminated", "reason_saved") if key in victory}:
            return  # the scenario's own victory condition named the winner (PR-SCEN): its module checks it
        if victory.get("draw_otherwise") and o.winner is not None:  # PR-SCEN-2-07: any other end is a draw
            raise PositionError(victory_rule(victory), "over", f"{o.reason}: any other end of this scenario is a draw")
        if victory.get("draw_otherwise"):
            return
    if o.winner != winner:
        raise PositionError("BG-END-03" if winner is None or o.winner is None else "BG-END-02", "over",
                            f"with {vp['B']} VP to {vp['Y']} the result is {winner or 'a draw'}")


def format_options(options: Options) -> str:
    """`vp=5 [beginner] [handicap=<seat>/<characters>/<removed cards|->]`, as positions and records write them."""
    text = f"vp={options.target_vp}" + (" beginner" if options.beginner else "")
    if options.scenario:
        text += f" scenario={options.scenario}"
    if options.teams != "random":
        text += f" teams={options.teams}"
    h = options.handicap
    if h:
        text += f" handicap={h.seat}/{h.characters}/{''.join(map(str, h.removed_cards)) or '-'}"
    return text


def parse_options(words: list[str], set_name: str = "base_set") -> Options:
    """The inverse of format_options; raises ValueError naming the first word it does not understand."""
    target, beginner, handicap, scenario, teams = 5, False, None, None, "random"
    for word in words:
        if m := re.match(r"^vp=([1-9])$", word):  # validate_options says which targets a game may have
            target = int(m.group(1))
        elif word == "beginner":
            beginner = True
        elif m := re.match(r"^scenario=([a-z0-9-]{1,40})$", word):
            scenario = m.group(1)
        elif m := re.match(r"^teams=([a-z]{1,10})$", word):
            teams = m.group(1)
        elif m := re.match(r"^handicap=([BY])/([4-8])/([1-6]+|-)$", word):
            cards = tuple(int(c) for c in m.group(3)) if m.group(3) != "-" else ()
            handicap = Handicap(m.group(1), int(m.group(2)), cards)
        else:
            raise ValueError(word)
    return Options(target, beginner, handicap, set_name, scenario, teams)


def _options(f: _Fields, header: list[str]) -> Options:
    set_name = header[1]
    if not re.fullmatch(r"[a-z][a-z0-9_-]{0,39}", set_name):
        raise f.fail("bad set name {name}", 4, name=repr(set_name))
    try:
        load(set_name)
    except KeyError:
        raise f.fail("unknown set {name}", 4, name=repr(set_name)) from None
    try:
        options = parse_options(header[2:], set_name)
    except ValueError as error:
        raise f.fail("bad option {option}", 0, option=str(error)) from None
    try:
        validate_options(options)
    except ValueError as error:
        rule, _, message = str(error).partition(": ")
        raise PositionError(rule, "DT1", message) from None
    return options


def _rooms(f: _Fields, words: list[str], options: Options) -> list[RoomPlace]:
    cat = options.catalogue
    rooms = []
    for word in words:
        m = re.fullmatch(r"([AB])([1-9])=(\*?)(\w+)/([0-3])", word, re.ASCII)
        if not m or m.group(4) not in cat.rooms:
            raise f.fail("bad room {word} (expected like A1=1G/0 or B2=*3D/1)", word=repr(word))
        rooms.append(RoomPlace(("AB".index(m.group(1)), int(m.group(2)) - 1), m.group(4), int(m.group(5)),
                               m.group(3) == ""))
    rooms.sort(key=lambda p: (p.slot[1], p.slot[0]))
    rows = len(rooms) // 2
    if not rooms or [p.slot for p in rooms] != [(c, r) for r in range(rows) for c in range(2)]:
        raise f.fail("rooms must fill a 2-wide grid: A1 B1 A2 B2 ...")
    tiles = [p.tile for p in rooms]
    for tile in tiles:
        if tiles.count(tile) > 1:
            raise PositionError("BG-COMP-02", "rooms", f"room tile {tile} is laid twice")
    beginner = options.beginner
    expected = cat.beginner["length_rooms"] if beginner else cat.board["length_rooms"]
    scenario = scenario_of(options)
    if scenario is not None:
        expected = scenario["length_rooms"]
        if sorted({cat.rooms[t].number for t in tiles}) != sorted(scenario["pairs"]):
            raise PositionError("PR-SCEN", "rooms", f"{options.scenario} is played with the pairs "
                                                    f"{', '.join(map(str, scenario['pairs']))}")
    if rows != expected:
        rule = "BG-OPT-07" if beginner else "BG-GEO-02"
        raise PositionError(rule, "rooms", f"{'the beginner game' if beginner else 'a game'} has {2 * expected} "
                                           f"rooms ({expected} rows of 2), not {len(rooms)}")
    numbers = [cat.rooms[t].number for t in tiles]
    for tile, number in zip(tiles, numbers):
        if numbers.count(number) != 2:
            raise PositionError("BG-OPT-07" if beginner else "BG-COMP-02", "rooms",
                                f"room {tile} is laid without its twin (rooms come in pairs)")
    return rooms


def _parse_token(f: _Fields, word: str, tokens: dict, cat) -> Token:
    m = _TOKEN_RE.fullmatch(word)
    if not m or m.group(1) not in tokens:
        raise f.fail("bad token {word} (expected like bWA@c4, yTR@e7!3, bRP#A2.1, bGB>exited)", word=repr(word))
    base = tokens[m.group(1)]
    if m.group(2):
        if (m.group(5) or m.group(7)) and not base.is_character:
            raise PositionError("BG-WOUND-01", "tokens", f"{word}: only a character can be wounded")
        if m.group(4) and not base.is_character:
            raise PositionError("BG-SETUP-04", "tokens", f"{word}: only the starting team's characters lie face "
                                                         "down on the start zone")
        if m.group(4) and m.group(5):
            raise PositionError("BG-SETUP-04", "tokens", f"{word}: a face-down starting character is not wounded")
        wounded_turn = int(m.group(6)) if m.group(6) else int(m.group(7)) if m.group(7) else -1
        return base.moved(where="board", square=(ord(m.group(2)) - ord("a"), int(m.group(3)) - 1),
                          face_down=bool(m.group(4)), wounded=bool(m.group(5)), wounded_turn=wounded_turn)
    if m.group(8):
        return base.moved(where="room", room=("AB".index(m.group(8)), int(m.group(9)) - 1), order=int(m.group(10)))
    where = m.group(11)
    kind = "character" if base.is_character else "object"
    allowed = {"exited": ("BG-EXIT-04", base.is_character, "objects carried out are discarded or scored"),
               "saved": ("BG-CARRY-05", base.is_character, "only a wounded character is saved"),
               "eliminated": ("BG-VP-04", base.is_character, "only characters are eliminated"),
               "discarded": ("BG-ABIL-03", not base.is_character, "only objects are discarded")}
    if where in allowed and not allowed[where][1]:
        raise PositionError(allowed[where][0], "tokens", f"{word}: a {kind} is never {where}: {allowed[where][2]}")
    if where.startswith("scored."):
        if base.is_character or not cat.objects[base.code].exit_vp:
            raise PositionError("BG-VP-03", "tokens", f"{word}: only a Treasure carried out scores")
        return base.moved(where="scored", scored_by=where[-1])
    return base.moved(where=where)


def _draft(f: _Fields, words: list[str] | None, cat) -> Draft | None:
    """`draft mutual first=B deal=<slot order>,<orientations> picks=r37,cWA,... | picks=-` (PD-TEAM-MUTUAL);
    `draft free first=B deal=<slot order>,<orientations>,<pair order> builds=B:37.41/CL.../FS...;Y:... | builds=-`
    (PD-TEAM-FREE)."""
    if words is None:
        return None
    count = 2 * cat.mix["pairs"] if cat.mix else 0
    if words[:1] == ["free"]:
        return _free_draft(f, words, cat, count)
    m = re.fullmatch(r"mutual first=([BY]) deal=([0-9,]{1,60}) picks=(-|[rco][A-Z0-9]{1,2}(?:,[rco][A-Z0-9]{1,2}){0,40})",
                     " ".join(words), re.ASCII)
    if not m or not count:
        raise f.fail("expected 'draft mutual first=<B|Y> deal=<numbers> picks=<r37,cWA,...|->' in a mixed game")
    deal = tuple(int(n) for n in m.group(2).split(","))
    if len(deal) != 2 * count or sorted(deal[:count]) != list(range(count)) or any(n > 3 for n in deal[count:]):
        raise f.fail("a draft's deal is an order of the {count} slots, then {count} orientations 0-3", count=count)
    stages = {"r": "rooms", "c": "characters", "o": "objects"}
    picks = () if m.group(3) == "-" else tuple((stages[p[0]], p[1:]) for p in m.group(3).split(","))
    return Draft("mutual", m.group(1), picks, deal)


def _free_draft(f: _Fields, words: list[str], cat, count: int) -> Draft:
    code, pairs = r"[A-Z]{2}", r"[1-9][0-9]?"
    build = rf"[BY]:{pairs}(?:\.{pairs})*/{code}(?:\.{code})*/{code}(?:\.{code})*"
    m = re.fullmatch(rf"free first=([BY]) deal=([0-9,]{{1,200}}) builds=(-|{build}(?:;{build})?)", " ".join(words),
                     re.ASCII)
    if not m or not count:
        raise f.fail("expected 'draft free first=<B|Y> deal=<numbers> builds=<B:37.41/CL.../FS...;Y:...|->' in a "
                     "mixed game")
    deal = tuple(int(n) for n in m.group(2).split(","))
    numbers = sorted({room.number for room in cat.rooms.values()})
    if (len(deal) != 2 * count + len(numbers) or sorted(deal[:count]) != list(range(count))
            or any(n > 3 for n in deal[count:2 * count]) or sorted(deal[2 * count:]) != numbers):
        raise f.fail("a free draft's deal is an order of the {count} slots, then {count} orientations 0-3, then "
                     "an order of the sets' pair numbers", count=count)
    builds = []
    for text in () if m.group(3) == "-" else m.group(3).split(";"):
        seat, rest = text.split(":")
        pairs, characters, objects = rest.split("/")
        if any(b[0] == seat for b in builds):
            raise f.fail("the build of {seat} is given twice", seat=seat)
        builds.append((seat, tuple(sorted(int(n) for n in pairs.split("."))), tuple(sorted(characters.split("."))),
                       tuple(sorted(objects.split(".")))))
    return Draft("free", m.group(1), (), deal, tuple(sorted(builds)))


def _turn(f: _Fields, words: list[str], tokens: dict) -> dict:
    if len(words) < 3:
        raise f.fail("expected 'turn <n> <seat|-> <phase> ...'")
    if not re.fullmatch(_N, words[0]) or words[1] not in ("B", "Y", "-") or words[2] not in _PHASES:
        raise f.fail("bad turn field: turn number, active seat and one of {phases}", phases=", ".join(_PHASES))
    values = dict(turn=int(words[0]), active=None if words[1] == "-" else words[1], phase=words[2], pools={},
                  acted=frozenset(), exhausted=frozenset())
    given = set()
    for word in words[3:]:
        key, _, value = word.partition("=")
        if key in given:
            raise f.fail("turn attribute {key}= given twice", key=key)
        given.add(key)
        if key in ("ap", "high", "combats") and re.fullmatch(_N, value):
            values[{"high": "high_card"}.get(key, key)] = int(value)
        elif key == "four" and value in ("0", "1"):
            values["four_played"] = value == "1"
        elif key == "first" and value in SEATS:
            values["first_player"] = value
        elif key == "placer" and value in ("B", "Y", "-"):
            values["placer"] = None if value == "-" else value
        elif key == "pools" and re.fullmatch(rf"[by][A-Z]{{2}}[2-9]?:{_N}(,[by][A-Z]{{2}}[2-9]?:{_N})*", value):
            pairs = [p.split(":") for p in value.split(",")]
            values["pools"] = {_known(f, t, tokens): int(n) for t, n in pairs}
            if len(values["pools"]) != len(pairs):
                raise f.fail("a token is given twice in {word}", word=repr(word))
        elif key in ("acted", "exhausted") and value:
            values[key] = frozenset(_known(f, t, tokens) for t in value.split(","))
        else:
            raise f.fail("bad turn attribute {word}", word=repr(word))
    missing = [key for key in _REQUIRED_TURN if key not in given]
    if missing:
        raise f.fail("the turn field needs {fields} (no default: it would silently change the rules, e.g. the "
                     "first-cycle limit)", fields=" ".join(k + "=" for k in missing))
    return values


def _known(f: _Fields, token_id: str, tokens: dict) -> str:
    if token_id not in tokens:
        raise f.fail("unknown token {token}", token=repr(token_id))
    return token_id


def _square(f: _Fields, text: str):
    m = _SQUARE_RE.fullmatch(text)
    if not m:
        raise f.fail("bad square {word}", word=repr(text))
    return ord(m.group(1)) - ord("a"), int(m.group(2)) - 1


def _teams(f: _Fields, words: list[str] | None, cat) -> dict:
    teams = {}
    for word in words or ():
        m = re.fullmatch(r"([BY])=([a-j0-9:A-Z,]+?)(?:/out:([A-Z,]*))?", word, re.ASCII)
        if not m or m.group(1) in teams:
            raise f.fail("bad team {word} (expected like B=b0:TH,d0:WA,g0:TR,i0:GB[/out:MK])", word=repr(word))
        team = []
        for part in m.group(2).split(","):
            square, _, code = part.partition(":")
            if code not in cat.characters:
                raise f.fail("bad team {word}: {part} is not square:character", word=repr(word), part=repr(part))
            team.append((_square(f, square), code))
        out = [c for c in (m.group(3) or "").split(",") if c]
        if any(c not in cat.characters for c in out):
            raise f.fail("bad team {word}: out: lists character codes", word=repr(word))
        teams[m.group(1)] = (tuple(sorted(team)), tuple(sorted(out)))
    return teams


def _combat(f: _Fields, words: list[str] | None, tokens: dict) -> Combat | None:
    if words is None:
        return None
    usage = N_("bad combat field (expected 'combat <n> <attacker>><target> att=... def=... [shot=...] [cards=B:3]')")
    if len(words) not in (4, 5, 6, 7, 8) or not re.fullmatch(_N, words[0]) or not re.fullmatch(r"\w+>\w+", words[1]):
        raise f.fail(usage)
    attacker, target = (_known(f, t, tokens) for t in words[1].split(">"))
    if not words[2].startswith("att=") or not words[3].startswith("def="):
        raise f.fail(usage)
    attackers = () if words[2] == "att=-" else tuple(_known(f, t, tokens) for t in words[2][4:].split(","))
    defenders = tuple(_known(f, t, tokens) for t in words[3][4:].split(","))
    rest = words[4:]
    shooters = ()
    if rest and rest[0].startswith("shot="):
        shooters = tuple(_known(f, t, tokens) for t in rest.pop(0)[5:].split(","))
    lancer = None
    if rest and rest[0].startswith("lance="):
        lancer = _known(f, rest.pop(0)[6:], tokens)
    telepath, naming, named = None, False, None
    if rest and rest[0].startswith("mind="):
        m = re.fullmatch(r"mind=([BY])([?\-1-6])", rest.pop(0))
        if not m:
            raise f.fail(usage)
        telepath, naming = m.group(1), m.group(2) == "?"
        named = int(m.group(2)) if m.group(2).isdigit() else None
    cards = ()
    if rest:
        m = re.fullmatch(r"cards=([BY]:[0-6](?:,[BY]:[0-6])*)", rest[0])
        if not m or len(rest) > 1:
            raise f.fail(usage)
        cards = tuple((p[0], int(p[2])) for p in m.group(1).split(","))
    return Combat(int(words[0]), attacker, target, attackers, defenders, cards, shooters, lancer, telepath, naming,
                  named)


def _placement(f: _Fields, words: list[str] | None, tokens: dict) -> Placement | None:
    if words is None:
        return None
    if len(words) not in (3, 4) or not re.fullmatch(r"[BY][BY]", words[1]) or words[3:] not in ([], ["passed"]):
        raise f.fail("bad placing field (expected 'placing <slot> <revealer><placer> <tokens> [passed]')")
    m = _SLOT_RE.fullmatch(words[0])
    if not m:
        raise f.fail("bad room {word}", word=repr(words[0]))
    return Placement(("AB".index(m.group(1)), int(m.group(2)) - 1), words[1][0], words[1][1],
                     tuple(_known(f, t, tokens) for t in words[2].split(",")), len(words) > 3)
