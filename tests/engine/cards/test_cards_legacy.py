"""DT-266, DT-271: a Card Game record written before DT-266 (main at e55494a and earlier) names places of face-down
rooms where today's rules point icons: the setup's `face` lines, turns `^a1` and steps along the start zone
`B2^c1`, the Telekinetic's object moved along it. Replayed (cards records.replayed, the engine's and the client's
replays, dt-engine play), such a line is read as the icon lying on that place (`legacy_action`); live input
naming a place of a face-down room stays refused.

data/legacy/*.txt are records the engine of e55494a wrote: its greedy bot against its greedy or random bot, from
`game cards seed=N ...` with both bots drawing from Rng(N), played to the end (the loop of
test_cards_contract's dt-engine play test; `legal_texts`, `CARDS.view`, `apply`). Each file's comments give the
old engine's outcome, which is what the tests below expect; the report of cg21b gives the run: 48 such games
(tutorials 1-3 and the standard scenario, seeds 0-5, greedy against greedy and against random) all replay to the
old outcome, VP and final position. Maze of builders.py: blue1 in A, unturned: R a1, C b1, T a2, S b2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dungeon_twister.engine.cards import EndTurn, Face, apply, parse_action
from dungeon_twister.engine.cards.notation import format_action
from dungeon_twister.engine.cards.records import legacy_action, parse_record, replayed
from dungeon_twister.engine.cards.typed import legal_texts, resolve_input
from dungeon_twister.engine.core.errors import IllegalAction
from dungeon_twister.engine.core.records import RecordLine, replay_lines
from dungeon_twister.engine.families import BOARD, CARDS

from .builders import DEFAULT_ROOMS, build, refused, z

LEGACY = Path(__file__).parent / "data" / "legacy"
A_DOWN = (False, True, True, True)
"""Room A (blue1, in front of B1) face down, the others face up."""

OLD = {  # file: (the old engine's winner, VP, actions; the lines read as icons: both `face`s, then the moves)
    "tutorial1-seed0": ("B", (2, 1), 95, [12, 13, 16, 18, 19, 20, 26, 27, 28, 35, 38, 42]),
    "tutorial2-seed3": ("B", (3, 2), 82, [16, 17, 23, 24, 26, 28, 36, 37]),
    "tutorial3-seed1": ("B", (4, 2), 164, [24, 25, 29, 35, 61, 65]),
    "standard-seed0": ("B", (5, 4), 131, [34, 35, 51, 68, 78]),
}


def record(name: str) -> str:
    return (LEGACY / f"{name}.txt").read_text()


@pytest.mark.parametrize("name", sorted(OLD))
def test_DT_266_DT_271_a_record_of_before_replays_to_the_old_engines_outcome(name):
    """The old record replays to the end with the outcome and VP the engine of e55494a gave it (its comments),
    reading exactly its `face` lines and its turns and steps towards face-down rooms as icons; the header lists
    the same lines, counted by the old engine as paths naming a place of a face-down room. Without the reading
    it stops at its first `face` line (CG-START-02, DT-266)."""
    winner, vp, actions, read = OLD[name]
    text = record(name)
    assert f"winner={winner} vp=B{vp[0]},Y{vp[1]} (vp), after {actions} actions" in text
    state, lines = parse_record(text)
    given = {line.number: line.action for line in lines}
    converted = []
    for line, state, _ in replayed(state, lines):
        if line.action is not given[line.number]:
            converted.append(line.number)
            assert isinstance(line.action, Face) or "^" in " ".join(line.action.path)
            assert format_action(line.action) != line.text[3:]
    assert state.outcome.winner == winner and dict(state.outcome.vp) == {"B": vp[0], "Y": vp[1]}
    assert len(lines) == actions and converted == read
    assert f"the `face` lines {read[0]} and {read[1]};" in text and ", ".join(map(str, read[2:])) + "." in text
    start, lines = parse_record(text)
    with pytest.raises(IllegalAction) as refusal:
        for _ in replay_lines(start, lines, apply):
            pass
    assert refusal.value.rule == "CG-START-02" and refusal.value.values["record_line"] == read[0]
    assert "not a zone (DT-266)" in str(refusal.value)


def test_DT_266_DT_271_dt_engine_play_replays_a_record_of_before(tmp_path, capsys):
    """`dt-engine play` (engine/tools/cli.py) of an old tutorial-2 record: the old engine's outcome."""
    from dungeon_twister.engine.tools.cli import main

    path = tmp_path / "old.txt"
    path.write_text(record("tutorial2-seed3"))
    assert main(["play", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["outcome"] == {"winner": "B", "vp": {"B": 3, "Y": 2}, "reason": "vp"}


def test_DT_271_a_place_names_the_icon_lying_on_it_along_the_whole_path():
    """A face-down room's orientation is in the state: a1 of blue1 (unturned) carries R, b2 S, a2 T, b1 C.
    The start position is followed along the path: the Mechanork on B2 (room B face up) steps along to B1
    facing a2 (T), then turns to b1 (C); from c1 he steps onto B2 then along to B1 (T). A turn where room B is
    face up keeps its zone. The Telekinetic's key goes the same way (`B2 B1^a1`: `B2 B1^R`). Each converted
    action applies; the engine would have refused each one as written (CG-START-04/05)."""
    s = build({"bSN": "B1>T", "bMK": "B2>c1", "yMK": "c4"}, revealed=A_DOWN)
    cases = {"move bSN ^a1": ("move bSN ^R", "CG-START-04"), "move bMK B1^b2": ("move bMK B1^S", "CG-START-05"),
             "move bMK B1^a2 ^b1": ("move bMK B1^T ^C", "CG-START-05"),
             "move bMK ^d1 B1^b2": ("move bMK ^d1 B1^S", "CG-START-05")}
    for old, (new, rule) in cases.items():
        action = parse_action(old, "B")
        assert format_action(legacy_action(s, action)) == new
        refused(s, old, rule)
        apply(s, legacy_action(s, action))
    walker = build({"bMK": "c1", "yMK": "c4"}, revealed=A_DOWN)
    assert format_action(legacy_action(walker, parse_action("move bMK B2 B1^a1", "B"))) == "move bMK B2 B1^R"
    assert legacy_action(s, parse_action("move bMK ^d1", "B")) is None  # room B is face up: nothing to read
    floating = build({"bTK": "c1", "yMK": "c4"}, items={"bKY": "c1"}, revealed=A_DOWN)
    moved = legacy_action(floating, parse_action("levitate bTK bKY B2 B1^a1", "B"))
    assert format_action(moved) == "levitate bTK bKY B2 B1^R"
    assert apply(floating, moved)[0].item("bKY").at == ("B", 0)
    turned = build({"bSN": "B1>T", "yMK": "c4"}, rooms=(("blue1", 1),) + DEFAULT_ROOMS[1:], revealed=A_DOWN)
    assert turned.maze.icon(z("a1")) != "R"  # another orientation, another icon on the same place
    assert format_action(legacy_action(turned, parse_action("move bSN ^a1", "B"))) == \
        f"move bSN ^{turned.maze.icon(z('a1'))}"


def test_DT_271_a_setup_facing_on_places_reads_each_as_its_icon():
    """The old tutorial-1 record's setup up to its `face` lines: `face bMK:b2 bSN:b2` reads as the icon on b2 of
    the face-down room in front of them (T there), Yellow's `face yMK:a4 ySN:b4` as C and R; the state's own
    maze says so. A facing already an icon is kept; a place of no room in front gives nothing to read."""
    state, lines = parse_record(record("tutorial1-seed0"))
    for line, state, _ in replayed(state, [line for line in lines if line.number < 12]):
        pass
    assert state.phase == "face"
    blue = legacy_action(state, parse_action("face bMK:b2 bSN:b2", "B"))
    assert blue == Face("B", (("bMK", "T"), ("bSN", "T"))) and state.maze.icon(z("b2")) == "T"
    yellow = legacy_action(state, parse_action("face yMK:a4 ySN:b4", "Y"))
    assert yellow.facings == (("yMK", state.maze.icon(z("a4"))), ("ySN", state.maze.icon(z("b4")))) == (
        ("yMK", "C"), ("ySN", "R"))
    assert legacy_action(state, parse_action("face bMK:T bSN:S", "B")) is None
    assert legacy_action(state, parse_action("face bMK:c3 bSN:b2", "B")).facings == (("bMK", z("c3")),
                                                                                      ("bSN", "T"))
    assert legacy_action(state, EndTurn("B")) is None and BOARD.legacy_action(state, EndTurn("B")) is None
    assert CARDS.legacy_action is legacy_action


def test_DT_266_live_input_naming_a_place_of_a_face_down_room_stays_refused():
    """The reading is for records and journals only: `apply`, the typed input (resolve_input, then apply) and the
    legal list refuse or leave out a place of a face-down room as DT-266 has it (CG-START-04/05). (The server's
    live input: test_server_legacy.)"""
    s = build({"bSN": "B1>T", "bMK": "B2>c1", "yMK": "c4"}, revealed=A_DOWN)
    assert "not a zone (DT-266)" in refused(s, "move bSN ^a1", "CG-START-04").message
    assert "not a zone (DT-266)" in refused(s, "move bMK B1^b2", "CG-START-05").message
    with pytest.raises(IllegalAction) as typed:  # (exact notation is taken as written, then applied)
        apply(s, resolve_input(s, "B", "move bSN ^a1"))
    assert typed.value.rule == "CG-START-04"
    assert not any("^a" in t or "^b" in t for t in legal_texts(s, "B"))


def test_DT_271_a_line_the_reading_does_not_save_keeps_its_own_refusal_and_number():
    """`move bSN ^a2` where he points T, lying in a2: read as `^T`, the icon he points already, which is refused
    too: the line's own refusal stands (CG-START-04, DT-266's sentence) with its number. `^c3` is no place of the
    room in front: nothing to read, the same."""
    s = build({"bSN": "B1>T", "yMK": "c4"}, revealed=A_DOWN)
    for text in ("B: move bSN ^a2", "B: move bSN ^c3"):
        lines = [RecordLine(1, "B: end", EndTurn("B")), RecordLine(2, "Y: end", EndTurn("Y")),
                 RecordLine(3, text, parse_action(text[3:], "B"))]
        with pytest.raises(IllegalAction) as refusal:
            list(replayed(s, lines[2:]))
        assert refusal.value.rule == "CG-START-04" and refusal.value.values["record_line"] == 3
        assert f"line 3 ({text})" in str(refusal.value)
    assert "not a zone (DT-266)" in str(refusal.value)


def test_DT_260_DT_271_an_inversion_with_a_face_down_room_may_part_old_and_new_games():
    """Where the old and new rules part (docs/rulings.md DT-271): the Inversion Scroll. Before DT-266 a
    start-zone character's facing followed the icon only when both rooms were face up (DT-260), else it kept its
    place; now it points the same icon at the new card. The yellow Warrior on Y2 turns to d4 of green2, face
    down in D (read as R, lying there); the blue Wizard swaps rooms C and D: the old engine left him facing d4,
    now of blue2, and let him enter it (checked with the engine of e55494a: these six lines, from the same
    position with the Warrior facing c4); today he faces blue2's R, in c4, and the replay stops at line 6 with
    its number and CG-START-03."""
    s = build({"yMK": "Y1>b4", "yWA": "Y2>T", "bWZ": "a3"}, {"bIS": "@bWZ"}, ap=(3, 0),
              revealed=(True, True, True, False))
    assert s.maze.icon(z("c4")) == "T" and s.maze.icon(z("d4")) == "R"
    texts = ["B: end", "Y: move yWA ^d4", "Y: end", "B: invert bWZ D", "B: end", "Y: move yWA d4"]
    lines = [RecordLine(n, t, parse_action(t[3:], t[0])) for n, t in enumerate(texts, 1)]
    states = []
    with pytest.raises(IllegalAction) as refusal:
        for line, state, _ in replayed(s, lines):
            states.append((line, state))
    assert format_action(states[1][0].action) == "move yWA ^R"
    inverted = states[3][1]
    assert inverted.rooms[3].card == "blue2" and inverted.fig("yWA").facing == z("c4") \
        and inverted.maze.icon(z("c4")) == "R"
    assert refusal.value.rule == "CG-START-03" and refusal.value.values["record_line"] == 6
    assert "enter only the zone you face" in str(refusal.value)


def _old_full_frontal_record(monkeypatch) -> tuple[str, int]:
    """A full frontal game (Blue's objects AR,KY,KY,SW) as the engine wrote it before DT-279, where a room revealed
    `bKY2` while `bKY` lay face down, played on for 20 actions after: its record and the number of its lines."""
    from dungeon_twister.engine.cards import CardOptions, legal_actions, new_game, rooms
    from dungeon_twister.engine.cards.records import format_line, game_header
    from dungeon_twister.engine.core.rng import Rng
    from .builders import kind_first

    options = CardOptions(None, "standard", "full")
    with monkeypatch.context() as patch:
        patch.setattr(rooms, "copies_in_order", lambda state, slot: state)  # the engine before DT-279
        for seed in range(60):
            rng, state = Rng(seed), new_game(options, seed)
            actions = [parse_action("build characters=BK,CO,DA,SN,TP,WA objects=AR,KY,KY,SW", "B"),
                       parse_action("build characters=BK,CO,DA,SN,TP,WA objects=AR,IS,KY,LN", "Y")]
            for action in actions:
                state, _ = apply(state, action)
            after = None
            while state.outcome is None and len(actions) < 300 and (after is None or len(actions) < after + 20):
                action = kind_first(rng, legal_actions(state))
                state, events = apply(state, action)
                actions.append(action)
                shown = [c for e in events if e.kind == "reveal" for c in e.data["cards"]]
                if after is None and "bKY2" in shown and state.item("bKY").where == "seeded":
                    after = len(actions)
            if after is not None:
                lines = [game_header(seed, options)] + [format_line(action) for action in actions]
                return "\n".join(lines) + "\n", len(actions)
    raise LookupError("no full frontal game revealing bKY2 before bKY")


def test_DT_279_a_record_written_before_it_replays_with_the_copies_read_as_it_meant(monkeypatch):
    """DT-279: a full frontal game's revealed object is now the lowest copy still unseen, so a record written
    before it, where `bKY2` was revealed while `bKY` lay face down, names the copies the other way round from the
    reveal on. Replayed, each line the rules refuse is read with the other copy's name (`place bKY2 c1` as
    `place bKY c1`): the whole record replays, to the same VP; live input is not converted."""
    text, count = _old_full_frontal_record(monkeypatch)
    state, lines = parse_record(text)
    replayed_lines = list(replayed(state, lines))
    assert len(replayed_lines) == count
    converted = [line for line, _, _ in replayed_lines if format_action(line.action) != line.text.split(": ", 1)[1]]
    assert converted and all("KY" in format_action(line.action) for line in converted)
    final = replayed_lines[-1][1]
    with monkeypatch.context() as patch:
        from dungeon_twister.engine.cards import rooms
        patch.setattr(rooms, "copies_in_order", lambda state, slot: state)
        old = state
        for line in lines:
            old, _ = apply(old, line.action)
    assert [p.vp for p in final.players] == [p.vp for p in old.players]
    assert sorted((i.code, i.where, str(i.at)) for i in final.items) == sorted(
        (i.code, i.where, str(i.at)) for i in old.items)  # the same cards in the same places, by kind
    first = next(n for n, (line, _, _) in enumerate(replayed_lines) if line is converted[0])
    before = replayed_lines[first - 1][1]
    with pytest.raises(IllegalAction) as info:  # live input naming that copy is refused: only records are read so
        apply(before, parse_action(converted[0].text.split(": ", 1)[1], converted[0].action.seat))
    assert info.value.rule == "CG-REVEAL-06"  # not the copy's owner's to place now
    apply(before, converted[0].action)
