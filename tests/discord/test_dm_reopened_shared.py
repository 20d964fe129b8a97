"""Shards sharing PostgreSQL: a closed DM tried again at My hand (``Presenter.retry_dm``)
while another process holds the game's drawing."""

from __future__ import annotations

from typing import Any

import pytest

from bot import open_store
from cogs import ids
from cogs.clock import now
from tests.discord.driver import Table
from tests.discord.test_dm_reopened import close_dms
from tests.discord.test_reminder_other_process import move_in_another_process
from tests.discord.test_turn_clocks import a_move, current


async def test_a_reopened_dm_is_not_lost_when_another_process_is_drawing(
    simcord_env: Any,
) -> None:
    """Two processes share the database. Bea's DMs were closed (her seat is marked), she
    opens them again and presses My hand in the channel. At that moment the other process is
    drawing the game (it holds the drawing lease, e.g. after a move clicked in a DM, which
    Discord routes to shard 0), and the next player's move lands there. ``retry_dm`` only
    flips the seat in this process's memory and asks for a redraw; ``Presenter._begin``
    finds the drawing taken and draws nothing; the other process's move makes this one
    reload the seats, closed again as stored; the other process never knew of the retry.
    Bea's DM was not tried at all (it kept an old hand), her seat stayed stored DMs-closed,
    and My hand would not try again for five minutes (before). Now the retry clears the
    stored mark first, so whichever process draws next tries her DM."""
    env = simcord_env
    if not env.bot.sessions.shared:
        pytest.skip("one process on SQLite: no other process draws the game")
    table = await Table.start(env, "uno", 3, seed=7, turn_timer=0)
    game = await table.game()
    mover = next(p for p in game.actors() if game.legal_actions(p))
    closed = [p for p in table.members if p != mover]
    dms = {p: table.dm_message(p) for p in closed}
    for p in closed:
        close_dms(env, dms[p].channel.id)  # type: ignore[union-attr]
    other = turn = ""
    for _ in range(4):  # until a closed DM is marked, of a member whose turn it is not
        await table.some_move(via="picker")
        await env.bot.presenter.idle()
        turn = await current(table)
        session = await table.session()
        marked = [p for p in closed if p != turn and session.seat(int(p)).dm_closed]  # type: ignore[union-attr]
        if marked:
            other = marked[0]
            break
    assert other, "no DM was marked closed"
    dm = dms[other]
    assert dm is not None
    env.backend.faults.clear()  # she opens her DMs again
    if turn in closed:
        close_dms(env, dms[turn].channel.id)  # type: ignore[union-attr]
    since = len(env.http_requests)

    store = await open_store(env.bot.settings)  # the other process
    store.clock = now  # the steady clock, as the bot swaps in
    try:
        assert await store.take_drawing(table.game_id, "other-process", 600.0) is not None
        member = table.members[other]
        await member.click(table.table_message(), custom_id=ids.hand(table.game_id))
        await env.bot.presenter.idle()
        # It goes on drawing because the game moved there: the next player's click, in a DM.
        await move_in_another_process(env, table.game_id, turn, await a_move(table, turn))
        rev = await store.game_rev(table.game_id)
        await store.end_drawing(table.game_id, "other-process", rev)  # it drew what it had
    finally:
        await store.close()
    await env.advance_time(60)
    await env.bot.presenter.idle()
    tries = [r for r in env.http_requests[since:] if f"/channels/{dm.channel.id}/" in r.path]
    seat = next(s for s in await env.bot.store.seats(table.game_id) if s.user_id == int(other))
    assert tries and not seat.dm_closed, (
        f"{other} opened her DMs and pressed My hand; a minute later her DM was tried "
        f"{len(tries)} times and her seat is still stored DMs-closed: {seat.dm_closed}"
    )
