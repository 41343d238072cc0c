"""docs/protocol.md section 20 documents every key of the views and every engine event, exactly.

The doc's tables (view keys, the maps they name, event kinds with the keys everyone gets and the owner's form) are
parsed, and seeded games of every rule family are played in-process with the engine's bots: every view (of both
seats and of a spectator, with the server's keys) and every event (as its owner, the other seat and a spectator
get it) must fit the tables, key by key and type by type; and every documented kind and key must show up in those
games, unless the doc lists it under "Rarely met". Deterministic (fixed seeds) and short (capped games).
"""

from __future__ import annotations

import re
from collections import defaultdict
from functools import lru_cache
from pathlib import Path

import pytest
from dungeon_twister.engine import Handicap, Options, event_view
from dungeon_twister.engine.cards import CardOptions
from dungeon_twister.engine.core.rng import Rng
from dungeon_twister.engine.families import family_for
from dungeon_twister.engine.tools.bots import building
from dungeon_twister.protocol import TableOptions
from dungeon_twister.server.options import options_view
from dungeon_twister.server.viewing import ViewPoint, compacted, legal_texts, table_view

DOC = (Path(__file__).parents[2] / "docs" / "protocol.md").read_text(encoding="utf-8")
SECTION = DOC[DOC.index("## 20. Views and events, key by key"):]


# --- the doc's tables ---------------------------------------------------------------------------------------------
def subsection(title: str) -> str:
    start = SECTION.index(f"### {title}\n")
    end = SECTION.find("\n### ", start + 1)
    return SECTION[start:] if end < 0 else SECTION[start:end]


def cells(line: str) -> list[str]:
    """A table row's cells, `\\|` kept as a `|` inside its cell."""
    parts = re.split(r"(?<!\\)\|", line.strip())[1:-1]
    return [part.strip().replace("\\|", "|") for part in parts]


def tables(text: str) -> list[list[list[str]]]:
    """Every table of `text`: its body rows (no header, no separator), as cells."""
    found, current = [], None
    for line in text.splitlines():
        if line.startswith("|"):
            if current is None:
                current = []
                found.append(current)
            current.append(cells(line))
        else:
            current = None
    return [table[2:] for table in found]


def split_top(text: str, sep: str) -> list[str]:
    """`text` split at `sep` where no bracket or quote is open."""
    out, depth, quoted, start = [], 0, False, 0
    for i, ch in enumerate(text):
        if ch == '"':
            quoted = not quoted
        elif not quoted and ch in "[{":
            depth += 1
        elif not quoted and ch in "]}":
            depth -= 1
        elif not quoted and depth == 0 and text.startswith(sep, i):
            out.append(text[start:i])
            start = i + len(sep)
    out.append(text[start:])
    return [part.strip() for part in out]


FIELD = re.compile(r"`(\w+)(\?)?`: (.+)", re.S)


def fields(cell: str) -> dict[str, tuple[str, bool]] | None:
    """A keys cell (`` `key?`: type, ... ``) as {key: (type, required)}; None for "—"."""
    if cell == "—":
        return None
    out = {}
    for item in split_top(cell, ", "):
        match = FIELD.fullmatch(item)
        assert match, f"not a `key`: type item: {item!r}"
        out[match[1]] = (match[3].strip(), match[2] is None)
    return out


def rare(text: str) -> set[str]:
    match = re.search(r"Rarely met \(a short game may not show them\): (.+?)\.\n", text, re.S)
    assert match, "no 'Rarely met' line"
    return set(re.findall(r"`([\w.]+)`", match[1]))


def keys_table(text: str) -> dict[str, tuple[str, bool]]:
    """The first table of `text`, | `key?` | type | meaning |, as {key: (type, required)}."""
    out = {}
    for row in tables(text)[0]:
        match = re.fullmatch(r"`(\w+)(\?)?`", row[0])
        assert match, row
        out[match[1]] = (row[1], match[2] is None)
    return out


def maps_table(text: str) -> dict[str, dict[str, tuple[str, bool]]]:
    return {row[0]: fields(row[1]) for table in tables(text) for row in table if len(row) == 2}


def events_table(text: str) -> dict[str, tuple[dict, dict | None]]:
    """| `kind` | keys | its owner gets instead | as {kind: (keys, owner's keys or None)}."""
    out = {}
    for row in tables(text)[0]:
        kind = re.fullmatch(r"`(\w+)`", row[0])[1]
        out[kind] = (fields(row[1]) or {}, fields(row[2]))
    return out


COMMON = subsection("Keys every view has")
BOARD_VIEW, CARD_VIEW = subsection("The board game's view"), subsection("The card game's view")
BOARD_EVENTS, CARD_EVENTS = subsection("The board game's events"), subsection("The card game's events")
MAPS = {**maps_table(COMMON), **maps_table(BOARD_VIEW), **maps_table(CARD_VIEW)}
VIEW_KEYS = {"board": {**keys_table(COMMON), **keys_table(BOARD_VIEW)},
             "cards": {**keys_table(COMMON), **keys_table(CARD_VIEW)}}
EVENTS = {"board": events_table(BOARD_EVENTS), "cards": events_table(CARD_EVENTS)}
RARE_VIEW = {"board": rare(BOARD_VIEW), "cards": rare(CARD_VIEW)}
RARE_EVENTS = {"board": rare(BOARD_EVENTS), "cards": rare(CARD_EVENTS)}
NOT_PLAYED = {"Table"}
"""Maps whose keys these games cannot all show: the table's seed, deal, asked and result keys come from a running
server (tests/server); here only what they show must be documented."""


# --- checking values against the documented types -----------------------------------------------------------------
@lru_cache(maxsize=None)
def compiled(typ: str):
    """`typ` (alternatives `a|b`) as a function (value, where, checker) -> the problems ([] when it fits)."""
    alternatives = [_compiled_one(alt) for alt in split_top(typ, "|")]

    def check(value, where: str, checker: Checker) -> list[str]:
        problems = []
        for alt in alternatives:
            wrong = alt(value, where, checker)
            if not wrong:
                return []
            problems += wrong
        return problems

    return check


def _compiled_one(alt: str):
    def simple(test):
        return lambda value, where, _: [] if test(value) else [f"{where}: {value!r} is not {alt}"]

    if alt == "nil":
        return simple(lambda value: value is None)
    if alt == "int" or alt.startswith("int["):
        return simple(lambda value: type(value) is int)
    if alt in ("str", "bool", "map"):
        kind = {"str": str, "bool": bool, "map": dict}[alt]
        return simple(lambda value: type(value) is kind)
    if alt.startswith('"'):
        return simple(lambda value: value == alt.strip('"'))
    if alt.startswith("["):
        item = compiled(alt[1:-1])

        def array(value, where, checker):
            if type(value) is not list:
                return [f"{where}: {value!r} is not {alt}"]
            return [p for i, x in enumerate(value) for p in item(x, f"{where}[{i}]", checker)]
        return array
    if alt.startswith("{"):
        key_type, value_type = map(compiled, split_top(alt[1:-1], ": "))

        def mapping(value, where, checker):
            if type(value) is not dict:
                return [f"{where}: {value!r} is not {alt}"]
            return [p for k, v in value.items()
                    for p in key_type(k, f"{where} key", checker) + value_type(v, f"{where}.{k}", checker)]
        return mapping
    assert alt in MAPS, f"unknown type {alt!r} in the doc"
    return lambda value, where, checker: (checker.record(value, MAPS[alt], alt, where) if type(value) is dict
                                          else [f"{where}: {value!r} is not {alt}"])


class Checker:
    def __init__(self) -> None:
        self.seen: dict[str, set[str]] = defaultdict(set)
        """Map name (or "view-<family>", or "<family>:<event kind>") -> its keys met."""

    def check(self, value, typ: str, where: str) -> list[str]:
        return compiled(typ)(value, where, self)

    def record(self, value: dict, spec: dict, name: str, where: str, previous: dict | None = None) -> list[str]:
        """`value`'s keys against `spec` ({key: (type, required)}): none undocumented, none required missing, each
        of its type; the keys met are noted under `name`. A value equal to its key's in `previous` (a view the
        same viewer had before, checked already) is not checked again."""
        problems = [f"{where}: key {key!r} is not documented" for key in value if key not in spec]
        problems += [f"{where}: required key {key!r} is missing" for key, (_, required) in spec.items()
                     if required and key not in value]
        if problems:
            return problems
        for key, item in value.items():
            if previous is None or key not in previous or previous[key] != item:
                problems += compiled(spec[key][0])(item, f"{where}.{key}", self)
        if not problems:
            self.seen[name].update(value)
        return problems


# --- the games ----------------------------------------------------------------------------------------------------
GAMES = {  # name: (options, bot, seed, most actions); a few of each family end by the rules
    "board": {
        "base": (Options(), "random", 1, 120),
        "handicap": (Options(handicap=Handicap("B", 6, (6,))), "random", 3, 60),
        "prison": (Options(set_name="prison"), "random", 4, 150),
        "prison-1": (Options(set_name="prison", scenario="prison-1"), "greedy", 5, 200),
        "prison-2": (Options(set_name="prison", scenario="prison-2"), "greedy", 5, 200),
        "paladins": (Options(set_name="paladins"), "random", 6, 150),
        "mixed-mutual": (Options(set_name="all_sets", teams="mutual"), "random", 7, 60),
        "mixed-free": (Options(set_name="all_sets", teams="free"), "random", 8, 40),
    },
    "cards": {
        "tutorial-2": (CardOptions(2), "greedy", 14, 300),
        "tutorial-3": (CardOptions(3), "greedy", 10, 120),  # its first shot near action 35; no end by 300
        "mutual": (CardOptions(None, "standard", "mutual", ("B", 2, (6,))), "random", 11, 80),
        "draft": (CardOptions(None, "standard", "draft", None, True), "random", 12, 60),
        "full": (CardOptions(None, "standard", "full"), "random", 13, 40),
    },
}
TABLES = {"board": TableOptions(target_vp=5, beginner=False, private=True, set_name="prison", timers=True,
                                handicap={"seat": "Y", "removed_cards": [6]}),
          "cards": TableOptions(game="cards", scenario="standard", teams="draft", secret_objects=True)}


def play(name: str, options, bot_kind: str, seed: int, actions: int, checker: Checker) -> list[str]:
    """Play a game, checking every view and event; the problems met."""
    rules = family_for(options)
    family = rules.name
    table = options_view(f"t-{name}", TABLES[family])
    seats = {"B": "ann", "Y": "bob"}
    state = rules.new_game(options, seed)
    bot, rngs = rules.bots[bot_kind](), {"B": Rng(2 * seed), "Y": Rng(2 * seed + 1)}
    problems: list[str] = []

    last: dict = {}

    def views(state) -> dict:
        point = ViewPoint(state, seats, table, True)
        legal = {seat: legal_texts(state, seat) for seat in state.to_act}
        for viewer in ("B", "Y", None):
            whole = table_view(point, viewer, lambda _, seat: legal.get(seat, []))
            compact = compacted(whole)
            for form in (whole,) if compact is whole else (whole, compact):
                problems.extend(checker.record(form, VIEW_KEYS[family], f"view-{family}", f"{name} view",
                                               last.get(viewer)))
            last[viewer] = whole
        return last

    for _ in range(actions):
        seen = views(state)
        if state.outcome is not None or not state.to_act:
            break
        seat = state.to_act[0]  # one seat at a time, also when both choose at once: the views in between too
        if not (seen[seat]["legal"] or building(seen[seat])):
            break
        state, events = rules.apply(state, rules.parse_action(bot.choose(seen[seat], seen[seat]["legal"],
                                                                         rngs[seat]), seat))
        for ev in events:
            problems.extend(check_event(checker, family, ev, name))
    views(state)
    return problems


def check_event(checker: Checker, family: str, ev, name: str) -> list[str]:
    documented = EVENTS[family].get(ev.kind)
    if documented is None:
        return [f"{name}: event kind {ev.kind!r} is not documented"]
    keys, owner_keys = documented
    if ev.owner is None:
        forms = [event_view(ev, None)]
        specs = [keys]
    else:
        other = "Y" if ev.owner == "B" else "B"
        forms = [event_view(ev, ev.owner), event_view(ev, other), event_view(ev, None)]
        specs = [owner_keys or keys, keys, keys]
    problems = []
    for form, spec in zip(forms, specs):
        if form is None:
            problems.append(f"{name}: {ev.kind} shows nothing to some viewer, and the doc gives it keys")
            continue
        data = {key: value for key, value in form.items() if key != "kind"}
        problems += checker.record(data, spec, f"{family}:{ev.kind}", f"{name} event {ev.kind}")
    return problems


def maps_of(typ: str) -> set[str]:
    """The documented maps a type names, and those their keys name, and so on (not through NOT_PLAYED)."""
    out: set[str] = set()
    todo = [name for name in re.findall(r"\b[A-Z]\w+", typ) if name in MAPS]
    while todo:
        name = todo.pop()
        if name not in out and name not in NOT_PLAYED:
            out.add(name)
            todo += [m for typ, _ in MAPS[name].values() for m in re.findall(r"\b[A-Z]\w+", typ) if m in MAPS]
    return out


@pytest.mark.parametrize("family", ["board", "cards"])
def test_views_and_events_are_documented_exactly(family):
    """Every view and event of the family's games fits the doc; every documented key, map and kind was met, or the
    doc says it is rarely met."""
    checker = Checker()
    problems = [p for name, game in GAMES[family].items() for p in play(name, *game, checker)]
    assert problems[:20] == []
    seen, rare_keys, rare_events = checker.seen, RARE_VIEW[family], RARE_EVENTS[family]
    assert sorted(key for key in VIEW_KEYS[family] if key not in seen[f"view-{family}"] and key not in rare_keys) == []
    # the maps of this family's views: each met shows every key but the rare ones (`Map.key`); one never met is
    # reached only through a rare key (`key` of the view, `Map.key` of a map) or through a map never met itself
    maps = set().union(*(maps_of(typ) for typ, _ in VIEW_KEYS[family].values()))
    assert sorted(f"{name}.{key}" for name in maps if name in seen for key in MAPS[name]
                  if key not in seen[name] and f"{name}.{key}" not in rare_keys) == []
    holders = [(key, typ) for key, (typ, _) in VIEW_KEYS[family].items()]
    holders += [(f"{name}.{key}", typ) for name in maps for key, (typ, _) in MAPS[name].items()]
    unmet = {name for name in maps if name not in seen}
    excused: set[str] = set()
    for _ in unmet:  # until nothing more is excused
        excused |= {name for name in unmet for path, typ in holders if name in maps_of(typ)
                    and (path in rare_keys or path.split(".")[0] in excused)}
    assert sorted(unmet - excused) == []
    kinds = EVENTS[family]
    assert sorted(kind for kind in kinds if f"{family}:{kind}" not in seen and kind not in rare_events) == []
    assert sorted(f"{kind}.{key}" for kind, (keys, owner_keys) in kinds.items() if f"{family}:{kind}" in seen
                  for key in {**keys, **(owner_keys or {})}
                  if key not in seen[f"{family}:{kind}"] and f"{kind}.{key}" not in rare_events) == []


def test_the_table_entry_fits_the_doc():
    """The `table` entry's option keys, for tables of every kind (the server's own keys: tests/server)."""
    checker = Checker()
    for options in (TableOptions(), *TABLES.values(), TableOptions(scenario="prison-4"),
                    TableOptions(game="cards", tutorial=2), TableOptions(set_name="all_sets", teams="free")):
        assert checker.check(options_view("t1-x", options), "Table", "table") == []
