"""LAN discovery: dt-server answers a UDP query on its own port number, so that `dt-client discover` finds the
servers of the local network without anyone typing an address (the datagrams: protocol/discovery.py).

Why a UDP query rather than DNS-SD (zeroconf): the server is a single trio process, and zeroconf runs its own
threads and event loop beside it; a query and an answer on one trio UDP socket need no dependency and no thread,
and work wherever a broadcast does (a LAN party). The client broadcasts QUERY (padded to QUERY_SIZE bytes, so that
an answer is never larger than the query: the server cannot be used to amplify traffic) to 255.255.255.255 and
127.0.0.1 on the port; every server there answers with one JSON object: {"service", "version", "name", "port",
"tls"}.
"""

from __future__ import annotations

import logging
import socket
from collections.abc import Callable

import trio

from dungeon_twister.protocol.discovery import QUERY_SIZE, answer_datagram, is_query

from .logs import log


def lan_address() -> str | None:
    """This machine's address on its network, as players there would type it, or None if it has none (no route):
    the source address the system would use towards an outside address (a UDP socket's connect sends nothing)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # (TEST-NET-1: never reached; only the route is asked for)
            address = probe.getsockname()[0]
    except OSError:
        return None
    return None if address.startswith(("0.", "127.")) else address


async def answer_queries(host: str, port: int, name: str, tls: str | None,
                         bound: Callable[[str | None], None] | None = None) -> None:
    """Answer discovery queries on UDP `port` until cancelled; a port that cannot be bound is logged, not fatal.
    `bound` is told once the bind is tried: None, or why it failed (the error's text), so that the start prints
    "find it with `dt-client discover`" only after a bind that worked (adm33b: it printed it before, and a port
    another program held made it false). (A callback, not `nursery.start`: the server's tasks keep the order they
    were started in, which seeded tests depend on.)"""
    sock = trio.socket.socket(trio.socket.AF_INET, trio.socket.SOCK_DGRAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        await sock.bind(("0.0.0.0" if host in ("", "0.0.0.0", "::") else host, port))
    except OSError as error:
        # a warning (adm33: an info line, among the start's, was all an admin had), and the start says it on stdout
        log("discovery_off", level=logging.WARNING, port=port, error=str(error),
            note="dt-client discover will not find this server; players connect by its address")
        sock.close()
        if bound is not None:
            bound(error.strerror or str(error))
        return
    if bound is not None:
        bound(None)
    reply = answer_datagram(name, port, tls)
    with sock:
        while True:
            data, source = await sock.recvfrom(QUERY_SIZE + 1)
            if is_query(data):
                try:
                    await sock.sendto(reply, source)
                except OSError:
                    pass
