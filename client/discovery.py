"""`dt-client discover`: ask the local network which dt-servers are there (server/discovery.py: a UDP query on the
servers' port number, broadcast, and each server's JSON answer)."""

from __future__ import annotations

import socket
from dataclasses import dataclass

import trio

from dungeon_twister.protocol.discovery import QUERY_SIZE, parse_answer, query_datagram

TARGETS = ("255.255.255.255", "127.0.0.1")
"""Where the query goes: the local network's broadcast address, and this machine."""


@dataclass(frozen=True)
class Found:
    name: str
    address: str
    """HOST:PORT as `dt-client connect` takes it."""
    tls: str | None
    """The TLS certificate's fingerprint the server announces (the client still pins what it sees)."""


async def discover(port: int, wait: float, targets: tuple[str, ...] = TARGETS) -> list[Found]:
    """The servers that answered within `wait` seconds, by address; malformed answers are ignored."""
    sock = trio.socket.socket(trio.socket.AF_INET, trio.socket.SOCK_DGRAM)
    found: dict[str, Found] = {}
    with sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_BROADCAST, 1)
        await sock.bind(("0.0.0.0", 0))
        for target in targets:
            try:
                await sock.sendto(query_datagram(), (target, port))
            except OSError:
                pass  # no broadcast route (no network): the other targets still count
        with trio.move_on_after(wait):
            while True:
                data, (host, _port) = await sock.recvfrom(QUERY_SIZE)
                body = parse_answer(data)
                if body is not None:
                    address = f"{host}:{body['port']}"
                    found[address] = Found(body["name"], address, body["tls"])
    # this machine's own server answers twice (by loopback and by its network address): the second is kept
    remote = {(f.name, f.address.rsplit(":", 1)[1], f.tls) for f in found.values() if not f.address.startswith("127.")}
    unique = [f for f in found.values()
              if not (f.address.startswith("127.") and (f.name, f.address.rsplit(":", 1)[1], f.tls) in remote)]
    return sorted(unique, key=lambda server: (server.name, server.address))
