"""The prompt, driven through prompt_toolkit pipe input: commands, actions, completion of the legal actions word
by word, history, and what the screen shows (a refused action with its rule, the board)."""

from __future__ import annotations

import asyncio
import io
import re
from collections.abc import Awaitable, Callable

import pytest
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.data_structures import Size
from prompt_toolkit.document import Document
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from prompt_toolkit.output.vt100 import Vt100_Output

from dungeon_twister.protocol import (
    Action,
    ActionRefused,
    Chat,
    GameOver,
    Joined,
    ServerConnection,
    Snapshot,
    Software,
    TableEvent,
    Tables,
)
from dungeon_twister.client import i18n
from dungeon_twister.client.completion import PromptCompleter, as_listed
from dungeon_twister.client.session import Session
from dungeon_twister.client.state import ClientState
from dungeon_twister.client.ui import ClientUI

from client_fixtures import seat_view
from tests.engine.builders import position_text

TABLE = "t-1"
UP = "\x1b[A"
TAB = "\t"
ENTER = "\r"


class WiredSession:
    """A Session whose frames go to a synchronous fake server (protocol.ServerConnection), no network."""

    def __init__(self) -> None:
        self.frames: list[bytes] = []
        self.server = ServerConnection()
        self.session = Session(ClientState("ann"))
        self.session.attach(self.session.take_plan(), self.frames.append, lambda: None)
        self.sent()
        self.session.receive(self.server.answer_hello(Software("fake", "1"), "s-1"))
        self.sent()  # list_tables
        self.deliver(Tables(()))  # (its answer: a `create` waits for it, Session.lobby_listed)

    def sent(self) -> list:
        """The messages the client sent since the last call (the server's view of them)."""
        self.server.receive_data(b"".join(self.frames))
        self.frames.clear()
        messages = []
        while (event := self.server.next_event()) is not None:
            messages.append(event)
        return messages

    def deliver(self, message) -> None:
        self.session.receive(self.server.send(message))

    def seat(self, position: str, seat: str = "B") -> None:
        self.session.join(TABLE, seat)
        self.sent()
        self.deliver(Joined(TABLE, "token", seat))
        self.deliver(Snapshot(TABLE, 0, seat_view(position, seat, seats={"B": "ann", "Y": "bot"},
                                                  table={"id": TABLE})))
        self.sent()


def refused_at_hello(refused) -> Session:
    """A session for "alice" that said hello to a synchronous fake server and was answered `refused`."""
    frames: list[bytes] = []
    server = ServerConnection()
    session = Session(ClientState("alice"))
    session.attach(session.take_plan(), frames.append, lambda: None)
    server.receive_data(b"".join(frames))
    server.next_event()
    session.receive(server.send(refused))
    return session


def run(ui: ClientUI, script: Callable[[], Awaitable[None]]) -> None:
    """Run the application while `script` types into it, then quit (unless the script did)."""

    async def main() -> None:
        application = asyncio.ensure_future(ui.app.run_async())
        await script()
        ui.exit()
        await until(application.done)
        await application

    asyncio.run(main())


POLLS = 3000
"""A hang guard counted in polls, not seconds: each poll sleeps 10 ms or more, so a slow machine makes the polls
slower, never fewer (prompt_toolkit runs on asyncio's real clock: trio's MockClock cannot drive it)."""


async def until(condition: Callable[[], object]) -> None:
    """Wait for the UI to get there (key presses and completions are handled by the application's loop)."""
    for _ in range(POLLS):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"the UI did not get there in {POLLS} polls")


async def redrawn(ui: ClientUI) -> None:
    drawn = ui.app.render_counter
    ui.app.invalidate()
    await until(lambda: ui.app.render_counter > drawn)
    await asyncio.sleep(0.05)


def test_a_typed_command_is_sent_and_the_prompt_is_cleared():
    wired = WiredSession()
    with create_pipe_input() as pipe:
        ui = ClientUI(wired.session, input=pipe, output=DummyOutput())

        async def script() -> None:
            pipe.send_text("chat hello all" + ENTER)
            await until(lambda: wired.frames)
            assert ui.prompt.text == ""
            pipe.send_text("quit" + ENTER)

        run(ui, script)
    assert wired.sent() == [Chat("hello all")]


def test_tab_completes_the_legal_actions_word_by_word():
    wired = WiredSession()
    wired.seat(position_text("bWA@c4 yTR@c6"))
    with create_pipe_input() as pipe:
        ui = ClientUI(wired.session, input=pipe, output=DummyOutput())

        async def type_then_complete(text: str, expected: str) -> None:
            pipe.send_text(text)
            await until(lambda: (state := ui.prompt.complete_state) and state.completions
                        and state.original_document.text == ui.prompt.text)
            pipe.send_text(TAB)
            await until(lambda: ui.prompt.text == expected)

        async def script() -> None:
            await type_then_complete("mo", "move")
            await type_then_complete(" ", "move bWA")
            pipe.send_text(" c5")
            await until(lambda: ui.prompt.text == "move bWA c5")
            pipe.send_text(ENTER)
            await until(lambda: wired.frames)

        run(ui, script)
    [action] = wired.sent()
    assert isinstance(action, Action) and action.text == "move bWA c5"


def test_up_arrow_recalls_earlier_lines():
    wired = WiredSession()
    with create_pipe_input() as pipe:
        ui = ClientUI(wired.session, input=pipe, output=DummyOutput())

        async def script() -> None:
            pipe.send_text("chat one" + ENTER + "chat two" + ENTER)
            await until(lambda: len(wired.frames) == 2)
            await redrawn(ui)  # the prompt reloads its history when it is drawn again
            pipe.send_text(UP)
            await until(lambda: ui.prompt.text == "chat two")
            pipe.send_text(UP)
            await until(lambda: ui.prompt.text == "chat one")

        run(ui, script)
    assert wired.sent() == [Chat("one"), Chat("two")]


def test_completer_offers_next_words_of_legal_actions_with_the_action_they_complete():
    state = ClientState("ann", table=TABLE, seat="B")
    state.view = {"legal": ["end", "move bWA c5", "move bWA d4", "attack bWA yTR", "move bTH a1"]}
    completer = PromptCompleter(state)

    def complete(text: str, tab: bool = False) -> dict[str, str]:
        event = CompleteEvent(completion_requested=tab)
        return {c.text: c.display_meta_text for c in completer.get_completions(Document(text), event)}

    # a token's word names it beside the action it completes (not the count of those it leads to: pt29 F5)
    assert complete("move ") == {"bTH": "Blue Thief · move bTH a1", "bWA": "Blue Warrior"}
    assert complete("move bWA ") == {"c5": "move bWA c5", "d4": "move bWA d4"}
    assert complete("move bWA d") == {"d4": "move bWA d4"}
    # a word that completes an action others go on from says so: `move bNG a0` is whole (a play-test of a Prison
    # game read "a0  4 actions" as if more had to be typed)
    state.view = {"legal": ["move bNG a0", "move bNG a0 +bRP", "move bNG a0 bKY@c3", "move bNG a0 +bRP bKY@c3",
                            "move bNG b1"]}
    # (and how to see the longer ones: "and 3 more" said nothing a player could do, play-test pt31)
    assert complete("move bNG ") == {"a0": "move bNG a0 · Space, Tab: 3 longer", "b1": "move bNG b1"}
    assert complete("move bNG a0 ") == {"+bRP": "Blue Rope · move bNG a0 +bRP · Space, Tab: 1 longer",
                                        "bKY@c3": "move bNG a0 bKY@c3"}
    state.view = {"legal": ["end", "move bWA c5", "move bWA d4", "attack bWA yTR", "move bTH a1"]}
    assert complete("") == {}, "no menu pops up on an empty prompt while typing"
    assert set(complete("", tab=True)) >= {"end", "move", "attack", "help", "chat", "leave", "resign"}
    assert complete("bot ") == {"B": "", "Y": ""}
    assert "WA" in complete("help W")
    # words typed as the parser reads them, a code in any case or a token without its colour, complete as their
    # listed spelling does (play-test pt23: `hide SW ` + Tab offered nothing though `hide SW A1` plays)
    assert complete("move WA ") == complete("move bwa ") == complete("move bWA ") == {"c5": "move bWA c5",
                                                                                      "d4": "move bWA d4"}
    assert complete("attack wa ") == {"yTR": "Yellow Troll"}  # (the action's last word: its name alone)
    state.view = {"legal": ["attack bWA yWA", "attack yWA bWA"]}
    assert complete("attack WA ") == {}, "two spellings fit WA (bWA, yWA): none is chosen for the player"


class CountedList(list):
    """A list that counts how often it is gone through."""

    passes = 0

    def __iter__(self):
        self.passes += 1
        return super().__iter__()


def test_a_long_line_typed_at_the_prompt_goes_through_the_legal_actions_a_few_times_a_key_not_once_a_word():
    """Completion runs at every key typed. A line of 1,200 words (a text pasted without the terminal's bracketed
    paste, seen in play-test pt29 through tmux) went through all 1,680 legal team choices once for each word, at
    every key: ~1 s a key, and the client, busy for minutes, lost its server ("no answer to a ping in 30 s").
    Once no legal action goes on from the words so far, the later ones are not looked up."""
    legal = CountedList(f"team b0={a} d0={b} g0={c} i0={d}" for a, b, c, d in (
        ("CL", "GB", "MK", "TH"), ("GB", "CL", "MK", "TH"), ("TR", "WA", "WW", "WZ")))
    typed = ("move bWA c1 " * 400).split()
    assert as_listed(legal, typed) == typed
    assert legal.passes <= 2, f"{legal.passes} passes over the legal actions for one key"
    # words typed as the parser reads them are still spelled as listed where they fit, up to where none does
    legal.passes = 0
    assert as_listed(legal, ["team", "b0=cl", "d0=gb", "x", "y"]) == ["team", "b0=CL", "d0=GB", "x", "y"]
    assert legal.passes <= 5
    # and the completer answers the long line with nothing, as before
    state = ClientState("ann", table=TABLE, seat="B")
    state.view = {"legal": list(legal)}
    assert list(PromptCompleter(state).get_completions(Document(" ".join(typed) + " "), CompleteEvent())) == []


def test_CG_SEL_MUTUAL_01_a_code_completed_at_a_card_table_shows_the_name_of_its_card():
    """The Card Game's selection is typed by code (pick AS): the menu names each card, from the Card Game's
    catalogue, which has kinds no board-game set has (IS, the Inversion Scroll), in the language in use."""
    state = ClientState("ann", table=TABLE, seat="B")
    state.view = {"game": "cards", "legal": ["pick AS", "pick IS", "hide bAS:1 bBE:2", "hide bAS:2 bBE:1"]}
    completer = PromptCompleter(state)

    def complete(text: str) -> dict[str, str]:
        return {c.text: c.display_meta_text for c in completer.get_completions(Document(text), CompleteEvent())}

    assert complete("pick ") == {"AS": "Assassin", "IS": "Inversion Scroll"}
    state.view = {"legal": ["team b0=ES d0=WA", "team b0=GH d0=WA"]}  # a board game's team, square by square
    assert complete("team ") == {"b0=ES": "Elf Scout · team b0=ES d0=WA", "b0=GH": "Ghost · team b0=GH d0=WA"}
    state.view = {"game": "cards", "legal": ["pick AS", "pick IS", "hide bAS:1 bBE:2", "hide bAS:2 bBE:1"]}
    assert complete("hide ") == {  # (a hide's characters come in any order: pt25b F1; each position said: pt32)
        "bAS:1": "Blue Assassin on B1 · hide bAS:1 bBE:2", "bAS:2": "Blue Assassin on B2 · hide bAS:2 bBE:1",
        "bBE:1": "Blue Berserker on B1 · hide bAS:2 bBE:1", "bBE:2": "Blue Berserker on B2 · hide bAS:1 bBE:2"}
    i18n.use("fr")
    assert complete("pick I") == {"IS": "Parchemin d'inversion"}  # the Card Game's French rulebook's name


def test_the_newest_line_of_a_long_event_log_is_in_view():
    """The log keeps its newest line in view by a cursor on its last line; the cursor stood on the line before it
    (the count of line breaks, less one), so once the log outgrew its window the newest event was hidden until the
    next came: a takeback accepted showed nothing, its line appeared with the next turn's (seen by hand)."""
    wired = WiredSession()
    wired.seat(position_text("bWA@c4 yTR@c6"))
    wired.session.state.log.extend(f"event number {n}" for n in range(100))
    text = screen(wired.session)
    assert "event number 99" in text and "event number 98" in text


def test_the_logs_last_line_is_not_shown_twice_while_the_message_bar_says_it():
    """Play-test pt29 F11: at 80x24 the log's last line and the message bar under it said the same notice ("Yellow
    has made his secret choice (combat-1); make yours") and the echo took one of the log's three rows from the
    combat's line. While the bar shows it as a notice, the log leaves it out; a refusal on the bar (the notice is
    not shown) or another notice brings it back, and a log of one line keeps it."""
    from dungeon_twister.client.panel import event_log
    from dungeon_twister.client.state import Refusal

    wired = WiredSession()
    wired.seat(position_text("bWA@c4 yTR@c6"))
    state = wired.session.state
    state.log.extend(["combat 1: yTR attacks bWA",
                      "Yellow has made his secret choice (the card for combat 1); make yours"])
    state.notice = "Yellow has made his secret choice (the card for combat 1); make yours"
    assert event_log(state) == [("class:log", "combat 1: yTR attacks bWA")]
    state.refusal = Refusal("combat +9", "illegal_action", "you have no +9")
    assert event_log(state)[0][1].endswith("make yours")
    state.refusal, state.notice = None, "something else"
    assert event_log(state)[0][1].endswith("make yours")
    state.log.clear()
    state.log.append("only line")
    state.notice = "only line"
    assert event_log(state) == [("class:log", "only line")]


def test_on_an_80_by_24_terminal_the_panel_comes_before_the_log_and_the_chat():
    """80 x 24 is many a terminal's size. There the board and the panel take turns (F2); the panel shared the rows
    left with the log and the chat, a line each in turn, and showed 6 of its lines: not the player's hand nor what
    to do. The panel now has its lines first, the log and the chat keep a few each."""
    wired = WiredSession()
    wired.seat(position_text("bWA@c4 yTR@c6"))
    state = wired.session.state
    state.log.extend(f"event number {n}" for n in range(30))
    state.chat.extend(f"bob: line {n}" for n in range(12))
    text = screen(wired.session, "\x1bOQ", rows=24, columns=80)  # F2: the panel
    assert "Your move: spend your AP, or end" in text, "what to do"
    assert "Blue (you)" in text and "action: 2 3 4 5" in text, "the hand"
    assert "event number 29" in text and "bob: line 11" in text, "the newest of each"


@pytest.mark.parametrize("seat", ["B", "Y"])
def test_on_an_80_by_24_terminal_the_board_opens_on_the_players_own_side(seat):
    """Play-test pt29 F6: the board, taller than 24 rows, opened at its top, Yellow's start zone, whoever played:
    Blue's first board on 80 x 24 showed none of his figures (PgDn twice to see them). It opens on the player's
    side; PgUp still goes up from there."""
    wired = WiredSession()
    wired.seat(position_text("bWA@c4 yTR@c6"), seat)
    text = screen(wired.session, rows=24, columns=80)
    own, other = ("Blue start zone (rank 0)", "Yellow start zone (rank 21)")[::1 if seat == "B" else -1]
    assert own in text and other not in text
    if seat == "B":
        assert "Yellow start zone (rank 21)" in screen(wired.session, "\x1b[5~" * 3, rows=24, columns=80)


def test_on_an_80_by_24_terminal_the_panel_shows_the_fight_and_the_game_s_end_before_the_hands():
    """Play-test pt29 F14: the panel's ~16 rows on 80 x 24 went to the two seats' hands, and what came after them
    was never on the screen: in a combat, who fights whom at what strength and `type combat ...`; at the game's
    end, who won and `leave`. A newcomer chose his combat cards blind and never read how the game ended."""
    wired = WiredSession()
    wired.seat(position_text("bWA@c4 yTR@c5", phase="combat", fields="combat 1 bWA>yTR att=bWA def=yTR"))
    text = screen(wired.session, "\x1bOQ", rows=24, columns=80)  # F2: the panel
    assert "Combat 1: bWA attacks yTR" in text and "you attack: 3 + card vs Yellow 4 + card" in text
    assert "Choose in secret (the card for combat 1): type combat ... (Tab completes)" in text
    wired = WiredSession()
    wired.seat(position_text("bWA@c4 yTR@c6"))
    wired.deliver(GameOver(TABLE, {"winner": "Y", "vp": {"B": 0, "Y": 5}, "reason": "vp"}))
    text = screen(wired.session, "\x1bOQ", rows=24, columns=80)
    assert "Game over: Yellow wins 5-0 (target reached)" in text and "leave: back to the lobby" in text


def test_the_newest_chat_lines_are_in_view_at_a_table_and_in_the_lobby():
    """The chat keeps 100 lines in windows of 6 (a table) and 10 (the lobby) lines: the newest must show."""
    wired = WiredSession()
    wired.session.state.chat.extend(f"ann: lobby line {n}" for n in range(30))
    assert "lobby line 29" in screen(wired.session)
    wired.seat(position_text("bWA@c4 yTR@c6"))
    wired.session.state.chat.extend(f"bob: table line {n}" for n in range(30))
    text = screen(wired.session)
    assert "table line 29" in text and "table line 28" in text


def test_a_long_chat_message_at_a_table_keeps_the_name_of_who_wrote_it_in_view():
    """The table's chat pane is 6 rows high: a 500-character message (the most a chat line may be) filled it, and
    its readers saw its tail, without the name of who wrote it (play-test pt24 F8: a spectator's line of ñ). Each
    line is cut to what leaves a row for another, with a "…"; a short line is whole (the edge)."""
    from dungeon_twister.client.panel import chat_lines

    wired = WiredSession()
    wired.seat(position_text("bWA@c4 yTR@c6"))
    wired.session.state.chat.append("bob: short line")
    wired.session.state.chat.append("Sara (watching): " + "ñ" * 483)
    text = screen(wired.session, columns=160)
    assert "Sara (watching):" in text and "ñ…" in text, "the name, and a mark that the line goes on"
    assert "bob: short line" in text
    [(_style, lines)] = chat_lines(wired.session.state, 90)
    assert lines.split("\n")[0] == "bob: short line" and len(lines.split("\n")[1]) == 4 * 90
    assert chat_lines(wired.session.state) == [("class:chat", "\n".join(wired.session.state.chat))], "the lobby's"


def test_a_name_bound_to_another_key_says_how_its_owner_proves_it(monkeypatch, tmp_path):
    """Play-test pt27 F13: the owner of a name, on his second computer, was refused "the name 'alice' belongs to
    another key on this server" and told only to choose another name; the README says to copy identity.key, which
    the refusal now says too, with the directory this client reads it from (a restart reads it)."""
    from dungeon_twister.protocol import Refused

    monkeypatch.setenv("DT_CLIENT_STATE_DIR", str(tmp_path))
    session = refused_at_hello(Refused("name_taken", "the name 'alice' belongs to another key on this server",
                                       "the name {name} belongs to another key on this server", {"name": "'alice'"}))
    assert session.state.notice == (
        "the server refused us: the name 'alice' belongs to another key on this server (name_taken) · if the name "
        f"is yours, copy identity.key from the computer that plays it into {tmp_path}, then start dt-client again; "
        "else choose another name: `quit`, then start dt-client again with --name NAME")
    other = refused_at_hello(Refused("name_taken", "the name 'alice' is already used on this server",
                                     "the name {name} is already used on this server", {"name": "'alice'"}))
    assert "identity.key" not in other.state.notice, "(the edge: a name in use is another case)"


def test_the_first_proof_of_a_name_on_a_server_says_once_that_the_name_is_kept_for_the_key(tmp_path):
    """Play-test pt27 F12: nothing told a player that the server had bound his name to his key for good (from then
    on the name needs identity.key). The server's first answer after the proof (the table list) says it, and where
    the key is, in the bar and the log; the next connections do not; another server, or another name, is a first
    again; a local game's server (`dt-client play`) keeps no name worth saying. Review rv28: said on the welcome,
    it came before the proof was taken (a refused one told it too, and the note was never said again), and the bar
    alone cut it on 80 columns."""
    from dungeon_twister.client.identity import NAMED_FILE, load_or_create
    from dungeon_twister.protocol import Error, Prove, Tables

    def connect(name: str = "alice", server: str = "192.0.2.7:7300", local: bool = False,
                proof_refused: bool = False) -> Session:
        frames: list[bytes] = []
        fake = ServerConnection()
        session = Session(ClientState(name, local=local))
        session.state.server = server
        session.identity, session.identity_dir = load_or_create(tmp_path), tmp_path
        session.attach(session.take_plan(), frames.append, lambda: None)
        fake.receive_data(b"".join(frames))
        assert fake.next_event().key is not None
        frames.clear()
        session.receive(fake.answer_hello(Software("fake", "1"), "s-1", challenge=bytes(32)))
        fake.receive_data(b"".join(frames))
        assert isinstance(fake.next_event(), Prove), "the proof goes first, as before"
        assert session.state.notice == f"connected to fake 1 as {name}", "nothing said before the proof is taken"
        if proof_refused:
            session.receive(fake.send(Error("bad_proof", "the signature does not prove the hello's key", "client",
                                            True)))
        else:
            session.receive(fake.send(Tables(())))
        return session

    note = (f"this server keeps the name alice for your key alone (identity.key in {tmp_path}): back that file up, "
            "and copy it to play as alice from another computer")
    refused = connect(proof_refused=True)
    assert note not in refused.state.notice and note not in refused.state.log and refused.state.help_text is None
    assert not (tmp_path / NAMED_FILE).exists(), "a refused proof binds nothing: the next one is still a first"
    first = connect()
    assert first.state.help_text == f"{note}\n\n(Esc closes this box.)" and first.state.log[-1] == note
    assert first.state.notice == "connected to fake 1 as alice", "the bar keeps the connection's own note"
    again = connect()
    assert again.state.help_text is None and note not in again.state.log, "said once"
    assert note.replace("alice", "bob") in connect("bob").state.help_text
    assert note in connect(server="192.0.2.8:7300").state.help_text
    assert connect("carol", local=True).state.help_text is None
    assert len((tmp_path / NAMED_FILE).read_text().splitlines()) == 3


def test_the_file_of_named_servers_keeps_the_last_thousand_and_a_damaged_one_says_nothing(tmp_path):
    """Every input has a limit: the client's own list of (server, name) pairs it was told of keeps the last
    MAX_NAMED, the oldest going first; a file it cannot read makes it say nothing rather than fail the connection."""
    import json

    from dungeon_twister.client.identity import MAX_NAMED, NAMED_FILE, first_time_named

    path = tmp_path / NAMED_FILE
    path.write_text("".join(json.dumps([f"192.0.2.1:{port}", "ann"]) + "\n" for port in range(MAX_NAMED)))
    assert not first_time_named(tmp_path, "192.0.2.1:999", "ann") and first_time_named(tmp_path, "h:1", "ann")
    kept = path.read_text().splitlines()
    assert len(kept) == MAX_NAMED and kept[0] == json.dumps(["192.0.2.1:1", "ann"]) and kept[-1] == '["h:1", "ann"]'
    path.write_bytes(b"\xff\xfe not text")
    assert not first_time_named(tmp_path, "h:2", "ann") and path.read_bytes() == b"\xff\xfe not text"
    path.write_bytes(b"x" * 5_000_000)  # (one endless line: read no further than the limit, and skipped)
    assert first_time_named(tmp_path, "h:3", "ann") and path.read_text() == '["h:3", "ann"]\n'
    assert [p.name for p in tmp_path.iterdir()] == [NAMED_FILE], "written through a temporary file, now gone"


def test_a_refused_name_says_how_to_choose_another():
    """Seen by hand: a name bound to another key was refused, and the client sat 'not connected' with nothing to
    do but guess; `reconnect` would try the same name. The refusal now says how to choose another."""
    from dungeon_twister.protocol import Refused

    session = refused_at_hello(Refused("name_taken", "the name 'alice' belongs to another key on this server"))
    assert session.state.notice == ("the server refused us: the name 'alice' belongs to another key on this server "
                                    "(name_taken) · choose another name: `quit`, then start dt-client again with "
                                    "--name NAME")


def test_a_name_in_use_or_spelled_otherwise_is_not_told_to_choose_another():
    """Play-test: the owner of a name, his first client frozen (a laptop whose Wi-Fi dropped), was told to choose
    another name for up to a minute, which would lose his seat and his rating; and a key's name typed in another
    case is the same player, spelled as the server knows him."""
    from dungeon_twister.protocol import Refused

    session = refused_at_hello(Refused("name_taken", "the name 'frank' is already used on this server",
                                       "the name {name} is already used on this server", {"name": "'frank'"}))
    assert session.state.notice == (
        "the server refused us: the name 'frank' is already used on this server (name_taken) · if it is yours, "
        "another dt-client has it, or had it until a moment ago (the server notices within a minute): close that "
        "one, then `reconnect`")
    session = refused_at_hello(Refused(
        "name_taken", "your key's name is spelled 'Ann' on this server, not 'ann'",
        "your key's name is spelled {spelling} on this server, not {name}", {"spelling": "'Ann'", "name": "'ann'"}))
    assert session.state.notice.endswith("(name_taken) · `quit`, then start dt-client again with --name 'Ann'")


def test_lobby_completion_offers_commands_not_actions():
    completer = PromptCompleter(ClientState("ann"))
    texts = [c.text for c in completer.get_completions(Document("j"), CompleteEvent())]
    assert texts == ["join"]


def screen(session: Session, typed: str = "", rows: int = 60, columns: int = 120) -> str:
    """The text the terminal shows after typing `typed` (escape sequences removed)."""
    buffer = io.StringIO()
    captured = []
    with create_pipe_input() as pipe:
        ui = ClientUI(session, input=pipe, output=Vt100_Output(buffer, lambda: Size(rows=rows, columns=columns)))

        async def script() -> None:
            pipe.send_text(typed)
            await redrawn(ui)
            captured.append(buffer.getvalue())

        run(ui, script)
    # a cursor moved forward over what the screen already shows (prompt_toolkit draws differences): as many spaces
    forward = re.sub(r"\x1b\[(\d*)C", lambda m: " " * int(m.group(1) or 1), captured[0])
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", forward)


def test_a_refused_action_is_shown_with_its_rule():
    wired = WiredSession()
    wired.seat(position_text("bWA@c4 yTR@c6"))
    wired.session.act("move bWA c6")
    [action] = wired.sent()
    wired.deliver(ActionRefused(action.action_id, "illegal_action", "yTR stands on c6", rule="BG-MOVE-09"))
    text = screen(wired.session)
    assert "refused [BG-MOVE-09]: 'move bWA c6': yTR stands on c6" in text
    assert "(help BG-MOVE-09)" in text
    assert " bWA " in text and " yTR " in text, "the board is drawn"


def test_an_action_sent_clears_the_last_notice_and_refusal():
    """The message bar shows the answer to the last line typed: once an action leaves, an earlier notice (here a
    command's answer) or refusal would read as this action's answer."""
    wired = WiredSession()
    wired.seat(position_text("bWA@c4 yTR@c6"))
    wired.session.state.say("the starting team: you chose 'team ...', the opponent 'team ...' (checked: made before "
                            "he saw yours)")
    wired.session.act("move bWA c6")
    [action] = wired.sent()
    assert wired.session.state.notice == "" and "verified" not in screen(wired.session)
    wired.deliver(ActionRefused(action.action_id, "illegal_action", "yTR stands on c6", rule="BG-MOVE-09"))
    assert "refused [BG-MOVE-09]" in screen(wired.session)
    wired.session.act("move bWA c5")
    assert wired.session.state.refusal is None and "refused" not in screen(wired.session)


def test_a_mistyped_command_gets_did_you_mean_and_sends_nothing():
    from dungeon_twister.client.commands import Commands

    wired = WiredSession()
    commands = Commands(wired.session, lambda: None)
    commands.run("craete prison")
    assert wired.session.state.notice == "unknown command 'craete': did you mean 'create'? (type help)"
    commands.run("frobnicate")
    assert wired.session.state.notice == "unknown command 'frobnicate' (type help)"
    assert wired.sent() == []
    wired.seat(position_text("bWA@c4 yTR@c6"))
    commands.run("laeve")  # at a table: near a command, not a verb -> the command is suggested, nothing sent
    assert wired.session.state.notice == "unknown command 'laeve': did you mean 'leave'? (type help)"
    assert wired.sent() == []
    commands.run("mvoe bWA c5")  # near no command: an action for the server (which answers with 'did you mean')
    (sent,) = wired.sent()
    assert isinstance(sent, Action) and sent.text == "mvoe bWA c5"


def test_replay_or_verify_typed_at_the_prompt_gives_the_shell_command_to_run():
    """A game's end says "to step through this game again: dt-client replay t1-... --server HOST:PORT"; a player
    who typed `replay 1` in the lobby was told "unknown command 'replay'" (play-test pt24 F9), and at a table the
    word went to the server as an action. It is answered with the line to run in a shell, nothing sent."""
    from dungeon_twister.client.commands import Commands

    wired = WiredSession()
    wired.session.state.server = "192.0.2.7:7810"
    commands = Commands(wired.session, lambda: None)
    commands.run("replay 1")
    assert wired.session.state.notice == ("replay runs in a shell, not at this prompt: dt-client replay 1 --server "
                                          "192.0.2.7:7810")
    commands.run("Verify")  # no table named: the placeholder
    assert wired.session.state.notice.endswith(": dt-client verify TABLE --server 192.0.2.7:7810")
    wired.seat(position_text("bWA@c4 yTR@c6"))
    commands.run("replay")  # at a table: its game, and no action sent
    assert wired.session.state.notice.endswith(f"dt-client replay {wired.session.state.table} --server "
                                               "192.0.2.7:7810")
    assert wired.sent() == []
    wired.session.state.local = True  # `dt-client play`: its server goes with the game
    commands.run("replay")
    assert wired.session.state.notice.endswith(": dt-client replay FILE")
    commands.run("replayy")  # (the edge: another word is read as before: at a table, an action for the server)
    assert wired.sent()[0].text == "replayy"


def test_replay_at_a_local_table_names_the_record_file_of_its_finished_game(tmp_path, monkeypatch):
    """Play-test pt27 F8: at `dt-client play`'s table, `replay` said "dt-client replay FILE" and no file was kept.
    The embedded server now writes the record of a finished game into the client's state directory (games/): once
    it is there, `replay` (or `verify`) names it; before the game ends, FILE as before."""
    from dungeon_twister.client.commands import Commands
    from dungeon_twister.client.local_server import games_dir

    monkeypatch.setenv("DT_CLIENT_STATE_DIR", str(tmp_path))
    wired = WiredSession()
    wired.session.state.server = "127.0.0.1:40001"
    wired.session.state.local = True
    commands = Commands(wired.session, lambda: None)
    wired.seat(position_text("bWA@c4 yTR@c6"))
    commands.run("replay")
    assert wired.session.state.notice.endswith(": dt-client replay FILE"), "(the edge: no record yet)"
    record = games_dir() / f"20261130-160625-{wired.session.state.table}.txt"
    record.parent.mkdir()
    record.write_text("game seed=1\n")
    (games_dir() / "20261130-150000-t1-00000000.txt").write_text("game seed=2\n")  # another game's
    commands.run("verify")
    assert wired.session.state.notice == f"verify runs in a shell, not at this prompt: dt-client verify {record}"
    assert wired.sent() == []


def test_help_replay_or_verify_gives_the_shell_command_as_typing_it_does():
    """Play-test pt27 F9: `help replay` in the lobby answered "no help on 'replay'" while `replay 1` typed there gave
    the line to run in a shell; `help replay` and `help verify` now give that line too (with the table's id at a
    table, the placeholder TABLE in the lobby), and other topics are answered as before."""
    from dungeon_twister.client.commands import Commands

    wired = WiredSession()
    wired.session.state.server = "192.0.2.7:7810"
    commands = Commands(wired.session, lambda: None)
    commands.run("help replay")
    assert wired.session.state.help_text == ("replay runs in a shell, not at this prompt: dt-client replay TABLE "
                                             "--server 192.0.2.7:7810")
    commands.run("help Verify")
    assert wired.session.state.help_text.endswith(": dt-client verify TABLE --server 192.0.2.7:7810")
    commands.run("help ratings")  # (the edge: a lobby command's help is its line of the list, as before)
    assert wired.session.state.help_text.startswith("ratings [NAME]")
    assert wired.sent() == []


def test_a_table_is_joined_or_watched_by_the_number_the_lobby_lists_it_with():
    """A table's id is its number and a random part (t3-9f2c01ab): `join 3` or `join t3` names the listed table of
    that number; a whole id goes to the server as typed (it knows or refuses). A number no table of the whole list
    has is refused here, with the list: the server's "no table '4'" read, in a play-test, as if `join 1` meant the
    list's first line."""
    from dungeon_twister.client.commands import Commands
    from dungeon_twister.protocol import Join, TableInfo, TableOptions, Tables

    wired = WiredSession()
    wired.deliver(Tables((TableInfo("t3-9f2c01ab", TableOptions(), "waiting", 0, blue="bob"),
                          TableInfo("t31-00aa11bb", TableOptions(), "playing", 2, blue="cy", yellow="di")), 2))
    commands = Commands(wired.session, lambda: None)
    commands.run("join t31 Y")
    assert [(type(m), m.table, m.seat) for m in wired.sent()] == [(Join, "t31-00aa11bb", "Y")]
    commands.run("join 4")
    # (the example is a listed table: a made-up t2-a401d38a read like a real one, a play-test found)
    assert wired.session.state.notice == ("no listed table has the number 4 (the number in its id, as 3 in "
                                          "t3-9f2c01ab): t3-9f2c01ab, t31-00aa11bb")
    commands.run("join t3-9f2c01ab")
    assert [m.table for m in wired.sent()] == ["t3-9f2c01ab"]
    watched = []
    wired.session.spectate = lambda table, code=None: watched.append((table, code))  # (a switch of role: async)
    commands.run("spectate 3 c0de")
    assert watched == [("t3-9f2c01ab", "c0de")]


def test_a_private_table_named_by_its_number_with_a_code_is_told_to_need_its_whole_id():
    """Play-test pt28 F1: told "table 2, code b363bead", a player typed `join 2 b363bead` and read "no listed table
    has the number 2 ...: t1-122cc765", the other tables: a private table is never listed, so its number names
    nothing here. With a code typed, the refusal says to type the whole id, as the creator's panel shows it; the
    creator's panel says what to tell the opponent."""
    from dungeon_twister.client.commands import Commands
    from dungeon_twister.client.panel import game_panel
    from dungeon_twister.protocol import TableInfo, TableOptions, Tables

    wired = WiredSession()
    wired.deliver(Tables((TableInfo("t1-122cc765", TableOptions(), "waiting", 0, blue="bob"),), 1))
    commands = Commands(wired.session, lambda: None)
    private = ("a private table is not in the list, so its number alone does not name it: type its whole id, as "
               "its creator's panel shows it (t2-…): ")
    for typed, usage in (("join 2 b363bead", "join ID [B|Y] CODE"), ("join t2 Y b363bead", "join ID [B|Y] CODE"),
                         ("spectate 2 b363bead", "spectate ID CODE")):
        commands.run(typed)
        assert wired.session.state.notice == private + usage, typed
        assert wired.sent() == []
    commands.run("join 2 Y")  # (no code: the list's own words, as before)
    assert wired.session.state.notice.startswith("no listed table has the number 2 ")

    creator = WiredSession()
    creator.session.state.join_code = "b363bead"
    creator.seat(position_text("bWA@c4"), "B")
    creator.session.state.table = "t2-857e6836"
    creator.session.state.view = {**creator.session.state.view, "started": False}
    text = "".join(fragment[1] for fragment in game_panel(creator.session.state, 0.0))
    assert ("Waiting for an opponent: your opponent types `join t2-857e6836 b363bead` (and spectators `spectate "
            "t2-857e6836 b363bead`), or `bot Y` seats a bot.") in text


def test_other_game_servers_words_and_a_mistyped_option_get_a_suggestion():
    """Play-test pt28 F2: `watch 1`, `list` and `tables` were answered "unknown command" with nothing more, and
    `create timer` with the whole usage but no "did you mean 'timers'?". Other servers' words name the command
    that does it; a mistyped option of create names the option; a word near nothing still gets the usage alone."""
    from dungeon_twister.client.commands import Commands

    wired = WiredSession()
    commands = Commands(wired.session, lambda: None)
    for typed, meant in (("watch 1", "spectate"), ("LIST", "refresh"), ("tables", "refresh"), ("exit", "quit")):
        commands.run(typed)
        assert wired.session.state.notice == (f"unknown command {typed.split()[0]!r}: did you mean {meant!r}? "
                                              "(type help)"), typed
    commands.run("create timer")
    assert wired.session.state.notice.startswith("'timer' is not an option of create: did you mean 'timers'? create ")
    commands.run("create prison-1 privat")
    assert wired.session.state.notice.startswith("'privat' is not an option of create: did you mean 'private'? ")
    commands.run("create cards standrd")
    assert wired.session.state.notice.startswith("'standrd' is not an option of create: did you mean 'standard'? ")
    commands.run("create fast")
    assert wired.session.state.notice.startswith("'fast' is not an option of create; create [vp=5..8]")
    assert wired.sent() == []
    from dungeon_twister.client.commands import SYNONYMS
    from dungeon_twister.client.help import CARD_VERBS, VERBS
    assert not set(SYNONYMS) & (set(VERBS) | set(CARD_VERBS)), "no action verb is taken for a command"


def test_a_mistyped_seat_is_refused_not_taken_for_a_join_code():
    """A play-test's `join t1-4da2952e Q` seated the player (Q was read as a join code, which a public table
    ignores): a one-letter word other than B or Y is no code (codes have 8 hex digits) and a listed table is
    public (private ones are never listed), so either is refused here; `b` is Blue, an unlisted (private) table's
    code goes with the seat."""
    from dungeon_twister.client.commands import Commands
    from dungeon_twister.protocol import Join, TableInfo, TableOptions, Tables

    wired = WiredSession()
    wired.deliver(Tables((TableInfo("t1-4da2952e", TableOptions(), "waiting", 0, blue="bob"),), 1))
    commands = Commands(wired.session, lambda: None)
    commands.run("join t1-4da2952e Q")
    assert wired.session.state.notice == "'Q' is not a seat: B (Blue) or Y (Yellow)" and wired.sent() == []
    commands.run("join 1 y c0de1234")
    assert wired.session.state.notice == ("t1-4da2952e is a public table: join it with no code (join t1-4da2952e B "
                                          "or Y)") and wired.sent() == []
    commands.run("join 1 y")
    assert [(type(m), m.table, m.seat, m.join_code) for m in wired.sent()] == [(Join, "t1-4da2952e", "Y", None)]
    i18n.use("it")  # a seat by its name, in the language in use or in English (the play-test's `join 1 blu`)
    try:
        for word, seat in (("blu", "B"), ("Giallo", "Y"), ("yellow", "Y")):
            commands.run(f"join 1 {word}")
            assert [(m.table, m.seat, m.join_code) for m in wired.sent()] == [("t1-4da2952e", seat, None)]
    finally:
        i18n.use("en")
    commands.run("join t7-0badc0de b c0de1234")
    assert [(m.table, m.seat, m.join_code) for m in wired.sent()] == [("t7-0badc0de", "B", "c0de1234")]


def test_a_bot_for_one_s_own_seat_is_refused_here():
    """A play-test's `bot B` in her own seat B got the server's "seat B is taken · `spectate t1-...` watches the
    game", meant for someone outside the table: the client answers it, naming the other seat."""
    from dungeon_twister.client.commands import Commands
    from dungeon_twister.protocol import SeatBot

    wired = WiredSession()
    wired.seat(position_text("bWA@c4 yTR@c6"), "B")
    commands = Commands(wired.session, lambda: None)
    commands.run("bot b")
    assert wired.session.state.notice == "you sit in seat B yourself: bot Y seats a bot across from you"
    assert wired.sent() == []
    commands.run("bot Y random")
    assert wired.sent() == [SeatBot(TABLE, "Y", "random")]
    commands.run("bot yellow")  # (a seat by its name too; the default kind: the planner)
    assert wired.sent() == [SeatBot(TABLE, "Y", "planner")]


def test_a_server_older_than_the_planner_bot_gets_a_greedy_one_instead():
    """A server of before 2026-11-30 knows the random and greedy bots only: the planner, this client's default for
    `bot Y`, was refused `bad_field` "seat_bot.kind: expected ..." and the player left with an empty seat and a
    protocol line. The client asks for the greedy bot instead, once, and says so; another refusal is said as it is."""
    from dungeon_twister.client.commands import Commands
    from dungeon_twister.protocol import Error, SeatBot

    older = 'seat_bot.kind: expected "random"|"greedy", got \'planner\''
    wired = WiredSession()
    wired.seat(position_text("bWA@c4 yTR@c6"), "B")
    commands = Commands(wired.session, lambda: None)
    commands.run("bot Y")
    assert wired.sent() == [SeatBot(TABLE, "Y", "planner")]
    wired.deliver(Error("bad_field", older, "client", False))
    assert wired.sent() == [SeatBot(TABLE, "Y", "greedy")]
    assert wired.session.state.notice == ("this server is older than this client and has no planner bot: a greedy "
                                          "bot takes the Yellow seat instead")
    assert wired.session.state.log[-1] == wired.session.state.notice, "in the log too: the bar's goes at once"
    wired.deliver(Error("bad_field", 'seat_bot.kind: expected "random", got \'greedy\'', "client", False))
    assert wired.sent() == [], "the greedy one refused too: nothing more is asked"
    assert wired.session.state.notice.startswith("server: ")
    commands.run("bot Y random")
    wired.sent()
    wired.deliver(Error("bad_field", older, "client", False))  # (not the planner asked for: not this refusal)
    assert wired.sent() == []


def test_an_absurd_table_word_is_refused_here_in_words_not_by_a_traceback():
    """A play-test pasted 5,000 nines after `join`: `int()` of so many digits raised (Python's 4,300-digit limit) and
    prompt_toolkit showed the traceback; 70 letters went to the encoder, whose English "join.table: expected
    str[1..64]" came back in an Italian line. Numbers are compared as digits now, leading zeros dropped (`t03` is
    t3), a non-ASCII digit is no number, and a word longer than any table id (64, protocol.kinds.TABLE_ID) is no
    table, said here."""
    from dungeon_twister.client.commands import Commands
    from dungeon_twister.client.names import is_table_number, table_named
    from dungeon_twister.protocol import Join, TableInfo, TableOptions, Tables

    wired = WiredSession()
    wired.deliver(Tables((TableInfo("t3-9f2c01ab", TableOptions(), "waiting", 0, blue="bob"),), 1))
    commands = Commands(wired.session, lambda: None)
    commands.run("join " + "9" * 5000)
    assert wired.session.state.notice == "there is no table '" + "9" * 64 + "…'"
    commands.run("spectate " + "x" * 65)
    assert wired.session.state.notice == "there is no table '" + "x" * 64 + "…'"
    assert wired.sent() == []
    commands.run("join t003")
    assert [m.table for m in wired.sent() if isinstance(m, Join)] == ["t3-9f2c01ab"]
    assert table_named("9" * 5000, ["t3-9f2c01ab"]) == "9" * 5000
    assert not is_table_number("²") and not is_table_number("t٣") and is_table_number("T0")


def test_the_completion_menu_puts_numbers_in_their_order():
    """A plain text sort listed a10 before a9 and room pair 37 between 3 and 4; the menu sorts numbers by value."""
    state = ClientState("ann", table=TABLE, seat="B")
    state.view = {"legal": ["move bWA c10", "move bWA c9", "move bWA b11", "move bWA c2", "end"]}
    completer = PromptCompleter(state)
    texts = [c.text for c in completer.get_completions(Document("move bWA "), CompleteEvent())]
    assert texts == ["b11", "c2", "c9", "c10"]
    state.view = {"legal": [], "secret": "build",
                  "build": {"parts": [{"name": "pairs", "count": 2, "values": ["1", "37", "4", "3"]}]}}
    texts = [c.text for c in completer.get_completions(Document("build pairs="), CompleteEvent(True))]
    assert texts == ["pairs=1,", "pairs=3,", "pairs=4,", "pairs=37,"]


def test_look_at_a_rooms_name_says_it_names_a_room():
    """Play-test: `look A2` answered "a2: nothing" (the name lowered to a square). A room's name gets a usage answer;
    the square itself, typed in capitals, is still looked at."""
    from dungeon_twister.client.commands import Commands
    from dungeon_twister.client.messages import message_bar

    wired = WiredSession()
    wired.seat(position_text("bWA@c4 yTR@c6"))
    commands = Commands(wired.session, exit_app=lambda: None)
    commands.run("look A2")
    bar = "".join(text for _, text, *_ in message_bar(wired.session.state))
    assert bar == "A2 is a room: look SQUARE names a square, e.g. look c4", bar
    commands.run("look C4")
    assert wired.session.state.notice == "c4: Blue Warrior"
    # a token's id is where it stands (play-test pl33 looked for his Wizard with `look bWZ` and read "bwz: not a
    # square of this board"), in any case; a token not on the board is no square
    for typed in ("look bWA", "look ytr", "look bRP"):
        commands.run(typed)
        assert wired.session.state.notice == {"look bWA": "c4: Blue Warrior", "look ytr": "c6: Yellow Troll",
                                              "look bRP": "brp: not a square of this board (a0 to j21)"}[typed]
    # the Card Game's rooms hold zones, not squares (play-test pt25b F3)
    wired.session.state.view = {"game": "cards", "rooms": [{"room": "A", "revealed": True}], "figures": []}
    commands.run("look A")
    bar = "".join(text for _, text, *_ in message_bar(wired.session.state))
    assert bar == "A is a room: look ZONE names one of its zones, e.g. look b2", bar


def test_create_completes_the_card_games_options_after_cards():
    """`create ` offers the board game's options and `cards`; after `cards`, the Card Game's own
    (commands.parse_table_options accepts each of them there)."""
    from dungeon_twister.client.commands import parse_table_options

    completer = PromptCompleter(ClientState("ann"))

    def complete(text: str) -> list[str]:
        return [c.text for c in completer.get_completions(Document(text), CompleteEvent(completion_requested=True))]

    assert "cards" in complete("create ") and "prison" in complete("create ")
    assert "cards" not in complete("create vp=6 ")
    offered = complete("create cards ")
    assert offered == ["draft", "full", "mutual", "private", "secret", "standard", "timers", "tutorial=1",
                       "tutorial=2", "tutorial=3"]
    assert complete("create cards standard f") == ["full"]
    for word in offered:
        words = f"cards standard {word}" if word in ("mutual", "full", "draft") else f"cards {word}"
        assert parse_table_options(words).game == "cards"
    # a Prison scenario, first as `cards` is, then only what it leaves to choose (PD-TEAM-SCEN-01)
    assert "prison-3" in complete("create ") and "prison-3" not in complete("create vp=6 ")
    assert complete("create prison-3 ") == ["private", "timers"]
    assert parse_table_options("prison-3 private timers").scenario == "prison-3"


def test_on_an_80_by_24_terminal_the_whole_help_shows_or_scrolls():
    """Seen by hand: on 24 rows, `help` in the lobby showed 16 lines and cut the last commands (reconnect, quit),
    with no way to see them. The help box now has its rows first, the lobby's chat giving way, and a help longer
    than the box scrolls: the lobby's, its explanations in a column since play-test pt29 F29, is 21 lines at 80
    columns. A table's help is longer than 24 rows at 80 columns too: PgDn scrolls either to its end while it is
    open (it scrolls the board otherwise)."""
    from dungeon_twister.client.help import help_text

    wired = WiredSession()
    wired.session.state.help_text = help_text()
    text = screen(wired.session, rows=24, columns=80)
    assert "create [vp=5..8]" in text and "ratings [NAME]" in text, "the first commands"
    assert "leave the client" in screen(wired.session, "\x1b[6~", rows=24, columns=80), "the last one, PgDn"
    wired.seat(position_text("bWA@c4 yTR@c6"))
    wired.session.state.help_text = help_text(at_table=True)
    end = "board)."  # the end of the help's last line (the redraw after PgDn writes only what changed)
    assert end in help_text(at_table=True).splitlines()[-1]
    before = screen(wired.session, rows=24, columns=80)
    assert "play an action" in before and end not in before
    after = screen(wired.session, "\x1b[6~", rows=24, columns=80)  # PgDn
    assert end in after


def test_the_help_box_scrollbar_is_drawn_again_once_the_boxs_height_is_known():
    """A help just opened is drawn once before its window's height is known: its scrollbar (shown only when the
    help is taller than the box) was decided on no drawing, and stayed off until the next key. The UI draws
    again when the answer is stale (`Scroll.bar_stale`, asked after each render)."""
    from types import SimpleNamespace

    from dungeon_twister.client.layout import Scroll

    scroll = Scroll()
    scroll.window = SimpleNamespace(render_info=None)
    assert not scroll.overflows(), "asked while the box is drawn the first time"
    text = SimpleNamespace(get_line=lambda n: [("", f"line {n}")])  # (no blank line: `layout._rows`)
    scroll.window.render_info = SimpleNamespace(content_height=30, window_height=18, ui_content=text)
    assert scroll.bar_stale(), "drawn: the help is taller than its box, draw again"
    assert scroll.overflows() and not scroll.bar_stale(), "drawn again with the scrollbar: nothing more to do"
    scroll.window.render_info = SimpleNamespace(content_height=12, window_height=12, ui_content=text)
    assert scroll.bar_stale() and not scroll.overflows() and not scroll.bar_stale()


def test_the_message_bar_answers_the_last_line_typed():
    """Seen by hand as a spectator: `card 2` was answered "spectators cannot act", and that stayed under the next
    line typed, a chat that went through, as if the chat had been refused. Each line typed clears the bar's last
    refusal or notice; what the new line causes is said in its place."""
    from dungeon_twister.client.commands import Commands
    from dungeon_twister.client.messages import message_bar

    def bar() -> str:
        return "".join(text for _, text, *_ in message_bar(wired.session.state))

    wired = WiredSession()
    wired.seat(position_text("bWA@c4 yTR@c6"))
    commands = Commands(wired.session, exit_app=lambda: None)
    commands.run("move bWA c6")
    [action] = wired.sent()
    wired.deliver(ActionRefused(action.action_id, "illegal_action", "yTR stands on c6", rule="BG-MOVE-09"))
    assert bar() == "refused [BG-MOVE-09]: 'move bWA c6': yTR stands on c6  (help BG-MOVE-09)"
    commands.run("chat hello")
    assert bar() == "" and wired.sent()[-1].text == "hello"
    commands.run("laeve")
    assert bar() == "unknown command 'laeve': did you mean 'leave'? (type help)"
    # a question pending stays: a takeback the opponent asks (found by a review: a chat wiped "type yes or no")
    wired.deliver(TableEvent(TABLE, 1, {"kind": "takeback_asked", "seat": "Y", "action": "move yTR c7"}))
    asked = "Yellow asks to take back 'move yTR c7': type yes or no"
    assert bar() == asked
    commands.run("chat one moment")
    assert bar() == asked and wired.session.state.takeback_asked == "Y"
    commands.run("yes")
    assert bar() == "" and wired.sent()[-1].accept is True
    # and ours, until the answer comes
    commands.run("undo")
    wired.deliver(TableEvent(TABLE, 2, {"kind": "takeback_asked", "seat": "B", "action": "move bWA c5"}))
    commands.run("chat hm")
    assert bar() == "takeback asked: waiting for the answer"
    wired.deliver(TableEvent(TABLE, 3, {"kind": "takeback_declined", "seat": "B", "by": "Y"}))
    commands.run("chat ok")
    assert bar() == ""


def test_the_prompt_label_comes_back_after_a_line_longer_than_the_screen():
    """Seen by hand on 80 columns: after a 600-character chat line was sent, the empty prompt stayed scrolled by
    the label's width ("lobby> " gone, what was typed next at the screen's edge), for good. A line that fits is
    shown from its first column."""
    wired = WiredSession()
    scrolled = []
    with create_pipe_input() as pipe:
        ui = ClientUI(wired.session, input=pipe, output=Vt100_Output(io.StringIO(), lambda: Size(rows=24, columns=80)))

        async def script() -> None:
            pipe.send_text("chat " + "x" * 200)
            await redrawn(ui)
            scrolled.append(ui.screens.prompt_window.horizontal_scroll)
            pipe.send_text("\rab")
            await redrawn(ui)
            scrolled.append(ui.screens.prompt_window.horizontal_scroll)

        run(ui, script)
    assert scrolled[0] > 0, "the long line is scrolled to show its end"
    assert scrolled[1] == 0, "the label and 'ab' fit: from the first column"
    assert wired.sent()[-1].text == "x" * 200


def test_a_chat_or_an_action_over_the_protocols_limit_is_answered_in_plain_words():
    """Seen by hand: an action of 311 characters was answered "cannot do that now: action.text: expected
    str[1..256], got 311 characters" (the protocol's own check, in English whatever the language), and a chat line
    of 600 characters was cut to 500 without a word. The action is refused saying its limit; the chat goes, cut,
    and says so."""
    from dungeon_twister.client.commands import Commands

    wired = WiredSession()
    wired.seat(position_text("bWA@c4 yTR@c6"))
    commands = Commands(wired.session, exit_app=lambda: None)
    commands.run("move bWA " + "c4-" * 100 + "c5")
    assert wired.session.state.notice == "an action is at most 256 characters; this one has 311"
    assert wired.sent() == [], "nothing sent"
    commands.run("chat " + "x" * 600)
    assert wired.session.state.notice == "your message was cut to its first 500 characters"
    [chat] = wired.sent()
    assert chat.text == "x" * 500


def test_the_help_box_shows_its_scrollbar_as_soon_as_it_opens():
    """The German lobby's help is taller than its box on 80 x 24. Opened with F1, it is drawn once before its
    height is known; the UI then draws it again with its scrollbar (ui.py `_after_render`), without waiting for a
    key (found by a review: the earlier test checked `Scroll` alone, and passed without the redraw)."""
    from dungeon_twister.client.help import help_text

    i18n.use("de")
    wired = WiredSession()
    buffer = io.StringIO()
    with create_pipe_input() as pipe:
        ui = ClientUI(wired.session, input=pipe, output=Vt100_Output(buffer, lambda: Size(rows=24, columns=80)))

        async def script() -> None:
            await redrawn(ui)
            before = len(buffer.getvalue())
            pipe.send_text("\x1bOP")  # F1
            await until(lambda: ui.screens.help_scroll.barred)  # drawn with the bar, no key pressed after F1
            assert wired.session.state.help_text == help_text()
            drawn = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", buffer.getvalue()[before:])
            # the scrollbar's arrow: more below; none above the first page (layout.ScrollArrows)
            assert "v" in drawn and "^" not in drawn, "the scrollbar's arrows"

        run(ui, script)


def test_chat_alone_shows_the_chat_so_far_from_its_end_and_pgup_scrolls_it():
    """The chat pane beside the board keeps its last few lines (one long message pushed every earlier one out of
    view, found by a play-test). `chat` alone opens what was said so far (the last 100 lines) in the help box,
    scrolled to its newest line; PgUp scrolls back by the box's height less 4, to its title; Esc closes it."""
    wired = WiredSession()
    wired.seat(position_text("bWA@c4 yTR@c6"))
    wired.session.state.chat.extend(f"bob: line {n:02}" for n in range(1, 41))
    with create_pipe_input() as pipe:
        ui = ClientUI(wired.session, input=pipe, output=Vt100_Output(io.StringIO(), lambda: Size(rows=24, columns=80)))
        scroll = ui.screens.help_scroll

        def shown() -> list[str]:
            info = scroll.window.render_info
            lines = wired.session.state.help_text.splitlines()
            return lines[info.vertical_scroll:info.vertical_scroll + info.window_height]

        async def script() -> None:
            pipe.send_text("chat" + ENTER)
            await until(lambda: wired.session.state.help_text and scroll.window.render_info)
            await redrawn(ui)
            info = scroll.window.render_info
            assert info.content_height == 42 > info.window_height, "the title, a blank line, the 40 lines"
            assert shown()[-1] == "bob: line 40", "opened at its end"
            height = info.window_height
            pipe.send_text("\x1b[5~")  # PgUp
            await until(lambda: scroll.window.render_info.vertical_scroll == 42 - height - (height - 4))
            pipe.send_text("\x1b[5~" * 3)
            await until(lambda: scroll.window.render_info.vertical_scroll == 0)
            assert shown()[0] == "The chat so far (40 lines; PgUp/PgDn scroll it, Esc closes it)"
            pipe.send_text("\x1b")
            await until(lambda: wired.session.state.help_text is None)
            assert wired.sent() == [], "nothing was sent: the chat so far is the client's own"

        run(ui, script)


def test_chat_alone_with_nothing_said_says_how_to_talk():
    wired = WiredSession()
    wired.seat(position_text("bWA@c4 yTR@c6"))
    ui = ClientUI(wired.session, output=DummyOutput())
    ui.commands.run("chat")
    assert wired.session.state.notice == "nothing was said here yet: chat TEXT talks to everyone here"
    assert wired.session.state.help_text is None and wired.sent() == []


def test_a_one_line_completion_menu_opens_above_the_prompt_not_over_the_hints_row():
    """A float goes below the cursor where it fits: `help BG-MO` + Tab, whose one completion needs one row, drew
    its menu over the hints row under the prompt, where other menus open above (play-test pt24 F13). Every menu
    now opens above the prompt, the hints row left whole."""
    wired = WiredSession()
    wired.seat(position_text("bWA@c4 yTR@c6"))
    size = Size(rows=40, columns=140)
    with create_pipe_input() as pipe:
        ui = ClientUI(wired.session, input=pipe, output=Vt100_Output(io.StringIO(), lambda: size))

        async def script() -> None:
            pipe.send_text("help BG-MO\t")
            await until(lambda: (state := ui.prompt.complete_state) and state.completions)
            assert [c.text for c in ui.prompt.complete_state.completions] == ["BG-MOVE"], "a one-row menu"
            await redrawn(ui)
            screen = ui.app.renderer._last_screen  # (what the renderer drew last, row by row)
            rows = ["".join(screen.data_buffer[y][x].char for x in range(size.columns)) for y in range(size.rows)]
            prompt_row = next(y for y, row in enumerate(rows) if "> help BG-MO" in row)
            menu_rows = [y for y, row in enumerate(rows) if " BG-MOVE " in row]
            assert menu_rows == [prompt_row - 1]
            assert rows[prompt_row + 1].startswith(" Tab completes"), rows[prompt_row + 1]

        run(ui, script)


def test_a_colour_sequence_typed_or_pasted_into_the_prompt_is_dropped_without_a_traceback():
    """ESC [ 3 1 m typed or pasted (coloured text from another terminal): prompt_toolkit's input parser takes it
    for a mouse report, which the client never asks for, and its own mouse handler raised on it: a play-test's
    screen showed a traceback and "Press ENTER to continue..." (pt25 F6). The sequence is dropped, the rest
    typed, and the line runs."""
    wired = WiredSession()
    with create_pipe_input() as pipe:
        ui = ClientUI(wired.session, input=pipe, output=DummyOutput())

        async def script() -> None:
            pipe.send_text("chat hallo \x1b[31mROT")
            await until(lambda: ui.prompt.text.endswith("ROT"))
            assert ui.prompt.text == "chat hallo ROT"
            pipe.send_text("\r")
            await until(lambda: not ui.prompt.text)

        run(ui, script)
    assert wired.sent() == [Chat("hallo ROT")]


PASTE_START, PASTE_END = "\x1b[200~", "\x1b[201~"
"""A terminal's bracketed paste: what is pasted comes between these, as one key (Keys.BracketedPaste)."""


def test_a_paste_of_several_lines_comes_into_the_prompt_a_line_at_a_time():
    """Play-test pl33 pasted three commands at once (`attack ycl`, `combat +2`, `move bCL g20`): the prompt showed
    an empty line (the last after the paste's newline) and Enter sent the three as one action, refused for the
    second line's verb. A paste's first line comes into the prompt, the next when Enter has run it, and so on;
    Enter on an emptied prompt drops the rest. A line pasted with its newline is not run before Enter."""
    wired = WiredSession()
    with create_pipe_input() as pipe:
        ui = ClientUI(wired.session, input=pipe, output=DummyOutput())

        async def script() -> None:
            pipe.send_text(PASTE_START + "chat one\r\nchat two\n\n  chat three \nchat four\n" + PASTE_END)
            await until(lambda: ui.prompt.text == "chat one")
            assert "4 lines pasted" in ui.state.notice
            pipe.send_text(ENTER)
            await until(lambda: ui.prompt.text == "chat two")
            pipe.send_text(ENTER)
            await until(lambda: ui.prompt.text == "chat three")
            assert wired.sent() == [Chat("one"), Chat("two")]
            pipe.send_text("\x15")  # Ctrl-U empties the prompt: Enter then drops the rest of the paste
            await until(lambda: ui.prompt.text == "")
            pipe.send_text(ENTER)
            await redrawn(ui)
            assert ui.prompt.text == "" and ui.pasted == []
            pipe.send_text(PASTE_START + "chat five\n" + PASTE_END)
            await until(lambda: ui.prompt.text == "chat five")
            await redrawn(ui)
            assert wired.sent() == [], "a line pasted with its newline waits for Enter"

        run(ui, script)
