"""Canonical position notation (docs/notation.md): any game state, hidden facts included, as one line.

Fields are separated by " ; " and always appear in this order:
  DT1 <set> vp=<n> [beginner] [handicap=<seat>/<characters>/<cards>]
  rooms <slot>=[*]<tile>/<orientation> ...          (* = face down)
  ports <tile>=<c|o|b per portcullis> ... | ports -
  tokens <token><where> ...                          (tokens behind their screen are omitted)
  cards <seat>:<hand>/<played>/<combat>/<jumps> <seat>:...
  turn <n> <active|-> <phase> ap=<n> high=<n> four=<0|1> first=<seat> placer=<seat|-> combats=<n>
       [pools=<token>:<n>,...] [acted=<token>,...] [exhausted=<token>,...]
  [teams <seat>=<square>:<code>,...[/out:<code>,...] ...]
  [combat <n> <attacker>><target> att=<ids> def=<ids> [cards=<seat>:<v>,...]]
  [placing <slot> <revealer><placer> <tokens>[ passed]]
  [over <winner|draw> <reason words>]
Token places: @c4 on a square (! wounded, !<turn> wounded that turn, ? face down), #A2.<order> face down in a room,
and >exited >eliminated >discarded >saved >unused >placing >scored.<seat>.
"""

from __future__ import annotations

import re

from .catalogue import load
from .errors import NotationError
from .geometry import slot_name, square_name
from .state import SEATS, Combat, GameState, Handicap, Options, Outcome, Placement, Player, RoomPlace, Token


def format_position(state: GameState) -> str:
    fields = [f"DT1 {state.options.set_name} {format_options(state.options)}"]
    fields.append("rooms " + " ".join(
        f"{slot_name(p.slot)}={'' if p.revealed else '*'}{p.tile}/{p.orientation}" for p in state.rooms))
    ports = [f"{tile}={states}" for tile, states in sorted(state.portcullis.items())]
    fields.append("ports " + (" ".join(ports) or "-"))
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
    if state.teams:
        fields.append("teams " + " ".join(
            f"{seat}=" + ",".join(f"{square_name(sq)}:{code}" for sq, code in team)
            + ("/out:" + ",".join(out) if out else "") for seat, (team, out) in sorted(state.teams.items())))
    if state.combat:
        c = state.combat
        text = f"combat {c.number} {c.attacker}>{c.target} att={','.join(c.attackers)} def={','.join(c.defenders)}"
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
_TOKEN_RE = re.compile(r"^([by][A-Z]{2})(?:@([a-j])(\d{1,2})(\?)?(?:(!)(\d+)?)?(?:~(\d+))?"
                       r"|#([AB])(\d)\.(\d+)|>(exited|eliminated|discarded|saved|unused|placing|scored\.[BY]))$")


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

    def fail(self, message: str, column: int | None = None) -> NotationError:
        if column is None:
            column = self.parts[min(self.i, len(self.parts) - 1)][1]
        return NotationError(message, self.text, column)

    def take(self, name: str, optional: bool = False) -> list[str] | None:
        if self.i < len(self.parts):
            words = self.parts[self.i][0].split()
            if words and words[0] == name:
                self.i += 1
                return words[1:]
        if optional:
            return None
        raise self.fail(f"expected the field {name!r}")


def parse_position(text: str) -> GameState:
    """Parse a position written by `format_position` (or by hand). Raises NotationError saying where."""
    f = _Fields(text)
    if not f.parts[0][0].startswith("DT1 "):
        raise f.fail("a position starts with 'DT1 <set>'", 0)
    header = f.parts[0][0].split()
    f.i = 1
    options = _options(f, header)
    cat = options.catalogue
    rooms = []
    for word in f.take("rooms"):
        m = re.match(r"^([AB])(\d)=(\*?)(\w+)/([0-3])$", word)
        if not m or m.group(4) not in cat.rooms:
            raise f.fail(f"bad room {word!r} (expected like A1=1G/0 or B2=*3D/1)")
        rooms.append(RoomPlace(("AB".index(m.group(1)), int(m.group(2)) - 1), m.group(4), int(m.group(5)),
                               m.group(3) == ""))
    rooms.sort(key=lambda p: (p.slot[1], p.slot[0]))
    rows = len(rooms) // 2
    if [p.slot for p in rooms] != [(c, r) for r in range(rows) for c in range(2)]:
        raise f.fail("rooms must fill a 2-wide grid: A1 B1 A2 B2 ...")
    portcullis = {}
    for word in f.take("ports"):
        if word == "-":
            continue
        m = re.match(r"^(\w+)=([cob]+)$", word)
        if not m or m.group(1) not in cat.rooms or len(m.group(2)) != len(cat.rooms[m.group(1)].portcullises):
            raise f.fail(f"bad portcullis states {word!r}")
        portcullis[m.group(1)] = m.group(2)
    tokens = {}
    for seat in SEATS:
        for code in [*cat.characters, *cat.objects]:
            tid = seat.lower() + code
            tokens[tid] = Token(tid, seat, code, code in cat.characters)
    for word in f.take("tokens"):
        if word != "-":
            token = _parse_token(f, word, tokens)
            tokens[token.id] = token
    players = {}
    for word in f.take("cards"):
        m = re.match(r"^([BY]):([2-5]+|-)/([2-5]+|-)/([0-6]+|-)/(\d)$", word)
        if not m:
            raise f.fail(f"bad cards {word!r} (expected like B:2345/-/012233456/3)")
        digits = [tuple(int(c) for c in g) if g != "-" else () for g in m.group(2, 3, 4)]
        players[m.group(1)] = Player(digits[0], digits[1], tuple(sorted(digits[2])), int(m.group(5)))
    if set(players) != set(SEATS):
        raise f.fail("cards must be given for B and Y")
    values = _turn(f, f.take("turn"))
    teams = _teams(f, f.take("teams", optional=True))
    combat = _combat(f, f.take("combat", optional=True))
    placement = _placement(f, f.take("placing", optional=True))
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
        raise f.fail(f"unexpected field {f.parts[f.i][0].split()[0]!r}")
    return GameState(options=options, rows=rows, rooms=tuple(rooms), portcullis=portcullis, tokens=tokens,
                     players=players, teams=teams, combat=combat, placement=placement, outcome=outcome,
                     **values).seal()


def format_options(options: Options) -> str:
    """`vp=5 [beginner] [handicap=<seat>/<characters>/<removed cards|->]`, as positions and records write them."""
    text = f"vp={options.target_vp}" + (" beginner" if options.beginner else "")
    h = options.handicap
    if h:
        text += f" handicap={h.seat}/{h.characters}/{''.join(map(str, h.removed_cards)) or '-'}"
    return text


def parse_options(words: list[str], set_name: str = "base_set") -> Options:
    """The inverse of format_options; raises ValueError naming the first word it does not understand."""
    target, beginner, handicap = 5, False, None
    for word in words:
        if m := re.match(r"^vp=([5-8])$", word):
            target = int(m.group(1))
        elif word == "beginner":
            beginner = True
        elif m := re.match(r"^handicap=([BY])/([4-8])/([1-6]+|-)$", word):
            cards = tuple(int(c) for c in m.group(3)) if m.group(3) != "-" else ()
            handicap = Handicap(m.group(1), int(m.group(2)), cards)
        else:
            raise ValueError(word)
    return Options(target, beginner, handicap, set_name)


def _options(f: _Fields, header: list[str]) -> Options:
    set_name = header[1]
    try:
        load(set_name)
    except KeyError:
        raise f.fail(f"unknown set {set_name!r}", 4) from None
    try:
        return parse_options(header[2:], set_name)
    except ValueError as error:
        raise f.fail(f"bad option {error}", 0) from None


def _parse_token(f: _Fields, word: str, tokens: dict) -> Token:
    m = _TOKEN_RE.match(word)
    if not m or m.group(1) not in tokens:
        raise f.fail(f"bad token {word!r} (expected like bWA@c4, yTR@e7!3, bRP#A2.1, bGB>exited)")
    base = tokens[m.group(1)]
    if m.group(2):
        wounded_turn = int(m.group(6)) if m.group(6) else int(m.group(7)) if m.group(7) else -1
        return base.moved(where="board", square=(ord(m.group(2)) - ord("a"), int(m.group(3)) - 1),
                          face_down=bool(m.group(4)), wounded=bool(m.group(5)), wounded_turn=wounded_turn)
    if m.group(8):
        return base.moved(where="room", room=("AB".index(m.group(8)), int(m.group(9)) - 1), order=int(m.group(10)))
    where = m.group(11)
    if where.startswith("scored."):
        return base.moved(where="scored", scored_by=where[-1])
    return base.moved(where=where)


def _turn(f: _Fields, words: list[str]) -> dict:
    if len(words) < 3:
        raise f.fail("expected 'turn <n> <seat|-> <phase> ...'")
    phases = ("team", "hide", "card", "main", "combat", "place", "over")
    if not words[0].isdigit() or words[1] not in ("B", "Y", "-") or words[2] not in phases:
        raise f.fail(f"bad turn field: turn number, active seat and one of {', '.join(phases)}")
    values = dict(turn=int(words[0]), active=None if words[1] == "-" else words[1], phase=words[2], ap=0,
                  high_card=1, four_played=False, first_player="B", placer=None, combats=0, pools={},
                  acted=frozenset(), exhausted=frozenset())
    for word in words[3:]:
        key, _, value = word.partition("=")
        try:
            if key in ("ap", "high", "combats"):
                values[{"high": "high_card"}.get(key, key)] = int(value)
            elif key == "four":
                values["four_played"] = value == "1"
            elif key in ("first", "placer") and value in ("B", "Y", "-"):
                values["first_player" if key == "first" else "placer"] = None if value == "-" else value
            elif key == "pools":
                values["pools"] = {t: int(n) for t, n in (p.split(":") for p in value.split(","))}
            elif key in ("acted", "exhausted"):
                values[key] = frozenset(value.split(","))
            else:
                raise ValueError
        except ValueError:
            raise f.fail(f"bad turn attribute {word!r}") from None
    return values


def _square(f: _Fields, text: str):
    m = re.match(r"^([a-j])(\d{1,2})$", text)
    if not m:
        raise f.fail(f"bad square {text!r}")
    return ord(m.group(1)) - ord("a"), int(m.group(2)) - 1


def _teams(f: _Fields, words: list[str] | None) -> dict:
    teams = {}
    for word in words or ():
        seat, _, rest = word.partition("=")
        team_text, _, out_text = rest.partition("/out:")
        team = tuple(sorted((_square(f, sq), code) for sq, code in (p.split(":") for p in team_text.split(","))))
        teams[seat] = (team, tuple(sorted(c for c in out_text.split(",") if c)))
    return teams


def _combat(f: _Fields, words: list[str] | None) -> Combat | None:
    if words is None:
        return None
    try:
        number, pair, att, dfn, *rest = words
        attacker, target = pair.split(">")
        cards = tuple((s, int(v)) for s, v in (p.split(":") for p in rest[0][6:].split(","))) if rest else ()
        return Combat(int(number), attacker, target, tuple(att[4:].split(",")), tuple(dfn[4:].split(",")), cards)
    except ValueError:
        raise f.fail("bad combat field (expected 'combat <n> <attacker>><target> att=... def=... [cards=B:3]')") from None


def _placement(f: _Fields, words: list[str] | None) -> Placement | None:
    if words is None:
        return None
    if len(words) < 3 or not re.match(r"^[BY][BY]$", words[1]):
        raise f.fail("bad placing field (expected 'placing <slot> <revealer><placer> <tokens> [passed]')")
    m = re.match(r"^([AB])(\d)$", words[0])
    if not m:
        raise f.fail(f"bad room {words[0]!r}")
    return Placement(("AB".index(m.group(1)), int(m.group(2)) - 1), words[1][0], words[1][1],
                     tuple(words[2].split(",")), len(words) > 3 and words[3] == "passed")
