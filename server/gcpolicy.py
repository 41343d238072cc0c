"""Keep CPython's cyclic garbage collector from pausing every table at once.

A full collection walks every tracked object: with a thousand games (their recent states, sessions, tasks) that
is about half a second during which no table moves, and it finds next to nothing, since the server's data is
freed by reference counting. So the objects that survived a while are frozen out of the collector
(`gc.freeze`), and a real full collection runs only rarely.
"""

from __future__ import annotations

import gc

import trio

from .logs import log

FREEZE_SECONDS = 10.0
FULL_COLLECTION_SECONDS = 900.0


async def tame_gc(freeze_every: float = FREEZE_SECONDS, collect_every: float = FULL_COLLECTION_SECONDS) -> None:
    """Freeze long-lived objects every `freeze_every` seconds; unfreeze and collect every `collect_every`."""
    since_collection = 0.0
    while True:
        await trio.sleep(freeze_every)
        since_collection += freeze_every
        if since_collection >= collect_every:
            since_collection = 0.0
            gc.unfreeze()
            collected = gc.collect()
            log("gc_collected", objects=collected)
        gc.freeze()
