"""A hostile (or faulty, or newer) server's maps: the views and events are free-form maps (docs/protocol.md section 3),
and what the client cannot read in them must cost at most that message or that part of the screen, never the client
(red team rt25: any map the server chose ended the client with a traceback, its networking or its screen)."""

from __future__ import annotations

import re

from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document

from dungeon_twister.client.completion import PromptCompleter
from dungeon_twister.protocol import Error, Resume, Snapshot, TableEvent

from client_fixtures import seat_view
from test_client_prompt import TABLE, WiredSession
from tests.engine.builders import position_text

POSITION = position_text("bWA@c4 yTR@c9")


def good_view() -> dict:
    return seat_view(POSITION, "B", seats={"B": "ann", "Y": "bot"}, table={"id": TABLE})


def test_a_message_the_client_cannot_handle_is_answered_bad_field_and_the_connection_goes_on():
    wired = WiredSession()
    wired.seat(POSITION)
    state = wired.session.state
    # each of these ended the networking (and the client): a snapshot whose rooms are a number (the deal's check),
    # a view event whose table entry is a number (the fairness check), one whose view is no map
    for n, message in enumerate([Snapshot(TABLE, 1, {**good_view(), "rooms": 5}),
                                 TableEvent(TABLE, 2, {"kind": "view", "view": {**good_view(), "table": 5}}),
                                 TableEvent(TABLE, 3, {"kind": "view", "view": 7})]):
        wired.deliver(message)
        answers = wired.sent()
        assert [(type(a), a.code, a.fatal) for a in answers[:1]] == [(Error, "bad_field", False)], n
        assert answers[0].message.startswith(message.spec.name + ": ")
        # review rv25: the first table event that fails asks for a snapshot (what its handler did before it failed
        # may have left the client out of step); not the snapshot that failed, nor a second event before a snapshot
        assert answers[1:] == ([Resume(TABLE, 2, snapshot=True)] if n == 1 else []), n
        assert state.notice.startswith("protocol error from the server: ")
        assert state.connected
    assert state.view != 7, "a view that is no map does not replace the one we had"
    # the connection goes on: the next good view is the client's
    wired.deliver(TableEvent(TABLE, 4, {"kind": "view", "view": good_view()}))
    assert state.view == good_view() and wired.sent() == []
    wired.deliver(Snapshot(TABLE, 4, good_view()))  # the snapshot asked for, handled: the next failure asks again
    assert wired.sent() == [] and not state.resync_asked
    wired.deliver(TableEvent(TABLE, 5, {"kind": "view", "view": {**good_view(), "table": 5}}))
    assert wired.sent()[1:] == [Resume(TABLE, 5, snapshot=True)]


def test_a_snapshot_request_refused_or_left_behind_does_not_stop_the_next_one():
    """review rv26: the flag that stops a second request before the snapshot comes stayed set when the request was
    refused (the resume rate limit) or the table was left, so no table event that failed later asked again."""
    wired = WiredSession()
    wired.seat(POSITION)
    state = wired.session.state
    broken = {"kind": "view", "view": {**good_view(), "table": 5}}
    wired.deliver(Snapshot(TABLE, 1, good_view()))
    wired.deliver(TableEvent(TABLE, 2, broken))
    assert wired.sent()[1:] == [Resume(TABLE, 2, snapshot=True)]
    wired.deliver(TableEvent(TABLE, 3, broken))
    assert wired.sent()[1:] == [], "asked once until the snapshot comes"
    wired.deliver(Error("rate_limited", "at most 5 resume requests at once and one every 2 seconds", "client", False))
    wired.sent()
    wired.deliver(TableEvent(TABLE, 4, broken))
    assert wired.sent()[1:] == [Resume(TABLE, 4, snapshot=True)], "refused: the next failure asks again"
    state.leave_table()
    assert not state.resync_asked, "a snapshot asked for at a table left will not come"


def test_a_view_the_screens_cannot_draw_is_said_in_their_place_and_the_client_runs_on():
    from test_client_prompt import screen

    wired = WiredSession()
    wired.seat(POSITION)
    state = wired.session.state
    # the panel (players), the board (tokens), the prompt's completion (legal) and `look` read these: each failure
    # ended the client with a traceback
    state.view = {**good_view(), "players": None, "tokens": 5, "legal": [1, None, "end"]}
    shown = screen(wired.session)
    assert shown.count("this cannot be drawn: TypeError") == 2, "the board and the panel, each in its place"
    view = good_view()
    view["tokens"][0]["id"] = 5  # a text that is no str, drawn (it failed where the texts are made printable; the
    # board now measures a token's label first, a copy's being longer: a TypeError there)
    state.view = view
    assert re.search(r"this cannot be drawn: (AttributeError|TypeError)", screen(wired.session))
    state.view = {**good_view(), "players": None, "tokens": 5, "legal": [1, None, "end"]}
    screen(wired.session, "look c4\r")
    assert state.notice.startswith("cannot do that now: TypeError"), "`look` says it cannot"
    assert state.legal == ["end"], "only texts are actions"
    completer = PromptCompleter(state)
    assert [c.text for c in completer.get_completions(Document("en"), CompleteEvent(completion_requested=True))] == [
        "end"], "the prompt completes what it can"
    state.view = {**good_view(), "secret": "build", "build": {"parts": 5}}
    assert list(completer.get_completions(Document("build "), CompleteEvent(completion_requested=True))) == []

    # a board of more rows than any game has is refused before it is drawn: 10**7 rows drew until the memory ran out
    # (board.MAX_ROWS + 1 here: without the bound, the test draws it rather than eat the machine's memory)
    state.view = {**good_view(), "rows": 17}
    shown = screen(wired.session)
    assert "this cannot be drawn: ValueError: a board of 17 rows" in shown  # (cut at the board's width)


async def test_a_server_that_sends_no_record_is_given_up_after_record_seconds(autojump_clock):
    """`dt-client replay TABLE --server` (and `verify`) waited without end on a server that accepted and said
    nothing, or only pinged (red team rt25)."""
    import pytest
    import trio
    import trio.testing

    from dungeon_twister.client.replay import RECORD_SECONDS, NoRecord, fetch_record

    ours, theirs = trio.testing.memory_stream_pair()

    async def connect(host: str, port: int):
        return ours

    async def pinging() -> None:  # a server that welcomes, then only pings
        from dungeon_twister.protocol import Ping, ServerConnection, Software

        server = ServerConnection()
        server.receive_data(await theirs.receive_some())
        server.next_event()
        await theirs.send_all(server.answer_hello(Software("mute", "1"), "s-1"))
        for n in range(100):
            await trio.sleep(5)
            await theirs.send_all(server.send(Ping(n)))

    start = trio.current_time()
    with trio.fail_after(RECORD_SECONDS * 2):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(pinging)
            with pytest.raises(NoRecord, match=f"no record within {RECORD_SECONDS} s"):
                await fetch_record(connect, "127.0.0.1", 7777, "t1")
            nursery.cancel_scope.cancel()
    assert trio.current_time() - start == RECORD_SECONDS
