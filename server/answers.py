"""A seat's answers to its action ids, remembered for the whole game in bounded memory (docs/protocol.md section 9,
idempotent actions: an `action` repeating an id with the same text gets the same answer and is not applied twice;
with another text, `action_id_reused`).

An id answered `action_ok` is known by a 32-bit hash of it, 4 bytes each in a sorted array, and its text comes from
the journal, where every accepted action is stored with its id and typed text before it is acknowledged; the last
RECENT refusals are kept as they were (the id, the text, the refusal: a refusal is in no journal), older ones are
forgotten, as refusals are across a restart. A hash only says where to look: an id whose hash matches is new unless
the journal holds it (two ids share a 32-bit hash once in ~4 billion pairs; then the new one costs a look in the
journal). The journal is asked only when a client repeats an accepted id (a reconnecting client resending an
action it got no answer to): rare, and 1.8 ms for a table of 3,000 journal lines (a long random game; a game of
people holds a tenth of that), where keeping the last 16 accepted ids and texts of each seat in memory took ~5 KB
a game in play.
Before, every answer of the game was kept in a dict: ~90 bytes an action, the one part of a game in play that grew
without a bound (issue 7, row 5).
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections.abc import Callable

from dungeon_twister.protocol import ActionRefused

RECENT = 16
"""Answers kept whole per seat (accepted or refused), the newest."""

Known = str | tuple[str, ActionRefused]
"""The text of an action answered action_ok, or (text, the action_refused sent)."""


class Answers:
    """One seat's answers. `journal_text(action_id)`: the typed text of the seat's action that was accepted with
    that id, from the store (None if there is none), asked only for an id whose hash is among the accepted."""

    __slots__ = ("_ids", "_known", "_accepted", "_journal_text")

    def __init__(self, journal_text: Callable[[str], str | None]) -> None:
        self._ids: list[str] = []
        """The last RECENT ids refused, oldest first, and their answers in `_known` (two lists: a dict of them took
        twice the memory, its table growing with each id added and the oldest taken out)."""
        self._known: list[tuple[str, ActionRefused]] = []
        self._accepted = array("I")
        """The hashes of every id answered action_ok, sorted (`_hash`: of the process's own `hash` of a str,
        rebuilt on a restart from the journal)."""
        self._journal_text = journal_text

    def get(self, action_id: str) -> Known | None:
        """The answer to `action_id`, or None if it is new (or a refusal old enough to be forgotten)."""
        if action_id in self._ids:
            return self._known[self._ids.index(action_id)]
        accepted, key = self._accepted, _hash(action_id)
        place = bisect_left(accepted, key)
        if place < len(accepted) and accepted[place] == key:
            return self._journal_text(action_id)  # None only for another id with the same hash: a new id
        return None

    def in_journal(self, action_id: str) -> bool:
        """Whether `get(action_id)` would ask the journal: an id not among the recent refusals whose hash is among
        the accepted (a repeated accepted id, or rarely a new one sharing its hash)."""
        if action_id in self._ids:
            return False
        accepted, key = self._accepted, _hash(action_id)
        place = bisect_left(accepted, key)
        return place < len(accepted) and accepted[place] == key

    def accepted(self, action_id: str, text: str) -> None:
        """`action_id` was answered action_ok for `text` (typed so: the journal holds it)."""
        key = _hash(action_id)
        accepted = self._accepted
        accepted.insert(bisect_left(accepted, key), key)

    def refused(self, action_id: str, text: str, answer: ActionRefused) -> None:
        known = (text, answer)
        ids, answers = self._ids, self._known
        if action_id in ids:  # (answered again: its answer changes, not its place)
            answers[ids.index(action_id)] = known
            return
        ids.append(action_id)
        answers.append(known)
        if len(ids) > RECENT:
            del ids[0], answers[0]


def _hash(action_id: str) -> int:
    """An id's 32 bits in `Answers._accepted`."""
    return hash(action_id) & 0xFFFFFFFF
