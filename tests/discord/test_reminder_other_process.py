"""No reminder for a turn played during its slow delete (``Timers.post_nudge``), when the
move was made by another process sharing the database (PostgreSQL shards)."""

from __future__ import annotations

import pytest

from bot import open_store
from cogs.clock import now
from cogs.sessions import Sessions
from tests.discord.driver import Table
from tests.discord.test_slow_discord import slow_rest
from tests.discord.test_turn_clocks import NUDGE, a_move, current, nudges


async def move_in_another_process(env, game_id: int, player: str, action: str) -> None:  # type: ignore[no-untyped-def]
    """The move lands through another process of the bot (another shard on the same
    PostgreSQL database): its own store and sessions, nothing of this process's memory."""
    store = await open_store(env.bot.settings)
    try:
        sessions = Sessions(store)
        async with sessions.lock(game_id):
            session = await sessions.get(game_id)
            assert session is not None
            await sessions.apply(session, int(player), action, now())
    finally:
        await store.close()


async def test_no_reminder_for_a_turn_played_on_another_shard_during_the_slow_delete(
    simcord_env, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two processes share the database. Bea's reminder is due; this process first deletes
    the game's previous reminder, and that DELETE is slow (Discord's tight limit on deletes).
    Meanwhile bea plays, through the other process (her click reached that shard). After the
    delete, ``post_nudge`` looks again at whom the game awaits, but only in this process's
    cached copy (``self.sessions.cached(row.id)``), which nothing refreshed: the channel gets
    "@bea, your turn" for a turn she had already played (before). Now the look after the
    delete reads the game as stored."""
    env = simcord_env
    if not env.bot.sessions.shared:
        pytest.skip("one process on SQLite: no other process can move the game")
    table = await Table.start(env, "uno", 2, seed=5)
    first = await current(table)
    await env.advance_time(NUDGE + 1)  # first's reminder: the one to delete later
    assert len(nudges(table)) == 1, "no first reminder"
    await table.act(first, await a_move(table, first), via="dm")
    second = await current(table)
    assert second != first
    slow_rest(monkeypatch, "DELETE", "/messages/", 8.0)
    await env.advance_time(NUDGE + 1)  # second's reminder is on its way (the delete)
    before = {m.id for m in table.public_messages()}
    version = (await env.bot.store.get_game(table.game_id)).version  # type: ignore[union-attr]
    await move_in_another_process(env, table.game_id, second, await a_move(table, second))
    stored = await env.bot.store.get_game(table.game_id)
    assert stored is not None and stored.version == version + 1, "the move was not stored"
    await env.advance_time(10)  # the delete lands, then the post
    posted_after = [m for m in nudges(table) if m.id not in before]
    pinging = [m for m in posted_after if f"<@{second}>" in (m.content or "")]
    assert pinging == [], f"a reminder pings {second} for a turn already played: {pinging}"
