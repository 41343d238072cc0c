"""Strength and cost of the board-game bots: seeded bot-vs-bot matches, straight on the engine.

    python bench/bot_strength.py [--bot planner] [--against greedy] [--games 200] [--sets base_set,prison,...]
                                 [--max-actions 1500] [--first-seed 1]

For each set (a rule family's game: the base set, Prison, Paladins & Dragons, their mixes), `--games` games from
consecutive seeds, `--bot` as Blue in the even-numbered ones and as Yellow in the odd ones. Each bot decides from
its seat's view and legal texts only (as on a server), with its own seeded Rng. Prints, per set: the bot's win
rate (a draw counts half), the share of games that end by a victory rather than by the action limit or a draw,
the share that reached the action limit (the seeds of those games listed under the table: both sides walled off,
most often), the mean length in actions, each bot's mean and p99 milliseconds per decision (the time of `choose`
alone), and each bot's back-and-forth a game (`Habits`: moves back to a square left earlier in the turn, objects
taken back).
Against itself (`--bot greedy --against greedy`) a bot's columns count both seats, per seat-game.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from dungeon_twister.engine import Options, apply, legal_actions, new_game, view  # noqa: E402
from dungeon_twister.engine.core.choice import is_lazy  # noqa: E402
from dungeon_twister.engine.core.rng import Rng  # noqa: E402
from dungeon_twister.engine.boardgame.notation import format_action, parse_action  # noqa: E402
from dungeon_twister.engine.tools.bots import BOTS  # noqa: E402


class Habits:
    """A bot's pointless back-and-forth, counted from its own moves: a figure ending a move on a square it left
    earlier in the same turn ("returns"), and an object taken back by the figure that carried it before, within
    its side's last two turns, after that figure left it or a friend took it ("retaken")."""

    def __init__(self) -> None:
        self.returns = self.retaken = 0
        self.turn = None
        self.visited: dict[str, set[str]] = {}
        self.carrier: dict[str, tuple[str, int]] = {}  # object -> (figure that last took it, turn)
        self.lost: dict[str, tuple[str, int]] = {}  # object -> (figure that carried it before, turn it went)

    def see(self, seen: dict, text: str) -> None:
        words = text.split()
        if seen["phase"] != "main" or words[0] not in ("move", "wallwalk", "jump"):
            return
        turn = seen["turn"]
        if turn != self.turn:
            self.turn, self.visited = turn, {}
        squares = {t["id"]: t["square"] for t in seen["tokens"] if t["id"]}
        mover = words[1]
        if mover not in squares:
            return
        self.visited.setdefault(mover, set()).add(squares[mover])
        dest = words[-1] if words[0] == "jump" else words[2].split("-")[-1]
        if dest in self.visited[mover] and dest != squares[mover]:
            self.returns += 1
        self.visited[mover].add(dest)
        for w in words[2:]:
            if w.startswith("+"):
                item = w[1:]
                before = self.carrier.get(item)
                gone = self.lost.get(item)
                if gone and gone[0] == mover and turn - gone[1] <= 2:
                    self.retaken += 1
                if before and before[0] != mover:
                    self.lost[item] = (before[0], turn)
                self.carrier[item] = (mover, turn)
            elif "@" in w:
                item = w.split("@")[0]
                self.lost[item] = (mover, turn)
                self.carrier.pop(item, None)


def play(seed: int, options: Options, names: dict[str, str], max_actions: int, times: dict[str, list[float]],
         habits: dict[str, Habits] | None = None):
    state = new_game(options, seed)
    watch = {seat: Habits() for seat in names}
    players = {seat: BOTS[name]() for seat, name in names.items()}
    rngs = {"B": Rng(seed * 2 + 1), "Y": Rng(seed * 2 + 2)}
    count = 0
    while state.outcome is None and count < max_actions:
        seat = state.to_act[0]
        legal = legal_actions(state, seat)
        texts = [] if is_lazy(legal) else [format_action(a) for a in legal]
        seen = view(state, seat)
        start = time.perf_counter()
        text = players[seat].choose(seen, texts, rngs[seat])
        times[names[seat]].append(time.perf_counter() - start)
        watch[seat].see(seen, text)
        state, _ = apply(state, parse_action(text, seat))
        count += 1
    if habits is not None:
        for seat, name in names.items():
            habits[name].returns += watch[seat].returns
            habits[name].retaken += watch[seat].retaken
    return state, count


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] if ordered else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bot", default="planner")
    parser.add_argument("--against", default="greedy")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--sets", default="base_set,prison,paladins,all_sets")
    parser.add_argument("--max-actions", type=int, default=1500)
    parser.add_argument("--first-seed", type=int, default=1)
    args = parser.parse_args()
    print(f"{args.bot} against {args.against}: {args.games} games a set, seats swapped every other game, "
          f"limit {args.max_actions} actions")
    print(f"{'':<10} {'':>6} {'':>8} {'':>6} {'':>7} | {'ms a decision, mean p99':^27} | "
          f"{'back-and-forth a game':^27}")
    print(f"{'set':<10} {'win':>6} {'victory':>8} {'limit':>6} {'length':>7} | {args.bot:>13} {args.against:>13} | "
          f"{args.bot:>13} {args.against:>13}")
    capped_seeds: dict[str, list[int]] = {}
    for set_name in args.sets.split(","):
        times: dict[str, list[float]] = {args.bot: [], args.against: []}
        habits = {args.bot: Habits(), args.against: Habits()}
        score = victories = length = 0.0
        for n in range(args.games):
            seed = args.first_seed + n
            mine = "B" if n % 2 == 0 else "Y"
            names = {mine: args.bot, "Y" if mine == "B" else "B": args.against}
            if args.bot == args.against:
                names = {"B": args.bot, "Y": args.bot}
            state, count = play(seed, Options(set_name=set_name), names, args.max_actions, times, habits)
            outcome = state.outcome
            length += count
            if outcome is None and count >= args.max_actions:
                capped_seeds.setdefault(set_name, []).append(seed)
            if outcome is not None and outcome.winner is not None:
                victories += 1
                score += outcome.winner == mine
            else:
                score += 0.5
        mean = {name: 1000 * sum(t) / len(t) if t else 0.0 for name, t in times.items()}
        high = {name: 1000 * p99(t) for name, t in times.items()}
        games = args.games * (2 if args.bot == args.against else 1)  # a bot against itself: both seats counted
        ways = {name: f"{h.returns / games:>6.1f} {h.retaken / games:>6.1f}" for name, h in habits.items()}
        capped = len(capped_seeds.get(set_name, ()))
        print(f"{set_name:<10} {score / args.games:>6.1%} {victories / args.games:>8.1%} {capped / args.games:>6.1%} "
              f"{length / args.games:>7.0f} | "
              f"{mean[args.bot]:>6.2f} {high[args.bot]:>6.2f} {mean[args.against]:>6.2f} {high[args.against]:>6.2f} | "
              f"{ways[args.bot]} {ways[args.against]}", flush=True)
    for set_name, seeds in capped_seeds.items():
        print(f"{set_name}: at the limit, seeds {' '.join(map(str, seeds))}")


if __name__ == "__main__":
    main()
