"""The bot removed from a server while it was down. Discord sends no GUILD_DELETE for that:
the restarted bot is simply missing the server from READY. Before, only a heard removal
(``Lobby.on_guild_remove``) ended a server's games, so that game stayed active for good: its
players, playing on from their DMs, were never told it could no longer be shown, and each
move cost about twenty refused calls on the dead channel (the table edit, the turn reminder,
each retried). Now the games of servers missing from READY end at start, as a heard removal
ends them."""

from __future__ import annotations

from typing import Any

from bot import create_bot
from config import Settings
from db import StoreUnavailable
from tests.discord.driver import Table, controls, message_text


def _remove_unheard(env: Any, guild_id: int, monkeypatch: Any) -> None:
    emit = env.backend.emit
    monkeypatch.setattr(
        env.backend,
        "emit",
        lambda event, data: None if event == "GUILD_DELETE" else emit(event, data),
    )
    env.backend.remove_guild(guild_id)
    monkeypatch.setattr(env.backend, "emit", emit)


async def test_a_server_that_removed_the_bot_while_it_was_down_keeps_no_game(
    simcord_env: Any, make_bot: Any, monkeypatch: Any
) -> None:
    env = simcord_env
    table = await Table.start(env, "uno", 2, seed=7, turn_timer=0)
    await table.some_move()
    await env.settle()
    other = env.create_guild()  # another server: its lobby stays open
    lobby_channel = other.create_text_channel("games")
    host = other.add_member(env.create_user("host"))
    await host.slash(lobby_channel, "newgame uno")
    await table.bot.close()
    guild_id = table.channel.guild.id
    _remove_unheard(env, guild_id, monkeypatch)

    await env.restart_bot(make_bot())
    await env.settle()
    await env.bot.presenter.idle()
    assert env.bot.get_guild(guild_id) is None

    start = len(env.http_requests)
    session = await table.session()
    assert session.row.status == "cancelled"
    for player in table.members:
        dm = table.dm_message(player)
        assert (
            dm is not None
            and "ended early: the bot was removed from its server." in message_text(dm)
            and controls(dm) == []
        )
        assert "[table]" not in dm.content  # no link to a server the bot has left
    await env.advance_time(600)
    await env.bot.presenter.idle()
    channel_calls = [r for r in env.http_requests[start:] if f"/{table.channel.id}/" in r.path]
    assert channel_calls == []
    assert [r.status for r in await env.bot.store.open_games_in_guild(other.id)] == ["lobby"]
    joiner = other.add_member(env.create_user("joiner"))
    joined = await joiner.click(lobby_channel.last_message, label="Join")
    assert joined.acknowledged and not joined.ephemeral


async def test_a_lobby_of_a_server_left_unheard_is_closed(
    simcord_env: Any, make_bot: Any, monkeypatch: Any
) -> None:
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    ann = guild.add_member(env.create_user("ann"))
    opened = await ann.slash(channel, "newgame uno")
    assert opened.response is not None and not opened.ephemeral
    (row,) = await env.bot.store.open_games_in_guild(guild.id)
    await env.bot.close()
    _remove_unheard(env, guild.id, monkeypatch)
    await env.restart_bot(make_bot())
    await env.settle()
    assert await env.bot.store.open_games_in_guild(guild.id) == []
    assert (await env.bot.store.get_game(row.id)).status == "cancelled"  # type: ignore[union-attr]


def test_each_process_judges_only_the_servers_of_its_own_shards() -> None:
    """A sharded process does not have the other shards' servers: missing from its cache,
    they must not count as left (Discord's shard formula: (id >> 22) % count)."""
    on = {shard: next(g << 22 for g in range(100) if g % 3 == shard) for shard in range(3)}
    sharded = create_bot(
        Settings(token="t", shard_count=3, shard_ids=(1,), database_path=":memory:")
    )
    assert [sharded.serves_guild(on[s]) for s in range(3)] == [False, True, False]
    alone = create_bot(Settings(token="t", database_path=":memory:"))
    assert all(alone.serves_guild(on[s]) for s in range(3))


async def test_the_look_for_servers_left_is_tried_again_after_a_database_outage(
    simcord_env: Any, make_bot: Any, monkeypatch: Any
) -> None:
    """PostgreSQL restarting while the bot starts: the one look at READY for servers that
    removed the bot failed and was never tried again, so their games stayed active (each move
    a score of refused calls) until the next READY, perhaps days later. Now it is tried
    again until it succeeds."""
    env = simcord_env
    table = await Table.start(env, "uno", 2, seed=7, turn_timer=0)
    await table.some_move()
    await env.settle()
    kind = type(table.bot.store)
    await table.bot.close()
    guild_id = table.channel.guild.id
    _remove_unheard(env, guild_id, monkeypatch)
    real = kind.open_game_guilds
    looks: list[int] = []

    async def down_at_first(self: Any) -> Any:
        looks.append(1)
        if len(looks) == 1:
            raise StoreUnavailable("PostgreSQL at localhost:5432 is unavailable")
        return await real(self)

    monkeypatch.setattr(kind, "open_game_guilds", down_at_first)
    await env.restart_bot(make_bot())
    await env.settle()
    assert looks == [1]
    assert (await table.session()).row.status == "active"

    await env.advance_time(3 * 60)  # the next housekeeping pass (a tenth of 30 minutes)
    await env.settle()
    assert len(looks) == 2
    assert (await table.session()).row.status == "cancelled"
    await env.advance_time(600)
    assert len(looks) == 2  # done: not looked at again
