"""A game in a thread whose parent channel a moderator locks for the bot for a while (its
Send Messages taken), while Discord archives the quiet thread by itself."""

from __future__ import annotations

from tests.discord.test_channel_locked import deny_bot
from tests.discord.test_threads_archived import Archived, shown_versions, thread_game


async def test_a_channel_lock_does_not_end_a_game_in_its_archived_thread(simcord_env) -> None:
    """A moderator takes the bot's Send Messages and Send Messages in Threads in #games for
    a raid; the game's thread (not locked) is archived by Discord for inactivity meanwhile
    (a game played from DMs posts nothing). Bea moves from her DM: the table edit meets
    50083, and the bot tries to unarchive the thread, which Discord refuses with 403 because
    an unlocked thread may only be unarchived with Send Messages. README: a channel lock
    mid-game "does not end its game": the game stays open, and once the lock is lifted
    the thread is unarchived and the table shows the move.

    Before, the game ended ("thread_locked"). Now a refused unarchive reads the thread: only
    one locked by its moderators ends the game; otherwise it is tried again later."""
    env = simcord_env
    table = await thread_game(env)
    parent_id = table.channel._channel.parent_id
    deny_bot(env, parent_id, send_messages=True, send_messages_in_threads=True)
    archived = Archived(env, table.channel.id, locked=False)
    # Discord: unarchiving an unlocked thread needs Send Messages, which the lock took.
    env.inject_error(
        "PATCH",
        f"/channels/{table.channel.id}",
        status=403,
        code=50013,
        message="Missing Permissions",
        times=None,
    )
    lock = env.backend.faults[-1]
    await env.settle()
    await table.some_move(via="dm")
    await env.advance_time(120)
    env.backend.delete_overwrite(parent_id, env.backend.bot_user.id)  # the lock is lifted
    env.backend.faults.remove(lock)
    for _ in range(6):
        await env.advance_time(300)
    await env.bot.presenter.idle()
    session = await table.session()
    assert session.row.status == "active", (
        f"the game was {session.row.status} ({session.row.ended_reason}) by a two-minute "
        "channel lock; its thread was never locked"
    )
    assert archived.unarchived and shown_versions(table) == {session.version}
