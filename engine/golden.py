"""The golden rules and end-of-action square checks (BG-GOLD-02/03, BG-MOVE-12, BG-PIT-01)."""

from __future__ import annotations

from .catalogue import SetCatalogue
from .geometry import Square, square_name
from .state import Token


def square_problem(square: Square, tokens: list[Token], pits, cat: SetCatalogue) -> tuple[str, str] | None:
    """The rule a square breaks at the end of an action, with a message; None if it is fine.

    A wounded character left on a pit without a Rope is not a problem here: it falls (BG-PIT-09).
    """
    if not tokens:
        return None
    name = square_name(square)
    if len(tokens) > 2:
        return "BG-GOLD-02", f"{name} would hold {len(tokens)} tokens"
    figures = [t for t in tokens if t.is_character and not t.wounded]
    wounded = [t for t in tokens if t.is_character and t.wounded]
    objects = [t for t in tokens if not t.is_character]
    if len(figures) > 1:
        return "BG-MOVE-12", f"two figures would stand on {name}"
    if len(wounded) > 1 or len(objects) > 1:
        return "BG-GOLD-03", f"{name} would hold two tokens of one kind"
    if figures and wounded and wounded[0].colour != figures[0].colour:
        return "BG-MOVE-07", f"a figure may not stop on an enemy wounded character ({name})"
    if square in pits and figures:
        # BG-PIT-01: a Thief, or a figure with a Rope. What a Thief carries may lie under her on the pit: only
        # leaving (dropping) a non-Rope there is forbidden (BG-PIT-05, checked where a move drops it).
        rope = any(cat.objects[o.code].rope for o in objects)
        if not rope and "acrobatics" not in cat.characters[figures[0].code].abilities:
            return "BG-MOVE-12", f"{figures[0].id} cannot stop on the pit {name}"
    return None
