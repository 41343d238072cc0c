"""Dungeon Twister: The Card Game (CG rules), a zone-based rule family beside the board game, under the same
engine contract: new_game, apply, legal_actions, view, secret_purpose, notation. See docs/card-game.md."""

from .actions import (Attack, BendBars, CardAction, CombatCard, EndTurn, Face, Heal, Hide, Jump, Levitate, Move, PassPlacement, Place,
                      BreakWalls, Fireball, Frenzy, Invert, MindControl, Portcullis, Regenerate, Reveal, Rotate, Seed, Shoot, Steal, WallWalk)
from .catalogue import load
from .notation import format_action, format_position, parse_action, parse_position
from .combat import line_of_sight
from .rules import apply, legal_actions
from .setup import choice_refusal, new_game
from .state import SEATS, CardOptions, CardState, Outcome, opponent
from .views import secret_purpose, view

__all__ = [
    "Attack", "BendBars", "CombatCard", "CardAction", "EndTurn", "Face", "Heal", "Hide", "Jump", "Move", "Place",
    "Portcullis", "Regenerate", "Reveal", "Rotate", "Seed", "Shoot", "line_of_sight", "Fireball", "Steal", "WallWalk",
    "BreakWalls", "MindControl", "Frenzy", "Invert", "Levitate", "PassPlacement",
    "load", "format_action", "format_position", "parse_action", "parse_position", "apply", "legal_actions",
    "new_game", "choice_refusal", "SEATS", "CardOptions", "CardState", "Outcome", "opponent", "secret_purpose", "view",
]
