"""Numbered SQL migrations (``db/migrations/NNN_name.sql``), each applied in one transaction."""

from __future__ import annotations

import re
from pathlib import Path

from db.backend import Backend
from db.script import Script, run

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
    prepare, query = backend.version_ops()

    def current() -> Script[int]:
        for op in prepare:  # noqa: UP028 - each op's result is sent back; a list takes none
            yield op
        row = yield query
        return int(row[0]) if row and row[0] is not None else 0

    def apply(number: int, path: Path) -> Script[int]:
        # Another process may have migrated meanwhile: check again inside the transaction.
        if (yield from current()) >= number:
            return number
        for statement in statements(path.read_text(encoding="utf-8")):
            yield run(backend.ddl(statement))
        yield backend.set_version_op(number)
        return number

    version = await backend.write(current())
    for number, path in migration_files():
        if number > version:
            version = await backend.write(apply(number, path))
    return version


def statements(script: str) -> list[str]:
    """Split a migration into statements (our migrations hold no ';' inside literals)."""
    lines = [line.split("--", 1)[0] for line in script.splitlines()]
    return [s.strip() for s in "\n".join(lines).split(";") if s.strip()]
