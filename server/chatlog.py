"""The chat log (config.chat_log, off by default): who said what, where, for a server's admins to moderate by.

Every chat line the server passes on (the lobby's, a table's, the admin's `say`) is written as one JSON object a
line to `DATA_DIR/chat/chat-YYYY-MM-DD.jsonl` (the UTC day): `ts`, `table` (None in the lobby), `name`, `role`
("player", "spectator"; "admin" for an announcement), `seat` ("B", "Y", None), `address`, `session` and the
`text` as the others received it (cleaned of control characters: sanitize.clean_chat). Nothing else of a game is
written: no move, secret choice, hidden token, seed or join code; a private table is named by its id alone. The
protocol has no private messages: every chat line goes to a lobby or a table, so the log holds only what the
others there could read. A line dropped by the rate limit or empty once cleaned reached nobody and is not
written; the chat kept for a held seat and sent when its player resumes is the same line, written once.

Bounded: the files of the last `chat_log_days` days are kept (older ones are deleted when a day's first line is
written, and at start), each day's file at most `chat_log_max_day_mb` MB (then one `chat_log_full` line, and the
day's further lines are not written: the server's log warns once), of which one address (as the server's limits
count it: an IPv4 address, an IPv6 /64) takes 1/ADDRESS_SHARE at most (then one `chat_log_address_full` line,
and that address's further lines of the day are not written, the others' are: review rv31, one address's
connections, each chatting a line of 2.2 KB a second, filled the default day in minutes and left the rest of the
day unlogged). The directory is 0700 and the files 0600, as
the store: the log names addresses. A failure to write (a full disk) never stops the chat: it is logged, once
until a line is written again.
"""

from __future__ import annotations

import json
import logging
import os
import re
import time
from collections.abc import Callable
from pathlib import Path

from .logs import escape_unsafe, log
from .ratelimit import address_key

DIRECTORY = "chat"
"""The chat log's directory in the data directory."""
FILE = re.compile(r"^chat-(\d{4}-\d{2}-\d{2})\.jsonl$")
"""A day's file."""
DAY = 86400
ADDRESS_SHARE = 16
"""One address may fill this share of a day's file at most (1/16: 4 MB of the default 64 MB, some 25,000 lines of
ordinary length). Counted from the server's start: a restart gives each address its share again."""
MIN_ADDRESS_BYTES = 1 << 16
"""An address's share is this at least (a 1 MB day's: chat_log_max_day_mb's least)."""


class ChatLog:
    """The chat log of one server: `write(...)` a line, `close()` at the end."""

    def __init__(self, directory: Path, days: int, max_day_bytes: int,
                 clock: Callable[[], float] = time.time) -> None:
        self.directory = Path(directory)
        self.days = days
        self.max_day_bytes = max_day_bytes
        self.clock = clock
        self._day: str | None = None
        self._fd: int | None = None
        self._size = 0
        self._full = False
        self._failing = False
        self._by_address: dict[str, int] = {}
        """Bytes written today for each address (address_key), and the addresses whose share is spent."""
        self._address_full: set[str] = set()

    def write(self, *, table: str | None, name: str | None, role: str, seat: str | None, address: str | None,
              session: str | None, text: str) -> None:
        now = self.clock()
        record = {"ts": _stamp(now), "table": table, "name": name, "role": role, "seat": seat, "address": address,
                  "session": session, "text": text}
        try:
            self._open_day(now)
            if self._full:
                return
            line = (escape_unsafe(json.dumps(record, ensure_ascii=False)) + "\n").encode("utf-8", "surrogatepass")
            key = address_key(address)
            if key is not None and not self._within_share(key, len(line), record["ts"]):
                return
            if self._size + len(line) > self.max_day_bytes:
                self._full = True
                self._append((json.dumps({"ts": record["ts"], "event": "chat_log_full",
                                          "max_day_bytes": self.max_day_bytes}) + "\n").encode())
                log("chat_log_full", level=logging.WARNING, file=str(self._path(self._day)),
                    max_day_bytes=self.max_day_bytes, why="the day's further chat lines are not written")
                return
            self._append(line)
        except OSError as error:
            if not self._failing:
                self._failing = True
                log("chat_log_failed", level=logging.WARNING, directory=str(self.directory),
                    error=error.strerror or str(error))
            self._close_file()
            return
        if self._failing:
            self._failing = False
            log("chat_log_written_again", directory=str(self.directory))

    def close(self) -> None:
        self._close_file()

    # --- the files ------------------------------------------------------------------------------------------
    def _path(self, day: str) -> Path:
        return self.directory / f"chat-{day}.jsonl"

    def _open_day(self, now: float) -> None:
        """The file of `now`'s UTC day open for appending (made 0600 in a 0700 directory); on a new day, the files
        older than `days` deleted."""
        day = time.strftime("%Y-%m-%d", time.gmtime(now))
        if day == self._day and self._fd is not None:
            return
        self._close_file()
        self.directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        self._fd = os.open(self._path(day), os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_CLOEXEC", 0),
                           0o600)
        self._size = os.fstat(self._fd).st_size
        if day != self._day:
            self._full = self._size >= self.max_day_bytes
            self._day = day
            self._by_address, self._address_full = {}, set()
            self.delete_old(now)

    def _within_share(self, key: str, size: int, stamp: str) -> bool:
        """Whether a line of `size` bytes from the address `key` fits in its share of the day (ADDRESS_SHARE),
        counted if it does; the first time it does not, one `chat_log_address_full` line and one warning."""
        share = max(self.max_day_bytes // ADDRESS_SHARE, MIN_ADDRESS_BYTES)
        used = self._by_address.get(key, 0)
        if used + size <= share:
            self._by_address[key] = used + size
            return True
        if key not in self._address_full:
            self._address_full.add(key)
            note = (json.dumps({"ts": stamp, "event": "chat_log_address_full", "address": key,
                                "max_address_bytes": share}) + "\n").encode()
            if self._size + len(note) <= self.max_day_bytes:
                self._append(note)
            log("chat_log_address_full", level=logging.WARNING, file=str(self._path(self._day)), address=key,
                max_address_bytes=share, why="the address's further chat lines today are not written")
        return False

    def _append(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            written = os.write(self._fd, view)
            view = view[written:]
        self._size += len(data)

    def _close_file(self) -> None:
        if self._fd is not None:
            try:
                os.close(self._fd)
            except OSError:
                pass
            self._fd = None

    def delete_old(self, now: float) -> list[Path]:
        """Delete the day files older than the last `days` days (today's included in them); those deleted."""
        oldest = time.strftime("%Y-%m-%d", time.gmtime(now - (self.days - 1) * DAY))
        gone = []
        for path in sorted(self.directory.iterdir()):
            match = FILE.match(path.name)
            if match and match[1] < oldest and path.is_file():
                try:
                    path.unlink()
                    gone.append(path)
                except OSError as error:
                    log("chat_log_failed", level=logging.WARNING, file=str(path), error=error.strerror or str(error))
        if gone:
            log("chat_log_deleted", files=[path.name for path in gone], days=self.days)
        return gone


def _stamp(now: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(now)) + f".{int(now * 1000) % 1000:03d}Z"
