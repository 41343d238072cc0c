"""Helpers for the protocol tests: connections wired back to back, and an example of every message."""

from dungeon_twister.protocol import (
    Takeback,
    TakebackAnswer,
    DrawOffer,
    Rematch,
    DeclineRematch,
    DrawAnswer,
    Action,
    ActionOk,
    ActionRefused,
    Chat,
    ChatMessage,
    Commit,
    Connection,
    CreateTable,
    GameRecord,
    GetRecord,
    Error,
    GameOver,
    Hello,
    Join,
    Joined,
    Leave,
    Left,
    GameInfo,
    Games,
    ListGames,
    ListRatings,
    ListTables,
    OpponentBack,
    OpponentCommit,
    OpponentLeft,
    OpponentReveal,
    Ping,
    PlayerConnection,
    Pong,
    Prove,
    Refused,
    Resume,
    ResumeInfo,
    Reveal,
    RatingInfo,
    Ratings,
    SeatBot,
    ServerClosing,
    Announcement,
    ServerConnection,
    Snapshot,
    Software,
    Spectate,
    SpectatorConnection,
    TableClosed,
    TableCreated,
    TableEvent,
    TableInfo,
    TableOptions,
    Tables,
    TableUpdate,
    Timer,
    Welcome,
)

CLIENT = Software("dt-client", "0.1.0")
SERVER = Software("dt-server", "0.1.0")


def deliver(data: bytes, receiver: Connection) -> list:
    """Feed `data` to `receiver` and return every event it yields."""
    receiver.receive_data(data)
    events = []
    while (event := receiver.next_event()) is not None:
        events.append(event)
    return events


def handshake(client: PlayerConnection | SpectatorConnection, name: str = "ann") -> ServerConnection:
    """A server connection that has welcomed `client`."""
    server = ServerConnection()
    deliver(client.send_hello(name, CLIENT), server)
    deliver(server.answer_hello(SERVER, "session-1"), client)
    return server


def seated(table: str = "t-1", seat: str = "B") -> tuple[PlayerConnection, ServerConnection]:
    """A player and its server connection, the player seated at `table`."""
    player = PlayerConnection()
    server = handshake(player)
    deliver(player.send(Join(table, seat)), server)
    deliver(server.send(Joined(table, f"token-{seat}", seat)), player)
    return player, server


def watching(table: str = "t-1") -> tuple[SpectatorConnection, ServerConnection]:
    """A spectator and its server connection, the spectator watching `table`."""
    spectator = SpectatorConnection()
    server = handshake(spectator, name="sam")
    deliver(spectator.send(Spectate(table)), server)
    deliver(server.send(Joined(table, "token-s")), spectator)
    return spectator, server


OPTIONS = TableOptions(target_vp=6, beginner=True, handicap={"seat": "B", "characters": 6, "removed_cards": [5, 6]},
                       timers=True, private=True)

EXAMPLES = [
    Hello((1, 2), CLIENT, "player", "ann", ResumeInfo("token-B", "t-1", 12)),
    Welcome(1, SERVER, "session-1"),
    Hello((1,), CLIENT, "player", "ann", key=bytes(range(32))),
    Welcome(1, SERVER, "session-2", challenge=bytes(32)),
    Prove(bytes(64)),
    Refused("version_unsupported", "this server speaks versions [1]"),
    ListTables(),
    Tables((TableInfo("t-1", OPTIONS, "waiting", 2, blue="ann"), TableInfo("t-2", TableOptions(), "playing", 0))),
    TableUpdate(TableInfo("t1-3806f2f8", TableOptions(), "playing", 0, blue="ann", yellow="bob")),
    TableClosed("t-2"),
    GetRecord("t1-3806f2f8"),
    GameRecord("t1-3806f2f8", "game seed=4 set=prison vp=5 scenario=prison-1\nB: team d0=MK g0=NG\n"),
    ListRatings(limit=10),
    Ratings((RatingInfo("ann", 1662, 290, 1), RatingInfo("bob", 1338, 290, 1))),
    ListGames(offset=20, limit=10),
    Games((GameInfo("t7-3f9a02c1", TableOptions(), 1796053659, "target", 5, 2, winner="B", blue="ann", yellow="bob"),
           GameInfo("t9-0b1c2d3e", OPTIONS, 1796054000, "draw", 3, 3)), 31, offset=20),
    CreateTable(OPTIONS),
    TableCreated("t-1", join_code="XK7Q"),
    Join("t-1", "Y", "XK7Q"),
    Spectate("t-1", last_event=3),
    Joined("t-1", "token-Y", "Y"),
    Leave(),
    Left("t-1"),
    SeatBot("t-1", "Y", "greedy"),
    Chat("hello"),
    ChatMessage("ann", "hello", "t-1"),
    Action("t-1", "a-1", "pass"),
    Takeback("t-1"),
    TakebackAnswer("t-1", True),
    DrawOffer("t-1"),
    DrawAnswer("t-1", False),
    Rematch("t-1"),
    DeclineRematch("t-1"),
    ActionOk("a-1"),
    ActionRefused("a-1", "illegal_action", "not your turn", rule="BG-TURN-01"),
    TableEvent("t-1", 1, {"kind": "moved", "to": [3, 4]}),
    Snapshot("t-1", 7, {"board": [], "to_act": ["B"]}),
    Resume("t-1", 6),
    OpponentLeft("t-1", "Y", 60),
    OpponentBack("t-1", "Y"),
    Timer("t-1", "B", 30_000),
    GameOver("t-1", {"winner": "B", "vp": {"B": 5, "Y": 2}, "reason": "vp"}),
    Commit("t-1", "combat-7", bytes(32)),
    OpponentCommit("t-1", "combat-7", "Y", bytes(range(32))),
    Reveal("t-1", "combat-7", "card 3", bytes(32)),
    OpponentReveal("t-1", "combat-7", "Y", "card 5", bytes(range(32))),
    Ping(41),
    Pong(41),
    ServerClosing("maintenance"),
    Announcement("restart at 22:00"),
    Error("unknown_type", "unknown message type 'x'", "client", False),
]

# Commitment test vectors: (game_id, seat, purpose, choice, nonce) and the SHA-256 they give.
VECTORS = [
    (
        ("t-42", "B", "team", "team A", bytes(range(32))),
        "7226c4ce49273cce737afdbb8dc0c0b3e300a3addfa16e6697af972201d9647a",
    ),
    (
        ("t-42", "Y", "combat-7", "card 3", b"\xff" * 32),
        "e17f20f32697803e561c095fab0de3eaafd08d2aaf8ff4565c7f7327c655fc2f",
    ),
]
