"""A DM drawn right after a new gateway session, before the server's GUILD_CREATE (discord.py
then knows the server by its id alone, with no name)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.discord.driver import Table, message_text
from tests.discord.gateway_events import new_session_without_guild_creates
from tests.discord.test_turn_clocks import a_move, current

pytestmark = pytest.mark.parametrize("database", ["sqlite"], indirect=True)


async def test_a_dm_drawn_before_the_servers_data_arrives_still_names_it(simcord_env: Any) -> None:
    """ann plays from her DM moments after the bot's gateway session was renewed. Before, the
    DMs drawn then said "in #games" without "on Test Guild" (the name came from discord.py's
    cache, empty until the GUILD_CREATE), and kept that until the next redraw. Now the name
    the bot last knew is used."""
    env = simcord_env
    table = await Table.start(env, "uno", 2, seed=5)
    player = await current(table)
    name = table.channel.guild.name
    await new_session_without_guild_creates(env)
    assert env.bot.get_guild(table.channel.guild.id).unavailable
    await table.act(player, await a_move(table, player), via="dm")
    await env.bot.presenter.idle()
    for member in table.members:
        dm = table.dm_message(member)
        assert dm is not None and f"on {name}" in message_text(dm), message_text(dm)[:120]
