"""Prison board rules with the real Prison rooms (engine/prison/data/prison.json, docs/prison-rooms.md): arrow slits
(PR-SLIT-01..04), line of sight (PR-LOS-01..04), adjacency (PR-CORE-02/03/06/12), the start-zone reveal (PR-CORE-05),
portcullises (PR-CORE-08, PR-OBJ-KEY-01..03, PR-CHAR-ASSASSIN-03, PR-CHAR-COLOSSUS-01/02) and healing
(PR-CHAR-CLERIC-03).

Layout used throughout, every room revealed at orientation 0 (row r1 of a tile at the top, facing Yellow; slot A1 is
files a-e, ranks 1-5, so rRcC of A1 is file cC, rank 6-R):
  A1 = 37G: gear r3c3 = c3; slits r3c3:r3c4 (c3|d3) and r2c2:r2c3 (b4|c4); portcullises, in data order,
            r2c3-r3c3 (c4|c3), r3c3-r4c3 (c3|c2), r4c2-r4c3 (b2|c2); walls b4|b3 and c4|d4 among others.
  B1 = 37D: portcullises r2c3-r3c3 (h4|h3), r3c3-r4c3 (h3|h2).
"""

from __future__ import annotations

import pytest

import dungeon_twister.engine.prison  # noqa: F401  (registers the Prison set)
from dungeon_twister.engine import apply, format_action, legal_actions, parse_action
from dungeon_twister.engine.boardgame.board import board_of

from ..builders import apply_texts, assert_refused, position

ROOMS = "A1=37G/0 B1=37D/0 A2=38G/0 B2=38D/0 A3=39G/0 B3=39D/0 A4=40G/0 B4=40D/0"


def prison(tokens: str, **kwargs):
    kwargs.setdefault("rooms", ROOMS)
    return position(tokens, set_name="prison", **kwargs)


def sq(name: str):
    """A square from its name: file a-j is x 0-9, rank r is y r-1 (rank 0, Blue's start zone, is y -1)."""
    return ord(name[0]) - ord("a"), int(name[1:]) - 1


def texts(state) -> set[str]:
    return {format_action(a) for a in legal_actions(state)}


# --- arrow slits and adjacency ---------------------------------------------------------------------------------
def test_PR_SLIT_01_slits_come_from_the_room_data_and_turn_with_the_room():
    """PR-SLIT-01: 37G's slit r3c3:r3c4 is the edge c3|d3 at orientation 0; a quarter turn clockwise carries it to
    the edge r3c3 / r2c3 position of the turned room (c3|c4): it is printed on the tile and turns with it."""
    board = board_of(prison("bMK@c3"))
    assert board.is_slit(sq("c3"), sq("d3")) and board.is_slit(sq("b4"), sq("c4"))
    assert len(board.slits) == 17  # docs/prison-rooms.md: 17 arrow slits in the eight rooms
    turned = board_of(prison("bMK@c3", rooms=ROOMS.replace("A1=37G/0", "A1=37G/1")))
    assert not turned.is_slit(sq("c3"), sq("d3"))
    assert turned.is_slit(sq("c3"), sq("c2"))  # east of the centre turns to south


def test_PR_SLIT_02_PR_CORE_02_a_slit_separates_two_squares_like_a_wall():
    """PR-SLIT-02, PR-CORE-02: c3 and d3 share a side but are not adjacent (not connected) across the slit."""
    board = board_of(prison("bMK@c3"))
    assert not board.connected(sq("c3"), sq("d3")) and not board.connected(sq("d3"), sq("c3"))
    assert sq("d3") not in board.connected_neighbours(sq("c3"))
    assert board.connected(sq("c3"), sq("b3"))  # the open side of the same square


def test_PR_SLIT_02_PR_CORE_12_no_move_across_a_slit():
    """PR-SLIT-02, PR-CORE-12: the Mechanork (Mv 3) on c3 cannot reach d3, one square away across the slit (the way
    round is 8 squares, docs/prison-rooms.md); from b3 without the slit he reaches c3 in one step."""
    s = prison("bMK@c3")
    assert not any(t.startswith("move bMK d3") for t in texts(s))
    assert_refused(s, "move bMK d3", "PR-SLIT-02")  # DT-100: a step across a slit cites PR-SLIT-02
    s2, _ = apply_texts(prison("bMK@b3"), "move bMK c3")
    assert s2.tokens["bMK"].square == sq("c3") and s2.ap == 4


def test_PR_SLIT_02_no_melee_across_a_slit():
    """PR-SLIT-02: a yellow figure on d3 is not adjacent to the blue Mechanork on c3: no attack."""
    s = prison("bMK@c3 yMK@d3")
    assert not any(t.startswith("attack") for t in texts(s))
    assert_refused(s, "attack bMK yMK", "PR-SLIT-02")


def test_PR_CHAR_CLERIC_03_PR_SLIT_02_no_healing_through_a_slit():
    """PR-CHAR-CLERIC-03: the Cleric on b4 does not heal the wounded Mechanork on c4 across the slit b4|c4; from
    c5 (north of c4, no wall between) he does, for 1 AP."""
    s = prison("bCL@b4 bMK@c4!")
    assert not any(t.startswith("heal") for t in texts(s))
    assert_refused(s, "heal bCL bMK", "PR-CHAR-CLERIC-03")
    s2 = prison("bCL@c5 bMK@c4!")
    assert "heal bCL bMK" in texts(s2)
    s3, _ = apply_texts(s2, "heal bCL bMK")
    assert not s3.tokens["bMK"].wounded and s3.ap == 4


def test_PR_CHAR_CLERIC_03_no_healing_through_a_closed_portcullis():
    """PR-CHAR-CLERIC-03: nor through the closed portcullis c3|c4 (BG-CHAR-CLERIC-04's rule, unchanged)."""
    s = prison("bCL@c3 bMK@c4!")
    assert_refused(s, "heal bCL bMK", "BG-CHAR-CLERIC-04")
    opened = prison("bCL@c3 bMK@c4!", ports="37G=occ")
    assert "heal bCL bMK" in texts(opened)


# --- line of sight ----------------------------------------------------------------------------------------------
def names(squares) -> list[str]:
    from dungeon_twister.engine.boardgame.geometry import square_name
    return [square_name(q) for q in squares]


def test_PR_SLIT_03_PR_LOS_04_sight_through_a_slit_only_from_beside_it():
    """PR-SLIT-03, PR-LOS-04: from c3 (beside the slit) the line east runs d3, e3 and on into room B1 (f3...j3:
    37D's row 3 is an open corridor); from b3, one square back, it stops at c3 before the slit."""
    board = board_of(prison("bMK@c3"))
    assert names(board.sight_line(sq("c3"), "e")) == ["d3", "e3", "f3", "g3", "h3", "i3", "j3"]
    assert names(board.sight_line(sq("b3"), "e")) == ["c3"]


def test_PR_SLIT_03_sight_through_a_slit_can_be_one_way():
    """PR-SLIT-03: d3 sees west across the slit to c3, b3, a3 (it is beside it); e3 does not see c3 (not beside)."""
    board = board_of(prison("bMK@c3"))
    assert names(board.sight_line(sq("d3"), "w")) == ["c3", "b3", "a3"]
    assert names(board.sight_line(sq("e3"), "w")) == ["d3"]


def test_PR_LOS_01_PR_CORE_03_lines_of_sight_are_straight_and_never_diagonal():
    """PR-LOS-01, PR-CORE-03: a line of sight has only the four directions, and each step keeps one coordinate."""
    board = board_of(prison("bMK@c3"))
    with pytest.raises(KeyError):
        list(board.sight_line(sq("c3"), "ne"))
    line = list(board.sight_line(sq("c3"), "e"))
    assert all(q[1] == sq("c3")[1] for q in line)


def test_PR_LOS_02_a_closed_portcullis_and_a_wall_stop_the_line_an_open_one_does_not():
    """PR-LOS-02: from c3 north the closed portcullis c3|c4 stops the line at once; opened, the line runs c4, c5
    and stops at 37G's top wall (r1c3 has no wall north: it runs on into A2)."""
    board = board_of(prison("bMK@c3"))
    assert names(board.sight_line(sq("c3"), "n")) == []
    opened = board_of(prison("bMK@c3", ports="37G=occ"))
    line = names(opened.sight_line(sq("c3"), "n"))
    assert line[:2] == ["c4", "c5"]


def test_PR_SLIT_04_PR_OBJ_STAFF_01_a_fireball_passes_a_pit_and_a_slit_from_beside_it():
    """PR-SLIT-04, PR-OBJ-STAFF-01/02, PR-CHAR-WIZARD-02: the blue Wizard with the Fireball Staff on d3, beside the
    slit, burns west across it: the first person on the line c3-b3-a3 is the yellow Mechanork on a3; he is
    eliminated (1 AP, the Staff discarded, Blue scores). From e3, not beside the slit, the shot hits nobody."""
    s = prison("bWZ@d3 bFS@d3 yMK@a3")
    s2, events = apply_texts(s, "fireball bWZ w")
    assert s2.tokens["yMK"].where == "eliminated" and s2.ap == 4
    assert [e.data["scorer"] for e in events if e.kind == "eliminated"] == ["B"]
    assert s2.tokens["bFS"].where == "discarded"
    s3, _ = apply_texts(prison("bWZ@e3 bFS@e3 yMK@a3"), "fireball bWZ w")
    assert s3.tokens["yMK"].where == "board"


# --- reveal -------------------------------------------------------------------------------------------------------
FACE_DOWN = "A1=*37G/0 B1=*37D/0 A2=38G/0 B2=38D/0 A3=39G/0 B3=39D/0 A4=40G/0 B4=40D/0"


def test_PR_CORE_05_from_the_start_zone_only_the_nearest_room():
    """PR-CORE-05: a blue figure on b0 (touching A1) may reveal A1 but not B1; on g0, B1 but not A1."""
    s = prison("bMK@b0", rooms=FACE_DOWN)
    reveals = {t for t in texts(s) if t.startswith("reveal")}
    assert reveals == {"reveal bMK A1"}
    assert_refused(s, "reveal bMK B1", "PR-CORE-05")
    s2 = prison("bMK@g0", rooms=FACE_DOWN)
    assert {t for t in texts(s2) if t.startswith("reveal")} == {"reveal bMK B1"}


def test_PR_CORE_05_the_base_set_keeps_both_rooms():
    """BG-REVEAL-03 (the flag absent = "both"): in the base set a figure on b0 may reveal either start room."""
    s = position("bWA@b0", rooms="A1=*O1/0 B1=*O2/0 A2=P1/0 B2=P2/0 A3=W1/0 B3=W2/0 A4=Q1/0 B4=Q2/0")
    assert {t for t in texts(s) if t.startswith("reveal")} == {"reveal bWA A1", "reveal bWA B1"}


def test_PR_CORE_06_PR_CHAR_NAGA_02_no_reveal_access_through_a_wall_or_a_slit():
    """PR-CORE-06: from inside the maze, access needs an edge of the face-down room with no wall between: the Naga
    on a5 (37G's r1c1, walled north) has no access to the face-down A2; on c5 (r1c3, open north) he has. No slit lies on a room's border (docs/prison-rooms.md), so the
    Naga, the only one who crosses slits, can never reveal through one (PR-CHAR-NAGA-02)."""
    rooms = "A1=37G/0 B1=37D/0 A2=*38G/0 B2=38D/0 A3=39G/0 B3=39D/0 A4=40G/0 B4=40D/0"
    assert_refused(prison("bNG@a5", rooms=rooms), "reveal bNG A2", "BG-REVEAL-02")
    assert "reveal bNG A2" in texts(prison("bNG@c5", rooms=rooms))
    for tile in board_of(prison("bMK@c3")).catalogue.rooms.values():
        for a, b in tile.arrow_slits:
            assert all(0 <= v <= 4 for v in a + b)  # both squares inside the tile: a slit is never on a border


# --- portcullises ---------------------------------------------------------------------------------------------------
def test_PR_OBJ_KEY_01_a_key_opens_a_closed_portcullis_on_an_edge_of_its_square():
    """PR-OBJ-KEY-01: the blue Naga carrying the Key on c3 opens the portcullis north of it (c3|c4) for 1 AP;
    the squares become connected."""
    s = prison("bNG@c3 bKY@c3")
    assert {t for t in texts(s) if t.split()[0] in ("open", "close", "break")} == {"open bNG n", "open bNG s"}
    s2, events = apply_texts(s, "open bNG n")
    assert s2.portcullis["37G"] == "occ" and s2.ap == 4
    assert board_of(s2).connected(sq("c3"), sq("c4"))
    assert [e.kind for e in events] == ["portcullis"]


def test_PR_OBJ_KEY_01_without_a_key_or_away_from_the_portcullis_refused():
    """PR-OBJ-KEY-01, PR-CORE-08: the Naga without the Key cannot open it; with the Key on c5 there is no
    portcullis north of him."""
    assert_refused(prison("bNG@c3"), "open bNG n", "PR-OBJ-KEY-01")  # DT-104: Prison's rule for "open"
    assert_refused(prison("bNG@c5 bKY@c5"), "open bNG n", "PR-OBJ-KEY-01")
    assert_refused(prison("bNG@c3 bKY@c3", ports="37G=occ"), "open bNG n", "PR-OBJ-KEY-01")  # already open


def test_PR_OBJ_KEY_02_a_key_closes_an_open_portcullis_not_a_destroyed_one():
    """PR-OBJ-KEY-02: for 1 AP the Key closes the open portcullis; a destroyed one can never be closed."""
    s = prison("bNG@c3 bKY@c3", ports="37G=occ")
    assert "close bNG n" in texts(s)
    s2, _ = apply_texts(s, "close bNG n")
    assert s2.portcullis["37G"] == "ccc" and s2.ap == 4
    broken = prison("bNG@c3 bKY@c3", ports="37G=bcc")
    assert "close bNG n" not in texts(broken) and "open bNG n" not in texts(broken)
    assert_refused(broken, "close bNG n", "PR-CHAR-COLOSSUS-02")  # DT-104: destroyed for good
    assert_refused(prison("bNG@c3 bKY@c3"), "close bNG n", "PR-OBJ-KEY-02")  # closed already


def test_PR_OBJ_KEY_03_the_key_is_never_used_up():
    """PR-OBJ-KEY-03: open north, open south, close north: 3 AP, the Key still carried on c3."""
    s, _ = apply_texts(prison("bNG@c3 bKY@c3"), "open bNG n", "open bNG s", "close bNG n")
    assert s.portcullis["37G"] == "coc" and s.ap == 2
    assert s.tokens["bKY"].where == "board" and s.tokens["bKY"].square == sq("c3")


def test_PR_CHAR_ASSASSIN_03_lock_pick_opens_and_closes_as_with_a_key():
    """PR-CHAR-ASSASSIN-03: the Assassin (no Key) on c3 opens, then closes the portcullis north: 1 AP each; a
    closed one cannot be closed (her rule cited), a destroyed one neither (PR-CHAR-COLOSSUS-02, DT-104)."""
    s = prison("bAS@c3")
    assert {t for t in texts(s) if t.split()[0] in ("open", "close")} == {"open bAS n", "open bAS s"}
    s2, _ = apply_texts(s, "open bAS n")
    assert s2.portcullis["37G"] == "occ" and s2.ap == 4
    s3, _ = apply_texts(s2, "close bAS n")
    assert s3.portcullis["37G"] == "ccc" and s3.ap == 3
    assert_refused(s, "close bAS n", "PR-CHAR-ASSASSIN-03")
    assert_refused(prison("bAS@c3", ports="37G=bcc"), "close bAS n", "PR-CHAR-COLOSSUS-02")
    assert_refused(s, "break bAS n", "PR-CHAR-COLOSSUS-01")  # she cannot destroy one


def test_PR_CHAR_COLOSSUS_01_bend_bars_destroys_a_closed_or_an_open_portcullis():
    """PR-CHAR-COLOSSUS-01 (RUL-058): the Colossus on h3 (37D) destroys the closed portcullis north (h3|h4) and
    the open one south (h3|h2), 1 AP each; the squares are then connected."""
    s = prison("bCO@h3", ports="37D=co")
    assert {t for t in texts(s) if t.split()[0] in ("open", "close", "break")} == {"break bCO n", "break bCO s"}
    s2, _ = apply_texts(s, "break bCO n", "break bCO s")
    assert s2.portcullis["37D"] == "bb" and s2.ap == 3
    board = board_of(s2)
    assert board.connected(sq("h3"), sq("h4")) and board.connected(sq("h3"), sq("h2"))


def test_PR_CHAR_COLOSSUS_02_a_destroyed_portcullis_is_never_closed_and_anyone_crosses_it():
    """PR-CHAR-COLOSSUS-02: a destroyed portcullis cannot be destroyed again, closed by a Key or the Assassin; a
    Mechanork crosses it (h2 to h4 in 2 squares, 1 AP)."""
    assert_refused(prison("bCO@h3", ports="37D=bc"), "break bCO n", "PR-CHAR-COLOSSUS-02")
    assert_refused(prison("bNG@h3 bKY@h3", ports="37D=bc"), "close bNG n", "PR-CHAR-COLOSSUS-02")
    assert_refused(prison("bAS@h3", ports="37D=bc"), "close bAS n", "PR-CHAR-COLOSSUS-02")
    s, _ = apply_texts(prison("bMK@h3", ports="37D=bb"), "move bMK h4")
    assert s.tokens["bMK"].square == sq("h4") and s.ap == 4
    assert_refused(prison("bMK@h3"), "move bMK h4", "BG-MOVE-05")  # closed: no way through


def test_PR_CORE_08_generated_portcullis_actions_are_exactly_the_accepted_ones():
    """PR-CORE-08 (legal = accepted): for a Key-carrier, the Assassin and the Colossus beside 37G's three
    portcullises in every state, every portcullis action is generated iff `apply` accepts it."""
    from dungeon_twister.engine import IllegalAction
    for who in ("bNG@c3 bKY@c3", "bAS@c3", "bCO@c3", "bMK@c3", "bAS@c2", "bCO@c2", "bNG@c2 bKY@c2"):
        for ports in ("ccc", "occ", "bcc", "coc", "cbb", "ooo"):
            s = prison(who, ports=f"37G={ports}")
            figure = who.split("@")[0]
            generated = texts(s)
            for how in ("open", "close", "break"):
                for d in "nesw":
                    text = f"{how} {figure} {d}"
                    try:
                        apply(s, parse_action(text, "B"))
                        accepted = True
                    except IllegalAction:
                        accepted = False
                    assert accepted == (text in generated), (who, ports, text)
