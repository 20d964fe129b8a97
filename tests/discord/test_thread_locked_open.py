"""A game's thread locked by a moderator without being archived (Discord's "Lock Thread":
the thread stays open to read, only moderators may post). Discord then refuses the bot's
posts and edits there with 400, code 160005 "Thread is locked" -- not 50083 "Thread is
archived", the only code the bot looked for before."""

from __future__ import annotations

from typing import Any

from tests.discord.driver import message_text
from tests.discord.test_threads_archived import quiet, thread_game

LOCKED = 160005


def lock_open_thread(env: Any, thread_id: int) -> None:
    """A moderator locks the thread (not archived): every message post, edit or delete by
    the bot (no Manage Threads) in it is refused with 160005."""
    env.backend.edit_channel(thread_id, {}, thread_metadata={"archived": False, "locked": True})
    for method in ("POST", "PATCH", "DELETE"):
        env.inject_error(
            method,
            f"/channels/{thread_id}/messages*",
            status=400,
            code=LOCKED,
            message="Thread is locked",
            times=None,
        )


async def test_a_thread_locked_without_archiving_ends_its_game_and_says_why(
    simcord_env,
) -> None:
    """A moderator locks the game's thread (without archiving it) and the players go on from
    their DMs. README: "a game whose thread a moderator locks ... ends, its players told by
    DM". Before, only a lock found through 50083 (archived) was recognised: with 160005 the
    game stayed active, its table frozen, its reminders and result never posted, and no DM
    said why. Now, as for a locked archived thread, the game ends and the DMs say so."""
    env = simcord_env
    table = await thread_game(env)
    lock_open_thread(env, table.channel.id)
    await table.some_move(via="dm")
    await quiet(env, 10)
    await env.bot.presenter.idle()
    session = await table.session()
    said = {
        member.name: " ".join(message_text(m) for m in member.user.dm_channel.history()).lower()
        for member in table.members.values()
    }
    untold = [name for name, text in said.items() if "ended" not in text and "locked" not in text]
    assert not untold, (
        f"10 minutes after the thread was locked the game is {session.row.status}; "
        f"never told: {untold}"
    )
