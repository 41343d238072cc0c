"""Game records, whatever the game: a start line, then one `B: <action>` or `Y: <action>` per line; blank lines and
lines starting with '#' are ignored. Each rule family gives its own start line and notation
(engine/boardgame/records.py, engine/cards/records.py)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from .errors import IllegalAction, NotationError


@dataclass(frozen=True)
class RecordLine:
    number: int  # 1-based line number in the record
    text: str
    action: object


def parse_lines(text: str, parse_start: Callable[[str, int], object],
                parse_action: Callable[[str, str], object]) -> tuple[object, list[RecordLine]]:
    """The starting state and the parsed action lines (not yet applied)."""
    lines = [(i + 1, raw.strip()) for i, raw in enumerate(text.splitlines())]
    lines = [(n, line) for n, line in lines if line and not line.startswith("#")]
    if not lines:
        raise NotationError("empty record")
    start = parse_start(lines[0][1], lines[0][0])
    actions = []
    for number, line in lines[1:]:
        m = re.match(r"^([BY]):\s*(.*)$", line)
        if not m:
            raise NotationError("line {line}: expected 'B: <action>' or 'Y: <action>'", line, 0, line=number)
        try:
            actions.append(RecordLine(number, line, parse_action(m.group(2), m.group(1))))
        except NotationError as error:
            raise NotationError("line {line}: {error}", line=number, error=str(error)) from None
    return start, actions


def replay_lines(state, lines: list[RecordLine], apply: Callable) -> Iterator[tuple[RecordLine, object, tuple]]:
    """Apply a record's lines in turn: yields (line, state after it, its events); an illegal line raises
    IllegalAction naming the line's number and text."""
    for line in lines:
        try:
            state, events = apply(state, line.action)
        except IllegalAction as error:
            raise IllegalAction(error.rule, "line {number} ({text}): {message}", number=line.number, text=line.text,
                                message=error.message) from None
        yield line, state, events
