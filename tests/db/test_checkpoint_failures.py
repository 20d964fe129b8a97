"""SQLite failing while the bot runs: background checkpoints that keep failing."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from pathlib import Path
from typing import Any

import pytest

import db.sqlite
from db.script import Script, run
from db.sqlite import SqliteBackend


class CheckpointFails:
    """The checkpoint connection on a disk that refuses to grow the database file (the WAL
    still has room, so moves are stored): every checkpoint fails."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:
        if "wal_checkpoint" in sql:
            raise sqlite3.OperationalError("database or disk is full")
        return self.conn.execute(sql, *args)

    def close(self) -> None:
        self.conn.close()


def put(i: int) -> Script[None]:
    yield run("INSERT INTO item VALUES (?)", i)


async def test_failing_checkpoints_are_logged_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Checkpoints (every CHECKPOINT_EVERY = 1 s while the database is written) start
    failing, e.g. the disk has no room to grow the database file. Moves are still stored
    (in the WAL). Before, the owner's log got "SQLite checkpoint failed: ..." once a second
    for as long as players played: 3,600 identical warnings an hour. Now it is said once
    when it starts failing (and once when it works again).
    (CHECKPOINT_EVERY is shortened to 20 ms here; 8 writes 100 ms apart stand for 8 s of
    a game being played.)"""
    path = tmp_path / "bot.db"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE item (id INTEGER PRIMARY KEY)")
    monkeypatch.setattr(db.sqlite, "CHECKPOINT_EVERY", 0.02)
    backend = await SqliteBackend.open(path)
    try:
        assert backend._cconn is not None
        backend._cconn = CheckpointFails(backend._cconn)  # type: ignore[assignment]
        caplog.set_level(logging.INFO)
        caplog.clear()
        for i in range(8):
            await backend.write(put(i))
            await asyncio.sleep(0.1)
    finally:
        await backend.close()
    said = [r.getMessage() for r in caplog.records if "checkpoint" in r.getMessage()]
    assert len(said) <= 2, f"{len(said)} identical lines in 0.8 s: {said[:2]}"
