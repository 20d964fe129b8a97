"""A press on the stale table of a game that is over (``Play._stale_buttons``)."""

from __future__ import annotations

from typing import Any

from simcord.backend import serializers

from tests.discord.driver import Table, controls, message_text


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
    assert (await table.session()).row.status == "cancelled"
    await env.advance_time(3100)  # past TABLE_MAX_AGE (50 minutes)
    env.backend.faults.remove(fault)  # invited back
    guild = env.backend.guilds[guild_id]
    env.backend.emit("GUILD_CREATE", serializers.guild_create_payload(env.backend, guild))
    await env.settle()

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
