"""Glicko-2 ratings (server/glicko2.py) and the leaderboard (docs/protocol.md `list_ratings`): a game between two
people is rated when it ends; a game with a bot is not (checked on the seats: a whole bot game would only repeat
it)."""

import pytest
from dungeon_twister.protocol import ListRatings, RatingInfo, Ratings, TableOptions
from dungeon_twister.server.glicko2 import Rating, game, rate

from test_server_prison import play_out
from test_server_support import Client, running_server, seated_pair


def test_glickmans_worked_example():
    """Glickman, "Example of the Glicko-2 system": a 1500 (RD 200, volatility 0.06) player beats a 1400 (RD 30)
    and loses to a 1550 (RD 100) and a 1700 (RD 300), tau 0.5: 1464.06, RD 151.52, volatility 0.05999."""
    after = rate(Rating(1500, 200, 0.06), [(Rating(1400, 30), 1), (Rating(1550, 100), 0), (Rating(1700, 300), 0)])
    assert after.rating == pytest.approx(1464.06, abs=0.01) and after.rd == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=1e-5)


def test_one_game_between_newcomers_and_a_draw_between_equals():
    blue, yellow = game(Rating(), Rating(), 0.0)  # Yellow wins
    assert round(blue.rating) == 1338 and round(yellow.rating) == 1662 and round(blue.rd) == round(yellow.rd) == 290
    drawn = game(Rating(1600, 80), Rating(1600, 80), 0.5)
    assert drawn[0].rating == pytest.approx(1600) and drawn[0].rd < 80, "a draw between equals: the RD shrinks"
    assert rate(Rating(1500, 300), []).rd > 300, "no game: the RD grows (step 6)"


async def test_a_game_between_two_people_is_rated_and_listed(autojump_clock):
    """PR-SCEN-1 seed 4 (test_server_prison), won by the side simulate() says; both start at 1500: the winner 1662,
    the loser 1338, RD 290 (Glicko-2's one game between newcomers, test_one_game_between_newcomers_and_a_draw_between_
    equals)."""
    from dungeon_twister.engine import Options
    from test_server_support import simulate

    winner = simulate(4, Options(set_name="prison", scenario="prison-1"), 100)["outcome"].winner
    async with running_server(seeds=(4, 5)) as server:
        table, blue, yellow = await seated_pair(server, TableOptions(scenario="prison-1"))
        await play_out(table, blue, yellow)
        after = {seat: 1662 if seat == winner else 1338 for seat in ("B", "Y")}
        assert await yellow.expect_event("ratings") == {"kind": "ratings", "changes": {
            "B": {"name": blue.name, "before": 1500, "after": after["B"], "rd": 290},
            "Y": {"name": yellow.name, "before": 1500, "after": after["Y"], "rd": 290}}}
        watcher = await Client.connect(server, "cy")
        await watcher.send(ListRatings())
        names = {"B": blue.name, "Y": yellow.name}
        loser = "Y" if winner == "B" else "B"
        assert (await watcher.expect(Ratings)).players == (
            RatingInfo(names[winner], 1662, 290, 1), RatingInfo(names[loser], 1338, 290, 1))
        assert server.storage.rating(blue.name)[3] == 1


def test_a_game_with_a_bot_or_against_oneself_is_not_rated():
    from dungeon_twister.server.play import rated_names
    from dungeon_twister.server.seating import SeatState

    assert rated_names({"B": SeatState("ann"), "Y": SeatState("bob")}) == {"B": "ann", "Y": "bob"}
    assert rated_names({"B": SeatState("ann"), "Y": SeatState("greedy-bot-1", bot=True)}) is None
    assert rated_names({"B": SeatState("ann"), "Y": SeatState(None)}) is None


async def test_a_game_left_before_its_first_turn_is_aborted_not_rated(autojump_clock):
    """Blue resigns during the team choice (turn 0): the game is over, nobody's rating moves."""
    from dungeon_twister.protocol import GameOver, Leave

    async with running_server() as server:
        table, blue, yellow = await seated_pair(server, TableOptions())
        await blue.send(Leave())
        await yellow.expect(GameOver)
        watcher = await Client.connect(server, "cy")
        await watcher.send(ListRatings())
        assert (await watcher.expect(Ratings)).players == ()
        assert server.storage.rating(blue.name) is None and yellow.events_of("ratings") == []
