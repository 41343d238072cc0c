"""docs/protocol.md section 18's identity proof: the test vector the document gives (written for client authors in
other languages) is what the implementation signs and accepts, read from the document itself, so the two cannot
drift apart."""

from __future__ import annotations

import re
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from dungeon_twister.protocol.identity import check_proof, proof_input, sign_proof

DOC = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text(encoding="utf-8")
SECTION = DOC[DOC.index("## 18. Identities"):DOC.index("## 19.")]


def _vector(title: str) -> tuple[bytes, bytes]:
    """The signed bytes and the signature of the section's test vector titled `title`."""
    vector = SECTION[SECTION.index(f"**Test vector, {title}**"):]
    vector = vector[:vector.index("(64 bytes")]
    signed = bytes.fromhex("".join(re.search(r"Signed bytes:\s+```\n(.*?)```", vector, re.S)[1].split()))
    signature = bytes.fromhex("".join(re.findall(r"`([0-9a-f]{64})`", vector.split("signature:")[1])[:2]))
    return signed, signature


def test_the_documented_identity_vectors_are_what_the_implementation_signs_and_accepts():
    v1 = SECTION[SECTION.index("**Test vector, v1**"):]
    public = re.search(r"public key `([0-9a-f]{64})`", v1)[1]
    session = re.search(r"session id\s+`([^`]+)`", v1)[1]
    name = re.search(r"name `([^`]+)`", v1)[1]
    key = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))
    raw = key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    challenge, channel = bytes([0x42] * 32), bytes([0x07] * 32)
    assert (raw.hex(), session, name) == (public, "s7-1a2b3c", "ann")
    for title, bound in (("v1", None), ("v2", channel)):
        signed, signature = _vector(title)
        assert proof_input(challenge, session, name, bound) == signed, title
        assert sign_proof(key, challenge, session, name, bound) == signature, title  # deterministic (RFC 8032)
        assert check_proof(raw, signature, challenge, session, name, bound), title
        assert not check_proof(raw, signature, challenge, session, "Ann", bound), "the name is signed as typed"
    v2 = _vector("v2")[1]
    # bound to its channel: not another's (a relay's certificate), not none, and not read as v1
    assert not check_proof(raw, v2, challenge, session, name, bytes([0x08] * 32))
    assert not check_proof(raw, v2, challenge, session, name, b"")
    assert not check_proof(raw, v2, challenge, session, name)
