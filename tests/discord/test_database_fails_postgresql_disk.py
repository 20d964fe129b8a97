"""A database failing while the bot runs is an outage on PostgreSQL too, as on SQLite.

The failure is injected into the real PostgreSQL backend's statement runner (``_op``): a
write fails as PostgreSQL fails it when its disk is full (SQLSTATE 53100)."""

from __future__ import annotations

import sys
from typing import Any

import asyncpg
import pytest

from tests.discord.driver import Table

pytestmark = pytest.mark.parametrize("database", ["postgresql"], indirect=True)


async def test_a_full_disk_on_postgresql_is_an_outage_not_a_bug(
    simcord_env: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before, a full disk on PostgreSQL raised asyncpg's DiskFullError raw (only lost
    connections and timeouts became StoreUnavailable): the player was told "Something went
    wrong on my side", the log got a traceback at every click, and the clock loop never heard
    of the outage. Now the player gets the same DATABASE_DOWN answer as on SQLite."""
    from cogs.replies import DATABASE_DOWN

    env = simcord_env
    timers = env.bot.get_cog("Timers")
    monkeypatch.setattr(sys.modules[type(timers).__module__], "DOWN_LOOK", 30.0)
    table = await Table.start(env, "uno", 2, seed=7)
    await env.settle()
    backend = env.bot.store.backend
    real_op = backend._op
    failing = [True]

    async def op(conn: Any, o: Any) -> Any:
        if (
            failing[0]
            and o.kind == "run"
            and o.sql.lstrip().upper().startswith(("UPDATE", "INSERT"))
        ):
            raise asyncpg.exceptions.DiskFullError(
                'could not extend file "base/16384/16402": No space left on device'
            )
        return await real_op(conn, o)

    monkeypatch.setattr(backend, "_op", op)
    game = await table.game()
    player = next(p for p in game.actors() if game.legal_actions(p))
    result = await table.act_once(player, game.legal_actions(player)[0].id)
    failing[0] = False
    _ = env.errors
    said = [result.response and result.response.content] + [
        f.content for f in (result.followups or [])
    ]
    assert any(DATABASE_DOWN in (s or "") for s in said), said
