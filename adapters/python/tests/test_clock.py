"""The virtual clock and the loop on it: timers fire by time, then priority, then creation; work
that can never complete is reported at once; deadlines are cancellation, as asyncio.timeout."""

import asyncio
import unittest

import kit_path  # noqa: F401

from autoreview_kit.clock import GATE, WORLD, Stalled, VirtualClock, VirtualTimeLoop
from autoreview_kit.signals import AbortController, Aborted, AbortSignal


class Clock(unittest.TestCase):
    def test_timers_fire_by_time_then_priority_then_creation(self):
        clock, fired = VirtualClock(), []
        clock.call_later(5, lambda: fired.append("gate at 5"), priority=GATE)
        clock.call_later(5, lambda: fired.append("world at 5"), priority=WORLD)
        clock.call_later(1, lambda: fired.append("at 1"))
        clock.call_later(5, lambda: fired.append("second world at 5"), priority=WORLD)
        while clock.fire_next():
            fired.append(clock.now())
        self.assertEqual(fired, ["at 1", 1, "world at 5", 5, "second world at 5", 5, "gate at 5", 5])

    def test_a_cancelled_timer_never_fires_and_nothing_pending_says_so(self):
        clock, fired = VirtualClock(), []
        clock.call_later(3, lambda: fired.append(3)).cancel()
        self.assertFalse(clock.fire_next())
        self.assertEqual((fired, clock.now()), ([], 0))


class Loop(unittest.TestCase):
    def setUp(self):
        self.loop = VirtualTimeLoop()

    def tearDown(self):
        self.loop.shutdown()

    def test_sleeping_takes_no_real_time_and_ends_at_the_virtual_instant(self):
        async def work():
            await self.loop.clock.sleep(60_000)
            await self.loop.clock.sleep(30_000)
            return self.loop.clock.now()

        self.assertEqual(self.loop.drive(work()), 90_000)

    def test_work_waiting_on_nothing_is_stalled_at_once(self):
        async def forever():
            await asyncio.get_running_loop().create_future()

        with self.assertRaises(Stalled):
            self.loop.drive(forever())

    def test_a_deadline_cancels_the_block_and_raises_timeout(self):
        async def work():
            try:
                async with self.loop.clock.timeout(100):
                    await self.loop.clock.sleep(500)
            except TimeoutError:
                return ("timed out at", self.loop.clock.now())
            return "finished"

        self.assertEqual(self.loop.drive(work()), ("timed out at", 100))

    def test_a_world_event_at_the_deadline_instant_is_in_time(self):
        async def work():
            async with self.loop.clock.timeout(100):
                await self.loop.clock.sleep(100, priority=WORLD)
                return "in time"

        self.assertEqual(self.loop.drive(work()), "in time")

    def test_asyncio_sleep_runs_on_virtual_time_too(self):
        async def work():
            await asyncio.sleep(2.5)
            return self.loop.clock.now()

        self.assertEqual(self.loop.drive(work()), 2500)


class Signals(unittest.TestCase):
    def test_any_aborts_with_the_first_reason_and_callbacks_run_at_once(self):
        first, second = AbortController(), AbortController()
        seen = []
        combined = AbortSignal.any(first.signal, second.signal)
        combined.add_callback(seen.append)
        second.abort("second")
        first.abort("first")
        self.assertEqual((combined.aborted, combined.reason, seen), (True, "second", ["second"]))

    def test_a_cancel_scope_turns_an_abort_into_aborted(self):
        loop = VirtualTimeLoop()
        controller = AbortController()
        loop.clock.call_later(10, lambda: controller.abort("disposed"))

        async def work():
            try:
                async with controller.signal.cancel_scope():
                    await loop.clock.sleep(1_000)
            except Aborted as aborted:
                return aborted.reason, loop.clock.now()

        try:
            self.assertEqual(loop.drive(work()), ("disposed", 10))
        finally:
            loop.shutdown()


if __name__ == "__main__":
    unittest.main()
