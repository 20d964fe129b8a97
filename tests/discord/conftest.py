"""simcord fixtures: the real bot against an offline simulated Discord."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot import CardBot, create_bot
from config import Settings


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "games.db"


@pytest.fixture
async def make_bot(db_path: Path):
    """A factory for bots on the same database (a restart builds a second one).

    simcord's shutdown does not call ``bot.close()``, so each bot's database connection is
    closed here: its worker thread would otherwise keep pytest alive after a failing test.
    """
    made: list[CardBot] = []

    def make(**settings: Any) -> CardBot:
        # Bots move without a pause in tests; the rest keeps its production defaults.
        settings.setdefault("bot_pause", 0)
        # Text cards, unless a test asks for faces (uploads run in the background).
        settings.setdefault("card_emojis", False)
        bot = create_bot(Settings(token="test-token", database_path=str(db_path), **settings))
        made.append(bot)
        return bot

    yield make
    for bot in made:
        store = getattr(bot, "store", None)
        if store is not None:
            await store.close()


@pytest.fixture
def simcord_bot(make_bot) -> CardBot:
    return make_bot()
