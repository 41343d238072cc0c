"""Connections wired back to back: handshake, lobby, game, and every error path."""

import pytest
from dungeon_twister.protocol import (
    Action,
    ActionOk,
    ActionRefused,
    Chat,
    ChatMessage,
    Commit,
    CreateTable,
    Error,
    GameOver,
    Hello,
    Join,
    Joined,
    Leave,
    Left,
    ListTables,
    Ping,
    PlayerConnection,
    Pong,
    ProtocolError,
    Refused,
    Resume,
    ResumeInfo,
    Reveal,
    SeatBot,
    ServerClosing,
    ServerConnection,
    Snapshot,
    Spectate,
    SpectatorConnection,
    State,
    TableCreated,
    TableEvent,
    TableInfo,
    TableOptions,
    Tables,
    Timer,
    Welcome,
)
from dungeon_twister.protocol.codec import decode_message, encode_message, pack_map, unpack_map
from dungeon_twister.protocol.connection import encode_frame
from dungeon_twister.protocol.framing import frame
from dungeon_twister.protocol.wire_types import Packed
from protocol_fixtures import CLIENT, SERVER, deliver, handshake, seated, watching


def raw_frame(raw: dict) -> bytes:
    return frame(pack_map(raw))


def only_error(events: list) -> ProtocolError:
    assert len(events) == 1 and isinstance(events[0], ProtocolError), events
    return events[0]


def decoded_error(data: bytes) -> Error:
    """The Error message an error frame holds, as a fresh client would decode it."""
    client = PlayerConnection()
    client.send_hello("x", CLIENT)
    [error] = deliver(data, client)
    return error


# Handshake


def test_player_handshake():
    player = PlayerConnection()
    server = ServerConnection()
    [hello] = deliver(player.send_hello("ann", CLIENT), server)
    assert hello == Hello((1,), CLIENT, "player", "ann")
    assert player.state == server.state == State.AWAIT_WELCOME
    [welcome] = deliver(server.answer_hello(SERVER, "session-1"), player)
    assert welcome == Welcome(1, SERVER, "session-1")
    assert player.state == server.state == State.LOBBY
    assert player.version == server.version == 1


def test_spectator_handshake():
    spectator = SpectatorConnection()
    server = handshake(spectator)
    assert server.hello.role == "spectator"
    assert spectator.state == server.state == State.LOBBY


def test_the_server_chooses_the_highest_common_version():
    player = PlayerConnection(versions=(1, 5, 9))
    server = ServerConnection(versions=(1, 5, 7))
    deliver(player.send_hello("ann", CLIENT), server)
    [welcome] = deliver(server.answer_hello(SERVER, "s"), player)
    assert welcome.version == 5 == player.version == server.version


def test_no_common_version_is_refused():
    player = PlayerConnection(versions=(99,))
    server = ServerConnection()
    deliver(player.send_hello("ann", CLIENT), server)
    [refused] = deliver(server.answer_hello(SERVER, "s"), player)
    assert isinstance(refused, Refused) and refused.code == "version_unsupported"
    assert player.state == server.state == State.CLOSED


def test_the_server_cannot_welcome_with_a_version_the_client_did_not_offer():
    server = ServerConnection(versions=(1, 2))
    deliver(PlayerConnection(versions=(1,)).send_hello("ann", CLIENT), server)
    with pytest.raises(ProtocolError) as caught:
        server.send(Welcome(2, SERVER, "s"))
    assert (caught.value.code, caught.value.fault) == ("bad_version", "local")
    assert server.state == State.AWAIT_WELCOME


def test_the_client_checks_the_chosen_version_was_offered():
    player = PlayerConnection(versions=(1,))
    player.send_hello("ann", CLIENT)
    error = only_error(
        deliver(
            raw_frame({"type": "welcome", "version": 2, "server": {"name": "s", "version": "1"}, "session": "s"}),
            player,
        )
    )
    assert (error.code, error.fault, error.fatal) == ("bad_version", "remote", True)
    assert player.state == State.CLOSED and player.version is None


def test_only_the_handshake_is_allowed_before_welcome():
    server = ServerConnection()
    error = only_error(deliver(raw_frame({"type": "list_tables"}), server))
    assert (error.code, error.fault, error.fatal) == ("wrong_state", "remote", False)
    assert server.state == State.AWAIT_HELLO
    player = PlayerConnection()
    with pytest.raises(ProtocolError, match="wrong_state"):
        player.send(ListTables())
    deliver(player.send_hello("ann", CLIENT), server)
    with pytest.raises(ProtocolError, match="wrong_state"):
        player.send_hello("ann", CLIENT)
    assert only_error(deliver(raw_frame({"type": "ping", "id": 1}), server)).code == "wrong_state"


def test_a_connection_says_hello_in_its_own_role():
    with pytest.raises(ProtocolError, match="wrong_role"):
        SpectatorConnection().send(Hello((1,), CLIENT, "player", "sam"))


def test_resume_in_hello_restores_the_seat_and_the_event_count():
    player = PlayerConnection()
    server = ServerConnection()
    [hello] = deliver(player.send_hello("ann", CLIENT, ResumeInfo("token-B", "t-1", 4)), server)
    assert hello.resume == ResumeInfo("token-B", "t-1", 4)
    deliver(server.answer_hello(SERVER, "s"), player)
    deliver(server.send(Joined("t-1", "token-B2", "B")), player)
    assert player.state == State.AT_TABLE and player.last_event == 4
    assert deliver(server.send(TableEvent("t-1", 4, {})), player) == []
    assert deliver(server.send(TableEvent("t-1", 5, {"e": 5})), player) == [TableEvent("t-1", 5, {"e": 5})]


def test_a_failed_resume_leaves_the_client_in_the_lobby_with_a_fresh_count():
    player = PlayerConnection()
    server = ServerConnection()
    deliver(player.send_hello("ann", CLIENT, ResumeInfo("stale", "t-1", 4)), server)
    deliver(server.answer_hello(SERVER, "s"), player)
    [error] = deliver(server.send_error(ProtocolError("bad_token", "expired")), player)
    assert error == Error("bad_token", "expired", "client", False)
    assert player.state == State.LOBBY
    deliver(player.send(Join("t-1")), server)
    deliver(server.send(Joined("t-1", "token-Y", "Y")), player)
    assert player.last_event == 0


# Lobby


def test_lobby_exchange_for_a_player():
    player = PlayerConnection()
    server = handshake(player)
    assert deliver(player.send(ListTables()), server) == [ListTables()]
    tables = Tables((TableInfo("t-1", TableOptions(), "waiting", 0, blue="bob"),))
    assert deliver(server.send(tables), player) == [tables]
    create = CreateTable(TableOptions(target_vp=7, private=True))
    assert deliver(player.send(create), server) == [create]
    assert deliver(server.send(TableCreated("t-2", "XK7Q")), player) == [TableCreated("t-2", "XK7Q")]
    assert deliver(player.send(Chat("hi all")), server) == [Chat("hi all")]
    assert deliver(server.send(ChatMessage("ann", "hi all")), player) == [ChatMessage("ann", "hi all")]
    deliver(player.send(Join("t-2", "Y", "XK7Q")), server)
    [joined] = deliver(server.send(Joined("t-2", "token-Y", "Y")), player)
    assert joined.seat == player.seat == server.seat == "Y"
    assert player.state == server.state == State.AT_TABLE and player.table == server.table == "t-2"
    assert deliver(player.send(SeatBot("t-2", "B", "random")), server) == [SeatBot("t-2", "B", "random")]
    deliver(player.send(Leave()), server)
    assert deliver(server.send(Left("t-2")), player) == [Left("t-2")]
    assert player.state == server.state == State.LOBBY and player.table is None and player.seat is None


def test_spectating_and_leaving():
    spectator, server = watching("t-1")
    assert spectator.state == server.state == State.SPECTATING and spectator.seat is None
    assert deliver(server.send(Snapshot("t-1", 9, {"turn": 3})), spectator) == [Snapshot("t-1", 9, {"turn": 3})]
    assert deliver(server.send(TableEvent("t-1", 10, {})), spectator) == [TableEvent("t-1", 10, {})]
    assert deliver(server.send(Timer("t-1", "B", 15_000)), spectator) == [Timer("t-1", "B", 15_000)]
    deliver(spectator.send(Leave()), server)
    deliver(server.send(Left("t-1")), spectator)
    assert spectator.state == server.state == State.LOBBY


def test_spectate_with_last_event_skips_what_was_seen():
    spectator = SpectatorConnection()
    server = handshake(spectator)
    deliver(spectator.send(Spectate("t-1", last_event=3)), server)
    deliver(server.send(Joined("t-1", "token-s")), spectator)
    assert spectator.last_event == 3
    assert deliver(server.send(TableEvent("t-1", 4, {})), spectator) == [TableEvent("t-1", 4, {})]


def test_joined_must_match_the_role():
    spectator = SpectatorConnection()
    server = handshake(spectator)
    with pytest.raises(ProtocolError, match="bad_field"):
        server.send(Joined("t-1", "token", "B"))
    error = only_error(deliver(raw_frame({"type": "joined", "table": "t-1", "token": "x", "seat": "B"}), spectator))
    assert (error.code, error.fault) == ("bad_field", "remote")
    assert spectator.state == State.LOBBY


# Game


def test_game_exchange_for_a_player():
    player, server = seated("t-1", "B")
    action = Action("t-1", "a-1", "pass")
    assert deliver(player.send(action), server) == [action]
    assert deliver(server.send(ActionOk("a-1")), player) == [ActionOk("a-1")]
    refused = ActionRefused("a-2", "illegal_action", "not your turn", rule="BG-TURN-01")
    assert deliver(server.send(refused), player) == [refused]
    event = TableEvent("t-1", 1, {"kind": "moved"})
    assert deliver(server.send(event), player) == [event]
    assert deliver(player.send(Ping(7)), server) == [Ping(7)]
    assert deliver(server.send(Pong(7)), player) == [Pong(7)]
    result = GameOver("t-1", {"winner": "B", "vp": {"B": 5, "Y": 3}, "reason": "vp"})
    assert deliver(server.send(result), player) == [result]
    assert player.state == State.AT_TABLE


def test_repeated_table_events_are_dropped_and_a_gap_is_reported():
    player, server = seated()
    frames = b"".join(server.send(TableEvent("t-1", n, {"n": n})) for n in (1, 2, 1, 2, 3))
    assert [event.n for event in deliver(frames, player)] == [1, 2, 3]
    error = only_error(deliver(server.send(TableEvent("t-1", 5, {})), player))
    assert (error.code, error.fault, error.fatal) == ("event_gap", "remote", False)
    assert player.last_event == 3
    assert deliver(player.send(Resume("t-1", player.last_event)), server) == [Resume("t-1", 3)]
    assert [event.n for event in deliver(server.send(TableEvent("t-1", 4, {})), player)] == [4]


def test_a_snapshot_resets_the_event_count():
    player, server = seated()
    deliver(server.send(Snapshot("t-1", 40, {})), player)
    assert player.last_event == 40
    assert deliver(server.send(TableEvent("t-1", 41, {})), player) == [TableEvent("t-1", 41, {})]


def test_messages_for_another_table_are_refused_both_ways():
    player, server = seated("t-1")
    with pytest.raises(ProtocolError) as caught:
        player.send(Action("t-2", "a-1", "pass"))
    assert (caught.value.code, caught.value.fault) == ("wrong_table", "local")
    error = only_error(deliver(raw_frame({"type": "action", "table": "t-2", "action_id": "a", "text": "pass"}), server))
    assert (error.code, error.fault, error.fatal) == ("wrong_table", "remote", False)


def test_game_messages_need_a_table():
    player = PlayerConnection()
    server = handshake(player)
    with pytest.raises(ProtocolError, match="wrong_state"):
        player.send(Action("t-1", "a-1", "pass"))
    with pytest.raises(ProtocolError, match="wrong_state"):
        player.commit("team", "team A")
    error = only_error(deliver(raw_frame({"type": "action", "table": "t-1", "action_id": "a", "text": "pass"}), server))
    assert (error.code, error.fault) == ("wrong_state", "remote")


def test_server_closing_closes_both_ends():
    player = PlayerConnection()
    server = handshake(player)
    assert deliver(server.send(ServerClosing("maintenance")), player) == [ServerClosing("maintenance")]
    assert player.state == server.state == State.CLOSED
    with pytest.raises(ProtocolError, match="wrong_state"):
        player.send(Chat("anyone?"))


# Errors


def test_a_spectator_cannot_act_commit_or_reveal():
    spectator, server = watching("t-1")
    for message in (
        Action("t-1", "a-1", "pass"),
        Commit("t-1", "team", bytes(32)),
        Reveal("t-1", "team", "team A", bytes(32)),
        SeatBot("t-1", "B", "random"),
    ):
        with pytest.raises(ProtocolError) as caught:
            spectator.send(message)
        assert (caught.value.code, caught.value.fault) == ("wrong_role", "local")
    forged = raw_frame({"type": "action", "table": "t-1", "action_id": "a-1", "text": "pass"})
    error = only_error(deliver(forged, server))
    assert (error.code, error.fault, error.fatal) == ("wrong_role", "remote", False)
    answer = decoded_error(server.send_error(error))
    assert (answer.code, answer.fault, answer.fatal) == ("wrong_role", "client", False)
    assert server.state == State.SPECTATING
    assert deliver(spectator.send(Chat("still here")), server) == [Chat("still here")]


def test_a_player_cannot_send_what_only_the_server_sends():
    player, server = seated()
    with pytest.raises(ProtocolError, match="wrong_role"):
        player.send(TableEvent("t-1", 1, {}))
    with pytest.raises(ProtocolError, match="wrong_role"):
        server.send(Action("t-1", "a", "pass"))
    error = only_error(deliver(raw_frame({"type": "action_ok", "action_id": "a"}), server))
    assert (error.code, error.fault) == ("wrong_role", "remote")


@pytest.mark.parametrize(
    ("data", "code", "fatal"),
    [
        (frame(b"\xc1"), "bad_msgpack", True),
        (b"\x00\x00\x00\x00", "empty_frame", True),
        ((2 * 1024 * 1024).to_bytes(4, "big"), "frame_too_large", True),
        (frame(pack_map([1, 2])), "not_a_map", True),
        (raw_frame({"type": "teleport"}), "unknown_type", False),
        (raw_frame({"type": "join"}), "missing_field", False),
        (raw_frame({"type": "join", "table": 3}), "bad_field", False),
        (raw_frame({"type": "join", "table": "t-1", "seat": "green"}), "bad_field", False),
    ],
)
def test_bad_input_gets_its_error_code_and_harms_no_other_connection(data, code, fatal):
    victim, victim_server = seated("t-1", "B")
    bystander, bystander_server = seated("t-1", "Y")
    error = only_error(deliver(data, victim_server))
    assert (error.code, error.fault, error.fatal) == (code, "remote", fatal)
    answer = decoded_error(victim_server.send_error(error))
    assert (answer.code, answer.fault, answer.fatal) == (code, "client", fatal)
    assert victim_server.state == (State.CLOSED if fatal else State.AT_TABLE)
    assert deliver(bystander.send(Action("t-1", "a-1", "pass")), bystander_server) == [Action("t-1", "a-1", "pass")]
    if not fatal:
        assert deliver(victim.send(Action("t-1", "a-2", "pass")), victim_server) == [Action("t-1", "a-2", "pass")]


def test_nothing_is_read_after_a_fatal_error():
    server = ServerConnection()
    server.receive_data(b"\x00\x00\x00\x00" + PlayerConnection().send_hello("ann", CLIENT))
    assert server.next_event().code == "empty_frame"
    assert server.next_event() is None and server.state == State.CLOSED


def test_an_oversized_frame_is_refused_before_its_body_arrives():
    server = ServerConnection(max_frame_size=64)
    error = only_error(deliver((65).to_bytes(4, "big"), server))
    assert (error.code, error.fatal) == ("frame_too_large", True)
    assert server.state == State.CLOSED
    assert deliver(b"x" * 65, server) == []


def test_a_fatal_error_received_closes_the_connection():
    player, server = seated()
    [error] = deliver(server.send_error(ProtocolError("timeout", "no ping answer")), player)
    assert error == Error("timeout", "no ping answer", "client", True)
    assert player.state == server.state == State.CLOSED


def test_local_errors_are_reported_as_the_senders_fault():
    player, server = seated()
    [error] = deliver(server.send_error(ProtocolError("internal", "bug")), player)
    assert (error.fault, error.fatal) == ("server", False)
    [error] = deliver(player.send_error(ProtocolError("bad_field", "from the server")), server)
    assert error.fault == "server"


def test_a_long_error_message_is_cut_to_fit_the_field():
    error = decoded_error(ServerConnection().send_error(ProtocolError("internal", "x" * 5000)))
    assert error.message == "x" * 1000


def trickle(data: bytes, receiver) -> list:
    """Deliver `data` one byte at a time."""
    return [event for byte in data for event in deliver(bytes([byte]), receiver)]


def test_a_whole_session_fed_one_byte_at_a_time():
    player = PlayerConnection()
    server = ServerConnection()
    assert trickle(player.send_hello("ann", CLIENT), server) == [Hello((1,), CLIENT, "player", "ann")]
    assert trickle(server.answer_hello(SERVER, "s"), player) == [Welcome(1, SERVER, "s")]
    assert trickle(player.send(Join("t-1", "B")), server) == [Join("t-1", "B")]
    answers = server.send(Joined("t-1", "token", "B")) + b"".join(
        server.send(TableEvent("t-1", n, {"n": n})) for n in (1, 2, 3)
    )
    assert [type(event) for event in trickle(answers, player)] == [Joined, TableEvent, TableEvent, TableEvent]
    actions = [Action("t-1", f"a-{i}", "pass") for i in range(3)]
    assert trickle(b"".join(player.send(action) for action in actions), server) == actions
    assert player.state == server.state == State.AT_TABLE and player.last_event == 3


def test_a_frame_made_once_is_the_frame_each_connection_would_make():
    """A table's event to a class of viewers is encoded once (encode_frame) and sent on each of their connections
    (send_framed): the bytes are those `send` makes, and each connection checks and records it as `send` does."""
    player, server = seated("t-1", "B")
    twin_player, twin = seated("t-1", "B")
    event = TableEvent("t-1", 1, {"kind": "moved", "seat": "B"})
    shared = encode_frame(event)
    assert twin.send_framed(event, shared) == server.send(event)
    assert twin.state == server.state == State.AT_TABLE
    assert deliver(shared, twin_player) == [event] and twin_player.last_event == 1
    with pytest.raises(ProtocolError) as caught:  # the checks of send: another table's event is refused
        twin.send_framed(TableEvent("t-2", 2, {}), encode_frame(TableEvent("t-2", 2, {})))
    assert (caught.value.code, caught.value.fault) == ("wrong_table", "local")
    small = seated("t-1", "B")[1]
    small.max_frame_size = 16  # a frame over this connection's limit is refused, as send refuses it
    with pytest.raises(ProtocolError) as caught:
        small.send_framed(event, shared)
    assert caught.value.code == "frame_too_large"


@pytest.mark.parametrize(("table", "n"), [("t1-0123abcd", 1), ("t" * 64, 2**40), ("t", 70_000)])
def test_a_packed_table_event_is_framed_as_encode_message_frames_it(table, n):
    """encode_frame puts a table_event with a packed event together from its pieces: the bytes of the generic
    encoding (encode_message, pack_map, frame), for ids and numbers of every msgpack size."""
    event = TableEvent(table, n, Packed(pack_map({"kind": "view", "view": {"legal": ["end"], "n": [1, 2]}})))
    assert encode_frame(event) == frame(pack_map(encode_message(event)))
    body = encode_frame(event)[4:]
    assert decode_message(unpack_map(body, len(body))) == TableEvent(table, n, {"kind": "view", "view": {
        "legal": ["end"], "n": [1, 2]}})


@pytest.mark.parametrize(("table", "n"), [("", 1), ("t" * 65, 1), ("t1", 0), ("t1", True)])
def test_a_packed_table_event_with_a_bad_field_is_refused_as_encode_message_refuses_it(table, n):
    event = TableEvent(table, n, Packed(pack_map({"kind": "x"})))
    with pytest.raises(ProtocolError) as fast:
        encode_frame(event)
    with pytest.raises(ProtocolError) as generic:
        encode_message(event)
    assert (fast.value.code, fast.value.message, fast.value.fault) == (
        generic.value.code, generic.value.message, "local")
