"""The Dungeon Twister network protocol, sans-IO: length-prefixed msgpack frames, typed messages, one
connection state machine per role, and commit-reveal for simultaneous secret choices (docs/protocol.md)."""

from .client_connection import ClientConnection, SpectatorConnection
from .commit import (DOMAIN_TAG, NONCE_SIZE, commitment, commitment_input, make_nonce, seed_commitment, verify,
                     verify_seed)
from .commit_round import CommitRevealRound, PlayerCommitments
from .connection import Connection
from .errors import ERROR_CODES, ErrorCode, Fault, ProtocolError
from .events import Event, RevealMismatch
from .framing import DEFAULT_MAX_FRAME_SIZE, DEFAULT_PORT
from .msg_game import (
    Action,
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
    GameRecord,
    GetRecord,
    Join,
    Joined,
    Leave,
    Left,
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
from .msg_session import Error, Ping, Pong, ServerClosing
from .player_connection import PlayerConnection
from .registry import MESSAGES, Message, MessageSpec
from .roles import Role
from .server_connection import ServerConnection
from .states import State
from .versions import PROTOCOL_VERSIONS, choose_version

__all__ = [
    "DEFAULT_MAX_FRAME_SIZE",
    "DEFAULT_PORT",
    "DOMAIN_TAG",
    "ERROR_CODES",
    "MESSAGES",
    "NONCE_SIZE",
    "PROTOCOL_VERSIONS",
    "Action",
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
    "GameRecord",
    "GetRecord",
    "Hello",
    "Join",
    "Joined",
    "Leave",
    "Left",
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
    "verify",
    "verify_seed",
]
