"""Stopping the playground (Ctrl-C, or the page's End preview session)."""

from __future__ import annotations

import asyncio

from config import load_settings


async def test_stopping_the_playground_closes_the_bot_and_its_database(
    tmp_path, monkeypatch
) -> None:
    """Ctrl-C or End preview session. Before, nothing closed the bot: its updates were not
    drained nor its database closed (data/playground.db-wal and -shm left after every
    session). Now leaving the playground closes the bot."""
    from cogs.playground import playground

    monkeypatch.chdir(tmp_path)
    settings = load_settings(need_token=False, dotenv=None)
    async with playground(settings, "uno", bot_pause=0) as (_preview, env):
        bot = env.bot
        await env.bot.store.count_open()  # the database is in use
    await asyncio.sleep(0.2)
    data = tmp_path / "data"
    assert bot.is_closed(), "the bot was never closed"
    assert not (data / "playground.db-wal").exists(), "the database was never closed"
