"""Transport framing: over TCP, each frame is a 4-byte big-endian unsigned length, then that many bytes of body."""

from __future__ import annotations

from .errors import ProtocolError

DEFAULT_PORT = 7777
"""The TCP port a server listens on by default."""
HEADER_SIZE = 4
DEFAULT_MAX_FRAME_SIZE = 1024 * 1024
"""The default limit of a frame's body, in bytes."""
CLIENT_FRAME_SIZE = 64 * 1024
"""The limit of a frame a server takes from a client (dt-server's): the largest message a client sends within the
protocol's limits is an `error` of about 21 KB (every text at 4 bytes a character), a hello under 4 KB; the 1 MiB of
section 2 is for the views a server sends. Each connection may hold a frame being received for 30 s, so a limit a
thousand connections hold at once, before any hello: at 1 MiB, 960 connections from 15 addresses held 1 GB of the
server's memory, kept after they closed (red team rt25); at this limit, about a tenth of it."""


def frame(body: bytes, max_size: int = DEFAULT_MAX_FRAME_SIZE) -> bytes:
    """The frame carrying `body`; raise ProtocolError (fault "local") if the body is empty or too large."""
    if not body:
        raise ProtocolError("empty_frame", "refusing to send an empty frame", fault="local")
    if len(body) > max_size:
        raise ProtocolError("frame_too_large", f"{len(body)} bytes > {max_size}", fault="local")
    return len(body).to_bytes(HEADER_SIZE, "big") + body


class FrameReader:
    """Split a byte stream into frame bodies.

    A header announcing more than `max_size` bytes (or zero) raises ProtocolError as soon as the header is
    complete, before any of the body is kept. After that the stream cannot be resynchronised: the reader
    keeps raising.
    """

    def __init__(self, max_size: int = DEFAULT_MAX_FRAME_SIZE) -> None:
        self.max_size = max_size
        self._buffer = bytearray()
        self._broken: ProtocolError | None = None

    @property
    def buffered(self) -> int:
        """Bytes received and not yet returned as a frame: a frame being received, if not zero."""
        return len(self._buffer)

    def feed(self, data: bytes) -> None:
        if self._broken is None:
            self._buffer += data

    def next_frame(self) -> bytes | None:
        """The next complete body, or None if more data is needed."""
        if self._broken is not None:
            raise self._broken
        if len(self._buffer) < HEADER_SIZE:
            return None
        size = int.from_bytes(self._buffer[:HEADER_SIZE], "big")
        if size == 0 or size > self.max_size:
            self._buffer.clear()
            if size == 0:
                self._broken = ProtocolError("empty_frame", "a frame of length 0")
            else:
                self._broken = ProtocolError("frame_too_large", f"a frame of {size} bytes > {self.max_size}")
            raise self._broken
        end = HEADER_SIZE + size
        if len(self._buffer) < end:
            return None
        body = bytes(self._buffer[HEADER_SIZE:end])
        if end == len(self._buffer):
            self._buffer = bytearray()  # a fresh one: an emptied bytearray keeps what it had allocated
        else:
            del self._buffer[:end]
        return body
