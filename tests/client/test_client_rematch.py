"""The client's side of a rematch (docs/protocol.md section 6, `rematch`): the game's end says `rematch`, the command
(help, Tab) sends it, the opponent's offer is said plainly, and the server's move to the new table (`rematch`
event, `left`, `table_created`, `joined`) lands the player there without the lobby in between."""

from __future__ import annotations

from prompt_toolkit.document import Document

from dungeon_twister.client.commands import Commands
from dungeon_twister.client.completion import PromptCompleter
from dungeon_twister.client.help import help_text
from dungeon_twister.protocol import (DeclineRematch, Error, GameOver, Join, Joined, Left, ListTables, Rematch,
                                      ServerConnection, Snapshot, Software, TableCreated, TableEvent, Tables)
from dungeon_twister.protocol.views import DECLINE_REMATCH, REMATCH

from client_fixtures import seat_view
from test_client_prompt import TABLE, WiredSession, screen
from tests.engine.builders import position_text

POSITION = position_text("bWA@c4 yTR@c6")
RESULT = {"winner": "Y", "vp": {"B": 0, "Y": 5}, "reason": "target reached"}


def _at_table(seat: str = "B", over: bool = True) -> WiredSession:
    """Ann seated at t-1 against Bob; with `over`, the game ended (Yellow reached the target)."""
    wired = WiredSession()
    wired.session.join(TABLE, seat)
    wired.sent()
    wired.deliver(Joined(TABLE, "token", seat))
    wired.deliver(Snapshot(TABLE, 0, seat_view(POSITION, seat, seats={"B": "ann", "Y": "bob"}, table={"id": TABLE})))
    if over:
        wired.deliver(GameOver(TABLE, RESULT))
    wired.sent()
    return wired


def _event(wired: WiredSession, n: int, event: dict) -> None:
    wired.deliver(TableEvent(TABLE, n, event))


def test_the_games_end_offers_the_rematch_and_the_command_sends_it():
    """The message bar's game over and the panel's end both say `rematch`; Tab completes it; `help` lists it; the
    command sends `rematch` for the table. The client names the feature `rematch` in its hello."""
    wired = _at_table()
    state = wired.session.state
    assert state.notice == "game over: Yellow wins · `rematch` plays again, the colours swapped"
    assert REMATCH in wired.session.connection.offered_features
    text = screen(wired.session)
    assert "leave: back to the lobby" in text and "rematch: play again, the colours swapped" in text
    completer = PromptCompleter(state)
    assert [c.text for c in completer.get_completions(Document("rem"), None)] == ["rematch"]
    assert any(line.startswith("rematch ") for line in help_text(at_table=True).splitlines())
    Commands(wired.session, lambda: None).run("rematch")
    assert wired.sent() == [Rematch(TABLE)]
    assert state.rematch_asked == TABLE


def test_rematch_is_refused_by_the_client_before_the_end_and_to_a_spectator_nothing_sent():
    wired = _at_table(over=False)
    Commands(wired.session, lambda: None).run("rematch")
    assert wired.session.state.notice == "rematch: the game is not over yet"
    assert wired.sent() == []
    watcher = WiredSession()
    watcher.session.state.table = TABLE  # (a spectator: at the table, no seat)
    Commands(watcher.session, lambda: None).run("rematch")
    assert watcher.session.state.notice == "rematch: play again, after a game you played"
    assert watcher.sent() == []


def test_a_game_one_player_left_does_not_offer_the_rematch():
    """Resigned (the opponent left the table), abandoned, aborted: nobody to play again with, so the end does not
    offer `rematch` (the server would refuse it: the opponent gone)."""
    wired = WiredSession()
    wired.seat(POSITION)
    wired.deliver(GameOver(TABLE, {"winner": "B", "vp": {"B": 0, "Y": 0}, "reason": "abandoned"}))
    assert wired.session.state.notice == "game over: Blue wins"
    assert "rematch" not in screen(wired.session)


def test_the_winner_of_a_resignation_is_told_a_rematch_needs_a_new_table():
    """Play-test pl31: ann resigned by `leave`; bob's screen said only "game over: Yellow wins", and his `rematch`
    was refused "ann has left the table: no rematch" (the server resigns a player who leaves a running game, and
    has him in its lobby). The winner is told so with the end, and `rematch` answers the same, nothing sent. The
    edges: neither the resigner (whose screen `_left` words) nor a spectator is told it, nor the opponent of a
    bot (which does not resign)."""
    wired = _at_table("Y", over=False)
    state = wired.session.state
    wired.deliver(GameOver(TABLE, {"winner": "Y", "vp": {"B": 0, "Y": 0}, "reason": "resigned"}))
    told = "ann resigned and left: a rematch needs a new table (`leave`, then `create`)"
    assert state.notice == "game over: Yellow wins · " + told
    Commands(wired.session, lambda: None).run("rematch")
    assert state.notice == told and wired.sent() == []
    assert state.opponent_resigned == "ann"
    state.seat = "B"
    assert state.opponent_resigned is None, "the resigner is not the one told"
    state.seat = None
    assert state.opponent_resigned is None, "nor a spectator"
    state.seat = "Y"
    state.view = {**state.view, "seats": {"B": "planner-bot-1", "Y": "bob"}}
    assert state.opponent_resigned is None, "nor a bot's opponent (the server makes that rematch)"


def test_the_opponents_offer_is_said_plainly_and_rematch_accepts_it():
    wired = _at_table()
    state = wired.session.state
    _event(wired, 1, {"kind": "rematch_offered", "seat": "Y"})
    assert state.notice == "bob offers a rematch: `yes` (or `rematch`) accepts, `no` declines"
    assert state.log[-1] == "Yellow offers a rematch"
    Commands(wired.session, lambda: None).run("rematch")
    assert wired.sent() == [Rematch(TABLE)]


def test_our_offer_waits_and_its_lapse_is_said():
    wired = _at_table()
    state = wired.session.state
    Commands(wired.session, lambda: None).run("rematch")
    wired.sent()
    _event(wired, 1, {"kind": "rematch_offered", "seat": "B"})
    assert state.notice == "rematch asked: waiting for bob (`leave` goes back to the lobby)"
    _event(wired, 2, {"kind": "rematch_lapsed", "seat": "B", "gone": "Y"})
    assert state.notice == "bob left the table: no rematch"
    assert state.log[-1] == "Blue's rematch offer lapsed: Yellow left the table"
    assert state.rematch_asked is None and state.question == ""
    assert "rematch: play again" not in screen(wired.session)  # (nobody to play it with: the panel no longer says it)


def test_the_move_to_the_rematchs_table_skips_the_lobby():
    """What the server sends once the rematch is made: its event, `left` the finished table, the new table's
    `table_created` (a private one's join code), `joined` there as the other colour and its snapshot. The client
    asks for no table list in between, and says where the player is and as which colour."""
    wired = _at_table()
    state = wired.session.state
    Commands(wired.session, lambda: None).run("rematch")
    wired.sent()
    _event(wired, 1, {"kind": "rematch", "table": "t-2", "seats": {"B": "bob", "Y": "ann"}})
    wired.deliver(Left(TABLE))
    wired.deliver(TableCreated("t-2", join_code="ab12cd34"))
    wired.deliver(Joined("t-2", "token-2", "Y"))
    wired.deliver(Snapshot("t-2", 1, seat_view(POSITION, "Y", seats={"B": "bob", "Y": "ann"}, table={"id": "t-2"})))
    assert not any(isinstance(message, ListTables) for message in wired.sent())
    assert (state.table, state.seat, state.join_code) == ("t-2", "Y", "ab12cd34")
    assert state.notice == "rematch at table t-2 (private: join code ab12cd34): you play Yellow this time"
    assert state.result is None and state.rematch_to is None
    assert wired.session.held is not None and wired.session.held.table == "t-2"


def test_an_older_server_is_said_not_to_offer_rematches():
    wired = _at_table()
    Commands(wired.session, lambda: None).run("rematch")
    wired.sent()
    wired.deliver(Error("unknown_type", "unknown message type 'rematch'", "client", False))
    assert wired.session.state.notice == ("this server does not offer rematches (it is older than this client): "
                                          "`leave`, then create a new table")


def test_after_resigning_against_a_bot_rematch_makes_the_table_itself():
    """A player who resigned (`leave` in the game) is in the server's lobby, the finished screen kept: the server's
    `rematch` needs him at the table. Against the bot of a table he created, the client makes the rematch itself:
    the same options, a new table, he joins the other seat and seats the same kind of bot there. Against a person
    it is refused (nobody to ask)."""
    from dungeon_twister.protocol import CreateTable, Join, SeatBot, TableOptions

    options = TableOptions(beginner=True, private=True)
    wired = WiredSession()
    state = wired.session.state
    wired.session.create_table(options)
    wired.sent()
    wired.deliver(TableCreated(TABLE, join_code="00ff00ff"))
    wired.session.join(TABLE, "B", "00ff00ff")
    wired.sent()
    wired.deliver(Joined(TABLE, "token", "B"))
    wired.deliver(Snapshot(TABLE, 0, seat_view(POSITION, "B", seats={"B": "ann", "Y": "greedy-bot-7"},
                                                table={"id": TABLE})))
    wired.session.leave()  # (the game running: a resignation)
    wired.sent()
    wired.deliver(GameOver(TABLE, {"winner": "Y", "vp": {"B": 0, "Y": 0}, "reason": "resigned"}))
    wired.deliver(Left(TABLE))
    assert state.table_gone and state.table == TABLE
    Commands(wired.session, lambda: None).run("rematch")
    assert wired.sent() == [CreateTable(options)]
    assert state.notice == "rematch against the greedy bot: a new table, you play Yellow this time"
    wired.deliver(TableCreated("t-2", join_code="12345678"))
    assert wired.sent() == [Join("t-2", "Y", "12345678")]
    wired.deliver(Joined("t-2", "token-2", "Y"))
    assert wired.sent() == [SeatBot("t-2", "B", "greedy")]

    person = WiredSession()
    person.seat(POSITION)
    person.session.state.view["seats"] = {"B": "ann", "Y": "bob"}
    person.session.leave()
    person.sent()
    person.deliver(GameOver(TABLE, {"winner": "Y", "vp": {"B": 0, "Y": 0}, "reason": "resigned"}))
    person.deliver(Left(TABLE))
    Commands(person.session, lambda: None).run("rematch")
    assert person.session.state.notice == "rematch: you left that table, resigning (`leave` goes back to the lobby)"
    assert person.sent() == []


def test_a_spectator_is_told_where_the_players_went():
    from dungeon_twister.client import inbox

    watcher = WiredSession()
    state = watcher.session.state
    state.table, state.view = TABLE, seat_view(POSITION, "B", seats={"B": "ann", "Y": "bob"}, table={"id": TABLE})
    inbox.handle(watcher.session, TableEvent(TABLE, 9, {"kind": "rematch", "table": "t-2",
                                                         "seats": {"B": "bob", "Y": "ann"}}))
    assert state.notice == "the players play again at table t-2: `leave`, then `spectate t-2` watches it"
    assert state.log[-1] == "the rematch is at table t-2, the colours swapped"
    state.view["table"]["private"] = True  # (the new join code goes to the players alone)
    inbox.handle(watcher.session, TableEvent(TABLE, 10, {"kind": "rematch", "table": "t-3", "seats": {}}))
    assert state.notice == ("the players play again at table t-3, private: `leave`, then `spectate t-3 CODE` with the "
                            "join code one of them gives you")


def test_a_rematch_the_client_makes_keeps_the_handicap_on_its_player():
    """Review rv30, BG-OPT-08 (`handicap.seat` is the stronger player's): Ann, Blue and handicapped against the bot,
    resigns and types `rematch`; she plays Yellow there, so the table she makes has the handicap on Yellow (as the
    server's own rematches have, `rematch_options`). Its edge: the options are otherwise those she made."""
    from dungeon_twister.protocol import CreateTable, Join, TableOptions

    options = TableOptions(beginner=True, handicap={"seat": "B", "characters": 6, "removed_cards": [6]})
    wired = WiredSession()
    wired.session.create_table(options)
    wired.sent()
    wired.deliver(TableCreated(TABLE))
    wired.session.join(TABLE, "B")
    wired.sent()
    wired.deliver(Joined(TABLE, "token", "B"))
    wired.deliver(Snapshot(TABLE, 0, seat_view(POSITION, "B", seats={"B": "ann", "Y": "greedy-bot-7"},
                                                table={"id": TABLE})))
    wired.session.leave()
    wired.sent()
    wired.deliver(GameOver(TABLE, {"winner": "Y", "vp": {"B": 0, "Y": 0}, "reason": "resigned"}))
    wired.deliver(Left(TABLE))
    Commands(wired.session, lambda: None).run("rematch")
    assert wired.sent() == [CreateTable(TableOptions(beginner=True, handicap={"seat": "Y", "characters": 6,
                                                                                "removed_cards": [6]}))]
    wired.deliver(TableCreated("t-2"))
    assert wired.sent() == [Join("t-2", "Y", None)]


def test_yes_accepts_the_opponents_rematch_offer():
    """`yes` answers a standing rematch offer as `rematch` does (docs/protocol.md section 6)."""
    wired = _at_table()
    _event(wired, 1, {"kind": "rematch_offered", "seat": "Y"})
    Commands(wired.session, lambda: None).run("yes")
    assert wired.sent() == [Rematch(TABLE)]
    assert wired.session.state.rematch_offered is None


def test_no_declines_the_opponents_rematch_offer_and_the_decline_is_said():
    """`no` sends `decline_rematch` (the client names the feature; the server's welcome named it too): the player
    is told, and so is the offerer when the lapse comes. Its edges: a server that does not take the message gets
    nothing, the player is told to `leave`; with no offer standing, `no` answers nothing."""
    wired = _at_table()
    state = wired.session.state
    assert DECLINE_REMATCH in wired.session.connection.offered_features
    wired.session.connection.features = frozenset({REMATCH, DECLINE_REMATCH})
    _event(wired, 1, {"kind": "rematch_offered", "seat": "Y"})
    Commands(wired.session, lambda: None).run("no")
    assert wired.sent() == [DeclineRematch(TABLE)]
    assert state.notice == "you declined the rematch" and state.rematch_offered is None
    _event(wired, 2, {"kind": "rematch_lapsed", "seat": "Y", "by": "B", "reason": "declined"})
    assert state.log[-1] == "Blue declines Yellow's rematch offer"
    Commands(wired.session, lambda: None).run("no")
    assert state.notice == "yes / no: nobody asks you anything now" and wired.sent() == []
    # the offerer's side
    offerer = _at_table("Y")
    offerer.session.connection.features = frozenset({REMATCH, DECLINE_REMATCH})
    Commands(offerer.session, lambda: None).run("rematch")
    offerer.sent()
    _event(offerer, 1, {"kind": "rematch_offered", "seat": "Y"})
    _event(offerer, 2, {"kind": "rematch_lapsed", "seat": "Y", "by": "B", "reason": "declined"})
    assert offerer.session.state.notice == "ann declined the rematch"
    assert offerer.session.state.rematch_asked is None and not offerer.session.state.opponent_gone
    # an older server
    old = _at_table()
    old.session.connection.features = frozenset({REMATCH})
    _event(old, 1, {"kind": "rematch_offered", "seat": "Y"})
    Commands(old.session, lambda: None).run("no")
    assert old.sent() == []
    assert old.session.state.notice == ("this server cannot pass a decline on: `leave` goes back to the lobby, "
                                        "which ends the offer")


def test_an_offer_in_the_snapshot_of_a_finished_game_is_said_after_its_end():
    """Session 31: after a restart of the server the players come back to the finished table with a snapshot, whose
    `table.asked` lists the standing rematch offer: the message bar says the offer (not the game's end, said
    first), and `yes` accepts it."""
    wired = WiredSession()
    wired.session.join(TABLE, "Y")
    wired.sent()
    wired.deliver(Joined(TABLE, "token", "Y"))
    table = {"id": TABLE, "result": RESULT, "asked": [{"kind": "rematch_offered", "seat": "B"}]}
    wired.deliver(Snapshot(TABLE, 9, seat_view(POSITION, "Y", seats={"B": "ann", "Y": "bob"}, table=table)))
    state = wired.session.state
    assert state.notice == "ann offers a rematch: `yes` (or `rematch`) accepts, `no` declines"
    Commands(wired.session, lambda: None).run("yes")
    assert wired.sent() == [Rematch(TABLE)]


def test_the_servers_move_to_a_seat_kept_for_us_is_said_as_such():
    """docs/protocol.md section 6, `rematch`: a player cut off (or by a restart of the server) before he sat at the
    table that keeps a seat for him is taken to it when he comes back: an unasked `table_created`, then `joined`
    and a snapshot. It read "table t-2 created" then "joined table t-2 as Yellow", as if he had made a table; it
    says the seat was kept for him and where he is, the join code of a private table with it, and nothing is
    sent. Its edge: a table we asked for (`create`) is still said as created."""
    wired = WiredSession()
    state = wired.session.state
    wired.deliver(TableCreated("t-2", join_code="ab12cd34"))
    assert "created" not in state.notice
    wired.deliver(Joined("t-2", "token-2", "Y"))
    wired.deliver(Snapshot("t-2", 1, seat_view(POSITION, "Y", seats={"B": "bob", "Y": "ann"}, table={"id": "t-2"})))
    assert wired.sent() == []
    assert (state.table, state.seat, state.taken_to) == ("t-2", "Y", None)
    line = ("your seat at table t-2 was kept for you: the server took you back to it (private: join code ab12cd34), "
            "you play Yellow")
    assert state.notice == line and line in state.log
    # the edge
    Commands(wired.session, lambda: None).run("leave")
    wired.deliver(Left("t-2"))
    wired.sent()
    Commands(wired.session, lambda: None).run("create")
    assert [type(m).__name__ for m in wired.sent()] == ["CreateTable"]
    wired.deliver(TableCreated("t-3"))
    assert state.notice == "table t-3 created" and state.taken_to is None
    assert [type(m).__name__ for m in wired.sent()] == ["Join"]


def test_a_create_the_server_refused_leaves_no_create_pending():
    """Review rv32: a `create` refused (here a limit on open tables) was still pending, so the server's later move
    to a seat kept for us was said as that table created, and a bot's rematch would have taken its options. The
    refusal ends it: the move is said as a kept seat's."""
    wired = WiredSession()
    state = wired.session.state
    Commands(wired.session, lambda: None).run("create")
    assert [type(m).__name__ for m in wired.sent()] == ["CreateTable"] and wired.session.creating is not None
    wired.deliver(Error("not_allowed", "at most 1 open table per player", "client", False))
    assert wired.session.creating is None
    wired.deliver(TableCreated("t-4"))
    wired.deliver(Joined("t-4", "token-4", "B"))
    assert state.notice == "your seat at table t-4 was kept for you: the server took you back to it, you play Blue"


def test_yes_to_a_rematch_offered_after_our_leave_asked_again_accepts_it_and_does_not_leave():
    """Review rv32: `leave` in a running game asks "type `leave` again to resign" and `yes` just after does what the
    second `leave` does. The game then ends (Yellow reaches the target) and Bob offers a rematch: `yes` answers his
    offer, the question asked last, and the player stays (it had left the table, the offer with it)."""
    wired = _at_table(over=False)
    state = wired.session.state
    commands = Commands(wired.session, lambda: None)
    commands.run("leave")
    assert wired.sent() == [] and state.confirm == "leave"
    wired.deliver(GameOver(TABLE, RESULT))
    _event(wired, 1, {"kind": "rematch_offered", "seat": "Y"})
    commands.run("yes")
    assert wired.sent() == [Rematch(TABLE)]


def _welcomed_to_create(bot: str | None = "greedy"):
    """A player session opened to create a table (as `dt-client play`: `then`, and a setup seating a bot), welcomed
    by a synchronous fake server: (wired, what it sent at the welcome)."""
    from dungeon_twister.client.session import Session
    from dungeon_twister.client.state import ClientState, TableSetup
    from dungeon_twister.protocol import CreateTable, ServerConnection, Software, TableOptions

    wired = WiredSession.__new__(WiredSession)
    wired.frames, wired.server = [], ServerConnection()
    wired.session = Session(ClientState("ann"), then=(CreateTable(TableOptions()),))
    wired.session.setup = TableSetup(seat="B", bot=bot)
    wired.session.attach(wired.session.take_plan(), wired.frames.append, lambda: None)
    wired.sent()
    wired.session.receive(wired.server.answer_hello(Software("fake", "1"), "s-1"))
    return wired, [type(m).__name__ for m in wired.sent()]


def test_a_create_sent_at_the_welcome_is_not_taken_for_the_servers_move_to_a_kept_seat():
    """Review rm32: `dt-client play` (or a `create` typed while connecting) sent its `create` with the welcome's
    list request, and the server, which takes a player to a seat kept for him as it welcomes him (docs/protocol.md
    section 6), sent that move's `table_created` first: it was taken for the create's answer ("table t-2 created",
    a `join` of it refused, a bot asked for), and the create's own table came unasked after. The `create` now
    waits for the lobby's first answer, which the move's `table_created` precedes: moved, it is not sent, and
    the player, at the kept seat's table, is told that is where he is and that no new table was made (whether
    the `joined` came before the list or after it; and for a rematch's table whose `rematch` event came before
    the server's restart, by hand). Its edge: with no move, the create goes at the list and its table is created
    and joined, as before."""
    for joined_first, rematch in ((False, False), (True, False), (False, True)):
        wired, at_welcome = _welcomed_to_create()
        state = wired.session.state
        assert at_welcome == ["ListTables"]
        if rematch:  # (the rematch's event came on the connection before: kept across the cut)
            state.rematch_to = "t-2"
        wired.deliver(TableCreated("t-2"))
        if joined_first:
            wired.deliver(Joined("t-2", "token-2", "Y"))
        wired.deliver(Tables(()))
        if not joined_first:
            wired.deliver(Joined("t-2", "token-2", "Y"))
        wired.deliver(Snapshot("t-2", 1, seat_view(POSITION, "Y", seats={"B": "greedy-bot-1", "Y": "ann"},
                                                   table={"id": "t-2"})))
        assert wired.sent() == [], joined_first  # no create, no join, no bot
        assert (state.table, state.seat) == ("t-2", "Y")
        assert not any("created" in line for line in state.log), state.log
        assert ("no new table was made: the server took you to table t-2, where a seat was kept for you (`leave` "
                "there, then `create`, makes one)") in state.log
        assert ("rematch at table t-2: you play Yellow this time" if rematch else
                "your seat at table t-2 was kept for you: the server took you back to it, you play Yellow") in state.log
        assert wired.session.setup is None and wired.session.creating is None
    # the edge
    wired, at_welcome = _welcomed_to_create(bot=None)
    assert at_welcome == ["ListTables"]
    wired.deliver(Tables(()))
    assert [type(m).__name__ for m in wired.sent()] == ["CreateTable"]
    wired.deliver(TableCreated("t-3"))
    assert wired.session.state.notice == "table t-3 created"
    assert wired.sent() == [Join("t-3", "B")]


def test_a_create_held_for_the_lobbys_first_answer_goes_when_that_answer_is_a_refusal():
    """Review rv33 of rm33's hold: the lobby's first answer may be its list refused (the seat kept for us was at a
    table that closed before the list reached it: `no_such_table`, "the table has closed"). No `tables` came, so
    the `create` held for it was never sent, and every `create` typed later on that connection was held too,
    silently (send said it went). The refusal answers the list, so the hold ends: the `create` goes, its setup
    kept (the refusal answers no join of ours). Its edge: a create typed after it goes at once."""
    wired, at_welcome = _welcomed_to_create(bot=None)
    assert at_welcome == ["ListTables"]
    wired.deliver(Error("no_such_table", "the table has closed", "server", False))
    assert [type(m).__name__ for m in wired.sent()] == ["CreateTable"]
    wired.deliver(TableCreated("t-3"))
    assert wired.sent() == [Join("t-3", "B")], "the setup kept: the refusal was the list's"
    from dungeon_twister.protocol import CreateTable, TableOptions
    wired.session.create_table(TableOptions())
    assert wired.sent() == [CreateTable(TableOptions())]


def test_a_create_held_for_the_lobbys_first_answer_is_not_lost_with_its_connection():
    """Review rv33 of rm33's hold: the connection is lost after the welcome, before the lobby's first answer. The
    `create` held for it was dropped with it (`attach`), though it was never sent: `dt-client play` connected
    again into the lobby, told nothing, no table made. Never sent, it is sent on the next connection, after that
    one's list (held again: the server may move us there). Its edge: a connection lost after the server took us to
    a kept seat sends nothing again, and says in that table's log that no new table was made; nor is the `create`
    carried to a spectator's connection, for a `spectate` typed before the answer."""
    from dungeon_twister.client.session import Session
    wired, at_welcome = _welcomed_to_create(bot=None)
    session: Session = wired.session
    session.detach("connection lost")
    wired.server = ServerConnection()
    session.attach(session.take_plan(), wired.frames.append, lambda: None)
    wired.sent()
    session.receive(wired.server.answer_hello(Software("fake", "1"), "s-2"))
    assert [type(m).__name__ for m in wired.sent()] == ["ListTables"]
    wired.deliver(Tables(()))
    assert [type(m).__name__ for m in wired.sent()] == ["CreateTable"]
    wired.deliver(TableCreated("t-3"))
    assert wired.sent() == [Join("t-3", "B")]
    # the edge
    wired, _ = _welcomed_to_create()
    session = wired.session
    wired.deliver(TableCreated("t-2"))
    wired.deliver(Joined("t-2", "token-2", "Y"))
    session.detach("connection lost")
    assert ("no new table was made: the server took you to table t-2, where a seat was kept for you (`leave` "
            "there, then `create`, makes one)") in session.state.log
    assert session.setup is None and session._waiting == []
    assert session.plan.resume is not None and session.plan.resume.table == "t-2", "the kept seat is resumed"
    # nor is it carried to a spectator's connection, for a `spectate` typed before the answer
    wired, _ = _welcomed_to_create(bot=None)
    wired.session.spectate("t-5")
    wired.session.detach("closed for the spectator's connection")
    assert wired.session._waiting == []
