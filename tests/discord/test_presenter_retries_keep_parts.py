"""The presenter's retries keep to what was asked: a stale table's redraw retried redraws no DM."""

from __future__ import annotations

from typing import Any

import pytest

from tests.discord.driver import controls
from tests.discord.test_server_left_readded import ended_by_removal

pytestmark = [pytest.mark.parametrize("database", ["sqlite"], indirect=True)]


async def test_a_retried_stale_table_redraw_sends_no_new_dm_hands(simcord_env: Any) -> None:
    """UNO; the bot is removed from the server mid-game (the game ends, its DMs are drawn
    as ended, its table keeps its buttons) and invited back an hour later. A player presses
    a button on the stale table: the redraw of that one message (``Play._stale_buttons``,
    ``table=False, dms=False``) fails once (a 503). Its retry (``Presenter._retry`` ->
    ``_again``, ``dms`` left True) redraws the *DMs* of the ended game too, from a copy
    loaded fresh that remembers nothing shown: each DM, over an hour old, refuses the edit
    (30046), so every player is sent a brand-new "Your hand for game #1" DM of a game that
    ended an hour ago (and the old one deleted), for a table redraw nobody's hand needed.
    That was before; now the retry of a job asked with ``dms=False`` touches no DM, and
    the players get no new DM."""
    env = simcord_env
    table = await ended_by_removal(env, 3700)
    channel_id = table.channel.id
    session = await table.session()
    dm_channels = {s.dm_channel_id for s in session.seats if s.dm_channel_id}
    assert dm_channels
    for dm in dm_channels:  # edits of messages over an hour old: refused (30046)
        env.inject_error(
            "PATCH",
            f"/channels/{dm}/messages/*",
            status=400,
            code=30046,
            message="Maximum number of edits to messages older than 1 hour reached.",
            times=None,
        )
    message = table.table_message()
    path = f"/channels/{channel_id}/messages/{message.id}"
    env.inject_error("PATCH", path, status=503, message="Service Unavailable", times=1)
    member = next(iter(table.members.values()))
    play = next(c for c in controls(message) if c.custom_id.startswith("g:"))
    mark = len(env.backend.http_requests)
    await member.click(message, custom_id=play.custom_id)
    await env.advance_time(120)
    await env.bot.presenter.idle()
    new_dms = [
        e.path
        for e in env.backend.http_requests[mark:]
        if e.method == "POST" and any(e.path == f"/channels/{dm}/messages" for dm in dm_channels)
    ]
    assert new_dms == [], f"new DM hands sent for a game over an hour ago: {new_dms}"
