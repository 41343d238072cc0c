"""Hidden-information audit leak33 (the first principle: nothing hidden leaks, by content, order, count, size or
timing; docs/rulings.md DT-042): the server paths the twin tests (test_server_twins.py, test_server_card_twins.py,
test_server_twin_channels.py, test_server_leaks.py) did not reach, over the same twins (two servers, the same
public actions over different secrets, every byte kept, the documented random fields normalised):

- the writes themselves: how a step's frames are cut into writes to each connection, and in which order the
  connections are written to (a frame's bytes equal, its write may still come apart or sooner);
- a spectator who comes in, and Blue resuming, in the middle of a commit-reveal round (after one commitment,
  after both, after one reveal) and in every rule family (Prison, Paladins & Dragons, a mix);
- draw offers, takeback requests (asked, refused, declined) and chat, by either seat, during the hidden phases
  and a secret choice;
- the clock run out: the rules' fallbacks played by the server (BG-OPT-02..04, CG-OPT-01/02) before the
  difference is public;
- a restart of the server during a Card Game's and a Paladins & Dragons game's hidden phase;
- an untimed Card Game's idle warnings (DT-297);
- a step the store cannot save (`game_stopped`) during the hidden phase;
- a resignation during the hidden phase, and an abort before the first turn that moves Blue to a seat kept for
  him at a new table (Seating.keep_seat).
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Awaitable, Callable

import msgpack
import pytest
import trio
import trio.testing
from dungeon_twister.engine import SEATS
from dungeon_twister.protocol import (Chat, DrawAnswer, DrawOffer, Leave, Resume, Spectate, SpectatorConnection,
                                      TableOptions, Takeback, TakebackAnswer)
from dungeon_twister.protocol.framing import FrameReader
from dungeon_twister.protocol.views import COMPACT_LEGAL, DELTA_VIEWS
from dungeon_twister.server import pipes
from dungeon_twister.server import server as server_module
from test_server_support import SOFTWARE, running_server
from test_server_twins import Capture, Step, _seated, send_step
from test_server_twins import normalised as _normalised

VIEWERS = ("B", "spectator", "deltas")
"""Who may not know Yellow's secrets: Blue, a spectator, a spectator with view deltas."""


def normalised(capture: Capture) -> list[bytes]:
    """test_server_twins.normalised, and the nonce of the seed commitment that a finished game's views give (a
    fresh random 32 bytes a table, docs/protocol.md section 16) replaced as the commitment is."""
    frames = _normalised(capture)
    nonces = {value.encode() for frame in capture.frames for value in _fields(msgpack.unpackb(frame, raw=False),
                                                                               ("seed_nonce", "server_seed_nonce"))}
    for nonce in nonces:
        frames = [frame.replace(nonce, b"\x00" * len(nonce)) for frame in frames]
    return frames


def _fields(value, names: tuple[str, ...]) -> list[str]:
    """Every string value of a key in `names` in a decoded message (a packed view inside it included)."""
    if isinstance(value, dict):
        found = [value[name] for name in names if isinstance(value.get(name), str)]
        return found + [c for item in value.values() for c in _fields(item, names)]
    if isinstance(value, list):
        return [c for item in value for c in _fields(item, names)]
    if isinstance(value, bytes):
        try:
            return _fields(msgpack.unpackb(value, raw=False), names)
        except (ValueError, msgpack.ExtraData, msgpack.FormatError, msgpack.StackError):
            return []
    return []


# --- every write the server makes to each connection, in order ----------------------------------------------
class _Recorded(pipes.PipeStream):
    """The server's end of an in-memory connection that notes each write (Session.flush, the writer task)."""

    __slots__ = ("writes", "key")

    def send_nowait(self, data) -> None:
        if data and not self._closed:
            self.writes.append((self.key, bytes(data)))
        super().send_nowait(data)


class Writes:
    """The writes of one server, (connection, bytes) in order; `step` is noted with each (the script's step being
    sent, -1 before the first)."""

    def __init__(self) -> None:
        self.log: list[tuple[int, int, bytes]] = []
        self.step = -1
        self._noted: list[tuple[int, bytes]] = []

    def pair(self):
        one, other = pipes._Pipe(), pipes._Pipe()
        client = pipes.PipeStream(one, other)
        end = _Recorded(other, one)
        end.writes, end.key = self, id(client)
        return client, end

    def append(self, item: tuple[int, bytes]) -> None:
        self.log.append((self.step, *item))

    def shape(self, streams: dict[str, object], until: int) -> list[tuple[str, int]]:
        """The writes to the viewers `streams` ({name: client end}) before step `until`, in order, each as (name,
        how many frames it completed). The frames themselves are compared elsewhere, byte for byte."""
        names = {id(stream): name for name, stream in streams.items()}
        readers = {key: FrameReader() for key in names}
        out = []
        for step, key, data in self.log:
            if key not in names or step >= until:
                continue
            reader = readers[key]
            reader.feed(data)
            count = 0
            while reader.next_frame() is not None:
                count += 1
            out.append((names[key], count))
        return out


Hook = Callable[[int, dict], Awaitable[None]]


async def play_twin(seed: int, steps: list[Step], options: TableOptions, monkeypatch, *, before: Hook | None = None,
                    sender: Hook | None = None, settings: dict | None = None) -> dict:
    """One twin on a fresh server whose connections note their writes: the script's steps (`sender(number, ctx)`
    sends one, else send_step), `before(number, ctx)` awaited before each (the probes of a test). `ctx`: server,
    nursery, table, the captures by "B", "Y", "spectator", "deltas", the writes, the step's `Step`. Returns the
    captures, the writes and each viewer's frame count before each step and at the end ("marks")."""
    writes = Writes()
    monkeypatch.setattr(server_module, "pipe_pair", writes.pair)
    async with running_server(seeds=(seed,), **(settings or {})) as server, trio.open_nursery() as nursery:
        table, captures = await _seated(server, nursery, options)
        ctx = {"server": server, "nursery": nursery, "table": table, "writes": writes, **captures}
        players = {"B": captures["B"], "Y": captures["Y"]}
        marks = []
        for number, step in enumerate(steps):
            writes.step = number
            ctx["step"] = step
            if before is not None:
                await before(number, ctx)
            marks.append({viewer: len(captures[viewer].frames) for viewer in VIEWERS})
            if sender is not None:
                await sender(number, ctx)
            else:
                await send_step(players, table, number, step)
        writes.step = len(steps)
        marks.append({viewer: len(captures[viewer].frames) for viewer in VIEWERS})
        nursery.cancel_scope.cancel()
    monkeypatch.setattr(server_module, "pipe_pair", pipes.pipe_pair)
    return {"captures": captures, "writes": writes, "marks": marks, "ctx": ctx}


def assert_same_until(first: dict, second: dict, cut: int, viewers=VIEWERS) -> int:
    """The viewers got the same frames (normalised), cut into the same writes, the connections written to in the
    same order, before step `cut`; different frames in it (the comparison sees a difference at all). Returns how
    many frames were compared."""
    compared = 0
    for viewer in viewers:
        a, b = normalised(first["captures"][viewer]), normalised(second["captures"][viewer])
        before = first["marks"][cut][viewer]
        assert second["marks"][cut][viewer] == before, viewer
        for n in range(before):
            assert a[n] == b[n], (viewer, n, a[n][:300], b[n][:300])
        assert a[before:first["marks"][cut + 1][viewer]] != b[before:second["marks"][cut + 1][viewer]], viewer
        compared += before
    streams = [{viewer: twin["captures"][viewer].stream for viewer in viewers} for twin in (first, second)]
    shapes = [twin["writes"].shape(stream, cut) for twin, stream in zip((first, second), streams)]
    if shapes[0] != shapes[1]:
        raise WritesDiffer(shapes[0], shapes[1])
    return compared


class WritesDiffer(AssertionError):
    """The same frames, written apart or in another order."""

    def __init__(self, first: list, second: list) -> None:
        n = next((n for n, (a, b) in enumerate(zip(first, second)) if a != b), min(len(first), len(second)))
        super().__init__(f"write {n} differs: {first[n:n + 3]} != {second[n:n + 3]}")
        self.n = n


# --- the writes of the twins the other files compare frame by frame ------------------------------------------
def _twins(name: str):
    """(seeds, scripts, cut, table options) of a pair of twins of the other files, by name."""
    if name == "team":
        from test_server_twins import OPTIONS, TEAM_SEED, team_twins

        script, twin, cut = team_twins()
        return (TEAM_SEED, TEAM_SEED), (script, twin), cut, OPTIONS
    if name == "cards-seeded":
        from test_server_card_twins import SEED, TABLE, seeded_twins

        script, twin, cut = seeded_twins()
        return (SEED, SEED), (script, twin), cut, TABLE
    if name == "cards-full":
        from test_server_card_twins import FULL_SEED, FULL_TABLE, full_frontal_twins

        script, twin, cut = full_frontal_twins()
        return (FULL_SEED, FULL_SEED), (script, twin), cut, FULL_TABLE
    from test_server_leaks import MIXES
    from test_server_twin_channels import SETS, SWAP_SEED, swapped_hides

    script, twin, cut = swapped_hides(name, SWAP_SEED)
    return (SWAP_SEED, SWAP_SEED), (script, twin), cut, {**SETS, **MIXES}[name]


@pytest.mark.parametrize("name", ["team", "cards-seeded", "cards-full", "paladins", "all-sets"])
async def test_twins_are_written_in_the_same_writes_in_the_same_order(mock_clock, monkeypatch, name):
    """BG-SETUP-04/05, CG-TUT1-04, CG-SEL-FULL-01, PD-TEAM-02: the twins of the other files (a permuted team, Card
    Game cards seeded the other way or another secret team, Paladins & Dragons' and the three sets' hidden tokens
    swapped) cut Blue's, a spectator's and a delta spectator's frames into the same writes, and write to those
    connections in the same order, until the difference is public (a step's frames leave early, Table.publish:
    when and how they are cut could follow the seat to act's secrets)."""
    seeds, scripts, cut, options = _twins(name)
    first, second = [await play_twin(seed, script, options, monkeypatch) for seed, script in zip(seeds, scripts)]
    assert assert_same_until(first, second, cut) > 3 * cut
    shape = first["writes"].shape({v: first["captures"][v].stream for v in VIEWERS}, cut)
    assert any(count > 1 for _, count in shape)  # (a view and its timers in one write)


async def test_control_the_write_comparison_catches_writes_cut_by_a_hidden_fact(mock_clock, monkeypatch):
    """With a spectator's frames planted to leave at once (a write of their own) when a digest of the position,
    hidden facts and all, is odd, the team twins' frames stay the same bytes but their writes differ."""
    from dungeon_twister.server.table import Table

    send = Table._send

    def planted(self, n, rendered, viewers, flush=False, then=()):
        position = self.play.rules.format_position(self.play.game.state)
        odd = hashlib.sha256(position.encode()).digest()[0] & 1
        send(self, n, rendered, viewers, flush=flush or (bool(odd) and any(seat is None for _, seat, _ in viewers)),
             then=then)

    monkeypatch.setattr(Table, "_send", planted)
    seeds, scripts, cut, options = _twins("team")
    first, second = [await play_twin(seed, script, options, monkeypatch) for seed, script in zip(seeds, scripts)]
    with pytest.raises(WritesDiffer):
        assert_same_until(first, second, cut)


# --- late spectators and resumes in the middle of a commit-reveal round, and in every rule family -------------
@pytest.fixture
def unlimited(monkeypatch):
    """Blue resumes twice at every probe, the clock frozen: no rate limit answers him rate_limited instead."""
    from dungeon_twister.server import session

    monkeypatch.setattr(session, "RESUME_BURST", 10_000)
    monkeypatch.setattr(session, "LOOKUP_BURST", 10_000)


async def _probe(ctx: dict, label: str, probes: dict) -> None:
    """A spectator comes in (whole views), another with delta_views and compact_legal, a third with delta_views
    from 12 events back; Blue asks for the events after one 4 back, then for a snapshot. Each one's frames,
    normalised, go in `probes[label]`."""
    server, nursery, table, blue = ctx["server"], ctx["nursery"], ctx["table"], ctx["B"]
    last = max((m.n for m in blue.messages if getattr(m, "event", None) is not None), default=0)
    got = []
    for number, (features, back) in enumerate((((), None), ((DELTA_VIEWS, COMPACT_LEGAL), None),
                                               ((DELTA_VIEWS,), 12))):
        conn = SpectatorConnection(features=features)
        capture = Capture(server.connect_memory(), conn)
        nursery.start_soon(capture.run)
        await capture.send(conn.send_hello(f"sam{len(probes)}x{number}", SOFTWARE))
        await capture.send(conn.send(Spectate(table, None if back is None else max(0, last - back))))
        await capture.send(conn.send(Leave()))
        await capture.stream.aclose()
        types = [msgpack.unpackb(frame)["type"] for frame in capture.frames]
        assert "error" not in types and {"snapshot", "table_event"} & set(types), (label, types)
        got.append(normalised(capture))
    for message in (Resume(table, max(0, last - 4)), Resume(table, last, snapshot=True)):
        mark = len(blue.frames)
        await blue.send(blue.conn.send(message))
        types = [msgpack.unpackb(frame)["type"] for frame in blue.frames[mark:]]
        assert types and "error" not in types, (label, types)
        got.append(normalised(blue)[mark:])
    probes[label] = got


def _probing(probes: dict) -> tuple[Hook, Hook]:
    """`before` and `sender` hooks for play_twin that probe before each step and, in a secret choice, after
    Yellow's commitment, after both, and after Yellow's reveal (Blue's last)."""
    async def before(number: int, ctx: dict) -> None:
        await _probe(ctx, f"{number} before", probes)

    async def sender(number: int, ctx: dict) -> None:
        step, table = ctx["step"], ctx["table"]
        players = {"B": ctx["B"], "Y": ctx["Y"]}
        if step.purpose is None:
            return await send_step(players, table, number, step)
        order = (("Y", "commit"), ("B", "commit"), ("Y", "reveal"), ("B", "reveal"))
        for seat, what in order:
            player = players[seat]
            if what == "commit":
                await player.send(player.conn.commit(step.purpose, step.choices[seat]))
            else:
                await player.send(player.conn.reveal(step.purpose))
            if (seat, what) != order[-1]:
                await _probe(ctx, f"{number} after {seat} {what}", probes)

    return before, sender


@pytest.mark.parametrize("name", ["team", "cards-full", "prison", "paladins", "mixed-mutual"])
async def test_late_spectators_and_resumes_in_a_commit_reveal_round_and_every_family(mock_clock, monkeypatch,
                                                                                     unlimited, name):
    """BG-SETUP-04/05 and PD-TEAM-02 (a team chosen in secret, or picked in turn, and tokens hidden), CG-SEL-FULL-01
    and CG-TUT1-04 (a secret team, its hidden start characters and facings): a spectator who comes in (whole
    views, deltas with compact legal lists, deltas from 12 events back) and Blue resuming (events, a snapshot),
    before each step and, in a secret choice, after Yellow's commitment, after both and after Yellow's reveal
    (Blue's still to come: the server holds Yellow's choice), get the same bytes in both twins; so do Blue and the
    spectators at the table, write for write. test_server_twin_channels probed the base set and the Card Game's
    seeded cards before each step only."""
    seeds, scripts, cut, options = _twins(name)
    results = []
    for seed, script in zip(seeds, scripts):
        probes: dict = {}
        before, sender = _probing(probes)
        results.append((await play_twin(seed, script[:cut + 1], options, monkeypatch, before=before, sender=sender),
                        probes))
    (first, first_probes), (second, second_probes) = results
    assert_same_until(first, second, cut)
    assert sorted(first_probes) == sorted(second_probes)
    cut_labels = {label for label in first_probes if int(label.split()[0]) < cut}
    assert len(cut_labels) > cut
    assert [label for label in sorted(cut_labels) if first_probes[label] != second_probes[label]] == []
    if name in ("team", "cards-full"):
        assert any("after Y reveal" in label for label in cut_labels)


# --- draw offers, takebacks and chat, during the hidden phases and a secret choice ---------------------------
def _events(capture: Capture, kind: str) -> int:
    return sum(1 for m in capture.messages if getattr(m, "event", None) is not None and m.event.get("kind") == kind)


async def _requests(ctx: dict, who: str) -> None:
    """`who` offers a draw, asks to take his last action back and chats; the other declines what was put to him
    (by what he was told: the request's public event)."""
    table = ctx["table"]
    asker, other = ctx[who], ctx["Y" if who == "B" else "B"]
    offers, asks = _events(other, "draw_offered"), _events(other, "takeback_asked")
    await asker.send(asker.conn.send(DrawOffer(table)))
    if _events(other, "draw_offered") > offers:
        await other.send(other.conn.send(DrawAnswer(table, False)))
    await asker.send(asker.conn.send(Takeback(table)))
    if _events(other, "takeback_asked") > asks:
        await other.send(other.conn.send(TakebackAnswer(table, False)))
    await asker.send(asker.conn.send(Chat(f"{who} thinks")))


async def test_draw_offers_takebacks_and_chat_during_the_hidden_phases_and_a_secret_choice(mock_clock, monkeypatch,
                                                                                            unlimited):
    """DT-224, DT-228 over the Card Game's seeded twins (CG-TUT1-04, secret objects: CG-OPT-03), the permuted
    team (BG-SETUP-04) and Prison's swapped hides (BG-SETUP-05, the first turns): before each step each seat
    offers a draw, asks to take its last action back (refused to it alone when a secret or another's action is in
    the way, else put to the other, who declines) and chats; in a secret choice, once Yellow has committed, and
    once both have, Yellow again. Blue and the spectators get the same bytes, write for write,
    until the difference is public; the requests were put (draw_offered, takeback_asked) and refused."""
    from dungeon_twister.server import session

    monkeypatch.setattr(session, "CHAT_BURST", 10_000)

    async def before(number: int, ctx: dict) -> None:
        await _requests(ctx, "B")
        await _requests(ctx, "Y")

    async def sender(number: int, ctx: dict) -> None:
        step, table = ctx["step"], ctx["table"]
        players = {"B": ctx["B"], "Y": ctx["Y"]}
        if step.purpose is None:
            return await send_step(players, table, number, step)
        for seat in ("Y", "B"):
            await players[seat].send(players[seat].conn.commit(step.purpose, step.choices[seat]))
            await _requests(ctx, "Y")
        for seat in ("Y", "B"):
            await players[seat].send(players[seat].conn.reveal(step.purpose))

    declined = 0
    for name in ("cards-seeded", "team", "prison"):
        seeds, scripts, cut, options = _twins(name)
        first, second = [await play_twin(seed, script, options, monkeypatch, before=before, sender=sender)
                         for seed, script in zip(seeds, scripts)]
        assert assert_same_until(first, second, cut) > 3 * cut
        blue = first["captures"]["B"]
        assert _events(blue, "draw_declined") > cut, name
        assert sum(1 for m in first["captures"]["spectator"].messages if type(m).__name__ == "ChatMessage") > cut
        declined += _events(blue, "takeback_declined")
    assert declined >= 1  # (a main phase before the cut: Prison's; the others' cut comes before it)


# --- the clock run out: the rules' fallbacks before the difference is public ---------------------------------
def assert_same(first: dict, second: dict, viewers=VIEWERS, interleaved: bool = True) -> None:
    """The viewers got the same frames (normalised), in the same writes, in the same order, up to the end of the
    script (then the server shuts down: its `server_closing` goes to a set of connections). Not `interleaved`: the
    order of the writes to different connections is not compared (connections closed by their writer tasks, which
    trio runs in an order of its own, random)."""
    for viewer in viewers:
        end = first["marks"][-1][viewer]
        assert normalised(first["captures"][viewer])[:end] == normalised(second["captures"][viewer])[:end], viewer
        assert second["marks"][-1][viewer] == end
    shapes = [twin["writes"].shape({v: twin["captures"][v].stream for v in viewers}, len(twin["marks"]) - 1)
              for twin in (first, second)]
    if not interleaved:
        shapes = [sorted(shape, key=lambda write: write[0]) for shape in shapes]  # (stable: each one's in order)
    if shapes[0] != shapes[1]:
        raise WritesDiffer(*shapes)


def _timing_out(clock, last: int, rounds: int) -> Hook:
    """A `sender` that sends the script's steps, then after step `last` lets the clock run out `rounds` times
    (the table's next deadline each time): the server plays the rules' fallbacks."""
    async def sender(number: int, ctx: dict) -> None:
        await send_step({"B": ctx["B"], "Y": ctx["Y"]}, ctx["table"], number, ctx["step"])
        if number != last:
            return
        table = ctx["server"].lobby.tables[ctx["table"]]
        for _ in range(rounds):
            at = table.play.next_deadline()
            assert at != float("inf")
            clock.jump(max(0.0, at - trio.current_time()) + 0.001)
            await trio.testing.wait_all_tasks_blocked()

    return sender


@pytest.mark.parametrize("name", ["cards-seeded", "prison", "paladins"])
async def test_the_clocks_fallbacks_send_the_same_bytes_before_the_difference_is_public(mock_clock, monkeypatch, name):
    """BG-OPT-02 (a turn's time out: the lowest action card, then the end of the turn; DT-012) and CG-OPT-01 (the
    turn stops), over the Card Game's seeded cards and Prison's and Paladins & Dragons' swapped hides: the twins
    played to the step before the difference shows, then the clock run out eight times in a row. Blue and the
    spectators get the same bytes, write for write, timeouts, timers and views included (the twin tests' clock
    never moved: no fallback was ever played in them)."""
    seeds, scripts, cut, options = _twins(name)
    rounds = 8
    first, second = [await play_twin(seed, script[:cut], options, monkeypatch,
                                     sender=_timing_out(mock_clock, cut - 1, rounds))
                     for seed, script in zip(seeds, scripts)]
    assert_same(first, second)
    for twin in (first, second):
        assert _events(twin["captures"]["spectator"], "timeout") >= rounds
        assert _events(twin["captures"]["B"], "turn_started" if name != "cards-seeded" else "turn") >= 1


# --- a restart of the server during the hidden phase, in the Card Game and Paladins & Dragons ----------------
@pytest.mark.parametrize("name", ["cards-seeded", "cards-full", "paladins"])
async def test_a_restart_during_the_hidden_phase_sends_the_same_bytes_in_the_card_game_and_paladins(mock_clock,
                                                                                                     tmp_path, name):
    """CG-TUT1-04, CG-SEL-FULL-01, BG-SETUP-05 in Paladins & Dragons: the twins played to two steps before the
    difference shows, the server stopped and started again on its store (recovery.py replays the journal and the
    commit-reveal rounds): Blue resuming from his last event and from none, and a new spectator, are sent the same
    bytes in both twins; restarted once it shows, different bytes (the comparison sees a difference at all).
    test_server_twin_channels restarted the base set's permuted team only."""
    from test_server_twin_channels import after_a_restart

    seeds, scripts, cut, options = _twins(name)
    first, second = [await after_a_restart(seed, script[:cut - 1], options, tmp_path / f"hidden{n}")
                     for n, (seed, script) in enumerate(zip(seeds, scripts))]
    assert first == second
    first, second = [await after_a_restart(seed, script[:cut + 1], options, tmp_path / f"shown{n}")
                     for n, (seed, script) in enumerate(zip(seeds, scripts))]
    assert any(first[key] != second[key] for key in first)


async def _restarted_mid_round(seed: int, steps: list[Step], options: TableOptions, data_dir) -> dict:
    """Play the steps but the last, a secret choice, of which Yellow commits, Blue commits and Yellow reveals (the
    server holds Yellow's choice); the server stops and starts again on its store (recovery.py replays the round);
    what Blue resuming, Yellow resuming and a new spectator are sent: Blue's and the spectator's, normalised."""
    from dungeon_twister.protocol import Joined, PlayerConnection, ResumeInfo

    data_dir.mkdir()
    *done, last = steps
    assert last.purpose is not None
    async with running_server(seeds=(seed,), data_dir=data_dir, data_sync="normal") as server, \
            trio.open_nursery() as nursery:
        table, captures = await _seated(server, nursery, options, deltas=False)
        players = {"B": captures["B"], "Y": captures["Y"]}
        for number, step in enumerate(done):
            await send_step(players, table, number, step)
        for seat, what in (("Y", "commit"), ("B", "commit"), ("Y", "reveal")):
            conn = players[seat].conn
            await players[seat].send(conn.commit(last.purpose, last.choices[seat]) if what == "commit"
                                     else conn.reveal(last.purpose))
        tokens = {seat: next(m.token for m in players[seat].messages if isinstance(m, Joined)) for seat in SEATS}
        nursery.cancel_scope.cancel()
    async with running_server(seeds=(seed,), data_dir=data_dir, data_sync="normal") as server, \
            trio.open_nursery() as nursery:
        captures = {}
        for key, name, resume in (("B", "ann", ResumeInfo(tokens["B"], table, 0)),
                                  ("Y", "bob", ResumeInfo(tokens["Y"], table, 0)), ("spectator", "sam", None)):
            conn = SpectatorConnection() if resume is None else PlayerConnection()
            capture = captures[key] = Capture(server.connect_memory(), conn)
            nursery.start_soon(capture.run)
            await capture.send(conn.send_hello(name, SOFTWARE, resume))
            if resume is None:
                await capture.send(conn.send(Spectate(table)))
        await trio.testing.wait_all_tasks_blocked()
        out = {key: normalised(captures[key]) for key in ("B", "spectator")}
        types = [msgpack.unpackb(frame)["type"] for frame in captures["B"].frames]
        assert "opponent_commit" in types and "opponent_reveal" not in types, types
        nursery.cancel_scope.cancel()
    return out


@pytest.mark.parametrize("name", ["team", "cards-full"])
async def test_a_restart_inside_a_commit_reveal_round_sends_the_same_bytes(mock_clock, tmp_path, name):
    """BG-SETUP-04 (the team, in secret) and CG-SEL-FULL-01/CG-TUT1-04 (a secret team's hidden start characters):
    the server restarts while it holds Yellow's revealed choice and Blue's commitment (Blue has not revealed); Blue
    and Yellow come back, a spectator comes in: Blue (given Yellow's commitment again, nothing of his reveal) and
    the spectator get the same bytes in both twins."""
    seeds, scripts, cut, options = _twins(name)
    last = max(n for n in range(cut) if scripts[0][n].purpose is not None
               and scripts[0][n].choices["Y"] != scripts[1][n].choices["Y"])
    first, second = [await _restarted_mid_round(seed, script[:last + 1], options, tmp_path / f"twin{n}")
                     for n, (seed, script) in enumerate(zip(seeds, scripts))]
    assert first == second and len(first["B"]) >= 3


# --- an untimed table's idle warnings in Prison and Paladins & Dragons -----------------------------------------
@pytest.mark.parametrize("name", ["prison", "paladins"])
async def test_DT_297_idle_warnings_send_the_same_bytes_over_prison_and_paladins_twins(mock_clock, name):
    """DT-297 in Prison and Paladins & Dragons (test_server_leaks checked the base set): their swapped hides
    played at a table without timers whose clock moves 26 minutes before each step; the seat waited on alone is
    warned at the same steps in both twins, and Blue and the spectators get the same bytes until the difference
    shows."""
    from test_server_leaks import idle_play

    seeds, scripts, cut, options = _twins(name)
    untimed = dataclasses.replace(options, timers=False)
    (first, first_marks), (second, second_marks) = [await idle_play(mock_clock, seed, script, untimed)
                                                        for seed, script in zip(seeds, scripts)]
    for viewer in VIEWERS:
        a, b = normalised(first[viewer]), normalised(second[viewer])
        before = first_marks[cut][viewer]
        assert second_marks[cut][viewer] == before and a[:before] == b[:before], viewer
        assert a[before:first_marks[cut + 1][viewer]] != b[before:second_marks[cut + 1][viewer]], viewer
        assert sum(b"idle_warning" in frame for frame in a[:before]) >= 2, viewer  # (the steps of one seat)


# --- a step the store cannot save, during the hidden phase ---------------------------------------------------
@pytest.mark.parametrize("saved", [0, 1])
@pytest.mark.parametrize("name", ["cards-seeded", "prison"])
async def test_a_step_the_store_cannot_save_in_the_hidden_phase_cuts_everyone_off_alike(mock_clock, monkeypatch,
                                                                                         name, saved):
    """A full disk two steps before the difference shows: every COMMIT with something to commit fails, from that
    step's (`saved` 0) or from the next one (`saved` 1: the first step's frames went out). The table stops and
    cuts its viewers off (game_stopped, Table.if_not_saved's undo run), and Blue and the spectators get the same
    bytes and writes in both twins, each connection's in the same order (a COMMIT that fails or not by what a
    step wrote could tell a secret: a step writes its journal line and commits it early, Table.publish, and
    nothing after it here)."""
    from dungeon_twister.server.storage import SqliteStorage, StorageError

    commit = SqliteStorage._commit
    seeds, scripts, cut, options = _twins(name)
    last = cut - 2

    async def sender(number: int, ctx: dict) -> None:
        if number == last:
            calls = [0]

            ctx["calls"] = calls

            def full(self):
                if self._db is None or not self._db.in_transaction:  # (nothing written: no COMMIT to fail)
                    return commit(self)
                calls[0] += 1
                if calls[0] <= saved:
                    return commit(self)
                self._rollback()
                raise StorageError("database or disk is full")

            monkeypatch.setattr(SqliteStorage, "_commit", full)
        table = ctx["server"].lobby.tables.get(ctx["table"])
        if table is None or table.stopped:  # (cut off: nobody sends anything more)
            return
        try:
            await send_step({"B": ctx["B"], "Y": ctx["Y"]}, ctx["table"], number, ctx["step"])
        except trio.BrokenResourceError:  # (cut off in the middle of a secret choice's messages)
            pass

    twins = []
    for seed, script in zip(seeds, scripts):
        twins.append(await play_twin(seed, script[:cut], options, monkeypatch, sender=sender))
        monkeypatch.setattr(SqliteStorage, "_commit", commit)
    assert_same(*twins, interleaved=False)
    for twin in twins:
        for viewer in VIEWERS:
            errors = [m for m in twin["captures"][viewer].messages if type(m).__name__ == "Error"]
            assert [e.code for e in errors] == ["game_stopped"], viewer
            after = [msgpack.unpackb(frame)["type"] for frame in
                     twin["captures"][viewer].frames[twin["marks"][last][viewer]:]]
            assert after[-1] == "error" and (len(after) == 1) == (saved == 0), (viewer, after)


# --- a resignation during the hidden phase -------------------------------------------------------------------
@pytest.mark.parametrize("name", ["team", "cards-full", "prison"])
async def test_a_resignation_in_the_hidden_phase_shows_the_spectators_nothing_and_blue_only_the_held_reveals(
        mock_clock, monkeypatch, name):
    """Yellow leaves the table (a resignation, or an abort before the first turn, which moves Blue to a seat kept
    for him at a new table: `left`, `table_created`, `joined`, its snapshot and `seat_kept`) two steps before the
    difference shows: the game is over, and its record will tell everything (`get_record` after the end), but the live
    frames show nothing more than the rules made public: the spectators get the same bytes in both twins (the
    game's seed, revealed at its end, is the same), and Blue's differ only by the reveals held to the end of the
    game (DT-043, DT-120, DT-218: his opponent's secret team or build, opponent_reveal)."""
    seeds, scripts, cut, options = _twins(name)
    last = cut - 2
    twins = [await play_twin(seed, [*script[:last], Step({"Y": "__leave__"})], options, monkeypatch)
             for seed, script in zip(seeds, scripts)]
    assert_same(*twins, viewers=("spectator", "deltas"))
    blue = []
    for twin in twins:
        frames = normalised(twin["captures"]["B"])[:twin["marks"][-1]["B"]]
        blue.append([frame for frame in frames if msgpack.unpackb(frame)["type"] != "opponent_reveal"])
        assert any(type(m).__name__ == "GameOver" for m in twin["captures"]["spectator"].messages)
        if name != "prison":  # aborted before the first turn: Blue keeps a seat, at a new table (Seating.keep_seat)
            assert _events(twin["captures"]["B"], "seat_kept") == 1
    assert blue[0] == blue[1]
