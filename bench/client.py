"""Client speed: `dt-client --help` cold start and one board render (issue 7's bars: <= 0.15 s; <= 1 ms).

    python bench/client.py [--runs N] [--renders N] [--quick]

Cold start: wall time of a fresh `dt-client --help` process (the installed script next to this Python, else
`python -m dungeon_twister.client --help`), median of --runs runs; it includes starting the interpreter.
Render: CPU time (time.process_time) of one `client.board.render_board` call on a mid-game view of a standard game
(the seat's view after a msgpack round trip, as a client receives it), median over --renders calls cycling through
20 consecutive views after 2,000 main-phase positions (about the middle of a random game: 6 of 8 rooms turned), so
that a layout cached between calls counts as it would in a game.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time

COLD_START_BAR = 0.15
"""Seconds."""
RENDER_BAR = 0.001
"""Seconds."""


def help_command() -> list[str]:
    script = os.path.join(os.path.dirname(sys.executable), "dt-client")
    if os.path.exists(script):
        return [script, "--help"]
    return [sys.executable, "-m", "dungeon_twister.client", "--help"]


def cold_start_times(runs: int = 7) -> list[float]:
    """Wall seconds of each of `runs` fresh `dt-client --help` processes (RuntimeError if one fails)."""
    command = help_command()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        times.append(time.perf_counter() - start)
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(command)} failed: {done.stderr.decode(errors='replace')[-300:]}")
    return times


def mid_game_views(count: int = 20, seed: int = 3, seat: str = "B", after: int = 2000) -> list[dict]:
    """`count` consecutive views of `seat` after `after` main-phase positions of a random standard game (a random
    game has thousands; by then rooms are turned and figures spread), msgpack round-tripped."""
    import msgpack

    from dungeon_twister.engine import Options, apply, legal_actions, new_game, view
    from dungeon_twister.engine.rng import Rng

    state, rng = new_game(Options(), seed), Rng(seed + 1)
    states = []
    while state.outcome is None and len(states) < after + count:
        if state.phase == "main":
            states.append(state)
        state, _ = apply(state, rng.choice(legal_actions(state)))
    if len(states) < after + count:
        raise RuntimeError(f"the game of seed {seed} has only {len(states)} main-phase positions")
    return [msgpack.unpackb(msgpack.packb(view(s, seat), use_bin_type=True), raw=False) for s in states[after:]]


def render_times(renders: int = 500) -> list[float]:
    """CPU seconds of each of `renders` render_board calls on mid-game views."""
    from dungeon_twister.client.board import render_board

    views = mid_game_views()
    times = []
    for i in range(renders):
        v = views[i % len(views)]
        start = time.process_time()
        render_board(v)
        times.append(time.process_time() - start)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9, help="cold starts (default: %(default)s)")
    parser.add_argument("--renders", type=int, default=1000, help="board renders (default: %(default)s)")
    parser.add_argument("--quick", action="store_true", help="5 cold starts, 300 renders")
    args = parser.parse_args()
    if args.quick:
        args.runs, args.renders = 5, 300
    starts = cold_start_times(args.runs)
    print(f"`{' '.join(help_command())}` cold start (wall, {args.runs} runs): median "
          f"{statistics.median(starts):.3f} s, min {min(starts):.3f} s (bar <= {COLD_START_BAR:g} s)")
    renders = render_times(args.renders)
    print(f"render_board on a mid-game view (CPU, {args.renders} renders): median "
          f"{statistics.median(renders) * 1000:.3f} ms, mean {statistics.fmean(renders) * 1000:.3f} ms "
          f"(bar <= {RENDER_BAR * 1000:g} ms)")


if __name__ == "__main__":
    main()
