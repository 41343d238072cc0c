"""DT-266, DT-271: a Card Game table in play on a server of before DT-266 (main at e55494a) is restored by today's
server after an upgrade, and its game goes on. Its journal names places of face-down rooms where today's rules
point icons (the setup's `face`, turns `^c2` and steps along the start zone `B1^a1`); recovery.replay reads each
such line as the icon lying on that place (Family.legacy_action), and a `face` choice committed before the
restart is read so too when it is opened after it.

The stores are data/cards-e55494a-stores.json: two tables as dt-server at e55494a stored them (its own test
players, a tutorial-1 game of server seed 1), read back with its storage API; they are written here through
today's storage API, unchanged (the schema is the same)."""

import itertools
import json
from pathlib import Path

import pytest
import trio
from dungeon_twister.client.replay import Replay
from dungeon_twister.engine.cards import CardOptions, Face
from dungeon_twister.engine.cards.maze import slot_zones, start_slot
from dungeon_twister.engine.families import CARDS, family_of_record
from dungeon_twister.protocol import GameOver, Joined, OpponentCommit, ResumeInfo, RevealMismatch, Snapshot
from dungeon_twister.protocol.commit_round import PlayerCommitments
from dungeon_twister.server.game import Game, Refusal
from dungeon_twister.server.records import record_text
from dungeon_twister.server.storage import StoredTable, open_storage
from test_server_durable import server_on
from test_server_support import REAL_TIME_HANG_GUARD, Client, KeepingConnection, Scripted

STORES = json.loads((Path(__file__).parent / "data" / "cards-e55494a-stores.json").read_text())


def stored(data_dir: Path, kept: dict) -> str:
    """The old server's table `kept`, written into a new store of `data_dir` as it stood; its id."""
    fields = {k: kept[k] for k in ("id", "number", "options", "seed", "creator", "join_code", "created",
                                   "seed_nonce")}
    store = open_storage(data_dir)
    with store.transaction():
        store.add_table(StoredTable(**fields))
        for seat, (name, bot) in kept["seats"].items():
            store.set_seat(kept["id"], seat, name, bot)
        for digest, seat, name in kept["tokens"]:
            store.add_token(digest, kept["id"], seat, name)
        for line, data in kept["journal"]:
            store.add_line(kept["id"], line, data)
        store.reserve_events(kept["id"], kept["events"])
    store.close()
    return kept["id"]


async def resumed(server, kept: dict, seat: str, name: str, conn=None) -> Client:
    client = await Client.connect(server, name, resume=ResumeInfo(kept["tokens_plain"][seat], kept["id"],
                                                                    kept["last_event"][seat]), conn=conn)
    assert (await client.expect(Joined)).seat == seat
    await client.expect(Snapshot)
    return client


async def played_out(table: str, blue: Client, yellow: Client, committed: set = frozenset()) -> dict:
    """Both seats played on by the greedy Scripted players to the end (their action ids after the old ones;
    `committed`: the secret choices their clients made already)."""
    results = {}

    async def play(scripted: Scripted) -> None:
        scripted.actions = itertools.count(1000)  # (an id answered before is answered as then: DT-052)
        scripted.committed = set(committed)
        results[scripted.seat] = await scripted.play(table, until=lambda e: isinstance(e, GameOver))

    async with trio.open_nursery() as nursery:
        nursery.start_soon(play, Scripted(blue, "B", 1))
        nursery.start_soon(play, Scripted(yellow, "Y", 2))
    return results


def old_facings(position: str) -> dict:
    """{figure: (seat, column, facing zone)} of the start characters of an old position (dtcg1 JSON)."""
    figures = json.loads(position.split(" ", 1)[1])["figures"]
    return {f[0]: (f[1], f[4], tuple(f[5])) for f in figures if f[3] == "start"}


async def test_DT_266_DT_271_a_card_table_in_play_on_an_older_server_is_restored_and_goes_on(tmp_path):
    """The old server stopped 24 actions into a tutorial-1 game, Yellow to act: its journal's `face` lines
    (`face bMK:d1 bSN:d1`) and 8 move lines turning or stepping along the start zone towards face-down rooms
    (`move bMK ^c2`, `move bMK B1^a1`...) are refused by today's rules (CG-START-02/04/05) and read as the icons
    lying there: the table is restored (not `table_not_restored`), in the very position the old server had but
    for each start character's facing of a face-down room, now the icon lying on the place it faced. Both players
    resume with their tokens and play the game to its end; its record (the old lines as stored, then the new
    ones) replays with the engine and with dt-client's replay to the same end, every reveal opening its commitment."""
    kept = STORES["past"]
    table = stored(tmp_path, kept)
    with trio.fail_after(REAL_TIME_HANG_GUARD):
        async with server_on(tmp_path) as server:
            assert server.lobby.tables[table].status == "playing"
            game = server.lobby.tables[table].play.game
            state = game.state
            assert game.record.actions == 24 and list(state.to_act) == kept["to_act"] == ["Y"]
            old, new = old_facings(kept["position"]), {f.id: f for f in state.figures if f.where == "start"}
            assert sorted(old) == sorted(new) == ["bMK", "bSN"]
            for fid, (seat, col, zone) in old.items():  # both on B2 facing c1 of blue1, face down
                slot = start_slot(seat, col, state.length)
                assert not state.rooms[slot].revealed and zone in slot_zones(slot)
                assert new[fid].facing == state.maze.icon(zone) and new[fid].facing in "TSCR"
            position = json.loads(CARDS.format_position(state).split(" ", 1)[1])
            expected = json.loads(kept["position"].split(" ", 1)[1])
            for f in expected["figures"]:
                if f[0] in old:
                    f[5] = state.maze.icon(tuple(f[5]))
            assert position == expected

            blue = await resumed(server, kept, "B", "ann")
            yellow = await resumed(server, kept, "Y", "bob")
            results = await played_out(table, blue, yellow)
            assert blue.errors() == [] and yellow.errors() == []
            final = server.lobby.tables[table].play.game.state
            assert final.outcome is not None and results["B"].result["winner"] == final.outcome.winner
            journal = server.storage.table(table).journal
            text = record_text(server.storage.table(table))  # what `dt-client replay TABLE` fetches
    assert journal[:len(kept["journal"])] == [tuple(x) for x in kept["journal"]]  # kept as they were
    assert "B: face bMK:d1 bSN:d1" in text and "B: move bMK ^c2" in text  # the old lines, as they were
    family = family_of_record(text)
    start, lines = family.parse_record(text)
    for _, start, _ in family.replayed(start, lines):
        pass
    assert start.outcome == final.outcome and CARDS.format_position(start) == CARDS.format_position(final)
    replay = Replay.of(text)  # dt-client replay: the same game, and every reveal opens its commitment
    assert CARDS.format_position(replay.states[-1]) == CARDS.format_position(final)
    assert replay.rounds[1] == [] and replay.rounds[0] >= 4


def kept_commitments(kept: dict, seat: str, choice: str, nonce: str) -> PlayerCommitments:
    """What the seat's client kept before the restart: its `face` choice and nonce, and the opponent's
    commitments the old server had forwarded (the journal's `commit` lines: `hide`, whose reveal comes with the
    teams, DT-043, and `face`)."""
    commitments = PlayerCommitments(kept["id"], seat)
    commitments.commit("face", choice, bytes.fromhex(nonce))
    for _, data in kept["journal"]:
        if data and data["k"] == "commit" and data["seat"] != seat:
            commitments.opponent_committed(data["purpose"], bytes.fromhex(data["commitment"]))
    return commitments


async def test_DT_266_DT_271_a_face_round_committed_before_the_upgrade_opens_after_it(tmp_path):
    """The old server stopped inside the `face` round: both committed, Blue revealed `face bMK:d1 bSN:d1` (its
    commitment is of that text: the reveal verifies against it as it was), Yellow not yet. Restored, Yellow opens
    its commitment (`face yMK:c3 ySN:b4`, the old text) after the upgrade: both choices, committed before it,
    are read as the icons lying on those places, not refused and replaced by a drawn facing; the journal's new
    action lines say so in today's notation (`B: face bMK:C bSN:C`-like), and nobody is told of a mismatch.
    A `face` naming places that is committed after the restart is refused as DT-266 has it (test_cards_legacy's
    live-input test; Game.choice reads the older notation only for a choice committed before)."""
    kept = STORES["face"]
    table = stored(tmp_path, kept)
    (b_reveal,) = [data for _, data in kept["journal"] if data and data["k"] == "reveal" and data["purpose"] == "face"]
    with trio.fail_after(REAL_TIME_HANG_GUARD):
        async with server_on(tmp_path) as server:
            play = server.lobby.tables[table].play
            assert play.restored_choices == {("face", "B"), ("face", "Y")}
            state = play.game.state
            blue = await resumed(server, kept, "B", "ann", KeepingConnection(
                kept_commitments(kept, "B", b_reveal["choice"], b_reveal["nonce"])))
            yellow = await resumed(server, kept, "Y", "bob", KeepingConnection(
                kept_commitments(kept, "Y", *kept["yellow_kept"])))
            await yellow.expect(OpponentCommit, lambda m: m.purpose == "face")  # sent again: Yellow must reveal
            await yellow.reveal("face")
            teams = await blue.expect_event("teams")
            facings = {fid: facing for fid, _, facing in teams["figures"]}
            expected = {}
            for text in (kept["choices"]["B"], kept["choices"]["Y"]):
                for part in text.split()[1:]:
                    fid, zone = part.split(":")
                    expected[fid] = state.maze.icon(("abcd".index(zone[0]), int(zone[1:]) - 1))
            assert facings == expected and set(facings.values()) <= set("TSCR")
            assert play.restored_choices == set()
            await played_out(table, blue, yellow, {"face"})  # and the game goes on to its end
            assert not any(isinstance(e, RevealMismatch) for e in blue.received + yellow.received)
            assert blue.errors() == [] and yellow.errors() == []
            journal = server.storage.table(table).journal
            final = play.game.state
            text = record_text(server.storage.table(table))
    replay = Replay.of(text)  # the old texts open their commitments; the game replays to its end
    assert replay.rounds == (4, []) and final.outcome is not None
    assert CARDS.format_position(replay.states[-1]) == CARDS.format_position(final)
    faces = [line for line, data in journal if data and data.get("k") == "action" and " face " in line]
    assert faces == [f"B: face {' '.join(f'{f}:{expected[f]}' for f in ('bMK', 'bSN'))}",
                     f"Y: face {' '.join(f'{f}:{expected[f]}' for f in ('yMK', 'ySN'))}"]
    assert not any(line.startswith("# refused") for line, _ in journal)


def test_DT_266_DT_271_a_face_on_places_committed_after_the_upgrade_is_refused():
    """Live input gets no older reading: a `face` on places of face-down rooms opened on today's server is
    refused (CG-START-02, DT-266's sentence; Play._complete then plays the rules' fallback, as for any refused
    choice); the same text committed before a restart (`legacy`, recovery.py's restored_choices) is read as the
    icons lying there. The position: the old tutorial-1 record of tests/engine/cards/data/legacy up to its
    `face` lines."""
    text = (Path(__file__).parents[1] / "engine" / "cards" / "data" / "legacy" / "tutorial1-seed0.txt").read_text()
    state, lines = CARDS.parse_record(text)
    for _, state, _ in CARDS.replayed(state, [line for line in lines if line.number < 12]):
        pass
    game = Game(CardOptions(1), 0)
    game.state = state
    with pytest.raises(Refusal) as refusal:
        game.choice("B", "face", "face bMK:b2 bSN:b2")
    assert refusal.value.rule == "CG-START-02" and "not a zone (DT-266)" in refusal.value.message
    assert game.choice("B", "face", "face bMK:b2 bSN:b2", legacy=True) == Face("B", (("bMK", "T"), ("bSN", "T")))
    with pytest.raises(Refusal):  # a place of no room in front: nothing to read, refused as written
        game.choice("B", "face", "face bMK:c3 bSN:b2", legacy=True)


async def test_DT_271_a_journal_line_the_reading_does_not_save_leaves_the_table_out_with_the_reason(tmp_path, caplog):
    """The old table's journal, then Yellow's `end` and Blue's `move bMK ^c1`: the Mechanork on B2 already points
    the icon lying on c1, so the reading (`^` that icon) is refused too (CG-START-04) and the line's own refusal
    stands: `table_not_restored` names the journal line, DT-266's sentence and the rule; the table stays in the
    store as it was, and the server starts."""
    kept = dict(STORES["past"])
    kept["journal"] = kept["journal"] + [["Y: end", {"k": "action"}], ["B: move bMK ^c1", {"k": "action"}]]
    table = stored(tmp_path, kept)
    async with server_on(tmp_path) as server:
        assert table not in server.lobby.tables
        (logged,) = [r for r in caplog.records if r.getMessage() == "table_not_restored"]
        error = logged.fields["error"]
        assert logged.fields["table"] == table and f"journal line {len(kept['journal'])} 'B: move bMK ^c1'" in error
        assert "not a zone (DT-266)" in error and error.endswith("(CG-START-04)")
        assert server.storage.table(table).journal[-1] == ("B: move bMK ^c1", {"k": "action"})
