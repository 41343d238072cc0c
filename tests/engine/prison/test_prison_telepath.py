"""The Telepath's Mind control (PR-CHAR-TELEPATH-01..04): `mind +N` / `mind none` before the cards of a single
melee. Positions on the synthetic rooms (tests/engine/prison/builders.py); rooms A1 and B1 are empty floor."""

from __future__ import annotations

from dungeon_twister.engine import event_view, secret_purpose, timeout_action, view

from ..builders import act, apply_texts, assert_refused, legal_set
from .builders import prison_position

NAMES = {"mind none", *(f"mind +{v}" for v in range(1, 7))}


def test_PR_CHAR_TELEPATH_01_before_the_cards_his_player_may_name_a_value():
    """Blue's Naga attacks Yellow's Telepath: Yellow names first (a public step, no secret purpose), then the cards."""
    state = act(prison_position("bNG@c3 yTP@c4 yMK@h5"), "attack bNG yTP")
    assert state.to_act == ("Y",) and legal_set(state, seat="Y") == NAMES
    assert secret_purpose(state, "Y") is None and secret_purpose(state, "B") is None
    waiting = assert_refused(state, "combat +3", "BG-COMBAT-02", seat="B")
    assert waiting.message == "wait for the other player in this combat"  # (he names a value, no card yet)
    first = assert_refused(state, "combat +3", "PR-CHAR-TELEPATH-01", seat="Y")  # nor his own card before naming
    assert first.message == "the Telepath's player names a card first"
    named, events = apply_texts(state, "mind +3", seat="Y")
    assert named.to_act == ("B", "Y") and secret_purpose(named, "B") == "combat-1"
    assert [event_view(e, None) for e in events] == [{"kind": "mind_named", "seat": "Y", "value": 3, "held": True}]


def test_PR_CHAR_TELEPATH_01_the_opponent_holding_the_value_must_play_it():
    state = act(prison_position("bNG@c3 yTP@c4 yMK@h5"), "attack bNG yTP", "mind +3")
    assert legal_set(state, seat="B", verb="combat") == {"combat +3"}
    assert legal_set(state, seat="Y", verb="combat") == {f"combat +{v}" for v in (0, 1, 2, 3, 4, 5, 6)}
    assert_refused(state, "combat +6", "PR-CHAR-TELEPATH-01", seat="B")
    assert timeout_action(state, "B").value == 3  # a forced card is played on a timeout too (DT-108)
    after, events = apply_texts(state, "combat +3", seat="B")
    after, more = apply_texts(after, "combat +0", seat="Y")
    resolved = next(event_view(e, None) for e in events + more if e.kind == "combat_resolved")
    assert (resolved["attack"], resolved["defence"], resolved["winner"]) == (2 + 3, 0 + 0, "B")


def test_BG_COMBAT_06_PR_CHAR_TELEPATH_01_a_card_not_in_hand_is_explained_from_the_choices_alone():
    """A client refuses a secret card before committing it, from its legal choices (`choice_refusal`): Blue without
    his +6 typing `combat +6` breaks BG-COMBAT-06, as apply says; once a Telepath named +3, which Blue holds, his one
    choice says nothing of his hand, and nothing is claimed (apply: PR-CHAR-TELEPATH-01)."""
    from dungeon_twister.engine import CombatCard, apply, legal_actions
    from dungeon_twister.engine.families import BOARD

    from ..builders import refusal_from_choices

    short = act(prison_position("bNG@c3 yTP@c4 yMK@h5", cards="B:2345/-/01223345/3 Y:2345/-/012233456/3"),
                "attack bNG yTP", "mind none")
    for value in range(8):
        refused_with = refusal_from_choices(apply, BOARD.choice_refusal, short, CombatCard("B", value),
                                            legal_actions(short, "B"))
        assert refused_with == (None if value < 6 else (
            "BG-COMBAT-06", "you have no +{value} combat card in hand", {"value": value})), value
    forced = act(prison_position("bNG@c3 yTP@c4 yMK@h5"), "attack bNG yTP", "mind +3")
    assert BOARD.choice_refusal(CombatCard("B", 6), legal_actions(forced, "B")) is None
    assert_refused(forced, "combat +6", "PR-CHAR-TELEPATH-01", seat="B")


def test_PR_CHAR_TELEPATH_02_not_held_the_hand_is_shown_to_his_player_only_then_any_card():
    """Blue has played his +6 already: Yellow names +6, sees Blue's hand (0 1 2 2 3 3 4 5), Blue plays anything."""
    state = act(prison_position("bNG@c3 yTP@c4 yMK@h5", cards="B:2345/-/01223345/3 Y:2345/-/012233456/3"),
                "attack bNG yTP")
    named, events = apply_texts(state, "mind +6", seat="Y")
    (event,) = events
    assert event_view(event, "Y") == {"kind": "mind_named", "seat": "Y", "value": 6, "held": False,
                                      "hand": [0, 1, 2, 2, 3, 3, 4, 5]}
    assert event_view(event, "B") == event_view(event, None) == {"kind": "mind_named", "seat": "Y", "value": 6,
                                                                 "held": False}
    assert view(named, "Y")["combat"]["mind"]["hand"] == [0, 1, 2, 2, 3, 3, 4, 5]
    assert "hand" not in view(named, None)["combat"]["mind"]
    assert legal_set(named, seat="B", verb="combat") == {f"combat +{v}" for v in (0, 1, 2, 3, 4, 5)}


def test_PR_CHAR_TELEPATH_01_naming_is_optional_and_times_out_to_nothing():
    state = act(prison_position("bTP@c3 yNG@c4 yMK@h5"), "attack bTP yNG")  # attacking works the same
    assert state.to_act == ("B",) and timeout_action(state, "B").value is None
    after = act(state, "mind none", seat="B")
    assert legal_set(after, seat="Y", verb="combat") == {f"combat +{v}" for v in (0, 1, 2, 3, 4, 5, 6)}


def test_PR_CHAR_TELEPATH_03_not_in_group_or_ranged_combat():
    group = act(prison_position("bNG@c3 bAS@d4 yTP@c4 yMK@h5"), "attack bNG yTP")
    assert len(group.combat.attackers) == 2 and group.to_act == ("B", "Y")
    assert not legal_set(group, verb="mind")
    shot = act(prison_position("bCL@c1 bBW@c1 yTP@c4 yMK@h5"), "shoot bCL yTP")
    assert shot.to_act == ("B", "Y") and not legal_set(shot, verb="mind")


def test_PR_CHAR_TELEPATH_04_two_telepaths_cancel():
    state = act(prison_position("bTP@c3 yTP@c4 yMK@h5"), "attack bTP yTP")
    assert state.to_act == ("B", "Y") and state.combat.telepath is None
    assert_refused(state, "mind +3", "PR-CHAR-TELEPATH-01", seat="B")


def test_DT_223_the_naming_is_a_lone_step_with_its_own_deadline_and_its_fallback():
    """On a timed table the naming has the combat card's deadline: the clock names the namer's seat and a key of
    that combat's naming (server/deadlines.py times it); the cards that follow are a secret round again (no step).
    The deadline's fallback is the timeout action: nothing named."""
    from dungeon_twister.engine.boardgame.timeouts import clock

    state = act(prison_position("bNG@c3 yTP@c4 yMK@h5"), "attack bNG yTP")
    assert clock(state).step == ("Y", (1, "naming")) and clock(state).running is False
    assert timeout_action(state, "Y").value is None
    assert clock(act(state, "mind none", seat="Y")).step is None


def test_PR_CHAR_TELEPATH_01_03_04_DT_269_a_positions_naming_is_one_the_rules_could_make():
    """Found by a rules review (2026-11-30, helper pr27): the position reader took any `mind=` field, and the game
    then went on from it: Yellow's player named a card in a group combat (`att=bAS,bNG`), in a shot, in a combat
    with two Telepaths or none, or for the other side's Telepath, and the opponent had to play it; a card could lie
    while the naming was pending; a single melee against the Telepath could lack the naming. The declaration always
    decides it (DT-108: a single melee with one unwounded Telepath, PR-CHAR-TELEPATH-03/04), and nothing changes it
    before the cards, so the reader now refuses what no declaration leaves (DT-269)."""
    from dungeon_twister.engine import parse_position
    from dungeon_twister.engine.core.errors import PositionError

    from ..builders import position_text

    def refused(tokens: str, combat: str, rule: str, message: str) -> None:
        text = position_text(tokens, set_name="synthetic_prison", phase="combat", fields=f"combat 1 {combat}")
        try:
            parse_position(text)
        except PositionError as error:
            assert (error.rule, error.field, error.message) == (rule, "combat", message), error
        else:
            raise AssertionError(f"accepted: {combat}")

    single = "bNG@c3 yTP@c4 yBS@h5"
    assert parse_position(position_text(single, set_name="synthetic_prison", phase="combat",
                                        fields="combat 1 bNG>yTP att=bNG def=yTP mind=Y?")).combat.naming
    refused("bNG@c3 bAS@d4 yTP@c4 yBS@h5", "bNG>yTP att=bAS,bNG def=yTP mind=Y?", "PR-CHAR-TELEPATH-03",
            "mind=Y?: no Telepath names a card in a group combat")
    refused("bCL@c1 bBW@c1 yTP@c4 yBS@h5", "bCL>yTP att=- def=yTP shot=bCL mind=Y?", "PR-CHAR-TELEPATH-03",
            "mind=Y?: no Telepath names a card in a shot")
    refused("bTP@c3 yTP@c4 yBS@h5", "bTP>yTP att=bTP def=yTP mind=Y?", "PR-CHAR-TELEPATH-04",
            "mind=Y?: two Telepaths cancel each other, nobody names a card")
    refused("bNG@c3 yMK@c4 yBS@h5", "bNG>yMK att=bNG def=yMK mind=B3", "PR-CHAR-TELEPATH-01",
            "mind=B3: no unwounded Telepath of B fights this single melee")
    refused(single, "bNG>yTP att=bNG def=yTP mind=B?", "PR-CHAR-TELEPATH-01",
            "mind=B?: no unwounded Telepath of B fights this single melee")
    refused(single, "bNG>yTP att=bNG def=yTP mind=Y? cards=B:3", "PR-CHAR-TELEPATH-01",
            "mind=Y?: the Telepath's player names a card before any card is laid")
    refused(single, "bNG>yTP att=bNG def=yTP", "PR-CHAR-TELEPATH-01",
            "a single melee with Y's Telepath: his player names a card or none first (mind=Y?, Y-, Y1..Y6)")
    lanced = "bCO@c1 bLN@c1 yTP@c3 yBS@h5"  # RUL-118: a lone lance combat is a single melee
    assert parse_position(position_text(lanced, set_name="synthetic_prison", phase="combat",
                                        fields="combat 1 bCO>yTP att=- def=yTP lance=bCO mind=Y-")).combat.telepath == "Y"
    refused(lanced, "bCO>yTP att=- def=yTP lance=bCO", "PR-CHAR-TELEPATH-01",
            "a single melee with Y's Telepath: his player names a card or none first (mind=Y?, Y-, Y1..Y6)")
