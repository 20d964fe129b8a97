"""Presses on an ended game's stale table (``Play._stale_buttons``) while Discord fails."""

from __future__ import annotations

from typing import Any

import pytest
from simcord.backend import serializers

from tests.discord.driver import Table, controls

pytestmark = [pytest.mark.simcord(settle_timeout=1.0)]


async def test_presses_on_a_stale_table_while_discord_fails_edit_it_once_per_try(
    simcord_env: Any,
) -> None:
    """The bot is removed from a server mid-game (the game ends, its table keeps its
    buttons) and invited back. Discord is failing edits for a while (a 5xx), and the two
    players, seeing nothing happen, press the old table's buttons a few times each. Every
    press now queues its own ``redraw_ended_table`` closure (they are never equal, so
    ``_wait_retry``'s merge keeps them all): each retry pass edits the same message once per
    press, all refused, and every press also resets the merged retry count (``min``).
    Before, a press asked for the table (``shown.table = None``), which coalesces into one
    edit per pass. That was before; now presses redraw it at most once a minute: one edit
    per try."""
    env = simcord_env
    table = await Table.start(env, "uno", 2, seed=7, turn_timer=0)
    await table.some_move()
    await env.settle()
    guild_id, channel_id = table.channel.guild.id, table.channel.id
    fault = {
        "method": "*",
        "path": f"/channels/{channel_id}*",
        "status": 403,
        "code": 50001,
        "message": "Missing Access",
        "times": None,
    }
    env.backend.faults.append(fault)
    env.backend.emit("GUILD_DELETE", {"id": str(guild_id)})
    await env.settle()
    assert (await table.session()).row.status == "cancelled"
    await env.advance_time(600)
    env.backend.faults.remove(fault)  # invited back
    guild = env.backend.guilds[guild_id]
    env.backend.emit("GUILD_CREATE", serializers.guild_create_payload(env.backend, guild))
    await env.settle()

    message = table.table_message()
    env.inject_error("PATCH", f"/channels/{channel_id}/messages/{message.id}", times=None)
    for member in [*table.members.values()] * 3:  # six presses in all
        play = next(c for c in controls(message) if c.custom_id.startswith("g:"))
        await member.click(message, custom_id=play.custom_id)
        await env.advance_time(1)
    mark = len(env.backend.http_requests)
    await env.advance_time(120)
    edits = [
        e
        for e in env.backend.http_requests[mark:]
        if e.method == "PATCH" and e.path.endswith(f"/messages/{message.id}")
    ]
    # Retries 5, 10, 15 s then a minute apart: at most 4 passes in these two minutes.
    assert len(edits) <= 4, (
        f"the stale table was edited {len(edits)} times in two minutes, every edit refused "
        "(one edit per press per retry)"
    )
