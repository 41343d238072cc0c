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
