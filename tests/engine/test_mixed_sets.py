"""Rules that only appear when board-game sets meet (review mix30): a mix's data and modules, checked on positions of
the real mixes (engine/mixes, engine/prison/data/mixed.json)."""

from __future__ import annotations

import pytest

from dungeon_twister.engine import IllegalAction, parse_position

from .builders import apply_texts

# prison_paladins' team of seed 1 is in play; the rest of both pools is in the box (DT-109's random mix)
PRISON_PALADINS_UNUSED = " ".join(
    f"{colour}{code}>unused" for colour in "by"
    for code in ("AS", "BS", "BW", "CL", "DS", "ES", "FH", "GH", "IL", "KY2", "LN", "PA", "RG", "TP"))


def prison_paladins(tokens: str, ports: str = "-"):
    """A main-phase position of the mix of Prison and Paladins & Dragons (no base-set character in it), every
    room revealed; room A1 is Prison's 40D, whose portcullis lies between c3 and d3."""
    return parse_position(
        "DT1 prison_paladins vp=5 ; rooms A1=40D/0 B1=40G/0 A2=39D/0 B2=39G/0 A3=44D/0 B3=44G/0 A4=41D/0 B4=41G/0 ; "
        f"ports {ports} ; tokens {tokens} {PRISON_PALADINS_UNUSED} ; cards B:2345/-/012233456/3 "
        "Y:2345/-/012233456/3 ; turn 5 B main ap=5 high=5 four=1 first=B placer=- combats=0")


@pytest.mark.parametrize("tokens, ports, action, rule", [
    ("bMK@c3 yNG@j1", "-", "open bMK e", "PR-OBJ-KEY-01"),
    ("bMK@c3 yNG@j1", "40D=o", "close bMK e", "PR-OBJ-KEY-02"),
    ("bCO@c3 yNG@j1", "40D=b", "break bCO e", "PR-CHAR-COLOSSUS-02"),
    ("bMK@c3 bKY@c3 yNG@j1", "40D=b", "close bMK e", "PR-CHAR-COLOSSUS-02"),
])
def test_PR_OBJ_KEY_01_02_PR_CHAR_COLOSSUS_02_DT_104_prison_and_paladins_cite_no_base_set_character(
        tokens, ports, action, rule):
    """DT-104: a portcullis refusal of a figure without the ability cites its set's rule. The mix of Prison and
    Paladins & Dragons has no Thief and no Warrior; it cited BG-CHAR-THIEF-04 and BG-CHAR-WARRIOR-02 (the base
    set's), where Prison alone cites its Key and its Colossus: {DE} « Eine Figur, die einen Schlüssel trägt, kann
    ein angrenzendes Fallgitter für 1AP öffnen », « Ein zerstörtes Fallgitter kann niemals repariert werden »."""
    state = prison_paladins(tokens, ports)
    with pytest.raises(IllegalAction) as refused:
        apply_texts(state, action)
    assert refused.value.rule == rule


def test_PR_OBJ_KEY_01_PD_OBJ_KEY_01_edge_the_key_still_opens_and_closes_in_the_mix():
    state, _ = apply_texts(prison_paladins("bMK@c3 bKY@c3 yNG@j1"), "open bMK e")
    assert state.portcullis["40D"] == "o"
    state, _ = apply_texts(state, "close bMK e")
    assert state.portcullis["40D"] == "c"


# --- readings kept (docs/rulings.md DT-296): what the rulebooks leave open where the sets meet --------------------
def _all(tokens: str, **kwargs):
    from .paladins.builders import all_position
    return all_position(tokens, **kwargs)


def test_PR_CHAR_TELEPATH_01_02_PD_CHAR_WMASTER_01_RUL_116_DT_296_the_naming_then_the_side_without_the_master():
    """A single melee of a Weapon Master against a Telepath (only a mix of Prison and Paladins & Dragons has both):
    the Telepath's player names first, then lays his card face up, then the Weapon Master's side plays, the named
    card if it holds it (the card game's order, RUL-116)."""
    from dungeon_twister.engine import legal_texts, view
    state, _ = apply_texts(_all("bWM@c4 yTP@c5 yGB@j1"), "attack bWM yTP")
    assert state.to_act == ("Y",) and legal_texts(state, "Y")[0] == "mind none"
    state, _ = apply_texts(state, "mind +2", seat="Y")
    assert state.to_act == ("Y",) and view(state, "B")["combat"]["first"] == {"seat": "Y", "card": None}
    state, _ = apply_texts(state, "combat +3", seat="Y")
    assert state.to_act == ("B",) and view(state, "B")["combat"]["first"] == {"seat": "Y", "card": 3}
    assert legal_texts(state, "B") == ["combat +2"]  # PR-CHAR-TELEPATH-01: he holds it, he plays it
    # edge: without a +2 his hand is shown to the Telepath's player, and he plays what he likes after seeing +3
    hand = "B:2345/-/0133456/3 Y:2345/-/012233456/3"
    state, _ = apply_texts(_all("bWM@c4 yTP@c5 yGB@j1", cards=hand), "attack bWM yTP")
    state, _ = apply_texts(state, "mind +2", "combat +3", seat="Y")
    assert view(state, "Y")["combat"]["mind"]["hand"] == [0, 1, 3, 3, 4, 5, 6]
    assert "hand" not in view(state, None)["combat"]["mind"]
    assert legal_texts(state, "B") == ["combat +0", "combat +1", "combat +3", "combat +4", "combat +5", "combat +6"]


def test_PD_CHAR_PALADIN_04_BG_EXIT_04_DT_296_two_treasures_carried_out_score_one_each():
    """« Un Paladino che trasporta due oggetti identici unisce il loro effetto »: the Paladin carrying his own and
    the enemy's Treasure out scores 1 for himself and 1 for each Treasure."""
    state, events = apply_texts(_all("bPA@a19 bTS@a19 yTS@a19 yGB@j5"), "move bPA a21")
    assert [e.kind for e in events].count("treasure_scored") == 2 and state.vp("B") == 3
    state, _ = apply_texts(_all("bPA@a19 bTS@a19 ySW@a19 yGB@j5"), "move bPA a21")  # edge: one Treasure
    assert state.vp("B") == 2


def test_PD_CHAR_PALADIN_04_PD_OBJ_SLAYER_01_DT_296_two_dragon_slayer_swords_add_four_each():
    from dungeon_twister.engine import view
    state, _ = apply_texts(_all("bPA@a1 bDS@a1 yDS@a1 yRD@a2"), "attack bPA yRD")
    assert view(state, None)["combat"]["totals"] == {"attack": 3 + 4 + 4, "defence": 6}
    state, _ = apply_texts(_all("bPA@a1 bDS@a1 ySW@a1 yRD@a2"), "attack bPA yRD")  # edge: a Sword beside it
    assert view(state, None)["combat"]["totals"] == {"attack": 3 + 4 + 1, "defence": 6}


def test_PR_RANGED_05_11_BG_OBJ_ARMOR_01_DT_296_a_shots_target_keeps_its_armor():
    """PR-RANGED-05 fixes the shooter's value and PR-RANGED-11 silences abilities out of melee; the Armor of the
    base set is an object of the target, who defends with it."""
    from dungeon_twister.engine import view
    state, _ = apply_texts(_all("bNG@a1 bBW@a1 yGB@a4 yAR@a4"), "shoot bNG yGB")
    assert view(state, None)["combat"]["totals"] == {"attack": 1, "defence": 2}
    state, _ = apply_texts(_all("bNG@a1 bBW@a1 yGB@a4 ySW@a4"), "shoot bNG yGB")  # edge: a Sword adds nothing
    assert view(state, None)["combat"]["totals"] == {"attack": 1, "defence": 1}


@pytest.mark.parametrize("tokens, charm, action", [
    ("yIL@a6 yCH@a6 bBS@c6 bGB@c7 yGB@j20 bWA@j1", "charm yIL bBS", "push bBS bGB"),
    ("yIL@a6 yCH@a6 bRD@c6 bGB@c9 yGB@j20 bWA@j1", "charm yIL bRD", "breathe bRD n"),
])
def test_PD_OBJ_CHARM_04_06_DT_296_a_charmed_figure_harms_its_own_colour_by_anything_but_a_combat(
        tokens, charm, action):
    """Only a combat against its own colour is forbidden (« non può impegnarsi in combattimenti contro personaggi
    del proprio colore »; PD-EX-05 walks a charmed Mechanork onto Rockfall for Yellow's VP): a charmed Banshee
    pushes her friend into a pit, a charmed Dragon burns his, and the VP go to the charmer (BG-VP-04)."""
    state, _ = apply_texts(_all(tokens, active="Y"), charm, action)
    assert state.tokens["bGB"].where == "eliminated" and state.vp("Y") == 1
    with pytest.raises(IllegalAction) as refused:  # edge: the combat stays forbidden
        apply_texts(_all(tokens.replace("bGB@c7", "bGB@b6").replace("bGB@c9", "bGB@b6"), active="Y"), charm,
                    "attack " + action.split()[1] + " bGB")
    assert refused.value.rule == "PD-OBJ-CHARM-04"


def test_PD_CHAR_PALADIN_03_BG_ROT_05_07_a_dead_paladins_two_objects_turn_with_their_room():
    """Found by the mixed checker's crowded positions: a rotation of a room where a dead Paladin's two objects lie
    stacked was listed and then refused (« d12 would hold two tokens of one kind », BG-GOLD-03). The stack stays
    until characters take the objects one at a time (PD-CHAR-PALADIN-03), everything in a room turns with it and
    keeps its square (BG-ROT-05), and a rotation is legal whatever the room holds (BG-ROT-07)."""
    from dungeon_twister.engine import legal_texts
    from .accepted import disagreements
    from .paladins import enumerators  # noqa: F401  (registers Paladins & Dragons' kinds)
    from .paladins.builders import pd_position
    state = pd_position("bES@a15 bAR@b12 yFW@b12 yGB@j1")
    assert "rotate bES A3 ccw" in legal_texts(state)
    assert disagreements(state) == []
    turned, _ = apply_texts(state, "rotate bES A3 ccw")
    assert turned.tokens["bAR"].square == turned.tokens["yFW"].square != state.tokens["bAR"].square
    back, _ = apply_texts(turned, "end")  # the next action checks the golden rules again: the stack still lies
    assert back.tokens["bAR"].square == turned.tokens["bAR"].square
    # edge: nobody carries the two away to leave them stacked elsewhere (only the dead Paladin's stack may lie)
    with pytest.raises(IllegalAction) as refused:
        apply_texts(pd_position("bPA@c12 bAR@b12 yFW@b12 yGB@j1"), "move bPA d12 +bAR +yFW bAR@c12 yFW@c12")
    assert refused.value.rule in ("BG-GOLD-03", "BG-ITEM-04")
