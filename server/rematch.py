"""Rematches (docs/protocol.md section 6, `rematch`): once a table's game is over, its players play again at a new
table with the same options, the colours swapped. Part of the finished table's task.

Against a bot, a player's `rematch` makes the new table at once, with a bot of the same kind. Between two people,
the first `rematch` is an offer (the public event `rematch_offered`, listed in the views' `table.asked` while it
stands); the other's `rematch` accepts it. The offer lapses when either player leaves the finished table or loses
his connection (event `rematch_lapsed`), or when the other declines it (`decline_rematch`: `rematch_lapsed` with
`reason` "declined"); the declined player may not offer again at that table (the other may).

Durable: a standing offer is in the store (`Storage.set_kept`) before anyone is told of it, and a finished table with
one is restored at the server's start (recovery.py), its players' seats held as any restored table's: the offer
lapses if either is not back in time (`Seating.give_up`). A rematch whose step the store cannot save is told to
nobody: its new table is discarded and its players, their seats and tokens given back, are cut off with the
table's other viewers (`game_stopped`: Table.if_not_saved).

The players are moved by the server, through the messages every client knows: the finished table sends each one
`left` and `table_created` (the new table, with a private table's new join code), and hands him to the new table,
whose task seats him as it seats any `join` (`Table.take_player`: an `Arrival` queued in its inbox, never awaited, so
neither table's task waits for the other's). The new table's seats are kept for the two names until they sit
(`Seating.reserve`), and its bot, if any, is seated once the player is (as `dt-client play` seats it)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from dungeon_twister.engine import opponent
from dungeon_twister.protocol import TableCreated, rematch_options, templated
from dungeon_twister.protocol.views import REMATCH

from .logs import log

if TYPE_CHECKING:
    from .ports import Client as Session
    from .ports import TableRoom as Table

BOT_KINDS = ("random", "greedy", "planner")


def offers(table: Table) -> list[dict]:
    """The rematch offers standing at a finished table, as their events (Table.point: the views' `table.asked`)."""
    return [{"kind": "rematch_offered", "seat": seat} for seat in sorted(table.rematch_offers)]


def ask(table: Table, session: Session, seat: str | None) -> None:
    """`rematch` from a client at `table`: refused with the reason, an offer put to the opponent, or the rematch
    made (against a bot, or accepting the opponent's offer)."""
    if seat is None:
        return session.send_error(templated("not_allowed", "a spectator cannot ask for a rematch"))
    if table.play.result is None:
        return session.send_error(templated("not_allowed", "the game is not over: a rematch follows a finished game"))
    other = opponent(seat)
    them = table.seating.seats[other]
    if them.bot:
        kind = (them.name or "").split("-bot-")[0]
        return _make(table, {seat: session}, bot=kind if kind in BOT_KINDS else "greedy")
    if them.session is None and them.token is not None:
        # his seat held while he is away (a lost connection, a restart of the server): an offer of his stands (rm31
        # left this answered "has left the table", the offer still standing)
        # TRANSLATORS: {name} the opponent, whose connection is gone for now; `rematch` is typed as it is
        return session.send_error(templated("not_allowed", "{name} is away, his seat held for now: `rematch` again "
                                            "once he is back", name=them.name or seat))
    if them.session is None or them.session.closing:
        # (closing: his connection's end is queued behind this request, at this table: moved, his seat at the new
        # table would be held by a closed connection that no `Gone` ever reaches; review rv30)
        return session.send_error(templated("not_allowed", "{name} has left the table: no rematch",
                                            name=them.name or seat))
    if REMATCH not in them.session.conn.features:
        return session.send_error(templated("not_allowed", "{name}'s client cannot accept a rematch (it is older "
                                            "than this server): create a new table", name=them.name))
    if seat in table.rematch_offers:
        return session.send_error(templated("not_allowed", "you asked for a rematch already: waiting for {name}",
                                            name=them.name))
    if other in table.rematch_offers:
        return _make(table, {other: them.session, seat: session})
    if seat in table.rematch_declined:
        return session.send_error(templated("not_allowed", "{name} declined your rematch", name=them.name))
    _set(table, table.rematch_offers | {seat})
    log("rematch_offered", table=table.id, seat=seat, name=session.name)
    table.publish([{"kind": "rematch_offered", "seat": seat}, table.point()])


def decline(table: Table, session: Session, seat: str | None) -> None:
    """`decline_rematch` from a client at `table`: the opponent's standing offer lapses at once, and everyone at the
    table is told (`rematch_lapsed` with `reason` "declined" and `by`, the decliner's seat); refused if none
    stands."""
    if seat is None:
        return session.send_error(templated("not_allowed", "a spectator cannot decline a rematch"))
    other = opponent(seat)
    if other not in table.rematch_offers:
        return session.send_error(templated("not_allowed", "no rematch is offered to you"))
    _set(table, table.rematch_offers - {other})
    table.rematch_declined = table.rematch_declined | {other}
    log("rematch_declined", table=table.id, seat=other, by=seat)
    table.publish([{"kind": "rematch_lapsed", "seat": other, "by": seat, "reason": "declined"}, table.point()])


def _set(table: Table, offers: frozenset[str]) -> None:
    """The offers standing at `table` are `offers`, in the store as in memory (durable before anyone is told); in
    memory as before if the store cannot save the step (Table.if_not_saved: the table, stopped, then has the offers
    the store has, and lets them go once it answers, Table._let_go_once_saved)."""
    before = table.rematch_offers
    table.if_not_saved(lambda: setattr(table, "rematch_offers", before))
    table.rematch_offers = frozenset(offers)
    table.lobby.store.set_kept(table.id, {"offers": sorted(offers)} if offers else None)


def lapse(table: Table, seat: str) -> None:
    """The player of `seat` left the finished table or lost his connection: a rematch offer, his or the other's,
    lapses, and whoever is still there is told (event `rematch_lapsed`: the offer's seat, and the seat gone)."""
    if not table.rematch_offers:
        return
    offered = sorted(table.rematch_offers)
    _set(table, frozenset())
    table.publish([*({"kind": "rematch_lapsed", "seat": by, "gone": seat} for by in offered), table.point()])


def _make(table: Table, players: dict[str, Session], bot: str | None = None) -> None:
    """The new table: the same options (a new seed; a private table a new join code; a handicap with its player:
    `rematch_options`), each player's seat the other colour, kept for him; a bot of kind `bot` in the other seat
    once he sits. `players`: {seat here: session}, the first the table's creator (the one who asked first)."""
    lobby = table.lobby
    first = next(iter(players.values()))
    try:
        new = lobby.create_table(rematch_options(table.options), first.name, getattr(first, "address", None))
    except ValueError as error:  # (TooManyTables: a limit of the server's, with its template; or it is stopping)
        template = getattr(error, "template", None)  # (lobby.TooManyTables, not imported: the lobby owns tables)
        if template is not None:
            refusal = templated("not_allowed", template, **error.values)
        elif lobby.server.closing:
            refusal = templated("not_allowed", "the server is shutting down: no new table")
        else:  # (options this server no longer takes, say: not "shutting down", review rv30)
            log("rematch_not_made", table=table.id, error=str(error))
            refusal = templated("not_allowed", "the server could not make the rematch's table: {error}",
                                error=str(error))
        for session in players.values():
            session.send_error(refusal)
        if table.rematch_offers:  # (the offer answered, with that refusal: nothing stands)
            _set(table, frozenset())
            table.publish([table.point()])
        return None
    table.if_not_saved(new.discard)  # (its row is this step's: if the step is not saved, the table goes too)
    names = {opponent(seat): session.name for seat, session in players.items()}
    # the bot takes the seat its player leaves: the one he had here
    new.seating.reserve(names, None if bot is None else (next(iter(players)), bot))
    _set(table, frozenset())
    log("rematch", table=table.id, new_table=new.id, seats=names, bot=bot)
    table.publish([{"kind": "rematch", "table": new.id, "seats": {**dict.fromkeys("BY"), **names}}, table.point()])
    for seat, session in players.items():
        table.seating.move_out(session, seat)
        session.send(TableCreated(new.id, new.join_code))
        if not new.take_player(session, opponent(seat)):
            session.send_error(templated("not_allowed", "the rematch table {table} did not take you: join it",
                                         table=new.id))

