"""A presenter retry waiting with an old copy of the game (Discord failed a table edit once),
then a move refused while the database blinks and the same move stored on a fresh copy."""

from __future__ import annotations

from typing import Any

from db import StoreUnavailable
from tests.discord.driver import Table, controls
from tests.discord.test_turn_clocks import a_move, current


async def a_retry_waiting(env: Any, monkeypatch: Any) -> tuple[Table, str, str]:
    """UNO: ann plays from her DM and Discord fails that table edit once (a 5xx), so a retry
    waits 5 s holding the game's copy. The table, ann and the player whose turn it is now."""
    # The clock loop looks every DOWN_LOOK during an outage: inside simcord's settle window
    # that would run in real time (what is tested is the drawing).
    monkeypatch.setattr("cogs.timers.DOWN_LOOK", 30.0)
    table = await Table.start(env, "uno", 2, seed=5)
    session = await table.session()
    channel_id, table_id = session.row.channel_id, session.row.table_message_id
    first = await current(table)
    env.inject_error("PATCH", f"/channels/{channel_id}/messages/{table_id}", status=500, times=1)
    await table.act(first, await a_move(table, first), via="dm")
    await env.bot.presenter.idle()
    second = await current(table)
    return table, first, second


async def refused_then_stored(env: Any, monkeypatch: Any, table: Table, second: str) -> None:
    """``second`` clicks a move in her DM while the database blinks (refused; the bot drops its
    cached copy), then makes it again (stored on a fresh copy, drawn)."""
    store = env.bot.store
    record = store.record_move
    failures = [StoreUnavailable("database is locked")]

    async def blinking(*args: Any, **kwargs: Any) -> Any:
        if failures:
            raise failures.pop()
        return await record(*args, **kwargs)

    monkeypatch.setattr(store, "record_move", blinking)
    move = await a_move(table, second)
    dm = table.dm_message(second)
    assert dm is not None
    dm = await table.open_dm_moves(second, dm, move)
    await table.members[second].user.click(
        dm, custom_id=next(c.custom_id for c in controls(dm) if c.custom_id.endswith(":" + move))
    )
    assert not failures and await current(table) == second  # refused, nothing changed
    await table.act(second, move, via="dm")
    await env.bot.presenter.idle()
