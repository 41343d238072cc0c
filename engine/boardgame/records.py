"""Game records: a start (a new game's seed and options, or a position) followed by one action per line.

    game seed=42 [set=prison] vp=5 [beginner] [handicap=B/6/56]      or      DT1 base_set vp=5 ; rooms ...
    B: team b0=WA d0=TH g0=CL i0=TR
    Y: team b21=TR d21=GB g21=WZ i21=CL
    B: hide bRP A2
    ...
Blank lines and lines starting with '#' are ignored.
"""

from __future__ import annotations

import re

from .actions import Action
from .apply import apply
from .catalogue import load
from ..core.errors import EngineError, NotationError
from ..core.records import RecordLine, other_copies, parse_lines, replay_lines, seed_of
from .notation import format_action, parse_action
from .position import format_options, parse_options, parse_position
from .setup import new_game
from .state import GameState, Options


def game_header(seed: int, options: Options) -> str:
    """`game seed=42 vp=5`; a set other than the base set is named (`set=prison`), so the record replays it."""
    named = f" set={options.set_name}" if options.set_name != "base_set" else ""
    return f"game seed={seed}{named} {format_options(options)}"


def parse_start(line: str, number: int = 1) -> GameState:
    if line.startswith("DT1 "):
        return parse_position(line)
    m = re.match(r"^game\s+seed=(\d+)((?:\s+\S+)*)$", line)
    if not m:
        raise NotationError("line {line}: a record starts with 'game seed=N ...' or a position", line, 0, line=number)
    words, set_name = m.group(2).split(), "base_set"
    if words and words[0].startswith("set="):
        set_name = words.pop(0)[4:]
        try:
            load(set_name)
        except KeyError:
            raise NotationError("line {line}: unknown set {name}", line, line.index("set="), line=number,
                                name=repr(set_name)) from None
    try:
        options = parse_options(words, set_name)
    except ValueError as error:
        word = str(error)
        raise NotationError("line {line}: unknown game option {word}", line, line.index(word), line=number,
                            word=repr(word)) from None
    seed = seed_of(m.group(1), line, number)  # (its own NotationError, not wrapped as new_game's ValueError)
    try:
        return new_game(options, seed)
    except ValueError as error:
        raise NotationError("line {line}: {error}", line, 0, line=number, error=str(error)) from None


def parse_record(text: str) -> tuple[GameState, list[RecordLine]]:
    """The starting state and the parsed action lines (not yet applied)."""
    return parse_lines(text, parse_start, parse_action)


def replayed(state: GameState, lines: list[RecordLine]):
    """Apply a record's lines in turn: yields (line, state after it, its events); an illegal line raises
    IllegalAction naming the line's number and text (dt-engine play, dt-client replay). A line the rules refuse
    that a record made before DT-279 wrote is read as it meant (`legacy_action`)."""
    return replay_lines(state, lines, apply, legacy_action)


def legacy_action(state: GameState, action: Action):
    """DT-279: before it, a free build's revealed object kept its copy's name (`bKY2` could be revealed while `bKY`
    lay face down); since, the revealed one is the lowest copy still unseen, and the two tokens changed places. So
    a line of a record or a server journal written before, which the rules now refuse, naming one copy of an
    object of which the game holds two is read as naming the other (`place bKY2 c4` as `place bKY c4`), when the
    rules accept that; else None (its refusal stands). Never for live input."""
    if state.options.teams != "free":
        return None
    swapped = other_copies(format_action(action), lambda base: base in state.tokens and base + "2" in state.tokens
                           and not state.tokens[base].is_character)
    if swapped is None:
        return None
    try:
        converted = parse_action(swapped, action.seat)
        apply(state, converted)
    except EngineError:
        return None
    return converted


def format_line(action: Action) -> str:
    return f"{action.seat}: {format_action(action)}"


__all__ = ["RecordLine", "game_header", "parse_start", "parse_record", "replayed", "format_line", "EngineError"]
