"""One client connection: the handshake, a reader that routes messages (to the lobby, or to the client's
table) and sends the keepalive pings when its wait for data times out, and a writer draining a bounded outbox.

`send` never blocks: a client whose outbox is full is too slow and is dropped (its connection closed), so a
table never waits for anybody.

An idle connection costs one task (the reader, waiting in one cancel scope): the writer is a task of the server's
nursery that runs only while the outbox holds frames (started by the first frame queued, it ends once it has
written the last), the keepalive has no task of its own, and the session has no nursery. That keeps a lobby of
idle clients small (bench/server.py measures the memory per idle connection; each task, nursery or entered
cancel scope costs about 1 KiB).

What a table's step queues is held until the step has committed (durable before sent), then written by
`flush` straight into the socket or pipe when it takes it all: no writer task, no task switch; the writer task
takes over only for what the socket did not take, and for frames queued outside a table's step.
"""

from __future__ import annotations

import itertools
import logging
import math
import secrets
import os
import ssl
from typing import TYPE_CHECKING

import trio

from dungeon_twister.engine.core.errors import N_
from dungeon_twister.protocol import (Chat, ChatMessage, CreateTable, Error, GameRecord, Games, GetRecord, Hello,
                                      Join, ListGames, ListRatings, ListTables, Message, Ping, Pong, ProtocolError,
                                      Prove, RatingInfo, Ratings, Refused, Resume, Role, ServerConnection, Software,
                                      Spectate, State, TableCreated, templated)

from dungeon_twister.protocol.framing import CLIENT_FRAME_SIZE
from dungeon_twister.protocol.identity import CHALLENGE_SIZE, channel_of, check_proof
from dungeon_twister.protocol.kinds import TEXT, fit_template
from dungeon_twister.protocol.msg_lobby import RECORD_TEXT
from dungeon_twister.protocol.names import name_key, name_problem
from dungeon_twister.protocol.transport import TLS_RECORD
from dungeon_twister.protocol.versions import release
from dungeon_twister.protocol.views import FEATURES

from .config import takes_unbound_proofs
from .health import SOFTWARE as HEALTH_SOFTWARE
from .lobby import OLD_CLIENT_SECONDS, TooManyTables
from .logs import LOGGER, log
from .pipes import PipeStream
from .ports import TableGone
from .ratelimit import TokenBucket, address_key
from .records import game_info, record_text
from .sanitize import clean_chat
from .seating import code_matches
from .storage import StorageError
from .table import Enter, Gone, Request, game_stopped

if TYPE_CHECKING:
    from .ports import Host as Server
    from .ports import TableDoor as Table

VERSION = release()
HELLO_SECONDS = 10.0
"""A client must say hello within this time."""
FLUSH_SECONDS = 5.0
"""How long a closing connection may take to send its last frames."""
RECEIVE_SIZE = 65536
FRAME_SECONDS = 30.0
"""A frame must be complete this long after its first byte arrived, else the connection is closed (timeout)."""
CHAT_BURST = 10
CHAT_PER_SECOND = 1.0
"""Chat rate limit of one connection: a burst of CHAT_BURST, then CHAT_PER_SECOND messages a second."""
RESUME_BURST = 5
RESUME_PER_SECOND = 0.5
"""Resume rate limit of one connection: a burst of RESUME_BURST, then one every 2 seconds. Each `resume` has the
table render a snapshot or replay its log; a client needs one after a gap, and repeated at will they would only
cost every table of the process time (or help average the timing of a view)."""
LOOKUP_BURST = 20
LOOKUP_PER_SECOND = 2.0
"""Lobby requests of one connection (`create_table`, `join`, `spectate`, `list_tables`; at a table too): a burst of
LOOKUP_BURST, then 2 a second. Each costs the server work a client could otherwise ask for at the network's pace
(a snapshot rendered for each `spectate`, a table list encoded for each `list_tables`); a person or a client
program asks a few at a time."""
STORE_BURST = 5
STORE_PER_SECOND = 0.5
"""Store reads of one connection (`get_record`, `list_ratings`, `list_games`): a burst of STORE_BURST, then one every
2 seconds. A record is read from the journal and written out whole (milliseconds for a long game)."""
OUTBOX_FRAMES_OF_MAX = 4
"""A connection's outbox holds at most this many of the largest frames' worth of bytes (4 MiB by default) besides
its `outbox_frames` frames; a client that lets more pile up is too slow and is dropped, as one over `outbox_frames`
is. Frames alone let a client that never reads hold 512 of any size: the 19 KB pages of `list_tables` asked at the
allowed rate by 30 such connections took 62 MB of the server's memory in a minute, toward 10 MB a connection (a
thousand connections, 10 GB), and views with long legal lists or records (up to 1 MiB each) 512 MiB a connection
(red team rt25). With what a writer task has taken from it to write, at most twice this is held."""
LOBBY_OUTBOX_BYTES = 256 * 1024
"""A connection in the lobby (at no table) holds at most this many bytes queued (or its OUTBOX_FRAMES_OF_MAX limit,
if less), besides the frame that arrives on an empty outbox: lobby answers are pages of at most ~19 KB, and one
record (up to a frame) is always taken. Players and spectators keep the larger limit (views with long legal lists,
snapshots). Review rv25: 15 addresses x 64 connections that read nothing could each hold 4 MiB in the lobby."""
CLIENT_LOG_BURST = 10
CLIENT_LOG_PER_SECOND = 1.0
"""The log lines of one connection's mistakes (`client_error`, `client_reported`): a burst of CLIENT_LOG_BURST, then
one a second; the others are counted in its `disconnected` line (`unlogged`)."""
LOOKUPS = (CreateTable, Join, Spectate, ListTables)
READS = (GetRecord, ListRatings, ListGames)
AT_TABLE = frozenset({State.AT_TABLE, State.SPECTATING})
OPEN = frozenset({State.LOBBY, State.AT_TABLE, State.SPECTATING})
_CLOSE = object()
_numbers = itertools.count(1)


FULL = {"reason": "refused", "code": "server_full"}
"""How a connection refused server_full ends (`Session._end`)."""
TLS_PROBE = {"reason": "tls not offered"}
"""How dt-client's TLS try on a plain server ends (`Session._end`): its `tls_not_offered` line says it already."""


class Session:
    # slotted: a server holds one per connection, most of them idle in the lobby (bench/server.py row 5)
    __slots__ = ("server", "address", "banned", "bot_name", "stream", "network", "conn", "id", "name", "table",
                 "moving_to", "_outbox_size", "_outbox", "_outbox_bytes", "_outbox_limit", "_inflight",
                 "_writing", "_draining", "_running", "chat_dropped", "_chat", "_chat_warned", "_resume", "_lookups",
                 "_reads", "_client_logs", "_unlogged", "_frame_since", "_scope",
                 "_dropped", "_closing", "_flushed", "_flush_waiter", "_proof", "_deferred", "_reclaim", "_heard_at",
                 "_ping_at", "_ping_id", "_tls_hello", "_health_check", "_end", "__weakref__")

    def __init__(self, server: Server, stream: trio.abc.Stream, *, network: bool = False,
                 bot_name: str | None = None, address: str | None = None, banned: str | None = None) -> None:
        self.server = server
        self.address = address
        self.banned = banned
        """The banned network (config.banned_addresses) the address lies in: its hello is refused `kicked`."""
        """The IP address the client connected from (None: unknown, or a bot's pipe): logs and per-address limits."""
        self.bot_name = bot_name
        """The reserved name of the server's bot this connection serves (None: a client from outside)."""
        self.stream = stream
        self.network = network
        self.conn = ServerConnection(max_frame_size=server.config.max_frame_size,
                                     max_receive_size=min(CLIENT_FRAME_SIZE, server.config.max_frame_size))
        self.id = f"s{next(_numbers)}-{server.session_salt}"
        self.name: str | None = None
        self.table: Table | None = None
        """The last table this client asked to join, watch or resume (told when the connection ends)."""
        self.moving_to: Table | None = None
        """The table the server is moving this client to (Table.take_player) until it has seated him there: his own
        `join` or `spectate` meanwhile is refused (between the `left` and the `joined` of a rematch, a hostile
        client's `join` of another table sat him at both: review rv30)."""
        self._outbox_size = server.config.outbox_frames
        self._outbox: list = []
        """Frames (and _CLOSE) not yet written; at most _outbox_size (a list: a deque's first block is 600 bytes)."""
        self._outbox_bytes = 0
        """The bytes of the frames in `_outbox` (not of a batch a writer task took from it and is writing)."""
        self._inflight = 0
        """The bytes of the batch a writer task took from `_outbox` and is writing (counted in the server's
        `queued_bytes` with `_outbox_bytes`, until written or the connection is dropped)."""
        self._outbox_limit = OUTBOX_FRAMES_OF_MAX * server.config.max_frame_size
        """At most this many bytes queued, besides the frame that arrives on an empty outbox (OUTBOX_FRAMES_OF_MAX)."""
        self._writing = False
        """The outbox is being written: held for a table step's flush, or by a writer task."""
        self._draining = False
        """A writer task has been started and has not ended (it writes whatever is queued, in order)."""
        self._running = False
        """`run` has started and not ended (a writer may be started)."""
        self.chat_dropped = 0
        """Chat messages not sent to this (slow) client."""
        self._chat: TokenBucket | None = None
        """The chat rate limit, made at the first chat message."""
        self._chat_warned = False
        self._resume: TokenBucket | None = None
        """The resume rate limit, made at the first `resume`."""
        self._lookups: TokenBucket | None = None
        """The lobby requests' rate limit (LOOKUPS), made at the first."""
        self._reads: TokenBucket | None = None
        """The store reads' rate limit (READS), made at the first."""
        self._client_logs: TokenBucket | None = None
        """The rate limit of this connection's lines in the log for what it sent wrong (`_log_client`)."""
        self._unlogged = 0
        """Such lines left out over that limit (the `disconnected` line says how many)."""
        self._frame_since: float | None = None
        """When the first byte of the frame being received arrived (None: no frame under way)."""
        self._scope: trio.CancelScope | None = None
        """The scope of what the reader is waiting for now (data, a table, the flush); `drop` cancels it."""
        self._dropped = False
        self._closing = False
        self._flushed = False
        """The writer has closed the stream after the last frame (or failed, or was cancelled)."""
        self._flush_waiter: trio.Event | None = None
        self._proof: tuple[bytes, bytes] | None = None
        """(key, challenge) from a hello that named a key, until prove proves it (section 18)."""
        self._deferred: tuple | None = None
        """(table, Enter) of a hello that resumes a seat, waiting for the proof of its key."""
        self._reclaim: tuple | None = None
        """(table id, seat) held for this name, to be taken back by the key alone once it is proven."""
        self._tls_hello: bool | None = None
        """Whether the client's first byte opened a TLS record on a connection served in plain TCP (what dt-client
        tries first: its 'frame' is then too large, and it connects again in plain TCP); None until it has sent
        something. Logged as tls_not_offered rather than as a client error."""
        self._health_check = False
        """The hello came from `dt-server health` and nothing has followed it yet: its connected and disconnected
        lines are debug ones (a container's HEALTHCHECK every 30 s made two info lines each time). Anything it
        sends after its hello logs its `connected` line at info then: a client cannot hide behind that name."""
        self._heard_at = trio.current_time()
        self._ping_at: float | None = None
        self._ping_id = 0
        self._end: dict | None = None
        """Why this connection ends, as its `disconnected` line says (`_ending`): the first reason found."""

    @property
    def is_spectator(self) -> bool:
        return self.conn.client_role is Role.SPECTATOR

    @property
    def closing(self) -> bool:
        """The connection is ending (nothing more is sent to it): its `Gone` may already be on its way to the table
        it was at (`_leave_table`), so no other table may take it over now (a rematch, rematch.py; a kept seat,
        Seating.keep_seat)."""
        return self._closing

    # --- sending (never blocks) ---------------------------------------------------------------------------
    def send(self, message: Message) -> None:
        """Queue a message for this client; nothing if it may not be sent now (logged) or the client is closing.

        Chat is dropped, rather than queued, once the outbox is half full: someone else's chat never makes a
        slow reader's outbox overflow (which would close his connection and cost him his seat's time)."""
        if self._closing:
            return
        if isinstance(message, ChatMessage) and (self._queued_frames() >= self._outbox_size // 2
                                                 or self._outbox_bytes >= self._outbox_limit // 2):
            self.chat_dropped += 1
            return
        try:
            data = self.conn.send(message)
        except ProtocolError as error:
            log("not_sent", session=self.id, type=message.spec.name, error=str(error))
            return
        self._queue(data)

    def send_framed(self, message: Message, data: bytes | None) -> None:
        """`send(message)` with its frame made once for every connection that gets the same message
        (`protocol.connection.encode_frame`: a table's event to a class of viewers); None: the frame could not be
        made, and `send` says why. The connection checks and records it as if it had encoded it."""
        if self._closing:
            return
        if data is None:
            return self.send(message)
        try:
            data = self.conn.send_framed(message, data)
        except ProtocolError as error:
            log("not_sent", session=self.id, type=message.spec.name, error=str(error))
            return
        self._queue(data)

    def _queued_frames(self) -> int:
        return len(self._outbox)

    def send_error(self, error: ProtocolError) -> None:
        if not self._closing:
            self._queue(self.conn.send_error(error))
            if error.fatal:
                self._ending("fatal error", code=error.code, error=error.message)
                self.close()

    def close(self, message: Message | None = None) -> None:
        """Send `message` (e.g. server_closing) if possible, then close once the queued frames are written."""
        if self._closing:
            return
        if message is not None:
            self._ending(message.spec.name.replace("_", " "))  # "server closing"
        if message is not None and self.conn.state in OPEN:
            self.send(message)
        self._closing = True
        self._queue(_CLOSE)

    def superseded(self) -> None:
        """Another connection resumed this one's seat or name with its token (docs/protocol.md section 9): this
        one is told so (`resumed_elsewhere`) and closed, nothing it sends from now on handled. It was closed
        without a word, so a client could not tell it from a lost connection and resumed in turn: two copies of
        dt-client took one seat from each other every few seconds, each time a snapshot and an opponent_left and
        opponent_back to the other player (found by hand, 2026-11-30)."""
        self.cut("resumed on another connection", templated(
            "resumed_elsewhere", "another connection resumed your seat (or your name) with its token: this one is "
            "closed"))

    def kick(self, minutes: int) -> None:
        """The server's admin closes this connection (`dt-server admin kick`, or a ban read anew: server/admin.py),
        telling the client why and, `minutes` > 0, when its name may connect again (the fatal error `kicked`: a
        client does not connect again by itself)."""
        if minutes:
            error = templated("kicked", "the server's admin closed your connection: your name may connect again in "
                              "{minutes} min", minutes=minutes)
        else:
            error = templated("kicked", "the server's admin closed your connection")
        self.cut("kicked by the server's admin", error)

    def cut(self, reason: str, error: ProtocolError) -> None:
        """Close, telling the client why (`error`, its last frame) and dropping what was queued before it: the
        frames of a seat that is no longer this connection's (superseded), of a step that was not saved (the
        table's storage_failed)."""
        if self._closing:
            return
        log("dropped", session=self.id, name=self.name, reason=reason)
        self._ending(reason)
        # What was queued goes, but not the first item while a writer task is due: it may be the rest of a frame
        # the socket took part of (flush), and the error after half a frame was unreadable (review rv24). (Emptied
        # rather than kept: the error must find room.)
        del self._outbox[1 if self._draining else 0:]
        self._queued(sum(len(item) for item in self._outbox if item is not _CLOSE))
        self.send_error(error)
        self.close()
        self.server.start(self._cut_off)

    async def _cut_off(self) -> None:
        """A connection `cut` ends FLUSH_SECONDS later at the latest: its client may read nothing more (stopped with
        Ctrl-Z, half-open with full buffers), and then neither its writer, blocked on the error, nor its reader,
        waiting for bytes, would ever end it (review rv24: such a superseded session stayed until TCP gave up)."""
        await trio.sleep(FLUSH_SECONDS)
        if self._running and not self._dropped:
            self._abort()

    def drop(self, reason: str) -> None:
        """Close at once, dropping whatever is queued."""
        if not self._dropped:
            log("dropped", session=self.id, name=self.name, reason=reason)
            self._ending(reason)
        self._abort()

    def _ending(self, reason: str, **fields) -> None:
        """Note why this connection ends (`reason`, and what it names: `fields`), unless a reason came first: the
        `disconnected` line says it (admin review 21: a connection closed for its keepalive said nothing of why)."""
        if self._end is None:
            self._end = {"reason": reason, **fields}

    def _abort(self) -> None:
        """Stop reading at once (`run` then closes the stream, which stops a writer) and write nothing more."""
        self._dropped = self._closing = True
        self._let_go()
        if self._scope is not None:
            self._scope.cancel()

    def _cancel_scope(self, deadline: float = math.inf) -> trio.CancelScope:
        """A scope for the reader's next wait, cancelled by `drop` (at once if the session is already dropped)."""
        self._scope = trio.CancelScope(deadline=deadline)
        if self._dropped:
            self._scope.cancel()
        return self._scope

    def _queue(self, item) -> None:
        if self._dropped:
            return
        if len(self._outbox) >= self._outbox_size:
            return self.drop("too slow: outbox full")
        if item is not _CLOSE:
            limit = self._outbox_limit if self.conn.state in AT_TABLE else min(self._outbox_limit, LOBBY_OUTBOX_BYTES)
            if self._outbox_bytes + len(item) > limit and self._outbox:
                return self.drop("too slow: outbox full")
            self._queued(self._outbox_bytes + len(item))
            if self.server.queued_bytes > self.server.queued_limit and self.server.over_queued_limit(self):
                return  # this connection held the most, and was dropped
        self._outbox.append(item)
        if not self._writing and self._running:
            self._writing = True
            if self.server.holding:  # a table's step: written once its transaction has committed (flush)
                self.server.held.append(self)
            else:
                self._draining = True
                self.server.start(self._write)

    def flush(self) -> None:
        """Write what a table's step queued, now that it has committed (Server.flush_held): straight into the
        socket when it takes it all (no writer task, no task switch), else by the writer task as usual. A step may
        flush a seat's session before it ends (Table.publish), then again: a writer task started by the first
        keeps the outbox."""
        if self._draining:
            return
        outbox = self._outbox
        if not outbox:
            self._writing = False
            return
        direct = self._running and not self._closing and all(item is not _CLOSE for item in outbox)
        fd = self._fd() if direct else -1
        if direct and (fd >= 0 or isinstance(self.stream, PipeStream)):
            data = outbox[0] if len(outbox) == 1 else b"".join(outbox)
            try:
                if fd < 0:  # an in-memory pipe (the server's bots) takes everything at once
                    self.stream.send_nowait(data)
                    written = len(data)
                else:
                    written = os.write(fd, data)
            except BlockingIOError:
                written = 0
            except (OSError, trio.BrokenResourceError, trio.ClosedResourceError):  # as the writer would find it
                self._writing = False
                self._abort()
                return
            if written == len(data):
                self._outbox = []
                self._queued(0)
                self._writing = False
                return
            self._outbox = [data[written:]]
            self._queued(len(data) - written)
        self._draining = True
        self.server.start(self._write)

    def _let_go(self) -> None:
        """Forget what is queued, and count what a writer task is writing as let go with its stream (closed by
        `run`, or being closed): none of it is the server's to count any more (`queued_bytes`)."""
        self._outbox.clear()
        self._queued(0)
        self.server.queued_bytes -= self._inflight
        self._inflight = 0

    def _queued(self, size: int) -> None:
        """`_outbox_bytes` is now `size`: the server's count of every connection's queued bytes follows."""
        self.server.queued_bytes += size - self._outbox_bytes
        self._outbox_bytes = size

    @property
    def holding_bytes(self) -> int:
        """What this connection's frames not yet written take (queued, and being written)."""
        return self._outbox_bytes + self._inflight

    def _fd(self) -> int:
        """The socket's file descriptor, if the stream is an open TCP socket (-1 otherwise: pipes, closed)."""
        if isinstance(self.stream, trio.SocketStream):
            return self.stream.socket.fileno()
        return -1

    # --- the tasks ----------------------------------------------------------------------------------------
    async def run(self) -> None:
        self.server.sessions.add(self)
        self._running = True
        try:
            await self._read()
        except StorageError as error:
            # The store could not be read or written for this connection's request (a hello's bound name, a table
            # created): no bug of ours but the store's state, PostgreSQL restarting say. One line, not a traceback:
            # a 20 s stop of PostgreSQL logged one traceback for every reconnection attempt of every player
            # (review rv24). The connection ends, as before; its client connects again.
            log("storage_failed", level=logging.ERROR, session=self.id, name=self.name, error=str(error))
            self._ending("storage failed")
        except Exception:  # a bug must cost one connection at most
            LOGGER.exception("session_failed", extra={"fields": {"session": self.id, "name": self.name}})
            self._ending("session failed")
        finally:
            self._running = False
            self._closing = True
            # Nothing more is written that matters (the reader waited for a close's flush; a client gone or dropped
            # reads nothing), and the server's count must be right before the session leaves `sessions`: while it
            # leaves its table (a step the store may take long over) it could not be dropped, and its bytes made
            # the budget drop every connection that held anything (review rv26).
            self._let_go()
            self.server.session_gone(self)
            with trio.CancelScope(shield=True):
                await self._leave_table()
                await trio.aclose_forcefully(self.stream)
            self._let_go()  # (nothing was queued since: `_closing`; a writer's batch was counted as let go)
            # a health check's line is a debug one, and so is a server_full refusal's: a flood of them is counted
            # once a minute (`refused`), not told a line each (seen by hand: the count came, a line each still did);
            # and a TLS try's on a plain server, whose `tls_not_offered` says it (pt22b: two lines a client start)
            quiet = self._health_check or self._end in (FULL, TLS_PROBE) or self.banned is not None  # (a banned
            # address's: counted by its network, Server.refused_quietly)
            log("disconnected", level=logging.DEBUG if quiet else logging.INFO, session=self.id, name=self.name,
                address=self.address, **(self._end or {"reason": "closed"}),
                **({"unlogged": self._unlogged} if self._unlogged else {}))

    async def _write(self) -> None:
        """Write the outbox until it is empty (then end: the next frame queued starts a writer again) or until
        _CLOSE (then close the stream). What is queued when the writer runs leaves in one send_all: a table step
        queues its frames (answer, events, view) before the writer runs, so they leave in one write (one system
        call, one wake-up of the peer). A task of the server's nursery: it must raise nothing."""
        done = True
        try:
            while self._outbox:
                batch, self._outbox = self._outbox, []
                self._inflight, self._outbox_bytes = self._outbox_bytes, 0  # still the server's to count
                closing = any(item is _CLOSE for item in batch)
                if closing:
                    batch = batch[:next(i for i, item in enumerate(batch) if item is _CLOSE)]
                if batch:
                    await self.stream.send_all(batch[0] if len(batch) == 1 else b"".join(batch))
                self.server.queued_bytes -= self._inflight
                self._inflight = 0
                if closing:
                    await self.stream.aclose()
                    break
            else:
                done = False
        except (trio.BrokenResourceError, trio.ClosedResourceError) as error:
            self._ending("connection lost", error=_cause(error))
            self._abort()
        except Exception:  # a bug must cost one connection at most
            LOGGER.exception("session_failed", extra={"fields": {"session": self.id, "name": self.name}})
            self._ending("session failed")
            self._abort()
        finally:
            self.server.queued_bytes -= self._inflight  # (cancelled: the server is closing)
            self._inflight = 0
            self._writing = self._draining = False
            if done:
                self._flushed = True
                if self._flush_waiter is not None:
                    self._flush_waiter.set()

    async def _read(self) -> None:
        sock = _plain_socket(self.stream)
        start = trio.current_time()
        hello_deadline = start + HELLO_SECONDS
        interval = self.server.config.ping_interval
        if interval > 0:
            self.server.schedule_ping(self, start + interval)  # the server's keepalive round pings (Server)
        while not self._closing:
            # The wait has a deadline only while a hello or a frame is awaited: the keepalive is the server's
            # round, not a deadline of every wait (each one a heap entry in trio, cancelled every interval).
            deadline = hello_deadline if self.conn.state is State.AWAIT_HELLO else math.inf
            if self._frame_since is not None:
                deadline = min(deadline, self._frame_since + FRAME_SECONDS)
            if deadline == math.inf:
                # Waits without a deadline (at a table or in the lobby, between frames: nearly every read) and their
                # handling run in one scope, which only `drop` cancels, as it would a scope of the handling's own (no
                # deadline can pass while the handling yields), until a wait needs a deadline again: entering and
                # leaving a trio scope costs ~50 K instructions, ~1% of a board game's action at a table.
                with self._cancel_scope():
                    while not self._closing and self._frame_since is None:
                        try:  # `_receive`, written out: a coroutine less held by every connection that waits
                            if sock is None:
                                data = await self.stream.receive_some(RECEIVE_SIZE)
                            else:
                                await trio.lowlevel.checkpoint_if_cancelled()
                                data = _read_now(sock)
                                if data is not None:
                                    await trio.lowlevel.cancel_shielded_checkpoint()
                                while data is None:
                                    await trio.lowlevel.wait_readable(sock)
                                    data = _read_now(sock)
                        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError) as error:
                            self._log_tls_failure(error)
                            self._ending("connection lost", error=_cause(error))
                            return
                        handled = await self._took(data)
                        data = None  # not kept while the next wait lasts
                        if not self._handled(handled):
                            return
                if self._dropped:
                    return
                continue
            data = None
            with self._cancel_scope(deadline) as waiting:
                data = await self._receive(sock)
            if self._dropped or (data is None and not waiting.cancelled_caught):
                return
            if waiting.cancelled_caught:
                if self.conn.state is State.AWAIT_HELLO and trio.current_time() >= hello_deadline:
                    error = templated("timeout", "no hello within {seconds} s", seconds=format(HELLO_SECONDS, "g"))
                else:
                    error = templated("timeout", "a frame took more than {seconds} s",
                                      seconds=format(FRAME_SECONDS, "g"))
                # (a play-test's slowloris hello left only a `disconnected` line without a reason)
                log("client_error", session=self.id, name=self.name, address=self.address, code=error.code,
                    error=error.message)
                self.send_error(error)
                break
            with self._cancel_scope():  # its own scope: the wait's deadline must not cancel the handling
                handled = await self._took(data)
            data = None  # not kept while the next wait lasts
            if not self._handled(handled):
                return
        if not self._flushed:
            self._flush_waiter = trio.Event()
            with self._cancel_scope(trio.current_time() + FLUSH_SECONDS):
                await self._flush_waiter.wait()

    async def _receive(self, sock) -> bytes | None:
        """What the next read gives (b"" at the end of the stream), or None once the connection is lost (said why).
        For the waits with a deadline; those without one read in `_read` itself (the same steps)."""
        try:
            if sock is None:
                return await self.stream.receive_some(RECEIVE_SIZE)
            # SocketStream.receive_some without its layers (`_plain_socket`), checkpoints as it does; the descriptor
            # is asked for at each read: -1 once the socket is closed (EBADF), never a number another connection has
            # been given since
            await trio.lowlevel.checkpoint_if_cancelled()
            data = _read_now(sock)
            if data is not None:
                await trio.lowlevel.cancel_shielded_checkpoint()
            while data is None:
                await trio.lowlevel.wait_readable(sock)
                data = _read_now(sock)
            return data
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError) as error:
            self._log_tls_failure(error)
            self._ending("connection lost", error=_cause(error))
            return None

    def _handled(self, handled: int | None) -> bool:
        """After a read's handling (`_took`'s count of events, None at the end): whether to read on."""
        if handled is None or self._dropped:
            return False
        if self.conn.state is State.CLOSED:
            self.close()
        # A frame must complete within FRAME_SECONDS of its first byte, so that a client trickling a huge
        # frame (kept alive by its keepalive answers) cannot hold its buffer for ever.
        if self.conn.buffered == 0:
            self._frame_since = None
        elif self._frame_since is None or handled:
            self._frame_since = self._heard_at
        return True

    def _log_tls_failure(self, error: Exception) -> None:
        """A TLS connection that failed before anything came through it (a handshake that is not TLS, or one the
        client gave up: a client that refuses the certificate it was shown) is logged with its address and the
        reason; a connection that merely ended is not."""
        cause = error.__cause__
        if (isinstance(self.stream, trio.SSLStream) and self._tls_hello is None and isinstance(cause, ssl.SSLError)
                and not isinstance(cause, ssl.SSLEOFError)):
            log("client_error", session=self.id, name=self.name, address=self.address, code="tls_failed",
                error=str(cause))

    async def _took(self, data: bytes) -> int | None:
        """Handle what one read gave: the number of events handled, or None at the end of the stream (b"") or once
        the session is dropped."""
        if self._dropped or not data:
            if not data:
                self._ending("closed by the client")
            return None
        self._heard_at = trio.current_time()
        if self._tls_hello is None:
            self._tls_hello = data[0] == TLS_RECORD and not isinstance(self.stream, trio.SSLStream)
        self.conn.receive_data(data)
        handled = 0
        while not self._closing and (event := self.conn.next_event()) is not None:
            if handled:
                # One chunk may hold thousands of small requests: let every other task run between them
                # (not after the last one: the reader waits for bytes next, and lets them run then).
                await trio.lowlevel.checkpoint()
                if self._closing:
                    break
            handled += 1
            await self._handle(event)
        return handled

    def keepalive(self, now: float, interval: float) -> bool:
        """The server's keepalive round, when this session's ping is due: ping the client, or close it if the last
        ping went unanswered (`_keepalive`). Whether to ping again an interval later (not once closing)."""
        if self._closing or not self._running:
            return False
        self._keepalive(interval)
        return not self._closing

    def _keepalive(self, interval: float) -> None:
        """Every `interval` seconds (called by the reader): close a client that said nothing since the last ping,
        else ping it."""
        if self.conn.state not in OPEN:
            return
        if self._ping_at is not None and self._heard_at < self._ping_at:
            self._ending("keepalive timeout", seconds=int(interval) if interval == int(interval) else interval)
            return self.send_error(templated("timeout", "no answer to a ping within {seconds} s",
                                             seconds=format(interval, "g")))
        self._ping_id = (self._ping_id + 1) % 2**32
        self._ping_at = trio.current_time()
        self.send(Ping(self._ping_id))

    async def _leave_table(self) -> None:
        """Tell the table this client was at (or was joining) that it is gone; it frees or holds the name. A name
        claimed for a held seat and never proven is the seat's again. The tables its name created are told their
        creator is gone only if the name was this connection's (its key proven, or none to prove)."""
        self._give_back_held_name()
        if self.table is None or not await self.table.submit(Gone(self)):
            if self.name is not None:
                self.server.lobby.release_name(self.name, self)
        if self.name is not None and self._proof is None:  # (its name its own: proven, or no key to prove; an
            # impostor's failed proof under a creator's name closed the empty table he had made: review rm32)
            await self.server.lobby.creator_gone(self.name)

    # --- what the client sends ----------------------------------------------------------------------------
    async def _handle(self, event) -> None:
        if isinstance(event, ProtocolError):
            if self._tls_hello and event.code == "frame_too_large":
                log("tls_not_offered", session=self.id, error="a TLS handshake on a server that offers plain TCP "
                                                              "only (dt-server --tls offers both)")
                self._ending(TLS_PROBE["reason"])  # (dt-client then connects again in plain TCP)
            else:
                self._log_client("client_error", session=self.id, name=self.name, address=self.address,
                                 code=event.code, error=event.message)
            return self.send_error(event)
        if isinstance(event, Hello):
            return await self._hello(event)
        if self._health_check:  # more than a health check: logged as any connection
            self._health_check = False
            self._log_connected(logging.INFO)
        if isinstance(event, Prove):
            return await self._prove(event)
        if self._proof is not None and not isinstance(event, (Ping, Pong, Error)):
            self._give_back_held_name()
            return self.send_error(ProtocolError("not_proven", f"{event.spec.name} before prove: sign the "
                                                               "welcome's challenge first"))
        if isinstance(event, Ping):
            return self.send(Pong(event.id))
        if isinstance(event, (Pong, Error)):
            if isinstance(event, Error):
                self._log_client("client_reported", session=self.id, code=event.code, error=event.message,
                                 fatal=event.fatal)
                if event.fatal:  # (the connection is closed: the reader closes the session)
                    self._ending("fatal error from the client", code=event.code)
            return None
        if isinstance(event, Chat):
            event = self._checked_chat(event)
            if event is None:
                return None
        if isinstance(event, Resume) and not self._resume_allowed():
            return None
        if isinstance(event, LOOKUPS + READS) and not self._request_allowed(event):
            return None
        if self.conn.state in AT_TABLE:
            table = self.server.lobby.tables.get(self.conn.table)
            if table is None or not await table.submit(Request(self, event)):
                self.send_error(templated("no_such_table", "the table has closed"))
            return None
        await self._lobby_request(event)

    async def _prove(self, prove: Prove) -> None:
        """Section 18: the signature of the challenge proves the hello's key; a name proven for the first time is
        bound to that key for good. Then the seat the hello resumed, if any."""
        if self._proof is None:
            return self.send_error(ProtocolError("bad_proof", "nothing to prove: the hello named no key, or it is "
                                                              "proven already"))
        key, challenge = self._proof
        certificate = self.server.tls_certificate
        secured = isinstance(self.stream, trio.SSLStream)
        if certificate is not None and not secured and self.network:
            # (a proof over plain TCP could be one a relay passed on: over TLS it is bound to this server's certificate)
            log("proof_refused", session=self.id, name=self.name, why="plain")
            self._give_back_held_name()
            return self.send_error(templated("bad_proof", "this server takes key proofs over TLS only (dt-client "
                                             "connects with TLS when the server offers it)"))
        channel = channel_of(certificate if secured else None)
        # v2, bound to the channel; or v1, bound to nothing, from an older client (a relay can pass one of those
        # on: docs/protocol.md section 18), unless the server's admin refuses those (config.unbound_proofs)
        if not check_proof(key, prove.signature, challenge, self.id, self.name, channel):
            unbound = check_proof(key, prove.signature, challenge, self.id, self.name)
            if not unbound or not takes_unbound_proofs(self.server.config):
                log("proof_refused", session=self.id, name=self.name, why="unbound" if unbound else "signature")
                self._give_back_held_name()
                if unbound:  # (its next hello from here is refused before welcome: Lobby.old_client)
                    self.server.lobby.unbound_refused(self.address, key)
                    return self.send_error(templated("bad_proof", UPDATE_CLIENT))
                return self.send_error(templated("bad_proof", "the signature does not prove the hello's key"))
        self._proof = None
        lobby = self.server.lobby
        if lobby.store.identity(self.name) is None:
            lobby.store.bind(self.name, key)
            log("identity_bound", session=self.id, name=self.name)
        if self._deferred is None and self._reclaim is not None:  # the seat held for this name, by the key alone
            table = lobby.tables.get(self._reclaim[0])
            held = table.seating.seats.get(self._reclaim[1]) if table is not None else None
            if held is not None and held.token is not None and held.name == self.name:
                log("seat_reclaimed_by_key", session=self.id, name=self.name, table=table.id)
                self._deferred = (table, Enter(self, held.token, 0))
            self._reclaim = None
        if self._deferred is not None:
            (table, enter), self._deferred = self._deferred, None
            await self._submit(table, enter)
        else:
            self._to_kept_seat()

    def _give_back_held_name(self) -> None:
        """A hello that claimed a held seat's name and failed to prove its key: the name is the seat's again."""
        names = self.server.lobby.names
        if self._reclaim is not None and names.get(key := name_key(self.name)) is self:
            names[key] = self._reclaim
            self._reclaim = None

    def _checked_chat(self, chat: Chat) -> Chat | None:
        """The chat message cleaned of control and bidi characters, or None if it is dropped: empty once
        cleaned, or over the rate limit (the first dropped one of a burst is answered rate_limited)."""
        text = clean_chat(chat.text)
        if not text:
            self.send_error(templated("bad_field", "a chat message needs a printable character"))
            return None
        if not self._spend("_chat", CHAT_BURST, CHAT_PER_SECOND):
            if not self._chat_warned:
                self._chat_warned = True
                self.send_error(templated("rate_limited", "at most {burst} chat messages at once and {rate} a second; "
                                          "messages were dropped", burst=CHAT_BURST, rate=format(CHAT_PER_SECOND, "g")))
            return None
        self._chat_warned = False
        return chat if text == chat.text else Chat(text)

    def _log_client(self, event: str, **fields) -> None:
        """A log line for what the client sent wrong (a message the protocol refuses, an error it reports), within
        CLIENT_LOG_BURST and CLIENT_LOG_PER_SECOND; the others are counted (`disconnected` says how many). A client
        may send such messages without end (each is answered, none closes the connection): one sending them as
        fast as it could wrote 5.4 MB of log a second (red team rt25), a disk filled in hours."""
        # per connection and per address (review rv25: connections made anew, each with its own burst, wrote
        # 13 MB of log a second), and what the client wrote cut short (its 1,000 characters made each line 1.2 KB)
        if (self._spend("_client_logs", CLIENT_LOG_BURST, CLIENT_LOG_PER_SECOND)
                and self.server.client_log_allowed(address_key(self.address))):
            log(event, **{key: _logged(value) for key, value in fields.items()})
        else:
            self._unlogged += 1

    def _spend(self, slot: str, burst: int, rate: float) -> bool:
        """Take one from the connection's rate limit kept in `slot` (a TokenBucket of `burst` and `rate`, made at
        its first use: most connections never chat nor resume); False if none is left."""
        bucket = getattr(self, slot)
        if bucket is None:
            bucket = TokenBucket(burst, rate)
            setattr(self, slot, bucket)
        return bucket.take(trio.current_time())

    def _resume_allowed(self) -> bool:
        """Whether a `resume` is within the rate limit; one that is not is answered rate_limited and dropped."""
        if self._spend("_resume", RESUME_BURST, RESUME_PER_SECOND):
            return True
        self.send_error(templated("rate_limited", "at most {burst} resume requests at once and one every {seconds} "
                                  "seconds", burst=RESUME_BURST, seconds=format(1 / RESUME_PER_SECOND, "g")))
        return False

    def _request_allowed(self, request: Message) -> bool:
        """Whether a lobby request or a store read is within its rate limit (LOOKUP_BURST, STORE_BURST); one that is
        not is answered rate_limited and dropped."""
        if isinstance(request, READS):
            if self._spend("_reads", STORE_BURST, STORE_PER_SECOND):
                return True
            self.send_error(templated("rate_limited", "at most {burst} record or rating requests at once and one "
                                      "every {seconds} seconds", burst=STORE_BURST,
                                      seconds=format(1 / STORE_PER_SECOND, "g")))
            return False
        if self._spend("_lookups", LOOKUP_BURST, LOOKUP_PER_SECOND):
            return True
        self.send_error(templated("rate_limited", "at most {burst} lobby requests at once and {rate} a second",
                                  burst=LOOKUP_BURST, rate=format(LOOKUP_PER_SECOND, "g")))
        return False

    async def _hello(self, hello: Hello) -> None:
        lobby, config = self.server.lobby, self.server.config
        if self.banned is not None:  # (the server logged it by its network: Server._serve_tcp)
            return self._refuse("kicked", "the server's admin banned connections from {network}, until he lifts the "
                                "ban", network=self.banned)
        if self.network and self.server.network_sessions > config.max_connections and not self._back_to_a_seat(hello):
            return self._refuse("server_full", "the server accepts no more connections")
        if lobby.old_client(self.address, hello.key):  # (config.unbound_proofs = false, and its proof was v1)
            return self._refuse("bad_proof", UPDATE_CLIENT)
        problem = name_problem(hello.name) if hello.name != self.bot_name else None
        if problem is not None:
            return self._refuse("bad_name", problem)
        if hello.name != self.bot_name and name_key(hello.name) in lobby.banned_names:  # (config.banned_names)
            return self._refuse("bad_name", "the name {name} is not allowed on this server", name=repr(hello.name))
        if hello.name != self.bot_name and (minutes := lobby.kicked_for(hello.name)) is not None:
            # (dt-server admin kick NAME --minutes N, server/admin.py)
            return self._refuse("kicked", "the server's admin closed the connection of {name}: it may connect again "
                                "in {minutes} min", name=repr(hello.name), minutes=minutes)
        bound = lobby.store.identity(hello.name) if hello.name != self.bot_name else None
        if bound is not None and hello.key != bound[1]:  # section 18: a bound name is its key's, and no one else's
            if hello.key:
                return self._refuse("name_taken", "the name {name} belongs to another key on this server",
                                    name=repr(hello.name))
            return self._refuse("name_taken", "the name {name} is bound to a key on this server: connect with the "
                                "client that holds it", name=repr(hello.name))
        if bound is not None and bound[0] != hello.name:  # one player, one spelling: what the others know him by
            return self._refuse("name_taken", "your key's name is spelled {spelling} on this server, not {name}",
                                spelling=repr(bound[0]), name=repr(hello.name))
        if bound is None and hello.name != self.bot_name:
            if name_key(hello.name) in lobby.reserved_names:  # (config.reserved_names: bound already, or nobody's)
                return self._refuse("bad_name", "the name {name} is reserved on this server", name=repr(hello.name))
            if hello.key is not None and (wait := lobby.take_binding(self.address)) is not None:
                # (config.max_new_names_per_hour: each binding is for good, a row of the store; ad29's script bound
                # 199 names in 3 s from one address)
                return self._refuse("bad_name", "too many new names from your address lately: try again in "
                                    "{minutes} min, or connect with a name you have used here before", minutes=wait)
        claimed = lobby.claim_name(hello.name, self, hello.resume, key_owner=bound is not None)
        if not claimed:
            return self._refuse("name_taken", "the name {name} is already used on this server", name=repr(hello.name))
        self._reclaim = claimed if isinstance(claimed, tuple) else None
        self.name = hello.name
        challenge = secrets.token_bytes(CHALLENGE_SIZE) if hello.key is not None else None
        self._proof = (hello.key, challenge) if challenge is not None else None
        self._queue(self.conn.answer_hello(Software(config.name, VERSION), self.id, FEATURES, challenge))
        if self.conn.state is State.CLOSED:  # refused version_unsupported
            self._ending("refused", code="version_unsupported")
            lobby.release_name(self.name, self)
            return self.close()
        self._health_check = hello.client.name == HEALTH_SOFTWARE.name and hello.resume is None
        self._log_connected(logging.DEBUG if self._health_check else logging.INFO)
        if hello.resume is not None:
            ref = lobby.tokens.get(hello.resume.token)
            if (ref is None or ref.table.id != hello.resume.table or ref.name != hello.name
                    or (ref.seat is None) != self.is_spectator):
                self.send_error(templated("bad_token", "this resume token is unknown or expired"))
                return self._to_kept_seat()
            enter = Enter(self, hello.resume.token, hello.resume.last_event)
            if self._proof is not None:  # the seat waits for the proof of the key
                self._deferred = (ref.table, enter)
                return None
            await self._submit(ref.table, enter)
        else:
            self._to_kept_seat()

    def _to_kept_seat(self) -> None:
        """A player back in the lobby (a hello that resumes nothing, or a seat the server no longer knows) for whom
        a table keeps a seat he has not taken (a rematch's, a kept seat's: the server moved him there, and his
        connection or the server itself went before he sat; after a restart the old table's token is gone) is
        taken to it, as the move would have taken him: `table_created` (with a private table's join code), then
        the table seats him (`joined`, its snapshot: Table.take_player). Before, he landed in the lobby and had
        to find the table and `join` it himself (rm31 left it). Not a spectator's connection, nor a bot's, nor a
        health check's; not before the hello's key is proven (`_prove` calls this once it is); to a private table's
        seat only a name its key proved."""
        if (self.is_spectator or self.bot_name is not None or self._health_check or self._proof is not None
                or self.table is not None or self.moving_to is not None or self.conn.state is not State.LOBBY
                or self.name is None):
            return
        found = self.server.lobby.kept_seat(self.name)
        if found is None:
            return
        table, seat = found
        if table.join_code is not None and self.server.lobby.store.identity(self.name) is None:
            # a private table's seat, for a name no key proves: anyone may claim such a name while its player is
            # away, and the join code was what kept him out of the table; its player joins it with the code, as
            # before (review rv32)
            return log("kept_seat_not_taken", session=self.id, name=self.name, table=table.id, seat=seat,
                       why="private table, a name without a key")
        if not table.take_player(self, seat):  # (its inbox full or closed: the seat stays kept, `join` takes it)
            self.table = None
            return log("kept_seat_not_taken", session=self.id, name=self.name, table=table.id, seat=seat)
        self.send(TableCreated(table.id, table.join_code))  # (before the table's `joined`: its task runs later)
        log("taken_to_kept_seat", session=self.id, name=self.name, table=table.id, seat=seat)

    def _back_to_a_seat(self, hello: Hello) -> bool:
        """Whether `hello` resumes a seat the server holds for this name: max_connections keeps newcomers out, not a
        player coming back to his game (play-test pt26: idle lobby connections kept a seated player out until his
        seat was nearly lost). There are at most two such seats a table, so the limit still bounds the server."""
        ref = self.server.lobby.tokens.get(hello.resume.token) if hello.resume is not None else None
        return (ref is not None and ref.seat is not None and ref.table.id == hello.resume.table
                and ref.name == hello.name and not self.is_spectator)

    def _log_connected(self, level: int) -> None:
        hello = self.conn.hello
        log("connected", level=level, session=self.id, name=self.name, address=self.address, role=hello.role,
            client=hello.client.name, resume=hello.resume is not None)

    def _refuse(self, code: str, template: str, /, **values: str | int) -> None:
        """Refuse the hello and close: `template` is the reason as an English str.format template (marked for the
        client's catalogue: Babel keyword `_refuse:2`) and `values` its values (refused.template/values)."""
        # a server turning players away is the operator's business (warning: the first, then a count a minute while
        # they go on, admin review 21: a line each flooded the log); a name taken or refused is theirs
        name = self.conn.hello.name if self.conn.hello else None
        if code == "server_full":
            self.server.refused_quietly(code, None, self.server.config.max_connections, session=self.id, name=name,
                                        address=self.address)
        elif self.banned is not None:
            pass  # (logged by its network as it connected: Server.refused_quietly)
        elif template == UPDATE_CLIENT:  # an old client's hellos (Lobby.old_client): one line, then a count a minute
            self.server.refused_quietly("old_client", self.address, int(OLD_CLIENT_SECONDS), session=self.id,
                                        name=name)
        else:
            log("refused", level=logging.INFO, session=self.id, code=code, name=name, address=self.address)
        reason = template.format(**values)
        template, values = fit_template(template, values)
        self._queue(self.conn.send(Refused(code, reason[:TEXT.max_len], template, values)))
        self._ending("refused", code=code)
        self.close()

    async def _lobby_request(self, message: Message) -> None:
        lobby = self.server.lobby
        if isinstance(message, ListTables):
            self.send(lobby.table_infos(message.offset, message.limit))
        elif isinstance(message, GetRecord):
            self._send_record(message.table, message.join_code)
        elif isinstance(message, ListRatings):
            self.send(Ratings(tuple(RatingInfo(name, round(rating), round(rd), games) for name, rating, rd, games
                                    in lobby.store.leaderboard(message.limit))))
        elif isinstance(message, ListGames):
            games, total = lobby.store.finished_games(message.offset, message.limit)
            self.send(Games(tuple(info for info in map(game_info, games) if info is not None), total,
                            message.offset))
        elif isinstance(message, Chat):
            lobby.chat(self, message.text)
        elif isinstance(message, CreateTable):
            if self.server.closing:  # (not the client's fault: not bad_field, as the lobby's ValueError would say)
                return self.send_error(templated("not_allowed", "the server is shutting down: no new table"))
            try:
                table = lobby.create_table(message.options, self.name, self.address)
            except TooManyTables as error:
                return self.send_error(templated("not_allowed", error.template, **error.values))
            except ValueError as error:
                return self.send_error(ProtocolError("bad_field", f"create_table: {error}"))
            self.send(TableCreated(table.id, table.join_code))
        elif isinstance(message, (Join, Spectate)):
            if self.moving_to is not None:
                return self.send_error(templated("not_allowed", "the server is taking you to table {table}: wait "
                                                 "for it", table=self.moving_to.id))
            table = lobby.tables.get(message.table)
            if table is None:
                return self.send_error(templated("no_such_table", "there is no table {table}",
                                                 table=repr(message.table)))
            await self._submit(table, Request(self, message))
        else:
            self.send_error(ProtocolError("wrong_state", f"{message.spec.name} is not handled in the lobby"))

    def _send_record(self, table_id: str, join_code: str | None) -> None:
        """A finished game's record (it reveals every hidden fact: never before the end); a private table's to one
        who gives its join code (its players, who verify their game: a play-test's could not)."""
        stored = self.server.lobby.store.table_named(table_id)
        if stored is None or (stored.options.get("private") and not code_matches(join_code, stored.join_code)):
            return self.send_error(templated("no_such_table", "there is no public table {table}", table=repr(table_id)))
        table_id = stored.id  # (asked for by its number: the record names its id)
        if stored.status == "pruned":  # (dt-server prune: its result kept, its record let go)
            return self.send_error(templated("not_allowed", "the record of table {table} is no longer kept on this "
                                             "server", table=table_id))
        if stored.status != "over":
            return self.send_error(templated("not_allowed", "the game of table {table} is not over: its record reveals "
                                             "every hidden fact", table=table_id))
        text = record_text(stored)
        if len(text) <= RECORD_TEXT.max_len and not self._closing:
            try:
                data = self.conn.send(GameRecord(table_id, text))
            except ProtocolError:  # a frame longer than this server sends (its max_frame_size): refused all the
                data = None        # same, not left unanswered (a client would wait for ever)
            if data is not None:
                return self._queue(data)
        self.send_error(templated("not_allowed", "the record of table {table} is too long to send "
                                  "(dt-server records prints it)", table=table_id))

    async def _submit(self, table: Table, item) -> None:
        """Hand a request to a table and wait until it is handled, so that answers keep the requests' order."""
        self.table = table
        item.done = trio.Event()
        if not await table.submit(item):
            if table.stopped:  # a play-test's players, told "seat given up", forgot their seats on a full disk
                try:
                    revived = self.server.revive_table(table)  # (the store answers again: the game as it was kept)
                except TableGone:  # never to come back: a resume is told its token is no more (to the lobby)
                    self.table = None
                    if isinstance(item, Enter):
                        self.send_error(templated("bad_token", "this resume token is unknown or expired"))
                        return self._to_kept_seat()
                    return self.send_error(templated("no_such_table", "table {table} has closed", table=table.id))
                if revived is not None:
                    return await self._submit(revived, item)
                return self.send_error(game_stopped(table.id))
            return self.send_error(templated("no_such_table", "table {table} has closed", table=table.id))
        await item.done.wait()


UPDATE_CLIENT = N_("this server needs a newer dt-client (of 2026-11-30 or later) to prove your key: update dt-client")
"""The template of a key proof bound to nothing, refused (config.unbound_proofs = false): in the fatal bad_proof
after welcome, then in the `refused` of that client's next hellos (Lobby.old_client), which it shows and stops on."""


LOGGED_TEXT = 200
"""The characters of a client's own text (an error it reports, a field it got wrong) that the log keeps."""


def _logged(value):
    """A log line's field as written: a text from the client cut to LOGGED_TEXT, with its length."""
    if isinstance(value, str) and len(value) > LOGGED_TEXT:
        return f"{value[:LOGGED_TEXT]}... ({len(value)} characters)"
    return value


def _read_now(sock) -> bytes | None:
    """What the socket holds (b"" at its end), or None if nothing yet. Its BlockingIOError is caught here, not in
    the reader: an exception caught in the reader's coroutine gives it a frame object and a traceback, and the
    exception, handled while the reader waited in its `except` block, stayed with them (~0.5 KB a connection that
    waits, as most of a server's do: issue 7, row 5)."""
    try:
        return os.read(sock.fileno(), RECEIVE_SIZE)
    except BlockingIOError:
        return None


def _plain_socket(stream):
    """The socket a plain TCP connection's reader reads straight from (POSIX), or None (TLS, in-memory pipes,
    another platform). `SocketStream.receive_some` goes through five layers of coroutines (its error translation,
    the socket's method wrapper and non-blocking helper, trio's wait), all kept while the reader waits, as most
    readers of a server do; reading the descriptor saves them. An error reading it ends the connection, as a
    broken stream's does."""
    if os.name == "posix" and type(stream) is trio.SocketStream:
        return stream.socket
    return None


def _cause(error: BaseException) -> str:
    """What broke a connection, in a few words: the operating system's error under trio's (connection reset...)."""
    cause = error.__cause__ if error.__cause__ is not None else error
    return (str(cause) or type(cause).__name__)[:200]
