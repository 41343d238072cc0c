"""Dungeon Twister rules engine: a pure, deterministic core (no I/O, no clock, randomness from a seed).

See docs/architecture.md for the public interface.
"""

from .actions import (Action, Attack, ChooseTeam, CombatCard, Drink, EndTurn, Fireball, Heal, Hide, Jump, Move,
                      PassPlacement, Place, PlayCard, Portcullis, Regenerate, Reveal, Rotate, WallWalk)
from .apply import apply
from .errors import AmbiguousAction, EngineError, IllegalAction, NotationError
from .events import Event, event_view
from .legal import legal_actions
from .setup import new_game
from .state import SEATS, GameState, Handicap, Options, Outcome, opponent

__all__ = [
    "Action", "Attack", "ChooseTeam", "CombatCard", "Drink", "EndTurn", "Fireball", "Heal", "Hide", "Jump", "Move",
    "PassPlacement", "Place", "PlayCard", "Portcullis", "Regenerate", "Reveal", "Rotate", "WallWalk", "apply",
    "AmbiguousAction", "EngineError", "IllegalAction", "NotationError", "Event", "event_view", "legal_actions",
    "new_game", "SEATS", "GameState", "Handicap", "Options", "Outcome", "opponent",
]
