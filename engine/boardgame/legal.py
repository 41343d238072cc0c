"""Every legal action of the seats that must act: what this lists applies, what it omits is refused."""

from __future__ import annotations

from collections.abc import Sequence
from operator import attrgetter

from . import combat, moves, rooms, rulebook, setup, turn
from .actions import ChooseTeam, CombatCard, EndTurn, Hide, PassPlacement, Place, PlayCard
from .board import board_of
from .movement import listed, occupancy
from .state import GameState
from ..core.choice import Chained, is_lazy
from ..core.listing import Listing


def legal_actions(state: GameState, seat: str | None = None) -> Sequence:
    """A list; in the main phase a `Listing` (core/listing.py: a sequence that makes its moves as they are asked
    for); during a choice made of parts (a free team building) a lazy sequence (core/choice.py)."""
    to_act = state.to_act
    if len(to_act) == 1 and (seat is None or to_act[0] == seat):  # (one seat to act: most positions)
        return _for_seat(state, to_act[0])
    seats = [s for s in to_act if seat is None or s == seat]
    if len(seats) == 1:
        return _for_seat(state, seats[0])
    parts = [_for_seat(state, s) for s in seats]
    if any(is_lazy(p) for p in parts):
        return Chained(parts)
    out: list = []
    for p in parts:
        out.extend(p)
    return out


_TEAM_CHOICES: dict[tuple, tuple] = {}
TEAM_CHOICES_KEPT = 32
"""The team choices kept (`team_choices`): one entry per seat and kind of game at its team choice."""
TEAM_CHOICES_MOST = 20_000
"""The choices kept in all entries together, at most (the newest entry is kept whatever its size): some 0.45 kB a
choice with its text (notation keeps them beside it). Teams drawn from a mix of sets (PD-TEAM-02) give every game
inputs of its own, so no entry served two games, and 32 of them held 24 MB of 1,680 choices each (session 31,
tracemalloc: 20 drawn `mixed` games); 20,000 keep about 12 such entries, 9 MB, and games alike (a set's own teams,
mutual picks) still share theirs. Made again, an entry costs 0.1-0.2 s: the least recently used goes first."""


def team_choices(state: GameState, seat: str) -> tuple:
    """The seat's team choices (BG-SETUP-04: the ChooseTeam of `setup.team_options`), kept by what they follow
    from (`setup.team_inputs`, with the seat): every game of the same options lists the same ones at its team
    choice, which a server lists again for each view while a player thinks (1,680 in a standard game: ~14 ms a
    seat to make and format) and for each commitment (table.committed). Actions are immutable, so games share
    them (notation keeps their texts beside them); the least recently used entry goes beyond TEAM_CHOICES_KEPT
    entries or TEAM_CHOICES_MOST choices."""
    key = (seat, *setup.team_inputs(state, seat))
    found = _TEAM_CHOICES.pop(key, None)
    if found is None:
        found = tuple(ChooseTeam(seat, team, removed) for team, removed in setup.team_options(state, seat))
        total = len(found) + sum(map(len, _TEAM_CHOICES.values()))
        while _TEAM_CHOICES and (len(_TEAM_CHOICES) >= TEAM_CHOICES_KEPT or total > TEAM_CHOICES_MOST):
            total -= len(_TEAM_CHOICES.pop(next(iter(_TEAM_CHOICES))))
    _TEAM_CHOICES[key] = found  # (the last used last: the least recently used is the first)
    return found


def _for_seat(state: GameState, seat: str) -> list:
    phase = state.phase
    if phase != "main":
        for generator in rulebook.seat_actions(state.catalogue.rules):
            offered = generator(state, seat)
            if offered:
                return offered  # a set's own step (the Telepath's naming) comes before the phase's actions
    if phase == "team":
        return list(team_choices(state, seat))
    if phase == "hide":
        hidden: dict = {}  # room slot -> tokens hidden there (`setup.hidden_count` of each, in one look)
        mine = []
        for t in state.tokens.values():
            if t.where == "room":
                hidden[t.room] = hidden.get(t.room, 0) + 1
            elif t.where == "screen" and t.colour == seat:
                mine.append(t.id)
        mine.sort()
        slots = [p.slot for p in state.rooms if hidden.get(p.slot, 0) < setup.capacity(state, p.slot)]
        return [Hide(seat, tid, slot) for tid in mine for slot in slots]
    if phase == "card":
        return [PlayCard(seat, v) for v in sorted(set(state.players[seat].actions)) if turn.card_allowed(state, v) is None]
    if phase == "combat":
        if state.combat.naming:
            return []  # the naming step is a Prison rule module's (engine/prison/telepath.py)
        forced = combat.forced_card(state, seat)
        return [CombatCard(seat, v) for v in sorted(set(state.players[seat].combat)) if forced in (None, v)]
    if phase == "place":
        board = board_of(state)
        squares = rooms.free_squares(state, board, state.placement.slot)
        out = [Place(seat, tid, sq) for tid in rooms.placeable_tokens(state) for sq in squares]
        p = state.placement
        if p.placer != p.revealer:
            out.append(PassPlacement(seat))
        return out
    if phase == "main":
        return _main(state, seat)
    return []


_ENDING: dict[str, tuple] = {}
"""seat -> the part (EndTurn(seat),) that starts its main-phase listing: actions are immutable values, one for the
process (a frozen dataclass's `__init__` sets its field through `object.__setattr__`: made once, not each position)."""


def _main(state: GameState, seat: str) -> Listing:
    """EndTurn, then each figure's actions, as one sequence whose moves are made as they are asked for."""
    ending = _ENDING.get(seat)
    if ending is None:
        ending = _ENDING[seat] = (EndTurn(seat),)
    parts: list = [ending]
    for figure_parts, _ in _main_parts(state, seat):
        parts.extend(figure_parts)
    return Listing(parts)


_ID = attrgetter("id")


def _characters(state: GameState, seat: str, controlled) -> list:
    """The seat's characters on the board (and those it controls), in id order. The ids of each colour's characters
    are listed once by a full occupancy (`Occupancy.characters`) and handed on to the occupancies made from it: a
    state whose `_delta` is against the memo's occupancy (or whose own it is) has the same tokens' ids, colours and
    kinds (`Ctx.put` changes where tokens are and how, and a state it added a token to has no delta), so only
    those ids are looked at, not every token sorted (28 in a standard game)."""
    memo = state._memo
    occ = memo.occ if memo is not None else None
    if occ is not None and not controlled:
        delta = state._delta
        if (delta is not None and delta[0] == occ.serial) or (memo.state is not None and memo.state() is state):
            tokens = state.tokens
            return [t for t in map(tokens.__getitem__, occ.characters.get(seat, ())) if t.where == "board"]
    return sorted((t for t in state.tokens.values() if (t.colour == seat or t.id in controlled)
                   and t.where == "board" and t.is_character), key=_ID)


def _main_parts(state: GameState, seat: str):
    """The seat's main-phase actions after EndTurn, per figure in id order: (its actions as a sequence per rule
    module, the figure's memo entry whose `everything` they are, or None)."""
    board = board_of(state)
    rules = state.options.catalogue.rules
    generators = rulebook.modules(rules)
    memo = rulebook.reach_only(rules)
    occ = None  # the state's occupancy, which every figure's memo key reads: looked up once, when first needed
    controlled = {figure for name, figure in state.marks.items() if name.startswith(f"control:{seat}:")} \
        if state.marks else ()  # charmed (PD-OBJ-CHARM-02)
    pools = state.pools  # (Speed Potions' AP: mostly none)
    for token in _characters(state, seat, controlled):
        if token.wounded:
            for module in generators:
                if module.wounded_actions:
                    yield (module.wounded_actions(state, board, seat, token),), None
        elif token.id not in state.exhausted and ((pools and pools.get(token.id, 0) > 0)
                                                  or (state.ap > 0 and token.colour == seat)):
            if memo and occ is None:
                occ = occupancy(state)
            entry = moves.entry(state, board, seat, token, occ) if memo else None
            if entry is not None and entry.everything is not None:
                yield entry.everything, entry  # nothing the figure's actions depend on has changed (moves._key)
                continue
            mine: list = []
            for module in generators:
                if entry is not None and module.figure_actions is moves.figure_actions:
                    mine.append(entry.actions)  # the same sequence, without computing the key again
                elif module.figure_actions:
                    mine.append(module.figure_actions(state, board, seat, token))
            if entry is not None:  # (an empty part as the one empty tuple: a list each took ~1.5 KB of a game)
                entry.everything = tuple([part if part else () for part in mine])
            yield mine, entry
    listed(state)
