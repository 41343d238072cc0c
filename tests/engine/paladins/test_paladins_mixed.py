"""Where Prison's rules meet Paladins & Dragons' terrain, in a mixed game (DT-119): the synthetic rooms with terrain
(tests/engine/paladins/builders.py: an obstacle on d3, Rockfall on b18, fog on b17 and b16)."""

from __future__ import annotations

from dungeon_twister.engine import event_view, format_position, parse_position

from ..builders import act, apply_texts, assert_refused, combat_round, legal_set, where
from .builders import all_position, pd_position, slit_position


def test_PD_GLOS_03_the_banshee_pushes_nobody_onto_an_obstacle():
    state = all_position("bBS@d1 yGB@d2 yWA@h4")
    assert "push bBS yGB" not in legal_set(state, verb="push")
    assert_refused(state, "push bBS yGB", "PD-GLOS-03")


def test_PD_TERR_CREVASSE_01_DT_242_the_banshee_pushes_nobody_into_a_crevasse():
    """The Goblin on b2, the crevasse b3 behind him: nobody may enter a crevasse (PD-TERR-CREVASSE-01), and a push
    lands only on a valid square, a pit being the one exception (PR-CHAR-BANSHEE-06): no push, refused citing the
    crevasse's rule (it cited PD-GLOS-03, the 3D obstacles'). The Ghost, who crosses a crevasse, may not stop on it
    either. Illusion rubble, which nobody but the Ghost crosses, cites PD-CHAR-ILLUS-04; an obstacle keeps
    PD-GLOS-03."""
    for person in ("yGB", "yGH"):
        state = all_position(f"bBS@b1 {person}@b2 yWA@h4")
        assert f"push bBS {person}" not in legal_set(state, verb="push")
        error = assert_refused(state, f"push bBS {person}", "PD-TERR-CREVASSE-01")
        assert error.values["square"] == "b3"
    rubble = all_position("bBS@c2 yGB@c3 yWA@h4", ports="- ; marks illusion:B:rubble=c4")
    assert "push bBS yGB" not in legal_set(rubble, verb="push")
    assert_refused(rubble, "push bBS yGB", "PD-CHAR-ILLUS-04")
    assert "push bBS yGB" in legal_set(all_position("bBS@c2 yGB@c3 yWA@h4"), verb="push"), "c4 is floor"


def test_PD_TERR_ROCKFALL_01_pushed_onto_rockfall_the_figure_dies():
    after = act(all_position("bBS@b20 yGB@b19 yWA@h4"), "push bBS yGB")
    assert where(after, "yGB") == "eliminated" and after.vp("B") == 1


def test_PD_TERR_FOG_01_RUL_089_the_lance_cannot_reach_into_fog():
    """The Colossus with the lance on b19: two squares south, over the empty Rockfall b18, the Goblin stands in the
    fog on b17: no lance attack (PD-TERR-FOG-01); one file east, with no fog, the same reach works."""
    state = all_position("bCO@b19 bLN@b19 yGB@b17 yWA@h4")
    assert "lance bCO yGB" not in legal_set(state, verb="lance")
    assert_refused(state, "lance bCO yGB", "PD-TERR-FOG-01")
    clear = all_position("bCO@c19 bLN@c19 yGB@c17 yWA@h4")
    assert "lance bCO yGB" in legal_set(clear, verb="lance")


def test_PD_TERR_FOG_01_RUL_089_no_shot_and_no_shockwave_at_a_character_in_fog():
    """RUL-089 names them: no shot and no Banshee push can target a character on a fog square. The Goblin stands in
    the fog on b16, in plain view one square from the Banshee on b15 and in line with the Bow on b12: neither is
    offered, and each refusal cites the fog's rule (review pd27: both cited Prison's line-of-sight rules,
    PR-RANGED-02 and PR-CHAR-BANSHEE-01, "not the first person on a line of sight", to a player who sees him
    there); nothing is spent. Edge: on file e, out of the fog, both work."""
    shot = all_position("bGB@b12 bBW@b12 yGB@b16 yWA@h4")
    assert not legal_set(shot, verb="shoot")
    assert assert_refused(shot, "shoot bGB yGB", "PD-TERR-FOG-01").values == {"target": "yGB"}
    push = all_position("bBS@b15 yGB@b16 yWA@h4")
    assert not legal_set(push, verb="push")
    assert_refused(push, "push bBS yGB", "PD-TERR-FOG-01")
    assert "shoot bGB yGB" in legal_set(all_position("bGB@e12 bBW@e12 yGB@e16 yWA@h4"), verb="shoot")
    assert "push bBS yGB" in legal_set(all_position("bBS@e15 yGB@e16 yWA@h4"), verb="push")
    assert_refused(all_position("bGB@a12 bBW@a12 yGB@b16 yWA@h4"), "shoot bGB yGB", "PD-TERR-FOG-01")


def test_PR_OBJ_LANCE_01_PD_GLOS_03_DT_287_the_lance_reaches_over_a_pit_like_obstacle_not_over_a_3d_one():
    """DT-287: the lance fights « über ein normales Feld oder über ein Hindernis (wie z.B. eine Grube) hinweg », and
    Prison's glossary: « Hindernis: Bodenelement, das mit Hilfe einer Sprungkarte oder mit Hilfe eines Seiles
    überwunden werden kann ... Hindernisse blockieren nicht die Sichtlinie ». A 3D obstacle, a fountain (one) and
    illusion rubble block sight and movement and no jump crosses them (PD-GLOS-03, PD-TERR-FOUNTAIN-01,
    PD-CHAR-ILLUS-04, RUL-074): the lance does not reach over them (review pd27: the Colossus on d2 reached the
    Goblin on d4 over the obstacle d3). Each refusal cites the terrain's rule and names the square. Edge: over a
    crevasse (b3) and over Rockfall (b18), floor a jump crosses, it still reaches."""
    over_obstacle = all_position("bCO@d2 bLN@d2 yGB@d4 yWA@h4")
    assert not legal_set(over_obstacle, verb="lance")
    error = assert_refused(over_obstacle, "lance bCO yGB", "PD-GLOS-03")
    assert error.message == "the lance does not reach over d3, a 3D obstacle"
    over_fountain = all_position("bCO@c5 bLN@c5 yGB@e5 yWA@h9")
    assert not legal_set(over_fountain, verb="lance")
    assert assert_refused(over_fountain, "lance bCO yGB", "PD-GLOS-03").values == {"square": "d5"}
    over_rubble = all_position("bCO@c2 bLN@c2 yGB@c4 yWA@h4", ports="- ; marks illusion:Y:rubble=c3")
    assert not legal_set(over_rubble, verb="lance")
    error = assert_refused(over_rubble, "lance bCO yGB", "PD-CHAR-ILLUS-04")
    assert error.message == "the lance does not reach over c3, which holds an illusion rubble"
    assert "lance bCO yGB" in legal_set(all_position("bCO@b2 bLN@b2 yGB@b4 yWA@h4"), verb="lance"), "a crevasse"
    assert "lance bCO yGB" in legal_set(all_position("bCO@a18 bLN@a18 yGB@c18 yWA@h4"), verb="lance"), "Rockfall"
    assert "lance bCO yGB" in legal_set(all_position("bCO@c2 bLN@c2 yGB@c4 yWA@h4"), verb="lance"), "c3 is floor"


def test_PD_CHAR_ILLUS_03_05_PR_CHAR_BANSHEE_01_the_illusionist_is_not_pushed_onto_his_own_illusion():
    """An illusion pit is a real pit for all but the Illusionist who made it, and he may not stop on it
    (PD-CHAR-ILLUS-05): the Banshee may not push him there (he fell and died, Blue scoring); another character
    pushed onto it falls, as onto any pit (PR-CHAR-BANSHEE-06)."""
    state = all_position("bBS@c2 yIL@c3 yWA@h4", ports="- ; marks illusion:Y:pit=c4")
    assert "push bBS yIL" not in legal_set(state, verb="push")
    assert_refused(state, "push bBS yIL", "PD-CHAR-ILLUS-05")
    other = act(all_position("bBS@c2 yGB@c3 yWA@h4", ports="- ; marks illusion:B:pit=c4"), "push bBS yGB")
    assert where(other, "yGB") == "eliminated"


def test_PD_CHAR_GHOST_03_prisons_objects_lying_under_the_ghost_are_not_his():
    """The Ghost carries and uses no object, Prison's neither: a Bow under him shoots nothing, a Telescopic Lance
    under him reaches nobody, a Large Shield under him does not stop a shot at him, and a Key under him stays when
    the Banshee pushes him (PR-CHAR-BANSHEE-04: the pushed person takes what it carries). All four were his."""
    assert not legal_set(all_position("bGH@c1 bBW@c1 yWA@c6 yGB@h4"), verb="shoot")
    assert not legal_set(all_position("bGH@c1 bLN@c1 yWA@c3 yGB@h4"), verb="lance")
    assert "shoot bCL yGH" in legal_set(all_position("bCL@c1 bBW@c1 yGH@c6 ySH@c6 yGB@h4"), verb="shoot")
    pushed = act(all_position("bBS@c1 yGH@c3 yKY@c3 yGB@h4"), "push bBS yGH")
    assert (where(pushed, "yGH"), where(pushed, "yKY")) == ("c4", "c3")
    fell = act(all_position("yBS@c5 bGH@c7 bRP@c7 bGB@h4", active="Y"), "push yBS bGH")
    assert (where(fell, "bGH"), where(fell, "bRP")) == ("eliminated", "c7"), "a Rope under him holds nothing up"


def test_PR_OBJ_LANCE_02_RUL_061_the_paladins_lance_breaks_not_his_other_object_and_his_sword_counts():
    """The Paladin (3) with a Key, a Sword or a Bow beside his Telescopic Lance attacks the Warrior (5 + 4) and loses:
    the lance is discarded, the other object stays (the first object under him was discarded: his Key). A Sword
    adds its +1 to the lancer (RUL-061: 4), a Key or a Bow nothing (3)."""
    for other, attack in (("bKY", 3), ("bSW", 4), ("bBW", 3)):
        after, events = combat_round(all_position(f"bPA@c1 {other}@c1 bLN@c1 yWA@c3 yGB@h4"), "lance bPA yWA",
                                     blue=0, yellow=4)
        seen = [event_view(e, None) for e in events]
        assert next(e for e in seen if e["kind"] == "combat_resolved")["attack"] == attack, other
        assert next(e for e in seen if e["kind"] == "lance_broken")["token"] == "bLN", other
        assert (where(after, "bLN"), where(after, other)) == ("discarded", "c1"), other


def test_PD_CHAR_WMASTER_02_not_in_a_ranged_combat():
    """PD-CHAR-WMASTER-02: the Weapon Master's techniques work in a melee, a group combat included, "but not in a
    ranged combat" (IT « ma non in un combattimento a lungo raggio »). A Bow shot at him, or by him, asks both seats
    for a secret card (commit-reveal, nobody lays first, DT-114); a melee against him in the same place has Blue
    lay first, face up."""
    from dungeon_twister.engine import secret_purpose

    at_him = act(all_position("bGB@a1 bBW@a1 yWM@a4 yGB@h4"), "shoot bGB yWM")
    assert at_him.phase == "combat" and at_him.to_act == ("B", "Y") and at_him.combat_first() is None
    assert secret_purpose(at_him, "B") == secret_purpose(at_him, "Y") == "combat-1"
    by_him = act(all_position("bWM@a1 bBW@a1 yGB@a4 yWA@h4"), "shoot bWM yGB")
    assert by_him.to_act == ("B", "Y") and by_him.combat_first() is None
    assert secret_purpose(by_him, "B") == secret_purpose(by_him, "Y") == "combat-1"
    melee = act(all_position("bGB@a3 yWM@a4 yGB@h4"), "attack bGB yWM")
    assert melee.combat_first() == "B" and melee.to_act == ("B",) and secret_purpose(melee, "B") is None


def test_PD_CHAR_WMASTER_01_02_PR_RANGED_11_DT_302_in_a_shots_group_combat_a_weapon_master_in_melee_keeps_it():
    """DT-302: a shot that draws figures in is a group combat with a shooter (PR-RANGED-08), and there « müssen
    sich die kämpfenden Figuren wenigstens mit einem Gegner im Nahkampf befinden, damit sie ihre Fähigkeiten
    einsetzen können » (PR-RANGED-11); the Weapon Master's techniques work « anche ... in un combattimento di
    gruppo, ma non in un combattimento a lungo raggio » (PD-CHAR-WMASTER-02). So one in melee in such a combat
    keeps them: the Goblin shoots from a1 at the yellow Goblin on a4, the blue Weapon Master beside the target on b4
    is drawn in: Yellow lays first, face up (no secret choice), then Blue: 1 (the Bow) + 3 (the Master) + 0
    against 1 + 2. The engine kept the cards secret in every combat with a shooter (DT-114). A yellow Weapon Master
    drawn in as a defender, beside the blue Warrior: Blue lays first. Edges: one on each side in melee cancel
    (RUL-082); the shot's lone target and the shooter keep none (test above)."""
    from dungeon_twister.engine import secret_purpose

    shot = act(all_position("bGB@a1 bBW@a1 bWM@b4 yGB@a4 yTR@h4"), "shoot bGB yGB")
    assert (shot.combat.attackers, shot.combat.shooters) == (("bWM",), ("bGB",))
    assert shot.combat_first() == "Y" and shot.to_act == ("Y",)
    assert secret_purpose(shot, "B") is None and secret_purpose(shot, "Y") is None
    shot, events = apply_texts(shot, "combat +2", seat="Y")
    assert shot.to_act == ("B",) and [event_view(e, "B")["value"] for e in events if e.kind == "card_chosen"] == [2]
    after, events = apply_texts(shot, "combat +0", seat="B")
    resolved = next(event_view(e, None) for e in events if e.kind == "combat_resolved")
    assert (resolved["attack"], resolved["defence"], resolved["winner"]) == (4, 3, "B")
    assert where(after, "yGB") == "a4!"
    defending = act(all_position("bGB@a1 bBW@a1 bWA@b4 yWM@b5 yGB@a4 yTR@h4"), "shoot bGB yGB")
    assert defending.combat.defenders == ("yGB", "yWM") and defending.combat_first() == "B"
    both = act(all_position("bGB@a1 bBW@a1 bWM@b4 yWM@a4 yTR@h4"), "shoot bGB yWM")
    assert both.combat_first() is None and both.to_act == ("B", "Y")


def test_PD_OBJ_CHARM_05_DT_117_a_charmed_shooter_or_lancer_fights_with_its_owners_card():
    """The charmed yellow Goblin with a Bow shoots Blue's Warrior (3): its owner, Yellow, plays the shooter's card
    (PD-OBJ-CHARM-05). Found while settling D1: the attacking side took the active player's card, so Blue's +5 made
    his own Warrior lose (1 + 5 against 3 + 0). Now 1 + 0 against 3 + 5: the shot fails, and nobody is wounded (a
    shooter never is, PR-RANGED-04). The same with the Telescopic Lance (the lancer's side: Yellow's card)."""
    shot = act(all_position("bIL@a7 bCH@a7 yGB@c7 yBW@c7 bWA@c10 yWA@h4"), "charm bIL yGB")
    assert "shoot yGB bWA" in legal_set(shot, verb="shoot")
    declared = act(shot, "shoot yGB bWA")
    text = format_position(declared)
    assert "shot=yGB" in text and format_position(parse_position(text)) == text
    after, events = apply_texts(declared, "combat +5", seat="B")
    after, more = apply_texts(after, "combat +0", seat="Y")
    resolved = next(event_view(e, None) for e in events + more if e.kind == "combat_resolved")
    assert (resolved["attack"], resolved["defence"], resolved["winner"], resolved["attacker_seat"]) == (1, 8, "B", "Y")
    assert where(after, "bWA") == "c10" and where(after, "yGB") == "c7"
    lance = act(all_position("bIL@a7 bCH@a7 yGB@c7 yLN@c7 bWA@c9 yWA@h4"), "charm bIL yGB")
    after = act(act(act(lance, "lance yGB bWA"), "combat +6", seat="Y"), "combat +0", seat="B")
    assert where(after, "bWA") == "c9!", "1 + 6 against 3 + 0: Yellow's lancer wins"


def test_PD_CHAR_WMASTER_01_BG_WOUND_02_a_wounded_weapon_master_has_no_techniques():
    """Only the side with a Weapon Master among the fighters has its opponent lay first; a wounded one has lost his
    techniques: the Troll attacking the wounded yellow Weapon Master lays his card in secret, as Yellow does (he
    had to lay it first, face up), and a wounded Weapon Master no longer cancels a sound one."""
    wounded = act(pd_position("bTR@c4 yWM@c5! yGB@h4"), "attack bTR yWM")
    assert wounded.to_act == ("B", "Y") and wounded.combat_first() is None
    sound = act(pd_position("bWM@c4 yWM@c5! yGB@h4"), "attack bWM yWM")
    assert sound.combat_first() == "Y" and sound.to_act == ("Y",)


def test_PD_OBJ_CHARM_02_03_DT_227_a_charmed_figure_has_three_actions_a_potion_included():
    """A charmed figure takes up to 3 actions. Drinking the Speed Potion it carries is one of them and adds none
    (it added 4: 7 charmed actions); a charmed Banshee with one action left is not offered her 2-AP Shockwave
    (it was offered, then refused), the charming player's own AP paying nothing of a charmed figure's."""
    charmed = act(pd_position("bIL@a7 bCH@a7 yMK@c7 ySP@c7 yGB@e9 yWA@h4"), "charm bIL yMK", "drink yMK")
    assert charmed.pools["yMK"] == 2
    spent = act(charmed, "move yMK c6", "move yMK c7")
    assert_refused(spent, "move yMK c6", "PD-OBJ-CHARM-03")
    banshee = act(all_position("bIL@a7 bCH@a7 yBS@c7 bGB@c9 yGB@h4"), "charm bIL yBS", "move yBS d7", "move yBS c7")
    assert banshee.pools["yBS"] == 1 and banshee.ap >= 2 and not legal_set(banshee, verb="push")
    assert_refused(banshee, "push yBS bGB", "PR-CHAR-BANSHEE-01")


def test_PD_OBJ_CHARM_02_03_a_second_charm_in_a_turn_keeps_the_first():
    """Blue's Illusionist and Wizard each read a Charm Scroll (the Wizard carries Yellow's): the Mechanork and the
    Goblin are both charmed, 3 actions each. Only one charmed figure a seat was kept: the Mechanork lost his
    actions to the Goblin's charm. Both act now, and the view names both (`charmed_figures`)."""
    from dungeon_twister.engine import view

    state = act(pd_position("bIL@a7 bCH@a7 bWZ@b9 yCH@b9 yMK@c7 yGB@e9 yWA@h4"), "charm bIL yMK", "charm bWZ yGB")
    assert (state.pools["yMK"], state.pools["yGB"]) == (3, 3)
    assert legal_set(state, token="yMK", verb="move") and legal_set(state, token="yGB", verb="move")
    moved = act(state, "move yMK c6", "move yGB e8")
    assert (where(moved, "yMK"), where(moved, "yGB")) == ("c6", "e8")
    seen = view(state, None)
    assert seen["charmed"] == {"B": "yGB"} and seen["charmed_figures"] == {"B": ["yMK", "yGB"]}


def test_PD_OBJ_SLAYER_01_02_PR_RANGED_05_DT_258_a_shooters_dragon_slayer_sword_neither_adds_nor_slays():
    """DT-258: a shooter's value is its Bow's, « kann weder durch irgendwelche Fähigkeiten noch Gegenstände verändert
    werden » (PR-RANGED-05), and « un drago ferito da una Spada Ammazza Draghi viene immediatamente ucciso » speaks
    of a dragon wounded by the Sword, not by an arrow. The Paladin on c3 carries a Bow and the Dragon-Slayer Sword
    and shoots the yellow Red Dragon on c6: the shot is 1 (no +4), and won with a +6 (7 against 6) it wounds the
    dragon, Blue scoring nothing; the engine slew him (2 VP) with the Sword that had added nothing. Edge: a Warrior
    beside the dragon joins the shot in melee (the group's growth) with the Sword: 1 + 3 + 4 = 8 against 6 with
    two +0, and the dragon is slain (PD-OBJ-SLAYER-02: 2 VP, PD-CHAR-DRAGON-04)."""
    shot = all_position("bPA@c3 bBW@c3 bDS@c3 yRD@c6 yGB@h9")
    after, events = combat_round(shot, "shoot bPA yRD", 6, 0)
    resolved = next(event_view(e, None) for e in events if e.kind == "combat_resolved")
    assert (resolved["attack"], resolved["defence"], resolved["winner"]) == (7, 6, "B")
    assert where(after, "yRD") == "c6!" and after.vp("B") == 0
    melee = all_position("bPA@c3 bBW@c3 bWA@c7 bDS@c7 yRD@c6 yGB@h9")
    after, events = combat_round(melee, "shoot bPA yRD", 0, 0)
    resolved = next(event_view(e, None) for e in events if e.kind == "combat_resolved")
    assert (resolved["attack"], resolved["defence"], resolved["winner"]) == (8, 6, "B")
    assert where(after, "yRD") == "eliminated" and after.vp("B") == 2


def test_PD_CHAR_GOLEM_01_03_RUL_079_an_arrow_slit_counts_as_a_wall_segment():
    """PD-CHAR-GOLEM-01, RUL-079: the Italian text knows no arrow slits (they are Prison's); the reference and
    RUL-079 count a slit as a wall segment the Golem may break, one of his 3 (PD-CHAR-GOLEM-03). The slit
    d14|e14 (room A3, Prison's W1): before, no melee through it and nobody but the Naga crosses it (PR-SLIT-02);
    the Golem on d14 breaks it for 1 AP (marker wall:W1:3, the tile's slits counted after its walls, DT-115), then
    attacks the Goblin across it, and a Goblin walks through, as through an open portcullis (PD-CHAR-GOLEM-06)."""
    state = slit_position("bGO@d14 yGB@e14 yWA@h4")
    assert not legal_set(state, verb="attack") and legal_set(state, verb="smash") == {"smash bGO e"}
    assert_refused(state, "attack bGO yGB", "PR-SLIT-02")
    broken, events = apply_texts(state, "smash bGO e")
    assert dict(broken.marks) == {"wall:W1:3": "bGO"} and broken.ap == state.ap - 1
    assert [event_view(e, None)["left"] for e in events if e.kind == "wall_broken"] == [2]
    assert "attack bGO yGB" in legal_set(broken, verb="attack")
    walker = slit_position("bGO@d14 bGB@c14 yWA@h4")
    assert_refused(walker, "move bGB d14-e14", "PR-SLIT-02")
    assert where(act(walker, "smash bGO e", "move bGB d14-e14"), "bGB") == "e14"


def test_PD_TERR_ROCKFALL_03_06_prisons_large_shield_is_a_shield_over_rockfall():
    """PD-TERR-ROCKFALL-03: « come con qualsiasi altro Scudo », any shield: in a mix, Prison's Large Shield carries
    the Goblin over the Rockfall b18 (a18 to c18) as the Fire Shield does, and lying on b18 it lets him cross
    without it (PD-TERR-ROCKFALL-06). Edge: without it he dies there (1 VP to Yellow), and ending on b18 kills him
    shield or not (RUL-090), the shield staying there."""
    carried = all_position("bGB@a18 bSH@a18 yWA@h4")
    assert "move bGB c18" in legal_set(carried, verb="move", token="bGB")
    assert (where(act(carried, "move bGB b18-c18"), "bGB"), where(act(carried, "move bGB b18-c18"), "bSH")) == \
        ("c18", "c18")
    lying = all_position("bGB@a18 bSH@b18 yWA@h4")
    assert where(act(lying, "move bGB b18-c18"), "bGB") == "c18"
    bare = all_position("bGB@a18 yWA@h4")
    assert_refused(bare, "move bGB b18-c18", "PD-TERR-ROCKFALL-01")
    ended = act(carried, "move bGB b18")
    assert (where(ended, "bGB"), where(ended, "bSH"), ended.vp("Y")) == ("eliminated", "b18", 1)


def test_PD_CHAR_DRAGON_04_05_RUL_076_RUL_012_the_banshee_pushes_the_dragon_and_his_death_scores_2():
    """RUL-076: a push is not his movement: the Banshee pushes the Red Dragon (Mv 0) from c5 to c6. Pushed into the
    pit c8 or onto the Rockfall b18 he dies, and his Prestige counts whatever the cause (RUL-012): 2 VP to Blue."""
    assert where(act(all_position("bBS@c4 yRD@c5 yWA@h4"), "push bBS yRD"), "yRD") == "c6"
    for tokens in ("bBS@c6 yRD@c7 yWA@h4", "bBS@b20 yRD@b19 yWA@h4"):
        after = act(all_position(tokens), "push bBS yRD")
        assert where(after, "yRD") == "eliminated" and after.vp("B") == 2, tokens


def test_PR_CHAR_BANSHEE_06_DT_101_DT_288_a_rope_lying_on_the_pit_does_not_save_the_pushed_ghost():
    """DT-101: a Rope lying on the pit saves the person pushed onto it, who then carries it; DT-288: the Ghost
    carries nothing (PD-CHAR-GHOST-03), so pushed onto the pit c8 where Blue's Rope lies he dies (Yellow +1 VP),
    the Rope staying there. He survived and stood on the pit (review pd27). Edge: the Goblin pushed there lives and
    takes the Rope."""
    ghost = act(all_position("yBS@c5 bGH@c7 bRP@c8 yWA@h4", active="Y"), "push yBS bGH")
    assert (where(ghost, "bGH"), where(ghost, "bRP"), ghost.vp("Y")) == ("eliminated", "c8", 1)
    goblin = act(all_position("yBS@c5 bGB@c7 bRP@c8 yWA@h4", active="Y"), "push yBS bGB")
    assert (where(goblin, "bGB"), where(goblin, "bRP"), goblin.vp("Y")) == ("c8", "c8", 0)


def test_PR_CHAR_BANSHEE_06_DT_101_PD_CHAR_PALADIN_01_no_push_leaves_two_wounded_on_one_square():
    """DT-101: what a person pushed into a pit carried stays on the square it was pushed from. The Paladin on c7
    carries two wounded friends (PD-CHAR-PALADIN-01): pushed into the pit c8 he would die and leave both on c7, two
    wounded characters on one square (BG-GOLD-03, BG-GOLD-04: the action is illegal). The push was listed, then
    refused once chosen (review pd27); it is neither now, citing BG-GOLD-03 on c7. Edge: two objects he carries
    stay stacked there (PD-CHAR-PALADIN-03): that push is listed and kills him; with a Rope he lands on the pit and
    lives, his wounded friend with him."""
    two = all_position("yBS@c5 bPA@c7 bGB@c7! bTR@c7! yWA@h4", active="Y")
    assert not legal_set(two, verb="push")
    assert assert_refused(two, "push yBS bPA", "BG-GOLD-03").values == {"square": "c7"}
    objects = all_position("yBS@c5 bPA@c7 bSW@c7 bAR@c7 yWA@h4", active="Y")
    assert legal_set(objects, verb="push") == {"push yBS bPA"}
    fell = act(objects, "push yBS bPA")
    assert (where(fell, "bPA"), where(fell, "bSW"), where(fell, "bAR"), fell.vp("Y")) == ("eliminated", "c7", "c7", 1)
    roped = act(all_position("yBS@c5 bPA@c7 bGB@c7! bRP@c7 yWA@h4", active="Y"), "push yBS bPA")
    assert (where(roped, "bPA"), where(roped, "bGB"), where(roped, "bRP")) == ("c8", "c8!", "c8")
