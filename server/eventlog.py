"""A table's numbered event log (1, 2, 3, ...): the recent entries are kept, packed, for resuming clients.

An entry holds each event as it was sent, per viewer class and form (protocol.Packed bytes keyed by
(seat or None, "full" | "delta")), never a game state: a game holds a few KiB of log, not whole states. Each
form keeps at most KEEP entries and FORM_BUDGET bytes (deltas are small and go far back; whole views only a few
steps); a client whose form no longer covers what it missed gets a snapshot.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

KEEP = 64
"""Entries kept at most."""
FORM_BUDGET = 6 * 1024
"""Bytes of packed events kept per form at most (its newest event is kept whatever its size)."""


@dataclass(frozen=True, slots=True)
class Entry:
    n: int
    forms: dict
    """(seat or None, form) -> protocol.Packed: the event as each viewer class was sent it (the forms whose
    budget ran out are no longer there)."""


class EventLog:
    def __init__(self, keep: int = KEEP, budget: int = FORM_BUDGET) -> None:
        self.n = 0
        """The number of the last event (0: none yet)."""
        self._entries: deque[Entry] = deque()
        self._keep, self._budget = keep, budget
        self._held: dict[tuple, deque[Entry]] = {}
        """Per form: the entries that still hold it, oldest first."""
        self._bytes: dict[tuple, int] = {}
        self._keys: dict[tuple, tuple] = {}
        """Each form's key, once: the entries share it (a table renders a new (seat, form) tuple at each step, 56
        bytes an entry and form that up to KEEP entries would hold)."""

    def append(self, forms: dict) -> Entry:
        self.n += 1
        keys = self._keys
        entry = Entry(self.n, {keys.setdefault(key, key): packed for key, packed in forms.items()})
        self._entries.append(entry)
        if len(self._entries) > self._keep:
            self._entries.popleft()
        for key, packed in forms.items():
            held = self._held.setdefault(key, deque())
            held.append(entry)
            total = self._bytes.get(key, 0) + len(packed.data)
            while len(held) > 1 and (total > self._budget or held[0].n <= self.n - self._keep):
                total -= len(held.popleft().forms.pop(key).data)
            self._bytes[key] = total
        while self._entries and not self._entries[0].forms:
            self._entries.popleft()
        return entry

    @property
    def bytes(self) -> int:
        """Bytes of packed events held (events shared by several forms counted once per form)."""
        return sum(self._bytes.values())

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
