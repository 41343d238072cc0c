"""The table's event log holds packed events per viewer class and form, bounded per form by a count and bytes
(server/eventlog.py): what a game holds does not grow with its length."""

from dungeon_twister.protocol.wire_types import Packed
from dungeon_twister.server.eventlog import EventLog


def test_each_form_keeps_its_budget_and_a_replay_needs_every_entry_to_hold_it():
    log = EventLog(keep=10, budget=100)
    small, big = Packed(b"\x80" * 10), Packed(b"\x80" * 60)
    for _ in range(30):
        log.append({("B", "delta"): small, ("B", "full"): big})
    assert log.n == 30
    held = [entry for entry in log.since(20) or []]
    assert [entry.n for entry in held] == list(range(21, 31))  # the deltas: 10 entries (the count)
    assert sum(("B", "full") in entry.forms for entry in held) == 1  # whole views: the newest fits the bytes
    assert all(("B", "delta") in entry.forms for entry in held)
    assert log.since(19) is None  # older than anything kept: a snapshot
    assert log.since(31) is None and log.since(30) == []
    assert log.bytes == 10 * 10 + 60


def test_an_event_bigger_than_the_budget_is_kept_alone():
    log = EventLog(keep=10, budget=100)
    log.append({(None, "full"): Packed(b"\x80" * 50)})
    log.append({(None, "full"): Packed(b"\x80" * 500)})
    assert [entry.n for entry in log.since(1)] == [2]
    assert log.since(0) is None
