"""The per-game lock of ``Sessions``: one change of a game at a time, and nothing kept once
nobody holds or waits for it (before: a lock per game ever clicked stayed for the process's
life, forged game ids included)."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from cogs.sessions import Sessions


class _Store:
    shared = False
    revised: Any = None


async def test_a_game_lock_serialises_and_is_dropped_once_nobody_uses_it() -> None:
    sessions = Sessions(_Store())  # type: ignore[arg-type]
    inside: list[int] = []
    seen: list[tuple[int, int]] = []

    async def change(game: int, tag: int) -> None:
        async with sessions.lock(game):
            inside.append(tag)
            await asyncio.sleep(0.01)
            seen.append((tag, len([t for t in inside if t // 10 == tag // 10])))
            inside.remove(tag)

    await asyncio.gather(*(change(1, 10 + i) for i in range(3)), change(2, 20))
    # Never two changes of one game at once; another game did not wait for them.
    assert all(count == 1 for _, count in seen)
    assert seen[0][0] == 10 and seen.index((20, 1)) < 3
    assert sessions._locks == {}


async def test_a_waiter_cancelled_leaves_nothing_behind() -> None:
    sessions = Sessions(_Store())  # type: ignore[arg-type]
    held = asyncio.Event()
    release = asyncio.Event()

    async def holder() -> None:
        async with sessions.lock(5):
            held.set()
            await release.wait()

    async def waiter() -> None:
        async with sessions.lock(5):
            raise AssertionError("never gets the lock")

    first = asyncio.create_task(holder())
    await held.wait()
    second = asyncio.create_task(waiter())
    await asyncio.sleep(0)
    second.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await second
    assert 5 in sessions._locks  # still held
    release.set()
    await first
    assert sessions._locks == {}
