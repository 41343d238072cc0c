"""TLS on loopback, for real (docs/protocol.md section 1): `dt-server --tls` serves TLS and plain TCP on one port
with a self-signed certificate kept in its data directory; the client pins its fingerprint on first use and refuses
a changed one, or a pinned server that no longer offers TLS (server/tls.py, client/tls.py)."""

import os
from functools import partial

import pytest
import trio
from dungeon_twister.client.tls import KNOWN_SERVERS, KnownServers, PinMismatch, tls_connector
from dungeon_twister.protocol import CreateTable, PlayerConnection, TableCreated, TableOptions, Welcome
from dungeon_twister.server.tls import KEY_FILE

from test_server_support import SOFTWARE, Client, running_server


async def hello_over(stream, name: str) -> Client:
    client = Client(stream, PlayerConnection(), name)
    await client.send_raw(client.conn.send_hello(name, SOFTWARE))
    await client.expect(Welcome)
    return client


async def test_tls_and_plain_clients_play_on_one_port_and_the_certificate_is_pinned_on_first_use(tmp_path, caplog):
    import logging

    caplog.set_level(logging.INFO, logger="dungeon_twister.server")
    notes: list[str] = []
    known = KnownServers(tmp_path / "client" / KNOWN_SERVERS)
    async with running_server(tls=True, data_dir=tmp_path / "data") as server:
        assert server.tls_fingerprint.startswith("SHA256:") and len(server.tls_fingerprint) == 7 + 64
        # the log's `listening` line has it too (play-test ad29: the printed line is not JSON, and jq over the
        # journal stopped at it)
        (listening,) = [r.fields for r in caplog.records if r.getMessage() == "listening"]
        assert listening["tls"] == server.tls_fingerprint
        assert oct(os.stat(tmp_path / "data" / KEY_FILE).st_mode & 0o777) == "0o600"
        connect = tls_connector(known, notes.append)
        secured = await connect("127.0.0.1", server.port)
        assert isinstance(secured, trio.SSLStream)
        ann = await hello_over(secured, "ann")
        await ann.send(CreateTable(TableOptions()))
        assert (await ann.expect(TableCreated)).table
        address = f"127.0.0.1:{server.port}"
        assert known.get(address) == server.tls_fingerprint
        assert notes == [f"TLS: pinned {address} as {server.tls_fingerprint} on first use (compare with what "
                         "dt-server printed)"]
        assert oct(os.stat(known.path).st_mode & 0o777) == "0o600"
        again = await connect("127.0.0.1", server.port)  # pinned: the same certificate is accepted, silently
        await hello_over(again, "bob")
        assert len(notes) == 1
        plain = await Client.connect(server, "cy")  # plain TCP (a LAN client) on the same port
        assert plain.conn.state.value == "lobby"
        first = server.tls_fingerprint
    caplog.clear()
    async with running_server(data_dir=tmp_path / "plain"):  # the edge: no TLS, none said
        (listening,) = [r.fields for r in caplog.records if r.getMessage() == "listening"]
        assert listening["tls"] is None
    async with running_server(tls=True, data_dir=tmp_path / "data") as server:
        assert server.tls_fingerprint == first, "the certificate is kept in the data directory"


async def test_a_changed_certificate_and_a_downgrade_are_refused_a_plain_server_is_reached_in_plain(tmp_path):
    notes: list[str] = []
    known = KnownServers(tmp_path / KNOWN_SERVERS)
    async with running_server(tls=True, data_dir=tmp_path / "data") as server:
        address = f"127.0.0.1:{server.port}"
        known.pin(address, "SHA256:" + "0" * 64)  # pinned before, to another certificate
        with pytest.raises(PinMismatch) as info:
            await tls_connector(known, notes.append)("127.0.0.1", server.port)
        assert str(info.value).startswith(f"WARNING: {address} shows a certificate that is not the one pinned on "
                                          "first use: not connecting, someone may be in the way. If the server's "
                                          "certificate was replaced on purpose, remove its line from ")
        assert str(info.value).endswith(f" (it shows {server.tls_fingerprint}; pinned: SHA256:{'0' * 64})")
    # a known-servers file of its own: the plain server may be given the port the TLS server had (seen once in
    # the suite), whose pin would then be the one above
    known = KnownServers(tmp_path / "plain" / KNOWN_SERVERS)
    async with running_server() as plain_server:  # no TLS
        address = f"127.0.0.1:{plain_server.port}"
        stream = await tls_connector(known, notes.append)("127.0.0.1", plain_server.port)
        assert not isinstance(stream, trio.SSLStream) and notes == [f"{address} offers no TLS: plain TCP (as on a "
                                                                    "LAN)"]
        await hello_over(stream, "ann")
        known.pin(address, "SHA256:" + "1" * 64)
        with pytest.raises(PinMismatch) as info:
            await tls_connector(known, notes.append)("127.0.0.1", plain_server.port)
        assert str(info.value).startswith(f"WARNING: {address} no longer offers TLS, though it was pinned for it: "
                                          "not connecting")


async def test_a_tls_server_needs_a_data_directory_for_its_certificate():
    from dungeon_twister.server.config import ServerConfig
    from dungeon_twister.server.server import Server

    with pytest.raises(ValueError, match="TLS needs a data directory"):
        Server(ServerConfig(tls=True, data_dir=None))


def test_the_certificate_made_has_extensions_so_that_strict_tls_libraries_take_it(tmp_path):
    """docs/protocol.md section 1: a client in another language checks the certificate by its fingerprint, but its
    TLS library parses it first. webpki (Rust's rustls) refuses a version 3 certificate that has no extensions
    ("MissingOrMalformedExtensions"), and dt-server's had none: a Rust client (session 29) could not finish the
    handshake without turning the library's checks off. The certificate made now names the server
    (subjectAltName) and is no CA (basicConstraints, critical), as a self-signed server certificate does."""
    from cryptography import x509
    from dungeon_twister.server.tls import CERT_FILE, ensure_certificate

    ensure_certificate(tmp_path, "lan-party")
    certificate = x509.load_pem_x509_certificate((tmp_path / CERT_FILE).read_bytes())
    assert certificate.version == x509.Version.v3
    names = certificate.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    assert names.get_values_for_type(x509.DNSName) == ["lan-party"]
    basic = certificate.extensions.get_extension_for_class(x509.BasicConstraints)
    assert basic.critical and basic.value.ca is False


def test_a_certificate_without_its_key_or_a_damaged_one_is_refused_not_replaced(tmp_path):
    """A play-test's restore left tls-cert.pem out: the server made a new key and certificate silently, and every
    client that had pinned the old one refused it. One file of the pair without the other, or a damaged pair, is
    refused with the file named (dt-server exits 3); a new pair is made only where there is neither."""
    from dungeon_twister.server.tls import CERT_FILE, KEY_FILE, CertificateError, ensure_certificate, server_context

    ensure_certificate(tmp_path)
    key = (tmp_path / KEY_FILE).read_bytes()
    (tmp_path / CERT_FILE).unlink()
    with pytest.raises(CertificateError, match=f"{KEY_FILE} is there but {CERT_FILE} is not: restore both"):
        server_context(tmp_path)
    assert (tmp_path / KEY_FILE).read_bytes() == key and not (tmp_path / CERT_FILE).exists(), "nothing made"
    (tmp_path / CERT_FILE).write_text("garbage\n")
    with pytest.raises(CertificateError, match="are not a usable certificate and key"):
        server_context(tmp_path)


def test_an_encrypted_or_unreadable_key_is_refused_with_the_file_named_not_asked_for_on_the_terminal(tmp_path,
                                                                                                        monkeypatch):
    """Play-test ad29: an admin's own key with a passphrase made dt-server ask for it on the terminal ("Enter PEM
    pass phrase:", which a systemd service has not), then say "dt-server: Invalid argument"; a pair it could not
    read (left owned by root) said "dt-server: Permission denied". Both with no file named and exit status 1,
    which the unit restarts every 5 s for ever. Now each is a CertificateError naming the file (exit status 3)."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    from dungeon_twister.server.tls import CERT_FILE, CertificateError, ensure_certificate, server_context

    ensure_certificate(tmp_path)
    key = tmp_path / KEY_FILE
    plain = key.read_bytes()
    private = serialization.load_pem_private_key(plain, None)
    assert isinstance(private, ec.EllipticCurvePrivateKey)
    key.write_bytes(private.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                          serialization.BestAvailableEncryption(b"secret")))
    with pytest.raises(CertificateError, match=f"{key} is encrypted .*: dt-server needs the key unencrypted"):
        server_context(tmp_path)
    key.write_bytes(plain)
    server_context(tmp_path)  # the same pair, unencrypted, serves
    cert = tmp_path / CERT_FILE
    text = cert.read_bytes()
    cert.unlink()
    cert.mkdir()  # a file OpenSSL cannot read (as root, the tests may read any file whatever its mode)
    with pytest.raises(CertificateError, match=f"{cert} or {key}: .*: both files must belong to the user dt-server"):
        server_context(tmp_path)
    cert.rmdir()
    cert.write_bytes(text)
    key.chmod(0o644)

    def refused(path, mode):  # a key readable by others that the server's user may not make private (root's)
        raise PermissionError(1, "Operation not permitted", str(path))

    monkeypatch.setattr(type(key), "chmod", refused)
    with pytest.raises(CertificateError, match=f"{key}: Operation not permitted: both files must belong"):
        server_context(tmp_path)


def test_an_admins_own_certificate_is_used_and_a_key_readable_by_others_is_made_private(tmp_path, caplog):
    """pt21 A10: an admin's own certificate and key (put in the data directory before the start, as deploy/README
    says) are served as they are, but a key readable by other users (restored with `cp`, or made under umask 022)
    was used silently: it is made 0600 at the start, as the database is, with a warning; a private one is left
    alone without a word."""
    import datetime
    import logging
    import ssl

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    from dungeon_twister.protocol.transport import fingerprint
    from dungeon_twister.server.tls import CERT_FILE, server_context

    private = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "games.example.org")])
    now = datetime.datetime.now(datetime.timezone.utc)
    certificate = (x509.CertificateBuilder().subject_name(subject).issuer_name(subject)
                   .public_key(private.public_key()).serial_number(1)
                   .not_valid_before(now - datetime.timedelta(days=1))
                   .not_valid_after(now + datetime.timedelta(days=30)).sign(private, hashes.SHA256()))
    key = tmp_path / KEY_FILE
    key.write_bytes(private.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                          serialization.NoEncryption()))
    (tmp_path / CERT_FILE).write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    key.chmod(0o644)
    caplog.set_level(logging.INFO, logger="dungeon_twister.server")
    context, shown = server_context(tmp_path)
    assert isinstance(context, ssl.SSLContext)
    assert shown == fingerprint(certificate.public_bytes(serialization.Encoding.DER)), "the admin's own"
    assert oct(os.stat(key).st_mode & 0o777) == "0o600"
    (warned,) = [r for r in caplog.records if r.getMessage() == "tls_key_made_private"]
    assert (warned.levelname, warned.fields["key"], warned.fields["was"]) == ("WARNING", str(key), "0o644")
    assert [r.getMessage() for r in caplog.records] == ["tls_key_made_private"], "nothing made"
    caplog.clear()
    server_context(tmp_path)
    assert caplog.records == [] and oct(os.stat(key).st_mode & 0o777) == "0o600"


async def test_a_handshake_cut_off_or_unanswered_is_tried_again_not_read_as_a_downgrade(tmp_path, autojump_clock):
    """Play-test pt23: a TLS server killed and restarted at once; the client's resume met the dying (or just bound)
    listener, the handshake ended with no answer, and the client, reading it as "no longer offers TLS", warned of a
    man in the middle and stopped trying: its seat's grace ran out. Only a server that answers in plain TCP (a plain
    dt-server answers a ClientHello with an error frame) is a downgrade; no answer, an end or a reset is a
    connection that failed (`HandshakeCut`, an OSError the network retries), pinned or not, and TLS is not given up
    for plain TCP either."""
    from dungeon_twister.client.tls import HandshakeCut

    async def cut(stream):  # a server going down: the connection is accepted, then ends before any byte
        await stream.aclose()

    async def silent(stream):  # a server too busy to answer in time
        await trio.sleep_forever()

    notes: list[str] = []
    async with trio.open_nursery() as nursery:
        listeners = [(await nursery.start(partial(trio.serve_tcp, handler, 0, host="127.0.0.1")))[0]
                     for handler in (cut, silent)]
        ports = [listener.socket.getsockname()[1] for listener in listeners]
        known = KnownServers(tmp_path / KNOWN_SERVERS)
        for port in ports:
            for pinned in (False, True):
                if pinned:
                    known.pin(f"127.0.0.1:{port}", "SHA256:" + "2" * 64)
                with pytest.raises(HandshakeCut) as info:
                    await tls_connector(known, notes.append)("127.0.0.1", port)
                assert not isinstance(info.value, PinMismatch)
        nursery.cancel_scope.cancel()
    assert notes == [], "no plain TCP chosen, no pin made"
    assert str(info.value) == "the server did not answer the TLS handshake within 10 s"


async def test_a_tls_connection_over_the_address_cap_is_told_both_causes_it_may_have(tmp_path):
    """Play-test pt26 F2: a connection beyond max_connections_per_address is closed as soon as it is accepted,
    before anything is read, so a TLS client sees its handshake cut and said only "is the server restarting?",
    while the cause was its address's connections. It cannot tell one from the other: both are named."""
    from test_server_support import REAL_TIME_HANG_GUARD

    from dungeon_twister.client.tls import HandshakeCut

    known = KnownServers(tmp_path / "client" / KNOWN_SERVERS)
    with trio.fail_after(REAL_TIME_HANG_GUARD):
        async with running_server(tls=True, data_dir=tmp_path / "data", max_connections_per_address=1) as server:
            first = await tls_connector(known, [].append)("127.0.0.1", server.port)
            await hello_over(first, "ann")  # the address's one connection
            with pytest.raises(HandshakeCut) as cut:
                await tls_connector(known, [].append)("127.0.0.1", server.port)
    assert str(cut.value) == ("the server closed the connection during the TLS handshake: is it restarting, or are "
                              "too many connections open from this address?")
