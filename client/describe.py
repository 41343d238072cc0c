"""Table events in plain words, for the event log: the engine's events and the server's own (game started,
players joining and leaving, timeouts), as the server forwards them."""

from __future__ import annotations

from collections.abc import Callable

from .names import kind_name, seat_name, token_name

DIRECTION_NAMES = {"n": "north", "e": "east", "s": "south", "w": "west"}
CAUSES = {"combat": "in combat", "fireball": "by a fireball", "pit": "in a pit",
          "carrier wounded": "as its carrier falls", "breath": "by dragon fire", "rockfall": "by falling rocks",
          "dragon slain": "by the Dragon-Slayer Sword"}


def describe_event(event: dict) -> str | None:
    """One log line for an event; None for an event hidden from us (an empty map) or the view refresh."""
    kind = event.get("kind")
    if not kind or kind == "view":
        return None
    describe = _DESCRIPTIONS.get(kind)
    if describe is None:
        details = " ".join(f"{key}={value}" for key, value in event.items() if key != "kind")
        return f"{kind.replace('_', ' ')} {details}".strip()
    return describe(event)


def _tok(event: dict, key: str = "token") -> str:
    return token_name(event.get(key))


def _moved(e: dict) -> str:
    route = e.get("route") or []
    text = f"{_tok(e)} moves {' > '.join(route)}"
    extras = []
    if e.get("take"):
        extras.append(f"takes {token_name(e['take'])}")
    extras += [f"leaves {token_name(token)} on {square}" for token, square in e.get("leave") or []]
    return text + (f" ({', '.join(extras)})" if extras else "")


def _wallwalked(e: dict) -> str:
    route = e.get("route") or []
    return f"{_tok(e)} walks through the wall {' > '.join(route)}"


def _jumped(e: dict) -> str:
    route = e.get("route") or ["?", "?", "?"]
    return f"{_tok(e)} jumps over the pit {route[1]} to {route[-1]}"


def _revealed(e: dict) -> str:
    tokens = e.get("tokens") or []
    found = f": {len(tokens)} token(s) to place" if tokens else ""
    return f"{token_name(e.get('by'))} reveals room {e.get('slot')} (tile {e.get('tile')}){found}"


def _rotated(e: dict) -> str:
    way = "clockwise" if e.get("clockwise") else "counter-clockwise"
    return f"{token_name(e.get('by'))} rotates room {e.get('slot')} a quarter turn {way}"


def _portcullis(e: dict) -> str:
    verb = {"break": "breaks", "open": "opens", "close": "closes"}.get(e.get("how"), e.get("how"))
    side = DIRECTION_NAMES.get(e.get("direction"), e.get("direction"))
    return f"{token_name(e.get('by'))} {verb} the portcullis {side} of {e.get('square')}"


def _fireball(e: dict) -> str:
    victims = ", ".join(token_name(v) for v in e.get("victims") or []) or "nobody"
    side = DIRECTION_NAMES.get(e.get("direction"), e.get("direction"))
    shielded = ", ".join(token_name(v) for v in e.get("shielded") or [])
    spent = f" ({shielded}: the Fire Shield stops it)" if shielded else ""  # PD-OBJ-FIRESHIELD-01
    return f"{token_name(e.get('by'))} casts a fireball {side}: it hits {victims}{spent}"


def _combat_declared(e: dict) -> str:
    sides = ""
    if len(e.get("attackers") or []) + len(e.get("defenders") or []) > 2:
        attackers = ", ".join(token_name(t) for t in e["attackers"])
        defenders = ", ".join(token_name(t) for t in e["defenders"])
        sides = f" (group combat: {attackers} against {defenders})"
    if e.get("shooters"):
        shooters = ", ".join(token_name(t) for t in e["shooters"])
        return f"combat {e.get('number')}: {shooters} shoot{'s' if len(e['shooters']) == 1 else ''} at " \
               f"{_tok(e, 'target')}{sides}"
    if e.get("lancer"):
        return f"combat {e.get('number')}: {_tok(e, 'attacker')} attacks {_tok(e, 'target')} with the lance{sides}"
    return f"combat {e.get('number')}: {_tok(e, 'attacker')} attacks {_tok(e, 'target')}{sides}"


def _card_chosen(e: dict) -> str:
    value = f" +{e['value']}" if "value" in e else " a card"
    return f"{seat_name(e.get('seat'))} chooses{value} for the combat"


def _combat_resolved(e: dict) -> str:
    """Attacker first: 'combat 1: Blue attacks with 7 (card +2) against Yellow's 6 (card +0): Blue wins'."""
    cards = e.get("cards") or {}
    attacker = e.get("attacker_seat")
    winner = e.get("winner")
    outcome = f"{seat_name(winner)} wins" if winner else "a tie: nothing happens"
    if attacker in ("B", "Y") and set(cards) == {"B", "Y"}:
        defender = "Y" if attacker == "B" else "B"
        return (f"combat {e.get('number')}: {seat_name(attacker)} attacks with {e.get('attack')} (card "
                f"+{cards[attacker]}) against {seat_name(defender)}'s {e.get('defence')} (card +{cards[defender]}): "
                f"{outcome}")
    listed = ", ".join(f"{seat_name(seat)} +{value}" for seat, value in cards.items())
    return f"combat {e.get('number')}: {e.get('attack')} against {e.get('defence')} ({listed}): {outcome}"


def _team_chosen(e: dict) -> str:
    team = e.get("team")
    if team:
        placed = ", ".join(f"{code} on {square}" for square, code in sorted(team.items()))
        return f"{seat_name(e.get('seat'))} chooses the team {placed}"
    return f"{seat_name(e.get('seat'))} has chosen a team"


def _hidden(e: dict) -> str:
    what = token_name(e["token"]) if e.get("token") else "a token"
    return f"{seat_name(e.get('seat'))} hides {what} in room {e.get('slot')}"


def _teams_revealed(e: dict) -> str:
    parts = []
    for seat, team in sorted((e.get("teams") or {}).items()):
        parts.append(f"{seat_name(seat)}: " + ", ".join(kind_name(t[1:]) for _, t in sorted(team.items())))
    return "the teams are revealed: " + "; ".join(parts)


def _game_over(e: dict) -> str:
    vp = e.get("vp") or {}
    score = f"{vp.get('B', '?')}-{vp.get('Y', '?')}"
    winner = e.get("winner")
    verdict = f"{seat_name(winner)} wins" if winner else "draw"
    return f"game over: {verdict} {score} ({e.get('reason')})"


def _timeout(e: dict) -> str:
    what = f" for {e['purpose']}" if e.get("purpose") else ""
    return f"{seat_name(e.get('seat'))}'s time ran out{what}: {'; '.join(e.get('actions') or []) or 'nothing done'}"


_DESCRIPTIONS: dict[str, Callable[[dict], str]] = {
    # the server's own events
    "game_started": lambda e: "the game starts: " + ", ".join(
        f"{seat_name(seat)} {name}" for seat, name in sorted((e.get("seats") or {}).items())),
    "player_joined": lambda e: f"{e.get('name')} sits down as {seat_name(e.get('seat'))}",
    "player_left": lambda e: f"{seat_name(e.get('seat'))} leaves the table",
    "timeout": _timeout,
    "takeback_asked": lambda e: f"{seat_name(e.get('seat'))} asks to take back {e.get('action')!r}: "
                                "the other player answers yes or no",
    "taken_back": lambda e: f"{seat_name(e.get('seat'))}'s {e.get('action')!r} is taken back",
    "takeback_declined": lambda e: f"{seat_name(e.get('by'))} declines to take back {seat_name(e.get('seat'))}'s "
                                   "action",
    # the engine's events
    "moved": _moved,
    "wallwalked": _wallwalked,
    "jumped": _jumped,
    "room_revealed": _revealed,
    "placed": lambda e: f"{seat_name(e.get('by'))} places {_tok(e)} on {e.get('square')}",
    "placement_passed": lambda e: f"{seat_name(e.get('seat'))} leaves his objects to the revealer",
    "room_rotated": _rotated,
    "healed": lambda e: f"{token_name(e.get('by'))} heals {_tok(e)}",
    "regenerated": lambda e: f"{_tok(e)} regenerates",
    "portcullis": _portcullis,
    "fireball": _fireball,
    "breath": lambda e: _fireball(e).replace("casts a fireball", "breathes fire"),
    "wall_broken": lambda e: f"{token_name(e.get('by'))} breaks the wall {DIRECTION_NAMES.get(e.get('direction'), '?')}"
    f" of {e.get('square')} ({e.get('left')} break(s) left)",
    "illusion": lambda e: f"{token_name(e.get('by'))} {'moves' if e.get('moved') else 'casts'} an illusion "
    f"{e.get('illusion')} onto {e.get('square')}",
    "illusion_removed": lambda e: f"the illusion {e.get('illusion')} of {token_name(e.get('by'))} on "
    f"{e.get('square')} vanishes",
    "stolen": lambda e: f"{token_name(e.get('by'))} steals {_tok(e)} from {token_name(e.get('victim'))}",
    "teleported": lambda e: f"{_tok(e)} teleports {' > '.join(e.get('route') or [])} (the Ring is used up)",
    "charmed": lambda e: f"{token_name(e.get('by'))} charms {token_name(e.get('target'))}: "
    f"{e.get('actions')} actions for its charmer this turn",
    "charm_ended": lambda e: f"{token_name(e.get('target'))} is no longer charmed",
    "fountain": lambda e: f"{_tok(e)} drinks from the Fountain of Youth and is healed",
    "picked": lambda e: (f"{seat_name(e.get('seat'))} picks the room pair {e.get('value')}"
                         if e.get("stage") == "rooms" else
                         f"{seat_name(e.get('seat'))} picks the {kind_name(str(e.get('value')))}: both teams take it"),
    "teams_built": lambda e: "the teams are built: the secret choice of the starting four follows",
    "built": lambda e: (f"you build your team: pairs {', '.join(map(str, e.get('pairs') or []))}; "
                        f"{' '.join(e.get('characters') or [])}; {' '.join(e.get('objects') or [])}"
                        if e.get("characters") else f"{seat_name(e.get('seat'))} has built a team in secret"),
    "rooms_shared": lambda e: (f"both chose the room pair(s) {', '.join(map(str, e.get('pairs') or []))}: laid once, "
                               f"{seat_name(e.get('kept_by'))}'s; the other gets an unchosen pair instead, unseen "
                               "(RUL-072)"),
    "potion_drunk": lambda e: f"{_tok(e)} drinks the Speed Potion: +{e.get('extra_ap')} AP for him",
    "combat_declared": _combat_declared,
    "card_chosen": _card_chosen,
    "combat_resolved": _combat_resolved,
    "ratings": lambda e: "ratings: " + " · ".join(
        f"{seat_name(seat)} {change.get('name')} {change.get('before')} → {change.get('after')} (±{change.get('rd')})"
        for seat, change in sorted((e.get("changes") or {}).items()) if isinstance(change, dict)),
    "wounded": lambda e: f"{_tok(e)} is wounded on {e.get('square')}",
    "eliminated": lambda e: f"{_tok(e)} is eliminated {CAUSES.get(e.get('cause'), '')}".rstrip()
    + f": {e.get('vp', 1)} VP for {seat_name(e.get('scorer'))}",
    "exited": lambda e: f"{_tok(e)} leaves the maze: VP for {seat_name(e.get('scorer'))}",
    "saved": lambda e: f"{_tok(e)} is carried out and saved",
    "treasure_scored": lambda e: f"{_tok(e)} is carried out: 1 VP for {seat_name(e.get('scorer'))}",
    "discarded": lambda e: f"{_tok(e)} is carried out and discarded",
    "lance_broken": lambda e: f"{_tok(e)} breaks: {token_name(e.get('by'))}'s side lost",
    "mind_named": lambda e: (f"{seat_name(e.get('seat'))} names nothing" if e.get("value") is None else
                             f"{seat_name(e.get('seat'))} names +{e.get('value')}: "
                             + ("it must be played" if e.get("held") else "not held; the hand is shown"
                                + (f" ({' '.join(f'+{v}' for v in e['hand'])})" if e.get("hand") else ""))),
    "pushed": lambda e: f"{token_name(e.get('by'))} pushes {_tok(e)} from {e.get('square')} to {e.get('to')}",
    "team_chosen": _team_chosen,
    "hidden_placement_started": lambda e: f"hidden placement starts; {seat_name(e.get('first'))} hides first",
    "hidden": _hidden,
    "teams_revealed": _teams_revealed,
    "turn_started": lambda e: f"turn {e.get('turn')}: {seat_name(e.get('seat'))} plays",
    "card_played": lambda e: f"{seat_name(e.get('seat'))} plays the action card {e.get('value')}",
    "cards_recovered": lambda e: f"{seat_name(e.get('seat'))} takes his action cards back",
    "turn_ended": lambda e: f"{seat_name(e.get('seat'))} ends turn {e.get('turn')}",
    "game_over": _game_over,
}


def _route(e: dict) -> str:
    route = [sq for sq in e.get("route") or () if isinstance(sq, str)]
    items = ([f"+{e['take']}"] if e.get("take") else []) + [f"{t}@{sq}" for t, sq in e.get("leave") or ()
                                                           if isinstance(t, str) and isinstance(sq, str)]
    return "-".join(route[:1] + route[-1:]) + "".join(" " + item for item in items)


_COMPACT = {
    "card_played": lambda e: f"{e.get('seat')} card {e.get('value')}",
    "moved": lambda e: f"{e.get('token')} {_route(e)}",
    "jumped": lambda e: f"{e.get('token')} jumps {'-'.join((e.get('route') or ['?'])[-1:])}",
    "wallwalked": lambda e: f"{e.get('token')} through the wall {'-'.join((e.get('route') or ['?'])[-1:])}",
    "room_revealed": lambda e: f"reveal {e.get('slot')}",
    "room_rotated": lambda e: f"rotate {e.get('slot')} {'cw' if e.get('clockwise') else 'ccw'}",
    "combat_declared": lambda e: f"{e.get('attacker')} attacks {e.get('target')}",
    "combat_resolved": lambda e: f"{e.get('attack')}:{e.get('defence')}",
    "portcullis": lambda e: f"{e.get('how')} {e.get('square')}",
    "fireball": lambda e: f"{e.get('by')} fireball {e.get('direction')}",
    "breath": lambda e: f"{e.get('by')} breathes {e.get('direction')}",
    "wall_broken": lambda e: f"{e.get('by')} smashes {e.get('direction')}",
    "illusion": lambda e: f"{e.get('by')} {e.get('illusion')} {e.get('square')}",
    "stolen": lambda e: f"{e.get('by')} steals {e.get('token')}",
    "teleported": lambda e: f"{e.get('token')} teleports {'-'.join((e.get('route') or ['?'])[-1:])}",
    "charmed": lambda e: f"{e.get('by')} charms {e.get('target')}",
    "fountain": lambda e: f"{e.get('token')} fountain",
    "healed": lambda e: f"{e.get('by')} heals {e.get('token')}",
    "regenerated": lambda e: f"{e.get('token')} regenerates",
    "potion_drunk": lambda e: f"{e.get('token')} drinks",
    "pushed": lambda e: f"{e.get('by')} pushes {e.get('token')}",
    "turn_ended": lambda e: f"{e.get('seat')} end",
}


def compact_event(event: dict) -> str | None:
    """A player's action in a few characters, for the panel's move list ('bWA c4-d5 +bRP', 'rotate A2 cw');
    None for what is not a player's action."""
    compact = _COMPACT.get(event.get("kind"))
    if compact is None:
        return None
    try:
        return compact(event)
    except (TypeError, ValueError):
        return None


TERRAIN_WORDS = {  # Paladins & Dragons terrain (PD-TERR, PD-GLOS-03), as `look` says it
    "fog": "fog (nobody in it can be targeted; no line of sight enters it)",
    "rockfall": "Rockfall (whoever enters without a shield or wings dies, and whoever stops there)",
    "crevasses": "a crevasse (flyers, the Ghost, a Rope or a jump cross it; nobody stops)",
    "obstacles": "a 3D obstacle (flyers and the Ghost cross it; it blocks sight)",
    "fountains": "the Fountain of Youth (a wounded character beside it drinks: fountain TOKEN)",
    "pentacle": "the Pentacle (1 VP to the only colour standing on it)",
}


def describe_square(view: dict, square: str) -> str:
    """What lies on a square, in words: tokens (who carries what), pit, rotation mechanism, start zone."""
    here = [token for token in view.get("tokens", []) if token["square"] == square]
    parts = []
    for token in sorted(here, key=lambda t: (not t["character"], t["wounded"])):
        if token["id"] is None:
            parts.append(f"a face-down {seat_name(token['colour'])} token")
        else:
            state = " (wounded)" if token["wounded"] else " (face down)" if token["face_down"] else ""
            parts.append(token_name(token["id"], view.get("set")) + state)
    if len(parts) == 2 and here and any(t["character"] and not t["wounded"] for t in here):
        parts = [f"{parts[0]}, carrying {parts[1]}"]
    illusion = next((i for i in view.get("illusions", ()) if i[0] == square), None)
    if illusion:  # PD-CHAR-ILLUS: a pit to all but its maker, or rubble only the Ghost crosses
        parts.append(f"{seat_name(illusion[1])}'s illusion {illusion[2]}")
    elif square in view.get("pits", []):
        parts.append("a pit")
    parts += [TERRAIN_WORDS[kind] for kind, squares in view.get("terrain", {}).items() if square in squares]
    slots = [slot for slot, gear in view.get("gears", {}).items() if gear == square]
    if slots:
        parts.append(f"the rotation mechanism of room {slots[0]}")
    zones = {"0": "Blue's start zone", str(5 * view.get("rows", 4) + 1): "Yellow's start zone"}
    if square[1:] in zones:
        parts.append(zones[square[1:]])
    elif not parts and square[:1] in "abcdefghij" and square[1:].isdigit():
        x, y = "abcdefghij".index(square[0]), int(square[1:]) - 1
        slot = f"{'AB'[x // 5]}{y // 5 + 1}"
        room = next((r for r in view.get("rooms", []) if r["slot"] == slot), None)
        if room is None:
            return f"{square}: not on the board"
        if not room["revealed"]:
            return f"{square}: inside room {slot}, still face down (what lies there shows when it is revealed)"
    return f"{square}: " + ("; ".join(parts) if parts else "nothing")
