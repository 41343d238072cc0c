"""Generated == accepted, for every action kind (BG-AP-01: what legal_actions omits is refused).

For each state and each seat, every action class of engine/boardgame/actions.py has an enumerator that lists candidate
actions of that kind exhaustively over its parameters (every token x every square, target, card, slot, direction
or object that could matter); the candidates `apply` accepts must be exactly the generated actions of that kind.
A generator that forgets a case (a mutation once made legal_actions stop offering attacks on figures standing on
their start zone, BG-COMBAT-09, and no test noticed) or a rule that forgets a check both fail here.

Bounds, where a dimension is too large to try in full (each refused Move costs a path search), are by the rules:
a move's destination, pick-ups and drop squares lie within the mover's MV (+1 to catch an off-by-one) of its square
(BG-MOVE-01; the plain moves to every square of the board are tried in test_properties); a jump's pit is next to the
jumper and its landing within 2 squares (BG-JUMP-03); a wall-walk lands next to her square (BG-CHAR-WALLWALKER-01).
Outside its own phase, a kind needs no exhaustive list: a few candidates per kind show the phase is checked.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations, permutations

import pytest

from dungeon_twister.engine import Options, apply, format_action, legal_actions, new_game
from dungeon_twister.engine.boardgame import rulebook
from dungeon_twister.engine.boardgame import actions as actions_module
from dungeon_twister.engine.boardgame.actions import (Action, Attack, ChooseTeam, CombatCard, Drink, EndTurn, Fireball, Heal,
                                            Hide, Jump, Move, PassPlacement, Place, PlayCard, Portcullis, Regenerate,
                                            Reveal, Rotate, WallWalk)
from dungeon_twister.engine.boardgame.board import board_of
from dungeon_twister.engine.core.errors import EngineError
from dungeon_twister.engine.boardgame.geometry import DIRECTIONS
from dungeon_twister.engine.core.rng import Rng
from dungeon_twister.engine.boardgame.setup import marked_squares, removals_needed
from dungeon_twister.engine.boardgame.state import SEATS

from .builders import act, position

ACTION_CLASSES = sorted((cls for cls in vars(actions_module).values()
                         if isinstance(cls, type) and issubclass(cls, Action) and cls is not Action),
                        key=lambda cls: cls.__name__)
OUT_OF_PHASE_SAMPLE = 6  # candidates tried per kind when the state's phase is not the kind's own
PHASE_OF = {ChooseTeam: "team", Hide: "hide", PlayCard: "card", CombatCard: "combat", Place: "place",
            PassPlacement: "place"}  # every other kind belongs to the main phase


class Env:
    """What the enumerators range over in one state."""

    def __init__(self, state) -> None:
        self.state = state
        self.board = board_of(state)
        self.ids = sorted(state.tokens)
        self.slots = [place.slot for place in state.rooms]
        self.width = 10
        self.on_board = {t.id: t.square for t in state.tokens.values() if t.where == "board"}

    def ball(self, centre, radius: int) -> list:
        """Squares within `radius` steps of `centre`, including one row and file beyond the board."""
        x0, y0 = centre
        return [(x, y) for x in range(max(-1, x0 - radius), min(self.width, x0 + radius + 1))
                for y in range(max(-2, y0 - radius), min(self.state.height + 2, y0 + radius + 1))
                if abs(x - x0) + abs(y - y0) <= radius]

    def square_of(self, token_id: str):
        return self.on_board.get(token_id, (2, 2))

    def own_figures(self, seat: str) -> list:
        return sorted(t.id for t in self.state.tokens.values()
                      if t.colour == seat and t.where == "board" and t.is_character)


# --- one enumerator per action class ---------------------------------------------------------------------
def teams(env: Env, seat: str):
    """BG-SETUP-04: every character code (of the whole catalogue) on every marked square, with every removal."""
    state = env.state
    codes = sorted(state.catalogue.characters)
    squares = marked_squares(state, seat)
    need = removals_needed(state, seat)
    for four in permutations(codes, len(squares)):
        rest = [c for c in codes if c not in four]
        for size in sorted({0, need}):
            for removed in combinations(rest, size):
                yield ChooseTeam(seat, tuple(zip(squares, four)), removed)


def hides(env: Env, seat: str):
    return (Hide(seat, tid, slot) for tid in env.ids for slot in env.slots)


def cards(env: Env, seat: str):
    return (PlayCard(seat, value) for value in range(0, 8))


def ends(env: Env, seat: str):
    return [EndTurn(seat)]


def moves(env: Env, seat: str):
    """Every token to the squares around it; an own figure to every square within its MV + 1, with every pick-up
    of a token within its MV (ending next to where it lay), and with the drop of what it carries next to its
    square (ending next to the drop). Refused moves cost a full path search each (a third of a second for a
    carrier among objects), so pick-ups and drops are tried near where they happen; the generated ones are
    all tried too (they must be accepted)."""
    state = env.state
    out = []
    for tid in env.ids:
        token = state.tokens[tid]
        here = env.square_of(tid)
        if not (token.colour == seat and token.where == "board" and token.is_character):
            out += [Move(seat, tid, sq) for sq in env.ball(here, 1)]
            continue
        steps = state.catalogue.characters[token.code].move
        out += [Move(seat, tid, dest) for dest in env.ball(here, steps + 1)]
        near = set(env.ball(here, steps))
        items = sorted(other for other, sq in env.on_board.items() if other != tid and sq in near)
        out += [Move(seat, tid, dest, take=item) for item in items for dest in env.ball(env.on_board[item], 1)]
        carried = [other for other in items if env.on_board[other] == here]
        out += [Move(seat, tid, dest, leave=((item, sq),)) for item in carried for sq in env.ball(here, 1)
                for dest in env.ball(sq, 1)]
    return out


def wallwalks(env: Env, seat: str):
    out = []
    for tid in env.ids:
        here = env.square_of(tid)
        near = [other for other, sq in env.on_board.items() if other != tid and sq == here]
        for dest in env.ball(here, 1):
            out.append(WallWalk(seat, tid, dest))
            out += [WallWalk(seat, tid, dest, ((other, sq),)) for other in near for sq in (here, dest)]
    return out


def jumps(env: Env, seat: str):
    return (Jump(seat, tid, pit, dest) for tid in env.ids for pit in env.ball(env.square_of(tid), 1)
            for dest in env.ball(env.square_of(tid), 2))


def attacks(env: Env, seat: str):
    return (Attack(seat, tid, target) for tid in env.ids for target in env.ids)


def combat_cards(env: Env, seat: str):
    return (CombatCard(seat, value) for value in range(-1, 8))


def reveals(env: Env, seat: str):
    return (Reveal(seat, tid, slot) for tid in env.ids for slot in env.slots)


def places(env: Env, seat: str):
    """Every token on every square of the room being placed and the squares around it."""
    placement = env.state.placement
    squares = {(2, 2)}
    if placement is not None:
        for sq in env.board.room_squares(placement.slot):
            squares.update(env.ball(sq, 1))
    return (Place(seat, tid, sq) for tid in env.ids for sq in sorted(squares))


def passes(env: Env, seat: str):
    return [PassPlacement(seat)]


def rotations(env: Env, seat: str):
    return (Rotate(seat, tid, slot, cw) for tid in env.ids for slot in env.slots for cw in (True, False))


def heals(env: Env, seat: str):
    return (Heal(seat, tid, target) for tid in env.ids for target in env.ids)


def regenerations(env: Env, seat: str):
    return (Regenerate(seat, tid) for tid in env.ids)


def portcullises(env: Env, seat: str):
    return (Portcullis(seat, tid, d, how) for tid in env.ids for d in DIRECTIONS for how in ("break", "open", "close"))


def fireballs(env: Env, seat: str):
    return (Fireball(seat, tid, d) for tid in env.ids for d in DIRECTIONS)


def drinks(env: Env, seat: str):
    return (Drink(seat, tid) for tid in env.ids)


ENUMERATORS = {
    ChooseTeam: teams, Hide: hides, PlayCard: cards, EndTurn: ends, Move: moves, WallWalk: wallwalks, Jump: jumps,
    Attack: attacks, CombatCard: combat_cards, Reveal: reveals, Place: places, PassPlacement: passes,
    Rotate: rotations, Heal: heals, Regenerate: regenerations, Portcullis: portcullises, Fireball: fireballs,
    Drink: drinks,
}
# Kinds whose generated actions may lie outside the bounded enumeration (a move dropping two tokens, or taking
# one and dropping another); those generated ones are added to the candidates, so they must still be accepted.
PARTLY_ENUMERATED = {Move}


def accepts(state, action) -> bool:
    """True if apply takes the action; a refusal must be an EngineError (anything else is a crash on bad input)."""
    try:
        apply(state, action)
    except EngineError:
        return False
    return True


def disagreements(state) -> list[str]:
    """Every candidate on which legal_actions and apply disagree, in notation, for both seats and every kind."""
    env = Env(state)
    generated = set(legal_actions(state))
    problems = []
    for seat in SEATS:
        for cls in ACTION_CLASSES:
            own_phase = PHASE_OF.get(cls, "main") == state.phase and seat in state.to_act
            candidates = list(dict.fromkeys(ENUMERATORS[cls](env, seat)))
            if not own_phase:
                candidates = candidates[:: max(1, len(candidates) // OUT_OF_PHASE_SAMPLE)]
            of_kind = {a for a in generated if type(a) is cls and a.seat == seat}
            missing = of_kind - set(candidates)
            if missing and cls not in PARTLY_ENUMERATED:
                problems += [f"not enumerated: {format_action(a)}" for a in sorted(missing, key=repr)]
            for action in (*candidates, *missing):
                if accepts(state, action) != (action in of_kind):
                    verdict = "accepted but not generated" if action not in of_kind else "generated but refused"
                    problems.append(f"{seat} {format_action(action)}: {verdict}")
    return problems


# --- the states ----------------------------------------------------------------------------------------------
A2_HIDDEN = "A1=O1/0 B1=O2/0 A2=*P1/0 B2=P2/0 A3=W1/0 B3=W2/0 A4=Q1/0 B4=Q2/0"
REVEALABLE = "bWA@b5 bSW#A2.1 yTR#A2.2 yRP#A2.3"  # a middle room holds 3 (BG-SETUP-06)

# (what the position is for, position, an action it must generate)
BUILT = [
    ("BG-COMBAT-09 attack onto the enemy's start zone", lambda: position("bWA@c20 yGB@c21"), "attack bWA yGB"),
    ("BG-COMBAT-09 attack from one's own start zone", lambda: position("bWA@c0 yGB@c1"), "attack bWA yGB"),
    ("BG-COMBAT-09 attacked on one's own start zone", lambda: position("bWA@c0 yGB@c1", active="Y"),
     "attack yGB bWA"),
    ("BG-COMBAT-02 combat cards", lambda: act(position("bWA@c4 yTR@c5 bSW@c4"), "attack bWA yTR"), "combat +3"),
    ("BG-CHAR-CLERIC-01 heal", lambda: position("bCL@c4 bGB@c5! bTR@e4! yGB@d4!"), "heal bCL bGB"),
    ("BG-CHAR-TROLL-01 regenerate", lambda: position("bTR@c5! yWA@c6"), "regenerate bTR"),
    ("BG-JUMP-03 jump over a pit", lambda: position("bWA@c7 yGB@d9"), "jump bWA c8 c9"),
    ("BG-CHAR-WALLWALKER-01 through a wall", lambda: position("bWW@b13 bTS@b13 yGB@c12"), "wallwalk bWW c13"),
    ("BG-CHAR-WARRIOR-01 break a portcullis", lambda: position("bWA@c12 yTH@d13"), "break bWA n"),
    ("BG-CHAR-THIEF-01 open a portcullis", lambda: position("bTH@c12 yWA@d13"), "open bTH n"),
    ("BG-CHAR-THIEF-01 close a portcullis", lambda: position("bTH@c12 yWA@d13", ports="W1=oo"), "close bTH n"),
    ("BG-OBJ-FIREBALL-01 fireball", lambda: position("bWZ@e2 bFW@e2 yGB@e19 yTR@d5"), "fireball bWZ n"),
    ("BG-OBJ-POTION-01 drink", lambda: position("bGB@c4 bSP@c4 yGB@c6"), "drink bGB"),
    ("BG-ROT-01 rotate from the gear", lambda: position("bWA@a5 yTR@b5"), "rotate bWA A1 ccw"),
    ("BG-REVEAL-01 reveal", lambda: position(REVEALABLE, rooms=A2_HIDDEN), "reveal bWA A2"),
    ("BG-REVEAL-06 place", lambda: act(position(REVEALABLE, rooms=A2_HIDDEN), "reveal bWA A2"), "place yTR b7"),
    ("BG-OPT-03 pass the placement",
     lambda: act(position(REVEALABLE, rooms=A2_HIDDEN), "reveal bWA A2", "place yTR b7", "place yRP c7"),
     "pass"),
    ("BG-ITEM pick up, drop and hand over", lambda: position("bWA@c4 bRP@c4 bSW@c6 yTR@h4"),
     "move bWA b6 +bSW bRP@c5"),
    ("BG-TURN-01 play a card", lambda: position("bWA@c4 yGB@h4", phase="card", ap=0), "card 3"),
]


@lru_cache(maxsize=None)
def random_states() -> tuple:
    """States of two random games (standard and beginner): the first of every phase, and a main-phase state
    after 150 actions. Computed once per session."""
    chosen = []
    for seed, options in ((3, Options()), (8, Options(beginner=True))):
        state, rng = new_game(options, seed), Rng(seed + 1)
        phases_seen: set[str] = set()
        for step in range(200):
            if state.outcome is not None:
                break
            if state.phase not in phases_seen or (state.phase == "main" and step == 150):
                phases_seen.add(state.phase)
                chosen.append((f"seed {seed} step {step} {state.phase}", state))
            state, _ = apply(state, rng.choice(legal_actions(state)))
    return tuple(chosen)


def test_every_action_class_has_an_enumerator():
    """A new action kind cannot be forgotten: each class of engine/boardgame/actions.py, each handled class of every rule
    set and each verb has its candidate enumerator here."""
    assert set(ENUMERATORS) == set(ACTION_CLASSES)
    for rules in rulebook.RULE_SETS:
        assert set(rulebook.handlers(rules)) <= set(ENUMERATORS), rules
    assert set(actions_module.VERBS) == set(ENUMERATORS)


@pytest.mark.parametrize("name, build, expected", BUILT, ids=[b[0].split()[0] + "-" + b[2].replace(" ", "_")
                                                              for b in BUILT])
def test_built_positions_generated_equals_accepted(name, build, expected):
    """Positions where each kind is possible: the expected action is generated, and for every kind, apply accepts
    exactly the generated candidates."""
    state = build()
    assert disagreements(state) == [], name
    assert expected in {format_action(a) for a in legal_actions(state)}, name


def test_random_game_states_generated_equals_accepted():
    """The same over states of random games, in every phase they reach."""
    states = random_states()
    assert {"team", "hide", "card", "main", "combat"} <= {state.phase for _, state in states}
    for name, state in states:
        assert disagreements(state) == [], name


def test_every_kind_is_generated_somewhere():
    """The states above exercise every action kind, so none is compared only on refusals."""
    seen = {type(a) for _, build, _ in BUILT for a in legal_actions(build())}
    seen |= {type(a) for _, state in random_states() for a in legal_actions(state)}
    assert seen == set(ACTION_CLASSES)
