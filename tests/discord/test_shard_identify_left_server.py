"""A shard whose gateway session is lost (a network cut longer than Discord keeps a session)
identifies afresh. Discord then sends READY and GUILD_CREATEs for the servers the bot is in
now; it sends no GUILD_DELETE for a server that removed the bot while the shard was away
(the same as at a restart: ``Lobby.end_games_of_servers_left``).

Before, such a game stayed active until the process restarted; now a server the shard's
READY leaves out is asked of Discord and, gone, heard of as a removal."""

from __future__ import annotations

from typing import Any

import pytest
from simcord.gateway import FakeGateway

from tests.discord.driver import Table, message_text

pytestmark = [
    pytest.mark.parametrize("database", ["sqlite"], indirect=True),
    pytest.mark.simcord(strict_sync=False),  # SHARD_IDS=1 alone leaves the sync to shard 0
]


@pytest.fixture(params=[None, (1,)], ids=["both-shards", "shard-1-alone"])
def simcord_bot(make_bot: Any, request: pytest.FixtureRequest) -> Any:
    # One process running both shards (SHARD_COUNT=2), or only shard 1 (SHARD_IDS=1).
    return make_bot(shard_count=2, shard_ids=request.param)


async def test_a_server_that_removed_the_bot_while_its_shard_was_away_keeps_no_game(
    simcord_env: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """UNO on a server of shard 1. Shard 1's connection drops for longer than Discord keeps
    its session; meanwhile the server's owner removes the bot. Shard 1 identifies afresh:
    READY no longer lists the server, and nothing says it was left. The game should end as
    it does when the same removal happens while the whole bot is down ("the bot was removed
    from its server while it was away"). It stays active until the process restarts, each
    reminder refused five times (403): with both shards in the process, discord.py
    dispatches no on_ready for one shard's new session (only on_shard_ready), so the look
    never runs; with shard 1 alone on_ready comes, but AutoShardedConnectionState.parse_ready
    does not clear the cache, so ``get_guild`` still returns the left server."""
    env = simcord_env
    env.create_guild("shard one", shard_id=1)
    table = await Table.start(env, "uno", 2, seed=7, turn_timer=0)
    await table.some_move(via="picker")  # from the table: DMs belong to shard 0
    await env.settle()
    guild_id = table.channel.guild.id
    assert (guild_id >> 22) % 2 == 1

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
    env.backend.remove_guild(guild_id)
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
    await env.advance_time(10 * 60)  # a few housekeeping passes, a reminder
    await env.bot.presenter.idle()

    session = await table.session()
    assert session.row.status == "cancelled", (
        f"game still {session.row.status!r} 10 minutes after shard 1 came back "
        f"(server still cached: {env.bot.get_guild(guild_id) is not None})"
    )
    for player in table.members:
        dm = table.dm_message(player)
        assert dm is not None and "the bot was removed from its server" in message_text(dm)
