"""Texts: what slash commands and lobby refusals say."""

from __future__ import annotations

import pytest

from tests.discord.driver import message_text

# What players read: the same on either database, so drawn on one (the suite's time).
pytestmark = pytest.mark.parametrize("database", ["sqlite"], indirect=True)


async def test_games_list_says_1_players_for_a_fresh_lobby(simcord_env) -> None:
    """ann opens an UNO lobby and nobody has joined yet; /games lists it as
    "#1 UNO in #games — 1 players, waiting in the lobby". It should say "1 player"."""
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("games")
    ann = guild.add_member(simcord_env.create_user("ann"))
    opened = await ann.slash(channel, "newgame uno", turn_timer=0)
    assert not opened.ephemeral
    listed = await ann.slash(channel, "games")
    text = message_text(listed.response)
    assert "in the lobby" in text, text
    assert "1 players" not in text, text


async def test_lobby_breaks_emoji_and_persian_names(simcord_env) -> None:
    """A member called "🏳️‍🌈 Sam" joins a lobby: the Players list shows "🏳️🌈 Sam" (a white
    flag then a rainbow), and "می‌خواهم" loses its zero-width non-joiner, because
    ``safe_name`` deletes U+200C/U+200D (joiners are part of emoji sequences and of Persian
    and Indic spelling, not control characters). Names should be shown as typed."""
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("games")
    flag = "🏳\ufe0f\u200d🌈 Sam"
    persian = "می\u200cخواهم"
    ann = guild.add_member(simcord_env.create_user("ann", global_name=flag))
    bea = guild.add_member(simcord_env.create_user("bea", global_name=persian))
    await ann.slash(channel, "newgame uno", turn_timer=0)
    lobby = channel.last_message
    await bea.click(lobby, label="Join")
    text = message_text(channel.last_message)
    assert flag in text, text
    assert persian in text, text


async def test_play_again_pings_the_member_the_host_kicked(simcord_env) -> None:
    """The host kicks cy, then the game ends; bea presses **Play again** and the new lobby
    reads "@ann, @cy: a rematch! Press **Join** to play again.", pinging cy. The host
    removed cy from that game (cy may not even open its rematch), so the invitation should
    go to the players who were still in it, not cy."""
    from tests.discord.driver import Table

    table = await Table.start(simcord_env, "uno", 3, seed=3)
    ann, bea, cy = table.members.values()
    kicked = await ann.slash(table.channel, "kick", member=cy)
    assert kicked.ephemeral
    await ann.slash(table.channel, "endgame")
    await simcord_env.bot.presenter.idle()
    post = table.channel.last_message
    again = await bea.click(post, label="Play again")
    assert not again.ephemeral, again.response.content
    pinged = {user.id for user in again.response.message.mentions}
    assert ann.id in pinged, pinged
    assert cy.id not in pinged, again.response.message.content
