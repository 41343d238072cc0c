"""A table's bounded inbox: what `trio.open_memory_channel` gives one receiver, in a few hundred bytes.

A server holds one table per game in play, each with its inbox, waited on by the table's task for as long as its
players think. Trio's memory channel (a pair of channel objects, their state, a deque whose first block is 600
bytes, two OrderedDicts of waiting tasks, two sets, and the receiving coroutine with its frame) took ~2.5 KB of
each game in play's ~100 (issue 7, row 5); this is a list, one waiting receiver and, only while some wait for
room, a list of waiting senders.

Its calls behave as the memory channel's do for the table's one task (the receiver) and any number of senders:
`send_nowait` raises trio.WouldBlock when the inbox is full and trio.BrokenResourceError once it is closed; `send`
waits for room (a checkpoint either way); `receive` is a checkpoint and waits for an item; `receive_nowait`
raises trio.WouldBlock when empty; closing (`async with`) drops what is queued and breaks the waiting senders; a
closed inbox's receive raises trio.ClosedResourceError. Items are received in the order they were sent, a waiting
sender's once there is room (before the senders that came after it).
"""

from __future__ import annotations

import outcome
import trio

_EMPTY = object()


class Inbox:
    __slots__ = ("_items", "_size", "_receiver", "_senders", "_closed")

    def __init__(self, size: int) -> None:
        self._items: list = []
        self._size = size
        self._receiver: trio.lowlevel.Task | None = None
        """The task waiting in `receive`, if any."""
        self._senders: list | None = None
        """[task, item] of each sender waiting for room, oldest first (None: none ever waited)."""
        self._closed = False

    def send_nowait(self, item) -> None:
        if self._closed:
            raise trio.BrokenResourceError
        receiver = self._receiver
        if receiver is not None:  # it waits on an empty inbox: the item goes straight to it
            self._receiver = None
            trio.lowlevel.reschedule(receiver, outcome.Value(item))
        elif len(self._items) < self._size:
            self._items.append(item)
        else:
            raise trio.WouldBlock

    async def send(self, item) -> None:
        await trio.lowlevel.checkpoint_if_cancelled()
        try:
            self.send_nowait(item)
        except trio.WouldBlock:
            pass
        else:
            await trio.lowlevel.cancel_shielded_checkpoint()
            return
        waiting = [trio.lowlevel.current_task(), item]
        if self._senders is None:
            self._senders = []
        self._senders.append(waiting)

        def abort(_):
            self._senders.remove(waiting)
            return trio.lowlevel.Abort.SUCCEEDED

        await trio.lowlevel.wait_task_rescheduled(abort)

    def _take(self):
        """The next item, or _EMPTY. No exception for an empty inbox: one caught in `receive` would give the
        coroutine a frame object and a traceback, kept while the table waits."""
        if self._closed:
            raise trio.ClosedResourceError
        if self._senders:  # the inbox is full: the oldest waiting sender's item takes the room made
            task, item = self._senders.pop(0)
            trio.lowlevel.reschedule(task)
            self._items.append(item)
        if self._items:
            return self._items.pop(0)
        return _EMPTY

    def receive_nowait(self):
        item = self._take()
        if item is _EMPTY:
            raise trio.WouldBlock
        return item

    async def receive(self):
        await trio.lowlevel.checkpoint_if_cancelled()
        item = self._take()
        if item is not _EMPTY:
            await trio.lowlevel.cancel_shielded_checkpoint()
            return item
        self._receiver = trio.lowlevel.current_task()
        return await trio.lowlevel.wait_task_rescheduled(self._abort_receive)

    def _abort_receive(self, _) -> trio.lowlevel.Abort:
        self._receiver = None
        return trio.lowlevel.Abort.SUCCEEDED

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        receiver, self._receiver = self._receiver, None
        if receiver is not None:
            trio.lowlevel.reschedule(receiver, outcome.Error(trio.ClosedResourceError()))
        senders, self._senders = self._senders or [], None
        for task, _ in senders:
            trio.lowlevel.reschedule(task, outcome.Error(trio.BrokenResourceError()))
        self._items.clear()

    async def __aenter__(self) -> Inbox:
        return self

    async def __aexit__(self, *exc) -> None:
        self.close()
        await trio.lowlevel.checkpoint()
