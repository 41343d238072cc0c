"""Bot players that see exactly what a human sees: their seat's view and their legal actions as text.

`choose(view, legal, rng) -> str` is pure: the server's bot seats call it with what the protocol delivered, so a
bot cannot cheat. RandomBot picks uniformly; GreedyBot prefers exits, kills and safe progress, one action at a time;
PlannerBot (the default opponent) weighs what each action changes over its turn (see its docstring).
"""

from __future__ import annotations

from array import array
from collections import deque
from functools import lru_cache
from hashlib import blake2b

from ..boardgame.catalogue import load
from ..boardgame.geometry import local_to_offset, rotate_side
from ..boardgame.movement import SHIELDS
from ..boardgame.viewsight import first_hit
from ..core.choice import Part, PartsChoice
from ..core.rng import Rng

FILES = "abcdefghij"


@lru_cache(maxsize=4096)
def _name(square: tuple[int, int]) -> str:
    return f"{FILES[square[0]]}{square[1] + 1}"


@lru_cache(maxsize=4096)
def _square(name: str) -> tuple[int, int]:
    return FILES.index(name[0]), int(name[1:]) - 1


@lru_cache(maxsize=1024)
def _index(name: str) -> int:
    """A square's number in the bots' flat maps: (y + 1) * 10 + x."""
    return int(name[1:]) * 10 + FILES.index(name[0])


_SQUARES = tuple((i % 10, i // 10 - 1) for i in range(10 * 62))


def _at(i: int) -> tuple[int, int]:
    """The square numbered i ((y + 1) * 10 + x), one tuple for all maps (a map's keys cost no memory of their own)."""
    return _SQUARES[i] if i < len(_SQUARES) else (i % 10, i // 10 - 1)


def building(view: dict) -> bool:
    """Whether the view asks its seat for a free team building (PD-TEAM-FREE-01): the legal set is too large to
    list, so the view describes it as parts (`build.parts`) and the bot composes its choice."""
    return view.get("secret") == "build" and "build" in view


def build_text(parts: list[dict], chosen: list[list[str]]) -> str:
    """The `build` text of one combination per part (in the parts' order)."""
    return "build " + " ".join(f"{part['name']}={','.join(values)}" for part, values in zip(parts, chosen))


class RandomBot:
    name = "random"

    def choose(self, view: dict, legal: list[str], rng: Rng) -> str:
        if building(view):  # uniform over every build, like a choice from the whole list
            parts = tuple(Part.from_form(form) for form in view["build"]["parts"])
            choice = PartsChoice(parts, lambda chosen: chosen, lambda _: None)
            return build_text(view["build"]["parts"], rng.choice(choice))
        return rng.choice(legal)


class GreedyBot:
    """A baseline: score every legal action with simple heuristics, take the best (ties broken at random); its
    secret choices (team, build, a combat card laid in secret) mixed among the near-best (TEAM_SLACK).

    What the game asks decides where figures head (`_plan`): out through the opponent's start zone in most games;
    in a scenario whose victory is the enemies' elimination (PR-SCEN-3-05) or the Colossus's (PR-SCEN-2-07, Blue),
    towards the enemies hunted; in PR-SCEN-2 Yellow's Colossus alone scores by leaving. Shots and lance attacks risk
    no wound (PR-RANGED-10, PR-OBJ-LANCE-04); the Banshee pushes enemies into pits; the Telepath names a low card.
    """

    name = "greedy"
    TEAM_PREFERENCE = ("TH", "WA", "TR", "GB", "CL", "WZ", "MK", "WW")
    TEAM_SLACK = 3
    """A team whose preference is within this of the best is as likely as the best; so is a combat card scored
    within CARD_SLACK of the best, and a character or object among the BUILD_SLACK after the best `count`. A bot
    whose secret choices follow from what everyone sees is read by its opponent before any reveal: its commitment
    would hide nothing (found by a review: the same team and build from 200 seeds, every card predictable)."""
    CARD_SLACK = 2
    BUILD_SLACK = 3

    def choose(self, view: dict, legal: list[str], rng: Rng) -> str:
        seat = view["viewer"]
        self._cache = {}  # distances and the plan are computed once per decision
        if building(view):
            return self._build(view, rng)
        if view["phase"] == "team":
            scores = [self._team_score(a) for a in legal]
            good = max(scores) - self.TEAM_SLACK
            return rng.choice([a for a, score in zip(legal, scores) if score >= good])
        if (view.get("secret") or "").startswith("combat"):  # a card laid in secret: a mixed choice
            scores = [self.score(view, seat, a) for a in legal]
            good = max(scores) - self.CARD_SLACK
            return rng.choice([a for a, score in zip(legal, scores) if score >= good])
        best_score, best, safe = None, [], []
        for action in legal:
            score = self.score(view, seat, action)
            if best_score is None or score > best_score:
                best_score, best = score, [action]
            elif score == best_score:
                best.append(action)
            if score > -5 and action.startswith(("move ", "rotate ")):
                safe.append(action)
        if best_score <= 0 and safe and rng.below(2):
            return rng.choice(safe)  # nothing gains: step aside or turn a room, which may open a way
        return rng.choice(best)

    def _team_score(self, action: str) -> int:
        codes = [w.split("=")[1] for w in action.split()[1:] if "=" in w and not w.startswith("out=")]
        return -sum(self.TEAM_PREFERENCE.index(c) for c in codes if c in self.TEAM_PREFERENCE)

    def _plan(self, view: dict, seat: str) -> tuple[frozenset[str] | None, frozenset[str]]:
        """(codes of my figures that score by leaving, None for all of them; ids of the enemies hunted), from the
        scenario's victory data (prison.json "setup")."""
        if "plan" in self._cache:
            return self._cache["plan"]
        leaving: frozenset[str] | None = None
        hunted: frozenset[str] = frozenset()
        scenario = load(view["set"]).scenarios.get(view["scenario"]) if view.get("scenario") else None
        if scenario is not None:
            victory = scenario["victory"]
            enemies = [t for t in view["tokens"] if t["id"] and t["character"] and t["colour"] != seat]
            if seat in scenario.get("no_exit", ()):
                leaving = frozenset()
            if victory["kind"] == "colossus":
                if victory["seat"] == seat:
                    leaving = frozenset({victory["code"]})
                else:
                    hunted = frozenset(t["id"] for t in enemies if t["code"] == victory["code"])
            elif victory["kind"] == "eliminations":
                hunted = frozenset(t["id"] for t in enemies)
        self._cache["plan"] = (leaving, hunted)
        return leaving, hunted

    def score(self, view: dict, seat: str, action: str) -> float:
        words = action.split()
        verb = words[0]
        cat = load(view["set"])
        tokens = {t["id"]: t for t in view["tokens"] if t["id"]}
        goal_y = 5 * view["rows"] if seat == "B" else -1
        leaving, hunted = self._plan(view, seat)

        def strength(tid: str, attacking: bool) -> int:
            t = tokens.get(tid)
            if t is None or t["wounded"]:
                return 0
            value = cat.characters[t["code"]].combat
            for other in view["tokens"]:
                if other["square"] == t["square"] and other["id"] and not other["character"]:
                    kind = cat.objects[other["code"]]
                    value += kind.attack_bonus if attacking else kind.defend_bonus
            return value

        if verb == "card":
            return int(words[1])  # more AP is better
        if verb == "pick":  # PD-TEAM-MUTUAL: both teams get it, so what helps the one who moves and fights best
            return self._pick_score(cat, words[1])
        if verb == "combat":
            return self._card_score(view, seat, int(words[1]), strength, max(cat.combat_cards, default=0))
        if verb == "end":
            return 0.0
        if verb == "mind":  # PR-CHAR-TELEPATH-01: a low card named is a low card forced, or the hand shown
            return 0.0 if words[1] == "none" else 10.0 - int(words[1])
        if verb in ("attack", "shoot", "lance"):
            me, them = view["players"][seat], view["players"]["Y" if seat == "B" else "B"]
            my_best = max(me["combat_cards"]) if me["combat_cards"] else 0
            their_best = 0 if them["combat_cards"] <= 1 else 3  # only the +0 left, or a guess
            target = tokens.get(words[2])
            if verb == "shoot":  # PR-RANGED-04: the shooters fight with their bows' values
                shooters = [words[1], *(w[1:] for w in words[3:])]
                margin = sum(self._ranged(view, cat, t) for t in shooters) - strength(words[2], False)
            else:
                margin = strength(words[1], True) - strength(words[2], False)
            hunt = 20 if words[2] in hunted else 0
            if margin + my_best - their_best <= 0:
                return (-2.0 if verb == "shoot" else -5.0) + margin  # a tie or a loss is likely
            if verb != "attack" or (target and target["wounded"]) or margin >= 2 or hunt:
                return 50 + hunt + margin * 10  # a shot or a lance attack risks no wound
            return -5 + margin
        if verb == "push":  # PR-CHAR-BANSHEE: an enemy pushed into a pit dies
            return self._push_score(view, seat, tokens, words[1], words[2])
        if verb in ("fireball", "breathe"):  # PD-CHAR-DRAGON-01: the same effect, as often as AP allow
            return 40.0 if self._fireball_hits_enemy(view, seat, words[1], words[2]) else -50.0
        if verb == "steal":  # PD-CHAR-PICKPOCKET-01
            return 12.0
        if verb == "fountain":  # PD-TERR-FOUNTAIN-02: healed, and free to act at once
            return 9.0
        if verb in ("charm", "teleport", "illusion"):
            return -2.0  # not worth it to a greedy player, but never refused
        if verb in ("smash", "dispel"):
            return -1.0  # only when stuck (see choose)
        if verb == "reveal":
            return 30.0
        if verb in ("drink", "regenerate", "heal"):
            return 8.0
        if verb in ("break", "open"):
            return 3.0
        if verb in ("rotate", "close"):
            return -1.0  # only when stuck (see choose)
        if verb in ("move", "wallwalk", "jump"):
            token = tokens.get(words[1])
            dest = _square(words[-1] if verb == "jump" else words[2].split("-")[-1])
            if token is None:
                return 0.0
            if _name(dest) in view.get("terrain", {}).get("rockfall", ()):  # PD-TERR-ROCKFALL: whoever ends there dies
                return 60.0 if token["colour"] != seat else -200.0
            leaves = leaving is None or token["code"] in leaving
            if dest[1] == goal_y and leaves:
                return 100.0 + (20 if "+" in action or "TS" in action else 0)
            hunting = bool(hunted) and not leaves
            crossing = self._crossing_now(view, load(view["set"]), token)
            distance = self._distances(view, goal_y, hunted if hunting else frozenset(), crossing)
            start = _square(token["square"])
            far = 5 * view["rows"] + 12
            progress = distance.get(start, far) - distance.get(dest, far)
            danger = self._danger(view, seat, dest, strength(words[1], False))
            carried = self._carried(view, token)
            takes = any(w.startswith("+") for w in words)
            bonus = 6 if not carried and any(w.startswith("+") and self._lying_free(view, w[1:]) for w in words) \
                else 0
            if carried and not takes and any(w.split("@")[0] in carried for w in words if "@" in w):
                bonus -= 6  # what it carried, left for nothing: as much lost as a pick-up gains (no drop and take)
            return progress * 2 + bonus - danger * 15 - (3 if verb == "jump" else 0)
        if verb in ("place", "hide", "pass"):
            return 1.0
        return 0.0

    OBJECT_PREFERENCE = ("SW", "SP", "FW", "RP", "AR", "TS", "KY", "DS", "RG", "FH", "BW", "SH", "LN", "FS", "CH")

    def _build(self, view: dict, rng: Rng) -> str:
        """PD-TEAM-FREE: characters and objects (one copy of each) drawn among the best liked by the draft's
        liking, BUILD_SLACK more than it needs, and two pairs at random."""
        cat = load(view["set"])
        chosen = []
        for part in view["build"]["parts"]:
            ranked = sorted(part["values"], key=lambda v: (-self._pick_score(cat, v), rng.below(1 << 20)))
            pool = ranked[:part["count"] + self.BUILD_SLACK]
            rng.shuffle(pool)
            best = set(pool[:part["count"]])
            chosen.append([v for v in part["values"] if v in best])
        return build_text(view["build"]["parts"], chosen)

    def _pick_score(self, cat, value: str) -> float:
        """A draft pick: a character by its movement and combat, an object by a fixed liking, any room pair alike."""
        if value in cat.characters:
            kind = cat.characters[value]
            return 2.0 * kind.move + kind.combat + 2.0 * (kind.exit_vp - 1)
        if value in cat.objects:
            order = self.OBJECT_PREFERENCE
            return float(len(order) - order.index(value)) if value in order else 0.0
        return 0.0

    @staticmethod
    def _carried(view: dict, mover: dict) -> set[str]:
        """What the mover carries (an object, a wounded friend: BG-ITEM-01). Picking up then means a swap, which
        gains nothing by itself, and leaving it empty-handed loses what a pick-up gains. Without these the bot
        swapped what it carried for what lay beside it and back, or left its Rope and took it again, move after
        move (a play-test): each pick-up of something lying free scored 6."""
        return {t["id"] for t in view["tokens"] if t["square"] == mover["square"] and t["id"] != mover["id"]
                and t["id"] and (not t["character"] or (t["wounded"] and t["colour"] == mover["colour"]))}

    @staticmethod
    def _lying_free(view: dict, item: str) -> bool:
        """An object on a square with no figure: picking it up gains something (not a hand-over)."""
        square = next((t["square"] for t in view["tokens"] if t["id"] == item), None)
        return square is not None and not any(
            t["square"] == square and t["character"] and not t["wounded"] for t in view["tokens"])

    @staticmethod
    def _ranged(view: dict, cat, tid: str) -> int:
        """The ranged value of what the figure carries (the Bow: PR-OBJ-BOW-02)."""
        square = next((t["square"] for t in view["tokens"] if t["id"] == tid), None)
        return sum(cat.objects[t["code"]].ranged for t in view["tokens"]
                   if square and t["square"] == square and t["id"] and t["character"] is False)

    @staticmethod
    def _push_score(view: dict, seat: str, tokens: dict, banshee: str, target: str) -> float:
        """PR-CHAR-BANSHEE-01/03: the person is pushed one square away from the Banshee; into a pit it dies."""
        me, them = tokens.get(banshee), tokens.get(target)
        if me is None or them is None:
            return -1.0
        (x0, y0), (x1, y1) = _square(me["square"]), _square(them["square"])
        dx, dy = (x1 > x0) - (x1 < x0), (y1 > y0) - (y1 < y0)
        into_pit = 0 <= x1 + dx < 10 and f"{FILES[x1 + dx]}{y1 + dy + 1}" in view["pits"]
        if them["colour"] == seat:
            return -20.0 if into_pit else -2.0
        return 60.0 if into_pit else -1.0

    def _card_score(self, view, seat, value, strength, highest: int) -> float:
        combat = view["combat"]
        if combat is None:
            return -value
        attacking = combat["attacker"][0].upper() == seat  # its colour: a charmed attacker's owner plays (DT-117)
        first = combat.get("first")
        if first and first["seat"] != seat and first["card"] is not None:  # PD-CHAR-WMASTER-01: their card is shown
            totals = combat["totals"]
            ours = totals["attack" if attacking else "defence"]
            theirs = totals["defence" if attacking else "attack"] + first["card"]
            needed = theirs - ours + (1 if attacking else 0)  # a tie wounds nobody (BG-COMBAT-05)
            if needed <= 0:
                return -value
            return -abs(value - needed) if value >= needed else -value - 20  # cannot win: the smallest card
        mine = combat["attackers"] if attacking else combat["defenders"]
        theirs = combat["defenders"] if attacking else combat["attackers"]
        margin = sum(strength(t, attacking) for t in mine) - sum(strength(t, not attacking) for t in theirs)
        if attacking:  # a card that wins whatever the defender lays (his highest at most: a tie wounds nobody,
            # and an attacker who loses is wounded): the smallest such card, above any mixed guess (play-test pt27
            # F5: a Thief, 2, against a wounded Warrior, 0, laid +1 with +5 in hand, lost to +6 and was wounded)
            their_cards = view["players"]["Y" if seat == "B" else "B"]["combat_cards"]
            beyond = margin - (highest if their_cards > 1 else 0)  # (the +0 never leaves a hand, BG-COMBAT-10:
            # down to one card, the defender holds the +0 alone; review rv27)
            if beyond + max(view["players"][seat]["combat_cards"]) > 0:
                return 100.0 - value if beyond + value > 0 else -value - 20
        needed = 3 - margin  # expect the opponent to play about +3
        if needed <= 0:
            return -value  # already winning: spend the smallest card
        return -abs(value - needed) if value >= needed else value - 10

    def _distances(self, view: dict, goal_y: int, hunted: frozenset[str] = frozenset(),
                   crossing: frozenset[str] = frozenset()) -> dict[tuple[int, int], int]:
        """Steps from every open square to the goal (the opponent's start zone, or the squares of the enemies
        hunted), or to a face-down room's border, for a figure that crosses `crossing` (`_crossing`)."""
        key = ("distance", hunted, crossing)
        if key not in self._cache:
            self._cache[key] = self._open_map(view, goal_y, hunted, crossing)
        return self._cache[key]

    BARRIERS = ("crevasses", "obstacles", "fountains", "rockfall")
    """The Paladins & Dragons terrain no walker stops on and only some cross (movement.Walker: `barriers`, and
    Rockfall, where an unprotected walker's move ends and it dies): none of it is a way in the bots' maps but for a
    figure that crosses it (`_crossing`)."""

    @staticmethod
    def _crossing(view: dict, cat, token: dict, carried) -> frozenset[str]:
        """What P&D terrain this figure crosses, carrying `carried`, as the engine's walker lets it
        (movement.Walker.may_enter and trapped): with wings or as the Ghost, crevasses, 3D obstacles, fountains and
        Rockfall (PD-TERR-CREVASSE-01, PD-GLOS-03, PD-TERR-ROCKFALL-04), and the Ghost rubble (PD-CHAR-ILLUS-04);
        with a Rope, a crevasse ("rope": one at a time, PD-ROPE-01..03, PD-TERR-CREVASSE-04); with a shield,
        Rockfall (PD-TERR-ROCKFALL-01/03). Never more than the engine allows: a shield lying on Rockfall
        (PD-TERR-ROCKFALL-06) and an Illusionist's own markers are left out."""
        if "terrain" not in view and "illusions" not in view:
            return frozenset()
        kind = cat.characters.get(token["code"])
        if kind is None:
            return frozenset()
        _, _, flyer, _, _, incorporeal, no_carry = kind.gait
        out = set()
        if flyer or incorporeal:
            out.update(("crevasses", "obstacles", "fountains", "rockfall"))
        if incorporeal:
            out.add("rubble")
        if carried and not no_carry:
            for t in view["tokens"]:
                if t["id"] in carried and not t["character"] and t["code"] in cat.objects:
                    obj = cat.objects[t["code"]]
                    if obj.rope:
                        out.add("rope")
                    if not SHIELDS.isdisjoint(obj.abilities):
                        out.add("rockfall")
        return frozenset(out)

    def _crossing_now(self, view: dict, cat, token: dict) -> frozenset[str]:
        """`_crossing` of a figure with what it carries in the view (kept for the decision)."""
        if "terrain" not in view and "illusions" not in view:
            return frozenset()
        key = ("crossing", token["id"])
        if key not in self._cache:
            self._cache[key] = self._crossing(view, cat, token, self._carried(view, token))
        return self._cache[key]

    @staticmethod
    def _barrier_squares(view: dict, crossing: frozenset[str] = frozenset()) -> list[str]:
        """The squares of P&D terrain (BARRIERS) and illusion rubble a figure crossing `crossing` cannot enter."""
        terrain = view.get("terrain", {})
        out = [p for kind in GreedyBot.BARRIERS if kind not in crossing
               and not (kind == "crevasses" and "rope" in crossing) for p in terrain.get(kind, ())]
        if "rubble" not in crossing:
            out += [p for p, _, k in view.get("illusions", ()) if k == "rubble"]
        return out

    @staticmethod
    def _open_map(view: dict, goal_y: int, hunted: frozenset[str] = frozenset(),
                  crossing: frozenset[str] = frozenset()) -> dict[tuple[int, int], int]:
        """`_distances` computed (no cache): breadth first from the goals (0) and the face-down rooms' borders (8)
        over squares numbered (y + 1) * 10 + x; P&D terrain only where the figure crosses it (`_crossing`)."""
        height = 5 * view["rows"]
        size = 10 * (height + 2)
        hidden = {r["slot"] for r in view["rooms"] if not r["revealed"]}

        index = _index
        ground = [True] * size  # open_ground: the start zones and every square of a revealed room
        for slot in hidden:
            x0, y0 = 5 * "AB".index(slot[0]), 5 * (int(slot[1:]) - 1)
            for y in range(y0, y0 + 5):
                for x in range(x0, x0 + 5):
                    ground[(y + 1) * 10 + x] = False
        enterable = list(ground)
        for p in view["pits"]:
            enterable[index(p)] = False
        for p in GreedyBot._barrier_squares(view, crossing):  # PD-GLOS-03, PD-TERR-CREVASSE-01, PD-TERR-ROCKFALL-01
            enterable[index(p)] = False
        shut = {(index(a), index(b)) for a, b, _ in view["walls"]}
        shut |= {(index(a), index(b)) for a, b, st in view["portcullises"] if st == "closed"}
        shut |= {(index(a), index(b)) for a, b in view.get("slits", ())}  # PR-SLIT-02
        if "rope" in crossing and "crevasses" not in crossing:  # PD-ROPE-03: never from a crevasse onto another
            crevasses = {index(p) for p in view.get("terrain", {}).get("crevasses", ())}
            shut |= {(i, n) for i in crevasses for n in (i - 1, i + 1, i - 10, i + 10) if n in crevasses}
        shut |= {(b, a) for a, b in shut}
        distance = [-1] * size
        if hunted:
            goals = [index(t["square"]) for t in view["tokens"] if t["id"] in hunted and t["square"]]
        else:
            goals = [(goal_y + 1) * 10 + x for x in range(10)]
        for i in goals:
            distance[i] = 0
        later = []
        if hidden:  # a face-down room is worth walking to: it can be revealed
            for i in range(10, size - 10):
                if ground[i] and distance[i] < 0:
                    x = i % 10
                    if (x < 9 and not ground[i + 1]) or (x > 0 and not ground[i - 1]) or \
                            (i + 10 < size - 10 and not ground[i + 10]) or (i - 10 >= 10 and not ground[i - 10]):
                        later.append(i)
        frontier, d = goals, 0
        while frontier or later:
            if d == 8:
                for i in later:
                    if distance[i] < 0:
                        distance[i] = 8
                        frontier.append(i)
                later = []
            following = []
            for i in frontier:
                x = i % 10
                for n in (i - 1 if x else -1, i + 1 if x < 9 else -1, i - 10 if i >= 10 else -1,
                          i + 10 if i + 10 < size else -1):
                    if n >= 0 and distance[n] < 0 and enterable[n] and (i, n) not in shut:
                        distance[n] = d + 1
                        following.append(n)
            frontier, d = following, d + 1
        return {_at(i): value for i, value in enumerate(distance) if value >= 0}

    def _danger(self, view, seat, square, my_strength) -> int:
        scenario = load(view["set"]).scenarios.get(view["scenario"]) if view.get("scenario") else None
        if scenario is not None and scenario.get("no_combat"):
            return 0  # PR-SCEN-1-05: nobody attacks
        enemies = [t for t in view["tokens"] if t["colour"] != seat and t["id"] and t["character"]
                   and not t["wounded"]]
        cat = load(view["set"])
        for enemy in enemies:
            x, y = _square(enemy["square"])
            if abs(x - square[0]) + abs(y - square[1]) <= 2 and cat.characters[enemy["code"]].combat > my_strength:
                return 1
        return 0

    def _fireball_hits_enemy(self, view, seat, wizard, direction) -> bool:
        """Whether a fireball or a breath in `direction` meets an enemy first and no friend of `seat`: the view's
        line of sight as the engine draws it (boardgame/viewsight.py: walls, closed portcullises, face-down rooms,
        arrow slits, fog, 3D obstacles, rubble), spent harmlessly on a Fire Shield (PD-OBJ-FIRESHIELD-01)."""
        hit = first_hit(view, wizard, direction)
        if hit is None or hit.square is None or hit.shielded:
            return False
        colours = {victim[:1].upper() for victim in hit.victims}
        return seat not in colours and bool(colours)


STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1))
SIDE_STEP = {"N": (0, 1), "E": (1, 0), "S": (0, -1), "W": (-1, 0)}


class PlannerBot(GreedyBot):
    """A player that plans its turn (the default bot): GreedyBot's scores for what it already weighs well (combat
    cards, abilities, a scenario's goals), but in a standard game it weighs each action by what it changes.

    - It counts in action points: a move's progress is the steps it gains towards the exit over the figure's
      Movement (a full move forward is worth the same for the Troll as for the Thief), a figure that can still
      get out this turn with the AP left is pushed all the way, a character worth more on exit (the Goblin) or
      carrying the Treasure more (BG-VP-02/03).
    - It picks up the Treasure and a few useful objects, never leaves the Treasure behind for nothing, and carries
      a wounded friend (saved if carried out, BG-CARRY-05).
    - It weighs danger both ways: where a figure ends against where it stands, each enemy that could reach it next
      turn (its Movement twice, through the known walls) and would likely win (BG-COMBAT-03); so it steps out of
      reach and does not walk into a fight it would lose.
    - It fights with its side's total, the figures drawn in included (BG-GROUP-02), and goes for the kill of a
      wounded enemy (BG-WOUND-04: 1 VP).
    - It turns a room (BG-ROT) when the turned layout brings its figures nearer the exit, or the enemy's farther
      (the layout turned as the engine turns it, from the revealed tile); a figure walled off from the exit walks to
      the gear whose turn (its room's or its twin's, BG-ROT-03) opens a way (`_rotation_plans`).
    - It stands in the way of an enemy near my start zone (BG-MOVE-09: no figure enters an enemy's square) and does
      not step out of it for nothing (`_block_gain`).
    - It remembers its own turn (its only state, from what it saw): a figure does not go back to a square it left
      this turn, and no figure takes back an object one of its side left or handed over in this or its last turn
      (a play-test saw the greedy bot take a friend's object, hand it on and take it back, move after move).
    - When nothing it can do gains anything, it ends its turn rather than wander.

    It sees only its seat's view and legal texts (`choose`), draws from its seeded Rng alone, and its secret choices
    (team, build, combat cards) are GreedyBot's mixed ones (TEAM_SLACK, CARD_SLACK).
    """

    name = "planner"
    RUNNER = 2.0
    """How much more a move forward is worth for a figure with no more moves to make to get out (divided by one
    more than the moves it still needs): the AP of a turn go to the figures nearest the exit."""
    STAKE = 25.0
    """What a figure wounded costs, by its exit VP (more: the Treasure or friend it carries), weighed by how likely
    an enemy wounds it where it ends (`_threat`)."""
    HUNT = 20.0
    """What wounding an enemy one move from my start zone (its exit) adds to an attack, less the farther it is."""
    OPEN_WAYS = True
    END_FLOOR = 1.0
    """Below this score an action gains nothing worth an AP: the bot ends its turn instead (when it may)."""
    OBJECT_VALUE = {"TS": 30.0, "SW": 5.0, "AR": 4.0, "SP": 4.0, "FW": 3.0, "RP": 2.0, "KY": 2.0, "BW": 4.0,
                    "SH": 3.0, "LN": 3.0, "DS": 3.0, "FH": 2.0, "RG": 2.0, "CH": 2.0, "FS": 1.0}
    """What carrying an object is worth to a figure (the Treasure: its VP on exit, BG-VP-03)."""

    def __init__(self) -> None:
        self._stuck_turn: int | None = None  # the first turn of mine, of those in a row, where nothing scored
        self._plans: tuple | None = None  # (turn and layout, the gears worth walking to: `_rotation_plans`)
        self._maps: dict[tuple, dict] = {}  # a layout's maps (`_kept`), the least recently used dropped first
        self._packed: dict[tuple, tuple] = {}  # older maps, packed (`_pack`), the least recently used dropped first
        self._turn: tuple | None = None
        self._visited: dict[str, set[str]] = {}  # figure -> squares it stood on this turn
        self._orientations: dict[str, set[int]] = {}  # room -> orientations it had this turn before my turns of it
        self._left: dict[str, int] = {}  # object -> the turn one of my figures last left or handed it
        self._progress: tuple | None = None  # (both sides' VP, my figures' fewest steps out since they changed)
        self._since = 0  # the turn of my last progress (`_standoff`)

    def choose(self, view: dict, legal: list[str], rng: Rng) -> str:
        if view["phase"] == "place" and not building(view) and not view.get("scenario"):
            return self._place(view, legal, rng)
        if building(view) or view["phase"] != "main" or (view.get("secret") or "").startswith("combat"):
            return super().choose(view, legal, rng)
        seat = view["viewer"]
        self._cache = {"legal": frozenset(legal)}
        self._remember(view, seat)
        best_score, best = None, []
        for action in legal:
            score = self.plan_score(view, seat, action) - 0.01 * action.count(" ")  # the simplest of equals
            if best_score is None or score > best_score + 1e-9:
                best_score, best = score, [action]
            elif abs(score - best_score) <= 1e-9:
                best.append(action)
        if best_score < self.END_FLOOR:
            best = self._unstick(view, seat, legal, rng)
            if not best:
                return "end" if "end" in legal else rng.choice(legal)
        else:
            self._stuck_turn = None
        choice = rng.choice(best)
        self._note(view, seat, choice)
        return choice

    STUCK_TURNS = 4
    """Turns in a row with nothing that scores after which the bot tries GreedyBot's way out: a safe move or a
    room turned at random (its plan found no way: the exit walled off for every figure it has)."""

    def _unstick(self, view: dict, seat: str, legal: list[str], rng: Rng) -> list[str]:
        """Nothing gains by itself: head for the gear of a room whose quarter turn would (BG-ROT-01, the mechanism
        square), or, after STUCK_TURNS such turns, GreedyBot's random safe move; else nothing (end the turn)."""
        cat = load(view["set"])
        targets = [gear for gear, _, _ in self._rotation_plans(view, seat)]
        best, moves = 0.0, []
        prey = [t for t in view["tokens"] if t["id"] and t["character"] and t["colour"] != seat and t["square"]
                and t["code"] in cat.characters]
        if targets or prey:
            reaches = [self._reach(view, gear, 40, seat) for gear in targets]
            for action in legal:
                words = action.split()
                if words[0] != "move" or "@" in action or "+" in action:
                    continue
                token = next((t for t in view["tokens"] if t["id"] == words[1]), None)
                if token is None or token["colour"] != seat:
                    continue
                start, dest = _square(token["square"]), _square(words[2].split("-")[-1])
                gained = max((r.get(start, 60) - r.get(dest, 60) for r in reaches), default=0)
                attack = self._defence(view, cat, token, ()) if token["code"] in cat.characters else 0
                for enemy in prey:  # or an enemy it outfights (a wounded one first): VP to take
                    beaten = enemy["wounded"] or attack - self._defence(view, cat, enemy, ()) >= 1
                    if beaten:
                        r = self._reach(view, _square(enemy["square"]), 40)
                        gained = max(gained, (r.get(start, 60) - r.get(dest, 60)) * (2 if enemy["wounded"] else 1))
                strength = self._defence(view, cat, token, self._carried(view, token))
                score = gained - 10 * self._threat(view, seat, dest, strength) - self._undo_penalty(
                    view, seat, token, words)
                if score > best + 1e-9:
                    best, moves = score, [action]
                elif moves and abs(score - best) <= 1e-9:
                    moves.append(action)
        for action in legal:  # on a gear already: the turn itself, if it gains anything
            words = action.split()
            if words[0] == "rotate" and len(words) == 4:
                gain = self._rotate_score(view, seat, words)
                if gain > max(best, 0.0) + 1e-9:
                    best, moves = gain, [action]
        if moves:
            return moves
        if self._stuck_turn is None:
            self._stuck_turn = view["turn"]
        if view["turn"] - self._stuck_turn >= 2 * self.STUCK_TURNS and rng.below(2):
            safe = [a for a in legal if a.startswith(("move ", "rotate ")) and self.score(view, seat, a) > -5]
            if safe:
                return safe
        return []

    # -- memory (from the views it saw and the actions it chose) --

    def _remember(self, view: dict, seat: str) -> None:
        turn = (view["turn"], view["active"])
        if turn != self._turn:
            self._turn, self._visited, self._orientations = turn, {}, {}
            self._left = {item: when for item, when in self._left.items() if when >= view["turn"] - 2}
        if view["active"] != seat:
            return
        if not self._visited:  # my turn begins: has the game moved on since my last progress?
            vp = tuple(p["vp"] for _, p in sorted(view["players"].items()))
            ways = self._open_ways(view, 5 * view["rows"] if seat == "B" else -1)
            steps = sum(ways.get(_square(t["square"]), 60) for t in view["tokens"] if t["id"] and t["character"]
                        and t["colour"] == seat and not t["wounded"] and t["square"])
            if self._progress is None or self._progress[0] != vp or steps < self._progress[1]:
                self._progress, self._since = (vp, steps), view["turn"]
        for t in view["tokens"]:
            if t["id"] and t["character"] and t["colour"] == seat and t["square"]:
                self._visited.setdefault(t["id"], set()).add(t["square"])

    STANDOFF_TURNS = 6
    """My turns in a row with no VP scored by either side and my figures no nearer their exit after which the bot
    fights its way on (`_attack_score`): in the bench's base-set game of seed 23 (session 27) its figures stood in
    a corridor one square wide, the Goblin in front of Yellow's Thief, the Troll behind, and neither side moved on
    for a thousand actions."""

    def _standoff(self, view: dict) -> bool:
        return view["turn"] - self._since >= 2 * self.STANDOFF_TURNS

    def _note(self, view: dict, seat: str, action: str) -> None:
        """What its chosen move leaves or hands over, and what it takes from a friend: not to be taken back soon."""
        words = action.split()
        if words[0] == "rotate" and len(words) == 4:
            room = next((r for r in view["rooms"] if r["slot"] == words[2]), None)
            if room is not None and room.get("orientation") is not None:
                self._orientations.setdefault(words[2], set()).add(room["orientation"])
        if words[0] in ("move", "wallwalk", "jump"):
            mover = next((t for t in view["tokens"] if t["id"] == words[1]), None)
            for w in words[2:]:
                if "@" in w and not w.startswith("+"):
                    self._left[w.split("@")[0]] = view["turn"]
            if mover is not None:
                taken = {w[1:] for w in words[2:] if w.startswith("+")}
                for item in self._from_friend(view, seat, mover, taken):
                    self._left[item] = view["turn"]

    # -- scores --

    def plan_score(self, view: dict, seat: str, action: str) -> float:
        words = action.split()
        verb = words[0]
        leaving, hunted = self._plan(view, seat)
        standard = leaving is None and not hunted
        if verb in ("move", "wallwalk", "jump") and standard:
            token = next((t for t in view["tokens"] if t["id"] == words[1]), None)
            if token is not None and token["colour"] == seat:
                return self._move_score(view, seat, token, words)
        if verb in ("move", "wallwalk", "jump"):
            score = self.score(view, seat, action)
            token = next((t for t in view["tokens"] if t["id"] == words[1]), None)
            return score - self._undo_penalty(view, seat, token, words)
        if verb == "rotate" and standard:
            return self._rotate_score(view, seat, words)
        if verb == "attack":
            return self._attack_score(view, seat, words)
        if verb == "end":
            return 0.0
        return self.score(view, seat, action)

    PLACE_FAR = 40
    """The most steps a placed figure's way out counts (none: as far)."""

    def _place(self, view: dict, legal: list[str], rng: Rng) -> str:
        """A standard game's placement after a reveal: which token next drawn by the Rng (as GreedyBot's, whose
        every placement scored the same: the order matters, and a scored one, each kind in turn, lost the mixed
        sets 15 games in 40), then the best square for it by `_place_score`, equals drawn by the Rng."""
        seat = view["viewer"]
        self._cache = {"legal": frozenset(legal)}
        items = sorted({a.split()[1] for a in legal if a.startswith("place ") and len(a.split()) == 3})
        if items:
            item = rng.choice(items)
            legal = [a for a in legal if a.split()[:2] == ["place", item]]
        best_score, best = None, []
        for action in legal:
            words = action.split()
            score = self._place_score(view, seat, words[1], _square(words[2])) if words[0] == "place" \
                and len(words) == 3 else self.score(view, seat, action)
            if best_score is None or score > best_score + 1e-9:
                best_score, best = score, [action]
            elif abs(score - best_score) <= 1e-9:
                best.append(action)
        return rng.choice(best)

    def _place_score(self, view: dict, seat: str, item: str, square: tuple[int, int]) -> float:
        """BG-REVEAL-06/07: where the revealing player puts a figure of the room. Mine: the fewer AP from its exit
        the better; the enemy's: the more AP from his (my start zone; a pit counts for a figure that can cross it:
        in the bench's base-set game of seed 55 the planner put Yellow's Cleric on d1, a pit away from c0, and he
        jumped out at once). Objects anywhere (1, as GreedyBot)."""
        cat = load(view["set"])
        code, colour = item[1:], item[:1].upper()
        if code not in cat.characters or colour not in ("B", "Y"):
            return 1.0
        token = {"id": item, "code": code, "colour": colour, "character": True, "square": _name(square)}
        kind = cat.characters[code]
        height = 5 * view["rows"]
        goal_y = height if token["colour"] == "B" else -1
        standing = frozenset((_square(t["square"])[1] + 1) * 10 + _square(t["square"])[0] for t in view["tokens"]
                             if t["id"] and t["character"] and not t["wounded"] and t["square"]
                             and t["colour"] != token["colour"])  # his enemies stand in his way (BG-MOVE-09)
        jumper = self._jumper(view, {**token, "square": _name(square)})
        key = ("placed", token["colour"], jumper)
        steps = self._cache.get(key)
        if steps is None:
            links = self._pit_links(view) if jumper else self._links(view)
            steps = self._cache[key] = self._steps(links, tuple((goal_y + 1) * 10 + x for x in range(10)), standing)
        far = steps[(square[1] + 1) * 10 + square[0]]
        if far < 0:  # no way open now: through what may open (face-down rooms, walls a turn may move)
            far = self._cost_map(view, goal_y).get(square, self.PLACE_FAR)
        ap = min(far, self.PLACE_FAR) / (kind.move or 1)
        return 1.0 + (ap if token["colour"] != seat else -ap) * float(kind.exit_vp)

    def _undo_penalty(self, view, seat, token, words) -> float:
        if token is None or token["colour"] != seat:
            return 0.0
        dest = words[-1] if words[0] == "jump" else words[2].split("-")[-1]
        penalty = 12.0 if dest in self._visited.get(token["id"], ()) and dest != token["square"] else 0.0
        taken = [w[1:] for w in words if w.startswith("+")]
        if any(item in self._left for item in taken):
            penalty += 20.0
        return penalty

    def _figure(self, view, cat, t) -> tuple[int, float]:
        """(Movement, exit VP) of a figure."""
        kind = cat.characters.get(t["code"])
        return (kind.move or 1, float(kind.exit_vp)) if kind else (1, 1.0)

    def _facts(self, view: dict, seat: str) -> dict:
        """What every move's score reads, gathered once a decision: tokens by id, the squares of my standing
        figures, the things lying on each square."""
        facts = self._cache.get("facts")
        if facts is None:
            tokens = {t["id"]: t for t in view["tokens"] if t["id"]}
            friends = {t["square"]: t["id"] for t in view["tokens"] if t["id"] and t["character"]
                       and t["colour"] == seat and not t["wounded"]}
            lying: dict[str, list[dict]] = {}
            for t in view["tokens"]:
                if t["id"] and t["square"] and (not t["character"] or (t["wounded"] and t["colour"] == seat)):
                    lying.setdefault(t["square"], []).append(t)
            facts = self._cache["facts"] = {"tokens": tokens, "friends": friends, "lying": lying, "carried": {}}
        return facts

    def _worth(self, tokens: dict, items) -> float:
        total = 0.0
        for item in items:
            t = tokens.get(item)
            if t is None:
                continue
            if t["character"]:
                total += 12.0  # a wounded friend carried: saved if carried out, not killed where it lay
            else:
                total += self.OBJECT_VALUE.get(t["code"], 1.0)
        return total

    def _move_score(self, view: dict, seat: str, token: dict, words: list[str]) -> float:
        cat = load(view["set"])
        verb = words[0]
        dest_name = words[-1] if verb == "jump" else words[2].split("-")[-1]
        dest = _square(dest_name)
        goal_y = 5 * view["rows"] if seat == "B" else -1
        if dest_name in view.get("terrain", {}).get("rockfall", ()):
            return -200.0
        move, exit_vp = self._figure(view, cat, token)
        facts = self._facts(view, seat)
        codes = facts["tokens"]
        before = facts["carried"].get(token["id"])
        if before is None:
            before = facts["carried"][token["id"]] = frozenset(self._carried(view, token))
        left = {w.split("@")[0] for w in words[2:] if "@" in w and not w.startswith("+")}
        taken = {w[1:] for w in words[2:] if w.startswith("+")}
        if not taken and not (before - left):  # RUL-119: a thing lying alone where it stops is carried
            taken = {t["id"] for t in facts["lying"].get(dest_name, ()) if t["id"] != token["id"]} - left
        after = (before - left) | taken
        worth = self._worth
        treasure = any(codes.get(i, {}).get("code") == "TS" for i in after)
        if dest[1] == goal_y:
            return 100.0 * exit_vp + (60.0 if treasure else 0.0) + 5 * sum(
                1 for i in after if codes.get(i, {}).get("character"))
        start = _square(token["square"])
        crossing = self._crossing(view, cat, token, after)  # (what it carries once there: a Rope, a shield)
        open_ways = self._distances(view, goal_y, crossing=crossing)  # the steps of a way open now (or to a
        distance = open_ways  # face-down room)
        if start not in distance or not self.OPEN_WAYS:
            distance = self._cost_map(view, goal_y)  # none: the nearest way through what may open
        far = 10 * view["rows"] + 60
        steps_before, steps_after = distance.get(start, far), distance.get(dest, far)
        weight = exit_vp + (1.0 if treasure else 0.0)
        # AP gained towards the exit, more for a figure that needs few more: one runner out beats four halfway
        score = (steps_before - steps_after) / move * 10.0 * weight * (1.0 + self.RUNNER / (1.0 + steps_after / move))
        if self._walled(view, seat):  # a figure walled off: a room to turn first (its own way or a friend's)
            pull = self._gear_pull(view, seat, move, start, dest)
            if pull is not None:
                score = max(score, pull) if start in open_ways else self.DRIFT * score + pull
        ap_after = view.get("ap", 0) - 1
        if steps_after <= move * ap_after and open_ways.get(dest, far) <= move * ap_after:
            score += 15.0 * weight  # it can still get out this turn: keep it going
        # what it carries: picking up, handing over and leaving behind
        if left or taken:
            friends = facts["friends"]
            handed = {w.split("@")[0] for w in words[2:] if "@" in w and not w.startswith("+")
                      and friends.get(w.split("@")[1], token["id"]) != token["id"]}
            from_friend = {i for i in taken if i in codes and friends.get(codes[i]["square"], token["id"])
                           != token["id"]}
            score += worth(codes, after) - worth(codes, before) - worth(codes, from_friend) - 2.0 * len(from_friend)
            foreign = left - before  # a friend's, taken on the way and left: on the floor lost, to another moved
            if foreign:
                score -= worth(codes, foreign - handed) + 2.0 * len(foreign)
            if handed:  # given to a friend on the way: half kept (the friend may be the better carrier)
                score += 0.5 * worth(codes, handed & before)
                # a friend's thing fetched and handed to another friend: worth it only nearer the exit (else two
                # figures passed a wounded friend to and fro, each hand-over scored, AP after AP: seed 15)
                score += 0.5 * worth(codes, {i for i in handed - before if self._nearer(
                    view, goal_y, _square(next(w for w in words[2:] if w.startswith(i + "@")).split("@")[1]),
                    _square(codes[i]["square"]))})
        score -= self._undo_penalty(view, seat, token, words)
        # danger: where it ends against where it stands
        strength = self._defence(view, cat, token, after) if after != before else None
        held = self._defence(view, cat, token, before)
        stake = self.STAKE * exit_vp + worth(codes, after)
        score -= (self._threat(view, seat, dest, held if strength is None else strength)
                  - self._threat(view, seat, start, held)) * stake / 10.0
        if ap_after >= 1:
            score += self._prey(view, seat, cat, token, dest, after)
        score += self._block_gain(view, seat, start, dest)
        if self._standoff(view):
            way = self._make_way(view, seat, token, move, start, dest)
            score = max(score, way) if way >= self.MAKE_WAY else score + way  # out of the way: its own way is shut
        if verb == "jump":
            score -= 4.0  # a jump card is scarce
        return score

    MAKE_WAY = 8.0
    """In a standoff, what a friend stepping off the way of my strongest figure to an enemy it beats is worth,
    whatever else the move loses (and what stepping onto it costs)."""

    def _way_plan(self, view: dict, seat: str):
        """In a standoff: (my strongest figure that beats an enemy it can walk to, its steps to the nearest square
        beside one, through my figures (it may cross them, BG-MOVE-08) but not the enemy's, the squares of that way);
        None if it stands there already or none can."""
        if "way plan" in self._cache:
            return self._cache["way plan"]
        plan = None
        cat = load(view["set"])
        links = self._links(view)
        standing = [t for t in view["tokens"] if t["id"] and t["character"] and not t["wounded"] and t["square"]
                    and t["code"] in cat.characters]
        number = {t["id"]: (_square(t["square"])[1] + 1) * 10 + _square(t["square"])[0] for t in standing}
        enemies = [t for t in standing if t["colour"] != seat]
        blocked = frozenset(number[t["id"]] for t in enemies)
        mine = sorted((t for t in standing if t["colour"] == seat),
                      key=lambda t: (-self._defence(view, cat, t, self._carried(view, t)), t["id"]))
        for token in mine:
            attack = self._defence(view, cat, token, self._carried(view, token))
            beaten = [number[e["id"]] for e in enemies if attack - self._defence(view, cat, e, self._carried(view, e))
                      >= 1]
            goals = tuple(sorted({n for i in beaten for n in links[i] if n not in blocked}))
            if not goals:
                continue
            to_goal = self._steps(links, goals, blocked)
            here = number[token["id"]]
            if to_goal[here] <= 0:
                break  # beside one already (or none reachable): the attack's own score decides
            way, i = {here}, here
            while to_goal[i] > 0:  # down the steps, the first neighbour nearer each time
                i = next(n for n in links[i] if to_goal[n] == to_goal[i] - 1)
                way.add(i)
            plan = (token["id"], to_goal, frozenset(way))
            break
        self._cache["way plan"] = plan
        return plan

    def _make_way(self, view: dict, seat: str, token: dict, move: int, start: tuple[int, int],
                  dest: tuple[int, int]) -> float:
        """A standoff (`_standoff`): my strongest figure walks to an enemy it beats, and the friends in its way
        step off it (a corridor one square wide, the Goblin in front: seed 23)."""
        plan = self._way_plan(view, seat)
        if plan is None:
            return 0.0
        fighter, to_goal, way = plan
        i, j = (start[1] + 1) * 10 + start[0], (dest[1] + 1) * 10 + dest[0]
        if token["id"] == fighter:
            before, after = to_goal[i], to_goal[j]
            return (before - (after if after >= 0 else before + move)) / move * 10.0
        return self.MAKE_WAY * ((i in way) - (j in way))

    def _nearer(self, view: dict, goal_y: int, there: tuple[int, int], here: tuple[int, int]) -> bool:
        """Is `there` fewer steps from the exit than `here` (an open way's, else the cost map's)?"""
        open_ways = self._distances(view, goal_y)
        distance = open_ways if here in open_ways and there in open_ways else self._cost_map(view, goal_y)
        far = 10 * view["rows"] + 60
        return distance.get(there, far) < distance.get(here, far)

    def _prey(self, view: dict, seat: str, cat, token: dict, dest: tuple[int, int], carried) -> float:
        """A move that ends beside an enemy it can then attack with an AP left: a wounded one to finish (1 VP,
        BG-WOUND-04), or one it outfights by 2 (a runner near my start zone first)."""
        key = ("prey", token["id"], dest, frozenset(carried))
        if key in self._cache:
            return self._cache[key]
        _, blocked = self._ground(view)
        here = {t["square"]: t for t in view["tokens"] if t["id"] and t["character"] and t["colour"] != seat
                and t["square"] and t["code"] in cat.characters}
        attack = (cat.characters[token["code"]].combat if token["code"] in cat.characters else 0) + sum(
            cat.objects[t["code"]].attack_bonus for t in view["tokens"] if t["id"] in carried and t["code"] in cat.objects)
        me = view["players"][seat]
        my_best = max(me["combat_cards"]) if me["combat_cards"] else 0
        their_goal = -1 if seat == "B" else 5 * view["rows"]
        best = 0.0
        for dx, dy in STEPS:
            n = (dest[0] + dx, dest[1] + dy)
            if not 0 <= n[0] < 10:
                continue
            enemy = here.get(_name(n))
            if enemy is None or frozenset((dest, n)) in blocked:
                continue
            defence = self._defence(view, cat, enemy, self._carried(view, enemy))
            if enemy["wounded"]:
                defence -= cat.characters[enemy["code"]].combat
                if attack + my_best - 3 > defence:
                    best = max(best, 45.0)
            elif attack - defence >= 2:
                kind = cat.characters[enemy["code"]]
                turns = self._cost_map(view, their_goal).get(n, 60) / (kind.move or 1)
                best = max(best, 12.0 + 20.0 / (1.0 + turns))
        self._cache[key] = best
        return best

    @staticmethod
    def _from_friend(view, seat, token, taken) -> set[str]:
        """What the mover takes from a friend it crosses (BG-ITEM-05): the side gains nothing by it but where the
        thing is carried."""
        friends = {t["square"] for t in view["tokens"] if t["character"] and t["colour"] == seat
                   and not t["wounded"] and t["id"] != token["id"]}
        return {t["id"] for t in view["tokens"] if t["id"] in taken and t["square"] in friends}

    def _defence(self, view, cat, token, carried) -> int:
        key = ("defence", token["id"], frozenset(carried))
        if key not in self._cache:
            self._cache[key] = self._defence_of(view, cat, token, carried)
        return self._cache[key]

    def _defence_of(self, view, cat, token, carried) -> int:
        kind = cat.characters.get(token["code"])
        value = kind.combat if kind else 0
        for item in carried:
            t = next((x for x in view["tokens"] if x["id"] == item), None)
            if t is not None and not t["character"] and t["code"] in cat.objects:
                value += cat.objects[t["code"]].defend_bonus
        return value

    def _reach(self, view: dict, source: tuple[int, int], limit: int, seat: str | None = None
               ) -> dict[tuple[int, int], int]:
        """Steps from `source` to every square within `limit`, through the known walls, pits and rooms; with `seat`,
        not through a standing enemy of that seat's (BG-MOVE-09: a way this turn, for a walk to a gear: through
        an enemy, the Warrior walked to a gear he could not reach and back to the other, turn after turn)."""
        key = ("reach", source, limit, seat)
        if key in self._cache:
            return self._cache[key]
        passable, blocked = self._ground(view)
        if seat is not None:
            passable = passable - {_square(t["square"]) for t in view["tokens"] if t["id"] and t["character"]
                                   and t["colour"] != seat and not t["wounded"] and t["square"]}
        distance = {source: 0}
        frontier = deque([source])
        while frontier:
            sq = frontier.popleft()
            if distance[sq] >= limit:
                continue
            for dx, dy in STEPS:
                n = (sq[0] + dx, sq[1] + dy)
                if n in passable and n not in distance and frozenset((sq, n)) not in blocked:
                    distance[n] = distance[sq] + 1
                    frontier.append(n)
        self._cache[key] = distance
        return distance

    def _ground(self, view: dict):
        if "ground" in self._cache:
            return self._cache["ground"]
        height = 5 * view["rows"]
        hidden = {r["slot"] for r in view["rooms"] if not r["revealed"]}
        pits = {_square(p) for p in (*view["pits"], *self._barrier_squares(view))}  # (P&D terrain: as a pit)
        passable = {(x, y) for x in range(10) for y in range(-1, height + 1)
                    if (y in (-1, height) or f"{'AB'[x // 5]}{y // 5 + 1}" not in hidden) and (x, y) not in pits}
        blocked = {frozenset((_square(a), _square(b))) for a, b, _ in view["walls"]}
        blocked |= {frozenset((_square(a), _square(b))) for a, b, st in view["portcullises"] if st == "closed"}
        self._cache["ground"] = (passable, blocked)
        return passable, blocked

    def _links(self, view: dict) -> tuple[tuple[int, ...], ...]:
        """Each square's neighbours one step away (walls, closed portcullises, arrow slits, pits and face-down
        rooms kept out), the squares numbered (y + 1) * 10 + x; kept by layout."""
        def make():
            passable, blocked = self._ground(view)
            blocked = blocked | {frozenset((_square(a), _square(b))) for a, b in view.get("slits", ())}
            size = 10 * (5 * view["rows"] + 2)
            links = []
            for i in range(size):
                sq = (i % 10, i // 10 - 1)
                links.append(tuple((n[1] + 1) * 10 + n[0] for n in ((sq[0] + dx, sq[1] + dy) for dx, dy in STEPS)
                                   if sq in passable and n in passable and frozenset((sq, n)) not in blocked))
            return tuple(links)
        return self._kept(("links", self._layout(view)), make)

    def _pit_links(self, view: dict) -> tuple[tuple[int, ...], ...]:
        """`_links` with each pit a square of its own, linked to its connected neighbours that are not pits: the
        ways of a figure that jumps a pit (BG-JUMP-03: into the pit, then out on any other side), or crosses it (the
        Thief, a Rope carrier: BG-PIT-01; the Wizard, BG-CHAR-WIZARD-01); kept by layout."""
        def make():
            links = [list(n) for n in self._links(view)]
            passable, blocked = self._ground(view)
            blocked = blocked | {frozenset((_square(a), _square(b))) for a, b in view.get("slits", ())}
            for pit in sorted(_square(p) for p in view["pits"]):
                i = (pit[1] + 1) * 10 + pit[0]
                for dx, dy in STEPS:
                    n = (pit[0] + dx, pit[1] + dy)
                    if 0 <= n[0] < 10 and n in passable and frozenset((pit, n)) not in blocked:
                        j = (n[1] + 1) * 10 + n[0]
                        links[i].append(j)
                        links[j].append(i)
            return tuple(tuple(n) for n in links)
        return self._kept(("pit links", self._layout(view)), make)

    def _jumper(self, view: dict, token: dict) -> bool:
        """Can this figure cross a pit on its way out: a jump card left to its side (BG-JUMP-01), the Thief, the
        Wizard, or a Rope carried (BG-PIT-01)?"""
        if view["players"][token["colour"]].get("jumps", 0) > 0 or token["code"] in ("TH", "WZ"):
            return True
        return any(t["square"] == token["square"] and t["id"] and not t["character"] and t["code"] == "RP"
                   for t in view["tokens"])

    @staticmethod
    def _steps(links, sources, obstacles) -> list[int]:
        """Breadth first over `links` from `sources`, never into `obstacles`: steps to each square, -1 if none."""
        distance = [-1] * len(links)
        frontier = [i for i in sources if i not in obstacles]
        for i in frontier:
            distance[i] = 0
        d = 0
        while frontier:
            d += 1
            following = []
            for i in frontier:
                for n in links[i]:
                    if distance[n] < 0 and n not in obstacles:
                        distance[n] = d
                        following.append(n)
            frontier = following
        return distance

    BLOCK = 1.0
    """What an enemy's way to its exit made longer by a figure of mine standing in it (BG-MOVE-09: no figure enters
    a square with an enemy figure) is worth against my own progress (the enemy may fight its way through)."""
    BLOCK_RANGE = 3
    """Enemies within this many of their moves from their exit are the runners worth blocking."""
    BLOCK_CAP = 8
    """The most steps a block is counted to add to a runner's way (a way shut entirely: it will fight or turn)."""

    def _blocking(self, view: dict, seat: str):
        """(my figures' squares, the enemy's exit squares, the links by crossing pits or not, the runners as
        (whether it crosses pits, square, Movement, exit VP, steps), the squares of their shortest ways) for
        `_block_gain`; None without a runner. A runner that can cross a pit (`_jumper`) is measured over
        `_pit_links`: a square of my start zone one pit away from it is its exit too (a play-test saw the planner
        leave it open)."""
        if "block" in self._cache:
            return self._cache["block"]
        info = None
        cat = load(view["set"])
        height = 5 * view["rows"]
        goal_y = -1 if seat == "B" else height  # their exit: my start zone
        standing = [t for t in view["tokens"] if t["id"] and t["character"] and not t["wounded"] and t["square"]
                    and t["code"] in cat.characters]
        mine = frozenset((_square(t["square"])[1] + 1) * 10 + _square(t["square"])[0] for t in standing
                         if t["colour"] == seat)
        goal = tuple((goal_y + 1) * 10 + x for x in range(10))
        bases: dict[bool, tuple] = {}
        runners = []
        for t in standing:
            if t["colour"] == seat:
                continue
            jumper = self._jumper(view, t)
            if jumper not in bases:
                links = self._pit_links(view) if jumper else self._links(view)
                bases[jumper] = (links, self._steps(links, goal, mine))
            links, base = bases[jumper]
            x, y = _square(t["square"])
            i, kind = (y + 1) * 10 + x, cat.characters[t["code"]]
            move = kind.move or 1
            if 0 < base[i] <= self.BLOCK_RANGE * move:
                runners.append((jumper, i, move, float(kind.exit_vp), base[i]))
        if runners:
            ways: set[int] = set()
            for jumper, i, _, _, steps in runners:
                links, base = bases[jumper]
                back = self._steps(links, (i,), mine)
                ways |= {j for j, (a, b) in enumerate(zip(base, back)) if a >= 0 and b >= 0 and a + b == steps}
            info = (mine, goal, {jumper: links for jumper, (links, _) in bases.items()}, tuple(runners),
                    frozenset(ways))
        self._cache["block"] = info
        return info

    def _block_gain(self, view: dict, seat: str, start: tuple[int, int], dest: tuple[int, int]) -> float:
        """The runners' ways (`_blocking`) made longer by my figure moving from `start` to `dest` (shorter: less
        than nothing), in their AP x 10 x their exit VP x BLOCK."""
        info = self._blocking(view, seat)
        if info is None:
            return 0.0
        mine, goal, links_of, runners, ways = info
        i, j = (start[1] + 1) * 10 + start[0], (dest[1] + 1) * 10 + dest[0]
        if i == j or (i not in ways and j not in ways):
            return 0.0
        key = ("blocked", i, j)
        if key not in self._cache:
            afters: dict[bool, list[int]] = {}
            gain = 0.0
            for jumper, square, move, vp, steps in runners:
                after = afters.get(jumper)
                if after is None:
                    after = afters[jumper] = self._steps(links_of[jumper], goal, (mine - {i}) | {j})
                longer = after[square] - steps if after[square] >= 0 else self.BLOCK_CAP
                gain += min(longer, self.BLOCK_CAP) / move * 10.0 * vp
            self._cache[key] = gain * self.BLOCK
        return self._cache[key]

    def _threat(self, view: dict, seat: str, square: tuple[int, int], strength: int) -> float:
        """How likely an enemy wounds a figure of `strength` on `square` next turn (0 to ~1.5): each enemy that can
        reach a neighbour within two moves, by its strength over ours (the cards unknown: about +3 each)."""
        key = ("threat", square, strength)
        found = self._cache.get(key)
        if found is None:
            found = self._cache[key] = self._threat_of(view, seat, square, strength)
        return found

    def _threat_of(self, view: dict, seat: str, square: tuple[int, int], strength: int) -> float:
        scenario = load(view["set"]).scenarios.get(view["scenario"]) if view.get("scenario") else None
        if scenario is not None and scenario.get("no_combat"):
            return 0.0
        cat = load(view["set"])
        worst, count = 0.0, 0
        for enemy in view["tokens"]:
            if not (enemy["id"] and enemy["character"] and enemy["colour"] != seat and not enemy["wounded"]
                    and enemy["square"]) or enemy["code"] not in cat.characters:
                continue
            kind = cat.characters[enemy["code"]]
            where = _square(enemy["square"])
            if abs(where[0] - square[0]) + abs(where[1] - square[1]) > 2 * kind.move + 1:
                continue
            if self._reach(view, where, 2 * kind.move + 1).get(square, 99) > 2 * kind.move + 1:
                continue
            attack = kind.combat + sum(cat.objects[t["code"]].attack_bonus for t in view["tokens"]
                                       if t["square"] == enemy["square"] and t["id"] and t["character"] is False
                                       and t["code"] in cat.objects)
            margin = attack - strength
            chance = 1.0 if margin >= 2 else 0.75 if margin == 1 else 0.4 if margin == 0 else 0.15 if margin == -1 \
                else 0.0
            if chance:
                count += 1
                worst = max(worst, chance)
        return worst + 0.25 * max(0, count - 1)

    def _attack_score(self, view: dict, seat: str, words: list[str]) -> float:
        """BG-COMBAT/BG-GROUP: both sides' totals with the figures drawn in; a wounded target lost is a kill."""
        cat = load(view["set"])
        tokens = {t["id"]: t for t in view["tokens"] if t["id"]}
        attacker, target = tokens.get(words[1]), tokens.get(words[2])
        if attacker is None or target is None:
            return self.score(view, seat, " ".join(words))
        _, blocked = self._ground(view)
        figures = [t for t in view["tokens"] if t["id"] and t["character"] and t["square"] and not t["wounded"]
                   and t["code"] in cat.characters]

        def touching(a, b) -> bool:
            (x0, y0), (x1, y1) = _square(a["square"]), _square(b["square"])
            return abs(x0 - x1) + abs(y0 - y1) == 1 and frozenset(((x0, y0), (x1, y1))) not in blocked

        side_a, side_d = {attacker["id"]}, {target["id"]}
        mine = [t for t in figures if t["colour"] == attacker["colour"]]
        theirs = [t for t in figures if t["colour"] == target["colour"]]
        side_a |= {t["id"] for t in mine if touching(t, target)}
        for _ in range(6):  # BG-GROUP-02: until nothing changes
            grow_d = {t["id"] for t in theirs if any(touching(t, tokens[a]) for a in side_a)}
            grow_a = {t["id"] for t in mine if any(touching(t, tokens[d]) for d in side_d | grow_d)}
            if grow_d <= side_d and grow_a <= side_a:
                break
            side_d |= grow_d
            side_a |= grow_a

        def total(ids, attacking) -> int:
            value = 0
            for tid in ids:
                t = tokens[tid]
                if not t["wounded"]:
                    value += cat.characters[t["code"]].combat
                for other in view["tokens"]:
                    if other["square"] == t["square"] and other["id"] and other["character"] is False \
                            and other["code"] in cat.objects:
                        kind = cat.objects[other["code"]]
                        value += kind.attack_bonus if attacking else kind.defend_bonus
            return value

        margin = total(side_a, True) - total(side_d, False)
        me, them = view["players"][seat], view["players"]["Y" if seat == "B" else "B"]
        my_best = max(me["combat_cards"]) if me["combat_cards"] else 0
        their_best = 0 if them["combat_cards"] <= 1 else 3
        edge = margin + my_best - their_best
        if edge <= 0:
            return -20.0 + margin
        if margin < 2 and edge < 4 and not target["wounded"] and self._standoff(view) and (
                self._way_plan(view, seat) is None or self._way_plan(view, seat)[0] == attacker["id"]):
            return 10.0 + margin  # a standoff: my best card likely beats his (and no stronger friend comes)
        if target["wounded"]:
            return 90.0 + 5 * min(edge, 4)  # an elimination: 1 VP (BG-WOUND-04)
        kind = cat.characters[target["code"]]
        their_goal = -1 if seat == "B" else 5 * view["rows"]
        turns = self._cost_map(view, their_goal).get(_square(target["square"]), 60) / (kind.move or 1)
        runner = self.HUNT / (1.0 + turns)  # an enemy about to get out through my start zone: stop it
        if margin >= 2 or edge >= 4:
            return 40.0 + 5 * margin + runner
        return -5.0 + margin + (runner if margin >= 1 else 0.0)

    WALL_COST = 5
    """Steps a wall or closed portcullis is counted as in the bot's map (`_cost_map`): a way shut now may be opened
    by a turned room, a broken or opened portcullis, so a figure walled in still has a nearest way to head for."""
    HIDDEN_COST = 2
    """Steps each square of a face-down room counts as: it may hide a way (and is revealed by walking to it)."""

    def _cost_map(self, view: dict, goal_y: int) -> dict[tuple[int, int], int]:
        """Cost from every square to the goal row: a step 1, a face-down room's square HIDDEN_COST, crossing a wall,
        a closed portcullis or a pit WALL_COST more (Dial's shortest paths: small whole costs); never infinite, so
        progress always has a sign."""
        return self._kept(("cost", goal_y, self._layout(view)), lambda: self._cost_of(view, goal_y))

    def _kept(self, key: tuple, make) -> dict:
        """A map from `_maps`, made if missing (or unpacked from `_packed`): the MAPS_HOT used last kept as they
        are, the older packed, the least recently used dropped beyond MAPS_KEPT in all."""
        found = self._maps.pop(key, None)
        if found is None:
            packed = self._packed.pop(key, None)
            found = make() if packed is None else self._unpack(packed)
            if len(self._maps) >= self.MAPS_HOT:
                oldest = next(iter(self._maps))
                self._packed[oldest] = self._pack(self._maps.pop(oldest))
                while len(self._packed) > self.MAPS_KEPT - self.MAPS_HOT:
                    del self._packed[next(iter(self._packed))]
        self._maps[key] = found
        return found

    MAPS_KEPT = 200
    """Maps of layouts kept between decisions (a layout lasts until a room turns, a portcullis opens or a room is
    revealed; a plan weighs 24 turned layouts, 4 maps each)."""
    MAPS_HOT = 32
    """Of those, the ones used last kept as dicts (some 10-23 KB each); the others packed in arrays (under 1 KB):
    a bot seat of a server kept 200 dicts, 3 MB, after a game or two (session 28, tracemalloc)."""

    @staticmethod
    def _pack(found) -> tuple:
        """A map as arrays: a square map's values by square number (-1: none); a link table's neighbours in a row
        and each square's count."""
        if isinstance(found, dict):
            values = array("i", [-1]) * (10 * (max(y for _, y in found) + 2) if found else 0)
            for (x, y), value in found.items():
                values[(y + 1) * 10 + x] = value
            return ("squares", values)
        return ("links", array("h", [n for near in found for n in near]), array("b", [len(near) for near in found]))

    @staticmethod
    def _unpack(packed: tuple):
        if packed[0] == "squares":  # in square order, as `_open_map` and `_cost_of` make them
            return {_at(i): value for i, value in enumerate(packed[1]) if value >= 0}
        flat, counts, links, at = packed[1], packed[2], [], 0
        for count in counts:
            links.append(tuple(flat[at:at + count]))
            at += count
        return tuple(links)

    def _open_ways(self, view: dict, goal_y: int, crossing: frozenset[str] = frozenset()) -> dict[tuple[int, int], int]:
        """GreedyBot's map of the ways open now (`_open_map`) for a figure crossing `crossing`, kept by layout like
        `_cost_map`."""
        return self._kept(("open", goal_y, self._layout(view), crossing),
                          lambda: self._open_map(view, goal_y, crossing=crossing))

    def _layout(self, view: dict) -> bytes:
        """What the maps depend on: walls, portcullises, pits, arrow slits and the face-down rooms (plain values, so
        the same in every process); the decision's own view's once a decision."""
        if "_layout" in view:  # a turned layout (`_turned`)
            return view["_layout"]
        if "layout" not in self._cache:
            self._cache["layout"] = self._layout_of(view)
        return self._cache["layout"]

    @staticmethod
    def _layout_of(view: dict) -> bytes:
        """A digest of the layout (its values' text: the same in every process; short, so cheap to hash and keep)."""
        values = (sorted((min(a, b), max(a, b), k) for a, b, k in view["walls"]),
                  sorted((min(a, b), max(a, b), k) for a, b, k in view["portcullises"]),
                  sorted(view["pits"]), sorted((min(a, b), max(a, b)) for a, b in view.get("slits", ())),
                  sorted(GreedyBot._barrier_squares(view)),
                  [r["slot"] for r in view["rooms"] if not r["revealed"]])
        return blake2b(repr(values).encode(), digest_size=16).digest()

    def _cost_of(self, view: dict, goal_y: int) -> dict[tuple[int, int], int]:
        height = 5 * view["rows"]
        rows = height + 2  # y from -1 to height
        hidden = {r["slot"] for r in view["rooms"] if not r["revealed"]}
        wall, hidden_cost = self.WALL_COST, self.HIDDEN_COST

        index = _index

        shut = {(index(a), index(b)) for a, b, _ in view["walls"]}
        shut |= {(index(a), index(b)) for a, b, st in view["portcullises"] if st == "closed"}
        shut |= {(index(a), index(b)) for a, b in view.get("slits", ())}
        shut |= {(b, a) for a, b in shut}
        cost = [1] * (10 * rows)
        for slot in hidden:
            x0, y0 = 5 * "AB".index(slot[0]), 5 * (int(slot[1:]) - 1)
            for y in range(y0, y0 + 5):
                for x in range(x0, x0 + 5):
                    cost[(y + 1) * 10 + x] = hidden_cost
        for p in (*view["pits"], *GreedyBot._barrier_squares(view)):  # (P&D terrain nobody stops on: BARRIERS)
            cost[index(p)] += wall
        goal = (goal_y + 1) * 10
        distance = [10**6] * (10 * rows)
        buckets: list[list[int]] = [list(range(goal, goal + 10))]
        for i in range(goal, goal + 10):
            distance[i] = 0
        d = 0
        while d < len(buckets):
            for i in buckets[d]:
                if distance[i] != d:
                    continue
                x = i % 10
                here = d + cost[i]
                for n in (i - 1 if x else -1, i + 1 if x < 9 else -1, i - 10, i + 10):
                    if not 0 <= n < 10 * rows:
                        continue
                    nd = here + wall if (i, n) in shut else here
                    if nd < distance[n]:
                        distance[n] = nd
                        while len(buckets) <= nd:
                            buckets.append([])
                        buckets[nd].append(n)
            d += 1
        return {_at(i): value for i, value in enumerate(distance)}

    # -- rooms --

    def _rotate_score(self, view: dict, seat: str, words: list[str]) -> float:
        """BG-ROT-01/02/05: what turning the room changes, its walls, pits and figures turned about its centre: my
        figures' way to the exit gained, the enemy's lost (their exit is my start zone), less 3 an AP spent; the
        best of this quarter turn and of the one or two more it may be the first of (BG-ROT-02: a half turn is two
        actions, the first of which may gain nothing by itself)."""
        slot, clockwise = words[2], words[3] == "cw"
        room = next((r for r in view["rooms"] if r["slot"] == slot), None)
        if room is not None and room.get("orientation") is not None and (
                room["orientation"] + (1 if clockwise else 3)) % 4 in self._orientations.get(slot, ()):
            return -40.0  # back to where it was this turn: two figures turning a room each its way (a Mechanork)
        quarters = max(1, min(3, view.get("ap", 1)))
        if f"rotate {words[1]} {slot} {'ccw' if clockwise else 'cw'}" in self._cache.get("legal", ()):
            quarters = min(quarters, 2)  # either way (BG-CHAR-MECHANORK-01): three one way are one the other
        return max(self._rotate_gain(view, seat, slot, clockwise, q) - 3.0 * q for q in range(1, quarters + 1))

    WALLED = 10
    """Steps a figure with no open way to the exit counts as beyond its cost-map distance (`_cost_map`): a room
    turned that opens it a way gains at least that much."""

    def _potential(self, view: dict, goal_y: int, crossing: frozenset[str] = frozenset()):
        """A figure's distance from the exit in a layout, as a function of its square: the steps of an open way
        (for a figure crossing `crossing`), else the cost map's (through walls) plus WALLED."""
        ways, costs = self._open_ways(view, goal_y, crossing), self._cost_map(view, goal_y)
        far = 10 * view["rows"] + 60

        def potential(square: tuple[int, int]) -> int:
            steps = ways.get(square)
            return steps if steps is not None else costs.get(square, far) + self.WALLED
        return potential

    def _turned(self, view: dict, slot: str, clockwise: bool, quarters: int) -> dict:
        key = ("turned", slot, clockwise, quarters)
        if key not in self._cache:
            before = view if quarters == 1 else self._turned(view, slot, clockwise, quarters - 1)
            turned = self._cache[key] = self._turned_view(before, slot, clockwise)
            turned["_layout"] = self._layout_of(turned)  # a copy of the view's dict: the view itself untouched
        return self._cache[key]

    def _rotate_gain(self, view: dict, seat: str, slot: str, clockwise: bool, quarters: int = 1) -> float:
        """What `quarters` quarter turns of the room gain (see `_rotate_score`): each standing figure's distance
        from its exit (`_potential`) before and after, in AP (over its Movement) x 10 x its exit VP; the enemy's
        counted half."""
        key = ("turn", slot, clockwise, quarters)
        if key in self._cache:
            return self._cache[key]
        room = next((r for r in view["rooms"] if r["slot"] == slot), None)
        if room is None or not room["revealed"]:
            return -1.0
        turned = self._turned(view, slot, clockwise, quarters)
        cat = load(view["set"])
        gain = 0.0
        mine = None
        for which, goal_y, sign in ((seat, 5 * view["rows"] if seat == "B" else -1, 1.0),
                                    ("Y" if seat == "B" else "B", -1 if seat == "B" else 5 * view["rows"], -0.5)):
            potentials = {}
            for t, moved in zip(view["tokens"], turned["tokens"]):
                if t["id"] and t["character"] and t["colour"] == which and not t["wounded"] and t["square"] \
                        and t["code"] in cat.characters:
                    crossing = self._crossing_now(view, cat, t)
                    if crossing not in potentials:
                        potentials[crossing] = (self._potential(view, goal_y, crossing),
                                                self._potential(turned, goal_y, crossing))
                    old, new = potentials[crossing]
                    step = cat.characters[t["code"]].move or 1
                    before = old(_square(t["square"]))
                    after = new(_square(moved["square"]))
                    gain += sign * (before - after) / step * 10.0 * cat.characters[t["code"]].exit_vp
            if mine is None:
                mine = gain
        self._cache[key] = gain
        self._cache[("mine", *key[1:])] = mine
        return gain

    def _walled(self, view: dict, seat: str) -> bool:
        """Whether a standing figure of mine has no open way to the exit (nor to a face-down room)."""
        if "walled" not in self._cache:
            cat = load(view["set"])
            goal_y = 5 * view["rows"] if seat == "B" else -1
            self._cache["walled"] = any(
                _square(t["square"]) not in self._open_ways(view, goal_y, self._crossing_now(view, cat, t))
                for t in view["tokens"] if t["id"] and t["character"]
                and t["colour"] == seat and not t["wounded"] and t["square"] and t["code"] in cat.characters)
        return self._cache["walled"]

    def _rotation_plans(self, view: dict, seat: str) -> list[tuple[tuple[int, int], float, int]]:
        """When a figure of mine is walled off: the gears worth walking to, as (square, gain, AP of the turns),
        the gain the best of the turns that gear works (BG-ROT-01: its room, in its arrow's direction; BG-ROT-03:
        its revealed twin, in the twin's), less 3 an AP. Computed once a turn and layout."""
        key = (view["turn"], self._layout(view))
        if self._plans is not None and self._plans[0] == key:
            return self._plans[1]
        plans: list[tuple[tuple[int, int], float, int]] = []
        if self._walled(view, seat):
            cat = load(view["set"])
            tiles = {r["slot"]: r["tile"] for r in view["rooms"] if r["revealed"] and r.get("tile") in cat.rooms}
            slots = {tile: slot for slot, tile in sorted(tiles.items())}
            mine = [_square(t["square"]) for t in view["tokens"] if t["id"] and t["character"] and t["colour"] == seat
                    and not t["wounded"] and t["square"] and t["code"] in cat.characters]
            for slot, gear in sorted(view.get("gears", {}).items()):
                if slot not in tiles:
                    continue
                reach = self._reach(view, _square(gear), 40, seat)
                if not any(square in reach for square in mine):
                    continue  # no figure of mine can walk there
                twin = next((t for t, room in cat.rooms.items() if room.number == cat.rooms[tiles[slot]].number
                             and t != tiles[slot]), None)
                targets = [slot] + ([slots[twin]] if twin in slots else [])
                best, quarters = 0.0, 0
                for target in targets:
                    clockwise = cat.rooms[tiles[target]].clockwise
                    for q in (1, 2, 3):
                        gain = self._rotate_gain(view, seat, target, clockwise, q) - 3.0 * q
                        if self._cache.get(("mine", target, clockwise, q), 0.0) < self.OPENS:
                            continue  # a plan brings my own figures nearer; the enemy's way alone is not worth a walk
                        if gain > best + 1e-9:
                            best, quarters = gain, q
                if quarters:
                    plans.append((_square(gear), best, quarters))
        self._plans = (key, plans)
        return plans

    DRIFT = 0.3
    """What the cost map's progress still counts for a walled-off figure that has a gear to walk to: through walls,
    it led figures to and fro in a dead end beside the wall (capped games: seeds 8, 15 and 28 of the base set)."""
    OPENS = 10.0
    """What a plan's turn must gain my own figures (in `_rotate_gain`'s units: an AP a figure of exit VP 1 is 10)."""
    PULL_CAP = 30.0
    """The most a step towards a gear is worth per AP of walking (a plan's gain over the AP it takes)."""

    def _gear_pull(self, view: dict, seat: str, move: int, start: tuple[int, int], dest: tuple[int, int]) -> float:
        """What a move gains towards the best rotation plan (`_rotation_plans`) its figure can walk to: the plan's
        gain over the AP it takes from here (the walk and the turns), by the AP of walking the move saves; None
        when the figure can reach no plan's gear."""
        key = ("pull", move, start, dest)
        if key in self._cache:
            return self._cache[key]
        best = None
        for gear, gain, quarters in self._rotation_plans(view, seat):
            reach = self._reach(view, gear, 40, seat)
            if start not in reach:
                continue
            before, after = reach[start], reach.get(dest, reach[start] + move)
            rate = min(self.PULL_CAP, gain / (quarters + -(-before // move)))
            value = (before - after) / move * rate
            best = value if best is None else max(best, value)
        self._cache[key] = best
        return best

    @staticmethod
    def _tile_edges(tile, x0: int, y0: int, orientation: int) -> dict[str, list[tuple[str, str]]]:
        """A room's outer walls, portcullises and arrow slits as edges (pairs of square names), in its tile's order,
        placed at (x0, y0) with `orientation` quarter turns clockwise (as the engine's board does)."""
        def placed(local):
            dx, dy = local_to_offset(local, orientation)
            return x0 + dx, y0 + dy

        outer = []
        for local, side in tile.outer_walls:
            x, y = placed(local)
            dx, dy = SIDE_STEP[rotate_side(side, orientation)]
            outer.append((_name((x, y)), _name((x + dx, y + dy)) if 0 <= x + dx < 10 else None))  # None: off the board
        return {"outer": outer,
                "portcullises": [(_name(placed(a)), _name(placed(b))) for a, b in tile.portcullises],
                "slits": [(_name(placed(a)), _name(placed(b))) for a, b in tile.arrow_slits]}

    @staticmethod
    def _turned_view(view: dict, slot: str, clockwise: bool) -> dict:
        """The view with room `slot` turned a quarter (what is in it, its walls, portcullises and pits)."""
        x0, y0 = 5 * "AB".index(slot[0]), 5 * (int(slot[1:]) - 1)
        inside = frozenset(_name((x, y)) for x in range(x0, x0 + 5) for y in range(y0, y0 + 5)).__contains__

        def turn_point(x: float, y: float) -> tuple[float, float]:
            dx, dy = x - (x0 + 2), y - (y0 + 2)
            return (x0 + 2 + dy, y0 + 2 - dx) if clockwise else (x0 + 2 - dy, y0 + 2 + dx)

        def named(x: float, y: float) -> str | None:
            x, y = round(x), round(y)
            return _name((x, y)) if 0 <= x < 10 else None

        def turn_square(name: str) -> str:
            return named(*turn_point(*_square(name))) or name

        def turn_edge_safe(a: str, b: str) -> tuple[str, str]:
            (ax, ay), (bx, by) = _square(a), _square(b)
            mx, my = turn_point((ax + bx) / 2, (ay + by) / 2)
            if ax == bx:  # a vertical pair turns horizontal, and back
                p, q = named(mx - 0.5, my), named(mx + 0.5, my)
            else:
                p, q = named(mx, my - 0.5), named(mx, my + 0.5)
            return (p, q) if p and q else (a, b)

        turned = dict(view)
        room = next((r for r in view["rooms"] if r["slot"] == slot), None)
        cat = load(view["set"])
        tile = cat.rooms.get(room["tile"]) if room and room["revealed"] and room.get("tile") else None
        if tile is None or room.get("orientation") is None:  # not known: every edge at its border turns
            turned["walls"] = [[*turn_edge_safe(a, b), k] if inside(a) or inside(b) else [a, b, k]
                               for a, b, k in view["walls"]]
            turned["portcullises"] = [[*turn_edge_safe(a, b), st] if inside(a) or inside(b) else [a, b, st]
                                      for a, b, st in view["portcullises"]]
        else:  # inside, every edge turns; at the border, the room's own (its tile's) do, its neighbours' stay
            height = 5 * view["rows"]
            orientation = room["orientation"]
            after = (orientation + (1 if clockwise else 3)) % 4
            old, new = PlannerBot._tile_edges(tile, x0, y0, orientation), PlannerBot._tile_edges(
                tile, x0, y0, after)

            def on_board(a: str, b: str | None) -> bool:
                return b is not None and all(-1 <= _square(n)[1] <= height for n in (a, b))

            walls: dict[frozenset, list] = {}
            for a, b, k in view["walls"]:
                if inside(a) and inside(b):
                    a, b = turn_edge_safe(a, b)
                walls[frozenset((a, b))] = [a, b, k]
            for (a, b), (c, d) in zip(old["outer"], new["outer"]):
                if b is not None and inside(a) and inside(b):
                    continue
                here = walls.get(frozenset((a, b)))
                if here is None and on_board(a, b):
                    continue  # broken (PD-CHAR-GOLEM): gone wherever it turns
                if here is not None:
                    here[2] -= 1
                    if here[2] <= 0:
                        del walls[frozenset((a, b))]
                if on_board(c, d):
                    there = walls.setdefault(frozenset((c, d)), [c, d, 0])
                    there[2] += 1
            turned["walls"] = list(walls.values())
            states = {frozenset((a, b)): st for a, b, st in view["portcullises"]}
            border = {frozenset((c, d)): states.get(frozenset((a, b)), "closed")
                      for (a, b), (c, d) in zip(old["portcullises"], new["portcullises"])
                      if not (inside(a) and inside(b))}
            mine = {frozenset(e) for e in old["portcullises"]}
            turned["portcullises"] = [
                [*turn_edge_safe(a, b), st] if inside(a) and inside(b) else [a, b, st]
                for a, b, st in view["portcullises"]
                if (inside(a) and inside(b)) or frozenset((a, b)) not in mine] + [
                [*sorted(e), st] for e, st in border.items() if on_board(*e)]
            if view.get("slits"):
                mine = {frozenset(e) for e in old["slits"]}
                turned["slits"] = [
                    list(turn_edge_safe(a, b)) if inside(a) and inside(b) else [a, b]
                    for a, b in view["slits"] if (inside(a) and inside(b)) or frozenset((a, b)) not in mine] + [
                    [c, d] for (a, b), (c, d) in zip(old["slits"], new["slits"])
                    if not (inside(a) and inside(b)) and on_board(c, d)]
        turned["pits"] = [turn_square(p) if inside(p) else p for p in view["pits"]]
        if "terrain" in view:  # (PD-TERR: printed on the room, it turns with it)
            turned["terrain"] = {kind: [turn_square(p) if inside(p) else p for p in squares]
                                 for kind, squares in view["terrain"].items()}
        turned["tokens"] = [dict(t, square=turn_square(t["square"])) if t["square"] and inside(t["square"]) else t
                            for t in view["tokens"]]
        return turned


BOTS = {"random": RandomBot, "greedy": GreedyBot, "planner": PlannerBot}
