"""The client's session and trio networking against a fake server (protocol.ServerConnection over trio memory
streams): lobby set-up, commit-reveal, refused actions, event gaps, role switches and resuming."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import trio
import trio.testing

from dungeon_twister.protocol import (
    Action,
    ActionRefused,
    Commit,
    CreateTable,
    Error,
    Hello,
    Join,
    Joined,
    ListTables,
    OpponentCommit,
    OpponentReveal,
    PlayerCommitments,
    Resume,
    Reveal,
    SeatBot,
    ServerConnection,
    Snapshot,
    Software,
    Spectate,
    TableCreated,
    TableEvent,
    TableOptions,
    Tables,
    verify,
)
from dungeon_twister.client import secret_choice
from dungeon_twister.client.describe import describe_event
from dungeon_twister.client.network import run_network
from dungeon_twister.client.session import Session, TableSetup
from dungeon_twister.client.state import ClientState

from client_fixtures import seat_view
from tests.engine.builders import position_text

TABLE = "t-1"
COMBAT = position_text("bWA@c4 yTR@c5", phase="combat", fields="combat 1 bWA>yTR att=bWA def=yTR")


class FakeServer:
    """The server's end of one client connection, driven step by step by a test."""

    def __init__(self, stream: trio.abc.Stream) -> None:
        self.stream = stream
        self.connection = ServerConnection()

    async def receive(self):
        while (event := self.connection.next_event()) is None:
            data = await self.stream.receive_some()
            assert data, "the client closed the connection"
            self.connection.receive_data(data)
        return event

    async def send(self, message) -> None:
        await self.stream.send_all(self.connection.send(message))

    async def welcome(self) -> Hello:
        hello = await self.receive()
        await self.stream.send_all(self.connection.answer_hello(Software("fake", "1"), "s-1"))
        return hello

    async def seat(self, session: Session, seat: str = "B", position: str = COMBAT, timers: bool = False) -> None:
        """Welcome the client, let it join TABLE in `seat` and send the snapshot."""
        await self.welcome()
        assert isinstance(await self.receive(), ListTables)
        session.join(TABLE, seat)
        assert await self.receive() == Join(TABLE, seat)
        await self.send(Joined(TABLE, f"token-{seat}", seat))
        table = {"id": TABLE, "target_vp": 5, "timers": timers}
        await self.send(Snapshot(TABLE, 0, seat_view(position, seat, table=table)))
        await trio.testing.wait_all_tasks_blocked()


class FakeListener:
    """Hands the client one end of a new memory stream pair per connection, the test the other end."""

    def __init__(self) -> None:
        self.accepted, self._incoming = trio.open_memory_channel[FakeServer](10)

    async def connect(self, host: str, port: int) -> trio.abc.Stream:
        client, server = trio.testing.memory_stream_pair()
        await self.accepted.send(FakeServer(server))
        return client

    async def next_server(self) -> FakeServer:
        return await self._incoming.receive()


HANG_GUARD_MOCK_SECONDS = 3600.0
"""On the autojump MockClock: reached only when every task waits (a hang), never because the machine is slow."""


@asynccontextmanager
async def running_client(session: Session | None = None) -> AsyncIterator[tuple[Session, FakeListener]]:
    """A client session (ann's, a player's, unless given) with its network task; it quits at the end of the block.
    The tests run on pytest-trio's autojump_clock (MockClock): the limit is in mock seconds, reached only if
    everything waits (a hang)."""
    session = session or Session(ClientState("ann"))
    listener = FakeListener()
    with trio.fail_after(HANG_GUARD_MOCK_SECONDS):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(run_network, session, "fake", 0, listener.connect)
            yield session, listener
            session.quit()


async def test_create_joins_the_new_table_and_seats_the_bot(autojump_clock):
    async with running_client() as (session, listener):
        server = await listener.next_server()
        hello = await server.welcome()
        assert (hello.name, hello.role) == ("ann", "player")
        assert isinstance(await server.receive(), ListTables)
        await server.send(Tables(()))  # (a `create` waits for it: Session.lobby_listed)
        session.create_table(TableOptions(target_vp=6), TableSetup(seat="B", bot="greedy"))
        assert await server.receive() == CreateTable(TableOptions(target_vp=6))
        await server.send(TableCreated("t-9"))
        assert await server.receive() == Join("t-9", "B")
        await server.send(Joined("t-9", "token", "B"))
        assert await server.receive() == SeatBot("t-9", "Y", "greedy")
        assert (session.state.table, session.state.seat) == ("t-9", "B")


async def test_combat_card_is_committed_then_revealed_after_the_opponents_commitment(autojump_clock):
    async with running_client() as (session, listener):
        server = await listener.next_server()
        await server.seat(session)
        assert session.state.secret_purpose == "combat-1"

        session.act("combat 3")
        commit = await server.receive()
        assert isinstance(commit, Commit) and commit.purpose == "combat-1"
        await trio.testing.wait_all_tasks_blocked()
        assert not session.state.secrets["combat-1"].revealed, "no reveal before the opponent's commitment"

        opponent = PlayerCommitments(TABLE, "Y")
        await server.send(OpponentCommit(TABLE, "combat-1", "Y", opponent.commit("combat-1", "combat +5")))
        reveal = await server.receive()
        assert isinstance(reveal, Reveal) and reveal.choice == "combat +3"
        assert verify(commit.commitment, TABLE, "B", "combat-1", reveal.choice, reveal.nonce)

        opponent.opponent_committed("combat-1", commit.commitment)
        choice, nonce = opponent.reveal("combat-1")
        await server.send(OpponentReveal(TABLE, "combat-1", "Y", choice, nonce))
        await trio.testing.wait_all_tasks_blocked()
        assert session.state.secrets["combat-1"].opponent_choice == "combat +5"
        assert session.state.alert is None


async def test_BG_OPT_04_a_card_laid_first_is_told_with_the_five_seconds_it_leaves(autojump_clock):
    """Seen in a play-test of a timed table: once the opponent laid his combat card, the player's clock fell to
    0:05 (BG-OPT-04) while the panel still said "Yellow is choosing", and the card +0 was laid for him. The
    opponent's commitment now says so in the notice and the log, with the 5 seconds on a timed table, and the
    panel says who has chosen as soon as this client knows it (the view says it only once both are revealed)."""
    from dungeon_twister.client.panel import game_panel

    def panel(session) -> str:
        return "".join(text for _style, text, *_ in game_panel(session.state, 0.0))

    async with running_client() as (session, listener):
        server = await listener.next_server()
        await server.seat(session, timers=True)
        assert "Blue is choosing, Yellow is choosing" in panel(session)
        opponent = PlayerCommitments(TABLE, "Y")
        await server.send(OpponentCommit(TABLE, "combat-1", "Y", opponent.commit("combat-1", "combat +5")))
        await trio.testing.wait_all_tasks_blocked()
        told = ("Yellow has laid his combat card (the card for combat 1): lay yours within 5 seconds, or +0 is laid "
                "for you")
        assert session.state.notice == told and list(session.state.log)[-1] == told
        assert "Blue is choosing, Yellow has chosen" in panel(session)
        session.act("combat 3")
        assert isinstance(await server.receive(), Commit)
        assert "Blue has chosen, Yellow has chosen" in panel(session)

    async with running_client() as (session, listener):  # no card laid: once the +0 is laid the notice goes
        server = await listener.next_server()
        await server.seat(session, timers=True)
        opponent = PlayerCommitments(TABLE, "Y")
        await server.send(OpponentCommit(TABLE, "combat-1", "Y", opponent.commit("combat-1", "combat +5")))
        await trio.testing.wait_all_tasks_blocked()
        assert session.state.notice == told
        n = session.connection.last_event
        await server.send(TableEvent(TABLE, n + 1, {"kind": "timeout", "seat": "B", "purpose": "combat-1",
                                                    "actions": ["combat +0"]}))
        await server.send(TableEvent(TABLE, n + 2, {"kind": "card_chosen", "seat": "B", "value": 0}))
        await trio.testing.wait_all_tasks_blocked()
        assert session.state.notice == "", "a play-test saw it stay after the +0 was laid"
        # the card is told as the seat's, not as chosen by it (play-test pt22, F20: "Blue chooses +0" after the
        # clock had chosen it)
        log = list(session.state.log)
        # (its own clock: "your", play-test pt28 W1)
        assert [log[-3], log[-1]] == ["your time ran out for the card for combat 1: combat +0",
                                      "Blue's card for the combat: +0"]
        assert log[-2].startswith("the card for combat 1: the server chose for you")  # (play-test pt24 F3)

    async with running_client() as (session, listener):  # untimed: no deadline to tell
        server = await listener.next_server()
        await server.seat(session)
        opponent = PlayerCommitments(TABLE, "Y")
        await server.send(OpponentCommit(TABLE, "combat-1", "Y", opponent.commit("combat-1", "combat +5")))
        await trio.testing.wait_all_tasks_blocked()
        assert session.state.notice == "Yellow has made his secret choice (the card for combat 1); make yours"


async def test_a_card_the_clock_laid_for_the_opponent_is_told_as_his_card_not_as_his_choice(autojump_clock):
    """BG-OPT-04: Yellow lets his 5 seconds pass; the server lays +0 for him and says so to all (`timeout` with the
    action). The combat's `card_chosen` of Yellow, which shows Blue no value, read "Yellow chooses a card for the
    combat" (now "has laid") right after "Yellow's time ran out for combat-1: combat +0" (play-test pt24 F1): it is told as his
    card. The edge: in the next combat, with no timeout, his card is only "laid" again (not "chosen": Blue, had his
    own clock laid his card, read "chooses" as a choice made after his time ran out)."""
    async with running_client() as (session, listener):
        server = await listener.next_server()
        await server.seat(session, timers=True)
        n = session.connection.last_event
        declared = {"kind": "combat_declared", "number": 1, "attacker": "bWA", "target": "yTR",
                    "attackers": ["bWA"], "defenders": ["yTR"]}
        for offset, event in enumerate((
                declared,
                {"kind": "timeout", "seat": "Y", "purpose": "combat-1", "actions": ["combat +0"]},
                {"kind": "card_chosen", "seat": "B", "value": 3},
                {"kind": "card_chosen", "seat": "Y"},
                {**declared, "number": 2},
                {"kind": "card_chosen", "seat": "B", "value": 2},
                {"kind": "card_chosen", "seat": "Y"}), start=1):
            await server.send(TableEvent(TABLE, n + offset, event))
        await trio.testing.wait_all_tasks_blocked()
        log = list(session.state.log)
        assert log[-5:-3] == ["Blue's card for the combat: +3", "Yellow's card for the combat: +0"]
        assert log[-1] == "Yellow has laid a card for the combat"


async def test_the_check_of_a_commitment_the_server_made_for_a_late_seat_says_whose_it_is(autojump_clock):
    """BG-OPT-04, docs/protocol.md section 13: Yellow laid no card in time; the server committed +0 for him and
    opened it. Blue's log said "Yellow reveals 'combat +0' for combat-1: it matches his commitment", read as a
    commitment Yellow made (play-test pt24 F10). It says the server made it; a reveal of his own (the edge: no
    timeout of his for that purpose, one of Blue's) reads as before."""
    for late in ("Y", "B"):
        async with running_client() as (session, listener):
            server = await listener.next_server()
            await server.seat(session, timers=True)
            session.act("combat 3")
            commit = await server.receive()
            await server.send(TableEvent(TABLE, session.connection.last_event + 1, {
                "kind": "timeout", "seat": late, "purpose": "combat-1", "actions": ["combat +0"]}))
            opponent = PlayerCommitments(TABLE, "Y")
            await server.send(OpponentCommit(TABLE, "combat-1", "Y", opponent.commit("combat-1", "combat +0")))
            await server.receive()
            opponent.opponent_committed("combat-1", commit.commitment)
            choice, nonce = opponent.reveal("combat-1")
            await server.send(OpponentReveal(TABLE, "combat-1", "Y", choice, nonce))
            await trio.testing.wait_all_tasks_blocked()
            said = list(session.state.log)[-1]
            if late == "Y":
                assert said == ("Yellow's choice for the card for combat 1 is shown: 'combat +0', the one the server "
                                "made for that seat when its time ran out (checked)")
            else:
                assert said == ("Yellow's choice for the card for combat 1 is shown: 'combat +0', the one he made "
                                "before he saw yours (checked)")


async def timed_combat(session: Session, listener: FakeListener, committed: bool) -> FakeServer:
    """The client seated in COMBAT on a timed table; with `committed`, its card (+3) laid: the fake server."""
    server = await listener.next_server()
    await server.seat(session, timers=True)
    if committed:
        session.act("combat 3")
        assert isinstance(await server.receive(), Commit)
    return server


async def test_BG_OPT_04_the_seat_whose_clock_laid_his_card_is_told_there_is_nothing_for_him_to_check(autojump_clock):
    """BG-OPT-04, docs/protocol.md section 13 (Timers): Yellow laid his card, Blue let his 5 seconds pass and the
    server laid +0 for him. Yellow's log told the check of that card; Blue, who is sent no commitment of Yellow's
    (his own never came), read nothing of a check (play-test pt24 F3). One line now says why there is none. The
    edges: the opponent's timeout, and ours for a round we committed to (a reveal too late), add no such line."""
    expected = ("the card for combat 1: the server chose for you, so there is nothing for you to check of Yellow's "
                "choice (the check shows that he made his before he saw yours, and you made none)")
    for late, committed in (("B", False), ("Y", False), ("B", True)):
        async with running_client() as (session, listener):
            server = await timed_combat(session, listener, committed)
            n = session.connection.last_event
            hostile = {"_yours": True} if late == "Y" else {}  # (a server's key of the client's own name)
            await server.send(TableEvent(TABLE, n + 1, {"kind": "timeout", "seat": late, "purpose": "combat-1",
                                                        "actions": ["combat +0"], **hostile}))
            await server.send(TableEvent(TABLE, n + 2, {"kind": "card_chosen", "seat": "B", "value": 0}))
            await trio.testing.wait_all_tasks_blocked()
            log = list(session.state.log)
            if (late, committed) == ("B", False):
                assert log[-3:] == ["your time ran out for the card for combat 1: combat +0", expected,
                                    "Blue's card for the combat: +0"]
            else:
                assert expected not in log
            if late == "Y":  # the opponent's clock: in the third person (and a server's own `_yours` key is not
                # taken: only the client marks its own seat's timeouts, review rv29)
                assert "Yellow's time ran out for the card for combat 1: combat +0" in log


async def test_DT_091_a_bots_choice_made_again_after_a_restart_is_not_promised_a_check(autojump_clock):
    """DT-091: a restored bot cannot open what its predecessor committed to, so the server makes its choice again
    (`timeout`, `why` restart) and no reveal of it will come. The bar kept saying "waiting for the opponent's
    commitment" or "... checked against his commitment when the game shows it" (play-test pt24b). Now it says
    there is nothing of his to check, whether the news comes before our choice or after it; the edges: a timeout
    without `why` (the clock's: the server's commitment is sent and checked), and our own seat's, change nothing."""
    remade = ("the card for combat 1: you chose 'combat +3'; the opponent's choice was made again after the server's "
              "restart, so "
              "there is nothing of his to check")
    news = {"kind": "timeout", "seat": "Y", "purpose": "combat-1", "why": "restart", "actions": ["combat +0"]}
    for event, before in ((news, False), (news, True), ({**news, "why": None}, True), ({**news, "seat": "B"}, True)):
        async with running_client() as (session, listener):
            server = await listener.next_server()
            await server.seat(session)
            if not before:
                session.act("combat 3")
                assert isinstance(await server.receive(), Commit)
            await server.send(TableEvent(TABLE, session.connection.last_event + 1, event))
            await trio.testing.wait_all_tasks_blocked()
            if before:
                session.act("combat 3")
                assert isinstance(await server.receive(), Commit)
            round_ = session.state.secrets["combat-1"]
            if event is news:
                assert session.state.notice == remade and round_.describe(pending=False) == remade
            else:
                assert session.state.notice == ("the card for combat 1: you chose 'combat +3'; waiting for the "
                                                "opponent to choose") and not round_.opponent_remade


async def test_BG_OPT_03_the_5_seconds_to_place_the_revealers_objects_are_said(autojump_clock):
    """BG-REVEAL-06, BG-OPT-03: Yellow revealed a room holding objects of his colour, which Blue places within 5
    seconds on a timed table, or Yellow places them. Only the panel's clock said so, and a play-test's player missed
    it twice (pt25 F7): the log and the bar say it when the placing comes to us. The edges: said once, not on a
    table without timers, not to the revealer, not for a room without his objects."""
    expected = "Yellow's revealed objects are yours to place: place yRP within 5 seconds, or Yellow places them"
    placing = {"slot": "A1", "revealer": "Y", "placer": "B", "tokens": ["yRP"], "passed": False}
    cases = ((True, placing, True), (False, placing, False), (True, {**placing, "revealer": "B"}, False),
             (True, {**placing, "tokens": ["yGO"]}, False))  # (a character: the revealer's to place)
    for timers, placement, told in cases:
        async with running_client() as (session, listener):
            server = await listener.next_server()
            await server.seat(session, position=position_text("bWA@c4 yTR@c9"), timers=timers)
            view = {**session.state.view, "phase": "place", "placement": placement}
            n = session.connection.last_event
            await server.send(TableEvent(TABLE, n + 1, {"kind": "view", "view": view}))
            await server.send(TableEvent(TABLE, n + 2, {"kind": "view", "view": view}))  # (a chat, a timer...)
            await trio.testing.wait_all_tasks_blocked()
            log = list(session.state.log)
            assert log.count(expected) == (1 if told else 0), (timers, placement)
            assert (session.state.notice == expected) is told


async def test_BG_OPT_05_PD_OBJ_CHARM_07_the_minute_a_potion_or_a_charm_adds_is_said(autojump_clock):
    """BG-OPT-05, PD-OBJ-CHARM-07: on a table with timers the Speed Potion and each Charm Scroll add a minute to
    the turn; the clock jumped and nothing said why (play-test pt25 F16). A line says so after the event's; the
    edge: not on a table without timers."""
    for timers in (True, False):
        async with running_client() as (session, listener):
            server = await listener.next_server()
            await server.seat(session, position=position_text("bWA@c4 yTR@c9"), timers=timers)
            n = session.connection.last_event
            await server.send(TableEvent(TABLE, n + 1, {"kind": "charmed", "by": "bIL", "target": "yWA",
                                                        "actions": 3}))
            await server.send(TableEvent(TABLE, n + 2, {"kind": "potion_drunk", "token": "bTH", "extra_ap": 1}))
            await trio.testing.wait_all_tasks_blocked()
            log = list(session.state.log)
            minutes = [line for line in log if line.startswith("the turn's clock gains a minute")]
            if timers:
                assert minutes == ["the turn's clock gains a minute (PD-OBJ-CHARM-07)",
                                   "the turn's clock gains a minute (BG-OPT-05)"]
                assert log.index(minutes[0]) == log.index(next(line for line in log if " charms " in line)) + 1
                assert log[-1] == minutes[1] and "Speed Potion" in log[-2]
            else:
                assert minutes == []


async def test_DT_090_a_snapshot_says_again_the_secret_choice_the_opponent_has_made(autojump_clock):
    """DT-090, BG-OPT-04: after a server's restart a combat card has 5 seconds afresh once both players are back;
    the one coming back read only the line of before the restart, his panel's clock the only sign (play-test
    pt25b). A snapshot whose secret choice of ours the opponent has made says it again; the edges: not once we
    have chosen, not when the opponent has not."""
    expected = ("Yellow has laid his combat card (the card for combat 1): lay yours within 5 seconds, or +0 is laid "
                "for you")
    for opponent_committed, ours in ((True, False), (False, False), (True, True)):
        async with running_client() as (session, listener):
            server = await timed_combat(session, listener, ours)
            table = {"id": TABLE, "target_vp": 5, "timers": True, "committed": ["Y"] if opponent_committed else []}
            await server.send(Snapshot(TABLE, session.connection.last_event, seat_view(COMBAT, "B", table=table)))
            await trio.testing.wait_all_tasks_blocked()
            told = list(session.state.log).count(expected)
            assert told == (1 if opponent_committed and not ours else 0), (opponent_committed, ours)


async def test_a_reveal_is_logged_after_the_events_it_comes_with(autojump_clock):
    """Seen by hand: "Yellow reveals 'combat +5' for combat-1: it matches his commitment" stood in the log before
    "Blue chooses +3", the combat's own events, which the server sends right after the reveals (docs/protocol.md,
    commit-reveal step 4) in the same write. The check of the reveal now follows the events of the same bytes."""
    async with running_client() as (session, listener):
        server = await listener.next_server()
        await server.seat(session)
        session.act("combat 3")
        commit = await server.receive()
        opponent = PlayerCommitments(TABLE, "Y")
        await server.send(OpponentCommit(TABLE, "combat-1", "Y", opponent.commit("combat-1", "combat +5")))
        await server.receive()
        opponent.opponent_committed("combat-1", commit.commitment)
        choice, nonce = opponent.reveal("combat-1")
        # the step (its events, then its view) and the next one (the opponent's turn ends), in one write: the check
        # comes after the first step's events, before the second's (play-test pt23: the team's check read after
        # the bot's whole first turn, which the server had sent at once)
        step = (server.connection.send(OpponentReveal(TABLE, "combat-1", "Y", choice, nonce))
                + server.connection.send(TableEvent(TABLE, 1, {"kind": "card_chosen", "seat": "B", "value": 3}))
                + server.connection.send(TableEvent(TABLE, 2, {"kind": "view", "view": session.state.view}))
                + server.connection.send(TableEvent(TABLE, 3, {"kind": "turn_ended", "seat": "Y", "turn": 1})))
        await server.stream.send_all(step)  # one write, as the server's step is
        await trio.testing.wait_all_tasks_blocked()
        assert list(session.state.log)[-3:] == ["Blue's card for the combat: +3",
                                                "Yellow's choice for the card for combat 1 is shown: 'combat +5', the "
                                                "one he made before he saw yours (checked)",
                                                describe_event({"kind": "turn_ended", "seat": "Y", "turn": 1})]


async def test_a_team_reveal_is_logged_with_the_step_that_showed_the_teams_not_after_the_next_one(autojump_clock):
    """A team's reveal is forwarded once the teams are shown, after that step's view (docs/protocol.md, secret
    choices), where a combat's comes ahead of its step: play-test pt23 read "Yellow reveals 'team ...': it matches
    his commitment" after the bot's whole first turn, which the server had sent in the same bytes. Its check is
    logged as it comes."""
    from dungeon_twister.engine import Options, format_action, legal_actions, new_game, view

    async with running_client() as (session, listener):
        server = await listener.next_server()
        await server.welcome()
        assert isinstance(await server.receive(), ListTables)
        session.join(TABLE, "B")
        assert await server.receive() == Join(TABLE, "B")
        await server.send(Joined(TABLE, "token-B", "B"))
        state = new_game(Options(), 7)
        teams = {seat: format_action(legal_actions(state, seat)[0]) for seat in "BY"}
        await server.send(Snapshot(TABLE, 0, {**view(state, "B"), "legal": [format_action(a) for a in
                                                                             legal_actions(state, "B")]}))
        await trio.testing.wait_all_tasks_blocked()
        session.act(teams["B"])
        commit = await server.receive()
        opponent = PlayerCommitments(TABLE, "Y")
        await server.send(OpponentCommit(TABLE, "team", "Y", opponent.commit("team", teams["Y"])))
        assert isinstance(await server.receive(), Reveal)
        opponent.opponent_committed("team", commit.commitment)
        choice, nonce = opponent.reveal("team")
        # (the teams are shown once the hidden placement is over: a shortened event and view stand for that step)
        events = [{"kind": "teams_revealed", "teams": {"B": {"b0": "bWA"}, "Y": {"b21": "yTH"}}}]
        shown = {**view(state, "B"), "legal": [], "secret": None}
        step = (server.connection.send(TableEvent(TABLE, 1, events[0]))
                + server.connection.send(TableEvent(TABLE, 2, {"kind": "view", "view": shown}))
                + server.connection.send(OpponentReveal(TABLE, "team", "Y", choice, nonce))
                + server.connection.send(TableEvent(TABLE, 3, {"kind": "turn_started", "seat": "Y", "turn": 1}))
                + server.connection.send(TableEvent(TABLE, 4, {"kind": "view", "view": shown})))
        await server.stream.send_all(step)  # one write: the step, the reveal, the next step
        await trio.testing.wait_all_tasks_blocked()
        assert list(session.state.log)[-3:] == [
            describe_event(events[0]),
            f"Yellow's choice for the starting team is shown: {teams['Y']!r}, the one he made before he saw yours "
            "(checked)",
            describe_event({"kind": "turn_started", "seat": "Y", "turn": 1})]
        # ... and right after the teams' line when the step that shows them also begins turn 1 (play-test pt23b)
        session.state.log.clear()
        step = (server.connection.send(TableEvent(TABLE, 5, events[0]))
                + server.connection.send(TableEvent(TABLE, 6, {"kind": "turn_started", "seat": "B", "turn": 1}))
                + server.connection.send(TableEvent(TABLE, 7, {"kind": "view", "view": shown})))
        await server.stream.send_all(step)
        await trio.testing.wait_all_tasks_blocked()
        secret_choice.on_opponent_reveal(session, OpponentReveal(TABLE, "team", "Y", choice, nonce))
        assert list(session.state.log) == [
            describe_event(events[0]),
            f"Yellow's choice for the starting team is shown: {teams['Y']!r}, the one he made before he saw yours "
            "(checked)",
            describe_event({"kind": "turn_started", "seat": "B", "turn": 1})]


async def test_a_reveal_that_does_not_open_the_commitment_raises_the_alert(autojump_clock):
    async with running_client() as (session, listener):
        server = await listener.next_server()
        await server.seat(session)
        session.act("combat +0")
        await server.receive()
        opponent = PlayerCommitments(TABLE, "Y")
        await server.send(OpponentCommit(TABLE, "combat-1", "Y", opponent.commit("combat-1", "combat +0")))
        await server.receive()
        await server.send(OpponentReveal(TABLE, "combat-1", "Y", "combat +6", bytes(32)))
        await trio.testing.wait_all_tasks_blocked()
        assert "CHEATING" in session.state.alert and "combat +6" in session.state.alert
        assert session.state.secrets["combat-1"].opponent_choice is None


async def test_a_choice_that_is_not_legal_is_refused_locally_without_committing(autojump_clock):
    async with running_client() as (session, listener):
        server = await listener.next_server()
        await server.seat(session)
        session.act("combat +7")
        assert session.state.refusal.code == "not_a_choice"
        assert "combat-1" not in session.state.secrets
        session.act("combat +1")
        assert isinstance(await server.receive(), Commit)


async def test_refused_action_keeps_the_rule_and_the_text(autojump_clock):
    main_phase = position_text("bWA@c4 yTR@c6")
    async with running_client() as (session, listener):
        server = await listener.next_server()
        await server.seat(session, position=main_phase)
        session.act("move bWA c6")
        action = await server.receive()
        assert isinstance(action, Action) and action.text == "move bWA c6"
        await server.send(ActionRefused(action.action_id, "illegal_action", "yTR stands there", rule="BG-MOVE-09"))
        await trio.testing.wait_all_tasks_blocked()
        refusal = session.state.refusal
        assert (refusal.text, refusal.rule, refusal.code) == ("move bWA c6", "BG-MOVE-09", "illegal_action")
        assert session.state.pending_actions == {}


async def test_an_event_gap_asks_for_the_missing_events(autojump_clock):
    async with running_client() as (session, listener):
        server = await listener.next_server()
        await server.seat(session)
        await server.send(TableEvent(TABLE, 1, {"kind": "turn_started", "turn": 6, "seat": "Y"}))
        await server.send(TableEvent(TABLE, 3, {"kind": "turn_ended", "turn": 6, "seat": "Y"}))
        assert await server.receive() == Resume(TABLE, 1)
        assert list(session.state.log) == ["turn 6: Yellow plays"]


async def test_the_event_log_says_what_came_before_a_snapshot_is_not_in_it(autojump_clock):
    """A client that joins a game under way, or comes back after a crash, gets a snapshot: the events before it are
    in the view, not in the log, which must not say that nothing has happened."""
    from dungeon_twister.client.panel import event_log

    async with running_client() as (session, listener):
        server = await listener.next_server()
        await server.welcome()
        await server.receive()  # ListTables
        assert event_log(session.state) == [("class:log", "(nothing happened yet)")]
        session.join(TABLE, "B")
        await server.receive()
        await server.send(Joined(TABLE, "token-B", "B"))
        await server.send(Snapshot(TABLE, 42, seat_view(COMBAT, "B", table={"id": TABLE, "target_vp": 5})))
        await trio.testing.wait_all_tasks_blocked()
        # (a play-test: "nothing new since you came in" read as if nothing had happened while one was away)
        assert event_log(session.state) == [("class:log", "(what happened before you came in is not in this log: "
                                                          "the board shows the game as it is now)")]
        await server.send(TableEvent(TABLE, 43, {"kind": "turn_started", "turn": 6, "seat": "Y"}))
        await trio.testing.wait_all_tasks_blocked()
        assert event_log(session.state) == [("class:log", "turn 6: Yellow plays")]
        # a table whose game has not begun: what came before were its joins (a creator was told he missed something)
        waiting = seat_view(COMBAT, "B", table={"id": TABLE, "target_vp": 5}) | {"started": False}
        await server.send(Snapshot(TABLE, 2, waiting))
        await trio.testing.wait_all_tasks_blocked()
        assert not session.state.came_in


async def test_spectating_from_a_player_connection_reconnects_as_a_spectator(autojump_clock):
    async with running_client() as (session, listener):
        first = await listener.next_server()
        await first.welcome()
        await first.receive()
        session.spectate("t-3")
        assert await first.stream.receive_some() == b"", "the player connection is closed"
        second = await listener.next_server()
        hello = await second.welcome()
        assert hello.role == "spectator"
        assert isinstance(await second.receive(), ListTables)
        assert await second.receive() == Spectate("t-3")
        await second.send(Joined("t-3", "token-s"))
        await trio.testing.wait_all_tasks_blocked()
        assert session.state.spectating


async def test_spectate_by_a_tables_number_waits_for_the_table_list(autojump_clock):
    """`dt-client connect HOST --spectate 2`: the lobby's `spectate 2` takes the table numbered 2 in the list, but
    on the command line the request went out before any list, as the table '2', which the server refused ("no
    table '2'"). The number is now resolved once the list (every page of it) is in, like the lobby's."""
    from dungeon_twister.protocol import Role, TableInfo, Tables

    spectator = Session(ClientState("gino"), Role.SPECTATOR)
    spectator.spectate_listed = "2"
    async with running_client(spectator) as (session, listener):
        server = await listener.next_server()
        assert (await server.welcome()).role == "spectator"
        assert isinstance(await server.receive(), ListTables)
        tables = (TableInfo("t1-aaaa", TableOptions(), "playing", 4, blue="ann", yellow="bob"),
                  TableInfo("t2-bbbb", TableOptions(), "playing", 9, blue="cy", yellow="dee"))
        await server.send(Tables(tables[:1], more=True))
        assert await server.receive() == ListTables(offset=1)
        await server.send(Tables(tables[1:]))
        assert await server.receive() == Spectate("t2-bbbb")
        await server.send(Joined("t2-bbbb", "token-s"))
        await server.send(Tables(tables))  # a later list asks for nothing more
        sent = b""
        with trio.move_on_after(5):
            sent = await server.stream.receive_some()
        assert sent == b"" and session.state.spectating and session.spectate_listed is None


async def test_spectate_by_a_number_no_listed_table_has_says_what_the_number_is(autojump_clock):
    """Play-test: `--spectate 1` with one table listed, t3-c42d7d85, got the server's "there is no table '1'". The
    number is the one in a table's id, as in the lobby's `spectate 1`: the client says so, with the listed ids,
    and sends nothing the server would refuse."""
    from dungeon_twister.protocol import Role, TableInfo, Tables

    spectator = Session(ClientState("gino"), Role.SPECTATOR)
    spectator.spectate_listed = "1"
    async with running_client(spectator) as (session, listener):
        server = await listener.next_server()
        await server.welcome()
        assert isinstance(await server.receive(), ListTables)
        await server.send(Tables((TableInfo("t3-c42d7d85", TableOptions(), "playing", 4, blue="ann", yellow="bob"),)))
        sent = b""
        with trio.move_on_after(5):
            sent = await server.stream.receive_some()
        assert sent == b"" and not session.state.spectating
        assert session.state.notice == ("no listed table has the number 1 (the number in its id, as 3 in "
                                        "t3-c42d7d85): t3-c42d7d85")


async def test_a_lost_connection_is_resumed_and_unanswered_actions_are_sent_again(autojump_clock):
    main_phase = position_text("bWA@c4 yTR@c6")
    async with running_client() as (session, listener):
        first = await listener.next_server()
        await first.seat(session, position=main_phase)
        session.act("end")
        action = await first.receive()
        await first.stream.aclose()

        second = await listener.next_server()
        hello = await second.welcome()
        assert hello.resume is not None
        assert (hello.resume.token, hello.resume.table, hello.resume.last_event) == ("token-B", TABLE, 0)
        await second.send(Joined(TABLE, "token-B2", "B"))
        assert await second.receive() == action, "the same action id and text"
        assert session.state.table == TABLE and session.token == "token-B2"


async def test_a_commitment_made_before_a_lost_connection_is_revealed_after_the_resume(autojump_clock):
    async with running_client() as (session, listener):
        first = await listener.next_server()
        await first.seat(session)
        session.act("combat +2")
        commit = await first.receive()
        await first.stream.aclose()

        second = await listener.next_server()
        await second.welcome()
        await second.send(Joined(TABLE, "token-B2", "B"))
        assert await second.receive() == commit, "sent again byte for byte: the first one may have been lost"
        opponent = PlayerCommitments(TABLE, "Y")
        await second.send(OpponentCommit(TABLE, "combat-1", "Y", opponent.commit("combat-1", "combat +1")))
        reveal = await second.receive()
        assert isinstance(reveal, Reveal) and reveal.choice == "combat +2"
        assert verify(commit.commitment, TABLE, "B", "combat-1", reveal.choice, reveal.nonce)


async def test_views_come_as_deltas_and_the_team_choice_compact_when_the_server_offers_them(autojump_clock):
    from dungeon_twister.engine import Options, format_action, legal_actions, new_game, view
    from dungeon_twister.protocol.views import (ANNOUNCEMENTS, COMPACT_LEGAL, DELTA_VIEWS, REMATCH, SEED_CONTRIBUTIONS,
                                                TABLE_UPDATES, PackedView, team_choice)
    from dungeon_twister.protocol.wire_types import Packed

    async with running_client() as (session, listener):
        server = await listener.next_server()
        hello = await server.receive()
        # the client asks for the features...
        assert hello.features == (DELTA_VIEWS, TABLE_UPDATES, SEED_CONTRIBUTIONS, COMPACT_LEGAL, REMATCH,
                                  ANNOUNCEMENTS, "decline_rematch")
        await server.stream.send_all(server.connection.answer_hello(Software("fake", "1"), "s-1", (DELTA_VIEWS,)))
        assert isinstance(await server.receive(), ListTables)
        session.join(TABLE, "B")
        assert await server.receive() == Join(TABLE, "B")
        await server.send(Joined(TABLE, "token-B", "B"))
        state = new_game(Options(), 7)
        texts = [format_action(action) for action in legal_actions(state, "B")]
        first = {**view(state, "B"), "legal": [], "team_choice": team_choice(texts), "secret": "team"}
        await server.send(Snapshot(TABLE, 0, Packed(PackedView.of(first).body())))
        await trio.testing.wait_all_tasks_blocked()
        assert session.state.legal == texts  # ...and completes the 1,680 teams from their compact form
        second = {**first, "legal": [], "team_choice": None, "secret": None, "ap": 2}
        delta = PackedView.of(second).delta(PackedView.of(first))
        await server.send(TableEvent(TABLE, 1, Packed(delta)))
        await trio.testing.wait_all_tasks_blocked()
        assert session.state.view == second and session.state.legal == []
        await server.send(TableEvent(TABLE, 2, {"kind": "view_delta", "set": {}, "tokens": [[5, 999]]}))
        assert await server.receive() == Resume(TABLE, 1, True)  # a delta that does not fit: a snapshot, please


async def test_the_lobby_list_follows_table_updates_when_the_server_offers_them(autojump_clock):
    """Feature "table_updates" (docs/protocol.md section 15): a table_update replaces the line with its id or adds
    one; a table_closed removes the line (and is harmless for a table never listed)."""
    from dungeon_twister.protocol import TableClosed, TableInfo, Tables, TableUpdate
    from dungeon_twister.protocol.views import DELTA_VIEWS, TABLE_UPDATES

    async with running_client() as (session, listener):
        server = await listener.next_server()
        hello = await server.receive()
        assert TABLE_UPDATES in hello.features
        await server.stream.send_all(server.connection.answer_hello(Software("fake", "1"), "s-1",
                                                                    (DELTA_VIEWS, TABLE_UPDATES)))
        assert isinstance(await server.receive(), ListTables)
        waiting = TableInfo("t-1", TableOptions(), "waiting", 0, blue="ann")
        await server.send(Tables((waiting,)))
        await server.send(TableUpdate(TableInfo("t-1", TableOptions(), "playing", 1, blue="ann", yellow="bob")))
        await server.send(TableUpdate(TableInfo("t-2", TableOptions(target_vp=6), "waiting", 0, yellow="cy")))
        await server.send(TableClosed("t-9"))
        await trio.sleep(1)
        assert [(t.table, t.status, t.yellow) for t in session.state.tables] == [
            ("t-1", "playing", "bob"), ("t-2", "waiting", "cy")]
        await server.send(TableClosed("t-1"))
        await trio.sleep(1)
        assert [t.table for t in session.state.tables] == ["t-2"]


async def test_what_is_typed_while_connecting_is_sent_once_connected(autojump_clock):
    """The lobby's commands typed before the welcome (the server slow to answer) are kept and sent after it, in
    order; nothing is lost, and the user is told."""
    from dungeon_twister.protocol import Chat

    async with running_client() as (session, listener):
        session.state.say("")
        session.send(Chat("hi all"))  # before the connection is even open
        server = await listener.next_server()
        hello = await server.receive()  # the hello is there; the welcome is not yet
        assert hello.name == "ann"
        session.create_table(TableOptions(target_vp=6))
        assert session.state.notice == "connecting: create_table will be sent once connected"
        await server.stream.send_all(server.connection.answer_hello(Software("fake", "1"), "s-1"))
        assert isinstance(await server.receive(), ListTables)
        assert await server.receive() == Chat("hi all")
        await server.send(Tables(()))  # (the `create` waits for the list's answer: Session.lobby_listed)
        assert await server.receive() == CreateTable(TableOptions(target_vp=6))


async def test_a_commitment_the_server_no_longer_has_is_sent_again_once(autojump_clock):
    """A play-test restored a backup taken before both teams were chosen: both clients said "you have already
    chosen", the server held no commitment, and nobody could move. A view or snapshot of the round we chose in
    that does not name us among the seats committed makes the client send the same commitment again (same
    choice, same nonce): once a connection, a duplicate being refused commit_twice, silently."""
    async with running_client() as (session, listener):
        server = await listener.next_server()
        await server.seat(session)
        session.act("combat 3")
        first = await server.receive()
        assert isinstance(first, Commit)

        table = {"id": TABLE, "target_vp": 5, "timers": False}
        await server.send(Snapshot(TABLE, 0, seat_view(COMBAT, "B", table=table)))  # the store went back
        again = await server.receive()
        assert again == first, "the same commitment"
        await server.send(Error("commit_twice", "already committed for 'combat-1'", "client", False))
        await server.send(TableEvent(TABLE, 1, {"kind": "view", "view": seat_view(COMBAT, "B", table=table)}))
        await trio.testing.wait_all_tasks_blocked()
        with trio.move_on_after(5):
            sent = await server.receive()
            raise AssertionError(f"sent twice on one connection: {sent!r}")
        assert session.state.refusal is None and session.state.alert is None
        assert session.state.secrets["combat-1"].describe().endswith("waiting for the opponent to choose")
