"""Team building across sets (PD-TEAM): the mixed sets (engine/mixes), the mutual and the free choice
(engine/boardgame/draft.py), the handicap and common objects chosen several times."""

from __future__ import annotations

import pytest

from dungeon_twister.engine import Options, apply, format_position, legal_texts, new_game, parse_action, parse_position, view
from dungeon_twister.engine.boardgame.catalogue import load

from ..builders import assert_refused


def picks(state, *values: str):
    for value in values:
        state, _ = apply(state, parse_action(f"pick {value}", state.to_act[0]))
    return state


def test_PD_TEAM_02_03_a_mixed_game_pools_every_set_in_use():
    """PD-TEAM-02, PD-TEAM-03: All three sets: 12 room pairs (1-4, 37-40, 41-44), 21 characters (the Cleric, Mechanork and Wizard are in the
    base set and Prison alike: once), 15 objects (Rope, Key, Treasure likewise)."""
    cat = load("all_sets")
    assert sorted({room.number for room in cat.rooms.values()}) == [1, 2, 3, 4, 37, 38, 39, 40, 41, 42, 43, 44]
    assert len(cat.characters) == 21 and len(cat.objects) == 15
    state = new_game(Options(set_name="all_sets", teams="mutual"), seed=5)
    pool = view(state, "B")["draft"]["pool"]
    assert len(pool["rooms"]) == 12 and len(pool["characters"]) == 21 and len(pool["objects"]) == 15
    for name, sets in (("base_paladins", 2), ("prison_paladins", 2)):
        assert len({room.number for room in load(name).rooms.values()}) == 4 * sets


def test_PD_TEAM_02_edge_choice_is_for_mixed_games_only():
    for options in (Options(teams="mutual"), Options(set_name="paladins", teams="mutual"), Options(teams="free"),
                    Options(set_name="paladins", teams="free"), Options(set_name="mixed", teams="hidden"),
                    Options(set_name="mixed", teams="mutual", beginner=True)):
        with pytest.raises(ValueError, match="PD-TEAM-02"):
            new_game(options, seed=1)


def test_PD_TEAM_MUTUAL_01_rooms_picked_in_turn_then_laid_face_down():
    """The draw names the first picker; pairs alternate first, other, first, other; a pair picked is gone; the
    picks are laid face down in the layout drawn at setup."""
    state = new_game(Options(set_name="all_sets", teams="mutual"), seed=5)
    first = state.draft.first
    other = "Y" if first == "B" else "B"
    assert state.phase == "draft" and state.to_act == (first,) and state.rooms == ()
    assert_refused(state, "pick 37", "PD-TEAM-MUTUAL-01", seat=other)
    after = picks(state, "37")
    assert after.to_act == (other,)
    assert_refused(after, "pick 37", "PD-TEAM-MUTUAL-01")
    assert_refused(after, "pick WA", "PD-TEAM-MUTUAL-01")
    laid = picks(after, "41", "1", "44")
    numbers = sorted({laid.catalogue.rooms[p.tile].number for p in laid.rooms})
    assert numbers == [1, 37, 41, 44] and len(laid.rooms) == 8 and not any(p.revealed for p in laid.rooms)
    assert laid.draft.picks[:4] == (("rooms", "37"), ("rooms", "41"), ("rooms", "1"), ("rooms", "44"))


def test_PD_TEAM_MUTUAL_02_03_04_rules_073_characters_both_take_what_one_shows_objects_started_by_the_other():
    """PD-TEAM-MUTUAL-02, PD-TEAM-MUTUAL-03, PD-TEAM-MUTUAL-04."""
    state = new_game(Options(set_name="all_sets", teams="mutual"), seed=5)
    first = state.draft.first
    other = "Y" if first == "B" else "B"
    state = picks(state, "37", "41", "1", "44")
    order = []
    for code in ("RD", "WA", "GH", "NG", "PA", "TH", "WZ", "CO"):
        order.append(state.to_act[0])
        state = picks(state, code)
    assert order == [first, other] * 4
    assert_refused(state, "pick WA", "PD-TEAM-MUTUAL-03")  # a character again, in the objects stage
    assert state.to_act == (other,)  # RUL-073: the other player starts the objects
    state = picks(state, "RG", "KY", "SW", "FH", "TS", "RP")
    assert state.phase == "team" and state.draft is None
    for seat in "BY":
        team = sorted(t.code for t in state.tokens.values() if t.colour == seat and t.where == "screen")
        assert team == sorted(["RD", "WA", "GH", "NG", "PA", "TH", "WZ", "CO", "RG", "KY", "SW", "FH", "TS", "RP"])
    # a colour holds 21 characters, 15 objects and a second Rope and Key (PD-TEAM-COMMON-01): the rest is unused
    assert sum(t.where == "unused" for t in state.tokens.values()) == 2 * (21 + 15 + 2 - 14)


def test_PD_TEAM_MUTUAL_the_draft_is_public_deterministic_and_written_in_positions():
    """Every viewer sees the same draft; the same seed and picks give the same layout; a draft position round-trips
    and its layout (the deal) is nobody's to see."""
    a = picks(new_game(Options(set_name="all_sets", teams="mutual"), seed=9), "2", "38", "42")
    assert view(a, "B")["draft"] == view(a, "Y")["draft"] == view(a, None)["draft"]
    assert "deal" not in str(view(a, None))
    assert parse_position(format_position(a)) == a
    b = picks(new_game(Options(set_name="all_sets", teams="mutual"), seed=9), "2", "38", "42")
    assert picks(a, "43").rooms == picks(b, "43").rooms
    assert legal_texts(a) == [f"pick {n}" for n in ("1", "3", "4", "37", "39", "40", "41", "43", "44")]


def test_PD_TEAM_HCAP_01_the_handicapped_player_removes_characters_in_secret_once_the_teams_are_built():
    """A mutual build with Blue handicapped to 6 characters: after the 8 common picks, Blue's secret team choice
    leaves out 2 of them (BG-OPT-08, `out=`), which Yellow does not see (the choice is a commit-reveal secret)."""
    from dungeon_twister.engine import Handicap, secret_purpose

    state = new_game(Options(set_name="all_sets", teams="mutual", handicap=Handicap("B", 6)), seed=5)
    state = picks(state, "37", "41", "1", "44", "RD", "WA", "GH", "NG", "PA", "TH", "WZ", "CO",
                  "RG", "KY", "SW", "FH", "TS", "RP")
    assert state.phase == "team" and secret_purpose(state, "B") == "team"
    blue = [text for text in legal_texts(state, "B")]
    assert all(" out=" in text and len(text.split("out=")[1].split(",")) == 2 for text in blue)
    assert not any(" out=" in text for text in legal_texts(state, "Y"))
    chosen = next(text for text in blue if text.endswith("out=CO,WZ"))
    after, events = apply(state, parse_action(chosen, "B"))
    from dungeon_twister.engine import event_view

    assert [event_view(e, "Y") for e in events] == [{"kind": "team_chosen", "seat": "B"}]
    assert event_view(events[0], "B")["removed"] == ["CO", "WZ"]


def test_PD_TEAM_SCEN_01_a_scenario_imposes_teams_and_rooms_so_no_choice_goes_with_it():
    """Prison's scenario 1 names its pairs (39, 40) and both teams (Mechanork, Naga; Key, Rope); a mutual build
    with a scenario is refused (PD-TEAM-02)."""
    state = new_game(Options(set_name="prison", scenario="prison-1"), seed=2)
    assert sorted({state.catalogue.rooms[p.tile].number for p in state.rooms}) == [39, 40]
    for seat in "BY":
        assert sorted(t.code for t in state.tokens.values() if t.colour == seat and t.where == "screen") == \
            ["KY", "MK", "NG", "RP"]
    with pytest.raises(ValueError, match="PD-TEAM-02"):
        new_game(Options(set_name="mixed", scenario="prison-1", teams="mutual"), seed=2)


def test_PD_TEAM_COMMON_01_PD_GLOS_04_a_common_object_is_picked_once_per_copy_a_colour_holds():
    """All three sets: each colour holds two Ropes (the base set's and Prison's) and two Keys (Prison's and Paladins &
    Dragons'), one Treasure (it is no common object). The Rope picked twice puts bRP and bRP2 (yRP, yRP2) behind the
    screens; a third Rope, or a second Treasure, is no pick; the second copy is written bRP2 and round-trips."""
    from dungeon_twister.engine.boardgame.catalogue import load

    assert load("all_sets").copies == {"KY": 2, "RP": 2} and load("base_paladins").copies == {}
    state = picks(new_game(Options(set_name="all_sets", teams="mutual"), seed=5), "37", "41", "1", "44",
                  "RD", "WA", "GH", "NG", "PA", "TH", "WZ", "CO", "RP", "RP", "TS")
    assert {state.tokens[tid].where for tid in ("bRP", "bRP2", "yRP", "yRP2")} == {"screen"}
    assert "pick RP" not in legal_texts(state) and "pick TS" not in legal_texts(state)
    assert_refused(state, "pick RP", "PD-TEAM-MUTUAL-03")
    assert parse_position(format_position(state)) == state
    done = picks(state, "KY", "KY", "SW")
    assert done.phase == "team" and {done.tokens[tid].where for tid in ("bKY", "bKY2")} == {"screen"}
    assert parse_position(format_position(done)) == done
    assert format_position(done).count("RP2") == 0  # behind the screens: not written until placed


# --- free choice (hidden forces) ---------------------------------------------------------------------------------
ALL_FREE = Options(set_name="all_sets", teams="free")
BLUE = "build pairs=3,41 characters=ES,GH,MK,PA,RD,TH,WA,WZ objects=FH,KY,KY,RP,SW,TS"
YELLOW = "build pairs=41,42 characters=AS,CL,GO,IL,NG,PP,TR,WM objects=CH,DS,FS,RG,RP,SP"


def built(state, *texts: str):
    for text in texts:
        state, _ = apply(state, parse_action(text, state.to_act[0]))
    return state


def test_PD_TEAM_FREE_01_02_both_choose_in_secret_at_once_then_the_rooms_are_laid_and_the_teams_go_behind_the_screens():
    """All three sets: each seat chooses 2 of the 12 pairs, 8 of the 21 characters and 6 of the 15 objects (the Key
    and the Rope up to twice: 7,085 ways), 66 x 203,490 x 7,085 = 95,153,958,900 builds, which legal_actions gives
    as a lazy sequence described by its parts. Both seats choose at once (commit-reveal purpose "build"); a build
    is seen by its own seat only; once both are in, the 8 rooms lie face down and each screen holds its own 14."""
    from math import comb

    from dungeon_twister.engine import event_view, legal_actions, secret_purpose

    state = new_game(ALL_FREE, seed=5)
    assert state.phase == "build" and state.to_act == ("B", "Y") and state.rooms == ()
    assert secret_purpose(state, "B") == secret_purpose(state, "Y") == "build"
    objects = sum(comb(13, 6 - keys - ropes) for keys in range(3) for ropes in range(3))
    assert objects == 7085
    legal = legal_actions(state, "B")
    assert len(legal) == comb(12, 2) * comb(21, 8) * objects == 95_153_958_900
    assert parse_action(BLUE, "B") in legal and parse_action(BLUE, "Y") not in legal
    parts = view(state, None)["build"]["parts"]
    assert [(p["name"], p["count"], len(p["values"]), p.get("copies")) for p in parts] == [
        ("pairs", 2, 12, None), ("characters", 8, 21, None), ("objects", 6, 15, {"KY": 2, "RP": 2})]
    after, events = apply(state, parse_action(BLUE, "B"))
    assert after.to_act == ("Y",) and after.phase == "build"
    assert [event_view(e, "Y") for e in events] == [event_view(e, None) for e in events] == [
        {"kind": "built", "seat": "B"}]
    assert event_view(events[0], "B")["characters"] == ["ES", "GH", "MK", "PA", "RD", "TH", "WA", "WZ"]
    assert view(after, "Y")["build"]["built"] == {"B": True, "Y": False} and "mine" not in view(after, "Y")["build"]
    assert view(after, "B")["build"]["mine"]["B"]["objects"] == ["FH", "KY", "KY", "RP", "SW", "TS"]
    assert_refused(after, BLUE, "PD-TEAM-FREE-01", seat="B")  # once
    done = built(after, "build pairs=1,44 characters=AS,CL,GO,IL,NG,PP,TR,WM objects=CH,DS,FS,RG,RP,SP")
    assert done.phase == "team" and done.draft is None and len(done.rooms) == 8
    assert not any(p.revealed for p in done.rooms)
    assert sorted({done.catalogue.rooms[p.tile].number for p in done.rooms}) == [1, 3, 41, 44]
    blue = sorted(t.code for t in done.tokens.values() if t.colour == "B" and t.where == "screen")
    assert blue == sorted(["ES", "GH", "MK", "PA", "RD", "TH", "WA", "WZ", "FH", "KY", "KY", "RP", "SW", "TS"])
    assert view(done, "Y")["players"]["B"]["screen"] == 14  # the opponent's screen: a count only
    assert sum(t.where == "unused" for t in done.tokens.values()) == 2 * (21 + 15 + 2) - 2 * 14


def test_PD_TEAM_FREE_01_DT_120_typed_input_tells_nothing_of_the_opponents_secret_build():
    """Play-test (a leak): after both built, Blue's `xyzzy` was refused with the verbs of both builds' tokens, so
    `breathe`, `illusion`, `steal` or `shoot` told Blue what Yellow had secretly taken, and `push` (unknown) against
    `breathe` (known, refused by a rule) told it too. Two games that differ only in Yellow's build now answer Blue's
    typing with the same words: the verbs are the whole pool's (every set in use) until the game ends."""
    from dungeon_twister.engine import resolve_input
    from dungeon_twister.engine.core.errors import EngineError

    other = "build pairs=41,42 characters=AS,BS,CL,GO,IL,NG,PP,TR objects=BW,CH,DS,FS,RG,RP"
    games = [built(new_game(ALL_FREE, seed=5), BLUE, yellow) for yellow in (YELLOW, other)]
    assert all(g.phase == "team" for g in games)
    for typed in ("xyzzy", "breathe bTH n", "push bTH yGO", "shoot bTH yGO", "fireball bWZ n", "wallwalk bTH c4"):
        answers = []
        for game in games:
            with pytest.raises(EngineError) as refused:
                apply(game, resolve_input(game, "B", typed))  # refused as typed, or by the rules
            answers.append((type(refused.value).__name__, getattr(refused.value, "rule", None), str(refused.value)))
        assert answers[0] == answers[1], (typed, answers)
    with pytest.raises(EngineError) as refused:
        resolve_input(games[0], "B", "xyzzy")
    assert all(verb in str(refused.value) for verb in ("breathe", "push", "shoot", "wallwalk", "fireball", "drink"))


@pytest.mark.parametrize("text, rule, message", [
    ("build pairs=3,41 characters=ES,GH,MK,PA,RD,TH,WA objects=FH,KY,KY,RP,SW,TS", "PD-TEAM-FREE-01",
     "choose 8 characters, not 7"),
    ("build pairs=3,41 characters=ES,GH,MK,PA,RD,TH,WA,WZ,TR objects=FH,KY,KY,RP,SW,TS", "PD-TEAM-FREE-01",
     "choose 8 characters, not 9"),
    ("build pairs=3,41 characters=ES,GH,MK,PA,RD,TH,WA,WA objects=FH,KY,KY,RP,SW,TS", "PD-TEAM-FREE-01",
     "WA may be chosen only once"),
    ("build pairs=3,41 characters=ES,GH,MK,PA,RD,TH,WA,SW objects=FH,KY,KY,RP,SW,TS", "PD-TEAM-FREE-01",
     "SW is not one of the characters"),
    ("build pairs=3 characters=ES,GH,MK,PA,RD,TH,WA,WZ objects=FH,KY,KY,RP,SW,TS", "PD-TEAM-FREE-02",
     "choose 2 pairs, not 1"),
    ("build pairs=3,41,42 characters=ES,GH,MK,PA,RD,TH,WA,WZ objects=FH,KY,KY,RP,SW,TS", "PD-TEAM-FREE-02",
     "choose 2 pairs, not 3"),
    ("build pairs=41,41 characters=ES,GH,MK,PA,RD,TH,WA,WZ objects=FH,KY,KY,RP,SW,TS", "PD-TEAM-FREE-02",
     "41 may be chosen only once"),
    ("build pairs=3,45 characters=ES,GH,MK,PA,RD,TH,WA,WZ objects=FH,KY,KY,RP,SW,TS", "PD-TEAM-FREE-02",
     "45 is not one of the pairs"),
    ("build pairs=3,41 characters=ES,GH,MK,PA,RD,TH,WA,WZ objects=KY,KY,KY,RP,SW,TS", "PD-TEAM-COMMON-01",
     "KY may be chosen at most 2 times"),
    ("build pairs=3,41 characters=ES,GH,MK,PA,RD,TH,WA,WZ objects=FH,KY,RP,SW,TS,TS", "PD-TEAM-COMMON-01",
     "TS may be chosen only once"),
    # a value chosen too often comes before an unknown one in the part's order: the copies are what is refused
    ("build pairs=3,41 characters=ES,GH,MK,PA,RD,TH,WA,WZ objects=FH,KY,KY,KY,SW,WA", "PD-TEAM-COMMON-01",
     "KY may be chosen at most 2 times"),
    ("build pairs=3,41 characters=ES,GH,MK,PA,RD,TH,WA,WZ objects=FH,KY,KY,RP,SW", "PD-TEAM-FREE-01",
     "choose 6 objects, not 5"),
])
def test_PD_TEAM_FREE_01_02_COMMON_01_edge_a_build_that_breaks_a_count_a_pool_or_a_copy_is_refused(text, rule, message):
    error = assert_refused(new_game(ALL_FREE, seed=5), text, rule, seat="B")
    assert message in error.message


def test_PD_TEAM_FREE_01_edge_only_the_sets_in_use_are_the_pool_and_the_notation_needs_every_part():
    """Prison with Paladins & Dragons: the Warrior (base set) is not in the pool, pair 1 neither; a build text
    without its objects does not parse."""
    from dungeon_twister.engine import NotationError

    state = new_game(Options(set_name="prison_paladins", teams="free"), seed=2)
    error = assert_refused(state, "build pairs=37,41 characters=AS,BS,CL,CO,ES,GH,GO,WA objects=BW,CH,DS,FH,FS,KY",
                           "PD-TEAM-FREE-01", seat="B")
    assert "WA is not one of the characters" in error.message
    assert_refused(state, "build pairs=1,41 characters=AS,BS,CL,CO,ES,GH,GO,IL objects=BW,CH,DS,FH,FS,KY",
                   "PD-TEAM-FREE-02", seat="B")
    with pytest.raises(NotationError, match="objects="):
        parse_action("build pairs=37,41 characters=AS,BS,CL,CO,ES,GH,GO,IL", "B")


def test_PD_TEAM_FREE_03_RUL_072_a_pair_both_chose_is_laid_once_and_the_seat_drawn_second_gets_an_unchosen_one():
    """Seed 5 draws Blue first and the pairs' order 3, 42, 40, ... (`Draft.deal` after the 8 slots and the 8
    orientations). Both choose 41: Blue keeps it; Yellow's 41 becomes the first pair of that order neither chose:
    not 3 (Blue's), not 42 (Yellow's), so 40. Both are told that 41 was shared (as at a table, where both reach
    for the same tiles); nobody is told what replaced it."""
    from dungeon_twister.engine import event_view

    state = built(new_game(ALL_FREE, seed=5), BLUE)
    assert state.draft.first == "B" and state.draft.deal[16:19] == (3, 42, 40)
    done, events = apply(state, parse_action(YELLOW, "Y"))
    assert sorted({done.catalogue.rooms[p.tile].number for p in done.rooms}) == [3, 40, 41, 42]
    shared = [event_view(e, viewer) for e in events for viewer in ("B", "Y", None) if e.kind == "rooms_shared"]
    assert shared == [{"kind": "rooms_shared", "pairs": [41], "kept_by": "B"}] * 3


def test_PD_TEAM_COMMON_01_a_free_build_takes_both_copies_of_a_common_object():
    done = built(new_game(ALL_FREE, seed=5), BLUE, YELLOW)
    assert {done.tokens[tid].where for tid in ("bKY", "bKY2", "bRP", "yRP")} == {"screen"}
    assert done.tokens["bRP2"].where == done.tokens["yKY"].where == "unused"


def test_PD_TEAM_HCAP_01_a_free_build_then_the_hidden_removal():
    """Blue handicapped to 6 characters: his team choice leaves out 2 of his own 8, Yellow's none."""
    from dungeon_twister.engine import Handicap

    state = built(new_game(Options(set_name="all_sets", teams="free", handicap=Handicap("B", 6)), seed=5),
                  BLUE, YELLOW)
    blue = legal_texts(state, "B")
    assert blue and all(len(text.split("out=")[1].split(",")) == 2 for text in blue)
    assert {code for text in blue for code in text.split("out=")[1].split(",")} == {
        "ES", "GH", "MK", "PA", "RD", "TH", "WA", "WZ"}
    assert not any("out=" in text for text in legal_texts(state, "Y"))


def test_PD_TEAM_FREE_the_build_is_deterministic_round_trips_and_keeps_the_deal_and_the_builds_hidden():
    a = built(new_game(ALL_FREE, seed=9), BLUE)
    text = format_position(a)
    assert " ; draft free first=" in text and "builds=B:3.41/ES.GH.MK.PA.RD.TH.WA.WZ/FH.KY.KY.RP.SW.TS" in text
    assert parse_position(text) == a
    for viewer in ("Y", None):
        seen = str(view(a, viewer))
        assert "deal" not in seen and "WZ" not in seen.split("'parts'")[0] and "mine" not in seen
    b = built(new_game(ALL_FREE, seed=9), BLUE)
    assert built(a, YELLOW).rooms == built(b, YELLOW).rooms


def test_PD_TEAM_FREE_edge_a_position_with_an_impossible_build_is_refused():
    from dungeon_twister.engine.core.errors import PositionError

    text = format_position(built(new_game(ALL_FREE, seed=9), BLUE))
    with pytest.raises(PositionError, match="PD-TEAM-FREE-01"):
        parse_position(text.replace("builds=B:3.41/", "builds=B:3.41.42/"))
    with pytest.raises(PositionError, match="PD-TEAM-FREE-01"):
        parse_position(text.replace("FH.KY.KY.RP", "KY.KY.KY.RP"))
