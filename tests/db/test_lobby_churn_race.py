"""The lobby churn limit and two /newgame at the same instant. Before, only lobbies whose
message id was stored counted, and the id is stored after the post, outside create_lobby's
transaction: both passed the fifth place. Now open lobbies count too."""

from __future__ import annotations

import pytest

from db import Store
from db.errors import HostTooFast
from db.store import LOBBIES_PER_WINDOW


@pytest.fixture
async def store(database: str):
    store = await Store.open(database)
    yield store
    await store.close()


async def test_two_newgames_at_once_cannot_both_take_the_fifth_place(store: Store) -> None:
    """ann opened and cancelled four lobbies in a minute (each shown: its message id stored).
    She runs /newgame in #d and #e at once: #d's lobby is created and being posted (its id
    not stored yet) when #e's create_lobby checks the limit, which sees four, not five. Both
    open: six lobbies shown in ten minutes, the README's "may open five in ten minutes that
    never start" broken (before 382c930 the insert itself counted, under the host's lock)."""
    guild, ann = 1, 100
    for i in range(LOBBIES_PER_WINDOW - 1):
        row = await store.create_lobby(guild, 10 + i, "uno", ann, "ann", {}, seed=1)
        await store.set_table_message(row.id, 1000 + i, 0.0)
        assert await store.end_game(row.id, "ended")
    d = await store.create_lobby(guild, 50, "uno", ann, "ann", {}, seed=1)  # being posted
    try:
        e = await store.create_lobby(guild, 51, "uno", ann, "ann", {}, seed=1)
    except HostTooFast:
        return
    await store.set_table_message(d.id, 2000, 0.0)
    await store.set_table_message(e.id, 2001, 0.0)
    pytest.fail(f"six lobbies opened and shown within ten minutes (limit {LOBBIES_PER_WINDOW})")
