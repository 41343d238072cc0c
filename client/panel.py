"""The game screen's side panel: table and seats, turn and timers, both players' cards and VP, the combat or
placement under way, our secret choice, and the result."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.utils import get_cwidth

from .describe import UNPLAYED, reason_text
from .i18n import N_, _, ngettext
from .local_server import game_record
from .messages import notice_shown
from .names import (TABLE_FLAGS, catalogue, combat_odds, combat_parts, joined, labelled, other_seat, scenario_target,
                    score, seat_name)
from .state import TURN_FLASH_SECONDS, ClientState, purpose_name

CLOCK_ALERT_SECONDS = 15
"""A seat to act with this many seconds or fewer on its clock: the panel's `time left` line is drawn as an alert."""
# TRANSLATORS: what to do now, by phase; the commands as typed (pick CODE, build pairs=..., card N...) stay in
# English
HINTS = {"draft": N_("pick a room pair, a character or an object: pick CODE, one the list offers (Tab completes)"),
         "build": N_("build your team in secret: build pairs=... characters=... objects=..."),
         "hide": N_("hide a token: hide TOKEN ROOM"), "card": N_("play an action card: card N"),
         "main": N_("spend your AP, or end"), "place": N_("place a found token: place TOKEN SQUARE"),
         # a combat's cards laid as plain actions: a Weapon Master's (PD-CHAR-WMASTER-01), a Telepath's naming
         # (PR-CHAR-TELEPATH-01); the secret card has its own line (`_your_part`)
         "combat:combat": N_("lay your combat card: combat +N"),
         "combat:mind": N_("name a combat card's value: mind +N, or mind none")}
# TRANSLATORS: after the hint of a combat step one seat takes alone on a table with timers (docs/rulings.md DT-223:
# a Telepath's naming, a Berserker's announcement, a card laid face up before a Weapon Master's side)
LONE_STEPS = {"mind": N_("within 5 seconds, or nothing is named"),
              "frenzy": N_("within 5 seconds, or he fights with 1 card"),
              "combat": N_("within 5 seconds, or +0 is laid for you"),
              "card": N_("within 5 seconds, or +0 is laid for you")}
"""What a timed table's 5 seconds of a lone combat step lead to (a play-test's Telepath player, attacked, lost his
naming twice: nothing said it had 5 seconds), by the verb of the step's actions."""
# TRANSLATORS: a phase of the board game, as the panel's turn line names it; short: "Turn 12 · {phase} · Blue
# and Yellow to act" fits one row of a 60-column terminal's panel
PHASES = {"draft": N_("teams (mutual choice)"), "build": N_("teams (free choice)"),
          "team": N_("secret team choice"), "hide": N_("hiding tokens"), "card": N_("action card"),
          "main": N_("spending AP"), "combat": N_("combat cards"), "place": N_("placing revealed tokens"),
          "over": N_("game over")}


@dataclass(frozen=True)
class PanelParts:
    """What the panel shows differently for each game (games.py): the board game's parts are in this module,
    the card game's in cards_panel.py."""

    hints: dict
    """The hint for each phase (texts marked with N_, translated where shown)."""
    phases: dict
    """The name of each phase (texts marked with N_, translated where shown)."""
    turn_detail: Callable[[dict], StyleAndTextTuples]
    player: Callable[[dict, str, dict, bool], StyleAndTextTuples]
    combat: Callable[[dict, str | None], StyleAndTextTuples]
    placement: Callable[[dict], StyleAndTextTuples]
    choice_verb: Callable[[str], str]
    draft: Callable[[dict], StyleAndTextTuples]
    """Teams picked in the open, in turn (PD-TEAM-MUTUAL; the card game's CG-SEL mutual and draft)."""


def game_panel(state: ClientState, now: float, parts: PanelParts | None = None, *,
               own_part: bool = True) -> StyleAndTextTuples:
    """Everything but the log, as fragments separated by newlines (`parts`: the view's game's, see games.py);
    `own_part` False: without what the player has to do now (`your_part`, which the layout shows apart)."""
    parts = parts or BOARD_PARTS
    own = (lambda: _your_part(state, view, parts)) if own_part else (lambda: [])
    view = state.view
    out: StyleAndTextTuples = []
    if state.alert:
        out += [("class:alert", state.alert), ("", "\n\n")]
    if state.turn_since is not None and now - state.turn_since < TURN_FLASH_SECONDS:
        # TRANSLATORS: flashed in capitals at the top of the panel when it is the player's turn
        what = _("your secret choice") if state.secret_purpose and not state.legal else _("your turn")
        out += [("class:alert", f" ► {what.upper()} "), ("", "\n")]
    out += _table_line(state)
    if view is None or "players" not in view:
        out.append(("class:dim", "\n" + _("waiting for the table's state...")))
        return out
    out += _seats(state, view, now)
    if not view.get("started", True):
        free = other_seat(state.seat) if state.seat else "Y"
        if state.join_code and state.table:  # a private table: what its opponent types (play-test pt28 F1)
            # TRANSLATORS: `join ...` and `bot {seat}` are commands as typed: keep them in English
            waiting = _("Waiting for an opponent: your opponent types `join {table} {code}` (and spectators "
                        "`spectate {table} {code}`), or `bot {seat}` seats a bot.").format(table=state.table,
                                                                                code=state.join_code, seat=free)
        else:
            # TRANSLATORS: `bot {seat}` is the command as typed: keep it in English
            waiting = _("Waiting for an opponent: `bot {seat}` seats a bot.").format(seat=free)
        out.append(("class:dim", f"\n{waiting}\n"))
    over = bool(state.result or view.get("outcome") or (view.get("table") or {}).get("result"))
    out += _turn(view, now, state.timers, parts, over)
    building = parts.draft(view) + _build(view)
    choosing = bool(building) or view.get("phase") == "team"
    if choosing:
        # Team building (a draft, a free build, the secret team choice) comes before the seats' cards, which play
        # no part yet: what there is to choose from, and what to type, stay in view on a small terminal (on 100 x 32
        # the free build's lists fell below the panel's rows; on 80 x 24, the team choice's "type team ...").
        out += building + own()
    # What is going on now, and what to type, before the seats' hands, and the last moves after them: on 80 x 24
    # the panel has some 16 rows, the hands filled them, and the fight, the tokens to place, the hint of what to
    # type and the game's end (who won, `leave`, the replay) fell below them, never seen (play-test pt29 F14)
    if own_part or not _combat_due(state, view):  # (else under what to type, `your_part`)
        out += parts.combat(_known_choices(view, state), state.seat)
    if own_part:
        out += parts.placement(view)  # (else with `your_part`: who places what is what there is to do)
    if not choosing:
        out += own()
    out += _result(state, view)
    for seat in _seat_order(state.seat):
        out += parts.player(view, seat, view["players"][seat], seat == state.seat)
    out += _moves(state)
    if not own_part:  # (the rounds' checks: under the rest, reachable by scrolling, `your_part`)
        out += _checks(state, view)
    return out


def _target(view: dict) -> int | None:
    """The VP the table's game is played to (None: a scenario that has no VP target)."""
    options = view.get("table") or {}
    if options.get("scenario"):  # PR-SCEN: only scenarios 4 and 5 are played to a VP target
        return scenario_target(options["scenario"])
    return options.get('target_vp', view.get('target_vp', 5))


def _table_line(state: ClientState) -> StyleAndTextTuples:
    options = (state.view or {}).get("table") or {}
    target = _target(state.view or {})
    # TRANSLATORS: the victory points a table is played to ("6 VP")
    details = [_("{vp} VP").format(vp=target)] if target else []
    details += [options["set_name"]] if options.get("set_name") and not options.get("scenario") else []
    details += [_("scenario {scenario}").format(scenario=options["scenario"])] if options.get("scenario") else []
    details += [_(TABLE_FLAGS[flag]) for flag in ("beginner", "timers", "private") if options.get(flag)]
    # TRANSLATORS: a table's team building ({teams}: mutual or free, the option as typed at `create`)
    details += [_("{teams} teams").format(teams=options["teams"])] if options.get("teams") else []  # PD-TEAM-02
    details += [_("secret objects")] if options.get("secret_objects") else []  # CG-OPT-03
    # TRANSLATORS: a private table's join code
    code = " · " + _("code {code}").format(code=state.join_code) if state.join_code else ""
    return [("class:title", _("Table {table}").format(table=state.table)),
            ("class:dim", f"  {' · '.join(details)}{code}\n")]


def _seats(state: ClientState, view: dict, now: float) -> StyleAndTextTuples:
    names = view.get("seats") or {}
    out: StyleAndTextTuples = []
    width = max(len(seat_name(seat)) for seat in ("B", "Y")) + 1  # "Yellow", "Amarillo": one space after either
    for seat in ("B", "Y"):
        # TRANSLATORS: a seat nobody sits in
        who = names.get(seat) or _("(free)")
        you = "  " + _("← you") if seat == state.seat else ""
        away = ""
        if seat in state.away and not state.game_over:  # (a play-test read "60 s" at +18 s, and after the game's end)
            # TRANSLATORS: a player who lost the connection: the seconds left to come back ("s": seconds)
            away = "  " + _("(away, {seconds} s grace)").format(seconds=max(1, math.ceil(state.away[seat] - now)))
        out += [(f"class:seat.{seat.lower()}", f"{seat_name(seat):<{width}}"), ("", f"{who}{you}{away}\n")]
    if state.spectating:
        out.append(("class:dim", _("you are watching") + "\n"))
    return out


def _turn(view: dict, now: float, timers: dict[str, float], parts: PanelParts, over: bool = False
          ) -> StyleAndTextTuples:
    if over:  # (a game resigned or drawn by agreement keeps the engine's phase and AP: nothing of it matters now)
        # TRANSLATORS: the panel's turn line once the game is over
        return [("class:title", "\n" + _("Turn {turn} · game over").format(turn=view.get("turn", 0)) + "\n")]
    to_act = view.get("to_act") or []
    # TRANSLATORS: joins the items of a list ("Blue and Yellow"): keep the spaces
    acting = _(" and ").join(seat_name(s) for s in to_act) or _("nobody")
    phase = view.get("phase")
    phase = _(parts.phases[phase]) if phase in parts.phases else phase
    out: StyleAndTextTuples = [("class:title", "\n" + _("Turn {turn} · {phase} · {seats} to act").format(
        turn=view.get("turn", 0), phase=phase, seats=acting) + "\n")]
    committed = (view.get("table") or {}).get("committed")
    if isinstance(committed, list) and committed and len(to_act) > 1 and not view.get("combat") \
            and not view.get("build"):
        # who has made the secret choice both make (the combat's own line says it for its cards, the team
        # building's for the builds)
        out.append(("", "  " + " · ".join(_choosing(seat, seat in committed) for seat in to_act) + "\n"))
    out += parts.turn_detail(view)
    # (a clock run out is the server's to act on: a frozen 0:00 read as a bug while it waited for an away seat's
    # reveal, DT-251, a play-test found; the server's next `timer` shows a clock again)
    clocks = [f"{seat_name(seat)} {_clock(deadline - now)}" for seat, deadline in sorted(timers.items())
              if seat in to_act and deadline > now]
    if clocks:
        # the last seconds drawn apart (a play-test's player saw the same colour from 2:00 to 0:01, pt28 W1; the
        # bell rings at LOW_CLOCK_SECONDS)
        short = any(0 < deadline - now <= CLOCK_ALERT_SECONDS for seat, deadline in timers.items() if seat in to_act)
        out.append(("class:alert" if short else "class:refusal",
                    _("time left: {clocks}").format(clocks=" · ".join(clocks)) + "\n"))
    return out


def _turn_detail(view: dict) -> StyleAndTextTuples:
    out: StyleAndTextTuples = []
    if view.get("active") and view.get("phase") in ("main", "combat", "place"):
        charmed = {token for tokens in (view.get("charmed_figures") or {}).values() for token in tokens}
        charmed |= set((view.get("charmed") or {}).values())
        pools = view.get("pools") or {}
        potions = ", ".join(f"{token} {n}" for token, n in pools.items() if token not in charmed)
        values = {"seat": seat_name(view["active"]), "ap": view.get("ap", 0)}
        if potions:  # a Speed Potion's AP, for its drinker alone
            ap = _("{seat}'s AP left {ap} · potion AP {pools}").format(pools=potions, **values)
        else:
            ap = _("{seat}'s AP left {ap}").format(**values)
        charms = ", ".join(f"{token} {n}" for token, n in pools.items() if token in charmed)
        if charms:  # the Charm Scroll's actions, for the charmed enemy alone (PD-OBJ-CHARM-02)
            # TRANSLATORS: the actions a charmed enemy figure has left this turn (Paladins & Dragons' Charm Scroll)
            ap += " · " + _("charmed {pools}").format(pools=charms)
        out.append(("", ap + "\n"))
    target, players = _target(view), view.get("players") or {}
    vps = {seat: player.get("vp") for seat, player in players.items() if isinstance(player, dict)}
    reached = [seat for seat in ("B", "Y") if type(target) is int and type(vps.get(seat)) is int
               and vps[seat] >= target]  # (a server's map, whatever it holds: test_client_hostile.py)
    if reached and view.get("phase") in ("main", "combat", "place") and not view.get("result"):
        # a play-test reached 6 of 5 VP with AP left and read only "spend your AP, or end": the game had not
        # ended, and nothing said why (BG-END-02: the turn is played to its end, then the most VP win)
        # TRANSLATORS: {seat}: a colour, or both ("Blue and Yellow": the plural form); {vp}: the table's VP
        # target; BG-END-02 a rule ID
        line = ngettext("{seat} reached {vp} VP: the game ends at the end of this turn, and the side with the most VP "
                        "wins (BG-END-02)",
                        "{seat} reached {vp} VP: the game ends at the end of this turn, and the side with the most VP "
                        "wins (BG-END-02)", len(reached))
        out.append(("class:refusal", line.format(seat=_(" and ").join(seat_name(s) for s in reached), vp=target)
                    + "\n"))
    if view.get("first_cycle_limit") and view.get("phase") in ("card", "main"):
        limit = _("first cycle: cards up to {limit}").format(limit=view["first_cycle_limit"])
        out.append(("class:dim", limit + "\n"))
    return out


def _clock(seconds: float) -> str:
    seconds = max(0, int(seconds + 0.999))
    return f"{seconds // 60}:{seconds % 60:02d}"


def _seat_order(seat: str | None) -> tuple[str, str]:
    return (seat, other_seat(seat)) if seat else ("B", "Y")


def _player(view: dict, seat: str, player: dict, own: bool) -> StyleAndTextTuples:
    vp = _("{vp} VP").format(vp=player["vp"])
    cards = player["action_cards"]
    # TRANSLATORS: how many cards a player holds (the other player's hand is secret)
    hand = " ".join(map(str, cards)) if isinstance(cards, list) else _("{count} in hand").format(count=cards)
    # TRANSLATORS: a player's empty hand of cards ("action: none", "combat: none")
    hand = hand or _("none")
    # TRANSLATORS: the action card a player played last
    played = " · " + _("played {card}").format(card=player["played_top"]) if player.get("played_top") else ""
    combat = player["combat_cards"]
    # TRANSLATORS: how many combat cards the other player holds (their values are secret)
    combat_text = " ".join(f"+{v}" for v in combat) if isinstance(combat, list) else ngettext(
        "{count} card", "{count} cards", combat if isinstance(combat, int) else 2).format(count=combat)
    combat_text = combat_text or _("none")
    screen = player.get("screen")
    behind = len(screen) if isinstance(screen, list) else screen
    name = _("{seat} (you)").format(seat=seat_name(seat)) if own else seat_name(seat)
    # TRANSLATORS: a player's cards: "action: 1 2 3", "combat: +0 +1", "jumps: 2" (the jump cards left)
    lines = [_("action: {cards}").format(cards=hand) + played, _("combat: {cards}").format(cards=combat_text),
             _("jumps: {count}").format(count=player["jumps"])]
    out: StyleAndTextTuples = [
        ("", "\n"), (f"class:seat.{seat.lower()}", name),
        ("class:title", f"  {vp}\n"),
        ("", "  " + "\n  ".join(lines)),
    ]
    if behind:
        out.append(("class:dim", " · " + ngettext(
            "{count} token behind the screen", "{count} tokens behind the screen", behind).format(count=behind)))
    out.append(("", "\n"))
    return out


SHOWN_MOVES = 12


def _moves(state: ClientState) -> StyleAndTextTuples:
    """The last SHOWN_MOVES actions of the game, compactly, oldest first ("…" when there were more)."""
    if not state.moves:
        return []
    shown = list(state.moves)[-SHOWN_MOVES:]
    more = "… · " if len(state.moves) > SHOWN_MOVES else ""
    # TRANSLATORS: the heading of the panel's short list of the game's last moves
    return [("class:title", "\n" + _("Moves") + " "), ("class:dim", more + " · ".join(shown) + "\n")]


def _known_choices(view: dict, state: ClientState) -> dict:
    """The view with its combat's `chosen` as this client knows it: the engine marks a card chosen once both are
    revealed, but the server says sooner who has committed (`table.committed`), and a player knows that he did
    and when his opponent's commitment came (opponent_commit)."""
    combat = view.get("combat")
    if not combat or not isinstance(combat.get("chosen"), dict):
        return view
    committed = (view.get("table") or {}).get("committed")
    known = {seat: True for seat in (committed if isinstance(committed, list) else ())}
    purpose = view.get("secret")
    if state.seat and purpose:
        known[state.seat] = known.get(state.seat) or purpose in state.secrets
        other = other_seat(state.seat)
        known[other] = known.get(other) or purpose in state.opponent_committed
    chosen = {seat: bool(done) or known.get(seat, False) for seat, done in combat["chosen"].items()}
    return {**view, "combat": {**combat, "chosen": chosen}}


def _choosing(seat: str, chosen) -> str:
    """'Blue has chosen' or 'Blue is choosing' (a secret choice: a combat card, a team)."""
    if chosen:
        return _("{seat} has chosen").format(seat=seat_name(seat))
    return _("{seat} is choosing").format(seat=seat_name(seat))


def _combat(view: dict, seat: str | None) -> StyleAndTextTuples:
    combat = view.get("combat")
    if not combat:
        return []
    first = combat.get("first")
    lays_first = first.get("seat") if isinstance(first, dict) else None
    # (with a Weapon Master on one side only, that side lays first, face up, PD-CHAR-WMASTER-01: said below)
    chosen = ", ".join(_choosing(s, c) for s, c in (combat.get("chosen") or {}).items() if s != lays_first)
    mind = combat.get("mind")
    if isinstance(mind, dict) and mind.get("naming"):  # PR-CHAR-TELEPATH-01: the naming first, the cards after it
        # (a play-test's box said "Blue is choosing, Yellow is choosing" while only Blue had to name)
        chosen = _("{seat}'s Telepath names a card first").format(seat=seat_name(mind.get("seat")))
    elif lays_first is not None and first.get("card") is not None:
        chosen = ", ".join(filter(None, (_("{seat} lays first, face up: +{card}").format(
            seat=seat_name(lays_first), card=first["card"]), chosen)))
    elif lays_first is not None:
        chosen = _("{seat} lays first, face up").format(seat=seat_name(lays_first))
    mine = " · " + _("your card +{card}").format(card=combat["my_card"]) if combat.get("my_card") is not None else ""
    title = _("Combat {number}: {attacker} attacks {target}").format(
        number=combat["number"], attacker=combat["attacker"], target=combat["target"])
    sides = _("attackers {attackers} · defenders {defenders}").format(
        attackers=", ".join(combat["attackers"]), defenders=", ".join(combat["defenders"]))
    if combat.get("shooters"):  # PR-RANGED: a shot (the shooters, at a distance, are not among the attackers)
        if not combat["attackers"]:
            # TRANSLATORS: a ranged combat's panel line when nobody in contact joins the shot
            sides = _("defenders {defenders}").format(defenders=", ".join(combat["defenders"]))
        # TRANSLATORS: a ranged combat's panel line (PR-RANGED): {shooters} the figures that shoot
        sides = _("a shot by {shooters}").format(shooters=", ".join(combat["shooters"])) + " · " + sides
    elif combat.get("lancer") and not combat["attackers"]:  # PR-OBJ-LANCE: the lancer, at a distance
        # TRANSLATORS: a Telescopic Lance combat's panel line (PR-OBJ-LANCE): {lancer} the figure that strikes
        sides = _("a lance by {lancer}").format(lancer=combat["lancer"]) + " · " + _(
            "defenders {defenders}").format(defenders=", ".join(combat["defenders"]))
    out: StyleAndTextTuples = [("class:title", f"\n{title}\n"), ("", f"  {sides}\n")]
    totals = combat.get("totals")
    if totals:
        # the attacking side is the attacker's colour: a charmed figure attacks for its owner (DT-117)
        attacker = {"b": "B", "y": "Y"}.get(combat["attacker"][:1], view.get("active"))
        out.append(("", f"  {combat_odds(attacker, totals['attack'], totals['defence'], seat)}\n"))
        parts = combat_parts(combat.get("parts"))
        if parts:
            out.append(("class:dim", f"  {parts}\n"))
    return out + [("", f"  {chosen}{mine}\n")]


# TRANSLATORS: the kinds of a team building's picks, as the panel lists them ("characters: WA TH")
DRAFT_KINDS = {"rooms": N_("room pairs"), "characters": N_("characters"), "objects": N_("objects")}
BUILD_PARTS = {"pairs": N_("room pairs"), "characters": N_("characters"), "objects": N_("objects")}
"""A free build's parts (the view's build.parts' names, typed in `build`), in words."""
# TRANSLATORS: who picks what now in a team building; what is left to pick follows ("Blue picks character: WA TH")
DRAFT_PICKS = {"rooms": N_("{seat} picks room pair:"), "characters": N_("{seat} picks character:"),
               "objects": N_("{seat} picks object:")}
"""Who picks what now, by the draft's stage (what is left to pick follows)."""


def _draft(view: dict) -> StyleAndTextTuples:
    """PD-TEAM-MUTUAL: what both teams have so far, who picks what next, and what is left."""
    draft = view.get("draft")
    if not draft:
        return []
    picks, pool, stage = draft["picks"], draft["pool"], draft["stage"]
    first = _("(both teams get every pick; {seat} picks first)").format(seat=seat_name(draft["first"]))
    out: StyleAndTextTuples = [("class:title", "\n" + _("Team building")), ("", f" {first}\n")]
    for kind in ("rooms", "characters", "objects"):
        chosen = " ".join(picks[kind]) or "-"
        out.append(("", "  " + labelled(_(DRAFT_KINDS[kind]), chosen) + "\n"))
    if stage in DRAFT_PICKS:
        picker = _(DRAFT_PICKS[stage]).format(seat=seat_name(draft["picker"]))
    else:  # a stage this client does not know: its name as the server sends it
        picker = f"{seat_name(draft['picker'])} picks {stage[:-1]}:"
    out += [("class:active", f"  {picker} "), ("", " ".join(pool.get(stage, [])) + "\n")]
    return out


def build_choices(build: dict, skip: tuple[str, ...] = ()) -> list[str]:
    """A free build's parts (the view's `build`), a line each: what it chooses from, how many (`help build` gives
    them too, but the parts named in `skip`)."""
    out = []
    for part in build.get("parts") or ():
        if part["name"] in skip:
            continue
        copies = part.get("copies") or {}
        values = " ".join(v + (f"x{copies[v]}" if v in copies else "") for v in part["values"])
        name = part["name"]
        label = _(BUILD_PARTS[name]) if name in BUILD_PARTS else name
        # TRANSLATORS: what a build chooses from: {label} its name in words, {part}= the word typed in `build`
        # (pairs=, characters=, objects=: kept as typed; a play-test read "pairs:" as an untranslated label)
        out.append(_("{label} ({part}=...): choose {count} of {values}").format(
            label=label, part=name, count=part["count"], values=values))
    return out


def _build(view: dict) -> StyleAndTextTuples:
    """PD-TEAM-FREE: what a build chooses from, who has chosen, and our own build once made."""
    build = view.get("build")
    if not build:
        return []
    if build.get("mode") == "full":
        how = _("(full frontal: each side its own team, in secret)")
    else:
        how = _("(free choice: each side its own team, in secret)")
    out: StyleAndTextTuples = [("class:title", "\n" + _("Team building")), ("", f" {how}\n")]
    out += [("", f"  {choose}\n") for choose in build_choices(build)]
    # the engine marks a build made once both are revealed; the server says sooner who has committed to his (a
    # play-test's panel said "Blue has chosen" on the turn line and "Blue is choosing" here)
    committed = (view.get("table") or {}).get("committed")
    committed = committed if isinstance(committed, list) else ()
    done = " · ".join(_choosing(seat, chosen or seat in committed) for seat, chosen in sorted(build["built"].items()))
    out.append(("class:dim", f"  {done}\n"))
    for seat, mine in sorted((build.get("mine") or {}).items()):
        chosen = " · ".join(f"{name} {','.join(map(str, values))}" for name, values in mine.items())
        out.append(("", "  " + _("your build: {build}").format(build=chosen) + "\n"))
    return out


def who_places(view: dict) -> dict[str, list[str]]:
    """The revealed room's tokens still to place (the view's `placement`), by the seat that places them, the one
    placing now first: the revealer all but the objects of his own colour, which his opponent places
    (BG-REVEAL-06); all of them once the opponent's time ran out (BG-OPT-03)."""
    placement = view.get("placement")
    if not placement:
        return {}
    revealer, placer = placement["revealer"], placement["placer"]
    objects = catalogue(view.get("set")).objects
    colour = "b" if revealer == "B" else "y"
    places: dict[str, list[str]] = {placer: []}
    for token in placement["tokens"]:
        own_object = token[:1] == colour and token[1:3] in objects
        places.setdefault(other_seat(revealer) if own_object and not placement.get("passed") else revealer,
                          []).append(token)
    return places


def _placement(view: dict) -> StyleAndTextTuples:
    """Who places which of the revealed room's tokens: the revealer all but the objects of his own colour, which
    his opponent places (BG-REVEAL-06); all of them once the opponent's time ran out (BG-OPT-03). The one placing
    now first."""
    placement = view.get("placement")
    if not placement:
        return []
    places = who_places(view)
    who = joined(_("{seat} places {tokens}").format(seat=seat_name(seat), tokens=", ".join(tokens))
                    for seat, tokens in places.items() if tokens)
    return [("class:title", "\n" + _("Room {room} revealed:").format(room=placement["slot"]) + " "),
            ("", who + "\n")]


def _checks(state: ClientState, view: dict) -> StyleAndTextTuples:
    """The secret rounds whose opponent's choice is still to be shown and checked (in `_your_part`'s place: none
    while a secret choice is asked, to a spectator or after the game)."""
    if state.spectating or view.get("outcome") or state.secret_purpose:
        return []
    shown = notice_shown(state)  # (a line the message bar says is not said here again)
    unverified = [round_ for round_ in state.secrets.values() if round_.revealed and round_.opponent_choice is None
                  and round_.purpose != "build"]  # a build is shown at the end of the game (DT-120)
    return [("class:dim", f"\n{line}\n") for round_ in unverified
            if (line := round_.describe(pending=False)) != shown]


def _your_part(state: ClientState, view: dict, parts: PanelParts, with_checks: bool = True) -> StyleAndTextTuples:
    purpose = state.secret_purpose
    if state.spectating or view.get("outcome"):
        return []
    shown = notice_shown(state)  # (a line the message bar says is not said here again)
    if purpose and purpose in state.secrets:
        line = state.secrets[purpose].describe()
        return [] if line == shown else [("class:title", "\n" + _("Secret choice") + "\n"), ("", f"  {line}\n")]
    if purpose:
        verb = parts.choice_verb(purpose)
        # TRANSLATORS: {verb} is the command as typed (build, team, combat, hide, face, card); {purpose}: what for, in
        # words (the starting team, the card for combat 2)
        choose = _("Choose in secret ({purpose}): type {verb} ... (Tab completes)").format(
            purpose=purpose_name(purpose), verb=verb)
        return [("class:active", f"\n{choose}\n")]
    checks = _checks(state, view) if with_checks else []
    out: StyleAndTextTuples = []  # (what to type first, the rounds' checks after it: pt31, `your_part`)
    if state.legal:
        verb = state.legal[0].split(" ", 1)[0]  # a phase's own step first (a Telepath names before the cards)
        hint = parts.hints.get(f"{view.get('phase')}:{verb}") or parts.hints.get(view.get("phase"))
        hint = _(hint) if hint else ""
        if view.get("phase") == "combat" and verb in LONE_STEPS and (view.get("table") or {}).get("timers"):
            hint = f"{hint} ({_(LONE_STEPS[verb])})"
        verbs = list(dict.fromkeys(action.split(" ", 1)[0] for action in state.legal))
        # two sentences, not a plural form of one: a plural form is the same sentence with a count (review rv31b)
        if len(verbs) == 1:
            # TRANSLATORS: in the panel, under "Your move": {verbs} the first word of the only legal actions, as
            # typed ("end"); the player types it and Tab completes the rest of the action
            legal = _("type {verbs} (Tab completes the rest)").format(verbs=verbs[0])
        else:
            # TRANSLATORS: in the panel, under "Your move": {verbs} the first words of the legal actions, as typed
            # ("move, rotate, end"); the player types one's first letters and Tab ("12 legal actions" said nothing a
            # player could do: play-test pt31)
            legal = _("type one of {verbs} (first letters, then Tab)").format(verbs=", ".join(verbs))
        out += [("class:active", "\n" + _("Your move: {hint}").format(hint=hint)),
                ("class:dim", "\n" + legal + "\n")]
        targets = within_reach(state.legal)
        if targets:
            out.append(("", _("Within reach: {targets}").format(targets=" · ".join(targets)) + "\n"))
    elif state.legal_omitted and not purpose:
        # the server left the list out: it would not fit in a frame (docs/protocol.md section 13, Views)
        omitted = ngettext("{count} legal action, too many to list: type yours (the server checks it)",
                           "{count} legal actions, too many to list: type yours (the server checks it)",
                           state.legal_omitted)
        out += [("class:active", "\n" + _("Your move: {hint}").format(hint="")),
                ("class:dim", "\n" + omitted.format(count=state.legal_omitted) + "\n")]
    return out + checks


def _combat_due(state: ClientState, view: dict) -> bool:
    """A combat in which the player has something to do now (a card to choose or lay, a card to name)."""
    return bool(view.get("combat")) and state.to_act and not state.spectating and not view.get("outcome")


def your_part(state: ClientState, now: float, parts: PanelParts | None = None) -> StyleAndTextTuples:
    """What the player has to do now (`Your move: ...`, a secret choice to make; who places which of a revealed
    room's tokens, before it), as `game_panel` says it: the
    layout shows it in a window of its own under the rest of the panel, whose rows it has first (play-test pt31:
    at 60 x 20 a room's placement pushed the line of what to type off the panel). No leading blank line."""
    view = state.view
    if view is None or "players" not in view:
        return []
    parts = parts or BOARD_PARTS
    choosing = bool(parts.draft(view) + _build(view)) or view.get("phase") == "team"
    # (the rounds' checks are at the end of the rest of the panel, `game_panel`: at 100 x 24 this window's rows cut
    # a check's end during the hidden placement, and it does not scroll)
    out = ([] if choosing else parts.placement(view)) + _your_part(state, view, parts, with_checks=False)
    if _combat_due(state, view):
        # the combat's sides and strengths after what to type, in this window whose rows come first: at 60 x 20 they
        # were below the panel's rows while the player chose his card (pt33), reachable only by PgDn
        out += parts.combat(_known_choices(view, state), state.seat)
    if out and out[0][1].startswith("\n"):
        out[0] = (out[0][0], out[0][1][1:])
    return out


_REACH = {"attack": N_("{figure} attacks {target}"), "shoot": N_("{figure} shoots {target}"),
          # TRANSLATORS: who a figure can reach with the Telescopic Lance ("bCO lances yTR")
          "lance": N_("{figure} lances {target}"), "push": N_("{figure} pushes {target}"),
          "steal": N_("{figure} steals {target}"), "charm": N_("{figure} charms {target}")}


def within_reach(legal: list[str]) -> list[str]:
    """Who each of the player's figures can attack, shoot (PR-RANGED-02), reach with the lance or push, from the
    legal actions: 'bAS shoots yTP' once, however many joining shooters the action lists may vary."""
    seen: list[str] = []
    for action in legal:
        words = action.split()
        if words[0] in _REACH and len(words) >= 3:
            line = _(_REACH[words[0]]).format(figure=words[1], target=words[2])
            if line not in seen:
                seen.append(line)
    return seen


def _result(state: ClientState, view: dict) -> StyleAndTextTuples:
    result = state.result or view.get("outcome")
    if not result:
        return []
    winner = result.get("winner")
    vp = result.get("vp") or {}
    values = {"score": score(vp, winner), "reason": reason_text(result.get("reason"))}
    if winner:
        over = _("Game over: {seat} wins {score} ({reason})").format(seat=seat_name(winner), **values)
    elif result.get("reason") in UNPLAYED:  # (a game left before its first turn read "Blue wins 0-0")
        over = _("Game over without a winner ({reason})").format(**values)
    else:  # (a draw agreed may stand at 1-0: "Draw 1-0" read as a score)
        # TRANSLATORS: {score}: the victory points of Blue and Yellow, e.g. 1-0
        over = _("Game over: a draw ({reason}), VP {score}").format(**values)
    # TRANSLATORS: `leave` is the command as typed: keep it in English
    out = [("class:active", f"\n{over}\n"), ("class:dim", _("leave: back to the lobby") + "\n")]
    if state.may_rematch:
        # TRANSLATORS: `rematch` is the command as typed: keep it in English
        out.append(("class:dim", _("rematch: play again, the colours swapped") + "\n"))
    if state.server and state.table and not state.local:
        # (a play-test found nothing at a game's end saying how to see it again: the README's "Replays" only)
        code = f" --code {state.join_code}" if state.join_code else ""
        command = f"dt-client replay {state.table} --server {state.server}{code}"
        # TRANSLATORS: {command} is the command line as typed: keep it as it is
        out.append(("class:dim", _("to step through this game again: {command}").format(command=command) + "\n"))
    elif state.local and state.table and (record := game_record(state.table)) is not None:
        # (play-test pt27 F8: `dt-client play`'s server goes with the game; the record it wrote in games/ stays)
        out.append(("class:dim", _("to step through this game again: {command}").format(
            command=f"dt-client replay {record}") + "\n"))
    return out


def _choice_verb(purpose: str) -> str:
    return purpose if purpose in ("team", "build") else "combat"


BOARD_PARTS = PanelParts(HINTS, PHASES, _turn_detail, _player, _combat, _placement, _choice_verb, _draft)


def event_log(state: ClientState) -> StyleAndTextTuples:
    """The log of the table in plain words, oldest first; its last line left out while the message bar says it
    (only a notice: nothing else on the bar), which showed it twice and took one of the log's three rows at 80x24
    from a line that mattered (play-test pt29 F11)."""
    if state.log:
        lines = list(state.log)
        if (len(lines) > 1 and state.notice and lines[-1] == state.notice and not state.alert
                and not state.reconnecting and not state.refusal):
            lines.pop()
    elif state.came_in:  # a snapshot (joining or coming back): what came before it is on the board, not here
        # TRANSLATORS: the table's event log is empty because the player joined or came back after events happened
        lines = [_("(what happened before you came in is not in this log: the board shows the game as it is now)")]
    else:
        lines = [_("(nothing happened yet)")]
    return [("class:log", "\n".join(lines))]


CHAT_ROWS = 6
"""The rows of a table's chat pane (beside the board, under the log)."""


def chat_lines(state: ClientState, columns: int | None = None) -> StyleAndTextTuples:
    """The chat lines; with `columns` (a table's pane, CHAT_ROWS high), each cut to what leaves a row for another:
    a 500-character message filled the pane, and its readers saw its tail without the name of who wrote it
    (play-test pt24). Cut at CHAT_ROWS - 2 rows' columns, so that word-wrapping's ragged edge still fits."""
    if columns is None or columns < 10:
        return [("class:chat", "\n".join(state.chat))]
    most = (CHAT_ROWS - 2) * columns
    return [("class:chat", "\n".join(_cut(line, most) for line in state.chat))]


def _cut(line: str, columns: int) -> str:
    """`line`, or its head that takes at most `columns` columns on the screen with a "…" after it."""
    used = 0
    for index, char in enumerate(line):
        used += max(get_cwidth(char), 0)
        if used > columns - 1:
            return line[:index] + "…"
    return line
