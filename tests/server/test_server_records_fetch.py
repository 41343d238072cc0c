"""`get_record` → `record` (docs/protocol.md section 6): a finished public game's record over the protocol, and
`dt-client replay TABLE --server` stepping through it (client/replay.py fetch_record)."""

import pytest
import trio
from dungeon_twister.client.replay import NoRecord, Replay, fetch_record
from dungeon_twister.protocol import TableOptions

from test_server_prison import play_out
from test_server_support import running_server, seated_pair


async def test_a_finished_game_is_fetched_and_replayed_an_unfinished_one_is_refused(autojump_clock):
    """PR-SCEN-1 seed 4, 38 actions (test_server_prison): its record replays to the same end."""
    async with running_server(seeds=(4, 5)) as server:
        table, blue, yellow = await seated_pair(server, TableOptions(scenario="prison-1"))
        other, _, _ = await seated_pair(server, TableOptions(), names=("cy", "dan"))
        with pytest.raises(NoRecord, match="is not over"):
            await fetch_record(trio.open_tcp_stream, "127.0.0.1", server.port, other)
        await play_out(table, blue, yellow)
        text = await fetch_record(trio.open_tcp_stream, "127.0.0.1", server.port, table)
        with pytest.raises(NoRecord, match="no public table"):
            await fetch_record(trio.open_tcp_stream, "127.0.0.1", server.port, "t9-00000000")
    assert text.startswith("game seed=4 set=prison vp=5 scenario=prison-1\n")
    replay = Replay.of(text)
    assert len(replay.steps) == 38 and replay.states[-1].outcome.reason == "both figures out (PR-SCEN-1-06)"
    assert replay.viewer == "*", "a finished game: everything shown"
    assert text.splitlines()[1] == f"# table {table}"
    assert replay.rounds == (2, []), "the two teams' commit-reveal rounds, each reveal opening its commitment"
    assert "Commit-reveal: 2 reveal(s) open their commitment (verified)" in replay.panel()
    tampered = Replay.of(  # Blue's revealed team choice altered in the comment line: it no longer opens the commit
        "\n".join(line if not line.startswith("# reveal B team") else line.rsplit(" ", 1)[0] + " XX"
                  for line in text.splitlines()) + "\n")
    assert tampered.rounds == (1, ["B team"]) and "NOT VERIFIED: B team" in " ".join(tampered.panel())
