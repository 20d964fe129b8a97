"""simcord fixtures: the real bot against an offline simulated Discord."""

from __future__ import annotations

from typing import Any

import emoji as emoji_list
import pytest

from bot import CardBot, create_bot
from cogs.faces.catalog import NoFaces
from cogs.render import faces
from config import Settings
from tests.discord.rest_checks import add_check, invalid_form, writes_message


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


@pytest.fixture
async def faces_on(simcord_env, make_bot):
    """A bot with card faces on, restarted in place of the first once its one-time upload
    is done; text cards again afterwards."""
    bot = make_bot(card_emojis=True)
    await simcord_env.restart_bot(bot)
    await bot.faces.wait()  # the one-time upload, in the background in production
    assert bot.faces.ready
    yield bot
    faces.use(NoFaces())


@pytest.fixture(autouse=True)
def _short_busy_retries(monkeypatch: pytest.MonkeyPatch) -> None:
    """simcord runs a timer due inside its settle window (5 s) in real time. On PostgreSQL
    the clock loop's claim skips a row the presenter's drawing lease holds and looks again
    ``BUSY`` seconds later; a bot playing a whole game with no pause met that a dozen times
    in one settle, 0.2 real seconds each, and a slow machine ran out of window."""
    monkeypatch.setattr("cogs.timers.BUSY", 0.01)


def _unknown_emojis(node: Any, path: str = "") -> list[str]:
    """Paths of the unicode emojis on buttons and options that Discord would refuse: it
    knows the fully-qualified Unicode emojis (``▶️``), not bare symbols (``🂠``, ``▶``)."""
    found: list[str] = []
    if isinstance(node, dict):
        mark = node.get("emoji")
        if isinstance(mark, dict) and not mark.get("id"):
            name = str(mark.get("name") or "")
            data = emoji_list.EMOJI_DATA.get(name)
            if data is None or data.get("status") != emoji_list.STATUS["fully_qualified"]:
                found.append(f"{path}.emoji.name {name!r}")
        for key in ("components", "options", "data"):
            if key in node:
                found += _unknown_emojis(node[key], f"{path}.{key}")
    elif isinstance(node, list):
        for i, item in enumerate(node):
            found += _unknown_emojis(item, f"{path}.{i}")
    return found


@pytest.fixture(autouse=True)
def discord_checks_unicode_emojis(monkeypatch: pytest.MonkeyPatch) -> None:
    """Discord's own check, which the simulator lacks: an emoji on a component must be one it
    knows, else the whole message is refused (400, 50035 "Invalid emoji")."""

    def check(backend: Any, method: str, path: str, body: Any) -> None:
        if writes_message(method, body) and (unknown := _unknown_emojis(body)):
            raise invalid_form(unknown[0], "Invalid emoji")

    add_check(monkeypatch, check)
