"""Upgrading a real server's database: a bot stopped at an older schema version, holding a
lobby, a running game with a turn timer and finished games, is started by today's code."""

from __future__ import annotations

import random

import pytest

from tests.db.test_upgrades import at_version
from tests.discord.driver import Table, count_edits, message_text
from tests.discord.test_uno_discord import a_move, current_player, past_first_colour


@pytest.mark.parametrize("old", [3, 4])  # the oldest of each database (later: tests/db)
async def test_a_server_upgraded_from_an_old_version_goes_on(
    simcord_env, make_bot, database, monkeypatch, old
) -> None:
    """Kept passing, as a guard: a database at each older schema version (PostgreSQL from
    4, its first), holding a finished game (stats, ratings, history) and a running UNO game
    mid-turn with a turn timer, is opened by today's bot: nothing is redrawn at start, the
    old game reads back in /history, /replay and /stats, and the turn timer fires."""
    if old < 4 and database.startswith("postgresql://"):
        pytest.skip("PostgreSQL databases start at version 4")
    env = simcord_env
    done = await Table.start(env, "haymaker", 2, "done", seed=12)
    await done.play_random(random.Random(1))
    await env.advance_time(61 * 60)  # its end is over an hour old (see test_upgrade_deploy)
    live = await Table.start(env, "uno", 3, "live", seed=11, turn_timer=60)
    await past_first_colour(live)
    for _ in range(2):
        mover = await current_player(live)
        await live.act(mover, await a_move(live, mover), via="dm")
    await env.settle()
    waiting = await current_player(live)
    version = (await live.session()).version
    await live.bot.close()
    await at_version(database, old)

    edits = count_edits(monkeypatch)
    await env.restart_bot(make_bot())
    await env.advance_time(5)
    await env.settle()
    assert edits == [], "a game shown in full before the upgrade was redrawn"

    ann = next(iter(done.members.values()))
    history = await ann.slash(done.channel, "history")
    assert f"#{done.game_id} Haymaker" in message_text(history.response)
    replay = await ann.slash(done.channel, "replay", game=done.game_id)
    assert replay.ephemeral and "Replay of game" in message_text(replay.response)
    stats = await ann.slash(done.channel, "stats")
    assert "**1** played" in message_text(stats.response)

    await env.advance_time(70)
    await env.settle()
    session = await live.session()
    assert session.version > version, "the turn timer did not fire after the upgrade"
    assert await current_player(live) != waiting
