"""Paladins & Dragons terrain (PD-TERR, PD-GLOS-03, PD-ROPE) on the synthetic rooms of tests/engine/paladins/builders.py:
room A1 (ranks 1-5) has a crevasse on b3, a 3D obstacle on d3 and a fountain on d5; room A4 (ranks 16-20) Rockfall on
b18, fog on b17 and b16, the Pentacle on d18 e18 d19 e19. Movement values: Warrior 3, Goblin 4, Wizard 4 (flying)."""

from __future__ import annotations

import copy

from dungeon_twister.engine import Move, event_view, legal_actions, parse_position
from dungeon_twister.engine.boardgame import catalogue

from ..builders import act, apply_texts, assert_refused, legal_set, position_text, where
from .builders import _synthetic_paladins, pd_position


def moves(state, token: str) -> set[str]:
    return legal_set(state, verb="move", token=token)


# --- crevasses ---------------------------------------------------------------------------------------------------
def test_PD_TERR_CREVASSE_01_nobody_enters_it_a_flyer_crosses_it_and_never_stops():
    """The Warrior on a3 cannot step onto the crevasse b3 nor stop there; the Wizard (flying) crosses it in 2 steps to
    c3 but may not stop on it either (refused citing PD-TERR-CREVASSE-01)."""
    state = pd_position("bWA@a3 bWZ@a4 yGB@h4")
    assert "move bWA b3" not in moves(state, "bWA")
    assert_refused(state, "move bWA b3", "PD-TERR-CREVASSE-01")
    assert_refused(state, "move bWA b3-c3", "PD-TERR-CREVASSE-01")
    flyer = moves(state, "bWZ")
    assert "move bWZ c3" in flyer and "move bWZ b3" not in flyer
    assert_refused(state, "move bWZ b3", "PD-TERR-CREVASSE-01")
    assert where(act(state, "move bWZ b4-b3-c3"), "bWZ") == "c3"


def test_PD_ROPE_01_PD_TERR_CREVASSE_04_a_rope_crosses_one_crevasse_square_never_stops_there():
    """The Goblin carrying the Rope crosses b3 (a3 -> b3 -> c3: 2 steps) but may neither stop on b3 nor leave the
    Rope there; without the Rope the same route is refused."""
    state = pd_position("bGB@a3 bRP@a3 yGB@h4")
    legal = moves(state, "bGB")
    assert "move bGB c3" in legal and not any(m.split()[2] == "b3" for m in legal)
    assert not any("bRP@b3" in m for m in legal)
    assert_refused(pd_position("bGB@a3 yGB@h4"), "move bGB b3-c3", "PD-TERR-CREVASSE-01")


def test_PD_ROPE_03_edge_never_from_an_obstacle_square_straight_onto_another():
    """The walker's step rule: a Rope-carrier enters a crevasse only from a valid square, never from an obstacle
    square (the synthetic rooms have no two obstacle squares side by side, so the step is asked directly)."""
    from dungeon_twister.engine.boardgame.board import board_of
    from dungeon_twister.engine.boardgame.movement import Walker

    state = pd_position("bGB@a3 bRP@a3 yGB@h4")
    walker = Walker(state, board_of(state), state.tokens["bGB"])
    b3, a3, c3 = (1, 2), (0, 2), (2, 2)
    assert walker.may_enter(a3, b3, "bRP", ()) is True
    assert walker.may_enter(b3, b3, "bRP", ()) is False  # from a crevasse onto a crevasse
    assert walker.may_enter(a3, b3, None, ()) is False  # no Rope: no crossing
    assert walker.may_enter(b3, c3, "bRP", ()) is True


def _crevasse_beside_a_pit():
    """The synthetic rooms with a pit on c3 beside the crevasse b3 (the O rooms' r3c3; PD rooms of our own)."""
    from dungeon_twister.engine.boardgame import catalogue
    from .builders import _synthetic_paladins

    raw = _synthetic_paladins()
    raw["set"] = "synthetic_paladins_pit"
    for room in ("O1", "O2"):
        raw["rooms"][room]["pits"] = ["r3c3"]
    catalogue.register("synthetic_paladins_pit", raw)
    return lambda tokens: pd_position(tokens, set_name="synthetic_paladins_pit")


def test_PD_ROPE_03_from_a_crevasse_never_onto_a_pit_even_one_a_rope_bridges():
    """Found by a rules review: the Warrior with his Rope crossing the crevasse b3 could step on onto the pit c3
    because a Rope lay in it (a3 -> b3 -> c3 -> c4), while the way back (c3 -> b3) was refused: PD-ROPE-03 forbids
    both, a Rope-carrier never steps from one obstacle square straight onto another (and c3 is no valid square for
    him to land on: two Ropes). The bridged pit alone, from a valid square, stays open."""
    position = _crevasse_beside_a_pit()
    state = position("bWA@a3 bRP@a3 yRP@c3 yTH@h5")
    b3, c3 = (1, 2), (2, 2)
    routes = [a.route for a in legal_actions(state) if isinstance(a, Move) and a.token == "bWA"]
    assert routes and not any(b3 in route and c3 in route for route in routes)
    assert_refused(state, "move bWA b3-c3-c4", "PD-ROPE-03")
    assert assert_refused(position("bWA@c4 bRP@c4 yRP@c3 yTH@h5"), "move bWA c3-b3-a3", "PD-ROPE-03").message == \
        "a Rope crosses one obstacle square at a time: not from the pit c3 onto the crevasse b3"
    assert where(act(position("bWA@c2 bRP@c2 yRP@c3 yTH@h5"), "move bWA c3-c4"), "bWA") == "c4"


def _crevasse_routes(state, token):
    """The routes of `token`'s legal moves that step between the crevasse b3 and the pit c3, either way."""
    b3, c3 = (1, 2), (2, 2)
    return [a.route for a in legal_actions(state) if isinstance(a, Move) and a.token == token and any(
        {a.route[i], a.route[i + 1]} == {b3, c3} for i in range(len(a.route) - 1))]


def test_PD_ROPE_03_DT_240_the_elf_and_the_thief_with_a_rope_neither_from_crevasse_onto_pit_nor_back():
    """Found by an audit: the Elf Scout (Agility) or the Thief (Acrobatics) carrying a Rope crossed the crevasse b3
    straight onto the pit c3 (a3 -> b3 -> c3), while the way back (c3 -> b3) was refused. Their crevasse crossing is
    the Rope's (PD-CHAR-ELF-02, PD-TERR-CREVASSE-02), so PD-ROPE-03 holds for it both ways; RUL-010 frees only their
    own pit crossing (DT-240). Both directions are refused citing PD-ROPE-03; the crevasse alone and the pit alone
    stay open to them."""
    position = _crevasse_beside_a_pit()
    onto_pit = "a Rope crosses one obstacle square at a time: not from the crevasse b3 onto the pit c3"
    onto_crevasse = "a Rope crosses one obstacle square at a time: not from the pit c3 onto the crevasse b3"
    elf = position("bES@a3 bRP@a3 yTH@h5")
    assert not _crevasse_routes(elf, "bES")
    assert assert_refused(elf, "move bES b3-c3-c4", "PD-ROPE-03").message == onto_pit
    assert assert_refused(position("bES@c4 bRP@c4 yTH@h5"), "move bES c3-b3-a3", "PD-ROPE-03").message == onto_crevasse
    assert where(act(elf, "move bES b3-b2"), "bES") == "b2"  # the crevasse alone, by the Rope
    assert where(act(position("bES@c2 bRP@c2 yTH@h5"), "move bES c3-c4"), "bES") == "c4"  # Agility over the pit
    thief = position("bTH@a3 bRP@a3 yWA@h5")
    assert not _crevasse_routes(thief, "bTH")
    assert assert_refused(thief, "move bTH b3-c3", "PD-ROPE-03").message == onto_pit
    on_pit = position("bTH@c3 bRP@c3 yWA@h5")
    assert not _crevasse_routes(on_pit, "bTH")
    assert assert_refused(on_pit, "move bTH b3-a3", "PD-ROPE-03").message == onto_crevasse
    assert where(act(thief, "move bTH b3-b2"), "bTH") == "b2"  # the crevasse alone, by the Rope
    assert where(act(on_pit, "move bTH c4"), "bTH") == "c4"


def test_PD_ROPE_01_03_DT_243_from_rockfall_crossed_by_a_shield_the_rope_crosses_the_crevasse_both_ways():
    """DT-243: the Rope crosses the crevasse b3 from a valid square to a valid square (PD-ROPE-01); the Rockfall c3
    beside it is not crossed by the Rope (PD-TERR-ROCKFALL-05) but by the Fire Shield, and ending there is legal
    (deadly: DT-112), so it is a valid square. The Paladin with both goes c3 -> b3 -> a3 and back alike. Without
    the shield the Rockfall ends his move (PD-TERR-ROCKFALL-05 named: a Rope does not cross it)."""
    from dungeon_twister.engine.boardgame import catalogue
    from .builders import _synthetic_paladins

    raw = _synthetic_paladins()
    raw["set"] = "synthetic_paladins_rockfall_rift"
    for room in ("O1", "O2"):
        raw["rooms"][room]["rockfall"] = ["r3c3"]
    catalogue.register("synthetic_paladins_rockfall_rift", raw)

    def position(tokens):
        return pd_position(tokens, set_name="synthetic_paladins_rockfall_rift")

    assert where(act(position("bPA@c4 bRP@c4 bFH@c4 yGB@h4"), "move bPA c3-b3-a3"), "bPA") == "a3"
    assert where(act(position("bPA@a3 bRP@a3 bFH@a3 yGB@h4"), "move bPA b3-c3-c4"), "bPA") == "c4"
    assert "move bPA a3" in moves(position("bPA@c4 bRP@c4 bFH@c4 yGB@h4"), "bPA")
    assert_refused(position("bGB@c4 bRP@c4 yGB@h4"), "move bGB c3-b3-a3", "PD-TERR-ROCKFALL-05")


def test_PD_ROPE_01_PD_CHAR_ILLUS_05_DT_243_the_illusionist_crosses_a_crevasse_onto_his_own_illusion_and_goes_on():
    """DT-243: to the Illusionist his own illusions are empty squares he crosses and may not stop on (PD-CHAR-ILLUS-05),
    no obstacle square; with a Rope he crosses the crevasse b3 onto his own illusion on a3, pit or rubble, and goes
    on to a4, both ways, as any Rope-carrier may land beyond a crevasse on a square he crosses without stopping (a
    friend's). He may not end on it (PD-CHAR-ILLUS-05); another's illusion pit beyond the crevasse is an obstacle
    square (PD-ROPE-03), another's rubble a block (PD-CHAR-ILLUS-04)."""
    for kind in ("pit", "rubble"):
        marks = f"- ; marks illusion:B:{kind}=a3"
        there = act(pd_position("bIL@c3 bRP@c3 yGB@h4", ports=marks), "move bIL b3-a3-a4")
        assert where(there, "bIL") == "a4", kind
        back = act(pd_position("bIL@a4 bRP@a4 yGB@h4", ports=marks), "move bIL a3-b3-c3")
        assert where(back, "bIL") == "c3", kind
        assert_refused(pd_position("bIL@c3 bRP@c3 yGB@h4", ports=marks), "move bIL b3-a3", "PD-CHAR-ILLUS-05")
    assert_refused(pd_position("bGB@c3 bRP@c3 yGB@h4", ports="- ; marks illusion:Y:pit=a3"), "move bGB b3-a3-a4",
                   "PD-ROPE-03")
    assert_refused(pd_position("bGB@c3 bRP@c3 yGB@h4", ports="- ; marks illusion:Y:rubble=a3"), "move bGB b3-a3-a4",
                   "PD-CHAR-ILLUS-04")


def test_PD_TERR_CREVASSE_03_RUL_091_a_jump_card_crosses_one_crevasse_square():
    state = pd_position("bWA@a3 yGB@h4")
    jumps = legal_set(state, verb="jump")
    assert "jump bWA b3 c3" in jumps
    after, events = apply_texts(state, "jump bWA b3 c3")
    assert where(after, "bWA") == "c3" and after.players["B"].jumps == state.players["B"].jumps - 1 and after.ap == 4


def test_PD_TERR_CREVASSE_05_a_crevasse_does_not_block_line_of_sight():
    """The Wizard's fireball from a3 eastward passes the crevasse b3 and eliminates the Goblin on c3."""
    state = pd_position("bWZ@a3 bFW@a3 yGB@c3 yTR@h4")
    after, events = apply_texts(state, "fireball bWZ e")
    assert where(after, "yGB") == "eliminated"


# --- 3D obstacles ---------------------------------------------------------------------------------------------------
def test_PD_GLOS_03_a_3d_obstacle_blocks_moves_and_sight_flyers_cross_it_no_jump():
    """The obstacle d3: the Warrior on c3 cannot enter it (PD-GLOS-03) nor jump it (RUL-074: not a jumpable square,
    BG-JUMP-03); the Wizard on c3 crosses it to e3 (2 steps) but may not stop on it; a fireball from c3 eastward stops
    at it and spares the Goblin on e3."""
    state = pd_position("bWA@c3 yGB@e3 yTR@h4")
    assert_refused(state, "move bWA d3", "PD-GLOS-03")
    assert_refused(state, "move bWA d3-d4-e4", "PD-GLOS-03")
    assert not any(jump.split()[2] == "d3" for jump in legal_set(state, verb="jump"))
    assert_refused(state, "jump bWA d3 e3", "BG-JUMP-03")
    flyer = pd_position("bWZ@c3 bFW@c3 yGB@e2 yTR@h4")
    assert "move bWZ e3" in moves(flyer, "bWZ") and "move bWZ d3" not in moves(flyer, "bWZ")
    assert_refused(flyer, "move bWZ d3", "PD-GLOS-03")
    shot = pd_position("bWZ@c3 bFW@c3 yGB@e3 yTR@h4")
    after, events = apply_texts(shot, "fireball bWZ e")
    assert where(after, "yGB") == "e3"
    assert next(event_view(e, None) for e in events if e.kind == "fireball")["victims"] == []


# --- Rockfall ---------------------------------------------------------------------------------------------------
def test_PD_TERR_ROCKFALL_01_entering_it_without_a_shield_kills_and_ends_the_move():
    """The Warrior on a18 steps onto b18: eliminated at once, Yellow scores 1 VP; c18 (2 steps through b18) is
    not reachable that way, and the other ways are 4 steps, beyond his 3. Found by an audit: the refusal cited
    BG-MOVE-01 ("not within 3 connected steps", false: c18 is 2 away) or BG-MOVE-05 (no reason); it names the
    Rockfall (PD-TERR-ROCKFALL-01), with a Rope too (PD-TERR-ROCKFALL-05: a Rope does not cross it)."""
    state = pd_position("bWA@a18 yGB@h4")
    legal = moves(state, "bWA")
    assert "move bWA b18" in legal and "move bWA c18" not in legal
    ends = "bWA carries no shield: the move ends on the Rockfall b18"
    assert assert_refused(state, "move bWA b18-c18", "PD-TERR-ROCKFALL-01").message == ends
    assert assert_refused(state, "move bWA c18", "PD-TERR-ROCKFALL-01").message == ends
    assert assert_refused(pd_position("bGB@a18 yGB@h4"), "move bGB b18-c18", "PD-TERR-ROCKFALL-01").message == \
        "bGB carries no shield: the move ends on the Rockfall b18"
    assert assert_refused(pd_position("bGB@a18 bRP@a18 yGB@h4"), "move bGB b18-c18", "PD-TERR-ROCKFALL-05").message \
        == "a Rope does not cross the Rockfall b18: without a shield, bGB's move ends there"
    assert_refused(state, "move bWA e18", "BG-MOVE-01")  # 4 steps whichever way: beyond his 3, Rockfall or not
    after, events = apply_texts(state, "move bWA b18")
    assert where(after, "bWA") == "eliminated" and after.vp("Y") == 1
    assert [event_view(e, None)["cause"] for e in events if e.kind == "eliminated"] == ["rockfall"]


def test_PD_TERR_ROCKFALL_01_its_refusals_are_the_terrain_modules_move_stop():
    """The shared move code words a move cut short by Rockfall through the rule modules' `move_stop` hook
    (rulebook.RuleModule), which only the Paladins & Dragons terrain module fills: the rule sets with it ask it, the
    base set and Prison ask nothing. The hook itself: an unshielded walker who has entered b18 goes no further
    (PD-TERR-ROCKFALL-01), with a Rope too (-05); a shield in hand, or one picked up, lets him go on."""
    from dungeon_twister.engine.boardgame import moves as shared
    from dungeon_twister.engine.boardgame.board import board_of
    from dungeon_twister.engine.boardgame.movement import walker_for
    from dungeon_twister.engine.paladins import terrain

    assert shared.MOVE_STOPS["base"] == shared.MOVE_STOPS["prison"] == ()
    assert shared.MOVE_STOPS["paladins"] == shared.MOVE_STOPS["prison_paladins"] == (terrain.rockfall_stop,)

    def stop(tokens, square, take=None):
        state = pd_position(tokens)
        walker = walker_for(state, board_of(state), state.tokens["bGB"])
        problem = terrain.rockfall_stop(walker, (ord(square[0]) - 97, int(square[1:]) - 1), take)
        return problem and (problem.rule, problem.values["square"])

    assert stop("bGB@a18 yGB@h4", "b18") == ("PD-TERR-ROCKFALL-01", "b18")
    assert stop("bGB@a18 bRP@a18 yGB@h4", "b18") == ("PD-TERR-ROCKFALL-05", "b18")
    assert stop("bGB@a18 yGB@h4", "a19") is None, "no Rockfall there"
    assert stop("bGB@a18 bFH@a18 yGB@h4", "b18") is None, "his Fire Shield protects him"
    assert stop("bGB@a18 bFH@c20 yGB@h4", "b18", take="bFH") is None, "the shield he picks up on the way"


def test_PD_TERR_ROCKFALL_02_03_a_shield_protects_while_passing_ending_there_kills_anyway():
    """PD-TERR-ROCKFALL-02, PD-TERR-ROCKFALL-03: With the Fire Shield (a shield, PD-OBJ-FIRESHIELD-02) the Warrior passes b18 to c18 and lives; ending on b18
    he dies all the same (RUL-090) and the shield stays on b18."""
    state = pd_position("bWA@a18 bFH@a18 yGB@h4")
    assert "move bWA c18" in moves(state, "bWA")
    passed = act(state, "move bWA b18-c18")
    assert where(passed, "bWA") == "c18" and where(passed, "bFH") == "c18"
    died = act(state, "move bWA b18")
    assert where(died, "bWA") == "eliminated" and where(died, "bFH") == "b18" and died.vp("Y") == 1


def test_PD_TERR_ROCKFALL_04_06_flyers_and_a_shield_lying_there_pass_freely():
    """The Wizard flies over b18 to c18; a shield lying on b18 lets the Goblin pass it too (PD-TERR-ROCKFALL-06)."""
    flyer = pd_position("bWZ@a18 yGB@h4")
    assert where(act(flyer, "move bWZ b18-c18"), "bWZ") == "c18"
    state = pd_position("bGB@a18 bFH@b18 yGB@h4")
    assert "move bGB c18" in moves(state, "bGB")
    assert where(act(state, "move bGB b18-c18"), "bGB") == "c18"
    assert where(act(pd_position("bGB@a18 yGB@h4"), "move bGB b18"), "bGB") == "eliminated"


def test_PD_TERR_ROCKFALL_05_a_jump_crosses_it_without_triggering_it():
    state = pd_position("bWA@a18 yGB@h4")
    assert where(act(state, "jump bWA b18 c18"), "bWA") == "c18"


def test_PD_TERR_ROCKFALL_08_RUL_090_no_wounded_character_is_dropped_on_it():
    """The Goblin carrying the wounded Troll may not leave him on b18, where he would be buried (refused citing
    PD-TERR-ROCKFALL-08)."""
    state = pd_position("bGB@a18 bTR@a18! bFH@a17 yGB@h4")
    assert not any("bTR@b18" in m for m in moves(state, "bGB"))
    assert_refused(state, "move bGB b18-b19-c19 bTR@b18", "PD-TERR-ROCKFALL-08")


# --- fog ---------------------------------------------------------------------------------------------------------
def test_PD_TERR_FOG_01_02_no_line_of_sight_enters_fog_nobody_in_it_is_targeted():
    """From b20 southward the Wizard's line passes b19 and stops before the fog on b17: the Goblin standing in fog
    on b17 is not hit; the Troll beyond the fog on b15 neither."""
    state = pd_position("bWZ@b20 bFW@b20 yGB@b17 yTR@b15 yWA@h4")
    after, events = apply_texts(state, "fireball bWZ s")
    assert where(after, "yGB") == "b17" and where(after, "yTR") == "b15"
    assert next(event_view(e, None) for e in events if e.kind == "fireball")["victims"] == []


def test_PD_TERR_FOG_02_edge_a_viewer_in_fog_sees_out_but_not_into_the_next_fog_square():
    """The Wizard in the fog on b17: northward he sees out (b18, b19...) and burns the Goblin on b19; southward the
    next square b16 is fog, so his line stops at once."""
    from dungeon_twister.engine.boardgame.board import board_of

    state = pd_position("bWZ@b17 bFW@b17 yGB@b19 yTR@b15 yWA@h4")
    board = board_of(state)
    assert list(board.sight_line((1, 16), "s")) == []
    assert list(board.sight_line((1, 16), "n"))[:2] == [(1, 17), (1, 18)]
    assert where(act(state, "fireball bWZ n"), "yGB") == "eliminated"


def test_PD_TERR_FOG_03_fog_is_walked_through_and_melee_works_there():
    state = pd_position("bWA@a17 yGB@b17 yTR@h4")
    assert "attack bWA yGB" in legal_set(state, verb="attack")
    walker = pd_position("bWA@a17 yTR@h4")
    assert "move bWA c16" in moves(walker, "bWA")


# --- the Fountain of Youth ------------------------------------------------------------------------------------------
def test_PD_TERR_FOUNTAIN_02_04_a_wounded_neighbour_drinks_for_1_ap_and_may_act_at_once():
    """PD-TERR-FOUNTAIN-02, PD-TERR-FOUNTAIN-04: The wounded Goblin on d4 (beside the fountain on d5) drinks: healed for 1 AP of Blue's, and he may move the
    same turn (unlike a Cleric's healing)."""
    state = pd_position("bGB@d4! yGB@h4")
    assert legal_set(state, verb="fountain") == {"fountain bGB"}
    after, events = apply_texts(state, "fountain bGB")
    assert where(after, "bGB") == "d4" and after.ap == 4
    assert [e.kind for e in events] == ["fountain"]
    assert moves(after, "bGB")


def test_PD_TERR_FOUNTAIN_02_BG_GOLD_01_no_drink_while_a_combat_is_pending():
    """Found by an audit: with a combat declared and its cards not yet laid, drinking was refused as "you can drink
    only during your turn" (BG-TURN-01), though it is Blue's turn: the combat must end first (BG-GOLD-01), as for
    every other action, whichever seat asks. Out of his turn, BG-TURN-01 stays."""
    state = pd_position("bGB@d4! bWA@h10 yGB@h11 yTR@a1")
    fighting = act(state, "attack bWA yGB")
    assert fighting.phase == "combat"
    for seat in ("B", "Y"):
        assert assert_refused(fighting, "fountain bGB", "BG-GOLD-01", seat=seat).message == \
            "a combat is waiting for combat cards"
    assert_refused(state, "fountain bGB", "BG-TURN-01", seat="Y")


def test_PD_TERR_FOUNTAIN_01_the_fountain_is_a_3d_obstacle():
    state = pd_position("bWA@d4 yGB@h4")
    assert_refused(state, "move bWA d5", "PD-GLOS-03")


def test_PD_TERR_FOUNTAIN_03_RUL_087_not_under_a_figure_not_away_from_it_not_unwounded():
    carried = pd_position("bGB@d4! bWA@d4 yGB@h4")
    assert "fountain bGB" not in legal_set(carried)
    assert_refused(carried, "fountain bGB", "PD-TERR-FOUNTAIN-03")
    assert_refused(pd_position("bGB@c3! yGB@h4"), "fountain bGB", "PD-TERR-FOUNTAIN-02")
    assert_refused(pd_position("bGB@d4 yGB@h4"), "fountain bGB", "PD-TERR-FOUNTAIN-02")
    assert_refused(pd_position("bGB@d4! yGB@h4", ap=0), "fountain bGB", "BG-TURN-03")


def test_PD_TERR_FOUNTAIN_02_BG_END_04_DT_256_a_wounded_character_by_a_fountain_keeps_the_game_going():
    """BG-END-04, PD-TERR-FOUNTAIN-02..04, DT-256: the game ended as one nobody can score in as soon as no figure was
    left, though a wounded character beside a Fountain of Youth may still drink, stand up and act that very turn (the
    base set's rule knew only the Troll's regeneration). Blue's last figure, the Warrior, exits (Blue 2 VP with the
    eliminated Cleric); the wounded blue Goblin on d4 lies beside the fountain on d5: the game goes on, he drinks for 1
    of Blue's 3 AP left and walks; the yellow Goblin on i4 beside the fountain on i5 keeps it going for Yellow too.
    Edge: a wounded character diagonal to the fountain (c4) cannot drink, so the game ends there, Blue winning 2-0."""
    drinker = act(pd_position("bWA@c20 bGB@d4! yGB@j15! yCL>eliminated", ap=4), "move bWA c21")
    assert drinker.outcome is None and drinker.ap == 3 and legal_set(drinker, verb="fountain") == {"fountain bGB"}
    healed = act(drinker, "fountain bGB")
    assert where(healed, "bGB") == "d4" and healed.ap == 2 and moves(healed, "bGB")
    yellow = act(pd_position("bWA@c20 bGB@j15! yGB@i4! yCL>eliminated", ap=4), "move bWA c21", "end")
    assert yellow.outcome is None and yellow.active == "Y"
    diagonal = act(pd_position("bWA@c20 bGB@c4! yGB@j15! yCL>eliminated", ap=4), "move bWA c21")
    assert diagonal.outcome is not None and diagonal.outcome.winner == "B"
    assert dict(diagonal.outcome.vp) == {"B": 2, "Y": 0} and diagonal.outcome.reason == "nobody can score any more"


# --- the Pentacle -------------------------------------------------------------------------------------------------
def test_PD_TERR_PENTACLE_02_03_one_vp_to_the_only_colour_on_it_while_it_lasts():
    """PD-TERR-PENTACLE-02, PD-TERR-PENTACLE-03: Blue's Warrior alone on d19: Blue holds 1 VP; a yellow wounded character on e18 as well: nobody does; a blue
    wounded character alone: nobody (one must be unwounded). RUL-088: one VP per Pentacle room (i18-j19 is another)."""
    assert pd_position("bWA@d19 yGB@h4").vp("B") == 1
    assert pd_position("bWA@d19 yGB@h4").vp("Y") == 0
    assert pd_position("bWA@d19 yTR@e18! yGB@h4").vp("B") == 0
    assert pd_position("bTR@d19! yGB@h4").vp("B") == 0
    assert pd_position("bWA@d19 bGB@i18 yGB@h4").vp("B") == 2
    left = act(pd_position("bWA@d19 yGB@h4"), "move bWA a19")
    assert left.vp("B") == 0


def test_PD_TERR_PENTACLE_03_RUL_088_the_pentacle_vp_counts_toward_the_target_at_the_end_of_the_turn():
    """RUL-088: the Pentacle's VP counts toward the victory target and the normal end timing applies (BG-END: the
    turn is finished, then the game ends). Blue has 4 VP; his Warrior steps onto the Pentacle: 5, the game goes on
    until he ends his turn, then Blue wins 5-0. Edge: the VP may come from the other side's action: Yellow, 4 VP,
    shares the Pentacle with Blue's Warrior, who walks off; Blue ends his turn and Yellow wins with the VP Blue's move
    gave him. (No test looked at the Pentacle in the end-of-game count; review pd27.)"""
    dead = "yTR>eliminated yMK>eliminated yWZ>eliminated yCL>eliminated"
    state = pd_position(f"bWA@c19 yGB@h4 {dead}", ap=2)
    on = act(state, "move bWA d19")
    assert (on.vp("B"), on.phase, on.outcome) == (5, "main", None)
    over, events = apply_texts(on, "end")
    assert over.phase == "over" and over.outcome.winner == "B" and dict(over.outcome.vp) == {"B": 5, "Y": 0}
    assert [e.kind for e in events][-1] == "game_over"
    shared = pd_position("bWA@d19 yTR@e18 yGB@h4 bTR>eliminated bMK>eliminated bWZ>eliminated bCL>eliminated", ap=2)
    assert shared.vp("Y") == 4
    left = act(shared, "move bWA a19")
    assert left.vp("Y") == 5 and left.outcome is None
    over = act(left, "end")
    assert over.outcome.winner == "Y" and dict(over.outcome.vp) == {"B": 0, "Y": 5}


def test_PD_TERR_PENTACLE_03_the_action_that_changes_who_holds_it_says_so():
    """PD-TERR-PENTACLE-03: the Pentacle's VP is a state, re-evaluated after every action. A play-test saw Yellow's
    VP go from 0 to 1 as his Elf stepped on it, and the log said only the move. The action that changes a side's
    Pentacle VP has an event `pentacle` {seat, vp: its Pentacle VP now, change}; an action that changes nothing of
    it has none."""
    from dungeon_twister.engine import apply, parse_action

    def pentacle_events(state, text):
        return [dict(e.data) for e in apply(state, parse_action(text, "B"))[1] if e.kind == "pentacle"]

    assert pentacle_events(pd_position("bWA@c19 yGB@h4"), "move bWA d19") == [{"seat": "B", "vp": 1, "change": 1}]
    assert pentacle_events(pd_position("bWA@d19 yGB@h4"), "move bWA a19") == [{"seat": "B", "vp": 0, "change": -1}]
    assert pentacle_events(pd_position("bWA@d19 yGB@h4"), "move bWA e18") == [], "still on it: nothing changes"
    # Blue steps onto a Pentacle a Yellow character holds: Yellow loses his VP, nobody gets one (RUL-088)
    assert pentacle_events(pd_position("bWA@c19 yTR@e18 yGB@h4"), "move bWA d19") == [
        {"seat": "Y", "vp": 0, "change": -1}]
    assert pentacle_events(pd_position("bWA@c4 yGB@h4"), "move bWA c5") == [], "no Pentacle in play: no event"


def test_PD_TERR_PENTACLE_02_the_bonus_is_counted_in_the_rule_sets_with_the_terrain_module_only():
    """PD-TERR-PENTACLE-02 is a rule of the Paladins & Dragons terrain module (its `vp_bonus`): the rule sets that
    include the module count it (Paladins & Dragons alone, with the base set, with Prison), the base set's and
    Prison's games never run it (a set's rule does not reach the others: docs/architecture.md)."""
    from dungeon_twister.engine.boardgame import rulebook, state
    from dungeon_twister.engine.paladins import terrain

    assert state.VP_BONUSES["base"] == () and state.VP_BONUSES["prison"] == ()
    for rules in ("paladins", "prison_paladins"):
        assert terrain.MODULE in rulebook.modules(rules)
        assert state.VP_BONUSES[rules] == (terrain.pentacle_bonus,)


# --- more terrain edges ---------------------------------------------------------------------------------------------
def test_PD_TERR_CREVASSE_02_the_thief_neither_crosses_nor_stops_on_a_crevasse():
    """The Thief (acrobatics: she stands on pits, BG-CHAR-THIEF) is no help over a crevasse."""
    state = pd_position("bTH@a3 yGB@h4")
    assert_refused(state, "move bTH b3", "PD-TERR-CREVASSE-01")
    assert_refused(state, "move bTH b3-c3", "PD-TERR-CREVASSE-01")


def test_PD_ROPE_02_the_crossing_may_be_l_shaped():
    """With the Rope, from b4 over the crevasse b3 to a3 (both valid squares beside the crevasse, at a right angle)."""
    state = pd_position("bGB@b4 bRP@b4 yGB@h4")
    assert where(act(state, "move bGB b3-a3"), "bGB") == "a3"


def test_PD_TERR_ROCKFALL_07_objects_on_it_trigger_nothing_a_shield_swap_takes_one_a_flyer_takes_one_passing():
    """The Treasure lies on b18. The Goblin with the Fire Shield enters, leaves the shield there and goes on with the
    Treasure (the shield left there keeps him safe, PD-TERR-ROCKFALL-06); the Wizard picks it up flying over; a
    jump over b18 takes nothing (a jump is no move over the square)."""
    state = pd_position("bGB@a18 bFH@a18 bTS@b18 yGB@h4")
    swapped = act(state, "move bGB b18-c18 +bTS bFH@b18")
    assert where(swapped, "bGB") == where(swapped, "bTS") == "c18" and where(swapped, "bFH") == "b18"
    flown = act(pd_position("bWZ@a18 bTS@b18 yGB@h4"), "move bWZ b18-c18 +bTS")
    assert where(flown, "bTS") == "c18"
    jumped = act(pd_position("bWA@a18 bTS@b18 yGB@h4"), "jump bWA b18 c18")
    assert where(jumped, "bTS") == "b18" and where(jumped, "bWA") == "c18"


def test_PD_TERR_FOG_04_PD_TERR_PENTACLE_01_no_revealed_token_is_placed_on_fog_or_the_pentacle():
    """Room A4 (fog b17 b16, Rockfall b18, the Pentacle d18-e19) revealed from a15: its tokens go on floor squares
    only; fog, Pentacle and Rockfall squares are refused, each citing its rule where it has one."""
    rooms = "A1=O1/0 B1=O2/0 A2=P1/0 B2=P2/0 A3=W1/0 B3=W2/0 A4=*Q1/0 B4=Q2/0"
    state = act(pd_position("bWA@a15 bSW#A4.1 yTR#A4.2 yGB@h4", rooms=rooms), "reveal bWA A4")
    places = {text.split()[2] for text in legal_set(state, verb="place")}
    assert places and not {"b16", "b17", "b18", "d18", "e18", "d19", "e19"} & places
    placer = state.to_act[0]
    token = next(text.split()[1] for text in legal_set(state, verb="place"))
    assert_refused(state, f"place {token} b17", "PD-TERR-FOG-04", seat=placer)
    assert_refused(state, f"place {token} d18", "PD-TERR-PENTACLE-01", seat=placer)
    assert_refused(state, f"place {token} b18", "BG-REVEAL-07", seat=placer)


def test_PD_TERR_BROKENWALL_01_PD_CHAR_ILLUS_07_markers_are_not_tokens():
    """Markers are not tokens: the Golem breaks a wall standing with the Sword (his square holds its two tokens, the
    marker on its edge counts for nothing), and a square bearing an illusion is not empty: no second illusion goes
    there (PD-CHAR-ILLUS-07)."""
    state = act(pd_position("bGO@b13 bSW@b13 bIL@a7 yGB@h4"), "smash bGO e", "illusion bIL pit b7")
    assert where(state, "bSW") == "b13" and len(state.marks) == 2
    assert "illusion bIL rubble b7" not in legal_set(state, verb="illusion")
    assert_refused(state, "illusion bIL rubble b7", "PD-CHAR-ILLUS-01")


def test_PD_EX_01_PD_ROPE_03_a_rope_crosses_pits_one_at_a_time_never_pit_to_pit():
    """The Pickpocket (Mv 6) with the Rope on b8: over the pit c8 to c7 or c9 is fine, and he may stop on c8 with his
    Rope (BG-PIT-01); from c8 straight onto the pit d8 is not (refused citing BG-PIT-10)."""
    state = pd_position("bPP@b8 bRP@b8 yGB@h4")
    legal = legal_set(state, verb="move", token="bPP")
    assert {"move bPP c9", "move bPP c8"} <= legal
    assert where(act(state, "move bPP c8-c9"), "bPP") == "c9"
    assert_refused(state, "move bPP c8-d8-e8", "BG-PIT-10")


def test_PD_TERR_ROCKFALL_01_DT_112_DT_269_a_position_has_no_character_on_rockfall():
    """DT-269: a character ending an action on Rockfall is eliminated once it is done (DT-112) and none is placed
    there, so a written position of a game under way with one standing or lying on b18 is refused
    (PD-TERR-ROCKFALL-01, the square named); it was read, and the Rockfall then killed it after the next action,
    whoever acted. An object lying there reads (PD-TERR-ROCKFALL-07)."""
    from dungeon_twister.engine import format_position, parse_position
    from dungeon_twister.engine.core.errors import PositionError

    text = format_position(pd_position("bWA@a18 bSW@b18 yGB@h4"))
    assert format_position(parse_position(text)) == text
    for tokens, who in (("bSW@a18 bWA@b18 yGB@h4", "bWA"), ("bSW@b18 bWA@a18 yGB@h4 yTR@b18!", "yTR"),
                        ("bSW@a18 bTR@b18! bWA@b18 yGB@h4", "bTR")):
        try:
            parse_position(text.replace("tokens bSW@b18 bWA@a18 yGB@h4", "tokens " + tokens))
        except PositionError as error:
            assert (error.rule, error.field) == ("PD-TERR-ROCKFALL-01", "square b18"), error
            assert error.message == f"{who} is on Rockfall: a character ending an action there is eliminated"
        else:
            raise AssertionError(f"accepted: {tokens}")



# --- the Wall-Walker's landing ---------------------------------------------------------------------------------------
def _walled() -> dict:
    """The synthetic P&D rooms with a wall beside each terrain square of O1/O2: on A1 a3|b3 beside the crevasse b3,
    c3|d3 beside the obstacle d3, c5|d5 beside the fountain d5, and d2|e2 between two floor squares."""
    raw = copy.deepcopy(_synthetic_paladins())
    raw["set"] = "synthetic_paladins_walled"
    for tile in ("O1", "O2"):
        raw["rooms"][tile]["internal_walls"] = ["r3c1-r3c2", "r3c3-r3c4", "r1c3-r1c4", "r4c4-r4c5"]
    return raw


catalogue.register("synthetic_paladins_walled", _walled())


def test_BG_CHAR_WALLWALKER_04_PD_TERR_CREVASSE_01_PD_GLOS_03_her_landing_is_refused_by_the_terrains_rule():
    """The Wall-Walker passes a wall for 1 AP and lands as a stop (BG-CHAR-WALLWALKER-04). What forbids her to land
    on a crevasse is the crevasse's rule (PD-TERR-CREVASSE-01: nobody stops on it); on a 3D obstacle or a fountain,
    the obstacle's (PD-GLOS-03, PD-TERR-FOUNTAIN-01); on an illusion rubble, the rubble's (PD-CHAR-ILLUS-04): the
    rules a move onto them is told. Her refusal cited her own rule, "not a valid landing square", for all of them
    (review pd32). None of those landings is offered. Edges: through the wall d2|e2 she lands on the floor square
    e2 (1 AP); a landing refused for another reason (an enemy figure on e2) still cites her landing rule."""
    walled = {"set_name": "synthetic_paladins_walled"}
    state = parse_position(position_text("bWW@a3 yGB@h4", **walled))
    assert legal_set(state, verb="wallwalk") == set()
    assert_refused(state, "wallwalk bWW b3", "PD-TERR-CREVASSE-01")
    assert_refused(state, "move bWW b3", "PD-TERR-CREVASSE-01")
    for start, landing in (("c3", "d3"), ("c5", "d5")):
        state = parse_position(position_text(f"bWW@{start} yGB@h4", **walled))
        assert legal_set(state, verb="wallwalk") == set()
        assert_refused(state, f"wallwalk bWW {landing}", "PD-GLOS-03")
    rubble = pd_position("bWW@b13 yGB@h4 yIL@h9", ports="- ; marks illusion:Y:rubble=c13")
    assert legal_set(rubble, verb="wallwalk") == set()
    assert_refused(rubble, "wallwalk bWW c13", "PD-CHAR-ILLUS-04")
    floor = parse_position(position_text("bWW@d2 yGB@h4", **walled))
    assert legal_set(floor, verb="wallwalk") == {"wallwalk bWW e2"}
    after = act(floor, "wallwalk bWW e2")
    assert where(after, "bWW") == "e2" and after.ap == floor.ap - 1
    enemy = parse_position(position_text("bWW@d2 yGB@e2 yTR@h4", **walled))
    assert_refused(enemy, "wallwalk bWW e2", "BG-CHAR-WALLWALKER-04")
