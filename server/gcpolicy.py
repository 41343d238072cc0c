"""Keep CPython's cyclic garbage collector from pausing every table at once.

A full collection walks every tracked object: with two thousand games (their recent states, sessions, tasks) that
is 0.2-0.3 s during which no table moves, and it finds next to nothing, since the server's data is freed by
reference counting. So:

- everything that has lived a second is frozen out of the collector (`gc.freeze`, which costs nothing: it moves a
  list), so the young collections only walk what the last second made; a frozen object that is no longer used is
  still freed by reference counting;
- CPython never starts a full collection by itself (its third threshold is out of reach); the one full collection
  runs here every FULL_COLLECTION_SECONDS, after unfreezing, and frees the rare reference cycles.

Measured at 2,000 human-paced bot games in one process (60 s, `gc.callbacks`): freezing every 10 s with CPython's
own full collections, 6 full collections of up to 0.31 s and young collections of up to 65 ms, 4.9 s of collecting
in all; freezing every second with no automatic full collection, none, young collections of up to 31 ms, 2.5 s.

The young collections' threshold stays CPython's (700 allocations): measured on one game of bench/server.py's
probe (rows 2 and 3, `gc.callbacks`, a 2-core VM under load), 23 young collections took 5 ms over 221 actions,
0.02 ms an action, about 1% of the server's CPU per action; a threshold of 10,000 made none in that window, so
raising it would save at most that 1% there (not measured at 2,000 games, where each collection would walk more).
"""

from __future__ import annotations

import gc

import trio

from .logs import log

FREEZE_SECONDS = 1.0
FULL_COLLECTION_SECONDS = 900.0
NEVER = 1 << 30
"""A third collection threshold CPython's collector never reaches: full collections are this module's to run."""


async def tame_gc(freeze_every: float = FREEZE_SECONDS, collect_every: float = FULL_COLLECTION_SECONDS) -> None:
    """Freeze long-lived objects every `freeze_every` seconds; unfreeze and collect every `collect_every`."""
    saved = gc.get_threshold()
    gc.set_threshold(saved[0], saved[1], NEVER)
    since_collection = 0.0
    try:
        while True:
            await trio.sleep(freeze_every)
            since_collection += freeze_every
            if since_collection >= collect_every:
                since_collection = 0.0
                gc.unfreeze()
                collected = gc.collect()
                log("gc_collected", objects=collected)
            gc.freeze()
    finally:  # the server stops (or a test's server does): the process's collector is as it was
        gc.set_threshold(*saved)
        gc.unfreeze()
