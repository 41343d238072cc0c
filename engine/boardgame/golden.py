"""The golden rules and end-of-action square checks (BG-GOLD-02/03, BG-MOVE-12, BG-PIT-01)."""

from __future__ import annotations

from ..core.errors import N_, IllegalAction
from .catalogue import SetCatalogue
from .geometry import Square, square_name
from .state import Token

# What `_breach` finds, and the rule and refusal template to cite for it (moves.py `_THERE` restates each template
# inside the refusals of a move that would end that way).
_RULES = {
    "crowded": ("BG-GOLD-02", N_("{square} would hold {count} tokens")),
    "two_figures": ("BG-MOVE-12", N_("two figures would stand on {square}")),
    "two_of_a_kind": ("BG-GOLD-03", N_("{square} would hold two tokens of one kind")),
    "enemy_wounded": ("BG-MOVE-07", N_("a figure may not stop on an enemy wounded character ({square})")),
    "pit": ("BG-MOVE-12", N_("{figure} cannot stop on the pit {square}")),
}


def _strong(tokens: list[Token], cat: SetCatalogue) -> bool:
    strong = cat.strong
    return bool(strong) and any(t.code in strong for t in tokens)


def _strong_breach(square: Square, tokens: list[Token], pits, cat: SetCatalogue) -> str | None:
    """`_breach` for a square holding a character who carries two things (PD-CHAR-PALADIN-01/02): standing, it may
    carry two objects, an object and its wounded, or two wounded of its colour; lying wounded, it may lie with two
    objects. Nothing more."""
    figures = [t for t in tokens if t.is_character and not t.wounded]
    if len(figures) > 1:
        return "two_figures"
    if figures:
        figure = figures[0]
        carried = [t for t in tokens if t is not figure]
        if len(carried) > 2 or "strength" not in cat.characters[figure.code].abilities:
            return "crowded" if len(tokens) > 2 else _breach(square, tokens, pits, cat, plain=True)
        if any(t.is_character and t.colour != figure.colour for t in carried):
            return "enemy_wounded"
        if square in pits and not any(not t.is_character and cat.objects[t.code].rope for t in carried) and \
                "acrobatics" not in cat.characters[figure.code].abilities:
            return "pit"
        return None
    wounded = [t for t in tokens if t.is_character]
    if len(wounded) > 1:
        return "two_of_a_kind"
    if len(tokens) > 3:
        return "crowded"
    return None


def _breach(square: Square, tokens: list[Token], pits, cat: SetCatalogue, plain: bool = False) -> str | None:
    """Which golden rule the square breaks (a key of _RULES), or None. Cheap: builds no message."""
    if not plain and len(tokens) > 1 and cat.strong and _strong(tokens, cat):  # no call without a strong kind
        return _strong_breach(square, tokens, pits, cat)
    if len(tokens) > 2:
        return "crowded"
    figure = wounded = item = None
    for t in tokens:
        if not t.is_character:
            if item is not None:
                return "two_of_a_kind"
            item = t
        elif t.wounded:
            if wounded is not None:
                return "two_of_a_kind"
            wounded = t
        else:
            if figure is not None:
                return "two_figures"
            figure = t
    if figure is None:
        return None
    if wounded is not None and wounded.colour != figure.colour:
        return "enemy_wounded"
    if square in pits:
        # BG-PIT-01: a Thief, or a figure with a Rope. What a Thief carries may lie under her on the pit: only
        # leaving (dropping) a non-Rope there is forbidden (BG-PIT-05, checked where a move drops it). A figure that
        # carries nothing ("no_carry") does not hold a Rope lying there (BG-PIT-02: who stops there takes it).
        kind = cat.characters[figure.code]
        rope = item is not None and cat.objects[item.code].rope and "no_carry" not in kind.abilities
        if not rope and "acrobatics" not in kind.abilities:
            return "pit"
    return None


def square_ok(square: Square, tokens: list[Token], pits, cat: SetCatalogue) -> bool:
    """True if the square breaks no rule at the end of an action (the fast form of `square_problem`)."""
    return _breach(square, tokens, pits, cat) is None


def square_problem(square: Square, tokens: list[Token], pits, cat: SetCatalogue) -> IllegalAction | None:
    """The refusal (rule, template, values) of a square that breaks a rule at the end of an action; None if it is fine.

    A wounded character left on a pit without a Rope is not a problem here: it falls (BG-PIT-09).
    """
    breach = _breach(square, tokens, pits, cat)
    if breach is None:
        return None
    rule, template = _RULES[breach]
    if breach == "pit":
        figure = next(t.id for t in tokens if t.is_character and not t.wounded)
        return IllegalAction(rule, template, figure=figure, square=square_name(square))
    if breach == "crowded":
        return IllegalAction(rule, template, square=square_name(square), count=len(tokens))
    return IllegalAction(rule, template, square=square_name(square))
