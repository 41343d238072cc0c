"""Engine speed: random self-play actions per second and `legal_actions` time per main-phase position, next to
python-chess random self-play (a plain `is_game_over()` per move) in the same run (pip install -e '.[bench]').

    python bench/engine.py [--games N] [--chess-games N] [--seed S] [--quick]

Each variant (the base set's standard and beginner games, Prison's full game, the Card Game's tutorial 3 and its
standard scenario) prints its own line, so a set's figures stand beside the base set's. A card game between random
players may wander for thousands of actions: those stop at CARD_CAP actions (the figures are per action).

Times are CPU seconds of this process (time.process_time), so other load on a shared machine distorts them less
than wall time. The ratio is Dungeon Twister actions/s (standard game) / python-chess moves/s: issue 7's bar is
>= 0.3; its bar for `legal_actions` per main-phase position is median <= 0.2 ms, mean <= 0.35 ms.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from dungeon_twister.engine import Options, apply, format_action, legal_actions, legal_texts, new_game
from dungeon_twister.engine.cards import CardOptions
from dungeon_twister.engine.core.rng import Rng
from dungeon_twister.engine.families import family_for

clock = time.process_time


VARIANTS = {  # what the bench plays: the base set's standard and beginner games, Prison's full game, card games
    "standard": Options(),
    "beginner": Options(beginner=True),
    "prison": Options(set_name="prison"),
    "cards tutorial 3": CardOptions(3),
    "cards standard": CardOptions(None, "standard", "mutual"),
}
CARD_CAP = 1500
"""Actions after which a random card game stops (random players rarely finish one)."""


def dungeon_twister_games(n: int, seed: int, options: Options) -> tuple[float, int, list[float], list[int], float]:
    """(seconds, actions, legal_actions seconds per main-phase position, action counts there, apply seconds) for n
    random games.

    `seconds` covers the whole game loop (generation and apply); the per-position times cover only the call, the
    apply seconds only the apply calls.
    """
    family = family_for(options)
    cap = CARD_CAP if family.name == "cards" else None
    actions, gen_times, counts, applying = 0, [], [], 0.0
    started = clock()
    for game in range(n):
        state = family.new_game(options, seed + game)
        rng = Rng(seed + game + 1)
        played = 0
        while state.outcome is None and played != cap:
            t0 = clock()
            legal = family.legal_actions(state)
            t1 = clock()
            if state.phase == "main":
                gen_times.append(t1 - t0)
                counts.append(len(legal))
            action = rng.choice(legal)
            t2 = clock()
            state, _ = family.apply(state, action)
            applying += clock() - t2
            actions += 1
            played += 1
    return clock() - started, actions, gen_times, counts, applying


def texts_per_position(seed: int, cached: bool) -> list[float]:
    """CPU seconds per main-phase position of one standard game to get the canonical texts of the legal actions,
    as the server does each step before the action is chosen: `legal_texts(state)` (texts kept with the memo) if
    `cached`, else `[format_action(a) for a in legal_actions(state)]`."""
    state, rng, times = new_game(Options(), seed), Rng(seed + 1), []
    while state.outcome is None:
        t0 = clock()
        texts = legal_texts(state) if cached else [format_action(a) for a in legal_actions(state)]
        t1 = clock()
        if state.phase == "main":
            times.append(t1 - t0)
        legal = legal_actions(state)
        assert len(texts) == len(legal)
        state, _ = apply(state, rng.choice(legal))
    return times


def chess_games(n: int, seed: int) -> tuple[float, int]:
    import chess

    rng = random.Random(seed)
    moves = 0
    started = clock()
    for _ in range(n):
        board = chess.Board()
        while not board.is_game_over():
            board.push(rng.choice(list(board.legal_moves)))
            moves += 1
    return clock() - started, moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--chess-games", type=int, default=50)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--quick", action="store_true", help="1 game of each kind and 10 chess games (under a minute)")
    args = parser.parse_args()
    if args.quick:
        args.games, args.chess_games = 1, 10
    standard_rate = None
    for label, options in VARIANTS.items():
        seconds, actions, gen, counts, applying = dungeon_twister_games(args.games, args.seed, options)
        gen_ms = sorted(t * 1000 for t in gen)
        rate = actions / seconds
        if label == "standard":
            standard_rate = rate
        print(f"dungeon twister ({label}): {args.games / seconds:.3f} games/s, {rate:.0f} actions/s, "
              f"{actions / args.games:.0f} actions/game; legal_actions per main-phase position "
              f"({len(gen_ms)} positions, mean {statistics.fmean(counts):.0f} actions): "
              f"median {statistics.median(gen_ms):.3f} ms, mean {statistics.fmean(gen_ms):.3f} ms, "
              f"p99 {gen_ms[int(len(gen_ms) * 0.99)]:.3f} ms; apply {applying / actions * 1e6:.0f} us per action")
    for cached in (False, True):
        ms = sorted(t * 1000 for t in texts_per_position(args.seed, cached))
        what = "legal_texts(state)" if cached else "[format_action(a) for a in legal_actions(state)]"
        print(f"{what} per main-phase position (standard game {args.seed}, {len(ms)} positions): "
              f"median {statistics.median(ms):.3f} ms, mean {statistics.fmean(ms):.3f} ms")
    try:
        seconds, moves = chess_games(args.chess_games, args.seed)
    except ImportError:
        print("python-chess not installed: pip install -e '.[bench]' for the comparison")
        return
    chess_rate = moves / seconds
    print(f"python-chess random self-play: {args.chess_games / seconds:.1f} games/s, {chess_rate:.0f} moves/s, "
          f"{moves / args.chess_games:.0f} moves/game")
    print(f"ratio (standard actions/s / chess moves/s): {standard_rate / chess_rate:.3f}x (bar >= 0.3x)")


if __name__ == "__main__":
    main()
