"""The lobby screen's texts: the table list and the lobby chat."""

from __future__ import annotations

from prompt_toolkit.formatted_text import StyleAndTextTuples

from dungeon_twister.protocol import TableInfo

from .names import scenario_target
from .state import ClientState

def table_list(state: ClientState) -> StyleAndTextTuples:
    """One line per public table: id, status, options, the players of both seats, the number of spectators."""
    width = max([len("TABLE"), *(len(info.table) for info in state.tables)]) + 2
    columns = f"{'TABLE':<{width}}{'STATUS':<9}{'VP':<4}{'OPTIONS':<{OPTIONS_WIDTH + 1}}{'BLUE':<16}{'YELLOW':<16}WATCHING"
    out: StyleAndTextTuples = [("class:title", columns + "\n")]
    if not state.tables:
        hint = "no tables yet: `create` makes one" if state.connected else "not connected"
        return out + [("class:dim", hint)]
    for info in state.tables:
        out += _row(info, width)
    return out


CARD_TUTORIAL_VP = {1: 2, 2: 3, 3: 4}
"""The VP target of each card-game tutorial (CG-TUT1-..3; engine/cards/data/cards.json, checked by a test)."""
CARD_SCENARIO_VP = {"standard": 5}
"""The card game's scenario cards' targets (CG-SCEN-04, RUL-112; checked by the same test)."""


OPTIONS_WIDTH = 23
"""The table list's options column (one more space before the players)."""


def _fit(text: str, width: int) -> str:
    """`text` in `width` characters: cut with a "…" marker when longer (the table's own view has it all)."""
    return text if len(text) <= width else text[:width - 1] + "…"


def _row(info: TableInfo, width: int) -> StyleAndTextTuples:
    options = info.options
    flags = ", ".join(([options.scenario] if options.scenario else [options.set_name] if options.set_name else [])
                      + [flag for flag in ("beginner", "timers", "private") if getattr(options, flag)]
                      + ([f"{options.teams} teams"] if options.teams else []))
    target = (scenario_target(options.scenario) or "-") if options.scenario else options.target_vp
    if options.game == "cards" and options.scenario:  # The Card Game's scenario card (CG-SCEN-04: 5 VP)
        rest = ", ".join(flag for flag in ("timers", "private") if getattr(options, flag))
        flags = ", ".join(filter(None, (f"cards {options.scenario}, {options.teams or 'mutual'}", rest)))
        target = CARD_SCENARIO_VP.get(options.scenario, "-")
    elif options.game == "cards":  # The Card Game: its tutorial sets the target (CG-TUT1..3)
        tutorial = options.tutorial or 1
        flags = ", ".join(filter(None, (f"cards, tutorial {tutorial}", flags)))
        target = CARD_TUTORIAL_VP.get(tutorial, "-")
    if options.handicap:
        flags = ", ".join(filter(None, (flags, "handicap")))
    if options.secret_objects:  # CG-OPT-03
        flags = ", ".join(filter(None, (flags, "secret objects")))
    status_style = "class:active" if info.status == "waiting" else ""
    return [
        ("", f"{info.table:<{width}}"), (status_style, f"{info.status:<9}"),
        ("", f"{target:<4}{_fit(flags or '-', OPTIONS_WIDTH):<{OPTIONS_WIDTH + 1}}"),
        ("class:seat.b", f"{info.blue or '(free)':<16}"), ("class:seat.y", f"{info.yellow or '(free)':<16}"),
        ("", f"{info.spectators}\n"),
    ]


def lobby_chat(state: ClientState) -> StyleAndTextTuples:
    if not state.chat:
        return [("class:dim", "chat: `chat TEXT` talks to everyone in the lobby")]
    return [("class:chat", "\n".join(state.chat))]
