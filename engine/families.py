"""The rule families under one contract: what the protocol, the server, the client and the tools need of a game,
whichever game it is. The board game (base set, Prison, Paladins & Dragons and their mixes: engine/boardgame with
the sets' data and rule modules) and the Card Game (engine/cards) each fill in one `Family`; shared code asks
`family_of(state)` or `FAMILIES[name]` instead of naming a game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from . import boardgame as _board_pkg  # noqa: F401
from . import cards as _cards
from .boardgame import records as _board_records
from .boardgame.actions import Build, ChooseTeam, CombatCard
from .boardgame.apply import apply as _board_apply
from .boardgame.combat import card_refusal as _board_card_refusal
from .boardgame.legal import legal_actions as _board_legal
from .boardgame.moves import pack_memo as _board_pack
from .boardgame.notation import format_action as _board_format
from .boardgame.notation import legal_table as _board_table
from .boardgame.notation import legal_texts as _board_texts
from .boardgame.notation import parse_action as _board_parse
from .boardgame.notation import resolve_input as _board_resolve
from .boardgame.notation import verbs as _board_verbs
from .boardgame.position import format_position as _board_position
from .boardgame.setup import new_game as _board_new
from .boardgame.state import GameState, Options
from .boardgame.timeouts import clock as _board_clock
from .boardgame.timeouts import secret_purpose as _board_secret
from .boardgame.timeouts import timeout_action as _board_timeout
from .boardgame.views import view as _board_view
from .cards import actions as _card_actions
from .cards import notation as _card_notation
from .cards import records as _card_records
from .cards import typed as _card_typed
from .cards.timeouts import clock as _card_clock
from .cards.timeouts import timeout_action as _card_timeout
from .core.errors import N_
from .tools import bots as _board_bots
from .tools import card_bots as _card_bots


@dataclass(frozen=True)
class Family:
    """One game's rules as the outer layers use them. Every function takes the family's own state and actions."""

    name: str
    """"board" or "cards": a table's `game` option (docs/protocol.md)."""
    options: type
    new_game: Callable
    apply: Callable
    legal_actions: Callable
    legal_texts: Callable
    legal_table: Callable
    """`legal_table(state, seat) -> {canonical text: action}` (a Mapping): the seat's legal actions and their texts
    in one pass ({} when it is not to act, and for a lazily listed choice)."""
    format_action: Callable
    parse_action: Callable
    resolve_input: Callable
    format_position: Callable
    secret_purpose: Callable
    timeout_action: Callable
    clock: Callable
    """`clock(state) -> core.clock.Clock`: what a timed table's deadlines follow (BG-OPT-02..04, CG-OPT-01/02)."""
    view: Callable
    """`view(state, seat, shared=False)`: what `seat` (None: a spectator) may see. With `shared`, what stays the same
    from one view to the next (the board game's layout) may come as immutable tuples kept by the engine, the same
    objects in each view, for a caller that packs the view at once (they pack as the lists they stand for)."""
    game_header: Callable
    format_line: Callable
    parse_record: Callable
    """`parse_record(text) -> (start state, RecordLine list)`: a record of this family (core/records.py)."""
    replayed: Callable
    """`replayed(state, lines)`: the record's lines applied in turn, (line, state, events) each."""
    secret_kinds: Mapping[str, type]
    """The action each secret choice's purpose stands for; a purpose not named is a combat card."""
    combat_card: type
    bots: Mapping[str, type]
    verbs: Callable[[], list[str]]
    """Every verb of the family's action notation."""
    reveal_after: Mapping[str, str]
    """Secret choices whose reveal must not reach the opponent when both are in, but with the engine event that
    makes them public: the board game's team ("teams_revealed", BG-SETUP-06), the card game's face-down start
    characters ("teams", CG-TUT1-05). Every other choice is public once both are in."""
    end_rule: str
    """The rule that refuses an action once the game is over (BG-END-02, CG-END-01)."""
    rated: bool
    """Whether a finished game between two people changes their ratings: the board game's do; the card game's
    tutorials, practice games, do not (and its full games would need a rating of their own)."""
    choice_refusal: Callable
    """`choice_refusal(action, choices, named=None, hand=None)`: why a well-formed secret choice that is none of
    `choices` (the seat's legal choices, parsed) breaks the rules, as the engine's IllegalAction worked out from
    the choices and the seat's view (a client has them, not the state), or None when they do not tell (the card
    game's start placement and facings; either game's combat card not in hand or not the one a Telepath named;
    the board game's team is refused from the view's compact team choice: setup.team_refusal). `named`: the
    value a Telepath named in the combat, `hand`: the seat's combat cards, as the view shows them (the card
    game's my_cards; None where the view does not show them)."""
    pack: Callable = lambda state: None
    """`pack(state)`: the game waits on its players, so what the engine keeps for its next position (the board
    game's move memo) is kept compact; nothing any call gives changes."""
    takeback_kinds: frozenset = frozenset()
    """The engine events an action may have made and still be taken back (docs/rulings.md DT-224): moves, turns
    of rooms, jumps, portcullises, the end of a turn; nothing that showed what was hidden or began a combat."""
    legacy_action: Callable = lambda state, action: None
    """`legacy_action(state, action)`: the action an older notation of the family meant by `action`, which the
    rules now refuse, or None. Only for what was written before (a record replayed, a server journal restored:
    `replayed` uses it, and server/recovery.py); never for live input. The card game's reads a place of a
    face-down room as the icon lying on it (DT-266, DT-271); both read one copy of an object of a secret team as
    the other where the rules refuse it (DT-279)."""
    not_taken_back: Mapping = field(default_factory=dict)
    """What `takeback_refusal` says of the family's commonest events that no take-back undoes, by event kind (a
    play-test read the event's code at the end of the general sentence as noise); any other, the general one."""

    def secret_kind(self, purpose: str) -> type:
        return self.secret_kinds.get(purpose, self.combat_card)

    def takeback_refusal(self, after, events) -> tuple[str, dict] | None:
        """Why the action that made `events` (and led to the state `after`) may not be taken back, as an English
        str.format template (marked for the client's catalogue) and its values, or None if it may (DT-224): not
        once the game is over, not after a secret was shown to anyone, not after anything but the plain actions
        of `takeback_kinds`."""
        if after.outcome is not None:
            return N_("the game is over"), {}
        if any(e.owner is not None for e in events):
            # (a play-test read the former "it showed someone a secret" as a leak)
            return N_("it was told to each player differently (a detail of it is hidden)"), {}
        shown = next((e.kind for e in events if e.kind not in self.takeback_kinds), None)
        if shown is not None:
            # (a play-test read the event's code, "(room_revealed)", at the end of the former sentence as noise)
            return self.not_taken_back.get(shown, N_("it showed what was hidden or began what cannot be undone")), {}
        return None


_REVEALED, _COMBAT = N_("it revealed a room"), N_("it began a combat")
_SCORED = N_("it scored: a character left the maze or was eliminated")
"""(A move out through the opponent's start zone was refused "it showed what was hidden or began what cannot be
undone", neither of which it did: play-test pl33.)"""


BOARD = Family(
    name="board", options=Options, new_game=_board_new, apply=_board_apply, legal_actions=_board_legal,
    legal_texts=_board_texts, legal_table=_board_table, format_action=_board_format, parse_action=_board_parse,
    resolve_input=_board_resolve, format_position=_board_position, secret_purpose=_board_secret, timeout_action=_board_timeout,
    clock=_board_clock, view=_board_view, game_header=_board_records.game_header,
    format_line=_board_records.format_line, parse_record=_board_records.parse_record,
    replayed=_board_records.replayed, secret_kinds=MappingProxyType({"team": ChooseTeam, "build": Build}),
    combat_card=CombatCard, bots=MappingProxyType(_board_bots.BOTS), verbs=_board_verbs,
    reveal_after=MappingProxyType({"team": "teams_revealed"}), end_rule="BG-END-02", rated=True, pack=_board_pack,
    choice_refusal=_board_card_refusal, legacy_action=_board_records.legacy_action,
    not_taken_back=MappingProxyType({"room_revealed": _REVEALED, "combat_declared": _COMBAT, "exited": _SCORED,
                                     "eliminated": _SCORED}),
    takeback_kinds=frozenset({"moved", "room_rotated", "jumped", "wallwalked", "portcullis", "card_played",
                              "turn_ended", "turn_started", "pentacle"}))

CARDS = Family(
    name="cards", options=_cards.CardOptions, new_game=_cards.new_game, apply=_cards.apply,
    legal_actions=_cards.legal_actions, legal_texts=_card_typed.legal_texts, legal_table=_card_typed.legal_table,
    format_action=_card_notation.format_action, parse_action=_card_notation.parse_action,
    resolve_input=_card_typed.resolve_input, format_position=_card_notation.format_position,
    secret_purpose=_cards.secret_purpose, timeout_action=_card_timeout, clock=_card_clock, view=_cards.view,
    game_header=_card_records.game_header, format_line=_card_records.format_line,
    parse_record=_card_records.parse_record, replayed=_card_records.replayed,
    secret_kinds=MappingProxyType({"hide": _card_actions.Hide, "face": _card_actions.Face,
                                   "build": _card_actions.Build}),
    combat_card=_card_actions.CombatCard, bots=MappingProxyType(_card_bots.BOTS),
    verbs=lambda: list(_card_notation.VERBS), reveal_after=MappingProxyType({"hide": "teams"}),
    end_rule="CG-END-01", rated=False, choice_refusal=_cards.choice_refusal,
    legacy_action=_card_records.legacy_action,
    not_taken_back=MappingProxyType({"reveal": _REVEALED, "attack": _COMBAT, "shoot": _COMBAT, "exit": _SCORED}),
    takeback_kinds=frozenset({"move", "rotate", "jump", "portcullis", "bend_bars", "levitate", "wallwalk",
                              "turn"}))

FAMILIES: Mapping[str, Family] = MappingProxyType({f.name: f for f in (BOARD, CARDS)})
_BY_STATE = {GameState: BOARD, _cards.CardState: CARDS}
_BY_OPTIONS = {Options: BOARD, _cards.CardOptions: CARDS}


def family_of(state) -> Family:
    """The family whose state `state` is."""
    return _BY_STATE[type(state)]


def family_for(options) -> Family:
    """The family whose options `options` are."""
    return _BY_OPTIONS[type(options)]


def family_of_record(text: str) -> Family:
    """The family whose game record `text` is: its first line that is not a comment names the card game
    (`game cards ...`); any other start line is the board game's."""
    first = next((line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")), "")
    return CARDS if _card_records.is_start(first) else BOARD
