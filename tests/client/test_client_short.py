"""The client on short terminals wide enough for the panel beside the board (100 x 24, 120 x 20; pt32b, pt33): the
side panel's end within reach, and where the panel's scroll stands after a new view. The screens are read cell by
cell from what prompt_toolkit drew (pipe input, a dummy output of the size wanted), as in test_client_sixty."""

from __future__ import annotations

from dungeon_twister.engine import Options, apply, new_game, parse_action
from dungeon_twister.engine.cards import CardOptions
from dungeon_twister.protocol import Joined, Snapshot
from dungeon_twister.server.viewing import ViewPoint, table_view

from test_client_prompt import TABLE, WiredSession
from test_client_sixty import F2, PAGE_DOWN, PAGE_UP, at_card_table, free_build_table, grids

PANEL = 68
"""The panel's first column beside the board (the board's 66, its scrollbar and the separator)."""
BLUE = "build pairs=3,41 characters=ES,GH,MK,PA,RD,TH,WA,WZ objects=FH,KY,KY,RP,SW,TS"
YELLOW = "build pairs=41,42 characters=AS,CL,GO,IL,NG,PP,TR,WM objects=CH,DS,FS,RG,RP,SP"


def steady(wired: WiredSession) -> WiredSession:
    """`wired` without the flash of its turn's start (" ► YOUR TURN", a few seconds at the panel's top): a slow run
    saw it go between two screens, the panel's lines moved by one."""
    wired.session.state.turn_since = None
    return wired


def panel(screen: list[str]) -> list[str]:
    return [row[PANEL:] for row in screen[1:-3]]


def at_top(rows: list[str]) -> bool:
    """Whether the panel's `rows` show its top: the table's line first, or under the flash of a turn's start (which
    lasts a few seconds: a slow run is past it)."""
    return not rows[0].endswith("^") and any(row.startswith("Table t-1") for row in rows[:2])


def board(screen: list[str]) -> list[str]:
    return [row[:PANEL] for row in screen[1:-3]]


def test_PD_TEAM_FREE_01_the_panel_beside_the_board_scrolls_to_a_free_builds_lists_on_100_by_24():
    """pt32b: at 100 x 24 the panel beside the board cut a free build's characters' and objects' lists, and
    PgUp/PgDn scrolled only the board. While both are taller than their rows the hints name F2 first, F2 makes
    PgUp/PgDn scroll the panel (its scrollbar says where there is more), the board staying where it was, and the
    panel's end (Yellow's hand) comes into view; the edge: the keys scroll the board again after a second F2, and
    PgUp brings the panel's top back exactly."""
    top, chosen, down, end, back, up, up_again = grids(
        steady(free_build_table()), ["", F2, PAGE_DOWN, PAGE_DOWN + PAGE_DOWN, F2, PAGE_UP + F2, PAGE_UP * 3],
        rows=24, columns=100)
    assert top[-1].startswith(" F2 board/panel · PgUp/PgDn board · "), top[-1]
    assert not any("characters=..." in row for row in panel(top)), panel(top)
    assert any(row.endswith("v") for row in panel(top)) and not any(row.endswith("^") for row in panel(top))
    assert chosen[-1].startswith(" F2 board/panel · PgUp/PgDn panel · "), chosen[-1]
    assert any(row.startswith("  characters (characters=...):") for row in panel(down)), panel(down)
    assert any(row.startswith("  objects (objects=...):") for row in panel(down)), panel(down)
    assert any(row.endswith("^") for row in panel(down)), panel(down)
    assert any(row.startswith("  combat: 9 cards") for row in panel(end)), "Yellow's hand: the panel's end"
    assert not any(row.endswith("v") for row in panel(end)), panel(end)
    assert any(row.startswith("Choose in secret") for row in panel(end)), "what to do now stays under the panel"
    assert board(top) == board(chosen) == board(down) == board(end), "the board stays while the panel scrolls"
    assert back[-1].startswith(" F2 board/panel · PgUp/PgDn board · "), back[-1]
    assert board(up) != board(end) and panel(up) == panel(end), "PgUp after F2 again: the board, not the panel"
    assert at_top(panel(up_again)) and at_top(panel(top))


def test_CG_TUTO_PgUp_PgDn_scroll_the_panel_beside_a_board_that_fits_with_no_F2():
    """At 100 x 22 the Card Game's tutorial board (17 rows) fits and the panel beside it does not: PgUp/PgDn scroll
    the panel with no F2 to press, and the hints do not name F2; the edge: a free build's board game at 120 x 50,
    where the panel fits and the board does not, names the board and no F2."""
    fits, down = grids(steady(at_card_table(CardOptions(1))), ["", PAGE_DOWN], rows=22, columns=100)
    assert " PgUp/PgDn panel · " in fits[-1] and "F2" not in fits[-1], fits[-1]
    assert any(row.endswith("v") for row in panel(fits)), panel(fits)
    assert any(row.endswith("^") for row in panel(down)) and panel(down) != panel(fits), panel(down)
    assert board(down) == board(fits)
    whole = grids(steady(free_build_table()), [""], rows=50, columns=120)[-1]
    assert whole[-1].endswith("PgUp/PgDn board") and "F2" not in whole[-1], whole[-1]


def test_a_new_phase_shows_the_panels_top_the_same_phase_keeps_where_it_was_scrolled():
    """pt32b: the panel's scroll stayed where it was across views, so a new phase showed the last one's scrolled
    place, its turn line out of view. A view of another phase (both teams built: the team phase) shows the panel's
    top; the edge: a view of the same phase (Blue built, Yellow still choosing) keeps it where the player scrolled
    it. At 60 x 20 (F2) and beside the board at 100 x 24."""
    state = new_game(Options(set_name="all_sets", teams="free"), 3)
    blue, _ = apply(state, parse_action(BLUE, "B"))
    both, _ = apply(blue, parse_action(YELLOW, "Y"))
    for columns, rows, left in ((60, 20, 0), (100, 24, PANEL)):
        wired = steady(free_build_table())

        def deliver(state, n: int):
            point = ViewPoint(state, {"B": "ann", "Y": "bob"}, {"id": TABLE}, True)
            return lambda: wired.deliver(Snapshot(TABLE, n, table_view(point, "B")))

        shown = grids(wired, [F2, PAGE_DOWN, deliver(blue, 1), deliver(both, 2)], rows=rows, columns=columns)
        top, down, same, other = ([row[left:] for row in screen[1:-3]] for screen in shown)
        assert at_top(top), top
        assert not at_top(down) and any(row.endswith("^") for row in down), down
        assert not at_top(same) and "Turn 0" not in "".join(same), same
        assert any(row.startswith("  Blue has chosen") for row in same), "the new view is shown"
        assert any(row.startswith("Turn 0 · ") for row in other), other
        assert not any(row.endswith("^") for row in other), other


def test_F2_away_from_the_panel_and_back_keeps_where_it_was_scrolled_on_60_by_20():
    """The same phase keeps the panel's scroll across F2 (the board shown, then the panel again): a player who
    scrolled to the build's lists and looked at the board finds them again."""
    _top, scrolled, _board, again = grids(steady(free_build_table()), [F2, PAGE_DOWN, F2, F2])
    assert again == scrolled and any(row.startswith("  characters (characters=...)") for row in again), again


def test_BG_SETUP_04_a_rounds_check_is_reachable_at_the_panels_end_not_cut_under_what_to_type_on_100_by_24():
    """pt33, at 100 x 24 in the hidden placement after the team choice: the starting team's round ("...; the
    opponent's choice is shown when the game shows it, checked to be the one he made before he saw yours") stood
    under "Your move" in the window of what to type, which does not scroll, and lost its end there. It is at the
    end of the rest of the panel, which scrolls (F2, PgDn); the edge: what to type keeps its window, whole."""
    from dungeon_twister.client.state import SecretChoice
    from dungeon_twister.engine import legal_actions

    state = new_game(Options(), 3)
    state, _ = apply(state, parse_action("team b0=CL d0=GB g0=MK i0=TH", "B"))
    state, _ = apply(state, list(legal_actions(state, "Y"))[0])
    assert state.phase == "hide" and state.to_act == ("B",)
    wired = WiredSession()
    wired.session.join(TABLE, "B")
    wired.sent()
    wired.deliver(Joined(TABLE, "token", "B"))
    wired.session.state.secrets["team"] = SecretChoice("team", "team b0=CL d0=GB g0=MK i0=TH", revealed=True)
    point = ViewPoint(state, {"B": "ann", "Y": "bob"}, {"id": TABLE}, True)
    wired.deliver(Snapshot(TABLE, 0, table_view(point, "B")))
    shown = grids(wired, ["", F2, PAGE_DOWN * 3], rows=24, columns=100)
    first, end = panel(shown[0]), panel(shown[-1])
    own = first[next(n for n, row in enumerate(first) if row.startswith("Your move")):]
    own = own[:next(n for n, row in enumerate(own) if row.startswith("────"))]
    assert "".join(own).startswith("Your move: hide a token") and "type hide" in "".join(own), own
    assert not any("chose" in row for row in own), own
    assert "before he saw yours" in " ".join(end), end


def test_PD_TEAM_FREE_01_at_the_panels_end_no_v_stands_for_its_last_blank_line_on_60_by_20():
    """pt33 at 60 x 20: the side panel's text ends with a blank line (before what to type); at the end of its
    lists a "v" still said there was more, and PgDn showed only that blank line. A scroll ends at its text's last
    line that is not blank: at its end (Yellow's hand) the panel's last row is that line, with no "v"; the edge: a
    PgDn more changes nothing."""
    for rows in (20, 21):
        shown = grids(steady(free_build_table()), [F2] + [PAGE_DOWN] * 7, rows=rows)
        end = shown[-1][1:-3]
        last = end[next(n for n, row in enumerate(end) if row.startswith("Choose in secret")) - 1]
        assert last.startswith("  jumps: 3"), end
        assert not any(row.endswith("v") for row in end) and shown[-1] == shown[-2]
        assert any(row.startswith("  combat: 9 cards") for row in end), end
