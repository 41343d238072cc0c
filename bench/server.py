"""Issue 7's whole table, measured in one run (prints figures; not a test).

    .venv/bin/python bench/server.py [--quick] [--in-process] [--games 1,500,1000,1500,2000,2500] [--seconds 10]

--quick takes about a minute on a quiet 2-core machine (more when other processes compete for the cores). Each row is
printed beside its bar, then a summary says which bars are met. The references (python-chess, a raw trio
msgpack echo) are measured in the same run. The rows:

1. `legal_actions` per main-phase position of a standard game, and random self-play actions/s over python-chess
   random self-play moves/s, the two played interleaved (bench/engine.py's `side_by_side`), CPU time of this
   process.
2. Server CPU per applied action: the CPU seconds (user + system, /proc) of a server process holding one probe game
   and nothing else, over the probe's actions, divided by the actions the game applied. It therefore counts all the
   server does for an action: decoding the request, the legal action texts, apply, the views of both seats and their
   events, encoding, the socket I/O system calls, and its share of the probe games' table creation and joins.
3. Action round trip, 1 game, p50: a probe player sends `action` and is timed until both players of the probe table
   hold the resulting view (client -> server -> engine -> both players); over the p50 of a raw trio msgpack echo of
   an action-sized frame (another process, loopback TCP, back to back) measured in this run. The probe plays an
   action every PROBE_PAUSE (20 ms), so each of its round trips also wakes an idle process, which no server removes
   (docs/scaling.md, "An action after a pause costs more"); the echo is therefore measured paced alike too, and the
   row's figure takes that waking (the paced echo's p50 less the back-to-back one's) off the probe's p50 once before
   dividing by the back-to-back echo: (probe - waking) / echo. (Dividing by the paced echo instead would credit the
   waking five times over: review rv28.) The plain ratio, probe / echo, is printed beside it.
4. Concurrent human-paced games: bot-vs-bot games, each bot moving every 2.5-7.5 s (~5 s), at rising counts (the
   probe's game included). By default the load bots play from another process (this script with --bots) over
   loopback TCP, two connections per game (the blue bot creates the table, both join; server/bot.py's decisions), so
   the server's CPU and memory are its own and the probe's round trips cross real sockets; the bots' process's CPU
   and memory are printed below each level. With --in-process they play inside the server process through
   in-memory pipes (lobby.spawn_bot), as the server's own bots do, and the server's figures count them too.
   The probe is measured only once the start-up burst (thousands of games choosing teams at once) has settled: the
   server's CPU and RSS, sampled each second, must have been steady for a few seconds after every bot made its first
   two moves (bounded by a maximum wait; a level that does not settle says so). A level where the probe completes no
   action is "saturated" and ends the climb; a level with p99 >= 50 ms ends it once 2,000 games were measured. The
   figure is the largest count with p99 < 50 ms at it and at every level below; the bar wants p99 < 50 ms at 2,000
   games with the server's CPU <= 70% there.
5. Memory per active game, measured on games in play: a fresh server, its store in a data directory as dt-server's
   always is, and --in-play-games standard games (300; 30 with --quick) whose bots, in another process, play each
   game's first IN_PLAY_ACTIONS (150) actions without thinking, then move every ~5 s: the RSS growth of the server
   per game from its RSS before any game, and, the figure the row judges, what a game more costs: a second fresh
   server holds half as many games, and the difference of the two growths is divided by the difference of their
   games (since 2026-11-30: the growth from the start counts what the process's start leaves free and games then
   fill, so it moved by 14 KB a game when the card rules' modules were split and the start took 4 MB less, though
   the RSS at 300 games did not change; docs/scaling.md, twenty-fourth session). Few games overstate the growth
   per game: the process's bounded caches (the boards of recent layouts, the shared square tuples, SQLite's page
   cache) are shared by fewer games.
   The climb's levels also print the RSS growth per game in their games' first minute (mostly the team choice and
   first moves of beginner games, as this row measured until 2026-11-28: 66-87 KB there against 237-264 KB for the
   same server in play). In the climb, that is the server alone by default (the bots' process's growth per game is
   printed beside it); with --in-process it also counts the bots' client side (their in-memory connections, tasks
   and the views they keep), which two remote players would not cost the server; the games in play always have their
   bots in another process. The RSS keeps the allocator's high-water pages of the games' fast first actions, so it
   is somewhat more than the games hold (docs/scaling.md: about 140 KB a game by deep sizes). bench/memory.py splits
   a server's memory per game by tracemalloc (`--bots-process --played 150` for games in play). Per idle connection:
   RSS growth over 1,000 connections that said hello and wait in the lobby.
6. `dt-client --help` cold start (wall, median of several runs) and one board render (bench/client.py).

All server processes use the server's default settings (keepalive pings every 30 s included) but for the port and
the connection limit, and their store is in memory but for row 5's. The servers and the echo server run in their own
processes (this script with --serve or --echo), so the clients measuring them do not share their CPU; the machine's
other load still does, so run it quiet, and more than once.
"""

from __future__ import annotations

import argparse
import importlib.util
import itertools
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import msgpack
import trio

from dungeon_twister.engine.core.rng import Rng
from dungeon_twister.protocol import (
    Action,
    ActionOk,
    ActionRefused,
    CreateTable,
    GameOver,
    Join,
    OpponentCommit,
    PlayerConnection,
    Snapshot,
    Software,
    TableCreated,
    TableEvent,
    TableOptions,
    Welcome,
)
from dungeon_twister.server.bot import BotPlayer, drive

HERE = Path(__file__).resolve().parent
THINK = 5.0
"""Average seconds a load bot waits before each move (0.5 to 1.5 times this)."""
TARGET_P99_MS = 50.0
SOFTWARE = Software("dt-bench", "0.1.0")
SAMPLE_SECONDS = 1.0
"""The server's CPU is sampled this often while waiting for the start-up burst to settle."""
STEADY_SAMPLES = 5
STEADY_AFTER = 2 * 1.5 * THINK
STEADY_SPREAD = 0.08
STEADY_GROWTH_MB = 2.0
STEADY_GROWTH = 0.005
"""Settled: over the last STEADY_SAMPLES samples, all taken after every bot's first two moves (STEADY_AFTER
seconds after the games were all created: the first moves come in a wave, the second ones in a wider one), the
server's CPU share lies within STEADY_SPREAD (or 20% of its mean, if larger) and its RSS grew by at most
STEADY_GROWTH_MB (or STEADY_GROWTH of it, if larger). The burst (every game choosing its team, with views listing
all 1,680 teams) builds the games' states: RSS grows fast until it ends, and CPU alone may look steady while the
burst saturates the process."""
IDLE_CONNECTIONS = 1000
IN_PLAY_ACTIONS = 150
"""Row 5 measures games that have played this many actions (a few of a human game's turns: its memory grows
with the board's memos as figures reach new squares and rooms turn; a game's first minute at a move every ~5 s is
only its team choice and first actions)."""
IN_PLAY_WAIT = 240.0
"""Longest wait for the games of row 5 to play their first IN_PLAY_ACTIONS actions."""
IN_PLAY_PAUSE = 2.0
"""Seconds between the last of those games reaching its actions and the reading of the server's RSS."""

BARS = {
    "legal": "median <= 0.2 ms, mean <= 0.35 ms",
    "ratio": ">= 0.3x",
    "cpu": "<= 0.6 ms",
    "round trip": "<= 5x echo",
    "games": ">= 2,000, CPU <= 70%",
    "game memory": "<= 100 KB",
    "idle memory": "<= 8 KiB",
    "cold start": "<= 0.15 s",
    "render": "<= 1 ms",
}


def load_bench(name: str):
    """bench/<name>.py as a module (bench/ is not a package)."""
    spec = importlib.util.spec_from_file_location(f"dt_bench_{name}", HERE / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


# --- the processes under test ---------------------------------------------------------------------------------
def refill(server, bot_tables: set, numbers, games: int, think: float) -> set:
    """The bot tables still playing, topped up towards `games` (at most 100 new ones a call, so that the start-up
    burst is spread): bot-vs-bot beginner games in the server's process, a move every ~`think` seconds."""
    bot_tables = {t for t in bot_tables if t.status != "over" and t.id in server.lobby.tables}
    for _ in range(min(100, games - len(bot_tables))):
        table = server.lobby.create_table(TableOptions(beginner=True), None)
        bot_tables.add(table)
        number = next(numbers)
        for seat in ("B", "Y"):
            server.lobby.spawn_bot(table, seat, "random", f"load-{number}-{seat}", think=think)
    return bot_tables


async def serve_bots(games: int, store: str | None = None) -> None:
    """A server that prints its port, waits for a line on stdin, then holds `games` bot-vs-bot games (replaced as
    they end) and prints "ready" once they are all created. `store`: a data directory for its store, as dt-server
    always has (its journal on disk), with data_sync "normal" (no fsync per action, which changes no memory);
    None: the store in memory, journals included."""
    from dungeon_twister.server import Server, ServerConfig
    from dungeon_twister.server.logs import setup_logging

    setup_logging("WARNING")
    config = ServerConfig(host="127.0.0.1", port=0, max_connections=100_000, max_connections_per_address=0,
                          max_tables_per_hour=0, data_dir=None if store is None else Path(store), data_sync="normal",
                          bot_pace=0)  # (the load's bots think `think` seconds a move: a pace would add nothing)
    server = Server(config)
    async with trio.open_nursery() as nursery:
        await nursery.start(server.run)
        print(server.port, flush=True)
        await trio.to_thread.run_sync(sys.stdin.readline)
        numbers = itertools.count(1)
        bot_tables: set = set()
        announced = False
        while True:
            bot_tables = refill(server, bot_tables, numbers, games, THINK)
            if len(bot_tables) >= games and not announced:
                print("ready", flush=True)
                announced = True
            await trio.sleep(0.1)


async def serve_remote_bots(port: int, games: int, played: int = 0) -> None:
    """The load of serve_bots from another process, over loopback TCP (two connections per game): prints a line,
    waits for a line on stdin, then holds `games` bot-vs-bot games at the server on `port` (replaced as they end:
    the blue bot creates the table, both join) and prints "ready" once they are all created.

    With `played` (row 5's games in play), the games are standard ones whose bots make their game's first `played`
    moves without thinking, then think as usual; "played" is printed once all but a twentieth of the games are
    past those moves."""
    from dungeon_twister.server.logs import setup_logging

    setup_logging("WARNING")
    print(0, flush=True)
    await trio.to_thread.run_sync(sys.stdin.readline)
    numbers = itertools.count(1)
    playing: set[int] = set()
    tabled: set[int] = set()
    """The games whose table was created (ready: all of them, as serve_bots's)."""
    options = TableOptions() if played else TableOptions(beginner=True)
    hurried: set[int] = set()
    """The games still making their first moves without thinking."""

    async def game(number: int) -> None:
        try:
            created = trio.Event()
            pace = Pace(played, hurried.discard, number)
            if played:
                hurried.add(number)
            blue = RemoteBot(f"load-{number}-B", None, "B", number, created, options, pace)
            async with trio.open_nursery() as nursery:
                nursery.start_soon(run_remote_bot, port, blue)
                await created.wait()
                if blue.table is None:  # it could not connect or create: the loop starts another game
                    return
                tabled.add(number)
                yellow = RemoteBot(f"load-{number}-Y", blue.table, "Y", number + 1_000_000, None, options, pace)
                nursery.start_soon(run_remote_bot, port, yellow)
        finally:
            playing.discard(number)
            tabled.discard(number)
            hurried.discard(number)

    announced, announced_played = False, not played
    async with trio.open_nursery() as nursery:
        while True:
            for _ in range(min(100, games - len(playing))):
                number = next(numbers)
                playing.add(number)
                nursery.start_soon(game, number)
            if len(tabled) >= games and not announced:
                print("ready", flush=True)
                announced = True
            if announced and not announced_played and len(hurried) <= games // 20:
                print("played", flush=True)
                announced_played = True
            await trio.sleep(0.1)


class Pace:
    """How long the bots of one game think before each move: THINK on average, but not at all for the game's first
    `hurry` moves (row 5's games in play: a move is whatever a bot sends at once, mostly one action, or a secret
    choice's commitment); `hurried(number)` is called as the last of those is sent."""

    def __init__(self, hurry: int = 0, hurried=None, number: int = 0) -> None:
        self.hurry, self.hurried, self.number, self.moves = hurry, hurried, number, 0

    def think(self) -> float:
        self.moves += 1
        if self.moves <= self.hurry:
            if self.moves == self.hurry:
                self.hurried(self.number)
            return 0.0
        return THINK


class RemoteBot(BotPlayer):
    """A server bot's decisions (server/bot.py), but connected from outside: with no table yet, it creates one (a
    game of `options`; serve_bots makes beginner games) and joins it; `created` is set once it has the table's id.
    Both bots of a game think as their `pace` says."""

    def __init__(self, name: str, table: str | None, seat: str, seed: int, created: trio.Event | None,
                 options: TableOptions = TableOptions(beginner=True), pace: Pace | None = None) -> None:
        super().__init__(name, table, seat, "random", seed, None)
        self.created, self.options, self.pace = created, options, pace or Pace()

    def receive(self, event) -> list[bytes]:
        if isinstance(event, Welcome) and self.table is None:
            return [self.conn.send(CreateTable(self.options))]
        if isinstance(event, TableCreated) and self.table is None:
            self.table = event.table
            self.created.set()
            return [self.conn.send(Join(self.table, self.seat))]
        return super().receive(event)


async def run_remote_bot(port: int, player) -> None:
    """server/bot.py's play_bot loop (thinking THINK seconds a move: `player.pace`) over a TCP connection to the
    server."""
    try:
        stream = await trio.open_tcp_stream("127.0.0.1", port)
    except OSError:
        stream = None
    try:
        if stream is not None:
            async with stream:
                try:
                    await drive(stream, player, player.pace.think)
                except (trio.BrokenResourceError, trio.ClosedResourceError):
                    pass
    finally:
        if player.created is not None:
            player.created.set()


async def serve_echo() -> None:
    """Echo each length-prefixed msgpack frame back, decoded and encoded again."""

    async def echo(stream):
        buffer = b""
        while data := await stream.receive_some(65536):
            buffer += data
            out = []
            while len(buffer) >= 4 and len(buffer) >= 4 + (size := int.from_bytes(buffer[:4], "big")):
                body = msgpack.packb(msgpack.unpackb(buffer[4:4 + size]), use_bin_type=True)
                out.append(len(body).to_bytes(4, "big") + body)
                buffer = buffer[4 + size:]
            await stream.send_all(b"".join(out))

    listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
    print(listeners[0].socket.getsockname()[1], flush=True)
    await trio.serve_listeners(echo, listeners)


class Process:
    """This script in another mode, as a subprocess; `port` is the first line it prints."""

    def __init__(self, *args: str) -> None:
        self.process = subprocess.Popen([sys.executable, __file__, *args], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE)
        self._pending = b""
        """What was read of its output past the last line returned (`readline`)."""
        self.port = int(self.readline(None))

    def go(self) -> None:
        """Let a --serve process create its games."""
        self.process.stdin.write(b"go\n")
        self.process.stdin.flush()

    def wait_ready(self, timeout: float) -> bool:
        return self.readline(timeout) == "ready"

    def readline(self, timeout: float | None) -> str:
        """Its next line of output, stripped, or "" if none came within `timeout` seconds (None: no limit) or the
        output ended. Read from the pipe itself, never through a buffered file: a buffer could hold a second
        line that select() would then wait for in vain."""
        import select

        fd = self.process.stdout.fileno()
        deadline = None if timeout is None else time.monotonic() + timeout
        while b"\n" not in self._pending:
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                return ""
            ready, _, _ = select.select([fd], [], [], left)
            if not ready:
                return ""
            chunk = os.read(fd, 4096)
            if not chunk:
                return ""
            self._pending += chunk
        line, _, self._pending = self._pending.partition(b"\n")
        return line.decode().strip()

    def rss_mb(self) -> float:
        with open(f"/proc/{self.process.pid}/status") as status:
            line = next(line for line in status if line.startswith("VmRSS:"))
        return int(line.split()[1]) / 1024

    def cpu_seconds(self) -> float:
        with open(f"/proc/{self.process.pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(10)


# --- measuring ------------------------------------------------------------------------------------------------
async def echo_round_trips(port: int, count: int, pause: float = 0.0) -> list[float]:
    """The round trips of `count` action-sized frames to the echo server, `pause` seconds apart."""
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    body = msgpack.packb({"type": "action", "table": "t1-0123abcd", "action_id": "B-1234",
                          "text": "move bTH c4-c5-d5 +bSW"}, use_bin_type=True)
    frame = len(body).to_bytes(4, "big") + body
    times = []
    for _ in range(count):
        start = time.perf_counter()
        await stream.send_all(frame)
        got = b""
        while len(got) < len(frame):
            got += await stream.receive_some(65536)
        times.append(time.perf_counter() - start)
        if pause:
            await trio.sleep(pause)
    await stream.aclose()
    return times


class Probe:
    """One player of the probe table: reads its frames, answers secret choices, keeps the latest view."""

    def __init__(self, stream, conn: PlayerConnection, seat: str) -> None:
        self.stream, self.conn, self.seat = stream, conn, seat
        self.view: dict | None = None
        self.view_at: dict[int, float] = {}
        self.answers: dict[str, object] = {}
        self.committed: set[str] = set()
        self.created: str | None = None
        self.over = False
        self.changed = trio.Event()
        self._sending = trio.Lock()

    async def send(self, data: bytes) -> None:
        async with self._sending:
            await self.stream.send_all(data)

    async def read(self) -> None:
        while data := await self.stream.receive_some(65536):
            self.conn.receive_data(data)
            now = time.perf_counter()
            while (event := self.conn.next_event()) is not None:
                if isinstance(event, Snapshot):
                    self.view = event.view
                elif isinstance(event, TableEvent) and event.event.get("kind") == "view":
                    self.view, self.view_at[event.n] = event.event["view"], now
                elif isinstance(event, (ActionOk, ActionRefused)):
                    self.answers[event.action_id] = event
                elif isinstance(event, OpponentCommit) and event.purpose in self.committed:
                    await self.send(self.conn.reveal(event.purpose))
                elif isinstance(event, TableCreated):
                    self.created = event.table
                elif isinstance(event, GameOver):
                    self.over = True
            self.changed.set()
            self.changed = trio.Event()


@dataclass
class Played:
    """What the probe games did: round trips of the accepted actions, and the secret choices committed."""

    seconds: float = 0.0
    """How long the measuring window lasts, from the first action sent (setting a probe game up is not in it)."""
    grace: float = 0.0
    """How long after the window closed the last round trip may still complete."""
    deadline: float | None = None
    """When the window closes (None: not open yet)."""
    limit: trio.CancelScope | None = None
    """The scope that gives up: `setup` seconds after the start, then `grace` seconds after the window."""
    times: list[float] = field(default_factory=list)
    secret: int = 0
    refused: int = 0

    def over(self) -> bool:
        return self.deadline is not None and time.perf_counter() >= self.deadline

    @property
    def applied(self) -> int:
        return len(self.times) + self.secret


async def connect_probe(port: int, name: str) -> Probe:
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    # The probe asks for view deltas as dt-client does (DT_BENCH_FEATURES="" for whole views, as old clients).
    features = os.environ.get("DT_BENCH_FEATURES", "delta_views")
    conn = PlayerConnection(features=tuple(name for name in features.split(",") if name))
    await stream.send_all(conn.send_hello(name, SOFTWARE))
    return Probe(stream, conn, "")


async def _until(probe: Probe, condition) -> None:
    while not condition():
        await probe.changed.wait()


PROBE_PAUSE = 0.02
"""The probe's pause between two actions (rows 2 and 3), and the paced echo's between two trips (row 3's reference):
far shorter than a player's, long enough that the processes idle in between, as they do at any human pace."""
PACED_ECHO_TRIPS = 300
"""The paced echo's trips (6 s at PROBE_PAUSE)."""


async def action_round_trips(port: int, seconds: float, pause: float = PROBE_PAUSE, grace: float = 10.0,
                             setup: float = 20.0) -> Played:
    """Play probe games (random moves) for `seconds` from the first action sent; the round trip of every non-secret
    action. Gives up if no action was sent within `setup` seconds (connecting, creating and joining a table, the
    team choice: several round trips, long ones on a loaded server) or `grace` seconds after the window closed (a
    saturated server may answer nothing), with what was measured until then."""
    played = Played(seconds, grace)
    tables = itertools.count(1)
    rng = Rng(7)
    with trio.move_on_after(setup) as played.limit:
        while not played.over():
            number = next(tables)
            probes = []
            try:
                probes = [await connect_probe(port, f"probe-{number}-{seat}") for seat in "BY"]
                async with trio.open_nursery() as nursery:
                    for probe, seat in zip(probes, "BY"):
                        probe.seat = seat
                        nursery.start_soon(probe.read)
                    for probe in probes:
                        await _until(probe, lambda p=probe: p.conn.state.value == "lobby")
                    await probes[0].send(probes[0].conn.send(CreateTable(TableOptions(beginner=True))))
                    await _until(probes[0], lambda: probes[0].created is not None)
                    table = probes[0].created
                    for probe in probes:
                        await probe.send(probe.conn.send(Join(table, probe.seat)))
                    await _play(probes, table, played, pause, rng)
                    nursery.cancel_scope.cancel()
            finally:
                for probe in probes:
                    with trio.CancelScope(shield=True):
                        await trio.aclose_forcefully(probe.stream)
    return played


async def _play(probes: list[Probe], table: str, played: Played, pause: float, rng: Rng) -> None:
    ids = itertools.count(1)
    while not played.over() and not any(p.over for p in probes):
        acting = [p for p in probes if p.view and p.view["started"] and p.view["legal"]
                  and p.view["secret"] not in p.committed]
        if not acting:
            await trio.sleep(0.001)
            continue
        probe = acting[0]
        choice = rng.choice(probe.view["legal"])
        if probe.view["secret"] is not None:
            probe.committed.add(probe.view["secret"])
            played.secret += 1
            await probe.send(probe.conn.commit(probe.view["secret"], choice))
            continue
        action_id = f"a{next(ids)}"
        before = probe.conn.last_event
        start = time.perf_counter()
        if played.deadline is None:  # the window opens
            played.deadline = start + played.seconds
            played.limit.deadline = trio.current_time() + played.seconds + played.grace
        await probe.send(probe.conn.send(Action(table, action_id, choice)))
        await _until(probe, lambda: action_id in probe.answers and (
            isinstance(probe.answers[action_id], ActionRefused)
            or (probe.conn.last_event > before and probe.view_at.get(probe.conn.last_event) is not None)))
        if isinstance(probe.answers[action_id], ActionOk):
            n = probe.conn.last_event
            for other in probes:
                await _until(other, lambda o=other: o.conn.last_event >= n)
            played.times.append(max(p.view_at.get(n, start) for p in probes) - start)
        else:
            played.refused += 1
        await trio.sleep(pause)


def bots_line(games: int, cpu: float, per_game: float) -> str:
    return f"          (the bots' own process, {games - 1} games: CPU {cpu * 100:.0f} %, {per_game:.0f} KB per game)"


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


async def settle(server: Process, max_wait: float) -> tuple[bool, float, list[float]]:
    """Wait until the start-up burst is over (see STEADY_*), at most `max_wait` seconds after the games were all
    created; (settled, seconds waited, the CPU share samples)."""
    started = time.perf_counter()
    samples: list[tuple[float, float, float]] = []  # (seconds since the start, CPU share since the last, RSS MB)
    cpu, at = server.cpu_seconds(), started
    while time.perf_counter() - started < max_wait:
        await trio.sleep(SAMPLE_SECONDS)
        cpu_now, now = server.cpu_seconds(), time.perf_counter()
        samples.append((now - started, (cpu_now - cpu) / (now - at), server.rss_mb()))
        cpu, at = cpu_now, now
        recent = [(share, rss) for t, share, rss in samples[-STEADY_SAMPLES - 1:] if t - SAMPLE_SECONDS >= STEADY_AFTER]
        if len(recent) == STEADY_SAMPLES + 1:
            shares = [share for share, _ in recent[1:]]
            spread = max(shares) - min(shares)
            grown = recent[-1][1] - recent[0][1]
            if spread <= max(STEADY_SPREAD, 0.2 * statistics.fmean(shares)) and grown <= max(
                    STEADY_GROWTH_MB, STEADY_GROWTH * recent[-1][1]):
                return True, now - started, [share for _, share, _ in samples]
    return False, time.perf_counter() - started, [share for _, share, _ in samples]


async def in_play_memory(games: int, actions: int) -> tuple[float, float] | str:
    """Row 5: (KB, MB) the server's RSS grew by per game and in all, holding `games` standard games that have
    played about `actions` actions each (their bots, in another process, make those without thinking, then move
    every ~THINK seconds), from its RSS before any game; else why it was not measured. The server keeps its store
    in a data directory, as dt-server does: with the store in memory (the other rows' servers), each game's
    journal stayed in the process too, ~17 KB a game more at 300 games (2026-11-28: 224 KB against 207 KB).

    The RSS is read IN_PLAY_PAUSE seconds after all but a twentieth of the games got there: it keeps the
    allocator's high-water pages of those fast first actions (a server's RSS never shrinks back either), so it is
    somewhat more than what the games hold."""
    store = tempfile.TemporaryDirectory(prefix="dt-bench-")
    server = Process("--serve", "0", "--store", store.name)
    server.go()
    await trio.sleep(0.5)
    base = server.rss_mb()
    bots = Process("--bots", str(server.port), str(games), "--played", str(actions))
    bots.go()
    try:
        if not bots.wait_ready(120):
            return "the bots did not create their tables within 120 s"
        if bots.readline(IN_PLAY_WAIT) != "played":
            return f"more than a twentieth of the games had not played {actions} actions within {IN_PLAY_WAIT:g} s"
        await trio.sleep(IN_PLAY_PAUSE)
        grown = server.rss_mb() - base
        return grown * 1024 * 1024 / 1000 / games, grown
    finally:
        server.stop()
        bots.stop()
        store.cleanup()


async def idle_connections(port: int, count: int) -> list:
    streams = []
    for number in range(count):
        stream = await trio.open_tcp_stream("127.0.0.1", port)
        conn = PlayerConnection()
        await stream.send_all(conn.send_hello(f"idle-{number}", SOFTWARE))
        got = b""
        while not got:
            got = await stream.receive_some(65536)
        streams.append(stream)
    return streams


@dataclass
class Row:
    name: str
    figure: str
    bar: str
    met: bool | None
    """None: not measured."""


# --- the report -----------------------------------------------------------------------------------------------
async def main(args) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    started = time.perf_counter()
    rows: list[Row] = []
    print(f"dt benchmark{' (--quick)' if args.quick else ''}: Python {sys.version.split()[0]}, "
          f"trio {trio.__version__}, {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} at the start")

    # 1. the engine, against python-chess
    engine_bench = load_bench("engine")
    standard = engine_bench.VARIANTS["standard"]
    try:  # the standard games interleaved with python-chess's (bench/engine.py side_by_side)
        (seconds, actions, gen, counts, apply_seconds), chess_run = engine_bench.side_by_side(
            args.dt_games, args.chess_games, 0, standard)
    except ImportError:
        seconds, actions, gen, counts, apply_seconds = engine_bench.dungeon_twister_games(args.dt_games, 0, standard)
        chess_run = None
    gen_ms = [t * 1000 for t in gen]
    median, mean = statistics.median(gen_ms), statistics.fmean(gen_ms)
    dt_rate = actions / seconds
    print(f"\n1. engine, standard game ({args.dt_games} random game(s), {actions} actions, CPU): legal_actions per "
          f"main-phase position ({len(gen_ms)} positions, mean {statistics.fmean(counts):.0f} actions): median "
          f"{median:.3f} ms, mean {mean:.3f} ms; apply {apply_seconds / actions * 1e6:.0f} us per action; random "
          f"self-play {dt_rate:.0f} actions/s")
    rows.append(Row("legal_actions per main-phase position", f"median {median:.3f} ms, mean {mean:.3f} ms",
                    BARS["legal"], median <= 0.2 and mean <= 0.35))
    if chess_run is None:
        print("   python-chess is not installed (pip install -e '.[bench]'): no ratio")
        rows.append(Row("random self-play vs python-chess", "not measured: python-chess missing", BARS["ratio"],
                        None))
    else:
        chess_seconds, moves, finished = chess_run
        ratio = dt_rate / (moves / chess_seconds)
        print(f"   python-chess random self-play, interleaved with those games ({finished} games finished, "
              f"is_game_over() each move): {moves / chess_seconds:.0f} moves/s; ratio {ratio:.3f}x")
        rows.append(Row("random self-play vs python-chess", f"{ratio:.3f}x", BARS["ratio"], ratio >= 0.3))

    # the echo reference
    echo = Process("--echo")
    echo_times = await echo_round_trips(echo.port, 2000)
    paced_times = await echo_round_trips(echo.port, PACED_ECHO_TRIPS, PROBE_PAUSE)
    echo.stop()
    echo_p50, paced_p50 = statistics.median(echo_times), statistics.median(paced_times)
    print(f"\nraw trio msgpack echo round trip (loopback TCP, action-sized frame): back to back (2000 trips) p50 "
          f"{ms(echo_p50)}, p99 {ms(percentile(echo_times, 0.99))}; a trip every {PROBE_PAUSE * 1000:g} ms as the "
          f"probe plays ({PACED_ECHO_TRIPS} trips) p50 {ms(paced_p50)}, p99 {ms(percentile(paced_times, 0.99))}")

    # 2 and 3. one game, nothing else
    server = Process("--serve", "0")
    server.go()
    await trio.sleep(0.5)
    cpu_before = server.cpu_seconds()
    played = await action_round_trips(server.port, args.seconds)
    cpu = server.cpu_seconds() - cpu_before
    server.stop()
    if played.applied:
        per_action = cpu / played.applied
        print(f"\n2. server CPU per applied action (1 probe game, {played.applied} actions applied: "
              f"{len(played.times)} actions + {played.secret} secret choices; {played.refused} refused): "
              f"{cpu:.2f} s / {played.applied} = {ms(per_action)}")
        rows.append(Row("server CPU per applied action", ms(per_action), BARS["cpu"], per_action <= 0.0006))
    else:
        print("\n2. server CPU per applied action: not measured (the probe game applied no action)")
        rows.append(Row("server CPU per applied action", "not measured: no action applied", BARS["cpu"], None))
    if played.times:
        p50 = statistics.median(played.times)
        waking = max(0.0, paced_p50 - echo_p50)
        ratio = (p50 - waking) / echo_p50
        print(f"3. action round trip, 1 game ({len(played.times)} actions, {PROBE_PAUSE * 1000:g} ms apart): p50 "
              f"{ms(p50)} = {p50 / echo_p50:.1f}x echo; less the waking of an idle process ({ms(waking)}, the paced "
              f"echo's p50 less the back-to-back one's): {ms(p50 - waking)} = {ratio:.1f}x echo; "
              f"p90 {ms(percentile(played.times, 0.9))}, p99 {ms(percentile(played.times, 0.99))}")
        rows.append(Row("action round trip, 1 game, p50 / echo p50", f"{ms(p50)} = {p50 / echo_p50:.1f}x; less "
                        f"waking {ratio:.1f}x", BARS["round trip"], ratio <= 5))
    else:
        print("3. action round trip: not measured (the probe completed no action)")
        rows.append(Row("action round trip, 1 game", "not measured: no action completed", BARS["round trip"], None))

    # 4 and 5 (per game). bot games at rising counts
    where = "in the server process" if args.in_process else "in another process, over loopback TCP"
    print(f"\n4. concurrent games (load: bot games {where}, a move every ~{THINK:g} s each; probe measured "
          f"{args.seconds:g} s after the start-up burst settled, at most {args.settle:g} s)")
    print("  games  created  settled after     CPU  actions      p50        p99   probe CPU    RSS   per game")
    held, held_cpu, at_2000, game_memory, previous, measured = 0, None, None, None, 0, []
    for games in args.games:
        bots = None
        if args.in_process:
            server = Process("--serve", str(games - 1))
            base = server.rss_mb()
            server.go()
        else:
            server = Process("--serve", "0")
            server.go()
            await trio.sleep(0.5)
            base = server.rss_mb()
            if games > 1:
                bots = Process("--bots", str(server.port), str(games - 1))
                bots_base = bots.rss_mb()
                bots.go()
        t0 = time.perf_counter()
        loader = bots or server
        if games > 1 and not loader.wait_ready(120):
            print(f"{games:7d}  the server did not create its games within 120 s")
            server.stop()
            if bots:
                bots.stop()
            break
        created = time.perf_counter() - t0
        if games > 1:
            settled, waited, samples = await settle(server, args.settle)
        else:  # no load, no burst
            await trio.sleep(0.5)
            settled, waited, samples = True, 0.0, [0.0]
        steady_cpu = statistics.fmean(samples[-STEADY_SAMPLES:])
        rss = server.rss_mb()
        per_game = (rss - base) * 1024 * 1024 / 1000 / games
        measured.append(games)
        bots_per_game = None if bots is None else (bots.rss_mb() - bots_base) * 1024 * 1024 / 1000 / (games - 1)
        if 100 <= games <= 2000:  # fewer games: the growth is mostly noise
            game_memory = (games, per_game, rss - base, settled, bots_per_game)
        cpu_before, wall_before = server.cpu_seconds(), time.perf_counter()
        bots_cpu_before = bots.cpu_seconds() if bots else 0.0
        played = await action_round_trips(server.port, args.seconds, grace=args.grace, setup=args.setup)
        wall = time.perf_counter() - wall_before
        probe_cpu = (server.cpu_seconds() - cpu_before) / wall
        bots_cpu = (bots.cpu_seconds() - bots_cpu_before) / wall if bots else None
        server.stop()
        if bots:
            bots.stop()
        how = f"{waited:5.0f} s" if settled else f"not in {waited:.0f} s"
        head = f"{games:7d} {created:6.1f} s  {how:>13} {steady_cpu * 100:5.0f} %"
        if not played.times:
            if played.deadline is None:
                why = f"the probe's game was not set up within {args.setup:g} s"
            else:
                why = f"no probe action completed in {args.seconds:g} + {args.grace:g} s"
            print(f"{head}  saturated: {why}   {rss:5.0f} MB {per_game:6.0f} KB")
            if bots:
                print(bots_line(games, bots_cpu, bots_per_game))
            if games >= 2000 and at_2000 is None:
                at_2000 = (games, None, probe_cpu)
            break
        p50, p99 = statistics.median(played.times), percentile(played.times, 0.99)
        print(f"{head} {len(played.times):8d} {ms(p50):>9} {ms(p99):>10}   {probe_cpu * 100:5.0f} %  "
              f"{rss:5.0f} MB {per_game:6.0f} KB")
        if bots:
            print(bots_line(games, bots_cpu, bots_per_game))
        if games >= 2000 and at_2000 is None:
            at_2000 = (games, p99, probe_cpu)
        if p99 < TARGET_P99_MS / 1000:
            if held == previous:  # every level below held too
                held, held_cpu = games, probe_cpu
        elif games >= 2000:
            break
        previous = games
        if time.perf_counter() - started > args.budget:
            print(f"  (stopping: the run has taken over {args.budget:g} s)")
            break
    if held:
        held_text = f"{held} games at {held_cpu * 100:.0f}% CPU"
    else:
        held_text = f"no level held (measured: {', '.join(map(str, measured))} games)"
    print(f"  held with p99 < {TARGET_P99_MS:g} ms: {held_text}")
    if at_2000 is None:
        rows.append(Row("concurrent human-paced games, p99 < 50 ms", f"{held_text}; 2,000 not measured",
                        BARS["games"], False if held else None))
    else:
        games, p99, cpu_share = at_2000
        if p99 is None:
            figure, met = f"saturated at {games} games", False
        else:
            figure = f"at {games} games: p99 {ms(p99)}, CPU {cpu_share * 100:.0f}%"
            met = p99 < TARGET_P99_MS / 1000 and cpu_share <= 0.70
        if held and held != games:
            figure = f"held {held}; {figure}"
        rows.append(Row("concurrent human-paced games, p99 < 50 ms", figure, BARS["games"], met))
    young = ""
    if game_memory is not None:
        games, per_game, grown, settled, bots_per_game = game_memory
        note = "" if settled else ", not settled"
        if bots_per_game is None:
            how = "bots in the server process: their client side counted too"
        else:
            how = f"server alone, bots in another process over TCP; the bots' process: {bots_per_game:.0f} KB a game"
        print(f"5. memory per game in its first minute: {per_game:.0f} KB ({games} beginner games: +{grown:.0f} MB"
              f"{note}; {how})")
        young = f"; first minute {per_game:.0f} KB"

    # 5. memory per game in play: a game more (two servers, N/2 and N games), and the growth per game from the start
    half = args.in_play_games // 2
    in_play = await in_play_memory(args.in_play_games, IN_PLAY_ACTIONS)
    fewer = await in_play_memory(half, IN_PLAY_ACTIONS) if not isinstance(in_play, str) else in_play
    if isinstance(in_play, str) or isinstance(fewer, str):
        print(f"5. memory per game in play: not measured ({in_play if isinstance(in_play, str) else fewer})")
        rows.append(Row("memory per active game", f"in play not measured{young}", BARS["game memory"], None))
    else:
        per_game, grown = in_play
        marginal = (grown - fewer[1]) * 1024 * 1024 / 1000 / (args.in_play_games - half)
        print(f"5. memory per game in play: {marginal:.0f} KB a game more ({half} and {args.in_play_games} standard "
              f"games at about {IN_PLAY_ACTIONS} actions each: +{fewer[1]:.1f} MB and +{grown:.1f} MB, server "
              f"alone); {per_game:.0f} KB a game from the start (with what the start left free)")
        rows.append(Row("memory per active game", f"{marginal:.0f} KB in play ({half} -> {args.in_play_games} games "
                        f"at ~{IN_PLAY_ACTIONS} actions; {per_game:.0f} KB from the start){young}",
                        BARS["game memory"], marginal <= 100))

    # 5. memory per idle connection
    server = Process("--serve", "0")
    server.go()
    await trio.sleep(0.5)
    base = server.rss_mb()
    streams = await idle_connections(server.port, IDLE_CONNECTIONS)
    await trio.sleep(0.5)
    grown = server.rss_mb() - base
    per_connection = grown * 1024 / IDLE_CONNECTIONS
    print(f"5. memory per idle connection (in the lobby): {per_connection:.1f} KiB "
          f"({IDLE_CONNECTIONS} connections: {base:.1f} MB -> {base + grown:.1f} MB)")
    rows.append(Row("memory per idle connection", f"{per_connection:.1f} KiB", BARS["idle memory"],
                    per_connection <= 8))
    for stream in streams:
        await stream.aclose()
    server.stop()

    # 6. the client (bench/client.py)
    client_bench = load_bench("client")
    try:
        cold = client_bench.help_cold_start(args.cold_runs)
    except (OSError, RuntimeError) as error:
        print(f"\n6. dt-client --help cold start: not measured ({error})")
        rows.append(Row("dt-client --help cold start", f"not measured: {error}", BARS["cold start"], None))
    else:
        print(f"\n6. dt-client --help cold start (wall, median of {args.cold_runs} runs): {cold:.3f} s")
        rows.append(Row("dt-client --help cold start", f"{cold:.3f} s", BARS["cold start"], cold <= 0.15))
    try:
        render = client_bench.render_time(args.renders)
        along, count = client_bench.render_along_game(limit=args.along)
    except (ImportError, RuntimeError) as error:
        print(f"   render_board: not measured ({error})")
        rows.append(Row("one board render", f"not measured: {error}", BARS["render"], None))
    else:
        along_what = "a whole game" if args.along is None else f"a game's first {count} positions"
        print(f"   render_board on a mid-game view (CPU, median of {args.renders} renders): {ms(render)}; along "
              f"{along_what} (every step's view, layout changes included): mean {ms(along)} over {count} renders")
        worst = max(render, along)
        rows.append(Row("one board render", ms(worst), BARS["render"], worst <= 0.001))

    print(f"\nsummary (run took {time.perf_counter() - started:.0f} s)")
    width = max(len(row.name) for row in rows)
    fig_width = max(len(row.figure) for row in rows)
    bar_width = max(len(row.bar) for row in rows)
    print(f"{'row':<{width}}  {'figure':<{fig_width}}  {'bar':<{bar_width}}  met")
    for row in rows:
        met = "n/a" if row.met is None else "yes" if row.met else "no"
        print(f"{row.name:<{width}}  {row.figure:<{fig_width}}  {row.bar:<{bar_width}}  {met}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="one engine game, 10 chess games, 4 s probes, only the 2,000-game level, 30 games in "
                             "play for row 5, renders along a game's first 2,500 positions (about a minute on a "
                             "quiet machine)")
    parser.add_argument("--games", default="1,500,1000,1500,2000,2500",
                        help="concurrent game counts to climb, the probe's included (default: %(default)s)")
    parser.add_argument("--seconds", type=float, default=10.0, help="probe time per level (default: 10)")
    parser.add_argument("--settle", type=float, default=60.0,
                        help="longest wait for the start-up burst to settle, per level (default: 60 s)")
    parser.add_argument("--in-process", action="store_true",
                        help="rows 4 and 5: the load bots play inside the server process (in-memory pipes), as "
                             "before; by default they play from another process over loopback TCP")
    parser.add_argument("--serve", type=int, metavar="GAMES", help=argparse.SUPPRESS)
    parser.add_argument("--store", metavar="DIR", help=argparse.SUPPRESS)
    parser.add_argument("--echo", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--bots", type=int, nargs=2, metavar=("PORT", "GAMES"), help=argparse.SUPPRESS)
    parser.add_argument("--played", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--in-play-games", type=int, default=None,
                        help="row 5: standard games measured in play (default: 300, 30 with --quick)")
    args = parser.parse_args()
    if args.echo:
        trio.run(serve_echo)
    elif args.bots is not None:
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        trio.run(serve_remote_bots, args.bots[0], args.bots[1], args.played)
    elif args.serve is not None:
        profile_to = os.environ.get("DT_BENCH_PROFILE")
        if profile_to:  # a cProfile of the server process, written when it is stopped (SIGTERM)
            import cProfile
            import signal

            profiler = cProfile.Profile()

            def _dump(signum, frame):
                profiler.disable()
                profiler.dump_stats(f"{profile_to}.{args.serve}.{os.getpid()}")
                os._exit(0)

            signal.signal(signal.SIGTERM, _dump)
            profiler.enable()
        trio.run(serve_bots, args.serve, args.store)
    else:
        args.games = [int(n) for n in args.games.split(",")]
        args.dt_games, args.chess_games, args.cold_runs, args.renders, args.budget = 3, 50, 9, 1000, 900
        args.grace, args.setup, args.along = 10.0, 20.0, None
        in_play_games = 300
        if args.quick:
            args.games, args.seconds, args.settle, args.grace, args.setup = [2000], 4.0, 22.0, 4.0, 10.0
            args.along = 2500
            args.dt_games, args.chess_games, args.cold_runs, args.renders, args.budget = 1, 10, 5, 300, 60
            in_play_games = 30
        if args.in_play_games is None:
            args.in_play_games = in_play_games
        trio.run(main, args)
