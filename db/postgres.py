"""The PostgreSQL backend (asyncpg): one pool per process; the server is what every process
of a sharded bot shares.

The store's SQL is written for SQLite; here ``?`` becomes ``$n``, migration types widen
(Discord ids need 64-bit integers, times double precision) and errors become the store's own.
Writes run at READ COMMITTED under the locks their scripts take (``lock(...)``, a
transaction-level advisory lock): two processes moving one game queue up, and the version
check refuses a move made on an outdated load. A lost connection (the server restarted) is
retried once on a fresh one when nothing can have been committed.
"""

from __future__ import annotations

import asyncio
import re
from typing import Any
from urllib.parse import urlsplit

import asyncpg

from db.backend import Backend
from db.errors import Conflict, SaveUncertain, StoreUnavailable
from db.script import Op, T, Work, lock, one, run, start

# Errors that mean the connection (or the server behind it) went away, not that the SQL is
# wrong: the work may be tried again on another connection.
# Not a timeout: that is a slow database (SLOW), told at once; tried again it made a click
# wait twice DATABASE_TIMEOUT_SECONDS for a lock a frozen process held.
LOST: tuple[type[BaseException], ...] = (
    OSError,
    asyncpg.PostgresConnectionError,
    asyncpg.AdminShutdownError,
    asyncpg.CannotConnectNowError,
    asyncpg.CrashShutdownError,
)
_PLACEHOLDER = re.compile(r"\?")
_LOCK = "SELECT pg_advisory_xact_lock(hashtextextended($1, 0))"


# A statement over ``command_timeout`` (TimeoutError), a lock not granted within
# ``lock_timeout``, or a statement the server cancelled: the database is too slow now.
SLOW = (TimeoutError, asyncpg.LockNotAvailableError, asyncpg.QueryCanceledError)
# The server is up but cannot do the work now: a full disk or too little memory (SQLSTATE
# class 53), an I/O error (58), a read-only server (a standby after a failover): an outage,
# as SQLite's own errors are, not a bug.
DOWN = (
    asyncpg.InsufficientResourcesError,
    asyncpg.PostgresSystemError,
    asyncpg.ReadOnlySQLTransactionError,
)
# Seconds a session may stay idle inside a transaction (ours never do, between statements of
# a script) before the server ends it and frees its locks.
IDLE_IN_TX = 60.0


def _lost(error: BaseException) -> bool:
    if isinstance(error, TimeoutError):  # an OSError too, but a slow database, not a lost one
        return False
    if isinstance(error, LOST):
        return True
    # asyncpg says "connection is closed" for a connection the server dropped.
    return isinstance(error, asyncpg.InterfaceError) and "closed" in str(error)


def where(url: str) -> str:
    """The server and database of ``url``, without the password (for messages and logs)."""
    try:
        parts = urlsplit(url)
        host = parts.hostname or "localhost"
        port = parts.port or 5432
    except ValueError:
        return "the DATABASE_URL server"
    if url.count("@") > 1 or ("@" in url and "@" not in parts.netloc):
        # A password holding "@", "/", "?" or "#" (not percent-encoded) moves where the
        # server part ends: a piece of it would be shown as the host or the database.
        return "the DATABASE_URL server"
    return f"{host}:{port}{parts.path or '/'}"


def dollar(sql: str) -> str:
    """``?`` placeholders as ``$1, $2...`` (the store's SQL has no ``?`` inside literals)."""
    count = 0

    def number(_: re.Match[str]) -> str:
        nonlocal count
        count += 1
        return f"${count}"

    return _PLACEHOLDER.sub(number, sql)


def rows_changed(status: str) -> int:
    """The count at the end of a command tag: "UPDATE 3", "INSERT 0 1", "DELETE 0"."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


class PostgresBackend(Backend):
    dialect = "postgresql"
    skip_locked = " FOR UPDATE SKIP LOCKED"

    def __init__(self, pool: asyncpg.Pool, url: str, timeout: float) -> None:
        self._pool = pool
        self.where = where(url)
        self.timeout = timeout
        self._sql: dict[str, str] = {}

    @classmethod
    async def open(
        cls, url: str, timeout: float = 5.0, pool_min: int = 1, pool_max: int = 10
    ) -> PostgresBackend:
        """Connect, or raise StoreUnavailable within ``timeout`` seconds saying why."""
        place = where(url)
        try:
            pool = await asyncio.wait_for(
                asyncpg.create_pool(
                    url,
                    min_size=pool_min,
                    max_size=pool_max,
                    timeout=timeout,  # to open a connection (again after a restart too)
                    # Every statement, and every wait for a lock (a game's lock held by a
                    # process that froze or lost its machine), gives up after ``timeout``:
                    # a click is answered kindly instead of waiting for ever. A session left
                    # inside a transaction (that frozen process) is ended by the server.
                    # The client's timeout a little later: a lock waited for too long is
                    # the server's clear LockNotAvailableError, not a cut-off statement.
                    command_timeout=timeout + 1.0,
                    server_settings={
                        "lock_timeout": f"{int(timeout * 1000)}ms",
                        "idle_in_transaction_session_timeout": f"{int(IDLE_IN_TX * 1000)}ms",
                    },
                ),
                timeout,
            )
        except TimeoutError:
            raise StoreUnavailable(
                f"PostgreSQL at {place} did not answer within {timeout:g} s. Check that the "
                "server is running and DATABASE_URL points at it."
            ) from None
        except (ValueError, OverflowError):
            # asyncpg's words for a URL it cannot read quote pieces of it, maybe of the
            # password: never repeated.
            raise StoreUnavailable(
                f"DATABASE_URL ({place}) cannot be read. Check its form "
                "(postgresql://user:password@host:port/database), the port (1 to 65535), and "
                "that any / # ? @ : in the password is percent-encoded (%2F %23 %3F %40 %3A)."
            ) from None
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
            raise StoreUnavailable(
                f"Cannot connect to PostgreSQL at {place}: {error}. Check that the server is "
                "running, and the user, password and database in DATABASE_URL."
            ) from None
        assert pool is not None
        return cls(pool, url, timeout)

    def _translate(self, sql: str) -> str:
        found = self._sql.get(sql)
        if found is None:
            found = self._sql[sql] = dollar(sql)
        return found

    async def _op(self, conn: Any, op: Op) -> Any:
        if op.kind == "lock":
            await conn.execute(_LOCK, op.args[0])
            return None
        sql = self._translate(op.sql)
        try:
            if op.kind == "run":
                return rows_changed(await conn.execute(sql, *op.args))
            if op.kind == "one":
                row = await conn.fetchrow(sql, *op.args)
                return tuple(row) if row is not None else None
            return [tuple(r) for r in await conn.fetch(sql, *op.args)]
        except asyncpg.IntegrityConstraintViolationError as error:
            raise Conflict(str(error)) from error

    async def _drive(self, work: Work[T], write: bool) -> T:
        script = start(work)
        async with self._pool.acquire(timeout=self.timeout) as conn:
            if write:
                transaction = conn.transaction()
            else:
                transaction = conn.transaction(isolation="repeatable_read", readonly=True)
            await transaction.start()
            try:
                op = next(script)
                while True:
                    op = script.send(await self._op(conn, op))
            except StopIteration as done:
                result: T = done.value
            except BaseException:
                if not conn.is_closed():
                    try:
                        await transaction.rollback()
                    except Exception:
                        pass
                raise
            try:
                await transaction.commit()
            except BaseException as error:
                if write and (_lost(error) or isinstance(error, TimeoutError)):
                    # The commit may or may not have reached the server: never retried.
                    raise SaveUncertain(
                        f"The connection to PostgreSQL at {self.where} was lost while saving."
                    ) from error
                raise
            return result

    async def _retrying(self, work: Work[T], write: bool) -> T:
        try:
            return await self._drive(work, write)
        except StoreUnavailable:
            raise
        except BaseException as error:
            if not _lost(error):
                raise
            if not callable(work):
                raise self._unavailable(error) from error
        # The server rolled the first attempt back; the pool opens a fresh connection.
        try:
            return await self._drive(work, write)
        except BaseException as error:
            if _lost(error):
                raise self._unavailable(error) from error
            raise

    def _unavailable(self, error: BaseException) -> StoreUnavailable:
        return StoreUnavailable(f"PostgreSQL at {self.where} is unavailable ({error!r}).")

    async def write(self, work: Work[T]) -> T:
        try:
            return await self._retrying(work, True)
        except SLOW as error:
            raise self._slow(error) from error
        except DOWN as error:
            raise self._unavailable(error) from error

    async def read(self, work: Work[T]) -> T:
        try:
            return await self._retrying(work, False)
        except SLOW as error:
            raise self._slow(error) from error
        except DOWN as error:
            raise self._unavailable(error) from error

    def _slow(self, error: BaseException) -> StoreUnavailable:
        what = "a lock it needed" if isinstance(error, asyncpg.LockNotAvailableError) else "it"
        return StoreUnavailable(
            f"PostgreSQL at {self.where} did not give {what} within {self.timeout:g} s."
        )

    async def read_one(self, op: Op) -> Any:
        # One statement is its own consistent snapshot: no BEGIN/COMMIT round trips.
        for attempt in (1, 2):
            try:
                async with self._pool.acquire(timeout=self.timeout) as conn:
                    return await self._op(conn, op)
            except SLOW as error:
                raise self._slow(error) from error
            except DOWN as error:
                raise self._unavailable(error) from error
            except BaseException as error:
                if not _lost(error):
                    raise
                if attempt == 2:
                    raise self._unavailable(error) from error
        raise AssertionError("unreachable")

    async def close(self) -> None:
        try:
            await asyncio.wait_for(self._pool.close(), 5.0)
        except (TimeoutError, OSError):
            self._pool.terminate()

    def version_ops(self) -> tuple[list[Op], Op]:
        # The lock first: processes starting together migrate one after the other.
        return (
            [
                lock("cardtable-migrations"),
                run("CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL)"),
            ],
            one("SELECT MAX(version) FROM schema_version"),
        )

    def set_version_op(self, version: int) -> Op:
        return run(f"INSERT INTO schema_version (version) VALUES ({int(version)})")

    def ddl(self, statement: str) -> str:
        """SQLite's types, widened: 64-bit ids (an identity for a table's own ``id``) and
        double-precision times and ratings."""
        statement = re.sub(
            r"\bid\s+INTEGER\s+PRIMARY\s+KEY\b",
            "id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY",
            statement,
        )
        statement = re.sub(r"\bINTEGER\b", "BIGINT", statement)
        return re.sub(r"\bREAL\b", "DOUBLE PRECISION", statement)
