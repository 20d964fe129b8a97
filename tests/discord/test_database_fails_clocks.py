"""SQLite failing while the bot runs: the clock loop (turn timers, bot moves).

A real lock: another connection to the database file (a backup tool, the ``sqlite3`` shell)
holds a write transaction longer than the bot's busy timeout (shortened here to 50 ms so the
test is fast; the bot's own is 5 s). Reads keep working (WAL), every write fails with
"database is locked", as it would on a real server."""

from __future__ import annotations

import asyncio
import sqlite3
import sys
from typing import Any

import pytest

from tests.discord.driver import Table

pytestmark = pytest.mark.parametrize("database", ["sqlite"], indirect=True)


class Lock:
    """Another program holding the database's write lock."""

    def __init__(self, env: Any) -> None:
        self.path = env.bot.store.backend.path
        self.conn: sqlite3.Connection | None = None

    def take(self) -> None:
        self.conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self.conn.execute("BEGIN IMMEDIATE")

    def give_back(self) -> None:
        if self.conn is not None:
            self.conn.execute("ROLLBACK")
            self.conn.close()
            self.conn = None


async def short_busy_timeout(env: Any) -> None:
    backend = env.bot.store.backend
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(backend._writer, backend._wconn.execute, "PRAGMA busy_timeout = 50")


def hands_turn_to(game: Any, player: str, other: str) -> str:
    """An action of ``player`` after which ``other`` is awaited."""
    for action in game.legal_actions(player):
        if action.pick is not None:
            continue
        trial = game.copy()
        try:
            trial.apply(player, action.id)
        except ValueError:
            continue
        if other in trial.actors() and not trial.finished:
            return action.id
    raise AssertionError("no move hands the turn over")


async def test_a_bot_moves_within_seconds_after_a_short_lock(simcord_env) -> None:
    """ann plays UNO against a bot. Just after her move is stored, a backup tool holds the
    database's lock for 20 s: the clock pass that should make the bot's move fails on its
    claim ("database is locked"). Before, that was a raw sqlite3 error, not the
    StoreUnavailable the loop treats as an outage, and the loop slept its idle 5 minutes:
    ann watched the bot "think" for five minutes after the database was fine again. Now
    SQLite's failures are StoreUnavailable, and the loop looks again within seconds."""
    env = simcord_env
    table = await Table.start(env, "uno", 1, seed=7, bots=1)
    await env.settle()
    session = await table.session()
    ann = next(iter(table.members))
    bot = next(p for p in session.game.players if p != ann)
    game = await table.game()
    assert ann in game.actors(), "the test expects ann to move first"
    action = hands_turn_to(game, ann, bot)
    await short_busy_timeout(env)
    lock = Lock(env)
    store = env.bot.store
    record = store.record_move

    async def then_locked(*args: Any, **kwargs: Any) -> Any:
        done = await record(*args, **kwargs)
        if lock.conn is None and args[2] == int(ann):
            lock.take()
        return done

    store.record_move = then_locked
    try:
        await table.act(ann, action, via="dm")
        assert lock.conn is not None
        moved = (await table.session()).version
        await env.advance_time(20)
        lock.give_back()
        store.record_move = record
        await env.advance_time(15)  # the database has been fine for 15 s
        await env.settle()
        after = (await table.session()).version
    finally:
        lock.give_back()
        store.record_move = record
    assert after > moved, (
        "the bot has not moved 15 s after the lock was released (the clock loop sleeps "
        "its 300 s idle after a failed pass)"
    )


async def test_a_turn_that_ran_out_while_the_database_was_locked_starts_over(
    simcord_env, monkeypatch: pytest.MonkeyPatch
) -> None:
    """UNO with a 60 s turn timer. 10 s into ann's turn a backup tool locks the database
    for 70 s. ann plays at 30 s and is told "Something went wrong on my side; nothing was
    changed"; her deadline passes during the lock. Before, once the lock ended she was timed
    out at once, with a strike, for time in which every click of hers was refused: the
    outage was never recorded (a raw sqlite3 error; and reads kept working under the lock).
    Now her refused click starts the outage, the clock loop ends it only when a write goes
    through, and her turn starts over, as after a restart."""
    # The clock loop looks every DOWN_LOOK while writes fail: outside simcord's settle
    # window, so the 70 s lock passes in virtual time (another game's move wakes it).
    timers = simcord_env.bot.get_cog("Timers")
    monkeypatch.setattr(sys.modules[type(timers).__module__], "DOWN_LOOK", 10.0)
    env = simcord_env
    table = await Table.start(env, "uno", 2, seed=7, turn_timer=60)
    other = await Table.start(env, "uno", 2, channel_name="other", seed=3)
    await env.settle()
    session = await table.session()
    ann = session.hosted.awaited(session.game)[0]
    before = session.version
    await short_busy_timeout(env)
    lock = Lock(env)
    try:
        await env.advance_time(10)
        lock.take()
        await env.advance_time(20)
        game = await table.game()
        tried = await table.act_once(ann, game.legal_actions(ann)[0].id)
        said = [tried.response and tried.response.content] + [
            f.content for f in (tried.followups or [])
        ]
        assert any("nothing was changed" in (s or "") for s in said), said
        await env.advance_time(50)  # her deadline (60 s) passed at 60 s, during the lock
        lock.give_back()
        await other.some_move()  # another game goes on: the clock loop wakes
        await env.advance_time(5)
        await env.settle()
    finally:
        lock.give_back()
    session = await table.session()
    seat = session.seat(int(ann))
    assert seat is not None
    assert (session.version, seat.strikes) == (before, 0), (
        f"ann was timed out for time the database refused her clicks: {session.public_log[-2:]}"
    )
