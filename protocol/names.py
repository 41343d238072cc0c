"""Display names: which a human may take, and when two are one player's name.

Names travel to everyone (table lists, events, chat), so a name that carries a control character, a bidi
override or isolate, that imitates a bot's name, or that mixes look-alike scripts, is refused at hello (code
`bad_name`, docs/protocol.md). The rule is the protocol's, so that a client checks a name before it connects
(a play-test's `--name` with a bidi character was refused only by the server, and the player told to restart).
"""

from __future__ import annotations

import re
import unicodedata

from dungeon_twister.engine.core.errors import N_

UNSAFE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
"""Control (C0, DEL, C1), format (bidi overrides U+202A-202E and isolates U+2066-2069, zero-width characters,
...), surrogate, private-use and unassigned characters, line and paragraph separators."""

BOT_NAME = re.compile(r".*-bot-\d+", re.IGNORECASE)
"""Names of the server's bots, e.g. "greedy-bot-7": reserved, no human may take one."""


def unsafe(char: str) -> bool:
    return unicodedata.category(char) in UNSAFE_CATEGORIES


def name_problem(name: str) -> str | None:
    """Why `name` may not be a human's display name (an English sentence, marked for the client's catalogue: sent
    as refused.template), or None if it may."""
    if any(unsafe(char) for char in name):
        return N_("a name may not contain control, format or bidi characters")
    if name != name.strip() or not name.strip():
        return N_("a name may not start or end with spaces")
    if is_bot_name(name):
        return N_("names ending in -bot-<number> are reserved for the server's bots")
    if len(_scripts(name) & LOOK_ALIKE_SCRIPTS) > 1:
        return N_("a name may not mix Latin, Greek and Cyrillic letters (they look alike)")
    return None


LOOK_ALIKE_SCRIPTS = frozenset({"LATIN", "GREEK", "CYRILLIC"})
"""Scripts whose letters look alike ("o" and Cyrillic "о"): a name mixing them reads as another player's (a
play-test connected as "bоb", Cyrillic о, beside "bob"); ratings and identities follow names."""


def _scripts(name: str) -> set[str]:
    """The scripts of the name's letters, as their Unicode names begin (LATIN, CYRILLIC, CJK, ...), after NFKC
    (fullwidth letters are Latin ones)."""
    return {unicodedata.name(char, "?").split(" ", 1)[0] for char in unicodedata.normalize("NFKC", name)
            if char.isalpha()}


def name_key(name: str) -> str:
    """What makes two names one player's: NFKC, then case folded ("Bob", "bob" and fullwidth "Ｂｏｂ" are one name).
    Connected players, held seats, identities and ratings are kept by it; a name is shown as it was typed."""
    return unicodedata.normalize("NFKC", name).casefold()


def is_bot_name(name: str) -> bool:
    return BOT_NAME.fullmatch(unicodedata.normalize("NFKC", name)) is not None
