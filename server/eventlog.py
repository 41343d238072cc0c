"""A table's numbered event log (1, 2, 3, ...): the recent events are kept, packed, for resuming clients.

Each event is kept as it was sent, per viewer class and form (protocol.Packed bytes keyed by (seat or None,
"full" | "delta")), never a game state: a game holds a few KiB of log, not whole states. Each form keeps at most
KEEP events and FORM_BUDGET bytes (deltas are small and go far back; whole views only a few steps); a client
whose form no longer covers what it missed gets a snapshot.

A form's events are one deque of packed events' bytes, one slot per event number from its first kept one (None
where the form was not rendered: nobody of that class and form was at the table then), so an event costs a form 8
bytes besides its bytes, and nothing else: no object per event (not even its Packed wrapper, made again for a
replay: 48 bytes an event and form, ~2 KB a game in play).
"""

from __future__ import annotations

from collections import deque
from itertools import islice

from dungeon_twister.protocol.wire_types import Packed

KEEP = 64
"""Events kept at most per form."""
FORM_BUDGET = 6 * 1024
"""Bytes of packed events kept per form at most (its newest event is kept whatever its size)."""


class EventLog:
    def __init__(self, keep: int = KEEP, budget: int = FORM_BUDGET) -> None:
        self.n = 0
        """The number of the last event (0: none yet)."""
        self._keep, self._budget = keep, budget
        self._held: dict[tuple, deque[bytes | None]] = {}
        """Per form: its events' packed bytes from number `_first[form]` on, oldest first (None: not rendered in
        that form)."""
        self._first: dict[tuple, int] = {}
        self._bytes: dict[tuple, int] = {}

    def append(self, forms: dict) -> int:
        """The next event, as each form was rendered ({form: Packed}); its number."""
        self.n += 1
        n, keep, budget = self.n, self._keep, self._budget
        for form in forms.keys() - self._held.keys():
            self._held[form], self._first[form], self._bytes[form] = deque(), n, 0
        for form, held in self._held.items():
            packed = forms.get(form)
            data = packed.data if packed is not None else None
            held.append(data)
            total = self._bytes[form] + (len(data) if data is not None else 0)
            first = self._first[form]
            while len(held) > 1 and (total > budget or first <= n - keep or held[0] is None):
                dropped = held.popleft()
                first += 1
                if dropped is not None:
                    total -= len(dropped)
            self._first[form], self._bytes[form] = first, total
        return n

    @property
    def bytes(self) -> int:
        """Bytes of packed events held (events shared by several forms counted once per form)."""
        return sum(self._bytes.values())

    def since(self, last_event: int, form: tuple) -> list[tuple[int, Packed]] | None:
        """(number, packed) of each event after `last_event` as `form` was sent it, or None if one of them is not
        kept in that form (too old, or not rendered in it) or `last_event` never existed."""
        if last_event > self.n:
            return None
        if last_event == self.n:
            return []
        held = self._held.get(form)
        if held is None or last_event + 1 < self._first[form]:
            return None
        missed = list(islice(held, last_event + 1 - self._first[form], None))
        if None in missed:
            return None
        return list(zip(range(last_event + 1, self.n + 1), map(Packed, missed)))
