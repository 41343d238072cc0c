"""Running trio inside prompt_toolkit's asyncio loop: trio's guest mode.

prompt_toolkit 3 runs its Application on asyncio; the client's networking is trio. Rather than two threads, the
asyncio loop is the host and trio runs as its guest (`trio.lowlevel.start_guest_run`): trio's scheduler steps are
posted as asyncio callbacks, and only trio's I/O wait runs in a helper thread. Consequences the client relies on:

* trio tasks and prompt_toolkit handlers run on the same thread, never at the same time, so both may touch the
  UI state and the sans-IO Session without locks, and trio code may call `Application.invalidate()` directly;
* asyncio-side code is outside trio's run context: it reaches trio through `TrioToken.run_sync_soon`, which is
  safe from anywhere (network.py does this for outgoing frames);
* when the Application exits, the guest's root cancel scope is cancelled and the host waits for trio to finish.

This is the approach trio documents for asyncio hosts; it needs no patching of either library.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import trio

if TYPE_CHECKING:
    import outcome


class TrioGuest:
    """One trio run as the guest of the running asyncio loop."""

    def __init__(self) -> None:
        self._token: trio.lowlevel.TrioToken | None = None
        self._scope = trio.CancelScope()
        self._done: asyncio.Future[outcome.Outcome[Any]] | None = None

    def start(self, async_fn: Callable[..., Awaitable[Any]], *args: Any) -> None:
        """Start `async_fn(*args)` under trio; call from a coroutine running on the asyncio loop."""
        loop = asyncio.get_running_loop()
        self._done = loop.create_future()
        trio.lowlevel.start_guest_run(
            self._main, async_fn, args,
            run_sync_soon_threadsafe=loop.call_soon_threadsafe,
            run_sync_soon_not_threadsafe=loop.call_soon,
            done_callback=self._done.set_result,
            host_uses_signal_set_wakeup_fd=True,
        )

    async def _main(self, async_fn: Callable[..., Awaitable[Any]], args: tuple[Any, ...]) -> Any:
        self._token = trio.lowlevel.current_trio_token()
        with self._scope:
            return await async_fn(*args)

    def cancel(self) -> None:
        """Cancel the guest run (from either side, even before it started); a finished run is left alone."""
        if self._token is None:
            self._scope.cancel()  # not entered yet: this only marks it cancelled
            return
        try:
            self._token.run_sync_soon(self._scope.cancel)
        except trio.RunFinishedError:
            pass

    async def wait(self) -> Any:
        """The guest's result once it finished (None if it was cancelled); its exception is raised here."""
        assert self._done is not None, "start() first"
        return (await self._done).unwrap()

    @property
    def done(self) -> asyncio.Future[outcome.Outcome[Any]]:
        assert self._done is not None, "start() first"
        return self._done
