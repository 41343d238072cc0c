"""Strength and cost of the board-game bots: seeded bot-vs-bot matches, straight on the engine.

    python bench/bot_strength.py [--bot planner] [--against greedy] [--games 200] [--sets base_set,prison,...]
                                 [--max-actions 1500] [--first-seed 1] [--paired] [--against-rev REV]

For each set (a rule family's game: the base set, Prison, Paladins & Dragons, their mixes), `--games` games from
consecutive seeds, `--bot` as Blue in the even-numbered ones and as Yellow in the odd ones. Each bot decides from
its seat's view and legal texts only (as on a server), with its own seeded Rng. Prints, per set: the bot's win
rate (a draw counts half), the share of games that end by a victory rather than by the action limit or a draw,
the share that reached the action limit (the seeds of those games listed under the table: both sides walled off,
most often), the mean length in actions, each bot's mean and p99 milliseconds per decision (the time of `choose`
alone), and each bot's back-and-forth a game (`Habits`: moves back to a square left earlier in the turn, objects
taken back).
Against itself (`--bot greedy --against greedy`) a bot's columns count both seats, per seat-game.

`--paired` plays each seed twice, `--bot` as Blue then as Yellow, so that which seat a seed favours counts for both
bots alike (the bots are deterministic enough that the seat and the seed decide many games: bot32 found the same
planner winning 3 of 16 against itself from one bot's seats). `--games` is then the number of seeds (2 games each),
and the win column is followed by its standard error over the seeds' pairs and a line per set saying how the pairs
went: won both, split (each bot won one: the seat decided), lost both, and Blue's score over all games.
`--against-rev REV` makes `--against` the bot of that name in engine/tools/bots.py as of git revision REV (main's
previous planner, say), loaded beside today's: its columns are named `name@REV`.
"""

from __future__ import annotations

import argparse
import importlib.util
import math
import subprocess
import sys
import tempfile
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


def bots_at(rev: str) -> dict:
    """engine/tools/bots.py's BOTS as of git revision `rev`, imported as a module of today's package (its relative
    imports read today's engine)."""
    text = subprocess.run(["git", "-C", str(ROOT), "show", f"{rev}:engine/tools/bots.py"], check=True,
                          capture_output=True, text=True).stdout
    path = Path(tempfile.mkdtemp(prefix="bots-")) / "bots.py"
    path.write_text(text)
    name = f"dungeon_twister.engine.tools._bots_{rev.replace('-', '_').replace('^', '_').replace('~', '_')}"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module.BOTS


def play(seed: int, options: Options, names: dict[str, str], max_actions: int, times: dict[str, list[float]],
         habits: dict[str, Habits] | None = None, kinds: dict | None = None):
    """One game, `names` the seats' bots; `kinds`: label -> bot class, for a label not in BOTS (`--against-rev`)."""
    state = new_game(options, seed)
    watch = {seat: Habits() for seat in names}
    players = {seat: (kinds or BOTS)[name]() for seat, name in names.items()}
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
    parser.add_argument("--paired", action="store_true", help="each seed twice, the seats swapped")
    parser.add_argument("--against-rev", default=None, help="--against from engine/tools/bots.py at this revision")
    args = parser.parse_args()
    kinds = dict(BOTS)
    if args.against_rev:
        old = bots_at(args.against_rev)
        args.against = f"{args.against}@{args.against_rev}"
        kinds[args.against] = old[args.against.split("@")[0]]
    same = args.bot == args.against
    if args.paired:
        print(f"{args.bot} against {args.against}: {args.games} seeds a set, each played twice with the seats "
              f"swapped, limit {args.max_actions} actions")
    else:
        print(f"{args.bot} against {args.against}: {args.games} games a set, seats swapped every other game, "
              f"limit {args.max_actions} actions")
    print(f"{'':<10} {'':>6} {'':>8} {'':>6} {'':>7} | {'ms a decision, mean p99':^27} | "
          f"{'back-and-forth a game':^27}")
    print(f"{'set':<10} {'win':>6} {'victory':>8} {'limit':>6} {'length':>7} | {args.bot:>13} {args.against:>13} | "
          f"{args.bot:>13} {args.against:>13}")
    capped_seeds: dict[str, list[int]] = {}
    pairs_said: list[str] = []
    for set_name in args.sets.split(","):
        times: dict[str, list[float]] = {args.bot: [], args.against: []}
        habits = {args.bot: Habits(), args.against: Habits()}
        score = victories = length = 0.0
        pairs: list[float] = []  # --paired: the bot's score over each seed's two games (0 to 2)
        blue = 0.0
        schedule = ([(args.first_seed + n, mine) for n in range(args.games) for mine in ("B", "Y")] if args.paired
                    else [(args.first_seed + n, "B" if n % 2 == 0 else "Y") for n in range(args.games)])
        for seed, mine in schedule:
            names = {mine: args.bot, "Y" if mine == "B" else "B": args.against}
            if same:
                names = {"B": args.bot, "Y": args.bot}
            state, count = play(seed, Options(set_name=set_name), names, args.max_actions, times, habits, kinds)
            outcome = state.outcome
            length += count
            if outcome is None and count >= args.max_actions:
                capped_seeds.setdefault(set_name, []).append(seed)
            if outcome is not None and outcome.winner is not None:
                victories += 1
                won = float(outcome.winner == mine)
                blue += outcome.winner == "B"
            else:
                won = 0.5
                blue += 0.5
            score += won
            if args.paired:
                if mine == "B":
                    pairs.append(won)
                else:
                    pairs[-1] += won
        played = len(schedule)
        mean = {name: 1000 * sum(t) / len(t) if t else 0.0 for name, t in times.items()}
        high = {name: 1000 * p99(t) for name, t in times.items()}
        games = played * (2 if same else 1)  # a bot against itself: both seats counted
        ways = {name: f"{h.returns / games:>6.1f} {h.retaken / games:>6.1f}" for name, h in habits.items()}
        capped = len(capped_seeds.get(set_name, ()))
        win = f"{score / played:>6.1%}"
        if args.paired:
            rates = [p / 2 for p in pairs]
            spread = (math.sqrt(sum((r - score / played) ** 2 for r in rates) / (len(rates) - 1) / len(rates))
                      if len(rates) > 1 else 0.0)
            win += f" ±{spread:.1%}"
            pairs_said.append(f"{set_name}: seeds {len(pairs)}, pairs won both {sum(p == 2 for p in pairs)}, "
                              f"split {sum(p == 1 for p in pairs)}, lost both {sum(p == 0 for p in pairs)}, "
                              f"with a draw {sum(p not in (0, 1, 2) for p in pairs)}; Blue scored {blue / played:.1%}")
        print(f"{set_name:<10} {win} {victories / played:>8.1%} {capped / played:>6.1%} "
              f"{length / played:>7.0f} | "
              f"{mean[args.bot]:>6.2f} {high[args.bot]:>6.2f} {mean[args.against]:>6.2f} {high[args.against]:>6.2f} | "
              f"{ways[args.bot]} {ways[args.against]}", flush=True)
    for line in pairs_said:
        print(line)
    for set_name, seeds in capped_seeds.items():
        print(f"{set_name}: at the limit, seeds {' '.join(map(str, seeds))}")


if __name__ == "__main__":
    main()
