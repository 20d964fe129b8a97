"""discord.py's rate limits: a budget for all REST calls, and buckets swept in amortised time.

**The budget.** Discord allows a bot 50 REST requests a second in all (its global limit;
interaction answers are not counted). discord.py only reacts to the 429 that follows, and
429s count towards the invalid requests that get a bot's address banned for an hour. Many live
games can ask for more: each move edits a table and a DM or two. ``limit_requests`` makes every
call of discord.py's ``HTTPClient`` wait its turn within ``Settings.rest_budget()``; the click
answers go through the webhook adapter and never wait. While edits wait, the presenter's
per-game queues coalesce them (only the newest table or DM is sent), so a busy bot falls
behind by moments instead of being throttled by Discord.

**The buckets.**
discord.py 2.7 keeps one rate-limit bucket per route and channel (``HTTPClient._buckets``) and,
once there are 256 or more, scans all of them for idle ones every time a new one is made
(``_try_clear_expired_ratelimits``). A bot with many games makes a new bucket for every DM
channel and table it edits for the first time, so each of those requests paid for a scan of
thousands of buckets: a third of the bot's processor time under load (bench/load.py, N=500).

Here the sweep runs only when the number of buckets has doubled since the last one (or
``SWEEP_EVERY`` seconds have passed since it), at a constant cost per request. It also drops
buckets sooner than discord.py's five idle minutes: a bucket with nothing in flight or waiting,
whose window is over and which has had no request for ``IDLE`` seconds, knows nothing a fresh
one would not learn from its first response (the limit). Under load each bucket is about
1 KB, and five minutes of them was a third of the bot's memory per live game (bench/load.py).
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import Any

from aiolimiter import AsyncLimiter

MIN_BUCKETS = 256  # discord.py's own threshold
SWEEP_EVERY = 15.0  # seconds between sweeps while new buckets are made
IDLE = 15.0  # seconds without a request before a bucket past its window may go


def spent(bucket: Any) -> bool:
    """Nothing in flight, waiting or sleeping, its window over and idle for ``IDLE`` s."""
    try:
        now = bucket._loop.time()
        if bucket.outgoing or bucket._pending_requests or bucket._sleeping.locked():
            return False
        if bucket.expires is not None and now <= bucket.expires:
            return False
        return bool(now - bucket._last_request >= IDLE)
    except AttributeError:  # another discord.py: its own, more patient rule
        return bool(bucket.is_inactive())


class AmortisedSweep:
    """Replaces ``HTTPClient._try_clear_expired_ratelimits`` on one client."""

    def __init__(self, http: Any, clock: Any = time.monotonic) -> None:
        self.http = http
        self.clock = clock
        self.next_size = MIN_BUCKETS
        self.next_time = clock() + SWEEP_EVERY

    def __call__(self) -> None:
        buckets: dict[str, Any] = self.http._buckets
        size = len(buckets)
        if size < self.next_size and self.clock() < self.next_time:
            return
        for key in [k for k, bucket in buckets.items() if spent(bucket)]:
            del buckets[key]
        self.next_size = max(MIN_BUCKETS, 2 * len(buckets))
        self.next_time = self.clock() + SWEEP_EVERY


def amortise_bucket_sweep(http: Any) -> bool:
    """Install the amortised sweep on a discord.py ``HTTPClient``; False (and nothing
    changed) if this discord.py has no such method to replace."""
    if not callable(getattr(http, "_try_clear_expired_ratelimits", None)):
        return False
    if not isinstance(getattr(http, "_buckets", None), dict):
        return False
    http._try_clear_expired_ratelimits = AmortisedSweep(http)
    return True


def limit_requests(http: Any, per_second: float) -> AsyncLimiter | None:
    """Make every REST call of a discord.py ``HTTPClient`` wait for the budget: at most
    ``per_second`` calls in any one second; None (nothing changed) for 0."""
    if per_second <= 0:
        return None
    # A leaky bucket lets `burst` go at once, then `leak` a second: in any second at most
    # burst + leak, which is kept to the budget (tiny budgets: the budget a second, plus one).
    burst = max(1.0, per_second / 10)
    leak = per_second - burst if per_second >= 2 * burst else per_second
    limiter = AsyncLimiter(burst, burst / leak)
    request: Callable[..., Awaitable[Any]] = http.request

    async def budgeted(route: Any, *args: Any, **kwargs: Any) -> Any:
        await limiter.acquire()
        return await request(route, *args, **kwargs)

    http.request = budgeted
    return limiter
