"""Turn reminders reply to the table: where the bot may not read the channel's history, Discord
refuses a reply, and the reminder is posted as a plain message."""

from __future__ import annotations

from typing import Any

import discord
import pytest
from simcord.backend.errors import BackendError
from simcord.http import router

from tests.discord.driver import Table


@pytest.fixture
def no_history_replies(simcord_env, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Discord's own check: replying needs Read Message History in the channel (else 403,
    160002 "Cannot reply without permission to read message history"). The channels named
    ``nohistory`` deny it to the bot. Returns the refused paths."""
    refused: list[str] = []
    dispatch = router.dispatch

    def checked(backend: Any, method: str, path: str, *args: Any, **kwargs: Any) -> Any:
        body = kwargs.get("json")
        reference = body.get("message_reference") if isinstance(body, dict) else None
        if method == "POST" and reference and path.startswith("/channels/"):
            channel_id = int(path.split("/")[2])
            channel = simcord_env.bot.get_channel(channel_id)
            if channel is not None and getattr(channel, "name", "") == "nohistory":
                refused.append(path)
                raise BackendError(
                    403, 160002, "Cannot reply without permission to read message history"
                )
        return dispatch(backend, method, path, *args, **kwargs)

    monkeypatch.setattr(router, "dispatch", checked)
    return refused


async def test_reminders_arrive_where_the_bot_may_not_read_history(
    simcord_env, no_history_replies
) -> None:
    """README asks for Read Message History but /newgame refuses only a channel lacking one
    of the first four permissions: a game may run where the bot lacks it. There Discord
    refuses a reply (403, 160002). Before, the reminder (a reply to the table) was never
    posted, and its job was retried and refused again each time. Now a refused reply falls
    back to a plain message (the link in its text still leads to the table)."""
    env = simcord_env
    guild = env.create_guild()
    guild.create_text_channel(
        "nohistory",
        overwrites={guild.me: discord.PermissionOverwrite(read_message_history=False)},
    )
    table = await Table.start(env, "uno", 2, channel_name="nohistory", seed=7)
    game = await table.game()
    (awaited,) = game.actors()
    for _ in range(4):
        await env.advance_time(60)  # past the reminder's 20 s, and a few of its retries
    await env.bot.presenter.idle()
    assert no_history_replies, "no reply was refused: the test no longer tests the refusal"
    reminders = [m for m in table.public_messages() if "your turn" in (m.content or "")]
    assert reminders and f"<@{awaited}>" in reminders[-1].content, (
        f"no turn reminder in the channel; {len(no_history_replies)} replies refused"
    )
