"""A dt-server subprocess on a free local port, for `dt-client play`: started before the UI, stopped after it.

The server announces itself with one stdout line, `dt-server listening on HOST:PORT`. Everything else it prints
(stdout after that line, and stderr) goes to a log file, so that it never draws over the full-screen UI.
"""

from __future__ import annotations

import os
import queue
import re
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import IO

from .held import state_dir
from .i18n import _

READY = re.compile(r"^dt-server listening on (\S+):(\d+)\s*$")
START_TIMEOUT = 15.0
STOP_TIMEOUT = 5.0


class ServerStartError(RuntimeError):
    """The server exited or stayed silent instead of announcing its port."""


def server_command() -> list[str]:
    """The embedded server, with a data directory of its own in the client's state directory: never the one a
    `dt-server` of the same user uses (whose lock it would meet, and whose tables it would restore)."""
    data = state_dir() / "local-server"
    return [sys.executable, "-m", "dungeon_twister.server", "--host", "127.0.0.1", "--port", "0", "--data", str(data)]


class LocalServer:
    """`with LocalServer() as (host, port): ...` runs the server for the duration of the block."""

    def __init__(self, command: list[str] | None = None, start_timeout: float = START_TIMEOUT) -> None:
        self.command = command or server_command()
        self.start_timeout = start_timeout
        self.process: subprocess.Popen[str] | None = None
        self.log_path: Path | None = None

    def __enter__(self) -> tuple[str, int]:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def start(self) -> tuple[str, int]:
        """Start the server; its (host, port) once it listens. Raises ServerStartError."""
        handle, name = tempfile.mkstemp(prefix="dt-server-", suffix=".log")
        os.close(handle)
        self.log_path = Path(name)
        with self.log_path.open("a") as log:  # append mode: the server's stderr and _pump share the file
            self.process = subprocess.Popen(self.command, stdout=subprocess.PIPE, stderr=log,
                                            stdin=subprocess.DEVNULL, text=True, bufsize=1)
        lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=_pump, args=(self.process.stdout, lines, self.log_path), daemon=True).start()
        try:
            line = lines.get(timeout=self.start_timeout)
        except queue.Empty:
            self.stop(keep_log=True)
            raise ServerStartError(_("the server did not start within {seconds} s (log: {log})").format(
                seconds=f"{self.start_timeout:.0f}", log=self.log_path)) from None
        match = READY.match(line or "")
        if match is None:
            self.stop(keep_log=True)  # it may still be exiting (its stdout closed first): its log says why
            if line:  # what the server printed instead of its port
                why = _("the server did not start: {line}").format(line=line)
            else:
                why = _("the server did not start: it exited")
            raise ServerStartError(f"{why}\n{self.log_tail()}")
        return match.group(1), int(match.group(2))

    def stop(self, keep_log: bool = False) -> None:
        """Terminate the server (kill it if it does not stop in time). Its log goes with it, unless the server had
        already stopped by itself or failed to start (`keep_log`): then the log says why, and stays (`log_path`)."""
        process, self.process = self.process, None
        if process is None or process.poll() is not None:
            return
        process.terminate()
        try:
            process.wait(STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if self.log_path is not None and not keep_log:
            self.log_path.unlink(missing_ok=True)

    def log_tail(self, lines: int = 15) -> str:
        if self.log_path is None or not self.log_path.exists():
            return ""
        return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])


def _pump(stdout: IO[str], first_line: queue.Queue[str | None], log_path: Path) -> None:
    """Hand over the first stdout line, then copy the rest to the log until the server exits."""
    with log_path.open("a") as log:  # opened first: once `stop` has removed the log, nothing creates it again
        line = stdout.readline()
        first_line.put(line.rstrip("\n") if line else None)
        for rest in stdout:
            log.write(rest)
            log.flush()
