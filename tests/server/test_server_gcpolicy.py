"""The server's garbage-collector policy (server/gcpolicy.py): no automatic full collection while it runs, long-lived
objects frozen out of the young collections, and the process's collector as it was once the server stops."""

import gc

import trio

from dungeon_twister.server.gcpolicy import NEVER, tame_gc


async def test_freezes_every_interval_and_restores_the_collector(autojump_clock):
    saved = gc.get_threshold()
    gc.unfreeze()
    async with trio.open_nursery() as nursery:
        nursery.start_soon(tame_gc, 1.0, 900.0)
        await trio.sleep(0.5)
        assert gc.get_threshold() == (saved[0], saved[1], NEVER)  # CPython starts no full collection itself
        assert gc.get_freeze_count() == 0  # nothing frozen before the first interval
        await trio.sleep(1.0)
        assert gc.get_freeze_count() > 0  # what lived a second is out of the young collections
        nursery.cancel_scope.cancel()
    assert gc.get_threshold() == saved
    assert gc.get_freeze_count() == 0


async def test_the_full_collection_unfreezes_and_collects(autojump_clock, monkeypatch):
    collected = []
    real_collect = gc.collect
    monkeypatch.setattr(gc, "collect", lambda *args: collected.append(gc.get_freeze_count()) or real_collect(*args))
    async with trio.open_nursery() as nursery:
        nursery.start_soon(tame_gc, 1.0, 3.0)
        await trio.sleep(2.5)
        assert collected == []
        await trio.sleep(1.0)
        assert collected == [0]  # the full collection (at 3 s) saw every object: nothing was frozen then
        nursery.cancel_scope.cancel()


def test_the_wait_doubles_while_idle_and_follows_the_work_while_busy():
    """`next_wait`: idle (at most BUSY_SHARE of the wait worked), twice the last wait up to `idle_every`; busy,
    WORK_PER_FREEZE (40 ms) of CPU over the share of a core the last wait took, between `freeze_every` and
    `idle_every`: 2,000 games at ~43% of a core freeze every tenth as measured; one game at 8% every half second
    instead of ten times a second (issue 7's probe: each wake-up of an idle process costs)."""
    from dungeon_twister.server.gcpolicy import BUSY_SHARE, WORK_PER_FREEZE, next_wait

    assert WORK_PER_FREEZE == 0.04 and BUSY_SHARE == 0.05
    assert [next_wait(wait, 0.0) for wait in (0.1, 0.2, 0.8, 1.0)] == [0.2, 0.4, 1.0, 1.0]
    assert next_wait(1.0, 0.05) == 1.0, "5% of the wait is still idle (the edge)"
    assert next_wait(0.1, 0.043) == 0.1 and next_wait(0.1, 0.09) == 0.1, "43% and 90%: every tenth, no sooner"
    assert round(next_wait(0.5, 0.04), 9) == 0.5, "8% of a core: 40 ms of work every half second"
    assert round(next_wait(1.0, 0.2), 9) == 0.2, "20%: a fifth of a second"
    assert round(next_wait(0.1, 0.0051), 3) == 0.784, "just busy (5.1%): 0.04 / 0.051 s, not a doubling"
    assert next_wait(0.5, 0.5, freeze_every=2.0, idle_every=1.0) == 2.0, "idle_every below freeze_every: freeze_every"


async def test_an_idle_server_freezes_less_and_less_often_and_a_busy_one_by_its_work(autojump_clock, monkeypatch):
    """A wake-up costs CPU (~0.45 ms on the development VM): while the process works less than BUSY_SHARE of a
    wait, the wait doubles up to `idle_every`; after a busy wait it is 40 ms of work over the share of a core that
    wait took, a tenth at the most frequent."""
    from dungeon_twister.server import gcpolicy

    cpu = [0.0]  # the process's CPU seconds, as the policy reads them
    monkeypatch.setattr(gcpolicy, "_cpu_seconds", lambda: cpu[0])
    frozen = []
    monkeypatch.setattr(gc, "freeze", lambda: frozen.append(round(trio.current_time(), 3)))
    async with trio.open_nursery() as nursery:
        nursery.start_soon(tame_gc, 0.1, 900.0, 1.0)
        await trio.sleep(3.55)
        # idle: 0.1, then waits of 0.2, 0.4, 0.8, 1.0, 1.0
        assert frozen == [0.1, 0.3, 0.7, 1.5, 2.5, 3.5]
        cpu[0] += 0.2  # a burst of work: 20% of the wait in progress (1.0, ending at 4.5)
        await trio.sleep(1.4)  # then 0.04 / 0.2 = 0.2 s (to 4.7); idle again: 0.4 (to 5.1)
        assert frozen[-3:] == [3.5, 4.5, 4.7]

        async def busy():  # half of a core all along: 20 ms of CPU every 40 ms, from 4.95 on
            while True:
                cpu[0] += 0.02
                await trio.sleep(0.04)

        nursery.start_soon(busy)
        await trio.sleep(1.0)  # to 5.95: the wait in progress (4.7 to 5.1) saw 4 x 20 ms, 20%: 0.2 s (to 5.3);
        # then 50% or more of each wait: every tenth
        assert frozen[frozen.index(4.7):] == [4.7, 5.1, 5.3, 5.4, 5.5, 5.6, 5.7, 5.8, 5.9]
        nursery.cancel_scope.cancel()
