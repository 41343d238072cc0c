"""`dt-server stats` and `dt-server prune`: what a server's store holds, and the records of old games let go.

A store keeps every game's record for ever: its journal (a line an action, with what restoring it needs) and its
final position, some 40 KB for a whole game (review ad29: no figures without SQL, no retention, nothing in the
docs). `stats` reads the store, also while the server runs (SQLite's WAL lets a reader in; PostgreSQL too);
`prune` writes it, so the server must be stopped first (the store's lock refuses a second writer: a restart keeps
every game, and the clients come back by themselves).

What `prune` keeps: every table's row with its seats and result (`dt-server records` still lists the game, a
"pruned" one; its number is never given again), every rating and bound name. What goes: the journal lines and
final position of games that ended before the cutoff, and the journal of tables closed before their game ended,
made before it. Games in play are never touched. Records written to `records_dir` are files of the admin's, left
alone.

The commands take what opens the configured store from the command's arguments (`dt-server`'s own settings and
their exit statuses: server/app.py), so that this module needs nothing of the app's.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

from .storage import DAYS, EXIT_STORE_UNUSABLE, Storage, StorageError

DAY = 86400.0
Opener = Callable[[argparse.Namespace, bool], Storage]
"""The store the arguments configure, opened read-only or not (exits with a message if it cannot be)."""


def _store_options(parser: argparse.ArgumentParser, data_dir: Path) -> None:
    parser.add_argument("--data", type=Path, help=f"the data directory (default {data_dir})")
    parser.add_argument("--database", metavar="URL", help="the PostgreSQL database of a server that keeps its store "
                        "there")
    parser.add_argument("--config", type=Path, help="a TOML settings file, for its data_dir or database")


def _utc(seconds: float | None) -> str:
    return "-" if seconds is None else time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(seconds))


def _size(count: int | None) -> str:
    if count is None:
        return "unknown"
    for unit, scale in (("GB", 1 << 30), ("MB", 1 << 20), ("KB", 1 << 10)):
        if count >= scale:
            return f"{count / scale:.1f} {unit}"
    return f"{count} bytes"


def stats(argv: list[str], opened: Opener, data_dir: Path) -> None:
    """`dt-server stats [--data DIR | --database URL] [--config FILE] [--json]`."""
    parser = argparse.ArgumentParser(
        prog="dt-server stats", description="What the data store holds: tables by status, games finished over the "
        "last day, week and month, players, the journal's lines and the store's size. Read only: it may run while "
        "the server does.")
    _store_options(parser, data_dir)
    parser.add_argument("--json", action="store_true", help="one JSON object (for scripts and monitors)")
    args = parser.parse_args(argv)
    figures, location = _with_store(opened(args, True), lambda storage: storage.stats(time.time()),
                                    "the data store cannot be read")
    if args.json:
        print(json.dumps({"store": location, **figures}, sort_keys=True))
        return
    tables = figures["tables"]
    statuses = ", ".join(f"{count} {status}" for status, count in tables.items()) or "none"
    finished = figures["finished"]
    print(f"store: {location} ({_size(figures['bytes'])})")
    print(f"tables: {sum(tables.values())} ({statuses})")
    print("games finished: " + ", ".join(f"{finished[f'{days}d']} in the last {'day' if days == 1 else f'{days} days'}"
                                         for days in DAYS))
    print(f"oldest game with its record: ended {_utc(figures['oldest_replayable'])}")
    print(f"journal lines: {figures['journal_lines']}")
    print(f"players' names: {figures['players']} seated, {figures['rated']} rated, {figures['identities']} bound to "
          "a key")


def _with_store(storage, work, failed: str):
    """(work(storage), the store's location), the store closed after it; a StorageError is said on stderr after
    `failed` and ends the command with EXIT_STORE_UNUSABLE (what `stats` and `prune` share)."""
    try:
        return work(storage), storage.location
    except StorageError as error:
        print(f"dt-server: {failed}: {error}", file=sys.stderr)
        sys.exit(EXIT_STORE_UNUSABLE)
    finally:
        storage.close()


def prune(argv: list[str], opened: Opener, data_dir: Path) -> None:
    """`dt-server prune --older-than DAYS [--dry-run] [--data DIR | --database URL] [--config FILE]`. Exit status 0
    when the records were let go (also when only the compaction after it failed: a warning on stderr), 2 bad usage,
    3 nothing pruned (the store cannot be used, or a server holds it), 1 it cannot be reached."""
    parser = argparse.ArgumentParser(
        prog="dt-server prune", description="Let go of the records of games that ended more than DAYS days ago: "
        "their journal and final position go, so they can no longer be replayed; each game's line (its players and "
        "result) stays in `dt-server records`, and every rating and bound name is kept. Tables in play are never "
        "touched. Stop the server first (a store a server uses is refused); a restart keeps every game in play. "
        "Exit status 0 when pruned (a compaction that failed after it is a warning on stderr), 3 when nothing "
        "was pruned (the store cannot be used, or a server holds it), 2 bad usage.")
    _store_options(parser, data_dir)
    parser.add_argument("--older-than", metavar="DAYS", type=float, required=True,
                        help="games that ended at least this many days ago (0: every finished game)")
    parser.add_argument("--dry-run", action="store_true", help="count what would go, change nothing")
    args = parser.parse_args(argv)
    if not 0 <= args.older_than <= 100_000:  # (also NaN)
        parser.error("--older-than takes a number of days from 0 to 100000")
    before = time.time() - args.older_than * DAY
    if not args.dry_run:  # (opened for writing, a data directory without a store would get a new, empty one)
        opened(args, True).close()

    def work(storage):
        was, counts, compacted = storage.size(), storage.prune(before, dry_run=args.dry_run), None
        if counts["lines"] and not args.dry_run:
            try:
                storage.compact()
                compacted = storage.size()
            except StorageError as error:
                compacted = error
        return was, counts, compacted

    (was, counts, compacted), location = _with_store(opened(args, args.dry_run), work, "nothing pruned")
    what = (f"{counts['games']} finished game{'' if counts['games'] == 1 else 's'} and {counts['closed']} closed "
            f"table{'' if counts['closed'] == 1 else 's'} from before {_utc(before)}: {counts['lines']} journal "
            f"line{'' if counts['lines'] == 1 else 's'}")
    if args.dry_run:
        print(f"would prune {what} (dry run: {location} unchanged)")
        return
    print(f"pruned {what}, in {location}")
    if isinstance(compacted, StorageError):
        # exit status 0 (ops31): the prune itself is saved, and an admin's `systemctl stop dt-server && dt-server
        # prune ... && systemctl start dt-server` went on to start the server only on 0: a VACUUM short of free disk
        # left it stopped. The warning on stderr still reaches cron's mail.
        print(f"dt-server: warning: the store did not shrink ({compacted}); the records were let go all the same, "
              "and their space is reused by new games (compacting needs as much free disk as the store: prune "
              "again with more, or let it be)", file=sys.stderr)
        return
    if compacted is not None and was is not None:
        print(f"the store: {_size(was)} before, {_size(compacted)} now")
