"""A game played in a private channel stays private: /history and /replay show it only to
members who could see its table."""

from __future__ import annotations

import discord

from tests.discord.driver import message_text
from tests.discord.test_stats import finished_game


async def _private_game(simcord_env):
    guild = simcord_env.create_guild()
    lobby = guild.create_text_channel("general")
    ann = guild.add_member(simcord_env.create_user("ann"))
    bea = guild.add_member(simcord_env.create_user("bea"))
    eve = guild.add_member(simcord_env.create_user("eve"))  # cannot see #staff
    staff = guild.create_text_channel(
        "staff",
        overwrites={
            guild.roles["@everyone"]: discord.PermissionOverwrite(view_channel=False),
            ann: discord.PermissionOverwrite(view_channel=True),
            bea: discord.PermissionOverwrite(view_channel=True),
        },
    )
    await finished_game(simcord_env.bot, guild.id, staff.id, ann.id, bea.id)
    (row,) = await simcord_env.bot.store.history(guild.id)
    return lobby, eve, row


async def test_replay_of_a_private_channels_game_is_refused_to_outsiders(simcord_env) -> None:
    """Before: eve, who cannot read #staff, stepped through the whole game played there
    (every card played, the players, the result) with /replay from #general."""
    lobby, eve, row = await _private_game(simcord_env)
    answer = await eve.slash(lobby, "replay", game=row.id)
    text = message_text(answer.response)
    assert "Replay of game" not in text, text


async def test_history_lists_no_game_from_a_channel_the_member_cannot_see(simcord_env) -> None:
    """Before: /history listed the #staff game, its players' result and a link, to eve."""
    lobby, eve, row = await _private_game(simcord_env)
    answer = await eve.slash(lobby, "history")
    text = message_text(answer.response)
    assert f"#{row.id} " not in text, text
    # True, and telling nothing of #staff (before: "No game has finished on this server yet.",
    # although one had).
    assert text == "No finished game on this server that you can see yet.", text
