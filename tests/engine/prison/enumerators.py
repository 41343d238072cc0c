"""Candidate enumerators of Prison's action kinds for the generated == accepted comparison
(tests/engine/accepted.py): each lists its kind exhaustively over every parameter that could matter."""

from __future__ import annotations

from dungeon_twister.engine.prison.shockwave import Push

from ..accepted import Env, register


def pushes(env: Env, seat: str):
    """PR-CHAR-BANSHEE-01: every token pushing every token (only a Banshee's first person on a line may be)."""
    return (Push(seat, tid, target) for tid in env.ids for target in env.ids)


register(Push, pushes)
