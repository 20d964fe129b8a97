"""A SQLite transaction that fails, in its statements or in its COMMIT, leaves the writer
connection ready for the next one (before: a failed COMMIT left it open, so every later write
failed with "cannot start a transaction within a transaction" until a restart)."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from db.errors import StoreUnavailable
from db.script import Script, one, run
from db.sqlite import SqliteBackend


def put(i: int) -> Script[None]:
    yield run("INSERT INTO item VALUES (?)", i)


def items() -> Script[Any]:
    return (yield one("SELECT group_concat(id) FROM item"))


class FailingCommit:
    """The writer connection, with its next COMMIT failing as a full disk would."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:
        if sql == "COMMIT":
            raise sqlite3.OperationalError("database or disk is full")
        return self.conn.execute(sql, *args)

    @property
    def in_transaction(self) -> bool:
        return self.conn.in_transaction


@pytest.fixture
async def backend(tmp_path: Path) -> AsyncIterator[SqliteBackend]:
    with sqlite3.connect(tmp_path / "bot.db") as conn:
        conn.execute("CREATE TABLE item (id INTEGER PRIMARY KEY)")
    db = await SqliteBackend.open(tmp_path / "bot.db")
    yield db
    await db.close()


async def test_a_failed_commit_is_rolled_back_and_the_next_write_works(
    backend: SqliteBackend,
) -> None:
    await backend.write(put(1))
    real = backend._wconn
    assert real is not None
    backend._wconn = FailingCommit(real)  # type: ignore[assignment]
    with pytest.raises(StoreUnavailable, match="disk is full"):
        await backend.write(put(2))
    backend._wconn = real
    assert not real.in_transaction
    await backend.write(put(3))
    assert await backend.read(items()) == ("1,3",)


async def test_a_failed_statement_raises_its_own_error_and_the_next_write_works(
    backend: SqliteBackend,
) -> None:
    with pytest.raises(Exception, match="UNIQUE"):
        await backend.write(_twice())
    await backend.write(put(5))
    assert await backend.read(items()) == ("5",)


def _twice() -> Script[None]:
    yield run("INSERT INTO item VALUES (7)")
    yield run("INSERT INTO item VALUES (7)")
