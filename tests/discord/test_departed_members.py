"""Members who left the server (or were banned) while holding a seat. DM buttons need no
server, so they may play on, and the table keeps waiting for them. Before, ``/kick`` and
``/stats`` took a ``discord.Member``, which discord.py cannot build for someone outside the
server: the host was told "One of those values isn't valid. Please pick from the choices
offered." and only /endgame, for everyone, got rid of the seat. Now both take a user."""

from __future__ import annotations

from typing import Any

from tests.discord.driver import Table, message_text
from tests.discord.test_races_lobby import open_lobby
from tests.discord.test_stats import finished_game


async def test_the_host_can_kick_a_player_who_left_the_server(simcord_env: Any) -> None:
    table = await Table.start(simcord_env, "uno", 3, seed=11)
    ann, bea, _cy = table.members.values()  # ann is the host
    table.channel.guild.remove_member(bea)

    kicked = await ann.slash(table.channel, "kick", member=bea.user)
    assert kicked.response is not None and kicked.ephemeral
    assert "a bot plays that seat" in kicked.response.content
    seat = (await table.session()).seat(bea.id)
    assert seat is not None and seat.away == "kicked"


async def test_the_host_can_kick_from_the_lobby_a_member_who_left(simcord_env: Any) -> None:
    env = simcord_env
    channel, (ann, bea), lobby = await open_lobby(env, 1)
    channel.guild.remove_member(bea)
    kicked = await ann.slash(channel, "kick", member=bea.user)
    assert kicked.response is not None and kicked.ephemeral, kicked
    game_id = int(lobby.components[0].children[0].custom_id.split(":")[1])
    assert [s.user_id for s in await env.bot.store.seats(game_id)] == [ann.id]


async def test_stats_of_a_member_who_left(simcord_env: Any) -> None:
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    ann = guild.add_member(env.create_user("ann"))
    bea = guild.add_member(env.create_user("bea"))
    await finished_game(env.bot, guild.id, channel.id, bea.id, ann.id)
    guild.remove_member(bea)
    shown = await ann.slash(channel, "stats", member=bea.user)
    assert shown.response is not None and shown.ephemeral
    text = message_text(shown.response)
    assert "1** played · **1** won" in text, text
