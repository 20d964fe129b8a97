"""Growth of ``Endings._caught_up`` with a shared database: every process looks for finished
games whose end is not posted yet every CATCH_UP_EVERY seconds, and remembers each one it
finds for the life of the process, also once its end is posted. Any game that ends less than
a post's latency before one of those looks (its end post still queued behind the table
edits, the REST budget or a 429) stays in that set for ever, in every process."""

from __future__ import annotations

import random
import time
from collections.abc import AsyncIterator
from types import SimpleNamespace
from typing import Any

import pytest

import engine.bots
from cogs.endings import Endings
from cogs.sessions import Sessions
from db import Store

GAMES = 30
HANDFUL = 5


@pytest.fixture
async def store(pg_url: str) -> AsyncIterator[Store]:
    opened = await Store.open(pg_url)
    yield opened
    await opened.close()


async def finished_game(sessions: Sessions, channel: int, rng: random.Random) -> int:
    store = sessions.store
    lobby = await store.create_lobby(1, channel, "haymaker", 100, "Ann", {}, seed=channel)
    await store.add_seat(lobby.id, 101, "Bea")
    session = await sessions.get(lobby.id)
    assert session is not None and await sessions.start(session, time.time())
    while session.row.is_open:
        game = session.game
        assert game is not None
        player = next(p for p in game.actors() if game.legal_actions(p))
        legal = game.legal_actions(player)
        action = engine.bots.choose("haymaker", "normal", game.view(player), legal, rng)
        await sessions.apply(session, int(player), action, time.time())
    return lobby.id


async def test_ends_seen_while_being_posted_are_not_remembered_for_ever(store: Store) -> None:
    sessions = Sessions(store)
    queued: list[tuple[Any, list[Any]]] = []
    posts: list[str] = []

    def update(session: Any, table: bool = True, dms: bool = True, jobs: Any = None) -> None:
        queued.append((session, list(jobs or [])))

    async def post(
        session: Any, text: str, ping: Any = None, screen: Any = None, nonce: Any = None
    ) -> int:
        posts.append(text)
        return len(posts)

    bot: Any = SimpleNamespace(
        sessions=sessions,
        store=store,
        presenter=SimpleNamespace(update=update, post=post),
        settings=SimpleNamespace(clock_poll=2.0),
    )
    endings = Endings(bot)
    rng = random.Random(3)
    for i in range(GAMES):
        game_id = await finished_game(sessions, 2000 + i, rng)
        # The periodic look runs while this game's end post is still on its way.
        await endings.catch_up()
        # The post goes out (once: the claim keeps the catch-up's job from posting again).
        finished = await sessions.get(game_id)
        assert finished is not None
        await endings.announce(finished)
        for session, jobs in queued:
            for job in jobs:
                await job(session)
        queued.clear()
        assert not [r for r in await store.unannounced() if r.id == game_id]
    assert len(posts) == GAMES  # every end posted once: nothing is pending any more
    await endings.catch_up()  # the next look finds nothing to catch up
    assert not await store.unannounced()
    assert len(endings._caught_up) <= HANDFUL, (
        f"{len(endings._caught_up)} games remembered, none of them unannounced"
    )
