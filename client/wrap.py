"""Word wrapping of styled text for the side panes: prompt_toolkit's `wrap_lines` breaks a line at the window's
edge, mid-word ("you" / "r opponent's start zone"); the panes' texts are wrapped here first, at spaces, to the width
the pane has. A word longer than the whole width is still cut (the window's own wrapping then)."""

from __future__ import annotations

from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.utils import get_cwidth


def word_wrap(fragments: StyleAndTextTuples, width: int) -> StyleAndTextTuples:
    """The same text and styles, with a line break in place of the last space before each line would pass
    `width` columns; lines that fit, and the text's own line breaks, are kept as they are."""
    if width < 2:
        return fragments
    out: StyleAndTextTuples = []
    line: list[tuple[str, str]] = []  # the current line, one fragment per character
    columns = 0
    for fragment in fragments:
        style, text = fragment[0], fragment[1]
        for char in text:
            if char == "\n":
                out += _joined(line) + [(style, "\n")]
                line, columns = [], 0
                continue
            line.append((style, char))
            columns += get_cwidth(char)
            if columns > width:
                line, columns = _break(line, out, width)
    return out + _joined(line)


def _break(line: list[tuple[str, str]], out: StyleAndTextTuples, width: int) -> tuple[list, int]:
    """Move the head of an overlong line to `out`, broken at its last space within `width` columns (the space
    dropped); the rest starts the next line. No space there: the line is left to the window's own wrapping."""
    fitting, space = 0, None
    for index, (_style, char) in enumerate(line):
        if char == " ":
            space = index  # what comes before it fits (a space at the edge is dropped, so it may too)
        fitting += get_cwidth(char)
        if fitting > width:
            break
    if space is None or space == 0:
        return line, sum(get_cwidth(char) for _style, char in line)
    out += _joined(line[:space]) + [(line[space][0], "\n")]
    rest = line[space + 1:]
    return rest, sum(get_cwidth(char) for _style, char in rest)


def _joined(chars: list[tuple[str, str]]) -> StyleAndTextTuples:
    """One-character fragments merged back into runs of one style."""
    out: StyleAndTextTuples = []
    for style, char in chars:
        if out and out[-1][0] == style:
            out[-1] = (style, out[-1][1] + char)
        else:
            out.append((style, char))
    return out


def cell(text: str, width: int) -> str:
    """`text` in a column `width` terminal cells wide: padded with spaces, or cut with a "…" when it is wider. By
    the cells characters take on the screen, not their number: a CJK name takes two a character, and padded by
    its length it pushed the columns after it to the right."""
    taken = get_cwidth(text)
    if taken > width:
        kept, taken = [], 1  # (the "…")
        for char in text:
            if taken + get_cwidth(char) > width:
                break
            kept.append(char)
            taken += get_cwidth(char)
        text = "".join(kept) + "…"
    return text + " " * (width - taken)
