"""Paladins & Dragons characters and objects (PD-CHAR, PD-OBJ) on the synthetic rooms of
tests/engine/paladins/builders.py: room A1 (ranks 1-5, files a-e) is floor but for the crevasse b3, the obstacle d3
and the fountain d5; room A2 (ranks 6-10) has the pits c8 and d8 and its gear on a10; room A3 (ranks 11-15) the
portcullis c13|d13; room A4 (ranks 16-20) Rockfall b18, fog b17 b16 and the Pentacle d18-e19.
Stats (RUL-075): Red Dragon 0/6, Elf Scout 7/1, Pickpocket 6/2, Golem 2/4, Paladin 4/3."""

from __future__ import annotations

from dungeon_twister.engine import event_view

from ..builders import act, apply_texts, assert_refused, combat_round, legal_set, where
from .builders import pd_position


def seen(events, kind: str) -> dict:
    return next(event_view(e, None) for e in events if e.kind == kind)


# --- the Red Dragon -------------------------------------------------------------------------------------------------
def test_PD_CHAR_DRAGON_01_02_fire_breath_eliminates_the_first_character_in_line_as_often_as_he_likes():
    """The Dragon on c1 breathes north: the Goblin on c4 dies outright (not wounded first), the Troll behind him on
    c5 is untouched; a second breath the same turn (1 AP each) kills the Troll. Yellow loses 2 VP worth of tokens,
    Blue scores 2."""
    state = pd_position("bRD@c1 yGB@c4 yTR@c5 yWA@h4")
    assert legal_set(state, verb="breathe") == {"breathe bRD n", "breathe bRD e", "breathe bRD s", "breathe bRD w"}
    once, events = apply_texts(state, "breathe bRD n")
    assert where(once, "yGB") == "eliminated" and where(once, "yTR") == "c5" and once.ap == 4
    assert seen(events, "breath") == {"kind": "breath", "by": "bRD", "direction": "n", "victims": ["yGB"]}
    twice = act(once, "breathe bRD n")
    assert where(twice, "yTR") == "eliminated" and twice.ap == 3 and twice.vp("B") == 2


def test_PD_CHAR_DRAGON_01_edge_the_breath_stops_at_walls_fog_and_obstacles():
    """North from a15 the line crosses into room A4 (a16-a20 are plain floor) and reaches the Goblin on a19; from
    b15 it stops before the fog on b16 and spares the Goblin on b19; nobody but a fire-breather breathes (the
    Warrior is refused citing PD-CHAR-DRAGON-01)."""
    assert where(act(pd_position("bRD@a15 yGB@a19 yWA@h4"), "breathe bRD n"), "yGB") == "eliminated"
    assert where(act(pd_position("bRD@b15 yGB@b19 yWA@h4"), "breathe bRD n"), "yGB") == "b19"
    assert_refused(pd_position("bWA@b15 yGB@b19 yWA@h4"), "breathe bWA n", "PD-CHAR-DRAGON-01")


def test_PD_CHAR_DRAGON_03_he_never_moves_by_himself_nor_jumps():
    state = pd_position("bRD@b8 yGB@h4")
    assert legal_set(state, verb="move", token="bRD") == set() and legal_set(state, verb="jump") == set()
    assert_refused(state, "move bRD b7", "BG-MOVE-01")
    assert_refused(state, "jump bRD c8 d7", "PD-CHAR-DRAGON-03")


def test_PD_CHAR_DRAGON_04_prestige_his_elimination_scores_2_vp():
    """The Wizard's fireball kills the yellow Dragon: Blue scores 2 VP, not 1 (BG-VP-01)."""
    state = pd_position("bWZ@c1 bFW@c1 yRD@c4 yGB@h4")
    assert act(state, "fireball bWZ n").vp("B") == 2


def test_PD_CHAR_DRAGON_05_RUL_076_he_attacks_in_melee_and_rotates_a_room():
    state = pd_position("bRD@a10 yGB@b10 yWA@h4")
    assert "attack bRD yGB" in legal_set(state, verb="attack")
    assert any(text.startswith("rotate bRD A2") for text in legal_set(state, verb="rotate"))


def test_PD_EX_02_the_dragon_teleports_with_the_ring_which_is_discarded():
    """PD-OBJ-RING-01/02: from c4 (room A1) to an empty floor square of a neighbouring revealed room (A2 above, B1
    beside): not its own room, not a pit (c8), the gear (a10) or a terrain square (g3 crevasse)."""
    state = pd_position("bRD@c4 bRG@c4 yGB@h4")
    teleports = {text.split()[2] for text in legal_set(state, verb="teleport")}
    assert "c7" in teleports and "f1" in teleports
    assert not {"c4", "c3", "c8", "a10", "g3", "h4", "c11"} & teleports
    after, events = apply_texts(state, "teleport bRD c7")
    assert where(after, "bRD") == "c7" and where(after, "bRG") == "discarded" and after.ap == 4
    assert seen(events, "teleported")["route"] == ["c4", "c7"]
    assert_refused(state, "teleport bRD c3", "PD-OBJ-RING-02")
    assert_refused(state, "teleport bRD c8", "PD-OBJ-RING-02")
    assert_refused(pd_position("bRD@c4 yGB@h4"), "teleport bRD c7", "PD-OBJ-RING-01")
    assert_refused(pd_position("bRD@c0 bRG@c0 yGB@h4"), "teleport bRD c2", "PD-OBJ-RING-02")


# --- the Elf Scout ---------------------------------------------------------------------------------------------------
def test_PD_CHAR_ELF_01_agility_crosses_pits_without_stopping_on_them():
    """The Elf on b8 crosses the pits c8 and d8 to e8 (3 steps); he may stop on neither."""
    state = pd_position("bES@b8 yGB@h4")
    moves = legal_set(state, verb="move", token="bES")
    assert "move bES e8" in moves and not {"move bES c8", "move bES d8"} & moves
    assert where(act(state, "move bES c8-d8-e8"), "bES") == "e8"
    assert_refused(state, "move bES c8", "BG-MOVE-10")


def test_PD_CHAR_ELF_02_RUL_077_agility_does_not_cross_crevasses():
    state = pd_position("bES@a3 yGB@h4")
    assert_refused(state, "move bES b3-c3", "PD-TERR-CREVASSE-01")


# --- the Pickpocket -----------------------------------------------------------------------------------------------
def test_PD_CHAR_PICKPOCKET_01_steals_an_object_from_an_adjacent_enemy_for_1_ap():
    """The Pickpocket on c4 takes the Treasure the yellow Goblin carries on c5 (and the one under a wounded enemy on
    d4, as a choice): the object lies under him after, for 1 AP."""
    state = pd_position("bPP@c4 yGB@c5 yTS@c5 yTR@d4! yKY@d4 yWA@h4")
    assert legal_set(state, verb="steal") == {"steal bPP yTS", "steal bPP yKY"}
    after, events = apply_texts(state, "steal bPP yTS")
    assert where(after, "yTS") == "c4" and where(after, "yGB") == "c5" and after.ap == 4
    assert seen(events, "stolen") == {"kind": "stolen", "token": "yTS", "by": "bPP", "victim": "yGB", "square": "c4"}


def test_PD_CHAR_PICKPOCKET_01_edge_not_from_a_friend_nor_across_a_wall_nor_from_an_empty_square():
    """c13|d13 is a closed portcullis: no theft across it; a friend's object or an object lying alone is no theft."""
    assert_refused(pd_position("bPP@c13 yGB@d13 yTS@d13 yWA@h4"), "steal bPP yTS", "PD-CHAR-PICKPOCKET-01")
    assert_refused(pd_position("bPP@c4 bGB@c5 bTS@c5 yWA@h4"), "steal bPP bTS", "PD-CHAR-PICKPOCKET-01")
    assert_refused(pd_position("bPP@c4 yTS@c5 yWA@h4"), "steal bPP yTS", "PD-CHAR-PICKPOCKET-01")


def test_PD_CHAR_PICKPOCKET_02_03_not_while_carrying_and_never_a_wounded_character():
    carrying = pd_position("bPP@c4 bRP@c4 yGB@c5 yTS@c5 yWA@h4")
    assert legal_set(carrying, verb="steal") == set()
    assert_refused(carrying, "steal bPP yTS", "PD-CHAR-PICKPOCKET-02")
    assert_refused(pd_position("bPP@c4 yGB@c5 yTR@c5! yWA@h4"), "steal bPP yTR", "PD-CHAR-PICKPOCKET-03")


def test_PD_CHAR_PICKPOCKET_edge_stealing_the_rope_over_a_pit_drops_its_holder():
    """The yellow Goblin stands on the pit c8 on a Rope; the Pickpocket on b8 steals the Rope: the Goblin falls
    (BG-PIT-07) and Blue scores 1 VP."""
    after = act(pd_position("bPP@b8 yGB@c8 yRP@c8 yWA@h4"), "steal bPP yRP")
    assert where(after, "yRP") == "b8" and where(after, "yGB") == "eliminated" and after.vp("B") == 1


# --- objects ---------------------------------------------------------------------------------------------------
def test_PD_OBJ_FIRESHIELD_01_RUL_084_the_carrier_is_spared_and_the_breath_is_spent_on_him():
    """The Goblin on c4 carries the Fire Shield: the breath stops at him harmlessly (the Troll behind stays too);
    a fireball at the Warrior carrying another Fire Shield likewise."""
    state = pd_position("bRD@c1 bWZ@e1 bFW@e1 yGB@c4 yFH@c4 yTR@c5 yWA@e4 bFH@e4 yKY@h4")
    after, events = apply_texts(state, "breathe bRD n")
    assert where(after, "yGB") == "c4" and where(after, "yTR") == "c5"
    assert seen(events, "breath")["victims"] == [] and seen(events, "breath")["shielded"] == ["yGB"]
    assert where(act(state, "fireball bWZ n"), "yWA") == "e4"


def test_PD_OBJ_SLAYER_01_plus_4_against_a_dragon_attacking_or_defending():
    """The Goblin (1) with the Dragon-Slayer Sword attacks the Dragon (6): 1 + 4 + card 2 = 7 against 6 + 0."""
    state = pd_position("bGB@c4 bDS@c4 yRD@c5 yWA@h4")
    _, events = combat_round(state, "attack bGB yRD", blue=2, yellow=0)
    result = seen(events, "combat_resolved")
    assert (result["attack"], result["defence"]) == (7, 6)
    _, events = combat_round(pd_position("bGB@c4 bDS@c4 yWA@c5 yTR@h4"), "attack bGB yWA", blue=2, yellow=0)
    assert seen(events, "combat_resolved")["attack"] == 3  # no dragon: no bonus


def test_PD_OBJ_SLAYER_02_a_dragon_beaten_by_its_side_is_eliminated_not_wounded():
    state = pd_position("bGB@c4 bDS@c4 yRD@c5 yWA@h4")
    after, events = combat_round(state, "attack bGB yRD", blue=2, yellow=0)
    assert where(after, "yRD") == "eliminated" and after.vp("B") == 2
    plain, _ = combat_round(pd_position("bTR@c4 yRD@c5 yWA@h4"), "attack bTR yRD", blue=6, yellow=0)
    assert where(plain, "yRD") == "c5!"


def test_PD_OBJ_KEY_01_the_key_opens_and_closes_a_portcullis_any_number_of_times():
    state = pd_position("bGB@c13 bKY@c13 yWA@h4")
    assert "open bGB e" in legal_set(state, verb="open")
    opened = act(state, "open bGB e")
    assert "close bGB e" in legal_set(opened, verb="close")
    assert "open bGB e" in legal_set(act(opened, "close bGB e"), verb="open")
