"""A member playing on two servers, the bot removed from one of them."""

from __future__ import annotations

from typing import Any

from tests.discord.driver import Table, message_text


async def _game(env: Any, guild: Any, host: Any, other: Any) -> Table:
    channel = guild.create_text_channel("games")
    hosted = await host.slash(channel, "newgame uno", turn_timer=0)
    assert hosted.response is not None and not hosted.ephemeral
    lobby = channel.last_message
    await other.click(lobby, label="Join")
    await host.click(lobby, label="Start")
    game_id = int(lobby.components[0].children[0].custom_id.split(":")[1])
    return Table(env, channel, [host, other], game_id)


async def test_the_dm_of_a_game_ended_by_a_removal_still_names_its_server(
    simcord_env: Any,
) -> None:
    """ann and bea play UNO in #games on "Poker Night" and in #games on "Book Club". The bot
    is kicked from Poker Night. While the game ran, ann's DM said "Your hand for game #1 (UNO)
    in #games on Poker Night"; the moment it was ended it said only "... in #games", and
    "This game was ended early: the bot was removed from its server." - *which* server, it no
    longer says (the name comes from discord.py's cache, which dropped the server with the
    removal; ``show.where_dm``), though she has a #games on both. That was before; now
    the bot keeps the names of servers that removed it, and the DM goes on naming it."""
    env = simcord_env
    ann_user, bea_user = env.create_user("ann"), env.create_user("bea")
    poker = env.create_guild(name="Poker Night")
    books = env.create_guild(name="Book Club")
    first = await _game(env, poker, poker.add_member(ann_user), poker.add_member(bea_user))
    second = await _game(env, books, books.add_member(ann_user), books.add_member(bea_user))
    await env.settle()
    ann = str(ann_user.id)
    before = first.dm_message(ann)
    assert before is not None and "on Poker Night" in before.content, before.content
    assert "on Book Club" in second.dm_message(ann).content  # type: ignore[union-attr]

    env.backend.remove_guild(poker.id)
    await env.settle()
    await env.bot.presenter.idle()
    assert (await first.session()).row.status == "cancelled"
    after = first.dm_message(ann)
    assert after is not None
    assert "removed from its server" in message_text(after)
    assert "on Poker Night" in after.content, after.content
