"""The card game's greedy bot (engine/tools/card_bots.py GreedyBot) in built positions (builders.py's maze): it
takes the fights its values and hand favour and declines the others, leaves by a scoring exit with what scores,
opens its way, places a revealed room's characters where they serve it, and keeps its secret choices mixed. Every
draw is seeded; the checks count choices, never time."""

from __future__ import annotations

from collections import Counter

from dungeon_twister.engine.cards import CardOptions, apply, new_game, parse_action
from dungeon_twister.engine.cards.typed import legal_texts
from dungeon_twister.engine.core.rng import Rng
from dungeon_twister.engine.families import CARDS
from dungeon_twister.engine.tools.card_bots import BOTS, GreedyBot, SimpleBot, _duel, _Seen

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
    """A Mechanork with the Key on c3: the portcullis c3|c4 is his way out (he has no other): he opens it."""
    s = build({"bMK": "c3", "yWA": "a1"}, items={"bKY": "@bMK"}, ap=(3, 0))
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
