"""A closed lobby's buttons pressed while Discord fails its edits: one redraw, not one per press."""

from __future__ import annotations

from typing import Any

import pytest

from tests.discord.driver import lobby_cancelled_in_an_incident

pytestmark = [
    pytest.mark.parametrize("database", ["sqlite"], indirect=True),
    pytest.mark.simcord(settle_timeout=1.0),
]


def lobby_edits(env: Any, channel_id: int, message_id: int, start: int = 0) -> int:
    return sum(
        1
        for r in env.http_requests[start:]
        if r.method == "PATCH" and r.path.endswith(f"/channels/{channel_id}/messages/{message_id}")
    )


async def test_presses_on_a_cancelled_lobby_pile_up_redraw_jobs(simcord_env: Any) -> None:
    """ann cancels her lobby during a Discord incident: the answer to her click fails and
    the lobby message's edits fail (503). The lobby message keeps its Join button, and
    five members press it, each told "That lobby was closed." Each press queues a *new*
    redraw job of that one message (``Lobby._redraw_later``, a fresh closure each time), and
    the presenter now keeps each for an hour after it first failed: every retry pass edits
    the same message six times, hammering a failing Discord with six calls where one would
    do, for an hour. (An ended game's table got exactly this guard in this change: one job
    per message, ``Play._stale_redrawn``; a closed lobby's presses had none.) That was
    before; now presses on a lobby share one redraw job per message, so a pass makes one
    edit of the lobby message, not one per press."""
    env = simcord_env
    channel, lobby, others = await lobby_cancelled_in_an_incident(
        env, *(f"p{i}" for i in range(5)), times=None
    )
    for member in others:
        result = await member.click(lobby, label="Join")
        assert "closed" in (result.response.content or "")
    await env.advance_time(600)  # the retries settle into minutes apart
    start = len(env.http_requests)
    await env.advance_time(1200)
    tried = lobby_edits(env, channel.id, lobby.id, start)
    assert tried <= 2, (
        f"{tried} failing edits of one lobby message in 20 minutes: one redraw job per "
        "press, each retried for its own hour"
    )
