"""`get_record` → `record` (docs/protocol.md section 6): a finished public game's record over the protocol, and
`dt-client replay TABLE --server` stepping through it (client/replay.py fetch_record)."""

import pytest
import trio
from dungeon_twister.client.replay import NoRecord, Replay, fetch_record
from dungeon_twister.protocol import Error, GameRecord, GetRecord, Leave, Left, TableOptions

from dungeon_twister.engine import Options
from test_server_prison import play_out
from test_server_support import HANG_GUARD, running_server, seated_pair, simulate


async def test_a_finished_game_is_fetched_and_replayed_an_unfinished_one_is_refused(autojump_clock):
    """PR-SCEN-1 seed 4 (test_server_prison): its record replays to the same end, action for action."""
    actions = simulate(4, Options(set_name="prison", scenario="prison-1"), 100)["actions"]
    async with running_server(seeds=(4, 5)) as server:
        table, blue, yellow = await seated_pair(server, TableOptions(scenario="prison-1"))
        other, _, _ = await seated_pair(server, TableOptions(), names=("cy", "dan"))
        with pytest.raises(NoRecord, match="is not over"):
            await fetch_record(trio.open_tcp_stream, "127.0.0.1", server.port, other)
        await play_out(table, blue, yellow)
        text = await fetch_record(trio.open_tcp_stream, "127.0.0.1", server.port, table)
        with pytest.raises(NoRecord, match="no public table"):
            await fetch_record(trio.open_tcp_stream, "127.0.0.1", server.port, "t9-00000000")
        # by its number too, as `join 1` joins it (a play-test typed `dt-client replay 1`): `1`, `t1`, `T01`
        number = table.split("-")[0][1:]
        for word in (number, "t" + number, "T0" + number):
            assert await fetch_record(trio.open_tcp_stream, "127.0.0.1", server.port, word) == text
        assert Replay.of(text).table == table  # (`dt-client verify 1 --server` names the table by its id)
        with pytest.raises(NoRecord, match="is not over"):  # (the other table, by its number: still refused)
            await fetch_record(trio.open_tcp_stream, "127.0.0.1", server.port, other.split("-")[0])
        for word in ("99", "t", "1x", "١"):  # no such number; no number; an Arabic-Indic digit is no number
            with pytest.raises(NoRecord, match="no public table"):
                await fetch_record(trio.open_tcp_stream, "127.0.0.1", server.port, word)
    assert text.startswith("game seed=4 set=prison vp=5 scenario=prison-1\n")
    replay = Replay.of(text)
    assert len(replay.steps) == actions and replay.states[-1].outcome.reason == "both figures out (PR-SCEN-1-06)"
    assert replay.viewer == "*", "a finished game: everything shown"
    assert text.splitlines()[1] == f"# table {table}"
    assert replay.rounds == (2, []), "the two teams' commit-reveal rounds, each reveal opening its commitment"
    assert "Commit-reveal: 2 reveals open their commitment (verified)" in replay.panel()
    tampered = Replay.of(  # Blue's revealed team choice altered in the comment line: it no longer opens the commit
        "\n".join(line if not line.startswith("# reveal B team") else line.rsplit(" ", 1)[0] + " XX"
                  for line in text.splitlines()) + "\n")
    assert tampered.rounds == (1, ["B team"]) and "NOT VERIFIED: B team" in " ".join(tampered.panel())


async def test_a_record_longer_than_a_frame_is_refused_not_left_unanswered(autojump_clock, monkeypatch):
    """docs/protocol.md section 6, get_record: a record too long to send is `not_allowed`. One within the 900,000
    characters of `record.text` whose frame is longer than the server's max_frame_size (1 MiB by default: 900,000
    characters of two bytes each; or a smaller max_frame_size) was logged `not_sent` and left unanswered, so the
    client waited for ever (a Rust client found it, session 29). Now it gets the same `not_allowed`."""
    from dungeon_twister.server import session

    real = session.record_text
    padded = {"on": False}
    monkeypatch.setattr(session, "record_text", lambda stored: real(stored) + (
        "# " + "é" * 600_000 + "\n" if padded["on"] else ""))  # 1.2 MB in 600,002 characters
    async with running_server(seeds=(4,)) as server:
        table, blue, yellow = await seated_pair(server, TableOptions(scenario="prison-1"))
        await play_out(table, blue, yellow)
        await blue.send(Leave())
        await blue.expect(Left)
        await blue.send(GetRecord(table))
        assert (await blue.expect(GameRecord)).text.startswith("game seed=4 ")  # as before
        padded["on"] = True
        await blue.send(GetRecord(table))
        with trio.fail_after(HANG_GUARD):  # (before the fix: no answer at all)
            error = await blue.expect(Error)
        assert error.code == "not_allowed" and not error.fatal
        assert error.message == f"the record of table {table} is too long to send (dt-server records prints it)"
        await blue.send(GetRecord(table))  # the connection goes on
        assert (await blue.expect(Error)).code == "not_allowed"


async def test_the_record_carries_the_seed_commitment_and_dt_client_verify_checks_it(autojump_clock, tmp_path,
                                                                                       capsys):
    """docs/protocol.md section 16: a finished game's record has `# seed-commitment` (what every view showed from
    the table's creation) and `# seed-nonce`; the seed of its start line opens it. `dt-client verify` says so, and
    exits 1 for a record whose seed was changed (the deal would not be the one committed to) or whose reveal was."""
    from dungeon_twister.client.app import main
    from dungeon_twister.client.replay import verified_seed

    actions = simulate(4, Options(set_name="prison", scenario="prison-1"), 100)["actions"]
    async with running_server(seeds=(4,)) as server:
        table, blue, yellow = await seated_pair(server, TableOptions(scenario="prison-1"))
        committed = blue.view["table"]["seed_commitment"]
        await play_out(table, blue, yellow)
        text = await fetch_record(trio.open_tcp_stream, "127.0.0.1", server.port, table)
    lines = text.splitlines()
    assert lines[2] == f"# seed-commitment {committed}" and lines[3].startswith("# seed-nonce ")
    assert verified_seed(text) is True and Replay.of(text).deal is True
    assert verified_seed(text.replace("game seed=4 ", "game seed=5 ", 1)) is False
    assert verified_seed("\n".join(lines[:2] + lines[4:])) is None  # no commitment: nothing to check
    path = tmp_path / "game.txt"
    path.write_text(text)
    assert main(["verify", str(path)]) == 0
    out = capsys.readouterr().out
    assert f"{actions} actions of the board game, every one legal" in out
    assert "deal: the seed opens the commitment the server made before the game" in out
    assert "secret choices: 2 reveals open their commitment" in out
    path.write_text("\n".join(line if not line.startswith("# reveal B team") else line.rsplit(" ", 1)[0] + " XX"
                              for line in lines) + "\n")
    assert main(["verify", str(path)]) == 1
    assert "NOT VERIFIED: B team" in capsys.readouterr().out


async def test_a_private_games_record_is_fetched_with_its_join_code(autojump_clock):
    """A play-test's players of a private game could not verify it (`dt-client verify TABLE --server`: "there is
    no public table"): `get_record` takes the table's join code (in either case), and without it, or with a wrong
    one, the table stays unknown to the asker."""
    from dungeon_twister.protocol import CreateTable, Join, Joined, Leave, TableCreated

    from test_server_support import Client

    async with running_server(seeds=(4,)) as server:
        ann = await Client.connect(server, "ann")
        await ann.send(CreateTable(TableOptions(private=True)))
        created = await ann.expect(TableCreated)
        bob = await Client.connect(server, "bob")
        for client, seat in ((ann, "B"), (bob, "Y")):
            await client.send(Join(created.table, seat, created.join_code))
            await client.expect(Joined)
        await bob.expect_event("game_started")
        await ann.send(Leave())
        await bob.expect_event("game_over")
        for code in (None, "wrong"):
            for word in (created.table, created.table.split("-")[0]):  # (by its number too: still unknown)
                with pytest.raises(NoRecord, match="no public table"):
                    await fetch_record(trio.open_tcp_stream, "127.0.0.1", server.port, word, code)
        text = await fetch_record(trio.open_tcp_stream, "127.0.0.1", server.port, created.table,
                                  created.join_code.upper())
    assert text.startswith("game seed=4") and text.splitlines()[1] == f"# table {created.table}"
