"""The screens' containers: a title bar, the lobby or the game (board | side panel and log), the help box, the
message bar, the prompt and a line of hints. Every text is computed from the state at each redraw."""

from __future__ import annotations

import re
from collections.abc import Callable

from prompt_toolkit.application import get_app
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.data_structures import Point
from prompt_toolkit.filters import Condition
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.layout import (
    ConditionalContainer,
    Container,
    DynamicContainer,
    Float,
    FloatContainer,
    HSplit,
    Layout,
    VSplit,
    Window,
)
from prompt_toolkit.layout.containers import WindowRenderInfo
from prompt_toolkit.layout.controls import BufferControl, FormattedTextControl
from prompt_toolkit.layout.dimension import Dimension
from prompt_toolkit.layout.margins import ConditionalMargin, ScrollbarMargin
from prompt_toolkit.layout.menus import CompletionsMenu
from prompt_toolkit.layout.processors import BeforeInput
from prompt_toolkit.utils import get_cwidth

from .games import screens
from .i18n import N_, _
from .lobby import lobby_chat, table_list
from .messages import message_bar, prompt_label
from .panel import CHAT_ROWS, chat_lines, event_log, game_panel, your_part
from .printable import printable, printable_fragments, printable_source
from .state import ClientState, EndFirst
from .wrap import at_width, word_wrap

BOARD_WIDTH = 66
PANEL_MIN_WIDTH = 30
WIDE_SCREEN = BOARD_WIDTH + 2 + PANEL_MIN_WIDTH
"""The board, its scrollbar, the separator and the narrowest panel side by side."""
"""Narrower terminals show the board or the side panel, one at a time (F2 switches)."""
HELP_WEIGHT = 30
"""The help box's share of the screen's rows against the table's or the lobby's 1: the rows its text needs first.
Not more: prompt_toolkit's HSplit hands rows out one at a time by weight, and once a child has all its rows every
row another still takes costs it a turn of its loop per unit of weight."""
LOG_MIN_ROWS, CHAT_MIN_ROWS = 3, 2
"""What the log and the chat keep of a short terminal (the newest lines: `_tail`)."""
OWN_MIN_ROWS = 6
"""What the panel's part of what the player has to do now keeps of a short terminal, at most (`your_part`)."""
HELP_ROWS_LEFT = 5
"""The rows the help box leaves to the rest of the screen at most: the title, the message bar, the prompt, the
hints and one of the lobby or the game above it. On 24 rows the box had 16 at most and cut the lobby's last
commands, with no way to see them; it now has its rows first (as the panel, by weight), the lobby's chat gives
way while it is open, and a help longer than the box scrolls (PgUp/PgDn)."""
END = 1 << 30
"""A scroll offset that stands for the text's end (`Scroll.follow`)."""


ROLE_NAMES = {
    # TRANSLATORS: the title bar's role of the connection: one who plays
    "player": N_("player"),
    # TRANSLATORS: the title bar's role of the connection: one who watches a table
    "spectator": N_("spectator"),
}
"""The protocol's roles (protocol.Role values), as the title bar names them."""


class Scroll:
    """The first visible line of a window whose text may be taller than the terminal: the board, the help."""

    def __init__(self) -> None:
        self.offset = 0
        self.window: Window | None = None
        self.showing: object = None
        """What the window shows (`follow`): another text starts at its top."""
        self.barred = False
        """What `overflows` last answered."""
        self.kind: object = None
        """The kind of text last shown (`keep`)."""

    def follow(self, showing: object) -> int:
        """The offset for the text `showing`: when it is another than last time, 0, or `END` for an `EndFirst` text
        (its window shows its last lines: prompt_toolkit keeps a scroll within the text)."""
        if showing is not self.showing:
            self.showing, self.offset = showing, END if isinstance(showing, EndFirst) else 0
        return self.offset

    def overflows(self) -> bool:
        """Whether the text was taller than the window when it was last drawn (a scrollbar's filter: what it
        answered is kept for `bar_stale`)."""
        self.barred = self._taller()
        return self.barred

    def bar_stale(self) -> bool:
        """After a render: whether the scrollbar's answer came from an older drawing than this one (a help just
        opened is drawn once before its height is known), so that the screen is drawn again."""
        return self.window is not None and self._taller() != self.barred

    def _taller(self) -> bool:
        info = self.window.render_info if self.window else None
        return info is not None and _rows(info) > info.window_height

    def keep(self, kind: object) -> int:
        """The offset for a text of this `kind`: its top (0) when the kind is another than last time, else where it
        was scrolled to (the side panel: a new phase starts at its top, another view of the same phase keeps it)."""
        if kind != self.kind:
            self.kind, self.offset = kind, 0
        return self.offset

    def taller(self) -> bool:
        """Whether the text was taller than the window when it was last drawn (more of it to scroll to)."""
        return self._taller()

    def page(self, direction: int) -> None:
        """Scroll by most of a window height, up (-1) or down (+1)."""
        info = self.window.render_info if self.window else None
        if info is None:
            return
        bottom = max(0, _rows(info) - info.window_height)
        start = min(self.offset, bottom)  # (`END` stands for the bottom)
        self.offset = min(bottom, max(0, start + direction * max(1, info.window_height - 4)))


class ScrollArrows(ScrollbarMargin):
    """A scrollbar whose arrows stand only where there is more to scroll to: "^" while lines are above the window,
    "v" while lines are below it. prompt_toolkit draws both always, and at the help's end a "v" still stood under
    it: a translator's play-through at 60 x 20 (i18n32) took it for more lines that PgDn could not reach."""

    def __init__(self) -> None:
        super().__init__(display_arrows=True)

    def create_margin(self, window_render_info: WindowRenderInfo, width: int, height: int) -> StyleAndTextTuples:
        drawn = super().create_margin(window_render_info, width, height)
        info = window_render_info
        above = info.vertical_scroll > 0
        below = info.vertical_scroll + info.window_height < _rows(info)
        arrows = [n for n, (style, *_rest) in enumerate(drawn) if style == "class:scrollbar.arrow"]
        for n, more in zip(arrows, (above, below) if len(arrows) == 2 else ()):
            if not more:
                drawn[n] = ("class:scrollbar.background", " ")
        return drawn


def _rows(info: WindowRenderInfo) -> int:
    """The lines of a window's text up to its last that is not blank: a scroll's end. The side panel's text ends with
    a blank line (before what to type), and at its end a "v" stood for that line alone, which PgDn then showed
    (pt33 at 60 x 20)."""
    rows = info.content_height
    while rows > 0 and not "".join(text for _style, text, *_ in info.ui_content.get_line(rows - 1)).strip():
        rows -= 1
    return rows


def _prompt_scroll(window: Window, width: int) -> int:
    """The prompt line's first visible column: 0 while its label and text (`width` columns) fit on the screen,
    else where prompt_toolkit left it (it then keeps the cursor in view). Seen by hand: after a chat line longer
    than the screen was sent, the empty prompt stayed scrolled by the label's width, and the label never came back:
    prompt_toolkit only scrolls back as far as the cursor."""
    return 0 if width < get_app().output.get_size().columns else window.horizontal_scroll


def _help_rows() -> Dimension:
    """The help box takes the rows its text needs first, up to all the screen's but `HELP_ROWS_LEFT`."""
    return Dimension(max=max(1, get_app().output.get_size().rows - HELP_ROWS_LEFT), weight=HELP_WEIGHT)


class ClientLayout:
    """Builds the layout once; `prompt_window` is the focused element."""

    def __init__(self, state: ClientState, prompt: Buffer, clock: Callable[[], float]) -> None:
        self.state = state
        self.clock = clock
        self.board_scroll = Scroll()
        self.help_scroll = Scroll()
        self.panel_scroll = Scroll()
        """The side panel's (its part above what the player has to do now): at 60 x 20 a free build's lists were
        below its rows, out of reach (i18n32); PgUp/PgDn scroll it while F2 shows it (`panel_paged`). A new phase
        shows its top (`panel_kind`)."""
        self.show_panel = False
        """On a narrow terminal: the side panel instead of the board. On a wide one: PgUp/PgDn scroll the panel
        beside the board, not the board, while both are taller than their rows (`panel_paged`)."""
        self.board_right = False
        """On a terminal narrower than the board: its right end in view, not its left (Shift+Right, Shift+Left)."""
        self.board_cut = False
        """Whether the board was last drawn narrower than it is (the hints then name Shift+Left/Right)."""
        self.board_opened: tuple | None = None
        self.placing_shown: tuple | None = None
        """The revealed room whose placement last brought it into the board's view (`_to_placing`): once a room."""
        self.chat_seen: tuple = ()
        """The table's chat lines as the side panel last showed them: newer ones are named in the message bar while
        the board hides the panel (`_hidden_status`)."""
        """The table and seat the board was last drawn for (`_board`: a new one opens on the player's side)."""
        label = lambda: printable(_drawn_text(lambda: prompt_label(state)))  # noqa: E731 (the processor's and the scroll's)
        self.prompt_window = Window(
            BufferControl(prompt, input_processors=[BeforeInput(label, style="class:prompt")]), height=1,
            get_horizontal_scroll=lambda window: _prompt_scroll(window, get_cwidth(label() + prompt.text)))
        self.game = self._game()
        self.lobby = self._lobby()
        has_help = Condition(lambda: bool(state.help_text))
        above_hints = HSplit([
            Window(_text(self._title), height=1, style="class:hints"),
            DynamicContainer(lambda: self.game if state.at_table else self.lobby),
            ConditionalContainer(self._help(), filter=has_help),
            Window(_text(_wrapped(self._message, _columns)), wrap_lines=True,
                   height=self._bar_rows, dont_extend_height=True),
            self.prompt_window,
        ])
        # The completion menu floats over everything but the hints row: a float goes below the cursor where it
        # fits, so a one-line menu covered the hints row under the prompt (play-test pt24 F13); with no row
        # below the prompt in its container, every menu opens above it.
        menu = Float(xcursor=True, ycursor=True, content=CompletionsMenu(max_height=12, scroll_offset=1))
        root = HSplit([FloatContainer(above_hints, floats=[menu]),
                       Window(_text(self._hints), height=1, style="class:hints")])
        self.layout = Layout(root, focused_element=self.prompt_window)

    def paged(self) -> tuple[Scroll, str]:
        """What PgUp/PgDn scroll now, and its name on the hints line: the help box while it is open, else the side
        panel while F2 shows it (or beside the board, `panel_paged`), else the board. The hints said
        "PgUp/PgDn board" while the keys scrolled the help (pt32)."""
        if self.state.help_text:
            # TRANSLATORS: the hints line: the keys that scroll the help box (while it is open)
            return self.help_scroll, _("PgUp/PgDn help")
        if self.panel_paged():
            # TRANSLATORS: the hints line: the keys that scroll the side panel (while F2 shows it on a narrow terminal,
            # or beside the board while its end is cut)
            return self.panel_scroll, _("PgUp/PgDn panel")
        # TRANSLATORS: the hints line: the keys that scroll the board (a board taller than the terminal)
        return self.board_scroll, _("PgUp/PgDn board")

    def panel_paged(self) -> bool:
        """Whether PgUp/PgDn scroll the side panel (the help box closed): on a narrow terminal while F2 shows it;
        beside the board (a wide one) while the panel is taller than its rows and the board is not, or F2 chose the
        panel (both taller). At 100 x 24 a free build's lists were cut at the panel's bottom, and the keys scrolled
        only the board (pt32b)."""
        if _columns() < WIDE_SCREEN:
            return self.show_panel
        return self.state.at_table and self.panel_scroll.taller() and (
            self.show_panel or not self.board_scroll.taller())

    def panel_shown(self) -> bool:
        """Whether the side panel is on the screen: at a table, beside the board or (F2) instead of it."""
        return self.state.at_table and (_columns() >= WIDE_SCREEN or self.show_panel)

    def both_paged(self) -> bool:
        """Beside the board (a wide terminal): whether the board and the panel are both taller than their rows, and
        F2 chooses which of them PgUp/PgDn scroll."""
        return _columns() >= WIDE_SCREEN and self.panel_scroll.taller() and self.board_scroll.taller()

    def panel_kind(self) -> tuple:
        """What makes the side panel another text, which shows from its top (`Scroll.keep`): the table, the seat, the
        game, its phase and turn, and its end. The same phase keeps where the player scrolled it, across F2 too; a
        new one showed where the last phase's text was scrolled to, its top out of view (pt32b)."""
        view = self.state.view or {}
        return (self.state.table, self.state.seat, view.get("game"), view.get("phase"), view.get("turn"),
                self.state.game_over)

    def _bar_rows(self) -> Dimension:
        """The message bar's rows: what its text takes on the screen, up to a third of the terminal's rows (3 at
        least). It had 3 at most, and fewer when the board or the help took them by weight: at 60 x 20 `create`'s
        usage after a refused option (6 rows there) lost its end (i18n32); it has them first now, as the help."""
        size = get_app().output.get_size()
        width = max(1, size.columns - 1)
        text = "".join(text for _style, text, *_ in _drawn(_wrapped(self._message, _columns))())
        needed = sum(max(1, -(-get_cwidth(line) // width)) for line in text.split("\n"))
        rows = max(1, min(needed, max(3, size.rows // 3)))
        return Dimension(min=rows, max=rows)

    def _help(self) -> Window:
        """The help box: its rows first, up to all but `HELP_ROWS_LEFT`; a longer help scrolls (PgUp/PgDn while it
        is open, a scrollbar says there is more)."""
        state, scroll = self.state, self.help_scroll
        # laid out for the columns less two: the last one a full-screen application leaves empty, one for the
        # scrollbar, which a line of the width's end touched ("...the boardv": play-test pt29 F3)
        laid = lambda: [("class:help", at_width(state.help_text or "", _columns() - 2))]  # noqa: E731
        source, lines = _counted(_drawn(_wrapped(laid, _columns)))
        text = FormattedTextControl(printable_source(source), focusable=False, get_cursor_position=lambda: Point(
            0, min(scroll.follow(state.help_text), lines[0] - 1)))  # (the cursor within the text: `END`)
        bar = ConditionalMargin(ScrollArrows(), filter=Condition(scroll.overflows))
        scroll.window = Window(text, height=_help_rows, dont_extend_height=True, style="class:help",
                               get_vertical_scroll=lambda window: scroll.follow(state.help_text),
                               always_hide_cursor=True, right_margins=[bar])
        return scroll.window

    def _game(self) -> DynamicContainer:
        """Board and panel side by side; on a narrow terminal, the board or (F2) the panel."""
        state, scroll = self.state, self.board_scroll
        board = FormattedTextControl(printable_source(_drawn(self._board)),
                                     get_cursor_position=lambda: Point(0, scroll.offset))
        scroll.window = Window(board, width=Dimension(preferred=BOARD_WIDTH + 1, max=BOARD_WIDTH + 1),
                               get_vertical_scroll=lambda window: scroll.offset, always_hide_cursor=True,
                               right_margins=[ScrollArrows()])  # more of it: PgUp/PgDn
        side = self._side_width
        # (a column less while it is cut, for its scrollbar: "... 38 39 40v" read as a room 40v at 100 x 24; decided
        # on the last drawing, as the bar: its text is asked for before the bar's filter)
        panel_text = _wrapped(lambda: game_panel(state, self.clock(), screens(state.view).panel, own_part=False),
                              lambda: side() - (1 if self.panel_scroll.taller() else 0))
        own_text = _wrapped(lambda: your_part(state, self.clock(), screens(state.view).panel), side)

        def own_rows() -> Dimension:
            # what the player has to do now, under the rest of the panel: its rows (up to OWN_MIN_ROWS) before the
            # panel's, so that a short terminal cuts the panel, not it (play-test pt31: at 60 x 20 a room's
            # placement pushed "Your move: ..." off the panel)
            try:
                lines = sum(text.count("\n") for _style, text, *_ in own_text()) + 1
            except Exception:  # (the window's own text says it: `_drawn`)
                lines = 1
            lines -= 1 if lines > 1 else 0  # (its last line break ends its last line)
            return Dimension(min=min(lines, OWN_MIN_ROWS), preferred=lines, max=lines)
        panel_scroll = self.panel_scroll
        # (its scrollbar wherever it is cut: it takes the last column, which `_wrapped` leaves empty)
        panel_bar = ConditionalMargin(ScrollArrows(), filter=Condition(panel_scroll.overflows))
        offset = lambda: panel_scroll.keep(self.panel_kind())  # noqa: E731
        panel_scroll.window = Window(
            FormattedTextControl(printable_source(_drawn(panel_text)), focusable=False,
                                 get_cursor_position=lambda: Point(0, offset())),
            dont_extend_height=True, always_hide_cursor=True, right_margins=[panel_bar],  # (wrapped already: a
            # wrapping window takes no vertical scroll of ours)
            get_vertical_scroll=lambda window: offset())
        panel = HSplit([
            # its rows first (up to its lines); the log and the chat keep a few each: sharing a row each in turn
            # (prompt_toolkit's HSplit), an 80 x 24 terminal showed 6 lines of the panel, not the hand. HSplit gives
            # each child its preferred rows before any more: the log and the chat prefer their least, the panel
            # all its lines. (A weight of 1000 did it too, at ~70 ms a redraw of 200 x 55 in HSplit's loop.)
            panel_scroll.window,  # (PgUp/PgDn: `panel_paged`)
            Window(_text(own_text), wrap_lines=True, height=own_rows, dont_extend_height=True),
            Window(height=1, char="─", style="class:dim"),
            Window(_tail(_wrapped(lambda: event_log(state), side)), wrap_lines=True, always_hide_cursor=True,
                   height=Dimension(min=LOG_MIN_ROWS, preferred=LOG_MIN_ROWS)),
            ConditionalContainer(
                HSplit([Window(height=1, char="─", style="class:dim"),
                        Window(_tail(_wrapped(lambda: chat_lines(state, side() - 1), side)), wrap_lines=True,
                               always_hide_cursor=True,
                               height=Dimension(min=CHAT_MIN_ROWS, preferred=CHAT_MIN_ROWS, max=CHAT_ROWS))]),
                filter=Condition(lambda: bool(state.chat))),
        ], width=Dimension(min=PANEL_MIN_WIDTH))
        side_by_side = VSplit([scroll.window, Window(width=1, char="│", style="class:dim"), panel])

        def choose() -> Container:
            if get_app().output.get_size().columns >= WIDE_SCREEN:
                return side_by_side
            return panel if self.show_panel else scroll.window

        return DynamicContainer(choose)

    def _side_width(self) -> int:
        """The columns of the side panel (beside the board on a wide terminal, else the whole width)."""
        columns = get_app().output.get_size().columns
        return columns - BOARD_WIDTH - 2 if columns >= WIDE_SCREEN else columns

    def _lobby(self) -> HSplit:
        state = self.state
        return HSplit([
            Window(_text(lambda: table_list(state, _columns() - 1))),
            ConditionalContainer(  # (it gives way to the help box while that is open)
                HSplit([Window(height=1, char="─", style="class:dim"),
                        Window(_tail(_wrapped(lambda: lobby_chat(state), _columns)), wrap_lines=True,
                               always_hide_cursor=True, height=Dimension(min=3, max=10))]),
                filter=Condition(lambda: not state.help_text)),
        ])

    def _board(self) -> StyleAndTextTuples:
        view = self.state.view
        if not view or "rooms" not in view:
            return [("class:dim", _("no board yet"))]
        out: StyleAndTextTuples = []
        lines = screens(view).render(view, self.state.trails)
        for line in lines:
            out += line + [("", "\n")]
        opened = (self.state.table, self.state.seat)
        if opened != self.board_opened:
            # a board taller than the terminal opens on the player's side: Blue's start zone is at its bottom, and
            # on 80 x 24 Blue's first board showed Yellow's half, none of his own figures (play-test pt29 F6); and
            # at its left end, whatever the last table's showed (pt30)
            self.board_opened = opened
            self.board_scroll.offset = len(lines) - 1 if self.state.seat == "B" else 0
            self.board_right = False
        self._to_placing(view, lines)
        out = self._shifted(lines, out)
        return out[:-1]

    def _to_placing(self, view: dict, lines: list[StyleAndTextTuples]) -> None:
        """A revealed room whose tokens the player must place, out of the board's view: brought into it, once a room
        (then the player may scroll away). At 100 x 30 the board stayed on Blue's side while Blue had to place a
        far room's tokens; it came into view only after PgUp (play-test pl33)."""
        placement = view.get("placement")
        squares = [words[-1] for action in self.state.legal
                   if len(words := action.split()) == 3 and words[0] == "place"]
        if not placement or not squares or view.get("game", "board") != "board":
            return
        placing = (self.state.table, placement.get("slot"), placement.get("revealer"), view.get("turn"))
        info = self.board_scroll.window.render_info if self.board_scroll.window else None
        if placing == self.placing_shown or info is None:
            return
        self.placing_shown = placing
        ranks = {square[1:] for square in squares}
        rows = [n for n, line in enumerate(lines)
                if "".join(text for _style, text, *_ in line)[:3].strip() in ranks]
        if not rows:
            return
        first, last, height = min(rows), max(rows), info.window_height
        top = min(self.board_scroll.offset, max(0, len(lines) - height))  # (`offset` may stand beyond the end)
        if first >= top and last < top + height:
            return  # (in view already)
        # the room's rows in the middle of the window, its frame and label with them where they fit
        self.board_scroll.offset = max(0, min(len(lines) - height, (first + last) // 2 - height // 2))
        files = {square[0] for square in squares}
        self.board_right = min(files) > "e"  # (a terminal narrower than the board: the side where the room is)

    def _shifted(self, lines: list[StyleAndTextTuples], out: StyleAndTextTuples) -> StyleAndTextTuples:
        """`out` (the board's `lines`, a line break after each), or, on a terminal narrower than the board, its
        labels' columns on the left and as much of the rest as fits: the left end, or (`board_right`) the right end
        with the room rows' labels. The line of the files says which side is cut: "◂" on its left, "▸" on its
        right (the lines of the files, above and below it). At 60 columns the board (66 wide) lost its column j,
        with no way to see it (play-test pt29 F26)."""
        room = get_app().output.get_size().columns - 1  # (the scrollbar's column)
        widest = max((sum(get_cwidth(text) for _style, text, *_ in line) for line in lines), default=0)
        self.board_cut = widest > room
        if not self.board_cut:
            return out
        shift = widest - room if self.board_right else 0
        files = {n for n, line in enumerate(lines)  # (above the board and below it)
                 if re.fullmatch(r" *a +b( +[c-z])* *", "".join(text for _style, text, *_ in line))}
        shifted: StyleAndTextTuples = []
        for n, line in enumerate(lines):
            kept = _cells(line, 0, BOARD_LABELS) + _cells(line, BOARD_LABELS + shift, BOARD_LABELS + shift + room
                                                          - BOARD_LABELS)
            if n in files:
                kept = ([("class:board.label", "◂")] if shift else [("", " ")]) + _cells(kept, 1, room - 1) + (
                    [("class:board.label", "▸")] if shift < widest - room else [])
            shifted += kept + [("", "\n")]
        return shifted

    def _title(self) -> StyleAndTextTuples:
        state = self.state
        # TRANSLATORS: where the player is, in the title bar: at a table or in the lobby
        where = _("table {table}").format(table=state.table) if state.at_table else _("lobby")
        role = _(ROLE_NAMES[state.role]) if state.role in ROLE_NAMES else state.role
        if state.connected:
            # TRANSLATORS: the title bar: the player's name and the server ({server}: its address and the player's
            # role, "127.0.0.1:7777 (player)")
            who = _("{name} on {server}").format(name=state.name, server=f"{state.server} ({role})")
            shorter = [f"{state.name} ({role})", state.name]
        else:  # (not "bea on not connected", as a play-test read it)
            # TRANSLATORS: the title bar: the player's name while the client has no connection
            who = _("{name}, not connected").format(name=state.name)
            shorter = []
        # laid out for the width (play-test pt31: at 60 columns it was cut in the server's address), the least
        # useful parts left out first: the program's name, then the server's address, then the role
        room = _columns() - 1
        title = " Dungeon Twister Online"
        if get_cwidth(printable(f"{title} · {where} · {who}")) <= room:
            return [("class:title", title), ("", f" · {where} · {who}")]
        for text in (f" {where} · {who}", *(f" {where} · {one}" for one in shorter)):
            if get_cwidth(printable(text)) <= room:
                return [("", text)]
        return [("", fit(f" {where} · {shorter[-1] if shorter else who}", room))]

    def _hints(self) -> StyleAndTextTuples:
        if not self.state.at_table:
            # TRANSLATORS: the hints line: the commands stay as typed (the words in capitals may be translated);
            # keep the " · " separators, and help first (a narrow terminal cuts the line's end)
            text = _("help · create · join TABLE · spectate TABLE · chat TEXT · refresh · ratings · games · "
                     "quit")
        elif self.state.spectating:
            # TRANSLATORS: the hints line: the commands stay as typed; keep the " · " separators
            text = _("help · chat TEXT · look SQUARE · leave · quit")
        else:
            # TRANSLATORS: the hints line: the commands stay as typed; keep the " · " separators
            text = _("Tab completes actions · help TOPIC · look SQUARE · Up/Down history · leave")
        columns = get_app().output.get_size().columns
        board = self.paged()[1]  # (what PgUp/PgDn scroll now)
        if self.state.at_table and (columns < WIDE_SCREEN or self.panel_scroll.taller()):
            # the board's keys first: a narrow terminal cuts the line's end, and at 80 x 24 the board always
            # needs scrolling (play-test pl31: the line never said how); so too beside a panel cut at its bottom
            # (a short terminal: pt32b), F2 with them while both the board and the panel are cut
            if columns < WIDE_SCREEN or self.both_paged():
                # TRANSLATORS: the hints line: the F2 key switches between the board and the panel (on a narrow
                # terminal, the one shown; on a wide one, the one PgUp/PgDn scroll)
                board = _("F2 board/panel") + " · " + board
            text = board + " · " + text
            if columns < WIDE_SCREEN and self.board_cut and not self.show_panel:
                # TRANSLATORS: the hints line on a terminal narrower than the board: Shift and the arrow keys show
                # its other end
                text = _("Shift+←/→ board") + " · " + text
        elif self.state.at_table:
            text += " · " + board
        return [("", " " + fit(text, columns - 1))]

    def _message(self) -> StyleAndTextTuples:
        """The message bar: what it says (`message_bar`), and after it what the side panel would say first while the
        board hides it (`_hidden_status`). On the hints line it pushed F2 and PgUp/PgDn off a 60-column line."""
        said = message_bar(self.state, self.clock())
        status = self._hidden_status()
        if not status:
            return said
        if not "".join(text for _style, text, *_ in said).strip():
            return [("class:alert", status)]
        return said + [("", "  "), ("class:alert", status)]

    def _hidden_status(self) -> str:
        """While the board hides the side panel (a narrow terminal, F2 not pressed): what the panel would say first,
        for the message bar. At 80 x 24 nothing on the screen said it was the player's turn, that a revealed room's
        tokens were his to place, or that a chat line had come (play-test pl33). The chat counts as seen once the
        panel is on the screen."""
        state = self.state
        if not state.at_table:
            self.chat_seen = tuple(state.chat)
            return ""
        if self.panel_shown():
            self.chat_seen = tuple(state.chat)
            return ""
        parts = []
        view = state.view or {}
        if state.to_act and state.game_running:
            if state.secret_purpose and not state.legal:
                parts.append(_("your secret choice"))
            elif view.get("phase") == "place" and view.get("placement"):
                if view.get("game") == "cards":
                    # TRANSLATORS: the message bar while the board hides the side panel: the player must place the
                    # cards of a revealed room (the panel says which)
                    parts.append(_("place the revealed room's cards"))
                else:
                    # TRANSLATORS: the message bar while the board hides the side panel: the player must place the
                    # tokens of a revealed room (the panel says which)
                    parts.append(_("place the revealed room's tokens"))
            else:
                parts.append(_("your turn"))
        own = _("{name}: {text}").format(name=state.name, text="")
        if tuple(state.chat) != self.chat_seen and state.chat and not state.chat[-1].startswith(own):
            # (his own line, as the server sends it back, is no news)
            # TRANSLATORS: the message bar while the board hides the side panel: a chat line came; F2 shows the panel
            # and its chat
            parts.append(_("new chat: F2"))
        return ("► " + " · ".join(parts)) if parts else ""


BOARD_LABELS = 3
"""The columns of the board's rank labels, on its left: kept in view when a narrow terminal shows a part of it."""


def _cells(line: StyleAndTextTuples, start: int, stop: int) -> StyleAndTextTuples:
    """The part of a line of fragments from terminal column `start` to `stop` (by the cells characters take);
    a line shorter than `stop` is padded with spaces (so that what follows keeps its column)."""
    out: StyleAndTextTuples = []
    column = 0
    for style, text, *_rest in line:
        for char in text:
            width = get_cwidth(char)
            if start <= column and column + width <= stop:
                if out and out[-1][0] == style:
                    out[-1] = (style, out[-1][1] + char)
                else:
                    out.append((style, char))
            column += width
    if column < stop:
        out.append(("", " " * (stop - max(column, start))))
    return out


def fit(text: str, width: int) -> str:
    """`text` if it fits in `width` columns, else cut after its last whole item (" · "-separated) that fits, with
    "…" to say more was there (the hints: the full list is in `help`)."""
    if len(text) <= width:
        return text
    items, out = text.split(" · "), ""
    for item in items:
        candidate = f"{out} · {item}" if out else item
        if len(candidate) + 2 > width:
            break
        out = candidate
    return (out + " …") if out else text[:max(0, width - 1)] + "…"


def _columns() -> int:
    return get_app().output.get_size().columns


def _wrapped(get_fragments: Callable[[], StyleAndTextTuples],
             width: Callable[[], int]) -> Callable[[], StyleAndTextTuples]:
    """A fragment source made printable, then word-wrapped to `width()` columns less one (escapes count as the
    columns they take on the screen; a full-screen application leaves the terminal's last column empty)."""
    return lambda: word_wrap(printable_fragments(get_fragments()), width() - 1)


def _tail(get_fragments: Callable[[], StyleAndTextTuples]) -> FormattedTextControl:
    """`_text` for a log that grows at its end (the events, the chat): its cursor stands on its last line, so a
    window too small for it shows the newest lines. `get_fragments` gives the text wrapped to the window's width
    (`_wrapped`), so that its line breaks are its lines on the screen."""
    counted, lines = _counted(_drawn(get_fragments))
    return FormattedTextControl(printable_source(counted), focusable=False,
                                get_cursor_position=lambda: Point(0, lines[0] - 1))


def _counted(get_fragments: Callable[[], StyleAndTextTuples]) -> tuple[Callable[[], StyleAndTextTuples], list[int]]:
    """`get_fragments`, and a list whose one number is how many lines its text had when it was last asked (a
    control asks for its text before its cursor position)."""
    lines = [1]

    def counted() -> StyleAndTextTuples:
        fragments = get_fragments()
        lines[0] = 1 + sum(text.count("\n") for _, text, *_ in fragments)  # one more line than breaks
        return fragments

    return counted, lines


def _text(get_fragments: Callable[[], StyleAndTextTuples]) -> FormattedTextControl:
    """A text control whose fragments are made printable (every text on the screens passes here or through
    `printable_source`: names, chat and the server's texts never reach the terminal raw)."""
    return FormattedTextControl(printable_source(_drawn(get_fragments)), focusable=False)


def _drawn(get_fragments: Callable[[], StyleAndTextTuples]) -> Callable[[], StyleAndTextTuples]:
    """A fragment source of the screens that never fails: what it could not draw is a line saying so, in its place.
    The screens read the server's views, which a server of another version, a faulty or a hostile one may fill with
    anything a map holds (`"players": null`, `"tokens": 5`); a part that failed ended the whole client with a
    traceback (red team rt25), its game and its seat's connection with it. Every control of the layout draws through
    it (`_text`, `_tail`, the board, the help box, the prompt's label)."""
    def drawn() -> StyleAndTextTuples:
        try:  # (made printable here too: a text that is no str, a token's id 5, failed there)
            return printable_fragments(get_fragments())
        except Exception as error:
            return [("class:alert", cannot_draw(error))]

    return drawn


def _drawn_text(get_text: Callable[[], str]) -> str:
    """`_drawn` for a plain text (the prompt's label)."""
    try:
        return get_text()
    except Exception as error:
        return cannot_draw(error) + " > "


def cannot_draw(error: Exception) -> str:
    """What a screen shows in place of the part it could not draw (`_drawn`)."""
    # TRANSLATORS: in place of a part of the screen (the board, the panel...) that the client could not draw from
    # what the server sent; {error} is the programmer's reason, in English
    return _("this cannot be drawn: {error}").format(error=f"{type(error).__name__}: {str(error)[:200]}")
