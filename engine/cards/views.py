"""What a seat (or a spectator, None) may see of a card game, as plain data; and the secret choices."""

from __future__ import annotations

from ..core.events import GOD
from .maze import Maze, facing_name, is_icon, loc_name, slot_name, zone_name
from .combat import side_parts
from .select import parts
from .state import SEATS, CardState, Room


def maze_of_view(view: dict) -> Maze:
    """The geometry of a view's maze, for whoever holds only the view (the client's drawing, the bots): face-down
    rooms stay unknown (no card, no turns)."""
    rooms = tuple(Room(r.get("card", ""), r.get("turns", 0), r["revealed"]) for r in view["rooms"])
    return Maze(rooms, view["length"], frozenset(tuple(k) for k in view.get("opened", ())),
                frozenset(tuple(k) for k in view.get("broken", ())), frozenset(view.get("walls_broken", ())))


def secret_purpose(state: CardState, seat: str) -> str | None:
    """The purpose of `seat`'s pending simultaneous secret choice (for commit-reveal), or None."""
    if seat not in state.to_act:
        return None
    if state.phase == "select":
        return "build" if state.selection.mode == "full" else None  # CG-SEL-FULL-01: in secret, both at once
    if state.phase == "hide":
        return "hide"  # CG-TUT1-04: start characters placed face down at the same time
    if state.phase == "face":
        return "face"  # CG-TUT1-05: teams revealed and facings chosen at the same time
    if state.phase == "combat":
        if state.combat.naming is not None or state.combat.announcing is not None:
            return None  # CG-CHAR-TELEPATH-01, CG-CHAR-BERSERK-01: a public naming or announcement first
        if state.combat.first is not None:
            return None  # CG-CHAR-WMASTER-01: one card face up, then the other: nothing to commit to
        return f"combat-{state.combat.number}"  # CG-COMBAT-02: both lay a card face down
    return None


def _sees(viewer: str | None, seat: str) -> bool:
    """Whether `viewer` sees what only `seat` may see."""
    return viewer == seat or viewer == GOD


def _hides(state: CardState, holder_seat: str, viewer: str | None) -> bool:
    """CG-OPT-03 (DT-222): with secret objects, what a character carries shows only to its own player."""
    return state.options.secret_objects and not _sees(viewer, holder_seat)


def _figure(state: CardState, f, viewer: str | None) -> dict | None:
    if f.where in ("hand", "removed"):  # CG-HCAP-03: left out in secret
        return {"id": f.id, "where": f.where} if _sees(viewer, f.seat) else None
    if f.where == "seeded":  # face down beside a room: its back shows only its colour
        if _sees(viewer, f.seat):
            return {"id": f.id, "where": "seeded", "room": slot_name(f.at)}
        return None
    d = {"id": f.id, "seat": f.seat, "code": f.code, "where": f.where}
    if f.where == "start":
        d["at"] = f"{f.seat}{f.at + 1}"
        if state.phase in ("hide", "seed", "face") and not _sees(viewer, f.seat):
            return None  # face down on the start zone: counted in "start_cards", not named
        # DT-266: pointed at a face-down room, an icon (T S C R); where its zone lies shows at the reveal
        d["facing"] = None if f.facing is None or is_icon(f.facing) else zone_name(f.facing)
        if is_icon(f.facing):
            d["facing_icon"] = f.facing
    elif f.where == "maze":
        d["at"] = zone_name(f.at)
    elif f.where == "carried":
        d["by"] = f.at
    if f.where in ("start", "maze"):
        d["wounded"] = f.wounded
        # CG-ITEM-02: anybody may look under a character; `carries` is the first load, `also_carries` the
        # Paladin's second (CG-CHAR-PALADIN-01). With secret objects (CG-OPT-03), the other player's objects
        # show only as a count; the wounded characters carried stay in sight.
        loads = f.carries
        if _hides(state, f.seat, viewer):
            loads = tuple(c for c in f.carries if not state.has_item(c))
            if len(loads) < len(f.carries):
                d["hidden_objects"] = len(f.carries) - len(loads)
        d["carries"] = loads[0] if loads else None
        if len(loads) > 1:
            d["also_carries"] = loads[1]
        if f.pin is not None:
            d["pin"] = f.pin
    return d


def _item(state: CardState, i, viewer: str | None) -> dict | None:
    if i.where == "carried" and _hides(state, state.fig(i.at).seat, viewer):
        return None  # CG-OPT-03: under the other player's character
    if i.where in ("hand", "seeded"):
        if not _sees(viewer, i.seat):
            return None
        return {"id": i.id, "where": i.where, **({"room": slot_name(i.at)} if i.where == "seeded" else {})}
    d = {"id": i.id, "seat": i.seat, "code": i.code, "where": i.where}
    if i.where == "floor":
        d["at"] = loc_name(i.at)  # a zone, or a start position (DT-206: psychokinesis, CG-WOUND-04)
    elif i.where == "carried":
        d["by"] = i.at
    return d


def _selection(state: CardState, seat: str | None) -> dict:
    """A scenario's team selection (CG-SEL): picked in the open ("selection"), or in secret ("build", as the board
    game's free team building is shown: its parts, who has chosen, and the viewer's own team once chosen)."""
    sel = state.selection
    if sel.mode == "full":
        chosen = dict(state.secret)
        out = {"build": {"mode": "full", "built": {s: s in chosen for s in SEATS},
                         "parts": [part.form() for part in parts(state)]}}
        if seat in chosen:
            out["build"]["mine"] = {seat: {"characters": list(chosen[seat][0]), "objects": list(chosen[seat][1])}}
        return out
    return {"selection": {"mode": sel.mode, "stage": sel.stage, "first": sel.first, "picker": sel.picker,
                          "teams": dict(zip(SEATS, map(list, sel.teams))),
                          "kits": dict(zip(SEATS, map(list, sel.kits))),
                          "out": dict(zip(SEATS, map(list, sel.out)))}}


def view(state: CardState, seat: str | None, shared: bool = False) -> dict:
    """The game as `seat` (None: a spectator) may see it. `shared` (families.Family.view) changes nothing here."""
    rooms = []
    for s, r in enumerate(state.rooms):
        d = {"room": slot_name(s), "revealed": r.revealed}
        if r.revealed or seat == GOD:  # a face-down room's card and orientation stay hidden (CG-REVEAL-05); the
            d.update(card=r.card, turns=r.turns)  # view of everything (a finished game's replay) names them
        backs = [c.seat for c in list(state.figures) + list(state.items) if c.where == "seeded" and c.at == s]
        d["face_down_cards"] = sorted(backs)  # only the colours of the backs show
        rooms.append(d)
    start_cards = {}
    for f in state.figures:
        if f.where == "start":
            k = f"{f.seat}{f.at + 1}"
            start_cards[k] = start_cards.get(k, 0) + 1
    out = {
        "game": "cards", "tutorial": state.options.tutorial, "viewer": seat, "phase": state.phase,
        "turn": state.turn, "active": state.active, "to_act": list(state.to_act), "target_vp": state.target_vp,
        "players": {s: {"ap": state.player(s).ap, "jumps": state.player(s).jumps, "vp": state.player(s).vp,
                        "cards": len(state.player(s).cards)} for s in SEATS},
        "rooms": rooms, "length": state.length,
        "opened": sorted([list(k) for k in state.opened]), "broken": sorted([list(k) for k in state.broken]),
        "figures": [d for f in state.figures if (d := _figure(state, f, seat)) is not None],
        "items": [d for i in state.items if (d := _item(state, i, seat)) is not None],
        "start_cards": dict(sorted(start_cards.items())),
        "chosen": sorted(s for s, _ in state.secret),
        "secret": secret_purpose(state, seat) if seat in SEATS else None,
        "outcome": None if state.outcome is None else {"winner": state.outcome.winner,
                                                       "vp": dict(state.outcome.vp), "reason": state.outcome.reason},
    }
    if state.phase in ("seed",):
        out["seeder"] = state.seeder
    if state.options.scenario is not None:
        out["scenario"], out["teams"] = state.options.scenario, state.options.teams
    if state.options.secret_objects:  # CG-OPT-03
        out["secret_objects"] = True
    if state.options.handicap is not None:  # CG-HCAP: public (the players agreed on it)
        stronger, removed, cards = state.options.handicap
        out["handicap"] = {"seat": stronger, "characters_removed": removed, "cards_removed": list(cards)}
    if state.selection is not None:
        out.update(_selection(state, seat))
    if state.phase not in ("select", "handicap", "hide", "seed", "face"):  # the first player is drawn, unseen, at setup
        out["first"] = state.first
    if seat is not None and state.phase != "select":  # a full frontal team shows as build.mine
        mine = dict(state.secret).get(seat)
        if mine is not None:
            out["my_choice"] = [[a, b if isinstance(b, int) else facing_name(b)] for a, b in mine]
    out["wounded_this_turn"] = list(state.wounded_now)
    if state.walls_broken:  # CG-CHAR-GOLEM-01: the room cards whose walls lie broken (a public card by the room)
        out["walls_broken"] = sorted(card for card, _ in state.walls_broken)
    if state.used_now:  # once-a-turn powers used this turn, "power:figure" (CG-CHAR-CROSSBOW-01, -SAMURAI-01)
        out["used_this_turn"] = list(state.used_now)
    if state.healed_now:  # CG-CHAR-CLERIC-01: healed, and idle for the rest of the turn
        out["healed_this_turn"] = list(state.healed_now)
    if seat in SEATS:
        out["my_cards"] = list(state.player(seat).cards)
    elif seat == GOD:  # (a finished game's replay shows both hands, as the board game's view of everything does)
        for s in SEATS:
            out["players"][s]["hand"] = list(state.player(s).cards)
    if state.combat is not None:
        c = state.combat
        out["combat"] = {"number": c.number, "zone": zone_name(c.zone), "target": c.target,
                         "sides": {s: list(ids) for s, ids in c.sides}, "played": sorted(s for s, _ in c.played)}
        if c.announcing is not None or c.two is not None:  # CG-CHAR-BERSERK-01: the announcement is public
            out["combat"]["frenzy"] = {"announcing": c.announcing, "two_cards": c.two}
        if c.naming is not None or c.named is not None:  # CG-CHAR-TELEPATH-01: the naming is public
            out["combat"]["mind"] = {"naming": c.naming, "named": c.named, "by": c.namer}
            # CG-CHAR-TELEPATH-02: a value named and not held, the opponent's hand shown to the Telepath's player
            # alone while the combat lasts (DT-108, as the board game's view); the event alone said it, so a
            # reconnected client lost it (review cg29)
            other = "Y" if c.namer == "B" else "B"
            if c.namer is not None and c.named and _sees(seat, c.namer) and c.named not in state.player(other).cards:
                out["combat"]["mind"]["hand"] = list(state.player(other).cards)
        if c.first is not None:  # CG-CHAR-WMASTER-01: who lays first, and that card once laid (public)
            out["combat"]["first"] = {"seat": c.first, "card": dict(c.played).get(c.first)}
            if c.two == c.first and c.second is not None:  # CG-CHAR-BERSERK-02: both her cards face up
                out["combat"]["first"]["second"] = c.second
        if c.ranged:  # CG-RANGED-04: the shooters and the values they fight with (public)
            out["combat"]["shooters"] = {fid: v for fid, v in c.ranged}
        if not state.options.secret_objects:  # both sides' values before the cards (CG-COMBAT-03; see side_values)
            parts = side_parts(state, c)
            out["combat"]["totals"] = {seat: sum(part[2] for part in of_side) for seat, of_side in parts.items()}
            out["combat"]["parts"] = {seat: [list(part) for part in of_side] for seat, of_side in parts.items()}
        mine = dict(c.played).get(seat)
        if mine is not None:
            out["combat"]["my_card"] = mine
            if c.two == seat and c.second is not None:  # CG-CHAR-BERSERK-01: the Berserker's second card
                out["combat"]["my_second"] = c.second
    if state.placement is not None:
        p = state.placement
        out["placement"] = {"room": slot_name(p.slot), "queue": list(p.queue), "placers": list(p.placers)}
    return out
