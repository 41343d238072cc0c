"""Ranged combat (PR-RANGED-01..14, PR-OBJ-BOW-01/02, PR-OBJ-SHIELD-01): a figure carrying a Bow shoots the
first person on one of its lines of sight, for 1 AP; the combat is then fought with cards like any other
(engine/boardgame/combat.py), the shooters adding their bow's value and never being wounded by the result.

Notation: `shoot bCL yMK` (the shooter, then its target); other shooters of the same side joining the combat
(PR-RANGED-09) follow with a `+`: `shoot bCL yMK +bWZ`.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..boardgame.abilities import carried_objects
from ..boardgame.actions import Action
from ..boardgame.combat import participants, ranged_weapon
from ..boardgame.context import Ctx
from ..boardgame.notation import Words, any_of, register_action
from ..boardgame.rulebook import RuleModule
from ..boardgame.state import Combat, GameState, Token
from ..boardgame.board import board_of
from ..core.errors import N_, IllegalAction, PositionError
from . import sight


@dataclass(frozen=True, slots=True)
class Shoot(Action):
    """PR-RANGED-01: the figure `token` shoots the person `target`; `joiners`: other shooters joining (sorted)."""

    token: str
    target: str
    joiners: tuple[str, ...] = ()


def first_persons(state: GameState, board, figure: Token) -> list[Token]:
    """The first person on each of the figure's lines of sight (PR-LOS-01..04, PR-RANGED-02)."""
    return [person for _, person in sight.first_persons(state, board, figure)]


def shot_problem(state: GameState, board, shooter: Token, target: Token) -> IllegalAction | None:
    """Why `shooter` may not shoot `target` (rule, message), or None: PR-RANGED-01/02/06/07/14."""
    if not shooter.is_figure or ranged_weapon(state, shooter) is None:
        return IllegalAction("PR-RANGED-01", "{shooter} carries no Bow", shooter=shooter.id)
    if target.id not in {t.id for t in first_persons(state, board, shooter)}:
        return IllegalAction("PR-RANGED-02", "{target} is not the first person on a line of sight of {shooter}",
                             target=target.id, shooter=shooter.id)
    if target.colour == shooter.colour or not target.is_character:
        return IllegalAction("PR-RANGED-02", "{target} is not an enemy", target=target.id)
    enemies = {t.square for t in state.tokens.values() if t.is_figure and t.colour != shooter.colour}
    if board.connected(shooter.square, target.square) or any(
            board.connected(shooter.square, sq) for sq in enemies):
        return IllegalAction("PR-RANGED-06", "{shooter} is beside an enemy: no shot", shooter=shooter.id)
    if target.wounded_turn == state.turn:
        return IllegalAction("PR-RANGED-07", "{target} was wounded this turn", target=target.id)
    if _shielded(state, target):
        return IllegalAction("PR-OBJ-SHIELD-01", "{target} carries the Large Shield: no shot can target it",
                             target=target.id)
    return None


def _shielded(state: GameState, person: Token) -> bool:
    """PR-OBJ-SHIELD-01: the person is a figure carrying the Large Shield; not a wounded character it lies with
    (DT-237: « Eine Figur, die einen Großen Schild trägt », the Armor alone says it still serves the wounded), nor
    one lying under the Ghost, who carries nothing (PD-CHAR-GHOST-03)."""
    return not person.wounded and any("shield" in state.catalogue.objects[t.code].abilities
                                      for t in carried_objects(state, person))


# A joiner's shot refused (PR-RANGED-09): "{token} cannot shoot {target} too: " and why, as one template each.
_TOO = {
    "{shooter} carries no Bow": N_("{token} cannot shoot {target} too: {shooter} carries no Bow"),
    "{target} is not the first person on a line of sight of {shooter}":
        N_("{token} cannot shoot {target} too: {target} is not the first person on a line of sight of {shooter}"),
    "{target} is not an enemy": N_("{token} cannot shoot {target} too: {target} is not an enemy"),
    "{shooter} is beside an enemy: no shot": N_("{token} cannot shoot {target} too: {shooter} is beside an enemy: no "
                                                "shot"),
    "{target} was wounded this turn": N_("{token} cannot shoot {target} too: {target} was wounded this turn"),
    "{target} carries the Large Shield: no shot can target it":
        N_("{token} cannot shoot {target} too: {target} carries the Large Shield: no shot can target it"),
}


def shoot(ctx: Ctx, action: Shoot) -> None:
    s = ctx.s
    shooter = ctx.token(action.token)
    if shooter.where == "board" and shooter.is_character and ranged_weapon(s, shooter) is None:
        raise IllegalAction("PR-RANGED-01", "{shooter} carries no Bow", shooter=shooter.id)
    ctx.actor(action.seat, action.token, rule="PR-RANGED-01", wounded_rule="PR-RANGED-01")
    target = ctx.token(action.target)
    if target.colour != shooter.colour and sight.carried(s, target):  # not "not the first person": he lies there
        raise IllegalAction("BG-CARRY-04", "{target} is carried and cannot be attacked", target=target.id)
    if target.where == "board" and target.square in ctx.board.terrain_of("fog"):
        # not "not the first person": a mix's fog, where no line enters and nobody is a target (RUL-089)
        raise IllegalAction("PD-TERR-FOG-01", "{target} stands in fog and cannot be targeted", target=target.id)
    problem = shot_problem(s, ctx.board, shooter, target)
    if problem:
        raise problem
    if list(action.joiners) != sorted(set(action.joiners)) or shooter.id in action.joiners:
        raise IllegalAction("PR-RANGED-09", "name each other shooter once, in order")
    for tid in action.joiners:
        joiner = ctx.token(tid)
        if joiner.colour != action.seat or not joiner.is_figure:
            raise IllegalAction("PR-RANGED-09", "{token} is not a figure of yours", token=tid)
        rested = ctx.exhausted_refusal(joiner)  # joining is its own choice: an action (DT-105)
        if rested is not None:
            raise rested
        why = shot_problem(s, ctx.board, joiner, target)
        if why:
            raise IllegalAction("PR-RANGED-09", _TOO[why.template], token=tid, **{"target": target.id, **why.values})
    # the group grows for the shooter's colour: a charmed shooter keeps his own (RUL-085, as in a melee, DT-117)
    attackers, defenders = participants(s, ctx.board, None, target, shooter.colour)
    shooters = (shooter.id, *action.joiners)
    s.combats += 1
    s.combat = Combat(s.combats, shooter.id, target.id, tuple(attackers), tuple(defenders), shooters=shooters)
    s.phase = "combat"
    ctx.emit("combat_declared", number=s.combats, attacker=shooter.id, target=target.id, attackers=attackers,
             defenders=defenders, shooters=list(shooters))


def joiners_of(state: GameState, board, shooter: Token, target: Token) -> list[str]:
    """The other figures of the shooter's side that could shoot the same target (PR-RANGED-09), but one healed or
    regenerated this turn (BG-CHAR-CLERIC-02, BG-CHAR-TROLL-03: joining is an action of its own, DT-105). None join
    a charmed shooter (PD-OBJ-CHARM): his side's figures are not the active player's to act with, and the active
    player's own would shoot at their own side."""
    if shooter.colour != state.active:
        return []
    return sorted(t.id for t in state.tokens.values() if t.is_figure and t.colour == shooter.colour
                  and t.id != shooter.id and t.id not in state.exhausted  # healed or regenerated: no action (DT-105)
                  and shot_problem(state, board, t, target) is None)


def figure_actions(state: GameState, board, seat: str, figure: Token) -> list:
    """One shot per target, and with each subset of the other shooters that may join (PR-RANGED-09)."""
    if ranged_weapon(state, figure) is None:
        return []
    out = []
    for target in first_persons(state, board, figure):
        if shot_problem(state, board, figure, target) is None:
            others = joiners_of(state, board, figure, target)
            for mask in range(1 << len(others)):
                out.append(Shoot(seat, figure.id, target.id,
                                 tuple(o for i, o in enumerate(others) if mask >> i & 1)))
    return sorted(out, key=lambda a: (a.target, len(a.joiners), a.joiners))


def _parse(w: Words, seat: str) -> Shoot:
    token, target = w.token(seat), w.token()
    joiners = []
    while w.more():
        index = w.i
        word = w.next(N_("missing +shooter"))
        if not word.startswith("+"):
            raise w.fail("expected +token (another shooter), got {word}", index, word=repr(word))
        joiners.append(w.token_word(word[1:], index, seat))
    return Shoot(seat, token, target, tuple(sorted(joiners)))


def _format(a: Shoot) -> str:
    return " ".join(["shoot", a.token, a.target, *(f"+{j}" for j in a.joiners)])


register_action(Shoot, {"shoot": _parse}, _format, any_of("ranged"))


def position_check(state: GameState) -> None:
    """A written position's pending shot is one its shooters could have declared and joined (PR-RANGED-01..09):
    nothing moves between a declaration and its cards, so each shooter's own refusal is the position's (DT-269).
    The reader has already checked that each shooter carries a ranged weapon and is of the attacker's side."""
    c = state.combat
    if c is None or not c.shooters:
        return
    board, target, ctx = board_of(state), state.tokens[c.target], Ctx(state)
    for tid in c.shooters:
        shooter = state.tokens[tid]
        refusal = ctx.exhausted_refusal(shooter) or shot_problem(state, board, shooter, target)
        if refusal is None and target.colour != shooter.colour and sight.carried(state, target):
            refusal = IllegalAction("BG-CARRY-04", "{target} is carried and cannot be attacked", target=target.id)
        if refusal is not None:
            raise PositionError(refusal.rule, "combat", f"{tid}: {refusal.message}")


MODULE = RuleModule("ranged", {Shoot: shoot}, figure_actions, reach_only=False, position_check=position_check)

__all__ = ["Shoot", "MODULE", "first_persons", "shot_problem"]
