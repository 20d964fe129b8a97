"""A channel deleted (CHANNEL_DELETE heard) at the moment the database blinks. Before, the
error escaped as a traceback and nothing looked again: the game stayed open; now the
deletion is looked at again by housekeeping until its game is ended."""

from __future__ import annotations

from typing import Any

import pytest

from db import StoreUnavailable
from tests.discord.driver import Table

pytestmark = pytest.mark.parametrize("database", ["sqlite"], indirect=True)


async def test_a_channel_deletion_heard_during_a_database_blink_still_ends_its_game(
    simcord_env: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """#games is deleted while PostgreSQL restarts. ``Lobby.on_guild_channel_delete`` lets
    the StoreUnavailable escape (a traceback: "Ignoring exception in on_guild_channel_delete")
    and never looks again, unlike ``on_guild_remove`` (``_left_unchecked``): the game stays
    active until some later Discord call on the channel happens to fail with 10003 (here the
    turn reminder), and not at all while nobody moves and no reminder is due."""
    env = simcord_env
    table = await Table.start(env, "uno", 2, seed=7, turn_timer=0)
    await table.some_move()
    await env.settle()
    kind = type(table.bot.store)
    real = kind.open_game_in_channel
    looks: list[int] = []

    async def down_at_first(self: Any, channel_id: int) -> Any:
        looks.append(channel_id)
        if len(looks) == 1:
            raise StoreUnavailable("PostgreSQL at localhost:5432 is unavailable")
        return await real(self, channel_id)

    monkeypatch.setattr(kind, "open_game_in_channel", down_at_first)
    env.backend.delete_channel(table.channel.id)
    await env.settle()
    await env.advance_time(10 * 60)
    await env.bot.presenter.idle()
    escaped = env.errors  # what reached discord.py's on_error ("Ignoring exception in ...")
    assert escaped == [], escaped
    assert (await table.session()).row.status == "cancelled"
