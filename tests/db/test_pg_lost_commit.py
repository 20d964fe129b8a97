"""PostgreSQL goes away while a move's COMMIT is on the wire: the move may be stored.

The backend knows it (db/postgres.py raises StoreUnavailable "...lost while saving" and never
retries). Before, the error took the one generic path (cogs/replies.report_error), whose text
says "nothing was changed. Please try again." Here the commit did land: the player was told
their move was not made when it was. Now the reply says it may or may not have been made.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import asyncpg
import pytest
from asyncpg.transaction import Transaction

from cogs import replies
from db import Store, StoreUnavailable
from tests.db.test_shared import started


async def test_a_move_whose_commit_landed_is_not_reported_as_nothing_changed(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = await Store.open(pg_url)
    try:
        game = await started(store, 10)
        commit = Transaction.commit

        async def commit_then_lose(self: Transaction) -> None:
            await commit(self)  # the server committed...
            # ...and the connection dropped before its answer arrived.
            raise asyncpg.exceptions.ConnectionDoesNotExistError(
                "connection was closed in the middle of operation"
            )

        monkeypatch.setattr(Transaction, "commit", commit_then_lose)
        with pytest.raises(StoreUnavailable) as caught:
            await store.record_move(game, 0, 100, "draw", {"n": 1}, {})
        monkeypatch.setattr(Transaction, "commit", commit)
        assert [seq for seq, _, _ in await store.moves(game)] == [1]  # it was stored

        told: list[str] = []

        async def capture(interaction: Any, text: str, **extra: Any) -> None:
            told.append(text)

        monkeypatch.setattr(replies, "reply", capture)
        click: Any = SimpleNamespace(command=None, data={"custom_id": f"g:{game}:0:draw"}, id=1)
        await replies.report_error(click, caught.value)
        assert told and "may or may not have been made" in told[0], (
            f"the player is told {told[0]!r} about a move that was stored"
        )
    finally:
        await store.close()
