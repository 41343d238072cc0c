"""`help` topics: commands, action notation, the board's symbols, characters and objects (from the catalogue),
and rule summaries by rule ID. The full text of a rule ID is quoted from the shared rulebook when it exists."""

from __future__ import annotations

import os
import re
from functools import lru_cache
from pathlib import Path

from .names import catalogue

RULES_FILE_VARIABLE = "DT_RULES_FILE"
SOURCE_TAGS = re.compile(r"\s*\{[A-Z0-9 -]+\}")
RULES_FILE_IN_CHECKOUT = Path(__file__).resolve().parents[2] / "shared" / "rules" / "board-game.md"
"""The board game's rulebook in a checkout; the other sets' (prison.md) lie beside it (`rules_files`)."""
SET_RULEBOOKS = ("prison.md", "paladins-dragons.md", "card-game.md")

LOBBY_COMMANDS = """\
create [vp=5..8] [beginner] [timers] [private] [prison|mixed]   create a table (Prison, or both sets mixed) and sit at it
create cards [tutorial=1|2|3|standard TEAMS] [timers] [secret] [private]  The Card Game (help cards)
join TABLE [B|Y] [CODE]                          take a seat (CODE: a private table's join code)
spectate TABLE [CODE]                            watch a table (CODE: a private table's join code)
bot B|Y [random|greedy]                          seat a bot at your table (default greedy)
chat TEXT                                        talk to the lobby (or your table)
refresh                                          list the tables again
ratings                                          the leaderboard (Glicko-2; games between two people are rated)
reconnect                                        connect again now (after a lost connection)
quit                                             leave the client"""

GAME_COMMANDS = """\
ACTION                  play an action (Tab completes your legal actions word by word)
look SQUARE             what lies on a square (e.g. look c4)
bot B|Y [random|greedy] seat a bot in a free seat (default greedy)
chat TEXT               talk to the table
leave                   back to the lobby (in a running game: resign, after a confirmation)
undo                    ask the opponent to take back your last action (not after a secret or a reveal)
yes / no                answer the opponent's undo
reconnect               take your seat back now after a lost connection (the client also retries by
                        itself while the server holds the seat)
quit                    leave the client (your seat is held for a while: connect again to resume)
help TOPIC              a character or object (help WA, help rope), a verb (help move),
                        a rule (help BG-MOVE, help BG-COMBAT-07), help board, help rules
Keys: Tab complete, Up/Down history, PageUp/PageDown scroll the board, F1 help, Esc close help,
      F2 board or side panel (on a terminal narrower than 97 columns)."""

BOARD_LEGEND = """\
Yellow's start zone is at the top, Blue's at the bottom. One square is 5 characters:
 bWA   a character (its id, as typed in actions)      bwa   lower-case: wounded
 bWARP a character and what it carries (RP: an object; tr lower-case: a wounded character)
 yRP   an object       (bTH) a token on a pit        bWA? / y??  face-down start-zone tokens
 ( )   a pit           @3↻  a rotation mechanism: pair number, arrow (↻ clockwise, ↺ counter-clockwise);
                      @bWA↻ a figure standing on one
 ◦     a marked start square                         ░░░  a face-down room (b y: hidden tokens' colours)
Edges: │ ─ wall   ║ ═ closed portcullis   ╎ ╌ open portcullis   ╱ broken portcullis   ┊ ┈ arrow slit (Prison)"""

VERBS = {
    "team": ("team b0=TH d0=WA g0=TR i0=GB  (or: team TH WA TR GB, in square order)", "BG-SETUP-04",
             "choose your secret starting team; the client commits to it and reveals it when the opponent has chosen"),
    "pick": ("pick 37  |  pick WA", "PD-TEAM-MUTUAL", "a mixed game's team building by mutual choice: a room "
             "pair, then a character, then an object in turn; both teams take every pick"),
    "build": ("build pairs=3,41 characters=ES,GH,MK,PA,RD,TH,WA,WZ objects=FH,KY,KY,RP,SW,TS", "PD-TEAM-FREE",
              "a mixed game's free team building: 2 room pairs, 8 characters and 6 objects of your own, chosen in "
              "secret (commit-reveal); a common object (Rope, Key) once per copy; Tab completes each part"),
    "hide": ("hide bRP A2", "BG-SETUP-05", "hide a token face down in a room"),
    "card": ("card 3", "BG-TURN-02", "play an action card: its value is your AP for the turn"),
    "end": ("end", "BG-TURN-01", "end your turn"),
    "move": ("move bTH g6  |  move bTH g6 +yRP  |  move bTH f4-f5-g5-g6  |  g6", "BG-MOVE",
             "move a figure (1 AP), taking (+token) or leaving (token@square) what it carries"),
    "wallwalk": ("wallwalk bWW e6", "BG-CHAR-WALLWALKER", "the Wall-Walker passes through a wall (1 AP)"),
    "jump": ("jump bWA c8 c7", "BG-JUMP", "jump over a pit (a jump card and 1 AP): the pit, then the landing"),
    "attack": ("attack bWA yTR", "BG-COMBAT-01", "start a combat (1 AP); both players then choose a combat card"),
    "combat": ("combat +3", "BG-COMBAT-02", "your secret combat card; the client commits and reveals it"),
    "reveal": ("reveal bWA A2", "BG-REVEAL", "turn a face-down room over (1 AP)"),
    "place": ("place yRP c7", "BG-REVEAL-06", "place a token found in a revealed room"),
    "pass": ("pass", "BG-OPT-03", "leave your objects to the revealer to place"),
    "rotate": ("rotate bMK A2 cw", "BG-ROT", "turn a room a quarter turn from its rotation mechanism (1 AP)"),
    "heal": ("heal bCL yWA", "BG-CHAR-CLERIC", "the Cleric heals an adjacent wounded character (1 AP)"),
    "regenerate": ("regenerate bTR", "BG-CHAR-TROLL", "the wounded Troll gets up (1 AP)"),
    "break": ("break bWA n", "BG-CHAR-WARRIOR", "the Warrior breaks a closed portcullis, the Colossus an open or "
              "closed one (1 AP)"),
    "open": ("open bTH e", "BG-CHAR-THIEF-04", "the Thief, the Assassin or a figure with the Key opens a closed "
             "portcullis (1 AP)"),
    "close": ("close bTH e", "BG-CHAR-THIEF-04", "the Thief, the Assassin or a figure with the Key closes an open "
              "portcullis (1 AP)"),
    "shoot": ("shoot bCL yMK  |  shoot bCL yMK +bNG", "PR-RANGED", "a figure with a Bow shoots the first person on "
              "a line of sight (1 AP), not beside any enemy; other shooters may join (+token)"),
    "lance": ("lance bCO yNG", "PR-OBJ-LANCE", "with the Telescopic Lance, attack a person 2 free squares away in a "
              "line (1 AP); the carrier is never wounded, the lance breaks if its side loses"),
    "mind": ("mind +3  |  mind none", "PR-CHAR-TELEPATH", "the Telepath's player names a combat card before a "
             "single melee's cards (or names none)"),
    "push": ("push bBS yWZ", "PR-CHAR-BANSHEE", "the Banshee pushes the first person on a line of sight one square "
             "away (2 AP); into a pit it dies"),
    "fireball": ("fireball bWZ n", "BG-OBJ-FIREBALL", "the Wizard fires the wand along a line of sight (1 AP)"),
    "drink": ("drink bGB", "BG-OBJ-POTION", "drink the Speed Potion: 4 more AP for this character (1 AP)"),
    "breathe": ("breathe bRD n", "PD-CHAR-DRAGON", "the Red Dragon's fire kills the first character on a line of "
                "sight (1 AP, as often as AP allow)"),
    "smash": ("smash bGO e", "PD-CHAR-GOLEM", "the Golem breaks the wall beside him (1 AP, 3 a game; a double wall "
              "takes 2)"),
    "illusion": ("illusion bIL pit c7  |  illusion bIL rubble c7", "PD-CHAR-ILLUS", "the Illusionist puts his "
                 "illusion pit or rubble on an empty square he sees, or moves it there (1 AP)"),
    "dispel": ("dispel bIL pit", "PD-CHAR-ILLUS-06", "the Illusionist takes his illusion back (1 AP)"),
    "steal": ("steal bPP yTS", "PD-CHAR-PICKPOCKET", "the Pickpocket takes an object from an adjacent enemy "
              "(1 AP, his hands empty)"),
    "teleport": ("teleport bRD c7", "PD-OBJ-RING", "the Ring's carrier jumps to an empty floor square of a room "
                 "beside his (1 AP; the Ring is used up)"),
    "charm": ("charm bIL yWA", "PD-OBJ-CHARM", "a magic user takes an enemy figure of his room for 3 actions "
              "this turn (1 AP; the scroll is used up)"),
    "fountain": ("fountain bTR", "PD-TERR-FOUNTAIN", "a wounded character beside the Fountain of Youth drinks: "
                 "healed, and free to act (1 AP)"),
}

ABILITIES = {
    "heal": "Heal (1 AP): an adjacent wounded character gets up (BG-CHAR-CLERIC)",
    "break_portcullis": "Break (1 AP): destroys an adjacent closed portcullis for good (BG-CHAR-WARRIOR)",
    "levitate": "Levitation: flies over pits and enemy characters while moving (BG-CHAR-WIZARD-01)",
    "spellcaster": "Spellcaster: the only one who can use the Fireball Wand (BG-CHAR-WIZARD-03)",
    "operator": "Operator: rotates his room or its twin either way (BG-CHAR-MECHANORK-01)",
    "wallwalk": "Wall-walk (1 AP): passes through one wall, not a portcullis (BG-CHAR-WALLWALKER)",
    "regenerate": "Regeneration (1 AP): gets up by himself while wounded, not the turn he fell (BG-CHAR-TROLL)",
    "acrobatics": "Acrobatics: crosses and stands on pits; friends may cross her pit (BG-CHAR-THIEF-01/02)",
    "lockpick": "Lock-picking (1 AP): opens or closes an adjacent portcullis (BG-CHAR-THIEF-04)",
    "contortionist": "Contortionist: passes arrow slits while moving, even carrying (PR-CHAR-NAGA-01)",
    "backstab": "Backstab: +2 in a group combat where another figure of hers takes part (PR-CHAR-ASSASSIN-01)",
    "bend_bars": "Bend bars (1 AP): destroys an adjacent open or closed portcullis for good (PR-CHAR-COLOSSUS-01)",
    "giant": "Giant: enemy figures of printed combat 0 or 1 may cross his square (PR-CHAR-COLOSSUS-03)",
    "shockwave": "Shockwave (2 AP): pushes the first person on a line of sight one square away (PR-CHAR-BANSHEE)",
    "undead": "Undead (PR-CHAR-BANSHEE-09)",
    "mind_control": "Mind control: in a single melee, before the cards, names a value the opponent must play if "
                    "he holds it; else his hand is shown (PR-CHAR-TELEPATH)",
    "fire_breath": "Fire Breath (1 AP, any number of times): kills the first character on a line of sight "
                   "(PD-CHAR-DRAGON-01)",
    "dragon": "A dragon: his elimination scores 2 VP; the Dragon-Slayer Sword is +4 against him (PD-CHAR-DRAGON)",
    "no_jump": "Never moves by himself nor jumps; a Ring of Teleportation can move him (PD-CHAR-DRAGON-03)",
    "agility": "Agility: crosses pits while moving, never stops on one; not crevasses (PD-CHAR-ELF)",
    "incorporeal": "Incorporeal: moves through walls, portcullises, pits, obstacles and characters, stopping on "
                   "none of them (PD-CHAR-GHOST-01)",
    "no_carry": "Carries, takes and uses nothing (PD-CHAR-GHOST-03)",
    "break_walls": "Break walls (1 AP): breaks a wall segment beside him, 3 a game (PD-CHAR-GOLEM)",
    "illusions": "Illusions (1 AP): an illusion pit and an illusion rubble of his own (PD-CHAR-ILLUS)",
    "magic_user": "Magic user: reads scrolls such as the Charm Scroll (PD-GLOS-01)",
    "strength": "Strength: carries two things: objects or wounded friends, even when wounded (PD-CHAR-PALADIN)",
    "steal": "Steal (1 AP): takes an object from an adjacent enemy, his hands empty (PD-CHAR-PICKPOCKET)",
    "combat_techniques": "Combat techniques: the other side lays its combat card first, face up (PD-CHAR-WMASTER)",
}

RULES = {
    "BG-COMP": "Components: 8 rooms in 4 pairs, 2 start zones; per player 8 characters, 6 objects, action cards "
               "2-5, combat cards +0 +1 +2 +2 +3 +3 +4 +5 +6, 3 jump cards. Hands are secret.",
    "BG-GEO": "Geometry: rooms are 5x5, laid 2 wide; squares are adjacent only orthogonally; walls and "
              "portcullises lie on edges; a face-down room has no usable square.",
    "BG-TERR": "Terrain: floor, rotation mechanism, pits (obstacles), walls; portcullises are closed at first, "
               "can be opened (Thief) or broken for good (Warrior).",
    "BG-GOLD": "Golden rules: an action is finished before the next; at the end of an action a square holds at "
               "most 2 tokens and at most one figure, one wounded character, one object.",
    "BG-SETUP": "Setup: rooms face down; each player secretly picks 4 characters for his marked start squares, "
                "then the players alternately hide their other tokens face down in the rooms.",
    "BG-TURN": "Turn: play one action card (mandatory), spend its AP, take the cards back when the hand is "
               "empty. Unspent AP are lost.",
    "BG-ACT": "First cycle: the first player starts with his 2; until a 4 is played a card may exceed the "
              "highest card played so far by at most 1.",
    "BG-AP": "AP: reveal, rotate, move, attack, use an ability or an object cost 1 AP each; only figures "
             "(unwounded characters) act.",
    "BG-REVEAL": "Reveal (1 AP): a figure with direct access (adjacent, no wall; or from its own start zone) "
                 "turns a room over; the revealer places the tokens found (the opponent places the revealer's "
                 "own objects) on empty floor squares.",
    "BG-ROT": "Rotate (1 AP a quarter turn): from the rotation mechanism, the room or its revealed twin turns "
              "in its arrow's direction (the Mechanork chooses); everything in it turns along.",
    "BG-MOVE": "Move (1 AP): up to Movement steps to connected squares; cross friends but never stop on them; "
               "never enter an enemy figure's square; no pits (Thief, Rope, Wizard excepted); entering the "
               "opponent's start zone exits the maze.",
    "BG-ITEM": "Objects: a figure carries one thing (an object or an own wounded character), picks up and drops "
               "during moves for free, and may hand over to a friend it crosses.",
    "BG-COMBAT": "Combat (1 AP): attack an adjacent connected enemy; each side adds combat values, modifiers "
                 "and one secret combat card; the loser's participants are wounded (a wounded loser is "
                 "eliminated); a tie does nothing. Played cards are spent, except +0.",
    "BG-GROUP": "Group combat: every figure in contact is drawn in when the attack is declared; each player "
                "plays one card for his side.",
    "BG-WOUND": "Wounded: cannot act, combat value 0, loses its abilities; eliminated if it loses a combat; "
                "friends may stop on it, enemies may only cross it.",
    "BG-CARRY": "Carrying: only friends carry a wounded character; if the carrier loses a combat the carried "
                "one is eliminated; carried out of the maze it is saved.",
    "BG-EXIT": "Exits: a figure entering the opponent's start zone leaves the maze: 1 VP (Goblin 2), +1 VP for "
               "the Treasure it carries.",
    "BG-JUMP": "Jump: spend a jump card and 1 AP to leap over one adjacent pit to the square beyond.",
    "BG-PIT": "Pits: only a Thief, a Rope carrier or the levitating Wizard cross them; a Rope left on a pit "
              "lets anyone cross.",
    "BG-LOS": "Line of sight: straight, stopped by walls, closed portcullises, face-down rooms and the first "
              "character met.",
    "BG-ABIL": "Abilities: permanent ones cost nothing, activated ones 1 AP; a wounded character has none.",
    "BG-VP": "VP: 1 per enemy eliminated, 1 per own character out (Goblin 2), 1 for the Treasure carried out.",
    "BG-END": "End: once a player reaches the target (5 VP by default), the turn is finished and the player "
              "with more VP wins; equal VP is a draw.",
    "BG-OPT": "Options: timers (2 minutes a turn; 5 seconds for a combat card, else +0), a higher VP target, "
              "the beginner game (6 rooms), handicaps.",
    "BG-CHAR": "Characters: see help WA, help TH, ... for each one's movement, combat value and abilities.",
    "BG-OBJ": "Objects: see help AR, help RP, ... for each one's effect.",
    "PR-CORE": "Prison's core rules: the base set's, with adjacency cut by walls, closed portcullises and arrow "
               "slits; from the start zone only the room in front may be revealed.",
    "PR-SLIT": "Arrow slits: a wall for moving, fighting, healing and revealing; sight passes through one only for "
               "a figure standing beside it (so it can be one-way). The Naga slips through.",
    "PR-LOS": "Line of sight (Prison): straight, over pits and objects, stopped by persons, walls, closed "
              "portcullises, and by a slit unless the viewer stands beside it.",
    "PR-CHAR": "Prison characters: see help NG, help BS, help CO, ... for each one's values and abilities.",
    "PR-OBJ": "Prison objects: see help KY, help BW, help LN, ... for each one's effect.",
    "PR-OPT": "Prison options: timers as in the base set; a VP target of 5, 6 or 7; handicaps.",
    "PD-CHAR": "Paladins & Dragons characters: see help RD, help ES, help GH, help GO, help IL, help PA, help PP, "
               "help WM for each one's values and abilities.",
    "PD-OBJ": "Paladins & Dragons objects: see help RG, help FH, help CH, help DS (the Key and the Treasure as "
              "elsewhere).",
    "PD-TERR": "Paladins & Dragons terrain: fog ~~~ (no line of sight enters it, nobody in it is targeted), "
               "Rockfall ^^^ (kills whoever enters without a shield or wings, and whoever stops there), crevasse "
               "vvv (flyers, the Ghost, a Rope or a jump cross it; nobody stops), obstacle [X] (only flyers and "
               "the Ghost cross it), Fountain of Youth (Y) (a wounded neighbour drinks: healed), Pentacle <*> "
               "(1 VP to the only colour standing on it).",
    "PD-GLOS": "Glossary: magic users read scrolls (Wizard, Illusionist); the Ghost is undead; 3D obstacles "
               "block moves and sight.",
    "PD-ROPE": "The Rope crosses one obstacle square at a time (pit or crevasse), straight or at a right angle.",
}


def help_text(topic: str = "", *, at_table: bool = False) -> str:
    """The text of `help TOPIC` (the general help without a topic)."""
    topic = topic.strip()
    if not topic:
        return GAME_COMMANDS if at_table else LOBBY_COMMANDS
    lower = topic.lower()
    if lower == "board":
        return BOARD_LEGEND
    if lower in ("cards", "card game"):
        return cards_help()
    if lower == "rules":
        return "Rule families (help ID, or a full rule ID like BG-MOVE-09):\n" + ", ".join(RULES)
    if lower in VERBS:
        syntax, rule, meaning = VERBS[lower]
        return f"{lower}: {meaning}\n  {syntax}\n  rules: {rule} (help {rule})"
    commands = _command_lines(lower)
    if commands:
        return "\n".join(commands)
    if re.match(r"^[A-Za-z]{2}(-[A-Za-z0-9]+)+$", topic):
        return rule_help(topic.upper())
    return _kind_help(topic) or f"no help on {topic!r}; try: help board, help WA, help rope, help move, help BG-MOVE"


def _command_lines(word: str) -> list[str]:
    """The lines of the lobby's and the table's command lists that describe the command `word` (`help leave`)."""
    found = []
    for text in (LOBBY_COMMANDS, GAME_COMMANDS):
        lines = text.splitlines()
        for i, line in enumerate(lines):
            if line.split(" ", 1)[0] == word:
                found.append(line)
                for more in lines[i + 1:]:  # its continuation lines
                    if not more.startswith(" "):
                        break
                    found.append(more)
    return found


CARDS_LEGEND = """\
The Card Game (CG rules): rooms are cards of 2 x 2 zones, Yellow's start zone at the top, Blue's at the bottom.
A zone:  ▲ c3  yBW   its icon (▲ triangle ■ square ● circle, ↻ ↺ the rotation zone and its arrow), its name,
                     the objects on its floor
         bMK+RP ysn  the characters in it (+RP: what one carries; lower-case: wounded)
Borders: │ ─ wall  ║ ═ closed portcullis  ╎ ╌ open  ╱ broken  ┊ ┈ arrow slit  ≈ pit  ░ a face-down room
         (B Y: the colours of the cards laid face down beside it)
Start zones: yWZ→b7 a character and the zone it faces; "2 face down" while the teams are hidden.
Each turn 3 AP on your action wheel (3 kept at most). Actions (Tab completes them):
  hide bMK:1 bSN:2 (secret)   seed bKY C   face bMK:a1 bSN:c1 (secret)   reveal bMK C   place bKY c4
  move bMK B1^a1 a2   rotate bMK A cw   jump bMK b3   open bMK c3 n   attack bWA ySN   shoot bCB yMK
  levitate bTK bKY b2 a2 >bMK (the Telekinetic)   move bPA -bKY +bRP (the Paladin's two hands)
  card 3 (secret, in a combat)   end
Tutorials: 1 movement (2 VP), 2 melee (3 VP), 3 line of sight and ranged combat (4 VP).
A full game: create cards standard mutual|full|draft (5 VP). Options: timers (2 minutes a turn, CG-OPT-01/02),
secret (the other player's objects unseen: +@yMK takes what yMK carries, CG-OPT-03)."""


def cards_help() -> str:
    """The Card Game's legend, actions and characters and objects (engine/cards/data/cards.json)."""
    from dungeon_twister.engine.cards.catalogue import load

    cat = load()
    people = ", ".join(f"{c.code} {c.name} ({c.move}/{c.combat})" for c in cat.characters.values())
    things = ", ".join(f"{o.code} {o.name}" for o in cat.objects.values())
    return f"{CARDS_LEGEND}\nCharacters (move/combat): {people}\nObjects: {things}"


SETS = ("base_set", "prison")
"""The sets whose characters and objects `help` describes (a code both share, like MK, is the same kind)."""


def _kinds() -> tuple[dict, dict]:
    characters, objects = {}, {}
    for name in SETS:
        cat = catalogue(name)
        characters.update({code: kind for code, kind in cat.characters.items() if code not in characters})
        objects.update({code: kind for code, kind in cat.objects.items() if code not in objects})
    return characters, objects


def topics() -> list[str]:
    """Every topic word, for completion."""
    characters, objects = _kinds()
    names = [kind.name.lower() for kind in (*characters.values(), *objects.values())]
    return ["board", "cards", "rules", *VERBS, *characters, *objects, *names, *RULES]


def _kind_help(topic: str) -> str | None:
    characters, objects = _kinds()
    wanted = topic[1:] if re.match(r"^[by][A-Z]{2}$", topic) else topic
    for code, kind in characters.items():
        if wanted.upper() == code or wanted.lower() == kind.name.lower():
            lines = [f"{kind.name} ({code}): movement {kind.move}, combat {kind.combat}, "
                     f"{kind.exit_vp} VP when it leaves the maze"]
            lines += [f"  {ABILITIES.get(ability, ability)}" for ability in sorted(kind.abilities)]
            return "\n".join(lines)
    for code, kind in objects.items():
        if wanted.upper() == code or wanted.lower() == kind.name.lower():
            return f"{kind.name} ({code}): " + "; ".join(_object_effects(kind))
    return None


def _object_effects(kind) -> list[str]:
    effects = []
    if kind.attack_bonus:
        effects.append(f"+{kind.attack_bonus} combat when its carrier attacks")
    if kind.defend_bonus:
        effects.append(f"+{kind.defend_bonus} combat when its carrier is attacked")
    if kind.rope:
        effects.append("its carrier crosses and stands on pits; left on a pit, anyone may cross it (BG-PIT)")
    if kind.use == "fireball":
        effects.append("1 AP, Wizard only: kills the first character in a line of sight, then is discarded")
    if kind.use == "teleport":
        effects.append("1 AP: its carrier teleports to an empty floor square of a room beside his, then it is "
                       "discarded (PD-OBJ-RING)")
    if kind.use == "charm":
        effects.append("1 AP, magic users only: an enemy figure of the same room acts 3 times for you this turn, "
                       "then it is discarded (PD-OBJ-CHARM)")
    if kind.use == "drink":
        effects.append(f"1 AP: the drinker gets {kind.extra_ap} more AP this turn, then it is discarded")
    if kind.exit_vp:
        effects.append(f"+{kind.exit_vp} VP when carried out of the maze")
    effects += [OBJECT_ABILITIES[ability] for ability in sorted(kind.abilities) if ability in OBJECT_ABILITIES]
    return effects or ["no effect in play"]


OBJECT_ABILITIES = {
    "key": "1 AP: its carrier opens or closes a portcullis beside it, as often as it likes (PR-OBJ-KEY)",
    "bow": "1 AP: its carrier shoots the first person on a line of sight, fighting with 1, never wounded "
           "(PR-OBJ-BOW, PR-RANGED)",
    "lance": "1 AP: its carrier attacks a person 2 free squares away in a line, never wounded; it breaks if its "
             "side loses (PR-OBJ-LANCE)",
    "shield": "its carrier can never be the target of a shot (PR-OBJ-SHIELD-01); it crosses Rockfall safely "
              "(PD-TERR-ROCKFALL-03)",
    "fire_shield": "fireballs and dragon fire spare its carrier; it crosses Rockfall safely (PD-OBJ-FIRESHIELD)",
    "dragon_slayer": "+4 combat against a dragon, and a dragon it beats dies at once (PD-OBJ-SLAYER)",
}


def rule_help(rule_id: str) -> str:
    """The rule's own text when the rulebook is at hand, and the summary of its family."""
    family = next((prefix for prefix in sorted(RULES, key=len, reverse=True)
                   if rule_id == prefix or rule_id.startswith(prefix + "-")), None)
    summary = f"{family}: {RULES[family]}" if family else None
    text = rule_texts().get(rule_id)
    if text:
        return f"{rule_id} {text}" + (f"\n\n{summary}" if summary else "")
    return summary or f"no summary of {rule_id}; help rules lists the rule families"


def rules_file() -> Path | None:
    """The shared rulebook (docs in a checkout, or $DT_RULES_FILE), if present."""
    configured = os.environ.get(RULES_FILE_VARIABLE)
    for path in ([Path(configured)] if configured else []) + [RULES_FILE_IN_CHECKOUT]:
        if path.is_file():
            return path
    return None


def rules_files() -> list[Path]:
    """The rulebook and, beside it, the other sets' rulebooks that are present (Prison's PR- rules)."""
    path = rules_file()
    if path is None:
        return []
    return [path] + [other for name in SET_RULEBOOKS if (other := path.parent / name).is_file()]


@lru_cache(maxsize=1)
def rule_texts() -> dict[str, str]:
    """Rule ID -> its text, read from the rulebook's `- **ID** text` items, source tags like {IT ES} left out
    (empty without the rulebook)."""
    texts: dict[str, str] = {}
    current = None
    lines = [line for path in rules_files() for line in [*path.read_text(encoding="utf-8").splitlines(), ""]]
    for line in lines:
        item = re.match(r"^- \*\*([A-Z]+(?:-[A-Z0-9]+)+)\*\* (.*)$", line)
        if item:
            current = item.group(1)
            texts[current] = item.group(2)
        elif current and line.startswith("  ") and line.strip():
            texts[current] += " " + line.strip()
        else:
            current = None
    return {rule: SOURCE_TAGS.sub("", text).strip() for rule, text in texts.items()}
