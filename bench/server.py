"""Server benchmark (prints figures; not a test). Run: .venv/bin/python bench/server.py [--loads 0,250,1000] [--seconds 10]

1. A raw trio msgpack echo round trip over loopback TCP (an action-sized frame), the floor for any request.
2. The round trip of one game action: a probe player sends `action`; it is timed until both players of the probe
   table have the resulting view (client -> server -> engine -> both players), at 1 game and under load.
3. Load: bot-vs-bot games inside the server process, each bot moving every THINK seconds on average (like a
   person), at rising counts, to find how many concurrent games one process holds with p99 under 50 ms.
4. Memory per idle connection (handshake done, in the lobby).

The server and the echo server run in their own processes (this script, with --serve or --echo), so that the
clients measuring them do not share their CPU.
"""

from __future__ import annotations

import argparse
import itertools
import os
import resource
import statistics
import subprocess
import sys
import time

import msgpack
import trio

from dungeon_twister.engine.rng import Rng
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
)

THINK = 5.0
"""Average seconds a load bot waits before each move."""
TARGET_P99_MS = 50.0
SOFTWARE = Software("dt-bench", "0.1.0")


# --- the processes under test ---------------------------------------------------------------------------------
async def serve_bots(games: int) -> None:
    """A server holding `games` bot-vs-bot games (replaced as they end); prints its port, then "ready"."""
    from dungeon_twister.server import Server, ServerConfig
    from dungeon_twister.server.logs import setup_logging

    setup_logging("WARNING")
    config = ServerConfig(host="127.0.0.1", port=0, ping_interval=0, max_connections=100_000)
    server = Server(config)
    async with trio.open_nursery() as nursery:
        await nursery.start(server.run)
        print(server.port, flush=True)
        numbers = itertools.count(1)
        bot_tables: set = set()
        announced = False
        while True:
            bot_tables = {t for t in bot_tables if t.status != "over" and t.id in server.lobby.tables}
            for _ in range(min(100, games - len(bot_tables))):
                table = server.lobby.create_table(TableOptions(beginner=True), None)
                bot_tables.add(table)
                number = next(numbers)
                for seat in ("B", "Y"):
                    server.lobby.spawn_bot(table, seat, "random", f"load-{number}-{seat}", think=THINK)
            if len(bot_tables) >= games and not announced:
                print("ready", flush=True)
                announced = True
            await trio.sleep(0.1)


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
        self.process = subprocess.Popen([sys.executable, __file__, *args], stdout=subprocess.PIPE, text=True)
        self.port = int(self.process.stdout.readline())

    def wait_ready(self, timeout: float) -> bool:
        return _readline(self.process.stdout, timeout) == "ready"

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


def _readline(stream, timeout: float) -> str:
    import select

    ready, _, _ = select.select([stream], [], [], timeout)
    return stream.readline().strip() if ready else ""


# --- measuring ------------------------------------------------------------------------------------------------
async def echo_round_trips(port: int, count: int) -> list[float]:
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


async def action_round_trips(port: int, seconds: float, pause: float = 0.02) -> list[float]:
    """Play probe games (random moves) for `seconds`; the round trip of every non-secret action."""
    times: list[float] = []
    deadline = time.perf_counter() + seconds
    tables = itertools.count(1)
    rng = Rng(7)
    while time.perf_counter() < deadline:
        number = next(tables)
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
            await _play(probes, table, times, deadline, pause, rng)
            nursery.cancel_scope.cancel()
        for probe in probes:
            await probe.stream.aclose()
    return times


async def _play(probes: list[Probe], table: str, times: list, deadline: float, pause: float, rng: Rng) -> None:
    ids = itertools.count(1)
    while time.perf_counter() < deadline and not any(p.over for p in probes):
        acting = [p for p in probes if p.view and p.view["started"] and p.view["legal"]
                  and p.view["secret"] not in p.committed]
        if not acting:
            await trio.sleep(0.001)
            continue
        probe = acting[0]
        choice = rng.choice(probe.view["legal"])
        if probe.view["secret"] is not None:
            probe.committed.add(probe.view["secret"])
            await probe.send(probe.conn.commit(probe.view["secret"], choice))
            continue
        action_id = f"a{next(ids)}"
        before = probe.conn.last_event
        start = time.perf_counter()
        await probe.send(probe.conn.send(Action(table, action_id, choice)))
        await _until(probe, lambda: action_id in probe.answers and probe.conn.last_event > before
                     and probe.view_at.get(probe.conn.last_event) is not None)
        if isinstance(probe.answers[action_id], ActionOk):
            n = probe.conn.last_event
            for other in probes:
                await _until(other, lambda o=other: o.conn.last_event >= n)
            times.append(max(p.view_at.get(n, start) for p in probes) - start)
        await trio.sleep(pause)


def engine_step_times(count: int = 400) -> list[float]:
    """The engine's share of an action, in this process: apply, the next legal actions, three views and events."""
    from dungeon_twister.engine import Options, apply, event_view, legal_actions, new_game, view
    from dungeon_twister.server.viewing import legal_texts

    state, rng, times = new_game(Options(beginner=True), 7), Rng(7), []
    while len(times) < count and state.outcome is None:
        action = rng.choice(legal_actions(state, state.to_act[0]))
        start = time.perf_counter()
        state, events = apply(state, action)
        for seat in state.to_act:
            legal_texts(state, seat)
        for viewer in ("B", "Y", None):
            view(state, viewer)
            [event_view(event, viewer) for event in events]
        times.append(time.perf_counter() - start)
    return times


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:7.2f} ms"


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


# --- the report -----------------------------------------------------------------------------------------------
async def main(levels: list[int], measure: float) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    started = time.perf_counter()
    print(f"dt-server benchmark: Python {sys.version.split()[0]}, trio {trio.__version__}, {os.cpu_count()} cores")

    echo = Process("--echo")
    echo_times = await echo_round_trips(echo.port, 2000)
    echo.stop()
    echo_p50 = statistics.median(echo_times)
    print(f"\nraw trio msgpack echo round trip (loopback TCP, action-sized frame): p50 {ms(echo_p50)}, "
          f"p99 {ms(percentile(echo_times, 0.99))}")

    engine = engine_step_times()
    print(f"engine work per action (apply, next legal actions, 3 views), in-process: p50 "
          f"{ms(statistics.median(engine))}, p99 {ms(percentile(engine, 0.99))}")
    print(f"\ngame action round trip (probe: random moves, beginner game; load: bot games, a move every "
          f"~{THINK:g} s each)")
    print(" games  actions   p50 (xecho)            p90         p99    server CPU   RSS")
    held = 0
    per_action = rss_alone = per_game = None
    for load in levels:
        games = load + 1  # the probe's own game
        server = Process("--serve", str(load))
        ready = server.wait_ready(120) if load else True
        if not ready:
            print(f"{games:6d}  the server could not start {load} games within 2 minutes")
            server.stop()
            break
        await trio.sleep(min(10.0, 2 + load / 200))  # let the load games leave their setup
        cpu_before, wall_before = server.cpu_seconds(), time.perf_counter()
        times = await action_round_trips(server.port, measure)
        cpu_used = server.cpu_seconds() - cpu_before
        cpu = cpu_used / (time.perf_counter() - wall_before)
        rss = server.rss_mb()
        if not load:
            per_action, rss_alone = cpu_used / max(1, len(times)), rss
        else:
            per_game = (rss - rss_alone) * 1024 / load if rss_alone is not None else None
        server.stop()
        p50, p99 = statistics.median(times), percentile(times, 0.99)
        print(f"{games:6d} {len(times):8d} {ms(p50)} (x{p50 / echo_p50:4.1f}) {ms(percentile(times, 0.9))} "
              f"{ms(p99)}   {cpu * 100:5.0f} %   {rss:6.0f} MB")
        if p99 < TARGET_P99_MS / 1000:
            held = games
        elif load:
            break
        if time.perf_counter() - started > 150:
            print("(stopping here to keep the run short)")
            break
    if per_action is not None:
        print(f"\nserver CPU per applied action (1 game: server CPU time / probe actions): {per_action * 1000:.2f} ms")
    if per_game is not None:
        print(f"memory per active game (RSS growth per added bot game): {per_game:.0f} KB")
    print(f"\nconcurrent games held with p99 action latency under {TARGET_P99_MS:g} ms: {held} "
          f"(bots moving every ~{THINK:g} s; one process, one core)")

    server = Process("--serve", "0")
    await trio.sleep(0.5)
    base = server.rss_mb()
    count = 1000
    streams = await idle_connections(server.port, count)
    await trio.sleep(0.5)
    grown = server.rss_mb() - base
    print(f"\nmemory per idle connection (in the lobby): {grown * 1024 / count:.1f} KiB "
          f"({count} connections: {base:.0f} MB -> {base + grown:.0f} MB)")
    for stream in streams:
        await stream.aclose()
    server.stop()
    print(f"\n(run took {time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loads", default="0,250,500,1000,1500,2000",
                        help="numbers of load games to measure under (default: %(default)s)")
    parser.add_argument("--seconds", type=float, default=10.0, help="measuring time per load (default: 10)")
    parser.add_argument("--serve", type=int, metavar="GAMES", help=argparse.SUPPRESS)
    parser.add_argument("--echo", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.echo:
        trio.run(serve_echo)
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
        trio.run(serve_bots, args.serve)
    else:
        trio.run(main, [int(n) for n in args.loads.split(",")], args.seconds)
