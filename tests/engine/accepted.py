"""Generated == accepted, the machinery: one candidate enumerator per action kind and the comparison
(`disagreements`). tests/engine/test_generated_equals_accepted.py says what it proves and runs it; a set's action
kinds join through `register` (tests/engine/prison/enumerators.py).
"""

from __future__ import annotations

from itertools import combinations, permutations

from dungeon_twister.engine import apply, format_action, legal_actions
from dungeon_twister.engine.boardgame import actions as actions_module
from dungeon_twister.engine.boardgame import rulebook
from dungeon_twister.engine.boardgame.actions import (Action, Attack, Build, ChooseTeam, CombatCard, Drink, EndTurn,
                                                      Fireball, Heal, Hide, Jump, Move, PassPlacement, Pick, Place,
                                                      PlayCard, Portcullis, Regenerate, Reveal, Rotate, WallWalk)
from dungeon_twister.engine.boardgame.board import board_of
from dungeon_twister.engine.boardgame.draft import build_choice
from dungeon_twister.engine.boardgame.geometry import DIRECTIONS
from dungeon_twister.engine.boardgame.setup import marked_squares, removals_needed
from dungeon_twister.engine.boardgame.state import SEATS
from dungeon_twister.engine.core.choice import is_lazy
from dungeon_twister.engine.core.errors import EngineError
from dungeon_twister.engine.core.rng import Rng

ACTION_CLASSES = sorted((cls for cls in vars(actions_module).values()
                         if isinstance(cls, type) and issubclass(cls, Action) and cls is not Action),
                        key=lambda cls: cls.__name__)
"""The board-game family's own action kinds (engine/boardgame/actions.py); a set's kinds join through `register`."""
OUT_OF_PHASE_SAMPLE = 6  # candidates tried per kind when the state's phase is not the kind's own
PHASE_OF = {ChooseTeam: "team", Hide: "hide", PlayCard: "card", CombatCard: "combat", Place: "place",
            PassPlacement: "place", Pick: "draft", Build: "build"}  # every other kind belongs to the main phase


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
        if "strength" in state.catalogue.characters[token.code].abilities:  # PD-CHAR-PALADIN-01: two at once
            out += [Move(seat, tid, dest, take=f"{a}+{b}") for n, a in enumerate(items) for b in items[n + 1:]
                    for dest in env.ball(env.on_board[b], 1)]
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


def picks(env: Env, seat: str):
    """PD-TEAM-MUTUAL: every room pair number, character and object code of the set (and one number no pair has)."""
    cat = env.state.catalogue
    numbers = sorted({str(room.number) for room in cat.rooms.values()}, key=int) + ["99"]
    return (Pick(seat, value) for value in (*numbers, *sorted(cat.characters), *sorted(cat.objects)))


BUILD_SAMPLES = 24


def builds(env: Env, seat: str):
    """PD-TEAM-FREE: too many to try all (10^10 and more), so: the first and last builds, random ones, and each
    of those changed in one way that may break a rule: a value dropped, one more, one repeated, one from another
    part, a pair number no set has (any game: a set without a mix has no build to compare)."""
    cat = env.state.catalogue
    if cat.mix is None:
        return iter((Build(seat, (1, 2), tuple(sorted(cat.characters))[:8], tuple(sorted(cat.objects))[:6]),))
    choice = build_choice(env.state, seat)
    rng = Rng(len(choice) ^ ord(seat))
    picked = [choice[0], choice[-1], *(choice[rng.below(len(choice))] for _ in range(BUILD_SAMPLES))]
    out = []
    for b in picked:
        out.append(b)
        fields = {"pairs": b.pairs, "characters": b.characters, "objects": b.objects}
        for name, values in fields.items():
            pool = [int(v) for v in choice.parts[0].values] if name == "pairs" else list(
                choice.parts[1 if name == "characters" else 2].values)
            extra = next(v for v in pool if values.count(v) == 0)
            for changed in (values[1:], values + (extra,), values[:-1] + (values[0],),
                            values[:-1] + ((99,) if name == "pairs" else (fields["objects" if name == "characters"
                                                                                  else "characters"][0],))):
                out.append(Build(seat, **{**fields, name: tuple(sorted(changed))}))
    return iter(out)


ENUMERATORS: dict = {
    ChooseTeam: teams, Hide: hides, PlayCard: cards, EndTurn: ends, Move: moves, WallWalk: wallwalks, Jump: jumps,
    Attack: attacks, CombatCard: combat_cards, Reveal: reveals, Place: places, PassPlacement: passes,
    Rotate: rotations, Heal: heals, Regenerate: regenerations, Portcullis: portcullises, Fireball: fireballs,
    Drink: drinks, Pick: picks, Build: builds,
}
# Kinds whose generated actions may lie outside the bounded enumeration (a move dropping two tokens, or taking
# one and dropping another); those generated ones are added to the candidates, so they must still be accepted.
PARTLY_ENUMERATED = {Move, Build}


def register(cls: type, enumerator, phase: str = "main", partly: bool = False) -> None:
    """A set's action kind joins the comparison (tests/engine/prison/enumerators.py): `enumerator(env, seat)`
    lists its candidates exhaustively over every parameter that could matter."""
    ENUMERATORS[cls] = enumerator
    if phase != "main":
        PHASE_OF[cls] = phase
    if partly:
        PARTLY_ENUMERATED.add(cls)


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
    legal = legal_actions(state)
    lazy = is_lazy(legal)  # a choice made of parts: compared by `in`, and a sample of it added to the candidates
    generated = legal if lazy else set(legal)
    problems = []
    kinds = sorted(rulebook.handlers(state.catalogue.rules), key=lambda cls: cls.__name__)  # the game's own kinds
    for seat in SEATS:
        for cls in kinds:
            own_phase = PHASE_OF.get(cls, "main") == state.phase and seat in state.to_act
            candidates = list(dict.fromkeys(ENUMERATORS[cls](env, seat)))
            if not own_phase:
                candidates = candidates[:: max(1, len(candidates) // OUT_OF_PHASE_SAMPLE)]
            if lazy:
                of_kind = {a for a in candidates if type(a) is cls and a.seat == seat and a in generated}
                sample = [legal[i * len(legal) // 7] for i in range(7)]
                missing = {a for a in sample if type(a) is cls and a.seat == seat} - set(candidates)
                of_kind |= missing
            else:
                of_kind = {a for a in generated if type(a) is cls and a.seat == seat}
                missing = of_kind - set(candidates)
            if missing and cls not in PARTLY_ENUMERATED:
                problems += [f"not enumerated: {format_action(a)}" for a in sorted(missing, key=repr)]
            for action in (*candidates, *missing):
                if accepts(state, action) != (action in of_kind):
                    verdict = "accepted but not generated" if action not in of_kind else "generated but refused"
                    problems.append(f"{seat} {format_action(action)}: {verdict}")
    return problems
