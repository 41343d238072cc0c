"""Plain-word names of seats and tokens, from the engine's catalogue."""

from __future__ import annotations

from dungeon_twister.engine.boardgame.catalogue import SetCatalogue, load, room_pairs
from dungeon_twister.protocol.kinds import TABLE_ID

from .held import Told
from .i18n import N_, _, ngettext, pgettext

# TRANSLATORS: the two sides of a game, by colour (Blue plays from the bottom, Yellow from the top)
SEAT_NAMES = {"B": N_("Blue"), "Y": N_("Yellow")}


def seat_named(word: str) -> str | None:
    """The seat a typed word names: B or Y in either case, or a seat's name in the language in use or in English
    (`join 4 blu`: a play-test's Italian word was taken for a join code); None for any other word."""
    folded = word.casefold()
    return next((seat for seat, name in SEAT_NAMES.items()
                 if folded in (seat.casefold(), name.casefold(), _(name).casefold())), None)


TOKEN_NAMES = {
    # TRANSLATORS: a token's name: its side's colour and its kind ({kind}: a character or an object, e.g. Warrior);
    # one form serves every kind, so where the colour would agree with the kind's gender, a form without agreement
    # reads better, e.g. "{kind} (blue)"
    "b": N_("Blue {kind}"),
    # TRANSLATORS: a token's name: its side's colour and its kind ({kind}: a character or an object, e.g. Warrior)
    "y": N_("Yellow {kind}"),
}
KIND_NAMES = (
    # the characters of the sets (engine/boardgame and engine/cards data), as their catalogues name them
    # TRANSLATORS: a character of the game (the names of the characters of every set follow, from Assassin to Wizard);
    # it also names tokens (Blue {kind})
    N_("Assassin"),
    N_("Backstabber"),
    N_("Banshee"),
    N_("Berserker"),
    N_("Cleric"),
    N_("Colossus"),
    N_("Crossbowman"),
    N_("Dark Angel"),
    N_("Elf Scout"),
    # TRANSLATORS: a character of the game: a general, an army's commander
    N_("General"),
    N_("Ghost"),
    N_("Goblin"),
    N_("Golem"),
    N_("Illusionist"),
    N_("Mechanork"),
    N_("Naga"),
    N_("Paladin"),
    N_("Pickpocket"),
    N_("Red Dragon"),
    N_("Samurai"),
    N_("Snake-man"),
    N_("Telekinetic"),
    N_("Telepath"),
    N_("Thief"),
    N_("Troll"),
    N_("Wall-Walker"),
    N_("Warrior"),
    N_("Weapon Master"),
    N_("Wizard"),
    # their objects
    # TRANSLATORS: an object of the game (the names of the objects of every set follow, from Armor to Treasure); it
    # also names tokens (Blue {kind})
    N_("Armor"),
    # TRANSLATORS: an object of the game: the weapon that shoots arrows
    N_("Bow"),
    N_("Charm Scroll"),
    N_("Dragon-Slayer Sword"),
    N_("Fire Shield"),
    N_("Fireball Scroll"),
    N_("Fireball Staff"),
    N_("Fireball Wand"),
    N_("Inversion Scroll"),
    N_("Key"),
    N_("Large Shield"),
    N_("Ring of Teleportation"),
    N_("Rope"),
    N_("Speed Potion"),
    N_("Sword"),
    N_("Telescopic Lance"),
    N_("Treasure"),
)
"""The names of the characters and objects in the catalogues' data, marked for translation: `kind_name` shows a
kind's name translated (the catalogue keeps the English name, which `help` also accepts as typed)."""
SCENARIO_TEXTS = (
    # the introductory scenarios of the sets (engine/prison/data: setup.prison-N), their title, goal and new
    # rules, as the data has them: `scenario_intro` shows them translated
    # TRANSLATORS: the title of the Prison scenario prison-1
    N_("A stroll through the dungeon"),
    # TRANSLATORS: the goal of the Prison scenario prison-1
    N_("Be the first to take both of your figures out through your opponent's start zone."),
    # TRANSLATORS: the new rules of the Prison scenario prison-1
    N_("Only moving matters here: reveal rooms, turn them, move, jump over pits (one jump card each) and "
       "open portcullises with the Key. No combat cards, no attacks. The Naga slips through arrow slits; a "
       "figure carrying the Rope may cross and stop on pits."),
    # TRANSLATORS: the title of the Prison scenario prison-2
    N_("Target: the Colossus"),
    # TRANSLATORS: the goal of the Prison scenario prison-2
    N_("Yellow: bring the Colossus, unwounded, onto Blue's start zone. Blue: eliminate the Colossus."),
    # TRANSLATORS: the new rules of the Prison scenario prison-2
    N_("Combat arrives: attack for 1 AP, both players lay a combat card in secret. The Cleric heals, the "
       "Assassin stabs in a group, the Colossus bends bars and lets enemies of combat 0 or 1 pass between his "
       "legs. The Telescopic Lance attacks a person 2 squares away in a straight line; if its side loses, it "
       "breaks. Blue's figures are not taken out on Yellow's start zone."),
    # TRANSLATORS: the title of the Prison scenario prison-3
    N_("Till death do us part"),
    # TRANSLATORS: the goal of the Prison scenario prison-3
    N_("Be the first to eliminate 2 enemy characters."),
    # TRANSLATORS: the new rules of the Prison scenario prison-3
    N_("Line of sight: the Banshee pushes the first person she sees one square away (2 AP), into a pit it "
       "dies; the Wizard levitates. Nobody leaves the maze: both start zones are open ground."),
    # TRANSLATORS: the title of the Prison scenario prison-4
    N_("David against Goliath"),
    # TRANSLATORS: the goal of the Prison scenario prison-4
    N_("Be the first to reach 4 victory points: 1 per figure out through the opponent's start zone, 1 per "
       "enemy eliminated."),
    # TRANSLATORS: the new rules of the Prison scenario prison-4
    N_("Ranged combat: a figure with the Bow shoots the first person on a line of sight (it fights with 1 "
       "and is never wounded); the Large Shield stops shots; the Fireball Staff (Wizard only) kills the "
       "first person in a line. The Telepath, in a melee of one against one, names a combat card: the "
       "opponent must play it if he holds it, else he shows his hand. Choose 4 of your 6 characters for the "
       "start zone; the others are hidden in the rooms, 2 tokens in every room."),
    # TRANSLATORS: the title of the Prison scenario prison-5
    N_("Prison stand-alone"),
    # TRANSLATORS: the goal of the Prison scenario prison-5
    N_("Reach 5 victory points: 1 per figure out through the opponent's start zone, 1 per enemy eliminated. "
       "The turn that reaches them is played to its end."),
    # TRANSLATORS: the new rules of the Prison scenario prison-5
    N_("The whole set: all 8 characters and 6 objects, 4 characters on the start zone, the rest hidden in "
       "the 8 rooms."),
    # the Card Game's tutorials (engine/cards/data/cards.json: tutorials), CG-TUT1..3
    # TRANSLATORS: the title of the Card Game's tutorial 1
    N_("Moving"),
    # TRANSLATORS: the goal of the Card Game's tutorial 1
    N_("Be the first to take both of your characters out through the opponent's start zone (1 VP each)."),
    # TRANSLATORS: the new rules of the Card Game's tutorial 1
    N_("Only moving: reveal rooms, rotate them, move, jump; the characters' abilities, the Key and the Rope. "
       "No combat."),
    # TRANSLATORS: the title of the Card Game's tutorial 2
    N_("Melee"),
    # TRANSLATORS: the goal of the Card Game's tutorial 2
    N_("Be the first to 3 VP: the game ends at once."),
    # TRANSLATORS: the new rules of the Card Game's tutorial 2
    N_("Melee combat arrives: attack, then both players lay a combat card in secret. Revealed rooms now hold "
       "characters too, and an enemy eliminated scores a VP."),
    # TRANSLATORS: the title of the Card Game's tutorial 3
    N_("Ranged combat"),
    # TRANSLATORS: the goal of the Card Game's tutorial 3
    N_("Be the first to 4 VP: the game ends at once."),
    # TRANSLATORS: the new rules of the Card Game's tutorial 3
    N_("Lines of sight and ranged combat: the Crossbowman, or a character with the Bow, shoots a character it "
       "sees, at any range, and is never wounded; the Large Shield protects its carrier."),
)
"""The texts of the sets' scenarios (their data, which the extraction cannot read), marked for translation."""
DEFAULT_SET = "base_set"
KNOWN_SETS = ("base_set", "prison", "paladins")
"""Where a code is looked up when no set is named: a code names the same kind in every set that has it."""


# TRANSLATORS: a table's options, as the panel's first line and the lobby's list name them ("6 VP · beginner ·
# timers")
TABLE_FLAGS = {"beginner": N_("beginner"), "timers": N_("timers"), "private": N_("private")}

MAX_LISTED_TABLES = 1000
"""The lobby follows the server's pages (`more`) up to this many tables: enough to choose from, bounded."""
GAMES_PAGE = 20
"""Finished games a page of `games` lists."""
GAMES_PAGES = 10_000 // GAMES_PAGE + 1
"""The last page `games N` may ask for (list_games.offset is at most 10,000)."""


def table_named(word: str, tables: list[str]) -> str:
    """The table a typed word names among the listed table ids `tables`: an id, or a table's number ("3" or "t3"
    for t3-9f2c01ab, as the lobby's list shows it) when one listed table has that number; else the word as typed,
    which the server knows or refuses."""
    if word in tables:
        return word
    if is_table_number(word):
        # (the number's digits without their leading zeros, never int(): 5,000 typed nines would raise, a
        # play-test found)
        number = (word[1:] if word[:1] in "tT" else word).lstrip("0") or "0"
        found = [table for table in tables if table.split("-", 1)[0] == f"t{number}"]
        if len(found) == 1:
            return found[0]
    return word


def unlisted_number(word: str, tables: list[str]) -> str | None:
    """Why `word` names no table, when it is a number that no listed table (`tables`, the whole list) has: the
    server's "no table '1'" did not say that `1` is the number in an id like t1-d5d96ea7, not a place in the list
    (a play-test). None when it names a table, or is no number, or the list is cut (the server decides)."""
    if len(word) > TABLE_ID.max_len:  # (no id is that long: the request could not even be sent, a play-test)
        return _("there is no table {table}").format(table=repr(word[:TABLE_ID.max_len] + "…"))
    if table_named(word, tables) != word or not is_table_number(word) or len(tables) >= MAX_LISTED_TABLES:
        return None
    if not tables:
        return _("no table has the number {number}: the list is empty (refresh lists the tables again)").format(
            number=word)
    # (the example is a listed id: a made-up one read like a real table, a play-test found)
    example, number = tables[0], tables[0].split("-")[0][1:]
    # TRANSLATORS: {example} a listed table's id (t2-a401d38a) and {example_number} the number in it (2);
    # {tables} the listed tables' ids
    return _("no listed table has the number {number} (the number in its id, as {example_number} in {example}): "
             "{tables}").format(number=word, example=example, example_number=number, tables=", ".join(tables[:6]))


def is_table_number(word: str) -> bool:
    """Whether `word` names a table by its number alone (`3`, `t3`), which only the table list resolves."""
    number = word[1:] if word[:1] in "tT" else word
    return number.isascii() and number.isdigit()  # (not "²", which isdigit() takes)


def other_seat(seat: str) -> str:
    return "Y" if seat == "B" else "B"


def score(vp: dict, winner: str | None = None) -> str:
    """The victory points as a result reads: the winner's first ("Yellow wins 5-2"), else Blue's first ("1-1")."""
    first = winner if winner in SEAT_NAMES else "B"
    return f"{vp.get(first, '?')}-{vp.get(other_seat(first), '?')}"


def seat_name(seat: str | None) -> str:
    # TRANSLATORS: who a seat is when no seat is meant (nobody wins, nobody acts)
    return _(SEAT_NAMES[seat]) if seat in SEAT_NAMES else _("nobody")


def combat_odds(attacker: str | None, attack: int, defence: int, seat: str | None) -> str:
    """The sides' totals before the cards, attacker first, from the reader's side: 'you attack: 5 + card vs
    Yellow 6 + card' (BG-COMBAT-03, CG-COMBAT-03: the higher total wins, a tie does nothing). The board game's
    panel and the card game's both show it."""
    defender = other_seat(attacker) if attacker else None
    values = {"attack": attack, "defence": defence}
    if seat == attacker:
        return _("you attack: {attack} + card vs {defender} {defence} + card").format(
            defender=seat_name(defender), **values)
    if seat == defender:
        return _("{attacker} attacks: {attack} + card vs you {defence} + card").format(
            attacker=seat_name(attacker), **values)
    return _("{attacker} attacks: {attack} + card vs {defender} {defence} + card").format(
        attacker=seat_name(attacker), defender=seat_name(defender), **values)


PART_WORDS = {
    "value": "{who} {n}",
    "object": "{who} +{n}",
    # TRANSLATORS: a part of a combat total (the panel's "attack: bAS 2, bAS backstab +2"): the Assassin's Backstab
    # (PR-CHAR-ASSASSIN-01)
    "backstab": N_("{who} backstab +{n}"),
    # TRANSLATORS: a part of a combat total: a shooter's weapon value (PR-RANGED-05)
    "shot": N_("{who} shot {n}"),
    # TRANSLATORS: a part of a combat total: a Dragon-Slayer Sword's bonus against a dragon (PD-OBJ-SLAYER-01)
    "slayer": N_("{who} against a dragon +{n}"),
    # TRANSLATORS: parts of a Card Game combat total: a carried Sword attacking, Armour defending, a General beside
    # (CG-OBJ-SWORD-01, CG-OBJ-ARMOR-01, CG-CHAR-GENERAL-01)
    "sword": N_("{who} Sword +{n}"),
    "armor": N_("{who} Armour +{n}"),
    "general": N_("{who} General +{n}"),
}


def combat_parts(parts) -> str:
    """What makes each side's total (the view's combat.parts, docs/protocol.md section 20: the board game's by
    side, {"attack", "defence"}; a card game's by seat, given here attacker first), when a side has more than its
    one fighter's value: "attack: bAS 2, bAS backstab +2, bCL shot 1 · defence: yMK 2" (a play-test's
    players read a combined attack's total and could not tell where its backstab or Sword was, pt28b). '' for a
    server without the key, or one whose parts are not as documented."""
    if not isinstance(parts, dict):
        return ""
    sides = []
    for side, label in (("attack", _("attack: {parts}")), ("defence", _("defence: {parts}"))):
        of_side = parts.get(side)
        if not isinstance(of_side, list) or not all(
                isinstance(part, list) and len(part) == 3 and isinstance(part[0], str) and part[1] in PART_WORDS
                and type(part[2]) is int for part in of_side):
            return ""
        sides.append((label, of_side))
    if all(len(of_side) <= 1 for _label, of_side in sides):
        return ""
    # (a side with no part, a wounded defender alone, is 0: "defence: " with nothing read as cut, review rv29)
    words = [label.format(parts=", ".join(_(PART_WORDS[what]).format(who=who, n=n) for who, what, n in of_side)
                          or "0") for label, of_side in sides]
    return " · ".join(words)


def catalogue(set_name: str | None = None) -> SetCatalogue:
    """The catalogue of a view's set; the base set when the set is unknown to this client."""
    try:
        return load(set_name or DEFAULT_SET)
    except KeyError:
        return load(DEFAULT_SET)


PAIR_SETS = {
    # TRANSLATORS: where a room pair comes from, beside its number in a team building ("1 base set: 3 pits, ...")
    "base_set": N_("base set"),
    # TRANSLATORS: where a room pair comes from: the set Dungeon Twister Prison (a name)
    "prison": N_("Prison"),
    # TRANSLATORS: where a room pair comes from: the set Paladins & Dragons, shortened
    "paladins": N_("P&D"),
}
PAIR_TERRAIN = {  # the square terrain of Paladins & Dragons' rooms (docs/paladins-rooms.md), in a few words
    # TRANSLATORS: what a room pair has, in a list such as "2 pits, 2 portcullises, fog, 3D obstacles, fountain"
    "fog": N_("fog"),
    # TRANSLATORS: what a room pair has (PD-TERR-ROCKFALL), in a list of its features
    "rockfall": N_("Rockfall"),
    # TRANSLATORS: what a room pair has (PD-TERR-CREVASSE), in a list of its features
    "crevasses": N_("crevasses"),
    # TRANSLATORS: what a room pair has (PD-GLOS-03), in a list of its features
    "obstacles": N_("3D obstacles"),
    # TRANSLATORS: what a room pair has (PD-TERR-FOUNTAIN: the Fountain of Youth), in a list of its features
    "fountains": N_("fountain"),
    # TRANSLATORS: what a room pair has (PD-TERR-PENTACLE), in a list of its features
    "pentacle": N_("Pentacle"),
}


def pair_label(number: int | str, set_name: str | None = None) -> str | None:
    """A room pair in a few words, in the language in use: the set it comes from and what its two rooms have
    ("P&D: 2 pits, 2 portcullises, fog, 3D obstacles, fountain"), from the rooms' data (catalogue.room_pairs of
    the view's set; every set's when it has none); None for a number no set has. Play-test pt22 F6: a free or
    mutual team building offered its pairs as bare numbers."""
    try:
        origin, features = room_pairs(set_name or "all_sets")[int(number)]
    except (KeyError, ValueError):
        if set_name and set_name != "all_sets":
            return pair_label(number, None)
        return None
    words = []
    for feature, count in features:
        if feature == "pits":
            words.append(ngettext("{count} pit", "{count} pits", count).format(count=count))
        elif feature == "portcullises":
            words.append(ngettext("{count} portcullis", "{count} portcullises", count).format(count=count))
        elif feature == "arrow_slits":
            words.append(ngettext("{count} arrow slit", "{count} arrow slits", count).format(count=count))
        elif feature in PAIR_TERRAIN:
            words.append(_(PAIR_TERRAIN[feature]))
    # TRANSLATORS: a room pair in a few words: {set} where it comes from ("P&D"), {features} what its rooms have
    return _("{set}: {features}").format(set=_(PAIR_SETS.get(origin, origin)), features=", ".join(words))


def pair_lines(set_name: str | None = None) -> list[str]:
    """Every room pair of the set (every set's when None), a line each: "41  P&D: 2 pits, ..." (`help build`,
    `help pairs`)."""
    try:
        numbers = room_pairs(set_name or "all_sets")
    except KeyError:
        numbers = room_pairs("all_sets")
    return [f"  {number:>2}  {pair_label(number, set_name)}" for number in numbers]


def kind_name(code: str, set_name: str | None = None, cards: bool = False) -> str:
    """A character's or an object's name, in the language in use ('WA' -> 'Warrior'); an unknown code as it is.
    `cards`: the Card Game's catalogue first (engine/cards/data: it has kinds no board-game set has)."""
    if cards:
        from dungeon_twister.engine.cards.catalogue import load as load_cards  # (not imported for --help)

        cat = load_cards()
        kind = cat.characters.get(code) or cat.objects.get(code)
        if kind:
            return card_kind_name(kind.name)
    for name in ((set_name,) if set_name else ()) + KNOWN_SETS:
        cat = catalogue(name)
        kind = cat.characters.get(code) or cat.objects.get(code)
        if kind:
            return _(kind.name)
    return code


# TRANSLATORS: a room card of the Card Game, by the colour of its back and its number (white1 is "white 1"): the
# colour of a room, as in "room A (white 1)"
ROOM_CARD_COLOURS = {"white": N_("white {n}"), "orange": N_("orange {n}"), "red": N_("red {n}"),
                     "blue": N_("blue {n}"), "green": N_("green {n}"), "purple": N_("purple {n}")}


def room_card_name(card: str) -> str:
    """A Card Game room card's id (`white1`, the catalogue's) in the reader's words ("blanche 1"): a play-test read
    the English ids in every language. An id of no known colour stays as it is."""
    colour, number = card.rstrip("0123456789"), card[len(card.rstrip("0123456789")):]
    if colour in ROOM_CARD_COLOURS and number:
        return _(ROOM_CARD_COLOURS[colour]).format(n=number)
    return card


def card_kind_name(name: str) -> str:
    """A Card Game kind's name (as its catalogue has it) in the language in use. One English name stands for two
    characters: the Card Game's Assassin, whose won combats eliminate (CG-CHAR-ASSASSIN-01), is not Prison's, whose
    backstab and lock-pick the Card Game's Backstabber has (RUL-056), and whom German calls Meuchlerin."""
    if name == "Assassin":
        # TRANSLATORS: the Card Game's Assassin, whose won combats eliminate outright (CG-CHAR-ASSASSIN-01), not
        # Prison's Assassin (backstab and lock-pick, the Card Game's Backstabber): where a language names Prison's
        # after those powers (German: Meuchlerin), this one needs a name of his own
        return pgettext("card game", "Assassin")
    return _(name)


def token_name(token_id: str | None, set_name: str | None = None, cards: bool = False) -> str:
    """'bWA' -> 'Blue Warrior', 'bRP2' -> 'Blue Rope (2)' (a second copy, PD-TEAM-COMMON-01); an unknown id is
    returned as it is. `cards`: as `kind_name`."""
    if not token_id or len(token_id) not in (3, 4) or token_id[0] not in "by":
        return str(token_id)
    copy = f" ({token_id[3]})" if len(token_id) == 4 and token_id[3].isdigit() else ""
    if len(token_id) == 4 and not copy:
        return str(token_id)
    return _(TOKEN_NAMES[token_id[0]]).format(kind=kind_name(token_id[1:3], set_name, cards)) + copy


INTRO = "intro"
"""The kind of the event a scenario's or tutorial's introduction line is kept with (held.Told): which game, set,
scenario or tutorial, and which of its lines, so that a client started later in another language words it again
(`retell`; a play-test restarted its client with another `--lang` and read the introduction in the old one)."""
INTRO_KEYS = ("game", "set", "scenario", "tutorial")
"""What of the view an introduction is made from."""


def scenario_intro(view: dict | None) -> list[str]:
    """The lines that explain a scenario's goal and its new rules (the set's data, PR-SCEN), for a view that names
    one; nothing otherwise. Each is kept with what it is made from (Told, kind INTRO)."""
    about = {key: (view or {}).get(key) for key in INTRO_KEYS}
    return [Told(text, {"kind": INTRO, **about, "line": number}) for number, text in enumerate(_intro(about))]


def _intro(view: dict) -> list[str]:
    name = view.get("scenario")
    if view.get("game") == "cards":  # the Card Game's tutorials (CG-TUT1..3); its scenario card has none
        from dungeon_twister.engine.cards.catalogue import load

        tutorial = load().tutorials.get(str(view.get("tutorial")))
        if not tutorial or "title" not in tutorial:
            return []
        # TRANSLATORS: the Card Game's tutorial's introduction: {number} 1, 2 or 3; its title, goal and rules come
        # from the game's data (SCENARIO_TEXTS)
        return [_("tutorial {number}: {title}").format(number=view["tutorial"], title=_(tutorial["title"])),
                _("goal: {goal}").format(goal=_(tutorial["goal"])),
                _("new rules: {rules}").format(rules=_(tutorial["rules_text"]))]
    scenario = catalogue(view.get("set")).scenarios.get(name) if name else None
    if not scenario and view.get("game") in (None, "board"):
        # a board game without a scenario: its goal and a turn's shape, as a scenario's intro says its own (a
        # newcomer's play-test, pt29 F1, was dropped into the secret team choice with no word of either)
        # TRANSLATORS: the board game's introduction, said as a game starts; the rule IDs and `help ...` stay as
        # they are
        return [_("goal: be the first to the table's VP (5 unless it says otherwise): 1 VP for each of your "
                  "characters you take out through the opponent's start zone and for each enemy character "
                  "eliminated{exceptions} (help BG-VP)").format(exceptions=scoring_exceptions(view.get("set"))),
                _("each turn: play an action card, whose number is your AP, then spend them (move, attack, reveal a "
                  "room, rotate...), then `end`; Tab completes every action you may play (help, help rules)")]
    if not scenario:
        return []
    # TRANSLATORS: a scenario's introduction: {name} is its id (prison-1); its title, goal and rules come from the
    # set's data (SCENARIO_TEXTS)
    return [_("scenario {name}: {title}").format(name=name, title=_(scenario.get("title", ""))),
            _("goal: {goal}").format(goal=_(scenario.get("goal", ""))),
            _("new rules: {rules}").format(rules=_(scenario.get("rules_text", "")))]


def scoring_exceptions(set_name: str | None) -> str:
    """What scores otherwise in the set's catalogue, for the board game's goal line: " (Goblin taken out: 2 VP;
    Treasure carried out: 1 VP more)" in the base set, nothing in Prison, the Red Dragon's elimination in Paladins &
    Dragons (review mix30: the line named the Goblin and the Treasure in Prison games, which have neither)."""
    cat = catalogue(set_name)
    parts = [_("{name} taken out: {vp} VP").format(name=kind_name(code, set_name), vp=kind.exit_vp)
             for code, kind in sorted(cat.characters.items()) if kind.exit_vp > 1]
    parts += [_("{name} carried out: {vp} VP more").format(name=kind_name(code, set_name), vp=kind.exit_vp)
              for code, kind in sorted(cat.objects.items()) if kind.exit_vp]
    parts += [_("{name} eliminated: {vp} VP").format(name=kind_name(code, set_name), vp=kind.elimination_vp)
              for code, kind in sorted(cat.characters.items()) if kind.elimination_vp > 1]
    return f" ({joined(parts)})" if parts else ""


def scenario_target(name: str) -> int | None:
    """The VP a scenario is played to (its victory data: 4 in PR-SCEN-4), or None when its victory is not VP."""
    for set_name in KNOWN_SETS:  # a set's scenarios are its data: only Prison's has some now
        scenario = catalogue(set_name).scenarios.get(name)
        if scenario is not None:
            return scenario["victory"].get("target")
    from dungeon_twister.engine.cards.catalogue import load  # the card game's scenario cards (CG-SCEN-03)

    card = load().scenarios.get(name)
    return None if card is None else card["target_vp"]


def labelled(label: str, text: str) -> str:
    """`label: text` as the language in use writes it (French sets a no-break space before its colon): a side and
    its team, a square and what lies there, a kind of pick and the picks."""
    # TRANSLATORS: a label and what it labels ("Blue: Assassin, Cleric", "b3: nothing"); French: "{label}\u00a0: "
    return _("{label}: {text}").format(label=label, text=text)


def joined(parts) -> str:
    """`parts` (texts) one after the other, separated as the language separates the parts of a list that hold
    commas themselves (English "; ", French with a no-break space before the semicolon: review i18n27)."""
    # TRANSLATORS: the separator between the parts of a list whose parts hold commas (the two teams, the things on
    # a square): French puts a no-break space before the semicolon
    return pgettext("list separator", "; ").join(parts)


SAID = "said"
"""The kind of the event a log line the client words itself is kept with (held.Told): not a table event, but its
template and values (`said`), so that a client started later in another language words it again (`retell`)."""


def said(template: str, **values) -> Told:
    """A log line the client words itself: `template` (marked N_) in the language in use, with `values`, a value
    named `seat` being a seat's code shown by its name; kept with what words it (play-test 21b restarted a client
    with another `--lang` and read these lines in the old language, the events' lines in the new one)."""
    return Told(_said(template, values), {"kind": SAID, "template": template, "values": values})


def retell(event: dict) -> str | None:
    """A line `said` or `scenario_intro` made, worded in the language in use now; None for another event."""
    if event.get("kind") == INTRO:
        lines, number = _intro({key: event.get(key) for key in INTRO_KEYS}), event.get("line")
        return lines[number] if type(number) is int and 0 <= number < len(lines) else None
    if event.get("kind") != SAID or not isinstance(event.get("template"), str):
        return None
    values = event.get("values")
    return _said(event["template"], values if isinstance(values, dict) else {})


def _said(template: str, values: dict) -> str:
    """`template` in the language in use, a value named `seat` by the seat's name and one named `purpose` (a secret
    choice's, combat-1) in words."""
    from .state import purpose_name

    return _(template).format(**{key: seat_name(value) if key == "seat" else purpose_name(value) if key == "purpose"
                                 else value for key, value in values.items()})
