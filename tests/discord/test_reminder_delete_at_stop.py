"""Drawing under a misbehaving Discord: turn reminders across a restart."""

from __future__ import annotations

from typing import Any

from tests.discord.driver import Table
from tests.discord.restarts import graceful_restart
from tests.discord.test_turn_clocks import NUDGE, a_move, current, nudges


async def test_an_old_reminder_whose_delete_failed_is_not_left_by_a_restart(
    simcord_env: Any, make_bot: Any
) -> None:
    """ann is reminded of her turn and plays; bea is reminded next, and the bot deletes
    ann's old reminder, but Discord answers that DELETE with a 5xx. The delete is tried
    again 30 s later (``Timers._delete``), but the owner deploys (SIGTERM) meanwhile: the
    task dies with the process, ``bot.close()`` does not wait for it, and nothing after the
    start knows of that message (the game stores only the newest reminder). "@ann, your
    turn" stays in the channel for good above bea's reminder, with its My hand and Stop
    reminding me buttons: two reminders standing, one for a turn long played. That was
    before; now the stop tries the deletes it owes once more, as it does the presenter's."""
    env = simcord_env
    table = await Table.start(env, "uno", 2, seed=5)
    first = await current(table)
    await env.advance_time(NUDGE + 1)
    (old,) = nudges(table)
    assert f"<@{first}>" in (old.content or "")
    await table.act(first, await a_move(table, first), via="dm")
    second = await current(table)
    assert second != first
    env.inject_error("DELETE", f"/channels/{table.channel.id}/messages/{old.id}", times=1)
    await env.advance_time(NUDGE + 1)  # bea's reminder; deleting ann's fails once
    assert any(f"<@{second}>" in (m.content or "") for m in nudges(table))
    await graceful_restart(env, make_bot)
    await env.advance_time(900)
    await env.settle()
    assert await current(table) == second
    standing = [m.content for m in nudges(table) if f"<@{first}>" in (m.content or "")]
    assert standing == [], f"a reminder for a turn already played stands for good: {standing}"
