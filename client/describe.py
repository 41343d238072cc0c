"""Table events in plain words, for the event log: the engine's events and the server's own (game started,
players joining and leaving, timeouts), as the server forwards them."""

from __future__ import annotations

from collections.abc import Callable

from .i18n import N_, _, ngettext
from .names import joined, kind_name, labelled, other_seat, score, seat_name, token_name
from .state import purpose_name

# TRANSLATORS: a direction, completing "casts a fireball {side}", "the portcullis {side} of {square}"
DIRECTION_NAMES = {"n": N_("north"), "e": N_("east"), "s": N_("south"), "w": N_("west")}
ELIMINATIONS = {"combat": N_("{token} is eliminated in combat: {vp} VP for {seat}"),
                "fireball": N_("{token} is eliminated by a fireball: {vp} VP for {seat}"),
                "pit": N_("{token} is eliminated in a pit: {vp} VP for {seat}"),
                "carrier wounded": N_("{token} is eliminated as its carrier falls: {vp} VP for {seat}"),
                "breath": N_("{token} is eliminated by dragon fire: {vp} VP for {seat}"),
                "rockfall": N_("{token} is eliminated by falling rocks: {vp} VP for {seat}"),
                "dragon slain": N_("{token} is eliminated by the Dragon-Slayer Sword: {vp} VP for {seat}")}
"""How a token is eliminated, by cause ({vp}: the VP its elimination scores, {seat}: for whom)."""
# TRANSLATORS: why a game ended, completing "game over: Blue wins 3-1 ({reason})"
REASONS = {"target reached": N_("target reached"),
           "nobody can score any more": N_("nobody can score any more"),
           "nothing can change any more": N_("nothing can change any more"),
           "resigned": N_("the other player resigned"),
           "abandoned": N_("the other player abandoned the game"),
           "abandoned by both": N_("both players abandoned the game: not rated"),
           "aborted": N_("a player left before the first turn: not rated"),
           "agreed": N_("agreed by both players"),
           # TRANSLATORS: why a game ended: the loser played nothing for the server's limit (30 minutes by
           # default) while the game waited on him alone, at a table without timers
           "idle": N_("the other player played nothing for too long at a table without timers"),
           # TRANSLATORS: why a game ended: the server's admin ended it (dt-server admin end); nobody won
           "ended by the server's admin": N_("the server's admin ended the game: not rated"),
           "vp": N_("target reached"),
           "both figures out (PR-SCEN-1-06)": N_("both figures out [PR-SCEN-1-06]"),
           "the Colossus reached Blue's start zone (PR-SCEN-2-07)":
               N_("the Colossus reached Blue's start zone [PR-SCEN-2-07]"),
           "the Colossus is eliminated (PR-SCEN-2-07)": N_("the Colossus is eliminated [PR-SCEN-2-07]"),
           "the Colossus was carried out wounded: a draw (PR-SCEN-2-07)":
               N_("the Colossus was carried out wounded: a draw [PR-SCEN-2-07]"),
           "2 enemy characters eliminated (PR-SCEN-3-05)": N_("2 enemy characters eliminated [PR-SCEN-3-05]"),
           "4 VP reached (PR-SCEN-4-06)": N_("4 VP reached [PR-SCEN-4-06]")}
"""Why a game ended, as the engine (turn.finish, the Prison scenarios' data, the card game: "vp", and "nothing
can change any more" for a dead position, DT-239) or the server (resigned, abandoned: the winner's opponent did;
abandoned by both: neither came back; aborted: one left before the first turn; agreed: a draw both players agreed
to) words it; a reason not listed is shown as it comes."""
UNPLAYED = frozenset({"aborted", "abandoned by both", "ended by the server's admin"})
"""The reasons of a game that ended with no winner and no draw either: not rated (server/play.py)."""
YOURS = "_yours"
"""A key the client adds to a `timeout` or an `idle_warning` event of its own seat (inbox.py) so that its player
reads "your time ran out", "you have played nothing"; no server sends it (a leading underscore, as the protocol's
keys never have)."""
PORTCULLIS = {"break": N_("{figure} breaks the portcullis {side} of {square}"),
              "open": N_("{figure} opens the portcullis {side} of {square}"),
              "close": N_("{figure} closes the portcullis {side} of {square}")}


def describe_event(event: dict) -> str | None:
    """One log line for an event; None for an event hidden from us (an empty map) or the view refresh."""
    kind = event.get("kind")
    if not kind or kind == "view":
        return None
    describe = _DESCRIPTIONS.get(kind)
    if describe is None:  # an event this client does not know: its kind and fields as the server sends them
        details = " ".join(f"{key}={value}" for key, value in event.items() if key != "kind")
        return f"{kind.replace('_', ' ')} {details}".strip()
    return describe(event)


def _tok(event: dict, key: str = "token") -> str:
    return token_name(event.get(key))


def _by(event: dict) -> str:
    return token_name(event.get("by"))


def _seat(event: dict, key: str = "seat") -> str:
    return seat_name(event.get(key))


def _direction(value, unknown=None) -> str:
    """A direction's name (n -> north); an unknown one as it is, or `unknown`."""
    if value in DIRECTION_NAMES:
        return _(DIRECTION_NAMES[value])
    return value if unknown is None else unknown


def _moved(e: dict) -> str:
    route = e.get("route") or []
    text = _("{token} moves {route}").format(token=_tok(e), route=" > ".join(route))
    extras = []
    came = e.get("from") or {}  # (inbox._came_from: where a token it took or left lay before, not under it)
    if e.get("take"):
        if came.get(e["take"]):
            # TRANSLATORS: a move's log line: the mover picks up {token}, which lay on {square} (or a friend there
            # held it) before the move
            extras.append(_("takes {token} from {square}").format(token=token_name(e["take"]), square=came[e["take"]]))
        else:
            extras.append(_("takes {token}").format(token=token_name(e["take"])))
    for token, square in e.get("leave") or []:
        if came.get(token):
            # TRANSLATORS: a move's log line: {token} was picked up on {origin} during the move and left on {square}
            extras.append(_("leaves {token} (from {origin}) on {square}").format(
                token=token_name(token), origin=came[token], square=square))
        else:
            extras.append(_("leaves {token} on {square}").format(token=token_name(token), square=square))
    for token in e.get("found") or ():  # (inbox._found_at_end)
        # TRANSLATORS: a move's log line: the mover ends its move on {square}, where {token} lay, and so carries it
        extras.append(_("picks up {token} on {square}").format(token=token_name(token), square=route[-1]))
    return text + (f" ({', '.join(extras)})" if extras else "")


def _wallwalked(e: dict) -> str:
    route = e.get("route") or []
    return _("{token} walks through the wall {route}").format(token=_tok(e), route=" > ".join(route))


def _jumped(e: dict) -> str:
    route = e.get("route") or ["?", "?", "?"]
    return _("{token} jumps over the pit {pit} to {square}").format(token=_tok(e), pit=route[1], square=route[-1])


def _count(value) -> int:
    """A count of an event for ngettext (an event without it takes the plural: "? left")."""
    return value if isinstance(value, int) else 2


def _revealed(e: dict) -> str:
    tokens = e.get("tokens") or []
    values = {"figure": _by(e), "room": e.get("slot"), "tile": e.get("tile")}
    if tokens:
        return ngettext("{figure} reveals room {room} (tile {tile}): {count} token to place",
                        "{figure} reveals room {room} (tile {tile}): {count} tokens to place", len(tokens)).format(
            count=len(tokens), **values)
    return _("{figure} reveals room {room} (tile {tile})").format(**values)


def _rotated(e: dict) -> str:
    if e.get("clockwise"):
        text = _("{figure} rotates room {room} a quarter turn clockwise")
    else:
        text = _("{figure} rotates room {room} a quarter turn counter-clockwise")
    return text.format(figure=_by(e), room=e.get("slot"))


def _portcullis(e: dict) -> str:
    side = _direction(e.get("direction"))
    text = PORTCULLIS.get(e.get("how"))
    if text is None:  # a way this client does not know: its word as the server sends it
        return f"{_by(e)} {e.get('how')} the portcullis {side} of {e.get('square')}"
    return _(text).format(figure=_by(e), side=side, square=e.get("square"))


def _fireball(e: dict, breath: bool = False) -> str:
    victims = ", ".join(token_name(v) for v in e.get("victims") or [])
    side = _direction(e.get("direction"))
    # (no victim: a sentence of its own, which Romance languages negate: "it hits {victims}" with "nobody" read
    # "colpisce nessuno", "et touche personne": play-test pt25 F8)
    if breath and victims:
        text = _("{figure} breathes fire {side}: it hits {victims}")
    elif breath:
        text = _("{figure} breathes fire {side}: it hits nobody")
    elif victims:
        text = _("{figure} casts a fireball {side}: it hits {victims}")
    else:
        text = _("{figure} casts a fireball {side}: it hits nobody")
    text = text.format(figure=_by(e), side=side, victims=victims)
    shielded = ", ".join(token_name(v) for v in e.get("shielded") or [])
    if shielded:  # PD-OBJ-FIRESHIELD-01
        text += " " + _("({tokens}: the Fire Shield stops it)").format(tokens=shielded)
    return text


def _combat_declared(e: dict) -> str:
    number, target = e.get("number"), _tok(e, "target")
    if e.get("shooters"):
        shooters = ", ".join(token_name(t) for t in e["shooters"])
        text = ngettext("combat {number}: {shooters} shoots at {target}",
                        "combat {number}: {shooters} shoot at {target}", len(e["shooters"]))
        text = text.format(number=number, shooters=shooters, target=target)
    elif e.get("lancer"):
        text = _("combat {number}: {attacker} attacks {target} with the lance").format(
            number=number, attacker=_tok(e, "attacker"), target=target)
    else:
        text = _("combat {number}: {attacker} attacks {target}").format(
            number=number, attacker=_tok(e, "attacker"), target=target)
    if len(e.get("attackers") or []) + len(e.get("defenders") or []) > 2:
        attackers = ", ".join(token_name(t) for t in e["attackers"])
        defenders = ", ".join(token_name(t) for t in e["defenders"])
        text += " " + _("(group combat: {attackers} against {defenders})").format(
            attackers=attackers, defenders=defenders)
    return text


def _card_chosen(e: dict) -> str:
    if "value" in e:
        # (the card played, whoever chose it: after a timeout the clock did, and "Yellow chooses +0" read wrong)
        return _("{seat}'s card for the combat: +{value}").format(seat=_seat(e), value=e["value"])
    # (not "chooses": the event comes with the combat's step, after both cards; the player whose clock laid his +0
    # read "Yellow chooses a card" as a choice made after his own time ran out: play-test pt24 F1's leftover)
    return _("{seat} has laid a card for the combat").format(seat=_seat(e))


def _combat_resolved(e: dict) -> str:
    """Attacker first: 'combat 1: Blue attacks with 7 (card +2) against Yellow's 6 (card +0): Blue wins'."""
    cards = e.get("cards") or {}
    attacker = e.get("attacker_seat")
    winner = e.get("winner")
    outcome = _("{seat} wins").format(seat=seat_name(winner)) if winner else _("a tie: nothing happens")
    if attacker in ("B", "Y") and set(cards) == {"B", "Y"}:
        defender = "Y" if attacker == "B" else "B"
        return _("combat {number}: {attacker} attacks with {attack} (card +{attacker_card}) against {defender}'s "
                 "{defence} (card +{defender_card}): {outcome}").format(
            number=e.get("number"), attacker=seat_name(attacker), attack=e.get("attack"),
            attacker_card=cards[attacker], defender=seat_name(defender), defence=e.get("defence"),
            defender_card=cards[defender], outcome=outcome)
    listed = ", ".join(f"{seat_name(seat)} +{value}" for seat, value in cards.items())
    return _("combat {number}: {attack} against {defence} ({cards}): {outcome}").format(
        number=e.get("number"), attack=e.get("attack"), defence=e.get("defence"), cards=listed, outcome=outcome)


def _team_chosen(e: dict) -> str:
    team = e.get("team")
    if team:
        placed = ", ".join(_("{code} on {square}").format(code=code, square=square)
                           for square, code in sorted(team.items()))
        return _("{seat} chooses the team {team}").format(seat=_seat(e), team=placed)
    return _("{seat} has chosen a team").format(seat=_seat(e))


def _hidden(e: dict) -> str:
    if e.get("token"):
        return _("{seat} hides {token} in room {room}").format(seat=_seat(e), token=_tok(e), room=e.get("slot"))
    return _("{seat} hides a token in room {room}").format(seat=_seat(e), room=e.get("slot"))


def _teams_revealed(e: dict) -> str:
    parts = []
    for seat, team in sorted((e.get("teams") or {}).items()):
        parts.append(labelled(seat_name(seat), ", ".join(kind_name(t[1:]) for _square, t in sorted(team.items()))))
    return _("the teams are revealed: {teams}").format(teams=joined(parts))


def reason_text(reason: object) -> str:
    """Why a game ended, in the reader's language when the client knows the reason (REASONS)."""
    return _(REASONS[reason]) if reason in REASONS else str(reason)


def _game_over(e: dict) -> str:
    winner = e.get("winner")
    result = score(e.get("vp") or {}, winner)
    if winner:
        return _("game over: {seat} wins {score} ({reason})").format(
            seat=seat_name(winner), score=result, reason=reason_text(e.get("reason")))
    if e.get("reason") in UNPLAYED:
        return _("game over without a winner ({reason})").format(reason=reason_text(e.get("reason")))
    return _("game over: draw {score} ({reason})").format(score=result, reason=reason_text(e.get("reason")))


def _timeout(e: dict) -> str:
    if e.get("why") == "restart" and e.get("purpose"):
        # a restored bot cannot open what its predecessor committed (docs/rulings.md DT-091): not a clock that ran
        # out (play-test pt24 F5: a continued `dt-client play` game said nothing of its bot's team drawn again)
        if "actions" not in e:
            # TRANSLATORS: {purpose}: the secret choice, in words (the starting team, the card for combat 2)
            return _("{seat}'s secret choice for {purpose} was lost with the server's restart (a bot keeps it in "
                     "memory only): another was made for that seat, kept secret").format(
                seat=_seat(e), purpose=purpose_name(e["purpose"]))
        # TRANSLATORS: {purpose}: the secret choice, in words (the card for combat 2); {actions}: what stands
        # for it, as typed (combat +0)
        return _("{seat}'s secret choice for {purpose} was lost with the server's restart (a bot keeps it in "
                 "memory only): {actions} stands for it").format(
            seat=_seat(e), purpose=purpose_name(e["purpose"]), actions=joined(e.get("actions") or []))
    if e.get("purpose") and "actions" not in e:
        # a choice made for a late seat that the others may not see yet (docs/rulings.md DT-236): its seat alone
        # sees what
        return _("{seat}'s time ran out for {purpose}: a choice was made for that seat, kept secret").format(
            seat=_seat(e), purpose=purpose_name(e["purpose"]))
    if "actions" not in e:
        # a fallback whose events its seat alone may see (a card seeded face down): "nothing done" would be untrue
        return _("{seat}'s time ran out: what was played for that seat is kept secret").format(seat=_seat(e))
    # TRANSLATORS: what a player whose time ran out did: nothing (else the actions played for him)
    actions = joined(e.get("actions") or []) or _("nothing done")
    if e.get(YOURS):  # (the player himself read "Yellow's time ran out" as someone else's: play-test pt28 W1)
        if e.get("purpose"):
            # TRANSLATORS: to the player whose clock ran out; {purpose}: the secret choice, in words (the card for
            # combat 1, the starting team); {actions}: what the server played for him, as typed (combat +0)
            return _("your time ran out for {purpose}: {actions}").format(purpose=purpose_name(e["purpose"]),
                                                                          actions=actions)
        # TRANSLATORS: to the player whose clock ran out; {actions}: what the server played for him (card 2; end)
        return _("your time ran out: {actions}").format(actions=actions)
    if e.get("purpose"):
        return _("{seat}'s time ran out for {purpose}: {actions}").format(
            seat=_seat(e), purpose=purpose_name(e["purpose"]), actions=actions)
    return _("{seat}'s time ran out: {actions}").format(seat=_seat(e), actions=actions)


def _idle_warning(e: dict) -> str:
    """The server's warning before a game is lost for idling (docs/protocol.md section 13, `idle_warning`): in whole
    minutes, as it sends them (300 and 60 seconds)."""
    minutes = max(1, round(int(e.get("seconds") or 0) / 60))
    if e.get(YOURS):
        # TRANSLATORS: to the player an untimed game has waited on for long (the server's idle_minutes); {minutes}
        # is a number of minutes (5, 1)
        return _("you have played nothing for a long while: play within {minutes} min, or you lose the game (this "
                 "server's limit at a table without timers)").format(minutes=minutes)
    # TRANSLATORS: to the others at the table; {seat} is the player waited on, {minutes} a number of minutes (5, 1)
    return _("{seat} has played nothing for a long while: {seat} loses the game without a move within {minutes} min "
             "(this server's limit at a table without timers)").format(seat=_seat(e), minutes=minutes)


def _game_started(e: dict) -> str:
    players = ", ".join(f"{seat_name(seat)} {name}" for seat, name in sorted((e.get("seats") or {}).items()))
    return _("the game starts: {players}").format(players=players)


ILLUSION_NAMES = {
    # TRANSLATORS: an Illusionist's illusion (PD-CHAR-ILLUS-01): a pit marker (also a kind of room border)
    "pit": N_("pit"),
    # TRANSLATORS: an Illusionist's illusion (PD-CHAR-ILLUS-01): a rubble marker, which only the Ghost crosses
    "rubble": N_("rubble"),
}


def illusion_name(kind: object) -> str:
    """An illusion's kind in the language in use (pit, rubble); an unknown one as it is."""
    return _(ILLUSION_NAMES[kind]) if kind in ILLUSION_NAMES else str(kind)


def _illusion(e: dict) -> str:
    if e.get("moved"):
        text = _("{figure} moves an illusion {illusion} onto {square}")
    else:
        text = _("{figure} casts an illusion {illusion} onto {square}")
    return text.format(figure=_by(e), illusion=illusion_name(e.get("illusion")), square=e.get("square"))


def _picked(e: dict) -> str:
    if e.get("stage") == "rooms":
        return _("{seat} picks the room pair {pair}").format(seat=_seat(e), pair=e.get("value"))
    return _("{seat} picks the {kind}: both teams take it").format(seat=_seat(e), kind=kind_name(str(e.get("value"))))


def _built(e: dict) -> str:
    if e.get("characters"):  # (its seat's, or anyone's in a replay: "you build" read wrong there, pt25 F14)
        return _("{seat} builds the team: pairs {pairs}; {characters}; {objects}").format(
            seat=_seat(e), pairs=", ".join(map(str, e.get("pairs") or [])),
            characters=" ".join(e.get("characters") or []), objects=" ".join(e.get("objects") or []))
    return _("{seat} has built a team in secret").format(seat=_seat(e))


def _rooms_shared(e: dict) -> str:
    pairs = [str(pair) for pair in e.get("pairs") or []]
    return ngettext("both chose the room pair {pairs}: laid once, {seat}'s; the other gets an unchosen pair instead, "
                    "unseen (RUL-072)",
                    "both chose the room pairs {pairs}: laid once, {seat}'s; the other gets unchosen pairs instead, "
                    "unseen (RUL-072)", len(pairs)).format(pairs=", ".join(pairs), seat=_seat(e, "kept_by"))


def _ratings(e: dict) -> str:
    changes = " · ".join(f"{seat_name(seat)} {change.get('name')} {change.get('before')} → {change.get('after')} "
                         f"(±{change.get('rd')})"
                         for seat, change in sorted((e.get("changes") or {}).items()) if isinstance(change, dict))
    return _("ratings: {changes}").format(changes=changes)


def _eliminated(e: dict) -> str:
    values = {"token": _tok(e), "vp": e.get("vp", 1), "seat": _seat(e, "scorer")}
    text = ELIMINATIONS.get(e.get("cause"))
    if text is None:
        return _("{token} is eliminated: {vp} VP for {seat}").format(**values)
    return _(text).format(**values)


def _mind_named(e: dict) -> str:
    if e.get("value") is None:
        return _("{seat} names nothing").format(seat=_seat(e))
    if e.get("held"):
        return _("{seat} names +{value}: it must be played").format(seat=_seat(e), value=e["value"])
    if e.get("hand"):
        return _("{seat} names +{value}: not held; the hand is shown ({hand})").format(
            seat=_seat(e), value=e["value"], hand=" ".join(f"+{v}" for v in e["hand"]))
    return _("{seat} names +{value}: not held; the hand is shown").format(seat=_seat(e), value=e["value"])


_DESCRIPTIONS: dict[str, Callable[[dict], str]] = {
    # the server's own events
    "game_started": _game_started,
    "player_joined": lambda e: _("{name} sits down as {seat}").format(name=e.get("name"), seat=_seat(e)),
    "player_left": lambda e: _("{seat} leaves the table").format(seat=_seat(e)),
    # TRANSLATORS: at the new table the server seats a player at when his opponent left before the first turn;
    # {table} is the table whose game ended so (its id: t4-9f2c01ab)
    "seat_kept": lambda e: _("{seat} keeps a seat: the other player left table {table} before the first turn, "
                             "whose game ends aborted (not rated); this new table waits for an opponent").format(
        seat=_seat(e), table=e.get("from")),
    "timeout": _timeout,
    "idle_warning": _idle_warning,
    # TRANSLATORS: yes / no are typed as they are; ja/nein, oui/non, sí/no, sì/no work too (commands.ANSWERS)
    "takeback_asked": lambda e: _("{seat} asks to take back {action}: the other player answers yes or no").format(
        seat=_seat(e), action=repr(e.get("action"))),
    "taken_back": lambda e: _("{seat}'s {action} is taken back").format(seat=_seat(e), action=repr(e.get("action"))),
    "takeback_declined": lambda e: _("{by} declines to take back {seat}'s action").format(
        by=_seat(e, "by"), seat=_seat(e)),
    "draw_offered": lambda e: _("{seat} offers a draw").format(seat=_seat(e)),
    "draw_declined": lambda e: _("{by} declines {seat}'s draw offer").format(by=_seat(e, "by"), seat=_seat(e)),
    # the line is the inbox's (inbox._lapsed, from what it was asked or asked itself: also with a server of before
    # the event, which drops a request with the change alone)
    "request_lapsed": lambda e: None,
    "rematch_offered": lambda e: _("{seat} offers a rematch").format(seat=_seat(e)),
    "rematch_lapsed": lambda e: (_("{by} declines {seat}'s rematch offer").format(by=_seat(e, "by"), seat=_seat(e))
                                 if e.get("reason") == "declined" else
                                 _("{seat}'s rematch offer lapsed: {gone} left the table").format(
                                     seat=_seat(e), gone=_seat(e, "gone"))),
    # TRANSLATORS: after a finished game; {table} the new table's id (t5-0c1f9a3e)
    "rematch": lambda e: _("the rematch is at table {table}, the colours swapped").format(table=e.get("table")),
    # the engine's events
    "moved": _moved,
    "wallwalked": _wallwalked,
    "jumped": _jumped,
    "room_revealed": _revealed,
    "placed": lambda e: _("{seat} places {token} on {square}").format(
        seat=_seat(e, "by"), token=_tok(e), square=e.get("square")),
    # TRANSLATORS: BG-REVEAL-06: the opponent of the revealer places the revealer's own objects; {seat} did not
    # (he passed, or his time ran out), so the revealer {revealer} places them himself
    "placement_passed": lambda e: _("{seat} passes: {revealer} places his own objects").format(
        seat=_seat(e), revealer=seat_name(other_seat(e.get("seat")) if e.get("seat") in ("B", "Y") else None)),
    "room_rotated": _rotated,
    "healed": lambda e: _("{figure} heals {token}").format(figure=_by(e), token=_tok(e)),
    "regenerated": lambda e: _("{token} regenerates").format(token=_tok(e)),
    "portcullis": _portcullis,
    "fireball": _fireball,
    "breath": lambda e: _fireball(e, breath=True),
    "wall_broken": lambda e: ngettext("{figure} breaks the wall {side} of {square} ({left} break left)",
                                     "{figure} breaks the wall {side} of {square} ({left} breaks left)",
                                     _count(e.get("left"))).format(
        figure=_by(e), side=_direction(e.get("direction"), "?"), square=e.get("square"), left=e.get("left")),
    "illusion": _illusion,
    "illusion_removed": lambda e: _("the illusion {illusion} of {figure} on {square} vanishes").format(
        illusion=illusion_name(e.get("illusion")), figure=_by(e), square=e.get("square")),
    "stolen": lambda e: _("{figure} steals {token} from {victim}").format(
        figure=_by(e), token=_tok(e), victim=_tok(e, "victim")),
    "teleported": lambda e: _("{token} teleports {route} (the Ring is used up)").format(
        token=_tok(e), route=" > ".join(e.get("route") or [])),
    "charmed": lambda e: _("{figure} charms {target}: {actions} actions for its charmer this turn").format(
        figure=_by(e), target=_tok(e, "target"), actions=e.get("actions")),
    "charm_ended": lambda e: _("{target} is no longer charmed").format(target=_tok(e, "target")),
    "fountain": lambda e: _("{token} drinks from the Fountain of Youth and is healed").format(token=_tok(e)),
    "pentacle": lambda e: (_("{seat} holds the Pentacle: {vp} VP from it (PD-TERR-PENTACLE-02)")
                           if e.get("change", 0) > 0 else
                           _("{seat} loses the Pentacle's VP: {vp} VP from it now (PD-TERR-PENTACLE-02)")).format(
        seat=_seat(e), vp=e.get("vp")),
    "picked": _picked,
    "teams_built": lambda e: _("the teams are built: the secret choice of the starting four follows"),
    "built": _built,
    "rooms_shared": _rooms_shared,
    "potion_drunk": lambda e: _("{token} drinks the Speed Potion: +{ap} AP for him").format(
        token=_tok(e), ap=e.get("extra_ap")),
    "combat_declared": _combat_declared,
    "card_chosen": _card_chosen,
    "combat_resolved": _combat_resolved,
    "ratings": _ratings,
    "wounded": lambda e: _("{token} is wounded on {square}").format(token=_tok(e), square=e.get("square")),
    "eliminated": _eliminated,
    "exited": lambda e: _("{token} leaves the maze: VP for {seat}").format(token=_tok(e), seat=_seat(e, "scorer")),
    "saved": lambda e: _("{token} is carried out and saved").format(token=_tok(e)),
    "treasure_scored": lambda e: _("{token} is carried out: 1 VP for {seat}").format(
        token=_tok(e), seat=_seat(e, "scorer")),
    "discarded": lambda e: _("{token} is carried out and discarded").format(token=_tok(e)),
    "lance_broken": lambda e: _("{token} breaks: {figure}'s side lost").format(token=_tok(e), figure=_by(e)),
    "mind_named": _mind_named,
    "pushed": lambda e: _("{figure} pushes {token} from {square} to {destination}").format(
        figure=_by(e), token=_tok(e), square=e.get("square"), destination=e.get("to")),
    "team_chosen": _team_chosen,
    "hidden_placement_started": lambda e: _("hidden placement starts; {seat} hides first").format(
        seat=_seat(e, "first")),
    "hidden": _hidden,
    "teams_revealed": _teams_revealed,
    "turn_started": lambda e: _("turn {turn}: {seat} plays").format(turn=e.get("turn"), seat=_seat(e)),
    "card_played": lambda e: _("{seat} plays the action card {value}").format(seat=_seat(e), value=e.get("value")),
    "cards_recovered": lambda e: _("{seat} takes his action cards back").format(seat=_seat(e)),
    "turn_ended": lambda e: _("{seat} ends turn {turn}").format(seat=_seat(e), turn=e.get("turn")),
    "game_over": _game_over,
}


def _route(e: dict) -> str:
    route = [sq for sq in e.get("route") or () if isinstance(sq, str)]
    items = ([f"+{e['take']}"] if e.get("take") else []) + [f"{t}@{sq}" for t, sq in e.get("leave") or ()
                                                           if isinstance(t, str) and isinstance(sq, str)]
    return "-".join(route[:1] + route[-1:]) + "".join(" " + item for item in items)


def _last(e: dict) -> str:
    return "-".join((e.get("route") or ["?"])[-1:])


# The move list's entries are short: token codes, squares and the action's own words as typed (card, reveal, rotate,
# cw, fireball, fountain, end) stay as they are; the other verbs are words.
_COMPACT = {
    "card_played": lambda e: f"{e.get('seat')} card {e.get('value')}",
    "moved": lambda e: f"{e.get('token')} {_route(e)}",
    # TRANSLATORS: an entry of the panel's short list of moves ("bTH jumps c5"): keep it short
    "jumped": lambda e: _("{token} jumps {square}").format(token=e.get("token"), square=_last(e)),
    # TRANSLATORS: an entry of the panel's short list of moves ("bWW through the wall c5"): keep it short
    "wallwalked": lambda e: _("{token} through the wall {square}").format(token=e.get("token"), square=_last(e)),
    "room_revealed": lambda e: f"reveal {e.get('slot')}",
    "room_rotated": lambda e: f"rotate {e.get('slot')} {'cw' if e.get('clockwise') else 'ccw'}",
    "combat_declared": lambda e: _("{figure} attacks {target}").format(figure=e.get("attacker"),
                                                                        target=e.get("target")),
    "combat_resolved": lambda e: f"{e.get('attack')}:{e.get('defence')}",
    "portcullis": lambda e: f"{e.get('how')} {e.get('square')}",
    "fireball": lambda e: f"{e.get('by')} fireball {e.get('direction')}",
    # TRANSLATORS: an entry of the panel's short list of moves ("bRD breathes n": the dragon's fire, northwards)
    "breath": lambda e: _("{figure} breathes {direction}").format(figure=e.get("by"), direction=e.get("direction")),
    # TRANSLATORS: an entry of the panel's short list of moves ("bCO smashes n": a wall broken, northwards)
    "wall_broken": lambda e: _("{figure} smashes {direction}").format(figure=e.get("by"),
                                                                       direction=e.get("direction")),
    "illusion": lambda e: f"{e.get('by')} {e.get('illusion')} {e.get('square')}",
    "stolen": lambda e: _("{figure} steals {token}").format(figure=e.get("by"), token=e.get("token")),
    "teleported": lambda e: _("{token} teleports {square}").format(token=e.get("token"), square=_last(e)),
    "charmed": lambda e: _("{figure} charms {target}").format(figure=e.get("by"), target=e.get("target")),
    "fountain": lambda e: f"{e.get('token')} fountain",
    "healed": lambda e: _("{figure} heals {token}").format(figure=e.get("by"), token=e.get("token")),
    "regenerated": lambda e: _("{token} regenerates").format(token=e.get("token")),
    # TRANSLATORS: an entry of the panel's short list of moves ("bTH drinks": the Speed Potion)
    "potion_drunk": lambda e: _("{token} drinks").format(token=e.get("token")),
    "pushed": lambda e: _("{figure} pushes {token}").format(figure=e.get("by"), token=e.get("token")),
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
    "fog": N_("fog (nobody in it can be targeted; no line of sight enters it)"),
    "rockfall": N_("Rockfall (whoever enters it without a shield dies, flyers and the Ghost excepted, and so does "
                   "whoever stops there)"),
    "crevasses": N_("a crevasse (flyers, the Ghost, a Rope or a jump cross it; nobody stops)"),
    "obstacles": N_("a 3D obstacle (flyers and the Ghost cross it; it blocks sight)"),
    # TRANSLATORS: "fountain TOKEN" is the action as typed: keep it in English
    "fountains": N_("the Fountain of Youth (a wounded character beside it drinks: fountain TOKEN)"),
    "pentacle": N_("the Pentacle (1 VP to the only colour on it, if one of its characters there is unwounded)"),
}


def _side(square: str, other: str) -> str | None:
    """The direction (n, e, s, w) from a square to an adjacent one, by their names; None if they are not."""
    try:
        dx = "abcdefghij".index(other[0]) - "abcdefghij".index(square[0])
        dy = int(other[1:]) - int(square[1:])
    except ValueError:
        return None
    return {(0, 1): "n", (1, 0): "e", (0, -1): "s", (-1, 0): "w"}.get((dx, dy))


def _broken_walls(view: dict, square: str) -> list[str]:
    """The broken walls beside a square, side by side (PD-CHAR-GOLEM-01: the view's `broken_walls`, a public
    marker): one wholly broken is an opening the board draws as no wall, so `look` names it; a double wall broken
    once is still a wall (PD-CHAR-GOLEM-05)."""
    found = []
    still = {frozenset(wall[:2]) for wall in view.get("walls", ())}
    for a, b, _count in view.get("broken_walls", ()):
        side = _side(square, b) if a == square else _side(square, a) if b == square else None
        if side is None:
            continue
        if frozenset((a, b)) in still:
            # TRANSLATORS: what `look` finds beside a square (PD-CHAR-GOLEM-05): {side} north, east, south or west
            text = _("a double wall {side}, one of its two segments broken").format(side=_direction(side))
        else:
            # TRANSLATORS: what `look` finds beside a square: the wall on that side, broken by a Golem, is now an
            # opening; {side} north, east, south or west
            text = _("a broken wall {side}").format(side=_direction(side))
        found.append(("nesw".index(side), text))
    return [text for _side_order, text in sorted(found)]


def describe_square(view: dict, square: str) -> str:
    """What lies on a square, in words: tokens (who carries what), pit, rotation mechanism, broken walls beside
    it, start zone."""
    last_row = 5 * view.get("rows", 4) + 1  # the start zones are rows 0 and last_row (BG-SETUP-02)
    column, row = square[:1], square[1:]
    if not (column and column in "abcdefghij" and row.isascii() and row.isdigit() and int(row) <= last_row):
        # TRANSLATORS: `look` given what is no square: a0 and j21 are the board's corners, typed as they are
        return _("{square}: not a square of this board (a0 to {last})").format(square=square, last=f"j{last_row}")
    here = [token for token in view.get("tokens", []) if token["square"] == square]
    parts = []
    for token in sorted(here, key=lambda t: (not t["character"], t["wounded"])):
        if token["id"] is None:
            parts.append(_("a face-down {colour} token").format(colour=seat_name(token["colour"])))
        else:
            name = token_name(token["id"], view.get("set"))
            if token["wounded"]:
                name = _("{token} (wounded)").format(token=name)
            elif token["face_down"]:
                name = _("{token} (face down)").format(token=name)
            parts.append(name)
    if len(parts) in (2, 3) and here and any(t["character"] and not t["wounded"] for t in here):
        # (a Paladin carries two objects, PD-CHAR-PALADIN-01: `look` listed them as if lying there, pt25 F12)
        parts = [_("{figure}, carrying {token}").format(figure=parts[0], token=_(" and ").join(parts[1:]))]
    illusion = next((i for i in view.get("illusions", ()) if i[0] == square), None)
    if illusion:  # PD-CHAR-ILLUS: a pit to all but its maker, or rubble only the Ghost crosses
        parts.append(_("{seat}'s illusion {illusion}").format(seat=seat_name(illusion[1]),
                                                               illusion=illusion_name(illusion[2])))
    elif square in view.get("pits", []):
        parts.append(_("a pit"))
    parts += [_(TERRAIN_WORDS[kind]) for kind, squares in view.get("terrain", {}).items() if square in squares]
    slots = [slot for slot, gear in view.get("gears", {}).items() if gear == square]
    if slots:
        parts.append(_("the rotation mechanism of room {room}").format(room=slots[0]))
    parts += _broken_walls(view, square)
    zones = {"0": _("Blue's start zone"), str(5 * view.get("rows", 4) + 1): _("Yellow's start zone")}
    if square[1:] in zones:
        parts.append(zones[square[1:]])
    elif not parts:
        x, y = "abcdefghij".index(column), int(row) - 1
        slot = f"{'AB'[x // 5]}{y // 5 + 1}"
        room = next((r for r in view.get("rooms", []) if r["slot"] == slot), None)
        if room is not None and not room["revealed"]:
            return _("{square}: inside room {room}, still face down (what lies there shows when it is "
                     "revealed)").format(square=square, room=slot)
    # TRANSLATORS: what `look` finds on a square: nothing
    return labelled(square, joined(parts) if parts else _("nothing"))
