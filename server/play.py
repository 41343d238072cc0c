"""The game at one table: actions, commit-reveal rounds, timers and the end of the game.

Everything here runs in the table's task; it changes the game and tells the table what to publish.
"""

from __future__ import annotations

import hashlib
import logging
from functools import partial
from typing import TYPE_CHECKING

import trio

from dungeon_twister.engine import SEATS, ChooseTeam, Event, NotationError, opponent, parse_action
from dungeon_twister.engine.core.errors import N_
from dungeon_twister.engine.core.rng import Rng
from dungeon_twister.protocol import (Action, ActionOk, ActionRefused, Commit, GameOver, OpponentCommit,
                                      OpponentReveal, ProtocolError, Reveal, Timer, templated)
from dungeon_twister.protocol.deal import DEAL_PURPOSE, deal_seed
from dungeon_twister.protocol.errors import TAKEBACK_HEAD
from dungeon_twister.protocol.kinds import fit_template
from dungeon_twister.protocol.names import name_key

from .answers import Answers
from .deadlines import Deadline, Deadlines, turn_extensions
from .deal import DEAL_SECONDS, DealExchange
from .glicko2 import Rating, game
from .ratelimit import TokenBucket
from .game import Game, Refusal, server_refusal
from .logs import log
from .records import record_text, write_record
from .secret import SecretRounds

ABANDONED_BY_BOTH = "abandoned by both"
"""The reason of a game both players left: the grace of each ran out, neither came back. No winner, not rated."""
ABORTED = "aborted"
"""The reason of a game left (resigned or abandoned) before its first turn: no winner, not rated, as lichess
aborts a game left before its first moves (a play-test's player read "Blue wins 0-0" for a game whose opponent
dropped during the team choice)."""
ENDED_BY_ADMIN = "ended by the server's admin"
"""The reason of a game the server's admin ended (`dt-server admin end`, server/admin.py): no winner, not rated."""
IDLE = "idle"
"""The reason of a game lost by a player the table waited on alone, with no action of his, for
config.idle_minutes, at a table without timers (`Play.idle`): the other wins, rated as an abandonment."""
IDLE_WARNINGS = (300, 60)
"""Seconds before that loss when the table tells everyone at it (the public event `idle_warning {seat, seconds}`,
docs/protocol.md section 13): 5 minutes, time to come back from a break and play, and 1 minute, a last call for
one who missed the first as the log went on; each only when it falls after the waiting began (less than
idle_minutes), so that nobody is warned as soon as his turn comes (idle_minutes 5 warns at 1 minute only, 1 not at
all). A player lost such a game without a word before (srv30)."""

if TYPE_CHECKING:
    from .ports import Client as Session
    from .ports import TableRoom as Table

TURN_PHASES = ("card", "main", "place")
UNTIMED_REVEAL_MIN = 5.0
"""DT-050: the least time a seat has to reveal on an untimed table (should the grace period be shorter)."""
REFUSED_BURST = 10
REFUSED_PER_SECOND = 1.0
"""A seat's refused actions: REFUSED_BURST at once, then one a second; beyond, an action is answered
`action_refused` `rate_limited` without being tried. Each action the table tries costs its task the rules
engine's work (the text parsed, looked up, a refused move searched again for its reason); accepted actions are
bounded by the game itself, refused ones were not: a client repeating one at the network's pace kept the table's
task, and so the process, busy. A player who mistypes meets no limit; a client that resends what got no answer
resends accepted actions (answered from memory) and few refused ones."""
REPEATED_BURST = 10
REPEATED_PER_SECOND = 1.0
"""A seat's actions repeating an id answered action_ok: REPEATED_BURST at once, then one a second; beyond, one is
answered `rate_limited` without being looked up. Such an id is known by its hash alone, its text in the journal
(server/answers.py), which the store scans for it: 900 repeats in one write (63 KB) cost a live server 0.8 s of
CPU, ~1 ms a lookup (17 ms in a store of 50,000 journal lines), every other table waiting (fuzzing fz31). A
client that reconnects resends the few actions it got no answer to."""


class Play:
    _restart_news: tuple | list = ()
    """The `timeout` events of the secret choices a restart made for restored bots (recovery.py, DT-091), held
    while the table is (`held`) and published once both players are back (`resumed`): published at the server's
    start they reached nobody, the snapshot a returning player gets does not tell them, and a continued
    `dt-client play` game's log said nothing of the bot's team drawn again (play-test pt24 F5). A class default:
    an instance list only on the tables that have some."""

    _idle: tuple[str, float, tuple[int, ...]] | None = None
    """(seat, when it loses, the IDLE_WARNINGS still to give him): the seat a table without timers waits on alone
    since its last action (`idle`). A class default: set only while a game waits on one seat."""

    def __init__(self, table: Table, options, seed: int, timed: bool) -> None:
        self.table = table
        self.options = options
        self.game = Game(options, seed)
        self.seed = seed
        """The server's seed of the game, secret until the end (its commitment is public: docs/protocol.md
        section 16)."""
        self.rules = self.game.family
        """The game's rule family (engine.families): every rule below is asked of it."""
        self.game.record.sink = self.journal
        self.rounds = SecretRounds(table.id)
        self.deadlines = Deadlines() if timed else None
        self.held = False
        """Restored after a restart: no timer runs until both players are back (recovery.py)."""
        self.started = False
        self.result: dict | None = None
        store = table.lobby.store
        self.answers = {seat: Answers(partial(store.answered, table.id, seat)) for seat in SEATS}
        """Per seat, its answers to its action ids, for the whole game (docs/protocol.md, idempotent actions)."""
        self._refusals: dict[str, TokenBucket] = {}
        """Each seat's refused actions (`action`): a refusal spends one; none left, an action is not tried. A seat's
        bucket is made at its first refusal (full until then, as a bucket made earlier would be): most games have
        none, and two buckets took ~0.3 KB of each game in play."""
        self._lookups: dict[str, TokenBucket] | None = None
        """Each seat's repeats of accepted action ids (REPEATED_BURST), made at the first repeat: most games have
        none."""
        self._waiting_reveals: dict[str, list] = {}
        """Engine event kind -> the reveals sent with it (the family's reveal_after: a team choice, hidden start
        characters), which the opponent must not see before the game shows them."""
        self._held_reveals: list = []
        """Reveals sent when the game ends: team choices that name the characters a handicapped player left out
        (DT-043), and free builds (PD-TEAM-FREE-01: hidden forces, DT-120)."""
        self._reveal_by: dict[tuple[str, str], float] = {}
        """Untimed tables (DT-050): (purpose, seat) -> when the server stands in for a reveal that did not come."""
        self.restored_choices: set[tuple[str, str]] = set()
        """(purpose, seat) of the secret choices committed before a restart (recovery.replay), until their round
        closes: one the rules now refuse is read as the family's older notation meant it (`legacy_action`, DT-271:
        a `face` on places of face-down rooms, committed to a server of before DT-266). A choice committed after
        the restart is live input and gets no such reading."""
        self.takeback_asked: str | None = None
        """The seat asking the other to take its last action back (DT-224), until an answer or another action."""
        self.draw_offered: str | None = None
        """The seat offering the other a draw (DT-228), until an answer or another action."""
        self.draw_declined: str | None = None
        """The seat whose draw offer was declined: it may offer again once an action was played (DT-228)."""
        self.takeback_declined: str | None = None
        """The seat whose takeback was declined: it may ask again once an action was played (DT-224)."""
        self.deal: DealExchange | None = None
        """The players' contributions to the deal (docs/protocol.md section 16), from when both seats are taken
        on a table whose players contribute; None on a table that plays from the server's seed alone."""
        self.dealt: int | None = None
        """The seed the game was dealt from, once the contributions are mixed in (None: the server's seed)."""
        self._placeholder = None

    @property
    def running(self) -> bool:
        return self.started and self.result is None

    def journal(self, line: str, data: dict | None) -> None:
        """A new line of the game record: into the store (committed before anything it causes is sent)."""
        self.table.lobby.store.add_line(self.table.id, line, data)

    def seated(self) -> None:
        """Both seats are taken: the game starts, or first the players contribute to its deal (section 16)."""
        status = self.table.seating.contributions()
        if status is None:
            return self.start()
        self.deal = DealExchange(self.table.id, status)
        self.deal.deadline = trio.current_time() + DEAL_SECONDS
        self.journal(f"# deal-open {' '.join(f'{seat}={status[seat]}' for seat in SEATS)}",
                     {"k": "deal_open", "status": status})
        self.table.publish([self.table.point()])
        self._deal_progress()

    def placeholder(self):
        """The state shown before the deal while the players may still contribute to it: a game dealt from seed 0,
        so that nothing of the server's seed shows before the players are bound to their contributions."""
        if self._placeholder is None:
            self._placeholder = self.rules.new_game(self.options, 0)
        return self._placeholder

    def cancel_deal(self) -> None:
        """A seat was freed before the deal: the exchange is over; a new one opens when both seats are taken."""
        if self.deal is not None and self.dealt is None:
            self.deal = None
            self.journal("# deal-cancelled", {"k": "deal_cancel"})

    def _deal_commit(self, session: Session, seat: str, message: Commit) -> None:
        deal = self.deal
        if deal is None or self.dealt is not None:
            session.send_error(templated("bad_purpose", "no deal contribution is pending"))
            return
        try:
            deal.commit(seat, message.commitment)
        except ProtocolError as error:
            session.send_error(error)
            return
        self.journal(f"# commit {seat} {DEAL_PURPOSE} {message.commitment.hex()}",
                     {"k": "deal_commit", "seat": seat, "commitment": message.commitment.hex()})
        self._deal_progress(publish=True)

    def _deal_reveal(self, session: Session, seat: str, message: Reveal) -> None:
        deal = self.deal
        if deal is None or self.dealt is not None:
            session.send_error(templated("bad_purpose", "no deal contribution is pending"))
            return
        try:
            deal.reveal(seat, message.choice, message.nonce)
        except ProtocolError as error:
            session.send_error(error)
            return
        self.journal(f"# reveal {seat} {DEAL_PURPOSE} {message.nonce.hex()} {message.choice}",
                     {"k": "deal_reveal", "seat": seat, "choice": message.choice, "nonce": message.nonce.hex()})
        self._deal_progress(publish=True)

    def _deal_progress(self, publish: bool = False) -> None:
        """After any change of the exchange: a new stage's clock and commitments, or the deal once it is done."""
        deal = self.deal
        stage = deal.stage
        if stage == "done":
            return self._deal()
        if deal.timed_stage != stage:  # the reveals have their own time
            if deal.deadline is not None:
                deal.deadline = trio.current_time() + DEAL_SECONDS
            deal.timed_stage = stage
        if publish:
            self.table.publish([self.table.point()])
        for to, sender, commitment in deal.commitments_to_send():
            self.table.send_to(to, OpponentCommit(self.table.id, DEAL_PURPOSE, sender, commitment))

    def _deal(self) -> None:
        """Every contribution is in (or none): the game is dealt from their mix, journaled before game_started."""
        deal = self.deal
        parts = deal.parts()
        seed = deal_seed(self.table.id, self.table.seed, parts["B"], parts["Y"])
        self.journal(f"# dealt seed={seed} " + " ".join(f"{seat}={parts[seat] or '-'}" for seat in SEATS),
                     {"k": "dealt", "seed": seed, "contributions": parts})
        self.deal_with(seed)
        for seat, (choice, nonce) in deal.contributions.items():
            if opponent(seat) in deal.commitments:  # he is bound to his own: he may see this one
                self.table.send_to(opponent(seat), OpponentReveal(self.table.id, DEAL_PURPOSE, seat, choice, nonce))
        self.start()

    def deal_with(self, seed: int, sink: bool = True) -> None:
        """The game, dealt again from the mixed seed (`sink`: its record goes to the journal)."""
        self.dealt = seed
        self.game = Game(self.options, seed)
        self.game.record.sink = self.journal if sink else None

    def start(self) -> None:
        self.started = True
        self.table.publish([{"kind": "game_started", "seats": self.table.names()}, self.table.point()])
        self._retime()

    # --- actions ------------------------------------------------------------------------------------------
    def action(self, session: Session, seat: str, message: Action) -> None:
        """Answer action_ok or action_refused (the same answer again for a repeated action_id)."""
        answers = self.answers[seat]
        now = trio.current_time()
        if answers.in_journal(message.action_id):
            if self._lookups is None:
                self._lookups = {}
            lookups = self._lookups.get(seat)
            if lookups is None:
                lookups = self._lookups[seat] = TokenBucket(REPEATED_BURST, REPEATED_PER_SECOND)
            if not lookups.take(now):
                session.send(refused(message.action_id, server_refusal(
                    "rate_limited", "too many repeated action ids: at most {burst} at once, then {rate} a second; "
                    "this one was not looked up", burst=REPEATED_BURST, rate=format(REPEATED_PER_SECOND, "g"))))
                return
        known = answers.get(message.action_id)
        if known is not None:
            text, answer = (known, ActionOk(message.action_id)) if type(known) is str else known
            if text != message.text:
                answer = refused(message.action_id, server_refusal(
                    "action_id_reused", "this action_id was used for {text}", text=repr(text)))
            session.send(answer)
            return
        limit = self._refusals.get(seat)
        if limit is not None and not limit.has(now):  # not tried, not remembered: sent again later, it is judged then
            session.send(refused(message.action_id, server_refusal(
                "rate_limited", "too many refused actions: at most {burst} at once, then {rate} a second; this one "
                "was not tried", burst=REFUSED_BURST, rate=format(REFUSED_PER_SECOND, "g"))))
            return
        events = None
        try:
            events = self._act(seat, message.text, {"id": message.action_id, "typed": message.text})
            answer = ActionOk(message.action_id)
        except Refusal as refusal:
            answer = refused(message.action_id, refusal)
        if events is not None:
            answers.accepted(message.action_id, message.text)
        else:
            answers.refused(message.action_id, message.text, answer)
            if limit is None:
                limit = self._refusals[seat] = TokenBucket(REFUSED_BURST, REFUSED_PER_SECOND)
            limit.take(now)
        session.send(answer)
        if events is not None:
            self._step(events)

    def _act(self, seat: str, text: str, meta: dict):
        if self.result is not None:
            raise server_refusal("illegal_action", "the game is over", self.rules.end_rule)
        if not self.started:
            raise server_refusal("not_started", "the game starts when both seats are taken")
        purpose = self.rules.secret_purpose(self.game.state, seat)
        if purpose is not None:
            raise server_refusal("secret_choice", "{purpose} is a secret choice: send commit, then reveal",
                                 purpose=purpose)
        action = self.game.resolve(seat, text)
        return self.game.apply(action, meta, text if self.game.listed(seat, text) else None)

    # --- takebacks (docs/rulings.md DT-224) ----------------------------------------------------------------
    def takeback(self, session: Session, seat: str) -> None:
        """`seat` asks to take back its last action: refused with the reason, or put to the opponent (a bot
        accepts at once)."""
        undo, game = self.game.undo, self.game
        if not self.running or undo is None or undo[1] != seat:
            why, values = ((N_("no game is running"), {}) if not self.running else
                           # a combat begun by one's own attack ends with the cards, the opponent's the last of them
                           (N_("the last action was a secret choice"), {}) if game.last_secret
                           else (N_("the last action is your opponent's"), {}) if game.last_seat not in (None, seat)
                           else game.undo_refusal)
            # the reason's template after a head the client translates on its own (docs/protocol.md, `error`)
            session.send_error(templated("not_allowed", TAKEBACK_HEAD + why, **values))
            return
        if self.takeback_asked == seat:
            session.send_error(templated("not_allowed", "you asked already: wait for the answer"))
            return
        if self.takeback_declined == seat:  # (each request is a journal line: not again and again)
            session.send_error(templated("not_allowed", "your takeback was declined: ask again after the next action"))
            return
        other = opponent(seat)
        if self.table.seating.seats[other].bot:
            return self._take_back(seat)
        self.journal(f"# takeback-asked {seat}", {"k": "takeback_ask", "seat": seat})  # (recovery.replay)
        self.takeback_asked = seat
        self.table.publish([self._takeback_event(), self.table.point()])  # the view's table.asked, as a snapshot's

    def takeback_answer(self, session: Session, seat: str, accept: bool) -> None:
        asked = self.takeback_asked
        if asked is None or asked == seat or not self.running:
            session.send_error(templated("not_allowed", "no takeback is asked of you"))
            return
        if accept:
            self.takeback_asked = None
            self._take_back(asked)
        else:
            self.journal(f"# takeback-declined {asked} {seat}", {"k": "takeback_decline", "seat": asked})
            self.takeback_asked, self.takeback_declined = None, asked
            self.table.publish([{"kind": "takeback_declined", "seat": asked, "by": seat}, self.table.point()])

    def _take_back(self, seat: str) -> None:
        """The last action goes: the record says so (durable before anything is sent), everyone sees it."""
        lapsing = self._lapsing()  # (a draw offered meanwhile: the takeback asked was answered)
        self._moved_on()
        line = self.game.undo[2]
        self.game.record.comment(f"takeback {seat} {_text(line)}", {"k": "takeback", "seat": seat})
        self.game.take_back()
        self.table.publish([*lapsing, {"kind": "taken_back", "seat": seat, "action": _text(line)}, self.table.point()],
                           self._timers())  # with each view, as a step's (`_step`)
        self.table.after_step(self.game.pack)

    # --- draws by agreement (docs/rulings.md DT-228) -------------------------------------------------------
    def offer_draw(self, session: Session, seat: str) -> None:
        """`seat` offers a draw: refused with the reason, put to the opponent, or, if he offered one himself,
        agreed. A bot accepts unless it leads on VP."""
        if not self.running:
            session.send_error(templated("not_allowed", "no game is running"))
            return
        other = opponent(seat)
        if self.draw_offered == other:
            return self._agree_draw()
        if self.draw_offered == seat:
            session.send_error(templated("not_allowed", "you offered a draw already: wait for the answer"))
            return
        if self.draw_declined == seat:
            session.send_error(templated("not_allowed", "your draw offer was declined: offer again after the next "
                                                        "action"))
            return
        self.journal(f"# draw-offered {seat}", {"k": "draw_offer", "seat": seat})  # (recovery.replay)
        self.draw_offered = seat
        self.table.publish([self._draw_event(), self.table.point()])
        if not self.table.seating.seats[other].bot:
            return
        if self.game.state.vp(other) <= self.game.state.vp(seat):
            self._agree_draw()
        else:
            self._decline_draw(seat, other)

    def draw_answer(self, session: Session, seat: str, accept: bool) -> None:
        offered = self.draw_offered
        if offered is None or offered == seat or not self.running:
            session.send_error(templated("not_allowed", "no draw is offered to you"))
            return
        if accept:
            self._agree_draw()
        else:
            self._decline_draw(offered, seat)

    def _agree_draw(self) -> None:
        self.draw_offered = None
        self.end(None, "agreed")

    def _decline_draw(self, offered: str, by: str) -> None:
        self.journal(f"# draw-declined {offered} {by}", {"k": "draw_decline", "seat": offered})
        self.draw_offered, self.draw_declined = None, offered
        self.table.publish([{"kind": "draw_declined", "seat": offered, "by": by}, self.table.point()])

    def committed_now(self) -> list[str]:
        """The seats that have committed to the secret choice the game waits on (a view's `table.committed`): as
        at the table, where a card laid face down is seen laid, what was chosen not. Public; published with each
        commitment, so that the other player and the spectators know who has chosen (a play-test's player waited
        on an opponent who had long chosen)."""
        if not self.running:
            return []
        state = self.game.state
        purposes = {self.rules.secret_purpose(state, seat) for seat in state.to_act} - {None}
        return sorted({seat for purpose in purposes for seat in self.rounds.committed(purpose)})

    def pending_requests(self) -> list[dict]:
        """The takeback request and the draw offer pending, as the events that made them (docs/protocol.md: a
        snapshot's `table.asked`). Each is journaled before it is put to the opponent, and so is its answer: a
        restarted server puts it again (recovery.replay, `REQUEST_KINDS`)."""
        out = []
        if self.takeback_asked is not None and self.game.undo is not None:
            out.append(self._takeback_event())
        if self.draw_offered is not None:
            out.append(self._draw_event())
        return out

    def _takeback_event(self) -> dict:
        """The event of the takeback asked (`takeback_asked`): published, and listed in snapshots while pending."""
        return {"kind": "takeback_asked", "seat": self.takeback_asked, "action": _text(self.game.undo[2])}

    def _draw_event(self) -> dict:
        """The event of the draw offered (`draw_offered`): published, and listed in snapshots while pending."""
        return {"kind": "draw_offered", "seat": self.draw_offered}

    def _lapsing(self) -> list[dict]:
        """The events saying that the requests pending now lapse with a change of the game (`_moved_on`):
        `request_lapsed {seat, request}`, `request` "takeback" or "draw", published before the change's own events,
        so that the asker is told, not left to watch `table.asked` (ind31: an independent client waited for an
        answer that could no longer come)."""
        pending = (("takeback", self.takeback_asked), ("draw", self.draw_offered))
        return [{"kind": "request_lapsed", "seat": seat, "request": request} for request, seat in pending if seat]

    def _moved_on(self) -> None:
        """Any change of the game drops a pending takeback request (DT-224) and draw offer, and lets a player
        whose takeback or draw offer was declined ask again (DT-224, DT-228)."""
        self.takeback_asked = self.draw_offered = self.draw_declined = self.takeback_declined = None

    # --- commit-reveal ------------------------------------------------------------------------------------
    def commit(self, session: Session, seat: str, message: Commit) -> None:
        if message.purpose == DEAL_PURPOSE and not self.started:
            return self._deal_commit(session, seat, message)
        if not self.running or self.rules.secret_purpose(self.game.state, seat) != message.purpose:
            session.send_error(templated("bad_purpose", "no secret choice {purpose} is pending",
                                         purpose=repr(message.purpose)))
            return
        try:
            self.rounds.commit(seat, message.purpose, message.commitment)
        except ProtocolError as error:
            session.send_error(error)
            return
        self.game.record.commit(seat, message.purpose, message.commitment)
        self.table.publish([self.table.point()])  # the view's table.committed: who has chosen (`committed_now`)
        self._send_commitments(message.purpose)
        self._start_reveal_clock(message.purpose)
        self._retime()

    def reveal(self, session: Session, seat: str, message: Reveal) -> None:
        purpose = message.purpose
        if purpose == DEAL_PURPOSE and not self.started:
            return self._deal_reveal(session, seat, message)
        pending = self.running and self.rules.secret_purpose(self.game.state, seat) == purpose
        try:
            self.rounds.reveal(seat, purpose, message.choice, message.nonce, pending=pending)
        except ProtocolError as error:
            session.send_error(error)
            return
        self.game.record.reveal(seat, purpose, message.choice, message.nonce)
        self._reveal_by.pop((purpose, seat), None)
        if self.rounds.ready(purpose):
            self._complete(purpose)
        else:
            self._retime()

    def _start_reveal_clock(self, purpose: str) -> None:
        """DT-050: without timers, once both commitments are in, each seat has the grace period to reveal (a
        client that crashed lost its nonce and never can); then the rules' fallback stands for it."""
        if self.deadlines is not None or self.rounds.committed(purpose) != set(SEATS):
            return
        at = trio.current_time() + max(float(self.table.grace), UNTIMED_REVEAL_MIN)
        opened = self.rounds.opened(purpose)
        for seat in SEATS:
            if seat not in opened:
                self._reveal_by.setdefault((purpose, seat), at)

    def _send_commitments(self, purpose: str) -> None:
        for to, sender, commitment in self.rounds.commitments_to_send(purpose):
            self.table.send_to(to, OpponentCommit(self.table.id, purpose, sender, commitment))

    def _complete(self, purpose: str) -> None:
        """Both choices are known: forward the reveals (a team's once the teams are revealed), apply B's then Y's."""
        opened = self.rounds.opened(purpose)
        reveals = [OpponentReveal(self.table.id, purpose, sender, choice.choice, choice.nonce)
                   for to, sender, choice in self.rounds.reveals_to_send(purpose)]
        if purpose in self.rules.reveal_after:
            self._waiting_reveals.setdefault(self.rules.reveal_after[purpose], []).extend(reveals)
        elif purpose == "build":  # PD-TEAM-FREE: a build stays hidden; its reveal is sent when the game ends
            self._held_reveals += reveals
        else:
            for reveal in reveals:
                self.table.send_to(opponent(reveal.seat), reveal)
        self.rounds.close(purpose)
        self._reveal_by = {key: at for key, at in self._reveal_by.items() if key[0] != purpose}
        restored, self.restored_choices = self.restored_choices, {k for k in self.restored_choices if k[0] != purpose}
        events = []
        for seat in SEATS:
            try:
                events += self.game.apply(self.game.choice(seat, purpose, opened[seat].choice,
                                                           legacy=(purpose, seat) in restored))
            except Refusal as refusal:
                # The rules' fallback (+0 for a combat); for the team, which has none, one drawn in secret (DT-236):
                # a second commitment would let a cheating server show one team before the other is chosen.
                fallback = self.rules.timeout_action(self.game.state, seat) or self._any_choice(seat, purpose)
                self.game.record.comment(f"refused {seat} {purpose}: {refusal.message}")
                events += self.game.apply(fallback)
                played = self.rules.format_action(fallback)
                self.table.send_to(seat, ActionRefused(
                    purpose, refusal.code, f"{refusal.message[:900]}; {played} was played instead",
                    refusal.rule))
        self._step(events)

    def resumed(self, seat: str | None, session: Session) -> None:
        """A client (re)joined: the commitments it must reveal against, and the running timers."""
        if seat is not None:
            for purpose, commitment in self.rounds.awaiting_reveal(seat):
                session.send(OpponentCommit(self.table.id, purpose, opponent(seat), commitment))
        deal = self.deal
        if deal is not None and self.dealt is None:
            commitment = deal.awaiting_reveal(seat) if seat is not None else None
            if commitment is not None:
                session.send(OpponentCommit(self.table.id, DEAL_PURPOSE, opponent(seat), commitment))
            if deal.deadline is None and all(s.session is not None for s in self.table.seating.seats.values()):
                deal.deadline = trio.current_time() + DEAL_SECONDS  # restored: the exchange's clock starts afresh
        if self.held and all(s.session is not None for s in self.table.seating.seats.values()):
            self.held = False  # both players are back after a restart: the timers start afresh,
            if self._restart_news:  # (what the restart chose for a bot, after the snapshot of each player)
                news, self._restart_news = self._restart_news, ()
                self.table.publish(list(news))
            for purpose in self.rounds.both_committed():  # and so do the reveals' without timers (DT-050)
                self._start_reveal_clock(purpose)
            self._retime()
        elif self.deadlines is not None and self.running:
            now = trio.current_time()
            back = self.deadlines.resume(seat, now) if seat is not None else []
            for deadline in back:  # DT-251: his reveals' 5 seconds start now, for everyone to see
                self.table.send_all(Timer(self.table.id, deadline.seat, _ms(deadline.at - now)))
            # a seat's soonest deadline: the attacker's turn clock runs on beside his combat card's 5 seconds (DT-235),
            # and a client keeps one countdown a seat, the last sent (a play-test's spectator, come in during those
            # 5 seconds, read the turn's 1:33)
            soonest: dict[str, Deadline] = {}
            for deadline in self.deadlines.running():
                if deadline.seat not in soonest or deadline.at < soonest[deadline.seat].at:
                    soonest[deadline.seat] = deadline
            for deadline in soonest.values():
                if all(deadline is not resumed for resumed in back):
                    session.send(Timer(self.table.id, deadline.seat, _ms(deadline.at - now)))

    # --- after every change -------------------------------------------------------------------------------
    def _step(self, events, before: list | None = None) -> None:
        """Publish the events of one change and the resulting view, then what follows from them."""
        before = [*self._lapsing(), *(before or [])]
        self._moved_on()
        kinds = [event.kind for event in events]
        # the deadlines that start, resume or move, worked out before any view (the seats to act, whose legal lists
        # take a time that depends on their secrets, come last): their `timer` frames follow each viewer's view in
        # the same write, and their milliseconds count from before that work
        timers = self._timers(kinds) if self.game.state.outcome is None else []
        self.table.publish([*before, *events, self.table.point()], timers)
        self.table.after_step(self.game.pack)
        for kind in kinds:
            waiting = self._waiting_reveals.pop(kind, None)
            if waiting is None:
                continue
            for reveal in waiting:
                if leaves_out(reveal):
                    self._held_reveals.append(reveal)
                else:
                    self.table.send_to(opponent(reveal.seat), reveal)
            if not self._waiting_reveals:  # made anew: an emptied dict keeps its table (~0.2 KB a game in play)
                self._waiting_reveals = {}
        if self.result is None and self.game.state.outcome is not None:
            self._finish(self.final())

    def _timers(self, kinds: list[str] = ()) -> list[Timer]:
        """The `timer` messages of the deadlines that start, resume or move now, the turn extended first by what a
        step's events add (the Speed Potion, a Charm Scroll: PD-OBJ-CHARM-07)."""
        if self.deadlines is None or not self.running or self.held:
            return []
        now = trio.current_time()
        notices = [notice for seconds in turn_extensions(kinds) for notice in self.deadlines.extend_turn(seconds, now)]
        notices += self.deadlines.update(self.rules.clock(self.game.state), self.rounds.committed,
                                         self.rounds.opened, now)
        return [Timer(self.table.id, seat, _ms(seconds)) for seat, seconds in notices]

    def _retime(self) -> None:
        for timer in self._timers():
            self.table.send_all(timer)

    # --- timers -------------------------------------------------------------------------------------------
    def next_deadline(self) -> float:
        deal = self.deal
        if deal is not None and self.dealt is None and deal.deadline is not None:
            return deal.deadline
        if not self.running or self.held:
            return float("inf")
        if self.deadlines is None:
            idle = self._idle
            at = float("inf") if idle is None else idle[1] - idle[2][0] if idle[2] else idle[1]  # (its next warning)
            return min([*self._reveal_by.values(), at])
        return self.deadlines.next_at()

    def idle(self, acted: str | None) -> None:
        """After each step of the table's task (`acted`: the seat whose action, commitment or reveal it handled,
        if any): at a table without timers, the seat the game waits on alone (to act, and not committed to the
        pending secret choice) loses once config.idle_minutes pass with no action of his (`expire`, reason IDLE).
        A connected player who never acted held the game for ever, his opponent's only way out a resignation, a
        rated loss (play-test ad29 F3). Not before the first turn (leaving aborts it, unrated), nor while both
        are waited on, nor while the table is held after a restart."""
        limit = self.table.lobby.server.config.idle_minutes * 60
        if not limit or self.deadlines is not None or not self.running or self.held or self.game.state.turn < 1:
            self._idle = None
            return
        committed = self.committed_now()
        waiting = [seat for seat in self.game.state.to_act if seat not in committed]
        now = trio.current_time()
        if len(waiting) != 1:
            self._idle = None
        elif self._idle is None or self._idle[0] != waiting[0] or acted == waiting[0]:
            self._idle = (waiting[0], now + limit, tuple(w for w in IDLE_WARNINGS if w < limit))
        idle = self._idle
        if idle is not None and idle[2] and idle[1] - idle[2][0] <= now:
            # warned once, of the nearest loss: the warnings due at once (a late step) are one
            seat, at = idle[0], idle[1]
            self._idle = (seat, at, tuple(w for w in idle[2] if at - w > now))
            seconds = max(1, round(at - now))
            log("idle_warning", table=self.table.id, seat=seat, seconds=seconds)
            self.table.publish([{"kind": "idle_warning", "seat": seat, "seconds": seconds}])

    def expire(self) -> None:
        """Deal with every deadline that has passed (BG-OPT-02..04; DT-050 and config.idle_minutes without
        timers)."""
        now = trio.current_time()
        if self._idle is not None and self._idle[1] <= now and self.running and not self.held:
            seat, self._idle = self._idle[0], None
            log("idle_lost", table=self.table.id, seat=seat,
                minutes=self.table.lobby.server.config.idle_minutes)
            self.end(opponent(seat), IDLE)
            return
        deal = self.deal
        if deal is not None and self.dealt is None and deal.deadline is not None and deal.deadline <= now:
            for seat in deal.late():  # they contribute nothing
                deal.abstain(seat)
                self.journal(f"# deal-none {seat}", {"k": "deal_none", "seat": seat})
            self._deal_progress(publish=True)
        for key, at in sorted(self._reveal_by.items(), key=lambda item: item[1]):
            if self.running and not self.held and at <= now and key in self._reveal_by:
                del self._reveal_by[key]
                self.force(key[1], key[0], any_legal=True)
        while self.deadlines is not None and self.running and (
                deadline := self.deadlines.due(trio.current_time())) is not None:
            if deadline.kind == "turn":
                self._turn_over(deadline)
            elif deadline.kind == "reveal" and self.table.seating.seats[deadline.seat].session is None:
                # DT-251: his card was laid in time (committed); its reveal waits for him, within his grace
                self.deadlines.wait(deadline)
            else:
                self.deadlines.drop(deadline)
                if deadline.kind == "place":
                    self._timeout_actions(deadline.seat, lambda: self.game.state.phase == "place", once=True)
                elif deadline.kind == "step":  # DT-223: the rules' fallback for that one step
                    self._timeout_actions(deadline.seat, lambda key=deadline.key: self._step_key() == key, once=True)
                else:
                    self.force(deadline.seat, deadline.key[1])

    def _step_key(self) -> tuple | None:
        """The deadline key of the lone combat step under way (Clock.step), if any."""
        step = self.rules.clock(self.game.state).step
        return None if step is None else ("step", *step[1])

    def _turn_over(self, deadline: Deadline) -> None:
        key = deadline.key
        self.deadlines.spend_turn()
        purpose = self.rules.clock(self.game.state).combat
        if (purpose is not None and self.rules.secret_purpose(self.game.state, deadline.seat) == purpose
                and deadline.seat not in self.rounds.committed(purpose)):
            # DT-235: the turn ran out before its player laid his combat card: the +0 is laid for him (BG-OPT-04);
            # the clock has no time left, so the turn ends once the combat is over
            return self.force(deadline.seat, purpose)
        if not self._timeout_actions(deadline.seat, lambda: self.rules.clock(self.game.state).turn == key
                                     and self.game.state.phase in TURN_PHASES):
            self.deadlines.clear_turn()

    def _timeout_actions(self, seat: str, same_deadline, once: bool = False) -> bool:
        """Apply the rules' fallbacks for `seat` while the deadline is the same; whether any was applied."""
        events, texts = [], []
        while self.game.state.outcome is None and same_deadline():
            action = self.rules.timeout_action(self.game.state, seat)
            if action is None:
                break
            events += self.game.apply(action)
            texts.append(self.rules.format_action(action))
            if once:
                break
        if texts:
            self.game.undo, self.game.undo_refusal = None, (N_("the clock played it"), {})  # not to be taken back
            self.game.record.comment(f"timeout {seat} {'; '.join(texts)}", {"k": "timeout", "seat": seat})
            told = {"kind": "timeout", "seat": seat, "actions": texts}
            if any(isinstance(e, Event) and e.owner is not None for e in events):
                # a fallback whose events are someone's own (a card seeded face down: `seed bKY A`) would be named
                # to all by its text: its seat alone reads the texts (red team rt26: no clock covers such a phase
                # today; the day one does, the text must not say what the events hide)
                told = Event("timeout", {"seat": seat, "actions": texts}, owner=seat, public={"seat": seat})
            self._step(events, before=[told])
        return bool(texts)

    def force(self, seat: str, purpose: str, any_legal: bool = False, why: str = "timeout") -> None:
        """A combat card not committed or not revealed in time: the +0 stands for it (BG-OPT-04). With
        `any_legal` (DT-050, DT-091), a choice without a rules fallback (the team) gets the first legal one.
        `why` heads the record's comment ("timeout", or "restart" for a bot's secret lost with the old process)."""
        if self.rules.secret_purpose(self.game.state, seat) != purpose:
            return
        fallback = self.rules.timeout_action(self.game.state, seat)
        ruled = fallback is not None
        if not ruled and any_legal:
            fallback = self._any_choice(seat, purpose)
        if fallback is None:
            return
        text = self.rules.format_action(fallback)
        nonce = self.rounds.force(seat, purpose, text)
        self.game.record.comment(f"{why} {seat} {purpose} {text}", {
            "k": "force", "seat": seat, "purpose": purpose, "choice": text, "nonce": nonce and nonce.hex()})
        event = self._forced_event(seat, purpose, text, ruled, why)
        if self.held:  # restored, its players not all back: told once they are (`resumed`)
            self._restart_news = [*self._restart_news, event]
        else:
            self.table.publish([event])
        self._send_commitments(purpose)
        if self.rounds.ready(purpose):
            self._complete(purpose)
        else:
            self._retime()

    def _forced_event(self, seat: str, purpose: str, text: str, ruled: bool, why: str):
        """The `timeout` event of a choice the server made for `seat` (`text`; `ruled`: the rules' fallback)."""
        told = {"seat": seat, "purpose": purpose}
        if why == "restart":  # (a client words it as what it is, not as a clock that ran out)
            told["why"] = why
        # DT-236: a choice the rules make (a combat's +0) follows from what everyone knows, and is shown to all once
        # the other seat has committed its own (before, it would choose knowing this one: DT-235); one the server
        # drew is the seat's secret, as its own would have been (a team, a build, hidden start characters)
        public = ruled and opponent(seat) in self.rounds.committed(purpose)
        return ({"kind": "timeout", **told, "actions": [text]} if public
                else Event("timeout", {**told, "actions": [text]}, owner=seat, public=told))

    def restart_news_again(self, seat: str, purpose: str, text: str) -> None:
        """A choice an earlier restart made for a restored bot (DT-091), its round still open at this restart: told
        again once both players are back, as then (the news was held in memory only: a second restart before the
        players came back lost it, and their clients promised a check of the lost choice)."""
        ruled = self.rules.timeout_action(self.game.state, seat) is not None
        self._restart_news = [*self._restart_news, self._forced_event(seat, purpose, text, ruled, "restart")]

    def _any_choice(self, seat: str, purpose: str):
        """A secret choice the rules have no fallback for, drawn from the seat's legal choices (DT-236): with the
        server's secret seed (revealed after the game), so that neither the opponent nor a spectator can work it
        out, as he could "the first legal choice"; the same for the same table, purpose and seat."""
        legal = self.rules.legal_actions(self.game.state, seat)
        if not len(legal):
            return None
        digest = hashlib.sha256(f"{self.seed}:{self.table.id}:{purpose}:{seat}".encode()).digest()
        return legal[Rng(int.from_bytes(digest[:8], "big")).below(len(legal))]

    # --- the end ------------------------------------------------------------------------------------------
    def final(self) -> dict | None:
        """How the game ended, {winner, vp: {"B", "Y"}, reason}: by the rules (the engine's outcome), or outside
        them (`end`); None while it goes on. Views give it as their table's `result` (Table.point)."""
        if self.result is not None:
            return self.result
        outcome = self.game.state.outcome
        return None if outcome is None else {"winner": outcome.winner, "vp": dict(outcome.vp), "reason": outcome.reason}

    def end(self, winner: str | None, reason: str) -> None:
        """The game ends outside the rules: a player resigned or abandoned (the other wins: `winner`; before the
        first turn, nobody: ABORTED), or both agreed to a draw or abandoned it (`winner` None)."""
        if not self.running:
            return
        if winner is not None and self.game.state.turn < 1:
            winner, reason = None, ABORTED
        vp = {seat: self.game.state.vp(seat) for seat in SEATS}
        result = {"winner": winner, "vp": vp, "reason": reason}
        self.result = result
        self.table.publish([{"kind": "game_over", **result}, self.table.point()])
        self._finish(result)

    def _rate(self, result: dict) -> None:
        """A game between two people (of a rated family: the board game's, not the Card Game, whose rating would not
        be a board game's and whose tutorials are practice) is one Glicko-2 rating period for each (glicko2.py):
        both ratings change in the store, in the step's transaction, and the players and spectators are told (event
        `ratings`). A game left before the first turn is aborted, as on lichess."""
        names = rated_names(self.table.seating.seats)
        if (names is None or self.game.state.turn < 1 or not self.rules.rated
                or result["reason"] in (ABANDONED_BY_BOTH, ENDED_BY_ADMIN)):
            return
        store = self.table.lobby.store
        before = {seat: store.rating(name) for seat, name in names.items()}
        ratings = {seat: Rating(*row[:3]) if row else Rating() for seat, row in before.items()}
        winner = result["winner"]
        score = 1.0 if winner == "B" else 0.0 if winner == "Y" else 0.5
        after = dict(zip(SEATS, game(ratings["B"], ratings["Y"], score)))
        changes = {}
        for seat, name in names.items():
            new = after[seat]
            store.set_rating(name, new.rating, new.rd, new.volatility, (before[seat][3] if before[seat] else 0) + 1)
            changes[seat] = {"name": name, "before": round(ratings[seat].rating), "after": round(new.rating),
                             "rd": round(new.rd)}
        self.table.publish([{"kind": "ratings", "changes": changes}])
        log("rated", table=self.table.id, **{seat: change["after"] for seat, change in changes.items()})

    def _finish(self, result: dict) -> None:
        self.result = result
        self._moved_on()  # a takeback asked or a draw offered lapses with the game (nothing answers it now)
        if self.deadlines is not None:
            self.deadlines.clear()
        for reveal in self._held_reveals:
            self.table.send_to(opponent(reveal.seat), reveal)
        self._held_reveals = []
        self.table.send_all(GameOver(self.table.id, result))
        record = self.game.record
        record.comment(f"result winner={result['winner'] or '-'} vp=B{result['vp']['B']},Y{result['vp']['Y']} "
                       f"reason={result['reason']}")
        self.table.lobby.store.finish(self.table.id, result, self.rules.format_position(self.game.state))
        self._rate(result)
        directory = self.table.lobby.server.config.records_dir
        if directory is None:
            log("game_over", table=self.table.id, **result, actions=record.actions)
            return
        # The record file waits until the step's frames are written: nobody waits for it. Its lines are this
        # step's too, committed by then.
        self.table.after_step(lambda: self._write_record(directory, result))

    def _write_record(self, directory, result: dict) -> None:
        record, fields = self.game.record, {}
        stored = self.table.lobby.store.table(self.table.id)
        try:
            # what `dt-server records` prints and `get_record` sends, header lines and final position included: a
            # play-test's file lacked `# table` and the seed's commitment, so `dt-client verify` checked none of its
            # reveals and no deal
            text = record_text(stored)
            fields["record"] = str(write_record(directory, self.table.id, text))
        except OSError as error:
            log("record_not_written", level=logging.WARNING, table=self.table.id, error=str(error))
        log("game_over", table=self.table.id, **result, actions=record.actions, **fields)


def rated_names(seats: dict) -> dict[str, str] | None:
    """The players' names if the game is rated: two people (a game with a bot is not), else None."""
    names = {seat: state.name for seat, state in seats.items()}
    if any(state.bot or not state.name for state in seats.values()) or name_key(names["B"]) == name_key(names["Y"]):
        return None
    return names


def leaves_out(reveal: OpponentReveal) -> bool:
    """Whether a team choice names characters left out of a handicap game (BG-OPT-08), which the game never
    reveals: its reveal waits for the end of the game (docs/rulings.md DT-043)."""
    if reveal.purpose != "team":
        return False
    try:
        choice = parse_action(reveal.choice, reveal.seat)
    except NotationError:
        return False  # refused when it was revealed; it names nothing of the team actually played
    return isinstance(choice, ChooseTeam) and bool(choice.removed)


def refused(action_id: str, refusal: Refusal) -> ActionRefused:
    """The action_refused of a refusal: its message (at most 1000 characters), rule, and its template and values
    as the protocol's limits let them go (`fit_template`: else the client shows the message, as without them)."""
    template, values = fit_template(refusal.template, refusal.values)
    return ActionRefused(action_id, refusal.code, refusal.message[:1000], refusal.rule, template, values)


def _text(line: str) -> str:
    """The action of a record line `B: move ...`."""
    return line.split(":", 1)[1].strip()


def _ms(seconds: float) -> int:
    return max(0, round(seconds * 1000))
