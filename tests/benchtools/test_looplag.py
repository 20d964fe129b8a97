"""bench/loadgen/looplag.py: how late the benchmark's event loop ran a periodic timer."""

from __future__ import annotations

import asyncio
import time

from bench.loadgen.looplag import LoopLag, LoopProfile


async def test_a_blocked_loop_shows_as_one_late_sample_and_in_the_flights_around_it() -> None:
    lag = LoopLag(interval=0.002)
    lag.start()
    await asyncio.sleep(0.05)
    quiet = lag.mark()
    blocked_at = time.monotonic()
    time.sleep(0.03)  # the loop is blocked: the timer due meanwhile runs about 30 ms late
    await asyncio.sleep(0.05)
    end = lag.mark()
    lag.stop()

    window = lag.window(quiet, end)
    assert 0.02 < max(window) < 0.2
    assert sorted(window)[-2] < 0.02  # one sample per blocked stretch, not one per tick missed
    assert max(lag.window(0, quiet)) < 0.02
    # Only the samples due while a click was in flight: one around the block, one well before.
    assert max(lag.in_flight([(blocked_at - 0.001, blocked_at + 0.03)])) > 0.02
    assert all(v < 0.02 for v in lag.in_flight([(blocked_at - 0.04, blocked_at - 0.01)]))
    assert lag.in_flight([(blocked_at + 10, blocked_at + 11)]) == []


async def test_stopped_it_takes_no_more_samples() -> None:
    lag = LoopLag(interval=0.001)
    lag.start()
    await asyncio.sleep(0.02)
    lag.stop()
    taken = lag.mark()
    await asyncio.sleep(0.02)
    assert taken > 3 and lag.mark() == taken


async def test_the_profile_times_each_callback_by_who_ran_it_and_then_lets_go() -> None:
    original = asyncio.events.Handle._run
    profile = LoopProfile()
    profile.start()

    async def blocker() -> None:
        time.sleep(0.01)

    began = time.monotonic()
    await asyncio.create_task(blocker())
    await asyncio.sleep(0.01)
    profile.stop()

    assert asyncio.events.Handle._run is original
    found = profile.in_flight([(began, time.monotonic())])
    assert max(found["other"]) >= 0.009  # a task of this file: neither driver nor fake
    assert profile.in_flight([(began - 10, began - 5)]) == {}
