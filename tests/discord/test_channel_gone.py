"""The server changing under a running game: its channel deleted, the bot removed from the
server. Before, nothing ended the game, and every move then cost a run of failing REST calls
(the table edit, a repost, notices, each retried six times). Now the game ends."""

from __future__ import annotations

from tests.discord.driver import Table, controls, message_text


async def test_a_deleted_channel_ends_its_game(simcord_env) -> None:
    """The game's channel is deleted (CHANNEL_DELETE reaches the bot: guilds intent). Before,
    the game stayed active, unreachable by /endgame (no channel to type it in), listed in
    /games, and each move its players made in their DMs was followed by some twenty REST calls
    to the dead channel."""
    table = await Table.start(simcord_env, "uno", 2, seed=7, turn_timer=0)
    await table.some_move()
    channel_id = table.channel.id
    start = len(simcord_env.http_requests)
    simcord_env.backend.delete_channel(channel_id)
    await simcord_env.advance_time(600)
    await table.bot.presenter.idle()
    dead = [r for r in simcord_env.http_requests[start:] if f"/channels/{channel_id}/" in r.path]
    session = await table.session()
    assert session.row.status == "cancelled", session.row.status
    assert len(dead) <= 1, [r.path for r in dead]  # at most the reminder's delete
    for player in table.members:  # the DMs say the game is over and offer nothing more
        dm = table.dm_message(player)
        assert (
            dm is not None
            and "ended early: its channel is gone." in message_text(dm)
            and controls(dm) == []
        )


async def test_the_bot_removed_from_the_server_ends_its_games(simcord_env) -> None:
    """The bot is removed from the server (GUILD_DELETE). Before, its games there stayed
    active for good and each DM move was followed by a run of 403/404s on the channel."""
    table = await Table.start(simcord_env, "uno", 2, seed=7, turn_timer=0)
    channel_id = table.channel.id
    start = len(simcord_env.http_requests)
    simcord_env.backend.remove_guild(table.channel.guild.id)
    await simcord_env.advance_time(600)
    await table.bot.presenter.idle()
    dead = [r for r in simcord_env.http_requests[start:] if f"/channels/{channel_id}/" in r.path]
    assert (await table.session()).row.status == "cancelled"
    assert len(dead) <= 1, [r.path for r in dead]
