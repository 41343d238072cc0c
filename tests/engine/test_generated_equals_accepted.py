"""Generated == accepted, for every action kind (BG-AP-01: what legal_actions omits is refused).

For each state and each seat, every action kind (engine/boardgame/actions.py, and each set's) has an enumerator (tests/engine/accepted.py) that lists candidate
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

import pytest

from dungeon_twister.engine import Options, apply, format_action, legal_actions, new_game
from dungeon_twister.engine.boardgame import actions as actions_module
from dungeon_twister.engine.boardgame import rulebook
from dungeon_twister.engine.core.choice import is_lazy
from dungeon_twister.engine.core.rng import Rng

from .accepted import ACTION_CLASSES, ENUMERATORS, disagreements
from .builders import act, position
from .paladins import enumerators as paladins_enumerators  # noqa: F401  (registers Paladins & Dragons' kinds)
from .paladins.builders import pd_position
from .prison import enumerators as prison_enumerators  # noqa: F401  (registers Prison's kinds)
from .prison.builders import prison_position

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
    ("PR-CHAR-BANSHEE-01 push", lambda: prison_position("bBS@c6 bKY@c7 yNG@c10 yMK@h4 yTP@a6"), "push bBS yNG"),
    ("PR-CHAR-NAGA-01 through a slit", lambda: prison_position("bNG@d14 bKY@d14 yTP@d13 yBS@d15"),
     "move bNG e14 bKY@d14"),
    ("PR-RANGED-01 shoot, joined", lambda: prison_position("bCL@c2 bBW@c2 bWZ@h6 bFS@h6 bNG@e6 yBW@e6 yMK@c6 "
                                                          "yTP@a9"), "shoot bCL yMK +bNG"),
    ("PR-OBJ-LANCE-01 lance", lambda: prison_position("bCO@c1 bLN@c1 yNG@c3 yMK@e1 yTP@h5"), "lance bCO yNG"),
    ("PR-CHAR-TELEPATH-01 name a card", lambda: act(prison_position("bNG@c3 yTP@c4 yMK@h5"), "attack bNG yTP"),
     "mind +3"),
    ("PR-CHAR-TELEPATH-01 the forced card",
     lambda: act(prison_position("bTP@c3 yNG@c4 yMK@h5"), "attack bTP yNG", "mind +4"), "combat +4"),
    ("PR-OBJ-KEY-01 open with the Key", lambda: prison_position("bMK@c12 bKY@c12 yNG@h4"), "open bMK n"),
    ("PD-TERR-FOUNTAIN-02 drink from the fountain", lambda: pd_position("bGB@d4! bTR@e5! yGB@h4"), "fountain bGB"),
    ("PD-TERR-CREVASSE-03 jump a crevasse, PD-TERR-ROCKFALL-01 walk onto Rockfall",
     lambda: pd_position("bWA@a3 bWZ@c3 bFW@c3 bGB@a18 bRP@a18 yGB@h4"), "jump bWA b3 b2"),
    ("PD-CHAR-DRAGON-01 breathe, PD-OBJ-RING-01 teleport, PD-CHAR-PICKPOCKET-01 steal",
     lambda: pd_position("bRD@c4 bRG@c4 bPP@h4 yTS@h5 yGB@h5 yWA@c10 yKY@c10 bGO@c9"), "steal bPP yTS"),
    ("PD-CHAR-GOLEM-01 break a wall, PD-CHAR-GHOST-01 through walls",
     lambda: pd_position("bGO@b13 bGH@c12 bSW@c12 yWA@h4 yGB@d13"), "smash bGO e"),
    ("PD-CHAR-GOLEM-05 a double wall", lambda: act(pd_position("bGO@a5 yWA@h4"), "smash bGO n"), "smash bGO n"),
    ("PD-CHAR-ILLUS-01 an illusion, PD-CHAR-ILLUS-06 taken back",
     lambda: act(pd_position("bIL@a7 bGB@c6 bGH@c7 yWA@h4 yGB@e9"), "illusion bIL rubble b7", "illusion bIL pit a8"),
     "dispel bIL pit"),
    ("PD-CHAR-ILLUS-03 another's illusion pit",
     lambda: pd_position("bIL@a6 yWA@c5 yGB@h4", active="Y", ports="- ; marks illusion:B:pit=c6"), "jump yWA c6 c7"),
    ("PD-CHAR-WMASTER-01 the card laid first", lambda: act(pd_position("bWM@c4 yTR@c5 yGB@h4"), "attack bWM yTR"),
     "combat +3"),
    ("PD-CHAR-PALADIN-01 carrying two", lambda: pd_position("bPA@b4 bSW@b4 bTS@c4 bTR@d4! yWA@h4"),
     "move bPA d4 +bTS bSW@b4"),
    ("PD-OBJ-CHARM-01 charm", lambda: pd_position("bIL@a7 bCH@a7 yMK@c7 bGB@c6 yWA@h4 yGB@e9"), "charm bIL yMK"),
    ("PD-OBJ-CHARM-02 the charmed figure's actions",
     lambda: act(pd_position("bIL@a7 bCH@a7 yMK@c7 bGB@c6 yWA@h4 yGB@e9"), "charm bIL yMK"), "move yMK b7"),
]


@lru_cache(maxsize=None)
def random_states() -> tuple:
    """States of random games (standard, beginner, Prison): the first of every phase, and a main-phase state
    after 150 actions. Computed once per session."""
    chosen = []
    for seed, options in ((3, Options()), (8, Options(beginner=True)), (5, Options(set_name="prison")),
                          (4, Options(set_name="paladins")), (6, Options(set_name="mixed", teams="mutual")),
                          (7, Options(set_name="all_sets", teams="free"))):
        state, rng = new_game(options, seed), Rng(seed + 1)
        # the free choice brings the build phase; its other phases are the mutual mix's (seed 6), already here
        free = options.teams == "free"
        phases_seen: set[str] = {"team", "hide", "card", "main", "combat", "place"} if free else set()
        for step in range(200):
            if state.outcome is not None:
                break
            if state.phase not in phases_seen or (state.phase == "main" and step == 150 and not free):
                phases_seen.add(state.phase)
                chosen.append((f"seed {seed} step {step} {state.phase}", state))
            state, _ = apply(state, rng.choice(legal_actions(state)))
    return tuple(chosen)


def test_every_action_class_has_an_enumerator():
    """A new action kind cannot be forgotten: each class of engine/boardgame/actions.py, each handled class of every rule
    set and each verb has its candidate enumerator (tests/engine/accepted.py, or registered by a set's tests)."""
    assert set(ACTION_CLASSES) <= set(ENUMERATORS)
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
    assert {"draft", "build", "team", "hide", "card", "main", "combat"} <= {state.phase for _, state in states}
    for name, state in states:
        assert disagreements(state) == [], name


def test_every_kind_is_generated_somewhere():
    """The states above exercise every action kind, so none is compared only on refusals."""
    seen = {type(a) for _, build, _ in BUILT for a in legal_actions(build())}
    for _, state in random_states():
        legal = legal_actions(state)
        seen |= {type(a) for a in (legal[:1] if is_lazy(legal) else legal)}  # a build: one of 10^11 is enough
    assert seen == set(ENUMERATORS)
