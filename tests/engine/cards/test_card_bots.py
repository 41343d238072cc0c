"""The card game's greedy bot (engine/tools/card_bots.py GreedyBot) in built positions (builders.py's maze): it
takes the fights its values and hand favour and declines the others, leaves by a scoring exit with what scores,
opens its way, places a revealed room's characters where they serve it, and keeps its secret choices mixed. Every
draw is seeded; the checks count choices, never time."""

from __future__ import annotations

from collections import Counter

from dungeon_twister.engine.cards import CardOptions, apply, new_game, parse_action
from dungeon_twister.engine.cards.typed import legal_texts
from dungeon_twister.engine.cards.notation import zone_from
from dungeon_twister.engine.core.rng import Rng
from dungeon_twister.engine.families import CARDS
from dungeon_twister.engine.tools.card_bots import (BLOCK_CAP, BOTS, IMPATIENT, LAST_EXIT_IDLE, RISKED, RUN, GreedyBot,
                                                    SimpleBot, _duel, _Seen)

from .builders import act, build


def choices(state, seat: str, seeds: int = 20) -> Counter:
    legal, view = legal_texts(state, seat), CARDS.view(state, seat)
    return Counter(GreedyBot().choose(view, legal, Rng(seed)) for seed in range(seeds))


def test_the_greedy_bot_is_the_card_games_default_and_the_old_one_is_kept_as_the_baseline():
    assert BOTS["greedy"] is GreedyBot and "simple" not in BOTS and SimpleBot.name == "simple"


def test_CG_COMBAT_02_it_attacks_a_character_its_values_beat():
    """The Colossus (5) and a Mechanork (2) share a2: Blue attacks, whatever its draw, before any step."""
    s = build({"bCO": "a2", "yMK": "a2"}, ap=(3, 0), combat=True)
    assert choices(s, "B") == Counter({"attack bCO yMK": 20})


def test_CG_COMBAT_03_it_declines_a_fight_it_would_lose_and_steps_out_of_reach():
    """The other way round: a Mechanork (2) by the Colossus (5) does not attack; it leaves the zone."""
    s = build({"bMK": "a2", "yCO": "a2"}, ap=(3, 0), combat=True)
    chosen = choices(s, "B")
    assert not any(text.startswith("attack") for text in chosen)
    assert all(text.startswith("move bMK") for text in chosen), chosen


def test_CG_COMBAT_03_a_wounded_enemy_is_a_point_to_take_even_for_a_weak_attacker():
    """The same Mechanork against the wounded Colossus (0): a win eliminates him, 1 VP."""
    s = build({"bMK": "a2", "yCO": ("a2", {"wounded": True})}, ap=(3, 0), combat=True)
    assert choices(s, "B") == Counter({"attack bMK yCO": 20})


def test_CG_COMBAT_02_its_combat_card_is_drawn_from_a_mixed_strategy():
    """Once the attack is laid, neither side lays the same card every time (the opponent would read it), and the
    Colossus three ahead never spends his +6, nor the Mechanork three behind his +3 (it wins nothing a +0 does
    not)."""
    fight = act(build({"bCO": "a2", "yMK": "a2"}, ap=(3, 0), combat=True), "attack bCO yMK")
    attacker, defender = choices(fight, "B", 60), choices(fight, "Y", 60)
    assert len(attacker) >= 2 and len(defender) >= 2, (attacker, defender)
    assert "card 6" not in attacker and "card 3" not in defender
    value, mix = _duel(3, 50.0, 50.0, (0, 1, 2, 3, 4, 5, 6))
    assert value > 0 and abs(sum(mix) - 1) < 1e-9 and max(mix) < 1


def test_CG_COMBAT_the_duel_knows_a_card_shown():
    """CG-CHAR-WMASTER-01: with the opponent's card known, the reply is the cheapest that wins."""
    value, mix = _duel(0, 50.0, 50.0, (0, 1, 2, 3, 4, 5, 6), (3,))
    assert mix == (0, 0, 0, 0, 1.0, 0, 0) and value == 50.0 - 4.0 * (4 - 3)


def test_CG_EXIT_01_CG_OBJ_TREASURE_01_it_leaves_by_the_exit_and_takes_the_treasure_on_its_way():
    """bSN on a4, the Treasure on b4 beside Yellow's start zone: out through b4 with it (2 VP), every draw."""
    s = build({"bSN": "a4", "yMK": "d1"}, items={"bTS": "b4"}, ap=(3, 0))
    assert choices(s, "B") == Counter({"move bSN b4 +bTS Y1": 20})
    assert apply(s, parse_action("move bSN b4 +bTS Y1", "B"))[0].player("B").vp == 2


def test_CG_OBJ_KEY_01_it_opens_the_portcullis_on_its_way_out():
    """A Mechanork with the Key on c3: the portcullis c3|c4 is his way out (he has no other): he opens it. (A
    friend stays, the Troll on b1: the side's last unwounded figure leaves only if that wins.)"""
    s = build({"bMK": "c3", "yWA": "a1", "bTR": "b1"}, items={"bKY": "@bMK"}, ap=(3, 0))
    assert choices(s, "B") == Counter({"open bMK c3 n": 20})
    opened = act(s, "open bMK c3 n")
    assert {text.split()[-1] for text in choices(opened, "B")} == {"Y2"}  # then out (the Key kept or not)


def test_CG_REVEAL_06_it_places_its_own_character_near_its_way_out_and_the_enemys_far_from_theirs():
    """Blue reveals room B (c1 d1 c2 d2, by Blue's start zone): its own Snake-man goes to the zone nearest
    Yellow's start zone, a Yellow Warrior to the one farthest from Blue's."""
    for seeded, expected in (("bSN", "place bSN d2"), ("yWA", "place yWA d2")):
        s = build({"bMK": "B2>c1", seeded: "seeded:B"}, revealed=(True, False, True, True))
        assert choices(act(s, "reveal bMK B"), "B") == Counter({expected: 20})
    s = build({"bMK": "B2>c1", "yWA": "seeded:B"}, revealed=(True, False, True, True))
    assert "place yWA c1" not in choices(act(s, "reveal bMK B"), "B", 40)  # (c1: one step from Blue's start)


def test_the_start_characters_and_facings_stay_mixed():
    """The secret `hide` and `face` choices: many different ones over 20 seeds, as a player's would be."""
    s = new_game(CardOptions(2), 4)
    assert len(choices(s, "B")) >= 8
    for seat in ("B", "Y"):
        s = apply(s, parse_action(GreedyBot().choose(CARDS.view(s, seat), legal_texts(s, seat), Rng(1)), seat))[0]
    while s.phase == "seed":
        seat = s.to_act[0]
        s = apply(s, parse_action(legal_texts(s, seat)[0], seat))[0]
    assert s.phase == "face" and len(choices(s, "Y")) >= 4


def test_CG_TURN_it_never_brings_a_figure_back_where_it_stood_in_the_same_turn():
    """Whole tutorial games between two greedy bots: in a turn, a figure it moves never comes back to a place it
    left in that turn as it left it (the same place, facing and load: a step undone), unless no figure of its side
    had a way out (then it tries things)."""
    for tutorial, seed in ((1, 1), (2, 2), (3, 3)):
        state, rng, played, bot = new_game(CardOptions(tutorial), seed), Rng(seed), 0, GreedyBot()
        visited: dict = {}
        while state.outcome is None and played < 600:
            seat = state.to_act[0]
            view, legal = CARDS.view(state, seat), legal_texts(state, seat)
            text = bot.choose(view, legal, rng)
            if state.phase == "main" and text.startswith("move "):
                fid = text.split()[1]
                figure = next(f for f in view["figures"] if f["id"] == fid)
                key = (state.turn, fid)
                visited.setdefault(key, set()).add((figure["at"], figure.get("facing"), figure.get("carries")))
                after = next((f for f in CARDS.view(apply(state, parse_action(text, seat))[0], seat)["figures"]
                              if f["id"] == fid), {})
                if not _Seen(view, seat).stuck():
                    where = (after.get("at"), after.get("facing"), after.get("carries"))
                    assert where not in visited[key], (tutorial, seed, played, text)
            state = apply(state, parse_action(text, seat))[0]
            played += 1
        assert state.outcome is not None, (tutorial, seed)


def test_the_same_seed_gives_the_same_choice_in_a_busy_standard_position():
    """Deterministic from its Rng: a standard game's position with many moves, twice the same choice."""
    state, rng = new_game(CardOptions(None, "standard", "mutual"), 3), Rng(3)
    bot = GreedyBot()
    for _ in range(60):
        seat = state.to_act[0]
        text = bot.choose(CARDS.view(state, seat), legal_texts(state, seat), rng)
        state = apply(state, parse_action(text, seat))[0]
    seat = state.to_act[0]
    view, legal = CARDS.view(state, seat), legal_texts(state, seat)
    assert GreedyBot().choose(view, legal, Rng(9)) == GreedyBot().choose(view, legal, Rng(9))


def test_CG_ITEM_03_a_round_of_exchanges_between_friends_gains_nothing_by_itself():
    """Seen in a bench game: the Weapon Master took the wounded Goblin the Telekinetic carried (handing her his
    Rope), dropped it a zone away, came back and took the Rope again, turn after turn, each time scored as a gain
    (the Telekinetic was credited the Rope, never debited). Here with a Treasure: every figure's load is now
    followed through the move, the round loses the Goblin's carrying, and no draw chooses it."""
    s = build({"bWM": "a1", "bTK": "a1", "bGB": "@bTK", "yWA": "d1"}, items={"bTS": "@bWM"}, ap=(3, 0))
    legal, view = legal_texts(s, "B"), CARDS.view(s, "B")
    seen = _Seen(view, "B")
    assert "move bWM +bGB a2 -bGB a1 +bTS" in legal
    assert GreedyBot().score(seen, "move bWM +bGB a2 -bGB a1 +bTS") < 0
    assert not any("-bGB" in text for text in choices(s, "B"))


def test_CG_CHAR_TELEKIN_01_02_the_telekinetic_hands_a_rope_to_a_friend_who_needs_it():
    """CG-CHAR-TELEKIN-01/02: for 1 AP the Telekinetic moves an object lying in her room to a friend's hands. The
    Warrior on b2 has the b2|b1 pit on his way out: the Rope lying by the Telekinetic (a2) saves him a jump card
    (CG-OBJ-ROPE-01), and with one AP left the bot floats it to him (it scored every levitation -1 before)."""
    s = build({"bTK": "a2", "bWA": "b2", "yMK": "a1"}, {"bRP": "a2"}, ap=(1, 0))
    chosen = choices(s, "B")
    assert set(chosen) == {"levitate bTK bRP a1 b1 b2 >bWA"}, chosen


def test_CG_OBJ_INVERSION_01_the_bot_sees_two_rooms_swapped_as_the_engine_swaps_them():
    """CG-OBJ-INVERSION-01: a spellcaster's Inversion Scroll swaps his room with a neighbour, orientations kept,
    what is in them going along. The bot's model of the swapped rooms (`_inverted`) is the engine's view after
    each inversion it may read, and it scores each (it scored every inversion -1 before)."""
    from dungeon_twister.engine.tools.card_bots import _inverted, slot_of
    from dungeon_twister.engine.cards.notation import zone_from

    s = build({"bWZ": "b2", "bWA": "a1", "yMK": "c3"}, {"bIS": "@bWZ", "yRP": "d4"}, ap=(2, 0))
    texts = [t for t in legal_texts(s, "B") if t.startswith("invert")]
    assert len(texts) == 2

    def layout(v):
        return ([(r.get("card"), r.get("turns"), r["revealed"], r["room"]) for r in v["rooms"]],
                sorted((f["id"], f.get("at")) for f in v["figures"]),
                sorted((i["id"], i.get("at")) for i in v["items"] if i["id"] != "bIS"))

    view = CARDS.view(s, "B")
    seen, bot = _Seen(view, "B"), GreedyBot()
    for text in texts:
        after = act(s, text)
        mine = _inverted(view, slot_of(zone_from("b2")), "ABCD".index(text.split()[2]))
        assert layout(mine) == layout(CARDS.view(after, "B")), text
        assert bot.score(seen, text) != -1.0


def _played(options: CardOptions, seed: int, actions: list[str]):
    """A bench game's position (bench/card_bots.py, game `seed`), reached by its recorded actions: `seat text`."""
    state = new_game(options, seed)
    for line in actions:
        seat, text = line.split(" ", 1)
        state = apply(state, parse_action(text, seat))[0]
    return state


def _turn_of(state, seat: str, rng: Rng, bot=None) -> list[tuple[str, tuple]]:
    """The bot's actions until its turn ends, each with where its figure then stands (place, facing, load)."""
    bot, out, turn = bot or GreedyBot(), [], state.turn
    while state.outcome is None and state.turn == turn and state.to_act[0] == seat:
        text = bot.choose(CARDS.view(state, seat), legal_texts(state, seat), rng)
        state = apply(state, parse_action(text, seat))[0]
        f = next((f for f in CARDS.view(state, seat)["figures"] if f["id"] == text.split()[1]), {}) \
            if text.startswith("move ") else {}
        out.append((text, (f.get("at"), f.get("facing"), f.get("carries"))))
    return out


TUTORIAL3_GAME1 = [  # bench/card_bots.py tutorial3 game 1 (greedy Yellow, simple Blue), its first 45 actions
    "B hide bCL:2 bWZ:1", "Y hide yMK:1 yWA:2", "B seed bBW D", "Y seed yCL B", "B seed bKY C", "Y seed yKY C",
    "B seed bWA G", "Y seed yBW B", "B seed bCB G", "Y seed ySH F", "B seed bRP E", "Y seed yRP H",
    "B seed bSN A", "Y seed yCB D", "B seed bMK E", "Y seed yWZ F", "B seed bSH H", "Y seed ySN A",
    "B face bCL:S bWZ:S", "Y face yMK:R yWA:R", "B reveal bCL B", "B place yBW c2", "B place yCL d2",
    "B move bCL c1", "B end", "Y move yCL c2 +yBW", "Y rotate yCL B ccw", "Y move yCL B2", "Y end",
    "B move bCL d2", "B move bWZ B2^d1 d1", "B move bWZ d2", "B end", "Y reveal yWA H", "Y place bSH c8",
    "B place yRP d7", "Y reveal yMK G", "Y place bCB a7", "Y place bWA b7", "Y move yWA ^d8", "Y end",
    "B move bCB b7", "B move bCL d1", "B move bCL d2", "B end"]


def test_CG_BLOCK_01_leaving_a_block_costs_what_the_block_was_worth():
    """pt27 F16, in a bench game: Yellow's Warrior on its start zone Y2 facing d8 blocks Blue's exit from d8
    (CG-BLOCK-01). The bot counted the block where a move ended but not where it started, so it walked out to b8
    (no debit for the block given up), back onto Y2 facing d8 (the block credited again), and out again: 3 AP, turn
    after turn. Now the block counts on both ends: no draw of the turn brings the Warrior back where it stood."""
    s = _played(CardOptions(3), 1, TUTORIAL3_GAME1)
    assert s.to_act[0] == "Y" and s.phase == "main"
    for seed in range(12):
        turn = _turn_of(s, "Y", Rng(seed))
        places = [where for text, where in turn if text.startswith("move yWA")]
        assert len(places) == len(set(places)) and ("Y2", "d8", None) not in places, (seed, turn)
    view = CARDS.view(s, "Y")
    seen = _Seen(view, "Y")
    blocking = GreedyBot()._blocking(seen, seen.figs["yWA"], "Y2", "d8")
    assert blocking > 0 and GreedyBot().score(seen, "move yWA Y1^b8 b8") < GreedyBot().score(seen, "end") + blocking
    # One runner held back counts, not every enemy (tutorial 3 game 21: two blockers, summed over five runners,
    # held their start zone for 1,000 actions); an idle bot counts a block at its `risk`, as a danger.
    assert blocking <= 0.5 * RUN * BLOCK_CAP
    idle = _Seen(view, "Y", RISKED)
    assert GreedyBot()._blocking(idle, idle.figs["yWA"], "Y2", "d8") == RISKED * blocking


def _waits(state, seat: str, bot, rng: Rng, turns: int) -> list[str]:
    """The bot's first action in each of its next `turns` turns while the other side only ends its turns."""
    firsts = []
    for _ in range(turns):
        text = bot.choose(CARDS.view(state, seat), legal_texts(state, seat), rng)
        firsts.append(text)
        if text != "end":
            break
        state = apply(state, parse_action("end", seat))[0]
        other = state.to_act[0]
        state = apply(state, parse_action("end", other))[0]
    return firsts


def test_CG_MOVE_06_CG_REVEAL_03_an_idle_bot_reckons_a_wall_towards_a_face_down_room_a_wall():
    """Room A (a1 b1 a2 b2) face down: the Yellow Mechanork on b3 (room C, blue2) has a wall on b3|b2, printed by
    blue2, and a pit on a3|b3. The bot hopes every border of a face-down room open, so it sees a way out through
    b3|b2 and nothing to gain: it ends its turn. In a bench game (standard, mutual, game 39) a Backstabber sat so by
    a wall for 900 turns. After IMPATIENT turns that gained nothing it reckons the revealed side's wall a wall: its
    way goes over the pit (a jump card's AP) into A from a3, and it jumps (the bot of before ended every turn)."""
    s = build({"yMK": "b3", "bWA": "d4"}, revealed=(False, True, True, True), ap=(0, 3), active="Y")
    view = CARDS.view(s, "Y")
    for impatient in (False, True):
        seen = _Seen(view, "Y", impatient)
        dist = seen.routes("Y", seen.abilities(seen.figs["yMK"]), 2)
        through_wall = dist[zone_from("b3")] == dist[zone_from("b2")] + 0.5 + 0.5
        assert through_wall != impatient
    assert dist[zone_from("b3")] == dist[zone_from("a3")] + 0.5 + 1.0  # a step over the pit, a jump card's AP
    for seed in range(6):
        firsts = _waits(s, "Y", GreedyBot(), Rng(seed), 8)
        assert firsts == ["end"] * IMPATIENT + ["jump yMK a3"], (seed, firsts)


def test_CG_REVEAL_02_an_idle_bot_values_standing_where_it_can_reveal_its_own_cards():
    """Bench game tutorial 2 game 10: Blue's last Warrior stood on B1 for 600 turns, every step into the maze in a
    Colossus's reach, while room B in front of B2 held Blue's own Snake-man face down. An idle bot (IMPATIENT turns
    with no gain) counts ACCESS for each own card in a face-down room its figure could reveal from where it stands
    (CG-REVEAL-02: from the start zone, the room in front), so the step to B2 gains; a patient one does not."""
    from dungeon_twister.engine.tools.card_bots import ACCESS

    s = build({"bWA": "B1>a1", "bSN": "seeded:B", "yCO": "a2"}, revealed=(True, False, True, True), ap=(3, 0))
    view = CARDS.view(s, "B")
    patient, idle = _Seen(view, "B"), _Seen(view, "B", True)
    wa = idle.figs["bWA"]
    assert (idle.access(wa, "B2"), idle.access(wa, "B1"), idle.access(wa, "b2")) == (ACCESS, 0.0, 0.0)
    for seen, extra in ((patient, 0.0), (idle, ACCESS)):  # on B2, facing c1 in room B: out of the Colossus's reach
        assert seen.value(wa, "B2", "c1", []) == -RUN * seen.ap_out(wa, "B2", "c1") + extra


def test_CG_ITEM_01_03_among_moves_worth_the_same_it_makes_the_plainest():
    """pt27 F17: objects picked up and dropped to no end. Moves that end the same for what the bot counts tied, and
    it drew among them, so most of its draws took an object along and put it down again. Now handling an object
    costs ITEM_WORD: the Snake-man leaves by Y2 with the Rope it needs on the way (CG-OBJ-ROPE-01) and no longer
    takes the Warrior's Shield first only to drop it for the Rope (half the draws before); the Warrior hands the
    Shield to the Mechanork and takes the Armor in one exchange (CG-ITEM-03), not taking the Shield back too."""
    s = build({"bWA": "c3", "bSN": "c3", "yMK": "a1"}, {"bSH": "@bWA", "yRP": "c3"}, ap=(3, 0))
    assert choices(s, "B") == Counter({"move bSN +yRP d3 d4 Y2": 20})
    s = build({"bWA": "d1", "bMK": "d2", "yMK": "a4"}, {"bSH": "d1", "yAR": "d2"}, ap=(3, 0))
    assert "move bWA +bSH d2 +yAR >bMK +bSH d3" in legal_texts(s, "B")
    assert choices(s, "B") == Counter({"move bWA +bSH d2 >bMK +yAR d3": 20})


def test_CG_ITEM_03_it_does_not_take_back_what_it_let_go_this_turn():
    """F17's other half: a side with no way out scores each view afresh (a Rope on the floor is a goal for a
    friend who lacks one, in hand it is not), so the gains of passing objects round never ran out: in a bench game
    (standard, draft, game 4) the Thief took and dropped the Rope, the Key and the Bow, turn after turn. The bot
    remembers what its moves put down or handed over, and while its side has no way out (here four Yellow figures
    block the four exits, CG-BLOCK-01) taking it again within two turns costs TAKEN_BACK."""
    from dungeon_twister.engine.tools.card_bots import TAKEN_BACK

    blockers = {"yWA": "Y1>a4", "yMK": "Y1>b4", "ySN": "Y2>c4", "yTR": "Y2>d4"}
    s = build({"bWA": "c3", "bSN": "c3", **blockers}, {"bSH": "@bWA", "yRP": "c3"}, ap=(3, 0))
    bot, rng = GreedyBot(), Rng(1)
    view = CARDS.view(s, "B")
    assert _Seen(view, "B").stuck()
    plain = bot.score(_Seen(view, "B"), "move bWA -bSH")
    assert bot.choose(view, ["move bWA -bSH"], rng) == "move bWA -bSH"
    after = act(s, "move bWA -bSH")
    view = CARDS.view(after, "B")
    bot.choose(view, legal_texts(after, "B"), rng)  # its next view: the Shield lies on c3, let go
    taken = bot.score(_Seen(view, "B"), "move bWA +bSH")
    assert taken == GreedyBot().score(_Seen(view, "B"), "move bWA +bSH") - TAKEN_BACK
    assert plain < 0


def test_CG_COMBAT_05_a_shot_that_cannot_win_is_not_taken():
    """Bench game standard, full frontal, 27 (capped): both hands down to the +0 (CG-COMBAT-05: it returns, the
    other cards are discarded), the Thief's Bow (1) against a Berserker, shot after shot, 1,500 actions. The bot
    reckoned the opponent's card drawn from the whole deck, and added TEMPO even to a fight worth nothing. Now one
    card left is the +0, and a fight gets TEMPO only when it is worth something: with the +0 alone against the
    Warrior (3) the shot scores below ending the turn; with its whole hand against his +0 it shoots."""
    full = (0, 1, 2, 2, 3, 3, 4, 5, 6)
    for hands, worth in ((((0,), (0,)), False), (((0,), full), True)):
        s = build({"yTH": "a4", "bWA": "a3", "bMK": "d2"}, {"yBW": "@yTH"}, ap=(0, 3), active="Y", combat=True,
                  cards=hands)
        assert "shoot yTH bWA" in legal_texts(s, "Y")
        seen = _Seen(CARDS.view(s, "Y"), "Y")
        assert (GreedyBot().score(seen, "shoot yTH bWA") > GreedyBot().score(seen, "end")) == worth, hands


def test_CG_EXIT_01_CG_BLOCK_01_it_stops_a_treasure_carrier_about_to_leave():
    """pt28b F7: a Paladin carrying the Treasure stood a step from Yellow's start zone, his exit worth 2 VP and the
    game; the bot spent its turn on rotations and steps away, and he walked out. Here Yellow has 1 AP: the Troll on
    Y1 can turn to face b4 and block the Paladin's exit (CG-BLOCK-01), or the Warrior can finish the wounded
    Mechanork (1 VP). The bot of before took the point (a block was worth at most half a turn's walk); now an enemy
    who can leave with the AP his side will have (`_Seen.menace`) is worth what he would score, and it blocks: Blue
    has no exit left. A wounded carrier is no menace (he acts no more, CG-AP-02), nor one farther than Blue's AP."""
    s = build({"bPA": "b4", "bMK": ("c3", {"wounded": True}), "yTR": "Y1>a4", "yWA": "c3"}, {"bTS": "@bPA"},
              ap=(0, 1), active="Y", vp=(1, 0), combat=True)
    seen = _Seen(CARDS.view(s, "Y"), "Y")
    assert seen.target == 2 and seen.menace(seen.figs["bPA"]) == seen.exit_worth(seen.figs["bPA"]) == 12 * 100
    assert choices(s, "Y") == Counter({"move yTR ^b4": 20})
    blocked = act(act(s, "move yTR ^b4", "Y"), "end", "Y")
    exits = [t for t in legal_texts(blocked, "B") if t.startswith("move bPA") and t.endswith(("Y1", "Y2"))]
    assert blocked.to_act[0] == "B" and not exits
    wounded = build({"bPA": ("b4", {"wounded": True}), "yTR": "Y1>a4"}, {"bTS": "@bPA"}, ap=(0, 1), active="Y")
    seen = _Seen(CARDS.view(wounded, "Y"), "Y")
    assert seen.menace(seen.figs["bPA"]) == 0.0
    far = build({"bPA": "b1", "yTR": "Y1>a4"}, {"bTS": "@bPA"}, ap=(0, 1), active="Y")
    seen = _Seen(CARDS.view(far, "Y"), "Y")
    f = seen.figs["bPA"]
    assert seen.ap_out(f, "b1") > 3 and seen.menace(f) == 0.0  # Blue keeps no AP: 3 next turn


def test_CG_ITEM_03_a_rope_in_a_friends_hand_is_as_near_as_one_on_his_floor():
    """F17's root (cbot28's report): for a figure with no way out, a Rope or a Key it lacks lying free was a goal
    (`_Seen.astray`: a place where a way may open), one in a friend's hand was not; so a stuck side's values changed
    with every pick-up and drop, and the Thief passed the Rope, the Key and the Bow round, each move a gain. Three
    Yellow figures block a4, b4 and c4 (CG-BLOCK-01): a Mechanork's one way out is over d4's pit, with a Rope from
    c4 or d4. The Rope on c4 is a goal (0 steps) whether it lies there or the Warrior there holds it (CG-ITEM-03: he
    hands it over as it passes); an enemy's is none (c4 is then a step from the rotation zone d4); and one on c3,
    from where it opens no way, is none either."""
    blockers = {"yWA": "Y1>a4", "yMK": "Y1>b4", "ySN": "Y2>c4"}
    steps = {}
    for holder, rope in (("bWA", "c4"), ("bWA", "@bWA"), ("yGB", "@yGB"), ("bWA", "c3")):
        s = build({"bMK": "a1", holder: rope if rope[0] != "@" else "c4", **blockers}, {"bRP": rope}, ap=(3, 0))
        seen = _Seen(CARDS.view(s, "B"), "B")
        where = "c3" if rope == "c3" else "c4"
        steps[rope] = seen._astray_map(seen.abilities(seen.figs["bMK"])).get(zone_from(where))
    assert steps == {"c4": 0, "@bWA": 0, "@yGB": 1, "c3": 3}, steps
    blockers["yTR"] = "Y2>d4"  # no way out for Blue: the Warrior's Rope opens none, and dropping it gains nothing
    s = build({"bMK": "b3", "bWA": "c3", **blockers}, {"bRP": "@bWA"}, ap=(3, 0))
    seen = _Seen(CARDS.view(s, "B"), "B")
    assert seen.stuck() and GreedyBot().score(seen, "move bWA -bRP") < 0


def test_CG_MOVE_a_long_way_out_is_better_than_none():
    """cbot28's report: a figure with no way out was reckoned FAR = 8 AP from it, but a slow figure's real way is
    often longer (a Golem's, move 1, 12 AP in a standard maze), and from a start position the way was cut to FAR:
    so entering the maze onto a long way looked like a loss, and Yellow's Golem kept to its start zone (standard
    mutual game 7, capped). The Colossus (move 1) on B1 here has one way, 10 AP: by B2 facing c1 (c1 9, then d1,
    d2, d3 ...; b1 and a1 are farther and d1's south wall closes it from B2). The bot of before ended its turn or
    drew a try (its side `stuck`); now no way counts more than any way (`_Seen.far`: 4 AP over two columns' walk)
    and it steps to B2 facing c1, every draw."""
    from dungeon_twister.engine.tools.card_bots import FAR

    s = build({"bCO": "B1>a1", "yMK": "Y1>a4"}, ap=(3, 0), jumps=(0, 0))
    seen = _Seen(CARDS.view(s, "B"), "B")
    colossus = seen.figs["bCO"]
    assert seen.ap_out(colossus, "B1", "a1") == 10 > FAR and seen.ap_out(colossus, "B2", "c1") == 9
    assert seen.far(colossus) == 2 * 4 + 4 > seen.ap_out(colossus, "b2") == seen.far(colossus) - 0.5  # (b2: 13)
    assert not seen.stuck()
    assert choices(s, "B") == Counter({"move bCO B2^c1": 20})


def test_CG_BLOCK_01_a_facing_turned_away_last_turn_costs_turning_back():
    """cbot28's report, standard mutual game 7: a Golem on its start zone turned from a7 to a8 and back every turn,
    each time for a block a little better after the enemy's steps, so its turns counted as gaining and it never
    grew impatient. The bot remembers the start positions and facings its figures turned away from, this turn and
    the one before, and coming back costs TURNED_BACK. Blue's Troll on B1 turns from a1 to b1 as Yellow's
    Warrior comes to b1; Yellow's steps to a2: turning back to a1, a gain by the view alone, costs TURNED_BACK."""
    from dungeon_twister.engine.tools.card_bots import TURNED_BACK

    s = build({"bTR": "B1>a1", "yWA": "b1"}, ap=(3, 0), turn=5)
    bot, rng = GreedyBot(), Rng(1)
    assert bot.choose(CARDS.view(s, "B"), legal_texts(s, "B"), rng) == "move bTR ^b1"
    s = act(act(act(s, "move bTR ^b1"), "end"), "move yWA a1 a2", "Y")
    s = act(s, "end", "Y")
    view, legal = CARDS.view(s, "B"), legal_texts(s, "B")
    assert view["turn"] == 7 and view["active"] == "B"
    fresh = GreedyBot().score(_Seen(view, "B"), "move bTR ^a1")
    assert fresh > 0  # a gain, for a bot without the memory
    bot.choose(view, legal, rng)  # (its memory of the turn before, kept)
    assert bot.score(_Seen(view, "B"), "move bTR ^a1") == fresh - TURNED_BACK

def test_CG_TURN_a_turn_that_comes_back_to_a_board_it_started_from_gains_nothing():
    """Two greedy bots (tutorial 2 seed 2): a Colossus walked to whichever exit the other side's Colossus did not
    block, and that one turned to block it, for 400 actions; both sides gained every turn, so neither grew
    impatient (IMPATIENT). A turn that gained but whose board (figures, objects, rooms, AP) the bot's turn had
    started from within its last LOOP turns went round: it counts as idle."""
    from dungeon_twister.engine.tools.card_bots import LOOP

    s = build({"bTR": "B1>a1", "yWA": "b1"}, ap=(3, 0), turn=5)
    t = build({"bTR": "B1>b1", "yWA": "a1"}, ap=(3, 0), turn=5)
    bot, idle = GreedyBot(), []
    for turn, board in zip(range(5, 5 + 2 * (LOOP + 2), 2), [s, t] * (LOOP + 2)):
        view = CARDS.view(board.but(turn=turn), "B")
        assert bot.choose(view, ["move bTR ^a1", "move bTR ^b1"], Rng(turn)) == ("move bTR ^b1" if board is s else
                                                                                "move bTR ^a1")  # a block: a gain
        idle.append(bot._memories["B"]["_idle"])
    assert idle == [0, 0, 1, 2, 3, 4], idle  # from the third turn on: the board of two turns before


def test_CG_ITEM_01_03_the_bot_foresees_the_position_each_move_leads_to():
    """The position a move leads to (`_moved`: places, facings, loads, objects on the floor), as the bot foresees
    it from the view, is the engine's, for every move offered in built positions with exchanges, a wounded friend
    carried and a Key on a start position, and in a bench game (tutorial 3 game 1)."""
    from dungeon_twister.engine.tools.card_bots import _moved, _position

    positions = [
        build({"bWA": "c3", "bSN": "c3", "yMK": "a1"}, {"bSH": "@bWA", "yRP": "c3"}, ap=(3, 0)),
        build({"bWA": "d1", "bMK": "d2", "yMK": "a4"}, {"bSH": "d1", "yAR": "d2"}, ap=(3, 0)),
        build({"bWA": "c3", "bMK": ("c3", {"wounded": True}), "bPA": "d3", "yMK": "a1"},
              {"bSH": "@bWA", "bTS": "d3", "bSW": "@bPA"}, ap=(3, 0)),
        build({"bTR": "B1>a1", "bWA": "a1", "yWA": "b1"}, {"bKY": "B1", "bSW": "@bWA"}, ap=(3, 0)),
        _played(CardOptions(3), 1, TUTORIAL3_GAME1),
    ]
    checked = 0
    for s in positions:
        seat = s.to_act[0]
        view = CARDS.view(s, seat)
        here, seen = _position(view), _Seen(view, seat)
        for text in legal_texts(s, seat):
            words = text.split()
            if words[0] not in ("move", "jump", "wallwalk"):
                continue
            foreseen = _moved(here, seen.figs, seen.holder, seen.figs[words[1]], words)
            if foreseen is not None:  # (None: an exit)
                assert foreseen == _position(CARDS.view(act(s, text, seat), seat)), text
                checked += 1
    assert checked > 1000


def test_CG_TURN_a_move_back_to_a_position_seen_lately_gains_nothing():
    """Bench game standard mutual 38 (capped): Blue had no way out (CG-BLOCK-01), and its tries dropped objects
    that its next moves took again, each pick-up a gain as the values shifted with the loads, so its turns all
    gained and it never grew impatient: 1,500 actions of juggling. Four Yellow blockers leave Blue's Warrior no
    way out; from b1 the rotation zone a1 is a step nearer where one may open (+3). The bot stood on a1 last turn
    and a try took it to b1: back on a1, the position it saw (the enemy where he was) gains nothing, and it is not
    a try either. A bot without the memory goes back; and so does this one once Yellow's Goblin has moved."""
    from dungeon_twister.engine.tools.card_bots import REVISITED

    blockers = {"yWA": "Y1>a4", "yMK": "Y1>b4", "ySN": "Y2>c4", "yTR": "Y2>d4", "yGB": "d2"}
    s = build({"bWA": "a1", **blockers}, ap=(3, 0), turn=5)
    for moved in (False, True):
        bot, rng = GreedyBot(), Rng(7)
        assert bot.choose(CARDS.view(s, "B"), ["move bWA b1"], rng) == "move bWA b1"  # its try
        t = act(act(s, "move bWA b1"), "end")
        if moved:
            t = act(t, "move yGB d3", "Y")
        t = act(t, "end", "Y")
        view, legal = CARDS.view(t, "B"), legal_texts(t, "B")
        seen = _Seen(view, "B")
        assert seen.stuck() and GreedyBot().score(seen, "move bWA a1") == 3.0
        chosen = {GreedyBot().choose(view, legal, Rng(seed)) for seed in range(12)}
        assert chosen == {"move bWA a1"}, chosen
        kept = bot._memories["B"]
        chosen = set()
        for seed in range(12):
            b = GreedyBot()
            b._memories["B"] = {**kept, "_visited": dict(kept["_visited"])}
            chosen.add(b.choose(view, legal, Rng(seed)))
        if moved:
            assert chosen == {"move bWA a1"}, chosen
        else:
            assert "move bWA a1" not in chosen and "end" in chosen, chosen
            assert REVISITED <= 0


def test_CG_ITEM_01_03_a_stuck_sides_tries_carry_no_objects():
    """The same juggling's other half: a side with no way out, nothing gaining, tries a move, a jump or a turn
    half the time, and its tries took, dropped and handed objects at random (a Telekinetic's Bow and Key, a
    wounded Cleric, standard mutual 38 and tutorial 3 48). Its tries now leave objects where they are."""
    blockers = {"yWA": "Y1>a4", "yMK": "Y1>b4", "ySN": "Y2>c4", "yTR": "Y2>d4"}
    s = build({"bWA": "a1", **blockers}, {"bSW": "@bWA", "bSH": "a1", "bAR": "b1"}, ap=(3, 0))
    view, legal = CARDS.view(s, "B"), legal_texts(s, "B")
    seen = _Seen(view, "B")
    assert seen.stuck() and max(GreedyBot().score(seen, t) for t in legal) <= 0  # nothing gains
    assert "move bWA -bSW b1" in legal and "move bWA +bSH b1 +bAR c1" in legal
    chosen = Counter(GreedyBot().choose(view, legal, Rng(seed)) for seed in range(40))
    tries = [t for t in chosen if t != "end"]
    assert len(tries) >= 5 and not [t for t in tries if any(w[0] in "+->" for w in t.split()[2:])], chosen


def test_CG_REVEAL_01_an_enemys_way_through_a_face_down_room_is_no_sure_exit():
    """cbot29's report: the menace of an enemy's exit (`_Seen.menace`, pt28b F7) took a face-down room on his way
    as open, so the bot blocked, fought and hunted a runner that could not know his way. Now his way counts in full
    only by revealed rooms; through a face-down room, which his side must reveal first (an AP, CG-REVEAL-01) and
    may find closed, it counts UNSEEN of his exit if the AP he will have still reach. Blue's Snake-man with the
    Treasure (2 VP, the game) on b2, rooms C and D face down: with no AP kept (3 next turn) his hoped way (2.5 AP)
    and the reveal are beyond them; with 3 kept, it is a half menace. With room D revealed he has a known way
    round by d3, 3 AP: a full one, as before."""
    from dungeon_twister.engine.tools.card_bots import UNSEEN

    worth = {}
    for kept, revealed in ((0, (True, True, False, False)), (3, (True, True, False, False)),
                           (0, (True, True, False, True))):
        s = build({"bSN": "b2", "yTR": "Y1>a4", "yWA": "d1"}, {"bTS": "@bSN"}, ap=(kept, 3), active="Y",
                  vp=(1, 0), revealed=revealed)
        seen = _Seen(CARDS.view(s, "Y"), "Y")
        runner = seen.figs["bSN"]
        assert seen.exit_worth(runner) == 12 * 100 and seen.ap_out(runner, "b2") == 2.5
        worth[kept, revealed[3]] = seen.menace(runner) / seen.exit_worth(runner)
    assert worth == {(0, False): 0.0, (3, False): UNSEEN, (0, True): 1.0}, worth


def test_CG_EXIT_01_CG_END_01_its_last_figure_does_not_leave_unless_that_wins():
    """Bench games standard mutual 12, full 35 and 37 (capped): the bot took every exit offered, its last unwounded
    figures too, and its side was left with wounded characters or none: it could never score again (a wounded
    character acts no more, CG-AP-02), and the old bot never took its own last points, so the game ran to the cap
    with the bot ahead or level. The game ends only at a target (CG-END-01): an exit that does not reach it and
    leaves no unwounded friend gives up every chance to. Blue's Snake-man on b4, his wounded Mechanork on c3: he
    stays (and goes for the wounded Yellow Warrior's point); with the Mechanork unwounded, or when the exit's VP
    win the game (target 2, 1 VP held), he leaves."""
    from dungeon_twister.engine.tools.card_bots import VP

    for friend_wounded, vp, leaves in ((True, 0, False), (False, 0, True), (True, 1, True)):
        s = build({"bSN": "b4", "bMK": ("c3", {"wounded": friend_wounded}), "yTR": "Y1>a4",
                   "yWA": ("d2", {"wounded": True})}, ap=(3, 0), vp=(vp, 0))
        seen = _Seen(CARDS.view(s, "B"), "B")
        assert seen.target == 2 and "move bSN Y1" in legal_texts(s, "B")
        chosen = choices(s, "B", 12)
        assert (chosen == Counter({"move bSN Y1": 12})) == leaves, (friend_wounded, vp, chosen)
        assert (GreedyBot().score(seen, "move bSN Y1") == -VP) == (not leaves)


def bot_idle(idle: int, seat: str = "B") -> GreedyBot:
    """A greedy bot whose memory counts `idle` turns of its own in a row that gained nothing."""
    bot = GreedyBot()
    bot._memories[seat] = {**GreedyBot._fresh_memory(), "_idle": idle}
    return bot


def test_CG_EXIT_01_CG_END_01_a_last_figure_that_waits_for_nothing_takes_its_exit():
    """Bench game standard mutual 65 ran to the cap: Yellow's last unwounded figure, a Warrior walled in by b1 and
    c1 with his wounded Wizard on his back, 3 VP to Blue's 4 (target 5), waited rather than take an exit that does
    not win (the test above), while the old bot shot +0 against +0 at him for ever. After LAST_EXIT_IDLE of its
    turns in a row that gained nothing, waiting is worth nothing: the exit banks its point and ends the standoff
    (DT-239's end counts the VP). Blue's Snake-man on b4, his Mechanork wounded: fresh, he walks on; one turn
    short of LAST_EXIT_IDLE idle, he ends his turn; at it, he leaves. Edge: a last figure whose block on its start
    zone (CG-BLOCK-01) stops an enemy's exit keeps waiting, since leaving lets him out; facing another zone, it
    does not."""
    s = build({"bSN": "b4", "bMK": ("c3", {"wounded": True}), "yTR": "Y1>a4"}, ap=(3, 0), vp=(0, 0))
    assert _Seen(CARDS.view(s, "B"), "B").target == 2 and "move bSN Y1" in legal_texts(s, "B")
    chosen = {}
    for idle in (0, LAST_EXIT_IDLE - 1, LAST_EXIT_IDLE):
        chosen[idle] = Counter(bot_idle(idle).choose(CARDS.view(s, "B"), legal_texts(s, "B"), Rng(seed))
                               for seed in range(12))
    assert chosen[LAST_EXIT_IDLE] == Counter({"move bSN Y1": 12}), chosen
    assert not any(t.endswith(("Y1", "Y2")) for idle in (0, LAST_EXIT_IDLE - 1) for t in chosen[idle]), chosen
    for facing, waits in (("c1", True), ("d1", False)):
        s = build({"bSN": f"B2>{facing}", "bMK": ("c3", {"wounded": True}), "yTR": "c2"}, ap=(3, 0))
        seen = _Seen(CARDS.view(s, "B"), "B")
        bot = bot_idle(LAST_EXIT_IDLE)
        bot.__dict__.update(bot._memories["B"])
        assert bot._deadlocked(seen, seen.figs["bSN"]) is not waits, facing
