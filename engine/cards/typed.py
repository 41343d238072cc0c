"""What card-game players type: the legal actions' texts, and a typed text turned into one action (the shared
abbreviation matching of core.typed)."""

from __future__ import annotations

from ..core.choice import Mapped, is_lazy
from ..core.typed import resolve_typed
from .common import waiting_refusal
from .notation import format_action, parse_action
from .rules import legal_actions
from .state import CardState


def legal_texts(state: CardState, seat: str | None = None):
    """The canonical texts of `legal_actions(state, seat)`, in its order (lazily for a full frontal team)."""
    offered = legal_actions(state, seat)
    if is_lazy(offered):
        return Mapped(offered, format_action)
    return [format_action(a) for a in offered]


def legal_table(state: CardState, seat: str) -> dict:
    """{canonical text: action} of `legal_actions(state, seat)`, in its order, from one call of it; {} for a full
    frontal team's lazy list (as the board game's `legal_table`)."""
    offered = legal_actions(state, seat)
    if is_lazy(offered):
        return {}
    return {format_action(action): action for action in offered}


def resolve_input(state: CardState, seat: str, text: str):
    """What a player typed, as one action: exact notation, or words matched in order against the legal actions'
    texts (`move bMK a2` for `move bMK B1^a1 a2`, `TR a2`); see core.typed.resolve_typed."""
    return resolve_typed(text, seat, parse_action, lambda: legal_actions(state, seat), format_action,
                         lambda: waiting_refusal(state, seat))
