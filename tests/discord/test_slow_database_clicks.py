"""A click whose move the database is slow to store (a lock another process holds, a disk
that stalls) is still answered. Discord forgets a click that has no answer within 3 s: the
player read "This interaction failed" although the move was then stored, and the answer
itself was refused (10062). Now a handler that has not answered within ``ACK_WITHIN`` (2 s)
acknowledges the click first ("working on it"), and its answer follows through the click's
webhook: the clicked message redrawn, or a private message."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from db import StaleVersion
from tests.discord.driver import Table, message_text

pytestmark = pytest.mark.parametrize("database", ["sqlite"], indirect=True)

SLOW = 3.5  # seconds the store takes: past Discord's 3 s to acknowledge a click


def slow_moves(env: Any, monkeypatch: pytest.MonkeyPatch, seconds: float = SLOW) -> None:
    store = env.bot.store
    record = store.record_move

    async def slowly(*args: Any, **kwargs: Any) -> Any:
        await asyncio.sleep(seconds)
        return await record(*args, **kwargs)

    monkeypatch.setattr(store, "record_move", slowly)


async def test_a_move_stored_slowly_is_answered(simcord_env, monkeypatch) -> None:
    """bea plays from her DM while the database takes 3.5 s: Discord gets "working on it"
    within 3 s, then her DM shows the move (before: "This interaction failed")."""
    table = await Table.start(simcord_env, "haymaker", 2, seed=1)
    game = await table.game()
    player = next(p for p in game.actors() if game.legal_actions(p))
    action = game.legal_actions(player)[0].id
    before = (await table.session()).version
    shown_before = message_text(table.dm_message(player))
    slow_moves(simcord_env, monkeypatch)
    result = await table.act(player, action, via="dm")
    assert (await table.session()).version == before + 1
    assert result.acknowledged and result.deferred, result
    assert message_text(table.dm_message(player)) != shown_before


async def test_a_refusal_after_a_slow_database_is_still_said(simcord_env, monkeypatch) -> None:
    """The move is refused after the wait (the game moved on meanwhile): the refusal
    arrives privately, after the "working on it"."""
    table = await Table.start(simcord_env, "haymaker", 2, seed=1)
    game = await table.game()
    player = next(p for p in game.actors() if game.legal_actions(p))
    store = simcord_env.bot.store
    record = store.record_move

    async def slowly_then_stale(*args: Any, **kwargs: Any) -> Any:
        await asyncio.sleep(SLOW)
        raise StaleVersion("another process moved first")

    monkeypatch.setattr(store, "record_move", slowly_then_stale)
    result = await table.act_once(player, game.legal_actions(player)[0].id)
    monkeypatch.setattr(store, "record_move", record)
    assert result.acknowledged and result.deferred, result
    assert result.followups and result.followups[-1].ephemeral, result
