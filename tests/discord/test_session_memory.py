"""A live game is held in memory once: as its game object, not also as the stored dict it was
built from (bench/load.py's memory per live game)."""

from __future__ import annotations

import asyncio

from tests.discord.driver import Table


async def test_a_cached_game_keeps_no_second_copy_of_its_state(simcord_env) -> None:
    table = await Table.start(simcord_env, "uno", 2)
    session = await table.session()
    assert session.game is not None
    assert session.row.state is None  # the game object is the only copy

    game = session.game
    player = game.actors()[0]
    await table.act(player, game.legal_actions(player)[0].id)
    session = await table.session()
    assert session.version == 1 and session.row.state is None
    stored = await simcord_env.bot.store.get_game(table.game_id)
    assert stored is not None and session.game is not None
    assert stored.state == session.game.to_dict()  # what is stored is what is played

    # Loaded afresh (a restart) and reloaded in place: the same, still one copy.
    sessions = simcord_env.bot.sessions
    sessions.forget(table.game_id)
    fresh = await sessions.get(table.game_id)
    assert fresh is not None and fresh.game is not None and fresh.row.state is None
    assert fresh.game.to_dict() == stored.state
    await sessions.reload(fresh)
    assert fresh.game is not None and fresh.row.state is None
    assert fresh.game.to_dict() == stored.state


async def test_two_loads_of_one_game_at_once_share_one_copy(simcord_env) -> None:
    """Before: a "My hand" (no lock) and a move loading a game at the same moment after a
    restart each made a copy, and the last to finish replaced the other in the cache: a move
    applied to the first left the older copy cached, and later clicks were called stale."""
    table = await Table.start(simcord_env, "uno", 2)
    sessions = simcord_env.bot.sessions
    sessions.forget(table.game_id)  # as after a restart
    store = sessions.store
    get_game = store.get_game
    calls = 0

    async def slow_first(game_id):  # type: ignore[no-untyped-def]
        nonlocal calls
        calls += 1
        if calls == 1:
            await asyncio.sleep(0.05)  # the first reader is slower than the second
        return await get_game(game_id)

    store.get_game = slow_first
    first, second = await asyncio.gather(sessions.get(table.game_id), sessions.get(table.game_id))
    assert first is second is sessions.cached(table.game_id)
