"""The transport's TLS facts shared by both ends (docs/protocol.md section 1): the first byte that tells a TLS
connection from a plain one, and the certificate fingerprint as users compare it."""

from __future__ import annotations

import hashlib

TLS_RECORD = 0x16
"""The first byte of a TLS handshake record (a ClientHello): what tells a TLS client from a plain one."""


def fingerprint(der: bytes) -> str:
    """A certificate's SHA-256 fingerprint (of its DER bytes): "SHA256:" and 64 hex digits."""
    return "SHA256:" + hashlib.sha256(der).hexdigest()
