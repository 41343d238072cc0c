"""The side panel's card-game parts (CG rules): the action wheel, the hands, a combat, a revealed room's cards to
place; and the card game's events in plain words for the log. panel.py lays them out as the board game's."""

from __future__ import annotations

from prompt_toolkit.formatted_text import StyleAndTextTuples

from .describe import describe_event as server_event
from .names import seat_name

HINTS = {"select": "pick a character, then an object: pick WA, pick KY",
         "handicap": "leave out your handicap's characters, in secret: remove bWA bTH",
         "hide": "hide your 2 start characters in secret: hide bMK:1 bSN:2",
         "seed": "lay a card face down beside a room: seed CARD ROOM",
         "face": "choose where your start characters face, in secret: face bMK:a1 bSN:c1",
         "main": "spend your AP (move, reveal, rotate, jump, attack...), or end",
         "place": "place a card of the revealed room: place CARD ZONE",
         "combat": "lay a combat card: card N"}
PHASES = {"select": "team selection", "handicap": "handicap (characters left out)", "hide": "start characters, face down", "seed": "seeding the rooms", "face": "facings, in secret",
          "main": "spending AP", "combat": "combat cards", "place": "placing a revealed room's cards",
          "over": "game over"}
SIDES = {"N": "north", "E": "east", "S": "south", "W": "west"}


def choice_verb(purpose: str) -> str:
    """What a secret choice is typed as: build (a full frontal team), hide, face, or card N for a combat."""
    return purpose if purpose in ("build", "hide", "face") else "card"


MODES = {"mutual": "mutual choice: both take each pick", "draft": "draft: a pick takes the opponent's card out"}


def selection(view: dict) -> StyleAndTextTuples:
    """CG-SEL-MUTUAL-01 / CG-SEL-DRAFT-01: both teams so far, and who picks what now."""
    sel = view.get("selection")
    if not sel:
        return []
    out: StyleAndTextTuples = [("class:title", "\nTeam selection"), ("", f" ({MODES.get(sel['mode'], sel['mode'])};"
                                                                          f" {seat_name(sel['first'])} began)\n")]
    for seat in ("B", "Y"):
        team = " ".join(sel["teams"][seat]) or "-"
        kit = " ".join(sel["kits"][seat]) or "-"
        gone = f" · out: {' '.join(sel['out'][seat])}" if sel["out"].get(seat) else ""
        out.append(("", f"  {seat_name(seat)}: {team} | {kit}{gone}\n"))
    stage = "a character" if sel["stage"] == "characters" else "an object"
    out.append(("class:active", f"  {seat_name(sel['picker'])} picks {stage}\n"))
    return out


def turn_detail(view: dict) -> StyleAndTextTuples:
    out: StyleAndTextTuples = []
    h = view.get("handicap")
    if h:  # CG-HCAP-04
        cards = " and ".join(f"+{v}" for v in h["cards_removed"]) or "no card"
        out.append(("class:dim", f"handicap: {seat_name(h['seat'])} leaves out {h['characters_removed']} "
                                 f"characters and {cards}\n"))
    return out + _wheel(view)


def _wheel(view: dict) -> StyleAndTextTuples:
    active = view.get("active")
    if not active or view.get("phase") not in ("main", "combat", "place"):
        return []
    ap = view["players"][active]["ap"]
    return [("", f"{seat_name(active)}'s action wheel: {ap} AP (3 a turn, 3 kept, CG-TURN)\n")]


def player(view: dict, seat: str, player: dict, own: bool) -> StyleAndTextTuples:
    hand = view.get("my_cards") if own else None
    cards = " ".join(f"+{v}" for v in hand) if hand is not None else f"{player['cards']} in hand"
    out: StyleAndTextTuples = [
        ("", "\n"), (f"class:seat.{seat.lower()}", f"{seat_name(seat)}{' (you)' if own else ''}"),
        ("class:title", f"  {player['vp']} VP of {view.get('target_vp', '?')}\n"),
        ("", f"  AP {player['ap']} · jumps {player['jumps']}\n")]
    if view.get("tutorial", 1) != 1 or player["cards"]:
        out.append(("", f"  combat cards: {cards or '-'}\n"))
    return out


def combat(view: dict, seat: str | None) -> StyleAndTextTuples:
    c = view.get("combat")
    if not c:
        return []
    sides = c["sides"]
    attacker = next(iter(sides))
    defender = next(s for s in sides if s != attacker)
    out: StyleAndTextTuples = [
        ("class:title", f"\nCombat {c['number']} in {c['zone']}: {seat_name(attacker)} attacks {c['target']}\n"),
        ("", f"  {', '.join(sides[attacker])} vs {', '.join(sides[defender])}\n")]
    if c.get("shooters"):
        out.append(("", "  shooting with " + ", ".join(f"{f} {v}" for f, v in c["shooters"].items()) + "\n"))
    mind = c.get("mind")
    if mind and mind.get("naming"):
        out.append(("", f"  {seat_name(mind['naming'])}'s Telepath names a card first\n"))
    elif mind and mind.get("named") is not None:
        named = f"+{mind['named']}" if mind["named"] else "nothing"
        out.append(("", f"  the Telepath named {named}\n"))
    frenzy = c.get("frenzy")
    if frenzy and frenzy.get("announcing"):
        out.append(("", f"  {seat_name(frenzy['announcing'])}'s Berserker announces 1 or 2 cards\n"))
    first = c.get("first")
    if first:
        laid = f": +{first['card']}" if first.get("card") is not None else ""
        out.append(("", f"  {seat_name(first['seat'])} lays first, face up{laid}\n"))
    played = ", ".join(f"{seat_name(s)} has laid a card" for s in c.get("played", ()))
    mine = f" · your card +{c['my_card']}" if c.get("my_card") is not None else ""
    if played or mine:
        out.append(("", f"  {played}{mine}\n"))
    return out


def placement(view: dict) -> StyleAndTextTuples:
    p = view.get("placement")
    if not p:
        return []
    who = seat_name(p["placers"][0]) if p.get("placers") else "?"
    return [("class:title", f"\nRoom {p['room']} revealed: "), ("", f"{who} places {', '.join(p['queue'])}\n")]


# --- the log --------------------------------------------------------------------------------------------------

def describe_event(event: dict) -> str | None:
    """One log line for a card-game event; the server's own events (game started, timeout...), the view refresh
    and an event hidden from us (empty) as describe.py says them."""
    describe = _DESCRIPTIONS.get(event.get("kind"))
    return describe(event) if describe is not None else server_event(event)


def compact_event(event: dict) -> str | None:
    """The move list's entry for an action's event (None: not an action's)."""
    kind = event.get("kind")
    f = event.get("figure")
    if kind in ("move", "wallwalk"):
        return f"{f} {event['path'][-1]}"
    if kind in ("attack", "shoot", "heal", "fireball"):
        return f"{f} {kind} {event.get('target')}"
    if kind == "jump":
        return f"{f} jump {event['zone']}"
    if kind == "levitate":
        return f"{f} levitate {event['item']} {event['at']}"
    if kind == "reveal":
        return f"{f} reveal {_room(event['slot'])}"
    if kind == "rotate":
        return f"{f} rotate {_room(event['slot'])} {event['dir']}"
    if kind == "exit":
        return f"{f} exits"
    return None


def _room(slot) -> str:
    return "ABCDEFGH"[slot] if isinstance(slot, int) and 0 <= slot < 8 else str(slot)


def _seat(event: dict) -> str:
    return seat_name(event.get("seat"))


def _hidden(e: dict) -> str:
    if "placements" in e:
        where = ", ".join(f"{f} on {e['seat']}{c + 1}" for f, c in e["placements"])
        return f"You hid {where} (face down)"
    return f"{_seat(e)} hid its start characters (face down)"


def _start_cards(e: dict) -> str:
    counts = ", ".join(f"{where}: {n}" for where, n in e.get("counts", {}).items())
    return f"Start zones: {counts}; {seat_name(e.get('seeder'))} seeds first"


def _seeded(e: dict) -> str:
    what = e.get("item") or "a card"
    return f"{_seat(e)} lays {what} face down beside room {_room(e.get('slot'))}"


def _faced(e: dict) -> str:
    if "facings" in e:
        return "You chose your facings: " + ", ".join(f"{f} faces {z}" for f, z in e["facings"])
    return f"{_seat(e)} has chosen its facings"


def _teams(e: dict) -> str:
    shown = ", ".join(f"{f} on {where} facing {zone}" for f, where, zone in e.get("figures", ()))
    return f"Teams revealed: {shown}. {seat_name(e.get('first'))} plays first ({e.get('ap')} AP)"


def _turn(e: dict) -> str:
    kept = f", {e['kept']} kept" if e.get("kept") else ""
    return f"Turn {e.get('turn')}: {_seat(e)} to play, {e.get('ap')} AP{kept}"


def _reveal(e: dict) -> str:
    cards = f"; its cards: {', '.join(e['cards'])}" if e.get("cards") else ""
    return f"{e['figure']} reveals room {_room(e['slot'])} ({e.get('card')}){cards}"


def _step(token: str) -> str:
    """One path token in words (docs/card-game.md, move path tokens)."""
    if token[:2] == "+@":  # secret objects (DT-222): what that character carried, unnamed
        return f"takes what {token[2:]} carries"
    if token[:1] == "+":
        return f"takes {token[1:]}"
    if token[:1] == "-":
        return f"drops {token[1:]}"
    if token[:1] == ">":
        return f"gives to {token[1:]}"
    if token[:1] == "^":
        return f"faces {token[1:]}"
    if "^" in token:
        where, faced = token.split("^", 1)
        return f"{where} facing {faced}"
    if token[:1] in "BY":
        return f"{token} (start zone)"
    return token


def _move(e: dict) -> str:
    return f"{e['figure']} moves: {', '.join(map(_step, e['path']))}"


def _picked(e: dict) -> str:
    if e.get("mode") == "draft":
        return f"{_seat(e)} takes {e['code']} (the other's {e['code']} is out of the game)"
    return f"{_seat(e)} shows {e['code']}: both take it"


def _built(e: dict) -> str:
    if "characters" in e:
        return f"You chose your team: {', '.join(e['characters'])}; {', '.join(e['objects'])}"
    return f"{_seat(e)} has chosen its team, in secret"


def _combat(e: dict) -> str:
    cards = e.get("cards") or {}
    totals = e.get("totals") or {}
    laid = " vs ".join(f"{seat_name(s)} {totals.get(s)} (card +{cards.get(s)})" for s in ("B", "Y") if s in totals)
    if e.get("winner") is None:
        return f"Combat {e.get('number')}: {laid}: a tie, nobody is hurt"
    hurt = [*(f"{f} wounded" for f in e.get("wounded", ())), *(f"{f} eliminated" for f in e.get("eliminated", ()))]
    if e.get("hunter_vp"):  # CG-CHAR-PALADIN-02
        hurt.append(f"+{e['hunter_vp']} VP for the undead the Paladin hunted")
    return f"Combat {e.get('number')}: {laid}: {seat_name(e['winner'])} wins" + (f"; {', '.join(hurt)}" if hurt
                                                                                   else "")


def _attack(e: dict, verb: str = "attacks") -> str:
    return (f"Combat {e.get('number')}: {e['figure']} {verb} {e['target']} in {e['zone']} "
            f"({', '.join(e['attackers'])} vs {', '.join(e['defenders'])})")


_DESCRIPTIONS = {
    "picked": _picked, "built": _built,
    "removed": lambda e: (f"You leave out {', '.join(e['figures'])} (handicap)" if "figures" in e
                          else f"{_seat(e)} leaves out {e['count']} characters, unseen (handicap)"),
    "teams_selected": lambda e: "The teams are selected: each places 2 characters face down on his start zone",
    "hidden": _hidden, "start_cards": _start_cards, "seeded": _seeded, "faced": _faced, "teams": _teams,
    "turn": _turn, "reveal": _reveal, "move": _move, "combat": _combat, "attack": _attack,
    "shoot": lambda e: _attack(e, "shoots at"),
    "place": lambda e: f"{_seat(e)} places {e['card']} on {e['zone']}",
    "saved": lambda e: f"{e['figure']} is carried out of the maze",
    "exit": lambda e: f"{e['figure']} leaves the maze: +{e['vp']} VP",
    "game_over": lambda e: f"Game over: {seat_name(e.get('winner'))} wins "
                           + "-".join(str(v) for _, v in e.get("vp", ())),
    "rotate": lambda e: f"{e['figure']} turns room {_room(e['slot'])} "
                        f"{'clockwise' if e['dir'] == 'cw' else 'counter-clockwise'}",
    "jump": lambda e: f"{e['figure']} jumps to {e['zone']} ({e['jumps_left']} jump cards left"
                      + (f"; gives up its +{e['discarded']}" if e.get("discarded") is not None else "") + ")",
    "portcullis": lambda e: f"{e['figure']} {'opens' if e['open'] else 'closes'} the portcullis "
                            f"{SIDES.get(e['side'], e['side'])} of {e['zone']}",
    "bend_bars": lambda e: f"{e['figure']} bends the bars {SIDES.get(e['side'], e['side'])} of {e['zone']}",
    "combat_card": lambda e: (f"{_seat(e)} lays +{e['value']}" if "value" in e else f"{_seat(e)} lays a card"),
    "frenzy": lambda e: f"{_seat(e)}'s Berserker fights with {e['cards']} card(s)",
    "mind_named": lambda e: (f"{_seat(e)}'s Telepath names +{e['value']}" if e.get("value")
                             else f"{_seat(e)}'s Telepath names {'nothing' if 'value' in e else 'a card'}"),
    "heal": lambda e: f"{e['figure']} heals {e['target']} in {e['zone']}",
    "regenerate": lambda e: f"{e['figure']} regenerates in {e['zone']}",
    "wallwalk": lambda e: f"{e['figure']} walks through the wall: {', '.join(map(_step, e['path']))}",
    "walls_broken": lambda e: f"{e['figure']} breaks the walls of room {e['room']}",
    "fireball": lambda e: f"{e['figure']} casts a fireball at {e['target']} in {e['zone']}"
                          + (f": {', '.join(e['eliminated'])} eliminated" if e.get("eliminated") else ""),
    "inverted": lambda e: f"{e['figure']} swaps rooms {' and '.join(e['rooms'])}",
    "stolen": lambda e: f"{e['figure']} steals {e.get('item', 'an object')} from {e['victim']} in {e['zone']}",
    "shield_shown": lambda e: f"{e['figure']} shoots at {e['target']} in {e['zone']}: a Large Shield stops the shot",
    "levitate": lambda e: f"{e['figure']} moves {e['item']} from afar to {e['at']}"
                          + (f", into {e['to']}'s hands" if e.get("to") else ""),
}


ICON_NAMES = {"T": "a triangle zone", "S": "a square zone", "C": "a circle zone", "R": "the rotation zone"}


def describe_zone(view: dict, name: str) -> str:
    """`look c3` at a card table: the zone's icon, who and what is there, and its borders (CG-ZONE)."""
    from dungeon_twister.engine.cards.maze import slot_of

    from .cards_board import maze_of

    if len(name) < 2 or name[0] not in "abcd" or not name[1:].isdigit() or not 1 <= int(name[1:]) <= 2 * view[
            "length"]:
        return f"{name}: not a zone of this maze (a1 to d{2 * view['length']})"
    zone = ("abcd".index(name[0]), int(name[1:]) - 1)
    room = view["rooms"][slot_of(zone)]
    if not room["revealed"]:
        return f"{name}: in room {room['room']}, still face down (its zones show when it is revealed)"
    maze = maze_of(view)
    parts = [f"{ICON_NAMES[maze.icon(zone)]} of room {room['room']} ({room['card']})"]
    for f in view.get("figures", ()):
        if f.get("at") == name and f.get("where") == "maze":
            state = " (wounded)" if f.get("wounded") else ""
            loads = [load for load in (f.get("carries"), f.get("also_carries")) if load]
            if f.get("hidden_objects"):  # CG-OPT-03: the other player's objects are secret
                loads.append(f"{f['hidden_objects']} object{'s' if f['hidden_objects'] > 1 else ''} unseen")
            carries = f", carrying {' and '.join(loads)}" if loads else ""
            parts.append(f"{f['id']}{state}{carries}")
    parts += [f"{i['id']} on the floor" for i in view.get("items", ()) if i.get("where") == "floor"
              and i.get("at") == name]
    borders = [f"{SIDES[side]}: {' and '.join(found)}" for side in "NESW" if (found := maze.features(zone, side))]
    if borders:
        parts.append("borders " + ", ".join(borders))
    return f"{name}: " + "; ".join(parts)
