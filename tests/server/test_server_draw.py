"""Draws by agreement (docs/rulings.md DT-228, docs/protocol.md section 6): `draw_offer` offers the opponent a draw,
`draw_answer` accepts or declines it, an offer to a player who offered one accepts his; a bot accepts unless it
leads on VP; refusals say why, and a declined offer waits for the next action before it may come again."""

import pytest
import trio
from dungeon_twister.protocol import DrawAnswer, DrawOffer, Error, GameOver, Joined, Spectate, TableEvent, TableOptions
from dungeon_twister.protocol.views import DELTA_VIEWS
from dungeon_twister.server.records import record_text
from test_server_support import HANG_GUARD, Client, running_server, seated_pair
from test_server_takeback import _a_move, a_bot_game


def _agreed(vp: dict) -> dict:
    return {"winner": None, "vp": vp, "reason": "agreed"}


async def test_DT_228_an_accepted_draw_ends_the_game_drawn_rated_half_and_recorded(autojump_clock):
    """Blue offers after a move of the first turn; everyone at the table sees the offer, Yellow accepts: the game is
    over, a draw at 0-0 with the reason `agreed`. Two newcomers of equal rating (1500) stay at 1500 (a draw between
    equals moves neither, test_server_ratings) and their RD shrinks from 350 as after any rated game; the stored
    record has the result line."""
    with trio.fail_after(HANG_GUARD):
        async with running_server(seeds=(21,)) as server:
            table, blue, yellow = await seated_pair(server, TableOptions(beginner=True), memory=True)
            await _a_move(server, table, blue, yellow)  # the game's first turn has begun: a rated game
            watcher = await Client.connect(server, "cy", "spectator", memory=True)
            await watcher.send(Spectate(table, last_event=0))
            await blue.send(DrawOffer(table))
            for client in (yellow, watcher, blue):
                assert await client.expect_event("draw_offered") == {"kind": "draw_offered", "seat": "B"}
            await yellow.send(DrawAnswer(table, True))
            for client in (blue, yellow, watcher):
                assert (await client.expect(GameOver)).result == _agreed({"B": 0, "Y": 0})
            ratings = await blue.expect_event("ratings")
            assert [(c["before"], c["after"]) for c in ratings["changes"].values()] == [(1500, 1500)] * 2
            assert all(c["rd"] < 350 for c in ratings["changes"].values())
            text = record_text(server.lobby.store.table(table))
        assert "# result winner=- vp=B0,Y0 reason=agreed" in text.splitlines()


async def test_DT_228_refusals_a_declined_offer_waits_for_the_next_action_and_crossed_offers_agree(autojump_clock):
    """Answering when nothing is offered, offering twice, offering again after a decline before anything was
    played: each refused (`not_allowed`) with its reason, the game going on. After a move the same player may
    offer again; the opponent offering too accepts it."""
    with trio.fail_after(HANG_GUARD):
        async with running_server(seeds=(21,)) as server:
            table, blue, yellow = await seated_pair(server, TableOptions(beginner=True), memory=True)
            await yellow.send(DrawAnswer(table, True))
            refused = await yellow.expect(Error)
            assert (refused.code, refused.message) == ("not_allowed", "no draw is offered to you")
            await blue.send(DrawOffer(table))
            await yellow.expect_event("draw_offered")
            await blue.send(DrawOffer(table))
            assert (await blue.expect(Error)).message == "you offered a draw already: wait for the answer"
            await blue.send(DrawAnswer(table, True))  # one's own offer is not answered by oneself
            assert (await blue.expect(Error)).message == "no draw is offered to you"
            await yellow.send(DrawAnswer(table, False))
            for client in (blue, yellow):
                assert await client.expect_event("draw_declined") == {"kind": "draw_declined", "seat": "B",
                                                                      "by": "Y"}
            await blue.send(DrawOffer(table))
            refused = await blue.expect(Error)
            assert refused.message == "your draw offer was declined: offer again after the next action"
            assert refused.template == refused.message and refused.values is None
            seat, mover, other, move, _ = await _a_move(server, table, blue, yellow)
            await blue.send(DrawOffer(table))  # an action was played since: offered again
            await yellow.expect_event("draw_offered")
            await yellow.send(DrawOffer(table))  # crossed offers: agreed
            assert (await blue.expect(GameOver)).result == _agreed({"B": 0, "Y": 0})
            await blue.send(DrawOffer(table))
            assert (await blue.expect(Error)).message == "no game is running"


async def test_DT_228_an_offer_lapses_with_the_next_action(autojump_clock):
    """Blue offers; before Yellow answers, an action is played: the offer is gone, Yellow's late acceptance is
    refused and the game goes on."""
    with trio.fail_after(HANG_GUARD):
        async with running_server(seeds=(21,)) as server:
            table, blue, yellow = await seated_pair(server, TableOptions(beginner=True), memory=True)
            await blue.send(DrawOffer(table))
            await yellow.expect_event("draw_offered")
            await _a_move(server, table, blue, yellow)
            await yellow.send(DrawAnswer(table, True))
            assert (await yellow.expect(Error)).message == "no draw is offered to you"
            assert blue.events_of("game_over") == [] and server.lobby.tables[table].play.running
            # both are told, once, before the change's own events (ind31: a client waited for an answer that could
            # no longer come, with only the view's `table.asked` to say so)
            lapsed = {"kind": "request_lapsed", "seat": "B", "request": "draw"}
            assert blue.events_of("request_lapsed") == yellow.events_of("request_lapsed") == [lapsed]
            kinds = [e.event.get("kind") for e in yellow.received if isinstance(e, TableEvent)]
            assert kinds.index("draw_offered") < kinds.index("request_lapsed")
            assert kinds[kinds.index("request_lapsed") + 1] != "view", "before the change's own events"


async def test_DT_224_DT_228_a_takeback_asked_lapses_with_the_next_action_and_a_draw_with_the_takeback(
        autojump_clock):
    """The mover asks a takeback and moves on instead of waiting: his request lapses (`request_lapsed`, request
    "takeback"), said to both. The edge: a takeback answered with yes says nothing of itself lapsing (it was
    answered), but a draw offered meanwhile lapses with the game it was offered in."""
    from dungeon_twister.protocol import Action, ActionOk, Takeback, TakebackAnswer

    with trio.fail_after(HANG_GUARD):
        async with running_server(seeds=(21,)) as server:
            table, blue, yellow = await seated_pair(server, TableOptions(beginner=True), memory=True)
            seat, mover, other, _, _ = await _a_move(server, table, blue, yellow)
            await mover.send(Takeback(table))
            await other.expect_event("takeback_asked")
            await mover.expect_event("takeback_asked")
            await mover.expect_event("view")  # (the request's view: the mover's legal list now)
            await mover.send(Action(table, "on", next(t for t in mover.view["legal"] if t.startswith("move "))))
            await mover.expect(ActionOk, lambda e: e.action_id == "on")
            lapsed = await other.expect_event("request_lapsed")
            assert lapsed == {"kind": "request_lapsed", "seat": seat, "request": "takeback"}
            await other.send(TakebackAnswer(table, True))
            assert (await other.expect(Error)).message == "no takeback is asked of you"
            await mover.send(Takeback(table))
            await other.expect_event("takeback_asked")
            await other.send(DrawOffer(table))
            await mover.expect_event("draw_offered")
            await other.send(TakebackAnswer(table, True))
            taken = await mover.expect_event("taken_back")
            assert taken["seat"] == seat
            drawn = "Y" if seat == "B" else "B"
            assert mover.events_of("request_lapsed")[-1] == {"kind": "request_lapsed", "seat": drawn,
                                                              "request": "draw"}
            assert [e["request"] for e in mover.events_of("request_lapsed")] == ["takeback", "draw"]


async def test_DT_228_a_bot_not_ahead_accepts_at_once(autojump_clock):
    with trio.fail_after(HANG_GUARD):
        async with running_server(seeds=(5,)) as server:
            table, ann, _ = await a_bot_game(server)
            await ann.send(DrawOffer(table))
            assert (await ann.expect(GameOver)).result == _agreed({"B": 0, "Y": 0})
            assert ann.events_of("draw_offered") == [{"kind": "draw_offered", "seat": "B"}]
            assert ann.events_of("ratings") == []  # a game with a bot is not rated


async def test_DT_228_a_bot_that_leads_declines(autojump_clock):
    """The same game with one of Blue's characters eliminated (Yellow leads 1-0 on VP, BG-VP-02): the bot
    declines at once, and the game goes on."""
    with trio.fail_after(HANG_GUARD):
        async with running_server(seeds=(5,)) as server:
            table, ann, _ = await a_bot_game(server)
            game = server.lobby.tables[table].play.game
            state = game.state.thaw()
            lost = next(t for t in state.tokens.values() if t.colour == "B" and t.is_character and t.where == "board")
            state.tokens[lost.id] = lost.moved(where="eliminated", square=None)
            game.state = state.seal()
            assert (game.state.vp("B"), game.state.vp("Y")) == (0, 1)
            await ann.send(DrawOffer(table))
            assert await ann.expect_event("draw_declined") == {"kind": "draw_declined", "seat": "B", "by": "Y"}
            assert ann.events_of("game_over") == [] and server.lobby.tables[table].play.running


async def _both_asked(server, offered_by: str, features: tuple[str, ...] = ()):
    """A beginner game at which one player moved and asked to take it back; then a draw offered by `offered_by`
    ("mover" or "other"), seen by the other. (table, the mover's seat, his client, the other's client, the move)"""
    from dungeon_twister.protocol import Takeback

    table, blue, yellow = await seated_pair(server, TableOptions(beginner=True), memory=True, features=features)
    seat, mover, other, move, _ = await _a_move(server, table, blue, yellow)
    await mover.send(Takeback(table))
    await other.expect_event("takeback_asked")
    offering, seeing = (mover, other) if offered_by == "mover" else (other, mover)
    await offering.send(DrawOffer(table))
    await seeing.expect_event("draw_offered")
    return table, seat, mover, other, move


async def test_DT_228_DT_224_nothing_asked_before_the_end_is_answered_after_it(autojump_clock):
    """Found by a review: a takeback asked before an agreed draw, and a draw offered before a resignation, were
    still answered after `game_over`: the finished game was taken back (a `# takeback` after its `# result` in the
    record), or `draw_declined` published after the end. Both lapse with the game; a late answer is refused."""
    from dungeon_twister.protocol import Leave, TakebackAnswer

    with trio.fail_after(HANG_GUARD):
        async with running_server(seeds=(21,)) as server:
            table, seat, mover, other, move = await _both_asked(server, offered_by="other")
            await mover.send(DrawAnswer(table, True))
            assert (await other.expect(GameOver)).result["reason"] == "agreed"
            await other.send(TakebackAnswer(table, True))
            assert (await other.expect(Error)).message == "no takeback is asked of you"
            assert other.events_of("taken_back") == []
            text = record_text(server.lobby.store.table(table))
            assert not any(line.startswith("# takeback ") for line in text.splitlines())  # none taken back
            assert f"# takeback-asked {seat}" in text.splitlines()  # (asked: journaled, DT-224)
        async with running_server(seeds=(21,)) as server:
            table, blue, yellow = await seated_pair(server, TableOptions(beginner=True), memory=True)
            await blue.send(DrawOffer(table))
            await yellow.expect_event("draw_offered")
            await blue.send(Leave())  # (before the first turn: the game is aborted, not won)
            assert (await yellow.expect(GameOver)).result["reason"] == "aborted"
            # (Yellow keeps a seat at a new table, srv30: the offer of the aborted game does not follow him there)
            kept = (await yellow.expect(Joined)).table
            await yellow.send(DrawAnswer(kept, False))
            assert (await yellow.expect(Error)).message == "no draw is offered to you"
            assert yellow.events_of("draw_declined") == []


@pytest.mark.parametrize("features", [(), (DELTA_VIEWS,)], ids=["whole views", "view deltas"])
async def test_DT_228_a_snapshot_tells_a_client_that_comes_back_what_is_pending(autojump_clock, features):
    """Found by a review: a client that came back with a snapshot (not the events) never learnt of a draw offered
    or a takeback asked meanwhile, and could not answer `no`. A snapshot's view lists them in `table.asked`, as
    their events were published; once answered, a snapshot has none. Found by an audit of docs/protocol.md: a
    client with view deltas got a snapshot without them (the view of the last view event, made before the
    request): a view is now published with each request and each answer."""
    from dungeon_twister.protocol import Resume, Snapshot

    with trio.fail_after(HANG_GUARD):
        async with running_server(seeds=(21,)) as server:
            table, seat, mover, other, move = await _both_asked(server, offered_by="mover", features=features)
            await other.send(Resume(table, 0, snapshot=True))
            snapshot = await other.expect(Snapshot)
            assert snapshot.view["table"]["asked"] == [{"kind": "takeback_asked", "seat": seat, "action": move},
                                                       {"kind": "draw_offered", "seat": seat}]
            await other.send(DrawAnswer(table, False))
            await other.expect_event("draw_declined")
            await other.send(Resume(table, 0, snapshot=True))
            assert (await other.expect(Snapshot)).view["table"]["asked"] == [
                {"kind": "takeback_asked", "seat": seat, "action": move}]


async def test_DT_224_DT_228_what_is_pending_outlives_a_restart_and_is_answered_after_it(tmp_path, autojump_clock):
    """Nothing acknowledged is lost: a takeback asked and a draw offered were put to the opponent (published), then
    forgotten by a restarted server. Each is journaled before it is put, and so is a refusal: after a restart the
    snapshots list both, the opponent declines the offer and accepts the takeback, and the move is gone. A declined
    offer still waits for the next action after a restart."""
    from dungeon_twister.protocol import Snapshot, TakebackAnswer
    from test_server_durable import resume_info, server_on, synced

    with trio.fail_after(HANG_GUARD):
        async with server_on(tmp_path, seeds=(21,), grace_seconds=600) as server:
            table, seat, mover, other, move = await _both_asked(server, offered_by="mover")
            await synced(mover)
            stored = server.lobby.store.table(table)
            resume = {c: resume_info(c, table) for c in (mover, other)}
            names = {mover: mover.name, other: other.name}
        assert [line for line, _ in stored.journal if line.startswith(("# takeback-", "# draw-"))] == [
            f"# takeback-asked {seat}", f"# draw-offered {seat}"]
        async with server_on(tmp_path, seeds=(5,), grace_seconds=600) as server:
            back = {}
            for old in (mover, other):
                back[old] = await Client.connect(server, names[old], memory=True, resume=resume[old])
                snapshot = await back[old].expect(Snapshot)
                assert snapshot.view["table"]["asked"] == [
                    {"kind": "takeback_asked", "seat": seat, "action": move}, {"kind": "draw_offered", "seat": seat}]
            mover, other = back[mover], back[other]
            await other.send(DrawAnswer(table, False))
            assert await mover.expect_event("draw_declined") == {"kind": "draw_declined", "seat": seat,
                                                                 "by": "Y" if seat == "B" else "B"}
            await synced(other)
        async with server_on(tmp_path, seeds=(5,), grace_seconds=600) as server:
            mover = await Client.connect(server, mover.name, memory=True, resume=resume_info(mover, table))
            other = await Client.connect(server, other.name, memory=True, resume=resume_info(other, table))
            for client in (mover, other):
                assert (await client.expect(Snapshot)).view["table"]["asked"] == [
                    {"kind": "takeback_asked", "seat": seat, "action": move}]
            await mover.send(DrawOffer(table))  # declined before the restart: not again before the next action
            assert (await mover.expect(Error)).message == ("your draw offer was declined: offer again after the "
                                                          "next action")
            await other.send(TakebackAnswer(table, True))
            assert (await mover.expect_event("taken_back"))["action"] == move


async def test_DT_228_an_offer_made_during_a_combat_outlives_a_commitment_and_a_restart(tmp_path, autojump_clock):
    """Found by a review: the replay dropped a pending offer at any journal line after it, a commitment too, which
    live drops nothing (the cards change the game only once both are opened). Blue offers a draw while the cards
    of a combat are due, then commits his; after a restart the offer is still put to Yellow."""
    from dungeon_twister.protocol import Snapshot
    from test_server_durable import COMBAT_SEED, resume_info, server_on, synced
    from test_server_resume import play_until
    from test_server_support import Scripted

    with trio.fail_after(HANG_GUARD):
        async with server_on(tmp_path, seeds=(COMBAT_SEED,), grace_seconds=600) as server:
            table, blue, yellow = await seated_pair(server, TableOptions(), memory=True)
            players = {"B": Scripted(blue, "B", 1), "Y": Scripted(yellow, "Y", 2)}
            views = await play_until(table, players, lambda v: (v["secret"] or "").startswith("combat"))
            await blue.send(DrawOffer(table))
            await yellow.expect_event("draw_offered")
            await players["B"].act(table, views["B"])  # Blue commits his card
            await synced(blue)
            stored = server.lobby.store.table(table)
            resume = {c: resume_info(c, table) for c in (blue, yellow)}
        assert [data["k"] for _, data in stored.journal if data][-2:] == ["draw_offer", "commit"]
        async with server_on(tmp_path, seeds=(5,), grace_seconds=600) as server:
            back = await Client.connect(server, "bob", memory=True, resume=resume[yellow])
            assert (await back.expect(Snapshot)).view["table"]["asked"] == [{"kind": "draw_offered", "seat": "B"}]


async def test_a_player_the_game_waits_on_alone_loses_after_idle_minutes_at_an_untimed_table(autojump_clock):
    """Play-test ad29 F3: at a table without timers a connected player who never acted held the game for ever, his
    opponent's only way out a resignation (a rated loss). With idle_minutes = 30, the seat the game waits on alone
    loses once 30 minutes pass with no action of his (reason "idle", the other wins, rated). The edges: an action
    of his at 20 minutes starts the 30 again; idle_minutes = 0 never ends a game."""
    from dungeon_twister.protocol import Action, ActionOk, ActionRefused, Chat, ChatMessage

    with trio.fail_after(HANG_GUARD + 2 * 3600):  # (the mock hours the test sleeps, and the guard)
        async with running_server(seeds=(21,), idle_minutes=30) as server:
            table, blue, yellow = await seated_pair(server, TableOptions(beginner=True), memory=True)
            seat, mover, other, _, _ = await _a_move(server, table, blue, yellow)
            await trio.sleep(20 * 60)
            await mover.send(Chat("sync"))  # (the view after his move has come: the chat comes after it)
            await mover.expect(ChatMessage, lambda m: m.text == "sync")
            again = next(text for text in mover.view["legal"] if text.startswith("move "))  # (AP left: seed 21)
            await mover.send(Action(table, "again", again))
            answer = await mover.expect((ActionOk, ActionRefused), lambda e: e.action_id == "again")
            assert isinstance(answer, ActionOk), answer
            await trio.sleep(29 * 60)
            assert server.lobby.tables[table].play.result is None, "29 minutes after his last action"
            await trio.sleep(61)
            winner = "Y" if seat == "B" else "B"
            for client in (other, mover):
                result = (await client.expect(GameOver)).result
                assert (result["winner"], result["reason"]) == (winner, "idle")
            assert await other.expect_event("ratings")
        async with running_server(seeds=(21,), idle_minutes=0) as server:
            table, blue, yellow = await seated_pair(server, TableOptions(beginner=True), memory=True)
            await _a_move(server, table, blue, yellow)
            await trio.sleep(3600)
            assert server.lobby.tables[table].play.result is None


async def watched_move(server):
    """Ann and Bob at an untimed beginner table, one of them has moved, a spectator watches, every frame read:
    (table, the mover's seat, his client, the other's, his move, the spectator)."""
    table, blue, yellow = await seated_pair(server, TableOptions(beginner=True), memory=True)
    seat, mover, other, move, _ = await _a_move(server, table, blue, yellow)
    watcher = await Client.connect(server, "watcher", "spectator", memory=True)
    await watcher.send(Spectate(table))
    await _sync(mover, other, watcher)
    return table, seat, mover, other, move, watcher


async def _sync(*clients) -> None:
    """Every frame the server sent each client before now has been received (a chat comes after them)."""
    from dungeon_twister.protocol import Chat, ChatMessage

    for client in clients:
        await client.send(Chat(f"sync {client.name}"))
        await client.expect(ChatMessage, lambda m, text=f"sync {client.name}": m.text == text)


async def test_a_player_the_game_waits_on_alone_is_warned_5_and_1_minutes_before_he_loses_for_idling(autojump_clock):
    """srv30: idle_minutes ended an untimed game without a word to the player it waited on. Everyone at the table
    gets the public event `idle_warning {seat, seconds}` 5 minutes and 1 minute before that loss (IDLE_WARNINGS, on
    trio's clock), and not a second earlier; an action of his starts the count afresh, warnings included. A
    warning that would come as his turn begins is not given: idle_minutes 5 warns at 1 minute only, 1 never."""
    from dungeon_twister.protocol import Action, ActionOk

    with trio.fail_after(HANG_GUARD + 3 * 3600):  # (the mock hours the test sleeps, and the guard)
        async with running_server(seeds=(21,), idle_minutes=30) as server:
            table, seat, mover, other, _, watcher = await watched_move(server)
            await trio.sleep(25 * 60 - 1)
            await _sync(mover, other, watcher)
            assert not [c for c in (mover, other, watcher) if c.events_of("idle_warning")], "not before 25 minutes"
            await trio.sleep(1)
            for client in (mover, other, watcher):
                assert await client.expect_event("idle_warning") == {"kind": "idle_warning", "seat": seat,
                                                                     "seconds": 300}
            await trio.sleep(60)  # 26 minutes: he plays, and the count starts again
            again = next(text for text in mover.view["legal"] if text.startswith("move "))  # (AP left: seed 21)
            await mover.send(Action(table, "again", again))
            assert isinstance(await mover.expect(ActionOk, lambda e: e.action_id == "again"), ActionOk)
            await trio.sleep(25 * 60 - 1)
            await _sync(mover, other)
            assert len(other.events_of("idle_warning")) == 1, "the 5 minutes' warning again, 25 minutes after him"
            await trio.sleep(1)
            assert (await other.expect_event("idle_warning"))["seconds"] == 300
            await trio.sleep(4 * 60 - 1)
            await _sync(other)
            assert len(other.events_of("idle_warning")) == 2
            await trio.sleep(1)
            assert (await other.expect_event("idle_warning"))["seconds"] == 60
            assert server.lobby.tables[table].play.result is None
            await trio.sleep(60)
            result = (await other.expect(GameOver)).result
            assert result["reason"] == "idle" and result["winner"] != seat
            await mover.expect(GameOver)
            assert [e["seconds"] for e in mover.events_of("idle_warning")] == [300, 300, 60]
        for minutes, warned in ((5, [60]), (1, [])):
            async with running_server(seeds=(21,), idle_minutes=minutes) as server:
                table, blue, yellow = await seated_pair(server, TableOptions(beginner=True), memory=True)
                seat, mover, other, _, _ = await _a_move(server, table, blue, yellow)
                await trio.sleep(max(0, minutes * 60 - 61))  # (a second before the minute's warning of 5)
                await _sync(other)
                assert other.events_of("idle_warning") == []
                await trio.sleep(61)
                assert (await other.expect(GameOver)).result["reason"] == "idle"
                assert [e["seconds"] for e in other.events_of("idle_warning")] == warned, minutes
