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


async def test_an_idle_server_freezes_less_and_less_often_and_a_busy_one_every_tenth(autojump_clock, monkeypatch):
    """A wake-up costs CPU (~0.45 ms on the development VM): while the process works less than BUSY_SHARE of a
    wait, the wait doubles up to `idle_every`; the first busy wait brings it back to `freeze_every`."""
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
        cpu[0] += 0.2  # a burst of work (20% of the wait in progress)
        await trio.sleep(1.4)  # the wait in progress (1.0) ends at 4.5, the next one is a tenth; idle again: 0.2
        assert frozen[-4:] == [3.5, 4.5, 4.6, 4.8]

        async def busy():  # half of a core all along
            while True:
                cpu[0] += 0.015
                await trio.sleep(0.03)

        nursery.start_soon(busy)
        await trio.sleep(1.0)  # from 4.95 to 5.95: the wait in progress (0.4) ends at 5.2, then every tenth
        assert frozen[frozen.index(4.8):] == [4.8, 5.2, 5.3, 5.4, 5.5, 5.6, 5.7, 5.8, 5.9]
        nursery.cancel_scope.cancel()
