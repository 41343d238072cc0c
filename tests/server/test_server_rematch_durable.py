"""Rematches, kept seats and kicks through a restart, and the rematch's decline (docs/protocol.md section 6,
`rematch`, `decline_rematch`; server/rematch.py, server/seating.py `reserve`): "nothing acknowledged is lost" holds
for a standing rematch offer (its finished table is restored with it), for the seats a rematch's or a kept seat's
table keeps for names (and their deadline), and for the admin's kicks (until they run out). A seat kept for a name
waits RESERVED_SEAT_SECONDS, then is anyone's. A player declines an offer with `decline_rematch`. Review rv30's
two minors: a `join` during the server's move to a rematch's table, and a rematch table refused for a reason other
than a limit."""

import time
from contextlib import asynccontextmanager
from pathlib import Path

import trio
from dungeon_twister.protocol import (DeclineRematch, Error, Join, Joined, Leave, Left, ListTables, PlayerConnection,
                                      Refused, Rematch, ResumeInfo, Snapshot, TableCreated, TableEvent, TableOptions,
                                      Tables)
from dungeon_twister.protocol.connection import encode_frame
from dungeon_twister.protocol.views import DECLINE_REMATCH, REMATCH
from dungeon_twister.server.seating import RESERVED_SEAT_SECONDS
from dungeon_twister.server.storage import open_storage
from test_server_rematch import _finished_pair
from test_server_support import HANG_GUARD, Client, running_server, seated_pair

FEATURES = (REMATCH, DECLINE_REMATCH)


@asynccontextmanager
async def server_on(data_dir: Path | None, seeds=(21, 22), **settings):
    async with running_server(seeds=seeds, data_dir=data_dir, data_sync="normal", **settings) as server:
        yield server


async def finished_pair(server, options=TableOptions(beginner=True)):
    """Ann (Blue) and Bob (Yellow) at a table whose game they agreed to draw, both with the decline: (table, ann,
    bob)."""
    return await _finished_pair(server, options, FEATURES)


async def offered_pair(server):
    """`finished_pair`, then Ann offers a rematch and Bob is told (`rematch_offered`): (table, ann, bob)."""
    table, ann, bob = await finished_pair(server)
    await ann.send(Rematch(table))
    await bob.expect_event("rematch_offered")
    return table, ann, bob


def resume(client: Client, table: str) -> ResumeInfo:
    return ResumeInfo(client.token, table, client.conn.last_event)


async def back(server, name: str, info: ResumeInfo) -> Client:
    """`name` resumes with `info` after a restart: his snapshot."""
    client = await Client.connect(server, name, memory=True, resume=info, conn=PlayerConnection(features=FEATURES))
    await client.expect(Snapshot)
    return client


async def moved(client: Client, old: str) -> Joined:
    await client.expect(Left, lambda e: e.table == old)
    created = await client.expect(TableCreated)
    joined = await client.expect(Joined)
    assert joined.table == created.table
    return joined


async def test_a_standing_rematch_offer_outlives_a_restart_and_is_accepted_after_it(tmp_path, autojump_clock):
    """Ann offers a rematch (acknowledged: `rematch_offered`) and the server stops: the finished table comes back
    with the offer at the next start, both players resume it (the view's `table.asked` lists the offer), and Bob's
    `rematch` accepts it. Its edge: an offer that lapsed before the stop (Bob left) is not restored, nor its table."""
    with trio.fail_after(HANG_GUARD):
        async with server_on(tmp_path) as server:
            table, ann, bob = await offered_pair(server)
            await ann.expect_event("view")
            infos = {"ann": resume(ann, table), "bob": resume(bob, table)}
        async with server_on(tmp_path, seeds=(5, 6)) as server:
            assert list(server.lobby.tables) == [table]
            assert server.lobby.tables[table].status == "over"
            bob = await back(server, "bob", infos["bob"])
            await bob.send(Rematch(table))  # Ann, whose offer it is, not back yet: not "has left" (rm31 left it)
            assert (await bob.expect(Error)).message == "ann is away, his seat held for now: `rematch` again once he " \
                                                         "is back"
            ann = await back(server, "ann", infos["ann"])
            assert ann.view["table"]["asked"] == [{"kind": "rematch_offered", "seat": "B"}]
            assert ann.view["table"]["result"]["reason"] == "agreed"
            await bob.send(Rematch(table))
            ann_joined, bob_joined = await moved(ann, table), await moved(bob, table)
            assert (ann_joined.seat, bob_joined.seat) == ("Y", "B")
            for client in (ann, bob):
                await client.expect_event("game_started")
        # the edge: lapsed before the stop, nothing comes back
        async with server_on(tmp_path / "2") as server:
            table, ann, bob = await offered_pair(server)
            await bob.send(Leave())
            await ann.expect_event("rematch_lapsed")
        async with server_on(tmp_path / "2") as server:
            assert list(server.lobby.tables) == []


async def test_a_restored_offer_lapses_when_a_player_is_not_back_in_time(tmp_path, autojump_clock):
    """The finished table restored for its offer holds each seat as any restored table (60 s at least): Bob never
    comes back, so Ann, back, is told the offer lapsed once his seat is given up, and the table closes when she
    leaves."""
    with trio.fail_after(HANG_GUARD):
        async with server_on(tmp_path) as server:
            table, ann, bob = await offered_pair(server)
            info = resume(ann, table)
        async with server_on(tmp_path, seeds=(5,), grace_seconds=0) as server:
            ann = await back(server, "ann", info)
            start = trio.current_time()
            assert await ann.expect_event("rematch_lapsed") == {"kind": "rematch_lapsed", "seat": "B", "gone": "Y"}
            assert trio.current_time() - start <= 60
            await ann.send(Rematch(table))
            assert (await ann.expect(Error)).message == "bob has left the table: no rematch"
            await ann.send(Leave())
            await ann.expect(Left)
            await trio.sleep(1)
            assert table not in server.lobby.tables
            assert server.lobby.store.offered_tables() == []


async def test_seats_a_rematch_keeps_for_names_outlive_a_restart(tmp_path, autojump_clock):
    """A rematch's table keeps its seats for Ann and Bob (Seating.reserve) and the server stops before they sit:
    after the restart Carol's `join` is still refused ("seat Y is kept for bob"), and Ann and Bob sit."""
    with trio.fail_after(HANG_GUARD):
        async with server_on(tmp_path) as server:
            table = server.lobby.create_table(TableOptions(beginner=True), "ann")
            table.seating.reserve({"B": "ann", "Y": "bob"}, None)
            table_id = table.id
        async with server_on(tmp_path, seeds=(5,)) as server:
            assert server.lobby.tables[table_id].seating.reserved == {"B": "ann", "Y": "bob"}
            carol = await Client.connect(server, "carol", memory=True)
            await carol.send(Join(table_id, "Y"))
            refused = await carol.expect(Error)
            assert (refused.code, refused.message) == ("seat_taken", "seat Y is kept for bob (a rematch)")
            for name in ("ann", "bob"):  # (each taken to his seat as he connects: Session._to_kept_seat)
                client = await Client.connect(server, name, memory=True)
                assert (await client.expect(TableCreated)).table == table_id
                await client.expect(Joined)
            await client.expect_event("game_started")
            assert server.lobby.store.open_tables()[0].kept is None  # (taken: nothing kept any more)


async def test_a_seat_kept_for_a_name_is_released_after_its_deadline(autojump_clock):
    """A seat kept for a name waits RESERVED_SEAT_SECONDS (5 minutes) for him: Ann sat, Bob never came; a second
    before the deadline Carol is refused, at it she may take the seat. Its edge: a table where nobody sat closes at
    the deadline."""
    assert RESERVED_SEAT_SECONDS == 300
    with trio.fail_after(HANG_GUARD):
        async with running_server(seeds=(3, 4)) as server:
            table = server.lobby.create_table(TableOptions(beginner=True), "ann")
            table.seating.reserve({"B": "ann", "Y": "bob"}, None)
            ann = await Client.connect(server, "ann", memory=True)  # (taken to her seat: Session._to_kept_seat)
            await ann.expect(Joined)
            carol = await Client.connect(server, "carol", memory=True)
            await trio.sleep(RESERVED_SEAT_SECONDS - 1 - trio.current_time())
            await carol.send(Join(table.id, "Y"))
            assert (await carol.expect(Error)).message == "seat Y is kept for bob (a rematch)"
            await trio.sleep(1)
            await carol.send(Join(table.id, "Y"))
            assert (await carol.expect(Joined)).seat == "Y"
            await ann.expect_event("game_started")
            # the edge
            empty = server.lobby.create_table(TableOptions(beginner=True), "dan")
            empty.seating.reserve({"B": "dan", "Y": "eve"}, None)
            await trio.sleep(RESERVED_SEAT_SECONDS - 1)
            assert empty.id in server.lobby.tables
            await trio.sleep(1.5)
            assert empty.id not in server.lobby.tables


async def test_a_kept_seat_outlives_a_restart_before_its_player_sits(tmp_path, autojump_clock, monkeypatch):
    """Bob leaves before the first turn: Ann keeps a seat at a new table (seat_kept), kept for her name there. The
    server stops before that table has seated her (its task had not run): after the restart it is still kept for
    Ann (the other seat anyone's, as it was), not open to anyone; she is taken to it when she comes back."""
    from dungeon_twister.server.inbox import Inbox

    with trio.fail_after(HANG_GUARD):
        async with server_on(tmp_path) as server:
            table, ann, bob = await seated_pair(server, TableOptions(beginner=True), memory=True)
            known = {t._inbox for t in server.lobby.tables.values()}
            receive, never = Inbox.receive, trio.Event()

            async def gated(inbox):  # a new table's task never takes its first item
                if inbox not in known:
                    await never.wait()
                return await receive(inbox)

            monkeypatch.setattr(Inbox, "receive", gated)
            await bob.send(Leave())
            await ann.expect(Left)
            await trio.testing.wait_all_tasks_blocked()
            (new,) = [t for t in server.lobby.tables if t != table]
        monkeypatch.setattr(Inbox, "receive", receive)
        async with server_on(tmp_path, seeds=(5,)) as server:
            assert server.lobby.tables[new].seating.reserved == {"B": "ann"}
            carol = await Client.connect(server, "carol", memory=True)
            await carol.send(Join(new, "B"))
            assert (await carol.expect(Error)).message == "seat B is kept for ann"  # (no rematch's)
            await carol.send(Join(new))  # (the other seat waits for an opponent: anyone's)
            assert (await carol.expect(Joined)).seat == "Y"
            ann = await Client.connect(server, "ann", memory=True)  # (taken to it as she comes back)
            assert (await ann.expect(TableCreated)).table == new
            assert (await ann.expect(Joined)).seat == "B"
            await carol.expect_event("game_started")


async def test_a_kick_outlives_a_restart_until_it_runs_out(tmp_path):
    """`dt-server admin kick bob --minutes 10` (Lobby.kick_name): after a restart Bob is still refused, with the
    time left; a kick of 0 minutes lifts it in the store too. Its edge: a kick that ran out while the server was
    down is gone."""
    with trio.fail_after(HANG_GUARD):
        async with server_on(tmp_path) as server:
            server.lobby.kick_name("Bob", 600)
            server.lobby.kick_name("carol", 60)
            server.lobby.kick_name("dan", 60)
            server.lobby.kick_name("dan", 0)
        store = open_storage(tmp_path)
        store._write("UPDATE kicks SET expires = ? WHERE folded = 'carol'", (time.time() - 1,))
        store.close()
        async with server_on(tmp_path) as server:
            assert set(server.lobby.kicked) == {"bob"}
            bob = await Client.connect(server, "bob", memory=True, welcome=False)
            refused = await bob.expect(Refused)
            assert refused.code == "kicked" and refused.values["minutes"] == 10
            for name in ("carol", "dan"):
                await Client.connect(server, name, memory=True)


async def test_decline_rematch_makes_the_offer_lapse_at_once(autojump_clock):
    """Bob declines Ann's offer (`decline_rematch`): everyone at the table is told (`rematch_lapsed`, reason
    "declined", by Bob's seat), nothing is asked any more, nothing stands in the store, and Ann may not offer again
    there ("bob declined your rematch"); Bob may. Refused: a decline with no offer to decline."""
    with trio.fail_after(HANG_GUARD):
        async with running_server(seeds=(21, 22)) as server:
            table, ann, bob = await finished_pair(server)
            await bob.send(DeclineRematch(table))
            assert (await bob.expect(Error)).message == "no rematch is offered to you"
            await ann.send(Rematch(table))
            await bob.expect_event("rematch_offered")
            await bob.send(DeclineRematch(table))
            declined = {"kind": "rematch_lapsed", "seat": "B", "by": "Y", "reason": "declined"}
            for client in (ann, bob):
                assert await client.expect_event("rematch_lapsed") == declined
                await client.expect_event("view")
                assert "asked" not in client.view["table"]
            assert server.lobby.tables[table].rematch_offers == frozenset()
            assert server.lobby.store.offered_tables() == []
            await ann.send(Rematch(table))
            assert (await ann.expect(Error)).message == "bob declined your rematch"
            await bob.send(Rematch(table))
            assert await ann.expect_event("rematch_offered") == {"kind": "rematch_offered", "seat": "Y"}


def test_decline_rematch_frame_as_documented():
    """docs/protocol.md section 6 (`decline_rematch`) gives the bytes of Bob's `decline_rematch` frame."""
    doc = (Path(__file__).parents[2] / "docs" / "protocol.md").read_text()
    start = doc.index("The frame of Bob's `decline_rematch`")
    text = doc[start:doc.index(".\n", start)]
    shown = bytes.fromhex("".join(text.split("`")[3].split()))
    assert shown == encode_frame(DeclineRematch("t4-d5d96ea7"))


async def test_a_join_while_the_server_moves_the_player_to_the_rematch_is_refused(autojump_clock, monkeypatch):
    """Review rv30: between the `left` of the finished table and the `joined` of the rematch's, the client is in the
    lobby: a hostile one's `join` of another table then sat him at two tables. It is refused (not_allowed) until
    the rematch's table has seated him; he is seated there, and nowhere else."""
    from dungeon_twister.server.inbox import Inbox

    with trio.fail_after(HANG_GUARD):
        async with running_server(seeds=(21, 22, 23)) as server:
            old, ann, bob = await finished_pair(server)
            other = server.lobby.create_table(TableOptions(beginner=True), "carol")
            known = {t._inbox for t in server.lobby.tables.values()}
            receive, gate = Inbox.receive, trio.Event()

            async def gated(inbox):  # the rematch's table waits until Ann's `join` of the other one is answered
                if inbox not in known:
                    await gate.wait()
                return await receive(inbox)

            monkeypatch.setattr(Inbox, "receive", gated)
            await ann.send(Rematch(old))
            await bob.expect_event("rematch_offered")
            await bob.send(Rematch(old))
            await ann.expect(Left, lambda e: e.table == old)
            new = (await ann.expect(TableCreated)).table
            await ann.send(Join(other.id, "B"))
            refused = await ann.expect(Error)
            assert (refused.code, refused.message) == ("not_allowed", f"the server is taking you to table {new}: "
                                                                       "wait for it")
            gate.set()
            assert (await ann.expect(Joined)).table == new
            assert other.seating.seats["B"].name is None


async def test_a_rematch_table_refused_for_another_reason_than_a_limit_says_so(autojump_clock, monkeypatch):
    """Review rv30: a rematch's table the lobby refuses for a reason that is no limit of the server's (options it
    no longer takes, say) read "the server is shutting down"; it says the reason now, to both, and the offer
    lapses."""
    with trio.fail_after(HANG_GUARD):
        async with running_server(seeds=(21, 22)) as server:
            table, ann, bob = await finished_pair(server)

            def refuse(*_args, **_kwargs):
                raise ValueError("vp must be 1 to 9")

            await ann.send(Rematch(table))
            await bob.expect_event("rematch_offered")
            monkeypatch.setattr(server.lobby, "create_table", refuse)
            await bob.send(Rematch(table))
            for client in (ann, bob):
                refused = await client.expect(Error)
                assert refused.message == "the server could not make the rematch's table: vp must be 1 to 9"
            assert server.lobby.tables[table].rematch_offers == frozenset()


def _gate_new_tables(server, monkeypatch) -> trio.Event:
    """From now on a table made after this call takes nothing from its inbox until the returned event is set (the
    window between the server's move of a player to it and his sitting there, which a kill -9 or a lost
    connection may cut)."""
    from dungeon_twister.server.inbox import Inbox

    known = {t._inbox for t in server.lobby.tables.values()}
    receive, gate = Inbox.receive, trio.Event()

    async def gated(inbox):
        if inbox not in known:
            await gate.wait()
        return await receive(inbox)

    monkeypatch.setattr(Inbox, "receive", gated)
    return gate


async def test_players_moved_to_a_rematch_and_cut_off_by_a_restart_before_they_sat_are_taken_back_to_it(
        tmp_path, autojump_clock, monkeypatch):
    """rm31 left it: the rematch is made, both players are moved (`left`, `table_created`), and the server stops
    before the new table has seated them. Its seats are kept for their names through the restart, but the old
    table's tokens are gone: each landed in the lobby and had to find the table and `join` it. Now a player who
    comes back is taken to his kept seat as the move would have taken him (`table_created`, then `joined`): Ann
    with a fresh hello, Bob with the old table's token (bad_token first). Its edge: Carol, for whom nothing is
    kept, is taken nowhere."""
    with trio.fail_after(HANG_GUARD):
        async with server_on(tmp_path) as server:
            table, ann, bob = await finished_pair(server)
            _gate_new_tables(server, monkeypatch)
            await ann.send(Rematch(table))
            await bob.expect_event("rematch_offered")
            info = resume(bob, table)
            await bob.send(Rematch(table))
            for client in (ann, bob):
                await client.expect(Left, lambda e: e.table == table)
                new = (await client.expect(TableCreated)).table
            await trio.testing.wait_all_tasks_blocked()
        monkeypatch.undo()
        async with server_on(tmp_path, seeds=(5,)) as server:
            assert server.lobby.tables[new].seating.reserved == {"B": "bob", "Y": "ann"}
            carol = await Client.connect(server, "carol", memory=True)
            ann = await Client.connect(server, "ann", memory=True, conn=PlayerConnection(features=FEATURES))
            assert (await ann.expect(TableCreated)).table == new
            assert (await ann.expect(Joined)).table == new and ann.received[-1].seat == "Y"
            bob = await Client.connect(server, "bob", memory=True, resume=info,
                                       conn=PlayerConnection(features=FEATURES))
            assert (await bob.expect(Error)).code == "bad_token"
            assert (await bob.expect(TableCreated)).table == new
            assert (await bob.expect(Joined)).seat == "B"
            for client in (ann, bob):
                await client.expect_event("game_started")
            await carol.send(ListTables())
            await carol.expect(Tables)
            assert not any(isinstance(e, (TableCreated, Joined)) for e in carol.received)


async def test_a_player_whose_connection_ended_before_his_kept_seat_took_him_is_taken_to_it_when_back(
        autojump_clock, monkeypatch):
    """Bob leaves before the first turn: Ann's seat is kept at a new table of the same options, and her connection
    ends before that table has seated her. When she comes back (a new hello, her client holding no token any more)
    she is taken there (`table_created`, then `joined`)."""
    with trio.fail_after(HANG_GUARD):
        async with server_on(None) as server:
            table, ann, bob = await seated_pair(server, TableOptions(beginner=True), memory=True)
            gate = _gate_new_tables(server, monkeypatch)
            await bob.send(Leave())
            await ann.expect(Left)
            await trio.testing.wait_all_tasks_blocked()
            (new,) = [t for t in server.lobby.tables.values() if t.id != table]
            await ann.close()
            await trio.testing.wait_all_tasks_blocked()
            gate.set()
            await trio.sleep(1)
            assert new.seating.seats["B"].name is None and new.seating.reserved == {"B": "ann"}
            ann = await Client.connect(server, "ann", memory=True)
            created = await ann.expect(TableCreated)
            assert (created.table, created.join_code) == (new.id, None)
            assert (await ann.expect(Joined)).seat == "B"


async def test_a_keyed_hello_is_taken_to_its_kept_seat_only_once_its_key_is_proven(autojump_clock):
    """Section 18: a name bound to a key is its key's. A hello naming the key is taken to the seat kept for the
    name only after its proof; a hello whose proof fails is taken nowhere."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from dungeon_twister.protocol import Prove
    from dungeon_twister.protocol.identity import sign_proof
    from test_server_identity import keyed

    key = Ed25519PrivateKey.generate()
    with trio.fail_after(HANG_GUARD):
        async with running_server(seeds=(3, 4)) as server:
            ann, _ = await keyed(server, "ann", key)  # (binds the name to the key)
            await ann.send(ListTables())
            await ann.expect(Tables)
            await ann.close()
            table = server.lobby.create_table(TableOptions(beginner=True), "ann")
            table.seating.reserve({"B": "ann"}, None, why="kept")
            await trio.sleep(1)
            liar, _ = await keyed(server, "ann", key, signature=bytes(64))
            assert (await liar.expect(Error)).code == "bad_proof"
            assert await liar.recv() is None
            assert not any(isinstance(e, (TableCreated, Joined)) for e in liar.received)
            await trio.sleep(1)
            ann, welcome = await keyed(server, "ann", key, prove=False)
            await trio.sleep(1)
            assert not any(isinstance(e, (TableCreated, Joined)) for e in ann.received)
            await ann.send(Prove(sign_proof(key, welcome.challenge, welcome.session, "ann")))
            assert (await ann.expect(TableCreated)).table == table.id
            assert (await ann.expect(Joined)).seat == "B"


async def test_a_private_tables_kept_seat_takes_back_only_a_name_its_key_proves(autojump_clock):
    """Review rv32: a name no key proves is anyone's to claim while its player is away, and a private table's join
    code was what kept such a claimant out: a hello without a key is not taken to a private table's seat kept for
    its name (it stays in the lobby, told nothing of the table, nor its code). Its edge: the name proven by its key
    is taken there, with the join code, and so is a name without a key to a public table's seat (the test above)."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from test_server_identity import keyed

    key = Ed25519PrivateKey.generate()
    with trio.fail_after(HANG_GUARD):
        async with running_server(seeds=(3, 4, 5)) as server:
            private = server.lobby.create_table(TableOptions(beginner=True, private=True), "ann")
            private.seating.reserve({"B": "ann"}, None, why="kept")
            claimant = await Client.connect(server, "ann", memory=True)
            await claimant.send(ListTables())
            assert (await claimant.expect(Tables)).tables == ()  # (a private table is not listed)
            assert not any(isinstance(e, (TableCreated, Joined)) for e in claimant.received)
            assert private.seating.seats["B"].name is None
            await claimant.close()
            await trio.sleep(1)
            dan, _ = await keyed(server, "dan", key)  # (binds the name to the key)
            await dan.close()
            kept = server.lobby.create_table(TableOptions(beginner=True, private=True), "dan")
            kept.seating.reserve({"Y": "dan"}, None, why="kept")
            await trio.sleep(1)
            dan, _ = await keyed(server, "dan", key)
            created = await dan.expect(TableCreated)
            assert (created.table, created.join_code) == (kept.id, kept.join_code) and kept.join_code
            assert (await dan.expect(Joined)).seat == "Y"


async def test_a_finished_table_let_go_after_a_store_failure_takes_its_rematch_offer_with_it(tmp_path, monkeypatch):
    """Review rv31: a finished table with a rematch offer standing whose step the store could not save (here Bob's
    decline) stops; a resume of it, once the store answers again, lets it go (it is not open in the store:
    bad_token, to the lobby) but its `kept` row stayed, so the next start, perhaps days later, brought the stale
    offer back for a minute (and kept its tokens until then). The row goes with the table now. Its edge: an offer
    standing at a clean stop still comes back (test_a_standing_rematch_offer_outlives_a_restart...)."""
    from dungeon_twister.server.storage import SqliteStorage, StorageError

    with trio.fail_after(HANG_GUARD):
        async with server_on(tmp_path) as server:
            table, ann, bob = await offered_pair(server)
            await ann.expect_event("view")
            info = resume(ann, table)

            def broken(self, table_id, kept):
                raise StorageError("database or disk is full")

            monkeypatch.setattr(SqliteStorage, "set_kept", broken)
            await bob.send(DeclineRematch(table))
            assert (await bob.expect(Error)).code == "game_stopped"
            monkeypatch.undo()  # the disk has room again
            assert server.storage.kept(table) == {"offers": ["B"]}
            back = await Client.connect(server, "ann", memory=True, resume=info)
            assert (await back.expect(Error)).code == "bad_token"
            assert server.storage.kept(table) is None
        async with server_on(tmp_path, seeds=(5,)) as server:
            assert list(server.lobby.tables) == [] and server.storage.offered_tables() == []


def _store_fails(monkeypatch) -> None:
    """From now on (until `monkeypatch.undo()`) the store cannot commit a step (a full disk): what the step wrote is
    rolled back, as SqliteStorage._commit does when its COMMIT fails."""
    from dungeon_twister.server.storage import SqliteStorage, StorageError

    def broken(self):
        self._rollback()
        raise StorageError("database or disk is full")

    monkeypatch.setattr(SqliteStorage, "_commit", broken)


async def _told_nothing_but_game_stopped(client: Client, table: str) -> None:
    """`client` is cut off, told game_stopped for `table` last, and nothing of a move to another table before it
    (no `rematch` or `seat_kept` event, no `left`, `table_created` or `joined`)."""
    last = None
    while (event := await client.recv()) is not None:
        assert not isinstance(event, (Left, TableCreated, Joined)), (client.name, event)
        assert not (isinstance(event, TableEvent) and event.event.get("kind") in ("rematch", "seat_kept")), event
        last = event
    assert isinstance(last, Error) and last.code == "game_stopped" and table in last.message, last


async def test_a_rematch_the_store_cannot_save_is_told_to_nobody_and_leaves_no_table(
        tmp_path, autojump_clock, monkeypatch):
    """rm32 found it: the store could not commit Bob's acceptance of Ann's offer, yet both were sent that step's
    `rematch` event, `left` and `table_created`, and the new table stayed in memory (its row rolled back), its
    task seating them at a table the store does not have. Durable before sent: nothing of the step reaches
    anyone; both are cut off with game_stopped, as the viewers of any step not saved are; the new table goes with
    the step (not in the lobby, seats nobody, not in the store). Its edge: once the store answers, Ann's resume
    is answered as any viewer's of that table (it is over: let go, bad_token) and she is taken to no kept seat."""
    with trio.fail_after(HANG_GUARD):
        async with server_on(tmp_path) as server:
            table, ann, bob = await offered_pair(server)
            await ann.expect_event("view")
            info = resume(ann, table)
            await _not_saved(server, monkeypatch, table, (ann, bob), bob, Rematch(table))
            back = await Client.connect(server, "ann", memory=True, resume=info,
                                        conn=PlayerConnection(features=FEATURES))
            assert (await back.expect(Error)).code == "bad_token"
            await back.send(ListTables())
            assert (await back.expect(Tables)).tables == ()
            assert not any(isinstance(e, (TableCreated, Joined)) for e in back.received)


async def _not_saved(server, monkeypatch, table: str, pair, sender: Client, request) -> None:
    """`sender` sends `request` while the store cannot commit and new tables wait at a gate: both of `pair` are
    told nothing but game_stopped; then the store answers again and the gate opens: no table is left in the lobby
    and the store has `table` alone."""
    gate = _gate_new_tables(server, monkeypatch)
    _store_fails(monkeypatch)
    await sender.send(request)
    for client in pair:
        await _told_nothing_but_game_stopped(client, table)
    monkeypatch.undo()  # the disk has room again
    gate.set()
    await trio.testing.wait_all_tasks_blocked()
    assert list(server.lobby.tables) == [] and [t.id for t in server.storage.tables()] == [table]


async def test_a_kept_seat_the_store_cannot_save_is_told_to_nobody_and_leaves_no_table(autojump_clock, monkeypatch):
    """The same for a kept seat (Seating.keep_seat): Bob leaves before the first turn, which would keep Ann's seat
    at a new table, and the store cannot save that step. Nobody is told of the move (no `left`, `table_created`,
    `joined` or `seat_kept`): both are cut off with game_stopped, and no new table stays. Its edge: Ann's token is
    hers again as the other viewers' are (the move had revoked it): once the store answers, her resume brings
    the table back as the store has it, the game in play before Bob's leave, her seat hers."""
    with trio.fail_after(HANG_GUARD):
        async with server_on(None) as server:
            table, ann, bob = await seated_pair(server, TableOptions(beginner=True), memory=True)
            info = resume(ann, table)
            await _not_saved(server, monkeypatch, table, (ann, bob), bob, Leave())
            back = await Client.connect(server, "ann", memory=True, resume=info)
            joined = await back.expect(Joined)
            assert (joined.table, joined.seat) == (table, "B")
            assert (await back.expect(Snapshot)).table == table
            revived = server.lobby.tables[table]
            assert revived.status == "playing" and revived.seating.names() == {"B": "ann", "Y": "bob"}
            assert not any(isinstance(e, (TableCreated, Error)) for e in back.received)


async def test_the_move_to_a_kept_seat_a_hello_brings_comes_before_the_answer_to_the_welcomes_list(autojump_clock):
    """docs/protocol.md (`create_table`) promises client writers, since rm33 made dt-client hold its `create` until
    the lobby's first answer on it: the move a `hello` brings (its unasked `table_created`) is sent before the
    answer to anything the client sends after the welcome. rm33's tests of the hold used fake servers; this is
    the server's side, over a real one (review rv33): Ann, for whom a table keeps a seat, says hello and sends
    `list_tables` the moment she is welcomed, and reads the move's `table_created` before `tables` (its `joined` may
    come on either side of it). Its edge: a name with no seat kept gets `tables` first, with no `table_created`."""
    with trio.fail_after(HANG_GUARD):
        async with running_server(seeds=(3, 4)) as server:
            table = server.lobby.create_table(TableOptions(beginner=True), "cy")
            table.seating.reserve({"B": "ann"}, None, why="kept")
            await trio.sleep(1)
            ann = await Client.connect(server, "ann", memory=True)
            await ann.send(ListTables())
            first = await ann.recv()
            assert isinstance(first, TableCreated) and first.table == table.id, first
            await ann.expect(Tables)
            assert not [e for e in ann.received if isinstance(e, TableCreated) and e.table != table.id]
            assert (await ann.seen(Joined)).seat == "B"
            bob = await Client.connect(server, "bob", memory=True)
            await bob.send(ListTables())
            assert isinstance(await bob.recv(), Tables)
