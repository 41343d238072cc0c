"""In-memory connections for the server's own bots (and tests): a lean byte pipe pair, much smaller than
trio.testing's memory streams (which keep conflict detectors, hooks and pump closures per direction).

Semantics as TCP loopback: bytes sent are at once available to the other end; closing one end gives the other
end EOF (b"") once it has read what was sent, and makes its sends fail with BrokenResourceError.
"""

from __future__ import annotations

import trio


class _Pipe:
    """One direction: the bytes sent and not yet read, and who waits for them."""

    __slots__ = ("data", "waiting", "writer_closed", "reader_closed")

    def __init__(self) -> None:
        self.data = bytearray()
        self.waiting = trio.lowlevel.ParkingLot()
        self.writer_closed = False
        self.reader_closed = False


class PipeStream(trio.abc.Stream):
    """One end of an in-memory connection."""

    __slots__ = ("_incoming", "_outgoing", "_closed")

    def __init__(self, incoming: _Pipe, outgoing: _Pipe) -> None:
        self._incoming, self._outgoing, self._closed = incoming, outgoing, False

    # The checkpoints are those of trio.testing's memory streams (two before each send and each receive, one per
    # direction when closing): tasks at both ends interleave as they did over those.
    async def send_all(self, data) -> None:
        await trio.lowlevel.checkpoint()
        await trio.lowlevel.checkpoint()
        self.send_nowait(data)

    def send_nowait(self, data) -> None:
        """send_all without its checkpoints (a pipe never blocks): the server's Session.flush."""
        if self._closed:
            raise trio.ClosedResourceError("this end is closed")
        if self._outgoing.reader_closed:
            raise trio.BrokenResourceError("the other end is closed")
        if data:
            self._outgoing.data += data
            self._outgoing.waiting.unpark_all()

    async def wait_send_all_might_not_block(self) -> None:
        await trio.lowlevel.checkpoint()

    async def receive_some(self, max_bytes: int | None = None) -> bytes:
        await trio.lowlevel.checkpoint()
        await trio.lowlevel.checkpoint()
        pipe = self._incoming
        while not pipe.data and not pipe.writer_closed:
            if self._closed:
                raise trio.ClosedResourceError("this end is closed")
            await pipe.waiting.park()
        if self._closed:
            raise trio.ClosedResourceError("this end is closed")
        size = len(pipe.data) if max_bytes is None else max_bytes
        chunk = bytes(pipe.data[:size])
        del pipe.data[:size]
        return chunk

    async def aclose(self) -> None:
        if not self._closed:
            self._closed = True
            self._outgoing.writer_closed = True
            self._incoming.reader_closed = True
            self._incoming.data.clear()
            self._outgoing.waiting.unpark_all()
            self._incoming.waiting.unpark_all()
        await trio.lowlevel.checkpoint()
        await trio.lowlevel.checkpoint()


def pipe_pair() -> tuple[PipeStream, PipeStream]:
    """Two connected ends (client, server)."""
    one, other = _Pipe(), _Pipe()
    return PipeStream(one, other), PipeStream(other, one)
