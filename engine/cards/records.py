"""Card-game records: `game cards seed=42 tutorial=2`, then one `B: <action>` line per action (the board game's
record format, engine/boardgame/records.py, with the card game's start line)."""

from __future__ import annotations

import re
from dataclasses import replace

from ..core.errors import IllegalAction, NotationError
from ..core.records import RecordLine, other_copies, parse_lines, replay_lines, seed_of
from .actions import Face, Levitate, Move
from .maze import is_icon, slot_zones, start_slot
from .notation import format_action, parse_action, start_from, zone_from
from .rules import apply
from .setup import new_game
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
    seed = seed_of(m.group(1), line, number)  # (its own NotationError, not wrapped as new_game's ValueError)
    try:
        return new_game(options, seed)
    except ValueError as error:
        raise NotationError("line {line}: {error}", line, 0, line=number, error=str(error)) from None


def parse_record(text: str) -> tuple[CardState, list[RecordLine]]:
    """A card-game record's starting state and its parsed action lines (not yet applied)."""
    return parse_lines(text, parse_start, parse_action)


def replayed(state: CardState, lines: list[RecordLine]):
    """Apply the record's lines in turn (core.records.replay_lines); a line the rules refuse that a record made
    before DT-266 or DT-279 wrote is read as it meant (`legacy_action`, DT-271, DT-279)."""
    return replay_lines(state, lines, apply, legacy_action)


def legacy_action(state: CardState, action):
    """The action a record or a server journal written before now meant by `action`, which the rules refuse: read
    as before DT-266 (`_icon_reading`), or before DT-279 (`_copy_reading`), or both; the first reading the rules
    accept, else the icons' reading or None (the refusal of `action` stands). Only for what was written before
    (records, journals: docs/rulings.md DT-271, DT-279); live input is never converted."""
    icons = _icon_reading(state, action)
    for candidate in (icons, _copy_reading(state, icons), _copy_reading(state, action)):
        if candidate is not None and _accepted(state, candidate):
            return candidate
    return icons


def _copy_reading(state: CardState, action):
    """DT-279: before it, a full frontal team's revealed object kept its copy's name (`bKY2` could be revealed
    while `bKY` lay face down); since, the revealed one is the lowest copy still unseen, and the two cards changed
    places. So a line written before that names one copy of an object of which the state holds two is read as
    naming the other (`+bKY2` as `+bKY`, and back); None where it names none."""
    if action is None or state.options.teams != "full":
        return None
    swapped = other_copies(format_action(action), lambda base: state.has_item(base) and state.has_item(base + "2"))
    if swapped is None:
        return None
    try:
        return parse_action(swapped, action.seat)
    except NotationError:
        return None


def _accepted(state: CardState, action) -> bool:
    try:
        apply(state, action)
    except IllegalAction:
        return False
    return True


def _icon_reading(state: CardState, action):
    """The action a record or a server journal written before DT-266 (2026-11-30, main e55494a and earlier) meant
    by `action`, when it names a place of a face-down room where a start character (or an object moved along the
    start zone) points an icon now: the icon lying on that place (the state keeps each face-down room's
    orientation, so a place names exactly one icon). Converted: a `face` line's facings (`face bMK:a2` ->
    `face bMK:T`), and a move's or a psychokinesis's path tokens on the start zone, a turn `^a1` and a step along
    it `B2^c1`, with the start position followed along the path as the rules do. None when nothing of `action`
    is such a place (the refusal of `action` stands). Only for what was written before (records, journals:
    docs/rulings.md DT-271); live input naming a place of a face-down room stays refused (DT-266)."""
    if isinstance(action, Face):
        facings = tuple((fid, _icon_at(state, _start_of(state, fid), facing)) for fid, facing in action.facings)
        return replace(action, facings=facings) if facings != action.facings else None
    if isinstance(action, (Move, Levitate)):
        if isinstance(action, Move):
            f = state.fig(action.figure) if state.has_fig(action.figure) else None
            loc = (f.seat, f.at) if f is not None and f.where == "start" else None
        else:
            loc = None  # the object starts in the maze (lying in her room, or carried by her)
        path = []
        for tok in action.path:
            try:
                if tok.startswith("^"):  # CG-START-04: a turn where it stands
                    tok = "^" + _icon_text(state, loc, tok[1:])
                elif "^" in tok:  # CG-START-05: along the start zone, facing the other room
                    pos, facing = tok.split("^", 1)
                    loc = start_from(pos)
                    tok = f"{pos}^{_icon_text(state, loc, facing)}"
                elif tok[:1] in ("B", "Y"):  # onto a start position (its own: it stands there now)
                    loc = start_from(tok)
                elif tok[:1] not in ("+", "-", ">"):  # (an object taken, dropped or given: it stays where it is)
                    loc = None  # into a zone of the maze
            except NotationError:
                return None  # not a record's token at all: its refusal stands
            path.append(tok)
        path = tuple(path)
        return replace(action, path=path) if path != tuple(action.path) else None
    return None


def _start_of(state: CardState, fid: str):
    """The start position (seat, column) of the start character `fid`, or None."""
    if not state.has_fig(fid):
        return None
    f = state.fig(fid)
    return (f.seat, f.at) if f.where == "start" else None


def _icon_at(state: CardState, loc, facing):
    """`facing` (a zone, or already an icon) as the icon lying on it when it is a place of the face-down room in
    front of the start position `loc`; else `facing` as it is."""
    if loc is None or is_icon(facing):
        return facing
    slot = start_slot(loc[0], loc[1], state.length)
    if state.rooms[slot].revealed or facing not in slot_zones(slot):
        return facing
    return state.maze.icon(facing)


def _icon_text(state: CardState, loc, text: str) -> str:
    """A path token's facing text, a place of the face-down room in front of `loc` written as its icon."""
    if loc is None or not re.fullmatch(r"[a-d][1-9][0-9]?", text):
        return text
    found = _icon_at(state, loc, zone_from(text))
    return found if is_icon(found) else text
