"""A shard whose gateway session is lost (a network cut longer than Discord keeps a session)
identifies afresh. Discord then sends READY and GUILD_CREATEs for the servers the bot is in
now; it sends no GUILD_DELETE for a server that removed the bot while the shard was away
(the same as at a restart: ``Lobby.end_games_of_servers_left``).

Before, such a game stayed active until the process restarted; now a server the shard's
READY leaves out is asked of Discord and, gone, heard of as a removal."""

from __future__ import annotations

from typing import Any

import pytest

from tests.discord.driver import message_text
from tests.discord.gateway_events import game_on_shard_one, shard_one_identifies_without

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
    table, guild_id = await game_on_shard_one(env)
    await shard_one_identifies_without(env, monkeypatch, table)
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
