"""Rematches (docs/protocol.md section 6, `rematch`; server/rematch.py): once a game is over, its players play again
at a new table with the same options and the colours swapped. Against a bot the new table is made at once; between
two people the first `rematch` is an offer and the other's accepts it. The server moves the players with `left`,
`table_created` and `joined`; the new seats are kept for their names. Refusals say why; an offer lapses when either
player leaves or disconnects."""

import trio
from dungeon_twister.protocol import (DrawAnswer, DrawOffer, Error, GameOver, Join, Joined, Leave, Left,
                                      ListTables, PlayerConnection, Rematch, SeatBot, Snapshot, Spectate,
                                      TableCreated, TableOptions, Tables)
from dungeon_twister.protocol.connection import encode_frame
from dungeon_twister.protocol.views import REMATCH
from test_server_support import HANG_GUARD, Client, running_server, seated_pair


async def _finished_pair(server, options=TableOptions(beginner=True), features=(REMATCH,)):
    """Ann (Blue) and Bob (Yellow) at a table whose game they agreed to draw: (table, ann, bob)."""
    table, ann, bob = await seated_pair(server, options, memory=True, features=features)
    await ann.send(DrawOffer(table))
    await bob.expect_event("draw_offered")
    await bob.send(DrawAnswer(table, True))
    for client in (ann, bob):
        await client.expect(GameOver)
    return table, ann, bob


async def _finished_bot_game(server, options=TableOptions(beginner=True)):
    """Ann (Blue) against the greedy bot, the game drawn at once (the bot accepts a draw when it does not lead):
    (table, ann)."""
    ann = await Client.connect(server, "ann", memory=True, conn=PlayerConnection(features=(REMATCH,)))
    created = server.lobby.create_table(options, "ann")
    await ann.send(Join(created.id, "B", created.join_code))
    await ann.expect(Joined)
    await ann.send(SeatBot(created.id, "Y", "greedy"))
    await ann.expect_event("game_started")
    await ann.send(DrawOffer(created.id))
    await ann.expect(GameOver)
    return created.id, ann


async def _moved(client: Client, old: str) -> tuple[TableCreated, Joined]:
    """What a player moved to the rematch's table is sent: `left` the old one, the new one's `table_created`, then
    `joined` there and its snapshot."""
    await client.expect(Left, lambda e: e.table == old)
    created = await client.expect(TableCreated)
    joined = await client.expect(Joined)
    assert joined.table == created.table
    await client.expect(Snapshot)
    return created, joined


async def test_rematch_against_a_bot_makes_the_table_at_once_colours_swapped(autojump_clock):
    """Ann, Blue against the greedy bot, types `rematch` once the game is over: a new private table with the same
    options and a new seed and join code, Ann seated as Yellow (Blue moves first: the colours alternate), a greedy
    bot as Blue, and the game begins. The finished table closes (nobody is left at it)."""
    with trio.fail_after(HANG_GUARD):
        async with running_server(seeds=(5, 7, 9, 11)) as server:
            options = TableOptions(beginner=True, private=True)
            old, ann = await _finished_bot_game(server, options)
            old_table = server.lobby.tables[old]
            await ann.send(Rematch(old))
            event = await ann.expect_event("rematch")
            created, joined = await _moved(ann, old)
            assert event == {"kind": "rematch", "table": created.table, "seats": {"B": None, "Y": "ann"}}
            assert joined.seat == "Y"
            new = server.lobby.tables[created.table]
            assert new.options == options and new.seed != old_table.seed
            assert created.join_code == new.join_code and new.join_code not in (None, old_table.join_code)
            assert new.creator == "ann"
            bot = await ann.expect_event("player_joined")
            assert bot["seat"] == "B" and bot["name"].startswith("greedy-bot-")
            await ann.expect_event("game_started")
            assert ann.view["seats"] == {"B": bot["name"], "Y": "ann"}
            await trio.sleep(1)
            assert old not in server.lobby.tables


async def test_rematch_between_two_people_offer_then_accept_seats_swapped(autojump_clock):
    """Ann offers: Bob (and a spectator) see `rematch_offered`, and the view's `table.asked` lists it (for one who
    comes back with a snapshot). Bob's `rematch` accepts: both are moved to a new table, Ann as Yellow and Bob as
    Blue, whose game starts; the spectator is told where the rematch is and stays."""
    with trio.fail_after(HANG_GUARD):
        async with running_server(seeds=(21, 22)) as server:
            old, ann, bob = await _finished_pair(server)
            watcher = await Client.connect(server, "cy", "spectator", memory=True)
            await watcher.send(Spectate(old))
            await watcher.expect(Snapshot)
            await ann.send(Rematch(old))
            for client in (bob, watcher, ann):
                assert await client.expect_event("rematch_offered") == {"kind": "rematch_offered", "seat": "B"}
            await bob.expect_event("view")
            assert bob.view["table"]["asked"] == [{"kind": "rematch_offered", "seat": "B"}]
            await bob.send(Rematch(old))
            new = (await watcher.expect_event("rematch"))["table"]
            (_, ann_joined), (_, bob_joined) = await _moved(ann, old), await _moved(bob, old)
            assert (ann_joined.table, ann_joined.seat, bob_joined.table, bob_joined.seat) == (new, "Y", new, "B")
            for client in (ann, bob):
                await client.expect_event("game_started")
            assert ann.view["seats"] == {"B": "bob", "Y": "ann"}
            assert server.lobby.tables[new].creator == "ann"  # (the one who asked first)
            assert old in server.lobby.tables  # the spectator still watches it
            await watcher.send(Leave())
            await watcher.expect(Left)


async def test_rematch_seats_are_kept_for_their_names(autojump_clock):
    """A rematch's table keeps each seat for its player until he sits (server/seating.py `reserve`): another
    player's `join` of it is refused (seat_taken, saying for whom), a `join` of any seat finds none, the creator's
    `bot` may not take it; spectators may watch; its player, connecting, is taken to it and sits."""
    with trio.fail_after(HANG_GUARD):
        async with running_server(seeds=(3,)) as server:
            table = server.lobby.create_table(TableOptions(beginner=True), "ann")
            table.seating.reserve({"B": "Ann", "Y": "bob"}, None)
            carol = await Client.connect(server, "carol", memory=True)
            await carol.send(Join(table.id, "Y"))
            refused = await carol.expect(Error)
            assert (refused.code, refused.message) == ("seat_taken", "seat Y is kept for bob (a rematch)")
            await carol.send(Join(table.id))
            assert (await carol.expect(Error)).code == "seat_taken"
            # the lobby's list says for whom (blue_kept, yellow_kept: rm31 left that a player saw "(free)" there)
            await carol.send(ListTables())
            (info,) = (await carol.expect(Tables)).tables
            assert (info.blue, info.yellow, info.blue_kept, info.yellow_kept) == (None, None, "Ann", "bob")
            ann = await Client.connect(server, "ann", memory=True)  # (kept for "Ann": a name in any case)
            assert (await ann.expect(TableCreated)).table == table.id  # (taken to it: Session._to_kept_seat)
            assert (await ann.expect(Joined)).seat == "B"
            await carol.send(ListTables())
            (info,) = (await carol.expect(Tables)).tables
            assert (info.blue, info.yellow, info.blue_kept, info.yellow_kept) == ("ann", None, None, "bob")
            await ann.send(SeatBot(table.id, "Y", "greedy"))
            assert (await ann.expect(Error)).message == "seat Y is taken"
            watcher = await Client.connect(server, "cy", "spectator", memory=True)
            await watcher.send(Spectate(table.id))
            await watcher.expect(Snapshot)
            bob = await Client.connect(server, "bob", memory=True)
            assert (await bob.expect(Joined)).seat == "Y"
            await watcher.expect_event("game_started")


async def test_rematch_refusals(autojump_clock):
    """Refused with `not_allowed` and the reason: the game not over; twice; the opponent gone; an opponent whose
    client cannot accept one (no feature `rematch`). A spectator cannot send it at all (wrong_role)."""
    with trio.fail_after(HANG_GUARD):
        async with running_server(seeds=(21,)) as server:
            table, ann, bob = await seated_pair(server, TableOptions(beginner=True), memory=True,
                                                features=(REMATCH,))
            await ann.send(Rematch(table))
            refused = await ann.expect(Error)
            assert (refused.code, refused.message) == ("not_allowed", "the game is not over: a rematch follows a "
                                                                      "finished game")
            watcher = await Client.connect(server, "cy", "spectator", memory=True)
            await watcher.send(Spectate(table))
            await watcher.expect(Snapshot)
            await watcher.send_raw(encode_frame(Rematch(table)))
            assert (await watcher.expect(Error)).code == "wrong_role"
            await ann.send(DrawOffer(table))
            await bob.send(DrawAnswer(table, True))
            await ann.expect(GameOver)
            await ann.send(Rematch(table))
            await bob.expect_event("rematch_offered")
            await ann.send(Rematch(table))
            assert (await ann.expect(Error)).message == "you asked for a rematch already: waiting for bob"
        async with running_server(seeds=(21,)) as server:
            table, ann, bob = await _finished_pair(server)
            await bob.send(Leave())
            await bob.expect(Left)
            await ann.send(Rematch(table))
            assert (await ann.expect(Error)).message == "bob has left the table: no rematch"
        async with running_server(seeds=(21,)) as server:
            table, ann, bob = await seated_pair(server, TableOptions(beginner=True), memory=True)
            await ann.send(DrawOffer(table))
            await bob.send(DrawAnswer(table, True))
            await ann.expect(GameOver)
            ann.conn.features = frozenset({REMATCH})  # (ann's client sends it; bob's never named the feature)
            await ann.send(Rematch(table))
            refused = await ann.expect(Error)
            assert refused.message == ("bob's client cannot accept a rematch (it is older than this server): create "
                                       "a new table")
            assert bob.events_of("rematch_offered") == []


async def test_rematch_offer_lapses_when_a_player_leaves_or_disconnects(autojump_clock):
    """Ann offers and Bob leaves the finished table: Ann is told (`rematch_lapsed`, the offer's seat and the seat
    gone), nothing is asked in the view any more, and her `rematch` is refused. Ann offers and loses her connection:
    Bob is told, and his `rematch` is refused."""
    with trio.fail_after(HANG_GUARD):
        async with running_server(seeds=(21,)) as server:
            table, ann, bob = await _finished_pair(server)
            await ann.send(Rematch(table))
            await bob.expect_event("rematch_offered")
            await bob.send(Leave())
            assert await ann.expect_event("rematch_lapsed") == {"kind": "rematch_lapsed", "seat": "B", "gone": "Y"}
            await ann.expect_event("view")
            assert "asked" not in ann.view["table"]
            await ann.send(Rematch(table))
            assert (await ann.expect(Error)).message == "bob has left the table: no rematch"
        async with running_server(seeds=(21,)) as server:
            table, ann, bob = await _finished_pair(server)
            await ann.send(Rematch(table))
            await bob.expect_event("rematch_offered")
            await ann.close()
            assert await bob.expect_event("rematch_lapsed") == {"kind": "rematch_lapsed", "seat": "B", "gone": "B"}
            await bob.send(Rematch(table))  # (her seat held while she may come back: away, not gone)
            assert (await bob.expect(Error)).message == "ann is away, his seat held for now: `rematch` again once he " \
                                                         "is back"


def test_rematch_frame_as_documented():
    """docs/protocol.md section 6 (`rematch`) gives the bytes of Ann's `rematch` frame."""
    from pathlib import Path

    doc = (Path(__file__).parents[2] / "docs" / "protocol.md").read_text(encoding="utf-8")
    start = doc.index("The frame of Ann's `rematch`")
    written = doc[doc.index("`", doc.index(":", start)) + 1:doc.index("`.", start)]
    assert bytes.fromhex(" ".join(written.split())) == encode_frame(Rematch("t4-d5d96ea7"))


async def test_rematch_over_a_limit_of_the_server_is_refused_to_both_and_the_offer_lapses(autojump_clock):
    """The rematch's table counts against its creator's limits (docs/protocol.md section 6, `create_table`): Ann,
    who asked first, with 8 open tables already, cannot have a ninth; both players get the server's reason, and no
    offer stands (a view without `asked`)."""
    from dungeon_twister.server.lobby import MAX_TABLES_PER_CREATOR

    with trio.fail_after(HANG_GUARD):
        async with running_server(seeds=(21,)) as server:
            table, ann, bob = await _finished_pair(server)
            for _ in range(MAX_TABLES_PER_CREATOR):
                server.lobby.create_table(TableOptions(), "ann")
            await ann.send(Rematch(table))
            await bob.expect_event("rematch_offered")
            await bob.send(Rematch(table))
            for client in (ann, bob):
                refused = await client.expect(Error)
                assert (refused.code, refused.message) == ("not_allowed", "at most 8 open tables per player")
            await bob.expect_event("view")
            assert "asked" not in bob.view["table"]
            seats = server.lobby.tables[table].seating.seats  # (both still at the finished table)
            assert seats["B"].session is not None and seats["Y"].session is not None


async def test_an_offer_whose_player_is_gone_when_it_is_accepted_makes_no_rematch(autojump_clock, monkeypatch):
    """Review rv30: Ann offers; Bob's `rematch` and the end of Ann's connection reach the finished table in the same
    moment, Bob's first. Ann's reader sent her `Gone` to the table she was at (the finished one) before Bob's
    acceptance moved her: made, the rematch would seat her closed connection at the new table, where no `Gone`
    ever comes (it went to the old table, which took her for a spectator and let her name go): a seat held by
    nobody, with no grace, and Bob waiting at a game begun with no opponent for as long as he stays (his leaving
    would resign it to her). Her connection ending is her leaving: the acceptance finds her gone."""
    from dungeon_twister.server.inbox import Inbox

    with trio.fail_after(HANG_GUARD):
        async with running_server(seeds=(21, 22)) as server:
            old, ann, bob = await _finished_pair(server)
            table = server.lobby.tables[old]
            gate, receive = trio.Event(), Inbox.receive

            async def gated(inbox):  # the finished table's task waits until both requests are in its inbox
                if inbox is table._inbox:
                    await gate.wait()
                return await receive(inbox)

            monkeypatch.setattr(Inbox, "receive", gated)
            await ann.send(Rematch(old))  # (its step ends in the gated receive)
            await bob.expect_event("rematch_offered")
            await trio.testing.wait_all_tasks_blocked()
            await bob.send(Rematch(old))
            await trio.testing.wait_all_tasks_blocked()  # (Bob's request in the inbox, then Ann's end)
            await ann.close()
            await trio.testing.wait_all_tasks_blocked()
            gate.set()
            refused = await bob.expect((Error, Left))  # (moved, he would be told `left` first)
            assert isinstance(refused, Error) and refused.message == "ann has left the table: no rematch"
            assert await bob.expect_event("rematch_lapsed") == {"kind": "rematch_lapsed", "seat": "B", "gone": "B"}
            assert list(server.lobby.tables) == [old] and not bob.events_of("rematch")


async def test_a_rematch_keeps_the_handicap_on_the_same_player(autojump_clock):
    """Review rv30, BG-OPT-08 (the stronger player plays with fewer characters: `handicap.seat` names his seat): Ann,
    Blue, handicapped (6 characters) against the bot, asks for a rematch; she plays Yellow there, so the handicap's
    seat is Yellow: "the same options" are the same game between the same players, not the handicap handed to
    her opponent with the colour she leaves. Its edge: a rematch without a handicap has none."""
    with trio.fail_after(HANG_GUARD):
        async with running_server(seeds=(5, 7, 9, 11)) as server:
            handicapped = TableOptions(beginner=True, handicap={"seat": "B", "characters": 6})
            for options, expected in ((handicapped, {"seat": "Y", "characters": 6}), (TableOptions(beginner=True), None)):
                old, ann = await _finished_bot_game(server, options)
                await ann.send(Rematch(old))
                created, joined = await _moved(ann, old)
                assert joined.seat == "Y"
                assert server.lobby.tables[created.table].options.handicap == expected
                await ann.send(Leave())
                await ann.expect(Left)
                await ann.close()
