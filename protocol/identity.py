"""Identities without passwords (docs/protocol.md section 18): a user's Ed25519 key pair; hello names the public key,
welcome brings a fresh challenge, and `prove` signs it. What is signed: each part preceded by its length as 4 bytes
big-endian, IDENTITY_TAG, the challenge (32 bytes), the session id of welcome (UTF-8), the name of hello (UTF-8)."""

from __future__ import annotations

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

IDENTITY_TAG = b"dungeon-twister/identity/v1"
CHALLENGE_SIZE = 32


def proof_input(challenge: bytes, session: str, name: str) -> bytes:
    parts = (IDENTITY_TAG, challenge, session.encode(), name.encode())
    return b"".join(len(part).to_bytes(4, "big") + part for part in parts)


def sign_proof(key: Ed25519PrivateKey, challenge: bytes, session: str, name: str) -> bytes:
    """The signature `prove` carries (64 bytes)."""
    return key.sign(proof_input(challenge, session, name))


def check_proof(public: bytes, signature: bytes, challenge: bytes, session: str, name: str) -> bool:
    """Whether `signature` proves the key `public` (32 raw bytes) for this challenge, session and name."""
    try:
        Ed25519PublicKey.from_public_bytes(public).verify(signature, proof_input(challenge, session, name))
    except (InvalidSignature, ValueError):
        return False
    return True
