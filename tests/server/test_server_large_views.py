"""A view too large for a frame is never dropped (docs/protocol.md section 13, Views): its `legal` list is left
out, `legal_omitted` says how many actions it held, and the seat still plays by typing its choice, which the
server checks as any other.

The frame limit is made small (`max_frame_size` 16 KiB) so that the board game's secret team choice, 1,680 texts
of about 30 bytes (docs/protocol.md section 14), passes it: the same mechanism covers a card-game position with
thousands of moves (DT-206 exchanges times paths) under the default 1 MiB."""

import trio
from dungeon_twister.engine import legal_texts
from dungeon_twister.protocol import OpponentCommit, Resume, Snapshot, TableEvent, TableOptions
from dungeon_twister.protocol.codec import pack_map
from dungeon_twister.protocol.views import DELTA_VIEWS
from test_server_support import HANG_GUARD, running_server, seated_pair

LIMIT = 16384


def _numbers(client) -> list[int]:
    return [e.n for e in client.received if isinstance(e, TableEvent)]


async def test_a_view_too_large_for_a_frame_leaves_its_legal_list_out_and_the_seat_still_chooses(autojump_clock):
    with trio.fail_after(HANG_GUARD):
        async with running_server(max_frame_size=LIMIT) as server:
            table, blue, yellow = await seated_pair(server, TableOptions())
            state = server.lobby.tables[table].play.game.state
            for client, seat in ((blue, "B"), (yellow, "Y")):
                listed = legal_texts(state, seat)
                assert len(listed) == 1680  # 8 characters on 4 squares, in order: 8*7*6*5
                assert client.view["secret"] == "team"
                assert client.view["legal"] == [] and client.view["legal_omitted"] == len(listed)
            # a snapshot is a view too: it leaves the list out the same way
            await blue.send(Resume(table, 0, snapshot=True))
            snapshot = await blue.expect(Snapshot)
            assert snapshot.view["legal"] == [] and snapshot.view["legal_omitted"] == 1680
            # each seat types its choice (here the engine's first), which the server checks on the reveal
            for client, seat in ((blue, "B"), (yellow, "Y")):
                await client.commit("team", legal_texts(state, seat)[0])
            for client in (blue, yellow):
                await client.expect(OpponentCommit, lambda e: e.purpose == "team")
                await client.reveal("team")
            # the choice was taken: the game goes on to the hidden placement
            for client in (blue, yellow):
                await client.expect(TableEvent, lambda e: e.event.get("kind") == "view"
                                    and e.event["view"]["phase"] == "hide")
            for client in (blue, yellow):
                assert client.errors() == []
                numbers = _numbers(client)
                assert numbers == list(range(numbers[0], numbers[0] + len(numbers)))  # no event left out


async def test_the_compact_team_choice_fits_and_is_not_left_out(autojump_clock):
    """With the feature delta_views the team choice travels as its parts (section 14), far below the limit:
    nothing is left out."""
    with trio.fail_after(HANG_GUARD):
        async with running_server(max_frame_size=LIMIT) as server:
            table, blue, _ = await seated_pair(server, TableOptions(), features=(DELTA_VIEWS,))
            assert len(blue.view["legal"]) == 1680 and "legal_omitted" not in blue.view  # expanded by the client
            assert blue.view["team_choice"]["squares"] and blue.errors() == []


async def test_a_delta_client_gets_the_list_left_out_too_and_its_connection_applies_it(autojump_clock):
    """The delta form (section 14) is checked the same way, the view a delta makes and its base both: here the
    table's room for a view is set just below the size of Yellow's compact team-choice view, so that the views
    the next step publishes leave the list out; the delta unsets `team_choice` and the connection delivers the
    whole view with `legal_omitted`."""
    with trio.fail_after(HANG_GUARD):
        async with running_server() as server:
            table, blue, yellow = await seated_pair(server, TableOptions(), features=(DELTA_VIEWS,))
            base = yellow.conn.view  # the view as the server sent it: the compact team choice, no list
            assert base["legal"] == [] and base["team_choice"]
            server.lobby.tables[table]._room = len(pack_map(base)) - 40  # the form's parts take more than 40 bytes
            state = server.lobby.tables[table].play.game.state
            await blue.commit("team", legal_texts(state, "B")[0])  # a step: both seats' views are published
            view = (await yellow.expect(TableEvent, lambda e: e.event.get("kind") == "view"
                                        and "committed" in e.event["view"]["table"])).event["view"]
            assert view["legal"] == [] and view["legal_omitted"] == 1680 and "team_choice" not in view
            assert yellow.conn.view["legal_omitted"] == 1680 and "team_choice" not in yellow.conn.view
            assert yellow.errors() == [] and blue.errors() == []


def test_only_a_long_legal_list_is_front_coded():
    """Feature compact_legal (section 14): a list of PREFIXED_FROM (200) actions or more is front-coded, a shorter
    one listed as usual (coding costs the server more than it saves there), a team choice keeps its own form."""
    from dungeon_twister.server.viewing import PREFIXED_FROM, compacted

    long = ["end", *(f"move bMK a{i}" for i in range(PREFIXED_FROM - 1))]
    coded = compacted({"legal": long}, prefixed=True)
    assert coded["legal"] == [] and coded["legal_prefixed"][:2] == [[0, "end"], [0, "move bMK a0"]]
    assert compacted({"legal": long[:-1]}, prefixed=True) == {"legal": long[:-1]}
    assert compacted({"legal": long}) == {"legal": long}  # delta_views alone
