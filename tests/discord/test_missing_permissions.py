"""/newgame in a channel where the bot was invited without several of the permissions
README's invite link asks for: the refusal must read as a true, plain sentence."""

from __future__ import annotations

from typing import Any

import discord


async def test_several_missing_permissions_are_named_as_permissions(simcord_env: Any) -> None:
    """The bot's role lacks both Send Messages and Embed Links in #games. Before, /newgame
    said "I'm missing the **Send Messages** and **Embed Links** permission here" (and "the
    A and B and C permission" for three). Now "permissions", and a comma list."""
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel(
        "games",
        overwrites={guild.me: discord.PermissionOverwrite(send_messages=False, embed_links=False)},
    )
    ann = guild.add_member(env.create_user("ann"))
    opened = await ann.slash(channel, "newgame haymaker", turn_timer=0)
    text = opened.response.content or ""
    assert opened.ephemeral and "**Send Messages**" in text and "**Embed Links**" in text
    assert "**Embed Links** permissions" in text, text
