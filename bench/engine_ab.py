"""A/B speed of the engine against an earlier revision of it, in one process (pip install -e '.[bench]').

    python bench/engine_ab.py REV [--games N] [--seed S] [--variant standard|beginner|prison|...|cards-3|...]
    python bench/engine_ab.py --same [...]   # the engine against itself: the harness's own bias (~1.00)

`git archive REV engine` is unpacked into a temporary directory and imported as a second package beside the
installed `dungeon_twister.engine`; both play the same seeded random games action by action (`Rng(seed + 1)` picks
the index, as bench/engine.py does), each action's `legal_actions` and `apply` timed in CPU seconds
(time.process_time) for each engine, the one that goes first alternating every action. On a loaded, noisy machine
the ratio of the two totals is steadier than two separate runs of bench/engine.py. The games must be the same:
the run stops with an error at the first action whose legal lists differ in length. A second line gives each
engine's `legal_actions` time per main-phase position (median and mean: issue 7's first bar), measured alike. A card
game variant plays the card game's engine (`engine.cards`) and stops each game at CARD_CAP actions, as bench/engine.py
does. The cyclic garbage collector is off while they play (collected every 200 actions), so what a change does to
collections is not in these figures: bench/engine.py measures with it on.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import dungeon_twister.engine as current
from dungeon_twister.engine.core.rng import Rng

clock = time.process_time
VARIANTS = {"standard": {}, "beginner": {"beginner": True}, "prison": {"set_name": "prison"},
            "paladins": {"set_name": "paladins"}, "mixed": {"set_name": "mixed"},
            "cards-3": {"tutorial": 3}, "cards-standard": {"tutorial": None, "scenario": "standard", "teams": "mutual"}}
CARD_CAP = 1500
"""Actions after which a random card game stops (bench/engine.py's cap)."""


def _rules(engine, variant: str):
    """The module that plays `variant` in `engine` (the board game's package or its `cards`) and its options."""
    if variant.startswith("cards"):
        cards = importlib.import_module(engine.__name__ + ".cards")
        return cards, cards.CardOptions
    return engine, engine.Options


def reference(rev: str, into: Path):
    """The engine of git revision `rev`, unpacked under `into` and imported as the package `ab_ref.engine` (its
    modules import one another relatively; its set data is looked up in the installed package's data)."""
    root = Path(__file__).resolve().parent.parent
    package = into / "ab_ref"
    package.mkdir()
    (package / "__init__.py").write_text("")
    archive = subprocess.run(["git", "-C", str(root), "archive", rev, "engine"], check=True, capture_output=True)
    subprocess.run(["tar", "-x", "-C", str(package)], input=archive.stdout, check=True)
    sys.path.insert(0, str(into))
    return importlib.import_module("ab_ref.engine")


def play(engines, games: int, seed: int, variant: str) -> tuple[list[float], int, list[list[float]]]:
    """CPU seconds of each engine over the same `games` random games, the number of actions, and each engine's
    `legal_actions` seconds per main-phase position (issue 7's first bar)."""
    spent, actions = [0.0] * len(engines), 0
    main = [[] for _ in engines]
    rules = [_rules(e, variant) for e in engines]
    engines = [module for module, _ in rules]
    cap = CARD_CAP if variant.startswith("cards") else None
    gc.disable()  # a collection would be charged to whichever engine happens to trigger it
    try:
        for game in range(games):
            states = [module.new_game(options(**VARIANTS[variant]), seed + game) for module, options in rules]
            rng = Rng(seed + game + 1)
            played = 0
            while states[0].outcome is None and played != cap:
                played += 1
                order = range(len(engines)) if actions % 2 == 0 else reversed(range(len(engines)))
                order = list(order)
                legal = [None] * len(engines)
                for i in order:
                    t0 = clock()
                    legal[i] = engines[i].legal_actions(states[i])
                    took = clock() - t0
                    spent[i] += took
                    if states[i].phase == "main":
                        main[i].append(took)
                if len({len(x) for x in legal}) != 1:
                    raise SystemExit(f"game {game}, action {actions}: the legal lists differ in length")
                pick = rng.choice(range(len(legal[0])))
                for i in order:
                    t0 = clock()
                    states[i], _ = engines[i].apply(states[i], legal[i][pick])
                    spent[i] += clock() - t0
                actions += 1
                if actions % 200 == 0:
                    gc.collect()
    finally:
        gc.enable()
    return spent, actions, main


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rev", nargs="?", default="HEAD", help="the git revision to compare with (default HEAD)")
    parser.add_argument("--same", action="store_true", help="the installed engine against itself")
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--seed", type=int, default=100)
    parser.add_argument("--variant", default="standard", choices=VARIANTS)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        ref = current if args.same else reference(args.rev, Path(tmp))
        (t_ref, t_cur), actions, (m_ref, m_cur) = play([ref, current], args.games, args.seed, args.variant)
    name = "itself" if args.same else args.rev
    print(f"{args.variant}: {args.games} games, {actions} actions; {name} {t_ref / actions * 1e6:.1f} us/action, "
          f"this tree {t_cur / actions * 1e6:.1f} us/action; speed-up {t_ref / t_cur:.3f}")
    print(f"legal_actions per main-phase position ({len(m_cur)} positions, median / mean): {name} "
          f"{statistics.median(m_ref) * 1e3:.3f} / {statistics.fmean(m_ref) * 1e3:.3f} ms, this tree "
          f"{statistics.median(m_cur) * 1e3:.3f} / {statistics.fmean(m_cur) * 1e3:.3f} ms")


if __name__ == "__main__":
    main()
