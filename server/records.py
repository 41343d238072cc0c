"""Game records in the engine's format (engine.records), with commit-reveal steps as '#' comment lines."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable
from pathlib import Path

from dungeon_twister.engine import Action
from dungeon_twister.engine.families import Family, family_for
from dungeon_twister.protocol import GameInfo, Games, ProtocolError, TableOptions
from dungeon_twister.protocol.codec import encode_message
from dungeon_twister.protocol.wire_types import FieldError
from dungeon_twister.protocol.commit import seed_commitment
from dungeon_twister.protocol.kinds import NAME

from .options import engine_options


class GameRecord:
    """The lines of one game: its start, one line per applied action, comments for commits, reveals, results.

    `sink(line, data)`, if set, is told each new line with what restoring the game from it needs (the durable
    store's journal, see recovery.py); `data` is None for a plain comment. The lines themselves live there, not
    here: a game holds the same memory after 5,000 actions as after 5 (the whole record is read back from the
    journal when the game ends, `text`)."""

    def __init__(self, seed: int, options, family: Family) -> None:
        self.family = family
        self.header = family.game_header(seed, options)
        self.last = self.header
        """The latest line."""
        self.count = 1
        """Lines so far, the header included."""
        self.actions = 0
        """Action lines so far."""
        self.sink: Callable[[str, dict | None], None] | None = None

    def _add(self, line: str, data: dict | None) -> None:
        self.last = line
        self.count += 1
        if line[:2] in ("B:", "Y:"):
            self.actions += 1
        if self.sink is not None:
            self.sink(line, data)

    def restored(self, line: str) -> None:
        """A line of the journal replayed that no engine action wrote again (a comment): counted, not stored."""
        self._add(line, None)

    def action(self, action: Action, meta: dict | None = None, text: str | None = None) -> None:
        """An applied action; `meta`: the action_id and typed text of a player's action message; `text`: the
        action's canonical text (format_action) if the caller has it (not formatted again)."""
        line = self.family.format_line(action) if text is None else f"{action.seat}: {text}"
        self._add(line, {"k": "action", **(meta or {})})

    def comment(self, text: str, data: dict | None = None) -> None:
        self._add("# " + text.replace("\n", " "), data)

    def commit(self, seat: str, purpose: str, commitment: bytes) -> None:
        self.comment(f"commit {seat} {purpose} {commitment.hex()}",
                     {"k": "commit", "seat": seat, "purpose": purpose, "commitment": commitment.hex()})

    def reveal(self, seat: str, purpose: str, choice: str, nonce: bytes) -> None:
        self.comment(f"reveal {seat} {purpose} {nonce.hex()} {choice}",
                     {"k": "reveal", "seat": seat, "purpose": purpose, "choice": choice, "nonce": nonce.hex()})

    def text(self, lines: Iterable[str]) -> str:
        """The whole record: the header, then `lines` (the journal's lines, in order)."""
        return "\n".join([self.header, *lines]) + "\n"


def replayable(journal: Iterable[tuple[str, dict | None]]) -> list[str]:
    """The journal's lines as a record replays them: an action taken back (DT-224) becomes the comment
    `# taken back: B: ...`, before the `# takeback` line that says so."""
    lines: list[str] = []
    for line, data in journal:
        if data and data.get("k") == "takeback":
            last = max(i for i, kept in enumerate(lines) if not kept.startswith("#"))
            lines[last] = f"# taken back: {lines[last]}"
        lines.append(line)
    return lines


def write_record(directory: Path, table_id: str, text: str) -> Path:
    """Write a record's text atomically as DIRECTORY/<date>-<table id>.txt; return its path. The file is 0600, and
    the directory, if this makes it, 0700, as the data directory: the records of private tables are among them
    (who played whom and how, which the server itself gives only to whoever has the join code), and a play-test
    found them readable by every local user. A directory the admin made keeps its mode."""
    directory.mkdir(mode=0o700, parents=True, exist_ok=True)
    path = directory / f"{time.strftime('%Y%m%d-%H%M%S')}-{table_id}.txt"
    temporary = path.with_suffix(".tmp")
    temporary.unlink(missing_ok=True)  # (one left by a crash keeps its mode: O_CREAT would not set it)
    with os.fdopen(os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "w", encoding="utf-8") as out:
        out.write(text)
    os.replace(temporary, path)
    return path


def record_text(table) -> str:
    """A stored game as a record `dt-engine play` replays: its start, its table (the game id of its commitments,
    so that a replay can verify them), the commitment to its seed made before the game and the nonce that opens
    it (docs/protocol.md section 16), its lines, and its final position. A game dealt from the mix of the server's
    seed and the players' contributions starts from the mixed seed and says `# deal-commitment`, `# deal-nonce`
    and `# deal-server-seed` instead of `# seed-commitment` and `# seed-nonce` (its `# dealt` line has the
    contributions), so that an older `dt-client verify` finds no seed commitment to check."""
    options = engine_options(TableOptions(**table.options))
    dealt = next((data for _, data in table.journal if data and data.get("k") == "dealt"), None)
    seed = table.seed if dealt is None else int(dealt["seed"])
    lines = [family_for(options).game_header(seed, options), f"# table {table.id}"]
    if getattr(table, "seed_nonce", None):
        commitment = seed_commitment(table.id, table.seed, bytes.fromhex(table.seed_nonce)).hex()
        if dealt is None:
            lines += [f"# seed-commitment {commitment}", f"# seed-nonce {table.seed_nonce}"]
        else:  # dealt from the mix of the server's seed and the players' contributions (the `# dealt` line)
            lines += [f"# deal-commitment {commitment}", f"# deal-nonce {table.seed_nonce}",
                      f"# deal-server-seed {table.seed}"]
    lines += replayable(table.journal)
    if table.final:
        lines.append(f"# final {table.final}")
    return "\n".join(lines) + "\n"


def game_info(table) -> GameInfo | None:
    """A finished public game of the store (`finished_games`) as one line of `list_games`'s answer: its table and
    options, when it ended, its result and who sat in each seat; None for a row this version cannot show (options
    of a newer dt-server's, a value out of the protocol's range: review rv27), which costs that line, not the page
    or the connection. A name that no longer fits the protocol's, from a store older than its check, is left out."""
    result = table.result or {}
    vp = result.get("vp") or {}
    names = {seat: name for seat, (name, _bot) in table.seats.items()
             if isinstance(name, str) and 1 <= len(name) <= NAME.max_len}
    try:
        info = GameInfo(table.id, TableOptions(**table.options), int(table.finished or table.created),
                        str(result.get("reason") or "over")[:128], int(vp.get("B", 0)), int(vp.get("Y", 0)),
                        result.get("winner") if result.get("winner") in ("B", "Y") else None,
                        names.get("B"), names.get("Y"))
        encode_message(Games((info,), 1))  # (what `send` would refuse)
    except (TypeError, ValueError, ProtocolError, FieldError):
        return None
    return info
