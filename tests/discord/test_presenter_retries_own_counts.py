"""The presenter's retries: each post is tried for its own hour in a merged schedule."""

from __future__ import annotations

from typing import Any

import pytest

from tests.discord.driver import Table
from tests.discord.test_channel_locked import deny_bot

# The presenter's retries do not depend on the database (as test_presenter_retries_merged).
pytestmark = [
    pytest.mark.parametrize("database", ["sqlite"], indirect=True),
    pytest.mark.simcord(settle_timeout=1.0),
]


def posts_of(env: Any, text: str, since: int = 0) -> int:
    return sum(
        1
        for e in env.backend.http_requests[since:]
        if e.method == "POST"
        and isinstance(e.json, dict)
        and text in str(e.json.get("content") or "")
    )


async def test_a_refused_post_is_not_retried_for_ever_nor_multiplied(simcord_env: Any) -> None:
    """A moderator locks the game's channel (the bot loses Send Messages) and leaves it
    locked for the afternoon; the game goes on from the DMs and now and then has something
    to say in the channel (a round summary, a notice), each refused (403). The docs say a
    refused post is tried 1, 2, 4... minutes apart for about an hour, then dropped. But
    ``_wait_retry`` merges each new failure into the waiting retry with ``min()`` of the
    counts and keeps every job: the first notice's count is reset by each later failure,
    so it is tried again for as long as anything else fails (hours, days), and every retry
    pass re-sends every post refused since the lock, one more at each round. The list of
    jobs grows without bound and Discord is sent a growing burst of refused (403) posts,
    which count towards the invalid-request ban. That was before (a merged chain took the
    smaller count for every post in it); now a post is dropped an hour after it first
    failed, and a later failure does not revive it."""
    env = simcord_env
    table = await Table.start(env, "uno", 2, seed=5)
    deny_bot(env, table.channel.id, send_messages=True)
    await env.settle()
    presenter = table.bot.presenter
    after_its_hour = 0
    for i in range(12):  # one refused notice every 10 minutes, for two hours
        session = await table.session()
        presenter.announce(session, f"notice number {i:02d} of the afternoon")
        await env.advance_time(600)
        if i == 6:  # 70 minutes after the first notice failed
            after_its_hour = len(env.backend.http_requests)
    late = posts_of(env, "notice number 00", after_its_hour)
    mark = len(env.backend.http_requests)
    await env.advance_time(600)
    burst = sum(1 for i in range(12) if posts_of(env, f"notice number {i:02d}", mark))
    assert late == 0, f"the first refused notice was sent {late} more times after its hour of tries"
    assert burst <= 7, f"in ten minutes, {burst} different refused notices were sent again"
