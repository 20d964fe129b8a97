"""SQLite checkpoints run beside the writer, never inside a move's commit."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from db import sqlite
from db.script import Script, run
from db.sqlite import SqliteBackend

PAGE = 4096
FRAME = PAGE + 24  # a WAL frame: its header and one page
ROW = "x" * 100_000  # about 25 WAL pages a commit


def put(i: int) -> Script[None]:
    yield run("INSERT OR REPLACE INTO blob VALUES (?, ?)", i % 10, f"{i}{ROW}")


@pytest.fixture
async def backend(tmp_path: Path) -> AsyncIterator[SqliteBackend]:
    with sqlite3.connect(tmp_path / "bot.db") as conn:  # no write of the backend's own yet
        conn.execute("CREATE TABLE blob (id INTEGER PRIMARY KEY, body TEXT)")
    db = await SqliteBackend.open(tmp_path / "bot.db")
    yield db
    await db.close()


async def test_commits_never_checkpoint_the_background_does(
    backend: SqliteBackend, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    wal = tmp_path / "bot.db-wal"
    monkeypatch.setattr(sqlite, "CHECKPOINT_EVERY", 3600.0)  # only the explicit one below
    for i in range(60):  # about 1,500 pages: SQLite's own would have run at 1,000
        await backend.write(put(i))
    grown = wal.stat().st_size
    assert grown > 1_200 * FRAME

    busy, frames, copied = await backend.checkpoint()
    assert (busy, copied) == (0, frames) and 32 + frames * FRAME == grown  # all of it

    for i in range(20):  # the WAL starts over from its beginning: it does not grow
        await backend.write(put(i))
    assert wal.stat().st_size == grown


async def test_a_checkpoint_follows_writes_and_none_runs_while_idle(
    backend: SqliteBackend, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sqlite, "CHECKPOINT_EVERY", 0.02)
    real = backend._checkpoint_now
    calls: list[tuple[int, int, int]] = []

    def counted() -> tuple[int, int, int]:
        calls.append(real())
        return calls[-1]

    monkeypatch.setattr(backend, "_checkpoint_now", counted)
    await asyncio.sleep(0.2)
    assert calls == []  # nothing written yet

    for i in range(3):
        await backend.write(put(i))
    async with asyncio.timeout(5):
        while not calls:
            await asyncio.sleep(0.01)
    await asyncio.sleep(0.2)
    assert 1 <= len(calls) <= 3  # at most one a period, and none once all is copied
    busy, frames, copied = calls[0]
    assert busy == 0 and copied == frames > 0
