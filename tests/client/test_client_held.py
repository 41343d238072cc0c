"""The seat file (client/held.py): where it lives, who may read it, atomic replacement, and what is not read."""

from __future__ import annotations

import json
import os
import stat

import platformdirs

from dungeon_twister.client import held
from dungeon_twister.client.held import MAX_FILE_SIZE, MAX_PROGRESS_SIZE, HeldSeat, KeptSecret, Progress, SeatFile

NONCE = bytes(range(32))


def seat(**changes) -> HeldSeat:
    values = {"table": "t1-ab", "seat": "B", "token": "tok-1", "grace_seconds": 45,
              "secrets": {"combat-3": KeptSecret("combat +2", NONCE, 17, bytes(32))}}
    return HeldSeat(**{**values, **changes})


def test_a_saved_seat_is_loaded_back_with_its_secrets(tmp_path):
    seat_file = SeatFile("example.org:7777", "alice", tmp_path / "state")
    assert seat_file.load() is None, "nothing kept yet"
    seat_file.save(seat())
    assert seat_file.load() == seat()
    seat_file.clear()
    assert seat_file.load() is None and not seat_file.path.exists()
    seat_file.clear()  # clearing twice is fine


def test_only_the_user_may_read_it_and_no_temporary_file_is_left(tmp_path):
    directory = tmp_path / "state"
    seat_file = SeatFile("example.org:7777", "alice", directory)
    os.umask(old := os.umask(0))  # whatever the umask, the modes below hold
    try:
        seat_file.save(seat())
        seat_file.save(seat(token="tok-2"))
    finally:
        os.umask(old)
    assert stat.S_IMODE(seat_file.path.stat().st_mode) == 0o600
    assert stat.S_IMODE(directory.stat().st_mode) == 0o700
    assert [path.name for path in directory.iterdir()] == [seat_file.path.name]
    assert seat_file.load().token == "tok-2"


def test_a_crash_between_writing_and_renaming_leaves_the_old_file(tmp_path, monkeypatch):
    seat_file = SeatFile("h:1", "alice", tmp_path)
    seat_file.save(seat(token="old"))

    def crash(source, target):
        raise OSError("power cut")

    monkeypatch.setattr(held.os, "replace", crash)
    try:
        seat_file.save(seat(token="new"))
    except OSError:
        pass
    assert seat_file.load().token == "old"
    assert [path.name for path in tmp_path.iterdir()] == [seat_file.path.name], "the temporary file is removed"


def test_one_file_per_server_and_name(tmp_path):
    files = [SeatFile(server, name, tmp_path) for server in ("h:1", "h:2") for name in ("alice", "bob")]
    for number, seat_file in enumerate(files):
        seat_file.save(seat(token=f"tok-{number}"))
    assert [seat_file.load().token for seat_file in files] == ["tok-0", "tok-1", "tok-2", "tok-3"]
    assert len(set(path.name for path in tmp_path.iterdir())) == 4
    assert "/" not in files[0].path.name and ".." not in files[0].path.name


def test_what_is_not_a_file_we_wrote_is_ignored(tmp_path):
    seat_file = SeatFile("h:1", "alice", tmp_path)
    seat_file.save(seat())
    raw = json.loads(seat_file.path.read_text())
    cases = [
        b"not json",
        json.dumps({**raw, "name": "bob"}).encode(),  # another name's file copied here
        json.dumps({**raw, "format": 99}).encode(),
        json.dumps({**raw, "token": 5}).encode(),
        json.dumps({**raw, "secrets": {"x": {"choice": "c", "nonce": "zz", "since_event": 1}}}).encode(),
        b" " * (MAX_FILE_SIZE + 1),
    ]
    for data in cases:
        seat_file.path.write_bytes(data)
        assert seat_file.load() is None, data[:60]


def test_the_progress_file_keeps_the_view_the_log_and_the_chat_for_its_table_only(tmp_path):
    """Beside the seat file, how far the table's events got (a view with bytes in it, as views carry commitments),
    readable by the user only, read back only for its table; what is not a file we wrote is not read; clearing
    the seat clears it too."""
    import msgpack

    seat_file = SeatFile("h:1", "alice", tmp_path)
    assert seat_file.load_progress("t1-ab") is None
    progress = Progress("t1-ab", 42, {"phase": "main", "secret": {"c": bytes(32)}, "legal": ["end"]}, None,
                        ["Blue ends turn 2", "turn 3: Yellow plays"], True)
    seat_file.save_progress(progress)
    assert seat_file.load_progress("t1-ab") == progress
    assert seat_file.load_progress("t2-cd") is None, "another table's"
    assert stat.S_IMODE(seat_file.progress_path.stat().st_mode) == 0o600
    whole = Progress("t1-ab", 7, None, {"phase": "hide"}, [], False)  # a connection without view deltas
    seat_file.save_progress(whole)
    assert seat_file.load_progress("t1-ab") == whole
    chatted = Progress("t1-ab", 8, None, {"phase": "hide"}, [], False, ["bob: hi", "alice (watching): hello"])
    seat_file.save_progress(chatted)
    assert seat_file.load_progress("t1-ab") == chatted, "the table's chat lines too"
    moved = Progress("t1-ab", 9, None, {"phase": "main"}, [], False, [], ["B card 2", "bTH i0-j0"])
    seat_file.save_progress(moved)
    assert seat_file.load_progress("t1-ab") == moved, "the strip of the last moves too (play-test 21)"
    seat_file.save_progress(chatted)
    raw = msgpack.unpackb(seat_file.progress_path.read_bytes())
    older = {key: value for key, value in raw.items() if key not in ("chat", "moves")}  # written before they were kept
    seat_file.progress_path.write_bytes(msgpack.packb(older))
    assert seat_file.load_progress("t1-ab") == Progress("t1-ab", 8, None, {"phase": "hide"}, [], False, [])
    for data in [b"\xc1", msgpack.packb({**raw, "format": 2}), msgpack.packb({**raw, "base": {"a": 1}}),
                 msgpack.packb({**raw, "view": None}), msgpack.packb({**raw, "log": ["a", 3]}),
                 msgpack.packb({**raw, "log": [["a", 3]]}), msgpack.packb({**raw, "log": [["a", {}, 1]]}),
                 msgpack.packb({**raw, "chat": ["a", 3]}), msgpack.packb({**raw, "chat": "a"}),
                 msgpack.packb({**raw, "moves": [3]}), msgpack.packb({**raw, "moves": "B end"}),
                 msgpack.packb({**raw, "last_event": -1}), msgpack.packb({**raw, "table": ""}),
                 msgpack.packb(raw) + b"x", b"\x90" * (MAX_PROGRESS_SIZE + 1)]:
        seat_file.progress_path.write_bytes(data)
        assert seat_file.load_progress("t1-ab") is None, data[:40]
    seat_file.save(seat())
    seat_file.save_progress(whole)
    seat_file.clear()
    assert list(tmp_path.iterdir()) == []


def test_the_state_directory_is_the_platforms_unless_the_variable_says(monkeypatch, tmp_path):
    monkeypatch.delenv(held.STATE_DIR_VARIABLE, raising=False)
    assert str(held.state_dir()) == platformdirs.user_state_dir("dt-client")
    monkeypatch.setenv(held.STATE_DIR_VARIABLE, str(tmp_path))
    assert held.state_dir() == tmp_path
    assert SeatFile("h:1", "alice").path.parent == tmp_path


def test_seats_kept_under_other_names_on_the_same_server_are_found_for_the_welcome(tmp_path):
    """A player who played as "bob" and started dt-client again without --name (as his login's name) was not told
    that a seat was kept for him: the welcome now names each such seat and the --name that takes it back. Only this
    server's, only other names' files, and nothing of what is not a file we wrote."""
    from dungeon_twister.client.inbox import _welcome
    from dungeon_twister.client.session import Session
    from dungeon_twister.client.state import ClientState
    from dungeon_twister.protocol import Software, Welcome

    SeatFile("h:1", "bob", tmp_path).save(seat(table="t3-aa"))
    SeatFile("h:1", "carol", tmp_path).save(seat(table="t1-bb"))
    SeatFile("h:2", "dave", tmp_path).save(seat(table="t9-cc"))  # another server's
    (tmp_path / "seat-0123.json").write_bytes(b"not json")
    alice = SeatFile("h:1", "alice", tmp_path)
    assert alice.kept_elsewhere() == [("bob", "t3-aa"), ("carol", "t1-bb")]
    assert SeatFile("h:1", "bob", tmp_path).kept_elsewhere() == [("carol", "t1-bb")]
    assert SeatFile("h:1", "x", tmp_path / "none").kept_elsewhere() == [], "no directory yet"

    session = Session(ClientState("alice"), seat_file=alice)
    _welcome(session, Welcome(1, Software("dt-server", "1.0"), "s-1"))
    assert session.state.notice == (
        "connected to dt-server 1.0 as alice · a seat at table t3-aa is kept for you as bob: start dt-client again "
        "with --name bob to take it back · a seat at table t1-bb is kept for you as carol: start dt-client again "
        "with --name carol to take it back")
    SeatFile("h:1", "alice", tmp_path).save(seat(table="t5-dd"))
    own = Session(ClientState("alice"), seat_file=SeatFile("h:1", "alice", tmp_path))
    own.take_plan()  # (the plan resumes alice's own seat: her other names' are not mentioned then)
    assert own.held is not None and own.kept_elsewhere() == []
