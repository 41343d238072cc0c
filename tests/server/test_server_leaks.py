"""Hidden-information leak audit lk31 (the first principle: nothing hidden leaks, by content, order, count, size or
timing; docs/rulings.md DT-042): channels the twin tests (test_server_twins.py, test_server_twin_channels.py) do not
reach."""

from __future__ import annotations

import pytest
import trio
import trio.testing
from dungeon_twister.protocol import Action, ActionOk, ActionRefused, GameOver, Spectate, TableOptions
from test_server_draw import _sync, watched_move
from test_server_support import HANG_GUARD, running_server


async def test_DT_297_a_refused_action_does_not_restart_the_idle_count_nor_move_its_public_warning(autojump_clock):
    """An action refused is answered to its sender alone (action_refused): his opponent and the spectators never
    learn that he tried one. The idle count (config.idle_minutes, Play.idle) restarted at any action message, so
    the public `idle_warning` came later after a refused one: its timing told everyone at the table that the
    player it waits on had tried an action (and a client that sent one now and then held the game for ever, which
    idle_minutes exists to end). Only what changes the game counts: a refused action, and an accepted one sent
    again (answered from memory), leave the warning at 25 minutes and the loss at 30."""
    with trio.fail_after(HANG_GUARD + 2 * 3600):  # (the mock hours the test sleeps, and the guard)
        async with running_server(seeds=(21,), idle_minutes=30) as server:
            table, seat, mover, other, move, watcher = await watched_move(server)
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


# --- a spectator who comes back is sent what a live one was sent, and nothing more --------------------------
async def test_a_spectator_resuming_from_an_event_gets_the_live_spectators_bytes_and_nothing_more(mock_clock):
    """The table's event log (server/eventlog.py) keeps each event as each viewer class and form was sent it; a
    spectator who asks for the events after one (spectate with last_event, or resume) must be sent, for each
    event, the very frame a spectator of his form got live (never a seat's: the log holds those too), and besides
    them only a snapshot or the running timers. Checked along the first steps of a greedy game with timers (the
    team choice's commit-reveal, the hidden placement, the first turns), from 1, 4 and 12 events back (past the
    newest ones, into a compressed block), in the full form and as deltas."""
    assert await _resumed_spectators() >= 80  # (the rest were answered by a snapshot: the full form keeps few views)


async def test_control_the_resume_comparison_catches_a_spectator_replayed_a_seats_events(mock_clock, monkeypatch):
    """With the log planted to replay Blue's events to a spectator, the comparison fails."""
    from dungeon_twister.server.eventlog import EventLog

    since = EventLog.since
    monkeypatch.setattr(EventLog, "since", lambda log, last, form: since(log, last, ("B", form[1]) if form[0] is None
                                                                         else form))
    try:
        await _resumed_spectators()
    except AssertionError:
        pass
    except BaseExceptionGroup as group:  # (raised inside the server's nursery)
        assert group.subgroup(AssertionError) is not None, group
    else:
        pytest.fail("a spectator replayed Blue's events was not caught")


async def _resumed_spectators() -> int:
    """(Checks run by the test below.) How many resumes were compared event by event."""
    import msgpack
    from dungeon_twister.engine import Options
    from dungeon_twister.protocol import Leave, Resume, SpectatorConnection
    from dungeon_twister.protocol.views import DELTA_VIEWS
    from test_server_support import SOFTWARE
    from test_server_twins import OPTIONS, TEAM_SEED, Capture, _seated, greedy_script, send_step

    script = greedy_script(TEAM_SEED, Options(), 40)
    checked = snapshots = 0
    async with running_server(seeds=(TEAM_SEED,)) as server, trio.open_nursery() as nursery:
        table, captures = await _seated(server, nursery, OPTIONS)
        live = {"full": captures["spectator"], "delta": captures["deltas"]}
        players = {"B": captures["B"], "Y": captures["Y"]}

        def events_of(capture: Capture) -> dict[int, bytes]:
            """{event number: its frame} of the table_event frames the capture got."""
            out = {}
            for frame in capture.frames:
                decoded = msgpack.unpackb(frame, raw=False)
                if decoded.get("type") == "table_event":
                    out[decoded["n"]] = frame
            return out

        for number, step in enumerate(script):
            await send_step(players, table, number, step)
            newest = max(events_of(live["full"]))
            for back in (1, 4, 12):
                if newest - back < 1:
                    continue
                for form, features in (("full", ()), ("delta", (DELTA_VIEWS,))):
                    conn = SpectatorConnection(features=features)
                    capture = Capture(server.connect_memory(), conn)
                    nursery.start_soon(capture.run)
                    await capture.send(conn.send_hello(f"sam{number}x{back}{form[0]}", SOFTWARE))
                    await capture.send(conn.send(Spectate(table, newest - back)))
                    await capture.send(conn.send(Resume(table, newest - back)))  # (and once more, spectating)
                    await capture.send(conn.send(Leave()))
                    await capture.stream.aclose()
                    types = [msgpack.unpackb(frame, raw=False)["type"] for frame in capture.frames]
                    assert set(types) <= {"welcome", "joined", "table_event", "snapshot", "timer", "left"}, types
                    got, sent = events_of(capture), events_of(live[form])
                    for n, frame in got.items():
                        assert frame == sent[n], (form, back, n)  # byte for byte the live spectator's frame
                    if "snapshot" in types and form == "full":  # the view the live spectator holds
                        views = [msgpack.unpackb(frame, raw=False)["event"]["view"] for frame in sent.values()
                                 if msgpack.unpackb(frame, raw=False)["event"].get("kind") == "view"]
                        for snapshot in [m for m in map(msgpack.unpackb, capture.frames) if m["type"] == "snapshot"]:
                            assert snapshot["view"] == views[-1], (form, back)
                        snapshots += 1
                    if "snapshot" not in types:
                        assert sorted(got) == list(range(newest - back + 1, newest + 1)), (form, back)
                        checked += 1
        nursery.cancel_scope.cancel()
    assert snapshots > 0
    return checked


# --- the mixes with Paladins & Dragons, a Prison scenario: hidden tokens swapped, over the live frames ----------
MIXES = {"all-sets": TableOptions(timers=True, set_name="all_sets"),
         "all-sets-mutual": TableOptions(timers=True, set_name="all_sets", teams="mutual"),
         "prison-4": TableOptions(timers=True, scenario="prison-4")}


@pytest.mark.parametrize("variant", sorted(MIXES))
async def test_hidden_tokens_swapped_send_the_same_bytes_in_the_mixes_of_all_three_sets_and_a_prison_scenario(mock_clock, variant):
    """BG-SETUP-05, BG-REVEAL-01/05, PD-TEAM-02 in the mix of the three sets (teams drawn, or picked in turn) and
    Prison's scenario 4 (PR-SCEN-4): the
    twins of test_server_twin_channels (Yellow's two hidden tokens the other way round) send Blue, a spectator and
    a spectator with view deltas the same bytes until one of their rooms is revealed, and different bytes then.
    (The base set, Prison, Paladins & Dragons and the base-Prison mix had this comparison; the mixes with
    Paladins & Dragons' rooms, terrain and characters, the free builds aside, did not.)"""
    from test_server_twin_channels import swapped_hides
    from test_server_twins import compare_twins

    script, twin, cut = swapped_hides(variant, 1)
    compared = await compare_twins((1, 1), (script, twin), cut, MIXES[variant])
    assert compared["B"] > cut and compared["spectator"] > cut


# --- an untimed table's idle warnings, over twin games -------------------------------------------------------
IDLE_STEP = 26 * 60
"""The clock moves this much before each step: past the 5 minutes' warning of a 30 minutes' idle_minutes, short of
the loss."""


async def idle_play(clock, seed: int, steps: list, options: TableOptions) -> tuple[dict, list[dict]]:
    """test_server_twins.play on an untimed table (idle_minutes 30) whose clock moves IDLE_STEP before each step,
    so that the seat the game waits on alone is warned (`idle_warning`) between the steps."""
    from test_server_twins import _seated, send_step

    async with running_server(seeds=(seed,), idle_minutes=30) as server, trio.open_nursery() as nursery:
        table, captures = await _seated(server, nursery, options)
        players = {"B": captures["B"], "Y": captures["Y"]}
        viewers = ("B", "spectator", "deltas")
        marks = []
        for number, step in enumerate(steps):
            clock.jump(IDLE_STEP)
            await trio.testing.wait_all_tasks_blocked()
            marks.append({viewer: len(captures[viewer].frames) for viewer in viewers})
            await send_step(players, table, number, step)
        marks.append({viewer: len(captures[viewer].frames) for viewer in viewers})
        nursery.cancel_scope.cancel()
    return {viewer: captures[viewer] for viewer in viewers}, marks


async def test_DT_297_idle_warnings_at_an_untimed_table_send_the_same_bytes_over_twin_games(mock_clock):
    """The base set's twins of Yellow's hidden tokens swapped (test_server_twin_channels.swapped_hides), played at
    a table without timers whose clock moves 26 minutes before each step: the seat the game waits on alone is
    warned 5 minutes before his idle loss (`idle_warning`, Play.idle) at the same steps in both twins, and Blue,
    a spectator and a spectator with view deltas receive the same bytes until a room of those tokens is revealed.
    (The twin comparisons run with timers on, where no idle count runs: they never saw this event.)"""
    from test_server_twin_channels import swapped_hides
    from test_server_twins import normalised

    seed, options = 2, TableOptions()
    script, twin, cut = swapped_hides("standard", seed)
    (first, first_marks), (second, second_marks) = [await idle_play(mock_clock, seed, steps, options)
                                                        for steps in (script, twin)]
    warned = 0
    for viewer in ("B", "spectator", "deltas"):
        a, b = normalised(first[viewer]), normalised(second[viewer])
        before = first_marks[cut][viewer]
        assert second_marks[cut][viewer] == before, viewer
        assert a[:before] == b[:before], viewer
        assert a[before:first_marks[cut + 1][viewer]] != b[before:second_marks[cut + 1][viewer]], viewer
        warned = sum(b"idle_warning" in frame for frame in a[:before])
        assert warned >= 3, viewer  # (every step of the main game before the cut that waits on one seat)


async def test_control_the_idle_twins_catch_a_warning_timed_by_a_hidden_token(mock_clock, monkeypatch):
    """With the idle count planted 10 minutes longer by where a face-down token of Yellow's lies (its warning then
    comes after the next step), the twins differ."""
    from dungeon_twister.server.play import Play

    idle = Play.idle

    def planted(self, acted):
        before = self._idle
        idle(self, acted)
        if self._idle is not None and (before is None or self._idle[1] != before[1]):  # a count begun
            hidden = [t.id for t in sorted((t for t in self.game.state.tokens.values()
                                            if t.colour == "Y" and t.where == "room"), key=lambda t: (t.room, t.id))]
            seat, at, warnings = self._idle
            self._idle = (seat, at + 600 * (hidden.index("yWW") % 2 if "yWW" in hidden else 0), warnings)

    monkeypatch.setattr(Play, "idle", planted)
    with pytest.raises(AssertionError):
        await test_DT_297_idle_warnings_at_an_untimed_table_send_the_same_bytes_over_twin_games(mock_clock)
