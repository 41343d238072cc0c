"""Feature "table_updates" (docs/protocol.md section 15): a client in the lobby that asked for it sees tables
appear, fill and vanish without asking for the list again; one that did not ask gets nothing new."""

import trio
from dungeon_twister.protocol import (CreateTable, Join, Joined, Leave, Left, ListTables, PlayerConnection,
                                      TableClosed, TableCreated, TableOptions, Tables, TableUpdate)
from dungeon_twister.protocol.views import DELTA_VIEWS, TABLE_UPDATES
from dungeon_twister.server.lobby import TABLE_UPDATE_SECONDS

from test_server_support import Client, TaskSteps, running_server


async def updates_after(client: Client, seconds: float) -> list:
    """What the client received over the next `seconds` of the (mock) clock that is a table_update or table_closed
    (the server compares the list every TABLE_UPDATE_SECONDS)."""
    got = []
    with trio.move_on_after(seconds):
        while True:
            event = await client.recv()
            if isinstance(event, (TableUpdate, TableClosed)):
                got.append(event)
    return got


async def test_a_watching_lobby_client_sees_a_table_appear_fill_and_close(autojump_clock):
    async with running_server() as server:
        watcher = await Client.connect(server, "cy", conn=PlayerConnection(features=(DELTA_VIEWS, TABLE_UPDATES)))
        assert watcher.conn.features == {DELTA_VIEWS, TABLE_UPDATES}
        plain = await Client.connect(server, "dan")
        await watcher.send(ListTables())
        assert (await watcher.expect(Tables)).tables == ()
        ann, bob = await Client.connect(server, "ann"), await Client.connect(server, "bob")

        await ann.send(CreateTable(TableOptions()))
        table = (await ann.expect(TableCreated)).table
        await ann.send(Join(table, "B"))
        await ann.expect(Joined)
        (appeared,) = await updates_after(watcher, TABLE_UPDATE_SECONDS * 1.5)
        assert (appeared.info.table, appeared.info.status, appeared.info.blue, appeared.info.yellow) == (
            table, "waiting", "ann", None)

        await bob.send(Join(table))
        await bob.expect(Joined)
        (filled,) = await updates_after(watcher, TABLE_UPDATE_SECONDS * 1.5)
        assert (filled.info.status, filled.info.blue, filled.info.yellow) == ("playing", "ann", "bob")
        assert await updates_after(watcher, TABLE_UPDATE_SECONDS * 3) == [], "nothing changed: nothing sent"

        # the watcher sits down: no more updates while it is at a table
        await watcher.send(CreateTable(TableOptions(private=True)))
        own = (await watcher.expect(TableCreated)).table
        await watcher.send(Join(own, "B", (await watcher.seen(TableCreated)).join_code))
        await watcher.expect(Joined)
        await bob.send(Leave())  # (before the first turn: ann keeps a seat at a new table, srv30)
        await bob.expect(Left)
        kept = (await ann.expect(Joined)).table
        assert await updates_after(watcher, TABLE_UPDATE_SECONDS * 2) == []

        # back in the lobby: the changes follow again, down to the table's end
        await watcher.send(Leave())
        await watcher.expect(Left)
        await ann.send(Leave())
        await ann.expect(Left, lambda left: left.table == kept)
        changes = await updates_after(watcher, server.config.grace_seconds + TABLE_UPDATE_SECONDS * 3)
        assert changes and isinstance(changes[-1], TableClosed) and changes[-1].table == kept
        assert all(not isinstance(change, TableUpdate) or change.info.table == kept for change in changes), \
            "the private table is never listed"
        assert [e for e in plain.received if isinstance(e, (TableUpdate, TableClosed))] == []
        assert await updates_after(plain, TABLE_UPDATE_SECONDS * 2) == [], "without the feature: nothing"


async def test_a_waiting_table_its_last_player_left_closes_at_once_a_new_one_waits_for_its_creator(autojump_clock):
    """Before the game, nobody comes back to a table everyone left: it closes (and leaves the watchers' list) at
    once. A table just created, nobody seated yet, waits EMPTY_TABLE_SECONDS for its creator to sit down."""
    from dungeon_twister.protocol import Error
    from dungeon_twister.server.table import EMPTY_TABLE_SECONDS

    async with running_server() as server:
        watcher = await Client.connect(server, "cy", conn=PlayerConnection(features=(TABLE_UPDATES,)))
        ann = await Client.connect(server, "ann")
        await ann.send(CreateTable(TableOptions()))
        left_alone = (await ann.expect(TableCreated)).table
        await ann.send(Join(left_alone, "B"))
        await ann.expect(Joined)
        (appeared,) = await updates_after(watcher, TABLE_UPDATE_SECONDS * 1.5)
        assert appeared.info.table == left_alone and appeared.info.blue == "ann"
        await ann.send(Leave())
        await ann.expect(Left)
        changes = await updates_after(watcher, TABLE_UPDATE_SECONDS * 2)
        assert isinstance(changes[-1], TableClosed) and changes[-1].table == left_alone
        await ann.send(Join(left_alone, "B"))
        assert (await ann.expect(Error)).code == "no_such_table"

        await ann.send(CreateTable(TableOptions()))
        unseated = (await ann.expect(TableCreated)).table
        await trio.sleep(EMPTY_TABLE_SECONDS - 10)
        assert unseated in server.lobby.tables
        await trio.sleep(20)
        assert unseated not in server.lobby.tables


async def test_a_round_of_table_updates_lets_the_tables_move_between_its_slices(autojump_clock, monkeypatch):
    """A round reads the tables UPDATE_SLICE at a time with a checkpoint between (2,000 tables in one piece were a
    ~10 ms stall every second for every game); every table is still reported, each once."""
    from dungeon_twister.server import lobby as lobby_module

    monkeypatch.setattr(lobby_module, "UPDATE_SLICE", 2)
    steps = TaskSteps("send_table_updates")

    async with running_server() as server:
        watcher = await Client.connect(server, "cy", conn=PlayerConnection(features=(DELTA_VIEWS, TABLE_UPDATES)))
        await watcher.send(ListTables())
        await watcher.expect(Tables)
        creators = [await Client.connect(server, name) for name in ("ann", "bob", "cat", "dan", "eve")]
        for creator in creators:
            await creator.send(CreateTable(TableOptions()))
            table = (await creator.expect(TableCreated)).table
            await creator.send(Join(table, "B"))
            await creator.expect(Joined)
        trio.lowlevel.add_instrument(steps)
        appeared = await updates_after(watcher, TABLE_UPDATE_SECONDS * 1.5)
        assert sorted(u.info.blue for u in appeared) == ["ann", "bob", "cat", "dan", "eve"]
        # one round: its task ran in several steps at one instant of the clock (5 tables, 2 a slice: 3 slices of
        # tables, then the connections and the sending), not in one
        assert steps.most_at_one_instant() >= 3
