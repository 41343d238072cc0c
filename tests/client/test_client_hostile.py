"""A hostile (or faulty, or newer) server's maps: the views and events are free-form maps (docs/protocol.md section 3),
and what the client cannot read in them must cost at most that message or that part of the screen, never the client
(red team rt25: any map the server chose ended the client with a traceback, its networking or its screen)."""

from __future__ import annotations

from dungeon_twister.protocol import Error, Snapshot, TableEvent

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
        assert [(type(a), a.code, a.fatal) for a in answers] == [(Error, "bad_field", False)], n
        assert answers[0].message.startswith(message.spec.name + ": ")
        assert state.notice.startswith("protocol error from the server: ")
        assert state.connected
    assert state.view != 7, "a view that is no map does not replace the one we had"
    # the connection goes on: the next good view is the client's
    wired.deliver(TableEvent(TABLE, 4, {"kind": "view", "view": good_view()}))
    assert state.view == good_view() and wired.sent() == []
