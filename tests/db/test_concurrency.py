"""Concurrent writers share one store: their transactions never mix (issue: many tables)."""

from __future__ import annotations

import asyncio

import pytest

from db import ChannelBusy, StaleVersion, Store
from db.script import run, single


@pytest.fixture
async def store(database: str):
    store = await Store.open(database)
    yield store
    await store.close()


async def started(store: Store, channel: int) -> int:
    game = await store.create_lobby(1, channel, "uno", 100, "Host", {}, seed=1)
    await store.start_game(game.id, {"n": 0}, {})
    return game.id


async def test_moves_in_two_games_at_the_same_instant_both_commit(store: Store) -> None:
    games = [await started(store, channel) for channel in (10, 11)]
    for version in range(40):
        results = await asyncio.gather(
            *(store.record_move(g, version, 100, "draw", {"n": version + 1}, {}) for g in games),
            return_exceptions=True,
        )
        assert results == [version + 1, version + 1]
    for g in games:
        assert [seq for seq, _, _ in await store.moves(g)] == list(range(1, 41))


async def test_concurrent_lobbies_in_one_channel_one_wins_the_others_are_told_busy(
    store: Store,
) -> None:
    attempts = [
        store.create_lobby(1, 10, "uno", host, f"h{host}", {}, seed=host) for host in range(8)
    ]
    results = await asyncio.gather(*attempts, return_exceptions=True)
    made = [r for r in results if not isinstance(r, BaseException)]
    busy = [r for r in results if isinstance(r, ChannelBusy)]
    assert len(made) == 1 and len(busy) == 7


async def test_a_failing_transaction_never_undoes_anothers_acknowledged_write(
    store: Store,
) -> None:
    """An /endgame commits while another command's transaction fails and rolls back."""
    ended = await started(store, 10)
    other = await started(store, 11)
    for i in range(36):
        # A stale move on the other game fails inside its transaction at the same moment,
        # started just before or just after the /endgame's write.
        end = store.end_game(ended, "ended")
        fail = store.record_move(other, 999, 100, "draw", {}, {})
        first, second = (end, fail) if i % 2 else (fail, end)
        results = await asyncio.gather(first, second, return_exceptions=True)
        assert True in results and any(isinstance(r, StaleVersion) for r in results)
        row = await store.get_game(ended)
        assert row is not None and row.status == "cancelled"
        await store.backend.write(
            single(run("UPDATE games SET status = 'active' WHERE id = ?", ended))
        )
