"""LOBBY_TIMEOUT_MINUTES as the README and .env.example say: "an untouched lobby closes
after this long". Before, the check ran every 5 minutes whatever the setting: with 1 minute
a lobby held its channel for up to 6. Now it runs every tenth of the timeout (at most every
5 minutes)."""

from __future__ import annotations

import pytest

from tests.discord.driver import controls, message_text


@pytest.fixture
def simcord_bot(make_bot):
    return make_bot(lobby_timeout_minutes=1)


async def test_an_untouched_lobby_closes_close_to_its_timeout(simcord_env) -> None:
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("games")
    ann = guild.add_member(simcord_env.create_user("ann"))
    opened = await ann.slash(channel, "newgame uno")
    assert not opened.ephemeral
    await simcord_env.advance_time(55)
    assert await simcord_env.bot.store.open_game_in_channel(channel.id) is not None
    await simcord_env.advance_time(15)  # 70 s: within a tenth of the timeout after it
    assert await simcord_env.bot.store.open_game_in_channel(channel.id) is None
    lobby = channel.history()[0]
    assert "expired" in message_text(lobby) and controls(lobby) == []
