"""Players' contributions to the deal (docs/protocol.md section 16, feature seed_contributions): the server
commits to its seed when the table is created, each player commits to a contribution before anything of that seed
shows, and the game is dealt from the mix of all three; a table where a player lacks the feature plays as before."""

from __future__ import annotations

import trio
from dungeon_twister.client.fairness import check_contributions, check_deal
from dungeon_twister.client.replay import Replay
from dungeon_twister.engine import Options, new_game, view as engine_view
from dungeon_twister.protocol import (CreateTable, GameOver, GetRecord, GameRecord, Join, Leave, Left, OpponentCommit,
                                      OpponentReveal, PlayerConnection, ProtocolError, Reveal, Snapshot, TableCreated,
                                      TableEvent, TableOptions, verify_seed)
from dungeon_twister.protocol.commit import make_nonce
from dungeon_twister.protocol.deal import DEAL_PURPOSE, deal_seed
from dungeon_twister.protocol.views import SEED_CONTRIBUTIONS
from dungeon_twister.server.deal import DEAL_SECONDS

from test_server_prison import play_out
from test_server_support import HANG_GUARD, Client, running_server

BLUE, YELLOW = "b1" * 32, "f7" * 32
"""The contributions of these tests (any 64 hex digits work the same way)."""


def contributing() -> PlayerConnection:
    return PlayerConnection(features=(SEED_CONTRIBUTIONS,))


async def contribute(client: Client, contribution: str, until=lambda event: False):
    """Answer the deal exchange as the client app does (PlayerConnection.deal_step on each view and on the
    opponent's commitment) until `until(event)` or game_started; the event that ended it."""
    while True:
        view = client.view
        frame = client.conn.deal_step(view, contribution) if view is not None else None
        if frame is not None:
            await client.send_raw(frame)
        event = await client.recv()
        if event is None or until(event):
            return event
        if isinstance(event, TableEvent) and event.event.get("kind") == "game_started":
            await client.expect_event("view")
            return event
        if isinstance(event, OpponentCommit) and event.purpose == DEAL_PURPOSE:
            frame = client.conn.deal_step(None, contribution)
            if frame is not None:
                await client.send_raw(frame)


async def joined_pair(server, options: TableOptions, features=(True, True), names=("ann", "bob")):
    """A table with two players seated B and Y (with the feature or not, in that order); nothing awaited after."""
    blue = await Client.connect(server, names[0], conn=contributing() if features[0] else None)
    await blue.send(CreateTable(options))
    table = (await blue.expect(TableCreated)).table
    await blue.send(Join(table, "B"))
    yellow = await Client.connect(server, names[1], conn=contributing() if features[1] else None)
    await yellow.send(Join(table, "Y"))
    return table, blue, yellow


async def mixed_pair(server, options: TableOptions, contributions=(BLUE, YELLOW)):
    table, blue, yellow = await joined_pair(server, options)
    with trio.fail_after(HANG_GUARD):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(contribute, blue, contributions[0])
            nursery.start_soon(contribute, yellow, contributions[1])
    return table, blue, yellow


def views_of(client: Client) -> list[dict]:
    return [e.event["view"] for e in client.received if isinstance(e, TableEvent) and e.event.get("kind") == "view"]


async def test_both_players_contribute_and_the_game_is_dealt_from_the_mix(autojump_clock):
    """PR-SCEN-1 (Prison's first scenario) on a server of seed 4: the game is dealt from deal_seed(table, 4, B's,
    Y's), which the record's start line says; the end view names the server's seed, its nonce and both
    contributions under their own names (never `seed`), and the client's checks and `dt-client verify` pass."""
    async with running_server(seeds=(4,)) as server:
        table, blue, yellow = await mixed_pair(server, TableOptions(scenario="prison-1"))
        mixed = deal_seed(table, 4, BLUE, YELLOW)
        started = views_of(blue)[-1]
        assert started["started"] and started["table"]["deal"] == {"B": "revealed", "Y": "revealed"}
        assert engine_view(new_game(Options(set_name="prison", scenario="prison-1"), mixed), "B")["rooms"] == \
            {k: v for k, v in started.items()}["rooms"], "the rooms as the mixed seed deals them"
        reveal = next(e for e in blue.received if isinstance(e, OpponentReveal))
        assert (reveal.purpose, reveal.seat, reveal.choice) == (DEAL_PURPOSE, "Y", YELLOW)
        await play_out(table, blue, yellow)
        last = views_of(blue)[-1]["table"]
        assert "seed" not in last and "seed_nonce" not in last
        assert last["server_seed"] == 4 and last["contributions"] == {"B": BLUE, "Y": YELLOW}
        assert verify_seed(bytes.fromhex(last["seed_commitment"]), table, 4, bytes.fromhex(last["server_seed_nonce"]))
        fair, text = check_deal(views_of(blue)[-1])
        assert fair and text.startswith(f"fair deal: the seed {mixed} mixes the server's seed"), text
        assert check_contributions(views_of(blue)[-1], ("B", BLUE), YELLOW)[0]
        assert not check_contributions(views_of(blue)[-1], ("B", "0" * 64), YELLOW)[0], "not the one sent"
        before_end = [v for v in views_of(yellow) if not v.get("outcome")]
        assert all("server_seed" not in v["table"] and "contributions" not in v["table"] for v in before_end)
        await blue.send(Leave())
        await blue.expect(Left)
        await blue.send(GetRecord(table))
        text = (await blue.expect(GameRecord)).text
    lines = text.splitlines()
    assert lines[0].startswith(f"game seed={mixed} ")
    assert not any(line.startswith(("# seed-commitment", "# seed-nonce")) for line in lines)
    assert "# deal-server-seed 4" in lines and f"# dealt seed={mixed} B={BLUE} Y={YELLOW}" in lines
    replay = Replay.of(text)
    assert replay.deal is True and replay.deal_mixed
    reveals = [line for line in lines if line.startswith("# reveal ")]
    assert replay.rounds == (len(reveals), []) and sum(" deal " in line for line in reveals) == 2
    forged = text.replace(f"B={BLUE}", f"B={'0' * 64}")
    assert Replay.of(forged).deal is False, "a contribution that is not the one B revealed"
