"""The server's end of a connection with one client (a player or a spectator)."""

from __future__ import annotations

from .connection import Connection
from .errors import ProtocolError
from .msg_handshake import Refused, Software, Welcome
from .msg_lobby import Joined
from .registry import Message
from .roles import Role
from .states import State
from .versions import choose_version


class ServerConnection(Connection):
    """Learns the client's role from its hello. Answer a received ProtocolError with `send_error(error)`."""

    role = Role.SERVER
    _client_role: Role | None = None

    @property
    def client_role(self) -> Role | None:
        if self._client_role is None and self.hello:  # hello is received once: its role is looked up once
            self._client_role = Role(self.hello.role)
        return self._client_role

    @property
    def peer_role(self) -> Role | None:
        return self.client_role

    def answer_hello(self, server: Software, session: str, features: tuple[str, ...] = (),
                     challenge: bytes | None = None) -> bytes:
        """Welcome with the highest version both sides speak, or refused with code version_unsupported.
        `features`: those this server offers; welcome names the ones the client asked for too (none: omitted).
        `challenge`: for a hello that named a key, what the client must sign (section 18)."""
        if self.hello is None or self.state is not State.AWAIT_WELCOME:
            raise ProtocolError("wrong_state", "there is no hello to answer", fault="local")
        version = choose_version(self.hello.versions, self.versions)
        if version is None:
            return self.send(Refused("version_unsupported", f"this server speaks versions {list(self.versions)}"))
        common = tuple(feature for feature in features if feature in (self.hello.features or ()))
        return self.send(Welcome(version, server, session, common or None, challenge))

    def _check_send(self, message: Message) -> None:
        if isinstance(message, Welcome):
            assert self.hello is not None  # welcome is only allowed after hello
            if message.version not in self.hello.versions or message.version not in self.versions:
                raise ProtocolError("bad_version", f"version {message.version} is not common", fault="local")
            if not set(message.features or ()) <= set(self.hello.features or ()):
                raise ProtocolError("bad_field", "welcome names a feature the client did not ask for", fault="local")
        elif isinstance(message, Joined) and (message.seat is None) != (self.client_role is Role.SPECTATOR):
            raise ProtocolError("bad_field", "joined has a seat for a player and none for a spectator", fault="local")
