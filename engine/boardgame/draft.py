"""Team building by mutual choice in a mixed game (PD-TEAM-02/03, PD-TEAM-MUTUAL-01..04, RUL-073).

Every character, object and room pair of the sets in use is in the pool (PD-TEAM-03). A draw at setup names who
picks first. Rooms: the first player picks a pair, the other a pair, and so on until the set's mix has its pairs
(4): they are laid face down in the layout drawn at setup (`Draft.deal`). Characters: the first player shows one
and both take it, then the other shows one, and so on to 8: both teams are the same. Objects: the same to 6, the
other player starting (RUL-073). Then the game goes on as any other (BG-SETUP: the secret teams of four, the hidden
placement). Every pick is public. A mixed game whose teams are drawn from the seed instead (DT-109) has no draft.

Notation: `pick 37` (a pair), `pick WA` (a character or an object).

By free choice (hidden forces, PD-TEAM-FREE-01..03, phase "build"): both players choose at once and in secret
(commit-reveal, purpose "build") 2 room pairs, 8 characters and 6 objects of the pool, a common object up to once
per copy (PD-TEAM-COMMON-01): `build pairs=37,41 characters=CL,...,WA objects=FS,KY,KY,...`. That is 10^10 and
more possibilities, so the legal set is a `PartsChoice` (core/choice.py), described by its parts. Once both have
built, the chosen tokens go behind the screens (the rest into the box) and the 8 rooms are laid face down where
the setup's draw puts them. A pair both chose is in the maze once: the seat drawn first (`Draft.first`) keeps it,
the other's is replaced by the first pair of the setup's drawn order that neither chose (RUL-072); both players
are told which pair they shared (event `rooms_shared`), as they would be at a table, and nothing of the replacement.
"""

from __future__ import annotations

from dataclasses import replace

from .actions import Build, Pick
from .context import Ctx
from ..core.choice import Part, PartsChoice
from ..core.errors import N_, IllegalAction
from ..core.events import secret_event
from .state import SEATS, GameState, room_place

STAGE_RULES = {"rooms": "PD-TEAM-MUTUAL-01", "characters": "PD-TEAM-MUTUAL-02", "objects": "PD-TEAM-MUTUAL-03"}


def pool(state: GameState, stage: str) -> list[str]:
    """What may still be picked at this stage: pair numbers (as text) or codes, in a fixed order."""
    cat = state.catalogue
    taken = [value for kind, value in state.draft.picks if kind == stage]
    if stage == "rooms":
        values = sorted({str(room.number) for room in cat.rooms.values()}, key=int)
    elif stage == "characters":
        values = sorted(cat.characters)
    else:
        values = sorted(cat.objects)
    # a common object may be picked once per copy a colour holds (PD-TEAM-COMMON-01: two Ropes with two sets)
    return [v for v in values if taken.count(v) < (cat.copies.get(v, 1) if stage == "objects" else 1)]


def pick(ctx: Ctx, action: Pick) -> None:
    s = ctx.s
    if s.phase != "draft":
        raise IllegalAction("PD-TEAM-MUTUAL-01", "no team is being built by mutual choice")
    stage, _ = s.draft_stage()
    if action.seat != s.draft_picker():
        raise IllegalAction(STAGE_RULES[stage], "it is the other player's pick")
    if action.value not in pool(s, stage):
        template = {"rooms": N_("{value} is not a room pair left to pick now"),
                    "characters": N_("{value} is not a character left to pick now"),
                    "objects": N_("{value} is not a object left to pick now")}[stage]
        raise IllegalAction(STAGE_RULES[stage], template, value=action.value)
    s.draft = type(s.draft)(s.draft.mode, s.draft.first, s.draft.picks + ((stage, action.value),), s.draft.deal)
    if stage != "rooms":  # PD-TEAM-MUTUAL-02/04: both players take what one shows (the next copy of a common one)
        for seat in SEATS:
            tid = next(tid for tid in s.catalogue.token_ids(seat, action.value) if s.tokens[tid].where == "unused")
            ctx.put(s.tokens[tid].moved(where="screen"))
    ctx.emit("picked", seat=action.seat, stage=stage, value=action.value)
    now, _ = s.draft_stage()
    if stage == "rooms" and now != "rooms":
        _lay_rooms(ctx)
    if now == "done":  # PD-TEAM-MUTUAL-04: the teams are built; the setup goes on (BG-SETUP-04)
        s.draft = None
        s.phase = "team"
        ctx.emit("teams_built")


def _lay_rooms(ctx: Ctx, numbers: set[int] | None = None) -> None:
    """PD-TEAM-MUTUAL-01, PD-TEAM-FREE-02: the chosen pairs are laid face down where the setup's draw puts them
    (`Draft.deal`), in tile order."""
    s = ctx.s
    if numbers is None:
        numbers = {int(value) for kind, value in s.draft.picks if kind == "rooms"}
    tiles = sorted(tile for tile, room in s.catalogue.rooms.items() if room.number in numbers)
    count = len(tiles)
    order, orientations = s.draft.deal[:count], s.draft.deal[count:2 * count]
    s.rooms = tuple(room_place((i % 2, i // 2), tiles[order[i]], orientations[i], False) for i in range(count))
    ctx.layout_changed()


def seat_actions(state: GameState, seat: str):
    if state.phase == "build":
        return build_choice(state, seat) if seat in state.to_act else []
    if state.phase != "draft" or seat != state.draft_picker():
        return []
    stage, _ = state.draft_stage()
    return [Pick(seat, value) for value in pool(state, stage)]


# --- free choice (hidden forces) ---------------------------------------------------------------------------
def build_parts(state: GameState) -> tuple[Part, ...]:
    """What a free build chooses (PD-TEAM-FREE-01/02): the seat's share of the mix's pairs (2 of every pair of
    the sets in use), the mix's characters (8) and objects (6), a common object up to its copies."""
    cat = state.catalogue
    parts = _PARTS.get(cat.name)
    if parts is None:
        parts = _PARTS[cat.name] = _parts(cat)
    return parts


_PARTS: dict[str, tuple[Part, ...]] = {}  # one per set (a catalogue is data: the same for every game of its set)


def _parts(cat) -> tuple[Part, ...]:
    mix = cat.mix
    pairs = tuple(str(n) for n in sorted({room.number for room in cat.rooms.values()}))
    characters, objects = tuple(sorted(cat.characters)), tuple(sorted(cat.objects))
    # a common object more often than the seat holds it is PD-TEAM-COMMON-01's
    return (Part("pairs", mix["pairs"] // len(SEATS), pairs, (1,) * len(pairs), "PD-TEAM-FREE-02"),
            Part("characters", mix["characters"], characters, (1,) * len(characters), "PD-TEAM-FREE-01"),
            Part("objects", mix["objects"], objects, tuple(cat.copies.get(code, 1) for code in objects),
                 "PD-TEAM-FREE-01", "PD-TEAM-COMMON-01"))


def build_choice(state: GameState, seat: str) -> PartsChoice:
    """Every free build of the seat, lazily (its `parts` describe it)."""
    return PartsChoice(build_parts(state),
                       lambda chosen: Build(seat, tuple(int(n) for n in chosen[0]), chosen[1], chosen[2]),
                       lambda a: (tuple(map(str, a.pairs)), a.characters, a.objects)
                       if type(a) is Build and a.seat == seat else None)


def build(ctx: Ctx, action: Build) -> None:
    s = ctx.s
    if s.phase != "build":
        raise IllegalAction("PD-TEAM-FREE-01", "no team is being built by free choice")
    chosen = (tuple(map(str, action.pairs)), action.characters, action.objects)
    for part, values in zip(build_parts(s), chosen):
        why = part.refusal(list(values))
        if why is not None:
            raise IllegalAction(part.refusal_rule(why[0]), why[0], **why[1])
    d = s.draft
    s.draft = replace(d, builds=d.builds + ((action.seat, action.pairs, action.characters, action.objects),))
    ctx.events.append(secret_event(
        "built", action.seat,
        {"seat": action.seat, "pairs": list(action.pairs), "characters": list(action.characters),
         "objects": list(action.objects)},
        {"seat": action.seat}))
    if len(s.draft.builds) == len(SEATS):
        _built(ctx)


def _built(ctx: Ctx) -> None:
    """Both have chosen: the pairs (RUL-072 for a pair both chose), the rooms laid, the tokens behind the screens."""
    s = ctx.s
    d = s.draft
    first, = (b for b in d.builds if b[0] == d.first)
    other, = (b for b in d.builds if b[0] != d.first)
    count = 2 * s.catalogue.mix["pairs"]
    kept = list(first[1])
    shared = sorted(n for n in other[1] if n in kept)
    spare = (n for n in d.deal[2 * count:] if n not in first[1] and n not in other[1])
    numbers = kept + [n if n not in shared else next(spare) for n in other[1]]
    if shared:  # RUL-072: both find they chose it; nobody sees what replaces it
        ctx.emit("rooms_shared", pairs=shared, kept_by=d.first)
    _lay_rooms(ctx, set(numbers))
    for seat, _, characters, objects in d.builds:
        for code in (*characters, *objects):
            tid = next(tid for tid in s.catalogue.token_ids(seat, code) if s.tokens[tid].where == "unused")
            ctx.put(s.tokens[tid].moved(where="screen"))
    s.draft = None
    s.phase = "team"
    ctx.emit("teams_built")
