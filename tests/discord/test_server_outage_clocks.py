"""Turn clocks during an outage of Discord's for the game's server (GUILD_DELETE marked
unavailable, then GUILD_CREATE): nobody in the server can press the table's buttons then."""

from __future__ import annotations

from typing import Any

import pytest

from tests.discord.gateway_events import server_outage, twenty_seconds_into_a_turn

pytestmark = pytest.mark.parametrize("database", ["sqlite"], indirect=True)


async def test_a_turn_that_runs_out_during_a_server_outage_starts_over(simcord_env: Any) -> None:
    """UNO with a 60 s turn timer; 20 s into ann's turn Discord loses her server for two
    minutes. Before, her deadline ran on: a bot moved for her and she got a strike (three
    make a bot take her seat) for time in which the server's buttons could not be pressed.
    Now a deadline that falls in the server's outage starts over, as after a restart."""
    env = simcord_env
    table, player, before, guild_id = await twenty_seconds_into_a_turn(env)
    await server_outage(env, guild_id, 120)  # her deadline passes in the outage
    await env.advance_time(5)
    session = await table.session()
    seat = session.seat(int(player))
    assert seat is not None
    assert (session.version, seat.strikes) == (before, 0), session.public_log[-2:]
    await env.advance_time(61)  # her turn's full time again, then the clock works as ever
    session = await table.session()
    seat = session.seat(int(player))
    assert seat is not None and seat.strikes == 1 and session.version > before
