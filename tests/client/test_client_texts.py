"""The client's words: help topics, events in plain words, the side panel, the message bar and command parsing."""

from __future__ import annotations

import pytest

from dungeon_twister.protocol import TableOptions
from dungeon_twister.client import help as client_help
from dungeon_twister.client.commands import UsageError, describe_square, parse_table_options
from dungeon_twister.client.describe import describe_event
from dungeon_twister.client.messages import message_bar, prompt_label
from dungeon_twister.client.panel import CLOCK_ALERT_SECONDS, game_panel
from dungeon_twister.client.state import ClientState, Refusal, SecretChoice

from client_fixtures import seat_view
from tests.engine.builders import position_text


def text_of(fragments) -> str:
    return "".join(text for _, text in fragments)


def seated(position: str, seat: str = "B") -> ClientState:
    state = ClientState("ann", table="t-1", seat=seat)
    state.view = seat_view(position, seat, table={"id": "t-1", "target_vp": 6, "timers": True})
    return state


# --- help -------------------------------------------------------------------------------------------------
def test_help_on_characters_and_objects_comes_from_the_catalogue():
    warrior = client_help.help_text("WA")
    assert warrior.startswith("Warrior (WA): movement 3, combat 3") and "BG-CHAR-WARRIOR" in warrior
    assert client_help.help_text("thief") == client_help.help_text("bTH")
    assert "+1 combat when its carrier attacks" in client_help.help_text("sword")
    assert "4 more AP" in client_help.help_text("SP")


def test_PR_CHAR_WIZARD_02_help_on_the_wizard_names_prisons_fireball_staff_too():
    """A review (pr27): `help WZ` in a Prison game said the Wizard alone uses the Fireball Wand, while Prison's
    fireball object is the Fireball Staff (PR-CHAR-WIZARD-02); help is the same for every set's Wizard (one code).
    Review rv28b: the `charm` example printed under that line read as a use of the wand; the line names
    Paladins & Dragons' scrolls too (PD-GLOS-01: a spellcaster reads them)."""
    wizard = client_help.help_text("WZ")
    assert wizard.startswith("Wizard (WZ): movement 4, combat 1")
    assert ("Spellcaster: the only one who can use the Fireball Wand, in Prison the Fireball Staff; in Paladins & "
            "Dragons he reads the scrolls, as the Illusionist does (BG-CHAR-WIZARD-03, PR-CHAR-WIZARD-02, "
            "PD-GLOS-01)") in [
        line.strip() for line in wizard.splitlines()]


def test_PD_GLOS_03_help_on_the_wizard_says_what_he_flies_over_in_paladins_and_dragons():
    """Play-test pt28b: `help WZ` said he flies over pits and enemies, and the player took his route through the
    Fountain for a bug (PD-GLOS-03: flyers cross 3D obstacles; PD-TERR-ROCKFALL-04: Rockfall spares them)."""
    levitation = client_help.help_text("WZ").splitlines()[1].strip()
    assert levitation.startswith("Levitation: flies over pits and enemy characters while moving (BG-CHAR-WIZARD-01)")
    assert "3D obstacles such as the Fountain" in levitation and "(PD-GLOS-03, PD-TERR-ROCKFALL-04)" in levitation


def test_PD_TEAM_FREE_01_help_build_at_a_table_gives_an_example_of_this_games_choices_that_is_taken():
    """Play-test pt28b: `help build` in a Prison and Paladins & Dragons game gave the fixed example (pair 3, TH, WA,
    SP, SW), which that game does not have: copied as is, refused. At a table building its teams, the example is
    made of the view's offer (each part's first values), and the engine takes it (PD-TEAM-FREE-01/02)."""
    from dungeon_twister.engine import Options, apply, new_game, parse_action, view

    state = new_game(Options(set_name="prison_paladins", teams="free"), 3)
    seen = view(state, "B")
    text = client_help.help_text("build", at_table=True, view=seen, seat="B")
    example = text.splitlines()[1].strip()
    assert example == "build pairs=37,38 characters=AS,BS,CL,CO,ES,GH,GO,IL objects=BW,CH,DS,FH,FS,KY"
    apply(state, parse_action(example, "B"))  # (taken: no IllegalAction)
    assert "pairs=3,41" in client_help.help_text("build"), "away from such a table: the fixed example"


def test_PD_CHAR_help_on_the_paladins_and_dragons_characters_and_objects():
    """Found by a play-test: `help RD`, `help PA`... answered "no help on 'RD'", and `help PD-CHAR` sends the
    player to exactly those topics. The Paladins & Dragons catalogue is one of `help`'s sets now."""
    dragon = client_help.help_text("RD")
    assert dragon.startswith("Red Dragon (RD): movement 0, combat 6") and "PD-CHAR-DRAGON-01" in dragon
    assert client_help.help_text("red dragon") == dragon == client_help.help_text("yRD")
    assert "PD-CHAR-PALADIN" in client_help.help_text("PA") and "PD-CHAR-GHOST-01" in client_help.help_text("GH")
    assert "PD-OBJ-SLAYER" in client_help.help_text("DS") and "PD-OBJ-RING" in client_help.help_text("RG")
    for code in ("ES", "GO", "IL", "PP", "WM", "FH", "CH"):  # every code help PD-CHAR and PD-OBJ name
        assert not client_help.help_text(code).startswith("no help"), code
    assert "RD" in client_help.topics() and "ring of teleportation" in client_help.topics()


def test_PD_CHAR_GHOST_02_06_PD_OBJ_KEY_01_help_cites_the_ghosts_and_the_keys_own_rules():
    """Review pd32: `help GH` said the Ghost is "Undead (PR-CHAR-BANSHEE-09)", the Banshee's rule, in a game where
    Prison may not even be in use; it is PD-CHAR-GHOST-06 (and PD-GLOS-02 says what undead means). It also said he
    stops on no character, where PD-CHAR-GHOST-02 lets him end on a wounded friend. `help KY` named Prison's Key
    only, where a Paladins & Dragons game plays PD-OBJ-KEY-01 (the engine's refusals cite it). The Banshee keeps
    her own rule."""
    ghost = client_help.help_text("GH")
    assert "Undead (PD-CHAR-GHOST-06, PD-GLOS-02)" in ghost and "PR-CHAR-BANSHEE" not in ghost
    assert "but a wounded friend (PD-CHAR-GHOST-01/02)" in ghost
    assert "Undead (PR-CHAR-BANSHEE-09)" in client_help.help_text("BS")
    assert "(PR-OBJ-KEY, PD-OBJ-KEY)" in client_help.help_text("KY")


def test_CG_MOVE_help_at_a_card_table_points_to_the_card_games_rules_not_the_board_games():
    """Play-test: at a card table `help` offered `help BG-MOVE, help BG-COMBAT-07` and an unknown topic answered
    "try: ... help BG-MOVE", which explained the board game's moves (connected squares, the Thief): no BG rule
    applies there. The card table's help names the Card Game's examples, each of which has a help text."""
    listing = client_help.help_text("", at_table=True, game="cards")
    assert "help CG-MOVE, help CG-COMBAT-02" in listing and "BG-" not in listing
    assert "help BG-MOVE" in client_help.help_text("", at_table=True)  # a board table's as before
    unknown = client_help.help_text("Seil", at_table=True, game="cards")
    assert unknown == "no help on 'Seil'; try: help cards, help MK, help rope, help move, help CG-MOVE"
    for example in ("cards", "MK", "rope", "move", "CG-MOVE", "CG-COMBAT-02"):
        assert not client_help.help_text(example, at_table=True, game="cards").startswith("no help"), example
    assert client_help.help_text("CG-MOVE", game="cards").startswith("CG-MOVE: Move (Card Game")


def test_CG_CHAR_help_at_a_card_table_gives_the_card_games_kinds_and_legend():
    """Found by a play-test: at a card-game table `help CO` gave the board game's Colossus (movement 2; the Card
    Game's moves 1 zone, as `help cards` lists it), `help SN` and `help BK` (tutorial 2's characters) had no help,
    and `help board` drew the board game's legend. At a card table they are the Card Game's now, with its rules
    (their text when the rulebook is at hand)."""
    colossus = client_help.help_text("CO", at_table=True, game="cards")
    assert colossus.startswith("Colossus (CO), Card Game: movement 1, combat 5")
    assert "CG-CHAR-COLOSSUS-01" in colossus and "PR-CHAR" not in colossus
    assert client_help.help_text("CO").startswith("Colossus (CO): movement 2, combat 5")  # at a board table
    assert "CG-CHAR-SNAKEMAN-01" in client_help.help_text("SN", game="cards")
    assert "CG-CHAR-BACKSTABBER-01" in client_help.help_text("backstabber", game="cards")
    assert client_help.help_text("bRP", game="cards").startswith("Rope (RP), Card Game object")
    assert client_help.help_text("board", at_table=True, game="cards") == client_help.help_text("cards")
    from dungeon_twister.engine.cards.catalogue import load

    cat = load()
    assert set(client_help.CARD_RULES) == set(cat.characters) | set(cat.objects)  # every kind has its rules' name


def test_CG_SCEN_02_help_hide_in_a_scenario_cites_the_scenario_and_the_seats_own_characters():
    """Play-test pl31 item 9: in the standard scenario, `help hide` cited the tutorial's CG-TUT1-04 and its example
    `hide bMK:1 bSN:2`, of a Mummy and a Snake-man the team did not have. A scenario sets up "as in the tutorials"
    by CG-SCEN-02, which `help hide` and `help seed` cite there; the examples of hide, seed and face are the
    seat's own cards (Yellow's for Yellow). The edges: tutorial 1 keeps CG-TUT1-04, and away from a table the
    fixed example stays."""
    from dungeon_twister.engine.cards import CardOptions, apply, legal_actions, new_game, view

    state = new_game(CardOptions(None, "standard", "mutual"), 3)
    while state.phase == "select":
        state, _ = apply(state, legal_actions(state)[0])
    for seat in ("B", "Y"):
        seen = view(state, seat)
        in_hand = [f["id"] for f in seen["figures"] if f["where"] == "hand"]
        assert "MK" not in "".join(in_hand) and "SN" not in "".join(in_hand), in_hand
        text = client_help.help_text("hide", at_table=True, game="cards", view=seen, seat=seat)
        assert text.splitlines()[1].strip() == f"hide {in_hand[0]}:1 {in_hand[1]}:2", text
        assert "rules: CG-SCEN-02 (help CG-SCEN-02)" in text and "TUT1" not in text and "MK" not in text
        assert "rules: CG-SCEN-02" in client_help.help_text("seed", at_table=True, game="cards", view=seen, seat=seat)
    assert "rules: CG-TUT1-04" in client_help.help_text("hide", at_table=True, game="cards",
                                                        view=view(new_game(CardOptions(1), 3), "B"), seat="B")
    assert "hide bMK:1 bSN:2" in client_help.help_text("hide", game="cards")
    while state.phase != "face":
        state, _ = apply(state, legal_actions(state)[0])
    seen = view(state, "Y")
    start = [f["id"] for f in seen["figures"] if f.get("where") == "start"]
    face = client_help.help_text("face", at_table=True, game="cards", view=seen, seat="Y")
    assert face.splitlines()[1].strip() == f"face {start[0]}:T {start[1]}:C", face


def test_help_keys_at_a_table_gives_the_screens_keys():
    """Play-test pl31, on an 80 x 24 terminal where the board does not fit: `help keys` answered "no help on
    'keys'", and the keys (PageUp/PageDown scroll the board) were only the last line of a `help` longer than the
    screen. At a table `help keys` gives that line; in the lobby, whose screen has no board, there is no such help."""
    keys = client_help.help_text("keys", at_table=True)
    assert keys.startswith("Keys: Tab complete") and "PageUp/PageDown scroll the board" in keys
    assert client_help.help_text("KEYS", at_table=True, game="cards") == keys
    assert client_help.help_text("", at_table=True).endswith(keys), "still the last line of `help`"
    assert client_help.help_text("keys").startswith("no help on 'keys'")


def test_PR_SLIT_BG_EXIT_help_on_a_word_of_the_rules_or_of_a_kinds_name_answers():
    """Play-test pl33, a newcomer to Prison, asked `help slit`, `help exit`, `help escape`, `help portcullis`,
    `help prison` and `help staff`, and read "no help on ..." each time; `help key` gave the keyboard's keys, not
    the Key. A word of the rules answers with its rule family (the Card Game's own at a card table), a word of a
    kind's name with that kind (with each kind whose name has it); the keyboard is `help keys`."""
    for word, family in (("slit", "PR-SLIT"), ("arrow slits", "PR-SLIT"), ("exit", "BG-EXIT"), ("Escape", "BG-EXIT"),
                         ("portcullis", "BG-TERR"), ("prison", "PR-CORE"), ("line of sight", "BG-LOS")):
        assert client_help.help_text(word, at_table=True).startswith(family + ": "), word
    for word, family in (("slit", "CG-SLIT"), ("exit", "CG-EXIT"), ("wheel", "CG-TURN")):
        assert client_help.help_text(word, at_table=True, game="cards").startswith(family + ": "), word
    assert client_help.help_text("staff") == client_help.help_text("FS")
    assert client_help.help_text("key", at_table=True) == client_help.help_text("KY")
    assert client_help.help_text("shield") == client_help.help_text("FH") + "\n\n" + client_help.help_text("SH")
    assert client_help.help_text("keys", at_table=True).startswith("Keys: Tab complete")
    assert client_help.help_text("of").startswith("no help on 'of'"), "no word of two letters or fewer"


def test_PR_CHAR_COLOSSUS_01_help_on_a_kind_names_the_command_of_each_ability():
    """Found by a play-test: `help CO` said "Bend bars (1 AP): destroys an adjacent ... portcullis" and no command,
    `help bend` had no help, and Tab offers `break` only where a portcullis is at hand: the player could not find
    that Bend bars is `break`, the Banshee's Shockwave `push` (PR-CHAR-BANSHEE), the Golem's Break walls `smash`
    (PD-CHAR-GOLEM). Each ability that is a command shows it now under its line, with the kind's own code, and an
    object's command under its effects; an ability that is none (Giant) and the Sword have no such line."""
    colossus = client_help.help_text("CO").splitlines()
    assert colossus[1].startswith("  Bend bars (1 AP)") and colossus[2] == "    break bCO n"
    assert colossus[3].startswith("  Giant:") and len(colossus) == 4
    assert "    push bBS yWZ" in client_help.help_text("BS").splitlines()
    assert "    smash bGO e" in client_help.help_text("GO").splitlines()
    assert "    breathe bRD n" in client_help.help_text("RD").splitlines()
    assert "    mind +3  |  mind none" in client_help.help_text("TP").splitlines()
    thief = client_help.help_text("TH")
    assert thief.index("    open bTH e") < thief.index("    close bTH e")  # help's order
    assert client_help.help_text("BW").splitlines()[1] == "  shoot bCL yMK  |  shoot bCL yMK +bNG"
    assert client_help.help_text("RG").splitlines()[1] == "  teleport bRD c7"
    assert client_help.help_text("SW") == "Sword (SW): +1 combat when its carrier attacks"


def test_every_command_a_kinds_help_names_is_one_the_engine_reads_and_the_kind_gives():
    """The command lines of every kind's help: each reads back as written, and its verb is one that the kind's
    own abilities (or the object's use) bring to a game, not another kind's."""
    from dungeon_twister.engine.boardgame.notation import feature_verbs, format_action, parse_action

    characters, objects = client_help._kinds()
    for code, kind in {**characters, **objects}.items():
        features = set(kind.abilities)
        if code in objects:
            features |= {f"use:{kind.use}"} if kind.use else set()
            features |= {"ranged"} if kind.ranged else set()
        indent = "    " if code in characters else "  "
        commands = [line[len(indent):] for line in client_help.help_text(code).splitlines()[1:]
                    if line.startswith(indent) and not line.startswith(indent + " ")]
        for example in (example for line in commands for example in line.split("  |  ")):
            assert any(example.split()[0] in feature_verbs(feature) for feature in features), (code, example)
            assert format_action(parse_action(example, "B")) == example, (code, example)


def test_help_on_verbs_boards_and_unknown_topics():
    assert "move bTH g6 +yRP" in client_help.help_text("move")
    assert "closed portcullis" in client_help.help_text("board")
    assert client_help.help_text("xyz").startswith("no help on 'xyz'")
    assert "create [vp=5..8]" in client_help.help_text() and "look SQUARE" in client_help.help_text(at_table=True)


def test_CG_TUT1_04_help_on_a_verb_at_a_card_table_is_the_card_games():
    """`help hide` at a card-game table gave the board game's hiding in rooms (hide bRP A2, BG-SETUP-05): the Card
    Game's verbs have their own help, whose every example its notation reads back as written, one per verb."""
    from dungeon_twister.engine.cards import notation

    hide = client_help.help_text("hide", at_table=True, game="cards")
    assert "hide bMK:1 bSN:2" in hide and "CG-TUT1-04" in hide and "start zone" in hide
    assert "hide bRP A2" in client_help.help_text("hide", at_table=True) and "BG-SETUP-05" in client_help.help_text("hide")
    assert "CG-SEL-MUTUAL-01" in client_help.help_text("pick", game="cards")
    assert "PD-TEAM-MUTUAL" in client_help.help_text("pick")
    assert set(client_help.CARD_VERBS) == set(notation.VERBS)
    for verb, (syntax, rule, _meaning) in client_help.CARD_VERBS.items():
        assert rule.startswith("CG-")
        for example in syntax.split("  |  "):
            words = example.split()
            seat = words[1][0].upper() if len(words) > 1 and words[1][0] in "by" else "B"
            assert example.split()[0] == verb and notation.format_action(notation.parse_action(example, seat)) == example


def _example(help_text: str) -> str:
    """The example line of a verb's help (its second line), without its short form in parentheses."""
    return help_text.splitlines()[1].strip().split("  (")[0]


@pytest.mark.parametrize("scenario", ["prison-1", "prison-2", "prison-3"])
@pytest.mark.parametrize("seat", ["B", "Y"])
def test_PR_SCEN_BG_SETUP_04_help_team_gives_a_team_the_seat_may_choose_in_its_scenario(scenario, seat):
    """Play-test 21b: `help team` in a Prison scenario gave the base game's team (4 characters, TH WA TR GB), which
    the scenario refuses (PR-SCEN-1-03: 2 of the 4 marked squares, its own characters), and Yellow's gave Blue's
    squares. The example is now one of the seat's team choices in that scenario's team step (its legal list), and
    the short form by characters only, which would match several choices there, is left out unless every marked
    square takes one; while choosing, it is the seat's first choice itself."""
    from dungeon_twister.engine import Options, legal_texts, new_game, view

    state = new_game(Options(set_name="prison", scenario=scenario), 1)
    choices = legal_texts(state, seat)
    seen = view(state, seat)
    later = client_help.help_text("team", view=seen, seat=seat, legal=[])  # after the team step: no legal team
    assert _example(later) in choices
    assert ("(or: team " in later) == (len(choices[0].split()) == 5), "the short form only for a team on 4 squares"
    now = client_help.help_text("team", view=seen, seat=seat, legal=choices)
    assert _example(now) == choices[0] and "now, for example" not in now


def test_BG_SETUP_help_examples_are_the_asking_seat_s_and_one_legal_now_is_named():
    """Play-test 21b: Yellow's `help hide` read `hide bRP A2` (Blue's Rope, which Yellow may not hide) and his
    `help face` at a card table `face bMK:T bSN:C`. The examples are the asking seat's (BG-SETUP-05, CG-START-02),
    a card game's zones seen from Yellow's side; a spectator's and Blue's are as before; and where the seat may
    play that verb now, one of its legal actions is named as an example valid now."""
    from dungeon_twister.engine import Options, legal_texts, new_game, view
    from dungeon_twister.engine.cards import CardOptions
    from dungeon_twister.engine.families import FAMILIES

    base = new_game(Options(), 1)
    assert _example(client_help.help_text("hide", view=view(base, "Y"), seat="Y")) == "hide yRP A2"
    assert _example(client_help.help_text("hide", view=view(base, "B"), seat="B")) == "hide bRP A2"
    assert _example(client_help.help_text("hide")) == "hide bRP A2"
    assert client_help.help_text("team") == client_help.help_text("team", view=view(base, "B"), seat="B")
    yellow_team = client_help.help_text("team", view=view(base, "Y"), seat="Y")
    assert _example(yellow_team) in legal_texts(base, "Y") and "(or: team TH WA TR GB, in square order)" in yellow_team
    cards = FAMILIES["cards"]
    state = cards.new_game(CardOptions(1), 1)
    while state.phase != "face":  # the start characters hidden, the objects seeded: the facing (CG-START-02)
        seat = state.to_act[-1]
        state, _ = cards.apply(state, cards.legal_actions(state, seat)[0])
    seen = cards.view(state, "Y", False)
    face = client_help.help_text("face", game="cards", view=seen, seat="Y", legal=[])
    assert _example(face) == "face yMK:T ySN:C" and _example(face) in cards.legal_texts(state, "Y")
    assert "now, for example" not in face
    moving = client_help.help_text("move", game="cards", view={**seen, "length": 4}, seat="Y")
    assert _example(moving).startswith("move yMK Y1^a8 a7  |"), "Blue's B1^a1 a2 seen from the top of 8 ranks"
    legal = ["end", "reveal bMK A", "move bMK ^S"]
    move = client_help.help_text("move", game="cards", view=seen, seat="B", legal=legal)
    assert move.splitlines()[-1] == "  now, for example: move bMK ^S"
    assert "now, for example" not in client_help.help_text("rotate", game="cards", view=seen, seat="B", legal=legal)


def test_help_team_at_a_prison_table_is_the_seat_s_through_the_prompt():
    """The `help` command passes the table's view, the seat and its legal actions to the help (the play-test typed
    `help team` as Yellow at a prison-2 table, before and during the team step)."""
    from prompt_toolkit.output import DummyOutput

    from dungeon_twister.client.ui import ClientUI
    from dungeon_twister.engine import Options, legal_texts, new_game
    from dungeon_twister.protocol import Joined, Snapshot
    from dungeon_twister.server.viewing import ViewPoint, table_view
    from test_client_prompt import TABLE, WiredSession

    state = new_game(Options(set_name="prison", scenario="prison-2"), 1)
    wired = WiredSession()
    wired.session.join(TABLE, "Y")
    wired.sent()
    wired.deliver(Joined(TABLE, "token", "Y"))
    wired.deliver(Snapshot(TABLE, 0, table_view(ViewPoint(state, {"B": "bot", "Y": "ann"}, {"id": TABLE}, True), "Y")))
    ui = ClientUI(wired.session, output=DummyOutput())
    ui.commands.run("help team")
    assert _example(str(wired.session.state.help_text)) == legal_texts(state, "Y")[0] == "team b11=CO d11=MK"


def test_help_on_a_command_gives_its_lines_from_the_lobby_and_the_table():
    """`help leave` used to answer "no help on 'leave'": a command's own lines (laid out for the box's width)."""
    assert client_help.help_text("leave").startswith("leave ") and "resign" in client_help.help_text("leave")
    reconnect = client_help.help_text("reconnect").splitlines()
    assert len(reconnect) == 2 and reconnect[1].endswith("itself while the server holds the seat)")
    # the board's create, the card game's and a Prison scenario's (`help create` only: the lobby's list is long)
    created = [line for line in client_help.help_text("create").splitlines() if line.startswith("create")]
    assert len(created) == 3 and "create prison-1..prison-5" in client_help.help_text(
        "create") and "prison-1" not in client_help.help_text()


def test_help_on_a_rule_quotes_the_rulebook_when_present(tmp_path, monkeypatch):
    rules = tmp_path / "board-game.md"
    rules.write_text("- **BG-MOVE-09** A figure may not enter a square\n  holding an enemy figure. {IT ES}\n")
    monkeypatch.setenv(client_help.RULES_FILE_VARIABLE, str(rules))
    client_help.rule_texts.cache_clear()
    try:
        text = client_help.help_text("bg-move-09")
    finally:
        client_help.rule_texts.cache_clear()
    assert text.startswith("BG-MOVE-09 A figure may not enter a square holding an enemy figure.\n")
    assert "BG-MOVE: Move (1 AP)" in text


def test_a_quoted_rule_shows_no_markdown_markers():
    """Play-test pt27: `help BG-END-02` quoted "... **[DIFF]** Card game and Prison scenarios 1-4 end at once": the
    rulebook's markdown (bold, and its [DIFF] tag for editors) shown raw in a newcomer's help. The quote keeps the
    sentence and drops the markers; a rule without them is quoted as it is."""
    text = client_help.help_text("BG-END-02")
    assert text.startswith("BG-END-02 When a player reaches the target during a turn")
    assert "**" not in text and "[DIFF]" not in text
    assert "that turn the player with more VP wins. Card game and Prison scenarios 1-4 end at once" in text
    assert client_help.help_text("BG-MOVE-09").startswith("BG-MOVE-09 ")


def test_the_client_carries_the_rules_reference_so_an_installed_client_quotes_rules(monkeypatch):
    """`help BG-MOVE-09` quoted the rule only in a checkout, where the shared reference lies beside the code: an
    installed client (and a clean clone) had only the family summaries, and nothing for the Card Game's families.
    The client carries a copy of the four rulebooks (package data), the same text as the reference when that is at
    hand, and quotes from it when nothing else is found."""
    from pathlib import Path

    bundled = client_help.RULES_FILE_BUNDLED.parent
    names = ["board-game.md", *client_help.SET_RULEBOOKS]
    assert all((bundled / name).is_file() for name in names)
    reference = client_help.RULES_FILE_IN_CHECKOUT.parent
    if reference.is_dir():  # a checkout beside the shared rules: the copy is the reference's text
        assert [(bundled / n).read_text(encoding="utf-8") for n in names] == \
            [(reference / n).read_text(encoding="utf-8") for n in names], "copy ../shared/rules/*.md to client/rules"
    monkeypatch.delenv(client_help.RULES_FILE_VARIABLE, raising=False)
    monkeypatch.setattr(client_help, "RULES_FILE_IN_CHECKOUT", Path("/nonexistent/board-game.md"))
    client_help.rule_texts.cache_clear()
    try:
        assert client_help.help_text("BG-MOVE-09").startswith("BG-MOVE-09 ")
        assert client_help.help_text("CG-ITEM-01", game="cards").startswith("CG-ITEM-01 During a move action")
    finally:
        client_help.rule_texts.cache_clear()


CG_ITEM_SUMMARY = {
    "en": "CG-ITEM: Objects (Card Game): during a move, for no extra AP, a character picks up and drops objects of "
          "either colour where it passes, and gives, takes or swaps objects and wounded characters with the friends "
          "it meets, as many exchanges as it likes at each place (DT-206); a move of 0 zones may do just that. "
          "Activated objects cost 1 AP.",
    "de": "CG-ITEM: Gegenstände (Kartenspiel): bei einer Bewegung nimmt eine Person ohne zusätzliche AP Gegenstände "
          "beider Farben auf und legt sie ab, wo sie vorbeikommt, und gibt, nimmt oder tauscht Gegenstände und "
          "Verwundete mit den Verbündeten, die sie trifft, an jedem Ort so oft sie will (Austausch, DT-206); eine "
          "Bewegung um 0 Zonen darf nur das tun. Aktivierte Gegenstände kosten 1 AP.",
}


def test_help_on_a_card_game_family_gives_its_summary_in_the_player_s_language(tmp_path, monkeypatch):
    """`help CG-ITEM` listed the family's English rules, in every language: the Card Game's families had no summary
    (a play-test). Each has one now, as the board games' do, translated; it follows the project's rulings where they
    differ from the reference (CG-ITEM: exchanges unlimited at each place, DT-206)."""
    from dungeon_twister.client import i18n

    rules = tmp_path / "board-game.md"
    rules.write_text("- **BG-MOVE-09** A figure may not enter a square holding an enemy figure.\n")
    (tmp_path / "card-game.md").write_text("- **CG-ITEM-01** During a move action, a character may pick up.\n"
                                           "- **CG-ITEM-02** A carried object lies under its carrier.\n")
    monkeypatch.setenv(client_help.RULES_FILE_VARIABLE, str(rules))
    client_help.rule_texts.cache_clear()
    try:
        english = client_help.help_text("CG-ITEM", game="cards")
        rule = client_help.help_text("CG-ITEM-02", game="cards")
        i18n.use("de")
        german = client_help.help_text("CG-ITEM", game="cards")
    finally:
        client_help.rule_texts.cache_clear()
    assert english == CG_ITEM_SUMMARY["en"]
    assert german == CG_ITEM_SUMMARY["de"]
    assert rule == "CG-ITEM-02 A carried object lies under its carrier.\n\n" + CG_ITEM_SUMMARY["en"]


def test_every_card_game_family_of_the_rulebook_has_a_summary():
    """Every CG family the rulebook defines (its rules' `- **CG-AREA-NN**` items, and the worked examples'
    `> **CG-EX-NN**`) has its summary, so none falls back to listing English rules."""
    import re

    text = (client_help.RULES_FILE_BUNDLED.parent / "card-game.md").read_text(encoding="utf-8")
    families = set(re.findall(r"^(?:- |> )\*\*(CG-[A-Z0-9]+)-", text, flags=re.MULTILINE))
    assert {"CG-ITEM", "CG-SZ", "CG-SLIT", "CG-SEL", "CG-TUT1", "CG-EX", "CG-CHAR", "CG-OBJ"} <= families
    assert len(families) >= 33, "the parse finds the rulebook's families"
    assert sorted(families - set(client_help.RULES)) == []


def test_a_card_game_rule_finds_its_own_family_among_those_that_share_a_beginning(tmp_path, monkeypatch):
    """CG-SZ, CG-SLIT, CG-SEL, CG-SCEN and CG-START all begin with CG-S: a rule ID takes the summary of the family
    it belongs to, up to a dash (CG-SEL-MUTUAL-01 is CG-SEL's), and an ID the rulebook lacks still gets its
    family's summary."""
    rules = tmp_path / "board-game.md"
    rules.write_text("- **BG-MOVE-09** A figure may not enter a square holding an enemy figure.\n")
    (tmp_path / "card-game.md").write_text("- **CG-SZ-01** A character on its start zone can be attacked.\n"
                                           "- **CG-SLIT-01** An arrow slit separates two zones like a wall.\n"
                                           "- **CG-SEL-MUTUAL-01** Mutual choice (equal forces).\n")
    monkeypatch.setenv(client_help.RULES_FILE_VARIABLE, str(rules))
    client_help.rule_texts.cache_clear()
    try:
        answers = {rule: client_help.help_text(rule, game="cards")
                   for rule in ("CG-SZ-01", "CG-SLIT-01", "CG-SEL-01", "CG-SEL-MUTUAL-01", "cg-scen-02")}
    finally:
        client_help.rule_texts.cache_clear()
    summary = {family: f"{family}: {client_help.RULES[family]}" for family in ("CG-SZ", "CG-SLIT", "CG-SEL", "CG-SCEN")}
    assert summary["CG-SZ"].startswith("CG-SZ: Start-zone combat (Card Game): a character on its start zone fights")
    assert summary["CG-SLIT"].startswith("CG-SLIT: Arrow slits (Card Game): a wall for moving")
    assert summary["CG-SEL"].startswith("CG-SEL: Team selection (Card Game): mutual choice")
    assert answers == {
        "CG-SZ-01": "CG-SZ-01 A character on its start zone can be attacked.\n\n" + summary["CG-SZ"],
        "CG-SLIT-01": "CG-SLIT-01 An arrow slit separates two zones like a wall.\n\n" + summary["CG-SLIT"],
        "CG-SEL-01": summary["CG-SEL"],  # no such rule: the family's summary
        "CG-SEL-MUTUAL-01": "CG-SEL-MUTUAL-01 Mutual choice (equal forces).\n\n" + summary["CG-SEL"],
        "cg-scen-02": summary["CG-SCEN"],
    }


def test_help_on_a_family_without_a_summary_lists_its_rules_and_help_rules_names_it(tmp_path, monkeypatch):
    """In a card game, `help CG-ITEM` answered "no summary of CG-ITEM; help rules lists the rule families", and
    `help rules` listed no CG family (a play-test). A family with no summary of its own (now Prison's PR-RANGED,
    PR-COMP...: every CG family has one) lists its rules from the rulebooks at hand, and `help rules` names it,
    after the families with a summary."""
    rules = tmp_path / "board-game.md"
    rules.write_text("- **BG-MOVE-09** A figure may not enter a square holding an enemy figure.\n")
    (tmp_path / "prison.md").write_text("- **PR-RANGED-01** A figure with a Bow may shoot.\n"
                                        "- **PR-RANGED-02** The shooter is never wounded.\n"
                                        "- **PR-COMP-01** 8 rooms in 4 pairs.\n")
    (tmp_path / "card-game.md").write_text("- **CG-ITEM-01** During a move action, a character may pick up.\n")
    monkeypatch.setenv(client_help.RULES_FILE_VARIABLE, str(rules))
    client_help.rule_texts.cache_clear()
    try:
        family = client_help.help_text("PR-RANGED")
        listed = client_help.help_text("rules").splitlines()[-1].split(", ")  # (after the overview: pt30)
    finally:
        client_help.rule_texts.cache_clear()
    assert family == "PR-RANGED-01 A figure with a Bow may shoot.\nPR-RANGED-02 The shooter is never wounded."
    assert listed[-2:] == ["PR-RANGED", "PR-COMP"] and listed[:2] == ["BG-COMP", "BG-GEO"]
    assert listed.count("BG-MOVE") == 1 and listed.count("CG-ITEM") == 1, "a family with a summary is named once"
    assert listed.index("CG-COMP") < listed.index("CG-EX") < listed.index("PR-RANGED")


def test_PD_TERR_help_board_draws_the_paladins_terrain_and_help_fog_finds_it():
    """Play-test of a Paladins table: `help board` had no legend for ~~~ ^^^ vvv [X] (Y) <*> nor for the illusions,
    and `help fog` answered "no help on 'fog'"; only `help PD-TERR-FOG-01` explained them."""
    legend = client_help.help_text("board")
    for symbol, meaning in (("~~~", "fog"), ("^^^", "rockfall"), ("vvv", "crevasse"), ("[X]", "obstacle"),
                            ("(Y)", "Fountain of Youth"), ("<*>", "Pentacle")):
        assert f" {symbol}         {meaning}\n" in legend, symbol  # (a symbol a line: play-test pt29 F27)
    assert "(b) a pit, [b] rubble" in legend
    for word in ("fog", "Rockfall", "crevasse", "pentacle"):
        assert client_help.help_text(word) == client_help.help_text("PD-TERR"), word
    assert client_help.help_text("PD-TERR").startswith("PD-TERR: Paladins & Dragons terrain: fog ~~~")


def test_help_on_a_rule_without_the_rulebook_gives_the_family_summary(tmp_path, monkeypatch):
    monkeypatch.delenv(client_help.RULES_FILE_VARIABLE, raising=False)
    monkeypatch.setattr(client_help, "RULES_FILE_IN_CHECKOUT", tmp_path / "missing.md")
    monkeypatch.setattr(client_help, "RULES_FILE_BUNDLED", tmp_path / "missing-too.md")
    client_help.rule_texts.cache_clear()
    try:
        assert client_help.help_text("BG-COMBAT-07").startswith("BG-COMBAT: Combat (1 AP)")
    finally:
        client_help.rule_texts.cache_clear()


# --- events -----------------------------------------------------------------------------------------------
def test_BG_ITEM_05_a_moves_line_says_where_what_it_took_or_left_came_from():
    """Found by a play-test: "Yellow Thief moves b12 > c12 > ... > a10 (takes Yellow Rope, leaves Blue Rope on
    a11)": the Blue Rope came from the Goblin on c12 (handed over, BG-ITEM-05), which the event's take and leave do
    not tell. The line says where each token lay before the move (the view before the step), unless the mover
    carried it from its own square."""
    from dungeon_twister.client.inbox import _came_from

    before = {"tokens": [{"id": "yTH", "square": "b12"}, {"id": "yGO", "square": "c12"}, {"id": "bRP", "square": "c12"},
                         {"id": "yRP", "square": "a11"}, {"id": "bSW", "square": "b12"}]}
    moved = {"kind": "moved", "token": "yTH", "route": ["b12", "c12", "b12", "a12", "a11", "a10"], "take": "yRP",
             "leave": [["bRP", "a11"], ["bSW", "a12"]]}
    came = _came_from(before, moved)
    assert came == {"yRP": "a11", "bRP": "c12"}  # bSW lay under the Thief at the start: carried, not picked up
    assert describe_event({**moved, "from": came}) == (
        "Yellow Thief moves b12 > c12 > b12 > a12 > a11 > a10 (takes Yellow Rope from a11, leaves Blue Rope (from "
        "c12) on a11, leaves Blue Sword on a12)")
    assert _came_from(None, moved) == {}  # no view yet: the line as before


def test_RUL_119_a_move_that_ends_on_an_object_says_it_picks_it_up():
    """Play-test: "Yellow Pickpocket moves j18 > j17 > j16" while it picked up Blue's Treasure lying on j16: ending
    a move on a lone object carries it (RUL-119, BG-MOVE-06), and the engine's event does not name it (not a
    `take`), so only the board told. The line now says it, from the view before the step, as every viewer sees
    it; crossing the object, or coming back to the square it began on, picks up nothing."""
    from dungeon_twister.engine import apply, event_view, parse_action, parse_position
    from dungeon_twister.client.inbox import _found_at_end
    from tests.engine.builders import position_text

    position = position_text("bWA@c3 ySW@c4")
    state = parse_position(position)
    _, events = apply(state, parse_action("move bWA c4", "B"))
    for viewer in ("B", "Y"):  # (a spectator's view and event are Yellow's here: nothing is hidden)
        moved = next(event_view(e, viewer) for e in events if e.kind == "moved")
        found = _found_at_end(seat_view(position, viewer), moved)
        assert found == ["ySW"]
        assert describe_event({**moved, "found": found}) == "Blue Warrior moves c3 > c4 (picks up Yellow Sword on c4)"
    _, events = apply(state, parse_action("move bWA c5", "B"))
    crossed = next(event_view(e, "Y") for e in events if e.kind == "moved")
    assert _found_at_end(seat_view(position, "Y"), crossed) == []
    assert _found_at_end(None, crossed) == []


def test_BG_CARRY_01_a_move_that_ends_by_an_enemy_wounded_says_it_picks_up_nothing():
    """Play-test 20: "Yellow Cleric moves f1 > f0 (picks up Blue Telepath on f0)", then left the maze: the
    wounded Telepath stayed on f0, since only its own colour carries it (BG-CARRY-01). A wounded friend lying
    alone there is carried (RUL-119, as an object), an enemy never."""
    from dungeon_twister.engine import apply, event_view, parse_action, parse_position
    from dungeon_twister.client.inbox import _found_at_end
    from tests.engine.builders import position_text

    # (a move may stop on an enemy wounded only where it exits, BG-MOVE-07: Yellow's start zone, rank 21)
    for tokens, to, found in (("bWA@f20 yTH@f21!", "f21", []), ("bWA@c3 bTH@c4!", "c4", ["bTH"])):
        position = position_text(tokens)
        _, events = apply(parse_position(position), parse_action(f"move bWA {to}", "B"))
        moved = next(event_view(e, "B") for e in events if e.kind == "moved")
        assert moved["route"][-1] == to and _found_at_end(seat_view(position, "B"), moved) == found
    assert describe_event(moved | {"found": ["bTH"]}) == "Blue Warrior moves c3 > c4 (picks up Blue Thief on c4)"


def test_BG_REVEAL_06_a_placement_passed_says_whose_objects_the_revealer_places():
    """Play-test: "Yellow leaves his objects to the revealer" after Blue revealed a room holding Blue's Bow: the
    objects were Blue's, whom BG-REVEAL-06 has Yellow place; Yellow passed (or his 5 s ran out), so Blue places
    them himself."""
    assert describe_event({"kind": "placement_passed", "seat": "Y"}) == "Yellow passes: Blue places his own objects"
    assert describe_event({"kind": "placement_passed", "seat": "B"}) == "Blue passes: Yellow places his own objects"


def test_events_in_plain_words():
    moved = {"kind": "moved", "token": "bTH", "route": ["f4", "f5", "g5"], "take": "yRP", "leave": [["bSW", "f5"]]}
    assert describe_event(moved) == "Blue Thief moves f4 > f5 > g5 (takes Yellow Rope, leaves Blue Sword on f5)"
    resolved = {"kind": "combat_resolved", "number": 2, "cards": {"B": 3, "Y": 0}, "attack": 6, "defence": 4,
                "winner": "B"}
    assert describe_event(resolved) == "combat 2: 6 against 4 (Blue +3, Yellow +0): Blue wins"
    # (laid, not "chooses": the event comes after both cards, with the combat's step)
    assert describe_event({"kind": "card_chosen", "seat": "Y"}) == "Yellow has laid a card for the combat"
    assert describe_event({"kind": "eliminated", "token": "yGB", "cause": "pit", "scorer": "B"}) == \
        "Yellow Goblin is eliminated in a pit: 1 VP for Blue"


def test_the_servers_own_events_in_plain_words():
    assert describe_event({"kind": "timeout", "seat": "B", "actions": ["card 2", "end"]}) == \
        "Blue's time ran out: card 2; end"
    assert describe_event({"kind": "timeout", "seat": "Y", "purpose": "combat-3", "actions": ["combat +0"]}) == \
        "Yellow's time ran out for the card for combat 3: combat +0"
    assert describe_event({"kind": "player_joined", "seat": "Y", "name": "bob"}) == "bob sits down as Yellow"
    # DT-236: a choice the server drew for the other seat comes without its actions
    assert describe_event({"kind": "timeout", "seat": "Y", "purpose": "team"}) == \
        "Yellow's time ran out for the starting team: a choice was made for that seat, kept secret"
    # red team rt26: a fallback whose events are its seat's own (a card seeded face down) comes with neither: not
    # "nothing done", which would be untrue; and a fallback that did nothing still says so
    assert describe_event({"kind": "timeout", "seat": "B"}) == \
        "Blue's time ran out: what was played for that seat is kept secret"
    assert describe_event({"kind": "timeout", "seat": "B", "actions": []}) == "Blue's time ran out: nothing done"


def test_DT_091_a_bots_secret_choice_made_again_after_a_restart_is_told_as_the_restarts_not_as_a_clocks():
    """DT-091 (play-test pt24 F5): the `timeout` of a restored bot's lost choice (`why` restart) says what
    happened, the team kept secret, a combat's +0 shown; the edge: a timeout without `why` reads as before."""
    assert describe_event({"kind": "timeout", "seat": "Y", "purpose": "team", "why": "restart"}) == (
        "Yellow's secret choice for the starting team was lost with the server's restart (a bot keeps it in memory "
        "only): "
        "another was made for that seat, kept secret")
    assert describe_event({"kind": "timeout", "seat": "Y", "purpose": "combat-2", "why": "restart",
                           "actions": ["combat +0"]}) == (
        "Yellow's secret choice for the card for combat 2 was lost with the server's restart (a bot keeps it in "
        "memory only): "
        "combat +0 stands for it")
    assert describe_event({"kind": "timeout", "seat": "Y", "purpose": "team"}) == \
        "Yellow's time ran out for the starting team: a choice was made for that seat, kept secret"


def test_hidden_and_view_events_make_no_log_line_and_unknown_ones_are_still_shown():
    assert describe_event({}) is None
    assert describe_event({"kind": "view", "view": {}}) is None
    assert describe_event({"kind": "new_thing", "x": 1}) == "new thing x=1"


# --- panel and messages -----------------------------------------------------------------------------------
def test_panel_shows_table_seats_turn_ap_cards_and_the_clock():
    state = seated(position_text("bWA@c4 yTR@c6", ap=4, cards="B:23/45/0123/2 Y:2345/-/012233456/3"))
    state.timers["B"] = 100.0
    text = text_of(game_panel(state, now=10.0))
    assert "Table t-1  6 VP · timers" in text
    assert "Blue   ann  ← you" in text and "Yellow bob" in text
    assert "Blue's AP left 4" in text and "time left: Blue 1:30" in text
    assert "time left: Blue 0:01" in text_of(game_panel(state, now=99.5))
    assert "time left" not in text_of(game_panel(state, now=100.0)), "run out: no frozen 0:00 (DT-251's wait)"
    assert "action: 2 3 · played 5" in text and "combat: +0 +1 +2 +3" in text and "jumps: 2" in text
    assert "action: 4 in hand" in text and "combat: 9 cards" in text, "the opponent's hand: counts only"
    # an empty hand says so (a play-test saw "action:  · played 2" after the last card of a cycle)
    empty = seated(position_text("bWA@c4 yTR@c6", ap=4, cards="B:-/2345/0/2 Y:2345/-/012233456/3"))
    assert "action: none · played 5" in text_of(game_panel(empty, now=10.0))
    empty.view["players"]["B"]["combat_cards"] = []  # a scenario without combat cards (PR-SCEN-1)
    assert "combat: none" in text_of(game_panel(empty, now=10.0))
    assert "Your move:" in text


def test_the_clocks_last_15_seconds_are_drawn_as_an_alert():
    """Play-test pt28 W1: the `time left` line kept one colour from 2:00 to 0:01. From CLOCK_ALERT_SECONDS (15 s)
    left, it is drawn in the alert's style; the edges: 15.5 s (shown 0:16) is not yet, 15.0 s is; the opponent's
    short clock while he alone acts is shown alike (a spectator or the waiting player sees it run out too)."""
    state = seated(position_text("bWA@c4 yTR@c6", ap=4, cards="B:23/45/0123/2 Y:2345/-/012233456/3"))
    state.timers["B"] = 100.0

    def clock_style(now: float) -> str:
        return next(style for style, text in game_panel(state, now=now) if text.startswith("time left"))
    assert CLOCK_ALERT_SECONDS == 15
    assert clock_style(84.5) == "class:refusal"
    assert clock_style(85.0) == "class:alert"
    assert clock_style(99.5) == "class:alert"
    state.view["active"], state.view["to_act"], state.timers = "Y", ["Y"], {"Y": 100.0}
    assert clock_style(90.0) == "class:alert"


def test_BG_REVEAL_06_the_panel_says_who_places_which_revealed_token():
    """Found by a play-test: after `reveal bTH A1` the panel said "Blue places bFW, yFW", though the revealer
    places every token but the objects of his own colour, which his opponent places (BG-REVEAL-06), and Tab
    offered Blue only yFW. Once the opponent's time ran out the revealer places the rest (BG-OPT-03)."""
    state = seated(position_text("bWA@c4 yTR@c6"))
    state.view = {**state.view, "phase": "place", "placement": {
        "slot": "A1", "revealer": "B", "placer": "B", "tokens": ["bFW", "yFW", "yGO"], "passed": False}}
    assert "Room A1 revealed: Blue places yFW, yGO; Yellow places bFW" in text_of(game_panel(state, 0.0))
    state.view["placement"] = {"slot": "A1", "revealer": "B", "placer": "Y", "tokens": ["bFW"], "passed": False}
    assert "Room A1 revealed: Yellow places bFW\n" in text_of(game_panel(state, 0.0))
    state.view["placement"] = {"slot": "A1", "revealer": "Y", "placer": "Y", "tokens": ["bFW", "yFW", "bGO"],
                               "passed": True}  # Blue's time ran out: Yellow places his own object too
    assert "Room A1 revealed: Yellow places bFW, yFW, bGO\n" in text_of(game_panel(state, 0.0))


def test_PR_RANGED_01_the_combat_panel_of_a_shot_names_its_shooter():
    """Play-test: a Prison shot's panel read "Combat 2: bNG attacks yNG / attackers bAS · defenders yNG": the
    shooter, at a distance, is not among the attackers, and nothing said it was a shot."""
    from dungeon_twister.engine import apply, parse_action
    from dungeon_twister.server.viewing import ViewPoint, table_view
    from tests.engine.prison.builders import prison_position

    state, _ = apply(prison_position("bCL@a16 bBW@a16 bBS@f16 yMK@d16 yNG@e16 yTP@i16", ap=2),
                     parse_action("shoot bCL yMK", "B"))
    client = ClientState("ann", table="t-1", seat="B")
    client.view = table_view(ViewPoint(state, {"B": "ann", "Y": "bob"}, {"id": "t-1"}, True), "B")
    assert client.view["combat"]["shooters"] == ["bCL"] and "bCL" not in client.view["combat"]["attackers"]
    panel = text_of(game_panel(client, 0.0))
    assert "Combat 1: bCL attacks yMK\n  a shot by bCL · defenders yMK\n" in panel


def test_the_panels_result_words_why_the_game_ended():
    """Seen by hand: the panel showed the server's reason as it came ("Draw 0-0 (agreed)", "(resigned)" even in
    German); it words it as the event log does (describe.REASONS), and an unknown one as it comes."""
    state = seated(position_text("bWA@c4 yTR@c6"))
    assert "Turn 5 · spending AP · Blue to act\nBlue's AP left" in text_of(game_panel(state, 0.0))
    state.result = {"winner": None, "vp": {"B": 1, "Y": 0}, "reason": "agreed"}
    panel = text_of(game_panel(state, 0.0))
    # a play-test read "Draw 1-0" as a score, under the turn's "Blue to act, Blue's AP left 3" of a finished game
    assert "Game over: a draw (agreed by both players), VP 1-0" in panel
    assert "Turn 5 · game over\n" in panel and "to act" not in panel and "AP left" not in panel
    state.result = {"winner": "Y", "vp": {"B": 0, "Y": 2}, "reason": "resigned"}
    # the winner's VP first, as a result is read (a play-test read "Yellow wins 2-5" as Yellow's 2)
    assert "Game over: Yellow wins 2-0 (the other player resigned)" in text_of(game_panel(state, 0.0))
    state.result = {"winner": "B", "vp": {"B": 5, "Y": 2}, "reason": "a new reason"}
    assert "Game over: Blue wins 5-2 (a new reason)" in text_of(game_panel(state, 0.0))
    # a game left before its first turn, or by both players, has no winner and is no draw either (a play-test read
    # "Blue wins 0-0" for one left during the team choice; a draw of 0-0 would be as wrong)
    for reason, why in (("aborted", "a player left before the first turn: not rated"),
                        ("abandoned by both", "both players abandoned the game: not rated")):
        state.result = {"winner": None, "vp": {"B": 0, "Y": 0}, "reason": reason}
        assert f"Game over without a winner ({why})" in text_of(game_panel(state, 0.0))
        assert describe_event({"kind": "game_over", **state.result}) == f"game over without a winner ({why})"


def test_BG_END_02_the_panel_says_the_game_ends_with_the_turn_once_the_target_is_reached():
    """Play-test pt27 F4: a newcomer reached 6 VP of 5 with AP left and the panel said only "Your move: spend your
    AP, or end": nothing told him the game goes on to the end of the turn (BG-END-02) and stops then. Once a side
    has the target, the turn's line says so; not below the target, and not once the game is over."""
    scored = "bGB>exited yWZ>eliminated yCL>eliminated yTH>eliminated"  # 2 + 3 VP for Blue
    state = ClientState("ann", table="t-1", seat="Y")
    state.view = seat_view(position_text(f"bWA@c4 yTR@c6 {scored}"), "Y", table={"id": "t-1", "target_vp": 5})
    said = "Blue reached 5 VP: the game ends at the end of this turn, and the side with the most VP wins (BG-END-02)"
    assert said in text_of(game_panel(state, 0.0))
    state.view = seat_view(position_text(f"bWA@c4 yTR@c6 {scored}", options="vp=6"), "Y",
                           table={"id": "t-1", "target_vp": 6})
    assert "BG-END-02" not in text_of(game_panel(state, 0.0)), "(the edge: 5 VP of 6)"
    state.view = seat_view(position_text(f"bWA@c4 yTR@c6 {scored}"), "Y", table={"id": "t-1", "target_vp": 5})
    state.result = {"winner": "B", "vp": {"B": 5, "Y": 0}, "reason": "target reached"}
    assert "BG-END-02" not in text_of(game_panel(state, 0.0)), "over"


def test_a_finished_game_says_how_to_step_through_it_again(tmp_path, monkeypatch):
    """Play-test 21: at a game's end nothing said how to see it again (only the README's "Replays" did). The panel
    gives the command line, with the join code of a private table; for `dt-client play`, whose server goes with
    the client, the record file that server wrote in the client's state directory once it is there (play-test
    pt27 F8), and nothing before."""
    monkeypatch.setenv("DT_CLIENT_STATE_DIR", str(tmp_path))
    state = seated(position_text("bWA@c4 yTR@c6"))
    state.result = {"winner": "Y", "vp": {"B": 0, "Y": 2}, "reason": "resigned"}
    state.server = "dt.example.org:7777"
    assert "to step through this game again: dt-client replay t-1 --server dt.example.org:7777\n" in text_of(
        game_panel(state, 0.0))
    state.join_code = "k3y"
    assert "dt-client replay t-1 --server dt.example.org:7777 --code k3y\n" in text_of(game_panel(state, 0.0))
    state.local = True
    assert "dt-client replay" not in text_of(game_panel(state, 0.0))
    record = tmp_path / "games" / "20261130-160625-t-1.txt"
    record.parent.mkdir()
    record.write_text("game seed=1\n")
    assert f"to step through this game again: dt-client replay {record}\n" in text_of(game_panel(state, 0.0))
    state.local, state.result = False, None
    assert "dt-client replay" not in text_of(game_panel(state, 0.0)), "while the game goes on"


def test_PR_RANGED_02_the_panel_shows_who_each_figure_can_shoot_push_or_attack():
    """From the legal actions: bAS (Bow) shoots the first person on its line, yTP four squares up the file; bBS
    pushes the first person she sees, the same yTP across the file; bMK attacks yNG beside it. yMK, behind yTP,
    is in nobody's reach (PR-LOS-02)."""
    import tests.engine.prison.builders  # noqa: F401  (registers the synthetic Prison rooms)

    text = text_of(game_panel(seated(position_text("bAS@c2 bBW@c2 bBS@f6 bMK@h4 yTP@c6 yMK@c7 yNG@h5",
                                                   set_name="synthetic_prison")), 0.0))
    line = next(line for line in text.splitlines() if line.startswith("Within reach: "))
    assert sorted(line.removeprefix("Within reach: ").split(" · ")) == [
        "bAS shoots yTP", "bBS pushes yTP", "bMK attacks yNG"]
    assert "Within reach" not in text_of(game_panel(seated(position_text("bWA@c4 yTR@c9")), 0.0))


def test_panel_asks_for_the_secret_choice_then_shows_its_progress():
    state = seated(position_text("bWA@c4 yTR@c5", phase="combat", fields="combat 1 bWA>yTR att=bWA def=yTR"))
    assert "Choose in secret (the card for combat 1): type combat" in text_of(game_panel(state, 0.0))
    assert "Combat 1: bWA attacks yTR" in text_of(game_panel(state, 0.0))
    state.secrets["combat-1"] = SecretChoice("combat-1", "combat +3", revealed=True)
    assert "'combat +3'; waiting for the opponent's choice to be shown" in text_of(game_panel(state, 0.0))
    assert prompt_label(state) == "t-1 B combat 1 (secret)> "


def test_CG_TUT1_05_a_round_the_game_went_on_from_is_not_shown_as_waited_for():
    """A card game's hidden start characters: both reveals reach the server at once, but each player's is forwarded
    to the other only when the teams are shown (CG-TUT1-05), several actions later. The panel said "waiting for the
    opponent's reveal" all along, as if the game were stuck; then "'hide ...' revealed", which read as if the
    opponent had been shown it (a play-test): it is the server that has it, until the game shows both."""
    state = seated(position_text("bWA@c4 yTR@c9"))
    assert state.secret_purpose is None  # the game went on
    state.secrets["hide"] = SecretChoice("hide", "hide bAS:1 bCO:2", revealed=True)
    text = text_of(game_panel(state, 0.0))
    assert ("the start characters' places: you chose 'hide bAS:1 bCO:2'; the opponent's choice is shown when the "
            "game shows it, checked to be the one he made before he saw yours") in text and "waiting for" not in text
    assert "revealed" not in text
    state.secrets["hide"].opponent_choice = "hide yAS:1 yBE:2"
    assert "hide bAS:1 bCO:2" not in text_of(game_panel(state, 0.0)), "verified: no longer listed"


def test_BG_COMBAT_03_the_panel_shows_both_totals_before_the_cards_from_the_readers_side():
    """Warrior 3 + Sword 1 attacks Troll 4 + Armor 1: 4 + card vs 5 + card, the attacker first."""
    from dungeon_twister.engine import apply, format_position, parse_action, parse_position

    s = parse_position(position_text("bWA@c4 bSW@c4 yTR@c5 yAR@c5"))
    declared, _ = apply(s, parse_action("attack bWA yTR", "B"))
    blue, yellow = seated(format_position(declared), "B"), seated(format_position(declared), "Y")
    assert "you attack: 4 + card vs Yellow 5 + card" in text_of(game_panel(blue, 0.0))
    assert "Blue attacks: 4 + card vs you 5 + card" in text_of(game_panel(yellow, 0.0))


def test_BG_COMBAT_03_the_panel_says_what_makes_each_total():
    """Play-test pt28b: a combined attack showed its total only, and the players could not tell where a backstab
    or a Sword was. The view's parts (docs/protocol.md section 20) are listed under the totals when a side has more
    than its one fighter's value; the edge: a Warrior alone against a Troll alone shows the totals only."""
    from dungeon_twister.engine import apply, format_position, parse_action, parse_position
    from tests.engine.builders import act
    from tests.engine.prison.builders import prison_position

    s = parse_position(position_text("bWA@c4 bSW@c4 yTR@c5 yAR@c5"))
    declared, _ = apply(s, parse_action("attack bWA yTR", "B"))
    assert "attack: bWA 3, bSW +1 · defence: yTR 4, yAR +1" in text_of(game_panel(
        seated(format_position(declared), "Y"), 0.0))
    plain, _ = apply(parse_position(position_text("bWA@c4 yTR@c5")), parse_action("attack bWA yTR", "B"))
    assert "defence: " not in text_of(game_panel(seated(format_position(plain), "B"), 0.0))
    shot = act(prison_position("bCL@c1 bBW@c1 bAS@b4 yMK@c4 yWZ@c6 yBW@c6 yTP@h5"), "shoot bCL yMK")
    assert "attack: bAS 2, bAS backstab +2, bCL shot 1 · defence: yMK 2" in text_of(game_panel(
        seated(format_position(shot), "B"), 0.0))
    # a side with no part (a wounded defender alone) reads 0, not "defence: " with nothing (review rv29)
    from dungeon_twister.client.names import combat_parts
    assert combat_parts({"attack": [["bWA", "value", 3], ["bSW", "object", 1]], "defence": []}) == (
        "attack: bWA 3, bSW +1 · defence: 0")


def test_PD_OBJ_CHARM_05_DT_117_a_charmed_attackers_odds_are_its_owners():
    """Blue's charmed yellow Mechanork (2) attacks Blue's Goblin (1): Yellow plays the attacking card (DT-117), so
    Yellow's panel says "you attack", Blue's that Yellow attacks him (it took the active player, Blue, as the
    attacker)."""
    from dungeon_twister.engine import format_position
    from tests.engine.builders import act
    from tests.engine.paladins.builders import pd_position

    declared = act(pd_position("bIL@a7 bCH@a7 yMK@c7 bGB@c6 yGB@h4"), "charm bIL yMK", "attack yMK bGB")
    blue, yellow = seated(format_position(declared), "B"), seated(format_position(declared), "Y")
    assert "you attack: 2 + card vs Blue 1 + card" in text_of(game_panel(yellow, 0.0))
    assert "Yellow attacks: 2 + card vs you 1 + card" in text_of(game_panel(blue, 0.0))


def test_BG_COMBAT_04_the_result_is_worded_attacker_first():
    event = {"kind": "combat_resolved", "number": 2, "cards": {"B": 0, "Y": 3}, "attack": 4, "defence": 8,
             "winner": "B", "attacker_seat": "Y"}
    assert describe_event(event) == "combat 2: Yellow attacks with 4 (card +3) against Blue's 8 (card +0): Blue wins"
    tie = {**event, "attack": 8, "winner": None}
    assert describe_event(tie).endswith("against Blue's 8 (card +0): a tie: nothing happens")


def test_ratings_in_plain_words_and_the_leaderboard():
    from dungeon_twister.client.inbox import handle
    from dungeon_twister.protocol import RatingInfo, Ratings

    from test_client_prompt import WiredSession

    event = {"kind": "ratings", "changes": {"B": {"name": "ann", "before": 1500, "after": 1338, "rd": 290},
                                            "Y": {"name": "bob", "before": 1500, "after": 1662, "rd": 290}}}
    assert describe_event(event) == "ratings: Blue ann 1500 → 1338 (±290) · Yellow bob 1500 → 1662 (±290)"
    wired = WiredSession()
    handle(wired.session, Ratings((RatingInfo("bob", 1662, 290, 1), RatingInfo("ann", 1338, 290, 1))))
    board = wired.session.state.help_text.splitlines()
    assert board[0].startswith("Ratings (Glicko-2") and board[3].split() == ["1", "bob", "1662", "290", "1"]
    # a play-test (pt22 F22): the reader's own line unmarked, ±RD unexplained, `ratings dora` the whole board
    me = wired.session.state.name
    handle(wired.session, Ratings((RatingInfo("bob", 1662, 290, 1), RatingInfo(me.upper(), 1338, 290, 1))))
    board = wired.session.state.help_text.splitlines()
    assert board[3].split() == ["1", "bob", "1662", "290", "1"]
    assert board[4].split() == ["►", "2", me.upper(), "1338", "290", "1"]  # (names compared as the server keys them)
    assert board[-1].startswith("±RD: how sure the rating is; the smaller, the surer")
    from dungeon_twister.client.commands import Commands
    from dungeon_twister.protocol import ListRatings

    commands = Commands(wired.session, lambda: None)
    commands.run("ratings BOB")
    assert wired.sent() == [ListRatings(limit=100)]
    handle(wired.session, Ratings((RatingInfo("cy", 1700, 80, 9), RatingInfo("bob", 1662, 290, 1))))
    board = wired.session.state.help_text.splitlines()
    assert [line.split() for line in board[3:-2]] == [["2", "bob", "1662", "290", "1"]]
    commands.run("ratings zed")
    handle(wired.session, Ratings((RatingInfo("cy", 1700, 80, 9),)))
    assert wired.session.state.help_text == "zed has no rated game on this server yet"  # (fewer than asked: all)
    commands.run("ratings zed")
    handle(wired.session, Ratings(tuple(RatingInfo(f"p{i}", 2000 - i, 80, 9) for i in range(100))))
    assert wired.session.state.help_text == "zed is not among the 100 best rated players"
    commands.run("ratings zed")
    handle(wired.session, Ratings(()))  # nobody rated at all: said as for the whole board, and the name forgotten
    assert wired.session.state.help_text.startswith("No rated game yet") and wired.session.state.ratings_for is None
    commands.run("ratings")  # the whole board again
    assert wired.sent()[-1] == ListRatings()
    handle(wired.session, Ratings(()))
    assert wired.session.state.help_text.startswith("No rated game yet")


def test_the_panel_lists_the_game_so_far_compactly():
    from dungeon_twister.client.inbox import handle
    from dungeon_twister.protocol import TableEvent

    from test_client_prompt import TABLE, WiredSession

    wired = WiredSession()
    wired.seat(position_text("bWA@c4 yTR@c9"))
    events = [{"kind": "card_played", "seat": "B", "value": 3},
              {"kind": "moved", "token": "bWA", "route": ["c4", "c5", "d5"], "take": "bRP", "leave": [["bSW", "c5"]]},
              {"kind": "room_rotated", "slot": "A2", "clockwise": False, "by": "bMK"},
              {"kind": "combat_declared", "number": 1, "attacker": "bWA", "target": "yTR"},
              {"kind": "combat_resolved", "number": 1, "attack": 6, "defence": 5, "cards": {}, "winner": "B"},
              {"kind": "turn_ended", "turn": 3, "seat": "B"},
              {"kind": "team_chosen", "seat": "Y"}]  # not an action of the game: not listed
    for n, event in enumerate(events, 1):
        handle(wired.session, TableEvent(TABLE, n, event))
    assert list(wired.session.state.moves) == ["B card 3", "bWA c4-d5 +bRP bSW@c5", "rotate A2 ccw",
                                               "bWA attacks yTR", "6:5", "B end"]
    text = text_of(game_panel(wired.session.state, 0.0))
    assert "Moves B card 3 · bWA c4-d5 +bRP bSW@c5 · rotate A2 ccw · bWA attacks yTR · 6:5 · B end" in text
    for n in range(20):
        handle(wired.session, TableEvent(TABLE, 10 + n, {"kind": "card_played", "seat": "Y", "value": 2}))
    assert "Moves … · Y card 2" in text_of(game_panel(wired.session.state, 0.0)), "the older ones give way"


def test_message_bar_puts_the_alert_first_then_the_refusal_with_its_rule():
    state = ClientState("ann", notice="hello")
    assert text_of(message_bar(state)) == "hello"
    state.refusal = Refusal("move bWA c6", "illegal_action", "yTR stands there", "BG-MOVE-09")
    assert text_of(message_bar(state)) == "refused [BG-MOVE-09]: 'move bWA c6': yTR stands there  (help BG-MOVE-09)"
    state.alert = "CHEATING DETECTED"
    assert text_of(message_bar(state)) == "CHEATING DETECTED"


def test_PR_SCEN_the_client_explains_a_scenario_and_offers_the_playable_ones():
    from dungeon_twister.client import app
    from dungeon_twister.client.names import scenario_intro
    from dungeon_twister.engine import Options, new_game, view
    from dungeon_twister.protocol.msg_lobby import CARD_SCENARIOS, SCENARIOS

    assert app.SCENARIOS == SCENARIOS and app.CARD_SCENARIOS == CARD_SCENARIOS
    lines = scenario_intro(view(new_game(Options(set_name="prison", scenario="prison-1"), 1), "B"))
    assert lines[0] == "scenario prison-1: A stroll through the dungeon"
    assert lines[1].startswith("goal: Be the first to take both of your figures out")
    # (a board game without a scenario says the board game's goal: pt29 F1)
    assert scenario_intro(view(new_game(Options(), 1), "B"))[0].startswith("goal: be the first to the table's VP")


def test_the_lobbys_table_list_fits_an_80_column_terminal():
    """On 80 columns the list ran 82 characters wide: the spectators' count and the end of Yellow's name were cut
    by the screen's edge. Narrower, the options give way first, then the players' columns; a longer text ends in
    "…". At 120 columns the list is as it was."""
    from dungeon_twister.client.lobby import table_list
    from dungeon_twister.protocol import TableInfo

    state = ClientState("ann", connected=True)
    state.tables = [TableInfo("t12-d5d96ea7", TableOptions(set_name="prison", timers=True), "playing", 3,
                              blue="Bernadette", yellow="Zoltan the Magnificent")]
    narrow = text_of(table_list(state, 79)).splitlines()
    assert max(map(len, narrow)) <= 79 and narrow[0].endswith("WATCHING") and narrow[1].endswith(" 3")
    assert "prison, tim…" in narrow[1] and "Bernadette" in narrow[1] and "Zoltan the Ma…" in narrow[1]
    wide = text_of(table_list(state, 119)).splitlines()
    assert "prison, timers          Bernadette      Zoltan the Mag… 3" in wide[1]
    # options longer than their column take the room a wide terminal has (a play-test's German list on 160 columns
    # cut "all_sets, Zeitlimit, T…"), up to their length; the players' columns stay
    state.tables.append(TableInfo("t13-0a1b2c3d", TableOptions(set_name="all_sets", timers=True, teams="free"),
                                  "waiting", 0, blue="Bernadette"))
    longer = text_of(table_list(state, 159)).splitlines()
    assert "all_sets, timers, free teams Bernadette      (free)          0" in longer[2]
    assert "prison, timers               Bernadette      Zoltan the Mag… 3" in longer[1]
    assert "all_sets, timers, free teams Bernadette" in text_of(table_list(state, 119)).splitlines()[2]
    narrow = text_of(table_list(state, 79)).splitlines()
    assert max(map(len, narrow)) <= 79 and "all_sets, t…" in narrow[2], "and give way first on 80 columns"
    # a free seat kept for a player (a rematch's table) names him, cut to its column (rm31 left "(free)" there,
    # and a join of it was refused "seat Y is kept for bob")
    state.tables = [TableInfo("t14-5e6f7a8b", TableOptions(), "waiting", 0, blue="ann",
                              yellow_kept="Maximilian Longname")]
    row = text_of(table_list(state, 119)).splitlines()[1]
    assert "ann             (for Maximilia… 0" in row and "(free)" not in row


def test_the_lobby_says_how_to_connect_again_while_it_is_not_connected():
    """Play-test pt23b: in the lobby, after a certificate warning, nothing said that `reconnect` works once the
    pin's line is removed (a table's log said it; the lobby has no log). While the client is not connected, the
    table list (of before) says so under its header; connected, the list is as it was."""
    from dungeon_twister.client.lobby import table_list
    from dungeon_twister.protocol import TableInfo

    state = ClientState("ann")
    assert text_of(table_list(state, 119)).splitlines()[1:] == ["not connected · `reconnect` connects again"]
    state.tables = [TableInfo("t2-d872b68c", TableOptions(), "waiting", 0, blue="bob")]
    lines = text_of(table_list(state, 119)).splitlines()
    assert lines[1] == "not connected · `reconnect` connects again" and lines[2].startswith("t2-d872b68c")
    state.connected = True
    assert [line[:11] for line in text_of(table_list(state, 119)).splitlines()[1:]] == ["t2-d872b68c"]
    state.tables = []
    assert text_of(table_list(state, 119)).splitlines()[1:] == ["no tables yet: `create` makes one"]


def test_the_games_finished_on_the_server_a_page_at_a_time_and_how_to_replay_one():
    """Play-test pt27 F11: a player who had not noted his game's table could not find it again. `games [PAGE]`
    asks the server (list_games) and lists a page, the last finished first, with the line that steps through one."""
    from dungeon_twister.client.commands import Commands
    from dungeon_twister.client.inbox import handle
    from dungeon_twister.protocol import Error, GameInfo, Games, ListGames

    from test_client_prompt import WiredSession

    wired = WiredSession()
    state = wired.session.state
    state.server = "192.0.2.2:7300"
    commands = Commands(wired.session, lambda: None)
    commands.run("games")
    assert wired.sent() == [ListGames(offset=0, limit=20)]
    handle(wired.session, Games((GameInfo("t7-3f9a02c1", TableOptions(), 1796053659, "target reached", 2, 5, "Y", "ann",
                                          "bob"),
                                 GameInfo("t9-0b1c2d3e", TableOptions(scenario="prison-2"), 1796040000, "aborted", 0,
                                          0, None, "cy",
                                          "planner-bot-2"),
                                 GameInfo("t4-00aa11bb", TableOptions(), 1796030000, "draw", 3, 3)), 45))
    lines = state.help_text.splitlines()
    assert lines[0] == "Games finished on this server, the last first (page 1 of 3)"
    assert lines[2].split() == ["table", "options", "ended", "(UTC)", "Blue", "Yellow", "result"]
    assert lines[3].split() == ["t7-3f9a02c1", "-", "2026-11-30", "15:47", "ann", "bob", "Yellow", "wins", "5-2",
                                "(target", "reached)"]  # (1796053659: 2026-11-30 15:47:39 UTC)
    assert lines[4].split()[1:3] == ["prison-2", "2026-11-30"], "its options: which game it was (review rv27)"
    assert lines[4].split()[4:] == ["cy", "planner-bot-2", "no", "winner", "(a", "player", "left", "before", "the",
                                    "first", "turn:", "not", "rated)"]
    assert lines[5].split()[4:8] == ["-", "-", "draw", "3-3"]
    assert lines[-2:] == ["dt-client replay TABLE --server 192.0.2.2:7300 steps through one of them",
                          "`games 2` lists the next ones"]
    commands.run("games 3")
    assert wired.sent() == [ListGames(offset=40, limit=20)]
    handle(wired.session, Games((), 45))
    assert state.help_text == "There is no page 3: 3 in all."  # (the games may have gone from 45 to fewer)
    for wrong in ("games x", "games 0", "games 1 2", "games ½"):
        commands.run(wrong)
        assert wired.sent() == [] and state.notice == "games [PAGE]", wrong
    commands.run("games ３")  # (a full-width 3 is read as 3, as the server reads actions: review rv28)
    assert wired.sent() == [ListGames(offset=40, limit=20)]
    handle(wired.session, Games((), 0))
    assert state.help_text.startswith("This server keeps no finished game")
    wired.deliver(Error("unknown_type", "unknown message type 'other'", "client", False))  # (not asked: said as is)
    assert state.notice == "server: unknown message type 'other' (unknown_type)"
    commands.run("games")
    wired.sent()
    wired.deliver(Error("unknown_type", "no such message", "client", False))  # an older server, whatever its words
    assert state.notice == "this server does not list its finished games (it is older than this client)"


def test_two_pages_of_games_asked_quickly_are_each_labelled_by_the_question_they_answer():
    """Review rv27: `games 2` then `games 3` typed before the first answer came labelled page 2's list "page 3"
    (the client labelled an answer by the last page asked). The answer repeats its question's offset (session 28);
    a server that leaves it out (session 27's) is labelled as before."""
    from dungeon_twister.client.commands import Commands
    from dungeon_twister.client.inbox import handle
    from dungeon_twister.protocol import GameInfo, Games

    from test_client_prompt import WiredSession

    wired = WiredSession()
    state = wired.session.state
    commands = Commands(wired.session, lambda: None)
    game = GameInfo("t7-3f9a02c1", TableOptions(), 1796053659, "draw", 3, 3)
    commands.run("games 2")
    commands.run("games 3")
    handle(wired.session, Games((game,), 70, offset=20))
    assert state.help_text.splitlines()[0].endswith("(page 2 of 4)")
    assert "`games 3` lists the next ones" in state.help_text
    handle(wired.session, Games((game,), 70, offset=40))
    assert state.help_text.splitlines()[0].endswith("(page 3 of 4)")
    commands.run("games 4")
    handle(wired.session, Games((game,), 70))  # (an older server: the page last asked)
    assert state.help_text.splitlines()[0].endswith("(page 4 of 4)")


def test_wide_characters_in_names_keep_the_lobbys_and_the_ratings_columns():
    """Seen by hand: a player named 张伟张伟张伟张伟张伟 (ten characters, twenty cells on the screen) pushed the
    Yellow column and the spectators' count ten cells to the right of their headers: the columns were padded by
    the number of characters. They are padded, and cut, by the cells a text takes."""
    from prompt_toolkit.utils import get_cwidth

    from dungeon_twister.client.inbox import _ratings
    from dungeon_twister.client.lobby import table_list
    from dungeon_twister.protocol import RatingInfo, Ratings, TableInfo

    def at(line: str, text: str) -> int:  # the screen column where `text` starts
        return get_cwidth(line[:line.index(text)])

    state = ClientState("ann", connected=True)
    state.tables = [TableInfo("t2-d872b68c", TableOptions(), "waiting", 0, blue="张伟张伟张伟张伟张伟")]
    header, row = text_of(table_list(state, 119)).splitlines()
    assert at(row, "(free)") == at(header, "YELLOW") and get_cwidth(row) == get_cwidth(header.replace("WATCHING", "0"))
    assert "张伟张伟张伟张… " in row, "cut to its 15 cells with a '…', as a long latin name is"
    session = type("S", (), {"state": ClientState("ann")})()
    _ratings(session, Ratings((RatingInfo("张伟张伟", 1662, 290, 1), RatingInfo("bruno", 1338, 290, 1))))
    first, second = session.state.help_text.splitlines()[3:5]  # (the two players' lines, under the header)
    assert at(first, "1662") == at(second, "1338")


@pytest.mark.parametrize("scenario, shown", [("prison-4", "4 VP"), ("prison-5", "5 VP"), ("prison-1", None)])
def test_PR_SCEN_4_06_a_scenario_table_shows_its_own_vp_target_or_none(scenario, shown):
    """PR-SCEN-4-06: scenario 4 is played to 4 VP, whatever the table's target_vp field says (the wire allows
    5..8); scenarios 1 to 3 have no VP target. The lobby's row and the table panel say so."""
    from dungeon_twister.client.lobby import table_list
    from dungeon_twister.protocol import TableInfo
    from dungeon_twister.server.options import options_view

    options = TableOptions(scenario=scenario)
    state = ClientState("ann")
    state.tables = [TableInfo("t-1", options, "waiting", 0, blue="ann")]
    row = next(line for line in text_of(table_list(state)).splitlines() if line.startswith("t-1"))
    assert row.split()[2:4] == ([shown.split()[0], scenario] if shown else ["-", scenario])
    seated_state = seated(position_text("bWA@c4 yTR@c9"))
    seated_state.view["table"] = options_view("t-1", options)
    panel = text_of(game_panel(seated_state, 0.0)).splitlines()[0]
    assert panel == f"Table t-1  {shown + ' · ' if shown else ''}scenario {scenario}"


def test_prison_events_in_plain_words():
    shot = {"kind": "combat_declared", "number": 2, "attacker": "bCL", "target": "yMK", "attackers": [],
            "defenders": ["yMK"], "shooters": ["bCL"]}
    assert describe_event(shot) == "combat 2: Blue Cleric shoots at Yellow Mechanork"
    pushed = {"kind": "pushed", "by": "yBS", "token": "bWZ", "square": "d7", "to": "d8"}
    assert describe_event(pushed) == "Yellow Banshee pushes Blue Wizard from d7 to d8"
    broken = {"kind": "lance_broken", "by": "bCO", "token": "bLN"}
    assert describe_event(broken) == "Blue Telescopic Lance breaks: Blue Colossus's side lost"


# --- commands ---------------------------------------------------------------------------------------------
def test_table_options_are_parsed_from_the_create_command():
    assert parse_table_options("vp=7 beginner private") == TableOptions(target_vp=7, beginner=True, private=True)
    assert parse_table_options("") == TableOptions()
    with pytest.raises(UsageError):
        parse_table_options("vp=9")
    with pytest.raises(UsageError):
        parse_table_options("fast")


def test_create_names_the_word_it_does_not_know_then_how_it_is_typed():
    """`create --set prison` (a command-line habit) is refused naming '--set', then create's usage with every set
    a table may name; `create cards` likewise with the Card Game's usage."""
    with pytest.raises(UsageError) as refused:
        parse_table_options("--set prison")
    assert str(refused.value).startswith("'--set' is not an option of create; create [vp=5..8]")
    assert "[prison|mixed|paladins|base_paladins|prison_paladins|all_sets]" in str(refused.value)
    # and the Card Game's (play-test pl31: `create foo` gave a usage without it, which `help create` has)
    assert str(refused.value).endswith("| create cards [tutorial=1|2|3 | standard mutual|full|draft] [timers] "
                                       "[secret] [private]")
    with pytest.raises(UsageError) as refused:
        parse_table_options("cards tutorial=4")
    assert str(refused.value).startswith("'tutorial=4' is not an option of create; create cards [tutorial=1|2|3]")


def test_the_lobby_help_writes_create_cards_as_create_takes_it():
    """The lobby's help once wrote `create cards [tutorial=1|2|3|standard TEAMS]`; typed as it reads,
    `create cards tutorial=standard mutual` was refused. Each form the help line names is now taken as written,
    and the one it no longer shows is refused."""
    line = next(str(text) for text in client_help.LOBBY_COMMANDS if str(text).startswith("create cards"))
    assert line.startswith("create cards [tutorial=1|2|3 | standard mutual|full|draft] [timers] [secret] [private]")
    for typed in ("cards", "cards tutorial=1", "cards tutorial=3 timers", "cards standard mutual",
                  "cards standard full secret", "cards standard draft timers secret private"):
        parse_table_options(typed)
    with pytest.raises(UsageError):
        parse_table_options("cards tutorial=standard mutual")


def test_a_prison_table_is_created_with_the_word_prison():
    """`create prison vp=6`: TableOptions.set_name "prison"; Prison plays to 5-7 VP and has no beginner game
    (PR-OPT-02, BG-OPT-07), refused before anything is sent."""
    assert parse_table_options("prison vp=6") == TableOptions(target_vp=6, set_name="prison")
    for words in ("prison vp=8", "prison beginner"):
        with pytest.raises(UsageError):
            parse_table_options(words)


def test_look_describes_a_square():
    state = seated(position_text("bWA@c4 bRP@c4 yTR@c6!"))
    assert describe_square(state.view, "c4") == "c4: Blue Warrior, carrying Blue Rope"
    assert describe_square(state.view, "c6") == "c6: Yellow Troll (wounded)"
    assert describe_square(state.view, "c8") == "c8: a pit"
    assert describe_square(state.view, "a5") == "a5: the rotation mechanism of room A1"
    assert describe_square(state.view, "e21") == "e21: Yellow's start zone"


def test_look_at_a_square_of_a_face_down_room_says_it_is_face_down():
    """BG-SETUP-02: the rooms start face down; what lies in one is unknown until it is revealed (BG-REVEAL)."""
    from dungeon_twister.engine import Options, new_game, view

    start = view(new_game(Options(), 1), "B")
    later = "still face down (what lies there shows when it is revealed)"
    assert describe_square(start, "c4") == f"c4: inside room A1, {later}"
    assert describe_square(start, "h17") == f"h17: inside room B4, {later}"
    assert describe_square(start, "c0") == "c0: Blue's start zone"
    assert describe_square(start, "j21") == "j21: Yellow's start zone"


def test_look_at_what_is_no_square_names_the_board_s_corners():
    """Whatever is not a square of this board gets one answer, with its corners: a standard board is 2 rooms wide
    and 4 long (BG-SETUP-01), 10 columns a-j and rows 1-20 between the start zones 0 and 21 (BG-SETUP-02); before,
    `look zz99` or `look 🐉` said "nothing", as if a square were empty."""
    from dungeon_twister.engine import Options, new_game, view

    start = view(new_game(Options(), 1), "B")
    for text in ("c22", "c30", "k4", "zz99", "🐉", "c", "c-1", "c٣"):
        assert describe_square(start, text) == f"{text}: not a square of this board (a0 to j21)", text


def test_paladins_events_in_plain_words():
    """The Red Dragon's elimination scores 2 VP (PD-CHAR-DRAGON-04): the log says so."""
    breath = {"kind": "breath", "by": "bRD", "direction": "n", "victims": ["yGB"]}
    assert describe_event(breath).startswith("Blue Red Dragon breathes fire")
    dragon = {"kind": "eliminated", "token": "yRD", "cause": "dragon slain", "scorer": "B", "vp": 2}
    assert describe_event(dragon) == "Yellow Red Dragon is eliminated by the Dragon-Slayer Sword: 2 VP for Blue"
    stolen = {"kind": "stolen", "token": "yTS", "by": "bPP", "victim": "yGO", "square": "c4"}
    assert describe_event(stolen) == "Blue Pickpocket steals Yellow Treasure from Yellow Golem"
    charmed = {"kind": "charmed", "by": "bIL", "target": "yMK", "actions": 3}
    assert describe_event(charmed) == "Blue Illusionist charms Yellow Mechanork: 3 actions for its charmer this turn"


def test_a_paladins_table_is_created_with_the_word_paladins():
    assert parse_table_options("paladins vp=6") == TableOptions(target_vp=6, set_name="paladins")
    for words in ("paladins beginner", "paladins prison"):
        with pytest.raises(UsageError):
            parse_table_options(words)


def test_PD_TEAM_MUTUAL_picks_in_plain_words_and_the_create_command():
    assert describe_event({"kind": "picked", "seat": "Y", "stage": "rooms", "value": "37"}) == \
        "Yellow picks the room pair 37"
    assert describe_event({"kind": "picked", "seat": "B", "stage": "characters", "value": "RD"}) == \
        "Blue picks the Red Dragon: both teams take it"
    assert parse_table_options("all_sets mutual") == TableOptions(set_name="all_sets", teams="mutual")
    for words in ("mutual", "paladins mutual", "all_sets prison"):
        with pytest.raises(UsageError):
            parse_table_options(words)


def test_PD_TEAM_02_a_mutual_table_says_so_in_the_lobby_and_the_panel():
    from dungeon_twister.client.lobby import table_list
    from dungeon_twister.protocol import TableInfo
    from dungeon_twister.server.options import options_view

    options = TableOptions(set_name="all_sets", teams="mutual")
    state = ClientState("ann")
    state.tables = [TableInfo("t-1", options, "waiting", 0, blue="ann")]
    row = next(line for line in text_of(table_list(state)).splitlines() if line.startswith("t-1"))
    assert "all_sets, mutual teams" in row
    seated_state = seated(position_text("bWA@c4 yTR@c9"))
    seated_state.view["table"] = options_view("t-1", options)
    assert text_of(game_panel(seated_state, 0.0)).splitlines()[0] == "Table t-1  5 VP · all_sets · mutual teams"


def test_PD_TEAM_COMMON_01_a_second_copy_is_named_as_such():
    from dungeon_twister.client.names import token_name

    assert token_name("bRP2") == "Blue Rope (2)" and token_name("bRP") == "Blue Rope" and token_name("bRPX") == "bRPX"


def test_PD_TERR_look_names_the_terrain_and_an_illusion():
    from tests.engine.builders import act
    from tests.engine.paladins.builders import pd_position

    from dungeon_twister.engine import view

    seen = view(act(pd_position("bIL@a7 yGB@h4"), "illusion bIL rubble b7"), "Y")
    assert describe_square(seen, "b18").startswith("b18: Rockfall (whoever enters")
    assert describe_square(seen, "b7") == "b7: Blue's illusion rubble"
    assert describe_square(seen, "d5").startswith("d5: the Fountain of Youth")


def free_build_state(seat: str = "B") -> ClientState:
    """A seat at an all-sets table with free team building, before anyone has built (the engine's own view)."""
    from dungeon_twister.engine import Options, new_game, view

    state = ClientState("ann", table="t-1", seat=seat)
    state.view = {**view(new_game(Options(set_name="all_sets", teams="free"), 5), seat), "legal": [],
                  "table": {"id": "t-1", "target_vp": 5, "timers": False, "set_name": "all_sets", "teams": "free"},
                  "seats": {"B": "ann", "Y": "bob"}, "started": True}
    return state


def test_PD_TEAM_FREE_01_CG_SEL_FULL_01_a_build_typed_with_spaces_after_its_commas_is_read():
    """Play-test pl31: `build pairs=2, 42 ...` was refused "expected a room pair number in pairs=, got '' at column
    7". A comma is only ever inside a list and a list's item has no `=`: the client takes the spaces beside a
    list's commas out before it reads the build (it commits the canonical text), for the board game's free build
    and the Card Game's full frontal one. The edge: a list parted by spaces alone is refused with the engine's
    "a list has no spaces", and nothing is committed."""
    from dungeon_twister.client.secret_choice import ChoiceError, resolve_choice
    from dungeon_twister.engine.cards import CardOptions, new_game
    from dungeon_twister.engine.cards.select import parts

    state = free_build_state()
    typed = "build pairs=3, 41 characters=ES ,GH,MK, PA,RD,TH , WA,WZ objects=FH,KY,KY,RP,SW,TS"
    assert resolve_choice(typed, [], "B", state.build_parts) == \
        "build pairs=3,41 characters=ES,GH,MK,PA,RD,TH,WA,WZ objects=FH,KY,KY,RP,SW,TS"
    with pytest.raises(ChoiceError, match=r"^a list has no spaces: pairs=3,41 at column 15: "):
        resolve_choice("build pairs=3 41 characters=ES objects=FH", [], "B", state.build_parts)
    forms = [part.form() for part in parts(new_game(CardOptions(None, "standard", "full"), 1))]
    assert resolve_choice("build characters=WA, TH,CL,MK,SN,GB objects=KY,SH ,KY,BW", [], "B", forms, "cards") == \
        "build characters=CL,GB,MK,SN,TH,WA objects=BW,KY,KY,SH"


def test_PD_TEAM_FREE_the_create_command_the_events_and_the_panel():
    assert parse_table_options("all_sets free") == TableOptions(set_name="all_sets", teams="free")
    for words in ("free", "paladins free", "all_sets free mutual"):
        with pytest.raises(UsageError):
            parse_table_options(words)
    assert describe_event({"kind": "built", "seat": "Y"}) == "Yellow has built a team in secret"
    own = {"kind": "built", "seat": "B", "pairs": [3, 41], "characters": ["ES", "TH"], "objects": ["KY", "KY"]}
    # named, not "you build your team": a replay shows both seats' builds (play-test pt25 F14)
    assert describe_event(own) == "Blue builds the team: pairs 3, 41; ES TH; KY KY"
    assert describe_event({"kind": "rooms_shared", "pairs": [41], "kept_by": "B"}) == (
        "both chose the room pair 41: laid once, Blue's; the other gets an unchosen pair instead, unseen (RUL-072)")
    assert describe_event({"kind": "rooms_shared", "pairs": [3, 41], "kept_by": "Y"}) == (  # (no "pair(s)")
        "both chose the room pairs 3, 41: laid once, Yellow's; the other gets unchosen pairs instead, unseen "
        "(RUL-072)")
    panel = text_of(game_panel(free_build_state(), 0.0))
    assert "Team building (free choice: each side its own team, in secret)" in panel
    # each part in words, with the word `build` takes (a play-test read "pairs:" as an untranslated label)
    assert "objects (objects=...): choose 6 of AR BW CH DS FH FS FW KYx2 LN RG RPx2 SH SP SW TS" in panel
    assert "room pairs (pairs=...): choose " in panel and "characters (characters=...): choose " in panel
    assert "Blue is choosing · Yellow is choosing" in panel
    assert "Choose in secret (the team built): type build ... (Tab completes)" in panel


def test_PD_TEAM_FREE_the_panel_says_once_who_has_built_as_soon_as_the_server_says_it():
    """Play-test: once Blue had built, Yellow's panel said "Blue has chosen · Yellow is choosing" on its turn line
    (the server's `table.committed`) and, four lines lower, "Blue is choosing · Yellow is choosing" (the engine's
    `build.built`, true only once both builds are revealed). The team building's line now counts the commitments
    too, and the turn line leaves it to that line."""
    state = free_build_state()
    state.view["table"] = {**state.view["table"], "committed": ["B"]}
    panel = text_of(game_panel(state, 0.0))
    assert panel.count("Blue has chosen · Yellow is choosing") == 1, panel
    assert "Blue is choosing" not in panel


def test_PD_TEAM_FREE_a_typed_build_is_checked_against_the_parts_before_anything_is_committed():
    from dungeon_twister.client.secret_choice import ChoiceError, resolve_choice

    parts = free_build_state().build_parts
    typed = "build objects=TS,SW,RP,KY,KY,FH characters=WZ,WA,TH,RD,PA,MK,GH,ES pairs=41,3"
    assert resolve_choice(typed, [], "B", parts) == (
        "build pairs=3,41 characters=ES,GH,MK,PA,RD,TH,WA,WZ objects=FH,KY,KY,RP,SW,TS")
    for wrong, why in (
            ("build pairs=3,41 characters=ES,GH,MK,PA,RD,TH,WA objects=FH,KY,KY,RP,SW,TS", "choose 8 characters, not 7"),
            ("build pairs=3,41 characters=ES,GH,MK,PA,RD,TH,WA,WZ objects=FH,KY,KY,KY,SW,TS",
             "KY may be chosen at most 2 times"),
            ("build pairs=3,41 characters=ES,GH,MK,PA,RD,TH,WA,WZ", "objects="),
            ("team b0=TH", "build your team first")):
        with pytest.raises(ChoiceError, match=why):
            resolve_choice(wrong, [], "B", parts)


@pytest.mark.parametrize("wrong", [
    "build pairs=3,41 characters=ES,GH,MK,PA,RD,TH,WA objects=FH,KY,KY,RP,SW,TS",  # a count: PD-TEAM-FREE-01
    "build pairs=3,41 characters=ES,GH,MK,PA,RD,TH,WA,WA objects=FH,KY,KY,RP,SW,TS",  # a character twice
    "build pairs=3,45 characters=ES,GH,MK,PA,RD,TH,WA,WZ objects=FH,KY,KY,RP,SW,TS",  # a pair: PD-TEAM-FREE-02
    "build pairs=41,41 characters=ES,GH,MK,PA,RD,TH,WA,WZ objects=FH,KY,KY,RP,SW,TS",
    "build pairs=3,41 characters=ES,GH,MK,PA,RD,TH,WA,WZ objects=KY,KY,KY,RP,SW,TS",  # PD-TEAM-COMMON-01
    "build pairs=3,41 characters=ES,GH,MK,PA,RD,TH,WA,WZ objects=FH,KY,RP,SW,TS,TS",  # one copy, twice: COMMON-01
    "build pairs=3,41 characters=ES,GH,MK,PA,RD,TH,WA,WZ objects=FH,KY,KY,KY,SW,WA",  # too many KY, then no object
    "build pairs=3,41 characters=ES,GH,MK,PA,RD,TH,WA,XX objects=FH,KY,KY,RP,SW,TS",  # no such code (pt22 F10)
])
def test_PD_TEAM_FREE_01_02_COMMON_01_the_client_refuses_a_wrong_build_citing_the_rule_the_engine_would(wrong):
    """A commitment cannot be taken back, so the client checks a build against the view's parts first; it cites
    the rule the engine's refusal of the same build cites (the parts' `rule` and `copies_rule`), and shows it."""
    from types import SimpleNamespace

    from dungeon_twister.client.secret_choice import ChoiceError, choose, resolve_choice
    from dungeon_twister.engine import IllegalAction, Options, apply, new_game, parse_action
    from dungeon_twister.protocol import PlayerConnection

    state = free_build_state()
    with pytest.raises(IllegalAction) as engine_refusal:
        apply(new_game(Options(set_name="all_sets", teams="free"), 5), parse_action(wrong, "B"))
    with pytest.raises(ChoiceError) as client_refusal:
        resolve_choice(wrong, [], "B", state.build_parts)
    assert client_refusal.value.rule == engine_refusal.value.rule
    assert client_refusal.value.rule in ("PD-TEAM-FREE-01", "PD-TEAM-FREE-02", "PD-TEAM-COMMON-01")
    assert str(client_refusal.value) == engine_refusal.value.message

    state.view["secret"], state.connected = "build", True
    session = SimpleNamespace(state=state, connection=PlayerConnection())
    choose(session, wrong)
    assert state.refusal.describe().startswith(f"refused [{engine_refusal.value.rule}]: ")
    assert not state.secrets, "nothing was committed"


def test_PD_TEAM_FREE_a_wrong_build_is_refused_in_the_readers_language():
    """The parts' refusals (engine/core/choice.py, templates the catalogue translates) in French."""
    from dungeon_twister.client import i18n
    from dungeon_twister.client.secret_choice import ChoiceError, resolve_choice

    parts = free_build_state().build_parts
    i18n.use("fr")
    for wrong, why in (
            ("build pairs=3,41 characters=ES,GH,MK,PA,RD,TH,WA objects=FH,KY,KY,RP,SW,TS",
             "choisissez 8 personnages, pas 7"),
            ("build pairs=3,41 characters=ES,GH,MK,PA,RD,TH,WA,WZ objects=FH,KY,KY,KY,SW,TS",
             "KY peut être choisi au plus 2 fois")):
        with pytest.raises(ChoiceError) as refused:
            resolve_choice(wrong, [], "B", parts)
        assert str(refused.value) == why


def test_PD_TEAM_FREE_tab_completes_a_build_part_by_part_and_value_by_value():
    from prompt_toolkit.completion import CompleteEvent
    from prompt_toolkit.document import Document

    from dungeon_twister.client.completion import PromptCompleter

    completer = PromptCompleter(free_build_state())

    def complete(text: str) -> dict[str, str]:
        return {c.text: c.display_meta_text for c in completer.get_completions(Document(text), CompleteEvent())}

    assert complete("b")["build"] == "your team, in secret"
    assert complete("build ") == {"pairs=": "choose 2", "characters=": "choose 8", "objects=": "choose 6"}
    completed = complete("build pairs=3,4")  # not 3 again; each pair's set and rooms first (the next test)
    assert {word: meta.rpartition(" · ")[2] for word, meta in completed.items()} == {
        f"pairs=3,{n}": "2 of 2" for n in (4, 40, 41, 42, 43, 44)}
    assert complete("build pairs=3,41 ") == {"characters=": "choose 8", "objects=": "choose 6"}
    # each value named (a play-test's player meant the Fire Shield, FH, and typed FS: pt25 F1)
    assert complete("build pairs=3,41 objects=KY,KY,T") == {"objects=KY,KY,TS,": "Treasure · 3 of 6"}  # no third Key
    assert "objects=KY,KY,KY," not in complete("build pairs=3,41 objects=KY,KY,")
    assert complete("build pairs=3,41 objects=AR,BW,CH,DS,FH,F") == {  # the sixth (not FH again), no comma
        "objects=AR,BW,CH,DS,FH,FS": "Fireball Staff · 6 of 6", "objects=AR,BW,CH,DS,FH,FW": "Fireball Wand · 6 of 6"}
    assert complete("build pairs=3,41 characters=WA,R")["characters=WA,RD,"] == "Red Dragon · 2 of 8"
    assert complete("build pairs=3,41 objects=AR,BW,CH,DS,FH,FS,") == {}  # the part is full
    # a value that is not of the part, or one too many, ends the completions (pt25 F2: `objects=RD,` went on)
    assert complete("build pairs=3,41 objects=RD,") == {}
    assert complete("build pairs=3,41 objects=AR,AR,") == {}


def test_every_reason_a_game_can_end_for_is_worded_by_the_client():
    """The reasons the engine (turn.finish, the Prison scenarios' data, the card game's "vp" and DT-239's) and the
    server (resigned, abandoned) give for an end are all in client/describe.py's REASONS, so that each is translated;
    an unknown reason is shown as it comes."""
    import json
    from importlib.resources import files

    from dungeon_twister.client.describe import REASONS, reason_text
    from dungeon_twister.engine.cards.rules import DEAD  # DT-239

    prison = json.loads(files("dungeon_twister.engine.prison").joinpath("data/prison.json").read_text())
    found = set()

    def walk(node):
        if isinstance(node, dict):
            found.update(value for key, value in node.items() if key.startswith("reason"))
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(prison)
    assert len(found) == 6 and found <= set(REASONS), found - set(REASONS)
    assert {"target reached", "nobody can score any more", "resigned", "abandoned", "vp", DEAD} <= set(REASONS)
    assert reason_text("resigned") == "the other player resigned"
    assert reason_text("a new reason") == "a new reason"
    event = {"kind": "game_over", "winner": "Y", "vp": {"B": 2, "Y": 6}, "reason": "target reached"}
    assert describe_event(event) == "game over: Yellow wins 6-2 (target reached)"  # the winner's VP first


@pytest.mark.parametrize(("typed", "engine_text"), [
    ("team b0=TH b1=WA g0=TR i0=GB", "team b0=TH b1=WA g0=TR i0=GB"),  # b1 is not a marked square
    ("team b0=TH d0=TH g0=TR i0=GB", "team b0=TH d0=TH g0=TR i0=GB"),  # a character twice
    ("team TH WA TR WZ WW", "team b0=TH d0=WA g0=TR i0=WZ i0=WW"),  # the short form: five characters
    ("team TH WA TR WZ out=MK", "team b0=TH d0=WA g0=TR i0=WZ out=MK"),
    ("team th wa tr wz ww", "team b0=TH d0=WA g0=TR i0=WZ i0=WW"),  # (codes in any case, as the notation reads them)
    ("team b0=TH d0=WA g0=TR i0=GB out=MK", "team b0=TH d0=WA g0=TR i0=GB out=MK"),  # nobody without a handicap
])
def test_BG_SETUP_04_OPT_08_the_client_refuses_a_wrong_team_citing_the_rule_the_engine_would(typed, engine_text):
    """A team choice is committed and cannot be taken back, so the client checks it first; seen by hand, a wrong
    one (`team ES GH GO XX`) was refused as "not one of your choices now", with no rule. With the view's compact
    team choice (its marked squares, the seat's characters, how many to leave out) the client now cites the rule
    and the sentence of the engine's own refusal of the same team (setup.team_refusal, shared by both); the short
    form puts the characters on the squares in order."""
    from dungeon_twister.client.secret_choice import ChoiceError, resolve_choice
    from dungeon_twister.engine import IllegalAction, Options, apply, format_action, legal_actions, new_game, \
        parse_action
    from dungeon_twister.protocol.views import team_choice

    state = new_game(Options(), 3)
    legal = [format_action(action) for action in legal_actions(state, "B")]
    form = team_choice(legal)
    assert form == {"squares": ["b0", "d0", "g0", "i0"], "characters": ["CL", "GB", "MK", "TH", "TR", "WA", "WW",
                                                                          "WZ"], "out": 0}
    with pytest.raises(IllegalAction) as engine_refusal:
        apply(state, parse_action(engine_text, "B"))
    with pytest.raises(ChoiceError) as client_refusal:
        resolve_choice(typed, legal, "B", None, "board", form, False)
    assert (client_refusal.value.rule, str(client_refusal.value)) == (engine_refusal.value.rule,
                                                                     engine_refusal.value.message)
    assert client_refusal.value.rule in ("BG-SETUP-04", "BG-OPT-08")
    with pytest.raises(ChoiceError) as in_a_scenario:
        resolve_choice(typed, legal, "B", None, "board", form, True)
    assert in_a_scenario.value.rule == ("PR-SETUP-04" if engine_refusal.value.rule == "BG-SETUP-04" else "BG-OPT-08")
    assert resolve_choice("team TH WA TR GB", legal, "B", None, "board", form) == "team b0=TH d0=WA g0=TR i0=GB"
    # the short form in lower case too, as the boards show wounded codes and the notation reads them (in22 left it)
    assert resolve_choice("team th wa tr gb", legal, "B", None, "board", form) == "team b0=TH d0=WA g0=TR i0=GB"


@pytest.mark.parametrize("typed", [
    "team b11=CO b11=MK",  # two characters on one square (as typed in play-test 20)
    "team b11=CO d11=CO",  # one character twice
    "team b11=CO d11=NG",  # a character of the other side's scenario team
    "team b0=CO d11=MK",  # a square of the other start zone
    "team b11=CO d11=MK g11=NG",  # three characters where the scenario plays two
])
def test_PR_SETUP_04_a_listed_team_choice_is_refused_with_the_rule_the_engine_cites(typed):
    """Prison scenario 2 gives Yellow 2 characters for 3 marked squares: the 12 choices have no compact form
    (protocol views.team_choice), so the view lists them. A play-test typed `team b11=CO b11=MK` and read "not one
    of your choices now", with no rule; the client now reads the marked squares, the characters and the team's
    size from the list and cites what the engine's refusal of the same team says (PR-SETUP-04, its sentence)."""
    from dungeon_twister.client.secret_choice import ChoiceError, resolve_choice
    from dungeon_twister.engine import IllegalAction, Options, apply, format_action, legal_actions, new_game, \
        parse_action
    from dungeon_twister.protocol.views import team_choice

    state = new_game(Options(set_name="prison", scenario="prison-2"), 3)
    legal = [format_action(action) for action in legal_actions(state, "Y")]
    assert len(legal) == 12 and team_choice(legal) is None, "3 squares x 2 places x 2 orders, sent as a list"
    with pytest.raises(IllegalAction) as engine_refusal:
        apply(state, parse_action(typed, "Y"))
    with pytest.raises(ChoiceError) as client_refusal:
        resolve_choice(typed, legal, "Y", None, "board", None, True)
    assert (client_refusal.value.rule, str(client_refusal.value)) == ("PR-SETUP-04", engine_refusal.value.message)
    assert engine_refusal.value.rule == "PR-SETUP-04"
    assert resolve_choice("team b11=MK g11=CO", legal, "Y", None, "board", None, True) == "team b11=MK g11=CO"


def test_BG_SETUP_04_a_short_team_naming_no_character_of_the_seat_cites_the_rule():
    """`team TH WA TR XX`, as typed by hand: XX is none of the seat's characters (the engine's parser refuses the
    code in the full notation before any rule; the client, which reads the short form itself, cites the rule)."""
    from dungeon_twister.client.secret_choice import ChoiceError, resolve_choice
    from dungeon_twister.protocol.views import expand_team_choice

    form = {"squares": ["b0", "d0", "g0", "i0"], "characters": ["CL", "GB", "MK", "TH", "TR", "WA", "WW", "WZ"],
            "out": 0}
    with pytest.raises(ChoiceError) as refusal:
        resolve_choice("team TH WA TR XX", expand_team_choice(form), "B", None, "board", form, False)
    assert (refusal.value.rule, str(refusal.value)) == ("BG-SETUP-04", "choose 4 different characters of your own")


def test_BG_SETUP_04_PR_SETUP_04_a_short_team_of_too_few_or_unplaced_characters_says_what_to_type():
    """Play-test pl31 typed `team CL GB MK` (3 of the 4 marked squares) and, in Prison's first scenario (2
    characters on 2 of 4 marked squares), `team NG MK`, and read "it matches 20 choices" and "it matches 6 choices".
    The first now cites the rule the engine would (BG-SETUP-04: a character on each marked square); the second, a
    team the short form cannot place, asks for each character's square."""
    from dungeon_twister.client.secret_choice import ChoiceError, resolve_choice
    from dungeon_twister.engine import Options, format_action, legal_actions, new_game
    from dungeon_twister.protocol.views import team_choice

    state = new_game(Options(), 3)
    legal = [format_action(action) for action in legal_actions(state, "B")]
    with pytest.raises(ChoiceError) as short:
        resolve_choice("team CL GB MK", legal, "B", None, "board", team_choice(legal), False)
    assert (short.value.rule, str(short.value)) == (
        "BG-SETUP-04", "put one character on each of the 4 marked squares of your start zone")
    assert resolve_choice("team CL GB MK TH", legal, "B", None, "board", team_choice(legal)) == \
        "team b0=CL d0=GB g0=MK i0=TH", "the short form of a whole team still plays"

    state = new_game(Options(set_name="prison", scenario="prison-1"), 3)
    legal = [format_action(action) for action in legal_actions(state, "Y")]
    with pytest.raises(ChoiceError) as unplaced:
        resolve_choice("team NG MK", legal, "Y", None, "board", team_choice(legal), True)
    assert str(unplaced.value) == ("it matches 6 choices: name each character's square, SQUARE=CHARACTER, e.g. "
                                   "'team b11=NG d11=MK'")
    assert resolve_choice("team g11=NG i11=MK", legal, "Y", None, "board", team_choice(legal), True) == \
        "team g11=NG i11=MK"


def test_PD_TEAM_FREE_the_build_comes_before_the_seats_cards_in_the_panel():
    """Seen by hand on a 100 x 32 terminal (the board and a 30-column panel side by side): the free build's lists
    of pairs, characters and objects came after both seats' action and combat cards, which play no part yet, and
    fell below the panel's rows. While a team is built they come first, with what to type."""
    text = text_of(game_panel(free_build_state(), 0.0))
    build = text.index("objects (objects=...): choose 6 of")
    assert build < text.index("Choose in secret (the team built)") < text.index("combat: +0 +1"), \
        "build, what to type, cards"


def test_BG_SETUP_04_the_secret_team_choice_comes_before_the_seats_cards_in_the_panel():
    """Seen by hand on 80 x 24 (the panel on F2): the team choice's "type team ..." fell below the panel's rows,
    after both seats' cards; it comes first while the teams are chosen. In play too, what to do now comes before
    the cards (play-test pt29 F14: the fight, the hint and the game's end fell below them on 80 x 24)."""
    from dungeon_twister.engine import Options, new_game, view

    state = ClientState("ann", table="t-1", seat="B")
    state.view = {**view(new_game(Options(), 5), "B"), "legal": [], "seats": {"B": "ann", "Y": "bob"},
                  "table": {"id": "t-1", "target_vp": 5}, "started": True}
    assert state.view["phase"] == "team" and state.secret_purpose == "team"
    text = text_of(game_panel(state, 0.0))
    assert text.index("Choose in secret (the starting team)") < text.index("combat: +0 +1")
    state.view = seat_view(position_text("bWA@c4 yTR@c6"), "B")
    state.view["legal"] = ["end"]
    text = text_of(game_panel(state, 0.0))
    assert state.view["phase"] == "main" and text.index("Your move") < text.index("combat: +0")


def test_a_secret_choice_with_a_typo_says_where_it_is():
    """Seen by hand at a Card Game table: `hide bCB:1 bCL:9` (no start column 9) was refused "not one of your
    choices now", as if the choice were a legal text not offered. A text of the choice's verb that the notation
    refuses now gets the parser's error and where it is, as the server's bad_notation does; a well-formed text
    that is not offered keeps the general answer."""
    from dungeon_twister.client.secret_choice import ChoiceError, resolve_choice

    legal = ["hide bCB:1 bCL:1", "hide bCB:1 bCL:2", "hide bCB:2 bCL:1"]
    with pytest.raises(ChoiceError) as typo:
        resolve_choice("hide bCB:1 bCL:9", legal, "B", None, "cards")
    assert str(typo.value) == ("expected bCL:1 or bCL:2, the start zone in front of your first or second room at "
                               "column 12: 'hide bCB:1 bCL:9'")
    with pytest.raises(ChoiceError) as not_offered:
        resolve_choice("hide bCB:2 bCL:2", legal, "B", None, "cards")
    assert str(not_offered.value) == "not one of your choices now, e.g. 'hide bCB:1 bCL:1'"
    with pytest.raises(ChoiceError, match="not one of your choices now"):
        resolve_choice("", legal, "B", None, "cards")  # nothing typed: no verb to compare (it raised IndexError)


def test_PD_TEAM_MUTUAL_the_drafts_panel_says_who_picks_first_and_no_pair_it_does_not_offer():
    """Play-test of a base + Paladins mutual draft: the header said "Yellow picked first" before any pick, and the
    hint "pick 37, pick WA" named a pair such a game does not offer. The header says who picks first; the hint
    names no code (Tab completes the ones offered, listed below it)."""
    from dungeon_twister.engine import Options, new_game
    from dungeon_twister.server.viewing import ViewPoint, table_view

    state = new_game(Options(set_name="base_paladins", teams="mutual"), 5)
    assert state.phase == "draft"
    first = state.to_act[0]
    client = ClientState("ann", table="t-1", seat=first)
    client.view = table_view(ViewPoint(state, {"B": "ann", "Y": "bob"}, {"id": "t-1"}, True), first)
    panel = text_of(game_panel(client, 0.0))
    assert f"(both teams get every pick; {'Blue' if first == 'B' else 'Yellow'} picks first)" in panel
    assert "Your move: pick a room pair, a character or an object: pick CODE, one the list offers (Tab completes)" \
        in panel
    assert not {37, "37"} & set(client.view["draft"]["pool"]["rooms"]) and "pick 37" not in panel


def test_PD_CHAR_GOLEM_01_05_look_names_a_broken_wall_beside_a_square():
    """Play-test: a wall the Golem broke is drawn as an opening, and `look` said nothing of it, so a broken wall
    could not be told from no wall. The view's `broken_walls` (public: the marker lies on the board) lets `look`
    name it on both squares, with its side (PD-CHAR-GOLEM-01: b13|c13); a double wall broken once is still a wall,
    one of its two segments broken (PD-CHAR-GOLEM-05: a5|a6). Every viewer sees it, the spectators too."""
    from tests.engine.builders import act
    from tests.engine.paladins.builders import pd_position

    from dungeon_twister.engine import view

    broken = act(pd_position("bGO@b13 yWA@h4"), "smash bGO e")
    for viewer in ("B", "Y", None):
        seen = view(broken, viewer)
        assert seen["broken_walls"] == [["b13", "c13", 1]]
        assert describe_square(seen, "b13") == "b13: Blue Golem; a broken wall east"
        assert describe_square(seen, "c13") == "c13: a broken wall west"
    assert "broken_walls" not in view(pd_position("bGO@b13 yWA@h4"), "B")
    once = view(act(pd_position("bGO@a5 yWA@h4"), "smash bGO n"), "Y")
    assert once["broken_walls"] == [["a5", "a6", 1]]
    assert describe_square(once, "a6") == "a6: a double wall south, one of its two segments broken"
    twice = view(act(pd_position("bGO@a5 yWA@h4"), "smash bGO n", "smash bGO n"), "Y")
    assert twice["broken_walls"] == [["a5", "a6", 2]]
    assert describe_square(twice, "a6") == "a6: a broken wall south"


def test_PD_OBJ_CHARM_02_a_charmed_figures_actions_are_not_called_potion_ap():
    """Play-test 20: after `charm bWZ yAS` the status read "potion AP yAS 3": the 3 actions are the Charm
    Scroll's (PD-OBJ-CHARM-02), left in `pools` for the charmed figure alone, as a Speed Potion's AP are for its
    drinker (BG-AP-05). Each is named for what it is."""
    from dungeon_twister.client.panel import _turn_detail

    def line(**view) -> str:
        return "".join(text for _style, text in _turn_detail({"active": "B", "phase": "main", "ap": 1, **view}))

    assert line(pools={"yAS": 3}, charmed={"B": "yAS"}) == "Blue's AP left 1 · charmed yAS 3\n"
    assert line(pools={"bTH": 2}) == "Blue's AP left 1 · potion AP bTH 2\n"
    assert line(pools={"bTH": 2, "yAS": 1, "yGO": 3}, charmed={"B": "yGO"}, charmed_figures={"B": ["yAS", "yGO"]}) == (
        "Blue's AP left 1 · potion AP bTH 2 · charmed yAS 1, yGO 3\n")


def test_PD_CHAR_WMASTER_01_PR_OBJ_LANCE_05_the_combat_box_says_who_lays_first_and_who_lances():
    """Play-test 20: in a combat where Blue's Weapon Master defends, the box said "Blue is choosing, Yellow is
    choosing" while Yellow alone was to lay its card, face up (PD-CHAR-WMASTER-01), and never showed that card;
    a Telescopic Lance's combat said "attackers  ·" (the lancer stands apart, PR-OBJ-LANCE-05)."""
    from dungeon_twister.client.panel import _combat

    def box(**combat) -> list[str]:
        base = {"number": 3, "attacker": "yCO", "target": "bWM", "attackers": ["yCO"], "defenders": ["bWM"],
                "chosen": {"B": False, "Y": False}, "my_card": None}
        return "".join(text for _style, text in _combat({"combat": {**base, **combat}}, "B")).strip().split("\n")

    assert box(first={"seat": "Y", "card": None})[-1] == "  Yellow lays first, face up"
    assert box(first={"seat": "Y", "card": 2}, chosen={"B": False, "Y": True})[-1] == (
        "  Yellow lays first, face up: +2, Blue is choosing")
    assert box()[-1] == "  Blue is choosing, Yellow is choosing"
    lance = box(attacker="bWZ", target="yNG", attackers=[], defenders=["yNG"], lancer="bWZ")
    assert lance[1] == "  a lance by bWZ · defenders yNG"
    # the side laying its card as a plain action read an empty "Your move:" (play-test 20b); so would a naming
    state = seated(position_text("bWA@c4 yTR@c6"))
    for legal, hint in ((["combat +0", "combat +2"], "lay your combat card: combat +N"),
                        (["mind +1", "mind none"], "name a combat card's value: mind +N, or mind none")):
        state.view = {**state.view, "phase": "combat", "legal": legal}
        assert f"Your move: {hint} (within 5 seconds, or " in text_of(game_panel(state, now=0.0))  # (timed: below)


def test_DT_223_a_lone_combat_step_on_a_timed_table_says_it_has_5_seconds():
    """Play-test 21, a timed table: Blue's Telepath was attacked; her player had 5 seconds to name a card (DT-223),
    nothing said so, and twice her time ran out ("mind none"); the combat box read "Blue is choosing, Yellow is
    choosing" though only she had to act. The hint of a step one seat takes alone says what its 5 seconds lead to,
    on a timed table only; the box says who names."""
    from dungeon_twister.client.panel import _combat

    state = seated(position_text("bWA@c4 yTR@c6"))
    steps = ((["mind +1", "mind none"], "name a combat card's value: mind +N, or mind none (within 5 seconds, or "
              "nothing is named)"),
             (["combat +0", "combat +2"], "lay your combat card: combat +N (within 5 seconds, or +0 is laid for you)"))
    for timers in (False, True):
        for legal, hint in steps:
            state.view = {**state.view, "phase": "combat", "legal": legal,
                          "table": {**state.view["table"], "timers": timers}}
            expected = hint if timers else hint.split(" (within")[0]
            assert f"Your move: {expected}\n" in text_of(game_panel(state, now=0.0))
    combat = {"number": 1, "attacker": "yCL", "target": "bTP", "attackers": ["yCL"], "defenders": ["bTP"],
              "chosen": {"B": False, "Y": False}, "mind": {"seat": "B", "naming": True, "named": None}}
    box = "".join(text for _style, text in _combat({"combat": combat}, "B"))
    assert "Blue's Telepath names a card first" in box and "is choosing" not in box
    combat["mind"] = {"seat": "B", "naming": False, "named": 3}
    assert "Blue is choosing, Yellow is choosing" in "".join(text for _style, text in _combat({"combat": combat}, "B"))


def test_PD_TEAM_FREE_01_a_build_opened_to_the_server_is_not_called_revealed():
    """Play-test 20: after `build ...` the builder read "build: '...' revealed", as if the opponent had seen his
    team; a build is opened to the server alone and shown to the opponent when the game ends (DT-120)."""
    from dungeon_twister.client.state import SecretChoice

    text = SecretChoice("build", "build pairs=1,38", revealed=True).describe()
    assert text == ("build: you built 'build pairs=1,38', which the opponent sees when the game ends; his build is "
                    "shown, and checked, then")


def test_PD_TERR_PENTACLE_03_the_log_says_when_the_pentacles_vp_change_hands():
    """A play-test saw Yellow's VP go from 0 to 1 as his Elf stepped on the Pentacle, with no line to say why."""
    assert describe_event({"kind": "pentacle", "seat": "Y", "vp": 1, "change": 1}) == (
        "Yellow holds the Pentacle: 1 VP from it (PD-TERR-PENTACLE-02)")
    assert describe_event({"kind": "pentacle", "seat": "B", "vp": 0, "change": -1}) == (
        "Blue loses the Pentacle's VP: 0 VP from it now (PD-TERR-PENTACLE-02)")


def test_PD_TEAM_FREE_02_MUTUAL_01_the_room_pairs_say_their_set_and_what_their_rooms_have():
    """Play-test pt22 F6: in free and mutual team building the room pairs were bare numbers (1 2 3 4 37 ... 44);
    `help pairs` had no help, and Tab after `pairs=` said only "1 of 2". Each pair now says which set it comes from
    (1-4 the base set, 37-40 Prison, 41-44 Paladins & Dragons) and what its two rooms have, from the rooms' data
    (engine/*/data; 41: the Fountain of Youth, fog and 3D obstacles, docs/paladins-rooms.md): in the Tab menu of a
    free build and of a mutual pick, and in `help build`, `help pick` and `help pairs` (the table's set only)."""
    from prompt_toolkit.completion import CompleteEvent
    from prompt_toolkit.document import Document

    from dungeon_twister.client.completion import PromptCompleter
    from dungeon_twister.client.help import help_text
    from dungeon_twister.engine.boardgame.catalogue import room_pairs

    pairs = room_pairs("all_sets")
    assert {number: origin for number, (origin, _) in pairs.items()} == {
        **dict.fromkeys((1, 2, 3, 4), "base_set"), **dict.fromkeys((37, 38, 39, 40), "prison"),
        **dict.fromkeys((41, 42, 43, 44), "paladins")}
    # 41G: a pit, a portcullis, 3 obstacles and a fountain; 41D: a pit, a portcullis, 7 fog squares (paladins.json)
    assert pairs[41][1] == (("pits", 2), ("portcullises", 2), ("fog", 7), ("obstacles", 3), ("fountains", 1))
    state = free_build_state()
    menu = {c.text: c.display_meta_text for c in PromptCompleter(state).get_completions(
        Document("build pairs="), CompleteEvent(True))}
    assert menu["pairs=41,"] == "P&D: 2 pits, 2 portcullises, fog, 3D obstacles, fountain · 1 of 2"
    assert menu["pairs=37,"].startswith("Prison: ") and "arrow slits" in menu["pairs=37,"]
    assert menu["pairs=1,"].startswith("base set: ")
    state.view = {**state.view, "secret": None, "build": None, "legal": ["pick 1", "pick 41", "pick WA"]}
    state.view["set"] = "base_paladins"
    menu = {c.text: c.display_meta_text for c in PromptCompleter(state).get_completions(
        Document("pick "), CompleteEvent(True))}
    assert menu["41"] == "P&D: 2 pits, 2 portcullises, fog, 3D obstacles, fountain"  # (as "WA": its name)
    assert menu["WA"] == "Warrior"
    text = help_text("build", at_table=True, set_name="base_paladins")
    assert "  41  P&D: 2 pits, 2 portcullises, fog, 3D obstacles, fountain" in text.splitlines()
    assert " 37  " not in text  # not a pair of that table's set
    assert "  37  Prison: " in help_text("pairs") and "  37  Prison: " in help_text("pick")
    assert "Room pairs" not in help_text("build", game="cards")


def test_PR_SCEN_1_06_a_scenario_s_end_names_its_rule_without_nested_parentheses():
    """A play-test read "game over: Blue wins 2-1 (both figures out (PR-SCEN-1-06))": a scenario's reason names
    its rule in brackets, as a refusal does; the engine's reason (the protocol's value) stays as it was."""
    event = {"kind": "game_over", "winner": "B", "vp": {"B": 2, "Y": 1}, "reason": "both figures out (PR-SCEN-1-06)"}
    assert describe_event(event) == "game over: Blue wins 2-1 (both figures out [PR-SCEN-1-06])"
    event = {"kind": "game_over", "winner": None, "vp": {"B": 1, "Y": 1},
             "reason": "the Colossus was carried out wounded: a draw (PR-SCEN-2-07)"}
    assert describe_event(event) == "game over: draw 1-1 (the Colossus was carried out wounded: a draw [PR-SCEN-2-07])"


def test_BG_OBJ_FIREBALL_01_a_fireball_or_breath_that_hits_nobody_is_a_sentence_of_its_own():
    """BG-OBJ-FIREBALL-01, PD-CHAR-DRAGON-04: a fireball or a dragon's breath may hit nobody. "it hits {victims}"
    with "nobody" put in read "colpisce nessuno" in Italian, "et touche personne" in French, which need a negation
    (play-test pt25 F8): the no-victim case has its own sentence. The edge: with victims, as before."""
    from dungeon_twister.client import i18n

    missed = {"kind": "fireball", "by": "bWZ", "direction": "e", "victims": []}
    breath = {"kind": "breath", "by": "yRD", "direction": "n", "victims": []}
    assert describe_event(missed) == "Blue Wizard casts a fireball east: it hits nobody"
    assert describe_event({**missed, "victims": ["yTR", "yGB"]}) == \
        "Blue Wizard casts a fireball east: it hits Yellow Troll, Yellow Goblin"
    assert describe_event(breath).endswith("breathes fire north: it hits nobody")
    try:
        i18n.use("it")
        assert describe_event(missed).endswith(": non colpisce nessuno")
        i18n.use("fr")
        assert describe_event(missed).endswith(" et ne touche personne")
        assert describe_event(breath).endswith(" et ne touche personne")
    finally:
        i18n.use("en")


def test_DT_112_PD_TERR_ROCKFALL_01_tab_names_a_rockfall_destination():
    """DT-112, PD-TERR-ROCKFALL-01: a move onto Rockfall is legal and kills an unprotected walker; Tab offered it as
    any other square, and a play-test's Cleric died unawares (pt25 F9). The square's completion says what it is;
    the edge: another square's does not."""
    from prompt_toolkit.completion import CompleteEvent
    from prompt_toolkit.document import Document

    from dungeon_twister.client.completion import PromptCompleter
    from dungeon_twister.engine import view as engine_view
    from tests.engine.paladins.builders import pd_position

    state = ClientState("ann", connected=True)
    state.enter_table("t-1", "B")
    state.view = {**engine_view(pd_position("bCL@g15 yGB@h4"), "B"), "legal": ["move bCL g18", "move bCL g16"]}
    completed = {c.text: c.display_meta_text for c in PromptCompleter(state).get_completions(
        Document("move bCL g1"), CompleteEvent())}
    assert completed["g18"].startswith("Rockfall (whoever enters it without a shield dies, flyers and the Ghost "
                                       "excepted")
    assert completed["g16"] == "move bCL g16"


def test_BG_END_02_the_panel_says_the_game_ends_with_the_turn_once_a_side_reaches_the_target():
    """Play-test pt27 F4: Blue reached 6 of 5 VP with AP left and read only "spend your AP, or end": nothing said
    that the game was not over, nor why (BG-END-02: the active player finishes the turn, then the most VP win)."""
    state = ClientState("ann")
    state.table, state.seat = "t-1", "B"
    view = seat_view(position_text("bWA@c4 yTR@c9"), "B", table={"id": "t-1", "target_vp": 5})
    state.view = view
    assert "game ends" not in "".join(text for _, text in game_panel(state, now=0.0)), "0 VP and 0: nothing to say"
    view["players"]["B"]["vp"] = 4
    state.view = view
    assert "game ends" not in "".join(text for _, text in game_panel(state, now=0.0)), "one VP short of the target"
    view["players"]["B"]["vp"] = 5
    shown = "".join(text for _, text in game_panel(state, now=0.0))
    assert "Blue reached 5 VP: the game ends at the end of this turn, and the side with the most VP wins (BG-END-02)" in shown
    view["players"]["Y"]["vp"] = 6  # (a fireball, a push: both may reach it in one turn)
    shown = "".join(text for _, text in game_panel(state, now=0.0))
    assert "Blue and Yellow reached 5 VP: the game ends at the end of this turn" in shown


def test_a_board_game_without_a_scenario_opens_with_its_goal_and_a_turns_shape():
    """Play-test pt29 F1: a newcomer's first game dropped him into the secret team choice with no word of the goal
    or of what a turn is, while a scenario or a tutorial says its own (PR-SCEN, CG-TUT). A board game without a
    scenario now says both as it starts (BG-VP-01..03, BG-TURN); a Prison scenario keeps its own introduction."""
    from dungeon_twister.client.names import scenario_intro
    from dungeon_twister.engine import Options, new_game, view

    lines = scenario_intro(view(new_game(Options(), 1), "B"))
    assert [line.split(":")[0] for line in lines] == ["goal", "each turn"]
    assert "1 VP for each of your characters you take out" in lines[0] and "(Goblin taken out: 2 VP" in lines[0]
    assert "then `end`" in lines[1]
    prison = view(new_game(Options(set_name="prison", scenario="prison-1"), 1), "B")
    assert scenario_intro(prison)[0].startswith("scenario prison-1: ")


def test_BG_VP_the_board_games_goal_line_names_what_scores_otherwise_in_the_set_played():
    """BG-VP-02 (the Goblin's 2 VP), BG-EXIT-04 (the Treasure carried out, 1 more), PD-CHAR-DRAGON-04 (the Red
    Dragon's elimination, 2): the goal line said "(the Goblin 2, the Treasure carried out 1 more)" in every board
    game, Prison's too, which has neither, and nothing of the Red Dragon (review mix30). It reads the set's
    catalogue now."""
    from dungeon_twister.client.names import scenario_intro
    from dungeon_twister.engine import Options, new_game, view

    def goal(**options) -> str:
        return scenario_intro(view(new_game(Options(**options), 1), "B"))[0]

    common = ("goal: be the first to the table's VP (5 unless it says otherwise): 1 VP for each of your characters "
              "you take out through the opponent's start zone and for each enemy character eliminated")
    assert goal() == common + " (Goblin taken out: 2 VP; Treasure carried out: 1 VP more) (help BG-VP)"
    assert goal(set_name="prison") == common + " (help BG-VP)"
    assert goal(set_name="paladins") == common + " (Treasure carried out: 1 VP more; Red Dragon eliminated: 2 VP) " \
                                                 "(help BG-VP)"
    from dungeon_twister.client import i18n

    try:  # the parts are joined as the language joins parts that hold commas: French sets a no-break space before ;
        i18n.use("fr")
        assert "\u00a0; " in goal() and " ; " not in goal()
        i18n.use("de")
        assert "2\u00a0SP; " in goal()  # (a number and its unit kept on one line: i18n32)
    finally:
        i18n.use("en")


def test_PD_CHAR_DRAGON_03_help_rd_does_not_promise_a_vp_for_leaving_the_maze():
    """Review pd32: `help RD` said "1 VP when it leaves the maze" for the Red Dragon, who never leaves it by himself
    (Mv 0, PD-CHAR-DRAGON-03) and, carried out wounded, is saved for no VP (BG-CARRY-05). His line says so now;
    the edge: another character's line (the Goblin's 2 VP) is as it was."""
    first = client_help.help_text("RD").splitlines()[0]
    assert first.startswith("Red Dragon (RD): movement 0, combat 6; ") and "VP when it leaves" not in first
    assert "PD-CHAR-DRAGON-03" in first and "BG-CARRY-05" in first and "no VP" in first
    goblin = client_help.help_text("GB").splitlines()[0]
    assert goblin == "Goblin (GB): movement 4, combat 1, 2 VP when it leaves the maze"
