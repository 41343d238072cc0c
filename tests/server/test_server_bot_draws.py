"""A bot seat offers a draw (docs/rulings.md DT-228) when the game is stuck for it: server/bot.py `Standoff`.

Quiet turn: an own turn of nothing but `end` (and the board game's action card that begins a turn) after which both
seats' VP and the count of figures wounded, in sight and off the board are what they were at the end of its turn
before; forced if nothing else was legal. At the end of the QUIET_TURNS-th (6th) quiet and forced turn in a row, or
of the CHOSEN_QUIET_TURNS-th (12th) quiet one, it offers, if it does not trail on VP; then not again before
OFFER_GAP (12) more of its own turns have ended."""

from __future__ import annotations

import pytest
import trio
import trio.testing

from dungeon_twister.engine import parse_position
from dungeon_twister.protocol import (Action, ActionOk, DrawAnswer, DrawOffer, GameOver, Snapshot, TableEvent,
                                      TableOptions)
from dungeon_twister.server.bot import CHOSEN_QUIET_TURNS, OFFER_GAP, QUIET_TURNS, Standoff
from dungeon_twister.server.viewing import ViewPoint, table_view

from tests.engine.builders import position_text
from test_server_bot import TABLE, _events, seated_bot
from test_server_support import HANG_GUARD, Client, Scripted, against_bot, running_server


def _view(turn: int, vp=(0, 0), wounded: int = 0, active: str = "Y") -> dict:
    """A Card Game view as far as `Standoff` reads it: Yellow's turn `turn`, three characters in sight."""
    figures = [{"id": f"bMK{n}", "wounded": n < wounded} for n in range(3)]
    return {"game": "cards", "active": active, "turn": turn, "outcome": None, "figures": figures,
            "players": {"B": {"vp": vp[0]}, "Y": {"vp": vp[1]}}}


def _offers(turns, play=lambda turn: [("end", ["end"])], view=_view) -> list[int]:
    """The own turns (Yellow's) at whose `end` the bot offers a draw, each turn played as `play(turn)` says: its
    choices, each with the legal actions it was chosen from (by default `end`, its one legal action)."""
    standoff, offered = Standoff("Y"), []
    for turn in turns:
        for choice, legal in play(turn):
            if standoff.note(view(turn), choice, legal):
                offered.append(turn)
    return offered


MOVES = ["end", "move yMK c3", "move yMK d3"]
"""A turn where the bot could move, and chose not to."""


def test_DT_228_a_stuck_bot_offers_a_draw_at_its_6th_quiet_turn_then_not_before_12_more():
    """Yellow's turns 4, 6, 8..., `end` its one legal action: the first is the reference, 6 to 16 its 6 quiet and
    forced turns, so the offer comes at the end of turn 16; the next one 12 own turns later, at turn 40, not at 38
    (the edge: 11 turns after)."""
    assert (QUIET_TURNS, CHOSEN_QUIET_TURNS, OFFER_GAP) == (6, 12, 12)
    assert _offers(range(4, 64, 2)) == [16, 40]
    assert _offers(range(4, 16, 2)) == [], "5 quiet turns: no offer yet"
    # a turn of the board game that begins with its action card is quiet and forced too
    assert _offers(range(4, 42, 2), play=lambda turn: [("card 3", ["card 3", "card 5"]), ("end", ["end"])]) == [16, 40]


def test_DT_228_a_bot_that_chose_to_wait_offers_at_its_12th_quiet_turn():
    """The same, but the bot could have moved and ended its turns instead: it may be biding its time, so the offer
    waits for the 12th quiet turn in a row, at turn 28 (not 26), then 12 of its turns later, at 52. One turn of
    choice among forced ones starts the forced count again: forced at 4 to 10, chosen at 12, forced from 14 on, the
    6th forced turn in a row is 24 (at 22 the quiet ones are 9, forced 5)."""
    assert _offers(range(4, 60, 2), play=lambda turn: [("end", MOVES)]) == [28, 52]
    assert _offers(range(4, 28, 2), play=lambda turn: [("end", MOVES)]) == []
    assert _offers(range(4, 30, 2), play=lambda turn: [("end", MOVES if turn == 12 else ["end"])]) == [24]


@pytest.mark.parametrize("vp, offered", [((1, 0), []), ((2, 2), [16, 40]), ((0, 3), [16, 40])],
                         ids=["trailing", "level", "leading"])
def test_DT_228_a_bot_that_trails_on_VP_never_offers(vp, offered):
    """Yellow behind 0-1 never offers however long it stays stuck; level or ahead, it does (the edge: 2-2)."""
    assert _offers(range(4, 64, 2), view=lambda turn: _view(turn, vp=vp)) == offered


def test_DT_228_a_move_or_a_change_of_the_game_starts_the_count_again():
    """A move of the bot's at turn 10, or a wound (the opponent's) seen at the end of turn 10, or a VP scored: that
    turn is not quiet, 12 to 22 are the 6 quiet ones, and the offer comes at 22. A turn skipped (the bot did not
    end its turn 10 itself: a timeout, say) starts it again too."""
    assert _offers(range(4, 30, 2), play=lambda turn: [("move yMK c3", MOVES), ("end", ["end"])] if turn == 10
                   else [("end", ["end"])]) == [22]
    assert _offers(range(4, 30, 2), view=lambda turn: _view(turn, wounded=int(turn >= 10))) == [22]
    assert _offers(range(4, 30, 2), view=lambda turn: _view(turn, vp=(0, int(turn >= 10)))) == [22]
    assert _offers([t for t in range(4, 30, 2) if t != 10]) == [24]
    # an action noted in the opponent's turn (a board game's placing) is not the bot's turn: nothing changes
    standoff = Standoff("Y")
    assert not standoff.note(_view(5, active="B"), "place bWA a1", ["place bWA a1"]) and standoff.turn is None


def _board_view(turn: int, outcome=None) -> dict:
    """Yellow's view of a board position, at its turn `turn`, `end` its one legal action."""
    point = ViewPoint(parse_position(position_text("bWA@c4 yTR@c9", active="Y")), {"B": "ann", "Y": "random-bot-1"},
                      {"id": TABLE}, True)
    view = table_view(point, "Y")
    view.update(turn=turn, legal=["end"], outcome=outcome)
    return view


@pytest.mark.parametrize("over", [False, True], ids=["game runs", "game over"])
def test_DT_228_the_bot_sends_its_offer_after_its_end_is_played_and_only_if_the_game_runs(over):
    """Through the protocol (a sans-IO server connection): the bot's 7th `end` in a row with nothing changed is
    answered, and with the next view (of after it) it sends `draw_offer`; not before the answer, and not if that
    view says the game is over (DT-239 may end it with that very `end`)."""
    bot, server = seated_bot(_board_view(4))
    sent = []
    for turn in range(4, 18, 2):
        bot.receive(Snapshot(TABLE, turn, _board_view(turn)))
        (frame,) = bot.act()
        (action,) = _events(server, frame)
        assert isinstance(action, Action) and action.text == "end"
        assert bot.receive(ActionOk(action.action_id)) == []
        after = _board_view(turn + 1, {"winner": None, "vp": {"B": 0, "Y": 0}, "reason": "x"} if over else None)
        after["active"], after["legal"] = "B", []
        sent += [type(e) for frame in bot.receive(TableEvent(TABLE, turn + 1, {"kind": "view", "view": after}))
                 for e in _events(server, frame)]
    assert sent == ([] if over else [DrawOffer])


def _walled(vp=(0, 0), turn=3):
    """A tutorial 1 position (engine/cards builders) where Yellow's Mechanork and Snake-man are walled in with no
    jump card left, `end` Yellow's one legal action, while Blue's Snake-man at d4 may still move: not dead
    (DT-239), Blue to play."""
    from tests.engine.cards.builders import build

    return build({"bMK": "a3", "bSN": "d4", "yMK": "c2", "ySN": "b2"}, jumps=(3, 0), vp=vp, active="B", ap=(3, 3),
                 turn=turn)


async def _stuck_bot_game(server, vp=(0, 0)):
    """Ann (Blue) against the greedy bot at a Card Game tutorial 1 table, until her first turn of the main phase;
    the position is then `_walled`. (The table, her client, the turn she plays now.)"""
    ann = await Client.connect(server, "ann", memory=True)
    table = await against_bot(ann, TableOptions(game="cards", tutorial=1), "greedy")
    await Scripted(ann, "B", 1).play(table, stop=lambda v: v["phase"] == "main" and v["active"] == "B")
    game = server.lobby.tables[table].play.game
    turn = game.state.turn
    game.state = _walled(vp, turn)
    return table, ann, turn


async def _ends_until(ann: Client, table: str, play, stop_turn: int) -> int | None:
    """Ann ends each of her turns (the bot can only end its own), each time once the bot has answered its view,
    until the bot offers a draw: the game's turn then (Ann's); None if her turn `stop_turn` comes first. (`play`:
    the table's server/play.py Play.)"""
    while True:
        await trio.testing.wait_all_tasks_blocked()  # (the bot has had the view after its turn, and acted on it)
        if play.draw_offered is not None:
            assert (await ann.expect_event("draw_offered"))["seat"] == "Y"
            return play.game.state.turn
        if play.game.state.turn >= stop_turn:
            return None
        done = f"end-{play.game.state.turn}"  # (an id of its own: a used one is answered, not played again)
        await ann.send(Action(table, done, "end"))
        await ann.expect(ActionOk, lambda e: e.action_id == done)
        while True:
            event = await ann.expect(TableEvent, lambda e: e.event.get("kind") == "view")
            if event.event["view"]["active"] == "B" and event.event["view"]["legal"]:
                break


async def test_DT_228_a_server_bot_walled_in_offers_a_draw_a_declined_one_again_12_turns_later(autojump_clock):
    """End to end: the bot (Yellow) can only end its turns, Ann ends hers. Its turns after the change are t+1, t+3...
    (t: Ann's turn then): t+1 the reference, t+3 to t+13 its 6 quiet turns, so the offer comes after its turn t+13,
    in Ann's t+14. She declines (`draw_answer` no): the game goes on, and the next offer comes after the bot's turn
    t+37, 12 of its turns later, none between. She accepts it: a draw at 0-0, reason `agreed`."""
    with trio.fail_after(HANG_GUARD):
        async with running_server(seeds=(5,)) as server:
            table, ann, t = await _stuck_bot_game(server)
            play = server.lobby.tables[table].play
            assert await _ends_until(ann, table, play, t + 100) == t + 14
            await ann.send(DrawAnswer(table, False))
            assert await ann.expect_event("draw_declined") == {"kind": "draw_declined", "seat": "Y", "by": "B"}
            assert await _ends_until(ann, table, play, t + 100) == t + 38
            assert len(ann.events_of("draw_offered")) == 2 and play.running
            await ann.send(DrawAnswer(table, True))
            assert (await ann.expect(GameOver)).result == {"winner": None, "vp": {"B": 0, "Y": 0}, "reason": "agreed"}


async def test_DT_228_a_server_bot_that_trails_never_offers(autojump_clock):
    """The same standoff with Blue ahead 1-0: 40 of the bot's turns pass, and no offer comes."""
    with trio.fail_after(HANG_GUARD):
        async with running_server(seeds=(5,)) as server:
            table, ann, t = await _stuck_bot_game(server, vp=(1, 0))
            play = server.lobby.tables[table].play
            assert await _ends_until(ann, table, play, t + 80) is None
            assert ann.events_of("draw_offered") == [] and play.running and play.game.state.turn == t + 80
