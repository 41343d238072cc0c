"""LAN discovery on loopback (server/discovery.py, client/discovery.py, protocol/discovery.py): a server answers
the query on its own port number with its name, port and TLS fingerprint; other datagrams get nothing; an answer
is never larger than the query."""

import trio
import trio.testing
from dungeon_twister.client.discovery import discover
from dungeon_twister.protocol.discovery import (QUERY_SIZE, answer_datagram, is_query, parse_answer,
                                                query_datagram)

from test_server_support import REAL_TIME_HANG_GUARD, running_server


async def test_discover_finds_a_server_on_this_machine_with_its_tls_fingerprint(tmp_path):
    async with running_server(tls=True, data_dir=tmp_path, name="lan-party") as server:
        await trio.testing.wait_all_tasks_blocked()  # the answering task has bound its socket: it waits on it
        found = await discover(server.port, wait=1.0, targets=("127.0.0.1",))
    assert [(f.name, f.address, f.tls) for f in found] == [
        ("lan-party", f"127.0.0.1:{server.port}", server.tls_fingerprint)]


async def test_nothing_answers_anything_but_the_query(tmp_path):
    async with running_server(name="quiet") as server:
        await trio.testing.wait_all_tasks_blocked()
        sock = trio.socket.socket(trio.socket.AF_INET, trio.socket.SOCK_DGRAM)
        with sock:
            await sock.bind(("127.0.0.1", 0))
            for junk in (b"hello", query_datagram()[:-1], query_datagram()[:-1] + b"x", b"\0" * QUERY_SIZE):
                await sock.sendto(junk, ("127.0.0.1", server.port))
            await sock.sendto(query_datagram(), ("127.0.0.1", server.port))
            with trio.fail_after(REAL_TIME_HANG_GUARD):  # the one answer arrives at once
                data, _ = await sock.recvfrom(2048)
            assert parse_answer(data) == {"name": "quiet", "port": server.port, "tls": None}
            with trio.move_on_after(0.5):
                extra = await sock.recvfrom(2048)
                raise AssertionError(f"a second answer: {extra!r}")


def test_an_answer_is_never_larger_than_the_query_and_parsing_refuses_strangers():
    assert is_query(query_datagram()) and len(query_datagram()) == QUERY_SIZE
    long_name = "é" * 64  # 6 bytes each once escaped: 384, with a fingerprint over 512 in all
    print_ = "SHA256:" + "a" * 64
    assert len(answer_datagram(long_name, 7777, print_)) <= QUERY_SIZE
    assert parse_answer(answer_datagram(long_name, 7777, print_)) == {"name": "dt-server", "port": 7777,
                                                                       "tls": print_}, "the name gives way"
    assert parse_answer(answer_datagram(long_name, 7777, None))["name"] == long_name, "without it, it fits"
    assert parse_answer(b'{"service": "other", "port": 1}') is None
    assert parse_answer(b'{"service": "dungeon-twister", "port": 70000}') is None
    assert parse_answer(b"not json") is None


def test_an_answer_whose_port_is_not_a_whole_number_is_a_strangers():
    """JSON's true is Python's True, an int (1) to isinstance: `dt-client discover` listed such an answer as
    `dt-client connect HOST:True` (fuzzing fz31)."""
    for port in (b"true", b"false", b"7777.0", b'"7777"', b"null", b"[7777]"):
        assert parse_answer(b'{"service": "dungeon-twister", "port": ' + port + b"}") is None, port
    assert parse_answer(b'{"service": "dungeon-twister", "port": 7777}')["port"] == 7777


async def test_a_discovery_port_held_by_another_program_is_a_warning(caplog):
    """adm33: with the UDP port held by another program, the start still printed "find it with `dt-client
    discover`" and logged `discovery_off` among its info lines: the admin had no sign that discover would find
    nothing. It is a warning, which says so; the server runs on (the players connect by its address)."""
    import logging
    import socket

    from dungeon_twister.server.discovery import answer_queries

    caplog.set_level(logging.INFO, logger="dungeon_twister.server")
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as holder:  # (no SO_REUSEADDR: the port is its own)
        holder.bind(("127.0.0.1", 0))
        port = holder.getsockname()[1]
        with trio.fail_after(REAL_TIME_HANG_GUARD):
            await answer_queries("127.0.0.1", port, "held", None)  # (returns at once: nothing to answer on)
    [record] = [r for r in caplog.records if r.getMessage() == "discovery_off"]
    assert record.levelname == "WARNING" and record.fields["port"] == port
    assert "dt-client discover will not find this server" in record.fields["note"]


def test_the_start_says_find_it_with_discover_only_once_its_udp_port_is_bound(tmp_path):
    """adm33b: the start printed "or find it with `dt-client discover`" before discovery tried its UDP port; with
    the port held by another program discover found nothing, and only the log said so. The line is printed after
    the bind: held, it says on stdout that LAN discovery is off and why (still the second line, the connect hint
    kept); bound, it names discover as before."""
    import signal
    import socket
    import subprocess
    import sys

    def start_lines(port: int) -> list[str]:
        command = [sys.executable, "-m", "dungeon_twister.server", "--host", "0.0.0.0", "--port", str(port),
                   "--data", str(tmp_path / "data")]
        with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True) as process:
            lines = [process.stdout.readline(), process.stdout.readline()]
            process.send_signal(signal.SIGTERM)
            assert process.wait(timeout=REAL_TIME_HANG_GUARD) == 0
        return lines

    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as holder:  # (no SO_REUSEADDR: the port is its own)
        holder.bind(("0.0.0.0", 0))
        port = holder.getsockname()[1]
        listening, hint = start_lines(port)
    assert listening == f"dt-server listening on 0.0.0.0:{port}\n"
    assert hint.startswith("players on this network: `dt-client connect ") and "dt-client discover" not in hint
    assert hint.endswith(f"` (LAN discovery is off: UDP port {port}: Address already in use)\n"), hint
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as free:
        free.bind(("0.0.0.0", 0))
        port = free.getsockname()[1]
    listening, hint = start_lines(port)
    assert hint.endswith(f"`, or find it with `dt-client discover --port {port}`\n"), hint
