"""Slow Discord, slow database: slash commands and reminders still tell the truth in time.

Before, only buttons told Discord "working on it" after ``ACK_WITHIN`` seconds; a slash
command slower than 3 s was dropped by Discord ("The application did not respond") and its
late answer failed. Now a slow command shows a private "thinking…" first, and its answer
takes its place; a public answer (a lobby, /endgame's notice) is posted for everyone, the
private "thinking…" removed.

Virtual time: every slow call below is an ``asyncio.sleep`` that simcord runs on its clock."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from simcord.http.client import FakeHTTPClient

from tests.discord.driver import Table, controls, message_text
from tests.discord.test_stats import finished_game
from tests.discord.test_turn_clocks import NUDGE, a_move, current, nudges

# How the bot answers Discord: the same on either database, so run on one. The slash call
# returns once simcord gives up settling (the sleeps are virtual): a short window is faster.
pytestmark = [
    pytest.mark.parametrize("database", ["sqlite"], indirect=True),
    pytest.mark.simcord(settle_timeout=0.3),
]


def slow(monkeypatch: pytest.MonkeyPatch, store: Any, method: str, seconds: float) -> None:
    """The store's ``method`` takes ``seconds`` (a lock another process holds, a disk that
    stalls), then does its work."""
    real = getattr(store, method)

    async def slowly(*args: Any, **kwargs: Any) -> Any:
        await asyncio.sleep(seconds)
        return await real(*args, **kwargs)

    monkeypatch.setattr(store, method, slowly)


def slow_rest(monkeypatch: pytest.MonkeyPatch, method: str, path_part: str, seconds: float) -> None:
    """The bot's REST calls matching ``method`` and ``path_part`` take ``seconds`` (a slow
    Discord, or discord.py waiting out a 429 of that route): they succeed, late."""
    real = FakeHTTPClient.request

    async def slowly(self: Any, route: Any, **kwargs: Any) -> Any:
        if route.method == method and path_part in route.url:
            await asyncio.sleep(seconds)
        return await real(self, route, **kwargs)

    monkeypatch.setattr(FakeHTTPClient, "request", slowly)


async def test_a_slow_newgame_still_opens_a_lobby_everyone_sees(
    simcord_env: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    ann = guild.add_member(env.create_user("ann"))
    slow(monkeypatch, env.bot.store, "create_lobby", 4.0)
    result = await ann.slash(channel, "newgame uno")
    await env.advance_time(5)
    assert result.acknowledged, "Discord dropped the command"
    history = channel.history()
    lobbies = [m for m in history if any(c.label == "Join" for c in controls(m))]
    assert len(lobbies) == 1, [message_text(m) for m in history]
    assert not lobbies[0].flags.ephemeral, "the lobby went to the host alone"
    assert (await env.bot.store.open_game_in_channel(channel.id)) is not None
    assert env.errors == [], env.errors


async def test_a_slow_endgame_tells_the_channel(
    simcord_env: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = await Table.start(simcord_env, "uno", 2, seed=5)
    host = next(iter(table.members.values()))
    slow(monkeypatch, simcord_env.bot.store, "end_game", 4.0)
    result = await host.slash(table.channel, "endgame")
    await simcord_env.advance_time(5)
    assert result.acknowledged, "Discord dropped the command"
    told = [m for m in table.channel.history() if "was ended by" in message_text(m)]
    assert len(told) == 1 and not told[0].flags.ephemeral, [message_text(m) for m in told]
    assert simcord_env.errors == [], simcord_env.errors


async def test_a_slow_endgame_whose_answer_fails_leaves_no_arrow_behind(
    simcord_env: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """/endgame is slow (the private "thinking…" shows), then Discord fails the public answer.
    Before, the host was left with a private "⬇️" pointing at nothing (the channel is told by
    a post instead). Now the "thinking…" is removed either way."""
    table = await Table.start(simcord_env, "uno", 2, seed=5)
    host = next(iter(table.members.values()))
    slow(monkeypatch, simcord_env.bot.store, "end_game", 4.0)
    real = discord.Webhook.send

    async def failing(self: discord.Webhook, *args: Any, **kwargs: Any) -> Any:
        if "was ended by" in (kwargs.get("content") or ""):
            raise discord.DiscordServerError(SimpleNamespace(status=503, reason="down"), "")
        return await real(self, *args, **kwargs)

    monkeypatch.setattr(discord.Webhook, "send", failing)
    result = await host.slash(table.channel, "endgame")
    await simcord_env.advance_time(30)
    assert result.acknowledged and result.response is None, result.response
    told = [m for m in table.channel.history() if "was ended by" in message_text(m)]
    assert len(told) == 1 and not told[0].flags.ephemeral  # the post in its place
    assert simcord_env.errors == [], simcord_env.errors


async def test_a_slow_refusal_is_still_private(
    simcord_env: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A member who is not playing types /hand while the database is slow: told privately."""
    table = await Table.start(simcord_env, "uno", 2, seed=5)
    stranger = table.channel.guild.add_member(simcord_env.create_user("zed"))
    slow(monkeypatch, simcord_env.bot.store, "open_game_in_channel", 4.0)
    result = await stranger.slash(table.channel, "hand")
    await simcord_env.advance_time(5)
    assert result.acknowledged
    shown = result.followups[-1] if result.followups else result.response
    assert shown is not None and shown.ephemeral, "a refusal shown to the channel"
    assert "thinking" not in message_text(shown).lower()
    assert simcord_env.errors == [], simcord_env.errors


async def test_the_hand_command_is_answered_while_the_database_is_slow(
    simcord_env: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A player types /hand while the database is slow (6 s here). Before, Discord dropped
    the command at 3 s and the late answer failed with 10062, logged as an error with its
    stack."""
    table = await Table.start(simcord_env, "uno", 2, seed=5)
    store = simcord_env.bot.store
    slow(monkeypatch, store, "open_game_in_channel", 6.0)
    player = await current(table)
    result = await table.members[player].slash(table.channel, "hand")
    await simcord_env.advance_time(7)
    errors = simcord_env.errors  # seen here, so the test fails on the assertions below
    monkeypatch.undo()
    assert result.acknowledged, "no answer within Discord's 3 s: 'The application did not respond'"
    shown = result.followups[-1] if result.followups else result.response
    assert shown is not None and shown.ephemeral and "Game #" in message_text(shown)
    assert errors == [], errors


async def test_history_is_answered_when_each_channel_lookup_takes_a_moment(
    simcord_env: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """/history in a server whose older games were played in channels discord.py does not
    know (deleted ones here; archived threads are the common case): ``Sight`` looks each up by
    REST, up to ``LOOKUPS`` (10) calls one after the other, before answering. With each
    lookup taking 0.35 s (slow, not failing), the answer came after 3.5 s, when Discord had
    dropped the command. Now "thinking…" is shown at 2 s and the answer takes its place."""
    env = simcord_env
    guild = env.create_guild()
    general = guild.create_text_channel("general")
    ann = guild.add_member(env.create_user("ann"))
    bea = guild.add_member(env.create_user("bea"))
    for channel_id in (900 + i for i in range(12)):
        await finished_game(env.bot, guild.id, channel_id, ann.id, bea.id)
    slow_rest(monkeypatch, "GET", "/channels/9", 0.35)  # the deleted channels' lookups
    result = await ann.slash(general, "history")
    for _ in range(14):  # step by step: each lookup lands in virtual time
        await env.advance_time(0.35)
    errors = env.errors
    assert result.acknowledged, "no answer within Discord's 3 s: 'The application did not respond'"
    assert errors == [], errors


async def test_no_reminder_is_posted_for_a_turn_played_while_the_old_one_was_deleted(
    simcord_env: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """bea's reminder is due; the bot first deletes the game's previous reminder, and that
    DELETE is slow (message deletes have a tight per-channel rate limit: discord.py waits out
    the 429). bea plays meanwhile. Before, the bot then still posted "@bea, your turn" for a
    turn she had played (``Timers.post_nudge`` looked at whom the game awaits only before
    the delete). Now it looks again after the delete."""
    table = await Table.start(simcord_env, "uno", 2, seed=5)
    first = await current(table)
    await simcord_env.advance_time(NUDGE + 1)  # first's reminder: the one to delete later
    assert len(nudges(table)) == 1
    await table.act(first, await a_move(table, first), via="dm")
    second = await current(table)
    assert second != first
    slow_rest(monkeypatch, "DELETE", "/messages/", 8.0)
    await simcord_env.advance_time(NUDGE + 1)  # second's reminder is on its way (the delete)
    before = {m.id for m in table.channel.history()}
    await table.act(second, await a_move(table, second), via="dm")
    assert await current(table) != second
    await simcord_env.advance_time(10)  # the delete lands, then the post
    posted_after = [m for m in nudges(table) if m.id not in before]
    pinging = [m for m in posted_after if f"<@{second}>" in (m.content or "")]
    assert pinging == [], f"a reminder pings {second} for a turn already played: {pinging}"
