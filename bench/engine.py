"""Engine speed: random self-play actions per second and `legal_actions` time per main-phase position, next to
python-chess random self-play (a plain `is_game_over()` per move) in the same run (pip install -e '.[bench]').

    python bench/engine.py [--games N] [--chess-games N] [--seed S] [--quick]

Each variant (the base set's standard and beginner games, Prison's full game, the Card Game's tutorial 3 and its
standard scenario) prints its own line, so a set's figures stand beside the base set's. A card game between random
players may wander for thousands of actions: those stop at CARD_CAP actions (the figures are per action).

Times are CPU seconds of this process (time.process_time), so other load on a shared machine distorts them less
than wall time. The ratio is Dungeon Twister actions/s (standard game) / python-chess moves/s, the two played
interleaved (`side_by_side`: slices of each in turn, so a burst of other load meets both): issue 7's bar is
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
    play = _DungeonTwister(n, seed, options)
    started = clock()
    while play.step(1 << 30):
        pass
    return clock() - started, play.actions, play.gen_times, play.counts, play.applying


class _DungeonTwister:
    """Random self-play of n games, `step(k)` playing k more actions at most (False once every game is over);
    the timings as `dungeon_twister_games` returns them."""

    def __init__(self, n: int, seed: int, options: Options):
        self.family = family_for(options)
        self.cap = CARD_CAP if self.family.name == "cards" else None
        self.options, self.seed, self.games = options, seed, iter(range(n))
        self.actions, self.gen_times, self.counts, self.applying = 0, [], [], 0.0
        self.state = None

    def step(self, k: int) -> bool:
        family, gen_times, counts = self.family, self.gen_times, self.counts
        for _ in range(k):
            if self.state is None or self.state.outcome is not None or self.played == self.cap:
                game = next(self.games, None)
                if game is None:
                    return False
                self.state = family.new_game(self.options, self.seed + game)
                self.rng = Rng(self.seed + game + 1)
                self.played = 0
            state = self.state
            t0 = clock()
            legal = family.legal_actions(state)
            t1 = clock()
            if state.phase == "main":
                gen_times.append(t1 - t0)
                counts.append(len(legal))
            action = self.rng.choice(legal)
            t2 = clock()
            self.state, _ = family.apply(state, action)
            self.applying += clock() - t2
            self.actions += 1
            self.played += 1
        return True


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


def side_by_side(games: int, chess_games: int, seed: int, options: Options = VARIANTS["standard"]):
    """Random self-play of `games` Dungeon Twister games and of python-chess, interleaved: a slice of one, then
    of the other until its CPU time catches up, so that both meet the same load of a shared machine (measured one
    after the other, a burst of other work during one of them moved the ratio by a third). Chess plays on until the
    Dungeon Twister games are over and at least `chess_games` chess games were played (its last one may be cut
    short: moves/s counts the moves played).

    Returns ((seconds, actions, legal_actions seconds per main-phase position, action counts there, apply
    seconds), (chess seconds, chess moves, chess games finished)); raises ImportError without python-chess."""
    import chess

    play, rng = _DungeonTwister(games, seed, options), random.Random(seed)
    dt_seconds = chess_seconds = 0.0
    moves = finished = 0
    board = chess.Board()
    playing = True
    while playing or finished < chess_games:
        if playing:
            t0 = clock()
            playing = play.step(200)
            dt_seconds += clock() - t0
        while chess_seconds < dt_seconds or (not playing and finished < chess_games):
            t0 = clock()
            for _ in range(200):
                if board.is_game_over():
                    board = chess.Board()
                    finished += 1
                    if not playing and finished >= chess_games:
                        break
                board.push(rng.choice(list(board.legal_moves)))
                moves += 1
            chess_seconds += clock() - t0
            if not playing and finished >= chess_games:
                break
    return (dt_seconds, play.actions, play.gen_times, play.counts, play.applying), (chess_seconds, moves, finished)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--chess-games", type=int, default=50)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--quick", action="store_true", help="1 game of each kind and 10 chess games (under a minute)")
    args = parser.parse_args()
    if args.quick:
        args.games, args.chess_games = 1, 10
    chess_line = None
    for label, options in VARIANTS.items():
        if label == "standard":
            try:
                (seconds, actions, gen, counts, applying), (chess_seconds, moves, finished) = side_by_side(
                    args.games, args.chess_games, args.seed, options)
            except ImportError:
                chess_line = "python-chess not installed: pip install -e '.[bench]' for the comparison"
                seconds, actions, gen, counts, applying = dungeon_twister_games(args.games, args.seed, options)
            else:
                chess_rate = moves / chess_seconds
                chess_line = (f"python-chess random self-play, interleaved with the standard games: {chess_rate:.0f} "
                              f"moves/s ({moves} moves, {finished} games finished)\n"
                              f"ratio (standard actions/s / chess moves/s): "
                              f"{actions / seconds / chess_rate:.3f}x (bar >= 0.3x)")
        else:
            seconds, actions, gen, counts, applying = dungeon_twister_games(args.games, args.seed, options)
        gen_ms = sorted(t * 1000 for t in gen)
        rate = actions / seconds
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
    print(chess_line)

if __name__ == "__main__":
    main()
