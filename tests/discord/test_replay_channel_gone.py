"""A finished game whose channel was deleted afterwards (a server tidying its game channels)."""

from __future__ import annotations

import random

from tests.discord.driver import Table, message_text


async def test_a_player_can_replay_their_own_game_after_its_channel_is_deleted(
    simcord_env,
) -> None:
    """ann and bea finish a game in #games; a moderator later deletes #games. ann's /stats
    still counts the game. Before, `/replay game:<id>` from #general told her "There's no
    such game on this server": the deleted channel counted as one she could never read.
    Now its players may replay it (its log holds nothing they did not see at the table);
    a member who did not play it is still told there is no such game."""
    table = await Table.start(simcord_env, "haymaker", 2, seed=12)
    ann, _bea = table.members
    await table.play_random(random.Random(1))
    await table.bot.presenter.idle()
    guild = table.channel.guild
    general = guild.create_text_channel("general")
    simcord_env.backend.delete_channel(table.channel.id)
    await simcord_env.advance_time(5)
    stats = await table.members[ann].slash(general, "stats")
    assert "**1** played" in message_text(stats.response)
    answer = await table.members[ann].slash(general, "replay", game=table.game_id)
    text = message_text(answer.response)
    assert answer.ephemeral
    assert "no such game" not in text and f"Replay of game #{table.game_id}" in text, text
    stranger = guild.add_member(simcord_env.create_user("zed"))
    refused = await stranger.slash(general, "replay", game=table.game_id)
    assert refused.ephemeral and "no such game" in message_text(refused.response)
