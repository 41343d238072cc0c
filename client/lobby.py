"""The lobby screen's texts: the table list and the lobby chat."""

from __future__ import annotations

from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.utils import get_cwidth

from dungeon_twister.protocol import TableInfo, TableOptions

from .i18n import N_, _
from .names import TABLE_FLAGS, scenario_target
from .state import ClientState
from .wrap import cell

STATUS_NAMES = {
    # TRANSLATORS: a table's status in the lobby's table list (at most 8 characters): its players are awaited
    "waiting": N_("waiting"),
    # TRANSLATORS: a table's status in the lobby's table list (at most 8 characters): its game is under way
    "playing": N_("playing"),
    # TRANSLATORS: a table's status in the lobby's table list (at most 8 characters): its game has ended
    "over": N_("over"),
}
"""The statuses of a table (protocol values) as the table list shows them."""


def table_list(state: ClientState, columns: int = 120) -> StyleAndTextTuples:
    """One line per public table: id, status, options, the players of both seats, the number of spectators; in
    `columns` characters where it can (an 80-column terminal: `_widths`)."""
    # TRANSLATORS: a column header of the lobby's table list: the table's id (t-1)
    table = _("TABLE")
    width = max([len(table), *(len(info.table) for info in state.tables)]) + 2
    # TRANSLATORS: a column header of the lobby's table list (at most 8 characters): waiting, playing or over
    status = _("STATUS")
    # TRANSLATORS: a column header of the lobby's table list (at most 3 characters): the VP target (victory points)
    target = _("VP")
    # TRANSLATORS: a column header of the lobby's table list (at most 23 characters): the table's options
    options = _("OPTIONS")
    # TRANSLATORS: a column header of the lobby's table list (at most 15 characters): the Blue seat's player
    blue = _("BLUE")
    # TRANSLATORS: a column header of the lobby's table list (at most 15 characters): the Yellow seat's player
    yellow = _("YELLOW")
    # TRANSLATORS: a column header of the lobby's table list, the last one: how many spectators watch the table
    watching = _("WATCHING")
    longest = max((get_cwidth(options_summary(info.options)[0]) for info in state.tables), default=0)
    widths = _widths(columns - width - _status_width() - 4 - len(watching), longest)
    header = (f"{table:<{width}}{status:<{_status_width()}}{target:<4}{cell(options, widths[0])} "
              f"{cell(blue, widths[1] - 1)} {cell(yellow, widths[1] - 1)} {watching}")
    out: StyleAndTextTuples = [("class:title", header + "\n")]
    if not state.connected:  # (the list is of before; play-test pt23b: after a certificate warning in the lobby,
        # nothing there said that `reconnect` works once the pin's line is removed, the table's log did)
        out.append(("class:dim", _("not connected · `reconnect` connects again") + "\n"))
    if not state.tables:
        # TRANSLATORS: `create` is the command, typed as it is
        return out + ([("class:dim", _("no tables yet: `create` makes one"))] if state.connected else [])
    for info in state.tables:
        out += _row(info, width, widths)
    return out


def _widths(room: int, longest: int = 0) -> tuple[int, int]:
    """(options, each player's column) in the `room` they have: 23 and 16 when it is there, the options more, up to
    the `longest` of them, where the room has more (a play-test's German list cut "all_sets, Zeitlimit, T…" on a
    160-column terminal); on a narrower terminal the options give way first, down to 12, then the players, down
    to 10, and on a terminal narrower still both further (`NARROWEST`; longer texts are cut with a "…": the
    table's own view has them whole)."""
    options, player = OPTIONS_WIDTH, PLAYER_WIDTH
    excess = options + 1 + 2 * player - room
    if excess < 0 and longest > options:
        options += min(-excess, longest - options)
        excess = options + 1 + 2 * player - room
    for least_options, least_player in NARROWEST:
        if excess > 0:
            cut = max(0, min(excess, options - least_options))
            options, excess = options - cut, excess - cut
        if excess > 0:
            cut = max(0, min((excess + 1) // 2, player - least_player))
            player, excess = player - cut, excess - 2 * cut
    return options, player


NARROWEST = ((12, 10), (8, 7), (6, 6))
"""The narrowest the options' and each player's columns get, by stages (`_widths`): on 80 columns the first; on
60 the header's last column ("WATCHING") was cut by the screen's edge (translation play-through i18n32), so the
columns then give way further, as far as the last, where a name keeps 5 characters and its "…"."""


CARD_TUTORIAL_VP = {1: 2, 2: 3, 3: 4}
"""The VP target of each card-game tutorial (CG-TUT1-..3; engine/cards/data/cards.json, checked by a test)."""
CARD_SCENARIO_VP = {"standard": 5}
"""The card game's scenario cards' targets (CG-SCEN-04, RUL-112; checked by the same test)."""


OPTIONS_WIDTH = 23
"""The table list's options column (one more space before the players)."""
PLAYER_WIDTH = 16
"""Each seat's column in the table list, its space included."""


def _status_width() -> int:
    """The status column: 9 characters, or its longest word in the language in use and a space."""
    return max(8, len(_("STATUS")), *(len(_(name)) for name in STATUS_NAMES.values())) + 1


def options_summary(options: TableOptions) -> tuple[str, object]:
    """A table's options as its row shows them (the finished games' list too), and its VP target."""
    flags = ", ".join(([options.scenario] if options.scenario else [options.set_name] if options.set_name else [])
                      # (in the reader's words, as the table's own line: a play-test read "tutoriel 1, timers")
                      + [_(TABLE_FLAGS[flag]) for flag in ("beginner", "timers", "private") if getattr(options, flag)]
                      # TRANSLATORS: a table's option in the lobby's list: {mode} is how the teams are made (mutual,
                      # free: the option typed at `create`)
                      + ([_("{mode} teams").format(mode=options.teams)] if options.teams else []))
    target = (scenario_target(options.scenario) or "-") if options.scenario else options.target_vp
    if options.game == "cards" and options.scenario:  # The Card Game's scenario card (CG-SCEN-04: 5 VP)
        rest = ", ".join(_(TABLE_FLAGS[flag]) for flag in ("timers", "private") if getattr(options, flag))
        flags = ", ".join(filter(None, (f"cards {options.scenario}, {options.teams or 'mutual'}", rest)))
        target = CARD_SCENARIO_VP.get(options.scenario, "-")
    elif options.game == "cards":  # The Card Game: its tutorial sets the target (CG-TUT1..3)
        tutorial = options.tutorial or 1
        # TRANSLATORS: a table's option in the lobby's list: the Card Game's tutorial (1, 2 or 3)
        flags = ", ".join(filter(None, ("cards", _("tutorial {number}").format(number=tutorial), flags)))
        target = CARD_TUTORIAL_VP.get(tutorial, "-")
    if options.handicap:
        # TRANSLATORS: a table's option in the lobby's list: a game with a handicap
        flags = ", ".join(filter(None, (flags, _("handicap"))))
    if options.secret_objects:  # CG-OPT-03
        # TRANSLATORS: a table's option in the lobby's list: the Card Game's secret objects variant (CG-OPT-03)
        flags = ", ".join(filter(None, (flags, _("secret objects"))))
    return flags, target


def _row(info: TableInfo, width: int, widths: tuple[int, int] = (OPTIONS_WIDTH, PLAYER_WIDTH)) -> StyleAndTextTuples:
    flags, target = options_summary(info.options)
    status_style = "class:active" if info.status == "waiting" else ""
    status = _(STATUS_NAMES[info.status]) if info.status in STATUS_NAMES else info.status
    # TRANSLATORS: in the lobby's table list, a seat without a player (at most 15 characters)
    free = _("(free)")
    # TRANSLATORS: in the lobby's table list, a free seat kept for a player (a rematch's, a kept seat): nobody else
    # may take it for now; {name} his name (the cell is cut to its column)
    blue = info.blue or (_("(for {name})").format(name=info.blue_kept) if info.blue_kept else free)
    yellow = info.yellow or (_("(for {name})").format(name=info.yellow_kept) if info.yellow_kept else free)
    return [
        ("", f"{info.table:<{width}}"), (status_style, f"{status:<{_status_width()}}"),
        # (texts cut with a "…" to their column, by the cells they take: the table's own view has them whole)
        ("", f"{target:<4}{cell(flags or '-', widths[0])} "),
        ("class:seat.b", f"{cell(blue, widths[1] - 1)} "),
        ("class:seat.y", f"{cell(yellow, widths[1] - 1)} "),
        ("", f"{info.spectators}\n"),
    ]


def lobby_chat(state: ClientState) -> StyleAndTextTuples:
    if not state.chat:
        # TRANSLATORS: `chat TEXT` is the command, typed as it is
        return [("class:dim", _("chat: `chat TEXT` talks to everyone in the lobby"))]
    return [("class:chat", "\n".join(state.chat))]
