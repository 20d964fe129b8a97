"""A process that stops answering while it holds a game's lock (frozen, or its machine lost
power: PostgreSQL keeps a half-open connection's transaction, and its locks, until TCP
keepalive gives up, two hours by default).

DATABASE_TIMEOUT_SECONDS promises: "give up opening, migrating or writing the database after
this long (the bot then exits with code 3)". The PostgreSQL backend applies it only to
opening a connection: no command_timeout, lock_timeout or statement_timeout, so a write
waiting for that lock waits forever. The click never gets an answer, the game's in-process
lock stays held, and every later click on that game queues behind it.
"""

from __future__ import annotations

import asyncio
import time

import asyncpg
import pytest

from db import Store, StoreError
from db.postgres import _lost
from tests.db.test_shared import started

TIMEOUT = 1.0


async def hold(url: str, key: str) -> tuple[asyncpg.Connection, asyncpg.transaction.Transaction]:
    """Another process's open transaction holding the advisory lock ``key`` (as the store
    takes it: db/postgres.py _LOCK)."""
    conn = await asyncpg.connect(url)
    tx = conn.transaction()
    await tx.start()
    await conn.execute("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", key)
    return conn, tx


async def test_a_move_waiting_for_a_stuck_game_lock_gives_up_within_the_timeout(
    pg_url: str,
) -> None:
    store = await Store.open(pg_url, timeout=TIMEOUT)
    conn = None
    try:
        game = await started(store, 10)
        conn, _ = await hold(pg_url, f"game:{game}")
        try:
            await asyncio.wait_for(store.record_move(game, 0, 100, "x", {"n": 1}, {}), TIMEOUT + 4)
        except StoreError:
            pass  # gave up, with the store's own error: the click is told
        except TimeoutError:
            pytest.fail(
                f"record_move still waiting {TIMEOUT + 4:g} s later (DATABASE_TIMEOUT_SECONDS "
                f"is {TIMEOUT:g} s): nothing bounds a wait for a lock on PostgreSQL"
            )
    finally:
        if conn is not None:
            await conn.close()
        await store.close()


async def test_a_stuck_game_lock_is_waited_for_once_not_twice(pg_url: str) -> None:
    """The client's own timeout (``command_timeout``) was taken for a lost connection and
    the move tried again: a click waited twice DATABASE_TIMEOUT_SECONDS for a lock a frozen
    process held. A slow database is told at once, like any other."""
    store = await Store.open(pg_url, timeout=TIMEOUT)
    conn = None
    try:
        game = await started(store, 11)
        conn, _ = await hold(pg_url, f"game:{game}")
        began = time.monotonic()
        with pytest.raises(StoreError):
            await store.record_move(game, 0, 100, "x", {"n": 1}, {})
        assert time.monotonic() - began < 1.5 * TIMEOUT + 1.0
        assert not _lost(TimeoutError())  # the client's own timeout: slow, not lost
    finally:
        if conn is not None:
            await conn.close()
        await store.close()


async def test_opening_gives_up_within_the_timeout_when_the_migration_lock_is_stuck(
    pg_url: str,
) -> None:
    first = await Store.open(pg_url)
    await first.close()
    conn, _ = await hold(pg_url, "cardtable-migrations")
    try:
        try:
            store = await asyncio.wait_for(Store.open(pg_url, timeout=TIMEOUT), TIMEOUT + 4)
        except StoreError:
            return  # StoreUnavailable: the bot exits 3 with a message, as promised
        except TimeoutError:
            pytest.fail(
                "Store.open (migrations) still waiting for the migration lock after "
                f"{TIMEOUT + 4:g} s; README: exits 3 within DATABASE_TIMEOUT_SECONDS"
            )
        await store.close()
    finally:
        await conn.close()
