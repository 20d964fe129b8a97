"""Rate limits on turn reminders: one held up by a 429 must not ping a turn already played."""

from __future__ import annotations

from typing import Any

import pytest

from tests.discord.driver import Table
from tests.discord.test_slow_discord import slow_rest
from tests.discord.test_turn_clocks import NUDGE, a_move, current, nudges


async def test_a_reminder_held_up_by_a_429_does_not_ping_a_turn_already_played(
    simcord_env: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first player's reminder is due, and its POST is held up (the channel's message
    bucket is exhausted: discord.py waits out the 429, 8 s here). They play meanwhile, from
    their DM. The reminder then lands after the move: "@them, your turn" pings them for a
    turn they have played. Before, it stayed in the channel, untrue, until another reminder
    replaced it (``Timers.post_nudge`` looked at whom the game awaits only before the
    call). Now a reminder that lands for a turn already played is deleted."""
    table = await Table.start(simcord_env, "uno", 2, seed=5)
    first = await current(table)
    slow_rest(monkeypatch, "POST", f"/channels/{table.channel.id}/messages", 8.0)
    await simcord_env.advance_time(NUDGE + 1)  # the reminder's POST is on its way
    assert await current(table) == first
    await table.act(first, await a_move(table, first), via="dm")
    assert await current(table) != first
    await simcord_env.advance_time(10)  # the POST lands (before the next player's reminder)
    assert await current(table) != first
    standing = [m for m in nudges(table) if f"<@{first}>" in (m.content or "")]
    assert standing == [], (
        f"a reminder pinging {first} stands in the channel for a turn already played: "
        f"{[m.content for m in standing]}"
    )


async def test_a_slow_reminder_delete_does_not_hold_up_the_table_after_a_move(
    simcord_env: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """bea's reminder is due; the bot first deletes the game's previous reminder, and message
    deletes have a tight per-channel rate limit (discord.py waits out the 429: 8 s here).
    bea plays from her DM a moment later. The game's presenter runs the reminder job and the
    draws one after the other, so the table (and ann's DM, which should now say it is her
    turn) waited behind that cleanup DELETE: for 8 s the table showed bea still to play.
    Now the new reminder is posted first and the old one deleted after, off the game's
    drawing queue."""
    table = await Table.start(simcord_env, "uno", 2, seed=5)
    first = await current(table)
    await simcord_env.advance_time(NUDGE + 1)  # first's reminder: the one deleted later
    assert len(nudges(table)) == 1
    await table.act(first, await a_move(table, first), via="dm")
    second = await current(table)
    assert second != first
    await simcord_env.advance_time(2)
    slow_rest(monkeypatch, "DELETE", "/messages/", 8.0)
    await simcord_env.advance_time(NUDGE)  # second's reminder job: the slow delete is on
    table_id = (await table.session()).row.table_message_id
    mark = len(simcord_env.backend.http_requests)
    await table.act(second, await a_move(table, second), via="dm")
    await simcord_env.advance_time(2)
    edits = [
        e
        for e in simcord_env.backend.http_requests[mark:]
        if e.method == "PATCH" and e.path.endswith(f"/messages/{table_id}")
    ]
    assert edits, (
        "2 s after a move made from a DM the table is not edited: its edit waits behind "
        "the deletion of an old turn reminder (a rate-limited DELETE)"
    )
