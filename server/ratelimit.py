"""Rate limits on trio's clock (the session's chat and resume, a seat's refused actions)."""

from __future__ import annotations


class TokenBucket:
    """A rate limit on trio's clock: `burst` at once, refilled at `rate` a second. `take` spends one if there is
    one; `has` only says whether there is (a limit on what was refused is spent after the refusal, not before)."""

    __slots__ = ("burst", "rate", "tokens", "at")

    def __init__(self, burst: int, rate: float) -> None:
        self.burst, self.rate = burst, rate
        self.tokens, self.at = float(burst), None

    def _refill(self, now: float) -> None:
        if self.at is not None:
            self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now

    def has(self, now: float) -> bool:
        self._refill(now)
        return self.tokens >= 1

    def take(self, now: float) -> bool:
        self._refill(now)
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False
