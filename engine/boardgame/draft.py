"""Team building by mutual choice in a mixed game (PD-TEAM-02/03, PD-TEAM-MUTUAL-01..04, RUL-073).

Every character, object and room pair of the sets in use is in the pool (PD-TEAM-03). A draw at setup names who
picks first. Rooms: the first player picks a pair, the other a pair, and so on until the set's mix has its pairs
(4): they are laid face down in the layout drawn at setup (`Draft.deal`). Characters: the first player shows one
and both take it, then the other shows one, and so on to 8: both teams are the same. Objects: the same to 6, the
other player starting (RUL-073). Then the game goes on as any other (BG-SETUP: the secret teams of four, the hidden
placement). Every pick is public. A mixed game whose teams are drawn from the seed instead (DT-109) has no draft.

Notation: `pick 37` (a pair), `pick WA` (a character or an object).
"""

from __future__ import annotations

from .actions import Pick
from .context import Ctx
from ..core.errors import IllegalAction
from .state import SEATS, GameState, RoomPlace

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
        what = {"rooms": "room pair", "characters": "character", "objects": "object"}[stage]
        raise IllegalAction(STAGE_RULES[stage], f"{action.value} is not a {what} left to pick now")
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


def _lay_rooms(ctx: Ctx) -> None:
    """PD-TEAM-MUTUAL-01: the picked pairs are laid face down where the setup's draw puts them (`Draft.deal`)."""
    s = ctx.s
    numbers = {int(value) for kind, value in s.draft.picks if kind == "rooms"}
    tiles = sorted(tile for tile, room in s.catalogue.rooms.items() if room.number in numbers)
    count = len(tiles)
    order, orientations = s.draft.deal[:count], s.draft.deal[count:2 * count]
    s.rooms = tuple(RoomPlace((i % 2, i // 2), tiles[order[i]], orientations[i], False) for i in range(count))
    ctx.layout_changed()


def seat_actions(state: GameState, seat: str) -> list:
    if state.phase != "draft" or seat != state.draft_picker():
        return []
    stage, _ = state.draft_stage()
    return [Pick(seat, value) for value in pool(state, stage)]
