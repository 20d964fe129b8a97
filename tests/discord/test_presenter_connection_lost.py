"""Drawing under a misbehaving Discord: the connection to Discord dropping."""

from __future__ import annotations

import logging
from typing import Any

import aiohttp
import pytest
from simcord.http.client import FakeHTTPClient

from tests.discord.driver import Table
from tests.discord.test_turn_clocks import a_move, current


@pytest.mark.parametrize("edited", ["table", "dm"])
async def test_a_dropped_connection_on_an_edit_is_not_logged_as_a_bug(
    simcord_env: Any, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch, edited: str
) -> None:
    """The connection to Discord drops for a minute (discord.py tries a request five times
    over about 25 s on a connection error, then raises ``aiohttp.ClientOSError``). A move
    is made meanwhile: the edit of the table (or of the next player's DM hand) raises that
    network error. Before, it was taken for a bug in the bot: "table update failed:
    ClientOSError" (``Presenter._guard``) or "DM of <member> failed" (``update_dms``) at
    ERROR with a full traceback, again at every retry, where a 5xx, the very same outage seen
    as an HTTP status, is one WARNING line each. Now a connection error is logged as the HTTP
    failures are (Discord unreachable, not a bug)."""
    env = simcord_env
    table = await Table.start(env, "uno", 2, seed=5)
    player = await current(table)
    if edited == "table":
        message_id = (await table.session()).row.table_message_id
    else:
        dm = table.dm_message(next(p for p in table.members if p != player))
        assert dm is not None
        message_id = dm.id
    real = FakeHTTPClient.request

    async def dropped(self: Any, route: Any, **kwargs: Any) -> Any:
        if route.method == "PATCH" and route.url.endswith(f"/messages/{message_id}"):
            raise aiohttp.ClientOSError(104, "Connection reset by peer")
        return await real(self, route, **kwargs)

    monkeypatch.setattr(FakeHTTPClient, "request", dropped)
    caplog.set_level(logging.INFO)
    caplog.clear()
    await table.act(player, await a_move(table, player), via="dm")
    await env.advance_time(40)
    monkeypatch.setattr(FakeHTTPClient, "request", real)  # the connection is back
    await env.advance_time(60)
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    traced = [e.split("\n")[0] for e in errors if "\n" in e]
    assert traced == [], f"{len(traced)} ERROR tracebacks for one network blip: {traced}"
