"""kill -9 at many points, across the game families: a bounded form of chaos31's chaos run (/work/tmp/chaos31/chaos.py
in the session's notes). dt-server runs as a process on a data directory; a Prison game, a game of all sets with
the teams built in secret (PD-TEAM-02) and a Card Game with drafted teams (CG-SEL) are played by scripted players
(their deal contributions too, docs/protocol.md section 16) while a spectator watches the first; the server is
killed (SIGKILL) right after a player of one game, drawn from a seeded generator, has received that game's Kth
action_ok of the server's life (K drawn too), and restarted, several times. After each kill: the store passes
SQLite's integrity check and every action_ok a client received is a journal line with that id, in order, once.
After each restart every client resumes from its last numbered event, a commitment the server never got is sent
again byte for byte (section 10), and each resumed view equals the engine's view of the stored record replayed
(what a client that never disconnected would hold).

Replayable from its seed as far as it honestly can be (ops32): the server draws the games' seeds from
`--game-seeds`, the players' deal contributions and each choice's generator come from the seed, the game and the
position (a choice lost in a kill is made again the same), so each game is the same game in every run; the kill of
the drawn game comes after the same count of its action_oks (one more may be applied: the opponent's next action
can reach the server before the signal does). Where the other two games stand at a kill depends on scheduling (they
run at once), and so does what a kill interrupts. A failure says the seed, the kill plan, what each life did and the
server's log.

Bounded by event counts (the kills, and a life's LIFE_ACKS action_oks at most) and by actions (ROUNDS rounds, then
the test stops, games finished or not); hang guard: every receive, and the wait for a server's start or stop, waits
at most REAL_TIME_HANG_GUARD.
"""

import hashlib
import itertools
import random
import signal
import sqlite3
import subprocess
import sys

import pytest
import trio
from dungeon_twister.engine.core.rng import Rng
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
"""Server lives: each but the last ends with a kill -9 after the Kth action_ok of a game in the life (the game and K
drawn from the seed), the last with a clean stop (SIGTERM) after its Kth."""
KILL_AFTER = (5, 40)
"""K's bounds: the three games run at once, so a life has some 3K action_oks in all (as chaos31's 10 to 120)."""
LIFE_ACKS = 400
"""A life's most action_oks, all games together: if the drawn game has not come to its Kth by then (it waits on
something, a bug), the signal goes at that count instead, and the life's line in the failure says so."""


class Chaotic(Client):
    """A TCP client of one game that counts the action_oks of every client, and kills the server after the Kth of
    the drawn game (or at that game's end, or at the life's LIFE_ACKS-th action_ok)."""

    chaos: dict = {}
    game = ""

    async def recv(self):
        with trio.fail_after(REAL_TIME_HANG_GUARD):
            event = await super().recv()
        chaos = Chaotic.chaos
        if chaos.get("process") is None or chaos["fired"] is not None:
            return event
        if isinstance(event, ActionOk):
            chaos["acks"][self.game] += 1
            chaos["total"] += 1
        if self.game == chaos["game"] and chaos["acks"][self.game] == chaos["kill_at"]:
            chaos["fired"] = f"after {self.game}'s action_ok #{chaos['kill_at']}"
        elif self.game == chaos["game"] and isinstance(event, GameOver):
            chaos["fired"] = f"at {self.game}'s end, after its action_ok #{chaos['acks'][self.game]}"
        elif chaos["total"] >= LIFE_ACKS:
            chaos["fired"] = f"at the life's action_ok #{LIFE_ACKS} (count guard: {chaos['game']} did not get there)"
        if chaos["fired"] is not None:
            chaos["process"].send_signal(chaos["signal"])  # at once, from the receiving task
            counts = ", ".join(f"{game} {n}" for game, n in chaos["acks"].items())
            chaos["fired"] += f" (action_oks of the life: {counts})"
        return event


class Seat:
    """A scripted player (or a spectator) kept across the server's lives: its acknowledged ids and what resumes it."""

    def __init__(self, game: str, name: str, seat: str | None, seed: int) -> None:
        self.game, self.name, self.seat, self.seed = game, name, seat, seed
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

    def draw(self, *what) -> bytes:
        """A choice's randomness, from the test's seed, this game and seat and `what` (the position)."""
        return hashlib.sha256(repr((self.seed, self.game, self.seat) + what).encode()).digest()

    def contribution(self) -> str:
        """Our part of the deal (section 16): from the seed, not from `secrets`, so the game is the same each run."""
        return self.draw("deal").hex()

    def rng(self, view: dict) -> Rng:
        """The generator of the choice on `view`: from the position (its steps and secret purpose), not from the
        choices made before, so a choice a kill lost is made again the same when the view comes back."""
        return Rng(int.from_bytes(self.draw(view["steps"], view["secret"])[:8], "big"))


def game_seeds(seed: int) -> str:
    """The server's `--game-seeds`: the tables' seeds in the order they are made (one per game, all in the first
    life), instead of secret random ones."""
    return ",".join(str(seed * 1000 + number) for number in range(1, len(GAMES) + 1))


async def dt_server(data, log, seed: int, port=0):
    command = [sys.executable, "-m", "dungeon_twister.server", "--host", "127.0.0.1", "--port", str(port),
               "--data", str(data), "--game-seeds", game_seeds(seed)]
    with open(log, "ab") as stderr:  # (the child has its own copy of the file: ours is closed at once)
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=stderr)
    try:
        with trio.fail_after(REAL_TIME_HANG_GUARD):  # (a thread left to its read if it hangs: the process is killed)
            line = await trio.to_thread.run_sync(process.stdout.readline, abandon_on_cancel=True)
    except trio.TooSlowError:
        process.kill()
        raise AssertionError("dt-server did not say where it listens") from None
    assert line, "dt-server stopped before it listened"
    return process, int(line.decode().rsplit(":", 1)[1])


async def opened(port: int, seat: Seat, conn, resume: ResumeInfo | None = None) -> Chaotic:
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    client = Chaotic(stream, conn, seat.name)
    client.game = seat.game
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
                if (frame := client.conn.deal_step(view, seat.contribution())) is not None:  # (section 16)
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
                if (frame := client.conn.deal_step(None, seat.contribution())) is not None:
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
    choice = player.bot(view).choose(view, view["legal"], seat.rng(view))
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


def check_store(data, seats: list[Seat]) -> dict[str, int]:
    """Check the store after a life; each game's journal length then (for the failure's account of the lives)."""
    lengths = {}
    with sqlite3.connect(f"file:{data / DATABASE_NAME}?mode=ro", uri=True) as database:
        assert database.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    store = open_storage(data, readonly=True)
    try:
        for seat in seats:
            if seat.seat is None:
                continue
            journal = store.table(seat.table).journal
            lengths[seat.game] = len(journal)
            ids = [d["id"] for line, d in journal if line.startswith(f"{seat.seat}:") and d and "id" in d]
            assert [i for i in ids if i in seat.acked] == seat.acked, f"{seat.game} {seat.seat}: an action_ok lost"
            assert len(ids) == len(set(ids))
    finally:
        store.close()
    return lengths


@pytest.mark.parametrize("seed", [1])
async def test_kill_9_after_an_action_ok_loses_nothing_and_resumed_views_equal_the_replay(tmp_path, seed, request):
    data, log = tmp_path / "data", tmp_path / "server.log"
    data.mkdir()
    kills = random.Random(seed)
    plan = [(kills.choice(list(GAMES)), kills.randint(*KILL_AFTER)) for _ in range(ROUNDS)]
    lives: list[str] = []
    try:
        resumed, acks = await lives_of_the_server(data, log, seed, plan, lives)
        print("chaos:", resumed, "views compared;", acks, "action_oks checked")
        assert resumed >= 2 * len(GAMES) * (ROUNDS - 1) // 2, "too few resumed views compared"
        assert acks > 100
    except BaseException as failure:  # (a failure says what it takes to run it again, and what happened)
        failure.add_note(replay_note(request.node.nodeid, seed, plan, lives, log))
        raise


def replay_note(test: str, seed: int, plan, lives: list[str], log) -> str:
    text = log.read_text(errors="replace").splitlines() if log.exists() else []
    return "\n".join([
        f"chaos seed {seed}: run it again with  pytest -p no:cacheprovider '{test}'",
        f"  dt-server --game-seeds {game_seeds(seed)}; kills planned (game, after its Kth action_ok of the life): "
        + ", ".join(f"{game} {k}" for game, k in plan),
        "  (each game and the drawn game's kill point repeat from the seed; the other games' progress at a kill and",
        "  what a kill interrupts depend on scheduling)",
        *(f"  life {number}: {line}" for number, line in enumerate(lives)),
        f"  the server's log (last 40 of {len(text)} lines):", *(f"    {line}" for line in text[-40:])])


async def lives_of_the_server(data, log, seed: int, plan, lives: list[str]) -> tuple[int, int]:
    """Play the games through ROUNDS lives of the server, killed as `plan` says; each life's account in `lives`.
    The views compared after the restarts, and the action_oks checked."""
    names = itertools.count(1)
    seats: list[Seat] = []
    resumed = 0
    for life in range(ROUNDS):
        process, port = await dt_server(data, log, seed)
        last = life == ROUNDS - 1  # the last life ends with a clean stop (SIGTERM) instead
        alive = [game for game in GAMES if not any(seat.over for seat in seats if seat.game == game)]
        game, kill_at = plan[life]
        if alive and game not in alive:  # (ended in an earlier life: the first one still played instead)
            game = alive[0]
        signal_ = signal.SIGTERM if last else signal.SIGKILL
        Chaotic.chaos = {"process": None, "game": game, "kill_at": kill_at, "signal": signal_,
                         "acks": dict.fromkeys(GAMES, 0), "total": 0, "fired": None}
        lives.append(f"{signal_.name} planned after {game}'s action_ok #{kill_at}")
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
            fired = Chaotic.chaos["fired"]
            lives[-1] += f"; signal sent {fired}" if fired else "; no signal sent (every game over)"
            if not all(seat.over for seat in seats):
                # (a guard, not a timing: a server that hangs in its clean stop fails the test, not the worker)
                status = await trio.to_thread.run_sync(process.wait, REAL_TIME_HANG_GUARD)
                assert status == (0 if last else -signal.SIGKILL)
        finally:
            if process.poll() is None:
                process.kill()
            process.wait()  # (killed: at once)
            process.stdout.close()
        for seat in seats:
            seat.keep()
            await seat.client.close()
        lengths = check_store(data, seats)
        lives[-1] += "; journals then: " + ", ".join(f"{game} {n}" for game, n in lengths.items())
    return resumed, sum(len(seat.acked) for seat in seats)
