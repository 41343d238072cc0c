"""The admin's control channel of a running dt-server: `dt-server admin who|tables|kick|end|say|reload`.

The server listens on a Unix-domain socket in its data directory, `DATA_DIR/dt-server-admin.sock` (ADMIN_SOCKET),
made 0600: the file's permission is the authentication (the server's own user, and root, may connect; nothing is
exposed to the network). A request is one line of JSON, a map with its `command` and that command's fields; the
answer is one line of JSON, `{"ok": true, ...}` or `{"ok": false, "error": "..."}` (deploy/README.md, "Moderation",
documents each). It is not part of the players' protocol.

Every input is bounded: a line of at most MAX_LINE bytes, a connection silent for IDLE_SECONDS is closed, at most
MAX_CONNECTIONS at once. A malformed request (not UTF-8, not JSON, not a map, an unknown command, a field of the
wrong type or out of range) is answered with its error and closes that control connection only; a request that is
well formed but cannot be done (no such table) is answered `ok: false` and the connection goes on. Each command
is logged (`admin`, with the command's fields and the connecting user's uid), each refused request too
(`admin_refused`, a warning).

The listener is a task of the server's nursery (`serve_admin`, started by Server.run); the socket file goes when
the server stops.
"""

from __future__ import annotations

import argparse
import json
import logging
import math
import os
import socket
import stat
import struct
import sys
import tomllib
from dataclasses import asdict, replace
from pathlib import Path
from typing import TYPE_CHECKING

import trio

from dungeon_twister.protocol import Announcement, ChatMessage, State
from dungeon_twister.protocol.names import is_bot_name, name_key, name_problem
from dungeon_twister.protocol.versions import release
from dungeon_twister.protocol.views import ANNOUNCEMENTS

from .logs import LOGGER, log
from .ratelimit import banned_by, banned_networks
from .sanitize import clean_chat
from .table import AdminEnd

if TYPE_CHECKING:
    from .ports import Host as Server

ADMIN_SOCKET = "dt-server-admin.sock"
"""The control socket's name in the data directory."""
MAX_LINE = 4096
"""The longest request line, in bytes (its newline included)."""
IDLE_SECONDS = 30.0
"""A control connection that sends no complete request (or reads no answer) for this long is closed."""
MAX_CONNECTIONS = 8
"""Control connections served at once; more are closed as soon as they are accepted."""
DEFAULT_KICK_MINUTES = 10
"""`kick` without `minutes`: the name may connect again after this long."""
MAX_KICK_MINUTES = 7 * 24 * 60
"""The longest kick (a week); for longer, `banned_names` in the settings file and `reload`."""
MAX_SAY = 500
"""The longest announcement, in characters (a chat line's limit: the protocol's announcement.text)."""
END_SECONDS = 10.0
"""How long `end` waits for the table's task to take the request."""
STOPPED_HELP = ("free some space on the data directory's disk, or get the database answering: the table comes back "
                "as the store has it at its players' first resume after that (or at a restart)")
"""What an admin can do about a table a store failure stopped (`tables`, `who`, `end`)."""
COMMANDS = ("who", "tables", "kick", "end", "say", "reload")
MODERATION = ("banned_addresses", "banned_names", "reserved_names")
"""The settings `reload` reads anew; the others need a restart."""


class BadRequest(ValueError):
    """A malformed request: answered, then the control connection is closed."""


class Refused(ValueError):
    """A well-formed request that cannot be done: answered `ok: false`, the connection goes on."""


# --- the server's end ---------------------------------------------------------------------------------------------
async def admin_listener(path: Path) -> trio.SocketListener | None:
    """The control socket's listener at `path` (`_listen`), or None: one that cannot be made (a path too long for a
    Unix socket, a file in the way, another server answering there) is logged as a warning, and the server runs
    without it."""
    try:
        listener = await _listen(path)
    except OSError as error:
        log("admin_unavailable", level=logging.WARNING, path=str(path), error=error.strerror or str(error))
        return None
    log("admin_listening", path=str(path))
    return listener


async def serve_admin(server: Server, listener: trio.SocketListener, path: Path) -> None:
    """Serve the control socket until cancelled (the server's nursery ends), then remove its file."""
    admin = Admin(server)
    try:
        await trio.serve_listeners(admin.serve, [listener])
    finally:
        with trio.CancelScope(shield=True):
            await trio.aclose_forcefully(listener)
        try:
            if path.is_socket():
                path.unlink()
        except OSError:
            pass


async def _listen(path: Path) -> trio.SocketListener:
    """The listening socket at `path`, 0600 from its making (a umask around bind, then a chmod to make sure). A
    stale socket file (a server killed) is replaced; one that answers belongs to a running server: refused."""
    if len(os.fsencode(path)) >= 108:  # (sockaddr_un.sun_path, with its NUL)
        raise OSError(0, f"the path is too long for a Unix socket ({len(os.fsencode(path))} bytes, at most 107)")
    if path.exists() or path.is_symlink():
        if not stat.S_ISSOCK(path.lstat().st_mode):
            raise OSError(0, f"{path} exists and is not a socket")
        probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            probe.connect(str(path))
        except OSError:  # nobody listens: a server that died left it
            path.unlink()
        else:
            raise OSError(0, "another dt-server answers on it")
        finally:
            probe.close()
    # (bound here, not with trio's bind, which runs a Unix socket's bind in a thread: a local file's making, at once)
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        mask = os.umask(0o177)
        try:
            sock.bind(str(path))
        finally:
            os.umask(mask)
        os.chmod(path, 0o600)
        sock.listen(MAX_CONNECTIONS)
        sock.setblocking(False)
    except BaseException:
        sock.close()
        raise
    await trio.lowlevel.checkpoint()
    return trio.SocketListener(trio.socket.from_stdlib_socket(sock))


def _peer_uid(stream) -> int | None:
    """The uid of the process at the other end of a Unix socket (Linux's SO_PEERCRED), for the log; None elsewhere."""
    try:
        credentials = stream.socket.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
        return struct.unpack("3i", credentials)[1]
    except (AttributeError, OSError):
        return None


class Admin:
    """The commands, run in the server's process (its tasks are trio's: each command's work happens between two
    awaits, as a lobby request's does)."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.connections = 0

    async def serve(self, stream) -> None:
        """One control connection: requests and answers, a line each, until the client closes it, sends something
        malformed, or stays silent IDLE_SECONDS."""
        uid = _peer_uid(stream)
        if self.connections >= MAX_CONNECTIONS:
            log("admin_refused", level=logging.WARNING, uid=uid, error=f"more than {MAX_CONNECTIONS} connections")
            await trio.aclose_forcefully(stream)
            return
        self.connections += 1
        try:
            buffer = b""
            while True:
                line, buffer, ended, too_long = await self._line(stream, buffer)
                if line is None:
                    if not ended:
                        why = (f"no request within {IDLE_SECONDS:g} s" if line is None and not too_long
                               else f"a request longer than {MAX_LINE} bytes")
                        log("admin_refused", level=logging.WARNING, uid=uid, error=why)
                        await self._answer(stream, {"ok": False, "error": why})
                    return
                try:
                    request = parse(line)
                except BadRequest as error:
                    log("admin_refused", level=logging.WARNING, uid=uid, error=str(error))
                    await self._answer(stream, {"ok": False, "error": str(error)})
                    return
                try:
                    answer = await self.run(request)
                except Refused as error:
                    answer = {"ok": False, "error": str(error)}
                log("admin", uid=uid, **request, ok=answer["ok"],
                    **({"error": answer["error"]} if not answer["ok"] else {}))
                if not await self._answer(stream, answer):
                    return
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
            pass
        except Exception:  # a bug's request costs its control connection, never the server (review rv30: one line
            # on this socket cancelled the server's nursery, every game with it)
            LOGGER.exception("admin_failed", extra={"fields": {"uid": uid}})
            with trio.move_on_after(IDLE_SECONDS):
                try:
                    await stream.send_all(b'{"ok": false, "error": "internal error (see the server\'s log)"}\n')
                except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
                    pass
        finally:
            self.connections -= 1
            await trio.aclose_forcefully(stream)

    async def _line(self, stream, buffer: bytes) -> tuple[bytes | None, bytes, bool, bool]:
        """(the next request line, what follows it, False, False); (None, b"", True, False) at the end of the
        stream; (None, b"", False, False) after IDLE_SECONDS without a whole line; (None, b"", False, True) once
        MAX_LINE bytes hold none."""
        with trio.move_on_after(IDLE_SECONDS):
            while b"\n" not in buffer:
                if len(buffer) >= MAX_LINE:
                    return None, b"", False, True
                data = await stream.receive_some(MAX_LINE)
                if not data:
                    return None, b"", True, False
                buffer += data
            line, _, rest = buffer.partition(b"\n")
            if len(line) >= MAX_LINE:
                return None, b"", False, True
            return line, rest, False, False
        return None, b"", False, False

    async def _answer(self, stream, answer: dict) -> bool:
        """Send one answer line; False if the client does not take it within IDLE_SECONDS (or is gone)."""
        data = json.dumps(answer).encode() + b"\n"  # (ASCII: a lone surrogate a request echoes encodes too)
        with trio.move_on_after(IDLE_SECONDS):
            await stream.send_all(data)
            return True
        return False

    async def run(self, request: dict) -> dict:
        command = request["command"]
        if command == "who":
            return self.who()
        if command == "tables":
            return self.tables()
        if command == "kick":
            return self.kick(request["name"], request.get("minutes", DEFAULT_KICK_MINUTES))
        if command == "end":
            return await self.end(request["table"])
        if command == "say":
            return self.say(request["text"])
        return self.reload()

    # --- the commands ---------------------------------------------------------------------------------------------
    def who(self) -> dict:
        """The connected names (bots aside) with their addresses and where they are; the names whose seats are held
        for them; the names kicked; how many connections have not said hello yet, and how many bots play; the
        release this server runs (after an upgrade, `dt-server --version` tells the one installed, this the one
        still running until the restart)."""
        server, now = self.server, trio.current_time()
        people, unnamed, bots = [], 0, 0
        for session in server.sessions:
            if session.bot_name is not None:
                bots += 1
                continue
            if session.name is None:
                unnamed += 1
                continue
            conn = session.conn
            people.append({"name": session.name, "address": session.address, "session": session.id,
                           "role": "spectator" if session.is_spectator else "player",
                           "table": conn.table if conn.state in (State.AT_TABLE, State.SPECTATING) else None,
                           "seat": conn.seat if conn.state is State.AT_TABLE else None})
        people.sort(key=lambda one: name_key(one["name"]))
        held = [{"name": state.name, "table": table.id, "seat": seat,
                 "seconds": max(0, math.ceil(state.grace_until - now))}
                for table in server.lobby.tables.values() for seat, state in table.seating.seats.items()
                if state.session is None and state.grace_until is not None]
        stopped = [{"name": state.name, "table": table.id, "seat": seat}
                   for table in server.lobby.stopped.values() for seat, state in table.seating.seats.items()
                   if state.name is not None and not state.bot]
        kicked = [{"name": key, "minutes": minutes} for key in sorted(server.lobby.kicked)
                  if (minutes := server.lobby.kicked_for(key)) is not None]
        return {"ok": True, "connected": people, "held": held, "stopped": stopped, "kicked": kicked,
                "unnamed": unnamed, "bots": bots, "version": release()}

    def tables(self) -> dict:
        """Every open table (private ones too): its status, options, creator, seats and spectators; then the tables
        a store failure stopped (`stopped`: true, Lobby.stopped), open in the store, whose seats are kept until the
        store answers again and a resume brings the table back (recovery.revive_table)."""
        now, out, lobby = trio.current_time(), [], self.server.lobby
        for table in [*lobby.tables.values(), *(one for one in lobby.stopped.values() if one.id not in lobby.tables)]:
            seats = {}
            for seat, state in table.seating.seats.items():
                if state.name is None:
                    how = "free"
                elif state.bot:
                    how = "bot"
                elif table.stopped:
                    how = "kept"
                elif state.session is not None:
                    how = "connected"
                elif state.grace_until is not None:
                    how = f"away ({max(0, math.ceil(state.grace_until - now))} s left)"
                else:
                    how = "gone"
                seats[seat] = {"name": state.name, "state": how}
            options = {key: value for key, value in asdict(table.options).items() if value not in (None, False)}
            game = table.play.game.state if table.play.started and not table.stopped else None
            # (a stopped table's turn is not shown: its game in memory may hold the step the store did not save)
            out.append({"table": table.id, "status": table.status, "stopped": table.stopped, "options": options,
                        "creator": table.creator, "seats": seats,
                        "spectators": 0 if table.stopped else len(table.spectators),
                        "turn": getattr(game, "turn", None), "result": table.play.result})
        return {"ok": True, "tables": out}

    def kick(self, name: str, minutes: int) -> dict:
        """Close the connections of `name` (in any spelling, as names are compared) and refuse it for `minutes`. A
        seat of his is then held as after any lost connection (`grace_seconds`); if he may not come back within
        it, the game is abandoned, which he loses (rated, as any abandonment)."""
        if is_bot_name(name):
            raise Refused(f"{name} is a bot's name: end its table instead (dt-server admin end TABLE)")
        lobby, key = self.server.lobby, name_key(name)
        unstored = lobby.kick_name(name, minutes * 60)
        closed = [session for session in list(self.server.sessions)
                  if session.name is not None and session.bot_name is None and name_key(session.name) == key]
        for session in closed:
            session.kick(minutes)
        seats = [{"table": table.id, "seat": seat} for table in lobby.tables.values()
                 for seat, state in table.seating.seats.items()
                 if state.name is not None and name_key(state.name) == key and table.play.running]
        return {"ok": True, "name": name, "closed": len(closed), "minutes": minutes, "seats": seats,
                "grace_seconds": self.server.config.grace_seconds,
                **({"not_stored": unstored} if unstored is not None else {})}

    async def end(self, word: str) -> dict:
        """End the table `word` names (its id, or its number: `7`, `t7`): a game in play ends without a winner,
        unrated, reason "ended by the server's admin" (kept in the store as any finished game: a restart does not
        bring it back); a table whose game has not begun (or is over) closes, its players and spectators sent back
        to the lobby with the reason."""
        table = _table_named(self.server.lobby.tables, word)
        if table is None:
            if (stopped := _table_named(self.server.lobby.stopped, word)) is not None:
                raise Refused(f"table {stopped.id} is stopped by the store (see the log's storage_failed): nothing "
                              f"done; {STOPPED_HELP}, then end it")
            raise Refused(f"no open table {word!r}")
        item = AdminEnd(trio.Event())
        queued = False
        with trio.move_on_after(END_SECONDS):  # (a full inbox too: the whole wait is bounded, review rv30)
            if not await table.submit(item):
                raise Refused(f"table {table.id} has closed meanwhile")
            queued = True
            await item.done.wait()
        if item.done.is_set() and item.outcome is None:
            raise Refused(f"table {table.id} did not take the request (see the log)")
        if item.outcome == "stopped":  # (its step not saved: nobody was told it ended or closed, Table._step)
            raise Refused(f"the store could not save the end of table {table.id}: nothing done, the table is stopped "
                          "as the store has it (see the log's storage_failed; it comes back once the store answers)")
        if not item.done.is_set():  # (queued, it is still ended when the table's task comes to it: not a failure)
            raise Refused(f"table {table.id} is busy: it ends when it comes to the request (see `tables`)" if queued
                          else f"table {table.id} is busy: nothing done, try again")
        return {"ok": True, "table": table.id, "outcome": item.outcome}

    def say(self, text: str) -> dict:
        """An announcement to every connected client (bots aside): `announcement` to a client that asked for it,
        a chat line from the server's name to the others."""
        server = self.server
        server.log_chat(None, None, None, text)
        fallback = ChatMessage(server.config.name[:32], text)
        sent = 0
        for session in list(server.sessions):
            if session.bot_name is not None or session.conn.state not in (State.LOBBY, State.AT_TABLE,
                                                                          State.SPECTATING):
                continue
            session.send(Announcement(text) if ANNOUNCEMENTS in session.conn.features else fallback)
            sent += 1
        return {"ok": True, "sent": sent, "text": text}

    def reload(self) -> dict:
        """Read the settings file again and take its moderation settings (MODERATION); close the connections its
        new bans name (as `kick` does, the name free to come back unless banned). The other settings changed in
        the file are listed: they take a restart."""
        from .config import load_config

        server = self.server
        path = server.config_path
        if path is None:
            raise Refused("the server was started without --config: there is no settings file to read again")
        try:
            fresh = load_config(path)
        except (OSError, ValueError) as error:
            raise Refused(f"nothing changed: {getattr(error, 'strerror', None) or error}") from None
        before = server.config
        changed = [key for key in MODERATION if getattr(fresh, key) != getattr(before, key)]
        moderation = {key: getattr(fresh, key) for key in MODERATION}
        restart = sorted(key for key, value in asdict(replace(fresh, **{key: getattr(before, key) for key in MODERATION}
                                                              )).items()
                         if value != getattr(before, key) and key not in ("host", "port", "data_dir", "tls",
                                                                          "database"))
        # (host, port, data_dir, tls and database may come from the command line: a difference there may be none)
        server.config = replace(before, **moderation)
        server.moderation()
        networks, names = banned_networks(fresh.banned_addresses), server.lobby.banned_names
        closed = []
        for session in list(server.sessions):
            if session.bot_name is not None or session.name is None and session.address is None:
                continue
            if (session.name is not None and name_key(session.name) in names) or banned_by(session.address, networks):
                closed.append(session.name or session.address)
                session.kick(0)
        return {"ok": True, "changed": changed, "closed": sorted(map(str, closed)), "restart_needed": restart,
                **{key: list(value) for key, value in moderation.items()}}


def _table_named(tables: dict, word: str):
    """The open table of id `word`, or of the number `word` gives (`7`, `t7`)."""
    if word in tables:
        return tables[word]
    digits = word[1:] if word[:1] in ("t", "T") else word
    if digits.isascii() and digits.isdigit():
        prefix = f"t{int(digits)}-"
        return next((table for table_id, table in tables.items() if table_id.startswith(prefix)), None)
    return None


def parse(line: bytes) -> dict:
    """The request of a line: a map with a known `command` and its fields, each of the right type and within its
    bounds, nothing else; BadRequest otherwise."""
    try:
        request = json.loads(line.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):  # (RecursionError: "[[[[..." nested too deep)
        raise BadRequest("a request is one line of JSON (UTF-8)") from None
    if not isinstance(request, dict):
        raise BadRequest("a request is a JSON object")
    command = request.get("command")
    if command not in COMMANDS:
        raise BadRequest(f"unknown command (known: {', '.join(COMMANDS)})")
    fields = {"kick": {"name", "minutes"}, "end": {"table"}, "say": {"text"}}.get(command, set())
    extra = sorted(set(request) - fields - {"command"})
    if extra:
        raise BadRequest(f"{command} takes no field {', '.join(map(repr, extra))}")
    if command == "kick":
        name = request.get("name")
        if not isinstance(name, str) or not 1 <= len(name) <= 32:
            raise BadRequest("kick needs a name of 1 to 32 characters")
        if (problem := name_problem(name)) is not None:  # (no player has it: nothing to kick)
            raise BadRequest(f"kick: {problem}")
        minutes = request.get("minutes", DEFAULT_KICK_MINUTES)
        if isinstance(minutes, bool) or not isinstance(minutes, int) or not 0 <= minutes <= MAX_KICK_MINUTES:
            raise BadRequest(f"kick's minutes must be a whole number from 0 to {MAX_KICK_MINUTES}")
    elif command == "end":
        table = request.get("table")
        if not isinstance(table, str) or not 1 <= len(table) <= 64:
            raise BadRequest("end needs a table: its id or its number")
    elif command == "say":
        text = request.get("text")
        if not isinstance(text, str):
            raise BadRequest("say needs a text")
        text = clean_chat(text)
        if not 1 <= len(text) <= MAX_SAY:
            raise BadRequest(f"say needs a text of 1 to {MAX_SAY} characters (printable)")
        request = {**request, "text": text}
    return request


# --- the command's end --------------------------------------------------------------------------------------------
def request(path: Path, payload: dict, timeout: float = IDLE_SECONDS) -> dict:
    """Send one request to the control socket at `path`; its answer. OSError if the socket cannot be reached,
    ValueError if the answer is not one."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(timeout)
        sock.connect(str(path))
        sock.sendall(json.dumps(payload).encode() + b"\n")
        data = b""
        while not data.endswith(b"\n"):
            chunk = sock.recv(65536)
            if not chunk:
                break
            data += chunk
    answer = json.loads(data.decode("utf-8"))
    if not isinstance(answer, dict) or "ok" not in answer:
        raise ValueError("not an answer")
    return answer


def main(argv: list[str], default_data_dir: Path) -> None:
    """`dt-server admin [--data DIR | --config FILE | --socket PATH] [--json] COMMAND ...`."""
    parser = argparse.ArgumentParser(
        prog="dt-server admin", description="Control a running dt-server through its admin socket "
        f"(DATA_DIR/{ADMIN_SOCKET}, readable by the server's user alone: run this as that user, or root).")
    parser.add_argument("--data", type=Path, help=f"the server's data directory (default {default_data_dir})")
    parser.add_argument("--config", type=Path, help="the server's settings file, for its data_dir")
    parser.add_argument("--socket", type=Path, help="the control socket itself")
    parser.add_argument("--json", action="store_true", help="print the server's answer as it came (JSON)")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    commands.add_parser("who", help="connected names with their addresses, seats held, names kicked")
    commands.add_parser("tables", help="open tables with their seats and state")
    kick = commands.add_parser("kick", help="close a name's connections; it may connect again after --minutes")
    kick.add_argument("name")
    kick.add_argument("--minutes", type=int, default=DEFAULT_KICK_MINUTES,
                      help=f"how long the name is refused (default {DEFAULT_KICK_MINUTES}; 0: it may come back at once)")
    end = commands.add_parser("end", help="end a table: a game in play ends unrated, a waiting table closes")
    end.add_argument("table", help="its id, or its number (7 or t7)")
    say = commands.add_parser("say", help="an announcement every connected client shows")
    say.add_argument("text", nargs="+")
    commands.add_parser("reload", help="read banned_addresses, banned_names and reserved_names of the settings "
                        "file again")
    args = parser.parse_args(argv)
    path = args.socket
    if path is None:
        path = _data_dir(args.data, args.config, default_data_dir) / ADMIN_SOCKET
    payload: dict = {"command": args.command}
    if args.command == "kick":
        payload.update(name=args.name, minutes=args.minutes)
    elif args.command == "end":
        payload["table"] = args.table
    elif args.command == "say":
        payload["text"] = " ".join(args.text)
    try:  # (the server's own check, here: a value out of range is bad usage, exit 2, as argparse's own errors; the
        # server refused it with exit 1, adm33)
        parse(json.dumps(payload).encode())
    except BadRequest as error:
        print(f"dt-server admin: {error}", file=sys.stderr)
        sys.exit(2)
    try:
        answer = request(path, payload)
    except PermissionError:
        print(f"dt-server admin: {path}: permission denied (run it as the server's user, or root)", file=sys.stderr)
        sys.exit(1)
    except (FileNotFoundError, ConnectionRefusedError):
        print(f"dt-server admin: no dt-server answers at {path} (is it running, with this data directory?)",
              file=sys.stderr)
        sys.exit(1)
    except (OSError, ValueError) as error:
        print(f"dt-server admin: {path}: {error}", file=sys.stderr)
        sys.exit(1)
    if args.json:
        print(json.dumps(answer, ensure_ascii=False))
    elif not answer["ok"]:
        pass
    else:
        print(_shown(args.command, answer))
    if not answer["ok"]:
        print(f"dt-server admin: {answer.get('error')}", file=sys.stderr)
        sys.exit(1)


def _data_dir(data: Path | None, config: Path | None, default: Path) -> Path:
    """The data directory of `--data`, else the settings file's `data_dir`, else `default`. The file is read for
    that key alone, unchecked: a file the admin is fixing (an invalid setting that `reload` would refuse) must not
    keep him from reaching the server. Exits 2 if it is no TOML at all."""
    if data is not None:
        return data
    if config is not None:
        try:
            with open(config, "rb") as file:
                value = tomllib.load(file).get("data_dir")
        except (OSError, tomllib.TOMLDecodeError) as error:
            print(f"dt-server admin: cannot read data_dir in {config}: {getattr(error, 'strerror', None) or error} "
                  "(--data DIR names the data directory)", file=sys.stderr)
            sys.exit(2)
        if isinstance(value, str):
            return Path(value)
    return default


def _shown(command: str, answer: dict) -> str:
    """An answer for a person to read."""
    if command == "who":
        lines = [f"{one['name']}\t{one['address'] or '-'}\t{one['role']}\t"
                 f"{one['table'] or 'lobby'}{' ' + one['seat'] if one['seat'] else ''}" for one in answer["connected"]]
        lines = lines or ["nobody connected"]
        lines += [f"{one['name']}\taway\t{one['table']} {one['seat']}: seat held {one['seconds']} s more"
                  for one in answer["held"]]
        lines += [f"{one['name']}\tstopped\t{one['table']} {one['seat']}: seat kept, the table stopped by the store"
                  for one in answer.get("stopped", ())]
        lines += [f"{one['name']}\tkicked\tmay connect again in {one['minutes']} min" for one in answer["kicked"]]
        lines.append(f"({answer['unnamed']} connection(s) before hello, {answer['bots']} bot(s); running dt-server "
                     f"{answer.get('version', '?')})")
        if answer.get("stopped"):
            lines.append(f"(stopped by the store: {STOPPED_HELP})")
        return "\n".join(lines)
    if command == "tables":
        lines = []
        for table in answer["tables"]:
            seats = ", ".join(f"{seat}: {one['name'] or '-'} ({one['state']})" for seat, one in table["seats"].items())
            options = " ".join(f"{key}={value}" for key, value in table["options"].items())
            turn = f" turn {table['turn']}" if table["turn"] is not None else ""
            status = f"stopped by the store ({table['status']})" if table.get("stopped") else table["status"]
            lines.append(f"{table['table']}\t{status}{turn}\t{seats}\t{table['spectators']} watching\t"
                         f"{options or 'base set'}")
        if any(table.get("stopped") for table in answer["tables"]):
            lines.append(f"(stopped by the store: {STOPPED_HELP}; see the log's storage_failed)")
        return "\n".join(lines) or "no open table"
    if command == "kick":
        again = (f"it may connect again in {answer['minutes']} min" if answer["minutes"]
                 else "it may connect again at once")
        text = f"{answer['closed']} connection(s) of {answer['name']} closed; {again}"
        if answer.get("not_stored"):
            text += f"\nnot kept through a restart: the store could not save it ({answer['not_stored']})"
        for seat in answer["seats"]:
            text += (f"\nits seat {seat['seat']} at {seat['table']} is held {answer['grace_seconds']} s, as after any "
                     "lost connection: not back by then, it loses that game by abandonment")
        return text
    if command == "end":
        if answer["outcome"] == "ended":
            return f"the game of {answer['table']} ended without a winner, unrated (its players were told why)"
        return f"table {answer['table']} closed (everyone at it went back to the lobby, told why)"
    if command == "say":
        return f"said to {answer['sent']} connected client(s)"
    lines = [f"read again: {', '.join(answer['changed']) or 'no moderation setting changed'}"]
    for key in MODERATION:
        lines.append(f"{key} = {json.dumps(answer[key])}")
    if answer["closed"]:
        lines.append(f"closed, now banned: {', '.join(answer['closed'])}")
    if answer["restart_needed"]:
        lines.append(f"changed in the file, applied at the next restart: {', '.join(answer['restart_needed'])}")
    return "\n".join(lines)
