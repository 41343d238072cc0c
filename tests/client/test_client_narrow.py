"""The client on narrow terminals (play-test pt29 at 80 x 24 and 60 x 20): help laid out for the width, the finished
games' list fitted to it, the board's every column reachable. The screens are read cell by cell from what
prompt_toolkit drew (pipe input, a dummy output of the size wanted)."""

from __future__ import annotations

import pytest
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from dungeon_twister.client import i18n
from dungeon_twister.client.help import help_text
from dungeon_twister.client.ui import ClientUI
from dungeon_twister.client.wrap import lay_out

from test_client_prompt import WiredSession, redrawn, run
from tests.engine.builders import position_text

LANGUAGES = ("en", "fr", "de", "es", "it")


class SizedOutput(DummyOutput):
    """A dummy terminal of a given size."""

    def __init__(self, size: Size) -> None:
        super().__init__()
        self.size = size

    def get_size(self) -> Size:
        return self.size


def grid(wired: WiredSession, typed: str = "", rows: int = 24, columns: int = 80) -> list[str]:
    """The rows of the screen the client drew on a terminal of `rows` x `columns` after `typed`, as its cells
    read (right spaces removed)."""
    shown: list[str] = []
    with create_pipe_input() as pipe:
        ui = ClientUI(wired.session, input=pipe, output=SizedOutput(Size(rows=rows, columns=columns)))

        async def script() -> None:
            pipe.send_text(typed)
            await redrawn(ui)
            await redrawn(ui)  # (a help just opened is drawn again once its height is known)
            screen = ui.app.renderer._last_screen
            for y in range(rows):
                row = screen.data_buffer[y]
                shown.append("".join(row[x].char if x in row else " " for x in range(columns)).rstrip())

        run(ui, script)
    return shown


@pytest.fixture
def language():
    yield i18n.use
    i18n.use("en")


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("width", [78, 58])
def test_the_command_lists_explanations_stand_in_one_column_at_80_and_60_columns(language, lang, width):
    """Play-test pt29 F3 and F29: at 80 columns the lobby's help set its explanations at column 49 and the box broke
    them at column 0 after 31 characters; the table's help broke its lines by hand ("\\n" and 24 spaces in the
    texts), so the box broke them again, a fragment at column 0 and the hand's continuation indented. Now every
    line fits the box, and only a command starts a line at column 0: every explanation's line, first or not,
    starts in one column."""
    language(lang)
    for at_table in (False, True):
        text = help_text(at_table=at_table)
        laid = text.at_width(width).split("\n")
        assert all(len(line) <= width for line in laid), [line for line in laid if len(line) > width]
        keys = ("Keys", "Tast", "Touch", "Tecl")  # (the table's last paragraph, the keys, in each language)
        listed = laid[:next((n for n, line in enumerate(laid) if line.startswith(keys)), len(laid))]
        commands = len([line for line in str(text).split("\n") if not line.startswith((" ", *keys))])
        assert len([line for line in listed if not line.startswith(" ")]) == commands
        columns = {len(line) - len(line.lstrip(" ")) for line in listed if line.startswith(" ")} - {2}
        assert len(columns) == 1, columns  # (2: an overlong command's own continuation)
        column = columns.pop()
        assert all(line[column - 2:column] == "  " and line[column] != " " for line in listed
                   if not line.startswith(" ") and "  " in line), "an explanation beside its command, or below it"


def test_a_help_line_is_broken_at_spaces_with_its_indent_and_an_entrys_explanation_in_its_column():
    marked = ("join TABLE\ttake a seat at a table named by its id or its number, or by its number alone\n"
              "quit\tleave\n  rules: a long rule text in words that go on and on and on")
    assert lay_out(marked, 50).split("\n") == [
        "join TABLE  take a seat at a table named by its id",
        "            or its number, or by its number alone",
        "quit        leave",
        "  rules: a long rule text in words that go on and",
        "  on and on"]
    assert lay_out(marked, None).split("\n")[0] == marked.split("\n")[0].replace("\t", "  ")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_help_board_at_80_columns_is_a_symbol_a_line(language, lang):
    """Play-test pt29 F27: `help board` set two symbols a row for a wide screen; at 80 columns a Spanish row
    wrapped, and the second column's symbols landed at column 0. Now a symbol a line, its explanation beside it."""
    language(lang)
    laid = help_text("board").at_width(78).split("\n")
    assert all(len(line) <= 78 for line in laid)
    for symbol in ("bWA ", "bwa ", "(bTH)", "@3↻", "░░░", "║ ═", "┊ ┈", "~~~", "<*>"):
        line = next(line for line in laid if line.startswith(" " + symbol))
        assert len(line) > 13 and line[13] != " ", line
    laid = help_text("cards").at_width(78).split("\n")
    assert all(len(line) <= 78 for line in laid)
    assert next(line for line in laid if line.startswith(" ≈ "))[13] != " "


def test_the_tables_help_on_an_80_by_24_screen_has_no_fragment_at_column_0():
    """The box as drawn: its lines laid out for the screen's width, none touching the scrollbar's column."""
    wired = WiredSession()
    wired.seat(position_text("bWA@c4 yTR@c6"))
    wired.session.state.help_text = help_text(at_table=True)
    rows = grid(wired, rows=24, columns=80)
    box = rows[rows.index(next(row for row in rows if row.startswith("ACTION"))):]
    undo = next(n for n, row in enumerate(box) if row.startswith("undo"))  # (an entry that wraps, on the first page)
    assert box[undo + 1].startswith(" " * 16 + "secret or a reveal)"), box[undo:undo + 2]
    assert all(len(row) < 80 or row[78] == " " for row in box), "a space before the scrollbar"


@pytest.mark.parametrize("width", [78, 58, 118])
def test_the_finished_games_rows_fit_the_width_their_columns_in_line(width):
    """Play-test pt29 F16: at 80 columns each row of `games` wrapped (a row of 130 columns), so the columns did not
    line up. Now a row fits: the options and the names give way (cut with a "…"), and where the result still has
    no room it goes on a line of its own below its row; the table's id, which `dt-client replay` takes, is whole."""
    from dungeon_twister.client.inbox import handle
    from dungeon_twister.protocol import GameInfo, Games, TableOptions

    wired = WiredSession()
    handle(wired.session, Games((
        GameInfo("t7-3f9a02c1", TableOptions(), 1796053659, "target reached", 2, 5, "Y", "ann", "bob"),
        GameInfo("t9-0b1c2d3e", TableOptions(scenario="prison-2"), 1796040000, "aborted", 0, 0, None, "cy",
                 "planner-bot-2")), 2))
    lines = wired.session.state.help_text.at_width(width).split("\n")
    assert all(len(line) <= width for line in lines), [line for line in lines if len(line) > width]
    header = next(line for line in lines if line.strip().startswith("table"))
    rows = [line for line in lines if line.startswith("  t") and line is not header]
    assert [row.split()[0] for row in rows] == ["t7-3f9a02c1", "t9-0b1c2d3e"]
    column = header.index("ended")
    date = "2026-11-30 " if width > 60 else "11-30 "  # (on 60 columns without the year)
    assert all(row[column:].startswith(date) for row in rows), "the dates under their header"
    assert "Yellow wins 5-2 (target reached)" in "\n".join(lines)
    if width == 118:  # (room for the names, not for the longest result beside them)
        assert "planner-bot-2" in "\n".join(lines)


SHIFT_RIGHT, SHIFT_LEFT = "\x1b[1;2C", "\x1b[1;2D"


def test_on_a_60_by_20_terminal_every_column_of_the_board_can_be_seen_and_is_labelled():
    """Play-test pt29 F26: at 60 columns the board (66 wide) was cut on the right: column j never showed, and
    nothing said so. The board shows its left end with "▸" beside its files, and Shift+Right its right end (with
    "◂", the room rows' numbers, column j and what stands there); the ranks' labels stay on the left either way,
    and the hints name the keys."""
    wired = WiredSession()
    wired.seat(position_text("bWA@c4 yTR@c6 bTH@j2"))
    left = grid(wired, rows=20, columns=60)
    files = next(row for row in left if row.split()[:2] == ["a", "b"])
    assert files.split() == [*"abcdefghi", "▸"]
    assert any(row.startswith(" 2 ") for row in left) and not any("bTH" in row for row in left)
    assert left[-1].startswith(" Shift+←/→ board · F2 board/panel")
    right = grid(wired, SHIFT_RIGHT, rows=20, columns=60)
    files = next(row for row in right if row.split()[1:3] == ["b", "c"])
    assert files.split() == ["◂", *"bcdefghij"]
    two = next(row for row in right if row.startswith(" 2 "))
    assert "bTH │" in two, "column j, and the board's right edge"
    assert any(row.endswith("│ 1") for row in right), "the room row's number"
    assert all(len(row) <= 60 for row in right)
    back = grid(wired, SHIFT_RIGHT + SHIFT_LEFT, rows=20, columns=60)
    assert next(row for row in back if row.split()[:2] == ["a", "b"]).split()[-1] == "▸"


def test_a_board_that_fits_is_not_cut_nor_marked():
    wired = WiredSession()
    wired.seat(position_text("bWA@c4 yTR@c6 bTH@j2"))
    rows = grid(wired, SHIFT_RIGHT, rows=24, columns=80)
    files = next(row for row in rows if row.split()[:2] == ["a", "b"])
    assert files.split() == [*"abcdefghij"] and not rows[-1].startswith(" Shift")


def test_a_secret_choice_is_named_in_words_not_by_its_protocol_id():
    """Play-test pt29 F12: the player-facing texts named the secret choices by the protocol's ids: "secret choice
    (team)", "(combat-1)", the prompt "t1-b5a79dfb B combat-1 (secret)>", "combat-1: you chose ...". A newcomer
    read them as noise. The texts say what is chosen in words; the prompt, short, what is typed ("combat 1")."""
    from dungeon_twister.client.messages import prompt_label
    from dungeon_twister.client.panel import _your_part
    from dungeon_twister.client.games import screens
    from dungeon_twister.client.state import SecretChoice, purpose_name
    from dungeon_twister.protocol import OpponentCommit

    assert purpose_name("combat-12") == "the card for combat 12" and purpose_name("team") == "the starting team"
    assert purpose_name("face") == "the start characters' facings" and purpose_name("other") == "other"
    wired = WiredSession()
    wired.seat(position_text("bWA@c4 yTR@c5", phase="combat", fields="combat 1 bWA>yTR att=bWA def=yTR"))
    state = wired.session.state
    assert prompt_label(state) == "t-1 B combat 1 (secret)> "
    asked = "".join(text for _style, text, *_ in _your_part(state, state.view, screens(state.view).panel))
    assert "Choose in secret (the card for combat 1): type combat" in asked
    wired.deliver(OpponentCommit("t-1", "combat-1", "Y", bytes(32)))
    assert state.log[-1] == "Yellow has made his secret choice (the card for combat 1); make yours"
    told = SecretChoice("combat-1", "combat +4", revealed=True, opponent_choice="combat +6").describe()
    assert told.startswith("the card for combat 1: you chose 'combat +4'")
    assert "combat-1" not in told + state.log[-1] + asked + prompt_label(state)


JARGON = ("commit", "reveal", "verified")


def test_BG_SETUP_04_help_and_the_rounds_of_a_secret_choice_say_it_in_a_players_words():
    """Play-test pt29 F4: `help team` said "the client commits to it and reveals it", and the round's line, once
    chosen, "the opponent's choice is checked against his commitment when the game shows it": the protocol's
    words (commit-reveal), which a newcomer cannot follow. They say what happens to the player now: chosen in
    secret, shown together, checked to be made before the other's was seen. The edge: every stage of a round."""
    from dungeon_twister.client.help import help_text
    from dungeon_twister.client.state import SecretChoice

    for topic, game in (("team", "board"), ("combat", "board"), ("build", "board"), ("card", "cards"),
                        ("build", "cards")):
        meaning = help_text(topic, game=game).split("\n")[0]
        assert not any(word in meaning.lower() for word in JARGON), meaning
    assert "in secret" in help_text("team").split("\n")[0] and "shown together" in help_text("combat")
    rounds = [SecretChoice("team", "team TH WA TR GB"), SecretChoice("team", "team TH WA TR GB", revealed=True),
              SecretChoice("team", "team TH WA TR GB", revealed=True, opponent_choice="team GB TR WA TH")]
    told = [round_.describe() for round_ in rounds] + [rounds[1].describe(pending=False)]
    assert told[0] == "the starting team: you chose 'team TH WA TR GB'; waiting for the opponent to choose"
    assert told[2].endswith("the opponent 'team GB TR WA TH' (checked: made before he saw yours)")
    assert not any(word in line for line in told for word in JARGON), told


def test_BG_SETUP_04_tab_shows_what_a_word_does_or_names_not_how_many_actions_follow():
    """Play-test pt29 F5: Tab's menu showed "b0=CL  Cleric · 210 actions", "hide  80 actions": the count of the
    whole actions a word leads to, read as if the Cleric had 210 actions. A verb now says what it does, a token what
    it is, and a word that is neither shows nothing; the action itself still shows where one word completes it."""
    from prompt_toolkit.completion import CompleteEvent
    from prompt_toolkit.document import Document

    from dungeon_twister.client.completion import PromptCompleter
    from dungeon_twister.client.state import ClientState

    state = ClientState("ann", table="t-1", seat="B")
    teams = [f"team b0={a} d0={b} g0=TR i0=GB" for a in ("CL", "WA") for b in ("TH", "MK")]
    state.view = {"legal": [*teams, "hide bRP A1", "hide bRP A2", "move bWA c5", "move bWA d4"]}
    completer = PromptCompleter(state)

    def menu(text: str) -> dict[str, str]:
        return {c.text: c.display_meta_text for c in completer.get_completions(Document(text),
                                                                               CompleteEvent(completion_requested=True))}

    assert menu("team ") == {"b0=CL": "Cleric", "b0=WA": "Warrior"}
    assert menu("t")["team"] == "choose your starting team in secret"
    assert menu("h")["hide"] == "hide a token face down in a room"
    assert menu("move bWA ") == {"c5": "move bWA c5", "d4": "move bWA d4"}, "one action: the action"
    assert menu("hide bRP ") == {"A1": "hide bRP A1", "A2": "hide bRP A2"}
    assert not any("action" in meta for meta in (*menu("team ").values(), *menu("").values()))


def test_CG_TUT1_the_tutorials_goal_and_new_rules_show_in_the_help_box_as_the_game_starts():
    """Play-test pt29 F20: Card Game tutorial 1 told its goal and new rules in the log alone: at 80 x 24 the board
    shows first (the panel, with the log's 3 rows, is on F2), and by then the log had cut the goal to its last
    words. As the game starts they show in the help box too, whole, over the board (Esc closes it, `help goal`
    shows it again); the edge: a box already open (another text) is left as it is, the log has them either way."""
    from dungeon_twister.protocol import Joined, Snapshot, TableEvent

    from test_client_cards import maze_view

    def tutorial_table(opened: str | None = None) -> WiredSession:
        wired = WiredSession()
        wired.session.join("t-1", "B")
        wired.sent()
        wired.deliver(Joined("t-1", "token", "B"))
        wired.deliver(Snapshot("t-1", 0, {**maze_view(), "table": {"id": "t-1"}, "seats": {"B": "ann", "Y": "bot"}}))
        wired.session.state.help_text = opened
        wired.deliver(TableEvent("t-1", 1, {"kind": "game_started"}))
        return wired

    wired = tutorial_table()
    rows = grid(wired, rows=24, columns=80)
    shown = " ".join(row.strip() for row in rows)
    assert "goal: Be the first to take both of your characters out through the opponent's start zone (1 VP each)." \
        in shown
    assert "new rules: Only moving" in shown and "help goal shows it again" in shown
    assert any(row.startswith("tutorial 1: Moving") for row in rows)
    assert "goal: Be the first" in "\n".join(wired.session.state.log)
    wired.session.state.help_text = help_text("goal", at_table=True, game="cards", view=wired.session.state.view)
    assert wired.session.state.help_text.startswith("tutorial 1: Moving\ngoal: Be the first")
    assert tutorial_table("another text").session.state.help_text == "another text"


@pytest.mark.parametrize("game", ["board", "cards"])
def test_help_rules_begins_with_what_the_game_is_its_goal_a_turn_and_the_actions(game):
    """Play-test pt29: `help rules` was only a list of 80 rule families (BG-COMP, BG-GEO, ...), no word of what the
    game is. It begins with a short overview, the game's own at a card table (BG-VP, BG-TURN; CG-VP, CG-TURN),
    and the families follow."""
    text = help_text("rules", game=game)
    overview, families = text.split("\n\nRule families", 1)
    for word in ("Goal:", "A turn:", "AP", "`end`", "in secret"):
        assert word in overview, word
    assert ("help CG-TURN" in overview) == (game == "cards") and ("help BG-TURN" in overview) == (game == "board")
    assert "BG-COMP, BG-GEO" in families and "CG-EX" in families


def test_a_games_goal_box_goes_with_its_table_another_help_text_stays():
    """The goal box opened as a game starts (pt30) stayed over the next table's screen when the server moved the
    player there (a kept seat, srv30: the new table waits for an opponent, with no game yet). It goes with its
    table now, as that table's log does; a help text the player asked for stays."""
    from dungeon_twister.client.help import goal_box
    from dungeon_twister.client.state import ClientState

    state = ClientState("ann", connected=True)
    state.table, state.seat = "t1-aaaa0001", "B"
    state.help_text = goal_box(["goal: take the Treasure out"])
    state.leave_table()
    assert state.help_text is None
    state.table, state.seat = "t2-aaaa0002", "B"
    state.help_text = help_text("board")
    state.leave_table()
    assert state.help_text == help_text("board")


def test_a_new_table_opens_its_board_at_its_left_end():
    """pt30 left the board's right end in view (Shift+Right) for the client's whole run: a player's next table
    opened shifted, its left columns hidden. A board opens at its left end at each table, as it opens on the
    player's side."""
    wired = WiredSession()
    wired.seat(position_text("bWA@c4 yTR@c6 bTH@j2"))
    with create_pipe_input() as pipe:
        ui = ClientUI(wired.session, input=pipe, output=SizedOutput(Size(rows=20, columns=60)))
        layout = ui.screens
        layout._board()
        layout.board_right = True
        layout._board()
        assert layout.board_right, "the same table: the player's Shift+Right holds"
        wired.session.state.table = "t9-00000009"
        layout._board()
        assert not layout.board_right


def test_BG_VP_help_rules_names_what_scores_otherwise_in_the_set_played():
    """BG-VP-02 (the Goblin's 2 VP), BG-EXIT-04 (the Treasure), PD-CHAR-DRAGON-04 (the Red Dragon's elimination, 2):
    the overview of `help rules` named the Goblin and the Treasure at every board-game table, Prison's too (review
    mix30); it reads the set's catalogue, as the goal line as a game starts does."""
    def goal(set_name):
        return next(line for line in help_text("rules", set_name=set_name).split("\n") if line.startswith("Goal:"))

    assert goal(None).endswith("eliminated (Goblin taken out: 2 VP; Treasure carried out: 1 VP more) (help BG-VP, "
                               "help BG-END).")
    assert goal("prison").endswith("1 for each enemy character eliminated (help BG-VP, help BG-END).")
    assert "Red Dragon eliminated: 2 VP" in goal("paladins") and "Goblin" not in goal("paladins")
