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
