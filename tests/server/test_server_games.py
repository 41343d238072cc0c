"""The finished public games a server keeps (docs/protocol.md `list_games`): play-test pt27 F11, a player who had
not noted his game's table could not find it again (only the host's `dt-server records` listed them)."""

from dungeon_twister.protocol import (CreateTable, GameInfo, GameOver, Games, Join, Leave, ListGames, TableCreated,
                                      TableOptions)

from test_server_prison import play_out
from test_server_support import Client, running_server, seated_pair


async def test_the_finished_public_games_are_listed_last_finished_first_a_page_at_a_time(autojump_clock):
    async with running_server(seeds=(4, 5, 6)) as server:
        played, blue, yellow = await seated_pair(server, TableOptions(scenario="prison-1"))
        over = (await play_out(played, blue, yellow))["B"]
        result = over.result if isinstance(over, GameOver) else None
        assert result is not None and result["winner"] in ("B", "Y")
        # a private table's game (left during the team choice: aborted) is its players' alone: not listed
        cy = await Client.connect(server, "cy")
        await cy.send(CreateTable(TableOptions(private=True)))
        created = await cy.expect(TableCreated)
        await cy.send(Join(created.table, "B", created.join_code))
        dee = await Client.connect(server, "dee")
        await dee.send(Join(created.table, "Y", created.join_code))
        for player in (cy, dee):
            await player.expect_event("game_started")
        await cy.send(Leave())
        await dee.expect(GameOver)
        aborted, eve, fay = await seated_pair(server, TableOptions(), names=("eve", "fay"))
        await eve.send(Leave())
        await fay.expect(GameOver)

        watcher = await Client.connect(server, "gil")
        await watcher.send(ListGames())
        page = await watcher.expect(Games)
        assert page.total == 2 and [game.table for game in page.games] == [aborted, played] and page.offset == 0
        first, second = page.games
        assert (first.reason, first.winner, first.vp_blue, first.vp_yellow, first.blue, first.yellow) == (
            "aborted", None, 0, 0, "eve", "fay")
        assert second == GameInfo(played, TableOptions(scenario="prison-1"), second.finished, result["reason"],
                                  result["vp"]["B"], result["vp"]["Y"], result["winner"], "ann", "bob")
        assert first.finished >= second.finished > 0
        await watcher.send(ListGames(offset=1, limit=1))
        assert (await watcher.expect(Games)) == Games((second,), 2, offset=1)  # (the question's: which page came)
        await watcher.send(ListGames(offset=2))
        assert (await watcher.expect(Games)) == Games((), 2, offset=2)


def test_the_store_reads_the_finished_games_through_an_index():
    """A store keeps every game: the list reads the last finished by the index tables_over, not by a scan of them
    all (SQLite's plan; PostgreSQL's store makes the same index, tests/server/test_server_postgres.py)."""
    from dungeon_twister.server.storage import SqliteStorage

    store = SqliteStorage()
    for query in ("SELECT id FROM tables WHERE status = 'over' AND join_code IS NULL ORDER BY finished DESC LIMIT 20",
                  "SELECT count(*) FROM tables WHERE status = 'over' AND join_code IS NULL"):
        plan = " ".join(str(row) for row in store._db.execute("EXPLAIN QUERY PLAN " + query))
        assert "tables_over" in plan and "TEMP B-TREE" not in plan, plan  # (no sort of them all either)


def test_a_stored_game_this_version_cannot_show_costs_its_line_not_the_page():
    """Review rv27: `TableOptions(**options)` of a row written by a newer dt-server (an option this one lacks) raised
    out of the lobby's handler and ended the asking connection, every time anyone asked for that page; a value out
    of the protocol's range failed the answer's encoding, and the client got nothing. Such a row is left out."""
    from dungeon_twister.server.records import game_info
    from dungeon_twister.server.storage import StoredTable

    def stored(options: dict) -> StoredTable:
        table = StoredTable("t1-aaaa0001", 1, options, 1, None, None, 1000.0)
        table.result, table.finished = {"winner": "Y", "vp": {"B": 1, "Y": 5}, "reason": "target reached"}, 2000.5
        table.seats = {"B": ("ann", None), "Y": ("x" * 40, None)}  # (a name longer than the protocol's: left out)
        return table

    assert game_info(stored({"newer_option": True})) is None
    assert game_info(stored({"target_vp": 9})) is None
    assert game_info(stored({"target_vp": 6})) == GameInfo("t1-aaaa0001", TableOptions(target_vp=6), 2000,
                                                           "target reached", 1, 5, "Y", "ann", None)
