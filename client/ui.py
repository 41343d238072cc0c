"""The prompt_toolkit Application of the client: one prompt buffer (completion, history) over the screens."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable

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
"""Redraw period while a reconnection's countdown is on screen. Nothing else changes with time alone but the
table's timers (a message redraws as it arrives), so an idle client redraws nothing: prompt_toolkit's own
`refresh_interval` redrew the whole screen twice a second for ever, ~6% of a core for an idle client. The timers
show whole seconds: the screen is drawn again when the soonest of them shows another (`next_redraw`), once a
second, not twice."""
TICK_MARGIN = 0.01
"""How long after a timer's second has turned the screen is drawn, so that the panel (which rounds up) shows it."""


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
        self.pasted: list[str] = []
        """The lines of a paste still to come into the prompt, one after each line run (keys.py, `_paste`)."""
        self.app: Application[None] = Application(
            layout=self.screens.layout,
            key_bindings=build_key_bindings(self.state, self.prompt, self.screens, self.quit, self.pasted),
            style=STYLE, full_screen=True, input=input, output=output)
        self.app.pre_run_callables.append(lambda: self.app.create_background_task(self._tick()))
        session.notify = self.invalidate
        self.clock = clock
        self._rung = self.state.bells
        self.app.before_render += self._before_render
        self.app.after_render += self._after_render

    def _accept(self, buffer: Buffer) -> bool:
        line, *rest = buffer.text.split("\n")  # (a paste's lines come one at a time, but whatever put several here)
        if rest:
            self.pasted[:0] = [more.strip() for more in rest if more.strip()]
        elif not line.strip():
            self.pasted.clear()  # Enter on an emptied prompt: the rest of a paste is not wanted
        self.commands.run(line)
        if self.pasted:
            asyncio.get_running_loop().call_soon(self._next_pasted)
        return False  # clear the prompt (the line goes to the history)

    def _next_pasted(self) -> None:
        """The next line of a paste into the prompt, once the last one ran and the prompt was cleared."""
        if self.pasted and not self.prompt.text:
            self.prompt.text = self.pasted.pop(0)
            self.prompt.cursor_position = len(self.prompt.text)

    def invalidate(self) -> None:
        self.app.invalidate()

    def counting_down(self) -> bool:
        """Whether the screen shows a countdown: the table's timers (and the low-clock bell, rung at a render), an
        away opponent's grace, or a reconnection's."""
        return (bool(self.state.timers) or self.state.reconnecting is not None
                or bool(self.state.away and not self.state.game_over))

    async def _tick(self, sleep: Callable[[float], Awaitable[None]] = asyncio.sleep) -> None:
        """Redraw while something counts down, when it shows another value (the application's background task)."""
        while True:
            await sleep(self.next_redraw())
            if self.counting_down():
                self.app.invalidate()

    def next_redraw(self) -> float:
        """Seconds until a countdown on screen changes: the next whole second of the soonest running timer or away
        opponent's grace (its `deadline - now` crossing an integer); REFRESH_SECONDS for a reconnection's, or when
        none runs."""
        if self.state.reconnecting is not None:
            return REFRESH_SECONDS
        now = self.clock()
        waits = [(deadline - now) % 1.0 or 1.0 for deadline in (*self.state.timers.values(), *self.state.away.values())
                 if deadline > now]
        return min(waits) + TICK_MARGIN if waits else REFRESH_SECONDS

    def _before_render(self, _app) -> None:
        """Ring the terminal's bell for each alert the state has raised since the last render (a turn begins, the
        clock falls to its last seconds)."""
        self.state.note_clock(self.clock())
        while self._rung < self.state.bells:
            self._rung += 1
            self.app.output.bell()

    def _after_render(self, _app) -> None:
        """Draw again when the help box's or the panel's scrollbar was decided on an older drawing (the box just
        opened, F2 just showed the panel, a new phase's panel is cut at its bottom)."""
        if self.screens.help_scroll.bar_stale() or (self.screens.panel_shown()
                                                     and self.screens.panel_scroll.bar_stale()):
            self.app.invalidate()

    def quit(self) -> None:
        self.commands.run("quit")

    def exit(self) -> None:
        if self.app.is_running and not self.app.future.done():
            self.app.exit()
