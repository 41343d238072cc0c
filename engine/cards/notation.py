"""Canonical text of card-game actions and positions (docs/card-game.md); both round-trip."""

from __future__ import annotations

import json
import re

from ..core.errors import N_, NotationError
from ..core.typed import code_spelling, piece_spelling, unknown_verb
from .actions import (Attack, BendBars, BreakWalls, Build, CombatCard, EndTurn, Face, Fireball, Frenzy, Heal, Hide,
                      Invert, Jump, Levitate, MindControl, Move, PassPlacement, Pick, Place, Portcullis, Regenerate,
                      Remove, Reveal, Rotate, Seed, Shoot, Steal, WallWalk)
from .catalogue import ICONS
from .maze import facing_name, is_icon, slot_name, start_slot, zone_name
from .state import (SEATS, CardOptions, CardState, Combat, Figure, Item, Outcome, Placement, Player, Room,
                    Selection)

_ZONE = re.compile(r"^([a-d])([1-9][0-9]?)$")
_START = re.compile(r"^([BY])([12])$")
_ID = re.compile(r"^[by][A-Z]{2}[0-9]?$")
_SIDES = {"n": "N", "e": "E", "s": "S", "w": "W"}


def zone_from(text: str) -> tuple[int, int]:
    m = _ZONE.match(text)
    if not m or int(m.group(2)) < 1:
        raise NotationError("not a zone", text)
    return "abcd".index(m.group(1)), int(m.group(2)) - 1


def facing_from(text: str):
    """A start character's facing: a zone (`a2`, a room face up) or an icon's letter (`T` triangle, `S` square,
    `C` circle, `R` rotation zone: pointed at a face-down room, DT-266)."""
    if len(text) == 1 and text.upper() in ICONS:  # (in either case: a zone has its number, a play-test typed `:t`)
        return text.upper()
    m = _ZONE.match(text)
    if not m or int(m.group(2)) < 1:
        raise NotationError("not a zone or an icon (T, S, C, R)", text)
    return zone_from(text)


def _facing_word(text: str) -> str:
    """A facing as the notation writes it (`facing_from` checks it): an icon's letter in capitals, a zone as typed."""
    facing = facing_from(text)
    return facing if isinstance(facing, str) else text


def start_from(text: str) -> tuple[str, int]:
    m = _START.match(text)
    if not m:
        raise NotationError("not a start position", text)
    return m.group(1), int(m.group(2)) - 1


def _slot_from(text: str) -> int:
    """A room's letter, in either case (`seed bKY b` by hand: the letter is a room wherever one is expected)."""
    if len(text) != 1 or text.upper() not in "ABCDEFGH":
        raise NotationError("not a room (A..H)", text)
    return "ABCDEFGH".index(text.upper())


_NOT_AN_ID = N_("not a card id (e.g. bMK)")


def _id(text: str, seat: str | None = None) -> str:
    """A card id where one is expected, as the notation writes it: in any case (`btr` for `bTR`, as the board
    shows a wounded character)."""
    card = piece_spelling(text) or text
    if not _ID.match(card):
        raise NotationError(_NOT_AN_ID, text)
    return card


def _path_token(tok: str) -> str:
    """A word of a path, its card ids as the notation writes them (`+bky` is `+bKY`)."""
    if tok[:2] == "+@":  # the object that character carries, unnamed (secret objects, DT-222)
        return "+@" + _id(tok[2:])
    elif tok[:1] in "+-":
        return tok[:1] + _id(tok[1:])
    elif tok[:1] == ">":  # ">bMK", or ">bMK/bKY" naming what a Paladin carrying two gives (DT-220)
        friend, slash, what = tok[1:].partition("/")
        return ">" + _id(friend) + (slash + _id(what) if slash else "")
    elif tok.startswith("^"):  # (an icon in either case, written as the notation writes it: `^s` is `^S`)
        return "^" + _facing_word(tok[1:])
    elif "^" in tok:
        a, b = tok.split("^", 1)
        start_from(a)
        return a + "^" + _facing_word(b)
    elif tok[:1] in "BY":
        start_from(tok)
    else:
        zone_from(tok)
    return tok


def format_action(a) -> str:
    if isinstance(a, Hide):
        return "hide " + " ".join(f"{f}:{c + 1}" for f, c in sorted(a.placements))
    if isinstance(a, Seed):
        return f"seed {a.item} {slot_name(a.slot)}"
    if isinstance(a, Face):
        return "face " + " ".join(f"{f}:{facing_name(z)}" for f, z in sorted(a.facings, key=_by_figure))
    if isinstance(a, Reveal):
        return f"reveal {a.figure} {slot_name(a.slot)}"
    if isinstance(a, Place):
        return f"place {a.card} {zone_name(a.zone)}"
    if isinstance(a, Move):
        return " ".join(("move", a.figure) + tuple(a.path))
    if isinstance(a, Rotate):
        return f"rotate {a.figure} {slot_name(a.slot)} {'cw' if a.clockwise else 'ccw'}"
    if isinstance(a, Jump):
        return f"jump {a.figure} {zone_name(a.zone)}" + (f" +{a.card}" if a.card is not None else "")
    if isinstance(a, Portcullis):
        return f"{'open' if a.open else 'close'} {a.figure} {zone_name(a.zone)} {a.side.lower()}"
    if isinstance(a, EndTurn):
        return "end"
    if isinstance(a, PassPlacement):
        return "pass"
    if isinstance(a, BendBars):
        return f"bend {a.figure} {zone_name(a.zone)} {a.side.lower()}"
    if isinstance(a, Attack):
        return f"attack {a.figure} {a.target}"
    if isinstance(a, Shoot):
        return f"shoot {a.figure} {a.target}"
    if isinstance(a, Heal):
        return f"heal {a.figure} {a.target}"
    if isinstance(a, Regenerate):
        return f"regenerate {a.figure}"
    if isinstance(a, WallWalk):
        return " ".join(["wallwalk", a.figure, *a.path])
    if isinstance(a, BreakWalls):
        return f"smash {a.figure}"
    if isinstance(a, Levitate):
        return " ".join(["levitate", a.figure, a.item, *a.path, *([">" + a.to] if a.to else [])])
    if isinstance(a, Fireball):
        return f"fireball {a.figure} {a.target}"
    if isinstance(a, Invert):
        return f"invert {a.figure} {slot_name(a.slot)}"
    if isinstance(a, Steal):
        return f"steal {a.figure} {a.item}"
    if isinstance(a, MindControl):
        return "mind none" if a.value is None else f"mind +{a.value}"
    if isinstance(a, CombatCard):
        return f"card {a.value}" + (f"+{a.second}" if a.second is not None else "")
    if isinstance(a, Frenzy):
        return f"frenzy {a.count}"
    if isinstance(a, Pick):
        return f"pick {a.code}"
    if isinstance(a, Remove):
        return "remove " + " ".join(a.figures)
    if isinstance(a, Build):
        return f"build characters={','.join(a.characters)} objects={','.join(a.objects)}"
    raise TypeError(f"not a card-game action: {a!r}")


def _by_figure(pair: tuple):
    """A pair (figure, placement or facing) by its figure: a facing is a zone (a tuple) or an icon (a str, DT-266),
    which do not compare."""
    return pair[0], str(pair[1])


VERBS = ("attack", "bend", "build", "card", "close", "end", "face", "fireball", "frenzy", "heal", "hide", "invert",
         "jump", "levitate", "mind", "move", "open", "pass", "pick", "place", "regenerate", "remove", "reveal",
         "rotate", "seed", "shoot", "smash", "steal", "wallwalk")
"""Every verb of the card game's action notation."""


_WORDS_AFTER = {0: N_("{verb} takes nothing after it"), 1: N_("{verb} takes one word after it"),
                2: N_("{verb} takes two words after it"), 3: N_("{verb} takes three words after it")}
"""How many words a verb takes after it, by their number (a refusal: the engine has no plural forms)."""


def parse_action(text: str, seat: str) -> "object":
    if seat not in SEATS:
        raise NotationError("seat must be B or Y", seat)
    if len(text) > 300:
        raise NotationError("too long", text[:40])
    words = text.split()
    if not words:
        raise NotationError("empty action", text)
    verb, args = words[0], words[1:]
    starts = [m.start() for m in re.finditer(r"\S+", text)]

    def at(i: int) -> int:
        """The column (0-based) of args[i]: where the error is."""
        return starts[i + 1]

    def need(n: int) -> None:
        if len(args) != n:  # (not "pick takes 1 word(s) at column 1", which a play-test could not make out)
            # where: the first word too many, or the end of the text (`end now` said column 1: play-test pt25b F4)
            raise NotationError(_WORDS_AFTER[n], text, at(n) if len(args) > n else len(text), verb=verb)

    try:
        if verb == "end":
            need(0)
            return EndTurn(seat)
        if verb == "pass":
            need(0)
            return PassPlacement(seat)
        if verb in ("hide", "face"):
            if not args:
                raise NotationError("{verb} needs figure:place pairs", text, verb=verb)
            pairs = []
            for i, w in enumerate(args):
                f, _, where = w.partition(":")
                if verb == "hide":
                    if where not in ("1", "2"):
                        # ("start column 1 or 2 at column 6", play-test pl31: two columns, the start zone's unnamed)
                        raise NotationError("expected {figure}:1 or {figure}:2, the start zone in front of your "
                                            "first or second room", text, at(i), figure=f)
                    pairs.append((_id(f), int(where) - 1))
                else:
                    pairs.append((_id(f), facing_from(where)))
            pairs = tuple(sorted(pairs, key=_by_figure))
            return Hide(seat, pairs) if verb == "hide" else Face(seat, pairs)
        if verb == "seed":
            need(2)
            return Seed(seat, _id(args[0]), _slot_from(args[1]))
        if verb == "reveal":
            need(2)
            return Reveal(seat, _id(args[0]), _slot_from(args[1]))
        if verb == "place":
            need(2)
            return Place(seat, _id(args[0]), zone_from(args[1]))
        if verb == "move":
            if len(args) < 2:
                raise NotationError("move needs a figure and a path", text)
            return Move(seat, _id(args[0]), tuple(_path_token(t) for t in args[1:]))
        if verb == "levitate":  # `levitate bTK bSW c1 c2 [>yWA]` (CG-CHAR-TELEKIN-01/02)
            if len(args) < 3:
                raise NotationError("levitate needs the Telekinetic, the object and a path", text)
            to = _id(args[-1][1:]) if args[-1].startswith(">") else None
            path = args[2:-1] if to else args[2:]
            if not path or any(t[:1] in "+->" for t in path):
                raise NotationError("levitate: a path of zones and start positions, then >receiver", text, at(2))
            return Levitate(seat, _id(args[0]), _id(args[1]), tuple(_path_token(t) for t in path), to)
        if verb == "rotate":
            need(3)
            if args[2] not in ("cw", "ccw"):
                raise NotationError("cw or ccw", text, at(2))
            return Rotate(seat, _id(args[0]), _slot_from(args[1]), args[2] == "cw")
        if verb == "jump":
            if len(args) == 3:  # CG-JUMP-04: `jump bMK b2 +3`, a combat card discarded for want of jump cards
                if not re.fullmatch(r"\+[1-6]", args[2]):
                    raise NotationError("the combat card given up: +1 to +6", text, at(2))
                return Jump(seat, _id(args[0]), zone_from(args[1]), int(args[2][1:]))
            need(2)
            return Jump(seat, _id(args[0]), zone_from(args[1]))
        if verb == "bend":
            need(3)
            if args[2].lower() not in _SIDES:  # (a side in either case, as the rooms' letters)
                raise NotationError("side n, e, s or w", text, at(2))
            return BendBars(seat, _id(args[0]), zone_from(args[1]), _SIDES[args[2].lower()])
        if verb == "invert":
            need(2)
            return Invert(seat, _id(args[0]), _slot_from(args[1]))
        if verb == "mind":
            need(1)
            if args[0] == "none":
                return MindControl(seat, None)
            if not re.fullmatch(r"\+[1-6]", args[0]):
                raise NotationError("mind +1 to +6, or mind none", text, at(0))
            return MindControl(seat, int(args[0][1:]))
        if verb == "wallwalk":
            if len(args) < 2:
                raise NotationError("wallwalk needs a figure and the zone beyond the wall", text)
            return WallWalk(seat, _id(args[0]), tuple(_path_token(t) for t in args[1:]))
        if verb == "smash":
            need(1)
            return BreakWalls(seat, _id(args[0]))
        if verb == "regenerate":
            need(1)
            return Regenerate(seat, _id(args[0]))
        if verb in ("attack", "shoot", "heal", "fireball", "steal"):
            need(2)
            kind = {"attack": Attack, "shoot": Shoot, "heal": Heal, "fireball": Fireball, "steal": Steal}[verb]
            if verb == "steal" and args[1].startswith("@"):  # `steal bPP @yMK`: his object, unnamed (DT-222)
                return Steal(seat, _id(args[0]), "@" + _id(args[1][1:]))
            return kind(seat, _id(args[0]), _id(args[1]))
        if verb == "card":
            need(1)
            # (`card +9` too, as the board game writes its cards: it got the parser's sentence, play-test pt25b F2)
            m = re.fullmatch(r"\+?([0-9])(?:\+([0-9]))?", args[0])
            if not m:
                raise NotationError("a combat card value 0..9 (the Berserker's two: 3+5)", text, at(0))
            if m.group(2) is None:
                return CombatCard(seat, int(m.group(1)))
            low, high = sorted((int(m.group(1)), int(m.group(2))))  # the Berserker's pair, in either order
            return CombatCard(seat, low, high)
        if verb == "frenzy":
            need(1)
            if args[0] not in ("1", "2"):
                raise NotationError("frenzy 1 or frenzy 2", text, at(0))
            return Frenzy(seat, int(args[0]))
        if verb == "remove":
            if not args:
                raise NotationError("remove needs the characters left out (CG-HCAP-03)", text)
            return Remove(seat, tuple(sorted(_id(w) for w in args)))
        if verb == "pick":
            need(1)
            code = code_spelling(args[0])
            if not re.fullmatch(r"[A-Z]{2}", code):
                raise NotationError("a character or object code (e.g. WA, KY)", text, at(0))
            return Pick(seat, code)
        if verb == "build":
            return _build(seat, args, text)
        if verb in ("open", "close"):
            need(3)
            if args[2].lower() not in _SIDES:  # (a side in either case, as the rooms' letters)
                raise NotationError("side n, e, s or w", text, at(2))
            return Portcullis(seat, _id(args[0]), zone_from(args[1]), _SIDES[args[2].lower()], verb == "open")
    except NotationError as e:
        if e.text == text:
            raise
        # (the column of the word itself: `seed bKY b` said column 6, where the first "b" of the text stands)
        column = next((starts[i] for i, word in enumerate(words) if i and word == e.text), text.find(e.text))
        if e.template == _NOT_AN_ID and re.fullmatch(r"[A-Za-z]{2}", e.text):
            # a code without its colour, where a card id stands (`seed KY D` read "bad word 'KY'": play-test pl31)
            raise NotationError("{word} needs its colour's letter: {blue} or {yellow}", text, column,
                                word=repr(e.text), blue="b" + e.text.upper(), yellow="y" + e.text.upper()) from None
        # what the word should have been, pointed at where it stands (`seed yCL Z` read "bad word 'Z'", `face
        # yWA:T yAS:X` "bad word 'X'", which said neither that a room is a letter A..H nor an icon T, S, C or R:
        # play-test pl33)
        raise NotationError(e.template, text, column, **e.values) from None
    raise unknown_verb(verb, VERBS, text)


def _after(text: str, before: str, word: str) -> int:
    """The column of `word` where it follows the word `before` in `text`."""
    start = text.find(before)
    return text.find(word, start + len(before)) if start >= 0 else 0


def _build(seat: str, args: list[str], text: str):
    """`build characters=BK,CB,... objects=BW,KY,KY,SH` (CG-SEL-FULL-01); the codes in any order, kept sorted."""
    given = {}
    for i, word in enumerate(args):
        name, sep, values = word.partition("=")
        following = args[i + 1] if i + 1 < len(args) else "="
        if sep and values.endswith(",") and "=" not in following:
            # a list's next code after a comma and a space (`characters=AS, BE`: play-test pl31 typed a build list
            # so, and was told only the build's form)
            raise NotationError("a list has no spaces: {example}", text, _after(text, word, following),
                                example=word + following.lstrip(","))
        if not sep and given and re.fullmatch(r"[A-Za-z]{2}(,[A-Za-z]{2})*,?", word.lstrip(",")):
            # a list's next code after a space (`characters=AS BE`, `characters=AS ,BE`)
            before = args[i - 1]
            joined = before.rstrip(",") + "," + word.lstrip(",")  # (no f-string in an extracted call)
            raise NotationError("a list has no spaces: {example}", text, _after(text, before, word), example=joined)
        if not sep or name not in ("characters", "objects") or name in given:
            raise NotationError("build characters=CODE,... objects=CODE,...", text)
        codes = [code_spelling(code) for code in values.split(",")] if values else []
        if any(not re.fullmatch(r"[A-Z]{2}", code) for code in codes):
            raise NotationError("{field}: codes of 2 capital letters, separated by commas", text, field=name)
        given[name] = tuple(sorted(codes))
    if set(given) != {"characters", "objects"}:
        raise NotationError("build characters=CODE,... objects=CODE,...", text)
    return Build(seat, given["characters"], given["objects"])


# --- positions ------------------------------------------------------------------------------------------------
# A position is the whole state, hidden parts included (for tools and tests; never sent to a player), as one line
# of canonical JSON (sorted keys, no spaces) after the tag "dtcg1 ".

def _loc(v):
    return list(v) if isinstance(v, tuple) else v


def format_position(state: CardState) -> str:
    data = {
        "tutorial": state.options.tutorial, "length": state.length, "target": state.target_vp,
        "rooms": [[r.card, r.turns, r.revealed] for r in state.rooms],
        "figures": [[f.id, f.seat, f.code, f.where, _loc(f.at), _loc(f.facing), f.wounded, _loads_out(f.carries), f.pin]
                    for f in state.figures],
        "items": [[i.id, i.seat, i.code, i.where, _loc(i.at)] for i in state.items],
        "opened": sorted(list(k) for k in state.opened), "broken": sorted(list(k) for k in state.broken),
        "players": [[p.ap, p.jumps, p.vp, list(p.cards)] for p in state.players],
        "combat_on": state.combat_on, "combats": state.combats, "wounded_now": list(state.wounded_now),
        "combat": None if state.combat is None else [
            state.combat.number, list(state.combat.zone), state.combat.target,
            [[s, list(ids)] for s, ids in state.combat.sides], [list(p) for p in state.combat.played]],
        "phase": state.phase, "turn": state.turn, "active": state.active, "first": state.first,
        "seeder": state.seeder,
        "secret": [[s, _secret_data(state, ch)] for s, ch in state.secret],
        "placement": None if state.placement is None else [state.placement.slot, list(state.placement.queue),
                                                            list(state.placement.placers)],
        "outcome": None if state.outcome is None else [state.outcome.winner, [list(v) for v in state.outcome.vp],
                                                        state.outcome.reason],
    }
    if state.options.scenario is not None:  # CG-SCEN, CG-SEL
        data.update(scenario=state.options.scenario, teams=state.options.teams)
    if state.options.handicap is not None:  # CG-HCAP
        seat, removed, cards = state.options.handicap
        data["handicap"] = [seat, removed, list(cards)]
    if state.options.secret_objects:  # CG-OPT-03
        data["secret_objects"] = True
    sel = state.selection
    if sel is not None:
        data["selection"] = [sel.mode, sel.stage, sel.first, sel.count, [list(t) for t in sel.teams],
                             [list(k) for k in sel.kits], [list(o) for o in sel.out]]
    if state.walls_broken:  # CG-CHAR-GOLEM-01
        data["walls_broken"] = [list(w) for w in state.walls_broken]
    if state.used_now:  # once-a-turn powers used (CG-CHAR-CROSSBOW-01, CG-CHAR-SAMURAI-01)
        data["used_now"] = list(state.used_now)
    if state.healed_now:  # CG-CHAR-CLERIC-01
        data["healed_now"] = list(state.healed_now)
    c = state.combat
    if c is not None and (c.ranged or c.lancer or c.first or c.naming or c.named is not None or c.announcing
                          or c.two):
        extra = [[list(r) for r in c.ranged], c.lancer, c.first, c.naming, c.named, c.namer, c.announcing, c.two,
                 c.second]  # CG-RANGED, CG-OBJ-LANCE, CG-CHAR-WMASTER, -TELEPATH, -BERSERK
        while extra and extra[-1] in (None, []):
            extra.pop()
        data["combat"].extend(extra)
    return "dtcg1 " + json.dumps(data, sort_keys=True, separators=(",", ":"))


def _loads_out(carries: tuple):
    """What a figure carries, in a position: null, one id, or a list of the Paladin's two (CG-CHAR-PALADIN-01)."""
    return None if not carries else carries[0] if len(carries) == 1 else list(carries)


def _loads_in(v) -> tuple:
    return () if v is None else (v,) if isinstance(v, str) else tuple(v)


def _tup(v):
    return tuple(v) if isinstance(v, list) else v


def _secret_data(state: CardState, choice: tuple):
    """A pending secret choice as data: a full frontal team {"characters", "objects"} (phase "select"), else
    placements or facings [[id, place], ...]."""
    if state.phase == "select":
        return {"characters": list(choice[0]), "objects": list(choice[1])}
    return [[a, _loc(b)] for a, b in choice]


def _secret(choice) -> tuple:
    if isinstance(choice, dict):
        return tuple(choice["characters"]), tuple(choice["objects"])
    return tuple((a, _tup(b)) for a, b in choice)


def parse_position(text: str) -> CardState:
    if not text.startswith("dtcg1 "):
        raise NotationError("a card-game position starts with 'dtcg1 '", text[:20])
    try:
        d = json.loads(text[6:])
        state = CardState(
            options=CardOptions(d["tutorial"], d.get("scenario"), d.get("teams"),
                                None if "handicap" not in d else (d["handicap"][0], d["handicap"][1],
                                                                  tuple(d["handicap"][2])),
                                d.get("secret_objects", False)), length=d["length"],
            target_vp=d["target"],
            rooms=tuple(Room(c, t, r) for c, t, r in d["rooms"]),
            figures=tuple(Figure(i, s, c, w, _tup(a), _tup(f), wd, _loads_in(ca), p)
                          for i, s, c, w, a, f, wd, ca, p in d["figures"]),
            items=tuple(Item(i, s, c, w, _tup(a)) for i, s, c, w, a in d["items"]),
            opened=frozenset(tuple(k) for k in d["opened"]), broken=frozenset(tuple(k) for k in d["broken"]),
            players=tuple(Player(a, j, v, tuple(c)) for a, j, v, c in d["players"]), phase=d["phase"],
            turn=d["turn"], combat_on=d["combat_on"], combats=d["combats"], wounded_now=tuple(d["wounded_now"]),
            combat=None if d["combat"] is None else Combat(
                d["combat"][0], tuple(d["combat"][1]), d["combat"][2],
                tuple((s, tuple(ids)) for s, ids in d["combat"][3]), tuple(tuple(p) for p in d["combat"][4]),
                tuple(tuple(r) for r in (d["combat"][5] if len(d["combat"]) > 5 else ())),
                d["combat"][6] if len(d["combat"]) > 6 else None,
                d["combat"][7] if len(d["combat"]) > 7 else None,
                d["combat"][8] if len(d["combat"]) > 8 else None,
                d["combat"][9] if len(d["combat"]) > 9 else None,
                *(d["combat"][i] if len(d["combat"]) > i else None for i in range(10, 14))),
            used_now=tuple(d.get("used_now", ())),
            walls_broken=tuple(tuple(w) for w in d.get("walls_broken", ())), healed_now=tuple(d.get("healed_now", ())),
            active=d["active"], first=d["first"], seeder=d["seeder"],
            secret=tuple((s, _secret(ch)) for s, ch in d["secret"]),
            selection=None if "selection" not in d else Selection(
                *d["selection"][:4], *(tuple(tuple(x) for x in pair) for pair in d["selection"][4:7])),
            placement=None if d["placement"] is None else Placement(d["placement"][0], tuple(d["placement"][1]),
                                                                    tuple(d["placement"][2])),
            outcome=None if d["outcome"] is None else Outcome(d["outcome"][0],
                                                              tuple(tuple(v) for v in d["outcome"][1]),
                                                              d["outcome"][2]))
    except (ValueError, KeyError, TypeError, IndexError) as e:
        raise NotationError("malformed card-game position ({error})", text[:40], error=str(e)) from None
    if format_position(state) != text:
        raise NotationError("not the canonical form of a card-game position", text[:40])
    for f in state.figures:  # DT-266: what the rules produce, an icon while the room in front is face down
        if f.where == "start" and f.facing is not None:
            slot = start_slot(f.seat, f.at, state.length) if f.at in (0, 1) else -1
            if not 0 <= slot < len(state.rooms) or is_icon(f.facing) == state.rooms[slot].revealed \
                    or (is_icon(f.facing) and f.facing not in ICONS):
                raise NotationError("{figure} faces an icon of a face-down room, a zone of a face-up one (DT-266)",
                                    text[:40], figure=f.id)
    return state

