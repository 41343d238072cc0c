"""Identities without passwords (docs/protocol.md section 18): a user's Ed25519 key pair; hello names the public key,
welcome brings a fresh challenge, and `prove` signs it. What is signed: each part preceded by its length as 4 bytes
big-endian, the tag, the challenge (32 bytes), the session id of welcome (UTF-8), the name of hello (UTF-8), and
since v2 the channel: the SHA-256 of the server's TLS certificate as the client received it (32 bytes), or nothing
over plain TCP. A server passes on a proof made for it to no other server with TLS: the other's certificate is not
in it (red team rt25: a hostile server relayed a client's v1 proof and was taken for him)."""

from __future__ import annotations

import hashlib

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

IDENTITY_TAG = b"dungeon-twister/identity/v1"
"""The first form, bound to no channel: still accepted from older clients (section 18 says where)."""
BOUND_TAG = b"dungeon-twister/identity/v2"
CHALLENGE_SIZE = 32


def proof_input(challenge: bytes, session: str, name: str, channel: bytes | None = None) -> bytes:
    """The bytes signed: v1 without `channel` (None), else v2 with it (b"" over plain TCP)."""
    if channel is None:
        parts = (IDENTITY_TAG, challenge, session.encode(), name.encode())
    else:
        parts = (BOUND_TAG, challenge, session.encode(), name.encode(), channel)
    return b"".join(len(part).to_bytes(4, "big") + part for part in parts)


def channel_of(certificate_der: bytes | None) -> bytes:
    """The channel a proof is bound to: the SHA-256 of the server's certificate (DER), or b"" without TLS."""
    return hashlib.sha256(certificate_der).digest() if certificate_der else b""


def sign_proof(key: Ed25519PrivateKey, challenge: bytes, session: str, name: str,
               channel: bytes | None = None) -> bytes:
    """The signature `prove` carries (64 bytes)."""
    return key.sign(proof_input(challenge, session, name, channel))


def check_proof(public: bytes, signature: bytes, challenge: bytes, session: str, name: str,
                channel: bytes | None = None) -> bool:
    """Whether `signature` proves the key `public` (32 raw bytes) for this challenge, session and name (and channel:
    v2; None: v1)."""
    try:
        Ed25519PublicKey.from_public_bytes(public).verify(signature, proof_input(challenge, session, name, channel))
    except (InvalidSignature, ValueError):
        return False
    return True
