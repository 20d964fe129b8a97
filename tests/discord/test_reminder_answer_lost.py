"""A turn reminder Discord made but whose answer never reached the bot (a 5xx or a dropped
connection after the message was created) is not posted a second time by the retry."""

from __future__ import annotations

from typing import Any

import aiohttp
import pytest

from cogs.render.spec import Screen
from tests.discord.driver import Table

pytestmark = pytest.mark.parametrize("database", ["sqlite"], indirect=True)


async def test_a_reminder_whose_answer_was_lost_is_not_posted_twice(simcord_env: Any) -> None:
    """Before, the reminder went out without a nonce: the presenter's retry of the job
    posted a second "your turn" (a second ping), and the first, its id never known, stood in
    the channel for good, never deleted. Now each reminder carries a nonce, the same on every
    try of its job, and Discord hands back the message it already made (emulated here, as
    simcord ignores nonces)."""
    env = simcord_env
    presenter = env.bot.presenter
    table = await Table.start(env, "uno", 2, seed=7)
    await env.settle()
    send = presenter.send
    made: dict[str, int] = {}  # nonce -> message, as Discord keeps them for a few minutes
    lost = [True]

    async def send_answer_lost(
        channel_id: int, screen: Screen, nonce: str | None = None, reply_to: int | None = None
    ) -> int:
        if nonce is not None and nonce in made:
            return made[nonce]
        message_id = await send(channel_id, screen, nonce, reply_to)
        if nonce is not None:
            made[nonce] = message_id
        if lost and "your turn" in str(screen.content):
            lost.clear()
            raise aiohttp.ServerDisconnectedError()  # made, but the answer never came
        return message_id

    presenter.send = send_answer_lost
    for _ in range(3):
        await env.advance_time(30)
    await presenter.idle()
    assert not lost, "no reminder was posted: the test no longer tests that"
    reminders = [m for m in table.public_messages() if "your turn" in (m.content or "")]
    assert len(reminders) == 1, f"{len(reminders)} turn reminders in the channel"
    session = await env.bot.sessions.get(table.game_id)
    assert session is not None and session.row.nudge_message_id == reminders[0].id
