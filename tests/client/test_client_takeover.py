"""End to end against the real server (in-process, TCP): a client whose connection went half-open, or that
crashed, is started again from its seat file and takes its seat back, at every step of a commit-reveal round.

The first client "crashes": its network task is cancelled while its connection is dead in a chosen direction
(the socket stays open on the server's side: never closed, never read). The second client is a fresh Session
that knows only the seat file, as a new process would.
"""

from __future__ import annotations

import stat
from collections.abc import Callable
from contextlib import asynccontextmanager

import pytest
import trio

from dungeon_twister.protocol import TableOptions
from dungeon_twister.client.held import SeatFile
from dungeon_twister.client.network import run_network
from dungeon_twister.client.session import Session
from dungeon_twister.client.state import ClientState, TableSetup

from tests.server.test_server_support import REAL_TIME_HANG_GUARD, running_server



class Network(trio.abc.Stream):
    """A TCP connection through a network that can fail without a word: `dead_out` loses what we send,
    `dead_in` what the server sends. Closing a dead connection does not reach the server either."""

    def __init__(self, stream: trio.abc.Stream) -> None:
        self.stream = stream
        self.dead_in = self.dead_out = False

    def go_dead(self) -> None:
        self.dead_in = self.dead_out = True

    async def send_all(self, data) -> None:
        if not self.dead_out:
            await self.stream.send_all(data)

    async def wait_send_all_might_not_block(self) -> None:
        await self.stream.wait_send_all_might_not_block()

    async def receive_some(self, max_bytes=None) -> bytes:
        if not self.dead_in:
            data = await self.stream.receive_some(max_bytes)
            if not self.dead_in:
                return data
        await trio.sleep_forever()

    async def aclose(self) -> None:
        if not (self.dead_in or self.dead_out):
            await self.stream.aclose()


class Machine:
    """Where a client runs: its seat files, and the connections it opened (closed for real at the end)."""

    def __init__(self, server, directory) -> None:
        self.server, self.directory = server, directory
        self.address = f"127.0.0.1:{server.port}"
        self.networks: list[Network] = []

    async def connect(self, host: str, port: int) -> Network:
        network = Network(await trio.open_tcp_stream(host, port))
        self.networks.append(network)
        return network

    def seat_file(self, name: str = "alice") -> SeatFile:
        return SeatFile(self.address, name, self.directory)

    @asynccontextmanager
    async def client(self, name: str = "alice"):
        """A client process: a Session with its network task; leaving the block kills it (no goodbye)."""
        session = Session(ClientState(name), seat_file=self.seat_file(name))
        session.said = said = []  # every notice shown, in order
        say = session.state.say
        session.state.say = lambda text: (said.append(text), say(text))[-1]
        async with trio.open_nursery() as nursery:
            nursery.start_soon(run_network, session, "127.0.0.1", self.server.port, self.connect)
            try:
                yield session
            finally:
                nursery.cancel_scope.cancel()

    async def close(self) -> None:
        for network in self.networks:
            await network.stream.aclose()


async def until(condition: Callable[[], object]) -> None:
    while not condition():
        await trio.sleep(0.005)


@asynccontextmanager
async def machine(tmp_path):
    with trio.fail_after(REAL_TIME_HANG_GUARD):
        async with running_server() as server:
            here = Machine(server, tmp_path)
            try:
                yield here
            finally:
                await here.close()


async def start_game(session: Session) -> str:
    """Create a table, sit in B with a greedy bot in Y; the table id once our secret team choice is pending."""
    await until(lambda: session.state.connected)
    session.create_table(TableOptions(), TableSetup(seat="B", bot="greedy"))
    await until(lambda: session.state.secret_purpose == "team" and session.state.legal)
    return session.state.table


def table_of(server, table: str):
    return server.lobby.tables[table]


async def test_a_half_open_client_restarted_from_its_seat_file_takes_the_seat_over_and_plays_on(tmp_path):
    async with machine(tmp_path) as here:
        async with here.client() as first:
            table = await start_game(first)
            first_token = first.token
            here.networks[-1].go_dead()  # half-open: the server still sees the connection
        # The first process is gone; its seat file is all that is left, readable by the user only.
        seat_file = here.seat_file()
        assert stat.S_IMODE(seat_file.path.stat().st_mode) == 0o600
        assert seat_file.load().token == first_token
        old_session = table_of(here.server, table).seating.seats["B"].session
        assert old_session is not None, "the server has not noticed anything"

        async with here.client() as second:
            await until(lambda: second.state.secret_purpose == "team" and second.state.legal)  # the latest view
            assert (second.state.table, second.state.seat) == (table, "B")
            # (unless the bot's team commitment came after the first process died: its view, replayed, then tells
            # the returning player that Yellow has chosen, which he must know more than that he is back)
            assert second.state.notice in (f"back at table {table}",
                                           "Yellow has made his secret choice (the starting team); make yours")
            seats = table_of(here.server, table).seating.seats
            assert seats["B"].session is not old_session, "the new connection has the seat"
            assert here.server.lobby.names["alice"] is seats["B"].session
            assert seat_file.load().token == second.token == first_token, "the token stays valid across resumes (DT-052)"

            # And the game goes on: the secret team choice, then the hiding phase.
            second.act(second.state.legal[0])
            await until(lambda: second.state.view.get("phase") == "hide")
            assert second.state.alert is None


@pytest.mark.parametrize("step", ["commit_lost", "commit_arrived", "reveal_lost", "round_over"])
async def test_a_crash_at_each_step_of_a_commit_reveal_round_is_survived(tmp_path, step):
    """The team choice (protocol section 10) with a crash: before the commitment reaches the server; after it
    did but before the opponent's commitment reached us; after that but before our reveal reached the server;
    after the round. The restarted client reveals the choice it committed to, from its seat file, and keeps the
    opponent's commitment until his reveal comes: only once the teams are revealed, after the hidden placement
    (BG-SETUP-06), when it must open the commitment kept (a client that had forgotten it cried cheating)."""
    async with machine(tmp_path) as here:
        async with here.client() as first:
            table = await start_game(first)
            rounds = table_of(here.server, table).play.rounds
            network = here.networks[-1]
            choice = first.state.legal[0]
            if step == "commit_lost":
                network.go_dead()
            elif step == "commit_arrived":
                network.dead_in = True
            elif step == "reveal_lost":
                keep = first.keep_opponent_commitment

                def lose_what_follows(purpose, commitment):
                    keep(purpose, commitment)
                    network.go_dead()  # the reveal is written after this: it is lost
                first.keep_opponent_commitment = lose_what_follows
            first.act(choice)
            kept = here.seat_file().load()
            assert kept.secrets["team"].choice == choice, "kept before the commitment was sent"
            if step == "commit_arrived":
                await until(lambda: rounds.committed("team") == {"B", "Y"})
            elif step == "reveal_lost":
                await until(lambda: network.dead_out)
                assert here.seat_file().load().secrets["team"].opponent_commitment is not None
            elif step == "round_over":
                await until(lambda: first.state.view.get("phase") == "hide")
            assert "B" not in rounds.opened("team") or step == "round_over"

        async with here.client() as second:
            await until(lambda: (second.state.view or {}).get("phase") == "hide")
            assert f"back at table {table}" in second.said
            assert not [notice for notice in second.said if "commit_twice" in notice or "cannot" in notice]
            held = here.seat_file().load().secrets
            assert list(held) == ["team"] and held["team"].opponent_commitment is not None, \
                "the opponent's reveal is still to come: his commitment is kept"
            for _ in range(30):  # our hides (10) in turn with the bot's, until the teams are revealed
                view = second.state.view or {}
                if view.get("phase") != "hide":
                    break
                if view.get("legal"):
                    second.act(view["legal"][0])
                await until(lambda seen=view: second.state.view is not seen)
            await until(lambda: here.seat_file().load().secrets == {})  # the round is over once he revealed
            assert second.state.view["phase"] != "hide" and second.state.alert is None, \
                "the opponent's reveal opened the commitment we kept"
        lines = [line for line, _ in here.server.lobby.store.table(table).journal]
        assert len([line for line in lines if line.startswith("# commit B team ")]) == 1
        nonce = kept.secrets["team"].nonce.hex()
        assert [line for line in lines if line.startswith("# reveal B team ")] == [f"# reveal B team {nonce} {choice}"]


async def test_a_client_restarted_after_a_crash_keeps_its_log_and_is_told_what_it_missed(tmp_path, monkeypatch):
    """A client that crashed in the main phase: the opponent (a bot) played a whole turn while it was gone. The new
    process resumed from a snapshot (`last_event` 0) before: the board was right, but the log was empty and the
    bot's moves were nowhere. Now it carries on from its progress file (held.py): the log it had, then the missed
    events as events (their lines in the log), and the view they make is the server's."""
    import msgpack

    from dungeon_twister.client import inbox
    from dungeon_twister.protocol import Snapshot
    from dungeon_twister.server.viewing import table_view

    snapshots = []
    handle = inbox._HANDLERS[Snapshot]
    monkeypatch.setitem(inbox._HANDLERS, Snapshot, lambda session, message: (snapshots.append(message.n),
                                                                            handle(session, message)))

    async with machine(tmp_path) as here:
        async with here.client() as first:
            table = await start_game(first)
            for _ in range(60):  # team, hides, placements: until our turn in the main phase
                view = first.state.view or {}
                if view.get("phase") == "main" and "end" in view.get("legal", ()):
                    break
                if view.get("legal"):
                    first.act(view["legal"][0])
                await until(lambda seen=view: first.state.view is not seen)
            game = table_of(here.server, table).play.game
            before = game.record.actions
            log, came_in = list(first.state.log), first.state.came_in
            assert log and snapshots
            here.networks[-1].dead_in = True  # nothing more reaches this process
            first.act("end")
            # our end, then the bot's turn until we are to act again: its whole turn (our action card to play
            # first), or a combat it started against us, or its reveal of a room with our objects to place. The
            # deal is new each run (our client's contribution, docs/protocol.md section 16): waiting for our turn
            # alone hung when the bot attacked (the combat waits for our card, to_act ("B", "Y"), for ever)
            await until(lambda: "B" in game.state.to_act and game.record.actions > before + 1)
        missed = game.record.actions - before
        assert missed >= 2, "the end and at least one action of the bot"

        snapshots.clear()
        async with here.client() as second:
            expected = table_of(here.server, table)
            await until(lambda: second.state.view is not None and second.state.view.get("legal"))
            now = list(second.state.log)
            assert now[:len(log)] == log, "the log the first process had"
            told = now[len(log):]
            assert len(told) >= missed, told
            assert snapshots == [] and second.state.came_in == came_in, "events, not a snapshot"
            want = msgpack.unpackb(msgpack.packb(table_view(expected.point(), "B", expected.play.game.legal)))
            assert {key: second.state.view[key] for key in want} == want


async def test_a_client_restarted_after_a_crash_keeps_its_tables_chat(tmp_path):
    """Play-test: a player whose client was killed and started again saw the game again, but the table's chat was
    gone. The server keeps no chat (a line goes once to whoever is at the table), so the client keeps the table's
    chat lines in its progress file (held.py), as shown and at most CHAT_LINES, and the new process shows them
    again; a line that comes after the restart follows them."""
    from dungeon_twister.client.state import CHAT_LINES

    async with machine(tmp_path) as here:
        async with here.client() as first:
            await start_game(first)
            first.chat("good luck")
            await until(lambda: "alice: good luck" in first.state.chat)
            first.chat("and have fun")
            await until(lambda: "alice: and have fun" in first.state.chat)
            shown = list(first.state.chat)
        async with here.client() as second:
            await until(lambda: second.state.view is not None and second.state.view.get("legal"))
            assert list(second.state.chat) == shown == ["alice: good luck", "alice: and have fun"]
            second.chat("back")
            await until(lambda: "alice: back" in second.state.chat)
            assert list(second.state.chat) == [*shown, "alice: back"]
            assert second.state.chat.maxlen == CHAT_LINES
