"""A table's inbox (server/inbox.py) behaves as trio's memory channel does for one receiver."""

from __future__ import annotations

import pytest
import trio
import trio.testing

from dungeon_twister.server.inbox import Inbox


async def test_items_come_in_order_and_a_full_inbox_refuses_without_waiting():
    inbox = Inbox(2)
    inbox.send_nowait(1)
    inbox.send_nowait(2)
    with pytest.raises(trio.WouldBlock):
        inbox.send_nowait(3)
    assert await inbox.receive() == 1
    assert inbox.receive_nowait() == 2
    with pytest.raises(trio.WouldBlock):
        inbox.receive_nowait()


async def test_a_waiting_receiver_gets_the_next_item():
    inbox = Inbox(1)
    got = []

    async def receiver():
        got.append(await inbox.receive())

    async with trio.open_nursery() as nursery:
        nursery.start_soon(receiver)
        await trio.testing.wait_all_tasks_blocked()
        inbox.send_nowait("a")
        inbox.send_nowait("b")  # the first went to the receiver: there is room for this one
    assert got == ["a"]
    assert inbox.receive_nowait() == "b"


async def test_senders_wait_for_room_in_order():
    inbox = Inbox(1)
    inbox.send_nowait(0)
    async with trio.open_nursery() as nursery:
        for n in (1, 2):
            nursery.start_soon(inbox.send, n)
            await trio.testing.wait_all_tasks_blocked()
        assert [await inbox.receive() for _ in range(3)] == [0, 1, 2]


async def test_cancelled_waits_leave_nothing_behind(autojump_clock):  # the waits end on the mock clock
    inbox = Inbox(1)
    with trio.move_on_after(0.01):
        await inbox.receive()
    inbox.send_nowait(1)
    with trio.move_on_after(0.01):
        await inbox.send(2)  # full: it waits, then gives up
    assert inbox.receive_nowait() == 1
    with pytest.raises(trio.WouldBlock):
        inbox.receive_nowait()


async def test_closing_drops_what_is_queued_and_breaks_the_senders():
    inbox = Inbox(1)
    inbox.send_nowait(1)
    broken = []

    async def sender():
        try:
            await inbox.send(2)
        except trio.BrokenResourceError:
            broken.append(True)

    async with trio.open_nursery() as nursery:
        nursery.start_soon(sender)
        await trio.testing.wait_all_tasks_blocked()
        async with inbox:
            pass
    assert broken == [True]
    with pytest.raises(trio.ClosedResourceError):
        inbox.receive_nowait()
    with pytest.raises(trio.BrokenResourceError):
        inbox.send_nowait(3)


async def test_closing_wakes_a_waiting_receiver():
    inbox = Inbox(1)
    closed = []

    async def receiver():
        try:
            await inbox.receive()
        except trio.ClosedResourceError:
            closed.append(True)

    async with trio.open_nursery() as nursery:
        nursery.start_soon(receiver)
        await trio.testing.wait_all_tasks_blocked()
        inbox.close()
    assert closed == [True]
