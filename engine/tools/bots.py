"""Bot players that see exactly what a human sees: their seat's view and their legal actions as text.

`choose(view, legal, rng) -> str` is pure: the server's bot seats call it with what the protocol delivered, so a
bot cannot cheat. RandomBot picks uniformly; GreedyBot prefers exits, kills and safe progress.
"""

from __future__ import annotations

from collections import deque

from ..boardgame.catalogue import load
from ..core.rng import Rng

FILES = "abcdefghij"


def _square(name: str) -> tuple[int, int]:
    return FILES.index(name[0]), int(name[1:]) - 1


class RandomBot:
    name = "random"

    def choose(self, view: dict, legal: list[str], rng: Rng) -> str:
        return rng.choice(legal)


class GreedyBot:
    """A baseline: score every legal action with simple heuristics, take the best (ties broken at random)."""

    name = "greedy"
    TEAM_PREFERENCE = ("TH", "WA", "TR", "GB", "CL", "WZ", "MK", "WW")

    def choose(self, view: dict, legal: list[str], rng: Rng) -> str:
        seat = view["viewer"]
        self._cache = None  # distances are computed once per decision
        if view["phase"] == "team":
            return max(legal, key=lambda a: (self._team_score(a), rng.below(1000)))
        best_score, best = None, []
        for action in legal:
            score = self.score(view, seat, action)
            if best_score is None or score > best_score:
                best_score, best = score, [action]
            elif score == best_score:
                best.append(action)
        rotations = [a for a in legal if a.startswith("rotate")]
        if best_score <= 0 and rotations and rng.below(2):
            return rng.choice(rotations)  # nothing gains: turning a room may open a way
        return rng.choice(best)

    def _team_score(self, action: str) -> int:
        codes = [w.split("=")[1] for w in action.split()[1:] if "=" in w and not w.startswith("out=")]
        return -sum(self.TEAM_PREFERENCE.index(c) for c in codes if c in self.TEAM_PREFERENCE)

    def score(self, view: dict, seat: str, action: str) -> float:
        words = action.split()
        verb = words[0]
        cat = load(view["set"])
        tokens = {t["id"]: t for t in view["tokens"] if t["id"]}
        goal_y = 5 * view["rows"] if seat == "B" else -1

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
        if verb == "combat":
            return self._card_score(view, seat, int(words[1]), strength)
        if verb == "end":
            return 0.0
        if verb == "attack":
            me, them = view["players"][seat], view["players"]["Y" if seat == "B" else "B"]
            my_best = max(me["combat_cards"]) if me["combat_cards"] else 0
            their_best = 0 if them["combat_cards"] <= 1 else 3  # only the +0 left, or a guess
            target = tokens.get(words[2])
            margin = strength(words[1], True) - strength(words[2], False)
            if margin + my_best - their_best <= 0:
                return -5.0 + margin  # a tie or a loss is likely
            return 50 + margin * 10 if (target and target["wounded"]) or margin >= 2 else -5 + margin
        if verb == "fireball":
            return 40.0 if self._fireball_hits_enemy(view, seat, words[1], words[2]) else -50.0
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
            if dest[1] == goal_y:
                return 100.0 + (20 if "+" in action or "TS" in action else 0)
            distance = self._distances(view, goal_y)
            start = _square(token["square"])
            far = 5 * view["rows"] + 12
            progress = distance.get(start, far) - distance.get(dest, far)
            danger = self._danger(view, seat, dest, strength(words[1], False))
            bonus = 6 if any(w.startswith("+") and self._lying_free(view, w[1:]) for w in words) else 0
            return progress * 2 + bonus - danger * 15 - (3 if verb == "jump" else 0)
        if verb in ("place", "hide", "pass"):
            return 1.0
        return 0.0

    @staticmethod
    def _lying_free(view: dict, item: str) -> bool:
        """An object on a square with no figure: picking it up gains something (not a hand-over)."""
        square = next((t["square"] for t in view["tokens"] if t["id"] == item), None)
        return square is not None and not any(
            t["square"] == square and t["character"] and not t["wounded"] for t in view["tokens"])

    def _card_score(self, view, seat, value, strength) -> float:
        combat = view["combat"]
        if combat is None:
            return -value
        attacking = view["active"] == seat
        mine = combat["attackers"] if attacking else combat["defenders"]
        theirs = combat["defenders"] if attacking else combat["attackers"]
        margin = sum(strength(t, attacking) for t in mine) - sum(strength(t, not attacking) for t in theirs)
        needed = 3 - margin  # expect the opponent to play about +3
        if needed <= 0:
            return -value  # already winning: spend the smallest card
        return -abs(value - needed) if value >= needed else value - 10

    def _distances(self, view: dict, goal_y: int) -> dict[tuple[int, int], int]:
        """Steps from every open square to the opponent's start zone, or to a face-down room's border."""
        if getattr(self, "_cache", None) is not None:
            return self._cache
        height = 5 * view["rows"]
        hidden = {r["slot"] for r in view["rooms"] if not r["revealed"]}
        pits = {_square(p) for p in view["pits"]}
        blocked = {frozenset((_square(a), _square(b))) for a, b, _ in view["walls"]}
        blocked |= {frozenset((_square(a), _square(b))) for a, b, st in view["portcullises"] if st == "closed"}

        def open_ground(sq):
            x, y = sq
            if not 0 <= x < 10 or not -1 <= y <= height:
                return False
            return y in (-1, height) or f"{'AB'[x // 5]}{y // 5 + 1}" not in hidden

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
        self._cache = distance
        return distance

    def _danger(self, view, seat, square, my_strength) -> int:
        enemies = [t for t in view["tokens"] if t["colour"] != seat and t["id"] and t["character"]
                   and not t["wounded"]]
        cat = load(view["set"])
        for enemy in enemies:
            x, y = _square(enemy["square"])
            if abs(x - square[0]) + abs(y - square[1]) <= 2 and cat.characters[enemy["code"]].combat > my_strength:
                return 1
        return 0

    def _fireball_hits_enemy(self, view, seat, wizard, direction) -> bool:
        deltas = {"n": (0, 1), "e": (1, 0), "s": (0, -1), "w": (-1, 0)}
        tokens = {t["square"]: t for t in view["tokens"] if t["character"] is not False}
        me = next((t for t in view["tokens"] if t["id"] == wizard), None)
        if me is None:
            return False
        x, y = _square(me["square"])
        dx, dy = deltas[direction]
        for _ in range(20):
            x, y = x + dx, y + dy
            if not (0 <= x < 10 and -1 <= y <= 5 * view["rows"]):
                return False
            hit = tokens.get(f"{FILES[x]}{y + 1}")
            if hit is not None:
                return hit["colour"] != seat
        return False


BOTS = {"random": RandomBot, "greedy": GreedyBot}
