"""Rate limits and the presenter's retries: a table Discord answers 429 is tried again on one
schedule, not once more per move made meanwhile."""

from __future__ import annotations

from typing import Any

import pytest

from tests.discord.driver import Table
from tests.discord.test_turn_clocks import a_move, current

# The presenter's retries do not depend on the database; a short settle window keeps the
# retries (5 to 30 s apart) on the virtual clock.
pytestmark = [
    pytest.mark.parametrize("database", ["sqlite"], indirect=True),
    pytest.mark.simcord(settle_timeout=1.0),
]


async def test_moves_during_a_429_storm_do_not_multiply_the_failing_retries(
    simcord_env: Any,
) -> None:
    """Discord answers every call on the game's channel and DMs with 429 (a Cloudflare ban:
    discord.py raises it at once). The players go on clicking (their answers go through
    the interaction webhook): 6 moves in 12 s. Each move's pass fails. Before, each failed
    pass started its own chain of six retries, so once the moves stopped the same table
    message was edited, and refused, about every two seconds for two minutes, where one
    schedule (six tries) would do; every 429 counts towards the invalid requests that keep
    a bot's address banned (cogs/ratelimits.py). Now a game's failing retries follow one
    schedule whatever the number of moves."""
    env = simcord_env
    table = await Table.start(env, "uno", 2, seed=5)
    table_id = (await table.session()).row.table_message_id
    env.inject_error(
        "*", "/channels/*", status=429, message="You are being rate limited.", times=None
    )
    for _ in range(6):
        player = await current(table)
        await table.act(player, await a_move(table, player), via="picker")
        await env.advance_time(2)
    mark = len(env.backend.http_requests)
    for _ in range(12):
        await env.advance_time(10)
    edits = [
        e
        for e in env.backend.http_requests[mark:]
        if e.method == "PATCH" and e.path.endswith(f"/messages/{table_id}")
    ]
    assert len(edits) <= 7, (
        f"after the moves stopped, the table was edited {len(edits)} times in two minutes, "
        "every one answered 429 (one schedule of retries is six)"
    )
