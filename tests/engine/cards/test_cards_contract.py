"""The card game under the rule families' contract (engine/families.py): what the server, the client and the
bots use of it, with the same functions as the board game's: typed input, timeouts, records, bots."""

from __future__ import annotations

import json

import pytest

from dungeon_twister.engine.cards import CardOptions, EndTurn, apply, legal_actions, new_game, parse_action
from dungeon_twister.engine.cards.records import game_header, parse_start
from dungeon_twister.engine.cards.timeouts import timeout_action
from dungeon_twister.engine.cards.typed import legal_texts, resolve_input
from dungeon_twister.engine.core.errors import AmbiguousAction, NotationError
from dungeon_twister.engine.core.rng import Rng
from dungeon_twister.engine.families import BOARD, CARDS, FAMILIES, family_for, family_of
from dungeon_twister.engine.tools.card_bots import GreedyBot, RandomBot, SimpleBot

from .builders import act, build, refused


def test_each_state_and_each_options_name_their_family():
    assert family_of(new_game(CardOptions(2), 1)) is CARDS and family_for(CardOptions(3)) is CARDS
    assert FAMILIES == {"board": BOARD, "cards": CARDS}
    assert CARDS.secret_kind("hide").__name__ == "Hide" and CARDS.secret_kind("combat-3").__name__ == "CombatCard"
    assert BOARD.secret_kind("team").__name__ == "ChooseTeam"


def test_typed_words_name_one_legal_action_or_say_why_not():
    """Blue's Mechanork on a1 (blue1's rotation zone): `bMK b2`... abbreviations match the legal texts in order."""
    s = build({"bMK": "a1", "ySN": "c4"}, ap=(3, 0))
    texts = legal_texts(s, "B")
    assert texts == [t for t in map(lambda a: CARDS.format_action(a), legal_actions(s, "B"))]
    assert resolve_input(s, "B", "rotate bMK A cw") == parse_action("rotate bMK A cw", "B")
    assert resolve_input(s, "B", "MK A cw") == parse_action("rotate bMK A cw", "B")  # `MK` for `bMK`
    with pytest.raises(AmbiguousAction) as many:
        resolve_input(s, "B", "move bMK")
    assert all(t.startswith("move bMK ") for t in many.value.candidates)
    with pytest.raises(NotationError, match="unknown verb"):
        resolve_input(s, "B", "fly bMK a2")


@pytest.mark.parametrize(("text", "word"), [
    ("hide bCB:1 bCL:9", "bCL:9"),  # seen by hand: it said "at column 1", the start of the text
    ("rotate bMK A up", "up"),
    ("open bMK a1 q", "q"),
    ("bend bMK a1 q", "q"),
    ("mind 9", "9"),
    ("card x", "x"),
    ("frenzy 3", "3"),
    ("pick W4", "W4"),  # (`pick wa` is `pick WA`: a code in any case)
    ("jump bMK b2 9", "9"),
    ("end now", "now"),  # a word too many (it said column 1: play-test pt25b F4)
])
def test_a_card_notation_error_says_where_in_the_text(text, word):
    """The card notation's errors name the column of the word they refuse (1-based, as the board notation's), so
    that the client's "at column N" points at it."""
    with pytest.raises(NotationError) as error:
        parse_action(text, "B")
    assert error.value.full_values["column"] == text.index(word) + 1
    assert str(error.value).endswith(f" at column {text.index(word) + 1}: {text!r}")


@pytest.mark.parametrize(("text", "message"), [
    ("pick", "pick takes one word after it"),
    ("end now", "end takes nothing after it"),
    ("rotate bMK", "rotate takes three words after it"),  # (the figure, the room, the way: rotate bMK A up)
    ("steal bTH", "steal takes two words after it"),  # (the pickpocket, what he takes: steal bPP yKY)
])
def test_a_verb_with_too_few_or_too_many_words_says_how_many_it_takes_in_words(text, message):
    """Play-test pt23b typed a bare `pick` when the opponent was to pick and read "pick takes 1 word(s) at column
    1": the count is of the words after the verb, said in words (the engine has no plural forms)."""
    with pytest.raises(NotationError) as error:
        parse_action(text, "B")
    assert error.value.message == message
    if text != "end now":  # too few words: the error is at the end of the text (a word too many: the test above)
        assert error.value.full_values["column"] == len(text) + 1


def test_CG_OPT_01_02_the_timeouts_end_the_turn_and_lay_the_zero():
    """CG-OPT-01: the turn stops (the AP beyond 3 are lost, as at any end); CG-OPT-02: +0 is deemed played."""
    s = build({"bWA": "a2", "ySN": "a2"}, ap=(5, 0), combat=True)
    assert timeout_action(s, "B") == EndTurn("B") and timeout_action(s, "Y") is None  # Yellow is not to act
    ended = apply(s, timeout_action(s, "B"))[0]
    assert ended.player("B").ap == 3  # CG-TURN-05: 5 AP, 3 kept
    fighting = act(s, "attack bWA ySN")
    assert timeout_action(fighting, "B") == parse_action("card 0", "B")
    assert timeout_action(fighting, "Y") == parse_action("card 0", "Y")
    without_zero = build({"bWA": "a2", "ySN": "a2"}, ap=(5, 0), combat=True, cards=((2, 4), (0, 1)))
    assert timeout_action(act(without_zero, "attack bWA ySN"), "B") == parse_action("card 2", "B")  # its lowest
    assert timeout_action(new_game(CardOptions(2), 4), "B") is None  # the start characters: no rule fallback


def test_CG_OPT_02_the_revealers_opponent_passes_his_objects_back_to_him():
    """Blue reveals room B where his own Key lies face down: Yellow is to place it (CG-REVEAL-06). Yellow may
    leave it to Blue (`pass`, what his timeout does); Blue then places it, and may not pass it back."""
    s = build({"bMK": "B2>c1", "yWA": "a4"}, revealed=(True, False, True, True), items={"bKY": "seeded:B"})
    placing = act(s, "reveal bMK B")
    assert placing.placement.placers == ("Y",) and placing.to_act == ("Y",)
    assert parse_action("pass", "Y") in legal_actions(placing, "Y")
    assert timeout_action(placing, "Y") == parse_action("pass", "Y")
    passed, events = apply(placing, parse_action("pass", "Y"))
    assert passed.placement.placers == ("B",) and [e.kind for e in events] == ["placement_passed"]
    assert parse_action("pass", "B") not in legal_actions(passed, "B")
    refused(passed, "pass", "CG-OPT-02")
    assert timeout_action(passed, "B") == parse_action("place bKY c1", "B")  # the first free zone
    assert act(passed, "place bKY d2").item("bKY").at == (3, 1) and act(passed, "place bKY d2").phase == "main"
    clock = CARDS.clock(placing)
    assert (clock.turn, clock.running, clock.placer) == ((3, "B"), False, "Y")
    assert CARDS.clock(passed).running and CARDS.clock(passed).placer is None


def test_a_record_names_its_game_and_tutorial_and_replays():
    header = game_header(42, CardOptions(3))
    assert header == "game cards seed=42 tutorial=3"
    assert parse_start(header) == new_game(CardOptions(3), 42)
    with pytest.raises(NotationError, match="game cards seed=N tutorial=T"):
        parse_start("game cards seed=42")
    with pytest.raises(NotationError, match="no tutorial"):
        parse_start("game cards seed=42 tutorial=7")
    draft = CardOptions(None, "standard", "draft")
    assert game_header(5, draft) == "game cards seed=5 scenario=standard teams=draft"
    assert parse_start(game_header(5, draft)) == new_game(draft, 5)
    with pytest.raises(NotationError, match="CG-SEL"):
        parse_start("game cards seed=5 scenario=standard teams=free")


def test_CG_EXIT_the_greedy_bot_takes_an_exit_when_one_is_offered():
    """bSN on a4 (Yellow's end of the maze) may leave through Yellow's start zone (CG-EXIT-01: 1 VP). (A friend
    stays, the Troll on his start zone: the side's last unwounded figure leaves only if that wins.)"""
    s = build({"bSN": "a4", "yMK": "d1", "bTR": "B2>c1"}, ap=(3, 0))
    legal = legal_texts(s, "B")
    exits = [t for t in legal if t.startswith("move bSN") and t.split()[-1] in ("Y1", "Y2")]
    assert exits, legal
    view = CARDS.view(s, "B")
    assert GreedyBot().choose(view, legal, Rng(1)) == exits[0]
    scored = apply(s, parse_action(exits[0], "B"))[0]
    assert scored.player("B").vp == 1
    assert RandomBot().choose(view, legal, Rng(1)) in legal


def test_CG_OPT_02_the_greedy_bot_places_the_revealers_objects_rather_than_passing_them_back():
    s = build({"bMK": "B2>c1", "yWA": "a4"}, revealed=(True, False, True, True), items={"bKY": "seeded:B"})
    placing = act(s, "reveal bMK B")
    legal = legal_texts(placing, "Y")
    assert "pass" in legal
    chosen = {GreedyBot().choose(CARDS.view(placing, "Y"), legal, Rng(seed)) for seed in range(20)}
    assert chosen and all(text.startswith("place bKY ") for text in chosen)


def test_a_card_record_replays_with_dt_engine_play(tmp_path, capsys):
    """A record as the server writes it (start line, '#' comments, `B: <action>` lines) of a tutorial-2 game the
    greedy bots play to the end: `dt-engine play` replays it to the same outcome; an illegal line names itself
    and its rule."""
    from dungeon_twister.engine.tools.cli import main

    options, rng = CardOptions(2), Rng(1)
    state = new_game(options, 1)
    lines = [game_header(1, options), "# table t1-test"]
    bots = {"B": GreedyBot(), "Y": GreedyBot()}
    while state.outcome is None and len(lines) < 3000:
        seat = state.to_act[0]
        text = bots[seat].choose(CARDS.view(state, seat), legal_texts(state, seat), rng)
        state = apply(state, parse_action(text, seat))[0]
        lines.append(f"{seat}: {text}")
    assert state.outcome is not None
    path = tmp_path / "game.txt"
    path.write_text("\n".join(lines) + "\n")
    assert main(["play", str(path), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["outcome"] == {"winner": state.outcome.winner, "vp": dict(state.outcome.vp), "reason": "vp"}
    assert result["position"] == CARDS.format_position(state)
    path.write_text("\n".join(lines[:3] + ["B: end"]) + "\n")  # line 4: nobody ends a turn while hiding
    assert main(["play", str(path)]) == 1
    assert "line 4 (B: end)" in capsys.readouterr().err


def test_the_greedy_bot_routes_each_figure_by_what_its_abilities_let_it_cross():
    """On builders.py's maze, Blue's way out is b4 or c4 (a4's north is a wall, d4's a pit). The Snake-man passes
    the slits a3|a4 and d3|d4 (a3 and d3: 3 steps), then the closed portcullis c3|c4 sends c3 round by d3 (4), b3 by
    c3 (5), c2 through its slit (5), d1 by d2 (5); c1 has no way (a pit north, a portcullis east). A Mechanork has
    no slit to pass: only the top row; with a Rope, d4's pit is his way out too. From d2 (4) the bot's Snake-man
    (3 points) walks to c4 (1); from c1, with no route, he goes to B2 facing d1 (5 + 1)."""
    from dungeon_twister.engine.cards.maze import zone_name
    from dungeon_twister.engine.tools.card_bots import _abilities, _nearer, routes

    v = CARDS.view(build({"bSN": "c1", "yWA": "a1"}), "B")

    def named(code, carries=None):
        found = routes(v, "B", _abilities({"code": code, "carries": carries}))
        return {zone_name(z): n for z, n in found.items()}

    assert named("SN") == {"b4": 1, "c4": 1, "a4": 2, "d4": 2, "a3": 3, "d3": 3, "c3": 4, "d2": 4, "b3": 5, "c2": 5,
                           "d1": 5}
    assert named("MK") == {"b4": 1, "c4": 1, "a4": 2, "d4": 2}
    assert named("MK", "bRP")["d4"] == 1
    for at, expected in (("d2", ["move bSN d3 d4 c4"]), ("c1", ["move bSN B2 ^d1"])):
        s = build({"bSN": at, "yWA": "a1"})
        assert _nearer(CARDS.view(s, "B"), "B", legal_texts(s, "B")) == expected


def test_CG_ROT_03_the_greedy_bot_turns_a_room_only_to_stand_nearer_the_way_out():
    """Play-test: the greedy bot wasted its turns (no rotation planned; `end` with 6 AP). It now turns a room when no
    move gets nearer and the turn brings its figures nearer (`_standing`, by `routes`). Its model of a rotation
    (`_turned`: the room a quarter turn on, its figures with it, CG-ROT-03) agrees with the engine's for every
    rotation offered along these games; no rotation it chose left its figures farther, in the engine's view, by its
    own reckoning (`_Seen.standing`: its routes count jump cards and blocked exits, which `_standing`'s do not),
    unless it was the first quarter of a half turn (the same room turned again next, CG-ROT-01), or its side had
    no way out at all (it then tries things), or it stopped an enemy who could leave next turn (`_Seen.menaces`,
    CG-EXIT-01); and some left them nearer."""
    from dungeon_twister.engine.tools.card_bots import _Seen, _standing, _turned

    chosen = 0
    for seed in range(3):
        state, rng, played, first_quarter = new_game(CardOptions(1), seed), Rng(seed + 1), 0, None
        bot = GreedyBot()  # one a game, as a server's table keeps (its memory of the turn)
        while state.outcome is None and played < 300:
            seat = state.to_act[0]
            legal, view = legal_texts(state, seat), CARDS.view(state, seat)
            for text in legal:
                if text.startswith("rotate "):
                    after = apply(state, parse_action(text, seat))[0]
                    assert _standing(_turned(view, text), seat) == _standing(CARDS.view(after, seat), seat), text
            text = bot.choose(view, legal, rng)
            if first_quarter is not None:
                assert text.split()[2:] == first_quarter.split()[2:], (first_quarter, text)
                first_quarter = None
            state = apply(state, parse_action(text, seat))[0]
            if text.startswith("rotate ") and state.phase == "main":
                seen = _Seen(view, seat)
                later = _Seen(CARDS.view(state, seat), seat)
                gained = seen.standing(seat) - later.standing(seat)
                if gained < 0 and not seen.stuck() and seen.menaces() <= later.menaces():
                    first_quarter = text
                chosen += gained > 0
            played += 1
    assert chosen >= 2


def test_CG_TURN_05_the_simple_bot_ends_no_turn_with_more_AP_than_it_keeps():
    """CG-TURN-05: a turn's end keeps 3 AP at most; with 5, the simple bot (the greedy one of before 2026-11-30,
    the bench's baseline) spends one on something else whatever its draw; with 3 it may end (a kept AP is not
    lost). The greedy bot's own choices: test_card_bots.py."""
    for ap, may_end in ((5, False), (3, True)):
        s = build({"bSN": "c1", "yWA": "a1"}, ap=(ap, 0))
        legal, view = legal_texts(s, "B"), CARDS.view(s, "B")
        assert "end" in legal
        chosen = {SimpleBot().choose(view, legal, Rng(seed)) for seed in range(40)}
        assert chosen <= set(legal) and ("end" in chosen) == may_end, chosen


def test_DT_224_what_may_be_taken_back_moves_and_turns_not_reveals_combats_or_secrets():
    """A takeback undoes a plain action only: a move, a rotation, the end of a turn; not a reveal (it showed a
    room), an attack (a combat began), an action that showed someone a secret, nor anything once the game is over.
    The board game's rule is the same over its own events."""
    from dungeon_twister.engine import Options
    from dungeon_twister.engine import new_game as board_game
    from dungeon_twister.engine.core.events import event, secret_event

    s = build({"bMK": "B2>c1", "bSN": "a1", "yMK": "a1", "yWA": "a4"}, revealed=(True, False, True, True),
              combat=True)
    for text, refusal in (("move bSN a2", None), ("end", None), ("reveal bMK B", "it revealed a room"),
                          ("attack bSN yMK", "it began a combat")):
        after, events = apply(s, parse_action(text, "B"))
        found = CARDS.takeback_refusal(after, events)
        assert (found is None) if refusal is None else refusal in found[0].format(**found[1]), (text, found)
    from dungeon_twister.engine.cards import Outcome

    won = s.but(outcome=Outcome("B", (("B", 2), ("Y", 0)), "vp"), phase="over")
    assert CARDS.takeback_refusal(won, []) == ("the game is over", {})
    board = board_game(Options(), 1)
    assert BOARD.takeback_refusal(board, [event("moved", token="bWA")]) is None
    assert BOARD.takeback_refusal(board, [event("moved"), event("room_revealed")]) == ("it revealed a room", {})
    assert BOARD.takeback_refusal(board, [event("moved"), event("combat_declared")]) == ("it began a combat", {})
    assert BOARD.takeback_refusal(board, [event("healed")]) == (
        "it showed what was hidden or began what cannot be undone", {})  # (no event code at the end: a play-test)
    assert BOARD.takeback_refusal(board, [secret_event("placed", "B", {"token": "bRP"}, {})]) == \
        ("it was told to each player differently (a detail of it is hidden)", {})


def test_DT_224_a_move_that_scored_is_not_taken_back_and_the_refusal_says_so():
    """Play-test pl33 asked to take back his Cleric's move out through Yellow's start zone (BG-EXIT-01) and read
    "it showed what was hidden or began what cannot be undone", neither of which the move did. A move that scored
    (an exit, PR-CORE-19, CG-VP-01; a character eliminated on the way) is still not taken back, and the refusal
    says that it scored. A plain move beside it still may be."""
    from dungeon_twister.engine import apply as board_apply
    from dungeon_twister.engine import parse_action as board_parse
    from dungeon_twister.engine import parse_position
    from dungeon_twister.engine.core.events import event

    from ..builders import position_text

    scored = "it scored: a character left the maze or was eliminated"
    board = parse_position(position_text("bWA@c20 yTR@h10"))
    for text, refusal in (("move bWA c21", scored), ("move bWA c19", None)):
        after, events = board_apply(board, board_parse(text, "B"))
        assert BOARD.takeback_refusal(after, events) == (None if refusal is None else (refusal, {})), text
    assert BOARD.takeback_refusal(board, [event("moved"), event("eliminated", token="bWA")]) == (scored, {})
    s = build({"bSN": "a4", "yWA": "d1"})
    for text, refusal in (("move bSN b4 Y1", scored), ("move bSN b4", None)):
        after, events = apply(s, parse_action(text, "B"))
        assert CARDS.takeback_refusal(after, events) == (None if refusal is None else (refusal, {})), text


def test_a_card_id_typed_in_any_case_is_that_card_where_a_card_is_expected():
    """Play-test pt22 F5: the Card Game's board shows a wounded character in lower case (`btr`, `help cards`), and
    `attack yTH btr` or `hide bbk:1 bco:2` typed as seen were refused as a "bad word". Where the notation expects
    a card id (a figure, a target, an item carried, given or taken in a path, a start placement's figures) or a
    code (`pick`, `build`), it is read in any case and written canonically. Zones, start positions and icons are
    no card ids and keep their case (`B1^a2`, `face bMK:T`)."""
    from dungeon_twister.engine.cards import format_action

    for typed, canonical in (("attack yTH btr", "attack yTH bTR"), ("attack yth BTR", "attack yTH bTR"),
                             ("hide bbk:1 bco:2", "hide bBK:1 bCO:2"),
                             ("move bmk B1^a1 a2 +bky a3 >bco", "move bMK B1^a1 a2 +bKY a3 >bCO"),
                             ("steal bpp @ymk", "steal bPP @yMK"), ("pick go", "pick GO"),
                             ("build characters=wa,mk objects=ky", "build characters=MK,WA objects=KY")):
        assert format_action(parse_action(typed, "Y" if typed.startswith("attack") else "B")) == canonical, typed
    s = build({"bWA": "a2", "ySN": "a2"}, combat=True)
    assert resolve_input(s, "B", "attack ysn") == parse_action("attack bWA ySN", "B")
    with pytest.raises(NotationError):
        parse_action("move bMK b1^a1 a2", "B")  # `b1` is a zone, not the start position B1
    with pytest.raises(NotationError) as refused:
        resolve_input(s, "B", "ysn")
    assert str(refused.value) == "'ysn' matches none of your legal actions now: did you mean ySN?"


def test_a_room_letter_an_icon_and_a_side_in_either_case_and_a_bad_word_pointed_at_where_it_stands():
    """By hand after pt22: `seed bKY b` was refused "bad word 'b' at column 6", the column of the first "b" in the
    text (bKY's), for a room letter typed in lower case as squares are. A room's letter is read in either case
    where a room is expected (A..H: no other word there), written as the notation writes it; a word the parser
    refuses is pointed at where it stands."""
    from dungeon_twister.engine.cards import format_action

    for typed, canonical in (("seed bKY b", "seed bKY B"), ("reveal bMK c", "reveal bMK C"),
                             ("rotate bMK a cw", "rotate bMK A cw"), ("invert bIL h", "invert bIL H"),
                             # an icon's letter and a side in either case too (pt22b: `face ... yth:t`, `close ... E`)
                             ("face bMK:t bSN:c", "face bMK:T bSN:C"), ("move bMK ^s", "move bMK ^S"),
                             ("move bMK B1^r", "move bMK B1^R"), ("close bMK a2 E", "close bMK a2 e"),
                             ("bend bTR c3 W", "bend bTR c3 w"), ("face bMK:a2 bSN:T", "face bMK:a2 bSN:T")):
        assert format_action(parse_action(typed, "B")) == canonical, typed
    with pytest.raises(NotationError) as refused:
        parse_action("seed bKY x", "B")
    assert refused.value.template == "not a room (A..H)" and refused.value.column == len("seed bKY ")
    with pytest.raises(NotationError) as refused:
        parse_action("seed bKY i", "B")  # (eight rooms, A to H)
    assert refused.value.column == len("seed bKY ")
    for wrong in ("face bMK:x bSN:T", "move bMK ^a", "close bMK a2 x"):  # (no icon, no side: still refused)
        with pytest.raises(NotationError):
            parse_action(wrong, "B")


def test_a_code_typed_without_its_colour_is_refused_asking_for_the_letter():
    """Play-test pl31 at the first tutorial: `seed KY A` (a legal seed, the Key's code without its colour) played,
    but `seed KY D`, D already seeded, was refused "bad word 'KY'", as if the word were the fault. Where the notation
    expects a card id, a bare code is refused asking for its colour's letter, with the ids it may be (`attack bMK
    TH`: the target is Yellow's)."""
    with pytest.raises(NotationError) as refused:
        parse_action("seed KY D", "B")
    assert str(refused.value) == "'KY' needs its colour's letter: bKY or yKY at column 6: 'seed KY D'"
    with pytest.raises(NotationError) as yellow:
        parse_action("move sn a1", "Y")
    assert yellow.value.values == {"word": "'sn'", "blue": "bSN", "yellow": "ySN"} and yellow.value.column == 5
    with pytest.raises(NotationError) as room:
        parse_action("seed bKY x", "B")
    assert room.value.template == "not a room (A..H)", "a room's letter is no code"
    with pytest.raises(NotationError) as zone:
        parse_action("move bMK xx", "B")
    assert zone.value.template == "not a zone", "nor a zone: only where a card id stands"


def test_a_word_the_card_notation_refuses_is_told_what_it_should_be_where_it_stands():
    """Play-test pl33: `seed yCL Z` was refused "bad word 'Z'" and `face yWA:T yAS:X` "bad word 'X' at column 16",
    which said neither that a room is named by a letter A to H (CG-SCEN-02) nor that a facing is an icon T, S, C or
    R (CG-START-02). A word refused is refused for what it should have been, at its column."""
    for text, template, word in (("seed yCL Z", "not a room (A..H)", "Z"),
                                 ("face yWA:T yAS:X", "not a zone or an icon (T, S, C, R)", "X"),
                                 ("move bMK B1^q", "not a zone or an icon (T, S, C, R)", "q"),
                                 ("move bMK Y3 a1", "not a start position", "Y3"),
                                 ("seed zzz D", "not a card id (e.g. bMK)", "zzz")):
        with pytest.raises(NotationError) as refused:
            parse_action(text, "Y")
        assert refused.value.template == template, text
        assert refused.value.column == text.rindex(word), text
        assert str(refused.value) == f"{template} at column {text.rindex(word) + 1}: {text!r}"

def test_an_unknown_card_game_verb_gets_the_nearest_verb_as_the_board_games():
    """Play-test pt22 F11: `pikc GO` was answered "unknown verb 'pikc'" where the board game and the lobby say
    "did you mean 'pick'?". The Card Game's refusal is the board game's (core.typed.unknown_verb): the nearest of
    its verbs and the list."""
    s = build({"bMK": "a1", "yMK": "d4"})
    with pytest.raises(NotationError) as refused:
        resolve_input(s, "B", "pikc GO")
    assert refused.value.template == "unknown verb {verb}: did you mean {near}? (verbs: {verbs}, {more_verbs})"
    assert refused.value.values["near"] == "'pick'" and refused.value.column == 0
    assert "bend" in refused.value.values["verbs"] and "wallwalk" in refused.value.values["more_verbs"]
    with pytest.raises(NotationError) as refused:
        parse_action("xyzzy bMK", "B")
    assert refused.value.template == "unknown verb {verb} (verbs: {verbs}, {more_verbs})"
