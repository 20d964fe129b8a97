"""The harness's benchmark-only switch that shows in the load benchmark what FULL costs."""

from __future__ import annotations

from pathlib import Path

import pytest

from db.script import Script, one
from db.sqlite import SqliteBackend
from tests.fakediscord.run_bot import weaken_sqlite_sync

FULL, NORMAL = 2, 1  # PRAGMA synchronous's answers


def level() -> Script[tuple[int]]:
    row = yield one("PRAGMA synchronous")
    return row


async def levels(path: Path) -> tuple[int, int]:
    """synchronous on the writer's connection and on the reader's."""
    backend = await SqliteBackend.open(path)
    try:
        return (await backend.write(level))[0], (await backend.read(level))[0]
    finally:
        await backend.close()


async def test_the_bot_commits_with_full_unless_the_harness_weakens_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(SqliteBackend, "_connect", SqliteBackend._connect)  # undone after
    assert await levels(tmp_path / "full.db") == (FULL, FULL)

    weaken_sqlite_sync("normal")

    assert await levels(tmp_path / "normal.db") == (NORMAL, NORMAL)


def test_an_unknown_level_stops_the_harness(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(SqliteBackend, "_connect", SqliteBackend._connect)
    with pytest.raises(SystemExit, match="unknown level"):
        weaken_sqlite_sync("FAST")
