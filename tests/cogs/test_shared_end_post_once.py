"""Two processes on one PostgreSQL: a game's end is posted once.

The end post is claimed for ANNOUNCE_LEASE; the flag ``announced`` is stored after the post.
When storing the flag fails (the connection to PostgreSQL is lost just after the post, a
server restart or failover taking over a minute), the posting process remembers in memory
only (``Endings._posted``) that it posted, and its retries store the flag. Before, the lease
was a minute: another process's catch-up (every 30 s) could claim the end again before those
retries were over and post it a second time (two "🏆 ... wins" posts, two Play again
buttons). The lease now covers the retries.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from types import SimpleNamespace
from typing import Any

import pytest

import cogs.endings as endings
from cogs.endings import Endings
from db import Store, StoreUnavailable
from tests.db.test_shared import started


@pytest.fixture
async def two(pg_url: str) -> AsyncIterator[tuple[Store, Store]]:
    a, b = await asyncio.gather(Store.open(pg_url), Store.open(pg_url))
    yield a, b
    await asyncio.gather(a.close(), b.close())


def process(store: Store, posts: list[str]) -> Endings:
    async def post(
        session: Any, text: str, ping: Any = None, screen: Any = None, nonce: Any = None
    ) -> int:
        posts.append(text)
        return len(posts)

    bot: Any = SimpleNamespace(
        sessions=SimpleNamespace(shared=True),
        store=store,
        presenter=SimpleNamespace(post=post),
        settings=SimpleNamespace(clock_poll=2.0),
    )
    return Endings(bot)


def finished_session(game_id: int) -> Any:
    row = SimpleNamespace(id=game_id, announced=False, ratings={})
    game = SimpleNamespace(outcome=SimpleNamespace(winners=["100"]))
    return SimpleNamespace(id=game_id, row=row, game=game, seats=[])


async def test_an_end_posted_whose_flag_could_not_be_stored_is_not_posted_again(
    two, monkeypatch: pytest.MonkeyPatch
) -> None:
    a, b = two
    monkeypatch.setattr(endings, "end_post", lambda session: "🏆 Alice wins game")
    game = await started(a, 10)
    await a.record_move(game, 0, 100, "win", {"n": 1}, {}, status="finished")
    posts: list[str] = []
    first, second = process(a, posts), process(b, posts)

    # Process A posts the end; storing the flag then fails (PostgreSQL went away).
    mark = a.mark_announced

    async def lost(game_id: int) -> None:
        raise StoreUnavailable("The connection to PostgreSQL was lost while saving.")

    a.mark_announced = lost  # type: ignore[method-assign]
    with pytest.raises(StoreUnavailable):
        await first.announce(finished_session(game))
    assert posts == ["🏆 Alice wins game"]

    # The outage lasts over a minute; process B's catch-up gets there before A's retry.
    b.clock = lambda: time.time() + 61
    await second.announce(finished_session(game))

    # A's retry stores the flag (its memory says it posted).
    a.mark_announced = mark  # type: ignore[method-assign]
    await first.announce(finished_session(game))
    assert (await a.get_game(game)).announced  # type: ignore[union-attr]
    assert posts == ["🏆 Alice wins game"], f"the end was posted {len(posts)} times"
