"""Players' contributions to the deal (docs/protocol.md section 16, feature "seed_contributions").

The server commits to its own seed when the table is created (`seed_commitment`). With the feature, each seated
player then commits (section 10, purpose "deal") to a contribution of 64 hex digits (32 random bytes) and reveals
it once every contributing seat has committed. The game is dealt from

    seed = first 8 bytes of SHA-256( L(DEAL_TAG) || L(table id) || L(server seed) || L(contribution of B)
                                     || L(contribution of Y) ), big-endian, shifted right by 1 (63 bits)

where L(x) is x's length as 4 bytes big-endian, then x; the table id, the server seed (in decimal) and each
contribution (its 64 lowercase hex digits, or nothing for a seat that contributes nothing: a bot, or a player
whose time ran out) are ASCII/UTF-8 bytes. Sans-IO and pure.
"""

from __future__ import annotations

import hashlib
import re
import secrets

from .views import SEED_CONTRIBUTIONS

__all__ = ["SEED_CONTRIBUTIONS", "DEAL_PURPOSE", "DEAL_TAG", "deal_input", "deal_seed", "is_contribution",
           "make_contribution"]

DEAL_PURPOSE = "deal"
"""The commit-reveal purpose of a contribution (section 10's commitment, seat "B" or "Y")."""
DEAL_TAG = b"dungeon-twister/deal/v1"
CONTRIBUTION_HEX = 64
"""A contribution is 64 lowercase hex digits (32 random bytes)."""
SEED_BITS = 63
"""The mixed seed has 63 bits, as the Python server's own seeds (secrets.randbits(63))."""
_CONTRIBUTION = re.compile(r"[0-9a-f]{64}")


def make_contribution() -> str:
    """A fresh random contribution: 64 lowercase hex digits from `secrets`."""
    return secrets.token_hex(CONTRIBUTION_HEX // 2)


def is_contribution(text: str) -> bool:
    """Whether `text` is a well-formed contribution (the empty contribution is not one: it is never sent)."""
    return _CONTRIBUTION.fullmatch(text) is not None


def deal_input(table: str, server_seed: int, blue: str, yellow: str) -> bytes:
    """The exact bytes hashed: `blue` and `yellow` are the seats' contributions ("" for none)."""
    for contribution in (blue, yellow):
        if contribution and not is_contribution(contribution):
            raise ValueError(f"not a contribution: {contribution!r}")
    if server_seed < 0:
        raise ValueError("a seed is not negative")
    parts = (DEAL_TAG, table.encode(), str(server_seed).encode(), blue.encode(), yellow.encode())
    return b"".join(len(part).to_bytes(4, "big") + part for part in parts)


def deal_seed(table: str, server_seed: int, blue: str, yellow: str) -> int:
    """The seed the game at `table` is dealt from, given the server's seed and both contributions."""
    digest = hashlib.sha256(deal_input(table, server_seed, blue, yellow)).digest()
    return int.from_bytes(digest[:8], "big") >> (64 - SEED_BITS)
