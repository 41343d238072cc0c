"""Combat commit-reveal survives a drop at every step (issue 6, part 4, finding 7): the player comes back with
his nonce and the round completes, or without it (his client crashed) and the rules' fallback stands for his
card: at the BG-OPT-04 reveal deadline on a timed table, at the end of the grace period without timers (DT-050).
"""

import pytest
import trio
from dungeon_twister.protocol import (Joined, OpponentCommit, OpponentReveal, PlayerConnection, ResumeInfo,
                                      TableEvent, TableOptions)
from test_server_resume import play_until
from test_server_support import HANG_GUARD, Client, KeepingConnection, Scripted, find_seed, running_server, seated_pair

SECRET_SECONDS = 5  # BG-OPT-04: a combat card within 5 seconds of the opponent's commitment
GRACE_SECONDS = 60  # the server's default grace period

CASES = [(step, crashed, timers)
         for step in ("before_commit", "after_commit", "after_opponent_commit", "after_reveal")
         for crashed in (False, True) for timers in (False, True)
         if not (crashed and step in ("before_commit", "after_reveal"))]  # there, no nonce is needed


@pytest.mark.parametrize(("step", "crashed", "timers"), CASES)
async def test_BG_OPT_04_combat_survives_a_drop(step, crashed, timers, autojump_clock):
    with trio.fail_after(HANG_GUARD):  # on the mock clock
        await _drop_during_combat(step, crashed, timers)


async def _drop_during_combat(step, crashed, timers):
    seed = find_seed("combat_declared", False, 120, hint=23)
    async with running_server(seeds=(seed,)) as server:
        table, blue, yellow = await seated_pair(server, TableOptions(timers=timers), memory=True)
        players = {"B": Scripted(blue, "B", 1), "Y": Scripted(yellow, "Y", 2)}
        views = await play_until(table, players, lambda v: (v["secret"] or "").startswith("combat"))
        purpose = views["B"]["secret"]

        if step != "before_commit":
            await players["B"].act(table, views["B"])  # B commits
        if step in ("after_opponent_commit", "after_reveal"):
            await players["Y"].act(table, views["Y"])
            both_in = trio.current_time()
            await blue.expect(OpponentCommit)
            if step == "after_reveal":
                await blue.reveal(purpose)
        token, old = blue.token, blue.conn
        await blue.close()  # B's connection drops
        if step in ("before_commit", "after_commit"):
            await players["Y"].act(table, views["Y"])  # Y commits while B is away
            both_in = trio.current_time()
        if step != "before_commit":
            await yellow.reveal((await yellow.expect(OpponentCommit)).purpose)

        conn = PlayerConnection() if crashed or step == "before_commit" else KeepingConnection(old.commitments)
        blue = await Client.connect(server, "ann", memory=True, conn=conn,
                                    resume=ResumeInfo(token, table, old.last_event))
        assert (await blue.expect(Joined)).seat == "B"
        if step == "before_commit":
            await Scripted(blue, "B", 3).act(table, views["B"])  # commits afresh ...
            both_in = trio.current_time()
            await blue.reveal((await blue.expect(OpponentCommit)).purpose)  # ... and reveals
            await yellow.reveal((await yellow.expect(OpponentCommit)).purpose)
        elif step in ("after_commit", "after_opponent_commit") and not crashed:
            await blue.reveal((await blue.expect(OpponentCommit)).purpose)  # the commitment is sent again

        resolved = await yellow.expect_event("combat_resolved")
        assert resolved == (await blue.seen(TableEvent, lambda e: e.event.get("kind") == "combat_resolved")).event
        if crashed:
            # Nobody can open B's commitment: the +0 card stands for it (BG-OPT-04), at the reveal deadline.
            waited = trio.current_time() - both_in
            limit = SECRET_SECONDS if timers else GRACE_SECONDS
            assert limit <= waited < limit + 1
            assert resolved["cards"]["B"] == 0
            assert {"kind": "timeout", "seat": "B", "purpose": purpose, "actions": ["combat +0"]} in \
                yellow.events_of("timeout")
            assert not [e for e in yellow.received if isinstance(e, OpponentReveal) and e.purpose == purpose]
        else:
            reveal = await yellow.seen(OpponentReveal, lambda e: e.purpose == purpose)
            assert reveal.seat == "B" and resolved["cards"]["B"] == int(reveal.choice.split("+")[1])
            assert yellow.events_of("timeout") == []
            assert trio.current_time() - both_in < 1
        assert blue.errors() == [] and yellow.errors() == []


async def test_DT_050_the_reveal_deadline_comes_back_after_a_restart(tmp_path, autojump_clock):
    """Found by a review: on a table without timers both seats committed their combat card, Yellow revealed, and
    the server restarted while Blue's client crashed (his nonce lost). Nothing re-armed the grace period's reveal
    deadline: the combat waited for ever (600 s on the mock clock). Once both players are back it starts afresh,
    and at its end the +0 stands for Blue."""
    from test_server_durable import resume_info, server_on, synced

    seed = find_seed("combat_declared", False, 120, hint=23)
    async with server_on(tmp_path, seeds=(seed,)) as server:
        table, blue, yellow = await seated_pair(server, TableOptions(timers=False))
        players = {"B": Scripted(blue, "B", 1), "Y": Scripted(yellow, "Y", 2)}
        views = await play_until(table, players, lambda v: (v["secret"] or "").startswith("combat"))
        for seat in ("B", "Y"):
            await players[seat].act(table, views[seat])
        await yellow.reveal((await yellow.expect(OpponentCommit)).purpose)
        await synced(yellow)
        resume = {"B": resume_info(blue, table), "Y": resume_info(yellow, table)}
        kept = yellow.conn.commitments
    async with server_on(tmp_path, seeds=(5,)) as server:
        blue = await Client.connect(server, "ann", resume=resume["B"], conn=PlayerConnection())  # no nonce
        yellow = await Client.connect(server, "bob", resume=resume["Y"], conn=KeepingConnection(kept))
        for client in (blue, yellow):
            assert (await client.expect(Joined)).table == table
        back = trio.current_time()
        with trio.fail_after(HANG_GUARD):
            resolved = await yellow.expect_event("combat_resolved")
        assert trio.current_time() - back == GRACE_SECONDS and resolved["cards"]["B"] == 0
