"""The Card Game through the protocol and the server (TableOptions.game "cards", TableOptions.tutorial;
docs/protocol.md section 6): the same tables, seats, spectators, commit-reveal and records as the board game, with
the card game's rules (engine/cards) behind them."""

import functools

import trio

from dungeon_twister.engine.cards import CardOptions
from dungeon_twister.protocol import (CreateTable, Error, GameOver, OpponentReveal, Spectate, TableCreated,
                                      TableOptions)
from test_server_prison import play_out
from test_server_support import Client, running_server, seated_pair, simulate

@functools.cache
def card_seed(options: CardOptions, goal: str) -> int:
    """A game seed where the greedy players of simulate() reach the event `goal` and end the game within 3,000
    actions: so that the tests do not hang on one seed as the rules engine and its bots evolve."""
    for seed in range(1, 40):
        trace = simulate(seed, options, 3000)
        if trace["outcome"] is not None and goal in trace["first"]:
            return seed
    raise LookupError(f"no seed of {options} reaches {goal!r}")


async def test_CG_TUT2_a_card_table_with_a_spectator_plays_to_the_end_as_the_engine_plays_it(autojump_clock):
    """Tutorial 2 (melee, CG-TUT2) over the server: the start characters' hiding and facing and every combat
    card go through commit-reveal (purposes "hide", "face", "combat-N"), the spectator sees the game end, and the
    result is the engine's own (simulate with the same players)."""
    seed = card_seed(CardOptions(2), "combat")
    trace = simulate(seed, CardOptions(2), 3000)
    assert trace["outcome"] is not None and "combat" in trace["first"]
    async with running_server(seeds=(seed,)) as server:
        table, blue, yellow = await seated_pair(server, TableOptions(game="cards", tutorial=2))
        watcher = await Client.connect(server, "watcher", "spectator")
        await watcher.send(Spectate(table, last_event=0))
        async with trio.open_nursery() as nursery:  # the spectator reads as the game goes (its queue is bounded)
            nursery.start_soon(watcher.expect, GameOver)
            results = await play_out(table, blue, yellow)
    expected = trace["outcome"]
    assert (results["B"].result["winner"], results["B"].result["vp"]) == (expected.winner, dict(expected.vp))
    assert blue.errors() == [] and yellow.errors() == [] and watcher.errors() == []
    views = [e.event["view"] for e in blue.received if getattr(e, "event", {}).get("kind") == "view"]
    assert views[-1]["game"] == "cards" and views[-1]["table"]["game"] == "cards"
    assert views[-1]["table"]["target_vp"] == 3  # CG-TUT2: the tutorial's own target
    purposes = {e.purpose for e in yellow.received if isinstance(e, OpponentReveal)}
    assert {"hide", "face"} <= purposes and any(p.startswith("combat-") for p in purposes)
    for client in (blue, yellow):  # CG-TUT1-04/05: which characters lie face down is not told before the teams
        kinds = [("reveal", e.purpose) if isinstance(e, OpponentReveal) else e.event.get("kind")
                 for e in client.received if isinstance(e, OpponentReveal) or getattr(e, "event", None)]
        assert kinds.index(("reveal", "hide")) > kinds.index("teams") > kinds.index("faced")
    # the spectator never sees a figure still face down on a start zone, nor a card in hand
    watched = [e.event["view"] for e in watcher.received if getattr(e, "event", {}).get("kind") == "view"]
    assert all("my_cards" not in v and v["legal"] == [] for v in watched)
    assert all(f["where"] != "hand" for v in watched for f in v["figures"])


async def test_CG_TUT3_shots_over_the_server_end_as_the_engine_plays_them(autojump_clock):
    seed = card_seed(CardOptions(3), "shoot")
    trace = simulate(seed, CardOptions(3), 3000)
    async with running_server(seeds=(seed,)) as server:
        table, blue, yellow = await seated_pair(server, TableOptions(game="cards", tutorial=3))
        results = await play_out(table, blue, yellow)
    expected = trace["outcome"]
    assert (results["Y"].result["winner"], results["Y"].result["vp"]) == (expected.winner, dict(expected.vp))
    assert dict(expected.vp)[expected.winner] == 4 and results["Y"].result["reason"] == "vp"  # CG-TUT3-01: 4 VP


async def test_board_game_options_on_a_card_table_are_refused_with_the_reason(autojump_clock):
    async with running_server() as server:
        client = await Client.connect(server, "ann")
        for options, why in ((TableOptions(game="cards", set_name="prison"), "set_name"),
                             (TableOptions(game="cards", beginner=True), "beginner"),
                             (TableOptions(game="cards", timers=True), "CG-OPT-01"),
                             (TableOptions(game="cards", target_vp=6), "its own VP target"),
                             (TableOptions(tutorial=2), "card game")):
            await client.send(CreateTable(options))
            error = await client.expect(Error)
            assert error.code == "bad_field" and why in error.message, (options, error.message)
        await client.send(CreateTable(TableOptions(game="cards")))
        assert (await client.expect(TableCreated)).table


async def test_a_card_tutorial_between_two_people_is_not_rated(autojump_clock):
    """The tutorials are practice (Family.rated): the game ends without a `ratings` event and the players keep
    no rating, where a board game between the same two would rate them (test_server_ratings.py)."""
    seed = card_seed(CardOptions(3), "shoot")
    async with running_server(seeds=(seed,)) as server:
        table, blue, yellow = await seated_pair(server, TableOptions(game="cards", tutorial=3))
        await play_out(table, blue, yellow)
        assert blue.events_of("game_over") and not blue.events_of("ratings")
        assert server.lobby.store.rating("ann") is None and server.lobby.store.rating("bob") is None
