"""Who a command's public answer names: by the table's rules (docs/rules/common.md, "Names
at the table"): a 🤖 at either end goes, a blank-looking name is the username."""

from __future__ import annotations

import pytest

from tests.discord.driver import message_text

# What players read: the same on either database, so drawn on one.
pytestmark = pytest.mark.parametrize("database", ["sqlite"], indirect=True)

NICKS = [("🤖 Ada", "Ada"), ("\u3164", "ann")]  # dressed as the bot Ada; a blank-looking one


@pytest.mark.parametrize(("nick", "shown_as"), NICKS)
async def test_endgame_names_the_member_as_the_table_would(simcord_env, nick, shown_as) -> None:
    """The host's nickname is "🤖 Ada" (or the blank-looking Hangul filler "ㅤ"); the table
    calls her "Ada" ("ann"). Before, /endgame posted "Game #1 was ended by 🤖 Ada." (the bot
    Ada ended it?) or "... ended by ㅤ." (by nobody). Now it names her as the table does."""
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    ann = guild.add_member(env.create_user("ann"), nick=nick)
    bea = guild.add_member(env.create_user("bea"))
    await ann.slash(channel, "newgame haymaker", turn_timer=0)
    lobby = channel.last_message
    await bea.click(lobby, label="Join")
    await ann.click(lobby, label="Start")
    await env.settle()
    ended = await ann.slash(channel, "endgame")
    assert not ended.ephemeral
    text = ended.response.content or ""
    assert text == f"Game #1 was ended by {shown_as}.", text


@pytest.mark.parametrize(("nick", "shown_as"), NICKS)
async def test_a_cancelled_lobby_names_its_host_as_the_table_would(
    simcord_env, nick, shown_as
) -> None:
    """The same host cancels her lobby: "Cancelled by 🤖 Ada." before, her name now."""
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    ann = guild.add_member(env.create_user("ann"), nick=nick)
    await ann.slash(channel, "newgame haymaker", turn_timer=0)
    lobby = channel.last_message
    await ann.click(lobby, label="Cancel")
    await env.settle()
    closed = next(m for m in channel.history() if m.id == lobby.id)
    assert f"Cancelled by {shown_as}." in message_text(closed), message_text(closed)
