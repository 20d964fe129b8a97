"""The bot removed from a server (GUILD_DELETE heard) while the database blinks."""

from __future__ import annotations

from typing import Any

from db import StoreUnavailable
from tests.discord.driver import Table


async def test_a_removal_heard_during_a_database_blink_still_ends_the_games(
    simcord_env: Any, monkeypatch: Any
) -> None:
    """The bot is kicked from a server (GUILD_DELETE reaches it) at the moment the database
    is briefly unavailable (PostgreSQL restarting). ``Lobby.on_guild_remove`` lets the error
    escape (a traceback, "Ignoring exception in on_guild_remove") and the removal was never
    looked at again: unlike the READY check (``_left_unchecked``), nothing retried it. The
    game stayed active for good: its players, playing on from their DMs, are never told it
    ended, and every move sends refused calls to the channel of a server the bot is no longer
    in (Discord answers 403 Missing Access there), a dozen for three moves. Before, that
    happened; now the removal is tried again (as the READY check is) and the game ends
    within the next housekeeping pass, its channel no longer called."""
    env = simcord_env
    table = await Table.start(env, "uno", 2, seed=7, turn_timer=0)
    await table.some_move()
    await env.settle()
    kind = type(table.bot.store)
    real = kind.open_games_in_guild
    looks: list[int] = []

    async def down_at_first(self: Any, guild_id: int) -> Any:
        looks.append(guild_id)
        if len(looks) == 1:
            raise StoreUnavailable("PostgreSQL at localhost:5432 is unavailable")
        return await real(self, guild_id)

    monkeypatch.setattr(kind, "open_games_in_guild", down_at_first)
    guild_id, channel_id = table.channel.guild.id, table.channel.id
    # What Discord answers a bot about a channel of a server it is no longer in.
    env.inject_error(
        "*",
        f"/channels/{channel_id}*",
        status=403,
        code=50001,
        message="Missing Access",
        times=None,
    )
    env.backend.emit("GUILD_DELETE", {"id": str(guild_id)})  # kicked (not an outage)
    await env.settle()
    await env.advance_time(30 * 60)  # ten housekeeping passes, the database long back
    await env.settle()
    assert (await table.session()).row.status == "cancelled", "still active 30 min after"
    start = len(env.http_requests)
    await env.advance_time(600)
    await table.bot.presenter.idle()
    dead = [r for r in env.http_requests[start:] if f"/channels/{channel_id}" in r.path]
    assert dead == []
