"""/games in the seconds after a new READY, before the server's GUILD_CREATE arrives.

READY lists every server as ``{"id": ..., "unavailable": true}``; discord.py caches each as
an empty, unavailable Guild (no channels, no roles) until its GUILD_CREATE, which for a bot
in many servers streams in over seconds after every start or new gateway session (and a
server in a Discord outage stays so for as long as it lasts). Interactions from those
servers arrive meanwhile.

Before, /games and /history judged channels by a server with no roles cached and said there
was nothing to see; now the command's own channel is judged by the permissions Discord sent
with the command, and other channels are said to be unchecked."""

from __future__ import annotations

from typing import Any

import pytest

from tests.discord.driver import Table
from tests.discord.gateway_events import new_session_without_guild_creates

pytestmark = pytest.mark.parametrize("database", ["sqlite"], indirect=True)


async def test_games_lists_the_open_game_before_the_servers_guild_create(
    simcord_env: Any,
) -> None:
    """ann asks /games while her server is still unavailable to discord.py after a new READY.
    The bot answers "No games are open in this server. Start one with /newgame!" although
    her own channel has a game in progress: ``Sight._decide`` fetches the channel (one REST
    call per channel) and judges it with ``channel.permissions_for(member)``, which for a
    guild with no roles cached (no @everyone) is ``Permissions.none()``."""
    env = simcord_env
    table = await Table.start(env, "uno", 2, seed=7, turn_timer=0)
    await env.settle()
    guild_id = table.channel.guild.id
    await new_session_without_guild_creates(env)
    guild = env.bot.get_guild(guild_id)
    assert guild is not None and guild.unavailable  # its GUILD_CREATE is still to come
    ann = next(iter(table.members.values()))
    result = await ann.slash(table.channel, "games")
    text = result.response.content or ""
    for embed in result.response.embeds or []:
        text += embed.description or ""
    assert f"#{table.game_id}" in text, text


async def test_history_lists_the_finished_game_before_the_servers_guild_create(
    simcord_env: Any,
) -> None:
    """The same for /history: "No finished game on this server that you can see yet." for
    a game finished in the very channel the member asks from."""
    from tests.discord.test_stats import finished_game

    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    ann = guild.add_member(env.create_user("ann"))
    bea = guild.add_member(env.create_user("bea"))
    cy = guild.add_member(env.create_user("cy"))
    await finished_game(env.bot, guild.id, channel.id, ann.id, bea.id)
    before = await cy.slash(channel, "history")
    assert "No finished game" not in (before.response.content or "")
    await new_session_without_guild_creates(env)
    result = await cy.slash(channel, "history")
    assert "No finished game" not in (result.response.content or ""), result.response.content
