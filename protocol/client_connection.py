"""The client's end of a connection: what players and spectators share, and the spectator's connection."""

from __future__ import annotations

from .connection import Connection
from .errors import ProtocolError
from .events import Event
from .msg_game import Snapshot, TableEvent
from .msg_handshake import Hello, ResumeInfo, Software, Welcome
from .msg_lobby import Join, Joined, Left, Spectate
from .msg_session import Error
from .registry import Message
from .roles import Role


class ClientConnection(Connection):
    """Checks the server's version choice and keeps `last_event`, the number of the last table event seen.

    Table events arrive numbered 1, 2, 3...; a repeated one (after a resume) is dropped silently, a skipped
    number yields ProtocolError event_gap (answer it with a resume message from `last_event`). A snapshot
    sets `last_event` to its n.
    """

    last_event: int = 0
    _resuming: tuple[str, int] | None = None
    """The table asked for by a resume in hello or by spectate, and the last event already seen there."""

    @property
    def client_role(self) -> Role:
        return self.role

    @property
    def peer_role(self) -> Role:
        return Role.SERVER

    def send_hello(self, name: str, software: Software, resume: ResumeInfo | None = None) -> bytes:
        """The hello frame offering every version of this connection."""
        return self.send(Hello(self.versions, software, self.role.value, name, resume))

    def _check_send(self, message: Message) -> None:
        if isinstance(message, Hello) and message.role != self.role:
            raise ProtocolError("wrong_role", f"a {self.role} connection says hello as {message.role}", fault="local")

    def _receive(self, message: Message) -> Event | None:
        if isinstance(message, Welcome):
            assert self.hello is not None  # welcome is only allowed after hello
            if message.version not in self.hello.versions:
                raise ProtocolError("bad_version", f"the server chose version {message.version}, not offered")
        elif isinstance(message, Joined) and (message.seat is None) != (self.role is Role.SPECTATOR):
            raise ProtocolError("bad_field", f"joined with seat {message.seat!r} for a {self.role}")
        elif isinstance(message, TableEvent):
            if message.n <= self.last_event:
                return None
            if message.n > self.last_event + 1:
                raise ProtocolError("event_gap", f"event {message.n} after event {self.last_event}")
        return super()._receive(message)

    def _advance(self, message: Message) -> None:
        super()._advance(message)
        if isinstance(message, Hello) and message.resume is not None:
            self._resuming = (message.resume.table, message.resume.last_event)
        elif isinstance(message, Spectate):
            self._resuming = (message.table, message.last_event or 0)
        elif isinstance(message, Join) or (isinstance(message, Error) and message.code == "bad_token"):
            self._resuming = None
        elif isinstance(message, Joined):
            resuming, self._resuming = self._resuming, None
            self.last_event = resuming[1] if resuming and resuming[0] == message.table else 0
        elif isinstance(message, Left):
            self.last_event = 0
        elif isinstance(message, (TableEvent, Snapshot)):
            self.last_event = message.n


class SpectatorConnection(ClientConnection):
    """A spectator's connection: it can list tables, spectate, chat and resume, never act, commit or reveal."""

    role = Role.SPECTATOR
