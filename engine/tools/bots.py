"""Bot players that see exactly what a human sees: their seat's view and their legal actions as text.

`choose(view, legal, rng) -> str` is pure: the server's bot seats call it with what the protocol delivered, so a
bot cannot cheat. RandomBot picks uniformly; GreedyBot prefers exits, kills and safe progress.
"""

from __future__ import annotations

from collections import deque

from ..boardgame.catalogue import load
from ..core.choice import Part, PartsChoice
from ..core.rng import Rng

FILES = "abcdefghij"


def _name(square: tuple[int, int]) -> str:
    return f"{FILES[square[0]]}{square[1] + 1}"


def _square(name: str) -> tuple[int, int]:
    return FILES.index(name[0]), int(name[1:]) - 1


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
            return self._card_score(view, seat, int(words[1]), strength)
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
            distance = self._distances(view, goal_y, hunted if hunting else frozenset())
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

    def _card_score(self, view, seat, value, strength) -> float:
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
        needed = 3 - margin  # expect the opponent to play about +3
        if needed <= 0:
            return -value  # already winning: spend the smallest card
        return -abs(value - needed) if value >= needed else value - 10

    def _distances(self, view: dict, goal_y: int, hunted: frozenset[str] = frozenset()) -> dict[tuple[int, int], int]:
        """Steps from every open square to the goal (the opponent's start zone, or the squares of the enemies
        hunted), or to a face-down room's border."""
        key = ("distance", hunted)
        if key in self._cache:
            return self._cache[key]
        height = 5 * view["rows"]
        hidden = {r["slot"] for r in view["rooms"] if not r["revealed"]}
        pits = {_square(p) for p in view["pits"]}
        blocked = {frozenset((_square(a), _square(b))) for a, b, _ in view["walls"]}
        blocked |= {frozenset((_square(a), _square(b))) for a, b, st in view["portcullises"] if st == "closed"}
        blocked |= {frozenset((_square(a), _square(b))) for a, b in view.get("slits", ())}  # PR-SLIT-02

        def open_ground(sq):
            x, y = sq
            if not 0 <= x < 10 or not -1 <= y <= height:
                return False
            return y in (-1, height) or f"{'AB'[x // 5]}{y // 5 + 1}" not in hidden

        if hunted:
            goals = [_square(t["square"]) for t in view["tokens"] if t["id"] in hunted and t["square"]]
        else:
            goals = [(x, goal_y) for x in range(10)]
        frontier = deque()
        distance: dict[tuple[int, int], int] = {}
        for sq in goals:
            distance[sq] = 0
            frontier.append(sq)
        for x in range(10):  # a face-down room is worth walking to: it can be revealed
            for y in range(height):
                sq = (x, y)
                if open_ground(sq) and any(not open_ground(n) and 0 <= n[1] < height and 0 <= n[0] < 10
                                           for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1))):
                    distance.setdefault(sq, 8)
                    frontier.append(sq)
        while frontier:
            sq = frontier.popleft()
            for n in ((sq[0] + 1, sq[1]), (sq[0] - 1, sq[1]), (sq[0], sq[1] + 1), (sq[0], sq[1] - 1)):
                if open_ground(n) and n not in pits and frozenset((sq, n)) not in blocked:
                    if distance.get(n, 10**6) > distance[sq] + 1:
                        distance[n] = distance[sq] + 1
                        frontier.append(n)
        self._cache[key] = distance
        return distance

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
        """Whether a fireball or a breath in `direction` meets an enemy first: the line stops at walls, closed
        portcullises, fog, 3D obstacles and rubble (PD-TERR-FOG-02, PD-GLOS-03) and is spent on a character
        carrying a Fire Shield (PD-OBJ-FIRESHIELD-01)."""
        deltas = {"n": (0, 1), "e": (1, 0), "s": (0, -1), "w": (-1, 0)}
        tokens = {t["square"]: t for t in view["tokens"] if t["character"] is not False}
        me = next((t for t in view["tokens"] if t["id"] == wizard), None)
        if me is None:
            return False
        blocked = {frozenset((a, b)) for a, b, _ in view["walls"]}
        blocked |= {frozenset((a, b)) for a, b, st in view["portcullises"] if st == "closed"}
        terrain = view.get("terrain", {})
        opaque = set(terrain.get("fog", ())) | set(terrain.get("obstacles", ())) | set(terrain.get("fountains", ()))
        opaque |= {sq for sq, _, kind in view.get("illusions", ()) if kind == "rubble"}
        cat = load(view["set"])
        shielded = {t["square"] for t in view["tokens"] if t["id"] and t["character"] is False
                    and "fire_shield" in cat.objects[t["code"]].abilities}
        x, y = _square(me["square"])
        here = me["square"]
        dx, dy = deltas[direction]
        for _ in range(20):
            x, y = x + dx, y + dy
            if not (0 <= x < 10 and -1 <= y <= 5 * view["rows"]):
                return False
            there = f"{FILES[x]}{y + 1}"
            if frozenset((here, there)) in blocked or there in opaque:
                return False
            hit = tokens.get(there)
            if hit is not None:
                return hit["colour"] != seat and there not in shielded
            here = there
        return False


BOTS = {"random": RandomBot, "greedy": GreedyBot}
