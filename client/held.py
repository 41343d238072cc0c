"""What the client keeps on disk to take its seat back after a crash: the resume token of its seat, and the secret
choices it committed to (purpose, choice, nonce) with the opponent's commitments it received; and, beside them,
how far the table's events got (`Progress`: the last event, the view the next deltas apply to, the log, the
table's chat), so that a new process carries on from there: the events it missed come as events, and the log and
the chat keep what came before.

One file per (server, name) in the user's state directory (platformdirs.user_state_dir("dt-client"), or
$DT_CLIENT_STATE_DIR), readable by the user only (mode 0600 in a 0700 directory): a resume token gives the seat
to whoever holds it, and a nonce opens our commitment. Each write goes to a temporary file that replaces the old
one (os.replace), so a crash leaves the old file or the new one, never half of one. The file is deleted when the
game ends or the player leaves his seat.

A secret is written BEFORE its commit frame is sent, and an opponent's commitment BEFORE our reveal: a client
that dies at any step of a commit-reveal round can still reveal (and check the opponent's reveal) when it comes
back.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path

import msgpack
import platformdirs

STATE_DIR_VARIABLE = "DT_CLIENT_STATE_DIR"
APP_NAME = "dt-client"
MAX_FILE_SIZE = 64 * 1024
"""A held-seat file larger than this is not read (it is not ours)."""
MAX_SECRETS = 16
FORMAT = 1
MAX_ELSEWHERE = 64
"""The most held-seat files read to find seats kept under another name (`SeatFile.kept_elsewhere`)."""
MAX_PROGRESS_SIZE = 1024 * 1024
"""A progress file larger than this is not read (views are ~3-20 KB, the log at most LOG_LINES lines)."""


def replace_file(path: Path, data: bytes, durable: bool = False) -> None:
    """Write `path` (0600, its directory made 0700) through a temporary file and os.replace, so a crash or a
    second client writing at once leaves the old file or a new one, never half of one; `durable`: on disk (fsync)
    before it replaces the old one."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    temporary = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        if hasattr(os, "fchmod"):
            os.fchmod(descriptor, 0o600)  # an old temporary file left by a crash keeps its mode otherwise
        with os.fdopen(descriptor, "wb") as file:
            file.write(data)
            if durable:
                file.flush()
                os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def state_dir() -> Path:
    """Where the client keeps its held seats: $DT_CLIENT_STATE_DIR, else the platform's user state directory."""
    return Path(os.environ.get(STATE_DIR_VARIABLE) or platformdirs.user_state_dir(APP_NAME))


@dataclass
class KeptSecret:
    """One commit-reveal round of ours: what we committed to, and the opponent's commitment once received."""

    choice: str
    nonce: bytes
    since_event: int
    """The table event number when we committed: a later view without this purpose means the round is over."""
    opponent_commitment: bytes | None = None


@dataclass
class HeldSeat:
    """A seat the server holds for us: enough to resume it (protocol section 9) from a fresh process."""

    table: str
    seat: str
    token: str
    grace_seconds: int | None = None
    secrets: dict[str, KeptSecret] = field(default_factory=dict)
    """Pending commit-reveal rounds, by purpose."""

    def to_json(self, server: str, name: str) -> dict:
        return {
            "format": FORMAT, "server": server, "name": name, "table": self.table, "seat": self.seat,
            "token": self.token, "grace_seconds": self.grace_seconds,
            "secrets": {purpose: {"choice": kept.choice, "nonce": kept.nonce.hex(), "since_event": kept.since_event,
                                  "opponent_commitment": (kept.opponent_commitment.hex()
                                                          if kept.opponent_commitment is not None else None)}
                        for purpose, kept in self.secrets.items()},
        }

    @classmethod
    def from_json(cls, raw: dict) -> HeldSeat:
        """Raises (KeyError, TypeError, ValueError) for anything that is not a file we wrote."""
        if raw["format"] != FORMAT:
            raise ValueError(f"format {raw['format']!r}")
        secrets = {}
        for purpose, kept in dict(raw["secrets"]).items():
            opponent = kept.get("opponent_commitment")
            secrets[_text(purpose)] = KeptSecret(_text(kept["choice"]), bytes.fromhex(kept["nonce"]),
                                                 int(kept["since_event"]),
                                                 bytes.fromhex(opponent) if opponent is not None else None)
        grace = raw.get("grace_seconds")
        return cls(_text(raw["table"]), _text(raw["seat"]), _text(raw["token"]),
                   int(grace) if grace is not None else None, secrets)


def _text(value: object) -> str:
    if not isinstance(value, str) or not 0 < len(value) <= 256:
        raise ValueError("not a short string")
    return value


class Told(str):
    """A log line that tells a table event, with `event`: the event as it was described, so that a client started
    later, perhaps in another language, words it again (`retold`; play-test 20 restarted its client with `--lang de`
    and read the game so far in English, the new events in German)."""

    event: dict

    def __new__(cls, text: str, event: dict) -> Told:
        line = super().__new__(cls, text)
        line.event = event
        return line


def retold(lines: list[str], describe) -> list[str]:
    """`lines` with each line that tells an event (Told) worded again by `describe(event)` (the client's words in
    its language now); a line it does not word again, or cannot, stays as it was."""
    out = []
    for line in lines:
        if isinstance(line, Told):
            try:
                text = describe(line.event)
            except (KeyError, IndexError, TypeError, ValueError, AttributeError):
                text = None
            if text:
                line = Told(text, line.event)
        out.append(line)
    return out


@dataclass
class Progress:
    """How far the events of our table got when this client last handled some (protocol section 8): a new process
    resumes from `last_event` with `base`, the view the server's next view deltas apply to, or shows `view` when
    the connection had no deltas; and puts its log and the table's chat back."""

    table: str
    last_event: int
    base: dict | None
    """The connection's delta base (feature delta_views), as the server sent it; None without the feature."""
    view: dict | None
    """The whole view shown, kept only when there is no `base`."""
    log: list[str]
    """The log's lines; those that tell a table event (Told) are kept with it."""
    came_in: bool
    """The log starts at a snapshot (ClientState.came_in)."""
    chat: list[str] = field(default_factory=list)
    """The table's chat lines shown (ClientState.chat: the newest CHAT_LINES), as they were shown. The server sends
    a line once, to whoever is at the table then (and, to a returning player, what was said while his seat was
    held), so only this file brings back what was shown before a restart. (A file written before has none.)"""
    moves: list[str] = field(default_factory=list)
    """The panel's strip of the last moves (ClientState.moves), which the events told as the log's lines (a
    play-test's strip started empty after a restart while the log went on). (A file written before has none.)"""

    def pack(self) -> bytes:
        return msgpack.packb({"format": FORMAT, "table": self.table, "last_event": self.last_event,
                              "base": self.base, "view": self.view,
                              "log": [[line, line.event] if isinstance(line, Told) else line for line in self.log],
                              "came_in": self.came_in,
                              "chat": self.chat, "moves": self.moves})

    @classmethod
    def unpack(cls, data: bytes) -> Progress:
        """Raises (ValueError, TypeError, KeyError, msgpack's errors) for anything that is not a file we wrote."""
        raw = msgpack.unpackb(data, raw=False)
        if raw["format"] != FORMAT:
            raise ValueError(f"format {raw['format']!r}")
        base, view, log = raw["base"], raw["view"], raw["log"]
        if not all(part is None or isinstance(part, dict) for part in (base, view)) or (base is None) == (view is None):
            raise ValueError("one view, a dict")
        if not isinstance(log, list):
            raise ValueError("the log is lines")
        log = [line if isinstance(line, str) else _told(line) for line in log]
        chat, moves = raw.get("chat", []), raw.get("moves", [])
        if not isinstance(chat, list) or not all(isinstance(line, str) for line in chat):
            raise ValueError("the chat is lines")
        if not isinstance(moves, list) or not all(isinstance(move, str) for move in moves):
            raise ValueError("the moves are texts")
        last_event = raw["last_event"]
        if type(last_event) is not int or last_event < 0:
            raise ValueError("an event number")
        return cls(_text(raw["table"]), last_event, base, view, log, bool(raw["came_in"]), chat, moves)


def _told(entry: object) -> Told:
    """A kept log line that tells an event: [text, event]."""
    if not (isinstance(entry, list) and len(entry) == 2 and isinstance(entry[0], str) and isinstance(entry[1], dict)):
        raise ValueError("a log line is a text, or a text and its event")
    return Told(*entry)


class SeatFile:
    """The held-seat file of one (server, name): load, save (atomically, 0600) and clear; and its progress file."""

    def __init__(self, server: str, name: str, directory: Path | None = None) -> None:
        self.server, self.name = server, name
        self.directory = directory if directory is not None else state_dir()
        key = hashlib.sha256(f"{server}\n{name}".encode()).hexdigest()[:32]
        self.path = self.directory / f"seat-{key}.json"
        self.progress_path = self.directory / f"seat-{key}.progress"

    def load(self) -> HeldSeat | None:
        """The held seat, or None (no file, or one that is unreadable, too large or for another server/name)."""
        try:
            data = _read(self.path, MAX_FILE_SIZE)
            if data is None:
                return None
            raw = json.loads(data)
            if raw.get("server") != self.server or raw.get("name") != self.name:
                return None
            held = HeldSeat.from_json(raw)
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return None
        return held if len(held.secrets) <= MAX_SECRETS else None

    def save(self, held: HeldSeat) -> None:
        """Replace the file with `held`; durable once this returns (written, flushed to disk, renamed)."""
        self._replace(self.path, json.dumps(held.to_json(self.server, self.name)).encode(), durable=True)

    def load_progress(self, table: str) -> Progress | None:
        """The progress kept for `table`, or None (none, another table's, unreadable or too large)."""
        try:
            data = _read(self.progress_path, MAX_PROGRESS_SIZE)
            if data is None:
                return None
            progress = Progress.unpack(data)
        except (OSError, ValueError, KeyError, TypeError, AttributeError, msgpack.UnpackException):
            return None
        return progress if progress.table == table else None

    def save_progress(self, progress: Progress) -> None:
        """Replace the progress file, atomically but not flushed to disk: written after every batch of events, and
        an old one costs only a snapshot (the server's answer to a resume from a view it no longer has) and the
        log lines since."""
        self._replace(self.progress_path, progress.pack(), durable=False)

    def _replace(self, path: Path, data: bytes, durable: bool) -> None:
        replace_file(path, data, durable)

    def clear(self) -> None:
        self.path.unlink(missing_ok=True)
        self.progress_path.unlink(missing_ok=True)

    def kept_elsewhere(self) -> list[tuple[str, str]]:
        """(name, table) of the seats held on this server under our other names, at most MAX_ELSEWHERE files read:
        a player who started dt-client again without `--name` (his login's name) is not asked for a seat kept under
        the name he played with, and should be told which name takes it back."""
        found = []
        try:
            paths = sorted(self.directory.glob("seat-*.json"))[:MAX_ELSEWHERE]
        except OSError:
            return []
        for path in paths:
            try:
                data = _read(path, MAX_FILE_SIZE)
                raw = json.loads(data) if data is not None else None
                if isinstance(raw, dict) and raw.get("server") == self.server and raw.get("name") != self.name:
                    held = HeldSeat.from_json(raw)
                    if isinstance(raw["name"], str):
                        found.append((raw["name"], held.table))
            except (OSError, ValueError, KeyError, TypeError, AttributeError):
                continue
        return sorted(found)


def _read(path: Path, limit: int) -> bytes | None:
    """The file's bytes, or None if it is larger than `limit` (it is not ours); OSError if it cannot be read."""
    with path.open("rb") as file:
        data = file.read(limit + 1)
    return data if len(data) <= limit else None
