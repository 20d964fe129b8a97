"""Turn clocks and a server removed during its outage, then invited back. Before, the outage
was never closed: every later deadline in that server was given back, for good; now a
removal or a new join ends what the bot knew of the outage."""

from __future__ import annotations

from typing import Any

import pytest
from simcord.backend import serializers

from tests.discord.driver import Table

pytestmark = pytest.mark.parametrize("database", ["sqlite"], indirect=True)


async def test_a_server_removed_during_its_outage_and_invited_back_keeps_no_turn_clock(
    simcord_env: Any,
) -> None:
    """Discord loses a server (GUILD_DELETE unavailable); meanwhile its owner removes the bot
    (GUILD_DELETE), and invites it back later (GUILD_CREATE of a join). The outage's start
    is never forgotten (``Timers._guild_down`` is cleared only by ``on_guild_available``),
    so every deadline of every new game in that server counts as "missed in an outage":
    ann's 60 s turn is given back again and again, and nobody's clock ever runs out."""
    env = simcord_env
    first = await Table.start(env, "uno", 2, seed=7)
    guild_id = first.channel.guild.id
    env.backend.emit("GUILD_DELETE", {"id": str(guild_id), "unavailable": True})
    await env.settle()
    await env.advance_time(30)
    env.backend.emit("GUILD_DELETE", {"id": str(guild_id)})  # removed meanwhile
    await env.settle()
    await env.advance_time(300)
    payload = serializers.guild_create_payload(env.backend, env.backend.guilds[guild_id])
    payload.pop("unavailable", None)  # a join, as Discord sends it
    env.backend.emit("GUILD_CREATE", payload)
    await env.settle()
    assert env.bot.get_guild(guild_id) is not None

    table = await Table.start(env, "uno", 2, "again", seed=7, turn_timer=60)
    session = await table.session()
    player = session.hosted.awaited(session.game)[0]
    before = session.version
    await env.advance_time(130)  # her 60 s run out twice over
    session = await table.session()
    seat = session.seat(int(player))
    assert seat is not None
    assert session.version > before and seat.strikes >= 1, (
        "a turn in a server back for minutes never times out",
        session.version,
        seat.strikes,
    )
