"""Prison's board rules: arrow slits, line of sight through them, the Naga, reveal from the start zone, the
Colossus, the Assassin's lock-pick and the Key (PR-SLIT, PR-LOS, PR-CORE-02/05/06/12, PR-CHAR-NAGA,
PR-CHAR-COLOSSUS, PR-CHAR-ASSASSIN-03, PR-CHAR-CLERIC-03, PR-OBJ-KEY).

Positions use the synthetic rooms with two arrow slits in room A3: d14|e14 and d11|d12 (tests/engine/prison/
builders.py). Room A3's portcullises: c13|d13 (index 0) and c12|c13 (index 1).
"""

from __future__ import annotations

import pytest

from dungeon_twister.engine import apply, format_position

from ..builders import act, assert_refused, legal_set, where
from .builders import base_position, mixed_position, prison_position

HIDDEN_START_ROOMS = "A1=*O1/0 B1=*O2/0 A2=P1/0 B2=P2/0 A3=W1/0 B3=W2/0 A4=Q1/0 B4=Q2/0"
BOXED = "yTP@d13 yBS@d15"  # enemy figures north and south of d14: around the slit d14|e14 is a long way


# --- arrow slits: a wall for all but sight ---------------------------------------------------------------
def test_PR_SLIT_02_PR_CORE_12_no_move_across_an_arrow_slit():
    """A Mechanork (Mv 3) on d14 boxed in by enemies on d13 and d15: e14, one step across the slit, is out of
    reach; the refusal names the slit."""
    state = prison_position(f"bMK@d14 {BOXED}")
    assert "move bMK e14" not in legal_set(state, verb="move")
    assert "move bMK c14" in legal_set(state, verb="move")
    error = assert_refused(state, "move bMK e14", "PR-SLIT-02")
    assert "arrow slit" in error.message


def test_PR_CHAR_NAGA_01_the_naga_passes_arrow_slits_even_carrying():
    """The same box for the Naga: one step through the slit, carrying the Key along; 1 AP spent."""
    state = prison_position(f"bNG@d14 bKY@d14 {BOXED}")
    assert {"move bNG e14", "move bNG e13", "move bNG e14 bKY@d14"} <= legal_set(state, verb="move")
    after = act(state, "move bNG e14")
    assert (where(after, "bNG"), where(after, "bKY"), after.ap) == ("e14", "e14", 4)


def test_PR_CHAR_NAGA_01_edge_a_slit_is_no_shortcut_for_anyone_else_and_no_door_through_walls():
    """The Naga passes slits only: the wall c13|c14 still stops him (BG-MOVE-05); a route through the slit is
    refused to any other figure, the Wizard's levitation included (PR-SLIT-02)."""
    state = prison_position("bNG@c14 yTP@h4")
    assert_refused(state, "move bNG c13-c12", "BG-MOVE-05")
    assert where(act(prison_position("bNG@e15 yTP@h4"), "move bNG e14-d14-d13"), "bNG") == "d13"
    assert_refused(prison_position("bWZ@e15 yTP@h4"), "move bWZ e14-d14-d13", "PR-SLIT-02")


def test_PR_SLIT_05_a_wall_walker_passes_an_arrow_slit_as_a_wall():
    """In a game mixing the base set in, the Wall-Walker's wall-walk (BG-CHAR-WALLWALKER-01) goes through the slit
    d14|e14 as through a wall; a plain move of hers does not (PR-SLIT-02)."""
    state = mixed_position(f"bWW@d14 {BOXED}")
    assert "wallwalk bWW e14" in legal_set(state, verb="wallwalk")
    assert where(act(state, "wallwalk bWW e14"), "bWW") == "e14"
    assert "move bWW e14" not in legal_set(state, verb="move")


def test_PR_SLIT_02_no_melee_across_a_slit():
    state = prison_position("bMK@d14 yNG@e14")
    assert "attack bMK yNG" not in legal_set(state)
    assert_refused(state, "attack bMK yNG", "PR-SLIT-02")
    assert "attack bMK yNG" in legal_set(prison_position("bMK@d14 yNG@d13"))  # no slit: adjacent, attackable


def test_PR_CHAR_CLERIC_03_no_healing_through_a_slit():
    state = prison_position("bCL@d14 bMK@e14! yNG@h4")
    assert "heal bCL bMK" not in legal_set(state)
    assert_refused(state, "heal bCL bMK", "PR-CHAR-CLERIC-03")
    healed = act(prison_position("bCL@d14 bMK@d13! yNG@h4"), "heal bCL bMK")
    assert where(healed, "bMK") == "d13"  # beside him without a slit: healed (PR-CHAR-CLERIC-01)


# --- line of sight through a slit ---------------------------------------------------------------------------
def test_PR_SLIT_03_PR_LOS_04_sight_through_a_slit_only_beside_it_and_one_way():
    """A Banshee on d14 (beside the slit d14|e14) sees east through it to the Naga on g14; the Naga, three squares
    beyond the slit, does not see back through it (one-way sight): she is not among his Banshee's targets."""
    state = prison_position("bBS@d14 yNG@g14 yMK@h4")
    assert "push bBS yNG" in legal_set(state)
    yellow = prison_position("bBS@d14 yBS@g14", active="Y")
    assert "push yBS bBS" not in legal_set(yellow)
    assert_refused(yellow, "push yBS bBS", "PR-CHAR-BANSHEE-01")


def test_PR_LOS_02_PR_LOS_03_sight_stops_at_persons_and_walls_and_passes_over_pits_and_objects():
    """From a13 (room A3) east: b13, then the wall b13|c13 stops the line. From c9 north: the pits c8? no: the
    pits of room A2 are c8 and d8 (r3c3, r3c4); from c6 north the line passes the pit c8 and an object on c7
    and meets the Naga on c10; a wounded character on c9 would stop it there (PR-LOS-02)."""
    state = prison_position("bBS@c6 bKY@c7 yNG@c10 yMK@h4")
    assert legal_set(state, verb="push") == {"push bBS yNG"}
    blocked = prison_position("bBS@c6 yTP@c9! yNG@c10 yMK@h4")
    assert legal_set(blocked, verb="push") == {"push bBS yTP"}  # the wounded one is the first person on the line
    assert_refused(blocked, "push bBS yNG", "PR-CHAR-BANSHEE-01")
    walled = prison_position("bBS@a13 yNG@c13 yMK@h4")
    assert legal_set(walled, verb="push") == set()
    assert_refused(walled, "push bBS yNG", "PR-CHAR-BANSHEE-01")


# --- reveal ---------------------------------------------------------------------------------------------------
def test_PR_CORE_05_from_the_start_zone_only_the_room_in_front():
    """On c0 (in front of A1) a Prison figure reveals A1 only; in the base set both start rooms (BG-REVEAL-03)."""
    prison = prison_position("bMK@c0 yNG@h20", rooms=HIDDEN_START_ROOMS)
    assert legal_set(prison, verb="reveal") == {"reveal bMK A1"}
    assert_refused(prison, "reveal bMK B1", "PR-CORE-05")
    base = base_position("bMK@c0 yGB@h20", rooms=HIDDEN_START_ROOMS)
    assert legal_set(base, verb="reveal") == {"reveal bMK A1", "reveal bMK B1"}
    assert legal_set(prison_position("bMK@h0 yNG@h20", rooms=HIDDEN_START_ROOMS), verb="reveal") == {"reveal bMK B1"}


def test_PR_CORE_06_direct_access_from_inside_the_maze():
    """A figure in A2 beside the face-down room A1 reveals it across the open border (edge: not across a wall of
    the revealed room)."""
    state = prison_position("bMK@b6 yNG@h20", rooms=HIDDEN_START_ROOMS)
    assert "reveal bMK A1" in legal_set(state, verb="reveal")
    assert "reveal bMK B1" not in legal_set(state, verb="reveal")
    assert_refused(state, "reveal bMK B1", "BG-REVEAL-02")


# --- the Colossus ---------------------------------------------------------------------------------------------
def test_PR_CHAR_COLOSSUS_01_bend_bars_destroys_an_open_or_a_closed_portcullis_for_1_ap():
    closed = prison_position("bCO@c12 yMK@h4")
    opened = prison_position("bCO@c12 yMK@h4", ports="W1=co")
    for state in (closed, opened):
        assert "break bCO n" in legal_set(state)
        after = act(state, "break bCO n")
        assert " ports W1=cb " in format_position(after) and after.ap == 4
    # the base set's Warrior breaks only a closed one (BG-CHAR-WARRIOR-01)
    assert "break bWA n" not in legal_set(base_position("bWA@c12 yGB@h4", ports="W1=co"))


def test_PR_CHAR_COLOSSUS_02_a_destroyed_portcullis_is_never_closed_again_and_lets_everyone_through():
    state = prison_position("bMK@c12 bKY@c12 yNG@h4", ports="W1=cb")
    assert not {"open bMK n", "close bMK n"} & legal_set(state)
    assert_refused(state, "close bMK n", "PR-CHAR-COLOSSUS-02")
    assert_refused(state, "open bMK n", "PR-CHAR-COLOSSUS-02")
    assert "move bMK c13" in legal_set(state, verb="move")
    assert "move bMK c13" not in legal_set(prison_position("bMK@c12 yNG@h4", ports="W1=cc"), verb="move")


def test_PR_CHAR_COLOSSUS_03_BG_PIT_04_the_giants_rope_bridges_no_pit_for_his_enemies():
    """The yellow Colossus stands with his Rope on the pit c8. The blue Telepath (0) may pass between his legs, but
    a Rope held by a figure bridges the pit for that figure's side only (BG-PIT-02/04, BG-EX-06): he may not cross
    c8 to c9 (he did). A blue Mechanork with the Rope on c8 lets the blue Naga across."""
    enemy = prison_position("bTP@c7 yCO@c8 yRP@c8 yBS@h5")
    assert not any("c8" in text for text in legal_set(enemy, verb="move", token="bTP"))
    assert_refused(enemy, "move bTP c8-c9", "BG-MOVE-09")
    friend = prison_position("bNG@c7 bMK@c8 bRP@c8 yBS@h5")
    assert "move bNG c9" in legal_set(friend, verb="move", token="bNG")


def test_PR_CHAR_COLOSSUS_03_giant_small_enemies_pass_between_his_legs_but_never_stop():
    """The Colossus on d6 in the corridor c6-d6-e6 (enemies at d5 and d7 close the sides): the Banshee (printed
    combat 1) and the Telepath (0) cross his square, the Naga (2) does not; nobody stops on it."""
    corridor = "bCO@d6 bMK@d5 bAS@d7"
    for small in ("yBS", "yTP"):
        state = prison_position(f"{small}@c6 {corridor}", active="Y")
        assert f"move {small} d6" not in legal_set(state, verb="move", token=small)
        assert where(act(state, f"move {small} d6-e6"), small) == "e6"
        assert_refused(state, f"move {small} d6", "BG-MOVE-09")
    naga = prison_position(f"yNG@c6 {corridor}", active="Y")
    assert_refused(naga, "move yNG d6-e6", "BG-MOVE-09")


# --- lock-pick and Key ----------------------------------------------------------------------------------------
def test_PR_CHAR_ASSASSIN_03_lock_pick_opens_and_closes_for_1_ap():
    state = prison_position("bAS@c12 yMK@h4")
    assert {a for a in legal_set(state) if a.startswith(("open", "close", "break"))} == {"open bAS n"}
    opened = act(state, "open bAS n")
    assert " ports W1=co " in format_position(opened) and opened.ap == 4
    closed = act(opened, "close bAS n")
    assert " ports W1=cc " in format_position(closed) and closed.ap == 3
    assert_refused(prison_position("bAS@a12 yMK@h4"), "open bAS n", "PR-CHAR-ASSASSIN-03")


def test_PR_OBJ_KEY_01_02_03_the_key_opens_and_closes_any_number_of_times():
    state = prison_position("bMK@c12 bKY@c12 yNG@h4")
    state = act(state, "open bMK n", "close bMK n", "open bMK n")
    assert " ports W1=co " in format_position(state) and state.ap == 2
    assert where(state, "bKY") == "c12"  # never used up (PR-OBJ-KEY-03)
    without = prison_position("bMK@c12 yNG@h4")
    assert not {t for t in legal_set(without) if t.startswith(("open", "close"))}
    assert_refused(without, "open bMK n", "PR-OBJ-KEY-01")
    assert_refused(act(prison_position("bMK@c12 bKY@c12 yNG@h4"), "open bMK n"), "open bMK n", "PR-OBJ-KEY-01")


@pytest.mark.parametrize("seed", [1, 2])
def test_PR_SLIT_02_random_prison_games_never_step_through_a_slit_except_the_naga(seed):
    """Every move of two random Prison games (real rooms 37-40): a non-Naga route never crosses an arrow slit."""
    from dungeon_twister.engine import Options, legal_actions, new_game
    from dungeon_twister.engine.boardgame.actions import Move
    from dungeon_twister.engine.boardgame.board import board_of
    from dungeon_twister.engine.core.rng import Rng

    state, rng, crossings, checked = new_game(Options(set_name="prison"), seed), Rng(seed), 0, 0
    for _ in range(1500):
        if state.outcome is not None:
            break
        legal = legal_actions(state)
        board = board_of(state)
        for action in legal:
            if isinstance(action, Move) and action.route:
                path = (state.tokens[action.token].square, *action.route)
                slits = sum(board.is_slit(a, b) for a, b in zip(path, path[1:]))
                if state.tokens[action.token].code != "NG":
                    assert slits == 0, action
                crossings += slits
                checked += 1
        state, _ = apply(state, rng.choice(legal))
    assert checked > 1000
