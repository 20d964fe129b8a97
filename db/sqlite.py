"""The SQLite backend: one long-lived aiosqlite connection, transactions one at a time.

WAL mode and ``synchronous=FULL``: an acknowledged move survives a power cut, at the cost of
one fsync per commit (measured in bench/load.py). All database access takes one asyncio lock,
so a transaction never interleaves with another or with a read (a read on a shared connection
would otherwise see another transaction's uncommitted rows).
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from db.backend import Backend, Row
from db.errors import Conflict, StoreUnavailable

HEADER = b"SQLite format 3\x00"


class SqliteTx:
    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.conn = conn

    async def execute(self, sql: str, *args: Any) -> int:
        try:
            async with self.conn.execute(sql, args) as cur:
                return cur.rowcount
        except sqlite3.IntegrityError as error:
            raise Conflict(str(error)) from error

    async def fetchone(self, sql: str, *args: Any) -> Row | None:
        try:
            async with self.conn.execute(sql, args) as cur:
                row = await cur.fetchone()
        except sqlite3.IntegrityError as error:
            raise Conflict(str(error)) from error
        return tuple(row) if row is not None else None

    async def fetchall(self, sql: str, *args: Any) -> list[Row]:
        try:
            async with self.conn.execute(sql, args) as cur:
                return [tuple(r) for r in await cur.fetchall()]
        except sqlite3.IntegrityError as error:
            raise Conflict(str(error)) from error


class SqliteBackend(Backend):
    dialect = "sqlite"

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.conn = conn
        self._tx = SqliteTx(conn)
        self._lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: str | Path, timeout: float = 5.0) -> SqliteBackend:
        """Open (creating the file and folder if needed) or raise StoreUnavailable quickly."""
        path = str(path)
        if path != ":memory:":
            check_file(path, timeout)
        conn = await aiosqlite.connect(path, isolation_level=None, timeout=timeout)
        try:
            for pragma in (
                "PRAGMA journal_mode = WAL",
                "PRAGMA foreign_keys = ON",
                "PRAGMA synchronous = FULL",
                f"PRAGMA busy_timeout = {int(timeout * 1000)}",
            ):
                async with conn.execute(pragma):
                    pass
        except BaseException:
            await conn.close()
            raise
        return cls(conn)

    @asynccontextmanager
    async def write(self) -> AsyncIterator[SqliteTx]:
        async with self._lock:
            await self.conn.execute("BEGIN IMMEDIATE")
            try:
                yield self._tx
            except BaseException:
                await self.conn.rollback()
                raise
            await self.conn.commit()

    @asynccontextmanager
    async def read(self) -> AsyncIterator[SqliteTx]:
        async with self._lock:
            yield self._tx

    async def close(self) -> None:
        await self.conn.close()

    async def schema_version(self, tx: Any) -> int:
        row = await tx.fetchone("PRAGMA user_version")
        return int(row[0]) if row else 0

    async def set_schema_version(self, tx: Any, version: int) -> None:
        await tx.execute(f"PRAGMA user_version = {int(version)}")


def check_file(path: str, timeout: float) -> None:
    """Fail fast, with a message that says what to do, on a file the bot cannot use.

    Runs synchronously with plain sqlite3 before the async connection exists, so a bad file
    never leaves a worker thread hanging: corrupt, truncated, read-only and locked files all
    end here within ``timeout`` seconds.
    """
    file = Path(path)
    try:
        file.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise StoreUnavailable(f"Cannot create the folder for {path}: {error}.") from None
    if file.is_dir():
        raise StoreUnavailable(f"DATABASE_PATH {path} is a folder, not a database file.")
    if file.exists() and file.stat().st_size > 0:
        _check_header(file)
    fix = "Restore it from a backup, or move it aside to start with an empty database."
    try:
        conn = sqlite3.connect(path, timeout=timeout, isolation_level=None)
    except sqlite3.Error as error:
        raise StoreUnavailable(f"Cannot open the database {path}: {error}.") from None
    try:
        conn.execute("PRAGMA journal_mode = WAL").fetchone()
        conn.execute("BEGIN IMMEDIATE")
        (version,) = conn.execute("PRAGMA user_version").fetchone()
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        # A real write (page 1), committed: proves the file and its folder are writable.
        conn.execute(f"PRAGMA user_version = {int(version)}")
        conn.execute("COMMIT")
    except sqlite3.OperationalError as error:
        text = str(error)
        if "locked" in text or "busy" in text:
            raise StoreUnavailable(
                f"The database {path} is locked by another program (waited {timeout:g} s). "
                "Stop the other process using it (another copy of the bot?) and start again."
            ) from None
        if "readonly" in text or "read-only" in text or "unable to open" in text:
            raise StoreUnavailable(
                f"The database {path} cannot be written ({text}). The bot needs write access "
                "to the file and to its folder."
            ) from None
        raise StoreUnavailable(f"The database {path} cannot be used: {text}. {fix}") from None
    except sqlite3.DatabaseError as error:
        raise StoreUnavailable(
            f"The database {path} is damaged or is not a SQLite database ({error}). {fix}"
        ) from None
    finally:
        conn.close()


def _check_header(file: Path) -> None:
    """A file shorter than the size its header records was truncated (lost pages)."""
    fix = "Restore it from a backup, or move it aside to start with an empty database."
    try:
        with file.open("rb") as f:
            header = f.read(100)
    except OSError as error:
        raise StoreUnavailable(f"Cannot read the database {file}: {error}.") from None
    if len(header) < 100 or not header.startswith(HEADER):
        raise StoreUnavailable(f"{file} is not a SQLite database (or is damaged). {fix}")
    page_size = int.from_bytes(header[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    pages = int.from_bytes(header[28:32], "big")
    valid_for = int.from_bytes(header[92:96], "big")
    change = int.from_bytes(header[24:28], "big")
    size = file.stat().st_size
    # The in-header page count is reliable when its "valid-for" matches the change counter.
    if valid_for == change and pages and size < pages * page_size:
        raise StoreUnavailable(
            f"The database {file} is truncated ({size} bytes, its header says "
            f"{pages * page_size}). {fix}"
        )
    if size % page_size:
        raise StoreUnavailable(f"The database {file} is truncated mid-page. {fix}")
