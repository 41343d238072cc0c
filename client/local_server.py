"""A dt-server subprocess on a free local port, for `dt-client play`: started before the UI, stopped after it.

The server announces itself with one stdout line, `dt-server listening on HOST:PORT`. Everything else it prints
(stdout after that line, and stderr) goes to a log file, so that it never draws over the full-screen UI.

Each run's server has a data directory of its own (`fresh_data_dir`), which also holds the player's held-seat file
(`seat_file`). A game that did not end (the client was killed, the machine stopped, the player typed `quit`)
leaves its directory, with the server's durable store and that file, and what `play` asked for (`PLAY_FILE`): the
next `play` with the same options continues it (`unfinished_game`), its server restoring the table and its bot
(server/recovery.py) and the client taking its seat back with the kept token, as after a crash on any server.
"""

from __future__ import annotations

import glob
import json
import os
import queue
import re
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import IO

from .held import SeatFile, state_dir
from .i18n import _

try:
    import fcntl
except ImportError:  # Windows: no advisory lock, so no directory is known to be free (none is resumed or removed)
    fcntl = None

READY = re.compile(r"^dt-server listening on (\S+):(\d+)\s*$")
START_TIMEOUT = 15.0
STOP_TIMEOUT = 5.0


class ServerStartError(RuntimeError):
    """The server exited or stayed silent instead of announcing its port."""


def server_command(data: Path, config: Path | None = None) -> list[str]:
    """The embedded server, on the data directory `data` (with the settings file `config`, `play_config`)."""
    command = [sys.executable, "-m", "dungeon_twister.server", "--host", "127.0.0.1", "--port", "0",
               "--data", str(data)]
    return command + ["--config", str(config)] if config is not None else command


GAMES_DIR = "games"
"""In the client's state directory: the record of each game against the bot that ended (the server's records_dir),
for `dt-client replay FILE` once the run's data directory is gone (play-test pt27 F8: a newcomer could not watch
his game again after leaving the client)."""
PLAY_CONFIG = "play.toml"
"""In a run's data directory: the embedded server's settings file (`play_config`)."""


def games_dir() -> Path:
    """Where the embedded server writes the records of finished games (GAMES_DIR)."""
    return state_dir() / GAMES_DIR


def game_record(table: str) -> Path | None:
    """The record file the embedded server wrote of its table `table`'s finished game, if any (its newest)."""
    records = sorted(games_dir().glob(f"*-{glob.escape(table)}.txt"))
    return records[-1] if records else None


def play_config(data: Path) -> Path:
    """The embedded server's settings file, written in its data directory `data`: the records of its finished games
    go to `games_dir()` (a TOML basic string: JSON's escapes, \\uXXXX included, are TOML's); and a player who
    leaves his game against the bot for a while finds it as he left it (`idle_minutes = 0`: the bot never claims
    an idle game, which a public server's rule is for)."""
    path = data / PLAY_CONFIG
    path.write_text(f"records_dir = {json.dumps(str(games_dir()))}\nidle_minutes = 0\n", encoding="utf-8")
    return path


DATA_PREFIX = "local-server-"
PLAY_FILE = "play.json"
"""In a run's data directory: the player's name and what `play` asked for (`game`), to find the game again."""
SERVER_LOCK = "dt-server.lock"
"""The lock file dt-server holds in its data directory while it runs (server/storage.py LOCK_NAME)."""
LOCAL_SERVER = "local"
"""The server's name in the held-seat file of a local game (its port changes from run to run)."""


def fresh_data_dir() -> Path:
    """A new data directory for one run of the embedded server, in the client's state directory: never the one a
    `dt-server` of the same user uses (whose lock it would meet, and whose tables it would restore), nor the one
    of an earlier or a concurrent `dt-client play` (a game is continued only by asking for it: `unfinished_game`).
    One directory shared from run to run restored the game its last run left, its seat held for the player's name,
    which the next run's same name was then refused (name_taken); a second `play` at the same time met the first's
    lock."""
    directory = state_dir()
    directory.mkdir(parents=True, exist_ok=True)
    return Path(tempfile.mkdtemp(prefix=DATA_PREFIX, dir=directory))


def seat_file(data: Path, name: str) -> SeatFile:
    """The held-seat file of `name`'s game on the local server of `data`, kept in that directory."""
    return SeatFile(LOCAL_SERVER, name, directory=data)


def remember_play(data: Path, name: str, game: str) -> None:
    """What this run of `play` asked for (`game`: its options, as text), for `unfinished_game`."""
    (data / PLAY_FILE).write_text(json.dumps({"name": name, "game": game}))


def unfinished_game(name: str, game: str) -> Path | None:
    """The data directory of `name`'s newest unfinished local game that `play` with the same options (`game`)
    started, if any: no server uses it (a running `play` holds its lock) and it holds the player's seat file (the
    client deletes it when the game ends or the player leaves it). Directories no server uses and no unfinished
    game is in (a run that ended, or that stopped before the game was set up) are removed on the way; those of
    other players' or other options' unfinished games stay for them."""
    found: list[tuple[float, Path]] = []
    for data in state_dir().glob(DATA_PREFIX + "*"):
        if not data.is_dir() or _in_use(data):
            continue
        try:
            played = json.loads((data / PLAY_FILE).read_text())
            kept = seat_file(data, played["name"]).load() if isinstance(played.get("name"), str) else None
        except (OSError, ValueError, AttributeError):
            kept = played = None
        if kept is None:
            shutil.rmtree(data, ignore_errors=True)
        elif played == {"name": name, "game": game}:
            found.append((data.stat().st_mtime, data))
    return max(found)[1] if found else None


def _in_use(data: Path) -> bool:
    """Whether a server holds the lock of the data directory (or nothing can tell: no advisory locks)."""
    if fcntl is None:
        return True
    try:
        with (data / SERVER_LOCK).open("a") as lock:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                return True
            fcntl.flock(lock, fcntl.LOCK_UN)
            return False
    except OSError:
        return True


class LocalServer:
    """`with LocalServer() as (host, port): ...` runs the server for the duration of the block."""

    def __init__(self, command: list[str] | None = None, start_timeout: float = START_TIMEOUT,
                 data: Path | None = None, player: str | None = None) -> None:
        """`command`: the server to run (tests); by default the embedded one, on `data` (an unfinished game's
        directory) or on a data directory made for this run (`fresh_data_dir`). The directory is removed with
        the server unless `player`'s seat file is kept in it (his game did not end: `stop`)."""
        self.command = command
        self.data: Path | None = data
        self.player = player
        self.start_timeout = start_timeout
        self.process: subprocess.Popen[str] | None = None
        self.log_path: Path | None = None

    def __enter__(self) -> tuple[str, int]:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def start(self) -> tuple[str, int]:
        """Start the server; its (host, port) once it listens. Raises ServerStartError."""
        command = self.command
        if command is None:
            if self.data is None:
                self.data = fresh_data_dir()
            command = server_command(self.data, play_config(self.data))
        handle, name = tempfile.mkstemp(prefix="dt-server-", suffix=".log")
        os.close(handle)
        self.log_path = Path(name)
        with self.log_path.open("a") as log:  # append mode: the server's stderr and _pump share the file
            self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=log,
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
        if process is not None and process.poll() is None:
            process.terminate()
            try:
                process.wait(STOP_TIMEOUT)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
            if self.log_path is not None and not keep_log:
                self.log_path.unlink(missing_ok=True)
        if self.data is not None:  # the game of this run goes with it, unless it did not end (a seat file is kept)
            if self.player is None or not seat_file(self.data, self.player).path.exists():
                shutil.rmtree(self.data, ignore_errors=True)
            self.data = None

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
