"""The sans-IO connection common to every role: bytes in, events out; messages in, bytes out.

Both ends track the same state (states.py); every message is checked against the registry (roles, state,
version) and against the table the connection is at, whether it is sent or received.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import ClassVar

import msgpack

from .codec import decode_message, encode_message, pack_map, unpack_map
from .errors import Fault, ProtocolError
from .events import Event
from .framing import DEFAULT_MAX_FRAME_SIZE, HEADER_SIZE, FrameReader, frame
from .kinds import TEXT, fit_template
from .fields import wire_fields
from .msg_game import TableEvent
from .msg_handshake import Hello, Welcome
from .msg_lobby import Joined, Left
from .msg_session import Error
from .registry import Message
from .roles import CLIENT_ROLES, Role
from .states import AT_A_TABLE, State, state_after
from .versions import PROTOCOL_VERSIONS
from .wire_types import FieldError, Packed


class Connection(ABC):
    """One end of one connection. Subclasses fix `role`.

    Feed received bytes to `receive_data`, then call `next_event` until it returns None (more data needed, or
    the connection is closed: see `state`). `send` turns a message into the bytes to write, or raises
    ProtocolError (fault "local") if this end may not send it now; nothing changes then.
    """

    role: ClassVar[Role]

    def __init__(
        self, *, versions: Sequence[int] = PROTOCOL_VERSIONS, max_frame_size: int = DEFAULT_MAX_FRAME_SIZE,
        max_receive_size: int | None = None,
    ) -> None:
        """`max_frame_size`: the longest frame this end sends and, unless `max_receive_size` says less, receives
        (section 2: a longer one received is frame_too_large, from its header alone)."""
        if not versions:
            raise ValueError("a connection needs at least one protocol version")
        self.versions = tuple(versions)
        self.max_frame_size = max_frame_size
        self.max_receive_size = max_frame_size if max_receive_size is None else max_receive_size
        self.state = State.AWAIT_HELLO
        self.hello: Hello | None = None
        self.version: int | None = None
        """The negotiated version, once welcome went through."""
        self.table: str | None = None
        self.seat: str | None = None
        """The player's seat at `table` (None for a spectator)."""
        self.features: frozenset[str] = frozenset()
        """The optional features in use on this connection: those the server's welcome named."""
        self._reader = FrameReader(self.max_receive_size)

    @property
    @abstractmethod
    def client_role(self) -> Role | None:
        """The role of the client end (None while a server has not received hello)."""

    @property
    @abstractmethod
    def peer_role(self) -> Role | None:
        """The role of the other end (None while a server has not received hello)."""

    @property
    def buffered(self) -> int:
        """Bytes of an incomplete frame (or of frames not yet taken with `next_event`) held by this end."""
        return self._reader.buffered

    def receive_data(self, data: bytes) -> None:
        """Bytes received from the peer; ignored once the connection is closed."""
        if self.state is not State.CLOSED:
            self._reader.feed(data)

    def next_event(self) -> Event | None:
        """The next message, RevealMismatch or ProtocolError (returned, not raised; fault "remote"), or None.

        After a fatal ProtocolError the state is CLOSED and nothing more is read.
        """
        while self.state is not State.CLOSED:
            try:
                body = self._reader.next_frame()
                if body is None:
                    return None
                message = decode_message(unpack_map(body, self.max_receive_size))
                self._check(message, outgoing=False)
                event = self._receive(message)
            except ProtocolError as error:
                if error.fatal:
                    self.state = State.CLOSED
                return error
            if event is not None:
                return event
        return None

    def send(self, message: Message) -> bytes:
        """The frame carrying `message`; raises ProtocolError (fault "local") if it may not be sent."""
        self._check(message, outgoing=True)
        self._check_send(message)
        data = frame(pack_map(encode_message(message)), self.max_frame_size)
        self._advance(message)
        return data

    def send_framed(self, message: Message, data: bytes) -> bytes:
        """`send(message)` with the frame made already (`encode_frame(message)`, once for every connection that
        sends the same message: a table's event to a class of viewers): the same checks and bookkeeping, and the
        same bytes, without encoding again. Raises ProtocolError (fault "local") if it may not be sent."""
        self._check(message, outgoing=True)
        self._check_send(message)
        if len(data) - HEADER_SIZE > self.max_frame_size:
            raise ProtocolError("frame_too_large", f"{len(data) - HEADER_SIZE} bytes > {self.max_frame_size}",
                                fault="local")
        self._advance(message)
        return data

    def send_error(self, error: ProtocolError) -> bytes:
        """The error frame reporting `error` to the peer, in any state; a fatal error closes the connection."""
        server_at_fault = (error.fault == "local") == (self.role is Role.SERVER)
        fault = "server" if server_at_fault else "client"
        template, values = fit_template(error.template, error.values)
        report = Error(error.code, error.message[: TEXT.max_len], fault, error.fatal, template, values)
        data = frame(pack_map(encode_message(report)), self.max_frame_size)
        if error.fatal:
            self.state = State.CLOSED
        return data

    def _check(self, message: Message, *, outgoing: bool) -> None:
        """The checks every role makes, both ways: version, roles, state, table."""
        spec = message.spec
        sender, receiver = (self.role, self.peer_role) if outgoing else (self.peer_role, self.role)
        # What the version, roles and state allow does not change: a combination that passed once passes again
        # (a few hundred combinations at most, shared by all connections).
        key = (spec.name, sender, receiver, self.state, self.version, self.versions)
        if key not in _PASSED:
            self._check_route(spec, sender, receiver, outgoing)
            _PASSED.add(key)
        table = getattr(message, "table", None)
        if self.state in AT_A_TABLE and table is not None and table != self.table:
            fault: Fault = "local" if outgoing else "remote"
            raise ProtocolError("wrong_table", f"{spec.name} for table {table!r}, not {self.table!r}", fault=fault)

    def _check_route(self, spec, sender: Role | None, receiver: Role | None, outgoing: bool) -> None:
        """The version, roles and state checks of `_check`."""
        fault: Fault = "local" if outgoing else "remote"
        if spec.since > (self.version or max(self.versions)):
            raise ProtocolError("unknown_type", f"{spec.name} appeared in version {spec.since}", fault=fault)
        if not (_among(sender, spec.sent_by) and _among(receiver, spec.sent_to)):
            route = f"a {sender or 'client'} may not send {spec.name} to a {receiver or 'client'}"
            raise ProtocolError("wrong_role", route, fault=fault)
        if self.state not in spec.states:
            raise ProtocolError("wrong_state", f"{spec.name} is not allowed in state {self.state}", fault=fault)

    def _check_send(self, message: Message) -> None:
        """Checks of a role's own before sending; the base has none."""

    def _receive(self, message: Message) -> Event | None:
        """Role checks and bookkeeping of a received message; the event to deliver, or None to drop it."""
        self._advance(message)
        return message

    def _advance(self, message: Message) -> None:
        """Bookkeeping and state change after a message went through, sent or received."""
        if isinstance(message, Hello):
            self.hello = message
        elif isinstance(message, Welcome):
            self.version = message.version
            self.features = _feature_set(message.features or ())
        elif isinstance(message, Joined):
            self.table, self.seat = message.table, message.seat
        elif isinstance(message, Left):
            self.table = self.seat = None
        if isinstance(message, Error) and message.fatal:
            self.state = State.CLOSED
        else:
            self.state = state_after(self.state, message.spec.name, self.client_role)


def encode_frame(message: Message, max_size: int = DEFAULT_MAX_FRAME_SIZE) -> bytes:
    """The frame of `message` as `Connection.send` makes it (the same bytes on every connection), for
    `Connection.send_framed`; raises ProtocolError (fault "local") if a field is invalid or the frame too large.
    A table_event whose event is packed already (the server's, at every step) is put together from its pieces:
    the same checks of its fields, the same bytes."""
    if type(message) is TableEvent and type(message.event) is Packed:
        try:
            table, n = _EVENT_TABLE.encode(message.table, "table_event.table"), _EVENT_N.encode(message.n,
                                                                                            "table_event.n")
        except FieldError as exc:
            raise ProtocolError(exc.code, str(exc), fault="local") from None
        return frame(b"".join((_EVENT_HEAD, _pack(table), _EVENT_N_KEY, _pack(n), _EVENT_KEY, message.event.data)),
                     max_size)
    return frame(pack_map(encode_message(message)), max_size)


_pack = msgpack.Packer(use_bin_type=True, datetime=False).pack
_EVENT_TABLE, _EVENT_N, _ = (field.kind for field in wire_fields(TableEvent))
_EVENT_HEAD = b"\x84" + _pack("type") + _pack("table_event") + _pack("table")
"""The start of a packed table_event map: its 4 keys ("type", "table", "n", "event", as encode_message orders
them), the type, and the key of the table id that follows."""
_EVENT_N_KEY, _EVENT_KEY = _pack("n"), _pack("event")


_PASSED: set[tuple] = set()
"""(message type, sender role, receiver role, state, version, versions) combinations that passed _check_route."""


def _among(role: Role | None, roles: frozenset[Role]) -> bool:
    """Whether `role` is in `roles`; None is a client whose role the server does not know yet."""
    return bool(roles & CLIENT_ROLES) if role is None else role in roles


_FEATURE_SETS: dict[tuple, frozenset] = {}
"""A welcome's features -> the one frozenset of them the process's connections share (a server holds two
connections a game in play, nearly all with the same features: a frozenset each was 216 bytes). At most 64."""


def _feature_set(features) -> frozenset[str]:
    key = tuple(features)
    found = _FEATURE_SETS.get(key)
    if found is None:
        found = frozenset(key)
        if len(_FEATURE_SETS) < 64:
            _FEATURE_SETS[key] = found
    return found
