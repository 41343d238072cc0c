"""What a server holds per active game, by tracemalloc (prints figures; not a test).

    .venv/bin/python bench/memory.py [--games 300] [--wait 30] [--top 25] [--bots-process [--played 150]]

Runs a server in this process with `--games` human-paced bot-vs-bot games (bench/server.py's load: a move every
~5 s each; with --bots-process, the bots play from another process over loopback TCP, bench/server.py --bots, and
all that is traced is the server's) and takes a tracemalloc snapshot `--wait` seconds after they were all created,
or with --played after the games have played that many actions (tracemalloc started just before the first game,
so what the server made at start-up is not counted). Each live allocation is put on one side
by its traceback (deep enough to reach the task that made it):

- bots: made while a bot ran (server/bot.py, engine/tools/bots.py, lobby's spawn_bot/_run_bot, the in-memory pipes'
  client end): what two remote players would not cost the server;
- pipes: the in-memory pipes' buffers and parking lots (a TCP connection has kernel buffers instead);
- server: everything else (tables, play, sessions, event log, views, engine states and caches).

The sides are printed in KB per game, then the largest allocation sites (file:line of the innermost project frame)
and object types (gc objects, by type, deep size not counted) of the server side.
"""

from __future__ import annotations

import argparse
import ast
import gc
import importlib.util
import itertools
import resource
import sys
import tracemalloc
from collections import Counter, defaultdict
from pathlib import Path

import trio

ROOT = Path(__file__).resolve().parent.parent
THINK = 5.0


def function_lines(path: Path, names: set[str]) -> set[int]:
    """The line numbers of the functions `names` in `path`."""
    tree = ast.parse(path.read_text())
    lines = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name in names:
            lines.update(range(node.lineno, node.end_lineno + 1))
    return lines


BOT_FILES = ("server/bot.py", "engine/tools/bots.py")
BOT_LINES = {"server/lobby.py": function_lines(ROOT / "server/lobby.py", {"spawn_bot", "_run_bot"})}
PIPE_FILE = "server/pipes.py"


SERVER_LINES = {"server/server.py": function_lines(ROOT / "server/server.py", {"connect_memory"})}


def side(traceback) -> str:
    """The innermost frame that tells decides (tracemalloc lists the oldest frame first)."""
    for frame in reversed(list(traceback)):
        name, line = frame.filename, frame.lineno
        if name.endswith(PIPE_FILE):
            return "pipes"
        if any(name.endswith(path) and line in lines for path, lines in SERVER_LINES.items()):
            return "server"  # the server end's Session, made when a bot connects
        if name.endswith(BOT_FILES) or any(name.endswith(path) and line in lines for path, lines in BOT_LINES.items()):
            return "bots"
    return "server"


def site(traceback) -> str:
    """The innermost frame in the project (else the innermost frame)."""
    frames = list(traceback)
    project = [f for f in frames if f.filename.startswith(str(ROOT)) and "/.venv/" not in f.filename]
    frame = project[-1] if project else frames[-1]
    name = frame.filename.replace(str(ROOT) + "/", "")
    return f"{name}:{frame.lineno}"


def _bench_server():
    """bench/server.py as a module (bench/ is not a package): its `refill` makes the load games."""
    spec = importlib.util.spec_from_file_location("dt_bench_server", ROOT / "bench" / "server.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


async def run(games: int, wait: float, top: int, remote: bool, think: float, played: int = 0) -> None:
    bench_server = _bench_server()
    from dungeon_twister.server import Server, ServerConfig
    from dungeon_twister.server.logs import setup_logging

    setup_logging("WARNING")
    server = Server(ServerConfig(host="127.0.0.1", port=0, max_connections=100_000, max_connections_per_address=0,
                                 max_tables_per_hour=0, bot_pace=0))  # (its bots play as fast as they can)
    async with trio.open_nursery() as nursery:
        await nursery.start(server.run)
        gc.collect()
        tracemalloc.start(40)
        numbers = itertools.count(1)
        bot_tables: set = set()
        started = None
        if remote:
            # bench/server.py --bots, read in a thread with a deadline: this process's trio loop serves the games
            bots = bench_server.Process("--bots", str(server.port), str(games), "--played", str(played))
            bots.go()
            waits = [("ready", 120.0)] + ([("played", bench_server.IN_PLAY_WAIT)] if played else [])
            for line, seconds in waits:  # the tables are all created; the games are in play
                if await trio.to_thread.run_sync(bots.readline, seconds) != line:
                    bots.stop()
                    sys.exit(f"the bots did not say {line!r} within {seconds:g} s")
            started = trio.current_time()
            await trio.sleep(wait)
            games = 0  # no in-process bots
        while started is None or trio.current_time() - started < wait:
            bot_tables = bench_server.refill(server, bot_tables, numbers, games, think)
            if started is None and len(bot_tables) >= games:
                started = trio.current_time()
            await trio.sleep(0.1)
        active = len(server.lobby.tables)
        actions = [table.play.game.record.count - 1 for table in server.lobby.tables.values()]
        print(f"{active} tables, record lines (actions and comments) per table: mean "
              f"{sum(actions) / max(1, active):.0f}, max {max(actions, default=0)}")
        gc.collect()
        snapshot = tracemalloc.take_snapshot()
        tracemalloc.stop()
        if remote:
            bots.stop()
        report(snapshot, active, top)
        gc.unfreeze()  # the server's GC policy freezes what lives: gc.get_objects() would not list it
        types = Counter()
        for obj in gc.get_objects():
            types[type(obj).__qualname__] += sys.getsizeof(obj)
        print(f"\ngc-tracked objects by type (shallow sizes, whole process, KB per game over {active} games):")
        for name, size in types.most_common(top):
            print(f"  {size / 1000 / active:8.2f}  {name}")
        nursery.cancel_scope.cancel()


def report(snapshot, games: int, top: int) -> None:
    sides: Counter = Counter()
    sites: dict[str, Counter] = defaultdict(Counter)
    for trace in snapshot.traces:
        s = side(trace.traceback)
        sides[s] += trace.size
        sites[s][site(trace.traceback)] += trace.size
    total = sum(sides.values())
    print(f"tracemalloc: {games} active games, {total / 1e6:.1f} MB traced = {total / 1000 / games:.1f} KB per game")
    for name in ("server", "bots", "pipes"):
        print(f"  {name:7s} {sides[name] / 1000 / games:7.1f} KB per game")
    for name in ("server", "bots"):
        files: Counter = Counter()
        for where, size in sites[name].items():
            files[where.rsplit(":", 1)[0]] += size
        print(f"\n{name} side by file (innermost project frame), KB per game:")
        for where, size in files.most_common(top):
            print(f"  {size / 1000 / games:8.2f}  {where}")
        print(f"\n{name} side, largest sites (innermost project frame), KB per game:")
        for where, size in sites[name].most_common(top):
            print(f"  {size / 1000 / games:8.2f}  {where}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--wait", type=float, default=30.0)
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--think", type=float, default=THINK,
                        help="in-process bots: average seconds before each move (default: %(default)s); shorter "
                             "makes older games (a longer event log, record and answers) in the same time")
    parser.add_argument("--bots-process", action="store_true",
                        help="the bots play from another process over loopback TCP")
    parser.add_argument("--played", type=int, default=0, metavar="ACTIONS",
                        help="with --bots-process: standard games whose bots play their first ACTIONS actions "
                             "without thinking (bench/server.py's row 5, games in play); --wait counts from then")
    args = parser.parse_args()
    if args.played and not args.bots_process:
        parser.error("--played needs --bots-process")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    trio.run(run, args.games, args.wait, args.top, args.bots_process, args.think, args.played)
