"""A game's channel deleted while one of its players has closed their DMs."""

from __future__ import annotations

from tests.discord.driver import Table
from tests.discord.test_dm_reopened import close_dms


async def test_a_deleted_channel_is_not_called_again_for_a_player_with_closed_dms(
    simcord_env,
) -> None:
    """Bea has closed her DMs (blocked the bot) mid-game, and a moderator then deletes the
    game's channel. The game ends and its "ended early" DM to bea is refused (50007).
    Before, the bot then posted "press My hand on the table" into the deleted channel (404,
    which was not caught), so the DM pass failed and was retried for the hour the ended
    game counts as unshown: 25 calls to the dead channel and 17 refused DMs in half an
    hour. Now a game that is over gets no such notice (nothing is left to play), a 404 on
    the notice counts as refused too, and the seat is marked closed at once: one try."""
    env = simcord_env
    table = await Table.start(env, "uno", 2, seed=7, turn_timer=0)
    await table.some_move()
    await env.bot.presenter.idle()
    dm = table.dm_message(str(table.members[list(table.members)[1]].id))
    assert dm is not None
    close_dms(env, dm.channel.id)
    channel_id = table.channel.id
    start = len(env.http_requests)
    env.backend.delete_channel(channel_id)
    for _ in range(6):  # half an hour
        await env.advance_time(300)
    await env.bot.presenter.idle()
    assert (await table.session()).row.status == "cancelled"
    calls = env.http_requests[start:]
    dead = [r for r in calls if f"/channels/{channel_id}/" in r.path]
    to_dm = [r for r in calls if f"/channels/{dm.channel.id}/" in r.path]
    assert len(dead) <= 1 and len(to_dm) <= 2, (
        f"{len(dead)} calls to the deleted channel ({sorted({r.method for r in dead})}) and "
        f"{len(to_dm)} refused DMs in the half hour after the channel was deleted"
    )
