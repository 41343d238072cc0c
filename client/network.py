"""The client's trio networking: open the connections a Session plans, read and write their bytes.

One task reads the socket and feeds the Session; one task writes the frames the Session produces, in order.
Between connections it waits as the session's Plan says (a growing delay while resuming), and a server that
falls silent is pinged, then given up on. The Session's `write` may be called from outside trio (the
prompt_toolkit side in guest mode), so frames reach the writer through `TrioToken.run_sync_soon`, which is safe
from anywhere.
"""

from __future__ import annotations

import errno
import math
import socket
from collections.abc import Awaitable, Callable

import trio

from dungeon_twister.protocol.identity import channel_of

from .i18n import _
from .session import Plan, Session
from .tls import PinMismatch

RECEIVE_SIZE = 65536
SILENCE_SECONDS = 20.0
"""A server silent this long is pinged (it pings us every 30 s by default, and answers our pings)..."""
PROBE_SECONDS = 10.0
"""... and one that stays silent this much longer is taken for gone: the connection is dropped and resumed
(a network that went away without a word leaves a half-open connection that would otherwise wait forever)."""

Connect = Callable[[str, int], Awaitable[trio.abc.Stream]]
_CLOSE = object()


class Wakeup:
    """Lets the session cut the network task's wait short, from anywhere (the prompt_toolkit side included)."""

    def __init__(self) -> None:
        self._token = trio.lowlevel.current_trio_token()
        self._event = trio.Event()

    def poke(self) -> None:
        try:
            self._token.run_sync_soon(lambda: self._event.set())
        except trio.RunFinishedError:
            pass

    async def wait(self, seconds: float = math.inf) -> None:
        """Until poked, or `seconds` passed."""
        with trio.move_on_after(seconds):
            await self._event.wait()
        self._event = trio.Event()


async def run_network(session: Session, host: str, port: int, connect: Connect = trio.open_tcp_stream) -> None:
    """Open and serve every connection the session plans, until it quits; between plans, wait for one."""
    wakeup = Wakeup()
    session.wake = wakeup.poke
    while not session.stopped:
        plan = session.take_plan()
        if plan is None:
            await wakeup.wait()
            continue
        if plan.delay > 0:
            await wakeup.wait(plan.delay)  # the `reconnect` command cuts it short
            if session.stopped:
                break
            if session.plan is not None:  # a newer plan (`leave` while a stopped game waits): that one instead
                continue
        try:
            stream = await connect(host, port)
        except PinMismatch as error:  # not a server out of reach: trying again every few seconds would not help
            session.connect_failed(plan, str(error), again=False)
            continue
        except OSError as error:
            session.connect_failed(plan, connect_error_text(error))
            continue
        await serve(session, plan, stream)
        if session.wants_tls:  # (the server turned TLS on since this run found it plain)
            session.wants_tls = False
            forget = getattr(connect, "forget_plain", None)
            if forget is not None:
                forget(host, port)


def connect_error_text(error: OSError) -> str:
    """Why a connection could not be opened, in the reader's language for the common causes (a play-test's French
    reconnect line read "all attempts to connect to 127.0.0.1:7801 failed", trio's words), else the system's."""
    cause = error.__cause__
    if error.errno is None and isinstance(cause, BaseExceptionGroup):  # trio: one error per address tried
        leaves = [leaf for leaf in cause.exceptions if isinstance(leaf, OSError)]
        error = leaves[0] if leaves else error
    if isinstance(error, socket.gaierror):
        return _("no such host name")
    if error.errno == errno.ECONNREFUSED:
        return _("connection refused (is the server running?)")
    if error.errno in (errno.ETIMEDOUT, errno.EHOSTUNREACH, errno.ENETUNREACH):
        return _("the server's address cannot be reached")
    return error.strerror or str(error)


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
        session.attach(plan, post, lambda: post(_CLOSE), channel_of(
            stream.getpeercert(binary_form=True) if isinstance(stream, trio.SSLStream) else None))
        reason = await _read_frames(session, stream)
        token.run_sync_soon(outgoing.close)  # after the frames already posted: the writer drains them, then ends
    await stream.aclose()
    session.detach(reason)


async def _read_frames(session: Session, stream: trio.abc.Stream) -> str:
    """Feed the session until the connection ends; why it ended."""
    probing = False
    try:
        while not session.closed:
            with trio.move_on_after(PROBE_SECONDS if probing else SILENCE_SECONDS):
                data = await stream.receive_some(RECEIVE_SIZE)
                if not data:
                    return _("closed by the server")
                session.receive(data)
                probing = False
                continue
            if probing or not session.probe():
                return _("the server stopped answering")
            probing = True
        return _("the connection is closed")
    except trio.ClosedResourceError:
        # TRANSLATORS: why a connection ended (shown as "connection lost (closed)")
        return _("closed")
    except trio.BrokenResourceError as error:
        return str(error.__cause__ or error) or _("broken connection")


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
