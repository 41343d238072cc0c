"""Candidate enumerators of Paladins & Dragons' action kinds for the generated == accepted comparison
(tests/engine/accepted.py): each lists its kind exhaustively over every parameter that could matter."""

from __future__ import annotations

from dungeon_twister.engine.paladins.terrain import Fountain

from ..accepted import Env, register


def fountains(env: Env, seat: str):
    """PD-TERR-FOUNTAIN-02: every token drinking."""
    return (Fountain(seat, tid) for tid in env.ids)


register(Fountain, fountains)
