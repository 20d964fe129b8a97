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


def test_reads_after_a_leap_do_not_run_the_clock_ahead() -> None:
    """Before, each read added the jitter allowance again: 1,000 reads in one real second
    after a leap ran the clock 51 s ahead, and turns timed out early on a busy bot."""
    c = Clocks()
    clock = SteadyClock(lambda: c.wall, lambda: c.mono)
    start = clock()
    c.wall += 3600
    c.advance(1.0)
    for _ in range(1000):
        last = clock()
    assert last <= start + 1.0 * 1.01 + 0.05 + 1e-6, last - start


def test_a_deadline_is_shown_no_later_than_it_comes_on_the_wall_clock() -> None:
    """After a leap the steady clock lags the wall clock that Discord's clients count
    against: a deadline is shown as the wall clock will read it, never after it fires."""
    c = Clocks()
    clock = SteadyClock(lambda: c.wall, lambda: c.mono)
    assert clock.shown(clock() + 30) == c.wall + 30  # no leap: shown as it is
    c.wall += 3600
    deadline = clock() + 30
    shown = clock.shown(deadline)
    assert c.wall + 29 < shown <= c.wall + 30
    while clock() < deadline:  # it fires when the steady clock reaches it
        c.advance(0.1)
    assert shown <= c.wall < shown + 1
