"""Rule tests: turn sequence and action cards (BG-TURN, BG-ACT, BG-EX-01), action points (BG-AP), golden rules
(BG-GOLD), and the timer fallbacks of turns and combats (BG-OPT-02, 04, 05).

Positions use the synthetic rooms of builders.py (A1=O1 .. B4=Q2, all revealed; pits c8, d8 in A2).
"""

from __future__ import annotations

import pytest

from dungeon_twister.engine import (CombatCard, EndTurn, NotationError, PlayCard, apply,
                                    event_view, format_action, format_position, legal_actions, parse_action,
                                    timeout_action, view)
from dungeon_twister.engine.boardgame.actions import Move

from .builders import act, assert_refused, position

FIRST_TURN = dict(turn=1, phase="card", ap=0, high=1, four=0)




def cards(state, seat=None):
    return [a.value for a in legal_actions(state, seat) if isinstance(a, PlayCard)]


# --- §6 turn sequence -----------------------------------------------------------------------------

def test_BG_TURN_01_three_phases_in_order():
    """BG-TURN-01: play a card, then spend AP, then (hand empty) take the cards back; nothing out of order."""
    state = position("bWA@c3 yWA@h18", phase="card", ap=0)
    assert_refused(state, "move bWA c4", "BG-TURN-01")
    assert_refused(state, "end", "BG-TURN-01")
    state = act(state, "card 3")
    assert state.phase == "main" and state.ap == 3
    assert assert_refused(state, "card 4", "BG-TURN-02").message == \
        "you play an action card only at the start of your turn"
    state = act(state, "move bWA c4", "end")
    assert (state.phase, state.active, state.ap) == ("card", "Y", 0)
    # Blue acting in Yellow's turn (his combat card) is told it is not his turn, not "only at the start of your
    # turn", which read as if it were (play-test pl31 F4)
    fight = act(position("bWA@c4 yTR@c5", active="Y"), "attack yTR bWA")
    assert "B" in fight.to_act and fight.active == "Y"
    assert assert_refused(fight, "card 5", "BG-TURN-02", seat="B").message == \
        "it is not your turn: you play an action card at the start of your own"


def test_BG_TURN_02_playing_a_card_is_mandatory_and_comes_from_the_hand():
    """BG-TURN-02: phase 1 offers only action cards of the hand; the top played card is public."""
    state = position("bWA@c3 yWA@h18", phase="card", ap=0, cards="B:35/24/012233456/3 Y:2345/-/012233456/3")
    assert {type(a) for a in legal_actions(state)} == {PlayCard}
    assert cards(state) == [3, 5]
    assert_refused(state, "card 2", "BG-TURN-02")
    assert_refused(state, "card 4", "BG-TURN-02")
    assert view(state, "Y")["players"]["B"]["played_top"] == 4
    state = act(state, "card 5")
    assert state.players["B"].played == (2, 4, 5)
    assert view(state, "Y")["players"]["B"]["played_top"] == 5


def test_BG_TURN_03_spend_up_to_the_card_value_on_any_characters():
    """BG-TURN-03: the AP of the card are split among any characters in any order; never more than the card."""
    state = position("bWA@c3 bTH@h3 yWA@h18", ap=2)
    state = act(state, "move bTH h4", "move bWA c4")
    assert state.ap == 0 and state.acted == {"bTH", "bWA"}
    assert_refused(state, "move bWA c5", "BG-TURN-03")
    assert legal_actions(state) == [EndTurn("B")]
    # ...and he never has to spend them all
    state = act(position("bWA@c3 yWA@h18", ap=5), "end")
    assert state.active == "Y"


def test_BG_TURN_04_unspent_ap_are_lost():
    """BG-TURN-04: AP left at the end of a turn are not saved for later turns."""
    state = position("bWA@c3 yWA@h18", ap=4)
    state = act(state, "end")
    assert state.ap == 0
    state = act(state, "card 2")
    assert state.ap == 2
    state = act(state, "end", "card 3")
    assert state.ap == 3


def test_BG_TURN_05_empty_hand_takes_all_four_back():
    """BG-TURN-05: after playing his last action card the player takes all four back at the end of the turn."""
    state = position("bWA@c3 yWA@h18", phase="card", ap=0, cards="B:5/234/012233456/3 Y:2345/-/012233456/3")
    state = act(state, "card 5")
    assert state.players["B"].actions == () and state.players["B"].played == (2, 3, 4, 5)
    state, events = apply(state, EndTurn("B"))
    assert state.players["B"].actions == (2, 3, 4, 5) and state.players["B"].played == ()
    assert "cards_recovered" in [e.kind for e in events]
    # a hand that is not empty is not refilled
    state = act(state, "card 2", "end")
    assert state.players["Y"].actions == (3, 4, 5)


def test_BG_TURN_05_a_full_cycle_of_both_players_is_eight_turns():
    """BG-TURN-05: from the first turn, both hands are full again after exactly 8 turns."""
    state = position("bWA@c3 yWA@h18", **FIRST_TURN, cards="B:2345/-/012233456/3 Y:2345/-/012233456/3")
    for turn, value in enumerate([2, 3, 4, 2, 3, 4, 5, 5], start=1):
        assert state.turn == turn
        state = act(state, f"card {value}", "end")
        if turn == 7:
            assert state.players["B"].actions == (2, 3, 4, 5) and state.players["Y"].actions == (5,)
    assert state.players["B"].actions == state.players["Y"].actions == (2, 3, 4, 5)
    assert state.turn == 9


def test_BG_TURN_06_a_turn_is_one_players_turn():
    """BG-TURN-06: the turn counter counts single players' turns, not rounds."""
    state = position("bWA@c3 yWA@h18", phase="card", ap=0, turn=1)
    seen = []
    for _ in range(4):
        seen.append((state.turn, state.active))
        state = act(state, "card 2" if not state.players[state.active].played else "card 3", "end")
    assert seen == [(1, "B"), (2, "Y"), (3, "B"), (4, "Y")]


# --- §6 first-cycle limit ---------------------------------------------------------------------------

def test_BG_ACT_01_first_card_of_the_game_must_be_2():
    """BG-ACT-01: the first player's first action card must be his 2."""
    state = position("bWA@c3 yWA@h18", **FIRST_TURN)
    assert cards(state) == [2]
    assert_refused(state, "card 3", "BG-ACT-01")
    assert_refused(state, "card 5", "BG-ACT-01")
    assert view(state, "B")["first_cycle_limit"] == 2


def test_BG_ACT_02_at_most_one_more_than_the_highest_card_so_far():
    """BG-ACT-02: in the first cycle a card may exceed the highest card played so far (either player) by 1 only."""
    state = position("bWA@c3 yWA@h18", turn=2, active="Y", phase="card", ap=0, high=2, four=0,
                     cards="B:345/2/012233456/3 Y:2345/-/012233456/3")
    assert cards(state) == [2, 3]
    assert_refused(state, "card 4", "BG-ACT-02")
    assert_refused(state, "card 5", "BG-ACT-02")
    state = act(state, "card 3", "end")
    assert cards(state) == [3, 4]  # the opponent's 3 raised the limit for Blue too
    assert_refused(state, "card 5", "BG-ACT-02")


def test_BG_ACT_03_the_limit_ends_once_a_4_is_played():
    """BG-ACT-03 (RUL-030): once any 4 has been played nobody is limited any more."""
    state = position("bWA@c3 yWA@h18", turn=3, active="B", phase="card", ap=0, high=3, four=0,
                     cards="B:345/2/012233456/3 Y:245/3/012233456/3")
    assert view(state, "Y")["first_cycle_limit"] == 4
    state = act(state, "card 4", "end")
    assert state.four_played and view(state, "Y")["first_cycle_limit"] is None
    assert cards(state) == [2, 4, 5]  # Yellow's own 4 was never played, yet his 5 is allowed
    state = act(state, "card 5")
    assert state.ap == 5


def test_BG_EX_01_first_cycle_limit_worked_example():
    """BG-EX-01 (BG-ACT-01..03): A must play 2; B may play 2 or 3 and plays 3; A may play 3 or 4; variant: after
    B's 2, A may only play 3; once A plays 4, B may play 5."""
    a, b = "B", "Y"
    start = position("bWA@c3 yWA@h18", **FIRST_TURN, active=a)
    assert cards(start) == [2]
    state = act(start, "card 2", "end")
    assert state.active == b and cards(state) == [2, 3]
    main = act(state, "card 3", "end")
    assert main.active == a and cards(main) == [3, 4]
    variant = act(state, "card 2", "end")
    assert cards(variant) == [3]
    assert_refused(variant, "card 4", "BG-ACT-02")
    state = act(main, "card 4", "end")
    assert state.active == b and cards(state) == [2, 4, 5]
    state = act(state, "card 5")
    assert state.ap == 5


# --- §7 action points --------------------------------------------------------------------------------

AP_COSTS = {
    "reveal a room": ("bWA@b5", "reveal bWA A2", dict(rooms="A1=O1/0 B1=O2/0 A2=*P1/0 B2=P2/0 A3=W1/0 B3=W2/0 "
                                                            "A4=Q1/0 B4=Q2/0")),
    "rotate a room": ("bWA@a5", "rotate bWA A1 ccw", {}),
    "move": ("bWA@c3", "move bWA c4", {}),
    "start a combat": ("bWA@c3 yTR@c4", "attack bWA yTR", {}),
    "use an ability": ("bWA@c12", "break bWA n", {}),
    "use an object": ("bWZ@c3 bSP@c3", "drink bWZ", {}),
    "play a jump card": ("bWA@b8", "jump bWA c8 c9", {}),
}


@pytest.mark.parametrize("what", list(AP_COSTS))
def test_BG_AP_01_each_action_costs_one_ap(what):
    """BG-AP-01: reveal, rotate, move, combat, ability, object and jump each cost exactly 1 AP."""
    tokens, text, kwargs = AP_COSTS[what]
    state = position(tokens + " yGB@j18", ap=5, **kwargs)
    after = act(state, text)
    assert after.ap == 4
    if what == "play a jump card":
        assert after.players["B"].jumps == 2


def test_BG_AP_02_only_unwounded_characters_of_the_active_player_act():
    """BG-AP-02: wounded characters, enemy characters and the inactive player cannot act; the Troll's
    regeneration is the stated exception."""
    state = position("bWA@c3! bTH@e3 bTR@h3!2 yWA@c6", turn=5)
    assert_refused(state, "move bWA c4", "BG-AP-02")
    assert_refused(state, "move yWA c7", "BG-AP-02", seat="B")
    assert_refused(state, "move yWA c7", "BG-TURN-01", seat="Y")
    assert not any(getattr(a, "token", None) == "bWA" for a in legal_actions(state))
    state = act(state, "regenerate bTR")
    assert not state.tokens["bTR"].wounded and state.ap == 4


def test_BG_AP_03_several_ap_on_the_same_character():
    """BG-AP-03: one character may receive several AP in a turn (three separate moves here)."""
    state = position("bTR@c3 yWA@h18", ap=3)
    state = act(state, "move bTR c5", "move bTR c7", "move bTR e7")
    assert state.tokens["bTR"].square == (4, 6) and state.ap == 0


def test_BG_AP_04_permanent_abilities_and_objects_cost_nothing():
    """BG-AP-04: the Wizard's levitation over the pits costs only the move; a Sword adds its bonus for free."""
    state = position("bWZ@b8 yWA@h18", ap=2)
    state = act(state, "move bWZ e8")
    assert state.tokens["bWZ"].square == (4, 7) and state.ap == 1
    state = position("bWA@c3 bSW@c3 yTR@c4!2", ap=1)
    state = act(state, "attack bWA yTR")
    assert state.ap == 0
    state, events = apply(state, CombatCard("B", 0))
    state, events = apply(state, CombatCard("Y", 0))
    resolved = next(e for e in events if e.kind == "combat_resolved")
    assert resolved.data["attack"] == 4  # Warrior 3 + Sword 1, with no AP spent on the Sword


def test_BG_AP_05_speed_potion_ap_are_a_separate_pool():
    """BG-AP-05 (BG-OBJ-POTION-02/03): potion AP belong to the drinker alone and are counted apart."""
    state = position("bWZ@c3 bSP@c3 bWA@h3 yWA@h18", ap=2)
    state = act(state, "drink bWZ")
    assert state.ap == 1 and dict(state.pools) == {"bWZ": 4}
    assert view(state, "Y")["pools"] == {"bWZ": 4}
    state = act(state, "move bWZ c4")
    assert state.ap == 1 and dict(state.pools) == {"bWZ": 3}
    state = act(state, "move bWA h4")
    assert state.ap == 0
    assert_refused(state, "move bWA h5", "BG-TURN-03")
    state = act(state, "move bWZ c5", "move bWZ c6", "move bWZ c7")
    assert_refused(state, "move bWZ b7", "BG-TURN-03")


# --- §4 golden rules ---------------------------------------------------------------------------------

def test_BG_GOLD_01_an_action_is_resolved_before_the_next_starts():
    """BG-GOLD-01: while a declared combat waits for its cards, or a revealed room for its tokens to be placed,
    no other action may start."""
    state = act(position("bWA@c3 bTH@h3 yTR@c4"), "attack bWA yTR")
    assert state.phase == "combat"
    assert_refused(state, "move bTH h4", "BG-GOLD-01", seat="B")
    assert_refused(state, "move yTR c5", "BG-GOLD-01", seat="Y")
    assert_refused(state, "end", "BG-GOLD-01", seat="B")
    rooms = "A1=O1/0 B1=O2/0 A2=*P1/0 B2=P2/0 A3=W1/0 B3=W2/0 A4=Q1/0 B4=Q2/0"
    state = act(position("bWA@b5 bTH@h3 bGB#A2.1 yWA@h18", rooms=rooms), "reveal bWA A2")
    assert state.phase == "place"
    assert_refused(state, "move bTH h4", "BG-GOLD-01")
    assert_refused(state, "end", "BG-GOLD-01")


def test_BG_GOLD_02_never_more_than_two_tokens_on_a_square():
    """BG-GOLD-02: a move that would end with 3 tokens on a square is refused (cited as BG-MOVE-12, the move
    rule restating the golden rules for the mover's last square); dropping the extra token first is fine."""
    state = position("bWA@c3 bSW@c3 bTR@c5!")
    assert_refused(state, "move bWA c5", "BG-MOVE-12")
    assert all(a.dest != (2, 4) or a.leave for a in legal_actions(state) if isinstance(a, Move))
    state = act(state, "move bWA c5 bSW@c4")  # figure + own wounded
    assert sorted(t.id for t in state.tokens_at((2, 4))) == ["bTR", "bWA"]


def test_BG_GOLD_03_at_most_one_token_of_each_kind():
    """BG-GOLD-03 (RUL-003): at most one figure, one wounded and one object per square; figure+object,
    figure+own wounded and wounded+object are allowed. A drop that would break it is refused as BG-ITEM-04
    (a drop must leave a square that may legally hold it); two figures as BG-MOVE-08."""
    state = position("bWA@c3 bSW@c3 bAR@c4 bTR@c5!")
    assert_refused(state, "move bWA c5 bSW@c4", "BG-ITEM-04")  # two objects on c4
    after = act(state, "move bWA c6 bSW@c5")  # wounded + object on c5
    assert sorted(t.id for t in after.tokens_at((2, 4))) == ["bSW", "bTR"]
    state = position("bWA@c3 bGB@c3! bTR@c5!")
    assert_refused(state, "move bWA c6 bGB@c5", "BG-ITEM-04")  # two wounded on c5
    assert_refused(position("bWA@c3 bTH@c5"), "move bWA c5", "BG-MOVE-08")  # two figures
    state = act(position("bWA@c3 bAR@c5"), "move bWA c5")  # figure + object
    assert sorted(t.id for t in state.tokens_at((2, 4))) == ["bAR", "bWA"]


def test_BG_GOLD_02_03_no_legal_action_ever_breaks_the_golden_rules():
    """BG-GOLD-02/03/04: along a seeded random walk through legal actions, every end state holds at most 2
    tokens and at most one of each kind on every square."""
    import random

    from dungeon_twister.engine.boardgame.board import board_of
    from dungeon_twister.engine.boardgame.golden import square_problem

    rng = random.Random(7)
    state = position("bWA@c3 bSW@c3 bTH@d4 bGB@e3! bRP@e4 bTR@b2 bAR@b3 yWA@h3 yCL@h4! yTS@g4 yTR@i3 yMK@f15 "
                     "bCL@c16 bSP@c17 yGB@d16", ap=5)
    for _ in range(120):
        if state.outcome is not None:
            break
        options = legal_actions(state)
        state, _ = apply(state, rng.choice(options))
        board = board_of(state)
        for square, tokens in state.occupancy().items():
            problem = square_problem(square, tokens, board.pits, state.catalogue)
            assert problem is None, (format_position(state), problem)
            assert len(tokens) <= 2


def test_BG_GOLD_04_only_the_end_state_is_checked():
    """BG-GOLD-04: a move may pass over a square holding 2 tokens; only where it ends must obey the rules."""
    state = position("bWA@c3 bTH@c4 bRP@c4 bTR@c5!")
    state = act(state, "move bWA c6")
    assert state.tokens["bWA"].square == (2, 5)
    assert len(state.tokens_at((2, 3))) == 2 and len(state.tokens_at((2, 4))) == 1


def test_BG_GOLD_05_BG_GEO_05_nothing_is_done_diagonally():
    """BG-GOLD-05, BG-GEO-05: squares touching by a corner are not adjacent: no diagonal step, attack or shot."""
    state = position("bWA@c3 bWZ@h3 bFW@h3 yTR@d4 yGB@i4")
    assert_refused(state, Move("B", "bWA", (3, 3), route=((3, 3),)), "BG-MOVE-01")
    assert_refused(state, "attack bWA yTR", "BG-COMBAT-01")
    assert not any(format_action(a).startswith("attack") for a in legal_actions(state))
    with pytest.raises(NotationError):
        parse_action("fireball bWZ ne", "B")
    after = act(state, "fireball bWZ n")
    assert after.tokens["yGB"].where == "board"  # i4 is diagonal to h3: not on any line of sight
    for move in (a for a in legal_actions(position("bTH@c3 yWA@h18")) if isinstance(a, Move)):
        path = [(2, 2), *move.route]
        assert all(abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1 for a, b in zip(path, path[1:]))


# --- §20 timers ----------------------------------------------------------------------------------------

def test_BG_OPT_02_timer_ends_the_turn_and_loses_the_ap():
    """BG-OPT-02: when the turn's time runs out, the turn ends at once and remaining AP are lost."""
    state = position("bWA@c3 yWA@h18", ap=4)
    fallback = timeout_action(state, "B")
    assert fallback == EndTurn("B")
    assert timeout_action(state, "Y") is None
    state, _ = apply(state, fallback)
    assert state.active == "Y" and state.ap == 0
    # before a card is played, phase 1 is still mandatory: the lowest playable card, then the end
    fallback = timeout_action(state, "Y")
    assert fallback == PlayCard("Y", 2)
    state, _ = apply(state, fallback)
    state, _ = apply(state, timeout_action(state, "Y"))
    assert state.active == "B" and state.phase == "card"
    first = position("bWA@c3 yWA@h18", turn=3, phase="card", ap=0, high=2, four=0,
                     cards="B:345/2/012233456/3 Y:345/2/012233456/3")
    assert timeout_action(first, "B") == PlayCard("B", 3)  # lowest card the first-cycle limit allows


def test_BG_OPT_04_timer_in_combat_plays_the_plus_0():
    """BG-OPT-04: a player who lays no combat card in time is deemed to have played his +0."""
    state = act(position("bWA@c3 yTR@c4"), "attack bWA yTR")
    assert timeout_action(state, "B") == CombatCard("B", 0)
    state, _ = apply(state, CombatCard("B", 3))
    assert timeout_action(state, "B") is None
    fallback = timeout_action(state, "Y")
    assert fallback == CombatCard("Y", 0)
    state, events = apply(state, fallback)
    resolved = next(e for e in events if e.kind == "combat_resolved")
    assert resolved.data["cards"] == {"B": 3, "Y": 0}


def test_BG_OPT_05_speed_potion_is_announced_to_both_clocks():
    """BG-OPT-05: drinking a Speed Potion adds a minute to the turn. The engine has no clock; it announces the
    drink to every viewer (event potion_drunk) so that the server's turn clock can add the minute."""
    state = position("bWZ@c3 bSP@c3 yWA@h18")
    _, events = apply(state, parse_action("drink bWZ", "B"))
    drunk = [e for e in events if e.kind == "potion_drunk"]
    assert len(drunk) == 1
    for viewer in ("B", "Y", None):
        assert event_view(drunk[0], viewer)["token"] == "bWZ"


@pytest.mark.parametrize("text, rule, template", [
    ("combat 3", "BG-COMBAT-02", "no combat is waiting for a card"),
    ("team b0=WA d0=TR g0=GB i0=TH", "BG-SETUP-04", "the starting teams are already chosen"),
    ("pick WA", "PD-TEAM-MUTUAL-01", "no team is being built by mutual choice"),
    ("build pairs=1 characters=WA objects=SW", "PD-TEAM-FREE-01", "no team is being built by free choice"),
])
def test_BG_COMBAT_02_BG_SETUP_04_PD_TEAM_an_action_of_another_phase_cites_that_phases_rule(text, rule, template):
    """Found by the audit ta29: these refusals were met only by sweeps that read no rule. In the main phase a combat
    card, a starting team, a mutual pick or a free build is refused by the rule of the phase it belongs to."""
    state = position("bWA@c3 yTR@h18")
    assert state.phase == "main"
    assert assert_refused(state, text, rule).template == template


def test_BG_AP_01_an_action_of_a_set_the_game_lacks_is_refused_in_its_notation():
    """BG-AP-01 lists what a player may do: the Ring of Teleportation's `teleport` (PD-OBJ-RING-01) is no action of a
    base-set game. Its refusal names its verb, as the notation writes it: a record replayed against the wrong set read
    "unknown action Teleport(seat='B', token='bAS', dest=(0, 0))" (audit rp33)."""
    from dungeon_twister.engine.paladins.ring import Teleport

    refusal = assert_refused(position("bWA@c4 yGB@h4"), Teleport("B", "bWA", (0, 0)), "BG-AP-01")
    assert refusal.message == "teleport: no action of this game's sets"
