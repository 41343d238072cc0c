"""The client at a card-game table (protocol `game: "cards"`): the maze drawing, the panel, the log's words, the
lobby's `create cards`, `dt-client play --game cards`, secret choices in the card game's notation, `look`, and
the deal check."""

from __future__ import annotations

import pytest

from dungeon_twister.client import app, i18n
from dungeon_twister.client.cards_board import cards_board_text
from dungeon_twister.client.cards_panel import compact_event, describe_event, describe_zone
from dungeon_twister.client.commands import UsageError, parse_table_options
from dungeon_twister.client.fairness import check_card_deal
from dungeon_twister.client.games import screens
from dungeon_twister.client.panel import game_panel
from dungeon_twister.client.secret_choice import ChoiceError, resolve_choice
from dungeon_twister.client.state import ClientState
from dungeon_twister.engine.cards import CardOptions, new_game, view
from dungeon_twister.protocol import TableOptions, seed_commitment


def maze_view(card: str = "blue1", turns: int = 0, **extra) -> dict:
    """A tutorial-1 maze (2 rows of rooms) whose room A is `card`, revealed, turned `turns` quarter turns."""
    rooms = [{"room": "A", "revealed": True, "card": card, "turns": turns, "face_down_cards": []},
             {"room": "B", "revealed": False, "face_down_cards": ["B", "Y"]},
             {"room": "C", "revealed": False, "face_down_cards": []},
             {"room": "D", "revealed": False, "face_down_cards": ["Y"]}]
    return {"game": "cards", "tutorial": 1, "phase": "main", "length": 2, "rooms": rooms, "opened": [],
            "broken": [], "figures": [], "items": [], "start_cards": {}, **extra}


def lines_of(view: dict) -> list[str]:
    return cards_board_text(view).splitlines()


def test_CG_ZONE_the_drawing_shows_a_revealed_room_as_its_card_prints_it():
    """blue1 unturned (docs/card-game.md: `T = S :` over `R C`, a wall north of T, a pit south of S, a wall west
    of R): in slot A, T is a2, S b2, R a1 (cw: ↻), C b1; the T-S portcullis is closed (║), the pit south of S lies
    between b2 and b1 (≈), the wall north of T between a2 and a3."""
    text = lines_of(maze_view())
    row2, row1 = text.index(next(line for line in text if line.startswith("2 "))), None
    row1 = text.index(next(line for line in text if line.startswith("1 ")))
    assert text[row2].startswith("2 │▲ a2        ║■ b2        ")
    assert text[row1].startswith("1 │↻ a1         ● b1        ")
    between = text[row2 + 2]  # the border between rows 2 and 1
    assert between.startswith("  +            +" + "≈" * 12 + "+")
    above = text[row2 - 1]  # between rows 3 and 2: room C is face down; what A prints there is known and drawn
    # (the wall north of T), the rest is unknown, a seam between rooms (▒): it was "┈" all along, the arrow slit's
    # sign, hiding the wall that `look a2` told (a play-test)
    assert above.startswith("  +" + "─" * 12 + "+" + "▒" * 12 + "+")
    row4 = next(line for line in text if line.startswith("4 "))
    assert row4[15] == "░" and row4[28] == "▒", "inside face-down C as the room, between C and D a seam"
    assert text[row2][28] == "┊", "the slit east of S (blue1's `:`), towards face-down B: drawn"
    assert text[0].split() == ["a", "b", "c", "d"]


def test_CG_ROT_a_turned_room_turns_its_borders_with_it():
    """blue1 a quarter turn clockwise: T goes top-right (b2), S bottom-right (b1), C bottom-left (a1), R top-left
    (a2); the T-S portcullis now lies between b2 and b1, drawn horizontal (═), and the pit south of S lies west of
    it, between a1 and b1 (≈)."""
    text = lines_of(maze_view(turns=1))
    row2 = next(i for i, line in enumerate(text) if line.startswith("2 "))
    assert text[row2].startswith("2 │↻ a2         ▲ b2        ")
    assert text[row2 + 3].startswith("1 │● a1        ≈■ b1        ▒")  # nothing printed east of S: unknown
    assert text[row2][28] == "│", "the wall north of T, turned to its east, towards face-down B"
    assert text[row2 + 2][2:].startswith("+" + " " * 12 + "+" + "═" * 12 + "+")


def test_figures_objects_and_face_down_cards_are_drawn_as_the_legend_says():
    v = maze_view(figures=[
        {"id": "bMK", "seat": "B", "code": "MK", "where": "maze", "at": "a2", "wounded": False, "carries": "bRP"},
        {"id": "ySN", "seat": "Y", "code": "SN", "where": "maze", "at": "a2", "wounded": True, "carries": None},
        {"id": "bSN", "seat": "B", "code": "SN", "where": "start", "at": "B2", "facing": "c1", "wounded": False,
         "carries": None}],
        items=[{"id": "yKY", "seat": "Y", "code": "KY", "where": "floor", "at": "b1"}],
        start_cards={"B2": 1, "Y1": 2})
    text = lines_of(v)
    row2 = next(i for i, line in enumerate(text) if line.startswith("2 "))
    assert text[row2 + 1][3:].startswith("bMK+RP ysn")  # a carrier, a wounded enemy (lower case)
    assert "● b1  yKY" in text[row2 + 3]
    assert text[row2][3 + 26:].startswith("░" * 12)  # room B face down ...
    assert "B Y" in text[row2 + 1]  # ... with a Blue and a Yellow card laid beside it
    assert text[1].startswith("Y Y1: 2 face down")  # the opponent's start characters: a count
    assert text[-2].startswith("B B1:") and "B2: bSN→c1" in text[-2]
    assert text[-1] == text[0], "the files below the board too, as the board game's"


def test_DT_266_a_start_character_pointing_an_icon_at_a_face_down_room_is_drawn_with_it():
    """DT-266: before the reveal a start character points an icon at the room in front (`facing` nil,
    `facing_icon` its letter): the start row shows the icon's mark (▲ ■ ●; R the rotation zone, whose arrow is
    not known yet), and the zone once known."""
    v = maze_view(figures=[
        {"id": "bSN", "seat": "B", "code": "SN", "where": "start", "at": "B1", "facing": None, "facing_icon": "T",
         "wounded": False, "carries": None},
        {"id": "bMK", "seat": "B", "code": "MK", "where": "start", "at": "B2", "facing": None, "facing_icon": "R",
         "wounded": False, "carries": None}], start_cards={"B1": 1, "B2": 1})
    last = lines_of(v)[-2]
    assert last.startswith("B B1: bSN→▲") and "B2: bMK→R" in last


def test_DT_206_an_object_lying_on_a_start_zone_is_drawn_there():
    """CG-CHAR-TELEKIN-03, CG-WOUND-04 (DT-206): an object may lie on a start position; the start row shows it
    beside the characters there."""
    v = maze_view(figures=[
        {"id": "bSN", "seat": "B", "code": "SN", "where": "start", "at": "B1", "facing": "a1", "wounded": False,
         "carries": None}],
        items=[{"id": "yKY", "seat": "Y", "code": "KY", "where": "floor", "at": "B1"},
               {"id": "bRP", "seat": "B", "code": "RP", "where": "floor", "at": "B2"}],
        start_cards={"B1": 1})
    last = lines_of(v)[-2]
    assert last.startswith("B B1: bSN→a1 yKY") and "B2: bRP" in last


def test_a_crowded_zone_is_cut_so_the_rooms_border_keeps_its_column():
    """Play-test pt27 F18: four and five characters in one zone (`bCL bgb bTH yCL* ytr`, 19 columns) pushed the
    room's right border out of line. Past the zone's 12 columns its people are cut with "…" (`look ZONE` tells
    them all), so every line of the drawing keeps its length; four of 3 letters without loads would need 15."""
    people = [("B", "CL", False), ("B", "GB", True), ("B", "TH", False), ("Y", "CL", False), ("Y", "TR", True)]
    figures = [{"id": f"{seat.lower()}{code}", "seat": seat, "code": code, "where": "maze", "at": "a2",
                "wounded": wounded, "carries": "yTS" if code == "CL" and seat == "Y" else None}
               for seat, code, wounded in people]
    text = lines_of(maze_view(figures=figures))
    row2 = next(i for i, line in enumerate(text) if line.startswith("2 "))
    assert len(text[row2 + 1]) == len(text[row2 + 2]), "the border in its column (the line of + below)"
    assert text[row2 + 1][3:3 + 13] == "bCL bgb bTH…║", text[row2 + 1]
    two = lines_of(maze_view(figures=figures[:2]))
    assert two[row2 + 1][3:3 + 13] == "bCL bgb     ║", "(the edge: those that fit are all drawn)"


def test_DT_206_a_crowded_start_position_is_cut_so_the_next_keeps_its_column():
    """Seen by a review: three characters and two objects on B1 pushed B2's column to the right. A position's
    text is cut with "…" at its width (27 columns), so B2 starts where it always does."""
    figures = [{"id": f"b{code}", "seat": "B", "code": code, "where": "start", "at": "B1", "facing": "a1",
                "wounded": False, "carries": None} for code in ("SN", "MK", "TR")]
    items = [{"id": "yKY", "seat": "Y", "code": "KY", "where": "floor", "at": "B1"},
             {"id": "yRP", "seat": "Y", "code": "RP", "where": "floor", "at": "B1"},
             {"id": "bTS", "seat": "B", "code": "TS", "where": "floor", "at": "B2"}]
    last = lines_of(maze_view(figures=figures, items=items, start_cards={"B1": 3}))[-2]
    assert last.index("B2: bTS") == len("B ") + 27
    assert last.startswith("B B1: bSN→a1 bMK→a1 bTR→a1 … B2")  # the objects on B1 cut (25 columns + "… ")


def test_the_panel_shows_the_wheel_the_hand_and_the_secret_choice():
    state = ClientState("ann")
    state.seat = "B"
    v = view(new_game(CardOptions(2), 5), "B")
    v.update(legal=[], seats={"B": "ann", "Y": "bot"}, table={"id": "t1", "target_vp": 3, "game": "cards"},
             started=True)
    state.view = v
    text = "".join(t for _, t in game_panel(state, 0.0, screens(v).panel))
    assert "start characters hidden · Blue and Yellow to act" in text
    assert "Blue (you)  0 VP of 3" in text and "combat cards: +0 +1 +2 +2 +3 +3 +4 +5 +6" in text
    assert "Yellow  0 VP of 3" in text and "combat cards: 9 in hand" in text
    assert "Choose in secret (the start characters' places): type hide ..." in text


def test_CG_CHAR_ORDER_01_the_panel_asks_for_the_telepaths_naming_before_the_cards():
    """Play-test: while Blue's Telepath had to name a card, the panel said "Your move: lay a combat card: card N";
    `card 3` typed then froze the game (the engine now refuses it, CG-CHAR-ORDER-01). The hint follows the step
    the legal actions are at: the naming (mind), the Berserker's announcement (frenzy), then the cards."""
    from dungeon_twister.engine.families import CARDS
    from tests.engine.cards.builders import act, build

    for figures, attack, hint in (
            ({"bTP": "a1", "yMK": "a1", "yWA": "d4"}, "attack bTP yMK",
             "Your move: your Telepath names a card the opponent must play if he holds it: mind +N, or mind none"),
            ({"bBE": "a1", "yMK": "a1", "yCO": "d4"}, "attack bBE yMK",
             "Your move: announce how many cards your Berserker fights with: frenzy 1 or frenzy 2")):
        s = act(build(figures, combat=True), attack)
        state = ClientState("ann")
        state.seat = "B"
        v = view(s, "B")
        v.update(legal=CARDS.legal_texts(s, "B"), seats={"B": "ann", "Y": "bot"},
                 table={"id": "t1", "target_vp": 5, "game": "cards"}, started=True)
        state.view = v
        text = "".join(t for _, t in game_panel(state, 0.0, screens(v).panel))
        assert hint in text and "lay a combat card" not in text, text


def test_CG_COMBAT_03_the_panel_shows_both_sides_values_before_the_cards():
    """Play-test: a melee's panel named the sides but not their values, which each player had to add up from the
    cards. The view's totals (Snake-man 2 + Sword 1 against Mechanork 2 + Armor 1) read from each reader's side;
    a secret-objects game's view has none, and the panel shows no such line."""
    from dataclasses import replace

    from tests.engine.cards.builders import act, build

    s = build({"bSN": "a1", "yMK": "a1", "ySN": "d4"}, items={"bSW": "@bSN", "yAR": "@yMK"}, combat=True)
    for options, seat, line in ((s.options, "B", "you attack: 3 + card vs Yellow 3 + card"),
                                (s.options, "Y", "Blue attacks: 3 + card vs you 3 + card"),
                                (s.options, None, "Blue attacks: 3 + card vs Yellow 3 + card"),
                                (replace(s.options, secret_objects=True), "B", None)):
        fighting = act(s.but(options=options), "attack bSN yMK")
        state = ClientState("ann")
        state.seat = seat
        v = view(fighting, seat)
        v.update(legal=[], seats={"B": "ann", "Y": "bob"}, table={"id": "t1", "target_vp": 5, "game": "cards"},
                 started=True)
        state.view = v
        text = "".join(t for _, t in game_panel(state, 0.0, screens(v).panel))
        assert "Combat 1 in a1: Blue attacks yMK" in text, text
        if line is None:
            assert "+ card" not in text and "bSN Sword" not in text, text
        else:
            assert line in text, text
            # what makes them, attacker first (review rv29: the General's +1 or a Sword were hidden in the totals)
            assert "attack: bSN 2, bSN Sword +1 · defence: yMK 2, yMK Armour +1" in text, text


def test_the_log_words_the_card_game_events():
    assert describe_event({"kind": "hidden", "seat": "Y"}) == "Yellow hid its start characters (face down)"
    assert describe_event({"kind": "hidden", "seat": "B", "placements": [["bMK", 0], ["bSN", 1]]}) == \
        "You hid bMK on B1, bSN on B2 (face down)"
    assert describe_event({"kind": "seeded", "seat": "Y", "slot": 3}) == "Yellow lays a card face down beside room D"
    assert describe_event({"kind": "move", "figure": "bMK", "path": ["B1^a1", "a2", "+bRP", "b2", "-bRP", "Y1"]}) \
        == "bMK moves: B1 facing a1, a2, takes bRP, b2, drops bRP, Y1 (start zone)"
    assert describe_event({"kind": "move", "figure": "ySN", "path": ["^c4"]}) == "ySN moves: faces c4"
    # DT-266: an icon pointed at a face-down room, in words, with the letter typed
    assert describe_event({"kind": "move", "figure": "ySN", "path": ["^T", "Y2^R"]}) == \
        "ySN moves: faces the triangle (T), Y2 facing the rotation zone (R)"
    assert describe_event({"kind": "faced", "seat": "B", "facings": [["bMK", "S"], ["bSN", "C"]]}) == \
        "You chose your facings: bMK faces the square (S), bSN faces the circle (C)"
    assert describe_event({"kind": "teams", "figures": [["bMK", "B1", "T"]], "first": "B", "ap": 2}).startswith(
        "Teams revealed: bMK on B1 facing the triangle (T). ")
    assert describe_event({"kind": "combat", "number": 2, "cards": {"B": 3, "Y": 1}, "totals": {"B": 5, "Y": 3},
                           "winner": "B", "wounded": ["ySN"], "eliminated": []}) == \
        "Combat 2: Blue 5 (card +3) vs Yellow 3 (card +1): Blue wins; ySN wounded"
    assert describe_event({"kind": "combat_card", "seat": "Y"}) == "Yellow lays a card"
    # a count, not a plural to agree with it (a play-test read "1 jump cards left")
    assert describe_event({"kind": "jump", "figure": "bTR", "zone": "d2", "jumps_left": 1}) == \
        "bTR jumps to d2 (jump cards left: 1)"
    assert describe_event({"kind": "jump", "figure": "bTR", "zone": "d2", "jumps_left": 0, "discarded": 4}) == \
        "bTR jumps to d2 (jump cards left: 0; gives up its +4)"
    assert describe_event({"kind": "game_started", "seats": {"B": "ann", "Y": "bob"}}).startswith("the game starts")
    assert compact_event({"kind": "move", "figure": "bMK", "path": ["B1^a1", "a2"]}) == "bMK a2"
    # the last zone, not the last word: an object taken or left there follows it
    assert compact_event({"kind": "move", "figure": "bAS", "path": ["a1", "+yAR"]}) == "bAS a1 +yAR"
    assert compact_event({"kind": "wallwalk", "figure": "bWW", "path": ["+bFB", "c2", "-bFB"]}) == "bWW +bFB c2 -bFB"
    # the exchanges on the way, with their zone (a play-test: `bSN b2` was all the strip said of this one)
    assert compact_event({"kind": "move", "figure": "bSN", "path": ["a1", "b1", ">bMK/bKY", "+bRP", "c1", "b2"]}) \
        == "bSN b1 >bMK/bKY +bRP b2"
    assert compact_event({"kind": "move", "figure": "ySN", "path": ["+yKY", "-yKY"]}) == "ySN +yKY -yKY"
    # every action a figure makes has its strip entry, in the words typed for it ("bMK open a1 n" for `open bMK a1
    # n`): a play-test's strip left out `open`, and so bend, regenerate, smash, invert, steal and frenzy, which the
    # log and the replay showed (the events as the engine's engine/cards/ rule modules make them)
    from dungeon_twister.engine.cards.notation import parse_action as parse_card

    made = {"bMK open a1 n": {"kind": "portcullis", "figure": "bMK", "zone": "a1", "side": "N", "open": True},
            "bMK close a1 e": {"kind": "portcullis", "figure": "bMK", "zone": "a1", "side": "E", "open": False},
            "bTR bend c3 w": {"kind": "bend_bars", "figure": "bTR", "zone": "c3", "side": "W"},
            "bTR regenerate": {"kind": "regenerate", "figure": "bTR", "zone": "c3"},
            "bGO smash": {"kind": "walls_broken", "figure": "bGO", "room": "B", "card": "white1"},
            "bIL invert C": {"kind": "inverted", "figure": "bIL", "rooms": ["A", "C"]},
            "bPP steal yKY": {"kind": "stolen", "figure": "bPP", "victim": "yMK", "zone": "a2", "item": "yKY"},
            "bPP steal @yMK": {"kind": "stolen", "figure": "bPP", "victim": "yMK", "zone": "a2"}}
    for text, shown in made.items():
        assert compact_event(shown) == text
        figure, verb, *rest = text.split()
        assert parse_card(" ".join([verb, figure, *rest]), "B") is not None  # (the words of a real action)
    assert compact_event({"kind": "frenzy", "seat": "B", "cards": 2}) == "frenzy 2"
    assert describe_event({"kind": "move", "figure": "bSN", "path": ["b1", ">bMK/bKY", ">bWA"]}) == \
        "bSN moves: b1, gives bKY to bMK, gives to bWA"
    # with what the mover carried before (the inbox adds it from the view), a swap says what it gave for it
    from dungeon_twister.client.inbox import _carried

    before = {"figures": [{"id": "bSN", "code": "SN", "carries": "bKY"}, {"id": "bPA", "code": "PA", "carries": "bKY"},
                          {"id": "ySN", "code": "SN", "carries": None, "hidden_objects": 1}]}
    assert [_carried(before, f) for f in ("bSN", "bPA", "ySN", "bXX")] == [
        {"carried": ["bKY"], "hands": 1}, {"carried": ["bKY"], "hands": 2}, {"carried": ["?"], "hands": 1}, {}]
    one = {"kind": "move", "figure": "bSN", "hands": 1}
    assert describe_event({**one, "path": ["b2", "a2", "+bSW"], "carried": ["bKY"]}) == \
        "bSN moves: b2, a2, takes bSW for bKY"
    assert describe_event({**one, "path": [">bMK/bKY", "+bRP", "+bSW"], "carried": ["bKY"]}) == \
        "bSN moves: gives bKY to bMK, takes bRP, takes bSW for bRP"
    assert describe_event({**one, "figure": "bPA", "hands": 2, "path": ["+bRP"], "carried": ["bKY"]}) == \
        "bPA moves: takes bRP", "the Paladin's second hand was free"
    assert describe_event({**one, "path": ["+@ySN", "+bKY"], "carried": ["?"]}) == \
        "bSN moves: takes what ySN carries, takes bKY", "what is unseen is not followed"
    assert describe_event({"kind": "view"}) is None


def test_CG_TUT1_03_a_face_down_room_names_the_seeded_cards_the_view_names():
    """Beside a face-down room, a card seeded by the viewer shows its id, the others' their backs' colour; in a
    finished game's replay (which says "everything is shown") the view names them all, and they are drawn so (a
    play-test: the replay showed only "B B" for room C, which held bBK and bKY). Too many for one zone go on in
    the next."""
    view = maze_view(items=[{"id": "bKY", "where": "seeded", "room": "B"}])
    row2 = next(line for line in lines_of(view) if line.startswith("2 "))
    second = lines_of(view)[lines_of(view).index(row2) + 1]
    assert second[28:41] == "┊ bKY Y      "  # room B (c2-d2): ours named, Yellow's back
    view = maze_view(items=[{"id": "bKY", "where": "seeded", "room": "B"}, {"id": "yRP2", "where": "seeded",
                                                                             "room": "B"}],
                     figures=[{"id": "bBK", "where": "seeded", "room": "B"}])
    view["rooms"][1]["face_down_cards"] = ["B", "B", "Y", "Y"]
    text = lines_of(view)
    second = text[text.index(next(line for line in text if line.startswith("2 "))) + 1]
    assert second[28:] == "┊ bBK bKY    ░ yRP2 Y     │"  # the third and fourth in room B's second zone


def test_CG_REVEAL_06_the_reveal_banner_names_each_cards_placer():
    """Room D held two Blue cards, bPP and the Rope: Blue places the first, Yellow the second (the placers follow
    the queue, CG-REVEAL-06). The banner named the first placer for the whole queue (a play-test)."""
    from dungeon_twister.client.cards_panel import placement

    view = {"placement": {"room": "D", "queue": ["bPP", "bRP", "yKY"], "placers": ["B", "Y", "Y"]}}
    text = "".join(text for _, text in placement(view))
    assert text == "\nRoom D revealed: Blue places bPP; Yellow places bRP, yKY\n"


def test_CG_TURN_05_the_turn_line_says_who_keeps_the_ap_carried_over():
    """CG-TURN-03..05: the engine's `turn` event names the seat to play, its AP (3 added to what it kept) and what
    the seat whose turn ended keeps on its wheel. Found by hand: the log read "Turn 2: Blue to play, 3 AP, 1 kept"
    on Blue's first turn, Blue having kept nothing; the 1 was Yellow's (2 AP in the first turn, 1 spent)."""
    from dungeon_twister.engine.cards import EndTurn, Move, apply, legal_actions

    state = new_game(CardOptions(1), 5)
    while state.phase != "main":
        state, _ = apply(state, legal_actions(state)[0])
    first = state.active
    state, _ = apply(state, next(a for a in legal_actions(state) if isinstance(a, Move)))
    _, events = apply(state, next(a for a in legal_actions(state) if isinstance(a, EndTurn)))
    turn = next(e for e in events if e.kind == "turn")
    assert (turn.data["ap"], turn.data["kept"]) == (3, 1)  # CG-TURN-03: 2 AP, one spent, one kept by `first`
    names = {"B": "Blue", "Y": "Yellow"}
    assert turn.data["seat"] != first
    assert describe_event({"kind": "turn", **turn.data}) == \
        f"Turn {turn.data['turn']}: {names[turn.data['seat']]} to play, 3 AP ({names[first]} keeps 1)"
    assert describe_event({"kind": "turn", "seat": "Y", "turn": 3, "ap": 4, "kept": 0}) == "Turn 3: Yellow to play, 4 AP"


def test_CG_TURN_05_the_panels_wheel_line_says_how_many_ap_are_carried_over():
    """Play-test pl31 item 10: the panel read "Blue's action wheel: 2 AP (3 a turn, 3 kept, CG-TURN)"; "3 kept" said
    nothing to a newcomer. CG-TURN-04 adds 3 AP a turn, CG-TURN-05 carries at most 3 unused AP over: the line says
    so, with its rule. The edge: no wheel line before the main phase (the setup spends no AP)."""
    from dungeon_twister.engine.cards import apply, legal_actions

    state = new_game(CardOptions(1), 5)
    client = ClientState("ann")
    client.seat = "B"

    def panel() -> str:
        v = view(state, "B")
        v.update(legal=[], seats={"B": "ann", "Y": "bot"}, table={"id": "t1", "target_vp": 3, "game": "cards"},
                 started=True)
        client.view = v
        return "".join(t for _, t in game_panel(client, 0.0, screens(v).panel))

    assert "action wheel" not in panel()
    while state.phase != "main":
        state, _ = apply(state, legal_actions(state)[0])
    seat = {"B": "Blue", "Y": "Yellow"}[state.active]
    text = panel()
    assert f"{seat}'s action wheel: 2 AP (+3 each turn, up to 3 carried over, CG-TURN-05)" in text, text
    assert "kept" not in text


def test_create_says_which_vp_target_it_does_not_take():
    """Play-test: `create vp=9` answered only "vp=5, vp=6, vp=7 or vp=8"."""
    with pytest.raises(UsageError) as refused:
        parse_table_options("vp=9")
    assert str(refused.value) == "'vp=9' is no VP target of a table: vp=5, vp=6, vp=7 or vp=8"
    assert parse_table_options("vp=8").target_vp == 8


def test_PR_SCEN_create_names_a_prison_introductory_scenario():
    """A play-test found the five Prison scenarios playable only alone (`dt-client play --scenario prison-1`): the
    protocol's table options have them, `create` did not. A scenario imposes its set, rooms, teams and VP target
    (PR-SCEN, PD-TEAM-SCEN-01): `timers`, `private` and `prison` may go with it, nothing else."""
    assert parse_table_options("prison-2") == TableOptions(scenario="prison-2")
    assert parse_table_options("prison prison-5 timers private") == TableOptions(scenario="prison-5", timers=True,
                                                                               private=True)
    for wrong, message in (
            ("prison-1 beginner", "a scenario is not a beginner game"),
            ("prison-1 vp=6", "a scenario imposes its set, rooms, teams and VP target (PD-TEAM-SCEN-01): no vp=6 "
                              "with it"),
            ("prison-1 mixed", "a scenario imposes its set, rooms, teams and VP target (PD-TEAM-SCEN-01): no mixed "
                               "with it"),
            ("prison-1 prison-2", "one scenario a table: prison-1, prison-2, prison-3, prison-4, prison-5"),
            ("prison-1 fast", "'fast' is not an option of create; create prison-1..prison-5 [timers] [private]")):
        with pytest.raises(UsageError) as refused:
            parse_table_options(wrong)
        assert str(refused.value) == message


def test_create_cards_makes_a_card_table_and_refuses_the_board_options():
    assert parse_table_options("cards tutorial=3") == TableOptions(game="cards", tutorial=3)
    assert parse_table_options("cards private") == TableOptions(game="cards", tutorial=1, private=True)
    assert parse_table_options("cards standard") == TableOptions(game="cards", scenario="standard", teams="mutual")
    assert parse_table_options("cards standard draft") == TableOptions(game="cards", scenario="standard",
                                                                       teams="draft")
    assert parse_table_options("cards standard full timers") == TableOptions(game="cards", scenario="standard",
                                                                             teams="full", timers=True)
    assert parse_table_options("cards tutorial=2 timers") == TableOptions(game="cards", tutorial=2, timers=True)
    for wrong in ("cards tutorial=4", "cards vp=6", "cards prison"):
        with pytest.raises(UsageError, match="create cards"):
            parse_table_options(wrong)
    with pytest.raises(UsageError, match="teams are selected in a scenario"):
        parse_table_options("cards full")
    with pytest.raises(UsageError, match="not both"):
        parse_table_options("cards standard tutorial=2")
    with pytest.raises(UsageError, match=r"one team selection per table: mutual, full or draft \(CG-SEL\)"):
        parse_table_options("cards standard draft mutual")  # (a play-test got the last word, unsaid)
    assert parse_table_options("cards standard draft draft").teams == "draft"


def test_play_game_cards_refuses_the_board_games_arguments_before_starting_a_server(capsys):
    assert app.main(["play", "--game", "cards", "--vp", "6"]) == 2
    assert "--vp: the board game's" in capsys.readouterr().err
    assert app.main(["play", "--tutorial", "2"]) == 2
    assert "add --game cards" in capsys.readouterr().err
    assert app.main(["play", "--scenario", "standard", "--teams", "full"]) == 2
    assert "The Card Game's: add --game cards" in capsys.readouterr().err
    assert app.main(["play", "--game", "cards", "--teams", "draft"]) == 2
    assert "--teams goes with a scenario" in capsys.readouterr().err
    assert app.main(["play", "--game", "cards", "--scenario", "standard", "--teams", "free"]) == 2
    assert "mutual, full or draft (CG-SEL)" in capsys.readouterr().err
    assert app.main(["play", "--game", "cards", "--scenario", "prison-1"]) == 2
    assert "--tutorial 1|2|3 or --scenario standard" in capsys.readouterr().err
    assert app.main(["play", "--secret-objects"]) == 2
    assert "The Card Game's variant (CG-OPT-03): add --game cards" in capsys.readouterr().err


def test_play_game_cards_asks_for_timers_and_secret_objects(monkeypatch):
    """CG-OPT-01/02 and CG-OPT-03 against the bot: the table the local server is asked for has them."""
    asked = []
    monkeypatch.setattr(app, "_play_local", lambda args, options: asked.append(options) or 0)
    assert app.main(["play", "--game", "cards", "--tutorial", "3", "--timers", "--secret-objects"]) == 0
    assert app.main(["play", "--game", "cards", "--scenario", "standard", "--teams", "draft", "--timers"]) == 0
    assert app.main(["play", "--timers"]) == 0
    assert asked == [TableOptions(game="cards", tutorial=3, timers=True, secret_objects=True),
                     TableOptions(game="cards", scenario="standard", teams="draft", timers=True),
                     TableOptions(timers=True, teams=None)]


def test_CG_TUT1_04_a_secret_hide_is_read_in_the_card_games_notation():
    legal = ["hide bMK:1 bSN:1", "hide bMK:1 bSN:2", "hide bMK:2 bSN:1", "hide bMK:2 bSN:2"]
    assert resolve_choice("hide bSN:2 bMK:1", legal, "B", game="cards") == "hide bMK:1 bSN:2"  # any order
    assert resolve_choice("card 3", ["card 0", "card 3"], "B", game="cards") == "card 3"
    # CG-TUT1-04 has start columns 1 and 2: column 3 does not parse, and the refusal says where (the parser's
    # error, as the server's bad_notation); a well-formed hide that is not offered is refused with the rule it
    # breaks, found in the choices (engine.cards.choice_refusal): the characters in hand, how many to place (a
    # part of a choice, `hide bMK:1`, too: the next test)
    with pytest.raises(ChoiceError, match=r"^expected bMK:1 or bMK:2, the start zone in front of your first or "
                       r"second room at column 6: 'hide bMK:3 bSN:1'$"):
        resolve_choice("hide bMK:3 bSN:1", legal, "B", game="cards")
    # (play-test pl31 typed the characters without their start zones and read "start column 1 or 2 at column 6")
    with pytest.raises(ChoiceError, match=r"^expected MK:1 or MK:2, the start zone in front of your first or "
                       r"second room at column 6: 'hide MK SN'$"):
        resolve_choice("hide MK SN", legal, "B", game="cards")
    # a mistyped verb is named, as in play (`mvoe`: did you mean 'move'?): play-test pl31 F5 read "not one of your
    # choices now"; the edge: a word near no verb still reads so
    with pytest.raises(ChoiceError, match=r"^hdie: did you mean hide\? e\.g\. 'hide bMK:1 bSN:1'$"):
        resolve_choice("hdie bMK:1 bSN:2", legal, "B", game="cards")
    with pytest.raises(ChoiceError, match=r"^not one of your choices now, e\.g\. 'hide bMK:1 bSN:1'$"):
        resolve_choice("zzz bMK:1 bSN:2", legal, "B", game="cards")
    for wrong, why in (("hide bMK:1 bWA:1", "bWA is not one of your characters in hand"),
                       ("hide bMK:1 bMK:2", "bMK is placed twice"),
                       ("hide bMK:1 ySN:2", "ySN is not one of your characters in hand"),
                       ("hide bMK:1 bSN:1 bWA:2", "bWA is not one of your characters in hand"),
                       ("hide bMK:1 bSN:1 bSN:2", "bSN is placed twice")):
        with pytest.raises(ChoiceError) as refused:
            resolve_choice(wrong, legal, "B", game="cards")
        assert (refused.value.rule, str(refused.value)) == ("CG-TUT1-04", why)
    # the setup's facings are icons of the face-down rooms (DT-266): a zone typed there is refused with the
    # engine's sentence, found in the choices
    faces = [f"face bMK:{a} bSN:{b}" for a in "TSCR" for b in "TSCR"]
    with pytest.raises(ChoiceError) as refused:
        resolve_choice("face bMK:c1 bSN:T", faces, "B", game="cards")
    assert (refused.value.rule, str(refused.value)) == (
        "CG-START-02", "bMK: the room in front is face down: point one of its card's icons at it (T, S, C, R), not a "
        "zone (DT-266)")
    with pytest.raises(ChoiceError) as refused:
        resolve_choice("face bMK:T bMK:S", faces, "B", game="cards")
    assert (refused.value.rule, str(refused.value)) == ("CG-START-02", "choose the facing of each of bMK, bSN")


def test_CG_TUT1_04_a_partial_hide_says_how_many_to_place_and_one_typed_in_lower_case_is_read():
    """Play-test pt22: `hide bTR:1` (one of the two characters to place) said "matches 10 options, e.g. ..." and
    not that two are needed (CG-TUT1-04); `hide bbk:1 bco:2`, the ids typed in lower case, was a "bad word". A
    well-formed hide that several choices begin is refused with the rule it breaks; the ids are read in any case.
    A part that only one choice begins is still that choice."""
    legal = ["hide bMK:1 bSN:1", "hide bMK:1 bSN:2", "hide bMK:2 bSN:1", "hide bMK:2 bSN:2"]
    assert resolve_choice("hide bsn:2 bmk:1", legal, "B", game="cards") == "hide bMK:1 bSN:2"
    for partial in ("hide bMK:1", "hide bsn:2"):
        with pytest.raises(ChoiceError) as refused:
            resolve_choice(partial, legal, "B", game="cards")
        assert (refused.value.rule, str(refused.value)) == (
            "CG-TUT1-04", "place exactly 2 of your characters on your start zone")
    assert resolve_choice("hide bMK:1", legal[:1], "B", game="cards") == "hide bMK:1 bSN:1"


def test_CG_COMBAT_02_BG_COMBAT_02_a_combat_card_in_the_other_games_words_is_the_card_meant():
    """Play-test pl33 played a Prison game, then a Card Game, and typed the board game's `combat +4` in a Card
    Game combat: "not one of your choices now, e.g. 'card 0'". Where every choice is a combat card, `combat +4`
    is the Card Game's `card 4` and `card 4` the board game's `combat +4`; a card not in hand is still refused
    with its rule, and a text that is no card, or a choice that is not only a card, is left as typed."""
    cards = ["card 0", "card 1", "card 4"]
    for typed in ("combat +4", "combat 4", "Combat +4", "card +4", "+4"):
        assert resolve_choice(typed, cards, "B", game="cards") == "card 4", typed
    board = ["combat +0", "combat +1", "combat +4"]
    for typed in ("card 4", "card +4", "combat 4", "+4"):
        assert resolve_choice(typed, board, "B") == "combat +4", typed
    with pytest.raises(ChoiceError) as refused:
        resolve_choice("combat +6", cards, "B", game="cards")
    assert refused.value.rule == "CG-COMBAT-02"
    with pytest.raises(ChoiceError) as refused:
        resolve_choice("card 6", board, "B")
    assert (refused.value.rule, str(refused.value)) == ("BG-COMBAT-06", "you have no +6 combat card in hand")
    with pytest.raises(ChoiceError):
        resolve_choice("combat +4", ["mind +4", "mind none"], "B", game="cards")  # a Telepath's naming: no card


def test_BG_COMBAT_06_CG_COMBAT_02_a_secret_card_not_in_hand_cites_its_rule():
    """`combat +6` without the +6, `card 9` in the card game: refused before anything is committed with the rule
    and the engine's sentence (the family's choice_refusal), not "not one of your choices now"."""
    board = ["combat +0", "combat +1", "combat +2", "combat +3"]
    with pytest.raises(ChoiceError) as refused:
        resolve_choice("combat +6", board, "B")
    assert (refused.value.rule, str(refused.value)) == ("BG-COMBAT-06", "you have no +6 combat card in hand")
    with pytest.raises(ChoiceError) as refused:
        resolve_choice("card 9", ["card 0", "card 1", "card 5"], "B", game="cards")
    assert (refused.value.rule, str(refused.value)) == ("CG-COMBAT-02", "no +9 card in hand")
    with pytest.raises(ChoiceError, match="not one of your choices now") as refused:
        resolve_choice("card 5", ["card 3"], "Y", game="cards")  # without the view's hand, +3 alone tells nothing
    assert refused.value.rule is None
    # a Telepath named +3 (CG-CHAR-TELEPATH-01): the view's my_cards tell the naming from a one-card hand
    with pytest.raises(ChoiceError) as refused:
        resolve_choice("card 5", ["card 3"], "Y", game="cards", named=3, hand=[0, 3, 5])
    assert (refused.value.rule, str(refused.value)) == (
        "CG-CHAR-TELEPATH-01", "the Telepath named +3: you hold it, you play it")
    with pytest.raises(ChoiceError) as refused:
        resolve_choice("card 6", ["card 3"], "Y", game="cards", named=3, hand=[0, 3, 5])
    assert (refused.value.rule, str(refused.value)) == ("CG-COMBAT-02", "no +6 card in hand")
    # the board game's Telepath (Prison) named +6, which Blue holds: his one choice; a play-test typed +3 and read
    # "not one of your choices now" without the rule (the view's combat.mind.named tells the client)
    with pytest.raises(ChoiceError) as refused:
        resolve_choice("combat +3", ["combat +6"], "B", named=6)
    assert (refused.value.rule, str(refused.value)) == (
        "PR-CHAR-TELEPATH-01", "the Telepath named +6, which you hold: you must play it")
    assert resolve_choice("combat +6", ["combat +6"], "B", named=6) == "combat +6"
    with pytest.raises(ChoiceError, match="not one of your choices now") as refused:
        resolve_choice("combat +3", ["combat +6"], "B")  # (no naming: the one choice alone does not say why)
    assert refused.value.rule is None


def test_look_tells_a_zone_its_icon_its_people_and_its_borders():
    v = maze_view(figures=[{"id": "bMK", "seat": "B", "code": "MK", "where": "maze", "at": "b2", "wounded": True,
                            "carries": None}])
    # (the room card by its colour in words: a play-test read the catalogue's ids, `blue1`, in every language)
    assert describe_zone(v, "b2") == ("b2: a square zone of room A (blue 1); bMK (wounded); borders east: slit, "
                                      "south: pit, west: portcullis")
    for language, words in {"fr": "(bleue 1)", "es": "(azul 1)", "de": "(Blau 1)", "it": "(blu 1)"}.items():
        i18n.use(language)
        assert words in describe_zone(v, "b2") and "blue1" not in describe_zone(v, "b2"), language
    i18n.use("en")
    assert describe_zone(v, "c1") == "c1: in room B, still face down (its zones show when it is revealed)"
    assert describe_zone(v, "e1").startswith("e1: not a zone of this maze")


def test_the_deal_check_of_a_card_game_finds_a_moved_room_card():
    """CG-TUT1-02: the room cards are shuffled from the seed; a revealed card on another slot than the seed's is
    an alert, the seed's own is a fair deal."""
    seed, nonce = 7, bytes(32)
    dealt = new_game(CardOptions(1), seed)
    v = view(dealt, "B")
    v["rooms"][0].update(revealed=True, card=dealt.rooms[0].card, turns=dealt.rooms[0].turns)
    v["first"] = dealt.first
    v["table"] = {"id": "t1", "seed_commitment": seed_commitment("t1", seed, nonce).hex(), "seed": seed,
                  "seed_nonce": nonce.hex()}
    fair, text = check_card_deal(v)
    assert fair and "every room card revealed (1) lies where it dealt it" in text
    v["rooms"][0]["card"] = dealt.rooms[1].card
    fair, text = check_card_deal(v)
    assert not fair and text.startswith("FAIR-PLAY ALERT: A not as the revealed seed deals them")


def test_the_lobby_lists_a_card_table_with_its_tutorial_and_target():
    from dungeon_twister.client.lobby import CARD_TUTORIAL_VP, _row
    from dungeon_twister.protocol import TableInfo

    from dungeon_twister.client.lobby import CARD_SCENARIO_VP

    assert CARD_TUTORIAL_VP == {t: CardOptions(t).target_vp for t in (1, 2, 3)}  # CG-TUT1..3: 2, 3, 4 VP
    assert CARD_SCENARIO_VP == {"standard": CardOptions(None, "standard", "full").target_vp}  # CG-SCEN-04: 5
    line = "".join(text for _, text in _row(TableInfo("t1-ab", TableOptions(game="cards", tutorial=2), "waiting", 0,
                                                      "ann"), 12))
    assert line.startswith("t1-ab       waiting  3   cards, tutorial 2  ")
    secret = TableInfo("t2-ab", TableOptions(game="cards", tutorial=3, secret_objects=True), "waiting", 0, "ann")
    line = "".join(text for _, text in _row(secret, 12))  # too long for the column: cut, marked, one space kept
    assert "4   cards, tutorial 3, sec… ann" in line
    # the options in the reader's words, all of them: a play-test read "cards, tutoriel 1, tim…" in French
    timed = TableInfo("t3-ab", TableOptions(game="cards", tutorial=1, timers=True), "waiting", 0, "ann")
    i18n.use("fr")
    assert "cards, tutoriel 1, temps limité " in "".join(text for _, text in _row(timed, 12, (40, 16)))
    timed = TableInfo("t4-ab", TableOptions(game="cards", scenario="standard", teams="draft", timers=True,
                                            private=True), "waiting", 0, "ann")
    assert "cards standard, draft, temps limité, privée " in "".join(text for _, text in _row(timed, 12, (60, 16)))
    i18n.use("en")


def test_CG_SEL_the_panel_and_the_log_follow_a_selection():
    from dungeon_twister.engine.cards import apply, parse_action

    state = ClientState("ann")
    state.seat = "B"
    s = new_game(CardOptions(None, "standard", "draft"), 3)
    first = s.selection.first
    s = apply(s, parse_action("pick CO", first))[0]
    v = view(s, "B")
    v.update(legal=[], seats={"B": "ann", "Y": "bob"}, table={"id": "t1", "target_vp": 5, "game": "cards"},
             started=True)
    state.view = v
    text = "".join(t for _, t in game_panel(state, 0.0, screens(v).panel))
    other = "Y" if first == "B" else "B"
    names = {"B": "Blue", "Y": "Yellow"}
    assert "team selection" in text and f"{names[first]}: CO | -" in text and "out: CO" in text
    assert f"{names[other]} picks a character" in text
    assert describe_event({"kind": "picked", "seat": "B", "stage": "characters", "code": "CO", "mode": "draft"}) \
        == "Blue takes CO (Colossus) (the other's CO is out of the game)"
    assert describe_event({"kind": "built", "seat": "Y"}) == "Yellow has chosen its team, in secret"
    # the draft's object picks (CG-SEL-DRAFT): the hint said "pick a character, then an object" (a play-test)
    from dungeon_twister.engine.cards import format_action as format_card, legal_actions

    while s.selection.stage == "characters":
        s = apply(s, legal_actions(s)[0])[0]
    picker = s.to_act[0]
    v = view(s, picker)
    v.update(legal=[format_card(a) for a in legal_actions(s)], seats={"B": "ann", "Y": "bob"},
             table={"id": "t1", "target_vp": 5, "game": "cards"}, started=True)
    state.seat, state.view = picker, v
    text = "".join(t for _, t in game_panel(state, 0.0, screens(v).panel))
    assert f"{names[picker]} picks an object" in text and "then an object" not in text
    assert "Your move: pick the character or object the line above names: pick CODE" in text


def test_CG_SEL_FULL_01_a_typed_team_is_checked_against_the_parts_before_it_is_committed():
    from dungeon_twister.engine.cards.select import parts

    forms = [part.form() for part in parts(new_game(CardOptions(None, "standard", "full"), 1))]
    assert resolve_choice("build objects=KY,SH,KY,BW characters=WA,TH,CL,MK,SN,GB", [], "B", forms, "cards") == \
        "build characters=CL,GB,MK,SN,TH,WA objects=BW,KY,KY,SH"
    with pytest.raises(ChoiceError, match="KY may be chosen at most 2 times"):
        resolve_choice("build characters=WA,TH,CL,MK,SN,GB objects=KY,KY,KY,SH", [], "B", forms, "cards")
    with pytest.raises(ChoiceError, match="build your team first: build characters=... objects=..."):
        resolve_choice("pick WA", [], "B", forms, "cards")


def test_CG_SCEN_03_the_table_line_names_the_scenario_and_its_target():
    from dungeon_twister.client.names import scenario_target

    assert scenario_target("standard") == 5 and scenario_target("prison-4") == 4 and scenario_target("prison-1") is None
    state = ClientState("ann")
    state.table = "t1"
    state.view = {"table": {"id": "t1", "scenario": "standard", "teams": "full", "game": "cards"}}
    text = "".join(t for _, t in game_panel(state, 0.0))
    assert "5 VP · scenario standard · full teams" in text


def test_CG_HCAP_the_panel_names_the_handicap_and_the_log_counts_what_is_left_out():
    from dungeon_twister.client.cards_panel import turn_detail

    v = view(new_game(CardOptions(None, "standard", "mutual", ("B", 3, (6,))), 4), "Y")
    assert "".join(t for _, t in turn_detail(v)) == "handicap: Blue leaves out 3 characters and +6\n"
    assert describe_event({"kind": "removed", "seat": "B", "count": 3}) == \
        "Blue leaves out 3 characters, unseen (handicap)"
    assert describe_event({"kind": "removed", "seat": "B", "figures": ["bCL", "bTH", "bWA"]}) == \
        "You leave out bCL, bTH, bWA (handicap)"


def test_CG_CHAR_PALADIN_01_02_CG_CHAR_TELEKIN_01_two_loads_drawn_and_the_new_events_worded():
    """The Paladin's two loads show on the board (`bPA+KY+SW`) and in `look`; the log words a levitation (one
    handed over unseen with secret objects too, DT-278), its move list entry, and the undead hunter's VP."""
    paladin = {"id": "bPA", "seat": "B", "code": "PA", "where": "maze", "at": "a2", "wounded": False,
               "carries": "bKY", "also_carries": "bSW"}
    v = maze_view(figures=[paladin])
    row2 = next(i for i, line in enumerate(lines_of(v)) if line.startswith("2 "))
    assert lines_of(v)[row2 + 1][3:].startswith("bPA+KY+SW")
    assert "bPA, carrying bKY and bSW" in describe_zone(v, "a2")
    e = {"kind": "levitate", "figure": "bTK", "item": "bKY", "path": ["B1", "^a1", "a1"], "to": None, "at": "a1"}
    assert describe_event(e) == "bTK moves bKY from afar to a1"
    assert describe_event({**e, "at": "B1", "path": ["B1"], "to": "bMK"}) == \
        "bTK moves bKY from afar to B1, into bMK's hands"
    assert compact_event(e) == "bTK levitate bKY a1"
    unseen = {"kind": "levitate", "figure": "bTK", "path": ["b1"], "to": "bMK", "at": "b1"}  # DT-278
    assert describe_event(unseen) == "bTK moves an object from afar to b1, into bMK's hands"
    assert compact_event(unseen) == "bTK levitate @bTK b1"
    combat = {"kind": "combat", "number": 4, "cards": {"B": 0, "Y": 0}, "totals": {"B": 3, "Y": 0}, "winner": "B",
              "wounded": [], "eliminated": ["yGH"], "hunter_vp": 1}
    assert describe_event(combat) == ("Combat 4: Blue 3 (card +0) vs Yellow 0 (card +0): Blue wins; yGH "
                                      "eliminated, +1 VP for the undead the Paladin hunted")


def test_CG_OPT_03_secret_objects_drawn_as_unseen_and_the_table_asked_for():
    """An object of the other player's shows as `+?` on the board and "unseen" in `look`; the log words a take
    by the holder and a shot a Large Shield stops; `create cards ... secret` asks for the variant."""
    enemy = {"id": "yMK", "seat": "Y", "code": "MK", "where": "maze", "at": "a2", "wounded": False,
             "carries": None, "hidden_objects": 1}
    v = maze_view(figures=[enemy], secret_objects=True)
    row2 = next(i for i, line in enumerate(lines_of(v)) if line.startswith("2 "))
    assert lines_of(v)[row2 + 1][3:].startswith("yMK+?")
    assert "yMK, carrying 1 object unseen" in describe_zone(v, "a2")
    assert describe_event({"kind": "move", "figure": "bSN", "path": ["b1", "+@yMK"]}) == \
        "bSN moves: b1, takes what yMK carries"
    assert describe_event({"kind": "stolen", "figure": "bPP", "victim": "yMK", "zone": "a1"}) == \
        "bPP steals an object from yMK in a1"
    assert describe_event({"kind": "shield_shown", "figure": "bCB", "target": "yWA", "zone": "d1"}) == \
        "bCB shoots at yWA in d1: a Large Shield stops the shot"
    assert parse_table_options("cards tutorial=3 secret") == TableOptions(game="cards", tutorial=3,
                                                                          secret_objects=True)


def test_CG_START_03_a_wall_between_a_room_and_the_start_zone_is_drawn():
    """blue1 turned twice prints a wall on its south side at b1 (its a2|... north wall turned): the edge towards
    Blue's start zone shows it instead of the open "·", which a player would take for a way in."""
    from dungeon_twister.client.cards_board import maze_of

    for turns in range(4):
        v = maze_view(turns=turns)
        edge = lines_of(v)[-3]  # the maze's south edge, above the B start line (and the files)
        maze = maze_of(v)
        for x in (0, 1):
            wall = "wall" in maze.features((x, 0), "S")
            cell = edge[3 + 13 * x: 3 + 13 * x + 12]
            assert (cell == "─" * 12) == wall and (cell == "·" * 12) == (not maze.features((x, 0), "S")), (turns, x)
    assert lines_of(maze_view(turns=2))[-3][16:28] == "─" * 12  # b1's wall; turned once, b1 prints a slit
    assert lines_of(maze_view(turns=1))[-3][16:28] == "┈" * 12


def test_CG_END_01_a_card_tables_game_over_is_said_however_it_ends_and_a_strange_event_is_not_fatal():
    """A card game that ended by agreement, resignation or abandonment crashed every client at the table (a
    play-test): the server's `game_over` has `vp` as {"B": n, "Y": n} (docs/protocol.md), the card engine's had
    pairs, and the card log read pairs. The card engine now sends the server's shape, the card log says it as the
    board game's does, and an event a client cannot read is a log line, not the end of the client."""
    from dungeon_twister.protocol import Joined, Snapshot, TableEvent
    from dungeon_twister.server.viewing import ViewPoint, table_view

    from test_client_prompt import TABLE, WiredSession

    wired = WiredSession()
    wired.session.join(TABLE, "B")
    wired.sent()
    wired.deliver(Joined(TABLE, "token", "B"))
    point = ViewPoint(new_game(CardOptions(1), 3), {"B": "ann", "Y": "bob"}, {"id": TABLE, "game": "cards"}, True)
    wired.deliver(Snapshot(TABLE, 0, table_view(point, "B")))
    state = wired.session.state
    assert state.view["game"] == "cards"
    wired.deliver(TableEvent(TABLE, 1, {"kind": "game_over", "winner": None, "vp": {"B": 1, "Y": 1},
                                        "reason": "agreed"}))
    assert state.log[-1] == "game over: draw 1-1 (agreed by both players)"
    wired.deliver(TableEvent(TABLE, 2, {"kind": "game_over", "winner": "Y", "vp": {"B": 0, "Y": 0},
                                        "reason": "resigned"}))
    assert state.log[-1] == "game over: Yellow wins 0-0 (the other player resigned)"
    wired.deliver(TableEvent(TABLE, 3, {"kind": "move", "figure": "bMK"}))  # no path
    assert state.log[-1] == "an event this client cannot show: move"
    wired.deliver(TableEvent(TABLE, 4, {"kind": "turn", "seat": "Y", "turn": 2, "ap": 3}))
    assert "an event" not in state.log[-1], "the next events are read as before"


def test_DT_239_a_dead_card_game_is_said_over_with_its_reason_in_each_language():
    """The engine ends a Card Game nobody can change any more (DT-239): the log and the panel say why, in the
    reader's language (client/locale: the reason is a catalogue text, as the board game's "nobody can score any
    more")."""
    from dungeon_twister.engine.cards import EndTurn, apply
    from tests.engine.cards.builders import build

    dead = build({"bMK": "a3", "bSN": "x", "yMK": "c2", "ySN": "b2"}, jumps=(0, 0), vp=(1, 0))
    ended, events = apply(dead, EndTurn("B"))
    over = next(e.data for e in events if e.kind == "game_over")
    state = ClientState("ann")
    state.seat = "B"
    v = view(ended, "B")
    v.update(legal=[], seats={"B": "ann", "Y": "bob"}, table={"id": "t1", "target_vp": 2, "game": "cards"},
             started=True)
    state.view = v
    expected = {"en": ("game over: Blue wins 1-0 (nothing can change any more)", "nothing can change any more"),
                "de": ("nichts kann sich mehr ändern",) * 2, "es": ("ya nada puede cambiar",) * 2,
                "fr": ("plus rien ne peut changer",) * 2, "it": ("più nulla può cambiare",) * 2}
    for language, (line, reason) in expected.items():
        i18n.use(language)
        assert line in describe_event({"kind": "game_over", **over}), language
        assert f"({reason})" in "".join(t for _, t in game_panel(state, 0.0, screens(v).panel)), language


def test_CG_CHAR_TELEPATH_01_the_session_refuses_the_card_not_named_from_its_view():
    """At a card table, Yellow holds 0, 2, 3, 6 and Blue's Telepath named +3: `card 6` is refused before anything
    is committed, with CG-CHAR-TELEPATH-01 (the session gives the family the view's naming and my_cards), and
    `card 5` with CG-COMBAT-02; nothing is sent."""
    from dungeon_twister.protocol import Joined, Snapshot
    from dungeon_twister.server.viewing import ViewPoint, table_view
    from tests.engine.cards.builders import act, build

    from test_client_prompt import TABLE, WiredSession

    named = act(act(build({"bTP": "a1", "yMK": "a1", "yWA": "d4"}, combat=True, cards=((0, 1), (0, 2, 3, 6))),
                    "attack bTP yMK"), "mind +3")
    wired = WiredSession()
    wired.session.join(TABLE, "Y")
    wired.sent()
    wired.deliver(Joined(TABLE, "token", "Y"))
    point = ViewPoint(named, {"B": "ann", "Y": "bob"}, {"id": TABLE, "game": "cards"}, True)
    wired.deliver(Snapshot(TABLE, 0, table_view(point, "Y")))
    state = wired.session.state
    assert state.legal == ["card 3"]
    wired.session.act("card 6")
    assert (state.refusal.rule, state.refusal.message) == (
        "CG-CHAR-TELEPATH-01", "the Telepath named +3: you hold it, you play it")
    wired.session.act("card 5")
    assert (state.refusal.rule, state.refusal.message) == ("CG-COMBAT-02", "no +5 card in hand")
    assert wired.sent() == []


def test_CG_CHAR_TELEPATH_02_the_log_shows_the_telepaths_player_the_hand_and_everyone_whether_it_was_held():
    """CG-CHAR-TELEPATH-02: « Si l'adversaire n'a plus cette carte Combat en main, il montre ses cartes Combat
    restantes au joueur contrôlant le Télépathe ». The engine's `mind_named` event carries that hand to Blue (the
    Telepath's player) alone, and whether it was held to all; the card table's log said only "Blue's Telepath names
    +5", so Blue never saw Yellow's hand and nobody learnt that +5 was not held (review cg29). It now says both, in
    the board game's words (its Telepath's log lines, already translated)."""
    from dungeon_twister.engine.cards import apply, parse_action
    from dungeon_twister.engine.core.events import event_view
    from tests.engine.cards.builders import act, build

    attacked = act(build({"bTP": "a1", "yMK": "a1", "yWA": "d4"}, combat=True, cards=((0, 1), (0, 2, 3, 6))),
                   "attack bTP yMK")

    def said(naming: str, viewer):
        _, events = apply(attacked, parse_action(naming, "B"))
        return describe_event(event_view(next(e for e in events if e.kind == "mind_named"), viewer))

    assert said("mind +5", "B") == "Blue names +5: not held; the hand is shown (+0 +2 +3 +6)"
    assert said("mind +5", "Y") == said("mind +5", None) == "Blue names +5: not held; the hand is shown"
    assert said("mind +3", "B") == said("mind +3", "Y") == said("mind +3", None) == "Blue names +3: it must be played"
    assert said("mind none", "Y") == "Blue's Telepath names nothing"
    # an event of before (no `held`) reads as it did
    assert describe_event({"kind": "mind_named", "seat": "B", "value": 4}) == "Blue's Telepath names +4"


def test_CG_CHAR_BERSERK_02_the_weapon_masters_side_is_shown_both_cards_of_the_berserker():
    """A play-test: the Berserker (frenzy 2) laid +3 and +5 face up against the Weapon Master, whose side was
    shown "+3" alone and chose its card against 6 when it faced 11. Both cards show in the combat box, for her
    side as well, and in the log."""
    from dungeon_twister.client.cards_panel import combat
    from tests.engine.cards.builders import act, build

    s = act(act(act(build({"bBE": "a1", "yWM": "a1", "yWA": "d4"}, combat=True), "attack bBE yWM"), "frenzy 2"),
            "card 3+5")
    yellow = "".join(text for _, text in combat(view(s, "Y"), "Y"))
    assert "Blue lays first, face up: +3 and +5" in yellow and "Blue has laid a card" not in yellow
    assert "your cards +3 and +5" in "".join(text for _, text in combat(view(s, "B"), "B"))
    assert describe_event({"kind": "combat_card", "seat": "B", "value": 3, "second": 5}) == "Blue lays +3 and +5"
    assert describe_event({"kind": "combat_card", "seat": "B", "value": 3}) == "Blue lays +3"


def test_CG_TUT_a_tutorial_says_its_goal_and_new_rules_as_it_starts():
    """Play-test 20: a tutorial table never said which tutorial it was nor its goal, where a Prison scenario does
    (scenario_intro, at game_started). The tutorials' title, goal and new rules are the game's data (cards.json),
    as CG-TUT1-01/06, CG-TUT2-01/05 and CG-TUT3-01/04 state them; the standard scenario has none."""
    from dungeon_twister.client.names import scenario_intro

    lines = scenario_intro(view(new_game(CardOptions(3), 1), "B"))
    assert lines[0] == "tutorial 3: Ranged combat"
    assert lines[1] == "goal: Be the first to 4 VP: the game ends at once."
    assert lines[2].startswith("new rules: Lines of sight and ranged combat")
    assert scenario_intro(view(new_game(CardOptions(1), 1), None))[1] == (
        "goal: Be the first to take both of your characters out through the opponent's start zone (1 VP each).")
    assert "No combat." in scenario_intro(view(new_game(CardOptions(1), 1), "Y"))[2]
    assert scenario_intro(view(new_game(CardOptions(None, "standard", "mutual"), 1), "B")) == []


def test_DT_206_a_view_whose_legal_list_was_left_out_still_asks_for_a_move():
    """docs/protocol.md section 13, Views: a view too large for a frame comes with `legal` [] and `legal_omitted`
    (a card-game position with thousands of moves, DT-206). The seat is still to act (the bell, the panel), and
    the panel says to type the move, which the server checks."""
    from dungeon_twister.engine.families import CARDS
    from tests.engine.cards.builders import build

    s = build({"bMK": "a1", "yWA": "d4"})
    state = ClientState("ann")
    state.seat = "B"
    v = view(s, "B")
    v.update(legal=[], legal_omitted=len(CARDS.legal_texts(s, "B")), seats={"B": "ann", "Y": "bot"},
             table={"id": "t1", "target_vp": 5, "game": "cards"}, started=True)
    state.view = v
    assert state.legal == [] and state.legal_omitted == 17 and state.to_act  # 17: test_cards_perft's by hand
    text = "".join(t for _, t in game_panel(state, 0.0, screens(v).panel))
    assert "Your move" in text and "17 legal actions, too many to list: type yours (the server checks it)" in text
    state.view = {**v, "legal_omitted": None}  # a view without the key (or a bad value): nothing left out
    assert state.legal_omitted == 0 and not state.to_act


def test_CG_TUT1_04_tab_offers_every_character_in_hand_at_each_place_of_a_hide_or_face():
    """CG-TUT1-04, CG-START-02: a hide or a facing names the characters in any order, and the list holds each
    choice once, sorted: Tab, which followed the listed order word by word, never offered the character that sorts
    last (the Wizard of tutorial 3) as the first word (play-test pt25b F1). Each character not yet named is offered
    at each place; the edges: one named is not offered again, a word typed in lower case counts, and a board game's
    `hide TOKEN ROOM` keeps its order."""
    from prompt_toolkit.completion import CompleteEvent
    from prompt_toolkit.document import Document

    from dungeon_twister.client.completion import PromptCompleter
    from dungeon_twister.client.state import ClientState

    state = ClientState("ann", connected=True)
    state.enter_table("t-1", "B")
    state.view = {"game": "cards", "secret": "hide", "legal": [
        f"hide {a}:{x} {b}:{y}" for a, b in (("bCB", "bWZ"), ("bCB", "bMK"), ("bMK", "bWZ"))
        for x in "12" for y in "12" if x != y]}
    completer = PromptCompleter(state)

    def complete(text: str) -> set[str]:
        return {c.text for c in completer.get_completions(Document(text), CompleteEvent())}

    assert complete("hide ") == {f"{code}:{n}" for code in ("bCB", "bMK", "bWZ") for n in "12"}
    assert complete("hide bWZ:1 ") == {"bCB:2", "bMK:2"}
    assert complete("hide bwz:1 bC") == {"bCB:2"}
    assert complete("hide bMK:2 bMK") == set(), "a character named once"
    state.view = {"secret": None, "legal": ["hide bWZ A1", "hide bFW A1", "hide bFW B1"]}
    assert complete("hide ") == {"bFW", "bWZ"} and complete("hide bFW ") == {"A1", "B1"}


def test_CG_START_02_tabs_four_facings_of_a_character_each_say_which_zone_it_faces():
    """Translation play-through i18n32: Tab after `face ` listed "bMK:C  Mechanork (Blu)", "bMK:R ...", "bMK:S ...",
    "bMK:T ..." with one text for the four: nothing said which zone each letter is. Each says it now, in the panel's
    words once chosen ("faces the circle (C)"); the edge: the second character, once the first is typed, and a
    word that is no facing (the verb) keeps its own text."""
    from prompt_toolkit.completion import CompleteEvent
    from prompt_toolkit.document import Document

    from dungeon_twister.client.completion import PromptCompleter
    from dungeon_twister.client.state import ClientState

    state = ClientState("ann")
    state.view = {"game": "cards", "legal": [f"face bMK:{a} bSN:{b}" for a in "TSCR" for b in "TSCR"]}
    completer = PromptCompleter(state)

    def complete(text: str) -> dict[str, str]:
        return {c.text: c.display_meta_text for c in completer.get_completions(Document(text), CompleteEvent())}

    metas = complete("face ")
    assert metas["bMK:C"].endswith("Mechanork faces the circle (C)") and metas["bMK:R"].endswith(
        "faces the rotation zone (R)") and metas["bMK:S"].endswith("faces the square (S)")
    assert len({metas[f"bMK:{letter}"] for letter in "TSCR"}) == 4
    assert complete("face bMK:T ")["bSN:T"].endswith("Snake-man faces the triangle (T)")
    assert "faces" not in complete("f")["face"]


def test_CG_START_01_tabs_two_start_positions_of_a_character_each_say_which_it_is():
    """pt32: Tab after `hide ` listed "bMK:1  Blue Mechanork · hide bMK:1 bSN:2" and "bMK:2  Blue Mechanork · ..." with
    one description for both: nothing said what 1 and 2 choose. Each says it, as the log says a hiding ("bMK on B1")
    and the board labels the start positions (B1, B2); the edge: Yellow's positions are Y1 and Y2, the second
    character once the first is typed, and the verb keeps its own text."""
    from prompt_toolkit.completion import CompleteEvent
    from prompt_toolkit.document import Document

    from dungeon_twister.client.completion import PromptCompleter
    from dungeon_twister.client.state import ClientState

    state = ClientState("ann")
    state.view = {"game": "cards", "legal": ["hide bMK:1 bSN:2", "hide bMK:2 bSN:1"]}
    completer = PromptCompleter(state)

    def complete(text: str) -> dict[str, str]:
        return {c.text: c.display_meta_text for c in completer.get_completions(Document(text), CompleteEvent())}

    metas = complete("hide ")
    assert metas["bMK:1"].startswith("Blue Mechanork on B1") and metas["bMK:2"].startswith("Blue Mechanork on B2")
    assert metas["bSN:1"].startswith("Blue Snake-man on B1") and len(set(metas.values())) == 4
    assert complete("hide bMK:1 ") == {"bSN:2": "Blue Snake-man on B2"}
    state.view = {"game": "cards", "legal": ["hide yWZ:2 yCB:1"]}
    assert complete("hide yW")["yWZ:2"].startswith("Yellow Wizard on Y2")
    assert " on " not in complete("h")["hide"]


def test_CG_COMBAT_02_a_server_choice_with_no_words_is_no_combat_card_and_no_crash():
    """Review rv33: `_combat_card_words` (pl33) read each choice's first and second word blindly, so a view whose
    legal list held an empty or one-word-and-a-space choice ("", "card ", what a faulty or hostile server may
    send: ClientState.legal keeps any text) made `combat +4` an IndexError out of the prompt. Such a list is no
    list of combat cards: the text is checked as typed, and refused as no choice. Its edge: a list of cards is
    still read in the other game's words."""
    for legal in ([""], ["  "], ["card "], ["card 4", ""]):
        with pytest.raises(ChoiceError):
            resolve_choice("combat +4", legal, "B", game="cards")
    assert resolve_choice("combat +4", ["card 4", "card 0"], "B", game="cards") == "card 4"
