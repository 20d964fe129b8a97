"""Presses on a closed lobby's stale buttons while Discord fails its edits. Before, each
press made one more failing edit of the message at once; now a closed lobby is redrawn for
presses at most once a minute, as an ended game's table is."""

from __future__ import annotations

from typing import Any

import pytest

from tests.discord.driver import lobby_cancelled_in_an_incident
from tests.discord.test_lobby_redraw_one_job import lobby_edits

pytestmark = [
    pytest.mark.parametrize("database", ["sqlite"], indirect=True),
    pytest.mark.simcord(settle_timeout=1.0),
]


async def test_presses_on_a_closed_lobby_do_not_each_edit_a_failing_message(
    simcord_env: Any,
) -> None:
    """ann cancels her lobby during a Discord incident (the answer and the lobby's edits
    fail, 503). Six members press the stale Join within a few seconds, each told "That
    lobby was closed.": each press queues the lobby's redraw job again and the presenter
    runs it at once, so Discord gets six failing edits of one message in seconds (plus the
    retries), where the stale-table guard (``Play._stale_buttons``) allows one a minute."""
    env = simcord_env
    channel, lobby, others = await lobby_cancelled_in_an_incident(
        env, *(f"p{i}" for i in range(6)), times=None
    )
    start = len(env.http_requests)
    for member in others:
        result = await member.click(lobby, label="Join")
        assert "closed" in (result.response.content or "")
        await env.advance_time(0.5)
    tried = lobby_edits(env, channel.id, lobby.id, start)
    assert tried <= 2, f"{tried} failing edits of one lobby message for 6 presses in 3 s"
