"""Combat (BG-COMBAT, BG-GROUP, BG-WOUND, BG-CARRY-03): declaration, secret cards, resolution."""

from __future__ import annotations

from dataclasses import replace

from .abilities import carried_objects
from .actions import Attack, CombatCard
from .context import Ctx
from .movement import occupancy, tokens_on
from ..core.errors import IllegalAction
from ..core.events import secret_event
from .setup import scenario_of
from .state import Combat, GameState, Token, opponent


def participants(state: GameState, board, attacker: Token | None, target: Token,
                 active: str | None = None) -> tuple[list[str], list[str]]:
    """BG-GROUP-02 (RUL-005): alternating closure over connected adjacency, from the target. With no `attacker`
    (a shot from a distance, PR-RANGED-08, RUL-053) the declared attacker touches nobody: the attackers are the
    figures of `active` the closure reaches, possibly none."""
    active = attacker.colour if attacker is not None else active
    # BG-COMBAT-07, DT-030, DT-293: a figure of the defending side wounded this turn (healed since by the active
    # player's Cleric) is attacked by no combat this turn, a group's included: it is not drawn in
    figures = [t for t in state.tokens.values()
               if t.is_figure and (t.colour == active or t.wounded_turn != state.turn)]

    def touching(group: list[Token], colour: str) -> list[Token]:
        squares = {t.square for t in group}
        return [f for f in figures if f.colour == colour and any(
            board.connected(f.square, sq) for sq in squares)]

    attackers = {attacker.id: attacker} if attacker is not None else {}
    defenders = {target.id: target}
    for f in touching([target], active):
        attackers.setdefault(f.id, f)
    while True:
        grown = False
        for f in touching(list(attackers.values()), opponent(active)):
            if f.id not in defenders:
                defenders[f.id] = f
                grown = True
        for f in touching(list(defenders.values()), active):
            if f.id not in attackers:
                attackers[f.id] = f
                grown = True
        if not grown:
            return sorted(attackers), sorted(defenders)


def attack_targets(state: GameState, board, attacker: Token) -> list[Token]:
    """Enemy characters the figure may attack (BG-COMBAT-01/07/09, BG-CARRY-04), in no particular order."""
    out = []
    # (`tokens_getter`'s look-up written out: asked for every figure whose memo entry is made)
    at = occupancy(state).at if getattr(state, "_sealed", False) else None
    for square in board.links.get(attacker.square, ()):  # `connected_neighbours`
        here = at.get(square) if at is not None else tokens_on(state, square)
        if not here:
            continue
        for t in here:
            if not t.is_character or t.colour == attacker.colour or t.face_down:
                continue
            if t.wounded_turn == state.turn:
                continue
            if t.wounded and any(o.is_figure for o in here):
                continue
            out.append(t)
    return out


def no_combat(state: GameState) -> str | None:
    """The rule of a game without combat (a scenario's data says so: PR-SCEN-1-05, no combat cards), or None."""
    scenario = scenario_of(state.options)
    return scenario.get("no_combat") if scenario is not None else None


def declare(ctx: Ctx, action: Attack) -> None:
    rule = no_combat(ctx.s)
    if rule:
        raise IllegalAction(rule, "there is no combat in this game")
    attacker = ctx.token(action.token)
    target = ctx.token(action.target)
    exited = attacker.where == "exited" and attacker.colour == action.seat  # BG-COMBAT-09: it can do nothing
    ctx.actor(action.seat, action.token, rule="BG-COMBAT-09" if exited else "BG-AP-02", wounded_rule="BG-COMBAT-08")
    if attacker.colour != action.seat and target.where == "board" and target.colour == attacker.colour:
        raise IllegalAction("PD-OBJ-CHARM-04", "{attacker} is charmed: it fights no character of its own colour",
                            attacker=attacker.id)
    if target.where != "board" or not target.is_character or target.colour == attacker.colour:
        raise IllegalAction("BG-COMBAT-01", "{target} is not an enemy character in play", target=action.target)
    if not ctx.board.connected(attacker.square, target.square):
        if ctx.board.is_slit(attacker.square, target.square):
            raise IllegalAction("PR-SLIT-02", "no melee through an arrow slit")
        raise IllegalAction("BG-COMBAT-01", "{target} is not on an adjacent connected square", target=action.target)
    if target.wounded_turn == ctx.s.turn:
        raise IllegalAction("BG-COMBAT-07", "{target} was wounded this turn", target=action.target)
    if target.wounded and ctx.figure_at(target.square):
        raise IllegalAction("BG-CARRY-04", "{target} is carried and cannot be attacked", target=action.target)
    attackers, defenders = participants(ctx.s, ctx.board, attacker, target)
    ctx.s.combats += 1
    telepath = mind_controller(ctx.s, attackers, defenders)
    ctx.s.combat = Combat(ctx.s.combats, attacker.id, target.id, tuple(attackers), tuple(defenders),
                          telepath=telepath, naming=telepath is not None)
    ctx.s.phase = "combat"
    ctx.emit("combat_declared", number=ctx.s.combats, attacker=attacker.id, target=target.id,
             attackers=attackers, defenders=defenders)


def mind_controller(state: GameState, attackers: list[str], defenders: list[str]) -> str | None:
    """PR-CHAR-TELEPATH-01/03/04: the seat of the one unwounded Telepath (ability "mind_control") in a single melee
    (one fighter a side), or None: not in a group combat, and two Telepaths cancel each other."""
    if len(attackers) != 1 or len(defenders) != 1:
        return None
    seats = [state.tokens[tid].colour for tid in (*attackers, *defenders)
             if not state.tokens[tid].wounded
             and "mind_control" in state.catalogue.characters[state.tokens[tid].code].abilities]
    return seats[0] if len(seats) == 1 else None


def forced_card(state: GameState, seat: str) -> int | None:
    """PR-CHAR-TELEPATH-01: the card `seat` must play, the Telepath's opponent holding the value named."""
    c = state.combat
    if c is None or c.named is None or c.telepath is None or seat == c.telepath:
        return None
    return c.named if c.named in state.players[seat].combat else None


def _not_in_hand(value: int) -> IllegalAction:
    return IllegalAction("BG-COMBAT-06", "you have no +{value} combat card in hand", value=value)


def _must_play(forced: int) -> IllegalAction:
    return IllegalAction("PR-CHAR-TELEPATH-01", "the Telepath named +{forced}, which you hold: you must play it",
                         forced=forced)


def card_refusal(action, choices, named: int | None = None, hand=None) -> IllegalAction | None:
    """Why the combat card `action`, none of `choices` (the seat's legal choices, parsed), is refused, as
    `choose_card` says, from the choices alone (a client has them, not the state), or None when they do not tell:
    with two different values or more among them, they are the hand's values (a Telepath's naming leaves one),
    so a value not among them is not in hand (BG-COMBAT-06); with the named card alone among them (`named`: the
    value the view's combat.mind says a Telepath named), the naming forces it (PR-CHAR-TELEPATH-01), which
    `choose_card` asks first, so the hand (the families' contract) is not needed."""
    if not isinstance(action, CombatCard):
        return None
    values = {choice.value for choice in choices if isinstance(choice, CombatCard)}
    if named and values == {named} and action.value != named:
        return _must_play(named)  # (a play-test typed +3 and read "not one of your choices now", no rule)
    return _not_in_hand(action.value) if len(values) > 1 and action.value not in values else None


def choose_card(ctx: Ctx, action: CombatCard) -> None:
    s = ctx.s
    if s.phase != "combat":
        raise IllegalAction("BG-COMBAT-02", "no combat is waiting for a card")
    if s.combat.naming:
        raise IllegalAction("PR-CHAR-TELEPATH-01", "the Telepath's player names a card first")
    forced = forced_card(s, action.seat)
    if forced is not None and action.value != forced:
        raise _must_play(forced)
    if s.combat.card_of(action.seat) is not None:
        raise IllegalAction("BG-COMBAT-02", "you have already chosen your combat card")
    if action.value not in s.players[action.seat].combat:
        raise _not_in_hand(action.value)
    s.combat = replace(s.combat, cards=s.combat.cards + ((action.seat, action.value),))
    if s.combat_first() is not None:  # PD-CHAR-WMASTER-01: laid face up, one after the other
        ctx.emit("card_chosen", seat=action.seat, value=action.value)
    else:
        ctx.events.append(secret_event("card_chosen", action.seat, {"seat": action.seat, "value": action.value},
                                       {"seat": action.seat}))
    if len(s.combat.cards) == 2:
        resolve(ctx)


def side_total(ctx: Ctx, combat: Combat, attacking: bool) -> int:
    """BG-COMBAT-03: a side's total before the cards, the sum of its `side_parts`."""
    return sum(part[2] for part in side_parts(ctx, combat, attacking))


def side_parts(ctx: Ctx, combat: Combat, attacking: bool) -> list[tuple[str, str, int]]:
    """What makes a side's total before the cards, (who, what, value) each, all public: a participant's own combat
    value (`value`; a wounded one has none), an object's bonus (who is the object, `object`), a Dragon-Slayer's
    bonus against a dragon (`slayer`), Backstab (`backstab`), a shooter's weapon (`shot`). BG-COMBAT-03,
    BG-OBJ-SWORD-01, BG-OBJ-ARMOR-01..03, BG-WOUND-03; PR-RANGED-05 (a shooter adds its weapon's value, which
    nothing changes), PR-CHAR-ASSASSIN-01/02 and PR-RANGED-11 (Backstab: +2 with another figure of her side in the
    combat, shooters included, if she is herself in melee), PD-OBJ-SLAYER-01."""
    cat = ctx.s.catalogue
    ids = combat.attackers if attacking else combat.defenders
    opposing = [ctx.s.tokens[tid].square for tid in (combat.defenders if attacking else combat.attackers)]
    dragon_opposed = any("dragon" in cat.characters[ctx.s.tokens[tid].code].abilities
                         for tid in opposing_ids(combat, attacking))
    # the figures of the side (PR-CHAR-ASSASSIN-01: a wounded character is no figure), the shooters and the lancer
    # included (DT-106)
    side = sum(not ctx.s.tokens[tid].wounded for tid in ids) + (
        len(combat.shooters) + (combat.lancer is not None) if attacking else 0)
    parts: list[tuple[str, str, int]] = []
    for tid in ids:
        token = ctx.s.tokens[tid]
        if not token.wounded:
            kind = cat.characters[token.code]
            parts.append((tid, "value", kind.combat))
            if "backstab" in kind.abilities and side > 1 and any(
                    ctx.board.connected(token.square, sq) for sq in opposing):
                parts.append((tid, "backstab", BACKSTAB))
        parts += _objects_bonus(ctx, token, attacking, dragon_opposed)
    if attacking:
        parts += [(tid, "shot", ranged_value(ctx.s, ctx.s.tokens[tid])) for tid in combat.shooters]
        if combat.lancer is not None:  # its own value and its objects' (a Sword, RUL-061), DT-107
            lancer = ctx.s.tokens[combat.lancer]
            kind = cat.characters[lancer.code]
            parts.append((lancer.id, "value", kind.combat))
            parts += _objects_bonus(ctx, lancer, True, dragon_opposed)
            if "backstab" in kind.abilities and side > 1:
                parts.append((lancer.id, "backstab", BACKSTAB))  # a lance fights a melee at two squares (DT-106)
    return parts


def _objects_bonus(ctx: Ctx, token: Token, attacking: bool, dragon_opposed: bool) -> list[tuple[str, str, int]]:
    """What the objects a participant carries add, each (object, `object` or `slayer`, bonus) that adds something
    (BG-OBJ-SWORD-01, BG-OBJ-ARMOR-01, PD-OBJ-SLAYER-01); nothing under the Ghost is his (PD-CHAR-GHOST-03)."""
    parts = []
    for other in carried_objects(ctx.s, token):
        kind = ctx.s.catalogue.objects[other.code]
        bonus = kind.attack_bonus if attacking else kind.defend_bonus
        if bonus:
            parts.append((other.id, "object", bonus))
        if dragon_opposed and "dragon_slayer" in kind.abilities:
            parts.append((other.id, "slayer", DRAGON_SLAYER))
    return parts


BACKSTAB = 2  # PR-CHAR-ASSASSIN-01
DRAGON_SLAYER = 4  # PD-OBJ-SLAYER-01: its carrier's bonus when a dragon is among the opposing participants


def opposing_ids(combat: Combat, attacking: bool) -> tuple[str, ...]:
    """The participants facing the attacking (or defending) side: the defenders, or the attackers with the shooters
    and the lancer, who take part from afar (PR-RANGED-04, PR-OBJ-LANCE-01)."""
    if attacking:
        return combat.defenders
    return (*combat.attackers, *combat.shooters, *((combat.lancer,) if combat.lancer else ()))


def slays_dragons(ctx: Ctx, combat: Combat, attacking: bool) -> bool:
    """PD-OBJ-SLAYER-02, RUL-086: a side including the carrier of a Dragon-Slayer Sword (an object with the ability
    "dragon_slayer") among those who fight hand to hand: its attackers and its lancer, or its defenders. A shooter's
    Sword adds nothing to its shot (PR-RANGED-05), and a dragon it hits is wounded by the arrow, not the Sword
    (DT-258)."""
    side = ((*combat.attackers, *((combat.lancer,) if combat.lancer else ())) if attacking
            else combat.defenders)
    cat, tokens = ctx.s.catalogue, ctx.s.tokens
    return any(not t.is_character and "dragon_slayer" in cat.objects[t.code].abilities
               for tid in side if "no_carry" not in cat.characters[tokens[tid].code].abilities  # not the Ghost's
               for t in ctx.at(tokens[tid].square))  # (PD-CHAR-GHOST-03: what lies under him is not his)


def ranged_weapon(state: GameState, figure: Token):
    """The ranged weapon the figure carries (an object with a `ranged` value: the Bow), or None; the Ghost carries
    nothing (PD-CHAR-GHOST-03)."""
    for t in carried_objects(state, figure):
        kind = state.catalogue.objects[t.code]
        if kind.ranged:
            return kind
    return None


def ranged_value(state: GameState, figure: Token) -> int:
    weapon = ranged_weapon(state, figure)
    return weapon.ranged if weapon is not None else 0


def attacking_seat(state: GameState, combat: Combat) -> str:
    """The seat whose card counts for the attacking side: the declared attacker's (shooter's, lancer's) colour, the
    active player's but for a charmed figure, whose owner plays its card (PD-OBJ-CHARM-05, DT-117)."""
    return state.tokens[combat.attacker].colour


def resolve(ctx: Ctx) -> None:
    s = ctx.s
    combat = s.combat
    active = attacking_seat(s, combat)
    cards = dict(combat.cards)
    attack = side_total(ctx, combat, True) + cards[active]
    defence = side_total(ctx, combat, False) + cards[opponent(active)]
    for seat, value in cards.items():
        player = s.players[seat]
        if value != 0:  # BG-COMBAT-06: the +0 returns to the hand
            hand = list(player.combat)
            hand.remove(value)
            s.players[seat] = type(player)(player.actions, player.played, tuple(hand), player.jumps)
    winner = active if attack > defence else opponent(active) if defence > attack else None
    ctx.emit("combat_resolved", number=combat.number, cards={k: cards[k] for k in sorted(cards)},
             attack=attack, defence=defence, winner=winner, attacker_seat=active)
    if winner is not None and winner != active and combat.lancer is not None:
        weapon = next((t for t in carried_objects(s, s.tokens[combat.lancer])  # PR-OBJ-LANCE-02: the lance breaks
                       if "lance" in s.catalogue.objects[t.code].abilities), None)  # (not a Paladin's other object)
        if weapon is not None:
            ctx.put(weapon.moved(where="discarded", square=None))
            ctx.emit("lance_broken", token=weapon.id, by=combat.lancer)
    if winner is not None:  # shooters and a lancer are not among the attackers: never wounded (PR-RANGED-04/12)
        losers = combat.defenders if winner == active else combat.attackers
        slayer = slays_dragons(ctx, combat, winner == active)
        for tid in losers:
            token = s.tokens[tid]
            if slayer and "dragon" in s.catalogue.characters[token.code].abilities:
                _carried_wounded_die(ctx, token)  # BG-CARRY-03: what he carries falls with him
                ctx.eliminate(token, "dragon slain")  # PD-OBJ-SLAYER-02: not wounded first
                continue
            lose(ctx, token)
        ctx.settle_pits()
    s.combat = None
    s.phase = "main"


def lose(ctx: Ctx, token: Token) -> None:
    """BG-COMBAT-04, BG-CARRY-03: a losing figure is wounded (its carried wounded dies); a wounded one dies."""
    if token.wounded:
        ctx.eliminate(token, "combat")
        return
    _carried_wounded_die(ctx, token)
    ctx.wound(token)


def _carried_wounded_die(ctx: Ctx, token: Token) -> None:
    """BG-CARRY-03: the wounded characters a losing figure carries are eliminated (two for the Paladin:
    PD-CHAR-PALADIN-05, RUL-080)."""
    for carried in ctx.at(token.square):
        if carried.id != token.id and carried.is_character and carried.wounded:
            ctx.eliminate(carried, "carrier wounded")


def figure_actions(state: GameState, board, seat: str, figure: Token) -> list:
    if no_combat(state):
        return []  # (a charmed figure attacks the characters not of its colour, its controller's: DT-117)
    return [Attack(seat, figure.id, t.id) for t in sorted(attack_targets(state, board, figure), key=lambda t: t.id)]
