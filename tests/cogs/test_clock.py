"""The steady clock: follows the wall clock, never leaps forward with it."""

from __future__ import annotations

from cogs.clock import SteadyClock


class Clocks:
    def __init__(self) -> None:
        self.wall = 1_000_000.0
        self.mono = 50.0

    def advance(self, seconds: float) -> None:
        self.wall += seconds
        self.mono += seconds


def test_follows_the_wall_clock_as_time_passes() -> None:
    c = Clocks()
    clock = SteadyClock(lambda: c.wall, lambda: c.mono)
    assert clock() == c.wall
    c.advance(90)
    assert clock() == c.wall


def test_a_leap_forward_is_not_followed_at_once() -> None:
    c = Clocks()
    clock = SteadyClock(lambda: c.wall, lambda: c.mono)
    start = clock()
    c.wall += 3600  # NTP step / VM resume: an hour in no time
    c.advance(1)
    assert clock() < start + 2  # a 90 s deadline set before the leap has not come
    # It catches up slowly (1% faster than real time), never firing the whole hour at once.
    for _ in range(100):
        c.advance(60)
        clock()
    assert start + 6000 < clock() < c.wall


def test_a_step_backward_is_followed() -> None:
    c = Clocks()
    clock = SteadyClock(lambda: c.wall, lambda: c.mono)
    clock()
    c.wall -= 30
    assert clock() == c.wall
