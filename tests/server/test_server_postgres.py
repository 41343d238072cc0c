"""The PostgreSQL store (server/storage_postgres.py) serves the `Storage` interface as the SQLite store does: the
same calls give the same answers (the SQLite store is the reference, and the answers are checked for themselves
too), transactions commit and roll back alike, one dt-server owns a database, a newer schema is refused, and a
connection PostgreSQL dropped between two steps is made again. The whole server on it, killed with -9 and
restarted: tests/server/test_server_restart.py (parametrized by store). The fixtures: conftest.py."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from dungeon_twister.server.config import ServerConfig, config_from_mapping
from dungeon_twister.server.storage import (EXIT_STORE_UNREACHABLE, EXIT_STORE_UNUSABLE, SqliteStorage, StorageError,
                                            StoredTable, StoreUnreachable)
from dungeon_twister.server.storage_postgres import PostgresStorage, shown_url
from dungeon_twister.server.stores import open_configured


def fill(store) -> None:
    """A store's life in a few calls: two tables (one finished), seats, tokens, journal lines, ratings, a bound
    name; an action id with LIKE's wildcards and a backslash in it."""
    with store.transaction():
        store.add_table(StoredTable("t1-aaaa0001", 1, {"beginner": True}, 42, "ann", None, 1000.0, "ab" * 16))
        store.set_seat("t1-aaaa0001", "B", "ann", None)
        store.set_seat("t1-aaaa0001", "Y", "greedy-bot-7", "greedy")
        store.set_seat("t1-aaaa0001", "Y", "greedy-bot-9", "greedy")  # a seat taken again replaces the row
        store.add_token("d1", "t1-aaaa0001", "B", "ann")
        store.add_token("d2", "t1-aaaa0001", None, "spec")
        store.add_line("t1-aaaa0001", "# commit B team 00ff", {"k": "commit"})
        store.add_line("t1-aaaa0001", "B: move bWA a1", {"k": "action", "id": "B-1", "typed": "bWA a1"})
        store.add_line("t1-aaaa0001", "B: end", {"k": "action", "id": 'x%_\\"1', "typed": "END"})
        store.add_line("t1-aaaa0001", "# plain", None)
        store.reserve_events("t1-aaaa0001", 17)
    store.add_table(StoredTable("t2-bbbb0002", 2, {}, 7, None, "CODE", 1001.0))
    store.set_seat("t2-bbbb0002", "B", "bob", None)
    store.free_seat("t2-bbbb0002", "B")
    store.finish("t2-bbbb0002", {"winner": "Y", "vp": {"B": 0, "Y": 5}, "reason": "vp"}, "final position")
    store.set_rating("Bob", 1500.0, 350.0, 0.06, 0)
    store.set_rating("bob", 1612.5, 200.0, 0.06, 1)  # the same player: his name folds alike
    store.set_rating("ann", 1612.5, 210.0, 0.06, 1)  # a tie on rating: ordered by the folded name
    store.set_rating("cy", 1400.0, 300.0, 0.06, 2)
    store.bind("Ann", b"\x00key-one\xff")
    store.bind("ANN", b"key-two")  # once and for good
    store.set_kept("t1-aaaa0001", {"reserved": {"Y": "bob"}, "bot": None, "until": 2000.5})  # (session 31)
    store.set_kept("t2-bbbb0002", {"reserved": {"B": "x"}, "bot": None, "until": 1.0})
    store.set_kept("t2-bbbb0002", {"offers": ["B"]})  # replaces it
    store.set_kick("Dan", 1e12)
    store.set_kick("eve", 5.0)  # run out by `kicks(1000.0)`
    store.set_kick("fay", 1e12)
    store.set_kick("FAY", None)  # lifted


def answers(store) -> dict:
    """Everything the interface reads back."""
    full = store.table("t1-aaaa0001")
    return {
        "numbers": store.numbers(), "open": [t.id for t in store.open_tables()],
        "tables": [(t.id, t.number, t.status, t.seed, t.seed_nonce, t.join_code, t.events, t.result, t.final)
                   for t in store.tables()],
        "seats": full.seats, "tokens": sorted(full.tokens), "journal": full.journal, "events": full.events,
        "options": full.options, "answered": [store.answered("t1-aaaa0001", "B", i) for i in
                                              ("B-1", 'x%_\\"1', "x__\\\"1", "b-1", "B-2")],
        "answered_y": store.answered("t1-aaaa0001", "Y", "B-1"),
        "numbered": store.table_numbered(2).id, "named": [getattr(store.table_named(w), "id", None)
                                                          for w in ("t2-bbbb0002", "2", "t1", "T02", "3", "x")],
        "rating": store.rating("BOB"), "none": store.rating("dan"), "leaders": store.leaderboard(2),
        "identity": store.identity("aNN"), "unbound": store.identity("bob"),
        "kept": [t.kept for t in store.open_tables()], "offered": [(t.id, t.kept) for t in store.offered_tables()],
        "kicks": store.kicks(1000.0),
    }


def test_the_postgresql_store_answers_as_the_sqlite_store_does(postgres_url):
    reference, store = SqliteStorage(":memory:"), PostgresStorage(postgres_url)
    try:
        fill(reference)
        fill(store)
        expected, got = answers(reference), answers(store)
        assert got == expected
        # and the answers are the right ones, not only the same
        assert got["numbers"] == (2, 9) and got["open"] == ["t1-aaaa0001"]
        assert got["seats"] == {"B": ("ann", None), "Y": ("greedy-bot-9", "greedy")}
        assert got["tokens"] == [("d1", "B", "ann"), ("d2", None, "spec")] and got["events"] == 17
        assert got["journal"][1] == ("B: move bWA a1", {"k": "action", "id": "B-1", "typed": "bWA a1"})
        assert got["journal"][3] == ("# plain", None)
        assert got["answered"] == ["bWA a1", "END", None, None, None] and got["answered_y"] is None
        assert got["tables"][0][3:5] == (42, "ab" * 16) and got["tables"][1][2] == "over"
        assert got["named"] == ["t2-bbbb0002", "t2-bbbb0002", "t1-aaaa0001", "t2-bbbb0002", None, None]
        assert got["rating"] == (1612.5, 200.0, 0.06, 1) and got["none"] is None
        assert got["leaders"] == [("ann", 1612.5, 210.0, 1), ("bob", 1612.5, 200.0, 1)]
        assert got["identity"] == ("Ann", b"\x00key-one\xff") and got["unbound"] is None
        assert got["kept"] == [{"reserved": {"Y": "bob"}, "bot": None, "until": 2000.5}]
        assert got["offered"] == [("t2-bbbb0002", {"offers": ["B"]})]
        assert got["kicks"] == [("Dan", 1e12)]
        store.close_table("t1-aaaa0001")
        assert store.open_tables() == [] and store.table("t1-aaaa0001").tokens == []
        assert store._read("SELECT table_id FROM kept") == [("t2-bbbb0002",)]  # (closed: its kept seats go)
        assert store.table("t1-aaaa0001").status == "closed"
        for each in (reference, store):  # a table closed before its game began is forgotten; a game played is not
            each.close_table("t1-aaaa0001")
            each.forget_unplayed("t1-aaaa0001")  # (journaled)
            each.forget_unplayed("t2-bbbb0002")  # (over)
            each.add_table(StoredTable("t3-cccc0003", 3, {}, 9, "cy", None, 1002.0, "cd" * 16))
            each.set_seat("t3-cccc0003", "B", "cy", None)
            each.forget_unplayed("t3-cccc0003")  # (open: not yet)
            each.close_table("t3-cccc0003")
            each.forget_unplayed("t3-cccc0003")
            assert [(t.id, t.status) for t in each.tables()] == [("t1-aaaa0001", "closed"), ("t2-bbbb0002", "over")]
            assert each.table_named("3") is None
    finally:
        reference.close()
        store.close()


def test_the_finished_public_games_are_read_alike_and_through_an_index(postgres_url):
    """`finished_games` (list_games, session 27): the games over and public, the last finished first, with their
    seats, a page at a time, the same on both stores; PostgreSQL's store has made the index tables_over."""
    reference, store = SqliteStorage(":memory:"), PostgresStorage(postgres_url)
    try:
        for each in (reference, store):
            fill(each)  # (t2 is over and private: not listed)
            for number, finished in ((3, 2000.0), (4, 3000.0), (5, 2500.0)):
                table = f"t{number}-cccc000{number}"
                each.add_table(StoredTable(table, number, {"target_vp": 6}, 9, "cy", None, 1002.0, "cd" * 16))
                each.set_seat(table, "B", "cy", None)
                each.set_seat(table, "Y", "planner-bot-1", "planner")
                each.finish(table, {"winner": "B", "vp": {"B": 6, "Y": number}, "reason": "target"}, "final")
                with each.transaction():  # (finish stamps the time: set apart here to order them)
                    each._write("UPDATE tables SET finished = ? WHERE id = ?", (finished, table))
        pages = [[(t.id, t.options, t.finished, t.result, t.seats) for t in each.finished_games(1, 2)[0]]
                 + [each.finished_games(0, 50)[1]] for each in (reference, store)]
        assert pages[0] == pages[1]
        assert pages[1] == [("t5-cccc0005", {"target_vp": 6}, 2500.0, {"winner": "B", "vp": {"B": 6, "Y": 5},
                                                                         "reason": "target"},
                             {"B": ("cy", None), "Y": ("planner-bot-1", "planner")}),
                            ("t3-cccc0003", {"target_vp": 6}, 2000.0, {"winner": "B", "vp": {"B": 6, "Y": 3},
                                                                         "reason": "target"},
                             {"B": ("cy", None), "Y": ("planner-bot-1", "planner")}),
                            3]
        assert store._read("SELECT count(*) FROM pg_indexes WHERE indexname = 'tables_over'", ())[0][0] == 1
    finally:
        reference.close()
        store.close()


def test_a_step_commits_when_its_transaction_ends_and_not_at_all_if_it_raises(postgres_url):
    """Durable before acknowledged (storage.py): another session sees a step's lines once its transaction ended;
    `commit_now` makes what was written so far durable; a step that raises leaves nothing."""
    store = PostgresStorage(postgres_url)
    reader = PostgresStorage(postgres_url, readonly=True)
    try:
        store.add_table(StoredTable("t1-aaaa0001", 1, {}, 1, None, None, 1.0))
        with store.transaction():
            store.add_line("t1-aaaa0001", "B: a", {"k": "action", "id": "1", "typed": "a"})
            assert reader.table("t1-aaaa0001").journal == []
            store.commit_now()
            assert len(reader.table("t1-aaaa0001").journal) == 1
            store.add_line("t1-aaaa0001", "B: b", {"k": "action", "id": "2", "typed": "b"})
            assert len(reader.table("t1-aaaa0001").journal) == 1
        assert [line for line, _ in reader.table("t1-aaaa0001").journal] == ["B: a", "B: b"]
        with pytest.raises(ZeroDivisionError):
            with store.transaction():
                store.add_line("t1-aaaa0001", "B: c", None)
                1 / 0
        assert [line for line, _ in store.table("t1-aaaa0001").journal] == ["B: a", "B: b"]
        with pytest.raises(StorageError, match="duplicate key"):  # a failed statement: the step's error
            store.add_table(StoredTable("t1-aaaa0001", 1, {}, 1, None, None, 1.0))
    finally:
        store.close()
        reader.close()


def test_one_dt_server_owns_a_database_and_a_newer_schema_is_refused(postgres_url, postgres_cluster):
    import psycopg

    first = PostgresStorage(postgres_url)
    try:
        with pytest.raises(StorageError, match="another dt-server uses this database"):
            PostgresStorage(postgres_url)
        PostgresStorage(postgres_url, readonly=True).close()  # `dt-server records` reads beside a running server
    finally:
        first.close()
    PostgresStorage(postgres_url).close()  # the lock went with the first one's session
    with psycopg.connect(postgres_url, autocommit=True) as db:
        db.execute("UPDATE dt_schema SET version = version + 1")
    with pytest.raises(StorageError, match=r"written by a newer dt-server \(schema 3"):
        PostgresStorage(postgres_url)
    sockets, _ = postgres_cluster
    with pytest.raises(StorageError, match="no dt-server store in this database"):
        PostgresStorage(f"postgresql:///postgres?host={sockets}&user=dt", readonly=True)


def test_a_database_with_another_programs_tables_is_refused_not_shared(postgres_url):
    import psycopg

    with psycopg.connect(postgres_url, autocommit=True) as db:
        db.execute("CREATE TABLE tables (x INTEGER)")
    with pytest.raises(StorageError, match='relation "tables" already exists'):
        PostgresStorage(postgres_url)


@pytest.mark.parametrize("name", ["kept", "kicks"])
def test_a_new_store_refuses_another_programs_table_of_a_session_31_name_too(postgres_url, name):
    """`kept` and `kicks` (session 31) are made `IF NOT EXISTS` for an older store; a new store makes them as the
    others, so a database where another program has a table of that name is refused, not shared (deploy/README.md
    "a database that already has a table of one of those names is refused": review rv31, its kicks were written
    into the other program's table, or the start failed on its columns)."""
    import psycopg

    with psycopg.connect(postgres_url, autocommit=True) as db:
        db.execute(f"CREATE TABLE {name} (x INTEGER)")
    with pytest.raises(StorageError, match=f'relation "{name}" already exists'):
        PostgresStorage(postgres_url)
    with psycopg.connect(postgres_url, autocommit=True) as db:  # (and nothing of the store was made beside it)
        assert db.execute("SELECT to_regclass('dt_schema') IS NULL").fetchone()[0]


@pytest.mark.parametrize("name", ["kept", "kicks"])
def test_an_older_store_refuses_another_programs_table_of_a_session_31_name(postgres_url, name):
    """An older store (made before session 31) gets `kept` and `kicks` `IF NOT EXISTS`, which adopted a table of
    that name another program had made in the database meanwhile: the kicks or kept seats went into it, or a
    later statement failed on its columns (review rv31). Its columns are checked, as a new store's creation is
    refused by such a table. Its edge: an older store without the tables gets them and opens."""
    import psycopg

    PostgresStorage(postgres_url).close()
    with psycopg.connect(postgres_url, autocommit=True) as db:  # (a store older than session 31: neither table)
        db.execute("DROP TABLE kept")
        db.execute("DROP TABLE kicks")
    PostgresStorage(postgres_url).close()  # the edge: both made
    with psycopg.connect(postgres_url, autocommit=True) as db:
        db.execute(f"DROP TABLE {name}")
        db.execute(f"CREATE TABLE {name} (x INTEGER)")  # another program's
    with pytest.raises(StorageError, match=f"the table {name} is not dt-server's"):
        PostgresStorage(postgres_url)


def test_a_connection_postgresql_dropped_between_two_steps_is_made_again(postgres_url):
    """A restart of PostgreSQL or a network cut between two steps: the next step connects again (and takes the
    lock again), so the tables go on; what is repeated on the new connection is only what is safe to repeat (a
    read, a step's BEGIN). A write is never repeated (it may have been committed before the cut): a lone write is
    a transaction of its own, whose BEGIN finds the connection gone (it failed, and its session with it: a table
    created after a restart of PostgreSQL, found by hand in review rv24); a step under way that finds it gone
    fails, and its table is restored at the next start (the server's storage_failed path)."""
    import psycopg

    def cut(store) -> int:
        pid = store._db.info.backend_pid
        with psycopg.connect(postgres_url, autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
        return pid

    store = PostgresStorage(postgres_url)
    try:
        store.add_table(StoredTable("t1-aaaa0001", 1, {}, 1, None, None, 1.0))
        first = cut(store)
        with store.transaction():  # a table's step: its BEGIN finds the connection gone, and connects again
            store.add_line("t1-aaaa0001", "B: a", None)
        assert store._db.info.backend_pid != first
        cut(store)
        assert [line for line, _ in store.table("t1-aaaa0001").journal] == ["B: a"]  # a read, again
        cut(store)
        store.add_line("t1-aaaa0001", "B: b", None)  # a lone write: its own BEGIN connects again
        cut(store)
        store.add_table(StoredTable("t2-bbbb0002", 2, {}, 1, None, None, 2.0))  # (a table created in the lobby)
        store.add_line("t1-aaaa0001", "B: c", None)
        with pytest.raises(StorageError):  # cut within a step: the step fails, nothing of it is kept
            with store.transaction():
                store.add_line("t1-aaaa0001", "B: d", None)
                cut(store)
                store.add_line("t1-aaaa0001", "B: e", None)
        assert [line for line, _ in store.table("t1-aaaa0001").journal] == ["B: a", "B: b", "B: c"]  # once each
        assert [table.id for table in store.tables()] == ["t1-aaaa0001", "t2-bbbb0002"]
        with pytest.raises(StorageError, match="another dt-server uses this database"):
            PostgresStorage(postgres_url)  # the new session holds the lock
    finally:
        store.close()


def test_a_connection_made_again_is_logged_and_waits_for_others_locks_5_s_at_most(postgres_url, caplog):
    """Review rv24: the log said nothing of a database that went away and came back (`store_reconnected` now, with
    the URL as shown); and an admin's lock on the store's tables (ALTER TABLE, LOCK, VACUUM FULL) would have held
    the server's one thread without limit: each connection, the remade one too, waits 5 s at most for a lock."""
    import logging

    import psycopg

    caplog.set_level(logging.INFO, logger="dungeon_twister.server")
    store = PostgresStorage(postgres_url)
    try:
        assert store._db.execute("SHOW lock_timeout").fetchone()[0] == "5s"
        with psycopg.connect(postgres_url, autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", (store._db.info.backend_pid,))
        assert store.tables() == []  # a read, on a connection made again
        logged = [record for record in caplog.records if record.getMessage() == "store_reconnected"]
        assert len(logged) == 1 and logged[0].fields["store"] == store.location
        assert store._db.execute("SHOW lock_timeout").fetchone()[0] == "5s"
    finally:
        store.close()


def test_the_setting_database_picks_the_postgresql_store_and_hides_its_password(postgres_url, tmp_path):
    store = open_configured(ServerConfig(data_dir=tmp_path, database=postgres_url))
    try:
        assert isinstance(store, PostgresStorage) and not (tmp_path / "dt-server.sqlite3").exists()
    finally:
        store.close()
    assert isinstance(open_configured(ServerConfig(data_dir=None)), SqliteStorage)
    assert config_from_mapping({"database": "postgresql://dt@db.example/games"}).database
    with pytest.raises(ValueError, match="database must be a PostgreSQL URL"):
        config_from_mapping({"database": "/var/lib/dt-server"})
    assert shown_url("postgresql://dt:s3cret@db.example:5433/games") == "postgresql://dt:***@db.example:5433/games"
    with pytest.raises(StorageError) as refused:
        PostgresStorage("postgresql://dt:s3cret@127.0.0.1:1/games?connect_timeout=2")
    assert "s3cret" not in str(refused.value) and "dt:***@127.0.0.1:1" in str(refused.value)
    # libpq takes a password in the query too (review rv24: it was logged and told as it was)
    assert shown_url("postgresql:///games?host=/run/pg&password=s3cret&user=dt") == \
        "postgresql:///games?host=/run/pg&password=***&user=dt"
    assert shown_url("postgresql://dt@db/games?sslpassword=k3y") == "postgresql://dt@db/games?sslpassword=***"
    assert shown_url("postgresql://dt@db/games?xpassword=1") == "postgresql://dt@db/games?xpassword=1"
    with pytest.raises(StorageError) as refused:
        PostgresStorage("postgresql://dt@127.0.0.1:1/games?connect_timeout=2&password=s3cret")
    assert "s3cret" not in str(refused.value) and "password=***" in str(refused.value)


def test_a_database_server_out_of_reach_at_the_start_is_a_state_that_passes_not_an_unusable_store(postgres_url,
                                                                                                   tmp_path):
    """Review rv24: dt-server started while its PostgreSQL was not (yet) running exited 3, "the data store cannot be
    used", which deploy/dt-server.service does not restart (RestartPreventExitStatus): after a reboot that
    started dt-server before PostgreSQL, or while the database's machine was out of reach, it stayed down for
    good. A database server out of reach is exit status 1 (restarted a few seconds later); what stays wrong
    until the admin acts (another dt-server on the database, a newer schema) is still 3."""
    from test_server_support import REAL_TIME_HANG_GUARD

    nowhere = f"postgresql:///games?host={tmp_path}&user=dt"  # (no PostgreSQL listens in an empty directory)
    with pytest.raises(StoreUnreachable):
        PostgresStorage(nowhere)

    def start(url: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "dungeon_twister.server", "--host", "127.0.0.1", "--port", "0",
                               "--data", str(tmp_path / "data"), "--database", url], capture_output=True, text=True,
                              timeout=REAL_TIME_HANG_GUARD)

    result = start(nowhere)
    assert (result.returncode, result.stdout) == (EXIT_STORE_UNREACHABLE, "")
    assert "cannot be reached" in result.stderr
    # play-test pt26 F7: a database or a role that does not exist stays so until the admin acts (exit 3, which the
    # unit does not restart), where they were exit 1 (restarted every 5 s for ever)
    cluster = postgres_url.split("?", 1)[1]
    for wrong, said in ((f"postgresql:///nodb?{cluster}", 'database "nodb" does not exist'),
                        (f"postgresql:///postgres?{cluster.replace('user=dt', 'user=nobodyhere')}",
                         'role "nobodyhere" does not exist')):
        with pytest.raises(StorageError) as refused:
            PostgresStorage(wrong)
        assert not isinstance(refused.value, StoreUnreachable) and said in str(refused.value)
        result = start(wrong)
        assert result.returncode == EXIT_STORE_UNUSABLE and "cannot be used" in result.stderr and said in result.stderr
    store = PostgresStorage(postgres_url)
    try:
        result = start(postgres_url)
        assert result.returncode == EXIT_STORE_UNUSABLE and "another dt-server uses this database" in result.stderr
    finally:
        store.close()
    assert EXIT_STORE_UNREACHABLE != EXIT_STORE_UNUSABLE


def test_a_role_that_may_not_log_in_or_connect_is_an_unusable_store_too(postgres_url, postgres_cluster):
    """Review rv26 (after pt26 F7): a role without LOGIN and a database the role has no CONNECT privilege on stay
    so until the admin acts, as a role that does not exist does, but their FATAL lines ('is not permitted to log
    in', 'permission denied for database') were read as passing: exit 1, restarted every 5 s for ever."""
    import psycopg

    sockets, admin = postgres_cluster
    database = postgres_url.split("///", 1)[1].split("?", 1)[0]
    suffix = f"{os.getpid()}_{database.rsplit('_', 1)[1]}"
    with psycopg.connect(admin, autocommit=True) as db:
        db.execute(f"CREATE ROLE nolog_{suffix} NOLOGIN")
        db.execute(f"CREATE ROLE noconn_{suffix} LOGIN")
        db.execute(f'REVOKE CONNECT ON DATABASE "{database}" FROM PUBLIC')
    for user, said in ((f"nolog_{suffix}", f'role "nolog_{suffix}" is not permitted to log in'),
                       (f"noconn_{suffix}", f'permission denied for database "{database}"')):
        with pytest.raises(StorageError) as refused:
            PostgresStorage(f"postgresql:///{database}?host={sockets}&user={user}")
        assert not isinstance(refused.value, StoreUnreachable) and said in str(refused.value)
    PostgresStorage(postgres_url).close()  # (the owner, dt, still connects: the edge is the privilege, not the base)


def test_a_database_that_does_not_answer_fails_in_seconds_instead_of_freezing_the_server(postgres_url):
    """Review rv24: a statement blocks dt-server's one thread, and libpq waits as long as the kernel does: a
    database machine that takes the TCP connection and never answers (or drops packets) held dt-server for good
    at its start, and a step for minutes, every table frozen. The server's connection has a connect_timeout, a
    tcp_user_timeout and keepalives unless its URL gives its own (kept as given)."""
    import socket

    from test_server_support import REAL_TIME_HANG_GUARD

    silent = socket.create_server(("127.0.0.1", 0))  # takes connections (the kernel's backlog), never answers
    try:
        port = silent.getsockname()[1]
        opened = subprocess.run(
            [sys.executable, "-c", "import sys\nfrom dungeon_twister.server.storage_postgres import PostgresStorage\n"
             "from dungeon_twister.server.storage import StoreUnreachable\n"
             "try:\n    PostgresStorage(sys.argv[1])\nexcept StoreUnreachable as error:\n    print(error)",
             f"postgresql://dt@127.0.0.1:{port}/games"], capture_output=True, text=True, timeout=REAL_TIME_HANG_GUARD)
    finally:
        silent.close()
    assert opened.returncode == 0 and "timeout" in opened.stdout, (opened.stdout, opened.stderr)
    store = PostgresStorage(postgres_url)
    try:
        parameters = store._db.info.get_parameters()
        assert parameters["connect_timeout"] == "5" and parameters["tcp_user_timeout"] == "15000"
    finally:
        store.close()
    store = PostgresStorage(postgres_url + "&connect_timeout=9")
    try:
        assert store._db.info.get_parameters()["connect_timeout"] == "9"
    finally:
        store.close()


def test_a_store_closed_lets_the_next_dt_server_in_at_once(postgres_url):
    """A clean-clone CI run: a store opened right after another was closed was refused "another dt-server uses this
    database" (the advisory lock went only when PostgreSQL ended the closed session's backend, after the close).
    A restart's new dt-server is that case: the lock is now released before the connection closes."""
    import psycopg

    from dungeon_twister.server.storage_postgres import LOCK_KEY

    store, held = PostgresStorage(postgres_url), []
    closing = store._db.close

    def close_after_looking() -> None:  # what another session sees the moment the connection goes
        with psycopg.connect(postgres_url, autocommit=True) as other:
            held.append(other.execute("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND objid = %s",
                                      (LOCK_KEY,)).fetchone()[0])
        closing()

    store._db.close = close_after_looking
    store.close()
    assert held == [0], "released before the connection closes"
    for _ in range(30):  # (the race itself: a store opened the moment the last one closed)
        PostgresStorage(postgres_url).close()


def test_without_psycopg_the_hint_installs_it_not_a_package_of_the_projects_name(monkeypatch):
    """adm33: without psycopg, the error said `pip install 'dungeon-twister-online[postgres]'`, a name pip looks up
    on a package index, while deploy/README.md installs the project from a checkout: an admin who followed the hint
    would install whatever goes by that name there, or nothing. It names psycopg itself, and the checkout's extra
    by its path (no PostgreSQL needed: the import fails first)."""
    monkeypatch.setitem(sys.modules, "psycopg", None)  # (import psycopg raises ImportError)
    with pytest.raises(StorageError) as error:
        PostgresStorage("postgresql://dt@localhost/nothing")
    said = str(error.value)
    assert "pip install 'psycopg>=3.1'" in said and "/path/to/dungeon-twister-online[postgres]" in said
    assert "'dungeon-twister-online[" not in said
