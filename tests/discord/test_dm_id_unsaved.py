"""A hand DM sent while the database blinked keeps its id. The DM went out, then storing its
id failed (PostgreSQL restarting, a disk error); the presenter's retry found the id on its
copy of the seat, edited the DM and never stored the id again. Whatever loaded the seat from
the database next (a restart, another shard) sent the member a second hand DM and left the
first behind, never updated, its buttons refused."""

from __future__ import annotations

from typing import Any

import pytest

from db import StoreUnavailable
from tests.discord.driver import Table

pytestmark = pytest.mark.parametrize("database", ["sqlite"], indirect=True)


async def test_a_dm_whose_id_could_not_be_stored_is_stored_on_the_retry(
    simcord_env, monkeypatch
) -> None:
    env = simcord_env
    table = await Table.start(env, "uno", 2, seed=1)
    session = await table.session()
    ann = session.seats[0]
    store = env.bot.store
    set_dm = store.set_dm
    failures: list[int] = []

    async def blinking(game_id: int, user_id: int, *args: Any) -> None:
        if not failures:
            failures.append(user_id)
            raise StoreUnavailable("the database is restarting")
        await set_dm(game_id, user_id, *args)

    # ann's hand DM is sent afresh (as if the first had never gone out).
    await set_dm(table.game_id, ann.user_id, None, None)
    for held in (await table.session()).seats:
        if held.user_id == ann.user_id:
            held.dm_channel_id = held.dm_message_id = None
    session.shown.dms.pop(ann.user_id, None)
    monkeypatch.setattr(store, "set_dm", blinking)
    env.bot.presenter.update(session, table=False)
    await env.bot.presenter.idle()
    assert failures == [ann.user_id]
    env.bot.presenter.retry_now()  # the presenter's retry, without waiting for it
    await env.bot.presenter.idle()
    stored = {s.user_id: s for s in await store.seats(table.game_id)}
    assert stored[ann.user_id].dm_message_id is not None, "the DM's id was never stored"
    dms = [m for m in table.members[str(ann.user_id)].user.dm_channel.history() if m.content]
    assert [m.id for m in dms][-1] == stored[ann.user_id].dm_message_id
