"""Players' contributions to the deal (docs/protocol.md section 16, feature seed_contributions): the server
commits to its seed when the table is created, each player commits to a contribution before anything of that seed
shows, and the game is dealt from the mix of all three; a table where a player lacks the feature plays as before."""

from __future__ import annotations

from contextlib import asynccontextmanager
from dataclasses import asdict

import trio
from dungeon_twister.client.fairness import check_contributions, check_deal
from dungeon_twister.client.replay import Replay
from dungeon_twister.engine import Options, new_game, view as engine_view
from dungeon_twister.protocol import (Chat, ChatMessage, CreateTable, Error, GetRecord, GameRecord, Join, Joined, Leave,
                                      Left, OpponentCommit, OpponentReveal, PlayerConnection, ResumeInfo, Reveal,
                                      Snapshot, TableCreated, TableEvent, TableOptions, verify_seed)
from dungeon_twister.protocol.codec import encode_message, pack_map
from dungeon_twister.protocol.deal import DEAL_PURPOSE, deal_seed
from dungeon_twister.protocol.framing import frame
from dungeon_twister.protocol.views import SEED_CONTRIBUTIONS
from dungeon_twister.server.deal import DEAL_SECONDS

from test_server_prison import play_out
from test_server_support import HANG_GUARD, Client, running_server

BLUE, YELLOW = "b1" * 32, "f7" * 32
"""The contributions of these tests (any 64 hex digits work the same way)."""


@asynccontextmanager
async def guarded_server(**settings):
    """running_server, within HANG_GUARD mock seconds (reached only by a hang)."""
    with trio.fail_after(HANG_GUARD):
        async with running_server(**settings) as server:
            yield server


def contributing() -> PlayerConnection:
    return PlayerConnection(features=(SEED_CONTRIBUTIONS,))


class KeptContributing(PlayerConnection):
    """A resuming player's connection with the feature, which keeps the commitments of its previous connection."""

    def __init__(self, kept) -> None:
        super().__init__(features=(SEED_CONTRIBUTIONS,))
        self.kept = kept

    def _advance(self, message) -> None:
        super()._advance(message)
        if isinstance(message, Joined) and self.kept.game_id == message.table:
            self.commitments = self.kept


async def synced(client: Client) -> None:
    """The table has handled everything this client sent (a table chat comes back after it)."""
    await client.send(Chat("sync"))
    await client.expect(ChatMessage, lambda m: m.text == "sync")


def raw(message) -> bytes:
    """A message's frame as a hostile or careless client sends it (no check of the connection's)."""
    return frame(pack_map(encode_message(message)))


def errors(client: Client) -> list[str]:
    """The codes of the server's errors this client received."""
    return [e.code for e in client.received if isinstance(e, Error)]


def statuses(client: Client) -> dict | None:
    return (client.view or {}).get("table", {}).get("deal")


async def contribute(client: Client, contribution: str, until=lambda event: False):
    """Answer the deal exchange as the client app does (PlayerConnection.deal_step on each view and on the
    opponent's commitment) until `until(event)` or game_started; the event that ended it."""
    while True:
        view = client.view
        frame = client.conn.deal_step(view, contribution) if view is not None else None
        await send(client, frame)
        event = await client.recv()
        if event is None or until(event):
            return event
        if isinstance(event, TableEvent) and event.event.get("kind") == "game_started":
            await client.expect_event("view")
            return event
        if isinstance(event, OpponentCommit) and event.purpose == DEAL_PURPOSE:
            await send(client, client.conn.deal_step(None, contribution))


async def send(client: Client, frame: bytes | None) -> None:
    """Send a frame of the exchange; what the client had received when it revealed is kept (`before_reveal`)."""
    if frame is None:
        return
    if client.conn.deal_revealed and not hasattr(client, "before_reveal"):
        client.before_reveal = list(client.received)
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


async def test_both_players_contribute_and_the_game_is_dealt_from_the_mix(autojump_clock, tmp_path, capsys):
    """PR-SCEN-1 (Prison's first scenario) on a server of seed 4: the game is dealt from deal_seed(table, 4, B's,
    Y's), which the record's start line says; the end view names the server's seed, its nonce and both
    contributions under their own names (never `seed`), and the client's checks and `dt-client verify` pass."""
    async with guarded_server(seeds=(4,)) as server:
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
    assert "Deal: the seed mixes the server's seed, which opens its commitment made before the game, with the " \
        "players' contributions (verified): every random draw follows from it" in replay.panel()
    forged = text.replace(f"B={BLUE}", f"B={'0' * 64}")
    assert Replay.of(forged).deal is False, "a contribution that is not the one B revealed"
    from dungeon_twister.client.app import main
    path = tmp_path / "game.txt"
    path.write_text(text)
    assert main(["verify", str(path)]) == 0
    assert "deal: the seed mixes the server's seed, which opens its commitment made before the game, with the " \
        "players' contributions: every random draw follows from it" in capsys.readouterr().out
    path.write_text(text.replace("# deal-server-seed 4", "# deal-server-seed 5"))
    assert main(["verify", str(path)]) == 1, "a server seed other than the one committed to"
    assert "deal: NOT VERIFIED: the seed is not the mix" in capsys.readouterr().out


async def test_with_the_seeds_given_a_table_and_its_mixed_deal_are_the_same_each_run(autojump_clock):
    """ops32: the dealt seed hashes the table's id (section 16), which was random even on a server given its seeds
    (`dt-server --game-seeds`, the tests'), so a game with the players' contributions was dealt anew each run (the
    chaos test could not be replayed from its seed). With the seeds given, the id follows from the table's number
    and seed; without them, it stays random."""
    from dungeon_twister.server import Server
    from test_server_support import LOCAL

    runs = []
    for _ in range(2):
        async with guarded_server(seeds=(4,)) as server:
            assert server.seeded
            table, blue, _ = await mixed_pair(server, TableOptions(scenario="prison-1"))
            runs.append((table, {k: v for k, v in views_of(blue)[-1].items() if k not in ("seats", "table")}))
    assert runs[0] == runs[1] and runs[0][0].startswith("t1-") and len(runs[0][0]) == len("t1-") + 8
    assert not Server(LOCAL).seeded


async def test_a_player_without_the_feature_plays_as_before(autojump_clock):
    """Blue has the feature, Yellow does not: the game starts as soon as Yellow sits, from the server's seed (4),
    no view has a `deal` entry, and the end view reveals `seed` and `seed_nonce` as before (section 16)."""
    async with guarded_server(seeds=(4,)) as server:
        table, blue, yellow = await joined_pair(server, TableOptions(scenario="prison-1"), features=(True, False))
        for client in (blue, yellow):
            await client.expect_event("game_started")
            await client.expect_event("view")
        assert not any(isinstance(e, OpponentCommit) for e in blue.received)
        await play_out(table, blue, yellow)
        await blue.send(Leave())
        await blue.expect(Left)
        await blue.send(GetRecord(table))
        text = (await blue.expect(GameRecord)).text
    for client in (blue, yellow):
        assert all("deal" not in v["table"] and "contributions" not in v["table"] for v in views_of(client))
    last = views_of(yellow)[-1]
    assert last["table"]["seed"] == 4 and check_deal(last)[0]
    assert text.startswith("game seed=4 ") and "# seed-commitment " in text and "# deal" not in text
    assert Replay.of(text).deal is True and not Replay.of(text).deal_mixed


async def test_a_reveal_that_does_not_open_its_commitment_is_refused(autojump_clock):
    """Section 10 for the deal: a contribution other than the one committed to is reveal_mismatch (and a reveal
    before both commitments are in is reveal_early); the true one is then taken."""
    async with guarded_server(seeds=(4,)) as server:
        table, blue, yellow = await joined_pair(server, TableOptions())
        await contribute(blue, BLUE, until=lambda e: statuses(blue) == {"B": "committed", "Y": "commit"})
        choice, nonce = blue.conn.commitments.kept(DEAL_PURPOSE)
        await blue.send_raw(raw(Reveal(table, DEAL_PURPOSE, choice, nonce)))
        await synced(blue)
        assert errors(blue) == ["reveal_early"]
        await contribute(yellow, YELLOW, until=lambda e: isinstance(e, OpponentCommit))
        await blue.expect(OpponentCommit)
        await blue.send_raw(blue.conn.send(Reveal(table, DEAL_PURPOSE, "0" * 64, nonce)))
        await synced(blue)
        assert errors(blue) == ["reveal_early", "reveal_mismatch"]
        assert statuses(blue)["B"] == "committed", "still awaited"
        with trio.fail_after(HANG_GUARD):
            async with trio.open_nursery() as nursery:
                nursery.start_soon(contribute, blue, BLUE)
                nursery.start_soon(contribute, yellow, YELLOW)
        assert server.lobby.tables[table].play.dealt == deal_seed(table, 4, BLUE, YELLOW)


async def test_a_player_who_never_reveals_contributes_nothing_once_the_deadline_passes(autojump_clock):
    """Yellow commits and never reveals: DEAL_SECONDS after both commitments (the table's clock, a MockClock
    here), Yellow's contribution is the empty one, the game starts dealt from the mix of the server's seed and
    Blue's alone, and a late reveal of Yellow's is refused."""
    async with guarded_server(seeds=(4,)) as server:
        table, blue, yellow = await joined_pair(server, TableOptions())
        await contribute(blue, BLUE, until=lambda e: statuses(blue) == {"B": "committed", "Y": "commit"})
        await contribute(yellow, YELLOW, until=lambda e: (statuses(yellow) or {}).get("Y") == "committed")
        before = trio.current_time()
        async with trio.open_nursery() as nursery:
            nursery.start_soon(contribute, blue, BLUE)
            nursery.start_soon(yellow.seen, TableEvent, lambda e: e.event.get("kind") == "game_started")
        assert trio.current_time() - before >= DEAL_SECONDS
        assert statuses(blue) == {"B": "revealed", "Y": "none"}
        play = server.lobby.tables[table].play
        assert play.dealt == deal_seed(table, 4, BLUE, "") != deal_seed(table, 4, BLUE, YELLOW)
        await yellow.send_raw(raw(Reveal(table, DEAL_PURPOSE, *yellow.conn.commitments.kept(DEAL_PURPOSE))))
        await synced(yellow)
        assert errors(yellow) == ["bad_purpose"]
        stored = [line for line, _ in server.storage.table(table).journal]
    assert stored[:2] == ["# deal-open B=commit Y=commit", stored[1]] and "# deal-none Y" in stored
    assert f"# dealt seed={play.dealt} B={BLUE} Y=-" in stored


async def test_a_player_who_never_commits_leaves_the_other_to_reveal_alone(autojump_clock):
    """Yellow has the feature but never commits: after DEAL_SECONDS he contributes nothing, the views say so, and
    Blue's client reveals without an opponent's commitment (PlayerConnection.deal_step)."""
    async with guarded_server(seeds=(4,)) as server:
        table, blue, yellow = await joined_pair(server, TableOptions())
        await contribute(blue, BLUE)
        assert statuses(blue) == {"B": "revealed", "Y": "none"}
        assert server.lobby.tables[table].play.dealt == deal_seed(table, 4, BLUE, "")
        assert not any(isinstance(e, OpponentReveal) for e in yellow.received), "he was bound to nothing"


async def test_the_exchange_outlives_a_restart(tmp_path, autojump_clock):
    """Both committed and Blue revealed when the server stopped: the table's journal says where the exchange stood,
    the restarted server sends Yellow Blue's commitment again, Yellow reveals, and the game is dealt from the mix
    of all three, journaled before game_started."""
    async with guarded_server(seeds=(4,), data_dir=tmp_path, data_sync="normal") as server:
        table, blue, yellow = await joined_pair(server, TableOptions())
        await contribute(blue, BLUE, until=lambda e: statuses(blue) == {"B": "committed", "Y": "commit"})
        await contribute(yellow, YELLOW, until=lambda e: (statuses(yellow) or {}).get("Y") == "committed")
        await contribute(blue, BLUE, until=lambda e: statuses(blue) == {"B": "revealed", "Y": "committed"})
        kept = {"B": blue.conn.commitments, "Y": yellow.conn.commitments}
        resume = {"B": ResumeInfo(blue.token, table, blue.conn.last_event),
                  "Y": ResumeInfo(yellow.token, table, yellow.conn.last_event)}
    async with guarded_server(seeds=(9,), data_dir=tmp_path, data_sync="normal") as server:
        restored = server.lobby.tables[table]
        assert restored.status == "waiting" and restored.play.deal.status == {"B": "revealed", "Y": "committed"}
        clients = {}
        for seat, name in (("B", "ann"), ("Y", "bob")):
            clients[seat] = await Client.connect(server, name, resume=resume[seat], conn=KeptContributing(kept[seat]))
            snapshot = await clients[seat].expect(Snapshot)
            assert not snapshot.view["started"] and snapshot.view["table"]["deal"]["B"] == "revealed"
        again = await clients["Y"].seen(OpponentCommit)
        assert (again.purpose, again.seat) == (DEAL_PURPOSE, "B")
        async with trio.open_nursery() as nursery:
            nursery.start_soon(contribute, clients["Y"], YELLOW)
            nursery.start_soon(clients["B"].expect_event, "game_started")
        assert restored.play.dealt == deal_seed(table, 4, BLUE, YELLOW), "the first server's seed, not the new one's"
        stored = [line for line, _ in server.storage.table(table).journal]
    dealt = stored.index(f"# dealt seed={restored.play.dealt} B={BLUE} Y={YELLOW}")
    assert [line.split(" ")[1] + line.split(" ")[2] for line in stored[1:dealt]] == [
        "commitB", "commitY", "revealB", "revealY"], "the exchange, in the order it happened, across the restart"
    assert stored[0] == "# deal-open B=commit Y=commit" and not any("deal" in line for line in stored[dealt + 1:])


def masked(value):
    """What a seat may learn before it is bound to its contribution, with what differs by design taken out: the
    commitments (hashes over 32 random bytes), the random table id, session id and resume token."""
    if isinstance(value, dict):
        return {key: "*" if key in ("seed_commitment", "commitment", "table", "id", "session", "token") and isinstance(
            value[key], (str, bytes)) else masked(item) for key, item in value.items()}
    if isinstance(value, list):
        return [masked(item) for item in value]
    return value


async def frames_before_reveal(seed: int, yellow_part: str, options: TableOptions) -> list:
    """What Blue receives, from his first frame until he reveals, at a table of a server of seed `seed` whose
    Yellow contributes `yellow_part`."""
    async with guarded_server(seeds=(seed,)) as server:
        table, blue, yellow = await joined_pair(server, options)
        async with trio.open_nursery() as nursery:
            nursery.start_soon(contribute, blue, BLUE)
            nursery.start_soon(contribute, yellow, yellow_part)
        assert server.lobby.tables[table].play.dealt == deal_seed(table, seed, BLUE, yellow_part)
    return [(type(e).__name__, masked(asdict(e))) for e in blue.before_reveal]


async def test_nothing_of_the_server_seed_or_the_other_contribution_shows_before_the_reveal(autojump_clock):
    """Two servers of different seeds (1 and 2), whose Yellows contribute differently: everything Blue receives
    until he reveals is the same (once the commitments and random ids are masked), on a table of the mixed
    sets, whose views show the team the seed draws (DT-109) once the game is dealt: before the deal, the views
    are those of a placeholder game (seed 0)."""
    options = TableOptions(set_name="mixed")
    one = await frames_before_reveal(1, YELLOW, options)
    two = await frames_before_reveal(2, "0" * 64, options)
    assert one == two
    kinds = [kind for kind, _ in one]
    assert kinds.count("TableEvent") >= 4, kinds
    assert one[-1][1]["event"]["view"]["table"]["deal"] == {"B": "committed", "Y": "committed"}, "up to the reveal"
    from dungeon_twister.engine import view
    assert view(new_game(Options(set_name="mixed"), 1), "B") != view(new_game(Options(set_name="mixed"), 2), "B"), \
        "the views of these two deals differ: the test would see a leak"
