"""A turn that runs out during Discord's outage of the game's server. Before, the clock started
over during the outage, and the member might get a few seconds once the server was back;
now every turn of the server's games starts over in full when it is back."""

from __future__ import annotations

from typing import Any

import pytest

from tests.discord.gateway_events import server_outage, twenty_seconds_into_a_turn

pytestmark = pytest.mark.parametrize("database", ["sqlite"], indirect=True)


async def test_a_turn_run_out_in_a_server_outage_gets_its_full_time_once_it_is_back(
    simcord_env: Any,
) -> None:
    """UNO with a 60 s turn timer; 20 s into ann's turn Discord loses her server for 95 s.
    Her deadline (60 s) passes in the outage and starts over then (to 120 s); the server is
    back at 115 s and 10 s later a bot moves for her with a strike: she had 5 s of pressable
    time, not her turn "over in full"."""
    env = simcord_env
    table, player, before, guild_id = await twenty_seconds_into_a_turn(env)
    await server_outage(env, guild_id, 95)  # her deadline passes in the outage
    await env.advance_time(10)  # a sixth of her turn's time, the server back
    session = await table.session()
    seat = session.seat(int(player))
    assert seat is not None
    assert (session.version, seat.strikes) == (before, 0), (
        "timed out 10 s after her server came back",
        session.public_log[-2:],
    )
