"""Engine speed: random self-play games per second and legal-action generation time per position, next to
python-chess random self-play in the same run (pip install -e '.[bench]').

    python bench/engine.py [--games N] [--seed S]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from dungeon_twister.engine import Options, apply, legal_actions, new_game
from dungeon_twister.engine.rng import Rng


def dungeon_twister_games(n: int, seed: int, beginner: bool) -> tuple[float, int, list[float]]:
    """(seconds, actions, per-position legal-generation times) for n random games to the end."""
    actions, gen_times = 0, []
    started = time.perf_counter()
    for game in range(n):
        state = new_game(Options(beginner=beginner), seed + game)
        rng = Rng(seed + game + 1)
        while state.outcome is None:
            t0 = time.perf_counter()
            legal = legal_actions(state)
            gen_times.append(time.perf_counter() - t0)
            state, _ = apply(state, rng.choice(legal))
            actions += 1
    return time.perf_counter() - started, actions, gen_times


def chess_games(n: int, seed: int) -> tuple[float, int]:
    import chess

    rng = random.Random(seed)
    moves = 0
    started = time.perf_counter()
    for _ in range(n):
        board = chess.Board()
        while not board.is_game_over(claim_draw=True):
            board.push(rng.choice(list(board.legal_moves)))
            moves += 1
    return time.perf_counter() - started, moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--chess-games", type=int, default=50)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    for beginner in (False, True):
        seconds, actions, gen = dungeon_twister_games(args.games, args.seed, beginner)
        label = "beginner" if beginner else "standard"
        gen_ms = sorted(t * 1000 for t in gen)
        print(f"dungeon twister ({label}): {args.games / seconds:.3f} games/s, {actions / seconds:.0f} actions/s, "
              f"{actions / args.games:.0f} actions/game; legal_actions per position: "
              f"mean {statistics.fmean(gen_ms):.2f} ms, median {gen_ms[len(gen_ms) // 2]:.2f} ms, "
              f"p99 {gen_ms[int(len(gen_ms) * 0.99)]:.2f} ms")
    try:
        seconds, moves = chess_games(args.chess_games, args.seed)
        print(f"python-chess random self-play: {args.chess_games / seconds:.1f} games/s, {moves / seconds:.0f} moves/s, "
              f"{moves / args.chess_games:.0f} moves/game")
    except ImportError:
        print("python-chess not installed: pip install -e '.[bench]' for the comparison")


if __name__ == "__main__":
    main()
