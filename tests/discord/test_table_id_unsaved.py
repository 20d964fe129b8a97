"""A table reposted while the database blinked, then a restart: the reposted table's id is
stored on the retry, so no table is forgotten with live buttons.

The docstring tells what players saw before the fix; the assertions are what they see now."""

from __future__ import annotations

from typing import Any

import pytest

from cogs import show
from db import StoreUnavailable
from tests.discord.driver import Table, controls
from tests.discord.restarts import graceful_restart
from tests.discord.test_crash_redraw import shows
from tests.discord.test_uno_discord import a_move, current_player, past_first_colour

pytestmark = pytest.mark.parametrize("database", ["sqlite"], indirect=True)


async def test_a_table_reposted_while_its_id_could_not_be_stored_is_not_left_stale(
    simcord_env: Any, make_bot: Any, monkeypatch: Any
) -> None:
    """UNO, the table 55 minutes old: a move makes the bot repost it at the bottom of the
    channel (edits to hour-old messages are refused), and storing the new table's id fails
    once (the disk or the database blinked). The presenter's retry finds the new id in its
    copy of the game and never stores it; the old table is not marked "moved down" either.
    After a deploy the bot only knows the old table, so the next move posts a third one,
    and the table posted in between stays in the channel showing a turn long over, its
    Play buttons live. The new table's id should be stored on the retry (as a DM's id is),
    so every table but the newest reads "The table moved down"."""
    env = simcord_env
    table = await Table.start(env, "uno", 3, seed=11)
    await past_first_colour(table)
    await env.settle()
    await env.advance_time(55 * 60)  # the table is now too old to edit: the next is a repost

    store = env.bot.store
    set_table_message = store.set_table_message
    failures: list[int] = []

    async def blinking(game_id: int, message_id: int, posted_at: float) -> None:
        if not failures:
            failures.append(message_id)
            raise StoreUnavailable("the database is restarting")
        await set_table_message(game_id, message_id, posted_at)

    monkeypatch.setattr(store, "set_table_message", blinking)
    mover = await current_player(table)
    await table.act(mover, await a_move(table, mover), via="dm")
    await env.advance_time(60)  # the presenter's retries
    await env.bot.presenter.idle()
    assert failures, "the table was not reposted"

    await graceful_restart(env, make_bot)
    mover = await current_player(table)
    await table.act(mover, await a_move(table, mover), via="dm")
    await env.advance_time(5)
    await env.bot.presenter.idle()

    session = await table.session()
    live = [
        m
        for m in table.channel.history()
        if any(c.custom_id.startswith(f"g:{table.game_id}:") for c in controls(m))
    ]
    stale = [m.id for m in live if not shows(m, show.table(session))]
    assert not stale, (
        f"{len(live)} tables with live buttons in the channel; {len(stale)} show an old turn"
    )
