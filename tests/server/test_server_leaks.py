"""Hidden-information leak audit lk31 (the first principle: nothing hidden leaks, by content, order, count, size or
timing; docs/rulings.md DT-042): channels the twin tests (test_server_twins.py, test_server_twin_channels.py) do not
reach."""

from __future__ import annotations

import trio
from dungeon_twister.protocol import Action, ActionOk, ActionRefused, GameOver, Spectate, TableOptions
from test_server_draw import _sync
from test_server_support import HANG_GUARD, Client, running_server, seated_pair
from test_server_takeback import _a_move


async def test_DT_297_a_refused_action_does_not_restart_the_idle_count_nor_move_its_public_warning(autojump_clock):
    """An action refused is answered to its sender alone (action_refused): his opponent and the spectators never
    learn that he tried one. The idle count (config.idle_minutes, Play.idle) restarted at any action message, so
    the public `idle_warning` came later after a refused one: its timing told everyone at the table that the
    player it waits on had tried an action (and a client that sent one now and then held the game for ever, which
    idle_minutes exists to end). Only what changes the game counts: a refused action, and an accepted one sent
    again (answered from memory), leave the warning at 25 minutes and the loss at 30."""
    with trio.fail_after(HANG_GUARD + 2 * 3600):  # (the mock hours the test sleeps, and the guard)
        async with running_server(seeds=(21,), idle_minutes=30) as server:
            table, blue, yellow = await seated_pair(server, TableOptions(beginner=True), memory=True)
            seat, mover, other, move, _ = await _a_move(server, table, blue, yellow)
            watcher = await Client.connect(server, "watcher", "spectator", memory=True)
            await watcher.send(Spectate(table))
            await _sync(mover, other, watcher)
            start = trio.current_time()
            await trio.sleep(20 * 60)
            await mover.send(Action(table, "nowhere", "move X9 nowhere"))
            assert isinstance(await mover.expect(ActionRefused, lambda e: e.action_id == "nowhere"), ActionRefused)
            await mover.send(Action(table, "the-move", move))  # (sent again: answered from memory, not played again)
            assert isinstance(await mover.expect(ActionOk, lambda e: e.action_id == "the-move"), ActionOk)
            await trio.sleep(5 * 60 - 1)
            await _sync(mover, other, watcher)
            assert not [c for c in (mover, other, watcher) if c.events_of("idle_warning")], "not before 25 minutes"
            await trio.sleep(1)
            await _sync(mover, other, watcher)
            for client in (mover, other, watcher):  # (on the autojump clock a later one would be waited for)
                assert client.events_of("idle_warning") == [{"kind": "idle_warning", "seat": seat, "seconds": 300}]
            result = (await other.expect(GameOver)).result
            assert trio.current_time() - start == 30 * 60, "lost 30 minutes after his last accepted action"
            assert result["reason"] == "idle" and result["winner"] != seat
