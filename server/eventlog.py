"""A table's numbered event log (1, 2, 3, ...): the recent entries are kept for resuming clients."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Any

KEEP = 100
"""Entries kept; a client further behind gets a snapshot instead of a replay."""


@dataclass(frozen=True, slots=True)
class Entry:
    n: int
    payload: Any
    """An engine Event, a viewing.ViewPoint, or a public server event (a dict with a "kind")."""


class EventLog:
    def __init__(self, keep: int = KEEP) -> None:
        self.n = 0
        """The number of the last event (0: none yet)."""
        self._entries: deque[Entry] = deque(maxlen=keep)

    def append(self, payload: Any) -> Entry:
        self.n += 1
        entry = Entry(self.n, payload)
        self._entries.append(entry)
        return entry

    def since(self, last_event: int) -> list[Entry] | None:
        """The entries after `last_event`, or None if some of them are no longer kept (or never existed)."""
        if last_event > self.n:
            return None
        if last_event == self.n:
            return []
        first = self._entries[0].n if self._entries else self.n + 1
        if last_event + 1 < first:
            return None
        return list(self._entries)[last_event + 1 - first:]
