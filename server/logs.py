"""Structured logs: one JSON object per line on stderr, through the logging module."""

from __future__ import annotations

import json
import logging
import sys
import time

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
        return json.dumps(out, default=str, ensure_ascii=False)


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
