"""Gateway events a test sends the bot: a new session (READY again) and Discord's outage of a
server (GUILD_DELETE marked unavailable, then GUILD_CREATE)."""

from __future__ import annotations

from typing import Any

from simcord.backend import serializers
from simcord.gateway import FakeGateway

from tests.discord.driver import Table, uno_turn_clock


def emit_ready(env: Any) -> None:
    """A new gateway session's READY: every server the bot is in is listed unavailable (its
    GUILD_CREATE is still to come)."""
    backend = env.backend
    backend.emit(
        "READY",
        {
            "v": 10,
            "user": dict(serializers.user_payload(backend.bot_user)),
            "guilds": [{"id": str(g), "unavailable": True} for g in backend.guilds],
            "session_id": "again",
            "resume_gateway_url": "wss://simcord.invalid",
            "application": {"id": str(backend.application_id), "flags": 0},
        },
    )


async def new_session_without_guild_creates(env: Any) -> None:
    """A new gateway session: READY (every server unavailable), its GUILD_CREATEs to come."""
    emit_ready(env)
    await env.settle()


def reidentify(env: Any) -> None:
    """The session is lost and the bot identifies afresh: READY lists every server the bot
    is in (unavailable until its GUILD_CREATE), then a GUILD_CREATE for each."""
    emit_ready(env)
    backend = env.backend
    for guild in list(backend.guilds.values()):
        backend.emit("GUILD_CREATE", serializers.guild_create_payload(backend, guild))


async def twenty_seconds_into_a_turn(env: Any) -> tuple[Table, str, int, int]:
    """UNO with a 60 s turn timer, 20 s into the first awaited player's turn: the table, that
    player, the session's version then and the table's server id."""
    table, player, before = await uno_turn_clock(env)
    guild_id = table.channel.guild.id
    await env.advance_time(20)
    return table, player, before, guild_id


async def server_outage(env: Any, guild_id: int, seconds: float) -> None:
    """Discord loses the server (GUILD_DELETE unavailable) for ``seconds``, then it is back
    (GUILD_CREATE)."""
    env.backend.emit("GUILD_DELETE", {"id": str(guild_id), "unavailable": True})
    await env.settle()
    await env.advance_time(seconds)
    payload = serializers.guild_create_payload(env.backend, env.backend.guilds[guild_id])
    env.backend.emit("GUILD_CREATE", payload)
    await env.settle()


async def game_on_shard_one(env: Any) -> tuple[Table, int]:
    """UNO (no turn timer) on a server of shard 1, one move made from the table: the table and
    its server id."""
    env.create_guild("shard one", shard_id=1)
    table = await Table.start(env, "uno", 2, seed=7, turn_timer=0)
    await table.some_move(via="picker")  # from the table: DMs belong to shard 0
    await env.settle()
    guild_id = table.channel.guild.id
    assert (guild_id >> 22) % 2 == 1
    return table, guild_id


async def shard_one_identifies_without(
    env: Any, monkeypatch: Any, table: Table, *faults: dict[str, Any]
) -> None:
    """Shard 1's session is lost and, while it is away, the bot is removed from the table's
    server; shard 1 then identifies afresh (READY leaves the server out, no GUILD_DELETE).
    ``faults`` are added to the backend's with the server's removal."""
    shard = env.bot.get_shard(1)
    await shard.disconnect()
    # The bot is removed while shard 1 is away: its GUILD_DELETE is lost, and Discord
    # refuses the server's channels to the bot from now on (403 Missing Access).
    env.backend.faults.append(
        {
            "method": "*",
            "path": f"/channels/{table.channel.id}*",
            "status": 403,
            "code": 50001,
            "message": "Missing Access",
            "times": None,
        }
    )
    env.backend.faults.extend(faults)
    env.backend.remove_guild(table.channel.guild.id)
    # Real Discord sends no GUILD_DELETE after a new READY for servers left meanwhile
    # (simcord's replay makes one up from discord.py's cache).
    feed = FakeGateway.feed
    monkeypatch.setattr(
        FakeGateway,
        "feed",
        lambda self, event, data: None if event == "GUILD_DELETE" else feed(self, event, data),
    )
    await shard.reconnect()
    monkeypatch.setattr(FakeGateway, "feed", feed)
    await env.settle()
