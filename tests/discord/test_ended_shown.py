"""Sharing the database (PostgreSQL), an ended game is drawn without the drawing lease (it has
left the cache), so before, nothing marked its end as shown: within the hour another process,
or this one, redrew it as "unshown", and by then its table was old enough to be posted again,
a second table of a finished game under its end post, and every DM edited for nothing. Now an
end shown in full is stored as shown."""

from __future__ import annotations

import random
from typing import Any

from tests.discord.driver import Table


async def test_an_ended_game_is_not_drawn_again_later(simcord_env: Any) -> None:
    env = simcord_env
    table = await Table.start(env, "haymaker", 2, seed=12)
    await table.play_random(random.Random(1))
    await env.settle()
    await env.bot.presenter.idle()
    start = len(env.http_requests)
    for _ in range(12):  # an hour, in the clock loop's steps
        await env.advance_time(300)
    await env.bot.presenter.idle()
    assert [(r.method, r.path) for r in env.http_requests[start:]] == []
