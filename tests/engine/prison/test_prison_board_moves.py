"""Prison movement: the Naga through arrow slits (PR-CHAR-NAGA-01), the Colossus's Giant (PR-CHAR-COLOSSUS-03), and
Prison confirmations of the base movement rules (PR-CORE-12..16, PR-OBJ-ROPE-01, PR-EX-04, PR-CHAR-WIZARD-01,
PR-CHAR-MECHANORK-01), with the real Prison rooms (layout and squares in test_prison_board.py):
  A1 = 37G: slit c3|d3; d3-e3 open; c3 shut north and south by closed portcullises, b3-c3 open.
  B1 = 37D: row 3 (f3..j3) a corridor; i3 has a wall north and the slit i3|i2 south.
  A2 = 38G: slit d9|e9, pit b9 (r2c2).
"""

from __future__ import annotations

import dungeon_twister.engine.prison  # noqa: F401  (registers the Prison set)
from dungeon_twister.engine import apply, format_action, format_position, legal_actions, parse_action, parse_position
from dungeon_twister.engine.boardgame.actions import Move

from ..builders import apply_texts, assert_refused
from .test_prison_board_real import prison, sq


def moves(state, token: str) -> set[str]:
    return {format_action(a).split(" ")[2] for a in legal_actions(state) if isinstance(a, Move) and a.token == token
            and not a.take and not a.leave}


def test_PR_CHAR_NAGA_01_the_naga_passes_an_arrow_slit():
    """PR-CHAR-NAGA-01: the Naga on c3 steps across the slit to d3 (1 square, 1 AP); the Mechanork cannot (the way
    round is 8 squares): PR-SLIT-02 for everyone else."""
    s = prison("bNG@c3")
    assert "d3" in moves(s, "bNG") and "e3" in moves(s, "bNG")
    s2, _ = apply_texts(s, "move bNG d3")
    assert s2.tokens["bNG"].square == sq("d3") and s2.ap == 4
    s3, _ = apply_texts(s, "move bNG d3-e3")
    assert s3.tokens["bNG"].square == sq("e3")
    assert "d3" not in moves(prison("bMK@c3"), "bMK")
    assert_refused(prison("bMK@c3"), "move bMK d3-e3", "PR-SLIT-02")


def test_PR_CHAR_NAGA_01_even_while_carrying():
    """PR-CHAR-NAGA-01 (RUL-057): carrying the Key, or a wounded blue Cleric, the Naga still passes the slit; they
    come along to d3."""
    s, _ = apply_texts(prison("bNG@c3 bKY@c3"), "move bNG d3")
    assert s.tokens["bNG"].square == s.tokens["bKY"].square == sq("d3")
    s, _ = apply_texts(prison("bNG@c3 bCL@c3!"), "move bNG d3")
    assert s.tokens["bNG"].square == s.tokens["bCL"].square == sq("d3")


def test_PR_CHAR_NAGA_01_the_move_memo_sees_beyond_the_slit():
    """PR-CHAR-NAGA-01 (moves._key): a square the Naga reaches only through the slit is part of what her moves
    depend on: after the Mechanork steps from f3 to e3 (8 squares from c3 the long way round, 2 through the slit),
    the Naga (listed before in the same game) may no longer stop on e3, exactly as a fresh search says."""
    s = prison("bNG@c3 bMK@f3")
    assert "e3" in moves(s, "bNG")
    s2, _ = apply(s, parse_action("move bMK e3", "B"))
    fresh = parse_position(format_position(s2))
    assert "e3" not in moves(s2, "bNG")
    assert sorted(map(format_action, legal_actions(s2))) == sorted(map(format_action, legal_actions(fresh)))


def test_PR_CHAR_COLOSSUS_03_small_enemies_cross_the_giant_but_do_not_stop():
    """PR-CHAR-COLOSSUS-03: the yellow Colossus on h3 in the corridor; the blue Telepath (printed combat 0) on g3
    crosses his square to i3 (2 squares); the blue Banshee (combat 1) likewise; neither may stop on h3; the blue
    Mechanork (combat 2) may not cross (BG-MOVE-09)."""
    for who in ("bTP", "bBS"):
        s = prison(f"{who}@g3 yCO@h3")
        assert "i3" in moves(s, who) and "h3" not in moves(s, who)
        s2, _ = apply_texts(s, f"move {who} h3-i3")
        assert s2.tokens[who].square == sq("i3") and s2.ap == 4
        assert_refused(s, f"move {who} h3", "BG-MOVE-09")
    s = prison("bMK@g3 yCO@h3")
    assert "i3" not in moves(s, "bMK")
    assert_refused(s, "move bMK h3-i3", "BG-MOVE-09")


def test_PR_CHAR_COLOSSUS_03_only_the_enemy_giant_and_not_what_he_carries():
    """PR-CHAR-COLOSSUS-03: crossing between his legs takes nothing: the Key the Colossus carries stays his."""
    s = prison("bTP@g3 yCO@h3 yKY@h3")
    assert not any(a.take == "yKY" for a in legal_actions(s) if isinstance(a, Move))
    assert "i3" in moves(s, "bTP")


def _slit_set() -> str:
    """A synthetic set (RUL-042) with base characters and one arrow slit: O1's r3c1:r3c2 (a3|b3 at A1)."""
    from dungeon_twister.engine.boardgame import catalogue

    from ..builders import _synthetic
    raw = _synthetic()
    raw["set"] = "synthetic-slits"
    raw["rooms"]["O1"]["arrow_slits"] = ["r3c1-r3c2"]
    catalogue.register("synthetic-slits", raw)
    return "synthetic-slits"


def test_PR_SLIT_05_a_wall_walker_passes_a_slit_as_a_wall():
    """PR-SLIT-05 (RUL-052): in a mixed game, the Wall-Walker on a3 passes the slit a3|b3 as she passes a wall
    (1 AP); a Warrior there cannot step across it (PR-SLIT-02)."""
    from ..builders import position
    s = position("bWW@a3", set_name=_slit_set())
    assert "wallwalk bWW b3" in {format_action(a) for a in legal_actions(s)}
    s2, _ = apply_texts(s, "wallwalk bWW b3")
    assert s2.tokens["bWW"].square == sq("b3") and s2.ap == 4
    s3 = position("bWA@a3", set_name=_slit_set())
    assert_refused(s3, "move bWA b3-c3", "PR-SLIT-02")  # straight across: no (round by a4-b4: 3 squares)
