"""A table's event frames are made once per viewer class and form and shared by the connections of that class
(Table.publish, Session.send_framed): each connection is sent exactly the bytes a frame made for it alone would
be, and the connections of one class are sent the same bytes."""

import pytest
import trio
import trio.testing
from dungeon_twister.engine import Options
from dungeon_twister.engine.cards import CardOptions
from dungeon_twister.engine.core.rng import Rng
from dungeon_twister.engine.families import family_for
from dungeon_twister.protocol import ActionOk, Snapshot, Spectate, SpectatorConnection, TableEvent, TableOptions
from dungeon_twister.protocol.codec import encode_message, pack_map, unpack_map
from dungeon_twister.protocol.framing import FrameReader, frame
from dungeon_twister.protocol.views import DELTA_VIEWS, PackedView
from dungeon_twister.server import table as table_module
from dungeon_twister.server.session import Session
from dungeon_twister.server.viewing import ViewPoint, table_view
from test_server_resume import play_until
from test_server_support import HANG_GUARD, Client, Scripted, find_seed, running_server, seated_pair


def table_event_frames(chunks: list[bytes]) -> dict[int, bytes]:
    """n -> the whole frame (header included) of each table_event among the bytes a session queued."""
    reader, out = FrameReader(), {}
    reader.feed(b"".join(chunks))
    while (body := reader.next_frame()) is not None:
        raw = unpack_map(body, 1 << 20)
        if raw["type"] == "table_event":
            out[raw["n"]] = frame(body)
    return out


async def test_spectators_of_one_form_get_the_frame_made_for_each_of_them(monkeypatch, autojump_clock):
    queued: dict = {}  # session -> the bytes it queued, in order
    queue = Session._queue

    def spy(session, item):
        if type(item) is bytes:
            queued.setdefault(session, []).append(item)
        queue(session, item)

    monkeypatch.setattr(Session, "_queue", spy)
    with trio.fail_after(HANG_GUARD):  # mock seconds: fires only if the server hangs
        async with running_server(seeds=(find_seed("combat_declared", False, 120, hint=23),)) as server:
            table, blue, yellow = await seated_pair(server, TableOptions(), memory=True)
            forms = {}
            for number, features in enumerate(((), (), (DELTA_VIEWS,), (DELTA_VIEWS,))):
                name = f"watcher-{number}"
                watcher = await Client.connect(server, name, "spectator", memory=True,
                                               conn=SpectatorConnection(features=features))
                await watcher.send(Spectate(table))
                await watcher.expect(Snapshot)
                forms[name] = "delta" if features else "full"
            players = {"B": Scripted(blue, "B", 1), "Y": Scripted(yellow, "Y", 2)}
            await play_until(table, players, lambda view: (view["secret"] or "").startswith("combat"))
            sessions = {session.name: session for session in queued if session.name in forms}

    frames = {name: table_event_frames(queued[session]) for name, session in sessions.items()}
    common = set.intersection(*(set(got) for got in frames.values()))
    assert len(common) >= 20  # the game went on while all four watched: moves, views, a combat declared
    kinds = set()
    for name, got in frames.items():
        for n in common:
            event = unpack_map(got[n][4:], 1 << 20)["event"]
            kinds.add(event["kind"])
            # the frame a connection would have made for itself alone (Connection.send of the same message)
            assert got[n] == frame(pack_map(encode_message(TableEvent(table, n, event)))), (name, n)
    assert {"view", "view_delta", "combat_declared"} <= kinds
    for form in ("full", "delta"):
        first, second = (frames[name] for name in forms if forms[name] == form)
        assert all(first[n] == second[n] for n in common), form
    full, delta = (frames[name] for name in ("watcher-0", "watcher-2"))
    assert any(full[n] != delta[n] for n in common)  # the forms differ (views against deltas): not one frame


GAMES = [(Options(beginner=True), 8), (Options(), 3), (Options(set_name="prison"), 5), (Options(set_name="paladins"), 4),
         (Options(set_name="mixed", teams="mutual"), 6), (Options(set_name="all_sets", teams="free"), 7),
         (CardOptions(tutorial=1), 2), (CardOptions(tutorial=None, scenario="standard", teams="full"), 9)]


@pytest.mark.parametrize(("options", "seed"), GAMES, ids=lambda value: getattr(value, "set_name", None) or str(value))
def test_views_packed_with_another_class_pieces_are_the_views_packed_alone(options, seed):
    """Table._render packs the second and third viewer classes' views reusing the first's bytes for equal values
    (PackedView.of with `like`): along random games of both families, every class's pieces are those it gets
    packed alone, so equal values never pack differently (True == 1 in Python, not on the wire)."""
    rules, rng = family_for(options), Rng(seed)
    state = rules.new_game(options, seed)
    table = {"id": "t1-00000000"}
    for _ in range(120):
        if state.outcome is not None:
            break
        point = ViewPoint(state, {"B": "ann", "Y": "bob"}, table, True)
        views = [table_view(point, seat, compact=True) for seat in ("B", "Y", None)]
        first = (views[0], PackedView.of(views[0]))
        for view in views[1:]:
            alone, shared = PackedView.of(view), PackedView.of(view, first)
            assert (shared.keys, shared.values, shared.items) == (alone.keys, alone.values, alone.items)
            assert shared.body() == alone.body() and shared.delta(first[1]) == alone.delta(first[1])
        seat = state.to_act[0]
        state, _ = rules.apply(state, rng.choice(rules.legal_actions(state, seat)))


async def test_the_frames_leave_once_committed_and_none_waits_for_a_legal_list(monkeypatch, autojump_clock):
    """Durable before sent, and no timing channel: in an action's step, the journal line is committed, then each
    class's frames are written as soon as its view is made, the seat that is not to act first, then the
    spectators, then the seat to act, whose view lists its legal actions: how long those take to list depends on
    what that seat alone may know, so no other frame waits for them."""
    steps: list = []
    flush, made = Session.flush, table_module.table_view

    def spy_flush(session):
        if session._outbox and not session._draining:
            steps.append(("flush", session.name))
        flush(session)

    def spy_view(point, seat, *args, **kwargs):
        steps.append(("view", seat))
        return made(point, seat, *args, **kwargs)

    monkeypatch.setattr(Session, "flush", spy_flush)
    monkeypatch.setattr(table_module, "table_view", spy_view)
    with trio.fail_after(HANG_GUARD):
        async with running_server(seeds=(find_seed("combat_declared", False, 120, hint=23),)) as server:
            table, blue, yellow = await seated_pair(server, TableOptions(), memory=True)
            watcher = await Client.connect(server, "watcher", "spectator", memory=True)
            await watcher.send(Spectate(table))
            await watcher.expect(Snapshot)
            players = {"B": Scripted(blue, "B", 1), "Y": Scripted(yellow, "Y", 2)}
            views = await play_until(table, players, lambda view: view["phase"] == "main" and bool(view["legal"]),
                                     first=True)
            seat, view = next(iter(views.items()))
            store = server.lobby.store
            commit = store._commit

            def spy_commit():
                if store._db.in_transaction:
                    steps.append(("commit", None))
                commit()

            monkeypatch.setattr(store, "_commit", spy_commit)
            await trio.testing.wait_all_tasks_blocked()  # every step so far is done
            steps.clear()
            await players[seat].act(table, view)
            await players[seat].client.expect(ActionOk)  # its step is over: the answer leaves with its frames
            acting = server.lobby.tables[table].play.game.state.to_act

    assert len(acting) == 1, "a main-phase step: one seat to act"
    (mover,) = acting
    other = "Y" if mover == "B" else "B"
    names = {"B": "ann", "Y": "bob"}
    at = steps.index
    assert at(("commit", None)) < at(("view", other)) < at(("flush", names[other])) < at(("view", None)), steps
    assert at(("view", None)) < at(("flush", "watcher")) < at(("view", mover)) < at(("flush", names[mover])), steps
