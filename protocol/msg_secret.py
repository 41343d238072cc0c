"""Commit-reveal messages for simultaneous secret choices (see commit.py for the commitment)."""

from __future__ import annotations

from dataclasses import dataclass

from .commit import COMMITMENT_SIZE, NONCE_SIZE
from .fields import required
from .kinds import ACTION_TEXT, PURPOSE, SEAT, TABLE_ID
from .registry import Message, message
from .roles import Role
from .states import State
from .wire_types import Bin

SERVER = {Role.SERVER}
PLAYER = {Role.PLAYER}
AT_TABLE = {State.AT_TABLE}
COMMITMENT = Bin(COMMITMENT_SIZE)
NONCE = Bin(NONCE_SIZE)


@message("commit", sent_by=PLAYER, sent_to=SERVER, states=AT_TABLE)
@dataclass(frozen=True, slots=True)
class Commit(Message):
    table: str = required(TABLE_ID)
    purpose: str = required(PURPOSE)
    commitment: bytes = required(COMMITMENT)


@message("opponent_commit", sent_by=SERVER, sent_to=PLAYER, states=AT_TABLE)
@dataclass(frozen=True, slots=True)
class OpponentCommit(Message):
    """The other seat's commitment, sent once both commitments of the purpose are in."""

    table: str = required(TABLE_ID)
    purpose: str = required(PURPOSE)
    seat: str = required(SEAT)
    commitment: bytes = required(COMMITMENT)


@message("reveal", sent_by=PLAYER, sent_to=SERVER, states=AT_TABLE)
@dataclass(frozen=True, slots=True)
class Reveal(Message):
    table: str = required(TABLE_ID)
    purpose: str = required(PURPOSE)
    choice: str = required(ACTION_TEXT)
    nonce: bytes = required(NONCE)


@message("opponent_reveal", sent_by=SERVER, sent_to=PLAYER, states=AT_TABLE)
@dataclass(frozen=True, slots=True)
class OpponentReveal(Message):
    table: str = required(TABLE_ID)
    purpose: str = required(PURPOSE)
    seat: str = required(SEAT)
    choice: str = required(ACTION_TEXT)
    nonce: bytes = required(NONCE)
