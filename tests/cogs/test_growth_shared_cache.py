"""Growth with several processes on one PostgreSQL database (a sharded bot): a process that
touched a game (a DM click, which always reaches shard 0; a clock it fired; a table it
redrew) keeps its cached copy, and the time it stored its clocks, after another process
finishes or ends that game. Before ``Sessions.sweep``, nothing ever dropped them, so a busy
shard 0 held every game its players ever clicked a DM button in: a whole engine state (about
15 KB, bench/load.py) per game, for the life of the process."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import AsyncIterator

import pytest

import engine.bots
from cogs.sessions import Sessions
from db import Store

GAMES = 120  # ended with /endgame by the other process
PLAYED = 10  # played to the end by the other process
HANDFUL = 5


@pytest.fixture
async def two(pg_url: str) -> AsyncIterator[tuple[Sessions, Sessions]]:
    a, b = await asyncio.gather(Store.open(pg_url), Store.open(pg_url))
    try:
        yield Sessions(a), Sessions(b)
    finally:
        await asyncio.gather(a.close(), b.close())


async def started(sessions: Sessions, channel: int, kind: str = "haymaker") -> int:
    store = sessions.store
    lobby = await store.create_lobby(1, channel, kind, 100, "Ann", {}, seed=channel)
    await store.add_seat(lobby.id, 101, "Bea")
    session = await sessions.get(lobby.id)
    assert session is not None and await sessions.start(session, time.time())
    return lobby.id


async def one_move(sessions: Sessions, game_id: int, rng: random.Random) -> bool:
    """One move, as a click applies it; False once the game is over."""
    async with sessions.lock(game_id):
        session = await sessions.get(game_id)
        assert session is not None
        if not session.row.is_open:
            return False
        game = session.game
        assert game is not None
        player = next(p for p in game.actors() if game.legal_actions(p))
        legal = game.legal_actions(player)
        action = engine.bots.choose(session.row.kind, "normal", game.view(player), legal, rng)
        await sessions.apply(session, int(player), action, time.time())
        return True


async def test_a_game_another_process_finished_leaves_nothing_cached_here(two) -> None:
    here, there = two
    rng = random.Random(7)
    for i in range(GAMES + PLAYED):
        game_id = await started(there, 1000 + i)
        # A member clicks a button in their DM: it reaches this process (shard 0).
        assert await one_move(here, game_id, rng)
        if i < GAMES:
            # The host ends it with /endgame in the channel (the guild's shard).
            session = await there.get(game_id)
            assert session is not None and await there.end(session, "ended")
        else:
            # The rest of the game is played on the table, through the other process.
            while await one_move(there, game_id, rng):
                pass
        row = await there.store.get_game(game_id)
        assert row is not None and not row.is_open

    # The process that ended or finished them keeps nothing (the control).
    assert len(there._cache) <= HANDFUL and len(there._clocks_stored) <= HANDFUL
    # This one drops them at its next sweep (the clock loop's, once a minute).
    assert await here.sweep() >= GAMES + PLAYED - HANDFUL
    assert len(here._cache) <= HANDFUL, (
        f"{len(here._cache)} sessions cached for {GAMES + PLAYED} games that are over "
        f"(e.g. status as cached: {next(iter(here._cache.values())).row.status})"
    )
    assert len(here._clocks_stored) <= HANDFUL, len(here._clocks_stored)
