"""Gateway lifecycle checks (one process, no shards): a new session (READY again), a server
unavailable for a while."""

from __future__ import annotations

from typing import Any

import pytest
from simcord.backend import serializers

from tests.discord.driver import Table, message_text
from tests.discord.gateway_events import reidentify

pytestmark = pytest.mark.parametrize("database", ["sqlite"], indirect=True)


async def test_a_removal_missed_while_disconnected_ends_the_game_at_a_new_session(
    simcord_env: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = simcord_env
    table = await Table.start(env, "uno", 2, seed=7, turn_timer=0)
    await table.some_move()
    await env.settle()
    other = env.create_guild("other")  # still the bot's: kept
    emit = env.backend.emit
    monkeypatch.setattr(
        env.backend, "emit", lambda e, d: None if e == "GUILD_DELETE" else emit(e, d)
    )
    env.backend.remove_guild(table.channel.guild.id)
    monkeypatch.setattr(env.backend, "emit", emit)
    reidentify(env)
    await env.settle()
    await env.bot.presenter.idle()
    assert (await table.session()).row.status == "cancelled"
    assert env.bot.get_guild(other.id) is not None


async def test_a_new_session_redraws_and_posts_nothing(simcord_env: Any) -> None:
    env = simcord_env
    table = await Table.start(env, "uno", 2, seed=7, turn_timer=0)
    await table.some_move()
    await env.settle()
    await env.bot.presenter.idle()
    start = len(env.http_requests)
    reidentify(env)
    await env.settle()
    await env.bot.presenter.idle()
    assert (await table.session()).row.status == "active"
    calls = [(r.method, r.path) for r in env.http_requests[start:]]
    assert calls == []
    await table.some_move()
    await env.settle()
    assert (await table.session()).row.status == "active"


async def test_a_server_outage_ends_nothing(simcord_env: Any) -> None:
    env = simcord_env
    table = await Table.start(env, "uno", 2, seed=7, turn_timer=0)
    await table.some_move()
    await env.settle()
    guild_id = table.channel.guild.id
    env.backend.emit("GUILD_DELETE", {"id": str(guild_id), "unavailable": True})
    await env.settle()
    assert (await table.session()).row.status == "active"
    await env.advance_time(10 * 60)  # housekeeping passes meanwhile
    assert (await table.session()).row.status == "active"
    await table.some_move()  # from a DM, during the outage
    await env.settle()
    payload = serializers.guild_create_payload(env.backend, env.backend.guilds[guild_id])
    env.backend.emit("GUILD_CREATE", payload)
    await env.settle()
    await env.bot.presenter.idle()
    assert (await table.session()).row.status == "active"
    for player in table.members:
        dm = table.dm_message(player)
        assert dm is not None and "ended" not in message_text(dm)


async def test_games_during_a_server_outage(simcord_env: Any) -> None:
    env = simcord_env
    table = await Table.start(env, "uno", 2, seed=7, turn_timer=0)
    await env.settle()
    env.backend.emit("GUILD_DELETE", {"id": str(table.channel.guild.id), "unavailable": True})
    await env.settle()
    ann = next(iter(table.members.values()))
    result = await ann.slash(table.channel, "games")
    text = "".join(e.description or "" for e in result.response.embeds or [])
    assert f"#{table.game_id}" in text, result.response.content
