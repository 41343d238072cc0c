"""Twenty bot-vs-bot tables at once, each watched by a spectator: a checker inspects every frame the server sends
to every seat and spectator and finds no hidden information in any of them."""

import json
import re
from dataclasses import replace

import msgpack

import pytest
import trio
import trio.testing
from dungeon_twister.engine import SEATS, Options, new_game, view
from dungeon_twister.engine.boardgame.views import GOD
from dungeon_twister.protocol import (
    Commit,
    GameOver,
    Joined,
    OpponentCommit,
    OpponentReveal,
    Reveal,
    Snapshot,
    Spectate,
    SpectatorConnection,
    TableEvent,
    TableOptions,
)
from dungeon_twister.protocol.codec import decode_message, encode_message, unpack_map
from dungeon_twister.protocol.views import DELTA_VIEWS, apply_view_delta
from dungeon_twister.protocol.wire_types import Packed
from dungeon_twister.server.bot import BotPlayer
from dungeon_twister.server.session import Session
from test_server_support import Client, running_server

# (options, bot kind, game seed): random bots on seeds that fight early, a few greedy games (full and beginner).
RANDOM_SEEDS = (12, 16, 47, 28, 25, 53, 30, 57, 3, 9, 4, 5, 6, 7)
GREEDY_SEEDS = (23, 26, 20, 1, 21, 29)
TABLES = [(TableOptions(beginner=True), "random", seed) for seed in RANDOM_SEEDS] + [
    (TableOptions(beginner=seed > 20), "greedy", seed) for seed in GREEDY_SEEDS]
ACTIONS_PER_BOT = 40  # then the bot stops acting: the work per table is bounded by a count, not a clock (40: enough for 2+ combats with the breadth-first move order)
HANG_GUARD = 3600  # mock seconds


def secret_tokens(state, viewer) -> set[str]:
    """Token ids the viewer may not know the whereabouts of: the other colour's hidden tokens."""
    return {t.id for t in state.tokens.values() if t.colour != viewer and (
        t.where in ("screen", "room") or (t.where == "board" and t.face_down))}


def check_view(view: dict, viewer: str | None) -> None:
    assert view["viewer"] == viewer
    for token in view["tokens"]:
        if token["face_down"] and token["colour"] != viewer:
            assert token["id"] is None and token["code"] is None and token["character"] is None
    assert all("id" not in hidden for hidden in view["hidden"])
    for room in view["rooms"]:
        if not room["revealed"]:
            assert room["tile"] is None and room["orientation"] is None
    for seat in SEATS:
        if seat != viewer:
            player = view["players"][seat]
            assert all(type(player[key]) is int for key in ("action_cards", "combat_cards", "screen"))
    if view["combat"] is not None:
        assert "cards" not in view["combat"]
        assert viewer is not None or view["combat"]["my_card"] is None
    assert set(view.get("my_team", {})) <= {viewer}
    if viewer is None:
        assert view["legal"] == [] and view["secret"] is None


def check_event(event: dict, viewer: str | None) -> None:
    if event["kind"] in ("team_chosen", "hidden", "card_chosen") and event["seat"] != viewer:
        assert set(event) == {"kind", "seat"} | ({"slot"} if event["kind"] == "hidden" else set())
    if event["kind"] == "view":
        check_view(event["view"], viewer)


def wire_messages(message, session, views: dict) -> list:
    """The message as it goes on the wire (a packed event unpacked), and for a view delta also the whole view it
    makes, so that both are checked."""
    field = "event" if isinstance(message, TableEvent) else "view" if isinstance(message, Snapshot) else None
    if field is None:
        return [message]
    value = getattr(message, field)
    if type(value) is Packed:
        value = msgpack.unpackb(value.data)
        message = replace(message, **{field: value})
    if field == "view" or value.get("kind") == "view":
        views[session] = value if field == "view" else value["view"]
        return [message]
    if value.get("kind") != "view_delta":
        return [message]
    views[session] = apply_view_delta(views[session], value)
    return [message, replace(message, event={"kind": "view", "view": views[session]})]


def _plain(value) -> str:
    return value.hex() if isinstance(value, bytes) else repr(value)


def leaked(text: str, words: set[str]) -> str | None:
    """The first of `words` that the text mentions (as a whole word), if any."""
    if not words:
        return None
    found = re.search(rf"(?<![A-Za-z0-9])({'|'.join(map(re.escape, words))})(?![A-Za-z0-9])", text)
    return found and found.group(1)


async def test_twenty_bot_games_at_once_leak_nothing(monkeypatch, autojump_clock):
    """On trio's MockClock: no timer can fire because the machine is slow, and the work is bounded by counts
    (each bot stops after ACTIONS_PER_BOT actions), so the test does the same work on any machine."""
    sent, received = [], []
    send, send_framed, handle, bot_act = Session.send, Session.send_framed, Session._handle, BotPlayer.act
    stopped: set[str] = set()  # tables whose bot to act has used up its actions

    views: dict = {}  # session -> the whole view it holds (the base of the view deltas it is sent)

    def spy_send(session, message):
        send(session, message)
        record(session, message)

    def spy_send_framed(session, message, data):  # a table's event, its frame made once for its viewer class
        send_framed(session, message, data)
        if data is not None:  # else send_framed called send, which recorded it; checked as the bytes sent
            record(session, decode_message(unpack_map(data[4:], 1 << 20)))

    def record(session, message):
        state = session.table.play.game.state if session.table is not None else None
        for opened in wire_messages(message, session, views):
            sent.append((session, session.conn.seat, session.conn.client_role, opened, state))

    async def spy_handle(session, event):
        received.append((len(sent), session, event))
        await handle(session, event)

    def capped_act(player):
        if player.actions >= ACTIONS_PER_BOT:
            stopped.add(player.table)
            return []
        return bot_act(player)

    monkeypatch.setattr(Session, "send", spy_send)
    monkeypatch.setattr(Session, "send_framed", spy_send_framed)
    monkeypatch.setattr(Session, "_handle", spy_handle)
    monkeypatch.setattr(BotPlayer, "act", capped_act)
    seeds = [n for _, _, seed in TABLES for n in (seed, 1, 2)]
    over = set()

    async def watch(server, table, memory, task_status=trio.TASK_STATUS_IGNORED):
        # Half the spectators get views as deltas (the bots always do).
        conn = SpectatorConnection(features=(DELTA_VIEWS,) if memory else ())
        watcher = await Client.connect(server, f"watcher-{table}", "spectator", memory=memory, conn=conn)
        await watcher.send(Spectate(table))
        await watcher.expect(Snapshot)
        task_status.started()  # the spectator is in before the bots: it sees every event
        while (event := await watcher.recv()) is not None:
            if isinstance(event, GameOver):
                over.add(table)

    with trio.fail_after(HANG_GUARD):  # mock seconds: fires only if the server hangs (then the clock jumps)
        async with running_server(seeds=seeds) as server:
            async with trio.open_nursery() as nursery:
                tables = []
                for number, (options, kind, _) in enumerate(TABLES):
                    table = server.lobby.create_table(options, None)
                    tables.append(table.id)
                    await nursery.start(watch, server, table.id, number % 2 == 0)
                    for seat in SEATS:
                        server.lobby.spawn_bot(table, seat, kind, f"{kind}-{number}-{seat}")
                # Every game is over or waits on a bot that has used its actions, and every frame was read.
                await trio.testing.wait_all_tasks_blocked()
                assert over | stopped == set(tables), set(tables) - over - stopped
                nursery.cancel_scope.cancel()

    kinds, reveals = {}, 0
    seen_teams, committed, revealed = set(), set(), set()
    position = 0
    for index, (session, viewer, role, message, state) in enumerate(sent):
        while position < len(received) and received[position][0] <= index:
            _, who, event = received[position]
            if isinstance(event, Commit):
                committed.add((who, event.purpose))
            if isinstance(event, Reveal):
                revealed.add((who, event.purpose))
            position += 1
        if isinstance(message, Joined) or state is None:
            continue
        # Bytes (nonces, commitments) as hex: their repr shows random printable runs ("...\\xb34G\\xd4...") that
        # the word search would take for a secret.
        text = json.dumps(encode_message(message), default=_plain)
        secrets = secret_tokens(state, viewer) | {room.tile for room in state.rooms if not room.revealed}
        assert leaked(text, secrets) is None, (viewer, leaked(text, secrets), text[:300])
        if isinstance(message, Snapshot):
            check_view(message.view, viewer)
        elif isinstance(message, TableEvent):
            check_event(message.event, viewer)
            if role == "spectator":
                kinds[message.event.get("kind")] = kinds.get(message.event.get("kind"), 0) + 1
            if message.event.get("kind") == "teams_revealed":
                seen_teams.add(session)
        elif isinstance(message, OpponentCommit):
            assert (session, message.purpose) in committed  # only once one's own commitment is in
        elif isinstance(message, OpponentReveal):
            assert role == "player" and (session, message.purpose) in revealed
            assert message.purpose != "team" or session in seen_teams
            reveals += 1
    # The games went far enough for the check to mean something.
    assert kinds["teams_revealed"] == len(TABLES) and kinds["combat_resolved"] >= 2 and kinds["room_revealed"] >= 10
    assert reveals == 2 * len(TABLES) + 2 * kinds["combat_resolved"]


def test_the_checker_catches_a_leak():
    """The all-seeing view of a local tool, sent to a seat, fails the checks above."""

    state = new_game(Options(beginner=True), 12)
    leaky = view(state, GOD)
    with pytest.raises(AssertionError):
        check_view({**leaky, "viewer": "B"}, "B")
    secrets = secret_tokens(state, "B") | {room.tile for room in state.rooms if not room.revealed}
    assert leaked(json.dumps(leaky), secrets) is not None
    assert leaked(json.dumps(view(state, "B")), secrets) is None


def _draws(rng, count: int) -> list[int]:
    return [rng.below(1000) for _ in range(count)]


def test_a_bots_draws_do_not_follow_from_one_another():
    """A server bot draws its moves and its pause before each in the open, its team, builds and combat cards in
    secret, from one stream. With the engine's SplitMix64 one output gives the next (the state is a counter seen
    through an invertible mix: `predict` below undoes it), so what the bot showed would tell what it hides; its
    stream is a keyed hash (`KeyedRng`), whose outputs do not follow from one another, and the same seed still
    plays the same game."""
    from dungeon_twister.engine.core.rng import Rng
    from dungeon_twister.server.bot import KeyedRng

    mask = (1 << 64) - 1

    def unshift(z: int, s: int) -> int:  # the inverse of z ^ (z >> s) on 64 bits
        x = z
        for _ in range(64 // s + 1):
            x = z ^ (x >> s)
        return x & mask

    def predict(output: int) -> int:
        """The next output of a SplitMix64 whose last output was `output`."""
        z = unshift(output, 31)
        z = (z * pow(0x94D049BB133111EB, -1, 1 << 64)) & mask
        z = unshift(z, 27)
        z = (z * pow(0xBF58476D1CE4E5B9, -1, 1 << 64)) & mask
        state = unshift(z, 30)
        return Rng(state).next_u64()

    engine = Rng(20261129)
    outputs = [engine.next_u64() for _ in range(50)]
    assert all(predict(a) == b for a, b in zip(outputs, outputs[1:]))  # the predictor works on SplitMix64
    bot = BotPlayer("bot", "t1", "B", "greedy", 20261129, None).rng
    assert type(bot) is KeyedRng
    outputs = [bot.next_u64() for _ in range(50)]
    assert not any(predict(a) == b for a, b in zip(outputs, outputs[1:]))
    again = KeyedRng(20261129)
    assert [again.next_u64() for _ in range(50)] == outputs  # the same seed, the same draws
    # below, choice and shuffle draw from the bot's own stream: two seeds, two games (the engine's `below` once
    # wrote SplitMix64 out to save a call, and every bot drew the same numbers as Rng(0); this test compared one
    # bot's draws with the first draw of 20 new ones, and passed)
    draws = _draws(KeyedRng(20261129), 20)
    assert draws != _draws(KeyedRng(20261130), 20) and draws != _draws(Rng(0), 20)
    assert draws == _draws(KeyedRng(20261129), 20)
    limit = (1 << 64) - ((1 << 64) % 1000)  # (below's rejection bound: the outputs above it are drawn again)
    mirror = KeyedRng(7)
    outputs = [value % 1000 for value in (mirror.next_u64() for _ in range(12)) if value < limit][:10]
    keyed = KeyedRng(7)
    assert [keyed.choice(list(range(1000))) for _ in range(10)] == outputs
    shuffled = list(range(52))
    KeyedRng(7).shuffle(shuffled)
    plain = list(range(52))
    Rng(0).shuffle(plain)
    assert shuffled != plain
