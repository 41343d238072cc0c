"""Word wrapping of styled text for the side panes: prompt_toolkit's `wrap_lines` breaks a line at the window's
edge, mid-word ("you" / "r opponent's start zone"); the panes' texts are wrapped here first, at spaces, to the width
the pane has. A word longer than the whole width is still cut (the window's own wrapping then)."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

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
    dropped); the rest starts the next line. No space there: after its last "|" within them (a notation's
    alternatives, `create`'s "[prison|mixed|...|all_sets]", longer than a 60-column line: i18n32 saw it cut), else
    the line is left to the window's own wrapping."""
    fitting, space, bar = 0, None, None
    for index, (_style, char) in enumerate(line):
        if char == " ":
            space = index  # what comes before it fits (a space at the edge is dropped, so it may too)
        fitting += get_cwidth(char)
        if fitting > width:
            break
        if char == "|" and index > 0:
            bar = index  # (kept at the line's end: it fits)
    if space is None or space == 0:
        if bar is None:
            return line, sum(get_cwidth(char) for _style, char in line)
        out += _joined(line[:bar + 1]) + [(line[bar][0], "\n")]
        rest = line[bar + 1:]
        return rest, sum(get_cwidth(char) for _style, char in rest)
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


ENTRY = "\t"
"""In a help text (`Laid`), what stands between an entry's command or symbol and its explanation: the box sets the
explanations in a column that fits its width (`lay_out`)."""
EXPLANATION_MIN = 36
"""The columns an explanation keeps at least beside its command: a longer command has its explanation below it."""
COLUMN_MAX = 40
"""The explanations' column is never farther right (on a wide terminal: a long command has its own line)."""
HANG_MIN = 20
"""The columns a hanging line keeps at least: a deeper indent gives way to a shallow one on a narrow box."""


def entries(text: str) -> str:
    """A command list or a legend, each line "COMMAND   explanation" (two spaces or more between them, as the
    translations keep them too), marked for `lay_out`: `ENTRY` in place of those spaces. Lines of one word run, or
    with no such gap, are left as they are."""
    return "\n".join(re.sub(r"^( ?\S+(?: \S+)*) {2,}(?=\S)", lambda match: match[1] + ENTRY, line, count=1)
                     for line in text.split("\n"))


class Laid(str):
    """A help text the help box lays out for its width (`at_width`): its entries' explanations in a column, every
    line broken at spaces with a hanging indent. As a str, it is laid out for an unbounded width (no line broken):
    the texts the help had before, and what tests read. (Help texts broke their lines by hand for a wide terminal;
    on 80 columns the box broke them again, a fragment at column 0 and the hand continuation indented: play-test
    pt29 F3, F27, F29.)"""

    marked: str
    goal = False
    """A game's introduction (help.goal_box): it goes with its table (ClientState._reset_table)."""

    def __new__(cls, marked: str) -> "Laid":
        laid = super().__new__(cls, lay_out(marked, None))
        laid.marked = marked
        return laid

    def at_width(self, width: int) -> str:
        return lay_out(self.marked, width)


class Fitted(str):
    """A help-box text drawn anew for the box's width by `draw(width)`; as a str, drawn for an unbounded width
    (None). The finished games' list: its rows fit the width."""

    draw: Callable[[int | None], str]

    def __new__(cls, draw: Callable[[int | None], str]) -> "Fitted":
        fitted = super().__new__(cls, draw(None))
        fitted.draw = draw
        return fitted

    def at_width(self, width: int) -> str:
        return self.draw(width)


def at_width(text: str, width: int) -> str:
    """What the help box shows of `text` in `width` columns: a `Laid` or `Fitted` text laid out for them, another as
    it is."""
    return text.at_width(width) if isinstance(text, (Laid, Fitted)) else text


@lru_cache(maxsize=64)
def lay_out(marked: str, width: int | None) -> str:
    """`marked` (lines, some of them entries: `entries`) in `width` columns (None: no bound). The entries'
    explanations start in one column, two after a command's end, that leaves them `EXPLANATION_MIN` columns at
    least and is not beyond `COLUMN_MAX`: of those, the one that takes the fewest lines (the farthest of equals);
    a longer command has its explanation on the next line, in that column. Every line is broken at spaces to the
    width, its continuation lines indented as far as its explanation (an entry) or as its own first word (another
    line)."""
    lines = marked.split("\n")
    bound = COLUMN_MAX if width is None else min(COLUMN_MAX, width - EXPLANATION_MIN)
    columns = {get_cwidth(line.split(ENTRY, 1)[0]) + 2 for line in lines if ENTRY in line} | {4}
    laid = [_laid_out(lines, width, column) for column in sorted(columns, reverse=True) if column <= max(4, bound)]
    return "\n".join(min(laid, key=len))


def _laid_out(lines: list[str], width: int | None, column: int) -> list[str]:
    """`lay_out` with the explanations in `column`."""
    out: list[str] = []
    for line in lines:
        if ENTRY not in line:
            indent = len(line) - len(line.lstrip(" "))
            out += _hung(line[:indent], line[indent:], width, indent)
            continue
        command, explanation = line.split(ENTRY, 1)
        if get_cwidth(command) + 2 <= column:
            out += _hung(command + " " * (column - get_cwidth(command)), explanation, width, column)
        else:
            indent = len(command) - len(command.lstrip(" "))
            out += _hung(command[:indent], command[indent:], width, indent + 2)
            out += _hung(" " * column, explanation, width, column)
    return out


def _hung(head: str, body: str, width: int | None, indent: int) -> list[str]:
    """`head` then `body`'s words, broken at spaces into lines of `width` columns at most (a word longer than that
    is left whole), each after the first indented by `indent` spaces (fewer on a narrow box: `HANG_MIN`)."""
    if width is None or get_cwidth(head + body) <= width:
        return [(head + body).rstrip()]
    if width - indent < HANG_MIN:
        indent = min(indent, 2)
    lines, current, bare = [], head, True  # bare: nothing of the body on the current line yet
    for word in body.split(" "):
        if not bare and get_cwidth(current) + 1 + get_cwidth(word) > width:
            lines.append(current.rstrip())
            current, bare = " " * indent + word, not word
        else:
            current, bare = (current + word, not word) if bare else (current + " " + word, False)
    return lines + [current.rstrip()]
