"""simcord fixtures: the real bot against an offline simulated Discord."""

from __future__ import annotations

from typing import Any

import pytest

from bot import CardBot, create_bot
from config import Settings


@pytest.fixture
async def make_bot(database: str):
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
        # Every test runs twice: on a SQLite file and on a PostgreSQL schema (``database``).
        if database.startswith("postgresql://"):
            settings.setdefault("database_url", database)
            # One process here: nothing to poll for (the simulator would tick every poll).
            settings.setdefault("clock_poll", 300.0)
        else:
            settings.setdefault("database_path", database)
        bot = create_bot(Settings(token="test-token", **settings))
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


@pytest.fixture(autouse=True)
def _short_busy_retries(monkeypatch: pytest.MonkeyPatch) -> None:
    """simcord runs a timer due inside its settle window (5 s) in real time. On PostgreSQL
    the clock loop's claim skips a row the presenter's drawing lease holds and looks again
    ``BUSY`` seconds later; a bot playing a whole game with no pause met that a dozen times
    in one settle, 0.2 real seconds each, and a slow machine ran out of window."""
    monkeypatch.setattr("cogs.timers.BUSY", 0.01)
