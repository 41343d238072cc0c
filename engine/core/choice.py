"""A legal set too large to list: a choice made of parts, as a lazy sequence.

Some secret choices are a choice of several things at once: in a free team building (PD-TEAM-FREE-01/02) each
player picks 8 characters, 6 objects and 2 room pairs from his pool, about 10^10 to 10^11 possibilities. The
engine's contract still holds for them: `legal_actions` gives every legal action, in a fixed order, and what it
omits is refused. It gives a `PartsChoice`: a `Sequence` that knows its length, gives its i-th action by
unranking, iterates in order, and answers `in` without listing anything, so `rng.choice(legal)` and
`legal[0]` work as on a list. Its `parts` describe it, so a server sends those instead of a list, and a client
composes a choice from them.

A part is "choose `count` of these values", each value at most its `copies` times (a common object held twice,
PD-TEAM-COMMON-01). The chosen values of a part are in the order of its values (a multiset combination); the
sequence runs through the parts' combinations as a mixed-radix number, the last part fastest, and each part's
combinations in lexicographic order (taking more copies of an earlier value first), as `itertools.combinations`
does when every value has one copy.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import product

from .errors import N_


# The refusals of a part, one template per part name the rule families use (a name not listed falls back to the
# generic template, which a client does not translate).
_COUNT = {"pairs": N_("choose {count} pairs, not {chosen}"),
          "characters": N_("choose {count} characters, not {chosen}"),
          "objects": N_("choose {count} objects, not {chosen}")}
_UNKNOWN = {"pairs": N_("{value} is not one of the pairs to choose from"),
            "characters": N_("{value} is not one of the characters to choose from"),
            "objects": N_("{value} is not one of the objects to choose from")}
_ONCE = N_("{value} may be chosen only once")
_AT_MOST = N_("{value} may be chosen at most {allowed} times")
COPIES = frozenset({_ONCE, _AT_MOST})
"""The templates of `Part.refusal` that say a value was chosen more often than its copies: a rule family may cite
another rule for them than for the part's count or values (a common object's copies, PD-TEAM-COMMON-01)."""


@dataclass(frozen=True, slots=True)
class Part:
    """Choose `count` of `values`, each at most its number of `copies` (same order as `values`). `rule`: the rule a
    refusal of the part cites; `copies_rule`: the one for a value chosen more often than its copies, if another (a
    common object's copies, PD-TEAM-COMMON-01). The form carries both, so that a client checking a choice before
    committing to it cites the rule the engine would."""

    name: str
    count: int
    values: tuple[str, ...]
    copies: tuple[int, ...]
    rule: str | None = None
    copies_rule: str | None = None

    def size(self) -> int:
        """How many ways the part can be chosen."""
        return _count(self.copies, 0, self.count)

    def nth(self, index: int) -> tuple[str, ...]:
        """The index-th combination (0 <= index < size), in lexicographic order."""
        out: list[str] = []
        k = self.count
        for i, value in enumerate(self.values):
            if k == 0:
                break
            for take in range(min(self.copies[i], k), -1, -1):
                ways = _count(self.copies, i + 1, k - take)
                if index < ways:
                    out.extend([value] * take)
                    k -= take
                    break
                index -= ways
        return tuple(out)

    def each(self) -> Iterator[tuple[str, ...]]:
        """Every combination, in lexicographic order."""
        def walk(i: int, k: int, head: tuple[str, ...]):
            if k == 0:
                yield head
                return
            if i == len(self.values):
                return
            for take in range(min(self.copies[i], k), -1, -1):
                yield from walk(i + 1, k - take, head + (self.values[i],) * take)
        return walk(0, self.count, ())

    def problem(self, chosen: Sequence[str]) -> str | None:
        """Why `chosen` is not one of the part's combinations (in any order), or None."""
        why = self.refusal(chosen)
        return None if why is None else why[0].format(**why[1])

    def refusal(self, chosen: Sequence[str]) -> tuple[str, dict] | None:
        """`problem` as a refusal template and its values (`IllegalAction`), or None."""
        if len(chosen) != self.count:
            if self.name in _COUNT:
                return _COUNT[self.name], {"count": self.count, "chosen": len(chosen)}
            return "choose {count} {name}, not {chosen}", {"count": self.count, "name": self.name,
                                                           "chosen": len(chosen)}
        for value in sorted(set(chosen)):
            if value not in self.values:
                if self.name in _UNKNOWN:
                    return _UNKNOWN[self.name], {"value": value}
                return "{value} is not one of the {name} to choose from", {"value": value, "name": self.name}
            allowed = self.copies[self.values.index(value)]
            if chosen.count(value) > allowed:
                if allowed == 1:
                    return _ONCE, {"value": value}
                return _AT_MOST, {"value": value, "allowed": allowed}
        return None

    def refusal_rule(self, template: str) -> str | None:
        """The rule a refusal of the part with `template` (`refusal`) cites: `copies_rule` for a value chosen too
        often, if the part has one, else `rule`."""
        return self.copies_rule if self.copies_rule and template in COPIES else self.rule

    def form(self) -> dict:
        """The part as plain data: {"name", "count", "values"} and, when a value has several copies, "copies"
        {value: copies} for those values only; "rule" and "copies_rule" when the part has them."""
        out: dict = {"name": self.name, "count": self.count, "values": list(self.values)}
        several = {value: n for value, n in zip(self.values, self.copies) if n > 1}
        if several:
            out["copies"] = several
        if self.rule:
            out["rule"] = self.rule
        if self.copies_rule:
            out["copies_rule"] = self.copies_rule
        return out

    @staticmethod
    def from_form(form: dict) -> Part:
        values = tuple(form["values"])
        copies = form.get("copies") or {}
        return Part(form["name"], form["count"], values, tuple(copies.get(value, 1) for value in values),
                    form.get("rule"), form.get("copies_rule"))


@lru_cache(maxsize=256)
def _count(copies: tuple[int, ...], start: int, k: int) -> int:
    """How many ways to choose k from the values start.. (each at most its copies)."""
    if k == 0:
        return 1
    if start == len(copies):
        return 0
    return sum(_count(copies, start + 1, k - take) for take in range(min(copies[start], k) + 1))


class PartsChoice(Sequence):
    """Every action `make(chosen)` made of one combination per part, lazily (see the module's docstring).

    `make` turns a tuple of combinations (one per part, each in its part's value order) into the action;
    `unmake` turns an action back into them, or returns None for an action of another kind."""

    def __init__(self, parts: tuple[Part, ...], make: Callable[[tuple[tuple[str, ...], ...]], object],
                 unmake: Callable[[object], tuple[Sequence[str], ...] | None]) -> None:
        self.parts = parts
        self._make, self._unmake = make, unmake
        self._sizes = tuple(part.size() for part in parts)
        self._len = 1
        for size in self._sizes:
            self._len *= size

    def __len__(self) -> int:
        return self._len

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self._len))]
        if index < 0:
            index += self._len
        if not 0 <= index < self._len:
            raise IndexError("PartsChoice index out of range")
        chosen = []
        for part, size in zip(reversed(self.parts), reversed(self._sizes)):
            index, rest = divmod(index, size)
            chosen.append(part.nth(rest))
        return self._make(tuple(reversed(chosen)))

    def __iter__(self):
        for chosen in product(*(part.each() for part in self.parts)):
            yield self._make(chosen)

    def __contains__(self, action) -> bool:
        return self.problem(action) is None

    def problem(self, action) -> str | None:
        """Why `action` is not in the sequence (the first part that refuses it), or None."""
        why = self.refusal(action)
        return None if why is None else why[0].format(**why[1])

    def refusal(self, action) -> tuple[str, dict] | None:
        """`problem` as a refusal template and its values (`Part.refusal`), or None."""
        chosen = self._unmake(action)
        if chosen is None or len(chosen) != len(self.parts):
            return N_("not a choice of this kind"), {}
        for part, values in zip(self.parts, chosen):
            why = part.refusal(list(values))
            if why is not None:
                return why
        return None

    def form(self) -> list[dict]:
        """The parts as plain data (`Part.form`), in order."""
        return [part.form() for part in self.parts]

    def __repr__(self) -> str:
        return f"PartsChoice({', '.join(f'{p.count} of {len(p.values)} {p.name}' for p in self.parts)}: {self._len})"


class Mapped(Sequence):
    """`[fn(x) for x in items]`, lazily (the texts of a PartsChoice)."""

    def __init__(self, items: Sequence, fn: Callable) -> None:
        self.items, self.fn = items, fn

    def __len__(self) -> int:
        return len(self.items)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self.fn(x) for x in self.items[index]]
        return self.fn(self.items[index])

    def __iter__(self):
        return map(self.fn, self.items)


class Chained(Sequence):
    """Sequences one after the other, lazily (both seats' choices when they choose at once)."""

    def __init__(self, parts: list[Sequence]) -> None:
        self.parts = [p for p in parts if len(p)]

    def __len__(self) -> int:
        return sum(len(p) for p in self.parts)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        for p in self.parts:
            if 0 <= index < len(p):
                return p[index]
            index -= len(p)
        raise IndexError("Chained index out of range")

    def __iter__(self):
        for p in self.parts:
            yield from p

    def __contains__(self, item) -> bool:
        return any(item in p for p in self.parts)


def is_lazy(actions) -> bool:
    """Whether a legal set is one of these lazy sequences (too large to list: send or show its parts)."""
    return isinstance(actions, (PartsChoice, Mapped, Chained))
