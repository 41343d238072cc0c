"""The lobby's table list follows the server's pages (list_tables offset/limit, tables total/more)."""

from __future__ import annotations

from dungeon_twister.protocol import ListTables, TableInfo, TableOptions, Tables

from dungeon_twister.client.names import MAX_LISTED_TABLES
from test_client_prompt import WiredSession


def infos(first: int, count: int) -> tuple[TableInfo, ...]:
    return tuple(TableInfo(f"t{n}", TableOptions(), "waiting", 0) for n in range(first, first + count))


def test_the_next_page_is_asked_for_while_the_server_says_more_and_the_pages_add_up():
    wired = WiredSession()
    wired.deliver(Tables(infos(0, 200), total=450, more=True))
    assert [(m.offset, m.limit) for m in wired.sent()] == [(200, None)]
    wired.deliver(Tables(infos(200, 200), total=450, more=True))
    assert [m.offset for m in wired.sent()] == [400]
    wired.deliver(Tables(infos(400, 50), total=450, more=False))
    assert wired.sent() == []  # the last page: nothing more is asked
    assert [info.table for info in wired.session.state.tables] == [f"t{n}" for n in range(450)]


def test_refresh_starts_a_fresh_list():
    wired = WiredSession()
    wired.deliver(Tables(infos(0, 3)))
    wired.session.list_tables()
    assert [m.offset for m in wired.sent() if isinstance(m, ListTables)] == [0]
    wired.deliver(Tables(infos(10, 2)))
    assert [info.table for info in wired.session.state.tables] == ["t10", "t11"]


def test_the_list_is_bounded_and_an_empty_page_ends_it():
    wired = WiredSession()
    offset = 0
    while True:
        wired.deliver(Tables(infos(offset, 200), total=10_000, more=True))
        asked = wired.sent()
        offset += 200
        if not asked:
            break
        assert [m.offset for m in asked] == [offset]
    assert len(wired.session.state.tables) == MAX_LISTED_TABLES  # 5 pages of 200, then the client stops asking
    fresh = WiredSession()
    fresh.deliver(Tables((), total=5, more=True))  # a server that says more but sends nothing: no loop
    assert fresh.sent() == []


def test_a_page_refused_by_the_rate_limit_ends_the_list_and_a_watch_by_number_goes():
    """Found by a review: the server limits lobby requests (20 at once, then 2 a second); a following page answered
    `rate_limited` left the list unfinished, and a `--spectate 2` waiting for it was never sent. The list ends
    with what came, and the watch goes."""
    from dungeon_twister.client.session import Session
    from dungeon_twister.client.state import ClientState
    from dungeon_twister.protocol import Role, ServerConnection, Software, Spectate, templated

    wired = WiredSession.__new__(WiredSession)  # a spectator's connection, as `dt-client connect --spectate 2`
    wired.frames, wired.server = [], ServerConnection()
    wired.session = Session(ClientState("ann"), Role.SPECTATOR)
    wired.session.spectate_listed = "2"
    wired.session.attach(wired.session.take_plan(), wired.frames.append, lambda: None)
    wired.sent()
    wired.session.receive(wired.server.answer_hello(Software("fake", "1"), "s-1"))
    wired.sent()  # list_tables
    wired.deliver(Tables(infos(0, 200), total=450, more=True))
    assert [m.offset for m in wired.sent()] == [200]
    wired.session.receive(wired.server.send_error(templated(
        "rate_limited", "at most {burst} lobby requests at once and {rate} a second", burst=20, rate=2)))
    assert wired.sent() == [Spectate("t2")]  # table number 2 of the list
    assert len(wired.session.state.tables) == 200
