"""A leap of the host's wall clock (an NTP step, a VM resumed after a pause) while games run:
turns are not cut short, and the table shows each deadline as players' clients count it."""

from __future__ import annotations

import re

import discord

from cogs import clock
from tests.discord.driver import Table, message_text
from tests.discord.test_turn_clocks import a_move, current

TIMER = 30


async def test_a_turn_is_not_timed_out_early_after_a_wall_clock_leap(
    simcord_env, monkeypatch
) -> None:
    """Before, every read of the steady clock during the catch-up ran it 0.05 s ahead: with
    another table playing briskly, a member was timed out after 24 s of a 30 s turn."""
    slow = await Table.start(simcord_env, "uno", 2, "slow", seed=5, turn_timer=TIMER)
    busy = await Table.start(simcord_env, "uno", 2, "busy", seed=9, turn_timer=0)
    waiting = await current(slow)
    real_wall = clock.now._wall
    monkeypatch.setattr(clock.now, "_wall", lambda: real_wall() + 3600)
    for _ in range(60):  # another table plays 60 moves in no virtual time
        player = await current(busy)
        await busy.act(player, await a_move(busy, player), via="dm")
    await simcord_env.advance_time(TIMER - 6)
    seat = (await slow.session()).seat(int(waiting))
    assert seat is not None and seat.strikes == 0, "timed out after 24 s of a 30 s turn"
    assert await current(slow) == waiting


async def test_the_deadline_shown_after_a_leap_is_not_in_the_past(simcord_env, monkeypatch) -> None:
    """Before, the table showed the steady deadline, which lags the corrected wall clock by the
    leap for days (1% catch-up): each new turn read "Time runs out 59 minutes ago"."""
    table = await Table.start(simcord_env, "uno", 2, seed=5, turn_timer=TIMER)
    real_wall = clock.now._wall
    monkeypatch.setattr(clock.now, "_wall", lambda: real_wall() + 3600)
    await simcord_env.advance_time(1)
    mover = await current(table)
    await table.act(mover, await a_move(table, mover), via="dm")
    while await current(table) == mover:  # a draw leaves the turn open
        await table.act(mover, await a_move(table, mover), via="dm")
    await table.bot.presenter.idle()
    shown = re.search(r"Time runs out <t:(\d+):R>", message_text(table.table_message()))
    assert shown is not None
    wall_now = discord.utils.utcnow().timestamp() + 3600  # the host's corrected wall clock
    assert wall_now + TIMER - 2 <= int(shown.group(1)) <= wall_now + TIMER, (
        f"the new turn's deadline is shown {wall_now - int(shown.group(1)):.0f} s in the past"
    )
