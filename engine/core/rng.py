"""A tiny deterministic random generator (SplitMix64), independent of Python's `random` internals."""

_MASK = (1 << 64) - 1


class Rng:
    """SplitMix64: the same seed gives the same numbers on every Python version and platform."""

    __slots__ = ("_state",)

    def __init__(self, seed: int):
        self._state = seed & _MASK

    def next_u64(self) -> int:
        self._state = (self._state + 0x9E3779B97F4A7C15) & _MASK
        z = self._state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in [0, n) (rejection sampling, no modulo bias), drawn from `next_u64`: a subclass's
        stream (the server bot's keyed hash, server/bot.py `KeyedRng`) is the one `below`, `choice` and `shuffle`
        draw from. (Writing SplitMix64 out here, to save a call a draw, made every bot draw from SplitMix64 at
        state 0: the same moves, pauses and secret choices for all, and predictable.)"""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            value = self.next_u64()
            if value < limit:
                return value % n

    def shuffle(self, items: list) -> None:
        """Fisher-Yates shuffle in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def choice(self, items):
        """`items[self.below(len(items))]` (the random players' draw, once an action)."""
        return items[self.below(len(items))]
