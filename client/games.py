"""What the client draws and says differently for each game a table can play (the protocol's table option
`game`: "board" or "cards"): the board drawing, the panel's parts, the log's words. Chosen by the view's "game"
(absent: the board game); the rest of the client is the same for both."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from prompt_toolkit.formatted_text import StyleAndTextTuples

from . import cards_panel
from .board import render_board
from .cards_board import render_cards_board
from .describe import describe_square
from .describe import compact_event, describe_event
from .fairness import check_card_deal, check_deal
from .panel import BOARD_PARTS, PanelParts


@dataclass(frozen=True)
class Screens:
    render: Callable[[dict, dict], list[StyleAndTextTuples]]
    """The board of a view: lines of fragments (the second argument: the last moves' trails)."""
    panel: PanelParts
    describe: Callable[[dict], str | None]
    compact: Callable[[dict], str | None]
    check_deal: Callable[[dict, list], tuple[bool, str] | None]
    """The deal check once the seed is revealed (fairness.py)."""
    look: Callable[[dict, str], str]
    """`look PLACE`: what lies on a square (board) or in a zone (cards), in words."""


BOARD = Screens(render_board, BOARD_PARTS, describe_event, compact_event, check_deal, describe_square)
CARDS = Screens(render_cards_board, PanelParts(
    cards_panel.HINTS, cards_panel.PHASES, cards_panel.turn_detail, cards_panel.player, cards_panel.combat,
    cards_panel.placement, cards_panel.choice_verb, cards_panel.selection), cards_panel.describe_event, cards_panel.compact_event,
    check_card_deal, cards_panel.describe_zone)
GAMES = {"board": BOARD, "cards": CARDS}


def screens(view: dict | None) -> Screens:
    """The screens of the view's game."""
    return GAMES.get((view or {}).get("game", "board"), BOARD)
