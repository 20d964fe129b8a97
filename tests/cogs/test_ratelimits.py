"""discord.py's rate-limit buckets: swept in amortised time, idle ones still dropped."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from discord.http import HTTPClient, Ratelimit

from bot import create_bot
from cogs import ratelimits
from cogs.ratelimits import (
    IDLE,
    MIN_BUCKETS,
    SWEEP_EVERY,
    AmortisedSweep,
    amortise_bucket_sweep,
    limit_requests,
)
from config import Settings


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


@pytest.fixture
async def http() -> HTTPClient:
    return HTTPClient(asyncio.get_running_loop())  # its buckets need a running loop


@pytest.fixture
def scans(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """How many times a bucket was looked at by a sweep."""
    counted = {"n": 0}
    original = Ratelimit.is_inactive

    def is_inactive(self: Ratelimit) -> bool:
        counted["n"] += 1
        return original(self)

    spent = ratelimits.spent

    def counted_spent(bucket: Any) -> bool:
        counted["n"] += 1
        return spent(bucket)

    monkeypatch.setattr(Ratelimit, "is_inactive", is_inactive)
    monkeypatch.setattr(ratelimits, "spent", counted_spent)
    return counted


def make_buckets(http: HTTPClient, prefix: str, n: int) -> None:
    for i in range(n):
        http.get_ratelimit(f"PATCH /channels/{{channel_id}}/messages/{{message_id}}:{prefix}{i}")


async def test_discord_py_alone_scans_every_bucket_for_each_new_one(
    http: HTTPClient, scans: dict[str, int]
) -> None:
    # The problem: a new channel's first request looks at every bucket (quadratic in all).
    make_buckets(http, "a", 2000)
    assert scans["n"] > 1_500_000


async def test_the_amortised_sweep_looks_at_each_bucket_a_constant_number_of_times(
    http: HTTPClient, scans: dict[str, int]
) -> None:
    assert amortise_bucket_sweep(http)
    make_buckets(http, "a", 2000)
    assert len(http._buckets) == 2000  # all active: none dropped
    assert scans["n"] < 4 * 2000


async def test_idle_buckets_are_dropped_once_the_count_doubles(http: HTTPClient) -> None:
    clock = Clock()
    sweep = AmortisedSweep(http, clock)
    http._try_clear_expired_ratelimits = sweep  # type: ignore[method-assign]
    make_buckets(http, "old", MIN_BUCKETS - 1)
    for bucket in http._buckets.values():
        bucket._last_request -= IDLE + 1
    make_buckets(http, "new", 2)  # reaching MIN_BUCKETS: swept
    assert len(http._buckets) == 2  # the old ones are gone, the new kept
    assert all(":new" in key for key in http._buckets)


async def test_idle_buckets_are_dropped_within_a_sweep_period_without_growth(
    http: HTTPClient,
) -> None:
    clock = Clock()
    sweep = AmortisedSweep(http, clock)
    http._try_clear_expired_ratelimits = sweep  # type: ignore[method-assign]
    make_buckets(http, "a", MIN_BUCKETS + 10)
    assert len(http._buckets) == MIN_BUCKETS + 10
    idle = list(http._buckets.values())[:100]
    for bucket in idle:
        bucket._last_request -= IDLE + 1
    make_buckets(http, "b", 1)  # not doubled, no sweep period yet: kept
    assert len(http._buckets) == MIN_BUCKETS + 11
    clock.t += SWEEP_EVERY + 1
    make_buckets(http, "c", 1)
    assert len(http._buckets) == MIN_BUCKETS + 12 - 100


async def test_a_bucket_is_kept_while_it_still_knows_something(http: HTTPClient) -> None:
    """Dropped only with nothing in flight or waiting, its window over, idle for IDLE s."""
    loop = asyncio.get_running_loop()
    make_buckets(http, "x", 6)
    idle, window, outgoing, waiting, sleeping, recent = http._buckets.values()
    for bucket in (idle, window, outgoing, waiting, sleeping):
        bucket._last_request -= IDLE + 1
    window.remaining, window.expires = 0, loop.time() + 3  # spent its limit: must wait
    outgoing.outgoing = 1
    waiting._pending_requests.append(loop.create_future())
    await sleeping._sleeping.acquire()
    recent._last_request -= IDLE - 1
    assert [ratelimits.spent(b) for b in http._buckets.values()] == [
        True,
        False,
        False,
        False,
        False,
        False,
    ]
    window.expires = loop.time() - 0.1  # its window over: nothing left to know
    assert ratelimits.spent(window)


def test_the_bot_installs_it() -> None:
    bot: Any = create_bot(Settings(token="test-token"))
    assert isinstance(bot.http._try_clear_expired_ratelimits, AmortisedSweep)


def test_a_discord_py_without_the_method_is_left_alone() -> None:
    class Other:
        def __init__(self) -> None:
            self._buckets: dict[str, Any] = {}

    assert not amortise_bucket_sweep(Other())


class Recorder:
    """Stands in for discord.py's HTTPClient: notes when each request went out."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, float]] = []

    async def request(self, route: str, **kwargs: Any) -> str:
        self.sent.append((route, asyncio.get_running_loop().time()))
        return f"done {route}"


async def test_requests_beyond_the_budget_wait_their_turn_in_order() -> None:
    http = Recorder()
    assert limit_requests(http, 40) is not None
    began = asyncio.get_running_loop().time()
    results = await asyncio.gather(*(http.request(f"r{i}", json={}) for i in range(50)))
    assert results == [f"done r{i}" for i in range(50)]  # arguments and results pass through
    assert [route for route, _ in http.sent] == [f"r{i}" for i in range(50)]  # first come first
    times = [at for _, at in http.sent]
    assert times[3] - began < 0.1  # a tenth of a second's worth goes at once
    # Never more than the budget within a second, so the 50 calls need over a second.
    assert max(sum(1 for t in times[i:] if t - at < 1.0) for i, at in enumerate(times)) <= 40
    assert times[-1] - began >= 1.0


async def test_no_budget_leaves_the_client_as_it_was() -> None:
    http = Recorder()
    request = http.request
    assert limit_requests(http, 0) is None
    assert http.request == request


def test_the_bot_budgets_its_client_by_the_settings() -> None:
    limited = create_bot(Settings(token="t", rest_per_second=7))
    assert limited.http.request.__name__ == "budgeted"
    free = create_bot(Settings(token="t", rest_per_second=0))
    assert free.http.request.__func__ is HTTPClient.request
