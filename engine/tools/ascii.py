"""Plain-text drawing of a view (views.view): rooms, walls, portcullises, pits, gears, tokens.

Yellow's start zone is drawn at the top, Blue's at the bottom. Each square is 3 characters: a token as its id
(`bWA`; a wounded one in capitals of its colour letter, `BWA`), `( )` a pit, ` @ ` a rotation mechanism,
`###` a face-down room. Edges: `|`/`---` wall, `H`/`===` closed portcullis, `:`/`...` open, `/`/`///` broken,
`!`/`~~~` arrow slit (Prison). Paladins & Dragons terrain (`TERRAIN`): `~~~` fog, `^^^` Rockfall, `vvv` crevasse,
`[X]` 3D obstacle, `(Y)` Fountain of Youth, `<*>` Pentacle; an illusion shows its maker's colour: `(b)` a pit,
`[b]` rubble.
"""

from __future__ import annotations

FILES = "abcdefghij"
TERRAIN = {"fog": "~~~", "rockfall": "^^^", "crevasses": "vvv", "obstacles": "[X]", "fountains": "(Y)",
           "pentacle": "<*>"}


def _name(x: int, y: int) -> str:
    return f"{FILES[x]}{y + 1}"


def render(view: dict) -> str:
    height = 5 * view["rows"]
    revealed = {r["slot"]: r["revealed"] for r in view["rooms"]}
    walls = {(a, b) for a, b, _ in view["walls"]} | {(b, a) for a, b, _ in view["walls"]}
    ports = {}
    for a, b, state in view["portcullises"]:
        ports[(a, b)] = ports[(b, a)] = state
    slits = {(a, b) for a, b in view.get("slits", ())} | {(b, a) for a, b in view.get("slits", ())}
    pits = set(view["pits"])
    terrain = {sq: TERRAIN[kind] for kind, squares in view.get("terrain", {}).items() for sq in squares}
    illusions = {sq: ("(" if kind == "pit" else "[") + colour.lower() + (")" if kind == "pit" else "]")
                 for sq, colour, kind in view.get("illusions", ())}
    gears = set(view["gears"].values())
    tokens: dict[str, list[dict]] = {}
    for t in view["tokens"]:
        tokens.setdefault(t["square"], []).append(t)
    hidden_counts: dict[str, list[str]] = {}
    for h in view["hidden"]:
        hidden_counts.setdefault(h["slot"], []).append(h["colour"])

    def slot_of(x, y):
        return f"{'AB'[x // 5]}{y // 5 + 1}" if 0 <= y < height else None

    def cell(x, y) -> str:
        name = _name(x, y)
        slot = slot_of(x, y)
        if slot and not revealed[slot]:
            colours = "".join(sorted(hidden_counts.get(slot, [])))
            offset = (y % 5) * 5 + x % 5
            return f" {colours[offset].lower()} " if offset < len(colours) else "###"
        here = tokens.get(name, [])
        if here:
            main = next((t for t in here if t["character"] and not t["wounded"]), None) or \
                next((t for t in here if t["character"]), None) or here[0]
            if main["id"] is None:
                text = main["colour"].lower() + "??"
            else:
                text = main["id"]
                if main["wounded"]:
                    text = text[0].upper() + text[1:]
            return text
        if name in illusions:
            return illusions[name]
        if name in terrain:
            return terrain[name]
        if name in pits:
            return "( )"
        if name in gears:
            return " @ "
        return "   " if slot else " . "

    def vertical(x, y) -> str:  # edge between (x, y) and (x+1, y)
        a, b = _name(x, y), _name(x + 1, y)
        if (a, b) in walls:
            return "|"
        if (a, b) in slits:
            return "!"
        state = ports.get((a, b))
        return {"closed": "H", "open": ":", "broken": "/"}.get(state, " " if slot_of(x, y) or y in (-1, height) else " ")

    def horizontal(x, y) -> str:  # edge between (x, y) and (x, y+1)
        a, b = _name(x, y), _name(x, y + 1)
        if (a, b) in walls:
            return "---"
        if (a, b) in slits:
            return "~~~"
        state = ports.get((a, b))
        return {"closed": "===", "open": "...", "broken": "///"}.get(state, "   ")

    lines = []
    header = "      " + "   ".join(FILES[x] for x in range(10))
    lines.append(header)
    for y in range(height, -2, -1):
        row = f"{y + 1:>3} |" + "".join(cell(x, y) + (vertical(x, y) if x < 9 else "|") for x in range(10))
        if y == height or y == -1:
            row += "  Yellow start zone" if y == height else "  Blue start zone"
        lines.append(row)
        if y > -1:
            sep = "    +" + "".join(horizontal(x, y - 1) + "+" for x in range(10))
            lines.append(sep)
    lines.append(header)
    return "\n".join(lines)


def render_summary(view: dict) -> str:
    """Score, cards and whose turn it is, in a few lines."""
    out = []
    for seat, p in view["players"].items():
        name = {"B": "Blue", "Y": "Yellow"}[seat]
        cards = p["action_cards"] if isinstance(p["action_cards"], int) else "".join(map(str, p["action_cards"]))
        combat = p["combat_cards"] if isinstance(p["combat_cards"], int) else " ".join(f"+{v}" for v in p["combat_cards"])
        out.append(f"{name:<6} VP {p['vp']}  action cards {cards}  combat {combat}  jumps {p['jumps']}")
    line = f"turn {view['turn']} phase {view['phase']}"
    if view["active"]:
        line += f"  active {view['active']}  AP {view['ap']}"
    if view["pools"]:
        line += "  potion AP " + ", ".join(f"{t}:{n}" for t, n in view["pools"].items())
    out.append(line)
    if view["outcome"]:
        o = view["outcome"]
        out.append(f"game over: {'draw' if o['winner'] is None else o['winner'] + ' wins'} ({o['reason']})")
    return "\n".join(out)
