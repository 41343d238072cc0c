"""Restoring the unfinished tables of the durable store when the server starts (after a restart or a crash).

Each table is rebuilt from what the store kept: its options and seed give the new game; its journal is replayed
in order, the actions through the engine (each must give back the very line that was stored), the commitments,
reveals and timeouts into the commit-reveal rounds, the action ids into the answers a repeated action gets. Then:

* every seated player keeps his seat for a grace period (`grace_seconds`) from the restart, his name held; he
  resumes with his resume token (the store keeps only its digest). Spectators resume the same way.
* A bot's seat is given to a new bot of the same kind, which resumes with a token issued for it. A bot's
  secrets died with the old server: a combat card (or team) it had committed and not revealed is replaced by
  the rules' timeout fallback (the +0; for the team, its first legal team), as when a player's time runs out.
* Event numbers continue after every number that may have been sent (Table.reserved_events), and each token's
  first resume gets a snapshot whatever event it names (Seating.from_store): after a store put back from an
  older copy, the numbers start again from the copy's reservation, and may name events a client saw before.
* Timers (DT-090): none runs until both players are back; then each starts afresh with its full period (a turn
  gets its 2 minutes again, a combat card its 5 seconds). A restart never makes anyone lose time or forfeit.

* Seats kept for names (a rematch's table, a kept seat's: Seating.reserve) are kept for them again, until their
  deadline (the wall clock's, as stored), RESTART_GRACE_SECONDS at least. A finished table with a rematch offer
  standing is restored too, finished, its players' seats held as above: the offer stands until either is not back
  in time (server/rematch.py).

A table that cannot be restored (a damaged journal, or an engine that now refuses a stored action) is logged as
`table_not_restored` and left untouched in the store, and the server starts without it.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

import trio

from dungeon_twister.engine import SEATS
from dungeon_twister.engine.core.errors import N_
from dungeon_twister.protocol import OpponentReveal, ResumeInfo, TableOptions
from dungeon_twister.protocol.msg_lobby import RESTART_GRACE_SECONDS
from dungeon_twister.protocol.names import name_key

from .deal import DealExchange
from .game import Refusal
from .lobby import Digest, TokenRef
from .logs import log
from .play import leaves_out
from .ports import TableGone
from .storage import StorageError, StoredTable
from .table import Table

if TYPE_CHECKING:
    from .play import Play
    from .ports import Host as Server

ERROR, WARNING = 40, 30


class NotRestorable(Exception):
    """The stored journal does not replay."""



def restore_tables(server: Server) -> list[Table]:
    """Rebuild and start every unfinished table of the server's store."""
    lobby, restored = server.lobby, []
    for stored in lobby.store.open_tables() + lobby.store.offered_tables():
        try:
            with lobby.store.transaction():
                table = restore_table(server, stored)
        except Exception as error:  # one damaged table must not keep the server from starting
            log("table_not_restored", level=ERROR, table=stored.id, error=f"{type(error).__name__}: {error}")
            continue
        restored.append(table)
        log("table_restored", table=table.id, status=table.status, actions=table.play.game.record.count - 1,
            seats=table.seating.names())
    return restored


def _let_go(lobby, stopped: Table, why: str) -> None:
    if lobby.stopped.get(stopped.id) is stopped:
        del lobby.stopped[stopped.id]
    lobby.tokens.drop_table(stopped)
    for key in [key for key, owner in lobby.names.items() if isinstance(owner, tuple) and owner[0] == stopped.id]:
        del lobby.names[key]
    log("table_let_go", level=WARNING, table=stopped.id, why=why)


def revive_table(server: Server, stopped: Table) -> Table | None:
    """A table that stopped because its store failed (Table.stopped), restored from what the store kept, as at the
    server's next start, once the store answers again: its players come back to the game as it was before the
    step that failed, without waiting for an admin to restart the server (a PostgreSQL restarting under a move
    stopped that game until then: review rv24). The table already revived for another player's resume, if it
    was; None while the store still fails; TableGone when no resume will ever bring it back."""
    lobby = server.lobby
    current = lobby.tables.get(stopped.id)
    if current is not None:
        return current if current is not stopped and not current.stopped else None
    try:
        stored = lobby.store.table(stopped.id)
        if stored is None or stored.status != "open":
            if stored is not None and stored.status == "over":
                # a finished table's rematch offer (rematch.py) goes with it: its `kept` row would bring the stale
                # offer back at the next start, perhaps days later, for a minute, and keep its tokens (review rv31)
                with lobby.store.transaction():
                    lobby.store.set_kept(stopped.id, None)
            _let_go(lobby, stopped, "not open in the store")
            raise TableGone(stopped.id)
        stored.kept = lobby.store.kept(stored.id)  # (its seats kept for names, as at a start)
        with lobby.store.transaction():
            table = restore_table(server, stored)
    except StorageError:
        return None
    except TableGone:
        raise
    except Exception as error:  # (as at a start: one damaged table costs that table, not the connection)
        log("table_not_restored", level=ERROR, table=stopped.id, error=f"{type(error).__name__}: {error}")
        _let_go(lobby, stopped, "not restorable")
        raise TableGone(stopped.id) from None
    if lobby.stopped.get(stopped.id) is stopped:
        del lobby.stopped[stopped.id]
    log("table_revived", table=table.id, status=table.status, actions=table.play.game.record.count - 1,
        seats=table.seating.names())
    return table


def restore_table(server: Server, stored: StoredTable) -> Table:
    lobby = server.lobby
    table = Table(lobby, stored.id, TableOptions(**stored.options), stored.seed, stored.creator, stored.join_code,
                  stored.seed_nonce)
    table.restored = True
    play = table.play
    play.game.record.sink = None
    replay(play, stored.journal)
    play.game.record.sink = play.journal
    table.log.n = table.reserved_events = stored.events
    if stored.status == "over":  # (a finished table with a rematch offer standing: offered_tables)
        play.result = stored.result
        table.rematch_offers = frozenset((stored.kept or {}).get("offers") or ())

    now = trio.current_time()
    seats = table.seating.seats
    for seat, (name, bot) in stored.seats.items():
        seats[seat].name, seats[seat].bot = name, bot is not None
        seats[seat].grace_until = now + max(table.grace, RESTART_GRACE_SECONDS)
        lobby.names.setdefault(name_key(name), (table.id, seat))
    for digest, seat, name in stored.tokens:
        if seat is not None and seats[seat].bot:
            lobby.store.drop_token(digest)  # the bot that held it is gone
            continue
        lobby.tokens[Digest(digest)] = ref = TokenRef(table, seat, name)
        table.seating.from_store |= {ref}
        if seat is not None:
            seats[seat].token = Digest(digest)
    play.started = all(seats[seat].name for seat in SEATS) and (play.deal is None or play.dealt is not None)
    play.held = play.started and play.result is None
    kept = stored.kept or {}
    if kept.get("reserved"):  # seats kept for names (Seating.reserve), until their deadline
        left = max(float(kept.get("until") or 0) - time.time(), RESTART_GRACE_SECONDS)
        bot = kept.get("bot")
        table.seating.reserve({seat: name for seat, name in kept["reserved"].items() if seats[seat].name is None},
                              None if bot is None else (bot[0], bot[1]), now + left, kept.get("why") or "rematch")

    bots = [seat for seat in SEATS if seats[seat].bot]
    if play.running:
        for seat in bots:
            _force_lost_secret(play, seat)
    for seat in bots:
        name = seats[seat].name
        seats[seat].token = token = lobby.issue_token(table, seat, name)
        kind = stored.seats[seat][1]
        lobby.spawn_bot(table, seat, kind, name, resume=ResumeInfo(token, table.id, 0))
    lobby.tables[table.id] = table
    server.start(table.run)
    return table


def replay(play: Play, journal: list[tuple[str, dict | None]]) -> None:
    """Redo what the journal says happened, as Play did it the first time."""
    rounds = play.rounds
    remade = []  # (seat, purpose, choice) a restart made for a bot (DT-091): told again if its round is still open
    for number, (line, data) in enumerate(journal, 1):
        kind = data.get("k") if data else None
        game, record = play.game, play.game.record  # a new game once the contributions are mixed in
        try:
            if kind in DEAL_KINDS:
                _replay_deal(play, kind, data)
                continue
            if kind in REQUEST_KINDS:
                _replay_request(play, kind, data["seat"])
                continue
            if kind not in ("commit", "reveal"):  # (a card committed or opened changes nothing until both are)
                play._moved_on()  # any change of the game after a request: it lapsed (see REQUEST_KINDS)
            if kind == "action":
                seat, text = line.split(":", 1)
                events, expected = _replay_action(game, game.family.parse_action(text.strip(), seat), line)
                if record.last != expected:
                    raise NotRestorable(f"the engine records {record.last!r} for {line!r}")
                if "id" in data:
                    play.answers[seat].accepted(data["id"], data["typed"])  # answered action_ok (Play.action)
                for event in events:  # the reveals waiting for it were sent then, but for DT-043's
                    waiting = play._waiting_reveals.pop(event.kind, ())
                    play._held_reveals += [reveal for reveal in waiting if leaves_out(reveal)]
                continue
            record.restored(line)
            if kind == "takeback":  # DT-224: the action before it was taken back
                game.take_back()
            elif kind == "timeout":  # the clock played the actions before it: not to be taken back (DT-224)
                game.undo, game.undo_refusal = None, (N_("the clock played it"), {})
            elif kind == "commit":
                rounds.commit(data["seat"], data["purpose"], bytes.fromhex(data["commitment"]))
                rounds.commitments_to_send(data["purpose"])
                play.restored_choices.add((data["purpose"], data["seat"]))  # committed before: DT-271
            elif kind == "reveal":
                rounds.reveal(data["seat"], data["purpose"], data["choice"], bytes.fromhex(data["nonce"]))
                _close_if_ready(play, data["purpose"])
            elif kind == "force":
                nonce = bytes.fromhex(data["nonce"]) if data["nonce"] else None
                rounds.force(data["seat"], data["purpose"], data["choice"], nonce)
                rounds.commitments_to_send(data["purpose"])
                play.restored_choices.add((data["purpose"], data["seat"]))
                _close_if_ready(play, data["purpose"])
                if line.startswith("# restart "):  # (Play.force's comment: "restart SEAT PURPOSE CHOICE")
                    remade.append((data["seat"], data["purpose"], data["choice"]))
        except NotRestorable:
            raise
        except Exception as error:
            rule = f" ({error.rule})" if isinstance(error, Refusal) and error.rule else ""
            raise NotRestorable(f"journal line {number} {line!r}: {type(error).__name__}: {error}{rule}") from None
    for seat, purpose, choice in remade:
        if rounds.opened(purpose) and not rounds.ready(purpose):  # (a round complete is closed: nothing to tell)
            play.restart_news_again(seat, purpose, choice)


def _replay_action(game, action, line: str) -> tuple:
    """Apply a journal's action line: (its events, the line the engine must record for it). One the rules now
    refuse that an older version wrote is applied as the family reads it (`legacy_action`, DT-271: a place of a
    face-down room named before DT-266), and the engine records it in today's notation: exactly that converted
    action's line, no other. When the reading gives nothing or is refused too, the line's own refusal stands."""
    try:
        return game.apply(action), line
    except Refusal as refusal:
        converted = game.family.legacy_action(game.state, action)
        if converted is None:
            raise
        try:
            return game.apply(converted), game.family.format_line(converted)
        except Refusal:
            raise refusal from None


DEAL_KINDS = ("deal_open", "deal_commit", "deal_reveal", "deal_none", "deal_cancel", "dealt")
"""The journal's lines of the players' contributions to the deal (docs/protocol.md section 16; Play.seated)."""


REQUEST_KINDS = ("takeback_ask", "takeback_decline", "draw_offer", "draw_decline")
"""The journal's lines of the takeback requests and draw offers and their refusals (DT-224, DT-228; Play.takeback,
Play.offer_draw), which are not the record's. A request is restored as it stood: any line after it but a
commitment or a reveal is a change of the game, which made it lapse (`Play._moved_on`); a round of secret
choices changes the game when both are opened, by the action lines that follow."""


def _replay_request(play: Play, kind: str, seat: str) -> None:
    if kind == "takeback_ask":
        play.takeback_asked = seat
    elif kind == "takeback_decline":
        play.takeback_asked, play.takeback_declined = None, seat
    elif kind == "draw_offer":
        play.draw_offered = seat
    else:
        play.draw_offered, play.draw_declined = None, seat


def _replay_deal(play: Play, kind: str, data: dict) -> None:
    """Redo a step of the deal exchange. Its lines precede the game's (they are not the record's lines: the
    record starts again with the game dealt from the mix)."""
    if kind == "deal_open":
        play.deal = DealExchange(play.table.id, data["status"])
    elif kind == "deal_cancel":
        play.deal = None
    elif kind == "deal_commit":
        play.deal.commit(data["seat"], bytes.fromhex(data["commitment"]))
    elif kind == "deal_reveal":
        play.deal.reveal(data["seat"], data["choice"], bytes.fromhex(data["nonce"]))
    elif kind == "deal_none":
        play.deal.abstain(data["seat"])
    elif kind == "dealt":
        play.deal_with(int(data["seed"]), sink=False)
    if play.deal is not None:
        play.deal.timed_stage = play.deal.stage
        play.deal.commitments_to_send()  # sent before the restart; sent again to a returning player who must reveal


def _close_if_ready(play: Play, purpose: str) -> None:
    """Both choices are known: Play._complete closed the round (keeping a team's reveals for later)."""
    rounds = play.rounds
    if not rounds.ready(purpose):
        return
    reveals = [OpponentReveal(play.table.id, purpose, sender, choice.choice, choice.nonce)
               for to, sender, choice in rounds.reveals_to_send(purpose)]
    if purpose in play.rules.reveal_after:
        play._waiting_reveals.setdefault(play.rules.reveal_after[purpose], []).extend(reveals)
    elif purpose == "build":  # held until the game ends, as Play._complete does
        play._held_reveals += reveals
    rounds.close(purpose)
    play.restored_choices = {key for key in play.restored_choices if key[0] != purpose}  # its actions follow


def _force_lost_secret(play: Play, seat: str) -> None:
    """A restored bot cannot open what its predecessor committed: the fallback stands for it."""
    state = play.game.state
    purpose = play.rules.secret_purpose(state, seat)
    if purpose is None or seat not in play.rounds.committed(purpose) or seat in play.rounds.opened(purpose):
        return
    play.force(seat, purpose, any_legal=True, why="restart")
