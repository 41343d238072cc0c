"""The client's trio networking: open the connections a Session plans, read and write their bytes.

One task reads the socket and feeds the Session; one task writes the frames the Session produces, in order.
The Session's `write` may be called from outside trio (the prompt_toolkit side in guest mode), so frames reach
the writer through `TrioToken.run_sync_soon`, which is safe from anywhere.
"""

from __future__ import annotations

import math
from collections.abc import Awaitable, Callable

import trio

from .session import Plan, Session

RECEIVE_SIZE = 65536
RETRY_DELAY = 0.5
"""Seconds before a repeated attempt, times the attempt number."""

Connect = Callable[[str, int], Awaitable[trio.abc.Stream]]
_CLOSE = object()


async def run_network(session: Session, host: str, port: int, connect: Connect = trio.open_tcp_stream) -> None:
    """Open and serve every connection the session plans, until it plans none."""
    while (plan := session.take_plan()) is not None:
        if plan.attempt:
            await trio.sleep(RETRY_DELAY * plan.attempt)
        try:
            stream = await connect(host, port)
        except OSError as error:
            session.connect_failed(plan, error.strerror or str(error))
            continue
        await serve(session, plan, stream)


async def serve(session: Session, plan: Plan, stream: trio.abc.Stream) -> None:
    """Run one connection: the session writes through a queue drained by the writer task."""
    outgoing, queued = trio.open_memory_channel[object](math.inf)
    token = trio.lowlevel.current_trio_token()

    def post(item: object) -> None:
        try:
            token.run_sync_soon(_put, outgoing, item)
        except trio.RunFinishedError:
            pass

    async with trio.open_nursery() as nursery:
        nursery.start_soon(_write_frames, stream, queued)
        session.attach(plan, post, lambda: post(_CLOSE))
        reason = await _read_frames(session, stream)
        token.run_sync_soon(outgoing.close)  # after the frames already posted: the writer drains them, then ends
    await stream.aclose()
    session.detach(reason)


async def _read_frames(session: Session, stream: trio.abc.Stream) -> str:
    """Feed the session until the connection ends; why it ended."""
    try:
        while not session.closed:
            data = await stream.receive_some(RECEIVE_SIZE)
            if not data:
                return "closed by the server"
            session.receive(data)
        return "the connection is closed"
    except trio.ClosedResourceError:
        return "closed"
    except trio.BrokenResourceError as error:
        return str(error.__cause__ or error) or "broken connection"


def _put(channel: trio.MemorySendChannel[object], item: object) -> None:
    try:
        channel.send_nowait(item)
    except (trio.ClosedResourceError, trio.BrokenResourceError):
        pass  # the connection is over; nothing more goes out on it


async def _write_frames(stream: trio.abc.Stream, queued: trio.MemoryReceiveChannel[object]) -> None:
    """Write the queued frames in order; `_CLOSE` closes the stream (which also stops the reader)."""
    async with queued:
        async for item in queued:
            if item is _CLOSE:
                await stream.aclose()
                return
            try:
                await stream.send_all(item)  # type: ignore[arg-type]
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                return
