"""The game screen's side panel: table and seats, turn and timers, both players' cards and VP, the combat or
placement under way, our secret choice, and the result."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from prompt_toolkit.formatted_text import StyleAndTextTuples

from .names import other_seat, scenario_target, seat_name
from .state import TURN_FLASH_SECONDS, ClientState

HINTS = {"draft": "pick a room pair, a character or an object: pick 37, pick WA",
         "build": "build your team in secret: build pairs=... characters=... objects=...",
         "hide": "hide a token: hide TOKEN ROOM", "card": "play an action card: card N",
         "main": "spend your AP, or end", "place": "place a found token: place TOKEN SQUARE"}
PHASES = {"draft": "team building (mutual choice)", "build": "team building (free choice, in secret)",
          "team": "secret team choice", "hide": "hiding tokens", "card": "action card", "main": "spending AP",
          "combat": "combat cards", "place": "placing revealed tokens", "over": "game over"}


@dataclass(frozen=True)
class PanelParts:
    """What the panel shows differently for each game (games.py): the board game's parts are in this module,
    the card game's in cards_panel.py."""

    hints: dict
    phases: dict
    turn_detail: Callable[[dict], StyleAndTextTuples]
    player: Callable[[dict, str, dict, bool], StyleAndTextTuples]
    combat: Callable[[dict, str | None], StyleAndTextTuples]
    placement: Callable[[dict], StyleAndTextTuples]
    choice_verb: Callable[[str], str]
    draft: Callable[[dict], StyleAndTextTuples]
    """Teams picked in the open, in turn (PD-TEAM-MUTUAL; the card game's CG-SEL mutual and draft)."""


def game_panel(state: ClientState, now: float, parts: PanelParts | None = None) -> StyleAndTextTuples:
    """Everything but the log, as fragments separated by newlines (`parts`: the view's game's, see games.py)."""
    parts = parts or BOARD_PARTS
    view = state.view
    out: StyleAndTextTuples = []
    if state.alert:
        out += [("class:alert", state.alert), ("", "\n\n")]
    if state.turn_since is not None and now - state.turn_since < TURN_FLASH_SECONDS:
        what = "your secret choice" if state.secret_purpose and not state.legal else "your turn"
        out += [("class:alert", f" ► {what.upper()} "), ("", "\n")]
    out += _table_line(state)
    if view is None or "players" not in view:
        out.append(("class:dim", "\nwaiting for the table's state..."))
        return out
    out += _seats(state, view)
    if not view.get("started", True):
        free = other_seat(state.seat) if state.seat else "Y"
        out.append(("class:dim", f"\nWaiting for an opponent: `bot {free}` seats a bot.\n"))
    out += _turn(view, now, state.timers, parts)
    for seat in _seat_order(state.seat):
        out += parts.player(view, seat, view["players"][seat], seat == state.seat)
    out += _moves(state)
    out += parts.combat(view, state.seat)
    out += parts.draft(view)
    out += _build(view)
    out += parts.placement(view)
    out += _your_part(state, view, parts)
    out += _result(state, view)
    return out


def _table_line(state: ClientState) -> StyleAndTextTuples:
    options = (state.view or {}).get("table") or {}
    target = options.get('target_vp', (state.view or {}).get('target_vp', 5))
    if options.get("scenario"):  # PR-SCEN: only scenarios 4 and 5 are played to a VP target
        target = scenario_target(options["scenario"])
    details = [f"{target} VP"] if target else []
    details += [options["set_name"]] if options.get("set_name") and not options.get("scenario") else []
    details += [f"scenario {options['scenario']}"] if options.get("scenario") else []
    details += [flag for flag in ("beginner", "timers", "private") if options.get(flag)]
    details += [f"{options['teams']} teams"] if options.get("teams") else []  # PD-TEAM-02
    details += ["secret objects"] if options.get("secret_objects") else []  # CG-OPT-03
    code = f" · code {state.join_code}" if state.join_code else ""
    return [("class:title", f"Table {state.table}"), ("class:dim", f"  {' · '.join(details)}{code}\n")]


def _seats(state: ClientState, view: dict) -> StyleAndTextTuples:
    names = view.get("seats") or {}
    out: StyleAndTextTuples = []
    for seat in ("B", "Y"):
        who = names.get(seat) or "(free)"
        you = "  ← you" if seat == state.seat else ""
        away = f"  (away, {state.away[seat]} s grace)" if seat in state.away else ""
        out += [(f"class:seat.{seat.lower()}", f"{seat_name(seat):<7}"), ("", f"{who}{you}{away}\n")]
    if state.spectating:
        out.append(("class:dim", "you are watching\n"))
    return out


def _turn(view: dict, now: float, timers: dict[str, float], parts: PanelParts) -> StyleAndTextTuples:
    to_act = view.get("to_act") or []
    acting = " and ".join(seat_name(s) for s in to_act) or "nobody"
    phase = parts.phases.get(view.get("phase"), view.get("phase"))
    out: StyleAndTextTuples = [("class:title", f"\nTurn {view.get('turn', 0)} · {phase} · {acting} to act\n")]
    out += parts.turn_detail(view)
    clocks = [f"{seat_name(seat)} {_clock(deadline - now)}" for seat, deadline in sorted(timers.items())
              if seat in to_act]
    if clocks:
        out.append(("class:refusal", "time left: " + " · ".join(clocks) + "\n"))
    return out


def _turn_detail(view: dict) -> StyleAndTextTuples:
    out: StyleAndTextTuples = []
    if view.get("active") and view.get("phase") in ("main", "combat", "place"):
        pools = ", ".join(f"{token} {n}" for token, n in (view.get("pools") or {}).items())
        ap = f"{seat_name(view['active'])}'s AP left {view.get('ap', 0)}"
        out.append(("", ap + (f" · potion AP {pools}" if pools else "") + "\n"))
    if view.get("first_cycle_limit") and view.get("phase") in ("card", "main"):
        out.append(("class:dim", f"first cycle: cards up to {view['first_cycle_limit']}\n"))
    return out


def _clock(seconds: float) -> str:
    seconds = max(0, int(seconds + 0.999))
    return f"{seconds // 60}:{seconds % 60:02d}"


def _seat_order(seat: str | None) -> tuple[str, str]:
    return (seat, other_seat(seat)) if seat else ("B", "Y")


def _player(view: dict, seat: str, player: dict, own: bool) -> StyleAndTextTuples:
    vp = f"{player['vp']} VP"
    cards = player["action_cards"]
    hand = " ".join(map(str, cards)) if isinstance(cards, list) else f"{cards} in hand"
    played = f" · played {player['played_top']}" if player.get("played_top") else ""
    combat = player["combat_cards"]
    combat_text = " ".join(f"+{v}" for v in combat) if isinstance(combat, list) else f"{combat} cards"
    screen = player.get("screen")
    behind = len(screen) if isinstance(screen, list) else screen
    out: StyleAndTextTuples = [
        ("", "\n"), (f"class:seat.{seat.lower()}", f"{seat_name(seat)}{' (you)' if own else ''}"),
        ("class:title", f"  {vp}\n"),
        ("", f"  action: {hand}{played}\n  combat: {combat_text}\n  jumps: {player['jumps']}"),
    ]
    if behind:
        out.append(("class:dim", f" · {behind} token(s) behind the screen"))
    out.append(("", "\n"))
    return out


SHOWN_MOVES = 12


def _moves(state: ClientState) -> StyleAndTextTuples:
    """The last SHOWN_MOVES actions of the game, compactly, oldest first ("…" when there were more)."""
    if not state.moves:
        return []
    shown = list(state.moves)[-SHOWN_MOVES:]
    more = "… · " if len(state.moves) > SHOWN_MOVES else ""
    return [("class:title", "\nMoves "), ("class:dim", more + " · ".join(shown) + "\n")]


def _combat(view: dict, seat: str | None) -> StyleAndTextTuples:
    combat = view.get("combat")
    if not combat:
        return []
    chosen = ", ".join(f"{seat_name(s)} {'has chosen' if c else 'is choosing'}"
                       for s, c in (combat.get("chosen") or {}).items())
    mine = f" · your card +{combat['my_card']}" if combat.get("my_card") is not None else ""
    out: StyleAndTextTuples = [
        ("class:title", f"\nCombat {combat['number']}: {combat['attacker']} attacks {combat['target']}\n"),
        ("", f"  attackers {', '.join(combat['attackers'])} · defenders {', '.join(combat['defenders'])}\n")]
    totals = combat.get("totals")
    if totals:
        out.append(("", f"  {combat_odds(view, totals, seat)}\n"))
    return out + [("", f"  {chosen}{mine}\n")]


def combat_odds(view: dict, totals: dict, seat: str | None) -> str:
    """The sides' totals before the cards, attacker first, from the reader's side: 'you attack: 5 + card vs
    Yellow 6 + card' (BG-COMBAT-03: the higher total wins, a tie does nothing)."""
    attacker = view.get("active")
    defender = other_seat(attacker) if attacker else None
    attack, defence = totals["attack"], totals["defence"]
    if seat == attacker:
        return f"you attack: {attack} + card vs {seat_name(defender)} {defence} + card"
    if seat == defender:
        return f"{seat_name(attacker)} attacks: {attack} + card vs you {defence} + card"
    return f"{seat_name(attacker)} attacks: {attack} + card vs {seat_name(defender)} {defence} + card"


def _draft(view: dict) -> StyleAndTextTuples:
    """PD-TEAM-MUTUAL: what both teams have so far, who picks what next, and what is left."""
    draft = view.get("draft")
    if not draft:
        return []
    picks, pool, stage = draft["picks"], draft["pool"], draft["stage"]
    names = {"rooms": "room pairs", "characters": "characters", "objects": "objects"}
    out: StyleAndTextTuples = [("class:title", "\nTeam building"),
                               ("", f" (both teams get every pick; {seat_name(draft['first'])} picked first)\n")]
    for kind in ("rooms", "characters", "objects"):
        chosen = " ".join(picks[kind]) or "-"
        out.append(("", f"  {names[kind]}: {chosen}\n"))
    out += [("class:active", f"  {seat_name(draft['picker'])} picks {names.get(stage, stage)[:-1]}: "),
            ("", " ".join(pool.get(stage, [])) + "\n")]
    return out


def _build(view: dict) -> StyleAndTextTuples:
    """PD-TEAM-FREE: what a build chooses from, who has chosen, and our own build once made."""
    build = view.get("build")
    if not build:
        return []
    how = "full frontal" if build.get("mode") == "full" else "free choice"
    out: StyleAndTextTuples = [("class:title", "\nTeam building"),
                               ("", f" ({how}: each side its own team, in secret)\n")]
    for part in build["parts"]:
        copies = part.get("copies") or {}
        values = " ".join(v + (f"x{copies[v]}" if v in copies else "") for v in part["values"])
        out.append(("", f"  {part['name']}: choose {part['count']} of {values}\n"))
    done = " · ".join(f"{seat_name(seat)} {'has chosen' if chosen else 'is choosing'}"
                      for seat, chosen in sorted(build["built"].items()))
    out.append(("class:dim", f"  {done}\n"))
    for seat, mine in sorted((build.get("mine") or {}).items()):
        chosen = " · ".join(f"{name} {','.join(map(str, values))}" for name, values in mine.items())
        out.append(("", f"  your build: {chosen}\n"))
    return out


def _placement(view: dict) -> StyleAndTextTuples:
    placement = view.get("placement")
    if not placement:
        return []
    return [("class:title", f"\nRoom {placement['slot']} revealed: "),
            ("", f"{seat_name(placement['placer'])} places {', '.join(placement['tokens'])}\n")]


def _your_part(state: ClientState, view: dict, parts: PanelParts) -> StyleAndTextTuples:
    purpose = state.secret_purpose
    if state.spectating or view.get("outcome"):
        return []
    if purpose and purpose in state.secrets:
        return [("class:title", "\nSecret choice\n"), ("", f"  {state.secrets[purpose].describe()}\n")]
    if purpose:
        verb = parts.choice_verb(purpose)
        return [("class:active", f"\nChoose in secret ({purpose}): type {verb} ... (Tab completes)\n")]
    unverified = [round_ for round_ in state.secrets.values() if round_.revealed and round_.opponent_choice is None
                  and round_.purpose != "build"]  # a build is shown at the end of the game (DT-120)
    out: StyleAndTextTuples = [("class:dim", f"\n{round_.describe()}\n") for round_ in unverified]
    if state.legal:
        count = len(state.legal)
        hint = parts.hints.get(view.get("phase"), "")
        out += [("class:active", f"\nYour move: {hint}"),
                ("class:dim", f"\n{count} legal action{'s' if count > 1 else ''}; Tab completes\n")]
        targets = within_reach(state.legal)
        if targets:
            out.append(("", f"Within reach: {' · '.join(targets)}\n"))
    return out


_REACH_VERBS = {"attack": "attacks", "shoot": "shoots", "lance": "lances", "push": "pushes", "steal": "steals",
                "charm": "charms"}


def within_reach(legal: list[str]) -> list[str]:
    """Who each of the player's figures can attack, shoot (PR-RANGED-02), reach with the lance or push, from the
    legal actions: 'bAS shoots yTP' once, however many joining shooters the action lists may vary."""
    seen: list[str] = []
    for action in legal:
        words = action.split()
        if words[0] in _REACH_VERBS and len(words) >= 3:
            line = f"{words[1]} {_REACH_VERBS[words[0]]} {words[2]}"
            if line not in seen:
                seen.append(line)
    return seen


def _result(state: ClientState, view: dict) -> StyleAndTextTuples:
    result = state.result or view.get("outcome")
    if not result:
        return []
    winner = result.get("winner")
    vp = result.get("vp") or {}
    verdict = f"{seat_name(winner)} wins" if winner else "Draw"
    return [("class:active", f"\nGame over: {verdict} {vp.get('B', '?')}-{vp.get('Y', '?')} "
                             f"({result.get('reason')})\n"), ("class:dim", "leave: back to the lobby\n")]


def _choice_verb(purpose: str) -> str:
    return purpose if purpose in ("team", "build") else "combat"


BOARD_PARTS = PanelParts(HINTS, PHASES, _turn_detail, _player, _combat, _placement, _choice_verb, _draft)


def event_log(state: ClientState) -> StyleAndTextTuples:
    """The log of the table in plain words, oldest first."""
    lines = list(state.log) or ["(nothing happened yet)"]
    return [("class:log", "\n".join(lines))]


def chat_lines(state: ClientState) -> StyleAndTextTuples:
    return [("class:chat", "\n".join(state.chat))]
