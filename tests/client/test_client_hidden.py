"""What a player misses while the board hides the side panel (a terminal narrower than the panel beside the board:
80 x 24, 60 x 20, F2 for the panel; play-test pl33): the message bar says, after what it says already, that it is
his turn, that a revealed room's tokens are his to place, and that chat came; the hints line keeps its keys. And a
room to place in is brought into the board's view. The screens are read cell by cell from what prompt_toolkit drew
(pipe input, a dummy output of the size wanted), as in test_client_sixty."""

from __future__ import annotations

from dungeon_twister.protocol import ChatMessage

from test_client_prompt import TABLE, WiredSession
from test_client_sixty import F2, PAGE_DOWN, grids
from tests.engine.builders import position_text

SIZES = ((24, 80), (20, 60))


def bar(screen: list[str]) -> str:
    """The message bar's rows (one or two here: above the prompt and the hints), and the board's last row above."""
    return " ".join(screen[-4:-2])


def keys_kept(hints: str) -> bool:
    """The hints line as it was without a word of the turn: F2 and PgUp/PgDn in it, no "►"."""
    return "►" not in hints and "F2 board/panel · PgUp/PgDn board" in hints


def seated(legal: list[str] | None = None, **view) -> WiredSession:
    wired = WiredSession()
    wired.seat(position_text("bWA@c4 yTR@c6 bTH@j2"))
    state = wired.session.state
    if legal is not None:
        state.view = {**state.view, "legal": legal, **view}
    state.turn_since = None  # (the panel's flash: not what this is about)
    return wired


def test_BG_TURN_the_message_bar_says_your_turn_while_the_board_hides_the_panel():
    """pl33: at 80 x 24 with the board shown nothing said it was the player's turn. The message bar says it after its notice,
    the hints line keeps F2 and the PgUp/PgDn keys; the edge: the opponent's turn says nothing, nor does a wide
    terminal, whose panel beside the board says it, nor F2's panel."""
    for rows, columns in SIZES:
        mine, shown = grids(seated(["end", "move bWA c5"], phase="main"), ["", F2], rows=rows, columns=columns)
        assert "joined table t-1 as Blue  ► your turn" in bar(mine), (columns, bar(mine))
        assert keys_kept(mine[-1]), (columns, mine[-1])
        assert "►" not in bar(shown), bar(shown)
        theirs = grids(seated([], phase="main"), [""], rows=rows, columns=columns)[0]
        assert "►" not in bar(theirs) and keys_kept(theirs[-1]), (bar(theirs), theirs[-1])
    wide = grids(seated(["end", "move bWA c5"], phase="main"), [""], rows=50, columns=120)[0]
    assert "►" not in bar(wide), bar(wide)


def test_BG_REVEAL_06_the_message_bar_says_to_place_the_revealed_rooms_tokens_while_the_board_hides_the_panel():
    """pl33: the room revealed, its tokens the player's to place, and nothing on the 80 x 24 board's screen said so.
    The edge: the revealer's opponent waiting while the revealer places says nothing."""
    placement = {"slot": "A1", "revealer": "Y", "placer": "B", "tokens": ["yRP"], "passed": False}
    for rows, columns in SIZES:
        legal = ["place yRP a1", "place yRP a2", "pass"]
        screen = grids(seated(legal, phase="place", placement=placement), [""], rows=rows, columns=columns)[0]
        assert "► place the revealed room's tokens" in bar(screen), (columns, bar(screen))
        assert keys_kept(screen[-1]), (columns, screen[-1])
        waiting = grids(seated([], phase="place", placement=placement), [""], rows=rows, columns=columns)[0]
        assert "►" not in bar(waiting), bar(waiting)


def test_a_chat_line_is_named_in_the_message_bar_until_the_panel_shows_it():
    """pl33: the opponent's chat came and the 80 x 24 board's screen said nothing. The message bar says "new chat:
    F2" (after the turn, when both); the edge: once F2 showed the panel (and its chat), back on the board it says
    no more, and the player's own line, sent back by the server, is no news."""
    for rows, columns in SIZES:
        wired = seated([], phase="main")
        said = lambda: wired.deliver(ChatMessage("bot", "hello there", TABLE))  # noqa: E731
        own = lambda: wired.deliver(ChatMessage(wired.session.state.name, "hi", TABLE))  # noqa: E731
        before, came, panel, back, mine = grids(wired, ["", said, F2, F2, own], rows=rows, columns=columns)
        assert "new chat" not in bar(before), bar(before)
        assert "joined table t-1 as Blue  ► new chat: F2" in bar(came), (columns, bar(came))
        assert keys_kept(came[-1]), (columns, came[-1])
        assert any("bot: hello there" in row for row in panel), panel
        assert "new chat" not in bar(back) and "new chat" not in bar(mine), (bar(back), bar(mine))
    wired = seated(["end"], phase="main")
    both = grids(wired, [lambda: wired.deliver(ChatMessage("bot", "hi", TABLE))], rows=24, columns=80)[0]
    assert "► your turn · new chat: F2" in bar(both), bar(both)


def test_BG_REVEAL_06_a_far_rooms_placement_brings_the_room_into_the_boards_view_on_100_by_30():
    """pl33: Blue at 100 x 30 (the board opens on his side, the bottom) had to place the tokens of a room revealed
    at the far end (A4, ranks 16-20), and the board stayed where it was: the room came into view only after PgUp.
    Its squares come into view; the edge: once the room was shown, the player may scroll away (PgDn stays where he
    put it), and a placement in a room already in view does not move the board."""
    placement = {"slot": "A4", "revealer": "B", "placer": "B", "tokens": ["bRP"], "passed": False}
    legal = ["place bRP a17", "place bRP b18", "place bRP e20", "pass"]
    wired = seated([], phase="main")
    state = wired.session.state

    def revealed() -> None:
        state.view = {**state.view, "phase": "place", "placement": placement, "legal": legal}

    before, shown, away = grids(wired, ["", revealed, PAGE_DOWN * 3], rows=30, columns=100)
    assert not any(row.startswith("20 │") for row in before), "the far room is out of view at first"
    assert any(row.startswith("20 │") for row in shown) and any(row.startswith("17 │") for row in shown), shown
    assert not any(row.startswith("20 │") for row in away), "PgDn after it: the player's own scroll"
    near = {"slot": "A1", "revealer": "B", "placer": "B", "tokens": ["bRP"], "passed": False}
    wired = seated([], phase="main")
    state = wired.session.state
    here, kept = grids(wired, ["", lambda: setattr(state, "view", {
        **state.view, "phase": "place", "placement": near, "legal": ["place bRP a2", "pass"]})], rows=30, columns=100)
    assert here[1:-3] == kept[1:-3] or [row[:67] for row in here[1:-3]] == [row[:67] for row in kept[1:-3]]


def test_BG_COMBAT_at_60_by_20_the_combats_strengths_stay_in_view_while_the_player_chooses_his_card():
    """pt33: at 60 x 20 (F2: the panel), while the player chose his combat card, the combat's strengths ("you attack:
    3 + card vs Yellow 4 + card") were below the panel's rows once a chat pane took its own: only PgDn reached them.
    They come under what to type, in the window whose rows come first; the edge: what to type stays in view above
    them, and once the card is chosen (nothing to do) the combat is in the panel's part again."""
    wired = WiredSession()
    wired.seat(position_text("bWA@c4 yTR@c5", phase="combat", fields="combat 1 bWA>yTR att=bWA def=yTR"))
    state = wired.session.state
    state.turn_since = None
    state.chat.extend(["bot: good luck", "ann: thanks", "bot: you will need it"])
    screen = grids(wired, [F2], rows=20, columns=60)[0]
    text = "\n".join(screen)
    assert "you attack: 3 + card vs Yellow 4 + card" in text, text
    assert "Choose in secret (the card for combat 1)" in text, text
    assert text.index("Choose in secret") < text.index("you attack"), text
    from dungeon_twister.client.panel import game_panel, your_part

    chosen = WiredSession()
    chosen.seat(position_text("bWA@c4 yTR@c5", phase="combat", fields="combat 1 bWA>yTR att=bWA def=yTR"), seat="Y")
    seen = chosen.session.state
    seen.view = {**seen.view, "legal": [], "secret": None}
    assert "Combat 1" in "".join(t for _s, t, *_ in game_panel(seen, 0.0, own_part=False))
    assert "Combat 1" not in "".join(t for _s, t, *_ in your_part(seen, 0.0))
