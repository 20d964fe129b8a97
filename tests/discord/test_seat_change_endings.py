"""Seat changes in the middle of a game (leave, kick): what the players are told and what is
recorded for the game's end must stay true."""

from __future__ import annotations

import random

import discord

from cogs.ratings import shown
from tests.discord.driver import Table, message_text


async def leave(table: Table, player: str) -> None:
    member = table.members[player]
    ask = await member.slash(table.channel, "leave")
    done = await member.click(ask.response, label="Leave the game")
    assert done.ephemeral and "bot plays your seat" in done.response.content


async def test_a_game_a_leavers_bot_won_is_won_by_forfeit_in_stats_and_ratings(
    simcord_env,
) -> None:
    """Two members play Haymaker; bea leaves at once and the bot playing her seat goes on to
    beat ann. Before, /stats recorded a loss for ann while the same end post raised her
    rating ("ann 1000 → 1138"): the ratings place a leaver last, the stats gave the win to
    nobody. Now one verdict: ann, who stayed, wins by forfeit in both, and the post says so."""
    table = await Table.start(simcord_env, "haymaker", 2, seed=1)
    ann, bea = table.members
    await leave(table, bea)
    await table.play_random(random.Random(1))
    game = await table.game()
    assert game.winners == [bea], "the bot playing bea's seat won (this deal)"
    await simcord_env.bot.presenter.idle()
    row = await simcord_env.bot.store.get_game(table.game_id)
    before, after = row.ratings[ann]
    assert shown(after) > shown(before)
    stats = await simcord_env.bot.store.stats(table.channel.guild.id, int(ann))
    assert stats["haymaker"] == (1, 1)  # played, won
    assert (await simcord_env.bot.store.stats(table.channel.guild.id, int(bea)))["haymaker"] == (
        1,
        0,
    )
    end = next(m.content for m in table.public_messages() if "Final scores" in (m.content or ""))
    assert "wins by forfeit" in end and "ann" in end.split("wins by forfeit")[0].splitlines()[-1]


async def test_kicking_the_last_member_does_not_say_a_bot_plays_their_seat(simcord_env) -> None:
    """One member plays A War of Suits against a bot; a server manager kicks them. Nobody is
    left playing, so the game is abandoned at once. Before, the manager was told "Done: a bot
    plays that seat now." and the channel read "<@ann> was removed from game #1; a bot plays
    their seat. Nobody is left playing: game abandoned." Now both say only what happened."""
    table = await Table.start(simcord_env, "warofsuits", 1, seed=4, bots=1)
    (ann,) = table.members.values()
    guild = table.channel.guild
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    mod = guild.add_member(simcord_env.create_user("mod"), roles=[mods])
    answer = await mod.slash(table.channel, "kick", member=ann)
    await simcord_env.bot.presenter.idle()
    session = await table.session()
    assert session.row.status == "cancelled" and session.row.ended_reason == "abandoned"
    said = [
        m.content or "" for m in table.public_messages() if "removed from game" in (m.content or "")
    ]
    assert said and "abandoned" in said[-1]
    assert "bot plays" not in said[-1], said[-1]
    assert answer.ephemeral and "bot plays" not in answer.response.content, answer.response.content


async def test_the_last_member_leaving_is_told_why_in_the_dm(simcord_env) -> None:
    """One member plays against a bot and leaves: the game is abandoned. Before, the DM
    said only "This game was ended early."; now it says why."""
    table = await Table.start(simcord_env, "warofsuits", 1, seed=4, bots=1)
    (ann,) = table.members
    member = table.members[ann]
    ask = await member.slash(table.channel, "leave")
    done = await member.click(ask.response, label="Leave the game")
    assert done.ephemeral and done.response.content == "You left the game."
    await simcord_env.bot.presenter.idle()
    dm = table.dm_message(ann)
    assert dm is not None
    assert "This game was abandoned: nobody was left playing." in message_text(dm)
