"""Paladins & Dragons and the mixed sets through the protocol and the server (TableOptions.set_name "paladins",
"all_sets", TableOptions.teams "mutual"; docs/protocol.md section 6 and 13)."""

import trio

from dungeon_twister.engine import Options
from dungeon_twister.protocol import CreateTable, Error, TableCreated, TableOptions
from test_server_prison import play_out, watched_game
from test_server_support import HANG_GUARD, Client, Scripted, running_server, seated_pair, simulate


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


async def test_PD_TEAM_FREE_a_free_build_of_all_three_sets_with_a_spectator_stays_hidden_and_plays_to_the_end(
        autojump_clock):
    """Both builds go through commit-reveal (purpose "build", composed from the view's build.parts, `legal` empty);
    nobody but the builder sees a build while the game runs: the opponent and the spectator get `built` with the
    seat only, and the reveal of each build reaches the opponent only when the game is over (DT-120), where the
    client checks it against the commitment. The game then ends as the engine plays it (simulate, seed 4)."""
    from dungeon_twister.protocol import OpponentReveal

    seed = 4
    options = Options(set_name="all_sets", teams="free")
    trace = simulate(seed, options, 600)
    assert trace["outcome"] is not None and trace["first"]["teams_built"] == 2  # the two builds
    results, blue, yellow, watcher = await watched_game(seed, TableOptions(set_name="all_sets", teams="free"))
    expected = trace["outcome"]
    assert (results["B"].result["winner"], results["B"].result["vp"]) == (expected.winner, dict(expected.vp))
    assert blue.errors() == [] and yellow.errors() == [] and watcher.errors() == []
    assert watcher.events_of("built") == [{"kind": "built", "seat": "B"}, {"kind": "built", "seat": "Y"}]
    assert blue.events_of("built")[0]["seat"] == "B" and len(blue.events_of("built")[0]["characters"]) == 8
    assert blue.events_of("built")[1] == {"kind": "built", "seat": "Y"}
    building = [e.event["view"] for e in blue.received
                if getattr(e, "event", {}).get("kind") == "view" and e.event["view"].get("build")]
    assert building and all(v["legal"] == [] for v in building)
    asked = [v for v in building if v["secret"] == "build"]  # once both are seated and the game has started
    assert asked and [p["name"] for p in asked[0]["build"]["parts"]] == ["pairs", "characters", "objects"]
    for client, other in ((blue, "Y"), (yellow, "B")):
        reveals = [i for i, e in enumerate(client.received) if isinstance(e, OpponentReveal) and e.purpose == "build"]
        running = [i for i, e in enumerate(client.received) if getattr(e, "event", {}).get("kind") == "view"
                   and e.event["view"]["outcome"] is None]
        assert len(reveals) == 1 and reveals[0] > max(running)
        assert client.received[reveals[0]].seat == other and client.received[reveals[0]].choice.startswith("build ")
    assert not [e for e in watcher.received if isinstance(e, OpponentReveal)]


async def test_PD_TEAM_FREE_01_a_refused_build_is_replaced_by_a_legal_build_drawn_in_secret(autojump_clock):
    """A revealed build the rules refuse (7 characters) is refused with its rule, and having no rule fallback the
    server plays one of the seat's legal builds drawn with its secret seed (DT-236: the table's draw for that seat
    and purpose), a build of 2 pairs, 8 characters and 6 objects."""
    from dungeon_twister.protocol import ActionRefused, OpponentCommit

    with trio.fail_after(HANG_GUARD):
        async with running_server(seeds=(4,)) as server:
            table, blue, yellow = await seated_pair(server, TableOptions(set_name="all_sets", teams="free"))
            assert blue.view["secret"] == "build" and blue.view["legal"] == []
            play = server.lobby.tables[table].play
            drawn = play._any_choice("B", "build")  # the draw for this table, seat and purpose
            await blue.commit("build", "build pairs=1,41 characters=ES,GH,MK,PA,RD,TH,WA objects=AR,FH,KY,RP,SW,TS")
            await yellow.commit("build", "build pairs=3,42 characters=AS,CL,GO,IL,NG,PP,TR,WM "
                                         "objects=CH,DS,FS,RG,RP,SP")
            for client in (blue, yellow):
                await client.expect(OpponentCommit)
                await client.reveal("build")
            refused = await blue.expect(ActionRefused)
            assert (refused.action_id, refused.code, refused.rule) == ("build", "illegal_action", "PD-TEAM-FREE-01")
            assert "choose 8 characters, not 7" in refused.message
            assert f"; {play.rules.format_action(drawn)} was played instead" in refused.message
            built = await blue.expect_event("built")
            assert built["characters"] == list(drawn.characters) and len(drawn.characters) == 8
            assert len(drawn.pairs) == 2 and len(drawn.objects) == 6


async def test_PD_TEAM_FREE_a_bot_builds_its_team_through_the_protocol(autojump_clock):
    """A greedy bot seated at a free table commits and reveals its build like a player; the human plays on."""
    from dungeon_twister.protocol import Join, Joined, OpponentCommit, SeatBot

    with trio.fail_after(HANG_GUARD):
        async with running_server(seeds=(5,)) as server:
            ann = await Client.connect(server, "ann")
            table = server.lobby.create_table(TableOptions(set_name="base_paladins", teams="free"), "ann").id
            await ann.send(Join(table, "B"))
            await ann.expect(Joined)
            await ann.send(SeatBot(table, "Y", "greedy"))
            await ann.expect_event("game_started")
            view = await Scripted(ann, "B", 3).play(table, stop=lambda v: v["phase"] in ("card", "main"))
            assert any(isinstance(e, OpponentCommit) and e.purpose == "build" for e in ann.received)
            assert sorted(e["seat"] for e in ann.events_of("built")) == ["B", "Y"]
            assert view["players"]["Y"]["screen"] == 0  # its 14: 4 on the start zone, 10 in the rooms
