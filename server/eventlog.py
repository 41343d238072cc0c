"""A table's numbered event log (1, 2, 3, ...): the recent events are kept, packed, for resuming clients.

Each event is kept as it was sent, per viewer class and form (protocol.Packed bytes keyed by (seat or None, "full" |
"delta" | "compact")), never a game state: a game holds a few KiB of log, not whole states. Each form keeps at most
KEEP events and FORM_BUDGET bytes of them (deltas are small and go far back; whole views only a few steps); a client
whose form no longer covers what it missed gets a snapshot.

A form's newest events are its bytes as sent (None where the form was not rendered: nobody of that class and form
was at the table then), no object per event (not even its Packed wrapper, made again for a replay). Once the
table's step is over (`pack`, run by the table after its frames are written), all but the newest few (BLOCK at
most) are compressed, BLOCK events at a time (zlib, level 1: about a third of their size, ~40 us a block): the
log was ~11 KB of a game in play, the largest part of it, and a replay, which decompresses what it sends, is
rare. A block is one bytes object: its events' sizes, then their bytes compressed with a preset dictionary of the
words views and events are made of (`ZDICT`: 0.35 -> 0.29 of their size on standard games' deltas); a tuple of
its first number, the compressed bytes and an array of sizes took ~190 bytes more a block (issue 7, row 5).
"""

from __future__ import annotations

import zlib
from array import array

import msgpack

from dungeon_twister.protocol.wire_types import Packed

KEEP = 64
"""Events kept at most per form."""
FORM_BUDGET = 6 * 1024
"""Bytes of packed events kept per form at most (its newest event is kept whatever its size)."""
BLOCK = 8
"""Events compressed together, and the most a form keeps as they were sent."""
_SIZE = array("i").itemsize
_HEAD = BLOCK * _SIZE
"""A block's first bytes: the sizes of its BLOCK events (array "i"; -1: not rendered in the form)."""
ZDICT = b"".join(msgpack.packb(word) for word in reversed((
    "kind", "Y", "B", "view_delta", "set", "colour", "square", "id", "code", "character", "wounded", "face_down",
    "ap", "tokens", "token", "moved", "route", "take", "leave", "legal", "seat", "turn", "end", "vp",
    "action_cards", "played_top", "combat_cards", "jumps", "screen", "phase", "to_act", "players", "turn_ended",
    "turn_started", "card", "active", "main", "card_played", "value", "slot", "closed", "view", "event")))
"""zlib's preset dictionary for the blocks: the commonest words of the views' and events' maps (most common last,
where zlib finds them nearest), packed as msgpack strings. Only this process reads the blocks it wrote."""


WINDOW_BITS, MEMORY_LEVEL = 13, 5
"""zlib's window (8 KB) and memory level for a block: a block is a few KB (FORM_BUDGET), and zlib's defaults (32 KB,
level 8) made it set up and clear ~256 KB of state for each, a quarter of a block's instructions (twenty-seventh
session, 2026-11-30: 205 K -> 150 K a block of the recorded beginner and standard games' blocks, 0.2958 ->
0.2959 of their size; a stream of the defaults is read the same way)."""


def _compress(data: bytes) -> bytes:
    packer = zlib.compressobj(1, zlib.DEFLATED, WINDOW_BITS, MEMORY_LEVEL, zlib.Z_DEFAULT_STRATEGY, ZDICT)
    return packer.compress(data) + packer.flush()


def _decompress(data: bytes) -> bytes:
    unpacker = zlib.decompressobj(zdict=ZDICT)
    return unpacker.decompress(data) + unpacker.flush()


class _Form:
    """One form's events from number `first` on: compressed `blocks` of BLOCK events each, the first beginning
    with event `start` (each block: its events' sizes, -1 for an event not rendered in this form, then their bytes
    joined and compressed), then `tail`, the newest ones (bytes, or None). The first block may begin before `first`
    (its first events are no longer kept: the block goes once none of its events is kept). `total`: bytes of the
    events kept."""

    __slots__ = ("first", "total", "start", "blocks", "tail")

    def __init__(self, first: int) -> None:
        self.first, self.total, self.start = first, 0, first
        # lists, not deques: a few items each (an empty deque takes ~600 bytes, an empty list 56)
        self.blocks: list[bytes] = []
        self.tail: list[bytes | None] = []

    def _head_size(self) -> int:
        """The size of the oldest event kept, -1 if it was not rendered in this form."""
        if self.blocks:
            at = (self.first - self.start) * _SIZE
            return array("i", self.blocks[0][at:at + _SIZE])[0]
        head = self.tail[0]
        return -1 if head is None else len(head)

    def drop_head(self) -> None:
        size = self._head_size()
        if size > 0:
            self.total -= size
        self.first += 1
        if self.blocks:
            if self.first >= self.start + BLOCK:
                del self.blocks[0]
                self.start += BLOCK
        else:
            del self.tail[0]

    def head_missing(self) -> bool:
        return self._head_size() < 0

    def pack(self) -> None:
        """Compress the tail's events but the newest (BLOCK at most), BLOCK at a time."""
        tail = self.tail
        while len(tail) > BLOCK:
            if not self.blocks:
                self.start = self.first
            events = tail[:BLOCK]
            del tail[:BLOCK]
            sizes = array("i", [-1 if data is None else len(data) for data in events])
            self.blocks.append(sizes.tobytes() + _compress(b"".join(filter(None, events))))

    def events(self, first: int) -> list[bytes | None]:
        """The events kept from number `first` (>= self.first) on, oldest first."""
        out: list[bytes | None] = []
        for index, blob in enumerate(self.blocks):
            start = self.start + index * BLOCK
            if start + BLOCK <= first:
                continue
            data, at = _decompress(blob[_HEAD:]), 0
            for number, size in enumerate(array("i", blob[:_HEAD]), start):
                if number >= first:
                    out.append(None if size < 0 else data[at:at + size])
                at += max(size, 0)
        tail_start = self.start + len(self.blocks) * BLOCK if self.blocks else self.first
        out.extend(self.tail[max(0, first - tail_start):])
        return out


class EventLog:
    def __init__(self, keep: int = KEEP, budget: int = FORM_BUDGET) -> None:
        self.n = 0
        """The number of the last event (0: none yet)."""
        self._keep, self._budget = keep, budget
        self._forms: dict[tuple, _Form] = {}

    def append(self, forms: dict) -> int:
        """The next event, as each form was rendered ({form: Packed}); its number."""
        self.n += 1
        n, keep, budget = self.n, self._keep, self._budget
        for form in forms.keys() - self._forms.keys():
            self._forms[form] = _Form(n)
        for form, held in self._forms.items():
            packed = forms.get(form)
            data = packed.data if packed is not None else None
            held.tail.append(data)
            if data is not None:
                held.total += len(data)
            while n > held.first and (held.total > budget or held.first <= n - keep or held.head_missing()):
                held.drop_head()
        return n

    def pack(self) -> None:
        """Compress what each form keeps but its newest events (see the module); nothing a replay gives changes."""
        for held in self._forms.values():
            held.pack()

    @property
    def bytes(self) -> int:
        """Bytes of packed events held, as sent (events shared by several forms counted once per form)."""
        return sum(held.total for held in self._forms.values())

    def since(self, last_event: int, form: tuple) -> list[tuple[int, Packed]] | None:
        """(number, packed) of each event after `last_event` as `form` was sent it, or None if one of them is not
        kept in that form (too old, or not rendered in it) or `last_event` never existed."""
        if last_event > self.n:
            return None
        if last_event == self.n:
            return []
        held = self._forms.get(form)
        if held is None or last_event + 1 < held.first:
            return None
        missed = held.events(last_event + 1)
        if None in missed:
            return None
        return list(zip(range(last_event + 1, self.n + 1), map(Packed, missed)))
