"""The reason a game ended early in a thread the bot can no longer post in."""

from __future__ import annotations

from typing import Any

from tests.discord.driver import message_text
from tests.discord.test_threads_archived import Archived, quiet, thread_game


async def test_a_thread_archived_but_not_locked_is_not_called_locked(simcord_env: Any) -> None:
    """The game's thread is archived for inactivity (not locked) and the bot may no longer
    open it (its Send Messages in Threads taken). Before, the players' DMs said "its thread
    was locked": nobody locked it. Now they say the bot can no longer post in it."""
    env = simcord_env
    table = await thread_game(env)
    archived = Archived(env, table.channel.id, locked=False)
    archived._fault("PATCH", f"/channels/{table.channel.id}", 403, 50013, "Missing Permissions")
    await table.some_move(via="dm")
    await quiet(env, 10)
    await env.bot.presenter.idle()
    thread = env.backend.channels[table.channel.id]
    metadata = getattr(thread, "thread_metadata", None)
    assert getattr(metadata, "locked", None) is False
    for player in table.members:
        dm = table.dm_message(player)
        assert dm is not None
        assert "its thread was locked" not in message_text(dm), (
            f"the thread is not locked (locked=False), yet the DM says: {message_text(dm)[-120:]!r}"
        )
