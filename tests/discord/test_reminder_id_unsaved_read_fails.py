"""Turn reminders on PostgreSQL (a shared store: ``sessions.get`` reads it)."""

from __future__ import annotations

from typing import Any

import pytest

from db import StoreUnavailable
from tests.discord.driver import Table, posted_in

pytestmark = pytest.mark.parametrize("database", ["postgresql"], indirect=True)


async def test_a_read_failing_after_the_reminder_is_stored_does_not_ping_again(
    simcord_env: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On PostgreSQL, ``post_nudge`` posts the reminder, stores its id, then reads the game
    again (``sessions.get`` -> ``refresh`` -> ``game_rev``) to see whether the turn was
    played meanwhile. That read meets the database failing for a moment (a failover): the
    job raises, the presenter tries it again, and the retry, seeing the player still
    awaited and the stored id as "the previous reminder", posts a second reminder pinging
    the same player for the same turn and deletes the first. That was before; now the check
    after a reminder is posted and stored is best effort, and it is never posted again."""
    env = simcord_env
    monkeypatch.setattr("cogs.presenter.RETRY_AFTER", 1.0)
    table = await Table.start(env, "uno", 2, seed=7)
    await env.settle()
    store = env.bot.store
    real_set, real_rev = store.set_nudge_message, store.game_rev
    armed = [0]

    async def set_nudge_message(game_id: int, message_id: int | None) -> Any:
        result = await real_set(game_id, message_id)
        if message_id is not None and armed[0] == 0:
            armed[0] = 1  # the next read fails
        return result

    async def game_rev(game_id: int) -> Any:
        if armed[0] == 1:
            armed[0] = 2
            raise StoreUnavailable("The database failed: the server is restarting.")
        return await real_rev(game_id)

    monkeypatch.setattr(store, "set_nudge_message", set_nudge_message)
    monkeypatch.setattr(store, "game_rev", game_rev)
    start = len(env.http_requests)
    await env.advance_time(30)
    await env.advance_time(30)
    await env.bot.presenter.idle()
    assert armed[0] == 2, "the read after storing did not fail: the test tests nothing"
    posts = posted_in(env, table.channel.id, start, "your turn")
    assert len(posts) == 1, f"{len(posts)} reminders posted for one turn: {posts}"
