"""The server's durable store: every table's options, seed, seats, resume tokens (as SHA-256 digests) and game
journal (every applied action, commitment, reveal and timeout, in order), and the finished games.

`Storage` is the interface the server uses; `SqlStorage` says it in the SQL that two databases run: `SqliteStorage`
with the standard library's sqlite3 (a file in WAL mode, or ":memory:" for tests), `storage_postgres.PostgresStorage`
with a PostgreSQL database (the setting `database`). Nothing SQLite-specific leaves this module.

Durable before acknowledged. The table's task handles each request without awaiting and inside one
`transaction()`: the messages it queues for clients reach a socket only once the task next awaits, which is after
the transaction has committed. So no action_ok, event or opponent_commit leaves the server before what it
acknowledges is on disk, and a crash loses only requests that were never answered. A step of a game that goes on
may send its frames before it ends (table.Table.publish): it commits what it wrote so far first
(`commit_now`), and what it queues after that waits for the end of the step as usual.

The cost of one durable action (bench/storage.py: a transaction with one journal line, committed; WAL mode;
the development VM's virtual disk, busy with other jobs): synchronous=FULL median 2.1 to 7.9 ms, p99 15 ms (an
fsync each); synchronous=NORMAL median 40 to 60 us; in memory 15 to 25 us. NORMAL survives a crash of the server
(kill -9) but may lose the last commits on a power failure or kernel crash; FULL loses nothing acknowledged.
The default is FULL (`data_sync = "full"`): a few milliseconds per move are nothing next to a human's thinking
time, though they block the server's one thread; a server running many bot games may choose "normal".
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import sqlite3
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from dungeon_twister.protocol.names import name_key

from .logs import how_many, log

try:
    import fcntl
except ImportError:  # Windows: no advisory lock; run one server per data directory
    fcntl = None

DATABASE_NAME = "dt-server.sqlite3"
LOCK_NAME = "dt-server.lock"
TABLE_NUMBER = re.compile(r"[tT]?0*([0-9]{1,18})")
"""A table's number as a player types it (`7`, `t7`, `07`; ASCII digits only, at most 18: an SQLite integer)."""
DAYS = (1, 7, 30)
"""The spans, in days, of `stats`' games finished lately."""
SCHEMA_VERSION = 2
"""2: ratings and identities keyed by the name folded (`name_key`), each with its spelling (as it was bound, as it
was last rated); a version 1 store is brought up to 2 when a dt-server opens it (`_upgrade`)."""
EXIT_STORE_UNUSABLE = 3
"""dt-server's exit status when its data store cannot be used (corrupt, truncated, newer schema, locked): a
service manager must not restart it in a loop (deploy/dt-server.service: RestartPreventExitStatus)."""
EXIT_STORE_UNREACHABLE = 1
"""dt-server's exit status when its store's database server cannot be reached (StoreUnreachable): the service
manager starts it again a few seconds later, as after any failure."""


class StorageError(Exception):
    """The store cannot be opened or written; the message names the file."""


class StoreUnreachable(StorageError):
    """The store's database server cannot be reached when dt-server starts (PostgreSQL not started yet, or
    restarting, or its machine out of reach): a state that passes, unlike an unusable store. dt-server exits
    EXIT_STORE_UNREACHABLE, which the service manager restarts (deploy/dt-server.service); with exit status 3 a
    dt-server started before its PostgreSQL (a reboot) stayed down for good (review rv24)."""


def token_digest(token: str) -> str:
    """What is kept of a resume token: its SHA-256, in hex."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass
class StoredTable:
    """Everything kept of one table."""

    id: str
    number: int
    options: dict
    """The table's TableOptions as a map."""
    seed: int
    creator: str | None
    join_code: str | None
    created: float
    seed_nonce: str | None = None
    """The nonce (hex) of the server's seed commitment (docs/protocol.md section 16); None for a table stored by an
    older dt-server. Kept in the `seed` column after the seed, as "SEED NONCE" (no schema change)."""
    status: str = "open"
    """"open" (waiting or playing), "over" (the game ended), "closed" (closed before its game started) or "pruned"
    (the game ended and its record was pruned: `prune`)."""
    events: int = 0
    """Event numbers up to this one may have been sent: a restored table numbers on after it."""
    result: dict | None = None
    final: str | None = None
    """The final position (every hidden fact, in position notation), once the game is over."""
    finished: float | None = None
    seats: dict[str, tuple[str, str | None]] = field(default_factory=dict)
    """seat -> (name, bot kind or None)"""
    tokens: list[tuple[str, str | None, str]] = field(default_factory=list)
    """(token digest, seat or None for a spectator, name)"""
    journal: list[tuple[str, dict | None]] = field(default_factory=list)
    """The game record's lines after its header, each with what restoring it needs (None: a plain comment)."""
    kept: dict | None = None
    """What the table holds besides its game (`set_kept`, the `kept` table; filled by `open_tables` and
    `offered_tables` only): {"reserved": {seat: name}, "bot": [seat, kind] | None, "until": wall-clock time} for
    the seats a rematch or a kept seat keeps for names, {"offers": [seat, ...]} for the rematch offers standing at
    a finished table (server/rematch.py)."""


class Transaction:
    """`Storage.transaction()`: what it writes commits when the outermost block ends, and not at all if it raises.
    A class rather than a `@contextmanager` generator: a table's every step enters one (~9 K instructions less a
    step)."""

    __slots__ = ("_store",)

    def __init__(self, store: Storage) -> None:
        self._store = store

    def __enter__(self) -> None:
        self._store._depth += 1

    def __exit__(self, kind, error, traceback) -> None:
        store = self._store
        store._depth -= 1
        if store._depth == 0:
            if kind is None:
                store._commit()
            else:
                store._rollback()


class Storage(ABC):
    """What the server keeps. Writes outside `transaction()` commit at once; inside, when the outermost block
    ends (and not at all if it raises)."""

    location: str
    """Where the data lives, for messages."""
    _depth = 0

    def transaction(self) -> Transaction:
        return Transaction(self)

    def commit_now(self) -> None:
        """Inside a transaction: commit what it wrote so far (durable from now on); what it writes next commits
        when it ends, as usual. A table step calls it before its frames leave ahead of the rest of the
        step (Table.publish)."""
        if self._depth > 0:
            self._commit()

    @property
    def in_transaction(self) -> bool:
        return self._depth > 0

    @abstractmethod
    def _commit(self) -> None: ...

    @abstractmethod
    def _rollback(self) -> None: ...

    @abstractmethod
    def close(self) -> None: ...

    # --- writing ------------------------------------------------------------------------------------------
    @abstractmethod
    def add_table(self, table: StoredTable) -> None: ...

    @abstractmethod
    def set_seat(self, table_id: str, seat: str, name: str, bot: str | None) -> None: ...

    @abstractmethod
    def free_seat(self, table_id: str, seat: str) -> None: ...

    @abstractmethod
    def set_kept(self, table_id: str, kept: dict | None) -> None:
        """What the table holds besides its game (StoredTable.kept), replacing what it held; None: nothing."""

    @abstractmethod
    def set_kick(self, name: str, until: float | None) -> None:
        """`name` (as `name_key` folds it) may not connect before `until` (wall-clock time, time.time()); None: it
        may now (`dt-server admin kick`)."""

    @abstractmethod
    def kicks(self, now: float) -> list[tuple[str, float]]:
        """(name, until) of the names kicked until after `now` (wall-clock time); the others go."""

    @abstractmethod
    def add_token(self, digest: str, table_id: str, seat: str | None, name: str) -> None: ...

    @abstractmethod
    def drop_token(self, digest: str) -> None: ...

    @abstractmethod
    def add_line(self, table_id: str, line: str, data: dict | None) -> None:
        """Append a line to the table's game journal."""

    @abstractmethod
    def answered(self, table_id: str, seat: str, action_id: str) -> str | None:
        """The text as typed of the seat's action applied with `action_id` (its journal line's data: "id" and
        "typed"), or None if there is none. Asked only when a player repeats an old id (server/answers.py)."""

    @abstractmethod
    def reserve_events(self, table_id: str, n: int) -> None:
        """Event numbers up to `n` may be sent from now on."""

    @abstractmethod
    def finish(self, table_id: str, result: dict, final: str) -> None:
        """The game is over: its result and final position."""

    @abstractmethod
    def close_table(self, table_id: str) -> None:
        """The table closed: its tokens go; an unfinished table is marked closed and never restored."""

    @abstractmethod
    def forget_unplayed(self, table_id: str) -> None:
        """The closed table goes from the store if its game never began (nothing journaled, not over); the caller
        keeps the closed table of the highest number, so that `numbers` never gives a number again."""

    @abstractmethod
    def prune(self, before: float, *, dry_run: bool = False) -> dict[str, int]:
        """The records of games that ended (or tables closed) before `before` go: their journal lines and final
        position. Each table's row stays, with its seats and result: its number is never given again, `dt-server
        records` still lists it, ratings are untouched; a finished game's status becomes "pruned" (no record: the
        games list no longer offers it for replay). Tables in play are never touched. One transaction; with
        `dry_run`, nothing is written. How many games, closed tables and journal lines went (or would go)."""

    # --- reading ------------------------------------------------------------------------------------------
    @abstractmethod
    def stats(self, now: float) -> dict:
        """What the store holds (`dt-server stats`); SqlStorage.stats says what."""

    @abstractmethod
    def numbers(self) -> tuple[int, int]:
        """The highest table number used, and the highest bot number in a seat's name."""

    @abstractmethod
    def open_tables(self) -> list[StoredTable]:
        """Every table to restore (status "open"), in creation order, complete."""

    @abstractmethod
    def kept(self, table_id: str) -> dict | None:
        """What the table holds besides its game (`set_kept`), or None."""

    @abstractmethod
    def offered_tables(self) -> list[StoredTable]:
        """Every finished table (status "over") with a rematch offer standing (its `kept` holds "offers"), complete,
        in creation order: restored at a start, so that the offer outlives a restart (server/rematch.py)."""

    @abstractmethod
    def tables(self) -> list[StoredTable]:
        """Every table, in creation order, with its seats, without tokens, journal or final position (`dt-server
        records`' list)."""

    @abstractmethod
    def table(self, table_id: str) -> StoredTable | None:
        """One table, complete."""

    @abstractmethod
    def table_numbered(self, number: int) -> StoredTable | None:
        """The table of that number (the `7` of t7-3f9a02c1; each table has its own), complete."""

    @abstractmethod
    def finished_games(self, offset: int, limit: int) -> tuple[list[StoredTable], int]:
        """The finished public games (status over, no join code), the last finished first, from `offset` on, at
        most `limit`, each with its seats (no tokens or journal); and how many there are (`list_games`)."""

    def table_named(self, word: str) -> StoredTable | None:
        """The table `word` names: its id, or its number as its id shows it (`7` or `t7`), complete. A player who
        just finished table 1 types `dt-client replay 1` (play-test pt23), as `join 1` joins it."""
        table = self.table(word)
        if table is None and (number := TABLE_NUMBER.fullmatch(word)) is not None:
            table = self.table_numbered(int(number[1]))
        return table

    # Ratings and identities belong to a name as `name_key` folds it: "Bob" and "bob" are one player.
    @abstractmethod
    def rating(self, name: str) -> tuple[float, float, float, int] | None:
        """A player's Glicko-2 rating, RD, volatility and rated games, or None before his first rated game."""

    @abstractmethod
    def set_rating(self, name: str, rating: float, rd: float, volatility: float, games: int) -> None:
        """The player's rating after a game; `name` as he spelled it then, the leaderboard's spelling."""

    @abstractmethod
    def leaderboard(self, limit: int) -> list[tuple[str, float, float, int]]:
        """(name, rating, RD, games) of the best rated players, best first."""

    @abstractmethod
    def identity(self, name: str) -> tuple[str, bytes] | None:
        """The name as it was spelled when it was bound, and the Ed25519 public key it is bound to, or None
        (docs/protocol.md section 18)."""

    @abstractmethod
    def bind(self, name: str, key: bytes) -> None:
        """Bind a name to a key, once and for good (its first proven key)."""


class SqlStorage(Storage):
    """The interface in SQL that SQLite (3.24 or newer: its upserts) and PostgreSQL both run: the same tables, the
    same statements, with `?` for parameters. A backend gives the connection: `_write`, `_read`, the transaction
    (`_commit`, `_rollback`), and how names compare in the leaderboard's order (`_BY_NAME`)."""

    _BY_NAME = "folded"
    """The leaderboard's order between equal ratings: the folded names by code point (SQLite compares text so)."""

    @abstractmethod
    def _write(self, sql: str, args: tuple) -> None:
        """Run a statement that writes, in the transaction under way if there is one; StorageError if it fails."""

    @abstractmethod
    def _read(self, sql: str, args: tuple = ()) -> list:
        """The rows of a query; StorageError if it fails."""

    def _write_many(self, sql: str, rows: list[tuple]) -> None:
        """`_write` for each of `rows`, inside a transaction (`copy_store`); a backend may send them at once."""
        for row in rows:
            self._write(sql, row)

    def _journal_copied(self) -> None:
        """The journal's lines were written with their numbers (`copy_store`): the next line numbered after them.
        (SQLite's INTEGER PRIMARY KEY takes the highest plus one by itself.)"""

    # --- writing ------------------------------------------------------------------------------------------
    def add_table(self, table: StoredTable) -> None:
        self._write("INSERT INTO tables (id, number, options, seed, creator, join_code, created) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?)", (table.id, table.number, json.dumps(table.options),
                                                     _seed_column(table), table.creator, table.join_code,
                                                     table.created))

    def set_seat(self, table_id: str, seat: str, name: str, bot: str | None) -> None:
        self._write("INSERT INTO seats VALUES (?, ?, ?, ?) ON CONFLICT (table_id, seat) "
                    "DO UPDATE SET name = excluded.name, bot = excluded.bot", (table_id, seat, name, bot))

    def free_seat(self, table_id: str, seat: str) -> None:
        self._write("DELETE FROM seats WHERE table_id = ? AND seat = ?", (table_id, seat))

    def add_token(self, digest: str, table_id: str, seat: str | None, name: str) -> None:
        self._write("INSERT INTO tokens VALUES (?, ?, ?, ?) ON CONFLICT (digest) DO UPDATE SET "
                    "table_id = excluded.table_id, seat = excluded.seat, name = excluded.name",
                    (digest, table_id, seat, name))

    def drop_token(self, digest: str) -> None:
        self._write("DELETE FROM tokens WHERE digest = ?", (digest,))

    def set_kept(self, table_id: str, kept: dict | None) -> None:
        if kept is None:
            self._write("DELETE FROM kept WHERE table_id = ?", (table_id,))
        else:
            self._write("INSERT INTO kept VALUES (?, ?) ON CONFLICT (table_id) DO UPDATE SET data = excluded.data",
                        (table_id, json.dumps(kept)))

    def set_kick(self, name: str, until: float | None) -> None:
        if until is None:
            self._write("DELETE FROM kicks WHERE folded = ?", (name_key(name),))
        else:
            self._write("INSERT INTO kicks VALUES (?, ?, ?) ON CONFLICT (folded) DO UPDATE SET name = excluded.name, "
                        "expires = excluded.expires", (name_key(name), name, until))

    def kicks(self, now: float) -> list[tuple[str, float]]:
        self._write("DELETE FROM kicks WHERE expires <= ?", (now,))
        return [(name, until) for name, until in self._read("SELECT name, expires FROM kicks ORDER BY folded")]

    def add_line(self, table_id: str, line: str, data: dict | None) -> None:
        self._write("INSERT INTO journal (table_id, line, data) VALUES (?, ?, ?)",
                    (table_id, line, None if data is None else json.dumps(data)))

    def answered(self, table_id: str, seat: str, action_id: str) -> str | None:
        # The lines whose data holds the id as `add_line`'s json.dumps wrote it (LIKE, with its wildcards escaped;
        # blind to ASCII case in SQLite, not in PostgreSQL: the check that follows is exact), each then read whole:
        # no JSON functions, which an older SQLite may lack and PostgreSQL spells otherwise.
        needle = '"id": ' + json.dumps(action_id)
        pattern = "%" + needle.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        for (data,) in self._read("SELECT data FROM journal WHERE table_id = ? AND line LIKE ? AND data LIKE ? "
                                  "ESCAPE '\\' ORDER BY id", (table_id, seat + ":%", pattern)):
            found = json.loads(data)
            if found.get("k") == "action" and found.get("id") == action_id:
                return found.get("typed")
        return None

    def reserve_events(self, table_id: str, n: int) -> None:
        self._write("UPDATE tables SET events = ? WHERE id = ?", (n, table_id))

    def finish(self, table_id: str, result: dict, final: str) -> None:
        self._write("UPDATE tables SET status = 'over', result = ?, final = ?, finished = ? WHERE id = ?",
                    (json.dumps(result), final, time.time(), table_id))
        self._over_count = None

    def close_table(self, table_id: str) -> None:
        with self.transaction():
            self._write("DELETE FROM tokens WHERE table_id = ?", (table_id,))
            self._write("DELETE FROM kept WHERE table_id = ?", (table_id,))
            self._write("UPDATE tables SET status = 'closed' WHERE id = ? AND status = 'open'", (table_id,))

    def forget_unplayed(self, table_id: str) -> None:
        with self.transaction():
            self._write("DELETE FROM seats WHERE table_id = ? AND NOT EXISTS (SELECT 1 FROM journal WHERE table_id = ?) "
                        "AND EXISTS (SELECT 1 FROM tables WHERE id = ? AND status = 'closed')",
                        (table_id, table_id, table_id))
            self._write("DELETE FROM tables WHERE id = ? AND status = 'closed' AND NOT EXISTS "
                        "(SELECT 1 FROM journal WHERE table_id = ?)", (table_id, table_id))

    _PRUNED = "FROM tables WHERE status IN ('over', 'closed') AND COALESCE(finished, created) < ?"
    """The tables `prune` takes: games over, by when they ended, and tables closed before their game ended, by
    when they were made."""

    def prune(self, before: float, *, dry_run: bool = False) -> dict[str, int]:
        with_lines = "EXISTS (SELECT 1 FROM journal WHERE table_id = tables.id)"
        games, closed = self._read(
            f"SELECT COALESCE(SUM(CASE WHEN status = 'over' THEN 1 ELSE 0 END), 0), COALESCE(SUM(CASE WHEN status "
            f"= 'closed' AND {with_lines} THEN 1 ELSE 0 END), 0) {self._PRUNED}", (before,))[0]
        lines = self._read(f"SELECT COUNT(*) FROM journal WHERE table_id IN (SELECT id {self._PRUNED})",
                           (before,))[0][0]
        counts = {"games": int(games), "closed": int(closed), "lines": int(lines)}
        if dry_run or not any(counts.values()):
            return counts
        with self.transaction():
            self._write(f"DELETE FROM journal WHERE table_id IN (SELECT id {self._PRUNED})", (before,))
            self._write(f"DELETE FROM tokens WHERE table_id IN (SELECT id {self._PRUNED})", (before,))
            self._write(f"DELETE FROM kept WHERE table_id IN (SELECT id {self._PRUNED})", (before,))
            self._write(f"UPDATE tables SET final = NULL, status = 'pruned' {self._PRUNED.removeprefix('FROM tables')}"
                        " AND status = 'over'", (before,))
        self._over_count = None
        return counts

    def stats(self, now: float) -> dict:
        """What the store holds, for `dt-server stats`: tables by status, games finished over the last day, week
        and month (before `now`; pruned or not), journal lines, when the oldest game still replayable ended, players
        (names bound to a key, rated names, names seated), and the store's size in bytes (None where the backend
        cannot tell)."""
        by_status = dict(self._read("SELECT status, COUNT(*) FROM tables GROUP BY status"))
        finished = self._read(
            "SELECT " + ", ".join("COALESCE(SUM(CASE WHEN finished >= ? THEN 1 ELSE 0 END), 0)" for _ in DAYS)
            + " FROM tables WHERE status IN ('over', 'pruned')", tuple(now - days * 86400 for days in DAYS))[0]
        return {
            "tables": {status: int(count) for status, count in sorted(by_status.items())},
            "finished": {f"{days}d": int(count) for days, count in zip(DAYS, finished)},
            "oldest_replayable": self._read("SELECT MIN(finished) FROM tables WHERE status = 'over'")[0][0],
            "journal_lines": int(self._read("SELECT COUNT(*) FROM journal")[0][0]),
            "identities": int(self._read("SELECT COUNT(*) FROM identities")[0][0]),
            "rated": int(self._read("SELECT COUNT(*) FROM ratings")[0][0]),
            "players": len({name_key(name) for (name,) in  # (one player, whatever his spellings: review rv30)
                            self._read("SELECT DISTINCT name FROM seats WHERE bot IS NULL")}),
            "bytes": self.size(),
        }

    def size(self) -> int | None:
        """The store's size in bytes, or None."""
        return None

    def compact(self) -> None:
        """Give the space of deleted rows back to the file system where the backend does not by itself (after
        `prune`)."""

    # --- reading ------------------------------------------------------------------------------------------
    def numbers(self) -> tuple[int, int]:
        tables = self._read("SELECT COALESCE(MAX(number), 0) FROM tables")[0][0]
        bots = [int(name.rsplit("-", 1)[1]) for (name,) in self._read("SELECT name FROM seats WHERE bot IS NOT NULL")
                if name.rsplit("-", 1)[-1].isdigit()]
        return tables, max(bots, default=0)

    _COLUMNS = "id, number, options, seed, creator, join_code, created, status, events, result, final, finished"
    _LISTED = _COLUMNS.replace(", final,", ", NULL,")
    """_COLUMNS without the final position, a few KB a game, which lists do not show (review rv27)."""

    def _row(self, row) -> StoredTable:
        (id_, number, options, seed, creator, join_code, created, status, events, result, final, finished) = row
        seed, _, nonce = seed.partition(" ")
        return StoredTable(id_, number, json.loads(options), int(seed), creator, join_code, created, nonce or None,
                           status, events, None if result is None else json.loads(result), final, finished)

    def _complete(self, table: StoredTable) -> StoredTable:
        for seat, name, bot in self._read("SELECT seat, name, bot FROM seats WHERE table_id = ?", (table.id,)):
            table.seats[seat] = (name, bot)
        table.tokens = [tuple(row) for row in
                        self._read("SELECT digest, seat, name FROM tokens WHERE table_id = ?", (table.id,))]
        table.journal = [(line, None if data is None else json.loads(data)) for line, data in
                         self._read("SELECT line, data FROM journal WHERE table_id = ? ORDER BY id", (table.id,))]
        return table

    _over_count: int | None = None
    """How many finished public games the store holds, counted at the first `finished_games` after a game ended (a
    count reads them all: not once a request)."""

    def finished_games(self, offset: int, limit: int) -> tuple[list[StoredTable], int]:
        over = "FROM tables WHERE status = 'over' AND join_code IS NULL"  # (index tables_over)
        games = [self._row(row) for row in self._read(
            f"SELECT {self._LISTED} {over} ORDER BY finished DESC LIMIT ? OFFSET ?", (limit, offset))]
        for game in games:
            for seat, name, bot in self._read("SELECT seat, name, bot FROM seats WHERE table_id = ?", (game.id,)):
                game.seats[seat] = (name, bot)
        if self._over_count is None:
            self._over_count = self._read(f"SELECT count(*) {over}")[0][0]
        return games, self._over_count

    def open_tables(self) -> list[StoredTable]:
        rows = self._read(f"SELECT {self._COLUMNS} FROM tables WHERE status = 'open' ORDER BY number")
        return [self._with_kept(self._complete(self._row(row))) for row in rows]

    def offered_tables(self) -> list[StoredTable]:
        rows = self._read(f"SELECT {self._COLUMNS} FROM tables WHERE status = 'over' AND id IN (SELECT table_id "
                          "FROM kept) ORDER BY number")
        tables = [self._with_kept(self._complete(self._row(row))) for row in rows]
        return [table for table in tables if (table.kept or {}).get("offers")]

    def _with_kept(self, table: StoredTable) -> StoredTable:
        table.kept = self.kept(table.id)
        return table

    def kept(self, table_id: str) -> dict | None:
        rows = self._read("SELECT data FROM kept WHERE table_id = ?", (table_id,))
        return json.loads(rows[0][0]) if rows else None

    def tables(self) -> list[StoredTable]:
        tables = [self._row(row) for row in self._read(f"SELECT {self._LISTED} FROM tables ORDER BY number")]
        by_id = {table.id: table for table in tables}
        for table_id, seat, name, bot in self._read("SELECT table_id, seat, name, bot FROM seats"):
            if (table := by_id.get(table_id)) is not None:
                table.seats[seat] = (name, bot)
        return tables

    def table(self, table_id: str) -> StoredTable | None:
        rows = self._read(f"SELECT {self._COLUMNS} FROM tables WHERE id = ?", (table_id,))
        return self._complete(self._row(rows[0])) if rows else None

    def table_numbered(self, number: int) -> StoredTable | None:
        # (no index on number: a record is asked for now and then, rate-limited, and a scan of the tables' rows is
        # what `tables()` does anyway)
        rows = self._read(f"SELECT {self._COLUMNS} FROM tables WHERE number = ?", (number,))
        return self._complete(self._row(rows[0])) if rows else None

    def rating(self, name: str) -> tuple[float, float, float, int] | None:
        rows = self._read("SELECT rating, rd, volatility, games FROM ratings WHERE folded = ?", (name_key(name),))
        return tuple(rows[0]) if rows else None

    def set_rating(self, name: str, rating: float, rd: float, volatility: float, games: int) -> None:
        self._write("INSERT INTO ratings VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (folded) DO UPDATE SET "
                    "name = excluded.name, rating = excluded.rating, rd = excluded.rd, "
                    "volatility = excluded.volatility, games = excluded.games",
                    (name_key(name), name, rating, rd, volatility, games))

    def leaderboard(self, limit: int) -> list[tuple[str, float, float, int]]:
        return [tuple(row) for row in self._read(
            f"SELECT name, rating, rd, games FROM ratings ORDER BY rating DESC, {self._BY_NAME} LIMIT ?", (limit,))]

    def identity(self, name: str) -> tuple[str, bytes] | None:
        rows = self._read("SELECT name, key FROM identities WHERE folded = ?", (name_key(name),))
        return (rows[0][0], bytes(rows[0][1])) if rows else None

    def bind(self, name: str, key: bytes) -> None:
        self._write("INSERT INTO identities VALUES (?, ?, ?, ?) ON CONFLICT (folded) DO NOTHING",
                    (name_key(name), name, bytes(key), time.time()))


RATINGS_SCHEMA = """
CREATE TABLE IF NOT EXISTS ratings (
    folded TEXT PRIMARY KEY, name TEXT NOT NULL, rating REAL NOT NULL, rd REAL NOT NULL, volatility REAL NOT NULL,
    games INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS identities (
    folded TEXT PRIMARY KEY, name TEXT NOT NULL, key BLOB NOT NULL, bound REAL NOT NULL);
"""
"""Glicko-2 ratings by player, and the Ed25519 key each name is bound to; `folded` is the name as `name_key` folds
it, `name` its spelling (added to a database of a dt-server older than ratings when it is opened)."""

KEPT_SCHEMA = """
CREATE TABLE IF NOT EXISTS kept (table_id TEXT PRIMARY KEY, data TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS kicks (folded TEXT PRIMARY KEY, name TEXT NOT NULL, expires DOUBLE PRECISION NOT NULL);
"""
"""What a table holds besides its game (StoredTable.kept: the seats kept for names, the rematch offers standing),
and the names the admin kicked until when (wall-clock time): session 31, in the same SQL for SQLite and PostgreSQL,
added to an older store when a dt-server opens it for writing (no schema version change: an older dt-server
ignores them, and forgets what they hold, as it always did)."""

INDEXES = "CREATE INDEX IF NOT EXISTS tables_over ON tables (status, join_code, finished)"
"""The indexes a store opened for writing makes if it has not (SQLite and PostgreSQL alike): the finished games'
list (`finished_games`, session 27) reads the last finished of a store that keeps every game without a scan."""

SCHEMA = """
CREATE TABLE tables (
    id TEXT PRIMARY KEY, number INTEGER NOT NULL, options TEXT NOT NULL, seed TEXT NOT NULL, creator TEXT,
    join_code TEXT, created REAL NOT NULL, status TEXT NOT NULL DEFAULT 'open', events INTEGER NOT NULL DEFAULT 0,
    result TEXT, final TEXT, finished REAL);
CREATE TABLE seats (
    table_id TEXT NOT NULL, seat TEXT NOT NULL, name TEXT NOT NULL, bot TEXT, PRIMARY KEY (table_id, seat));
CREATE TABLE tokens (digest TEXT PRIMARY KEY, table_id TEXT NOT NULL, seat TEXT, name TEXT NOT NULL);
CREATE INDEX tokens_table ON tokens (table_id);
CREATE TABLE journal (id INTEGER PRIMARY KEY, table_id TEXT NOT NULL, line TEXT NOT NULL, data TEXT);
CREATE INDEX journal_table ON journal (table_id, id);
""" + RATINGS_SCHEMA

SYNC_MODES = ("full", "normal")
TOKENS_LEFT = ("DELETE FROM tokens WHERE table_id IN (SELECT id FROM tables WHERE status != 'open' AND id NOT IN "
               "(SELECT table_id FROM kept))")
"""Tokens of games that ended just before a stop, which no table will take any more (a finished table with a
rematch offer standing keeps its own: it is restored, `offered_tables`)."""


class SqliteStorage(SqlStorage):
    """SQLite in WAL mode. `path` ":memory:" keeps everything in memory (tests, embedded servers)."""

    def __init__(self, path: str | Path = ":memory:", *, sync: str = "full", readonly: bool = False) -> None:
        if sync not in SYNC_MODES:
            raise ValueError(f"data_sync must be one of {', '.join(SYNC_MODES)}")
        self.location = str(path)
        self._lock_file = None
        memory = self.location == ":memory:"
        try:
            if memory:
                self._db = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
                self._db.executescript(SCHEMA + KEPT_SCHEMA + f"PRAGMA user_version = {SCHEMA_VERSION};")
                self._db.execute(INDEXES)
                return
            path = Path(path)
            if readonly:
                if not path.exists():
                    raise StorageError(f"{path}: no such database")
                self._db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, isolation_level=None,
                                           check_same_thread=False)
            else:
                path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
                self._lock(path.parent / LOCK_NAME)
                if not path.exists():
                    _create(path)
                _private(path)
                self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            self._check(path, thorough=not readonly)
            if not readonly:
                self._db.execute("PRAGMA journal_mode = WAL")
                self._db.execute(f"PRAGMA synchronous = {sync.upper()}")
                self._upgrade()
                self._db.executescript(RATINGS_SCHEMA + KEPT_SCHEMA)
                self._db.execute(INDEXES)
                # Tokens of games that ended just before a stop: no table will take them any more.
                self._db.execute(TOKENS_LEFT)
        except sqlite3.Error as error:
            self.close()
            raise StorageError(f"{path}: {error} (is it a dt-server database? restore it from a backup, or move it "
                               "away to start with no tables)") from None
        except BaseException:
            self.close()
            raise

    def _upgrade(self) -> None:
        """Schema 1 to 2: ratings and identities were keyed by the name as typed, so "Bob" and "bob" could be two
        players. Rows whose names fold alike become one: the identity bound first (the others' keys no longer
        prove the name; of two bound at the same time, the spelling that sorts first), the rating of the most
        games (ratings of two spellings cannot be merged; of two with as many games, the spelling that sorts
        first, by code point: capitals before small letters). Each row dropped is logged (a warning: a player
        lost his name or his rating, and the admin must be able to tell him), then the upgrade itself."""
        if self._db.execute("PRAGMA user_version").fetchone()[0] != 1:
            return
        dropped: list[tuple[str, dict]] = []
        self._db.execute("BEGIN IMMEDIATE")
        try:
            tables = {row[0] for row in self._db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            old = {}
            if "ratings" in tables:
                old["ratings"] = self._db.execute(
                    "SELECT name, rating, rd, volatility, games FROM ratings ORDER BY games DESC, name").fetchall()
            if "identities" in tables:
                old["identities"] = self._db.execute(
                    "SELECT name, key, bound FROM identities ORDER BY bound, name").fetchall()
            for table in old:
                self._db.execute(f"DROP TABLE {table}")
            for statement in RATINGS_SCHEMA.split(";")[:-1]:  # (executescript would commit first)
                self._db.execute(statement)
            for table, rows in old.items():  # the first row of a folded name wins: INSERT OR IGNORE
                dropped += _dropped_in_upgrade(table, rows)
                if rows:
                    marks = ", ".join("?" * (len(rows[0]) + 1))
                    self._db.executemany(f"INSERT OR IGNORE INTO {table} VALUES ({marks})",
                                         [(name_key(row[0]), *row) for row in rows])
            self._db.execute("PRAGMA user_version = 2")
            self._db.execute("COMMIT")
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        for event, fields in dropped:
            log(event, level=logging.WARNING, **fields)
        log("store_upgraded", level=logging.WARNING if dropped else logging.INFO, database=self.location,
            schema_from=1, schema_to=2, identities_dropped=sum(event == "identity_dropped" for event, _ in dropped),
            ratings_dropped=sum(event == "rating_dropped" for event, _ in dropped))

    def _lock(self, lock_path: Path) -> None:
        if fcntl is None:
            return
        self._lock_file = open(lock_path, "a")
        try:
            fcntl.flock(self._lock_file, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            raise StorageError(f"{lock_path.parent}: another dt-server uses this data directory") from None

    def size(self) -> int | None:
        if self.location == ":memory:":
            return None
        path = Path(self.location)
        return sum(file.stat().st_size for file in (path, path.with_name(path.name + "-wal")) if file.exists())

    def compact(self) -> None:
        """VACUUM (the file shrinks by the pages deleted rows freed; it needs as much free disk as the store
        for a while), then the WAL emptied into it and truncated."""
        try:
            self._db.execute("VACUUM")
            self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        except sqlite3.Error as error:
            raise StorageError(f"{self.location}: {error}") from None

    def _check(self, path: Path, thorough: bool = True) -> None:
        """The file is a dt-server store this version reads; `thorough`: and not corrupt (PRAGMA quick_check, which
        reads every page: a server's start, not a read-only look such as `dt-server stats` or `records` beside a
        running server, review rv30; a corrupt page there fails its query instead)."""
        if path.stat().st_size == 0:
            raise StorageError(f"{path}: the database file is empty (truncated?); restore it from a backup, or "
                               "delete it to start with no tables")
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise StorageError(f"{path}: written by a newer dt-server (schema {version}; this one reads up to "
                               f"{SCHEMA_VERSION}); upgrade dt-server")
        if version < 1:
            raise StorageError(f"{path}: truncated, or not a dt-server database (schema version {version})")
        problems = [row[0] for row in self._db.execute("PRAGMA quick_check")] if thorough else ["ok"]
        if problems != ["ok"]:
            raise StorageError(f"{path}: the database is corrupt ({'; '.join(problems[:3])}); restore it from a "
                               "backup")

    def close(self) -> None:
        db = getattr(self, "_db", None)
        if db is not None:
            db.close()
            self._db = None
        if self._lock_file is not None:
            self._lock_file.close()
            self._lock_file = None

    # --- transactions -------------------------------------------------------------------------------------
    def _write(self, sql: str, args: tuple) -> None:
        try:
            if self.in_transaction and not self._db.in_transaction:
                self._db.execute("BEGIN IMMEDIATE")
            self._db.execute(sql, args)
        except sqlite3.Error as error:
            raise StorageError(f"{self.location}: {error}") from None

    def _write_many(self, sql: str, rows: list[tuple]) -> None:
        if not rows:
            return
        self._write("SELECT 1", ())  # the transaction's BEGIN, as `_write` makes it
        try:
            self._db.executemany(sql, rows)
        except sqlite3.Error as error:
            raise StorageError(f"{self.location}: {error}") from None

    def _commit(self) -> None:
        if self._db is not None and self._db.in_transaction:
            try:
                self._db.execute("COMMIT")
            except sqlite3.Error as error:
                # a COMMIT that fails (a full disk, an I/O error, a lock) may leave the transaction open, and the
                # next step's COMMIT would then save this failed step's writes: the step is undone here, as one
                # that raised (review rm32)
                try:
                    self._rollback()
                except StorageError:
                    pass  # (SQLite rolled it back itself, or the COMMIT's error says enough)
                raise StorageError(f"{self.location}: {error}") from None

    def _rollback(self) -> None:
        if self._db is not None and self._db.in_transaction:
            try:
                self._db.execute("ROLLBACK")
            except sqlite3.Error as error:  # a store failure as any other, not a bug of the table (review rv32)
                raise StorageError(f"{self.location}: {error}") from None

    # --- reading ------------------------------------------------------------------------------------------
    def _read(self, sql: str, args: tuple = ()) -> list:
        try:
            return self._db.execute(sql, args).fetchall()
        except sqlite3.Error as error:
            raise StorageError(f"{self.location}: {error}") from None


def key_fingerprint(key: bytes) -> str:
    """A short name of a public key for the log: "SHA256:" and the first 16 hex digits of its SHA-256."""
    return "SHA256:" + hashlib.sha256(bytes(key)).hexdigest()[:16]


def _dropped_in_upgrade(table: str, rows: list[tuple]) -> list[tuple[str, dict]]:
    """The rows of a schema 1 `identities` or `ratings` table (in the order the upgrade keeps the first of a folded
    name) that the upgrade drops, as log events: who lost what, and to whom."""
    kept: dict[str, tuple] = {}
    dropped = []
    for row in rows:
        first = kept.setdefault(name_key(row[0]), row)
        if first is row:
            continue
        if table == "identities":  # (name, key, bound)
            dropped.append(("identity_dropped", {
                "name": row[0], "kept": first[0], "dropped_key": key_fingerprint(row[1]),
                "kept_key": key_fingerprint(first[1]), "dropped_bound": _utc(row[2]), "kept_bound": _utc(first[2]),
                "note": "the name is the kept key's now: the dropped key's hello is refused name_taken"}))
        else:  # (name, rating, rd, volatility, games)
            dropped.append(("rating_dropped", {
                "name": row[0], "kept": first[0], "rating": round(row[1]), "rd": round(row[2]), "games": row[4],
                "kept_rating": round(first[1]), "kept_games": first[4]}))
    return dropped


def _utc(seconds: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(seconds))


def _seed_column(table: StoredTable) -> str:
    """The `seed` column: the seed in decimal, then a space and the seed commitment's nonce (hex) if there is one."""
    return str(table.seed) if table.seed_nonce is None else f"{table.seed} {table.seed_nonce}"


def _private(path: Path) -> None:
    """The database and its WAL files readable by the server's user alone: the journal of a game in play holds
    what its players hide (every token hidden, the dealt seed behind the face-down rooms) and private tables'
    join codes. A store made by an older dt-server, or under a umask of 022, was readable by every local user.
    (SQLite gives new -wal and -shm files the database's own mode.)"""
    for file in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        try:
            if file.stat().st_mode & 0o077:
                file.chmod(0o600)
        except FileNotFoundError:
            pass


def _create(path: Path) -> None:
    """A new, empty database, put in place only once its schema is written: the store's file is never empty or
    half made, so an empty or unreadable file always means damage."""
    temporary = path.with_name(path.name + ".new")
    temporary.unlink(missing_ok=True)
    db = sqlite3.connect(temporary, isolation_level=None)
    try:
        db.executescript(SCHEMA + f"PRAGMA user_version = {SCHEMA_VERSION};")
    finally:
        db.close()
    with open(temporary, "rb+") as file:
        os.fsync(file.fileno())
    os.replace(temporary, path)
    directory = os.open(path.parent, os.O_RDONLY) if hasattr(os, "O_DIRECTORY") else None
    if directory is not None:
        try:
            os.fsync(directory)
        finally:
            os.close(directory)


COPIED = (("tables", SqlStorage._COLUMNS, "id"), ("seats", "table_id, seat, name, bot", "table_id, seat"),
          ("tokens", "digest, table_id, seat, name", "digest"),
          ("ratings", "folded, name, rating, rd, volatility, games", "folded"),
          ("identities", "folded, name, key, bound", "folded"), ("kept", "table_id, data", "table_id"),
          ("kicks", "folded, name, expires", "folded"))
"""The tables `copy_store` copies whole (name, columns, order), besides the journal, which it copies in batches."""
JOURNAL_BATCH = 2000
STORE_TABLES = tuple(name for name, _, _ in COPIED) + ("journal",)
"""Every table of the store."""


def copy_store(source: SqlStorage, target: SqlStorage, progress: Callable[[str, int], None] | None = None
               ) -> dict[str, int]:
    """Every row of `source` into `target`, a new store (`dt-server copy`: from a data directory's SQLite file to a
    PostgreSQL database, or back): tables, seats, resume tokens, the journal with its line numbers, ratings and
    identities, in one transaction of `target`, then each table's rows counted there. StorageError if `target`
    holds a row already (a store is copied into a new one, never merged: two stores' table numbers and journal
    lines would collide) or if a count differs. Both are opened as a server opens them, each holding its lock: no
    server writes to either during the copy. The rows copied of each table, by name; `progress(table, rows)` is
    told as the journal's batches go."""
    held = {name: target._read(f"SELECT COUNT(*) FROM {name}")[0][0] for name in STORE_TABLES}
    if any(held.values()):
        rows = ", ".join(f"{how_many(count, 'row', 'rows')} of {name}" for name, count in held.items() if count)
        raise StorageError(f"{target.location} already holds a store ({rows}): copy into a new one only")
    counts: dict[str, int] = {}
    with target.transaction():
        for name, columns, order in COPIED:
            rows = source._read(f"SELECT {columns} FROM {name} ORDER BY {order}")
            insert = f"INSERT INTO {name} ({columns}) VALUES ({', '.join('?' * len(columns.split(',')))})"
            target._write_many(insert, [_plain(row) for row in rows])
            counts[name] = len(rows)
        counts["journal"], last = 0, -1
        while rows := source._read("SELECT id, table_id, line, data FROM journal WHERE id > ? ORDER BY id LIMIT ?",
                                   (last, JOURNAL_BATCH)):
            target._write_many("INSERT INTO journal (id, table_id, line, data) VALUES (?, ?, ?, ?)",
                               [_plain(row) for row in rows])
            counts["journal"] += len(rows)
            last = rows[-1][0]
            if progress is not None:
                progress("journal", counts["journal"])
        target._journal_copied()
    for name in STORE_TABLES:
        found = target._read(f"SELECT COUNT(*) FROM {name}")[0][0]
        if found != counts[name]:
            raise StorageError(f"{target.location}: {how_many(found, 'row', 'rows')} of {name} after the copy of "
                               f"{counts[name]}")
    return counts


def _plain(row) -> tuple:
    """A row's values as both backends take them (a BLOB or BYTEA read as a memoryview: bytes)."""
    return tuple(bytes(value) if isinstance(value, memoryview) else value for value in row)


def open_storage(data_dir: str | Path | None, *, sync: str = "full", readonly: bool = False) -> Storage:
    """The store of a data directory (its file DATA_DIR/dt-server.sqlite3); None: an ephemeral in-memory store.
    (A PostgreSQL store: stores.open_configured.)"""
    if data_dir is None:
        return SqliteStorage(":memory:")
    return SqliteStorage(Path(data_dir) / DATABASE_NAME, sync=sync, readonly=readonly)
