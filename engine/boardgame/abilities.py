"""Special abilities and objects used for AP (BG-CHAR-*, BG-OBJ-FIREBALL, BG-OBJ-POTION)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from operator import attrgetter

from .actions import Drink, Fireball, Heal, Portcullis, Regenerate
from .board import BROKEN, CLOSED, OPEN
from .context import Ctx
from ..core.errors import N_, IllegalAction
from .geometry import DIRECTIONS, edge, square_name, step
from .movement import occupancy, tokens_on
from .state import GameState, Token


def carried_objects(state: GameState, figure: Token) -> list[Token]:
    """Every object the figure carries: one, or two for the Paladin (PD-CHAR-PALADIN-01); none for the Ghost."""
    kind = state.options.catalogue.characters.get(figure.code)
    if kind is None or "no_carry" in kind.abilities:
        return []
    carried = [t for t in tokens_on(state, figure.square) if not t.is_character]
    if len(carried) > 1:  # mostly none or one: nothing to sort
        carried.sort(key=_token_id)
    return carried


_token_id = attrgetter("id")


def carried_use(state: GameState, figure: Token, use: str) -> Token | None:
    """The object of that `use` ("fireball", "drink", "charm", "teleport") the figure carries, or None."""
    return next((t for t in carried_objects(state, figure) if state.catalogue.objects[t.code].use == use), None)


def tokens_getter(state: GameState):
    """`tokens_on` for a look at several squares of `state`: square -> its tokens, in the state's token order. A
    sealed state's is a look-up in its occupancy (which `tokens_on` builds once and then reads), fetched here once."""
    if getattr(state, "_sealed", False):
        at = occupancy(state).at
        return lambda square: at.get(square, ())
    return partial(tokens_on, state)


def heal_targets(state: GameState, board, cleric: Token) -> list[Token]:
    """BG-CHAR-CLERIC-01/03/04/05/06: wounded characters on connected adjacent squares, not carried (in no
    particular order)."""
    out = []
    on = tokens_getter(state)
    for square in board.connected_neighbours(cleric.square):
        here = on(square)
        if not any(o.is_figure for o in here):
            out += [t for t in here if t.is_character and t.wounded]
    return out


def heal(ctx: Ctx, action: Heal) -> None:
    cleric = ctx.token(action.token)
    if not ctx.has_ability(cleric, "heal"):
        raise IllegalAction("BG-CHAR-CLERIC-01", "{cleric} cannot heal", cleric=cleric.id)
    ctx.actor(action.seat, action.token)
    target = ctx.token(action.target)
    if target.id == cleric.id or target.square == cleric.square:
        raise IllegalAction("BG-CHAR-CLERIC-03", "the Cleric cannot heal himself or what he carries")
    if target.where != "board" or not target.is_character or not target.wounded:
        raise IllegalAction("BG-CHAR-CLERIC-01", "{target} is not a wounded character in play", target=target.id)
    if not ctx.board.connected(cleric.square, target.square):
        if ctx.board.is_slit(cleric.square, target.square):
            raise IllegalAction("PR-CHAR-CLERIC-03", "{cleric} cannot heal through an arrow slit", cleric=cleric.id)
        raise IllegalAction("BG-CHAR-CLERIC-04", "{target} is not on a connected adjacent square", target=target.id)
    if ctx.figure_at(target.square):
        raise IllegalAction("BG-CHAR-CLERIC-06", "{target} lies under a figure", target=target.id)
    ctx.put(target.moved(wounded=False))
    ctx.s.exhausted = ctx.s.exhausted | {target.id}
    ctx.emit("healed", token=target.id, by=cleric.id)


def can_regenerate(state: GameState, troll: Token) -> str | None:
    """Why the Troll may not regenerate now (a rule ID), or None if he may (BG-CHAR-TROLL-01..05)."""
    if troll.wounded_turn == state.turn:
        return "BG-CHAR-TROLL-02"
    if troll.id in state.acted:
        return "BG-CHAR-TROLL-03"
    if any(o.is_figure and o.square == troll.square for o in state.tokens.values() if o.where == "board"):
        return "BG-CHAR-TROLL-05"
    return None


# Why a Troll may not regenerate now, by the rule can_regenerate cites.
_NO_REGENERATION = {"BG-CHAR-TROLL-02": N_("he was wounded this turn"),
                    "BG-CHAR-TROLL-03": N_("he already acted this turn"),
                    "BG-CHAR-TROLL-05": N_("a figure stands on his square")}


def regenerate(ctx: Ctx, action: Regenerate) -> None:
    s = ctx.s
    ctx.pending()
    if s.phase != "main" or action.seat != s.active:
        raise IllegalAction("BG-TURN-01", "you can regenerate only during your turn")
    troll = ctx.token(action.token)
    if troll.colour != action.seat or troll.where != "board" or not ctx.has_ability(troll, "regenerate"):
        raise IllegalAction("BG-CHAR-TROLL-01", "{troll} is not one of your Trolls in play", troll=troll.id)
    if not troll.wounded:
        raise IllegalAction("BG-CHAR-TROLL-01", "{troll} is not wounded", troll=troll.id)
    rule = can_regenerate(s, troll)
    if rule:
        raise IllegalAction(rule, _NO_REGENERATION[rule])
    if s.ap <= 0:
        raise IllegalAction("BG-TURN-03", "no action point left")
    s.ap -= 1
    s.acted = s.acted | {troll.id}
    ctx.put(troll.moved(wounded=False))
    s.exhausted = s.exhausted | {troll.id}
    ctx.emit("regenerated", token=troll.id)


@dataclass(frozen=True)
class _Way:
    """One way to change a portcullis: the ability (a character's, or an object's it carries) that gives it, the
    states it applies to, the state it leaves, and the rule that grants it (cited when it is refused)."""

    how: str
    ability: str
    before: frozenset[str]
    after: str
    rule: str


_WAYS = (
    _Way("break", "break_portcullis", frozenset({CLOSED}), BROKEN, "BG-CHAR-WARRIOR-01"),
    _Way("break", "bend_bars", frozenset({CLOSED, OPEN}), BROKEN, "PR-CHAR-COLOSSUS-01"),  # open or closed
    _Way("open", "lockpick", frozenset({CLOSED}), OPEN, "BG-CHAR-THIEF-04"),
    _Way("close", "lockpick", frozenset({OPEN}), CLOSED, "BG-CHAR-THIEF-04"),
    _Way("open", "key", frozenset({CLOSED}), OPEN, "PR-OBJ-KEY-01"),
    _Way("close", "key", frozenset({OPEN}), CLOSED, "PR-OBJ-KEY-02"),
)
_HOWS = ("break", "open", "close")
_PORTCULLIS_ABILITIES = frozenset(way.ability for way in _WAYS)
_STATES: dict[frozenset[str], list[tuple[str, frozenset[str]]]] = {}
"""`portcullis_options`' (verb, the portcullis states a way of the figure's applies to) per set of abilities: a
few sets per catalogue (a character's own, with what it may carry), asked for each time such a figure moved."""


def figure_abilities(state: GameState, figure: Token, carried: list[Token] | None = None) -> frozenset[str]:
    """What the figure may do: its character's abilities and those of the object it carries (PR-OBJ-KEY-01).
    `carried`: `carried_objects(state, figure)` if the caller has it."""
    cat = state.options.catalogue
    kind = cat.characters.get(figure.code)
    abilities = kind.abilities if kind is not None else frozenset()
    if carried is None:
        carried = carried_objects(state, figure) if figure.where == "board" else ()
    for item in carried:
        if cat.objects[item.code].abilities:
            abilities = abilities | cat.objects[item.code].abilities
    return abilities


def _ways(state: GameState, figure: Token, how: str) -> list[_Way]:
    abilities = figure_abilities(state, figure)
    return [way for way in _WAYS if way.how == how and way.ability in abilities]


def _cited(state: GameState, figure: Token, way: _Way) -> str:
    """The rule a character's own data names for this ability (the Assassin's lock-pick: PR-CHAR-ASSASSIN-03), else
    the one the data of an object it carries names (the Key of Paladins & Dragons: PD-OBJ-KEY-01), else the way's
    rule."""
    cat = state.catalogue
    rule = cat.characters[figure.code].rules.get(way.ability)
    if rule is None and figure.where == "board":
        rule = next((cat.objects[item.code].rules[way.ability] for item in carried_objects(state, figure)
                     if way.ability in cat.objects[item.code].rules), None)
    return rule or way.rule


_REFUSAL_RULES = {"break": "BG-CHAR-WARRIOR-01", "open": "BG-CHAR-THIEF-04", "close": "BG-CHAR-THIEF-04",
                  "broken": "BG-CHAR-WARRIOR-02"}


def _refusal_rule(state: GameState, what: str) -> str:
    """The rule a refusal cites where no ability of the figure's applies: the set's own (its ruleset flag
    `portcullis_rules`, e.g. Prison's Key and Colossus), else the base set's."""
    return state.catalogue.flag("portcullis_rules", {}).get(what, _REFUSAL_RULES[what])


def portcullis_options(state: GameState, board, figure: Token,
                       carried: list[Token] | None = None) -> list[tuple[str, str]]:
    """(direction, how) pairs the figure may do to a portcullis beside its square. `carried`: as
    `figure_abilities`."""
    abilities = figure_abilities(state, figure, carried)
    out = []
    if _PORTCULLIS_ABILITIES.isdisjoint(abilities):
        return out
    states = _STATES.get(abilities)
    if states is None:
        # for each verb, the portcullis states some way of the figure's applies to
        states = _STATES[abilities] = [(how, frozenset().union(
            *(way.before for way in _WAYS if way.how == how and way.ability in abilities))) for how in _HOWS]
    for direction in DIRECTIONS:
        current = board.portcullis_state(figure.square, step(figure.square, direction))
        if current is None:
            continue  # no portcullis on that side: no way applies to it
        out += [(direction, how) for how, before in states if current in before]
    return out


# The refusals of a portcullis action, one template per verb (and state of the portcullis).
_CANNOT = {"open": N_("{figure} cannot open a portcullis"), "close": N_("{figure} cannot close a portcullis"),
           "break": N_("{figure} cannot break a portcullis")}
_NOT_NOW = {
    ("open", BROKEN): N_("cannot open it: it is broken"), ("open", OPEN): N_("cannot open it: it is open"),
    ("open", CLOSED): N_("cannot open it: it is closed"), ("close", BROKEN): N_("cannot close it: it is broken"),
    ("close", OPEN): N_("cannot close it: it is open"), ("close", CLOSED): N_("cannot close it: it is closed"),
    ("break", BROKEN): N_("cannot break it: it is broken"), ("break", OPEN): N_("cannot break it: it is open"),
    ("break", CLOSED): N_("cannot break it: it is closed"),
}


def portcullis(ctx: Ctx, action: Portcullis) -> None:
    figure = ctx.token(action.token)
    if action.how not in _HOWS or action.direction not in DIRECTIONS:
        raise IllegalAction("BG-TERR-04", "unknown portcullis action")
    ways = _ways(ctx.s, figure, action.how)
    if not ways:
        raise IllegalAction(_refusal_rule(ctx.s, action.how), _CANNOT[action.how], figure=figure.id)
    ctx.actor(action.seat, action.token)
    other = step(figure.square, action.direction)
    feature = ctx.board.portcullises.get(edge(figure.square, other))
    rule = _cited(ctx.s, figure, ways[0])
    if feature is None:
        raise IllegalAction(rule, "there is no portcullis {direction} of {square}", direction=action.direction,
                            square=square_name(figure.square))
    tile, index, state = feature
    way = next((way for way in ways if state in way.before), None)
    if way is None:
        if state == BROKEN:  # BG-TERR-06: a broken portcullis stays broken (Prison: PR-CHAR-COLOSSUS-02)
            rule = _refusal_rule(ctx.s, "broken")
        raise IllegalAction(rule, _NOT_NOW[action.how, state])
    states = ctx.s.portcullis.get(tile, CLOSED * len(ctx.s.catalogue.rooms[tile].portcullises))
    ctx.s.portcullis[tile] = states[:index] + way.after + states[index + 1:]
    ctx.layout_changed()
    ctx.emit("portcullis", how=action.how, square=square_name(figure.square), direction=action.direction,
             by=figure.id)


# A refusal names the game's fireball object: the base set's Wand, Prison's Staff (PR-OBJ-STAFF-01, the same object),
# or either in a game that mixes them (a play-test's Prison Wizard was told he "carries no Fireball Wand")
# (BG-OBJ-FIREBALL-01, PR-OBJ-STAFF-01: "only the Wizard"; not "a spellcaster", which Paladins & Dragons' glossary
# makes the Illusionist too, PD-GLOS-01: he was told "only a spellcaster can use the Fireball Wand, not bIL")
_NOT_SPELLCASTER = {("Fireball Wand",): N_("only the Wizard can use the Fireball Wand, not {wizard}"),
                    ("Fireball Staff",): N_("only the Wizard can use the Fireball Staff, not {wizard}"),
                    ("Fireball Staff", "Fireball Wand"): N_("only the Wizard can use the Fireball Wand or Staff, "
                                                            "not {wizard}")}
_NO_WAND = {("Fireball Wand",): N_("{wizard} carries no Fireball Wand"),
            ("Fireball Staff",): N_("{wizard} carries no Fireball Staff"),
            ("Fireball Staff", "Fireball Wand"): N_("{wizard} carries no Fireball Wand or Staff")}


def _fireball_names(state: GameState) -> tuple[str, ...]:
    names = tuple(sorted({kind.name for kind in state.catalogue.objects.values() if kind.use == "fireball"}))
    return names if names in _NO_WAND else ("Fireball Wand",)


def _fireball_rule(state: GameState) -> str:
    """The rule a refusal of a fireball before its line cites: the game's fireball object's own (its `rules`, data:
    Prison's Staff, PR-OBJ-STAFF-01, "same as" the Wand's, which a play-test of Prison was cited), the base set's
    BG-OBJ-FIREBALL-01 where it has none or a mix has both."""
    rules = {kind.rules.get("fireball", "BG-OBJ-FIREBALL-01") for kind in state.catalogue.objects.values()
             if kind.use == "fireball"}
    return rules.pop() if len(rules) == 1 else "BG-OBJ-FIREBALL-01"


def fireball(ctx: Ctx, action: Fireball) -> None:
    """BG-OBJ-FIREBALL-01..07: the first character in line of sight is eliminated."""
    wizard = ctx.token(action.token)
    if not ctx.has_ability(wizard, "spellcaster"):
        raise IllegalAction(_fireball_rule(ctx.s), _NOT_SPELLCASTER[_fireball_names(ctx.s)], wizard=wizard.id)
    wand = carried_use(ctx.s, wizard, "fireball") if wizard.where == "board" else None
    if wand is None:
        raise IllegalAction(_fireball_rule(ctx.s), _NO_WAND[_fireball_names(ctx.s)], wizard=wizard.id)
    if action.direction not in DIRECTIONS:
        raise IllegalAction("BG-OBJ-FIREBALL-02", "choose a direction: n, e, s or w")
    ctx.actor(action.seat, action.token, wounded_rule="BG-ABIL-04")
    edge_refusal(ctx.board, wizard, action.direction, "BG-OBJ-FIREBALL-02")
    ctx.put(wand.moved(where="discarded", square=None))
    burn(ctx, wizard, action.direction, "fireball")


def line_directions(board, square) -> list[str]:
    """The directions in which a line of sight leaves `square`: those with a square of the board beside it. Beyond
    the board's outer edge (a side of the maze, the outer side of a start zone) there is no square, so no line to
    throw a fireball or a breath along (DT-257); a wall or an empty line is a direction (BG-OBJ-FIREBALL-03, DT-268)."""
    return [name for name, _ in board.neighbours(square)]


def edge_refusal(board, source: Token, direction: str, rule: str) -> None:
    """Refuse, citing `rule`, a fireball or a breath aimed beyond the board's outer edge (DT-257)."""
    if not board.exists(step(source.square, direction)):
        raise IllegalAction(rule, "the board ends {direction} of {square}: no line of sight there",
                            direction=direction, square=square_name(source.square))


def burn(ctx: Ctx, source: Token, direction: str, kind: str) -> None:
    """A fireball (BG-OBJ-FIREBALL-02..07) or the Red Dragon's breath (PD-CHAR-DRAGON-01), event `kind`: the first
    character on the line of sight is eliminated, with the wounded it carries (BG-OBJ-FIREBALL-05: not one lying
    under the Ghost, who carries nothing, PD-CHAR-GHOST-03); a Fire Shield
    (an object with the ability "fire_shield") on that square stops it harmlessly (PD-OBJ-FIRESHIELD-01, RUL-084),
    and the event names the characters it spared (`shielded`, only then)."""
    victims: list[Token] = []
    shielded: list[Token] = []
    objects = ctx.s.catalogue.objects
    for square in ctx.board.sight_line(source.square, direction):
        here = ctx.at(square)
        characters = [t for t in here if t.is_character]
        if characters:
            carriers = [t for t in characters if "no_carry" not in ctx.s.catalogue.characters[t.code].abilities]
            if carriers and any(not t.is_character and "fire_shield" in objects[t.code].abilities for t in here):
                shielded = characters
            elif any(t.is_figure for t in characters) and not any(t.is_figure for t in carriers):
                # PD-CHAR-GHOST-03: the Ghost carries no wounded friend lying under him; it is not his to die with
                victims = [t for t in characters if t.is_figure]
            else:
                victims = characters
            break
    extra = {"shielded": [t.id for t in shielded]} if shielded else {}
    ctx.emit(kind, by=source.id, direction=direction, victims=[v.id for v in victims], **extra)
    for victim in victims:
        ctx.eliminate(victim, kind)


def drink(ctx: Ctx, action: Drink) -> None:
    """BG-OBJ-POTION-01..03: 4 extra AP for the drinker alone, this turn."""
    figure = ctx.token(action.token)
    potion = carried_use(ctx.s, figure, "drink") if figure.where == "board" else None
    if potion is None:
        raise IllegalAction("BG-OBJ-POTION-01", "{figure} carries no Speed Potion", figure=figure.id)
    ctx.actor(action.seat, action.token, wounded_rule="BG-ABIL-04")
    ctx.put(potion.moved(where="discarded", square=None))
    # a charmed figure drinks it as one of its 3 actions, and gains none (PD-OBJ-CHARM-02, DT-227)
    extra = ctx.s.catalogue.objects[potion.code].extra_ap if figure.colour == ctx.s.active else 0
    ctx.s.pools[figure.id] = ctx.s.pools.get(figure.id, 0) + extra
    ctx.emit("potion_drunk", token=figure.id, extra_ap=extra)


def figure_actions(state: GameState, board, seat: str, figure: Token) -> list:
    """Healing, portcullises and the objects the figure carries."""
    cat = state.options.catalogue
    kind = cat.characters[figure.code]
    out: list = []
    if "heal" in kind.abilities:
        out += [Heal(seat, figure.id, t.id) for t in sorted(heal_targets(state, board, figure), key=lambda t: t.id)]
    carried = carried_objects(state, figure)  # a figure is on the board
    options = portcullis_options(state, board, figure, carried)
    if options:  # (no comprehension made for nothing: asked for every figure whose memo entry is made)
        out += [Portcullis(seat, figure.id, d, how) for d, how in options]
    if carried:
        uses = [cat.objects[t.code].use for t in carried]  # `carried_use`, for each use, without looking again
        if "spellcaster" in kind.abilities and "fireball" in uses:
            out += [Fireball(seat, figure.id, d) for d in line_directions(board, figure.square)]
        if "drink" in uses:
            out.append(Drink(seat, figure.id))
    return out


def rises(state: GameState, board, character: Token) -> bool:
    """BG-END-04: a wounded Troll may still regenerate one day (BG-CHAR-TROLL-01), even with no figure left."""
    return "regenerate" in state.catalogue.characters[character.code].abilities


def wounded_actions(state: GameState, board, seat: str, character: Token) -> list:
    """A wounded Troll's regeneration (BG-CHAR-TROLL-01)."""
    if (state.ap > 0 and "regenerate" in state.catalogue.characters[character.code].abilities
            and can_regenerate(state, character) is None):
        return [Regenerate(seat, character.id)]
    return []
