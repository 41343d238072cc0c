"""Text from other people on our screen, harmless: names, chat, table names and the server's free text could carry
terminal control sequences (clear the screen, move the cursor, set the window title, draw a fake prompt) or
Unicode direction overrides that make a text read as another. Every fragment the screens draw goes through
`printable`, which shows such characters as visible escapes (`\\x1b`, `\\u202e`) instead of sending them to
the terminal. The server sanitises too; the client does not rely on it.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable

from prompt_toolkit.formatted_text import StyleAndTextTuples

VISIBLE_CATEGORIES = {"Cc", "Cf", "Zl", "Zp", "Cs"}
"""Control characters (C0, DEL, C1), format characters (direction marks and overrides, zero-width characters),
line and paragraph separators, lone surrogates."""


def printable(text: str, *, newlines: bool = False) -> str:
    """`text` with every control or format character replaced by its escape; `newlines`: keep "\\n"."""
    if text.isprintable() and text.isascii():
        return text
    return "".join(_escape(char) if unicodedata.category(char) in VISIBLE_CATEGORIES and not (
        newlines and char == "\n") else char for char in text)


def _escape(char: str) -> str:
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def printable_fragments(fragments: StyleAndTextTuples) -> StyleAndTextTuples:
    """The fragments with their texts made printable (newlines kept: the screens use them to break lines)."""
    return [(style, printable(text, newlines=True), *rest)  # type: ignore[misc]
            for style, text, *rest in fragments]


def printable_source(get_fragments: Callable[[], StyleAndTextTuples]) -> Callable[[], StyleAndTextTuples]:
    """Wrap a fragment source of the screens so that what it returns is printable."""
    return lambda: printable_fragments(get_fragments())
