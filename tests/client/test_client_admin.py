"""What a player's dt-client shows of the server admin's commands (server/admin.py): an announcement
(`dt-server admin say`), a kick (`dt-server admin kick`: the fatal error `kicked`), a game the admin ended."""

from __future__ import annotations

import trio
import trio.testing

from dungeon_twister.client.held import SeatFile
from dungeon_twister.protocol import Announcement, Error
from dungeon_twister.protocol.views import ANNOUNCEMENTS

from test_client_reconnect import ADDRESS, Network, client, seat_with_grace


async def test_an_announcement_is_shown_as_the_admins_in_the_chat_and_the_message_bar(autojump_clock, tmp_path):
    """The client asks for the feature, and shows an announcement in the chat pane (which keeps it) and the
    message bar, as the admin's: never as a player's line."""
    network = Network()
    async with client(network, SeatFile(ADDRESS, "ann", tmp_path)) as session:
        server = await network.server()
        await seat_with_grace(server, session, 60)
        assert ANNOUNCEMENTS in (server.connection.hello.features or ())
        await server.send(Announcement("restart in 5 min"))
        await trio.testing.wait_all_tasks_blocked()
        line = "announcement from the server's admin: restart in 5 min"
        assert session.state.chat[-1] == line and session.state.notice == line


async def test_a_kicked_client_says_why_and_does_not_connect_again_by_itself(autojump_clock, tmp_path):
    """The fatal error `kicked` (dt-server admin kick): the client says the server's sentence and makes no attempt
    to connect again (its kick would be refused; the player types `reconnect` when he wants); the seat's token
    stays, for a kick of no minutes within the grace."""
    network = Network()
    async with client(network, SeatFile(ADDRESS, "ann", tmp_path)) as session:
        server = await network.server()
        await seat_with_grace(server, session, 60)
        await server.send(Error("kicked", "the server's admin closed your connection: your name may connect again "
                                "in 10 min", "server", True, "the server's admin closed your connection: your name "
                                "may connect again in {minutes} min", {"minutes": 10}))
        await server.stream.aclose()
        await trio.sleep(600)
        assert len(network.attempts) == 1, "no attempt after the kick"
        assert session.state.reconnecting is None and session.token == "token-B"
        assert session.state.notice == ("server: the server's admin closed your connection: your name may connect "
                                        "again in 10 min")


def test_a_game_the_admin_ended_reads_as_such_without_a_winner():
    """game_over's reason "ended by the server's admin" (dt-server admin end): no winner, not rated, said so."""
    from dungeon_twister.client.describe import describe_event

    assert describe_event({"kind": "game_over", "winner": None, "vp": {"B": 1, "Y": 0},
                           "reason": "ended by the server's admin"}) == (
        "game over without a winner (the server's admin ended the game: not rated)")


async def test_a_client_whose_address_is_banned_stops_trying_and_says_why(autojump_clock, tmp_path):
    """A server whose admin banned the client's address (banned_addresses, `reload`) closed its connections
    before a byte, which the client took for a lost connection: it tried again every 5 s for an hour (play-test
    pt31). The server refuses its hello `kicked` now, with the banned network: the client says so, that it will not
    try again by itself, and makes no more attempts."""
    from dungeon_twister.protocol import Refused

    network = Network()
    async with client(network, SeatFile(ADDRESS, "ann", tmp_path)) as session:
        server = await network.server()
        await seat_with_grace(server, session, 60)
        await server.stream.aclose()
        refusing = await network.server()
        assert (await refusing.receive()).resume.token == "token-B"
        await refusing.send(Refused("kicked", "the server's admin banned connections from 127.0.0.0/8, until he "
                                    "lifts the ban", "the server's admin banned connections from {network}, until he "
                                    "lifts the ban", {"network": "127.0.0.0/8"}))
        await refusing.stream.aclose()
        await trio.sleep(3600)
        assert len(network.attempts) == 2, "no attempt after the refusal"
        assert session.state.reconnecting is None
        assert "the server's admin banned connections from 127.0.0.0/8, until he lifts the ban" in session.state.notice
