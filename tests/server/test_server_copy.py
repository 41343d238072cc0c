"""`dt-server copy FROM TO` (server/app.py `copy`, storage.copy_store): a whole store into a new one, from a data
directory's SQLite file to PostgreSQL or back (play-test pt26 F4: a club that began on SQLite could not move to
PostgreSQL without losing its ratings, its players' names, its finished and unfinished games). The copy answers
every call of the Storage interface as the original does, numbers its journal's next line after the copied ones,
refuses a target that holds anything and a source a running server holds, and a game cut off by the move goes on
on the copy."""

from __future__ import annotations

import pytest
import trio
from dungeon_twister.protocol import Joined, Snapshot, TableOptions
from dungeon_twister.server.app import main
from dungeon_twister.server.storage import (DATABASE_NAME, EXIT_STORE_UNUSABLE, SqliteStorage, StorageError,
                                            copy_store, open_storage)
from dungeon_twister.server.storage_postgres import PostgresStorage

from test_server_durable import resume_info, server_on, synced
from test_server_postgres import answers, fill
from test_server_resume import play_until
from test_server_support import REAL_TIME_HANG_GUARD, Client, Scripted, seated_pair


def next_line_number(store) -> int:
    """The number the store gives the next journal line (one written, read back, and rolled back)."""
    try:
        with store.transaction():
            store.add_line("t1-aaaa0001", "# probe", None)
            number = store._read("SELECT MAX(id) FROM journal")[0][0]
            raise LookupError
    except LookupError:
        return number


def filled_directory(path, filler=fill) -> None:
    """A data directory's store made at `path` and filled by `filler` (by default `fill`)."""
    store = open_storage(path)
    try:
        filler(store)
    finally:
        store.close()


def test_a_data_directory_copied_by_the_command_answers_as_the_original(tmp_path, capsys):
    filled_directory(tmp_path / "old")
    main(["copy", str(tmp_path / "old"), str(tmp_path / "new")])
    out = capsys.readouterr().out
    # fill's rows: 2 tables, 3 seats (one taken again, one freed), 4 journal lines, 2 tokens, 3 ratings (Bob and
    # bob are one), 1 identity (ANN could not take Ann's name)
    # (each count agrees with its noun: "1 identity", not "1 identities")
    assert out.splitlines()[0].endswith(": 2 tables, 2 seats, 4 journal lines, 2 resume tokens, 3 ratings, "
                                        "1 identity")
    assert f'data_dir = "{tmp_path / "new"}"' in out
    old, new = SqliteStorage(tmp_path / "old" / DATABASE_NAME), SqliteStorage(tmp_path / "new" / DATABASE_NAME)
    try:
        assert answers(new) == answers(old)
        assert next_line_number(new) == next_line_number(old) == 5
    finally:
        old.close()
        new.close()


def test_a_copy_into_a_store_that_holds_anything_is_refused_and_writes_nothing(tmp_path, capsys):
    filled_directory(tmp_path / "old")
    target = open_storage(tmp_path / "new")
    target.set_rating("dan", 1500.0, 350.0, 0.06, 0)  # one row is enough: stores are never merged
    target.close()
    with pytest.raises(SystemExit) as exit:
        main(["copy", str(tmp_path / "old"), str(tmp_path / "new")])
    assert exit.value.code == EXIT_STORE_UNUSABLE
    assert capsys.readouterr().err.strip().endswith("already holds a store (1 row of ratings): copy into a new one "
                                                          "only")
    target = open_storage(tmp_path / "new")
    try:
        assert target.tables() == [] and target.rating("ann") is None and target.rating("dan") is not None
    finally:
        target.close()


def test_a_missing_source_and_one_a_running_server_holds_are_refused(tmp_path, capsys):
    with pytest.raises(SystemExit) as exit:
        main(["copy", str(tmp_path / "nothing"), str(tmp_path / "new")])
    assert exit.value.code == EXIT_STORE_UNUSABLE
    assert f"{tmp_path / 'nothing'}: no dt-server store here ({DATABASE_NAME})" in capsys.readouterr().err
    assert not (tmp_path / "new").exists(), "the target is not made for a source that is not there"
    filled_directory(tmp_path / "old")
    running = open_storage(tmp_path / "old")  # as a server holds it
    try:
        with pytest.raises(SystemExit) as exit:
            main(["copy", str(tmp_path / "old"), str(tmp_path / "new")])
        assert exit.value.code == EXIT_STORE_UNUSABLE
        assert "another dt-server" in capsys.readouterr().err
    finally:
        running.close()


def test_a_store_copied_to_postgresql_and_back_answers_as_the_original(tmp_path, postgres_url, capsys):
    filled_directory(tmp_path / "old")
    main(["copy", str(tmp_path / "old"), postgres_url + "&password=s3cret"])  # (trust: any password does)
    out = capsys.readouterr().out
    assert f'database = "{postgres_url}&password=***"' in out and "s3cret" not in out
    old, copied = SqliteStorage(tmp_path / "old" / DATABASE_NAME), PostgresStorage(postgres_url)
    try:
        assert answers(copied) == answers(old)
        # BIGSERIAL's sequence moved past the copied lines: the next is 5, not 1 (a duplicate key)
        assert next_line_number(copied) == 5
    finally:
        old.close()
        copied.close()
    main(["copy", postgres_url, str(tmp_path / "back")])
    old, back = SqliteStorage(tmp_path / "old" / DATABASE_NAME), SqliteStorage(tmp_path / "back" / DATABASE_NAME)
    try:
        assert answers(back) == answers(old)
    finally:
        old.close()
        back.close()
    again = PostgresStorage(postgres_url)
    source = open_storage(tmp_path / "back2")
    try:
        with pytest.raises(StorageError, match="already holds a store"):
            copy_store(source, again)
    finally:
        again.close()
        source.close()


async def test_a_game_under_way_goes_on_on_the_copy(tmp_path):
    """The admin's move: stop the server, copy its store, start it on the copy. The players come back to their
    seats with their tokens and play on from where they were."""
    with trio.fail_after(REAL_TIME_HANG_GUARD):
        async with server_on(tmp_path / "old") as server:
            table, blue, yellow = await seated_pair(server, TableOptions(beginner=True))
            players = {"B": Scripted(blue, "B", 1), "Y": Scripted(yellow, "Y", 2)}
            await play_until(table, players, lambda v: v["turn"] >= 2, first=True)
            await synced(blue)
            await synced(yellow)
            resume = {"B": resume_info(blue, table), "Y": resume_info(yellow, table)}
            played = (blue.view["turn"], blue.view["phase"], blue.view["tokens"])
        main(["copy", str(tmp_path / "old"), str(tmp_path / "new")])
        async with server_on(tmp_path / "new") as server:
            assert server.lobby.tables[table].status == "playing"
            for seat, name in (("B", "ann"), ("Y", "bob")):
                client = await Client.connect(server, name, resume=resume[seat])
                joined = await client.expect(Joined)
                assert (joined.table, joined.seat) == (table, seat)
                snapshot = await client.expect(Snapshot)
                if seat == "B":  # where the game stood: its turn, its phase, every token where it was
                    assert (snapshot.view["turn"], snapshot.view["phase"], snapshot.view["tokens"]) == played
                    assert played[0] >= 2
