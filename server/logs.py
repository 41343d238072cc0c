"""Structured logs: one JSON object per line on stderr, through the logging module."""

from __future__ import annotations

import json
import logging
import re
import sys
import time
import unicodedata

LOGGER = logging.getLogger("dungeon_twister.server")


class JsonFormatter(logging.Formatter):
    """{"ts", "level", "logger", "event", ...fields}; fields come from `extra={"fields": {...}}`."""

    def format(self, record: logging.LogRecord) -> str:
        out = {
            "ts": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created)) + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "event": record.getMessage(),
        }
        out.update(getattr(record, "fields", {}))
        if record.exc_info:
            out["exception"] = self.formatException(record.exc_info)
        return escape_unsafe(json.dumps(out, default=str, ensure_ascii=False))


def how_many(n: int, singular: str, plural: str) -> str:
    """`n` and its noun, agreed: "1 table", "3 tables" (the server's own English texts: its output and log)."""
    return f"{n} {singular if n == 1 else plural}"


_NOT_PRINTABLE_ASCII = re.compile(r"[^\x20-\x7e]")
_ESCAPED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
"""Characters a log line writes as JSON escapes rather than as themselves: control characters (C1, DEL), format
characters (the bidi overrides and isolates U+202A-202E, U+2066-2069, zero-width ones), surrogates, and the line
and paragraph separators. Written raw, a refused name's U+202E turned the rest of its line around in a terminal
(`journalctl -o cat`, `docker logs`): a log line could be made to read as another. Other non-ASCII text (accented
names) stays as it is."""


def _escaped(match: re.Match) -> str:
    char = match.group()
    if unicodedata.category(char) not in _ESCAPED_CATEGORIES:
        return char
    code = ord(char)
    if code > 0xFFFF:  # JSON escapes a character beyond the BMP as its UTF-16 surrogate pair
        code -= 0x10000
        return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
    return f"\\u{code:04x}"


def escape_unsafe(line: str) -> str:
    """A JSON text with its control, format and separator characters escaped (`_ESCAPED_CATEGORIES`); the same JSON
    value. (Outside strings a JSON text has only ASCII, so every such character is inside a string.)"""
    return line if line.isascii() and line.isprintable() else _NOT_PRINTABLE_ASCII.sub(_escaped, line)


def setup_logging(level: int | str = logging.INFO, stream=None) -> None:
    """Send the server's logs to `stream` (stderr) as JSON lines."""
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(JsonFormatter())
    LOGGER.handlers[:] = [handler]
    LOGGER.setLevel(level)
    LOGGER.propagate = False


def log(event: str, level: int = logging.INFO, **fields) -> None:
    """Log `event` with structured fields."""
    if LOGGER.isEnabledFor(level):
        LOGGER.log(level, event, extra={"fields": fields})
