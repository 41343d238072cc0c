"""Session.flush: what a table's step queued is written once the step has committed (Server.flush_held), straight
into the socket or pipe when it takes it all, else by the writer task; in order, and only after flush_held."""

import socket

import trio
import trio.testing
from dungeon_twister.protocol import Error, Ping, PlayerConnection, Software, State
from dungeon_twister.server.config import ServerConfig
from dungeon_twister.server.pipes import pipe_pair
from dungeon_twister.server.server import Server
from dungeon_twister.server.session import Session


class Host:
    """What a session needs of the server, counting the writer tasks it starts."""

    def __init__(self, nursery) -> None:
        self.config = ServerConfig()
        self.session_salt = "test"
        self.holding = False
        self.held = []
        self.writers = 0
        self._nursery = nursery
        self.queued_bytes, self.queued_limit = 0, 1 << 30

    def start(self, async_fn, *args) -> None:
        self.writers += 1
        self._nursery.start_soon(async_fn, *args)

    flush_held = Server.flush_held


def welcomed(session: Session) -> None:
    """The session's connection past its handshake, so that it may send pings."""
    client = PlayerConnection()
    session.conn.receive_data(client.send_hello("ann", Software("dt-test", "0")))
    assert session.conn.next_event() is not None
    session.conn.answer_hello(Software("dt-test", "0"), "s1")
    session._running = True  # as while `run` reads


async def read_pings(stream, count: int) -> list[int]:
    """The ids of the next `count` pings the stream brings (read as a client in the lobby)."""
    reader = PlayerConnection()
    reader.state, reader.version = State.LOBBY, 1
    got = []
    while len(got) < count:
        data = await stream.receive_some(1 << 20)
        assert data
        reader.receive_data(data)
        while (event := reader.next_event()) is not None:
            got.append(event.id)
    return got


async def test_frames_held_during_a_step_leave_only_at_flush_without_a_writer_task_when_the_socket_takes_them():
    one, two = socket.socketpair()
    async with trio.open_nursery() as nursery:
        host = Host(nursery)
        session = Session(host, trio.SocketStream(trio.socket.from_stdlib_socket(one)))
        welcomed(session)
        host.holding = True  # a table's step
        for number in range(3):
            session.send(Ping(number))
        await trio.testing.wait_all_tasks_blocked()
        assert host.held == [session] and host.writers == 0
        try:  # nothing was written before the step committed
            two.recv(100, socket.MSG_DONTWAIT)
            raise AssertionError("a frame was written before flush_held")
        except BlockingIOError:
            pass
        peer = trio.SocketStream(trio.socket.from_stdlib_socket(two))
        host.flush_held()
        assert not host.holding and host.held == [] and host.writers == 0
        assert await read_pings(peer, 3) == [0, 1, 2]
        await peer.aclose()


def small_buffered(nursery) -> tuple:
    """A welcomed Session on one end of a socket pair whose buffers hold about 4 KB, and the other end (`peer`)."""
    one, two = socket.socketpair()
    one.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
    two.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    host = Host(nursery)
    session = Session(host, trio.SocketStream(trio.socket.from_stdlib_socket(one)))
    welcomed(session)
    return host, session, trio.SocketStream(trio.socket.from_stdlib_socket(two))


async def test_what_the_socket_does_not_take_is_written_by_the_writer_task_in_order():
    async with trio.open_nursery() as nursery:
        host, session, peer = small_buffered(nursery)
        # some 200 KB of pings (20 bytes each): more than the socket buffers hold, less than a lobby connection's
        # outbox takes (LOBBY_OUTBOX_BYTES)
        count = 10_000
        host.holding = True
        session._outbox_size = count + 1
        for number in range(count):
            session.send(Ping(number))
        host.flush_held()
        assert host.writers == 1  # the socket took part of it; the writer task sends the rest
        assert await read_pings(peer, count) == list(range(count))
        await peer.aclose()


async def test_a_pipe_gets_the_frames_at_flush_without_a_writer_task():
    client_end, server_end = pipe_pair()
    async with trio.open_nursery() as nursery:
        host = Host(nursery)
        session = Session(host, server_end)
        welcomed(session)
        host.holding = True
        session.send(Ping(7))
        host.flush_held()
        assert host.writers == 0
        assert await read_pings(client_end, 1) == [7]


async def test_a_session_flushed_early_in_a_step_and_again_at_its_end_has_one_writer_and_keeps_the_order():
    """Table.publish flushes a seat's session as soon as its view is made, and flush_held flushes it again when the
    step ends: what the socket did not take the first time stays with the one writer task, in order."""
    async with trio.open_nursery() as nursery:
        host, session, peer = small_buffered(nursery)
        count = 5_000  # 100 KB: more than the socket buffers hold (twice it: less than LOBBY_OUTBOX_BYTES)
        host.holding = True
        session._outbox_size = 2 * count + 1
        for number in range(count):
            session.send(Ping(number))
        session.flush()  # early, in the step
        assert host.writers == 1
        for number in range(count, 2 * count):  # the rest of the step
            session.send(Ping(number))
        host.flush_held()
        assert host.writers == 1  # no second writer on the same stream
        assert await read_pings(peer, 2 * count) == list(range(2 * count))
        await peer.aclose()


async def test_a_connection_superseded_while_the_socket_holds_part_of_a_frame_gets_the_rest_then_its_error():
    """Review rv24: `Session.superseded` (its seat resumed elsewhere) emptied the outbox before it queued the error
    `resumed_elsewhere`; when the socket had taken part of what a step flushed, the outbox's first item was the
    rest of a frame, and the error followed half a frame: the client could not read it (nor anything after it).
    What a frame began is sent whole, then the error, then the end of the stream."""
    async with trio.open_nursery() as nursery:
        host, session, peer = small_buffered(nursery)
        count = 10_000  # 200 KB: more than the socket buffers hold, less than LOBBY_OUTBOX_BYTES
        host.holding = True
        session._outbox_size = count + 1
        for number in range(count):
            session.send(Ping(number))
        host.flush_held()  # the socket takes a part; the rest waits for the writer task, not started yet
        assert host.writers == 1 and session._outbox
        session.superseded()
        reader = PlayerConnection()
        reader.state, reader.version = State.LOBBY, 1
        events = []
        while data := await peer.receive_some(1 << 20):
            reader.receive_data(data)
            while (event := reader.next_event()) is not None:
                events.append(event)
        assert all(isinstance(event, Ping) for event in events[:-1]), events[-1]
        assert [event.id for event in events[:-1]] == list(range(len(events) - 1))
        assert isinstance(events[-1], Error) and events[-1].code == "resumed_elsewhere"
        await peer.aclose()
