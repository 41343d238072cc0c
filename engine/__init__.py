"""Dungeon Twister rules engine: a pure, deterministic core (no I/O, no clock, randomness from a seed).

See docs/architecture.md for the public interface and docs/notation.md for the text notation.
"""

from .actions import (Action, Attack, ChooseTeam, CombatCard, Drink, EndTurn, Fireball, Heal, Hide, Jump, Move,
                      PassPlacement, Place, PlayCard, Portcullis, Regenerate, Reveal, Rotate, WallWalk)
from .apply import apply
from .errors import AmbiguousAction, EngineError, IllegalAction, NotationError
from .events import Event, event_view
from .legal import legal_actions
from .notation import format_action, legal_texts, parse_action, resolve_input
from .position import format_position, parse_position
from .setup import new_game
from .state import SEATS, GameState, Handicap, Options, Outcome, opponent
from .timeouts import secret_purpose, timeout_action
from .views import view

__all__ = [
    "Action", "Attack", "ChooseTeam", "CombatCard", "Drink", "EndTurn", "Fireball", "Heal", "Hide", "Jump", "Move",
    "PassPlacement", "Place", "PlayCard", "Portcullis", "Regenerate", "Reveal", "Rotate", "WallWalk", "apply",
    "AmbiguousAction", "EngineError", "IllegalAction", "NotationError", "Event", "event_view", "legal_actions",
    "legal_texts", "format_action", "parse_action", "resolve_input", "format_position", "parse_position", "new_game",
    "SEATS", "GameState", "Handicap", "Options", "Outcome", "opponent", "secret_purpose", "timeout_action", "view",
]
