"""Numbered SQL migrations tracked by ``PRAGMA user_version``."""

from __future__ import annotations

import re
from pathlib import Path

import aiosqlite

MIGRATIONS = Path(__file__).with_name("migrations")
_NAME = re.compile(r"^(\d+)_.+\.sql$")


def migration_files() -> list[tuple[int, Path]]:
    found = []
    for path in MIGRATIONS.glob("*.sql"):
        match = _NAME.match(path.name)
        if match:
            found.append((int(match.group(1)), path))
    return sorted(found)


async def migrate(conn: aiosqlite.Connection) -> int:
    """Apply every migration newer than the database, each in its own transaction."""
    async with conn.execute("PRAGMA user_version") as cur:
        row = await cur.fetchone()
    current = row[0] if row else 0
    for number, path in migration_files():
        if number <= current:
            continue
        # executescript would commit on its own; run statements inside one explicit transaction
        # so a half-applied migration never sticks.
        await _run(conn, "BEGIN")
        try:
            for statement in _statements(path.read_text()):
                await _run(conn, statement)
            await _run(conn, f"PRAGMA user_version = {number}")
            await conn.commit()
        except BaseException:
            await conn.rollback()
            raise
        current = number
    return current


async def _run(conn: aiosqlite.Connection, sql: str) -> None:
    # Close every cursor at once: an open one blocks COMMIT ("SQL statements in progress").
    async with conn.execute(sql):
        pass


def _statements(script: str) -> list[str]:
    """Split a migration into statements (our migrations hold no ';' inside literals)."""
    lines = [line.split("--", 1)[0] for line in script.splitlines()]
    return [s.strip() for s in "\n".join(lines).split(";") if s.strip()]
