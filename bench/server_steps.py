"""Seeded games played through the server's own code in one process, deterministically (pip install -e '.[bench]').

    python bench/server_steps.py                   # the digest of what each connection received, per game
    python bench/server_steps.py --games beginner --actions 300 --profile FILE   # a cProfile of those steps
    valgrind --tool=callgrind python bench/server_steps.py --games beginner --actions 300 --quiet

Issue 7's rows 2 and 3 measure a server over loopback TCP on a machine whose CPU figures move by 20-40% from run
to run; this plays the same kind of game (random legal actions, as their probe) through a real `Server`, its
sessions, tables and store, with the clients in the same process, so that instruction counts (callgrind) and
profiles of two revisions can be compared, and the bytes they send.

Everything that could differ between two runs is fixed: trio's clock stands still (MockClock), the server's random
draws (`secrets`: table ids, tokens, nonces) come from a seeded generator, trio's scheduler runs its batches in a
fixed order, and the driver sends one message at a time and waits until every task is blocked before it looks at
what came back. So two runs of the same revision send the same bytes, and a change to the server that must not
change what is sent is checked by running this at the revisions before and after it: the digests must be equal.
(Each connection's digest is over every byte it received, its handshake included.)

A game is two players and, with --watchers, two spectators (one with whole views, one with deltas); `GAMES` says
which forms the players ask for. The clients' own work (decoding, applying deltas, the driver's choices) is the
same for two revisions that send the same bytes, so a difference of instructions is the server's.
"""

from __future__ import annotations

import argparse
import hashlib
import inspect
import itertools
import json
import random
import secrets
import sys

from pathlib import Path

import trio
import trio.testing

from dungeon_twister.engine import SEATS
from dungeon_twister.engine.core.rng import Rng
from dungeon_twister.engine.families import family_for
from dungeon_twister.protocol import (Action, CreateTable, Join, OpponentCommit, PlayerConnection, Software, Spectate,
                                      SpectatorConnection, TableCreated, TableEvent, TableOptions, GameOver, Snapshot)
from dungeon_twister.protocol.views import DELTA_VIEWS
from dungeon_twister.server import Server, ServerConfig
from dungeon_twister.server import session as session_module
from dungeon_twister.server.options import engine_options

SOFTWARE = Software("dt-steps", "0.1.0")
DELTA = (DELTA_VIEWS,)
GAMES = {
    # name: (table options, game seed, features of Blue's and Yellow's connections)
    "beginner": (TableOptions(beginner=True), 11, (DELTA, DELTA)),
    "standard": (TableOptions(), 12, (DELTA, ())),
    "prison": (TableOptions(set_name="prison"), 13, ((), DELTA)),
    "paladins": (TableOptions(set_name="paladins", timers=True), 14, (DELTA, DELTA)),
    "cards": (TableOptions(game="cards", tutorial=3), 15, (DELTA, ())),
}


DRAWS = random.Random()
"""Where `secrets` draws from (`fixed_secrets`)."""


def fixed_secrets(seed: int) -> None:
    """The server's (and the clients') random draws from a generator seeded with `seed`, and the sessions'
    numbers from 1: what is sent depends on nothing but the games."""
    draws = DRAWS
    draws.seed(seed)
    secrets.token_bytes = lambda n=32: draws.randbytes(n)
    secrets.token_hex = lambda n=32: draws.randbytes(n).hex()
    secrets.token_urlsafe = lambda n=32: draws.randbytes(n).hex()
    secrets.randbits = draws.getrandbits
    session_module._numbers = itertools.count(1)
    trio._core._run._ALLOW_DETERMINISTIC_SCHEDULING = True  # batches in order, not shuffled
    trio._core._run._r.seed(seed)


class Peer:
    """One client: every byte it received, its latest view, and what it committed to. `shadows`: more connections
    of the same kind, sent and given the same messages and bytes, whose events are dropped (--clients-twice)."""

    def __init__(self, stream, conn, name: str, shadows: list) -> None:
        self.stream, self.conn, self.name, self.shadows = stream, conn, name, shadows
        self.digest = hashlib.sha256()
        self.received = 0
        self.view: dict | None = None
        self.created: str | None = None
        self.committed: set[str] = set()
        self.over = False
        self.reveals: list[str] = []

    async def send(self, make) -> None:
        """Send `make(conn)` (a frame the connection makes), made by the shadows too."""
        data = make(self.conn)
        for shadow in self.shadows:  # (drawing nothing the server would have drawn: a commit's nonce)
            drawn = DRAWS.getstate()
            make(shadow)
            DRAWS.setstate(drawn)
        await self.stream.send_all(data)

    async def read(self) -> None:
        while data := await self.stream.receive_some(65536):
            self.digest.update(data)
            self.received += len(data)
            for shadow in self.shadows:
                shadow.receive_data(data)
                while shadow.next_event() is not None:
                    pass
            self.conn.receive_data(data)
            while (event := self.conn.next_event()) is not None:
                if isinstance(event, Snapshot):
                    self.view = event.view
                elif isinstance(event, TableEvent) and event.event.get("kind") == "view":
                    self.view = event.event["view"]
                elif isinstance(event, TableCreated):
                    self.created = event.table
                elif isinstance(event, OpponentCommit) and event.purpose in self.committed:
                    self.reveals.append(event.purpose)
                elif isinstance(event, GameOver):
                    self.over = True


async def settle() -> None:
    await trio.testing.wait_all_tasks_blocked()


async def connect(server: Server, nursery, name: str, kind, features: tuple, tcp: bool, shadows: int) -> Peer:
    stream = await trio.open_tcp_stream("127.0.0.1", server.port) if tcp else server.connect_memory()
    peer = Peer(stream, kind(features=features), name, [kind(features=features) for _ in range(shadows)])
    nursery.start_soon(peer.read)
    await peer.send(lambda conn: conn.send_hello(name, SOFTWARE))
    await settle()
    return peer


async def play(server: Server, nursery, name: str, actions: int, watchers: bool, tcp: bool, shadows: int) -> dict:
    """One game of `GAMES[name]`, random legal actions (Rng of its seed) until it ends or `actions` were sent:
    {connection: (bytes received, digest)}, and the number of actions."""
    options, seed, features = GAMES[name]
    blue, yellow = [await connect(server, nursery, f"{name}-{seat}", PlayerConnection, wanted, tcp, shadows)
                    for seat, wanted in zip("BY", features)]
    await blue.send(lambda conn: conn.send(CreateTable(options)))
    await settle()
    table = blue.created
    players = {"B": blue, "Y": yellow}
    for seat, peer in players.items():
        await peer.send(lambda conn: conn.send(Join(table, seat)))
        await settle()
    peers = list(players.values())
    if watchers:
        for number, wanted in enumerate(((), DELTA)):
            peer = await connect(server, nursery, f"{name}-w{number}", SpectatorConnection, wanted, tcp, shadows)
            await peer.send(lambda conn: conn.send(Spectate(table)))
            await settle()
            peers.append(peer)
    rng, ids, sent = Rng(seed), itertools.count(1), 0
    while sent < actions and not blue.over:
        acting = [(seat, peer) for seat, peer in players.items() if peer.view and peer.view["started"]
                  and peer.view["legal"] and peer.view["secret"] not in peer.committed]
        waiting = [peer for peer in players.values() if peer.reveals]
        if waiting:  # reveal what both committed to
            peer = waiting[0]
            purpose = peer.reveals.pop(0)
            await peer.send(lambda conn: conn.reveal(purpose))
        elif acting:
            seat, peer = acting[0]
            view = peer.view
            choice = rng.choice(view["legal"])
            if view["secret"] is not None:
                peer.committed.add(view["secret"])
                await peer.send(lambda conn: conn.commit(view["secret"], choice))
            else:
                action = Action(table, f"{seat}{next(ids)}", choice)
                await peer.send(lambda conn: conn.send(action))
            sent += 1
        else:
            break  # nobody may act (a free build, or a state this driver does not play)
        await settle()
    return {"peers": {peer.name: (peer.received, peer.digest.hexdigest()[:16]) for peer in peers}, "actions": sent,
            "journal": [line for line, _ in server.storage.table(table).journal]}


async def run(names: list[str], actions: int, watchers: bool, tcp: bool, shadows: int) -> dict:
    config = ServerConfig(host="127.0.0.1", port=0, ping_interval=0)
    seeds = itertools.chain.from_iterable(itertools.repeat(GAMES[name][1], 1) for name in names)
    server = Server(config, seed_source=lambda: next(seeds))
    results = {}
    async with trio.open_nursery() as nursery:
        await nursery.start(server.run)
        for name in names:
            results[name] = await play(server, nursery, name, actions, watchers, tcp, shadows)
        nursery.cancel_scope.cancel()
    return results


def engine_alone(journals: dict, names: list[str]) -> None:
    """The engine's work of the server's steps of `journals` (--engine-alone)."""
    for name in names:
        options, seed, _ = GAMES[name]
        rules = family_for(engine_options(options))
        state = rules.new_game(engine_options(options), seed)
        shared = {"shared": True} if "shared" in inspect.signature(rules.view).parameters else {}  # (older engines)
        for line in journals[name]:
            seat, _, text = line.partition(": ")
            if seat not in SEATS:
                continue
            state, _ = rules.apply(state, rules.parse_action(text, seat))
            for seat in state.to_act if state.outcome is None else ():
                rules.legal_table(state, seat)
            for seat in SEATS:
                rules.view(state, seat, **shared)
            rules.pack(state)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default=",".join(GAMES), help="which of " + ", ".join(GAMES))
    parser.add_argument("--actions", type=int, default=400, help="at most this many actions a game")
    parser.add_argument("--no-watchers", dest="watchers", action="store_false", help="no spectators")
    parser.add_argument("--tcp", action="store_true", help="loopback TCP instead of in-memory pipes")
    parser.add_argument("--clients-twice", dest="shadows", action="store_const", const=1, default=0,
                        help="each client decodes what it receives twice: the difference of instructions with a run "
                             "without is the clients' own work")
    parser.add_argument("--journal", metavar="FILE", help="write the games' journals to FILE (for --engine-alone)")
    parser.add_argument("--engine-alone", metavar="FILE",
                        help="no server: play the journals of FILE on the engine, with the engine calls of a server's "
                             "step after each action (the legal table of each seat to act, the view of each seat, "
                             "the memo packed): the engine's part of the server's instructions")
    parser.add_argument("--profile", metavar="FILE", help="write a cProfile of the games to FILE")
    parser.add_argument("--quiet", action="store_true", help="print nothing")
    args = parser.parse_args()
    fixed_secrets(0)
    names = args.games.split(",")
    if args.engine_alone:
        return engine_alone(json.loads(Path(args.engine_alone).read_text()), names)
    clock = trio.testing.MockClock()  # time stands still: timers, deadlines and `timer` frames are the same each run
    if args.profile:
        import cProfile

        profiler = cProfile.Profile()
        profiler.enable()
        results = trio.run(run, names, args.actions, args.watchers, args.tcp, args.shadows, clock=clock)
        profiler.disable()
        profiler.dump_stats(args.profile)
    else:
        results = trio.run(run, names, args.actions, args.watchers, args.tcp, args.shadows, clock=clock)
    if args.journal:
        Path(args.journal).write_text(json.dumps({name: result["journal"] for name, result in results.items()}))
    if args.quiet:
        return
    for name, result in results.items():
        result.pop("journal")
        peers = " ".join(f"{peer}={size}:{digest}" for peer, (size, digest) in result["peers"].items())
        print(f"{name}: {result['actions']} actions; {peers}")
    total = hashlib.sha256(repr(sorted(results.items())).encode()).hexdigest()[:16]
    print(f"all: {total}")


if __name__ == "__main__":
    sys.exit(main())
