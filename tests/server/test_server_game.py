"""A whole game over TCP between two scripted players, watched by a spectator; bots seated through seat_bot."""

import trio
from dungeon_twister.engine import Options, apply
from dungeon_twister.engine.boardgame.records import parse_record
from dungeon_twister.protocol import (
    Action,
    ActionOk,
    ActionRefused,
    Error,
    GameOver,
    Join,
    Joined,
    Leave,
    Left,
    OpponentCommit,
    OpponentReveal,
    RevealMismatch,
    SeatBot,
    Snapshot,
    Spectate,
    TableEvent,
    TableOptions,
)
from dungeon_twister.server import play as play_module
from dungeon_twister.server.records import record_text, write_record
from dungeon_twister.client.replay import verified_rounds, verified_seed
from test_server_resume import play_until
from test_server_support import (HANG_GUARD, Client, Scripted, find_seed, running_server, seated_pair, simulate,
                                 watching)

VIEW_KEYS = {"legal", "secret", "seats", "table", "started"}


def table_events(client: Client) -> list[dict]:
    return [event.event for event in client.received if isinstance(event, TableEvent)]


def test_record_files_are_private_like_the_data_directory(tmp_path, monkeypatch):
    """pt21 A11: records_dir was made drwxr-xr-x and each record -rw-r--r--, a private table's game too (which the
    server itself gives only with the join code). Under the usual umask 022, the directory the server makes is
    0700 and each record 0600, as the data directory and its database; a directory the admin made keeps its
    mode, and a temporary file left by a crash does not pass its mode on."""
    import os

    from dungeon_twister.server import records

    monkeypatch.setattr(records.time, "strftime", lambda _format: "20261130-013109")
    old = os.umask(0o022)
    try:
        made = tmp_path / "records" / "games"
        path = write_record(made, "t4-30662b47", "game seed=1\n")
        assert path == made / "20261130-013109-t4-30662b47.txt"
        assert path.read_text(encoding="utf-8") == "game seed=1\n" and list(made.iterdir()) == [path]
        assert oct(made.stat().st_mode & 0o777) == "0o700" and oct(path.stat().st_mode & 0o777) == "0o600"
        own = tmp_path / "own"
        own.mkdir(mode=0o750)
        left = own / "20261130-013109-t4-30662b47.tmp"
        left.write_text("left by a crash")
        left.chmod(0o644)
        again = write_record(own, "t4-30662b47", "game seed=2\n")
        assert list(own.iterdir()) == [again] and again.read_text(encoding="utf-8") == "game seed=2\n"
        assert oct(own.stat().st_mode & 0o777) == "0o750" and oct(again.stat().st_mode & 0o777) == "0o600"
    finally:
        os.umask(old)

async def test_a_complete_game_between_scripted_players_and_a_spectator(tmp_path, monkeypatch, autojump_clock):
    seed = find_seed("game_over", True, 300, hint=16)
    written, stored = [], []

    def spy_write(directory, table_id, text):  # when the record is written, the last step's frames have left
        written.append((server.holding, list(server.held)))
        stored.append(record_text(server.lobby.store.table(table_id)))  # what `dt-server records` prints
        return write_record(directory, table_id, text)

    monkeypatch.setattr(play_module, "write_record", spy_write)
    async with running_server(seeds=(seed,), records_dir=tmp_path) as server:
        table, blue, yellow = await seated_pair(server, TableOptions(beginner=True))
        watcher = await Client.connect(server, "watcher", "spectator")
        await watcher.send(Spectate(table, last_event=0))
        results = {}

        async def play(scripted: Scripted) -> None:
            results[scripted.seat] = await scripted.play(table, until=lambda e: isinstance(e, GameOver))

        async def watch() -> None:
            results["watcher"] = await watcher.expect(GameOver)

        with trio.fail_after(HANG_GUARD):
            async with trio.open_nursery() as nursery:
                nursery.start_soon(play, Scripted(blue, "B", 1))
                nursery.start_soon(play, Scripted(yellow, "Y", 2))
                nursery.start_soon(watch)

    result = results["B"].result
    assert result == results["Y"].result == results["watcher"].result
    # Through the server, the protocol and commit-reveal, the players played the very game the engine alone gives.
    trace = simulate(seed, Options(beginner=True), 300)
    expected = trace["outcome"]
    assert (result["winner"], result["vp"], result["reason"]) == (expected.winner, dict(expected.vp), expected.reason)
    for client in (blue, yellow, watcher):
        assert client.errors() == [], client.errors()
        assert not any(isinstance(event, RevealMismatch) for event in client.received)

    # Each player got a snapshot with the server's keys after joining; every event batch ends with a view.
    for client, seat in ((blue, "B"), (yellow, "Y")):
        snapshot = next(event for event in client.received if isinstance(event, Snapshot))
        assert VIEW_KEYS <= set(snapshot.view) and snapshot.view["viewer"] == seat
        assert snapshot.view["table"]["id"] == table and snapshot.view["table"]["beginner"] is True
        assert table_events(client)[-1]["kind"] == "view"
    # All viewers share the numbering: the spectator (who asked for everything from 0, and got a snapshot, as the
    # table kept no spectator's rendering of the events before anyone watched) saw every number after it.
    start = next((event.n for event in watcher.received if isinstance(event, Snapshot)), 0)
    numbers = [event.n for event in watcher.received if isinstance(event, TableEvent)]
    assert numbers == list(range(start + 1, start + len(numbers) + 1))
    assert numbers[-1] == max(e.n for e in blue.received if isinstance(e, TableEvent))
    # The spectator sees the spectators' view only, and can never act.
    views = [event["view"] for event in table_events(watcher) if event["kind"] == "view"]
    assert views and all(v["viewer"] is None and v["legal"] == [] and v["secret"] is None for v in views)
    kinds = {event["kind"] for event in table_events(watcher)}
    assert {"teams_revealed", "turn_started", "game_over", "hidden", "team_chosen"} <= kinds
    # Secret choices went through commit-reveal; the team reveals came only after the teams were revealed.
    for client in (blue, yellow):
        team_reveal = next(i for i, e in enumerate(client.received)
                           if isinstance(e, OpponentReveal) and e.purpose == "team")
        revealed = next(i for i, e in enumerate(client.received)
                        if isinstance(e, TableEvent) and e.event.get("kind") == "teams_revealed")
        assert revealed < team_reveal
        assert any(isinstance(e, OpponentCommit) and e.purpose == "team" for e in client.received)
        combats = {e.purpose for e in client.received if isinstance(e, OpponentReveal) and e.purpose != "team"}
        assert len(combats) == len(watcher.events_of("combat_resolved"))
        assert bool(combats) == ("combat_declared" in trace["first"])

    # The record was written, once the game_over step had committed and its frames had left (Table.after_step:
    # nobody waits for the file); replayed with the engine it gives the same result.
    assert written == [(False, [])]
    (path,) = tmp_path.iterdir()
    text = path.read_text()
    assert "# commit B team " in text and "# reveal Y team " in text
    # the very text `dt-server records` prints, so that `dt-client verify FILE` checks its deal and its reveals
    # (play-test pt23: without `# table` and the commitment it said "0 reveals" and "no commitment")
    assert [text] == stored and text.splitlines()[1] == f"# table {table}" and "# final " in text
    assert verified_seed(text) is True and verified_rounds(text)[0] >= 2 and verified_rounds(text)[1] == []
    state, lines = parse_record(text)
    for line in lines:
        state, _ = apply(state, line.action)
    assert state.outcome.winner == result["winner"] and dict(state.outcome.vp) == result["vp"]


async def test_a_bot_is_seated_through_the_protocol_and_the_leaver_resigns(autojump_clock):
    with trio.fail_after(HANG_GUARD):
        async with running_server(seeds=(5,)) as server:
            ann = await Client.connect(server, "ann")
            table = server.lobby.create_table(TableOptions(beginner=True), "ann").id
            other = server.lobby.create_table(TableOptions(beginner=True), "ann").id
            bob = await Client.connect(server, "bob")
            await bob.send(Join(other, "B"))
            await bob.expect(Joined)
            await bob.send(SeatBot(other, "Y", "random"))  # only the table's creator may seat a bot
            assert (await bob.expect(Error)).code == "not_allowed"
            await bob.send(Leave())
            await bob.expect(Left)

            await ann.send(Join(table, "B"))
            await ann.expect(Joined)
            await ann.send(SeatBot(table, "Y", "greedy"))
            joined = await ann.expect_event("player_joined")
            assert joined["seat"] == "Y" and joined["name"].startswith("greedy-bot-")
            await ann.expect_event("game_started")
            # The bot commits its team through the protocol; ann plays on until the first turn, then leaves.
            view = await Scripted(ann, "B", 3).play(table, stop=lambda v: v["phase"] in ("card", "main"))
            assert view["seats"]["Y"] == joined["name"]
            assert any(isinstance(e, OpponentCommit) and e.purpose == "team" for e in ann.received)
            await ann.send(Leave())
            over = await ann.expect(GameOver)
            assert over.result["winner"] == "Y" and over.result["reason"] == "resigned"
            await ann.expect(Left)
            while table in server.lobby.tables:  # the bot leaves too, then the table closes
                await trio.sleep(0.01)


async def test_a_join_at_a_table_whose_game_is_over_is_refused_saying_so(autojump_clock):
    """Play-test pt24 F11: `join 1` at a finished table was refused "every seat is taken", beside the point; and
    with the seat of a player who had left free, a newcomer would have been seated at a finished game. Both are
    refused seat_taken, "the game at this table is over"."""
    with trio.fail_after(HANG_GUARD):
        async with running_server(seeds=(5,)) as server:
            table, blue, yellow = await seated_pair(server, TableOptions(beginner=True))
            watcher = await watching(server, table)  # (keeps the table open: Yellow keeps a seat at a new one, srv30)
            await blue.send(Leave())  # before the first turn: the game is aborted (over), and seat B is free
            assert (await yellow.expect(GameOver)).result["reason"] == "aborted"
            await blue.expect(Left)
            cy = await Client.connect(server, "cy")
            for seat in ("B", "Y", None):
                await cy.send(Join(table, seat))
                refused = await cy.expect(Error)
                assert (refused.code, refused.message) == ("seat_taken", "the game at this table is over")
            assert server.lobby.tables[table].seating.seats["B"].session is None


async def test_a_refused_team_is_replaced_by_a_legal_team_drawn_in_secret(autojump_clock):
    """BG-SETUP-04: a revealed team the rules refuse is refused with its rule; having no rule fallback, the
    server plays one of the seat's legal teams drawn with its secret seed (DT-236: the table's draw for that seat
    and purpose), and nobody commits twice for one purpose."""
    with trio.fail_after(HANG_GUARD):
        async with running_server(seeds=(21,)) as server:
            table, blue, yellow = await seated_pair(server, TableOptions(beginner=True))
            legal = blue.view["legal"]
            play = server.lobby.tables[table].play
            drawn = play.rules.format_action(play._any_choice("B", "team"))
            await blue.commit("team", "team b0=TH")  # valid notation, but not a team
            await yellow.commit("team", yellow.view["legal"][0])
            for client in (blue, yellow):
                await client.expect(OpponentCommit)
                await client.reveal("team")
            refused = await blue.expect(ActionRefused)
            assert (refused.action_id, refused.code, refused.rule) == ("team", "illegal_action", "BG-SETUP-04")
            players = {"B": Scripted(blue, "B", 1), "Y": Scripted(yellow, "Y", 2)}
            for player in players.values():
                player.committed.add("team")
            await play_until(table, players, lambda v: v["phase"] == "card", first=True)
            for client in (blue, yellow):
                reveal = await client.seen((OpponentReveal, RevealMismatch))
                assert isinstance(reveal, OpponentReveal) and reveal.purpose == "team"
                assert client.errors() == []
            chosen = blue.events_of("team_chosen")
            mine = next(e for e in chosen if e.get("team"))
            played = "team " + " ".join(f"{sq}={code}" for sq, code in sorted(mine["team"].items()))
            assert played == drawn and played in legal and "; " + drawn + " was played instead" in refused.message


async def test_who_has_chosen_in_secret_is_published_with_each_commitment(autojump_clock):
    """Play-test (the Card Game's hide, a combat card): the player still to choose, and the spectators, were never
    told that the other had chosen; `opponent_commit` comes only once both have (docs/protocol.md section 10).
    At the table a card laid face down is seen laid: each commitment publishes a view whose `table.committed`
    names the seats that have chosen for the pending choice, to everyone, and the choice not at all (the same
    view whatever was chosen); once the choices are applied the key is gone."""
    with trio.fail_after(HANG_GUARD):
        async with running_server(seeds=(21,)) as server:
            table, blue, yellow = await seated_pair(server, TableOptions(beginner=True))
            watcher = await watching(server, table)
            assert "committed" not in blue.view["table"]
            await blue.commit("team", blue.view["legal"][-1])
            for client in (blue, yellow, watcher):
                view = (await client.expect(TableEvent, lambda e: e.event.get("kind") == "view")).event["view"]
                assert view["table"]["committed"] == ["B"] and view["secret"] in (None, "team")
            mine, theirs = blue.events_of("view")[-1], yellow.events_of("view")[-1]
            assert "team b0" not in repr(theirs) and "team b0" not in repr(watcher.events_of("view")[-1])
            assert mine["view"]["table"] == theirs["view"]["table"]
            await yellow.commit("team", yellow.view["legal"][0])
            view = (await watcher.expect(TableEvent, lambda e: e.event.get("kind") == "view")).event["view"]
            assert view["table"]["committed"] == ["B", "Y"]
            for client in (blue, yellow):
                await client.expect(OpponentCommit)
                await client.reveal("team")
            view = (await watcher.expect(TableEvent, lambda e: e.event.get("kind") == "view"
                                         and e.event["view"]["phase"] != "team")).event["view"]
            assert "committed" not in view["table"]


async def test_a_game_that_waits_keeps_its_memo_and_legal_table_packed(autojump_clock):
    """Once a step's frames are written (Table.after_step), the game's move memo is packed and its legal table
    kept as one string (Game.pack, issue 7 row 5); the next action sent as a listed text is still the generated
    one, applied and answered."""
    with trio.fail_after(HANG_GUARD):
        async with running_server(seeds=(21,)) as server:
            table, blue, yellow = await seated_pair(server, TableOptions())
            players = {"B": Scripted(blue, "B", 1), "Y": Scripted(yellow, "Y", 2)}
            views = await play_until(table, players, lambda v: v["phase"] == "main" and v["ap"] < 3, first=True)
            ((seat, view),) = views.items()
            game = server.lobby.tables[table].play.game
            entries = [entry for _, entry in game.state.memo.entries.values()]
            assert entries and all(entry.actions.routes is None and entry.actions._packed is not None
                                   for entry in entries)
            legal = game._legal[seat]
            assert legal.texts is None and list(legal) == view["legal"]
            moves = [text for text in view["legal"] if text.startswith("move ")]
            expected = game.actions(seat)[moves[-1]]
            client = {"B": blue, "Y": yellow}[seat]
            await client.send(Action(table, "packed-1", moves[-1]))
            answer = await client.expect((ActionOk, ActionRefused))
            assert isinstance(answer, ActionOk) and answer.action_id == "packed-1"
            assert moves[-1] in game.record.last and game.state.tokens[expected.token].square == expected.dest
