"""Turn reminders (``Timers.post_nudge``) when storing the new reminder's id fails."""

from __future__ import annotations

from typing import Any

import pytest

from db import StoreUnavailable
from tests.discord.driver import Table, posted_in
from tests.discord.test_turn_clocks import NUDGE, current


def _reminders(table: Table) -> list[Any]:
    return [m for m in table.public_messages() if "your turn" in (m.content or "")]


def _fail_nudge_store_once(env: Any, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    store = env.bot.store
    real = store.set_nudge_message
    left = [1]

    async def flaky(game_id: int, message_id: int | None) -> Any:
        if left[0] and message_id is not None:
            left[0] -= 1
            raise StoreUnavailable("the database is locked (injected)")
        return await real(game_id, message_id)

    monkeypatch.setattr(store, "set_nudge_message", flaky)
    return left


async def _turn_passes(table: Table) -> str:
    before = (await table.game()).actors()
    for _ in range(3):
        await table.some_move(via="dm")
        await table.env.settle()
        after = (await table.game()).actors()
        if after != before:
            break
    assert after != before, "the move did not pass the turn: pick another seed"
    return after[0]


async def reminded_unsaved(env: Any, monkeypatch: pytest.MonkeyPatch) -> tuple[Table, str]:
    """UNO for two; the first player is reminded of her turn, and the database refuses to
    store the reminder's id once. The presenter's retry comes 12 s later (5 s in
    production; past simcord's settle window here)."""
    monkeypatch.setattr("cogs.presenter.RETRY_AFTER", 12.0)
    table = await Table.start(env, "uno", 2, seed=7)
    await env.settle()
    left = _fail_nudge_store_once(env, monkeypatch)
    ann = await current(table)
    await env.advance_time(NUDGE + 1)  # ann reminded; its id not stored
    assert left[0] == 0, "storing never failed: the test no longer tests that"
    return table, ann


async def test_old_reminder_is_deleted_when_the_new_ones_id_is_stored_by_the_retry(
    simcord_env: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ann is reminded of her turn (reminder 1), plays; bea is reminded (reminder 2) but the
    database refuses to store reminder 2's id for a moment. The presenter's retry stores it
    (``_nudges_unsaved``) and returns at once ("this reminder is in the channel already"),
    before ``_delete_later(old)``; reminder 1 was to be deleted only after the store. The
    channel then keeps "@ann your turn" for good while it is bea's turn (two reminders).
    That was before; now the retry deletes reminder 1 too: one reminder in the channel,
    bea's, as when storing works at the first try."""
    env = simcord_env
    table = await Table.start(env, "uno", 2, seed=7)
    await env.settle()
    await env.advance_time(30)
    await env.bot.presenter.idle()
    assert len(_reminders(table)) == 1, "no first reminder: the test no longer tests that"
    await _turn_passes(table)
    left = _fail_nudge_store_once(env, monkeypatch)
    for _ in range(3):
        await env.advance_time(30)
    await env.bot.presenter.idle()
    await env.settle()
    assert left[0] == 0, "storing never failed: the test no longer tests that"
    reminders = _reminders(table)
    assert len(reminders) == 1, [m.content for m in reminders]


async def test_a_reminder_retried_after_one_of_two_players_moved_pings_nobody_again(
    simcord_env: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """War of Suits: ann and bea choose at the same time and are reminded together (one
    message pinging both). The database refuses to store the reminder's id for a moment;
    before the presenter's retry ann chooses. The retry found only bea
    awaited: ``unsaved[1] == tuple(users)`` is false, so it stores the id, then posts a
    *new* reminder pinging bea again and deletes the first. bea is pinged twice for one
    turn (timing.py: "members already reminded this turn (never twice for one turn)"),
    which ``_nudges_unsaved`` was added to prevent. That was before; now the retry stores
    the id and posts nothing."""
    env = simcord_env
    # The retry comes after ann's choice (5 s in production; past simcord's settle window).
    monkeypatch.setattr("cogs.presenter.RETRY_AFTER", 30.0)
    table = await Table.start(env, "warofsuits", 2, seed=7)
    await env.settle()
    ann, bea = (await table.game()).actors()
    left = _fail_nudge_store_once(env, monkeypatch)
    start = len(env.http_requests)
    await env.advance_time(21)  # both reminded; the id not stored
    assert left[0] == 0, "storing never failed: the test no longer tests that"
    game = await table.game()
    await table.act(ann, game.legal_actions(ann)[0].id, via="dm")
    await env.advance_time(40)  # the retry
    await env.bot.presenter.idle()
    posts = posted_in(env, table.channel.id, start, "your turn")
    pinging_bea = [p for p in posts if f"<@{bea}>" in p]
    assert len(pinging_bea) == 1, pinging_bea
