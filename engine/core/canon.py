"""One object per value for the whole process, in a bounded table: what many games hold alike (squares, edges, room
places, a view's keys) is then held once, not once per game.

`Canon(limit)(key)` gives the first object equal to `key` that was asked for (or `make(key)`, the object kept for
`key`); past `limit` entries, new values are given back as they are (or made each time): results stay correct,
they are only no longer shared.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable


class Canon:
    __slots__ = ("_table", "_limit")

    def __init__(self, limit: int) -> None:
        self._table: dict = {}
        self._limit = limit

    def __call__(self, key: Hashable, make: Callable | None = None):
        found = self._table.get(key)
        if found is None:
            found = key if make is None else make(key)
            if len(self._table) < self._limit:
                self._table[key] = found
        return found

    def __len__(self) -> int:
        return len(self._table)
