"""discord.py's rate-limit buckets, swept in amortised time.

discord.py 2.7 keeps one rate-limit bucket per route and channel (``HTTPClient._buckets``) and,
once there are 256 or more, scans all of them for idle ones every time a new one is made
(``_try_clear_expired_ratelimits``). A bot with many games makes a new bucket for every DM
channel and table it edits for the first time, so each of those requests paid for a scan of
thousands of buckets: a third of the bot's processor time under load (bench/load.py, N=500).

Here the sweep runs only when the number of buckets has doubled since the last one (or a
minute has passed since it): the same buckets are dropped, at a constant cost per request.
"""

from __future__ import annotations

import time
from typing import Any

MIN_BUCKETS = 256  # discord.py's own threshold
SWEEP_EVERY = 60.0  # seconds: idle buckets never outlive this by much


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
        for key in [k for k, bucket in buckets.items() if bucket.is_inactive()]:
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
