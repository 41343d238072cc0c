"""The bot player (server/bot.py) on its own, driven through the protocol by a sans-IO server connection."""

from __future__ import annotations

from dungeon_twister.engine import parse_position
from dungeon_twister.protocol import Action, ActionRefused, Joined, ServerConnection, Snapshot, Software
from dungeon_twister.server.bot import BotPlayer
from dungeon_twister.server.viewing import ViewPoint, table_view

from tests.engine.builders import position_text

TABLE = "t-1"


def _events(connection, data: bytes) -> list:
    connection.receive_data(data)
    events = []
    while (event := connection.next_event()) is not None:
        events.append(event)
    return events


def seated_bot(view: dict) -> tuple[BotPlayer, ServerConnection]:
    """A random bot seated as Yellow at TABLE, sent `view`."""
    server, bot = ServerConnection(), BotPlayer("random-bot-1", TABLE, "Y", "random", 5, None)
    _events(server, bot.hello())
    for frame in (server.answer_hello(Software("fake", "1"), "s-1"), server.send(Joined(TABLE, "token-Y", "Y")),
                  server.send(Snapshot(TABLE, 0, view))):
        for event in _events(bot.conn, frame):
            for answer in bot.receive(event):
                _events(server, answer)
    return bot, server


def test_a_bots_action_ids_are_its_process_own_and_a_reused_id_does_not_refuse_the_action():
    """Play-test pt25 F13: a bot taken back after a restart began its action ids at 1 again; the server answers a
    used id `action_id_reused`, and the bot took that for a refusal of the action: with one legal action left it
    waited for ever. Two bots of one name (before and after a restart) send different ids, and an id refused as
    reused has the bot try again, the same action allowed, under a new id; the edge: an action refused by the
    rules is not tried again."""
    point = ViewPoint(parse_position(position_text("bWA@c4 yTR@c9", active="Y")), {"B": "ann", "Y": "random-bot-1"},
                      {"id": TABLE}, True)
    view = table_view(point, "Y")
    view["legal"] = ["end"]  # (its one legal action)
    bot, server = seated_bot(view)
    other, _ = seated_bot(view)
    first = _events(server, bot.act()[0])[0]
    assert isinstance(first, Action) and first.text == "end"
    assert other.act() and other.last[0] != first.action_id, "each process its own ids"
    bot.receive(ActionRefused(first.action_id, "action_id_reused", "this action_id was used for 'hide yFW B1'"))
    again = _events(server, bot.act()[0])[0]
    assert again.text == "end" and again.action_id != first.action_id
    bot.receive(ActionRefused(again.action_id, "illegal_action", "not now", "BG-TURN-01"))
    assert bot.act() == [], "refused by the rules: not tried again on the same view"


async def _move_delay(pace: float, choosing: float, clock, backoff: float = 0.0) -> float:
    """The mock seconds from the frame that gives a bot driven with `pace` its move to the move's arrival, when
    choosing it takes `choosing` seconds (the clock jumped in the bot's `act`)."""
    import trio
    import trio.testing

    from dungeon_twister.server.bot import drive

    point = ViewPoint(parse_position(position_text("bWA@c4 yTR@c9", active="Y")), {"B": "ann", "Y": "random-bot-1"},
                      {"id": TABLE}, True)
    view = table_view(point, "Y")
    view["legal"] = ["end"]
    bot = BotPlayer("random-bot-1", TABLE, "Y", "random", 5, None)
    bot.backoff = backoff  # (as after a refusal `rate_limited`)
    act = bot.act

    def slow_act():
        clock.jump(choosing)  # (what a long search costs, on trio's clock)
        return act()

    bot.act = slow_act
    ours, theirs = trio.testing.memory_stream_pair()
    server = ServerConnection()
    async with trio.open_nursery() as nursery:
        nursery.start_soon(drive, theirs, bot, 0.0, pace)
        _events(server, await ours.receive_some(65536))  # its hello
        await ours.send_all(server.answer_hello(Software("fake", "1"), "s-1") + server.send(Joined(TABLE, "t-Y", "Y")))
        await trio.testing.wait_all_tasks_blocked()
        sent = trio.current_time()
        await ours.send_all(server.send(Snapshot(TABLE, 0, view)))
        while not any(isinstance(event, Action) for event in _events(server, await ours.receive_some(65536))):
            pass
        arrived = trio.current_time()
        nursery.cancel_scope.cancel()
    return arrived - sent


async def test_a_server_bots_move_arrives_after_its_pace_however_soon_it_chose(autojump_clock):
    """Review lk31: a bot's time to choose depends a little on what only it knows (its face-down tokens), and its
    move went out as soon as it was chosen: a timing channel to its opponent. With `bot_pace` (server/config.py)
    the move leaves that long after the frame that gave it, whether the choice took no time or a little; the edge:
    a choice that took longer than the pace is not held longer (0.5 s, not 0.8), and a pace of 0 sends at once."""
    from pytest import approx  # (mock times are sums of floats: 0.5 reads 0.5000000000000001)

    assert await _move_delay(0.3, 0.0, autojump_clock) == approx(0.3)
    assert await _move_delay(0.3, 0.1, autojump_clock) == approx(0.3)
    assert await _move_delay(0.3, 0.5, autojump_clock) == approx(0.5)
    assert await _move_delay(0.0, 0.0, autojump_clock) == approx(0.0)
    # after a refusal `rate_limited`, the bot's backoff (review fz31), the pace within it
    assert await _move_delay(0.3, 0.0, autojump_clock, backoff=1.0) == approx(1.0)


def test_a_bot_sends_no_action_while_its_last_is_unanswered_and_a_rate_limited_one_is_tried_again_later():
    """Review fz31: a view published before the bot's action was handled (its opponent's takeback request, say)
    had it send another action at once, refused "not your turn", which struck that action off its list; and an
    action refused `rate_limited` (refused untried) was struck off too: a bot could wait for ever with its one
    legal action struck off. Now it waits for its action's answer, then for the view after it (rv31b), and after
    `rate_limited` it keeps the action and waits RATE_LIMITED_BACKOFF before sending it again. The edge: a
    refusal by the rules still strikes the action off."""
    from dungeon_twister.protocol import ActionOk, TableEvent
    from dungeon_twister.server.bot import RATE_LIMITED_BACKOFF

    point = ViewPoint(parse_position(position_text("bWA@c4 yTR@c9", active="Y")), {"B": "ann", "Y": "random-bot-1"},
                      {"id": TABLE}, True)
    view = table_view(point, "Y")
    view["legal"] = ["end"]
    bot, server = seated_bot(view)
    first = _events(server, bot.act()[0])[0]
    bot.receive(TableEvent(TABLE, 7, {"kind": "view", "view": view}))  # (published before its action was handled)
    assert bot.fresh and bot.act() == [], "no second action while the first is unanswered"
    bot.receive(ActionOk(first.action_id))
    assert not bot.fresh, "the view that came meanwhile is of before its action: the step's own comes next (rv31b)"
    bot.receive(TableEvent(TABLE, 8, {"kind": "view", "view": view}))
    second = _events(server, bot.act()[0])[0]
    assert isinstance(second, Action) and second.text == "end" and second.action_id != first.action_id
    bot.receive(ActionRefused(second.action_id, "rate_limited", "too many refused actions"))
    assert "end" not in bot.refused and bot.backoff == RATE_LIMITED_BACKOFF == 1.0
    third = _events(server, bot.act()[0])[0]
    assert third.text == "end", "the same action, tried again (drive waits the backoff before sending it)"
    bot.receive(ActionRefused(third.action_id, "illegal_action", "not now", "BG-TURN-01"))
    assert "end" in bot.refused and bot.act() == []
