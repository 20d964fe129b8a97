"""Upgrading a real server's database: what the start does with a schema it did not make
(a newer one, one whose version a dump dropped, one a step fails on) and with a second copy
of the bot on its file."""

from __future__ import annotations

import asyncio
import sqlite3
import subprocess
import sys
from pathlib import Path

import asyncpg
import pytest

import bot
from db import Store, StoreUnavailable
from db.migrate import SQLITE_MARKS, migration_files
from db.script import one, run, single
from db.sqlite import SqliteBackend

LATEST = migration_files()[-1][0]

# What each migration added, undone (the schema as the bot of that version left it).
UNDO: dict[int, list[str]] = {
    10: ["ALTER TABLE games DROP COLUMN old_dms"],
    9: ["DROP INDEX games_host_created"],
    8: ["DROP TABLE meta"],
    7: ["ALTER TABLE moves DROP COLUMN notes"],
    6: ["DROP INDEX games_undrawn_ended"],
    4: [
        "DROP INDEX games_undrawn",
        *(
            f"ALTER TABLE games DROP COLUMN {c}"
            for c in ("rev", "announce_by", "drawn", "draw_by", "draw_owner")
        ),
    ],
    3: [
        "DROP INDEX stats_rank",
        "DROP INDEX games_history",
        "DROP INDEX players_hidden",
        *(
            f"ALTER TABLE stats DROP COLUMN {c}"
            for c in ("streak", "best_streak", "mu", "sigma", "ordinal", "rated", "last_at")
        ),
        "ALTER TABLE games DROP COLUMN ratings",
    ],
}


async def downgrade(store: Store, version: int) -> None:
    for number in sorted(UNDO, reverse=True):
        if number > version:
            for statement in UNDO[number]:
                await store.backend.write(single(run(statement)))
    if store.backend.dialect == "sqlite":
        if version in (4, 5):  # a lone bot stored nothing in ``drawn`` before 005 (006: ends)
            done = "" if version == 4 else " WHERE status IN ('finished', 'cancelled')"
            await store.backend.write(single(run(f"UPDATE games SET drawn = 0{done}")))
        await store.backend.write(single(run(f"PRAGMA user_version = {version}")))
    else:
        await store.backend.write(
            single(run(f"DELETE FROM schema_version WHERE version > {version}"))
        )


async def at_version(database: str, version: int) -> None:
    store = await Store.open(database)
    try:
        await downgrade(store, version)
    finally:
        await store.close()


async def test_a_database_from_a_newer_version_is_refused(database: str) -> None:
    """A server owner rolls back a deploy (or starts an old copy of the bot) against a
    database a newer bot already migrated. Today the old code opens it as if it were its own
    schema and goes on writing rows the newer code's columns and rules know nothing of (and
    the newer code will never migrate those rows again): it should stop at once with a clear
    StoreUnavailable, saying the database belongs to a newer version of the bot."""
    store = await Store.open(database)
    if store.backend.dialect == "sqlite":
        await store.backend.write(single(run(f"PRAGMA user_version = {LATEST + 1}")))
    else:
        await store.backend.write(
            single(run(f"INSERT INTO schema_version (version) VALUES ({LATEST + 1})"))
        )
    await store.close()

    with pytest.raises(StoreUnavailable) as refused:
        store = await Store.open(database)
        await store.close()
    assert "newer" in str(refused.value)


def test_a_migration_that_fills_the_disk_stops_the_bot_with_a_database_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The disk fills up while today's bot upgrades a version-4 database. README: a database
    that cannot be opened or migrated stops the bot with a clear "Database error: ..." and
    exit code 3 (what restart policies and the docs key on). Today the raw
    sqlite3.OperationalError escapes Store.open and bot.main: a traceback and exit code 1.
    The database itself stays consistent (each migration is one transaction) and the next
    start, with room on the disk, finishes the upgrade: checked too."""
    path = tmp_path / "games.db"

    async def old_database() -> None:
        store = await Store.open(path)
        for i in range(20):
            game = await store.create_lobby(1, 100 + i, "uno", 7, "Ann", {}, seed=i)
            await store.start_game(game.id, {"n": i}, {})
        await downgrade(store, 4)
        await store.close()

    asyncio.run(old_database())
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.execute("VACUUM")  # no free pages: the upgrade needs new ones
    (pages,) = conn.execute("PRAGMA page_count").fetchone()
    conn.close()

    connect = SqliteBackend._connect

    def full_disk(self: SqliteBackend, write: bool) -> sqlite3.Connection:
        conn = connect(self, write)
        conn.execute(f"PRAGMA max_page_count = {pages}")  # SQLITE_FULL, as on a full disk
        return conn

    monkeypatch.setattr(SqliteBackend, "_connect", full_disk)
    monkeypatch.chdir(tmp_path)  # no .env
    monkeypatch.setenv("DISCORD_TOKEN", "fake-token")
    monkeypatch.setenv("DATABASE_PATH", str(path))
    monkeypatch.delenv("DATABASE_URL", raising=False)

    def never(*args: object, **kwargs: object) -> None:
        raise AssertionError("the full disk did not stop the upgrade (the test's own mistake)")

    monkeypatch.setattr(bot, "create_bot", never)  # never reaches for Discord
    try:
        with pytest.raises(SystemExit) as stopped:
            bot.main([])
    finally:
        monkeypatch.setattr(SqliteBackend, "_connect", connect)

        async def upgraded() -> int:
            store = await Store.open(path)
            try:
                return len(await store.open_games_in_guild(1))
            finally:
                await store.close()

        assert asyncio.run(upgraded()) == 20  # the next start upgrades, nothing lost
    assert stopped.value.code == 3
    assert "Database error" in capsys.readouterr().err


async def test_a_migration_the_database_user_may_not_run_is_reported_clearly(
    postgres: str, pg_url: str
) -> None:
    """PostgreSQL: the bot's role may read and write the tables but does not own them (a
    restore made by another role, a DBA's setup), so today's migration 7 (ALTER TABLE moves)
    is refused. Today asyncpg's InsufficientPrivilegeError escapes Store.open, so bot.main
    dies with a traceback and exit code 1 instead of "Database error: ..." and exit code 3;
    it should be a StoreUnavailable naming the migration and what the role lacks."""
    store = await Store.open(pg_url)
    await downgrade(store, 6)
    await store.close()
    schema = pg_url.split("search_path=")[1]
    role = f"bot_{schema}"
    conn = await asyncpg.connect(postgres)
    try:
        await conn.execute(f"CREATE ROLE {role} LOGIN")
        await conn.execute(f"GRANT USAGE, CREATE ON SCHEMA {schema} TO {role}")
        await conn.execute(
            f"GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA {schema} TO {role}"
        )
        await conn.execute(f"GRANT USAGE ON ALL SEQUENCES IN SCHEMA {schema} TO {role}")
    finally:
        await conn.close()
    url = pg_url.replace("postgres@", f"{role}@", 1)
    with pytest.raises(StoreUnavailable):
        store = await Store.open(url)
        await store.close()


@pytest.mark.parametrize("version", [3, 4, 6, LATEST])
async def test_a_database_moved_by_dump_and_restore_is_recognised(
    tmp_path: Path, version: int
) -> None:
    """A server owner moves the bot to a new machine (or repairs a damaged file, as the
    bot's own message advises) the usual SQLite way: ``sqlite3 old.db .dump | sqlite3 new.db``
    (Python: ``iterdump``). A dump keeps every table and row but not ``PRAGMA user_version``,
    so the restored file says version 0. Before, the start ran migration 1 over the existing
    tables: "table games already exists", a traceback and exit code 1. Now the version is
    found from the schema, and the later steps run."""
    old = tmp_path / "old.db"
    store = await Store.open(old)
    game = await store.create_lobby(1, 10, "uno", 100, "Ann", {"target": 300}, seed=7)
    await store.start_game(game.id, {"n": 0}, {})
    await downgrade(store, version)
    await store.close()
    source = sqlite3.connect(old)
    restored = sqlite3.connect(tmp_path / "new.db")
    restored.executescript("\n".join(source.iterdump()))
    source.close()
    assert restored.execute("PRAGMA user_version").fetchone() == (0,)
    restored.close()

    store = await Store.open(tmp_path / "new.db")
    try:
        assert await store.backend.write(single(one("PRAGMA user_version"))) == (LATEST,)
        loaded = await store.get_game(game.id)
        assert loaded is not None and loaded.options == {"target": 300}
        await store.record_move(game.id, 0, 100, "draw", {"n": 1}, {})  # notes column: 7
    finally:
        await store.close()


def test_the_newest_migration_leaves_a_mark_a_dump_keeps() -> None:
    """A new migration must add its line to ``SQLITE_MARKS`` (or say why it cannot): else a
    dumped file at that version would run it again."""
    assert SQLITE_MARKS[0][0] == LATEST


async def test_a_second_copy_of_the_bot_on_the_same_sqlite_file_is_refused(
    tmp_path: Path,
) -> None:
    """Upgrading by hand, the owner starts the new version while the old one still runs (a
    second ``python bot.py``, a new container before the old one stopped). With SQLite the
    bot is meant to be alone on its file (no cross-process game locks, claims or cache
    checks: those exist only for PostgreSQL), and ``check_file`` even words its refusal for
    "another copy of the bot?" -- but it only notices a copy that is inside a write at that
    very moment. Today the second copy opens the file, migrates it under the running one and
    starts: both answer every click, fire every timer and post every reminder. The second
    open should be refused with a StoreUnavailable saying another copy uses the file (an
    exclusive lock held for the process's life, such as ``flock`` on a side file)."""
    path = tmp_path / "games.db"
    running = subprocess.Popen(  # the old copy, in its own process, serving
        [sys.executable, "-c", RUNNING_COPY, str(path)],
        cwd=Path(__file__).resolve().parents[2],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert running.stdout is not None and running.stdout.readline().strip() == "ready"
        with pytest.raises(StoreUnavailable):
            second = await Store.open(path, timeout=0.5)
            await second.close()
    finally:
        assert running.stdin is not None
        running.stdin.close()
        running.wait(10)


RUNNING_COPY = """
import asyncio, sys
from db import Store

async def serve():
    store = await Store.open(sys.argv[1])
    print("ready", flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
    await store.close()

asyncio.run(serve())
"""


async def test_a_file_system_without_locks_runs_unguarded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Some network shares refuse POSIX locks (ENOLCK): that is no second copy, and the bot
    must not say so and refuse to start; it runs as before, unguarded."""
    import errno
    import fcntl

    def no_locks(fd: int, how: int) -> None:
        raise OSError(errno.ENOLCK, "No locks available")

    monkeypatch.setattr(fcntl, "lockf", no_locks)
    store = await Store.open(tmp_path / "games.db")
    await store.close()
