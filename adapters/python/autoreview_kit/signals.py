"""Abort signals on asyncio: the caller's signal of a call and an integration's lifecycle
(spec chapter 7).

An :class:`AbortSignal` says once that something was aborted, and why. Code that waits can
``await signal.wait()``, register a callback (run at once, as the abort happens), or turn the
abort into asyncio cancellation of the current task with ``async with signal.cancel_scope():``,
which then raises :class:`Aborted` (the way ``asyncio.timeout`` turns a deadline into
``TimeoutError``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

__all__ = ["AbortController", "AbortSignal", "Aborted"]


class Aborted(Exception):
    """Raised by :meth:`AbortSignal.cancel_scope` when the signal aborted the work inside it."""

    def __init__(self, reason: Any) -> None:
        super().__init__(str(reason))
        self.reason = reason


class AbortSignal:
    """Aborted at most once, with a reason; callbacks run synchronously when it aborts."""

    def __init__(self) -> None:
        self._aborted = False
        self._reason: Any = None
        self._callbacks: list[Callable[[Any], None]] = []

    @property
    def aborted(self) -> bool:
        return self._aborted

    @property
    def reason(self) -> Any:
        """Why it aborted (for the signals of the kit, a string); None while it has not."""
        return self._reason

    def add_callback(self, fn: Callable[[Any], None]) -> Callable[[], None]:
        """Call ``fn(reason)`` when the signal aborts (at once if it has). Returns a remover."""
        if self._aborted:
            fn(self._reason)
            return lambda: None
        self._callbacks.append(fn)

        def remove() -> None:
            if fn in self._callbacks:
                self._callbacks.remove(fn)

        return remove

    async def wait(self) -> Any:
        """Wait until the signal aborts; returns the reason."""
        if not self._aborted:
            future: asyncio.Future[None] = asyncio.get_running_loop().create_future()

            def wake(_reason: Any) -> None:
                if not future.done():
                    future.set_result(None)

            remove = self.add_callback(wake)
            try:
                await future
            finally:
                remove()
        return self._reason

    def cancel_scope(self) -> "_CancelScope":
        """``async with signal.cancel_scope():`` cancels the current task if the signal aborts
        while the block runs, and raises :class:`Aborted` from the block."""
        return _CancelScope(self)

    def _abort(self, reason: Any) -> None:
        if self._aborted:
            return
        self._aborted = True
        self._reason = reason
        callbacks, self._callbacks = self._callbacks, []
        for fn in callbacks:
            fn(reason)

    @staticmethod
    def any(*signals: "AbortSignal") -> "AbortSignal":
        """A signal that aborts as soon as one of ``signals`` does, with its reason."""
        combined = AbortSignal()
        for signal in signals:
            signal.add_callback(combined._abort)
        return combined


class AbortController:
    """Owns a signal and aborts it: ``controller.abort("why")``."""

    def __init__(self) -> None:
        self.signal = AbortSignal()

    def abort(self, reason: Any = "aborted") -> None:
        self.signal._abort(reason)


class _CancelScope:
    def __init__(self, signal: AbortSignal) -> None:
        self._signal = signal
        self._task: asyncio.Task[Any] | None = None
        self._fired = False
        self._remove: Callable[[], None] = lambda: None

    async def __aenter__(self) -> "_CancelScope":
        if self._signal.aborted:
            raise Aborted(self._signal.reason)
        self._task = asyncio.current_task()
        self._remove = self._signal.add_callback(self._fire)
        return self

    def _fire(self, _reason: Any) -> None:
        self._fired = True
        assert self._task is not None
        self._task.cancel()

    async def __aexit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        self._remove()
        if self._fired and exc_type is asyncio.CancelledError:
            assert self._task is not None
            if self._task.uncancel() == 0:
                raise Aborted(self._signal.reason) from None
