"""Game records in the engine's format (engine.records), with commit-reveal steps as '#' comment lines."""

from __future__ import annotations

import os
import time
from pathlib import Path

from dungeon_twister.engine import Action, Options
from dungeon_twister.engine.records import format_line, game_header


class GameRecord:
    """The lines of one game: its start, one line per applied action, comments for commits, reveals, results."""

    def __init__(self, seed: int, options: Options) -> None:
        self.lines = [game_header(seed, options)]

    def action(self, action: Action) -> None:
        self.lines.append(format_line(action))

    def comment(self, text: str) -> None:
        self.lines.append("# " + text.replace("\n", " "))

    def commit(self, seat: str, purpose: str, commitment: bytes) -> None:
        self.comment(f"commit {seat} {purpose} {commitment.hex()}")

    def reveal(self, seat: str, purpose: str, choice: str, nonce: bytes) -> None:
        self.comment(f"reveal {seat} {purpose} {nonce.hex()} {choice}")

    def text(self) -> str:
        return "\n".join(self.lines) + "\n"


def write_record(directory: Path, table_id: str, record: GameRecord) -> Path:
    """Write the record atomically as DIRECTORY/<date>-<table id>.txt; return its path."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{time.strftime('%Y%m%d-%H%M%S')}-{table_id}.txt"
    temporary = path.with_suffix(".tmp")
    temporary.write_text(record.text(), encoding="utf-8")
    os.replace(temporary, path)
    return path
