"""Command sync when Discord fails: not a configuration error, and nothing forgotten."""

from __future__ import annotations

from typing import Any


async def test_a_clean_up_that_failed_once_is_tried_again_at_the_next_start(
    simcord_env: Any, make_bot: Any
) -> None:
    """DEV_GUILD_ID emptied again; at that start Discord fails the clean-up of the test
    server (503). Before, the server was forgotten anyway and its copies stayed for good.
    Now it is tried again at the next start."""
    env = simcord_env
    guild = env.create_guild()
    await env.restart_bot(make_bot(dev_guild_id=guild.id))
    await env.settle()
    assert env.backend.commands.get(guild.id)
    env.inject_error("PUT", f"/applications/*/guilds/{guild.id}/commands", status=503, times=10)
    await env.restart_bot(make_bot())  # DEV_GUILD_ID emptied; the clean-up meets an outage
    await env.settle()
    env.backend.faults.clear()
    await env.restart_bot(make_bot())  # the next start: Discord answers again
    await env.settle()
    left = env.backend.commands.get(guild.id)
    assert not left, (
        f"{len(left or [])} server copies of the commands stay beside the global ones in the "
        "old DEV_GUILD_ID server: every command listed twice, and no start clears them now"
    )


async def test_a_discord_outage_at_start_is_not_called_a_configuration_error(
    simcord_env: Any, make_bot: Any
) -> None:
    """Discord answers the DEV_GUILD_ID sync with 503 at a restart. Before, the owner read
    "Configuration error: DEV_GUILD_ID ... Fix the id" and the bot exited with 2. Now only a
    refusal (400, 403, 404) is a configuration error; an outage is logged and the bot runs
    with the commands of the last sync."""
    from config import ConfigError

    env = simcord_env
    guild = env.create_guild()
    await env.restart_bot(make_bot(dev_guild_id=guild.id))
    await env.settle()
    env.inject_error("PUT", f"/applications/*/guilds/{guild.id}/commands", status=503, times=10)
    try:
        await env.restart_bot(make_bot(dev_guild_id=guild.id))
        await env.settle()
    except ConfigError as error:
        raise AssertionError(f"a 503 is reported as a configuration error: {error}") from None
    except Exception:  # any other report of a failing Discord is fine here
        pass


async def test_a_sync_that_met_a_database_outage_is_tried_again_while_the_bot_runs(
    simcord_env: Any, make_bot: Any, monkeypatch: Any
) -> None:
    """A deploy that changes the commands starts while the database blinks: the sync reads
    which servers hold old copies first, and failed. Before, it was logged and tried at the
    next start only: members kept the old commands for days. Now it is tried again a few
    minutes later while the bot runs."""
    from bot import SYNC_RETRY_AFTER
    from db import StoreUnavailable

    env = simcord_env
    failures = [StoreUnavailable("the database is locked")]
    puts: list[str] = []
    real_request = type(env.bot.http).request
    kind = type(env.bot.store)
    get_meta = kind.get_meta

    async def watching(self: Any, route: Any, **kwargs: Any) -> Any:
        if route.method == "PUT" and route.url.endswith("/commands"):
            puts.append(route.url)
        return await real_request(self, route, **kwargs)

    async def blinking(self: Any, key: str) -> Any:
        if failures:
            raise failures.pop()
        return await get_meta(self, key)

    monkeypatch.setattr(type(env.bot.http), "request", watching)
    monkeypatch.setattr(kind, "get_meta", blinking)
    await env.restart_bot(make_bot())
    await env.settle()
    assert not failures, "the sync never read the database: the test no longer tests that"
    assert puts == []
    await env.advance_time(SYNC_RETRY_AFTER + 1)
    await env.settle()
    assert len(puts) == 1, f"{len(puts)} syncs after the database came back"
