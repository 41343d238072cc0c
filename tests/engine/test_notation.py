"""Action notation: errors that say where and why; abbreviations resolved against the legal actions."""

import pytest

from dungeon_twister.engine import (AmbiguousAction, IllegalAction, NotationError, apply, format_action,
                                    parse_action, resolve_input)
from dungeon_twister.engine.boardgame.actions import Attack, Move

from .builders import assert_refused, position


@pytest.mark.parametrize("text, column, words", [
    ("", 0, "empty"),
    ("fly bWA c4", 0, "unknown verb"),
    ("move bXX c4", 5, "token"),
    ("move bWA z9", 9, "route"),
    ("attack bWA", 10, "missing"),
    ("rotate bMK A2 left", 14, "cw or ccw"),
    ("card 2 now", 7, "unexpected"),
])
def test_unparseable_text_names_column_and_reason(text, column, words):
    with pytest.raises(NotationError) as info:
        parse_action(text, "B")
    assert info.value.column == column and words in str(info.value)


@pytest.mark.parametrize("text, meant", [("mvoe bWA c4", "move"), ("shot bAS yTP", "shoot"), ("atack bWA yTR", "attack"),
                                         ("rotat bMK A2 cw", "rotate")])
def test_a_mistyped_verb_gets_the_nearest_verb(text, meant):
    with pytest.raises(NotationError) as info:
        parse_action(text, "B")
    assert f"did you mean {meant!r}?" in str(info.value) and info.value.column == 0


@pytest.mark.parametrize("text, meant", [("play 2", "card"), ("Play 3", "card"), ("go bWA c4", "move"),
                                         ("walk bWA c4", "move"), ("fight bWA yTR", "attack")])
def test_a_players_word_for_a_verb_gets_the_games_verb(text, meant):
    """Play-test pt27 F1: a newcomer's `play 2` (the action card 2) was answered "did you mean 'place'?", the
    nearest spelling, which sends him the wrong way. A few words players use for an action are read as the verb
    they mean (the guess; the action is still refused): play a card, go or walk for move, fight for attack."""
    with pytest.raises(NotationError) as info:
        parse_action(text, "B")
    assert f"did you mean {meant!r}?" in str(info.value) and info.value.column == 0


def test_a_players_word_is_guessed_only_as_a_verb_of_the_game():
    """The edge: a word's meaning is offered only where the game has that verb (the card game too has `card`)."""
    from dungeon_twister.engine.core.typed import unknown_verb

    assert "did you mean 'card'?" in str(unknown_verb("play", ["card", "move"], "play 2"))
    assert "did you mean" not in str(unknown_verb("play", ["move", "end"], "play 2"))


def test_a_verb_like_no_other_gets_no_guess_but_the_list():
    with pytest.raises(NotationError) as info:
        parse_action("xyzzy bWA", "B")
    assert "did you mean" not in str(info.value) and "(verbs: attack, break, breathe, build, card," in str(info.value)


def test_a_games_unknown_verb_lists_the_verbs_of_its_rule_set():
    """Seen in play-tests: in a base-set game, `fly bWA c4` was answered with every set's verbs (breathe, charm,
    shoot...). `resolve_input` knows the game: its refusal lists the verbs of the rule set's modules (BASE_SET:
    no `shoot`, which is unknown there and answered so, with the base set's nearest verb) that the game can use
    (no `pick` nor `build` without a mixed game's team building, PD-TEAM-MUTUAL-01, PD-TEAM-FREE-01), a Prison
    game's list has `shoot`, and the parser alone still knows every verb."""
    from dungeon_twister.engine.boardgame.notation import verbs
    from dungeon_twister.engine.boardgame.setup import new_game
    from dungeon_twister.engine.boardgame.state import Options

    base = position("bWA@c3 yTR@h18")
    assert base.options.catalogue.rules == "base"
    # the 22 verbs of the base set's notation (notation._PARSERS before any set registers its own)
    assert verbs("base") == ["attack", "break", "build", "card", "close", "combat", "drink", "end", "fireball", "heal",
                             "hide", "jump", "move", "open", "pass", "pick", "place", "regenerate", "reveal",
                             "rotate", "team", "wallwalk"]
    with pytest.raises(NotationError) as info:
        resolve_input(base, "B", "fly bWA c4")
    text = str(info.value)
    assert "(verbs: attack, break, card, close, combat, drink, end, fireball, heal, hide" in text
    assert "shoot" not in text and "breathe" not in text and info.value.column == 0
    with pytest.raises(NotationError) as info:
        resolve_input(base, "B", "shoot bWA yTR")
    assert str(info.value).startswith("unknown verb 'shoot'")
    prison = new_game(Options(set_name="prison"), 7)
    assert {"shoot", "push", "lance", "mind"} <= set(verbs(prison.options.catalogue.rules))
    assert "breathe" not in verbs(prison.options.catalogue.rules)
    assert parse_action("shoot bWA yTR", "B").verb == "shoot"


def test_a_games_unknown_verb_lists_the_verbs_its_own_tokens_can_use():
    """Play-test: in a Paladins & Dragons game an unknown verb was answered with the rule set's verbs, `fireball`
    among them, which no token of that game can use (BG-OBJ-FIREBALL-01: the Wizard's, with a wand; neither is in
    PD-COMP-04). The list is the game's: the verbs every game of the rule set has (move, rotate, pass, ...) and
    those some token of either team can use (the Golem's `smash`, PD-CHAR-GOLEM-01; the Ring's `teleport`); a
    verb of the rule set that none can is unknown in that game, and a beginner's game (BG-OPT-07) has no
    `wallwalk` nor `drink` (the Wall-Walker and the Speed Potion are out). While a mixed game's teams are being
    picked (PD-TEAM-MUTUAL-01), every token of the pool may still join: all their verbs, and `pick`, not `build`."""
    from dungeon_twister.engine.boardgame.notation import verbs
    from dungeon_twister.engine.boardgame.setup import new_game
    from dungeon_twister.engine.boardgame.state import Options

    paladins = new_game(Options(set_name="paladins"), 7)
    assert {"fireball", "heal", "wallwalk", "drink"} <= set(verbs(paladins.catalogue.rules))
    with pytest.raises(NotationError) as info:
        resolve_input(paladins, "B", "fly bGO c4")
    text = str(info.value)
    assert "smash" in text and "teleport" in text and "move" in text and "rotate" in text and "pass" in text
    for verb in ("fireball", "heal", "wallwalk", "drink", "regenerate", "pick", "build"):
        assert verb not in text
    with pytest.raises(NotationError) as info:
        resolve_input(paladins, "B", "fireball bIL n")
    assert str(info.value).startswith("unknown verb 'fireball'")
    from dungeon_twister.engine.boardgame.notation import game_verbs

    beginner = new_game(Options(beginner=True), 7)
    assert {"fireball", "heal", "regenerate"} <= game_verbs(beginner)
    assert not {"wallwalk", "drink", "pick", "build"} & game_verbs(beginner)
    draft = new_game(Options(set_name="base_paladins", teams="mutual"), 7)
    assert draft.phase == "draft" and {"pick", "fireball", "smash", "wallwalk"} <= game_verbs(draft)
    assert "build" not in game_verbs(draft)


def test_own_tokens_may_omit_their_colour():
    assert parse_action("move WA c5", "B") == parse_action("move bWA c5", "B")


def test_route_is_a_witness_not_part_of_the_action():
    routed = parse_action("move bWA c4-c5-d5", "B")
    assert routed == Move("B", "bWA", (3, 4)) and routed.route == ((2, 3), (2, 4), (3, 4))
    assert format_action(routed) == "move bWA d5"


@pytest.mark.parametrize("move, text", [
    (Move("B", "bWA", (3, 4)), "move bWA d5"),
    (Move("B", "bWA", (3, 4), "bTS"), "move bWA d5 +bTS"),
    (Move("B", "bPA", (3, 4), "bSW+bTS"), "move bPA d5 +bSW +bTS"),  # a Paladin takes two (movement.takes)
    (Move("B", "bWA", (3, 4), None, (("bTS", (2, 3)),)), "move bWA d5 bTS@c4"),
    (Move("B", "bWA", (3, 4), None, (("bTS", (2, 3)), ("bSW", (0, 0)), ("bRP", (0, 1)))),
     "move bWA d5 bRP@a2 bSW@a1 bTS@c4"),  # what is left, sorted (by id, then square)
    (Move("B", "bWA", (3, 4), "bRP", (("bTS", (2, 3)), ("bTS", (1, 3)))), "move bWA d5 +bRP bTS@b4 bTS@c4"),
    (Move("B", "bWA", (9, 23), None, (("bTS", [2, 3]),)), "move bWA j24 bTS@c4"),  # a square named first here, a list
])
def test_a_moves_text_names_what_it_takes_then_what_it_leaves_in_order(move, text):
    """move_text writes the text without `_items`' lists (issue 7): the same canonical text, which parses back."""
    assert format_action(move) == text
    assert parse_action(text, "B") == Move("B", move.token, move.dest, move.take,
                                           tuple((t, tuple(sq)) for t, sq in sorted(move.leave)))


def test_resolve_input_accepts_unique_abbreviations():
    state = position("bWA@c3 yTR@c4 bTH@h3")
    assert resolve_input(state, "B", "attack yTR") == Attack("B", "bWA", "yTR")
    assert resolve_input(state, "B", "WA c1") == parse_action("move bWA c1", "B")


def test_resolve_input_reports_ambiguity_with_candidates():
    state = position("bWA@c3 bTH@d4 yTR@c4")
    with pytest.raises(AmbiguousAction) as info:
        resolve_input(state, "B", "attack yTR")
    assert set(info.value.candidates) == {"attack bWA yTR", "attack bTH yTR"}


def test_resolve_input_keeps_the_strict_error_when_nothing_matches():
    state = position("bWA@c3 yTR@h18")
    with pytest.raises(NotationError):
        resolve_input(state, "B", "teleport somewhere")
    with pytest.raises(IllegalAction) as info:
        apply(state, resolve_input(state, "B", "move bWA j9"))
    assert info.value.rule == "BG-MOVE-01"


def test_an_abbreviation_that_matches_nothing_legal_says_so_not_that_a_verb_is_missing():
    """`h20`, `A1` or `bTH` typed where no legal action matches: the words are an abbreviation's (a square, a
    room, a token), so the error says that nothing legal matches them, not the parser's "unknown verb" with its
    list of verbs. A misspelled verb (`mvoe bWA c4`) and an error further in the text keep the parser's own
    error. (`bWA j9`, a whole move without its verb, is that move: the next test.)"""
    state = position("bWA@c3 yTR@h18")
    for typed in ("h20", "A1", "bTH"):
        with pytest.raises(NotationError) as info:
            resolve_input(state, "B", typed)
        assert info.value.template == "{typed} matches none of your legal actions now"
        assert str(info.value) == f"{typed!r} matches none of your legal actions now"
    for typed, column in (("mvoe bWA c4", 0), ("END", 0), ("move bWA z99", 9)):
        with pytest.raises(NotationError) as info:
            resolve_input(state, "B", typed)
        assert info.value.template != "{typed} matches none of your legal actions now" and info.value.column == column
    assert resolve_input(state, "B", "c4") == parse_action("move bWA c4", "B")


def test_BG_MOVE_01_a_move_typed_without_its_verb_is_refused_with_the_rule_it_breaks():
    """Seen by hand: `bWA d1` (a face-down room's square) was refused with "matches none of your legal actions
    now", while `move bWA d1` was refused with BG-GEO-11. A whole move with its verb left out is that move, so
    `apply` names the rule: BG-MOVE-01 for a square beyond 3 steps, BG-AP-02 for a figure not in play or not the
    seat's. The Card Game's moves need their path, so its verb-less words still match nothing."""
    from dungeon_twister.engine.families import CARDS
    from .cards.builders import build

    state = position("bWA@c3 yTR@h18")
    for typed, rule, message in (("bWA j9", "BG-MOVE-01", "j9 is not within 3 connected steps of bWA"),
                                 ("WA j9", "BG-MOVE-01", "j9 is not within 3 connected steps of bWA"),
                                 ("TH c1", "BG-AP-02", "bTH is not in play"),
                                 ("yTR h17", "BG-AP-02", "yTR is not one of your characters")):
        action = resolve_input(state, "B", typed)
        assert format_action(action) == format_action(parse_action(f"move {typed}", "B"))
        with pytest.raises(IllegalAction) as info:
            apply(state, action)
        assert (info.value.rule, str(info.value)) == (rule, f"{rule}: {message}")
    with pytest.raises(NotationError) as refused:
        CARDS.resolve_input(build({"bMK": "a1", "yMK": "d4"}), "B", "MK a3")
    assert refused.value.template == "{typed} matches none of your legal actions now"


def test_BG_TURN_01_an_abbreviation_typed_out_of_turn_is_refused_as_not_your_turn():
    """Seen by hand: Yellow typing `move` or `c5` on Blue's turn was told that it "matches none of your legal
    actions now", while `move yTR c7` typed in full was refused by the turn rule. Nothing being legal for a seat
    not to act, an abbreviation or a verb alone now gets the same refusal (BG-TURN-01 in the main phase: apply's
    own); a misspelled verb keeps its notation error, and the Card Game answers with CG-TURN-01."""
    from dungeon_twister.engine.families import CARDS
    from .cards.builders import build

    state = position("bWA@c3 yTR@h18")
    for typed in ("move", "c5", "yTR h17", "rotate"):
        with pytest.raises(IllegalAction) as info:
            resolve_input(state, "Y", typed)
        assert str(info.value) == "BG-TURN-01: it is not your turn to act"
    with pytest.raises(NotationError):
        resolve_input(state, "Y", "mvoe yTR h17")
    with pytest.raises(IllegalAction) as info:
        CARDS.resolve_input(build({"bMK": "a1", "yMK": "d4"}), "Y", "a2")
    assert str(info.value) == "CG-TURN-01: it is not your turn to act"  # ("Y is not to act": a play-test)


def test_an_unfinished_action_that_nothing_legal_completes_says_so_not_what_the_notation_misses():
    """A verb alone (`rotate`, `jump`: no gear, no jump within reach) or `move bTH` (no such figure) where no legal
    action starts that way: the parser stops at the end of the text ("missing a token (like bWA)", "missing a
    destination square"), but what the player needs to know is that nothing legal completes it. A verb alone that
    is legal is completed as before (`move bWA` lists its moves). (`move bTH` says why since play-test pt24, as
    `move bTH c4` does: BG-AP-02, the Thief is not in play.)"""
    state = position("bWA@c3 yTR@h18")
    for typed in ("rotate", "jump", "attack", "reveal "):
        with pytest.raises(NotationError) as info:
            resolve_input(state, "B", typed)
        assert info.value.template == "{typed} matches none of your legal actions now"
        assert str(info.value) == f"{typed!r} matches none of your legal actions now"
    with pytest.raises(IllegalAction) as refused:
        resolve_input(state, "B", "move bTH")
    assert (refused.value.rule, refused.value.message) == ("BG-AP-02", "bTH is not in play")
    with pytest.raises(AmbiguousAction) as ambiguous:
        resolve_input(state, "B", "move bWA")
    assert "move bWA c4" in ambiguous.value.candidates


def test_an_ambiguous_abbreviation_names_twelve_of_its_actions_and_says_when_there_are_more():
    """Play-test: `move yTH` answered "matches 25 actions:" and 12 of them, read as the whole list. Up to 12 the
    refusal names them all; beyond, the first 12 and "…"."""
    from dungeon_twister.engine import legal_texts
    from dungeon_twister.engine.core.typed import SHOWN_CANDIDATES

    counts = []
    for state, typed in ((position("bWA@c3 yTR@h18"), "move bWA"), (position("bWA@c3 bTH@d4 yTR@c4"), "attack yTR")):
        count = sum(text.startswith(typed + " ") or text.endswith(" yTR") and typed == "attack yTR"
                    for text in legal_texts(state, "B"))
        with pytest.raises(AmbiguousAction) as ambiguous:
            resolve_input(state, "B", typed)
        error = ambiguous.value
        assert error.values["count"] == count and len(error.candidates) == min(count, SHOWN_CANDIDATES)
        assert str(error).endswith(", …") == (count > SHOWN_CANDIDATES), (count, str(error))
        counts.append(count)
    assert counts[0] > SHOWN_CANDIDATES and counts[1] == 2  # the Warrior's moves, "…"; the two attacks, no "…"


def test_full_width_letters_digits_and_spaces_are_read_as_ascii():
    """Play-test pt25 F17: `move bTH c０` (a full-width digit, as an East Asian keyboard types it) was refused at the
    square. What a player types is read through Unicode's NFKC first: full-width letters, digits and the
    ideographic space are the ASCII ones; the limit on a typed text holds after it too (NFKC lengthens some)."""
    from dungeon_twister.engine.core.typed import MAX_ACTION_TEXT

    state = position("bWA@c3 yTR@c4 bTH@h3")
    for typed in ("move bTH h４", "ｍｏｖｅ　ｂＴＨ　ｈ４", "bTH ｈ4"):
        assert format_action(resolve_input(state, "B", typed)) == "move bTH h4", typed
    assert resolve_input(state, "B", "attack ｙＴＲ") == Attack("B", "bWA", "yTR")
    with pytest.raises(NotationError):
        resolve_input(state, "B", "move bTH h٤")  # (an Arabic-Indic four is a digit, but no ASCII one under NFKC)
    ligatures = "\ufdfa" * (MAX_ACTION_TEXT // 18 + 1)  # within the limit as typed; 18 characters each once read
    assert len(ligatures) <= MAX_ACTION_TEXT
    with pytest.raises(NotationError) as info:
        resolve_input(state, "B", ligatures)
    assert info.value.values == {"limit": MAX_ACTION_TEXT, "length": 18 * len(ligatures)}


def test_a_piece_code_typed_in_any_case_is_that_piece_where_a_piece_is_expected():
    """Play-test pt22 F5: the boards show a wounded character in lower case (`ytr`), and `attack bTH ybs` typed as
    seen was refused as a bad word. Where the notation expects a piece (docs/notation.md), its code is read in any
    case and written canonically (`format_action`: `yTR`); so is a character code in a team or a build. Words
    that are no piece keep their meaning: squares (`c4`), verbs, `end`; `yes` is no Escapist (`yES`, a code of
    Prison), alone or first. A lone piece in another case is not taken for the piece but named ("did you mean
    yTR?"), since a lone word may be meant otherwise."""
    state = position("bWA@c3 yTR@c4! bTH@h3")
    for typed in ("attack bWA ytr", "attack bwa YTR", "attack WA ytr", "attack wa yTr"):
        action = parse_action(typed, "B")
        assert action == Attack("B", "bWA", "yTR") and format_action(action) == "attack bWA yTR"
    assert resolve_input(state, "B", "attack ytr") == Attack("B", "bWA", "yTR")  # the attacker left out
    assert format_action(resolve_input(state, "B", "bth h4")) == "move bTH h4"
    assert format_action(resolve_input(state, "B", "move th h4")) == "move bTH h4"
    assert format_action(parse_action("move bWA c4 +brp bth@c3", "B")) == "move bWA c4 +bRP bTH@c3"
    assert format_action(parse_action("team b0=th d0=wa g0=TR i0=gb out=go", "B")) == \
        "team b0=TH d0=WA g0=TR i0=GB out=GO"
    # a square typed in capitals is that square (play-test pt25 F17: `MOVE BGH C0` was refused at `C0`, the verb
    # and the piece read); written canonically, in lower case
    assert format_action(parse_action("move BWA D4 +BRP BTH@C3", "B")) == "move bWA d4 +bRP bTH@c3"
    assert parse_action("move bWA C5-D5", "B").route == ((2, 4), (3, 4))
    assert format_action(parse_action("team B0=TH D0=WA G0=TR I0=GB", "B")) == "team b0=TH d0=WA g0=TR i0=GB"
    assert format_action(resolve_input(state, "B", "BTH H4")) == "move bTH h4"
    with pytest.raises(NotationError):
        parse_action("move bWA K4", "B")  # (no file k, in either case)
    assert format_action(resolve_input(state, "B", "end")) == "end"
    with pytest.raises(IllegalAction) as info:  # a whole move of another case's piece: the rule it breaks
        apply(state, resolve_input(state, "B", "bth j9"))
    assert info.value.rule == "BG-MOVE-01"
    with pytest.raises(NotationError) as info:
        resolve_input(state, "B", "ytr")
    assert str(info.value) == "'ytr' matches none of your legal actions now: did you mean yTR?"
    for typed in ("yes", "yes c4"):
        with pytest.raises(NotationError) as info:
            resolve_input(state, "B", typed)
        assert str(info.value).startswith("unknown verb 'yes'") and info.value.column == 0
    with pytest.raises(NotationError):
        parse_action("attack bWA yXX", "B")  # a code of no piece stays refused


def test_a_route_typed_with_spaces_is_shown_with_hyphens():
    """Play-test pt22 F10: `move bTH b0 b1` was refused with "expected +token or token@square, got 'b1'", which
    never says that a route is written `b0-b1` (docs/notation.md)."""
    state = position("bWA@c3 yTR@h18 bTH@b1")
    for typed, route in (("move bTH b0 b1", "b0-b1"), ("move bTH b1 b2 c2 +bRP", "b1-b2-c2")):
        with pytest.raises(NotationError) as info:
            resolve_input(state, "B", typed)
        assert info.value.template == "a route is written with hyphens, like {route}, not with spaces"
        assert info.value.values == {"route": route} and info.value.column == typed.index(route[3:5])


def test_BG_JUMP_03_04_05_a_jump_nothing_legal_completes_says_why():
    """Play-test pt22 F10: `jump bTH` or `jump bTH b2` with no pit beside the Thief said only "matches none of
    your legal actions now". The refusal names the rule and the reason, as a jump typed in full would: no pit
    beside him (BG-JUMP-03), not beside the pit named (BG-JUMP-03), a character on the pit (BG-JUMP-05: the
    Thief, on a Rope), no valid landing square beside it (BG-JUMP-04: c9 holds his own figure, b8 a wounded
    enemy); a figure of the other side is the actor's rule (BG-AP-02). (c8 and d8 are pits, test_rules_move.)"""
    for tokens, typed, rule, message in (
            ("bWA@c5", "jump bWA", "BG-JUMP-03", "no pit lies beside bWA"),
            ("bWA@c5", "jump WA c6", "BG-JUMP-03", "no pit lies beside bWA"),
            ("bWA@c7", "jump bWA d8", "BG-JUMP-03", "bWA is not beside the pit d8"),
            ("bWA@c7 bTH@c8 bRP@c8", "jump bWA", "BG-JUMP-05", "a character is on the pit c8"),
            ("bWA@c7 bCL@c9 yGB@b8!", "jump bWA c8", "BG-JUMP-04",
             "no square beside the pit c8 is a valid landing for bWA"),
            ("bWA@c7 yGB@c6", "jump yGB", "BG-AP-02", "yGB is not one of your characters")):
        with pytest.raises(IllegalAction) as info:
            resolve_input(position(tokens), "B", typed)
        assert (info.value.rule, info.value.message) == (rule, message), typed
    with pytest.raises(AmbiguousAction):  # a legal jump is still completed
        resolve_input(position("bWA@c7"), "B", "jump bWA")


def test_BG_TURN_01_03_BG_AP_02_a_half_typed_action_of_a_figure_that_may_not_act_says_why():
    """Play-test pt24 F7: `move yWA` before the action card, `move bGB` with no AP left, `attack yWA` of a
    wounded figure or `move bTH` of the opponent's answered only "'move yWA' matches none of your legal actions
    now", while the whole action (`move yWA c21`) names the rule and the reason. The figure's first check
    (`Ctx.actor`) now answers the half-typed one too, with the rule its handler cites."""
    for tokens, kwargs, typed, rule, message in (
            ("bWA@c3 yTR@h18", {"ap": 0}, "move bWA", "BG-TURN-03", "no action point left"),
            ("bWA@c3 yTR@h18", {"ap": 0}, "reveal WA", "BG-TURN-03", "no action point left"),
            ("bWA@c3 yTR@h18", {"phase": "card", "ap": 0}, "move bWA", "BG-TURN-01", "play an action card first"),
            ("bWA@c3! bTR@h3 yTR@h18", {}, "move bWA", "BG-AP-02", "bWA is wounded and cannot act"),
            ("bWA@c3! bTR@h3 yTR@c4", {}, "attack bWA", "BG-COMBAT-08", "bWA is wounded and cannot act"),
            ("bWA@c3 yTR@h18", {}, "move yTR", "BG-AP-02", "yTR is not one of your characters")):
        state = position(tokens, **kwargs)
        with pytest.raises(IllegalAction) as info:
            resolve_input(state, "B", typed)
        assert (info.value.rule, info.value.message) == (rule, message), typed
        verb, figure = typed.split()
        if verb != "reveal":  # (the rooms of these positions are all revealed: a whole reveal cites BG-REVEAL-10)
            whole = {"move": "move {} c2", "attack": "attack {} yTR"}[verb]
            assert_refused(state, whole.format(figure if len(figure) == 3 else "b" + figure), rule)
    # the edge: a figure that may act but has no such action is "matches none" as before; a legal one completes
    with pytest.raises(NotationError) as info:
        resolve_input(position("bWA@c3 yTR@h18"), "B", "attack bWA")
    assert str(info.value) == "'attack bWA' matches none of your legal actions now"
    with pytest.raises(AmbiguousAction):
        resolve_input(position("bWA@c3 yTR@h18"), "B", "move bWA")


@pytest.mark.parametrize(("text", "example", "column"), [
    ("build pairs=2, 42 characters=WA objects=KY", "pairs=2,42", 15),  # play-test pl31's: "got ''"
    ("build pairs=2 42 characters=WA objects=KY", "pairs=2,42", 14),
    ("build pairs=2 ,42 characters=WA objects=KY", "pairs=2,42", 14),
    ("build pairs=2,42 characters=WA, TH,GB objects=KY", "characters=WA,TH,GB", 32),
])
def test_PD_TEAM_FREE_01_a_build_list_typed_with_a_space_says_a_list_has_no_spaces(text, example, column):
    """Play-test pl31: `build pairs=2, 42 ...` was refused "expected a room pair number in pairs=, got '' at column
    7". A space inside a list (after its comma, before it, or instead of it) is a notation error that says so and
    shows the list written whole. The edge: a list that ends with a comma before the next field, or the text's end,
    keeps its own error (the item missing is empty); and it stays a notation error, never an illegal action."""
    with pytest.raises(NotationError) as caught:
        parse_action(text, "B")
    assert caught.value.message == f"a list has no spaces: {example}" and caught.value.column == column
    for ending in ("build pairs=2, characters=WA objects=KY", "build pairs=2,"):
        with pytest.raises(NotationError, match="expected a room pair number in pairs=, got ''"):
            parse_action(ending, "B")


@pytest.mark.parametrize(("text", "example", "column"), [
    ("build characters=AS, BE objects=AR", "characters=AS,BE", 21),
    ("build characters=AS BE,BK objects=AR", "characters=AS,BE,BK", 20),
    ("build characters=AS ,BE objects=AR", "characters=AS,BE", 20),
])
def test_CG_SEL_FULL_01_a_card_build_list_typed_with_a_space_says_a_list_has_no_spaces(text, example, column):
    """As for the board game's build (play-test pl31): the Card Game's full frontal build, a space in a list."""
    from dungeon_twister.engine.cards import parse_action as parse_card_action

    with pytest.raises(NotationError) as caught:
        parse_card_action(text, "B")
    assert caught.value.message == f"a list has no spaces: {example}" and caught.value.column == column
