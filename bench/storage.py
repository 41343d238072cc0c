"""Storage benchmark (prints figures; not a test). Run: .venv/bin/python bench/storage.py [--actions 300] [--dir D]

The cost of making one game action durable, as the table's task pays it: one transaction holding one journal
line, committed, with the store's file in WAL mode on the disk of DIR (default: a temporary directory under the
current one), for synchronous=FULL (an fsync per commit) and NORMAL, and for the in-memory store tests use.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from dungeon_twister.server.storage import StoredTable, open_storage


def measure(store, actions: int) -> list[float]:
    store.add_table(StoredTable("t1-bench", 1, {"target_vp": 5}, 42, "ann", None, time.time()))
    times = []
    for number in range(actions):
        start = time.perf_counter()
        with store.transaction():
            store.add_line("t1-bench", f"B: move bWA a{number % 9} b{number % 9}", {"k": "action", "id": f"B-{number}",
                                                                                  "typed": "move"})
        times.append(time.perf_counter() - start)
    return times


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--actions", type=int, default=300)
    parser.add_argument("--dir", type=Path, default=Path.cwd())
    args = parser.parse_args()
    args.dir.mkdir(parents=True, exist_ok=True)  # measure on the disk the server's data dir would use
    rows = []
    for sync in ("full", "normal", "memory"):
        with tempfile.TemporaryDirectory(dir=args.dir) as directory:
            store = open_storage(None if sync == "memory" else directory, sync="full" if sync == "memory" else sync)
            try:
                times = measure(store, args.actions)
            finally:
                store.close()
        times.sort()
        rows.append((sync, statistics.median(times), times[int(len(times) * 0.99) - 1], sum(times) / len(times)))
    print(f"one durable action (transaction + journal line + commit), {args.actions} actions, dir {args.dir}")
    for sync, median, p99, mean in rows:
        print(f"  {sync:7} median {median * 1e6:8.0f} us   p99 {p99 * 1e6:8.0f} us   mean {mean * 1e6:8.0f} us")


if __name__ == "__main__":
    main()
