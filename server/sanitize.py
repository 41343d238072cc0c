"""What the server lets through to other players' screens: chat text is cleaned of control and bidi characters
(a chat message is one line). Names are checked by the protocol's rule (protocol/names.py) at hello.
"""

from __future__ import annotations

from dungeon_twister.protocol.names import unsafe

SPACING = frozenset("\t\n\r\v\f")
"""Control characters that separate words: a space in chat (a play-test's "line1\nline2" read "line1line2")."""


def clean_chat(text: str) -> str:
    """Chat text without unsafe characters (tabs and line breaks become spaces: a message is one line), without
    surrounding spaces."""
    return "".join(" " if char in SPACING else char for char in text if char in SPACING or not unsafe(char)).strip()
