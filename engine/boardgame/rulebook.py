"""Which rule modules make up a rule set: each module names the actions it handles and the legal actions it
offers a figure. An expansion adds a module (e.g. Prison's ranged combat) and a data set naming its rule set,
without touching `apply` or `legal_actions`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, Mapping

from . import abilities, combat, draft, moves, rooms, setup, state, turn
from .actions import (Attack, Build, ChooseTeam, CombatCard, Drink, EndTurn, Fireball, Heal, Hide, Jump, Move,
                      PassPlacement, Pick, Place, PlayCard, Portcullis, Regenerate, Reveal, Rotate, WallWalk)

Generator = Callable  # (state, board, seat, token) -> list of actions


@dataclass(frozen=True)
class RuleModule:
    name: str
    handlers: Mapping[type, Callable]  # action class -> handler(ctx, action)
    figure_actions: Generator | None = None  # what an able figure of the active seat may do
    wounded_actions: Generator | None = None  # what a wounded character of the active seat may do
    # `figure_actions` reads no more of the state than `moves._key` covers (the board, the figure, the seat, its
    # jump cards, the squares within the figure's reach, the turn only for tokens wounded in it there), so a
    # figure's actions may be memoised on that key. A module that looks further (e.g. ranged combat) says False.
    reach_only: bool = False
    # Called after every applied action, once its golden rules hold: a module whose rules end the game at once
    # (a scenario's victory condition, PR-SCEN) sets the outcome here (`turn.finish`).
    after_action: Callable | None = None
    # (state, seat) -> the actions a seat may take outside the main phase that this module handles (e.g. the
    # Telepath's naming during a combat), and (state, seat) -> its fallback when that seat's time runs out there
    seat_actions: Callable | None = None
    timeout: Callable | None = None
    # (state, seat) -> VP the position gives while it lasts, beyond the tokens' (the Pentacle's, RUL-088):
    # counted by `GameState.vp` in the games of the rule sets this module is part of (`register`)
    vp_bonus: Callable | None = None
    # (walker, square, take) -> IllegalAction | None: why a walker (`movement.Walker`) that has entered `square`
    # goes no further in its move, if this module's rules end it there (an unshielded walker on Rockfall,
    # PD-TERR-ROCKFALL-01): how `moves.explain_refused_move` words a refused route or destination. Asked only to
    # explain a move already refused, never by the move search (which reads the terrain as data).
    move_stop: Callable | None = None
    # (state) -> None: refuse, with a PositionError naming this module's rule, what its rules never leave in a
    # position (`position.validate_position` asks it after the family's own checks): a pending lance combat whose
    # lancer could not have declared it, a character standing on Rockfall
    position_check: Callable | None = None
    # (state, board, character) -> bool: whether this wounded character could still stand up by its own player's
    # action were no figure left on the board (a Troll's regeneration, BG-CHAR-TROLL-01; a drink at a Fountain of
    # Youth, PD-TERR-FOUNTAIN-02): such a character keeps the game from ending as one nobody can score in (BG-END-04)
    rises: Callable | None = None


BASE_SET = (
    RuleModule("setup", {ChooseTeam: setup.choose_team, Hide: setup.hide}),
    RuleModule("draft", {Pick: draft.pick, Build: draft.build}, seat_actions=draft.seat_actions),
    RuleModule("turn", {PlayCard: turn.play_card, EndTurn: turn.end_turn}),
    RuleModule("movement", {Move: moves.move, WallWalk: moves.wallwalk, Jump: moves.jump}, moves.figure_actions,
               reach_only=True),
    RuleModule("combat", {Attack: combat.declare, CombatCard: combat.choose_card}, combat.figure_actions,
               reach_only=True),
    RuleModule("rooms", {Reveal: rooms.reveal, Place: rooms.place, PassPlacement: rooms.pass_placement,
                         Rotate: rooms.rotate}, rooms.figure_actions, reach_only=True),
    RuleModule("abilities", {Heal: abilities.heal, Regenerate: abilities.regenerate,
                             Portcullis: abilities.portcullis, Fireball: abilities.fireball,
                             Drink: abilities.drink}, abilities.figure_actions, abilities.wounded_actions,
               reach_only=True, rises=abilities.rises),
)

RULE_SETS: dict[str, tuple[RuleModule, ...]] = {}


def register(rules: str, rule_modules: tuple[RuleModule, ...]) -> None:
    """Name a rule set (`SetCatalogue.rules`) and the modules that make it up (an expansion's package does this
    when imported), and hand its modules' VP bonuses to `GameState.vp` and their move stops to `moves`."""
    RULE_SETS[rules] = rule_modules
    state.VP_BONUSES[rules] = tuple(module.vp_bonus for module in rule_modules if module.vp_bonus)
    moves.MOVE_STOPS[rules] = tuple(module.move_stop for module in rule_modules if module.move_stop)


register("base", BASE_SET)


def modules(rules: str) -> tuple[RuleModule, ...]:
    return RULE_SETS[rules]


@lru_cache(maxsize=None)
def reach_only(rules: str) -> bool:
    """Whether every module of the rule set generates a figure's actions from its reach alone."""
    return all(module.reach_only for module in modules(rules) if module.figure_actions)


@lru_cache(maxsize=None)
def after_action(rules: str) -> tuple[Callable, ...]:
    return tuple(module.after_action for module in modules(rules) if module.after_action)


@lru_cache(maxsize=None)
def position_checks(rules: str) -> tuple[Callable, ...]:
    return tuple(module.position_check for module in modules(rules) if module.position_check)


@lru_cache(maxsize=None)
def rises(rules: str) -> tuple[Callable, ...]:
    return tuple(module.rises for module in modules(rules) if module.rises)


@lru_cache(maxsize=None)
def seat_actions(rules: str) -> tuple[Callable, ...]:
    return tuple(module.seat_actions for module in modules(rules) if module.seat_actions)


@lru_cache(maxsize=None)
def timeouts(rules: str) -> tuple[Callable, ...]:
    return tuple(module.timeout for module in modules(rules) if module.timeout)


@lru_cache(maxsize=None)
def handlers(rules: str) -> dict[type, Callable]:
    table: dict[type, Callable] = {}
    for module in modules(rules):
        table.update(module.handlers)
    return table
