"""Protocol versions this implementation speaks, version negotiation, and the release that speaks them."""

from collections.abc import Iterable

RELEASE = "0.1.0"
"""This package's release (pyproject.toml's version): what `dt-server --version` and `dt-client --version` print
and the server names in its welcome."""

PROTOCOL_VERSIONS = (1,)
"""Each version only adds to the one before (messages, optional fields, error codes)."""


def choose_version(offered: Iterable[int], supported: Iterable[int] = PROTOCOL_VERSIONS) -> int | None:
    """The highest version both sides speak, or None if they share none."""
    common = set(offered) & set(supported)
    return max(common) if common else None
