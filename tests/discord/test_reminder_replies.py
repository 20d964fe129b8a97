"""Turn reminders reply to the table: where the bot may not read the channel's history, Discord
refuses a reply, and the reminder is posted as a plain message."""

from __future__ import annotations

import asyncio
from typing import Any

import discord
import pytest
from simcord.backend.errors import BackendError

from tests.discord.driver import Table
from tests.discord.rest_checks import add_check
from tests.discord.test_channel_locked import deny_bot


@pytest.fixture
def no_history_replies(simcord_env, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Discord's own check: replying needs Read Message History in the channel (else 403,
    160002 "Cannot reply without permission to read message history"). The channels named
    ``nohistory`` deny it to the bot. Returns the refused paths."""
    refused: list[str] = []

    def check(backend: Any, method: str, path: str, body: Any) -> None:
        reference = body.get("message_reference") if isinstance(body, dict) else None
        if method == "POST" and reference and path.startswith("/channels/"):
            channel = simcord_env.bot.get_channel(int(path.split("/")[2]))
            if channel is not None and getattr(channel, "name", "") == "nohistory":
                refused.append(path)
                raise BackendError(
                    403, 160002, "Cannot reply without permission to read message history"
                )

    add_check(monkeypatch, check)
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


@pytest.fixture
def reminder_posts(simcord_env, monkeypatch: pytest.MonkeyPatch) -> list[tuple[float, bool]]:
    """Every turn reminder posted (or tried): (loop time, replying to the table)."""
    posts: list[tuple[float, bool]] = []

    def watch(backend: Any, method: str, path: str, body: Any) -> None:
        if (
            method == "POST"
            and path.endswith("/messages")
            and isinstance(body, dict)
            and "your turn" in str(body.get("content") or "")
        ):
            posts.append((asyncio.get_running_loop().time(), bool(body.get("message_reference"))))

    add_check(monkeypatch, watch)
    return posts


async def test_a_locked_channel_is_not_sent_each_reminder_twice(
    simcord_env, reminder_posts
) -> None:
    """A moderator locks the game's channel (the bot's Send Messages denied; it may still
    read the history). The reminder, a reply to the table, is refused with 403 (Missing
    Permissions). Before, every 403 was taken for the 160002 "no Read Message History"
    refusal and the reminder posted again at once as a plain message, refused again: two
    refused calls per try (Discord counts 403s towards its invalid-request ban). Now only
    160002 falls back to a plain post."""
    env = simcord_env
    table = await Table.start(env, "uno", 2, seed=7, turn_timer=0)
    deny_bot(env, table.channel.id, send_messages=True)
    await env.settle()
    await table.some_move(via="dm")
    for _ in range(8):
        await env.advance_time(60)
    await env.bot.presenter.idle()
    assert reminder_posts, "no reminder tried: the test tests nothing"
    moments = [t for t, _ in reminder_posts]
    doubled = len(moments) - len(set(moments))
    assert doubled == 0, (
        f"{len(reminder_posts)} reminder posts into a locked channel, {doubled} of them a "
        f"second refused try at the same moment: {reminder_posts}"
    )
