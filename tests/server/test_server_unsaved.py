"""Steps the store cannot save tell nobody (docs/protocol.md section 13, game_stopped; Table.if_not_saved): the
server says nothing happened that the store did not keep. rm32b left an admin's close and a spectator's leave, which
were still told `left` before the cut, and a finished table's rematch offer, which a failed answer to it left in the
store until the next start; and a step a bug ends, whose frames left though its transaction was rolled back."""

from __future__ import annotations

import trio
from dungeon_twister.protocol import (CreateTable, Error, Join, Joined, Leave, Left, Rematch, Snapshot, TableCreated,
                                      TableOptions)

from test_server_admin import admin_server, ask, directory  # noqa: F401 (the fixture)
from test_server_rematch_durable import _store_fails, _told_nothing_but_game_stopped, offered_pair, resume, server_on
from test_server_support import HANG_GUARD, Client, watching


async def _waiting_table(server) -> tuple[str, Client, Client]:
    """Ann seated at a table whose game waits for an opponent, and Cy watching it: (table, ann, cy)."""
    ann = await Client.connect(server, "ann", memory=True)
    await ann.send(CreateTable(TableOptions(beginner=True)))
    table = (await ann.expect(TableCreated)).table
    await ann.send(Join(table, "B"))
    await ann.expect(Snapshot)
    return table, ann, await watching(server, table, "cy")


async def test_an_admin_close_the_store_cannot_save_is_told_to_nobody(directory, autojump_clock, monkeypatch):
    """`dt-server admin end` of a table whose game has not begun closes it under everyone at it. When the store
    could not save that step, its player and its spectator were sent `left` and "the server's admin closed table
    ..." all the same, their tokens revoked, while the store kept the table open: it came back at the next start.
    Now the close is the step's (closed in the store before anyone is told): nobody is told it, both are cut off
    with game_stopped as any step's viewers, and the admin is told nothing was done. Its edge: once the store
    answers, both come back with their tokens (the table as the store has it), and an `end` then closes it for
    good, in the store by the time the admin reads "closed"."""
    from dungeon_twister.server.storage import SqliteStorage, StorageError

    with trio.fail_after(HANG_GUARD):
        async with admin_server(directory, data_dir=directory / "data") as server:
            table, ann, cy = await _waiting_table(server)
            seat, watch = resume(ann, table), resume(cy, table)

            def full(self, table_id):  # the disk full as the table's close is written
                raise StorageError("database or disk is full")

            monkeypatch.setattr(SqliteStorage, "close_table", full)
            answer = await ask(server, {"command": "end", "table": table})
            assert not answer["ok"] and "could not save the end of table" in answer["error"], answer
            for client in (ann, cy):
                await _told_nothing_but_game_stopped(client, table)
            monkeypatch.undo()  # the disk has room again
            assert server.storage.table(table).status == "open"
            ann = await Client.connect(server, "ann", memory=True, resume=seat)
            assert ((await ann.expect(Joined)).table, (await ann.expect(Snapshot)).table) == (table, table)
            cy = await Client.connect(server, "cy", "spectator", memory=True, resume=watch)
            assert (await cy.expect(Joined)).seat is None
            # the edge: closed for good, in the store before the admin reads it
            assert (await ask(server, {"command": "end", "table": table}))["outcome"] == "closed"
            assert server.storage.table(table) is None or server.storage.table(table).status == "closed"
            for client in (ann, cy):
                await client.expect(Left)
                assert (await client.expect(Error)).message == f"the server's admin closed table {table}"


async def test_a_spectators_leave_the_store_cannot_save_is_told_to_nobody(autojump_clock, monkeypatch):
    """A spectator's `leave` ends his watch and revokes his token (it took him back to the watch he had left, and
    stayed in the store until the table closed). In a step the store cannot save he was told `left` (not a viewer
    any more, he was not cut off): now he is cut off with game_stopped as the table's other viewers. Its edge:
    once the store answers, his token brings him back to the watch; a leave that is saved answers `left`, and
    his token is then unknown (bad_token)."""
    with trio.fail_after(HANG_GUARD):
        async with server_on(None) as server:
            table, ann, cy = await _waiting_table(server)
            watch = resume(cy, table)
            _store_fails(monkeypatch)
            await cy.send(Leave())
            for client in (ann, cy):
                await _told_nothing_but_game_stopped(client, table)
            monkeypatch.undo()  # the disk has room again
            cy = await Client.connect(server, "cy", "spectator", memory=True, resume=watch)
            assert ((await cy.expect(Joined)).table, (await cy.expect(Snapshot)).table) == (table, table)
            # the edge
            await cy.send(Leave())
            await cy.expect(Left)
            assert not any(token == server.lobby.tokens.key(watch.token) for token, *_ in
                           server.storage.table(table).tokens)
            await cy.close()
            again = await Client.connect(server, "cy", "spectator", memory=True, resume=watch)
            assert (await again.expect(Error)).code == "bad_token"


async def test_a_rematch_offer_a_failed_answer_left_in_the_store_goes_once_the_store_answers(
        tmp_path, autojump_clock, monkeypatch):
    """Ann offers a rematch and the store cannot save Bob's acceptance: both are cut off with game_stopped
    (rm32b). Their clients let a finished game's token go, so no resume ever let the stopped table go, and its
    offer's row stayed in the store: the next start brought the offer back, perhaps days later, for a minute. The
    stopped table has the offer the store has (undone in memory too), and lets it go by itself once the store
    answers: the row goes, with nobody resuming. Its edge: while the store still fails, the row stays (nothing is
    let go that the store did not write), and the next start restores nothing."""
    with trio.fail_after(HANG_GUARD):
        async with server_on(tmp_path) as server:
            table, ann, bob = await offered_pair(server)
            _store_fails(monkeypatch)
            await bob.send(Rematch(table))
            for client in (ann, bob):
                await _told_nothing_but_game_stopped(client, table)
            await trio.sleep(30)  # the store still fails: nothing let go
            assert server.storage.kept(table) == {"offers": ["B"]}
            monkeypatch.undo()  # the disk has room again
            await trio.sleep(120)
            assert server.storage.kept(table) is None
        async with server_on(tmp_path, seeds=(5,)) as server:
            assert list(server.lobby.tables) == [] and server.storage.offered_tables() == []


async def test_a_step_a_bug_ends_tells_nothing_the_store_did_not_keep(autojump_clock, monkeypatch):
    """A bug outside a request's own handling (here after Bob's acceptance of a draw, in Play.idle) rolls the step's
    transaction back, so the store keeps the game in play; yet its frames left all the same (`game_over` among
    them), then `left` and "this table failed". Now nothing of the step is sent: both players are cut off, told
    the table failed, and the game's end is told to nobody. Its edge: a bug inside a request's handling still
    answers that request alone and the table goes on (test_server_admin's failed `end`)."""
    from dungeon_twister.protocol import DrawAnswer, DrawOffer, GameOver, TableEvent
    from dungeon_twister.server.play import Play
    from test_server_support import seated_pair

    real = Play.idle

    def idle(self, acted):
        if self.result is not None:
            raise RuntimeError("a bug")
        return real(self, acted)

    with trio.fail_after(HANG_GUARD):
        async with server_on(None) as server:
            table, ann, bob = await seated_pair(server, TableOptions(beginner=True), memory=True)
            await ann.send(DrawOffer(table))
            await bob.expect_event("draw_offered")
            await ann.expect_event("draw_offered")
            monkeypatch.setattr(Play, "idle", idle)
            await bob.send(DrawAnswer(table, True))
            for client in (ann, bob):
                last = None
                while (event := await client.recv()) is not None:
                    assert not isinstance(event, (GameOver, Left)), (client.name, event)
                    assert not (isinstance(event, TableEvent) and event.event.get("kind") != "view"), event
                    last = event
                assert isinstance(last, Error) and last.code == "internal", last
            assert server.storage.table(table).status == "open" and server.storage.table(table).result is None
