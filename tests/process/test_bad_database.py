"""A database the bot cannot use stops it at start, within seconds, with a clear message.

Before: a corrupt, truncated, read-only or locked file left the process alive and never
connected (the aiosqlite worker thread kept it from exiting), so no restart policy fired.
The bot runs as a real subprocess; the database fails before it would connect to Discord.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import socket
import sqlite3
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from db import Store
from tests.process.harness import bot_py_alone

LIMIT = 20.0  # seconds: the store gives up after DATABASE_TIMEOUT_SECONDS (2 here)


def run_bot(db_path: Path | str) -> tuple[int, str, float]:
    where = str(db_path)
    env = {
        "DATABASE_URL" if "://" in where else "DATABASE_PATH": where,
        "DATABASE_TIMEOUT_SECONDS": "2",
    }
    start = time.monotonic()
    done = bot_py_alone(LIMIT, **env)
    return done.returncode, done.stderr, time.monotonic() - start


def a_real_database(path: Path, games: int = 400) -> None:
    """A migrated database holding games, as a bot leaves it."""

    async def fill() -> None:
        store = await Store.open(path)
        for i in range(games):
            game = await store.create_lobby(1, 1000 + i, "uno", 7, "Host" * 20, {}, seed=i)
            await store.start_game(game.id, {"padding": "x" * 400}, {})
        await store.close()

    asyncio.run(fill())
    # A clean shutdown leaves everything in the main file.
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()


def test_a_corrupt_file(tmp_path: Path) -> None:
    db = tmp_path / "bot.db"
    db.write_bytes(os.urandom(8192))
    code, err, took = run_bot(db)
    assert code == 3 and "not a SQLite database" in err and took < LIMIT, err


def test_a_truncated_file(tmp_path: Path) -> None:
    db = tmp_path / "bot.db"
    a_real_database(db)
    with db.open("r+b") as f:
        f.truncate(db.stat().st_size // 2)
    code, err, took = run_bot(db)
    assert code == 3 and "truncated" in err and "backup" in err and took < LIMIT, err


@contextlib.contextmanager
def read_only(path: Path) -> Iterator[None]:
    """The file made unwritable for this process's children, root included."""
    if os.geteuid() != 0:
        path.chmod(0o444)
        path.parent.chmod(0o555)
        try:
            yield
        finally:
            path.parent.chmod(0o755)
            path.chmod(0o644)
        return
    chattr = shutil.which("chattr")
    if chattr is None or subprocess.run([chattr, "+i", str(path)]).returncode != 0:
        pytest.skip("running as root without chattr +i: no way to make a file read-only")
    try:
        yield
    finally:
        subprocess.run([chattr, "-i", str(path)], check=True)


def test_a_read_only_file(tmp_path: Path) -> None:
    db = tmp_path / "bot.db"
    a_real_database(db, games=5)
    with read_only(db):
        code, err, took = run_bot(db)
    assert code == 3 and "cannot be written" in err and took < LIMIT, err


def test_a_file_locked_by_another_program(tmp_path: Path) -> None:
    db = tmp_path / "bot.db"
    a_real_database(db, games=5)
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")  # another program holds the write lock and keeps it
    try:
        code, err, took = run_bot(db)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert code == 3 and "locked by another program" in err and took < LIMIT, err
    assert took < 12, f"waited {took:.1f} s"


def test_a_healthy_file_is_not_refused(tmp_path: Path) -> None:
    """The same checks pass on a good database (the bot then fails only at login here)."""
    from db.sqlite import check_file

    db = tmp_path / "bot.db"
    a_real_database(db, games=5)
    check_file(str(db), timeout=2)
    check_file(str(tmp_path / "new" / "empty.db"), timeout=2)


def test_an_unreachable_postgresql_server() -> None:
    """Nothing listens at the URL: the bot says where it tried (never the password) and
    exits non-zero within seconds, so a restart policy takes over."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # nothing listens here once closed
    code, err, took = run_bot(f"postgresql://cards:s3cret@127.0.0.1:{port}/cards")
    assert code == 3 and took < 12, (code, took, err)
    assert f"127.0.0.1:{port}/cards" in err and "s3cret" not in err, err
