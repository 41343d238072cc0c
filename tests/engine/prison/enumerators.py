"""Candidate enumerators of Prison's action kinds for the generated == accepted comparison
(tests/engine/accepted.py): each lists its kind exhaustively over every parameter that could matter."""

from __future__ import annotations

from dungeon_twister.engine.prison.lance import Lance
from dungeon_twister.engine.prison.ranged import Shoot
from dungeon_twister.engine.prison.shockwave import Push
from dungeon_twister.engine.prison.telepath import MindControl

from ..accepted import Env, register


def pushes(env: Env, seat: str):
    """PR-CHAR-BANSHEE-01: every token pushing every token (only a Banshee's first person on a line may be)."""
    return (Push(seat, tid, target) for tid in env.ids for target in env.ids)


register(Push, pushes)


def shots(env: Env, seat: str):
    """PR-RANGED-01/09: every token shooting every token; joined by one other character of the seat's that carries
    something (a joiner needs a Bow: bounded by that rule, the others are refused alike); the generated shots
    joined by several are added by the comparison (`partly`)."""
    carriers = [tid for tid in env.own_figures(seat)
                if any(sq == env.on_board[tid] and other != tid for other, sq in env.on_board.items())]
    return (Shoot(seat, tid, target, joiners) for tid in env.ids for target in env.ids
            for joiners in ((), *((other,) for other in carriers if other != tid)))


register(Shoot, shots, partly=True)


def lances(env: Env, seat: str):
    """PR-OBJ-LANCE-01: every token attacking every token with a lance."""
    return (Lance(seat, tid, target) for tid in env.ids for target in env.ids)


register(Lance, lances)


def namings(env: Env, seat: str):
    """PR-CHAR-TELEPATH-01: nothing, or every value from -1 to +7."""
    return [MindControl(seat, None), *(MindControl(seat, v) for v in range(-1, 8))]


register(MindControl, namings, phase="combat")
