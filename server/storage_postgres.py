"""The server's durable store in PostgreSQL: the `Storage` interface of storage.py served by a database server
instead of a file, for an admin who already runs PostgreSQL (its backups, replication and monitoring) or wants the
store on another machine than the game server.

One dt-server owns a database at a time, as one owns a data directory: it holds a session-level advisory lock
(`pg_try_advisory_lock`) for as long as it runs, and a second one is refused with the reason. This backend serves
one process; the several-process design (tables owned by processes, a shared directory) is docs/scaling.md's and
is not built.

Durable before acknowledged, as with SQLite: the statements of a table's step run in one transaction
(`BEGIN` ... `COMMIT`), and the server queues no message for a client until that commit has returned. With
`data_sync = "full"` the commit waits for PostgreSQL's write-ahead log to reach its disk (`synchronous_commit` on,
PostgreSQL's default); `"normal"` sets `synchronous_commit = off` for the connection: a crash of dt-server loses
nothing acknowledged, but a crash of PostgreSQL itself (its machine, the OOM killer, `pg_ctl stop -m immediate`)
may lose the commits of its last moments (up to three times its `wal_writer_delay`, 0.6 s by default: its own
guarantee for that mode). A lock held by someone else on these tables (an admin's `ALTER TABLE`, `LOCK`, `VACUUM
FULL`) makes a step wait at most LOCK_TIMEOUT, then fail, rather than stop every table of the server's one thread.

The driver is psycopg 3 (`pip install '/path/to/checkout[postgres]'`), synchronous: a statement blocks dt-server's
one thread for its round trip to the database, as SQLite's fsync does (0.4 ms a committed action to a PostgreSQL
15 on the same machine over its Unix socket, measured with the cluster of tests/server/conftest.py).
"""

from __future__ import annotations

import re
import urllib.parse
from functools import lru_cache

from .logs import log
from .storage import (INDEXES, KEPT_SCHEMA, SCHEMA_VERSION, STORE_TABLES, SYNC_MODES, TOKENS_LEFT, SqlStorage,
                      StorageError, StoreUnreachable)

SCHEMA = """
CREATE TABLE dt_schema (version INTEGER NOT NULL);
CREATE TABLE tables (
    id TEXT PRIMARY KEY, number BIGINT NOT NULL, options TEXT NOT NULL, seed TEXT NOT NULL, creator TEXT,
    join_code TEXT, created DOUBLE PRECISION NOT NULL, status TEXT NOT NULL DEFAULT 'open',
    events BIGINT NOT NULL DEFAULT 0, result TEXT, final TEXT, finished DOUBLE PRECISION);
CREATE TABLE seats (
    table_id TEXT NOT NULL, seat TEXT NOT NULL, name TEXT NOT NULL, bot TEXT, PRIMARY KEY (table_id, seat));
CREATE TABLE tokens (digest TEXT PRIMARY KEY, table_id TEXT NOT NULL, seat TEXT, name TEXT NOT NULL);
CREATE INDEX tokens_table ON tokens (table_id);
CREATE TABLE journal (
    id BIGSERIAL PRIMARY KEY, table_id TEXT NOT NULL, line TEXT NOT NULL, data TEXT);
CREATE INDEX journal_table ON journal (table_id, id);
CREATE TABLE ratings (
    folded TEXT PRIMARY KEY, name TEXT NOT NULL, rating DOUBLE PRECISION NOT NULL, rd DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL, games INTEGER NOT NULL);
CREATE TABLE identities (
    folded TEXT PRIMARY KEY, name TEXT NOT NULL, key BYTEA NOT NULL, bound DOUBLE PRECISION NOT NULL);
"""
"""The same tables and columns as the SQLite store's (storage.py's SCHEMA, version 2), in PostgreSQL's types;
`dt_schema` holds the version (SQLite keeps it in `PRAGMA user_version`). Made in one transaction in a database
that has no `dt_schema`: a table of another program's with one of these names is an error, not a table shared."""

LOCK_KEY = 0x4454_5357  # "DTSW": the advisory lock that makes a database one dt-server's
LOCK_TIMEOUT = "5s"
"""The longest a statement waits for a lock someone else holds on the store's tables (`lock_timeout`)."""

CONNECTION_DEFAULTS = {"connect_timeout": "5", "tcp_user_timeout": "15000", "keepalives_idle": "30",
                       "keepalives_interval": "10", "keepalives_count": "3"}
"""libpq's parameters for the server's connection where its URL gives none: a statement blocks dt-server's one
thread, so a database out of reach must fail a step in seconds, not freeze every table for the kernel's own
limits (a connection to a host that drops packets waited ~2 min, a statement sent on a connection cut without a
word ~15 min: review rv24). Not the statements' own time: a slow commit is not cut short."""
SERVER_KEEPALIVES = "SET tcp_keepalives_idle = 30; SET tcp_keepalives_interval = 10; SET tcp_keepalives_count = 3"
"""The database server's side of the same: the session of a dt-server whose machine went away ends within two
minutes, and with it the advisory lock, so that the same dt-server started again is not refused as "another
dt-server" (exit status 3, not restarted) for the two hours of the system's default. (Over a Unix socket: no
effect.)"""


def shown_url(url: str) -> str:
    """The URL without its password, for messages and the log: the one after the user name, and a `password` or
    `sslpassword` parameter (libpq takes them in the query too: `postgresql:///games?host=/run/pg&password=...`
    was logged as it was, review rv24)."""
    parts = urllib.parse.urlsplit(url)
    if parts.password is not None:
        netloc = parts.netloc.rsplit("@", 1)
        user = netloc[0].split(":", 1)[0]
        url = urllib.parse.urlunsplit(parts._replace(netloc=f"{user}:***@{netloc[1]}"))
    base, mark, query = url.partition("?")
    return base + mark + _PASSWORD_PARAMETER.sub(r"\1=***", query)


_PASSWORD_PARAMETER = re.compile(r"(?:^|(?<=&))(password|sslpassword)=[^&#]*")


KEPT_COLUMNS = {"kept": ["table_id", "data"], "kicks": ["folded", "name", "expires"]}
"""The columns of the tables `KEPT_SCHEMA` makes (`_kept_tables_are_ours`)."""


class PostgresStorage(SqlStorage):
    """The store in the PostgreSQL database `url` (a libpq connection URL: `postgresql://user@host/dbname`, or
    `postgresql:///dbname?host=/run/postgresql` for a Unix socket; a password is best kept in ~/.pgpass). The
    statements are SqlStorage's; this class gives them a connection."""

    _BY_NAME = 'folded COLLATE "C"'  # by code point, as SQLite compares (not the database's own collation)

    def __init__(self, url: str, *, sync: str = "full", readonly: bool = False) -> None:
        if sync not in SYNC_MODES:
            raise ValueError(f"data_sync must be one of {', '.join(SYNC_MODES)}")
        try:
            import psycopg
        except ImportError:
            # (the project is installed from a checkout, deploy/README.md: the hint said `pip install
            # 'dungeon-twister-online[postgres]'`, a name pip would look for on a package index instead, adm33)
            raise StorageError(f"{shown_url(url)}: a PostgreSQL store needs the psycopg package in dt-server's "
                               "environment (pip install 'psycopg>=3.1', or the checkout as pip install "
                               "'/path/to/dungeon-twister-online[postgres]')") from None
        self._psycopg, self._errors = psycopg, psycopg.Error
        self._url, self._sync, self._readonly = url, sync, readonly
        self.location = shown_url(url)
        self._db = None
        self._open = False  # a BEGIN was sent and not yet committed or rolled back
        try:
            self._connect()
            self._check(readonly)
            if not readonly:
                self._db.execute(KEPT_SCHEMA)
                self._kept_tables_are_ours()
                self._db.execute(INDEXES)
                self._db.execute(TOKENS_LEFT)
        except self._errors as error:
            failed = self._db is None  # (the connection itself, not a statement on it)
            self.close()
            if failed and _passing(error):
                raise StoreUnreachable(f"{self.location}: {_first_line(error)}") from None
            raise StorageError(f"{self.location}: {_first_line(error)}") from None
        except BaseException:
            self.close()
            raise

    def _connect(self) -> None:
        """A session of the database's own: read-only, or holding the advisory lock, at the durability asked."""
        given = self._psycopg.conninfo.conninfo_to_dict(self._url)
        self._db = self._psycopg.connect(self._url, autocommit=True, application_name="dt-server",
                                         **{key: value for key, value in CONNECTION_DEFAULTS.items()
                                            if key not in given})
        self._db.execute(SERVER_KEEPALIVES)
        if self._readonly:
            self._db.execute("SET default_transaction_read_only = on")
            return
        if not self._db.execute("SELECT pg_try_advisory_lock(%s)", (LOCK_KEY,)).fetchone()[0]:
            self.close()
            raise StorageError(f"{self.location}: another dt-server uses this database")
        if self._sync == "normal":
            self._db.execute("SET synchronous_commit = off")
        self._db.execute(f"SET lock_timeout = '{LOCK_TIMEOUT}'")

    def _session(self):
        """The connection, made again if PostgreSQL dropped it (a restart of the database, a network cut) between
        two transactions. What a transaction under way wrote is lost with it: its step fails (StorageError) and its
        table is restored at the next start as it was last committed; the other tables go on."""
        if self._db is not None and self._db.broken and not self._open:
            self.close()
        if self._db is None:
            self._connect()
            # (review rv24: an admin saw nothing of a database that went away and came back)
            log("store_reconnected", store=self.location)
        return self._db

    def _again(self, statement):
        """`statement(connection)`, and once more on a new connection if the first one turns out dropped: only for
        what is safe to repeat (a read; the BEGIN of a transaction, before which nothing was written), so that a
        step after a restart of PostgreSQL goes through. A write is never repeated (it may have committed): a lone
        write is a transaction of its own (`_write`), whose BEGIN is."""
        try:
            return statement(self._session())
        except self._errors:
            if self._db is None or not self._db.broken or self._open:
                raise
        return statement(self._session())

    def _check(self, readonly: bool) -> None:
        """The schema made in an empty database; one written by a newer dt-server refused."""
        exists = self._db.execute("SELECT to_regclass('dt_schema') IS NOT NULL").fetchone()[0]
        if not exists:
            if readonly:
                raise StorageError(f"{self.location}: no dt-server store in this database")
            with self._db.transaction():
                self._db.execute(SCHEMA)
                # (made as the others, not IF NOT EXISTS, which is for an older store: a database where another
                # program has a `kept` or `kicks` table is refused, not shared; review rv31)
                self._db.execute(KEPT_SCHEMA.replace(" IF NOT EXISTS", ""))
                self._db.execute("INSERT INTO dt_schema VALUES (%s)", (SCHEMA_VERSION,))
            return
        row = self._db.execute("SELECT max(version) FROM dt_schema").fetchone()
        version = row[0] or 0
        if version > SCHEMA_VERSION:
            raise StorageError(f"{self.location}: written by a newer dt-server (schema {version}; this one reads up "
                               f"to {SCHEMA_VERSION}); upgrade dt-server")
        if version < SCHEMA_VERSION:
            raise StorageError(f"{self.location}: an unknown dt-server schema (version {version})")

    def _kept_tables_are_ours(self) -> None:
        """`kept` and `kicks` are made IF NOT EXISTS for an older store (session 31): a table of that name another
        program made in the database meanwhile is refused by its columns, as a new store's creation refuses it,
        not shared (review rv31: the kicks went into it, or a later statement failed on its columns)."""
        for name, columns in KEPT_COLUMNS.items():
            found = [row[0] for row in self._db.execute(
                "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND "
                "table_name = %s ORDER BY ordinal_position", (name,)).fetchall()]
            if found != columns:
                raise StorageError(f"{self.location}: the table {name} is not dt-server's (its columns: "
                                   f"{', '.join(found)}; dt-server's: {', '.join(columns)}): use a database of "
                                   "dt-server's own")

    def close(self) -> None:
        if self._db is not None:
            try:
                if not self._readonly and not self._db.closed:
                    # Released here, not only when the session ends: PostgreSQL ends a session's backend after the
                    # connection closes, so a dt-server started again at once (a restart) could still find the lock
                    # held and refuse "another dt-server uses this database" (seen in a clean-clone CI run)
                    try:
                        self._db.execute("SELECT pg_advisory_unlock(%s)", (LOCK_KEY,))
                    except self._errors:
                        pass  # (a session already lost holds no lock)
                self._db.close()
            finally:
                self._db = None

    # --- transactions -------------------------------------------------------------------------------------
    def _write(self, sql: str, args: tuple) -> None:
        if not self.in_transaction:
            # A lone write is a transaction of its own, so that a connection PostgreSQL dropped since the last call
            # is found by its BEGIN, which is safe to repeat, and not by the write, which is not (it may have
            # committed): the first lone write after a restart of PostgreSQL (a table created, a name bound) failed,
            # and its session with it (found by hand, review rv24)
            with self.transaction():
                return self._write(sql, args)
        try:
            if not self._open:
                self._again(lambda db: db.execute("BEGIN"))
                self._open = True
            self._session().execute(_placeholders(sql), args)
        except self._errors as error:
            raise StorageError(f"{self.location}: {_first_line(error)}") from None

    def _commit(self) -> None:
        if self._db is not None and self._open:
            self._open = False
            try:
                self._db.execute("COMMIT")
            except self._errors as error:
                raise StorageError(f"{self.location}: {_first_line(error)}") from None

    def _rollback(self) -> None:
        if self._db is not None and self._open:
            self._open = False
            try:
                self._db.execute("ROLLBACK")
            except self._errors:
                pass  # (a connection lost: the server rolled the transaction back itself)

    def _write_many(self, sql: str, rows: list[tuple]) -> None:
        # (review rv26: a round trip a row copied 3,600 journal lines a second; psycopg's executemany pipelines them)
        if not rows:
            return
        self._write("SELECT 1", ())  # the transaction's BEGIN, as `_write` makes it
        try:
            with self._session().cursor() as cursor:
                cursor.executemany(_placeholders(sql), rows)
        except self._errors as error:
            raise StorageError(f"{self.location}: {_first_line(error)}") from None

    def _journal_copied(self) -> None:
        # (BIGSERIAL's sequence does not follow ids written with the rows: the next line would take number 1)
        self._write("SELECT setval(pg_get_serial_sequence('journal', 'id'), (SELECT COALESCE(MAX(id), 0) + 1 FROM "
                    "journal), false)", ())

    def size(self) -> int | None:
        # (the store's own tables with their indexes and TOAST: not the whole database's, which may hold more)
        # (to_regclass: `kept` and `kicks` are missing from a store no dt-server of session 31 has opened for writing
        # yet, which `dt-server stats` may read)
        return int(self._read("SELECT " + " + ".join(f"COALESCE(pg_total_relation_size(to_regclass('{name}')), 0)"
                                                      for name in STORE_TABLES))[0][0])

    # --- reading ------------------------------------------------------------------------------------------
    def _read(self, sql: str, args: tuple = ()) -> list:
        try:
            return self._again(lambda db: db.execute(_placeholders(sql), args).fetchall())
        except self._errors as error:
            raise StorageError(f"{self.location}: {_first_line(error)}") from None


@lru_cache(maxsize=64)
def _placeholders(sql: str) -> str:
    """SqlStorage's statement with psycopg's parameters: `%s` for `?` (none of them holds a `?` or a `%` of its
    own: the LIKE patterns are parameters)."""
    return sql.replace("?", "%s")


LASTING = ("does not exist", "authentication failed", "no pg_hba.conf entry", "no password supplied",
           "but SSL was required", "is not permitted to log in", "permission denied for database")
"""What the server's refusal of a connection says when it stays until the settings change: a database or a role
that does not exist, a role without LOGIN or the database's CONNECT privilege (review rv26), a password or an
authentication method refused, no pg_hba.conf line for us, SSL required of a server without it. libpq gives a failed connection no SQLSTATE (psycopg's error has none): its FATAL line is all
there is to read, in the English of libpq's and PostgreSQL's default messages. A refusal said otherwise (another
language's lc_messages) counts as passing, as every refusal did (play-test pt26 F7: `.../nodb` was exit 1, which
the unit restarts every 5 s for ever, instead of 3, which waits for the admin)."""


def _passing(error: Exception) -> bool:
    """Whether a failed connection is a state that passes: no server there (libpq's own failure), or one starting
    up or shutting down (class 57P), or out of connections (53300); not a refusal that stays until the settings
    change (LASTING: a password, a database that does not exist)."""
    state = getattr(error, "sqlstate", None)
    if state is None:
        text = str(error)
        return not any(lasting in text for lasting in LASTING)
    return state.startswith("57P") or state == "53300"


def _first_line(error: Exception) -> str:
    """psycopg's message without its multi-line detail (the log is one line an event)."""
    return str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
