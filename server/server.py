"""The server: a TCP listener and one nursery for every connection, table and bot; graceful shutdown."""

from __future__ import annotations

import heapq
import itertools
import logging
import secrets
import socket
import time
from collections.abc import Callable
from pathlib import Path
from weakref import ref

import trio
import trio.testing

from dungeon_twister.protocol import ServerClosing

from .pipes import pipe_pair
from .ratelimit import Buckets, address_key, banned_by, banned_networks
from .config import QUEUED_FRAMES_OF_MAX, ServerConfig
from .discovery import answer_queries
from .admin import admin_listener, serve_admin
from .chatlog import DIRECTORY as CHAT_LOG_DIRECTORY, ChatLog
from .gcpolicy import tame_gc
from .lobby import Lobby
from .logs import log
from .recovery import restore_tables, revive_table
from .session import VERSION, Session
from .storage import Storage
from .stores import open_configured
from .tls import certificate_der, maybe_tls, server_context

SHUTDOWN_SECONDS = 5.0
"""How long shutdown waits for clients to receive server_closing."""
FIRST_BYTE_SECONDS = 30.0
"""With TLS on: how long a new connection may stay silent before its first byte tells TLS from plain TCP."""
ADDRESS_LOG_BURST, ADDRESS_LOG_PER_SECOND, LOGGED_ADDRESSES = 30, 2.0, 10_000
"""The log lines about one address's mistakes, all its connections together: a burst, then a rate a second, for
the addresses seen last (each connection has its own smaller share too: session.CLIENT_LOG_BURST)."""
REFUSALS_LOG_SECONDS = 60.0
"""Connections refused over max_connections_per_address (per address) or server_full (all together) are logged:
the first at once, then how many were refused in each such period while they go on (a flood of them would flood
the log too)."""
KEEPALIVE_GATHER = 0.05
"""The keepalive round (`Server._keepalive_round`) wakes at most this often: the pings due meanwhile go together,
each at most this late."""
KEEPALIVE_SLICE = 50
"""Pings the keepalive round sends between two checkpoints."""


class Server:
    """`await nursery.start(server.run)` restores the store's unfinished tables, listens (port 0: any free port,
    see `address`) and serves until `shutdown()`. `seed_source` draws each game's seed (default: `secrets`).
    `storage`: the durable store (default: the one of `config.database` or `config.data_dir`, opened now and
    closed when `run` ends; in memory if neither is set)."""

    def __init__(self, config: ServerConfig = ServerConfig(), *, seed_source: Callable[[], int] | None = None,
                 storage: Storage | None = None, admin_socket: Path | None = None, config_path: Path | None = None):
        self.config = config
        self.admin_socket = admin_socket
        """Where the admin's control socket listens (server/admin.py; the dt-server command's is in the data
        directory); None: no control socket (embedded servers, most tests)."""
        self.config_path = config_path
        """The settings file the config was read from, which `dt-server admin reload` reads again (None: none)."""
        self._owns_storage = storage is None
        self.storage = storage or open_configured(config)
        self.seed_source = seed_source or (lambda: secrets.randbits(63))
        self.seeded = seed_source is not None
        """The games' seeds are given (tests, `dt-server --game-seeds`): the tables' ids follow from them too."""
        self.session_salt = secrets.token_hex(3)
        self.lobby = Lobby(self)
        self.sessions: set[Session] = set()
        self._pings: list = []
        """The keepalive schedule: a heap of (due, order, weak reference to a session) (`schedule_ping`)."""
        self._ping_order = itertools.count()
        self._pings_came = trio.Event()
        self.network_sessions = 0
        self._banned = banned_networks(config.banned_addresses)
        """config.banned_addresses, parsed once."""
        self._per_address: dict[str, int] = {}
        self._client_logs = Buckets(ADDRESS_LOG_BURST, ADDRESS_LOG_PER_SECOND, LOGGED_ADDRESSES)
        """The log lines left for each address's mistakes (`client_log_allowed`)."""
        """Network connections open from each IP address, an IPv6 one by its /64 (config.max_connections_per_address,
        ratelimit.address_key)."""
        self._refusals: dict[tuple[str, str | None], int] = {}
        """The refusals being counted (`refused_quietly`), by (code, address): how many were refused since the last
        log line."""
        self.address: tuple[str, int] | None = None
        self.discovery_off: str | None = None
        """Why LAN discovery, asked for (config.discovery), could not bind its UDP port (the error), once
        `discovery_settled`; None when it answers or was not asked for."""
        self.discovery_settled = trio.Event()
        """Set once LAN discovery has tried its UDP port (at once when it is off): the dt-server command waits for it
        before it prints the start's line that names `dt-client discover` (app.serve)."""
        self.closing = False
        self._nursery: trio.Nursery | None = None
        self._listening = trio.CancelScope()
        self._all_gone = trio.Event()
        self.queued_bytes = 0
        """The bytes queued for every connection, and being written to it (Session._queued, holding_bytes)."""
        self.queued_limit = config.max_queued_bytes or QUEUED_FRAMES_OF_MAX * config.max_frame_size
        """Over this, connections are dropped: the largest of the address holding the most first
        (`over_queued_limit`)."""
        self.holding = False
        """A table's step is running: the sessions it queues frames for are `held` until it has committed."""
        self.held: list[Session] = []
        self.tls_context, self.tls_fingerprint, self.tls_certificate = None, None, None
        if config.tls:  # TLS beside plain TCP on the same port (tls.py): the certificate lives in the data directory
            if config.data_dir is None:
                raise ValueError("TLS needs a data directory for its certificate (--data DIR)")
            self.tls_context, self.tls_fingerprint = server_context(Path(config.data_dir), config.name)
            self.tls_certificate = certificate_der(Path(config.data_dir))
        self.chat_log: ChatLog | None = None
        """The chat log (config.chat_log: chatlog.py), None when off (or without a data directory)."""
        if config.chat_log and config.data_dir is not None:
            self.chat_log = ChatLog(Path(config.data_dir) / CHAT_LOG_DIRECTORY, config.chat_log_days,
                                    config.chat_log_max_day_mb << 20)

    def log_chat(self, session: Session | None, table: str | None, seat: str | None, text: str) -> None:
        """A chat line passed on, into the chat log if it is on: `session`'s (None: the admin's announcement)."""
        if self.chat_log is None:
            return
        if session is None:
            self.chat_log.write(table=table, name=self.config.name, role="admin", seat=None, address=None,
                                session=None, text=text)
            return
        self.chat_log.write(table=table, name=session.name, seat=seat, address=session.address, session=session.id,
                            role="spectator" if session.is_spectator else "player", text=text)

    def moderation(self) -> None:
        """Take the moderation settings of `config` (banned_addresses here, the names in the lobby): at `dt-server
        admin reload`."""
        self._banned = banned_networks(self.config.banned_addresses)
        self.lobby.moderation(self.config)

    def over_queued_limit(self, session: Session) -> bool:
        """More is queued for the clients than `queued_limit`: drop connections (`_holding_most`) until it is not;
        whether `session` (whose frame went over) was one of them. Each connection's outbox is bounded
        (Session._queue), but a thousand connections that read nothing could each hold its limit, 4 MiB, and 8 GB
        in all (review rv25); clients that read hold little, so those dropped are the ones not reading."""
        while self.queued_bytes > self.queued_limit:
            largest = self._holding_most()
            if largest is None:
                break
            largest.drop("too slow: server outbox full")
            if largest is session:
                return True
        return False

    def _holding_most(self) -> Session | None:
        """The connection to drop first for the queues' budget: the one holding the most of the address (an IPv6
        address by its /64) whose connections hold the most together. By connection alone, a host whose many
        connections each held a little less than one large frame (a record kept unread) made an honest client
        with one large frame in flight the largest, and had him dropped (review rv26). None if nothing is held."""
        by_address: dict = {}
        for one in self.sessions:
            if one.holding_bytes:
                key = address_key(one.address) or one  # (no address: in memory, its own)
                by_address[key] = by_address.get(key, 0) + one.holding_bytes
        if not by_address:
            return None
        worst = max(by_address, key=by_address.__getitem__)
        return max((one for one in self.sessions if (address_key(one.address) or one) == worst),
                   key=lambda one: one.holding_bytes)

    def client_log_allowed(self, address: str | None) -> bool:
        """Whether a connection from `address` may write a line about its mistakes now (Session._log_client): the
        address's burst and rate, whatever connections it opens (review rv25: each new one had a burst of its
        own); a connection of no address (in memory: bots, tests) always may."""
        return address is None or self._client_logs.take(address, trio.current_time())

    @property
    def port(self) -> int:
        assert self.address is not None, "the server is not listening yet"
        return self.address[1]

    async def run(self, *, task_status=trio.TASK_STATUS_IGNORED) -> None:
        try:
            try:
                listeners = await _listen(self.config.host, self.config.port)
            except OSError as error:  # the port is taken, the host is not this machine's or not a name at all
                raise OSError(error.errno, f"cannot listen on {self.config.host or '*'}:{self.config.port}: "
                                           f"{error.strerror or error}") from error
            self.address = tuple(listeners[0].socket.getsockname()[:2])
            if any(listener.socket.family == socket.AF_INET6 for listener in listeners[1:]):
                # "::" listens on IPv4 and IPv6 (`_listen`): said so, not as its first listener's "0.0.0.0", which
                # read as "IPv6 off" to an admin who checked (play-test ad29)
                self.address = ("::", self.address[1])
            async with trio.open_nursery() as nursery:
                self._nursery = nursery
                restored = restore_tables(self)
                self.lobby.restore_kicks()
                # (tls: the certificate's fingerprint, None without TLS: play-test ad29, the printed line is not
                # JSON, and an admin's jq over the journal stops at it)
                log("listening", host=self.address[0], port=self.address[1], name=self.config.name,
                    data=self.storage.location, restored=len(restored), tls=self.tls_fingerprint, version=VERSION)
                if self.config.unbound_proofs is False and self.tls_certificate is None:  # (review rv28)
                    log("unbound_proofs_without_tls", level=30, why="without TLS no key proof is bound to anything: "
                        "unbound_proofs = false only turns away clients of before 2026-11-30")
                if self.config.chat_log:
                    if self.chat_log is None:
                        log("chat_log_unavailable", level=logging.WARNING, why="chat_log needs a data directory")
                    else:
                        log("chat_log", directory=str(self.chat_log.directory), days=self.config.chat_log_days)
                        nursery.start_soon(self._chat_log_upkeep)
                if self.admin_socket is not None:  # the admin's control channel (server/admin.py)
                    control = await admin_listener(self.admin_socket)
                    if control is not None:
                        nursery.start_soon(serve_admin, self, control, self.admin_socket)
                nursery.start_soon(self._accept, listeners)
                nursery.start_soon(tame_gc)
                nursery.start_soon(self.lobby.send_table_updates)
                if self.config.ping_interval > 0:
                    nursery.start_soon(self._keepalive_round)
                if self.config.discovery:  # LAN discovery: a UDP answer on the same port number (discovery.py)
                    nursery.start_soon(answer_queries, self.config.host, self.address[1], self.config.name,
                                       self.tls_fingerprint, self._discovery_bound)
                else:
                    self.discovery_settled.set()
                task_status.started(self)
            if self.closing:  # every task has ended (their last lines said): the log's last line (play-test pt26 F10:
                log("stopped")  # it came before the `disconnected` and `table_kept` lines of the tasks it stopped)
        finally:
            if self.chat_log is not None:
                self.chat_log.close()
            if self._owns_storage:
                self.storage.close()

    def _discovery_bound(self, off: str | None) -> None:
        """answer_queries tried its UDP port: `off`, why it could not bind it (None: it answers)."""
        self.discovery_off = off
        self.discovery_settled.set()

    async def _chat_log_upkeep(self) -> None:
        """The chat log's files older than its days deleted at start and every hour (not only at a day's first
        chat line: a server where nobody chats for a while keeps no line longer than it says)."""
        while True:
            if self.chat_log.directory.is_dir():
                try:
                    self.chat_log.delete_old(time.time())
                except OSError as error:
                    log("chat_log_failed", level=logging.WARNING, directory=str(self.chat_log.directory),
                        error=error.strerror or str(error))
            await trio.sleep(3600)

    def schedule_ping(self, session: Session, due: float) -> None:
        """`session`'s next keepalive is due at `due` (`_keepalive_round`). The schedule holds the session by a weak
        reference: a connection that ends is not kept for its next ping."""
        heapq.heappush(self._pings, (due, next(self._ping_order), ref(session)))
        if len(self._pings) == 1:
            self._pings_came.set()

    async def _keepalive_round(self) -> None:
        """Each session pings its client every ping interval, or closes it when the last ping went unanswered
        (`Session.keepalive`), at the time its own schedule says (`schedule_ping`, a heap by time), the pings
        due within KEEPALIVE_GATHER together. One task for all: a ping deadline on every read had cost the readers
        a deadline in trio's heap per wait and a cancellation per interval (at 2,000 games, 4,000 connections:
        about 3 points of a core). Checking every connection once a second instead sent the pings of those that
        connected in the same second at once, hundreds in one burst. It yields every KEEPALIVE_SLICE pings."""
        interval = self.config.ping_interval
        pings = self._pings
        while True:
            if not pings:
                self._pings_came = trio.Event()
                await self._pings_came.wait()
                continue
            await trio.sleep_until(max(pings[0][0], trio.current_time() + KEEPALIVE_GATHER))
            now = trio.current_time()
            sent = 0
            while pings and pings[0][0] <= now:
                session = heapq.heappop(pings)[2]()
                if session is None or not session.keepalive(now, interval):
                    continue  # gone, or closing: no more pings
                self.schedule_ping(session, now + interval)
                sent += 1
                if sent % KEEPALIVE_SLICE == 0:
                    await trio.lowlevel.checkpoint()

    async def _accept(self, listeners) -> None:
        with self._listening:
            await trio.serve_listeners(self._serve_tcp, listeners, handler_nursery=self._nursery)

    async def _serve_tcp(self, stream: trio.SocketStream) -> None:
        address = peer_address(stream)
        banned = banned_by(address, self._banned) if self._banned else None
        if banned is not None:
            # (counted by the banned network: a host taking a new address of its /32 each time had a warning line
            # and a counting task per connection, review rv29). Its hello is refused `kicked`, saying why: closed
            # before a byte, dt-client took it for a lost connection and tried again every 5 s for an hour
            # (play-test pt31). Within the per-address cap, its whole banned network counted as one address: served
            # up to its hello, each of the network's addresses (a /24, an IPv6 /32's many /64s) had held its own
            # share of max_connections for HELLO_SECONDS, where the ban had closed them at once (review rv31b).
            self.refused_quietly("banned_address", str(banned), 0)
        key = address_key(address) if banned is None else str(banned)  # (an IPv6 address counts by its /64)
        cap = self.config.max_connections_per_address
        if cap and key is not None:
            if self._per_address.get(key, 0) >= cap:
                self._refused_over_cap(key)
                await trio.aclose_forcefully(stream)
                return
            self._per_address[key] = self._per_address.get(key, 0) + 1
        self.network_sessions += 1
        try:
            if self.tls_context is not None:
                served = None
                with trio.move_on_after(FIRST_BYTE_SECONDS) as waiting:  # a client that never speaks is let go
                    try:
                        served = await maybe_tls(stream, self.tls_context)
                    except OSError:  # reset before its first byte
                        pass
                if served is None and waiting.cancelled_caught:
                    log("client_error", session=None, name=None, address=address, code="timeout",
                        error=f"nothing sent within {FIRST_BYTE_SECONDS:g} s")
                if served is None:
                    await trio.aclose_forcefully(stream)
                    return
                stream = served
            await Session(self, stream, network=True, address=address,
                          banned=str(banned) if banned is not None else None).run()
        finally:
            self.network_sessions -= 1
            if cap and key is not None:
                if self._per_address[key] == 1:
                    del self._per_address[key]
                else:
                    self._per_address[key] -= 1

    def _refused_over_cap(self, address: str) -> None:
        """Log a connection refused over max_connections_per_address without letting a flood flood the log
        (`refused_quietly`), per address: a host to firewall, or a cap to raise behind a proxy."""
        self.refused_quietly("too_many_connections", address, self.config.max_connections_per_address)

    def refused_quietly(self, code: str, address: str | None, limit: int, /, **first) -> None:
        """Log a refused connection without letting a flood of them flood the log: the first one of (`code`,
        `address`) at once (`first`: the fields of its line), then one line every REFUSALS_LOG_SECONDS with how many
        were refused in it, as long as some were (a warning each). `address` None counts every address together
        (server_full: the server's own limit, whoever knocks); `limit` the limit they were refused over."""
        key = (code, address)
        if key in self._refusals:
            self._refusals[key] += 1
            return
        self._refusals[key] = 0
        log("refused", level=logging.WARNING, **{"session": None, "name": None, "address": address, **first},
            code=code, count=1, limit=limit)
        self.start(self._count_refusals, key, limit)

    async def _count_refusals(self, key: tuple[str, str | None], limit: int) -> None:
        code, address = key
        while True:
            await trio.sleep(REFUSALS_LOG_SECONDS)
            count = self._refusals[key]
            if not count:
                del self._refusals[key]
                return
            self._refusals[key] = 0
            log("refused", level=logging.WARNING, session=None, code=code, name=None, address=address, count=count,
                seconds=int(REFUSALS_LOG_SECONDS), limit=limit)

    def start(self, async_fn, *args) -> None:
        """Run a task (a table, a bot, a connection) in the server's nursery."""
        assert self._nursery is not None, "the server is not running"
        self._nursery.start_soon(async_fn, *args)

    def revive_table(self, stopped):
        """recovery.revive_table: a table its store's failure stopped, back once the store answers (or None)."""
        return revive_table(self, stopped)

    def flush_held(self) -> None:
        """After a table's step has committed: write what it queued (Session.flush)."""
        self.holding = False
        held, self.held = self.held, []
        for session in held:
            session.flush()

    def connect_memory(self, *, lockstep: bool = False, bot_name: str | None = None) -> trio.abc.Stream:
        """A client end of an in-memory connection served like a TCP one (bots and tests). With `lockstep`, the
        server's writes wait until the client reads, like a congested network. `bot_name`: the connection of
        one of the server's bots, the only one that may say hello with that reserved name."""
        pair = trio.testing.lockstep_stream_pair if lockstep else pipe_pair
        client, server_end = pair()
        self.start(Session(self, server_end, bot_name=bot_name).run)
        return client

    def session_gone(self, session: Session) -> None:
        self.sessions.discard(session)
        if self.closing and not self.sessions:
            self._all_gone.set()

    async def shutdown(self, reason: str = "the server is shutting down") -> None:
        """Stop accepting, send server_closing to every client, let them go, then stop every task."""
        if self.closing or self._nursery is None:
            return
        self.closing = True
        log("shutting_down", clients=len(self.sessions), tables=len(self.lobby.tables))
        self._listening.cancel()
        for session in list(self.sessions):
            session.close(ServerClosing(reason))
        if not self.sessions:
            self._all_gone.set()
        with trio.move_on_after(SHUTDOWN_SECONDS):
            await self._all_gone.wait()
        self._nursery.cancel_scope.cancel()


async def _listen(host: str, port: int) -> list[trio.SocketListener]:
    """The TCP listeners of `host`: "::" (or "") is every address, IPv6 and IPv4, as admins expect of it (trio's
    "::" alone is IPv6 only, while LAN discovery answers over IPv4: a play-test's discovered address refused
    him), on one port number, also when `port` is 0 (any free one: each family would get its own)."""
    if host not in ("", "::"):
        return await trio.open_tcp_listeners(port, host=host)
    listeners = await trio.open_tcp_listeners(port, host="0.0.0.0")
    try:
        listeners += await trio.open_tcp_listeners(listeners[0].socket.getsockname()[1], host="::")
    except OSError:  # no IPv6 on this machine
        pass
    return listeners


def peer_address(stream) -> str | None:
    """The IP address a TCP connection comes from; None if it is not a socket's, or its peer is gone already."""
    try:
        return stream.socket.getpeername()[0]
    except (AttributeError, OSError):
        return None
