"""Refusals and protocol errors: each costs the offender at most his own connection, never the game."""

import logging

import msgpack
import trio
from dungeon_twister.protocol import (
    Action,
    ActionOk,
    ActionRefused,
    Chat,
    ChatMessage,
    Commit,
    CreateTable,
    Error,
    Join,
    Joined,
    ListTables,
    OpponentCommit,
    OpponentLeft,
    Ping,
    Pong,
    Refused,
    ResumeInfo,
    Spectate,
    TableCreated,
    Tables,
    TableOptions,
)
from test_server_support import HANG_GUARD, Client, Scripted, running_server, seated_pair, watching


def frame(raw: dict) -> bytes:
    body = msgpack.packb(raw, use_bin_type=True)
    return len(body).to_bytes(4, "big") + body


async def answer(client: Client, action_id: str, text: str, table: str):
    await client.send(Action(table, action_id, text))
    return await client.expect((ActionOk, ActionRefused), lambda e: e.action_id == action_id)


async def first_turn(table: str, blue: Client, yellow: Client, committed: tuple = ()) -> tuple[str, Client, Client]:
    """Both players play on (scripted) until one of them is to play the first turn's card: (its seat, its client,
    the other's). `committed`: the purposes blue has committed to already."""
    players = {"B": Scripted(blue, "B", 1), "Y": Scripted(yellow, "Y", 2)}
    players["B"].committed.update(committed)
    views = {}

    async def until_turn(seat):
        views[seat] = await players[seat].play(table, stop=lambda v: v["phase"] == "card")
        nursery.cancel_scope.cancel()

    async with trio.open_nursery() as nursery:
        nursery.start_soon(until_turn, "B")
        nursery.start_soon(until_turn, "Y")
    ((seat, _),) = views.items()
    return seat, {"B": blue, "Y": yellow}[seat], {"B": yellow, "Y": blue}[seat]


async def test_actions_are_refused_with_their_code_and_rule(autojump_clock):
    with trio.fail_after(HANG_GUARD):
        async with running_server(seeds=(21,)) as server:
            table, blue, yellow = await seated_pair(server, TableOptions(beginner=True))
            # The team is a secret choice: a plain action is refused, commit and reveal are checked.
            refused = await answer(blue, "t-1", "team b0=TH d0=WA g0=TR i0=GB", table)
            assert refused.code == "secret_choice" and "commit" in refused.message
            # the server's own refusal, as a template and its values too (docs/protocol.md, action_refused)
            assert refused.template == "{purpose} is a secret choice: send commit, then reveal"
            assert refused.values == {"purpose": "team"} and refused.template.format(**refused.values) == \
                refused.message
            await blue.send(Commit(table, "combat-1", bytes(32)))
            assert (await blue.expect(Error)).code == "bad_purpose"
            await blue.send_raw(frame({"type": "reveal", "table": table, "purpose": "combat-1", "choice": "combat +1",
                                       "nonce": bytes(32)}))
            assert (await blue.expect(Error)).code == "bad_purpose"
            # §10 step 2: a reveal of the pending purpose before any commitment to it is early, not bad_purpose
            # (found by helper ind24's JS client: dt-server said "no commit-reveal round 'team' is open")
            await blue.send_raw(frame({"type": "reveal", "table": table, "purpose": "team",
                                       "choice": blue.view["legal"][0], "nonce": bytes(32)}))
            assert (await blue.expect(Error)).code == "reveal_early"
            await blue.commit("team", blue.view["legal"][0])
            await blue.send(Commit(table, "team", bytes(32)))
            assert (await blue.expect(Error)).code == "commit_twice"
            await blue.send_raw(frame({"type": "reveal", "table": table, "purpose": "team",
                                       "choice": blue.view["legal"][0], "nonce": bytes(32)}))
            assert (await blue.expect(Error)).code == "reveal_early"

            # Play on to the first turn.
            seat, active, idle = await first_turn(table, blue, yellow, committed=("team",))

            refused = await answer(idle, "x-1", "card 2", table)
            assert (refused.code, refused.rule) == ("illegal_action", "BG-TURN-01")
            refused = await answer(active, "x-2", "card 5", table)
            assert (refused.code, refused.rule) == ("illegal_action", "BG-ACT-01")
            # BG-ACT-01: the engine's refusal travels as its template and values, which format to the message
            assert refused.template == "during the first cycle you may play at most a {limit}"
            assert refused.values == {"limit": 2} and refused.template.format(**refused.values) == refused.message
            assert refused.message == "during the first cycle you may play at most a 2"
            refused = await answer(active, "x-3", "fly away", table)
            assert refused.code == "bad_notation" and refused.rule is None
            # the parser's error travels as its template and values too (issue 11): the unknown verb 'fly', where
            # (column 1 of the typed text), with the parser's template followed by the "at column" one
            assert refused.template.startswith("unknown verb {verb}")
            assert refused.template.endswith(" at column {column}: {text}")
            assert {k: refused.values[k] for k in ("verb", "column", "text")} == {
                "verb": "'fly'", "column": 1, "text": "'fly away'"}
            assert refused.template.format(**refused.values) == refused.message
            assert refused.message.startswith("unknown verb 'fly'")
            # The same id and text get the same answer; the same id with another text is refused.
            assert await answer(active, "x-3", "fly away", table) == refused
            reused = await answer(active, "x-3", "end", table)
            assert reused.code == "action_id_reused"
            assert reused.template.format(**reused.values) == reused.message == "this action_id was used for 'fly away'"
            # An abbreviation that matches one legal action is accepted: "2" is "card 2".
            assert isinstance(await answer(active, "x-4", "2", table), ActionOk)
            assert isinstance(await answer(active, "x-4", "2", table), ActionOk)  # not applied twice
            assert (await answer(active, "x-4", "end", table)).code == "action_id_reused"  # an accepted id too
            assert len(active.events_of("card_played")) == 1
            ambiguous = await answer(active, "x-5", "move", table)
            assert ambiguous.code == "ambiguous_action" and "move " in ambiguous.message
            assert ambiguous.values["text"] == "'move'" and ambiguous.values["count"] >= 2
            assert ambiguous.template == ("{text} matches {count} actions: {candidates}, …"
                                          if ambiguous.values["count"] > 12 else
                                          "{text} matches {count} actions: {candidates}")
            assert ambiguous.template.format(**ambiguous.values) == ambiguous.message
            assert active.errors() == [] and idle.errors() == []


async def test_an_old_accepted_action_id_gets_the_same_answer_from_the_journal(autojump_clock, monkeypatch):
    """Protocol section 9, idempotent actions, in bounded memory (server/answers.py): beyond a seat's last RECENT
    answers (2 here, 16 in play), an id answered action_ok is known by its hash and its text read back from the
    journal: repeated with the same text it is answered action_ok and not applied again; with another text,
    action_id_reused names the text it was used for. An old refused id is forgotten: sent again, it is judged
    again. At most RECENT answers are kept whole."""
    from dungeon_twister.server import answers

    monkeypatch.setattr(answers, "RECENT", 2)
    with trio.fail_after(HANG_GUARD):
        async with running_server(seeds=(21,)) as server:
            table, blue, yellow = await seated_pair(server, TableOptions(beginner=True))
            seat, active, _ = await first_turn(table, blue, yellow)
            assert isinstance(await answer(active, "old-1", "2", table), ActionOk)  # "2" is "card 2"
            refused = await answer(active, "old-2", "card 9", table)
            assert refused.code == "illegal_action"
            for n in range(3):  # three answers more: both old ones leave the answers kept whole
                assert (await answer(active, f"new-{n}", "fly", table)).code == "bad_notation"
            kept = server.lobby.tables[table].play.answers[seat]
            assert set(kept._ids) == {"new-1", "new-2"} and answers._hash("old-1") in kept._accepted

            assert isinstance(await answer(active, "old-1", "2", table), ActionOk)
            reused = await answer(active, "old-1", "end", table)
            assert reused.code == "action_id_reused" and reused.message == "this action_id was used for '2'"
            assert len(active.events_of("card_played")) == 1, "the repeat was not applied again"
            again = await answer(active, "old-2", "card 9", table)
            assert again.code == "illegal_action" and again.rule == refused.rule
            assert active.errors() == []


async def reveal_when_asked(client: Client, purpose: str) -> None:
    await client.expect(OpponentCommit, lambda e: e.purpose == purpose)
    await client.reveal(purpose)


async def test_a_malformed_frame_closes_only_that_connection(autojump_clock):
    with trio.fail_after(HANG_GUARD):
        async with running_server(seeds=(21,)) as server:
            table, blue, yellow = await seated_pair(server, TableOptions(beginner=True))
            watcher = await Client.connect(server, "watcher", "spectator")
            await watcher.send(Spectate(table))
            await watcher.expect(Joined)
            # Message errors are not fatal: an unknown type, a bad field, a spectator trying to act.
            mallory = await Client.connect(server, "mallory")
            await mallory.send_raw(frame({"type": "teleport"}))
            assert (await mallory.expect(Error)).code == "unknown_type"
            await mallory.send_raw(frame({"type": "join", "table": 7}))
            assert (await mallory.expect(Error)).code == "bad_field"
            await watcher.send_raw(frame({"type": "action", "table": table, "action_id": "a", "text": "end"}))
            assert (await watcher.expect(Error)).code == "wrong_role"
            await mallory.send(Ping(7))
            assert (await mallory.expect(Pong)).id == 7
            # A framing error is fatal to that connection only.
            await mallory.send_raw(b"\x00\x00\x00\x03\xc1\xc1\xc1")
            error = await mallory.expect(Error)
            assert (error.code, error.fatal, error.fault) == ("bad_msgpack", True, "client")
            assert await mallory.recv() is None
            huge = await Client.connect(server, "huge")
            await huge.send_raw((2**31).to_bytes(4, "big"))
            assert (await huge.expect(Error)).code == "frame_too_large"
            assert await huge.recv() is None
            # The game and the other connections carry on.
            await blue.commit("team", blue.view["legal"][0])
            await yellow.commit("team", yellow.view["legal"][0])
            for client in (blue, yellow):
                await reveal_when_asked(client, "team")
            for client in (blue, yellow, watcher):
                assert (await client.expect_event("hidden_placement_started"))["first"] in ("B", "Y")


async def test_a_tls_handshake_on_a_plain_server_is_logged_as_tls_not_offered(autojump_clock, caplog):
    """dt-client tries TLS first (client/tls.py): on a server without TLS, its ClientHello's record header
    (0x16 0x03 0x01, then a length) reads as a frame length far over the limit. The server answers it as any
    oversized frame (frame_too_large, then closes), but logs tls_not_offered, not a client error, and its
    `disconnected` line says so (admin review 21: it said "fatal error" with a frame of 369,295,618 bytes); an
    oversized frame whose first byte does not open a TLS record is still logged as a client error."""
    async def first_answer(data: bytes) -> dict:
        stream = await trio.open_tcp_stream("127.0.0.1", server.port)
        await stream.send_all(data)
        received = b""
        while chunk := await stream.receive_some(65536):
            received += chunk
        await stream.aclose()
        size = int.from_bytes(received[:4], "big")
        return msgpack.unpackb(received[4:4 + size])

    caplog.set_level(logging.DEBUG, logger="dungeon_twister.server")
    with trio.fail_after(HANG_GUARD):
        async with running_server() as server:
            client_hello = bytes([0x16, 0x03, 0x01, 0x02, 0x00, 0x01]) + bytes(511)  # handshake record, 512 bytes
            assert (await first_answer(client_hello))["code"] == "frame_too_large"
            assert (await first_answer((2**31).to_bytes(4, "big")))["code"] == "frame_too_large"
    logged = [(r.getMessage(), r.fields.get("code")) for r in caplog.records
              if r.getMessage() in ("tls_not_offered", "client_error")]
    assert logged == [("tls_not_offered", None), ("client_error", "frame_too_large")]
    ended = [(r.fields["reason"], r.fields.get("code"), r.levelno) for r in caplog.records
             if r.getMessage() == "disconnected"]
    # (the TLS try's a debug line: its tls_not_offered says it, and pt22b read two info lines a client start)
    assert ended == [("tls not offered", None, logging.DEBUG), ("fatal error", "frame_too_large", logging.INFO)]


async def test_lobby_rules_names_seats_private_tables_and_chat(autojump_clock):
    with trio.fail_after(HANG_GUARD):
        async with running_server(max_connections=3) as server:
            ann = await Client.connect(server, "ann")
            again = await Client.connect(server, "ann", welcome=False)
            taken = await again.expect(Refused)
            assert taken.code == "name_taken"
            # the reason as a template and its values too, which a client translates (docs/protocol.md, section 3)
            assert (taken.template, taken.values) == ("the name {name} is already used on this server",
                                                      {"name": "'ann'"})
            assert taken.template.format(**taken.values) == taken.reason
            await ann.send(CreateTable(TableOptions(target_vp=6, private=True)))
            private = await ann.expect(TableCreated)
            await ann.send(CreateTable(TableOptions(timers=True)))
            public = (await ann.expect(TableCreated)).table
            assert private.join_code
            await ann.send_raw(frame({"type": "create_table", "options": {"handicap": {"seat": "Q"}}}))
            assert (await ann.expect(Error)).code == "bad_field"

            bob = await Client.connect(server, "bob")
            await bob.send(ListTables())
            listed = (await bob.expect(Tables)).tables
            assert [t.table for t in listed] == [public] and listed[0].status == "waiting"
            await bob.send(Join(private.table, "B"))
            error = await bob.expect(Error)
            assert error.code == "no_such_table"
            # the errors a person meets carry their sentence as a template and its values (docs/protocol.md, 7)
            assert (error.template, error.values) == ("table {table} is private: it takes its join code",
                                                      {"table": private.table})
            assert error.template.format(**error.values) == error.message
            await bob.send(Join(private.table, "B", "wrong"))
            error = await bob.expect(Error)
            assert (error.code, error.message) == ("bad_join_code",
                                                   f"that is not the join code of table {private.table}")
            await bob.send(Join("t-none"))
            error = await bob.expect(Error)
            assert (error.code, error.message, error.template, error.values) == (
                "no_such_table", "there is no table 't-none'", "there is no table {table}", {"table": "'t-none'"})
            await ann.send(Chat("anyone for a game?"))
            said = await bob.expect(ChatMessage)
            assert (said.sender, said.text, said.table) == ("ann", "anyone for a game?", None)

            await bob.send(Join(public, "Y"))
            await bob.expect(Joined)
            await ann.send(Join(public, "Y"))
            error = await ann.expect(Error)
            assert (error.code, error.template, error.values) == ("seat_taken", "that seat is taken", None)
            await ann.send(Join(private.table, "B", private.join_code))
            assert (await ann.expect(Joined)).seat == "B"
            watcher = await Client.connect(server, "watcher", "spectator")
            await watcher.send(Spectate(public))
            await watcher.expect(Joined)
            await bob.send(Chat("hello table"))
            for client in (bob, watcher):
                said = await client.expect(ChatMessage)
                assert (said.sender, said.table) == ("bob", public)
            await watcher.send(ListTables())
            (info,) = (await watcher.expect(Tables)).tables
            assert (info.yellow, info.blue, info.spectators, info.options.timers) == ("bob", None, 1, True)
            full = await Client.connect(server, "eve", welcome=False)
            assert (await full.expect(Refused)).code == "server_full"


async def test_a_private_table_is_watched_only_with_its_join_code(autojump_clock):
    with trio.fail_after(HANG_GUARD):
        async with running_server() as server:
            ann = await Client.connect(server, "ann")
            await ann.send(CreateTable(TableOptions(private=True)))
            private = await ann.expect(TableCreated)
            watcher = await Client.connect(server, "watcher", "spectator")
            await watcher.send(Spectate(private.table))
            assert (await watcher.expect(Error)).code == "no_such_table"
            await watcher.send(Spectate(private.table, join_code="wrong"))
            assert (await watcher.expect(Error)).code == "bad_join_code"
            # typed as read aloud at a LAN party: in capitals, with a space (a play-test's "1F3473E9" was refused)
            await watcher.send(Spectate(private.table, join_code=f" {private.join_code.upper()}"))
            assert (await watcher.expect(Joined)).seat is None


def test_a_refusal_beyond_the_protocol_limits_is_sent_as_its_message_alone():
    """action_refused.template/values are bounded (docs/protocol.md): a string value over 200 characters is cut to
    200, its last one "…", and the template still goes (the client translates the refusal); a refusal whose
    template or values would break the limits otherwise goes as its message only, which every client shows; a
    message is cut to 1000 characters."""
    from dungeon_twister.server.game import Refusal, server_refusal
    from dungeon_twister.server.play import refused

    fine = refused("a-1", server_refusal("not_started", "the game starts when both seats are taken"))
    assert (fine.template, fine.values) == ("the game starts when both seats are taken", None)
    long = refused("a-1", Refusal("illegal_action", "x" * 1200, "BG-MOVE-01", "{text}", {"text": "x" * 1200}))
    assert (long.message, long.template, long.values) == ("x" * 1000, "{text}", {"text": "x" * 199 + "…"})
    edge = refused("a-1", Refusal("illegal_action", "m", "BG-MOVE-01", "{a} {n}", {"a": "y" * 200, "n": 10**6}))
    assert edge.values == {"a": "y" * 200, "n": 10**6}  # at the limit: as it is
    many = refused("a-1", Refusal("illegal_action", "m", "BG-MOVE-01", "m", {f"k{i}": i for i in range(17)}))
    assert (many.template, many.values) == (None, None)
    plain = refused("a-1", Refusal("bad_notation", "unknown verb"))
    assert (plain.code, plain.message, plain.rule, plain.template, plain.values) == (
        "bad_notation", "unknown verb", None, None, None)


async def test_a_table_asked_for_while_the_server_shuts_down_is_refused_as_not_allowed(autojump_clock):
    """Found by a review: create_table while the server shuts down was answered bad_field ("create_table: the
    server is shutting down"), blaming the client, in English whatever its language. It is not_allowed, with its
    sentence as a template (docs/protocol.md section 7)."""
    with trio.fail_after(HANG_GUARD):
        async with running_server() as server:
            ann = await Client.connect(server, "ann")
            server.closing = True  # (as `Server.shutdown` sets it first; set back for the test's own shutdown)
            await ann.send(CreateTable(TableOptions()))
            error = await ann.expect(Error)
            server.closing = False
            assert (error.code, error.fault, error.message, error.template) == (
                "not_allowed", "client", "the server is shutting down: no new table",
                "the server is shutting down: no new table")


async def test_a_full_server_lets_a_player_back_into_his_held_seat(autojump_clock):
    """max_connections keeps newcomers out, not a player coming back to the seat the server holds for him
    (play-test pt26 F1: idle lobby connections kept a seated player out of his game until one of them left); a
    token that holds no seat, or a spectator's, is refused as before."""
    with trio.fail_after(HANG_GUARD):
        async with running_server(max_connections=3) as server:
            table, blue, yellow = await seated_pair(server, TableOptions())
            watcher = await watching(server, table)
            token, last_event = blue.token, blue.conn.last_event
            await blue.close()
            assert (await yellow.expect(OpponentLeft)).seat == "B"
            idle = await Client.connect(server, "idle")  # the third connection: the server is full
            newcomer = await Client.connect(server, "eve", welcome=False)
            assert (await newcomer.expect(Refused)).code == "server_full"
            stranger = await Client.connect(server, "ann", resume=ResumeInfo("x" * 32, table, 0), welcome=False)
            assert (await stranger.expect(Refused)).code == "server_full"
            back = await Client.connect(server, "ann", resume=ResumeInfo(token, table, last_event))
            assert (await back.expect(Joined)).seat == "B"
            assert idle.name == "idle" and watcher.name == "watcher"
