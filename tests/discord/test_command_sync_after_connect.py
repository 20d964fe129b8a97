"""The slash-command sync runs once the bot is connected, in the background.

The sync (``PUT /applications/{id}/commands``) is a tightly limited route: at a restart (a
deploy, a crash loop) discord.py may wait out a 429 on it for minutes. Before, the sync ran
in ``setup_hook``, which ``login`` awaits before the gateway connects: for all that time the
bot was offline and every click on every game failed, though the commands of the last sync
were still there. Now it starts at READY, as a task of its own.
"""

from __future__ import annotations

from typing import Any

import pytest
from simcord.http.client import FakeHTTPClient

# Nothing here touches the games' database: one run is enough.
pytestmark = pytest.mark.parametrize("database", ["sqlite"], indirect=True)


async def test_the_command_sync_starts_once_the_bot_is_connected(
    simcord_env: Any, make_bot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = simcord_env
    guild = env.create_guild()
    bot = make_bot()
    seen: list[bool] = []
    real = FakeHTTPClient.request

    async def watching(self: Any, route: Any, **kwargs: Any) -> Any:
        if route.method == "PUT" and route.url.endswith("/commands"):
            seen.append(bot.is_ready() and bot.get_guild(guild.id) is not None)
        return await real(self, route, **kwargs)

    monkeypatch.setattr(FakeHTTPClient, "request", watching)
    await env.restart_bot(bot)
    await env.settle()
    assert seen == [True], f"synced {len(seen)} times; connected at each: {seen}"
    # A READY after a reconnect syncs nothing more.
    await bot.on_ready()
    await env.settle()
    assert seen == [True]
