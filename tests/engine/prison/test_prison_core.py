"""Prison's components and the core rules it restates (PR-COMP, PR-CORE-17/18/20, PR-CHAR-CLERIC-02, PR-OPT-01/03),
each checked in a Prison game."""

from __future__ import annotations

from collections import Counter

from dungeon_twister.engine import SEATS, Handicap, Options, legal_actions, new_game, timeout_action
from dungeon_twister.engine.boardgame.catalogue import load

from ..builders import act, assert_refused, legal_set
from .builders import prison_position

PRISON = load("prison")


def test_PR_COMP_02_04_each_player_has_8_characters_6_objects_and_16_cards():
    """PR-COMP-02: 8 characters, 6 objects, 16 cards (9 combat, 3 jump, 4 action) a player; PR-COMP-04: Prison's
    characters and objects, and none of the base set's."""
    state = new_game(Options(set_name="prison"), 1)
    for seat in SEATS:
        mine = [t for t in state.tokens.values() if t.colour == seat]
        assert Counter(t.is_character for t in mine) == {True: 8, False: 6}
        p = state.players[seat]
        assert (len(p.combat), p.jumps, len(p.actions)) == (9, 3, 4)  # 9 + 3 + 4 = 16 cards
    names = sorted(kind.name for kind in PRISON.characters.values())
    assert names == ["Assassin", "Banshee", "Cleric", "Colossus", "Mechanork", "Naga", "Telepath", "Wizard"]
    assert sorted(kind.name for kind in PRISON.objects.values()) == [
        "Bow", "Fireball Staff", "Key", "Large Shield", "Rope", "Telescopic Lance"]
    assert not {"GB", "TS", "TH", "WA", "TR", "WW", "AR", "SW", "SP"} & (set(PRISON.characters) | set(PRISON.objects))


def test_PR_COMP_05_two_players_only():
    """The solo and 3-5 player rules of Prison's second rulebook are out of scope (RUL-050): two seats."""
    assert SEATS == ("B", "Y") and set(new_game(Options(set_name="prison"), 1).players) == {"B", "Y"}


def test_PR_CORE_17_a_group_combat_spreads_along_a_chain():
    """Blue's Naga attacks the Mechanork on c4; Blue's Assassin beside it joins; Yellow's Telepath beside the
    Assassin joins in defence; Blue's Cleric beside the Telepath joins in attack: the group follows the chain."""
    state = act(prison_position("bNG@c3 yMK@c4 bAS@d4 yTP@e4 bCL@e3 yBS@h1"), "attack bNG yMK")
    assert (state.combat.attackers, state.combat.defenders) == (("bAS", "bCL", "bNG"), ("yMK", "yTP"))


def test_PR_CORE_18_a_wounded_character_is_attacked_only_in_a_later_turn():
    fresh = prison_position("bNG@c3 yMK@c4!5 yBS@h1")  # wounded in turn 5, this turn
    assert "attack bNG yMK" not in legal_set(fresh)
    assert_refused(fresh, "attack bNG yMK", "BG-COMBAT-07")
    assert "attack bNG yMK" in legal_set(prison_position("bNG@c3 yMK@c4!4 yBS@h1"))


def test_PR_CORE_20_the_first_cycle_limit_is_2_not_4():
    """RUL-051: the first player's first card is at most 2 (BG-ACT-01) in Prison too."""
    state = prison_position("bNG@c3 yMK@h4", phase="card", ap=0, high=1, four=0)
    assert legal_set(state, verb="card") == {"card 2"}
    assert_refused(state, "card 4", "BG-ACT-01")


def test_PR_CHAR_CLERIC_02_no_healing_himself_or_what_he_carries():
    state = prison_position("bCL@c3 bMK@c3! yNG@h4")
    assert "heal bCL bMK" not in legal_set(state)
    assert_refused(state, "heal bCL bMK", "BG-CHAR-CLERIC-03")
    healed = act(prison_position("bCL@c3 bMK@c4! yNG@h4"), "heal bCL bMK")
    assert healed.tokens["bMK"].wounded is False and "bMK" in healed.exhausted  # no action this turn


def test_PR_OPT_01_timers_as_in_the_base_set():
    """A turn that times out ends; a combat card that times out is the +0 (no potion bonus in Prison)."""
    main = prison_position("bNG@c3 yMK@c4 yBS@h1")
    assert timeout_action(main, "B").verb == "end"
    combat = act(main, "attack bNG yMK")
    assert timeout_action(combat, "B").value == 0 and timeout_action(combat, "Y").value == 0


def test_PR_OPT_03_the_handicap_as_in_the_base_set():
    options = Options(set_name="prison", handicap=Handicap("B", 6, (5, 6)))
    state = new_game(options, 3)
    assert state.players["B"].combat == (0, 1, 2, 2, 3, 3, 4) and len(state.players["Y"].combat) == 9
    assert {len(team.removed) for team in legal_actions(state, "B")} == {2}  # 8 characters, 6 played (BG-OPT-08)
