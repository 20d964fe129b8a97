"""How long the benchmark's event loop is blocked: the fake Discord stamps each answer on that
loop, so whatever else runs on it (the driver preparing clicks, the fake serving the bot's
edits) delays the stamp of an answer that arrives meanwhile.

A timer callback due every `interval` seconds records how late it ran: the wait a callback
that became ready at that moment (the fake reading a bot's answer) had before the loop got
to it. Windows of samples are taken by index (`mark`), like the fake's request log; `in_flight`
keeps the samples due while a click awaited its answer (the delays that can reach a stamp).
"""

from __future__ import annotations

import asyncio
import bisect
import time
from collections.abc import Iterable
from typing import Any


class LoopLag:
    def __init__(self, interval: float = 0.002) -> None:
        self.interval = interval
        self.samples: list[float] = []  # seconds late, one per tick, in order
        self.due: list[float] = []  # when each tick was due (loop time: time.monotonic())
        self._handle: asyncio.TimerHandle | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._schedule(self._loop.time() + self.interval)

    def stop(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None

    def mark(self) -> int:
        return len(self.samples)

    def window(self, start: int, end: int) -> list[float]:
        return self.samples[start:end]

    def in_flight(self, flights: Iterable[tuple[float, float]]) -> list[float]:
        """The samples due within any of `flights` ((dispatched, answered) monotonic times)."""
        out: list[float] = []
        for sent, answered in flights:
            low = bisect.bisect_left(self.due, sent)
            high = bisect.bisect_right(self.due, answered)
            out += self.samples[low:high]
        return out

    def _schedule(self, due: float) -> None:
        assert self._loop is not None
        self._handle = self._loop.call_at(due, self._tick, due)

    def _tick(self, due: float) -> None:
        assert self._loop is not None
        now = self._loop.time()
        self.samples.append(max(0.0, now - due))
        self.due.append(due)
        self._schedule(now + self.interval)


class LoopProfile:
    """What runs on the event loop, by whom (`--loop-profile`): every callback the loop runs
    is timed (asyncio's Handle._run wrapped, for as long as it is started) and the ones over
    `floor` seconds are kept as (start, duration, who). `who` is where the callback's code
    lives: the click driver (bench/loadgen/driver.py), the fake Discord (tests/fakediscord, or
    aiohttp serving it: the bots' REST calls and gateway frames), the rest of the harness."""

    def __init__(self, floor: float = 0.00005) -> None:
        self.floor = floor
        self.runs: list[tuple[float, float, str]] = []
        self._original: Any = None

    def start(self) -> None:
        if self._original is not None:
            return
        original = asyncio.events.Handle._run
        profile = self

        def timed(handle: asyncio.events.Handle) -> None:
            who = _who(handle)
            began = time.monotonic()
            original(handle)
            took = time.monotonic() - began
            if took >= profile.floor:
                profile.runs.append((began, took, who))

        self._original = original
        asyncio.events.Handle._run = timed  # type: ignore[method-assign,assignment]

    def stop(self) -> None:
        if self._original is not None:
            asyncio.events.Handle._run = self._original  # type: ignore[method-assign]
            self._original = None

    def in_flight(self, flights: Iterable[tuple[float, float]]) -> dict[str, list[float]]:
        """The callbacks that began while a click awaited its answer, by who ran them: their
        durations (seconds)."""
        starts = [r[0] for r in self.runs]
        out: dict[str, list[float]] = {}
        for sent, answered in flights:
            low = bisect.bisect_left(starts, sent)
            high = bisect.bisect_right(starts, answered)
            for _, took, who in self.runs[low:high]:
                out.setdefault(who, []).append(took)
        return out


def _who(handle: asyncio.events.Handle) -> str:
    callback = handle._callback  # type: ignore[attr-defined]
    task = getattr(callback, "__self__", None)
    if isinstance(task, asyncio.Task):
        coro: Any = task.get_coro()
        files = []
        while coro is not None and hasattr(coro, "cr_code"):
            files.append(coro.cr_code.co_filename)
            coro = coro.cr_await
        return _place(files)
    code = getattr(getattr(callback, "__func__", callback), "__code__", None)
    return _place([code.co_filename] if code is not None else [repr(callback)])


def _place(files: list[str]) -> str:
    for name in reversed(files):  # the innermost code the task resumes in decides
        if "bench/loadgen/driver" in name:
            return "driver"
        if "fakediscord" in name:
            return "fake"
        if "bench/loadgen/looplag" in name:
            return "monitor"
        if "bench/" in name:
            return "harness"
    if any("aiohttp" in name or "selector_events" in name for name in files):
        return "fake"  # aiohttp and the sockets: the fake's HTTP server and gateway
    return "other"
