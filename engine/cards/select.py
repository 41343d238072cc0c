"""A scenario's team selection (CG-SEL), played before the tutorials' setup (CG-SCEN-02):

- mutual choice (equal forces, CG-SEL-MUTUAL-01): a random first player shows one of his characters and the
  opponent must take the same; then the opponent shows one, which the first must take; ... until both have the
  scenario's number. Objects the same way, the other player starting. Every pick is public (`pick WA`).
- full frontal (secret forces, CG-SEL-FULL-01): each player chooses his characters and objects in secret, both
  at once (commit-reveal purpose "build": `build characters=BK,CB,CL,MK,SN,WA objects=BW,KY,KY,SH`). Nobody sees
  the other's team: it shows as its start characters are revealed and its rooms are.
- draft (CG-SEL-DRAFT-01): from a random first player, each in turn takes one of his characters and removes the
  opponent's matching one from the game; objects the same way (a kind with two cards: one of each), the other
  player starting.

Then the teams' cards exist (`bWA`, `yKY`, a second copy `yKY2`) and the game goes on as a tutorial's: the hidden
start characters (phase "hide").
"""

from __future__ import annotations

from ..core.choice import Part, PartsChoice
from ..core.errors import IllegalAction
from ..core.events import event, secret_event
from .actions import Build, Pick
from .catalogue import load
from .state import SEATS, CardState, Figure, Item, Selection, opponent, replaced

RULE = {"mutual": "CG-SEL-MUTUAL-01", "draft": "CG-SEL-DRAFT-01", "full": "CG-SEL-FULL-01"}


def counts(state: CardState) -> tuple[int, int]:
    """How many characters and objects each player's team holds in this scenario (CG-SCEN-01)."""
    setup = state.options.setup
    return setup["characters"], setup["objects"]


def _side(pair: tuple, seat: str) -> tuple:
    return pair[SEATS.index(seat)]


def _with(pair: tuple, seat: str, value) -> tuple:
    out = list(pair)
    out[SEATS.index(seat)] = value
    return tuple(out)


def _pool(stage: str) -> list[str]:
    cat = load()
    return sorted(cat.characters) if stage == "characters" else sorted(code for code, _ in cat.object_deck)


def _held(sel: Selection, seat: str) -> tuple:
    return _side(sel.teams if sel.stage == "characters" else sel.kits, seat)


def _room_for(sel: Selection, seat: str, code: str) -> bool:
    """Whether `seat` may still take a card `code` in this stage: a character once, an object once per copy in
    his deck (CG-COMP-02), minus the matching cards the opponent removed in a draft."""
    copies = 1 if sel.stage == "characters" else load().copies(code)
    return _held(sel, seat).count(code) + _side(sel.out, seat).count(code) < copies


def pickable(state: CardState, seat: str) -> list[str]:
    """The codes `seat` may pick now (mutual: the opponent must be able to take it too)."""
    sel = state.selection
    if state.phase != "select" or sel is None or sel.picker != seat:
        return []
    both = sel.mode == "mutual"
    return [code for code in _pool(sel.stage)
            if _room_for(sel, seat, code) and (not both or _room_for(sel, opponent(seat), code))]


def pick(state: CardState, a: Pick):
    sel = state.selection
    if state.outcome is not None or state.phase != "select" or sel is None or sel.mode == "full":
        raise IllegalAction("CG-SEL-MUTUAL-01" if sel is None else RULE[sel.mode],
                            "no team is being picked card by card now")
    rule = RULE[sel.mode]
    if a.seat != sel.picker:
        raise IllegalAction(rule, "it is your opponent's turn to pick")  # (not "Y picks now": a seat letter)
    if a.code not in _pool(sel.stage):
        # the order taught (play-test pl31: `pick KY` while a character was due read "KY is not one of the
        # characters"): the characters are picked first, then the objects (CG-SEL-MUTUAL-01, CG-SEL-DRAFT-01)
        if sel.stage == "characters":
            if a.code in _pool("objects"):
                raise IllegalAction(rule, "{code} is an object: the characters are picked first, the objects after "
                                          "them", code=a.code)
            raise IllegalAction(rule, "{code} is not one of the characters", code=a.code)
        if a.code in _pool("characters"):
            raise IllegalAction(rule, "{code} is a character: the characters are all picked, the objects now",
                                code=a.code)
        raise IllegalAction(rule, "{code} is not one of the objects", code=a.code)
    if a.code not in pickable(state, a.seat):
        if a.code in _side(sel.out, a.seat):
            raise IllegalAction(rule, "{code} cannot be picked: the opponent took his copy", code=a.code)
        raise IllegalAction(rule, "{code} cannot be picked: your team already holds it", code=a.code)
    field = "teams" if sel.stage == "characters" else "kits"
    held = getattr(sel, field)
    if sel.mode == "mutual":  # both take it
        held = tuple(tuple(sorted(side + (a.code,))) for side in held)
        out = sel.out
    else:  # draft: the picker takes it; the opponent's matching card leaves the game
        held = _with(held, a.seat, tuple(sorted(_side(held, a.seat) + (a.code,))))
        other = opponent(a.seat)
        out = _with(sel.out, other, tuple(sorted(_side(sel.out, other) + (a.code,))))
    sel = _replace(sel, **{field: held}, out=out, count=sel.count + 1)
    events = [event("picked", seat=a.seat, stage=sel.stage, code=a.code, mode=sel.mode)]
    characters, objects = counts(state)
    wanted = characters if sel.stage == "characters" else objects
    if all(len(_side(getattr(sel, field), s)) >= wanted for s in SEATS):
        if sel.stage == "characters":
            sel = _replace(sel, stage="objects", count=0, out=((), ()))
        else:
            return _finish(state, sel.teams, sel.kits, events)
    return state.but(selection=sel), events


BUILD_RULE = "CG-SEL-FULL-01"
"""The rule a refused full frontal team cites, whatever part breaks it (`Part.rule`)."""


def parts(state: CardState) -> tuple[Part, ...]:
    """A full frontal team as its two parts: the scenario's number of the 25 characters, and of the objects of a
    player's deck (a kind with two cards may be chosen twice)."""
    characters, objects = counts(state)
    cat = load()
    kinds = sorted(code for code, _ in cat.object_deck)
    return (Part("characters", characters, tuple(sorted(cat.characters)), (1,) * len(cat.characters), BUILD_RULE),
            Part("objects", objects, tuple(kinds), tuple(cat.copies(code) for code in kinds), BUILD_RULE))


def build_choice(state: CardState, seat: str) -> PartsChoice:
    """Every full frontal team of the seat, lazily (core/choice.py)."""
    return PartsChoice(parts(state), lambda chosen: Build(seat, chosen[0], chosen[1]),
                       lambda a: (a.characters, a.objects) if type(a) is Build and a.seat == seat else None)


def build(state: CardState, a: Build):
    sel = state.selection
    if state.outcome is not None or state.phase != "select" or sel is None or sel.mode != "full":
        raise IllegalAction("CG-SEL-FULL-01", "no team is being chosen in secret now")
    if a.seat not in state.to_act:
        raise IllegalAction("CG-SEL-FULL-01", "your team is chosen")
    for part, chosen in zip(parts(state), (a.characters, a.objects)):
        why = part.refusal(list(chosen))
        if why is not None:
            raise IllegalAction(part.refusal_rule(why[0]), why[0], **why[1])
    choice = (tuple(sorted(a.characters)), tuple(sorted(a.objects)))
    secret = state.secret + ((a.seat, choice),)
    events = [secret_event("built", a.seat, {"seat": a.seat, "characters": list(choice[0]),
                                             "objects": list(choice[1])}, {"seat": a.seat})]
    if len(secret) < 2:
        return state.but(secret=secret), events
    chosen = dict(secret)
    teams = tuple(chosen[s][0] for s in SEATS)
    kits = tuple(chosen[s][1] for s in SEATS)
    return _finish(state.but(secret=()), teams, kits, events)


def _finish(state: CardState, teams: tuple, kits: tuple, events: list):
    """The teams' cards come into being, in hand; the setup of the tutorials follows (CG-SCEN-02)."""
    figures, items = [], []
    for seat, codes in zip(SEATS, teams):
        figures += [Figure(f"{seat.lower()}{code}", seat, code, "hand") for code in codes]
    for seat, codes in zip(SEATS, kits):
        seen: dict[str, int] = {}
        for code in codes:
            seen[code] = seen.get(code, 0) + 1
            suffix = "" if seen[code] == 1 else str(seen[code])
            items.append(Item(f"{seat.lower()}{code}{suffix}", seat, code, "hand"))
    events.append(event("teams_selected", mode=state.selection.mode))
    phase = "hide" if state.options.handicap is None else "handicap"  # CG-HCAP-03: after the selection
    return state.but(figures=tuple(sorted(figures, key=lambda f: f.id)),
                     items=tuple(sorted(items, key=lambda i: i.id)), selection=None, phase=phase), events


_replace = replaced
