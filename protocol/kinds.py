"""Field kinds shared by several messages, with their limits."""

from .wire_types import Int, OneOf, Str

SEATS = ("B", "Y")

SEAT = OneOf(SEATS)
TABLE_ID = Str(64)
NAME = Str(32)
"""A user's display name."""
TOKEN = Str(128)
CODE = Str(64)
"""An error or refusal code (see the error registry); receivers accept codes they do not know."""
TEXT = Str(1000, min_len=0)
"""Free text for humans: reasons and error messages."""
CHAT_TEXT = Str(500)
ACTION_TEXT = Str(256)
"""An action in canonical action notation."""
ACTION_ID = Str(64)
PURPOSE = Str(64)
EVENT_NUMBER = Int(0)
"""A per-table event sequence number; events count from 1, 0 means "none yet"."""
