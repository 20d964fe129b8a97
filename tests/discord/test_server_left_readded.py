"""The bot kicked from a server by mistake and invited back minutes later."""

from __future__ import annotations

from typing import Any

from simcord.backend import serializers

from tests.discord.driver import Table, controls, message_text


async def removed_and_back(env: Any, guild_id: int, channel_id: int, away: float) -> None:
    """The bot is removed from the server (Discord refusing its channel meanwhile, as it
    does a server the bot left) and invited back ``away`` seconds later."""
    fault = {
        "method": "*",
        "path": f"/channels/{channel_id}*",
        "status": 403,
        "code": 50001,
        "message": "Missing Access",
        "times": None,
    }
    env.backend.faults.append(fault)
    env.backend.emit("GUILD_DELETE", {"id": str(guild_id)})
    await env.settle()
    assert await env.bot.store.open_games_in_guild(guild_id) == []
    await env.advance_time(away)
    env.backend.faults.remove(fault)  # invited back
    payload = serializers.guild_create_payload(env.backend, env.backend.guilds[guild_id])
    env.backend.emit("GUILD_CREATE", payload)
    await env.settle()
    assert env.bot.get_guild(guild_id) is not None


async def test_the_table_of_a_game_ended_by_a_removal_stops_offering_buttons_once_back(
    simcord_env: Any,
) -> None:
    """UNO in #games; a moderator kicks the bot by mistake and invites it back five minutes
    later. The game was ended at the removal ("the bot was removed from its server"), but its
    table could not be redrawn then (Discord refuses a server's channels to a bot it removed),
    and nothing drew it once the bot was back (``Presenter.table_gone`` counts it as shown
    for good): the channel went on showing "bea-games to accept the Wild Draw Four..." with
    live buttons, and a player pressing one was told only "That game was ended early."
    Now the press is told that, and the table is drawn again: it shows that the game
    ended, and offers no more moves."""
    env = simcord_env
    table = await Table.start(env, "uno", 2, seed=7, turn_timer=0)
    await table.some_move()
    await env.settle()
    guild_id, channel_id = table.channel.guild.id, table.channel.id
    await removed_and_back(env, guild_id, channel_id, 300)

    message = table.table_message()
    ann = next(iter(table.members.values()))
    play = next(c for c in controls(message) if c.label == "Play a card")
    clicked = await ann.click(message, custom_id=play.custom_id)
    assert clicked.ephemeral and "ended early" in clicked.response.content
    await env.advance_time(600)
    await env.bot.presenter.idle()
    message = table.table_message()
    live = [c.label for c in controls(message) if not c.disabled]
    assert "ended" in message_text(message) and live == [], (live, message_text(message)[:120])


async def test_a_lobby_closed_by_a_removal_stops_offering_join_once_back(
    simcord_env: Any,
) -> None:
    """ann opens an UNO lobby; the bot is kicked by mistake and invited back five minutes
    later. The lobby was closed at the removal (``Lobby.gone``) but its message, which the
    bot could not edit then, still offered Join / Start / Cancel: bea pressing Join was
    told "That lobby was closed." while the message went on inviting everyone else. Now
    the press that finds the lobby closed redraws it as closed."""
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    ann = guild.add_member(env.create_user("ann"))
    opened = await ann.slash(channel, "newgame uno")
    assert opened.response is not None and not opened.ephemeral
    lobby = channel.last_message
    await removed_and_back(env, guild.id, channel.id, 300)

    bea = guild.add_member(env.create_user("bea"))
    joined = await bea.click(lobby, label="Join")
    assert joined.ephemeral and joined.response is not None
    assert "closed" in joined.response.content
    await env.advance_time(60)
    await env.bot.presenter.idle()
    message = next(m for m in channel.history() if m.id == lobby.id)
    live = [c.label for c in controls(message) if not c.disabled]
    assert live == [], live


async def test_a_press_on_an_old_stale_table_redraws_it_in_place_not_a_repost(
    simcord_env: Any,
) -> None:
    """As in test_server_left_readded, but the bot is invited back 52 minutes later (a
    moderator noticed late, say). A press on the old table's "Play a card" makes
    ``_stale_buttons`` cleared ``shown.table`` and called the presenter, whose
    ``_draw_table`` found the table older than TABLE_MAX_AGE and *reposted* it: a fresh copy
    of the ended game's final table appeared at the bottom of the channel, and the old one
    became "The table moved down". Now the pressed message is edited in place (its buttons
    gone) and nothing new is posted in the channel."""
    env = simcord_env
    table = await Table.start(env, "uno", 2, seed=7, turn_timer=0)
    await table.some_move()
    await env.settle()
    guild_id, channel_id = table.channel.guild.id, table.channel.id
    await removed_and_back(env, guild_id, channel_id, 3100)  # past TABLE_MAX_AGE (50 min)

    message = table.table_message()
    posts_before = [m.id for m in table.public_messages()]
    ann = next(iter(table.members.values()))
    play = next(c for c in controls(message) if c.label == "Play a card")
    await ann.click(message, custom_id=play.custom_id)
    await env.advance_time(60)
    await env.bot.presenter.idle()
    new = [m for m in table.public_messages() if m.id not in posts_before]
    assert new == [], [message_text(m)[:100] for m in new]
    pressed = next(m for m in table.channel.history() if m.id == message.id)
    assert "moved down" not in message_text(pressed)
