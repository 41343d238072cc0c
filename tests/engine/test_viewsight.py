"""engine/boardgame/viewsight.py: lines of sight and what a fireball or a breath meets, read from a seat's view,
against the engine's own (Board.sight_line, BG-LOS-01..04, PR-SLIT-03, PD-TERR-FOG-02, PD-GLOS-03; abilities.burn,
BG-OBJ-FIREBALL-02..03, PD-CHAR-DRAGON-01, PD-OBJ-FIRESHIELD-01), along seeded random games of every board-game set
and on crowded positions with arrow slits and terrain."""

from __future__ import annotations

from collections import Counter

from dungeon_twister.engine import Options, apply, format_action, legal_actions, new_game, view
from dungeon_twister.engine.boardgame.context import Ctx
from dungeon_twister.engine.boardgame.geometry import DIRECTIONS, square_name
from dungeon_twister.engine.boardgame.viewsight import first_hit, sight_line
from dungeon_twister.engine.core.rng import Rng

from .mixed_random import crowded_position

SETS = ("base_set", "prison", "paladins", "all_sets")


def _check(state, seen: Counter) -> None:
    """Every figure's line in every direction, read from Blue's view, is the board's; every fireball or breath
    the state lists meets what apply says it met."""
    board, shown = Ctx(state).board, view(state, "B")
    for token in state.tokens.values():
        if token.where != "board" or token.square is None or not board.is_open_ground(token.square):
            continue
        for direction in DIRECTIONS:
            expected = [square_name(sq) for sq in board.sight_line(token.square, direction)]
            assert sight_line(shown, square_name(token.square), direction) == expected, (token.id, direction)
            seen["lines"] += 1
    for action in legal_actions(state):
        words = format_action(action).split()
        if words[0] not in ("fireball", "breathe"):
            continue
        _, events = apply(state, action)
        (burnt,) = [e for e in events if e.kind in ("fireball", "breath")]
        hit = first_hit(shown, words[1], words[2])
        assert hit is not None and tuple(burnt.data["victims"]) == (() if hit.shielded else hit.victims), words
        assert bool(burnt.data.get("shielded")) == hit.shielded, words
        seen["nobody" if not burnt.data["victims"] else "hits"] += 1


def test_BG_LOS_a_views_lines_of_sight_and_fireballs_are_the_engines_along_random_games():
    seen: Counter = Counter()
    for number, set_name in enumerate(SETS):
        rng = Rng(700 + number)
        state = new_game(Options(set_name=set_name), 700 + number)
        for step in range(400):
            if state.outcome is not None:
                break
            if state.phase == "main" and step % 2:
                _check(state, seen)
            legal = legal_actions(state)
            state, _ = apply(state, legal[rng.below(len(legal))])
    # (enough of each to mean something: the counts of these seeds, well above what a broken reader would pass)
    # (what these seeds give, with every second main-phase state checked: 36,960 lines, 458 fireballs and breaths
    # that meet nobody, 40 that hit; a reader that never ran would pass none of it)
    assert seen["lines"] > 10_000 and seen["nobody"] > 100 and seen["hits"] > 10, seen


def test_PR_SLIT_03_PD_TERR_FOG_02_a_views_lines_are_the_engines_on_crowded_positions_with_slits_and_terrain():
    seen: Counter = Counter()
    rng = Rng(31)
    checked = 0
    while checked < 60:
        state = crowded_position(rng)
        if state is None:
            continue
        checked += 1
        _check(state, seen)
    assert seen["lines"] > 1000 and seen["hits"] > 5 and seen["nobody"] > 5, seen


def test_PD_CHAR_GHOST_03_PD_OBJ_FIRESHIELD_01_a_ghost_is_not_spared_by_a_shield_nor_dies_with_a_wounded_friend():
    """The Ghost carries nothing (PD-CHAR-GHOST-03): a Fire Shield lying on his square does not spare him
    (PD-OBJ-FIRESHIELD-01 spares the shield's carrier), and a wounded friend lying under him is not eliminated with
    him (BG-OBJ-FIREBALL-05 takes the wounded a figure carries). The view's reading said "stopped by a Fire Shield"
    and named the wounded friend a victim (review rv31b). The edge: a Fire Shield under a Troll still spares him."""
    from dungeon_twister.engine import view as seat_view
    from .builders import apply_texts
    from .paladins.builders import pd_position

    cases = {"bWZ@e1 bFW@e1 yGH@e4 yFH@e4 yGB@h4": (("yGH",), False),
             "bWZ@e1 bFW@e1 yGH@e4 yTR@e4! yGB@h4": (("yGH",), False),
             "bWZ@e1 bFW@e1 bGH@e4 bTR@e4! yGB@h4": (("bGH",), False),
             "bWZ@e1 bFW@e1 yTR@e4 yFH@e4 yGB@h4": (("yTR",), True)}
    for tokens, (victims, shielded) in cases.items():
        state = pd_position(tokens)
        _, events = apply_texts(state, "fireball bWZ n")
        (burnt,) = [e for e in events if e.kind == "fireball"]
        assert tuple(burnt.data["victims"]) == (() if shielded else victims), tokens
        assert first_hit(seat_view(state, "B"), "bWZ", "n") == ("e4", victims, shielded), tokens
        seen: Counter = Counter()
        _check(state, seen)
        assert seen["hits"] + seen["nobody"] > 0, tokens
