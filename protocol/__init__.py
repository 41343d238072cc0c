"""The Dungeon Twister network protocol, sans-IO: length-prefixed msgpack frames, typed messages, one
connection state machine per role, and commit-reveal for simultaneous secret choices (docs/protocol.md).

The names below are loaded when first asked for (PEP 562), so that `dungeon_twister.protocol.versions`, all that
`dt-server --version` and `dt-client --version` need, comes without the rest (msgpack, the messages, the
connections: some 0.1 s; ops32). The first name asked for loads the codec, which registers every message, as the
eager imports of before did."""

from __future__ import annotations

from importlib import import_module

_MODULES = {
    "client_connection": ("ClientConnection", "SpectatorConnection"),
    "commit": ("DOMAIN_TAG", "NONCE_SIZE", "commitment", "commitment_input", "make_nonce", "seed_commitment",
        "verify", "verify_seed"),
    "commit_round": ("CommitRevealRound", "PlayerCommitments"),
    "connection": ("Connection",),
    "errors": ("ERROR_CODES", "ErrorCode", "Fault", "ProtocolError", "templated"),
    "events": ("Event", "RevealMismatch"),
    "framing": ("DEFAULT_MAX_FRAME_SIZE", "DEFAULT_PORT"),
    "msg_game": ("Action", "ActionOk", "ActionRefused", "DeclineRematch", "DrawAnswer", "DrawOffer", "GameOver",
        "OpponentBack", "OpponentLeft", "Rematch", "Resume", "Snapshot", "TableEvent", "Takeback", "TakebackAnswer",
        "Timer", "rematch_options"),
    "msg_handshake": ("Hello", "Prove", "Refused", "ResumeInfo", "Software", "Welcome"),
    "msg_lobby": ("Chat", "ChatMessage", "CreateTable", "GameInfo", "GameRecord", "Games", "GetRecord", "Join",
        "Joined", "Leave", "Left", "ListGames", "ListRatings", "ListTables", "RatingInfo", "Ratings", "SeatBot",
        "Spectate", "TableClosed", "TableCreated", "TableInfo", "TableOptions", "TableUpdate", "Tables"),
    "msg_secret": ("Commit", "OpponentCommit", "OpponentReveal", "Reveal"),
    "msg_session": ("Announcement", "Error", "Ping", "Pong", "ServerClosing"),
    "player_connection": ("PlayerConnection",),
    "registry": ("MESSAGES", "Message", "MessageSpec"),
    "roles": ("Role",),
    "server_connection": ("ServerConnection",),
    "states": ("State",),
    "versions": ("PROTOCOL_VERSIONS", "choose_version"),
}
"""Each submodule and the names of it the package offers."""
_WHERE = {name: module for module, names in _MODULES.items() for name in names}
__all__ = sorted(_WHERE)


def __getattr__(name: str):
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import_module(".codec", __name__)  # (every message registered, whichever name comes first)
    value = getattr(import_module(f".{module}", __name__), name)
    globals()[name] = value  # (asked once)
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
