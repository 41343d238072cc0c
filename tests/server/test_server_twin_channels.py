"""End to end over a real server: the channels around the live frames leak nothing either (red team rt26, the
first principle; docs/rulings.md DT-042). Twin games (tests/server/test_server_twins.py's method: two servers, the
same public actions over different secrets, every byte kept) are played, and before each step, while the
difference is still hidden:

- a spectator comes in (his snapshot, a whole view), another with the features delta_views and compact_legal (the
  base of his deltas), and a third with delta_views that asks for the events after one 12 events back (the
  table's event log, from a compressed block once the log holds that many: server/eventlog.py);
- Blue asks again for the events after one a few events back (`resume`), then for a snapshot;
- Blue asks for the table list (the lobby's line of a table in play).

And once, in the middle of the hidden placement, the server restarts (its store restores the table by replaying
the journal: server/recovery.py): Blue comes back with his resume token (from his last event, and from none), and
a spectator comes in.

Everything each of them is sent must be the same bytes in both twins (the documented random fields normalised as
there). And the live comparison itself, which the base set, a free all-sets build and the Card Game had, runs over
Prison, Paladins & Dragons and a mix built by mutual choice: Yellow hides two tokens the other way round.
"""

from __future__ import annotations

import msgpack
import pytest
import trio
import trio.testing
from dungeon_twister.engine import Hide, format_action, parse_action
from dungeon_twister.engine.tools.variants import VARIANTS
from dungeon_twister.protocol import (Joined, ListTables, Leave, PlayerConnection, Resume, ResumeInfo,
                                      Spectate, SpectatorConnection, TableOptions)
from dungeon_twister.protocol.views import COMPACT_LEGAL, DELTA_VIEWS
from test_server_support import SOFTWARE, running_server
from test_server_twins import (OPTIONS, TEAM_SEED, Capture, Step, _index, _seated, compare_twins, greedy_script,
                               normalised, replay, reveal_steps, send_step, team_twins)

PROBES = ("spectator", "compact spectator", "spectator from an event", "resume", "snapshot", "table list")
BACK = 4
"""How many events back Blue's resume asks from (the newest events, kept as sent)."""
FAR_BACK = 12
"""How many events back the third spectator asks from: past the newest BLOCK events, into a compressed block of
the delta form's log (server/eventlog.py) once it holds that many."""


@pytest.fixture
def unlimited(monkeypatch):
    """Blue asks for two resumes and a table list at every step, the clock frozen: no rate limit answers him
    rate_limited instead (the answers are what is compared)."""
    from dungeon_twister.server import session

    monkeypatch.setattr(session, "RESUME_BURST", 10_000)
    monkeypatch.setattr(session, "LOOKUP_BURST", 10_000)


class _Frames:
    """Frames a probe got, normalised with what the capture they came by knows of the random fields."""

    def __init__(self, capture: Capture, frames: list[bytes]) -> None:
        self.messages, self.frames = capture.messages, frames


async def probed(seed: int, steps: list[Step], options: TableOptions) -> dict[str, list[list[bytes]]]:
    """Play the steps on a fresh server, probing before each: {probe: [its normalised frames, a list per step]}."""
    out: dict[str, list[list[bytes]]] = {probe: [] for probe in PROBES}
    async with running_server(seeds=(seed,)) as server, trio.open_nursery() as nursery:
        table, captures = await _seated(server, nursery, options, deltas=False)
        blue, players = captures["B"], {"B": captures["B"], "Y": captures["Y"]}

        async def watch(name: str, conn, last_event: int | None) -> list[bytes]:
            capture = Capture(server.connect_memory(), conn)
            nursery.start_soon(capture.run)
            await capture.send(conn.send_hello(name, SOFTWARE))
            await capture.send(conn.send(Spectate(table, last_event)))
            await capture.send(conn.send(Leave()))
            await capture.stream.aclose()
            types = [msgpack.unpackb(frame)["type"] for frame in capture.frames]
            assert "error" not in types and {"snapshot", "table_event"} & set(types), (name, types)
            return normalised(capture)

        async def asked(message) -> list[bytes]:
            mark = len(blue.frames)
            await blue.send(blue.conn.send(message))
            # (a client's connection drops the events it had: the frames tell what came, and that it came)
            types = [msgpack.unpackb(frame)["type"] for frame in blue.frames[mark:]]
            assert types and types[0] in (("tables",) if isinstance(message, ListTables) else ("snapshot", "table_event"))
            assert "error" not in types, message  # (not rate-limited)
            return normalised(_Frames(blue, blue.frames[mark:]))

        for number, step in enumerate(steps):
            last = max((m.n for m in blue.messages if getattr(m, "event", None) is not None), default=0)
            out["spectator"].append(await watch(f"sam{number}", SpectatorConnection(), None))
            out["compact spectator"].append(await watch(
                f"cal{number}", SpectatorConnection(features=(DELTA_VIEWS, COMPACT_LEGAL)), None))
            out["spectator from an event"].append(await watch(
                f"fay{number}", SpectatorConnection(features=(DELTA_VIEWS,)), max(0, last - FAR_BACK)))
            out["resume"].append(await asked(Resume(table, max(0, last - BACK))))
            out["snapshot"].append(await asked(Resume(table, last, snapshot=True)))
            out["table list"].append(await asked(ListTables()))
            await send_step(players, table, number, step)
        nursery.cancel_scope.cancel()
    return out


async def differing_probes(seeds: tuple[int, int], scripts: tuple[list[Step], list[Step]], cut: int,
                           options: TableOptions) -> list[tuple[str, int]]:
    """(probe, step) of every probe whose frames differ between the twins, over the steps before the cut."""
    first, second = [await probed(seed, script[:cut], options) for seed, script in zip(seeds, scripts)]
    for probe in PROBES:  # every probe was answered
        assert len(first[probe]) == cut and all(first[probe]), probe
    return [(probe, n) for probe in PROBES for n in range(cut) if first[probe][n] != second[probe][n]]


async def test_a_permuted_team_arrangement_is_hidden_from_late_spectators_resumes_and_the_table_list(mock_clock, unlimited):
    """BG-SETUP-04/05: Yellow's start squares permuted (the team twins). Before each step up to the teams' reveal
    (BG-SETUP-10), the probes get the same bytes in both games."""
    script, twin, cut = team_twins()
    assert await differing_probes((TEAM_SEED, TEAM_SEED), (script, twin), cut, OPTIONS) == []


async def test_CG_TUT1_04_cards_seeded_the_other_way_are_hidden_from_late_spectators_and_resumes(mock_clock, unlimited):
    """The Card Game (tutorial 3, secret objects, timers): Yellow seeds two cards each beside the other's room;
    the probes get the same bytes in both games until one of those rooms is revealed (CG-REVEAL-05)."""
    from test_server_card_twins import SEED, TABLE, seeded_twins

    script, twin, cut = seeded_twins()
    assert await differing_probes((SEED, SEED), (script, twin), cut, TABLE) == []


async def test_control_the_probes_catch_the_id_order_leak(mock_clock, unlimited, monkeypatch):
    """With the views' lists sorted by token id again (the leak of issue 6), the same team twins are told apart by
    the probes: a spectator who comes in during the hidden placement sees it in his first view."""
    from dungeon_twister.engine.boardgame import views

    monkeypatch.setattr(views, "_token_key", lambda t, visible: (t.where != "board", t.where != "room", t.id))
    script, twin, cut = team_twins()
    differing = await differing_probes((TEAM_SEED, TEAM_SEED), (script, twin), cut, OPTIONS)
    assert {"spectator", "compact spectator", "snapshot"} <= {probe for probe, _ in differing}


async def after_a_restart(seed: int, steps: list[Step], options: TableOptions, data_dir) -> dict[str, list[bytes]]:
    """Play the steps on a server with a store in `data_dir`, stop it, start another on that store: what Blue
    resuming from his last event, Blue resuming from none and a spectator coming in are sent, normalised."""
    data_dir.mkdir()
    async with running_server(seeds=(seed,), data_dir=data_dir, data_sync="normal") as server, \
            trio.open_nursery() as nursery:
        table, captures = await _seated(server, nursery, options, deltas=False)
        blue, players = captures["B"], {"B": captures["B"], "Y": captures["Y"]}
        for number, step in enumerate(steps):
            await send_step(players, table, number, step)
        token = next(m.token for m in blue.messages if isinstance(m, Joined))
        last = max(m.n for m in blue.messages if getattr(m, "event", None) is not None)
        nursery.cancel_scope.cancel()
    out = {}
    async with running_server(seeds=(seed,), data_dir=data_dir, data_sync="normal") as server, \
            trio.open_nursery() as nursery:
        for key, conn, resume in (("Blue from his last event", PlayerConnection(), ResumeInfo(token, table, last)),
                                  ("Blue from none", PlayerConnection(), ResumeInfo(token, table, 0)),
                                  ("spectator", SpectatorConnection(), None)):
            capture = Capture(server.connect_memory(), conn)
            nursery.start_soon(capture.run)
            await capture.send(conn.send_hello("sam" if resume is None else "ann", SOFTWARE, resume))
            if resume is None:
                await capture.send(conn.send(Spectate(table)))
            await trio.testing.wait_all_tasks_blocked()
            if resume is not None:  # (the next resume with the token takes the seat over)
                await capture.stream.aclose()
                await trio.testing.wait_all_tasks_blocked()
            out[key] = normalised(capture)
            types = [msgpack.unpackb(frame)["type"] for frame in capture.frames]
            assert types[:3] == ["welcome", "joined", "snapshot"], (key, types)
        nursery.cancel_scope.cancel()
    return out


async def test_a_permuted_team_arrangement_is_hidden_after_a_restart_in_the_hidden_placement(mock_clock, tmp_path):
    """The team twins (BG-SETUP-04/05), the server restarted a few hidden tokens before the teams' reveal
    (BG-SETUP-10): the restored table sends the resuming Blue and a new spectator the same bytes in both games;
    restarted once the teams are revealed, different bytes (the comparison can see a difference at all)."""
    script, twin, cut = team_twins()
    steps = cut - 4
    first = await after_a_restart(TEAM_SEED, script[:steps], OPTIONS, tmp_path / "first")
    second = await after_a_restart(TEAM_SEED, twin[:steps], OPTIONS, tmp_path / "second")
    assert first == second
    first = await after_a_restart(TEAM_SEED, script[:cut + 1], OPTIONS, tmp_path / "first revealed")
    second = await after_a_restart(TEAM_SEED, twin[:cut + 1], OPTIONS, tmp_path / "second revealed")
    assert all(first[key] != second[key] for key in first)


# --- Prison, Paladins & Dragons, a mix by mutual choice: the live frames -----------------------------------------
SETS = {"prison": TableOptions(timers=True, set_name="prison"),
        "paladins": TableOptions(timers=True, set_name="paladins"),
        "mixed-mutual": TableOptions(timers=True, set_name="mixed", teams="mutual")}
SWAP_SEED = 1


def swapped_hides(variant: str, seed: int) -> tuple[list[Step], list[Step], int]:
    """The greedy script of `variant` from `seed`, and its twin in which Yellow hides its first two tokens hidden
    in different rooms each in the other's room (BG-SETUP-05). Cut: the reveal of either room (BG-REVEAL-01/05)."""
    options = VARIANTS[variant]
    script = greedy_script(seed, options, 160)
    hides = [(n, parse_action(step.choices["Y"], "Y")) for n, step in enumerate(script)
             if step.purpose is None and step.choices.get("Y", "").startswith("hide")]
    (n1, h1) = hides[0]
    n2, h2 = next((n, h) for n, h in hides if h.slot != h1.slot)
    twin = list(script)
    twin[n1] = Step({"Y": format_action(Hide("Y", h2.token, h1.slot))})
    twin[n2] = Step({"Y": format_action(Hide("Y", h1.token, h2.slot))})
    cut = next(n for n, slot in reveal_steps(seed, options, script) if slot in (_index(h1.slot), _index(h2.slot)))
    kinds = replay(seed, options, twin[:cut + 1])  # the same public actions are legal in the twin up to the cut
    assert "room_revealed" in kinds[cut] and n2 < cut
    return script[:cut + 1], twin[:cut + 1], cut


@pytest.mark.parametrize("variant", sorted(SETS))
async def test_hidden_tokens_swapped_send_the_same_bytes_in_prison_paladins_and_a_mutual_mix(mock_clock, variant):
    """BG-SETUP-05, BG-REVEAL-01/05 in Prison, Paladins & Dragons and a mix of the base set and Prison whose teams
    are picked in turn (PD-TEAM-02): Yellow's two hidden tokens the other way round send Blue, a spectator and a
    spectator with view deltas the same bytes (timers and the team choice's commit-reveal included) until one of
    their rooms is revealed, and different bytes then."""
    script, twin, cut = swapped_hides(variant, SWAP_SEED)
    compared = await compare_twins((SWAP_SEED, SWAP_SEED), (script, twin), cut, SETS[variant])
    assert compared["B"] > cut and compared["spectator"] > cut
    assert {"timer", "table_event"} <= compared["spectator types"]
