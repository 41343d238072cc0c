"""Hostile clients (issue 6, part 4): bad input and resource limits. Each test reproduces one finding and checks
that it now costs at most the offending connection, never a seat, a game or the server."""

import trio
from dungeon_twister.protocol import (
    Error,
    GameOver,
    Joined,
    Leave,
    Left,
    OpponentLeft,
    Refused,
    ResumeInfo,
    Snapshot,
    Spectate,
    TableOptions,
)
from test_server_support import Client, running_server, seated_pair


# --- finding 3: a token is valid only for its role ---------------------------------------------------------


async def test_a_seat_token_is_refused_on_a_spectator_connection(autojump_clock):
    with trio.fail_after(300):  # on the mock clock
        await _seat_token_on_a_spectator_connection()


async def _seat_token_on_a_spectator_connection():
    async with running_server(seeds=(21,)) as server:
        table, blue, yellow = await seated_pair(server, TableOptions(beginner=True), memory=True)
        token, seen = blue.token, blue.conn.last_event
        await blue.close()
        assert (await yellow.expect(OpponentLeft)).seat == "B"

        # The seat's token, presented by a spectator connection under the player's name: refused, like any
        # unknown token (the name stays held for the seat).
        spy = await Client.connect(server, "ann", "spectator", memory=True, resume=ResumeInfo(token, table, seen),
                                   welcome=False)
        assert (await spy.expect(Refused)).code == "name_taken"
        # Under another name the hello goes through, but the token is refused and the seat is not re-bound.
        spy = await Client.connect(server, "spy", "spectator", memory=True, resume=ResumeInfo(token, table, seen))
        assert (await spy.expect(Error)).code == "bad_token"
        assert not any(isinstance(event, Joined) for event in spy.received)
        assert server.lobby.tables[table].seating.seats["B"].session is None
        await spy.close()

        # The seat is still held for its player, and given up when his grace ends: the game can be abandoned.
        start = trio.current_time()
        over = await yellow.expect(GameOver)
        assert (over.result["winner"], over.result["reason"]) == ("Y", "abandoned")
        assert trio.current_time() - start < 61


async def test_a_watch_token_is_refused_on_a_player_connection(autojump_clock):
    async with running_server(seeds=(21,)) as server:
        table, blue, yellow = await seated_pair(server, TableOptions(beginner=True), memory=True)
        watcher = await Client.connect(server, "watcher", "spectator", memory=True)
        await watcher.send(Spectate(table))
        await watcher.expect(Snapshot)
        token = watcher.token
        await watcher.send(Leave())
        await watcher.expect(Left)
        await watcher.close()
        watcher = await Client.connect(server, "watcher", "spectator", memory=True)
        await watcher.send(Spectate(table))
        await watcher.expect(Snapshot)
        token = watcher.token
        await watcher.close()

        player = await Client.connect(server, "watcher", memory=True, resume=ResumeInfo(token, table, 0))
        assert (await player.expect(Error)).code == "bad_token"
        assert player not in server.lobby.tables[table].seating.spectators
        assert not any(isinstance(event, Joined) for event in player.received)
