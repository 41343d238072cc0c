"""Takebacks (docs/rulings.md DT-224, docs/protocol.md section 6): `takeback` asks the opponent to take back one's
last action, `takeback_answer` accepts or declines; a bot accepts at once; refused with the reason when the rules
do not allow it; durable like an action, and the record comments the action out."""

import trio
from dungeon_twister.engine.boardgame.records import parse_record, replayed
from dungeon_twister.protocol import (Action, ActionOk, Error, Join, Joined, SeatBot, Snapshot, TableOptions,
                                      Takeback, TakebackAnswer)
from dungeon_twister.protocol.errors import TAKEBACK_HEAD
from dungeon_twister.server.records import record_text
from test_server_durable import resume_info, server_on, synced
from test_server_resume import play_until
from test_server_support import HANG_GUARD, Client, Scripted, running_server, seated_pair


def _moving(view: dict) -> bool:
    return view["phase"] == "main" and any(text.startswith("move ") for text in view["legal"])


async def _a_move(server, table, blue, yellow):
    """Scripted players play until one of them may move; he moves. (His seat, his client, the other's client,
    the move, his view before it.)"""
    players = {"B": Scripted(blue, "B", 1), "Y": Scripted(yellow, "Y", 2)}
    ((seat, view),) = (await play_until(table, players, _moving, first=True)).items()
    mover, other = (blue, yellow) if seat == "B" else (yellow, blue)
    move = next(text for text in view["legal"] if text.startswith("move "))
    await mover.send(Action(table, "the-move", move))
    await mover.expect(ActionOk, lambda e: e.action_id == "the-move")
    return seat, mover, other, move, view


async def test_DT_224_a_move_taken_back_with_consent_is_gone_for_good_even_after_a_restart(tmp_path,
                                                                                       autojump_clock):
    """The mover asks; the opponent sees the request and accepts; both see the move taken back and the view of
    before it (the same legal actions for the mover). The store keeps it: after a restart the game is still the one
    before the move, and the record shows the move as a comment, so that it replays without it."""
    with trio.fail_after(HANG_GUARD):
        async with server_on(tmp_path, seeds=(21,), grace_seconds=600) as server:
            table, blue, yellow = await seated_pair(server, TableOptions(beginner=True), memory=True)
            seat, mover, other, move, before = await _a_move(server, table, blue, yellow)
            await mover.send(Takeback(table))
            asked = await other.expect_event("takeback_asked")
            assert asked == {"kind": "takeback_asked", "seat": seat, "action": move}
            await other.send(TakebackAnswer(table, True))
            for client in (mover, other):
                assert (await client.expect_event("taken_back")) == {"kind": "taken_back", "seat": seat,
                                                                      "action": move}
            await mover.expect_event("view")
            assert mover.view["legal"] == before["legal"] and mover.view["players"] == before["players"]
            await synced(other)
            stored = server.lobby.store.table(table)
            text = record_text(stored)
            resume = {"B": resume_info(blue, table), "Y": resume_info(yellow, table)}
        assert f"# taken back: {seat}: {move}" in text.splitlines() and f"# takeback {seat} {move}" in text
        state, lines = parse_record(text)
        assert f"{seat}: {move}" not in [line.text for line in lines]
        assert len(list(replayed(state, lines))) == len(lines)  # the record replays, without the move
        async with server_on(tmp_path, seeds=(5,), grace_seconds=600) as server:
            back = await Client.connect(server, "ann" if seat == "B" else "bob", memory=True, resume=resume[seat])
            snapshot = await back.expect(Snapshot)
            assert snapshot.view["legal"] == before["legal"]


async def test_DT_224_a_declined_takeback_leaves_the_move_and_refusals_say_why(autojump_clock):
    """Declined: the move stands. Refused: nothing of one's own to take back (the opponent's action is the last,
    or none yet), asking twice, answering when nobody asks."""
    with trio.fail_after(HANG_GUARD):
        async with running_server(seeds=(21,)) as server:
            table, blue, yellow = await seated_pair(server, TableOptions(beginner=True), memory=True)
            await blue.send(Takeback(table))  # the team choice: no action yet
            refused = await blue.expect(Error)
            assert refused.message == "nothing of yours can be taken back: no action yet"
            # the head's template, then the reason's, each translated by a client (docs/protocol.md, `error`)
            assert (refused.template, refused.values) == (TAKEBACK_HEAD + "no action yet", None)
            seat, mover, other, move, before = await _a_move(server, table, blue, yellow)
            await other.send(Takeback(table))
            refused = await other.expect(Error)
            assert refused.code == "not_allowed" and "the last action is your opponent's" in refused.message
            assert refused.template == TAKEBACK_HEAD + "the last action is your opponent's"
            await mover.send(TakebackAnswer(table, True))
            assert "no takeback is asked of you" in (await mover.expect(Error)).message
            await mover.send(Takeback(table))
            await other.expect_event("takeback_asked")
            await mover.send(Takeback(table))
            assert "you asked already" in (await mover.expect(Error)).message
            await other.send(TakebackAnswer(table, False))
            declined = await mover.expect_event("takeback_declined")
            assert declined == {"kind": "takeback_declined", "seat": seat, "by": "Y" if seat == "B" else "B"}
            assert mover.events_of("taken_back") == [] and mover.view["legal"] != before["legal"]
            # not asked again and again (each request is a journal line): after the next action only (DT-224)
            await mover.send(Takeback(table))
            assert (await mover.expect(Error)).message == ("your takeback was declined: ask again after the next "
                                                           "action")


async def a_bot_game(server):
    """Ann (Blue) against the greedy bot, until she may move; she moves. (The table, her client, her move.)"""
    ann = await Client.connect(server, "ann")
    table = server.lobby.create_table(TableOptions(beginner=True), "ann").id
    await ann.send(Join(table, "B"))
    await ann.expect(Joined)
    await ann.send(SeatBot(table, "Y", "greedy"))
    await ann.expect_event("game_started")
    view = await Scripted(ann, "B", 3).play(table, stop=lambda v: v["active"] == "B" and _moving(v))
    move = next(text for text in view["legal"] if text.startswith("move "))
    await ann.send(Action(table, "the-move", move))
    await ann.expect(ActionOk, lambda e: e.action_id == "the-move")
    return table, ann, move


async def test_DT_224_a_bot_accepts_at_once(autojump_clock):
    with trio.fail_after(HANG_GUARD):
        async with running_server(seeds=(5,)) as server:
            table, ann, move = await a_bot_game(server)
            await ann.send(Takeback(table))
            assert (await ann.expect_event("taken_back"))["action"] == move
            assert ann.events_of("takeback_asked") == []


async def test_DT_224_after_a_combat_the_refusal_names_the_secret_choice(autojump_clock):
    """Found by a play-test: `undo` right after one's own attack and its combat was refused with "the last action
    is your opponent's": the opponent's combat card was applied last. A combat card is a secret choice, never taken
    back (DT-224); the refusal now says so, to either player."""
    from test_server_durable import COMBAT_SEED
    from test_server_resume import play_until

    with trio.fail_after(HANG_GUARD):
        async with running_server(seeds=(COMBAT_SEED,)) as server:
            table, blue, yellow = await seated_pair(server, TableOptions(), memory=True)
            players = {"B": Scripted(blue, "B", 1), "Y": Scripted(yellow, "Y", 2)}
            views = await play_until(table, players, lambda v: (v["secret"] or "").startswith("combat"))
            async with trio.open_nursery() as nursery:  # both lay their cards; the combat is resolved
                for seat, client in (("B", blue), ("Y", yellow)):
                    nursery.start_soon(players[seat].act, table, views[seat])
            for client in (blue, yellow):
                await client.expect_event("combat_resolved")
            for client in (blue, yellow):
                await client.send(Takeback(table))
                refused = await client.expect(Error)
                assert refused.message == "nothing of yours can be taken back: the last action was a secret choice"
                assert refused.template == TAKEBACK_HEAD + "the last action was a secret choice"


async def test_DT_224_what_the_clock_played_is_not_taken_back_after_a_restart_either(tmp_path, autojump_clock):
    """Found by a review: the clock's actions (a turn run out: its card and `end`) are never taken back, but the
    journal said so only in a comment without data, and a restarted server, replaying the actions, let the seat
    ask to take the clock's `end` back. The timeout line carries its kind now, and the replay honours it."""
    from test_server_durable import resume_info, server_on, synced
    from test_server_resume import play_until

    with trio.fail_after(HANG_GUARD):
        async with server_on(tmp_path, seeds=(21,), grace_seconds=600) as server:
            table, blue, yellow = await seated_pair(server, TableOptions(timers=True, beginner=True), memory=True)
            players = {"B": Scripted(blue, "B", 1), "Y": Scripted(yellow, "Y", 2)}
            ((seat, _),) = (await play_until(table, players, lambda v: v["phase"] == "card", first=True)).items()
            sleeper = {"B": blue, "Y": yellow}[seat]
            timeout = await sleeper.expect_event("timeout")  # the clock plays his card and ends his turn
            assert timeout["actions"][-1] == "end"
            await sleeper.send(Takeback(table))
            assert (await sleeper.expect(Error)).message == "nothing of yours can be taken back: the clock played it"
            await synced(sleeper)
            resume = {c: resume_info(c, table) for c in (blue, yellow)}
            names = {blue: blue.name, yellow: yellow.name}
        async with server_on(tmp_path, seeds=(5,), grace_seconds=600) as server:
            back = {old: await Client.connect(server, names[old], memory=True, resume=resume[old])
                    for old in (blue, yellow)}
            sleeper = back[sleeper]
            await sleeper.expect(Snapshot)
            await sleeper.send(Takeback(table))
            assert (await sleeper.expect(Error)).message == "nothing of yours can be taken back: the clock played it"
