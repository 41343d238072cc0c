"""Server settings: defaults, a TOML file (tomllib) and command-line overrides."""

from __future__ import annotations

import ipaddress
import tomllib
from dataclasses import dataclass, fields, replace
from pathlib import Path

from dungeon_twister.protocol import DEFAULT_MAX_FRAME_SIZE, DEFAULT_PORT
from dungeon_twister.protocol.kinds import NAME
from dungeon_twister.protocol.names import name_problem


@dataclass(frozen=True)
class ServerConfig:
    host: str = "0.0.0.0"
    port: int = DEFAULT_PORT
    name: str = "dt-server"
    """The server's name, sent in welcome."""
    grace_seconds: int = 60
    """How long a disconnected player's seat is kept."""
    max_connections: int = 1000
    """Network connections served at once (bots excluded); more are refused server_full."""
    max_connections_per_address: int = 64
    """Network connections from one IP address at once; more are closed as soon as they are accepted, before
    they count against max_connections (one host opening silent sockets in a loop would otherwise keep everyone
    else out). 0: no limit (behind a proxy whose connections all come from one address)."""
    max_tables_per_hour: int = 3600
    """New tables the server makes an hour, from everyone (a sixth of it at once); more are refused not_allowed.
    Each game begun is kept in the store: behind a proxy (max_connections_per_address = 0, no limit by address)
    this alone bounds how fast it grows. 0: no limit."""
    max_frame_size: int = DEFAULT_MAX_FRAME_SIZE
    """The longest frame sent (a view with its legal list); a client's are taken up to CLIENT_FRAME_SIZE (64 KiB), or
    this if less (session.py)."""
    records_dir: Path | None = None
    """Where finished game records are written; None: not written."""
    ping_interval: float = 30.0
    """Seconds between keepalive pings; a client silent for a whole interval after a ping is closed. 0: off."""
    outbox_frames: int = 512
    """Frames queued for one client before it counts as too slow and is dropped."""
    max_queued_bytes: int = 0
    """Bytes queued for all clients at once; over it, the address whose connections hold the most loses its
    largest one, as too slow (Server.over_queued_limit). 0: QUEUED_FRAMES_OF_MAX times max_frame_size (64 MiB by
    default); else at least 8 times max_frame_size."""
    data_dir: Path | None = None
    """The durable store's directory (tables, games, resume tokens). None: an in-memory store that a restart
    loses (embedded servers, tests); the dt-server command defaults to a per-user state directory."""
    discovery: bool = True
    """Answer `dt-client discover` (a UDP query on the server's port number, server/discovery.py)."""
    tls: bool = False
    """Serve TLS too (server/tls.py: a self-signed certificate in the data directory, pinned by clients), beside
    plain TCP on the same port."""
    data_sync: str = "full"
    """"full": every commit is on disk before it is acknowledged (an fsync each); "normal": it survives a crash
    of the server but perhaps not of the machine (see storage.py for the cost)."""
    unbound_proofs: bool | None = None
    """Take a key proof bound to nothing (v1, from a client of before 2026-11-30), which another server could pass
    on, as well as one bound to this connection's TLS certificate (v2; docs/protocol.md section 18). False: a v1
    proof is refused bad_proof, which closes that way of playing as someone else on a server with TLS (clients of
    before that date then cannot connect here; without TLS nothing is bound, and the server warns at start). None,
    the default (the key left out of the file): false with TLS, true without (`takes_unbound_proofs`): ops31, a
    server with TLS is one whose names matter, and dt-client has proved v2 since 2026-11-30, while without TLS
    refusing v1 protects nothing and only turns older clients away."""
    idle_minutes: int = 30
    """At a table without timers, a player the game waits on alone (his turn, his card, his placing) who plays
    nothing for this long loses the game, as one who abandons it: a connected player who never acted held his
    opponent for ever, whose only way out was a rated resignation. Not before the first turn. 0: never."""
    bot_pace: float = 0.3
    """Seconds a bot of this server waits, from the frame that gives it the move, before it sends its action or
    commitment, unless it took longer to choose: its answer then reads the same whatever it knows that its
    opponent does not (review lk31: its time to choose depends a little on its own face-down tokens, a timing
    channel of a few milliseconds), and a person can follow its moves. 0: at once. At most 10."""
    max_new_names_per_hour: int = 60
    """Names newly bound to a key (docs/protocol.md section 18: bound for good, a row of the store each) from one
    address an hour, an IPv6 one by its /64, a third of it at once; a hello that would bind one more is refused
    bad_name until one is back. A play-test's script bound 199 names in 3 s from one address, `admin` and the
    server's own name among them. 0: no limit."""
    reserved_names: tuple[str, ...] = ()
    """Names no key may newly bind, read as names are compared (one for "Admin" and "admin"): a hello with one of
    them is refused bad_name unless the name is bound already and the hello names its key. To keep a name for
    yourself, connect with it once (it is bound to your key), then list it here."""
    banned_names: tuple[str, ...] = ()
    """Names refused at every hello (bad_name), bound or not: a player whose name is banned must take another
    name, with another key if his was bound (`max_new_names_per_hour` bounds how fast new names are bound)."""
    banned_addresses: tuple[str, ...] = ()
    """IP addresses or networks ("203.0.113.7", "198.51.100.0/24", "2001:db8::/32") whose connections are closed
    as soon as they are accepted (a warning line, then a count a minute while they go on)."""
    chat_log: bool = False
    """Write every chat line the server passes on (lobby, tables, the admin's announcements) to the data directory's
    chat log, for moderation (server/chatlog.py: who said what, at which table, from which address; nothing of a
    game). Off by default: the players' words are theirs unless the admin says otherwise (deploy/README.md)."""
    chat_log_days: int = 30
    """The chat log's days kept (a file a UTC day; older ones are deleted), 1 to 3650."""
    chat_log_max_day_mb: int = 64
    """A day's chat log file grows to this many MB at most (then that day's further lines are not written, with a
    warning): a flood cannot fill the disk. 1 to 100000."""
    database: str | None = None
    """A PostgreSQL database to keep the store in (`postgresql://user@host/dbname`, server/storage_postgres.py)
    instead of the data directory's SQLite file; None: the SQLite file. The data directory still holds the TLS
    certificate."""


QUEUED_FRAMES_OF_MAX = 64
"""The default of max_queued_bytes, in frame limits: 64 MiB, sixteen connections that read nothing holding their
limit each (a thousand clients that read hold a few KB each)."""


_TYPES = {"host": str, "port": int, "name": str, "grace_seconds": int, "max_connections": int,
          "max_connections_per_address": int, "max_tables_per_hour": int, "max_frame_size": int, "records_dir": str,
          "ping_interval": (int, float), "outbox_frames": int, "max_queued_bytes": int, "data_dir": str,
          "data_sync": str, "tls": bool, "discovery": bool, "database": str, "unbound_proofs": bool,
          "chat_log": bool, "chat_log_days": int, "chat_log_max_day_mb": int, "idle_minutes": int,
          "bot_pace": (int, float), "max_new_names_per_hour": int, "reserved_names": list, "banned_names": list,
          "banned_addresses": list}


_KINDS = {str: "a string", int: "an integer", (int, float): "a number", bool: "true or false",
          list: "a list of strings"}


def load_config(path: str | Path) -> ServerConfig:
    """The settings of a TOML file (top-level keys named like ServerConfig's fields); ValueError if invalid, its
    message naming the file (a play-test's TOML syntax error said only "Invalid initial character for a key part
    (at line 2, column 3)"). A file that cannot be read is a ValueError too, named the same way (adm33: `--config
    nope.toml` said `dt-server: [Errno 2] No such file or directory: 'nope.toml'`)."""
    try:
        with open(path, "rb") as file:
            try:
                raw = tomllib.load(file)
            except tomllib.TOMLDecodeError as error:
                raise ValueError(f"{path}: not valid TOML: {error}") from None
    except OSError as error:
        raise ValueError(f"{path}: the settings file cannot be read: {error.strerror or error}") from None
    try:
        return config_from_mapping(raw)
    except ValueError as error:
        raise ValueError(f"{path}: {error}") from None


def config_from_mapping(raw: dict) -> ServerConfig:
    known = {f.name for f in fields(ServerConfig)}
    unknown = sorted(set(raw) - known)
    if unknown:
        raise ValueError(f"unknown setting(s): {', '.join(unknown)}")
    values = {}
    for key, value in raw.items():
        expected = _TYPES[key]
        # a TOML boolean is a Python bool, and bool is an int: only the switches take one
        if (isinstance(value, bool) and expected is not bool) or not isinstance(value, expected):
            shown = str(value).lower() if isinstance(value, bool) else repr(value)  # as TOML writes it: `true`
            raise ValueError(f"setting {key!r} has the wrong type: {shown} (expected {_KINDS[expected]})")
        if expected is list:
            if not all(isinstance(item, str) for item in value):
                raise ValueError(f"setting {key!r} has the wrong type: a list with an item that is not a string "
                                 f"(expected {_KINDS[list]})")
            value = tuple(value)
        values[key] = Path(value) if key in ("records_dir", "data_dir") else value
    config = ServerConfig(**values)
    check(config)
    return config


MAX_GRACE_SECONDS = 7 * 24 * 3600
"""The longest a seat may be held (protocol: joined.grace_seconds)."""


def check(config: ServerConfig) -> None:
    if not 0 <= config.port <= 65535:
        raise ValueError("port must be 0..65535")
    if not 1 <= len(config.name) <= 64:
        raise ValueError("name must have 1 to 64 characters")
    if not 0 <= config.grace_seconds <= MAX_GRACE_SECONDS:
        # (`joined` tells a player how long his seat is held: docs/protocol.md bounds it, and a larger value could
        # not be sent, so the player would never be told he had joined)
        raise ValueError(f"grace_seconds must be 0..{MAX_GRACE_SECONDS} (a week)")
    # (each said by itself: "max_connections >= 1, max_connections_per_address >= 0 and max_frame_size >= 1024 are
    # required" left the admin to guess which: play-test ad29)
    for name, least in (("max_connections", 1), ("max_connections_per_address", 0), ("max_frame_size", 1024),
                        ("ping_interval", 0), ("outbox_frames", 8)):
        if getattr(config, name) < least:
            raise ValueError(f"{name} must be {least} or more (it is {getattr(config, name)})")
    if config.max_tables_per_hour < 0:
        raise ValueError("max_tables_per_hour must be 0 (no limit) or more")
    if config.max_queued_bytes and config.max_queued_bytes < 8 * config.max_frame_size:
        # one connection may hold 4 frame limits of bytes queued (session.OUTBOX_FRAMES_OF_MAX), and as much again
        # being written (review rv26: with 4, one spectator catching up could go over the budget alone)
        raise ValueError("max_queued_bytes must be 0 (64 times max_frame_size) or at least 8 times max_frame_size")
    if config.data_sync not in ("full", "normal"):
        raise ValueError('data_sync must be "full" or "normal"')
    if config.idle_minutes < 0:
        raise ValueError("idle_minutes must be 0 (never) or more")
    if not 0 <= config.bot_pace <= 10:
        raise ValueError(f"bot_pace must be 0..10 seconds (it is {config.bot_pace})")
    if config.max_new_names_per_hour < 0:
        raise ValueError("max_new_names_per_hour must be 0 (no limit) or more")
    for key in ("reserved_names", "banned_names"):
        for name in getattr(config, key):
            problem = _never_a_name(name)
            if problem is not None:
                # (a name no hello can carry is a typo: " admin" reserved nothing, and the admin thought it did)
                raise ValueError(f"{key}: {name!r} is not a name a player could take: {problem}")
    for address in config.banned_addresses:
        try:
            ipaddress.ip_network(address, strict=False)
        except ValueError:
            raise ValueError(f"banned_addresses: {address!r} is not an IP address or network (203.0.113.7, "
                             "198.51.100.0/24, 2001:db8::/32)") from None
    if not 1 <= config.chat_log_days <= 3650:
        raise ValueError(f"chat_log_days must be 1..3650 (it is {config.chat_log_days})")
    if not 1 <= config.chat_log_max_day_mb <= 100_000:
        raise ValueError(f"chat_log_max_day_mb must be 1..100000 (it is {config.chat_log_max_day_mb})")
    if config.database is not None and not is_database_url(config.database):
        raise ValueError("database must be a PostgreSQL URL: postgresql://user@host/dbname")


def _never_a_name(name: str) -> str | None:
    """Why no player could ever connect with `name` (an entry of reserved_names or banned_names), or None: it is
    empty, longer than a hello's name may be, or one that every hello is refused (protocol/names.py)."""
    if not name:
        return "it is empty"
    if len(name) > NAME.max_len:
        return f"it is longer than {NAME.max_len} characters"
    return name_problem(name)


def takes_unbound_proofs(config: ServerConfig) -> bool:
    """Whether the server takes a v1 key proof, bound to nothing: `unbound_proofs` if set, else only without TLS."""
    return config.unbound_proofs if config.unbound_proofs is not None else not config.tls


def is_database_url(text: str | None) -> bool:
    """Whether `text` names a PostgreSQL database (`postgresql://...` or `postgres://...`)."""
    return bool(text) and text.split("://", 1)[0] in ("postgresql", "postgres")


def with_overrides(config: ServerConfig, **overrides) -> ServerConfig:
    """`config` with every override that is not None."""
    config = replace(config, **{k: v for k, v in overrides.items() if v is not None})
    check(config)
    return config
