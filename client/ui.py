"""The prompt_toolkit Application of the client: one prompt buffer (completion, history) over the screens."""

from __future__ import annotations

import time
from collections.abc import Callable

from prompt_toolkit.application import Application
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.history import InMemoryHistory
from prompt_toolkit.input import Input
from prompt_toolkit.output import Output

from .commands import Commands
from .completion import PromptCompleter
from .keys import build_key_bindings
from .layout import ClientLayout
from .session import Session
from .style import STYLE

REFRESH_SECONDS = 0.5
"""Redraw period, for the timers' countdown."""


class ClientUI:
    """Runs each accepted prompt line as a command and redraws when the session changes the state."""

    def __init__(self, session: Session, *, input: Input | None = None, output: Output | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.session = session
        self.state = session.state
        self.commands = Commands(session, exit_app=self.exit)
        self.prompt = Buffer(completer=PromptCompleter(self.state), complete_while_typing=True,
                             history=InMemoryHistory(), multiline=False, accept_handler=self._accept)
        self.screens = ClientLayout(self.state, self.prompt, clock)
        self.app: Application[None] = Application(
            layout=self.screens.layout,
            key_bindings=build_key_bindings(self.state, self.prompt, self.screens, self.quit),
            style=STYLE, full_screen=True, refresh_interval=REFRESH_SECONDS, input=input, output=output)
        session.notify = self.invalidate
        self.clock = clock
        self._rung = self.state.bells
        self.app.before_render += self._before_render

    def _accept(self, buffer: Buffer) -> bool:
        self.commands.run(buffer.text)
        return False  # clear the prompt (the line goes to the history)

    def invalidate(self) -> None:
        self.app.invalidate()

    def _before_render(self, _app) -> None:
        """Ring the terminal's bell for each alert the state has raised since the last render (a turn begins, the
        clock falls to its last seconds)."""
        self.state.note_clock(self.clock())
        while self._rung < self.state.bells:
            self._rung += 1
            self.app.output.bell()

    def quit(self) -> None:
        self.commands.run("quit")

    def exit(self) -> None:
        if self.app.is_running and not self.app.future.done():
            self.app.exit()
