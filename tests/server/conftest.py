"""The server tests' fixtures: a PostgreSQL server of the tests' own, for the PostgreSQL store
(server/storage_postgres.py): a new cluster in a temporary directory (initdb), listening on a Unix socket there
only (no TCP port, so no clash with anything), run by `nobody` when the tests run as root (PostgreSQL refuses
root), stopped at the end of the session. Each test gets a database of its own (`postgres_url`).

Where the PostgreSQL server programs or psycopg (with the libpq it loads) are missing, the tests that need them
are skipped with the reason; this machine has both (PostgreSQL 15 in /usr/lib/postgresql/15/bin).
"""

from __future__ import annotations

import glob
import itertools
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

_COUNTER = itertools.count(1)


def _program(name: str) -> str | None:
    found = shutil.which(name)
    if found is None:
        candidates = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
        found = candidates[-1] if candidates else None
    return found


def _as_server_user(command: list[str]) -> list[str]:
    """`command` run as `nobody` if we are root (initdb and postgres refuse to run as root)."""
    if os.geteuid() != 0:
        return command
    runuser = shutil.which("runuser")
    if runuser is None:
        pytest.skip("running as root without runuser: PostgreSQL will not run as root")
    return [runuser, "-u", "nobody", "--", *command]


def _chown_to_server_user(*paths: Path) -> None:
    if os.geteuid() == 0:
        import pwd

        user = pwd.getpwnam("nobody")
        for path in paths:
            os.chown(path, user.pw_uid, user.pw_gid)


@pytest.fixture(scope="session")
def postgres_cluster():
    """(socket directory, admin connection URL) of a running PostgreSQL cluster; skipped where there is none."""
    try:
        import psycopg
    except ImportError as error:  # (psycopg loads libpq when it is imported)
        pytest.skip(f"psycopg is not usable here: {error}")
    del psycopg
    initdb, pg_ctl = _program("initdb"), _program("pg_ctl")
    if initdb is None or pg_ctl is None:
        pytest.skip("no PostgreSQL server programs (initdb, pg_ctl) on this machine")
    # its own directory under /tmp: pytest's base directory is private to our user, which `nobody` cannot enter
    root = Path(tempfile.mkdtemp(prefix="dt-pg-"))
    data, sockets = root / "data", root / "s"
    sockets.mkdir()
    root.chmod(0o755)
    _chown_to_server_user(root, sockets)
    subprocess.run(_as_server_user([initdb, "-D", str(data), "-U", "dt", "--auth=trust", "-E", "UTF8", "--no-sync"]),
                   check=True, capture_output=True)
    # fsync off: the tests never cut the power (a kill -9 of dt-server is not PostgreSQL's crash)
    options = f"-k {sockets} -c listen_addresses= -c fsync=off -c full_page_writes=off"
    subprocess.run(_as_server_user([pg_ctl, "-D", str(data), "-o", options, "-l", str(root / "log"), "-w", "start"]),
                   check=True, capture_output=True)
    try:
        yield sockets, f"postgresql:///postgres?host={sockets}&user=dt"
    finally:
        subprocess.run(_as_server_user([pg_ctl, "-D", str(data), "-m", "immediate", "-w", "stop"]),
                       capture_output=True)
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def postgres_url(postgres_cluster):
    """The URL of a new, empty database of the tests' cluster."""
    import psycopg

    sockets, admin = postgres_cluster
    name = f"dt_test_{os.getpid()}_{next(_COUNTER)}"
    with psycopg.connect(admin, autocommit=True) as db:
        db.execute(f'CREATE DATABASE "{name}"')
    return f"postgresql:///{name}?host={sockets}&user=dt"
