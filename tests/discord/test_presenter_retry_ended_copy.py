"""A waiting retry of a game that ended meanwhile, when a failed write had replaced the copy
its failed pass held. Before, the retry drew that older copy (an ended game is not cached),
over the ended table: live buttons, for good. Now a retry of a game no longer cached draws
it as stored. The open-game case is test_presenter_retry_newest_copy.py."""

from __future__ import annotations

from typing import Any

import pytest

from cogs.presenter import RETRY_AFTER
from db import StoreUnavailable
from tests.discord.driver import Table, controls
from tests.discord.test_turn_clocks import a_move, current

pytestmark = [
    pytest.mark.parametrize("database", ["sqlite"], indirect=True),
    pytest.mark.simcord(settle_timeout=1.0),
]


def moves_offered(table: Table) -> list[str]:
    return [c.custom_id for c in controls(table.table_message()) if c.custom_id.startswith("g:")]


async def test_a_retry_never_draws_an_ended_game_from_an_older_copy(
    simcord_env: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ann plays from her DM; Discord fails that table edit once (a 5xx): a retry waits 5 s
    holding the game's copy. bea clicks while the database blinks (refused; the copy is
    dropped), clicks again (stored on a fresh copy, drawn), and ann ends the game with
    /endgame: the table shows it ended, no move buttons. Then the retry runs: the game is
    not cached any more (ended), so it draws the old copy, and the ended game's table goes
    back to a running game at ann's move, with live move buttons, for good."""
    env = simcord_env
    monkeypatch.setattr("cogs.timers.DOWN_LOOK", 30.0)
    table = await Table.start(env, "uno", 2, seed=5)
    session = await table.session()
    channel_id, table_id = session.row.channel_id, session.row.table_message_id
    first = await current(table)
    env.inject_error("PATCH", f"/channels/{channel_id}/messages/{table_id}", status=500, times=1)
    await table.act(first, await a_move(table, first), via="dm")
    await env.bot.presenter.idle()
    second = await current(table)

    store = env.bot.store
    record = store.record_move
    failures = [StoreUnavailable("database is locked")]

    async def blinking(*args: Any, **kwargs: Any) -> Any:
        if failures:
            raise failures.pop()
        return await record(*args, **kwargs)

    monkeypatch.setattr(store, "record_move", blinking)
    move = await a_move(table, second)
    dm = table.dm_message(second)
    assert dm is not None
    await table.members[second].user.click(
        dm, custom_id=next(c.custom_id for c in controls(dm) if c.custom_id.endswith(":" + move))
    )
    assert not failures and await current(table) == second  # refused, nothing changed
    await table.act(second, move, via="dm")
    await env.bot.presenter.idle()
    host = table.members[next(iter(table.members))]
    ended = await host.slash(table.channel, "endgame")
    assert not ended.ephemeral, ended.response.content
    await env.bot.presenter.idle()
    assert moves_offered(table) == [], "the ended table still offers moves"
    await env.advance_time(RETRY_AFTER + 1)  # the waiting retry runs
    await env.bot.presenter.idle()
    offered = moves_offered(table)
    assert offered == [], f"the ended game's table offers moves again: {offered[:3]}"
