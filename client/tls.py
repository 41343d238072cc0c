"""TLS with trust on first use, like SSH's known_hosts: `dt-client connect` tries TLS first; a server that offers it
(`dt-server --tls`, server/tls.py) shows a self-signed certificate whose SHA-256 fingerprint the client pins for
that address on first use and requires ever after: a changed certificate is refused with a clear warning, and so is
a pinned server that no longer offers TLS (a downgrade: it answers in plain TCP). A server that does not offer TLS
is reached over plain TCP (LAN parties), remembered for the rest of the run so that each reconnection costs one
connection. A handshake that ends with no answer (a server restarting) is neither: it is tried again."""

from __future__ import annotations

import os
import ssl
from collections.abc import Callable
from pathlib import Path

import trio

from dungeon_twister.protocol.transport import fingerprint

from .i18n import _

KNOWN_SERVERS = "known_servers"
"""The pin file in the client's state directory: one `HOST:PORT SHA256:<hex>` line per server."""
HANDSHAKE_SECONDS = 10.0


class PinMismatch(OSError):
    """The server's certificate is not the one pinned for its address (or it stopped offering TLS)."""


class HandshakeCut(ConnectionError):
    """The TLS handshake ended before the server answered anything (a reset, an end, no answer in time): a server
    that is down, restarting or busy, not one that answers in plain TCP; tried again as a refused connection is."""


def answers_in_plain(error: BaseException) -> bool:
    """Whether a failed handshake met a server that answers in something other than TLS (a plain dt-server answers
    a ClientHello with an error frame: OpenSSL's "wrong version number"), rather than no answer at all (a reset,
    an end, a timeout: a play-test's server killed and restarted read as a downgrade, and the client, taking it
    for a man in the middle, stopped reconnecting)."""
    ended = (ssl.SSLEOFError, ssl.SSLSyscallError, ssl.SSLZeroReturnError)
    return any(isinstance(cause, ssl.SSLError) and not isinstance(cause, ended)
               for cause in (error, error.__cause__, error.__context__))


class KnownServers:
    """The pinned fingerprints, by address, in a file (0600) of the client's state directory."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def _read(self) -> dict[str, str]:
        try:
            # (a byte that is no UTF-8 spoils its line only: no address matches it, the others are read)
            text = self.path.read_text(encoding="utf-8", errors="replace")
        except FileNotFoundError:
            return {}
        pins = {}
        for line in text.splitlines():
            parts = line.split()
            if len(parts) == 2 and not line.startswith("#"):
                pins[parts[0]] = parts[1]
        return pins

    def get(self, address: str) -> str | None:
        return self._read().get(address)

    def pin(self, address: str, print_: str) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        with os.fdopen(descriptor, "a", encoding="utf-8") as out:
            out.write(f"{address} {print_}\n")


def tls_connector(known: KnownServers, notice: Callable[[str], None]):
    """A `connect(host, port)` for run_network: TLS with the pinned (or, first, pinned now) certificate, else plain
    TCP from a server that does not offer TLS and was never pinned."""
    plain: set[str] = set()

    async def connect(host: str, port: int) -> trio.abc.Stream:
        address = f"{host}:{port}"
        if address in plain:
            return await trio.open_tcp_stream(host, port)
        pinned = known.get(address)
        stream = await trio.open_tcp_stream(host, port)
        context = ssl.create_default_context()
        context.check_hostname = False  # self-signed: the pin is the check
        context.verify_mode = ssl.CERT_NONE
        secured = trio.SSLStream(stream, context, server_hostname=host)
        try:
            with trio.fail_after(HANDSHAKE_SECONDS):
                await secured.do_handshake()
        except (trio.BrokenResourceError, trio.TooSlowError, ssl.SSLError, OSError) as error:
            await trio.aclose_forcefully(secured)
            if isinstance(error, trio.TooSlowError):
                raise HandshakeCut(_("the server did not answer the TLS handshake within {seconds} s").format(
                    seconds=format(HANDSHAKE_SECONDS, "g"))) from None
            if not answers_in_plain(error):
                # (a server closes at once a connection beyond its max_connections_per_address, before it reads
                # anything: the client cannot tell that from a restart, so both are named; play-test pt26 F2)
                raise HandshakeCut(_("the server closed the connection during the TLS handshake: is it restarting, "
                                     "or are too many connections open from this address?")) from None
            if pinned is not None:
                # TRANSLATORS: {fingerprint} is the pinned certificate's SHA-256 fingerprint; {file} the pin file
                raise PinMismatch(_("WARNING: {address} no longer offers TLS, though it was pinned for it: not "
                                    "connecting, someone may be in the way. If the server dropped TLS on purpose, "
                                    "remove its line from {file} (pinned: {fingerprint})").format(
                                      address=address, fingerprint=pinned, file=known.path)) from None
            plain.add(address)
            notice(_("{address} offers no TLS: plain TCP (as on a LAN)").format(address=address))
            return await trio.open_tcp_stream(host, port)
        seen = fingerprint(secured.getpeercert(binary_form=True))
        if pinned is None:
            known.pin(address, seen)
            notice(_("TLS: pinned {address} as {fingerprint} on first use (compare with what dt-server printed)")
                   .format(address=address, fingerprint=seen))
        elif pinned != seen:
            await trio.aclose_forcefully(secured)
            # TRANSLATORS: {fingerprint} is the certificate the server shows, {pinned} the one pinned on first use
            # (the remedy before the fingerprints: a message bar of three lines cut it off after them)
            raise PinMismatch(_("WARNING: {address} shows a certificate that is not the one pinned on first use: "
                                "not connecting, someone may be in the way. If the server's certificate was "
                                "replaced on purpose, remove its line from {file} (it shows {fingerprint}; pinned: "
                                "{pinned})").format(address=address, fingerprint=seen, pinned=pinned,
                                                    file=known.path))
        return secured

    def forget_plain(host: str, port: int) -> None:
        """The server at that address now wants TLS (it refused a key proof over plain TCP): try TLS again."""
        plain.discard(f"{host}:{port}")

    connect.forget_plain = forget_plain  # (client/network.py asks it when the session says so)
    return connect
