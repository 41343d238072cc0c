"""What a player typed, turned into one legal action: the abbreviation matching every rule family shares."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from .choice import is_lazy
from .errors import N_, AmbiguousAction, NotationError

MAX_ACTION_TEXT = 256

_ABBREVIATED = re.compile(r"\d|^[by]?[A-Z]{2}\d?$")
"""A first word shaped as a square, a room or a token (`g6`, `A1`, `TH`, `bTH`), not as a verb: an abbreviation."""

IMPLIED_VERB = "move"
"""The verb an abbreviation without one stands for (`bTH g6` for `move bTH g6`), in every rule family."""

SHOWN_CANDIDATES = 12
"""How many of the actions an ambiguous abbreviation matches its refusal names."""


def check_length(text: str) -> None:
    if len(text) > MAX_ACTION_TEXT:
        raise NotationError("an action is at most {limit} characters long, not {length}", limit=MAX_ACTION_TEXT,
                            length=len(text))


def resolve_typed(text: str, seat: str, parse: Callable[[str, str], object], legal: Callable[[], Sequence],
                  format_action: Callable[[object], str], waiting: Callable[[], Exception | None] = lambda: None):
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
    would `move bWA j9` typed in full, where "matches none" would name no rule."""
    check_length(text)
    try:
        return parse(text, seat)
    except NotationError as strict_error:
        words = text.split()
        candidates = []
        actions = legal()
        if is_lazy(actions):
            raise  # a choice made of parts (a free team building) is typed in full: no abbreviation
        for action in actions:
            canonical = format_action(action).split()
            if _subsequence(words, canonical) or _subsequence(words, canonical[1:]):
                candidates.append(action)
        if len(candidates) == 1:
            return candidates[0]
        if candidates:
            # the first SHOWN_CANDIDATES, and "…" when there are more (a play-test read 12 of 25 as the whole list)
            template = (N_("{text} matches {count} actions: {candidates}") if len(candidates) <= SHOWN_CANDIDATES
                        else N_("{text} matches {count} actions: {candidates}, …"))
            raise AmbiguousAction(template, tuple(format_action(a) for a in candidates[:SHOWN_CANDIDATES]),
                                  text=repr(text), count=len(candidates)) from None
        unfinished = strict_error.column >= len(text.rstrip())
        abbreviated = strict_error.column == 0 and bool(words) and bool(_ABBREVIATED.search(words[0]))
        if words and (unfinished or abbreviated):
            refusal = None if actions else waiting()
            if refusal is not None:
                raise refusal from None
            if abbreviated:
                try:  # a whole move with its verb left out: the family's `apply` names the rule it breaks
                    return parse(f"{IMPLIED_VERB} {text}", seat)
                except NotationError:
                    pass
            raise NotationError("{typed} matches none of your legal actions now", typed=repr(text)) from None
        raise strict_error


def _subsequence(words: list[str], canonical: list[str]) -> bool:
    if not words:
        return False
    it = iter(canonical)
    return all(any(_same(word, c) for c in it) for word in words)


def _same(word: str, canonical_word: str) -> bool:
    return word == canonical_word or (len(word) == 2 and canonical_word[1:] == word and canonical_word[0] in "by")
