"""/replay when no lookup is possible (a member's lookups spent, or the server known by its id
alone after a new gateway session). Before, it was refused up front even where no lookup was
needed; now a game in a channel the bot knows the member reads (a cached text channel, the
command's own channel) is shown."""

from __future__ import annotations

from typing import Any

import pytest

from tests.discord.driver import message_text, server_with_eve
from tests.discord.gateway_events import new_session_without_guild_creates
from tests.discord.test_stats import finished_game
from tests.discord.test_visibility_threads import _archive

pytestmark = pytest.mark.parametrize("database", ["sqlite"], indirect=True)


async def test_replay_of_a_game_in_a_cached_text_channel_once_lookups_are_spent(
    simcord_env: Any,
) -> None:
    """eve's minute of lookups is spent by /history over archived threads. She then asks
    /replay of a game ann and bea played in #general, a plain text channel she reads (in
    discord.py's cache: no lookup needed). The bot says it could not check the game's
    channel, refusing a replay it could decide without any REST call."""
    env = simcord_env
    guild, general, ann, bea, eve = server_with_eve(env)
    plain = await finished_game(env.bot, guild.id, general.id, ann.id, bea.id)
    for i in range(10):
        made = env.backend.create_thread(general.id, f"game {i}", ann.id)
        await finished_game(env.bot, guild.id, made.id, ann.id, bea.id)
        await _archive(env, made.id)
    for _ in range(2):
        await eve.slash(general, "history")
    answer = await eve.slash(general, "replay", game=plain)
    text = message_text(answer.response)
    assert "Replay of game" in text, text


async def test_replay_in_the_games_own_channel_before_guild_create(simcord_env: Any) -> None:
    """After a new gateway session, before the server's GUILD_CREATE, cy asks /replay of the
    game finished in the very channel she types in (Discord sent her permissions there with
    the command: ``Sight._decide`` allows it without a lookup). ``can_look`` refuses first
    because the server is known by its id alone: "I couldn't check that game's channel"."""
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    ann = guild.add_member(env.create_user("ann"))
    bea = guild.add_member(env.create_user("bea"))
    cy = guild.add_member(env.create_user("cy"))
    game = await finished_game(env.bot, guild.id, channel.id, ann.id, bea.id)
    before = await cy.slash(channel, "replay", game=game)
    assert "Replay of game" in message_text(before.response)
    await new_session_without_guild_creates(env)
    answer = await cy.slash(channel, "replay", game=game)
    text = message_text(answer.response)
    assert "Replay of game" in text, text
