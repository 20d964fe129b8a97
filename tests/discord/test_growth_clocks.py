"""Growth through the clocks: games that end by themselves (members who walk away, bots that
take their seats, lobbies nobody starts) must leave nothing behind either, and a game nobody
will ever touch again must not stay in memory for the life of the process."""

from __future__ import annotations

import pytest

from tests.discord.driver import Table
from tests.discord.per_game_state import per_game

HANDFUL = 5
WALKED_AWAY = 12  # two members each, a turn timer, nobody moves
LOBBIES = 20
UNTIMED = 20


def sqlite_only(database: str) -> None:
    if database.startswith("postgresql://"):
        # Hours of virtual time with a dozen clocks on asyncpg outrun simcord's 5 s settle;
        # what is measured here is the same on both backends.
        pytest.skip("SQLite only: long virtual time")


async def test_games_ended_by_their_clocks_leave_nothing_behind(simcord_env, database) -> None:
    sqlite_only(database)
    bot = simcord_env.bot
    tables = [
        await Table.start(simcord_env, "haymaker", 2, channel_name=f"t{i}", turn_timer=30)
        for i in range(WALKED_AWAY)
    ]
    for _ in range(60):  # up to an hour: strikes, bots in their seats, abandoned
        await simcord_env.advance_time(60)
        rows = [await bot.store.get_game(t.game_id) for t in tables]
        if all(r is not None and not r.is_open for r in rows):
            break
    await bot.presenter.idle()
    await simcord_env.settle()
    rows = [await bot.store.get_game(t.game_id) for t in tables]
    assert all(r is not None and r.status == "cancelled" for r in rows), [
        (r.status, r.ended_reason) for r in rows if r is not None
    ]
    grown = {k: n for k, n in per_game(bot).items() if n > HANDFUL}
    assert not grown, grown


async def test_expired_lobbies_leave_nothing_behind(simcord_env) -> None:
    bot = simcord_env.bot
    guild = simcord_env.create_guild()
    for i in range(LOBBIES):
        channel = guild.create_text_channel(f"l{i}")
        host = guild.add_member(simcord_env.create_user(f"host-l{i}"))
        await host.slash(channel, "newgame haymaker")
    await simcord_env.advance_time(36 * 60)  # LOBBY_TIMEOUT_MINUTES 30, checked every 5
    await bot.presenter.idle()
    assert not await bot.store.stale_lobbies(1e12)
    grown = {k: n for k, n in per_game(bot).items() if n > HANDFUL}
    assert not grown, grown


async def test_an_untimed_game_nobody_touches_for_hours_is_not_kept_in_memory(
    simcord_env, database
) -> None:
    """``/newgame ... turn_timer:0``: the members walk away after a few moves. Nothing ends
    such a game (only lobbies expire), and its session stays in ``Sessions._cache`` until the
    process stops: every untimed game anyone left since the start, a whole engine state each.
    A session is only a cache of the database (the next click loads it again), so one that
    nobody used for a long time can go (``Sessions.sweep``, after half an hour)."""
    sqlite_only(database)
    bot = simcord_env.bot
    for i in range(UNTIMED):
        await Table.start(simcord_env, "haymaker", 2, channel_name=f"u{i}", turn_timer=0)
    await bot.presenter.idle()
    await simcord_env.advance_time(2 * 3600)
    await bot.presenter.idle()
    await simcord_env.settle()
    cached = len(bot.sessions._cache)
    assert cached <= HANDFUL, f"{cached} untimed games idle for two hours still cached in memory"
