"""Canonical action notation (docs/notation.md): `format_action` and `parse_action` round-trip."""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache
from typing import Callable

from .actions import (Action, Attack, Build, ChooseTeam, CombatCard, Drink, EndTurn, FigureMoves, Fireball, Heal, Hide,
                      Jump, Move, PassPlacement, Pick, Place, PlayCard, Portcullis, Regenerate, Reveal, Rotate,
                      WallWalk)
from .catalogue import known_codes
from ..core.choice import Chained, Mapped, is_lazy
from ..core.listing import LegalTable, Listing
from ..core.errors import N_, IllegalAction, NotationError
from ..core.typed import MAX_ACTION_TEXT, check_length, resolve_typed  # noqa: F401  (MAX_ACTION_TEXT: re-exported)
from ..core.typed import code_spelling, piece_spelling, unknown_verb
from .geometry import _SQUARE_NAMES as _NAMES  # (square_name's: read at once by `move_text`)
from .geometry import DIRECTIONS, Square, slot_name, square_name

_SQUARE = re.compile(r"^([a-jA-J])([0-9]{1,2})$")  # (a capital read as its letter: `MOVE BGH C0`, play-test pt25 F17)
_SLOT = re.compile(r"^([AB])([1-9])$")
_TOKEN = re.compile(r"^([by])([A-Z]{2})([2-9]?)$")  # bRP2: a second copy of a common object (PD-TEAM-COMMON-01)

"""Longest action text parse_action and resolve_input read (the protocol's action text has the same limit)."""


def format_action(action: Action) -> str:
    """The canonical text of an action (without the seat, which the context gives)."""
    a = action
    if type(a) is Move:  # most of every legal list: before the match's class tests
        return move_text(a.token, a.dest, a.take, a.leave)
    match a:
        case ChooseTeam():
            text = "team " + " ".join(f"{square_name(sq)}={code}" for sq, code in sorted(a.team))
            return text + (" out=" + ",".join(sorted(a.removed)) if a.removed else "")
        case Hide():
            return f"hide {a.token} {slot_name(a.slot)}"
        case PlayCard():
            return f"card {a.value}"
        case EndTurn():
            return "end"
        case Move():
            return move_text(a.token, a.dest, a.take, a.leave)
        case WallWalk():
            return " ".join(["wallwalk", a.token, square_name(a.dest), *_items(None, a.leave)])
        case Jump():
            return f"jump {a.token} {square_name(a.pit)} {square_name(a.dest)}"
        case Attack():
            return f"attack {a.token} {a.target}"
        case CombatCard():
            return f"combat +{a.value}"
        case Reveal():
            return f"reveal {a.token} {slot_name(a.slot)}"
        case Place():
            return f"place {a.token} {square_name(a.square)}"
        case PassPlacement():
            return "pass"
        case Rotate():
            return f"rotate {a.token} {slot_name(a.slot)} {'cw' if a.clockwise else 'ccw'}"
        case Heal():
            return f"heal {a.token} {a.target}"
        case Regenerate():
            return f"regenerate {a.token}"
        case Portcullis():
            return f"{a.how} {a.token} {a.direction}"
        case Fireball():
            return f"fireball {a.token} {a.direction}"
        case Drink():
            return f"drink {a.token}"
        case Pick():
            return f"pick {a.value}"
        case Build():
            return (f"build pairs={','.join(map(str, sorted(a.pairs)))} characters={','.join(sorted(a.characters))} "
                    f"objects={','.join(sorted(a.objects))}")
    formatter = _FORMATTERS.get(type(a))
    if formatter is not None:
        return formatter(a)
    raise TypeError(f"not an action: {action!r}")


_FORMATTERS: dict[type, Callable[[Action], str]] = {}


def register_action(cls: type, verbs: dict[str, Callable], formatter: Callable[[Action], str],
                    needs: tuple[frozenset[str], ...] = ()) -> None:
    """A set's rule module adds an action kind: its class, the parser of each verb that starts its text
    (`parser(words, seat) -> action`, reading with `Words`' methods) and its canonical formatter. The parser
    must read back exactly what the formatter writes (tests/engine/test_notation.py checks every legal action).
    `needs`: what a game's tokens must offer for its verbs to be the game's (`game_verbs`; see `_NEEDS`), none
    for a verb any game of the rule set may use."""
    from .actions import VERBS

    for verb in verbs:
        if verb in _PARSERS and _PARSERS[verb] is not verbs[verb]:
            raise ValueError(f"the verb {verb!r} is taken")
    _PARSERS.update(verbs)
    _KINDS.update(dict.fromkeys(verbs, cls))
    if needs:
        _NEEDS.update(dict.fromkeys(verbs, needs))
    _FORMATTERS[cls] = formatter
    VERBS[cls] = next(iter(verbs))


def move_text(token: str, dest: Square, take: str | None, leave: tuple) -> str:
    """The canonical text of the Move (token, dest, take, leave): `format_action`'s, also for a figure's moves
    listed as outcomes (`FigureMoves`): "move <token> <dest>", then "+<id>" for each token taken, then
    "<id>@<square>" for each one left, in order. It is the text of every move a legal list gives (~30 an action of
    a server's game, half of them taking or leaving something), so it is written without `_items`' lists and
    their join, and each square's name read from `square_name`'s table at once: 5.4 K instructions a text before,
    2.5 K now (callgrind, the 8,804 texts of bench/server_steps.py's beginner game, 300 actions)."""
    try:
        name = _NAMES[dest]
    except (KeyError, TypeError):  # (a square not named yet, or not a tuple)
        name = square_name(dest)
    if not take:
        if not leave:
            return f"move {token} {name}"
        text = f"move {token} {name}"
    elif "+" in take:  # two for the Paladin: "bSW+bTS" (movement.takes)
        text = f"move {token} {name} +{take.replace('+', ' +')}"
    else:
        text = f"move {token} {name} +{take}"
    for tid, square in sorted(leave) if len(leave) > 1 else leave:
        try:
            name = _NAMES[square]
        except (KeyError, TypeError):
            name = square_name(square)
        text += f" {tid}@{name}"
    return text


def _items(take, leave) -> list[str]:
    out = [f"+{t}" for t in take.split("+")] if take else []  # two for the Paladin: "bSW+bTS" (movement.takes)
    return out + [f"{tid}@{square_name(sq)}" for tid, sq in sorted(leave)]


class Words:
    """The words of an input line with their columns, for error messages that say where."""

    def __init__(self, text: str):
        self.text = text
        self.words = [(m.group(), m.start()) for m in re.finditer(r"\S+", text)]
        self.i = 0

    def fail(self, template: str, index: int | None = None, **values: str | int) -> NotationError:
        """The NotationError `template` with its values, at the word `index` (the current one by default)."""
        index = self.i if index is None else index
        column = self.words[index][1] if index < len(self.words) else len(self.text)
        return NotationError(template, self.text, column, **values)

    def next(self, missing: str) -> str:
        """The next word; `missing` is the error's template when there is none ("missing a verb"), marked N_."""
        if self.i >= len(self.words):
            raise self.fail(missing)
        self.i += 1
        return self.words[self.i - 1][0]

    def more(self) -> bool:
        return self.i < len(self.words)

    def end(self) -> None:
        if self.more():
            raise self.fail("unexpected {word}", word=repr(self.words[self.i][0]))

    def square(self, missing: str = N_("missing a square (like c4)"),
               expected: str = N_("expected a square (like c4), got {word}")) -> Square:
        """A square; `missing` and `expected` are the errors' templates (one full sentence each, marked N_)."""
        word = self.next(missing)
        m = _SQUARE.match(word)
        if not m:
            raise self.fail(expected, self.i - 1, word=repr(word))
        return ord(m.group(1).lower()) - ord("a"), int(m.group(2)) - 1

    def slot(self) -> tuple[int, int]:
        word = self.next(N_("missing a room (A1..B4)"))
        m = _SLOT.match(word)
        if not m:
            raise self.fail("expected a room like A1 or B4, got {word}", self.i - 1, word=repr(word))
        return "AB".index(m.group(1)), int(m.group(2)) - 1

    def token(self, seat: str | None = None) -> str:
        word = self.next(N_("missing a token (like bWA)"))
        return self.token_word(word, self.i - 1, seat)

    def token_word(self, word: str, index: int, seat: str | None) -> str:
        """The token `word` names where a token is expected, as the notation writes it: in any case (`ybs` for
        `yBS`, as the boards show a wounded one), and your own without its colour letter (`TH`, `th`)."""
        word = piece_spelling(word) or word
        m = _TOKEN.match(word)
        if not m and seat and re.match(r"^[A-Za-z]{2}$", word):
            word = seat.lower() + word.upper()  # shorthand: your own token without its colour letter
            m = _TOKEN.match(word)
        if not m or m.group(2) not in known_codes():
            raise self.fail("expected a token like bWA or yRP, got {word}", index, word=repr(word))
        return word

    def direction(self) -> str:
        word = self.next(N_("missing a direction (n, e, s, w)"))
        if word not in DIRECTIONS:
            raise self.fail("expected a direction n, e, s or w, got {word}", self.i - 1, word=repr(word))
        return word

    def number(self, missing: str, expected: str) -> int:
        """A digit, with or without "+"; `missing` and `expected` as for `square`."""
        word = self.next(missing)
        if not re.match(r"^\+?[0-9]$", word):
            raise self.fail(expected, self.i - 1, word=repr(word))
        return int(word.lstrip("+"))


def parse_action(text: str, seat: str, known: frozenset[str] | None = None) -> Action:
    """Parse canonical notation (own tokens may omit their colour letter). Raises NotationError. `known`: the verbs
    of the game (`game_verbs(state)`; every registered verb when None): any other verb is unknown there, and the
    refusal lists those."""
    check_length(text)
    w = Words(text)
    if not w.words:
        raise w.fail("empty action")
    verb = w.next(N_("missing a verb"))
    parser = _PARSERS.get(verb) if known is None or verb in known else None
    if parser is None:
        raise unknown_verb(verb, list(_PARSERS if known is None else known), text)
    action = parser(w, seat)
    w.end()
    return action


def _parse_team(w: Words, seat: str) -> ChooseTeam:
    team, removed = [], ()
    while w.more():
        index = w.i
        word = w.next(N_("missing square=character"))
        if word.startswith("out="):
            removed = tuple(code_spelling(code) for code in word[4:].split(",") if code)
            continue
        if "=" not in word:
            raise w.fail("expected square=character, like b0=WA", index)
        sq_text, code = word.split("=", 1)
        code = code_spelling(code)
        m = _SQUARE.match(sq_text)
        if not m or code not in known_codes():
            raise w.fail("expected square=character, like b0=WA, got {word}", index, word=repr(word))
        team.append(((ord(m.group(1).lower()) - ord("a"), int(m.group(2)) - 1), code))
    return ChooseTeam(seat, tuple(sorted(team)), tuple(sorted(removed)))


def _pick_word(w: Words) -> str:
    """A pick (PD-TEAM-MUTUAL): a room pair's number (1-99) or a character or object code."""
    index = w.i
    word = code_spelling(w.next(N_("missing a room pair number or a code, like 37 or WA")))
    if not (re.fullmatch(r"[1-9][0-9]?", word) or word in known_codes()):
        raise w.fail("expected a room pair number or a character or object code, got {word}", index,
                     word=repr(word))
    return word


BUILD_FIELDS = ("pairs", "characters", "objects")


def _parse_build(w: Words, seat: str) -> Build:
    """`build pairs=37,41 characters=CL,...,WA objects=FS,KY,KY,...` (PD-TEAM-FREE-01/02): the three fields once
    each, in any order; the values in any order (the canonical text sorts them)."""
    fields: dict[str, list[str]] = {}
    while w.more():
        index = w.i
        word = w.next(N_("missing pairs=..., characters=... or objects=..."))
        name, eq, values = word.partition("=")
        following = w.words[w.i][0] if w.more() else "="
        if eq and values.endswith(",") and "=" not in following:
            # a list's next item after a comma and a space (`pairs=2, 42`: play-test pl31 was told "expected a
            # room pair number in pairs=, got ''")
            raise w.fail("a list has no spaces: {example}", w.i, example=word + following.lstrip(","))
        if not eq and fields and re.fullmatch(r"[0-9A-Za-z]{1,2}(,[0-9A-Za-z]{1,2})*,?", word.lstrip(",")):
            # a list's next item after a space (`pairs=2 42`, `pairs=2 ,42`)
            joined = w.words[index - 1][0].rstrip(",") + "," + word.lstrip(",")  # (no f-string in an extracted call)
            raise w.fail("a list has no spaces: {example}", index, example=joined)
        if not eq or name not in BUILD_FIELDS:
            raise w.fail("expected pairs=, characters= or objects=, got {word}", index, word=repr(word))
        if name in fields:
            raise w.fail("{field}= is given twice", index, field=name)
        items = values.split(",") if values else []
        if name != "pairs":
            items = [code_spelling(item) for item in items]
        for item in items:
            # a code of two letters that is no piece is the build's to refuse, with its rule (PD-TEAM-FREE-01)
            ok = re.fullmatch(r"[1-9][0-9]?", item) if name == "pairs" else re.fullmatch(r"[A-Z]{2}", item)
            if not ok and name == "pairs":
                raise w.fail("expected a room pair number in {field}=, got {item}", index, field=name,
                             item=repr(item))
            if not ok:
                raise w.fail("expected a character or object code in {field}=, got {item}", index, field=name,
                             item=repr(item))
        fields[name] = items
    missing = [name for name in BUILD_FIELDS if name not in fields]
    if missing:
        raise w.fail("a build names {fields} too", w.i, fields=", ".join(f"{name}=" for name in missing))
    return Build(seat, tuple(sorted(map(int, fields["pairs"]))), tuple(sorted(fields["characters"])),
                 tuple(sorted(fields["objects"])))


def _parse_move(w: Words, seat: str) -> Move:
    token = w.token(seat)
    index = w.i
    path_word = w.next(N_("missing a destination square"))
    squares = []
    for part in path_word.split("-"):
        m = _SQUARE.match(part)
        if not m:
            raise w.fail("expected a square or a route like c4-c5-d5, got {word}", index, word=repr(path_word))
        squares.append((ord(m.group(1).lower()) - ord("a"), int(m.group(2)) - 1))
    if w.more() and _SQUARE.match(w.words[w.i][0]):  # `move bTH b0 b1`: a route typed with spaces
        spaced = [path_word]
        for word, _column in w.words[w.i:]:
            if not _SQUARE.match(word):
                break
            spaced.append(word)
        raise w.fail("a route is written with hyphens, like {route}, not with spaces", w.i,
                     route="-".join(spaced))
    take, leave = _parse_items(w, seat)
    route = tuple(squares) if len(squares) > 1 else None
    return Move(seat, token, squares[-1], take, leave, route)


def _parse_items(w: Words, seat: str):
    taken, leave = [], []
    while w.more():
        index = w.i
        word = w.next(N_("missing an item"))
        if word.startswith("+"):
            if len(taken) == 2:
                raise w.fail("a figure carries at most two things (the Paladin): at most two +tokens", index)
            token = w.token_word(word[1:], index, seat)
            if token in taken:
                raise w.fail("{token} is taken twice", index, token=token)
            taken.append(token)
        elif "@" in word:
            tid, sq = word.split("@", 1)
            m = _SQUARE.match(sq)
            if not m:
                raise w.fail("expected token@square, got {word}", index, word=repr(word))
            leave.append((w.token_word(tid, index, seat), (ord(m.group(1).lower()) - ord("a"), int(m.group(2)) - 1)))
        else:
            raise w.fail("expected +token or token@square, got {word}", index, word=repr(word))
    return "+".join(sorted(taken)) or None, tuple(sorted(leave))


def _parse_wallwalk(w: Words, seat: str) -> WallWalk:
    token = w.token(seat)
    dest = w.square()
    take, leave = _parse_items(w, seat)
    if take:
        raise w.fail("a wall-walk takes what lies on the landing square without +token")
    return WallWalk(seat, token, dest, leave)


def _portcullis(how: str):
    return lambda w, seat: Portcullis(seat, w.token(seat), w.direction(), how)


def _rotate(w: Words, seat: str) -> Rotate:
    token, slot = w.token(seat), w.slot()
    word = w.next(N_("missing cw or ccw"))
    if word not in ("cw", "ccw"):
        raise w.fail("expected cw or ccw, got {word}", w.i - 1, word=repr(word))
    return Rotate(seat, token, slot, word == "cw")


_PARSERS = {
    "team": _parse_team,
    "hide": lambda w, seat: Hide(seat, w.token(seat), w.slot()),
    "card": lambda w, seat: PlayCard(seat, w.number(N_("missing an action card value (2-5)"),
                                                    N_("expected an action card value (2-5), got {word}"))),
    "end": lambda w, seat: EndTurn(seat),
    "move": _parse_move,
    "wallwalk": _parse_wallwalk,
    "jump": lambda w, seat: Jump(seat, w.token(seat),
                                 w.square(N_("missing the pit"), N_("expected the pit, got {word}")),
                                 w.square(N_("missing the landing square"),
                                          N_("expected the landing square, got {word}"))),
    "attack": lambda w, seat: Attack(seat, w.token(seat), w.token()),
    "combat": lambda w, seat: CombatCard(seat, w.number(N_("missing a combat card (+0..+6)"),
                                                        N_("expected a combat card (+0..+6), got {word}"))),
    "reveal": lambda w, seat: Reveal(seat, w.token(seat), w.slot()),
    "place": lambda w, seat: Place(seat, w.token(), w.square()),
    "pass": lambda w, seat: PassPlacement(seat),
    "rotate": _rotate,
    "heal": lambda w, seat: Heal(seat, w.token(seat), w.token()),
    "regenerate": lambda w, seat: Regenerate(seat, w.token(seat)),
    "break": _portcullis("break"),
    "open": _portcullis("open"),
    "close": _portcullis("close"),
    "fireball": lambda w, seat: Fireball(seat, w.token(seat), w.direction()),
    "drink": lambda w, seat: Drink(seat, w.token(seat)),
    "pick": lambda w, seat: Pick(seat, _pick_word(w)),
    "build": _parse_build,
}


# verb -> the action kind it writes: what a rule set's verbs are (`verbs`)
_KINDS: dict[str, type] = {
    "team": ChooseTeam, "hide": Hide, "card": PlayCard, "end": EndTurn, "move": Move, "wallwalk": WallWalk,
    "jump": Jump, "attack": Attack, "combat": CombatCard, "reveal": Reveal, "place": Place, "pass": PassPlacement,
    "rotate": Rotate, "heal": Heal, "regenerate": Regenerate, "break": Portcullis, "open": Portcullis,
    "close": Portcullis, "fireball": Fireball, "drink": Drink, "pick": Pick, "build": Build,
}


def verbs(rules: str | None = None) -> list[str]:
    """Every verb of the action notation (the sets' registered ones included), sorted; with `rules`, those of
    the action kinds that rule set's modules handle (`rulebook.handlers`): a base-set game has no `shoot`."""
    if rules is None:
        return sorted(_PARSERS)
    return sorted(_rule_verbs(rules))


def _rule_verbs(rules: str) -> frozenset[str]:
    known = _RULE_VERBS.get(rules)
    if known is None:
        from .rulebook import handlers  # rulebook -> the rule modules -> ... -> notation: imported here

        kinds = handlers(rules)
        known = _RULE_VERBS[rules] = frozenset(verb for verb, kind in _KINDS.items() if kind in kinds)
    return known


_RULE_VERBS: dict[str, frozenset[str]] = {}


def any_of(*features: str) -> tuple[frozenset[str], ...]:
    """A verb's need (`_NEEDS`): one of these features."""
    return tuple(frozenset({f}) for f in features)


# What a verb needs of a game for it to be one of the game's verbs (`game_verbs`): alternatives, each a set of
# features that the game's tokens have between them (a character's or an object's ability, "use:<use>" for what an
# object is used for, "ranged" for a ranged weapon) or that its options give ("teams:<how>" for how a mixed game's
# teams are built). A verb not named here needs nothing (move, jump, attack, rotate, pass, end, ...): every game of
# its rule set has it. A set's module names its own verbs' needs (`register_action`).
_NEEDS: dict[str, tuple[frozenset[str], ...]] = {
    "wallwalk": any_of("wallwalk"),  # BG-CHAR-WALLWALKER-01
    "heal": any_of("heal"),  # BG-CHAR-CLERIC-01
    "regenerate": any_of("regenerate"),  # BG-CHAR-TROLL-01
    "break": any_of("break_portcullis", "bend_bars"),  # BG-CHAR-WARRIOR-01, PR-CHAR-COLOSSUS-01
    "open": any_of("lockpick", "key"),  # BG-CHAR-THIEF-04, PR-OBJ-KEY-01
    "close": any_of("lockpick", "key"),
    "fireball": (frozenset({"spellcaster", "use:fireball"}),),  # BG-OBJ-FIREBALL-01: a Wizard and a wand
    "drink": any_of("use:drink"),  # BG-OBJ-POTION-01
    "pick": any_of("teams:mutual"),  # PD-TEAM-MUTUAL-01
    "build": any_of("teams:free"),  # PD-TEAM-FREE-01
}


def feature_verbs(feature: str) -> tuple[str, ...]:
    """The verbs that a token's feature (a character's or an object's ability, "use:<use>" for what an object is
    used for, "ranged" for a ranged weapon) brings to a game (`_NEEDS`), sorted: the command `help CO` names beside
    the Colossus's Bend bars (`break`), `help BS` beside the Banshee's Shockwave (`push`). A verb that needs two
    features together (`fireball`: a spellcaster and a wand) is each one's. Only the verbs of the sets whose modules
    are imported (`register_action`)."""
    return tuple(sorted(verb for verb, needs in _NEEDS.items() if any(feature in need for need in needs)))


def game_verbs(state) -> frozenset[str]:
    """The verbs of a game: those of its rule set (`verbs(rules)`) that need nothing of its tokens, and those whose
    need (`_NEEDS`) its tokens meet, both teams' together (a charmed figure acts for the other side, PD-OBJ-CHARM-01):
    a Paladins & Dragons game has no `fireball`, since no token of it casts one. Its tokens are those in play or
    still to come (not `unused`); while the teams are still being built (a mixed game's draft), every token of the
    pool, since any may join. Which tokens a game has is public: both teams hold the same codes but for a handicap's
    left-out characters (the other team still has them), and for a free build (PD-TEAM-FREE-01), which stays
    hidden until the game ends (DT-120): there, every token of the pool, whatever either side built. A play-test
    found that the verbs of both builds, listed in an unknown-verb refusal, told a player that his opponent had
    secretly taken the Red Dragon (`breathe`), the Illusionist (`illusion`) and a Bow (`shoot`)."""
    cat = state.catalogue
    pool = state.phase in ("draft", "build") or state.options.teams == "free"
    codes = {t.code for t in state.tokens.values() if pool or t.where != "unused"}
    features = {f"teams:{state.options.teams}"} if cat.mix is not None else set()
    for code in codes:
        kind = cat.characters.get(code)
        if kind is not None:
            features |= kind.abilities
            continue
        kind = cat.objects[code]
        features |= kind.abilities
        if kind.use:
            features.add("use:" + kind.use)
        if kind.ranged:
            features.add("ranged")
    return _verbs_with(cat.rules, frozenset(features))


@lru_cache(maxsize=256)  # bounded: a mixed game's drawn teams make many feature sets over a server's life
def _verbs_with(rules: str, features: frozenset[str]) -> frozenset[str]:
    """The verbs of the rule set that need nothing, or whose need (`_NEEDS`) `features` meet."""
    return frozenset(verb for verb in _rule_verbs(rules)
                     if verb not in _NEEDS or any(need <= features for need in _NEEDS[verb]))


def resolve_input(state, seat: str, text: str) -> Action:
    """Turn what a player typed into one legal action, accepting abbreviations (core.typed.resolve_typed):
    `bTH g6` or `g6` for a move, `attack yTR` with the attacker left out. One match: that action. Several:
    AmbiguousAction with the candidates. None: the strict parse error (IllegalAction comes from `apply`).
    """
    from .apply import waiting_refusal
    from .legal import legal_actions

    known = game_verbs(state)
    return resolve_typed(text, seat, lambda text, seat: parse_action(text, seat, known),
                         lambda: legal_actions(state, seat), format_action,
                         lambda: waiting_refusal(state, seat) if state.outcome is None else None,
                         lambda words: _unmatched(state, seat, words))


_ACTOR_RULES = {"move": ("BG-AP-02", "BG-AP-02"), "reveal": ("BG-AP-02", "BG-AP-02"),
                "attack": ("BG-AP-02", "BG-COMBAT-08")}
"""The verbs whose first token is the figure that acts, and the rules their handlers cite when it may not (not
his character, wounded: `Ctx.actor`'s `rule` and `wounded_rule`)."""


def _unmatched(state, seat: str, words: list[str]):
    """Why an unfinished text that nothing legal completes is refused, where the rules say: `jump bTH` or
    `jump bTH b2` (the pit) for a figure that has no such jump (moves.jump_refusal); `move bWA`, `attack bWA` or
    `reveal bWA` for a figure that may not act now, as the whole action would be (no action point left, no card
    played yet, wounded, not one's own: `Ctx.actor`; play-test pt24 read "'move yWA' matches none of your legal
    actions now" where `move yWA c21` names BG-TURN-01); None otherwise."""
    verb = words[0].lower() if words else ""
    if len(words) < 2 or (verb != "jump" and verb not in _ACTOR_RULES):
        return None
    from .context import Ctx
    from .moves import jump_refusal

    w = Words(" ".join(words))
    w.i = 1
    try:
        token = w.token(seat)
        pit = w.square() if verb == "jump" and w.more() else None
    except NotationError:
        return None
    if verb == "jump":
        return jump_refusal(Ctx(state), seat, token, pit)
    rule, wounded_rule = _ACTOR_RULES[verb]
    try:
        figure = Ctx(state).token(token)
        if verb == "attack" and figure.where == "exited" and figure.colour == seat:
            rule = "BG-COMBAT-09"  # (as combat.declare cites it: an exited figure does nothing)
        Ctx(state).actor(seat, token, rule=rule, wounded_rule=wounded_rule)
    except IllegalAction as refusal:
        return refusal
    return None


def legal_texts(state, seat: str | None = None) -> list[str]:
    """The canonical texts of `legal_actions(state, seat)`, in its order: `[format_action(a) for a in ...]`.

    A figure's texts are kept with its memo entry (`moves._entry`, `legal._main_parts`), so the texts of figures
    nothing changed near are not formatted again.
    """
    from . import legal  # legal -> ... -> notation: imported here, as in `resolve_input`

    out: list[str] = []
    lazy: list = []
    for s in state.to_act:
        if seat is not None and s != seat:
            continue
        if state.phase != "main":
            offered = legal._for_seat(state, s)
            if is_lazy(offered):  # a choice made of parts: its texts, lazily too
                lazy.append(Mapped(offered, format_action))
            else:
                out.extend(_offered_texts(state, s, offered))
            continue
        out.append("end")
        for parts, entry in legal._main_parts(state, s):
            out.extend(_figure_texts(parts, entry))
    return Chained([out, *lazy]) if lazy else out


def _figure_texts(parts, entry) -> tuple[str, ...]:
    """The texts of a figure's actions (`legal._main_parts`: a sequence per rule module), kept with its memo entry
    if it has one. A figure's Moves are formatted from their outcomes, without being made (`FigureMoves`)."""
    if entry is not None and entry.texts is not None:
        return entry.listed_texts()
    out: list[str] = []
    for part in parts:
        if type(part) is FigureMoves:
            token = part.token
            out += [move_text(token, dest, take, leave) for dest, take, leave in part.keys()]
            out += map(format_action, part.extras)
        else:
            out += map(format_action, part)
    texts = tuple(out)
    if entry is not None:
        entry.texts = texts
    return texts


_TEAM_TEXTS: dict[int, tuple[tuple, tuple[str, ...]]] = {}
"""The texts of the team choices legal.team_choices keeps, by the id of its tuple (held here with its texts, so
the id stays its own), for those it still keeps."""


def _offered_texts(state, seat: str, offered: list):
    """The texts of a seat's actions outside the main phase: a team choice's as kept beside it (`_TEAM_TEXTS`),
    else formatted."""
    from . import legal

    if state.phase == "team" and offered and type(offered[0]) is ChooseTeam:
        choices = legal.team_choices(state, seat)
        if len(choices) == len(offered) and choices[0] is offered[0]:  # (the kept ones: no set's step came first)
            kept = _TEAM_TEXTS.get(id(choices))
            if kept is None or kept[0] is not choices:
                held = {id(c) for c in legal._TEAM_CHOICES.values()}
                for gone in [k for k in _TEAM_TEXTS if k not in held]:  # (their choices let go: theirs too)
                    del _TEAM_TEXTS[gone]
                kept = _TEAM_TEXTS[id(choices)] = (choices, tuple(map(format_action, choices)))
            return kept[1]
    return map(format_action, offered)


def legal_table(state, seat: str) -> Mapping:
    """{canonical text: action} of `legal_actions(state, seat)`, in its order: what `dict(zip(legal_texts(state,
    seat), legal_actions(state, seat)))` gives, in one pass over the figures' memo entries instead of two (the
    server's per-step table of what a seat may send); {} when the seat is not to act, and for a choice made of
    parts (a free team building), whose builds are too many to list. In the main phase a `LegalTable`, whose
    actions are made as their texts are looked up (core/listing.py)."""
    from . import legal  # legal -> ... -> notation: imported here, as in `resolve_input`

    if seat not in state.to_act:
        return {}
    if state.phase != "main":
        offered = legal._for_seat(state, seat)
        if is_lazy(offered):
            return {}
        return dict(zip(_offered_texts(state, seat, offered), offered))
    texts: list[str] = ["end"]
    parts: list = [(EndTurn(seat),)]
    for figure_parts, entry in legal._main_parts(state, seat):
        texts += _figure_texts(figure_parts, entry)
        parts += figure_parts
    return LegalTable(texts, Listing(parts))


__all__ = ["format_action", "parse_action", "resolve_input", "legal_texts", "legal_table"]
