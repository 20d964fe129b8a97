"""simcord fixtures: the real bot against an offline simulated Discord."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot import CardBot, create_bot
from config import Settings


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "games.db"


@pytest.fixture
def make_bot(db_path: Path):
    def make() -> CardBot:
        return create_bot(Settings(token="test-token", database_path=str(db_path)))

    return make


@pytest.fixture
def simcord_bot(make_bot) -> CardBot:
    return make_bot()
