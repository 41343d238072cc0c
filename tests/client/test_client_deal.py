"""The client's side of the players' contributions to the deal (docs/protocol.md section 16, feature
seed_contributions): the real Session, against a real server, contributes by itself, and checks at the end that the
game was dealt from the mix of the server's seed, its own contribution and the opponent's."""

from __future__ import annotations

from collections.abc import Callable

import pytest
import trio

from dungeon_twister.client import i18n

from dungeon_twister.client.held import SeatFile
from dungeon_twister.client.network import run_network
from dungeon_twister.client.session import Session
from dungeon_twister.client.state import ClientState, TableSetup
from dungeon_twister.protocol import Join, Leave, OpponentCommit, PlayerConnection, TableEvent, TableOptions
from dungeon_twister.protocol.deal import deal_seed, is_contribution
from dungeon_twister.protocol.views import SEED_CONTRIBUTIONS

from tests.server.test_server_support import HANG_GUARD, Client, running_server

YELLOW = "f7" * 32


async def contribute(client: Client, contribution: str) -> None:
    """Bob's side, as tests/server/test_server_deal.py plays it: the exchange's frames until game_started."""
    while True:
        await client.send_raw(client.conn.deal_step(client.view, contribution) or b"")
        event = await client.recv()
        if isinstance(event, TableEvent) and event.event.get("kind") == "game_started":
            return
        if isinstance(event, OpponentCommit):
            await client.send_raw(client.conn.deal_step(None, contribution) or b"")


async def until(condition: Callable[[], object]) -> None:
    while not condition():
        await trio.sleep(0.01)


async def a_client(server, nursery, name: str = "alice") -> Session:
    session = Session(ClientState(name))
    nursery.start_soon(run_network, session, "127.0.0.1", server.port, trio.open_tcp_stream)
    await until(lambda: session.state.connected)
    return session


@pytest.mark.parametrize("language", ["en", "fr"])
async def test_the_client_contributes_and_checks_the_mix_at_the_end(autojump_clock, monkeypatch, language):
    """Alice (the client) sits in B, Bob (a protocol client with the feature) in Y: Alice's client commits to a
    fresh contribution, reveals it on Bob's commitment, and the game is dealt from the mix; when Bob resigns, the end
    view names the server's seed and both contributions, and Alice's log says the deal was fair, her contribution
    included, with no alert. In French the two parts are joined as French joins a list's parts, a no-break space
    before the semicolon (play-test i18n32 read "... distribuée; votre contribution ...")."""
    with trio.fail_after(HANG_GUARD):
        async with running_server(seeds=(4,)) as server, trio.open_nursery() as nursery:
            alice = await a_client(server, nursery)
            alice.create_table(TableOptions(), TableSetup(seat="B"))
            await until(lambda: alice.state.table is not None)
            table = alice.state.table
            bob = await Client.connect(server, "bob", conn=PlayerConnection(features=(SEED_CONTRIBUTIONS,)))
            await bob.send(Join(table, "Y"))
            await contribute(bob, YELLOW)
            mine = alice.state.deal_mine
            assert is_contribution(mine) and server.lobby.tables[table].play.dealt == deal_seed(table, 4, mine, YELLOW)
            # the log shows its first 16 hex digits (all 64 wrapped in the panel); the whole is kept and checked
            assert f"your contribution to the deal is committed: {mine[:16]}…" in alice.state.log
            await until(lambda: (alice.state.view or {}).get("started"))
            assert alice.state.deal_theirs == YELLOW
            assert "Yellow's contribution to the deal opens his commitment" in alice.state.log
            # (the server may open no other table: Alice stays at this one, whose game Bob's leave aborts, rather
            # than keep a seat at a new one, srv30, whose log would not have this game's check)
            monkeypatch.setattr("dungeon_twister.server.lobby.MAX_TABLES", 1)
            await bob.send(Leave())  # resigns
            i18n.use(language)
            await until(lambda: alice.state.deal_checked)
            assert alice.state.alert is None
            if language == "fr":
                (checked,) = [line for line in alice.state.log if line.startswith("donne loyale")]
                assert checked.endswith("\xa0; votre contribution à la donne est dans le mélange de la graine")
                alice.quit()
                return
            (checked,) = [line for line in alice.state.log if line.startswith("fair deal")]
            assert checked == (f"fair deal: the seed {deal_seed(table, 4, mine, YELLOW)} mixes the server's seed, "
                               "which opens its commitment made before the game, with the players' contributions, "
                               "and every room revealed (0) lies where it dealt it; your contribution to the deal is "
                               "in the seed's mix")
            alice.quit()


async def test_against_a_bot_the_client_contributes_alone(autojump_clock):
    """A bot's seat contributes nothing (the server runs it): Alice's client reveals as soon as the views say so,
    and the game is dealt from the mix of the server's seed and her contribution alone."""
    with trio.fail_after(HANG_GUARD):
        async with running_server(seeds=(4,)) as server, trio.open_nursery() as nursery:
            alice = await a_client(server, nursery)
            alice.create_table(TableOptions(), TableSetup(seat="B", bot="greedy"))
            await until(lambda: (alice.state.view or {}).get("started"))
            table = alice.state.table
            assert alice.state.view["table"]["deal"] == {"B": "revealed", "Y": "none"}
            assert server.lobby.tables[table].play.dealt == deal_seed(table, 4, alice.state.deal_mine, "")
            alice.leave()
            await until(lambda: alice.state.table is None)
            alice.quit()


async def test_a_client_that_crashed_after_committing_reveals_its_contribution_when_started_again(
        autojump_clock, tmp_path):
    """Alice's client commits to its contribution and dies before Bob commits; started again, it takes the seat back
    from its seat file, and when Bob's commitment comes, reveals the contribution it had committed to (kept on disk
    before the commitment left): the game is dealt from that one."""
    with trio.fail_after(HANG_GUARD):
        async with running_server(seeds=(4,)) as server, trio.open_nursery() as nursery:
            seat_file = SeatFile(f"127.0.0.1:{server.port}", "alice", tmp_path)
            first, crash = Session(ClientState("alice"), seat_file=seat_file), trio.CancelScope()
            nursery.start_soon(_run, first, server.port, crash)
            await until(lambda: first.state.connected)
            first.create_table(TableOptions(), TableSetup(seat="B"))
            await until(lambda: first.state.table is not None)
            table = first.state.table
            bob = await Client.connect(server, "bob", conn=PlayerConnection(features=(SEED_CONTRIBUTIONS,)))
            await bob.send(Join(table, "Y"))
            while ((bob.view or {}).get("table") or {}).get("deal", {}).get("B") != "committed":
                await bob.recv()  # Bob does not commit yet
            committed = first.state.deal_mine
            assert seat_file.load().secrets["deal"].choice == committed, "on disk before it left"
            crash.cancel()
            again = Session(ClientState("alice"), seat_file=seat_file)
            nursery.start_soon(run_network, again, "127.0.0.1", server.port, trio.open_tcp_stream)
            await until(lambda: again.state.connected and (again.state.view or {}).get("table", {}).get("deal"))
            assert again.state.deal_mine == committed
            await contribute(bob, YELLOW)
            await until(lambda: (again.state.view or {}).get("started"))
            assert server.lobby.tables[table].play.dealt == deal_seed(table, 4, committed, YELLOW)
            assert again.state.alert is None
            again.quit()


async def _run(session: Session, port: int, scope: trio.CancelScope) -> None:
    with scope:
        await run_network(session, "127.0.0.1", port, trio.open_tcp_stream)
