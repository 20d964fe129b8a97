"""Drawing under a misbehaving Discord: the connection to Discord dropping."""

from __future__ import annotations

import logging
from typing import Any

import aiohttp
import pytest
from simcord.http.client import FakeHTTPClient

from tests.discord.driver import Table
from tests.discord.test_turn_clocks import a_move, current


async def test_a_dropped_connection_on_a_table_edit_is_not_logged_as_a_bug(
    simcord_env: Any, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The connection to Discord drops for a minute (discord.py tries a request five times
    over about 25 s on a connection error, then raises ``aiohttp.ClientOSError``). A move
    is made meanwhile: the table edit raises that network error, and ``Presenter._guard``
    treats it as a bug in the bot: "table update failed: ClientOSError" at ERROR with a full
    traceback, again at every retry (a 5xx, the very same outage seen as an HTTP status, is
    one WARNING line each). The owner reads half a dozen tracebacks per game for a network
    blip. That was before; now a connection error is logged as the HTTP failures are (Discord
    unreachable, not a bug)."""
    env = simcord_env
    table = await Table.start(env, "uno", 2, seed=5)
    table_id = (await table.session()).row.table_message_id
    real = FakeHTTPClient.request

    async def dropped(self: Any, route: Any, **kwargs: Any) -> Any:
        if route.method == "PATCH" and route.url.endswith(f"/messages/{table_id}"):
            raise aiohttp.ClientOSError(104, "Connection reset by peer")
        return await real(self, route, **kwargs)

    monkeypatch.setattr(FakeHTTPClient, "request", dropped)
    caplog.set_level(logging.INFO)
    caplog.clear()
    player = await current(table)
    await table.act(player, await a_move(table, player), via="dm")
    await env.advance_time(40)
    monkeypatch.setattr(FakeHTTPClient, "request", real)  # the connection is back
    await env.advance_time(60)
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    traced = [e.split("\n")[0] for e in errors if "\n" in e]
    assert traced == [], f"{len(traced)} ERROR tracebacks for one network blip: {traced}"
