"""A retry of an ended game (no longer cached) reloads it as stored. Before, the reloaded
copy had forgotten what the failed pass drew: every retry of a single failed post edited the
ended table and every player's DM again, though nothing changed. Now what the old copy drew
still counts (compared with the game as it is)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.discord.driver import Table, answer_fails

pytestmark = pytest.mark.parametrize("database", ["sqlite"], indirect=True)


async def test_a_failed_post_of_an_ended_game_does_not_redraw_its_table_and_dms(
    simcord_env: Any,
) -> None:
    """ann ends the game with /endgame; the answer fails, so the channel is told by a post,
    which Discord fails once (a 5xx). The table and both DMs were drawn ended already in that
    pass; the post's retry should post only, not edit the table and each DM again."""
    env = simcord_env
    table = await Table.start(env, "haymaker", 2, seed=3)
    ann, _bea = table.members.values()
    channel_id = table.channel.id
    answer_fails(env)
    env.inject_error("POST", rf"/channels/{channel_id}/messages", status=500, times=1)
    await ann.slash(table.channel, "endgame")
    await env.advance_time(1)
    await env.bot.presenter.idle()
    assert (await table.session()).row.status == "cancelled"
    start = len(env.http_requests)
    await env.advance_time(120)  # the post's retry
    await env.bot.presenter.idle()
    told = [m for m in table.channel.history() if "was ended by" in (m.content or "")]
    assert len(told) == 1, told
    edits = [(r.method, r.path) for r in env.http_requests[start:] if r.method == "PATCH"]
    assert edits == [], f"the retry of one post edited {len(edits)} messages again: {edits}"
