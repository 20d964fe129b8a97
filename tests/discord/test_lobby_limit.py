"""One member may hold at most three open lobbies in a server.

Each lobby holds its channel until it starts, is cancelled or expires (30 minutes). Before,
one member could open a lobby in every channel of a server, and nobody else could start a
game anywhere until they expired. Now a fourth /newgame (or Play again) by the same member in
that server is refused kindly, naming where their lobbies are; nothing is opened.
"""

from __future__ import annotations

from typing import Any

from db.store import LOBBIES_PER_HOST
from tests.discord.driver import message_text
from tests.discord.test_races_lobby import fire


def _server(env: Any, channels: int) -> tuple[Any, list[Any]]:
    guild = env.create_guild()
    return guild, [guild.create_text_channel(f"games-{i}") for i in range(channels)]


async def test_a_fourth_lobby_is_refused_naming_the_others(simcord_env: Any) -> None:
    env = simcord_env
    guild, channels = _server(env, LOBBIES_PER_HOST + 1)
    ann = guild.add_member(env.create_user("ann"))
    bea = guild.add_member(env.create_user("bea"))
    for channel in channels[:LOBBIES_PER_HOST]:
        opened = await ann.slash(channel, "newgame uno")
        assert not opened.ephemeral
    last = channels[-1]
    before = len(list(last.history()))

    refused = await ann.slash(last, "newgame haymaker")

    assert refused.ephemeral
    said = refused.response.content
    assert said.startswith(f"You already have {LOBBIES_PER_HOST} lobbies open in this server")
    for channel in channels[:LOBBIES_PER_HOST]:
        assert f"<#{channel.id}>" in said
    assert len(list(last.history())) == before  # nothing posted
    assert await env.bot.store.open_game_in_channel(last.id) is None
    # Another member is not held by ann's lobbies.
    assert not (await bea.slash(last, "newgame haymaker")).ephemeral


async def test_a_cancelled_lobby_frees_a_place_and_other_servers_do_not_count(
    simcord_env: Any,
) -> None:
    env = simcord_env
    guild, channels = _server(env, LOBBIES_PER_HOST + 1)
    user = env.create_user("ann")
    ann = guild.add_member(user)
    for channel in channels[:LOBBIES_PER_HOST]:
        await ann.slash(channel, "newgame uno")
    # In another server she may open lobbies as before.
    other = env.create_guild()
    elsewhere = other.create_text_channel("games")
    assert not (await other.add_member(user).slash(elsewhere, "newgame uno")).ephemeral

    first = channels[0]
    await ann.click(first.last_message, label="Cancel")
    assert "Cancelled by ann" in message_text(first.last_message)
    reopened = await ann.slash(channels[-1], "newgame uno")
    assert not reopened.ephemeral


async def test_started_games_do_not_count(simcord_env: Any) -> None:
    """Only lobbies hold a channel with nobody playing: a member may host any number of
    running games."""
    env = simcord_env
    guild, channels = _server(env, LOBBIES_PER_HOST + 1)
    ann = guild.add_member(env.create_user("ann"))
    for channel in channels[:LOBBIES_PER_HOST]:
        await ann.slash(channel, "newgame uno", bots=1)
        await ann.click(channel.last_message, label="Start")
    assert not (await ann.slash(channels[-1], "newgame uno")).ephemeral


async def test_two_lobbies_opened_at_the_same_instant_past_the_limit(simcord_env: Any) -> None:
    """With one place left, /newgame in two channels at the same instant: exactly one opens
    (the check and the insert are one transaction, the host's lobbies locked meanwhile)."""
    env = simcord_env
    guild, channels = _server(env, LOBBIES_PER_HOST + 1)
    ann = guild.add_member(env.create_user("ann"))
    for channel in channels[: LOBBIES_PER_HOST - 1]:
        await ann.slash(channel, "newgame uno")
    racing = channels[LOBBIES_PER_HOST - 1 :]
    answers = [await fire(env, lambda c=c: ann.slash(c, "newgame uno")) for c in racing]
    await env.settle()

    opened = [a for a in answers if not a.ephemeral]
    refused = [a for a in answers if a.ephemeral]
    assert len(opened) == 1 and len(refused) == 1
    assert "lobbies open in this server" in refused[0].response.content
    rows = [await env.bot.store.open_game_in_channel(c.id) for c in channels]
    assert sum(r is not None for r in rows) == LOBBIES_PER_HOST
