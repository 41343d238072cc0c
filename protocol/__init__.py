"""The Dungeon Twister network protocol, sans-IO: length-prefixed msgpack frames, typed messages, one
connection state machine per role, and commit-reveal for simultaneous secret choices (docs/protocol.md)."""

__all__ = [
    "DEFAULT_MAX_FRAME_SIZE",
    "DEFAULT_PORT",
    "DOMAIN_TAG",
    "ERROR_CODES",
    "MESSAGES",
    "NONCE_SIZE",
    "PROTOCOL_VERSIONS",
    "Action",
    "Takeback",
    "TakebackAnswer",
    "DrawOffer",
    "DrawAnswer",
    "Rematch",
    "DeclineRematch",
    "rematch_options",
    "ActionOk",
    "ActionRefused",
    "Chat",
    "ChatMessage",
    "ClientConnection",
    "Commit",
    "CommitRevealRound",
    "Connection",
    "CreateTable",
    "Error",
    "ErrorCode",
    "Event",
    "Fault",
    "GameOver",
    "GameInfo",
    "GameRecord",
    "Games",
    "GetRecord",
    "Hello",
    "Join",
    "Joined",
    "Leave",
    "Left",
    "ListGames",
    "ListRatings",
    "ListTables",
    "Message",
    "MessageSpec",
    "OpponentBack",
    "OpponentCommit",
    "OpponentLeft",
    "OpponentReveal",
    "Ping",
    "PlayerCommitments",
    "PlayerConnection",
    "Pong",
    "ProtocolError",
    "Prove",
    "RatingInfo",
    "Ratings",
    "Refused",
    "Resume",
    "ResumeInfo",
    "Reveal",
    "RevealMismatch",
    "Role",
    "SeatBot",
    "ServerClosing",
    "Announcement",
    "ServerConnection",
    "Snapshot",
    "Software",
    "Spectate",
    "SpectatorConnection",
    "State",
    "TableClosed",
    "TableCreated",
    "TableEvent",
    "TableInfo",
    "TableOptions",
    "Tables",
    "TableUpdate",
    "Timer",
    "Welcome",
    "choose_version",
    "commitment",
    "commitment_input",
    "make_nonce",
    "seed_commitment",
    "templated",
    "verify",
    "verify_seed",
]


def _load() -> None:
    """Import every name of __all__ into the package, as a plain `from .x import ...` at the top did: the first
    time one is asked for (PEP 562), so that `dungeon_twister.protocol.versions` (what `dt-server --version` and
    `dt-client --version` need) comes without the 0.1 s of the rest (msgpack, the messages, the connections: ops32).
    All of them at once, as before: a process that uses the package's names has every message registered."""
    # (the same imports as the package had at its top; codec.py imports the messages itself, for decoding)
    from .client_connection import ClientConnection, SpectatorConnection
    from .commit import (DOMAIN_TAG, NONCE_SIZE, commitment, commitment_input, make_nonce, seed_commitment, verify,
                         verify_seed)
    from .commit_round import CommitRevealRound, PlayerCommitments
    from .connection import Connection
    from .errors import ERROR_CODES, ErrorCode, Fault, ProtocolError, templated
    from .events import Event, RevealMismatch
    from .framing import DEFAULT_MAX_FRAME_SIZE, DEFAULT_PORT
    from .msg_game import (
        Action,
        Takeback,
        TakebackAnswer,
        DrawOffer,
        DrawAnswer,
        Rematch,
        DeclineRematch,
        rematch_options,
        ActionOk,
        ActionRefused,
        GameOver,
        OpponentBack,
        OpponentLeft,
        Resume,
        Snapshot,
        TableEvent,
        Timer,
    )
    from .msg_handshake import Hello, Prove, Refused, ResumeInfo, Software, Welcome
    from .msg_lobby import (
        Chat,
        ChatMessage,
        CreateTable,
        GameInfo,
        GameRecord,
        Games,
        GetRecord,
        Join,
        Joined,
        Leave,
        Left,
        ListGames,
        ListRatings,
        ListTables,
        RatingInfo,
        Ratings,
        SeatBot,
        Spectate,
        TableClosed,
        TableCreated,
        TableInfo,
        TableOptions,
        Tables,
        TableUpdate,
    )
    from .msg_secret import Commit, OpponentCommit, OpponentReveal, Reveal
    from .msg_session import Announcement, Error, Ping, Pong, ServerClosing
    from .player_connection import PlayerConnection
    from .registry import MESSAGES, Message, MessageSpec
    from .roles import Role
    from .server_connection import ServerConnection
    from .states import State
    from .versions import PROTOCOL_VERSIONS, choose_version
    globals().update((name, value) for name, value in locals().items() if name in __all__)


def __getattr__(name: str):
    if name in __all__:
        _load()
        return globals()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))

