"""Numbered SQL migrations (``db/migrations/NNN_name.sql``), each applied in one transaction."""

from __future__ import annotations

import re
from pathlib import Path

from db.backend import Backend
from db.errors import StoreError, StoreUnavailable
from db.script import Script, one, run

MIGRATIONS = Path(__file__).with_name("migrations")
_NAME = re.compile(r"^(\d+)_.+\.sql$")

# SQLite keeps the version in ``PRAGMA user_version``, which a copy made with ``.dump`` (the
# usual way to move or repair a file) loses: the restored file reads 0 with every table there.
# Its version is then found from what each migration made, newest first. 005 made nothing to
# look for: a file at 5 reads 4, and 005 (marking running games shown) is harmless again.
SQLITE_MARKS = [
    (10, "SELECT 1 FROM pragma_table_info('games') WHERE name = 'old_dms'"),
    (9, "SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = 'games_host_created'"),
    (8, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'"),
    (7, "SELECT 1 FROM pragma_table_info('moves') WHERE name = 'notes'"),
    (6, "SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = 'games_undrawn_ended'"),
    (4, "SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = 'games_undrawn'"),
    (3, "SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = 'stats_rank'"),
    (2, "SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = 'games_open_guild'"),
    (1, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'games'"),
]


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

    def recovered() -> Script[int]:
        """A version lost by a dump and restore (SQLite), found again and stored."""
        found = yield from current()
        if found or backend.dialect != "sqlite":
            return found
        for number, sql in SQLITE_MARKS:
            if (yield one(sql)) is not None:
                yield backend.set_version_op(number)
                return number
        return 0

    files = migration_files()
    newest = files[-1][0] if files else 0
    version = await backend.write(recovered())
    if version > newest:
        raise StoreUnavailable(
            f"The database was upgraded by a newer version of the bot (schema {version}; this "
            f"one knows up to {newest}). Run that version or a newer one, or restore a backup "
            "made before the upgrade."
        )
    for number, path in files:
        if number > version:
            try:
                version = await backend.write(apply(number, path))
            except StoreError:
                raise
            except Exception as error:  # the driver's own: disk full, not the tables' owner
                raise StoreUnavailable(
                    f"Upgrading the database failed at step {path.stem} ({error}). Nothing of "
                    "that step was kept: fix the cause and start the bot again."
                ) from error
    return version


def statements(script: str) -> list[str]:
    """Split a migration into statements (our migrations hold no ';' inside literals)."""
    lines = [line.split("--", 1)[0] for line in script.splitlines()]
    return [s.strip() for s in "\n".join(lines).split(";") if s.strip()]
