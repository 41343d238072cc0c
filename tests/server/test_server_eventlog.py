"""The table's event log holds packed events per viewer class and form, bounded per form by a count and bytes
(server/eventlog.py): what a game holds does not grow with its length."""

from dungeon_twister.protocol.wire_types import Packed
from dungeon_twister.server.eventlog import EventLog


def test_each_form_keeps_its_budget_and_a_replay_needs_every_event_in_that_form():
    log = EventLog(keep=10, budget=100)
    small, big = Packed(b"\x80" * 10), Packed(b"\x80" * 60)
    for _ in range(30):
        assert log.append({("B", "delta"): small, ("B", "full"): big}) == log.n
    assert log.n == 30
    deltas = log.since(20, ("B", "delta"))
    assert [n for n, _ in deltas] == list(range(21, 31))  # the deltas: 10 events (the count)
    assert all(packed == small and packed.data is small.data for _, packed in deltas)  # its bytes, not copied
    assert log.since(19, ("B", "delta")) is None  # older than anything kept: a snapshot
    assert [n for n, _ in log.since(29, ("B", "full"))] == [30]  # whole views: the newest fits the bytes
    assert log.since(28, ("B", "full")) is None
    assert log.since(31, ("B", "delta")) is None and log.since(30, ("B", "delta")) == []
    assert log.since(20, ("Y", "delta")) is None  # a form never rendered
    assert log.bytes == 10 * 10 + 60


def test_an_event_bigger_than_the_budget_is_kept_alone():
    log = EventLog(keep=10, budget=100)
    log.append({(None, "full"): Packed(b"\x80" * 50)})
    log.append({(None, "full"): Packed(b"\x80" * 500)})
    assert [n for n, _ in log.since(1, (None, "full"))] == [2]
    assert log.since(0, (None, "full")) is None


def test_a_form_not_rendered_for_an_event_cannot_replay_across_it_and_lets_its_old_events_go():
    # a spectator's form is rendered only while a spectator is at the table: a spectator who left before event 3
    # and resumes from event 1 missed events that were never rendered for him, so he gets a snapshot
    log = EventLog(keep=4, budget=1000)
    view = Packed(b"\x80")
    log.append({("B", "delta"): view, (None, "delta"): view})
    log.append({("B", "delta"): view, (None, "delta"): view})
    log.append({("B", "delta"): view})
    assert log.since(1, (None, "delta")) is None  # event 3 was not rendered in that form
    assert [n for n, _ in log.since(1, ("B", "delta"))] == [2, 3]
    log.append({("B", "delta"): view, (None, "delta"): view})
    assert [n for n, _ in log.since(3, (None, "delta"))] == [4]  # from after the gap on, it replays again
    for _ in range(4):
        log.append({("B", "delta"): view})
    assert log.bytes == 4  # the form nobody renders now keeps none of its old events (keep=4)


def test_packed_events_replay_as_they_were_sent_within_the_same_bounds():
    """EventLog.pack compresses a form's events but the newest few (BLOCK at most): a replay gives the same bytes
    from any event kept on, across blocks and the raw tail, the bounds (count, bytes, a gap in a form) are the
    same as without packing, and the packed log is smaller than what it holds."""
    from dungeon_twister.server.eventlog import BLOCK

    def events(k):  # distinct, compressible events of sizes 20-59
        return Packed(bytes([0x80 + k % 16]) + b"view_delta tokens" * (1 + k % 3))

    plain, packed = EventLog(keep=40, budget=1500), EventLog(keep=40, budget=1500)
    for k in range(1, 120):
        forms = {("B", "delta"): events(k)}
        if k % 17 not in (5, 6):  # a spectator's form, not rendered for some events
            forms[(None, "delta")] = events(k + 1)
        assert plain.append(forms) == packed.append(forms) == k
        packed.pack()
        for form in (("B", "delta"), (None, "delta")):
            for last in range(k - 45, k + 1):
                got, want = packed.since(last, form), plain.since(last, form)
                assert (got is None) == (want is None), (k, form, last)
                if want is not None:
                    assert [(n, p.data) for n, p in got] == [(n, p.data) for n, p in want]
        assert packed.bytes == plain.bytes
    held = packed._forms[("B", "delta")]
    assert held.blocks and 0 < len(held.tail) <= BLOCK
    stored = sum(map(len, held.blocks)) + sum(map(len, held.tail))
    assert stored < held.total / 2  # what the form keeps, compressed, against its bytes as sent
