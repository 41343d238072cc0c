"""dt-engine: show, list legal actions, replay records and run self-play games from the command line.

Exit codes: 0 ok, 1 illegal action or bad input (message on stderr naming the line and the rule), 2 usage (a
missing file too), 141 when the reader of the output leaves early (`| head`), quietly.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

from .ascii import render, render_summary
from ..core.choice import is_lazy
from ..core.errors import EngineError, IllegalAction
from ..core.events import event_view
from ..boardgame.legal import legal_actions
from ..boardgame.notation import format_action
from ..boardgame.position import format_position
from ..boardgame.records import parse_record, parse_start, replayed
from ..cards import notation as card_notation
from ..cards import records as card_records
from .selfplay import play_game
from ..boardgame.setup import validate_options
from ..boardgame.state import Options
from ..boardgame.views import GOD, view


class UsageError(Exception):
    pass


def _read(arg: str) -> str:
    """A position or record given inline, as a file path, or '-' for standard input. Inline text always has a
    space ('DT1 ...', 'game seed=...'): a single word is a file name, and a missing file is said to be one."""
    if arg == "-":
        return sys.stdin.read()
    path = Path(arg)
    if not arg.startswith(("DT1 ", "game ")) and path.exists():
        return path.read_text()
    if not arg.split() or len(arg.split()) == 1:
        raise UsageError(f"no such file: {arg!r} (give a file, '-' for standard input, or the text itself)")
    return arg


def _position(arg: str):
    text = _read(arg).strip()
    lines = [line for line in text.splitlines() if line.strip() and not line.startswith("#")]
    if not lines:
        raise EngineError("no position given")
    return parse_start(lines[0].strip())


def cmd_show(args) -> int:
    state = _position(args.position)
    v = view(state, GOD if args.seat == "all" else None if args.seat == "spectator" else args.seat)
    print(render(v))
    print(render_summary(v))
    return 0


def cmd_legal(args) -> int:
    state = _position(args.position)
    legal = legal_actions(state)
    if is_lazy(legal):  # a free team building: 10^10 and more builds, so the parts they are made of
        for seat in state.to_act:
            choice = legal_actions(state, seat)
            print(f"{seat}: build, {len(choice):,} ways: " + " ".join(
                f"{part.name}={part.count} of " + ",".join(v + (f"x{n}" if n > 1 else "")
                                                           for v, n in zip(part.values, part.copies))
                for part in choice.parts))
        return 0
    for action in legal:
        print(f"{action.seat}: {format_action(action)}")
    return 0


def cmd_play(args) -> int:
    text = _read(args.record)
    first = next((line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")), "")
    if card_records.is_start(first):
        return _play_cards(text, args)
    state, lines = parse_record(text)
    events = []
    for _, state, new_events in replayed(state, lines):
        events.extend(event_view(e, GOD) for e in new_events)
    outcome = state.outcome
    result = {
        "position": format_position(state),
        "events": events,
        "outcome": None if outcome is None else {"winner": outcome.winner, "vp": dict(outcome.vp),
                                                 "reason": outcome.reason},
        "to_act": list(state.to_act),
    }
    if args.json:
        print(json.dumps(result, indent=1))
        return 0
    print(render(view(state, GOD)))
    print(render_summary(view(state, GOD)))
    for e in events:
        print("  " + " ".join(f"{k}={v}" for k, v in e.items()))
    print(format_position(state))
    print(_outcome_line(outcome, text))
    return 0


def _outcome_line(outcome, text: str) -> str:
    """The outcome the rules give the replayed position, or, when they give none, the result the record's server
    wrote (a game resigned, abandoned or drawn by agreement ends outside the rules: a play-test read only "game
    not over" of a resigned game)."""
    if outcome is not None:
        return f"outcome: {'draw' if outcome.winner is None else outcome.winner + ' wins'} ({outcome.reason})"
    recorded = next((line[len("# result "):] for line in reversed(text.splitlines()) if line.startswith("# result ")),
                    None)
    if recorded is None:
        return "outcome: game not over"
    return f"outcome: game not over by the rules; the record's result, outside them: {recorded}"


def _play_cards(text: str, args) -> int:
    """dt-engine play of a card-game record (`game cards seed=... tutorial=...`): the final position, every event
    (hidden ones included), the outcome."""
    state, lines = card_records.parse_record(text)
    events = []
    for _, state, new_events in card_records.replayed(state, lines):
        events.extend(event_view(e, GOD) for e in new_events)
    outcome = state.outcome
    if args.json:
        print(json.dumps({"position": card_notation.format_position(state), "events": events,
                          "outcome": None if outcome is None else {"winner": outcome.winner,
                                                                   "vp": dict(outcome.vp),
                                                                   "reason": outcome.reason},
                          "to_act": list(state.to_act)}, indent=1))
        return 0
    for e in events:
        print("  " + " ".join(f"{k}={v}" for k, v in e.items()))
    print(card_notation.format_position(state))
    print(f"VP: B {state.vp('B')}, Y {state.vp('Y')}")
    print(_outcome_line(outcome, text))
    return 0


def cmd_selfplay(args) -> int:
    options = Options(target_vp=args.vp, beginner=args.beginner, set_name=args.set, scenario=args.scenario,
                      teams=args.teams)
    if args.scenario:  # a scenario names its set and VP target (PR-SCEN)
        scenario = next((name for name in ("prison",) if args.scenario in Options(set_name=name).catalogue.scenarios),
                        None)
        if scenario is None:
            raise UsageError(f"unknown scenario {args.scenario!r}")
        target = Options(set_name=scenario).catalogue.scenarios[args.scenario]["victory"].get("target", 5)
        options = Options(target_vp=target, set_name=scenario, scenario=args.scenario)
    try:
        validate_options(options)
    except ValueError as error:
        raise UsageError(str(error)) from None
    wins = {"B": 0, "Y": 0, None: 0}
    turns, actions = [], []
    started = time.perf_counter()
    shown = sys.stderr.isatty()  # progress on a terminal only: a pipe or a file gets the results alone

    def progress(actions: int, seed: int = 0) -> None:
        print(f"\rgame seed={seed} ({seed - args.seed + 1}/{args.games}): {actions} actions...", end="",
              file=sys.stderr, flush=True)

    for seed in range(args.seed, args.seed + args.games):
        report = (lambda actions, seed=seed: progress(actions, seed)) if shown else None
        r = play_game(seed, options, (args.blue, args.yellow), args.max_actions, report)
        if shown:
            print("\r\x1b[K", end="", file=sys.stderr, flush=True)  # the progress line makes way for the result
        wins[r.winner] += 1
        turns.append(r.turns)
        actions.append(r.actions)
        print(f"game seed={seed}: {'draw' if r.winner is None else r.winner + ' wins'} "
              f"{r.vp['B']}-{r.vp['Y']} ({r.reason}) turns={r.turns} actions={r.actions}")
    elapsed = time.perf_counter() - started
    n = args.games
    print(f"games {n}  Blue {wins['B']}  Yellow {wins['Y']}  draws {wins[None]}  "
          f"mean turns {sum(turns) / n:.1f}  mean actions {sum(actions) / n:.1f}  "
          f"{n / elapsed:.2f} games/s  {sum(actions) / elapsed:.0f} actions/s")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="dt-engine", description="Dungeon Twister rules engine tools.")
    sub = parser.add_subparsers(dest="command", required=True)
    show = sub.add_parser("show", help="draw a position (text, file or '-')")
    show.add_argument("position")
    show.add_argument("--seat", choices=["all", "B", "Y", "spectator"], default="all",
                      help="whose view to draw (default: everything)")
    show.set_defaults(run=cmd_show)
    legal = sub.add_parser("legal", help="list the legal actions of a position, one per line")
    legal.add_argument("position")
    legal.set_defaults(run=cmd_legal)
    play = sub.add_parser("play", help="apply a game record; print the final position, events and outcome")
    play.add_argument("record")
    play.add_argument("--json", action="store_true", help="machine-readable output")
    play.set_defaults(run=cmd_play)
    selfplay = sub.add_parser("selfplay", help="play random (or greedy) games to the end")
    selfplay.add_argument("--games", type=int, default=1)
    selfplay.add_argument("--seed", type=int, default=0)
    selfplay.add_argument("--vp", type=int, default=5, choices=range(5, 9))
    selfplay.add_argument("--beginner", action="store_true")
    selfplay.add_argument("--set", choices=["base_set", "prison", "mixed", "paladins", "base_paladins",
                                            "prison_paladins", "all_sets"], default="base_set",
                          help="the set played (default base_set)")
    selfplay.add_argument("--teams", choices=["random", "mutual", "free"], default="random",
                          help="a mixed set's team building (PD-TEAM-02): drawn, picked in turn, or each chosen in "
                               "secret")
    selfplay.add_argument("--scenario", choices=[f"prison-{n}" for n in range(1, 6)],
                          help="a Prison introductory scenario (its set and VP target come with it)")
    selfplay.add_argument("--blue", choices=["random", "greedy", "planner"], default="random")
    selfplay.add_argument("--yellow", choices=["random", "greedy", "planner"], default="random")
    selfplay.add_argument("--max-actions", type=int, default=None, help="stop a game early (reported unfinished)")
    selfplay.set_defaults(run=cmd_selfplay)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:
        return int(exit_.code or 0) and 2
    try:
        return args.run(args)
    except BrokenPipeError:  # the reader left (`dt-engine legal X | head`): stop quietly, as Unix tools do
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 128 + 13  # SIGPIPE
    except UsageError as error:
        print(f"dt-engine: {error}", file=sys.stderr)
        return 2
    except IllegalAction as error:
        print(f"dt-engine: illegal: {error}", file=sys.stderr)
        return 1
    except EngineError as error:
        print(f"dt-engine: bad input: {error}", file=sys.stderr)
        return 1
    except OSError as error:
        print(f"dt-engine: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
