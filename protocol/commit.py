"""Commitments for simultaneous secret choices (commit-reveal), and the server's commitment to a game's seed.

commitment = SHA-256 over, in this order, each part preceded by its length as 4 bytes big-endian:
DOMAIN_TAG, game id (UTF-8), seat (UTF-8), purpose (UTF-8), choice (canonical action text, UTF-8), nonce (32 bytes).

The seed commitment is the same with seat "server", purpose "seed" and the seed in decimal as the choice
(`seed_commitment`): the server sends it before the game and reveals seed and nonce after it (docs/protocol.md,
section 16).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

DOMAIN_TAG = b"dungeon-twister/commit/v1"
NONCE_SIZE = 32
COMMITMENT_SIZE = 32


def make_nonce() -> bytes:
    """A fresh random nonce; never reuse one."""
    return secrets.token_bytes(NONCE_SIZE)


def commitment_input(game_id: str, seat: str, purpose: str, choice: str, nonce: bytes) -> bytes:
    """The exact bytes that are hashed."""
    if len(nonce) != NONCE_SIZE:
        raise ValueError(f"the nonce must be {NONCE_SIZE} bytes, not {len(nonce)}")
    parts = (DOMAIN_TAG, game_id.encode(), seat.encode(), purpose.encode(), choice.encode(), nonce)
    return b"".join(len(part).to_bytes(4, "big") + part for part in parts)


def commitment(game_id: str, seat: str, purpose: str, choice: str, nonce: bytes) -> bytes:
    """The 32-byte commitment of `seat` to `choice` for `purpose` in game `game_id`."""
    return hashlib.sha256(commitment_input(game_id, seat, purpose, choice, nonce)).digest()


def verify(expected: bytes, game_id: str, seat: str, purpose: str, choice: str, nonce: bytes) -> bool:
    """Whether choice and nonce open the commitment `expected` (constant-time comparison)."""
    if len(nonce) != NONCE_SIZE:
        return False
    return hmac.compare_digest(expected, commitment(game_id, seat, purpose, choice, nonce))


SEED_SEAT = "server"
SEED_PURPOSE = "seed"


def seed_commitment(table: str, seed: int, nonce: bytes) -> bytes:
    """The server's commitment to the seed of the game at `table`."""
    return commitment(table, SEED_SEAT, SEED_PURPOSE, str(seed), nonce)


def verify_seed(expected: bytes, table: str, seed: int, nonce: bytes) -> bool:
    """Whether seed and nonce open the server's seed commitment `expected`."""
    return verify(expected, table, SEED_SEAT, SEED_PURPOSE, str(seed), nonce)

