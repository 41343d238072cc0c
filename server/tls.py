"""TLS for dt-server (`--tls`): a self-signed certificate made on first start with `cryptography` and kept in the
data directory, its SHA-256 fingerprint printed for the players to compare; clients pin it on first use, as SSH does
with host keys (client/tls.py). One port serves both: a connection whose first byte opens a TLS record (0x16) gets
TLS, any other plain TCP (LAN parties, older clients)."""

from __future__ import annotations

import datetime
import logging
import os
import socket
import ssl
from pathlib import Path

import trio

from dungeon_twister.protocol.transport import TLS_RECORD, fingerprint

from .logs import log

CERT_FILE = "tls-cert.pem"
KEY_FILE = "tls-key.pem"
CERT_YEARS = 10


class CertificateError(Exception):
    """The TLS certificate or key in the data directory cannot be used; the message names the file and what to do
    (dt-server exits with status 3, as for an unusable store: restarting would fail the same way)."""


def ensure_certificate(data_dir: Path, name: str = "dt-server") -> tuple[Path, Path]:
    """The certificate and key files in `data_dir`, made (key 0600) if neither is there yet. One without the
    other is refused (CertificateError): making a new pair would change the server's identity silently, and every
    client that pinned it would refuse the server (a play-test's restore forgot one of the two files)."""
    cert, key = data_dir / CERT_FILE, data_dir / KEY_FILE
    if cert.exists() and key.exists():
        _private(key)
        return cert, key
    if cert.exists() or key.exists():
        there, missing = (cert, key) if cert.exists() else (key, cert)
        raise CertificateError(f"{there} is there but {missing.name} is not: restore both from a backup (or, to "
                               f"make a new certificate, which the clients that pinned this one will refuse, move "
                               f"{there.name} away)")
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    private = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
    now = datetime.datetime.now(datetime.timezone.utc)
    certificate = (x509.CertificateBuilder().subject_name(subject).issuer_name(subject)
                   .public_key(private.public_key()).serial_number(x509.random_serial_number())
                   .not_valid_before(now - datetime.timedelta(days=1))
                   .not_valid_after(now + datetime.timedelta(days=365 * CERT_YEARS))
                   # extensions, so that strict X.509 parsers take it: webpki (rustls) refuses a version 3
                   # certificate without any ("MissingOrMalformedExtensions"), and so a Rust client's handshake
                   .add_extension(x509.SubjectAlternativeName([x509.DNSName(name)]), critical=False)
                   .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
                   .sign(private, hashes.SHA256()))
    data_dir.mkdir(mode=0o700, parents=True, exist_ok=True)  # (private, as the store makes it: adm33)
    descriptor = os.open(key, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "wb") as out:
        out.write(private.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                        serialization.NoEncryption()))
    cert.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    log("tls_certificate_made", level=logging.WARNING, certificate=str(cert),
        note="a new identity: clients that pinned another certificate for this address will refuse this one")
    return cert, key


def _private(key: Path) -> None:
    """The private key readable by the server's user alone, as the database is (storage._private): a key restored
    with `cp` from a backup, or an admin's own, may be readable by every local user, who could then pose as the
    server. Made 0600, with a warning (the key may have been read already: a new certificate is the cure)."""
    mode = key.stat().st_mode & 0o777
    if mode & 0o077:
        key.chmod(0o600)
        log("tls_key_made_private", level=logging.WARNING, key=str(key), was=oct(mode),
            note="the private key was readable by other users; it is 0600 now")


def certificate_der(data_dir: Path) -> bytes:
    """The server's certificate (DER), whose SHA-256 a client's key proof over TLS is bound to (identity.channel_of,
    docs/protocol.md section 18)."""
    return ssl.PEM_cert_to_DER_cert((data_dir / CERT_FILE).read_text())


def server_context(data_dir: Path, name: str = "dt-server") -> tuple[ssl.SSLContext, str]:
    """The TLS context of the server's certificate (made if missing) and that certificate's fingerprint.

    A file the server's user cannot read (an admin's own pair left owned by root), or a key with a passphrase, is
    a CertificateError naming the file (exit status 3), as a damaged pair is: play-test ad29 saw "dt-server:
    Permission denied" with no file named, and a passphrase asked for on the terminal, then "Invalid argument",
    both exit status 1, which the systemd unit restarts every 5 s for ever."""
    try:
        cert, key = ensure_certificate(data_dir, name)
    except OSError as error:
        raise CertificateError(_unreadable(error)) from None
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_2

    def passphrase() -> bytes:  # (without it, OpenSSL asks for one on the terminal, which a service has not)
        raise CertificateError(f"{key} is encrypted (it has a passphrase): dt-server needs the key unencrypted, "
                               f"0600 and owned by its user, e.g. `openssl pkey -in {key} -out KEY.new`, then "
                               f"move KEY.new over {key.name}")

    try:
        context.load_cert_chain(cert, key, password=passphrase)
        return context, fingerprint(ssl.PEM_cert_to_DER_cert(cert.read_text()))
    except OSError as error:
        if not isinstance(error, ssl.SSLError):  # (OpenSSL's errors name no file)
            raise CertificateError(_unreadable(error, f"{cert} or {key}")) from None
        raise CertificateError(f"{cert} and {key} are not a usable certificate and key ({error}): restore them "
                               "from a backup") from None
    except (ValueError, UnicodeDecodeError) as error:  # (ssl's own message names no file)
        raise CertificateError(f"{cert} and {key} are not a usable certificate and key ({error}): restore them "
                               "from a backup") from None


def _unreadable(error: OSError, files: str = "the certificate or key") -> str:
    """What to do about a certificate or key file the server cannot read or make private (`error`, or else
    `files`, names it)."""
    return (f"{error.filename or files}: {error.strerror or error}: both files must belong to the user dt-server "
            "runs as (chown), the key 0600")


async def maybe_tls(stream: trio.SocketStream, context: ssl.SSLContext | None) -> trio.abc.Stream:
    """The stream to serve: TLS if the server has a context and the client's first byte opens a TLS record, else
    the plain stream. Waits for that first byte (a plain client sends its hello first anyway)."""
    if context is None:
        return stream
    first = await stream.socket.recv(1, socket.MSG_PEEK)
    if first and first[0] == TLS_RECORD:
        return trio.SSLStream(stream, context, server_side=True)
    return stream
