"""Names, chat, table names and the server's texts never carry terminal control sequences or direction
overrides to the screen: they are shown as visible escapes (client/printable.py, applied to every text drawn)."""

from __future__ import annotations

import io

from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output.vt100 import Vt100_Output

from dungeon_twister.protocol import ChatMessage, Error, Joined, Snapshot, TableInfo, TableOptions, Tables
from dungeon_twister.client.printable import printable, printable_fragments
from dungeon_twister.client.ui import ClientUI

from client_fixtures import seat_view
from test_client_prompt import TABLE, WiredSession, redrawn, run
from tests.engine.builders import position_text

CLEAR_AND_TITLE = "\x1b[2J\x1b]0;owned\x07"
CSI_C1 = "\x9b31m"
RTL_OVERRIDE = "\u202e"


def test_control_and_format_characters_become_visible_escapes():
    plain = "plain text, accents é, CJK 漢字, emoji 🐉"
    assert printable(plain) == plain
    assert printable(CLEAR_AND_TITLE) == "\\x1b[2J\\x1b]0;owned\\x07"
    assert printable(CSI_C1) == "\\x9b31m", "C1 controls: a single byte CSI on some terminals"
    assert printable("evil" + RTL_OVERRIDE + "gpj.exe") == "evil\\u202egpj.exe"
    assert printable("\u2066isolate\u2069 \u200bzero-width") == "\\u2066isolate\\u2069 \\u200bzero-width"
    assert printable("a\nb\rc\td\x7f") == "a\\x0ab\\x0dc\\x09d\\x7f"
    assert printable("a\nb", newlines=True) == "a\nb"
    assert printable("line\u2028separator") == "line\\u2028separator"


def test_fragments_keep_their_style_and_extra_fields():
    handler = object()
    assert printable_fragments([("class:chat", "x\x1by\n"), ("", "ok", handler)]) == [
        ("class:chat", "x\\x1by\n"), ("", "ok", handler)]


def drawn(wired: WiredSession, size: Size = Size(rows=60, columns=140)) -> str:
    """Everything the client wrote to the terminal (of `size`) while drawing its screen once."""
    buffer = io.StringIO()
    with create_pipe_input() as pipe:
        ui = ClientUI(wired.session, input=pipe, output=Vt100_Output(buffer, lambda: size))

        async def script() -> None:
            await redrawn(ui)

        run(ui, script)
    return buffer.getvalue()


def test_hostile_texts_from_the_server_reach_the_terminal_escaped_in_the_lobby():
    wired = WiredSession()
    evil_name = "bob" + CLEAR_AND_TITLE
    wired.deliver(Tables((TableInfo("t-1" + RTL_OVERRIDE, TableOptions(), "waiting", 0, blue=evil_name),)))
    wired.deliver(ChatMessage(evil_name, "hi " + CSI_C1 + "red"))
    wired.deliver(Error("not_allowed", "nope" + CLEAR_AND_TITLE, "client", False))
    output = drawn(wired)
    for raw in ("\x1b[2J", "\x1b]0;owned", "\x07", "\x9b", RTL_OVERRIDE):
        assert raw not in output, repr(raw)
    assert "bob\\x1b[2J\\x1b]0;owned\\x07: hi \\x9b31mred" in output
    assert "t-1\\u202e" in output
    assert "nope\\x1b[2J" in output


def test_hostile_names_at_a_table_reach_the_terminal_escaped():
    wired = WiredSession()
    wired.session.join(TABLE, "B")
    wired.sent()
    wired.deliver(Joined(TABLE, "token", "B"))
    names = {"B": "ann", "Y": "mallory" + CLEAR_AND_TITLE + RTL_OVERRIDE}
    wired.deliver(Snapshot(TABLE, 0, seat_view(position_text("bWA@c4 yTR@c6"), "B", seats=names,
                                               table={"id": TABLE})))
    wired.deliver(ChatMessage(names["Y"], "gg" + CLEAR_AND_TITLE, TABLE))
    output = drawn(wired)
    for raw in ("\x1b[2J", "\x1b]0;owned", "\x07", RTL_OVERRIDE):
        assert raw not in output, repr(raw)
    assert "mallory\\x1b[2J\\x1b]0;owned\\x07\\u202e" in output


def test_the_title_bar_names_the_server_only_when_connected():
    """A play-test read "bea su non connesso" ("bea on not connected") in the title bar of a client whose server
    had gone: without a connection the bar says so on its own, after the name."""
    from prompt_toolkit.buffer import Buffer

    from dungeon_twister.client.layout import ClientLayout
    from dungeon_twister.client.state import ClientState

    state = ClientState("bea")
    state.server = "127.0.0.1:7777"
    layout = ClientLayout(state, Buffer(), lambda: 0.0)
    assert "".join(text for _, text, *_ in layout._title()) == " Dungeon Twister Online · lobby · bea, not connected"
    state.connected = True
    assert "".join(text for _, text, *_ in layout._title()).endswith(" · lobby · bea on 127.0.0.1:7777 (player)")
