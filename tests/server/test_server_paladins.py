"""Paladins & Dragons and the mixed sets through the protocol and the server (TableOptions.set_name "paladins",
"all_sets", TableOptions.teams "mutual"; docs/protocol.md section 6 and 13)."""

from dungeon_twister.engine import Options
from dungeon_twister.protocol import CreateTable, Error, TableCreated, TableOptions
from test_server_prison import play_out, watched_game
from test_server_support import Client, running_server, seated_pair, simulate


async def test_a_paladins_game_between_two_players_ends_as_the_engine_plays_it(autojump_clock):
    """The greedy players of simulate() end seed 2 by the VP target; over the server they reach the same end, and the
    views show the terrain of the revealed rooms (PD-TERR)."""
    seed = 2
    trace = simulate(seed, Options(set_name="paladins"), 600)
    assert trace["outcome"] is not None
    async with running_server(seeds=(seed,)) as server:
        table, blue, yellow = await seated_pair(server, TableOptions(set_name="paladins"))
        results = await play_out(table, blue, yellow)
    expected = trace["outcome"]
    assert (results["B"].result["winner"], results["B"].result["vp"]) == (expected.winner, dict(expected.vp))
    assert blue.errors() == [] and yellow.errors() == []
    views = [e.event["view"] for e in blue.received if getattr(e, "event", {}).get("kind") == "view"]
    assert views[-1]["set"] == "paladins" and any("terrain" in v for v in views)


async def test_PD_TEAM_MUTUAL_a_mutual_build_of_all_three_sets_with_a_spectator_plays_to_the_end(autojump_clock):
    """The draft goes through the protocol as public actions (no commit-reveal: `secret` is nil while picking), the
    spectator sees every pick, and the game then ends as the engine plays it (simulate, seed 4)."""
    seed = 4
    options = Options(set_name="all_sets", teams="mutual")
    trace = simulate(seed, options, 600)
    assert trace["outcome"] is not None and trace["first"]["teams_built"] == 18  # 4 pairs, 8 characters, 6 objects
    results, blue, yellow, watcher = await watched_game(seed, TableOptions(set_name="all_sets", teams="mutual"))
    expected = trace["outcome"]
    assert (results["B"].result["winner"], results["B"].result["vp"]) == (expected.winner, dict(expected.vp))
    assert blue.errors() == [] and yellow.errors() == [] and watcher.errors() == []
    assert len(watcher.events_of("picked")) == 18
    drafting = [e.event["view"] for e in blue.received
                if getattr(e, "event", {}).get("kind") == "view" and e.event["view"].get("draft")]
    assert drafting and all(v["secret"] is None for v in drafting)


async def test_PD_TEAM_02_a_mutual_table_that_is_not_mixed_is_refused(autojump_clock):
    async with running_server() as server:
        client = await Client.connect(server, "ann")
        for options in (TableOptions(set_name="paladins", teams="mutual"), TableOptions(teams="mutual")):
            await client.send(CreateTable(options))
            error = await client.expect(Error)
            assert error.code == "bad_field" and "create_table" in error.message
        await client.send(CreateTable(TableOptions(set_name="prison_paladins", teams="mutual")))
        assert (await client.expect(TableCreated)).table
