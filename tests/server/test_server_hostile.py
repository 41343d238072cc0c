"""Hostile clients (issue 6, part 4): bad input and resource limits. Each test reproduces one finding and checks
that it now costs at most the offending connection, never a seat, a game or the server."""

import msgpack
import trio
from dungeon_twister.protocol import (
    CreateTable,
    Error,
    GameOver,
    Join,
    Joined,
    Leave,
    Left,
    ListTables,
    OpponentLeft,
    Refused,
    ResumeInfo,
    SeatBot,
    Snapshot,
    Spectate,
    TableCreated,
    TableOptions,
    Tables,
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


# --- finding 1: table options are closed and bounded --------------------------------------------------------


def raw_frame(raw: dict) -> bytes:
    body = msgpack.packb(raw, use_bin_type=True)
    return len(body).to_bytes(4, "big") + body


async def test_table_options_with_unknown_keys_or_junk_are_refused(autojump_clock):
    async with running_server() as server:
        ann = await Client.connect(server, "ann", memory=True)
        junk = "x" * 900_000  # under the 1 MiB frame limit, but echoed in every `tables` it would fill it
        for options, where in (
                ({"handicap": {"seat": "B", "junk": junk}}, "options.handicap.junk"),
                ({"handicap": {"seat": "B", "characters": 3}}, "options.handicap.characters"),  # BG-OPT-08: 4..
                ({"handicap": {"seat": "B", "removed_cards": [6, 6]}}, "options.handicap.removed_cards"),
                ({"handicap": {"seat": "B", "removed_cards": [7]}}, "options.handicap.removed_cards"),
                ({"target_vp": 5, "colour": "pink"}, "options.colour"),
                ({junk: 1}, "options.xxxxx")):
            await ann.send_raw(raw_frame({"type": "create_table", "options": options}))
            error = await ann.expect(Error)
            assert (error.code, error.fatal) == ("bad_field", False)
            assert f"{where}" in error.message.split(": ")[0], error.message
        assert server.lobby.tables == {}

        options = {"handicap": {"seat": "Y", "characters": 5, "removed_cards": [6, 5]}}
        await ann.send_raw(raw_frame({"type": "create_table", "options": options}))
        table = (await ann.expect(TableCreated)).table
        await ann.send(ListTables())
        (info,) = (await ann.expect(Tables)).tables
        assert info.table == table and info.options.handicap == {"seat": "Y", "characters": 5,
                                                                "removed_cards": [6, 5]}
        await ann.send(Join(table, "B"))
        snapshot = await ann.expect(Snapshot)
        # BG-OPT-09: Y plays 5 characters without his +5 and +6; the view shows the checked option only.
        assert snapshot.view["table"]["handicap"] == {"seat": "Y", "characters": 5, "removed_cards": [5, 6]}


# --- finding 2: bots do not compete with humans for names ---------------------------------------------------


async def test_humans_may_not_take_a_bot_name_and_the_bot_gets_its_own(autojump_clock):
    async with running_server() as server:
        for name in ("random-bot-1", "Greedy-Bot-2", "mine-bot-7", "random-bot-\uff11"):
            squatter = await Client.connect(server, name, memory=True, welcome=False)
            refused = await squatter.expect(Refused)
            assert refused.code == "bad_name" and "bot" in refused.reason
        ann = await Client.connect(server, "ann", memory=True)
        await ann.send(CreateTable(TableOptions(beginner=True)))
        table = (await ann.expect(TableCreated)).table
        await ann.send(Join(table, "B"))
        await ann.expect(Joined)
        await ann.send(SeatBot(table, "Y", "random"))
        joined = await ann.expect_event("player_joined")
        assert joined["seat"] == "Y" and joined["name"].startswith("random-bot-")
        await ann.expect_event("game_started")


async def test_a_bot_that_cannot_get_its_name_frees_the_seat_and_says_so(autojump_clock, monkeypatch):
    with trio.fail_after(100):  # on the mock clock
        await _bot_without_its_name(monkeypatch)


async def _bot_without_its_name(monkeypatch):
    async with running_server() as server:
        ann = await Client.connect(server, "ann", memory=True)
        await ann.send(CreateTable(TableOptions(beginner=True)))
        table = (await ann.expect(TableCreated)).table
        await ann.send(Join(table, "B"))
        await ann.expect(Joined)
        # The old bug: the bot's name was already used (here by ann herself), its hello is refused.
        monkeypatch.setattr(server.lobby, "bot_name", lambda kind: "ann")
        start = trio.current_time()
        await ann.send(SeatBot(table, "Y", "greedy"))
        error = await ann.expect(Error)
        assert (error.code, error.fatal) == ("bot_failed", False)
        assert trio.current_time() - start < 1
        assert [event["seat"] for event in ann.events_of("player_left")] == ["Y"]  # sent before the error
        assert server.lobby.tables[table].seating.seats["Y"].name is None
        monkeypatch.undo()
        await ann.send(SeatBot(table, "Y", "greedy"))  # the seat is free again: a working bot takes it
        assert (await ann.expect_event("player_joined"))["seat"] == "Y"
        await ann.expect_event("game_started")


# --- finding 6 (names): no control or bidi characters reach other players' screens ----------------------------


async def test_names_with_control_or_bidi_characters_are_refused(autojump_clock):
    async with running_server() as server:
        for name in ("\x1b[2Jann", "ann\x07", "ann\x9b31m", "ann\x7f", "\u202eann", "ann\u2066x\u2069",
                     "ann\u200b", "ann\u2028", " ann", "ann\n"):
            client = await Client.connect(server, name, memory=True, welcome=False)
            refused = await client.expect(Refused)
            assert refused.code == "bad_name", name
        fine = await Client.connect(server, "Ann Lee-Zoë 李", memory=True)
        await fine.send(ListTables())
        await fine.expect(Tables)
