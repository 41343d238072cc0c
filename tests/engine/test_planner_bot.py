"""The planner bot (engine/tools/bots.py PlannerBot) plays a turn as a player would: it neither walks a figure back
nor takes an object back, carries the Treasure out, finishes a wounded enemy, keeps out of a fight it would lose,
and stays deterministic from its seed with its secret choices mixed. Each position is played a whole turn through
the engine, by the bot's own choices from its seat's view and legal texts, against GreedyBot on the same position
(which does what a play-test saw)."""

from __future__ import annotations

from dungeon_twister.engine import apply, legal_texts, parse_action, parse_position, view
from dungeon_twister.engine.core.rng import Rng
from dungeon_twister.engine.tools.bots import GreedyBot, PlannerBot, _square

from .builders import act, position

SWAPS = ("DT1 base_set vp=5 ; rooms A1=3G/3 B1=2D/3 A2=4G/0 B2=3D/1 A3=1G/3 B3=2G/1 A4=1D/2 B4=4D/3 ; ports 3D=occ "
         "3G=co ; tokens bAR@j9 bCL@h12 bFW@f10 bGB@c8 bMK@b0 bRP@h19 bSP>discarded bSW@g3 bTH@f10 bTR@i0 bTS@g7 "
         "bWA@d0 bWW@d9 bWZ@e4 yAR@c15 yCL@j11 yFW@e9 yGB@h18 yMK@e16 yRP@e4 ySP@i18 ySW@h12 yTH@h19 yTR@b21 "
         "yTS@b9 yWA@g19 yWW@c15 yWZ>exited ; cards B:234/5/012233456/3 Y:2345/-/012233456/3 ; turn 17 B main ap=5 "
         "high=5 four=1 first=B placer=- combats=0")
"""Blue's turn 17 of the greedy bots' base-set game of seed 2: GreedyBot (Rng 0) swaps its Thief's Fireball Wand
for Yellow's, swaps them back and returns the Thief to f10, where it began."""

STEPS_BACK = ("DT1 base_set vp=5 ; rooms A1=4G/2 B1=1D/2 A2=1G/2 B2=3D/0 A3=2D/3 B3=4D/0 A4=2G/3 B4=3G/0 ; ports "
              "1G=oo 2G=bc ; tokens bAR@e2 bCL@j1 bFW@f4 bGB>exited bMK>exited bRP@h9 bSP@g10 bSW@g2 bTH@c9 bTR@b0 "
              "bTS@b17 bWA@j5 bWW>exited bWZ@h9 yAR@j20 yCL@b11 yFW@i10 yGB@d15 yMK@g5 yRP@i13 ySP@j19 ySW@h15 "
              "yTH@b17 yTR@b1 yTS@j1 yWA@a17 yWW@a13 yWZ@a21 ; cards B:23/54/012233456/3 Y:234/5/012233456/3 ; turn "
              "27 B main ap=4 high=5 four=1 first=B placer=- combats=0")
"""Blue's turn 27 of the greedy bots' base-set game of seed 3: GreedyBot (Rng 0) moves its Thief d12, d11, d12."""

HAND_OVERS = ("DT1 base_set vp=5 ; rooms A1=1D/3 B1=3D/3 A2=4D/0 B2=2D/2 A3=1G/1 B3=4G/2 A4=2G/0 B4=3G/3 ; ports 3G=co "
              "; tokens bAR@e9 bCL>exited bFW@j2 bGB@f5 bMK>eliminated bRP@h6 bSP>discarded bSW@b3 bTH@g6 bTR@f6!35 "
              "bTS>scored.B bWA@f6 bWW>exited bWZ>exited yAR@i17 yCL@a18 yFW@i3 yGB@i18 yMK@h6 yRP@g10 ySP@b6 "
              "ySW@c14 yTH@i17 yTR@f21 yTS@c11 yWA@d20 yWW@f15~18 yWZ@c11 ; cards B:234/5/012/2 Y:2345/-/01/2 ; "
              "turn 41 B main ap=5 high=5 four=1 first=B placer=- combats=7")
"""Blue's turn 41 of the planner's base-set game of seed 15 against GreedyBot (bench/bot_strength.py, session 27):
the wounded Troll lies under the Warrior at f6, the Goblin at f5 and the Thief at g6 beside; every Blue figure
is walled off, the gear at i7 behind the Mechanork (h6), the one at c3 free."""


def play_turn(state, bot, seed: int):
    """The bot's actions until its turn ends (secret combat cards are its own too), the state after, and the
    back-and-forth seen: moves that end on a square the figure left earlier in the turn, and objects taken back by
    the figure that carried them earlier in the turn."""
    rng, seat, actions = Rng(seed), state.active, []
    visited: dict[str, set[str]] = {}
    carried_before: dict[str, set[str]] = {}
    returns = retaken = 0
    while state.outcome is None and state.active == seat and state.phase in ("main", "combat"):
        if state.to_act != (seat,):
            break
        seen = view(state, seat)
        squares = {t["id"]: t["square"] for t in seen["tokens"] if t["id"]}
        for t in seen["tokens"]:
            if t["id"] and t["character"] and t["colour"] == seat and t["square"]:
                visited.setdefault(t["id"], set()).add(t["square"])
                for o in seen["tokens"]:
                    if o["square"] == t["square"] and o["id"] and not o["character"]:
                        carried_before.setdefault(o["id"], set()).add(t["id"])
        text = bot.choose(seen, legal_texts(state, seat), rng)
        actions.append(text)
        words = text.split()
        if words[0] == "move":
            dest = words[2].split("-")[-1]
            if dest != squares[words[1]] and dest in visited.get(words[1], ()):
                returns += 1
            for w in words[2:]:
                if w.startswith("+") and words[1] in carried_before.get(w[1:], ()) \
                        and squares.get(w[1:]) != squares[words[1]]:
                    retaken += 1
        state, _ = apply(state, parse_action(text, seat))
        if text == "end":
            break
    return actions, state, returns, retaken


def test_BG_ITEM_05_the_planner_does_not_swap_objects_back_and_forth():
    """BG-ITEM-03/05: picking up and handing over cost nothing, so a bot may shuffle objects for ever. GreedyBot
    swaps the Thief's Fireball Wand for Yellow's and back and walks the Thief back to f10 (a play-test saw it);
    the planner, from six seeds, never takes an object back nor returns a figure to a square it left."""
    state = parse_position(SWAPS)
    _, _, returns, retaken = play_turn(state, GreedyBot(), 0)
    assert returns >= 1 and retaken >= 1
    for seed in range(6):
        actions, _, returns, retaken = play_turn(state, PlannerBot(), seed)
        assert (returns, retaken) == (0, 0), actions


def test_BG_MOVE_04_the_planner_does_not_step_back_where_it_came_from():
    """BG-MOVE-04 allows any path, but d12, d11, d12 spends two AP for nothing (GreedyBot, Rng 0); the planner
    from six seeds never ends a move where one of its figures stood earlier in the turn."""
    state = parse_position(STEPS_BACK)
    actions, _, returns, _ = play_turn(state, GreedyBot(), 0)
    assert returns >= 1, actions
    for seed in range(6):
        actions, _, returns, _ = play_turn(state, PlannerBot(), seed)
        assert returns == 0, actions


def test_BG_VP_03_the_planner_carries_the_treasure_out():
    """BG-VP-02/03, BG-ITEM-05: the Thief crosses the Warrior's square, takes the Treasure he carries and gets out
    with it in the same turn: 2 VP, from every seed. GreedyBot (Rng 0) takes it from him, leaves it on the floor and
    gives it back to the Warrior: the Thief gets out with nothing, 1 VP."""
    state = position("bTH@c4 bWA@c6 bTS@c6 yTR@h14", ap=5)
    _, after, _, retaken = play_turn(state, GreedyBot(), 0)
    assert after.vp("B") == 1 and retaken == 1
    for seed in range(6):
        actions, after, returns, retaken = play_turn(state, PlannerBot(), seed)
        assert after.vp("B") == 2 and (returns, retaken) == (0, 0), actions
        assert "+bTS" in actions[0]


def test_BG_WOUND_04_the_planner_finishes_a_wounded_enemy():
    """BG-WOUND-04: a wounded enemy beside it loses a combat and is eliminated (1 VP): the planner attacks first."""
    state = position("bWA@c4 yTR@c5! yGB@h14", ap=3)
    for seed in range(6):
        assert PlannerBot().choose(view(state, "B"), legal_texts(state, "B"), Rng(seed)) == "attack bWA yTR"


def test_BG_COMBAT_03_the_planner_keeps_out_of_a_fight_it_would_lose():
    """BG-COMBAT-03/04: the Thief (2) beside the Troll (4) would be wounded: the planner does not attack; it moves
    the Thief away from the Troll's side, to a square no more exposed (`_threat`: two moves of 2 and an attack)."""
    state = position("bTH@c4 yTR@c5 yGB@h14", ap=1)
    bot = PlannerBot()
    for seed in range(6):
        bot._cache = {}
        seen = view(state, "B")
        choice = PlannerBot().choose(seen, legal_texts(state, "B"), Rng(seed))
        assert choice.startswith("move bTH"), choice
        dest = choice.split()[2].split("-")[-1]
        square = (ord(dest[0]) - 97, int(dest[1:]) - 1)
        assert abs(square[0] - 2) + abs(square[1] - 4) > 1, choice
        assert bot._threat(seen, "B", square, 2) <= bot._threat(seen, "B", (2, 3), 2)


def test_the_planner_is_deterministic_from_its_seed_and_its_combat_card_is_mixed():
    """Same seed, same turn; its secret combat card (BG-COMBAT-02) drawn among the near-best like GreedyBot's
    (CARD_SLACK): more than one card from 40 seeds, each within CARD_SLACK of the best."""
    state = parse_position(SWAPS)
    assert play_turn(state, PlannerBot(), 3)[0] == play_turn(state, PlannerBot(), 3)[0]
    fight = act(position("bWA@c4 yTR@c5"), "attack bWA yTR")
    seen, legal = view(fight, "B"), legal_texts(fight, "B")
    greedy = GreedyBot()
    greedy._cache = {}
    scores = {text: greedy.score(seen, "B", text) for text in legal}
    chosen = {PlannerBot().choose(seen, legal, Rng(seed)) for seed in range(40)}
    assert len(chosen) > 1 and all(scores[c] >= max(scores.values()) - GreedyBot.CARD_SLACK for c in chosen)


WALLED = ("DT1 base_set vp=5 ; rooms A1=3D/2 B1=4G/3 A2=2D/0 B2=4D/3 A3=1G/3 B3=2G/1 A4=3G/1 B4=1D/3 ; ports 1G=co "
          "2G=bc ; tokens bAR@b3 bCL>eliminated bFW@b6 bGB@h9 bMK@b9!12 bRP@i13 bSP@a7 bSW@d8 bTH@h4 bTR@b9 bTS@c14 "
          "bWA@a0 bWW>exited bWZ@i3 yAR@h9 yCL@d21 yFW@g16 yGB@d15 yMK>exited yRP@f10 ySP@d15 ySW@a15 yTH>eliminated "
          "yTR@g18 yTS@d16 yWA@i13 yWW@a10 yWZ>exited ; cards B:234/5/03346/2 Y:234/5/02233/3 ; turn 34 B main ap=5 "
          "high=5 four=1 first=Y placer=- combats=4")
"""Blue's turn 34 of a planner-greedy base-set game (seed 43; that game reached the 1,500-action limit before): no
figure of Blue has an open way to Yellow's start zone; the Goblin stands on B2's gear (h9)."""


def test_BG_ROT_01_03_a_walled_off_planner_turns_a_room_that_opens_a_way():
    """BG-ROT-01: a figure on a rotation mechanism turns its room in the arrow's direction. With no open way to
    the exit, the planner's Goblin turns B2 (the planner before turned B1, its twin, which opened nothing, and
    walked its Troll into a dead end) and then walks out along the way opened; every seed the same."""
    state = parse_position(WALLED)

    def open_ways(state) -> int:
        seen = view(state, "B")
        ways = PlannerBot._open_map(seen, 5 * seen["rows"])
        return sum(1 for t in seen["tokens"] if t["id"] and t["character"] and t["colour"] == "B"
                   and not t["wounded"] and t["square"] and _square(t["square"]) in ways)

    assert open_ways(state) == 0
    for seed in range(4):
        actions, after, returns, _ = play_turn(state, PlannerBot(), seed)
        assert actions[0] == "rotate bGB B2 cw", actions
        assert open_ways(after) >= 1 and returns == 0, actions


def test_BG_ROT_05_a_turned_room_is_the_engine_s_turned_room():
    """BG-ROT-05: everything in the room turns with it, its walls on its border included, and its neighbours'
    walls on that border stay. The planner's model of a turned room (from the revealed tile and its orientation)
    equals the engine's view after every legal rotation of a few seeded greedy games of the base set and
    Paladins & Dragons (an older model turned the neighbours' border walls too, and rooms were turned to and fro)."""
    from dungeon_twister.engine import Options, legal_actions, new_game
    from dungeon_twister.engine.boardgame.notation import format_action

    def layout(v):
        return (sorted((tuple(sorted((a, b))), k) for a, b, k in v["walls"]),
                sorted((tuple(sorted((a, b))), st) for a, b, st in v["portcullises"]),
                sorted(v["pits"]), sorted(tuple(sorted(s)) for s in v.get("slits", ())),
                sorted((t["id"], t["square"]) for t in v["tokens"] if t["id"]))

    checked = 0
    for set_name, seed in (("base_set", 1), ("paladins", 2), ("prison", 3)):
        state, rng, bot = new_game(Options(set_name=set_name), seed), Rng(seed), GreedyBot()
        for _ in range(300):
            if state.outcome is not None:
                break
            seat = state.to_act[0]
            texts = [format_action(a) for a in legal_actions(state, seat)]
            seen = view(state, seat)
            for text in texts:
                words = text.split()
                if words[0] == "rotate":
                    turned, _ = apply(state, parse_action(text, seat))
                    assert layout(PlannerBot._turned_view(seen, words[2], words[3] == "cw")) == \
                        layout(view(turned, seat)), (set_name, seed, text)
                    checked += 1
            state, _ = apply(state, parse_action(bot.choose(seen, texts, rng), seat))
    assert checked >= 20


BLOCK = ("DT1 prison vp=5 ; rooms A1=37D/3 B1=40G/0 A2=*38G/3 B2=*37G/3 A3=*39D/0 B3=*40D/3 A4=39G/1 B4=38D/3 ; "
         "ports - ; tokens bAS#A3.7 bBS@g0 bBW@j17 bCL#B2.13 bCO@i0 bFS#B2.9 bKY#A3.15 bLN#B3.3 bMK#A2.19 bNG@a5 "
         "bRP@a5 bSH@j5 bTP@d0 bWZ#A2.17 yAS@a18 yBS@e18 yBW@i17 yCL#A3.16 yCO@h2 yFS#B2.8 yKY#A2.12 yLN@e5 "
         "yMK#B3.20 yNG@f16 yRP#B3.10 ySH@a18 yTP@i21 yWZ@d16 ; cards B:24/35/012233456/3 Y:35/24/012233456/2 ; "
         "turn 4 B main ap=5 high=5 four=1 first=Y placer=- combats=0")
"""Blue's turn 4 of a planner-greedy Prison game (seed 5): the yellow Colossus on h2 is two steps from Blue's start
zone (h1, h0), its exit; Blue's Banshee stands on g0."""


def test_BG_MOVE_09_the_planner_stands_in_a_runner_s_way():
    """BG-MOVE-09 (PR-CORE-12): no figure enters a square holding an enemy figure. The planner's Banshee steps onto
    h1, in the Colossus's way out, and its way gets longer (the planner of before stepped aside, to g2 or i2, and
    the Colossus walked out)."""
    state = parse_position(BLOCK)
    seen = view(state, "B")
    bot = PlannerBot()
    assert {PlannerBot().choose(seen, legal_texts(state, "B"), Rng(seed)) for seed in range(6)} == {"move bBS h1"}

    def way_out(state) -> int:  # the Colossus's steps to Blue's start zone, Blue's standing figures in the way
        seen = view(state, "B")
        bot._cache = {}
        mine = {(_square(t["square"])[1] + 1) * 10 + _square(t["square"])[0] for t in seen["tokens"]
                if t["id"] and t["character"] and t["colour"] == "B" and t["square"] and not t["wounded"]}
        steps = bot._steps(bot._links(seen), range(10), mine)[(1 + 1) * 10 + 7]  # from row 0 to h2
        return steps if steps >= 0 else 99

    assert way_out(apply(state, parse_action("move bBS h1", "B"))[0]) > way_out(state) == 2


def test_BG_CARRY_05_the_planner_does_not_pass_a_wounded_friend_to_and_fro():
    """BG-CARRY-05, BG-ITEM-05: a figure may fetch a wounded friend and leave him on another friend's square in one
    move that ends where it began. main's planner of session 27 scored each such hand-over (half the friend's worth)
    and passed the wounded Troll between the Warrior, the Goblin and the Thief all turn (f6, f5, g6, f6...: five
    moves, from every seed). The planner hands him on only nearer the exit (at most once here), and its walled-off
    Warrior walks to the gear it can reach (c3; the i7 one is behind the Mechanork, BG-MOVE-09) and turns A3
    instead of going to and fro between the two."""
    state = parse_position(HAND_OVERS)
    for seed in range(6):
        actions, _, returns, _ = play_turn(state, PlannerBot(), seed)
        assert sum("bTR@" in a for a in actions) <= 1 and returns == 0, actions
        assert any(a.startswith("rotate bWA") for a in actions), actions

ONE_PIT_AWAY = ("DT1 base_set vp=5 ; rooms A1=1G/0 B1=3G/3 A2=*2D/1 B2=*2G/1 A3=*4D/2 B3=*4G/1 A4=*1D/0 B4=*3D/1 ; "
                "ports - ; tokens bAR#B2.11 bCL@g0 bFW#B4.7 bGB#A2.5 bMK#B3.1 bRP@d4 bSP@i1 bSW#A4.13 bTH@d0 bTR@b0 "
                "bTS#A3.19 bWA@i0 bWW#A2.3 bWZ#A4.17 yAR#B2.10 yCL@d1 yFW#A2.12 yGB#B4.8 yMK@d21 yRP@h3 ySP#A3.16 "
                "ySW#A3.18 yTH@g21 yTR@b21 yTS#B3.6 yWA@i21 yWW#B3.2 yWZ#B2.4 ; cards B:345/2/012233456/3 "
                "Y:2345/-/012233456/3 ; turn 3 B main ap=1 high=2 four=0 first=B placer=- combats=0")
"""The base-set game of seed 55 (bench/bot_strength.py), its Blue turn 3 made up: Yellow's Cleric at d1, the Thief
on d0 below him, the pit c1 beside him; Yellow has its three jump cards. Blue has 1 AP."""


def test_BG_JUMP_07_the_planner_blocks_the_square_an_enemy_jumps_out_on():
    """BG-JUMP-03/07, BG-EXIT-03: the Cleric may jump the pit c1 and land on c0, an exit, unless an enemy figure
    stands there. In the seeded game he did (1 VP, Yellow's turn 2). The planner's Cleric steps along the start zone
    onto c0, from every seed; the planner of session 27 saw only walking ways and moved its Warrior to i1."""
    state = parse_position(ONE_PIT_AWAY)
    yellow = parse_position(ONE_PIT_AWAY.replace("turn 3 B", "turn 4 Y"))
    assert "jump yCL c1 c0" in legal_texts(yellow, "Y")
    for seed in range(6):
        actions, after, _, _ = play_turn(state, PlannerBot(), seed)
        assert any(t["square"] == "c0" and t["colour"] == "B" and t["character"] for t in view(after, "B")["tokens"]), \
            actions


def test_the_planner_s_kept_maps_are_bounded_and_packing_them_changes_no_choice():
    """A server runs its bot seats in-process, each keeping its maps between decisions (`_kept`): at most MAPS_HOT
    as dicts and MAPS_KEPT in all, the older packed in arrays. A map unpacked is the map made (same squares, same
    order), so a planner that packs all but two of its maps makes the same choices as one that keeps them all."""
    from dungeon_twister.engine import Options, legal_actions, new_game
    from dungeon_twister.engine.boardgame.notation import format_action

    class Tight(PlannerBot):
        MAPS_HOT, MAPS_KEPT = 2, 6

    class Loose(PlannerBot):
        MAPS_HOT, MAPS_KEPT = 400, 400

    state = new_game(Options(set_name="base_set"), 8)
    tight, loose, greedy = Tight(), Loose(), GreedyBot()
    rngs = {"B": Rng(1), "Y": Rng(2), "T": Rng(1)}
    for _ in range(160):
        if state.outcome is not None:
            break
        seat = state.to_act[0]
        legal = [format_action(a) for a in legal_actions(state, seat)]
        seen = view(state, seat)
        if seat == "B":
            choice = loose.choose(seen, legal, rngs["B"])
            assert tight.choose(seen, legal, rngs["T"]) == choice
            assert len(tight._maps) <= 2 and len(tight._maps) + len(tight._packed) <= 6
        else:
            choice = greedy.choose(seen, legal, rngs["Y"])
        state, _ = apply(state, parse_action(choice, seat))
    assert len(loose._maps) > 6  # the game made more maps than the tight bot keeps
    for found in loose._maps.values():
        again = PlannerBot._unpack(PlannerBot._pack(found))
        assert again == found and list(again) == list(found)


PLACING = ("DT1 base_set vp=5 ; rooms A1=1G/0 B1=3G/3 A2=*2D/1 B2=*2G/1 A3=*4D/2 B3=*4G/1 A4=*1D/0 B4=*3D/1 ; ports - "
           "; tokens bAR#B2.11 bCL@g0 bFW#B4.7 bGB#A2.5 bMK#B3.1 bRP>placing bSP@i1 bSW#A4.13 bTH@b0 bTR@d0 "
           "bTS#A3.19 bWA@i0 bWW#A2.3 bWZ#A4.17 yAR#B2.10 yCL>placing yFW#A2.12 yGB#B4.8 yMK@d21 yRP@h3 ySP#A3.16 "
           "ySW#A3.18 yTH@g21 yTR@b21 yTS#B3.6 yWA@i21 yWW#B3.2 yWZ#B2.4 ; cards B:345/2/012233456/3 "
           "Y:2345/-/012233456/3 ; turn 1 B place ap=0 high=2 four=0 first=B placer=- combats=0 acted=bTH,bWA ; "
           "placing A1 BB bRP,yCL")
"""The base-set game of seed 55 (bench/bot_strength.py): Blue's Thief has revealed A1, the room before Blue's start
zone, and Blue places Yellow's Cleric found there."""


def test_BG_REVEAL_06_the_planner_places_an_enemy_far_from_his_exit():
    """BG-REVEAL-06/07: the revealing player places the enemy's figures. The planner of session 27 placed them at
    random (GreedyBot's 1 for every square): in the seeded game, the Cleric on d1, beside the pit c1, and he jumped
    out onto c0 at once (BG-JUMP-07). The planner puts him where his way out is longest: on the room's far row, and
    never on the row before its start zone."""
    state = parse_position(PLACING)
    legal = legal_texts(state, "B")
    assert "place yCL d1" in legal and "place yCL d5" in legal
    for seed in range(6):
        choice = PlannerBot().choose(view(state, "B"), legal, Rng(seed))
        assert choice.split()[:2] == ["place", "yCL"] and choice.split()[2][1:] == "5", choice


CORRIDOR = ("DT1 base_set vp=5 ; rooms A1=1G/0 B1=2G/1 A2=3D/1 B2=4G/2 A3=2D/2 B3=1D/0 A4=3G/1 B4=4D/2 ; ports 1G=cb ; "
            "tokens bAR@c11 bCL>eliminated bFW@a9 bGB@e7 bMK>exited bRP@h14 bSP>discarded bSW@a17 bTH@e6 bTR@e3 "
            "bTS@a10 bWA@e5 bWW>eliminated bWZ@e4 yAR>discarded yCL>exited yFW@i10 yGB@f8 yMK@f10 yRP@i6 ySP@h3 "
            "ySW@b10 yTH@e8 yTR@g10 yTS@f8 yWA@f9 yWW@e9 yWZ@g8 ; cards B:-/5432/012235/3 Y:2345/-/0233456/2 ; "
            "turn {turn} B main ap=4 high=5 four=1 first=Y placer=- combats=3")
"""The base-set game of seed 23 (bench/bot_strength.py, session 27: capped at 1,500 actions), Blue's turn 120 with
4 AP: Blue's figures stand in the corridor e4-e7, one square wide, the Goblin in front of Yellow's Thief (e8),
the Troll at the back (e3); Yellow's figures crowd behind their Thief. Neither side moved on for 700 actions."""


def test_BG_MOVE_09_a_standoff_the_planner_makes_way_for_its_troll():
    """BG-MOVE-08/09, BG-COMBAT: no figure enters an enemy's square, so the corridor is shut both ways; the Goblin
    (1) would lose to the Thief (2), and every step back scores less than nothing: the planner of session 27 ended
    its turns. After STANDOFF_TURNS of its turns with no VP scored and no step nearer the exit, the planner makes way
    for the Troll (4), which beats the Thief: a figure of the corridor steps off it and the Troll comes up; before
    that (and never the planner of before) it does not."""
    corridor = {"e4", "e5", "e6", "e7"}
    for seed in range(3):
        bot = PlannerBot()
        for turn in range(100, 100 + 2 * PlannerBot.STANDOFF_TURNS, 2):
            actions, _, _, _ = play_turn(parse_position(CORRIDOR.format(turn=turn)), bot, seed)
            assert not any(a.startswith("move") and a.split()[1] != "bTR" for a in actions), (turn, actions)
        state = parse_position(CORRIDOR.format(turn=100 + 2 * PlannerBot.STANDOFF_TURNS))
        squares = {t["id"]: t["square"] for t in view(state, "B")["tokens"] if t["id"]}
        actions, after, _, _ = play_turn(state, bot, seed)
        stepped_off = [a for a in actions if a.startswith("move") and a.split()[1] != "bTR"
                       and squares[a.split()[1]] in corridor and a.split()[2] not in corridor]
        assert stepped_off, actions
        assert any(t["id"] == "bTR" and t["square"] in corridor for t in view(after, "B")["tokens"]), actions


OBSTACLES = ('DT1 base_paladins vp=5 ; rooms A1=1D/3 B1=3G/0 A2=43D/3 B2=4D/3 A3=4G/1 B3=43G/1 A4=3D/0 B4=1G/2 ; '
             'ports 43D=o ; tokens bAR@h7 bCH>unused bCL>exited bDS>unused bES>unused bFH>unused bFW@d12 '
             'bGB>unused bGH>exited bGO@d9 bIL>unused bKY@f13 bMK>unused bPA@e10 bPP>unused bRD>unused bRG@g5 '
             'bRP@d18 bSP>unused bSW@c10 bTH@c8 bTR@c9 bTS>unused bWA@c10 bWM@e9 bWW>unused bWZ>unused yAR@c14 '
             'yCH>unused yCL@a19 yDS>unused yES>unused yFH>unused yFW@a20 yGB>unused yGH>eliminated yGO@j5 '
             'yIL>unused yKY@h21 yMK>unused yPA@f13 yPP>unused yRD>unused yRG@h6 yRP@e9 ySP>unused ySW@c8 yTH@g12 '
             'yTR@j21 yTS>unused yWA@j20 yWM>eliminated yWW>unused yWZ>unused ; cards B:23/54/0134/3 '
             'Y:25/43/0135/2 ; turn 77 B main ap=3 high=5 four=1 first=B placer=- combats=5')
"""Blue's turn 77 of the planner's base_paladins game of seed 1001 against the random bot (mixed_random.py),
Yellow's turn ended: Blue's five standing figures in room A2, whose only ways north lie over the 3D obstacles on
b10 and d10."""


def test_PD_GLOS_03_a_planner_walled_off_by_3d_obstacles_walks_to_the_gear():
    """PD-GLOS-03: no character crosses or stops on a 3D obstacle. The planner's maps took them for open ground,
    so its figures in A2 had a way, no step gained on it, and none was walled off: it ended every turn, from turn
    43 at 4 VP to turn 1171 (4,952 actions, 205 now). Now an obstacle is no square to enter (`_open_map`) and costs
    a wall (`_cost_of`), turned with its room: its figures are walled off, and the Goblin walks to A2's gear, b9,
    whose turn opens a way; every seed the same."""
    state = parse_position(OBSTACLES)
    seen = view(state, "B")
    assert {"b10", "d10"} <= set(seen["terrain"]["obstacles"])
    ways = PlannerBot._open_map(seen, 5 * seen["rows"])
    assert _square("b10") not in ways and _square("d10") not in ways
    bot = PlannerBot()
    bot._cache = {"legal": frozenset(legal_texts(state, "B"))}
    assert bot._walled(seen, "B") and (1, 8) in [gear for gear, _, _ in bot._rotation_plans(seen, "B")]
    for seed in range(4):
        assert PlannerBot().choose(seen, legal_texts(state, "B"), Rng(seed)) == "move bGO b9"
