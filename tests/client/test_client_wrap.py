"""The side panes wrap their lines at spaces (client/wrap.py), not mid-word as prompt_toolkit's own wrapping does: a
scenario's goal in the event log used to read "... through you" / "r opponent's start zone"."""

from __future__ import annotations

import re

from prompt_toolkit.data_structures import Size

from dungeon_twister.client.layout import BOARD_WIDTH
from dungeon_twister.client.wrap import word_wrap

from test_client_printable import drawn
from test_client_prompt import WiredSession
from tests.engine.builders import position_text

GOAL = "goal: Be the first to take both of your figures out through your opponent's start zone."


def screen_of(wired: WiredSession, size: Size) -> str:
    """What the client drew on a terminal of `size`, cursor moves and styles turned into line breaks."""
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "\n", drawn(wired, size))


def lines_of(fragments) -> list[str]:
    return "".join(text for _, text in fragments).split("\n")


def test_lines_break_at_the_last_space_that_fits_and_keep_their_styles():
    wrapped = word_wrap([("class:a", "goal: Be the first to take"), ("class:b", " both of your figures")], 20)
    assert lines_of(wrapped) == ["goal: Be the first", "to take both of your", "figures"]
    assert ("class:b", "figures") in wrapped and ("class:a", "to take") in wrapped
    assert all(len(line) <= 20 for line in lines_of(wrapped))


def test_short_lines_own_line_breaks_and_overlong_words_are_kept():
    assert word_wrap([("", "fits")], 20) == [("", "fits")]
    assert lines_of(word_wrap([("", "one\ntwo three four five six")], 9)) == [
        "one", "two three", "four five", "six"]
    assert lines_of(word_wrap([("", "a " + "x" * 12 + " b")], 8)) == ["a", "x" * 12 + " b"], \
        "a word longer than the width is left to the window's own wrapping"
    assert lines_of(word_wrap([("", "漢字 漢字 漢字")], 10)) == ["漢字 漢字", "漢字"], "CJK counts 2 columns a character"


def test_the_event_log_beside_the_board_breaks_no_word():
    """At 100 columns the panel beside the 66-column board (and its scrollbar) has 32, the terminal's last one left
    empty: the goal is cut into lines at spaces, every word whole on the screen."""
    wired = WiredSession()
    wired.seat(position_text("bWA@c4 yTR@c6"))
    wired.session.state.log.append(GOAL)
    screen = screen_of(wired, Size(rows=40, columns=100))
    assert 100 - BOARD_WIDTH - 2 == 32
    for word in GOAL.split():
        assert word in screen, word
    # 32 columns, the last left empty: "goal: Be the first to take both" (31), "of your figures out through"
    # (27: "your" would make 32), the rest
    for line in ("goal: Be the first to take both", "of your figures out through", "your opponent's start zone."):
        assert line in screen, line


def test_a_line_too_long_for_the_terminal_ends_with_a_more_marker_after_a_whole_item():
    from dungeon_twister.client.layout import fit

    hints = "Tab completes actions · Up/Down history · help TOPIC · look SQUARE · leave · PgUp/PgDn board"
    assert fit(hints, len(hints)) == hints
    assert fit(hints, 60) == "Tab completes actions · Up/Down history · help TOPIC …"
    assert len(fit(hints, 60)) <= 60
    assert fit("one-long-item-without-separators", 10) == "one-long-…"


def test_at_80_by_24_the_board_shows_that_more_of_it_lies_above_and_the_hints_end_with_a_marker():
    wired = WiredSession()
    wired.seat(position_text("bWA@c4 yTR@c6"))
    screen = screen_of(wired, Size(rows=24, columns=80))
    assert "help TOPIC …" in screen, "the hints that do not fit are cut after a whole item, with a marker"
    # the keys that scroll the board come before what a narrow line cuts (play-test pl31: never said at 80 x 24)
    assert " F2 board/panel · PgUp/PgDn board · Tab completes actions · help TOPIC …" in screen
    # the board's scrollbar arrow: Blue's board opens on his side, at its bottom, so more lies above (PgUp); an
    # arrow stands only where there is more (layout.ScrollArrows: the help's "v" at its end misled i18n32)
    rows = [line.strip() for line in screen.split("\n")]
    assert "^" in rows and "v" not in rows


def test_the_lobby_hints_name_games_the_list_of_finished_games_and_keep_help_on_80_columns():
    """A review (rv27) found nothing in the lobby pointing at `games`, the way back to a finished game once its table
    has left the list: the hints line names it beside `ratings`. With it the line grew past 80 columns and its cut
    took `help`, the one hint a newcomer needs (review rv28): `help` comes first."""
    wired = WiredSession()
    screen = screen_of(wired, Size(rows=40, columns=160))
    assert " help · create · join TABLE · spectate TABLE · chat TEXT · refresh · ratings · games · quit" in screen
    narrow = screen_of(WiredSession(), Size(rows=24, columns=80))
    assert " help · create · join TABLE · spectate TABLE · chat TEXT · refresh · ratings …" in narrow
