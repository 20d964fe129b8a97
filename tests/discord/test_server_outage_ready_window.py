"""A new gateway session: between READY (every server listed unavailable) and on_ready
(discord.py waits ``guild_ready_timeout``, 2 s by default, after the last GUILD_CREATE), a
server Discord has lost was not yet counted as down, and a deadline passing in that window
timed its member out. Now a server known by its id alone gives back its deadlines (without
counting as an outage whose end restarts every turn in full)."""

from __future__ import annotations

from typing import Any

import pytest
from simcord import _dpy_internals

from tests.discord.gateway_events import emit_ready, twenty_seconds_into_a_turn

pytestmark = pytest.mark.parametrize("database", ["sqlite"], indirect=True)


async def test_deadline_between_ready_and_on_ready_of_a_lost_server_is_given_back(
    simcord_env: Any, monkeypatch: Any
) -> None:
    env = simcord_env
    table, player, before, guild_id = await twenty_seconds_into_a_turn(env)  # deadline in 40 s
    bot = env.bot
    state = _dpy_internals.get_state(bot)
    held: list[tuple[str, tuple[Any, ...]]] = []
    dispatch = state.dispatch

    def holding(event: str, *args: Any, **kwargs: Any) -> None:
        if event == "ready":
            held.append((event, args))
            return
        dispatch(event, *args, **kwargs)

    monkeypatch.setattr(state, "dispatch", holding)
    await env.advance_time(39)
    emit_ready(env)  # a new session; the server's GUILD_CREATE does not come
    await env.settle()
    await env.advance_time(1.5)  # her deadline passes before on_ready
    assert bot.get_guild(guild_id).unavailable
    monkeypatch.setattr(state, "dispatch", dispatch)
    for event, args in held:
        bot.dispatch(event, *args)  # on_ready, 2 s after READY: the server still unavailable
    await env.settle()
    await env.advance_time(5)
    assert bot.get_guild(guild_id).unavailable
    session = await table.session()
    seat = session.seat(int(player))
    assert seat is not None
    assert held, "no on_ready was held back"
    assert (session.version, seat.strikes) == (before, 0), (
        "timed out while her server was unavailable",
        session.public_log[-2:],
    )
