"""kill -9 in the middle of a game: dt-server (a real process on a data directory, or on a PostgreSQL database) is
killed while a combat card is committed and not revealed, restarted on the same store, both players resume with
their tokens and finish the game. Every acknowledged action is in the stored record, and the engine replays that
record to the final state the players saw.

Hang guard: every receive waits at most RECEIVE_SECONDS (no test-wide real-clock limit).
"""

import functools
import signal
import subprocess
import sys
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
import trio
from dungeon_twister.engine import apply, format_position, view
from dungeon_twister.engine.boardgame.records import parse_record
from dungeon_twister.protocol import (
    Action,
    ActionOk,
    Chat,
    ChatMessage,
    CreateTable,
    GameOver,
    Join,
    Joined,
    OpponentCommit,
    OpponentReveal,
    PlayerConnection,
    ResumeInfo,
    RevealMismatch,
    Snapshot,
    TableCreated,
    TableOptions,
    Welcome,
)
from dungeon_twister.server.storage import open_storage
from dungeon_twister.server.storage_postgres import PostgresStorage
from test_server_support import REAL_TIME_HANG_GUARD, SOFTWARE, Client, KeepingConnection, Scripted

RECEIVE_SECONDS = REAL_TIME_HANG_GUARD
SERVER_KEYS = {"legal", "secret", "seats", "table", "started", "steps"}


SEED = 12
"""A beginner game the greedy players (rng 1 and 2) play to its end in 221 actions, with a first combat declared at
action 143 (test_server_support.simulate(12, Options(beginner=True), 400)); not searched for at each run, to save
the CPU. Should the engine or the greedy bot change so that it no longer fits, the test says so: pick another seed
with simulate (seed 3 until the bot stopped swapping for nothing, 4a730c0)."""


class Guarded(Client):
    """A TCP client whose every receive fails after RECEIVE_SECONDS."""

    async def recv(self):
        with trio.fail_after(RECEIVE_SECONDS):
            return await super().recv()

    @classmethod
    async def open(cls, port: int, name: str, resume: ResumeInfo | None = None, conn=None) -> "Guarded":
        stream = await trio.open_tcp_stream("127.0.0.1", port)
        client = cls(stream, conn or PlayerConnection(), name)
        await client.send_raw(client.conn.send_hello(name, SOFTWARE, resume))
        await client.expect(Welcome)
        return client


async def seated(port: int, conn=None) -> tuple[str, Guarded, Guarded]:
    """Ann (Blue) and Bob (Yellow) seated at a new beginner table of the server on `port`: (table, ann, bob)."""
    blue = await Guarded.open(port, "ann", conn=conn and conn())
    yellow = await Guarded.open(port, "bob", conn=conn and conn())
    await blue.send(CreateTable(TableOptions(beginner=True)))
    table = (await blue.expect(TableCreated)).table
    await blue.send(Join(table, "B"))
    await blue.expect(Joined)
    await yellow.send(Join(table, "Y"))
    await yellow.expect(Joined)
    return table, blue, yellow


class Recording(Scripted):
    """A Scripted player that keeps the action messages it sent."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.sent: dict[str, str] = {}

    async def act(self, table: str, view_: dict) -> None:
        if view_["secret"] is not None:
            return await super().act(table, view_)
        action = Action(table, f"{self.seat}-{next(self.actions)}", self.bot(view_).choose(view_, view_["legal"], self.rng))
        self.sent[action.action_id] = action.text
        await self.client.send(action)


@asynccontextmanager
async def dt_server(data_dir: Path, log: Path, seed: int, store: list[str] = ()):
    """dt-server as a process on `data_dir` (and the store `store` names: `--database URL`); yields (process,
    port)."""
    command = [sys.executable, "-m", "dungeon_twister.server", "--host", "127.0.0.1", "--port", "0",
               "--data", str(data_dir), "--game-seeds", str(seed), *store]
    with open(log, "ab") as errors:
        async with trio.open_nursery() as nursery:
            process = await nursery.start(functools.partial(
                trio.run_process, command, stdout=subprocess.PIPE, stderr=errors, check=False))
            line = b""
            with trio.fail_after(RECEIVE_SECONDS):
                while not line.endswith(b"\n"):
                    chunk = await process.stdout.receive_some(1)
                    assert chunk, log.read_text()
                    line += chunk
            yield process, int(line.decode().rsplit(":", 1)[1])
            if process.returncode is None:
                process.send_signal(signal.SIGTERM)


async def synced(client: Client) -> None:
    """The table has handled everything this client sent before (a table chat comes back after it)."""
    await client.send(Chat("sync"))
    await client.expect(ChatMessage, lambda m: m.text == "sync")


def acknowledged(client: Client) -> list[str]:
    return [event.action_id for event in client.received if isinstance(event, ActionOk)]


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request) -> list[str]:
    """The options that give dt-server its store: its data directory's SQLite file, or a PostgreSQL database."""
    return [] if request.param == "sqlite" else ["--database", request.getfixturevalue("postgres_url")]


async def test_a_game_survives_kill_9_during_a_combat(tmp_path, store):
    seed = SEED
    data, log = tmp_path / "data", tmp_path / "server.log"
    players: dict[str, Recording] = {}
    acked: dict[str, list[str]] = {"B": [], "Y": []}

    # 1. Play into the first combat; B commits his card (the table has handled it), then the server is killed.
    async with dt_server(data, log, seed, store) as (process, port):
        table, blue, yellow = await seated(port)
        players = {"B": Recording(blue, "B", 1), "Y": Recording(yellow, "Y", 2)}
        views = {}

        async def into_combat(seat):
            views[seat] = await players[seat].play(table, stop=lambda v: (v["secret"] or "").startswith("combat"),
                                                   until=lambda e: isinstance(e, GameOver))
            assert isinstance(views[seat], dict), f"seed {seed} no longer reaches a combat: pick another (simulate)"

        async with trio.open_nursery() as nursery:
            for seat in players:
                nursery.start_soon(into_combat, seat)
        purpose = views["B"]["secret"]
        assert purpose == views["Y"]["secret"]
        await players["B"].act(table, views["B"])  # B commits
        await synced(blue)
        assert not any(isinstance(e, OpponentCommit) for e in blue.received if getattr(e, "purpose", "") == purpose)
        resume = {seat: ResumeInfo(c.token, table, c.conn.last_event) for seat, c in (("B", blue), ("Y", yellow))}
        kept = {"B": blue.conn.commitments, "Y": yellow.conn.commitments}
        for seat, client in (("B", blue), ("Y", yellow)):
            acked[seat] += acknowledged(client)
        assert acked["B"] and acked["Y"]
        process.kill()  # SIGKILL: no goodbye, no flush
        assert await process.wait() == -signal.SIGKILL
        for client in (blue, yellow):
            await client.close()

    # 2. The same data directory: both players resume with their tokens and play the game to its end.
    async with dt_server(data, log, seed + 1, store) as (process, port):
        results = {}
        for seat, name in (("B", "ann"), ("Y", "bob")):
            client = await Guarded.open(port, name, resume[seat], KeepingConnection(kept[seat]))
            assert (await client.expect(Joined)).seat == seat
            snapshot = await client.expect(Snapshot)
            assert snapshot.n > resume[seat].last_event and snapshot.view["secret"] == purpose
            players[seat].client = client

        async def finish(seat):
            results[seat] = await players[seat].play(table, until=lambda e: isinstance(e, GameOver))

        async with trio.open_nursery() as nursery:
            for seat in players:
                nursery.start_soon(finish, seat)
        final_views = {seat: players[seat].client.view for seat in players}
        for seat, player in players.items():
            client = player.client
            assert client.errors() == [] and not any(isinstance(e, RevealMismatch) for e in client.received)
            acked[seat] += acknowledged(client)
        # B's commitment from before the kill was opened after it, and verified by Y's connection.
        reveal = next(e for e in players["Y"].client.received if isinstance(e, OpponentReveal) and e.purpose == purpose)
        assert (reveal.seat, reveal.choice) == ("B", kept["B"]._secrets[purpose][0])
        assert results["B"].result == results["Y"].result
        records = subprocess.run([sys.executable, "-m", "dungeon_twister.server", "records", "--data", str(data),
                                  *store, table], capture_output=True, text=True,
                                  timeout=REAL_TIME_HANG_GUARD)
        assert records.returncode == 0, records.stderr
    assert '"event": "table_restored"' in log.read_text()

    # 3. Every acknowledged action is in the stored record, once, in the order acknowledged.
    kept_store = PostgresStorage(store[1], readonly=True) if store else open_storage(data, readonly=True)
    try:
        stored = kept_store.table(table)
    finally:
        kept_store.close()
    assert (data / "dt-server.sqlite3").exists() == (not store)
    assert stored.status == "over" and stored.result == results["B"].result
    for seat in "BY":
        ids = [d["id"] for line, d in stored.journal if line.startswith(f"{seat}:") and d and "id" in d]
        assert ids == acked[seat]
        lines = iter(line for line, _ in stored.journal)
        assert all(f"{seat}: {players[seat].sent[i]}" in lines for i in acked[seat])  # in order, as sent
    assert records.stdout.count(f"# commit B {purpose} ") == 1

    # 4. The engine replays the record to the final state: the stored final position and what each player saw.
    state, actions = parse_record(records.stdout)
    for line in actions:
        state, _ = apply(state, line.action)
    assert records.stdout.splitlines()[-1] == f"# final {format_position(state)}"
    assert state.outcome.winner == results["B"].result["winner"]
    for seat, seen in final_views.items():
        expected = {k: v for k, v in view(state, seat).items() if k not in SERVER_KEYS}
        assert {k: v for k, v in seen.items() if k not in SERVER_KEYS} == expected


async def test_a_rematch_offer_survives_kill_9_and_is_accepted_after_it(tmp_path, store):
    """Session 31: Ann's rematch offer at a finished table, acknowledged (`rematch_offered`), then dt-server is
    killed with -9: started again on the same store, it restores the finished table with the offer; both players
    resume (the snapshot's `table.asked` lists it) and Bob's `rematch` takes both to the new table."""
    from dungeon_twister.protocol import DrawAnswer, DrawOffer, Left, Rematch
    from dungeon_twister.protocol.views import REMATCH

    data, log = tmp_path / "data", tmp_path / "server.log"
    features = lambda: PlayerConnection(features=(REMATCH,))  # noqa: E731
    async with dt_server(data, log, SEED, store) as (process, port):
        table, ann, bob = await seated(port, features)
        await ann.send(DrawOffer(table))
        await bob.expect_event("draw_offered")
        await bob.send(DrawAnswer(table, True))
        await ann.expect(GameOver)
        await ann.send(Rematch(table))
        for client in (ann, bob):
            await client.expect_event("rematch_offered")
        resume = {name: ResumeInfo(c.token, table, c.conn.last_event) for name, c in (("ann", ann), ("bob", bob))}
        process.kill()
        assert await process.wait() == -signal.SIGKILL
        for client in (ann, bob):
            await client.close()
    async with dt_server(data, log, SEED + 1, store) as (process, port):
        clients = {}
        for name in ("ann", "bob"):
            clients[name] = client = await Guarded.open(port, name, resume[name], features())
            await client.expect(Joined)
            snapshot = await client.expect(Snapshot)
            assert snapshot.view["table"]["asked"] == [{"kind": "rematch_offered", "seat": "B"}]
        await clients["bob"].send(Rematch(table))
        for name, seat in (("ann", "Y"), ("bob", "B")):
            await clients[name].expect(Left)
            new = (await clients[name].expect(TableCreated)).table
            joined = await clients[name].expect(Joined)
            assert (joined.table, joined.seat) == (new, seat)
