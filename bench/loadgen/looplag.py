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
from collections.abc import Iterable


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
