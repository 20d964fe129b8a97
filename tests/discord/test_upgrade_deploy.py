"""Deploying a new version right after a game ended: the restart must leave it alone."""

from __future__ import annotations

import random

import pytest

from tests.discord.driver import Table


async def test_a_deploy_soon_after_a_long_game_ended_does_not_repost_its_table(
    simcord_env, make_bot, database
) -> None:
    """A game is played for 49 minutes (the table, edited in place all along, was posted at the
    start), ends and its end is posted. Two minutes later (the table is 51 minutes old) the
    owner deploys a new version (a graceful stop, then a start). Before, the writes that follow
    the end's drawing (the end posted, the reminder cleared) each made a new revision the
    presenter's note of what was shown never reached, so the start found the end "unshown":
    it redrew the finished game and, its table now too old to edit, posted a new table of a
    dead game at the bottom of the channel. Now those writes change no "shown" revision, and
    a shown end counts as shown whatever is stored after it."""
    if database.startswith("postgresql://"):
        pytest.skip("a lone bot's start-up redraw (SQLite); shared databases redraw by lease")
    env = simcord_env
    table = await Table.start(env, "haymaker", 2, seed=12)
    await table.some_move()
    await env.advance_time(49 * 60)
    await table.play_random(random.Random(1))
    await env.settle()
    before = [(m.id, m.content) for m in table.public_messages()]
    await table.bot.close()  # a graceful stop, as on SIGTERM
    await env.advance_time(120)

    await env.restart_bot(make_bot())
    await env.advance_time(5)
    await env.settle()
    after = [(m.id, m.content) for m in table.public_messages()]
    assert after == before, f"new or changed at start: {set(after) - set(before)}"
