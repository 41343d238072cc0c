"""The chat log (config.chat_log, server/chatlog.py, deploy/README.md "Chat log"; ops31): off by default; on, every
chat line passed on (the lobby's, a table's, the admin's `say`) is written with who said it, where and from which
address, and nothing of the games; a file a UTC day, 0600 in a 0700 directory, the last chat_log_days days kept,
each day's file bounded."""

from __future__ import annotations

import json
import logging
import stat
import time

import pytest
import trio
from dungeon_twister.protocol import ChatMessage, Chat, CreateTable, Join, Joined, TableCreated, TableOptions
from dungeon_twister.server.admin import Admin
from dungeon_twister.server.chatlog import ChatLog
from dungeon_twister.server.config import ServerConfig, config_from_mapping
from dungeon_twister.server.session import CHAT_BURST

from test_server_support import HANG_GUARD, Client, running_server, seated_pair, watching

DAY = 86400.0


def chat_lines(data_dir) -> list[dict]:
    lines = []
    for path in sorted((data_dir / "chat").glob("chat-*.jsonl")):
        lines += [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    return lines


async def test_the_chat_log_is_off_by_default(tmp_path, autojump_clock):
    assert ServerConfig().chat_log is False
    with trio.fail_after(HANG_GUARD):
        async with running_server(data_dir=tmp_path / "data") as server:
            assert server.chat_log is None
            ann = await Client.connect(server, "ann")
            bob = await Client.connect(server, "bob")
            await ann.send(Chat("hello"))
            await bob.expect(ChatMessage)
    assert not (tmp_path / "data" / "chat").exists()


async def test_on_it_writes_who_said_what_where_and_nothing_of_the_games(tmp_path, autojump_clock, caplog):
    """A table's players and spectator, the lobby, a private table (its id, never its join code) and the admin's
    announcement; the text as the others received it (cleaned); lines dropped by the rate limit reached nobody and
    are not written."""
    caplog.set_level(logging.INFO, logger="dungeon_twister.server")
    data = tmp_path / "data"
    with trio.fail_after(HANG_GUARD):
        async with running_server(data_dir=data, chat_log=True) as server:
            table, blue, yellow = await seated_pair(server, TableOptions(beginner=True))
            watcher = await watching(server, table, "cy")
            await blue.send(Chat("good\tluck"))
            assert (await yellow.expect(ChatMessage)).text == "good luck"
            await watcher.send(Chat("go bob"))
            await blue.expect(ChatMessage, lambda m: m.sender == "cy")
            dee = await Client.connect(server, "dee")
            eve = await Client.connect(server, "eve")
            for number in range(CHAT_BURST + 3):  # (the burst, then dropped: the clock does not move)
                await dee.send(Chat(f"spam {number}"))
            await eve.expect(ChatMessage, lambda m: m.text == f"spam {CHAT_BURST - 1}")
            await eve.send(CreateTable(TableOptions(private=True)))
            created = await eve.expect(TableCreated)
            assert created.join_code
            await eve.send(Join(created.table, "B", created.join_code))
            await eve.expect(Joined)
            await eve.send(Chat("anyone?"))
            await eve.expect(ChatMessage, lambda m: m.text == "anyone?")
            Admin(server).say("the server restarts at noon")
            await dee.expect(ChatMessage, lambda m: m.text == "the server restarts at noon")
    lines = chat_lines(data)
    shown = [(line["table"], line["name"], line["role"], line["seat"], line["text"]) for line in lines]
    assert shown == [(table, "ann", "player", "B", "good luck"), (table, "cy", "spectator", None, "go bob")] + [
        (None, "dee", "player", None, f"spam {number}") for number in range(CHAT_BURST)] + [
        (created.table, "eve", "player", "B", "anyone?"), (None, "dt-server", "admin", None,
                                                          "the server restarts at noon")]
    assert all(line["address"] == "127.0.0.1" and line["session"].startswith("s") for line in lines[:-1])
    assert (lines[-1]["address"], lines[-1]["session"]) == (None, None)
    assert lines[0]["ts"].endswith("Z") and set(lines[0]) == {"ts", "table", "name", "role", "seat", "address",
                                                              "session", "text"}
    written = "".join(path.read_text() for path in (data / "chat").iterdir())
    assert created.join_code not in written, "a private table is named by its id alone"
    assert stat.S_IMODE((data / "chat").stat().st_mode) == 0o700
    assert {stat.S_IMODE(path.stat().st_mode) for path in (data / "chat").iterdir()} == {0o600}
    assert [r.fields["days"] for r in caplog.records if r.getMessage() == "chat_log"] == [30]


def test_a_file_a_day_the_last_days_kept_and_a_days_file_bounded(tmp_path, caplog):
    caplog.set_level(logging.INFO, logger="dungeon_twister.server")
    now = [time.mktime((2026, 12, 1, 12, 0, 0, 0, 0, 0)) - time.timezone]  # 2026-12-01 12:00 UTC
    log = ChatLog(tmp_path / "chat", days=2, max_day_bytes=400, clock=lambda: now[0])
    said = dict(table=None, name="ann", role="player", seat=None, address="192.0.2.1", session="s-1")
    log.write(**said, text="first day")
    now[0] += DAY
    log.write(**said, text="second day")
    assert sorted(path.name for path in (tmp_path / "chat").iterdir()) == ["chat-2026-12-01.jsonl",
                                                                           "chat-2026-12-02.jsonl"]
    now[0] += DAY
    log.write(**said, text="third day: the first day's file goes (2 days kept)")
    assert sorted(path.name for path in (tmp_path / "chat").iterdir()) == ["chat-2026-12-02.jsonl",
                                                                           "chat-2026-12-03.jsonl"]
    for number in range(5):  # (each line ~150 bytes: the third does not fit in 400)
        log.write(**said, text=f"line {number}")
    third = [json.loads(line) for line in (tmp_path / "chat" / "chat-2026-12-03.jsonl").read_text().splitlines()]
    assert [line.get("text", line.get("event")) for line in third] == [
        "third day: the first day's file goes (2 days kept)", "line 0", "chat_log_full"]
    assert len([r for r in caplog.records if r.getMessage() == "chat_log_full"]) == 1, "warned once"
    now[0] += DAY
    log.write(**said, text="a new day, a new file")
    assert (tmp_path / "chat" / "chat-2026-12-04.jsonl").read_text().count("\n") == 1
    assert not (tmp_path / "chat" / "chat-2026-12-02.jsonl").exists()
    log.close()
    # a failure to write is logged once, and the chat goes on; then written again
    blocked = ChatLog(tmp_path / "file", days=2, max_day_bytes=400, clock=lambda: now[0])
    (tmp_path / "file").write_text("not a directory")
    blocked.write(**said, text="lost")
    blocked.write(**said, text="lost too")
    assert len([r for r in caplog.records if r.getMessage() == "chat_log_failed"]) == 1
    (tmp_path / "file").unlink()
    blocked.write(**said, text="back")
    assert [r.getMessage() for r in caplog.records][-1] == "chat_log_written_again"
    blocked.close()


def test_the_chat_log_settings_are_checked():
    assert config_from_mapping({"chat_log": True, "chat_log_days": 7, "chat_log_max_day_mb": 1}).chat_log_days == 7
    for bad in ({"chat_log": 1}, {"chat_log_days": 0}, {"chat_log_days": 3651}, {"chat_log_max_day_mb": 0},
                {"chat_log_days": "30"}):
        with pytest.raises(ValueError):
            config_from_mapping(bad)


def test_one_address_cannot_fill_a_days_chat_log_and_blind_it_for_the_others(tmp_path, caplog):
    """Review rv31: a connection may chat 1 line a second, and a line of 500 wide characters is some 2.2 KB, so one
    address's 64 connections filled the default 64 MB day in minutes, after which nothing anyone said that day was
    written (a flood, then abuse the log never saw). One address (as the limits count it: an IPv4 address, an IPv6
    /64) takes at most 1/ADDRESS_SHARE of the day's file: its further lines that day are not written (one
    `chat_log_address_full` line, one warning), the others' are; the next day it starts afresh. The admin's
    announcements (no address) are not counted."""
    from dungeon_twister.server.chatlog import ADDRESS_SHARE, MIN_ADDRESS_BYTES

    share = MIN_ADDRESS_BYTES

    caplog.set_level(logging.INFO, logger="dungeon_twister.server")
    now = [time.mktime((2026, 12, 1, 12, 0, 0, 0, 0, 0)) - time.timezone]
    log = ChatLog(tmp_path / "chat", days=2, max_day_bytes=ADDRESS_SHARE * share, clock=lambda: now[0])
    flood = dict(table=None, name="rude", role="player", seat=None, session="s-1")
    for number in range(ADDRESS_SHARE * share // 150):  # (each line ~160 bytes: the whole day, were it let)
        log.write(**flood, address=f"2001:db8:0:1::{number % 64 + 1:x}", text=f"flood {number}")
    log.write(table="t1-00000000", name="ann", role="player", seat="B", address="192.0.2.7", session="s-2",
              text="the flood is over")
    log.write(**flood, address="2001:db8:0:1::99", text="unlogged abuse")
    log.write(table=None, name="dt-server", role="admin", seat=None, address=None, session=None, text="behave")
    path = tmp_path / "chat" / "chat-2026-12-01.jsonl"
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    flooded = [line for line in lines if line.get("name") == "rude"]
    assert 0 < sum(len(json.dumps(line)) for line in flooded) <= share
    assert [line["text"] for line in lines if line.get("name") in ("ann", "dt-server")] == [
        "the flood is over", "behave"]
    assert [line for line in lines if "event" in line] == [
        {"ts": lines[len(flooded)]["ts"], "event": "chat_log_address_full", "address": "2001:db8:0:1::/64",
         "max_address_bytes": share}]
    assert len([r for r in caplog.records if r.getMessage() == "chat_log_address_full"]) == 1
    assert path.stat().st_size < ADDRESS_SHARE * share / 2
    now[0] += DAY
    log.write(**flood, address="2001:db8:0:1::1", text="a new day")
    assert "a new day" in (tmp_path / "chat" / "chat-2026-12-02.jsonl").read_text()
    log.close()
