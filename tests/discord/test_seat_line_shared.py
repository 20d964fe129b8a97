"""Seat changes in the log (and /replay), with several processes sharing PostgreSQL."""

from __future__ import annotations

from typing import Any

import pytest

from tests.discord.driver import Table
from tests.discord.test_reminder_other_process import move_in_another_process
from tests.discord.test_seat_change_endings import leave
from tests.discord.test_turn_clocks import a_move, current


async def test_a_leave_that_meets_a_move_on_another_shard_is_still_in_the_log(
    simcord_env: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two processes share the database. A member confirms /leave in this process while the
    current player's move lands through the other one just before the seat change is
    written: the seat is stored, the clocks worked out again. Before, that path dropped the
    seat's line: the log and /replay never said the member left. Now it keeps it."""
    env = simcord_env
    if not env.bot.sessions.shared:
        pytest.skip("one process on SQLite: no other process can move the game")
    table = await Table.start(env, "uno", 3, seed=5)
    mover = await current(table)
    leaver = next(p for p in table.members if p != mover)
    action = await a_move(table, mover)
    store = env.bot.store
    real = store.set_seat
    raced = []

    async def set_seat(*args: Any, **kwargs: Any) -> bool:
        if not raced:
            raced.append(True)
            await move_in_another_process(env, table.game_id, mover, action)
        return await real(*args, **kwargs)

    monkeypatch.setattr(store, "set_seat", set_seat)
    await leave(table, leaver)
    assert raced, "the seat change did not go through store.set_seat"
    seat = (await table.session()).seat(int(leaver))
    assert seat is not None and seat.is_bot, "the leaver's seat was not handed to a bot"
    for _ in range(4):  # the game goes on: the bot playing cy's seat, the others
        await env.advance_time(5)
        who = await current(table)
        if who != leaver:
            await table.act(who, await a_move(table, who), via="picker")
    await env.bot.presenter.idle()
    name = (await table.session()).seat(int(leaver)).name  # type: ignore[union-attr]
    notes = await store.move_notes(table.game_id)
    lines = [line for n in notes.values() for line in n.get("before", [])]
    log = (await env.bot.store.get_game(table.game_id)).log.get("public", [])  # type: ignore[union-attr]
    assert any("left the game" in line for line in lines), (
        f"{name} left (a bot has played her seat since), but no move's log says so: "
        f"notes {notes}, table log {log}"
    )
