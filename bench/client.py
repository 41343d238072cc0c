"""Client speed: `dt-client --help` cold start, the time of one board render (client/board.py render_board) and of
a whole-screen redraw (`screen_redraw_time`).

    python bench/client.py [--runs N] [--renders N] [--seed S]

Issue 7's bars: cold start <= 0.15 s, one board render <= 1 ms.

- Cold start: wall time of the installed `dt-client --help` (the script next to this interpreter) in a new process,
  median of `runs`. Wall time, because the start-up of a process is what a user waits for.
- Render: CPU time (time.process_time) of render_board on the view of Blue in a mid-game position of a seeded
  random standard game (main phase, rooms revealed, tokens on the board). Renders are timed in batches of
  BATCH; the figure is the median over batches of the time per render. The first (uncached) figure clears the
  board cache before each render (not timed), so it is the render right after a layout change.
  The "along a game" figure renders every view a client would show in one whole game (each step, Blue's view),
  layout changes included, and gives the mean per render.
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

from dungeon_twister.engine import Options, apply, legal_actions, new_game, view
from dungeon_twister.engine.core.rng import Rng

clock = time.process_time
BATCH = 20
HELP_BAR = 0.15
RENDER_BAR = 0.001


def help_cold_start(runs: int = 5) -> float:
    """Median wall seconds of `dt-client --help` (the installed script of this interpreter's environment)."""
    script = Path(sys.executable).parent / "dt-client"
    command = [str(script)] if script.exists() else [sys.executable, "-m", "dungeon_twister.client"]
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run([*command, "--help"], check=True, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def game_states(seed: int = 1, beginner: bool = False) -> Iterator:
    """The positions of a seeded random game, from the first to the last."""
    state = new_game(Options(beginner=beginner), seed)
    rng = Rng(seed + 1)
    yield state
    while state.outcome is None:
        state, _ = apply(state, rng.choice(legal_actions(state)))
        yield state


def mid_game_view(seed: int = 1) -> dict:
    """Blue's view of a mid-game position of a seeded random standard game: the first main-phase position with
    half of the rooms revealed (face-down rooms with their hidden tokens, revealed rooms, tokens on the board)."""
    state = new_game(Options(), seed)
    rng = Rng(seed + 1)
    while not (state.phase == "main" and 2 * sum(p.revealed for p in state.rooms) >= len(state.rooms)):
        state, _ = apply(state, rng.choice(legal_actions(state)))
    return view(state, "B")


def _clear_cache() -> None:
    from dungeon_twister.client import board

    clear = getattr(board, "clear_cache", None)  # absent before the board had a cache: every render was uncached
    if clear is not None:
        clear()


def render_time(renders: int = 2000, seed: int = 1, cached: bool = True) -> float:
    """Median CPU seconds per render_board call on a mid-game view (batches of BATCH renders).

    cached=False clears the board cache before every render (not timed): the first render of a layout."""
    from dungeon_twister.client.board import render_board

    v = mid_game_view(seed)
    render_board(v)  # imports and the catalogue are loaded once, as in a running client
    per_render = []
    for _ in range(max(1, renders // BATCH)):
        spent = 0.0
        for _ in range(BATCH):
            if not cached:
                _clear_cache()
            started = clock()
            render_board(v)
            spent += clock() - started
        per_render.append(spent / BATCH)
    return statistics.median(per_render)


def render_along_game(seed: int = 1, limit: int | None = None) -> tuple[float, int]:
    """(mean CPU seconds per render, renders) over every view of Blue in one seeded random standard game, or its
    first `limit` positions (playing the game, not rendering it, is what takes the time: ~12,000 positions)."""
    from dungeon_twister.client.board import render_board

    _clear_cache()
    spent, count = 0.0, 0
    for state in itertools.islice(game_states(seed), limit):
        v = view(state, "B")
        started = clock()
        render_board(v)
        spent += clock() - started
        count += 1
    return spent / count, count


def screen_redraw_time(rows: int, columns: int, renders: int = 40, seed: int = 1) -> float:
    """Median CPU seconds of one whole-screen redraw of a seated player's table screen (board, panel, event log,
    chat, prompt) on a `rows` x `columns` terminal: the mid-game position as the server sends it to Blue, a timed
    table, 40 log lines and 12 chat lines. What the client does at every key typed and every second a timer shows."""
    import asyncio
    import io

    from prompt_toolkit.data_structures import Size
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output.vt100 import Vt100_Output

    from dungeon_twister.client.session import Session
    from dungeon_twister.client.state import ClientState
    from dungeon_twister.client.ui import ClientUI
    from dungeon_twister.engine import parse_position, format_position
    from dungeon_twister.server.viewing import ViewPoint, table_view

    state = new_game(Options(), seed)
    rng = Rng(seed + 1)
    while not (state.phase == "main" and 2 * sum(p.revealed for p in state.rooms) >= len(state.rooms)):
        state, _ = apply(state, rng.choice(legal_actions(state)))
    point = ViewPoint(parse_position(format_position(state)), {"B": "ann", "Y": "bob"},
                      {"id": "t-1", "timers": True, "target_vp": 5}, True)
    client = ClientState("ann", table="t-1", seat="B")
    client.view = table_view(point, "B")
    client.log.extend(f"event number {n}: bWA moves c4 > c5 > c6" for n in range(40))
    client.chat.extend(f"bob: line {n}" for n in range(12))
    client.timers["B"] = time.monotonic() + 100.0
    times: list[float] = []
    with create_pipe_input() as pipe:
        ui = ClientUI(Session(client), input=pipe, output=Vt100_Output(io.StringIO(), lambda: Size(rows, columns)))

        async def measure() -> None:
            running = asyncio.ensure_future(ui.app.run_async())
            await asyncio.sleep(0.1)  # the first drawing, and the UI's start-up
            for _ in range(renders):
                started = clock()
                ui.app.renderer.render(ui.app, ui.app.layout)
                times.append(clock() - started)
            ui.app.exit()
            await running

        asyncio.run(measure())
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="cold starts (median)")
    parser.add_argument("--renders", type=int, default=2000, help="renders of the mid-game view")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    help_s = help_cold_start(args.runs)
    print(f"dt-client --help cold start: median {help_s:.3f} s of {args.runs} runs, wall (bar <= {HELP_BAR} s)")
    render_s = render_time(args.renders, args.seed)
    print(f"board render, mid-game view: median {render_s * 1000:.3f} ms per render over {args.renders} renders, "
          f"CPU (bar <= {RENDER_BAR * 1000:.0f} ms)")
    first_s = render_time(max(BATCH, args.renders // 4), args.seed, cached=False)
    print(f"board render, first render of a layout (cache cleared): median {first_s * 1000:.3f} ms per render, CPU")
    for rows, columns in ((24, 80), (55, 200)):
        redraw_s = screen_redraw_time(rows, columns, seed=args.seed)
        print(f"whole-screen redraw of a table, {columns} x {rows}: median {redraw_s * 1000:.2f} ms, CPU")
    along_s, count = render_along_game(args.seed)
    print(f"board render along a whole game (every step's view, layout changes included): mean "
          f"{along_s * 1000:.3f} ms per render over {count} renders, CPU")


if __name__ == "__main__":
    main()
