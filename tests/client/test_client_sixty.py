"""The client on a 60 x 20 terminal (play-test pt31): the Card Game's board, the panel's lines, the title bar, Tab's
menu. The screens are read cell by cell from what prompt_toolkit drew (pipe input, a dummy output of the size
wanted), as in test_client_narrow."""

from __future__ import annotations

from dungeon_twister.client.cards_board import cards_board_text
from dungeon_twister.engine.cards import CardOptions, new_game, view
from dungeon_twister.protocol import Joined, Snapshot
from dungeon_twister.server.viewing import ViewPoint, table_view

from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import create_pipe_input

from dungeon_twister.client.ui import ClientUI

from test_client_narrow import SizedOutput, grid
from test_client_prompt import TABLE, WiredSession, redrawn, run

SHIFT_RIGHT = "\x1b[1;2C"
F2, PAGE_DOWN, PAGE_UP = "\x1bOQ", "\x1b[6~", "\x1b[5~"


def grids(wired: WiredSession, steps: list, rows: int = 20, columns: int = 60) -> list[list[str]]:
    """`grid` for keys typed in steps, the screen drawn after each (in one client: what F2 shows stays shown, and a
    window just shown is drawn before a key scrolls it), its rows after each step. A step that is no text is called
    instead (a message delivered, say)."""
    shown: list[list[str]] = []
    # without the flash of the turn's start (" ► YOUR TURN", TURN_FLASH_SECONDS of the wall clock at the panel's top):
    # on a slow run it went between two screens, which moved the panel's lines by one (pt33)
    wired.session.state.turn_since = None
    with create_pipe_input() as pipe:
        ui = ClientUI(wired.session, input=pipe, output=SizedOutput(Size(rows=rows, columns=columns)))

        async def script() -> None:
            for typed in steps:
                typed() if callable(typed) else pipe.send_text(typed)
                await redrawn(ui)
                await redrawn(ui)
                screen = ui.app.renderer._last_screen
                shown.append(["".join(screen.data_buffer[y][x].char if x in screen.data_buffer[y] else " "
                                      for x in range(columns)).rstrip() for y in range(rows)])

        run(ui, script)
    return shown


def at_card_table(options: CardOptions, seed: int = 3, seat: str = "B") -> WiredSession:
    wired = WiredSession()
    wired.session.join(TABLE, seat)
    wired.sent()
    wired.deliver(Joined(TABLE, "token", seat))
    point = ViewPoint(new_game(options, seed), {"B": "ann", "Y": "bob"}, {"id": TABLE, "game": "cards"}, True)
    wired.deliver(Snapshot(TABLE, 0, table_view(point, seat)))
    wired.sent()
    return wired


def test_CG_ZONE_the_card_games_board_fits_a_60_column_terminal_whole():
    """The maze was 64 columns wide (4 zones of 13, the labels, the room rows' letters): at 60 columns Shift+Right
    cut zone a. It is 59 now (the board's scrollbar takes the 60th): nothing cut, no Shift+Left/Right to press, and
    every zone row ends with its room letters."""
    for options in (CardOptions(1), CardOptions(None, "standard", "full")):
        v = view(new_game(options, 3), "B")
        lines = cards_board_text(v).splitlines()
        assert max(map(len, lines)) <= 59, max(lines, key=len)
        assert any(line.endswith("│ A B") for line in lines)
    wired = at_card_table(CardOptions(None, "standard", "full"))
    shown = grid(wired, rows=20, columns=60)
    assert not any("Shift+" in row for row in shown), shown[-1]
    assert not any("▸" in row or "◂" in row for row in shown)
    right = grid(wired, SHIFT_RIGHT, rows=20, columns=60)
    assert right[1:-4] == shown[1:-4], "nothing to shift"


def test_CG_ZONE_the_files_show_below_the_card_board_too_as_the_board_games():
    """The board game prints its files (a..j) above its board and below it; the card game's maze only above it.
    Now below too, under Blue's start zone, as the files above are over Yellow's."""
    lines = cards_board_text(view(new_game(CardOptions(1), 3), "B")).splitlines()
    assert lines[0].split() == ["a", "b", "c", "d"] and lines[-1] == lines[0]
    assert lines[1].startswith("Y ") and lines[-2].startswith("B ")


def panel_text(state) -> str:
    from dungeon_twister.client.games import screens
    from dungeon_twister.client.panel import game_panel

    return "".join(text for _style, text, *_ in game_panel(state, 0.0, screens(state.view).panel))


def test_a_secret_rounds_line_shows_once_in_the_message_bar_not_in_the_panel_too():
    """A committed secret choice's line ("you chose ...; waiting for ...") stood in the panel and in the message bar
    under it. The bar says it (it is there on every terminal, the panel only on a wide one or after F2); the panel
    says it when the bar says something else, and the line of a round already shown likewise."""
    from dungeon_twister.client.messages import message_bar
    from dungeon_twister.client.state import SecretChoice
    from tests.engine.builders import position_text

    wired = WiredSession()
    wired.seat(position_text("bWA@c4 yTR@c6 bTH@j2"))
    state = wired.session.state
    state.view = {**state.view, "secret": "combat-1"}
    round_ = state.secrets["combat-1"] = SecretChoice("combat-1", "3")
    state.say(round_.describe())
    bar = "".join(text for _style, text, *_ in message_bar(state, 0.0))
    assert bar == round_.describe() and round_.describe() not in panel_text(state)
    state.say("bob: hello")
    assert round_.describe() in panel_text(state), "the bar says another thing: the panel says it"
    state.view = {**state.view, "secret": None}
    round_.revealed, round_.opponent_choice = True, None
    state.say(round_.describe(pending=False))
    assert round_.describe(pending=False) not in panel_text(state)
    state.say("bob: hello")
    assert round_.describe(pending=False) in panel_text(state)


def test_the_title_bar_is_laid_out_for_60_columns():
    """At 60 columns the title bar, " Dungeon Twister Online · table t1-... · ann on HOST:PORT (player)", was cut in
    the server's address. It leaves out the least useful parts first, the program's name, then the address, then
    the role: the table and the name always show."""
    from tests.engine.builders import position_text

    wired = WiredSession()
    wired.seat(position_text("bWA@c4 yTR@c6 bTH@j2"))
    state = wired.session.state
    state.connected, state.server = True, "192.168.100.200:7777"
    wide = grid(wired, rows=20, columns=120)[0]
    assert wide.startswith(" Dungeon Twister Online · table ") and wide.endswith("ann on 192.168.100.200:7777 (player)")
    assert grid(wired, rows=20, columns=60)[0] == f" table {TABLE} · ann on 192.168.100.200:7777 (player)"
    state.server = "dungeon-twister.example.org:7777"
    assert grid(wired, rows=20, columns=60)[0] == f" table {TABLE} · ann (player)"
    assert grid(wired, rows=20, columns=30)[0].startswith(" table ")


def test_BG_REVEAL_06_at_60_by_20_the_panel_keeps_what_to_type_in_a_rooms_placement():
    """Play-test pt31: at 60 x 20 (the panel after F2) a room's placement pushed "Your move: ..." and the line of
    what to type below the panel's rows: the seats, the turn and the placement filled them. What the player has
    to do now (who places what, then what to type) has rows of its own under the rest of the panel, which gives way
    first; the line of what to type names the verbs to type, not how many legal actions there are."""
    from tests.engine.builders import position_text

    wired = WiredSession()
    wired.seat(position_text("bWA@c4 yTR@c6 bTH@j2"))
    state = wired.session.state
    legal = [f"place yRP {square}" for square in ("a1", "a2", "a3", "b1", "b2")] + ["pass"]
    state.view = {**state.view, "phase": "place", "legal": legal,
                  "placement": {"slot": "A1", "revealer": "Y", "placer": "B", "tokens": ["yRP"], "passed": False}}
    state.chat.extend(["bob: hi", "ann: hello"])
    rows = grid(wired, "\x1bOQ", rows=20, columns=60)  # (F2: the panel)
    text = "\n".join(rows)
    assert "Room A1 revealed: Blue places yRP" in text, text
    assert "Your move:" in text, text
    assert "type one of place, pass (first letters, then Tab)" in text, text
    assert "legal actions" not in text


def test_the_lobbys_table_list_header_keeps_its_last_column_on_60_columns():
    """Translation play-through i18n32: on 60 columns the table list's last header was cut by the screen's edge
    ("WATCHIN", and only "Z" in German once a table id widened the first column): the options' and the players'
    columns stopped giving way at 12 and 10. They give way further now (`NARROWEST`), in every language, and the
    count of spectators stays under its header; 80 columns are as they were (test_client_texts)."""
    from dungeon_twister.client import i18n
    from dungeon_twister.client.lobby import table_list
    from dungeon_twister.client.state import ClientState
    from dungeon_twister.protocol import TableInfo, TableOptions

    state = ClientState("ann", connected=True)
    state.tables = [TableInfo("t12-d5d96ea7", TableOptions(set_name="prison", timers=True), "playing", 3,
                              blue="Bernadette", yellow="Zoltan the Magnificent"),
                    TableInfo("t1-9bc539f2", TableOptions(), "waiting", 0, blue="ann")]
    try:
        for lang in ("en", "fr", "de", "es", "it"):
            i18n.use(lang)
            lines = "".join(text for _style, text, *_ in table_list(state, 59)).splitlines()
            assert max(map(len, lines)) <= 59, (lang, lines)
            assert lines[0].endswith(" " + i18n._("WATCHING")), (lang, lines[0])
            assert lines[1].endswith(" 3") and lines[2].endswith(" 0"), lang
            assert "Berna" in lines[1] or "Bern…" in lines[1], lines[1]
    finally:
        i18n.use("en")


def test_PD_TEAM_FREE_help_builds_scrollbar_shows_an_arrow_only_where_there_is_more():
    """Translation play-through i18n32 at 60 x 20: `help build` at a mixed free table, PgDn to the room pairs' last
    line, and a "v" still stood under the box: read as more lines that PgDn could not reach. prompt_toolkit draws
    both arrows always; the help's and the board's scrollbars draw "^" only while lines are above the window, "v"
    only while lines are below it. The edge: the first page (no "^") and the last (no "v", its last line shown)."""
    wired = free_build_table()
    grid(wired, "help build\r", rows=20, columns=60)
    text = wired.session.state.help_text
    from dungeon_twister.client.layout import HELP_ROWS_LEFT

    lines = text.at_width(58).splitlines()
    first, last = lines[0].strip(), lines[-1].strip()
    top = grid(wired, rows=20, columns=60)
    start = next(n for n, row in enumerate(top) if row.startswith(first[:30]))
    height = 20 - HELP_ROWS_LEFT  # (the box's rows: its text is longer)
    assert len(lines) > height and not top[start].endswith("^") and top[start + height - 1].endswith("v"), top
    bottom = grid(wired, "\x1b[6~" * 4, rows=20, columns=60)
    end = next(n for n, row in enumerate(bottom) if row.strip().startswith(last[:30]))
    assert bottom[end].rstrip().endswith(last) and not bottom[end].endswith("v"), bottom
    assert bottom[start].endswith("^"), bottom


def test_creates_usage_after_a_refused_option_wraps_whole_on_60_by_20():
    """Translation play-through i18n32: at 60 columns `create foo` answered with `create`'s usage cut after
    "[prison|mixed|paladins|base_paladins|prison_paladins|all_set": the sets' notation, one word longer than the
    line, was left to the terminal's wrapping, and the message bar kept 3 rows at most. A word with no space
    within the line now breaks after its last "|" that fits, and the bar takes the rows its text needs, up to a
    third of the screen's: the whole usage shows, every row within the line. The edge: 80 x 24 too."""
    from dungeon_twister.client.wrap import word_wrap

    notation = "[prison|mixed|paladins|base_paladins|prison_paladins|all_sets]"
    assert "".join(text for _style, text in word_wrap([("", "x " + notation)], 40)).split("\n") == [
        "x", "[prison|mixed|paladins|base_paladins|", "prison_paladins|all_sets]"]
    for rows, columns in ((20, 60), (24, 80)):
        wired = WiredSession()
        wired.session.state.connected = True
        shown = grid(wired, "create foo\r", rows=rows, columns=columns)
        notice = wired.session.state.notice
        assert notice.startswith("'foo' is not an option of create") and notice.endswith("[secret] [private]")
        start = next(n for n, row in enumerate(shown) if row.startswith("'foo'"))
        end = next(n for n, row in enumerate(shown) if row.endswith("[secret] [private]"))
        assert " ".join(shown[start:end + 1]).replace("| ", "|") == notice.replace("| ", "|"), shown
        assert all(len(row) < columns for row in shown[start:end + 1])


def test_every_phases_turn_line_fits_60_columns_in_english():
    """Translation play-through i18n32: the panel's turn line, "Turn 0 · team building (free choice, in secret) ·
    Blue and Yellow to act", ran past 59 columns, and its second row was cut when the player's own part took the
    panel's rows (i18n32 shortened the translations). The English phase names are short now: every phase of both
    games, with both seats to act and a two-digit turn, fits one row of a 60-column terminal."""
    from dungeon_twister.client.games import screens
    from dungeon_twister.client.panel import _turn

    for game in ("board", "cards"):
        parts = screens({"game": game}).panel
        for phase in parts.phases:
            view = {"game": game, "turn": 12, "phase": phase, "to_act": ["B", "Y"]}
            line = "".join(text for _style, text, *_ in _turn(view, 0.0, {}, parts)).strip("\n").split("\n")[0]
            assert line.endswith("Blue and Yellow to act") and len(line) <= 59, (game, phase, line)


def test_PD_TEAM_FREE_01_help_build_lists_the_characters_and_objects_to_choose_reachable_on_60_by_20():
    """Translation play-through i18n32 at 60 x 20: the characters' and objects' lists of a free build were out of
    reach: the panel (F2) showed the room pairs' line and cut the rest below its rows, with no way to scroll, and
    `help build`, which scrolls, listed only the room pairs. `help build` at such a table now ends with the other
    parts' lines, as the panel words them, and PgDn shows them; the edge: away from a table, no such lines."""
    from dungeon_twister.client.help import help_text
    wired = free_build_table()
    panel = grid(wired, "\x1bOQ", rows=20, columns=60)  # (F2: the panel)
    assert any(row.startswith("  room pairs (pairs=...)") for row in panel)
    assert not any("characters=..." in row for row in panel), "the panel cuts them: the reason for the help's"
    grid(wired, "help build\r", rows=20, columns=60)
    lines = str(wired.session.state.help_text).split("\n")
    assert lines[-2].startswith("characters (characters=...): choose 8 of AS BS CL CO ES GB GH GO IL MK NG PA")
    assert lines[-1].startswith("objects (objects=...): choose 6 of AR BW CH DS FH FS FW KYx2 LN RG RPx2")
    bottom = grid(wired, "\x1b[6~" * 4, rows=20, columns=60)
    assert any(row.startswith("objects (objects=...): choose 6") for row in bottom), bottom
    assert any(row.strip() == "TS" or row.endswith(" TS") for row in bottom), bottom
    assert "characters=..." not in help_text("build"), "away from a table: the fixed example only"


def free_build_table() -> WiredSession:
    from dungeon_twister.engine import Options, new_game

    wired = WiredSession()
    wired.session.join(TABLE, "B")
    wired.sent()
    wired.deliver(Joined(TABLE, "token", "B"))
    point = ViewPoint(new_game(Options(set_name="all_sets", teams="free"), 3), {"B": "ann", "Y": "bob"},
                      {"id": TABLE}, True)
    wired.deliver(Snapshot(TABLE, 0, table_view(point, "B")))
    return wired


def test_the_hints_name_what_PgUp_PgDn_scroll_now_the_help_the_panel_or_the_board():
    """pt32: with the help box open the hints line said "PgUp/PgDn board", while the keys scrolled the help. It
    names what they scroll at that moment: the help while it is open, the side panel while F2 shows it on a narrow
    terminal, else the board; the edge: the help opened over the panel, and on a wide terminal (the panel beside the
    board) F2 changes nothing and the keys scroll the board."""
    wired = free_build_table()
    board, panel, panel_help = grids(wired, ["", F2, "help\r"])
    helped = grids(free_build_table(), ["help build\r"])[-1]
    assert "PgUp/PgDn board" in board[-1] and "PgUp/PgDn help" not in board[-1], board[-1]
    assert "PgUp/PgDn help" in helped[-1] and "PgUp/PgDn board" not in helped[-1], helped[-1]
    assert "PgUp/PgDn panel" in panel[-1], panel[-1]
    assert "PgUp/PgDn help" in panel_help[-1], panel_help[-1]
    wide = grids(free_build_table(), [F2], rows=40, columns=120)[-1]
    assert "PgUp/PgDn board" in wide[-1] and "panel" not in wide[-1], wide[-1]


def test_PD_TEAM_FREE_01_PgDn_scrolls_the_side_panel_to_a_free_builds_lists_on_60_by_20():
    """pt32 (left by pt31/i18n32): at 60 x 20 the side panel (F2) cut a free build's characters' and objects' lists
    below its rows, with no way to scroll them. PgDn scrolls the panel while F2 shows it, a scrollbar says there is
    more ("v") or some above ("^"), and PgUp brings its top back; the edge: its top first, with no "^", and beside
    the board on a terminal tall enough for the panel (120 x 50) it has no scrollbar and PgDn scrolls the board."""
    wired = free_build_table()
    top, down, up = grids(wired, [F2, PAGE_DOWN, PAGE_UP])
    assert any(row.startswith("Table t-1") for row in top) and not any("characters=..." in row for row in top), top
    assert any(row.endswith("v") for row in top) and not any(row.endswith("^") for row in top), top
    assert any(row.startswith("  characters (characters=...): choose 8") for row in down), down
    assert any(row.startswith("  objects (objects=...): choose 6") for row in down), down
    assert any(row.endswith("^") for row in down), down
    assert up == top
    assert any(row.startswith("Choose in secret") for row in down), "what to do now stays under the panel"
    wide = grids(free_build_table(), [PAGE_DOWN], rows=50, columns=120)[-1]
    assert "PgUp/PgDn board" in wide[-1] and any(row[68:].startswith("  objects (objects=...): choose") for row in wide)
    assert not any(row[68:].endswith(("^", "v")) for row in wide), "the panel's: whole beside the board, no scrollbar"
