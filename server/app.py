"""The dt-server command: `dt-server [--host 0.0.0.0] [--port 7777] [--config FILE] [--data DIR]`, and
`dt-server records [--data DIR] [--config FILE] [TABLE]` (the stored games, or one game's record),
`dt-server copy FROM TO` (a whole store into a new one), `dt-server stats` and `dt-server prune --older-than DAYS`
(what the store holds; old games' records let go: server/upkeep.py), and `dt-server admin
who|tables|kick|end|say|reload` (a running server's admin commands, through its control socket: server/admin.py).

On startup it restores the unfinished tables of its data directory and prints one line to stdout,
`dt-server listening on HOST:PORT`; logs go to stderr as JSON lines. SIGINT, SIGTERM or SIGHUP shut it down
gracefully (every client gets server_closing; the tables are restored on the next start).

Exit status: 0 stopped, 1 a runtime error (e.g. the port is taken, or the host's address is not this machine's yet)
or stopped by SIGHUP (EXIT_HANGUP), 2 bad usage or settings (a host that is no address among them: check_host), 3 the data store is unusable (corrupt, truncated, newer, or used by another server):
storage.EXIT_STORE_UNUSABLE.
"""

from __future__ import annotations

import argparse
import itertools
import os
import signal
import socket
import sys
import time
import tomllib
from pathlib import Path

from typing import TYPE_CHECKING

import platformdirs

# (the server's modules, trio and the engine are imported by the functions that use them: `dt-server --help` and
# `--version` took 0.6 s importing them all, ops31; tests/server/test_server_lifecycle.py keeps them out)
if TYPE_CHECKING:
    from .config import ServerConfig
    from .storage import Storage


class _PrintVersion(argparse.Action):
    """`--version`: the release (protocol/versions.py), read only when asked: that module alone is imported, as fast
    as `--help` (tests/server/test_server_lifecycle.py)."""

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        from dungeon_twister.protocol.versions import release

        print(f"dt-server {release()}")
        parser.exit()


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="dt-server", description="Dungeon Twister Online lobby and game server.",
        epilog="Also: `dt-server records [--data DIR] [TABLE]` (the games kept, a finished game's record), "
               "`dt-server health [--host H] [--port P] [--config FILE]` (exit 0 if the server answers: a health check) and "
               "`dt-server copy FROM TO` (a whole store into a new one: a data directory to PostgreSQL, or back), "
               "`dt-server stats` (what the store holds), `dt-server prune --older-than DAYS` (old games' records "
               "let go) and `dt-server admin who|tables|kick|end|say|reload` (a running server's admin commands, "
               "deploy/README.md).")
    parser.add_argument("--version", action=_PrintVersion, nargs=0, default=argparse.SUPPRESS,
                        help="show the release and exit")
    parser.add_argument("--host", help="address to listen on (default 0.0.0.0)")
    parser.add_argument("--port", type=int, help="TCP port (default 7777; 0: any free port)")
    parser.add_argument("--config", type=Path, help="a TOML settings file (see deploy/dt-server.example.toml)")
    parser.add_argument("--data", type=Path, help="the data directory: tables, games and resume tokens (default "
                        f"{default_data_dir()})")
    parser.add_argument("--database", metavar="URL", help="keep the store in this PostgreSQL database "
                        "(postgresql://user@host/dbname; needs psycopg: deploy/README.md) instead of the data "
                        "directory's SQLite file")
    parser.add_argument("--tls", action="store_true", default=None,
                        help="serve TLS too, on the same port: a self-signed certificate is made in the data "
                             "directory on first start and its fingerprint printed (clients pin it on first use)")
    parser.add_argument("--log-level", default="INFO", choices=["DEBUG", "INFO", "WARNING", "ERROR"],
                        help="how much the JSON log on stderr says (default INFO; DEBUG adds health checks and "
                             "refused connections' closings, deploy/README.md)")
    # For tests and reproducible demonstrations only: the games' seeds (cycled) instead of secret random ones.
    parser.add_argument("--game-seeds", help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def default_data_dir() -> Path:
    """The per-user state directory ($XDG_STATE_HOME/dt-server on Linux)."""
    return Path(platformdirs.user_state_dir("dt-server"))


def settings(args: argparse.Namespace) -> ServerConfig:
    """The settings of the command line and the config file; exits 2 if they are bad."""
    from .config import ServerConfig, load_config, with_overrides

    try:
        config = load_config(args.config) if args.config else ServerConfig()
        config = with_overrides(config, host=getattr(args, "host", None), port=getattr(args, "port", None),
                                data_dir=args.data, tls=getattr(args, "tls", None),
                                database=getattr(args, "database", None))
    except (OSError, ValueError, tomllib.TOMLDecodeError) as error:
        print(f"dt-server: {error}", file=sys.stderr)
        sys.exit(2)
    return config if config.data_dir is not None else with_overrides(config, data_dir=default_data_dir())


UNRESOLVABLE = tuple(getattr(socket, name) for name in ("EAI_NONAME", "EAI_NODATA", "EAI_SERVICE", "EAI_FAMILY",
                                                        "EAI_ADDRFAMILY") if hasattr(socket, name))
"""The resolver's answers that say a name has no address, for good: a settings error. EAI_AGAIN ("Temporary failure
in name resolution": no DNS yet at boot) and the like are not: that start fails when it listens, exit 1, and the
service manager tries again."""


def check_host(host: str, port: int) -> None:
    """Exit 2 if `host` is no address at all: a literal that is not an IP address ("0.0.0.0.1", "300.1.2.3"), or a
    name the resolver says has none (NXDOMAIN). adm33: such a host was exit 1, "cannot listen", which a service
    manager restarts for ever (a state that passes), and the TLS certificate was made before it. An IP address this
    machine does not have (yet: EADDRNOTAVAIL, its network not up at boot) or a port taken stay exit 1, at the
    listen: those may pass."""
    if host in ("", "0.0.0.0", "::"):
        return
    numeric = all(char in "0123456789." for char in host) or ":" in host
    flags = socket.AI_PASSIVE | (socket.AI_NUMERICHOST if numeric else 0)
    try:
        socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=flags)
    except socket.gaierror as error:
        if numeric:
            why = "is not an IP address"
        elif error.errno in UNRESOLVABLE:
            why = f"is not a name this machine resolves ({error.strerror})"
        else:
            return  # (its listen fails, or works once the resolver answers)
        print(f"dt-server: host {host!r} {why}: give one of this machine's addresses (0.0.0.0 or :: for every one)",
              file=sys.stderr)
        sys.exit(2)
    except (UnicodeError, ValueError) as error:  # (a name no resolver takes: "a..b", a NUL)
        print(f"dt-server: host {host!r} is not an address: {error}", file=sys.stderr)
        sys.exit(2)


def check_records_dir(directory: Path | None) -> None:
    """Make `records_dir` as a record's writing would (0700) and check that the server can write in it; exits 2
    if not: a play-test's `records_dir = "/proc/nope"` (or a file, or a directory of another user) started without
    a word, and the first finished game's record was lost to a `record_not_written` warning."""
    if directory is None:
        return
    try:
        if directory.exists() and not directory.is_dir():
            raise NotADirectoryError(f"{directory} is not a directory")
        make_private_directory(directory)
        if not os.access(directory, os.W_OK | os.X_OK):
            raise PermissionError(f"cannot write in {directory}")
    except OSError as error:
        print(f"dt-server: records_dir {str(directory)!r} cannot be used: {error.strerror if error.filename else error}",
              file=sys.stderr)
        sys.exit(2)


def make_private_directory(directory: Path) -> None:
    """`directory` and every missing directory above it made 0700 (mkdir -p, private). Path.mkdir(parents=True)
    makes the parents with the default mode, 0755 under the usual umask: the example config's records_dir, inside
    a data directory not made yet, left the data directory 0755 (adm33), which deploy/README.md says is 0700 when
    dt-server makes it (it holds the store, the TLS key, the admin socket and the chat log)."""
    missing = []
    while not directory.exists() and directory.parent != directory:
        missing.append(directory)
        directory = directory.parent
    for made in reversed(missing):
        made.mkdir(mode=0o700, exist_ok=True)


def storage_of(config: ServerConfig, *, readonly: bool = False) -> Storage:
    """The configured store; exits 3 with a message naming the file if it cannot be used, 1 if its database server
    cannot be reached (a state that passes: the service manager starts dt-server again)."""
    from .storage import EXIT_STORE_UNREACHABLE, EXIT_STORE_UNUSABLE, StorageError, StoreUnreachable
    from .stores import open_configured

    try:
        return open_configured(config, readonly=readonly)
    except StoreUnreachable as error:
        print(f"dt-server: the data store cannot be reached: {error}", file=sys.stderr)
        sys.exit(EXIT_STORE_UNREACHABLE)
    except (StorageError, OSError) as error:
        print(f"dt-server: the data store cannot be used: {error}", file=sys.stderr)
        sys.exit(EXIT_STORE_UNUSABLE)


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["records"]:
        return records(argv[1:])
    if argv[:1] == ["health"]:
        from .health import main as health

        return health(argv[1:])
    if argv[:1] == ["copy"]:
        return copy(argv[1:])
    if argv[:1] in (["stats"], ["prune"]):
        from . import upkeep

        command = upkeep.stats if argv[0] == "stats" else upkeep.prune
        return command(argv[1:], lambda args, readonly: storage_of(settings(args), readonly=readonly),
                       default_data_dir())
    if argv[:1] == ["admin"]:
        from .admin import main as admin

        return admin(argv[1:], default_data_dir())
    args = parse_args(argv)
    config = settings(args)
    seeds = None
    if args.game_seeds:
        try:
            seeds = itertools.cycle([int(seed) for seed in args.game_seeds.split(",")])
        except ValueError:
            print("dt-server: --game-seeds takes integers separated by commas", file=sys.stderr)
            sys.exit(2)
    import trio

    from .logs import setup_logging
    from .storage import EXIT_STORE_UNUSABLE, StorageError
    from .tls import CertificateError

    check_host(config.host, config.port)
    setup_logging(args.log_level)
    check_records_dir(config.records_dir)
    storage = storage_of(config)
    try:
        stopped_by = trio.run(serve, config, storage, seeds, args.config)
    except BaseException as raised:
        error = _alone(raised)
        if isinstance(error, CertificateError):
            print(f"dt-server: TLS: {error}", file=sys.stderr)
            sys.exit(EXIT_STORE_UNUSABLE)
        if isinstance(error, StorageError):
            print(f"dt-server: the data store failed: {error}", file=sys.stderr)
            sys.exit(EXIT_STORE_UNUSABLE)
        if isinstance(error, OSError):
            print(f"dt-server: {error.strerror or error}", file=sys.stderr)
            sys.exit(1)
        raise
    finally:
        storage.close()
    if stopped_by == getattr(signal, "SIGHUP", None):
        sys.exit(EXIT_HANGUP)


def wildcard_hint(address: str | None, port: int, discovery: bool, off: str | None = None) -> str:
    """The line after "listening on 0.0.0.0:PORT": what the players of this network type to connect; `discovery`:
    LAN discovery answers (its UDP port bound), `off`: why it could not bind, which the line says (adm33b: it said
    "find it with `dt-client discover`" before the bind, and a UDP port another program held made it false)."""
    connect = f"dt-client connect {address}:{port}" if address else f"dt-client connect THIS-MACHINE:{port}"
    found = f", or find it with `dt-client discover --port {port}`" if discovery and off is None else ""
    if off is not None:
        found = f" (LAN discovery is off: UDP port {port}: {off})"
    return f"players on this network: `{connect}`{found}"


def _alone(error: BaseException) -> BaseException:
    """The one exception inside nested exception groups of one (trio's nurseries wrap what a task raised), else
    `error` itself: a port already in use is one line for the operator, not a traceback of groups."""
    while isinstance(error, BaseExceptionGroup) and len(error.exceptions) == 1:
        error = error.exceptions[0]
    return error


def records(argv: list[str]) -> None:
    """`dt-server records [--data DIR] [--config FILE] [TABLE]`: the stored tables, or a finished game's record
    (with its commit-reveal log, its result and the final position, every hidden fact revealed)."""
    parser = argparse.ArgumentParser(
        prog="dt-server records", description="The games kept in the data store: without TABLE, a line a table, its "
        "columns separated by tabs: its id, its status (open: waiting for players or in play; over: its game ended, "
        "its record can be printed; closed: closed before its game ended; pruned: its game ended and its record was "
        "let go by dt-server prune), when it was made (UTC), a finished game's "
        "result (else -), and the names of its Blue and Yellow players (empty for a free seat; a bot's name ends in "
        "-bot-N, which no player's may).")
    parser.add_argument("table", nargs="?", help="a table's id, or its number (7 or t7 for t7-3f9a02c1): print its game "
                        "record (finished games only)")
    parser.add_argument("--data", type=Path, help=f"the data directory (default {default_data_dir()})")
    parser.add_argument("--database", metavar="URL", help="the PostgreSQL database of a server that keeps its store "
                        "there")
    parser.add_argument("--config", type=Path, help="a TOML settings file, for its data_dir or database")
    args = parser.parse_args(argv)
    from .records import record_text
    from .storage import EXIT_STORE_UNUSABLE, StorageError

    storage = storage_of(settings(args), readonly=True)
    try:
        if args.table is None:
            tables = storage.tables()
            if not tables:  # (an empty listing could not be told from a wrong --data)
                print(f"dt-server: no tables in {storage.location}", file=sys.stderr)
            for table in tables:
                result = table.result or {}
                outcome = (f"winner={result.get('winner') or '-'} vp=B{result['vp']['B']},Y{result['vp']['Y']} "
                           f"reason={result.get('reason')}") if result else ""
                created = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(table.created))
                seats = [table.seats[seat][0] if seat in table.seats else "" for seat in "BY"]
                print("\t".join([table.id, table.status, created, outcome or "-", *seats]))
            return
        table = storage.table_named(args.table)
        if table is None:
            print(f"dt-server: no table {args.table!r} in {storage.location}", file=sys.stderr)
            sys.exit(1)
        if table.status == "pruned":
            print(f"dt-server: the record of table {table.id} was let go (dt-server prune): only its result is kept",
                  file=sys.stderr)
            sys.exit(1)
        if table.status != "over":
            print(f"dt-server: the game of table {table.id} is not over ({table.status}): its record, which "
                  "reveals every hidden fact, is shown once it ends", file=sys.stderr)
            sys.exit(1)
        sys.stdout.write(record_text(table))
    except StorageError as error:
        print(f"dt-server: the data store cannot be read: {error}", file=sys.stderr)
        sys.exit(EXIT_STORE_UNUSABLE)
    finally:
        storage.close()


def copy(argv: list[str]) -> None:
    """`dt-server copy FROM TO`: a whole store into a new one (storage.copy_store), each a data directory or a
    PostgreSQL URL: a club that began on the data directory's SQLite file moves to PostgreSQL with its ratings,
    players' identities, finished games and unfinished ones (play-test pt26: there was no way but to start afresh)."""
    parser = argparse.ArgumentParser(
        prog="dt-server copy", description="Copy a server's whole store (tables and their games, finished or not, "
        "resume tokens, ratings, players' identities) into a new, empty one: from a data directory's SQLite file "
        "to a PostgreSQL database, or back. Stop the server first: a store a server uses is refused. The data "
        "directory keeps the TLS certificate either way.")
    parser.add_argument("source", help="the store to copy: a data directory, or a PostgreSQL URL "
                        "(postgresql://user@host/dbname)")
    parser.add_argument("target", help="the new store: a data directory (its store is made), or a PostgreSQL "
                        "database with no dt-server tables in it")
    args = parser.parse_args(argv)
    from .config import is_database_url
    from .logs import how_many
    from .storage import (DATABASE_NAME, EXIT_STORE_UNREACHABLE, EXIT_STORE_UNUSABLE, SqliteStorage, StorageError,
                          StoreUnreachable, copy_store)
    from .storage_postgres import PostgresStorage

    def opened(where: str, source: bool):
        if is_database_url(where):
            return PostgresStorage(where)
        path = Path(where) / DATABASE_NAME
        if source and not path.exists():  # (opening it would make an empty one)
            raise StorageError(f"{where}: no dt-server store here ({DATABASE_NAME})")
        return SqliteStorage(path)

    stores = []
    try:
        stores.append(opened(args.source, True))
        stores.append(opened(args.target, False))
        counts = copy_store(*stores)
    except StoreUnreachable as error:
        print(f"dt-server: the data store cannot be reached: {error}", file=sys.stderr)
        sys.exit(EXIT_STORE_UNREACHABLE)
    except (StorageError, OSError) as error:
        print(f"dt-server: nothing copied: {error}", file=sys.stderr)
        sys.exit(EXIT_STORE_UNUSABLE)
    finally:
        for store in stores:
            store.close()
    source, target = (store.location for store in stores)
    copied = ", ".join(how_many(counts[key], *words) for key, *words in (
        ("tables", "table", "tables"), ("seats", "seat", "seats"), ("journal", "journal line", "journal lines"),
        ("tokens", "resume token", "resume tokens"), ("ratings", "rating", "ratings"),
        ("identities", "identity", "identities")))
    print(f"copied {source} to {target}: {copied}")
    # (the URL as `location` shows it: a password in it is not printed, `***`; it belongs in ~/.pgpass)
    where = (f'database = "{target}" in the settings (or --database)' if is_database_url(args.target)
             else f"data_dir = \"{args.target}\" and no database in the settings (or --data)")
    print(f"to serve it: {where}")


STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM) + ((signal.SIGHUP,) if hasattr(signal, "SIGHUP") else ())
"""The signals that stop the server gracefully. SIGHUP too (play-test ad29): the terminal of a server started by
hand closing, or an admin's `kill -HUP` out of habit (there is no reload), killed it on the spot, without a log
line and without telling its clients."""
EXIT_HANGUP = 1
"""The exit status after a SIGHUP's graceful stop: not 0, so that a service manager that restarts a failed server
(the unit's Restart=on-failure) starts it again, its config file read anew, as it did when SIGHUP killed it."""


async def serve(config: ServerConfig, storage: Storage | None = None, seeds=None,
                config_path: Path | None = None) -> int | None:
    """Serve until a STOP_SIGNALS signal, then shut down gracefully; the signal's number. The admin's control socket
    listens in the data directory (server/admin.py); `config_path`, the settings file, is what its `reload` reads."""
    import trio

    from .admin import ADMIN_SOCKET
    from .discovery import lan_address
    from .logs import log
    from .server import Server

    with trio.open_signal_receiver(*STOP_SIGNALS) as signals:
        admin_socket = Path(config.data_dir) / ADMIN_SOCKET if config.data_dir is not None else None
        server = Server(config, storage=storage, seed_source=(lambda: next(seeds)) if seeds else None,
                        admin_socket=admin_socket, config_path=config_path)
        async with trio.open_nursery() as nursery:
            await nursery.start(server.run)
            host, port = server.address
            print(f"dt-server listening on {f'[{host}]' if ':' in host else host}:{port}", flush=True)
            if host in ("0.0.0.0", "::"):  # (play-test pt24 F16: "listening on 0.0.0.0:7810" told a LAN party's
                # host no address to give the players)
                await server.discovery_settled.wait()  # (its UDP port tried: the line says whether it answers)
                print(wildcard_hint(lan_address(), port, config.discovery, server.discovery_off), flush=True)
            if server.tls_fingerprint:
                print(f"TLS certificate fingerprint {server.tls_fingerprint} (players see it when they first "
                      "connect: compare)", flush=True)
            async for signum in signals:
                log("signal", signal=signal.Signals(signum).name)
                await server.shutdown()
                return signum
    return None
