"""Proof that a change to the engine keeps its behaviour: record, then check, many seeded random games.

    python bench/legal_equivalence.py record FILE [--games N] [--seed S] [--variants V,...|all]  # before the change
    python bench/legal_equivalence.py check FILE                                                # after it

For every position of N random games of each variant (by default the standard and beginner games; `--variants all`
adds every set, scenario, mix and team building the engine plays, those of engine/tools/variants.py; `--variants
cards` the card game's tutorials and scenario selections, CARD_VARIANTS, each game cut at CARD_CAP actions as
bench/engine.py cuts it; the random choice is the bench's: `Rng(seed + 1)` picks from the legal list, so a change
of the list's order changes the games) it stores digests of

- the legal actions in the order `legal_actions` lists them, each as its canonical text and, for a Move, the route
  it carries (so the set, the order and the routes all count);
- the same texts sorted (to tell an order change from a set change);
- what applying the chosen action gives: the next position (`format_position`, plus the order of its token dict)
  and the events as every viewer sees them;
- probes of `apply` from typed text (no route) and of refusals: for main-phase positions, one legal Move applied
  without its route, a few random moves of the seat's characters (random destination, sometimes a random take)
  and a legal route with one step changed; each probe stores the resulting position, or the error class, rule
  and message. In the card game, the whole state (every field, sets sorted) stands for the position, and the probes
  are a legal move typed (parsed from its text), the same path without its last token, and with its tokens
  reversed.

`check` replays the same games and stops at the first position whose digests differ, naming the game and
position. Nothing here is timed.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import sys
from dataclasses import fields, is_dataclass, replace

from dungeon_twister.engine import (EngineError, Move, apply, event_view, format_action, format_position,
                                    legal_actions, new_game, parse_action)
from dungeon_twister.engine.core.choice import is_lazy
from dungeon_twister.engine.cards import CardOptions
from dungeon_twister.engine.cards.actions import Move as CardMove
from dungeon_twister.engine.core.rng import Rng
from dungeon_twister.engine.families import family_for
from dungeon_twister.engine.tools.variants import VARIANTS  # the property tests' games too

DEFAULT = ("standard", "beginner")
CARD_VARIANTS = {
    "cards-1": CardOptions(1),
    "cards-2": CardOptions(2),
    "cards-3": CardOptions(3),
    "cards-3-secret": CardOptions(3, secret_objects=True),
    "cards-mutual": CardOptions(None, "standard", "mutual"),
    "cards-draft": CardOptions(None, "standard", "draft"),
    "cards-full": CardOptions(None, "standard", "full"),
}
CARD_CAP = 1500
"""Actions after which a random card game stops (bench/engine.py's cap: random players rarely finish one)."""


def _digest(parts) -> str:
    return hashlib.sha1("\n".join(parts).encode()).hexdigest()[:20]


def _text(action) -> str:
    text = format_action(action)
    if isinstance(action, Move):
        text += " route=" + ",".join(f"{x}.{y}" for x, y in action.route or ())
    return text


def _result(state, action) -> str:
    try:
        after, events = apply(state, action)
    except EngineError as error:
        return f"{type(error).__name__} {getattr(error, 'rule', '')} {error}"
    views = [json.dumps(event_view(e, v), sort_keys=True) for e in events for v in ("B", "Y", None)]
    return _digest([format_position(after), ",".join(after.tokens), *views])


def _probes(state, legal, rng: Rng) -> list[str]:
    seat = state.to_act[0]
    out = []
    moves = [a for a in legal if isinstance(a, Move)]
    if moves:
        chosen = rng.choice(moves)
        out.append(_result(state, parse_action(format_action(chosen), seat)))  # typed: no route
        if len(chosen.route) > 1:
            route = list(chosen.route)
            i = rng.below(len(route))
            x, y = route[i]
            route[i] = (x + rng.below(3) - 1, y + rng.below(3) - 1)
            out.append(_result(state, replace(chosen, route=tuple(route), dest=route[-1])))
    mine = sorted(t.id for t in state.tokens.values() if t.colour == seat and t.is_character)
    on_board = sorted(t.id for t in state.tokens.values() if t.where == "board")
    for _ in range(3):
        token = rng.choice(mine)
        dest = (rng.below(10), rng.below(state.height + 2) - 1)
        take = rng.choice(on_board) if on_board and rng.below(3) == 0 else None
        out.append(_result(state, Move(seat, token, dest, take)))
    return out


def _listed(legal) -> list:
    """The legal list, or for a choice made of parts (a free team building) 64 actions spread over it and its
    length."""
    if not is_lazy(legal):
        return legal
    n = len(legal)
    return [n, *(legal[i * (n - 1) // 63] for i in range(64))]


def _canonical(value) -> str:
    """`repr(value)` with sets sorted (a frozenset of str's order changes with the process's hash seed): every
    field of a card game state, nested records included."""
    if isinstance(value, (set, frozenset)):
        return "{" + ", ".join(sorted(map(_canonical, value))) + "}"
    if is_dataclass(value) and not isinstance(value, type):
        return type(value).__name__ + "(" + ", ".join(
            f"{f.name}={_canonical(getattr(value, f.name))}" for f in fields(value) if f.repr) + ")"
    if isinstance(value, (tuple, list)):
        return "(" + ", ".join(map(_canonical, value)) + ")"
    if isinstance(value, dict):
        return "{" + ", ".join(sorted(f"{_canonical(k)}: {_canonical(v)}" for k, v in value.items())) + "}"
    return repr(value)


def _card_result(family, state, action) -> str:
    try:
        after, events = family.apply(state, action)
    except EngineError as error:
        return f"{type(error).__name__} {getattr(error, 'rule', '')} {error}"
    views = [json.dumps(event_view(e, v), sort_keys=True) for e in events for v in ("B", "Y", None)]
    return _digest([_canonical(after), *views])


def _card_positions(name: str, games: int, seed: int):
    """`positions` of the card game's variant `name`."""
    family = family_for(CARD_VARIANTS[name])
    for game in range(games):
        state = family.new_game(CARD_VARIANTS[name], seed + game)
        rng = Rng(seed + game + 1)
        probe_rng = Rng(seed + game + 1000)
        index = 0
        while state.outcome is None and index < CARD_CAP:
            legal = family.legal_actions(state)
            texts = [str(a) if isinstance(a, int) else family.format_action(a) for a in _listed(legal)]
            action = rng.choice(legal)
            record = [state.phase, _digest(texts), _digest(sorted(texts)), _card_result(family, state, action)]
            moves = [a for a in legal if isinstance(a, CardMove)] if state.phase == "main" else []
            if moves:
                chosen = probe_rng.choice(moves)
                typed = family.parse_action(family.format_action(chosen), chosen.seat)
                record += [_card_result(family, state, typed),
                           _card_result(family, state, replace(chosen, path=chosen.path[:-1])),
                           _card_result(family, state, replace(chosen, path=chosen.path[::-1]))]
            yield f"{name} game {seed + game}", index, record
            state, _ = family.apply(state, action)
            index += 1


def positions(games: int, seed: int, variants=DEFAULT):
    """(label, index, record) for every position of the games."""
    for name in variants:
        if name in CARD_VARIANTS:
            yield from _card_positions(name, games, seed)
            continue
        for game in range(games):
            state = new_game(VARIANTS[name], seed + game)
            rng = Rng(seed + game + 1)
            probe_rng = Rng(seed + game + 1000)
            index = 0
            while state.outcome is None:
                legal = legal_actions(state)
                texts = [str(a) if isinstance(a, int) else _text(a) for a in _listed(legal)]
                action = rng.choice(legal)
                record = [state.phase, _digest(texts), _digest(sorted(t.split(" route=")[0] for t in texts)),
                          _result(state, action)]
                if state.phase == "main":
                    record += _probes(state, legal, probe_rng)
                yield f"{name} game {seed + game}", index, record
                state, _ = apply(state, action)
                index += 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=("record", "check"))
    parser.add_argument("file")
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--variants", default=",".join(DEFAULT),
                        help=f"'all', 'cards' or some of {', '.join([*VARIANTS, *CARD_VARIANTS])}")
    args = parser.parse_args()
    if args.mode == "record":
        count = 0
        named = {"all": list(VARIANTS), "cards": list(CARD_VARIANTS)}
        variants = named.get(args.variants) or args.variants.split(",")
        with gzip.open(args.file, "wt") as f:
            f.write(json.dumps({"games": args.games, "seed": args.seed, "variants": variants}) + "\n")
            for label, index, record in positions(args.games, args.seed, variants):
                f.write(json.dumps([label, index, record]) + "\n")
                count += 1
        print(f"recorded {count} positions")
        return
    with gzip.open(args.file, "rt") as f:
        head = json.loads(f.readline())
        count = probes = 0
        games = positions(head["games"], head["seed"], head.get("variants", DEFAULT))
        for (label, index, record), line in zip(games, f):
            want = json.loads(line)
            if [label, index, record] != want:
                print(f"DIFFERENT at {label}, position {index}:\n  recorded {want}\n"
                      f"  now      {[label, index, record]}")
                sys.exit(1)
            count += 1
            probes += len(record) - 4
        if f.readline():
            print("DIFFERENT: the recorded games are longer")
            sys.exit(1)
    print(f"identical: {count} positions ({probes} probes of apply)")


if __name__ == "__main__":
    main()
