"""Taking a seat back: attempts with a growing delay for the whole grace period the server announced (with a
countdown and the `reconnect` command), a silent server pinged then given up on, a seat kept on disk resumed
by a new process (its secret round included), and the seat file forgotten when the seat is. Virtual time
(trio's MockClock): no real sleeps."""

from __future__ import annotations

import errno
from contextlib import asynccontextmanager

import pytest
import trio
import trio.testing

from dungeon_twister.protocol import (
    Chat,
    CreateTable,
    Error,
    GameOver,
    Joined,
    Left,
    ListTables,
    OpponentCommit,
    OpponentReveal,
    Ping,
    Pong,
    PlayerCommitments,
    ProtocolError,
    Refused,
    ResumeInfo,
    Reveal,
    Snapshot,
    TableEvent,
    TableOptions,
    Tables,
    verify,
)
from dungeon_twister.client.held import HeldSeat, SeatFile
from dungeon_twister.client.messages import message_bar
from dungeon_twister.client.network import PROBE_SECONDS, SILENCE_SECONDS, run_network
from dungeon_twister.client.session import QUICK_END, STOPPED_ROW_SECONDS, Session, TableSetup, backoff
from dungeon_twister.client.state import ClientState

from client_fixtures import seat_view
from test_client_session import COMBAT, TABLE, FakeListener, FakeServer

ADDRESS = "fake:0"


class Network:
    """Connections to the fake server, with the times they were attempted; refused while `down`."""

    def __init__(self) -> None:
        self.listener = FakeListener()
        self.attempts: list[float] = []
        self.down = False
        self.connect_error: OSError = OSError(errno.ECONNREFUSED, "Connection refused")
        """What a connection attempt raises while the network is `down`."""

    async def connect(self, host: str, port: int) -> trio.abc.Stream:
        self.attempts.append(trio.current_time())
        if self.down:
            raise self.connect_error
        return await self.listener.connect(host, port)

    async def server(self) -> FakeServer:
        return await self.listener.next_server()


@asynccontextmanager
async def client(network: Network, seat_file: SeatFile | None = None):
    """A client process; leaving the block kills it (no goodbye, like a crash)."""
    session = Session(ClientState("ann"), clock=trio.current_time, seat_file=seat_file)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(run_network, session, "fake", 0, network.connect)
        try:
            yield session
        finally:
            nursery.cancel_scope.cancel()


async def seat_with_grace(server: FakeServer, session: Session, grace: int | None) -> None:
    await server.welcome()
    assert isinstance(await server.receive(), ListTables)
    session.join(TABLE, "B")
    await server.receive()
    await server.send(Joined(TABLE, "token-B", "B", grace))
    await server.send(Snapshot(TABLE, 0, seat_view(COMBAT, "B", table={"id": TABLE})))
    await trio.testing.wait_all_tasks_blocked()


async def seated_then_cut(network: Network, session: Session, grace: int | None) -> None:
    """The client takes a seat (the server announcing `grace`), then the network goes down and the connection
    drops: every further connection attempt fails until the test sets `network.down` back to False."""
    server = await network.server()
    await seat_with_grace(server, session, grace)
    network.down = True
    await server.stream.aclose()


async def test_a_spectator_cut_off_is_not_told_of_a_seat(autojump_clock):
    """Play-test: a spectator whose server was killed read "your seat is held 55 s more": he has no seat. His
    countdown says only that the client reconnects."""
    network = Network()
    async with client(network) as session:
        server = await network.server()
        await server.welcome()
        assert isinstance(await server.receive(), ListTables)
        session.spectate(TABLE)  # (a player connection switches to a spectator's)
        server = await network.server()
        assert (await server.welcome()).role == "spectator"
        await server.receive()
        await server.send(Joined(TABLE, "token-s", None, 60))
        await server.send(Snapshot(TABLE, 0, seat_view(COMBAT, "B", table={"id": TABLE})))
        await trio.testing.wait_all_tasks_blocked()
        assert session.state.spectating
        network.down = True
        await server.stream.aclose()
        await trio.sleep(1.2)
        ((_, bar),) = message_bar(session.state, trio.current_time())
        assert bar.startswith("connection lost (") and "seat" not in bar and bar.endswith("`reconnect` tries now")


async def test_a_spectator_of_a_stopped_game_is_not_told_of_a_seat(autojump_clock):
    """A game the server could not save stops, and its spectators are cut off with `game_stopped` too (protocol
    section 9; rm33: so is one whose `leave` was in the step that failed). The spectator read "your seat is kept:
    this client takes it back", of a seat he never had (rm33). He is told that the client watches again, and it
    resumes his watch after 5 s (STOPPED_DELAYS), with his token, as a player's seat."""
    network = Network()
    stopped = Error("game_stopped", f"the server could not save the game of table {TABLE}", "server", False)
    async with client(network) as session:
        server = await network.server()
        await server.welcome()
        assert isinstance(await server.receive(), ListTables)
        session.spectate(TABLE)
        server = await network.server()
        await server.welcome()
        await server.receive()
        await server.send(Joined(TABLE, "token-s", None, 60))
        await server.send(Snapshot(TABLE, 3, seat_view(COMBAT, "B", table={"id": TABLE})))
        await server.send(stopped)
        await server.stream.aclose()
        cut_at = trio.current_time()
        await trio.sleep(1)
        lines = [line for line in session.state.log if "could not save" in line]
        assert lines == [stopped.message + " · this client watches again as soon as the server can save the game "
                         "again"]
        bar = message_bar(session.state, trio.current_time())[0][1]
        assert bar == "game stopped, the server cannot save it: watching again, attempt 1 in 4 s · `reconnect` " \
            "tries now", bar
        again = await network.server()
        hello = await again.welcome()
        assert hello.role == "spectator" and hello.resume == ResumeInfo("token-s", TABLE, 3)
        assert trio.current_time() - cut_at == 5


def test_the_delay_grows_from_half_a_second_to_five():
    assert [backoff(n) for n in range(1, 8)] == [0.5, 1, 2, 4, 5, 5, 5]


async def test_a_lost_seat_is_tried_again_for_its_grace_and_a_restarts_60_s_at_least(autojump_clock):
    """The seat is held for the grace `joined` announced (10 s here), and its countdown says so; a server that
    cannot be reached may be restarting, and a restarted server holds every seat RESTART_GRACE_SECONDS at least
    (protocol msg_lobby), so the attempts go on that long (a play-test's server had grace_seconds = 0: its clients
    tried once and gave up, saying the seat was held 0 s, while the restarted server held it 60 s), and past it
    while the server cannot be reached at all (next test), every 5 s."""
    network = Network()
    async with client(network) as session:
        await seated_then_cut(network, session, 10)
        lost_at = trio.current_time()  # mock time stands still while the client is cut off
        await trio.sleep(5.2)
        # The countdown: attempts 1 (at once), 2 (+0.5), 3 (+1.5), 4 (+3.5) failed; the 5th is at +7.5.
        assert message_bar(session.state, trio.current_time()) == [(
            "class:refusal", "connection lost (cannot reach the server: connection refused (is the server "
            "running?)): reconnecting, "
            "attempt 5 in 2 s; your seat is held 5 s more · `reconnect` tries now")]
        await trio.sleep(10)  # past the grace: the attempts go on, the countdown no longer speaks of the seat
        assert message_bar(session.state, trio.current_time())[0][1].endswith(
            "reconnecting, attempt 7 in 2 s · `reconnect` tries now")  # (the 7th at +17.5)
        await trio.sleep(60)
        # every 5 s after the fourth, a last one of the plan when the 60 s are up, then every 5 s again
        expected = [0, 0.5, 1.5, 3.5, *(7.5 + 5 * k for k in range(11)), 60, 65, 70, 75]
        assert [round(t - lost_at, 6) for t in network.attempts[1:]] == expected
        assert session.state.reconnecting is not None
        assert message_bar(session.state, trio.current_time())[0][1].endswith(
            "reconnecting, attempt 20 in 5 s · `reconnect` tries now"), "no seat countdown past the grace"


async def test_a_server_started_again_minutes_after_a_crash_gets_its_players_back(autojump_clock):
    """Play-test pt28: the host started a killed server again 71 s after the crash; every client had given up at
    60 s ("gave up after 16 attempts"), and the two players who did not type `reconnect` lost their game, abandoned
    by both, 60 s after the restart (a restarted server holds each seat RESTART_GRACE_SECONDS from its own start).
    While the server cannot be reached at all, the client tries on, every 5 s: here the server is back after
    10 minutes, and the seat is taken back by itself. The edge: an hour unreachable (UNREACHABLE_SECONDS), and the
    client gives up; `reconnect` then tries as long again."""
    from dungeon_twister.client.session import UNREACHABLE_SECONDS

    network = Network()
    async with client(network) as session:
        await seated_then_cut(network, session, 60)
        lost_at = trio.current_time()
        await trio.sleep(600)
        assert session.state.reconnecting is not None
        bar = message_bar(session.state, trio.current_time())[0][1]
        assert "reconnecting" in bar and "your seat is held" not in bar, bar
        assert 600 - 5 <= network.attempts[-1] - lost_at <= 600
        network.down = False
        second = await network.server()
        hello = await second.welcome()
        assert (hello.resume.token, hello.resume.table) == ("token-B", TABLE)
        await second.send(Joined(TABLE, "token-B2", "B", 60))
        await trio.testing.wait_all_tasks_blocked()
        assert session.state.notice == f"back at table {TABLE}" and session.state.reconnecting is None

        # the edge: an hour without an answer, then the client stops (`reconnect` tries again)
        network.down = True
        await second.stream.aclose()
        cut_at = trio.current_time()
        await trio.sleep(UNREACHABLE_SECONDS - 10)
        assert session.state.reconnecting is not None
        await trio.sleep(20)
        assert session.state.reconnecting is None
        assert "gave up after" in session.state.notice
        assert UNREACHABLE_SECONDS <= network.attempts[-1] - cut_at <= UNREACHABLE_SECONDS + 5
        attempts = len(network.attempts)
        await trio.sleep(600)
        assert len(network.attempts) == attempts, "nothing tried once given up"
        session.reconnect()
        await trio.sleep(UNREACHABLE_SECONDS - 10)
        assert session.state.reconnecting is not None, "`reconnect` tries for as long again"
        network.down = False
        hello = await (await network.server()).welcome()
        assert hello.resume.token == "token-B2"


async def test_a_client_started_while_the_server_is_down_tries_on_without_a_seat_countdown(autojump_clock,
                                                                                           tmp_path):
    """A client started again (its seat kept on disk) while the server is still down: it tries for the seat's grace
    with the countdown, then on while the server cannot be reached, and its bar no longer promises the seat for
    "5 s more" at each attempt (how long a restarted server holds it is not known: from its start, play-test
    pt28); the server back after 5 minutes, the seat is taken back."""
    network, seat_file = Network(), SeatFile(ADDRESS, "ann", tmp_path)
    seat_file.save(HeldSeat(TABLE, "B", "token-B", 60))
    network.down = True
    async with client(network, seat_file) as session:
        await trio.sleep(30)
        assert "your seat is held 30 s more" in message_bar(session.state, trio.current_time())[0][1]
        await trio.sleep(270)
        bar = message_bar(session.state, trio.current_time())[0][1]
        assert bar.startswith("taking your seat") or "reconnecting" in bar, bar
        assert "your seat is held" not in bar, bar
        network.down = False
        hello = await (await network.server()).welcome()
        assert (hello.resume.token, hello.resume.table) == ("token-B", TABLE)


async def test_no_clock_runs_on_the_panel_while_the_connection_is_lost(autojump_clock):
    """Play-test pt28 F4: with the server killed, every panel went on counting "time left: Yellow 1:19" down to
    0:15, and a restarted server runs no clock until both players are back, then starts it afresh (DT-090). The
    countdown goes with the connection; the edge: the `timer` the server sends after a resume shows it again."""
    from dungeon_twister.client.panel import game_panel
    from dungeon_twister.protocol import Timer

    def panel() -> str:
        return "".join(fragment[1] for fragment in game_panel(session.state, trio.current_time()))

    network = Network()
    async with client(network) as session:
        server = await network.server()
        await seat_with_grace(server, session, 60)
        to_act = session.state.view["to_act"][0]
        await server.send(Timer(TABLE, to_act, 100_000))
        await trio.testing.wait_all_tasks_blocked()
        assert "time left: " in panel()
        network.down = True
        await server.stream.aclose()
        await trio.sleep(10)
        assert session.state.timers == {} and "time left" not in panel()
        network.down = False
        second = await network.server()
        await second.welcome()
        await second.send(Joined(TABLE, "token-B", "B", 60))
        await second.send(Timer(TABLE, to_act, 90_000))
        await trio.testing.wait_all_tasks_blocked()
        assert "time left: " in panel() and ":30" in panel()


async def test_a_certificate_not_the_pinned_one_is_not_tried_again(autojump_clock):
    """Play-test: after the server's certificate changed, the client said "cannot reach the server: WARNING: ..."
    and tried again every few seconds for the whole grace, against a certificate it will never accept. The
    server is not out of reach: the warning alone is said, once, and nothing is tried until `reconnect`."""
    from dungeon_twister.client.tls import PinMismatch

    network = Network()
    async with client(network) as session:
        await seated_then_cut(network, session, 60)
        warning = "WARNING: fake:0 shows a certificate that is not the one pinned on first use: not connecting"
        network.connect_error = PinMismatch(warning)
        await trio.sleep(120)
        assert len(network.attempts) == 2, "the first connection and one attempt to resume"
        assert session.state.reconnecting is None
        # the warning whole in the bar (play-test pt23: its last words were cut, and they only said `reconnect`
        # tries again, which meets the same certificate); the log says when `reconnect` helps
        assert session.state.notice == warning
        assert list(session.state.log)[-1] == warning + " · once that is done, `reconnect` connects again"


async def test_the_seat_is_resumed_when_the_server_answers_again_within_the_grace(autojump_clock):
    network = Network()
    async with client(network) as session:
        await seated_then_cut(network, session, 60)
        await trio.sleep(30)
        network.down = False  # a drop of 30 s: 4 attempts would have given up after 3.5 s
        second = await network.server()
        hello = await second.welcome()
        assert (hello.resume.token, hello.resume.table) == ("token-B", TABLE)
        assert trio.current_time() - network.attempts[1] == 32.5, "attempts at +27.5, then +32.5"
        await second.send(Joined(TABLE, "token-B2", "B", 60))
        await trio.testing.wait_all_tasks_blocked()
        assert session.state.notice == f"back at table {TABLE}" and session.state.reconnecting is None


async def test_what_is_typed_while_reconnecting_is_said_not_sent_in_the_log(autojump_clock):
    """Play-test: with the server down, a move and a chat line typed vanished: the message bar shows the
    reconnection's countdown, not the "not connected" notice, and the player believed his move played. Each now
    leaves a line in the log, with what was typed; nothing is sent, nothing waits to be sent later."""
    network = Network()
    async with client(network) as session:
        await seated_then_cut(network, session, 60)
        await trio.sleep(1)
        assert session.state.reconnecting is not None
        session.act("combat +3")  # the combat's card, a secret choice (secret_choice.choose)
        session.chat("hello while down")  # a message (Session.send)
        assert list(session.state.log)[-2:] == [
            "not sent, the connection is lost: combat +3 · type it again once back",
            "not sent, the connection is lost: hello while down · type it again once back"]
        assert session.state.pending_actions == {} and session.state.secrets == {}
        assert message_bar(session.state, trio.current_time())[0][1].startswith("connection lost (")


@pytest.mark.parametrize("outage", [3, 300])
async def test_a_lobby_client_connects_again_by_itself_when_the_server_comes_back(autojump_clock, outage):
    """Play-test: the server was killed and started again; the players at tables came back by themselves, those in
    the lobby showed "not connected" until they typed `reconnect`. A lobby client now tries again as a seated one
    does, with the countdown, for as long (a fresh hello: it has no seat to resume), and lists the tables again.
    Play-test pt28: the lobby's client (gus) gave up 60 s after the server was killed, as the seated ones did; the
    server came back 71 s after the crash. It now tries on while the server cannot be reached (every 5 s), and is
    back in the lobby by itself 5 minutes later too."""
    network = Network()
    async with client(network) as session:
        first = await network.server()
        await first.welcome()
        assert isinstance(await first.receive(), ListTables)
        network.down = True
        await first.stream.aclose()
        await trio.sleep(outage)
        assert session.state.reconnecting is not None and not session.state.connected
        if outage == 3:
            assert message_bar(session.state, trio.current_time())[0][1].startswith("connection lost (")
        network.down = False  # the server is back
        second = await network.server()
        hello = await second.welcome()
        assert hello.resume is None and hello.name == "ann"
        assert isinstance(await second.receive(), ListTables)
        await trio.testing.wait_all_tasks_blocked()
        assert session.state.connected and session.state.reconnecting is None


async def test_reconnect_tries_at_once_instead_of_waiting(autojump_clock):
    network = Network()
    async with client(network) as session:
        await seated_then_cut(network, session, 60)
        await trio.sleep(2)  # attempts at +0, +0.5, +1.5; the next one would be at +3.5
        network.down = False
        session.reconnect()
        second = await network.server()
        await second.welcome()
        assert network.attempts[-1] - network.attempts[1] == 2


async def test_reconnect_after_giving_up_tries_for_a_whole_grace_again(autojump_clock):
    from dungeon_twister.client.session import UNREACHABLE_SECONDS

    network = Network()
    async with client(network) as session:
        await seated_then_cut(network, session, 3)
        await trio.sleep(UNREACHABLE_SECONDS + 10)  # (a server out of reach is tried that long: tests above)
        assert session.state.reconnecting is None
        network.down = False
        session.reconnect()
        hello = await (await network.server()).welcome()
        assert hello.resume.token == "token-B"


async def test_a_role_switch_refused_while_the_old_connection_holds_the_name_is_tried_again(autojump_clock):
    network = Network()
    async with client(network) as session:
        server = await network.server()
        await server.welcome()
        await server.receive()
        session.spectate("t-3")
        for _ in range(2):  # the server has not let go of the name of the player connection yet
            refusing = await network.server()
            await refusing.receive()
            await refusing.send(Refused("name_taken", "the name is in use"))
            await refusing.stream.aclose()
        hello = await (await network.server()).welcome()
        assert hello.role == "spectator"
        assert [round(t - network.attempts[1], 6) for t in network.attempts[1:]] == [0, 0.5, 1.5]


async def test_a_resume_refused_name_taken_stops_another_connection_has_the_seat(autojump_clock, tmp_path):
    """A valid token takes the name over, so name_taken on a resume means our token is stale: the user started
    the client again and the new one took the seat over. This one stops, and leaves the seat file alone."""
    network, seat_file = Network(), SeatFile(ADDRESS, "ann", tmp_path)
    async with client(network, seat_file) as session:
        server = await network.server()
        await seat_with_grace(server, session, 60)
        seat_file.save(HeldSeat(TABLE, "B", "token-of-the-new-client", 60))
        await server.stream.aclose()
        refusing = await network.server()
        assert (await refusing.receive()).resume.token == "token-B"
        await refusing.send(Refused("name_taken", "the name is in use"))
        await refusing.stream.aclose()
        await stopped_for_the_other_copy(session, network, 2, seat_file, "token-of-the-new-client")


async def stopped_for_the_other_copy(session: Session, network: Network, attempts: int, seat_file: SeatFile,
                                     token: str) -> None:
    """Two minutes on, the client has made no attempt after the `attempts` made, left the table, says why, and
    left the seat file (holding `token`) to the copy that has the seat."""
    await trio.sleep(120)
    assert len(network.attempts) == attempts, "no more attempts"
    assert session.state.table is None and session.state.reconnecting is None
    assert session.state.notice.startswith("another connection has taken your seat under the name ann")
    assert seat_file.load().token == token


async def test_a_connection_closed_resumed_elsewhere_stops_and_does_not_take_the_seat_back(autojump_clock, tmp_path):
    """Two copies of dt-client on one seat file took the seat from each other every few seconds: each resume
    closed the other's connection without a word, which resumed in turn. The server now says `resumed_elsewhere`
    as it closes the old one (protocol section 9): this one stops, tries no more, and leaves the seat file to the
    copy that has the seat."""
    network, seat_file = Network(), SeatFile(ADDRESS, "ann", tmp_path)
    async with client(network, seat_file) as session:
        server = await network.server()
        await seat_with_grace(server, session, 60)
        seat_file.save(HeldSeat(TABLE, "B", "token-B", 60))
        await server.send(Error("resumed_elsewhere", "another connection resumed your seat (or your name) with its "
                                "token: this one is closed", "server", True))
        await server.stream.aclose()
        await stopped_for_the_other_copy(session, network, 1, seat_file, "token-B")  # (not one attempt)


async def test_a_stopped_game_is_said_once_and_the_seat_taken_back_as_soon_as_the_server_can_save(autojump_clock,
                                                                                                  tmp_path):
    """A table whose step the store could not save stops (its disk full, its PostgreSQL gone): the server says
    `game_stopped` to its players as it cuts them off, and again to a resume while its store still fails, the
    token staying valid; the first resume once the store answers brings the table back (protocol section 9). The
    client showed "reconnecting, attempt 8" on an open connection until the seat's grace ran out and gave the seat
    up (review rv24); then it waited for `reconnect`, which on the lobby connection the resume's answer leaves
    open said "connected: nothing to do". Now it says the server's sentence once, shows that the seat is kept,
    and resumes after 5, 10, 20 s, then every 30 s (STOPPED_DELAYS), from the last event it saw; `reconnect`
    cuts a wait short. A table revived for a resume may stop again at once (found by hand: the server's sentence
    in the log every 5 s): a row of stops ends only after STOPPED_ROW_SECONDS without one."""
    network, seat_file = Network(), SeatFile(ADDRESS, "ann", tmp_path)
    stopped = Error("game_stopped", f"the server could not save the game of table {TABLE} (its disk may be full): "
                    "the game is stopped until the server can save it again (a reconnection then brings it back, as a restart of the server does)",
                    "server", False)
    async with client(network, seat_file) as session:
        server = await network.server()
        await seat_with_grace(server, session, 60)
        await server.send(TableEvent(TABLE, 1, {"type": "turn_started", "player": "B", "turn": 3}))
        await server.send(stopped)
        await server.stream.aclose()
        cut_at = trio.current_time()
        answers = []
        for delay in (5, 10, 20, 30, 30):
            again = await network.server()
            assert trio.current_time() - cut_at == delay
            assert (await again.welcome()).resume == ResumeInfo("token-B", TABLE, 1)
            bar = message_bar(session.state, trio.current_time())[0][1]
            assert bar.startswith("game stopped, the server cannot save it: your seat is kept; taking it back, "
                                  f"attempt {len(answers) + 1}..."), bar
            await again.send(stopped)  # the resume's answer: the connection would stay, in the lobby
            await trio.testing.wait_all_tasks_blocked()
            assert await again.stream.receive_some() == b"", "the client closes it: the next resume needs a hello"
            answers.append(again)
            cut_at = trio.current_time()
        assert len(network.attempts) == 6
        stopped_lines = [line for line in session.state.log if "could not save" in line]
        assert stopped_lines == [stopped.message + " · your seat is kept: this client takes it back as soon as the "
                                 "server can save the game again"], "said once"
        assert seat_file.load().token == "token-B" and session.state.table == TABLE
        bar = message_bar(session.state, trio.current_time() + 1)[0][1]
        assert "attempt 6 in 29 s" in bar, bar
        await trio.sleep(1)
        session.reconnect()  # cuts the 30 s short
        back = await network.server()
        assert trio.current_time() - cut_at == 1
        assert (await back.welcome()).resume == ResumeInfo("token-B", TABLE, 1)
        await back.send(Joined(TABLE, "token-B", "B", 60))  # the store answers: the table revived
        await back.send(Snapshot(TABLE, 1, seat_view(COMBAT, "B", table={"id": TABLE})))
        await trio.testing.wait_all_tasks_blocked()
        assert session.state.reconnecting is None and session.state.table == TABLE
        await back.send(stopped)  # the revived table stops again at its first step (the disk still full)
        await back.stream.aclose()
        cut_at = trio.current_time()
        revived = await network.server()
        assert trio.current_time() - cut_at == 30, "the same row: not 5 s again"
        assert len([line for line in session.state.log if "could not save" in line]) == 1, "nor said again"
        await revived.welcome()
        await revived.send(Joined(TABLE, "token-B", "B", 60))
        await revived.send(Snapshot(TABLE, 1, seat_view(COMBAT, "B", table={"id": TABLE})))
        went_on = trio.current_time()
        while trio.current_time() - went_on <= STOPPED_ROW_SECONDS:  # the game goes on (pings answered)
            ping = await revived.receive()
            await revived.send(Pong(ping.id))
        await revived.send(stopped)  # stopped again much later: a new row, said again, 5 s first
        await revived.stream.aclose()
        cut_at = trio.current_time()
        await network.server()
        assert trio.current_time() - cut_at == 5
        assert len([line for line in session.state.log if "could not save" in line]) == 2


async def test_a_silent_server_is_pinged_then_given_up_on_and_the_seat_resumed(autojump_clock):
    network = Network()
    async with client(network) as session:
        server = await network.server()
        await seat_with_grace(server, session, 60)
        quiet_since = trio.current_time()
        ping = await server.receive()  # the network went away without a word: nothing more arrives
        assert isinstance(ping, Ping) and trio.current_time() - quiet_since == SILENCE_SECONDS
        second = await network.server()
        assert trio.current_time() - quiet_since == SILENCE_SECONDS + PROBE_SECONDS
        assert (await second.welcome()).resume.token == "token-B"


async def test_a_server_that_answers_the_ping_is_kept(autojump_clock):
    network = Network()
    async with client(network) as session:
        server = await network.server()
        await seat_with_grace(server, session, 60)
        for _ in range(3):
            answered_at = trio.current_time()
            ping = await server.receive()
            assert isinstance(ping, Ping) and trio.current_time() - answered_at == SILENCE_SECONDS
            await server.send(Pong(ping.id))
        assert len(network.attempts) == 1 and session.state.connected


async def test_a_new_process_takes_the_kept_seat_back_and_checks_the_opponents_reveal(autojump_clock, tmp_path):
    """Crash after our reveal, before the opponent's: the restarted client verifies the opponent's reveal
    against the commitment it kept on disk (without it, an honest reveal would look like cheating)."""
    network, seat_file = Network(), SeatFile(ADDRESS, "ann", tmp_path)
    async with client(network, seat_file) as first:
        server = await network.server()
        await seat_with_grace(server, first, 60)
        first.act("combat +2")
        commit = await server.receive()
        opponent = PlayerCommitments(TABLE, "Y")
        opponent.opponent_committed("combat-1", commit.commitment)
        await server.send(OpponentCommit(TABLE, "combat-1", "Y", opponent.commit("combat-1", "combat +4")))
        reveal = await server.receive()
        assert isinstance(reveal, Reveal)
    kept = seat_file.load()
    assert (kept.token, kept.grace_seconds, kept.secrets["combat-1"].choice) == ("token-B", 60, "combat +2")

    async with client(network, seat_file) as second:
        assert (second.state.table, second.state.seat) == (TABLE, "B"), "the game screen from the start"
        server = await network.server()
        hello = await server.welcome()
        assert (hello.name, hello.resume.token, hello.resume.table, hello.resume.last_event) == (
            "ann", "token-B", TABLE, 0)
        await server.send(Joined(TABLE, "token-B3", "B", 60))
        # (the server's snapshot names the seats committed, both: nothing to send again)
        await server.send(Snapshot(TABLE, 5, seat_view(COMBAT, "B", table={"id": TABLE, "committed": ["B", "Y"]})))
        choice, nonce = opponent.reveal("combat-1")
        await server.send(OpponentReveal(TABLE, "combat-1", "Y", choice, nonce))
        second.chat("gg")
        assert await server.receive() == Chat("gg"), "no commit sent again: the server had both"
        assert second.state.alert is None
        assert second.state.secrets["combat-1"].opponent_choice == "combat +4"
        assert seat_file.load().token == "token-B3"


async def test_a_new_process_reveals_after_a_crash_right_after_committing(autojump_clock, tmp_path):
    network, seat_file = Network(), SeatFile(ADDRESS, "ann", tmp_path)
    async with client(network, seat_file) as first:
        server = await network.server()
        await seat_with_grace(server, first, 60)
        first.act("combat 5")
        commit = await server.receive()
    async with client(network, seat_file):
        server = await network.server()
        await server.welcome()
        await server.send(Joined(TABLE, "token-B3", "B", 60))
        assert await server.receive() == commit, "the same commitment again (the first may not have arrived)"
        opponent = PlayerCommitments(TABLE, "Y")
        await server.send(OpponentCommit(TABLE, "combat-1", "Y", opponent.commit("combat-1", "combat +0")))
        reveal = await server.receive()
        assert reveal.choice == "combat +5"
        assert verify(commit.commitment, TABLE, "B", "combat-1", reveal.choice, reveal.nonce)


async def test_the_kept_seat_is_forgotten_when_the_game_ends_or_the_player_leaves(autojump_clock, tmp_path):
    network, seat_file = Network(), SeatFile(ADDRESS, "ann", tmp_path)
    async with client(network, seat_file) as session:
        server = await network.server()
        await seat_with_grace(server, session, 60)
        assert seat_file.load() is not None
        await server.send(GameOver(TABLE, {"winner": "Y", "vp": {"B": 1, "Y": 5}, "reason": "vp"}))
        await trio.testing.wait_all_tasks_blocked()
        assert seat_file.load() is None and session.token is None
        session.leave()
        await server.receive()
        await server.send(Left(TABLE))
        await trio.testing.wait_all_tasks_blocked()
        assert session.state.table is None

        session.join("t-2", "Y")
        await server.receive()
        await server.send(Joined("t-2", "token-Y", "Y", 60))
        await trio.testing.wait_all_tasks_blocked()
        assert seat_file.load().table == "t-2"
        session.leave()
        await server.receive()
        await server.send(Left("t-2"))
        await trio.testing.wait_all_tasks_blocked()
        assert seat_file.load() is None


async def test_a_refused_token_sends_the_player_to_the_lobby_and_forgets_it(autojump_clock, tmp_path):
    network, seat_file = Network(), SeatFile(ADDRESS, "ann", tmp_path)
    seat_file.save(HeldSeat(TABLE, "B", "expired", 60))
    async with client(network, seat_file) as session:
        server = await network.server()
        hello = await server.welcome()
        assert hello.resume.token == "expired"
        await server.stream.send_all(server.connection.send_error(ProtocolError("bad_token", "unknown token")))
        assert isinstance(await server.receive(), ListTables)
        assert session.state.table is None and seat_file.load() is None
        # a play-test read only the server's "unknown or expired" token: what it means for the seat is said
        assert session.state.notice == (f"your seat at {TABLE} was given up while you were away (the server holds "
                                        "a seat 60 s): you are back in the lobby")


async def test_a_seat_refused_within_its_grace_is_not_said_to_be_given_up_for_lateness(autojump_clock, tmp_path):
    """Play-test 20b restored the server's data from a copy taken before a table was made: its players, away 8 s,
    read "your seat ... was given up while you were away (the server holds a seat 60 s)". A token refused while
    this process knows it was away less than the grace says what that means; a seat kept by an earlier run (how
    long it was away is not known) keeps the general sentence (test above)."""
    network, seat_file = Network(), SeatFile(ADDRESS, "ann", tmp_path)
    async with client(network, seat_file) as session:
        await seated_then_cut(network, session, 60)
        await trio.sleep(8)
        network.down = False
        second = await network.server()
        assert (await second.welcome()).resume.token == "token-B"
        await second.stream.send_all(second.connection.send_error(ProtocolError("bad_token", "unknown token")))
        assert isinstance(await second.receive(), ListTables)
        assert session.state.table is None and seat_file.load() is None and session.token is None
        # the attempts at +0, +0.5, +1.5, +3.5 and +7.5 failed while the network was down; the one at +12.5 got in
        assert network.attempts[-1] - network.attempts[1] == 12.5
        told = (f"the server no longer knows your seat at {TABLE}, though you were away 12 s and it holds a seat 60 "
                "s: it may have restarted from an earlier copy of its data. You are back in the lobby")
        assert session.state.notice == told
        # the key then takes back the seat that copy holds for the name (play-test pt23): that table's log starts
        # with why the other seat is gone
        await second.send(Joined("t2-f06e6dfd", "token-t2", "B"))
        await trio.testing.wait_all_tasks_blocked()
        assert session.state.table == "t2-f06e6dfd" and list(session.state.log)[:2] == [
            told, "your key took you back to table t2-f06e6dfd: that copy of the server's data has you seated there"]
        assert session.state.carried == ""


async def test_a_finished_games_screen_connects_again_by_itself_and_stays_until_leave(autojump_clock):
    """Play-test: players stayed on a finished game's screen; the server restarted; after `reconnect` the client
    still thought itself at the table: `create` said "leave it first", and `leave` was refused by the server
    ("not allowed in state lobby"). Play-test pt22 F9: players and a spectator at finished tables stayed
    "disconnected: closed by the server" while the lobby's clients came back by themselves. A finished game's
    screen connects again as the lobby does; the new connection is in the server's lobby, the final board stays
    to be read, and `leave` leaves it here, without asking the server."""
    network = Network()
    async with client(network) as session:
        server = await network.server()
        await seat_with_grace(server, session, 60)
        await server.send(GameOver(TABLE, {"winner": "Y", "vp": {"B": 1, "Y": 5}, "reason": "resigned"}))
        await trio.testing.wait_all_tasks_blocked()
        await server.stream.aclose()  # the server restarts: the game over, nothing to resume
        await trio.testing.wait_all_tasks_blocked()
        assert session.state.table == TABLE and session.state.reconnecting is not None, "it connects again"
        server = await network.server()  # (by itself: no `reconnect` typed)
        hello = await server.welcome()
        assert hello.resume is None
        assert isinstance(await server.receive(), ListTables)
        await server.send(Tables(()))
        assert session.state.table == TABLE and session.state.table_gone, "the final board stays"
        assert session.state.rematch_asked is None, "no rematch waited for any more (rm32b)"
        assert session.state.reconnecting is None
        session.leave()  # here alone: the server has us in its lobby already
        assert session.state.table is None and not session.state.at_table and not session.state.table_gone
        assert isinstance(await server.receive(), ListTables)
        session.create_table(TableOptions(), TableSetup(seat="B"))
        assert await server.receive() == CreateTable(TableOptions())


async def test_a_stopped_game_at_a_finished_table_is_said_and_the_lobby_connected_again(autojump_clock):
    """rm32b, by hand: the server could not save a step of a finished table (a rematch accepted, an offer
    declined) and cut its players off with `game_stopped`; the client, whose seat ended with the game (no token),
    planned a resume with no token, and dt-client crashed making its hello. Now it says the server's sentence
    and connects again as any finished game's screen does: to the lobby, no resume, the final board kept."""
    network = Network()
    stopped = Error("game_stopped", f"the server could not save the game of table {TABLE} (its disk may be full): "
                    "the game is stopped until the server can save it again", "server", False)
    async with client(network) as session:
        server = await network.server()
        await seat_with_grace(server, session, 60)
        await server.send(GameOver(TABLE, {"winner": None, "vp": {"B": 0, "Y": 0}, "reason": "agreed"}))
        await trio.testing.wait_all_tasks_blocked()
        session.state.rematch_asked = TABLE  # (our rematch asked: its step is the one not saved)
        await server.send(stopped)
        await server.stream.aclose()
        await trio.testing.wait_all_tasks_blocked()
        assert session.state.reconnecting is not None, "it connects again"
        server = await network.server()  # (by itself)
        assert (await server.welcome()).resume is None
        assert isinstance(await server.receive(), ListTables)
        assert stopped.message in session.state.log, "the server's sentence said"
        assert session.state.table == TABLE and session.state.table_gone, "the final board stays"
        assert session.state.rematch_asked is None, "no rematch waited for any more (rm32b)"


def test_why_a_connection_failed_in_the_readers_words():
    """A play-test's French reconnect line read "impossible de joindre le serveur : all attempts to connect to
    127.0.0.1:7801 failed" (trio's words): the common causes are the client's own sentences, translated."""
    import socket

    from dungeon_twister.client.network import connect_error_text

    trio_failed = OSError("all attempts to connect to 127.0.0.1:7801 failed")
    trio_failed.__cause__ = ExceptionGroup("all attempts", [ConnectionRefusedError(errno.ECONNREFUSED, "refused")])
    assert connect_error_text(trio_failed) == "connection refused (is the server running?)"
    assert connect_error_text(socket.gaierror(-2, "Name or service not known")) == "no such host name"
    assert connect_error_text(OSError(errno.EHOSTUNREACH, "No route to host")) == (
        "the server's address cannot be reached")
    assert connect_error_text(OSError(errno.EMFILE, "Too many open files")) == "Too many open files"


BAD_PROOF = Error("bad_proof", "the signature does not prove the hello's key", "client", True,
                  template="the signature does not prove the hello's key")


async def test_a_refused_key_proof_is_given_up_not_retried_at_once(autojump_clock):
    """Review rv25: a connection that ended with a fatal error right after its welcome was planned again at once,
    attempt 0: a server refusing the key's proof (behind a proxy that re-encrypts TLS, say) took 300 connections a
    second from one client, whose screen showed a working lobby. A refused proof is given up, said with the
    server's words; the edge: `reconnect` still tries."""
    network = Network()
    async with client(network) as session:
        server = await network.server()
        await server.welcome()
        await server.send(BAD_PROOF)
        await server.stream.aclose()
        await trio.sleep(120)
        assert len(network.attempts) == 1, "not again by itself"
        assert session.state.notice == ("the signature does not prove the hello's key · not connecting again by "
                                        "itself: `reconnect` tries again")
        session.reconnect()
        await network.server()
        assert len(network.attempts) == 2


async def test_connections_that_end_right_after_their_welcome_are_tried_again_after_a_growing_delay(autojump_clock):
    """Review rv25: any fatal error right after a welcome made the client connect again at once, again and again.
    A connection that ends within QUICK_END of opening counts as a failed attempt: the next waits 0.5, 1, 2, 4, then
    5 s, and the attempts stop with the plan's time (retry_seconds); the edge: one that lasted is tried at once."""
    network = Network()
    async with client(network):
        first = await network.server()
        await first.welcome()
        await trio.sleep(QUICK_END + 1)  # a connection that lasted, then dropped: at once
        await first.stream.aclose()
        dropped_at = trio.current_time()
        for _ in range(6):
            server = await network.server()
            await server.welcome()
            await server.send(Error("bad_msgpack", "not msgpack", "client", True))
            await server.stream.aclose()
        starts = [at - dropped_at for at in network.attempts[1:]]
        assert starts[0] == 0, "the one that lasted: at once"
        assert [round(b - a, 1) for a, b in zip(starts, starts[1:])] == [backoff(n) for n in range(1, 6)]


async def test_a_connection_closed_without_a_word_right_after_its_welcome_is_tried_again_after_a_delay(
        autojump_clock):
    """Play-test ad29: on a server whose disk was full, a new name's binding could not be stored, and the server
    closed each connection right after its welcome ("storage failed") without an error; the client, counting only
    fatal errors as failed attempts, connected again at once, 64 times a second, its screen a quiet lobby. Such a
    connection is a failed attempt too: 0.5, 1, 2, 4, then 5 s. The edge: one that the server answered (the tables
    listed) and then closed, however soon, is tried again at once."""
    network = Network()
    async with client(network):
        first = await network.server()
        await first.welcome()
        await first.send(Tables([]))
        await first.stream.aclose()
        dropped_at = trio.current_time()
        for _ in range(6):
            server = await network.server()
            await server.welcome()
            await server.stream.aclose()
        starts = [at - dropped_at for at in network.attempts[1:]]
        assert starts[0] == 0, "the one the server answered: at once"
        assert [round(b - a, 1) for a, b in zip(starts, starts[1:])] == [backoff(n) for n in range(1, 6)]


async def test_a_proof_refused_over_plain_tcp_as_tls_only_has_tls_tried_next(autojump_clock):
    """Section 18: a server with TLS takes no key proof over plain TCP. A client that found the address plain
    earlier in its run (the server turned TLS on since) forgets that, so that the next connection tries TLS
    (review rv25 F1: it kept connecting in plain and was refused each time)."""
    network = Network()
    forgotten = []

    async def connect(host, port):
        return await network.connect(host, port)

    connect.forget_plain = lambda host, port: forgotten.append((host, port))
    session = Session(ClientState("ann"), clock=trio.current_time)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(run_network, session, "fake", 0, connect)
        server = await network.server()
        await server.welcome()
        await server.send(Error("bad_proof", "this server takes key proofs over TLS only (dt-client connects with TLS "
                                "when the server offers it)", "client", True, template="this server takes key proofs "
                                "over TLS only (dt-client connects with TLS when the server offers it)"))
        await server.stream.aclose()
        await network.server()
        assert forgotten == [("fake", 0)] and len(network.attempts) == 2
        nursery.cancel_scope.cancel()


async def test_leave_while_the_game_is_stopped_gives_the_seat_up_here(autojump_clock, tmp_path):
    """Review rv25: while a game the server could not save waits to be taken back, no connection is open between
    the resumes, so `leave` said "not connected", and a table the server could never bring back kept its player
    resuming every 30 s for good, also after a restart (the seat file). `leave` then gives the seat up here: the
    seat file goes, the next connection is the lobby's, not the resume the client was waiting to make."""
    network, seat_file = Network(), SeatFile(ADDRESS, "ann", tmp_path)
    stopped = Error("game_stopped", "the server could not save the game", "server", False)
    async with client(network, seat_file) as session:
        server = await network.server()
        await seat_with_grace(server, session, 60)
        await server.send(stopped)
        await server.stream.aclose()
        await trio.sleep(1)  # (the resume is planned in 5 s)
        session.leave()
        assert session.state.table is None and seat_file.load() is None
        assert session.state.notice.startswith(f"left table {TABLE}: your seat there is given up")
        lobby = await network.server()
        assert (await lobby.welcome()).resume is None, "a lobby connection, not the resume"


async def test_a_resume_refused_server_full_is_tried_again_saying_the_server_is_full(autojump_clock):
    """A full server is tried again, and the countdown says so: it said "the server still knows our old
    connection", the reason of a name_taken (play-test pt26 F1)."""
    network = Network()
    async with client(network) as session:
        server = await network.server()
        await seat_with_grace(server, session, 60)
        await server.stream.aclose()
        refusing = await network.server()
        assert (await refusing.receive()).resume.token == "token-B"
        await refusing.send(Refused("server_full", "the server accepts no more connections",
                                    "the server accepts no more connections"))
        await refusing.stream.aclose()
        await trio.sleep(0.1)
        assert session.state.reconnecting.reason == ("the server refused us: the server accepts no more connections "
                                                     "(server_full)")
        hello = await (await network.server()).welcome()
        assert hello.resume.token == "token-B"


async def test_a_resume_refused_for_the_key_says_so_and_is_not_taken_for_another_copy(autojump_clock, tmp_path):
    """A resume refused name_taken because the name belongs to another key (an upgrade that folded `Bob` and
    `bob` into one name kept the other's key, docs/protocol.md section 18) is not another copy of this client that
    took the seat over: the user reads the server's reason (play-test pt26)."""
    network, seat_file = Network(), SeatFile(ADDRESS, "ann", tmp_path)
    async with client(network, seat_file) as session:
        server = await network.server()
        await seat_with_grace(server, session, 60)
        await server.stream.aclose()
        refusing = await network.server()
        assert (await refusing.receive()).resume.token == "token-B"
        await refusing.send(Refused("name_taken", "the name 'ann' belongs to another key on this server",
                                    "the name {name} belongs to another key on this server", {"name": "'ann'"}))
        await refusing.stream.aclose()
        await trio.sleep(120)
        assert len(network.attempts) == 2, "no more attempts"
        assert session.state.table is None and session.state.reconnecting is None
        assert session.state.notice.startswith("the server refused us: the name 'ann' belongs to another key on "
                                               "this server (name_taken)")
