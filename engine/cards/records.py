"""Card-game records: `game cards seed=42 tutorial=2`, then one `B: <action>` line per action (the board game's
record format, engine/boardgame/records.py, with the card game's start line)."""

from __future__ import annotations

import re

from ..core.errors import NotationError
from ..core.records import RecordLine, parse_lines, replay_lines
from .notation import format_action, parse_action
from .rules import apply, new_game
from .state import CardOptions, CardState

START = re.compile(r"^game\s+cards\s+seed=(\d+)\s+(?:tutorial=([1-9])|scenario=([a-z]+)\s+teams=([a-z]+))"
                   r"(?:\s+handicap=([BY])/([2-8])/([1-6]*|-))?(\s+secret_objects)?$")


def game_header(seed: int, options: CardOptions) -> str:
    """`game cards seed=42 tutorial=2`, or for a scenario `game cards seed=42 scenario=standard teams=draft`; then
    ` handicap=B/3/56` for a handicap (CG-HCAP: the stronger seat, the characters he removes, the combat cards
    he leaves out or `-`) and ` secret_objects` for that variant (CG-OPT-03)."""
    variant = ""
    if options.handicap is not None:
        seat, removed, cards = options.handicap
        variant += f" handicap={seat}/{removed}/{''.join(map(str, cards)) or '-'}"
    if options.secret_objects:
        variant += " secret_objects"
    if options.scenario is not None:
        return f"game cards seed={seed} scenario={options.scenario} teams={options.teams}{variant}"
    return f"game cards seed={seed} tutorial={options.tutorial}{variant}"


def format_line(action) -> str:
    return f"{action.seat}: {format_action(action)}"


def is_start(line: str) -> bool:
    return line.startswith("game cards ")


def parse_start(line: str, number: int = 1) -> CardState:
    m = START.match(line.strip())
    if not m:
        raise NotationError("line {line}: a card-game record starts with 'game cards seed=N tutorial=T' or "
                            "'game cards seed=N scenario=S teams=M'", line, 0, line=number)
    secret = m.group(8) is not None
    handicap = None if m.group(5) is None else (
        m.group(5), int(m.group(6)), tuple(int(c) for c in m.group(7).strip("-")))
    options = (CardOptions(int(m.group(2)), secret_objects=secret) if m.group(2)
               else CardOptions(None, m.group(3), m.group(4), handicap, secret))
    try:
        return new_game(options, int(m.group(1)))
    except ValueError as error:
        raise NotationError("line {line}: {error}", line, 0, line=number, error=str(error)) from None


def parse_record(text: str) -> tuple[CardState, list[RecordLine]]:
    """A card-game record's starting state and its parsed action lines (not yet applied)."""
    return parse_lines(text, parse_start, parse_action)


def replayed(state: CardState, lines: list[RecordLine]):
    """Apply the record's lines in turn (core.records.replay_lines)."""
    return replay_lines(state, lines, apply)
