"""Disconnections: a held seat, resuming (even in the middle of a commit-reveal), replays, abandonment."""

import functools

import pytest
import trio
from dungeon_twister.protocol import (
    Error,
    GameOver,
    Joined,
    ListTables,
    OpponentBack,
    OpponentCommit,
    OpponentLeft,
    OpponentReveal,
    Refused,
    Resume,
    ResumeInfo,
    RevealMismatch,
    Snapshot,
    Spectate,
    SpectatorConnection,
    TableEvent,
    TableOptions,
    Tables,
    Welcome,
)
from dungeon_twister.protocol.views import DELTA_VIEWS
from dungeon_twister.server.records import record_text
from test_server_support import (HANG_GUARD, SOFTWARE, Client, KeepingConnection, Scripted, find_seed,
                                 running_server, seated_pair, to_the_first_turn, watching)


async def play_until(table: str, players: dict, stop, *, first: bool = False) -> dict:
    """Let both scripted players play until each (or, with `first`, one) reaches a view where `stop` holds."""
    views = {}

    async def one(seat):
        views[seat] = await players[seat].play(table, stop=stop)
        if first:
            nursery.cancel_scope.cancel()

    async with trio.open_nursery() as nursery:
        for seat in players:
            nursery.start_soon(one, seat)
    return views


async def test_a_player_disconnects_after_committing_a_combat_card_and_resumes(autojump_clock):
    with trio.fail_after(HANG_GUARD):
        async with running_server(seeds=(find_seed("combat_declared", False, 120, hint=23),)) as server:
            table, blue, yellow = await seated_pair(server, TableOptions())
            players = {"B": Scripted(blue, "B", 1), "Y": Scripted(yellow, "Y", 2)}
            views = await play_until(table, players, lambda v: (v["secret"] or "").startswith("combat"))
            purpose = views["B"]["secret"]
            assert purpose == views["Y"]["secret"]
            await players["B"].act(table, views["B"])  # B commits ...
            token, last_event, old_conn = blue.token, blue.conn.last_event, blue.conn
            await blue.close()  # ... and his connection drops
            left = await yellow.expect(OpponentLeft)
            assert (left.seat, left.grace_seconds) == ("B", 60)

            # While the seat is held, nobody else gets the name, and a wrong token is refused.
            impostor = await Client.connect(server, "ann", welcome=False)
            assert (await impostor.expect(Refused)).code == "name_taken"
            impostor = await Client.connect(server, "ann", resume=ResumeInfo("forged", table, 0), welcome=False)
            assert (await impostor.expect(Refused)).code == "name_taken"

            await players["Y"].act(table, views["Y"])  # Y commits while B is away, and reveals
            commitment = await yellow.expect(OpponentCommit)
            await yellow.reveal(commitment.purpose)

            # A resume whose `joined` never reaches the client (its connection drops again at once) must not cost
            # the seat: the token stays the same across resumes, so the client can use the one it has again.
            lost = await Client.connect(server, "ann", resume=ResumeInfo(token, table, last_event),
                                        conn=KeepingConnection(old_conn.commitments))
            await lost.close()
            assert (await yellow.expect(OpponentLeft)).seat == "B"

            blue = await Client.connect(server, "ann", resume=ResumeInfo(token, table, last_event),
                                        conn=KeepingConnection(old_conn.commitments))
            joined = await blue.expect(Joined)
            assert joined.seat == "B" and joined.token == token
            resent = await blue.expect(OpponentCommit)  # the round survived: B can reveal now
            assert (resent.purpose, resent.seat) == (purpose, "Y")
            await blue.reveal(purpose)
            assert (await yellow.expect(OpponentBack)).seat == "B"
            reveal = await blue.expect(OpponentReveal)
            assert reveal.seat == "Y" and reveal.choice.startswith("combat +")
            resolved = [await client.expect_event("combat_resolved") for client in (blue, yellow)]
            assert resolved[0] == resolved[1]
            assert resolved[0]["cards"]["Y"] == int(reveal.choice.split("+")[1])
            for client in (blue, yellow):
                assert client.errors() == [] and not any(isinstance(e, RevealMismatch) for e in client.received)
            # Y's commitment was published while B was away (table.committed): two whole views more than the log
            # keeps for a client without view deltas (6 KiB a form, server/eventlog.py), so B comes back to a
            # snapshot of the latest, and the events go on from there, none missing
            snapshot = next(e for e in blue.received if isinstance(e, Snapshot))
            assert snapshot.n > last_event and snapshot.view["table"]["committed"] == ["B", "Y"]
            numbers = [e.n for e in blue.received if isinstance(e, TableEvent)]
            assert numbers == list(range(snapshot.n + 1, snapshot.n + 1 + len(numbers)))


async def test_a_connection_whose_seat_or_name_is_resumed_elsewhere_is_told_so_before_it_is_closed(autojump_clock):
    """Protocol section 9: a hello with a valid resume token takes the seat (or a spectator's place) and the name
    over, and the old connection is closed. It was closed without a word, so a client took it for a lost
    connection and resumed in turn: two copies of dt-client took one seat from each other every few seconds
    (found by hand). Now the old one gets the fatal error `resumed_elsewhere`, last, then the end of the stream;
    its opponent is told of no departure."""
    with trio.fail_after(HANG_GUARD):
        async with running_server() as server:
            table, blue, yellow = await seated_pair(server, TableOptions())
            again = await Client.connect(server, "ann", resume=ResumeInfo(blue.token, table, 0))
            assert (await again.expect(Joined)).seat == "B"
            error = await blue.expect(Error)
            assert (error.code, error.fatal, error.fault) == ("resumed_elsewhere", True, "server")
            assert error.template and error.message.startswith("another connection resumed your seat")
            assert await blue.recv() is None, "closed after it"
            await again.send(ListTables())  # the new connection has the seat, and its opponent saw nothing go
            await again.expect(Tables)
            assert not any(isinstance(event, (OpponentLeft, OpponentBack)) for event in yellow.received)
            watcher = await Client.connect(server, "cy", "spectator", conn=SpectatorConnection())
            await watcher.send(Spectate(table))
            token = (await watcher.expect(Joined)).token
            watched = await Client.connect(server, "cy", "spectator", resume=ResumeInfo(token, table, 0),
                                           conn=SpectatorConnection())
            await watched.expect(Joined)
            assert (await watcher.expect(Error)).code == "resumed_elsewhere"


async def test_a_connection_resumed_elsewhere_that_reads_nothing_more_is_closed_all_the_same(autojump_clock):
    """Review rv24: a superseded connection is closed once its error is written; one whose client reads nothing
    more (stopped with Ctrl-Z, half-open with full buffers) kept its writer blocked on that error and its reader
    waiting, until TCP gave up (15 min or never). It ends FLUSH_SECONDS after, written or not."""
    from dungeon_twister.server.session import FLUSH_SECONDS

    with trio.fail_after(HANG_GUARD):
        async with running_server() as server:
            table, _blue, _yellow = await seated_pair(server, TableOptions())
            stuck = Client(server.connect_memory(lockstep=True), SpectatorConnection(), "cy")
            await stuck.send_raw(stuck.conn.send_hello("cy", SOFTWARE))
            await stuck.expect(Welcome)
            await stuck.send(Spectate(table))
            token = (await stuck.expect(Joined)).token  # ... then it reads nothing more
            (old,) = [s for s in server.sessions if s.name == "cy"]
            watched = await Client.connect(server, "cy", "spectator", resume=ResumeInfo(token, table, 0),
                                           conn=SpectatorConnection())
            await watched.expect(Joined)
            await trio.sleep(FLUSH_SECONDS / 2)
            assert old in server.sessions  # its writer waits on the client (a lockstep pipe)
            await trio.sleep(FLUSH_SECONDS)
            assert old not in server.sessions
            await watched.send(ListTables())  # the new one is served as before
            await watched.expect(Tables)


async def test_resuming_replays_the_missed_events_or_sends_a_snapshot(autojump_clock):
    with trio.fail_after(HANG_GUARD):
        async with running_server(seeds=(21,)) as server:
            table, blue, yellow = await seated_pair(server, TableOptions(beginner=True))
            # The watcher gets views as deltas (feature delta_views): the table keeps many steps of those, so his
            # resume after the whole setup is a replay (a client with whole views that far behind gets a snapshot).
            watcher = await Client.connect(server, "watcher", "spectator",
                                           conn=SpectatorConnection(features=(DELTA_VIEWS,)))
            await watcher.send(Spectate(table))
            await watcher.expect(Snapshot)
            token, seen, held = watcher.token, watcher.conn.last_event, watcher.conn.view
            await watcher.close()
            players = {"B": Scripted(blue, "B", 1), "Y": Scripted(yellow, "Y", 2)}
            await play_until(table, players, lambda v: v["phase"] == "card", first=True)

            conn = SpectatorConnection(features=(DELTA_VIEWS,))
            conn.view = held  # what a client keeps across connections: the view the next delta applies to
            watcher = await Client.connect(server, "watcher", "spectator", resume=ResumeInfo(token, table, seen),
                                           conn=conn)
            await watcher.expect(Joined)
            current = blue.conn.last_event
            replayed = [await watcher.expect(TableEvent) for _ in range(current - seen)]
            assert [e.n for e in replayed] == list(range(seen + 1, current + 1))
            assert {e.event["kind"] for e in replayed} >= {"hidden", "teams_revealed", "turn_started", "view"}
            assert all("token" not in e.event for e in replayed if e.event["kind"] == "hidden")

            # Whole views for spectators were never rendered at this table (no such spectator was there): a
            # spectator who wants them gets a snapshot.
            late = await Client.connect(server, "late", "spectator")
            await late.send(Spectate(table, last_event=current - 2))
            await late.expect(Joined)
            assert (await late.expect(Snapshot)).n == current
            await blue.send(Resume(table, current + 50))  # an impossible last_event: a snapshot
            snapshot = await blue.expect(Snapshot)
            assert snapshot.n == current and snapshot.view["viewer"] == "B" and snapshot.view["started"]

            lost = await Client.connect(server, "lost", resume=ResumeInfo("no-such-token", table, 0))
            assert (await lost.expect(Error)).code == "bad_token"
            await lost.send(ListTables())  # still in the lobby
            assert (await lost.expect(Tables)).tables[0].status == "playing"


async def test_the_seat_of_a_player_who_does_not_return_is_given_up(autojump_clock):
    with trio.fail_after(HANG_GUARD):
        async with running_server(seeds=(21,)) as server:
            table, blue, yellow = await seated_pair(server, TableOptions(beginner=True), memory=True)
            await to_the_first_turn(table, blue, yellow)
            start = trio.current_time()
            await blue.close()
            assert (await yellow.expect(OpponentLeft)).seat == "B"
            over = await yellow.expect(GameOver)
            assert over.result["winner"] == "Y" and over.result["reason"] == "abandoned"
            assert 60 <= trio.current_time() - start < 61
            assert yellow.events_of("game_over")[-1]["reason"] == "abandoned"
            assert yellow.view["legal"] == []
            again = await Client.connect(server, "ann", memory=True)  # the name is free again
            await again.send(ListTables())
            (info,) = (await again.expect(Tables)).tables
            assert (info.status, info.blue, info.yellow) == ("over", "ann", "bob")


async def _goes(client, how: str) -> None:
    """`client` leaves its table (`leave`) or loses its connection (`drop`)."""
    from dungeon_twister.protocol import Leave

    if how == "leave":
        await client.send(Leave())
    else:
        await client.close()


@pytest.mark.parametrize("how", ["leave", "drop"])
async def test_a_game_left_before_its_first_turn_is_aborted_not_won(autojump_clock, how):
    """A play-test's opponent dropped during the team choice and never came back; 60 s later the other player read
    "Blue wins 0-0 (the other player abandoned the game)", for a game nobody had played and that was not rated
    (docs/protocol.md section 6). A game resigned or abandoned before its first turn has no winner: reason
    "aborted", not rated; after the first turn the other seat wins (test above)."""
    with trio.fail_after(HANG_GUARD):
        async with running_server(seeds=(21,)) as server:
            table, blue, yellow = await seated_pair(server, TableOptions(beginner=True), memory=True)
            assert blue.view["phase"] == "team" and blue.view["turn"] == 0
            await _goes(blue, how)
            over = await yellow.expect(GameOver)
            assert over.result == {"winner": None, "vp": {"B": 0, "Y": 0}, "reason": "aborted"}
            assert yellow.events_of("ratings") == [] and server.lobby.store.rating("ann") is None
            text = record_text(server.lobby.store.table(table))
            assert "# result winner=- vp=B0,Y0 reason=aborted" in text.splitlines()


@pytest.mark.parametrize("how", ["leave", "drop"])
async def test_a_player_whose_opponent_left_before_the_first_turn_keeps_a_seat_at_a_table_that_waits(autojump_clock,
                                                                                                    how):
    """srv30: a table whose other player left (or dropped and never came back) before the first turn ended for
    good, its player left at a finished table to make another. He keeps his seat: once the game is over, aborted
    and unrated as before (its record kept), he gets `left` for that table, then `joined` at a new one with the
    same options, private with the same join code, that waits for an opponent (he its creator), its snapshot, and
    the event `seat_kept {seat, from}`; a newcomer then starts a game with him there. Not at the same table: its id
    is its game's commit-reveal id and its record's key (docs/protocol.md sections 10, 13)."""
    from dungeon_twister.protocol import CreateTable, Join, Left, TableCreated

    with trio.fail_after(HANG_GUARD):
        async with running_server(seeds=(21, 22)) as server:
            options = TableOptions(beginner=True, private=True)
            blue = await Client.connect(server, "ann", memory=True)
            await blue.send(CreateTable(options))
            created = await blue.expect(TableCreated)
            table, code = created.table, created.join_code
            await blue.send(Join(table, "B", code))
            yellow = await Client.connect(server, "bob", memory=True)
            await yellow.send(Join(table, "Y", code))
            for client in (blue, yellow):
                await client.expect_event("game_started")
            old_token = (await yellow.seen(Joined)).token
            assert yellow.view is not None and yellow.view["turn"] == 0
            await _goes(blue, how)
            over = await yellow.expect(GameOver)
            assert over.result == {"winner": None, "vp": {"B": 0, "Y": 0}, "reason": "aborted"}
            assert (await yellow.expect(Left)).table == table
            joined = await yellow.expect(Joined)
            new = joined.table
            assert new != table and joined.seat == "Y" and joined.token != old_token
            view = (await yellow.expect(Snapshot)).view
            assert view["started"] is False and view["seats"] == {"B": None, "Y": "bob"}
            assert await yellow.expect_event("seat_kept") == {"kind": "seat_kept", "seat": "Y", "from": table}
            kept = server.lobby.tables[new]
            assert (kept.options, kept.join_code, kept.creator, kept.status) == (options, code, "bob", "waiting")
            # the aborted game stays as it was: over, unrated, its record kept; its table closes (nobody there)
            stored = server.lobby.store.table(table)
            assert stored.status == "over" and stored.result["reason"] == "aborted"
            assert "# result winner=- vp=B0,Y0 reason=aborted" in record_text(stored).splitlines()
            assert yellow.events_of("ratings") == [] and server.lobby.store.rating("bob") is None
            await trio.sleep(1)
            assert table not in server.lobby.tables and new in server.lobby.tables
            cy = await Client.connect(server, "cy", memory=True)
            await cy.send(Join(new, None, code))
            assert (await cy.expect(Joined)).seat == "B"
            for client in (cy, yellow):
                assert (await client.expect_event("game_started"))["seats"] == {"B": "cy", "Y": "bob"}


async def test_a_seat_is_kept_only_for_a_person_still_there(autojump_clock, monkeypatch, caplog):
    """The edges of the test above: the other player away too when the game is aborted (his seat held) comes back
    to the aborted game, as before; a bot left alone is not given a table; a player whose own limits refuse
    another table stays at the aborted one (logged `seat_not_kept`)."""
    import logging

    from dungeon_twister.protocol import Leave, Left
    from test_server_support import against_bot

    caplog.set_level(logging.INFO, logger="dungeon_twister.server")
    with trio.fail_after(HANG_GUARD):
        async with running_server(seeds=(21, 22, 23), grace_seconds=600) as server:
            table, blue, yellow = await seated_pair(server, TableOptions(beginner=True), memory=True)
            await yellow.close()
            await blue.expect(OpponentLeft)
            await blue.send(Leave())
            assert (await blue.expect(GameOver)).result["reason"] == "aborted"
            await blue.expect(Left)
            await trio.sleep(1)
            assert list(server.lobby.tables) == [table], "no table for a player who is away"
            back = await Client.connect(server, "bob", memory=True, resume=ResumeInfo(yellow.token, table, 0))
            assert (await back.expect(Joined)).table == table
            assert (await back.expect(Snapshot)).view["table"]["result"]["reason"] == "aborted"

            ann = await Client.connect(server, "dee", memory=True)
            await against_bot(ann, TableOptions(beginner=True))
            await ann.expect_event("game_started")
            before = set(server.lobby.tables)
            await ann.send(Leave())
            assert (await ann.expect(GameOver)).result["reason"] == "aborted"
            await trio.sleep(1)
            assert not set(server.lobby.tables) - before, "no table for a bot"
        async with running_server(seeds=(21,)) as server:
            table, blue, yellow = await seated_pair(server, TableOptions(beginner=True), memory=True)
            monkeypatch.setattr("dungeon_twister.server.lobby.MAX_TABLES", 1)  # the server runs as many as it may
            await blue.send(Leave())
            assert (await yellow.expect(GameOver)).result["reason"] == "aborted"
            await trio.sleep(1)
            assert list(server.lobby.tables) == [table] and not yellow.events_of("seat_kept")
            assert server.lobby.tables[table].seating.seats["Y"].session is not None, "still seated there"
            (logged,) = [r.fields for r in caplog.records if r.getMessage() == "seat_not_kept"]
            assert (logged["table"], logged["seat"], logged["name"]) == (table, "Y", "bob")


UNTIL_EVERYONE_WAITS = 30.0
"""Mock seconds (autojump clock): reached only when no task can run."""


async def test_a_player_with_view_deltas_resumes_from_the_deltas_and_holds_the_servers_view(autojump_clock):
    """docs/protocol.md section 14: a seat whose client gets view deltas is replayed the deltas it missed, and
    its view is then exactly the server's view of that seat (the base invariant: every delta applies to the view
    of the previous view event, which a replay and a snapshot both give)."""
    from dungeon_twister.protocol import CreateTable, Join, PlayerConnection, TableCreated
    from dungeon_twister.server.viewing import table_view

    def delta_conn():
        return PlayerConnection(features=(DELTA_VIEWS,))

    with trio.fail_after(HANG_GUARD):
        async with running_server(seeds=(21,)) as server:
            blue = await Client.connect(server, "ann", conn=delta_conn())
            await blue.send(CreateTable(TableOptions(beginner=True)))
            table = (await blue.expect(TableCreated)).table
            await blue.send(Join(table, "B"))
            yellow = await Client.connect(server, "bob", conn=delta_conn())
            await yellow.send(Join(table, "Y"))
            for client in (blue, yellow):
                await client.expect_event("game_started")
            players = {"B": Scripted(blue, "B", 1), "Y": Scripted(yellow, "Y", 2)}
            await play_until(table, players, lambda v: v["phase"] == "main" and v["active"] == "Y", first=True)
            token, seen, held = blue.token, blue.conn.last_event, blue.conn.view
            await blue.close()
            # Yellow plays on while Blue is away, until it waits for Blue: mock time passes only once every task
            # waits, so this ends when Yellow has nothing left to do, however slow the machine.
            with trio.move_on_after(UNTIL_EVERYONE_WAITS):
                await players["Y"].play(table)
            assert yellow.conn.last_event > seen + 2

            conn = delta_conn()
            conn.view = held
            blue = await Client.connect(server, "ann", resume=ResumeInfo(token, table, seen), conn=conn)
            await blue.expect(Joined)
            while True:
                with trio.move_on_after(5):
                    await blue.recv()
                    continue
                break
            assert not any(isinstance(e, Snapshot) for e in blue.received)  # replayed, from the deltas
            numbers = [e.n for e in blue.received if isinstance(e, TableEvent)]
            assert numbers == list(range(seen + 1, yellow.conn.last_event + 1))
            assert blue.errors() == [] and yellow.errors() == []
            at_table = server.lobby.tables[table]
            expected = table_view(at_table.point(), "B", at_table.play.game.legal, compact=True)
            assert blue.conn.view == expected and yellow.conn.view == table_view(
                at_table.point(), "Y", at_table.play.game.legal, compact=True)


@pytest.mark.parametrize("features", [(), (DELTA_VIEWS,)], ids=["whole views", "view deltas"])
async def test_a_snapshot_after_a_resignation_or_an_agreed_draw_says_how_the_game_ended(autojump_clock, features):
    """Found by an audit of docs/protocol.md: a game that ended outside the rules (a resignation, an abandonment, a
    draw agreed) left the engine's state as it was, so a snapshot showed a game in its last phase with nobody to
    act, its `outcome` null, and `game_over` was not sent again: a client that came back never learnt that the
    game was over, nor who won. A view of a finished game has its result in `table.result`, whatever ended it; a
    game the rules end has it too, equal to the engine's outcome."""
    from dungeon_twister.protocol import DrawAnswer, DrawOffer, Leave

    with trio.fail_after(HANG_GUARD):
        async with running_server(seeds=(21,)) as server:
            table, blue, yellow = await seated_pair(server, TableOptions(beginner=True), memory=True,
                                                    features=features)
            await to_the_first_turn(table, blue, yellow)
            await blue.send(Leave())  # Blue resigns
            ended = (await yellow.expect(GameOver)).result
            assert ended == {"winner": "Y", "vp": {"B": 0, "Y": 0}, "reason": "resigned"}
            assert yellow.conn.last_event > 0
            await yellow.send(Resume(table, yellow.conn.last_event, snapshot=True))
            view = (await yellow.expect(Snapshot)).view
            assert view["table"]["result"] == ended and view["outcome"] is None  # (the rules did not end it)

            table, blue, yellow = await seated_pair(server, TableOptions(game="cards", tutorial=1), memory=True,
                                                    names=("cy", "dee"), features=features)
            await blue.send(DrawOffer(table))
            await yellow.expect_event("draw_offered")
            await yellow.send(DrawAnswer(table, True))
            ended = (await yellow.expect(GameOver)).result
            assert ended == {"winner": None, "vp": {"B": 0, "Y": 0}, "reason": "agreed"}
            await blue.send(Resume(table, 0, snapshot=True))
            assert (await blue.expect(Snapshot)).view["table"]["result"] == ended


async def test_the_view_of_a_game_the_rules_end_has_the_engines_outcome_as_its_result(autojump_clock):
    """The last view of a game that ends by the rules, published before game_over, already has table.result,
    equal to the engine's outcome (BG-END-01: the target reached) and to the game_over message's result. Seed 12:
    the greedy players of rng 1 and 2 play this beginner game to its end in 221 actions (test_server_restart)."""
    with trio.fail_after(HANG_GUARD):
        async with running_server(seeds=(12,)) as server:
            table, blue, yellow = await seated_pair(server, TableOptions(beginner=True), memory=True)
            players = {"B": Scripted(blue, "B", 1), "Y": Scripted(yellow, "Y", 2)}
            async with trio.open_nursery() as nursery:
                for seat, player in players.items():
                    nursery.start_soon(functools.partial(player.play, table, until=lambda e: isinstance(e, GameOver)))
            ended = next(e for e in yellow.received if isinstance(e, GameOver)).result
            last = yellow.events_of("view")[-1]["view"]
            assert last["table"]["result"] == last["outcome"] == ended
            assert ended["reason"] == "target reached" and max(ended["vp"].values()) >= 5


async def test_a_resumed_player_is_sent_the_table_chat_said_while_he_was_away(autojump_clock):
    """Play-test: a player whose client was killed came back to the game, but what the opponent had said meanwhile
    was nowhere (chat is no table event: nothing sent it again). The server keeps the table's chat said while a
    seat is held, the newest MISSED_CHAT lines, and sends them to that player when he resumes, after his events
    and in order; only to him (the others had them), once, and never to a spectator's watch."""
    from dungeon_twister.protocol import Chat, ChatMessage

    kept = 20  # seating.MISSED_CHAT
    with trio.fail_after(HANG_GUARD):
        async with running_server(seeds=(21,)) as server:
            table, blue, yellow = await seated_pair(server, TableOptions(beginner=True))
            watcher = await watching(server, table)
            await blue.send(Chat("before"))
            await yellow.expect(ChatMessage, lambda m: m.text == "before")
            token, last_event = blue.token, blue.conn.last_event
            await blue.close()
            assert (await yellow.expect(OpponentLeft)).seat == "B"
            said = [f"line {n}" for n in range(kept + 3)]
            for text in said:
                await yellow.send(Chat(text))
                await yellow.expect(ChatMessage, lambda m, text=text: m.text == text)
                await trio.sleep(1)  # within the chat rate limit (and the 60 s grace)
            blue = await Client.connect(server, "ann", resume=ResumeInfo(token, table, last_event))
            await blue.expect(Joined)
            await yellow.expect(OpponentBack)
            await blue.send(Chat("back"))
            await blue.expect(ChatMessage, lambda m: m.text == "back")
            for client in (watcher, yellow):
                await client.expect(ChatMessage, lambda m: m.text == "back")
            got = [m for m in blue.received if isinstance(m, ChatMessage)]
            assert [(m.sender, m.text, m.table) for m in got[:-1]] == [
                ("bob", text, table) for text in said[-kept:]], "the newest lines said while away, in order"
            assert [m.text for m in watcher.received if isinstance(m, ChatMessage)] == ["before", *said, "back"]
            assert [m.text for m in yellow.received if isinstance(m, ChatMessage)] == ["before", *said, "back"]
            assert blue.errors() == [] and yellow.errors() == []
    from dungeon_twister.server.seating import MISSED_CHAT

    assert MISSED_CHAT == kept


async def both_away(server, options: TableOptions):
    """A beginner game in its first turn (rated from then on), both players gone 10 s apart, Blue first; a
    spectator watching. (table, blue, yellow, watcher, the time Blue left)."""
    table, blue, yellow = await seated_pair(server, options)
    players = {"B": Scripted(blue, "B", 1), "Y": Scripted(yellow, "Y", 2)}
    await play_until(table, players, lambda v: v["turn"] >= 1 and v["phase"] == "main", first=True)
    watcher = await Client.connect(server, "cy", "spectator")
    await watcher.send(Spectate(table))
    await watcher.expect(Snapshot)
    left = trio.current_time()
    await blue.close()
    await trio.sleep(10)
    await yellow.close()
    return table, blue, yellow, watcher, left


async def test_a_game_both_players_left_has_no_winner_and_is_not_rated(autojump_clock):
    """A play-test killed both clients at once: the player whose grace ran out 16 ms later won, rated. When a
    grace runs out while the other player's runs too, the game waits for him; his out as well, it is over
    without a winner, reason "abandoned by both", and not rated."""
    with trio.fail_after(HANG_GUARD):
        async with running_server(seeds=(21,)) as server:
            table, _, _, watcher, left = await both_away(server, TableOptions(beginner=True))
            await trio.sleep(55)  # Blue's grace has run out (60 s): nothing ends yet
            assert server.lobby.tables[table].play.result is None
            over = await watcher.expect(GameOver)
            assert (over.result["winner"], over.result["reason"]) == (None, "abandoned by both")
            assert 70 <= trio.current_time() - left < 71, "when Yellow's grace ran out"
            assert server.storage.rating("ann") is None and server.storage.rating("bob") is None


async def test_a_player_back_within_his_grace_wins_when_the_others_ran_out(autojump_clock):
    with trio.fail_after(HANG_GUARD):
        async with running_server(seeds=(21,)) as server:
            table, _, yellow, watcher, left = await both_away(server, TableOptions(beginner=True))
            await trio.sleep(65 - (trio.current_time() - left))  # Blue's grace out, Yellow's runs until 70
            back = await Client.connect(server, "bob", resume=ResumeInfo(yellow.token, table, 0))
            await back.expect(Joined)
            over = await back.expect(GameOver)
            assert (over.result["winner"], over.result["reason"]) == ("Y", "abandoned")
            assert server.storage.rating("bob")[3] == 1, "rated: Blue abandoned it"
