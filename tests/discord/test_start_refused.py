"""Start in a channel where the bot cannot post: refused up front, naming what is missing;
and when the table post is refused anyway, the game goes back to its lobby having dealt
nobody a hand."""

from __future__ import annotations

from typing import Any

import discord
import pytest
from simcord.backend.models.channel import Overwrite
from simcord.enums import OverwriteType

from tests.discord.driver import controls, message_text


def room(env: Any, **denied: bool) -> tuple[Any, Any, Any]:
    guild = env.create_guild()
    overwrites = {guild.me: discord.PermissionOverwrite(**denied)} if denied else {}
    channel = guild.create_text_channel("room", overwrites=overwrites)
    ann = guild.add_member(env.create_user("ann"))
    bea = guild.add_member(env.create_user("bea"))
    return channel, ann, bea


@pytest.mark.parametrize(
    ("denied", "named"),
    [
        ("view_channel", "View Channel"),
        ("send_messages", "Send Messages"),
        ("embed_links", "Embed Links"),
    ],
)
async def test_newgame_where_the_bot_cannot_post_is_refused_naming_the_permission(
    simcord_env, denied: str, named: str
) -> None:
    """Before, without View Channel a lobby opened and filled (interactions need no channel
    permission); Start then redrew it without buttons and told the host to fix Send Messages
    or Embed Links and press a Start button that was gone."""
    channel, ann, _bea = room(simcord_env, **{denied: False})
    opened = await ann.slash(channel, "newgame haymaker", turn_timer=0)
    assert opened.ephemeral and f"**{named}**" in (opened.response.content or "")
    assert await simcord_env.bot.store.open_game_in_channel(channel.id) is None


async def test_start_after_the_permission_is_taken_away_is_refused_and_keeps_the_lobby(
    simcord_env,
) -> None:
    channel, ann, bea = room(simcord_env)
    await ann.slash(channel, "newgame haymaker", turn_timer=0)
    lobby = channel.last_message
    await bea.click(lobby, label="Join")
    # A manager takes Send Messages away from the bot in this channel (simcord has no call
    # for it: its channel model's overwrites are changed in place).
    channel._channel.overwrites.append(
        Overwrite(
            channel.guild.me.id,
            OverwriteType.MEMBER,
            deny=discord.Permissions(send_messages=True).value,
        )
    )
    started = await ann.click(lobby, label="Start")
    assert started.ephemeral and "**Send Messages**" in message_text(started.response)
    row = await simcord_env.bot.store.open_game_in_channel(channel.id)
    assert row is not None and row.status == "lobby"
    shown = next(m for m in channel.history() if m.id == lobby.id)
    assert "Start" in [c.label for c in controls(shown) if not c.disabled]


@pytest.mark.simcord(check_errors=False)
async def test_a_start_whose_table_is_refused_deals_no_hands(simcord_env) -> None:
    """The table post is refused (403) although the permissions looked right: the game goes
    back to its lobby. Before, sharing a database (PostgreSQL), the presenter's first pass
    drew every part of the game it had taken the drawing of, so each player got a DM with
    their hand and move buttons for a game that was not running."""
    env = simcord_env
    channel, ann, bea = room(env)
    await ann.slash(channel, "newgame haymaker", turn_timer=0)
    lobby = channel.last_message
    await bea.click(lobby, label="Join")
    env.inject_error("POST", f"/channels/{channel.id}/messages", status=403, code=50013, times=None)
    await ann.click(lobby, label="Start")
    await env.advance_time(60)
    await env.bot.presenter.idle()
    row = await env.bot.store.open_game_in_channel(channel.id)
    assert row is not None and row.status == "lobby"
    for member in (ann, bea):
        dm = member.user.dm_channel
        got = [message_text(m) for m in dm.history()] if dm is not None else []
        assert got == [], f"{member.name} was dealt {got[0][:120]!r}"
