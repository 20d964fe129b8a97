"""Wall-clock time for the Discord layer that never leaps forward.

Deadlines are stored as wall-clock (unix) times: Discord shows them to players as
``<t:…:R>`` and they must survive a restart. But a wall clock can jump (an NTP step, a VM
resumed after a pause): a leap forward would end every lobby and every timed phase at once,
before players had the time the table showed them. ``now()`` follows the wall clock, but runs
at most 1% faster than the monotonic clock, so a leap is caught up slowly instead of at once.
A step backward is followed (timers then fire late, never early).

Both sources come through discord.utils and time.monotonic, which the simulated Discord used
by the tests (simcord) controls.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import discord

SLEW = 0.01  # how much faster than real time the clock may run while catching up a leap
JITTER = 0.05  # seconds of wall-clock lead accepted at once (small NTP adjustments)


class SteadyClock:
    def __init__(
        self,
        wall: Callable[[], float] | None = None,
        mono: Callable[[], float] | None = None,
    ) -> None:
        self._wall = wall or (lambda: discord.utils.utcnow().timestamp())
        self._mono = mono or (lambda: time.monotonic())
        self._last: tuple[float, float] | None = None  # (steady, monotonic) at the last call

    def __call__(self) -> float:
        wall, mono = self._wall(), self._mono()
        steady = wall
        if self._last is not None:
            last_steady, last_mono = self._last
            elapsed = max(0.0, mono - last_mono)
            paced = last_steady + elapsed * (1 + SLEW)
            # The jitter only decides whether the wall clock is followed at once: added to
            # the paced time, it would run the clock ahead by that much at every read.
            steady = wall if wall <= paced + JITTER else paced
        self._last = (steady, mono)
        return steady

    def shown(self, moment: float) -> float:
        """A steady ``moment`` (a deadline) as a unix time for Discord's ``<t:…>``, which each
        client counts against its own, true, clock. While a leap is being caught up the steady
        clock lags the wall clock: the moment is then shown as the wall clock will read it
        when it comes (a little early, never late, since the steady clock runs faster)."""
        steady, wall = self(), self._wall()
        if wall - steady <= JITTER:
            return moment
        return wall + (moment - steady) / (1 + SLEW)


now = SteadyClock()
