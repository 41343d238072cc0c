"""The lobby: display names, the table registry, resume tokens, lobby chat and bots.

Plain data shared by every task of the server; its methods never await, so each call is atomic under trio.
Resume tokens are kept (in memory and in the store) only as their SHA-256 digests.
"""

from __future__ import annotations

import hashlib
import itertools
import math
import secrets
import time
from dataclasses import asdict, dataclass

import trio
from typing import TYPE_CHECKING

from dungeon_twister.engine.core.errors import N_
from dungeon_twister.protocol import (ChatMessage, ResumeInfo, State, TableClosed, TableInfo, TableOptions, Tables,
                                     TableUpdate)
from dungeon_twister.protocol.codec import pack_map
from dungeon_twister.protocol.commit import make_nonce
from dungeon_twister.protocol.fields import encode_fields
from dungeon_twister.protocol.names import name_key
from dungeon_twister.protocol.views import TABLE_UPDATES

from .bot import play_bot
from .logs import log
from .ratelimit import Buckets, SharedBucket, address_key, network_key
from .storage import StorageError, StoredTable, token_digest
from .table import BotEnded, CreatorGone, Table

if TYPE_CHECKING:
    from .ports import Host as Server
    from .ports import Client as Session

TABLE_UPDATE_SECONDS = 1.0
"""How often the lobby's watchers get the table list's changes (feature "table_updates")."""
UPDATE_SLICE = 100
"""Tables read (and four times as many connections looked at) between two checkpoints of a round of table updates."""
PAGE_SIZE = 200
"""The most tables one `tables` answer lists."""
PAGE_BYTES = 128 * 1024
"""The most bytes of table entries in one `tables` answer (also at most half the frame limit)."""
MAX_TABLES_PER_CREATOR = 8
"""Tables one player name may have open (game not over) at once; more are refused not_allowed. (Tables the
server opens itself, creator None, count only towards MAX_TABLES.)"""
MAX_TABLES = 5000
"""Tables the server runs at once."""
CREATIONS_BURST, CREATIONS_PER_HOUR = 20, 120
"""Tables one address (an IPv6 /64) may create at once, and then an hour: each game begun is kept in the store, and
create, join, `bot`, leave in a loop (a game against a bot aborted) kept 834 in 20 s from one address, ~4.5 GB a
day (red team rt25). Bounded so, an address makes at most ~3,000 tables a day (a few MB)."""
NETWORK_CREATIONS_BURST, NETWORK_CREATIONS_PER_HOUR = 80, 480
"""Tables one IPv6 /48 may create at once, and then an hour (four addresses' worth): a host given a /56 or a /48
has 256 or 65,536 /64s, each its own CREATIONS_BURST (review rv25)."""
CREATION_ADDRESSES = 10_000
"""Addresses (and networks) whose creations are counted; past it the oldest is forgotten (a new burst for it)."""
OLD_CLIENT_SECONDS = 60.0
"""After a key's proof bound to nothing (v1, a dt-client of before 2026-11-30) is refused from an address
(config.unbound_proofs = false), that key's hellos from that address are refused at once, before welcome, for this
long after that refusal (`old_client`): such a client read the fatal bad_proof after its welcome as a lost
connection and connected again at once, ~8 times a second until its player quit, its screen never saying why
(play-test ad29: 752 refusals in 90 s); a `refused` to its hello it shows, and stops on. A minute: its player
updates dt-client in longer than that, and the updated one (same key) is not refused after it."""
OLD_CLIENTS = 10_000
"""(address, key) pairs kept for OLD_CLIENT_SECONDS; past it the oldest is forgotten."""


@dataclass(frozen=True)
class TokenRef:
    """What a resume token gives back: a seat (or a watch, seat None) at a table, for a name."""

    table: Table
    seat: str | None
    name: str


class Digest:
    """A token known only by its digest (a token restored from the store): equal to the token it digests."""

    __slots__ = ("hex",)

    def __init__(self, hex_: str) -> None:
        self.hex = hex_

    def __eq__(self, other) -> bool:
        if isinstance(other, Digest):
            return other.hex == self.hex
        return isinstance(other, str) and token_digest(other) == self.hex

    def __hash__(self) -> int:
        return hash(self.hex)


class Tokens:
    """Resume tokens -> TokenRef, keyed by digest: `get(token)`, `tokens[token] = ref`, `pop(token)`, where a
    token is the client's string or a Digest."""

    def __init__(self) -> None:
        self._refs: dict[str, TokenRef] = {}

    @staticmethod
    def key(token) -> str:
        return token.hex if isinstance(token, Digest) else token_digest(token)

    def get(self, token, default=None):
        return self._refs.get(self.key(token), default) if token is not None else default

    def __setitem__(self, token, ref: TokenRef) -> None:
        self._refs[self.key(token)] = ref

    def pop(self, token, default=None):
        return self._refs.pop(self.key(token), default) if token is not None else default

    def __contains__(self, token) -> bool:
        return token is not None and self.key(token) in self._refs

    def __len__(self) -> int:
        return len(self._refs)

    def drop_table(self, table: Table) -> None:
        for key in [key for key, ref in self._refs.items() if ref.table is table]:
            del self._refs[key]


def counted(n: int, singular: str, plural: str) -> str:
    """The template for a count of `n`: `singular` for 1, else `plural` ("at most 1 new tables", play-test). Both
    are msgids of the client's catalogue, which translates the one sent (its languages' own plural rules agree
    with English's for the counts these texts show, 1 and more)."""
    return singular if n == 1 else plural


class TooManyTables(ValueError):
    """create_table refused by one of the server's limits (not_allowed): `template` and `values` say which, as
    `templated` takes them."""

    def __init__(self, template: str, **values: int) -> None:
        super().__init__(template.format(**values))
        self.template, self.values = template, values


@dataclass(frozen=True)
class BotName:
    """A name reserved for a bot that has not said hello yet."""

    name: str


class Lobby:
    def __init__(self, server: Server) -> None:
        self.server = server
        self.store = server.storage
        self.tables: dict[str, Table] = {}
        self.stopped: dict[str, Table] = {}
        """The tables a store failure stopped (Table.stopped), by id, until a resume brings them back or lets them go
        (recovery.revive_table): out of `tables`, their task ended, yet open in the store; `dt-server admin tables`
        and `who` list them (adm33: an admin read "no open table" while two players waited for the disk)."""
        self.names: dict[str, object] = {}
        """Each name in use, by `name_key` (one player for "Bob" and "bob"): its Session, or (table id, seat) while
        a disconnected player's seat is held."""
        self.tokens = Tokens()
        tables, bots = self.store.numbers()
        self._table_numbers = itertools.count(tables + 1)
        self._bot_numbers = itertools.count(bots + 1)
        self._creations: Buckets | None = None
        """The table creations left to each address (CREATIONS_BURST, CREATIONS_PER_HOUR), made at the first."""
        self._network_creations: Buckets | None = None
        """The table creations left to each IPv6 /48 (NETWORK_CREATIONS_BURST, ..._PER_HOUR), made at the first."""
        per_hour = self.server.config.max_tables_per_hour
        self._all_creations = (SharedBucket(max(1, per_hour // 6), per_hour / 3600, CREATION_ADDRESSES) if per_hour
                               else None)
        """The table creations left to everyone (config.max_tables_per_hour; a sixth of it at once, its lower half
        for networks that have made no table lately)."""
        config = self.server.config
        self.reserved_names: frozenset[str] = frozenset()
        """config.reserved_names, as names are compared (`name_key`): `moderation`."""
        self.banned_names: frozenset[str] = frozenset()
        """config.banned_names, alike."""
        self.moderation(config)
        per_hour = config.max_new_names_per_hour
        self._bindings = Buckets(max(1, per_hour // 3), per_hour / 3600, CREATION_ADDRESSES) if per_hour else None
        """The names each address may still bind to a key (config.max_new_names_per_hour)."""
        self._network_bindings = (Buckets(4 * max(1, per_hour // 3), 4 * per_hour / 3600, CREATION_ADDRESSES)
                                  if per_hour else None)
        """The same for each IPv6 /48, four times an address's (as table creations count networks too)."""
        self.kicked: dict[str, float] = {}
        """Names (by `name_key`) the server's admin kicked (`dt-server admin kick`, server/admin.py), until when
        (trio's clock) they may not connect; kept in the store too (with the wall-clock time), so that a restart
        keeps them until then (`restore_kicks`)."""
        self._old_clients: dict[tuple[str, bytes], float] = {}
        """(address as `address_key` keys it, key) -> until when its hellos are refused (OLD_CLIENT_SECONDS)."""
        self._closed_last: tuple[int, str] | None = None
        """(number, id) of the table of the highest number closed since the start, kept in the store
        (`_forget_unplayed`)."""

    # --- names --------------------------------------------------------------------------------------------
    def take_binding(self, address: str | None) -> int | None:
        """A hello from `address` names a key and a name not bound yet, which its proof will bind: None if it may
        (config.max_new_names_per_hour), one of its address's and its IPv6 /48's names then spent, at the hello,
        so that hellos sent together before their proofs cannot all pass (review rv29: ten did with a burst of
        one); else the minutes until it may. No limit without an address (a bot, an in-memory client)."""
        key = address_key(address)
        if self._bindings is None or key is None:
            return None
        now = trio.current_time()
        limits = [(self._bindings, key)]
        if (network := network_key(key)) is not None:
            limits.append((self._network_bindings, network))
        waits = [max(1, math.ceil((1 - buckets.level(at, now)) / buckets.rate / 60))
                 for buckets, at in limits if not buckets.has(at, now)]
        if waits:
            return max(waits)
        for buckets, at in limits:
            buckets.take(at, now)
        return None

    def unbound_refused(self, address: str | None, key: bytes) -> None:
        """A proof of `key` bound to nothing was refused from `address` (config.unbound_proofs = false): its hellos
        from there are refused for OLD_CLIENT_SECONDS (`old_client`). Not counted without an address (a bot, an
        in-memory client); by the key, not the address alone: the other players behind a LAN party's NAT, whose
        clients are newer, are not concerned."""
        at = address_key(address)
        if at is None:
            return
        old = self._old_clients
        old.pop((at, key), None)  # (re-inserted last: the oldest first, for the bound)
        old[at, key] = trio.current_time() + OLD_CLIENT_SECONDS
        while len(old) > OLD_CLIENTS:
            del old[next(iter(old))]

    def old_client(self, address: str | None, key: bytes | None) -> bool:
        """Whether a hello naming `key` from `address` comes from a client whose unbound proof was refused from there
        less than OLD_CLIENT_SECONDS ago (`unbound_refused`): refused at once, as a client too old for this server."""
        at = address_key(address)
        if at is None or key is None:
            return False
        until = self._old_clients.get((at, key))
        if until is not None and until <= trio.current_time():
            del self._old_clients[at, key]
            return False
        return until is not None

    def claim_name(self, name: str, session: Session, resume: ResumeInfo | None,
                   key_owner: bool = False) -> tuple | bool:
        """Give `name` to a new session: if it is free, or if the session resumes that name's seat or watch, or
        (`key_owner`: its hello names the key the name is bound to, to be proven) the name's seat is held for a
        disconnected player and the hello resumes nothing this server knows: then the held (table id, seat) is
        returned, to be taken back once the key is proven (docs/protocol.md section 18)."""
        key = name_key(name)
        owner = self.names.get(key)
        if isinstance(owner, BotName):
            if session.bot_name != name:
                return False
            owner = None
        if isinstance(owner, tuple) and key_owner and (resume is None or resume.token not in self.tokens):
            # (a resume of a seat this server does not know, as after a restore from an older copy of its store:
            # the key still takes back the seat held for the name; a play-test's client was refused name_taken,
            # read it as "taken over by another dt-client" and stopped, and the restored game was lost)
            self.names[key] = session
            return owner
        if owner is not None:
            ref = self.tokens.get(resume.token) if resume is not None else None
            if ref is None or ref.name != name or ref.table.id != resume.table or (
                    (ref.seat is None) != session.is_spectator):
                return False
            if owner is not session and hasattr(owner, "superseded"):
                owner.superseded()
        self.names[key] = session
        return True

    def kick_name(self, name: str, seconds: float) -> str | None:
        """`name` may not connect for `seconds` (0: it may at once), durable before the admin is answered (a
        restart keeps the kick until then: the store has it by the wall clock). The kick holds in this process
        whatever the store says; None if the store has it too, else why not (review rv31: a store out of reach
        answered the admin "internal error" and left the name free and connected)."""
        now = trio.current_time()
        self.kicked = {key: until for key, until in self.kicked.items() if until > now}
        if seconds > 0:
            self.kicked[name_key(name)] = now + seconds
        else:
            self.kicked.pop(name_key(name), None)
        try:
            self.store.set_kick(name, time.time() + seconds if seconds > 0 else None)
        except StorageError as error:
            log("kick_not_stored", name=name, error=str(error))
            return str(error)
        return None

    def restore_kicks(self) -> None:
        """The kicks the store keeps (`kick_name`), at the server's start: each until the time it was given, the
        time the server was down counted (the wall clock's)."""
        now, wall = trio.current_time(), time.time()
        for name, until in self.store.kicks(wall):
            self.kicked[name_key(name)] = now + (until - wall)

    def kicked_for(self, name: str) -> int | None:
        """The minutes (rounded up) before a kicked `name` may connect again; None if it may now."""
        until = self.kicked.get(name_key(name))
        if until is None:
            return None
        left = until - trio.current_time()
        if left <= 0:
            del self.kicked[name_key(name)]
            return None
        return max(1, math.ceil(left / 60))

    def moderation(self, config) -> None:
        """Take the moderation settings of `config` (at the start, and at `dt-server admin reload`)."""
        # (and the server's own name, which the admin's announcements to older clients come from: review rv30)
        self.reserved_names = frozenset(map(name_key, (*config.reserved_names, config.name[:32])))
        self.banned_names = frozenset(map(name_key, config.banned_names))

    def hold_name(self, name: str, session: Session, holder: tuple) -> None:
        """Keep a disconnected player's name for his held seat."""
        if self.names.get(key := name_key(name)) is session:
            self.names[key] = holder

    def release_name(self, name: str | None, owner: object) -> None:
        if name is not None and self.names.get(key := name_key(name)) == owner:
            del self.names[key]

    # --- tables -------------------------------------------------------------------------------------------
    def create_table(self, options: TableOptions, creator: str | None, address: str | None = None,
                     join_code: str | None = None) -> Table:
        """A new table with a fresh id (never reused) and a new game; ValueError for invalid options, TooManyTables
        over a limit: MAX_TABLES in all, MAX_TABLES_PER_CREATOR open ones a name, and from one IP `address` as many
        as it may open connections (config.max_connections_per_address: names are free, an address is not; an IPv6
        address counts by its /64, `address_key`). A private table gets a new join code, or `join_code` (the one of
        the table whose seat it keeps: Seating.keep_seat)."""
        if self.server.closing:
            raise ValueError("the server is shutting down")
        if len(self.tables) >= MAX_TABLES:
            raise TooManyTables(counted(MAX_TABLES,
                                        N_("the server runs {total} table, as many as it may: try again later"),
                                        N_("the server runs {total} tables, as many as it may: try again later")),
                                total=MAX_TABLES)
        if creator is not None and self.tables_created_by(creator) >= MAX_TABLES_PER_CREATOR:
            raise TooManyTables(counted(MAX_TABLES_PER_CREATOR, N_("at most {per_player} open table per player"),
                                        N_("at most {per_player} open tables per player")),
                                per_player=MAX_TABLES_PER_CREATOR)
        cap, address = self.server.config.max_connections_per_address, address_key(address)
        if address is not None and cap and sum(1 for table in self.tables.values() if table.creator_address == address
                                               and table.play.result is None) >= cap:
            raise TooManyTables(counted(cap, N_("at most {per_address} open table from one address"),
                                        N_("at most {per_address} open tables from one address")), per_address=cap)
        buckets = self._creation_buckets(address if cap else None)  # (0: no limit by address, as behind a proxy)
        self._may_create(buckets)
        number = next(self._table_numbers)
        seed = self.server.seed_source()
        # (with the seeds given, `--game-seeds`, the id follows from them too: a game with the players' deal
        # contributions, whose seed hashes the table's id, is then dealt the same each run; ops32)
        suffix = hashlib.sha256(f"{number} {seed}".encode()).hexdigest()[:8] if self.server.seeded \
            else secrets.token_hex(4)
        table_id = f"t{number}-{suffix}"
        join_code = (join_code or secrets.token_hex(4)) if options.private else None
        nonce = make_nonce().hex()  # of the seed's commitment, sent before the game, revealed after it
        table = Table(self, table_id, options, seed, creator, join_code, nonce)
        table.creator_address = address
        self.store.add_table(StoredTable(table_id, number, asdict(options), seed, creator, join_code, time.time(),
                                         nonce))
        self.tables[table_id] = table
        now = trio.current_time()  # spent once the table is made and stored: a creation that failed costs nothing
        for bucket, key, _ in buckets:
            bucket.take(key, now)
        self.server.start(table.run)
        return table

    async def creator_gone(self, name: str) -> None:
        """The connection of `name` ended: each table he created is told (one nobody sat at closes: table.py
        CreatorGone)."""
        for table in [table for table in self.tables.values() if table.creator == name]:
            await table.submit(CreatorGone())

    def table_closed(self, table: Table, *, stored: bool = True) -> None:
        """The table's task ended: forget it; with `stored`, the store forgets its tokens (and an unfinished
        table), else (the server stops, or the store failed) it is restored on the next start."""
        self.tables.pop(table.id, None)
        if table.stopped:  # (its players are told so when they come back: Session._submit)
            self.stopped[table.id] = table
        else:
            self.tokens.drop_table(table)
        if stored:
            try:
                self.store.close_table(table.id)
                self._forget_unplayed(table)
            except StorageError as error:
                log("storage_failed", level=40, table=table.id, error=str(error))

    def _forget_unplayed(self, table: Table) -> None:
        """Of two tables closed, the store forgets the one of the lower number if its game never began (it decides:
        `Storage.forget_unplayed`); the other is kept until a table of a higher number closes, so that the highest
        number stays in the store and is never given again. create_table, join and leave in a loop (31 tables a
        second from one address) had left a row for each, about 1 GB of store a day (red team rt25)."""
        number = int(table.id[1:].partition("-")[0])
        kept, self._closed_last = self._closed_last, (number, table.id)
        if kept is not None:
            if kept[0] > number:
                kept, self._closed_last = self._closed_last, kept
            self.store.forget_unplayed(kept[1])

    def _creation_buckets(self, address: str | None) -> list[tuple]:
        """(bucket, key, refusal) of each limit a table created from `address` (an `address_key`, None: not
        counted by address) counts against: its address's, its IPv6 /48's, the server's (keyed by network, None
        with no address: SharedBucket)."""
        buckets = []
        if address is not None:
            if self._creations is None:
                self._creations = Buckets(CREATIONS_BURST, CREATIONS_PER_HOUR / 3600, CREATION_ADDRESSES)
            buckets.append((self._creations, address, TooManyTables(counted(
                CREATIONS_BURST,
                N_("at most {burst} new table at once from one address, then {per_hour} an hour: try again later"),
                N_("at most {burst} new tables at once from one address, then {per_hour} an hour: try again later")),
                burst=CREATIONS_BURST, per_hour=CREATIONS_PER_HOUR)))
            if (network := network_key(address)) is not None:
                if self._network_creations is None:
                    self._network_creations = Buckets(NETWORK_CREATIONS_BURST, NETWORK_CREATIONS_PER_HOUR / 3600,
                                                      CREATION_ADDRESSES)
                buckets.append((self._network_creations, network, TooManyTables(counted(
                    NETWORK_CREATIONS_BURST,
                    N_("at most {burst} new table at once from one network, then {per_hour} an hour: try again "
                       "later"),
                    N_("at most {burst} new tables at once from one network, then {per_hour} an hour: try again "
                       "later")), burst=NETWORK_CREATIONS_BURST, per_hour=NETWORK_CREATIONS_PER_HOUR)))
        if self._all_creations is not None:  # (by network: an IPv6 host has a /48's addresses)
            key = None if address is None else network_key(address) or address
            buckets.append((self._all_creations, key, TooManyTables(counted(
                self._all_creations.burst,
                N_("the server takes at most {burst} new table at once, then {per_hour} an hour: try again later"),
                N_("the server takes at most {burst} new tables at once, then {per_hour} an hour: try again later")),
                burst=self._all_creations.burst, per_hour=self.server.config.max_tables_per_hour)))
        return buckets

    def _may_create(self, buckets: list[tuple]) -> None:
        """Raise the refusal of the first of `buckets` (`_creation_buckets`) that has no creation left, and log it
        as a refused `too_many_tables` (a flood as one line a minute, Server.refused_quietly): play-test ad29's
        admin, whose players could make no table, found nothing of it in the log. The address is the one (or the
        /48) over its own limit; null for the server's max_tables_per_hour, which counts everyone."""
        now = trio.current_time()
        for bucket, key, refusal in buckets:
            if not bucket.has(key, now):
                shared = isinstance(bucket, SharedBucket)
                self.server.refused_quietly("too_many_tables", None if shared else key,
                                            self.server.config.max_tables_per_hour if shared
                                            else refusal.values["per_hour"])
                if shared and (wait := bucket.reserve_wait(key, now)) is not None:
                    # (not the server's burst and rate, which still has some: the network's own one an hour; rv27)
                    raise TooManyTables(N_("many tables were made lately: the server now makes one an hour for each "
                                           "network, and yours has had its own: try again in {minutes} min"),
                                        minutes=max(1, math.ceil(wait / 60)))
                raise refusal

    def table_infos(self, offset: int = 0, limit: int | None = None) -> Tables:
        """A page of the public tables, from `offset` on: at most `limit` (and PAGE_SIZE) of them, and no more
        than fit in PAGE_BYTES once encoded, so that a `tables` answer stays far below any frame limit whatever
        the tables hold; `total` and `more` let the client ask for the next page."""
        public = [table for table in self.tables.values() if not table.options.private]
        wanted = min(limit or PAGE_SIZE, PAGE_SIZE)
        budget = min(PAGE_BYTES, self.server.config.max_frame_size // 2)
        page: list[TableInfo] = []
        for table in public[offset:offset + wanted]:
            info = table.info()
            budget -= len(pack_map(encode_fields(info, "tables")))
            if budget < 0 and page:
                break
            page.append(info)
        return Tables(tuple(page), total=len(public), more=offset + len(page) < len(public))

    async def send_table_updates(self) -> None:
        """Feature "table_updates": every TABLE_UPDATE_SECONDS (trio's clock), the public tables that changed,
        appeared or went since the last round, to each client in the lobby that asked for them (table_update,
        table_closed). The changes are found by comparing the list with the one of the last round, so no code
        that changes a table has to report it. The list is kept every round, watched or not (a few microseconds a
        table), so that a client that got the list between two rounds misses nothing that changed after it."""
        last: dict[str, TableInfo] = {}
        while True:
            await trio.sleep(TABLE_UPDATE_SECONDS)
            # In slices of UPDATE_SLICE, with a checkpoint between them: a round over 2,000 tables and 4,000
            # connections took ~10 ms in one piece, a stall every second for every game's next action. A table
            # read before a change is compared again next round, so the slices miss nothing.
            now: dict[str, TableInfo] = {}
            tables = self.tables
            for n, table in enumerate(list(tables.values()), 1):
                if not table.options.private and tables.get(table.id) is table:  # (not closed since the round began)
                    now[table.id] = table.info()
                if n % UPDATE_SLICE == 0:
                    await trio.lowlevel.checkpoint()
            watchers = []
            for n, session in enumerate(list(self.server.sessions), 1):
                if session.conn.state is State.LOBBY and TABLE_UPDATES in session.conn.features:
                    watchers.append(session)
                if n % (UPDATE_SLICE * 4) == 0:
                    await trio.lowlevel.checkpoint()
            if watchers:
                changes = [TableUpdate(info) for tid, info in now.items() if last.get(tid) != info]
                changes += [TableClosed(tid) for tid in last if tid not in now]
                for message in changes:
                    for session in watchers:
                        session.send(message)
            last = now

    def kept_seat(self, name: str) -> tuple[Table, str] | None:
        """(table, seat) of a seat a table keeps for `name` that he has not taken (a rematch's, a kept seat's:
        Seating.reserve), if any: the server moved him there and his connection, or the server itself, went before
        he sat (Session._to_kept_seat). A look at each table (as `tables_created_by`), once a hello."""
        key = name_key(name)
        for table in self.tables.values():
            reserved = table.seating.reserved
            if not reserved or table.stopped:
                continue
            for seat, kept in reserved.items():
                if name_key(kept) == key and table.seating.seats[seat].name is None:
                    return table, seat
        return None

    def tables_created_by(self, creator: str | None) -> int:
        """The tables of `creator` whose game is not over."""
        return sum(1 for table in self.tables.values() if table.creator == creator and table.play.result is None)

    # --- resume tokens ------------------------------------------------------------------------------------
    def issue_token(self, table: Table, seat: str | None, name: str) -> str:
        token = secrets.token_urlsafe(24)
        self.tokens[token] = TokenRef(table, seat, name)
        self.store.add_token(Tokens.key(token), table.id, seat, name)
        return token

    def revoke_token(self, token: str | Digest | None) -> None:
        if self.tokens.pop(token) is not None:
            self.store.drop_token(Tokens.key(token))

    # --- chat and bots ------------------------------------------------------------------------------------
    def chat(self, session: Session, text: str) -> None:
        """Lobby chat: to every client at no table (and to the chat log, if it is on)."""
        self.server.log_chat(session, None, None, text)
        message = ChatMessage(session.name, text)
        for other in list(self.server.sessions):
            if other.conn.state is State.LOBBY:
                other.send(message)

    def bot_name(self, kind: str) -> str:
        """A fresh name for a bot, reserved at once: humans may not use the bot-name form (protocol/names.py BOT_NAME)
        and only the bot's own connection may claim a reserved name, so a bot never competes for it."""
        while True:
            name = f"{kind}-bot-{next(self._bot_numbers)}"
            if name_key(name) not in self.names:
                self.names[name_key(name)] = BotName(name)
                return name

    def spawn_bot(self, table: Table, seat: str, kind: str, name: str, think: float = 0.0,
                  resume: ResumeInfo | None = None) -> None:
        """A bot player for the seat: a client of its own, over an in-memory stream, through the protocol (with
        `resume`, it takes its seat back after a restart)."""
        stream = self.server.connect_memory(bot_name=name)
        seed = self.server.seed_source()
        self.server.start(self._run_bot, stream, name, table, seat, kind, seed, think, resume)
        log("bot_seated", table=table.id, seat=seat, kind=kind, name=name)

    async def _run_bot(self, stream, name: str, table: Table, seat: str, kind: str, seed: int,
                       think: float, resume: ResumeInfo | None) -> None:
        """Play the bot; when it ends, tell the table, which frees the seat if the bot never took it."""
        try:
            await play_bot(stream, name, table.id, seat, kind, seed, table.join_code, think, resume,
                           self.server.config.bot_pace)
        finally:
            self.release_name(name, BotName(name))
            with trio.CancelScope(shield=True):
                await table.submit(BotEnded(name, seat))
