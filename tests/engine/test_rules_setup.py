"""Rule tests: components (BG-COMP), setup (BG-SETUP), handicap and beginner options (BG-OPT-06..09, BG-EX-05).

Every test names the rule IDs it checks (docs: /work/shared/rules/board-game.md).
"""

from __future__ import annotations

import re

import pytest

from dungeon_twister.engine import (SEATS, EndTurn, Handicap, IllegalAction, Options, apply, event_view,
                                    format_position, legal_actions, new_game, parse_action, secret_purpose, view)
from dungeon_twister.engine.boardgame.board import board_of
from dungeon_twister.engine.boardgame.catalogue import load

from .builders import act, assert_refused, position

BLUE_TEAM = "team b0=WA d0=TH g0=CL i0=TR"
YELLOW_TEAM = "team b21=WA d21=TH g21=CL i21=TR"
BASE = load("base_set")




def after_teams(seed=1, options=Options(), blue=BLUE_TEAM, yellow=YELLOW_TEAM):
    state = new_game(options, seed)
    state = act(state, blue, seat="B")
    return act(state, yellow, seat="Y")


def hide_all(state):
    while state.phase == "hide":
        state, _ = apply(state, legal_actions(state)[0])
    return state


def hidden_counts(state):
    counts = {}
    for t in state.tokens.values():
        if t.where == "room":
            counts[t.room] = counts.get(t.room, 0) + 1
    return counts


# --- §1 components ----------------------------------------------------------------------------------

def test_BG_COMP_01_exactly_two_players_blue_and_yellow():
    """BG-COMP-01: the seats are Blue and Yellow; any other seat is refused."""
    assert SEATS == ("B", "Y")
    assert new_game(Options(), 3).to_act == ("B", "Y")
    state = position("bWA@c3")
    before = format_position(state)
    with pytest.raises(IllegalAction) as info:
        apply(state, EndTurn("R"))
    assert info.value.rule == "BG-COMP-01"
    assert format_position(state) == before


def test_BG_COMP_02_eight_rooms_in_four_pairs_face_down():
    """BG-COMP-02: 8 room tiles forming 4 pairs sharing a number; the rooms start face down."""
    assert len(BASE.rooms) == 8
    numbers = sorted(room.number for room in BASE.rooms.values())
    assert numbers == [1, 1, 2, 2, 3, 3, 4, 4]
    for tile in BASE.rooms:
        assert BASE.twin(tile) != tile and BASE.rooms[BASE.twin(tile)].number == BASE.rooms[tile].number
    state = new_game(Options(), 5)
    assert sorted(p.tile for p in state.rooms) == sorted(BASE.rooms)
    assert not any(p.revealed for p in state.rooms)
    assert all(r["tile"] is None and not r["revealed"] for r in view(state, "B")["rooms"])


def test_BG_COMP_03_two_start_zones_one_per_player():
    """BG-COMP-03: one start zone per player, Blue's at rank 0 and Yellow's at rank 21."""
    board = board_of(new_game(Options(), 1))
    assert {board.start_zone_owner((x, -1)) for x in range(10)} == {"B"}
    assert {board.start_zone_owner((x, 20)) for x in range(10)} == {"Y"}
    assert board.start_zone_owner((3, 0)) is None and board.start_zone_owner((3, 19)) is None


def test_BG_COMP_04_fourteen_tokens_per_player():
    """BG-COMP-04: each player has 8 characters and 6 objects of his colour, all behind his screen at first."""
    assert sorted(BASE.characters) == sorted(["CL", "GB", "WA", "WZ", "MK", "WW", "TR", "TH"])
    assert sorted(BASE.objects) == sorted(["AR", "FW", "RP", "SW", "SP", "TS"])
    state = new_game(Options(), 1)
    for seat in SEATS:
        mine = [t for t in state.tokens.values() if t.colour == seat]
        assert len(mine) == 14
        assert sum(t.is_character for t in mine) == 8
        assert all(t.where == "screen" for t in mine)
        assert len(view(state, seat)["players"][seat]["screen"]) == 14


def test_BG_COMP_05_06_07_sixteen_cards_with_their_values():
    """BG-COMP-05 (16 cards: 4 action, 9 combat, 3 jump), BG-COMP-06 (actions 2-5), BG-COMP-07 (combat deck)."""
    state = new_game(Options(), 1)
    for seat in SEATS:
        player = state.players[seat]
        assert player.actions == (2, 3, 4, 5)
        assert player.combat == (0, 1, 2, 2, 3, 3, 4, 5, 6)
        assert player.jumps == 3
        assert len(player.actions) + len(player.combat) + player.jumps == 16


def test_BG_COMP_08_hand_is_chosen_from_and_hidden_from_the_opponent():
    """BG-COMP-08: the player chooses any card of his hand (no draw); the opponent sees only counts."""
    state = position(phase="card", ap=0, cards="B:2345/-/012233456/3 Y:35/24/01223/2")
    assert [a.value for a in legal_actions(state)] == [2, 3, 4, 5]
    own, other, spectator = view(state, "B"), view(state, "Y"), view(state, None)
    assert own["players"]["B"]["action_cards"] == [2, 3, 4, 5]
    assert own["players"]["B"]["combat_cards"] == [0, 1, 2, 2, 3, 3, 4, 5, 6]
    assert own["players"]["Y"]["action_cards"] == 2 and own["players"]["Y"]["combat_cards"] == 5
    assert other["players"]["B"]["action_cards"] == 4 and other["players"]["B"]["combat_cards"] == 9
    assert spectator["players"]["Y"]["action_cards"] == 2
    state = act(state, "card 4")
    assert view(state, "Y")["players"]["B"]["action_cards"] == 3


def test_BG_COMP_09_portcullis_markers_are_unlimited():
    """BG-COMP-09: any number of portcullises may be open or broken at once (markers never run out)."""
    every = "1G=ob 1D=o 2G=bb 2D=o 3G=bo 3D=obo 4G=b 4D=o"
    state = position(set_name="base_set", ports=every,
                     rooms="A1=1G/0 B1=1D/0 A2=2G/0 B2=2D/0 A3=3G/0 B3=3D/0 A4=4G/0 B4=4D/0")
    states = [p[2] for p in view(state, None)["portcullises"]]
    assert len(states) == 13 and "closed" not in states
    # and one more can still be broken when several markers are already on the board
    state = position("bWA@h12", ports="W1=bo W2=oc")
    state = act(state, "break bWA n")
    assert sorted(p[2] for p in view(state, None)["portcullises"]) == ["broken", "broken", "open", "open"]


# --- §5 setup ------------------------------------------------------------------------------------

def test_BG_SETUP_01_rooms_shuffled_face_down_with_hidden_orientations():
    """BG-SETUP-01 (RUL-027): 8 rooms face down, 2 x 4, each with a hidden orientation drawn from the seed."""
    games = [new_game(Options(), seed) for seed in range(12)]
    for state in games:
        assert state.rows == 4 and len(state.rooms) == 8
        assert [p.slot for p in state.rooms] == [(c, r) for r in range(4) for c in range(2)]
        assert not any(p.revealed for p in state.rooms)
        assert all(r["orientation"] is None for r in view(state, "Y")["rooms"])
    assert len({tuple(p.tile for p in s.rooms) for s in games}) > 1  # shuffled
    assert {p.orientation for s in games for p in s.rooms} == {0, 1, 2, 3}
    assert new_game(Options(), 7) == new_game(Options(), 7)  # every draw comes from the seed


def test_BG_SETUP_02_each_start_zone_at_its_owners_end():
    """BG-SETUP-02: Blue's team starts on rank 0 (next to room row 1), Yellow's on rank 21."""
    state = new_game(Options(), 1)
    assert_refused(state, "team b21=WA d21=TH g21=CL i21=TR", "BG-SETUP-04", seat="B")
    assert_refused(state, "team b0=WA d0=TH g0=CL i0=TR", "BG-SETUP-04", seat="Y")
    state = after_teams()
    assert {t.square[1] for t in state.tokens.values() if t.where == "board" and t.colour == "B"} == {-1}
    assert {t.square[1] for t in state.tokens.values() if t.where == "board" and t.colour == "Y"} == {20}


def test_BG_SETUP_03_screens_are_private():
    """BG-SETUP-03: each player sees his own screen's content; the opponent and spectators see a count."""
    state = new_game(Options(), 1)
    assert view(state, "B")["players"]["B"]["screen"][:2] == ["bAR", "bCL"]
    assert view(state, "B")["players"]["Y"]["screen"] == 14
    assert view(state, None)["players"]["B"]["screen"] == 14


def test_BG_SETUP_04_secret_team_of_four_on_the_marked_squares():
    """BG-SETUP-04: each player secretly and simultaneously puts 4 of his characters on his 4 marked squares."""
    state = new_game(Options(), 1)
    assert state.to_act == ("B", "Y")
    assert secret_purpose(state, "B") == "team" and secret_purpose(state, "Y") == "team"
    assert_refused(state, "team b0=WA d0=TH g0=CL", "BG-SETUP-04", seat="B")  # 3 characters
    assert_refused(state, "team b0=WA d0=WA g0=CL i0=TR", "BG-SETUP-04", seat="B")  # the same one twice
    assert_refused(state, "team a0=WA d0=TH g0=CL i0=TR", "BG-SETUP-04", seat="B")  # not a marked square
    after, events = apply(state, parse_action(BLUE_TEAM, "B"))
    assert after.to_act == ("Y",)
    assert_refused(after, "team b0=WZ d0=TH g0=CL i0=TR", "BG-SETUP-04", seat="B")  # already chosen
    seen_by_yellow = [event_view(e, "Y") for e in events]
    assert seen_by_yellow == [{"kind": "team_chosen", "seat": "B"}]
    assert "my_team" not in view(after, "Y") and view(after, "Y")["teams_chosen"] == {"B": True, "Y": False}
    assert view(after, "B")["my_team"] == {"B": {"b0": "WA", "d0": "TH", "g0": "CL", "i0": "TR"}}
    done = act(after, YELLOW_TEAM, seat="Y")
    blue = {t.id: t for t in done.tokens.values() if t.colour == "B" and t.where == "board"}
    assert sorted(blue) == ["bCL", "bTH", "bTR", "bWA"] and all(t.face_down for t in blue.values())
    assert [t for t in view(done, "Y")["tokens"] if t["colour"] == "B"][0]["code"] is None


def test_BG_SETUP_05_random_first_placer_then_strict_alternation():
    """BG-SETUP-05: a draw decides who hides first; then the players alternate, one own token at a time."""
    placers = {after_teams(seed).placer for seed in range(12)}
    assert placers == {"B", "Y"}
    state = after_teams(1)
    first = state.placer
    second = "Y" if first == "B" else "B"
    assert_refused(state, f"hide {second.lower()}RP A2", "BG-SETUP-05", seat=second)  # not his turn
    assert_refused(state, f"hide {second.lower()}RP A2", "BG-SETUP-05", seat=first)  # not his token
    assert_refused(state, f"hide {first.lower()}WA A2", "BG-SETUP-05", seat=first)  # not behind his screen
    order = []
    for _ in range(6):
        order.append(state.placer)
        state, _ = apply(state, legal_actions(state)[0])
    assert order == [first, second] * 3
    kinds = {a.token[1:] for a in legal_actions(state)}
    assert "WZ" in kinds and "SW" in kinds  # characters and objects alike


def test_BG_SETUP_05_a_token_hidden_outside_the_hidden_placement_is_refused_as_such():
    """BG-SETUP-05: the players hide their tokens once the starting teams are chosen, before the first turn.
    Play-test pl31 typed one more `hide` after his last token (the game had begun) and read "it is not your turn to
    place a hidden token", as if his turn would come; outside that placement the refusal says when it happens."""
    when = "tokens are hidden only in the setup, once the starting teams are chosen"
    before_teams = new_game(Options(), 1)
    assert before_teams.phase == "team"
    assert assert_refused(before_teams, "hide bRP A2", "BG-SETUP-05", seat="B").message == when
    state = hide_all(after_teams(1))
    assert state.phase != "hide"
    seat = state.to_act[0]  # (the other is refused first as not to act, BG-TURN-01)
    assert assert_refused(state, f"hide {seat.lower()}RP A2", "BG-SETUP-05", seat=seat).message == when

def test_BG_SETUP_06_room_capacity_two_at_the_ends_three_in_the_middle():
    """BG-SETUP-06 (RUL-028): rooms touching a start zone hold 2 hidden tokens, middle rooms 3."""
    state = after_teams(1)
    p, q = state.placer, "Y" if state.placer == "B" else "B"
    state = act(state, f"hide {p.lower()}RP A1", f"hide {q.lower()}RP A1")
    # the refusal says how many the room takes (play-test pl31 read "room A1 is full" after two tokens)
    assert assert_refused(state, f"hide {p.lower()}SW A1", "BG-SETUP-06").message == \
        "room A1 is full: no more hidden tokens there (2 at most)"
    assert all(a.slot != (0, 0) for a in legal_actions(state))
    state = act(state, f"hide {p.lower()}SW A2", f"hide {q.lower()}SW A2", f"hide {p.lower()}AR A2")
    assert assert_refused(state, f"hide {q.lower()}AR A2", "BG-SETUP-06").message == \
        "room A2 is full: no more hidden tokens there (3 at most)"
    state = hide_all(state)
    assert hidden_counts(state) == {(0, 0): 2, (1, 0): 2, (0, 1): 3, (1, 1): 3, (0, 2): 3, (1, 2): 3,
                                    (0, 3): 2, (1, 3): 2}


def test_BG_SETUP_07_face_down_tokens_show_only_their_colour():
    """BG-SETUP-07 (RUL-029): both colours may share a room; a hidden token shows its colour and room only."""
    state = after_teams(1)
    p, q = state.placer, "Y" if state.placer == "B" else "B"
    state = act(state, f"hide {p.lower()}TS A2", f"hide {q.lower()}WZ A2")
    for viewer in ("B", "Y", None):
        hidden = view(state, viewer)["hidden"]
        assert sorted(h["colour"] for h in hidden) == ["B", "Y"]
        assert all(set(h) == {"colour", "slot"} and h["slot"] == "A2" for h in hidden)


def test_BG_SETUP_08_nobody_looks_at_a_placed_face_down_token():
    """BG-SETUP-08: once hidden, a token's identity is shown to nobody, its owner included; the owner's own event of
    the placement names it (DT-250)."""
    state = after_teams(1)
    p = state.placer
    state, events = apply(state, parse_action(f"hide {p.lower()}TS A3", p))
    assert [h for h in view(state, p)["hidden"]] == [{"colour": p, "slot": "A3"}]
    assert f"{p.lower()}TS" not in view(state, p)["players"][p]["screen"]  # no longer behind the screen either
    other = "Y" if p == "B" else "B"
    assert event_view(events[0], other) == event_view(events[0], None) == {"kind": "hidden", "seat": p, "slot": "A3"}
    # DT-250: its owner's event names it (he chose it: his log remembers what he hid), his view does not
    assert event_view(events[0], p) == {"kind": "hidden", "seat": p, "slot": "A3", "token": f"{p.lower()}TS"}


def test_BG_SETUP_09_placement_ends_when_all_tokens_are_placed():
    """BG-SETUP-09: when both screens are empty every room is exactly full and play begins."""
    state = after_teams(2)
    steps = 0
    while state.phase == "hide":
        state, _ = apply(state, legal_actions(state)[0])
        steps += 1
    assert steps == 20
    assert sum(hidden_counts(state).values()) == 20
    assert not any(t.where == "screen" for t in state.tokens.values())
    assert state.phase == "card" and state.turn == 1


def test_BG_SETUP_10_start_teams_revealed_together():
    """BG-SETUP-10: the start-zone characters are revealed simultaneously once placement ends; screens are empty."""
    state = after_teams(1)
    while True:
        nxt, events = apply(state, legal_actions(state)[0])
        if nxt.phase != "hide":
            break
        state = nxt
        yellow_seen_by_blue = [t for t in view(state, "B")["tokens"] if t["colour"] == "Y"]
        assert all(t["code"] is None and t["face_down"] for t in yellow_seen_by_blue)
    assert "teams_revealed" in [e.kind for e in events]
    revealed = next(e for e in events if e.kind == "teams_revealed").data["teams"]
    assert revealed == {"B": {"b0": "bWA", "d0": "bTH", "g0": "bCL", "i0": "bTR"},
                        "Y": {"b21": "yWA", "d21": "yTH", "g21": "yCL", "i21": "yTR"}}
    for viewer in ("B", "Y", None):
        tokens = view(nxt, viewer)["tokens"]
        assert len(tokens) == 8 and all(t["code"] and not t["face_down"] for t in tokens)
        assert view(nxt, viewer)["players"]["B"]["screen"] in ([], 0)


def test_BG_SETUP_11_random_first_player_then_turns_alternate():
    """BG-SETUP-11: a new draw decides who plays turn 1; then turns alternate."""
    firsts = set()
    for seed in range(12):
        state = hide_all(after_teams(seed))
        assert state.turn == 1 and state.active == state.first_player
        firsts.add(state.first_player)
    assert firsts == {"B", "Y"}
    first = state.active
    state = act(state, "card 2", "end")
    assert state.turn == 2 and state.active != first
    state = act(state, "card 2", "end")
    assert state.turn == 3 and state.active == first


# --- §20 options: target, beginner game, handicap -------------------------------------------------

def test_BG_OPT_06_higher_target_of_6_7_or_8():
    """BG-OPT-06: the target may be 5 (default), 6, 7 or 8 VP; nothing else."""
    for target in (5, 6, 7, 8):
        assert new_game(Options(target_vp=target), 1).options.target_vp == target
        assert view(new_game(Options(target_vp=target), 1), None)["target_vp"] == target
    for target in (4, 9):
        with pytest.raises(ValueError):
            new_game(Options(target_vp=target), 1)


def test_BG_OPT_07_beginner_game():
    """BG-OPT-07 (RUL-040): 3 random pairs (2 x 3 rooms); no Wall-Walker, Mechanork, Speed Potion or Armor;
    6 characters and 4 objects each; 4 on the start zone, the rest seeded 2 per room; target 5."""
    pair_sets = set()
    for seed in range(8):
        state = new_game(Options(beginner=True), seed)
        assert state.rows == 3 and len(state.rooms) == 6
        numbers = sorted(BASE.rooms[p.tile].number for p in state.rooms)
        assert len(set(numbers)) == 3 and all(numbers.count(n) == 2 for n in numbers)
        pair_sets.add(frozenset(numbers))
    assert len(pair_sets) > 1
    state = new_game(Options(beginner=True), 3)
    assert state.options.target_vp == 5
    for seat in SEATS:
        playing = [t for t in state.tokens.values() if t.colour == seat and t.where != "unused"]
        assert sum(t.is_character for t in playing) == 6 and sum(not t.is_character for t in playing) == 4
        assert {t.code for t in state.tokens.values() if t.colour == seat and t.where == "unused"} == \
            {"WW", "MK", "SP", "AR"}
    assert_refused(state, "team b0=WA d0=TH g0=CL i0=WW", "BG-SETUP-04", seat="B")
    state = hide_all(after_teams(3, Options(beginner=True), yellow="team b16=WA d16=TH g16=CL i16=TR"))
    assert sorted(hidden_counts(state).values()) == [2] * 6
    assert state.phase == "card"


@pytest.mark.parametrize("characters, removed", [
    (6, ()), (5, ()), (6, (5, 6)), (5, (5, 6)), (6, ()), (5, (6,)), (4, (6,)), (6, ()), (6, (6,)),
], ids=["vexp-exp", "vexp-good", "vexp-beginner", "vexp-novice", "exp-good", "exp-beginner", "exp-novice",
        "good-beginner", "good-novice"])
def test_BG_OPT_09_handicap_table_rows(characters, removed):
    """BG-OPT-09: every row of the handicap table is a valid game option with the stated effect."""
    options = Options(handicap=Handicap("Y", characters, removed))
    state = new_game(options, 1)
    deck = [0, 1, 2, 2, 3, 3, 4, 5, 6]
    for card in removed:
        deck.remove(card)
    assert list(state.players["Y"].combat) == deck
    assert state.players["B"].combat == (0, 1, 2, 2, 3, 3, 4, 5, 6)
    out = ",".join(["GB", "MK", "WW", "WZ"][:8 - characters])
    team = "team b21=WA d21=TH g21=CL i21=TR" + (f" out={out}" if out else "")
    state = act(state, team, seat="Y")
    assert state.teams["Y"][1] == (tuple(sorted(out.split(","))) if out else ())


def test_BG_OPT_08_handicapped_player_with_fewer_characters():
    """BG-OPT-08: the stronger player leaves out characters (still 4 on his start zone), may drop his highest
    combat cards, the rooms end under capacity, and the target stays 5. The +0 can never be removed."""
    with pytest.raises(ValueError):
        new_game(Options(handicap=Handicap("B", 6, (0,))), 1)
    with pytest.raises(ValueError):
        new_game(Options(handicap=Handicap("B", 3, ())), 1)
    for target, removed, why in ((6, (6,), "played to 5 VP"), (5, (5,), "highest combat cards (+6)"),
                                 (5, (4, 6), "highest combat cards (+5 +6)")):
        with pytest.raises(ValueError, match=f"^BG-OPT-08: .*{re.escape(why)}"):  # (both were accepted)
            new_game(Options(target_vp=target, handicap=Handicap("B", 6, removed)), 1)
    options = Options(handicap=Handicap("B", 6, (6,)))
    state = new_game(options, 1)
    assert state.options.target_vp == 5
    assert_refused(state, BLUE_TEAM, "BG-OPT-08", seat="B")  # must leave out 2 characters
    assert_refused(state, BLUE_TEAM + " out=GB", "BG-OPT-08", seat="B")
    assert_refused(state, BLUE_TEAM + " out=GB,WA", "BG-OPT-08", seat="B")  # cannot leave out a team member
    state = act(state, BLUE_TEAM + " out=GB,WW", seat="B")
    state = act(state, YELLOW_TEAM, seat="Y")
    assert {t.id for t in state.tokens.values() if t.where == "unused"} == {"bGB", "bWW"}
    state = hide_all(state)
    assert sum(hidden_counts(state).values()) == 18  # 2 + 6 blue, 4 + 6 yellow: under the capacity of 20
    assert state.phase == "card"
    assert sum(1 for t in state.tokens.values() if t.colour == "B" and t.where == "board") == 4


def test_BG_EX_05_very_experienced_adult_against_a_first_time_child():
    """BG-EX-05 (BG-OPT-08/09): 5 characters, all cards but +5 and +6, target still 5 VP."""
    options = Options(handicap=Handicap("B", 5, (5, 6)))
    state = new_game(options, 4)
    assert state.options.target_vp == 5
    assert state.players["B"].combat == (0, 1, 2, 2, 3, 3, 4)
    assert state.players["Y"].combat == (0, 1, 2, 2, 3, 3, 4, 5, 6)
    assert view(state, "B")["players"]["B"]["combat_cards"] == [0, 1, 2, 2, 3, 3, 4]
    assert_refused(state, BLUE_TEAM + " out=GB,WW", "BG-OPT-08", seat="B")
    state = act(state, BLUE_TEAM + " out=GB,WW,MK", seat="B")
    state = act(state, YELLOW_TEAM, seat="Y")
    blue_playing = [t for t in state.tokens.values() if t.colour == "B" and t.is_character and t.where != "unused"]
    assert len(blue_playing) == 5
    state = hide_all(state)
    assert sum(hidden_counts(state).values()) == 17


def test_BG_GEO_04_four_marked_start_squares():
    """BG-GEO-04 (RUL-023): the marked squares are 2, 4, 7 and 9 of each start zone (files b, d, g, i)."""
    state = new_game(Options(), 1)
    options = {frozenset(sq for sq, _ in a.team) for a in legal_actions(state, "B")[:50]}
    assert options == {frozenset({(1, -1), (3, -1), (6, -1), (8, -1)})}
    options = {frozenset(sq for sq, _ in a.team) for a in legal_actions(state, "Y")[:50]}
    assert options == {frozenset({(1, 20), (3, 20), (6, 20), (8, 20)})}
    assert_refused(state, "team b0=WA c0=TH g0=CL i0=TR", "BG-SETUP-04", seat="B")
