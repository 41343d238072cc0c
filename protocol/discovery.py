"""LAN discovery's datagrams (docs/protocol.md section 17), sans-IO: the query a client broadcasts on UDP to the
servers' port number, and the JSON answer of each server. The query is padded to QUERY_SIZE bytes and an answer is
never larger, so that a server cannot be used to amplify traffic."""

from __future__ import annotations

import json

QUERY = b"dungeon-twister discover v1\n"
QUERY_SIZE = 512
SERVICE = "dungeon-twister"


def query_datagram() -> bytes:
    return QUERY.ljust(QUERY_SIZE, b"\0")


def is_query(data: bytes) -> bool:
    return len(data) == QUERY_SIZE and data.startswith(QUERY) and not data[len(QUERY):].strip(b"\0")


def answer_datagram(name: str, port: int, tls: str | None) -> bytes:
    """A server's answer: its name (at most 64 characters), TCP port and TLS fingerprint (or null)."""
    body = {"service": SERVICE, "version": 1, "name": name[:64], "port": port, "tls": tls}
    data = json.dumps(body, separators=(",", ":"), ensure_ascii=True).encode()
    if len(data) > QUERY_SIZE:  # a long name of escaped characters: never larger than the query
        data = json.dumps({**body, "name": ""}, separators=(",", ":")).encode()
    return data


def parse_answer(data: bytes) -> dict | None:
    """{"name", "port", "tls"} of a server's answer, or None for anything else."""
    try:
        body = json.loads(data)
    except ValueError:
        return None
    if not isinstance(body, dict) or body.get("service") != SERVICE:
        return None
    port, name, tls = body.get("port"), body.get("name"), body.get("tls")
    if type(port) is not int or not 0 < port < 65536:  # (not isinstance: JSON's true is an int there)
        return None
    return {"name": name[:64] if isinstance(name, str) and name else "dt-server", "port": port,
            "tls": tls if isinstance(tls, str) else None}
