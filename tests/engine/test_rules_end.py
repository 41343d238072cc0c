"""Rule tests: victory points (BG-VP), end of the game (BG-END), the VP target option (BG-OPT-06) and what the
software shows in place of cardboard figures (BG-COMP-10, BG-OPT-01).

Synthetic rooms (builders.py); Yellow's start zone is rank 21, so a Blue figure on rank 20 exits in one step.
"""

from __future__ import annotations

from dungeon_twister.engine import Options, apply, event_view, legal_actions, new_game, parse_action, view

from .builders import act, assert_refused, position

FOUR_YELLOW_DOWN = "yWA>eliminated yTH>eliminated yCL>eliminated yMK>eliminated"
FOUR_BLUE_DOWN = "bWW>eliminated bGB>eliminated bCL>eliminated bMK>eliminated"




def vp(state):
    return state.vp("B"), state.vp("Y")


# --- §19 victory points ------------------------------------------------------------------------------

def test_BG_VP_01_eliminating_an_enemy_scores_1():
    """BG-VP-01: beating a wounded enemy character in combat eliminates it: 1 VP."""
    state = position("bWA@c3 yTR@c4!2 yGB@j15", turn=5)
    state = act(state, "attack bWA yTR", "combat +0")
    state, events = apply(state, parse_action("combat +0", "Y"))
    assert state.tokens["yTR"].where == "eliminated"
    assert vp(state) == (1, 0)
    assert [e.data["scorer"] for e in events if e.kind == "eliminated"] == ["B"]


def test_BG_VP_02_exiting_scores_1_and_the_goblin_2():
    """BG-VP-02: a figure taken out through the opponent's start zone scores 1 VP; the Goblin scores 2."""
    state = position("bWA@c20 bGB@e20 yGB@j15")
    state = act(state, "move bWA c21")
    assert state.tokens["bWA"].where == "exited" and vp(state) == (1, 0)
    state = act(state, "move bGB e21")
    assert vp(state) == (3, 0)
    yellow = act(position("yTH@d1 bGB@j15", active="Y"), "move yTH d0")
    assert vp(yellow) == (0, 1)


def test_BG_VP_03_treasure_carried_out_scores_1_more():
    """BG-VP-03 (BG-OBJ-TREASURE-01): the Treasure carried out scores 1 extra VP, whatever its colour."""
    state = position("bWA@c20 yTS@c20 bGB@e20 bTS@e20 yGB@j15")
    state = act(state, "move bWA c21")
    assert vp(state) == (2, 0)
    assert state.tokens["yTS"].where == "scored" and state.tokens["yTS"].scored_by == "B"
    state = act(state, "move bGB e21")
    assert vp(state) == (5, 0)


def test_BG_VP_04_every_elimination_scores_for_the_victims_opponent():
    """BG-VP-04 (RUL-012): whoever causes it, the opponent of the victim's owner scores; nobody scores for the
    death of his own character."""
    state = position("bWZ@c3 bFW@c3 bWA@c6 yGB@j15")
    state, events = apply(state, parse_action("fireball bWZ n", "B"))
    assert state.tokens["bWA"].where == "eliminated"
    assert vp(state) == (0, 1)
    assert [e.data["scorer"] for e in events if e.kind == "eliminated"] == ["Y"]


def test_BG_VP_05_score_is_public_and_scored_tokens_kept_by_the_scorer():
    """BG-VP-05: scored tokens (eliminated enemies, own exits, Treasure) stay with the scorer; every viewer
    sees the score."""
    state = position("bWA@c20 bTS@c20 bGB@e5 yGB@j15 yCL>eliminated bTH>eliminated")
    state = act(state, "move bWA c21")
    for viewer in ("B", "Y", None):
        v = view(state, viewer)
        assert (v["players"]["B"]["vp"], v["players"]["Y"]["vp"]) == (3, 1)
        off = {o["id"]: (o["where"], o["scored_by"]) for o in v["off_board"]}
        assert off["bWA"] == ("exited", None) and off["bTS"] == ("scored", "B")
        assert off["yCL"] == ("eliminated", None) and off["bTH"] == ("eliminated", None)


# --- §19 end of the game -----------------------------------------------------------------------------

def test_BG_END_01_default_target_is_5():
    """BG-END-01: without options, the game is played to 5 VP."""
    assert Options().target_vp == 5
    assert new_game(Options(), 1).options.target_vp == 5
    assert view(new_game(Options(), 1), None)["target_vp"] == 5


def test_BG_END_02_the_active_player_finishes_his_turn_then_more_vp_wins():
    """BG-END-02: reaching the target does not stop the turn; the active player may keep scoring; at the end of
    that turn the player with more VP wins."""
    state = position(f"bWA@c20 bGB@e20 bTH@g3 yTR@j15 {FOUR_YELLOW_DOWN}", ap=3)
    state = act(state, "move bWA c21")
    assert vp(state) == (5, 0) and state.outcome is None and state.to_act == ("B",)
    state = act(state, "move bGB e21", "move bTH g4")
    assert state.outcome is None
    state, events = apply(state, parse_action("end", "B"))
    assert state.outcome.winner == "B" and dict(state.outcome.vp) == {"B": 7, "Y": 0}
    assert state.phase == "over" and state.to_act == ()
    assert [e.data["winner"] for e in events if e.kind == "game_over"] == ["B"]
    assert_refused(state, "card 2", "BG-END-02", seat="Y")
    assert legal_actions(state) == []


def test_BG_END_02_the_opponent_can_reach_the_target_in_the_active_players_turn():
    """BG-END-02: when the non-active player reaches the target, the active player still finishes his turn and
    the higher score wins."""
    state = position(f"bWZ@c3 bFW@c3 bWA@c6 bTH@h3 yTR@j15 {FOUR_BLUE_DOWN}")
    state = act(state, "fireball bWZ n")
    assert vp(state) == (0, 5) and state.outcome is None
    state = act(state, "move bTH h4", "end")
    assert state.outcome.winner == "Y"


def test_BG_END_03_equal_vp_at_the_end_of_that_turn_is_a_draw():
    """BG-END-03 (RUL-013): if both players have the same VP when the turn ends, the game is a draw."""
    tie = position("bWZ@c3 bFW@c3 bMK@c6 bTH@c20 yTR@j15 yWA>eliminated yTH>eliminated yCL>eliminated "
                   "yMK>eliminated bWW>eliminated bCL>eliminated bWA>eliminated bGB>eliminated")
    assert vp(tie) == (4, 4)
    tie = act(tie, "fireball bWZ n", "move bTH c21")
    assert vp(tie) == (5, 5) and tie.outcome is None
    tie = act(tie, "end")
    assert tie.outcome.winner is None and dict(tie.outcome.vp) == {"B": 5, "Y": 5}


def test_BG_END_04_the_game_ends_at_once_when_nobody_can_score():
    """BG-END-04 (RUL-013): when no character of either colour can ever act again, the game ends at once,
    decided by VP; a wounded Troll that may still regenerate keeps it going."""
    state = position("bWA@c20 yGB@j15! yCL>eliminated", ap=4)
    state = act(state, "move bWA c21")
    assert state.outcome is not None and state.outcome.winner == "B"
    assert dict(state.outcome.vp) == {"B": 2, "Y": 0} and state.phase == "over"
    alive = act(position("bWA@c20 yTR@j15! yCL>eliminated", ap=4), "move bWA c21")
    assert alive.outcome is None
    draw = act(position("bWA@c20 yGB@j15! bCL>eliminated", ap=4), "move bWA c21")
    assert draw.outcome.winner is None


def test_BG_OPT_06_a_higher_target_moves_the_end():
    """BG-OPT-06: with a target of 6, reaching 5 VP does not end the game; reaching 6 does."""
    state = position(f"bWA@c20 bGB@e20 yTR@j15 {FOUR_YELLOW_DOWN}", options="vp=6")
    five = act(state, "move bWA c21", "end")
    assert vp(five) == (5, 0) and five.outcome is None and five.active == "Y"
    six = act(state, "move bGB e21", "end")
    assert six.outcome.winner == "B"


# --- §1 / §20 cardboard figures ----------------------------------------------------------------------

def test_BG_COMP_10_BG_OPT_01_figures_are_cosmetic_identity_and_wound_are_shown():
    """BG-COMP-10, BG-OPT-01: figures replace tokens cosmetically; the software shows every revealed
    character's identity and whether it is wounded (face-down token) to every viewer, and nothing else changes."""
    state = position("bWA@c3 bTR@c5!2 yGB@h9! yCL@h3", turn=5)  # h9: h8 is a pit (BG-PIT-08)
    for viewer in ("B", "Y", None):
        shown = {t["id"]: (t["code"], t["wounded"]) for t in view(state, viewer)["tokens"]}
        assert shown == {"bWA": ("WA", False), "bTR": ("TR", True), "yGB": ("GB", True), "yCL": ("CL", False)}
    wounded_turn = act(position("bWA@c3 yCL@c4", turn=5), "attack bWA yCL", "combat +6")
    wounded_turn, events = apply(wounded_turn, parse_action("combat +0", "Y"))
    assert [t["wounded"] for t in view(wounded_turn, "Y")["tokens"] if t["id"] == "yCL"] == [True]
    assert [event_view(e, "Y")["token"] for e in events if e.kind == "wounded"] == ["yCL"]
