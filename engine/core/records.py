"""Game records, whatever the game: a start line, then one `B: <action>` or `Y: <action>` per line; blank lines and
lines starting with '#' are ignored. Each rule family gives its own start line and notation
(engine/boardgame/records.py, engine/cards/records.py)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from .errors import IllegalAction, NotationError

LINE_HEAD = "line {line}: "
"""What a record's parse error says before the error of its line's action (the template of that error follows)."""
ACTION_HEAD = "line {record_line} ({record_text}): "
"""What a record's illegal line says before the refusal of its action (the refusal's template follows)."""


SEED_DIGITS = 100
"""The most digits of a record's `seed=N`: a server's seeds have 20 at most (protocol/deal.py: 8 bytes); a record
with 5,000 was refused with Python's own "Exceeds the limit (4300 digits) for integer string conversion" (rv33)."""


def seed_of(digits: str, line: str, number: int) -> int:
    """The seed a start line writes as `digits` (decimal), or a NotationError naming the line."""
    if len(digits) > SEED_DIGITS:
        raise NotationError("line {line}: a seed has at most {limit} digits, not {count}", line, line.index("seed="),
                            line=number, limit=SEED_DIGITS, count=len(digits))
    return int(digits)


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
        except NotationError as error:  # the action's own error, its template kept (a client translates both)
            raise NotationError(LINE_HEAD + error.template, error.text, error.column, line=number,
                                **error.values) from None
    return start, actions


def replay_lines(state, lines: list[RecordLine], apply: Callable,
                 legacy: Callable | None = None) -> Iterator[tuple[RecordLine, object, tuple]]:
    """Apply a record's lines in turn: yields (line, state after it, its events); an illegal line raises
    IllegalAction naming the line's number and text. `legacy(state, action)`: the action an older version of the
    rules' notation meant by a line they now refuse, or None (the family's `legacy_action`); when it gives one,
    that is applied and yielded in the line (its text is the record's); when that is refused too, the line's own
    refusal stands."""
    for line in lines:
        try:
            state, events = apply(state, line.action)
        except IllegalAction as error:  # the refusal's template kept (a client translates both)
            converted = legacy(state, line.action) if legacy is not None else None
            try:
                if converted is None:
                    raise error
                state, events = apply(state, converted)
            except IllegalAction:
                raise IllegalAction(error.rule, ACTION_HEAD + error.template, record_line=line.number,
                                    record_text=line.text, **error.values) from None
            line = RecordLine(line.number, line.text, converted)
        yield line, state, events


_COPY = re.compile(r"\b([by][A-Z]{2})(2?)\b")


def other_copies(text: str, doubled: Callable[[str], bool]) -> str | None:
    """DT-279's reading of an action written before it: `text` with each object named as one copy of a kind that
    `doubled(code)` says the game holds two of (`bKY`, `bKY2`) named as the other copy (`+bKY2` as `+bKY`, and
    back); None if it names none. Both families' `legacy_action` read secret teams' copies so."""
    def other(m):
        base, second = m.group(1), m.group(2)
        return (base if second else base + "2") if doubled(base) else m.group(0)
    swapped = _COPY.sub(other, text)
    return None if swapped == text else swapped
