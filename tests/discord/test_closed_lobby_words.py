"""A closed lobby's words ("Cancelled by ann."). Before, the lobby's one redraw job, run
by a press while a retry still held it, ran again from the retry after it had dropped the
words, and the lobby said "This lobby was closed."; now the words are kept for any later
redraw."""

from __future__ import annotations

from typing import Any

import pytest

from tests.discord.driver import lobby_cancelled_in_an_incident, message_text


def _lobby(channel: Any, message_id: int) -> Any:
    return next(m for m in channel.history() if m.id == message_id)


pytestmark = [
    pytest.mark.parametrize("database", ["sqlite"], indirect=True),
    pytest.mark.simcord(settle_timeout=1.0),
]


async def test_a_cancelled_lobby_keeps_saying_who_cancelled_it(simcord_env: Any) -> None:
    """ann cancels her lobby; the answer to her click fails and the presenter's edit of the
    lobby fails once (503): the redraw job waits 5 s to be tried again. bea presses the
    stale Join a second later ("That lobby was closed."): the same job runs at once and
    lands "Cancelled by ann.", then forgets the closing words (``Lobby._redraw_later``
    pops ``_closing``). The waiting retry still holds the job and runs it again at 5 s:
    the lobby is edited once more, now reading "This lobby was closed."."""
    env = simcord_env
    channel, lobby, (bea,) = await lobby_cancelled_in_an_incident(env, "bea", times=1)
    result = await bea.click(lobby, label="Join")
    assert "closed" in (result.response.content or "")
    await env.advance_time(2)
    assert "Cancelled by ann" in message_text(_lobby(channel, lobby.id))
    await env.advance_time(60)
    await env.bot.presenter.idle()
    text = message_text(_lobby(channel, lobby.id))
    assert "Cancelled by ann" in text, f"the closed lobby now reads: {text!r}"
