"""One-off check: client/board.py renders exactly what a reference version of it rendered, for many views.

    python bench/board_compare.py [--ref REV] [--games N] [--per-game N]

The reference is client/board.py as committed at REV (default a12669f, the board drawn square by square before
the layout cache), loaded from git as a module beside the current one. Views come from seeded random games
(standard and beginner; every phase; Blue's, Yellow's, a spectator's and the all-seeing "*" view) and from the
synthetic test rooms (portcullises open/closed/broken, rotated rooms). Each view is rendered by both and the
fragment lists compared (styles and texts). The current renderer is run over the views in game order (the cache
follows a game's layout changes), then again in a shuffled order, with viewers interleaved.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # tests.engine.builders

from dungeon_twister.client import board  # noqa: E402
from dungeon_twister.engine import Options, apply, legal_actions, new_game, view  # noqa: E402
from dungeon_twister.engine.core.rng import Rng  # noqa: E402

VIEWERS = ("B", "Y", None, "*")


def reference(rev: str):
    source = subprocess.run(["git", "-C", str(ROOT), "show", f"{rev}:client/board.py"], check=True,
                            capture_output=True, text=True).stdout
    spec = importlib.util.spec_from_loader("dungeon_twister.client._board_reference", loader=None)
    module = importlib.util.module_from_spec(spec)
    module.__package__ = "dungeon_twister.client"
    exec(compile(source, f"{rev}:client/board.py", "exec"), module.__dict__)
    return module


def game_positions(seed: int, beginner: bool, per_game: int) -> list:
    """About 3 x per_game positions of one game: ones right after a layout change (a room revealed or rotated, a
    portcullis opened or broken), ones of the other phases (team, hide, place, combat, over), spread over the game,
    every-so-many positions, and a run of per_game consecutive positions from the middle of the game (moves with
    the layout unchanged, and the changes between them)."""
    state = new_game(Options(beginner=beginner), seed)
    rng = Rng(seed + 1)
    states = [state]
    while state.outcome is None:
        state, _ = apply(state, rng.choice(legal_actions(state)))
        states.append(state)

    def spread(items: list, n: int) -> list:
        return items[::max(1, len(items) // n)][:n] if items else []

    changes = [s for before, s in zip(states, states[1:])
               if before.rooms != s.rooms or before.portcullis != s.portcullis]
    others = [s for s in states if s.phase not in ("main", "card")]
    middle = len(states) // 2
    return (spread(changes, per_game // 2) + spread(others, per_game // 2) + spread(states, per_game)
            + states[middle:middle + per_game] + [states[-1]])


def synthetic_positions() -> list:
    from tests.engine.builders import position

    out = []
    for ports in ("-", "W1=ob", "W1=bo W2=co", "W2=bb", "W1=oo W2=oc"):
        out.append(position("bWA@c4 bRP@c4 yTR@c6! yGB@d6 ySW@e6 bTH@c8 yCL@e2! yAR@e2 bMK@f4 bTR@f4!",
                            ports=ports))
    for turns in ("A3=W1/1 B3=W2/2", "A3=W1/3 B3=W2/1 A2=P1/2", "A1=O1/1 B4=Q2/3"):
        rooms = " ".join(r for r in "A1=O1/0 B1=O2/0 A2=P1/0 B2=P2/0 A3=W1/0 B3=W2/0 A4=Q1/0 B4=Q2/0".split()
                         if r[:2] not in {t[:2] for t in turns.split()}) + " " + turns
        out.append(position("bWA@c13 yTR@h13", rooms=rooms))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ref", default="a12669f")
    parser.add_argument("--games", type=int, default=4, help="games of each kind (standard, beginner)")
    parser.add_argument("--per-game", type=int, default=30)
    args = parser.parse_args()
    ref = reference(args.ref)
    states = []
    for beginner in (False, True):
        for seed in range(args.games):
            states += game_positions(seed, beginner, args.per_game)
    states += synthetic_positions()
    views = [view(s, seat) for s in states for seat in VIEWERS]
    expected = [ref.render_board(v) for v in views]
    phases = sorted({v["phase"] for v in views})
    mismatches = 0
    for order_name, order in (("game order", list(range(len(views)))),
                              ("shuffled", random.Random(7).sample(range(len(views)), len(views)))):
        board.clear_cache() if hasattr(board, "clear_cache") else None
        bad = [i for i in order if board.render_board(views[i]) != expected[i]]
        mismatches += len(bad)
        print(f"{order_name}: {len(views)} views compared, {len(bad)} differ"
              + (f" (first: view {bad[0]}, phase {views[bad[0]]['phase']})" if bad else ""))
    print(f"{len(states)} positions ({args.games} standard + {args.games} beginner games, "
          f"{len(synthetic_positions())} synthetic) x {len(VIEWERS)} viewers; phases {', '.join(phases)}; "
          f"{'IDENTICAL' if not mismatches else 'DIFFERENT'} to {args.ref}:client/board.py")
    sys.exit(1 if mismatches else 0)


if __name__ == "__main__":
    main()
