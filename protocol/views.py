"""Views as deltas after a snapshot, and the compact team choice (docs/protocol.md, feature "delta_views").

Sans-IO and pure: the server turns each view into a `PackedView` (its msgpack pieces) and sends a
`view_delta` computed from the viewer's previous view and the new one only; the client applies it with
`apply_view_delta`. Two identical sequences of views give identical deltas, byte for byte.
"""

from __future__ import annotations

import itertools
import math

import msgpack

from .kinds import ACTION_TEXT

DELTA_VIEWS = "delta_views"
"""The feature a client names in hello.features to get view deltas and the compact team choice."""
TABLE_UPDATES = "table_updates"
"""The feature a client names in hello.features to get the table list's changes while in the lobby
(table_update, table_closed) without asking again."""
SEED_CONTRIBUTIONS = "seed_contributions"
"""The feature a client names in hello.features to contribute to the deal of its games (docs/protocol.md
section 16; protocol/deal.py)."""
COMPACT_LEGAL = "compact_legal"
"""The feature a client names in hello.features, with DELTA_VIEWS, to get a view's legal list front-coded
("legal_prefixed", docs/protocol.md section 14): a card-game position may list thousands of moves that share
their first words."""
REMATCH = "rematch"
"""The feature a client names in hello.features when it can ask for and accept a rematch (message `rematch`,
docs/protocol.md section 6): the server refuses a player's rematch at once when his opponent's client did not name
it (that client could never accept), rather than leave the offer unanswered."""
ANNOUNCEMENTS = "announcements"
"""The feature a client names in hello.features to get the admin's announcements as `announcement` messages
(dt-server admin say); a client without it gets them as a `chat_message` from the server's name."""
DECLINE_REMATCH = "decline_rematch"
"""The feature a client names in hello.features when it may decline a rematch offer (message `decline_rematch`,
docs/protocol.md section 6); in welcome.features, the server takes the message (an older server would answer it
`unknown_type`): a client sends it only then."""
FEATURES = (DELTA_VIEWS, TABLE_UPDATES, SEED_CONTRIBUTIONS, COMPACT_LEGAL, REMATCH, ANNOUNCEMENTS, DECLINE_REMATCH)
"""Every feature this implementation knows."""
RUN_LISTS = ("tokens",)
"""Top-level lists of maps that a delta describes item by item (runs of the previous list, and new items)."""


_pack = msgpack.Packer(use_bin_type=True, datetime=False).pack
"""msgpack of one value (one Packer, reused: packing a view takes ~50 calls). Sans-IO code runs in one thread
per connection end; a Packer with autoreset holds nothing between calls."""


_MISSING = object()


def _map_header(size: int) -> bytes:
    if size < 16:
        return bytes((0x80 | size,))
    if size < 65536:
        return b"\xde" + size.to_bytes(2, "big")
    return b"\xdf" + size.to_bytes(4, "big")


def _array_header(size: int) -> bytes:
    if size < 16:
        return bytes((0x90 | size,))
    if size < 65536:
        return b"\xdc" + size.to_bytes(2, "big")
    return b"\xdd" + size.to_bytes(4, "big")


class PackedView:
    """A view as msgpack pieces: its top-level keys (`keys`, one tuple per process for each sequence of keys) and,
    in their order, each key's packed value (`values`), a RUN_LISTS value as the tuple of its items' packed bytes
    (joined when sent). A server keeps one a class of viewers for every game in play, to make the next delta:
    a tuple of pieces took ~1 KB less than a dict of them, and a run list's items ~1.5 KB less than its items and
    its joined bytes both (issue 7, row 5)."""

    __slots__ = ("keys", "values")

    def __init__(self, keys: tuple, values: tuple) -> None:
        self.keys, self.values = keys, values

    @property
    def items(self) -> dict:
        """{key: its items' packed bytes} of the RUN_LISTS values."""
        return {key: value for key, value in zip(self.keys, self.values) if type(value) is tuple}

    @classmethod
    def of(cls, view: dict, like: tuple[dict, PackedView] | None = None) -> PackedView:
        """The pieces of `view`. `like`: another view of the same moment (another viewer class's) and its pieces:
        a value equal to its value there takes its packed bytes instead of being packed again (most of a view is
        public, so most values are). The result is the one `of(view)` gives: equal values pack to equal bytes (the
        views of one moment never hold True in one where the other holds 1, which Python finds equal, nor floats;
        tests/server/test_server_frames.py checks it along random games of every family)."""
        values = []
        other_view, other = like if like is not None else ({}, None)
        where = _places(other.keys) if other is not None else {}
        missing = _MISSING
        for key, value in view.items():
            seen = other_view.get(key, missing)
            if seen is not missing and (seen is value or seen == value):
                values.append(other.values[where[key]])
            elif key in RUN_LISTS and type(value) is list and all(type(item) is dict for item in value):
                values.append(tuple(map(_pack, value)))
            else:
                values.append(_pack(value))
        return cls(_keys(tuple(view)), tuple(values))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PackedView) and self.keys == other.keys and self.values == other.values

    __hash__ = None  # type: ignore[assignment]

    def body(self) -> bytes:
        """The packed map of the whole view (keys in the view's order)."""
        return _map_header(len(self.keys)) + b"".join(_pack(key) + _joined(value)
                                                      for key, value in zip(self.keys, self.values))

    def size(self) -> int:
        """The length of `body()`, without making it (its keys' bytes counted once per sequence of keys)."""
        total = _key_bytes(self.keys)
        for value in self.values:
            if type(value) is tuple:
                total += len(_array_header(len(value))) + sum(map(len, value))
            else:
                total += len(value)
        return total

    def event(self) -> bytes:
        """The packed table event {"kind": "view", "view": <the whole view>}."""
        return b"\x82" + _pack("kind") + _pack("view") + _pack("view") + self.body()

    def delta(self, previous: PackedView) -> bytes:
        """The packed table event {"kind": "view_delta", ...} that turns `previous` into this view."""
        if previous.keys is self.keys:
            changed = [(key, value, old) for key, value, old in zip(self.keys, self.values, previous.values)
                       if old != value]
            unset = []
        else:
            before = dict(zip(previous.keys, previous.values))
            changed = [(key, value, before.get(key)) for key, value in zip(self.keys, self.values)
                       if before.get(key) != value]
            present = set(self.keys)
            unset = [key for key in previous.keys if key not in present]
        runs = {key: _runs(old, value) for key, value, old in changed if type(value) is tuple and type(old) is tuple}
        sets = [(key, value) for key, value, _ in changed if key not in runs]
        parts = [_DELTA_HEAD, _map_header(len(sets)), *(_key_packed(key) + _joined(value) for key, value in sets)]
        if unset:
            parts += [_pack("unset"), _pack(unset)]
        for key, packed in runs.items():
            parts += [_key_packed(key), packed]
        return _map_header(2 + bool(unset) + len(runs)) + b"".join(parts)


_DELTA_HEAD = _pack("kind") + _pack("view_delta") + _pack("set")
"""The first keys and value of every delta's map."""
_KEY_PACKED: dict[str, bytes] = {}
"""A view's key -> its packed bytes (a few dozen keys: those of the views of every family; at most 1,024 kept)."""


def _key_packed(key: str) -> bytes:
    found = _KEY_PACKED.get(key)
    if found is None:
        found = _pack(key)
        if len(_KEY_PACKED) < 1024:
            _KEY_PACKED[key] = found
    return found


def _joined(value) -> bytes:
    """A piece's packed bytes: a run list's items in one array."""
    if type(value) is tuple:
        return _array_header(len(value)) + b"".join(value)
    return value


_KEYS: dict[tuple, tuple] = {}
"""A view's sequence of keys -> the one tuple of it the process's PackedViews share (a few dozen sequences: the
keys a view has depend on its game's family, phase and options). At most 1,024 are kept. (The engine's
`core.canon.Canon` does this for squares and room places; the protocol imports nothing of the engine.)"""
_PLACES: dict[tuple, dict] = {}
"""A shared keys tuple -> {key: its index} (as many as `_KEYS`)."""


def _keys(keys: tuple) -> tuple:
    found = _KEYS.get(keys)
    if found is None:
        found = keys
        if len(_KEYS) < 1024:
            _KEYS[keys] = keys
    return found


_KEY_BYTES: dict[tuple, int] = {}
"""A sequence of keys -> the bytes its map's header and its keys take packed (as many as `_KEYS`)."""


def _key_bytes(keys: tuple) -> int:
    found = _KEY_BYTES.get(keys)
    if found is None:
        found = len(_map_header(len(keys))) + sum(len(_pack(key)) for key in keys)
        if len(_KEY_BYTES) < 1024:
            _KEY_BYTES[keys] = found
    return found


def _places(keys: tuple) -> dict:
    found = _PLACES.get(keys)
    if found is None:
        found = {key: index for index, key in enumerate(keys)}
        if len(_PLACES) < 1024:
            _PLACES[keys] = found
    return found


def _runs(before: tuple, after: tuple) -> bytes:
    """The packed array describing `after` from `before`: [i, j] copies before[i:j], a map is a new item."""
    where: dict[bytes, int] = {}
    for index, item in enumerate(before):
        where.setdefault(item, index)
    out: list[bytes] = []
    start = end = None
    for item in after:
        index = end if end is not None and end < len(before) and before[end] == item else where.get(item)
        if index is not None and index == end:
            end += 1
            continue
        if start is not None:
            out.append(_pack([start, end]))
            start = end = None
        if index is None:
            out.append(item)
        else:
            start, end = index, index + 1
    if start is not None:
        out.append(_pack([start, end]))
    return _array_header(len(out)) + b"".join(out)


def apply_view_delta(view: dict, delta: dict) -> dict:
    """The view that `delta` (a "view_delta" event) makes of `view`; ValueError if it does not fit."""
    out = dict(view)
    changes = delta.get("set")
    if type(changes) is not dict:
        raise ValueError('view_delta: "set" is not a map')
    unset = delta.get("unset") or []
    if type(unset) is not list or not all(type(key) is str for key in unset):  # (a list's key raised TypeError, which
        raise ValueError('view_delta: "unset" is not a list of keys')          # ended the client: red team rt25)
    for key in unset:
        out.pop(key, None)
    out.update(changes)
    for key in RUN_LISTS:
        runs = delta.get(key)
        if runs is None:
            continue
        before = view.get(key)
        if type(runs) is not list or type(before) is not list:
            raise ValueError(f"view_delta: {key!r} runs without a list to apply them to")
        items: list = []
        for run in runs:
            if type(run) is dict:
                items.append(run)
            elif (type(run) is list and len(run) == 2 and all(type(i) is int for i in run)
                  and 0 <= run[0] < run[1] <= len(before)):
                items.extend(before[run[0]:run[1]])
            else:
                raise ValueError(f"view_delta: bad run {run!r} in {key!r}")
        out[key] = items
    return out


# --- the compact team choice ------------------------------------------------------------------------------
def team_choice(texts: list[str]) -> dict | None:
    """The compact form {"squares", "characters", "out"} of a list of team-choice texts, or None if the list
    is not exactly what `expand_team_choice` makes of that form (then the list is sent as it is)."""
    if len(texts) < 2 or not texts[0].startswith("team "):
        return None
    words = texts[0].split()[1:]
    out = 0
    if words and words[-1].startswith("out="):
        out = len(words.pop()[4:].split(","))
    squares = [word.split("=", 1)[0] for word in words]
    characters: set[str] = set()
    for text in texts:
        for word in text.split()[1:]:
            name, _, value = word.partition("=")
            characters.update(value.split(",") if name == "out" else (value,))
    form = {"squares": squares, "characters": sorted(characters), "out": out}
    return form if expand_team_choice(form) == texts else None


MAX_TEAM_TEXTS = 100_000
"""The most texts a compact team choice may stand for (a team of 4 of 8 characters is 1,680, with 2 of them left out
10,080): the form is a server's, and 11 squares and 11 characters stood for 11! = 40 million texts, which froze the
client while it listed them (red team rt25)."""


def expand_team_choice(form: dict) -> list[str]:
    """Every team text of a compact team choice, in the server's `legal` order: the characters placed on the
    squares (in the listed order) run through the permutations of `characters` (in their listed order); with
    `out` > 0, for each placement, the combinations of `out` of the characters not placed (listed order)."""
    squares, characters, out = form["squares"], form["characters"], form.get("out") or 0
    if (type(squares) is not list or type(characters) is not list or type(out) is not int
            or not 0 <= len(squares) <= len(characters) or not 0 <= out <= len(characters) - len(squares)):
        raise ValueError("team_choice: not squares and characters to place, and how many left out")
    count = math.perm(len(characters), len(squares)) * math.comb(len(characters) - len(squares), out)
    if count > MAX_TEAM_TEXTS:
        raise ValueError(f"team_choice: {count} texts, more than {MAX_TEAM_TEXTS}")
    texts = []
    for placed in itertools.permutations(characters, len(squares)):
        head = "team " + " ".join(f"{square}={code}" for square, code in zip(squares, placed))
        if not out:
            texts.append(head)
            continue
        rest = [code for code in characters if code not in placed]
        texts.extend(f"{head} out={','.join(left)}" for left in itertools.combinations(rest, out))
    return texts


# --- the front-coded legal list (feature compact_legal) -----------------------------------------------------
def prefixed_legal(texts: list[str]) -> list[list] | None:
    """The legal list `texts` front-coded: one [k, rest] per text, the text being the first k words of the text
    before it (0 for the first), then `rest` (its other words, "" when there are none); None if a text is not
    words joined by single spaces (then the list is sent as it is)."""
    out: list[list] = []
    before: list[str] = []
    for text in texts:
        words = text.split(" ")
        if not text or "" in words:
            return None
        k = 0
        for mine, theirs in zip(words, before):
            if mine != theirs:
                break
            k += 1
        if k == len(words) == len(before):  # the same text again: its last word is written out
            k -= 1
        out.append([k, " ".join(words[k:])])  # "" for a text that is the first words of the one before
        before = words
    return out


def expand_prefixed_legal(items: list) -> list[str]:
    """The legal list a front-coded one (`prefixed_legal`) stands for, in its order; ValueError if an item does not
    fit (not [int, str], or more words asked for than the text before has) or makes a text longer than an action's
    (ACTION_TEXT: what could not be played is no legal action). A server's items [k, "a"], k = 0, 1, 2, ..., each
    text one word longer, stood for texts whose length grew with their number: 30,000 of them (150 KB) took the
    client 6 s to list, a frame of them hours (red team rt25); with the bound, 256 characters an item at most."""
    texts: list[str] = []
    before: list[str] = []
    for item in items:
        if type(item) is not list or len(item) != 2 or type(item[0]) is not int or type(item[1]) is not str:
            raise ValueError(f"legal_prefixed: bad item {item!r}")
        k, rest = item
        if not 0 <= k <= len(before) or (k == 0 and not rest):
            raise ValueError(f"legal_prefixed: {k} words of a text of {len(before)}")
        words = before[:k] + (rest.split(" ") if rest else [])
        text = " ".join(words)
        if len(text) > ACTION_TEXT.max_len:  # (words kept from the text before: each one a word longer, the next)
            raise ValueError(f"legal_prefixed: a text of {len(text)} characters, more than an action has")
        texts.append(text)
        before = words
    return texts
