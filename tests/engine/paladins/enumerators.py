"""Candidate enumerators of Paladins & Dragons' action kinds for the generated == accepted comparison
(tests/engine/accepted.py): each lists its kind exhaustively over every parameter that could matter."""

from __future__ import annotations

from dungeon_twister.engine.boardgame.geometry import DIRECTIONS
from dungeon_twister.engine.paladins.charm import Charm
from dungeon_twister.engine.paladins.dragon import Breath
from dungeon_twister.engine.paladins.golem import Smash
from dungeon_twister.engine.paladins.illusionist import Dispel, Illusion
from dungeon_twister.engine.paladins.pickpocket import Steal
from dungeon_twister.engine.paladins.ring import Teleport
from dungeon_twister.engine.paladins.terrain import Fountain

from ..accepted import Env, register


def fountains(env: Env, seat: str):
    """PD-TERR-FOUNTAIN-02: every token drinking."""
    return (Fountain(seat, tid) for tid in env.ids)


register(Fountain, fountains)


def breaths(env: Env, seat: str):
    """PD-CHAR-DRAGON-01: every token breathing in every direction (and one word that is no direction)."""
    return (Breath(seat, tid, d) for tid in env.ids for d in (*DIRECTIONS, "x"))


register(Breath, breaths)


def steals(env: Env, seat: str):
    """PD-CHAR-PICKPOCKET-01: every token stealing every token."""
    return (Steal(seat, tid, item) for tid in env.ids for item in env.ids)


register(Steal, steals)


def teleports(env: Env, seat: str):
    """PD-OBJ-RING-01: every own character to every square of the board and its start zones (the Ring reaches a
    whole neighbouring room), every other token to the squares beside it."""
    everywhere = [(x, y) for x in range(-1, env.width + 1) for y in range(-2, env.state.height + 2)]
    for tid in env.ids:
        squares = everywhere if tid in env.own_figures(seat) else env.ball(env.square_of(tid), 1)
        yield from (Teleport(seat, tid, sq) for sq in squares)


register(Teleport, teleports)


def smashes(env: Env, seat: str):
    """PD-CHAR-GOLEM-01: every token breaking toward every direction (and one word that is no direction)."""
    return (Smash(seat, tid, d) for tid in env.ids for d in (*DIRECTIONS, "x"))


register(Smash, smashes)


def illusions(env: Env, seat: str):
    """PD-CHAR-ILLUS-01: every token placing either kind on every square of the board (an illusion goes anywhere
    on a line of sight), and one word that is no kind."""
    everywhere = [(x, y) for x in range(-1, env.width + 1) for y in range(-2, env.state.height + 2)]
    for tid in env.ids:
        squares = everywhere if tid in env.own_figures(seat) else env.ball(env.square_of(tid), 1)
        yield from (Illusion(seat, tid, kind, sq) for kind in ("pit", "rubble", "x") for sq in squares)


register(Illusion, illusions)


def dispels(env: Env, seat: str):
    """PD-CHAR-ILLUS-06: every token taking back either kind."""
    return (Dispel(seat, tid, kind) for tid in env.ids for kind in ("pit", "rubble", "x"))


register(Dispel, dispels)


def charms(env: Env, seat: str):
    """PD-OBJ-CHARM-01: every token charming every token."""
    return (Charm(seat, tid, target) for tid in env.ids for target in env.ids)


register(Charm, charms)
