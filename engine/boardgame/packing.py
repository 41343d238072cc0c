"""A figure's move outcomes kept compact, for a game that waits (a server's players think).

A move search gives {(dest, take, leave): route} (`movement.Walker.outcomes`), kept in the game's memo with the
figure's entry (`moves._Entry`) so that the next position that leaves the figure alone costs a lookup. As a dict
of route tuples that is ~110 bytes an outcome, and a game in play keeps a few hundred outcomes of both seats'
figures: 15-45 KB of a standard game's memo at 175 actions (issue 7, row 5). `pack` writes each key in two bytes
(a plain outcome's as its dest, one that takes or leaves as a byte record of its own) and the routes as one byte
string, a byte a square (`SQUARES`' index), with their starts in an array of 2-byte offsets: ~6 bytes a plain
outcome. Reading one back makes the same values (equal keys, equal routes of the process's interned squares), so
a packed entry serves exactly as the dict did; only reading is dearer (a microsecond, for the one outcome a move
applies, or for all of them when a bot iterates the list).
"""

from __future__ import annotations

from array import array
from itertools import accumulate, chain

from .geometry import Square, interned

_WIDTH = 10  # squares across (geometry: x 0..9)
_CODES = 250  # square codes: x + 10 * (y + 1) for y from -1 (Blue's start zone) to 23 (a board of 24 rows)
SQUARES: tuple[Square, ...] = tuple(interned((c % _WIDTH, c // _WIDTH - 1)) for c in range(_CODES))
"""A route's byte -> the process's one tuple for that square (`geometry.interned`)."""


class Packed:
    """The outcomes {(dest, take, leave): route} of one search, in their order, as `pack` writes them.

    `keys`: each outcome's key in two bytes: a plain one (taking and leaving nothing) as its dest's byte, any other
    as 256 + the offset of its record in `taken`: its dest, its take (0 for none, else 1 + its index in `ids`), how
    many it leaves, and each (index in `ids`, square) it leaves, a byte each (~150 bytes of tuples an outcome
    before). `blob`: the routes one after the other, a byte a square, route `i` from `starts[i]` to
    `starts[i + 1]`."""

    __slots__ = ("keys", "taken", "ids", "blob", "starts")

    def __init__(self, keys: array, taken: bytes, ids: tuple[str, ...], blob: bytes, starts: array) -> None:
        self.keys, self.taken, self.ids, self.blob, self.starts = keys, taken, ids, blob, starts

    def __len__(self) -> int:
        return len(self.keys)

    def key(self, index: int) -> tuple:
        """The key of the outcome at `index`."""
        key = self.keys[index]
        if key < 256:
            return _PLAIN[key]
        key -= 256
        taken, ids = self.taken, self.ids
        dest = SQUARES[taken[key]]
        take = ids[taken[key + 1] - 1] if taken[key + 1] else None
        at = key + 3
        leave = tuple([(ids[taken[k]], SQUARES[taken[k + 1]]) for k in range(at, at + 2 * taken[key + 2], 2)])
        return dest, take, leave

    def all_keys(self):
        """Every outcome's key, in order."""
        return map(self.key, range(len(self.keys)))

    def _route(self, index: int) -> tuple[Square, ...]:
        starts = self.starts
        return tuple([SQUARES[c] for c in self.blob[starts[index]:starts[index + 1]]])

    def item(self, index: int) -> tuple[tuple, tuple[Square, ...]]:
        """(key, route) of the outcome at `index` (0 <= index < len)."""
        return self.key(index), self._route(index)

    def items(self):
        """(key, route) of every outcome, in order."""
        return map(self.item, range(len(self.keys)))

    def route(self, key: tuple) -> tuple[Square, ...] | None:
        """The route of the outcome `key`, or None if it is not one of these."""
        try:
            dest, take, leave = key
            if take is None and not leave:
                return self._route(self.keys.index(_CODE[dest]))
            ids = self.ids
            head = [_CODE[dest], 0 if take is None else ids.index(take) + 1, len(leave)]
            for token, square in leave:
                head += (ids.index(token), _CODE[square])
            head = bytes(head)
            at = self.taken.find(head)
            while at != -1:
                try:  # a record starts there: the same key (its length is the head's)
                    return self._route(self.keys.index(256 + at))
                except ValueError:
                    at = self.taken.find(head, at + 1)
        except (KeyError, ValueError, TypeError):
            pass
        return None


def pack(outcomes: dict) -> Packed | None:
    """`outcomes` ({(dest, take, leave): route}, in order) packed, or None if they do not fit its bytes (a square
    outside the codes, more than 254 tokens named, routes of more than 65,535 squares in all, or records of the
    keys that take or leave of more than 65,279 bytes): then they stay as they are. The routes and the plain keys
    are written by C loops (`map`, `bytes`, `accumulate`, a comprehension); the keys that take or leave something
    cost Python's work, ~1 us each (~25 us a search of ~25 outcomes, half of them such, in the server's games)."""
    codes = _CODE
    routes = outcomes.values()
    keys: list = []
    taken: list[int] = []
    ids: list[str] = []
    try:
        blob = bytes(map(codes.__getitem__, chain.from_iterable(routes)))
        starts = array("H", accumulate(map(len, routes), initial=0))
        for key in outcomes:  # (one pass: a plain key's code, or a record's; 16 K instructions a search less)
            dest, take, leave = key
            if take is None and not leave:
                keys.append(codes[dest])
                continue
            keys.append(256 + len(taken))
            if take is None:
                taken += (codes[dest], 0, len(leave))
            else:
                if take not in ids:
                    ids.append(take)
                taken += (codes[dest], ids.index(take) + 1, len(leave))
            for token, square in leave:
                if token not in ids:
                    ids.append(token)
                taken += (ids.index(token), codes[square])
        record = bytes(taken)  # ValueError past 255
        keys = array("H", keys)  # OverflowError
    except (KeyError, OverflowError, ValueError):
        return None
    return Packed(keys, record, tuple(ids), blob, starts)


_CODE: dict[Square, int] = {square: c for c, square in enumerate(SQUARES)}
"""Square -> its byte (its index in `SQUARES`)."""
_PLAIN: tuple[tuple, ...] = tuple((square, None, ()) for square in SQUARES)
"""A plain outcome's key by its dest's byte (equal to the search's own, `movement._PLAIN`)."""
