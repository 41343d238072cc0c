"""Protocol versions this implementation speaks, version negotiation, and the release that speaks them."""

from collections.abc import Iterable

RELEASE = "0.2.0"
"""This package's release, its one source: pyproject.toml reads it from here (`[tool.setuptools.dynamic]`, a
literal setuptools reads without importing the package), so the installed distribution's metadata says the same.
What `dt-server --version` and `dt-client --version` print, the handshake's `software` of the client, the server
(its welcome), its bots and its health check, and `dt-server admin who`. A plain constant: `--version` costs no
importlib.metadata (some 30 ms) and no import of the rest of the protocol (ops32; the package's __init__ is lazy).
A release changes this line alone (tests/client/test_client_app.py checks there is no other copy)."""


def release() -> str:
    """RELEASE (a function, as the callers had it since ops31)."""
    return RELEASE


PROTOCOL_VERSIONS = (1,)
"""Each version only adds to the one before (messages, optional fields, error codes)."""


def choose_version(offered: Iterable[int], supported: Iterable[int] = PROTOCOL_VERSIONS) -> int | None:
    """The highest version both sides speak, or None if they share none."""
    common = set(offered) & set(supported)
    return max(common) if common else None
