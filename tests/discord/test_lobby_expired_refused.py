"""Rate limits on lobby messages: a lobby closed by its timeout must not go on looking open."""

from __future__ import annotations

import pytest

from tests.discord.driver import controls, message_text


@pytest.fixture
def simcord_bot(make_bot):
    return make_bot(lobby_timeout_minutes=1)


async def test_an_expired_lobby_whose_edit_met_a_429_stops_offering_join(simcord_env) -> None:
    """An untouched lobby expires; the edit that closes its message is answered 429 once
    (discord.py gave up on it, or a Cloudflare ban). Before, ``Lobby.expire`` logged it
    and never tried again: the lobby message showed Join and Start for good, in a channel
    where the lobby is closed. Now the closing edit goes through the presenter, which tries
    it again later, as for other lobby redraws."""
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("games")
    ann = guild.add_member(simcord_env.create_user("ann"))
    opened = await ann.slash(channel, "newgame uno")
    assert not opened.ephemeral
    lobby = channel.history()[0]
    simcord_env.inject_error(
        "PATCH",
        f"/channels/{channel.id}/messages/{lobby.id}",
        status=429,
        message="You are being rate limited.",
        times=1,
    )
    await simcord_env.advance_time(70)  # expired (the closing edit refused)
    assert await simcord_env.bot.store.open_game_in_channel(channel.id) is None
    await simcord_env.advance_time(120)  # any retry would be done by now
    lobby = channel.history()[0]
    assert "expired" in message_text(lobby) and controls(lobby) == [], (
        "the expired lobby still offers "
        f"{[c.label for c in controls(lobby)]}: {message_text(lobby)[:120]!r}"
    )
