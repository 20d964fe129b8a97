"""Stopping and starting again around a game's end. Before, an end post Discord refused once
before a deploy was caught up at the next start with the table and every DM too, though they
showed the end already: the table, by then over 50 minutes old, was posted again, a second
table of a finished game. Now only what is unshown is redrawn."""

from __future__ import annotations

import random

from tests.discord.driver import Table
from tests.discord.restarts import (
    calls,
    choose,
    fast_forward,
    graceful_restart,
)


async def to_last_move(table: Table, rng: random.Random) -> tuple[str, str]:
    """Store moves until the next one ends the game; that move (not made)."""
    for _ in range(3000):
        player, action_id = await choose(table, rng)
        after = (await table.game()).copy()
        after.apply(player, action_id)
        if after.finished:
            return player, action_id
        await fast_forward(table, player, action_id)
    raise AssertionError("the game did not end")


async def test_an_end_post_refused_once_before_a_deploy_reposts_no_table(
    simcord_env, make_bot, monkeypatch
) -> None:
    """A Haymaker game played for 49 minutes ends; its table and DMs show the end, but
    Discord refuses the end post once (a 503) and the owner deploys (two minutes) before
    the presenter's retry. At the next start the end is caught up (``Endings.catch_up``),
    which asks for the table and every DM too (``table=first, dms=first``) although they
    show the end already: the table, now 51 minutes old, is not edited but posted again, a
    second table of a finished game under the end post (the first one rewritten "The table
    moved down"), and every DM is edited for nothing. Only the end post should be sent."""
    env = simcord_env
    table = await Table.start(env, "haymaker", 2, seed=12)
    rng = random.Random(1)
    player, action_id = await choose(table, rng)
    await table.act(player, action_id)
    await env.advance_time(49 * 60)
    player, action_id = await to_last_move(table, rng)
    env.bot.presenter.update(await table.session())
    await env.bot.presenter.idle()
    monkeypatch.setattr("cogs.presenter.RETRY_AFTER", 10_000.0)  # the stop comes first
    env.inject_error(
        "POST", "/channels/*/messages", status=503, code=0, message="Service Unavailable", times=1
    )
    await table.act(player, action_id, via="dm")
    await env.bot.presenter.idle()
    assert (await table.bot.store.get_game(table.game_id)).status == "finished"
    table_id = table.table_message().id
    monkeypatch.undo()
    # The retry is lost, as in a crash once the drawing was stored (a graceful stop tries it).
    monkeypatch.setattr(env.bot.presenter, "retry_now", lambda: None)
    start = await graceful_restart(env, make_bot, down=120)  # a two-minute deploy
    await env.advance_time(10)
    await env.settle()
    await env.bot.presenter.idle()
    ends = [m for m in table.public_messages() if "Final scores" in (m.content or "")]
    assert len(ends) == 1
    posted = [c for c in calls(env, start) if c[0] == "POST"]
    assert posted == [("POST", f"/channels/{table.channel.id}/messages")], posted
    assert table.public_messages()[-1].id == ends[0].id, "something was posted after the end"
    assert table.table_message().id == table_id
