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


def test_the_documented_identity_vector_is_what_the_implementation_signs_and_accepts():
    vector = SECTION[SECTION.index("**Test vector**"):]
    public = re.search(r"public key\s+`([0-9a-f]{64})`", vector)[1]
    session = re.search(r"session id\s+`([^`]+)`", vector)[1]
    name = re.search(r"name `([^`]+)`", vector)[1]
    signed = bytes.fromhex("".join(re.search(r"Signed bytes:\s+```\n(.*?)```", vector, re.S)[1].split()))
    signature = bytes.fromhex("".join(re.findall(r"`([0-9a-f]{64})`", vector.split("signature:")[1])[:2]))
    key = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))
    raw = key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    challenge = bytes([0x42] * 32)
    assert (raw.hex(), session, name) == (public, "s7-1a2b3c", "ann")
    assert proof_input(challenge, session, name) == signed
    assert sign_proof(key, challenge, session, name) == signature  # Ed25519 signs deterministically (RFC 8032)
    assert check_proof(raw, signature, challenge, session, name)
    assert not check_proof(raw, signature, challenge, session, "Ann")  # the name is signed as typed
