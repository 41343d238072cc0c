"""kill -9 at many points, across the game families: a bounded form of chaos31's chaos run (/work/tmp/chaos31/chaos.py
in the session's notes). dt-server runs as a process on a data directory; a Prison game, a game of all sets with
the teams built in secret (PD-TEAM-02) and a Card Game with drafted teams (CG-SEL) are played by scripted players
(their deal contributions too, docs/protocol.md section 16) while a spectator watches the first; the server is
killed (SIGKILL) right after a client has received its Nth action_ok, N drawn from a seeded generator, and
restarted, several times. After each kill: the store passes SQLite's integrity check and every action_ok a client
received is a journal line with that id, in order, once. After each restart every client resumes from its last
numbered event, a commitment the server never got is sent again byte for byte (section 10), and each resumed view
equals the engine's view of the stored record replayed (what a client that never disconnected would hold).

Bounded by event counts (the kills) and by actions (ROUNDS rounds, then the test stops, games finished or not);
hang guard: every receive waits at most REAL_TIME_HANG_GUARD.
"""

import itertools
import random
import signal
import sqlite3
import subprocess
import sys

import pytest
import trio
from dungeon_twister.engine.families import family_for
from dungeon_twister.engine.tools.bots import building
from dungeon_twister.protocol import (Action, ActionOk, Commit, CreateTable, GameOver, Join, Joined, OpponentCommit,
                                      OpponentReveal, PlayerConnection, ProtocolError, ResumeInfo, RevealMismatch,
                                      Snapshot, Spectate, SpectatorConnection, TableCreated, TableEvent, TableOptions,
                                      Welcome)
from dungeon_twister.protocol.views import SEED_CONTRIBUTIONS
from dungeon_twister.server.options import engine_options
from dungeon_twister.server.records import record_text
from dungeon_twister.server.storage import DATABASE_NAME, open_storage
from test_server_support import REAL_TIME_HANG_GUARD, SOFTWARE, Client, KeepingConnection, Scripted

SERVER_KEYS = {"legal", "secret", "seats", "table", "started", "steps"}
GAMES = {
    "prison": TableOptions(set_name="prison"),
    "all_sets free": TableOptions(set_name="all_sets", teams="free"),
    "cards draft": TableOptions(game="cards", scenario="standard", teams="draft"),
}
ROUNDS = 4
"""Server lives: each but the last ends with a kill -9 after the Nth action_ok of the life (N drawn from the seed),
the last with a clean stop (SIGTERM) after its Nth."""


class Killed(Exception):
    """The server was killed: this client's connection ends."""


class Chaotic(Client):
    """A TCP client that counts the action_oks of every client and kills the server at the Nth."""

    chaos: dict = {}

    async def recv(self):
        with trio.fail_after(REAL_TIME_HANG_GUARD):
            event = await super().recv()
        chaos = Chaotic.chaos
        if isinstance(event, ActionOk) and chaos.get("process") is not None:
            chaos["acks"] += 1
            if chaos["acks"] == chaos["kill_at"]:
                chaos["process"].send_signal(chaos["signal"])  # at once, from the receiving task
        return event


class Seat:
    """A scripted player (or a spectator) kept across the server's lives: its acknowledged ids and what resumes it."""

    def __init__(self, game: str, name: str, seat: str | None, seed: int) -> None:
        self.game, self.name, self.seat = game, name, seat
        self.player = Scripted(None, seat, seed) if seat else None
        self.client: Chaotic | None = None
        self.table = self.token = self.kept = None
        self.last_event = 0
        self.acked: list[str] = []
        self.over = False

    def keep(self) -> None:
        client = self.client
        self.acked += [e.action_id for e in client.received if isinstance(e, ActionOk)]
        assert not any(isinstance(e, RevealMismatch) for e in client.received)
        self.token, self.last_event = client.token or self.token, max(self.last_event, client.conn.last_event)
        if self.seat and client.conn.commitments is not None:
            self.kept = client.conn.commitments
        client.received.clear()


async def dt_server(data, log, port=0):
    command = [sys.executable, "-m", "dungeon_twister.server", "--host", "127.0.0.1", "--port", str(port),
               "--data", str(data)]
    with open(log, "ab") as stderr:  # (the child has its own copy of the file: ours is closed at once)
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=stderr)
    with trio.fail_after(REAL_TIME_HANG_GUARD):
        line = await trio.to_thread.run_sync(process.stdout.readline)
    assert line, log.read_text()
    return process, int(line.decode().rsplit(":", 1)[1])


async def opened(port: int, seat: Seat, conn, resume: ResumeInfo | None = None) -> Chaotic:
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    client = Chaotic(stream, conn, seat.name)
    await client.send_raw(conn.send_hello(seat.name, SOFTWARE, resume))
    await client.expect(Welcome)
    seat.client = client
    return client


async def play(seat: Seat) -> None:
    """Play (or watch) until the game is over or the connection ends."""
    client, player = seat.client, seat.player
    fresh = True  # the latest view has not been acted on yet
    try:
        while True:
            view = client.view
            if seat.seat and fresh and view is not None:
                if (frame := client.conn.deal_step(view)) is not None:  # our part of the deal (section 16)
                    await client.send_raw(frame)
                if (view["legal"] or building(view)) and view["secret"] not in player.committed:
                    await act(seat, view)
            event = await client.recv()
            if event is None:
                return
            if isinstance(event, GameOver):
                seat.over = True
                return
            if isinstance(event, OpponentCommit) and event.purpose == "deal":
                if (frame := client.conn.deal_step()) is not None:
                    await client.send_raw(frame)
            elif isinstance(event, OpponentCommit) and event.purpose in player.committed:
                await client.reveal(event.purpose)
            assert not isinstance(event, OpponentReveal) or event.purpose == "deal" \
                or event.purpose in player.committed, f"{event.purpose} revealed to a seat not bound to its own"
            fresh = isinstance(event, Snapshot) or (isinstance(event, TableEvent) and event.event["kind"] == "view")
    except (trio.BrokenResourceError, trio.ClosedResourceError):
        return
    except ProtocolError as error:
        assert error.code == "wrong_state", error  # a frame made for a connection the kill closed
        return


async def act(seat: Seat, view: dict) -> None:
    player, client = seat.player, seat.client
    choice = player.bot(view).choose(view, view["legal"], player.rng)
    if view["secret"] is not None:
        player.committed.add(view["secret"])
        await client.commit(view["secret"], choice)
    else:
        await client.send(Action(seat.table, f"{seat.seat}-{next(player.actions)}", choice))


def replayed(data, table: str):
    """The engine's state at the end of the stored record of `table`, and the table's family."""
    store = open_storage(data, readonly=True)
    try:
        stored = store.table(table)
    finally:
        store.close()
    family = family_for(engine_options(TableOptions(**stored.options)))
    state, lines = family.parse_record(record_text(stored))
    for line in lines:
        state, _ = family.apply(state, line.action)
    return family, state


def check_store(data, seats: list[Seat]) -> None:
    with sqlite3.connect(f"file:{data / DATABASE_NAME}?mode=ro", uri=True) as database:
        assert database.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    store = open_storage(data, readonly=True)
    try:
        for seat in seats:
            if seat.seat is None:
                continue
            journal = store.table(seat.table).journal
            ids = [d["id"] for line, d in journal if line.startswith(f"{seat.seat}:") and d and "id" in d]
            assert [i for i in ids if i in seat.acked] == seat.acked, f"{seat.game} {seat.seat}: an action_ok lost"
            assert len(ids) == len(set(ids))
    finally:
        store.close()


@pytest.mark.parametrize("seed", [1])
async def test_kill_9_after_an_action_ok_loses_nothing_and_resumed_views_equal_the_replay(tmp_path, seed):
    data, log = tmp_path / "data", tmp_path / "server.log"
    data.mkdir()
    names = itertools.count(1)
    seats: list[Seat] = []
    resumed, kills = 0, random.Random(seed)
    for life in range(ROUNDS):
        process, port = await dt_server(data, log)
        last = life == ROUNDS - 1  # the last life ends with a clean stop (SIGTERM) instead
        Chaotic.chaos = {"process": None, "acks": 0, "kill_at": kills.randint(10, 120),
                         "signal": signal.SIGTERM if last else signal.SIGKILL}
        try:
            if life == 0:
                for number, (game, options) in enumerate(GAMES.items()):
                    features = (SEED_CONTRIBUTIONS,) if number % 2 == 0 else ()
                    blue, yellow = (Seat(game, f"p{next(names)}", s, seed * 10 + number * 2 + i)
                                    for i, s in enumerate("BY"))
                    client = await opened(port, blue, PlayerConnection(features=features))
                    await client.send(CreateTable(options))
                    table = (await client.expect(TableCreated)).table
                    for one in (blue, yellow):
                        one.table, one.features = table, features
                        if one is yellow:
                            await opened(port, yellow, PlayerConnection(features=features))
                        await one.client.send(Join(table, one.seat))
                        await one.client.expect(Joined)
                    seats += [blue, yellow]
                    if number == 0:
                        watcher = Seat(game, f"w{next(names)}", None, 0)
                        watcher.table = table
                        await (await opened(port, watcher, SpectatorConnection())).send(Spectate(table))
                        await watcher.client.expect(Snapshot)
                        seats.append(watcher)
            else:
                for seat in seats:
                    if seat.over:
                        continue
                    conn = KeepingConnection(seat.kept) if seat.seat else SpectatorConnection()
                    if seat.seat:
                        conn.offered_features = seat.features
                    client = await opened(port, seat, conn, ResumeInfo(seat.token, seat.table, seat.last_event))
                    if seat.seat:
                        assert (await client.expect(Joined)).seat == seat.seat
                    snapshot = await client.expect(Snapshot)
                    assert snapshot.n > seat.last_event
                    purpose, committed = snapshot.view["secret"], snapshot.view["table"].get("committed") or ()
                    if seat.seat and purpose in seat.player.committed and seat.seat not in committed:
                        # the server never got it (it is never acknowledged): the same bytes again (section 10)
                        await client.send(Commit(seat.table, purpose, seat.kept.our_commitment(purpose)))
                for seat in seats:  # nobody has acted since the restart: each view is the record's position
                    view = seat.client.view
                    if seat.over or not view["started"]:
                        continue
                    family, state = replayed(data, seat.table)
                    expected = family.view(state, seat.seat)
                    assert {k: v for k, v in view.items() if k not in SERVER_KEYS} == \
                        {k: v for k, v in expected.items() if k not in SERVER_KEYS}, (life, seat.game, seat.seat)
                    resumed += 1
            Chaotic.chaos["process"] = process
            async with trio.open_nursery() as nursery:
                for seat in seats:
                    if not seat.over:
                        nursery.start_soon(play, seat)
            if not all(seat.over for seat in seats):
                # (a guard, not a timing: a server that hangs in its clean stop fails the test, not the worker)
                status = await trio.to_thread.run_sync(process.wait, REAL_TIME_HANG_GUARD)
                assert status == (0 if last else -signal.SIGKILL)
        finally:
            if process.poll() is None:
                process.kill()
            process.wait()
            process.stdout.close()
        for seat in seats:
            seat.keep()
            await seat.client.close()
        check_store(data, seats)
    print("chaos:", resumed, "views compared;", sum(len(seat.acked) for seat in seats), "action_oks checked")
    assert resumed >= 2 * len(GAMES) * (ROUNDS - 1) // 2, "too few resumed views compared"
    assert sum(len(seat.acked) for seat in seats) > 100
