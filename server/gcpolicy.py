"""Keep CPython's cyclic garbage collector from pausing every table at once.

A full collection walks every tracked object: with two thousand games (their recent states, sessions, tasks) that
is 0.2-0.3 s during which no table moves, and it finds next to nothing, since the server's data is freed by
reference counting. So:

- while the server works, everything that has lived through about WORK_PER_FREEZE of its CPU (40 ms: a tenth of a
  second at 2,000 games) is frozen out of the collector (`gc.freeze`, which costs nothing: it moves a list, and
  starts the young generation's count afresh), so the young collections only walk what that work made; a frozen
  object that is no longer used is still freed by reference counting; an idle server freezes less and less often,
  down to once a second;
- CPython never starts a full collection by itself (its third threshold is out of reach); the one full collection
  runs here every FULL_COLLECTION_SECONDS, after unfreezing, and frees the rare reference cycles.

Measured at 2,000 human-paced bot games in one process (60 s, `gc.callbacks`): freezing every 10 s with CPython's
own full collections, 6 full collections of up to 0.31 s and young collections of up to 65 ms, 4.9 s of collecting
in all; freezing every second with no automatic full collection, none, young collections of up to 31 ms, 2.5 s.

Why a tenth of a second, not a second (2026-11-28, bench/server.py's load and a trio Instrument timing task steps,
10 s windows): between two freezes the young collections grew to 17-25 ms (CPython's count of young objects goes
down when any object is freed, frozen ones included, so a server freeing old states as fast as it makes new ones
lets the young generation grow far past the 700-object threshold). Freezing every second: 38 young collections,
153 ms in all, the longest 24 ms, 27 table steps over 4 ms; every tenth of a second: 60, 39 ms, the longest
4.1 ms, 6 such steps. The full collection after 60 s of that load found no cyclic garbage with either period
(0 objects), so freezing sooner lets nothing escape the collector that it would have freed. Every tenth of a second
whatever the load, an idle server took 0.5% of a core (a wake-up of trio's loop costs ~0.45 ms of CPU on the
development VM): the wait now doubles, up to a second, while the process works less than BUSY_SHARE of it (idle
again: 2 ticks of CPU in 20 s, as with one a second; at 2,000 games, young collections of 2.8 ms at most).

Why by work, not by time (2026-11-30): what a young collection walks is what the process made since the last
freeze, which grows with the CPU it spent, not with the clock. The tenth of a second was measured at 2,000 games,
~43% of a core: ~40 ms of work between freezes. A busy process now waits WORK_PER_FREEZE of CPU over the share of a
core its last wait took (a tenth at 40% and more, as before; half a second at 8%). A process between 5% and 40% of
a core (a few hundred to ~2,000 human-paced games, or bench/server.py's probe, a game played an action every 20 ms
at ~6-8%) was woken ten times a second for it, a wake-up of a nearly idle process being dear (~155 K instructions
in trio, and cold caches: docs/scaling.md); one human-paced game (~0.04% of a core) was already on the idle path.
Not measured: its gain is below this machine's noise.

The young collections' threshold stays CPython's (700 allocations): measured on one game of bench/server.py's
probe (rows 2 and 3, `gc.callbacks`, a 2-core VM under load), 23 young collections took 5 ms over 221 actions,
0.02 ms an action, about 1% of the server's CPU per action; a threshold of 10,000 made none in that window, so
raising it would save at most that 1% there (not measured at 2,000 games, where each collection would walk more).
"""

from __future__ import annotations

import gc
import time

import trio

from .logs import log

FREEZE_SECONDS = 0.1
IDLE_FREEZE_SECONDS = 1.0
"""The longest wait between two freezes: while the process is idle (it spent less than BUSY_SHARE of the last wait
working) the wait doubles up to this; the first busy wait brings it back to FREEZE_SECONDS. A wake-up of the loop
costs ~0.45 ms of CPU on the development VM: every tenth of a second, an idle server took 0.5% of a core (0.05% with
one a second). (Young collections are no sign of work: with frequent freezes a busy server runs few of them.)"""
BUSY_SHARE = 0.05
WORK_PER_FREEZE = 0.04
"""The CPU seconds a busy process works between two freezes (`next_wait`): 2,000 human-paced games, ~43% of a
core, freeze every tenth of a second, as measured best."""
FULL_COLLECTION_SECONDS = 900.0
NEVER = 1 << 30
"""A third collection threshold CPython's collector never reaches: full collections are this module's to run."""


def next_wait(wait: float, worked: float, freeze_every: float = FREEZE_SECONDS,
              idle_every: float = IDLE_FREEZE_SECONDS, work_per_freeze: float = WORK_PER_FREEZE) -> float:
    """The wait before the next freeze, after a wait of `wait` seconds in which the process worked `worked` CPU
    seconds: idle (at most BUSY_SHARE of it), twice the last; busy, `work_per_freeze` over its share of a core;
    always between `freeze_every` and `idle_every`."""
    longest = max(idle_every, freeze_every)
    share = worked / wait
    if share <= BUSY_SHARE:
        return min(wait * 2, longest)
    return min(max(work_per_freeze / share, freeze_every), longest)


async def tame_gc(freeze_every: float = FREEZE_SECONDS, collect_every: float = FULL_COLLECTION_SECONDS,
                  idle_every: float = IDLE_FREEZE_SECONDS, work_per_freeze: float = WORK_PER_FREEZE) -> None:
    """Freeze long-lived objects after about `work_per_freeze` CPU seconds of work, every `freeze_every` seconds
    at most, less often (up to every `idle_every` seconds) while the server is idle; unfreeze and collect every
    `collect_every`."""
    saved = gc.get_threshold()
    gc.set_threshold(saved[0], saved[1], NEVER)
    since_collection = 0.0
    wait = freeze_every
    cpu = _cpu_seconds()
    try:
        while True:
            await trio.sleep(wait)
            since_collection += wait
            if since_collection >= collect_every:
                since_collection = 0.0
                gc.unfreeze()
                collected = gc.collect()
                log("gc_collected", objects=collected)
            gc.freeze()
            now = _cpu_seconds()
            worked, cpu = now - cpu, now
            wait = next_wait(wait, worked, freeze_every, idle_every, work_per_freeze)
    finally:  # the server stops (or a test's server does): the process's collector is as it was
        gc.set_threshold(*saved)
        gc.unfreeze()


def _cpu_seconds() -> float:
    """The process's CPU time so far (a sign of work that no clock of trio's, mock or real, stands in for)."""
    return time.process_time()
