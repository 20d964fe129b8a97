"""Odd and hostile input on Discord: names that try to ping or link, long option values, a
wall clock that leaps. Each gets a kind, short answer and changes nothing it must not."""

from __future__ import annotations

import random

import cogs.clock
from tests.discord.driver import Table, controls, message_text


def pinged(env, message) -> set[int]:
    """Whom Discord would notify for this message (simcord applies allowed_mentions)."""
    stored = env.backend.get_message(message.channel.id, message.id)
    return set(stored.ping_user_ids)


async def test_names_with_mentions_and_links_ping_nobody_and_stay_text(simcord_env) -> None:
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("games")
    victim = guild.add_member(simcord_env.create_user("victim"))
    # Display names are at most 32 characters.
    mention = f"<@{victim.id}>"
    link = "[nitro](https://e.vil) @everyone"
    one = guild.add_member(simcord_env.create_user("one", global_name=mention))
    two = guild.add_member(simcord_env.create_user("two", global_name=link))
    await one.slash(channel, "newgame haymaker", turn_timer=0)
    lobby = channel.last_message
    await two.click(lobby, label="Join")
    await one.click(channel.last_message, label="Start")
    game_id = int(controls(lobby)[0].custom_id.split(":")[1]) if controls(lobby) else 1
    table = Table(simcord_env, channel, [one, two], game_id)
    await table.play_random(random.Random(3))
    assert (await table.game()).finished
    for message in channel.history():
        text = message_text(message)
        assert "](https://e.vil)" not in text, text  # no clickable link
        assert mention not in text  # the name never becomes a mention
        assert "@everyone" not in text.replace("@\u200beveryone", "")
        assert victim.id not in pinged(simcord_env, message)
        assert not simcord_env.backend.get_message(channel.id, message.id).mention_everyone
    # The names still read as typed (escaped, not dropped).
    lobby_now = message_text(channel.history()[0])
    assert "nitro" in lobby_now and str(victim.id) in lobby_now


async def test_long_option_values_get_a_short_refusal(simcord_env) -> None:
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("uno")
    ann = guild.add_member(simcord_env.create_user("ann"))
    value = "9," * 49 + "9"  # the longest text Discord lets through: 99 characters
    refused = await ann.slash(channel, "newgame uno", custom_wilds=1, custom_rules=value)
    assert refused.ephemeral and "custom_rules" in refused.response.content
    assert len(refused.response.content) < 300
    assert await simcord_env.bot.store.open_game_in_channel(channel.id) is None


def leap(monkeypatch, seconds: float) -> None:
    """The bot's wall clock jumps ahead (an NTP step, a VM resumed), time itself does not."""
    clock = cogs.clock.now
    real_wall = clock._wall
    monkeypatch.setattr(clock, "_wall", lambda: real_wall() + seconds)


async def test_a_wall_clock_leap_closes_no_lobby(simcord_env, monkeypatch) -> None:
    """Before: a clock jumped forward expired every lobby at once."""
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("lobby")
    host = guild.add_member(simcord_env.create_user("host"))
    opened = await host.slash(channel, "newgame uno")
    assert not opened.ephemeral
    leap(monkeypatch, 7200)  # two hours, in no time
    await simcord_env.advance_time(6 * 60)  # the lobby housekeeping looks meanwhile
    assert (await simcord_env.bot.store.open_game_in_channel(channel.id)) is not None
    assert controls(channel.last_message), "the lobby was closed"
    await simcord_env.advance_time(31 * 60)  # real time still closes it
    assert (await simcord_env.bot.store.open_game_in_channel(channel.id)) is None


async def test_a_wall_clock_leap_ends_no_timed_phase(simcord_env, monkeypatch) -> None:
    """Before: a clock jumped forward ended the 120 s negotiation at once."""
    table = await Table.start(simcord_env, "itemcollection", 4)
    game = await table.game()
    leap(monkeypatch, 7200)
    # A click makes the bot look at its clocks right after the leap.
    first = game.players[0]
    await table.act(first, "ready", via="table")
    await simcord_env.advance_time(5)
    assert (await table.game()).view()["phase"] == "negotiation", "it ended at once"
    await simcord_env.advance_time(120)  # real time still ends it
    assert (await table.game()).view()["phase"] != "negotiation"
