"""A game in a thread, the thread archived (Discord does it by itself after the thread's
auto-archive time without a message), then its parent channel deleted. Discord deletes the
threads with their channel but sends only CHANNEL_DELETE for the parent; discord.py makes up a
thread delete only for the threads it still has in its cache, and it drops archived ones
(``parse_thread_update``). ``Lobby.on_guild_channel_delete`` looks only for a game *in* the
deleted channel. Before, nothing ended the thread's game: it stayed active, unreachable (no
channel to type /endgame in), and every redraw of it failed with 404 10003 Unknown Channel,
retried and looked at again every two minutes for as long as it stayed open. Now "Unknown
Channel" on an open game ends it as the channel's deletion would."""

from __future__ import annotations

from tests.discord.driver import message_text
from tests.discord.test_threads_archived import thread_game


async def test_a_game_in_an_archived_thread_ends_when_its_parent_is_deleted(simcord_env) -> None:
    env = simcord_env
    table = await thread_game(env)
    thread_id = table.channel.id
    parent_id = env.backend.channels[thread_id].parent_id
    env.backend.edit_channel(thread_id, {}, thread_metadata={"archived": True})
    await env.settle()
    await table.some_move(via="dm")
    # The parent is deleted and its threads with it (no event of their own).
    backend = env.backend
    del backend.channels[thread_id]
    backend.messages.pop(thread_id, None)
    guild = backend.guilds[backend.channels[parent_id].guild_id]
    if thread_id in guild.thread_ids:
        guild.thread_ids.remove(thread_id)
    backend.delete_channel(parent_id)
    await assert_ended_within_ten_minutes(env, table, thread_id)
    for player in table.members:
        dm = table.dm_message(player)
        assert dm is not None and "ended early: its channel is gone." in message_text(dm)


async def test_a_channel_deleted_while_the_bot_was_offline_ends_its_game(
    simcord_env, make_bot
) -> None:
    """The same without threads: the game's channel is deleted while the bot is down (a
    restart, a gateway outage), so its CHANNEL_DELETE never arrives. Before, after the restart
    the game stayed active for good; its players' DM moves each cost a run of 404 10003
    Unknown Channel calls, retried, and the DMs never said the game could not go on."""
    from tests.discord.driver import Table

    env = simcord_env
    table = await Table.start(env, "uno", 2, seed=7, turn_timer=0)
    channel_id = table.channel.id
    backend = env.backend
    emit = backend.emit
    backend.emit = lambda *args, **kwargs: None  # the bot is offline: it hears nothing
    try:
        backend.delete_channel(channel_id)
    finally:
        backend.emit = emit
    await env.restart_bot(make_bot())
    await env.settle()
    await table.some_move(via="dm")
    await assert_ended_within_ten_minutes(env, table, channel_id)


async def assert_ended_within_ten_minutes(env, table, channel_id: int) -> None:
    """Ten minutes on, the game has ended (counting the calls made to its dead channel)."""
    start = len(env.http_requests)
    for _ in range(2):
        await env.advance_time(300)
    await env.bot.presenter.idle()
    session = await table.session()
    dead = [r for r in env.http_requests[start:] if f"/channels/{channel_id}/" in r.path]
    assert session.row.status == "cancelled", (
        f"the game is still {session.row.status!r}; {len(dead)} calls to its deleted channel "
        f"in ten minutes"
    )
