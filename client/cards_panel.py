"""The side panel's card-game parts (CG rules): the action wheel, the hands, a combat, a revealed room's cards to
place; and the card game's events in plain words for the log. panel.py lays them out as the board game's."""

from __future__ import annotations

from prompt_toolkit.formatted_text import StyleAndTextTuples

from .describe import describe_event as server_event
from .i18n import N_, _, ngettext
from .names import combat_odds, combat_parts, kind_name, joined, labelled, room_card_name, seat_name

# TRANSLATORS: what to do now, by phase; the commands as typed (pick WA, remove bWA bTH, card N...) stay in English
# (the selection's hint said "a character, then an object", which a draft's object picks are not: a play-test;
# the line above it says which the picker takes now)
HINTS = {"select": N_("pick the character or object the line above names: pick CODE (Tab lists those left)"),
         "handicap": N_("leave out your handicap's characters, in secret: remove bWA bTH"),
         "hide": N_("hide your 2 start characters in secret: hide bMK:1 bSN:2"),
         "seed": N_("lay a card face down beside a room: seed CARD ROOM"),
         "face": N_("choose the icon each start character points at the face-down room in front, in secret: "
                    "face bMK:T bSN:C (T triangle, S square, C circle, R rotation zone)"),
         "main": N_("spend your AP (move, reveal, rotate, jump, attack...), or end"),
         "place": N_("place a card of the revealed room: place CARD ZONE"),
         "combat": N_("lay a combat card: card N"),
         # (a step of a phase, by the verb its legal actions start with: the naming and the announcement come
         # before the cards, CG-CHAR-ORDER-01)
         "combat:mind": N_("your Telepath names a card the opponent must play if he holds it: mind +N, or mind "
                           "none"),
         "combat:frenzy": N_("announce how many cards your Berserker fights with: frenzy 1 or frenzy 2")}
# TRANSLATORS: a phase of the card game, as the panel's turn line names it; short: "Turn 12 · {phase} · Blue
# and Yellow to act" fits one row of a 60-column terminal's panel
PHASES = {"select": N_("team selection"), "handicap": N_("characters left out"),
          "hide": N_("start characters hidden"), "seed": N_("seeding the rooms"), "face": N_("facings, in secret"),
          "main": N_("spending AP"), "combat": N_("combat cards"), "place": N_("revealed cards to place"),
          "over": N_("game over")}
# TRANSLATORS: a side of a zone: "the portcullis {side} of b3", "north: wall"
SIDES = {"N": N_("north"), "E": N_("east"), "S": N_("south"), "W": N_("west")}
FEATURES = {"wall": N_("wall"), "portcullis": N_("portcullis"),
            # TRANSLATORS: a broken portcullis on a zone's border ("north: broken")
            "broken": N_("broken"),
            # TRANSLATORS: an open portcullis on a zone's border ("north: open")
            "open": N_("open"),
            # TRANSLATORS: an arrow slit on a zone's border ("north: slit")
            "slit": N_("slit"), "pit": N_("pit")}
"""What lies on a zone's border (engine.cards.maze features), as `look` says it."""


def choice_verb(purpose: str) -> str:
    """What a secret choice is typed as: build (a full frontal team), hide, face, or card N for a combat."""
    return purpose if purpose in ("build", "hide", "face") else "card"


MODES = {"mutual": N_("mutual choice: both take each pick"),
         "draft": N_("draft: a pick takes the opponent's card out")}


def _side(side) -> str:
    return _(SIDES[side]) if side in SIDES else side


def selection(view: dict) -> StyleAndTextTuples:
    """CG-SEL-MUTUAL-01 / CG-SEL-DRAFT-01: both teams so far, and who picks what now."""
    sel = view.get("selection")
    if not sel:
        return []
    mode = sel["mode"]
    mode = _(MODES[mode]) if mode in MODES else mode
    out: StyleAndTextTuples = [("class:title", "\n" + _("Team selection")),
                               ("", " " + _("({mode}; {seat} began)").format(mode=mode, seat=seat_name(sel["first"]))
                                + "\n")]
    for seat in ("B", "Y"):
        team = " ".join(sel["teams"][seat]) or "-"
        kit = " ".join(sel["kits"][seat]) or "-"
        # TRANSLATORS: the cards a draft pick took out of a team
        gone = " · " + _("out: {cards}").format(cards=" ".join(sel["out"][seat])) if sel["out"].get(seat) else ""
        out.append(("", "  " + labelled(seat_name(seat), f"{team} | {kit}{gone}") + "\n"))
    if sel["stage"] == "characters":
        picks = _("{seat} picks a character").format(seat=seat_name(sel["picker"]))
    else:
        picks = _("{seat} picks an object").format(seat=seat_name(sel["picker"]))
    out.append(("class:active", f"  {picks}\n"))
    return out


def turn_detail(view: dict) -> StyleAndTextTuples:
    out: StyleAndTextTuples = []
    h = view.get("handicap")
    if h:  # CG-HCAP-04
        # TRANSLATORS: joins the items of a list ("+1 and +2"): keep the spaces
        cards = _(" and ").join(f"+{v}" for v in h["cards_removed"]) or _("no card")
        out.append(("class:dim", _("handicap: {seat} leaves out {count} characters and {cards}").format(
            seat=seat_name(h["seat"]), count=h["characters_removed"], cards=cards) + "\n"))
    return out + _wheel(view)


def _wheel(view: dict) -> StyleAndTextTuples:
    active = view.get("active")
    if not active or view.get("phase") not in ("main", "combat", "place"):
        return []
    ap = view["players"][active]["ap"]
    # TRANSLATORS: the Card Game's action wheel: each turn adds 3 AP (CG-TURN-04), and at most 3 unused AP are
    # carried over to the seat's next turn (CG-TURN-05); "3 kept" said nothing to a newcomer (play-test pl31)
    return [("", _("{seat}'s action wheel: {ap} AP (+3 each turn, up to 3 carried over, CG-TURN-05)").format(
        seat=seat_name(active), ap=ap) + "\n")]


def player(view: dict, seat: str, player: dict, own: bool) -> StyleAndTextTuples:
    hand = view.get("my_cards") if own else player.get("hand")  # (a hand of the view of everything: a replay's)
    # TRANSLATORS: how many cards a player holds (the other player's hand is secret)
    cards = " ".join(f"+{v}" for v in hand) if hand is not None else _("{count} in hand").format(count=player["cards"])
    name = _("{seat} (you)").format(seat=seat_name(seat)) if own else seat_name(seat)
    out: StyleAndTextTuples = [
        ("", "\n"), (f"class:seat.{seat.lower()}", name),
        ("class:title", "  " + _("{vp} VP of {target}").format(vp=player["vp"], target=view.get("target_vp", "?"))
         + "\n"),
        ("", "  " + _("AP {ap} · jumps {jumps}").format(ap=player["ap"], jumps=player["jumps"]) + "\n")]
    if view.get("tutorial", 1) != 1 or player["cards"]:
        out.append(("", "  " + _("combat cards: {cards}").format(cards=cards or "-") + "\n"))
    return out


def combat(view: dict, seat: str | None) -> StyleAndTextTuples:
    c = view.get("combat")
    if not c:
        return []
    sides = c["sides"]
    attacker = next(iter(sides))
    defender = next(s for s in sides if s != attacker)
    out: StyleAndTextTuples = [
        ("class:title", "\n" + _("Combat {number} in {zone}: {seat} attacks {target}").format(
            number=c["number"], zone=c["zone"], seat=seat_name(attacker), target=c["target"]) + "\n"),
        ("", "  " + _("{attackers} vs {defenders}").format(attackers=", ".join(sides[attacker]),
                                                           defenders=", ".join(sides[defender])) + "\n")]
    if c.get("shooters"):
        shooters = ", ".join(f"{f} {v}" for f, v in c["shooters"].items())
        out.append(("", "  " + _("shooting with {shooters}").format(shooters=shooters) + "\n"))
    totals = c.get("totals")
    if totals:  # both sides' values before the cards (absent with secret objects, CG-OPT-03)
        out.append(("", "  " + combat_odds(attacker, totals[attacker], totals[defender], seat) + "\n"))
        parts = c.get("parts")
        if isinstance(parts, dict):  # what makes them, attacker first (the General's +1, a Sword: review rv29)
            shown = combat_parts({"attack": parts.get(attacker), "defence": parts.get(defender)})
            if shown:
                out.append(("class:dim", f"  {shown}\n"))
    mind = c.get("mind")
    if mind and mind.get("naming"):
        out.append(("", "  " + _("{seat}'s Telepath names a card first").format(seat=seat_name(mind["naming"]))
                    + "\n"))
    elif mind and mind.get("named") is not None:
        if mind["named"]:
            named = _("the Telepath named +{value}").format(value=mind["named"])
        else:
            named = _("the Telepath named nothing")
        out.append(("", f"  {named}\n"))
    frenzy = c.get("frenzy")
    if frenzy and frenzy.get("announcing"):
        out.append(("", "  " + _("{seat}'s Berserker announces 1 or 2 cards").format(
            seat=seat_name(frenzy["announcing"])) + "\n"))
    first = c.get("first")
    if first:
        if first.get("card") is not None and first.get("second") is not None:  # a Berserker's two (CG-CHAR-BERSERK-02)
            # TRANSLATORS: a Berserker's two combat cards, laid face up against a Weapon Master
            laid = _("{seat} lays first, face up: +{card} and +{second}").format(
                seat=seat_name(first["seat"]), card=first["card"], second=first["second"])
        elif first.get("card") is not None:
            laid = _("{seat} lays first, face up: +{card}").format(seat=seat_name(first["seat"]), card=first["card"])
        else:
            laid = _("{seat} lays first, face up").format(seat=seat_name(first["seat"]))
        out.append(("", f"  {laid}\n"))
    shown = first.get("seat") if first and first.get("card") is not None else None  # (its card is said above)
    played = ", ".join(_("{seat} has laid a card").format(seat=seat_name(s)) for s in c.get("played", ()) if s != shown)
    if c.get("my_card") is not None and c.get("my_second") is not None:
        # TRANSLATORS: the viewer's Berserker fights with two combat cards
        mine = " · " + _("your cards +{card} and +{second}").format(card=c["my_card"], second=c["my_second"])
    elif c.get("my_card") is not None:
        mine = " · " + _("your card +{card}").format(card=c["my_card"])
    else:
        mine = ""
    if played or mine:
        out.append(("", f"  {played}{mine}\n"))
    return out


def placement(view: dict) -> StyleAndTextTuples:
    p = view.get("placement")
    if not p:
        return []
    # each card by its own placer (CG-REVEAL-06: the placers follow the queue), in turn: "Blue places bPP; Yellow
    # places bRP" (the first placer was named for the whole queue)
    turns: list[tuple[str, list[str]]] = []
    for card, placer in zip(p.get("queue") or (), p.get("placers") or ()):
        if turns and turns[-1][0] == placer:
            turns[-1][1].append(card)
        else:
            turns.append((placer, [card]))
    who = joined(_("{seat} places {cards}").format(seat=seat_name(placer), cards=", ".join(cards))
                    for placer, cards in turns)
    return [("class:title", "\n" + _("Room {room} revealed:").format(room=p["room"]) + " "), ("", who + "\n")]


# --- the log --------------------------------------------------------------------------------------------------

def describe_event(event: dict) -> str | None:
    """One log line for a card-game event; the server's own events (game started, timeout...), the view refresh
    and an event hidden from us (empty) as describe.py says them."""
    describe = _DESCRIPTIONS.get(event.get("kind"))
    return describe(event) if describe is not None else server_event(event)


def compact_event(event: dict) -> str | None:
    """The move list's entry for an action's event (None: not an action's): its words are the actions' as typed."""
    kind = event.get("kind")
    f = event.get("figure")
    if kind in ("move", "wallwalk"):
        # where it ends (the path's last zone or start position), and its exchanges with the zone of each: the path's
        # last word alone said "bAS +yAR" for `move bAS a1 +yAR`, and the last zone alone hid what a move handed
        # over on its way (`bSN b1 >bMK/bKY +bRP b2`), as many exchanges a zone as the player likes (DT-206)
        path = event["path"]
        last = max((i for i, word in enumerate(path) if word[:1] not in "+->"), default=-1)
        kept = [word for i, word in enumerate(path)
                if word[:1] in "+->" or i == last or (i + 1 < len(path) and path[i + 1][:1] in "+->")]
        return " ".join([f, *kept])
    typed = _TYPED.get(kind)
    if typed is not None:
        return typed(f, event)
    if kind == "exit":
        # TRANSLATORS: an entry of the panel's short list of moves ("bWA exits": it leaves the maze): keep it short
        return _("{figure} exits").format(figure=f)
    return None


_TYPED = {
    # an action's strip entry in the words typed for it, figure first ("bMK open a1 n" for `open bMK a1 n`); a
    # play-test's strip left out `open`, and so bend, regenerate, smash, invert, steal and frenzy
    "attack": lambda f, e: f"{f} attack {e.get('target')}",
    "shoot": lambda f, e: f"{f} shoot {e.get('target')}",
    "heal": lambda f, e: f"{f} heal {e.get('target')}",
    "fireball": lambda f, e: f"{f} fireball {e.get('target')}",
    "jump": lambda f, e: f"{f} jump {e['zone']}",
    # (the object unnamed where it went into other hands unseen, DT-278: `@` the Telekinetic who carried it)
    "levitate": lambda f, e: f"{f} levitate {e.get('item') or '@' + f} {e['at']}",
    "reveal": lambda f, e: f"{f} reveal {_room(e['slot'])}",
    "rotate": lambda f, e: f"{f} rotate {_room(e['slot'])} {e['dir']}",
    "portcullis": lambda f, e: f"{f} {'open' if e['open'] else 'close'} {e['zone']} {e['side'].lower()}",
    "bend_bars": lambda f, e: f"{f} bend {e['zone']} {e['side'].lower()}",
    "regenerate": lambda f, e: f"{f} regenerate",
    "walls_broken": lambda f, e: f"{f} smash",
    "inverted": lambda f, e: f"{f} invert {e['rooms'][-1]}",
    # (the object unnamed where objects are secret, DT-222's `steal bPP @yMK`)
    "stolen": lambda f, e: f"{f} steal {e['item'] if e.get('item') else '@' + e['victim']}",
    "frenzy": lambda f, e: f"frenzy {e['cards']}",
}


def _room(slot) -> str:
    return "ABCDEFGH"[slot] if isinstance(slot, int) and 0 <= slot < 8 else str(slot)


def _seat(event: dict) -> str:
    return seat_name(event.get("seat"))


def _hidden(e: dict) -> str:
    if "placements" in e:
        where = ", ".join(_("{figure} on {zone}").format(figure=f, zone=f"{e['seat']}{c + 1}")
                          for f, c in e["placements"])
        return _("You hid {placements} (face down)").format(placements=where)
    return _("{seat} hid its start characters (face down)").format(seat=_seat(e))


def _start_cards(e: dict) -> str:
    counts = ", ".join(labelled(where, str(n)) for where, n in e.get("counts", {}).items())
    return _("Start zones: {counts}; {seat} seeds first").format(counts=counts, seat=seat_name(e.get("seeder")))


def _seeded(e: dict) -> str:
    if e.get("item"):
        return _("{seat} lays {card} face down beside room {room}").format(
            seat=_seat(e), card=e["item"], room=_room(e.get("slot")))
    return _("{seat} lays a card face down beside room {room}").format(seat=_seat(e), room=_room(e.get("slot")))


# TRANSLATORS: an icon a start character points at a face-down room (DT-266), in "bMK faces {zone}"; the letter
# in parentheses is the one typed (face bMK:T, move bMK ^T) and stays as it is
FACED_ICONS = {"T": N_("the triangle (T)"), "S": N_("the square (S)"), "C": N_("the circle (C)"),
               "R": N_("the rotation zone (R)")}


def _facing(text: str) -> str:
    """A facing in words: a zone's name as it is, an icon's letter as the icon (DT-266)."""
    return _(FACED_ICONS[text]) if text in FACED_ICONS else text


def _faced(e: dict) -> str:
    if "facings" in e:
        facings = ", ".join(_("{figure} faces {zone}").format(figure=f, zone=_facing(z)) for f, z in e["facings"])
        return _("You chose your facings: {facings}").format(facings=facings)
    return _("{seat} has chosen its facings").format(seat=_seat(e))


def _teams(e: dict) -> str:
    shown = ", ".join(_("{figure} on {zone} facing {facing}").format(figure=f, zone=where, facing=_facing(zone))
                      for f, where, zone in e.get("figures", ()))
    return _("Teams revealed: {figures}. {seat} plays first ({ap} AP)").format(
        figures=shown, seat=seat_name(e.get("first")), ap=e.get("ap"))


def _turn(e: dict) -> str:
    if e.get("kept"):  # what the seat whose turn ended keeps on its wheel for its next turn (CG-TURN-05)
        return _("Turn {turn}: {seat} to play, {ap} AP ({other} keeps {kept})").format(
            turn=e.get("turn"), seat=_seat(e), ap=e.get("ap"), kept=e["kept"],
            other=seat_name({"B": "Y", "Y": "B"}.get(e.get("seat"))))
    return _("Turn {turn}: {seat} to play, {ap} AP").format(turn=e.get("turn"), seat=_seat(e), ap=e.get("ap"))


def _reveal(e: dict) -> str:
    values = {"figure": e["figure"], "room": _room(e["slot"]), "card": room_card_name(e.get("card") or "?")}
    if e.get("cards"):
        return _("{figure} reveals room {room} ({card}); its cards: {cards}").format(
            cards=", ".join(e["cards"]), **values)
    return _("{figure} reveals room {room} ({card})").format(**values)


def _step(token: str) -> str:
    """One path token in words (docs/card-game.md, move path tokens)."""
    if token[:2] == "+@":  # secret objects (DT-222): what that character carried, unnamed
        return _("takes what {figure} carries").format(figure=token[2:])
    if token[:1] == "+":
        return _("takes {item}").format(item=token[1:])
    if token[:1] == "-":
        return _("drops {item}").format(item=token[1:])
    if token[:1] == ">":
        figure, _slash, item = token[1:].partition("/")
        if item:  # what was given, unless the objects are secret (DT-222)
            return _("gives {item} to {figure}").format(item=item, figure=figure)
        return _("gives to {figure}").format(figure=figure)
    if token[:1] == "^":
        return _("faces {zone}").format(zone=_facing(token[1:]))
    if "^" in token:
        where, faced = token.split("^", 1)
        return _("{zone} facing {facing}").format(zone=where, facing=_facing(faced))
    if token[:1] in "BY":
        return _("{zone} (start zone)").format(zone=token)
    return token


def _move(e: dict) -> str:
    return _("{figure} moves: {path}").format(figure=e["figure"], path=", ".join(_steps(e)))


def _steps(e: dict) -> list[str]:
    """The path's tokens in words; a take that was a swap (the mover's one hand full, CG-ITEM-03) says what it
    gave for it, when the event comes with what the mover carried before (`carried`, inbox.py: the view before
    the move) and nothing unseen is in the way (a play-test: "takes bSW" left bKY on the floor without a word)."""
    held = list(e["carried"]) if isinstance(e.get("carried"), list) and e.get("hands") == 1 else None
    out = []
    for token in e["path"]:
        word = _step(token)
        if held is not None:
            if token[:2] == "+@" or "?" in held:
                held = None  # what was taken unseen: no longer followed
            elif token[:1] == "+":
                if held:  # its one hand full: a swap (only one-handed movers are followed: the Paladin's two
                    # hands take with a free one, and are refused a third)
                    word = _("takes {item} for {given}").format(item=token[1:], given=held[0])
                    held = [token[1:]]
                else:
                    held.append(token[1:])
            elif token[:1] == "-" and token[1:] in held:
                held.remove(token[1:])
            elif token[:1] == ">":
                given = token.partition("/")[2] or (held[0] if held else "")
                if given in held:
                    held.remove(given)
        out.append(word)
    return out


def _picked(e: dict) -> str:
    code = e["code"]
    name = kind_name(code, cards=True)
    card = f"{code} ({name})" if name != code else code  # the code as typed, and what it is
    if e.get("mode") == "draft":
        # TRANSLATORS: a draft's pick (CG-SEL-DRAFT-01): {card} the card taken, as "CO (Colossus)"; {code} its code
        return _("{seat} takes {card} (the other's {code} is out of the game)").format(seat=_seat(e), card=card,
                                                                                         code=code)
    return _("{seat} shows {card}: both take it").format(seat=_seat(e), card=card)


def _built(e: dict) -> str:
    if "characters" in e:
        return _("You chose your team: {characters}; {objects}").format(
            characters=", ".join(e["characters"]), objects=", ".join(e["objects"]))
    return _("{seat} has chosen its team, in secret").format(seat=_seat(e))


def _combat(e: dict) -> str:
    cards = e.get("cards") or {}
    totals = e.get("totals") or {}
    # TRANSLATORS: a side's total in a combat and the card it laid ("Blue 7 (card +2)")
    sides = [_("{seat} {total} (card +{card})").format(seat=seat_name(s), total=totals.get(s), card=cards.get(s))
             for s in ("B", "Y") if s in totals]
    # TRANSLATORS: the two sides of a combat face to face ("Blue 7 (card +2) vs Yellow 5 (card +1)")
    laid = _("{first} vs {second}").format(first=sides[0], second=sides[1]) if len(sides) == 2 else "".join(sides)
    if e.get("winner") is None:
        return _("Combat {number}: {sides}: a tie, nobody is hurt").format(number=e.get("number"), sides=laid)
    hurt = [*(_("{figure} wounded").format(figure=f) for f in e.get("wounded", ())),
            *(_("{figure} eliminated").format(figure=f) for f in e.get("eliminated", ()))]
    if e.get("hunter_vp"):  # CG-CHAR-PALADIN-02
        hurt.append(_("+{vp} VP for the undead the Paladin hunted").format(vp=e["hunter_vp"]))
    values = {"number": e.get("number"), "sides": laid, "seat": seat_name(e["winner"])}
    if hurt:
        return _("Combat {number}: {sides}: {seat} wins; {hurt}").format(hurt=", ".join(hurt), **values)
    return _("Combat {number}: {sides}: {seat} wins").format(**values)


def _attack(e: dict, shoots: bool = False) -> str:
    values = {"number": e.get("number"), "figure": e["figure"], "target": e["target"], "zone": e["zone"],
              "attackers": ", ".join(e["attackers"]), "defenders": ", ".join(e["defenders"])}
    if shoots:
        text = _("Combat {number}: {figure} shoots at {target} in {zone} ({attackers} vs {defenders})")
    else:
        text = _("Combat {number}: {figure} attacks {target} in {zone} ({attackers} vs {defenders})")
    return text.format(**values)


def _removed(e: dict) -> str:
    if "figures" in e:
        return _("You leave out {figures} (handicap)").format(figures=", ".join(e["figures"]))
    return _("{seat} leaves out {count} characters, unseen (handicap)").format(seat=_seat(e), count=e["count"])


def _rotate(e: dict) -> str:
    if e["dir"] == "cw":
        text = _("{figure} turns room {room} clockwise")
    else:
        text = _("{figure} turns room {room} counter-clockwise")
    return text.format(figure=e["figure"], room=_room(e["slot"]))


def _jump(e: dict) -> str:
    values = {"figure": e["figure"], "zone": e["zone"], "left": e["jumps_left"]}
    # ("jump cards left: 1", not "1 jump cards left": a count, with no plural to agree)
    if e.get("discarded") is not None:
        return _("{figure} jumps to {zone} (jump cards left: {left}; gives up its +{card})").format(
            card=e["discarded"], **values)
    return _("{figure} jumps to {zone} (jump cards left: {left})").format(**values)


def _portcullis(e: dict) -> str:
    if e["open"]:
        text = _("{figure} opens the portcullis {side} of {zone}")
    else:
        text = _("{figure} closes the portcullis {side} of {zone}")
    return text.format(figure=e["figure"], side=_side(e["side"]), zone=e["zone"])


def _mind_named(e: dict) -> str:
    # CG-CHAR-TELEPATH-02: whether the opponent held it is public; the hand he then shows, the Telepath's player's
    # alone (the engine's event carries it to him only); in the board game's words (client/describe.py)
    if e.get("value") and e.get("held"):
        return _("{seat} names +{value}: it must be played").format(seat=_seat(e), value=e["value"])
    if e.get("value") and e.get("held") is False and e.get("hand"):
        return _("{seat} names +{value}: not held; the hand is shown ({hand})").format(
            seat=_seat(e), value=e["value"], hand=" ".join(f"+{v}" for v in e["hand"]))
    if e.get("value") and e.get("held") is False:
        return _("{seat} names +{value}: not held; the hand is shown").format(seat=_seat(e), value=e["value"])
    if e.get("value"):  # (an event without `held`)
        return _("{seat}'s Telepath names +{value}").format(seat=_seat(e), value=e["value"])
    if "value" in e:
        return _("{seat}'s Telepath names nothing").format(seat=_seat(e))
    return _("{seat}'s Telepath names a card").format(seat=_seat(e))


def _fireball(e: dict) -> str:
    values = {"figure": e["figure"], "target": e["target"], "zone": e["zone"]}
    if e.get("eliminated"):
        return _("{figure} casts a fireball at {target} in {zone}: {eliminated} eliminated").format(
            eliminated=", ".join(e["eliminated"]), **values)
    return _("{figure} casts a fireball at {target} in {zone}").format(**values)


def _levitate(e: dict) -> str:
    if "item" not in e:  # DT-278: with secret objects, the object she carried went into other hands unseen
        return _("{figure} moves an object from afar to {zone}, into {receiver}'s hands").format(
            figure=e["figure"], zone=e["at"], receiver=e.get("to"))
    values = {"figure": e["figure"], "item": e["item"], "zone": e["at"]}
    if e.get("to"):
        return _("{figure} moves {item} from afar to {zone}, into {receiver}'s hands").format(
            receiver=e["to"], **values)
    return _("{figure} moves {item} from afar to {zone}").format(**values)


def _stolen(e: dict) -> str:
    values = {"figure": e["figure"], "victim": e["victim"], "zone": e["zone"]}
    if "item" in e:
        return _("{figure} steals {item} from {victim} in {zone}").format(item=e["item"], **values)
    return _("{figure} steals an object from {victim} in {zone}").format(**values)


_DESCRIPTIONS = {
    "picked": _picked, "built": _built, "removed": _removed,
    "teams_selected": lambda e: _("The teams are selected: each places 2 characters face down on his start zone"),
    "hidden": _hidden, "start_cards": _start_cards, "seeded": _seeded, "faced": _faced, "teams": _teams,
    "turn": _turn, "reveal": _reveal, "move": _move, "combat": _combat, "attack": _attack,
    "shoot": lambda e: _attack(e, shoots=True),
    "place": lambda e: _("{seat} places {card} on {zone}").format(seat=_seat(e), card=e["card"], zone=e["zone"]),
    "saved": lambda e: _("{figure} is carried out of the maze").format(figure=e["figure"]),
    "exit": lambda e: _("{figure} leaves the maze: +{vp} VP").format(figure=e["figure"], vp=e["vp"]),
    "rotate": _rotate,
    "jump": _jump,
    "portcullis": _portcullis,
    "bend_bars": lambda e: _("{figure} bends the bars {side} of {zone}").format(
        figure=e["figure"], side=_side(e["side"]), zone=e["zone"]),
    "combat_card": lambda e: (_("{seat} lays +{value} and +{second}").format(seat=_seat(e), value=e["value"],
                                                                               second=e["second"])
                              if "value" in e and "second" in e  # a Berserker's two (CG-CHAR-BERSERK-01)
                              else _("{seat} lays +{value}").format(seat=_seat(e), value=e["value"]) if "value" in e
                              else _("{seat} lays a card").format(seat=_seat(e))),
    "frenzy": lambda e: ngettext("{seat}'s Berserker fights with {count} card",
                                 "{seat}'s Berserker fights with {count} cards", e["cards"]).format(
        seat=_seat(e), count=e["cards"]),
    "mind_named": _mind_named,
    "heal": lambda e: _("{figure} heals {target} in {zone}").format(figure=e["figure"], target=e["target"],
                                                                     zone=e["zone"]),
    "regenerate": lambda e: _("{figure} regenerates in {zone}").format(figure=e["figure"], zone=e["zone"]),
    "wallwalk": lambda e: _("{figure} walks through the wall: {path}").format(
        figure=e["figure"], path=", ".join(map(_step, e["path"]))),
    "walls_broken": lambda e: _("{figure} breaks the walls of room {room}").format(figure=e["figure"], room=e["room"]),
    "fireball": _fireball,
    "inverted": lambda e: _("{figure} swaps rooms {rooms}").format(figure=e["figure"],
                                                                    rooms=_(" and ").join(e["rooms"])),
    "stolen": _stolen,
    "shield_shown": lambda e: _("{figure} shoots at {target} in {zone}: a Large Shield stops the shot").format(
        figure=e["figure"], target=e["target"], zone=e["zone"]),
    "levitate": _levitate,
}


# TRANSLATORS: what `look` says of a zone: its icon, its room and the room's card
ICON_NAMES = {"T": N_("a triangle zone of room {room} ({card})"), "S": N_("a square zone of room {room} ({card})"),
              "C": N_("a circle zone of room {room} ({card})"), "R": N_("the rotation zone of room {room} ({card})")}


def describe_zone(view: dict, name: str) -> str:
    """`look c3` at a card table: the zone's icon, who and what is there, and its borders (CG-ZONE)."""
    from dungeon_twister.engine.cards.maze import slot_of

    from .cards_board import maze_of

    if len(name) < 2 or name[0] not in "abcd" or not name[1:].isdigit() or not 1 <= int(name[1:]) <= 2 * view[
            "length"]:
        return _("{zone}: not a zone of this maze (a1 to {last})").format(zone=name, last=f"d{2 * view['length']}")
    zone = ("abcd".index(name[0]), int(name[1:]) - 1)
    room = view["rooms"][slot_of(zone)]
    if not room["revealed"]:
        return _("{zone}: in room {room}, still face down (its zones show when it is revealed)").format(
            zone=name, room=room["room"])
    maze = maze_of(view)
    parts = [_(ICON_NAMES[maze.icon(zone)]).format(room=room["room"], card=room_card_name(room["card"]))]
    for f in view.get("figures", ()):
        if f.get("at") == name and f.get("where") == "maze":
            figure = _("{figure} (wounded)").format(figure=f["id"]) if f.get("wounded") else f["id"]
            loads = [load for load in (f.get("carries"), f.get("also_carries")) if load]
            if f.get("hidden_objects"):  # CG-OPT-03: the other player's objects are secret
                count = f["hidden_objects"]
                loads.append(ngettext("{count} object unseen", "{count} objects unseen", count).format(count=count))
            if loads:
                figure = _("{figure}, carrying {loads}").format(figure=figure, loads=_(" and ").join(loads))
            parts.append(figure)
    parts += [_("{item} on the floor").format(item=i["id"]) for i in view.get("items", ()) if i.get("where") == "floor"
              and i.get("at") == name]
    borders = [labelled(_side(side), _(" and ").join(_(FEATURES[f]) if f in FEATURES else f for f in found))
               for side in "NESW" if (found := maze.features(zone, side))]
    if borders:
        parts.append(_("borders {sides}").format(sides=", ".join(borders)))
    return labelled(name, joined(parts))
