"""Turns and an outage seen at a new gateway session (READY lists the server unavailable and
its GUILD_CREATE comes late). Before, only a deadline passing meanwhile made it count as an
outage (its turns were not started over in full when the server came back), and a reconnect
whose GUILD_CREATE came a moment late restarted every turn of the server in full. Now a server
still unavailable once the session is ready counts as down, and a gap of a few seconds
restarts nothing."""

from __future__ import annotations

from typing import Any

import pytest
from simcord.backend import serializers

from tests.discord.driver import Table
from tests.discord.gateway_events import (
    new_session_without_guild_creates,
    server_outage,
    twenty_seconds_into_a_turn,
)

pytestmark = pytest.mark.parametrize("database", ["sqlite"], indirect=True)


async def test_outage_heard_as_guild_delete_gives_the_turn_in_full(simcord_env: Any) -> None:
    """Control: a 35 s outage heard as GUILD_DELETE, 20 s into a 60 s turn: back at 55 s,
    the turn starts over in full; 10 s later no bot has moved for her."""
    env = simcord_env
    table, player, before, guild_id = await twenty_seconds_into_a_turn(env)
    await server_outage(env, guild_id, 35)
    await env.advance_time(10)
    session = await table.session()
    seat = session.seat(int(player))
    assert seat is not None
    assert (session.version, seat.strikes) == (before, 0), session.public_log[-2:]


async def test_outage_seen_at_a_new_session_does_not_give_the_turn_in_full(
    simcord_env: Any,
) -> None:
    """The same 35 s outage, seen at a new gateway session (READY lists the server
    unavailable; its GUILD_CREATE comes 35 s later). No deadline passed meanwhile, so
    ``_guild_down`` never held the server and ``on_guild_available`` restarts nothing: 5 s
    after her server is back (her deadline at 60 s) a bot moves for her with a strike."""
    env = simcord_env
    table, player, before, guild_id = await twenty_seconds_into_a_turn(env)
    await new_session_without_guild_creates(env)
    guild = env.bot.get_guild(guild_id)
    assert guild is not None and guild.unavailable
    await env.advance_time(35)
    payload = serializers.guild_create_payload(env.backend, env.backend.guilds[guild_id])
    env.backend.emit("GUILD_CREATE", payload)
    await env.settle()
    assert not env.bot.get_guild(guild_id).unavailable
    await env.advance_time(10)
    session = await table.session()
    seat = session.seat(int(player))
    assert seat is not None
    assert (session.version, seat.strikes) == (before, 0), (
        "timed out 5 s after her server came back",
        session.public_log[-2:],
    )


async def test_a_reconnect_blip_restarts_every_turn_of_the_server_in_full(
    simcord_env: Any,
) -> None:
    """Two UNO games (60 s turns) in one server; the second started 40 s after the first.
    The bot's gateway session is renewed (READY, then the server's GUILD_CREATE 2 s later,
    an ordinary reconnect; members' presses arrive meanwhile). The first game's deadline
    happens to fall in those 2 s: ``_missed`` marks the server down (known by its id alone),
    and ``on_guild_available`` then starts every turn of the server over in full: the second
    game's member, 20 s into her turn and never hindered, gets 20 s more than her turn."""
    env = simcord_env
    first = await Table.start(env, "uno", 2, channel_name="one", seed=7, turn_timer=60)
    await env.advance_time(40)
    second = await Table.start(env, "uno", 2, channel_name="two", seed=7, turn_timer=60)
    guild_id = second.channel.guild.id
    session = await second.session()
    before = dict(session.row.clocks["turn"])
    await env.advance_time(19)  # the first game's deadline is 1 s away
    await new_session_without_guild_creates(env)
    await env.advance_time(2)
    payload = serializers.guild_create_payload(env.backend, env.backend.guilds[guild_id])
    env.backend.emit("GUILD_CREATE", payload)
    await env.settle()
    session = await second.session()
    assert session.row.clocks["turn"] == before, (before, session.row.clocks["turn"])
    del first
