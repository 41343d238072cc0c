"""Timers on trio's clock (MockClock, autojump): turn timeout, combat +0, the opponent's placement passed."""

from contextlib import asynccontextmanager

import msgpack
import trio
from dungeon_twister.engine import Options, apply, new_game, parse_action, view
from dungeon_twister.engine.boardgame.timeouts import clock
from dungeon_twister.engine.tools.bots import GreedyBot
from dungeon_twister.engine.core.rng import Rng
from dungeon_twister.protocol import Action, OpponentCommit, OpponentReveal, RevealMismatch, TableOptions, Timer
from dungeon_twister.server.deadlines import Deadlines
from dungeon_twister.server.table import CreatorGone, Request
from dungeon_twister.server.viewing import legal_texts
from test_server_support import HANG_GUARD, Scripted, find_seed, running_server, seated_pair
from test_server_resume import play_until

TIMED = dict(timers=True, beginner=True)


@asynccontextmanager
async def into_a_timed_combat():
    """A server whose timed table's scripted players (rng 1 and 2) have played into their first combat, its secret
    choice pending: (server, table, blue, yellow, players, views)."""
    async with running_server(seeds=(find_seed("combat_declared", False, 120, hint=23),)) as server:
        table, blue, yellow = await seated_pair(server, TableOptions(timers=True), memory=True)
        players = {"B": Scripted(blue, "B", 1), "Y": Scripted(yellow, "Y", 2)}
        views = await play_until(table, players, lambda v: (v["secret"] or "").startswith("combat"))
        yield server, table, blue, yellow, players, views


def timers_for(client, seat: str) -> list[int]:
    return [e.deadline_ms for e in client.received if isinstance(e, Timer) and e.seat == seat]


async def a_turn_slept_through(seed: int, options: TableOptions, turn_phase: str) -> tuple:
    """Scripted players play a timed table until one of them is to act in `turn_phase`; he then sleeps. (His
    seat, the other seat, his client, his view, the `timeout` event, the seconds it took.)"""
    async with running_server(seeds=(seed,)) as server:
        table, blue, yellow = await seated_pair(server, options, memory=True)
        assert timers_for(blue, "B") == timers_for(blue, "Y") == []  # none for the team choice or the hiding
        players = {"B": Scripted(blue, "B", 1), "Y": Scripted(yellow, "Y", 2)}
        views = await play_until(table, players, lambda v: v["phase"] == turn_phase, first=True)
        ((seat, view),) = views.items()
        client = {"B": blue, "Y": yellow}[seat]
        start = trio.current_time()
        timeout = await client.expect_event("timeout")
        waited = trio.current_time() - start
        await client.expect(Timer, lambda e: e.seat != seat)
        return seat, "Y" if seat == "B" else "B", client, view, timeout, waited


async def a_combat_card_not_laid(seed: int, options: TableOptions, resolved_kind: str) -> tuple:
    """Scripted players play a timed table until a combat's cards are due; the attacker lays his, the defender
    none. (The defender, the purpose, the defender's fabricated commitment's seconds, the reveal the attacker
    got, the resolved combat event, each client's `timeout` event, each client's timers for the defender.)"""
    async with running_server(seeds=(seed,)) as server:
        table, blue, yellow = await seated_pair(server, options, memory=True)
        players = {"B": Scripted(blue, "B", 1), "Y": Scripted(yellow, "Y", 2)}
        views = await play_until(table, players, lambda v: (v["secret"] or "").startswith("combat"))
        purpose = views["B"]["secret"]
        attacker = views["B"]["active"]
        defender = "Y" if attacker == "B" else "B"
        clients = {"B": blue, "Y": yellow}
        await players[attacker].act(table, views[attacker])  # the attacker commits, the defender sleeps
        start = trio.current_time()
        fabricated = await clients[attacker].expect(OpponentCommit)
        assert fabricated.seat == defender
        waited = trio.current_time() - start
        await clients[attacker].reveal(purpose)
        reveal = await clients[attacker].expect(OpponentReveal)  # and it opens the commitment
        resolved = await clients[attacker].expect_event(resolved_kind)
        timeouts = [(client.events_of("timeout") or [await client.expect_event("timeout")])[0]
                    for client in clients.values()]
        assert not any(isinstance(e, RevealMismatch) for client in clients.values() for e in client.received)
        return (defender, purpose, waited, reveal, resolved, timeouts,
                [timers_for(client, defender) for client in clients.values()])


async def test_a_turn_times_out_after_two_minutes(autojump_clock):
    with trio.fail_after(HANG_GUARD):
        seat, other, client, view, timeout, waited = await a_turn_slept_through(21, TableOptions(**TIMED), "card")
    assert waited == 120 and timeout["seat"] == seat and timeout["actions"] == [view["legal"][0], "end"]
    assert client.events_of("turn_started")[-1]["seat"] == other
    assert timers_for(client, seat) == [120_000] and timers_for(client, other)[-1] == 120_000


async def test_a_combat_card_not_committed_in_time_is_the_zero(autojump_clock):
    with trio.fail_after(HANG_GUARD):
        defender, purpose, waited, reveal, resolved, timeouts, timers = await a_combat_card_not_laid(
            find_seed("combat_declared", False, 120, hint=23), TableOptions(timers=True), "combat_resolved")
    assert waited == 5 and (reveal.seat, reveal.choice) == (defender, "combat +0")
    assert resolved["cards"][defender] == 0
    for timeout, seen in zip(timeouts, timers):
        assert timeout == {"kind": "timeout", "seat": defender, "purpose": purpose, "actions": ["combat +0"]}
        assert 5000 in seen


async def test_the_opponent_who_does_not_place_the_revealers_objects_passes(autojump_clock):
    with trio.fail_after(HANG_GUARD):
        async with running_server(seeds=(find_seed("opponent_places", True, 60, hint=3),)) as server:
            table, blue, yellow = await seated_pair(server, TableOptions(**TIMED), memory=True)
            players = {"B": Scripted(blue, "B", 1), "Y": Scripted(yellow, "Y", 2)}

            def opponent_places(view):
                placement = view["placement"]
                return placement is not None and placement["placer"] != placement["revealer"]

            views = await play_until(table, players, opponent_places, first=True)
            ((placer, view),) = views.items()
            revealer = view["placement"]["revealer"]
            client = {"B": blue, "Y": yellow}[revealer]
            start = trio.current_time()
            timeout = await client.expect_event("timeout")
            assert trio.current_time() - start == 5
            assert (timeout["seat"], timeout["actions"]) == (placer, ["pass"])
            assert (await client.expect_event("placement_passed"))["seat"] == placer
            after = (await client.expect_event("view"))["view"]
            assert after["placement"]["placer"] == revealer and after["legal"][0].startswith("place ")
            # The revealer's turn clock was paused while the opponent had to place, then resumed.
            assert timers_for(client, placer)[-1] == 5000 and timers_for(client, revealer)[-1] == 120_000


def test_a_speed_potion_adds_a_minute_and_the_turn_clock_pauses():
    state, rng = new_game(Options(beginner=True), 21), Rng(1)
    while state.phase != "card":  # play the setup with the engine alone
        seat = state.to_act[0]
        choice = GreedyBot().choose(view(state, seat), legal_texts(state, seat), rng)
        state, _ = apply(state, parse_action(choice, seat))
    deadlines = Deadlines()
    nobody = lambda purpose: set()  # noqa: E731
    assert deadlines.update(clock(state), nobody, lambda purpose: {}, 10.0) == [(state.active, 120.0)]
    assert deadlines.extend_turn(60, 40.0) == [(state.active, 150.0)]
    assert deadlines.next_at() == 190.0 and deadlines.due(189.0) is None
    assert deadlines.due(190.0).kind == "turn"


async def test_a_combat_card_not_revealed_in_time_is_the_zero(autojump_clock):
    with trio.fail_after(HANG_GUARD):
        async with into_a_timed_combat() as (server, table, blue, yellow, players, views):
            purpose, clients = views["B"]["secret"], {"B": blue, "Y": yellow}
            for seat in ("B", "Y"):
                await players[seat].act(table, views[seat])  # both commit; only B reveals
            await blue.expect(OpponentCommit)
            await blue.reveal(purpose)
            start = trio.current_time()
            timeout = await yellow.expect_event("timeout")
            assert trio.current_time() - start == 5
            assert (timeout["seat"], timeout["purpose"], timeout["actions"]) == ("Y", purpose, ["combat +0"])
            assert (await yellow.expect(OpponentReveal, lambda e: e.purpose == purpose)).seat == "B"
            assert (await yellow.expect_event("combat_resolved"))["cards"]["Y"] == 0
            assert not any(isinstance(e, OpponentReveal) and e.purpose == purpose for e in blue.received)
            assert not any(isinstance(e, RevealMismatch) for c in clients.values() for e in c.received)


async def test_DT_251_a_combat_card_laid_in_time_waits_for_its_player_to_come_back_and_reveal_it(autojump_clock):
    """BG-OPT-04 gives 5 seconds to lay a card; a card committed in time whose player's connection dropped before
    the reveal (a play-test killed the client right after `card 6`) was replaced by +0 once the reveal's 5 seconds
    passed. Its reveal now waits while the seat is away (within its grace), and gets 5 seconds afresh once he is
    back: his kept commitment is revealed and counts. A seat present that does not reveal still gets +0 (above)."""
    from dungeon_twister.protocol import ResumeInfo
    from test_server_support import Client, KeepingConnection

    with trio.fail_after(HANG_GUARD):
        async with into_a_timed_combat() as (server, table, blue, yellow, players, views):
            purpose = views["B"]["secret"]
            for seat in ("B", "Y"):
                await players[seat].act(table, views[seat])  # both commit
            await blue.expect(OpponentCommit)
            await yellow.expect(OpponentCommit)
            await blue.reveal(purpose)
            kept, resume = yellow.conn.commitments, ResumeInfo(yellow.token, table, yellow.conn.last_event)
            chosen = kept._secrets[purpose][0]
            await yellow.close()  # Yellow's client dies before its reveal
            start = trio.current_time()
            await trio.sleep(30)  # six times the reveal's 5 seconds, within the 60 s grace
            assert blue.events_of("timeout") == [] and not blue.events_of("combat_resolved")
            yellow = await Client.connect(server, "bob", resume=resume, conn=KeepingConnection(kept), memory=True)
            back = await yellow.expect(Timer, lambda t: t.seat == "Y")
            assert back.deadline_ms == 5000
            await yellow.seen(OpponentCommit, lambda e: e.purpose == purpose)
            await yellow.reveal(purpose)
            resolved = await blue.expect_event("combat_resolved")
            assert resolved["cards"]["Y"] == int(chosen.split("+")[1]) and blue.events_of("timeout") == []
            assert trio.current_time() - start >= 30


def test_PD_OBJ_CHARM_07_a_charm_scroll_adds_a_minute_like_a_potion():
    """The events of a step that extend the turn: a minute per Speed Potion and per Charm Scroll, nothing else."""
    from dungeon_twister.server.deadlines import turn_extensions

    assert turn_extensions(["moved", "charmed", "potion_drunk", "charmed"]) == [60.0, 60.0, 60.0]
    assert turn_extensions(["moved", "breath", "fireball"]) == []


def test_DT_223_a_lone_step_of_a_combat_gets_the_combat_cards_5_seconds():
    """Deadlines reads Clock.step: the Berserker's player announcing alone (CG-CHAR-BERSERK-01) has 5 seconds,
    due as a "step" deadline of his seat; once he has announced, the step is over."""
    from dungeon_twister.engine.families import CARDS
    from tests.engine.cards.builders import act, build

    state = act(build({"bBE": "a1", "yMK": "a1", "yWA": "d4"}, combat=True), "attack bBE yMK")
    assert CARDS.clock(state).step == ("B", (1, "frenzy", "B"))
    deadlines = Deadlines()
    notices = deadlines.update(CARDS.clock(state), lambda purpose: set(), lambda purpose: {}, 100.0)
    assert ("B", 5.0) in notices and deadlines.due(104.9) is None
    assert (deadlines.due(105.0).kind, deadlines.due(105.0).seat) == ("step", "B")
    assert CARDS.clock(act(state, "frenzy 1")).step is None


def test_DT_235_the_turn_clock_runs_through_a_combat_until_its_player_lays_his_card():
    """Before: the turn's clock paused for the whole combat and neither seat had a deadline until one laid a card,
    so the turn's player could hold the game for ever. Now it runs on until he lays his (a commitment), then pauses
    while the other has his 5 seconds; a lone step of a combat (DT-223) still pauses it."""
    from dungeon_twister.engine.core.clock import Clock

    deadlines, nobody, opened = Deadlines(), lambda purpose: set(), lambda purpose: {}
    assert deadlines.update(Clock((3, "B"), True), nobody, opened, 0.0) == [("B", 120.0)]
    combat = Clock((3, "B"), False, combat="combat-1")
    assert deadlines.update(combat, nobody, opened, 30.0) == [] and deadlines.next_at() == 120.0, "runs on"
    assert deadlines.update(combat, lambda purpose: {"B"}, opened, 50.0) == [("Y", 5.0)]
    assert deadlines.next_at() == 55.0 and deadlines.turn.at == float("inf"), "laid: paused, the other's 5 s"
    assert deadlines.update(Clock((3, "B"), True), nobody, opened, 58.0) == [("B", 70.0)], "70 s left after"
    lone = Clock((3, "B"), False, combat="combat-2", step=("Y", (2, "naming")))
    deadlines.update(lone, nobody, opened, 60.0)
    assert deadlines.turn.at == float("inf") and deadlines.next_at() == 65.0


def test_DT_235_the_attacker_s_5_seconds_are_announced_as_what_his_turn_has_left_when_that_is_less():
    """The defender lays his card first: the attacker has 5 seconds for his (BG-OPT-04) while his turn's clock runs
    on (DT-235). With 2 seconds left on that clock, his +0 comes in 2: the `timer` said 5 (found by reading the
    deadlines in play-test pt24). It says what is left; with more than 5 left (the edge), 5."""
    from dungeon_twister.engine.core.clock import Clock

    nobody, opened = lambda purpose: set(), lambda purpose: {}
    for started, shown in ((0.0, 5.0), (-100.0, 2.0), (-101.5, 0.5)):  # the turn began at `started`
        deadlines = Deadlines()
        deadlines.update(Clock((3, "B"), True), nobody, opened, started)
        combat = Clock((3, "B"), False, combat="combat-1")
        assert deadlines.update(combat, nobody, opened, 18.0) == []
        assert deadlines.update(combat, lambda purpose: {"Y"}, opened, 18.0) == [("B", shown)]
        assert deadlines.next_at() == 18.0 + shown


async def test_DT_235_a_turn_that_runs_out_before_its_player_lays_his_card_lays_the_zero_and_ends(autojump_clock):
    """Both seats sleep through a combat's cards: at the end of the attacker's 2 minutes (the scripted players
    take no time on the mock clock) his +0 is laid for him, which the defender is not shown (DT-236: he has still
    to choose); the defender then has 5 seconds and gets his +0, shown to all (the attacker's is laid); the
    combat is resolved, and the attacker's turn ends at once, its clock spent."""
    with trio.fail_after(HANG_GUARD):
        async with running_server(seeds=(find_seed("combat_declared", False, 120, hint=23),)) as server:
            table, blue, yellow = await seated_pair(server, TableOptions(timers=True), memory=True)
            players = {"B": Scripted(blue, "B", 1), "Y": Scripted(yellow, "Y", 2)}
            start = trio.current_time()
            views = await play_until(table, players, lambda v: (v["secret"] or "").startswith("combat"))
            assert trio.current_time() == start, "the scripted players take no time"
            purpose, attacker = views["B"]["secret"], views["B"]["active"]
            defender = "Y" if attacker == "B" else "B"
            clients = {"B": blue, "Y": yellow}
            laid = await clients[attacker].expect_event("timeout")
            assert laid == {"kind": "timeout", "seat": attacker, "purpose": purpose, "actions": ["combat +0"]}
            # the defender, who has still to choose, is not told the card laid for the attacker before the reveal
            told = await clients[defender].expect_event("timeout")
            assert told == {"kind": "timeout", "seat": attacker, "purpose": purpose}
            first = trio.current_time() - start
            assert first == 120, "his whole 2 minutes: the turn and the combat began at once on the mock clock"
            then = await blue.expect_event("timeout")
            assert then == {"kind": "timeout", "seat": defender, "purpose": purpose, "actions": ["combat +0"]}
            assert trio.current_time() - start == first + 5
            resolved = await blue.expect_event("combat_resolved")
            assert resolved["cards"] == {"B": 0, "Y": 0}
            ended = await blue.expect_event("timeout")
            assert ended["seat"] == attacker and ended["actions"][-1] == "end" and "purpose" not in ended
            assert trio.current_time() - start == first + 5, "the turn's clock had nothing left"
            assert (await blue.expect_event("turn_started"))["seat"] == defender


async def test_a_steps_timer_frames_leave_with_each_viewers_view_before_the_acting_seats_legal_list(
        autojump_clock, monkeypatch):
    """Found by a review of what the server sends: the `timer` frames of a step were written to the seat not to
    act and to the spectators in a second write, after the acting seat's view and legal list were made, so the
    gap between their two reads was the time of that legal list, which depends on what only the acting seat
    knows. Blue ends his turn on a timed table: Blue's and the spectator's write holds the view and Yellow's new
    timer, and it is made before Yellow's legal list is."""
    from dungeon_twister.protocol import Spectate
    from dungeon_twister.protocol.framing import FrameReader
    from dungeon_twister.server import game as game_module, pipes
    from test_server_support import Client

    log: list = []
    names: dict = {}
    send_nowait, legal = pipes.PipeStream.send_nowait, game_module.Game.legal

    def traced_send(self, data):
        reader, kinds = FrameReader(), []
        reader.feed(bytes(data))
        while (body := reader.next_frame()) is not None:
            message = msgpack.unpackb(body, raw=False)
            event = message.get("event") if isinstance(message.get("event"), dict) else {}
            kinds.append(event.get("kind") or message.get("type"))
        log.append(("write", names.get(id(self)), kinds))
        return send_nowait(self, data)

    def traced_legal(self, state, seat):
        log.append(("legal", seat))
        return legal(self, state, seat)

    monkeypatch.setattr(pipes.PipeStream, "send_nowait", traced_send)
    monkeypatch.setattr(game_module.Game, "legal", traced_legal)
    with trio.fail_after(HANG_GUARD):
        async with running_server(seeds=(21,)) as server:
            table, blue, yellow = await seated_pair(server, TableOptions(**TIMED), memory=True)
            watcher = await Client.connect(server, "eve", "spectator", memory=True)
            await watcher.send(Spectate(table))
            players = {"B": Scripted(blue, "B", 1), "Y": Scripted(yellow, "Y", 2)}
            await play_until(table, players, lambda v: v["phase"] == "main" and v["active"] == "B"
                             and v["to_act"] == ["B"], first=True)
            for session in server.sessions:
                names[id(session.stream)] = {"ann": "B", "bob": "Y", "eve": "spectator"}.get(session.name)
            log.clear()
            await blue.send(Action(table, "the-end", "end"))
            await yellow.expect(Timer, lambda e: e.seat == "Y")
            await watcher.expect(Timer, lambda e: e.seat == "Y")
    legal_at = next(i for i, entry in enumerate(log) if entry == ("legal", "Y"))
    for viewer in ("B", "spectator"):
        (view_write,) = [i for i, entry in enumerate(log) if entry[0] == "write" and entry[1] == viewer
                         and "view" in entry[2]]
        assert view_write < legal_at, viewer
        kinds = log[view_write][2]
        assert kinds.index("view") < kinds.index("timer"), (viewer, kinds)
        assert not any(entry[0] == "write" and entry[1] == viewer and "timer" in entry[2]
                       for entry in log[view_write + 1:]), viewer


async def test_a_spectator_who_comes_in_a_combat_card_s_5_seconds_is_shown_them_not_the_turn_clock(autojump_clock):
    """BG-OPT-04, DT-235: once the defender has laid his card, the attacker has 5 seconds for his, while his turn's
    clock runs on too. A spectator who came in then (play-test pt24 F4) was sent both deadlines of the attacker's
    seat, the turn's last, and his panel said "time left: Blue 1:33" while the players' said 0:03 and the +0 was
    laid two seconds later. A client keeps one countdown a seat: it is sent the soonest. The edge: the seat's
    other deadline is not lost, it is shown again once the combat is over (the turn's clock, as to the players)."""
    from dungeon_twister.protocol import Snapshot, Spectate
    from test_server_support import Client

    with trio.fail_after(HANG_GUARD):
        async with into_a_timed_combat() as (server, table, blue, yellow, players, views):
            attacker = views["B"]["active"]
            defender = "Y" if attacker == "B" else "B"
            clients = {"B": blue, "Y": yellow}
            await trio.sleep(30)  # the attacker thinks: his turn's clock has 90 s left
            await players[defender].act(table, views[defender])  # the defender lays his card
            laid = await clients[attacker].expect(Timer, lambda e: e.seat == attacker)
            assert laid.deadline_ms == 5000
            watcher = await Client.connect(server, "eve", "spectator", memory=True)
            await watcher.send(Spectate(table))
            await watcher.expect(Snapshot)
            with trio.move_on_after(1):  # what came with the snapshot (the 5 seconds are not over)
                while await watcher.recv() is not None:
                    pass
            shown = timers_for(watcher, attacker)
            assert shown and shown[-1] <= 5000, f"the spectator's countdown for the attacker: {shown}"
            await watcher.expect_event("combat_resolved")  # the +0 laid for the attacker
            turn = await watcher.expect(Timer, lambda e: e.seat == attacker)
            assert 80_000 < turn.deadline_ms <= 90_000


async def at_the_first_card(server, options: TableOptions) -> tuple:
    """A table of `options` whose two scripted players played until the first action card is due: (the table, its
    id, the players, the seat to play the card, its view)."""
    table_id, blue, yellow = await seated_pair(server, options, memory=True)
    players = {"B": Scripted(blue, "B", 1), "Y": Scripted(yellow, "Y", 2)}
    views = await play_until(table_id, players, lambda v: v["phase"] == "card", first=True)
    ((seat, view),) = views.items()
    return server.lobby.tables[table_id], table_id, players, seat, view


async def steps_of(table) -> list:
    """Each step of `table`'s task from now on, as (trio time, its item or None, the deadline the table had
    computed last before it, i.e. that of the wait the step ended)."""
    steps, deadlines = [], []
    step, next_deadline = table._step, table._next_deadline

    def computed() -> float:
        deadlines.append(next_deadline())
        return deadlines[-1]

    def recorded(item) -> None:
        steps.append((trio.current_time(), item, deadlines[-1]))
        step(item)

    table._next_deadline, table._step = computed, recorded
    # The wait under way took the step to call before it began: one step that does nothing (a table in play) gets
    # past it, without letting trio's clock move (the task stays runnable).
    assert table.play.started and table.offer(CreatorGone())
    while not deadlines:
        await trio.lowlevel.checkpoint()
    return steps


async def until_steps(steps: list, empty: int) -> None:
    """Let time pass until `steps` holds `empty` steps of a deadline (with no item)."""
    while sum(item is None for _, item, _ in steps) < empty:
        await trio.sleep(1)


def deadline_steps_keep_time(steps: list) -> None:
    """A step without an item comes exactly at the deadline of the wait it ended (trio's clock jumps to it), never
    before: a deadline moved later by a step is not the old one's, and one moved earlier is kept."""
    for at, item, deadline in steps:
        if item is None:
            assert at == deadline


async def test_an_action_that_comes_as_the_turn_runs_out_is_handled_before_it_and_the_next_deadline_keeps_time(
        autojump_clock):
    """server/table.py `run`: while a table has deadlines its waits share one cancel scope, which trio cancels for
    good once a deadline passes. An item handed to the table at the instant its deadline passes is handled in one
    step, the time-out after it in the same step (as when each wait had a scope of its own), with no empty step
    of a scope left cancelled; the next waits get a scope that ends each at its deadline (BG-OPT-02, 2 minutes a
    turn: two turns slept through after it)."""
    with trio.fail_after(HANG_GUARD):
        async with running_server(seeds=(21,)) as server:
            table, table_id, players, seat, view = await at_the_first_card(server, TableOptions(**TIMED))
            steps = await steps_of(table)
            deadline = table._next_deadline()
            assert deadline == trio.current_time() + 120
            autojump_clock.jump(120)  # the turn's deadline passes, and the action arrives, at the same instant
            action = Request(table.seating.seats[seat].session, Action(table_id, f"{seat}-late", view["legal"][0]))
            assert table.offer(action)
            await until_steps(steps, 2)
    assert steps[0] == (deadline, action, deadline)
    assert [item for _, item, _ in steps[:3]] == [action, None, None]  # (then the clients' Gone as the test ends)
    deadline_steps_keep_time(steps)
    assert steps[1][0] == deadline + 120 and steps[2][0] == deadline + 240  # the next two turns, slept through


async def test_a_deadline_moved_later_by_a_step_ends_the_wait_at_its_new_time_not_the_old(autojump_clock):
    """server/table.py `run`: the shared scope's deadline follows the table's from step to step. At an untimed
    table the seat the game waits on is warned 5 minutes before config.idle_minutes pass with no action of his
    (DT-297): an action 100 s later moves that deadline 100 s later, within the same scope, and the warning
    comes at the new time, not at the old."""
    with trio.fail_after(HANG_GUARD):
        async with running_server(seeds=(21,)) as server:
            table, table_id, players, seat, view = await at_the_first_card(server, TableOptions(beginner=True))
            steps = await steps_of(table)
            start, first = trio.current_time(), table._next_deadline()
            await trio.sleep(100)
            await players[seat].act(table_id, view)
            await until_steps(steps, 1)
    deadline_steps_keep_time(steps)
    (acted, action, waited), (at, item, deadline) = steps[:2]
    assert (acted, waited) == (start + 100, first) and isinstance(action, Request) and item is None
    assert at == deadline == first + 100


async def test_a_deadline_moved_earlier_by_a_step_ends_the_wait_at_its_new_time(autojump_clock):
    """server/table.py `run`: a card committed by the attacker moves the table's next deadline from the turn's end
    to the defender's 5 seconds (BG-OPT-04), within the same scope: the defender's +0 comes at those 5 seconds."""
    with trio.fail_after(HANG_GUARD):
        async with into_a_timed_combat() as (server, table_id, blue, yellow, players, views):
            table = server.lobby.tables[table_id]
            steps = await steps_of(table)
            turn_end = table._next_deadline()
            attacker = views["B"]["active"]
            await players[attacker].act(table_id, views[attacker])  # the attacker commits, the defender sleeps
            await until_steps(steps, 1)
    deadline_steps_keep_time(steps)
    (committed, _, waited), (at, item, deadline) = steps[0], steps[1]
    assert waited == turn_end and item is None and at == deadline == committed + 5 < turn_end


async def test_a_deadline_passed_when_a_wait_begins_is_handled_before_the_action_that_waited_in_the_inbox(
        autojump_clock):
    """server/table.py `run`: a step can outlast the table's deadline (here trio's clock jumps to the turn's end as
    a step ends), while an action waits in the inbox. The next wait begins after its deadline, so the deadline's
    step comes first, at once (the turn's time-out, BG-OPT-02), and the action after it, as a late one: as with a
    scope a wait, entered after its deadline (review rv32; fails if a wait's shared scope is not cancelled at once,
    the action then handled before the time-out)."""
    with trio.fail_after(HANG_GUARD):
        async with running_server(seeds=(21,)) as server:
            table, table_id, players, seat, view = await at_the_first_card(server, TableOptions(**TIMED))
            step, slow = table._step, CreatorGone()

            def outlasting(item) -> None:
                step(item)
                if item is slow:
                    autojump_clock.jump(deadline - trio.current_time())  # the step ends as the turn runs out

            table._step = outlasting
            steps = await steps_of(table)
            deadline = table._next_deadline()
            action = Request(table.seating.seats[seat].session, Action(table_id, f"{seat}-late", view["legal"][0]))
            assert table.offer(slow) and table.offer(action)  # (the task waits: the first goes to it, the action
            # waits in the inbox)
            await until_steps(steps, 1)
    assert [item for _, item, _ in steps[:3]] == [slow, None, action]
    assert steps[1][0] == steps[2][0] == deadline, "the time-out at once, the action at the same instant"
