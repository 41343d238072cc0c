"""The card game's bots against each other: strength and cost per decision.

    python bench/card_bots.py [--games N] [--cap N] [--only tutorial1,standard-mutual,...] [--new greedy]
                              [--old simple]

Seeded matches straight on the engine (no server): for each game the client offers (`dt-client play --game cards`:
tutorials 1-3, the standard scenario with mutual, full frontal and draft teams) N games of the new bot (default
`greedy`, card_bots.GreedyBot) against the old (`simple`, card_bots.SimpleBot: the greedy bot of before
2026-11-30), the new one Blue in the even games and Yellow in the odd ones, game g on seed g. Each bot draws from
its own Rng (seed and seat), as the server's bots do. A game stops after --cap actions (a "limit").

Prints per game kind: the new bot's wins, the old bot's, draws, limits; the share of games ended by a victory; the
mean length in actions; and each bot's milliseconds per decision (mean, p99, max), the engine's time excluded (the
view and the legal list are made before the clock starts).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from dungeon_twister.engine.cards import CardOptions, apply, new_game, parse_action  # noqa: E402
from dungeon_twister.engine.cards.typed import legal_texts  # noqa: E402
from dungeon_twister.engine.core.rng import Rng  # noqa: E402
from dungeon_twister.engine.families import CARDS  # noqa: E402
from dungeon_twister.engine.tools import card_bots  # noqa: E402

KINDS = {
    "tutorial1": CardOptions(1), "tutorial2": CardOptions(2), "tutorial3": CardOptions(3),
    "standard-mutual": CardOptions(None, "standard", "mutual"),
    "standard-full": CardOptions(None, "standard", "full"),
    "standard-draft": CardOptions(None, "standard", "draft"),
}
CLASSES = {"random": card_bots.RandomBot, "simple": card_bots.SimpleBot, "greedy": card_bots.GreedyBot}


def play(options: CardOptions, seed: int, new_seat: str, new: str, old: str, cap: int, timings: dict):
    state = new_game(options, seed)
    bots = {new_seat: (new, CLASSES[new]()), ("Y" if new_seat == "B" else "B"): (old, CLASSES[old]())}
    rngs = {s: Rng(seed * 7919 + (1 if s == "B" else 2)) for s in "BY"}
    count = 0
    while state.outcome is None and count < cap:
        seat = state.to_act[0]
        name, bot = bots[seat]
        v = CARDS.view(state, seat)
        legal = [] if v.get("secret") == "build" and "build" in v else legal_texts(state, seat)
        started = time.perf_counter()
        text = bot.choose(v, legal, rngs[seat])
        timings[name].append((time.perf_counter() - started) * 1000)
        state = apply(state, parse_action(text, seat))[0]
        count += 1
    o = state.outcome
    if o is None:
        return "limit", count
    if o.winner is None:
        return "draw", count
    return ("new" if o.winner == new_seat else "old"), count


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=40, help="games of each kind (default 40)")
    parser.add_argument("--cap", type=int, default=1500, help="actions before a game counts as a limit")
    parser.add_argument("--only", default=",".join(KINDS), help="kinds, comma-separated")
    parser.add_argument("--new", default="greedy", choices=sorted(CLASSES))
    parser.add_argument("--old", default="simple", choices=sorted(CLASSES))
    args = parser.parse_args(argv)
    timings = {args.new: [], args.old: []}
    total = {"new": 0, "old": 0, "draw": 0, "limit": 0}
    print(f"{args.new} (new) against {args.old} (old), {args.games} games a kind, seats swapped, cap {args.cap}")
    print(f"{'kind':16} {'new':>4} {'old':>4} {'draw':>4} {'limit':>5} {'new%':>5} {'victory%':>8} {'mean len':>8}")
    for kind in args.only.split(","):
        tally = {"new": 0, "old": 0, "draw": 0, "limit": 0}
        lengths, capped = [], []
        for g in range(args.games):
            result, count = play(KINDS[kind], g, "B" if g % 2 == 0 else "Y", args.new, args.old, args.cap, timings)
            tally[result] += 1
            total[result] += 1
            if result == "limit":
                capped.append(g)
            lengths.append(count)
        decided = tally["new"] + tally["old"]
        print(f"{kind:16} {tally['new']:4} {tally['old']:4} {tally['draw']:4} {tally['limit']:5} "
              f"{100 * tally['new'] / args.games:5.1f} {100 * decided / args.games:8.1f} "
              f"{statistics.mean(lengths):8.1f}" + (f"  (limits: games {capped})" if capped else ""), flush=True)
    games = sum(total.values())
    print(f"{'all':16} {total['new']:4} {total['old']:4} {total['draw']:4} {total['limit']:5} "
          f"{100 * total['new'] / games:5.1f} {100 * (total['new'] + total['old']) / games:8.1f}")
    for name, ms in timings.items():
        ms = sorted(ms)
        p99 = ms[min(len(ms) - 1, int(0.99 * len(ms)))]
        print(f"{name:8} ms/decision: mean {statistics.mean(ms):.2f}, p99 {p99:.2f}, max {ms[-1]:.1f} "
              f"({len(ms)} decisions)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
