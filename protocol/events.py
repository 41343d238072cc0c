"""Events that next_event() returns besides messages."""

from __future__ import annotations

from dataclasses import dataclass

from .errors import ProtocolError
from .registry import Message


@dataclass(frozen=True, slots=True)
class RevealMismatch:
    """The opponent's reveal does not open the commitment the server forwarded (or none was forwarded):
    the server or the opponent cheated. Show it to the user; the choice must not be trusted."""

    table: str
    purpose: str
    seat: str
    choice: str


Event = Message | ProtocolError | RevealMismatch
"""What next_event() returns; it returns None when it needs more data or the connection is closed."""
