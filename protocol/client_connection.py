"""The client's end of a connection: what players and spectators share, and the spectator's connection."""

from __future__ import annotations

from dataclasses import replace

from .connection import Connection
from .errors import ProtocolError
from .events import Event
from .msg_game import Resume, Snapshot, TableEvent
from .msg_handshake import Hello, ResumeInfo, Software, Welcome
from .msg_lobby import Join, Joined, Left, Spectate
from .msg_session import Error
from .registry import Message
from .roles import Role
from .views import DELTA_VIEWS, apply_view_delta, expand_prefixed_legal, expand_team_choice


class ClientConnection(Connection):
    """Checks the server's version choice and keeps `last_event`, the number of the last table event seen.

    Table events arrive numbered 1, 2, 3...; a repeated one (after a resume) is dropped silently, a skipped
    number yields ProtocolError event_gap (answer it with a resume message from `last_event`). A snapshot
    sets `last_event` to its n.
    """

    last_event: int = 0
    _resuming: tuple[str, int] | None = None
    """The table asked for by a resume in hello or by spectate, and the last event already seen there."""
    view: dict | None = None
    """With the feature "delta_views": the latest whole view (the base of the next view_delta)."""
    _view_lost = False
    """A view_delta did not fit the view held: the next resume asks for a snapshot."""

    def __init__(self, *, features: tuple[str, ...] = (), expand: bool = True, **kwargs) -> None:
        super().__init__(**kwargs)
        self.offered_features = tuple(features)
        """The features this client asks for in hello (DELTA_VIEWS: it is sent view deltas and the compact team
        choice; with COMPACT_LEGAL too, front-coded legal lists; this connection turns them all back into whole
        views, so what it delivers looks as without)."""
        self.expand = expand
        """Whether a compact team choice or a front-coded legal list is delivered listed in "legal" too (False:
        the application expands "team_choice" or "legal_prefixed" itself, when it needs the list)."""

    @property
    def client_role(self) -> Role:
        return self.role

    @property
    def peer_role(self) -> Role:
        return Role.SERVER

    def send_hello(self, name: str, software: Software, resume: ResumeInfo | None = None,
                   key: bytes | None = None) -> bytes:
        """The hello frame offering every version (and the features) of this connection; `key`: the user's
        Ed25519 public key (section 18)."""
        return self.send(Hello(self.versions, software, self.role.value, name, resume,
                               self.offered_features or None, key))

    def carry_on_from(self, view: dict) -> dict:
        """Take `view` (a whole view as the server sent it, kept by an earlier connection or process) as the base of
        the next view_delta; the view as this connection delivers views."""
        self.view, self._view_lost = view, False
        return _expanded(view) if self.expand else view

    def send(self, message: Message) -> bytes:
        if isinstance(message, Resume) and self._view_lost and not message.snapshot:
            message = replace(message, snapshot=True)  # the deltas to come need a view this end lost
        return super().send(message)

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
            if DELTA_VIEWS in self.features:
                message = self._whole_view(message)
        elif isinstance(message, Snapshot) and DELTA_VIEWS in self.features:
            self.view, self._view_lost = message.view, False
            if self.expand:
                message = replace(message, view=_expanded(message.view))
        return super()._receive(message)

    def _whole_view(self, message: TableEvent) -> TableEvent:
        """A view_delta event as the whole view it makes ({"kind": "view", "view": ...}); a view kept."""
        kind = message.event.get("kind")
        if kind == "view" and type(message.event.get("view")) is dict:
            self.view = message.event["view"]
        elif kind == "view_delta":
            try:
                if self.view is None:
                    raise ValueError("no view to apply it to")
                self.view = apply_view_delta(self.view, message.event)
            except ValueError as error:
                self.view, self._view_lost = None, True  # ask for a snapshot (send resume)
                raise ProtocolError("event_gap", f"event {message.n}: {error}; a snapshot is needed") from None
        else:
            return message
        return replace(message, event={"kind": "view", "view": _expanded(self.view) if self.expand else self.view})

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
        elif isinstance(message, Welcome):
            self.features = self.features & frozenset(self.offered_features)
        elif isinstance(message, Left):
            self.last_event, self.view = 0, None
        elif isinstance(message, (TableEvent, Snapshot)):
            self.last_event = message.n


def _expanded(view: dict) -> dict:
    """The view with its compact team choice or its front-coded legal list (if any) listed in "legal" as well, as
    without the features."""
    if view.get("legal"):
        return view
    form, prefixed = view.get("team_choice"), view.get("legal_prefixed")
    try:
        if type(form) is dict:
            return {**view, "legal": expand_team_choice(form)}
        if type(prefixed) is list:
            return {**view, "legal": expand_prefixed_legal(prefixed)}
    except (KeyError, TypeError, ValueError):
        pass
    return view


class SpectatorConnection(ClientConnection):
    """A spectator's connection: it can list tables, spectate, chat and resume, never act, commit or reveal."""

    role = Role.SPECTATOR
