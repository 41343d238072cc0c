"""A legal set listed in parts, its actions made as they are asked for.

A position's legal actions are mostly moves: one per outcome of a figure's move search, 50 to 100 in a standard
game's position. Making an action object for each of them took a fifth of `legal_actions`' time, though a random
player uses one of them and a server looks them up by their texts. `legal_actions` gives a `Listing` instead of a
list: the sequences it is made of (EndTurn, then each figure's actions, rule module by rule module), one after the
other, whose moves part (`boardgame.actions.FigureMoves`) makes a Move when it is asked for one.

It behaves as the list of its actions: same length, same order, indexing (`rng.choice(legal)` makes one action),
iteration, `in`, and equality with a list or another Listing. Unlike a `PartsChoice` it is not too large to list:
`is_lazy` is False for it, and its texts are listed (`legal_texts`).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Mapping, Sequence
from itertools import chain


class Listing(Sequence):
    """The sequences `parts`, one after the other (empty ones allowed), as one immutable sequence."""

    __slots__ = ("parts", "_ends")

    def __init__(self, parts: list[Sequence]) -> None:
        self.parts = parts
        ends, n = [], 0
        for part in parts:
            n += len(part)
            ends.append(n)
        self._ends = ends  # where each part ends in the whole

    def __len__(self) -> int:
        return self._ends[-1] if self._ends else 0

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        size = len(self)
        if index < 0:
            index += size
        if not 0 <= index < size:
            raise IndexError("Listing index out of range")
        k = bisect_right(self._ends, index)
        return self.parts[k][index - (self._ends[k - 1] if k else 0)]

    def __iter__(self):
        return chain.from_iterable(self.parts)

    def __contains__(self, item) -> bool:
        return any(item in part for part in self.parts)

    def __eq__(self, other) -> bool:
        if isinstance(other, (Listing, list, tuple)):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other))
        return NotImplemented

    __hash__ = None  # a sequence, compared by its contents, as a list is

    def __add__(self, other):
        return list(self) + list(other)

    def __radd__(self, other):
        return list(other) + list(self)

    def __repr__(self) -> str:
        return f"Listing({list(self)!r})"


class LegalTable(Mapping):
    """{canonical text: action} of a legal set listed in order: `texts` (the texts in that order, no two alike) and
    `actions` (a `Listing` or a list, the action of each text at its place). An action is made when its text is
    looked up, so a table whose moves are never asked for makes no Move (a server's per-step table: its texts go
    into the view, one of them comes back).

    A text is found by a scan of the list (`list.index`, a few microseconds for a few hundred texts), not through
    a dict: a server looks up one text per action, and holds a table for every game in play, where a dict of
    texts took ~3 KB a game more than the list (a median 85 texts; issue 7, row 5). `pack` keeps the texts as
    one string, a line each, for as long as the players think (a string object a text took ~5 KB more): a text
    is then found by `str.find` and its place by counting the line breaks before it. Canonical texts hold no
    line break; a text that does is in no table."""

    __slots__ = ("texts", "actions", "_lines", "_count")

    def __init__(self, texts: list[str], actions: Sequence) -> None:
        self.texts, self.actions = texts, actions
        self._lines: str | None = None  # packed: "\n" + the texts joined by "\n" + "\n" (texts is None)
        self._count = 0

    def _index(self, text) -> int:
        """The place of `text` in the table; ValueError if it is not there."""
        if self.texts is not None:
            return self.texts.index(text)
        if type(text) is not str or "\n" in text or not self._count:
            raise ValueError(text)
        lines = self._lines
        at = lines.find(f"\n{text}\n")
        if at < 0:
            raise ValueError(text)
        return lines.count("\n", 0, at)

    def __getitem__(self, text: str):
        try:
            return self.actions[self._index(text)]
        except ValueError:
            raise KeyError(text) from None

    def __contains__(self, text) -> bool:
        try:
            self._index(text)
        except ValueError:
            return False
        return True

    def __iter__(self):
        if self.texts is not None:
            return iter(self.texts)
        return iter(self._lines[1:-1].split("\n") if self._count else ())

    def __len__(self) -> int:
        return len(self.texts) if self.texts is not None else self._count

    def pack(self) -> None:
        """Keep the texts as one string (see the class)."""
        if self.texts is not None:
            self._count = len(self.texts)
            self._lines = "\n" + "\n".join(self.texts) + "\n"
            self.texts = None

    def __repr__(self) -> str:
        return f"LegalTable({dict(self)!r})"
