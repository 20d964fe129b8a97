"""A server already unavailable when the bot's gateway session starts afresh (READY lists it
unavailable; no event says it went down). Before, it was never counted as down and its turns
timed out meanwhile; now a server known by its id alone counts as down."""

from __future__ import annotations

from typing import Any

import pytest

from tests.discord.gateway_events import (
    new_session_without_guild_creates,
    twenty_seconds_into_a_turn,
)

pytestmark = pytest.mark.parametrize("database", ["sqlite"], indirect=True)


async def test_a_turn_running_out_in_an_outage_seen_at_a_new_session_is_not_timed_out(
    simcord_env: Any,
) -> None:
    """UNO with a 60 s turn timer. 20 s into ann's turn the bot's gateway session is lost and
    it identifies afresh; Discord has lost ann's server meanwhile (READY lists it
    unavailable, no GUILD_CREATE for two minutes). Her deadline passes in the outage: a bot
    moves for her with a strike, for time in which nobody could press the table."""
    env = simcord_env
    table, player, before, guild_id = await twenty_seconds_into_a_turn(env)
    await new_session_without_guild_creates(env)
    guild = env.bot.get_guild(guild_id)
    assert guild is not None and guild.unavailable  # known by its id alone: Discord's outage
    await env.advance_time(120)  # her deadline passes while the server is still out
    session = await table.session()
    seat = session.seat(int(player))
    assert seat is not None
    assert (session.version, seat.strikes) == (before, 0), session.public_log[-2:]
