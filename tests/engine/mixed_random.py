"""A random-play checker for the mixed games (PD-TEAM-02: the base set, Prison and Paladins & Dragons in any mix,
teams drawn, picked in turn or built in secret). Run it as a script for many seeds:

    python -m tests.engine.mixed_random --games 40 [--seed 1] [--accepted-every 40] [--variant NAME ...]

or through tests/engine/test_mixed_random.py (a few seeds). Each game is played to its end (a cap says so when it
does not end), half the seats random, half the greedy bot (which plays from its view, so that games reach their
end and the bots' reading of mixed views is exercised too). After every action:

- generated == accepted, in the small: the chosen action is one of legal_actions, its text round-trips
  (format, parse) and apply takes it; every `--apply-every`-th state, every generated action (or a spread sample of
  a free build) applies; every `--accepted-every`-th state, tests/engine/accepted.py's `disagreements` (candidates
  of every action kind, both seats) finds none;
- views leak nothing hidden: no view (Blue's, Yellow's, a spectator's) and no event as a viewer receives it names a
  token id whose identity that viewer does not know (behind its owner's screen, face down in a room or on a start
  square, or, in a free build, left in the box; test_indistinguishability.hidden_from, widened for the box);
- the position round-trips (format, parse, format) every `--position-every`-th state, and the position read
  afresh (no memo of the positions before) has the same legal actions in the same order;
- the game ends (within `--cap` actions) with an outcome whose VP are the state's.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter

from dungeon_twister.engine import (Options, apply, event_view, format_action, format_position, legal_actions,
                                    new_game, parse_action, parse_position, view)
from dungeon_twister.engine.core.choice import is_lazy
from dungeon_twister.engine.core.rng import Rng
from dungeon_twister.engine.tools.bots import BOTS

MIXED: dict[str, Options] = {
    **{name + suffix: Options(set_name=set_name, **({"teams": teams} if teams else {}))
       for name, set_name in (("mixed", "mixed"), ("base-paladins", "base_paladins"),
                              ("prison-paladins", "prison_paladins"), ("all-sets", "all_sets"))
       for suffix, teams in (("", None), ("-mutual", "mutual"), ("-free", "free"))},
    "all-sets-free-vp7": Options(set_name="all_sets", teams="free", target_vp=7),
}
"""Every mix and every way of building its teams."""

SEATS = ("B", "Y")


def secret_ids(state, viewer: str | None) -> set[str]:
    """The token ids whose identity `viewer` (a seat, or None: a spectator) does not know in `state`."""
    free = state.options.teams == "free"
    handicap = state.options.handicap
    out = set()
    for t in state.tokens.values():
        if t.colour == viewer:
            continue
        boxed = t.where == "unused" and (free or (handicap is not None and handicap.seat == t.colour))
        if t.where in ("screen", "room") or (t.where == "board" and t.face_down) or boxed:
            out.add(t.id)
    return out


def _strings(value, out: set[str]) -> set[str]:
    if isinstance(value, str):
        out.add(value)
        out.update(value.replace("+", " ").replace(",", " ").split())
    elif isinstance(value, dict):
        for k, v in value.items():
            _strings(k, out)
            _strings(v, out)
    elif isinstance(value, (list, tuple)):
        for v in value:
            _strings(v, out)
    return out


def leaks(before, after, events) -> list[str]:
    """What a viewer is shown of a token it may not know: in the view of `after`, and in the step's events (a
    token hidden before and after the step)."""
    problems = []
    for viewer in (*SEATS, None):
        hidden_after = secret_ids(after, viewer)
        name = viewer or "spectator"
        shown = _strings(view(after, viewer), set()) & hidden_after
        if shown:
            problems.append(f"{name} view names {sorted(shown)}")
        hidden_both = hidden_after & secret_ids(before, viewer)
        for event in events:
            seen = event_view(event, viewer)
            if seen is None:
                continue
            named = _strings(seen, set()) & hidden_both
            if named:
                problems.append(f"{name} event {seen.get('kind', seen) if isinstance(seen, dict) else seen} "
                                f"names {sorted(named)}")
    return problems


def spread(legal, count: int = 48) -> list:
    if not is_lazy(legal):
        return list(legal)
    n = len(legal)
    return [legal[i * (n - 1) // (count - 1)] for i in range(count)]


def play(variant: str, seed: int, cap: int, apply_every: int, accepted_every: int, position_every: int,
         bots: tuple[str, str], stats: Counter) -> list[str]:
    """One game; returns its problems (each with the action count where it was seen)."""
    disagreements = None
    if accepted_every:
        from .accepted import disagreements  # noqa: F401  (the enumerators of every set register on import)
        from .paladins import enumerators as _pd  # noqa: F401
        from .prison import enumerators as _pr  # noqa: F401
    state = new_game(MIXED[variant], seed)
    rng = Rng(seed * 7919 + 17)
    players = {seat: BOTS[name]() for seat, name in zip(SEATS, bots)}
    problems: list[str] = []
    count = 0
    while state.outcome is not None or count < cap:
        if state.outcome is not None:
            break
        where = f"{variant} seed {seed} action {count} ({state.phase})"
        legal = legal_actions(state)
        if len(legal) == 0:
            problems.append(f"{where}: no legal action, no outcome")
            break
        if apply_every and count % apply_every == 0:
            for action in spread(legal):
                try:
                    apply(state, action)
                except Exception as error:  # noqa: BLE001  (any refusal or crash of a generated action)
                    problems.append(f"{where}: generated {format_action(action)} refused: {error!r}")
            stats["apply checks"] += 1
        # (the team choice's candidates are every code on every start square: 10^5 and more in a mix)
        if disagreements is not None and count % accepted_every == 0 and state.phase != "team":
            found = disagreements(state)
            problems += [f"{where}: {p}" for p in found]
            stats["accepted checks"] += 1
        if position_every and count % position_every == 0 and state.phase != "build":
            text = format_position(state)
            fresh = parse_position(text)
            if format_position(fresh) != text:
                problems.append(f"{where}: position does not round-trip")
            # the same legal actions, in the same order, from a state read afresh (no memo of earlier positions)
            elif not is_lazy(legal) and ([format_action(a) for a in legal_actions(fresh)]
                                         != [format_action(a) for a in legal]):
                problems.append(f"{where}: the legal actions differ from those of the position read afresh")
            stats["positions"] += 1
        seat = state.to_act[0]
        mine = legal_actions(state, seat)
        bot = players[seat]
        if bot.name == "random":
            action = rng.choice(mine)
        else:
            texts = [] if is_lazy(mine) else [format_action(a) for a in mine]
            action = parse_action(bot.choose(view(state, seat), texts, rng), seat)
        text = format_action(action)
        if parse_action(text, action.seat) != action:
            problems.append(f"{where}: {text} does not round-trip")
        if action not in mine:
            problems.append(f"{where}: chosen {text} is not generated")
        try:
            after, events = apply(state, action)
        except Exception as error:  # noqa: BLE001
            problems.append(f"{where}: chosen {text} refused: {error!r}")
            break
        problems += [f"{where} after {text}: {p}" for p in leaks(state, after, events)]
        stats[type(action).__name__] += 1
        state = after
        count += 1
        if len(problems) > 20:
            break
    if state.outcome is None:
        problems.append(f"{variant} seed {seed}: no end after {count} actions (turn {state.turn})")
    else:
        o = state.outcome
        stats[f"end: {o.reason.split(' (')[0][:40]}"] += 1
        stats["games"] += 1
        stats["actions"] += count
        vp = {s: state.vp(s) for s in SEATS}
        if o.vp and dict(o.vp) != vp:
            problems.append(f"{variant} seed {seed}: outcome VP {o.vp} but the state counts {vp}")
    return problems


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10, help="games per variant")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cap", type=int, default=6000)
    parser.add_argument("--apply-every", type=int, default=10)
    parser.add_argument("--accepted-every", type=int, default=0)
    parser.add_argument("--position-every", type=int, default=25)
    parser.add_argument("--variant", action="append")
    parser.add_argument("--pairings", default="random-greedy,greedy-random,greedy-greedy,random-planner",
                        help="who plays Blue and Yellow, game after game (random-random games may not end)")
    parser.add_argument("--positions", type=int, default=0,
                        help="check this many random crowded positions of all three sets instead of games")
    args = parser.parse_args(argv)
    variants = args.variant or list(MIXED)
    stats: Counter = Counter()
    problems: list[str] = []
    started = time.monotonic()
    if args.positions:
        problems = check_positions(args.positions, args.seed, stats)
        print(f"{len(problems)} problems in {args.positions} positions ({stats['drawn']} drawn, "
              f"{stats['combat states']} combat states, {time.monotonic() - started:.0f} s)")
        return 1 if problems else 0
    for variant in variants:
        for n in range(args.games):
            seed = args.seed + 1000 * n
            pairings = [tuple(p.split("-")) for p in args.pairings.split(",")]
            bots = pairings[n % len(pairings)]
            found = play(variant, seed, args.cap, args.apply_every, args.accepted_every, args.position_every,
                         bots, stats)
            problems += found
            for p in found:
                print(p, flush=True)
        print(f"{variant}: done ({time.monotonic() - started:.0f} s; " + ", ".join(
            f"{k} {v}" for k, v in sorted(stats.items()) if k in ("games", "accepted checks")) + ")", flush=True)
    print(f"{len(problems)} problems; " + ", ".join(f"{k} {v}" for k, v in sorted(stats.items())))
    return 1 if problems else 0



# --- crowded positions -----------------------------------------------------------------------------------------
def crowded_position(rng: Rng, set_name: str = "synthetic_all_slits"):
    """A random crowded position of all three sets' characters and objects on the synthetic rooms with terrain and
    arrow slits (tests/engine/paladins/builders.py), or None when the draw breaks a rule the reader checks."""
    from dungeon_twister.engine import parse_position
    from dungeon_twister.engine.boardgame import catalogue
    from .builders import position_text
    from .paladins import builders as _builders  # noqa: F401  (registers the synthetic sets)

    cat = catalogue.load(set_name)
    characters, objects = sorted(cat.characters), sorted(cat.objects)
    squares = [(x, y) for x in range(10) for y in range(1, 21)]
    # a crowd: most tokens within a few rooms, so that they meet
    centre = rng.choice(squares)
    near = [sq for sq in squares if abs(sq[0] - centre[0]) + abs(sq[1] - centre[1]) <= 4]
    used: set[str] = set()
    tokens = []

    def name(sq):
        return "abcdefghij"[sq[0]] + str(sq[1])

    for _ in range(rng.below(6) + 5):
        colour = rng.choice("by")
        code = rng.choice(characters)
        tid = colour + code
        if tid in used:
            continue
        used.add(tid)
        sq = rng.choice(near)
        wounded = "!" if rng.below(5) == 0 else ""
        tokens.append(f"{tid}@{name(sq)}{wounded}")
        if rng.below(2):
            ocode = rng.choice(objects)
            oid = rng.choice("by") + ocode
            if oid not in used:
                used.add(oid)
                tokens.append(f"{oid}@{name(sq)}")
    for _ in range(rng.below(3)):
        oid = rng.choice("by") + rng.choice(objects)
        if oid not in used:
            used.add(oid)
            tokens.append(f"{oid}@{name(rng.choice(near))}")
    if not any(t.startswith("y") and "!" not in t and t[1:3] in cat.characters for t in tokens):
        tokens.append("yGB@j1" if "yGB" not in used else "yWA@j1")
    if not any(t.startswith("b") and "!" not in t and t[1:3] in cat.characters for t in tokens):
        tokens.append("bGB@a1" if "bGB" not in used else "bWA@a1")
    marks = []
    if rng.below(3) == 0:
        marks.append(f"illusion:{rng.choice('BY')}:{rng.choice(['pit', 'rubble'])}={name(rng.choice(near))}")
    fields = ("marks " + " ".join(marks)) if marks else ""
    active = rng.choice("BY")
    text = position_text(" ".join(tokens), set_name=set_name, active=active, ap=rng.below(5) + 1, fields=fields)
    try:
        return parse_position(text)
    except Exception:  # noqa: BLE001  (a draw the reader refuses: two tokens of a kind on a square, ...)
        return None


def check_positions(count: int, seed: int, stats: Counter) -> list[str]:
    """Generated == accepted (every action kind, both seats) on `count` random crowded positions of all three sets."""
    from dungeon_twister.engine import format_position
    from .accepted import disagreements
    from .paladins import enumerators as _pd  # noqa: F401
    from .prison import enumerators as _pr  # noqa: F401

    rng = Rng(seed)
    problems = []
    done = 0
    while done < count:
        state = crowded_position(rng)
        stats["drawn"] += 1
        if state is None:
            continue
        done += 1
        if done % 10 == 0:
            print(f"{done} positions checked ({stats['combat states']} combat states), {len(problems)} problems",
                  flush=True)
        found = disagreements(state)
        # and the combat one of its fights declares (a Weapon Master's, a Telepath's, a shot's, a lance's turn)
        fights = [a for a in legal_actions(state) if format_action(a).split()[0] in ("attack", "shoot", "lance")]
        if fights:
            fought, _ = apply(state, fights[rng.below(len(fights))])
            while fought.phase == "combat" and fought.outcome is None:
                stats["combat states"] += 1
                found += [f"(in the combat) {p}" for p in disagreements(fought)]
                mine = legal_actions(fought, fought.to_act[0])
                fought, _ = apply(fought, mine[rng.below(len(mine))])
        for p in found:
            problems.append(f"{format_position(state)}\n    {p}")
            print(problems[-1], flush=True)
    return problems


if __name__ == "__main__":
    sys.exit(main())
