"""A graceful stop while a post Discord refused waits to be tried again. Before, the retry (a
``call_later``) died with the process and nothing at the next start looked for it: an UNO
round's summary (who won the round, the hands, the scores) was never posted. Now a graceful
stop tries what waits at once, within its drain time."""

from __future__ import annotations

import random

from tests.discord.driver import Table
from tests.discord.restarts import graceful_restart, to_a_round_end


async def test_a_round_summary_refused_once_is_still_posted_after_a_graceful_stop(
    simcord_env, make_bot, monkeypatch
) -> None:
    """UNO, a match to 500: the move that ends round 1 is stored and the table and DMs show
    round 2, but Discord refuses the round summary once (a 503). The presenter would post it
    again 5 s later, but the owner deploys (SIGTERM) in that window: ``bot.close()`` waits only
    for the running workers, the retry (a ``call_later``) dies with the process, and nothing
    at the next start looks for it (only table, DMs and end posts are caught up). The channel
    never learns who won round 1, with which hands, nor the scores. It should be posted once
    after the restart (or the stop should wait for it)."""
    env = simcord_env
    table = await Table.start(env, "uno", 2, seed=3)
    player, action_id = await to_a_round_end(table, random.Random(4))
    renderer = (await table.session()).hosted.renderer
    # The old process's retry would come after it is gone (and out of the simulator's way).
    monkeypatch.setattr("cogs.presenter.RETRY_AFTER", 10_000.0)
    env.inject_error(
        "POST", "/channels/*/messages", status=503, code=0, message="Service Unavailable", times=1
    )
    await table.act(player, action_id, via=way(renderer, action_id))
    await env.bot.presenter.idle()
    summaries = [m for m in table.public_messages() if "round" in (m.content or "").lower()]
    assert summaries == [], "the summary was refused"
    monkeypatch.undo()
    await graceful_restart(env, make_bot)
    await env.advance_time(200)
    await env.settle()
    summaries = [m.content for m in table.public_messages() if "**Round 1**" in (m.content or "")]
    assert len(summaries) == 1, summaries


def way(renderer, action_id: str) -> str:
    return "table" if renderer.is_table_only(action_id) else "dm"
