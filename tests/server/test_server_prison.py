"""A Prison table through the protocol and the server (TableOptions.set_name, docs/protocol.md section 6)."""

import trio
from dungeon_twister.engine import Options, apply
from dungeon_twister.engine.boardgame.records import parse_record
from dungeon_twister.protocol import CreateTable, Error, GameOver, Spectate, TableCreated, TableOptions
from test_server_support import HANG_GUARD, Client, Scripted, running_server, seated_pair, simulate

PRISON = TableOptions(set_name="prison")


async def play_out(table: str, blue: Client, yellow: Client) -> dict:
    """Both seats played by the greedy Scripted players (rng seeds 1 and 2, as simulate()) until the game is over."""
    results = {}

    async def play(scripted: Scripted) -> None:
        results[scripted.seat] = await scripted.play(table, until=lambda e: isinstance(e, GameOver))

    with trio.fail_after(HANG_GUARD):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(play, Scripted(blue, "B", 1))
            nursery.start_soon(play, Scripted(yellow, "Y", 2))
    return results
async def watched_game(seed: int, options: TableOptions) -> tuple:
    """A table of `options` on a server of game seed `seed`, played out by the greedy Scripted players while a
    spectator watches from the start: (results, blue, yellow, watcher), once the watcher has seen the game end."""
    async with running_server(seeds=(seed,)) as server:
        table, blue, yellow = await seated_pair(server, options)
        watcher = await Client.connect(server, "watcher", "spectator")
        await watcher.send(Spectate(table, last_event=0))
        results = await play_out(table, blue, yellow)
        with trio.fail_after(HANG_GUARD):
            await watcher.expect(GameOver)
    return results, blue, yellow, watcher


SEED = 4  # the greedy players of test_server_support.simulate end this Prison game within 400 actions


async def test_a_prison_game_between_two_players_ends_as_the_engine_plays_it(tmp_path, autojump_clock):
    trace = simulate(SEED, Options(set_name="prison"), 400)
    assert trace["outcome"] is not None  # ended by the rules, within the limit
    async with running_server(seeds=(SEED,), records_dir=tmp_path) as server:
        table, blue, yellow = await seated_pair(server, PRISON)
        results = await play_out(table, blue, yellow)
    result = results["B"].result
    expected = trace["outcome"]
    assert (result["winner"], result["vp"]) == (expected.winner, dict(expected.vp))
    assert blue.errors() == [] and yellow.errors() == []
    views = [e.event["view"] for e in blue.received if getattr(e, "event", {}).get("kind") == "view"]
    assert views[-1]["set"] == "prison" and views[-1]["table"]["set_name"] == "prison"
    assert any("slits" in v for v in views), "a revealed Prison room shows its arrow slits (PR-SLIT-01)"
    assert all("slits" not in v for v in views if all(not room["revealed"] for room in v["rooms"]))
    (path,) = tmp_path.iterdir()
    text = path.read_text()
    assert text.startswith(f"game seed={SEED} set=prison vp=5")
    state, lines = parse_record(text)
    for line in lines:
        state, _ = apply(state, line.action)
    assert state.options.set_name == "prison" and state.outcome == expected


async def test_prison_table_options_the_engine_refuses_are_refused(autojump_clock):
    """PR-OPT-02: a Prison game is played to 5, 6 or 7 VP; the beginner game is the base set's (BG-OPT-07)."""
    async with running_server() as server:
        client = await Client.connect(server, "ann")
        for options in (TableOptions(set_name="prison", target_vp=8), TableOptions(set_name="prison", beginner=True)):
            await client.send(CreateTable(options))
            error = await client.expect(Error)
            assert error.code == "bad_field" and "create_table" in error.message
        await client.send(CreateTable(TableOptions(set_name="prison", target_vp=7)))
        assert (await client.expect(TableCreated)).table


async def test_a_scenario_table_plays_to_the_scenarios_own_end(tmp_path, autojump_clock):
    """PR-SCEN-1-06 through the server: TableOptions.scenario "prison-1" (its set and VP target come with it); the
    greedy players of simulate() end seed 4 when one side has both figures out, and the server's game ends so."""
    seed = 4
    trace = simulate(seed, Options(set_name="prison", scenario="prison-1"), 100)
    assert trace["outcome"].reason == "both figures out (PR-SCEN-1-06)"
    async with running_server(seeds=(seed,), records_dir=tmp_path) as server:
        table, blue, yellow = await seated_pair(server, TableOptions(scenario="prison-1"))
        results = await play_out(table, blue, yellow)
    result = results["B"].result
    assert (result["winner"], result["reason"]) == (trace["outcome"].winner, "both figures out (PR-SCEN-1-06)")
    view = next(e.event["view"] for e in reversed(blue.received) if getattr(e, "event", {}).get("kind") == "view")
    assert (view["scenario"], view["set"], view["table"]["scenario"]) == ("prison-1", "prison", "prison-1")
    (path,) = tmp_path.iterdir()
    assert path.read_text().startswith(f"game seed={seed} set=prison vp=5 scenario=prison-1")
    async with running_server() as server:
        client = await Client.connect(server, "ann")
        await client.send(CreateTable(TableOptions(scenario="prison-4", beginner=True)))
        assert (await client.expect(Error)).code == "bad_field"


async def test_a_telepaths_naming_goes_between_the_declaration_and_the_committed_cards(autojump_clock):
    """PR-CHAR-TELEPATH-01 through the server: a Prison game in which the greedy players meet a Telepath in a single
    melee and that ends within 400 actions (simulate; the first such seed, 4 first, as find_seed does for its
    goals); the naming is a plain action of the Telepath's player, the cards that follow are committed and
    revealed, and the game ends as the engine alone plays it."""
    for seed in (4, *range(1, 40)):
        trace = simulate(seed, Options(set_name="prison"), 400)
        if "mind_named" in trace["first"] and trace["outcome"] is not None:
            break
    else:
        raise LookupError("no Prison game of the greedy players meets a Telepath's naming")
    async with running_server(seeds=(seed,)) as server:
        table, blue, yellow = await seated_pair(server, PRISON)
        results = await play_out(table, blue, yellow)
    expected = trace["outcome"]
    assert (results["B"].result["winner"], results["B"].result["vp"]) == (expected.winner, dict(expected.vp))
    assert blue.errors() == [] and yellow.errors() == []
    assert blue.events_of("mind_named") and yellow.events_of("mind_named")


async def test_a_mixed_game_with_a_spectator_ends_as_the_engine_plays_it(autojump_clock):
    """DT-109 through the server: TableOptions.set_name "mixed" (base set and Prison together); the greedy players
    end seed 3 within 300 actions (simulate) and a spectator sees the end."""
    seed = 3
    trace = simulate(seed, Options(set_name="mixed"), 300)
    assert trace["outcome"] is not None
    results, blue, yellow, watcher = await watched_game(seed, TableOptions(set_name="mixed"))
    expected = trace["outcome"]
    assert (results["B"].result["winner"], results["B"].result["vp"]) == (expected.winner, dict(expected.vp))
    assert blue.errors() == [] and yellow.errors() == [] and watcher.errors() == []
