"""Keepalive pings (sent by the server's keepalive round, one task for every connection: a reader's wait has no
deadline but for a hello or a frame under way) and what an idle connection costs: one task, no nursery, the
writer only while there is something to write."""

import logging

import trio
import trio.testing
from dungeon_twister.protocol import Error, ListTables, Ping, PlayerConnection, Tables, Welcome
from test_server_support import SOFTWARE, Client, TaskSteps, running_server

INTERVAL = 10.0


async def test_a_silent_client_is_pinged_then_closed_an_interval_later(autojump_clock):
    async with running_server(ping_interval=INTERVAL) as server:
        stream = server.connect_memory()
        conn = PlayerConnection()
        start = trio.current_time()
        await stream.send_all(conn.send_hello("quiet", SOFTWARE))
        got = []
        while (data := await stream.receive_some(65536)) != b"":  # read, never answer
            conn.receive_data(data)
            while (event := conn.next_event()) is not None:
                got.append((type(event), round(trio.current_time() - start, 3)))
        # hello at 0: a ping after one interval, and no answer by the next one closes the connection.
        assert got == [(Welcome, 0), (Ping, INTERVAL), (Error, 2 * INTERVAL)]
        await trio.testing.wait_all_tasks_blocked()
        assert not any(s.name == "quiet" for s in server.sessions)


async def test_a_connection_closed_for_its_keepalive_says_so_in_its_disconnected_line(autojump_clock, caplog):
    """Admin review 21: a client dropped because it did not answer a ping left a `disconnected` line naming no
    reason. It names the keepalive timeout and its seconds (the server's ping_interval) now."""
    caplog.set_level(logging.INFO, logger="dungeon_twister.server")
    async with running_server(ping_interval=INTERVAL) as server:
        stream = await trio.open_tcp_stream("127.0.0.1", server.port)
        await stream.send_all(PlayerConnection().send_hello("quiet", SOFTWARE))
        while await stream.receive_some(65536) != b"":  # read, never answer
            pass
        await trio.testing.wait_all_tasks_blocked()
        (line,) = [record.fields for record in caplog.records if record.getMessage() == "disconnected"]
        assert (line["name"], line["address"], line["reason"], line["seconds"]) == ("quiet", "127.0.0.1",
                                                                                    "keepalive timeout", 10)


async def test_a_client_answering_pings_stays_connected(autojump_clock):
    async with running_server(ping_interval=INTERVAL) as server:
        client = await Client.connect(server, "lively", memory=True)  # recv answers every ping
        with trio.move_on_after(9.5 * INTERVAL):
            while True:
                assert await client.recv() is not None
        assert [type(event) for event in client.received] == [Welcome] + [Ping] * 9
        await client.send(ListTables(limit=1))
        assert (await client.expect(Tables)).total == 0
        assert client.errors() == []


async def test_an_idle_connection_is_one_task_without_a_nursery(autojump_clock):
    """What keeps an idle client small (bench/server.py: memory per idle connection): its session is one task
    of the server's nursery, with no nursery of its own; the writer task ends once the outbox is written."""
    async with running_server(ping_interval=INTERVAL) as server:
        await trio.testing.wait_all_tasks_blocked()
        before = len(server._nursery.child_tasks)
        clients = [await Client.connect(server, f"idle-{i}", memory=True) for i in range(20)]
        await trio.testing.wait_all_tasks_blocked()
        tasks = server._nursery.child_tasks
        assert len(tasks) == before + 20
        assert all(task.child_nurseries == [] for task in tasks if "Session.run" in task.name)
        # A ping starts a writer, which ends once the ping is written; the client answers it.
        for client in clients:
            await client.expect(Ping)
        await trio.testing.wait_all_tasks_blocked()
        assert len(server._nursery.child_tasks) == before + 20
        assert all(not s._writing for s in server.sessions)


async def test_the_keepalive_round_pings_each_connection_on_its_own_time_and_yields_between_slices(
        autojump_clock, monkeypatch):
    """The round that replaced a ping deadline on every read (a heap entry per wait and a cancellation per interval
    each, about 3 points of a core at 2,000 games) keeps each connection's own time, within KEEPALIVE_GATHER:
    connections that came at different times are pinged at different times, not in one burst. Those due together
    are pinged KEEPALIVE_SLICE at a time, with a checkpoint between."""
    from dungeon_twister.server import server as server_module

    monkeypatch.setattr(server_module, "KEEPALIVE_SLICE", 2)
    steps = TaskSteps("_keepalive_round")

    async with running_server(ping_interval=INTERVAL) as server:
        together = [await Client.connect(server, f"idle-{i}", memory=True) for i in range(5)]
        came = trio.current_time()
        await trio.sleep(INTERVAL / 2)
        later = await Client.connect(server, "later", memory=True)
        trio.lowlevel.add_instrument(steps)
        for client in together:
            await client.expect(Ping)
            assert came + INTERVAL <= trio.current_time() <= came + INTERVAL + server_module.KEEPALIVE_GATHER
        assert steps.most_at_one_instant() >= 3  # 5 pings, 2 a slice: 3 steps at one instant, not one
        await later.expect(Ping)
        assert trio.current_time() >= came + 1.5 * INTERVAL, "its own time, half an interval later"
        assert all(client.conn.state.value != "closed" for client in (*together, later))
