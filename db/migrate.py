"""Numbered SQL migrations (``db/migrations/NNN_name.sql``), each applied in one transaction."""

from __future__ import annotations

import re
from pathlib import Path

from db.backend import Backend

MIGRATIONS = Path(__file__).with_name("migrations")
_NAME = re.compile(r"^(\d+)_.+\.sql$")


def migration_files() -> list[tuple[int, Path]]:
    found = []
    for path in MIGRATIONS.glob("*.sql"):
        match = _NAME.match(path.name)
        if match:
            found.append((int(match.group(1)), path))
    return sorted(found)


async def migrate(backend: Backend) -> int:
    """Apply every migration newer than the database; a half-applied one never sticks."""
    async with backend.read() as tx:
        current = await backend.schema_version(tx)
    for number, path in migration_files():
        if number <= current:
            continue
        async with backend.write() as tx:
            # Another process may have migrated meanwhile: check again inside the transaction.
            if await backend.schema_version(tx) >= number:
                continue
            for statement in statements(path.read_text(encoding="utf-8")):
                await tx.execute(backend.ddl(statement))
            await backend.set_schema_version(tx, number)
        current = number
    return current


def statements(script: str) -> list[str]:
    """Split a migration into statements (our migrations hold no ';' inside literals)."""
    lines = [line.split("--", 1)[0] for line in script.splitlines()]
    return [s.strip() for s in "\n".join(lines).split(";") if s.strip()]
