"""`help` topics: commands, action notation, the board's symbols, characters and objects (from the catalogue),
and rule summaries by rule ID. The full text of a rule ID is quoted from the shared rulebook when it exists."""

from __future__ import annotations

import os
import re
from functools import lru_cache
from pathlib import Path

from .i18n import N_, _
from .names import card_kind_name, catalogue, joined, labelled, pair_lines, scenario_intro, scoring_exceptions
from .wrap import Laid, entries

RULES_FILE_VARIABLE = "DT_RULES_FILE"
SOURCE_TAGS = re.compile(r"\s*\{[A-Z0-9 -]+\}")
DIFF_TAG = re.compile(r"\*\*\[DIFF\]\*\*\s*")
"""The rulebook's mark of a rule that differs between the games, for its editors: not quoted (play-test pt27)."""
MARKDOWN = re.compile(r"\*\*([^*]+)\*\*")
"""The rulebook's bold, quoted as plain text."""
RULES_FILE_IN_CHECKOUT = Path(__file__).resolve().parents[2] / "shared" / "rules" / "board-game.md"
"""The board game's rulebook in a checkout; the other sets' (prison.md) lie beside it (`rules_files`)."""
RULES_FILE_BUNDLED = Path(__file__).resolve().parent / "rules" / "board-game.md"
"""The copy of the rules reference the client carries (package data), so that `help BG-MOVE-09` quotes the rule
where no checkout lies beside it, as for a player who installed the client (tests/client/test_client_texts.py
checks it equals the reference when that is at hand)."""
SET_RULEBOOKS = ("prison.md", "paladins-dragons.md", "card-game.md")

LOBBY_COMMANDS = (
    # TRANSLATORS: a line of the lobby's command list: the command as typed (create, join TABLE [B|Y] [CODE], ...)
    # stays exactly as it is, in English; translate only its explanation, after two spaces or more (the client sets
    # the explanations in a column that fits the terminal's width)
    N_("create [vp=5..8] [beginner] [timers] [private] [SET] [mutual|free]   create a table and sit at it; SET: "
       "prison, paladins, or a mix: mixed, base_paladins, prison_paladins, all_sets (mutual|free: a mix's team "
       "building)"),
    N_("create cards [tutorial=1|2|3 | standard mutual|full|draft] [timers] [secret] [private]  The Card Game "
       "(help cards)"),
    N_("join TABLE [B|Y] [CODE]                          take a seat (TABLE: its id, or its number: join 3; "
       "CODE: a private table's join code)"),
    N_("spectate TABLE [CODE]                            watch a table (TABLE: its id, or its number; CODE: a "
       "private table's join code)"),
    N_("bot B|Y [planner|greedy|random]                  seat a bot at your table (default planner; greedy "
       "and random are easier)"),
    N_("chat TEXT                                        talk to the lobby (or your table)"),
    N_("refresh                                          list the tables again"),
    N_("ratings [NAME]                                   the leaderboard, or NAME's line (Glicko-2; board games "
       "between two people)"),
    N_("games [PAGE]                                     finished games, last first"),
    N_("reconnect                                        connect again now"),
    N_("quit                                             leave the client"),
)
"""The lobby's command list, one entry a command (`help` without a topic, and `help COMMAND`)."""

# TRANSLATORS: the keys of the table's screen (Tab, Up/Down, PageUp/PageDown, F1, Esc, F2) as printed on a
# keyboard
KEYS_HELP = N_("Keys: Tab complete, Up/Down history, PageUp/PageDown scroll the board (the help while it is open, the "
               "side panel while F2 shows it or while its end is cut beside a board that fits), F1 help, Esc close "
               "help, F2 board or side panel (on a terminal narrower than 98 columns; on a wider one, which of them "
               "PageUp/PageDown scroll), "
               "Shift+Left/Right the board's left or right end (on a terminal narrower than the board).")
"""The keys of a table's screen: the last entry of its `help`, and `help keys`."""

GAME_COMMANDS = (
    # TRANSLATORS: a line of the table's command list: the command as typed (look SQUARE, leave, yes / no, ...)
    # stays exactly as it is, in English; translate only its explanation, after two spaces or more (the client sets
    # the explanations in a column that fits the terminal's width)
    N_("ACTION                  play an action (Tab completes your legal actions word by word)"),
    N_("look SQUARE             what lies on a square (e.g. look c4)"),
    N_("bot B|Y [KIND]          seat a bot in a free seat (KIND: planner, the default; greedy or random, "
       "easier)"),
    N_("chat TEXT               talk to the table"),
    N_("chat                    the table's chat so far (PgUp/PgDn scroll it, Esc closes it)"),
    N_("log                     the table's log so far, all of it (PgUp/PgDn scroll it, Esc closes it)"),
    N_("ignore NAME             hide NAME's chat for this run of dt-client (unignore NAME shows it again)"),
    N_("leave                   back to the lobby (in a running game: resign, after a confirmation)"),
    N_("resign                  resign the game you play (after a confirmation), as leave does"),
    N_("undo                    ask the opponent to take back your last action (not after a secret or a reveal)"),
    N_("draw                    offer your opponent a draw (or accept his)"),
    N_("yes / no                answer the opponent's undo, draw or rematch offer"),
    N_("rematch                 once the game is over: play again, the colours swapped"),
    N_("reconnect               take your seat back now after a lost connection (the client also retries by "
       "itself while the server holds the seat)"),
    N_("quit                    leave the client (your seat is held for a while: connect again to resume)"),
    N_("help TOPIC              a character or object (help WA, help rope), a verb (help move), a rule (help "
       "BG-MOVE, help BG-COMBAT-07), help board, help goal (this game's), help rules"),
    KEYS_HELP,
)
"""The table's command list, one entry a command, then the keys. No line breaks of their own: the help box lays
the explanations out in a column that fits the terminal (wrap.Laid)."""
HELP_ENTRY_CARDS = N_("help TOPIC              a character or object (help MK, help rope), a verb (help move), a rule "
                      "(help CG-MOVE, help CG-COMBAT-02), help cards, help goal (this game's)")
"""The table's `help TOPIC` entry at a card table: the Card Game's examples, not the board game's (a play-test
followed `help BG-MOVE` there to the board game's moves)."""

# TRANSLATORS: the board's legend, a symbol a line: the symbols (bWA, ( ), @3↻, │ ─, ...) stay as they are, each
# followed by two spaces or more (the client sets the explanations in a column that fits the terminal); only their
# explanations are translated
BOARD_LEGEND = N_("""\
Yellow's start zone is at the top, Blue's at the bottom. One square is 5 characters:
 bWA         a character (its id, as typed in actions)
 bwa         lower-case: wounded
 bWARP       a character and what it carries (RP: an object; tr lower-case: a wounded character)
 yRP         an object
 (bTH)       a token on a pit
 bWA? / y??  face-down start-zone tokens
 ( )         a pit
 @3↻         a rotation mechanism: pair number, arrow (↻ clockwise, ↺ counter-clockwise)
 @bWA↻       a figure standing on a rotation mechanism
 ◦           a marked start square
 ░░░         a face-down room (b y: hidden tokens' colours)
Edges:
 │ ─         wall
 ║ ═         closed portcullis
 ╎ ╌         open portcullis
 ╱           broken portcullis
 ┊ ┈         arrow slit (Prison)""")
# TRANSLATORS: the end of `help board` (Paladins & Dragons), a symbol a line as the board's legend: the symbols stay
# as they are, each followed by two spaces or more; "help PD-TERR" is a command
BOARD_LEGEND_PALADINS = N_("""\
Paladins & Dragons (help PD-TERR):
 ~~~         fog
 ^^^         rockfall
 vvv         crevasse
 [X]         obstacle
 (Y)         Fountain of Youth
 <*>         Pentacle
 (b) [b]     an Illusionist's illusion in his colour: (b) a pit, [b] rubble
 a wall the Golem broke is an opening""")
# TRANSLATORS: the start of `help rules`, a short overview of the board game before the list of its rule families:
# the rule IDs, `end` and the `help ...` commands stay as they are; AP: action points, VP: victory points;
# {exceptions}: what scores otherwise in the set played, e.g. " (Goblin taken out: 2 VP; ...)", or nothing
RULES_OVERVIEW = N_("""\
Dungeon Twister: two players, each with a team of characters and objects, in a maze of rooms that turn.
Goal: be the first to the table's VP (5 unless it says otherwise): 1 VP for each of your characters you take out \
through the opponent's start zone, 1 for each enemy character eliminated{exceptions} (help BG-VP, help BG-END).
Setup: the rooms lie face down; each player chooses in secret the characters of his marked start squares, then \
both hide their other tokens face down in the rooms (help BG-SETUP).
A turn: play an action card (2 to 5): its number is your AP; spend them, 1 AP an action, on any of your unwounded \
characters; then `end` (help BG-TURN, help BG-AP).
Actions: move a character up to its movement; reveal a face-down room beside it; rotate a room from its rotation \
mechanism; attack an enemy beside it (each side adds its values and a combat card chosen in secret: the loser is \
wounded, a wounded loser eliminated); and each character's and object's own abilities (help move, help \
BG-COMBAT, help WA, help board).""")
# TRANSLATORS: the start of `help rules` at a Card Game table, before the list of the rule families: the rule IDs,
# `end` and the `help ...` commands stay as they are; AP: action points, VP: victory points
CARD_RULES_OVERVIEW = N_("""\
The Card Game: two players, each with a few characters and objects, in a maze of room cards of 4 zones each.
Goal: be the first to the tutorial's or the scenario's VP: 1 VP for each of your characters you take out through \
the opponent's start zone (the Goblin 2), 1 for each enemy eliminated; the game ends as soon as one player has \
them (help CG-VP, help CG-END).
A turn: 3 AP go onto your action wheel (3 kept at most); spend them, 1 AP an action: move a character zone by zone, \
reveal a face-down room beside it, rotate a room from a rotation zone, jump a pit, attack an enemy in its zone \
(a combat card each, chosen in secret); then `end` (help CG-TURN, help cards).""")
TERRAIN_TOPICS = ("fog", "rockfall", "crevasse", "crevasses", "obstacle", "obstacles", "fountain", "pentacle",
                  "terrain")
"""Words `help` answers with the Paladins & Dragons terrain (PD-TERR), as `help board` draws it."""

WORD_TOPICS = {"slit": "PR-SLIT", "slits": "PR-SLIT", "arrow slit": "PR-SLIT", "arrow slits": "PR-SLIT",
               "exit": "BG-EXIT", "exits": "BG-EXIT", "escape": "BG-EXIT", "escapes": "BG-EXIT",
               "portcullis": "BG-TERR", "portcullises": "BG-TERR", "pit": "BG-PIT", "pits": "BG-PIT",
               "line of sight": "BG-LOS", "sight": "BG-LOS", "los": "BG-LOS", "vp": "BG-VP", "prison": "PR-CORE"}
"""Words of the rules a newcomer asks `help` about, and the rule family that answers (play-test pl33 asked `help
slit`, `help exit`, `help escape`, `help portcullis` and `help prison`, and read "no help on ..." each time)."""
CARD_WORD_TOPICS = {"slit": "CG-SLIT", "slits": "CG-SLIT", "arrow slit": "CG-SLIT", "arrow slits": "CG-SLIT",
                    "exit": "CG-EXIT", "exits": "CG-EXIT", "escape": "CG-EXIT", "escapes": "CG-EXIT",
                    "zone": "CG-ZONE", "zones": "CG-ZONE", "portcullis": "CG-ZONE", "portcullises": "CG-ZONE",
                    "line of sight": "CG-LOS", "sight": "CG-LOS", "los": "CG-LOS", "vp": "CG-VP",
                    "wheel": "CG-TURN", "action wheel": "CG-TURN"}
"""The same words at a Card Game table, answered by its own rules."""

VERBS = {
    "team": (
        "team b0=TH d0=WA g0=TR i0=GB", "BG-SETUP-04",
        # TRANSLATORS: the help of an action verb (team, move, ...): words in parentheses such as (+token) and
        # (token@square) are notation typed as it is; AP: action points
        N_("choose your starting team in secret; both teams are shown together once both players have chosen, and "
           "neither can change his after seeing the other's (the client checks)")),
    "pick": ("pick 37  |  pick WA", "PD-TEAM-MUTUAL",
             N_("a mixed game's team building by mutual choice: a room pair, then a character, then an object in "
                "turn; both teams take every pick")),
    "build": ("build pairs=3,41 characters=ES,GH,MK,PA,RD,TH,WA,WZ objects=FH,KY,RP,SP,SW,TS", "PD-TEAM-FREE",
              N_("a mixed game's free team building: 2 room pairs, 8 characters and 6 objects of your own, chosen "
                 "in secret; a common object (Rope, Key) once per copy; Tab completes each part")),
    "hide": ("hide bRP A2", "BG-SETUP-05", N_("hide a token face down in a room")),
    "card": ("card 3", "BG-TURN-02", N_("play an action card: its value is your AP for the turn")),
    "end": ("end", "BG-TURN-01", N_("end your turn")),
    "move": ("move bTH g6  |  move bTH g6 +yRP  |  move bTH f4-f5-g5-g6  |  g6", "BG-MOVE",
             N_("move a figure (1 AP), taking (+token) or leaving (token@square) what it carries")),
    "wallwalk": ("wallwalk bWW e6", "BG-CHAR-WALLWALKER", N_("the Wall-Walker passes through a wall (1 AP)")),
    "jump": ("jump bWA c8 c7", "BG-JUMP", N_("jump over a pit (a jump card and 1 AP): the pit, then the landing")),
    "attack": ("attack bWA yTR", "BG-COMBAT-01", N_("start a combat (1 AP); both players then choose a combat card")),
    "combat": ("combat +3", "BG-COMBAT-02", N_("lay your combat card in secret; both cards are shown together once "
                                               "both are laid")),
    "reveal": ("reveal bWA A2", "BG-REVEAL", N_("turn a face-down room over (1 AP)")),
    "place": ("place yRP c7", "BG-REVEAL-06", N_("place a token found in a revealed room")),
    "pass": ("pass", "BG-OPT-03", N_("leave the revealer's own objects for him to place")),
    "rotate": ("rotate bMK A2 cw", "BG-ROT", N_("turn a room a quarter turn from its rotation mechanism (1 AP)")),
    "heal": ("heal bCL yWA", "BG-CHAR-CLERIC", N_("the Cleric heals an adjacent wounded character (1 AP)")),
    "regenerate": ("regenerate bTR", "BG-CHAR-TROLL", N_("the wounded Troll gets up (1 AP)")),
    "break": ("break bWA n", "BG-CHAR-WARRIOR",
              N_("the Warrior breaks a closed portcullis, the Colossus an open or closed one (1 AP)")),
    "open": ("open bTH e", "BG-CHAR-THIEF-04",
             N_("the Thief, the Assassin or a figure with the Key opens a closed portcullis (1 AP)")),
    "close": ("close bTH e", "BG-CHAR-THIEF-04",
              N_("the Thief, the Assassin or a figure with the Key closes an open portcullis (1 AP)")),
    "shoot": ("shoot bCL yMK  |  shoot bCL yMK +bNG", "PR-RANGED",
              N_("a figure with a Bow shoots the first person on a line of sight (1 AP), not beside any enemy; "
                 "other shooters may join (+token)")),
    "lance": ("lance bCO yNG", "PR-OBJ-LANCE",
              N_("with the Telescopic Lance, attack a person 2 free squares away in a line (1 AP); the carrier is "
                 "never wounded, the lance breaks if its side loses")),
    "mind": ("mind +3  |  mind none", "PR-CHAR-TELEPATH",
             N_("the Telepath's player names a combat card before a single melee's cards (or names none)")),
    "push": ("push bBS yWZ", "PR-CHAR-BANSHEE",
             N_("the Banshee pushes the first person on a line of sight one square away (2 AP); into a pit it dies")),
    "fireball": ("fireball bWZ n", "BG-OBJ-FIREBALL", N_("the Wizard fires the wand along a line of sight (1 AP)")),
    "drink": ("drink bGB", "BG-OBJ-POTION", N_("drink the Speed Potion: 4 more AP for this character (1 AP)")),
    "breathe": ("breathe bRD n", "PD-CHAR-DRAGON",
                N_("the Red Dragon's fire kills the first character on a line of sight (1 AP, as often as AP allow)")),
    "smash": ("smash bGO e", "PD-CHAR-GOLEM",
              N_("the Golem breaks the wall beside him (1 AP, 3 a game; a double wall takes 2)")),
    "illusion": ("illusion bIL pit c7  |  illusion bIL rubble c7", "PD-CHAR-ILLUS",
                 N_("the Illusionist puts his illusion pit or rubble on an empty square he sees, or moves it there "
                    "(1 AP)")),
    "dispel": ("dispel bIL pit", "PD-CHAR-ILLUS-06", N_("the Illusionist takes his illusion back (1 AP)")),
    "steal": ("steal bPP yTS", "PD-CHAR-PICKPOCKET",
              N_("the Pickpocket takes an object from an adjacent enemy (1 AP, his hands empty)")),
    "teleport": ("teleport bRD c7", "PD-OBJ-RING",
                 N_("the Ring's carrier jumps to an empty floor square of a room beside his (1 AP; the Ring is used "
                    "up)")),
    "charm": ("charm bIL yWA", "PD-OBJ-CHARM",
              N_("a magic user takes an enemy figure of his room for 3 actions this turn (1 AP; the scroll is used "
                 "up)")),
    "fountain": ("fountain bTR", "PD-TERR-FOUNTAIN",
                 N_("a wounded character beside the Fountain of Youth drinks: healed, and free to act (1 AP)")),
}

CARD_VERBS = {
    # The Card Game's verbs (engine/cards/notation.py), as `help VERB` gives them at a card-game table: a verb the
    # board game has too means something else there, or takes other words (`hide bMK:1 bSN:2`, not `hide bRP A2`).
    # Where the meaning is the board game's, its text is the same one.
    "pick": ("pick AS", "CG-SEL-MUTUAL-01",
             N_("the team selection, a character then an object in turn: mutual choice, both teams take it; draft, "
                "the other's matching card leaves the game (CG-SEL-DRAFT-01)")),
    "build": ("build characters=AS,BE,BK,CB,CL,CO objects=AR,BW,FB,IS", "CG-SEL-FULL-01",
              N_("a full frontal selection: your characters and objects, chosen in secret")),
    "remove": ("remove bWA", "CG-HCAP-03",
               N_("the handicapped player's characters left out after the selection, chosen in secret")),
    "hide": ("hide bMK:1 bSN:2", "CG-TUT1-04",
             N_("your 2 start characters, face down on your start zone in front of the first (:1) or second (:2) "
                "room; chosen in secret")),
    "seed": ("seed bKY C", "CG-TUT1-04", N_("lay one of your objects face down beside a face-down room, one per room")),
    "face": ("face bMK:T bSN:C", "CG-START-02",
             N_("the icon each of your start characters points at the face-down room in front (T triangle, S "
                "square, C circle, R rotation zone), chosen in secret as the teams are revealed; where that zone "
                "lies shows when the room is revealed")),
    "reveal": ("reveal bMK C", "CG-REVEAL-01", N_("turn a face-down room over (1 AP)")),
    "place": ("place bKY c4", "CG-REVEAL-06", N_("put a card of the room just revealed in one of its zones")),
    "pass": ("pass", "CG-OPT-02", N_("leave the revealer's own objects for him to place")),
    "move": ("move bMK B1^a1 a2  |  move bMK a2 +bKY b2 -bKY", "CG-MOVE-01",
             N_("move a character zone by zone, up to its movement (1 AP): +token takes an object, -token drops it, "
                ">figure gives it, ^zone turns to face a zone on the start zone (help cards)")),
    "rotate": ("rotate bMK A cw", "CG-ROT-01",
               N_("from a rotation zone, turn its room (or its twin) a quarter turn (1 AP)")),
    "jump": ("jump bMK b3", "CG-JUMP-02",
             N_("jump over the pit on a border of your zone into the zone beyond (a jump card and 1 AP)")),
    "open": ("open bMK c3 n", "CG-OBJ-KEY-01",
             N_("a figure with the Key opens the portcullis on a border of its zone (n, e, s, w) (1 AP)")),
    "close": ("close bMK c3 n", "CG-OBJ-KEY-01",
              N_("a figure with the Key closes the portcullis on a border of its zone (n, e, s, w) (1 AP)")),
    "bend": ("bend bWA c2 s", "CG-CHAR-WARRIOR-01",
             N_("the Warrior or the Colossus breaks the portcullis on a border of his zone, for good (1 AP)")),
    "attack": ("attack bWA ySN", "CG-COMBAT-01", N_("start a combat (1 AP); both players then choose a combat card")),
    "shoot": ("shoot bCB yMK", "CG-RANGED-01",
              N_("the Crossbowman, or a figure with a Bow, starts a ranged combat (1 AP)")),
    "card": ("card 3", "CG-COMBAT-02", N_("lay your combat card in secret; both cards are shown together once "
                                          "both are laid")),
    "frenzy": ("frenzy 2", "CG-CHAR-BERSERK-01",
               N_("the Berserker's player says how many combat cards it will play, 1 or 2")),
    "mind": ("mind +3  |  mind none", "CG-CHAR-TELEPATH-01",
             N_("the Telepath's player names a combat card before a single melee's cards (or names none)")),
    "heal": ("heal bCL yWA", "CG-CHAR-CLERIC-01",
             N_("the Cleric turns a wounded character of his zone face up (1 AP)")),
    "regenerate": ("regenerate bTR", "CG-CHAR-TROLL-01", N_("the wounded Troll gets up (1 AP)")),
    "wallwalk": ("wallwalk bWW c2", "CG-CHAR-WALLWALKER-01", N_("the Wall-Walker passes through a wall (1 AP)")),
    "smash": ("smash bGO", "CG-CHAR-GOLEM-01", N_("the Golem breaks every wall of his room (1 AP, once a game)")),
    "levitate": ("levitate bTK bKY b2 a2 >bMK", "CG-CHAR-TELEKIN-01",
                 N_("the Telekinetic moves an object of her room 1 to 3 zones, then drops it or gives it to a "
                    "character (>figure) (1 AP)")),
    "fireball": ("fireball bWZ yGB", "CG-OBJ-FIREBALL-01",
                 N_("a spellcaster reads the Fireball Scroll at a character, who is eliminated (1 AP; the scroll is "
                    "used up)")),
    "invert": ("invert bWZ A", "CG-OBJ-INVERSION-01",
               N_("a spellcaster reads the Inversion Scroll: his room and the room named change places (1 AP; the "
                  "scroll is used up)")),
    "steal": ("steal bPP yKY", "CG-CHAR-PICKPOCKET-01",
              N_("the Pickpocket takes an object from an enemy of his zone (1 AP)")),
    "end": ("end", "CG-TURN-01", N_("end your turn")),
}
"""The Card Game's verbs: (syntax, rule, meaning), as `VERBS`."""

ABILITIES = {
    # TRANSLATORS: a character's ability, as `help WA` lists them: the rule ID in parentheses stays as it is; AP:
    # action points
    "heal": N_("Heal (1 AP): an adjacent wounded character gets up (BG-CHAR-CLERIC)"),
    "break_portcullis": N_("Break (1 AP): destroys an adjacent closed portcullis for good (BG-CHAR-WARRIOR)"),
    "levitate": N_("Levitation: flies over pits and enemy characters while moving (BG-CHAR-WIZARD-01); in "
                   "Paladins & Dragons over 3D obstacles such as the Fountain too, and over Rockfall unharmed, "
                   "stopping on none of them (PD-GLOS-03, PD-TERR-ROCKFALL-04)"),
    "spellcaster": N_("Spellcaster: the only one who can use the Fireball Wand, in Prison the Fireball Staff; in "
                      "Paladins & Dragons he reads the scrolls, as the Illusionist does (BG-CHAR-WIZARD-03, "
                      "PR-CHAR-WIZARD-02, PD-GLOS-01)"),
    "operator": N_("Operator: rotates his room or its twin either way (BG-CHAR-MECHANORK-01)"),
    "wallwalk": N_("Wall-walk (1 AP): passes through one wall, not a portcullis (BG-CHAR-WALLWALKER)"),
    "regenerate": N_("Regeneration (1 AP): gets up by himself while wounded, not the turn he fell (BG-CHAR-TROLL)"),
    "acrobatics": N_("Acrobatics: crosses and stands on pits; friends may cross her pit (BG-CHAR-THIEF-01/02)"),
    "lockpick": N_("Lock-picking (1 AP): opens or closes an adjacent portcullis (BG-CHAR-THIEF-04)"),
    "contortionist": N_("Contortionist: passes arrow slits while moving, even carrying (PR-CHAR-NAGA-01)"),
    "backstab": N_("Backstab: +2 in a group combat where another figure of hers takes part (PR-CHAR-ASSASSIN-01)"),
    "bend_bars": N_("Bend bars (1 AP): destroys an adjacent open or closed portcullis for good (PR-CHAR-COLOSSUS-01)"),
    "giant": N_("Giant: enemy figures of printed combat 0 or 1 may cross his square (PR-CHAR-COLOSSUS-03)"),
    "shockwave": N_("Shockwave (2 AP): pushes the first person on a line of sight one square away (PR-CHAR-BANSHEE)"),
    "undead": N_("Undead (PR-CHAR-BANSHEE-09)"),
    "mind_control": N_("Mind control: in a single melee, before the cards, names a value the opponent must play if "
                       "he holds it; else his hand is shown (PR-CHAR-TELEPATH)"),
    "fire_breath": N_("Fire Breath (1 AP, any number of times): kills the first character on a line of sight "
                      "(PD-CHAR-DRAGON-01)"),
    "dragon": N_("A dragon: his elimination scores 2 VP; the Dragon-Slayer Sword is +4 against him (PD-CHAR-DRAGON)"),
    "no_jump": N_("Never moves by himself nor jumps; a Ring of Teleportation can move him (PD-CHAR-DRAGON-03)"),
    "agility": N_("Agility: crosses pits while moving, never stops on one; not crevasses (PD-CHAR-ELF)"),
    "incorporeal": N_("Incorporeal: moves through walls, portcullises, pits, obstacles and characters, stopping on "
                      "none of them but a wounded friend (PD-CHAR-GHOST-01/02)"),
    "no_carry": N_("Carries, takes and uses nothing (PD-CHAR-GHOST-03)"),
    "break_walls": N_("Break walls (1 AP): breaks a wall segment beside him, 3 a game (PD-CHAR-GOLEM)"),
    "illusions": N_("Illusions (1 AP): an illusion pit and an illusion rubble of his own (PD-CHAR-ILLUS)"),
    "magic_user": N_("Magic user: reads scrolls such as the Charm Scroll (PD-GLOS-01)"),
    "strength": N_("Strength: carries two things: objects or wounded friends, even when wounded (PD-CHAR-PALADIN)"),
    "steal": N_("Steal (1 AP): takes an object from an adjacent enemy, his hands empty (PD-CHAR-PICKPOCKET)"),
    "combat_techniques": N_("Combat techniques: the other side lays its combat card first, face up (PD-CHAR-WMASTER)"),
}

KIND_ABILITIES = {
    # TRANSLATORS: a character's ability as `help GH` lists it, where its own rule is not the one of ABILITIES (the
    # Banshee's): the rule IDs stay as they are
    ("GH", "undead"): N_("Undead (PD-CHAR-GHOST-06, PD-GLOS-02)"),
}
"""An ability a kind's own rule names: the Ghost is undead by PD-CHAR-GHOST-06, not by the Banshee's
PR-CHAR-BANSHEE-09, which `help GH` cited (review pd32)."""

RULES = {
    # TRANSLATORS: the summary of a family of rules (help BG-MOVE): commands such as "help WA" and the symbols
    # (~~~, ^^^, vvv, [X], (Y), <*>) stay as they are; AP: action points, VP: victory points
    "BG-COMP": N_("Components: 8 rooms in 4 pairs, 2 start zones; per player 8 characters, 6 objects, action cards "
                  "2-5, combat cards +0 +1 +2 +2 +3 +3 +4 +5 +6, 3 jump cards. Hands are secret."),
    "BG-GEO": N_("Geometry: rooms are 5x5, laid 2 wide; squares are adjacent only orthogonally; walls and "
                 "portcullises lie on edges; a face-down room has no usable square."),
    "BG-TERR": N_("Terrain: floor, rotation mechanism, pits (obstacles), walls; portcullises are closed at first, "
                  "can be opened (Thief) or broken for good (Warrior)."),
    "BG-GOLD": N_("Golden rules: an action is finished before the next; at the end of an action a square holds at "
                  "most 2 tokens and at most one figure, one wounded character, one object."),
    "BG-SETUP": N_("Setup: rooms face down; each player secretly picks 4 characters for his marked start squares, "
                   "then the players alternately hide their other tokens face down in the rooms."),
    "BG-TURN": N_("Turn: play one action card (mandatory), spend its AP, take the cards back when the hand is empty. "
                  "Unspent AP are lost."),
    "BG-ACT": N_("First cycle: the first player starts with his 2; until a 4 is played a card may exceed the highest "
                 "card played so far by at most 1."),
    "BG-AP": N_("AP: reveal, rotate, move, attack, use an ability or an object cost 1 AP each; only figures "
                "(unwounded characters) act."),
    "BG-REVEAL": N_("Reveal (1 AP): a figure with direct access (adjacent, no wall; or from its own start zone) "
                    "turns a room over; the revealer places the tokens found (the opponent places the revealer's own "
                    "objects) on empty floor squares."),
    "BG-ROT": N_("Rotate (1 AP a quarter turn): from the rotation mechanism, the room or its revealed twin turns in "
                 "its arrow's direction (the Mechanork chooses); everything in it turns along."),
    "BG-MOVE": N_("Move (1 AP): up to Movement steps to connected squares; cross friends but never stop on them; "
                  "never enter an enemy figure's square; no pits (Thief, Rope, Wizard excepted); entering the "
                  "opponent's start zone exits the maze."),
    "BG-ITEM": N_("Objects: a figure carries one thing (an object or an own wounded character), picks up and drops "
                  "during moves for free, and may hand over to a friend it crosses."),
    "BG-COMBAT": N_("Combat (1 AP): attack an adjacent connected enemy; each side adds combat values, modifiers and "
                    "one secret combat card; the loser's participants are wounded (a wounded loser is eliminated); a "
                    "tie does nothing. Played cards are spent, except +0."),
    "BG-GROUP": N_("Group combat: every figure in contact is drawn in when the attack is declared; each player plays "
                   "one card for his side."),
    "BG-WOUND": N_("Wounded: cannot act, combat value 0, loses its abilities; eliminated if it loses a combat; "
                   "friends may stop on it, enemies may only cross it."),
    "BG-CARRY": N_("Carrying: only friends carry a wounded character; if the carrier loses a combat the carried one "
                   "is eliminated; carried out of the maze it is saved."),
    "BG-EXIT": N_("Exits: a figure entering the opponent's start zone leaves the maze: 1 VP (Goblin 2), +1 VP for "
                  "the Treasure it carries."),
    "BG-JUMP": N_("Jump: spend a jump card and 1 AP to leap over one adjacent pit to the square beyond."),
    "BG-PIT": N_("Pits: only a Thief, a Rope carrier or the levitating Wizard cross them; a Rope left on a pit lets "
                 "anyone cross."),
    "BG-LOS": N_("Line of sight: straight, stopped by walls, closed portcullises, face-down rooms and the first "
                 "character met."),
    "BG-ABIL": N_("Abilities: permanent ones cost nothing, activated ones 1 AP; a wounded character has none."),
    "BG-VP": N_("VP: 1 per enemy eliminated, 1 per own character out (Goblin 2), 1 for the Treasure carried out."),
    "BG-END": N_("End: once a player reaches the target (5 VP by default), the turn is finished and the player with "
                 "more VP wins; equal VP is a draw."),
    "BG-OPT": N_("Options: timers (2 minutes a turn; 5 seconds for a combat card, else +0), a higher VP target, the "
                 "beginner game (6 rooms), handicaps."),
    "BG-CHAR": N_("Characters: see help WA, help TH, ... for each one's movement, combat value and abilities."),
    "BG-OBJ": N_("Objects: see help AR, help RP, ... for each one's effect."),
    "PR-CORE": N_("Prison's core rules: the base set's, with adjacency cut by walls, closed portcullises and arrow "
                  "slits; from the start zone only the room in front may be revealed."),
    "PR-SLIT": N_("Arrow slits: a wall for moving, fighting, healing and revealing; sight passes through one only "
                  "for a figure standing beside it (so it can be one-way). The Naga slips through."),
    "PR-LOS": N_("Line of sight (Prison): straight, over pits and objects, stopped by persons, walls, closed "
                 "portcullises, and by a slit unless the viewer stands beside it."),
    "PR-CHAR": N_("Prison characters: see help NG, help BS, help CO, ... for each one's values and abilities."),
    "PR-OBJ": N_("Prison objects: see help KY, help BW, help LN, ... for each one's effect."),
    "PR-OPT": N_("Prison options: timers as in the base set; a VP target of 5, 6 or 7; handicaps."),
    "PD-CHAR": N_("Paladins & Dragons characters: see help RD, help ES, help GH, help GO, help IL, help PA, help PP, "
                  "help WM for each one's values and abilities."),
    "PD-OBJ": N_("Paladins & Dragons objects: see help RG, help FH, help CH, help DS (the Key and the Treasure as "
                 "elsewhere)."),
    "PD-TERR": N_("Paladins & Dragons terrain: fog ~~~ (no line of sight enters it, nobody in it is targeted), "
                  "Rockfall ^^^ (kills whoever enters it without a shield, flyers and the Ghost excepted, and "
                  "whoever stops there), crevasse vvv (flyers, the Ghost, a Rope or a jump cross it; nobody "
                  "stops), obstacle [X] (only flyers and the Ghost cross it), Fountain of Youth (Y) (a wounded "
                  "neighbour drinks: healed), Pentacle <*> (1 VP to the only colour on it, if one of its "
                  "characters there is unwounded)."),
    "PD-GLOS": N_("Glossary: magic users read scrolls (Wizard, Illusionist); the Ghost is undead; 3D obstacles block "
                  "moves and sight."),
    "PD-ROPE": N_("The Rope crosses one obstacle square at a time (pit or crevasse), straight or at a right angle."),
    # TRANSLATORS: the Card Game's families (CG-...): "help cards", "help AS", "help KY"... are commands, and DT-205,
    # DT-206, DT-207 the project's rulings, all typed as they are; AP: action points, VP: victory points
    "CG-COMP": N_("Components (Card Game): 12 room cards in 6 colour pairs, 4 zones each, 9 open/broken portcullis "
                  "cards, scenario cards; per player an action wheel, 25 characters, 13 objects of 10 kinds, combat "
                  "cards +0 +1 +2 +2 +3 +3 +4 +5 +6, 3 jump cards, a broken-walls card. Combat and jump cards are "
                  "always in hand, never drawn."),
    "CG-ZONE": N_("Zones (Card Game): a room card has 4 zones, 2 x 2 (triangle, square, circle, rotation zone), which "
                  "play the part of squares; two zones sharing a side are adjacent unless a wall, an arrow slit, a "
                  "closed portcullis or a pit lies on their border (a double wall is one wall)."),
    "CG-SLIT": N_("Arrow slits (Card Game): a wall for moving, revealing, fighting and healing; only the Snake-man and "
                  "the Ghost pass through. A character in a zone the slit borders sees, shoots and lance-attacks "
                  "through it; a slit farther along stops sight (so it can be one-way)."),
    "CG-GOLD": N_("Golden rules (Card Game): an action is finished before the next; at the end of an action a zone "
                  "holds at most 3 characters of each player, wounded and carried ones included (a start-zone "
                  "position counts as a zone); a character carries one object or one wounded character (Paladin 2); "
                  "any number of objects may lie in a zone; nothing is diagonal."),
    "CG-TURN": N_("Turn (Card Game): add 3 AP to your action wheel (the first player's very first turn: 2), then spend "
                  "some, all or none, 1 AP an action, shared freely among your characters; at most 3 unused AP are "
                  "kept, so a turn never has more than 6."),
    "CG-AP": N_("AP (Card Game): revealing, moving, rotating a quarter turn, jumping, using an activated ability or "
                "object, starting a melee or a ranged combat cost 1 AP each; only unwounded characters act."),
    "CG-START": N_("Start zones (Card Game): a character on its start zone stands in front of one of the 2 rooms and "
                   "faces one of its zones. For 1 movement point each it enters the faced zone, if that zone touches "
                   "the start zone across a border it could cross in a move (DT-205), turns to face another zone, or "
                   "moves in front of the other room; coming back onto its own start zone costs 1 and faces the zone "
                   "it left."),
    "CG-REVEAL": N_("Reveal (Card Game, 1 AP): a figure with direct access (from the start zone, the room in front; in "
                    "the maze, its zone touches the room with no wall, closed portcullis, pit or arrow slit on its "
                    "side) turns the room over without entering it; the active player places its cards, at most one "
                    "per zone, except his own objects, which the opponent places last."),
    "CG-MOVE": N_("Move (Card Game, 1 AP): up to Movement steps, each into an adjacent zone; friends and wounded "
                  "characters are crossed freely; a zone with an unwounded enemy may be entered, but left that turn "
                  "only by the border it was entered by (not for flyers and the Ghost). Pits only with a Rope, or for "
                  "the Elf Scout, the Thief, flyers and the Ghost."),
    "CG-ITEM": N_("Objects (Card Game): during a move, for no extra AP, a character picks up and drops objects of "
                  "either colour where it passes, and gives, takes or swaps objects and wounded characters with the "
                  "friends it meets, as many exchanges as it likes at each place (DT-206); a move of 0 zones may do "
                  "just that. Activated objects cost 1 AP."),
    "CG-ROT": N_("Rotate (Card Game, 1 AP a quarter turn): a figure in a rotation zone turns its room, or the revealed "
                 "twin, each in the direction of its own arrow (the Mechanork chooses); 1 AP never turns two rooms, "
                 "there is no turning back, and what is in the room keeps its zone."),
    "CG-EXIT": N_("Exits (Card Game): a character entering the opponent's start zone leaves the maze: 1 VP (Goblin 2); "
                  "its object is discarded (the Treasure scores 1 VP), a wounded friend it carries is saved (no VP). "
                  "Nobody stays on the opponent's start zone; your own may be entered, held and left."),
    "CG-BLOCK": N_("Blocking (Card Game): an unwounded character on its own start zone stops every enemy, flyers and "
                   "the Ghost included, from exiting from the zone it faces; exits from the other zones stay open, and "
                   "a wounded character blocks nothing."),
    "CG-JUMP": N_("Jump (Card Game, a jump card and 1 AP): from a zone across a pit on its border into the zone "
                  "beyond, which must hold no unwounded enemy (never from or onto a start zone, DT-207). Each player "
                  "has 3 jump cards, spent when used; then a combat card other than +0, shown and discarded, stands in "
                  "for one."),
    "CG-COMBAT": N_("Combat (Card Game, 1 AP): attack an enemy, unwounded or wounded, in your zone; each side adds its "
                    "combat values and one secret combat card; the losers are wounded (a wounded loser is eliminated: "
                    "1 VP); a tie does nothing. Played cards are discarded, except +0; a character wounded this turn "
                    "cannot be attacked again this turn."),
    "CG-WOUND": N_("Wounded (Card Game): face down, no action and no abilities (unless its power says so), combat 0, "
                   "still plays a card when attacked; it keeps its object, which anyone passing may take or swap; "
                   "eliminated, it leaves its object in the zone. Anyone may enter and leave its zone."),
    "CG-CARRY": N_("Carrying (Card Game): friends carry a wounded character like an object; if the carrier loses a "
                   "combat, the carried one is eliminated (1 VP to the opponent) and the carrier is wounded."),
    "CG-GROUP": N_("Group combat (Card Game): every unwounded character of both players in the zone takes part, for 1 "
                   "AP in all; each side sums its values and plays one card, and the whole losing side is wounded. A "
                   "wounded character takes part only as the target, its friends there defending it."),
    "CG-SZ": N_("Start-zone combat (Card Game): a character on its start zone fights in melee with enemies in the "
                "zone it faces, attacking or attacked, unless a wall, arrow slit, pit or closed portcullis lies "
                "between; the other side is in a room, and all the unwounded characters in that zone and on the start "
                "zone facing it take part."),
    "CG-LOS": N_("Line of sight (Card Game): straight along a row or column of zones, never diagonal; stopped by "
                 "walls, closed portcullises and any zone with a character between; it passes objects, pits, rotation "
                 "zones, open or broken portcullises and broken walls, and an arrow slit only on the border of the "
                 "viewer's own zone."),
    "CG-RANGED": N_("Ranged combat (Card Game, 1 AP): the Crossbowman (3, once a turn) or a Bow carrier (1) shoots a "
                    "character it has a line of sight to, from a zone of the maze holding neither its target nor an "
                    "unwounded enemy, and faced by no unwounded enemy from its start zone (DT-294); the shooter is "
                    "never wounded. The attacking side's other shooters and its "
                    "characters in the target's zone join; the target's friends there defend only if an attacker is "
                    "there."),
    "CG-TUT1": N_("Tutorial 1 (movement): 2 room pairs (blue and green arrows); each player a Mechanork, a Snake-man, "
                  "a Rope, a Key and 3 jump cards, no combat; the first to take both characters out (2 VP) wins."),
    "CG-TUT2": N_("Tutorial 2 (melee): 3 random room pairs laid 3 by 2; each player a Snake-man, a Warrior, a "
                  "Colossus, a Backstabber, a Rope, a Key, jump and combat cards; the rooms now hide characters too; "
                  "the first to 3 VP wins."),
    "CG-TUT3": N_("Tutorial 3 (ranged combat): 4 random room pairs laid 4 by 2, 2 cards a room; each player a "
                  "Crossbowman, a Wizard, a Snake-man, a Mechanork, a Warrior, a Cleric, a Rope, a Key, a Bow and a "
                  "Large Shield; the first to 4 VP wins."),
    "CG-SCEN": N_("Scenarios (Card Game): the scenario card gives the VP target, the room pairs, the teams and the "
                  "cards per room; the standard one: 4 pairs, 6 characters and 4 objects a player, 2 of them on the "
                  "start zone, 2 cards a room, 5 VP. The first to reach the target wins at once."),
    "CG-SEL": N_("Team selection (Card Game): mutual choice (in turn one shows a character and both take it), full "
                 "frontal (each chooses in secret) or draft (in turn each takes one of his characters, and the "
                 "opponent's matching one leaves the game); then the objects the same way, the other player starting."),
    "CG-VP": N_("VP (Card Game): 1 per character out (Goblin 2), 1 per enemy eliminated, +1 for a Treasure carried "
                "out, +1 per undead eliminated in a combat where a Paladin fights on the winning side; every "
                "elimination scores for the opponent of the victim's owner."),
    "CG-END": N_("End (Card Game): the first player to reach the scenario's VP target wins at once, without finishing "
                 "the turn (unlike the board game)."),
    "CG-OPT": N_("Options (Card Game): timers (2 minutes a turn, AP beyond 3 lost; 5 seconds to place the revealer's "
                 "objects, else he places them; 5 seconds for a combat card, else +0); secret objects (nobody sees "
                 "what enemies carry nor looks under an enemy's wounded card)."),
    "CG-HCAP": N_("Handicap (Card Game, scenarios of 5 VP or more): after the selection the stronger player secretly "
                  "leaves out 2 to 4 characters, and maybe his +6 or his +5 and +6, by the levels' table; 2 characters "
                  "still start on his start zone."),
    "CG-CHAR": N_("Card Game characters (25): help cards lists their movement and combat; at a card-game table, "
                  "help AS, help SN, ... gives each one's powers."),
    "CG-OBJ": N_("Card Game objects (10 kinds): help cards lists them; at a card-game table, help KY, help LN, ... "
                 "gives each one's rules."),
    "CG-EX": N_("Worked examples (Card Game): CG-EX-01 to CG-EX-11 in the rules reference go through the action wheel, "
                "facing, reveals, movement, exchanges, blocking, group combat, line of sight, ranged combat, handicap "
                "and the Telescopic Lance, with exact numbers."),
}


def goal_box(intro: list[str]) -> Laid:
    """A game's introduction (names.scenario_intro: its goal, a tutorial's or scenario's new rules) as the help box
    shows it when the game starts, and `help goal` again."""
    # TRANSLATORS: under a game's goal and new rules, in the help box as the game starts; Esc is the key, `help goal`
    # the command, typed as it is
    box = Laid("\n".join([*intro, "", _("(Esc closes this box; help goal shows it again.)")]))
    box.goal = True
    return box


def verb_summary(verb: str, cards: bool = False) -> str:
    """What an action's verb does, short, beside it in Tab's menu: its help's meaning up to its first parenthesis,
    semicolon or colon ("move a figure", "hide a token face down in a room"); "" for a word that is no verb."""
    known = (CARD_VERBS if cards else VERBS).get(verb)
    return re.split(r" \(|;|:", _(known[2]), maxsplit=1)[0].strip() if known else ""


def help_text(topic: str = "", *, at_table: bool = False, game: str = "board", view: dict | None = None,
              seat: str | None = None, legal: list[str] | None = None, set_name: str | None = None) -> Laid:
    """`_help_text`, which the help box lays out for the terminal's width (wrap.Laid): its command lists and legends
    in two columns, every line broken at spaces with a hanging indent."""
    return Laid(_help_text(topic, at_table=at_table, game=game, view=view, seat=seat, legal=legal,
                           set_name=set_name))


def _help_text(topic: str = "", *, at_table: bool = False, game: str = "board", view: dict | None = None,
               seat: str | None = None, legal: list[str] | None = None, set_name: str | None = None) -> str:
    """The text of `help TOPIC` (the general help without a topic); an action verb as the table's game ("board" or
    "cards", as a view names it) writes it, its example fitted to the game and to the `seat` asking (`view`: the
    table's), with one of the seat's `legal` actions of that verb, if any, as an example valid now. `set_name`: the
    table's set (its view's), whose room pairs `help build`, `help pick` and `help pairs` list (every set's without
    one)."""
    topic = topic.strip()
    if not topic:
        commands = GAME_COMMANDS if at_table else LOBBY_COMMANDS
        if game == "cards":
            commands = tuple(HELP_ENTRY_CARDS if entry.startswith("help TOPIC ") else entry for entry in commands)
        return "\n".join(entries(_(entry)) for entry in commands)
    lower = topic.lower()
    if lower in ("cards", "card game") or (lower == "board" and game == "cards"):
        return cards_help()
    if lower == "board":
        return entries(_(BOARD_LEGEND) + "\n" + _(BOARD_LEGEND_PALADINS))
    # (`help`'s last line: play-test pl31 asked so; `help key` is the Key, play-test pl33 in a Prison game)
    if lower in ("keys", "keyboard") and at_table:
        return _(KEYS_HELP)
    if lower in TERRAIN_TOPICS:
        return _help_text("PD-TERR")
    if lower in ("pairs", "pair") and game != "cards":
        return _pairs_help(set_name)
    if lower == "goal" and at_table:
        intro = scenario_intro(view)
        return "\n".join(intro) if intro else _help_text("rules", game=game)  # (the Card Game's scenario card has none)
    if lower == "rules":
        # TRANSLATORS: the header of `help rules`, above the list of rule families (BG-COMP, BG-GEO, ...); "help ID"
        # is the command, typed as it is
        # (an overview first: it was only a list of 80 rule families, with no word of the game: play-test pt29)
        overview = CARD_RULES_OVERVIEW if game == "cards" else RULES_OVERVIEW
        overview = _(overview)  # (not `_(... if ... else ...)`, which Babel would extract "cards" from)
        if game != "cards":  # (what scores otherwise in the set played: review mix30)
            overview = overview.format(exceptions=scoring_exceptions(set_name))
        return (overview + "\n\n" + _("Rule families (help ID, or a full rule ID like BG-MOVE-09):") + "\n"
                + ", ".join(rule_families()))
    verbs = CARD_VERBS if game == "cards" else VERBS
    if lower in verbs:
        syntax, rule, meaning = verbs[lower]
        legal = list(legal or ())
        if lower == "team":  # the one syntax with words around its notation; the others are typed
            syntax = team_example(view, seat, legal)
        elif lower == "build" and (built := build_example(view)) is not None:
            syntax = built
        else:
            length = (view or {}).get("length") if game == "cards" else None  # (rooms: 2 ranks of zones each)
            syntax = for_seat(syntax, seat, 2 * length if type(length) is int else None)
            if game == "cards":
                syntax = own_cards_example(lower, view, seat) or syntax
        if game == "cards" and lower in ("hide", "seed") and (view or {}).get("scenario"):
            rule = "CG-SCEN-02"  # a scenario sets up "as in the tutorials": its own rule (play-test pl31)
        # TRANSLATORS: `help move`: {verb} the action's verb, {meaning} what it does, {syntax} how to type it, {rule}
        # its rule ID (BG-MOVE); "help {rule}" is the command, typed as it is
        text = _("{verb}: {meaning}\n  {syntax}\n  rules: {rule} (help {rule})").format(
            verb=lower, meaning=_(meaning), syntax=syntax, rule=rule)
        now = next((action for action in legal if action.split(" ", 1)[0] == lower), None)
        if now is not None and now not in syntax.split("  |  ") and not syntax.startswith(now + "  "):
            # TRANSLATORS: the end of `help move` when the player may play that verb now: {action} one of his legal
            # actions, typed as it is (move bWA c5)
            text += "\n  " + _("now, for example: {action}").format(action=now)
        if game != "cards" and lower in ("build", "pick"):  # the room pairs a team building offers (pt22 F6)
            text += "\n" + _pairs_help(set_name)
        build = (view or {}).get("build")
        if game != "cards" and lower == "build" and isinstance(build, dict):
            # what else the build chooses from, after the pairs: at 60 x 20 the panel's lines of them were cut
            # below its rows, out of reach, and `help build` (which scrolls) had only the pairs (i18n32)
            from .panel import build_choices  # (not imported for --help)

            text += "".join("\n" + line for line in build_choices(build, skip=("pairs",)))
        return text
    lines = _command_lines(lower)
    if lines:
        return entries("\n".join(lines))
    words = CARD_WORD_TOPICS if game == "cards" else WORD_TOPICS
    if " ".join(lower.split()) in words:
        return rule_help(words[" ".join(lower.split())])
    if re.match(r"^[A-Za-z]{2}(-[A-Za-z0-9]+)+$", topic):
        return rule_help(topic.upper())
    if game == "cards":  # the Card Game's own characters and objects: other values, other rules
        found = _card_kind_help(topic)
        if found:
            return found
        # TRANSLATORS: `help` on an unknown topic at a card table; the commands (help cards, ...) stay as they are
        return _("no help on {topic}; try: help cards, help MK, help rope, help move, help CG-MOVE").format(
            topic=repr(topic))
    # TRANSLATORS: `help` on an unknown topic; the commands (help board, ...) stay as they are
    return _kind_help(topic) or _("no help on {topic}; try: help board, help WA, help rope, help move, "
                                  "help BG-MOVE").format(topic=repr(topic))


def for_seat(example: str, seat: str | None, ranks: int | None = None) -> str:
    """An action's example as the `seat` asking types it: Yellow's tokens for Blue's and Blue's for Yellow's
    (`hide yRP A2`, `face yMK:T ySN:C`), Yellow's start zone for Blue's (`Y1^`) and, given the board's `ranks` (a
    card game's zones: 2 a room), each zone seen from Yellow's side (`Y1^a4 a3` for `B1^a1 a2` on 4 ranks); Blue's,
    and a spectator's, as written. (A play-test's Yellow read `help hide` as `hide bRP A2`, a token he may not
    hide.)"""
    if seat != "Y":
        return example
    example = re.sub(r"\b([by])(?=[A-Z]{2})", lambda match: "y" if match[1] == "b" else "b", example)
    if ranks:
        example = re.sub(r"\b([a-h])([1-9][0-9]?)\b", lambda match: f"{match[1]}{ranks + 1 - int(match[2])}", example)
    return re.sub(r"\bB([12])(?=\^)", r"Y\1", example)


def own_cards_example(verb: str, view: dict | None, seat: str | None) -> str | None:
    """`help hide`, `help seed` and `help face` at a card table, with the seat's own cards (as its view shows them)
    in place of the first tutorial's Mummy and Snake-man: the start characters to hide among those in hand, an
    object (else a character) in hand to seed, the hidden start characters to face. None where the view has no
    such cards (the fixed example then). A play-test (pl31) read `hide bMK:1 bSN:2` in a standard scenario whose
    team had neither."""
    if verb not in ("hide", "seed", "face") or seat not in ("B", "Y") or not isinstance(view, dict):
        return None
    own = seat.lower()

    def ids(key: str, where: str) -> list[str]:
        cards = view.get(key)
        return [card["id"] for card in cards if isinstance(card, dict) and card.get("where") == where
                and isinstance(card.get("id"), str) and card["id"].startswith(own)] if isinstance(cards, list) else []

    if verb == "hide" and len(held := ids("figures", "hand")) >= 2:
        return f"hide {held[0]}:1 {held[1]}:2"
    if verb == "seed" and (held := ids("items", "hand") + ids("figures", "hand")):
        return f"seed {held[0]} C"
    if verb == "face" and len(start := ids("figures", "start")) >= 2:
        return f"face {start[0]}:T {start[1]}:C"
    return None


def build_example(view: dict | None) -> str | None:
    """`help build`'s example at a table building its teams (PD-TEAM-FREE): each part's first values as the view
    offers them (pairs of this game's sets, its characters and objects), which make a build the engine takes; None
    elsewhere. A play-test (pt28b) copied the fixed example, of pairs and characters its Prison and P&D game did not
    have, and was refused."""
    parts = ((view or {}).get("build") or {}).get("parts")
    if not parts:
        return None
    try:
        return "build " + " ".join(f"{part['name']}={','.join(part['values'][:part['count']])}" for part in parts)
    except (KeyError, TypeError):  # (a server's view of another form: the fixed example)
        return None


BASE_TEAM = ("TH", "WA", "TR", "GB")
"""The base game's example of a team (BG-SETUP-04)."""


def team_example(view: dict | None, seat: str | None, legal: list[str]) -> str:
    """`help team`'s example, one the seat may type at its table: its first team choice when it is choosing
    (`legal`), else a team of its game's size on its own marked squares, of its scenario's characters (PR-SCEN-1-03:
    2 of the 4 squares) or its set's; and, when every marked square takes a character, the same team by its
    characters only (in square order). A play-test read the base game's four characters in a Prison scenario."""
    teams = [text for text in legal if text.startswith("team ")]
    if teams:
        team = teams[0]
        squares = {word.split("=", 1)[0] for text in teams for word in text.split()[1:] if not word.startswith("out=")}
        every_square = len(squares) == len([word for word in team.split()[1:] if not word.startswith("out=")])
    else:
        view = view or {}
        cat = catalogue(view.get("set"))
        rows = view.get("rows")
        rank = (rows * 5 + 1 if type(rows) is int else 21) if seat == "Y" else 0
        squares = [f"{chr(ord('a') + number - 1)}{rank}" for number in cat.board["start_squares"]]
        scenario = cat.scenarios.get(view.get("scenario") or "")
        if scenario is not None:
            characters, size = list(scenario["characters"][seat or "B"]), scenario["start"]
        else:
            characters = list(BASE_TEAM) if set(BASE_TEAM) <= set(cat.characters) else list(cat.characters)
            size = len(squares)
        size = min(size, len(characters), len(squares))
        team = "team " + " ".join(f"{square}={code}" for square, code in zip(squares, characters[:size]))
        every_square = size == len(squares)
    if not every_square:  # a team of some of the squares names them (`team MK NG` could be any two)
        return team
    short = "team " + " ".join(word.split("=", 1)[1] for word in team.split()[1:] if not word.startswith("out="))
    # TRANSLATORS: how to type the team: {team} (team b0=TH d0=WA g0=TR i0=GB) and {short} (team TH WA TR GB) are
    # commands, typed as they are; translate only the words around them
    return _("{team}  (or: {short}, in square order)").format(team=team, short=short)


def _pairs_help(set_name: str | None) -> str:
    """The room pairs of the set (every set's without one), a line each with where it comes from and what its rooms
    have (names.pair_lines), under a title."""
    # TRANSLATORS: the title of the list of room pairs in `help build`; pairs= is typed as it is
    return "\n".join([_("Room pairs (pairs=..., pick NUMBER): the set, and what the two rooms have"),
                      *pair_lines(set_name)])


MORE_LOBBY_COMMANDS = (
    # TRANSLATORS: as the lobby's command list; shown by `help create`, `help chat` or `help ignore` only (the
    # list fits 24 rows without them)
    N_("create prison-1..prison-5 [timers] [private]     a Prison introductory scenario: it imposes rooms, teams "
       "and VP (help PR-SCEN)"),
    N_("chat                                             the chat so far (PgUp/PgDn scroll it, Esc closes it)"),
    N_("ignore NAME                                      hide NAME's chat for this run of dt-client (unignore "
       "NAME shows it again; ignore alone lists them)"),
)
"""Commands' lines that `help COMMAND` gives but the lobby's list, which fits a 24-row terminal, leaves out."""


def _command_lines(word: str) -> list[str]:
    """The lines of the lobby's and the table's command lists that describe the command `word` (`help leave`)."""
    return [line for entry in (*LOBBY_COMMANDS, *MORE_LOBBY_COMMANDS, *GAME_COMMANDS)
            if entry.split(" ", 1)[0] == word for line in _(entry).splitlines()]


CARDS_LEGEND = (
    # TRANSLATORS: the first line of `help cards`, the Card Game's legend (CG: the Card Game's rule IDs)
    N_("The Card Game (CG rules): rooms are cards of 2 x 2 zones, Yellow's start zone at the top, Blue's at the "
       "bottom."),
    # TRANSLATORS: part of `help cards`, a symbol a line: the symbols stay as they are, each followed by two spaces
    # or more (the client sets the explanations in a column that fits the terminal)
    N_("A zone:\n"
       " ▲ c3 yBW    its icon (▲ triangle ■ square ● circle, ↻ ↺ the rotation zone and its arrow), its name, "
       "the objects on its floor\n"
       " bMK+RP ysn  the characters in it (+RP: what one carries; lower-case: wounded; bMK*: in a crowded zone, it "
       "carries something: look ZONE says what)"),
    # TRANSLATORS: part of `help cards`, a symbol a line: the symbols stay as they are, each followed by two spaces
    # or more
    N_("Borders:\n"
       " │ ─         wall\n"
       " ║ ═         closed portcullis\n"
       " ╎ ╌         open portcullis\n"
       " ╱           broken portcullis\n"
       " ┊ ┈         arrow slit\n"
       " ≈           pit\n"
       " ░           a face-down room\n"
       " ▒           not known yet (a face-down room beside it)\n"
       " bKY Y       the cards laid face down beside a room, by id when they are yours, else by colour"),
    # TRANSLATORS: part of `help cards`: yWZ→b7 is a symbol of the board, as it is shown
    N_("Start zones: yWZ→b7 a character and the zone it faces, yWZ→▲ the icon it points at a face-down room (R the "
       "rotation zone); \"2 face down\" while the teams are hidden."),
    # TRANSLATORS: part of `help cards`: the actions (hide bMK:1 bSN:2, seed bKY C, ...) stay exactly as typed;
    # translate only the words in parentheses and the first line; keep the lines short (the client breaks a longer
    # one at a space, maybe inside an action); AP: action points
    N_("Each turn 3 AP on your action wheel (3 kept at most). Actions (Tab completes them):\n"
       "  hide bMK:1 bSN:2 (secret)   seed bKY C\n"
       "  face bMK:T bSN:C (secret)   reveal bMK C   place bKY c4\n"
       "  move bMK B1^a1 a2   rotate bMK A cw   jump bMK b3\n"
       "  open bMK c3 n   attack bWA ySN   shoot bCB yMK\n"
       "  levitate bTK bKY b2 a2 >bMK (the Telekinetic)\n"
       "  move bSN b1 >bMK +bRP (exchanges: as many as you like)\n"
       "  card 3 (secret, in a combat)   end"),
    # TRANSLATORS: part of `help cards`; VP: victory points
    N_("Tutorials: 1 movement (2 VP), 2 melee (3 VP), 3 line of sight and ranged combat (4 VP)."),
    # TRANSLATORS: part of `help cards`: the command (create cards standard mutual|full|draft), the words timers and
    # secret (options typed as they are), +@yMK and the rule IDs stay as they are
    N_("A full game: create cards standard mutual|full|draft (5 VP). Options: timers (2 minutes a turn, "
       "CG-OPT-01/02), secret (the other player's objects unseen: +@yMK takes what yMK carries, CG-OPT-03)."),
)
"""The Card Game's legend and actions (`help cards`), paragraph by paragraph."""


def cards_help() -> str:
    """The Card Game's legend, actions and characters and objects (engine/cards/data/cards.json)."""
    from dungeon_twister.engine.cards.catalogue import load

    cat = load()
    # the names are translated as names.KIND_NAMES marks them, the Card Game's own as card_kind_name says
    people = ", ".join(f"{c.code} {card_kind_name(c.name)} ({c.move}/{c.combat})" for c in cat.characters.values())
    things = ", ".join(f"{o.code} {card_kind_name(o.name)}" for o in cat.objects.values())
    # TRANSLATORS: the end of `help cards`: {characters} lists the Card Game's characters as "WA Warrior (3/3)"
    # (code, name, movement/combat)
    characters = _("Characters (move/combat): {characters}").format(characters=people)
    # TRANSLATORS: the end of `help cards`: {objects} lists the Card Game's objects as "SW Sword" (code, name)
    objects = _("Objects: {objects}").format(objects=things)
    return "\n".join([*(entries(_(part)) for part in CARDS_LEGEND), characters, objects])


CARD_RULES = {"AS": "ASSASSIN", "BK": "BACKSTABBER", "BE": "BERSERK", "CL": "CLERIC", "CO": "COLOSSUS",
              "CB": "CROSSBOW", "DA": "DARKANGEL", "EL": "ELF", "GE": "GENERAL", "GH": "GHOST", "GB": "GOBLIN",
              "GO": "GOLEM", "MK": "MECHANORK", "SN": "SNAKEMAN", "PA": "PALADIN", "PP": "PICKPOCKET",
              "SA": "SAMURAI", "WZ": "WIZARD", "TK": "TELEKIN", "TP": "TELEPATH", "TH": "THIEF", "TR": "TROLL",
              "WW": "WALLWALKER", "WA": "WARRIOR", "WM": "WMASTER",
              "AR": "ARMOR", "BW": "BOW", "FB": "FIREBALL", "IS": "INVERSION", "KY": "KEY", "LN": "LANCE",
              "RP": "ROPE", "SH": "SHIELD", "SW": "SWORD", "TS": "TREASURE"}
"""The Card Game's kinds -> the name in their rule IDs (CG-CHAR-ASSASSIN-01, CG-OBJ-ARMOR-01)."""


def _card_kind_help(topic: str) -> str | None:
    """`help CO` at a card-game table: the Card Game's kind (engine/cards/data), its values and its rules (their
    text when the rulebook is at hand, as `help ID` gives it)."""
    from dungeon_twister.engine.cards.catalogue import load  # (not imported for --help)

    cat = load()
    wanted = topic[1:] if re.match(r"^[by][A-Z]{2}$", topic) else topic
    for kinds, family in ((cat.characters, "CG-CHAR"), (cat.objects, "CG-OBJ")):
        for code, kind in kinds.items():
            if wanted.upper() != code and wanted.lower() != kind.name.lower():
                continue
            if family == "CG-CHAR":
                # TRANSLATORS: `help CO` at a card-game table: {name} the character's name, {code} its code,
                # {movement} and {combat} its values in the Card Game
                head = _("{name} ({code}), Card Game: movement {movement}, combat {combat}").format(
                    name=card_kind_name(kind.name), code=code, movement=kind.move, combat=kind.combat)
            else:
                # TRANSLATORS: `help RP` at a card-game table: {name} the object's name, {code} its code
                head = _("{name} ({code}), Card Game object").format(name=card_kind_name(kind.name), code=code)
            prefix = f"{family}-{CARD_RULES.get(code, code)}-"
            texts = {rule: text for rule, text in rule_texts().items() if rule.startswith(prefix)}
            if texts:
                return "\n".join([head] + [f"  {rule} {text}" for rule, text in texts.items()])
            # TRANSLATORS: the rules of a Card Game kind when the rulebook is not at hand; help {rule} stays as typed
            return head + "\n  " + _("rules: {rule} (help {rule})").format(rule=prefix + "01")
    return None


SETS = ("base_set", "prison", "paladins")
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
    return ["board", "cards", "rules", "goal", "pairs", *dict.fromkeys([*VERBS, *CARD_VERBS]), *characters, *objects, *names,
            *RULES]


def _kind_help(topic: str) -> str | None:
    characters, objects = _kinds()
    wanted = topic[1:] if re.match(r"^[by][A-Z]{2}$", topic) else topic
    for code, kind in characters.items():
        if wanted.upper() == code or wanted.lower() == kind.name.lower():
            # the kind's name is translated (names.KIND_NAMES); the English one is what `help` accepts as typed
            # TRANSLATORS: `help WA`: {name} the character's name, {code} its code (WA), {movement} and {combat} its
            # values; VP: victory points
            lines = [_("{name} ({code}): movement {movement}, combat {combat}, {vp} VP when it leaves the maze")
                     .format(name=_(kind.name), code=code, movement=kind.move, combat=kind.combat, vp=kind.exit_vp)]
            if kind.move == 0:  # the Red Dragon: his "1 VP when it leaves the maze" he never scores (review pd32)
                # TRANSLATORS: `help RD`, the Red Dragon's first line: {name} his name, {code} RD, {movement} 0 and
                # {combat} his values; he never walks out, and carried out wounded he is saved for no VP (the rule IDs
                # stay as they are)
                lines = [_("{name} ({code}): movement {movement}, combat {combat}; he never leaves the maze by himself "
                           "(PD-CHAR-DRAGON-03), and carried out wounded he is saved, for no VP (BG-CARRY-05)")
                         .format(name=_(kind.name), code=code, movement=kind.move, combat=kind.combat)]
            for ability in sorted(kind.abilities):
                text = KIND_ABILITIES.get((code, ability)) or ABILITIES.get(ability)
                lines.append(f"  {_(text) if text else ability}")
                lines += [f"    {example}" for example in _verb_examples([ability], code)]
            return "\n".join(lines)
    for code, kind in objects.items():
        if wanted.upper() == code or wanted.lower() == kind.name.lower():
            features = [*sorted(kind.abilities), *([f"use:{kind.use}"] if kind.use else []),
                        *(["ranged"] if kind.ranged else [])]
            return "\n".join([f"{_(kind.name)} ({code}): " + joined(_object_effects(kind)),
                              *(f"  {example}" for example in _verb_examples(features))])
    # a word of a kind's name (`help staff`, `help shield`: play-test pl33 read "no help on 'staff'"): the kinds
    # whose name has it, each as its whole name gives it
    named = [kind.name for kind in (*characters.values(), *objects.values())
             if " " not in topic.strip() and topic.strip().lower() in re.split(r"[ -]", kind.name.lower())]
    if named and len(topic.strip()) > 2:
        return "\n\n".join(_kind_help(name) or "" for name in sorted(named))
    return None


def _verb_examples(features, code: str | None = None) -> list[str]:
    """The commands that these features of a kind (its abilities, an object's use) give, as `help VERB` writes them,
    with the character's own code in them: a play-test could not find that the Colossus's Bend bars is `break`, the
    Banshee's Shockwave `push`, the Golem's Break walls `smash` (`help CO` named no command, `help bend` had no
    help, and Tab offers a verb only when it has a target). Commands are the same in every language."""
    from dungeon_twister.engine.boardgame.notation import feature_verbs

    wanted = {verb for feature in features for verb in feature_verbs(feature)}
    return ["  |  ".join(re.sub(r"\bb[A-Z]{2}\b", f"b{code}", example, count=1) if code else example
                         for example in syntax.split("  |  "))
            for verb, (syntax, _rule, _meaning) in VERBS.items() if verb in wanted]  # in `help`'s order: open, close


def _object_effects(kind) -> list[str]:
    effects = []
    if kind.attack_bonus:
        # TRANSLATORS: an object's effect (help SW): {bonus} is added to its carrier's combat value
        effects.append(_("+{bonus} combat when its carrier attacks").format(bonus=kind.attack_bonus))
    if kind.defend_bonus:
        effects.append(_("+{bonus} combat when its carrier is attacked").format(bonus=kind.defend_bonus))
    if kind.rope:
        effects.append(_("its carrier crosses and stands on pits; left on a pit, anyone may cross it (BG-PIT)"))
    if kind.use == "fireball":
        # TRANSLATORS: an object's effect (help FB); AP: action points
        effects.append(_("1 AP, Wizard only: kills the first character in a line of sight, then is discarded"))
    if kind.use == "teleport":
        effects.append(_("1 AP: its carrier teleports to an empty floor square of a room beside his, then it is "
                         "discarded (PD-OBJ-RING)"))
    if kind.use == "charm":
        effects.append(_("1 AP, magic users only: an enemy figure of the same room acts 3 times for you this turn, "
                         "then it is discarded (PD-OBJ-CHARM)"))
    if kind.use == "drink":
        effects.append(_("1 AP: the drinker gets {ap} more AP this turn, then it is discarded")
                       .format(ap=kind.extra_ap))
    if kind.exit_vp:
        # TRANSLATORS: an object's effect (help TR); VP: victory points
        effects.append(_("+{vp} VP when carried out of the maze").format(vp=kind.exit_vp))
    effects += [_(OBJECT_ABILITIES[ability]) for ability in sorted(kind.abilities) if ability in OBJECT_ABILITIES]
    return effects or [_("no effect in play")]


OBJECT_ABILITIES = {
    # TRANSLATORS: what carrying an object lets a figure do, as `help KY` shows it: the rule IDs stay as they are;
    # AP: action points
    "key": N_("1 AP: its carrier opens or closes a portcullis beside it, as often as it likes (PR-OBJ-KEY, "
              "PD-OBJ-KEY)"),
    "bow": N_("1 AP: its carrier shoots the first person on a line of sight, fighting with 1, never wounded "
              "(PR-OBJ-BOW, PR-RANGED)"),
    "lance": N_("1 AP: its carrier attacks a person 2 free squares away in a line, never wounded; it breaks if its "
                "side loses (PR-OBJ-LANCE)"),
    "shield": N_("its carrier can never be the target of a shot (PR-OBJ-SHIELD-01); it crosses Rockfall safely "
                 "(PD-TERR-ROCKFALL-03)"),
    "fire_shield": N_("fireballs and dragon fire spare its carrier; it crosses Rockfall safely (PD-OBJ-FIRESHIELD)"),
    "dragon_slayer": N_("+4 combat against a dragon, and a dragon it beats dies at once (PD-OBJ-SLAYER)"),
}


def rule_help(rule_id: str) -> str:
    """The rule's own text when the rulebook is at hand, and the summary of its family (the longest key of RULES
    that is the ID or a prefix of it up to a dash, so CG-SZ-01 is CG-SZ's, never CG-S...'s); for a family with no
    summary (Prison's PR-RANGED, PR-SCEN...), the rulebook's rules of that family."""
    family = next((prefix for prefix in sorted(RULES, key=len, reverse=True)
                   if rule_id == prefix or rule_id.startswith(prefix + "-")), None)
    summary = labelled(family, _(RULES[family])) if family else None
    texts = rule_texts()  # the rulebook's English text
    text = texts.get(rule_id)
    if text:
        return f"{rule_id} {text}" + (f"\n\n{summary}" if summary else "")
    members = [f"{rule} {texts[rule]}" for rule in texts if rule.startswith(rule_id + "-")]
    if summary is None and members:
        return "\n".join(members)
    # TRANSLATORS: `help` on a rule ID of no known family; "help rules" is the command, typed as it is
    return summary or _("no summary of {rule}; help rules lists the rule families").format(rule=rule_id)


def rule_families() -> list[str]:
    """The families `help ID` explains: those with a summary (RULES), then those of the rulebooks at hand that
    have none (Prison's PR-COMP, PR-RANGED..., P&D's PD-TEAM), in the rulebooks' order."""
    families = list(RULES)
    for rule in rule_texts():
        family = "-".join(rule.split("-")[:2])
        if family not in families and not any(family.startswith(known + "-") for known in RULES):
            families.append(family)
    return families


def rules_file() -> Path | None:
    """The board game's rulebook: $DT_RULES_FILE, the shared reference of a checkout, or the client's own copy."""
    configured = os.environ.get(RULES_FILE_VARIABLE)
    for path in ([Path(configured)] if configured else []) + [RULES_FILE_IN_CHECKOUT, RULES_FILE_BUNDLED]:
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
    return {rule: MARKDOWN.sub(r"\1", DIFF_TAG.sub("", SOURCE_TAGS.sub("", text))).strip()
            for rule, text in texts.items()}
