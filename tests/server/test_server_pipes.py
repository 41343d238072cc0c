"""server/pipes.py: the in-memory connections of the server's bots behave like a TCP loopback connection."""

import pytest
import trio
import trio.testing
from dungeon_twister.server.pipes import pipe_pair


async def test_bytes_arrive_in_order_and_closing_gives_eof_then_broken_sends():
    client, server = pipe_pair()
    await client.send_all(b"abc")
    await client.send_all(b"def")
    assert await server.receive_some(4) == b"abcd"
    assert await server.receive_some() == b"ef"
    async with trio.open_nursery() as nursery:
        got = []

        async def read():
            got.append(await server.receive_some())

        nursery.start_soon(read)
        await trio.testing.wait_all_tasks_blocked()
        await client.send_all(b"x")
    assert got == [b"x"]
    await client.send_all(b"last")
    await client.aclose()
    assert await server.receive_some() == b"last"  # what was sent before closing is still read
    assert await server.receive_some() == b""  # then the end of the stream
    with pytest.raises(trio.BrokenResourceError):
        await server.send_all(b"to nobody")
    with pytest.raises(trio.ClosedResourceError):
        await client.send_all(b"after close")
    await server.aclose()
    with pytest.raises(trio.ClosedResourceError):
        await server.receive_some()


async def test_a_reader_waiting_on_its_own_end_is_woken_when_that_end_closes():
    client, server = pipe_pair()
    async with trio.open_nursery() as nursery:
        outcome = []

        async def read():
            try:
                await server.receive_some()
            except trio.ClosedResourceError:
                outcome.append("closed")

        nursery.start_soon(read)
        await trio.testing.wait_all_tasks_blocked()
        await server.aclose()
    assert outcome == ["closed"]
