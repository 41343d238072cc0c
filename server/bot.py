"""A bot player: a client like any other, over a stream, speaking the protocol through a PlayerConnection.

It sees only what the server sends it; when its latest view lists legal actions it picks one with the engine's
RandomBot, GreedyBot or PlannerBot (seeded), as an action, or as a commit-reveal for a secret choice. When the game
is stuck for it and it does not trail, it offers a draw (DT-228, `Standoff`).
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable

import trio

from dungeon_twister.engine.families import FAMILIES
from dungeon_twister.engine.core.rng import Rng
from dungeon_twister.protocol import (Action, ActionOk, ActionRefused, DrawOffer, Error, GameOver, Join, Leave, Left,
                                      OpponentCommit, Ping, PlayerConnection, Pong, ProtocolError, Refused, ResumeInfo,
                                      ServerClosing, Snapshot, Software, State, TableEvent, Welcome)

from dungeon_twister.protocol.versions import release
from dungeon_twister.protocol.views import COMPACT_LEGAL, DELTA_VIEWS, expand_prefixed_legal, expand_team_choice

from .logs import log

SOFTWARE = Software("dt-bot", release())


class KeyedRng(Rng):
    """The bot's random draws: BLAKE2b keyed by its seed, in counter mode, under the engine's `Rng` interface
    (`below`, `choice`, `shuffle`).

    The engine's SplitMix64 is a counter through an invertible mix: its outputs follow from one another. The bot
    drew from it in the open (its moves, the pause before each, ~10 bits of the stream a move when it thinks like a
    person) and in secret (its team, build and combat cards) alike, so enough of the first would tell the second.
    A keyed hash's outputs tell nothing of the key or of each other; the same seed still gives the same game."""

    __slots__ = ("_key", "_counter")

    def __init__(self, seed: int) -> None:
        super().__init__(0)
        self._key = hashlib.sha256(b"dt-bot:%d" % seed).digest()
        self._counter = 0

    def next_u64(self) -> int:
        self._counter += 1
        return int.from_bytes(hashlib.blake2b(self._counter.to_bytes(8, "little"), key=self._key,
                                              digest_size=8).digest(), "little")


RATE_LIMITED_BACKOFF = 1.0
"""Seconds a bot waits after an action refused `rate_limited` (the server's refused actions: one a second past
a burst, server/play.py REFUSED_PER_SECOND) before it sends one again."""


QUIET_TURNS = 6
"""A bot seat offers a draw (DT-228) at the end of the 6th own turn in a row that was quiet and forced (`Standoff`)...
"""
CHOSEN_QUIET_TURNS = 12
"""...or of the 12th quiet one in a row when it could have done something else in some of them: a bot that chose to
wait may be biding its time (the planner won 4 of 40 base-set games against greedy after 5 to 10 such turns)..."""
OFFER_GAP = 12
"""...and offers again, declined or lapsed, no sooner than 12 own turns after the offer before."""


class Standoff:
    """When a bot seat offers its opponent a draw (docs/rulings.md DT-228; docs/architecture.md, "The server's
    bots"): the game is stuck for it, and it does not trail.

    A *quiet* turn of the bot's is one in which it played nothing but pass-like actions (`end`, and the board game's
    action card that begins a turn) and after which the game's progress mark (both seats' VP, how many figures are
    wounded, on the board or off it: `progress`) is what it was at the end of its turn before, so that nothing the
    opponent did in between scored, wounded or revealed anything either; *forced* if pass-like actions were all its
    legal ones. At the `end` of its QUIET_TURNS-th quiet and forced turn in a row, or of its CHOSEN_QUIET_TURNS-th
    quiet one, if its VP are at least the opponent's, it offers a draw; then not again before OFFER_GAP more of its
    turns have ended (whatever the answer, or none: an offer lapses with the next action). Read from its own views
    only: what the server sends the seat."""

    def __init__(self, seat: str) -> None:
        self.seat = seat
        self.turn: int | None = None
        """The own turn under way (the view's `turn`: both rule families count every seat's turn, so one's own come
        two apart)."""
        self.passive = self.forced = True
        """Only pass-like actions played so far in the turn under way; only pass-like ones legal."""
        self.ended: int | None = None
        """The last own turn it ended (`end`), and the progress mark then."""
        self.mark: tuple | None = None
        self.quiet = self.quiet_forced = 0
        """Quiet own turns in a row, up to the last one ended; quiet and forced ones in a row."""
        self.since_offer: int | None = None
        """Own turns ended since its last offer (None: none made)."""

    def note(self, view: dict, choice: str, legal: list[str]) -> bool:
        """The bot plays `choice` of `legal` in `view`: whether to offer a draw once that action is played."""
        if view.get("active") != self.seat or view.get("outcome") is not None:
            return False  # (a placing or a combat's step in the opponent's turn: not the bot's turn)
        turn = view.get("turn")
        if turn != self.turn:
            self.turn, self.passive, self.forced = turn, True, True
        self.passive = self.passive and pass_like(choice)
        self.forced = self.forced and all(pass_like(text) for text in legal)
        if choice != "end" or turn == self.ended:
            return False
        mark = progress(view)
        quiet = self.passive and self.ended is not None and turn == self.ended + 2 and mark == self.mark
        self.quiet = self.quiet + 1 if quiet else 0
        self.quiet_forced = self.quiet_forced + 1 if quiet and self.forced else 0
        self.ended, self.mark = turn, mark
        if self.since_offer is not None:
            self.since_offer += 1
        players = view["players"]
        other = "Y" if self.seat == "B" else "B"
        if ((self.quiet_forced < QUIET_TURNS and self.quiet < CHOSEN_QUIET_TURNS)
                or (self.since_offer is not None and self.since_offer < OFFER_GAP)
                or players[self.seat]["vp"] < players[other]["vp"]):
            return False
        self.since_offer = 0
        return True


def pass_like(text: str) -> bool:
    """An action that changes nothing on the board: ending the turn, or the board game's action card played to
    begin one (BG-TURN: `card 3`; the Card Game's combat cards are secret choices, never noted here)."""
    return text == "end" or text.startswith("card ")


def progress(view: dict) -> tuple:
    """What a quiet turn leaves as it was: both seats' VP, and how many figures (the board game's tokens, the Card
    Game's characters) are wounded, in sight, or off the board (the board game's `off_board`)."""
    pieces = view.get("tokens") if "tokens" in view else view.get("figures", ())
    return (tuple(view["players"][seat]["vp"] for seat in ("B", "Y")), sum(bool(p.get("wounded")) for p in pieces),
            len(pieces), len(view.get("off_board", ())))


class BotPlayer:
    """The bot's decisions; `receive(event)` returns the frames to send."""

    def __init__(self, name: str, table: str, seat: str, kind: str, seed: int, join_code: str | None,
                 resume: ResumeInfo | None = None) -> None:
        self.conn = PlayerConnection(features=(DELTA_VIEWS, COMPACT_LEGAL), expand=False)
        """Views come as deltas (the connection gives whole views back): less for the server to send. The team
        choice and long legal lists (front-coded: a Card Game's 5,773 moves in 60 KB, not 221 KB) stay compact
        until the bot chooses; a list would pass the frame limit (and be left out: `legal_omitted`) only past
        ~100,000 moves at 1 MiB."""
        self.resume = resume
        """Set: the bot takes back its seat after a server restart (hello.resume) instead of joining."""
        self.name, self.table, self.seat, self.join_code = name, table, seat, join_code
        self.kind = kind
        self.bots: dict[str, object] = {}
        """The bot of each rule family it has seen a view of (the view's "game"; absent: the board game)."""
        self.rng = KeyedRng(seed)
        self.view: dict | None = None
        self.fresh = False
        self.committed: set[str] = set()
        self.refused: set[str] = set()
        self.last: tuple[str, str] | None = None
        self.pending: str | None = None
        """The id of its action sent and not yet answered: it chooses no other meanwhile (review fz31: a view
        published before that action was handled, a takeback asked say, had it send one more, refused "not your
        turn", and so struck off its list); once it is accepted, only the view after it counts."""
        self.backoff = 0.0
        """Seconds to wait before its next action, after a refusal `rate_limited` (the action not tried: it stays
        on its list, and sent at once again it would only be refused again)."""
        self.actions = 0
        self.ids = f"{name}-{secrets.token_hex(4)}"
        """Its action ids' prefix, new for each process: a bot that took its seat back after a restart began its
        ids at 1 again, and the server answers a used id `action_id_reused` (play-test pt25 F13)."""
        self.leaving = False
        self.standoff = Standoff(seat)
        self.offer_after: str | None = None
        """The id of the action after which it offers a draw (`Standoff`), until that action is answered."""
        self.offer_due = False
        """That action was played: the offer goes with the next view, if the game still runs."""

    def hello(self) -> bytes:
        return self.conn.send_hello(self.name, SOFTWARE, self.resume)

    def receive(self, event) -> list[bytes]:
        out = []
        if isinstance(event, Welcome) and self.resume is None:
            out.append(self.conn.send(Join(self.table, self.seat, self.join_code)))
        elif isinstance(event, Snapshot):
            out += self._new_view(event.view)
        elif isinstance(event, TableEvent) and event.event.get("kind") == "view":
            out += self._new_view(event.event["view"])
        elif isinstance(event, OpponentCommit) and event.purpose in self.committed:
            out.append(self.conn.reveal(event.purpose))
        elif isinstance(event, ActionOk) and event.action_id == self.pending:
            # a view that came meanwhile is of before the action: the step's own follows this answer on the same
            # connection (server/play.py sends action_ok, then publishes), and the bot acts on that (rv31b)
            self.pending, self.fresh = None, False
            if event.action_id == self.offer_after:
                self.offer_after, self.offer_due = None, True
        elif isinstance(event, ActionRefused) and self.last and event.action_id == self.last[0]:
            self.pending = self.offer_after = None
            if event.code == "rate_limited":  # (refused untried: the same action, a second later)
                self.backoff = RATE_LIMITED_BACKOFF
            elif event.code != "action_id_reused":  # (that one refuses the id, not the action: tried again)
                self.refused.add(self.last[1])
            self.fresh = True
        elif isinstance(event, GameOver) and not self.leaving:
            self.leaving = True
            out.append(self.conn.send(Leave()))
        elif isinstance(event, Ping):
            out.append(self.conn.send(Pong(event.id)))
        return out

    def _new_view(self, view: dict) -> list[bytes]:
        """The view to act on; with it, the draw offer due after the bot's action (DT-228), if the game runs on."""
        self.view, self.fresh, self.refused = view, True, set()
        if not self.offer_due:
            return []
        self.offer_due = False
        if view.get("outcome") is not None or self.leaving or self.conn.state is not State.AT_TABLE:
            return []
        log("bot_offers_draw", bot=self.name, table=self.table, turn=view.get("turn"))
        return [self.conn.send(DrawOffer(self.table))]

    def act(self) -> list[bytes]:
        """An action or commitment for the latest view, if it calls for one; none while its last action is
        unanswered (the view stays fresh: it chooses once the answer is in)."""
        if self.pending is not None:
            return []
        view, self.fresh = self.view, False
        if view is None or self.leaving or self.conn.state is not State.AT_TABLE:
            return []
        if view.get("team_choice"):
            listed = expand_team_choice(view["team_choice"])
        elif view.get("legal_prefixed"):
            listed = expand_prefixed_legal(view["legal_prefixed"])
        else:
            listed = view["legal"]
        legal = [text for text in listed if text not in self.refused]
        purpose = view["secret"]
        building = purpose == "build" and "build" in view  # a free team building: composed from its parts
        if (not legal and not building) or purpose in self.committed:
            return []
        choice = self.bot(view).choose(view, legal, self.rng)
        if purpose is not None:
            self.committed.add(purpose)
            return [self.conn.commit(purpose, choice)]
        self.actions += 1
        self.last = (f"{self.ids}-{self.actions}", choice)
        self.pending = self.last[0]
        if self.standoff.note(view, choice, legal):
            self.offer_after = self.last[0]
        return [self.conn.send(Action(self.table, self.last[0], choice))]

    def bot(self, view: dict):
        """The `kind` of bot (random, greedy, planner) of the view's game."""
        game = view.get("game", "board")
        if game not in self.bots:
            self.bots[game] = FAMILIES[game].bots[self.kind]()
        return self.bots[game]

    def done(self, event) -> bool:
        """Whether the bot is finished: it left, the server closes, or it could not join."""
        refused = isinstance(event, Error) and self.conn.state is State.LOBBY
        return refused or isinstance(event, (Left, ServerClosing, Refused)) or self.conn.state is State.CLOSED


async def play_bot(stream: trio.abc.Stream, name: str, table: str, seat: str, kind: str, seed: int,
                   join_code: str | None = None, think: float = 0.0, resume: ResumeInfo | None = None,
                   pace: float = 0.0) -> None:
    """Play one game at `table` in `seat`, then leave; with `think`, wait about that many seconds (0.5 to 1.5
    times) before each move, like a person; with `pace`, send no move sooner than that after what gave it (drive)."""
    player = BotPlayer(name, table, seat, kind, seed, join_code, resume)
    async with stream:
        try:
            await drive(stream, player, think, pace)
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            return
        except Exception as error:  # a bot must never take the server down
            log("bot_failed", bot=name, table=table, error=repr(error))


async def drive(stream: trio.abc.Stream, player: BotPlayer, think: float | Callable[[], float] = 0.0,
                pace: float = 0.0) -> None:
    """Say hello, then answer what the server sends and move, until the player is done or the stream ends.

    `think`: the average seconds waited before each move (0.5 to 1.5 times it), or a function giving it for the
    next move. `pace`: the least time, on trio's clock, from the data that gives the bot a move to the move sent
    (the server's `bot_pace`): a move chosen sooner waits for it, so that how long the bot took to choose, which
    depends a little on what only it knows, does not show in when its move arrives (review lk31)."""
    await stream.send_all(player.hello())
    while True:
        data = await stream.receive_some(65536)
        if not data:
            return
        arrived = trio.current_time()
        player.conn.receive_data(data)
        out = []
        while (event := player.conn.next_event()) is not None:
            if isinstance(event, ProtocolError):
                log("bot_protocol_error", bot=player.name, code=event.code, error=event.message)
            else:
                out += player.receive(event)
            if player.done(event):
                return
        if out:
            await stream.send_all(b"".join(out))
        move = player.act() if player.fresh else []
        if move:
            if player.backoff:
                await trio.sleep(player.backoff)
                player.backoff = 0.0
            pause = think() if callable(think) else think
            if pause > 0:
                await trio.sleep(pause * (0.5 + player.rng.below(1000) / 1000))
            elif pace > 0:
                await trio.sleep_until(arrived + pace)
            await stream.send_all(b"".join(move))
