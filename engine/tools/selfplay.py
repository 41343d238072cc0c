"""Complete games between bots, straight on the engine (for dt-engine selfplay, the benchmark and tests)."""

from __future__ import annotations

from dataclasses import dataclass

from ..boardgame.apply import apply
from .bots import BOTS
from ..boardgame.legal import legal_actions
from ..boardgame.notation import format_action, parse_action
from ..core.choice import is_lazy
from ..core.rng import Rng
from ..boardgame.setup import new_game
from ..boardgame.state import GameState, Options
from ..boardgame.views import view


@dataclass(frozen=True)
class GameResult:
    seed: int
    winner: str | None
    vp: dict
    turns: int
    actions: int
    reason: str
    final: GameState


def play_game(seed: int, options: Options = Options(), bots: tuple[str, str] = ("random", "random"),
              max_actions: int | None = None, progress=None, every: int = 1000) -> GameResult:
    """Play one game; with `max_actions`, stop early (reason 'unfinished'); `progress(actions)` is called every
    `every` actions (dt-engine selfplay shows it)."""
    state = new_game(options, seed)
    rng = Rng(seed ^ 0x5EED)
    players = {"B": BOTS[bots[0]](), "Y": BOTS[bots[1]]()}
    count = 0
    while state.outcome is None and (max_actions is None or count < max_actions):
        seat = state.to_act[0]
        legal = legal_actions(state, seat)
        if players[seat].name == "random":
            action = rng.choice(legal)
        else:
            texts = [] if is_lazy(legal) else [format_action(a) for a in legal]  # a build: the view's parts
            action = parse_action(players[seat].choose(view(state, seat), texts, rng), seat)
        state, _ = apply(state, action)
        count += 1
        if progress is not None and count % every == 0:
            progress(count)
    o = state.outcome
    return GameResult(seed, o.winner if o else None, {s: state.vp(s) for s in ("B", "Y")}, state.turn, count,
                      o.reason if o else "unfinished", state)
