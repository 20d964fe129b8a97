"""After a shard's fresh IDENTIFY, a server READY left out is asked of Discord. Before, when
that one question failed (a 503 in the minutes a network cut often comes with), the server was
never asked again: it stayed cached as available, its game open until a restart. Now it is
asked again by each housekeeping pass until Discord answers."""

from __future__ import annotations

from typing import Any

import pytest

from tests.discord.gateway_events import game_on_shard_one, shard_one_identifies_without

pytestmark = [
    pytest.mark.parametrize("database", ["sqlite"], indirect=True),
    pytest.mark.simcord(strict_sync=False),
]


@pytest.fixture
def simcord_bot(make_bot: Any) -> Any:
    return make_bot(shard_count=2)


async def test_a_failed_look_at_a_server_left_while_away_is_tried_again(
    simcord_env: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As test_shard_identify_left_server.py, but Discord answers the one question about
    the server with a 503 once. Ten minutes later the game should have ended all the same."""
    env = simcord_env
    table, guild_id = await game_on_shard_one(env)
    await shard_one_identifies_without(
        env,
        monkeypatch,
        table,
        {"method": "GET", "path": f"/guilds/{guild_id}*", "status": 503, "times": 1},
    )
    await env.advance_time(10 * 60)
    await env.bot.presenter.idle()

    session = await table.session()
    assert session.row.status == "cancelled", (
        f"game still {session.row.status!r} 10 minutes after shard 1 came back "
        f"(server still cached: {env.bot.get_guild(guild_id) is not None})"
    )
