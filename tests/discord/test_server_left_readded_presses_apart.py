"""Presses on an ended game's stale table, a minute apart, while Discord fails its edits."""

from __future__ import annotations

from typing import Any

import pytest
from simcord.backend import serializers

from tests.discord.driver import Table, controls

pytestmark = [pytest.mark.simcord(settle_timeout=1.0)]


async def test_presses_a_minute_apart_on_a_stale_table_do_not_pile_up_edits(
    simcord_env: Any,
) -> None:
    """The bot is removed from a server mid-game (the game ends, its table keeps its
    buttons) and invited back while Discord fails edits of that message (503s). A player,
    seeing nothing happen, presses a button once a minute for four minutes. The throttle
    lets one press a minute through, but each one still queues its own ``redraw_ended_table``
    closure, and each keeps its own count of tries in the merged retry: every retry pass
    then edits the same message once per press still owed (several identical edits in the
    same instant, all refused), and each new press's fresh schedule (5, 10, 15 s) drags the
    older ones along. That was before; now the redraws of one message are one job, and a
    pass edits the table once."""
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
    path = f"/channels/{channel_id}/messages/{message.id}"
    env.inject_error("PATCH", path, status=503, message="Service Unavailable", times=None)
    member = next(iter(table.members.values()))
    most = 0
    for _ in range(4):  # a press a minute, four minutes
        play = next(c for c in controls(message) if c.custom_id.startswith("g:"))
        await member.click(message, custom_id=play.custom_id)
        for _ in range(61):
            mark = len(env.backend.http_requests)
            await env.advance_time(1)
            edits = sum(
                1
                for e in env.backend.http_requests[mark:]
                if e.method == "PATCH" and e.path.endswith(f"/messages/{message.id}")
            )
            most = max(most, edits)
    assert most <= 1, (
        f"one retry pass edited the stale table {most} times at once, every edit refused "
        "(one edit per press still owed)"
    )
