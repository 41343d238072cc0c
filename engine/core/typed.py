"""What a player typed, turned into one legal action: the abbreviation matching every rule family shares."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from difflib import get_close_matches

from .choice import is_lazy
from .errors import N_, AmbiguousAction, NotationError

MAX_ACTION_TEXT = 256

_ABBREVIATED = re.compile(r"\d|^[by]?[A-Z]{2}\d?$")
"""A first word shaped as a square, a room or a token (`g6`, `A1`, `TH`, `bTH`), not as a verb: an abbreviation."""

_PIECE = re.compile(r"^[by][A-Z]{2}[0-9]?$")
"""A piece code as the notation writes it: its colour's letter in lower case, its code in capitals (`bTR`)."""

_ANY_CASE_PIECE = re.compile(r"^([byBY])([A-Za-z]{2})([0-9]?)$")


def piece_spelling(word: str) -> str | None:
    """`word` as a piece code is written (`bTR` for `btr`, `BTR` or `bTr`: the boards show a wounded character in
    lower case, and players type what they see), or None when it is not shaped as one. Whether the code is a
    piece of the game is the family's to check. Only where a piece code is expected (a parser reading a token,
    the words of an abbreviation after its first): elsewhere `yes` would be the Escapist `yES`."""
    m = _ANY_CASE_PIECE.match(word)
    if m is None:
        return None
    return m.group(1).lower() + m.group(2).upper() + m.group(3)


def code_spelling(word: str) -> str:
    """A two-letter character or object code as written (`TR` for `tr`), where a code is expected; other words
    unchanged."""
    return word.upper() if len(word) == 2 and word.isascii() and word.isalpha() else word


WORDS_FOR_VERBS = {"play": "card", "go": "move", "walk": "move", "run": "move", "fight": "attack", "hit": "attack",
                   "turn": "rotate", "spin": "rotate"}
"""English words a player may type for a verb (a play-test's `play 2` for the action card `card 2` was offered
`place`, the nearest spelling): the guess when the game has that verb."""


def unknown_verb(verb: str, names: Sequence[str], text: str) -> NotationError:
    """The refusal of an unknown `verb` typed in `text` (at `column`), every rule family's: the verb a player's
    word stands for (WORDS_FOR_VERBS), else the nearest of the game's verbs `names` as a guess when one is near
    (`mvoe` -> `move`, `pikc` -> `pick`), and the list."""
    names = sorted(names)
    column = len(text) - len(text.lstrip())  # where the verb is
    meant = WORDS_FOR_VERBS.get(verb.lower())
    near = [meant] if meant in names else get_close_matches(verb.lower(), names, n=1)
    # the list in two values, each within the protocol's 200 characters of a value (action_refused.values)
    half = {"verbs": ", ".join(names[:len(names) // 2]), "more_verbs": ", ".join(names[len(names) // 2:])}
    if near:
        # TRANSLATORS: {verbs}, {more_verbs}: the two halves of the list of verbs (notation, not translated)
        return NotationError("unknown verb {verb}: did you mean {near}? (verbs: {verbs}, {more_verbs})", text,
                             column, verb=repr(verb), near=repr(near[0]), **half)
    # TRANSLATORS: {verbs}, {more_verbs}: the two halves of the list of verbs (notation, not translated)
    return NotationError("unknown verb {verb} (verbs: {verbs}, {more_verbs})", text, column, verb=repr(verb),
                         **half)


IMPLIED_VERB = "move"
"""The verb an abbreviation without one stands for (`bTH g6` for `move bTH g6`), in every rule family."""

SHOWN_CANDIDATES = 12
"""How many of the actions an ambiguous abbreviation matches its refusal names."""


def check_length(text: str) -> None:
    if len(text) > MAX_ACTION_TEXT:
        raise NotationError("an action is at most {limit} characters long, not {length}", limit=MAX_ACTION_TEXT,
                            length=len(text))


def typed_text(text: str) -> str:
    """What a player typed, as the game reads it: full-width letters, digits and spaces (an East Asian keyboard's,
    `ｈ４`) as the ASCII ones, through Unicode's NFKC (play-test pt25 F17); NotationError if it is too long, before
    or after (NFKC can lengthen a text: one ligature is up to 18 characters). The one rule for the server
    (`resolve_typed`) and the client (its commands, its guards and its secret choices read what the server will)."""
    check_length(text)
    if text.isascii():
        return text
    text = unicodedata.normalize("NFKC", text)
    check_length(text)
    return text


def resolve_typed(text: str, seat: str, parse: Callable[[str, str], object], legal: Callable[[], Sequence],
                  format_action: Callable[[object], str], waiting: Callable[[], Exception | None] = lambda: None,
                  unmatched: Callable[[list[str]], Exception | None] = lambda words: None):
    """Exact notation is parsed as is (and then validated by the family's `apply`). Otherwise the words are
    matched, in order, against the canonical text of every legal action (`legal()`): `bTH g6` or `g6` for a
    move, `attack yTR` with the attacker left out, `TH` for `bTH`. One match: that action. Several:
    AmbiguousAction with the candidates. None: the strict parse error, unless the text starts with an
    abbreviation's word where the parser wanted a verb (`h20`), or stops where the parser wanted more (`rotate`
    with no rotation legal, `move bTH` for a figure that cannot move): then that nothing legal matches it, which
    is why nothing completes it, rather than the notation's "missing a token"; when nothing at all is legal for
    the seat, the family's refusal of a seat that is not to act (`waiting()`: "it is not your turn"), as `apply`
    gives it for the same action typed in full. An abbreviation that is a whole move without its verb (`bWA j9`,
    `TH c1`) is that move, parsed strictly: the family's `apply` then refuses it with the rule it breaks, as it
    would `move bWA j9` typed in full, where "matches none" would name no rule. An unfinished text that nothing
    legal completes gets the family's reason when it has one (`unmatched(words)`: `jump bTH` with no pit beside
    the Thief, BG-JUMP-03). A piece code in another case (`btr`, as the boards show a wounded character) matches
    the token (`attack btr`), but not as the whole text: `yes` alone is no Escapist (`yES`), and a lone `btr`
    gets "did you mean bTR?". Full-width letters, digits and spaces (an East Asian keyboard's, `ｈ４`) are read as
    the ASCII ones (Unicode's NFKC: play-test pt25 F17)."""
    text = typed_text(text)
    try:
        return parse(text, seat)
    except NotationError as strict_error:
        words = text.split()
        candidates = []
        actions = legal()
        if is_lazy(actions):
            raise  # a choice made of parts (a free team building) is typed in full: no abbreviation
        any_case = len(words) > 1
        spelt = piece_spelling(words[0]) if words else None
        # the first word, when it is a piece code in another case (`btr`)
        spelt = None if not words or spelt == words[0] else spelt
        seen = False  # whether a legal action names that piece
        for action in actions:
            canonical = format_action(action).split()
            if _subsequence(words, canonical, any_case) or _subsequence(words, canonical[1:], any_case):
                candidates.append(action)
            elif spelt is not None and not seen:
                seen = spelt in canonical[1:]
        if len(candidates) == 1:
            return candidates[0]
        if candidates:
            # the first SHOWN_CANDIDATES, and "…" when there are more (a play-test read 12 of 25 as the whole list)
            template = (N_("{text} matches {count} actions: {candidates}") if len(candidates) <= SHOWN_CANDIDATES
                        else N_("{text} matches {count} actions: {candidates}, …"))
            raise AmbiguousAction(template, tuple(format_action(a) for a in candidates[:SHOWN_CANDIDATES]),
                                  text=repr(text), count=len(candidates)) from None
        unfinished = strict_error.column >= len(text.rstrip())
        shaped = strict_error.column == 0 and bool(words) and bool(_ABBREVIATED.search(words[0]))
        # a piece code in another case first (`bth c4`): a move too, if a legal action names it (`yes c4` is no
        # move of the Escapist `yES` where none is his)
        other_case = strict_error.column == 0 and any_case and not shaped and seen
        abbreviated = shaped or other_case
        if words and (unfinished or abbreviated):
            refusal = None if actions else waiting()
            if refusal is not None:
                raise refusal from None
            if abbreviated:
                try:  # a whole move with its verb left out: the family's `apply` names the rule it breaks
                    return parse(f"{IMPLIED_VERB} {text}", seat)
                except NotationError:
                    pass
            if unfinished:
                reason = unmatched(words)
                if reason is not None:
                    raise reason from None
            raise NotationError("{typed} matches none of your legal actions now", typed=repr(text)) from None
        if seen and not any_case:  # a lone `btr`: the piece, but a lone word may be meant otherwise (`yes`)
            raise NotationError("{typed} matches none of your legal actions now: did you mean {token}?",
                                typed=repr(text), token=spelt) from None
        raise strict_error


def _subsequence(words: list[str], canonical: list[str], any_case: bool = False) -> bool:
    if not words:
        return False
    it = iter(canonical)
    return all(any(_same(word, c, any_case) for c in it) for word in words)


def _same(word: str, canonical_word: str, any_case: bool = False) -> bool:
    """Whether the typed `word` stands for the canonical text's word: the same, or a token without its colour's
    letter (`TH` for `bTH`); with `any_case`, a token in any case too (`btr`, `tr` for `bTR`)."""
    if word == canonical_word or (len(word) == 2 and canonical_word[1:] == word and canonical_word[0] in "by"):
        return True
    if not any_case or not _PIECE.match(canonical_word):
        return False
    return piece_spelling(word) == canonical_word or (len(word) == 2 and canonical_word[1:] == code_spelling(word))
