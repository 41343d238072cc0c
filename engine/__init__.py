"""Dungeon Twister rules engine: a pure, deterministic core (no I/O, no clock, randomness from a seed).

See docs/architecture.md for the public interface and docs/notation.md for the text notation.
"""

from . import mixes, paladins, prison  # noqa: F401  (register the sets' data and rule modules)
from .boardgame.actions import (Action, Attack, Build, ChooseTeam, CombatCard, Drink, EndTurn, Fireball, Heal, Hide,
                                Jump, Move, PassPlacement, Place, PlayCard, Portcullis, Regenerate, Reveal, Rotate,
                                WallWalk)
from .boardgame.apply import apply
from .boardgame.legal import legal_actions
from .boardgame.notation import format_action, legal_texts, parse_action, resolve_input
from .boardgame.position import format_position, parse_position
from .boardgame.setup import new_game
from .boardgame.state import SEATS, GameState, Handicap, Options, Outcome, opponent
from .boardgame.timeouts import secret_purpose, timeout_action
from .boardgame.views import view
from .core.choice import Part, PartsChoice, is_lazy
from .core.errors import AmbiguousAction, EngineError, IllegalAction, NotationError
from .core.events import Event, event_view

__all__ = [
    "Action", "Attack", "Build", "ChooseTeam", "CombatCard", "Drink", "EndTurn", "Fireball", "Heal", "Hide", "Jump",
    "Move",
    "PassPlacement", "Place", "PlayCard", "Portcullis", "Regenerate", "Reveal", "Rotate", "WallWalk", "apply",
    "AmbiguousAction", "EngineError", "IllegalAction", "NotationError", "Event", "event_view", "legal_actions",
    "legal_texts", "format_action", "parse_action", "resolve_input", "format_position", "parse_position", "new_game",
    "SEATS", "GameState", "Handicap", "Options", "Outcome", "opponent", "secret_purpose", "timeout_action", "view",
    "Part", "PartsChoice", "is_lazy",
]
