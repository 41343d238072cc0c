"""Table options: from the protocol's TableOptions to the engine's Options, and as plain data for views."""

from __future__ import annotations

from dungeon_twister.engine import Handicap, Options
from dungeon_twister.engine.cards import CardOptions
from dungeon_twister.engine.cards.setup import validate_options as validate_card_options
from dungeon_twister.engine.boardgame.catalogue import load
from dungeon_twister.engine.boardgame.setup import validate_options
from dungeon_twister.protocol import TableOptions
from dungeon_twister.protocol.msg_lobby import CARD_SCENARIOS, SETS
from dungeon_twister.protocol.wire_types import FieldError, HandicapMap


def engine_options(options: TableOptions) -> Options | CardOptions:
    """The engine options of a table (the family's own: Options for the board game, CardOptions for the card
    game); ValueError if they do not go together or the handicap map is malformed."""
    if options.game == "cards":
        return card_options(options)
    if options.tutorial is not None or options.scenario in CARD_SCENARIOS or options.teams in CARD_TEAMS \
            or options.secret_objects:
        raise ValueError("a tutorial, the standard scenario, full or draft teams and secret objects are the card "
                         "game's (game cards)")
    set_name = options.set_name or "base_set"
    if options.scenario is not None:  # a scenario names its set and its VP target (PR-SCEN)
        set_name = next((name for name in SETS if options.scenario in load(name).scenarios), set_name)
        scenario = load(set_name).scenarios.get(options.scenario)
        if scenario is None:
            raise ValueError(f"unknown scenario {options.scenario!r}")
        target = scenario["victory"].get("target", 5)
        engine = Options(target, options.beginner, handicap(options.handicap), set_name, options.scenario)
        validate_options(engine)
        return engine
    engine = Options(options.target_vp, options.beginner, handicap(options.handicap), set_name,
                     teams=options.teams or "random")
    validate_options(engine)  # PR-OPT-02: 5-7 VP in Prison; BG-OPT-07: the beginner game is the base set's;
    # PD-TEAM-02: team building by choice in a mixed game only
    return engine


BOARD_ONLY = ("set_name",)
CARD_TEAMS = ("full", "draft")
"""Team modes only the card game has (CG-SEL); "mutual" is both games'."""


def card_options(options: TableOptions) -> CardOptions:
    """A card-game table: a tutorial (CG-TUT1..3, 1 if nothing is given), or the standard scenario (CG-SCEN-04)
    with its teams selected by `teams` (CG-SEL: mutual, the default, full or draft). The board game's sets,
    scenarios, handicap and beginner game are not the card game's; the VP target is the tutorial's or the
    scenario's own; `timers` are the card game's (CG-OPT-01, CG-OPT-02: 2 minutes a turn, 5 seconds for a card)."""
    given = [name for name in BOARD_ONLY if getattr(options, name) is not None]
    if options.beginner:
        given.append("beginner")
    if options.scenario is not None and options.scenario not in CARD_SCENARIOS:
        given.append(f"scenario {options.scenario}")
    if given:
        raise ValueError(f"{', '.join(given)}: a board-game option, not the card game's")
    if options.target_vp != 5:
        raise ValueError("a card game's tutorial or scenario sets its own VP target (CG-TUT1..3, CG-SCEN-03)")
    if options.scenario is None:
        if options.teams is not None:
            raise ValueError("a tutorial's teams are given (CG-TUT1-03): teams go with a scenario")
        if options.handicap is not None:
            raise ValueError("CG-HCAP-01: a handicap goes with a scenario of 5 VP or more, not a tutorial")
        return CardOptions(options.tutorial or 1, secret_objects=options.secret_objects)
    if options.tutorial is not None:
        raise ValueError("a tutorial or a scenario, not both")
    if options.teams not in (None, "mutual", *CARD_TEAMS):
        raise ValueError(f"a scenario's teams are mutual, full or draft (CG-SEL), not {options.teams}")
    engine = CardOptions(None, options.scenario, options.teams or "mutual", secret_objects=options.secret_objects)
    raw = options.handicap
    if raw is not None:  # CG-HCAP-04: the characters he plays, of the scenario's team, and the cards left out
        handicap(raw)  # the map checked again for direct callers
        team = engine.setup["characters"]
        engine = CardOptions(None, engine.scenario, engine.teams, (
            raw["seat"], team - raw.get("characters", team), tuple(sorted(raw.get("removed_cards", ())))),
            options.secret_objects)
    validate_card_options(engine)
    return engine


def handicap(raw: dict | None) -> Handicap | None:
    """{seat: "B"|"Y", characters: int, removed_cards: [int]} (characters defaults to 8, cards to none); the
    protocol's HandicapMap has checked the keys, types and bounds, this checks them again for direct callers."""
    if raw is None:
        return None
    try:
        HandicapMap().check(raw, "handicap")
    except FieldError as error:
        raise ValueError(str(error)) from None
    return Handicap(raw["seat"], raw.get("characters", 8), tuple(sorted(raw.get("removed_cards", ()))))


def options_view(table_id: str, options: TableOptions) -> dict:
    """The "table" entry of a view: the table's id and options (the handicap rebuilt from its known keys)."""
    target = engine_options(options).target_vp  # a scenario's own target (PR-SCEN-4: 4 VP), else the table's
    out = {"id": table_id, "target_vp": target, "beginner": options.beginner,
           "handicap": handicap_view(options.handicap), "timers": options.timers, "private": options.private}
    if options.set_name:
        out["set_name"] = options.set_name
    if options.scenario:
        out["scenario"] = options.scenario
    if options.teams:
        out["teams"] = options.teams
    if options.game:
        out["game"] = options.game
    if options.tutorial:
        out["tutorial"] = options.tutorial
    if options.secret_objects:
        out["secret_objects"] = True
    return out


def handicap_view(raw: dict | None) -> dict | None:
    if raw is None:
        return None
    return {"seat": raw["seat"], "characters": raw.get("characters", 8),
            "removed_cards": sorted(raw.get("removed_cards", ()))}
