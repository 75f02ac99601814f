"""Virtual time: a clock of whole milliseconds and an asyncio event loop that runs on it.

Nothing in a check waits for real time. The loop runs every ready callback; when none is left it
fires the clock's earliest timer (jumping to its time), and when no timer is pending either,
nothing can ever happen again: the work it was driving never settles (``settled: false``), which
is reported at once. Timers due at the same instant fire in the order (priority, creation): the
scripted world's own events (priority 0, a reviewer's response) come before a gate's timers
(priority 1), so a request that settles exactly at a deadline settled in time (AR-RES-RETRY-4).

A gate takes its timers from the clock: ``await clock.sleep(ms)``, ``clock.call_later(ms, fn)``
or ``async with clock.timeout(ms):``. asyncio's own timers (``asyncio.sleep``) run on the same
virtual time too, but without that ordering at ties.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import math
import selectors
from collections.abc import Callable
from typing import Any

__all__ = ["Stalled", "Timer", "VirtualClock", "VirtualTimeLoop"]

#: Priority of the scripted world's events, which come first at a tie.
WORLD = 0
#: Priority of a gate's timers.
GATE = 1


class Timer:
    """A pending timer; ``cancel()`` it to drop it."""

    __slots__ = ("at", "cancelled", "fn", "priority", "seq")

    def __init__(self, at: int, priority: int, seq: int, fn: Callable[[], Any]) -> None:
        self.at, self.priority, self.seq, self.fn = at, priority, seq, fn
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True

    def __lt__(self, other: "Timer") -> bool:
        return (self.at, self.priority, self.seq) < (other.at, other.priority, other.seq)


class VirtualClock:
    """Milliseconds since the scenario started, and the timers pending on them."""

    def __init__(self) -> None:
        self._now = 0
        self._seq = itertools.count()
        self._timers: list[Timer] = []

    def now(self) -> int:
        return self._now

    def call_later(self, ms: int, fn: Callable[[], Any], *, priority: int = GATE) -> Timer:
        """Call ``fn()`` after ``ms`` milliseconds (at least 0)."""
        timer = Timer(self._now + max(0, int(ms)), priority, next(self._seq), fn)
        heapq.heappush(self._timers, timer)
        return timer

    async def sleep(self, ms: int, *, priority: int = GATE) -> None:
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()

        def wake() -> None:
            if not future.done():
                future.set_result(None)

        timer = self.call_later(ms, wake, priority=priority)
        try:
            await future
        finally:
            timer.cancel()

    def timeout(self, ms: int) -> "_Timeout":
        """``async with clock.timeout(ms):`` cancels the block after ``ms`` and raises
        ``TimeoutError``, like ``asyncio.timeout`` on virtual time."""
        return _Timeout(self, ms)

    def next_at(self) -> int | None:
        """When the earliest pending timer is due; None when none is pending."""
        while self._timers and self._timers[0].cancelled:
            heapq.heappop(self._timers)
        return self._timers[0].at if self._timers else None

    def fire_next(self) -> bool:
        """Fire the earliest pending timer, moving time to it; False when none is pending."""
        if self.next_at() is None:
            return False
        timer = heapq.heappop(self._timers)
        self._now = timer.at
        timer.fn()
        return True

    def advance_to(self, ms: int) -> None:
        self._now = max(self._now, ms)


class _Timeout:
    def __init__(self, clock: VirtualClock, ms: int) -> None:
        self._clock, self._ms = clock, ms
        self._task: asyncio.Task[Any] | None = None
        self._timer: Timer | None = None
        self.expired = False

    async def __aenter__(self) -> "_Timeout":
        self._task = asyncio.current_task()
        self._timer = self._clock.call_later(self._ms, self._expire)
        return self

    def _expire(self) -> None:
        self.expired = True
        assert self._task is not None
        self._task.cancel()

    async def __aexit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        assert self._timer is not None and self._task is not None
        self._timer.cancel()
        if self.expired and exc_type is asyncio.CancelledError and self._task.uncancel() == 0:
            raise TimeoutError(f"the deadline of {self._ms} ms passed") from None


class Stalled(Exception):
    """The awaited work can never complete: nothing is ready and no timer is pending."""


class _IdleSelector(selectors.SelectSelector):
    """A selector that never waits: when the loop has nothing ready, it moves virtual time."""

    def __init__(self) -> None:
        super().__init__()
        self.on_idle: Callable[[float | None], None] = lambda timeout: None

    def select(self, timeout: float | None = None) -> list[Any]:
        if timeout is None or timeout > 0:
            self.on_idle(timeout)
        return []


class VirtualTimeLoop(asyncio.SelectorEventLoop):
    """An event loop on a :class:`VirtualClock`. ``drive(awaitable)`` runs it until the awaitable
    completes, or until nothing can happen any more."""

    #: A guard against a gate that sets timers forever.
    MAX_TIMERS = 100_000

    def __init__(self, clock: VirtualClock | None = None) -> None:
        selector = _IdleSelector()
        super().__init__(selector)
        self.clock = clock or VirtualClock()
        selector.on_idle = self._idle
        self._fired = 0
        self._stalled = False

    def time(self) -> float:
        return self.clock.now() / 1000

    def _idle(self, timeout: float | None) -> None:
        due = self.clock.next_at()
        if timeout is not None:
            # asyncio's own timer (asyncio.sleep): on virtual time, after the clock's timers.
            asyncio_due = math.ceil(self.clock.now() + timeout * 1000)
            if due is None or asyncio_due < due:
                self.clock.advance_to(asyncio_due)
                return
        self._fired += 1
        if self._fired > self.MAX_TIMERS or not self.clock.fire_next():
            self._stalled = True
            self.stop()

    def drive(self, awaitable: Any) -> Any:
        """Run ``awaitable`` to completion on virtual time and return its result (or raise its
        exception). Raises :class:`Stalled` when it can never complete; it is left pending."""
        task = asyncio.ensure_future(awaitable, loop=self)
        if not task.done():
            task.add_done_callback(lambda _: self.stop())
            self._fired = 0
            self._stalled = False
            self.run_forever()
        if not task.done():
            if self._fired > self.MAX_TIMERS:
                raise RuntimeError(f"still running after {self.MAX_TIMERS} virtual timers")
            raise Stalled()
        return task.result()

    def shutdown(self) -> None:
        """Cancel what is still pending, let it unwind, and close the loop."""
        pending = [t for t in asyncio.all_tasks(self) if not t.done()]
        for t in pending:
            t.cancel()
        if pending:
            try:
                self.drive(asyncio.gather(*pending, return_exceptions=True))
            except (Stalled, RuntimeError):
                pass
        self.close()
