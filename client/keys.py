"""Key bindings besides prompt_toolkit's defaults (Enter runs the line, Tab completes, Up/Down browse history)."""

from __future__ import annotations

from collections.abc import Callable

from prompt_toolkit.buffer import Buffer
from prompt_toolkit.filters import Condition
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.keys import Keys

from .help import help_text
from .i18n import _
from .layout import ClientLayout
from .state import ClientState


def build_key_bindings(state: ClientState, prompt: Buffer, screens: ClientLayout,
                       quit_client: Callable[[], None], pasted: list[str] | None = None) -> KeyBindings:
    """`pasted`: where a paste of several lines keeps the lines after its first, for the prompt to take in turn
    (ClientUI._accept)."""
    bindings = KeyBindings()
    pasted = [] if pasted is None else pasted

    @bindings.add("f2")
    def _switch(event: KeyPressEvent) -> None:
        """On a narrow terminal, switch between the board and the side panel; on a wide one, which of them PgUp/PgDn
        scroll while both are cut (`ClientLayout.panel_paged`)."""
        screens.show_panel = not screens.show_panel

    @bindings.add("f1")
    def _help(event: KeyPressEvent) -> None:
        state.help_text = help_text(at_table=state.at_table)

    @bindings.add("escape", eager=True)
    def _close(event: KeyPressEvent) -> None:
        """Close the completion menu, else the help box."""
        if prompt.complete_state:
            prompt.cancel_completion()
        else:
            state.help_text = None

    @bindings.add("pageup")
    def _page_up(event: KeyPressEvent) -> None:
        """Scroll the help box while it is open, else the side panel while F2 shows it (or beside the board:
        `ClientLayout.panel_paged`), else the board."""
        screens.paged()[0].page(-1)

    @bindings.add("pagedown")
    def _page_down(event: KeyPressEvent) -> None:
        screens.paged()[0].page(+1)

    @bindings.add("s-right")
    @bindings.add("s-left")
    def _shift_board(event: KeyPressEvent) -> None:
        """On a terminal narrower than the board, its right end or its left end in view (play-test pt29 F26)."""
        screens.board_right = event.key_sequence[0].key == Keys.ShiftRight

    @bindings.add("c-c")
    @bindings.add("c-q")
    @bindings.add("c-d", filter=Condition(lambda: not prompt.text))
    def _quit(event: KeyPressEvent) -> None:
        """Quit; in a game we play, the line is cleared first and the key asked again (play-test pt25b F8: a
        player's Ctrl-C, meant to clear a line as in a shell, closed the client at once and left his seat empty;
        `leave` and `resign` ask before they act). Typing a command in between asks again."""
        if state.game_running and state.confirm != "quit-key":
            prompt.reset()
            state.confirm = "quit-key"
            # TRANSLATORS: after Ctrl-C (or Ctrl-D, Ctrl-Q) in a running game; `quit` is the command, typed as it is
            state.say(_("press it again to quit: your seat is kept a while, and dt-client takes it back when started "
                        "again (`quit` quits too)"))
            return
        quit_client()

    @bindings.add(Keys.BracketedPaste)
    def _paste(event: KeyPressEvent) -> None:
        """A paste of several lines, one command a line. prompt_toolkit put them all in the one-line prompt, which
        showed only the last (an empty line after the paste's last newline), and Enter sent them as one action,
        refused for its second line's verb ("expected a token like bWA or yRP, got 'combat'", play-test pl33). Its
        first line comes into the prompt, and each next one when the line before it has run (Enter), so that each
        is read against the game as it then stands; Enter on an emptied prompt drops the rest."""
        data = event.data.replace("\r\n", "\n").replace("\r", "\n")
        if "\n" not in data:
            event.current_buffer.insert_text(data)
            return
        lines = [line.strip() for line in data.split("\n") if line.strip()]
        if not lines:
            return
        event.current_buffer.insert_text(lines[0])
        pasted[:] = lines[1:]
        if pasted:
            # TRANSLATORS: after a paste of several lines into the prompt; {n} how many lines it had
            state.say(_("{n} lines pasted: Enter runs this one, then the next comes into the prompt (Enter on an "
                        "empty prompt drops the rest)").format(n=len(lines)))

    ignore_mouse_reports(bindings)
    return bindings


def ignore_mouse_reports(bindings: KeyBindings) -> None:
    """Drop what the terminal's input parser takes for a mouse report. The client asks for no mouse reports, but
    prompt_toolkit reads a colour sequence typed or pasted into the prompt (ESC [ 3 1 m) as one and its own handler
    fails on it: a play-test's screen showed a traceback and "Press ENTER to continue..." (prompt_toolkit 3.0.53).
    The application's bindings come after prompt_toolkit's defaults, so this one is used for the key."""

    @bindings.add(Keys.Vt100MouseEvent)
    def _ignored(event: KeyPressEvent) -> None:
        pass
