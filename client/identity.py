"""The user's identity (docs/protocol.md section 18): an Ed25519 key pair made on first use and kept in the
client's state directory (`identity.key`, 0600, in a 0700 directory). A server binds the user's name to the public
key the first time it sees the name proven, and then refuses that name to any other key."""

from __future__ import annotations

import json
import os
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from .held import replace_file
from .i18n import _

KEY_FILE = "identity.key"
NAMED_FILE = "named-servers"
"""The servers and names this client has proven its key to (`first_time_named`): one JSON [server, name] a line."""
MAX_NAMED = 1000
"""The most (server, name) pairs kept in NAMED_FILE (the oldest go first)."""
NAMED_LINE = 1024
"""The longest line of NAMED_FILE read, in bytes (a server's address and a name take far less)."""


def load_or_create(directory: Path) -> Ed25519PrivateKey:
    """The user's private key: read from `directory`, or made and written there (0600) on first use."""
    path = directory / KEY_FILE
    try:
        key = serialization.load_pem_private_key(path.read_bytes(), password=None)
    except (ValueError, TypeError) as error:  # damaged (a play-test's "notakey" was a traceback), or encrypted
        raise ValueError(_("{path} is not a key dt-client can read ({error}): restore it from a backup, or move it "
                           "away to make a new one (a server that bound your name to the old key will refuse the "
                           "name to the new one)").format(path=path, error=type(error).__name__)) from None
    except FileNotFoundError:
        key = Ed25519PrivateKey.generate()
        directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "wb") as out:
            out.write(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                        serialization.NoEncryption()))
        return key
    if not isinstance(key, Ed25519PrivateKey):
        raise ValueError(_("{path} holds no Ed25519 key").format(path=path))
    _private(path)
    return key


def first_time_named(directory: Path, server: str, name: str) -> bool:
    """Whether this client proves its key for `name` on `server` for the first time, noted then in NAMED_FILE: the
    first proof is when a server binds the name to the key for good, which the player is told once, with where the
    key is (play-test pt27 F12: nothing said so). False when the file cannot be read or written (nothing said)."""
    path = directory / NAMED_FILE
    try:
        with open(path, "rb") as file:  # (MAX_NAMED lines of NAMED_LINE bytes at most: a longer one is skipped)
            known = [line.decode() for line in file.read(MAX_NAMED * NAMED_LINE).split(b"\n")[:MAX_NAMED]
                     if line and len(line) <= NAMED_LINE]
    except FileNotFoundError:
        known = []
    except (OSError, UnicodeDecodeError):
        return False
    line = json.dumps([server, name], ensure_ascii=False)
    if line in known:
        return False
    try:  # (through a temporary file: two clients started at once leave one whole file, not a torn one)
        replace_file(path, "".join(f"{kept}\n" for kept in [*known[-(MAX_NAMED - 1):], line]).encode())
    except OSError:
        return False
    return True


def _private(path: Path) -> None:
    """A key others may read goes back to 0600, as it was made: a key copied from another machine (the way to take
    one's name along) comes with the copy's mode, 0644 under the usual umask (play-test pt24), and whoever reads it
    can play under the name on every server that bound it."""
    if os.name != "posix":  # (elsewhere the mode bits say nothing of who may read it)
        return
    try:
        if path.stat().st_mode & 0o077:
            path.chmod(0o600)
    except OSError:  # (a file of someone else's, a read-only copy: the key itself works; nothing to do about it)
        pass


def public_bytes(key: Ed25519PrivateKey) -> bytes:
    return key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
