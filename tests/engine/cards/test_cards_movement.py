"""Rule tests of the card game's turn, start zones, movement, objects, exits and jumps (CG-TURN, CG-START, CG-MOVE,
CG-ITEM, CG-EXIT, CG-BLOCK, CG-JUMP, CG-GOLD, CG-SLIT, CG-OBJ-ROPE, CG-OBJ-KEY). Maze: builders.py."""

from __future__ import annotations

from dataclasses import replace

import pytest

from dungeon_twister.engine.cards import EndTurn, Jump, Move, Portcullis, apply, legal_actions, parse_action
from dungeon_twister.engine.core.events import event_view
from dungeon_twister.engine.core.errors import IllegalAction

from .builders import act, build, refused, z


# --- CG-TURN ---------------------------------------------------------------------------------------------------

def test_CG_TURN_04_05_EX_01_wheel_carries_at_most_3():
    """CG-EX-01: 1 AP left + 3 = 4; CG-TURN-05: 5 left at the end is cut to 3, the opponent gains 3."""
    s = build({"bMK": "a1", "yMK": "c4"}, ap=(1, 0))
    s = act(s, "end")
    assert s.active == "Y" and s.player("B").ap == 1 and s.player("Y").ap == 3
    s = act(s, "end", "Y")
    assert s.player("B").ap == 4 and s.player("Y").ap == 3 and s.turn == 5
    s = build({"bMK": "a1", "yMK": "c4"}, ap=(5, 2))
    s = act(s, "end")
    assert s.player("B").ap == 3 and s.player("Y").ap == 5


def test_CG_TURN_06_never_more_than_6():
    """CG-TURN-06: 3 carried + 3 gained = 6 at most."""
    s = build({"bMK": "a1", "yMK": "c4"}, ap=(0, 6), active="Y")
    s = act(s, "end", "Y")
    s = act(s, "end")
    assert s.player("Y").ap == 6


def test_CG_TURN_07_each_action_costs_1_ap_and_none_without():
    """CG-TURN-07: a move costs 1 AP; with 0 AP it is refused; only the active player acts (CG-TURN-01)."""
    s = build({"bMK": "a1", "yMK": "c4"}, ap=(1, 3))
    s2 = act(s, "move bMK b1")
    assert s2.player("B").ap == 0
    refused(s2, "move bMK a1", "CG-TURN-07")
    refused(s, "move yMK c3", "CG-TURN-01", "Y")
    assert [type(a) for a in legal_actions(s2)] == [EndTurn]


# --- CG-START --------------------------------------------------------------------------------------------------

def test_CG_START_03_enter_only_the_faced_zone_touching_the_start_zone():
    """CG-START-03 / CG-EX-02: facing a2 (not touching the start zone) it cannot enter; it turns (1 MP) to a1
    then enters (1 MP): Mechanork's 2 MP are spent, a third step is refused (CG-MOVE-01)."""
    s = build({"bMK": "B1>a2", "yMK": "c4"})
    refused(s, "move bMK a2", "CG-START-03")
    refused(s, "move bMK a1", "CG-START-03")
    s2 = act(s, "move bMK ^a1 a1")
    assert s2.fig("bMK").where == "maze" and s2.fig("bMK").at == z("a1") and s2.player("B").ap == 2
    error = refused(s, "move bMK ^a1 a1 b1", "CG-MOVE-01")
    # (not "2 zone(s)": a play-test read "zona(s)"; the number is the Mechanork's movement)
    assert str(error).endswith("bMK's movement is 2: no further in one action"), str(error)


def test_CG_START_03_a_wall_on_the_start_border_closes_the_zone():
    """CG-START-03: green1 prints a wall south of d1: facing d1 from B2, no entry; c1 is open."""
    s = build({"bMK": "B2>d1", "yMK": "c4"})
    refused(s, "move bMK d1", "CG-START-03")
    s2 = act(s, "move bMK ^c1 c1")
    assert s2.fig("bMK").at == z("c1")


def test_CG_START_04_turning_only_to_another_zone_of_the_room_in_front():
    """CG-START-04: turning costs 1 MP; turning to the zone already faced or to another room is refused."""
    s = build({"bMK": "B1>a1", "yMK": "c4"})
    s2 = act(s, "move bMK ^b2")
    assert s2.fig("bMK").facing == z("b2") and s2.fig("bMK").where == "start" and s2.player("B").ap == 2
    refused(s, "move bMK ^a1", "CG-START-04")
    refused(s, "move bMK ^c1", "CG-START-04")


def test_CG_START_05_step_along_the_start_zone():
    """CG-START-05: 1 MP to stand in front of the other room, facing a zone of that room; then enter (2nd MP)."""
    s = build({"bMK": "B1>a1", "yMK": "c4"})
    s2 = act(s, "move bMK B2^c1 c1")
    assert s2.fig("bMK").at == z("c1")
    refused(s, "move bMK B2^a1", "CG-START-05")
    refused(s, "move bMK B1^a2", "CG-START-05")
    # a start position with no facing: the step along names the zone faced there; any other is no entry (they read
    # « CG-MOVE-02 not a zone: 'B2' », a notation message: review cg23)
    assert refused(s, "move bMK B2", "CG-START-05").message == ("along the start zone to the other room, facing one "
                                                                "of its zones")
    assert refused(s, "move bMK Y2", "CG-START-03").message == "enter only the zone you face"
    refused(s, "move bMK B1", "CG-START-03")


def test_CG_START_06_coming_back_faces_the_zone_left():
    """CG-START-06: a1 -> own start position B1 costs 1 MP; it then faces a1; it may go on stepping."""
    s = build({"bSN": "b1", "yMK": "c4"})
    s2 = act(s, "move bSN B1")
    f = s2.fig("bSN")
    assert (f.where, f.at, f.facing) == ("start", 0, z("b1"))
    s3 = act(s, "move bSN B1 B2^c1 c1")
    assert s3.fig("bSN").at == z("c1")


def test_CG_START_07_a_start_position_counts_as_a_zone_for_GOLD_02():
    """CG-START-07 / CG-GOLD-02: a 4th blue character at B1 is refused; at B2 it is fine."""
    s = build({"bMK": "B1>a1", "bMK2": "B1>a1", "bSN": "B1>b1", "bSN2": "a1", "yMK": "c4"})
    refused(s, "move bSN2 B1", "CG-GOLD-02")
    s2 = act(s, "move bSN2 b1 c1 B2")
    assert s2.fig("bSN2").where == "start" and s2.fig("bSN2").at == 1


# --- CG-MOVE ---------------------------------------------------------------------------------------------------

def test_CG_MOVE_01_partial_and_counted_moves():
    """CG-MOVE-01: the Snake-man moves up to 3 zones, the Mechanork 2; a partial move is fine."""
    s = build({"bSN": "a1", "bMK": "a1", "yMK": "c4"})
    assert act(s, "move bSN b1").fig("bSN").at == z("b1")
    assert act(s, "move bSN b1 a1 b1").fig("bSN").at == z("b1")
    refused(s, "move bSN b1 a1 b1 a1", "CG-MOVE-01")
    refused(s, "move bMK b1 a1 b1", "CG-MOVE-01")


def test_CG_MOVE_02_steps_go_to_adjacent_face_up_zones():
    """CG-MOVE-02: no skipping zones, no diagonal (CG-GOLD-05), no face-down room."""
    s = build({"bSN": "a1", "yMK": "d4"}, revealed=(True, False, True, True))
    refused(s, "move bSN b2", "CG-MOVE-02")  # diagonal
    refused(s, "move bSN a3", "CG-MOVE-02")  # two rows up
    refused(s, "move bSN b1 c1", "CG-MOVE-02")  # face-down room B


def test_CG_MOVE_06_walls_pits_and_portcullises_stop_a_move():
    """CG-MOVE-06: a2|a3 wall, b1|b2 pit, a2|b2 closed portcullis are refused for the Mechanork, each refusal
    saying what closes the border (it said "the border b1-b2 is closed to it" at the pit: a play-test)."""
    s = build({"bMK": "a2", "bMK2": "b1", "yMK": "d4"})
    assert refused(s, "move bMK a3", "CG-MOVE-06").message == "the border a2-a3 is a wall"
    assert refused(s, "move bMK b2", "CG-MOVE-06").message == "the border a2-b2 is a closed portcullis"
    assert refused(s, "move bMK2 b2", "CG-MOVE-06").message == "the border b1-b2 is a pit: crossing it takes a Rope, or a jump"


def test_CG_MOVE_06_CG_START_03_DT_207_a_pit_on_a_start_border_is_crossed_with_a_rope_never_jumped():
    """Green2 prints a pit north of d4, on Yellow's start border at Y2. The refusals said « it takes a Rope, or a
    jump », but no jump goes from or onto a start zone (DT-207): the blue Mechanork's exit from d4 and the yellow
    Mechanork's entry from Y2 now say a Rope; with one each crosses (DT-205)."""
    s = build({"bMK": "d4", "yMK": "Y2>d4", "ySN": "a1"}, ap=(3, 3))
    assert refused(s, "move bMK Y2", "CG-MOVE-06").message == "the border d4-Y2 is a pit: crossing it takes a Rope"
    entry = build({"bMK": "d3", "yMK": "Y2>d4", "ySN": "a1"}, ap=(3, 3), active="Y")
    assert refused(entry, "move yMK d4", "CG-START-03", "Y").message == "the border Y2-d4 is a pit: crossing it takes a Rope"
    roped = build({"bMK": "d4", "yMK": "Y2>c4", "ySN": "a1"}, {"bRP": "@bMK"}, ap=(3, 3))
    assert act(roped, "move bMK Y2").player("B").vp == 1  # (the yellow Mechanork faces c4: no block)
    roped_entry = build({"bMK": "d3", "yMK": "Y2>d4", "ySN": "a1"}, {"yRP": "@yMK"}, ap=(3, 3), active="Y")
    assert act(roped_entry, "move yMK d4", "Y").fig("yMK").at == z("d4")


def test_CG_SLIT_01_only_the_snake_man_passes_an_arrow_slit():
    """CG-SLIT-01 / CG-CHAR-SNAKEMAN-01: the a3|a4 slit: the Mechanork is refused, the Snake-man passes, even
    carrying an object."""
    s = build({"bMK": "a3", "bSN": "a3", "yMK": "d4"}, items={"bKY": "@bSN"})
    assert refused(s, "move bMK a4", "CG-MOVE-06").message == "the border a3-a4 is an arrow slit"
    s2 = act(s, "move bSN a4")
    assert s2.fig("bSN").at == z("a4") and s2.fig("bSN").carries == ("bKY",)


def test_CG_OBJ_ROPE_01_rope_crosses_pits():
    """CG-OBJ-ROPE-01: b1|b2 is a pit: refused without the Rope, allowed with it; picking the Rope up on the way
    (CG-ITEM-01) lets the same move cross (CG-EX-04)."""
    s = build({"bMK": "b1", "bSN": "a1", "yMK": "d4"}, items={"bRP": "b1"})
    refused(s, "move bMK b2", "CG-MOVE-06")
    s2 = act(s, "move bMK +bRP b2")
    assert s2.fig("bMK").at == z("b2") and s2.fig("bMK").carries == ("bRP",) and s2.item("bRP").at == "bMK"
    s3 = act(s, "move bSN b1 +bRP b2")
    assert s3.fig("bSN").at == z("b2") and s3.player("B").ap == 2


def test_CG_MOVE_04_entering_an_enemy_zone_leaves_only_the_way_in():
    """CG-MOVE-04 / RUL-104: into c1 (yellow there) from b1: going on to d1... refused, back to b1 allowed; the
    restriction lasts the turn (a later move) and ends with it."""
    s = build({"bSN": "a1", "yMK": "b1"}, items={"yKY": "d4"})
    refused(s, "move bSN b1 c1", "CG-MOVE-04")
    assert act(s, "move bSN b1 a1").fig("bSN").at == z("a1")
    s2 = act(s, "move bSN b1")
    assert s2.fig("bSN").pin == "W"
    refused(s2, "move bSN B1", "CG-MOVE-04")
    assert act(s2, "move bSN a1").fig("bSN").at == z("a1")
    s3 = act(act(s2, "end"), "end", "Y")
    assert s3.fig("bSN").pin is None
    assert act(s3, "move bSN B1").fig("bSN").where == "start"


def test_CG_MOVE_03_friends_and_wounded_enemies_do_not_stop_a_move():
    """CG-MOVE-03: crossing a zone with a friend or a wounded enemy is free."""
    s = build({"bSN": "a1", "bMK": "b1", "yMK": ("a2", {"wounded": True}), "ySN": "d4"})
    assert act(s, "move bSN b1 c1 B2").fig("bSN").where == "start"
    s2 = build({"bSN": "a1", "yMK": ("b1", {"wounded": True}), "ySN": "d4"})
    s3 = act(s2, "move bSN b1 c1")
    assert s3.fig("bSN").at == z("c1") and s3.fig("bSN").pin is None


# --- CG-ITEM ---------------------------------------------------------------------------------------------------

def test_CG_ITEM_01_04_pick_up_drop_and_swap_for_one_ap():
    """CG-ITEM-04: a 0-zone move that only picks up costs 1 AP; CG-ITEM-01: dropping; taking a floor object while
    carrying swaps them; an empty move is refused."""
    s = build({"bMK": "a1", "yMK": "d4"}, items={"bRP": "a1", "bKY": "b1"})
    s2 = act(s, "move bMK +bRP")
    assert s2.fig("bMK").carries == ("bRP",) and s2.player("B").ap == 2 and s2.fig("bMK").at == z("a1")
    s3 = act(s2, "move bMK b1 +bKY")
    assert s3.fig("bMK").carries == ("bKY",) and s3.item("bRP").where == "floor" and s3.item("bRP").at == z("b1")
    s4 = act(s2, "move bMK b1 -bRP a1")
    assert s4.fig("bMK").carries == () and s4.item("bRP").at == z("b1")
    refused(s, "move bMK +bKY", "CG-ITEM-01")
    with pytest.raises(IllegalAction) as e:
        apply(s, Move("B", "bMK", ()))
    assert e.value.rule == "CG-ITEM-04"


def test_CG_ITEM_03_exchange_with_a_friend_passed():
    """CG-ITEM-03 / CG-EX-05: the Snake-man with the Key passes the Mechanork with the Rope: they swap at no cost,
    then the Rope carries him over the b1|b2 pit."""
    s = build({"bSN": "a1", "bMK": "b1", "yMK": "d4"}, items={"bKY": "@bSN", "bRP": "@bMK"})
    s2 = act(s, "move bSN b1 +bRP b2")
    assert s2.fig("bSN").carries == ("bRP",) and s2.fig("bMK").carries == ("bKY",) and s2.item("bKY").at == "bMK"
    assert s2.player("B").ap == 2


def test_CG_ITEM_03_give_needs_empty_hands():
    """CG-ITEM-03: giving to a friend who carries something is refused; to an empty-handed friend it works."""
    s = build({"bSN": "a1", "bMK": "b1", "yMK": "d4"}, items={"bKY": "@bSN", "bRP": "@bMK"})
    refused(s, "move bSN b1 >bMK", "CG-ITEM-03")
    s2 = build({"bSN": "a1", "bMK": "b1", "yMK": "d4"}, items={"bKY": "@bSN"})
    s3 = act(s2, "move bSN b1 >bMK")
    assert s3.fig("bMK").carries == ("bKY",) and s3.fig("bSN").carries == ()


def test_CG_WOUND_03_DT_273_a_wounded_friend_is_given_nothing_its_object_is_swapped():
    """DT-273: the wounded blue Mechanork in b1 carries nothing; the Snake-man passing with the Key cannot give it
    him (CG-WOUND-03: a wounded character's object is taken or swapped), so that he may not then carry both
    (CG-GOLD-03). Carrying the Rope, the wounded Mechanork swaps it for the Key: he still holds one object."""
    empty = build({"bSN": "a1", "bMK": ("b1", {"wounded": True}), "yMK": "d4"}, items={"bKY": "@bSN"})
    e = refused(empty, "move bSN b1 >bMK", "CG-WOUND-03")
    assert str(e) == "CG-WOUND-03: bMK cannot take it: it must be unwounded and carry nothing"
    refused(empty, "move bSN b1 >bMK +bMK", "CG-WOUND-03")
    s = build({"bSN": "a1", "bMK": ("b1", {"wounded": True}), "yMK": "d4"}, items={"bKY": "@bSN", "bRP": "@bMK"})
    s2 = act(s, "move bSN b1 +bRP")
    assert s2.fig("bMK").carries == ("bKY",) and s2.fig("bSN").carries == ("bRP",)
    assert not any(">" in t for a in legal_actions(empty) if isinstance(a, Move) for t in a.path)


def test_CG_ITEM_01_03_DT_206_exchanges_as_many_as_wished_at_each_location():
    """« vous pouvez prendre, donner, ou échanger des objets comme bon vous semble » (CG-ITEM-03), and pick up and
    drop along the way (CG-ITEM-01): no limit per location (DT-206). The Snake-man carrying the Key reaches b1,
    where the empty-handed Mechanork stands on the Rope: he gives him the Key and takes the Rope (two exchanges in
    b1), then goes on to b2, for 1 AP. One exchange there could do either, not both. An exchange that undoes the
    one before it (the Rope taken and laid down again) changes nothing: refused, so that a chain of them cannot
    fill the others' log; exchanges that come back to where they started by a longer way, with no step, are no
    move (CG-ITEM-04). Neither is listed."""
    s = build({"bSN": "a1", "bMK": "b1", "yMK": "d4"}, items={"bKY": "@bSN", "bRP": "b1"})
    after = act(s, "move bSN b1 >bMK +bRP b2")
    assert after.fig("bSN").carries == ("bRP",) and after.fig("bSN").at == z("b2")
    assert after.fig("bMK").carries == ("bKY",) and after.item("bKY").at == "bMK" and after.item("bRP").at == "bSN"
    assert after.player("B").ap == 2
    listed = legal_actions(s, "B")
    assert Move("B", "bSN", ("b1", ">bMK", "+bRP")) in listed
    assert Move("B", "bSN", ("b1", ">bMK", "+bRP", "b2")) in listed
    # the event names what was given (the log said "gives to bMK"), but not to the others when objects are secret
    _, events = apply(s, parse_action("move bSN b1 >bMK +bRP b2", "B"))
    moved = next(e for e in events if e.kind == "move")
    assert [event_view(moved, seat)["path"] for seat in ("B", "Y", None)] == [["b1", ">bMK/bKY", "+bRP", "b2"]] * 3
    secret = s.but(options=replace(s.options, secret_objects=True))
    _, events = apply(secret, parse_action("move bSN b1 >bMK +bRP b2", "B"))
    moved = next(e for e in events if e.kind == "move")
    assert [event_view(moved, seat)["path"] for seat in ("B", "Y", None)] == [
        ["b1", ">bMK/bKY", "+bRP", "b2"], ["b1", ">bMK", "+bRP", "b2"], ["b1", ">bMK", "+bRP", "b2"]]
    e = refused(s, "move bSN b1 >bMK +bRP -bRP", "CG-ITEM-01")
    assert e.message == "-bRP undoes the exchange before it (DT-206)"
    e = refused(s, "move bSN b1 >bMK +bKY", "CG-ITEM-01")  # the Key given, taken back
    assert e.message == "+bKY undoes the exchange before it (DT-206)"
    refused(s, "move bMK +bRP -bRP", "CG-ITEM-01")
    # six exchanges in b1 where the Snake-man and the Mechanork stand, none undoing the one before, and all as it
    # was: Rope taken (Key down), given, Key taken, Rope taken back (Key to the Mechanork), Rope down, Key taken
    together = build({"bSN": "b1", "bMK": "b1", "yMK": "d4"}, items={"bKY": "@bSN", "bRP": "b1"})
    e = refused(together, "move bSN +bRP >bMK +bKY +bRP -bRP +bKY", "CG-ITEM-04")
    assert e.message == "these exchanges leave everything as it was: a move that takes no step must take or leave " \
        "something"
    assert act(together, "move bSN +bRP >bMK +bKY +bRP -bRP").fig("bMK").carries == ("bKY",)
    e = refused(s, "move bSN +bKY", "CG-ITEM-01")  # it read "bKY is not here to take" (a play-test)
    assert e.message == "bSN carries bKY already"
    assert not any(isinstance(a, Move) and a.figure == "bMK" and a.path == ("+bRP", "-bRP") for a in listed)


def test_CG_ITEM_01_DT_206_an_object_on_the_start_zone_is_picked_up_dropped_and_swapped_there():
    """« Un personnage peut ramasser un objet se trouvant dans sa zone lors d'une action de déplacement » and
    « déposer un objet dans une zone »: the start position is the character's zone (CG-START-07), and the rules
    leave objects there (CG-CHAR-TELEKIN-03, CG-WOUND-04). The blue Mechanork on B1 takes the Key lying there
    (1 AP) and may go on into a1; the Snake-man steps onto B1 and drops his Rope there, or swaps it for the Key.
    Each is listed; the Rope then lies on B1."""
    s = build({"bMK": "B1>a1", "bSN": "a1", "yMK": "d4"}, items={"bKY": "B1", "bRP": "@bSN"})
    took = act(s, "move bMK +bKY")
    assert took.fig("bMK").carries == ("bKY",) and took.item("bKY").at == "bMK" and took.player("B").ap == 2
    assert act(s, "move bMK +bKY a1").fig("bMK").at == z("a1")
    dropped = act(s, "move bSN B1 -bRP")
    assert (dropped.item("bRP").where, dropped.item("bRP").at) == ("floor", ("B", 0))
    bsn = dropped.fig("bSN")
    assert (bsn.where, bsn.facing, bsn.carries) == ("start", z("a1"), ())
    swapped = act(s, "move bSN B1 +bKY")
    assert swapped.fig("bSN").carries == ("bKY",) and swapped.item("bRP").at == ("B", 0)
    listed = set(legal_actions(s, "B"))
    for path in (("+bKY",), ("+bKY", "a1"), ("B1", "-bRP"), ("B1", "+bKY")):
        assert any(isinstance(a, Move) and a.path == path for a in listed), path
    assert act(dropped, "move bMK +bRP").fig("bMK").carries == ("bRP",)


# --- CG-OBJ-KEY ------------------------------------------------------------------------------------------------

def test_CG_OBJ_KEY_01_open_pass_close():
    """CG-OBJ-KEY-01: a2|b2 portcullis: opening costs 1 AP, then the Mechanork passes; closing it again; without a
    Key it is refused; not on another border."""
    s = build({"bMK": "a2", "bSN": "a2", "yMK": "d4"}, items={"bKY": "@bMK"})
    refused(s, "move bMK b2", "CG-MOVE-06")
    refused(s, "open bSN a2 e", "CG-OBJ-KEY-01")
    refused(s, "open bMK a2 n", "CG-OBJ-KEY-01")
    refused(s, "close bMK a2 e", "CG-OBJ-KEY-01")
    s2 = act(s, "open bMK a2 e")
    assert s2.player("B").ap == 2 and s2.maze.features(z("a2"), "E") == ("open",)
    s3 = act(s2, "move bSN b2")
    assert s3.fig("bSN").at == z("b2")
    s4 = act(s2, "close bMK a2 e")
    assert s4.maze.features(z("a2"), "E") == ("portcullis",) and s4.player("B").ap == 1


# --- CG-EXIT, CG-BLOCK, CG-END ---------------------------------------------------------------------------------

def test_CG_EXIT_01_03_exit_scores_and_discards_the_object():
    """CG-EXIT-01: b4 -> Yellow's start zone Y1: 1 VP, the card leaves; CG-EXIT-03: its object is discarded."""
    s = build({"bSN": "b4", "bMK": "a1", "yMK": "d4"}, items={"bKY": "@bSN"})
    s2 = act(s, "move bSN Y1")
    assert s2.fig("bSN").where == "exited" and s2.player("B").vp == 1 and s2.item("bKY").where == "gone"
    assert s2.outcome is None
    refused(s, "move bSN Y1 b4", "CG-EXIT-01")


def test_CG_BLOCK_01_an_enemy_on_its_start_zone_blocks_the_faced_zone_only():
    """CG-BLOCK-01 / CG-EX-06: yellow Snake-man at Y1 facing b4 blocks exits from b4, not a wounded one
    (CG-BLOCK-02); exits through c4 at Y2 stay open."""
    s = build({"bSN": "b4", "bMK": "c4", "ySN": "Y1>b4", "yMK": "d1"})
    refused(s, "move bSN Y1", "CG-BLOCK-01")
    assert act(s, "move bMK Y2").player("B").vp == 1
    s2 = build({"bSN": "b4", "ySN": ("Y1>b4", {"wounded": True}), "yMK": "d1"})
    assert act(s2, "move bSN Y1").player("B").vp == 1


def test_CG_BLOCK_02_RUL_106_DT_272_no_flying_ghostly_or_small_way_past_a_blocker():
    """CG-BLOCK-02 (RUL-106): the Wizard flies over zones holding enemies and the Ghost passes anything, but neither
    exits from b4 past the yellow blocker at Y1 facing b4; DT-272: nor does a Goblin (printed 1) past a blocking
    Colossus, whose legs open a zone to him in a move (CG-CHAR-COLOSSUS-02), not the way out; the exit from c4
    at Y2 stays open to him."""
    s = build({"bWZ": "b4", "bGH": "b4", "bGB": "c4", "ySN": "Y1>b4", "yMK": "d1"})
    refused(s, "move bWZ Y1", "CG-BLOCK-01")
    refused(s, "move bGH Y1", "CG-BLOCK-01")
    refused(build({"bGB": "b4", "yCO": "Y1>b4", "yMK": "d1"}), "move bGB Y1", "CG-BLOCK-01")
    out = act(build({"bGB": "c4", "yCO": "Y1>b4", "yMK": "d1"}), "move bGB Y2")
    assert out.player("B").vp == 2  # (CG-CHAR-GOBLIN-01)


def test_CG_TUT1_01_END_01_the_second_exit_wins_at_once():
    """CG-TUT1-01 / CG-END-01: with 1 VP, exiting the second character ends the game at once (2 VP)."""
    s = build({"bSN": "b4", "bMK": "x", "yMK": "d1"}, vp=(1, 0))
    s2 = act(s, "move bSN Y1")
    assert s2.outcome.winner == "B" and s2.outcome.vp == (("B", 2), ("Y", 0)) and s2.to_act == ()
    assert legal_actions(s2) == []
    refused(s2, "end", "CG-END-01")


# --- CG-JUMP ---------------------------------------------------------------------------------------------------

def test_CG_JUMP_01_02_jump_over_a_pit_costs_1_ap_and_a_card():
    """CG-JUMP-01/02: b1 -> b2 over the pit: 1 AP, 1 jump card gone; no card left: refused."""
    s = build({"bMK": "b1", "yMK": "d4"})
    s2 = act(s, "jump bMK b2")
    assert s2.fig("bMK").at == z("b2") and s2.player("B").ap == 2 and s2.player("B").jumps == 2
    refused(build({"bMK": "b1", "yMK": "d4"}, jumps=(0, 3)), "jump bMK b2", "CG-JUMP-01")


def test_CG_JUMP_02_only_over_a_pit_and_nothing_else_blocking():
    """CG-JUMP-02: no pit on a1|b1 (refused); b2|c2 is pit + slit: the Mechanork is refused, the Snake-man jumps
    (the slit does not stop him)."""
    s = build({"bMK": "a1", "bSN": "b2", "bMK2": "b2", "yMK": "d4"})
    refused(s, "jump bMK b1", "CG-JUMP-02")
    refused(s, "jump bMK2 c2", "CG-JUMP-02")
    assert act(s, "jump bSN c2").fig("bSN").at == z("c2")
    refused(build({"bMK": "B1>a1", "yMK": "d4"}), "jump bMK a1", "CG-JUMP-02")


def test_CG_JUMP_03_not_onto_an_unwounded_enemy():
    """CG-JUMP-03: landing on an unwounded enemy is refused; on a wounded one it is fine."""
    s = build({"bMK": "b1", "yMK": "b2", "ySN": "d4"})
    refused(s, "jump bMK b2", "CG-JUMP-03")
    s2 = build({"bMK": "b1", "yMK": ("b2", {"wounded": True}), "ySN": "d4"})
    assert act(s2, "jump bMK b2").fig("bMK").at == z("b2")


def test_CG_JUMP_03_DT_272_the_colossus_legs_are_no_landing():
    """CG-JUMP-03 with CG-CHAR-COLOSSUS-02 (DT-272): a Goblin (printed 1) walks through the enemy Colossus' zone, but
    a jump does not land there: the landing zone holds an unwounded enemy, whatever his size; a wounded Colossus
    there lets him land."""
    s = build({"bGB": "b1", "yCO": "b2", "ySN": "d4"})
    refused(s, "jump bGB b2", "CG-JUMP-03")
    s2 = build({"bGB": "b1", "yCO": ("b2", {"wounded": True}), "ySN": "d4"})
    assert act(s2, "jump bGB b2").fig("bGB").at == z("b2")


def test_CG_MOVE_04_DT_208_the_way_back_turns_with_the_room():
    """DT-208: the Mechanork steps from b1 into a1, where the yellow Mechanork stands: held to its east side, the way
    it came. He turns room A a quarter clockwise (blue1's arrow, CG-ROT-01): both now stand in a2, and the zone he
    came from (the circle) lies south of it in a1: he leaves by a1 only, not by b2, open as it is."""
    s = act(build({"bMK": "b1", "yMK": "a1", "ySN": "d4"}), "move bMK a1")
    assert s.fig("bMK").pin == "E"
    s2 = act(s, "rotate bMK A cw")
    assert s2.fig("bMK").at == z("a2") and s2.fig("bMK").pin == "S" and s2.maze.icon(z("a1")) == "C"
    refused(s2, "move bMK b2", "CG-MOVE-04")
    assert act(replace(s2, figures=tuple(replace(f, pin=None) for f in s2.figures)), "move bMK b2").fig("bMK").at \
        == z("b2")  # (open but for the hold)
    assert act(s2, "move bMK a1").fig("bMK").at == z("a1")


def test_CG_AP_02_wounded_characters_do_not_act():
    """CG-AP-02: a wounded character's move is refused."""
    s = build({"bMK": ("b1", {"wounded": True}), "yMK": "d4"})
    refused(s, "move bMK a1", "CG-AP-02")


def test_generated_moves_equal_accepted_in_a_busy_position():
    """Every generated action applies; portcullis, jump and move candidates not generated are refused."""
    s = build({"bSN": "a2", "bMK": "b1", "yMK": "b4", "ySN": "Y2>c4"}, items={"bKY": "@bSN", "bRP": "a2"})
    acts = legal_actions(s)
    for a in acts:
        apply(s, a)
    gen = set(acts)
    assert any(isinstance(a, Portcullis) for a in gen) and any(isinstance(a, Jump) for a in gen)
