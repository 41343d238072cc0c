"""Protocol versions this implementation speaks, and version negotiation."""

from collections.abc import Iterable

PROTOCOL_VERSIONS = (1,)
"""Each version only adds to the one before (messages, optional fields, error codes)."""


def choose_version(offered: Iterable[int], supported: Iterable[int] = PROTOCOL_VERSIONS) -> int | None:
    """The highest version both sides speak, or None if they share none."""
    common = set(offered) & set(supported)
    return max(common) if common else None
