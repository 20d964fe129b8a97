"""Lookups on open games use their partial indexes: nothing scans the games ever played."""

from __future__ import annotations

import re
from typing import Any

import pytest

from db import Store
from db.script import Script, run


class Recorder:
    """Remembers every query the store's reads run, to look at their plans."""

    def __init__(self, store: Store) -> None:
        self.backend = store.backend
        self.seen: list[tuple[str, tuple[Any, ...]]] = []
        self.backend.trace = lambda sql, args: self.seen.append((sql, args))  # type: ignore[attr-defined]

    async def plan(self, sql: str, args: tuple[Any, ...]) -> str:
        self.backend.trace = None  # type: ignore[attr-defined]
        return await self.backend.explain(sql, args)  # type: ignore[attr-defined, no-any-return]


@pytest.fixture
async def store(tmp_path):
    store = await Store.open(tmp_path / "games.db")

    def fill() -> Script[None]:
        for i in range(300):
            yield run(
                "INSERT INTO games (guild_id, channel_id, kind, host_id, status, seed,"
                " created_at, updated_at, announced) VALUES (1, ?, 'uno', 1, 'finished', 0,"
                " 0, 0, 1)",
                1000 + i,
            )
        for i in range(300):
            yield run(
                "INSERT INTO stats (guild_id, user_id, kind, played, won, ordinal, rated)"
                " VALUES (?, ?, 'uno', 5, 2, ?, 5)",
                1 + i % 3,
                i,
                i / 10,
            )
            yield run("INSERT INTO players (user_id, hidden) VALUES (?, ?)", i, i % 7 == 0)
        yield run("ANALYZE")

    # Enough finished games that a scan would be the planner's choice without an index.
    await store.backend.write(fill())
    yield store
    await store.close()


@pytest.mark.parametrize(
    ("call", "index"),
    [
        (lambda s: s.open_game_in_channel(10), "games_open_channel"),
        (lambda s: s.open_games_in_guild(1), "games_open_guild"),
        (lambda s: s.stale_lobbies(123.0), "games_lobby_age"),
        (lambda s: s.due_games(123.0), "games_wake"),
        (lambda s: s.next_wake(), "games_wake"),
        (lambda s: s.unannounced(), "games_unannounced"),
        (lambda s: s.undrawn(), "games_undrawn"),
        (lambda s: s.leaderboard(1, "uno", 3), "stats_rank"),
        (lambda s: s.rank(1, "uno", 2.5, 3), "stats_rank"),
        (lambda s: s.member_stats(1, 7), "sqlite_autoindex_stats_1"),
        (lambda s: s.history(1), "games_history"),
        (lambda s: s.closed_dms(), "games_open_guild"),  # read at start
    ],
)
async def test_open_game_queries_use_their_partial_index(store: Store, call, index: str) -> None:
    recorder = Recorder(store)
    await call(store)
    assert recorder.seen, "the call ran no query"
    for sql, args in recorder.seen:
        plan = await recorder.plan(sql, args)
        # "SCAN games USING INDEX <partial>" walks only the open (or unannounced) games; the
        # hidden members' list is read through its own partial index.
        assert index in plan, plan
        assert not re.search(r"SCAN (games|stats|players)(?! USING)", plan), plan


async def test_ends_left_unshown_are_found_through_their_own_index(store: Store) -> None:
    recorder = Recorder(store)
    await store.undrawn(ended_since=0.0)
    plans = [await recorder.plan(sql, args) for sql, args in recorder.seen]
    assert len(plans) == 2, plans
    running, ended = plans
    assert re.search(r"USING INDEX games_undrawn\b", running), running
    assert "USING INDEX games_undrawn_ended" in ended, ended


async def test_a_members_recent_lobbies_are_found_through_their_own_index(store: Store) -> None:
    """``create_lobby`` counts the member's lobbies of the last minutes (the lobby churn
    limit): through ``games_host_created``, not the games of the server ever played."""
    from db.store import RECENT_LOBBIES

    plan = await store.backend.explain(RECENT_LOBBIES, (1, 0.0, 1))  # type: ignore[attr-defined]
    assert "games_host_created" in plan, plan
    assert not re.search(r"SCAN games(?! USING)", plan), plan
