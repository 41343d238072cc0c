"""Hand-built card-game positions for rule tests.

The default maze is tutorial 1's 2 x 2 square, all face up, every card unturned:
  slot A (a1 b1 a2 b2) blue1, slot B (c1 d1 c2 d2) green1, slot C (a3 b3 a4 b4) blue2, slot D (c3 d3 c4 d4) green2.
With turns 0 a card's top row is the north row of its slot (docs/card-game.md has the drawings):
  blue1 in A: T a2, S b2, R a1, C b1; a2|b2 portcullis, b2|b1 pit, a2|a3 wall (blue1's), b2|c2 slit.
  green1 in B: S c2, T d2, C c1, R d1; c2|d2 wall, c1|d1 portcullis, c2|c1 pit, d2 east slit, d1 south wall,
               c2|b2 pit (green1 W side of S).
  blue2 in C: R a4, C b4, T a3, S b3; a4|a3 slit, b4|b3 wall, a3|b3 pit, a4 north wall, b4|c4 pit, b3|b2 wall.
  green2 in D: T c4, R d4, S c3, C d3; c4|c3 portcullis, d4|d3 slit, c4|b4 wall, d4 north pit, d3 east wall,
               c3|c2 slit.
"""

from __future__ import annotations

import pytest

from dungeon_twister.engine.cards import Levitate, Move, apply, parse_action
from dungeon_twister.engine.cards.notation import zone_from
from dungeon_twister.engine.cards.setup import new_game
from dungeon_twister.engine.cards.state import CardOptions, Figure, Item, Player, Room
from dungeon_twister.engine.core.errors import IllegalAction

DEFAULT_ROOMS = (("blue1", 0), ("green1", 0), ("blue2", 0), ("green2", 0))


def z(name: str):
    return zone_from(name)


def build(figures: dict, items: dict | None = None, rooms=DEFAULT_ROOMS, revealed=(True, True, True, True),
          ap=(3, 0), active="B", jumps=(3, 3), vp=(0, 0), turn=3, combat=False, cards=None):
    """combat=True: melee combat is on and both hands hold the 9 combat cards (or `cards`, a pair of tuples).
    figures: id -> "a2" (zone) or "B1>a1" (start position facing a zone; "B1>T" an icon, pointed at a face-down
    room, DT-266) or "x" (exited), optional
    ("a2", {"wounded": True, "pin": "S"}) or "@bMK" (wounded, carried by bMK). items: id -> "a2" (floor), "B1"
    (lying on a start position) or "@bMK" (carried) or "seeded:A"."""
    base = new_game(CardOptions(tutorial=1), 0)
    figs = []
    for fid, spec in figures.items():
        extra = {}
        if isinstance(spec, tuple):
            spec, extra = spec
        seat = fid[0].upper()
        code = fid[1:3]
        if spec.startswith("@"):  # a wounded character carried by that figure (CG-CARRY-01)
            figs.append(Figure(fid, seat, code, "carried", spec[1:], None, True))
        elif spec == "x":
            figs.append(Figure(fid, seat, code, "exited", **extra))
        elif ">" in spec:
            pos, face = spec.split(">")
            # an icon's letter while the room in front is face down (DT-266), else a zone
            figs.append(Figure(fid, seat, code, "start", int(pos[1]) - 1, face if len(face) == 1 else z(face),
                               **extra))
        elif spec.startswith("seeded:"):
            figs.append(Figure(fid, seat, code, "seeded", "ABCD".index(spec[-1]), **extra))
        else:
            figs.append(Figure(fid, seat, code, "maze", z(spec), **extra))
    its = []
    for iid, spec in (items or {}).items():
        seat, code = iid[0].upper(), iid[1:3]
        if spec.startswith("@"):
            its.append(Item(iid, seat, code, "carried", spec[1:]))
        elif spec.startswith("seeded:"):
            its.append(Item(iid, seat, code, "seeded", "ABCD".index(spec[-1])))
        elif spec[:1] in "BY":  # lying on a start position (DT-206)
            its.append(Item(iid, seat, code, "floor", (spec[0], int(spec[1]) - 1)))
        else:
            its.append(Item(iid, seat, code, "floor", z(spec)))
    full = (0, 1, 2, 2, 3, 3, 4, 5, 6)
    hands = cards if cards is not None else ((full, full) if combat else ((), ()))
    loads = [(c.at, c.id) for c in its + figs if c.where == "carried"]
    figs = [Figure(f.id, f.seat, f.code, f.where, f.at, f.facing, f.wounded,
                   tuple(sorted(c for holder, c in loads if holder == f.id)), f.pin) for f in figs]
    return base.but(rooms=tuple(Room(c, t, r) for (c, t), r in zip(rooms, revealed)),
                    figures=tuple(sorted(figs, key=lambda f: f.id)), items=tuple(sorted(its, key=lambda i: i.id)),
                    players=tuple(Player(ap[i], jumps[i], vp[i], hands[i]) for i in (0, 1)), phase="main",
                    active=active, turn=turn, secret=(), placement=None, combat_on=combat)


def act(state, text, seat="B"):
    """The state after the action `text` of `seat`."""
    return apply(state, parse_action(text, seat))[0]


def refused(state, text, rule, seat="B"):
    """The action is refused citing `rule`; returns the IllegalAction."""
    with pytest.raises(IllegalAction) as e:
        apply(state, parse_action(text, seat))
    assert e.value.rule == rule, e.value
    return e.value


def fight(state, start, blue, yellow, seat="B"):
    """The combat `start` (by `seat`), Blue's and Yellow's cards: (the state after, the `combat` event's data)."""
    s = act(state, start, seat)
    s = act(s, f"card {blue}", "B")
    s2, events = apply(s, parse_action(f"card {yellow}", "Y"))
    return s2, next(e.data for e in events if e.kind == "combat")


def kind_first(rng, acts, first=()):
    """A random bot for random-game tests: an action of a kind in `first` when one is offered (tutorial 3 wants to
    see shots), else an exit when one is offered, else a uniformly drawn kind, then a uniform action of that kind."""
    preferred = [a for a in acts if isinstance(a, tuple(first))]
    if preferred:
        return rng.choice(preferred)
    ex = [a for a in acts if isinstance(a, Move) and a.path[-1][0] in "BY" and a.path[-1][0] != a.seat]
    if ex:
        return ex[0]
    kinds = sorted({type(a).__name__ for a in acts})
    k = rng.choice(kinds)
    return rng.choice([a for a in acts if type(a).__name__ == k])


PATHS = (Move, Levitate)
"""Actions listed once per outcome, by the shortest path the generator finds (DT-217)."""


def same_move_or_refused(state, move, generated) -> None:
    """A move (or a levitation) not generated is refused, or reaches what a generated one of the same kind and
    figure reaches (DT-217: listed once per outcome)."""
    try:
        after = apply(state, move)[0]
    except IllegalAction:
        return
    listed = [apply(state, a)[0] for a in generated if type(a) is type(move) and a.figure == move.figure]
    assert after in listed, f"{move} is accepted, and no generated action reaches what it reaches"


def accepted_iff_generated(state, candidates, generated) -> None:
    """Each candidate action applies if it was generated and is refused with IllegalAction if not; a move not
    generated may also reach what a generated one does (DT-217, same_move_or_refused)."""
    for a in candidates:
        if a in generated:
            apply(state, a)
        elif isinstance(a, PATHS):
            same_move_or_refused(state, a, generated)
        else:
            with pytest.raises(IllegalAction):
                apply(state, a)
