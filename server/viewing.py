"""What a viewer is sent: the engine's view of a seat (or of a spectator) with the server's additions."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from dungeon_twister.engine import Event, event_view, is_lazy
from dungeon_twister.engine.families import family_of
from dungeon_twister.protocol.views import prefixed_legal, team_choice

Legal = Callable[[object, str], list[str]]


@dataclass(frozen=True)
class ViewPoint:
    """A moment of the table: the game state and the table facts every view carries."""

    state: object
    """The game state, of any rule family (engine.families)."""
    seats: dict
    """{"B": name or None, "Y": name or None}"""
    table: dict
    """The table's id and options."""
    started: bool
    over: bool = False
    """The game has ended (also when a player resigned or abandoned, which the engine does not know)."""
    steps: int = 0
    """The lines of the table's record so far (its journal: actions, commitments, reveals, takebacks, ...). It only
    grows, so a client that finds it smaller than in a view it had knows the server went back (a backup
    restored)."""


def legal_texts(state, seat: str) -> list[str]:
    """The canonical texts of the seat's legal actions ([] when it is not to act)."""
    if state.outcome is not None or seat not in state.to_act:
        return []
    family = family_of(state)
    legal = family.legal_actions(state, seat)
    if is_lazy(legal):
        return []  # a free team building: the view's build.parts describe it (docs/protocol.md)
    return [family.format_action(action) for action in legal]


def table_view(point: ViewPoint, seat: str | None, legal: Legal = legal_texts, compact: bool = False,
               shared: bool = False) -> dict:
    """view(state, seat) plus "legal", "secret", "seats", "table", "started" and "steps"; with `compact` (feature
    delta_views), a team choice as "team_choice" {squares, characters, out} with "legal" [] instead of its
    list (protocol.views.team_choice). `shared`: the engine's view with its shared parts (Family.view), for a
    view packed at once."""
    out = family_of(point.state).view(point.state, seat, shared)
    acting = seat is not None and point.started and not point.over
    out["legal"] = legal(point.state, seat) if acting else []
    if not acting:
        out["secret"] = None
    out["seats"] = dict(point.seats)
    out["table"] = dict(point.table)
    out["started"] = point.started
    out["steps"] = point.steps
    return compacted(out) if compact else out


PREFIXED_FROM = 200
"""The shortest legal list sent front-coded (feature compact_legal): coding a list costs ~0.8 us a text, and a
short one (a board game's 60 to 120 actions) saves a kilobyte or two."""


def without_legal(view: dict) -> dict:
    """The view with its legal list left out, because the view would not fit in a frame with it (docs/protocol.md
    section 13, Views): `legal` [] and `legal_omitted` the number of actions left out. The seat still acts: it
    types its action, which the server checks as any other."""
    return {**view, "legal": [], "legal_omitted": len(view["legal"])}


def compacted(whole: dict, prefixed: bool = False) -> dict:
    """The view as a client with the feature delta_views gets it: a team choice as "team_choice"; with
    `prefixed` (the feature compact_legal too), any other legal list of PREFIXED_FROM actions or more
    front-coded as "legal_prefixed" (docs/protocol.md section 14)."""
    legal = whole["legal"]
    if len(legal) > 1 and legal[0].startswith("team "):
        form = _team_choice(tuple(legal))
        if form is not None:
            return {**whole, "legal": [], "team_choice": form}
    if prefixed and len(legal) >= PREFIXED_FROM:
        items = prefixed_legal(legal)
        if items is not None:
            return {**whole, "legal": [], "legal_prefixed": items}
    return whole


@lru_cache(maxsize=8)
def _team_choice(texts: tuple[str, ...]) -> dict | None:
    """The compact form of a team choice (the same lists come back for every game at the team choice)."""
    return team_choice(list(texts))


def render(payload, seat: str | None, legal: Legal = legal_texts) -> dict:
    """A log payload as `seat` (None: a spectator) may see it: an engine event, a view, or a public server event."""
    if isinstance(payload, Event):
        return event_view(payload, seat) or {}
    if isinstance(payload, ViewPoint):
        return {"kind": "view", "view": table_view(payload, seat, legal)}
    return dict(payload)
