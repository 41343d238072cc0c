"""Perft counts for hand-checked Prison positions (issue 8): a shooter whose only line of sight goes through an
arrow slit, and the Banshee's push through one. The cells a16 and f16 of the Prison test rooms are walled north,
south and west, an arrow slit on the east (tests/engine/prison/builders.py): a figure there has no move, no jump
(no pit), no rotation (not a gear), no melee; it sees east only, through the slit (PR-SLIT-03/04)."""

from __future__ import annotations

from dungeon_twister.engine import format_action, legal_actions

from .builders import prison_position

POSITION = "bCL@a16 bBW@a16 bBS@f16 yMK@d16 yNG@e16 yTP@i16"


def test_perft_PR_RANGED_02_PR_CHAR_BANSHEE_01_through_slits_with_2_ap():
    """Blue, 2 AP: end; the Cleric's Bow sees b16, c16, then the Mechanork on d16 (the Naga behind him is hidden):
    one shot; the Banshee sees g16, h16, then the Telepath on i16, pushed to the free j16: one push. 3 in all."""
    state = prison_position(POSITION, ap=2)
    assert sorted(format_action(a) for a in legal_actions(state)) == ["end", "push bBS yTP", "shoot bCL yMK"]


def test_perft_the_push_needs_2_ap():
    """With 1 AP the push (2 AP) goes: end and the shot, 2 in all."""
    state = prison_position(POSITION, ap=1)
    assert sorted(format_action(a) for a in legal_actions(state)) == ["end", "shoot bCL yMK"]


def test_perft_yellow_sees_nothing_back_through_the_slits():
    """Yellow to act, 5 AP: the Mechanork on d16 does not see a16 through the slit a16|b16 (not beside it), the
    Telepath on i16 does not see f16: no push, no shot, no attack on the walled-in figures. Yellow's moves are the
    rest; none of them is a combat."""
    state = prison_position(POSITION, active="Y")
    kinds = {format_action(a).split()[0] for a in legal_actions(state)}
    assert kinds == {"end", "move"}


def test_PR_SLIT_01_dt_engine_draws_arrow_slits():
    """The text board of `dt-engine show` draws a slit across a rank as `!` and between ranks as `~~~`."""
    from dungeon_twister.engine import view
    from dungeon_twister.engine.tools.ascii import render

    lines = render(view(prison_position(POSITION), "*")).splitlines()
    rank16 = next(line for line in lines if line.startswith(" 16 |"))
    assert rank16[5 + 3] == "!"  # the edge right of a16: the slit a16|b16
    above14 = lines[lines.index(next(line for line in lines if line.startswith(" 14 |"))) - 1]
    assert "~~~" not in above14 and "!" in next(line for line in lines if line.startswith(" 14 |"))
    base = render(view(prison_position("bNG@c3 yMK@h4"), "*"))
    assert base.count("!") >= 2 and "~~~" in base  # d11|d12 and i11|i12 are between ranks
