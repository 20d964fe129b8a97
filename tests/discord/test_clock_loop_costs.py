"""What the clock loop costs: each fired clock (a reminder, a timeout) and each move that sets
an earlier clock wakes the loop, and a wake must cost one look at the nearest clock, not the
start-up's hand-back of old claims."""

from __future__ import annotations

from typing import Any

from tests.discord.driver import Table


async def test_moves_do_not_repeat_the_start_ups_hand_back_of_old_claims(simcord_env) -> None:
    """Alone on the database, the clock loop hands back at start the claims a stopped process
    left (``Timers._drop_old_claims``): a query reading the clocks of every game that wakes
    within the next 30 s. Before, every ``wake()`` started the loop over, start-up step
    included, so each fired reminder ran that query again: at 500 live games, the
    clocks of a few hundred games decoded per move, 3% of the bot's CPU in the load
    benchmark. Now it runs once per start."""
    env = simcord_env
    table = await Table.start(env, "uno", 2, seed=3, turn_timer=120)
    timers: Any = table.bot.get_cog("Timers")
    calls: list[tuple[float, float]] = []
    original = table.bot.store.wakes_between

    async def counted(start: float, end: float) -> list[tuple[int, dict[str, Any], float]]:
        calls.append((start, end))
        return await original(start, end)

    table.bot.store.wakes_between = counted  # type: ignore[method-assign]
    woken = 0
    real_wake = timers.wake

    def counted_wake() -> None:
        nonlocal woken
        woken += 1
        real_wake()

    timers.wake = counted_wake
    for _ in range(3):
        await table.some_move()
        await env.advance_time(30)  # the next player's reminder fires: a wake
    assert woken, "no move woke the clock loop: the test no longer measures a wake"
    assert calls == [], f"{len(calls)} hand-backs of old claims after {woken} wakes"
