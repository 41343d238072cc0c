"""Checking the deal after a game (docs/protocol.md section 16): the server committed to the game's seed before the
first action (`table.seed_commitment` in every view); once the game is over it reveals the seed and the nonce. The
client checks that they open the commitment, then deals a game from that seed with the engine and checks that
every room revealed during the game lies on the slot where that deal put it, so that the server could not have
chosen the rooms as the game went.

In a mixed game whose players build the teams (PD-TEAM-MUTUAL, PD-TEAM-FREE), the seed deals where the rooms will
lie, and the players' choices say which rooms: the deal is replayed with those choices (the public room picks of a
mutual choice; both builds of a free one, ours and the opponent's revealed at the end), and cannot be checked by
a client that has not seen them (a spectator of a free choice).

With the feature seed_contributions, the game is dealt from the mix of the server's seed and both players'
contributions (docs/protocol.md section 16): the end view then names the server's seed, its nonce and the
contributions (never `seed`); the seed checked is their mix (protocol.deal.deal_seed), and `check_contributions`
checks that the contributions named are the ones this client sent and received."""

from __future__ import annotations

from dungeon_twister.engine import (Build, EngineError, Handicap, IllegalAction, Options, apply, legal_actions,
                                    new_game, parse_action)
from dungeon_twister.engine import cards
from dungeon_twister.protocol import verify_seed
from dungeon_twister.protocol.deal import deal_seed

from .i18n import _, ngettext
from .names import seat_name


def deal_options(view: dict) -> Options:
    """The engine options the view's game was dealt with (its set, target, beginner game, handicap, scenario)."""
    raw = (view.get("table") or {}).get("handicap")
    handicap = None if raw is None else Handicap(raw["seat"], raw.get("characters", 8),
                                                 tuple(sorted(raw.get("removed_cards", ()))))
    return Options(target_vp=view["target_vp"], beginner=view.get("beginner", False), handicap=handicap,
                   set_name=view["set"], scenario=view.get("scenario"),
                   teams=(view.get("table") or {}).get("teams") or "random")


def check_deal(view: dict, choices: list[tuple[str, str]] = ()) -> tuple[bool, str] | None:
    """(fair, what to say) once the view reveals the seed; None before (or from a server that commits to none, or
    while the team-building `choices` (seat, action text), in the order they were made, do not lay the rooms)."""
    opened = _opened_seed(view)
    if opened is None or opened[0] is False:
        return opened
    seed = opened[1]
    try:
        dealt = new_game(deal_options(view), seed)
    except (KeyError, ValueError) as error:
        return False, _("the deal cannot be checked: {error}").format(error=error)
    for seat, text in choices:
        if dealt.rooms:
            break  # laid: what is picked after the rooms changes nothing of them
        try:
            action = parse_action(text, seat)
            try:
                dealt, _events = apply(dealt, action)
            except IllegalAction:
                if not isinstance(action, Build):
                    raise
                dealt, _events = apply(dealt, legal_actions(dealt, seat)[0])  # a refused build: the server's fallback
        except EngineError as error:
            return False, _("FAIR-PLAY ALERT: the team building ({seat}: {action}) does not replay on the revealed "
                            "seed: {error}").format(seat=seat, action=repr(text), error=error)
    if not dealt.rooms:
        return None  # the rooms depend on choices not seen (yet)
    placed = {place.slot: place.tile for place in dealt.rooms}
    revealed = [room for room in view.get("rooms", []) if room.get("revealed")]
    wrong = [room["slot"] for room in revealed if placed.get(_slot(room["slot"])) != room.get("tile")]
    if wrong:
        return False, ngettext("FAIR-PLAY ALERT: room {rooms} is not where the revealed seed deals it: the server "
                               "changed the deal during the game",
                               "FAIR-PLAY ALERT: rooms {rooms} are not where the revealed seed deals them: the server "
                               "changed the deal during the game", len(wrong)).format(rooms=", ".join(wrong))
    first = view.get("first_player")
    if "contributions" in (view.get("table") or {}):
        return True, _("fair deal: the seed {seed} mixes the server's seed, which opens its commitment made before "
                       "the game, with the players' contributions, and every room revealed ({n}) lies where it "
                       "dealt it").format(seed=seed, n=len(revealed))
    if first:
        return True, _("fair deal: the seed {seed} opens the server's commitment made before the game, and "
                       "every room revealed ({n}) lies where it dealt it; {seat} played first").format(
            seed=seed, n=len(revealed), seat=seat_name(first))
    return True, _("fair deal: the seed {seed} opens the server's commitment made before the game, and "
                   "every room revealed ({n}) lies where it dealt it").format(seed=seed, n=len(revealed))


def _opened_seed(view: dict) -> tuple[bool, str] | tuple[bool, int] | None:
    """(True, the seed) once the view reveals a seed that opens the server's commitment; (False, the alert) if it
    does not open it; None before it is revealed."""
    table = view.get("table") or {}
    if "contributions" in table:
        return _mixed_seed(table)
    commitment, seed, nonce = table.get("seed_commitment"), table.get("seed"), table.get("seed_nonce")
    if not (isinstance(commitment, str) and isinstance(seed, int) and isinstance(nonce, str)):
        return None
    try:
        opened = verify_seed(bytes.fromhex(commitment), str(table.get("id")), seed, bytes.fromhex(nonce))
    except ValueError:
        opened = False
    if not opened:
        return False, _("FAIR-PLAY ALERT: the seed the server revealed ({seed}) does not open the commitment it "
                        "sent before the game: the deal cannot be trusted").format(seed=seed)
    return True, seed


def _mixed_seed(table: dict) -> tuple[bool, str] | tuple[bool, int]:
    """A game dealt from the mix of the server's seed and the players' contributions (feature seed_contributions):
    (True, the mixed seed) when the server's seed opens its commitment, else (False, the alert)."""
    commitment, seed, nonce = table.get("seed_commitment"), table.get("server_seed"), table.get("server_seed_nonce")
    parts = table.get("contributions")
    try:
        opened = verify_seed(bytes.fromhex(commitment), str(table.get("id")), seed, bytes.fromhex(nonce))
        mixed = deal_seed(str(table.get("id")), seed, parts["B"], parts["Y"])
    except (TypeError, ValueError, KeyError, AttributeError):
        opened = False
    if not opened:
        return False, _("FAIR-PLAY ALERT: the seed the server revealed ({seed}) does not open the commitment it "
                        "sent before the game: the deal cannot be trusted").format(seed=seed)
    return True, mixed


def check_contributions(view: dict, mine: tuple[str, str] | None, theirs: str | None) -> tuple[bool, str] | None:
    """Our own check of the contributions an end view names (feature seed_contributions): `mine` is (our seat, the
    contribution we committed to), `theirs` the opponent's as his reveal opened his commitment ("" if we were told
    he contributes nothing, None if we do not know it). (False, the alert) if the view names others, (True, what
    to say) if it names ours, None when there is nothing to check (no contributions, or no seat of ours)."""
    parts = (view.get("table") or {}).get("contributions")
    if not isinstance(parts, dict) or mine is None:
        return None
    seat, contribution = mine
    opponent = "Y" if seat == "B" else "B"
    if parts.get(seat) != contribution:
        return False, _("FAIR-PLAY ALERT: the server says your contribution to the deal was {said}, not the one "
                        "you sent: the deal cannot be trusted").format(said=repr(parts.get(seat)))
    if theirs is not None and parts.get(opponent) != theirs:
        return False, _("FAIR-PLAY ALERT: the server says {seat}'s contribution to the deal was {said}, not the "
                        "one he revealed: the deal cannot be trusted").format(seat=seat_name(opponent),
                                                                             said=repr(parts.get(opponent)))
    return True, _("your contribution to the deal is in the seed's mix")


def check_card_deal(view: dict, choices: list[tuple[str, str]] = ()) -> tuple[bool, str] | None:
    """check_deal for a card-game view: every room card revealed lies on the slot where the seed dealt it
    (CG-TUT1-02: shuffled face down), and the first player is the seed's. Orientations are not compared: the
    players turn revealed rooms (CG-ROT). An Inversion Scroll (CG-OBJ-INVERSION-01) would move room cards; no
    game the server offers has one yet (the tutorials)."""
    opened = _opened_seed(view)
    if opened is None or opened[0] is False:
        return opened
    seed = opened[1]
    try:
        options = cards.CardOptions(view.get("tutorial"), view.get("scenario"), view.get("teams"))
        dealt = cards.new_game(options, seed)
    except (KeyError, ValueError) as error:
        return False, _("the deal cannot be checked: {error}").format(error=error)
    revealed = [(i, room) for i, room in enumerate(view.get("rooms", [])) if room.get("revealed")]
    wrong = [room["room"] for i, room in revealed
             if i >= len(dealt.rooms) or dealt.rooms[i].card != room["card"]]
    if view.get("first") is not None and view["first"] != dealt.first:
        # TRANSLATORS: one of the things the deal check lists as not dealt by the seed, beside room names
        wrong.append(_("the first player"))
    if wrong:
        # TRANSLATORS: {wrong} lists room names and perhaps "the first player", separated by commas.
        return False, _("FAIR-PLAY ALERT: {wrong} not as the revealed seed deals them: the server changed "
                        "the deal during the game").format(wrong=", ".join(wrong))
    if "contributions" in (view.get("table") or {}):
        return True, _("fair deal: the seed {seed} mixes the server's seed, which opens its commitment made "
                       "before the game, with the players' contributions, and every room card revealed ({n}) lies "
                       "where it dealt it; {seat} played first").format(seed=seed, n=len(revealed),
                                                                    seat=seat_name(dealt.first))
    return True, _("fair deal: the seed {seed} opens the server's commitment made before the game, and "
                   "every room card revealed ({n}) lies where it dealt it; {seat} played first").format(
        seed=seed, n=len(revealed), seat=seat_name(dealt.first))


def _slot(name: str) -> tuple[int, int]:
    return "AB".index(name[0]), int(name[1:]) - 1
