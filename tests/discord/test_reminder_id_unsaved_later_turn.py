"""``Timers._nudges_unsaved`` and a retry that finds nobody awaited any more."""

from __future__ import annotations

from typing import Any

import pytest

from tests.discord.driver import posted_in
from tests.discord.test_reminder_id_unsaved import reminded_unsaved
from tests.discord.test_turn_clocks import NUDGE, a_move, current


async def test_a_player_is_reminded_of_a_later_turn_after_an_unsaved_reminder(
    simcord_env: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ann is reminded of her turn but the database refuses to store the reminder's id for
    a moment (``_nudges_unsaved[game] = (id, (ann,), ...)``). ann plays before the
    presenter's retry, which then finds nobody awaited and returns before looking at
    ``_nudges_unsaved``: the entry stays. bea plays; it is ann's turn again and her
    reminder is due: ``post_nudge`` meets the stale entry, finds ann among those "already
    reminded" and returns. ann is never pinged for this turn (and the stored reminder id is
    the one from her previous turn). That was before; now the unsaved id is stored first,
    whatever the call, and only a retry of the very job that posted it posts nothing: a new
    turn gets its reminder."""
    env = simcord_env
    table, ann = await reminded_unsaved(env, monkeypatch)
    for _ in range(3):
        await table.act(ann, await a_move(table, ann), via="dm")
        if await current(table) != ann:
            break
    bea = await current(table)
    assert bea != ann, "the move did not pass the turn: pick another seed"
    await env.advance_time(14)  # the retry: nobody it reminded is awaited
    for _ in range(3):
        await table.act(bea, await a_move(table, bea), via="dm")
        if await current(table) == ann:
            break
    assert await current(table) == ann, "not ann's turn again: pick another seed"
    start = len(env.http_requests)
    await env.advance_time(NUDGE + 5)
    await env.bot.presenter.idle()
    pings = posted_in(env, table.channel.id, start, f"<@{ann}>")
    assert pings, f"ann's new turn got no reminder within {NUDGE + 5} s"
