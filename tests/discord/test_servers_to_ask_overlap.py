"""Servers a shard's READY left out, asked about by READY's handler and housekeeping at once.
Before, the second to finish raised KeyError, which ended the housekeeping loop for good
(lobbies no longer expired); now the asking is serialised and tolerant."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import discord
import pytest

pytestmark = pytest.mark.parametrize("database", ["sqlite"], indirect=True)


async def test_housekeeping_asking_while_reads_question_is_pending_raises(
    simcord_env: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A shard's fresh READY leaves a server out; the bot asks Discord about it (the route is
    slow: a 429 wait, the minutes after a network cut). Housekeeping runs meanwhile and asks
    again (``servers_to_ask`` still holds it). Both hear "Unknown Guild"; the first drops
    the server from ``servers_to_ask``, the second's ``del`` raises KeyError out of
    ``Lobby.housekeeping`` ("never raises: an error would end this loop for good"): lobbies
    then never expire until a restart."""
    env = simcord_env
    guild_handle = env.create_guild("left")
    await env.settle()
    bot = env.bot
    guild = bot.get_guild(guild_handle.id)
    assert guild is not None

    async def slow_unknown(guild_id: int, *, with_counts: bool = True) -> Any:
        await asyncio.sleep(5)
        raise discord.NotFound(SimpleNamespace(status=404, reason="Not Found"), "Unknown Guild")

    monkeypatch.setattr(bot, "fetch_guild", slow_unknown)
    bot.servers_to_ask[guild.id] = guild
    lobby = bot.get_cog("Lobby")
    first = asyncio.ensure_future(bot.ask_about_servers())  # READY's question
    await asyncio.sleep(0)
    housekeeping = asyncio.ensure_future(lobby.housekeeping.coro(lobby))
    await env.advance_time(10)
    results = await asyncio.gather(first, housekeeping, return_exceptions=True)
    errors = [r for r in results if isinstance(r, BaseException)]
    assert not errors, f"asking twice at once raised: {errors!r}"
