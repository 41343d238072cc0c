"""Protocol versions this implementation speaks, version negotiation, and the release that speaks them."""

from collections.abc import Iterable
from functools import cache
from pathlib import Path

DISTRIBUTION = "dungeon-twister-online"
"""The distribution's name (pyproject.toml's project.name), whose installed metadata holds the release."""
UNKNOWN_RELEASE = "0+unknown"
"""The release of code that is neither installed nor in a source tree with its pyproject.toml (a PEP 440 local
version: it sorts before any real one)."""


@cache
def release() -> str:
    """This package's release, from one source: the installed distribution's metadata (pip wrote it from
    pyproject.toml's version), else, in a source tree that is not installed, pyproject.toml itself. What
    `dt-server --version` and `dt-client --version` print, the handshake's `software` of the client, the server
    (its welcome), its bots and its health check, and `dt-server admin who`. Read on first use only:
    importlib.metadata costs some 25 ms, which `dt-client --help` does not pay (issue 7's cold start).

    (An editable install, `pip install -e .`, keeps the version of its install: after a change of pyproject.toml's
    version, install again.)"""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(DISTRIBUTION)
    except PackageNotFoundError:
        return _source_tree_release()


def _source_tree_release() -> str:
    """pyproject.toml's version in the source tree this file lies in (protocol/ beside pyproject.toml), if its
    project is this one; else UNKNOWN_RELEASE."""
    import tomllib

    try:
        with open(Path(__file__).resolve().parent.parent / "pyproject.toml", "rb") as file:
            project = tomllib.load(file).get("project", {})
    except (OSError, tomllib.TOMLDecodeError):
        return UNKNOWN_RELEASE
    found = project.get("version")
    return found if project.get("name") == DISTRIBUTION and isinstance(found, str) and found else UNKNOWN_RELEASE


def __getattr__(name: str) -> str:
    """`RELEASE`, the same as `release()`, computed when first asked for (PEP 562)."""
    if name == "RELEASE":
        return release()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


PROTOCOL_VERSIONS = (1,)
"""Each version only adds to the one before (messages, optional fields, error codes)."""


def choose_version(offered: Iterable[int], supported: Iterable[int] = PROTOCOL_VERSIONS) -> int | None:
    """The highest version both sides speak, or None if they share none."""
    common = set(offered) & set(supported)
    return max(common) if common else None
