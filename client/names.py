"""Plain-word names of seats and tokens, from the engine's catalogue."""

from __future__ import annotations

from dungeon_twister.engine.boardgame.catalogue import SetCatalogue, load

SEAT_NAMES = {"B": "Blue", "Y": "Yellow"}
DEFAULT_SET = "base_set"
KNOWN_SETS = ("base_set", "prison", "paladins")
"""Where a code is looked up when no set is named: a code names the same kind in every set that has it."""


def other_seat(seat: str) -> str:
    return "Y" if seat == "B" else "B"


def seat_name(seat: str | None) -> str:
    return SEAT_NAMES.get(seat or "", "nobody")


def catalogue(set_name: str | None = None) -> SetCatalogue:
    """The catalogue of a view's set; the base set when the set is unknown to this client."""
    try:
        return load(set_name or DEFAULT_SET)
    except KeyError:
        return load(DEFAULT_SET)


def kind_name(code: str, set_name: str | None = None) -> str:
    for name in ((set_name,) if set_name else ()) + KNOWN_SETS:
        cat = catalogue(name)
        kind = cat.characters.get(code) or cat.objects.get(code)
        if kind:
            return kind.name
    return code


def token_name(token_id: str | None, set_name: str | None = None) -> str:
    """'bWA' -> 'Blue Warrior', 'bRP2' -> 'Blue Rope (2)' (a second copy, PD-TEAM-COMMON-01); an unknown id is
    returned as it is."""
    if not token_id or len(token_id) not in (3, 4) or token_id[0] not in "by":
        return str(token_id)
    copy = f" ({token_id[3]})" if len(token_id) == 4 and token_id[3].isdigit() else ""
    if len(token_id) == 4 and not copy:
        return str(token_id)
    return f"{seat_name(token_id[0].upper())} {kind_name(token_id[1:3], set_name)}{copy}"


def scenario_intro(view: dict | None) -> list[str]:
    """The lines that explain a scenario's goal and its new rules (the set's data, PR-SCEN), for a view that names
    one; nothing otherwise."""
    name = (view or {}).get("scenario")
    scenario = catalogue((view or {}).get("set")).scenarios.get(name) if name else None
    if not scenario:
        return []
    return [f"scenario {name}: {scenario.get('title', '')}", f"goal: {scenario.get('goal', '')}",
            f"new rules: {scenario.get('rules_text', '')}"]


def scenario_target(name: str) -> int | None:
    """The VP a scenario is played to (its victory data: 4 in PR-SCEN-4), or None when its victory is not VP."""
    for set_name in ("prison",):
        scenario = catalogue(set_name).scenarios.get(name)
        if scenario is not None:
            return scenario["victory"].get("target")
    from dungeon_twister.engine.cards.catalogue import load  # the card game's scenario cards (CG-SCEN-03)

    card = load().scenarios.get(name)
    return None if card is None else card["target_vp"]
