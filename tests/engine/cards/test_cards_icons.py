"""DT-266: a facing chosen towards a face-down room is one of its card's icons (CG-START-02/03/04/05, CG-EX-02,
CG-EX-04): the player learns where that zone lies only when the room is revealed. Maze: builders.py (blue1 in A,
unturned: R a1, C b1, T a2, S b2; green1 in B: C c1, R d1, S c2, T d2)."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from dungeon_twister.engine.cards import Face, Move, apply, legal_actions, parse_action, view
from dungeon_twister.engine.cards.notation import format_action, format_position, parse_position
from dungeon_twister.engine.cards.typed import legal_texts
from dungeon_twister.engine.core.errors import IllegalAction, NotationError

from .builders import DEFAULT_ROOMS, act, build, refused, z

A_DOWN = (False, True, True, True)
"""Room A (blue1, in front of B1) face down, the others face up."""


def test_DT_266_CG_EX_02_CG_START_03_04_the_triangle_turns_out_not_to_touch_the_start_zone():
    """CG-EX-02: the blue Snake-man (Mv 3) on B1 points the triangle at room A, face down. Revealed (1 AP), blue1
    unturned shows its triangle in a2, the back row: « il fait face à la zone «triangle», ce qui est impossible ».
    Entering a2 is refused (it does not touch the start zone, CG-START-03), and so is a1 (he does not face it); he
    turns to face the rotation zone a1 (1 movement point, CG-START-04), enters it (the 2nd) and may go on with his
    3rd (a1 to a2 is open); a 4th is refused (CG-MOVE-01). Before the reveal he could not enter at all."""
    s = build({"bSN": "B1>T", "yMK": "c4"}, revealed=A_DOWN)
    assert "reveal the room first" in refused(s, "move bSN a1", "CG-START-03").message
    shown = act(s, "reveal bSN A")
    assert shown.fig("bSN").facing == z("a2") and shown.maze.icon(z("a2")) == "T" and shown.player("B").ap == 2
    assert "does not touch the start zone" in refused(shown, "move bSN a2", "CG-START-03").message
    # the refusal says the move that works (play-test pt29 F21: a newcomer tried three others first), and that
    # the zone faced is out of reach (play-test pl31 read "enter only the zone you face (a2)" and tried a2)
    assert refused(shown, "move bSN a1", "CG-START-03").message == (
        "you face a2, which does not touch your start zone: turn and enter in one move, `move bSN ^a1 a1`")
    circle = act(build({"bSN": "B1>C", "yMK": "c4"}, revealed=A_DOWN), "reveal bSN A")
    assert circle.fig("bSN").facing == z("b1"), "the circle, in b1, touches the start zone"
    assert refused(circle, "move bSN a1", "CG-START-03").message == (
        "enter only the zone you face (b1): turn and enter in one move, `move bSN ^a1 a1`")
    turned = act(shown, "move bSN ^a1")
    assert turned.fig("bSN").facing == z("a1") and turned.fig("bSN").where == "start"
    entered = act(shown, "move bSN ^a1 a1 a2")
    assert entered.fig("bSN").at == z("a2") and entered.player("B").ap == 1
    refused(shown, "move bSN ^a1 a1 a2 a1", "CG-MOVE-01")
    assert not any(isinstance(a, Move) and a.figure == "bSN" and a.path[-1] in ("a1", "b1", "a2", "b2")
                   and a.path[0] != "B2^c1" for a in legal_actions(s, "B"))


def test_DT_266_CG_REVEAL_05_the_same_icon_lies_where_the_hidden_orientation_puts_it():
    """CG-REVEAL-05: the room is turned face up in its hidden orientation, and the triangle the Snake-man pointed
    at it lies where that puts it. blue1 turned three times (a quarter turn anticlockwise) puts it in a1, whose
    open west side now faces the start zone: he enters at once (1 movement point). Turned twice, it lies in b1
    behind the wall printed along its top edge: no entry (CG-START-03). Turned once, in b2, the back row."""
    def shown(turns):
        s = build({"bSN": "B1>T", "yMK": "c4"}, rooms=(("blue1", turns),) + DEFAULT_ROOMS[1:], revealed=A_DOWN)
        return act(s, "reveal bSN A")

    three = shown(3)
    assert three.fig("bSN").facing == z("a1") and three.maze.icon(z("a1")) == "T"
    assert act(three, "move bSN a1").fig("bSN").at == z("a1")
    two = shown(2)
    assert two.fig("bSN").facing == z("b1") and two.maze.icon(z("b1")) == "T"
    assert "wall" in refused(two, "move bSN b1", "CG-START-03").message
    assert shown(1).fig("bSN").facing == z("b2")


def test_DT_266_CG_START_04_05_the_legal_list_offers_icons_of_a_face_down_room_and_apply_refuses_places():
    """Turning on B1 in front of face-down room A (CG-START-04) offers the three other icons, no place of A; a step
    along the start zone to B1 (CG-START-05) faces an icon too. `apply` refuses a place there, an icon where the
    room is face up, and a letter that is no icon of the card, each with its rule."""
    s = build({"bSN": "B1>T", "bMK": "B2>c1", "yMK": "c4"}, revealed=A_DOWN)
    texts = legal_texts(s, "B")
    assert {t for t in texts if t.startswith("move bSN ^") and len(t.split()) == 3} == {
        "move bSN ^S", "move bSN ^C", "move bSN ^R"}
    assert {t for t in texts if t.startswith("move bMK B1^")} == {f"move bMK B1^{i}" for i in "TSCR"}
    assert not any(f"^{c}{n}" in t for t in texts for c in "ab" for n in (1, 2))
    assert act(s, "move bSN ^S").fig("bSN").facing == "S"
    assert act(s, "move bMK B1^R").fig("bMK").facing == "R"
    assert "not a zone (DT-266)" in refused(s, "move bSN ^a1", "CG-START-04").message
    refused(s, "move bSN ^T", "CG-START-04")  # the icon it points already
    assert "not a zone (DT-266)" in refused(s, "move bMK B1^a1", "CG-START-05").message
    assert "not an icon (DT-266)" in refused(s, "move bMK ^T", "CG-START-04").message  # room B is face up
    assert "not an icon (DT-266)" in refused(s, "move bSN B2^T", "CG-START-05").message
    with pytest.raises(IllegalAction) as e:
        apply(s, Move("B", "bSN", ("^X",)))
    assert e.value.rule == "CG-START-04"


def test_DT_266_CG_START_02_the_setup_facing_is_an_icon_the_card_carries():
    """CG-START-02 at the setup (every room face down): `face` takes icons; a zone, or a letter that is no icon of
    the room card, is refused with CG-START-02."""
    from dungeon_twister.engine.cards import CardOptions, new_game

    s = new_game(CardOptions(tutorial=1), 3)
    s = act(act(s, "hide bMK:1 bSN:2", "B"), "hide yMK:2 ySN:2", "Y")
    while s.phase == "seed":
        s = apply(s, legal_actions(s, s.seeder)[0])[0]
    assert {f for a in legal_actions(s, "B") for _, f in a.facings} == {"T", "S", "C", "R"}
    refused(s, "face bMK:a1 bSN:T", "CG-START-02")
    with pytest.raises(IllegalAction) as e:
        apply(s, Face("B", (("bMK", "X"), ("bSN", "T"))))
    assert (e.value.rule, e.value.message) == ("CG-START-02", "bMK: X is not an icon of that room card (T, S, C, R)")


def test_DT_266_CG_CHAR_TELEKIN_01_an_object_along_the_start_zone_points_an_icon_too():
    """CG-CHAR-TELEKIN-01/03 (DT-221): an object moved along the start zone goes as a character does: in front of
    face-down room A it faces an icon (`B1^T`), not a place."""
    s = build({"bTK": "c1", "yMK": "c4"}, items={"bKY": "c1"}, revealed=A_DOWN)
    texts = legal_texts(s, "B")
    assert "levitate bTK bKY B2 B1^T" in texts and not any("B1^a" in t or "B1^b" in t for t in texts)
    assert act(s, "levitate bTK bKY B2 B1^T").item("bKY").at == ("B", 0)
    refused(s, "levitate bTK bKY B2 B1^a1", "CG-START-05")


def _bytes(state, viewer) -> bytes:
    return json.dumps(view(state, viewer), sort_keys=True).encode()


def test_DT_266_CG_REVEAL_05_no_view_tells_where_an_icon_lies_before_the_reveal():
    """Two positions that differ only in face-down room A's hidden orientation (CG-REVEAL-05), with a blue
    character pointing its triangle at A: the same view bytes for Blue, Yellow and a spectator, and the same legal
    texts for both seats; still so after he turns to another icon. The view shows the icon (`facing_icon`), public
    once the teams are revealed (CG-START-02), and no zone. Once A is revealed they differ (the test can tell)."""
    def position(turns):
        return build({"bSN": "B1>T", "bMK": "B2>c1", "yMK": "c4"}, rooms=(("blue1", turns),) + DEFAULT_ROOMS[1:],
                     revealed=A_DOWN)

    states = [position(t) for t in range(4)]
    for turned in ([s for s in states], [act(s, "move bSN ^C") for s in states]):
        for viewer in ("B", "Y", None):
            assert len({_bytes(s, viewer) for s in turned}) == 1
        for seat in ("B", "Y"):
            assert len({tuple(legal_texts(s, seat)) for s in turned}) == 1
    bsn = next(f for f in view(states[0], "Y")["figures"] if f["id"] == "bSN")
    assert bsn["facing"] is None and bsn["facing_icon"] == "T"
    shown = [act(s, "reveal bSN A") for s in states]
    assert len({s.fig("bSN").facing for s in shown}) == 4
    assert len({_bytes(s, "Y") for s in shown}) == 4
    assert "facing_icon" not in next(f for f in view(shown[0], "Y")["figures"] if f["id"] == "bSN")


def test_DT_266_notation_round_trips_icons_and_positions_hold_what_the_rules_produce():
    """The notation: `face bMK:T bSN:c1`, `^R`, `B2^S` read and write back; a position writes an icon as its letter
    and is refused when a start character faces a zone of a face-down room or an icon of a face-up one."""
    for text in ("face bMK:T bSN:c1", "move bMK ^R B2^S", "move bMK B2^c1 c1", "levitate bTK bKY B2 B1^C"):
        assert format_action(parse_action(text, "B")) == text
    assert parse_action("face bMK:T bSN:c1", "B").facings == (("bMK", "T"), ("bSN", z("c1")))
    with pytest.raises(NotationError):
        parse_action("move bMK ^X", "B")
    # an icon's letter in either case (play-test pt22b typed `:t`), written in capitals: a zone has its number
    assert format_action(parse_action("face bMK:t bSN:c1", "B")) == "face bMK:T bSN:c1"
    s = build({"bSN": "B1>T", "bMK": "B2>c1", "yMK": "c4"}, revealed=A_DOWN)
    assert parse_position(format_position(s)) == s
    for wrong in (s.with_figure(replace(s.fig("bSN"), facing=z("a1"))),  # a place of face-down A
                  s.with_figure(replace(s.fig("bMK"), facing="C"))):  # an icon pointed at face-up B
        with pytest.raises(NotationError) as e:
            parse_position(format_position(wrong))
        assert "DT-266" in e.value.message
